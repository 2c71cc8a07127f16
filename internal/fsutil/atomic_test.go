package fsutil

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The helper is this test binary started again: it replaces target with
// 8 MB of 'n' through WriteAtomic and stops dead at the step named in
// SHOEBOX_TEST_ATOMIC_STOP ("midway" is halfway through the writing),
// where the parent kills it with SIGKILL.
func TestAtomicWriterHelper(t *testing.T) {
	dst, step := os.Getenv("SHOEBOX_TEST_ATOMIC_DST"), os.Getenv("SHOEBOX_TEST_ATOMIC_STOP")
	if dst == "" {
		t.Skip("run by TestAWriteKilledMidwayLeavesTheOldFileWhole")
	}
	stop := func(s string) {
		if s == step {
			fmt.Println("STOPPED", s)
			time.Sleep(time.Hour)
		}
	}
	testHook = stop
	chunk := bytes.Repeat([]byte("n"), 1<<20)
	err := WriteAtomic(dst, func(w io.Writer) error {
		for i := range 8 {
			if i == 4 {
				stop("midway")
			}
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("STOPPED done")
}

// A writer killed at any point leaves the old file whole or the new one
// whole, never a mixture or a short file; its temporary file is removed by
// the next write of the same file.
func TestAWriteKilledMidwayLeavesTheOldFileWhole(t *testing.T) {
	oldData := bytes.Repeat([]byte("o"), 3<<20)
	newData := bytes.Repeat([]byte("n"), 8<<20)
	for _, step := range []string{"midway", "filled", "flushed", "none"} {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			dst := filepath.Join(dir, "settings.json")
			if err := os.WriteFile(dst, oldData, 0o600); err != nil {
				t.Fatal(err)
			}
			stoppedAt := runUntilStopped(t, "^TestAtomicWriterHelper$", "SHOEBOX_TEST_ATOMIC_DST="+dst, "SHOEBOX_TEST_ATOMIC_STOP="+step)
			if step != "none" && stoppedAt != step {
				t.Fatalf("the writer did not stop at %q (%q)", step, stoppedAt)
			}
			got, err := os.ReadFile(dst)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case step == "none" && !bytes.Equal(got, newData):
				t.Errorf("a finished write left %d bytes, want the new 8 MB", len(got))
			case step != "none" && !bytes.Equal(got, oldData):
				t.Errorf("killed at %s: the file holds %d bytes (%q…), want the old file whole", step, len(got), got[:min(len(got), 8)])
			}
			if step != "none" && len(temporaries(t, dir)) != 1 {
				t.Errorf("killed at %s: want the killed writer's temporary file, found %v", step, temporaries(t, dir))
			}
			// The next write of the file removes what the killed one left.
			if err := WriteBytes(dst, []byte("{}")); err != nil {
				t.Fatal(err)
			}
			if left := temporaries(t, dir); len(left) != 0 {
				t.Errorf("after the next write, leftovers remain: %v", left)
			}
		})
	}
}

// runUntilStopped runs one test of this binary with env and kills it with
// SIGKILL once it prints STOPPED; it returns the step it stopped at.
func runUntilStopped(t *testing.T, run string, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run="+run, "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var seen strings.Builder
	buf := make([]byte, 256)
	for !strings.Contains(seen.String(), "STOPPED") {
		n, err := out.Read(buf)
		seen.Write(buf[:n])
		if err != nil {
			break
		}
	}
	// Let the line finish arriving before the kill.
	for !strings.Contains(seen.String()[strings.Index(seen.String(), "STOPPED"):], "\n") {
		n, err := out.Read(buf)
		seen.Write(buf[:n])
		if err != nil {
			break
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	line := seen.String()[strings.Index(seen.String(), "STOPPED"):]
	return strings.TrimSpace(strings.TrimPrefix(strings.SplitN(line, "\n", 2)[0], "STOPPED"))
}

func temporaries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var tmp []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			tmp = append(tmp, e.Name())
		}
	}
	return tmp
}

