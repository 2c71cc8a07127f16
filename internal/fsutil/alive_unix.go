//go:build unix

package fsutil

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// ProcessAlive reports whether a process with this id runs on this
// computer (one of another user's counts: its files are not ours to judge).
func ProcessAlive(pid int) bool {
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
