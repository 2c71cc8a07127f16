package inference

import (
	"context"
	"image"
	"os"
	"testing"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/receipt"
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
		{"a dark strip down the right edge", page(400, 600, text, image.Rect(370, 0, 400, 600)), true,
			[]image.Point{{150, 110}}, []image.Point{{385, 300}, {399, 0}}},
		{"print touching the edge stays", page(400, 600, text, image.Rect(0, 200, 4, 220)), false,
			[]image.Point{{150, 110}, {2, 210}}, nil},
		{"a page dark all over is left alone", page(400, 600, image.Rect(0, 0, 400, 400)), false,
			[]image.Point{{200, 200}}, nil},
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
	const path = "../../shared/data/sroie-dev/382.jpg"
	if _, err := os.Stat(path); err != nil {
		t.Skip("the SROIE receipts are not here:", err)
	}
	f, err := ingest.Probe(context.Background(), path, ingest.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	pg, err := ingest.LoadPage(context.Background(), f, 0, ingest.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	for _, fallback := range []bool{false, true} {
		opt := DefaultOCROptions(receipt.DefaultLocale(receipt.CountryMY))
		opt.Workers, opt.Deterministic, opt.BorderFallback = 1, true, fallback
		eng, err := NewOCR(opt)
		if err != nil {
			t.Fatal(err)
		}
		res, err := eng.Extract(context.Background(), Page{Image: pg.Image})
		eng.Close()
		if err != nil {
			t.Fatal(err)
		}
		r := res.Receipt
		read := r.Total.Set && r.Total.Value.StringFixed(2) == "47.70" && r.Date.Value.Format("2006-01-02") == "2016-12-15"
		if read != fallback {
			t.Errorf("with BorderFallback %v: total %v (set %v), date %v", fallback, r.Total.Value, r.Total.Set, r.Date.Value)
		}
	}
}
