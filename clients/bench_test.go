package clients

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/export"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// BenchmarkClientExport500 exports 500 confirmed, coded receipts (three
// line items each) from a client's library with each preset: reading the
// records and their coding, the check, and the atomic write. The target is
// under a second per preset.
// Run: go test -tags migrated_fynedo -run '^$' -bench ClientExport500 -benchtime 5x ./clients
func BenchmarkClientExport500(b *testing.B) {
	reg, _ := Open(b.TempDir())
	l := newClient(b, reg, "Bench Pty Ltd")
	src := b.TempDir()
	for i := 0; i < 500; i++ {
		img := image.NewGray(image.Rect(0, 0, 32, 48))
		for j := range img.Pix {
			img.Pix[j] = byte(i >> (j % 16))
		}
		var buf bytes.Buffer
		png.Encode(&buf, img)
		os.WriteFile(filepath.Join(src, fmt.Sprintf("r%03d.png", i)), buf.Bytes(), 0o644)
	}
	res := l.Import(ctx, []string{src}, ingest.DefaultLimits(), nil)
	for i, r := range res {
		if r.Outcome != library.Added {
			b.Fatalf("%s: %s %s", r.Path, r.Outcome, r.Reason)
		}
		total := fmt.Sprintf("%d.%02d", 30+i%70, i%100)
		rc := receipt.Receipt{
			SupplierName: txt(fmt.Sprintf("Supplier %d", i%37)), Date: receipt.Of(receipt.Date(2025, time.Month(1+i%12), 1+i%28), receipt.SourceModel, 0.9),
			Total: amt(total), Currency: txt("AUD"), TotalTax: amt("2.00"), TaxInclusive: receipt.Of(true, receipt.SourceModel, 0.9),
			LineItems: []receipt.LineItem{item("Paper", "2", "5.00", "10.00"), item("Pens", "", "", "12.00"), item("Toner", "", "", "8.00")},
		}
		if err := l.SaveExtraction(ctx, r.ID, rc, "bench", receipt.SourceModel); err != nil {
			b.Fatal(err)
		}
		if err := l.SetCoding(ctx, r.ID, -1, "461", "GST"); err != nil {
			b.Fatal(err)
		}
		if err := l.Confirm(ctx, r.ID); err != nil {
			b.Fatal(err)
		}
	}
	// MYOB numbers accounts its own way: a second client codes to 6-1100.
	myob := newClient(b, reg, "Bench MYOB")
	myob.SetAccounts(ctx, []library.Account{{Code: "6-1100", Name: "Stationery"}})
	myobRes := myob.Import(ctx, []string{src}, ingest.DefaultLimits(), nil)
	for _, r := range myobRes {
		rec, _ := l.Get(r.ID)
		myob.SaveExtraction(ctx, r.ID, rec.Receipt, "bench", receipt.SourceModel)
		myob.SetCoding(ctx, r.ID, -1, "6-1100", "GST")
		myob.Confirm(ctx, r.ID)
	}
	dir := b.TempDir()
	for _, p := range export.Presets {
		lib := l
		if p == export.PresetMYOBPurchases || p == export.PresetMYOBSpend {
			lib = myob
		}
		b.Run(string(p), func(b *testing.B) {
			for n := 0; n < b.N; n++ {
				rows, err := CodedRows(lib, library.Filter{})
				if err != nil {
					b.Fatal(err)
				}
				books, err := Books(lib)
				if err != nil {
					b.Fatal(err)
				}
				st, err := export.WritePreset(filepath.Join(dir, string(p)+p.Ext()), p, rows, export.PresetOptions{Books: books})
				if err != nil {
					if ce := (*export.CheckError)(nil); errors.As(err, &ce) {
						b.Fatal(ce.Problems[:min(3, len(ce.Problems))])
					}
					b.Fatal(err)
				}
				if st.Receipts != 500 {
					b.Fatal(st)
				}
			}
		})
	}
}
