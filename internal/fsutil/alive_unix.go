//go:build unix

package fsutil

import "syscall"

// processAlive reports whether a process with this id runs on this
// computer (one of another user's counts: its files are not ours to judge).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
