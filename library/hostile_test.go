package library

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/ingest"
)

// checkOriginals fails unless every stored original hashes to the SHA-256
// its receipt records and its file name carries.
func checkOriginals(t *testing.T, l *Library) {
	t.Helper()
	rows, err := l.List(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rows {
		rec, err := l.Get(s.ID)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(l.OriginalPath(rec))
		if err != nil {
			t.Fatalf("receipt %d: %v", rec.ID, err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != rec.SHA256 || !strings.HasPrefix(filepath.Base(rec.StoredPath), got) {
			t.Errorf("receipt %d: stored bytes hash to %s, the library says %s (%s)", rec.ID, got, rec.SHA256, rec.StoredPath)
		}
		if int64(len(data)) != rec.Size {
			t.Errorf("receipt %d: %d bytes stored, the library says %d", rec.ID, len(data), rec.Size)
		}
	}
}

// A file replaced by rename again and again while it is imported: whatever
// is stored must hash to what the library records.
func TestFileReplacedDuringImportIsStoredUnderItsOwnHash(t *testing.T) {
	l := openTemp(t)
	src := t.TempDir()
	path := filepath.Join(src, "receipt.png")
	var versions [][]byte
	for n := 0; n < 300; n++ {
		data, err := os.ReadFile(uniquePNG(t, t.TempDir(), 1000+n))
		if err != nil {
			t.Fatal(err)
		}
		versions = append(versions, data)
	}
	os.WriteFile(path, versions[0], 0o644)
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; !stop.Load(); i++ {
			tmp := filepath.Join(src, fmt.Sprintf(".next-%d", i))
			os.WriteFile(tmp, versions[i%len(versions)], 0o644)
			os.Rename(tmp, path)
		}
	}()
	for i := 0; i < 60; i++ {
		r := l.ImportFile(ctx, path, ingest.DefaultLimits())
		if r.Outcome == Refused && !strings.Contains(r.Reason, "changed while") {
			t.Errorf("import %d refused: %s", i, r.Reason)
		}
	}
	stop.Store(true)
	<-done
	checkOriginals(t, l)
	// Any version can be imported once the file is still.
	for n, v := range versions[:3] {
		p := filepath.Join(t.TempDir(), "still.png")
		os.WriteFile(p, v, 0o644)
		if r := l.ImportFile(ctx, p, ingest.DefaultLimits()); r.Outcome == Refused {
			t.Errorf("version %d: %s", n, r.Reason)
		}
	}
	checkOriginals(t, l)
}

// A named pipe must be refused at once, not wait for a writer forever.
func TestNamedPipeIsRefusedNotWaitedOn(t *testing.T) {
	l := openTemp(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jpg")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	uniquePNG(t, dir, 7)
	results := make(chan []ImportResult, 1)
	go func() { results <- l.Import(ctx, []string{dir, fifo}, ingest.DefaultLimits(), nil) }()
	select {
	case res := <-results:
		var pipeLines, added int
		for _, r := range res {
			if r.Outcome == Refused && strings.Contains(r.Reason, "named pipe") {
				pipeLines++
			}
			if r.Outcome == Added {
				added++
			}
		}
		if pipeLines != 2 || added != 1 {
			t.Errorf("want the pipe refused twice (in the folder, by name) and the PNG added: %+v", res)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("import hangs on a named pipe")
	}
	f, err := ingest.Probe(ctx, "/dev/zero", ingest.DefaultLimits())
	var ref *ingest.Refusal
	if err == nil || !errorsAs(err, &ref) || !strings.Contains(ref.Reason, "device") {
		t.Errorf("/dev/zero: %+v %v", f, err)
	}
}

func errorsAs(err error, ref **ingest.Refusal) bool {
	return errors.As(err, ref)
}

// The same content under many names in one batch (NFC and NFD spellings of
// one name among them) is added once and reported as a duplicate otherwise.
func TestSameContentTwiceInOneBatchIsADuplicate(t *testing.T) {
	for round := 0; round < 5; round++ {
		l := openTemp(t)
		dir := t.TempDir()
		data, _ := os.ReadFile(uniquePNG(t, t.TempDir(), 42+round))
		names := []string{"caf\u00e9.png", "cafe\u0301.png"}
		for i := 0; i < 14; i++ {
			names = append(names, fmt.Sprintf("copy%02d.png", i))
		}
		for _, n := range names {
			os.WriteFile(filepath.Join(dir, n), data, 0o644)
		}
		res := l.Import(ctx, []string{dir}, ingest.DefaultLimits(), nil)
		var added, dups int
		for _, r := range res {
			switch r.Outcome {
			case Added:
				added++
			case Duplicate:
				dups++
			default:
				t.Errorf("round %d: %s refused: %s", round, filepath.Base(r.Path), r.Reason)
			}
		}
		if added != 1 || dups != len(names)-1 {
			t.Errorf("round %d: %d added, %d duplicates", round, added, dups)
		}
		left, _ := filepath.Glob(filepath.Join(l.Dir(), "thumbs", "*tmp*"))
		left2, _ := filepath.Glob(filepath.Join(l.Dir(), "originals", ".tmp-*"))
		if len(left)+len(left2) > 0 {
			t.Errorf("temporary files left: %v %v", left, left2)
		}
	}
}

// Links to files are followed once; loops, dangling links and links to
// folders each get a line; a linked folder given by name is walked.
func TestSymlinksAreFollowedOrReported(t *testing.T) {
	l := openTemp(t)
	real := t.TempDir()
	target := uniquePNG(t, real, 3)
	dir := t.TempDir()
	os.Symlink(target, filepath.Join(dir, "link.png"))
	os.Symlink(filepath.Join(dir, "nowhere.png"), filepath.Join(dir, "dangling.png"))
	os.Symlink(filepath.Join(dir, "loop2.png"), filepath.Join(dir, "loop1.png"))
	os.Symlink(filepath.Join(dir, "loop1.png"), filepath.Join(dir, "loop2.png"))
	os.Symlink(real, filepath.Join(dir, "folder"))
	res := l.Import(ctx, []string{dir}, ingest.DefaultLimits(), nil)
	want := map[string]string{
		"link.png":     "added",
		"dangling.png": "does not exist",
		"loop1.png":    "loops",
		"loop2.png":    "loops",
		"folder":       "link to a folder",
	}
	got := map[string]string{}
	for _, r := range res {
		got[filepath.Base(r.Path)] = string(r.Outcome) + ": " + r.Reason
	}
	for name, w := range want {
		if !strings.Contains(got[name], w) {
			t.Errorf("%s: got %q, want %q", name, got[name], w)
		}
	}
	// A linked folder given by name: its file is found (a duplicate now).
	linked := filepath.Join(t.TempDir(), "linked")
	os.Symlink(real, linked)
	res = l.Import(ctx, []string{linked}, ingest.DefaultLimits(), nil)
	if len(res) != 1 || res[0].Outcome != Duplicate {
		t.Errorf("linked folder: %+v", res)
	}
}

// Copies a killed import left behind are removed when the library opens.
func TestStaleTemporaryCopiesAreRemovedOnOpen(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	old := time.Now().Add(-time.Hour)
	stale := []string{
		filepath.Join(dir, "originals", ".tmp-import-1"),
		filepath.Join(dir, "originals", "ab", ".tmp-abcd.png-2"),
		filepath.Join(dir, "thumbs", "abcd.jpg.tmp"),
	}
	young := filepath.Join(dir, "originals", ".tmp-import-young")
	for _, p := range append(stale, young) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	for _, p := range stale {
		os.Chtimes(p, old, old)
	}
	l, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, p := range stale {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("a copy another import may be writing was removed: %v", err)
	}
}
