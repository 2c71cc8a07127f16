package ocr

import (
	"context"
	"os"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/internal/synth"
	"github.com/shoebox-app/shoebox/receipt"
)

func centsToDecimal(c int64) decimal.Decimal { return decimal.New(c, -2) }

// readHardwareReceipt renders a small AU tax invoice and reads it with a
// one-instance engine (closed when the test ends), for tests of the passes
// that work on a page reading.
func readHardwareReceipt(t *testing.T) (*Tesseract, pageReading) {
	t.Helper()
	img, err := synth.Render(synth.Receipt{
		Supplier: "HARBOUR HARDWARE PTY LTD",
		Address:  []string{"12 GEORGE STREET", "SYDNEY NSW 2000"},
		Date:     "16/07/2025",
		Items:    []synth.Item{{Desc: "HAMMER", Qty: 1, UnitCents: 2495}},
		TaxLabel: "GST", TaxRate: 10, Inclusive: true, Currency: "$",
	})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := NewTesseract(Options{Locale: receipt.DefaultLocale(receipt.CountryAU), Preprocess: DefaultPreprocess, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	pr, _, err := eng.readPage(context.Background(), inference.Page{Image: img}, eng.opt.PSM)
	if err != nil {
		t.Fatal(err)
	}
	return eng, pr
}

// extractSROIE reads one SROIE development receipt (skipping the test
// where the data is absent) with the default MY options as set changes
// them, deterministically.
func extractSROIE(t *testing.T, name string, set func(*Options)) receipt.Receipt {
	t.Helper()
	path := "../../../shared/data/sroie-dev/" + name
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
	opt := DefaultOptions(receipt.DefaultLocale(receipt.CountryMY))
	opt.Workers, opt.Deterministic = 1, true
	set(&opt)
	eng, err := NewTesseract(opt)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Extract(context.Background(), inference.Page{Image: pg.Image})
	if err != nil {
		t.Fatal(err)
	}
	return res.Receipt
}
