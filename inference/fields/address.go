package fields

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// findAddress collects the lines below the supplier until a phone, tax or
// document line, or a gap; pk is the page's country pack (nil: none
// known), lx the lexicon its words are mended with.
func findAddress(lines []Line, coIdx int, pk *packs.Pack, lx *lexicon) receipt.Text {
	var parts []string
	var partLines []Line
	var box *receipt.Box
	conf := 0.0
	hints := 0
	heights := make([]int, 0, len(lines))
	for _, l := range lines {
		if l.Box.H > 0 {
			heights = append(heights, l.Box.H)
		}
	}
	lineH := median(heights)
	prevBottom := -1
	skipped, idLines, contactLines := 0, 0, 0
	if lines[coIdx].Box.H > 0 {
		prevBottom = lines[coIdx].Box.Y + lines[coIdx].Box.H
	}
	taxLabels := newTaxIDLabelling()
	for i := coIdx + 1; i < len(lines) && len(parts) < 6; i++ {
		l := lines[i]
		u := strings.ToUpper(lx.mendLowerInCapsWords(strings.TrimSpace(l.Text)))
		taxID := reGSTID.MatchString(l.Text) || taxLabels.printsNumber(l.Text, pk) // "C.I.F. B60078300", "Contribuinte n.º 526919272"
		if len(parts) == 0 && idLines < 3 && (isIdentifierLine(u) || taxID) {
			idLines++
			prevBottom = l.Box.Y + l.Box.H
			continue // registration or tax number between the name and the street
		}
		u = cleanAddressLine(u, pk)
		if len(parts) == 0 && idLines < 3 && isDateTimeLine(u) {
			idLines++
			prevBottom = l.Box.Y + l.Box.H
			continue // the time of sale printed under the name: "30MAR201818:17"
		}
		if len(parts) == 0 && contactLines < 3 && (reContactLine.MatchString(u) || rePhone.MatchString(u)) &&
			!reBodyStarts.MatchString(u) && !reMoney.MatchString(u) {
			contactLines++
			prevBottom = l.Box.Y + l.Box.H
			continue // phone and tax number printed above the address: "TEL / FAX", "GST ID NO" (SROIE 382)
		}
		if taxID || isCodeLine(u) || isLabelledCode(u) || isMaskedNumber(u) || reStopAddr.MatchString(u) || pk != nil && reDocumentLabel.MatchString(strings.Join(pk.Translate(packs.Words(u)), " ")) || reDateNum.MatchString(u) || isDateTimeLine(u) || reMoney.MatchString(u) && !reStreetWord.MatchString(u) && (len(parts) > 0 || !reOpensWithPremises.MatchString(u)) || rePhone.MatchString(u) || reLabelledNumber.MatchString(strings.ToUpper(l.Text)) {
			break
		}
		// The shop's phone, or a registered name ("HAUGEN DAGLIGVARE AS"
		// under "7053 RANHEIM"), after the postcode and town ends the
		// address, whatever label the phone was printed with ("Tlf.",
		// "T1F.", "Tél."); before them (under a motto: "HAUSSCHLACHTUNG
		// SEIT 1958" / "Inh. Josef Brandl e.K." / "Marktplatz 4 - 84028
		// Landshut") it is passed over.
		if len(parts) > 0 && (pk.PhoneOn(l.Text) != "" || !HasDigit(l.Text) && endsInPacksForm(l.Text, pk, -1)) {
			if slices.ContainsFunc(parts, func(p string) bool { return rePostcodeLine.MatchString(p) || pk.IsAddressLine(p) }) {
				break
			}
			prevBottom = l.Box.Y + l.Box.H
			continue
		}
		if len(parts) == 0 && !reAddrHint.MatchString(u) && !reAddrHint.MatchString(lx.mendAddressWords(u)) && skipped < 2 {
			skipped++ // a branch name or slogan under the supplier: "IKEA CHERAS", "BISTRO & CAFE"
			prevBottom = l.Box.Y + l.Box.H
			continue
		}
		if lineH > 0 && prevBottom >= 0 && l.Box.H > 0 && l.Box.Y-prevBottom > 2*lineH && len(parts) > 0 {
			break
		}
		if letterCount(u) < 2 {
			if len(parts) > 0 {
				break
			}
			continue
		}
		if reAddrHint.MatchString(u) {
			hints++
		}
		parts = append(parts, strings.Trim(u, " "))
		partLines = append(partLines, l)
		prevBottom = l.Box.Y + l.Box.H
		if reCountryEnd.MatchString(u) {
			break // the country ends an address: "… 56000 KUALA LUMPUR, MALAYSI." over "{0} MALL" (SROIE 196)
		}
	}
	if len(parts) == 0 || hints == 0 {
		return receipt.Text{}
	}
	if k := premisesStart(parts, pk, lx); k > 0 {
		parts, partLines = parts[k:], partLines[k:]
	}
	for _, l := range partLines {
		conf += l.Conf
		if l.Box.W > 0 {
			if box == nil {
				b := l.Box
				box = &b
			} else {
				u := box.Union(l.Box)
				box = &u
			}
		}
	}
	addr := parts[0]
	for _, p := range parts[1:] {
		if strings.HasSuffix(addr, ",") {
			addr += " " + p
		} else {
			addr += ", " + p
		}
	}
	return found(addr, conf/float64(len(parts))*factorSecondReading, box, "the lines below the supplier's name, up to a phone, tax or document line")
}

