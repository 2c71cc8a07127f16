package cli

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/library"
)

// A receipt a killed `process` left "extracting" is read by the next run.
func TestProcessTakesBackWhatAKilledRunLeft(t *testing.T) {
	src := "../../shared/data/sroie-dev/006.jpg"
	if _, err := os.Stat(src); err != nil {
		t.Skip("no SROIE data:", err)
	}
	lib := t.TempDir()
	if code, out, errOut := run(t, "import", "--library", lib, src); code != 0 {
		t.Fatalf("import: %d %s %s", code, out, errOut)
	}
	// What a run killed mid-receipt leaves behind: its claim, its process gone.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(lib, "library.db"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`UPDATE receipts SET status = 'extracting', claim_owner = ?, claim_until = ?`,
		fmt.Sprintf("%s|%d|1", host, dead.Process.Pid), time.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano))
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "process", "--library", lib, "--engine", "ocr")
	if code != 0 || !strings.Contains(out, "read 1 receipts") {
		t.Fatalf("process: exit %d\n%s\n%s", code, out, errOut)
	}
	l, err := library.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	counts, _ := l.Counts()
	if counts[library.StatusExtracting] != 0 || counts[library.StatusExtracted]+counts[library.StatusNeedsReview] != 1 {
		t.Errorf("counts: %v", counts)
	}
}

// SIGTERM stops a command the way Ctrl+C does (receipts go back to the
// queue) instead of killing it mid-receipt.
func TestSIGTERMCancelsLikeCtrlC(t *testing.T) {
	ctx, stop := interruptible()
	defer stop()
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not cancel the command")
	}
}

// File names with terminal escapes and newlines are printed escaped, one
// line per file, by import and list.
func TestNamesArePrintedEscaped(t *testing.T) {
	src := "../../shared/data/sroie-dev/006.jpg"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Skip("no SROIE data:", err)
	}
	dir := t.TempDir()
	name := "evil\x1b[2J\nadded      #99  fake.jpg"
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	lib := t.TempDir()
	code, out, _ := run(t, "import", "--library", lib, dir)
	if code != 0 || strings.Contains(out, "\x1b") || strings.Count(out, "\n") != 2 || !strings.Contains(out, `evil\x1b[2J\nadded`) {
		t.Errorf("import printed %q", out)
	}
	code, out, _ = run(t, "list", "--library", lib)
	if code != 0 || strings.Contains(out, "\x1b") || strings.Contains(out, "\nadded") {
		t.Errorf("list printed %q", out)
	}
}
