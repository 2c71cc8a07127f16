package fields

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// townPostcodes are the postcode ranges of Malaysian post towns (Pos
// Malaysia's allocation), generous where a town spans several: a range too
// narrow would "mend" a right postcode. Cheras has one in Selangor and one
// in Kuala Lumpur.
var townPostcodes = map[string][][2]int{
	"KUALA LUMPUR": {{50000, 60000}}, "PETALING JAYA": {{46000, 47999}}, "SHAH ALAM": {{40000, 40999}},
	"KLANG": {{41000, 42999}}, "SUBANG JAYA": {{47500, 47699}}, "PUCHONG": {{47100, 47199}},
	"SERI KEMBANGAN": {{43300, 43300}}, "KAJANG": {{43000, 43009}}, "SEMENYIH": {{43500, 43500}},
	"DENGKIL": {{43800, 43800}}, "RAWANG": {{48000, 48099}}, "AMPANG": {{68000, 68000}},
	"JOHOR BAHRU": {{79000, 81999}}, "SEREMBAN": {{70000, 70999}}, "IPOH": {{30000, 31999}},
	"CHERAS": {{43200, 43200}, {56000, 56199}}, "BALAKONG": {{43300, 43300}}, "BANGI": {{43600, 43699}},
	"HULU LANGAT": {{43100, 43100}}, "SEPANG": {{43900, 43900}}, "BANTING": {{42700, 42700}},
	"SUNGAI BULOH": {{47000, 47000}}, "BATU CAVES": {{68100, 68100}}, "SELAYANG": {{68100, 68100}},
	"CYBERJAYA": {{63000, 63999}}, "PUTRAJAYA": {{62000, 62999}}, "NILAI": {{71800, 71800}},
	"PLENTONG": {{81700, 81799}}, "MASAI": {{81700, 81799}}, "PASIR GUDANG": {{81700, 81799}},
	"SKUDAI": {{81300, 81399}}, "SENAI": {{81400, 81499}}, "KULAI": {{81000, 81099}},
	"ULU TIRAM": {{81800, 81899}}, "GELANG PATAH": {{81500, 81599}}, "BATU PAHAT": {{83000, 83099}},
	"MUAR": {{84000, 84099}}, "PAGOH": {{84600, 84699}}, "SEGAMAT": {{85000, 85099}}, "KLUANG": {{86000, 86099}},
	"MELAKA": {{75000, 78999}}, "GEORGE TOWN": {{10000, 11999}}, "BUTTERWORTH": {{12000, 13999}},
	"KUANTAN": {{25000, 26999}}, "KOTA BHARU": {{15000, 16999}}, "KUALA TERENGGANU": {{20000, 21999}},
	"ALOR SETAR": {{5000, 6999}}, "KOTA KINABALU": {{88000, 88999}}, "KUCHING": {{93000, 94999}},
}

// germanTownPostcodes are the postcode ranges of Germany's largest
// cities (Deutsche Post), for receipts set to EU.
var germanTownPostcodes = map[string][][2]int{
	"BERLIN": {{10115, 14199}}, "HAMBURG": {{20000, 22999}}, "MUENCHEN": {{80331, 81929}}, "MÜNCHEN": {{80331, 81929}},
	"KOELN": {{50667, 51149}}, "KÖLN": {{50667, 51149}}, "FRANKFURT": {{60306, 60599}, {65929, 65936}},
	"STUTTGART": {{70173, 70629}}, "DUESSELDORF": {{40210, 40629}}, "DÜSSELDORF": {{40210, 40629}},
	"LEIPZIG": {{4000, 4399}}, "DORTMUND": {{44135, 44388}}, "ESSEN": {{45127, 45359}}, "BREMEN": {{28000, 28999}},
	"DRESDEN": {{1000, 1399}}, "HANNOVER": {{30000, 30699}}, "NUERNBERG": {{90000, 90499}}, "NÜRNBERG": {{90000, 90499}},
}

// reTownPostcode is a postcode before a town's name; four digits are a
// German postcode that lost its leading 0 ("4109 LEIPZIG").
var reTownPostcode = regexp.MustCompile(`(^|[\s,])(\d{4,5}),?\s+(\p{Lu}[\p{Lu} ]+)`)

// reTownEnd is what may follow a town's name: a mark, or a state's name.
var reTownEnd = regexp.MustCompile(`^\s*([^A-Z\s]|(SELANGOR|JOHOR|WILAYAH|W\.?P|MALAYSIA|NEGERI|PERAK)\b)`)

