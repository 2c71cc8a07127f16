package fields

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// assessSupplier gives the supplier's name, as the rules read it, the
// evidence that backs it: a legal form after it (the registered name),
// its words printed again on another line of the page (a footer's
// "Aldi GmbH & Co. KG", a logo's name printed in full), or another
// reader finding the same name. A name with none of them was read once
// from a heading: receipt.Unready keeps such a receipt for review.
func assessSupplier(r *receipt.Receipt, lines []Line, pk *packs.Pack, others []Reading) {
	s := &r.SupplierName
	s.Support = nil
	name := s.Value
	words := packs.Words(name)
	if len(words) == 0 {
		return
	}
	support := func(kind receipt.Evidence, why string) { s.Support = appendSupport(s.Support, kind, why) }
	u := packs.Fold(name)
	if reRegisteredForm.MatchString(u) || reStrongCo.MatchString(u) {
		support(receipt.EvidenceReading, "a registered name, with its legal form")
	} else if n, ok := pk.IsLegalForm(words); ok && n < len(words) {
		support(receipt.EvidenceReading, "a registered name, with its legal form")
	}
	if s.Doubt == "" && pk.IsSlogan(name) {
		s.Doubt = "the name reads like a shop's motto: the business may be named above it, in its logo"
	}
	own := lineAt(lines, s.Box)
	if s.Doubt == "" && own >= 0 && smallDigitOpens(lines[own]) {
		s.Doubt = "the digit that opens the name stands smaller than its letters: maybe a letter misread (B as 3)"
	}
	if s.Doubt == "" && own >= 0 && opensWithAmpersand(lines[own]) {
		s.Doubt = "the name's line opens with \"&\": the word before it was not read"
	}
	if s.Doubt == "" && reLabelAndValue.MatchString(name) {
		s.Doubt = fmt.Sprintf("%q reads as a label and its value: a detail of the sale, not the business", name)
	}
	if s.Doubt == "" && onlyTradeWords(words, pk) {
		s.Doubt = fmt.Sprintf("%q says only what the business is: its own name was not read, maybe cut off above", name)
	}
	top := firstLineIn(lines, s.Box)
	if first := packs.Words(lineText(lines, top)); s.Doubt == "" && len(s.Support) == 0 && len(first) < len(words) &&
		slices.Equal(words[:len(first)], first) && onlyTradeWords(first, pk) {
		// "GASTHAUS" / "Zum Schwarzen Adler" is one name, "MARCHÉ +" /
		// "Centre Commercial Grand Sud" a brand and its branch's place.
		s.Doubt = fmt.Sprintf("the name's first line says only what the business is (%q): the line read with it may name its place, not the business", strings.TrimSpace(lineText(lines, top)))
	}
	if s.Doubt == "" && own >= 0 && s.Box != nil && s.Box.H <= lines[own].Box.H*3/2 && offCentre(lines, own) {
		s.Doubt = "the name does not stand centred over the lines below it: part of it may be unread"
	}
	// The name's words in its own address name a place, not the business
	// again: "PUSAT DAGANGAN PHILEO DAMANSARA" over "UNIT 105, BLOCK
	// A,PUSAT DAGANGAN PHILEO DAMANSARA" is the building a shop heads its
	// receipt with (SROIE 517, MYNEWS RETAIL SB).
	addr := r.SupplierAddress.Box
	inAddress := func(l Line) bool { return addr != nil && l.Box.W > 0 && addr.Union(l.Box) == *addr }
	// Its own words, the legal form left out: "REAL GMBH" over "real 33100
	// Paderborn" is the brand heading its store's town, one word.
	distinct := words
	if n, ok := pk.IsLegalForm(words); ok {
		distinct = words[:len(words)-n]
	}
	long := 0
	for _, w := range distinct {
		if len(w) >= 3 {
			long++
		}
	}
	// Spaces apart: one reading splits a word the other does not ("PHI
	// LEO" over "PH ILEO").
	inText := func(l Line) bool {
		lw := packs.Words(l.Text)
		return containsWords(lw, distinct) || strings.Contains(strings.Join(lw, ""), strings.Join(distinct, ""))
	}
	for i, l := range lines {
		if inAddress(l) && long >= 2 && inText(l) && s.Doubt == "" {
			s.Doubt = "the name is printed in the address: a building's, maybe not the business's"
		}
		if i == own || s.Box != nil && l.Box.W > 0 && s.Box.Union(l.Box) == *s.Box || inAddress(l) {
			continue // the name's own lines, and its address's
		}
		lw := packs.Words(l.Text)
		if letterCount(strings.Join(words, "")) >= 4 && len(lw) <= len(words)+6 && containsWords(lw, words) {
			support(receipt.EvidencePrintedTwice, "the name printed again: "+strconv.Quote(strings.TrimSpace(l.Text)))
			break
		}
	}
	ownLine := func(i int) bool {
		return i == own || s.Box != nil && lines[i].Box.W > 0 && s.Box.Union(lines[i].Box) == *s.Box || inAddress(lines[i])
	}
	if !receipt.LettersBacked(s.Support) {
		if again := wordsPrintedAgain(words, pk.IsNameWord, lines, ownLine); again != "" {
			support(receipt.EvidencePrintedTwice, "the name's own words printed again: "+again)
		}
	}
	// Both readers must find it: the name may have come from either.
	same := func(ls []Line) bool {
		n, _, _ := findCompany(ls, pk)
		a, b := strings.Join(words, ""), strings.Join(packs.Words(joinSpacedLetters(n.Value)), "")
		return b != "" && a == b
	}
	for _, o := range others {
		switch {
		case o.Of == "" && same(mendLineText(trimEdgeSpecks(o.Lines))) && same(lines):
			support(receipt.EvidenceSecondReader, o.Name+" finds the same name")
		case o.Of == "supplier" && len(o.Lines) == 1:
			a := strings.Join(words, "")
			b := strings.Join(packs.Words(joinSpacedLetters(cleanName(o.Lines[0].Text, pk))), "")
			switch {
			case b == "":
			case a == b:
				support(receipt.EvidenceSecondReader, o.Name+" reads the same name")
			case len(a) >= 6 && strings.Contains(b, a):
				// The name's box took in a logo's line too: "GUSTO" over
				// "THAI GUSTO RESTAURANT" read GUSTGTHAIGUSTORESTAURANT.
				support(receipt.EvidenceSecondReader, o.Name+" reads the same name among the lines beside it")
			case len(a) >= 4 && EditDistance(a, b, 2) <= 2 && s.Doubt == "" && !receipt.SureName(*s):
				// A reading that sure is not overruled by a weaker one
				// (Tesseract reads SANYU STATIONERY as SANYO).
				// Close but not the same: one of the two misread a letter,
				// unless the page prints the words in dispute again as
				// first read: two readings against one.
				inSecond := func(w string) bool { return strings.Contains(b, w) }
				if again := wordsPrintedAgain(words, inSecond, lines, ownLine); again != "" {
					support(receipt.EvidenceSecondReader, o.Name+" reads the same name but for "+again+", printed again as first read")
					continue
				}
				s.Doubt = o.Name + " reads " + strconv.Quote(strings.TrimSpace(o.Lines[0].Text))
			}
		}
	}
	// A web or mail address on the page that spells the name ("Daily
	// Grill" beside dailygrill.com) is the name printed again.
	if a := strings.Join(words, ""); len(a) >= 5 {
		for _, l := range lines {
			// A space read after a hyphen ("www.marktkauf- lehr.de") is
			// no break in the address.
			for _, m := range reWebAddress.FindAllString(strings.ReplaceAll(strings.ToUpper(l.Text), "- ", "-"), -1) {
				if w := strings.Join(packs.Words(m), ""); strings.Contains(w, a) || strings.Contains(letterLookalikes.Replace(w), a) {
					support(receipt.EvidencePrintedTwice, "the name in the page's web address "+strconv.Quote(strings.ToLower(m)))
				}
			}
		}
	}
}

