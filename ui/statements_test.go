package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/bank"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// TestStatementsView opens the Statements window on a real library with a
// matched statement: its lines, their receipts and states, the filter for
// missing receipts, confirming a proposal with its button, and the
// receipt form naming the line that paid it.
func TestStatementsView(t *testing.T) {
	u := newTestUI(t)
	lib := u.svc.Lib
	ctx := context.Background()
	var ids []int64
	for i, p := range pngFiles(t, 2) {
		res := lib.ImportFile(ctx, p, ingest.DefaultLimits())
		supplier := []string{"Officeworks", "Joe Bloggs Coffee"}[i]
		rc := receipt.Receipt{
			SupplierName: receipt.Of(supplier, receipt.SourceUser, 1),
			Date:         receipt.Of(receipt.Date(2025, 7, 3+i), receipt.SourceUser, 1),
			Total:        receipt.Of(decimal.RequireFromString([]string{"42.50", "18.40"}[i]), receipt.SourceUser, 1),
			Currency:     receipt.Of("AUD", receipt.SourceUser, 1),
		}
		if err := lib.SaveExtraction(ctx, res.ID, rc, "test", receipt.SourceUser); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	stmt := filepath.Join(t.TempDir(), "july.csv")
	os.WriteFile(stmt, []byte("Date,Description,Amount\n04/07/2025,OFFICEWORKS 0423 SYDNEY,-42.50\n"+
		"05/07/2025,SQ *JB CAFE,-18.40\n09/07/2025,NETFLIX.COM,-16.99\n"), 0o644)
	if _, err := bank.Import(ctx, lib, stmt, bank.ImportOptions{Account: "Card"}); err != nil {
		t.Fatal(err)
	}
	if _, err := bank.Run(ctx, lib, time.Time{}, time.Time{}, bank.DefaultRules); err != nil {
		t.Fatal(err)
	}
	v := u.openStatements()
	settle(u)
	if len(v.lines) != 3 || v.account.Selected != "Card" {
		t.Fatalf("%d lines shown for %q", len(v.lines), v.account.Selected)
	}
	if !strings.Contains(v.summary.Text, "3 lines: 1 matched, 0 confirmed by you, 1 to check, 1 receipt missing, 0 need none") {
		t.Errorf("summary: %s", v.summary.Text)
	}
	// Newest first, as banks show them.
	if got := v.cell(2, 3); !strings.Contains(got, "Officeworks") || v.cell(2, 4) != "matched" {
		t.Errorf("Officeworks line: receipt %q, status %q", got, v.cell(2, 4))
	}
	if v.cell(0, 1) != "NETFLIX.COM" || v.cell(0, 4) != "receipt missing" {
		t.Errorf("Netflix line: %q %q", v.cell(0, 1), v.cell(0, 4))
	}
	v.filter.SetSelected(showMissing)
	if len(v.lines) != 1 || v.lines[0].Description != "NETFLIX.COM" {
		t.Fatalf("missing filter shows %+v", v.lines)
	}
	v.filter.SetSelected(showToCheck)
	if len(v.lines) != 1 || v.confirm.Disabled() == false {
		t.Fatalf("to check: %d lines; confirm enabled before a line is chosen: %v", len(v.lines), !v.confirm.Disabled())
	}
	v.table.Select(widget.TableCellID{Row: 0, Col: 1})
	if v.confirm.Disabled() || !strings.Contains(v.detail.Text, "Joe Bloggs Coffee") {
		t.Fatalf("chosen line: confirm disabled %v, detail %q", v.confirm.Disabled(), v.detail.Text)
	}
	test.Tap(v.confirm)
	l, _ := lib.LinesForReceipt(ids[1])
	if len(l) != 1 || l[0].MatchState != library.MatchConfirmed {
		t.Fatalf("after Confirm: %+v", l)
	}
	if len(v.lines) != 0 {
		t.Errorf("the confirmed line should leave the 'to check' list: %d", len(v.lines))
	}
	u.Select(ids[1])
	settle(u)
	if !strings.Contains(u.form.paidBy.Text, "On the statement: 5 Jul 2025 18.40 AUD (SQ *JB CAFE, confirmed)") {
		t.Errorf("form: %q", u.form.paidBy.Text)
	}
}
