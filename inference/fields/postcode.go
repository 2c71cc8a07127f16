package fields

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// reTownPostcode is a postcode before a town's name; four digits are a
// German postcode that lost its leading 0 ("4109 LEIPZIG").
var reTownPostcode = regexp.MustCompile(`(^|[\s,])(\d{4,5}),?\s+(\p{Lu}[\p{Lu} ]+)`)

// townEndAfter is what may follow a town's name: a mark, or one of words
// (a state's name, the country's).
func townEndAfter(words []string) *regexp.Regexp {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = regexp.QuoteMeta(w)
	}
	if len(quoted) == 0 {
		return regexp.MustCompile(`^\s*[^A-Z\s]`)
	}
	return regexp.MustCompile(`^\s*([^A-Z\s]|(` + strings.Join(quoted, "|") + `)\b)`)
}

// mendTownPostcode mends a postcode that cannot be its town's (lx.towns)
// ("93200 KUALA LUMPUR", "56667 KOELN"): when exactly one digit changed
// makes it one, that is the postcode printed, and four digits before a
// town whose codes start with 0 lost that 0 ("4109 LEIPZIG"). A postcode
// in range, or one that two changes would fit ("44000 PETALING JAYA":
// 46000 or 47000), stays as read.
func (lx *lexicon) mendTownPostcode(addr string) string {
	addr = lx.mendTownName(lx.mendLettersInPostcode(addr))
	for _, m := range reTownPostcode.FindAllStringSubmatchIndex(addr, -1) {
		code, after := addr[m[4]:m[5]], addr[m[6]:m[7]]
		if lotNumber.MatchString(addr[:m[4]]) {
			continue // "LOT 12345": no postcode
		}
		ranges := lx.townRanges(after)
		if ranges == nil {
			continue
		}
		in := inRanges(ranges)
		if len(code) == 4 {
			// Only a code with a leading 0 lost: "4109 LEIPZIG".
			if in("0"+code) && rangesStartWithZero(ranges) {
				return addr[:m[4]] + "0" + addr[m[4]:] // the matches after it moved
			}
			continue
		}
		if fit, ok := oneDigitFit(code, in); ok {
			addr = addr[:m[4]] + fit + addr[m[5]:]
		}
	}
	return addr
}

// mendTownName reads a town's name misread after its postcode ("90402
// NIRNBERG", "40150 SHAH ALAN") as the one town of the country's table
// whose postcodes hold that postcode and whose name is a letter from it
// (two from eight letters on): the postcode and the name's other letters
// agree on it. The table's spelling takes its place.
func (lx *lexicon) mendTownName(addr string) string {
	for _, m := range reTownPostcode.FindAllStringSubmatchIndex(addr, -1) {
		code, after := addr[m[4]:m[5]], addr[m[6]:m[7]]
		if len(code) != 5 || lotNumber.MatchString(addr[:m[4]]) || lx.townRanges(after) != nil {
			continue
		}
		words := strings.Fields(after)
		best, bestD, tie, span := "", 3, false, 0
		for _, town := range lx.townNames {
			ranges := lx.towns[town]
			n := len(strings.Fields(town))
			if n > len(words) || !inRanges(ranges)(code) {
				continue
			}
			read := strings.Join(words[:n], " ")
			limit := 1
			if len(read) >= 8 {
				limit = 2
			}
			d := editDistance(packs.Fold(read), packs.Fold(town), limit)
			if d > limit || !lx.endsTown(addr, m[6], read) {
				continue
			}
			switch {
			case d < bestD:
				best, bestD, tie, span = town, d, false, len(read)
			case d == bestD && !sameTown(lx.towns[best], ranges):
				tie = true
			}
		}
		// A name that is a town's but for its marks (KOLN, KÖLN) was read
		// right.
		if best != "" && bestD > 0 && !tie {
			return addr[:m[6]] + best + addr[m[6]+span:] // the matches after it moved
		}
	}
	return addr
}

// endsTown says whether read, at from in addr, ends the address or a part
// of it, as a town's name does.
func (lx *lexicon) endsTown(addr string, from int, read string) bool {
	i := strings.Index(addr[from:], read)
	if i < 0 {
		return false
	}
	rest := addr[from+i+len(read):]
	return rest == "" || lx.townEnd.MatchString(rest)
}

