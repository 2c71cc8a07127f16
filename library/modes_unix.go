//go:build unix

package library

import "golang.org/x/sys/unix"

// writable reports whether this user may write p (root may write anything).
func writable(p string) bool { return unix.Access(p, unix.W_OK) == nil }
