package packs

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Detection is what a page's own words say of its country and currency.
type Detection struct {
	Pack *Pack
	// Sure is true when the page's words name the country (its language,
	// legal forms, tax words, currency, places) without the prior's help.
	Sure bool
	// Currency is the ISO code the page prints (its code or a symbol only
	// one currency uses, or "$" where the country's currency is a dollar);
	// "" when the page prints none the packs can tell.
	Currency string
	// Printed counts the currency marks the page prints, by ISO code
	// ("$" for a dollar sign no other mark names).
	Printed map[string]int
	// Why says what decided, for the review window's tooltip.
	Why string
	// Evident is the pack the page's own evidence names ahead of every
	// other by a point, where the client's prior chose another (a British
	// till slip in an Irish client's library); nil otherwise. Something
	// only that country prints, such as its VAT number with a valid check,
	// may settle it (fields.PageLocale).
	Evident *Pack
}

// Detect weighs each pack's evidence on a page (lines of text as read)
// and returns the best. prior is the client's country ("EU" favours the
// euro countries); it decides when the page says little.
func Detect(lines []string, prior string) Detection {
	page := pageOf(lines)
	mu.RLock()
	all := make([]*Pack, 0, len(countries))
	for _, p := range countries {
		all = append(all, p)
	}
	mu.RUnlock()
	sort.Slice(all, func(i, j int) bool { return all[i].Country < all[j].Country })

	printed, headed := page.printedCurrencies()
	type scored struct {
		p          *Pack
		score, own float64 // with the prior's bonus, and without
		why        []string
	}
	var best, second scored
	bestOwn, secondOwn := 0.0, 0.0 // the two best scores on the page's evidence alone
	var ownBest *Pack
	priorPack, _ := Get(prior)
	for _, p := range all {
		s, why := page.evidenceFor(p, printed)
		bonus := 0.0
		switch {
		case priorPack == p:
			bonus = 2.01 // and a tie goes to the client's country
		case strings.EqualFold(prior, p.Jurisdiction) && p.Jurisdiction != "other":
			bonus = 1.5 // "EU": any euro country
		}
		if s > bestOwn {
			bestOwn, secondOwn, ownBest = s, bestOwn, p
		} else if s > secondOwn {
			secondOwn = s
		}
		c := scored{p, s + bonus, s, why}
		if c.score > best.score || best.p == nil {
			best, second = c, best
		} else if c.score > second.score {
			second = c
		}
	}
	if best.p == nil {
		return Detection{}
	}
	evidence := best.own // not best.score less the bonus: 14 + 2.01 - 2.01 is not 14 in floating point
	// Sure: the page's own evidence names this country, ahead of every
	// other by a point without the prior's help (English words and GST
	// alone do not tell Australia from Malaysia).
	d := Detection{Pack: best.p, Sure: evidence >= 4 && evidence == bestOwn && bestOwn-secondOwn >= 1}
	if ownBest != best.p && bestOwn >= 4 && bestOwn-secondOwn >= 1 {
		d.Evident = ownBest
	}
	d.Currency, d.Printed = pickCurrency(printed, headed, best.p), printed
	if len(best.why) > 0 {
		d.Why = fmt.Sprintf("%s: %s", best.p.Name, strings.Join(best.why, ", "))
	} else {
		d.Why = best.p.Name + ": the client's country"
	}
	return d
}

// page is a page's words, folded, line by line, and its raw text.
type page struct {
	lines [][]string
	raws  []string // each line as read
	raw   string
	words map[string]bool
	// phoneNumbers are the page's phone-shaped runs of digits.
	phoneNumbers []string
}

func pageOf(lines []string) page {
	pg := page{words: map[string]bool{}}
	var raw strings.Builder
	for _, l := range lines {
		ws := Words(l)
		pg.lines = append(pg.lines, ws)
		pg.raws = append(pg.raws, l)
		for _, w := range ws {
			pg.words[w] = true
		}
		raw.WriteString(l)
		raw.WriteByte('\n')
	}
	pg.raw = raw.String()
	pg.phoneNumbers = pg.phones()
	return pg
}

// has says whether the page prints a phrase (folded words) on one line.
func (pg page) has(ph []string) bool {
	if len(ph) == 1 {
		return pg.words[ph[0]]
	}
	if !pg.words[ph[0]] {
		return false
	}
	for _, l := range pg.lines {
		for i := range l {
			if hasPrefix(l[i:], ph) {
				return true
			}
		}
	}
	return false
}

