package fields

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// PageLocale decides which country's pack a page is read with (its own
// words, legal forms, tax words, currency and places, with the client's
// country as the prior: see packs.Detect) and returns the locale the rules
// read it with: the pack's tax jurisdiction and date order, the client's
// currency kept to tell a foreign receipt. A locale whose Pack is set
// already is returned as it is.
func PageLocale(lines []Line, loc receipt.Locale) (receipt.Locale, packs.Detection) {
	if p, ok := packs.Get(loc.Pack); ok && loc.Pack != "" {
		return loc, packs.Detection{Pack: p, Why: p.Name + ": chosen"}
	}
	text := make([]string, len(lines))
	for i, l := range lines {
		text[i] = l.Text
	}
	det := packs.Detect(text, string(loc.Country))
	if det.Pack == nil {
		return loc, det
	}
	if ev := det.Evident; ev != nil && !det.Sure {
		// The page's own words name another country than the client's
		// prior chose; its VAT number, read as that country prints it
		// and passing that country's check, settles it.
		if id := labelledTaxID(lines, readWith(loc, ev), ev); id.Set && id.Why != whyTaxIDMended && receipt.ValidateTaxID(id.Value) == nil && ev.PrintsTaxID(receipt.NormalizeTaxID(id.Value.Value)) {
			again := packs.Detect(text, ev.Country)
			if again.Pack == ev {
				again.Sure = true
				again.Why += ", its VAT number " + id.Value.Value + " (its check digits hold)"
				return readWith(loc, ev), again
			}
		}
	}
	return readWith(loc, det.Pack), det
}

// readWith is the client's locale as the rules read a page of pack's
// country with: the pack's tax jurisdiction and date order, the client's
// currency kept.
func readWith(loc receipt.Locale, pk *packs.Pack) receipt.Locale {
	out := loc
	out.Pack = pk.Country
	if c, err := receipt.ParseCountry(pk.Jurisdiction); err == nil && (c != loc.Country || loc.DateOrder == "") {
		out.Country = c
		out.DateOrder = receipt.DateOrder(pk.DateOrder)
	} else if prior, ok := packs.Get(string(loc.Country)); !ok || prior != pk {
		out.DateOrder = receipt.DateOrder(pk.DateOrder)
	}
	return out
}

// packOf is the pack a locale reads with: its page's, else its country's.
func packOf(loc receipt.Locale) *packs.Pack {
	if p, ok := packs.Get(loc.Pack); ok && loc.Pack != "" {
		return p
	}
	p, _ := packs.Get(string(loc.Country))
	return p
}

// translatedKeywords is keyword text with the pack's labels read as the
// rules' English ones ("ZU ZAHLEN" → TOTAL DUE).
func translatedKeywords(k string, pk *packs.Pack) string {
	if pk == nil {
		return k
	}
	return strings.Join(pk.Translate(joinSpacedLabels(strings.Fields(k), pk)), " ")
}

// joinSpacedLabels reads a label printed letter by letter ("S U M M E
// EUR", "T O T A L T T C", "Z U ZAHLEN" where the reader joined half of it)
// as its words: the longest run of single letters, with up to two words
// after it, that spells one of the pack's labels. Runs that spell none are
// left as read.
func joinSpacedLabels(words []string, pk *packs.Pack) []string {
	single := func(w string) bool { return utf8.RuneCountInString(w) == 1 }
	var out []string
	for i := 0; i < len(words); {
		j := i
		for j < len(words) && single(words[j]) {
			j++
		}
		matched := false
		for end := min(len(words), j+2); j-i >= 2 && end >= i+3 && !matched; end-- {
			if end <= j && end-i < 3 {
				break // a run alone spells a label from three letters
			}
			if ws, ok := pk.SpacedLabel(strings.Join(words[i:end], "")); ok {
				out, i, matched = append(out, ws...), end, true
			}
		}
		if !matched {
			out = append(out, words[i])
			i++
		}
	}
	return out
}

// translateMonths writes the pack's month names in a line as the English
// abbreviations the date rules read ("12. März 2020" → "12. MAR 2020").
func translateMonths(s string, pk *packs.Pack) string {
	months := pk.Months()
	if len(months) == 0 {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if !isLetterRune(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && isLetterRune(rs[j]) {
			j++
		}
		w := string(rs[i:j])
		if n, ok := months[packs.Fold(w)]; ok && j-i >= 3 && !strings.EqualFold(w, englishMonths[n-1]) {
			w = englishMonths[n-1]
		}
		b.WriteString(w)
		i = j
	}
	return dropDateLinks(b.String(), pk)
}

// reLinkedDate is a written date with a word between its day and month
// and between its month and year ("22 de NOV de 2025", "5 DE MAR, DE
// 2024"), as translateMonths leaves it.
var reLinkedDate = regexp.MustCompile(`(?i)\b(\d{1,2})\s+(\pL{1,3})\s+(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)\b\.?,?(?:\s+(\pL{1,3}))?\s+((?:19|20)\d{2})\b`)

// dropDateLinks takes the pack's date links out of a written date, so
// that the date rules read "22 de NOV de 2025" as 22 NOV 2025.
func dropDateLinks(s string, pk *packs.Pack) string {
	return reLinkedDate.ReplaceAllStringFunc(s, func(m string) string {
		p := reLinkedDate.FindStringSubmatch(m)
		if !pk.IsDateLink(p[2]) || p[4] != "" && !pk.IsDateLink(p[4]) {
			return m
		}
		return p[1] + " " + p[3] + " " + p[5]
	})
}

var englishMonths = [12]string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

func isLetterRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 && !strings.ContainsRune("€£¥°", r)
}
