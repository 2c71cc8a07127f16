package fields

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// bareVATNumber finds a UK or German VAT number that passes its checksum
// wherever it stands, for a label misread past recognition ("USt-IaNr
// DE738970300") or a number the labelled reading cut short ("VAT No GB
// 181 1959 SO"). A number with digits read as letters, or DE read as 0E,
// goes to the reviewer (0.5).
func bareVATNumber(lines []Line) receipt.Field[receipt.TaxID] {
	for _, l := range lines {
		for _, m := range reBareVATNumber.FindAllStringSubmatch(l.Text, -1) {
			read := receipt.NormalizeTaxID(m[2])
			digits := digitOf.Replace(read)
			if packs.CountDigits(read) < 7 || packs.CountDigits(digits) != len(digits) {
				continue
			}
			id := receipt.TaxID{Scheme: receipt.SchemeUKVAT, Value: "GB" + digits}
			if m[1] != "GB" {
				id = receipt.TaxID{Scheme: receipt.SchemeEUVAT, Value: "DE" + digits}
			}
			if receipt.ValidateTaxID(id) != nil {
				continue
			}
			conf, why := l.Conf*factorSecondReading, "a VAT number that passes its check digit"
			if digits != read || (m[1] != "GB" && m[1] != "DE") {
				conf, why = min(conf, confComputed), "a VAT number that passes its check digit once misread digits are put back"
			}
			var box *receipt.Box
			if l.Box.W > 0 {
				b := l.Box
				box = &b
			}
			return found(id, conf, box, why)
		}
	}
	return receipt.Field[receipt.TaxID]{}
}

// reNoReadN0 is a label's NO with its O read as 0.
var reNoReadN0 = regexp.MustCompile(`(?i)\bN0\b`)

// findTaxID finds the supplier's tax ID after its label (ABN, GST REG NO,
// VAT NO…), with digits read as letters put back and one misread digit
// mended where exactly one mend passes the checksum.
func findTaxID(lines []Line, loc receipt.Locale, pk *packs.Pack) receipt.Field[receipt.TaxID] {
	for _, l := range lines {
		m := reGSTID.FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		// Digits read as letters inside the number ("ABN 5@ 281 977 903",
		// "DES97809626").
		num := m[1]
		label := reNoReadN0.ReplaceAllString(m[0][:len(m[0])-len(m[1])], "NO") // "GST N0:"
		// The page's country's own form ("NIF: B47786405", "P.IVA
		// 04603586779"): its B is the format's, not a misread 8.
		if national, ok := pk.NationalTaxID(receipt.NormalizeTaxID(num)); ok {
			if id := receipt.DetectTaxID(national, loc.Country); receipt.ValidateTaxID(id) == nil {
				b := l.Box
				return found(id, l.Conf*factorLabelled, &b, "the number after a tax ID label, in "+pk.Name+"'s own form")
			}
		}
		switch {
		case packs.IsTaxIDShape(receipt.NormalizeTaxID(num)):
			// NL123456789B01: the B is the format's, not a misread 8.
		case len(num) > 2 && unicode.IsLetter(rune(num[0])) && unicode.IsLetter(rune(num[1])):
			num = num[:2] + digitOf.Replace(num[2:])
		default:
			num = digitOf.Replace(num)
		}
		read := receipt.DetectTaxID(label+num, loc.Country)
		id := receipt.RepairTaxID(read)
		conf, why := l.Conf*factorLabelled, "the number after a tax ID label"
		if receipt.NormalizeTaxID(id.Value) != receipt.NormalizeTaxID(read.Value) {
			// A mend the checksum allows is a guess: one digit
			// misread outside the likely pairs can pass by chance.
			// The reviewer is asked to check it.
			conf, why = min(conf, confComputed), "the number after a tax ID label, one digit mended so that its checksum passes"
		}
		if id.Value != "" && len(id.Value) >= 8 {
			b := l.Box
			return found(id, conf, &b, why)
		}
	}
	return receipt.Field[receipt.TaxID]{}
}

// reBareVATNumber is a country prefix (DE read as 0E or OE too) and nine
// characters that are digits or read for them, in groups.
var reBareVATNumber = regexp.MustCompile(`\b(DE|GB|[0O]E)((?:[\s.\-]?[\dOQ@SBIl|]){9})(?:$|[^\pL\d])`)

