package ocr

import (
	"context"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
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
	doubtful := append([]inference.Word(nil), pr.words...)
	for i := range doubtful {
		doubtful[i].Conf = 0.19
	}
	if bands := findLostBands(pr.gray, doubtful, pr.factor); len(bands) != 0 {
		t.Errorf("lines read with doubt count as lost: %+v", bands)
	}

	// Lose the supplier's line, as Tesseract loses a heading.
	lines := fields.GroupLines(pr.words)
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
	var kept []inference.Word
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

	without := append(append([]fields.Line(nil), lines[:lostAt]...), lines[lostAt+1:]...)
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
		r := extractSROIE(t, "196.jpg", func(o *Options) { o.LostLines = lostLines })
		got := r.SupplierName.Value
		if found := receipt.Fold(got) == receipt.Fold("POPULAR BOOK CO. (M) SDN BHD"); found != lostLines {
			t.Errorf("with LostLines %v the supplier is %q", lostLines, got)
		}
	}
}
