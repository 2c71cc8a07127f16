package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// Undo right after Confirm goes back to the receipt that was edited and
// undoes its edit, with no dialog; with nothing left it says so quietly. The
// list of edits names receipt and field.
func TestUndoAfterConfirmUndoesTheEditWithoutADialog(t *testing.T) {
	u := newTestUI(t)
	u.AddPaths(pngFiles(t, 2))
	extractAll(t, u)
	first := u.Current()
	e := u.form.entry("total")
	e.SetText("")
	test.Type(e, "77.10")
	u.ConfirmCurrent() // saves the typing, confirms, moves on
	if u.Current() == first {
		t.Fatal("confirm did not move on")
	}
	if !strings.Contains(u.form.lastEdit.Text, "Total") || !strings.Contains(u.form.lastEdit.Text, "77.1") {
		t.Errorf("last edit %q", u.form.lastEdit.Text)
	}
	u.Undo()
	if o := u.win.Canvas().Overlays().Top(); o != nil {
		t.Fatalf("undo opened a dialog")
	}
	if u.Current() != first {
		t.Errorf("undo shows #%d, not #%d where the edit was", u.Current(), first)
	}
	rec, _ := u.svc.Lib.Get(first)
	if rec.Receipt.Total.Value.String() == "77.1" || u.form.entry("total").Text == "77.10" {
		t.Errorf("total still %s (field %q)", rec.Receipt.Total.Value, u.form.entry("total").Text)
	}
	if !strings.Contains(u.refused.Text, "Undone on #") {
		t.Errorf("notice %q", u.refused.Text)
	}
	u.Undo()
	if o := u.win.Canvas().Overlays().Top(); o != nil {
		t.Fatalf("nothing to undo opened a dialog")
	}
	if u.refused.Text != "Nothing to undo." || !u.notice.Visible() {
		t.Errorf("notice %q", u.refused.Text)
	}
}