// A fill that fails leaves the old file as it was and no temporary file.
func TestAFailedFillLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "clients.json")
	os.WriteFile(dst, []byte("old"), 0o600)
	boom := errors.New("encoder broke")
	err := WriteAtomic(dst, func(w io.Writer) error {
		io.WriteString(w, "half of the new")
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "clients.json") {
		t.Fatalf("error %v: want the fill's error, naming the file", err)
	}
	if got, _ := os.ReadFile(dst); string(got) != "old" {
		t.Errorf("the file holds %q, want %q", got, "old")
	}
	if left := temporaries(t, dir); len(left) != 0 {
		t.Errorf("leftovers: %v", left)
	}
}

// The library's own files are private; an export gets the user's usual
// mode; a replaced file keeps the mode it had.
func TestModes(t *testing.T) {
	dir := t.TempDir()
	mode := func(p string) os.FileMode {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st.Mode().Perm()
	}
	own := filepath.Join(dir, "own.json")
	if err := WriteBytes(own, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if m := mode(own); m != 0o600 {
		t.Errorf("a new library file has mode %o, want 600", m)
	}
	out := filepath.Join(dir, "out.csv")
	if err := WriteExport(out, func(w io.Writer) error { _, err := io.WriteString(w, "a,b\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if m, want := mode(out), 0o666&^umask(); m != want {
		t.Errorf("a new export has mode %o, want %o", m, want)
	}
	os.Chmod(out, 0o640)
	if err := WriteExport(out, func(w io.Writer) error { _, err := io.WriteString(w, "c,d\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if m := mode(out); m != 0o640 {
		t.Errorf("a replaced export has mode %o, want the 640 it had", m)
	}
	cache := filepath.Join(dir, "thumb.jpg")
	if err := WriteRebuildable(cache, func(w io.Writer) error { _, err := io.WriteString(w, "jpeg"); return err }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(cache); string(got) != "jpeg" || mode(cache) != 0o600 {
		t.Errorf("a rebuildable file: %q mode %o", got, mode(cache))
	}
}

// A folder that cannot be written gives an error that says which folder
// and what to do, and writes nothing.
func TestAnUnwritableFolderIsExplained(t *testing.T) {
	if os.Geteuid() == 0 {
		dir := t.TempDir()
		// root writes anywhere: a missing folder stands for one it cannot.
		err := WriteBytes(filepath.Join(dir, "gone", "x.json"), []byte("{}"))
		if err == nil || !strings.Contains(err.Error(), "cannot write in folder") {
			t.Fatalf("error %v: want one naming the folder", err)
		}
		return
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o500)
	defer os.Chmod(dir, 0o700)
	err := WriteBytes(filepath.Join(dir, "x.json"), []byte("{}"))
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("error %v: want permission denied with what to do", err)
	}
}

// Leftover tells a killed writer's temporary file from a running one's and
// from another computer's.
func TestLeftoverTellsWhoseTemporaryFileItIs(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("sleep", "60")
	if err := dead.Start(); err != nil {
		t.Skip("no sleep:", err)
	}
	dead.Process.Kill()
	dead.Wait()
	name := func(pid int, host string) string {
		p := filepath.Join(dir, fmt.Sprintf(".tmp-a.json-sb%d.%s-123", pid, host))
		os.WriteFile(p, []byte("x"), 0o600)
		return p
	}
	cases := []struct {
		path string
		want bool
	}{
		{name(dead.Process.Pid, hostTag()), true},
		{name(os.Getpid(), hostTag()), false},
		{name(dead.Process.Pid, "00000000"), false},
		{filepath.Join(dir, "a.json"), false},
	}
	os.WriteFile(filepath.Join(dir, "a.json"), []byte("{}"), 0o600)
	for _, c := range cases {
		if got := Leftover(c.path, time.Hour); got != c.want {
			t.Errorf("Leftover(%s) = %v, want %v", filepath.Base(c.path), got, c.want)
		}
	}
	old := name(os.Getpid(), "00000000")
	past := time.Now().Add(-2 * time.Hour)
	os.Chtimes(old, past, past)
	if !Leftover(old, time.Hour) {
		t.Errorf("a temporary file not written for two hours is a leftover")
	}
}
