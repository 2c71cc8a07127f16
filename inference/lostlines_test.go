package inference

import (
	"context"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/receipt"
)

// A line the page reading lost is found as a band of uncovered ink, read
// alone and put back in its place; the lines that were read stay as read.
func TestLostLinesAreFoundAndReadBack(t *testing.T) {
	eng, pr := readHardwareReceipt(t)
	if bands := findLostBands(pr.gray, pr.words, pr.factor); len(bands) != 0 {
		t.Errorf("a page read whole has lost bands: %+v", bands)
	}

	// A line read with little confidence was read all the same: reading
	// its band again would put it on the page twice (and break the items).
	doubtful := append([]Word(nil), pr.words...)
	for i := range doubtful {
		doubtful[i].Conf = 0.19
	}
	if bands := findLostBands(pr.gray, doubtful, pr.factor); len(bands) != 0 {
		t.Errorf("lines read with doubt count as lost: %+v", bands)
	}

	// Lose the supplier's line, as Tesseract loses a heading.
	lines := GroupLines(pr.words)
	lostAt := -1
	for i, l := range lines {
		if strings.Contains(l.Text, "HARBOUR") {
			lostAt = i
		}
	}
	if lostAt < 0 {
		t.Fatalf("the page reading has no supplier line:\n%+v", lines)
	}
	lost := lines[lostAt]
	var kept []Word
	for _, w := range pr.words {
		if w.Line != lost.Words[0].Line {
			kept = append(kept, w)
		}
	}
	pr.words = kept
	bands := findLostBands(pr.gray, pr.words, pr.factor)
	if len(bands) != 1 {
		t.Fatalf("lost bands %+v, want the supplier's line at %+v", bands, lost.Box)
	}
	if b := bands[0]; b.Y > lost.Box.Y || b.Y+b.H < lost.Box.Y+lost.Box.H || b.X > lost.Box.X {
		t.Errorf("band %+v does not hold the lost line %+v", b, lost.Box)
	}

	without := append(append([]Line(nil), lines[:lostAt]...), lines[lostAt+1:]...)
	back, words := eng.readLostLines(context.Background(), pr, without)
	if len(back) != len(lines) || len(words) == 0 {
		t.Fatalf("%d lines after reading lost lines, want %d", len(back), len(lines))
	}
	if got := back[lostAt].Text; !strings.Contains(got, "HARBOUR HARDWARE PTY") {
		t.Errorf("line put back at %d = %q", lostAt, got)
	}
	for i, l := range without {
		j := i
		if i >= lostAt {
			j++
		}
		if back[j].Text != l.Text {
			t.Errorf("line %d changed: %q -> %q", i, l.Text, back[j].Text)
		}
	}
}

// On SROIE receipt 196 Tesseract takes "POPULAR BOOK" for one block with the
// handwritten number above it and reads nothing of it; the name comes back
// from its band of ink.
func TestOCRReadsAHeadingThePageReadingLost(t *testing.T) {
	for _, lostLines := range []bool{false, true} {
		r := extractSROIE(t, "196.jpg", func(o *OCROptions) { o.LostLines = lostLines })
		got := r.SupplierName.Value
		if found := receipt.Fold(got) == receipt.Fold("POPULAR BOOK CO. (M) SDN BHD"); found != lostLines {
			t.Errorf("with LostLines %v the supplier is %q", lostLines, got)
		}
	}
}

func TestTotalFromSubtotal(t *testing.T) {
	my := receipt.PlausibleRates(receipt.CountryMY)
	for _, tc := range []struct {
		name     string
		sub, tax int64 // cents; tax < 0: none read
		rates    bool
		want     int64 // cents; < 0: no total
	}{
		{"tax included: the subtotal is the total", 2870, 162, true, 2870},
		{"tax on top", 10000, 600, true, 10600},
		{"no tax read", 1250, -1, true, 1250},
		{"a tax that fits no rate", 10000, 137, true, -1},
		{"no rates known", 10000, 600, false, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := receipt.Receipt{Subtotal: receipt.Amount{Value: centsToDecimal(tc.sub), Set: true, Confidence: 0.8}}
			if tc.tax >= 0 {
				r.TotalTax = receipt.Amount{Value: centsToDecimal(tc.tax), Set: true}
			}
			var rates = my
			if !tc.rates {
				rates = nil
			}
			totalFromSubtotal(&r, rates)
			switch {
			case tc.want < 0 && r.Total.Set:
				t.Errorf("total %v, want none", r.Total.Value)
			case tc.want >= 0 && (!r.Total.Set || !r.Total.Value.Equal(centsToDecimal(tc.want))):
				t.Errorf("total %v (set %v), want %v", r.Total.Value, r.Total.Set, centsToDecimal(tc.want))
			case r.Total.Set && r.Total.Confidence >= r.Subtotal.Confidence:
				t.Errorf("a total worked out from the subtotal is as sure as the subtotal (%v)", r.Total.Confidence)
			}
		})
	}
}
