package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
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
	r := receipt.Receipt{SupplierName: receipt.Of("Kedai", receipt.SourceOCR, 0.95),
		Total: receipt.Of(decimal.RequireFromString("9.00"), receipt.SourceOCR, 0.3)}
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
	if name.mark.icon.Resource != nil || name.entry.Validator != nil && name.label.Importance != widget.MediumImportance {
		t.Errorf("a sure field is marked")
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
		t.Error("the supplier's name is not weighed on evidence here")
	}
}
