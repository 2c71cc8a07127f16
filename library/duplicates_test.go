package library

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/shoebox-app/shoebox/receipt"
)

// twoCopies reads receipts a and b as the same purchase: b is a probable
// duplicate of a, and a, saved again, one of b (the guess runs on every save).
func twoCopies(t *testing.T, l *Library) (a, b int64) {
	t.Helper()
	a, b = importOne(t, l, 1), importOne(t, l, 2)
	for _, id := range []int64{a, b} {
		if err := l.SaveExtraction(ctx, id, extracted("Soon Huat Sdn Bhd", receipt.Date(2025, 7, 1), "327.00"), "ocr", receipt.SourceOCR); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.EditField(ctx, a, "category", "Hardware"); err != nil {
		t.Fatal(err)
	}
	recA, _ := l.Get(a)
	recB, _ := l.Get(b)
	if recB.DuplicateOf != a || recA.DuplicateOf != b || !hasFinding(recA, FindDuplicate) || !hasFinding(recB, FindDuplicate) {
		t.Fatalf("not guessed as copies of each other: a→%d %v, b→%d %v", recA.DuplicateOf, recA.Findings, recB.DuplicateOf, recB.Findings)
	}
	return a, b
}

func hasFinding(rec Record, code string) bool {
	return slices.ContainsFunc(rec.Findings, func(f receipt.Finding) bool { return f.Code == code })
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A receipt a person marks as a copy leaves review and its original's
// warning goes; no later save of either receipt, nor a reading, undoes it.
func TestMarkedDuplicateLeavesReviewAndStays(t *testing.T) {
	l := openTemp(t)
	a, b := twoCopies(t, l)
	must(t, l.MarkDuplicate(ctx, b, a))

	recA, _ := l.Get(a)
	recB, _ := l.Get(b)
	if recB.Status != StatusDuplicate || recB.DuplicateOf != a || !hasFinding(recB, FindMarkedDuplicate) || hasFinding(recB, FindDuplicate) {
		t.Fatalf("b after marking: %s of %d, findings %+v", recB.Status, recB.DuplicateOf, recB.Findings)
	}
	if recA.DuplicateOf != 0 || hasFinding(recA, FindDuplicate) || !hasFinding(recA, FindHasCopies) {
		t.Errorf("the original still warns: of %d, findings %+v", recA.DuplicateOf, recA.Findings)
	}
	if next, ok, _ := l.NextForReview(0); !ok || next != a {
		t.Errorf("next to check is %d (%v), want only %d", next, ok, a)
	}
	if next, ok, _ := l.NextForReview(a); !ok || next != a {
		t.Errorf("after %d the next to check is %d, not the duplicate's turn", a, next)
	}
	counts, _ := l.Counts()
	if counts[StatusDuplicate] != 1 || counts[StatusNeedsReview]+counts[StatusExtracted] != 1 {
		t.Errorf("counts %v", counts)
	}
	if rows, _ := l.List(Filter{Statuses: []Status{StatusNeedsReview, StatusExtracted}}); len(rows) != 1 || rows[0].ID != a {
		t.Errorf("to check: %+v", rows)
	}

	// The misread total on the copy is put right; the original is edited.
	must(t, l.EditField(ctx, b, "total", "372.00"))
	must(t, l.EditField(ctx, a, "supplier_name", "Soon Huat"))
	must(t, l.EditField(ctx, b, "supplier_name", "Soon Huat"))
	if err := l.SaveExtraction(ctx, b, extracted("Other Shop", receipt.Date(2025, 8, 1), "1.00"), "ocr", receipt.SourceOCR); err != nil {
		t.Fatal(err)
	}
	recA, _ = l.Get(a)
	recB, _ = l.Get(b)
	if recB.Status != StatusDuplicate || recB.DuplicateOf != a {
		t.Errorf("edits undid the mark: b is %s of %d", recB.Status, recB.DuplicateOf)
	}
	if recA.DuplicateOf != 0 || hasFinding(recA, FindDuplicate) {
		t.Errorf("the original's warning came back: %+v", recA.Findings)
	}

	if err := l.Confirm(ctx, b); err == nil {
		t.Error("a duplicate was confirmed")
	}
	if n, err := l.Enqueue(ctx, []int64{b}, true); err != nil || n != 0 {
		t.Errorf("a duplicate was queued to be read again: %d %v", n, err)
	}
	hist, _ := l.History(b)
	marked := slices.ContainsFunc(hist, func(c Change) bool {
		return c.Field == DuplicateField && c.Who == receipt.SourceUser && c.Old == "" && c.New == judgement{other: a, copy: true}.String()
	})
	moved := slices.ContainsFunc(hist, func(c Change) bool {
		return c.Kind == "status" && c.Old == string(StatusNeedsReview) && c.New == string(StatusDuplicate)
	})
	if !marked || !moved {
		t.Errorf("history %+v", hist)
	}
	if err := l.MarkDuplicate(ctx, a, a); err == nil {
		t.Error("a receipt was marked as its own copy")
	}
	if err := l.MarkDuplicate(ctx, a, 99); err == nil {
		t.Error("a receipt was marked as a copy of one that does not exist")
	}
	c := importOne(t, l, 3)
	if err := l.MarkDuplicate(ctx, c, b); err == nil {
		t.Error("a receipt was marked as a copy of a copy")
	}
	if err := l.MarkDuplicate(ctx, a, b); err == nil {
		t.Error("a receipt was marked as a copy of its own copy")
	}
}

// "Not a duplicate" dismisses the guess for that pair for good, whichever
// receipt is saved; a third copy is still caught.
func TestNotDuplicateSurvivesSaves(t *testing.T) {
	l := openTemp(t)
	a, b := twoCopies(t, l)
	must(t, l.NotDuplicate(ctx, b))
	for _, edit := range []struct {
		id          int64
		field, text string
	}{{b, "notes", "two coffees"}, {a, "category", "Meals"}, {b, "total", "327.01"}} {
		must(t, l.EditField(ctx, edit.id, edit.field, edit.text))
		for _, id := range []int64{a, b} {
			if rec, _ := l.Get(id); rec.DuplicateOf != 0 || hasFinding(rec, FindDuplicate) {
				t.Fatalf("after editing %d's %s, %d is linked to %d again: %+v", edit.id, edit.field, id, rec.DuplicateOf, rec.Findings)
			}
		}
	}
	if rec, _ := l.Get(b); rec.Status == StatusDuplicate {
		t.Errorf("b is %s", rec.Status)
	}
	c := importOne(t, l, 3)
	must(t, l.SaveExtraction(ctx, c, extracted("Soon Huat Sdn Bhd", receipt.Date(2025, 7, 1), "327.00"), "ocr", receipt.SourceOCR))
	if rec, _ := l.Get(c); rec.DuplicateOf != a {
		t.Errorf("a third copy is linked to %d, want %d", rec.DuplicateOf, a)
	}
	if err := l.NotDuplicate(ctx, b); err == nil {
		t.Error("b is linked to nothing, and saying it is not a duplicate made no error")
	}
}

// "Not a duplicate" on a marked copy puts it back where it was (a confirmed
// receipt edited meanwhile goes to review) and keeps the pair apart.
func TestUnmarkingPutsTheStatusBack(t *testing.T) {
	l := openTemp(t)
	a, b := twoCopies(t, l)
	must(t, l.Confirm(ctx, b))
	must(t, l.MarkDuplicate(ctx, b, a))
	must(t, l.NotDuplicate(ctx, b))
	rec, _ := l.Get(b)
	if rec.Status != StatusConfirmed || rec.DuplicateOf != 0 || hasFinding(rec, FindMarkedDuplicate) {
		t.Fatalf("unmarked: %s, of %d, %+v", rec.Status, rec.DuplicateOf, rec.Findings)
	}
	if recA, _ := l.Get(a); hasFinding(recA, FindHasCopies) || recA.DuplicateOf != 0 {
		t.Errorf("a still names its copy: %+v", recA.Findings)
	}
	// Marked again (the person changed their mind), edited while marked.
	must(t, l.MarkDuplicate(ctx, b, a))
	must(t, l.EditField(ctx, b, "notes", "checked against the bank"))
	must(t, l.NotDuplicate(ctx, b))
	if rec, _ := l.Get(b); rec.Status != StatusNeedsReview {
		t.Errorf("a confirmed receipt edited while marked came back %s", rec.Status)
	}
}

// Ctrl+Z takes back a mark and a dismissal like a field edit.
func TestUndoTakesBackAWordOnADuplicate(t *testing.T) {
	l := openTemp(t)
	a, b := twoCopies(t, l)
	must(t, l.MarkDuplicate(ctx, b, a))
	edits, _ := l.UndoableEdits(1)
	if len(edits) != 1 || edits[0].ReceiptID != b || edits[0].Field != DuplicateField || edits[0].New != (judgement{other: a, copy: true}).String() {
		t.Fatalf("undo list %+v", edits)
	}
	e, ok, err := l.UndoLatest(ctx)
	if err != nil || !ok || e.Field != DuplicateField {
		t.Fatalf("undo: %+v %v %v", e, ok, err)
	}
	rec, _ := l.Get(b)
	if rec.Status != StatusNeedsReview || rec.DuplicateOf != a || !hasFinding(rec, FindDuplicate) {
		t.Fatalf("after undoing the mark: %s of %d, %+v", rec.Status, rec.DuplicateOf, rec.Findings)
	}
	must(t, l.NotDuplicate(ctx, b))
	if _, _, err := l.UndoLatest(ctx); err != nil {
		t.Fatal(err)
	}
	if rec, _ := l.Get(b); rec.DuplicateOf != a || !hasFinding(rec, FindDuplicate) {
		t.Errorf("after undoing the dismissal: of %d, %+v", rec.DuplicateOf, rec.Findings)
	}
	// Marked, then dismissed: undone one after the other.
	must(t, l.MarkDuplicate(ctx, b, a))
	must(t, l.NotDuplicate(ctx, b))
	if _, _, err := l.UndoLatest(ctx); err != nil {
		t.Fatal(err)
	}
	if rec, _ := l.Get(b); rec.Status != StatusDuplicate || rec.DuplicateOf != a {
		t.Errorf("undoing the dismissal of a mark: %s of %d", rec.Status, rec.DuplicateOf)
	}
	if _, _, err := l.UndoLatest(ctx); err != nil {
		t.Fatal(err)
	}
	if rec, _ := l.Get(b); rec.Status != StatusNeedsReview {
		t.Errorf("undoing the mark: %s", rec.Status)
	}
	// The field edit made before any of it is next.
	if e, ok, err := l.UndoLatest(ctx); err != nil || !ok || e.Field != "category" || e.ReceiptID != a {
		t.Errorf("next undo %+v %v %v", e, ok, err)
	}
}

// A receipt leaving the library (moved to another client) leaves no link
// to it: its marked copies go back to the status they had, and moved
// itself, a copy arrives as a receipt of its own.
func TestMovingTheOriginalFreesItsCopies(t *testing.T) {
	l := openTemp(t)
	a, b := twoCopies(t, l)
	c := importOne(t, l, 3)
	must(t, l.SaveExtraction(ctx, c, extracted("Soon Huat Sdn Bhd", receipt.Date(2025, 7, 1), "327.00"), "ocr", receipt.SourceOCR))
	must(t, l.MarkDuplicate(ctx, b, a))

	// b moves to another client first: it arrives unmarked, and a no longer names it.
	other := openTemp(t)
	recB, _ := l.Get(b)
	hist, _ := l.History(b)
	nb, err := other.Receive(ctx, Arrival{Record: recB, Path: l.OriginalPath(recB), History: hist, Note: "moved"})
	must(t, err)
	must(t, l.Release(ctx, b))
	if rec, _ := other.Get(nb); rec.Status != StatusNeedsReview || rec.DuplicateOf != 0 || hasFinding(rec, FindMarkedDuplicate) {
		t.Errorf("the moved copy arrived %s of %d, %+v", rec.Status, rec.DuplicateOf, rec.Findings)
	}
	if rec, _ := l.Get(a); hasFinding(rec, FindHasCopies) {
		t.Errorf("a names the copy that left: %+v", rec.Findings)
	}

	// c is marked a copy of a; a leaves.
	must(t, l.MarkDuplicate(ctx, c, a))
	must(t, l.Release(ctx, a))
	rec, _ := l.Get(c)
	if rec.Status != StatusNeedsReview || rec.DuplicateOf != 0 || hasFinding(rec, FindMarkedDuplicate) || hasFinding(rec, FindDuplicate) {
		t.Errorf("the copy of a receipt that left: %s of %d, %+v", rec.Status, rec.DuplicateOf, rec.Findings)
	}
	hist, _ = l.History(c)
	if !slices.ContainsFunc(hist, func(ch Change) bool { return ch.Field == DuplicateField && ch.Who == "system" && ch.New == "" }) {
		t.Errorf("history does not say why c is no longer a copy: %+v", hist)
	}
	// Undoing the mark of a copy whose original left changes nothing, and
	// the undo goes on further back.
	e, ok, err := l.UndoLatest(ctx)
	if err != nil || !ok || e.ReceiptID != c || e.Field != DuplicateField {
		t.Fatalf("undo: %+v %v %v", e, ok, err)
	}
	if rec, _ := l.Get(c); rec.Status != StatusNeedsReview {
		t.Errorf("after the undo c is %s", rec.Status)
	}
	if edits, _ := l.UndoableEdits(5); slices.ContainsFunc(edits, func(e Edit) bool { return e.ReceiptID == c }) {
		t.Errorf("c's mark is still to undo: %+v", edits)
	}
}

// A library written before people's words on duplicates were kept opens,
// its guesses stand as guesses, and an old mark in the undo list is
// undone without harm.
func TestMigrationKeepsOldDuplicatesAsGuesses(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"originals", "thumbs"} {
		must(t, os.MkdirAll(filepath.Join(dir, sub), 0o700))
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, dbName)+"?_pragma=foreign_keys(1)")
	must(t, err)
	must(t, execAll(db, `CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version (version) VALUES (7);`))
	for _, m := range migrations[:7] {
		must(t, execAll(db, m))
	}
	must(t, execAll(db, `
		INSERT INTO receipts (id, sha256, original_name, source_path, stored_path, kind, size, pages, status, imported_at, updated_at, engine, supplier, supplier_key, date, total, currency, duplicate_of)
		VALUES (1, 'a', 'a.png', '/a.png', 'originals/a.png', 'image', 1, 1, 'confirmed', '2025-07-01T00:00:00Z', '2025-07-01T00:00:00Z', 'ocr', 'Kedai', 'kedai', '2025-07-01', '9.5', 'AUD', NULL),
		       (2, 'b', 'b.png', '/b.png', 'originals/b.png', 'image', 1, 1, 'needs_review', '2025-07-01T00:00:00Z', '2025-07-01T00:00:00Z', 'ocr', 'Kedai', 'kedai', '2025-07-01', '9.5', 'AUD', 1);
		INSERT INTO history (receipt_id, at, who, kind, field, old, new) VALUES (2, '2025-07-02T00:00:00Z', 'user', 'field', 'duplicate_of', '0', '1');`))
	must(t, db.Close())

	l, err := Open(dir)
	must(t, err)
	defer l.Close()
	var v int
	must(t, l.db.QueryRow(`SELECT version FROM schema_version`).Scan(&v))
	if v != len(migrations) {
		t.Fatalf("schema %d, want %d", v, len(migrations))
	}
	rec, err := l.Get(2)
	must(t, err)
	if rec.Status != StatusNeedsReview || rec.DuplicateOf != 1 {
		t.Errorf("an old guess became %s of %d", rec.Status, rec.DuplicateOf)
	}
	if next, ok, _ := l.NextForReview(0); !ok || next != 2 {
		t.Errorf("the old guess left review: next %d %v", next, ok)
	}
	e, ok, err := l.UndoLatest(ctx)
	if err != nil || !ok || e.Field != "duplicate_of" {
		t.Fatalf("undoing an old mark: %+v %v %v", e, ok, err)
	}
	if edits, _ := l.UndoableEdits(5); len(edits) != 0 {
		t.Errorf("the old mark is still to undo: %+v", edits)
	}
	must(t, l.MarkDuplicate(ctx, 2, 1))
	if rec, _ := l.Get(2); rec.Status != StatusDuplicate {
		t.Errorf("marked in the upgraded library: %s", rec.Status)
	}
}

func execAll(db *sql.DB, q string) error {
	_, err := db.Exec(q)
	return err
}
