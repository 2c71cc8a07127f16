package ui

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestNoDisplay(t *testing.T) {
	for _, tc := range []struct {
		goos, display, wayland string
		refused                bool
	}{
		{"linux", "", "", true},
		{"linux", "  ", "", true},
		{"linux", ":0", "", false},
		{"linux", "", "wayland-0", false},
		{"freebsd", "", "", true},
		{"windows", "", "", false},
		{"darwin", "", "", false},
	} {
		env := map[string]string{"DISPLAY": tc.display, "WAYLAND_DISPLAY": tc.wayland}
		why := noDisplay(tc.goos, func(k string) string { return env[k] })
		if (why != "") != tc.refused {
			t.Errorf("%s DISPLAY=%q WAYLAND_DISPLAY=%q: %q", tc.goos, tc.display, tc.wayland, why)
		}
	}
}

// With no display the app exits with a message before it touches the
// library (nothing is created in its folder).
func TestMainWithoutADisplayExitsClearly(t *testing.T) {
	if noDisplay("linux", func(string) string { return "" }) == "" {
		t.Fatal("no refusal to test")
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	if noDisplay(goosForTest(), os.Getenv) == "" {
		t.Skip("this platform opens windows without DISPLAY")
	}
	dir := filepath.Join(t.TempDir(), "lib")
	stderr := captureStderr(t, func() {
		if code := Main([]string{"--library", dir}, "test"); code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
	})
	if !strings.Contains(stderr, "no graphical display") || !strings.Contains(stderr, "shoebox help") {
		t.Errorf("stderr = %q", stderr)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the library folder was touched: %v", err)
	}
}

func captureStderr(t *testing.T, fn func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = old }()
	fn()
	w.Close()
	b := make([]byte, 4096)
	n, _ := r.Read(b)
	return string(b[:n])
}

func goosForTest() string { return runtime.GOOS }