// reLabelAndValue is a label, a colon and its value: "Bar Tab: Bar Tab",
// "Server: Kayra". A business's name holds no such colon.
var reLabelAndValue = regexp.MustCompile(`^\W*\pL[\pL\s#.]*:\s*\pL`)

// firstLineIn is the first line that lies within b (a name's lines'
// union), -1 for none.
func firstLineIn(lines []Line, b *receipt.Box) int {
	if b == nil {
		return -1
	}
	for i, l := range lines {
		if l.Box.W > 0 && l.Box.Page == b.Page && l.Box.X >= b.X && l.Box.Y >= b.Y && l.Box.X+l.Box.W <= b.X+b.W && l.Box.Y+l.Box.H <= b.Y+b.H {
			return i
		}
	}
	return -1
}

// lineText is line i's text, "" for no line.
func lineText(lines []Line, i int) string {
	if i < 0 || i >= len(lines) {
		return ""
	}
	return lines[i].Text
}

// onlyTradeWords says whether a name is one or two words that say what the
// business is and nothing else (TAVERN, BAKERY, KEDAI RUNCIT): the rest of
// a name whose own words were not read, as when the photo cut off its
// first line. A registered name, with its legal form, names the business
// whatever its words ("STATION GARDEN SUPPLIES LTD").
func onlyTradeWords(words []string, pk *packs.Pack) bool {
	if _, ok := pk.IsLegalForm(words); ok || len(words) == 0 || len(words) > 2 {
		return false
	}
	for _, w := range words {
		if !pk.IsNameWord(w) && !shopWords[w] {
			return false
		}
	}
	return true
}

