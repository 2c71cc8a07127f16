package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// The small things a first day shows: a finished batch says so (no "ETA
// 0s"), an idle window shows no 0% bar, Extract all and Pause with nothing
// to do say so, a search keeps the form on a receipt the list shows, and
// money shows its cents.
func TestDayOneSmallThings(t *testing.T) {
	u := newTestUI(t)
	if u.progress.Visible() {
		t.Error("a 0% progress bar shows with nothing being read")
	}
	addPaths(u, pngFiles(t, 3))
	extractAll(t, u)
	if s := u.status.Text; !strings.Contains(s, "All 3 read in") || strings.Contains(s, "ETA") || strings.Contains(s, "left") {
		t.Errorf("finished status %q", s)
	}
	u.ExtractAll()
	if !u.notice.Visible() || !strings.HasPrefix(u.refused.Text, "Nothing to read") {
		t.Errorf("Extract all with nothing to read: %q", u.refused.Text)
	}
	u.Pause()
	if u.refused.Text != "Nothing is being read." {
		t.Errorf("Pause when idle: %q", u.refused.Text)
	}
	rows, _ := u.svc.Lib.List(library.Filter{})
	show(u, rows[0].ID)
	other := rows[2]
	u.filter.text.SetText(other.Supplier) // "Shop 3"-like: only that one matches
	if u.Current() != other.ID {
		t.Errorf("searching %q lists #%d but the form shows #%d", other.Supplier, other.ID, u.Current())
	}
	r := receipt.Receipt{Total: receipt.Of(decimal.RequireFromString("9"), receipt.SourceOCR, 0.9)}
	u.svc.Lib.SaveExtraction(context.Background(), other.ID, r, "ocr", receipt.SourceOCR)
	show(u, other.ID)
	if got := u.form.entry("total").Text; got != "9.00" {
		t.Errorf("a total of 9 shows as %q", got)
	}
}
