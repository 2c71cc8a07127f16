package fields

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// The supplier's line, ranked: a learned second opinion beside
// findCompany's hand-ordered rules. Each of the page's top lines is a
// candidate described by what the rules see of it (its place, its size,
// a legal form, a trade word, an address below it, its words printed
// again, whether the rules chose it…); a weight per feature, fitted on
// labelled readings by `shoebox ranking fit` and kept as data
// (ranking/supplier.json), scores them, and the scores' softmax is each
// line's chance of being the one the name is read from.
//
// The reading does not use it: measured on each dev set with the ranking
// fitted on the others (`shoebox ranking compare --cross`, and the file's
// "measured"), it chooses the line as the rules do but for one receipt
// either way, and as a doubt it would cost more than it catches (a chance
// under 0.4 for the rules' line marks 12 right lines of the real sets and
// 3 wrong ones). It is kept, with its commands, to be fitted again as
// the features or the sets grow, and measured against the rules before any
// of its choices replace theirs.

// supplierCandidateLines is how many of the page's first lines are
// candidates: the name heads the page, under a logo's specks, a slogan or
// a till's header at most.
const supplierCandidateLines = 15

// SupplierFeatures name the features of a candidate line, in the order
// SupplierCandidate.Features holds them and a Ranking's weights apply.
var SupplierFeatures = []string{
	"first line with letters",
	"second line with letters",
	"third line with letters",
	"lines with letters above (tenths)",
	"height against the page's usual line (log)",
	"tallest of the candidates",
	"share of letters",
	"share of digits",
	"words (sixths, at most 1)",
	"a legal form",
	"no name line (address, till, label, priced)",
	"reads as a plain name",
	"below the first date, total or price",
	"an address line within three below",
	"its words printed again on the page",
	"read surely (line confidence)",
	"centred on the page",
	"a trade word (restaurant, bakery…)",
	"share of capitals",
	"a phone number or web address",
	"a heading or slogan (tax invoice, thank you)",
	"a date or amount",
	"the rules' choice",
}

// SupplierCandidate is a line of a page the supplier's name may be read
// from, as the ranking sees it.
type SupplierCandidate struct {
	Line     int    // index among the page's lines as the rules mend them
	Text     string // the line's text
	Features []float64
}

// SupplierCandidates are the page's candidate lines for the supplier's
// name (lines as GroupLines gives them; the client's locale is the prior
// for the page's language, as for ExtractFields), and the index among
// them of the line the rules read the name from (-1: none).
func SupplierCandidates(lines []Line, loc receipt.Locale) (cands []SupplierCandidate, rules int) {
	lines = mendLineText(trimEdgeSpecks(lines))
	_, det := PageLocale(lines, loc)
	if det.Pack != nil && slices.Contains(det.Pack.CurrencyMarks, "€") {
		lines = mendEuroSign(lines) // as ExtractFields reads them
	}
	_, first, _ := findCompany(lines, det.Pack)
	cands = supplierCandidates(lines, det.Pack, first)
	return cands, slices.IndexFunc(cands, func(c SupplierCandidate) bool { return c.Line == first })
}

func supplierCandidates(lines []Line, pk *packs.Pack, rules int) []SupplierCandidate {
	n := min(len(lines), supplierCandidateLines)
	if n == 0 {
		return nil
	}
	top := n
	for i := 0; i < n; i++ {
		if reDateNum.MatchString(lines[i].Text) || strings.Contains(keywordText(lines[i].Text), "TOTAL") || rePricedLine.MatchString(lines[i].Text) {
			top = i
			break
		}
	}
	var heights []int
	x0, x1 := math.MaxInt, math.MinInt
	for _, l := range lines {
		if l.Box.H > 0 {
			heights = append(heights, l.Box.H)
			x0, x1 = min(x0, l.Box.X), max(x1, l.Box.X+l.Box.W)
		}
	}
	usual := float64(median(heights))
	tallest := 0
	for _, l := range lines[:n] {
		tallest = max(tallest, l.Box.H)
	}
	b2f := func(b bool) float64 {
		if b {
			return 1
		}
		return 0
	}
	var out []SupplierCandidate
	above := 0
	for i, l := range lines[:n] {
		letters := letterCount(l.Text)
		if letters < 2 {
			continue
		}
		chars := len(strings.ReplaceAll(l.Text, " ", ""))
		words := packs.Words(l.Text)
		u := strings.ToUpper(l.Text)
		height := 0.0
		if usual > 0 && l.Box.H > 0 {
			height = max(-1.5, min(1.5, math.Log(float64(l.Box.H)/usual)))
		}
		centred := 0.0
		if x1 > x0 && l.Box.W > 0 {
			mid, half := float64(x0+x1)/2, float64(x1-x0)/2
			centred = 1 - min(1, math.Abs(float64(l.Box.X)+float64(l.Box.W)/2-mid)/half)
		}
		addressBelow := false
		for j := i + 1; j < min(len(lines), i+4); j++ {
			t := lines[j].Text
			if pk.IsAddressLine(t) || pk.IsStreetLine(t) || rePostcodeLine.MatchString(strings.ToUpper(t)) || reStreetWord.MatchString(strings.ToUpper(t)) {
				addressBelow = true
				break
			}
		}
		printedAgain := false
		if letters >= 4 {
			for j, o := range lines {
				if j != i && len(packs.Words(o.Text)) <= len(words)+6 && containsWords(packs.Words(o.Text), words) {
					printedAgain = true
					break
				}
			}
		}
		trade := false
		for _, w := range words {
			if pk.IsNameWord(w) || shopWords[w] {
				trade = true
				break
			}
		}
		f := []float64{
			b2f(above == 0), b2f(above == 1), b2f(above == 2), float64(min(above, 10)) / 10,
			height, b2f(l.Box.H > 0 && l.Box.H == tallest),
			float64(letters) / float64(max(1, chars)), float64(packs.CountDigits(l.Text)) / float64(max(1, chars)),
			min(1, float64(len(words))/6),
			b2f(legalNameAt(lines, i, pk) != ""), b2f(notANameLine(l, pk)), b2f(plainNameAt(lines, i, pk) != ""),
			b2f(i >= top), b2f(addressBelow), b2f(printedAgain),
			l.Conf, centred, b2f(trade), upperShare(l.Text),
			b2f(rePhone.MatchString(l.Text) || reWebAddress.MatchString(u)),
			b2f(reHeading.MatchString(keywordText(u)) || reSlogan.MatchString(u)),
			b2f(reDateNum.MatchString(l.Text) || len(amountsIn(l.Text)) > 0),
			b2f(i == rules),
		}
		for k := range f {
			if math.IsNaN(f[k]) || math.IsInf(f[k], 0) {
				f[k] = 0 // a reading's confidence written as NaN
			}
		}
		out = append(out, SupplierCandidate{Line: i, Text: l.Text, Features: f})
		above++
	}
	return out
}

