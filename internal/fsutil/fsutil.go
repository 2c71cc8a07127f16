// Package fsutil holds the one file-writing discipline Shoebox uses for
// every file it writes: write to a temporary file beside the target (named
// for its process and computer, so a killed writer's leftovers can be told
// from a live one's), fsync it, rename it over the target, fsync the folder.
// WriteAtomic is for the library's own files, WriteExport and
// WriteExportPair for files handed on, WriteRebuildable for caches that can
// be made again; CreateTemp, Leftover and SyncDir serve writers that commit
// in two steps (the library's originals: copy, then rename once the
// database holds the receipt).
package fsutil

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
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
// It first tidies the folder (TidyFolder) and refuses a target that is a
// link or read-only (checkTarget).
func WriteExport(dst string, fill func(io.Writer) error) error {
	TidyFolder(filepath.Dir(dst))
	if err := checkTarget(dst); err != nil {
		return err
	}
	return writeAtomic(dst, 0o666&^umask(), fill)
}

// WriteBytes is WriteAtomic for data already in memory.
func WriteBytes(dst string, data []byte) error {
	return WriteAtomic(dst, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteRebuildable writes a file that can always be made again (a
// thumbnail, a cache): through a temporary file and a rename, so no reader
// ever sees half of it, but without the fsyncs. Its leftovers are removed
// by whoever owns the folder (Leftover).
func WriteRebuildable(dst string, fill func(io.Writer) error) error {
	return write(dst, 0o600, false, fill)
}

func writeAtomic(dst string, mode fs.FileMode, fill func(io.Writer) error) error {
	removeLeftoversOf(dst)
	return write(dst, mode, true, fill)
}

// removeLeftoversOf removes the temporary files that killed writers of dst
// left beside it.
func removeLeftoversOf(dst string) {
	base := filepath.Base(dst)
	ents, err := os.ReadDir(filepath.Dir(dst))
	if err != nil {
		return
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".tmp-"+base+"-sb") {
			if p := filepath.Join(filepath.Dir(dst), e.Name()); Leftover(p, staleAfter) {
				os.Remove(p)
			}
		}
	}
}

func write(dst string, mode fs.FileMode, durable bool, fill func(io.Writer) error) error {
	dir := filepath.Dir(dst)
	tmp, err := CreateTemp(dst)
	if err != nil {
		return explain(err, dir, "cannot write in folder %s", dir)
	}
	defer os.Remove(tmp.Name())
	if err := fill(tmp); err != nil {
		tmp.Close()
		return explain(err, dir, "writing %s failed", filepath.Base(dst))
	}
	hook("filled")
	if durable {
		err = finish(tmp, dst, mode)
	} else {
		err = closeWithMode(tmp, dst, mode)
	}
	if err != nil {
		return err
	}
	hook("flushed")
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return explain(err, dir, "cannot replace %s (is it open in another program? close it and try again)", dst)
	}
	if durable {
		SyncDir(dir)
	}
	return nil
}

// WriteExportPair writes two export files that belong together (receipts
// and their line items, in one folder) so that a failure or a kill at any
// point leaves both old or both new.
//
// No file system renames two names at once, so the pair is committed by a
// manifest: both files are written to temporary files and flushed; then a
// manifest naming them is put in place atomically (the commit point); then
// both are renamed over the targets and the manifest is removed. A kill
// before the commit leaves the old pair and temporary files that TidyFolder
// removes; a kill after it leaves a manifest that TidyFolder completes, so
// the pair becomes both new. Every export into a folder tidies it first;
// between the two renames (a few microseconds, or a kill there until the
// next export into the folder) the manifest records that the pair is
// incomplete.
func WriteExportPair(dstA, dstB string, fill func(a, b io.Writer) error) error {
	dir := filepath.Dir(dstA)
	if filepath.Dir(dstB) != dir {
		return fmt.Errorf("%s and %s must be in one folder", dstA, dstB)
	}
	TidyFolder(dir)
	for _, dst := range []string{dstA, dstB} {
		if err := checkTarget(dst); err != nil {
			return err
		}
	}
	var tmps [2]*os.File
	for i, dst := range []string{dstA, dstB} {
		t, err := CreateTemp(dst)
		if err != nil {
			for _, t := range tmps[:i] {
				t.Close()
				os.Remove(t.Name())
			}
			return explain(err, dir, "cannot write in folder %s", dir)
		}
		tmps[i] = t
	}
	committed := false
	defer func() {
		if !committed {
			os.Remove(tmps[0].Name())
			os.Remove(tmps[1].Name())
		}
	}()
	if err := fill(tmps[0], tmps[1]); err != nil {
		tmps[0].Close()
		tmps[1].Close()
		return explain(err, dir, "writing %s failed", filepath.Base(dstA))
	}
	for i, dst := range []string{dstA, dstB} {
		if err := finish(tmps[i], dst, 0o666&^umask()); err != nil {
			if i == 0 {
				tmps[1].Close()
			}
			return err
		}
	}
	hook("filled")
	m := manifest{PID: os.Getpid(), Files: []manifestFile{
		{Temp: filepath.Base(tmps[0].Name()), Target: filepath.Base(dstA)},
		{Temp: filepath.Base(tmps[1].Name()), Target: filepath.Base(dstB)},
	}}
	mpath, err := writeManifest(dir, m)
	if err != nil {
		return err
	}
	committed = true // from here on the new pair is the one TidyFolder completes
	hook("committed")
	if n, err := m.complete(dir, hook); err != nil {
		if n == 0 { // nothing replaced: both stay old
			os.Remove(mpath)
			committed = false
			return explain(err, dir, "cannot replace %s (is it open in another program? close it and try again); %s was left as it was", filepath.Base(dstA), filepath.Base(dstB))
		}
		return explain(err, dir, "cannot replace %s (is it open in another program? close it): the next export into this folder puts the new %s in place", filepath.Base(dstB), filepath.Base(dstB))
	}
	hook("renamed-both")
	os.Remove(mpath)
	SyncDir(dir)
	return nil
}

// A manifest lists the temporary files of a committed pair and the
// targets they replace, by name in the manifest's folder.
type manifest struct {
	PID   int            `json:"pid"`
	Files []manifestFile `json:"files"`
}

type manifestFile struct {
	Temp   string `json:"temp"`
	Target string `json:"target"`
}

// manifestPrefix names manifests: .tmp-pair.json-sb<pid>.<host>-<random>.pair.
const manifestPrefix = "pair"

func writeManifest(dir string, m manifest) (string, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	t, err := os.CreateTemp(dir, ourTempPattern(manifestPrefix+".json"))
	if err != nil {
		return "", explain(err, dir, "cannot write in folder %s", dir)
	}
	if _, err := t.Write(b); err != nil {
		t.Close()
		os.Remove(t.Name())
		return "", explain(err, dir, "cannot write in folder %s", dir)
	}
	if err := t.Sync(); err != nil {
		t.Close()
		os.Remove(t.Name())
		return "", explain(err, dir, "cannot write in folder %s", dir)
	}
	t.Close()
	// The manifest's final name ends in .pair: written whole, then renamed,
	// so a manifest TidyFolder finds is never half written.
	final := t.Name() + ".pair"
	if err := os.Rename(t.Name(), final); err != nil {
		os.Remove(t.Name())
		return "", explain(err, dir, "cannot write in folder %s", dir)
	}
	SyncDir(dir)
	return final, nil
}

// complete renames the manifest's temporary files over their targets, in
// order; a file already renamed (by an earlier, killed try) is skipped. It
// returns how many targets were replaced before an error.
func (m manifest) complete(dir string, hook func(string)) (int, error) {
	for _, f := range m.Files {
		if f.Target == "" || strings.ContainsAny(f.Temp+f.Target, `/\`) || !reOurTemp.MatchString(f.Temp) {
			return 0, fmt.Errorf("a damaged export manifest in %s", dir)
		}
	}
	for i, f := range m.Files {
		err := os.Rename(filepath.Join(dir, f.Temp), filepath.Join(dir, f.Target))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return i, err
		}
		if i == 0 {
			hook("renamed-first")
		}
	}
	SyncDir(dir)
	return len(m.Files), nil
}

// checkTarget refuses an export target that is a link (replacing it would
// break the link; writing through it would write wherever it points) or
// a file the user made read-only, rather than replace either silently.
func checkTarget(dst string) error {
	st, err := os.Lstat(dst)
	if err != nil {
		return nil
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a link: give the file it points to, or another name", dst)
	case st.IsDir():
		return fmt.Errorf("%s is a folder: give a file name", dst)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a plain file: give another name", dst)
	case st.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("%s is read-only: make it writable or give another name", dst)
	}
	return nil
}

// Temporary files are named .tmp-<target>-sb<pid>.<host>-<random>: ours,
// and by which process on which computer (a hash of its name: an export
// folder may be shared), so TidyFolder can tell a leftover of a killed
// export from a file another export is writing now.
func ourTempPattern(base string) string {
	return fmt.Sprintf(".tmp-%s-sb%d.%s-*", base, os.Getpid(), hostTag())
}

// hostTag is a short hash of this computer's name.
var hostTag = sync.OnceValue(func() string {
	h, _ := os.Hostname()
	sum := sha256.Sum256([]byte(h))
	return hex.EncodeToString(sum[:4])
})

// CreateTemp creates a temporary file beside dst, named as ours (by this
// process, on this computer), for a writer that renames it into place
// itself.
func CreateTemp(dst string) (*os.File, error) {
	return os.CreateTemp(filepath.Dir(dst), ourTempPattern(filepath.Base(dst)))
}

// Leftover reports whether path is a temporary file of ours that its writer
// left behind: it names a process of this computer that is gone, or it has
// not been written for olderThan. Another computer's (on a shared folder)
// and a running writer's files are not leftovers.
func Leftover(path string, olderThan time.Duration) bool {
	m := reOurTemp.FindStringSubmatch(filepath.Base(path))
	if m == nil {
		return false
	}
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	if time.Since(info.ModTime()) > olderThan {
		return true
	}
	return writerGone(m)
}

// writerGone: the temporary name's process ran on this computer and is gone.
func writerGone(m []string) bool {
	if m[2] != hostTag() {
		return false
	}
	pid, _ := strconv.Atoi(m[1])
	return pid > 0 && pid != os.Getpid() && !ProcessAlive(pid)
}

var (
	reOurTemp = regexp.MustCompile(`^\.tmp-.+-sb(\d+)\.([0-9a-f]{8})-\d+(\.pair)?$`)
	// Names older versions left: .tmp-<export>-<random> and the pair
	// writer's .old-<export>-.tmp-<export>-<random>.
	reOldTemp = regexp.MustCompile(`^(\.tmp-|\.old-).+\.(csv|xlsx|zip)-(\.tmp-.+\.(csv|xlsx|zip)-)?\d+$`)
)

// Leftovers are removed once their process (on this computer) is gone, or
// in any case when they have not been written for staleAfter (a process id
// may be reused).
const staleAfter = time.Hour

// TidyFolder finishes or removes what killed exports left in dir: a pair
// whose manifest was committed is completed (both new); temporary files of
// ours whose process is gone are removed. Nothing that is not provably
// ours (by name) is touched, and nothing another running export is
// writing.
func TidyFolder(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	now := time.Now()
	// gone reports a leftover: a regular file whose process is gone, or not
	// written for staleAfter.
	gone := func(e fs.DirEntry, m []string) bool {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			return false
		}
		if now.Sub(info.ModTime()) > staleAfter {
			return true
		}
		return m != nil && writerGone(m)
	}
	// Manifests first: their temporary files are the new pair.
	for _, e := range ents {
		m := reOurTemp.FindStringSubmatch(e.Name())
		if m == nil || m[3] == "" || !gone(e, m) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if b, err := os.ReadFile(p); err == nil {
			var mf manifest
			if json.Unmarshal(b, &mf) == nil {
				if _, err := mf.complete(dir, func(string) {}); err != nil {
					continue // the manifest stays, so the next tidy finishes the pair
				}
			}
		}
		os.Remove(p)
		SyncDir(dir)
	}
	ents, _ = os.ReadDir(dir)
	for _, e := range ents {
		if m := reOurTemp.FindStringSubmatch(e.Name()); m != nil {
			if m[3] == "" && gone(e, m) {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		} else if reOldTemp.MatchString(e.Name()) && gone(e, nil) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

func hook(step string) {
	if testHook != nil {
		testHook(step)
	}
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

// closeWithMode gives a written temporary file its mode (the replaced
// file's, else mode) and closes it, without flushing it to disk.
func closeWithMode(tmp *os.File, dst string, mode fs.FileMode) error {
	if fi, err := os.Stat(dst); err == nil {
		mode = fi.Mode().Perm()
	}
	err := tmp.Chmod(mode)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return explain(err, filepath.Dir(dst), "writing %s failed", filepath.Base(dst))
	}
	return nil
}

var testHook func(step string)

// SyncDir flushes a folder's entries (a rename into it) to disk.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // some file systems (network drives) cannot sync a folder: nothing more to do
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