// isCodeLine says whether a line is one code of more digits than letters,
// eight digits at least: a card slip's transaction or terminal code
// ("CC1829E4CEC39967", "ZA177466-P0S-03"), which ends an address's search
// as a phone line does. A glued address line holds fewer digits or more
// letters ("112015THST", "1683R0UTE9", "47400PETALINGJAYA").
func isCodeLine(u string) bool {
	f := strings.Fields(strings.Trim(u, " .,:;-*|_#"))
	if len(f) != 1 {
		return false
	}
	letters, zeros, others := countZeros(f[0])
	digits := zeros + others
	return digits >= 8 && letters >= 1 && letters < digits
}

// isLabelledCode says whether a line is a short label and a number of
// eight digits or more, and nothing else: a registration, tax or phone
// number whose label was misread ("БИК: 941198395" for ЕИК, "EWK
// 105102393"), which ends an address's search as its label would. No
// address line is a word and so long a number.
func isLabelledCode(u string) bool {
	f := strings.Fields(u)
	if len(f) != 2 {
		return false
	}
	label := strings.TrimRight(f[0], ":.№#")
	letters, zeros, others := countZeros(label)
	if letters == 0 || letters > 5 || zeros+others > 0 || utf8.RuneCountInString(label) != letters {
		return false
	}
	letters, zeros, others = countZeros(f[1])
	return letters == 0 && zeros+others >= 8 && zeros+others == utf8.RuneCountInString(strings.Trim(f[1], ".:"))
}

// isMaskedNumber says whether a line prints a masked card or account
// number: a run of four or more of one mask character or letter, and
// digits ("############6528", "**** 1234", "XXXXXXXX1234", and the "#"s
// that Tesseract read as "EEEEEE"). No address word has a letter four
// times over; the line ends an address's search.
func isMaskedNumber(u string) bool {
	if !strings.ContainsAny(u, "0123456789") {
		return false
	}
	run, last := 0, rune(0)
	for _, c := range u {
		if c == last && (c == '#' || c == '*' || unicode.IsLetter(c)) {
			run++
			if run >= 4 {
				return true
			}
			continue
		}
		run, last = 1, c
	}
	return false
}

// reDocumentLabel is a document's title or date label as the rules spell
// it: a line the page's language prints as one ("FACTURA SIMPLIFICADA",
// "KASSENBON", "FECHA") ends the address.
var reDocumentLabel = regexp.MustCompile(`\b(INVOICE|RECEIPT|DATE)\b`)

// rePremises opens an address's first line with the premises: a house
// number or the word that brings one ("NO.12,", "LOT 3", "UNIT G-13",
// "LEVEL 6", "12, JALAN", "LG226,").
var rePremises = regexp.MustCompile(`^\W*(NO\b|NO\.|LOT\b|UNIT\b|LEVEL\b|SUITE\b|SHOP\b|BLOCK\b|BLK\b|[A-Z]{0,2}-?\d+[A-Z]?\b)|\b(LEVEL|LVL|FLOOR|FLR|TINGKAT)\s*\d|#\s?[A-Z]?\d+-\d+`)