// opensWithAmpersand says whether a name's line opens with "&" (marks
// before it aside): "& BEST RESTAURANT" for B & BEST, the B unread. A
// name joins its words with "&", it never opens with one.
func opensWithAmpersand(l Line) bool {
	t := strings.TrimLeft(l.Text, " |.,:;-*_'\"")
	return strings.HasPrefix(t, "&")
}

// smallDigitOpens says whether a name's line opens with a lone digit
// printed smaller than the words after it: a heading's digits stand as
// tall as its capitals ("7 ELEVEN", "99 SPEED MART"), and one read a
// third shorter is a letter half read ("3 & BEST RESTAURANT" for B & BEST).
func smallDigitOpens(l Line) bool {
	if len(l.Words) < 2 {
		return false
	}
	first := l.Words[0]
	if len([]rune(first.Text)) != 1 || !HasDigit(first.Text) || first.Box.H <= 0 {
		return false
	}
	var hs []int
	for _, w := range l.Words[1:] {
		if letterCount(w.Text) >= 2 && w.Box.H > 0 {
			hs = append(hs, w.Box.H)
		}
	}
	return len(hs) > 0 && float64(first.Box.H) < smallDigitShare*float64(median(hs))
}

// smallDigitShare: SROIE's "3 & BEST" stands 0.74 and 0.53 of its words'
// height (scan, and the scan tilted and shrunk).
const smallDigitShare = 0.8

// offCentre says whether the name's line at own (a name on one line)
// stands off the centre
// that the lines below it share: a receipt that centres its heading
// lines centres its name too, and a name that does not stand so was read
// in part ("TEO HENG STATIONERY", its "& BOOKS" under a red stamp). The
// page is taken as centred where two or more of the next four lines,
// each at least half the name's width, share their centre within
// centredWithin of the name's width; the name is off when its own centre
// lies farther than offCentreBy of its width from theirs.
func offCentre(lines []Line, own int) bool {
	name := lines[own].Box
	if name.W <= 0 {
		return false
	}
	var centres []int
	for _, l := range lines[own+1 : min(len(lines), own+5)] {
		if l.Box.W*2 >= name.W && l.Box.Page == name.Page {
			centres = append(centres, l.Box.X+l.Box.W/2)
		}
	}
	if len(centres) < 2 {
		return false
	}
	lo, hi := slices.Min(centres), slices.Max(centres)
	if float64(hi-lo) > centredWithin*float64(name.W) {
		return false
	}
	off := name.X + name.W/2 - (lo+hi)/2
	return math.Abs(float64(off)) > offCentreBy*float64(name.W)
}

