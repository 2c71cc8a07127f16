// Package pipeline runs the extraction queue: it claims queued receipts from
// the library, reads their pages with an engine and saves what was read,
// one receipt at a time per worker. It is the one place that chooses an
// engine for a library (ChooseEngine) and combines readers with the model
// (VLMWithOCR, ServerWithOCR). A receipt whose engine is unavailable (a
// server gone away) goes back in the queue while the batch waits for it.
// The desktop app and the CLI share it.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/shoebox-app/shoebox/einvoice"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/server"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// Progress is a snapshot of a batch for progress bars.
type Progress struct {
	Done, Failed, Total int
	Started             time.Time
	PerMinute           float64
	ETA                 time.Duration
	Current             int64 // receipt being read, 0 when idle
	LastError           string
	// Pages read in the receipts done, and how many a minute: a server's
	// throughput.
	Pages          int
	PagesPerMinute float64
	// Waiting says why the batch is paused for its engine (a server that
	// cannot be reached); "" while it reads. Receipts stay queued meanwhile.
	Waiting string
}

// EInvoiceEngine is the engine name recorded for a receipt read from its
// e-invoice XML.
const EInvoiceEngine = "e-invoice"

// Runner drains the library's queue with an engine.
type Runner struct {
	Lib     *library.Library
	Engine  inference.Engine
	Limits  ingest.Limits
	Workers int
	// PageTimeout bounds one page; a hung engine fails the receipt, not the batch.
	PageTimeout time.Duration
	// OnProgress is called after every receipt (from a worker goroutine).
	OnProgress func(Progress)
	// GiveUpAfter is how long the batch waits for an engine that is
	// unavailable (inference.ErrUnavailable) before it stops, leaving the
	// rest queued; 0 waits until ctx is cancelled.
	GiveUpAfter time.Duration

	mu   sync.Mutex
	prog Progress

	// wait is the engine's outage while there is one: workers that meet it
	// put their receipt back in the queue and wait on it together.
	wait     outages
	requeued map[int64]int // times a receipt went back to the queue for the engine, this run
}

