//go:build !windows

package ocr

import (
	"context"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/internal/benchutil"
	"github.com/shoebox-app/shoebox/receipt"
)

// benchReceipts is how many sroie-more receipts one round of
// BenchmarkReadReceipts reads: their sizes are the set's mix (most 500–1000
// pixels wide, one A4 scan).
const benchReceipts = 24

// BenchmarkReadReceipts reads sroie-more's first receipts as `shoebox eval`
// does: each file decoded by ingest and read by the default reader (PP-OCR
// with Tesseract beside it), a receipt per core at once. It reports the
// process's CPU seconds per receipt, the number the 2-core target of 60
// receipts a minute needs under 2 s, and receipts a minute on the wall
// clock (noisy on a shared machine), and the process's peak memory.
func BenchmarkReadReceipts(b *testing.B) {
	if !TesseractBuilt {
		b.Skip("this build reads without Tesseract")
	}
	paths := sroieMore(b, benchReceipts)
	opt := DefaultOptions(receipt.DefaultLocale(receipt.CountryMY))
	p, err := NewPPOCR(opt, PPOCROptions(ppocrDir(b)), true)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	cpu0, wall0 := processCPU(), time.Now()
	for b.Loop() {
		var wg sync.WaitGroup
		next := make(chan string)
		for range runtime.NumCPU() {
			wg.Go(func() {
				for path := range next {
					if _, err := readFile(ctx, p, path); err != nil {
						b.Error(path, err)
					}
				}
			})
		}
		for _, path := range paths {
			next <- path
		}
		close(next)
		wg.Wait()
	}
	n := float64(b.N * len(paths))
	b.ReportMetric((processCPU()-cpu0).Seconds()/n, "cpu-s/receipt")
	b.ReportMetric(n/time.Since(wall0).Minutes(), "receipts/min")
	b.ReportMetric(benchutil.PeakRSSMB(), "peak-MB")
}

// sroieMore lists the first n receipts of sroie-more (skipping the
// benchmark where the data is absent).
func sroieMore(b testing.TB, n int) []string {
	b.Helper()
	paths, _ := filepath.Glob(filepath.Join(repoRoot(b), "..", "shared", "data", "sroie-more", "*.jpg"))
	if len(paths) < n {
		b.Skip("the SROIE receipts are not here")
	}
	sort.Strings(paths)
	return paths[:n]
}

// readFile decodes a receipt's first page and reads it.
func readFile(ctx context.Context, eng inference.Engine, path string) (inference.Result, error) {
	f, err := ingest.Probe(ctx, path, ingest.DefaultLimits())
	if err != nil {
		return inference.Result{}, err
	}
	pg, err := ingest.LoadPage(ctx, f, 0, ingest.DefaultLimits())
	if err != nil {
		return inference.Result{}, err
	}
	return eng.Extract(ctx, inference.Page{Image: pg.Image, Text: pg.Text})
}

// processCPU is the CPU time the process has used, user and system, in
// all its threads (ONNX Runtime's and Tesseract's included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
