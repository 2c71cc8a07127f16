package fsutil

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestTidyFolderRemovesOnlyOurLeftovers is issue 38 item 9: 16 kills of
// an export left 10 .tmp-out.csv-*/.tmp-out.xlsx-* files that nothing ever
// removed. The next export into the folder removes what a killed export
// of ours left, and nothing else: not a file another running export is
// writing, not one from another computer sharing the folder, not a file
// that only looks like ours.
func TestTidyFolderRemovesOnlyOurLeftovers(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true(1)")
	}
	deadPID, me := dead.ProcessState.Pid(), os.Getpid()
	dir := t.TempDir()
	old := time.Now().Add(-2 * time.Hour)
	files := map[string]struct {
		aged bool
		keep bool
	}{
		fmt.Sprintf(".tmp-out.xlsx-sb%d.%s-123", deadPID, hostTag()):     {false, false}, // killed export
		fmt.Sprintf(".tmp-out.csv-sb%d.%s-456", me, hostTag()):           {false, true},  // a running one (this process)
		fmt.Sprintf(".tmp-out.csv-sb%d.%s-789", os.Getppid(), hostTag()): {false, true},  // a running one (another process)
		fmt.Sprintf(".tmp-out.csv-sb%d.0badc0de-111", deadPID):           {false, true},  // another computer's, young
		fmt.Sprintf(".tmp-out.csv-sb%d.0badc0de-222", deadPID):           {true, false},  // another computer's, stale
		fmt.Sprintf(".tmp-out.csv-sb%d.%s-333", os.Getppid(), hostTag()): {true, false},  // pid reused, stale
		".tmp-out.csv-3697155244":                                        {true, false},  // an older version's, stale
		".tmp-out.xlsx-12345":                                            {false, true},  // an older version's, young
		".old-out.csv-.tmp-out.csv-651203741":                            {true, false},  // an older pair writer's
		".tmp-notes":                                                     {true, true},   // not ours
		"out.csv":                                                        {true, true},
		fmt.Sprintf(".tmp-not-ours.txt-sb%d.%s-9x", deadPID, hostTag()):  {true, true},
	}
	for name, f := range files {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("x"), 0o600)
		if f.aged {
			os.Chtimes(p, old, old)
		}
	}
	TidyFolder(dir)
	for name, f := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if f.keep && err != nil {
			t.Errorf("%s was removed", name)
		}
		if !f.keep && err == nil {
			t.Errorf("%s was left", name)
		}
	}
}

// A killed export nobody has reaped yet (a zombie: some containers' init
// reaps late) is gone: its manifest must be completed now, not later.
func TestProcessAliveSeesAZombieAsGone(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skip("no true(1)")
	}
	defer cmd.Wait()
	for i := 0; i < 100 && ProcessAlive(cmd.Process.Pid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if ProcessAlive(cmd.Process.Pid) {
		t.Error("a zombie counts as a running process")
	}
	if !ProcessAlive(os.Getpid()) {
		t.Error("this process counts as gone")
	}
}
