package ingest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestKilledRenderLeavesNoPageBehind is issue 38 item 9: a kill during a
// PDF's rendering left $TMPDIR/shoebox-pdf-*/page.png, an image of a
// client's page, for good. The next rendering removes the folders of
// processes that are gone, and old ones, and nothing else.
func TestKilledRenderLeavesNoPageBehind(t *testing.T) {
	if _, err := os.Stat("/usr/bin/pdftoppm"); err != nil {
		t.Skip("poppler-utils not installed")
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true(1)")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	old := time.Now().Add(-2 * time.Hour)
	dirs := map[string]struct{ aged, keep bool }{
		fmt.Sprintf("shoebox-pdf-%d-123", dead.ProcessState.Pid()):  {false, false}, // killed
		fmt.Sprintf("shoebox-heic-%d-124", dead.ProcessState.Pid()): {false, false},
		fmt.Sprintf("shoebox-pdf-%d-456", os.Getppid()):             {false, true}, // running
		fmt.Sprintf("shoebox-pdf-%d-457", os.Getppid()):             {true, false}, // its pid reused
		"shoebox-pdf-3697155244":                                    {true, false}, // an older version's
		"shoebox-pdf-3697155245":                                    {false, true}, // an older version's, maybe running
		"shoebox-pdfs-1":                                            {true, true},  // not ours
		"other":                                                     {true, true},
	}
	for name, d := range dirs {
		p := filepath.Join(tmp, name)
		os.Mkdir(p, 0o700)
		os.WriteFile(filepath.Join(p, "page.png"), []byte("x"), 0o600)
		if d.aged {
			os.Chtimes(p, old, old)
		}
	}
	p := minimalPDF(t, [2]int{595, 842})
	f, err := Probe(context.Background(), p, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPage(context.Background(), f, 0, DefaultLimits()); err != nil {
		t.Fatal(err)
	}
	for name, d := range dirs {
		_, err := os.Stat(filepath.Join(tmp, name))
		if d.keep && err != nil {
			t.Errorf("%s was removed", name)
		}
		if !d.keep && err == nil {
			t.Errorf("%s was left", name)
		}
	}
	ents, _ := os.ReadDir(tmp)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), fmt.Sprintf("shoebox-pdf-%d-", os.Getpid())) {
			t.Errorf("the rendering left %s", e.Name())
		}
	}
}
