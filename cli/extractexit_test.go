package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtractExitsNonZeroWhenAFileFailed is issue 38 item 13: extract
// exited 0 when a page could not be read, so a script took the output for
// complete. It reads the rest, prints them, and exits 1; a hidden file a
// folder's walk skipped is reported but is no failure.
func TestExtractExitsNonZeroWhenAFileFailed(t *testing.T) {
	src := "../../shared/data/sroie-dev/006.jpg"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Skip("no SROIE data:", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "good.jpg"), data, 0o644)
	os.WriteFile(filepath.Join(dir, ".hidden.jpg"), data, 0o644)
	code, out, errOut := run(t, "extract", "--engine", "ocr", "--country", "MY", dir)
	if code != 0 || !strings.Contains(errOut, ".hidden.jpg: is hidden") {
		t.Fatalf("a good file and a hidden one: exit %d\n%s\n%s", code, out, errOut)
	}
	os.WriteFile(filepath.Join(dir, "broken.jpg"), append([]byte{0xFF, 0xD8, 0xFF}, make([]byte, 64)...), 0o644)
	code, out, errOut = run(t, "extract", "--engine", "ocr", "--country", "MY", dir)
	if code != 1 {
		t.Errorf("a page failed: exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "good.jpg") && !strings.Contains(out, "SYARIKAT") && !strings.Contains(strings.ToUpper(out), "BOOK") {
		t.Logf("output: %s", out)
	}
	if !strings.Contains(out, "broken.jpg:") || !strings.Contains(errOut, "1 of 2 files could not be read") {
		t.Errorf("the failure was not reported:\n%s\n%s", out, errOut)
	}
}