// reOpensWithPremises is an address's first line opening with its
// premises' word and number, whatever its numbers look like: "NO 24,25
// &26," is the lots 24, 25 and 26, not an amount. Further down, "NO 1234
// 12.50" is a till's line.
var reOpensWithPremises = regexp.MustCompile(`^\W*(NO|LOT|UNIT|SUITE|SHOP|BLOCK|BLK|LEVEL)\b\.?\s*\d`)

// reLabelledNumber is a line that holds a label and a number and nothing
// else ("Site : 2188", "Store No: 12"): a field of the receipt, not a line
// of an address ("NO : 12" may start one).
var reLabelledNumber = regexp.MustCompile(`^\W*(?:[A-Z]+\s){0,2}[A-Z]+\s*:\s*#?\d+\W*$`)

// premisesStart is where an address starts when a branch's or a mall's
// name was read as its first line or two ("LICENSEE OF ACME, LEVEL 6, …",
// "BANDAR BARU RAWANG, NO 15 JALAN …"): at the first of the first three
// lines that opens with the premises, when neither it nor the lines before
// it hold a postcode or are a town's line as the page's country prints
// one (where the house number follows the street: "MOLENWEG 49" over
// "3511 LX UTRECHT"). Otherwise 0.
func premisesStart(parts []string, pk *packs.Pack, lx *lexicon) int {
	for k := 0; k < len(parts) && k < 3; k++ {
		if rePostcodeLine.MatchString(parts[k]) || reFiveDigits.MatchString(parts[k]) || pk.IsAddressLine(parts[k]) {
			return 0 // the town's line: "SCHULSTRASSE 22" over "50667 KOELN", "MOLENWEG 49" over "3511 LX UTRECHT"
		}
		if rePremises.MatchString(parts[k]) || rePremises.MatchString(lx.mendAddressWords(parts[k])) { // "L EVE1 6"
			return k
		}
	}
	return 0
}

var reFiveDigits = regexp.MustCompile(`\b\d{5}\b`)

// contactWords label a phone, fax, mail or tax-number line.
const contactWords = `TEL|TELEPHONE|PHONE|PH|FAX|GST|SST|REG|ROC|CO NO|COMPANY NO|MOBILE|HP|H/P|E-?MAIL|WWW|HTTP`

var (
	// reContactLine is a phone, fax, mail or tax-number line, which some
	// receipts print between the name and the address.
	reContactLine = regexp.MustCompile(`\b(` + contactWords + `)\b`)
	// reBodyStarts is a line of the receipt's body: no address follows.
	reBodyStarts = regexp.MustCompile(`\b(INVOICE|RECEIPT|DATE|CASHIER|DOC|DOCUMENT|BILL|TABLE|TERMINAL|COUNTER)\b`)
	// reAddressLabel is the label some receipts print before the address:
	// "ADD:", "ADDRESS :", "HQ ADD:".
	reAddressLabel = regexp.MustCompile(`^\W*(HQ\s*|HEAD\s*OFFICE\s*)?(ADD|ADDR|ADDRESS|ALAMAT)\s*[:.;]\s*`)
)

// reDateTimeLine is a line that holds nothing but a date with a month's
// name and maybe a time, its spaces maybe lost: "30MAR201818:17",
// "09 May 2018 18·24", "12 MARCH 2018 9:05 PM". Its digits read as a
// postcode, but no address is written so.
var reDateTimeLine = regexp.MustCompile(`^[\s\d:.,/·\-]*\d[\s:.,/·\-]*((?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|SEPT|OCT|NOV|DEC)[A-Z]{0,6})[\s:.,/·\-]*\d[\s\d:.,/·\-]*(AM|PM)?\W*$`)

// isDateTimeLine says whether an address candidate is the time of sale.
func isDateTimeLine(u string) bool {
	m := reDateTimeLine.FindStringSubmatch(u)
	if m == nil {
		return false
	}
	_, ok := receipt.MonthNumber(m[1]) // the whole word: "MARKET 12" is no date
	return ok
}

