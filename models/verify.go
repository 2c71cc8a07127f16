package models

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/models/gguf"
)

// Verdict is what Verify found.
type Verdict struct {
	Path     string
	Size     int64
	SHA256   string // computed, or from the cache
	Cached   bool   // the hash came from the cache
	Known    bool   // the catalogue records size and hash for this file
	Warnings []string
	Header   *gguf.File
}

// HashCache remembers verified hashes by path, size and modification time,
// so a 5 GB file is hashed once, not at every start.
type HashCache struct {
	path string
	mu   sync.Mutex
	m    map[string]cacheEntry
}

type cacheEntry struct {
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime"`
	SHA256  string `json:"sha256"`
}

// OpenHashCache loads the cache file (a missing or damaged one starts empty).
func OpenHashCache(path string) *HashCache {
	c := &HashCache{path: path, m: map[string]cacheEntry{}}
	if data, err := os.ReadFile(path); err == nil && json.Unmarshal(data, &c.m) != nil {
		c.m = map[string]cacheEntry{} // damaged: every file is hashed again
	}
	return c
}

func (c *HashCache) get(path string, st os.FileInfo) (string, bool) {
	if c == nil {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[path]
	if ok && e.Size == st.Size() && e.ModTime == st.ModTime().UnixNano() {
		return e.SHA256, true
	}
	return "", false
}

// put remembers a file's hash and saves the cache. A cache that cannot be
// saved costs only a slower check next time, so the error is a warning.
func (c *HashCache) put(path string, st os.FileInfo, sum string) error {
	if c == nil || c.path == "" {
		return nil
	}
	c.mu.Lock()
	c.m[path] = cacheEntry{Size: st.Size(), ModTime: st.ModTime().UnixNano(), SHA256: sum}
	data, err := json.MarshalIndent(c.m, "", " ")
	c.mu.Unlock()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return err
	}
	return fsutil.WriteBytes(c.path, data)
}

// ErrIntegrity is wrapped by every integrity failure.
var ErrIntegrity = errors.New("model file failed its check")

// Verify checks a model or projector file before it is loaded: its size and
// SHA-256 against the catalogue (when ref records them) and its GGUF
// structure. An unknown file (ref nil) passes with a warning if its
// structure is sound. Errors name the file, say what was expected and what
// was found, and what to do.
func Verify(path string, ref *FileRef, cache *HashCache) (Verdict, error) {
	v := Verdict{Path: path}
	st, err := os.Stat(path)
	if err != nil {
		return v, fmt.Errorf("model file %s cannot be read: %w", path, err)
	}
	v.Size = st.Size()
	name := filepath.Base(path)
	if ref != nil {
		v.Known = ref.SHA256 != ""
	}
	if lo, hi, ok := ref.sizeWindow(); ok {
		listed := HumanSize(ref.Size)
		if ref.Size == 0 {
			listed = "about " + ref.SizePublished
		}
		switch {
		case v.Size < lo:
			return v, fmt.Errorf("%w: model file %s is truncated: %s of %s — download it again (a download resumes where it stopped)",
				ErrIntegrity, name, HumanSize(v.Size), listed)
		case v.Size > hi:
			return v, fmt.Errorf("%w: model file %s is %s, but the catalogue lists %s — it is not the file the catalogue names; download it again",
				ErrIntegrity, name, HumanSize(v.Size), listed)
		}
	}
	h, err := gguf.Read(path)
	if err != nil {
		var p *gguf.Problem
		if errors.As(err, &p) {
			return v, fmt.Errorf("%w: model file %s is damaged: %s — download it again", ErrIntegrity, name, p.Reason)
		}
		return v, fmt.Errorf("model file %s cannot be read: %w", name, err)
	}
	v.Header = h
	if ref == nil || ref.SHA256 == "" {
		v.Warnings = append(v.Warnings, fmt.Sprintf("%s is not in Shoebox's catalogue, so its contents cannot be checked against a known hash; its structure is sound", name))
		return v, nil
	}
	sum, cached := cache.get(path, st)
	if !cached {
		if sum, err = hashFile(path); err != nil {
			return v, fmt.Errorf("model file %s cannot be read: %w", name, err)
		}
	}
	v.SHA256, v.Cached = sum, cached
	if sum != ref.SHA256 {
		return v, fmt.Errorf("%w: model file %s has SHA-256 %s…, the catalogue lists %s… — the file is corrupt or a different release; download it again",
			ErrIntegrity, name, sum[:12], ref.SHA256[:min(12, len(ref.SHA256))])
	}
	if !cached {
		if err := cache.put(path, st, sum); err != nil {
			v.Warnings = append(v.Warnings, fmt.Sprintf("the check of %s could not be remembered, so the next start checks it again: %v", name, err))
		}
	}
	return v, nil
}

// sizeWindow is SizeWindow for a ref that may be nil (an unknown file).
func (f *FileRef) sizeWindow() (int64, int64, bool) {
	if f == nil {
		return 0, 0, false
	}
	return f.SizeWindow()
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// HumanSize writes a byte count as people read it: "4.7 GB".
func HumanSize(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}
