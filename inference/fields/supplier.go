package fields

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// findCompany picks the supplier line among the top of the receipt, above
// its first date, total or priced line: the first line that reads like a
// name, or a line with a legal suffix (SDN BHD, PTY LTD…) just below it,
// the registered company under a logo or trading name. A legal name
// further down ("Owned by: … SDN BHD" under the shop's address) does not
// displace the shop's name. It returns the name's first and last line, the
// name and a confidence.
func findCompany(lines []Line, pk *packs.Pack) (name receipt.Text, first, last int) {
	top := min(len(lines), 12)
	for i := 0; i < len(lines) && i < top; i++ {
		if reDateNum.MatchString(lines[i].Text) || strings.Contains(keywordText(lines[i].Text), "TOTAL") || rePricedLine.MatchString(lines[i].Text) {
			top = i
			break
		}
	}
	at := func(i int, conf float64, why string) (receipt.Text, int, int) {
		last, full := joinNextLine(lines, i, legalNameAt(lines, i, pk), pk)
		return found(strings.ToUpper(full), lines[i].Conf*conf, nil, why), i, last
	}
	plain, plainName := -1, ""
	for i := 0; i < top; i++ {
		if n := legalNameAt(lines, i, pk); n != "" {
			if namesNoOne(n, pk) {
				continue
			}
			return at(i, factorLegalForm, "a name with a legal form (LTD, PTY, SDN BHD…) at the top of the page")
		}
		if notANameLine(lines[i], pk) {
			continue
		}
		if n := plainNameAt(lines, i, pk); n != "" {
			plain, plainName = i, n
			break
		}
	}
	if plain < 0 {
		if name, first, last := nameAtHeadOfAddress(lines, -1, top, pk); first >= 0 {
			return name, first, last
		}
	}
	if plain < 0 && top < len(lines) && pk != nil && reDateNum.MatchString(lines[top].Text) {
		// A card slip prints the bank's and card's words, then the date,
		// then the merchant: "CARTE BANCAIRE / Mastercard / LE 24/08/22 /
		// BURGER JOINT".
		for i := top + 1; i < min(len(lines), top+3); i++ {
			if !notANameLine(lines[i], pk) && !reDateNum.MatchString(lines[i].Text) {
				if n := plainNameAt(lines, i, pk); n != "" {
					return found(strings.ToUpper(n), lines[i].Conf*factorPlainName*factorSecondReading, nil, "the first name under a card slip's date"), i, i
				}
			}
		}
	}
	if plain < 0 {
		return nameAtHeadOfAddress(lines, -1, top, pk)
	}
	for i := plain + 1; i < min(top, plain+4); i++ {
		if legalNameAt(lines, i, pk) == "" || i == plain+3 && !isBareLegalForm(lines[i], pk) {
			continue // three lines down, only a bare "SDN BHD" that ends the line above
		}
		const why = "a name with a legal form (LTD, PTY, SDN BHD…) just below a heading"
		if name, ok := nameFromHeading(lines, plain, plainName, i, pk); ok {
			last, full := joinNextLine(lines, i, name, pk)
			return found(strings.ToUpper(full), lines[plain].Conf*factorLabelled, nil, why), plain, last
		}
		return at(i, factorLabelled, why)
	}
	last, full := joinNextLine(lines, plain, plainName, pk)
	if end, ok := endsAtItsOwnName(lines, plain, last, pk); ok {
		last, full = end, joinedNameLines(lines, plain, end, pk)
	}
	if name, first, last := nameAtHeadOfAddress(lines, last, top, pk); first >= 0 {
		return name, first, last
	}
	if j, name, ok := printedNameBelow(lines, last, top, full, pk); ok {
		end, name := joinNextLine(lines, j, name, pk) // "Cantinho Doce - Pastelaria e" / "Cafetaria, Lda"
		return found(strings.ToUpper(name), lines[j].Conf*factorPlainName, nil, "the name printed in full under a heading that is its logo"), j, end
	}
	if own, ok := tradingNameGoesOn(lines, full, pk); ok {
		return found(strings.ToUpper(own), lines[plain].Conf*factorPlainName, nil, "the heading, as the name the page says it trades under goes on"), plain, last
	}
	return found(strings.ToUpper(full), lines[plain].Conf*factorPlainName, nil, "the first line that reads as a name at the top of the page"), plain, last
}

// tradingNameGoesOn is the name the page says it trades under ("Aroha
// Whitcombe trading as Kauri Light Photography") where the heading is its
// first words ("KAURI LIGHT" over a trade line "PHOTOGRAPHY — corporate ·
// events"): the logo set the name's last word apart.
func tradingNameGoesOn(lines []Line, heading string, pk *packs.Pack) (string, bool) {
	head := packs.Words(heading)
	if len(head) == 0 {
		return "", false
	}
	for _, l := range lines {
		own := pk.TradingAs(l.Text)
		if w := packs.Words(own); len(w) > len(head) && hasWords(w, head) {
			return own, true
		}
	}
	return "", false
}

// namesNoOne says whether a legal name holds one trade word and nothing
// else beside its legal form ("RESTAURANTS, INC."): the end of a group's
// name printed over its restaurant's, which is the name below.
func namesNoOne(name string, pk *packs.Pack) bool {
	var words []string
	for _, w := range wordsBesideLegalForm(name, pk) {
		if core := letterCore(w); core != "" {
			words = append(words, core)
		}
	}
	return len(words) == 1 && (pk.IsNameWord(words[0]) || shopWords[words[0]])
}

// nameAtHeadOfAddress is nameOverAddress's name, continued on the next
// line as names are; first is -1 when there is none.
func nameAtHeadOfAddress(lines []Line, heading, top int, pk *packs.Pack) (name receipt.Text, first, last int) {
	j, n, ok := nameOverAddress(lines, heading, top, pk)
	if !ok {
		return receipt.Text{}, -1, -1
	}
	last, full := joinNextLine(lines, j, n, pk)
	return found(strings.ToUpper(full), lines[j].Conf*factorPlainName, nil, "the name at the head of the address"), j, last
}

