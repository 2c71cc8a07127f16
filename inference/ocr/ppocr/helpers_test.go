package ppocr

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/shoebox-app/shoebox/ingest"
)

// testDir is where `make deps` puts the reader's parts: build/lib/ppocr at
// the repository's root (or $SHOEBOX_PPOCR_DIR).
func testDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv(EnvDir); d != "" {
		return d
	}
	d := filepath.Join(repoRoot(t), "build", "lib", "ppocr")
	if m := Missing(d); m != "" {
		t.Skipf("the PP-OCR models and ONNX Runtime are not in %s (missing %s): run `make deps`", d, m)
	}
	return d
}

// repoRoot is the folder holding go.mod above the test's.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Skip("no go.mod above the test's folder")
		}
		dir = up
	}
	return dir
}

var (
	sharedOnce   sync.Once
	sharedReader *Reader
	sharedErr    error
)

// testReader is one reader for the package's tests (its sessions take a
// second to make).
func testReader(t testing.TB) *Reader {
	t.Helper()
	d := testDir(t)
	sharedOnce.Do(func() { sharedReader, sharedErr = New(Options{Dir: d}) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedReader
}

// sroie is the path of a SROIE receipt in shared/data (skips when absent).
func sroie(t testing.TB, set, name string) string {
	t.Helper()
	// shared/ lies beside the repository (or in it).
	p := filepath.Join(repoRoot(t), "..", "shared", "data", set, name)
	if _, err := os.Stat(p); err != nil {
		p = filepath.Join(repoRoot(t), "shared", "data", set, name)
	}
	if _, err := os.Stat(p); err != nil {
		t.Skip("the SROIE receipts are not here:", err)
	}
	return p
}

func loadPage(t testing.TB, path string) ingest.Page {
	t.Helper()
	f, err := ingest.Probe(context.Background(), path, ingest.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	pg, err := ingest.LoadPage(context.Background(), f, 0, ingest.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return pg
}
