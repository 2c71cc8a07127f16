package library

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/shoebox-app/shoebox/internal/fsutil"
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
	// The names fsutil.CreateTemp gives, as another process would.
	mine, err := fsutil.CreateTemp(filepath.Join(dir, "originals", "import"))
	if err != nil {
		t.Fatal(err)
	}
	mine.Close()
	os.Remove(mine.Name())
	name := func(what string, pid int) string {
		m := regexp.MustCompile(`^\.tmp-import-sb\d+\.([0-9a-f]{8})-\d+$`).FindStringSubmatch(filepath.Base(mine.Name()))
		if m == nil {
			t.Fatalf("%s: not the temporary name this test knows", filepath.Base(mine.Name()))
		}
		return fmt.Sprintf(".tmp-%s-sb%d.%s-12345", what, pid, m[1])
	}
	gone := []string{
		filepath.Join(dir, "originals", name("import", dead.Process.Pid)),
		filepath.Join(dir, "thumbs", name("abcd.jpg", dead.Process.Pid)),
		filepath.Join(dir, name("settings.json", dead.Process.Pid)),
	}
	kept := []string{
		filepath.Join(dir, "originals", name("import", alive.Process.Pid)),
		filepath.Join(dir, "originals", fmt.Sprintf(".tmp-import-sb%d.%s-1", dead.Process.Pid, "00000000")), // another computer's
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
}