// mendTownPostcode mends a postcode that cannot be its town's in towns
// ("93200 KUALA LUMPUR", "56667 KOELN"): when exactly one digit changed
// makes it one, that is the postcode printed, and four digits before a
// town whose codes start with 0 lost that 0 ("4109 LEIPZIG"). A postcode
// in range, or one that two changes would fit ("44000 PETALING JAYA":
// 46000 or 47000), stays as read.
func mendTownPostcode(addr string, towns map[string][][2]int) string {
	addr = mendLettersInPostcode(addr, towns)
	for _, m := range reTownPostcode.FindAllStringSubmatchIndex(addr, -1) {
		code, after := addr[m[4]:m[5]], addr[m[6]:m[7]]
		if lotNumber.MatchString(addr[:m[4]]) {
			continue // "LOT 12345": no postcode
		}
		ranges := townRanges(after, towns)
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

// postcodeLookalikes are the digits a letter read among a postcode's
// digits stands for. A, which may be a 4 or a smudged 0, is left out.
var postcodeLookalikes = map[rune]rune{'D': '0', 'O': '0', 'Q': '0', 'C': '0', 'I': '1', 'L': '1', 'Z': '2', 'S': '5', 'G': '6', 'B': '8'}

// reLetteredPostcode is five digits and capitals before a town's name.
var reLetteredPostcode = regexp.MustCompile(`(^|[\s,])([0-9A-Z]{5}),?\s+(\p{Lu}[\p{Lu} ]+)`)

// mendLettersInPostcode reads the letters of a postcode with three digits
// or more as the digits they look like ("4D170 SHAH ALAM", "500CO KUALA
// LUMPUR") when that puts it in its town's range.
func mendLettersInPostcode(addr string, towns map[string][][2]int) string {
	for _, m := range reLetteredPostcode.FindAllStringSubmatchIndex(addr, -1) {
		code := addr[m[4]:m[5]]
		if packs.CountDigits(code) < 3 || packs.CountDigits(code) == len(code) {
			continue
		}
		mended := []rune(code)
		for i, r := range mended {
			if r < '0' || r > '9' {
				if d, ok := postcodeLookalikes[r]; ok {
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
		ranges := townRanges(addr[m[6]:m[7]], towns)
		if ranges != nil && inRanges(ranges)(string(mended)) {
			addr = addr[:m[4]] + string(mended) + addr[m[5]:] // same length: later matches stay put
		}
	}
	return addr
}

// townRanges are the postcode ranges of the town whose whole name opens
// after, ending the address or a part of it ("KLANG LAMA" is a road, not
// Klang); nil when no town of towns does.
func townRanges(after string, towns map[string][][2]int) [][2]int {
	for town, rng := range towns {
		if rest, ok := strings.CutPrefix(after, town); ok && (rest == "" || reTownEnd.MatchString(rest)) {
			return rng
		}
	}
	return nil
}

// malaysianStates are the states of one word and the postcodes Pos
// Malaysia gives them.
var malaysianStates = []struct {
	name  string
	codes [][2]int
}{
	{"PERLIS", [][2]int{{1000, 2800}}},
	{"KEDAH", [][2]int{{5000, 9810}}},
	{"PENANG", [][2]int{{10000, 14400}}},
	{"KELANTAN", [][2]int{{15000, 18500}}},
	{"TERENGGANU", [][2]int{{20000, 24300}}},
	{"PAHANG", [][2]int{{25000, 28800}, {39000, 39200}, {49000, 49000}, {69000, 69000}}},
	{"PERAK", [][2]int{{30000, 36810}}},
	{"SELANGOR", [][2]int{{40000, 48300}, {63000, 68100}}},
	{"MELAKA", [][2]int{{75000, 78309}}},
	{"JOHOR", [][2]int{{79000, 86900}}},
	{"SABAH", [][2]int{{88000, 91309}}},
	{"SARAWAK", [][2]int{{93000, 98859}}},
}

// rePostcodeThenWords is a five-digit postcode and the rest of the address.
var rePostcodeThenWords = regexp.MustCompile(`\b(\d{5})\b(.*)$`)

// mendStateAfterPostcode mends a word after a Malaysian postcode that is
// two misread or lost letters or fewer from the name of the postcode's
// state, and ends as it does ("40150 SHAH ALAM SANGOR", "81200 JOHOR
// BAHRU,JOHR"). A word of our lexicon stays.
func mendStateAfterPostcode(addr string) string {
	m := rePostcodeThenWords.FindStringSubmatchIndex(addr)
	if m == nil {
		return addr
	}
	state := ""
	for _, s := range malaysianStates {
		if inRanges(s.codes)(addr[m[2]:m[3]]) {
			state = s.name
		}
	}
	if state == "" {
		return addr
	}
	after := addr[m[4]:m[5]]
	rest := mendEachWord(after, func(f string) string {
		core := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) // 5ELENGOR
		if len(core) < 4 || letterCount(core) < len(core)-1 || core == state || addressWords[core] || knownWords[core] || englishNeighbours[core] ||
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
func mendPostcode(addr string, c receipt.Country) string {
	if c == receipt.CountryMY {
		return mendStateAfterPostcode(mendTownPostcode(addr, townPostcodes))
	}
	switch c {
	case receipt.CountryEU:
		addr = mendTownPostcode(addr, germanTownPostcodes)
	case receipt.CountryAU:
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