// reCountryEnd is an address line that ends with the country's name,
// its last letter or two maybe cut off.
var reCountryEnd = regexp.MustCompile(`\b(MALAYS(IA|I)?|AUSTRALIA|SINGAPORE|UNITED KINGDOM|USA|DEUTSCHLAND|GERMANY|FRANCE)\W*$`)

// reBracketOne is a word opening with a bracket and a digit, with no
// closing bracket; the line's later words must not close it either.
var reBracketOne = regexp.MustCompile(`^[{(\[]\d[^)}\]]*$`)

// reSelangorDE is Selangor's honorific D.E. (Darul Ehsan) ending an
// address line, as OCR misreads its two small letters and dots: "DT",
// "[.€.", "OLE,", "OE.", "I.E.".
var reSelangorDE = regexp.MustCompile(`\bSELANGOR,?\s+[\[({|IDO0Q]L?[\s.,:;]*[ET€3][\s.,:;]*$`)

// reDollarNumber is a street number opening a line, its 5 read as "$".
var reDollarNumber = regexp.MustCompile(`^\W*\$\d`)

// reLetterInNumber is a letter OCR reads for a digit, between two digits.
var reLetterInNumber = regexp.MustCompile(`\d[SOIl|]\d`)

// isIdentifierLine recognises a company registration or tax number line,
// also as OCR misreads it: "Co-REG:860671-D", "Campany Reg. Na, ; 001056194X",
// "GST NO: 001329332224", "(JM0352019-K)".
func isIdentifierLine(u string) bool {
	if reRegLine.MatchString(strings.ReplaceAll(u, " ", "")) || reRegNo.MatchString(u) && letterCount(reRegNo.ReplaceAllString(u, "")) < 3 {
		return true
	}
	return reIDWord.MatchString(u) && reLongNumber.MatchString(u) && !reStreetWord.MatchString(u) ||
		reOutletCode.MatchString(u)
}

// reOutletCode is a line that numbers the outlet, not its street: "Site:
// 1046" under a petrol station's name (SROIE 064).
var reOutletCode = regexp.MustCompile(`^(SITE|STATION|STORE|BRANCH|OUTLET)\s*(NO|CODE|ID)?\.?\s*[:#]?\s*\d+\.?$`)

// cleanAddressLine drops OCR debris from an address line: marks with no
// letter or digit ("|", ":", "“") and a short fragment before the street
// number ("EE LOT R1", "| NO.19").
// joinElisions joins an elided word of the page's languages read as a
// word of its own to the word it belongs to ("D' IXELLES", "DELL' UNITA"):
// a letter and an apostrophe alone are otherwise taken for a speck.
func joinElisions(fields []string, pk *packs.Pack) []string {
	out := fields[:0]
	for i := 0; i < len(fields); i++ {
		if i+1 < len(fields) && pk.IsElision(fields[i]) {
			if r, _ := utf8.DecodeRuneInString(fields[i+1]); unicode.IsLetter(r) {
				out = append(out, fields[i]+fields[i+1])
				i++
				continue
			}
		}
		out = append(out, fields[i])
	}
	return out
}

func cleanAddressLine(u string, pk *packs.Pack) string {
	// No money in an address: "$" is a misread 5 in the street number that
	// opens a line ("$4 PITT STREET"), else a misread S ("LOT $319").
	u = reAddressLabel.ReplaceAllString(u, "")
	u = reSelangorDE.ReplaceAllString(u, "SELANGOR D.E.")
	if reDollarNumber.MatchString(u) {
		u = strings.Replace(u, "$", "5", 1)
	}
	fields := joinElisions(strings.Fields(strings.ReplaceAll(u, "$", "S")), pk)
	if len(fields) > 0 && len(fields[0]) > 2 {
		fields[0] = strings.TrimLeft(fields[0], "-~") // a rule's end glued on: "-MARKTPLATZ 90"
	}
	out := fields[:0]
	for i, f := range fields {
		switch {
		case f == "&" || f == "-" || f == "/":
			out = append(out, f)
		case !HasDigit(f) && letterCount(f) <= 1 && strings.ContainsAny(f, "“”\"'‘’`"):
			// a speck read as a quote and a letter: “S,
		case strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0:
			if HasDigit(f) {
				f = strings.ReplaceAll(f, "@", "0") // a blurred zero: "HOBART TAS 700@"
				// A bracket that opens a number and never closes is its 1:
				// "{06-107, LEVEL 1".
				if reBracketOne.MatchString(f) && !strings.ContainsAny(strings.Join(fields[i+1:], " "), ")}]") {
					f = "1" + f[1:]
				}
				// A letter between two digits is a misread digit: "1S58-TMN".
				f = reLetterInNumber.ReplaceAllStringFunc(f, digitOf.Replace)
			}
			out = append(out, rePostcodeMisread.ReplaceAllStringFunc(f, digitOf.Replace))
		}
	}
	if len(out) > 2 && len(out[0]) <= 2 && !HasDigit(out[0]) && reStreetNumberWord.MatchString(out[1]) {
		out = out[1:]
	}
	// A lone character after the last comma is a speck ("HULU LANGAT, 7"),
	// but for a street's house number where the page's languages write it
	// so ("CALLE MAYOR, 7", "VIA ROMA, 7").
	if n := len(out); n >= 3 && len([]rune(out[n-1])) == 1 && strings.HasSuffix(out[n-2], ",") && !pk.IsStreetLine(strings.Join(out, " ")) {
		out = out[:n-1]
	}
	return strings.Join(out, " ")
}

