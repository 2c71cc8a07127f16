package pipeline

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// fakeEngine reads every page as the same receipt, failing on request.
type fakeEngine struct {
	calls  atomic.Int32
	failOn int32
	delay  time.Duration
}

func (f *fakeEngine) Name() string { return "fake" }
func (f *fakeEngine) Close() error { return nil }
func (f *fakeEngine) Extract(ctx context.Context, p inference.Page) (inference.Result, error) {
	n := f.calls.Add(1)
	select {
	case <-time.After(f.delay):
	case <-ctx.Done():
		return inference.Result{}, ctx.Err()
	}
	if n == f.failOn {
		return inference.Result{}, errors.New("engine fell over")
	}
	return inference.Result{Receipt: receipt.Receipt{
		SupplierName: receipt.Of(fmt.Sprintf("Shop %d", n), receipt.SourceModel, 0.9),
		Date:         receipt.Of(receipt.Date(2025, 7, int(n)), receipt.SourceModel, 0.9),
		Total:        receipt.Of(decimal.NewFromInt(int64(n)), receipt.SourceModel, 0.9),
	}}, nil
}

func setup(t *testing.T, n int) (*library.Library, []int64) {
	l, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	dir := t.TempDir()
	var ids []int64
	for i := 0; i < n; i++ {
		img := image.NewGray(image.Rect(0, 0, 20+i, 30))
		p := filepath.Join(dir, fmt.Sprintf("%d.png", i))
		f, _ := os.Create(p)
		png.Encode(f, img)
		f.Close()
		r := l.ImportFile(context.Background(), p, ingest.DefaultLimits())
		ids = append(ids, r.ID)
	}
	if _, err := l.Enqueue(context.Background(), ids, false); err != nil {
		t.Fatal(err)
	}
	return l, ids
}

func TestRunnerDrainsTheQueueAndGoesOnPastFailures(t *testing.T) {
	l, _ := setup(t, 5)
	var seen []Progress
	r := &Runner{Lib: l, Engine: &fakeEngine{failOn: 3}, Workers: 2, OnProgress: func(p Progress) { seen = append(seen, p) }}
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	counts, _ := l.Counts()
	if counts[library.StatusFailed] != 1 || counts[library.StatusExtracted]+counts[library.StatusNeedsReview] != 4 || counts[library.StatusQueued] != 0 {
		t.Fatalf("counts = %v", counts)
	}
	p := r.Snapshot()
	if p.Done != 4 || p.Failed != 1 || p.Total != 5 || p.LastError != "page 1: engine fell over" {
		t.Errorf("progress = %+v", p)
	}
	failed, _ := l.List(library.Filter{Statuses: []library.Status{library.StatusFailed}})
	if len(failed) != 1 || failed[0].FailReason != "page 1: engine fell over" {
		t.Errorf("failed = %+v", failed)
	}
}

func TestCancelPutsTheReceiptBackInTheQueue(t *testing.T) {
	l, _ := setup(t, 3)
	ctx, cancel := context.WithCancel(context.Background())
	r := &Runner{
		Lib: l, Engine: &fakeEngine{delay: 200 * time.Millisecond}, Workers: 1,
		OnProgress: func(p Progress) {
			if p.Done == 1 {
				cancel()
			}
		},
	}
	r.Run(ctx)
	counts, _ := l.Counts()
	if counts[library.StatusExtracting] != 0 || counts[library.StatusQueued] != 2 {
		t.Fatalf("after cancel: %v", counts)
	}
}

func TestPageTimeoutFailsOnlyThatReceipt(t *testing.T) {
	l, _ := setup(t, 2)
	r := &Runner{Lib: l, Engine: &fakeEngine{delay: time.Second}, Workers: 1, PageTimeout: 50 * time.Millisecond}
	r.Run(context.Background())
	failed, _ := l.List(library.Filter{Statuses: []library.Status{library.StatusFailed}})
	if len(failed) != 2 || failed[0].FailReason != "page 1 took longer than 50ms to read" {
		t.Fatalf("failed = %+v", failed)
	}
}

func TestEInvoicesSkipThePageReader(t *testing.T) {
	const data = "../../shared/data/einvoices"
	files := []string{
		filepath.Join(data, "XML-Rechnung/UBL/ubl-tc434-creditnote1.xml"),
		filepath.Join(data, "ZUGFeRDv2/correct/symtrax/Beispiele/EN16931/zugferd_2p1_EN16931_Einfach.pdf"),
	}
	if _, err := os.Stat(files[0]); err != nil {
		t.Skip("test data not present:", err)
	}
	l, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	if err := l.SetLocale(receipt.Locale{Country: receipt.CountryEU, DateOrder: receipt.DMY, FYStartMonth: 1, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, p := range files {
		res := l.ImportFile(context.Background(), p, ingest.DefaultLimits())
		if res.Outcome != library.Added {
			t.Fatalf("%s: %s %s", p, res.Outcome, res.Reason)
		}
		ids = append(ids, res.ID)
	}
	l.Enqueue(context.Background(), ids, false)
	eng := &fakeEngine{}
	if err := (&Runner{Lib: l, Engine: eng, Workers: 1}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := eng.calls.Load(); n != 0 {
		t.Errorf("the page reader was called %d times for e-invoices", n)
	}
	want := []struct{ supplier, total string }{{"My Supplier Company", "-100.11"}, {"Lieferant GmbH", "529.87"}}
	for i, id := range ids {
		rec, err := l.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		total, _ := receipt.Get(&rec.Receipt, "total")
		if rec.Receipt.SupplierName.Value != want[i].supplier || total != want[i].total || rec.Receipt.Total.Source != receipt.SourceEInvoice {
			t.Errorf("receipt %d: supplier %q total %s source %q; want %+v from the e-invoice", id, rec.Receipt.SupplierName.Value, total, rec.Receipt.Total.Source, want[i])
		}
		if rec.Status == library.StatusFailed {
			t.Errorf("receipt %d failed: %+v", id, rec)
		}
		// The credit note reconciles and its seller's VAT ID is sound: ready without review.
		if i == 0 && rec.Status != library.StatusExtracted {
			t.Errorf("credit note: %s with findings %v; want extracted", rec.Status, rec.Findings)
		}
	}
}