// labelledTaxID finds a tax ID after one of the packs' tax ID labels, in
// any language ("UID: ATU13585627", "Contribuinte n.º 526919272", "TVA BE
// 0196.075.206", "VAT No. 1E9733623F"), printed in groups or with dots: the
// number, with the two-letter prefix of a country printed before it or
// the page's country's (its own national form), must be one a country's
// format, and check where it has one, accepts. A prefix whose letter was
// read as a digit ("1E" for IE) or a check letter read as one is mended
// only where that makes such a number, and then goes to the reviewer.
func labelledTaxID(lines []Line, loc receipt.Locale, pk *packs.Pack) receipt.Field[receipt.TaxID] {
	labels := newTaxIDLabelling()
	for _, l := range lines {
		if id, ok := labels.after(l.Text, loc, pk); ok {
			return taxIDOn(l, id.id, id.mended)
		}
	}
	// A check letter read as the mark it looks like ("IE2123138]").
	for _, l := range lines {
		if text := reMarkForLetter.ReplaceAllString(l.Text, "${1}J"); text != l.Text {
			if id, ok := labels.after(text, loc, pk); ok {
				return taxIDOn(l, id.id, true)
			}
		}
	}
	// A label with a letter misread, its number maybe glued to it
	// ("Y-hunnus6191369-8"): a number its country's format and check accept
	// says what the label was.
	for _, l := range lines {
		if id, ok := labels.afterMisreadLabel(l.Text, loc, pk); ok {
			return taxIDOn(l, id, true)
		}
	}
	return receipt.Field[receipt.TaxID]{}
}

// minMisreadLabel is the fewest letters a tax ID label needs for a
// reading a letter off it to count as it ("Y-TUNNUS", "UST-IDNR", not
// "NIF" or "UID").
const minMisreadLabel = 6

// afterMisreadLabel is the tax ID a line prints after a tax ID label read
// with one letter wrong (see minMisreadLabel), the number maybe glued to
// the label's last word.
func (lb taxIDLabelling) afterMisreadLabel(text string, loc receipt.Locale, pk *packs.Pack) (receipt.TaxID, bool) {
	var words []string
	for _, w := range lb.labelWords(packs.Words(text)) {
		if m := reWordGluedToNumber.FindStringSubmatch(w); m != nil {
			words = append(words, m[1], m[2])
			continue
		}
		words = append(words, w)
	}
	for i := range words {
		for _, label := range lb.labels {
			if len(label) > len(words)-i {
				continue
			}
			want, got := strings.Join(label, " "), strings.Join(words[i:i+len(label)], " ")
			if letterCount(want) < minMisreadLabel || got == want || editDistance(got, want, 1) != 1 {
				continue
			}
			for _, read := range numberAfter(words[i+len(label):]) {
				if id, _, ok := validTaxID(read, loc, pk); ok {
					return id, true
				}
			}
		}
	}
	return receipt.TaxID{}, false
}

// reWordGluedToNumber is a word of letters with four digits or more read
// against its end.
var reWordGluedToNumber = regexp.MustCompile(`^(\pL{2,})(\d{4,})$`)

// reMarkForLetter is a bracket read for the J that ends a number.
var reMarkForLetter = regexp.MustCompile(`(\d) ?\]`)

// readTaxID is a tax ID as read, and whether a misread was put back.
type readTaxID struct {
	id     receipt.TaxID
	mended bool
}

// taxIDOn is a tax ID found on line l.
func taxIDOn(l Line, id receipt.TaxID, mended bool) receipt.Field[receipt.TaxID] {
	conf, why := l.Conf*factorLabelled, "the number after a tax ID label"
	if mended {
		conf, why = min(conf, confComputed), whyTaxIDMended
	}
	return found(id, conf, boxOf(l), why)
}

// whyTaxIDMended is the reason of a tax ID whose format and check hold
// only with a character put back.
const whyTaxIDMended = "the number after a tax ID label, a letter read as a digit or a mark put back so that its format and check hold"