// nameOverAddress finds the shop's name at the head of its address's
// paragraph when the line taken for the name (at line heading, or none at
// -1) stands apart from that paragraph, above a blank stretch of paper:
// a slogan ("It pays to discover"), a card slip's "Place your card here",
// a banner ("**PURCHASE**") or the end of the receipt before on the roll
// ("Come again."). The name heads the lines of its address; a short name
// of capitals ("BOA") counts there.
func nameOverAddress(lines []Line, heading, top int, pk *packs.Pack) (int, string, bool) {
	if pk == nil {
		return 0, "", false
	}
	addr := -1
	for i := heading + 1; i < min(len(lines), heading+10, top+2); i++ {
		if pk.IsAddressLine(lines[i].Text) || pk.IsStreetLine(lines[i].Text) || rePhone.MatchString(lines[i].Text) {
			addr = i
			break
		}
	}
	if addr < 0 {
		return 0, "", false
	}
	spacing := pageSpacing(lines[:min(len(lines), addr+4)])
	if spacing.lineHeight == 0 {
		return 0, "", false
	}
	start, above := addr, addr-1
	for ; above > heading; above-- {
		if isSpeck(lines[above]) {
			continue
		}
		if spacing.blankBetween(lines[above], lines[start]) {
			break
		}
		start = above
	}
	if heading >= 0 && above == heading && !spacing.blankBetween(lines[heading], lines[start]) {
		return 0, "", false // the heading and the address are one paragraph
	}
	if start == addr && above > heading && repeatsTheLogo(lines, max(heading, 0), above) {
		// The address stands alone under its blank, and over the blank the
		// name is printed in full in words the logo above spells
		// ("BURGER / JOINT" … "BURGER JOINT" … "22 RUE RAMBUTEAU").
		if n := plainNameAt(lines, above, pk); n != "" {
			return above, n, true
		}
	}
	for j := start; j < addr; j++ {
		if isSpeck(lines[j]) || notANameLine(lines[j], pk) {
			continue
		}
		if n := plainNameAt(lines, j, pk); n != "" {
			return j, n, true
		}
		if t := cleanName(lines[j].Text, pk); j == start && isCapitalsWord(t) && lines[j].Conf >= 0.9 {
			return j, t, true
		}
		return 0, "", false
	}
	return 0, "", false
}

// repeatsTheLogo says whether the words of line at, two or more, are all
// printed on the lines from first to just above it.
func repeatsTheLogo(lines []Line, first, at int) bool {
	words := packs.Words(lines[at].Text)
	if len(words) < 2 {
		return false
	}
	above := map[string]bool{}
	for _, l := range lines[first:at] {
		for _, w := range packs.Words(l.Text) {
			above[w] = true
		}
	}
	for _, w := range words {
		if !above[w] {
			return false
		}
	}
	return true
}

// isSpeck says whether a line holds no letter and at most two marks: a
// speck of dirt or a stray digit read between the lines.
func isSpeck(l Line) bool {
	return letterCount(l.Text) == 0 && len(strings.TrimSpace(l.Text)) <= 2
}

// isCapitalsWord is one word of two or three capital letters and nothing
// else: a short name ("BOA") where a name is expected.
func isCapitalsWord(s string) bool {
	return len(s) >= 2 && len(s) <= 3 && strings.IndexFunc(s, func(r rune) bool { return r < 'A' || r > 'Z' }) < 0
}

// spacing is how a page's lines stand: their median height, and the
// median blank between one line and the next.
type spacing struct{ lineHeight, gap int }

// pageSpacing measures the spacing of the lines that have a box.
func pageSpacing(lines []Line) spacing {
	var hs, gaps []int
	for i, l := range lines {
		if l.Box.H <= 0 {
			continue
		}
		hs = append(hs, l.Box.H)
		if i > 0 && lines[i-1].Box.H > 0 {
			gaps = append(gaps, max(0, l.Box.Y-(lines[i-1].Box.Y+lines[i-1].Box.H)))
		}
	}
	return spacing{median(hs), median(gaps)}
}

// blankBetween says whether a stretch of blank paper lies between two
// lines: more than one and a half lines' height, or more than a line's
// and three times the page's usual blank between lines. Under a heading
// printed large the blank grows with it: a line is counted at least half
// the heading's height ("SAGE" in letters four lines tall over "FRENCH
// CAFE & WINE BAR").
func (s spacing) blankBetween(upper, lower Line) bool {
	if upper.Box.H == 0 || lower.Box.H == 0 {
		return false
	}
	gap := lower.Box.Y - (upper.Box.Y + upper.Box.H)
	line := max(s.lineHeight, upper.Box.H/2)
	return float64(gap) > 1.5*float64(line) || gap > line && gap > 3*s.gap
}

// notANameLine says whether a top line is the country's address line
// ("DURHAM, NC 27713"), the till's ("Store #1291", "Server: Trinity",
// "1 UIta Guests: 2") or an item's with its price.
func notANameLine(l Line, pk *packs.Pack) bool {
	if pk == nil {
		return false
	}
	if pk.IsAddressLine(l.Text) || pk.IsStreetLine(l.Text) || reTillLabelValue.MatchString(l.Text) || tillLabelWithValue(l.Text, pk) || rePricedLine.MatchString(l.Text) {
		return true
	}
	words := packs.Words(l.Text)
	if pk.IsLabelLine(words) || documentTitleLine(words, pk) {
		return true // "CARTE BANCAIRE", "Mastercard", "Fatura Simplificada FS 0214/289341"
	}
	if len(words) == 0 || !pk.IsTillWord(words[0]) {
		return false
	}
	for _, w := range words[1:] {
		if pk.IsNameWord(w) || shopWords[w] {
			return false // "TABLE MOUNTAIN RESTAURANT", "STATION ELECTRICAL"
		}
	}
	return true
}

// documentTitleLine says whether words are a document's title in the
// pack's languages (an invoice's or a receipt's) followed by nothing but
// its number: "Fatura Simplificada FS 0214/289341", "TAX INVOICE 0042".
func documentTitleLine(words []string, pk *packs.Pack) bool {
	for _, label := range []string{"INVOICE", "RECEIPT"} {
		for _, title := range pk.LabelWords(label) {
			if len(title) == 0 || len(words) <= len(title) || !slices.Equal(words[:len(title)], title) {
				continue
			}
			number := true
			for _, w := range words[len(title):] {
				number = number && (HasDigit(w) || len([]rune(w)) <= 3)
			}
			if number {
				return true
			}
		}
	}
	return false
}

// NoNameAt says whether a line of this reading that a box's middle falls
// in, and that it overlaps across, is one the rules of the page's country
// know is no name: an address's, a street's, the till's or an item's with
// its price. Another reader's name found there is a piece of that line
// ("NCE PARKWAY" out of "8030 Renaissance Parkway").
func NoNameAt(lines []Line, b *receipt.Box, country string) bool {
	if b == nil {
		return false
	}
	pk, _ := packs.Get(country)
	mid := b.Y + b.H/2
	for _, l := range lines {
		if l.Box.Page == b.Page && mid >= l.Box.Y && mid <= l.Box.Y+l.Box.H &&
			l.Box.X < b.X+b.W && b.X < l.Box.X+l.Box.W && notANameLine(l, pk) {
			return true
		}
	}
	return false
}

// printedNameBelow finds, under a heading that is a logo ("FIREFLY",
// "GRILLE"), the line that prints the business's name in full with the
// heading's words in it ("Firefly American Bistro", "Villaggio Grille"),
// within three lines and before the address.
func printedNameBelow(lines []Line, last, top int, heading string, pk *packs.Pack) (int, string, bool) {
	hw := packs.Words(heading)
	if len(hw) == 0 || len(hw) > 3 {
		return 0, "", false
	}
	for j := last + 1; j < min(top, last+4); j++ {
		l := lines[j]
		if notANameLine(l, pk) || rePhone.MatchString(l.Text) || reStreetWord.MatchString(strings.ToUpper(l.Text)) {
			return 0, "", false
		}
		text := l.Text
		own := pk.TradingAs(text)
		if own != "" {
			text = own // "o/a Kawartha Tire Hotel": the name, not its marker
		}
		name := cleanName(dropLeadingPreposition(text), pk)
		lw := packs.Words(name)
		if own != "" && slices.Equal(lw, hw) {
			return j, name, true // the heading, as the page says it trades
		}
		if len(lw) < len(hw) || letterCount(name) < letterCount(heading) || slices.Equal(lw, hw) || !fewDigits(lw) || l.Conf < 0.8 {
			continue
		}
		if containsWords(lw, hw) {
			return j, name, true
		}
	}
	return 0, "", false
}