// hasAfterAWord says whether the page prints a phrase after another word
// of its line, as a legal form follows a name ("ACME INC"; "INC 6% GST"
// opens with INCLUSIVE's abbreviation).
func (pg page) hasAfterAWord(ph []string) bool {
	if !pg.words[ph[0]] {
		return false
	}
	for _, l := range pg.lines {
		for i := 1; i < len(l); i++ {
			if hasPrefix(l[i:], ph) {
				return true
			}
		}
	}
	return false
}

// hasTaxWord says whether the page prints a tax word as a tax: on a line
// with an amount, a rate or a tax number ("GST 6% 1.62", "GST ID
// 000123456789"), not a till's "Gst 2" (two guests).
func (pg page) hasTaxWord(ph []string) bool {
	if !pg.words[ph[0]] {
		return false
	}
	for i, l := range pg.lines {
		for j := range l {
			if hasPrefix(l[j:], ph) && pg.raws[i] != "" && reTaxContext.MatchString(pg.raws[i]) {
				return true
			}
		}
	}
	return false
}

// taxRate is the first of the country's tax rates the page prints, a
// tip's suggestions left out ("SUGGESTED GRATUITY / 18% 8.48 / 20% 9.42"
// are no tax rates): the four lines from a tip's label on.
func (pg page) taxRate(p *Pack) string {
	tipUntil := -1
	for i, words := range pg.lines {
		if p.saysTip(words) {
			tipUntil = i + 4
		}
		if i <= tipUntil {
			continue
		}
		dotted := strings.ReplaceAll(pg.raws[i], ",", ".")
		for j, re := range p.rates {
			if re.MatchString(dotted) {
				return p.TaxRates[j]
			}
		}
	}
	return ""
}

// saysTip says whether a line's folded words hold a tip's label in the
// pack's languages ("GRATUITY", "TIP", "POURBOIRE").
func (p *Pack) saysTip(words []string) bool {
	return slices.Contains(p.Translate(words), "TIP")
}

var reTaxContext = regexp.MustCompile(`\d[.,]\d{2}\b|%|\d{6,}`)

// evidenceFor scores what the page prints for a pack: its language's
// words (up to 6, the best of its languages), a legal form, a tax word,
// an address line, a phone number of its numbering plan (3), a word only
// the country prints, its tax ID with the country's letters, a web or
// mail address in its domain, a tax rate it charges, and its currency (3
// for a code or a symbol of its own, 1 for a shared "$").
func (pg page) evidenceFor(p *Pack, printed map[string]int) (float64, []string) {
	var score float64
	var why []string
	// The words of all the country's languages (Malaysia's English and
	// Malay, Belgium's French and Dutch), up to 6.
	langWords := 0
	var langNames []string
	// A word two of its languages share ("TABLE") counts once, and one
	// the rules' own English labels spell ("DATE") only for the first:
	// Canada's French does not score an English receipt's words.
	seen := map[string]bool{}
	for i, words := range p.langWords {
		n := 0
		for _, ph := range words {
			k := strings.Join(ph, " ")
			if i > 0 && canonicalLabels[k] {
				continue
			}
			if !seen[k] && pg.has(ph) {
				seen[k] = true
				n++
			}
		}
		if n > 0 {
			langWords += n
			langNames = append(langNames, fmt.Sprintf("%d words in %s", n, p.langs[i].Name))
		}
	}
	if langWords > 0 {
		score += float64(min(langWords, 6))
		why = append(why, strings.Join(langNames, ", "))
	}
	for _, f := range p.legal {
		if len(strings.Join(f, "")) >= 3 && pg.hasAfterAWord(f) {
			score += 2
			why = append(why, "the legal form "+strings.Join(f, " "))
			break
		}
	}
	for _, t := range p.taxWords {
		if pg.hasTaxWord(t) {
			score += 2
			why = append(why, "the tax word "+strings.Join(t, " "))
			break
		}
	}
	for _, l := range strings.Split(pg.raw, "\n") {
		if p.IsAddressLine(l) && p.AddressTells {
			score += 2
			why = append(why, "an address line as the country prints it")
			break
		}
	}
	if n := p.phoneOf(pg.phoneNumbers); n != "" {
		score += 3 // as its currency's code: the United States' area codes are not Canada's
		why = append(why, "the phone number "+n)
	}
	for _, e := range p.evidence {
		if pg.has(e) {
			score += 2
			why = append(why, strings.Join(e, " "))
			break
		}
	}
	if id := pg.taxIDOf(p); id != "" {
		score += 2
		why = append(why, "the tax ID "+id)
	}
	if p.webAddress != nil {
		if m := p.webAddress.FindString(pg.raw); m != "" {
			score += 2
			why = append(why, "the web address "+strings.ToLower(m))
		}
	}
	if rate := pg.taxRate(p); rate != "" {
		score++
		why = append(why, "the tax rate "+rate+"%")
	}
	if n := printed[p.Currency]; n > 0 {
		score += 3
		why = append(why, p.Currency+" printed")
	} else if printed["$"] > 0 && hasMark(p, "$") {
		score++
	}
	return score, why
}

