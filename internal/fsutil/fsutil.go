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
	"syscall"
)

// WriteAtomic writes dst through a temporary file in the same folder, fsyncs
// it and renames it into place, so a crash leaves the old file or the new
// one, never half of one. Errors say which folder or file and what to do.
func WriteAtomic(dst string, fill func(io.Writer) error) error {
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
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return explain(err, dir, "writing %s failed", filepath.Base(dst))
	}
	if err := tmp.Close(); err != nil {
		return explain(err, dir, "writing %s failed", filepath.Base(dst))
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return explain(err, dir, "cannot replace %s (is it open in another program? close it and try again)", dst)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
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