// reLeadingPreposition is a two-letter word printed in small letters
// before a capitalised name: the owner's "of" or "by" ("di Farmacia San
// Marco S.r.l.", "by Mario Rossi"), no part of the name. A longer one is
// more likely a capital misread ("egi CASH & CARRY" for SEGI).
var reLeadingPreposition = regexp.MustCompile(`^\s*\p{Ll}{2}\s+(\p{Lu})`)

// dropLeadingPreposition takes a leading preposition off a name's line.
func dropLeadingPreposition(s string) string {
	return reLeadingPreposition.ReplaceAllString(s, "$1")
}

// containsWords says whether every word of want (of three letters or more)
// stands among words, a long word with one letter misread.
func containsWords(words, want []string) bool {
	for _, w := range want {
		if len(w) < 3 {
			continue
		}
		ok := false
		for _, x := range words {
			if x == w || len(w) >= 5 && len(x) == len(w) && hamming(x, w, 1) <= 1 {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// nameFromHeading is the whole name when the heading at line plain and
// the legal name at line legal below it are one name broken over lines
// ("AIK HUAT HARDWARE" over "ENTERPRISE (SETIA" over "ALAM) SDN BHD"):
// the heading is left open, or the next line opens with a word that ends
// names (ENTERPRISE, TRADING), which no name starts with. A legal form
// with at most one word before it joins the line above it, as in
// legalNameAt, when that line is clear enough to end a name.
func nameFromHeading(lines []Line, plain int, heading string, legal int, pk *packs.Pack) (string, bool) {
	name := cleanName(lines[legal].Text, pk)
	first := legal
	if legal == plain+2 && isNameEnd(lines[plain+1]) && wordsBeforeForm(name) <= 1 {
		name, first = cleanName(lines[plain+1].Text, pk)+" "+name, plain+1
	}
	if first != plain+1 || !continuesName(heading, name) {
		return "", false
	}
	return heading + " " + name, true
}

// nameEndWords are the words that end a shop's name and never start one.
var nameEndWords = wordSet("ENTERPRISE ENTERPRISES TRADING HOLDINGS INDUSTRIES CORPORATION BERHAD")

// continuesName says whether next goes on from a name: the name ends in
// "&" or "AND" or an unclosed bracket, or next opens with one of
// nameEndWords, read with up to two misread letters when that long
// (ENTERFRISEA).
func continuesName(name, next string) bool {
	if reContinues.MatchString(name) || strings.Count(name, "(") > strings.Count(name, ")") {
		return true
	}
	f := strings.Fields(strings.ToUpper(next))
	if len(f) == 0 {
		return false
	}
	w := letterCore(f[0])
	for end := range nameEndWords {
		if w == end || len(w) >= 8 && editDistance(w, end, 2) <= 2 {
			return true
		}
	}
	return false
}

// reTimeAtEnd is a time of day a tilted photo's reading ran into the end
// of the name's line: "IN-N-OUT BURGER SANTA CLARA 12:48 PM".
var reTimeAtEnd = regexp.MustCompile(`(?i)\s+([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?\s*([AP]\.?M\.?)?\s*$`)

// reLoneDot is a full stop the reading set apart from the word it ends
// ("SELERA KAMPUNG FOOD SDN . BHD").
var reLoneDot = regexp.MustCompile(`\s+\.(\s|$)`)

// cleanName takes the specks, registration numbers and "owned by" notes
// off a line that holds the supplier's name.
func cleanName(s string, pk *packs.Pack) string {
	s = lexiconOf(pk).mendLowerInCapsWords(reSBBeforeRegNo.ReplaceAllString(s, "${1}S/B${2}"))
	s = reRegNo.ReplaceAllStringFunc(s, func(m string) string {
		if reLegalFormIn.MatchString(strings.ToUpper(m)) {
			return m // "(M SDN BHD E0118A)": the bracket of (M) left open, not a number's
		}
		return " "
	})
	s = reOwnedBy.ReplaceAllString(s, "")
	if endsInPacksForm(s, pk, -1) || reLegalFormIn.MatchString(strings.ToUpper(s)) {
		s = dropLeadingPreposition(s) // the owner's "di Farmacia San Marco S.r.l."
	}
	s = reTimeAtEnd.ReplaceAllString(s, "")
	s = strings.Join(dropLowercaseJunk(strings.Fields(s)), " ")
	s = mendOpeningParen(reSpacedApostropheS.ReplaceAllString(reQuoteAsQuery.ReplaceAllString(fixLegalSuffix(s), "$1'$2"), "$1$2$3"))
	fields := mendCutSDN(dropAfterLegalSuffix(mendLegalFormDigits(strings.Fields(s), pk)))
	for i, f := range fields {
		fields[i] = mendStoreNumber(f)
	}
	// Drop stray marks OCR puts before and after the name: "|", "#000002".
	for len(fields) > 1 && letterCount(fields[0]) == 0 && (!HasDigit(fields[0]) || strings.HasPrefix(fields[0], "#")) {
		fields = fields[1:] // "|", "#000002"; a leading number stays: "99 SPEED MART"
	}
	// Marks and registration numbers after the name go; a short plain
	// number stays, as it does in front: the branch or shop number
	// ("TRIPLE SIX POINT ENTERPRISE 666", "PETROL STATION JAYA 2").
	for len(fields) > 1 && letterCount(fields[len(fields)-1]) == 0 && fields[len(fields)-1] != "&" && !reShopNumber.MatchString(fields[len(fields)-1]) && !reStoreNumber.MatchString(fields[len(fields)-1]) {
		fields = fields[:len(fields)-1]
	}
	name := strings.Trim(addressAfterLegalForm(reLoneDot.ReplaceAllString(strings.Join(fields, " "), ".$1"), pk), " .,:;-*|_")
	// A quote mark that opens or ends the name and is never closed or
	// opened is a speck: "\"BLUE DOOR CAFE".
	if n := strings.Count(name, `"`) + strings.Count(name, "“") + strings.Count(name, "”"); n == 1 {
		name = strings.Trim(name, `"“” `)
	}
	return name
}

// addressAfterLegalForm takes off a line's address after a comma that
// follows a legal name ("Perron Retail GmbH, Bahnhofquai 3"): anything
// with a number, or an English street's words.
func addressAfterLegalForm(s string, pk *packs.Pack) string {
	i := strings.LastIndex(s, ",")
	if i <= 0 || !endsInPacksForm(s[:i], pk, -1) {
		return s
	}
	if rest := strings.TrimSpace(s[i+1:]); HasDigit(rest) || reStreetWord.MatchString(strings.ToUpper(rest)) {
		return s[:i]
	}
	return s
}

// reLegalFormEnd is a name's legal form at its end.
var reLegalFormEnd = regexp.MustCompile(`\s*\b(SDN\.?\s*BHD|BHD|BERHAD|S/B|PTY\.?\s*LTD|LTD|LIMITED)\.?$`)

// mendLegalFormDigits writes the last words of a name with their digits
// read as the letters of like shape (letterFor) when that makes them the page's
// country's legal form and they were none as read: "SP. Z 0.0." is
// SP. Z O.O. A form needs letters beside its digits ("0.0." alone is a
// number) and three letters in all ("5A" after a name is a unit, not SA).
func mendLegalFormDigits(fields []string, pk *packs.Pack) []string {
	for k := min(len(fields)-1, 4); k >= 1; k-- {
		tail := strings.Join(fields[len(fields)-k:], " ")
		if !HasDigit(tail) || letterCount(tail) == 0 {
			continue
		}
		if _, ok := pk.IsLegalForm(packs.Words(tail)); ok {
			return fields
		}
		read := strings.Map(func(r rune) rune {
			if l, ok := letterFor[byte(r)]; ok && r < 128 {
				return rune(l)
			}
			return r
		}, tail)
		words := packs.Words(read)
		if n, ok := pk.IsLegalForm(words); ok && n == len(words) && letterCount(read) >= 3 {
			return append(slices.Clone(fields[:len(fields)-k]), strings.Fields(read)...)
		}
	}
	return fields
}

// closeBracketBeforeLegalForm closes a bracket a name opened and the
// reading lost the end of, before the legal form: "ACME HARDWARE
// (SETIA ALAM SDN BHD" is "ACME HARDWARE (SETIA ALAM) SDN BHD".
func closeBracketBeforeLegalForm(name string) string {
	open := strings.LastIndex(name, "(")
	if open < 0 || strings.Contains(name[open:], ")") {
		return name
	}
	m := reLegalFormEnd.FindStringIndex(name)
	if m == nil || m[0] <= open+1 {
		return name
	}
	return strings.TrimRight(name[:m[0]], " ") + ")" + name[m[0]:]
}

// reStoreNumber is a branch's number as a chain prints it after its
// name: "#199", "#44969-0".
var reStoreNumber = regexp.MustCompile(`^#\d{1,8}(-\d+)?$`)

// reStoreNumberMisread is a store number with a 1 read as I or l, or a 0
// as O: "#I18".
var reStoreNumberMisread = regexp.MustCompile(`^#[\dIlO]{1,8}$`)

// mendStoreNumber reads a store number's letters as the digits they stand
// for ("PRAIRIE STAR FUEL #I18" is #118), where the rest of it is digits.
func mendStoreNumber(w string) string {
	if !reStoreNumberMisread.MatchString(w) || !HasDigit(w) {
		return w
	}
	return strings.NewReplacer("I", "1", "l", "1", "O", "0").Replace(w)
}

// reShopNumber is a plain number of up to four digits.
var reShopNumber = regexp.MustCompile(`^\d{1,4}$`)

// joinNextLine continues a name on the next line, up to twice, while it
// is open: it ends in "&" or "AND", has a bracket it has not closed
// ("ENTERPRISE (SETIA" over "ALAM) SDN BHD"), or has only a trade word
// for a legal form and the next line is its legal form with at most one
// word before it ("… HARDWARE ENTERPRISE" over "JAYA SDN BHD").
func joinNextLine(lines []Line, i int, name string, pk *packs.Pack) (int, string) {
	spacing := pageSpacing(lines[:min(len(lines), i+8)])
	letter := pageLetterWidth(lines)
	for range 2 {
		if i+1 >= len(lines) {
			break
		}
		next := lines[i+1]
		u := strings.ToUpper(next.Text)
		// A heading printed large over two lines is one name ("PARQUE" /
		// "PRAÇA NOVA", "BLUEBONNET" / "GROCERS"), the large print's own
		// spacing between them no blank.
		large := sameLargePrint(lines[i], next, letter) && lines[i].Conf >= 0.8 && continuesHeading(next, pk)
		if reStopAddr.MatchString(u) || spacing.blankBetween(lines[i], next) && !large {
			break // a name goes on on the next line, not across blank paper
		}
		open := reContinues.MatchString(name) ||
			strings.Count(name, "(") > strings.Count(name, ")") && isNameEnd(next)
		legalBelow := !reRegisteredForm.MatchString(strings.ToUpper(name)) && reRegisteredForm.MatchString(fixLegalSuffix(u)) &&
			isNameEnd(next) && wordsBeforeForm(cleanName(next.Text, pk)) <= 1 ||
			endsInPacksForm(next.Text, pk, 1) && !endsInPacksForm(name, pk, -1) && next.Conf >= 0.7 && !HasDigit(next.Text) // "Cafetaria, Lda"
		// A branch in brackets under a registered name is the name's:
		// "CHECKERS HYPERMARKET SDN BHD" over "(JALAN KLANG LAMA)".
		branch := reRegisteredForm.MatchString(strings.ToUpper(name)) && reBranchLine.MatchString(u) && next.Conf >= 0.7
		if !open && !legalBelow && !branch && !large && !carriesName(name, next, pk) && !namesTheTrade(name, next, pk) {
			break
		}
		i, name = i+1, name+" "+nameGoingOn(next, pk)
	}
	return i, name
}

// endsAtItsOwnName is where a heading joined from lines first..last ends
// when the page says elsewhere what name the business trades under
// ("2739115 Ontario Inc. o/a Toadstool Toys") in the words of its first
// lines only: what was joined under them ("& G A M E S") is no part of it.
// A registered name is not asked: "CELLARBRIDGE" / "L I Q U O R" over
// "Cellarbridge Pty Ltd" may trade as either, as labels show.
func endsAtItsOwnName(lines []Line, first, last int, pk *packs.Pack) (int, bool) {
	if last <= first {
		return 0, false
	}
	var own [][]string
	for j, l := range lines {
		if j < first || j > last {
			if n := pk.TradingAs(l.Text); n != "" {
				own = append(own, packs.Words(n))
			}
		}
	}
	for end := last - 1; end >= first; end-- {
		heading := packs.Words(joinedNameLines(lines, first, end, pk))
		for _, o := range own {
			if len(heading) > 0 && slices.Equal(heading, o) {
				return end, true
			}
		}
	}
	return 0, false
}

// joinedNameLines is a name printed over lines first..end, as
// joinNextLine joins them.
func joinedNameLines(lines []Line, first, end int, pk *packs.Pack) string {
	name := cleanName(lines[first].Text, pk)
	for i := first + 1; i <= end; i++ {
		name += " " + nameGoingOn(lines[i], pk)
	}
	return name
}

// nameGoingOn is a name's next line as it joins the name, its opening
// "&" kept.
func nameGoingOn(l Line, pk *packs.Pack) string {
	more := cleanName(l.Text, pk)
	if strings.HasPrefix(strings.TrimSpace(l.Text), "&") && !strings.HasPrefix(more, "&") {
		more = "& " + more
	}
	return more
}

// letterWidth is how wide a line's letters are printed: its words' width
// over their characters (0 where it has too few to tell).
func letterWidth(l Line) float64 {
	var w, n float64
	for _, wd := range l.Words {
		if c := utf8.RuneCountInString(wd.Text); c > 0 && wd.Box.W > 0 {
			w, n = w+float64(wd.Box.W), n+float64(c)
		}
	}
	if n < 3 {
		return 0
	}
	return w / n
}

// pageLetterWidth is the median width of a page's letters, line by line.
func pageLetterWidth(lines []Line) float64 {
	var ws []float64
	for _, l := range lines {
		if w := letterWidth(l); w > 0 {
			ws = append(ws, w)
		}
	}
	if len(ws) < 5 {
		return 0
	}
	slices.Sort(ws)
	return ws[len(ws)/2]
}

// sameLargePrint says whether two lines are printed in the same large
// letters, largePrint times as wide as the page's or more, as tills print
// a name in double size.
func sameLargePrint(a, b Line, page float64) bool {
	wa, wb := letterWidth(a), letterWidth(b)
	if page <= 0 || wa < largePrint*page || wb < largePrint*page {
		return false
	}
	return max(wa, wb) <= 1.4*min(wa, wb)
}

// largePrint is how much wider than the page's a line's letters are when
// it is printed large.
const largePrint = 1.6

// continuesHeading says whether a line under a heading can be the rest of
// its name: a few words of letters (one short number at most: "CINEMAS
// 12"), read surely, and no address, phone, till or item line.
func continuesHeading(next Line, pk *packs.Pack) bool {
	t := strings.TrimSpace(next.Text)
	words := packs.Words(joinSpacedLetters(t))
	return len(words) > 0 && len(words) <= 4 && next.Conf >= 0.8 && letterCount(t) >= 2 && fewDigits(words) &&
		!notANameLine(next, pk) && !rePhone.MatchString(t) && !reStopAddr.MatchString(strings.ToUpper(t)) && (pk == nil || !pk.IsAddressLine(t))
}

// reLegalFormIn finds SDN or BHD in a bracket read as a registration
// number's.
var reLegalFormIn = regexp.MustCompile(`\b(SDN|BHD)\b`)

// reBranchLine is a line of words in brackets and nothing else.
var reBranchLine = regexp.MustCompile(`^\s*\(\s*[A-Z][A-Z .&'-]*[A-Z]\s*\)\s*$`)

// reRegisteredForm is a company's registered legal form, as against the
// trade words (ENTERPRISE, TRADING) reStrongCo also takes for one.
var reRegisteredForm = regexp.MustCompile(`\b(SDN|BHD|BERHAD|S/B|PTY|LTD|LIMITED|INC|LLC|PLC|GMBH)\b`)

// endsInPacksForm says whether text ends in one of the pack's legal forms
// with at most most words before it (any number when most < 0).
func endsInPacksForm(text string, pk *packs.Pack, most int) bool {
	w := packs.Words(text)
	n, ok := pk.IsLegalForm(w)
	return ok && (most < 0 || len(w)-n <= most)
}

// namesTheTrade says whether name is only what the business is (GASTHAUS,
// BAR RESTAURANTE) and the next line its own name ("Zum Schwarzen Adler",
// "CASA PACO"): a name line of a few words, no number, no address.
func namesTheTrade(name string, next Line, pk *packs.Pack) bool {
	if pk == nil || !onlyTradeWords(packs.Words(name), pk) || notANameLine(next, pk) || next.Conf < 0.8 {
		return false
	}
	t := strings.TrimSpace(next.Text)
	words := packs.Words(t)
	if containsWords(words, packs.Words(name)) {
		return false // the name printed in full under its trade: see printedNameBelow
	}
	return len(words) > 0 && len(words) <= 4 && !HasDigit(t) && !rePhone.MatchString(t) &&
		!pk.IsAddressLine(t) && !pk.IsStreetLine(t) && !reStreetWord.MatchString(strings.ToUpper(t)) && letterCount(t) >= 4
}

// isNameEnd says a line can end a name broken over lines: capital
// letters, no digits, read with some confidence.
func isNameEnd(l Line) bool {
	return l.Conf >= 0.7 && !HasDigit(l.Text) && letterCount(l.Text) >= 3 && upperShare(l.Text) >= 0.8 && !isNoiseLine(l)
}

// wordsBeforeForm counts the words of three letters or more in a name
// line once its legal form is taken out.
func wordsBeforeForm(name string) int {
	n := 0
	for _, w := range strings.Fields(reStrongCo.ReplaceAllString(fixLegalSuffix(strings.ToUpper(name)), "")) {
		if letterCount(w) >= 3 {
			n++
		}
	}
	return n
}

// legalNameAt is the name on line i when it carries a legal suffix; a bare
// "SDN BHD" joins the line above.
func legalNameAt(lines []Line, i int, pk *packs.Pack) string {
	u := strings.ToUpper(lines[i].Text)
	if !reStrongCo.MatchString(fixLegalSuffix(u)) || isLowerCase(lines[i].Text) || isNoiseLine(lines[i]) {
		return ""
	}
	name := endAtLegalForm(cleanName(lines[i].Text, pk))
	rest := wordsBesideLegalForm(name, pk)
	words := 0
	for _, w := range rest {
		if letterCount(w) >= 3 {
			words++
		}
	}
	switch {
	case i > 0 && letterCount(strings.Join(rest, "")) < 3: // a bare legal form
		name = cleanName(lines[i-1].Text, pk) + " " + name
	case words <= 1 && i > 0 && isNameStart(lines[i-1]):
		// "WESTERN EASTERN" over "STATIONERY SDN. BHD": one name on two lines.
		name = cleanName(lines[i-1].Text, pk) + " " + name
	case i > 0 && strings.HasPrefix(name, "(") && isNameStartOf(lines[i-1], 6):
		// "PASAR RAYA MEGA MAJU" over "(SEMENYIH) SDN BHD": no name
		// opens with its branch in brackets.
		name = cleanName(lines[i-1].Text, pk) + " " + name
	}
	if letterCount(name) < 3 {
		return ""
	}
	return name
}

// endAtLegalForm cuts a registered name from the address the line goes
// on with after a comma ("Leitner Bürobedarf Großhandels GmbH,
// Industriezeile 36, 4020 Linz"): what follows its legal form holds a
// house number or a postcode.
func endAtLegalForm(name string) string {
	for _, m := range reLegalForm.FindAllStringSubmatchIndex(name, -1) {
		end := m[3] // the form's own end, not the mark the match took after it
		rest := strings.TrimSpace(name[end:])
		if after, ok := strings.CutPrefix(rest, ","); ok && strings.ContainsAny(after, "0123456789") {
			return strings.TrimSpace(name[:end])
		}
	}
	return name
}

// isBareLegalForm says whether a line holds a legal form and hardly a
// letter else ("Sdn Bhd"), which legalNameAt joins to the line above.
func isBareLegalForm(l Line, pk *packs.Pack) bool {
	name := cleanName(l.Text, pk)
	return reStrongCo.MatchString(fixLegalSuffix(strings.ToUpper(name))) && letterCount(strings.Join(wordsBesideLegalForm(name, pk), "")) < 3
}

// wordsBesideLegalForm are the words of a name line once its legal form is
// taken out, words the spacing split joined again.
func wordsBesideLegalForm(name string, pk *packs.Pack) []string {
	lx := lexiconOf(pk)
	return strings.Fields(lx.joinSplitWords(reStrongCo.ReplaceAllString(strings.ToUpper(name), ""), lx.trade))
}

// plainNameAt is line i's text when it reads as a shop's name without a
// legal form: capitals, letters more than digits, no heading, slogan,
// street or postcode.
func plainNameAt(lines []Line, i int, pk *packs.Pack) string {
	t := cleanName(lines[i].Text, pk)
	u := strings.ToUpper(t)
	if isNoiseLine(lines[i]) || letterCount(t) < 4 || isLowerCase(t) && !lowerCaseLogo(lines, i) || isProse(t) || reHeading.MatchString(keywordText(u)) ||
		reStopAddr.MatchString(u) || reSlogan.MatchString(u) || reStreetWord.MatchString(u) && !isShopName(u) || rePostcodeLine.MatchString(u) ||
		strings.ContainsAny(t, "0123456789") && letterCount(t) < len(t)/2 {
		return ""
	}
	if upperShare(t) < 0.6 && lines[i].Conf < 0.8 {
		return ""
	}
	return t
}

// lowerCaseLogo says whether line i is a name set in small letters as a
// brand sets its logo ("shannonlink", "studio lotte verhoef"): the first
// line of a PDF's text layer, a few words. On a photo small letters at the
// top are more often the back of the paper or a motto.
func lowerCaseLogo(lines []Line, i int) bool {
	return i == 0 && fromTextLayer(lines) && len(strings.Fields(lines[i].Text)) <= 4
}

// isProse says whether a line reads as running text, not a heading: four
// words or more, each in lower case at its start ("thank you for
// shopping with us", or the back of the paper showing through, read
// mirrored: "erouatevegnurielsni neejlew eid nereisusnie ofnoX meniem"). A
// word capitalised at its first or second letter ("eBay", "iPhone"), or in
// a script without capitals, is a name's.
func isProse(s string) bool {
	words := 0
	for _, w := range strings.Fields(s) {
		r, n := utf8.DecodeRuneInString(w)
		r2, _ := utf8.DecodeRuneInString(w[n:])
		switch {
		case !unicode.IsLetter(r):
		case !unicode.IsLower(r) || unicode.IsUpper(r2):
			return false
		default:
			words++
		}
	}
	return words >= 4
}

// isShopName says whether a line with a street word is a shop's name all
// the same: no number, and it ends in a trade ("MAIN STREET BAKERY").
func isShopName(u string) bool {
	f := strings.Fields(u)
	for len(f) > 1 && legalForms[strings.Trim(f[len(f)-1], ".,")] {
		f = f[:len(f)-1] // "MAIN STREET GROCER KG"
	}
	return len(f) > 0 && !HasDigit(u) && shopWords[strings.Trim(f[len(f)-1], ".,")]
}

// legalForms are the legal-form words that may end a shop's name.
var legalForms = wordSet("LTD LIMITED PTY INC LLC KG GMBH AG SARL SAS BV NV SRL SPA PLC BHD SDN CO CORP")

// mendOpeningParen restores a "(" that OCR read as a letter or bracket
// before a short bracketed word with no opening of its own:
// "GARDENIA BAKERIES TKL) SDN BHD" → "(KL)".
func mendOpeningParen(s string) string {
	fields := strings.Fields(s)
	for i, f := range fields {
		if m := reLostParen.FindStringSubmatch(f); m != nil && !strings.Contains(strings.Join(fields[:i], " "), "(") {
			fields[i] = "(" + m[1] + ")"
		}
	}
	return strings.Join(fields, " ")
}

var reLostParen = regexp.MustCompile(`^[TIl1\[{|]([A-Z]{1,3})\)$`)

// isNameStart says a line reads as the first half of a name broken over
// two lines: a few clear capital words with no digits.
func isNameStart(l Line) bool { return isNameStartOf(l, 3) }

// isNameStartOf is isNameStart for a line of up to maxWords words.
func isNameStartOf(l Line, maxWords int) bool {
	words := strings.Fields(l.Text)
	u := strings.ToUpper(l.Text)
	return l.Conf >= 0.85 && len(words) >= 1 && len(words) <= maxWords && !HasDigit(l.Text) && upperShare(l.Text) >= 0.9 &&
		letterCount(l.Text) >= 4 && !reHeading.MatchString(keywordText(u)) && !reStopAddr.MatchString(u) && !reSlogan.MatchString(u) && !reStrongCo.MatchString(u)
}

// dropAfterLegalSuffix ends a name at its legal suffix when what follows is
// debris or a registration number ("S/B 272500-U) (KI1)", "SDN. BHD. WP"):
// receipts print nothing else after it on the name line.
func dropAfterLegalSuffix(fields []string) []string {
	// Debris read against the suffix: "BHD.L1T" is "BHD.".
	if n := len(fields); n > 0 {
		if m := reGluedAfterBHD.FindStringSubmatch(fields[n-1]); m != nil {
			fields = append(fields[:n-1:n-1], m[1])
		}
	}
	end := -1
	for i, f := range fields {
		u := strings.Trim(strings.ToUpper(f), ".,")
		if u == "BHD" || u == "BERHAD" || u == "S/B" || u == "LTD" {
			end = i
		}
	}
	if end < 0 || end == len(fields)-1 {
		return fields
	}
	for _, f := range fields[end+1:] {
		if letterCount(f) > 2 && !HasDigit(f) && !strings.ContainsAny(f, "()[]{}") {
			return fields // a real word follows: keep the line as it is
		}
	}
	return fields[:end+1]
}

// reGluedAfterBHD is BHD with a few marks read against it after its dot.
var reGluedAfterBHD = regexp.MustCompile(`^(.*\bBHD\.)[A-Z0-9|!]{1,4}$`)

// mendCutSDN mends a name whose "SDN. BHD." was cut off at the edge of the
// print and its BHD read as a speck ("BEMED (SP) SDR. a"): SDN, or SDR or
// S0N for it, followed by one last fragment of a letter or two that is no
// legal form, or nothing at all ("BEMED (SP) SDN"). SON and SUN are words
// ("& SON") and stay.
func mendCutSDN(fields []string) []string {
	n := len(fields)
	isSDN := func(core string) bool {
		return core == "SDN" || core == "SDR" || core == "S0N" || core == "5DN" || core == "SDH"
	}
	if n >= 2 {
		if last := strings.ToUpper(fields[n-1]); isSDN(strings.TrimRight(last, ".,")) {
			dot := strings.TrimPrefix(last, strings.TrimRight(last, ".,"))
			return append(fields[:n-1:n-1], "SDN"+dot, "BHD"+dot)
		}
	}
	if n < 3 {
		return fields
	}
	last, sdn := fields[n-1], strings.ToUpper(fields[n-2])
	core := strings.TrimRight(sdn, ".,")
	if !isSDN(core) {
		return fields
	}
	u := strings.ToUpper(strings.Trim(last, ".,"))
	if letterCount(last) > 2 || HasDigit(last) || legalForms[u] || u == "&" {
		return fields
	}
	dot := strings.TrimPrefix(sdn, core)
	return append(fields[:n-2:n-2], "SDN"+dot, "BHD"+dot)
}

// isNoiseLine says a line is what Tesseract makes of a logo, a stamp or
// scanner speckle: a low mean confidence, or many short fragments.
func isNoiseLine(l Line) bool {
	if l.Conf > 0 && l.Conf < 0.45 {
		return true
	}
	words := strings.Fields(l.Text)
	short := 0
	for _, w := range words {
		if letterCount(w) <= 3 && !HasDigit(w) { // numbers are content: "79 SPEED MART $/B (519837-X)"
			short++
		}
	}
	return len(words) >= 5 && short*10 >= len(words)*6 && l.Conf < 0.6 && upperShare(l.Text) < 0.8
}

// dropLowercaseJunk removes lower-case fragments before an upper-case name
// ("bee. PAGOH REST AND SERVICE AREA"): receipts print names in capitals,
// and OCR reads speckle as short lower-case words.
func dropLowercaseJunk(fields []string) []string {
	rest := strings.Join(fields, " ")
	if upperShare(rest) < 0.5 {
		return fields
	}
	for len(fields) > 1 && letterCount(fields[0]) > 0 && letterCount(fields[0]) <= 4 && isLowerCase(fields[0]) {
		fields = fields[1:]
	}
	return fields
}

// legalSuffixFixes undo the OCR misreadings of Malaysian legal suffixes
// that the shapes of the letters make likely: SDN read as SON, SEN, SDR or
// SIN, BHD as EHD, 3HD, BHO or BLD, S/B as 5/B, 5/8 or $/D, (M) as (H).
var legalSuffixFixes = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\b(S[O0DE]N|SDR|5DN|SUN|SIN|\$DN)(\.?\s*)(BHD|[BE83][HLIN1|][DO0Q]|B\.H\.D)\b`), "SDN${2}BHD"},
	// After SDN, a word of three with two of BHD's letters in place, or
	// BHD with a stroke read as a letter: "SDN BHX", "SDN 3HD", "SDNBHID".
	{regexp.MustCompile(`\bSDN(\.?\s*)([BE83][HLIN1|][DO0Q]|BH[A-Z0-9]|B[A-Z0-9]D|[A-Z0-9]HD|BH[I1L|]D)\b`), "SDN${1}BHD"},
	// SDN is always followed by BHD: a short last word after it is BHD
	// misread ("SDN. KBD").
	{regexp.MustCompile(`\bSDN(\.?\s*)[A-Z0-9|]{3}(\.?)$`), "SDN${1}BHD${2}"},
	// Before BHD, SDN broken into specks: "RAPID RAIL SL I I BHD".
	{regexp.MustCompile(`\b[S5][A-Z1|]?(?:\s+[A-Z1|]){1,3}(\s+BHD)\b`), "SDN${1}"},
	{regexp.MustCompile(`(\s)[S5$§][/|][B8RD]\b`), "${1}S/B"},
	// "(M)", for Malaysia, before SDN BHD, its M read as H or N, or its
	// bracket not closed.
	{regexp.MustCompile(`\((H|N)\)(\s*SDN)`), "(M)${2}"},
	{regexp.MustCompile(`\(M(\s+SDN)`), "(M)${1}"},
	{regexp.MustCompile(`\bPT[VY¥]([.,]?\s*)L[I1lT]D\b`), "PTY${1}LTD"},
	{regexp.MustCompile(`(\pL\s+)L[I1]D(\.?)$`), "${1}LTD${2}"}, // a name's last word
	{regexp.MustCompile(`¥`), "Y"},
	// A dotted legal form of three letters read apart ("S . a . s ."):
	// S.A.S., S.R.L., S.P.A., S.N.C.
	{regexp.MustCompile(`\bS\s*\.\s*(?:(A)\s*\.\s*(S)|(R)\s*\.\s*(L)|(P)\s*\.\s*(A)|(N)\s*\.\s*(C))\b(?:\s*\.)?`), "S.${1}${3}${5}${7}.${2}${4}${6}${8}."},
	// A dotted legal form read in two ("S .A.", "B. V."): S.A., S.L., B.V., N.V.
	{regexp.MustCompile(`\b([SBN])(?:\s+\.\s*|\.\s+)([ALV])\b\.?`), "${1}.${2}."},
}

// reSBBeforeRegNo is S/B as OCR misreads it right before the registration
// number, where nothing else is printed.
var reSBBeforeRegNo = regexp.MustCompile(`(\s)[S5$][/|][B8R](\s*\(\s*\d)`)

func fixLegalSuffix(s string) string {
	u := strings.ToUpper(s)
	for _, f := range legalSuffixFixes {
		u = f.re.ReplaceAllString(u, f.with)
	}
	if u == strings.ToUpper(s) {
		return s
	}
	return u
}

// carriesName says whether the line under a heading goes on with the
// business's name in the page's language: it opens with "&" ("MooYAH
// Burgers Fries" over "& Shakes #199") or a word that carries a name on
// ("HOTEL MIRADOURO" over "DA GRAÇA"), or ends in a word that names a
// kind of business ("Crisfield Seafood" over "Restaurant", "SAGE" over
// "FRENCH CAFE & WINE BAR"), and is no address, phone or till line.
func carriesName(name string, next Line, pk *packs.Pack) bool {
	if pk == nil || !pk.JoinNameLines || reRegisteredForm.MatchString(strings.ToUpper(name)) || notANameLine(next, pk) || next.Conf < 0.8 {
		return false
	}
	t := strings.TrimSpace(next.Text)
	words := packs.Words(joinSpacedLetters(reShopNumberEnd.ReplaceAllString(t, ""))) // "D R U G"
	if len(words) == 0 || len(words) > 5 || HasDigit(strings.Join(words, "")) || rePhone.MatchString(t) || reStreetWord.MatchString(strings.ToUpper(t)) {
		return false
	}
	if containsWords(words, packs.Words(name)) || sharesOwnWord(words, packs.Words(name), pk) {
		return false // the name printed again, in full or as the legal name: see printedNameBelow
	}
	if reListedTrades.MatchString(t) {
		return false // what the business offers, listed: "Brasserie - Bar - Terrasse", "Verleih · Service · Shop"
	}
	return strings.HasPrefix(t, "&") || opensWithNameLink(t, pk) || pk.IsNameWord(words[len(words)-1])
}

// reListedTrades is a line whose words are set apart by dashes, dots or
// bars or stars with spaces round them: a list, not a name.
var reListedTrades = regexp.MustCompile(`\pL\s+[-–·•|*]\s+\pL`)

// opensWithNameLink says whether a line opens with a word that carries a
// name on to it ("DA GRAÇA" under "HOTEL MIRADOURO"; packs.Pack.NameLinks),
// a word of its own followed by more, in a line that is no contact's
// ("E-mail: ...").
func opensWithNameLink(t string, pk *packs.Pack) bool {
	f := strings.Fields(t)
	return len(f) >= 2 && pk.IsNameLink(f[0]) && !strings.ContainsAny(t, ":@/")
}

// sharesOwnWord says whether two names share a word of three letters or
// more that names no trade: "LAVANDARIA ALVA" over "Alva Lavandarias,"
// (the legal name below the trading name, not the rest of it).
func sharesOwnWord(a, b []string, pk *packs.Pack) bool {
	for _, w := range a {
		if len(w) >= 3 && !pk.IsNameWord(w) && !shopWords[w] && slices.Contains(b, w) {
			return true
		}
	}
	return false
}

// reShopNumberEnd is a branch's number after a name: "#199", "# 30".
var reShopNumberEnd = regexp.MustCompile(`\s*#\s*\d+\s*$`)

// joinSpacedLetters joins a heading printed letter-spaced, as logos are
// ("A L D I", "TH A I"): a run of three or more fragments of one or two
// letters is one word. Two initials stay apart ("C W KHOO").
func joinSpacedLetters(s string) string {
	f := strings.Fields(s)
	var out []string
	for i := 0; i < len(f); {
		j := i
		for j < len(f) && isLetterFragment(f[j]) {
			j++
		}
		if j-i >= 3 {
			out = append(out, strings.Join(f[i:j], ""))
			i = j
			continue
		}
		if j == i {
			j++
		}
		out = append(out, f[i:j]...)
		i = j
	}
	return strings.Join(out, " ")
}

func isLetterFragment(w string) bool {
	n := len([]rune(w))
	return n >= 1 && n <= 2 && letterCount(w) == n
}

// garbledName says why a supplier's name as read is likely garbled, or
// "": letters and digits run together ("625SFALR", "730TAVERNKITHEN"), or
// letters standing alone after the first word ("SUKHO T H AI"; a
// bracketed "(M)" is Malaysia's mark, not a letter alone). Words run
// together without their spaces ("SANYUSTATIONERYSHOP") are PP-OCR's
// habit, not a misreading.
func garbledName(name string) string {
	words := strings.Fields(name)
	singles := 0
	for i, w := range words {
		core := strings.Trim(w, ".,:;'\"")
		letters, digits := letterCount(core), packs.CountDigits(core)
		switch {
		case letters >= 2 && digits >= 2 && !strings.ContainsAny(core, "-#/.") && !reStoreNumber.MatchString(core):
			return "letters and digits run together in " + strconv.Quote(w)
		case i > 0 && letters == 1 && len([]rune(core)) == 1 && core != "&" && !initialsBefore(words, i):
			singles++
		}
	}
	if singles >= 1 && len(words) <= 4 {
		return "letters standing alone in it"
	}
	return ""
}

// initialsBefore says whether the word at i is one of a name's opening
// initials ("C W KHOO").
func initialsBefore(words []string, i int) bool {
	for _, w := range words[:i] {
		if len([]rune(strings.Trim(w, "."))) != 1 {
			return false
		}
	}
	return true
}

// fewDigits says whether a name's words hold at most one short number
// ("The Place 2 Be"), not an address's or a phone's.
func fewDigits(words []string) bool {
	n := 0
	for _, w := range words {
		if HasDigit(w) {
			n++
			if len(w) > 2 {
				return false
			}
		}
	}
	return n <= 1
}

// reTillLabelValue is a till's "label: number" line ("Station: 2",
// "SEPARATE CHECKS: 1-OF-3"), never a business's name.
var reTillLabelValue = regexp.MustCompile(`^[^:\d]{2,30}:\s*\S*\d`)

// rePricedLine is a line that ends in an amount with its cents ("1
// Bells Draft 2.50"): an item's or a sum's, never a business's name.
var rePricedLine = regexp.MustCompile(`\d[.,]\d\d$`)

// reWordColonNumber is a word, a colon and a number after it.
var reWordColonNumber = regexp.MustCompile(`(\pL+)\s*:\s*\S*\d`)

// tillLabelWithValue says whether a line prints one of the till's labels
// of the page's languages with its number ("1 UIta Guests: 2", a
// table's and its guests' line with a misread in front): a till line
// wherever the label stands in it.
func tillLabelWithValue(text string, pk *packs.Pack) bool {
	for _, m := range reWordColonNumber.FindAllStringSubmatch(text, -1) {
		if pk.IsTillWord(m[1]) {
			return true
		}
	}
	return false
}

// findSupplierPhone is the shop's phone number: the first its country's
// numbering plan holds as one of its own on a line of the heading, above
// the first amount, else of the footer, below the last; never a number
// after FAX. Numbers among the sale's lines are the card's,
// the terminal's, a customer's.
func findSupplierPhone(lines []Line, pk *packs.Pack) receipt.Text {
	first, last := len(lines), -1
	for i, l := range lines {
		if len(amountsIn(l.Text)) > 0 {
			first, last = min(first, i), i
		}
	}
	at := func(i int) (receipt.Text, bool) {
		if n := pk.PhoneOn(withoutFax(lines[i].Text)); n != "" {
			return found(n, lines[i].Conf*confLikely, boxOf(lines[i]), "the phone number printed with the shop's name and address"), true
		}
		return receipt.Text{}, false
	}
	for i := 0; i < first; i++ {
		if t, ok := at(i); ok {
			return t
		}
	}
	for i := last + 1; i < len(lines); i++ {
		if t, ok := at(i); ok {
			t.Why = "the phone number printed at the foot of the receipt"
			return t
		}
	}
	return receipt.Text{}
}

// withoutFax is a line without its fax numbers: a fax label and the
// number after it, no phone to call. A number labelled both ("TEL/FAX:
// 07-5547360", "Tel. & Fax") is the phone's.
func withoutFax(text string) string {
	var b strings.Builder
	last := 0
	for _, m := range reFax.FindAllStringIndex(text, -1) {
		if reTelBeforeFax.MatchString(text[:m[0]]) {
			continue
		}
		b.WriteString(text[last:m[0]])
		b.WriteString(" ")
		last = m[1]
	}
	return b.String() + text[last:]
}

// reFax is a fax label and the number after it ("Fax 0761 555 38 21",
// "FAX NO: 07-5547361", "Fax-Nr.: 089/12345").
var reFax = regexp.MustCompile(`(?i)\b(?:TELE)?FAX\b(?:[\s-]*(?:NO|NR|N°|NUMBER)\b\.?)?[\s.:]*[\d+()./ -]*`)

// reTelBeforeFax is a phone label joined to the fax label after it
// ("TEL/", "Tel. & ", "PHONE &").
var reTelBeforeFax = regexp.MustCompile(`(?i)\b(?:TEL|TELEPHONE|PHONE|TÉL|TLF|TELEFON)\.?\s*[/&+,]\s*$`)
