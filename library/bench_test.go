package library

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/internal/benchutil"
)

// BenchmarkImport1000 imports 1,000 real receipt scans (the SROIE JPEGs, each
// made unique by bytes after its end marker): hash, copy, decode, thumbnail,
// insert. Run: make bench, or go test -bench Import1000 ./library.
func BenchmarkImport1000(b *testing.B) {
	srcs, _ := filepath.Glob(filepath.Join(sroieDir, "*.jpg"))
	if len(srcs) == 0 {
		b.Skip("shared SROIE receipts not present")
	}
	dir := b.TempDir()
	for i := 0; i < 1000; i++ {
		data, err := os.ReadFile(srcs[i%len(srcs)])
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, []byte(fmt.Sprintf("copy %d", i))...)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%04d.jpg", i)), data, 0o644)
	}
	b.ResetTimer()
	var elapsed time.Duration
	for n := 0; n < b.N; n++ {
		l, err := Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		res := l.Import(ctx, []string{dir}, ingest.DefaultLimits(), nil)
		elapsed += time.Since(start)
		for _, r := range res {
			if r.Outcome != Added {
				b.Fatalf("%s: %s %s", r.Path, r.Outcome, r.Reason)
			}
		}
		l.Close()
	}
	b.ReportMetric(float64(1000*b.N)/elapsed.Seconds(), "receipts/s")
	b.ReportMetric(benchutil.PeakRSSMB(), "peakRSS_MB")
}
