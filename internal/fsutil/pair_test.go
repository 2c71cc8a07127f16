package fsutil

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The helper is this test binary started again: it writes a new pair and
// stops dead at the step named in SHOEBOX_TEST_PAIR_STOP, where the parent
// kills it with SIGKILL.
func TestPairWriterHelper(t *testing.T) {
	dir, step := os.Getenv("SHOEBOX_TEST_PAIR_DIR"), os.Getenv("SHOEBOX_TEST_PAIR_STOP")
	if dir == "" {
		t.Skip("run by TestKilledPairWriteLeavesBothOldOrBothNew")
	}
	testHook = func(s string) {
		if s == step {
			fmt.Println("STOPPED", s)
			time.Sleep(time.Hour)
		}
	}
	err := WriteExportPair(filepath.Join(dir, "out.csv"), filepath.Join(dir, "out.lines.csv"), func(a, b io.Writer) error {
		io.WriteString(a, "new receipts\n")
		io.WriteString(b, "new lines\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("STOPPED done")
}

// TestKilledPairWriteLeavesBothOldOrBothNew is issue 38 item 7: a kill
// between the two renames left out.csv new, out.lines.csv old and .old-/
// .tmp- files behind. After a kill at any step, and the clean-up the next
// export into the folder does, the pair is both old or both new and no
// file of ours is left.
func TestKilledPairWriteLeavesBothOldOrBothNew(t *testing.T) {
	for _, step := range []string{"filled", "committed", "renamed-first", "renamed-both", "none"} {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "out.csv"), filepath.Join(dir, "out.lines.csv")
			os.WriteFile(a, []byte("old receipts\n"), 0o644)
			os.WriteFile(b, []byte("old lines\n"), 0o644)
			stoppedAt := runUntilStopped(t, "^TestPairWriterHelper$", "SHOEBOX_TEST_PAIR_DIR="+dir, "SHOEBOX_TEST_PAIR_STOP="+step)
			if step != "none" && stoppedAt == "done" {
				t.Logf("the writer has no step %q: it ran to the end", step)
			}

			// The next export into the folder tidies it first.
			TidyFolder(dir)

			ga, _ := os.ReadFile(a)
			gb, _ := os.ReadFile(b)
			pair := string(ga) + string(gb)
			if pair != "old receipts\nold lines\n" && pair != "new receipts\nnew lines\n" {
				t.Errorf("killed at %s: the pair tore: %q + %q", step, ga, gb)
			}
			if step == "renamed-first" || step == "renamed-both" || step == "committed" {
				if pair != "new receipts\nnew lines\n" {
					t.Errorf("killed at %s, after the commit point: %q + %q, want the new pair", step, ga, gb)
				}
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if e.Name() != "out.csv" && e.Name() != "out.lines.csv" {
					t.Errorf("killed at %s: %s left behind", step, e.Name())
				}
			}
		})
	}
}
