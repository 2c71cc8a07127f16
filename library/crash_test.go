package library

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/receipt"
)

// The crash test runs this test binary again as a child that imports and
// edits receipts in a loop, printing each commit as it returns, and kills it
// with SIGKILL mid-stream.
func TestMain(m *testing.M) {
	if dir := os.Getenv("SHOEBOX_CRASH_CHILD"); dir != "" {
		crashChild(dir)
		return
	}
	if dir := os.Getenv("SHOEBOX_SOAK_CHILD"); dir != "" {
		soakChild(dir)
		return
	}
	os.Exit(m.Run())
}

func crashChild(dir string) {
	l, err := Open(dir)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	src, _ := os.MkdirTemp(filepath.Dir(dir), "crash-src-") // beside the library, in the test's own temporary folder: the killed child cannot clean up
	out := bufio.NewWriter(os.Stdout)
	start, _ := strconv.Atoi(os.Getenv("SHOEBOX_CRASH_START"))
	for i := start; ; i++ {
		res := l.ImportFile(ctx, uniquePNG(&testing.T{}, src, i), ingest.DefaultLimits())
		if res.Outcome == Duplicate && i == start {
			continue // the file the last round was killed after storing
		}
		if res.Outcome != Added {
			fmt.Fprintln(out, "error", res.Reason)
			out.Flush()
			os.Exit(1)
		}
		fmt.Fprintf(out, "import %d\n", res.ID)
		out.Flush()
		value := fmt.Sprintf("note %d", i)
		if err := l.EditField(ctx, res.ID, "notes", value); err != nil {
			fmt.Fprintln(out, "error", err)
			out.Flush()
			os.Exit(1)
		}
		fmt.Fprintf(out, "edit %d %s\n", res.ID, value)
		out.Flush()
	}
}

func TestCrashMidImportLosesNothingCommitted(t *testing.T) {
	dir := t.TempDir()
	for round := 0; round < 3; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SHOEBOX_CRASH_CHILD="+dir, fmt.Sprintf("SHOEBOX_CRASH_START=%d", round*100000))
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		imported := map[int64]bool{}
		edits := map[int64]string{}
		sc := bufio.NewScanner(stdout)
		deadline := time.Now().Add(time.Duration(300+200*round) * time.Millisecond)
		for sc.Scan() {
			f := strings.SplitN(sc.Text(), " ", 3)
			switch f[0] {
			case "import":
				id, _ := strconv.ParseInt(f[1], 10, 64)
				imported[id] = true
			case "edit":
				id, _ := strconv.ParseInt(f[1], 10, 64)
				edits[id] = f[2]
			case "error":
				t.Fatalf("child: %s", sc.Text())
			}
			if time.Now().After(deadline) {
				cmd.Process.Signal(syscall.SIGKILL)
				break
			}
		}
		cmd.Wait()
		if len(imported) == 0 {
			t.Fatal("the child committed nothing before it was killed")
		}

		l, err := Open(dir)
		if err != nil {
			t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
		}
		if err := l.IntegrityCheck(); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for id := range imported {
			rec, err := l.Get(id)
			if err != nil {
				t.Fatalf("round %d: committed receipt %d lost: %v", round, id, err)
			}
			if _, err := os.Stat(l.OriginalPath(rec)); err != nil {
				t.Errorf("round %d: original of receipt %d lost: %v", round, id, err)
			}
		}
		for id, v := range edits {
			rec, _ := l.Get(id)
			if rec.Receipt.Notes.Value != v || rec.Receipt.Notes.Source != receipt.SourceUser {
				t.Errorf("round %d: edit to %d lost: %q", round, id, rec.Receipt.Notes.Value)
			}
		}
		t.Logf("round %d: %d imports and %d edits survived SIGKILL", round, len(imported), len(edits))
		l.Close()
	}
}
