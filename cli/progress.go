package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progress draws "[#####.....] 12/80  41/min  ETA 0:58" on one terminal line.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	n     int
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, total: total, start: time.Now()}
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	if time.Since(p.last) < 200*time.Millisecond && p.n < p.total {
		return
	}
	p.last = time.Now()
	p.draw()
}

func (p *progress) draw() {
	const width = 30
	filled := width * p.n / max(1, p.total)
	el := time.Since(p.start)
	rate := float64(p.n) / el.Minutes()
	eta := "--:--"
	if p.n > 0 {
		left := time.Duration(float64(el) / float64(p.n) * float64(p.total-p.n))
		eta = fmt.Sprintf("%d:%02d", int(left.Minutes()), int(left.Seconds())%60)
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d  %.0f/min  ETA %s ", strings.Repeat("#", filled), strings.Repeat(".", width-filled), p.n, p.total, rate, eta)
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw()
	fmt.Fprintln(p.w)
}
