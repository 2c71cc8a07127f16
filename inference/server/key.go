package server

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// KeyEnv names the environment variable that holds the server's API key
// for the command line (a flag would show in ps).
const KeyEnv = "SHOEBOX_SERVER_KEY"

// keyFile is where the app keeps the key: in the user's own config folder,
// readable by the user alone, not in the library (which is copied, shared
// and backed up) and never in an export.
func keyFile() (string, error) {
	if d := os.Getenv("SHOEBOX_CONFIG"); d != "" {
		return filepath.Join(d, "server-key"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "shoebox", "server-key"), nil
}

// LoadKey is the API key: $SHOEBOX_SERVER_KEY, else the one saved with
// SaveKey, else "" (servers on a firm's own network often need none).
func LoadKey() string {
	if k := strings.TrimSpace(os.Getenv(KeyEnv)); k != "" {
		return k
	}
	p, err := keyFile()
	if err != nil {
		return ""
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// SaveKey keeps the key for the app (mode 0600); "" forgets it.
func SaveKey(key string) error {
	p, err := keyFile()
	if err != nil {
		return err
	}
	key = strings.TrimSpace(key)
	if key == "" {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, []byte(key+"\n"), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}
