package synth

import (
	"image"
	"reflect"
	"testing"

	"github.com/shoebox-app/shoebox/receipt"
)

func TestGenerateIsRepeatableAndPlausible(t *testing.T) {
	layouts := map[Layout]bool{}
	for _, c := range Countries {
		for seed := int64(0); seed < 30; seed++ {
			r, err := Generate(seed, c)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := Generate(seed, c)
			if !reflect.DeepEqual(r, again) {
				t.Fatalf("%s seed %d: two different receipts", c, seed)
			}
			layouts[r.Layout] = true
			if len(r.Items) == 0 || r.Supplier == "" || len(r.Address) != 2 || r.ISODate == "" {
				t.Errorf("%s seed %d: %+v", c, seed, r)
			}
			if _, _, total := r.Totals(); r.CashCents != 0 && r.CashCents < total {
				t.Errorf("%s seed %d: cash %d under the total %d", c, seed, r.CashCents, total)
			}
			if r.TaxID != "" {
				id := receipt.DetectTaxID(r.TaxID, receipt.Country(c))
				if id.Scheme == receipt.SchemeOther {
					t.Errorf("%s seed %d: tax ID %q not recognised", c, seed, r.TaxID)
				}
				if err := receipt.ValidateTaxID(id); err != nil {
					t.Errorf("%s seed %d: tax ID %q: %v", c, seed, r.TaxID, err)
				}
			}
		}
	}
	if len(layouts) != int(layoutCount) {
		t.Errorf("layouts drawn: %v", layouts)
	}
	if _, err := Generate(1, "XX"); err == nil {
		t.Error("an unknown country was accepted")
	}
}

func TestEveryLayoutRenders(t *testing.T) {
	for l := Till; l < layoutCount; l++ {
		r, _ := Generate(3, "US")
		r.Layout = l
		img, err := Render(r)
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 300 {
			t.Errorf("%s: %v", l, b)
		}
	}
}

// Keystone narrows the receipt towards the top: a full-width black band at
// the top of the page lies on a narrower span of the photo than one at the
// bottom.
func TestKeystoneNarrowsTheTop(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 200, 200))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := range 200 {
		if y < 10 || y >= 190 {
			for x := range 200 {
				img.Pix[y*img.Stride+x] = 0
			}
		}
	}
	out := Degrade(img, Photo{Keystone: 0.2})
	dark := func(y int) int {
		n := 0
		for x := range 200 {
			if out.Pix[y*out.Stride+x] < 100 {
				n++
			}
		}
		return n
	}
	if top, bottom := dark(5), dark(195); top >= bottom || top > 175 || bottom < 195 {
		t.Errorf("dark pixels: top row %d, bottom row %d", top, bottom)
	}
}
