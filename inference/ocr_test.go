package inference

import (
	"context"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/inference/synth"
	"github.com/shoebox-app/shoebox/receipt"
)

func TestOCRReadsASyntheticTaxInvoice(t *testing.T) {
	r := synth.Receipt{
		Supplier: "HARBOUR HARDWARE PTY LTD",
		Address:  []string{"12 GEORGE STREET", "SYDNEY NSW 2000"},
		TaxID:    "ABN 51 824 753 556",
		Date:     "16/07/2025",
		Items:    []synth.Item{{Desc: "HAMMER", Qty: 1, UnitCents: 2495}, {Desc: "NAILS 1KG", Qty: 2, UnitCents: 1250}},
		TaxLabel: "GST", TaxRate: 10, Inclusive: true, Currency: "$",
	}
	img, err := synth.Render(r)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := NewOCR(OCROptions{Locale: receipt.DefaultLocale(receipt.CountryAU), Preprocess: DefaultPreprocess, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Extract(context.Background(), Page{Image: img})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Receipt
	_, tax, total := r.Totals()
	check := func(field, want string) {
		t.Helper()
		if v, _ := receipt.Get(&got, field); v != want {
			t.Errorf("%s = %q, want %q\nOCR text:\n%s", field, v, want, res.Raw)
		}
	}
	check("supplier_name", "HARBOUR HARDWARE PTY LTD")
	check("supplier_tax_id", "AU_ABN:51824753556")
	check("date", "2025-07-16")
	check("total", decimalText(total))
	check("total_tax", decimalText(tax))
	check("currency", "AUD")
	if len(got.LineItems) != 2 || got.LineItems[1].LineTotal.Value.String() != "25" {
		t.Errorf("line items = %+v", got.LineItems)
	}
	if got.Total.Box == nil || got.Total.Box.W == 0 || got.Total.Source != receipt.SourceOCR || got.Total.Confidence <= 0 {
		t.Errorf("total provenance = %+v", got.Total)
	}
	if res.Timings.OCR <= 0 || res.Timings.OCR > time.Minute {
		t.Errorf("timings = %+v", res.Timings)
	}
}

func decimalText(cents int64) string {
	s := receipt.Money{Amount: centsToDecimal(cents)}.Amount.String()
	return s
}
