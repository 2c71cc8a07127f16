package ocr

import (
	"image"
	"testing"
)

// page draws a white page of w×h with dark rectangles on it.
func page(w, h int, dark ...image.Rectangle) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i := range g.Pix {
		g.Pix[i] = 240
	}
	for _, r := range dark {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				g.Pix[y*g.Stride+x] = 20
			}
		}
	}
	return g
}

func TestClearBorders(t *testing.T) {
	text := image.Rect(100, 100, 300, 120) // a line of print
	for _, tc := range []struct {
		name     string
		g        *image.Gray
		changed  bool
		kept     []image.Point // still dark after
		whitened []image.Point
	}{
		{
			"a dark strip down the right edge", page(400, 600, text, image.Rect(370, 0, 400, 600)), true,
			[]image.Point{{150, 110}},
			[]image.Point{{385, 300}, {399, 0}},
		},
		{
			"print touching the edge stays", page(400, 600, text, image.Rect(0, 200, 4, 220)), false,
			[]image.Point{{150, 110}, {2, 210}},
			nil,
		},
		{
			"a page dark all over is left alone", page(400, 600, image.Rect(0, 0, 400, 400)), false,
			[]image.Point{{200, 200}},
			nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := clearBorders(tc.g); got != tc.changed {
				t.Errorf("changed = %v, want %v", got, tc.changed)
			}
			for _, p := range tc.kept {
				if tc.g.GrayAt(p.X, p.Y).Y > 128 {
					t.Errorf("%v was whitened", p)
				}
			}
			for _, p := range tc.whitened {
				if tc.g.GrayAt(p.X, p.Y).Y < 128 {
					t.Errorf("%v is still dark", p)
				}
			}
		})
	}
}

// SROIE 382 is a clean receipt beside a dark strip where the paper was torn:
// read as it is, Tesseract makes "DRAAABDAAAA" of it; read again with the
// margin whitened, it gives the supplier, date and total.
func TestOCRReadsAPageAgainWithoutItsDarkMargin(t *testing.T) {
	for _, fallback := range []bool{false, true} {
		r := extractSROIE(t, "382.jpg", func(o *Options) { o.BorderFallback = fallback })
		read := r.Total.Set && r.Total.Value.StringFixed(2) == "47.70" && r.Date.Value.Format("2006-01-02") == "2016-12-15"
		if read != fallback {
			t.Errorf("with BorderFallback %v: total %v (set %v), date %v", fallback, r.Total.Value, r.Total.Set, r.Date.Value)
		}
	}
}
