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
