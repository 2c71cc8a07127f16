package library

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// modes lists the permission bits of everything in a library folder.
func modes(t *testing.T, dir string) map[string]fs.FileMode {
	t.Helper()
	out := map[string]fs.FileMode{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		info, err := d.Info()
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = info.Mode().Perm()
		return nil
	})
	return out
}

// The database holds every client's suppliers, totals, tax IDs and IBANs:
// it, its WAL files and the library's folders are the user's alone, like
// the originals (issue 38 item 5 found library.db, -wal and -shm 0644 in
// 0755 folders).
func TestLibraryIsPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	importOne(t, l, 1)
	check := func(when string, want int) {
		t.Helper()
		m := modes(t, dir)
		seen := 0
		for rel, mode := range m {
			if mode&0o077 != 0 {
				t.Errorf("%s: %s is %o", when, rel, mode)
			}
			if strings.HasPrefix(rel, "library.db") {
				seen++
			}
		}
		if seen != want {
			t.Errorf("%s: %d database files, want %d: %v", when, seen, want, m)
		}
	}
	check("open", 3) // library.db, -wal, -shm
	l.Close()

	// A library made before this fix (folders 0755, database files 0644;
	// originals and thumbnails were 0600 already) is put right when it is
	// opened.
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() {
			os.Chmod(p, 0o755)
		} else if strings.HasPrefix(d.Name(), "library.db") {
			os.Chmod(p, 0o644)
		}
		return nil
	})
	l, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.List(Filter{}); err != nil {
		t.Fatal(err)
	}
	importOne(t, l, 2)
	check("reopened", 3)
}

// TestReadOnlyOpenLeavesLibraryWritable is issue 38 item 4: with library.db
// 0444, listing the library left a 0444 library.db-shm behind (SQLite makes
// it with the database's mode), and after the user made the database
// writable again every write failed with "attempt to write a readonly
// database" until -shm was deleted by hand. As root every file is writable,
// so the check runs as nobody.
func TestReadOnlyOpenLeavesLibraryWritable(t *testing.T) {
	if dir := os.Getenv("SHOEBOX_RO_SHM_LIBRARY"); dir != "" {
		l, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		importOne(t, l, 1)
		l.Close()
		db := filepath.Join(dir, "library.db")
		if err := os.Chmod(db, 0o444); err != nil {
			t.Fatal(err)
		}
		l, err = Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if rows, err := l.List(Filter{}); err != nil || len(rows) != 1 {
			t.Fatalf("read-only list: %d rows, %v", len(rows), err)
		}
		l.Close()
		for _, f := range []string{"-shm", "-wal"} {
			if st, err := os.Stat(db + f); err == nil && st.Mode().Perm()&0o200 == 0 {
				t.Errorf("a read-only open left library.db%s %o", f, st.Mode().Perm())
			}
		}
		if err := os.Chmod(db, 0o644); err != nil {
			t.Fatal(err)
		}
		l, err = Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := l.List(Filter{})
		if err != nil || len(rows) != 1 {
			t.Fatalf("list: %d rows, %v", len(rows), err)
		}
		if err := l.EditField(ctx, rows[0].ID, "notes", "x"); err != nil {
			t.Fatalf("the library stayed unwritable: %v", err)
		}
		l.Close()

		// A library an older Shoebox left so (a 0444 -shm and -wal beside
		// a database the user made writable again) is mended on open.
		for _, f := range []string{"-shm", "-wal"} {
			os.Remove(db + f)
			if err := os.WriteFile(db+f, nil, 0o444); err != nil {
				t.Fatal(err)
			}
		}
		l, err = Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if err := l.EditField(ctx, rows[0].ID, "notes", "y"); err != nil {
			t.Fatalf("a stale read-only -shm kept the library unwritable: %v", err)
		}
		return
	}
	base, err := os.MkdirTemp("", "shoebox-roshm-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("running as root without setpriv: cannot test a read-only library")
		}
		if err := os.Chown(base, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cmd = exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", os.Args[0], "-test.run=^TestReadOnlyOpenLeavesLibraryWritable$", "-test.count=1")
	} else {
		cmd = exec.Command(os.Args[0], "-test.run=^TestReadOnlyOpenLeavesLibraryWritable$", "-test.count=1")
	}
	cmd.Env = append(os.Environ(), "SHOEBOX_RO_SHM_LIBRARY="+filepath.Join(base, "lib"), "HOME=/tmp", "TMPDIR="+base)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
