package ui

import (
	"sync"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/library"
)

// queuedUpdates holds the widget updates that goroutines handed to onMain
// while the tests run; the test goroutine runs them in settle, so no widget
// is touched by two goroutines at once.
var queuedUpdates struct {
	sync.Mutex
	fns []func()
}

func queueOnMain(f func()) {
	queuedUpdates.Lock()
	queuedUpdates.fns = append(queuedUpdates.fns, f)
	queuedUpdates.Unlock()
}

// runQueued runs the updates queued so far, and any they queue, and says
// how many ran.
func runQueued() int {
	n := 0
	for {
		queuedUpdates.Lock()
		fns := queuedUpdates.fns
		queuedUpdates.fns = nil
		queuedUpdates.Unlock()
		if len(fns) == 0 {
			return n
		}
		for _, f := range fns {
			f()
		}
		n += len(fns)
	}
}

// settle runs queued widget updates until no page is loading and nothing
// is queued: what the window would show once its event loop caught up.
func settle(u *UI) {
	for {
		u.viewer.loads.Wait()
		if runQueued() == 0 {
			return
		}
	}
}

// waitBatch waits for the batch to stop and shows its last updates.
func waitBatch(t *testing.T, u *UI, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !u.Wait(20 * time.Millisecond) {
		runQueued() // progress updates, as the event loop would
		if time.Now().After(deadline) {
			t.Fatal("the batch did not finish")
		}
	}
	settle(u)
}

// addPaths imports as the drop handler does and shows the result.
func addPaths(u *UI, paths []string) []library.ImportResult {
	res := u.AddPaths(paths)
	settle(u)
	return res
}

// waitFor runs queued widget updates, as the event loop would, until cond
// holds; it fails the test after timeout.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		runQueued()
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
