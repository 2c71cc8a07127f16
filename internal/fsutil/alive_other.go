//go:build !unix

package fsutil

// ProcessAlive cannot tell here: leftovers wait for staleAfter.
func ProcessAlive(pid int) bool { return true }
