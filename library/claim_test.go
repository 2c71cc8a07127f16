package library

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/receipt"
)

// deadOwner names a program on this host that has ended.
func deadOwner(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	return fmt.Sprintf("%s|%d|1", host, cmd.Process.Pid)
}

// claimFor marks a receipt extracting by owner, as another program's
// NextQueued would have.
func claimFor(t *testing.T, l *Library, id int64, owner string, until time.Time) {
	t.Helper()
	if _, err := l.db.Exec(`UPDATE receipts SET status = ?, claim_owner = ?, claim_until = ? WHERE id = ?`,
		string(StatusExtracting), owner, until.UTC().Format(time.RFC3339Nano), id); err != nil {
		t.Fatal(err)
	}
}

// A receipt left "extracting" by a killed program is read again by the
// next run's NextQueued, whatever that program is.
func TestAbandonedClaimIsTakenBack(t *testing.T) {
	l := openTemp(t)
	dead := importOne(t, l, 1)
	expired := importOne(t, l, 2)
	claimFor(t, l, dead, deadOwner(t), time.Now().Add(time.Hour))
	host, _ := os.Hostname()
	claimFor(t, l, expired, host+"|1|1", time.Now().Add(-time.Second)) // pid 1 lives: only the lease tells
	got := map[int64]bool{}
	for {
		id, ok, err := l.NextQueued(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got[id] = true
	}
	if !got[dead] || !got[expired] {
		t.Errorf("taken back: %v, want %d (reader killed) and %d (lease ran out)", got, dead, expired)
	}
}

// A receipt another live program is reading is left to it.
func TestLiveClaimIsNotTaken(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	id := importOne(t, a, 1)
	a.Enqueue(ctx, []int64{id}, false)
	host, _ := os.Hostname()
	claimFor(t, a, id, fmt.Sprintf("%s|1|%s", host, processStart(1)), time.Now().Add(time.Hour))
	if _, ok, _ := a.NextQueued(ctx); ok {
		t.Error("a live program's receipt was taken")
	}
	if n, _ := a.ResumeInterrupted(ctx); n != 0 {
		t.Error("resume took a live program's receipt")
	}
}

// Leases are renewed while the reader lives, so a long page keeps its claim.
func TestClaimIsRenewed(t *testing.T) {
	old := LeaseTime
	LeaseTime = 400 * time.Millisecond
	defer func() { LeaseTime = old }()
	l := openTemp(t)
	id := importOne(t, l, 1)
	l.Enqueue(ctx, []int64{id}, false)
	if _, ok, _ := l.NextQueued(ctx); !ok {
		t.Fatal("nothing claimed")
	}
	time.Sleep(3 * LeaseTime)
	if n, _ := l.ResumeInterrupted(ctx); n != 0 {
		t.Error("a renewed claim was taken back")
	}
}

// Two programs on one library (two connections pools, as two processes
// have) import, edit and read at once: slower, never an error.
func TestTwoProgramsOnOneLibraryBothWork(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	src := t.TempDir()
	var files []string
	for i := 0; i < 120; i++ {
		files = append(files, uniquePNG(t, src, i))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	importing := make(chan struct{})
	wg.Add(2)
	go func() { // the importer, editing as it goes
		defer wg.Done()
		defer close(importing)
		for _, r := range a.Import(ctx, files, ingest.DefaultLimits(), nil) {
			if r.Outcome != Added {
				errs <- fmt.Errorf("import %s: %s", r.Path, r.Reason)
				continue
			}
			if err := a.EditField(ctx, r.ID, "notes", "checked"); err != nil {
				errs <- fmt.Errorf("edit %d: %w", r.ID, err)
			}
			if _, err := a.Enqueue(ctx, []int64{r.ID}, false); err != nil {
				errs <- fmt.Errorf("enqueue %d: %w", r.ID, err)
			}
		}
	}()
	go func() { // the reader, until the importer is done and the queue empty
		defer wg.Done()
		lastLook := false
		for {
			id, ok, err := b.NextQueued(ctx)
			if err != nil {
				errs <- fmt.Errorf("claim: %w", err)
				return
			}
			if !ok {
				if lastLook {
					return
				}
				select {
				case <-importing:
					lastLook = true
				case <-time.After(5 * time.Millisecond):
				}
				continue
			}
			lastLook = false
			r := extracted("Shop", time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), "9.90")
			if err := b.SaveExtraction(ctx, id, r, "test", receipt.SourceOCR); err != nil {
				errs <- fmt.Errorf("save %d: %w", id, err)
			}
		}
	}()
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n++; n <= 5 {
			t.Error(err)
		}
	}
	counts, _ := a.Counts()
	if counts[StatusExtracting]+counts[StatusFailed]+counts[StatusQueued]+counts[StatusNew] != 0 {
		t.Errorf("counts after both finished: %v", counts)
	}
}

