package ppocr

import (
	"math"
	"testing"
)

// region is a text region of length l and height h centred at (x, y),
// running at angle a (radians) from the horizontal.
func region(x, y, l, h, a float64) textLine {
	u := [2]float64{math.Cos(a), math.Sin(a)}
	return textLine{b: box{c: [2]float64{x, y}, u: u, v: [2]float64{-u[1], u[0]}, l: l, h: h}, chars: []char{{text: "x"}}}
}

// On a photo taken 3° askew, an amount at the right edge sits most of a
// line lower on the page than its label: it is on the label's row, not
// the next line's. A straight page's rows are as they were.
func TestRowsFollowThePagesSkew(t *testing.T) {
	a := 3 * math.Pi / 180
	var lines []textLine
	// Three rows 30 px apart: a label at the left, an amount 400 px right.
	for r := 0; r < 3; r++ {
		y := 100 + 30*float64(r)
		lines = append(lines, region(100, y, 160, 18, a))                // "HALFVOLLE MELK"
		lines = append(lines, region(500, y+400*math.Tan(a), 70, 18, a)) // "€ 54,05", 21 px lower
	}
	got := rows(lines)
	if len(got) != 3 {
		t.Fatalf("%d rows, want 3: %v", len(got), got)
	}
	for r, row := range got {
		if len(row) != 2 || row[0] != 2*r || row[1] != 2*r+1 {
			t.Errorf("row %d is %v, want [%d %d]", r, row, 2*r, 2*r+1)
		}
	}
	// Unskewed, the same amounts are a line apart from their labels.
	if s := pageSkew(lines); math.Abs(s.a-a) > 1e-9 || s.b != 0 {
		t.Errorf("skew %.4f, want %.4f", s, a)
	}
	// A receipt bent along its lines runs at −2° and 3° by turns: no
	// angle fits its rows, and they are measured on the page.
	var bent []textLine
	for i := range 8 {
		deg := -2.0
		if i%2 == 1 {
			deg = 3
		}
		bent = append(bent, region(100, 100+30*float64(i), 160, 18, deg*math.Pi/180))
	}
	if s := pageSkew(bent); s != (skew{}) {
		t.Errorf("a bent page's skew is %v", s)
	}
	straight := []textLine{region(100, 100, 160, 18, 0), region(500, 100, 70, 18, 0), region(100, 130, 160, 18, 0), region(500, 130, 70, 18, 0), region(100, 160, 160, 18, 0)}
	if s := pageSkew(straight); s != (skew{}) {
		t.Errorf("a straight page's skew is %v", s)
	}
	if got := rows(straight); len(got) != 3 || len(got[0]) != 2 || len(got[2]) != 1 {
		t.Errorf("straight rows %v", got)
	}
}

// A receipt photographed at a slant and in perspective runs at 5.5° at its
// head and 3.5° at its foot: no one angle fits its rows, but an angle that
// turns down the page does, and each amount at the right edge is on its
// label's row (a one-angle measure, or none, gave "Bar" the amount of
// "Bankomat" below it, and the card's part of the payment became the
// total).
func TestRowsFollowASkewThatTurnsDownThePage(t *testing.T) {
	var lines []textLine
	const n = 12
	for r := range n {
		a := (5.5 - 2*float64(r)/(n-1)) * math.Pi / 180
		y := 100 + 30*float64(r)
		lines = append(lines, region(100, y, 160, 18, a))
		lines = append(lines, region(500, y+400*math.Tan(a), 70, 18, a))
	}
	s := pageSkew(lines)
	if s.b == 0 || math.Abs(s.at(100)-5.5*math.Pi/180) > 0.1*math.Pi/180 {
		t.Errorf("skew %+v: want 5.5° at the head, turning", s)
	}
	got := rows(lines)
	if len(got) != n {
		t.Fatalf("%d rows, want %d: %v", len(got), n, got)
	}
	for r, row := range got {
		if len(row) != 2 || row[0] != 2*r || row[1] != 2*r+1 {
			t.Errorf("row %d is %v, want [%d %d]", r, row, 2*r, 2*r+1)
		}
	}
}
