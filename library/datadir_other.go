//go:build !windows

package library

import (
	"os"
	"path/filepath"
)

func dataDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "shoebox"), nil
}
