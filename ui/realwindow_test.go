package ui

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// windowArgsEnv makes the test binary start the real app (ui.Main, the GLFW
// driver) with these arguments, separated by \x1f, instead of running tests:
// the window tests below start it under Xvfb and press keys with xdotool.
const windowArgsEnv = "SHOEBOX_TEST_WINDOW_ARGS"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(windowArgsEnv); ok {
		os.Exit(Main(strings.Split(args, "\x1f"), "test"))
	}
	onMain = queueOnMain
	os.Exit(m.Run())
}

// xvfb starts a virtual 1366×768 screen and returns its display name. It
// skips the test where Xvfb or xdotool is not installed (make test installs
// them) or in -short runs.
func xvfb(t *testing.T) string {
	t.Helper()
	return xvfbSized(t, 1366, 768)
}

// xvfbSized starts a virtual screen of width×height pixels.
func xvfbSized(t *testing.T, width, height int) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts the real window under Xvfb")
	}
	for _, tool := range []string{"Xvfb", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (apt-get install xvfb xdotool)", tool)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", width, height), "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			t.Fatal("Xvfb did not start")
		}
		return ":" + n
	case <-time.After(20 * time.Second):
		t.Fatal("Xvfb did not start in 20 s")
	}
	return ""
}

// realWindow is the app running in a child process on an Xvfb display.
type realWindow struct {
	t       *testing.T
	display string
	cmd     *exec.Cmd
	log     syncBuffer
	id      string // the X window
}

