package ui

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// An unsure total is marked with the question icon and its reason, in the
// warning colour, and shows no ✓ (the entry's check is off).
func TestUnsureFieldStandsOutWithoutATick(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	id := u.Current()
	r := receipt.Receipt{
		SupplierName: receipt.Of("Kedai", receipt.SourceOCR, 0.95),
		Total:        receipt.Of(decimal.RequireFromString("9.00"), receipt.SourceOCR, 0.3),
	}
	r.SupplierName.Support = []receipt.Support{{Kind: receipt.EvidencePrintedTwice, Why: "printed again on the page"}}
	if err := u.svc.Lib.SaveExtraction(context.Background(), id, r, "ocr", receipt.SourceOCR); err != nil {
		t.Fatal(err)
	}
	show(u, id)
	total, name := u.form.rows["total"], u.form.rows["supplier_name"]
	if total.mark.icon.Resource.Name() != unsureIcon().Name() || total.mark.reason == "" || total.label.Importance != widget.WarningImportance {
		t.Errorf("unsure total: icon %v, reason %q, importance %v", total.mark.icon.Resource, total.mark.reason, total.label.Importance)
	}
	if total.entry.Validator != nil {
		t.Error("an unsure total still gets a ✓ when its text parses")
	}
	if name.mark.icon.Resource.Name() == unsureIcon().Name() || name.label.Importance != widget.MediumImportance {
		t.Errorf("a sure supplier is marked unsure")
	}
	u.FocusField("total")
	if !u.form.tip.box.Visible() || u.form.tip.text.Text != total.mark.reason {
		t.Errorf("focusing the total shows %q (visible %v)", u.form.tip.text.Text, u.form.tip.box.Visible())
	}
}

// The inputs keep their column whatever the marks, the warnings above them
// keep their height while the receipt is on screen, and another receipt
// opens at the top.
func TestFormDoesNotJump(t *testing.T) {
	u := newTestUI(t)
	u.win.Resize(fyne.NewSize(1200, 600))
	addPaths(u, pngFiles(t, 2))
	extractAll(t, u) // the fake engine's tax is unsure: marked, and warned about
	first := u.Current()
	show(u, first)
	x := func(path string) float32 {
		return fyne.CurrentApp().Driver().AbsolutePositionForObject(u.form.rows[path].entry).X
	}
	before := x("total_tax")
	if x("supplier_name") != before {
		t.Errorf("inputs not in one column: %v and %v", x("supplier_name"), before)
	}
	findings := u.form.findings.Size().Height
	e := u.form.entry("total_tax")
	e.SetText("1.00")
	u.form.flush() // typed: no longer unsure, the warning may clear
	if x("total_tax") != before {
		t.Errorf("the input moved from x=%v to %v when its mark cleared", before, x("total_tax"))
	}
	if h := u.form.findings.Size().Height; h < findings {
		t.Errorf("the warnings shrank from %v to %v under the pointer", findings, h)
	}
	u.form.scroll.ScrollToBottom()
	u.Step(1)
	if u.form.scroll.Offset.Y != 0 {
		t.Errorf("the next receipt opened scrolled to %v", u.form.scroll.Offset.Y)
	}
}

// The mark of a total or date says what backs it or speaks against it.
func TestFieldEvidenceInWords(t *testing.T) {
	r := receipt.Receipt{Total: receipt.Of(decimal.RequireFromString("16.60"), receipt.SourceOCR, 0.6)}
	r.Total.Support = []receipt.Support{{Kind: receipt.EvidenceReading, Why: "the amount on the TOTAL line"}}
	r.Total.Doubt = "subtotal 25.09 + tax 1.51 = 26.60"
	known, ok, why := fieldEvidence(&r, "total")
	if !known || ok || !strings.Contains(why, "Total not confirmed: subtotal 25.09 + tax 1.51 = 26.60.") || !strings.Contains(why, "Backed by: the amount on the TOTAL line.") {
		t.Errorf("doubted total: %v %v %q", known, ok, why)
	}
	r.Total.Doubt = ""
	r.Total.Support = append(r.Total.Support, receipt.Support{Kind: receipt.EvidenceArithmetic, Why: "subtotal 15.66 + tax 0.94 = 16.60"})
	if known, ok, why = fieldEvidence(&r, "total"); !known || !ok || strings.Contains(why, "not confirmed") {
		t.Errorf("trusted total: %v %v %q", known, ok, why)
	}
	if known, _, _ = fieldEvidence(&r, "supplier_name"); known {
		t.Error("a supplier not read is weighed")
	}
}

