package fields

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/shoebox-app/shoebox/receipt"
)

// feature is a candidate's value of the named feature.
func feature(t *testing.T, c SupplierCandidate, name string) float64 {
	t.Helper()
	k := slices.Index(SupplierFeatures, name)
	if k < 0 {
		t.Fatalf("no feature %q", name)
	}
	return c.Features[k]
}

func TestSupplierCandidatesDescribeTheTopLines(t *testing.T) {
	lines := placedLines(
		40, 40, "WELCOME",
		100, 24, "ACME TRADING SDN BHD",
		130, 16, "NO 5, JALAN BUNGA RAYA",
		150, 16, "43000 KAJANG, SELANGOR",
		180, 16, "TEL 03-8736 1234",
		210, 16, "TAX INVOICE",
		240, 16, "DATE 12/03/2018",
		270, 16, "BREAD 2.50",
		300, 16, "TOTAL 2.50",
	)
	cands, rules := SupplierCandidates(lines, receipt.DefaultLocale(receipt.CountryMY))
	if len(cands) != len(lines) {
		t.Fatalf("%d candidates, want every line with letters (%d)", len(cands), len(lines))
	}
	if rules < 0 || cands[rules].Text != "ACME TRADING SDN BHD" {
		t.Fatalf("the rules' line is %d, want the legal name's", rules)
	}
	for _, c := range cands {
		if len(c.Features) != len(SupplierFeatures) {
			t.Fatalf("%q has %d features, want %d", c.Text, len(c.Features), len(SupplierFeatures))
		}
	}
	name, phone, date := cands[1], cands[4], cands[6]
	for _, tc := range []struct {
		c    SupplierCandidate
		f    string
		want float64
	}{
		{cands[0], "first line with letters", 1},
		{cands[0], "a heading or slogan (tax invoice, thank you)", 1},
		{cands[0], "tallest of the candidates", 1},
		{name, "second line with letters", 1},
		{name, "a legal form", 1},
		{name, "an address line within three below", 1},
		{name, "the rules' choice", 1},
		{phone, "a phone number or web address", 1},
		{date, "below the first date, total or price", 1},
		{date, "a date or amount", 1},
		{date, "a legal form", 0},
	} {
		if got := feature(t, tc.c, tc.f); got != tc.want {
			t.Errorf("%q: %q is %v, want %v", tc.c.Text, tc.f, got, tc.want)
		}
	}
}

// Fitted on pages where the name is the line with a legal form, wherever
// it stands, the ranking finds it on pages it was not fitted on.
func TestFitRankingLearnsWhatMarksTheLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	legal := slices.Index(SupplierFeatures, "a legal form")
	page := func() ([]SupplierCandidate, int) {
		n := 3 + rng.IntN(6)
		right := rng.IntN(n)
		cands := make([]SupplierCandidate, n)
		for i := range cands {
			f := make([]float64, len(SupplierFeatures))
			for k := range f {
				f[k] = rng.Float64() // noise in every other feature
			}
			f[legal] = 0
			if i == right {
				f[legal] = 1
			}
			cands[i] = SupplierCandidate{Line: i, Features: f}
		}
		return cands, right
	}
	var pages [][]SupplierCandidate
	var right []int
	for range 60 {
		c, r := page()
		pages, right = append(pages, c), append(right, r)
	}
	pages, right = append(pages, nil), append(right, -1) // a page without its line known is left out
	m := FitRanking(pages, right, 0.01)
	for range 40 {
		c, r := page()
		ch := m.Chances(c)
		if top := slices.Index(ch, slices.Max(ch)); top != r {
			t.Fatalf("the ranking chose candidate %d (%.2f), want %d (%.2f); weights %v", top, ch[top], r, ch[r], m.Weights)
		}
	}
	if m.Weights[legal] <= 0 {
		t.Errorf("the legal form's weight is %v, want it to count for the line", m.Weights[legal])
	}
}

func TestRightSupplierLineMatchesTheLabelsLetters(t *testing.T) {
	cands := []SupplierCandidate{{Text: "WELCOME"}, {Text: "Breadfish Cafe"}, {Text: "123 Main St"}}
	for label, want := range map[string]int{
		"BreadFish Cafe":       1,
		"BREADFISH CAFE & BAR": 1, // most of the label's letters
		"Uncle Julio":          -1,
		"":                     -1,
	} {
		if got := RightSupplierLine(cands, label); got != want {
			t.Errorf("%q: line %d, want %d", label, got, want)
		}
	}
}

func TestTheBuiltInRankingFitsTheseFeatures(t *testing.T) {
	if _, err := ParseRanking(supplierRankingJSON); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseRanking([]byte(`{"features":["a legal form"],"weights":[1]}`)); err == nil {
		t.Error("a ranking of other features was accepted")
	}
}
