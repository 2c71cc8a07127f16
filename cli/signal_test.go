package cli

import (
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/library"
)

// TestProcessStoppedBySIGTERMExitsNonZero is issue 38 item 13: `process`
// stopped by SIGTERM exited 0, so a script took the run for a finished
// one. It exits 143 (128 + SIGTERM), after putting what it was reading
// back in the queue.
func TestProcessStoppedBySIGTERMExitsNonZero(t *testing.T) {
	matches, _ := filepath.Glob("../../shared/data/sroie-dev/*.jpg")
	if len(matches) < 6 {
		t.Skip("no SROIE data")
	}
	lib := t.TempDir()
	if code, out, errOut := run(t, append([]string{"import", "--library", lib}, matches[:12]...)...); code != 0 {
		t.Fatalf("import: %d %s %s", code, out, errOut)
	}
	// The test's own handler keeps a SIGTERM that comes after the command
	// stopped listening from ending the test binary.
	guard := make(chan os.Signal, 1)
	signal.Notify(guard, syscall.SIGTERM)
	defer signal.Stop(guard)

	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := run(t, "process", "--library", lib, "--engine", "ocr")
		done <- result{code, out, errOut}
	}()
	// Wait until a receipt is being read, then send SIGTERM.
	l, err := library.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		c, _ := l.Counts()
		if c[library.StatusExtracting] > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no receipt was ever being read")
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	var r result
	select {
	case r = <-done:
	case <-time.After(3 * time.Minute):
		t.Fatal("process did not stop after SIGTERM")
	}
	if r.code != 143 {
		t.Errorf("process stopped by SIGTERM exited %d, want 143\n%s\n%s", r.code, r.out, r.err)
	}
	if !strings.Contains(r.out, "interrupted") {
		t.Errorf("process did not say it was interrupted: %s", r.out)
	}
	c, _ := l.Counts()
	if c[library.StatusExtracting] != 0 || c[library.StatusQueued] == 0 {
		t.Errorf("after SIGTERM: %v, want none being read and the rest queued", c)
	}
}
