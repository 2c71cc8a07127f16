package library

import "os"

// writable reports whether p lacks Windows' read-only attribute (Go shows
// it as a mode without write bits); folder permissions are not consulted.
func writable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().Perm()&0o200 != 0
}
