package ocr

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"math"
)

// Preprocess holds the page clean-up steps, each switchable so `shoebox
// eval` can measure what it buys.
type Preprocess struct {
	Contrast bool // stretch the 1st–99th percentile of grey levels to full range
	// MinHeightPx scales pages whose text is likely small up until their
	// width reaches MinWidth (0: never).
	MinWidth int
	Deskew   bool
	// Borders whitens the dark margins around the paper: a scanner's lid,
	// a table under a photo, a torn edge. On every SROIE page it cost 5
	// points of address, 2.5 of company and 1.2 of total (Tesseract reads a
	// page differently once anything on it changes), so the engine uses it
	// only to read a failed page again (BorderFallback).
	Borders bool
}

// DefaultPreprocess is the combination chosen by measurement (`shoebox eval
// --preprocess`): contrast stretch, and deskew from 1.5 degrees on, which a
// 4-degree phone photo needs for its date to be read and which moved SROIE
// scans by company +1.2, date +1.3, total -1.2 points (one receipt).
var DefaultPreprocess = Preprocess{Contrast: true, MinWidth: 0, Deskew: true}

// toGray takes the luma of an image: for JPEG pages (YCbCr) it is the Y plane itself.
func toGray(img image.Image) *image.Gray {
	b := img.Bounds()
	if y, ok := img.(*image.YCbCr); ok {
		g := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
		for row := 0; row < b.Dy(); row++ {
			copy(g.Pix[row*g.Stride:row*g.Stride+b.Dx()], y.Y[y.YOffset(b.Min.X, b.Min.Y+row):])
		}
		return g
	}
	if g, ok := img.(*image.Gray); ok && b.Min == (image.Point{}) {
		return g
	}
	g := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(g, g.Bounds(), img, b.Min, draw.Src)
	return g
}

// stretchContrast maps the 1st and 99th percentile grey levels to 0 and 255:
// faded thermal paper and grey phone photos come out black on white.
func stretchContrast(g *image.Gray) {
	var hist [256]int
	for _, p := range g.Pix {
		hist[p]++
	}
	n := len(g.Pix)
	lo, hi := 0, 255
	for acc := 0; lo < 255; lo++ {
		acc += hist[lo]
		if acc > n/100 {
			break
		}
	}
	for acc := 0; hi > 0; hi-- {
		acc += hist[hi]
		if acc > n/100 {
			break
		}
	}
	if hi-lo < 16 || (lo == 0 && hi == 255) {
		return
	}
	var lut [256]byte
	for i := range lut {
		v := (i - lo) * 255 / (hi - lo)
		lut[i] = byte(min(255, max(0, v)))
	}
	for i, p := range g.Pix {
		g.Pix[i] = lut[p]
	}
}

// upscale doubles (or more) a page by bilinear interpolation.
func upscale(g *image.Gray, factor int) *image.Gray {
	if factor <= 1 {
		return g
	}
	return resizeGray(g, float64(factor))
}

// skewAngle estimates the text skew in tenths of a degree (−50…50) by the
// projection profile: rows of text give the sharpest profile when level.
func skewAngle(g *image.Gray) int {
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	// Work on dark pixels of a sparse sample.
	type pt struct{ x, y int }
	var dark []pt
	step := max(1, w/400)
	for y := 0; y < h; y += step {
		for x := 0; x < w; x += step {
			if g.Pix[y*g.Stride+x] < 110 {
				dark = append(dark, pt{x, y})
			}
		}
	}
	if len(dark) < 200 {
		return 0
	}
	best, bestScore := 0, -1.0
	bins := make([]int, h+w)
	for a := -50; a <= 50; a += 5 {
		slope := float64(a) / 10 * 3.14159265 / 180
		for i := range bins {
			bins[i] = 0
		}
		for _, p := range dark {
			r := int(float64(p.y) - float64(p.x)*slope)
			if r >= 0 && r < len(bins) {
				bins[r]++
			}
		}
		score := 0.0
		for _, c := range bins {
			score += float64(c * c)
		}
		if score > bestScore {
			best, bestScore = a, score
		}
	}
	return best
}

// rotateSmall rotates a grey page by tenths of a degree around its centre,
// filling with white.
func rotateSmall(g *image.Gray, tenths int) *image.Gray {
	if tenths == 0 {
		return g
	}
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	th := float64(tenths) / 10 * math.Pi / 180
	sin, cos := math.Sin(th), math.Cos(th)
	cx, cy := float64(w)/2, float64(h)/2
	// Bilinear: nearest-neighbour resampling broke the strokes of small digits.
	at := func(x, y int) float64 {
		if x < 0 || x >= w || y < 0 || y >= h {
			return 255
		}
		return float64(g.Pix[y*g.Stride+x])
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			fx := cos*dx - sin*dy + cx
			fy := sin*dx + cos*dy + cy
			x0, y0 := int(math.Floor(fx)), int(math.Floor(fy))
			ax, ay := fx-float64(x0), fy-float64(y0)
			v := at(x0, y0)*(1-ax)*(1-ay) + at(x0+1, y0)*ax*(1-ay) + at(x0, y0+1)*(1-ax)*ay + at(x0+1, y0+1)*ax*ay
			out.Pix[y*out.Stride+x] = uint8(v + 0.5)
		}
	}
	return out
}

// encodePGM writes a grey image as binary PGM, which Leptonica reads without
// any decompression: far cheaper than PNG for a page handed straight on.
func encodePGM(g *image.Gray) []byte {
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	var b bytes.Buffer
	fmt.Fprintf(&b, "P5\n%d %d\n255\n", w, h)
	b.Grow(w * h)
	for y := 0; y < h; y++ {
		b.Write(g.Pix[y*g.Stride : y*g.Stride+w])
	}
	return b.Bytes()
}

// clearBorders whitens the dark margins around the paper: on every row the
// run of ink-dark pixels that starts at the left or right edge, and on every
// column the run from the top or bottom edge. A dark strip down a scan's
// torn edge made Tesseract read a clean receipt as "DRAAABDAAAA" (SROIE
// 382). A page where that would whiten more than half the pixels is dark
// all over (light print on dark paper) and is left as it is. It reports
// whether it changed g.
func clearBorders(g *image.Gray) bool {
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	if w == 0 || h == 0 {
		return false
	}
	thr := byte(otsuThreshold(g))
	dark := make([]bool, len(g.Pix))
	n := 0
	// clear marks the run of dark pixels from index start on, stepping by
	// step, when it is long enough to be a margin: print that touches the
	// edge makes runs of a stroke's width.
	clear := func(start, step, count, minRun int) {
		run := 0
		for i := start; run < count && g.Pix[i] < thr; i += step {
			run++
		}
		if run < minRun {
			return
		}
		for k, i := 0, start; k < run; k, i = k+1, i+step {
			if !dark[i] {
				dark[i] = true
				n++
			}
		}
	}
	rowRun, colRun := max(8, w/50), max(8, h/50)
	for y := range h {
		clear(y*g.Stride, 1, w, rowRun)
		clear(y*g.Stride+w-1, -1, w, rowRun)
	}
	for x := range w {
		clear(x, g.Stride, h, colRun)
		clear((h-1)*g.Stride+x, -g.Stride, h, colRun)
	}
	if n == 0 || n > w*h/2 {
		return false
	}
	for i, d := range dark {
		if d {
			g.Pix[i] = 255
		}
	}
	return true
}
