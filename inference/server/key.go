package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/shoebox-app/shoebox/internal/envvars"
	"github.com/shoebox-app/shoebox/internal/fsutil"
)

// KeyEnv names the environment variable that holds the server's API key
// for the command line (a flag would show in ps). A key given there is the
// user's explicit choice for the server named with it, and is sent to it.
var KeyEnv = envvars.ServerKey.Name

// keyFile is where the app keeps its keys: in the user's own config folder,
// readable by the user alone, not in the library (which is copied, shared
// and backed up) and never in an export.
func keyFile() (string, error) {
	if d := envvars.Config.Get(); d != "" {
		return filepath.Join(d, "server-key"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "shoebox", "server-key"), nil
}

// savedKey is one key in the key file, bound to the server it was saved
// for: its origin, scheme://host:port.
type savedKey struct {
	Server string `json:"server"`
	Key    string `json:"key"`
}

type keyFileData struct {
	Keys []savedKey `json:"keys"`
}

// origin is an address's scheme, host and port (the default port written
// out): the server a key belongs to, whatever path follows.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// originOf is origin for a server address as the user gives it.
func originOf(serverURL string) (string, error) {
	u, err := baseURL(serverURL)
	if err != nil {
		return "", err
	}
	return origin(u), nil
}

// loopback says whether host names this computer: traffic to it never
// reaches a network.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// KeyFor is the API key to send to the server at serverURL:
// $SHOEBOX_SERVER_KEY when set (the user's explicit choice), else the key
// saved for that very server (scheme, host and port) with SaveKey, else ""
// (servers on a firm's own network often need none). A key saved for
// another server is never returned; note then says so, for the user.
func KeyFor(serverURL string) (key, note string) {
	if k := strings.TrimSpace(envvars.ServerKey.Get()); k != "" {
		return k, ""
	}
	want, err := originOf(serverURL)
	if err != nil {
		return "", ""
	}
	data, legacy, err := readKeys()
	if err != nil {
		return "", err.Error()
	}
	for _, k := range data.Keys {
		if k.Server == want {
			return k.Key, ""
		}
	}
	switch {
	case legacy:
		return "", "the saved server key is not sent: it was saved before keys were bound to their server; give it again in Settings → Reading (or $" + KeyEnv + ")"
	case len(data.Keys) > 0:
		var others []string
		for _, k := range data.Keys {
			others = append(others, k.Server)
		}
		return "", fmt.Sprintf("no key is saved for %s (keys are saved for %s only, and go to no other server)", want, strings.Join(others, ", "))
	}
	return "", ""
}

// readKeys reads the key file; legacy is true for the old file that held a
// bare key bound to no server (never sent anywhere now).
func readKeys() (keyFileData, bool, error) {
	var data keyFileData
	p, err := keyFile()
	if err != nil {
		return data, false, nil
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return data, false, nil
	}
	if err != nil {
		return data, false, fmt.Errorf("the saved server keys cannot be read: %w", err)
	}
	if strings.TrimSpace(string(b)) == "" {
		return data, false, nil
	}
	if err := json.Unmarshal(b, &data); err != nil {
		return keyFileData{}, true, nil
	}
	return data, false, nil
}

// SaveKey keeps the key for the server at serverURL, and for it alone
// (mode 0600, written whole or not at all); "" forgets that server's key.
// Keys saved for other servers stay; a key file from before keys were
// bound to servers is replaced.
func SaveKey(serverURL, key string) error {
	o, err := originOf(serverURL)
	if err != nil {
		return err
	}
	p, err := keyFile()
	if err != nil {
		return err
	}
	data, _, err := readKeys()
	if err != nil {
		return err
	}
	key = strings.TrimSpace(key)
	kept := data.Keys[:0]
	for _, k := range data.Keys {
		if k.Server != o {
			kept = append(kept, k)
		}
	}
	if key != "" {
		kept = append(kept, savedKey{Server: o, Key: key})
	}
	if len(kept) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	// The file keeps its mode when replaced: an old one made readable by
	// others is made private first.
	if st, err := os.Stat(p); err == nil && st.Mode().Perm() != 0o600 {
		if err := os.Chmod(p, 0o600); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(keyFileData{Keys: kept}, "", "  ")
	if err != nil {
		return err
	}
	return fsutil.WriteAtomic(p, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
}
