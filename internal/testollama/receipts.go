package testollama

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/shoebox-app/shoebox/internal/synth"
)

// Receipts returns n receipt images for reading through the server: the
// SROIE development receipts (shared/data/sroie-dev beside or inside the
// checkout) when they are there, else synthetic receipts written to a
// temporary folder, so the test runs either way.
func Receipts(t testing.TB, n int) []string {
	t.Helper()
	wd, _ := os.Getwd()
	for dir := wd; ; dir = filepath.Dir(dir) {
		for _, c := range []string{filepath.Join(dir, "shared", "data", "sroie-dev"), filepath.Join(dir, "..", "shared", "data", "sroie-dev")} {
			found, _ := filepath.Glob(filepath.Join(c, "*.jpg"))
			if len(found) >= n {
				sort.Strings(found)
				return found[:n]
			}
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	out := t.TempDir()
	var paths []string
	for i := 0; i < n; i++ {
		r, err := synth.Generate(int64(i+1), "AU")
		if err != nil {
			t.Fatal(err)
		}
		img, err := synth.Render(r)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(out, fmt.Sprintf("synth-%d.png", i))
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		f.Close()
		paths = append(paths, p)
	}
	return paths
}