// taxIDLabelling are every language's tax ID labels and every pack's tax
// words, as folded words.
type taxIDLabelling struct{ labels, taxWords [][]string }

// newTaxIDLabelling gathers the labels from the packs loaded now.
func newTaxIDLabelling() taxIDLabelling {
	return taxIDLabelling{taxIDLabels(), everyTaxWord()}
}

// labelWords are a line's words as its labels are matched: a letter of an
// initialism or a label word read as a digit put back ("C.1.F." is C.I.F.,
// "0rg.nr." Org.nr.), and a tax word
// glued to the country prefix after it taken apart ("BTWBE 0813.107.943").
func (lb taxIDLabelling) labelWords(words []string) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		switch {
		case w == "1":
			w = "I"
		case w == "0":
			w = "O"
		case letterCount(w) >= 2 && packs.CountDigits(w) == 1 && strings.ContainsAny(w, "01"):
			w = strings.NewReplacer("0", "O", "1", "I").Replace(w) // "0RG" for ORG
		}
		if tw, ok := lb.gluedToPrefix(w); ok {
			out = append(out, tw, w[len(tw):])
			continue
		}
		out = append(out, w)
	}
	return out
}

// gluedToPrefix is the tax word a word opens with when the rest of it is
// two letters (a country prefix).
func (lb taxIDLabelling) gluedToPrefix(w string) (string, bool) {
	for _, tw := range lb.taxWords {
		if len(tw) == 1 && len(w) == len(tw[0])+2 && strings.HasPrefix(w, tw[0]) && packs.CountDigits(w) == 0 {
			return tw[0], true
		}
	}
	return "", false
}

// after is the tax ID a line's text prints after a tax ID label of any
// language (see labelledTaxID).
func (lb taxIDLabelling) after(text string, loc receipt.Locale, pk *packs.Pack) (readTaxID, bool) {
	words := lb.labelWords(packs.Words(text))
	for i := range words {
		n := phraseAt(words, i, lb.labels)
		prefixed := n == 0 // after a tax word alone ("TVA BE 0196.075.206"), only a number with its country's prefix
		if prefixed {
			n = phraseAt(words, i, lb.taxWords)
		}
		if n == 0 {
			continue
		}
		for _, read := range numberAfter(words[i+n:]) {
			if prefixed && (len(read) < 2 || packs.CountDigits(read[:2]) > 0) {
				continue
			}
			id, mended, ok := validTaxID(read, loc, pk)
			if !ok || prefixed && mended {
				continue
			}
			return readTaxID{id, mended}, true
		}
		break
	}
	return readTaxID{}, false
}

// printsNumber says whether a line prints a tax ID label of any language
// with a number after it ("UID: ATU13585627"), or a tax word and a tax ID
// of a country's (pk the page's pack): the tax ID's line, which ends an
// address.
func (lb taxIDLabelling) printsNumber(text string, pk *packs.Pack) bool {
	words := lb.labelWords(packs.Words(text))
	for i := range words {
		if n := phraseAt(words, i, lb.labels); n > 0 && len(numberAfter(words[i+n:])) > 0 {
			return true
		}
	}
	_, ok := lb.after(text, receipt.Locale{}, pk) // a tax word and a prefixed number: "BTW BE 0813.107.943"
	return ok
}

// everyTaxWord are every pack's tax words (VAT, TVA, MWST…), as folded
// words.
func everyTaxWord() [][]string {
	var out [][]string
	for _, pk := range packs.All() {
		for _, w := range pk.TaxWords {
			out = append(out, packs.Words(w))
		}
	}
	return out
}

// taxIDLabels are every language's tax ID labels, as folded words.
func taxIDLabels() [][]string {
	var out [][]string
	for _, ph := range packs.InvoicePhrases() {
		if ph.Label == "TAX ID" {
			out = append(out, ph.Words)
		}
	}
	return out
}

// phraseAt is how many of words, from i, the longest label of labels
// takes; 0 when none starts there.
func phraseAt(words []string, i int, labels [][]string) int {
	best := 0
	for _, lb := range labels {
		if len(lb) > best && len(lb) <= len(words)-i && slices.Equal(words[i:i+len(lb)], lb) {
			best = len(lb)
		}
	}
	return best
}

