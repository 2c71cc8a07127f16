package library

import (
	"errors"
	"path/filepath"

	"github.com/shoebox-app/shoebox/internal/envvars"
)

// dataDir is %LOCALAPPDATA%\Shoebox: a user's data that stays on this
// computer (originals run to gigabytes; %APPDATA% roams with the profile),
// apart from the program's folder (%LOCALAPPDATA%\Programs\Shoebox), so
// uninstalling leaves it.
func dataDir() (string, error) {
	d := envvars.LocalAppData.Get()
	if d == "" {
		return "", errors.New("LOCALAPPDATA is not set")
	}
	return filepath.Join(d, "Shoebox"), nil
}
