// Package fsutil holds the one file-writing discipline Shoebox uses for
// anything a user would miss: write beside the target, fsync, rename.
package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// WriteAtomic writes dst through a temporary file in the same folder, fsyncs
// it and renames it into place, so a crash leaves the old file or the new
// one, never half of one. Errors say which folder or file and what to do.
// A new file is private to the user (0600): the library's own files.
func WriteAtomic(dst string, fill func(io.Writer) error) error {
	return writeAtomic(dst, 0o600, fill)
}

// WriteExport is WriteAtomic for a file made to be handed on (an export):
// a new one gets the mode any new file gets under the user's umask.
func WriteExport(dst string, fill func(io.Writer) error) error {
	return writeAtomic(dst, 0o666&^umask(), fill)
}

func writeAtomic(dst string, mode fs.FileMode, fill func(io.Writer) error) error {
	dir := filepath.Dir(dst)
	tmp, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(dst)+"-*")
	if err != nil {
		return explain(err, dir, "cannot write in folder %s", dir)
	}
	defer os.Remove(tmp.Name())
	if err := fill(tmp); err != nil {
		tmp.Close()
		return explain(err, dir, "writing %s failed", filepath.Base(dst))
	}
	if err := finish(tmp, dst, mode); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return explain(err, dir, "cannot replace %s (is it open in another program? close it and try again)", dst)
	}
	syncDir(dir)
	return nil
}

// WriteExportPair writes two export files that belong together (receipts
// and their line items) so that both are replaced or neither: both are
// written to temporary files first, and when the second cannot be put in
// place the first is put back as it was.
func WriteExportPair(dstA, dstB string, fill func(a, b io.Writer) error) error {
	var tmps [2]*os.File
	for i, dst := range []string{dstA, dstB} {
		dir := filepath.Dir(dst)
		t, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(dst)+"-*")
		if err != nil {
			for _, t := range tmps[:i] {
				t.Close()
				os.Remove(t.Name())
			}
			return explain(err, dir, "cannot write in folder %s", dir)
		}
		tmps[i] = t
		defer os.Remove(t.Name())
	}
	if err := fill(tmps[0], tmps[1]); err != nil {
		tmps[0].Close()
		tmps[1].Close()
		return explain(err, filepath.Dir(dstA), "writing %s failed", filepath.Base(dstA))
	}
	for i, dst := range []string{dstA, dstB} {
		if err := finish(tmps[i], dst, 0o666&^umask()); err != nil {
			if i == 0 {
				tmps[1].Close()
			}
			return err
		}
	}
	// Keep the first file's old content until the second is in place.
	backup := ""
	if _, err := os.Lstat(dstA); err == nil {
		backup = filepath.Join(filepath.Dir(dstA), ".old-"+filepath.Base(dstA)+"-"+filepath.Base(tmps[0].Name()))
		if err := os.Link(dstA, backup); err != nil {
			return explain(err, filepath.Dir(dstA), "cannot replace %s", dstA)
		}
		defer os.Remove(backup)
	}
	if err := os.Rename(tmps[0].Name(), dstA); err != nil {
		return explain(err, filepath.Dir(dstA), "cannot replace %s (is it open in another program? close it and try again)", dstA)
	}
	if err := os.Rename(tmps[1].Name(), dstB); err != nil {
		if backup != "" {
			os.Rename(backup, dstA)
		} else {
			os.Remove(dstA)
		}
		return explain(err, filepath.Dir(dstB), "cannot replace %s (is it open in another program? close it and try again); %s was left as it was", dstB, filepath.Base(dstA))
	}
	syncDir(filepath.Dir(dstA))
	syncDir(filepath.Dir(dstB))
	return nil
}

// finish gives a written temporary file its mode (the replaced file's,
// else mode), flushes it to disk and closes it.
func finish(tmp *os.File, dst string, mode fs.FileMode) error {
	dir := filepath.Dir(dst)
	if fi, err := os.Stat(dst); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return explain(err, dir, "writing %s failed", filepath.Base(dst))
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return explain(err, dir, "writing %s failed", filepath.Base(dst))
	}
	if err := tmp.Close(); err != nil {
		return explain(err, dir, "writing %s failed", filepath.Base(dst))
	}
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// umask is the process's file-creation mask, read from /proc (setting it
// to read it, as syscall.Umask does, races with other goroutines); 022
// where /proc does not say.
func umask() fs.FileMode {
	data, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return fs.FileMode(m)
				}
			}
		}
	}
	return 0o022
}

func explain(err error, dir, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("%s: the disk is full: free some space and try again: %w", msg, err)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied: choose another folder: %w", msg, err)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: the folder does not exist: %w", msg, err)
	}
	return fmt.Errorf("%s: %w", msg, err)
}
