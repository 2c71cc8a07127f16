//go:build unix

package ingest

import (
	"bytes"
	"io/fs"
	"os"
	"strconv"
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
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	// A killed process nobody has reaped yet (a zombie) still answers.
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'Z' {
			return false
		}
	}
	return true
}