// A person's edit made while the receipt waits in the queue survives the
// reading; the reading fills only the fields nobody touched.
func TestEditWhileQueuedWinsOverExtraction(t *testing.T) {
	l := openTemp(t)
	id := importOne(t, l, 1)
	l.Enqueue(ctx, []int64{id}, false)
	if err := l.EditField(ctx, id, "supplier_name", "Corner Bakery"); err != nil {
		t.Fatal(err)
	}
	if err := l.EditField(ctx, id, "notes", "paid cash"); err != nil {
		t.Fatal(err)
	}
	if err := l.EditField(ctx, id, "line_items[0].description", "bread"); err != nil {
		t.Fatal(err)
	}
	got, ok, err := l.NextQueued(ctx)
	if err != nil || !ok || got != id {
		t.Fatalf("claim: %d %v %v", got, ok, err)
	}
	read := extracted("C0RNER 8AKERY", time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), "9.90")
	read.Notes = receipt.Of("ocr note", receipt.SourceOCR, 0.5)
	read.LineItems = []receipt.LineItem{{Description: receipt.Of("8READ", receipt.SourceOCR, 0.5)}}
	if err := l.SaveExtraction(ctx, id, read, "ocr", receipt.SourceOCR); err != nil {
		t.Fatal(err)
	}
	rec, _ := l.Get(id)
	if v := rec.Receipt.SupplierName.Value; v != "Corner Bakery" {
		t.Errorf("supplier = %q, the person's edit was overwritten", v)
	}
	if v := rec.Receipt.Notes.Value; v != "paid cash" {
		t.Errorf("notes = %q", v)
	}
	if len(rec.Receipt.LineItems) != 1 || rec.Receipt.LineItems[0].Description.Value != "bread" {
		t.Errorf("line items = %+v", rec.Receipt.LineItems)
	}
	if !rec.Receipt.Total.Set || rec.Receipt.Total.Value.String() != "9.9" {
		t.Errorf("the reading did not fill the untouched total: %+v", rec.Receipt.Total)
	}
}

// The form adds a line with EditField("line_items[N]...") where N is the
// number of lines so far.
func TestEditFieldOnePastTheLastRowAddsARow(t *testing.T) {
	l := openTemp(t)
	id := importOne(t, l, 1)
	for i, d := range []string{"bread", "milk"} {
		if err := l.EditField(ctx, id, fmt.Sprintf("line_items[%d].description", i), d); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
	}
	if err := l.EditField(ctx, id, "tax_lines[0].label", "GST"); err != nil {
		t.Fatal(err)
	}
	if err := l.EditField(ctx, id, "line_items[5].description", "x"); err == nil {
		t.Error("a row far past the end was accepted")
	}
	rec, _ := l.Get(id)
	if len(rec.Receipt.LineItems) != 2 || rec.Receipt.LineItems[1].Description.Value != "milk" || len(rec.Receipt.TaxLines) != 1 {
		t.Errorf("rows: %+v %+v", rec.Receipt.LineItems, rec.Receipt.TaxLines)
	}
}
