package ocr

import (
	"context"
	"image"
	"sort"
	"unicode"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/receipt"
)

// Tesseract's page layout sometimes loses a whole line: a heading in a
// condensed bold face beside a scanner's grey margin ("TED HENG STATIONERY
// & BOOKS"), or a name under a handwritten note that it took for one block
// with the note ("POPULAR BOOK" under "31803020"). The ink is on the page;
// no word covers it. findLostBands finds such bands of ink and readLostLines
// reads each alone, in single-line mode.

// lostBand limits: a band is a text line's height (in pixels of the page
// reading's image) and has at least this many separate marks across it.
const (
	lostBandMinHeight = 10
	lostBandMaxHeight = 120
	lostBandMinMarks  = 4
	lostBandsPerPage  = 6
)

// findLostBands returns, top to bottom, the boxes of the rows of ink on g
// that none of the words of two letters or digits or more (read on g,
// scaled back by factor) covers.
func findLostBands(g *image.Gray, words []inference.Word, factor int) []receipt.Box {
	b := g.Bounds()
	w, h := b.Dx(), b.Dy()
	if w == 0 || h == 0 {
		return nil
	}
	thr := otsuThreshold(g)
	covered := make([]bool, h)
	for _, wd := range words {
		if alnumCount(wd.Text) < 2 {
			// Speckle read as "|" or "i" does not cover a line; a word read
			// with doubt does, or its line would be read twice.
			continue
		}
		for y := wd.Box.Y * factor; y < (wd.Box.Y+wd.Box.H)*factor && y < h; y++ {
			if y >= 0 {
				covered[y] = true
			}
		}
	}
	minInk := max(3, w/300)
	// The outer strips hold a scan's dark edges and a photo's background,
	// not print; counted, they turn a dashed rule into a band of "text".
	edge := w / 50
	inkRow := make([]bool, h)
	for y := range h {
		row := g.Pix[y*g.Stride+edge : y*g.Stride+w-edge]
		n := 0
		for _, p := range row {
			if int(p) < thr {
				n++
			}
		}
		inkRow[y] = n >= minInk && n < w*9/10 // a solid rule or a dark edge is no text
	}
	var bands []receipt.Box
	for y := 0; y < h; {
		if !inkRow[y] || covered[y] {
			y++
			continue
		}
		top := y
		gap := 0
		for y < h && !covered[y] && (inkRow[y] || gap < 2) {
			if inkRow[y] {
				gap = 0
			} else {
				gap++
			}
			y++
		}
		bottom := y - gap // exclusive
		if bottom-top < lostBandMinHeight || bottom-top > lostBandMaxHeight {
			continue
		}
		if box, ok := inkExtent(g, thr, top, bottom, edge); ok {
			bands = append(bands, box)
		}
	}
	if len(bands) > lostBandsPerPage {
		// The tallest first: headings, which hold the names; then back
		// into page order.
		sort.SliceStable(bands, func(i, j int) bool { return bands[i].H > bands[j].H })
		bands = bands[:lostBandsPerPage]
		sort.Slice(bands, func(i, j int) bool { return bands[i].Y < bands[j].Y })
	}
	return bands
}

// inkExtent is the box of the ink between rows top and bottom, edge
// columns in from each side, when it is spread over enough separate marks
// to be text.
func inkExtent(g *image.Gray, thr, top, bottom, edge int) (receipt.Box, bool) {
	w := g.Bounds().Dx()
	col := make([]bool, w)
	for y := top; y < bottom; y++ {
		for x := edge; x < w-edge; x++ {
			if int(g.Pix[y*g.Stride+x]) < thr {
				col[x] = true
			}
		}
	}
	left, right, marks := -1, -1, 0
	for x := range w {
		if col[x] {
			if left < 0 {
				left = x
			}
			if x == 0 || !col[x-1] {
				marks++
			}
			right = x
		}
	}
	if marks < lostBandMinMarks {
		return receipt.Box{}, false
	}
	return receipt.Box{X: left, Y: top, W: right - left + 1, H: bottom - top}, true
}

// otsuThreshold splits g's grey levels into ink and paper by Otsu's method.
func otsuThreshold(g *image.Gray) int {
	var hist [256]float64
	for _, p := range g.Pix {
		hist[p]++
	}
	total := float64(len(g.Pix))
	var sumAll float64
	for i, c := range hist {
		sumAll += float64(i) * c
	}
	var wB, sumB, best float64
	thr := 128
	for t := range 256 {
		wB += hist[t]
		if wB == 0 {
			continue
		}
		wF := total - wB
		if wF == 0 {
			break
		}
		sumB += float64(t) * hist[t]
		mB, mF := sumB/wB, (sumAll-sumB)/wF
		if v := wB * wF * (mB - mF) * (mB - mF); v > best {
			best, thr = v, t+1
		}
	}
	return thr
}

func alnumCount(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// lostLineMinConf is the mean confidence a line read from a lost band needs
// to be kept: below it the band was a logo, a stamp or a tear.
const lostLineMinConf = 0.75

// readLostLines reads the bands of ink the page reading left out and
// returns lines with those that read as text in their places, top to
// bottom, and the words read.
func (o *Tesseract) readLostLines(ctx context.Context, reading pageReading, lines []fields.Line) ([]fields.Line, []inference.Word) {
	bands := findLostBands(reading.gray, reading.words, reading.factor)
	if len(bands) == 0 {
		return lines, nil
	}
	c, err := o.lineClient(ctx)
	if err != nil {
		return lines, nil
	}
	defer func() { o.lines <- c }()
	nextLine := 0
	for _, w := range reading.words {
		nextLine = max(nextLine, w.Line+1)
	}
	page := 0
	if len(reading.words) > 0 {
		page = reading.words[0].Box.Page
	}
	var found []fields.Line
	var all []inference.Word
	for _, b := range bands {
		words, err := readLine(c, reading.gray, b, 1, page, nextLine)
		if err != nil || len(words) == 0 {
			continue
		}
		nextLine++
		reading.toPage(words)
		l := fields.GroupLines(words)[0]
		if l.Conf < lostLineMinConf || alnumCount(l.Text) < 3 {
			continue
		}
		found = append(found, l)
		all = append(all, words...)
	}
	if len(found) == 0 {
		return lines, nil
	}
	// Each goes before the first line that starts below it; the page
	// reading's own order is kept.
	out := append([]fields.Line(nil), lines...)
	for _, l := range found {
		at := 0
		for at < len(out) && out[at].Box.Y <= l.Box.Y {
			at++
		}
		out = append(out[:at], append([]fields.Line{l}, out[at:]...)...)
	}
	return out, all
}
