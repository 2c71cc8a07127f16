package library

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// Edits on two receipts are undone newest first, one after another, and an
// undone edit leaves the list.
func TestUndoLatestAcrossReceipts(t *testing.T) {
	l := openTemp(t)
	var ids []int64
	for n := range 2 {
		id := importOne(t, l, n)
		ids = append(ids, id)
		if err := l.SaveExtraction(ctx, id, receipt.Receipt{Total: receipt.Of(decimal.NewFromInt(9), receipt.SourceOCR, 0.9)}, "ocr", receipt.SourceOCR); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(l.EditField(ctx, ids[0], "total", "10"))
	must(l.EditField(ctx, ids[0], "total", "11"))
	must(l.EditField(ctx, ids[1], "supplier_name", "Kedai"))
	edits, err := l.UndoableEdits(10)
	must(err)
	if len(edits) != 3 || edits[0].ReceiptID != ids[1] || edits[0].Field != "supplier_name" || edits[2].New != "10" {
		t.Fatalf("edits %+v", edits)
	}
	total := func(id int64) string {
		rec, _ := l.Get(id)
		return rec.Receipt.Total.Value.String()
	}
	for i, want := range []struct {
		id    int64
		field string
	}{{ids[1], "supplier_name"}, {ids[0], "total"}, {ids[0], "total"}} {
		e, ok, err := l.UndoLatest(ctx)
		must(err)
		if !ok || e.ReceiptID != want.id || e.Field != want.field {
			t.Fatalf("undo %d: %+v %v", i, e, ok)
		}
	}
	if rec, _ := l.Get(ids[1]); rec.Receipt.SupplierName.Value != "" {
		t.Errorf("supplier %q after undo", rec.Receipt.SupplierName.Value)
	}
	if total(ids[0]) != "9" {
		t.Errorf("total %s after two undos, want 9", total(ids[0]))
	}
	if _, ok, err := l.UndoLatest(ctx); ok || err != nil {
		t.Errorf("nothing left to undo: ok %v err %v", ok, err)
	}
}

// Undo takes a "Booked to" choice back, to blank where nothing was chosen
// before, and a second choice back to the first; a line item's too.
func TestUndoTakesBackACodingChoice(t *testing.T) {
	l := openTemp(t)
	if err := l.UseCountryDefaults(ctx, receipt.CountryAU); err != nil {
		t.Fatal(err)
	}
	id := importOne(t, l, 1)
	r := extracted("Officeworks", receipt.Date(2025, 7, 1), "55.00")
	r.LineItems = []receipt.LineItem{{Description: receipt.Of("Paper", receipt.SourceOCR, 0.9), LineTotal: receipt.Of(decimal.RequireFromString("55.00"), receipt.SourceOCR, 0.9)}}
	saveRead(t, l, id, r)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(l.SetCoding(ctx, id, -1, "461", ""))
	must(l.SetCoding(ctx, id, -1, "453", ""))
	must(l.SetCoding(ctx, id, 0, "", "GST"))
	account := func() (string, string) {
		c, err := l.Coding(id)
		must(err)
		return c.Account, c.Lines[0].TaxCode
	}
	for i, want := range [][2]string{{"453", ""}, {"461", ""}, {"", ""}} {
		e, ok, err := l.UndoLatest(ctx)
		must(err)
		if !ok {
			t.Fatalf("undo %d: nothing undone", i)
		}
		if a, tc := account(); a != want[0] || tc != want[1] {
			t.Fatalf("after undo %d (%s): account %q, line tax code %q; want %q, %q", i, e.Field, a, tc, want[0], want[1])
		}
	}
	if _, ok, err := l.UndoLatest(ctx); ok || err != nil {
		t.Errorf("nothing left to undo: ok %v err %v", ok, err)
	}
}
