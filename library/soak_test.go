package library

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/receipt"
)

// soakChild is one of two programs sharing a library: it imports, reads
// (claims and saves readings), edits and exports (streams every record) in a
// random mix until it is killed, printing each edit once it is committed.
func soakChild(dir string) {
	l, err := Open(dir)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	out := bufio.NewWriter(os.Stdout)
	fail := func(what string, err error) {
		fmt.Fprintln(out, "error", what, err)
		out.Flush()
		os.Exit(1)
	}
	src, _ := os.MkdirTemp(filepath.Dir(dir), "soak-src-") // beside the library, in the test's own temporary folder: the killed child cannot clean up
	name := os.Getenv("SHOEBOX_SOAK_NAME")
	seq := time.Now().UnixNano() // edits are numbered in time, across restarts
	var mine []int64
	for i := 0; ; i++ {
		switch op := rand.IntN(10); {
		case op < 3: // import a batch of new files (with one twin)
			var paths []string
			for j := 0; j < 3; j++ {
				paths = append(paths, uniquePNG(&testing.T{}, src, int(seq%1e9)+i*10+j))
			}
			twin := filepath.Join(src, fmt.Sprintf("twin-%d.png", i))
			data, _ := os.ReadFile(paths[0])
			os.WriteFile(twin, data, 0o644)
			for _, r := range l.Import(ctx, append(paths, twin), ingest.DefaultLimits(), nil) {
				if r.Outcome == Refused {
					fail("import", fmt.Errorf("%s: %s", r.Path, r.Reason))
				}
				if r.Outcome == Added {
					mine = append(mine, r.ID)
					if _, err := l.Enqueue(ctx, []int64{r.ID}, false); err != nil {
						fail("enqueue", err)
					}
				}
			}
		case op < 6: // read one receipt from the queue
			id, ok, err := l.NextQueued(ctx)
			if err != nil {
				fail("claim", err)
			}
			if ok {
				time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond)
				r := extracted("Soak Shop "+name, time.Date(2025, 3, 1+rand.IntN(27), 0, 0, 0, 0, time.UTC), fmt.Sprintf("%d.%02d", rand.IntN(100), rand.IntN(100)))
				r.Notes = receipt.Of("read by the engine", receipt.SourceOCR, 0.5)
				if err := l.SaveExtraction(ctx, id, r, "soak", receipt.SourceOCR); err != nil {
					fail("save", err)
				}
			}
		case op < 9: // a person edits one of this program's receipts
			if len(mine) == 0 {
				continue
			}
			id := mine[rand.IntN(len(mine))]
			seq++
			if err := l.EditField(ctx, id, "notes", fmt.Sprintf("edit %d", seq)); err != nil {
				fail("edit", err)
			}
			fmt.Fprintf(out, "edit %d %d\n", id, seq)
			out.Flush()
		default: // export: stream every record
			for _, err := range l.Records(Filter{}) {
				if err != nil {
					fail("export", err)
				}
			}
		}
	}
}

// Two programs import, read, edit and export on one library while one or
// the other is killed with SIGKILL at random moments. Afterwards the
// database is sound, every original hashes to its name, no receipt is stuck
// and every committed edit is there.
func TestSoakTwoProgramsWithRandomKills(t *testing.T) {
	if testing.Short() {
		t.Skip("soak test: skipped with -short")
	}
	length := 20 * time.Second
	if s := os.Getenv("SHOEBOX_SOAK_SECONDS"); s != "" {
		n, _ := strconv.Atoi(s)
		length = time.Duration(n) * time.Second
	}
	dir := t.TempDir()
	var mu sync.Mutex
	lastEdit := map[int64]int64{}
	var errs []string
	kills := 0
	start := func(name string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SHOEBOX_SOAK_CHILD="+dir, "SHOEBOX_SOAK_NAME="+name)
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				mu.Lock()
				switch {
				case len(f) == 3 && f[0] == "edit":
					id, _ := strconv.ParseInt(f[1], 10, 64)
					seq, _ := strconv.ParseInt(f[2], 10, 64)
					lastEdit[id] = max(lastEdit[id], seq)
				default:
					errs = append(errs, name+": "+sc.Text())
				}
				mu.Unlock()
			}
		}()
		return cmd
	}
	procs := []*exec.Cmd{start("a"), start("b")}
	end := time.Now().Add(length)
	for time.Now().Before(end) {
		time.Sleep(time.Duration(200+rand.IntN(1300)) * time.Millisecond)
		i := rand.IntN(2)
		procs[i].Process.Signal(syscall.SIGKILL)
		procs[i].Wait()
		kills++
		procs[i] = start(string(rune('a' + i)))
	}
	for _, p := range procs {
		p.Process.Signal(syscall.SIGKILL)
		p.Wait()
	}
	time.Sleep(100 * time.Millisecond) // let the readers drain the pipes
	mu.Lock()
	defer mu.Unlock()
	for _, e := range errs {
		t.Error(e)
	}

	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.IntegrityCheck(); err != nil {
		t.Fatal(err)
	}
	checkOriginals(t, l)
	// What the killed programs were reading comes back to the next run.
	before, _ := l.Counts()
	read := 0
	for {
		id, ok, err := l.NextQueued(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if err := l.SaveExtraction(ctx, id, extracted("Last Run", time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC), "1.00"), "soak", receipt.SourceOCR); err != nil {
			t.Fatal(err)
		}
		read++
	}
	counts, _ := l.Counts()
	if counts[StatusExtracting] != 0 || counts[StatusQueued] != 0 || counts[StatusFailed] != 0 {
		t.Errorf("receipts stuck after the last run: %v", counts)
	}
	for id, seq := range lastEdit {
		rec, err := l.Get(id)
		if err != nil {
			t.Errorf("edited receipt %d lost: %v", id, err)
			continue
		}
		var got int64
		fmt.Sscanf(rec.Receipt.Notes.Value, "edit %d", &got)
		if got < seq || rec.Receipt.Notes.Source != receipt.SourceUser {
			t.Errorf("receipt %d: notes %q (%s), want edit %d or later", id, rec.Receipt.Notes.Value, rec.Receipt.Notes.Source, seq)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, "originals", ".tmp-*"))
	total := 0
	for _, n := range counts {
		total += n
	}
	t.Logf("%s, %d kills: %d receipts (%v), %d edited, %d left to the last run (%d of them left extracting by killed programs), %d temporary copies left for the next Open to clear",
		length, kills, total, counts, len(lastEdit), read, before[StatusExtracting], len(left))
}
