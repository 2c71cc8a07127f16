//go:build unix

package ingest

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe reports a file of this user's.
func ownedByMe(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// processAlive reports whether a process with this id runs (another
// user's counts).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
