package ui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/shoebox-app/shoebox/library"
)

// Several files are added at once from a typed folder, other files are not
// listed, and the next Add files… opens in the same folder.
func TestAddSeveralFilesFromATypedFolder(t *testing.T) {
	u := newTestUI(t)
	dir := filepath.Dir(pngFiles(t, 3)[0])
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, "zz-invoice.xml"), []byte("<x/>"), 0o644) // an e-invoice imports: it is offered
	os.Mkdir(filepath.Join(dir, "older"), 0o755)
	c := u.newFileChooser()
	c.path.SetText("")
	test.Type(c.path, dir)
	c.path.OnSubmitted(c.path.Text)
	if len(c.entries) != 5 || !c.entries[0].IsDir() || c.entries[4].Name() != "zz-invoice.xml" {
		t.Fatalf("listed %d entries: %v", len(c.entries), c.entries)
	}
	c.list.Select(1)
	c.list.Select(3)
	if c.info.Text != "2 files chosen" {
		t.Errorf("info %q", c.info.Text)
	}
	test.Tap(c.addChosen)
	deadline := time.Now().Add(5 * time.Second)
	for {
		rows, _ := u.svc.Lib.List(library.Filter{})
		if len(rows) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d receipts added, want 2", len(rows))
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // the list refreshes after the import
	if next := u.newFileChooser(); next.dir != dir {
		t.Errorf("the next chooser opens in %q, not %q", next.dir, dir)
	}
}
