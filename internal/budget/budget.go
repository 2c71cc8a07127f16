// Package budget owns the one kind of memory budget Shoebox uses to keep
// large pages from being worked on side by side: decoding images (ingest,
// in bytes) and reading pages (inference/ocr, in pixels) each draw on one.
// A request waits, first come first served, until it fits; a request larger
// than the whole budget waits until nothing else holds any of it.
package budget

import (
	"context"

	"golang.org/x/sync/semaphore"
)

// Budget is an amount of some resource shared by the work in progress.
type Budget struct {
	size int64
	sem  *semaphore.Weighted
}

// New makes a budget of size units.
func New(size int64) *Budget {
	return &Budget{size: size, sem: semaphore.NewWeighted(size)}
}

// Size is the whole budget.
func (b *Budget) Size() int64 { return b.size }

// Reserve waits until n units are free and returns their release (to be
// called once). n is held to [0, Size]. The error is ctx's, when it ends
// first.
func (b *Budget) Reserve(ctx context.Context, n int64) (release func(), err error) {
	n = min(max(n, 0), b.size)
	if err := b.sem.Acquire(ctx, n); err != nil {
		return nil, err
	}
	return func() { b.sem.Release(n) }, nil
}

// Wait is Reserve for work that cannot be cancelled.
func (b *Budget) Wait(n int64) (release func()) {
	release, _ = b.Reserve(context.Background(), n)
	return release
}
