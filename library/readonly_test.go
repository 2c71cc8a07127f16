package library

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A library this user cannot write (read-only media, another user's folder)
// still lists. Root writes anywhere, so as root the check runs as nobody.
func TestReadOnlyLibraryLists(t *testing.T) {
	if dir := os.Getenv("SHOEBOX_RO_LIBRARY"); dir != "" {
		l, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		rows, err := l.List(Filter{})
		if err != nil || len(rows) != 1 {
			t.Fatalf("list: %d rows, %v", len(rows), err)
		}
		if err := l.EditField(ctx, rows[0].ID, "notes", "x"); err == nil {
			t.Error("an edit to a read-only library was accepted")
		}
		return
	}
	base, err := os.MkdirTemp("", "shoebox-ro-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	dir := filepath.Join(base, "lib")
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	importOne(t, l, 1)
	l.Close()
	filepath.Walk(base, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			mode := os.FileMode(0o444)
			if info.IsDir() {
				mode = 0o555
			}
			os.Chmod(p, mode)
		}
		return nil
	})
	defer filepath.Walk(base, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("running as root without setpriv: cannot test a read-only library")
		}
		cmd = exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", os.Args[0], "-test.run=^TestReadOnlyLibraryLists$")
	} else {
		cmd = exec.Command(os.Args[0], "-test.run=^TestReadOnlyLibraryLists$")
	}
	cmd.Env = append(os.Environ(), "SHOEBOX_RO_LIBRARY="+dir, "HOME=/tmp")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
