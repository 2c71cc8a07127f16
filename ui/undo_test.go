package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/shoebox-app/shoebox/receipt"
)

// Undo right after Confirm goes back to the receipt that was edited and
// undoes its edit, with no dialog; with nothing left it says so quietly. The
// list of edits names receipt and field.
func TestUndoAfterConfirmUndoesTheEditWithoutADialog(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 2))
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

// Undoing an edit of an unsure field brings its "?" back: the value and
// the engine's provenance are restored, not the value typed by a person.
func TestUndoKeepsTheUnsureMark(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	extractAll(t, u)
	id := u.Current()
	show(u, id)
	if u.form.rows["total_tax"].mark.icon.Resource == nil {
		t.Fatal("the fake engine's unsure tax is not marked")
	}
	e := u.form.entry("total_tax")
	e.SetText("")
	test.Type(e, "1.00")
	u.form.flush()
	if u.form.rows["total_tax"].mark.icon.Resource != nil {
		t.Fatal("a typed tax is still marked unsure")
	}
	u.Undo()
	rec, _ := u.svc.Lib.Get(id)
	if rec.Receipt.TotalTax.Source == receipt.SourceUser || rec.Receipt.TotalTax.Confidence >= 0.5 {
		t.Errorf("after undo the tax is %+v", rec.Receipt.TotalTax)
	}
	if m := u.form.rows["total_tax"].mark; m.icon.Resource == nil || m.icon.Resource.Name() != unsureIcon().Name() {
		t.Errorf("after undo the tax's mark is %v", m.icon.Resource)
	}
}

// The form and its edit lines name a kind of document and a tax ID in a
// bookkeeper's words: "Credit note", not credit_note; the number, not the
// scheme's code before it (the field's label names the scheme).
func TestEditsAreShownInWords(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	extractAll(t, u)
	id := u.Current()
	show(u, id)
	sel := u.form.rows["doc_type"].sel
	for _, o := range sel.Options {
		if strings.Contains(o, "_") || o != strings.TrimSpace(o) {
			t.Errorf("document type offered as %q", o)
		}
	}
	sel.SetSelected("Credit note")
	u.form.flush()
	rec, _ := u.svc.Lib.Get(id)
	if rec.Receipt.DocType.Value != receipt.DocCreditNote {
		t.Fatalf("chose Credit note, stored %q", rec.Receipt.DocType.Value)
	}
	if last := u.form.lastEdit.Text; !strings.Contains(last, "Credit note") || strings.Contains(last, "credit_note") {
		t.Errorf("last edit %q", last)
	}
	e := u.form.entry("supplier_tax_id")
	e.SetText("")
	test.Type(e, "NO983164528MVA")
	u.form.flush()
	rec, _ = u.svc.Lib.Get(id)
	if rec.Receipt.SupplierTaxID.Value.Scheme != receipt.SchemeNOVAT {
		t.Fatalf("typed a Norwegian VAT number, stored %+v", rec.Receipt.SupplierTaxID.Value)
	}
	if last := u.form.lastEdit.Text; !strings.Contains(last, "NO983164528MVA") || strings.Contains(last, "NO_VAT") {
		t.Errorf("last edit %q", last)
	}
	test.Tap(u.form.rows["tax_inclusive"].check)
	u.form.flush()
	if last := u.form.lastEdit.Text; !strings.Contains(last, "Prices include tax: yes") || strings.Contains(last, "true") {
		t.Errorf("last edit %q", last)
	}
	show(u, id)
	if got := sel.Selected; got != "Credit note" {
		t.Errorf("shown again as %q", got)
	}
}
