package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/library"
)

// remoteEngine is fakeEngine behind a server that is down while down is set.
type remoteEngine struct {
	fakeEngine
	down   atomic.Bool
	probes atomic.Int32
}

func (r *remoteEngine) Where() string { return "m at fake" }
func (r *remoteEngine) Available(ctx context.Context) error {
	r.probes.Add(1)
	if r.down.Load() {
		return fmt.Errorf("%w: connection refused", inference.ErrUnavailable)
	}
	return nil
}

func (r *remoteEngine) Extract(ctx context.Context, p inference.Page) (inference.Result, error) {
	if r.down.Load() {
		return inference.Result{}, fmt.Errorf("%w: connection refused", inference.ErrUnavailable)
	}
	return r.fakeEngine.Extract(ctx, p)
}

func fastChecks(t *testing.T) {
	a, b := firstEngineCheck, longestEngineCheck
	firstEngineCheck, longestEngineCheck = 5*time.Millisecond, 20*time.Millisecond
	t.Cleanup(func() { firstEngineCheck, longestEngineCheck = a, b })
}

func TestAServerGoneMidBatchLeavesReceiptsQueuedAndTheBatchResumes(t *testing.T) {
	fastChecks(t)
	l, _ := setup(t, 6)
	eng := &remoteEngine{}
	var sawQueued, sawFailed atomic.Int32
	r := &Runner{Lib: l, Engine: eng, Workers: 2}
	r.OnProgress = func(p Progress) {
		if p.Done == 2 && !eng.down.Load() && eng.probes.Load() == 0 {
			eng.down.Store(true)
		}
		if p.Waiting != "" {
			c, _ := l.Counts()
			sawQueued.Store(int32(c[library.StatusQueued]))
			sawFailed.Store(int32(c[library.StatusFailed]))
		}
	}
	go func() { // the server comes back after a few checks
		for eng.probes.Load() < 4 {
			time.Sleep(time.Millisecond)
		}
		eng.down.Store(false)
	}()
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	c, _ := l.Counts()
	if c[library.StatusFailed] != 0 || c[library.StatusQueued] != 0 || c[library.StatusExtracted]+c[library.StatusNeedsReview] != 6 {
		t.Errorf("counts after the batch: %v", c)
	}
	if sawQueued.Load() == 0 || sawFailed.Load() != 0 {
		t.Errorf("while the server was away: %d queued, %d failed", sawQueued.Load(), sawFailed.Load())
	}
	if p := r.Snapshot(); p.Waiting != "" || p.Pages != 6 || p.PagesPerMinute <= 0 {
		t.Errorf("progress %+v", p)
	}
}

func TestTheBatchGivesUpOnAServerThatStaysAwayLeavingReceiptsQueued(t *testing.T) {
	fastChecks(t)
	l, _ := setup(t, 4)
	eng := &remoteEngine{}
	eng.down.Store(true)
	r := &Runner{Lib: l, Engine: eng, Workers: 2, GiveUpAfter: 50 * time.Millisecond}
	err := r.Run(context.Background())
	if !errors.Is(err, inference.ErrUnavailable) {
		t.Fatalf("Run: %v", err)
	}
	c, _ := l.Counts()
	if c[library.StatusQueued] != 4 || c[library.StatusFailed] != 0 {
		t.Errorf("counts %v", c)
	}
	eng.down.Store(false)
	r = &Runner{Lib: l, Engine: eng, Workers: 2}
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c, _ := l.Counts(); c[library.StatusQueued] != 0 || c[library.StatusFailed] != 0 {
		t.Errorf("counts after the second run %v", c)
	}
}

// alwaysUnavailable says every page cannot be read now, yet Available.
type alwaysUnavailable struct{ remoteEngine }

func (a *alwaysUnavailable) Extract(ctx context.Context, p inference.Page) (inference.Result, error) {
	return inference.Result{}, fmt.Errorf("%w: HTTP 502 from a proxy", inference.ErrUnavailable)
}

func TestAReceiptThatOnlyEverMeetsUnavailableFailsAlone(t *testing.T) {
	fastChecks(t)
	l, _ := setup(t, 1)
	r := &Runner{Lib: l, Engine: &alwaysUnavailable{}, Workers: 1}
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c, _ := l.Counts(); c[library.StatusFailed] != 1 {
		t.Errorf("counts %v", c)
	}
}