// taxIDOf is the first tax ID of p's scheme, with its country letters
// ("DE115055186"), that a line of the page prints, its digits read apart
// or dotted ("DE 115 055 186", "BE 0196.075.206"); "" where none is, or
// the scheme has no country letters. The letters must open a word (not
// end one: "LEMONADE 2 12.50 25.00" prints no German ID) and nothing but
// spacing may run on after the ID.
func (pg page) taxIDOf(p *Pack) string {
	if p.taxPrefix == "" {
		return ""
	}
	for _, l := range pg.raws {
		u := strings.ToUpper(l)
		for at := 0; ; {
			i := strings.Index(u[at:], p.taxPrefix)
			if i < 0 {
				break
			}
			i += at
			at = i + len(p.taxPrefix)
			if r, _ := utf8.DecodeLastRuneInString(u[:i]); i > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r)) && !p.gluedToTaxLabel(u[:i]) {
				continue
			}
			if id, ok := idAfter(u[i+len(p.taxPrefix):], p); ok {
				return id
			}
		}
	}
	return ""
}

// gluedToTaxLabel says whether text before a tax ID's country letters
// ends in a label the letters were read glued to ("BTWBE 0813.107.943",
// "USt-IdNrDE…"): one of the country's tax words, or the last word of a
// tax ID label of its languages (NR, NO, ID…).
func (p *Pack) gluedToTaxLabel(before string) bool {
	run := Fold(before[strings.LastIndexFunc(before, func(r rune) bool { return !unicode.IsLetter(r) })+1:])
	for _, end := range p.taxLabelEnds {
		if strings.HasSuffix(run, end) {
			return true
		}
	}
	return false
}

// idAfter reads, from the text after a tax ID's country letters, the
// longest run of letters and digits (spacing between them left out) that
// makes an ID of p's scheme and is not followed by another letter or
// digit.
func idAfter(rest string, p *Pack) (string, bool) {
	var id strings.Builder
	id.WriteString(p.taxPrefix)
	found := ""
	for i, r := range rest {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			id.WriteRune(r)
			if p.taxID.MatchString(id.String()) {
				next, _ := utf8.DecodeRuneInString(rest[i+utf8.RuneLen(r):])
				if !unicode.IsLetter(next) && !unicode.IsDigit(next) {
					found = id.String()
				}
			}
		case strings.ContainsRune(" .-/", r):
		default:
			return found, found != ""
		}
		if id.Len() > 24 {
			break
		}
	}
	return found, found != ""
}

func hasMark(p *Pack, m string) bool {
	for _, x := range p.CurrencyMarks {
		if x == m {
			return true
		}
	}
	return false
}

// currencyMarks are the printed marks that name one currency: ISO codes,
// symbols and local abbreviations; "$" alone is kept apart.
var currencyMarks = []struct {
	re   *regexp.Regexp
	code string
}{
	// A symbol counts beside an amount: a misread letter can look like
	// one ("SELANGOR D.E." read as "SELANGOR [.€.").
	{regexp.MustCompile(`€\s?\d|\d\s?€`), "EUR"},
	{regexp.MustCompile(`£\s?\d|\d\s?£`), "GBP"},
	{regexp.MustCompile(`\bUS\s?\$`), "USD"},
	{regexp.MustCompile(`\b(A|AU)\$`), "AUD"},
	{regexp.MustCompile(`\bNZ\$`), "NZD"},
	{regexp.MustCompile(`\b(C|CA)\$`), "CAD"},
	{regexp.MustCompile(`\bS\$`), "SGD"},
	{regexp.MustCompile(`\bRM\s?\d`), "MYR"},

	// An ISO code counts beside an amount on its line: SEK, CAD and the
	// rest are also words and abbreviations ("SEK.U3" is a Malaysian
	// section; "347\nSek() 4.40" a misread word under a number).
	{regexp.MustCompile(`\b(` + isoCodes + `) ?\d|\d ?(` + isoCodes + `)\b`), ""},
	{regexp.MustCompile(`\bRINGGIT\b`), "MYR"},
}

// symbolMarks caches each symbol mark's pattern (beside an amount).
var symbolMarks sync.Map

var reEuroWord = regexp.MustCompile(`\b(EUR|EURO|EUROS)\b`)

var reAmountish = regexp.MustCompile(`\d[.,]\d{2}`)

var reDollar = regexp.MustCompile(`\$\s?\d|\d\s?\$`)

