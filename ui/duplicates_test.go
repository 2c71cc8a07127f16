package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// threeReceipts are a, b (two photos of one purchase: b is a probable
// duplicate of a) and c, another purchase.
func threeReceipts(t *testing.T, u *UI) (a, b, c int64) {
	t.Helper()
	addPaths(u, pngFiles(t, 3))
	u.list.mu.Lock()
	ids := []int64{u.list.rows[0].ID, u.list.rows[1].ID, u.list.rows[2].ID}
	u.list.mu.Unlock()
	for i, id := range ids {
		r := receipt.Receipt{
			SupplierName: receipt.Of("Kedai Runcit", receipt.SourceOCR, 0.95),
			Date:         receipt.Of(receipt.Date(2025, 7, 1), receipt.SourceOCR, 0.95),
			Total:        receipt.Of(decimal.RequireFromString("12.50"), receipt.SourceOCR, 0.95),
			Currency:     receipt.Of("AUD", receipt.SourceOCR, 0.95),
		}
		if i == 2 {
			r.SupplierName.Value = "Bakery"
		}
		if err := u.svc.Lib.SaveExtraction(context.Background(), id, r, "ocr", receipt.SourceOCR); err != nil {
			t.Fatal(err)
		}
	}
	u.Reload()
	return ids[0], ids[1], ids[2]
}

func record(t *testing.T, u *UI, id int64) library.Record {
	t.Helper()
	rec, err := u.svc.Lib.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// "Mark duplicate…" takes the copy out of review and of exports, Ctrl+Enter
// on it moves on, and Ctrl+Z takes the mark back.
func TestMarkDuplicateFromTheForm(t *testing.T) {
	u := newTestUI(t)
	a, b, c := threeReceipts(t, u)
	show(u, b)
	if !u.form.notDup.Visible() {
		t.Error("a probable duplicate offers no \"Not a duplicate\"")
	}
	test.Tap(u.form.markDup)
	over := u.win.Canvas().Overlays().Top()
	if over == nil {
		t.Fatal("no dialog to say which receipt it copies")
	}
	var number *widget.Entry
	for _, o := range objects(over) {
		if e, ok := o.(*widget.Entry); ok && number == nil {
			number = e
		}
	}
	if number == nil || number.Text != fmt.Sprint(a) {
		t.Fatalf("the dialog does not offer the probable original #%d: %v", a, number)
	}
	test.Tap(buttonNamed(over, "Mark"))
	settle(u)

	rec := record(t, u, b)
	if rec.Status != library.StatusDuplicate || rec.DuplicateOf != a {
		t.Fatalf("after marking: %s of %d", rec.Status, rec.DuplicateOf)
	}
	if want := fmt.Sprintf("copy of #%d, left out", a); !strings.Contains(u.form.title.Text, want) {
		t.Errorf("title %q lacks %q", u.form.title.Text, want)
	}
	if !u.form.notDup.Visible() || !strings.Contains(u.counts.Text, "1 duplicate") {
		t.Errorf("not-a-duplicate shown %v, counts %q", u.form.notDup.Visible(), u.counts.Text)
	}
	for _, word := range []string{"needs_review", "duplicate_of", "StatusDuplicate"} {
		if strings.Contains(u.form.findings.Text+u.refused.Text+u.form.title.Text+u.form.lastEdit.Text, word) {
			t.Errorf("the window says %q", word)
		}
	}
	if recA := record(t, u, a); slices.ContainsFunc(recA.Findings, func(f receipt.Finding) bool { return f.Code == library.FindDuplicate }) {
		t.Errorf("the original still warns: %+v", recA.Findings)
	}

	// The copy is in no export; the message says so.
	path := filepath.Join(t.TempDir(), "all.xlsx")
	st, err := u.ExportTo(path, "", true)
	if err != nil || st.Receipts != 2 || !slices.Equal(st.Duplicates, []int64{b}) {
		t.Fatalf("export: %+v %v", st, err)
	}
	if msg := exportedText(st, path); !strings.Contains(msg, "1 receipt marked as a duplicate was left out (#"+fmt.Sprint(b)+")") {
		t.Errorf("export message %q", msg)
	}

	// Ctrl+Enter on the copy confirms nothing and moves on to one to check.
	show(u, b)
	u.ConfirmCurrent()
	if rec := record(t, u, b); rec.Status != library.StatusDuplicate {
		t.Errorf("the copy became %s", rec.Status)
	}
	if cur := u.Current(); cur != a && cur != c {
		t.Errorf("Ctrl+Enter on the copy shows #%d", cur)
	}

	// Ctrl+Z takes the mark back: b is to check again, as a probable duplicate.
	if !u.TypeShortcut(&fyne.ShortcutUndo{}) {
		t.Fatal("no undo shortcut")
	}
	settle(u)
	rec = record(t, u, b)
	if rec.Status == library.StatusDuplicate || rec.DuplicateOf != a || u.Current() != b {
		t.Fatalf("after Ctrl+Z: %s of %d, showing #%d", rec.Status, rec.DuplicateOf, u.Current())
	}
	if !strings.Contains(u.refused.Text, "Undone on #") {
		t.Errorf("notice %q", u.refused.Text)
	}
}

// "Not a duplicate" dismisses the guess for good: an edit that keeps the
// totals within a cent does not bring it back.
func TestNotADuplicateFromTheForm(t *testing.T) {
	u := newTestUI(t)
	a, b, _ := threeReceipts(t, u)
	show(u, b)
	test.Tap(u.form.notDup)
	settle(u)
	if rec := record(t, u, b); rec.DuplicateOf != 0 || u.form.notDup.Visible() {
		t.Fatalf("after \"Not a duplicate\": linked to %d, button shown %v", rec.DuplicateOf, u.form.notDup.Visible())
	}
	e := u.form.entry("total")
	e.SetText("")
	test.Type(e, "12.51")
	u.form.flush()
	settle(u)
	for _, id := range []int64{a, b} {
		if rec := record(t, u, id); rec.DuplicateOf != 0 {
			t.Errorf("after an edit, #%d is linked to #%d again", id, rec.DuplicateOf)
		}
	}
	if u.form.notDup.Visible() {
		t.Error("\"Not a duplicate\" is offered for a receipt linked to none")
	}
	if !strings.Contains(u.form.lastEdit.Text, "Total") {
		t.Errorf("last edit %q", u.form.lastEdit.Text)
	}
	edits, _ := u.svc.Lib.UndoableEdits(5)
	if len(edits) < 2 || edits[1].Field != library.DuplicateField || !strings.Contains(editText(edits[1]), "not a copy of #") {
		t.Errorf("edits %+v", edits)
	}
}