// syncBuffer is the app's output, written by exec's copying goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitLog waits until the app has printed s.
func (rw *realWindow) waitLog(s string) {
	rw.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(rw.log.String(), s) {
		if time.Now().After(deadline) {
			rw.t.Fatalf("the app did not print %q:\n%s", s, rw.log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func startWindow(t *testing.T, display string, args ...string) *realWindow {
	t.Helper()
	rw := &realWindow{t: t, display: display}
	rw.cmd = exec.Command(os.Args[0], "-test.run=^$")
	rw.cmd.Env = append(os.Environ(), "DISPLAY="+display, "LIBGL_ALWAYS_SOFTWARE=1",
		"XDG_CONFIG_HOME="+t.TempDir(), windowArgsEnv+"="+strings.Join(args, "\x1f"))
	rw.cmd.Stdout, rw.cmd.Stderr = &rw.log, &rw.log
	if err := rw.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rw.stop)
	rw.id = strings.Fields(rw.xdo(30*time.Second, "search", "--sync", "--onlyvisible", "--name", "Shoebox"))[0]
	rw.xdo(10*time.Second, "windowfocus", "--sync", rw.id)
	return rw
}

func (rw *realWindow) stop() {
	if rw.cmd.ProcessState == nil {
		rw.cmd.Process.Kill()
		rw.cmd.Wait()
	}
}

func (rw *realWindow) xdo(timeout time.Duration, args ...string) string {
	rw.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+rw.display)
	out, err := cmd.Output()
	if err != nil {
		rw.t.Fatalf("xdotool %s: %v\napp log:\n%s", strings.Join(args, " "), err, rw.log.String())
	}
	return string(out)
}

func (rw *realWindow) title() string {
	return strings.TrimSpace(rw.xdo(5*time.Second, "getwindowname", rw.id))
}

// waitTitle waits until the window's title starts with prefix: it names the
// receipt on screen.
func (rw *realWindow) waitTitle(prefix string) {
	rw.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.HasPrefix(rw.title(), prefix) {
		if time.Now().After(deadline) {
			rw.t.Fatalf("the window's title is %q, want it to start with %q", rw.title(), prefix)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// key presses keys in the window as a person would ("ctrl+Down").
func (rw *realWindow) key(keys string) {
	rw.t.Helper()
	rw.xdo(5*time.Second, "key", "--window", rw.id, "--clearmodifiers", keys)
}

// readLibrary makes a library of n read receipts, all waiting to be checked.
func readLibrary(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if err := lib.SetLocale(receipt.DefaultLocale(receipt.CountryAU)); err != nil {
		t.Fatal(err)
	}
	for i, res := range lib.Import(context.Background(), pngFiles(t, n), ingest.DefaultLimits(), nil) {
		r := receipt.Receipt{
			SupplierName: receipt.Of(fmt.Sprintf("Shop %d", i+1), receipt.SourceOCR, 0.95),
			Total:        receipt.Of(decimal.New(int64(i+1)*100, -2), receipt.SourceOCR, 0.95),
			TotalTax:     receipt.Of(decimal.Zero, receipt.SourceOCR, 0.4), // unsure: needs review
		}
		if err := lib.SaveExtraction(context.Background(), res.ID, r, "ocr", receipt.SourceOCR); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func status(t *testing.T, dir string, id int64) library.Status {
	t.Helper()
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	rec, err := lib.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Status
}

// TestShortcutsInTheRealWindow presses the advertised keys in the real
// window (GLFW under Xvfb, keys from xdotool), with the focus nowhere and
// with the cursor in a field: a shortcut the driver never delivers fails
// here, whatever its handler does when called directly.
func TestShortcutsInTheRealWindow(t *testing.T) {
	display := xvfb(t)
	dir := readLibrary(t, 3)

	w := startWindow(t, display, "--library", dir)
	w.waitTitle("#1 Shop 1")
	w.key("ctrl+Down")
	w.waitTitle("#2 Shop 2")
	w.key("ctrl+Down")
	w.waitTitle("#3 Shop 3")
	w.key("ctrl+Up")
	w.waitTitle("#2 Shop 2")
	w.key("ctrl+Up")
	w.waitTitle("#1 Shop 1")
	w.key("ctrl+Return") // confirms #1 and goes to the next to check
	w.waitTitle("#2 Shop 2")
	w.stop()
	if s := status(t, dir, 1); s != library.StatusConfirmed {
		t.Fatalf("after Ctrl+Enter receipt 1 is %s", s)
	}

	// The cursor in the total's text box: the keys still move and confirm.
	w = startWindow(t, display, "--library", dir, "--show", "3", "--focus", "total")
	w.waitTitle("#3 Shop 3")
	w.waitLog("focused total")
	w.key("ctrl+Up")
	w.waitTitle("#2 Shop 2")
	w.key("ctrl+Return")
	w.waitTitle("#3 Shop 3")
	// Ctrl+Z in the field is Shoebox's undo: the typed digit is saved and
	// undone, and the total is the engine's reading again, not a person's.
	w.xdo(5*time.Second, "type", "--window", w.id, "5")
	time.Sleep(300 * time.Millisecond)
	w.key("ctrl+z")
	waitPersonChanges(t, dir, 3, 2) // the typed edit and its undo
	w.stop()
	if s := status(t, dir, 2); s != library.StatusConfirmed {
		t.Fatalf("after Ctrl+Enter in a field receipt 2 is %s", s)
	}
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	rec, _ := lib.Get(3)
	hist, _ := lib.History(3)
	var kinds []string
	for _, h := range hist {
		if h.Who == receipt.SourceUser {
			kinds = append(kinds, h.Kind+" "+h.Field+" "+h.Old+"→"+h.New)
		}
	}
	if rec.Receipt.Total.Value.String() != "3" || rec.Receipt.Total.Source != receipt.SourceOCR || len(kinds) != 2 {
		t.Errorf("after typing 5 and Ctrl+Z the total is %+v; a person's changes: %v", rec.Receipt.Total, kinds)
	}
}

// waitPersonChanges waits until receipt id's history holds n changes made
// by a person, reading the database file while the app runs.
func waitPersonChanges(t *testing.T, dir string, id int64, n int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "library.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var got int
		db.QueryRow(`SELECT count(*) FROM history WHERE receipt_id = ? AND who = 'user'`, id).Scan(&got)
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("receipt %d has %d changes by a person, want %d", id, got, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
