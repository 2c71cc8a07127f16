package bank

import (
	_ "embed"
	"encoding/json"
	"regexp"
	"strings"
	"unicode"

	"github.com/shoebox-app/shoebox/receipt"
)

//go:embed data/descriptions.json
var descriptionsJSON []byte

// words are the description vocabulary (data/descriptions.json).
var words = func() struct {
	Noise, LegalForms, RefundWords map[string]bool
} {
	var raw struct {
		Noise       []string `json:"noise"`
		LegalForms  []string `json:"legal_forms"`
		RefundWords []string `json:"refund_words"`
	}
	if err := json.Unmarshal(descriptionsJSON, &raw); err != nil {
		panic("bank/data/descriptions.json: " + err.Error())
	}
	set := func(l []string) map[string]bool {
		m := map[string]bool{}
		for _, w := range l {
			m[w] = true
		}
		return m
	}
	return struct{ Noise, LegalForms, RefundWords map[string]bool }{set(raw.Noise), set(raw.LegalForms), set(raw.RefundWords)}
}()

// tokens splits text into folded words (letters and digits).
func tokens(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if f := receipt.Fold(w); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func digits(w string) int {
	n := 0
	for _, r := range w {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}

// descriptionWords are a statement description's words that may name the
// seller: the bank's own words, card numbers, dates and long numbers go.
func descriptionWords(desc string) []string {
	var out []string
	for _, w := range tokens(desc) {
		if words.Noise[w] || digits(w) >= 4 || (digits(w) > 0 && digits(w) == len(w) && len(w) > 3) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// supplierWords are a supplier name's words without its legal form.
func supplierWords(name string) []string {
	var out []string
	for _, w := range tokens(name) {
		if !words.LegalForms[w] {
			out = append(out, w)
		}
	}
	return out
}

// DescriptionKey is the form a description is remembered in when the
// bookkeeper confirms its receipt: its seller words, without numbers.
func DescriptionKey(desc string) string {
	var keep []string
	for _, w := range descriptionWords(desc) {
		if digits(w) == 0 && len(w) > 1 {
			keep = append(keep, w)
		}
	}
	if len(keep) > 4 {
		keep = keep[:4]
	}
	return strings.Join(keep, " ")
}

// similarity says how well a statement description names a supplier, 0–1:
// the share of the description's seller words the supplier's name
// explains (a word cut short by the bank counts); or, when the description
// starts with the seller, the share of the supplier's name it holds (a
// town after a short name: "MYER SYDNEY"); or the longest run of letters
// the two share when the bank ran the words together.
func similarity(desc []string, supplier []string) float64 {
	if len(desc) == 0 || len(supplier) == 0 {
		return 0
	}
	same := func(d, s string) bool {
		return d == s || (len(d) >= 3 && strings.HasPrefix(s, d)) || (len(s) >= 3 && strings.HasPrefix(d, s))
	}
	var total, matched int
	strong := false
	for _, d := range desc {
		total += len(d)
		for _, s := range supplier {
			if same(d, s) {
				matched += len(d)
				if min(len(d), len(s)) >= 3 {
					strong = true
				}
				break
			}
		}
	}
	tok := 0.0
	if strong {
		tok = float64(matched) / float64(total)
	}
	cover := 0.0
	if same(desc[0], supplier[0]) && min(len(desc[0]), len(supplier[0])) >= 3 {
		var all, found int
		for _, s := range supplier {
			all += len(s)
			for _, d := range desc {
				if same(d, s) {
					found += len(s)
					break
				}
			}
		}
		if found >= 4 {
			cover = float64(found) / float64(all)
		}
	}
	a, b := strings.Join(desc, ""), strings.Join(supplier, "")
	run := longestCommonRun(a, b)
	lcs := 0.0
	if run >= 5 {
		lcs = float64(run) / float64(min(len(a), len(b)))
	}
	return max(tok, cover, lcs)
}

func longestCommonRun(a, b string) int {
	if len(a) > 64 {
		a = a[:64]
	}
	if len(b) > 64 {
		b = b[:64]
	}
	var prev, cur [65]int
	best := 0
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
				best = max(best, cur[j])
			} else {
				cur[j] = 0
			}
		}
		prev, cur = cur, [65]int{}
	}
	return best
}

// reStatedAmount finds a foreign amount a bank prints in a card line's
// description: "USD 12.50", "12,50 EUR", "AMT USD12.50".
var reStatedAmount = regexp.MustCompile(`\b([A-Z]{3}) ?(\d{1,9}(?:[.,]\d{3})*[.,]\d{2})\b|\b(\d{1,9}(?:[.,]\d{3})*[.,]\d{2}) ?([A-Z]{3})\b`)

// statedForeignAmount fills a line's foreign amount from its description
// where the file has no field for it and the description states one in a
// currency other than the account's.
func statedForeignAmount(l *Line) {
	if l.OrigCurrency != "" {
		return
	}
	for _, m := range reStatedAmount.FindAllStringSubmatch(l.Description, -1) {
		cur, num := m[1], m[2]
		if cur == "" {
			cur, num = m[4], m[3]
		}
		if cur == l.Currency || !receipt.ValidCurrency(cur) {
			continue
		}
		p, err := receipt.ParseAmount(num)
		if err != nil || p.Value.IsZero() {
			continue
		}
		l.OrigCurrency, l.OrigAmount = cur, p.Value.Abs()
		return
	}
}

// isRefundText says the description names money coming back.
func isRefundText(desc string) bool {
	for _, w := range tokens(desc) {
		if words.RefundWords[w] {
			return true
		}
	}
	return false
}