// numberAfter are the ways to read the number that follows a label's
// words: from its first word with a digit, that word and the all-digit
// words after it (a number printed in groups or with dots), with the
// letters of a country's prefix printed apart before it ("BE 0196 075
// 206", "CHE-116.281.710") and without them.
func numberAfter(rest []string) []string {
	at := slices.IndexFunc(rest, func(w string) bool { return packs.CountDigits(w) > 0 })
	if at < 0 || at > 3 {
		return nil
	}
	num := rest[at]
	end := at + 1
	for _, w := range rest[at+1:] {
		if packs.CountDigits(w) != len(w) || len(num) >= 14 {
			break
		}
		num += w
		end++
	}
	nums := []string{num}
	// The register's word after the number makes it a VAT number ("912
	// 345 678 MVA", "CHE-116.281.710 MWST"); without it, it is none. A
	// word that only looks like one ("NIF B50934173 IVA incluido") leaves
	// the number as read to try next.
	if end < len(rest) && vatRegisterWords[rest[end]] {
		nums = []string{num + rest[end], num}
	}
	var out []string
	for _, n := range nums {
		if at > 0 && (len(rest[at-1]) == 2 || len(rest[at-1]) == 3) && packs.CountDigits(rest[at-1]) == 0 { // "BE", "CHE"
			out = append(out, rest[at-1]+n)
		}
		out = append(out, n)
	}
	return out
}

// vatRegisterWords are the words printed after a business number that is
// registered for VAT: Norway's MVA, Switzerland's MWST, TVA and IVA.
var vatRegisterWords = map[string]bool{"MVA": true, "MWST": true, "TVA": true, "IVA": true}

// validTaxID is the tax ID read stands for: as read, in the page's
// country's own national form, or with a prefix letter or check letter
// read as a digit put back (mended); ok is false when none is a number a
// country's format and check accept.
func validTaxID(read string, loc receipt.Locale, pk *packs.Pack) (id receipt.TaxID, mended, ok bool) {
	accept := func(v string) (receipt.TaxID, bool) {
		id := receipt.DetectTaxID(v, loc.Country)
		if id.Scheme == receipt.SchemeOther || id.Scheme == "" || receipt.ValidateTaxID(id) != nil {
			return receipt.TaxID{}, false
		}
		return id, true
	}
	if id, ok := accept(read); ok {
		return id, false, true
	}
	if national, ok := pk.NationalTaxID(read); ok {
		if id, ok := accept(national); ok {
			return id, false, true
		}
	}
	if len(read) > 4 && read[0] >= '0' && read[0] <= '9' && unicode.IsLetter(rune(read[1])) {
		for _, l := range digitLookalikes[rune(read[0])] {
			if id, ok := accept(string(l) + read[1:]); ok {
				return id, true, true
			}
		}
	}
	if digits, ok := lettersAsDigits(read); ok {
		if id, ok := accept(digits); ok {
			return id, true, true
		}
		if national, ok := pk.NationalTaxID(digits); ok {
			if id, ok := accept(national); ok {
				return id, true, true
			}
		}
	}
	if id := receipt.RepairTaxID(receipt.DetectTaxID(read, loc.Country)); id.Value != read {
		if id, ok := accept(id.Value); ok {
			return id, true, true
		}
	}
	return receipt.TaxID{}, false, false
}

// lettersAsDigits is a number read with one or two of its digits as the
// letters they look like (letterDigits: "1L036332" is 11036332), those
// put back; a country prefix's two letters stay. ok is false when there are none, or
// more, or another letter: only the format and check the caller asks of
// the result make it the number.
func lettersAsDigits(read string) (string, bool) {
	start := 0
	if len(read) > 2 && unicode.IsLetter(rune(read[0])) && unicode.IsLetter(rune(read[1])) {
		start = 2
	}
	out := []byte(read)
	n := 0
	for i := start; i < len(out); i++ {
		if out[i] >= '0' && out[i] <= '9' {
			continue
		}
		d, ok := letterDigits[rune(out[i])]
		if !ok {
			return "", false
		}
		out[i] = byte(d)
		n++
	}
	return string(out), n > 0 && n <= 2 && len(out)-start-n >= 6
}