// A UK postcode ends the address: an outward code (one or two letters, a
// digit, maybe one more character) and an inward code (a digit and two
// letters). Blur reads the digits as letters or brackets ("LS] 4AB",
// "LE1 SYA") and may drop the space ("LELSYA", "DE12PQ").
var reUKPostcodeEnd = regexp.MustCompile(`\b([A-Z]{1,2})([0-9\]|lIL!])([0-9A-Z]?)\s*([0-9SOQIlB])([A-Z]{2})(\W*)$`)

// reSpeckAfterPostcode is, by country, a lone digit after the postcode
// that ends an address, or in Germany after the town that follows it: a
// speck read as a digit ("BRISBANE QLD 4000 4", "04109 LEIPZIG 2",
// "YORK YO1 7HH 1").
var reSpeckAfterPostcode = map[receipt.Country]*regexp.Regexp{
	receipt.CountryAU: regexp.MustCompile(`(\b[A-Z]{2,3}\s+\d{4})\s+\d\W*$`),
	receipt.CountryUS: regexp.MustCompile(`(\b[A-Z]{2}\s+\d{5}(?:-\d{4})?)\s+\d\W*$`),
	receipt.CountryUK: regexp.MustCompile(`([A-Z]\d[0-9A-Z]?\s*\d[A-Z]{2})\s+\d\W*$`),
	receipt.CountryEU: regexp.MustCompile(`(\b\d{5}\s+[\pL\-]{3,})\s+\d\W*$`),
}

// reSpeckAfterHouseNumber is, by country, a lone digit read from a speck
// where a street's line ends: after the street word of a line that began
// with its house number ("211 CHURCH LANE 7, YORK"), or in Germany after
// the house number that follows the street ("SCHULSTRASSE 22 4, 50667").
var reSpeckAfterHouseNumber = func() map[receipt.Country]*regexp.Regexp {
	street := regexp.MustCompile(`^(\d+[A-Z]?\s+(?:[A-Z'&]+\s+)*(?:STREET|ROAD|LANE|AVENUE|DRIVE|BOULEVARD|PARADE|TERRACE|ST|RD|LN|AVE|DR|BLVD))\s+\d(\s*,)`)
	return map[receipt.Country]*regexp.Regexp{
		receipt.CountryAU: street, receipt.CountryUK: street, receipt.CountryUS: street,
		receipt.CountryEU: regexp.MustCompile(`(\pL{3,}\s+\d{1,4}[A-Z]?)\s+\d(\s*,)`),
	}
}()

// reSpeckBeforeTown is, by country, a lone digit read from a speck before
// a town line that holds nothing but the town and its postcode ("146
// STATION ROAD, 1 LEEDS LS1 4AB"): no street word, so no house number.
var reSpeckBeforeTown = func() map[receipt.Country]*regexp.Regexp {
	town := `(,\s*)\d\s+([A-Z][A-Z'\-]+(?:\s+[A-Z][A-Z'\-]+)?\s+`
	return map[receipt.Country]*regexp.Regexp{
		receipt.CountryAU: regexp.MustCompile(town + `(?:NSW|VIC|QLD|WA|SA|TAS|NT|ACT)\s+\d{4}\W*)$`),
		receipt.CountryUK: regexp.MustCompile(town + `[A-Z]{1,2}\d[0-9A-Z]?\s*\d[A-Z]{2}\W*)$`),
		receipt.CountryUS: regexp.MustCompile(town + `[A-Z]{2}\s+\d{5}(?:-\d{4})?\W*)$`),
	}
}()

