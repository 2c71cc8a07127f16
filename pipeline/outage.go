package pipeline

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/shoebox-app/shoebox/inference"
)

// outages is a Runner's record of its engine being unavailable: one outage
// at a time, which every worker that meets it waits on, and the error the
// batch stopped with when it gave up.
type outages struct {
	mu      sync.Mutex
	current *outage
	gaveUp  error
}

type outage struct {
	done chan struct{}
	err  error // nil: the engine is back
}

func (o *outages) stopped() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.gaveUp
}

// Waits between checks of an unavailable engine: the first, then twice as
// long each time up to the longest. Variables for tests.
var (
	firstEngineCheck   = time.Second
	longestEngineCheck = 30 * time.Second
)

// waitForEngine waits until the engine is available again after cause
// (an inference.ErrUnavailable), checking it with Remote.Available (an
// engine without it is simply tried again), until ctx is cancelled or
// GiveUpAfter has passed; then the batch stops and the receipts stay
// queued. Workers meeting the same outage wait together.
func (r *Runner) waitForEngine(ctx context.Context, cause error) error {
	r.wait.mu.Lock()
	if r.wait.gaveUp != nil {
		r.wait.mu.Unlock()
		return r.wait.gaveUp
	}
	o := r.wait.current
	if o == nil {
		o = &outage{done: make(chan struct{})}
		r.wait.current = o
		go r.watch(ctx, o, cause)
	}
	r.wait.mu.Unlock()
	select {
	case <-o.done:
		return o.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// watch checks the engine until it is back, ctx ends or the wait is over.
func (r *Runner) watch(ctx context.Context, o *outage, cause error) {
	start := time.Now()
	r.update(func(p *Progress) { p.Waiting = cause.Error() })
	wait := firstEngineCheck
	for {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			o.err = ctx.Err()
		}
		if o.err != nil {
			break
		}
		rem, ok := r.Engine.(inference.Remote)
		if !ok {
			break
		}
		err := rem.Available(ctx)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			o.err = ctx.Err()
			break
		}
		cause = err
		r.update(func(p *Progress) { p.Waiting = cause.Error() })
		if r.GiveUpAfter > 0 && time.Since(start) >= r.GiveUpAfter {
			o.err = fmt.Errorf("waited %s for the engine, in vain; the batch stopped and the rest stay queued: %w",
				time.Since(start).Round(time.Second), cause)
			break
		}
		wait = min(2*wait, longestEngineCheck)
	}
	r.wait.mu.Lock()
	r.wait.current = nil
	if o.err != nil && ctx.Err() == nil {
		r.wait.gaveUp = o.err
	}
	r.wait.mu.Unlock()
	r.update(func(p *Progress) { p.Waiting = "" })
	close(o.done)
}