// sameTown says whether two towns' postcode ranges are the same: two
// spellings of one town (MÜNCHEN, MUENCHEN).
func sameTown(a, b [][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// letterFor is the letter a digit or mark read in a letter's place stands
// for, in a postcode or a legal form (letterDigits the other way).
var letterFor = map[byte]byte{'0': 'O', '1': 'I', '2': 'Z', '5': 'S', '6': 'G', '8': 'B', ']': 'J', '|': 'I'}

// mendPostcodeShape mends the last postcode of the address whose every
// character is the country's shape's (lx.postcode) or of like shape, its
// groups printed as the shape prints them or run together, a group maybe
// split in two: "MSH 2N2" is M5H 2N2, "K1P 1]1" K1P 1J1, "K1P 1 J1" K1P
// 1J1. A code that fits as read stays.
func (lx *lexicon) mendPostcodeShape(addr string) string {
	if lx.postcode == nil {
		return addr
	}
	words := strings.Fields(addr)
	for i := len(words) - 1; i >= 0; i-- {
		code, n, ok := lx.postcodeAt(words[i:])
		if !ok {
			continue
		}
		shaped := strings.Join(append(append([]string{}, words[:i]...), append([]string{code}, words[i+n:]...)...), " ")
		if shaped == strings.Join(words, " ") {
			return addr
		}
		return shaped
	}
	return addr
}

// postcodeAt reads a postcode of the country's shape from the first of
// words: the code as the shape prints it, how many words it took, and ok.
// Its groups may run together ("M5H2N2") or a group be split ("1 J1"),
// but no word may run across two groups ("49 3511" is no 9999 AA).
func (lx *lexicon) postcodeAt(words []string) (string, int, bool) {
	joined := ""
	var cuts []int // where one word ends and the next begins
	for n, w := range words {
		last := strings.TrimRight(w, ",.")
		if joined += last; len(joined) > len(lx.shape) {
			return "", 0, false
		}
		if len(joined) < len(lx.shape) {
			cuts = append(cuts, len(joined))
			continue
		}
		for _, b := range lx.groupEnds() {
			if n > 0 && !slices.Contains(cuts, b) {
				return "", 0, false
			}
		}
		code, ok := lx.fitShape(joined)
		if !ok {
			return "", 0, false
		}
		return lx.printShape(code) + trailingMarks(w), n + 1, true
	}
	return "", 0, false
}

// groupEnds are where the postcode's groups but the last end.
func (lx *lexicon) groupEnds() []int {
	var ends []int
	at := 0
	for _, g := range lx.postcode[:len(lx.postcode)-1] {
		at += g
		ends = append(ends, at)
	}
	return ends
}

// fitShape puts back the letters and digits of a code of the shape's
// length read as their lookalikes; ok is false when one is neither.
func (lx *lexicon) fitShape(code string) (string, bool) {
	if len(code) != len(lx.shape) {
		return "", false
	}
	b := []byte(code)
	for i := range b {
		switch lx.shape[i] {
		case 'A':
			if b[i] >= 'A' && b[i] <= 'Z' {
				continue
			}
			l, ok := letterFor[b[i]]
			if !ok {
				return "", false
			}
			b[i] = l
		case '9':
			if b[i] >= '0' && b[i] <= '9' {
				continue
			}
			d, ok := letterDigits[rune(b[i])]
			if !ok {
				return "", false
			}
			b[i] = byte(d)
		}
	}
	return string(b), true
}

// printShape spaces a code's groups as the country prints them.
func (lx *lexicon) printShape(code string) string {
	var parts []string
	for _, n := range lx.postcode {
		parts = append(parts, code[:n])
		code = code[n:]
	}
	return strings.Join(parts, " ")
}

// trailingMarks are the marks that end a word ("1J1," keeps its comma).
func trailingMarks(w string) string {
	return w[len(strings.TrimRight(w, ",.")):]
}

// letterDigits are the digits a letter read among a number's digits (a
// postcode's, a tax ID's) stands for. A, which may be a 4 or a smudged 0,
// is left out.
var letterDigits = map[rune]rune{'D': '0', 'O': '0', 'Q': '0', 'C': '0', 'I': '1', 'L': '1', 'Z': '2', 'S': '5', 'G': '6', 'B': '8'}

// reLetteredPostcode is five digits and capitals before a town's name.
var reLetteredPostcode = regexp.MustCompile(`(^|[\s,])([0-9A-Z]{5}),?\s+(\p{Lu}[\p{Lu} ]+)`)

// mendLettersInPostcode reads the letters of a postcode with three digits
// or more as the digits they look like ("4D170 SHAH ALAM", "500CO KUALA
// LUMPUR") when that puts it in its town's range.
func (lx *lexicon) mendLettersInPostcode(addr string) string {
	for _, m := range reLetteredPostcode.FindAllStringSubmatchIndex(addr, -1) {
		code := addr[m[4]:m[5]]
		if packs.CountDigits(code) < 3 || packs.CountDigits(code) == len(code) {
			continue
		}
		mended := []rune(code)
		for i, r := range mended {
			if r < '0' || r > '9' {
				if d, ok := letterDigits[r]; ok {
					mended[i] = d
				} else {
					mended = nil
					break
				}
			}
		}
		if mended == nil {
			continue
		}
		ranges := lx.townRanges(addr[m[6]:m[7]])
		if ranges != nil && inRanges(ranges)(string(mended)) {
			addr = addr[:m[4]] + string(mended) + addr[m[5]:] // same length: later matches stay put
		}
	}
	return addr
}

// townRanges are the postcode ranges of the town whose whole name opens
// after, ending the address or a part of it ("KLANG LAMA" is a road, not
// Klang); nil when no town of the country does.
func (lx *lexicon) townRanges(after string) [][2]int {
	for town, rng := range lx.towns {
		if rest, ok := strings.CutPrefix(after, town); ok && (rest == "" || lx.townEnd.MatchString(rest)) {
			return rng
		}
	}
	return nil
}

// rePostcodeThenWords is a five-digit postcode and the rest of the address.
var rePostcodeThenWords = regexp.MustCompile(`\b(\d{5})\b(.*)$`)

// mendStateAfterPostcode mends a word after a postcode that is two
// misread or lost letters or fewer from the name of the postcode's state
// (lx.states), and ends as it does ("40150 SHAH ALAM SANGOR", "81200 JOHOR
// BAHRU,JOHR"). A word of our lexicon stays.
func (lx *lexicon) mendStateAfterPostcode(addr string) string {
	m := rePostcodeThenWords.FindStringSubmatchIndex(addr)
	if m == nil {
		return addr
	}
	state := ""
	for name, codes := range lx.states {
		if inRanges(codes)(addr[m[2]:m[3]]) {
			state = name
		}
	}
	if state == "" {
		return addr
	}
	after := addr[m[4]:m[5]]
	rest := mendEachWord(after, func(f string) string {
		core := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) // 5ELENGOR
		if len(core) < 4 || letterCount(core) < len(core)-1 || core == state || lx.address[core] || lx.known[core] || englishNeighbours[core] ||
			core[len(core)-1] != state[len(state)-1] || editDistance(core, state, 2) > 2 {
			return f
		}
		return strings.Replace(f, core, state, 1)
	})
	if rest == after {
		return addr
	}
	// mendEachWord joins the words with single spaces: the marks between
	// the postcode and its town stay as printed ("40150,SHAH ALAM").
	return addr[:m[4]] + after[:len(after)-len(strings.TrimLeft(after, " "))] + rest
}

// inRanges says whether a postcode lies in one of ranges.
func inRanges(ranges [][2]int) func(string) bool {
	return func(s string) bool {
		n, _ := strconv.Atoi(s)
		for _, r := range ranges {
			if n >= r[0] && n <= r[1] {
				return true
			}
		}
		return false
	}
}

// rangesStartWithZero says whether a town's postcodes are written with a
// leading 0 (Leipzig, 04103), which a reading may lose.
func rangesStartWithZero(ranges [][2]int) bool {
	for _, r := range ranges {
		if r[0] < 10000 {
			return true
		}
	}
	return false
}

// oneDigitFit is the code a postcode read as code stands for when it is
// not one in (a range) and exactly one changed digit makes it one.
func oneDigitFit(code string, in func(string) bool) (string, bool) {
	if in(code) {
		return "", false
	}
	fit := ""
	for i := range len(code) {
		for d := byte('0'); d <= '9'; d++ {
			if d == code[i] {
				continue
			}
			if c := code[:i] + string(d) + code[i+1:]; in(c) {
				if fit != "" && fit != c {
					return "", false // two fit: neither is known
				}
				fit = c
			}
		}
	}
	return fit, fit != ""
}

// auCityPostcodes are the postcodes of the Australian capitals' city
// localities (with their GPO boxes): a shop that prints BRISBANE QLD, not
// its suburb, is in 4000.
var auCityPostcodes = map[string][][2]int{
	"SYDNEY": {{2000, 2001}}, "MELBOURNE": {{3000, 3004}}, "BRISBANE": {{4000, 4001}}, "PERTH": {{6000, 6001}, {6831, 6850}},
	"ADELAIDE": {{5000, 5001}}, "HOBART": {{7000, 7001}}, "DARWIN": {{800, 801}}, "CANBERRA": {{2600, 2601}},
}

// auCapitals are the capital cities of Australia's states and territories.
var auCapitals = map[string]string{
	"NSW": "SYDNEY", "VIC": "MELBOURNE", "QLD": "BRISBANE", "WA": "PERTH", "SA": "ADELAIDE",
	"TAS": "HOBART", "NT": "DARWIN", "ACT": "CANBERRA",
}

// reAUTownStatePostcode is a town's last word, its state and a postcode.
var reAUTownStatePostcode = regexp.MustCompile(`\b[A-Z]{5,9}\s+(?:NSW|VIC|QLD|WA|SA|TAS|NT|ACT)\s+\d{4}\b`)

// reAUCityPostcode is an Australian capital, its state and its postcode.
var reAUCityPostcode = regexp.MustCompile(`\b(SYDNEY|MELBOURNE|BRISBANE|PERTH|ADELAIDE|HOBART|DARWIN|CANBERRA)\s+(NSW|VIC|QLD|WA|SA|TAS|NT|ACT)\s+(\d{4})\b`)

// mendAUCityPostcode mends the postcode of a capital's city locality read
// with one digit wrong, most often a blurred 0 ("BRISBANE QLD 4900").
func mendAUCityPostcode(addr string) string {
	// A capital's name one letter off before its own state ("SYONEY NSW
	// 2000") is that capital.
	addr = reAUTownStatePostcode.ReplaceAllStringFunc(addr, func(m string) string {
		f := strings.Fields(m)
		if c := auCapitals[f[1]]; len(f[0]) == len(c) && editDistance(f[0], c, 1) == 1 {
			return c + m[len(f[0]):]
		}
		return m
	})
	m := reAUCityPostcode.FindStringSubmatchIndex(addr)
	if m == nil || auCapitals[addr[m[4]:m[5]]] != addr[m[2]:m[3]] {
		return addr
	}
	if fit, ok := oneDigitFit(addr[m[6]:m[7]], inRanges(auCityPostcodes[addr[m[2]:m[3]]])); ok {
		return addr[:m[6]] + fit + addr[m[7]:]
	}
	return addr
}

// mendPostcode mends a postcode one digit off its town's range, and the
// postcode formats of countries whose postcodes mix letters and digits.
func mendPostcode(addr string, c receipt.Country, lx *lexicon) string {
	addr = lx.mendPostcodeShape(lx.mendTownPostcode(addr))
	if c == receipt.CountryMY {
		return lx.mendStateAfterPostcode(addr)
	}
	if c == receipt.CountryAU {
		addr = mendAUCityPostcode(addr)
	}
	if re := reSpeckAfterPostcode[c]; re != nil {
		addr = re.ReplaceAllString(addr, "$1")
	}
	if re := reSpeckAfterHouseNumber[c]; re != nil {
		addr = re.ReplaceAllString(addr, "$1$2")
	}
	if re := reSpeckBeforeTown[c]; re != nil {
		addr = re.ReplaceAllString(addr, "$1$2")
	}
	if c == receipt.CountryUK || c == receipt.CountryUS {
		addr = reSpeckBeforeHouseNumber.ReplaceAllString(addr, "$1")
	}
	if c == receipt.CountryAU || c == receipt.CountryUK || c == receipt.CountryUS {
		addr = reGluedHouseNumber.ReplaceAllString(addr, "$1 $2")
	}
	if c == receipt.CountryUS {
		addr = reDriveAsOregon.ReplaceAllStringFunc(addr, func(m string) string {
			sub := reDriveAsOregon.FindStringSubmatch(m)
			if sub[3] != "" {
				return m // a ZIP follows: Oregon
			}
			return sub[1] + "DR" + sub[2]
		})
	}
	if c == receipt.CountryEU {
		addr = reGermanHouseNumber.ReplaceAllStringFunc(addr, func(m string) string {
			sp := strings.LastIndexByte(m, ' ')
			if packs.CountDigits(m[sp+1:]) == 0 {
				return m
			}
			return m[:sp+1] + digitOf.Replace(m[sp+1:])
		})
	}
	if c != receipt.CountryUK {
		return addr
	}
	addr = reUKGluedTown.ReplaceAllString(addr, "$1 $2")
	addr = reUKAreaWithZero.ReplaceAllString(addr, "${1}O$2")
	m := reUKPostcodeEnd.FindStringSubmatchIndex(addr)
	if m == nil {
		return addr
	}
	g := func(i int) string { return addr[m[2*i]:m[2*i+1]] }
	return addr[:m[0]] + g(1) + digitOf.Replace(g(2)) + g(3) + " " + digitOf.Replace(g(4)) + g(5) + g(6)
}

// reUKAreaWithZero is a postcode whose area (CO, PO, SO, YO) was read
// with a 0 for its O ("YORK Y01 7HH"): no district number starts with 0,
// so a letter, 0 and a digit are those areas.
var reUKAreaWithZero = regexp.MustCompile(`\b([CPSY])0(\d[0-9A-Z]?\s*[0-9SOQIlB][A-Z]{2}\W*)$`)

// lotNumber is an address that ends with the word before a lot or house
// number: the five digits after it are no postcode.
var lotNumber = regexp.MustCompile(`\b(LOT|NO|P\.\s?T|PT|BATU|KM)\.?\s*$`)

// A five-digit postcode with its first digit read as a letter: S3000, §7100.
var (
	rePostcodeMisread = regexp.MustCompile(`^[S§OQIlB]\d{4},?$`)
)