// Ranking is a fitted linear scoring of candidates: a weight per feature.
type Ranking struct {
	Features []string  `json:"features"`
	Weights  []float64 `json:"weights"`
	// Fitted says by which command and on what; Measured, what it gave on
	// each set fitted on the others, as `shoebox ranking compare` prints
	// it (its header first): for the next engineer, not the program.
	Fitted   string   `json:"fitted"`
	Measured []string `json:"measured,omitempty"`
}

// Chances are each candidate's chance of being the line: the softmax of
// the ranking's scores.
func (m Ranking) Chances(cands []SupplierCandidate) []float64 {
	out := make([]float64, len(cands))
	if len(cands) == 0 {
		return out
	}
	hi := math.Inf(-1)
	for i, c := range cands {
		for k, w := range m.Weights {
			out[i] += w * c.Features[k]
		}
		hi = max(hi, out[i])
	}
	sum := 0.0
	for i := range out {
		out[i] = math.Exp(out[i] - hi)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// FitRanking fits a ranking's weights to pages whose right candidate is
// known (right[p] indexes pages[p]; pages without one are left out): the
// weights that make the right candidates likeliest (softmax over each
// page's candidates), with an L2 penalty of l2 per weight, by gradient
// descent.
func FitRanking(pages [][]SupplierCandidate, right []int, l2 float64) Ranking {
	w := make([]float64, len(SupplierFeatures))
	grad := make([]float64, len(w))
	m := Ranking{Features: SupplierFeatures, Weights: w}
	n := 0
	for p := range pages {
		if right[p] >= 0 {
			n++
		}
	}
	if n == 0 {
		return m
	}
	const steps, rate = 3000, 0.5
	for step := 0; step < steps; step++ {
		for k := range grad {
			grad[k] = 2 * l2 * w[k]
		}
		for p, cands := range pages {
			if right[p] < 0 {
				continue
			}
			ch := m.Chances(cands)
			for i, c := range cands {
				d := ch[i]
				if i == right[p] {
					d--
				}
				for k, f := range c.Features {
					grad[k] += d * f / float64(n)
				}
			}
		}
		for k := range w {
			w[k] -= rate * grad[k]
		}
	}
	return m
}

// RightSupplierLine is the candidate whose letters hold the labelled
// name's, or most of them (the longest run in common, at least 60% of the
// label's letters and digits); -1 when none does.
func RightSupplierLine(cands []SupplierCandidate, label string) int {
	want := receipt.Fold(label)
	if len(want) < 3 {
		return -1
	}
	best, bestRun := -1, 0
	for i, c := range cands {
		if run := commonRun(receipt.Fold(c.Text), want); run > bestRun {
			best, bestRun = i, run
		}
	}
	if 10*bestRun < 6*len(want) {
		return -1
	}
	return best
}

// commonRun is the length of the longest run of characters a and b share.
func commonRun(a, b string) int {
	best := 0
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
				best = max(best, cur[j])
			} else {
				cur[j] = 0
			}
		}
		prev, cur = cur, prev
	}
	return best
}

//go:embed ranking/supplier.json
var supplierRankingJSON []byte

// SupplierRanking is the ranking `shoebox ranking fit` last wrote, or why
// it cannot be used (fitted on other features than these rules compute).
// Nothing reads it but the ranking command: it is read when asked for, so
// a file out of step stops no other command.
func SupplierRanking() (Ranking, error) { return ParseRanking(supplierRankingJSON) }

// ParseRanking reads a ranking as `shoebox ranking fit` writes it; its
// features must be SupplierFeatures, in order.
func ParseRanking(data []byte) (Ranking, error) {
	var m Ranking
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("the supplier ranking: %w", err)
	}
	if !slices.Equal(m.Features, SupplierFeatures) || len(m.Weights) != len(SupplierFeatures) {
		return m, fmt.Errorf("the supplier ranking was fitted on other features than these rules compute: fit it again (shoebox ranking fit)")
	}
	return m, nil
}
