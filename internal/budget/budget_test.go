package budget

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// What is held at once never exceeds the budget, and a request larger than
// the whole budget runs alone instead of waiting for ever.
func TestHeldNeverExceedsTheBudget(t *testing.T) {
	b := New(100)
	var held, peak atomic.Int64
	var wg sync.WaitGroup
	for _, n := range []int64{60, 60, 30, 250, 10, 90, 45} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			release := b.Wait(n)
			counted := min(n, 100)
			now := held.Add(counted)
			for {
				p := peak.Load()
				if now <= p || peak.CompareAndSwap(p, now) {
					break
				}
			}
			time.Sleep(5 * time.Millisecond)
			held.Add(-counted)
			release()
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 100 || p == 0 {
		t.Errorf("peak held %d of a budget of 100", p)
	}
}

// A reservation waiting when its context ends gives up with the context's
// error and holds nothing.
func TestAWaitingReservationCanBeCancelled(t *testing.T) {
	b := New(10)
	release := b.Wait(10)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := b.Reserve(ctx, 5); err == nil {
		t.Fatal("a reservation that cannot fit did not give up when its context ended")
	}
	release()
	if r, err := b.Reserve(context.Background(), 10); err != nil {
		t.Fatal("after the release the whole budget is not free:", err)
	} else {
		r()
	}
}