// printedCurrencies counts the currency marks the page prints, by ISO
// code; "$" counts a dollar sign beside an amount that no other mark
// names. It says too which pack's marks were printed only where a
// column's heading would be, beside no amount.
func (pg page) printedCurrencies() (map[string]int, map[string]bool) {
	out, headed := map[string]int{}, map[string]bool{}
	up := strings.ToUpper(reCodeInLowerCase.ReplaceAllStringFunc(pg.raw, func(w string) string {
		if w == strings.ToUpper(w) {
			return w
		}
		return "~" // "+0,50 cad." is each, not Canadian dollars
	}))
	for _, m := range currencyMarks {
		for _, s := range m.re.FindAllString(up, -1) {
			code := m.code
			if code == "" {
				code = strings.Trim(s, " 0123456789")
			}
			out[code]++
		}
	}
	out["$"] = len(reDollar.FindAllString(up, -1))
	for _, l := range strings.Split(up, "\n") {
		if reAmountish.MatchString(l) {
			out["EUR"] += len(reEuroWord.FindAllString(l, -1)) // not "JALAN EURO 1"
		}
	}
	// Each pack's own marks, as data: a code or word ("KR", "ZL") as a
	// whole word, a symbol anywhere.
	mu.RLock()
	defer mu.RUnlock()
	for _, p := range countries {
		for _, m := range p.CurrencyMarks {
			if m == "$" || out[p.Currency] > 0 {
				continue
			}
			beside, heading := countMark(up, Fold(m))
			out[p.Currency] += beside + heading
			if beside == 0 && heading > 0 {
				headed[p.Currency] = true
			}
		}
	}
	return out, headed
}

// isoCodes are the ISO 4217 codes a page's amounts are read beside, the
// euro's apart (tills print "EUR", "Eur" and "EURO").
const isoCodes = `USD|GBP|AUD|NZD|CAD|MYR|CHF|SGD|SEK|NOK|DKK|PLN|CZK|HUF|BGN|RON|ISK|JPY|INR|HKD|CNY`

// reCodeInLowerCase finds the ISO codes the currency marks name, in any
// case: printed in capitals they are currencies; in lower or mixed case
// they are words ("cad." is Italian for each). The euro's is no word, and
// tills print it "Eur" too.
var reCodeInLowerCase = regexp.MustCompile(`(?i)\b(` + isoCodes + `)\b`)

// countMark counts a currency mark in upper-case text: a mark with letters
// as a whole word, a symbol wherever it stands. It counts apart the marks
// beside an amount and those only in a heading.
func countMark(up, mark string) (beside, heading int) {
	if !strings.ContainsFunc(mark, unicode.IsLetter) {
		re, ok := symbolMarks.Load(mark)
		if !ok {
			re, _ = symbolMarks.LoadOrStore(mark, regexp.MustCompile(regexp.QuoteMeta(mark)+`\s?\d|\d\s?`+regexp.QuoteMeta(mark)))
		}
		return len(re.(*regexp.Regexp).FindAllString(up, -1)), 0
	}
	for _, l := range strings.Split(up, "\n") {
		words := Words(l)
		for i, w := range words {
			// A code or word counts on a line with an amount, in a
			// column's heading ("AMT (RM)") or at the end of a line with
			// figures (a column heading over the amounts); "SEK.U3" is a
			// section, "Dining Rm" a room.
			switch {
			case w != mark:
			case reAmountish.MatchString(l):
				beside++
			case i == len(words)-1 && strings.ContainsAny(l, "0123456789") || strings.Contains(l, "("+mark+")"):
				heading++
			}
		}
	}
	return beside, heading
}

// LineCurrencies are the currencies one line prints beside its amounts,
// by ISO code ("Total in EUR 55.92": EUR); a bare "$" names none.
func LineCurrencies(line string) map[string]int {
	printed, _ := pageOf([]string{line}).printedCurrencies()
	out := map[string]int{}
	for code, n := range printed {
		if n > 0 && code != "$" {
			out[code] = n
		}
	}
	return out
}

// pickCurrency is the currency a page prints most; a "$" alone is the
// pack's dollar. "" when nothing printed tells. Another country's mark
// printed only where a column's heading would be is no currency: "00153
// Roma (RM)" is Rome's province on an Italian page, not ringgit.
func pickCurrency(printed map[string]int, headed map[string]bool, p *Pack) string {
	best, n := "", 0
	codes := slices.Sorted(maps.Keys(printed)) // a tie between two other currencies goes the same way every time
	for _, code := range codes {
		c := printed[code]
		if code == "$" || c == 0 || headed[code] && code != p.Currency {
			continue
		}
		if c > n || c == n && code == p.Currency {
			best, n = code, c
		}
	}
	if best != "" {
		return best
	}
	if printed["$"] > 0 && hasMark(p, "$") {
		return p.Currency
	}
	return ""
}