// reSpeckBeforeHouseNumber is a lone digit before the house number that
// opens a British or American address ("7 172 MAIN ST"). Not in
// Australia, where "4 12 GEORGE ST" may be unit 4/12 with its slash lost.
var reSpeckBeforeHouseNumber = regexp.MustCompile(`^\d\s+(\d{1,5}[A-Z]?\s+[A-Z])`)

// reGluedHouseNumber is a house number read against its street's name
// ("8PITT STREET", "35MAIN ST"); 1ST, 2ND and 12A keep their letters.
var reGluedHouseNumber = regexp.MustCompile(`^(\d{1,5})([A-Z]{3,}\b)`)

// reDriveAsOregon is DR read as OR where no ZIP follows, so no state: "229
// LAKE OR, TOLEDO OH 43604"; "PORTLAND OR, 97201" is Oregon.
var reDriveAsOregon = regexp.MustCompile(`(\b[A-Z]{2,}\s+)OR(\s*,)(\s*\d{5})?`)

// mendUnreadSharpS gives back a compound street name's ending whose ß
// the reader read as B or as one S ("SCHULSTRABE", "HAUPTSTRASE"):
// neither PP-OCR's alphabet nor English Tesseract's has ß. Only the
// street endings of the page's languages are mended (pk.StreetEndings,
// folded: STRASSE), where three letters or more come before them.
func mendUnreadSharpS(addr string, pk *packs.Pack) string {
	var misread [][2]string // as read, as written
	for _, e := range pk.StreetEndings() {
		if strings.Contains(e, "SS") {
			for _, as := range []string{"B", "S", "F", ""} { // ß read as B, S or F, or lost
				misread = append(misread, [2]string{strings.Replace(e, "SS", as, 1), e})
			}
		}
	}
	if len(misread) == 0 {
		return addr
	}
	words := strings.Fields(addr)
	changed := false
	for i, f := range words {
		core := strings.TrimRight(f, ".,;:")
		// The house number glued on ("STRABE62") comes back apart.
		last := strings.LastIndexFunc(core, unicode.IsLetter)
		if number := core[last+1:]; last >= 0 && number != "" && packs.CountDigits(number) == len(number) {
			core = core[:len(core)-len(number)]
			f = core + " " + f[len(core):]
		}
		for _, m := range misread {
			// The ending compounded ("LANDSTRABE"), or a word of its own
			// after the street's name ("MARIAHILFER STRABE").
			alone := core == m[0] && i > 0 && letterCount(words[i-1]) == len(words[i-1]) && len(words[i-1]) >= 3
			if alone || len(core) >= len(m[0])+3 && strings.HasSuffix(core, m[0]) {
				words[i], changed = core[:len(core)-len(m[0])]+m[1]+f[len(core):], true
				break
			}
		}
	}
	if !changed {
		return addr
	}
	return strings.Join(words, " ")
}

// reGermanHouseNumber is a German street and the number after it, where
// OCR may read a digit as a letter ("MARKTPLATZ S6").
var reGermanHouseNumber = regexp.MustCompile(`(?:STRASSE|STRAßE|STR\.|PLATZ|WEG|ALLEE|GASSE|RING|DAMM)\s+[\dSOIlB]{1,4}\b`)

// reUKGluedTown is a town and its postcode read as one word ("BATHBAL1SU",
// "LEEDSLS1 4AB"). A digit must be read as one: without it, thousands of
// English words would split.
var reUKGluedTown = regexp.MustCompile(`\b([A-Z]{3,}?)([A-Z]{1,2}(?:[0-9][0-9A-Z]?\s*[0-9SOQIlB]|[\]|lIL!][0-9A-Z]?\s*[0-9])[A-Z]{2}\W*)$`)
