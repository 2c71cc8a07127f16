package library

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A copy a killed import was writing (a partial original of a client's
// receipt) is removed by the next Open at once, not ten minutes later; a
// copy of an import that still runs stays. The soak run (scripts/soak.sh)
// found one left in originals/ after a kill -9.
func TestAKilledImportsCopyIsRemovedByTheNextOpen(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	dead := exec.Command("sleep", "60")
	if err := dead.Start(); err != nil {
		t.Skip("no sleep to stand for an import:", err)
	}
	dead.Process.Kill()
	dead.Wait()
	alive := exec.Command("sleep", "60")
	if err := alive.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { alive.Process.Kill(); alive.Wait() }()
	name := func(what string, pid int, suffix string) string {
		return fmt.Sprintf("%s%s-sb%d.%s-12345%s", stagingPrefix, what, pid, hostTag(), suffix)
	}
	gone := []string{
		filepath.Join(dir, "originals", name("import", dead.Process.Pid, "")),
		filepath.Join(dir, "thumbs", name("abcd", dead.Process.Pid, ".jpg")),
	}
	kept := []string{
		filepath.Join(dir, "originals", name("import", alive.Process.Pid, "")),
		filepath.Join(dir, "originals", fmt.Sprintf("%simport-sb%d.%s-1", stagingPrefix, dead.Process.Pid, "00000000")), // another computer's
	}
	for _, p := range append(gone, kept...) {
		if err := os.WriteFile(p, []byte("part of a receipt"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	l, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, p := range gone {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("a killed import's copy is still there: %s", filepath.Base(p))
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("a copy a live import (or another computer's) is writing was removed: %s", filepath.Base(p))
		}
	}
	// The names the import writes are the names Open knows.
	f, err := os.CreateTemp(filepath.Join(dir, "originals"), stagingName("import"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if reStaging.FindStringSubmatch(filepath.Base(f.Name())) == nil {
		t.Errorf("%s is not a name Open recognises", filepath.Base(f.Name()))
	}
	if g, err := os.CreateTemp(filepath.Join(dir, "thumbs"), stagingName("abcd")+".jpg"); err == nil {
		g.Close()
		if reStaging.FindStringSubmatch(filepath.Base(g.Name())) == nil {
			t.Errorf("%s is not a name Open recognises", filepath.Base(g.Name()))
		}
	}
}