// Run processes queued receipts until the queue is empty or ctx is
// cancelled (a receipt being read when cancelled goes back to the queue).
func (r *Runner) Run(ctx context.Context) error {
	counts, err := r.Lib.Counts()
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.prog = Progress{Total: counts[library.StatusQueued], Started: time.Now()}
	r.mu.Unlock()
	workers := max(1, r.Workers)
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if err := r.wait.stopped(); err != nil {
					errs <- err
					return
				}
				id, ok, err := r.Lib.NextQueued(context.Background())
				if err != nil {
					errs <- err
					return
				}
				if !ok {
					return
				}
				if cause := r.one(ctx, id); cause != nil {
					if err := r.waitForEngine(ctx, cause); err != nil && ctx.Err() == nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// one reads a receipt. It returns the engine's error when the engine, not
// the receipt, was at fault (inference.ErrUnavailable): the receipt is
// back in the queue and the worker waits for the engine.
func (r *Runner) one(ctx context.Context, id int64) error {
	r.update(func(p *Progress) { p.Current = id })
	pages, err := r.read(ctx, id)
	switch {
	case err == nil:
		r.update(func(p *Progress) { p.Done++; p.Pages += pages; p.Current = 0 })
	case ctx.Err() != nil:
		// Cancelled or the window closed: back in the queue for next time.
		r.putBack(id)
		r.update(func(p *Progress) { p.Current = 0 })
	case errors.Is(err, server.ErrRefused):
		// The server refuses this client (its key, or redirects): no
		// receipt is at fault and no waiting mends it. The batch stops at
		// once; the receipts stay queued for when the setting is fixed.
		r.putBack(id)
		r.update(func(p *Progress) { p.Current = 0; p.LastError = err.Error() })
		r.wait.mu.Lock()
		if r.wait.gaveUp == nil {
			r.wait.gaveUp = fmt.Errorf("%w; the batch stopped and the receipts stay queued", err)
		}
		r.wait.mu.Unlock()
		return err
	case errors.Is(err, inference.ErrUnavailable) && r.requeue(id):
		// The server went away or will not answer: the receipt is not at
		// fault and waits in the queue for it.
		r.putBack(id)
		r.update(func(p *Progress) { p.Current = 0; p.LastError = err.Error() })
		return err
	default:
		if ferr := r.Lib.Fail(context.Background(), id, err.Error()); ferr != nil {
			err = fmt.Errorf("%w (and it could not be marked failed: %w; it returns to the queue when its claim runs out)", err, ferr)
		}
		r.update(func(p *Progress) { p.Failed++; p.Current = 0; p.LastError = err.Error() })
	}
	return nil
}

// putBack returns a receipt to the queue. If the library cannot be written
// now, its claim runs out and the next batch takes it back all the same.
func (r *Runner) putBack(id int64) {
	if err := r.Lib.SetStatus(context.Background(), id, library.StatusQueued, "system", ""); err != nil {
		r.update(func(p *Progress) {
			p.LastError = fmt.Sprintf("receipt %d could not be put back in the queue now (%v); it returns there when its claim runs out", id, err)
		})
	}
}

// maxRequeues bounds how often one receipt goes back to the queue for an
// engine that says it is available between tries: a receipt that only
// ever meets "unavailable" (a proxy refusing its size) fails by itself
// rather than holding the batch forever.
const maxRequeues = 5

func (r *Runner) requeue(id int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.requeued == nil {
		r.requeued = map[int64]int{}
	}
	r.requeued[id]++
	return r.requeued[id] <= maxRequeues
}

// read reads a receipt's pages and saves the reading; it returns how many
// pages were read.
func (r *Runner) read(ctx context.Context, id int64) (int, error) {
	rec, err := r.Lib.Get(id)
	if err != nil {
		return 0, err
	}
	lim := r.Limits
	if lim.MaxPixels == 0 {
		lim = ingest.DefaultLimits()
	}
	f := r.Lib.File(rec)
	// An e-invoice states its fields exactly: no page reader, no model.
	// A PDF whose e-invoice cannot be read is read from its print, and the
	// reading says so (einvoice.DamagedFinding).
	inv, err := ingest.EInvoice(ctx, f)
	var notes []receipt.Finding
	switch {
	case err == nil:
		return 0, r.Lib.SaveExtraction(context.Background(), id, inv.Receipt(), EInvoiceEngine, receipt.SourceEInvoice)
	case f.Kind == ingest.XML:
		return 0, fmt.Errorf("the e-invoice could not be read: %w", err)
	}
	if fd, ok := einvoice.DamagedFinding(err); ok {
		notes = append(notes, fd)
	}
	var merged receipt.Receipt
	for i := 0; i < max(1, f.Pages); i++ {
		page, err := ingest.LoadPage(ctx, f, i, lim)
		if err != nil {
			var ref *ingest.Refusal
			if errors.As(err, &ref) {
				return 0, errors.New(ref.Reason)
			}
			return 0, err
		}
		pctx, cancel := ctx, context.CancelFunc(func() {})
		if r.PageTimeout > 0 {
			pctx, cancel = context.WithTimeout(ctx, r.PageTimeout)
		}
		res, err := r.Engine.Extract(pctx, inference.Page{Image: page.Image, Index: i, Text: page.Text})
		timedOut := pctx.Err() == context.DeadlineExceeded
		cancel()
		if err != nil {
			if timedOut && ctx.Err() == nil && !errors.Is(err, inference.ErrUnavailable) {
				// A server that went silent (its machine off the network)
				// or has more pages than it can read is not the page's
				// fault either: the receipt waits in the queue.
				if rem, ok := r.Engine.(inference.Remote); ok {
					if aerr := rem.Available(ctx); aerr != nil {
						return 0, fmt.Errorf("page %d: %w", i+1, aerr)
					}
					return 0, fmt.Errorf("page %d: %w: no answer within %s", i+1, inference.ErrUnavailable, r.PageTimeout)
				}
				return 0, fmt.Errorf("page %d took longer than %s to read", i+1, r.PageTimeout)
			}
			return 0, fmt.Errorf("page %d: %w", i+1, err)
		}
		if i == 0 {
			merged = res.Receipt
		} else {
			inference.AddPage(&merged, res.Receipt)
		}
	}
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	src := receipt.SourceModel
	if r.Engine.Name() == "ocr" {
		src = receipt.SourceOCR
	}
	return max(1, f.Pages), r.Lib.SaveExtraction(context.Background(), id, merged, r.Engine.Name(), src, notes...)
}

func (r *Runner) update(fn func(*Progress)) {
	r.mu.Lock()
	fn(&r.prog)
	p := r.prog
	if el := time.Since(p.Started); p.Done+p.Failed > 0 && el > 0 {
		p.PerMinute = float64(p.Done+p.Failed) / el.Minutes()
		left := p.Total - p.Done - p.Failed
		p.ETA = time.Duration(float64(el) / float64(p.Done+p.Failed) * float64(max(0, left)))
		p.PagesPerMinute = float64(p.Pages) / el.Minutes()
	}
	r.prog = p
	cb := r.OnProgress
	r.mu.Unlock()
	if cb != nil {
		cb(p)
	}
}

// Snapshot returns the queue's progress as it stands now.
func (r *Runner) Snapshot() Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.prog
}
