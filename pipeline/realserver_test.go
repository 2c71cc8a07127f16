package pipeline

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/server"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/internal/testollama"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// TestRealServerStoppedMidBatch reads dev receipts from a real library
// through a real Ollama server (with Tesseract's hint, as the app does),
// kills the server after the first receipt, and checks that nothing is
// failed or lost: the receipts wait in the queue, and the batch resumes
// when the server is back. Then a batch meets a server that stays away
// and stops after GiveUpAfter, leaving every receipt queued for the next.
func TestRealServerStoppedMidBatch(t *testing.T) {
	fastChecks(t)
	srv := testollama.Start(t, 2)
	l, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var ids []int64
	for _, p := range testollama.Receipts(t, 4) {
		r := l.ImportFile(context.Background(), p, ingest.DefaultLimits())
		if r.ID == 0 {
			t.Fatalf("%s: not imported: %s", p, r.Reason)
		}
		ids = append(ids, r.ID)
	}
	if _, err := l.Enqueue(context.Background(), ids, false); err != nil {
		t.Fatal(err)
	}
	eng, label, workers, err := StartServer(server.Options{
		URL: srv.URL, Model: srv.Model, API: server.APIOpenAI, Retries: 1,
		Backoff: 50 * time.Millisecond, MaxTokens: 512,
	}, receipt.DefaultLocale(receipt.CountryMY))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, ok := eng.(ServerWithOCR); !ok {
		t.Logf("Tesseract did not start: reading without the OCR hint")
	}
	t.Log("reading with", label)

	var once, back sync.Once
	var during map[library.Status]int
	r := &Runner{Lib: l, Engine: eng, Workers: workers}
	r.OnProgress = func(p Progress) {
		if p.Done == 1 {
			once.Do(srv.Stop) // the server goes away mid-batch
		}
		if p.Waiting != "" {
			back.Do(func() {
				during, _ = l.Counts()
				go func() {
					if err := srv.Restart(); err != nil {
						t.Error(err)
					}
				}()
			})
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := r.Run(ctx); err != nil {
		t.Fatalf("Run: %v\n%s", err, srv.Log())
	}
	if during == nil {
		t.Fatal("the batch never waited for the server")
	}
	if during[library.StatusFailed] != 0 || during[library.StatusQueued] == 0 {
		t.Errorf("while the server was away: %v (want receipts queued, none failed)", during)
	}
	after, _ := l.Counts()
	if after[library.StatusFailed] != 0 || after[library.StatusQueued] != 0 || after[library.StatusExtracted]+after[library.StatusNeedsReview] != 4 {
		t.Errorf("after the batch: %v; last error %q", after, r.Snapshot().LastError)
	}
	for _, id := range ids {
		rec, _ := l.Get(id)
		if rec.Engine != "server" {
			t.Errorf("receipt %d read by %q", id, rec.Engine)
		}
	}

	// A server that stays away: the batch stops, every receipt queued.
	if _, err := l.Enqueue(context.Background(), ids, true); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	r = &Runner{Lib: l, Engine: eng, Workers: workers, GiveUpAfter: 300 * time.Millisecond}
	if err := r.Run(ctx); !errors.Is(err, inference.ErrUnavailable) {
		t.Fatalf("with the server away: Run = %v", err)
	}
	if c, _ := l.Counts(); c[library.StatusQueued] != 4 || c[library.StatusFailed] != 0 {
		t.Errorf("after giving up: %v", c)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	r = &Runner{Lib: l, Engine: eng, Workers: workers}
	if err := r.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if c, _ := l.Counts(); c[library.StatusQueued] != 0 || c[library.StatusFailed] != 0 {
		t.Errorf("after the server came back: %v", c)
	}
}
