package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/ocr"
	"github.com/shoebox-app/shoebox/inference/server"
	"github.com/shoebox-app/shoebox/internal/envvars"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/pipeline"
	"github.com/shoebox-app/shoebox/receipt"
)

func init() {
	register("process", "read the library's new (and queued) receipts, as Extract all does in the app", runProcess)
}

func runProcess(env Env, args []string) int {
	fs, libDir := newFlags(env, "process", "")
	country := fs.String("country", "", "set the library's country rules first: AU, NZ, UK, EU, US, MY, other")
	again := fs.Bool("again", false, "read every receipt again, not only new and failed ones")
	engineName := fs.String("engine", "auto", "auto (the engine chosen in the app's settings: a server, a vision model, else OCR), ocr, or server (with --server and --server-model)")
	sf := addServerFlags(fs)
	inFlight := fs.Int("parallel", 0, "with --engine server: pages in flight (0: 4)")
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for a server that cannot be reached before stopping (the rest stay queued); 0 waits until interrupted")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	softMemoryLimit()
	if *country != "" {
		c, err := receipt.ParseCountry(*country)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 2
		}
		if err := l.SetLocale(receipt.DefaultLocale(c)); err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
	}
	// Receipts a killed or crashed run left being read go back in the queue.
	if n, err := l.ResumeInterrupted(context.Background()); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	} else if n > 0 {
		fmt.Fprintf(env.Stderr, "%d receipts left unfinished by an earlier run are queued again\n", n)
	}
	f := library.Filter{Statuses: []library.Status{library.StatusNew, library.StatusFailed}}
	if *again {
		f = library.Filter{}
	}
	rows, err := l.List(f)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	ctx, stop, signalCode := signalled()
	defer stop()
	if _, err := l.Enqueue(ctx, ids, *again); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	var eng inference.Engine
	workers := runtime.NumCPU()
	switch *engineName {
	case "ocr":
		o, label, err := pipeline.OpenReader("", ocr.DefaultOptions(l.Locale()), func(s string) { fmt.Fprintln(env.Stderr, "shoebox:", s) })
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		eng = o
		fmt.Fprintln(env.Stderr, "reading with", label)
	case "server":
		e, code := startServerEngine(env, sf, l.Locale(), *inFlight, true)
		if e == nil {
			return code
		}
		eng = e
		if s, ok := e.(interface{ InFlight() int }); ok {
			workers = s.InFlight()
		}
	case "auto":
		e, label, n, err := pipeline.ChooseEngine(l, hw.DiscoverHere(), func(s string) { fmt.Fprintln(env.Stderr, "shoebox:", s) })
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		eng, workers = e, n
		fmt.Fprintln(env.Stderr, "reading with", label)
	default:
		fmt.Fprintf(env.Stderr, "shoebox: unknown engine %q: use auto, ocr or server\n", *engineName)
		return 2
	}
	defer eng.Close()
	counts, _ := l.Counts()
	bar := newProgress(env.Stderr, counts[library.StatusQueued])
	var mu sync.Mutex
	waiting, finished := "", 0
	r := &pipeline.Runner{Lib: l, Engine: eng, Workers: workers, PageTimeout: 5 * time.Minute, GiveUpAfter: *wait, OnProgress: func(p pipeline.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Waiting != "" && p.Waiting != waiting {
			fmt.Fprintf(env.Stderr, "\nshoebox: waiting for the server (the receipts stay queued): %s\n", p.Waiting)
		}
		waiting = p.Waiting
		for ; finished < p.Done+p.Failed; finished++ {
			bar.done()
		}
	}}
	err = r.Run(ctx)
	bar.finish()
	if code := signalCode(); code != 0 {
		// Stopped by Ctrl+C or SIGTERM: the runner has put the receipts
		// being read back in the queue; a script must not take the run
		// for a finished one (issue 38 item 13: SIGTERM exited 0).
		p := r.Snapshot()
		c, _ := l.Counts()
		fmt.Fprintf(env.Stdout, "interrupted: read %d receipts, %d failed; %d stay queued for next time\n", p.Done, p.Failed, c[library.StatusQueued])
		return code
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		if errors.Is(err, inference.ErrUnavailable) {
			c, _ := l.Counts()
			fmt.Fprintf(env.Stdout, "stopped: %s; %d receipts stay queued for the next run\n", whyStopped(err), c[library.StatusQueued])
		}
		return 1
	}
	p := r.Snapshot()
	fmt.Fprintf(env.Stdout, "read %d receipts, %d failed", p.Done, p.Failed)
	if _, remote := eng.(inference.Remote); remote && p.PagesPerMinute > 0 {
		fmt.Fprintf(env.Stdout, ", %d pages at %.1f pages/minute", p.Pages, p.PagesPerMinute)
	}
	if p.LastError != "" {
		fmt.Fprintf(env.Stdout, " (last: %s)", p.LastError)
	}
	fmt.Fprintln(env.Stdout)
	return 0
}

// whyStopped says in a few words why a batch stopped on a server error: a
// server that refused the key (or redirected the pages) was reached, and
// waiting does not mend it, so "could not be reached" would send the user
// looking at the network instead of the key.
func whyStopped(err error) string {
	if errors.Is(err, server.ErrRefused) {
		return "the server refused this client (its key, or a redirect: see above)"
	}
	return "the server could not be reached"
}

// signalled is interruptible that also tells which signal stopped the
// command: its exit code is the shell's for a command a signal ended,
// 128 + the signal's number (130 for Ctrl+C, 143 for SIGTERM), 0 while
// none has come.
func signalled() (context.Context, context.CancelFunc, func() int) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var code atomic.Int32
	go func() {
		select {
		case s := <-ch:
			n := 2 // os.Interrupt is SIGINT
			if sig, ok := s.(syscall.Signal); ok {
				n = int(sig)
			}
			code.Store(int32(128 + n))
			cancel()
		case <-ctx.Done():
		}
	}()
	stop := func() {
		signal.Stop(ch)
		cancel()
	}
	return ctx, stop, func() int { return int(code.Load()) }
}

// softMemoryLimit makes the garbage collector hand back a large page's
// memory promptly (a 16-bit 80-megapixel PNG decodes to 630 MB) rather than
// let the heap double before collecting, unless GOMEMLIMIT says otherwise.
// Tesseract's own memory is outside it.
func softMemoryLimit() {
	if envvars.GoMemLimit.Get() == "" {
		debug.SetMemoryLimit(400 << 20)
	}
}
