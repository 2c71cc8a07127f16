package export

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/internal/benchutil"
	"github.com/shoebox-app/shoebox/receipt"
)

// manyRows yields n generated receipts with 3 line items each, built on the
// fly so the benchmark measures the writer's memory, not the input's.
func manyRows(n int) func(yield func(Row) bool) {
	return func(yield func(Row) bool) {
		cats := []string{"Travel", "Meals", "Stationery", "Hardware", "Fuel"}
		for i := 0; i < n; i++ {
			cents := int64(1000 + i%50000)
			total := decimal.New(cents*3, -2)
			tax := total.Div(decimal.NewFromInt(11)).Round(2)
			r := receipt.Receipt{
				SupplierName: text(fmt.Sprintf("Supplier %d Pty Ltd", i%977)),
				Date:         receipt.Of(receipt.Date(2024+i%2, time.Month(1+i%12), 1+i%28), receipt.SourceUser, 1),
				Currency:     text("AUD"),
				Category:     text(cats[i%len(cats)]),
				Subtotal:     receipt.Of(total, receipt.SourceUser, 1),
				TotalTax:     receipt.Of(tax, receipt.SourceUser, 1),
				TaxLines:     []receipt.TaxLine{{Label: text("GST"), Rate: amt("10"), Net: receipt.Of(total.Sub(tax), receipt.SourceUser, 1), Tax: receipt.Of(tax, receipt.SourceUser, 1)}},
				Total:        receipt.Of(total, receipt.SourceUser, 1),
			}
			for j := 0; j < 3; j++ {
				r.LineItems = append(r.LineItems, receipt.LineItem{
					Description: text(fmt.Sprintf("Item %d", j)), Quantity: amt("1"),
					UnitPrice: receipt.Of(decimal.New(cents, -2), receipt.SourceUser, 1), LineTotal: receipt.Of(decimal.New(cents, -2), receipt.SourceUser, 1),
				})
			}
			if !yield(Row{ID: int64(i + 1), Status: "confirmed", Receipt: r, Original: fmt.Sprintf("/library/originals/%02x/%064x.jpg", i%256, i)}) {
				return
			}
		}
	}
}

// BenchmarkXLSX100k writes 100,000 receipts with 300,000 line items.
// Run: go test -run '^$' -bench XLSX100k -benchtime 1x ./export
func BenchmarkXLSX100k(b *testing.B) {
	for n := 0; n < b.N; n++ {
		path := filepath.Join(b.TempDir(), "big.xlsx")
		st, err := WriteXLSX(path, manyRows(100_000), auOptions())
		if err != nil || st.Receipts != 100_000 || st.Lines != 300_000 {
			b.Fatalf("%+v %v", st, err)
		}
		if fi, err := os.Stat(path); err == nil {
			b.ReportMetric(float64(fi.Size())/1e6, "MB_file")
		}
	}
	b.ReportMetric(benchutil.PeakRSSMB(), "peakRSS_MB")
}

// BenchmarkCSV100k does the same for CSV.
func BenchmarkCSV100k(b *testing.B) {
	for n := 0; n < b.N; n++ {
		path := filepath.Join(b.TempDir(), "big.csv")
		if _, err := WriteCSV(path, manyRows(100_000), auOptions()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(benchutil.PeakRSSMB(), "peakRSS_MB")
}
