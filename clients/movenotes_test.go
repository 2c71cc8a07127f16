package clients

import (
	"testing"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// TestMoveCarriesTheReadingsNotes: a receipt whose reading noted a damaged
// e-invoice (a finding the fields cannot show, kept in reading_notes)
// arrives in the other client with that finding, and keeps it through an
// edit there; the move had dropped it.
func TestMoveCarriesTheReadingsNotes(t *testing.T) {
	needDevData(t)
	reg, _ := Open(t.TempDir())
	a := newClient(t, reg, "Harbour Cafe")
	b := newClient(t, reg, "Smith & Co")
	ids := buildClient(t, a, devReceipts[1:2])
	rec, _ := a.Get(ids[0])
	note := receipt.Finding{Code: "einvoice_damaged", Severity: receipt.Warning, Message: "the PDF's e-invoice could not be read"}
	a.Enqueue(ctx, ids, true)
	if err := a.SaveExtraction(ctx, ids[0], rec.Receipt, "test", receipt.SourceModel, note); err != nil {
		t.Fatal(err)
	}
	newID, err := Move(ctx, a, b, "Harbour Cafe", "Smith & Co", ids[0])
	if err != nil {
		t.Fatal(err)
	}
	has := func(r library.Record) bool {
		for _, f := range r.Findings {
			if f.Code == note.Code && f.Message == note.Message {
				return true
			}
		}
		return false
	}
	moved, err := b.Get(newID)
	if err != nil || !has(moved) {
		t.Fatalf("the finding did not travel: %+v %v", moved.Findings, err)
	}
	if notes, err := b.ReadingNotes(newID); err != nil || len(notes) != 1 || notes[0].Code != note.Code {
		t.Fatalf("reading notes there: %+v %v", notes, err)
	}
	if err := b.EditField(ctx, newID, "supplier_name", "HARBOUR SUPPLY"); err != nil {
		t.Fatal(err)
	}
	if edited, _ := b.Get(newID); !has(edited) {
		t.Fatalf("an edit after the move dropped the finding: %+v", edited.Findings)
	}
}
