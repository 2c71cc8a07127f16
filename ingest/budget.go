package ingest

import (
	"image"
	"image/color"
	"math"
	"runtime"

	"golang.org/x/image/draw"

	"github.com/shoebox-app/shoebox/internal/budget"
)

// Decoding a large image takes several bytes a pixel (eight for a 16-bit
// PNG: 630 MB at 80 megapixels), so decodes draw on a shared memory budget:
// two large ones wait for each other instead of running side by side, and
// a decoded page larger than the engines need is shrunk before it is kept.

// DecodeBudget is how many bytes of decoded pixels may be held at once by
// decodes in progress.
const DecodeBudget = 700 << 20

// DefaultWorkPixels is the most pixels a page is handed on with: enough for
// a receipt at any sensible resolution (an A4 page at 300 dpi is 8.7 MP).
const DefaultWorkPixels = 12_000_000

var decodeBudget = budget.New(DecodeBudget)

// acquire waits until n bytes of the decode budget are free and returns the
// release.
func acquire(n int64) func() { return decodeBudget.Wait(n) }

// decodedBytes estimates the memory the decoded image of cfg takes.
func decodedBytes(cfg image.Config) int64 {
	per := int64(4)
	switch cfg.ColorModel {
	case color.GrayModel:
		per = 1
	case color.Gray16Model:
		per = 2
	case color.RGBA64Model, color.NRGBA64Model:
		per = 8
	case color.YCbCrModel:
		per = 3
	}
	return int64(cfg.Width) * int64(cfg.Height) * per
}

// shrinkToWork scales img down to at most maxPixels (aspect kept) into an
// 8-bit image; smaller images come back as they are.
func shrinkToWork(img image.Image, maxPixels int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if maxPixels <= 0 || w*h <= maxPixels {
		return img
	}
	scale := math.Sqrt(float64(maxPixels) / float64(w*h))
	nw, nh := max(1, int(float64(w)*scale)), max(1, int(float64(h)*scale))
	var dst draw.Image
	switch img.(type) {
	case *image.Gray, *image.Gray16:
		dst = image.NewGray(image.Rect(0, 0, nw, nh))
	default:
		dst = image.NewRGBA(image.Rect(0, 0, nw, nh))
	}
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

// afterLargeDecode hands a large decode's memory back before the next one
// starts, rather than at the garbage collector's leisure.
func afterLargeDecode(n int64) {
	if n >= 128<<20 {
		runtime.GC()
	}
}