// The supplier is marked like the other fields (a garbled name read once is
// unsure); a confirmed receipt shows no ? marks; an edit renames the
// receipt in the form's header and the window's title at once; the last
// edit's text cuts long values at whole letters.
func TestSupplierMarkConfirmedCleanHeaderFollowsEdits(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	id := u.Current()
	r := receipt.Receipt{
		SupplierName: receipt.Of("K3DA1 RUNC1T", receipt.SourceOCR, 0.95),
		Total:        receipt.Of(decimal.RequireFromString("9.00"), receipt.SourceOCR, 0.3),
	}
	if err := u.svc.Lib.SaveExtraction(context.Background(), id, r, "ocr", receipt.SourceOCR); err != nil {
		t.Fatal(err)
	}
	show(u, id)
	name := u.form.rows["supplier_name"]
	if name.mark.icon.Resource == nil || name.mark.icon.Resource.Name() != unsureIcon().Name() || !strings.Contains(name.mark.reason, "read once") {
		t.Errorf("a name read once is not marked unsure: %v %q", name.mark.icon.Resource, name.mark.reason)
	}
	e := u.form.entry("supplier_name")
	e.SetText("Kedai Runcit")
	u.form.flush()
	if !strings.Contains(u.form.title.Text, "Kedai Runcit") || !strings.Contains(u.win.Title(), "Kedai Runcit") {
		t.Errorf("after the edit the header is %q and the title %q", u.form.title.Text, u.win.Title())
	}
	u.ConfirmCurrent()
	show(u, id)
	for path, row := range u.form.rows {
		if row.mark.icon.Resource != nil && row.mark.icon.Resource.Name() == unsureIcon().Name() {
			t.Errorf("the confirmed receipt's %s shows a ? mark", path)
		}
	}
	for _, m := range u.form.lineMarks {
		if m.Resource != nil {
			t.Error("a confirmed receipt's line shows a ? mark")
		}
	}
	long := strings.Repeat("é", 30)
	if got := shownValue(long); !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Errorf("shownValue cut %q", got)
	}
}

// A note on a field (an old date two kinds of evidence agree on) is marked
// with an info icon, not the red warning of a failed check: the receipt is
// ready to confirm.
func TestANoteIsNoWarning(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	id := u.Current()
	two := []receipt.Support{{Kind: receipt.EvidenceReading, Why: "printed"}, {Kind: receipt.EvidencePrintedTwice, Why: "printed again"}}
	date := receipt.Of(receipt.Date(2012, 4, 27), receipt.SourceOCR, 0.99)
	date.Support = two
	r := receipt.Receipt{Date: date, Total: receipt.Of(decimal.RequireFromString("9.00"), receipt.SourceOCR, 0.99)}
	if err := u.svc.Lib.SaveExtraction(context.Background(), id, r, "ocr", receipt.SourceOCR); err != nil {
		t.Fatal(err)
	}
	show(u, id)
	row := u.form.rows["date"]
	if row.mark.icon.Resource == nil || row.mark.icon.Resource.Name() != theme.InfoIcon().Name() || !strings.Contains(row.mark.reason, "more than 10 years old") {
		t.Errorf("an old date read surely is marked %v %q", row.mark.icon.Resource, row.mark.reason)
	}
	if row.label.Importance == widget.DangerImportance {
		t.Error("an old date read surely is labelled in red")
	}
}