// SROIE 021 (scan): the lines below share their centre within 3% of the
// name's width; the name read in part stands 20% of its width off. A
// whole name may stand off too: SROIE 352's, 13%.
const (
	centredWithin = 0.05
	offCentreBy   = 0.16
)

// letterLookalikes reads back as letters the digits a reader puts for
// them in a word (1EHR is LEHR): an address's letters are letters.
var letterLookalikes = strings.NewReplacer("1", "L", "0", "O")

// reWebAddress is a web or mail address as receipts print it.
var reWebAddress = regexp.MustCompile(`(?:WWW\.|HTTPS?://|@)[A-Z0-9.-]+|[A-Z0-9-]+\.(?:COM|NET|ORG|DE|FR|NL|IT|ES|CO\.UK|COM\.MY|COM\.AU)\b`)

// wordsPrintedAgain says where each word of a name that needs backing
// (a word with letters that backed does not skip) is printed again on
// another line of the page, as "WORD (\"line\"), …"; "" when one of them
// is too short to be told by a second printing or printed nowhere else, or
// none needs it. It backs a name's letters word by word where the page
// does not print the whole name again: every word but the trade words of
// the page's languages ("RESTAURANT", "BURGERS", whose letters a misread
// would turn into no word) printed again, in an item, a web address or a
// letter-spaced logo ("MooYAH Burgers Fries & Shakes #199" beside
// "MOOYAH.com/survey"; "Villa Deste Restaurant" beside "Thank you for
// dining at Villa D'Este"); and it settles a second reading a letter or
// two off the name, the words in dispute printed again as first read
// ("SANYU STATIONERY SHOP" read again SANYO beside "SANYU SUPPLY SDN
// BHD"). Numbers (a branch's "#199") need no backing.
func wordsPrintedAgain(words []string, backed func(string) bool, lines []Line, ownLine func(int) bool) string {
	var where []string
	for _, w := range words {
		switch {
		case letterCount(w) == 0 || backed(w):
			continue
		case letterCount(w) < 4:
			return ""
		}
		at := printedElsewhere(w, lines, ownLine)
		if at == "" {
			return ""
		}
		where = append(where, w+" ("+strconv.Quote(at)+")")
	}
	return strings.Join(where, ", ")
}

// printedElsewhere is the first line, not the name's own, that prints a
// word (printsWord), or "".
func printedElsewhere(w string, lines []Line, ownLine func(int) bool) string {
	for i, l := range lines {
		if !ownLine(i) && printsWord(l.Text, w) {
			return strings.TrimSpace(l.Text)
		}
	}
	return ""
}

// printsWord says whether a line prints a word: as one of its words or
// two or three of them run together ("D'Este" is D ESTE), or, for a word
// of five letters or more, in the letters of a web address or of a line
// of few words (a logo "SUKHO T H AI").
func printsWord(text, w string) bool {
	lw := packs.Words(text)
	for i := range lw {
		joined := ""
		for j := i; j < min(i+3, len(lw)) && len(joined) < len(w); j++ {
			if joined += lw[j]; joined == w {
				return true
			}
		}
	}
	if letterCount(w) < 5 {
		return false
	}
	for _, m := range reWebAddress.FindAllString(strings.ToUpper(text), -1) {
		if strings.Contains(strings.Join(packs.Words(m), ""), w) {
			return true
		}
	}
	return len(lw) <= 4 && strings.Contains(strings.Join(lw, ""), w)
}
