//go:build unix

package clients

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f, waiting for it; the kernel drops
// it when the process ends, so a killed command leaves no stale lock.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
