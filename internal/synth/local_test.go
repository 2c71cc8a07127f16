package synth

import (
	"reflect"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// A pack country's receipt is repeatable, adds up per tax band, prints its
// language's words for the total and the payment, and carries a tax ID
// that its country's scheme accepts.
func TestPackCountryReceipts(t *testing.T) {
	for _, c := range PackCountries {
		pk, ok := packs.Get(c)
		if !ok {
			t.Fatalf("%s: no pack", c)
		}
		layouts := map[Layout]bool{}
		for seed := int64(0); seed < 40; seed++ {
			r, err := Generate(seed, c)
			if err != nil {
				t.Fatalf("%s seed %d: %v", c, seed, err)
			}
			again, _ := Generate(seed, c)
			if !reflect.DeepEqual(r, again) {
				t.Fatalf("%s seed %d: two different receipts", c, seed)
			}
			layouts[r.Layout] = true
			if r.ISOCurrency != pk.Currency || r.Comma != pk.DecimalComma {
				t.Errorf("%s: currency %s, comma %v; the pack says %s, %v", c, r.ISOCurrency, r.Comma, pk.Currency, pk.DecimalComma)
			}
			sub, tax, total := r.Totals()
			var net, gross, bandTax int64
			for _, b := range r.BandSums() {
				if b.Net+b.Tax != b.Gross {
					t.Errorf("%s seed %d: band %+v does not add up", c, seed, b)
				}
				net, gross, bandTax = net+b.Net, gross+b.Gross, bandTax+b.Tax
			}
			if bandTax != tax || gross != total || (r.Inclusive && sub != gross) || (!r.Inclusive && sub != net) {
				t.Errorf("%s seed %d: totals %d %d %d, bands net %d tax %d gross %d", c, seed, sub, tax, total, net, bandTax, gross)
			}
			text := strings.Join(LocalLines(r), "\n")
			for _, w := range []string{r.Local.TotalWord, r.number(total), r.Date, r.Supplier} {
				if !strings.Contains(text, w) {
					t.Errorf("%s seed %d: %q not printed:\n%s", c, seed, w, text)
				}
			}
			if n, ok := pk.IsLegalForm(packs.Words(r.Supplier)); !ok || n == 0 {
				t.Errorf("%s seed %d: %q ends in none of the pack's legal forms", c, seed, r.Supplier)
			}
			if r.TaxIDLabel != "" {
				id := receipt.DetectTaxID(r.TaxIDLabel, receipt.CountryEU)
				if id.Scheme == receipt.SchemeOther || id.Scheme == receipt.SchemeNone || id.Value != r.TaxIDLabel {
					t.Errorf("%s seed %d: tax ID %q read as %+v", c, seed, r.TaxIDLabel, id)
				} else if err := receipt.ValidateTaxID(id); err != nil {
					t.Errorf("%s seed %d: %v", c, seed, err)
				}
			}
			if r.CashCents != 0 && r.CashCents < total {
				t.Errorf("%s seed %d: cash under the total", c, seed)
			}
		}
		if len(layouts) != int(layoutCount) {
			t.Errorf("%s: layouts drawn %v", c, layouts)
		}
	}
}

func TestPackCountryFormats(t *testing.T) {
	for _, tt := range []struct {
		country string
		cents   int64
		want    string
		rate    Band
		rateTxt string
	}{
		{"DE", 123456, "1.234,56", Band{"A", 19000}, "19%"},
		{"FR", 123456, "1 234,56", Band{"", 5500}, "5,50%"},
		{"FI", 1234567, "12 345,67", Band{"", 25500}, "25,5%"},
		{"IE", 123456, "1,234.56", Band{"", 13500}, "13.5%"},
		{"NL", 99, "0,99", Band{"", 9000}, "9%"},
	} {
		r, err := Generate(1, tt.country)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.number(tt.cents); got != tt.want {
			t.Errorf("%s: %d cents print %q, want %q", tt.country, tt.cents, got, tt.want)
		}
		if got := r.rateText(tt.rate); got != tt.rateTxt {
			t.Errorf("%s: rate %d prints %q, want %q", tt.country, tt.rate.Milli, got, tt.rateTxt)
		}
	}
	if got := (Band{Milli: 9975}).Rate(); got != "9.975" {
		t.Errorf("rate %q", got)
	}
}

// The German receipt prints its MwSt table one row per letter, and the
// items carry their letters.
func TestGermanTaxTable(t *testing.T) {
	for seed := int64(0); seed < 20; seed++ {
		r, _ := Generate(seed, "DE")
		if r.Layout == Table {
			continue
		}
		lines := LocalLines(r)
		text := strings.Join(lines, "\n")
		if !strings.Contains(text, "MwSt%") {
			t.Fatalf("no MwSt table:\n%s", text)
		}
		for _, b := range r.BandSums() {
			row := b.Letter + " " + r.rateText(b.Band)
			if !strings.Contains(text, row) || !strings.Contains(text, r.number(b.Net)) {
				t.Errorf("seed %d: no row %q with net %s:\n%s", seed, row, r.number(b.Net), text)
			}
		}
		for _, l := range lines {
			for _, it := range r.Items {
				if strings.HasPrefix(l, it.Desc+" ") && !strings.HasSuffix(l, " "+r.Bands[it.Band].Letter) {
					t.Errorf("seed %d: item line %q has no letter %s", seed, l, r.Bands[it.Band].Letter)
				}
			}
		}
	}
}

func TestPackCountryLayoutsRender(t *testing.T) {
	for _, c := range PackCountries {
		r, _ := Generate(5, c)
		r = WithItems(r, 12, 5)
		for l := Till; l < layoutCount; l++ {
			r.Layout = l
			img, err := Render(r)
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() < 500 || b.Dy() < 600 {
				t.Errorf("%s %s: %v", c, l, b)
			}
		}
	}
}
