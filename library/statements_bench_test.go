package library_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/bank"
	"github.com/shoebox-app/shoebox/internal/benchutil"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// BenchmarkStatement50kMatch10k imports a 50,000-line statement (CSV with
// a running balance: read, checked, the original stored, each line kept)
// into a library holding 10,000 read receipts, then matches every line
// (load, match, store). 10,000 lines are the receipts' payments, paid up
// to 4 days later under bank-style descriptions; 40,000 are other
// spending. Run: go test -run ^$ -bench Statement50k ./library/
func BenchmarkStatement50kMatch10k(b *testing.B) {
	const nReceipts, nLines = 10_000, 50_000
	rnd := rand.New(rand.NewSource(50))
	var suppliers []string
	for i := 0; i < 800; i++ {
		suppliers = append(suppliers, fmt.Sprintf("%s %s %s", []string{"Kedai", "Restoran", "Bengkel", "Farmasi", "Kafe", "Hardware", "Stationery", "Mart"}[i%8],
			strings.ToUpper(string(rune('A'+i%26)))+strings.Repeat(string(rune('a'+i*7%26)), 2+i%3)+fmt.Sprint(i), []string{"Sdn Bhd", "Enterprise", "Trading", ""}[i%4]))
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	rs := make([]receipt.Receipt, nReceipts)
	type line struct {
		date time.Time
		amt  decimal.Decimal
		desc string
	}
	var lines []line
	for i := range rs {
		name := suppliers[rnd.Intn(len(suppliers))]
		d := start.AddDate(0, 0, rnd.Intn(360))
		total := decimal.New(int64(100+rnd.Intn(50000)), -2)
		rs[i] = receipt.Receipt{
			SupplierName: receipt.Of(name, receipt.SourceOCR, 0.9), Date: receipt.Of(d, receipt.SourceOCR, 0.9),
			Total: receipt.Of(total, receipt.SourceOCR, 0.9), Currency: receipt.Of("MYR", receipt.SourceOCR, 0.9),
		}
		lines = append(lines, line{d.AddDate(0, 0, rnd.Intn(5)), total.Neg(), "POS PURCHASE " + strings.ToUpper(name)})
	}
	for len(lines) < nLines {
		lines = append(lines, line{
			start.AddDate(0, 0, rnd.Intn(365)), decimal.New(int64(100+rnd.Intn(90000)), -2).Neg(),
			fmt.Sprintf("DEBIT CARD MERCHANT %d KUALA LUMPUR", rnd.Intn(20000)),
		})
	}
	sort.SliceStable(lines, func(a, b int) bool { return lines[a].date.Before(lines[b].date) })
	var sb strings.Builder
	sb.WriteString("Date,Description,Amount,Balance\n")
	bal := decimal.NewFromInt(5_000_000)
	for _, l := range lines {
		bal = bal.Add(l.amt)
		fmt.Fprintf(&sb, "%s,%s,%s,%s\n", l.date.Format("02/01/2006"), l.desc, l.amt.StringFixed(2), bal.StringFixed(2))
	}
	stmt := filepath.Join(b.TempDir(), "statement-50k.csv")
	if err := os.WriteFile(stmt, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var importTime, matchTime time.Duration
	var out bank.Outcome
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		lib, err := library.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		my, _ := receipt.ParseCountry("MY")
		lib.SetLocale(receipt.DefaultLocale(my))
		if _, err := library.AddReadReceipts(lib, rs); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0 := time.Now()
		res, err := bank.Import(ctx, lib, stmt, bank.ImportOptions{Account: "Cheque"})
		if err != nil || res.Added != nLines {
			b.Fatalf("import: %+v %v", res.StatementImport, err)
		}
		t1 := time.Now()
		out, err = bank.Run(ctx, lib, time.Time{}, time.Time{}, bank.DefaultRules)
		if err != nil {
			b.Fatal(err)
		}
		importTime += t1.Sub(t0)
		matchTime += time.Since(t1)
		b.StopTimer()
		lib.Close()
		b.StartTimer()
	}
	b.ReportMetric(importTime.Seconds()/float64(b.N), "import_s")
	b.ReportMetric(matchTime.Seconds()/float64(b.N), "match_s")
	b.ReportMetric(float64(out.Sure), "matched")
	b.ReportMetric(float64(out.Proposed), "proposed")
	b.ReportMetric(benchutil.PeakRSSMB(), "peakRSS_MB")
}
