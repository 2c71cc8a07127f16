package library

import (
	"strings"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/receipt"
)

// A supplier a person confirmed vouches for the name read again, and its
// remembered tax ID confirms or doubts the one read.
func TestSupplierMemoryIsEvidence(t *testing.T) {
	l := openTemp(t)
	l.now = func() time.Time { return time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC) }
	abn := receipt.TaxID{Scheme: receipt.SchemeABN, Value: "51824753556"}
	first := importOne(t, l, 1)
	r := extracted("Bunnings Warehouse", receipt.Date(2025, 7, 1), "10.00")
	r.SupplierTaxID = receipt.Of(abn, receipt.SourceModel, 0.9)
	if err := l.SaveExtraction(ctx, first, r, "ocr", receipt.SourceOCR); err != nil {
		t.Fatal(err)
	}
	if err := l.Confirm(ctx, first); err != nil {
		t.Fatal(err)
	}

	again, other := importOne(t, l, 2), importOne(t, l, 3)
	r = extracted("BUNNINGS WAREHOUSE", receipt.Date(2025, 7, 2), "12.00")
	r.SupplierName.Confidence = 0.4
	r.SupplierTaxID = receipt.Of(abn, receipt.SourceOCR, 0.8)
	l.SaveExtraction(ctx, again, r, "ocr", receipt.SourceOCR)
	rec, _ := l.Get(again)
	if n := len(rec.Receipt.SupplierName.Support); n != 1 || rec.Receipt.SupplierName.Confidence < 0.9 {
		t.Errorf("supplier: %d supports, confidence %.2f; want memory's support and 0.9", n, rec.Receipt.SupplierName.Confidence)
	}
	if s := rec.Receipt.SupplierTaxID.Support; len(s) != 1 || s[0].Kind != receipt.EvidenceMemory {
		t.Errorf("tax ID supports %+v, want memory's", s)
	}

	r.SupplierTaxID = receipt.Of(receipt.TaxID{Scheme: receipt.SchemeABN, Value: "53004085616"}, receipt.SourceOCR, 0.8)
	r.Total = amount("13.00")
	l.SaveExtraction(ctx, other, r, "ocr", receipt.SourceOCR)
	rec, _ = l.Get(other)
	if !strings.Contains(rec.Receipt.SupplierTaxID.Doubt, "51824753556") || rec.Status != StatusNeedsReview {
		t.Errorf("another tax ID: doubt %q, status %s", rec.Receipt.SupplierTaxID.Doubt, rec.Status)
	}
}

// A date years before the rest of the library is flagged: a misread year.
func TestDateYearsBeforeTheLibraryIsFlagged(t *testing.T) {
	l := openTemp(t)
	l.now = func() time.Time { return time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC) }
	for i := 0; i < 5; i++ {
		id := importOne(t, l, 10+i)
		l.SaveExtraction(ctx, id, extracted("Shop", receipt.Date(2025, 3, 1+i), "1"+string(rune('0'+i))+".00"), "ocr", receipt.SourceOCR)
	}
	odd, fine := importOne(t, l, 20), importOne(t, l, 21)
	l.SaveExtraction(ctx, odd, extracted("Other", receipt.Date(2021, 3, 9), "30.00"), "ocr", receipt.SourceOCR)
	l.SaveExtraction(ctx, fine, extracted("Other", receipt.Date(2024, 12, 9), "31.00"), "ocr", receipt.SourceOCR)
	has := func(id int64) bool {
		rec, _ := l.Get(id)
		for _, f := range rec.Findings {
			if f.Code == FindDateOutOfLine {
				return true
			}
		}
		return false
	}
	if !has(odd) {
		t.Error("2021 among 2025 receipts is not flagged")
	}
	if has(fine) {
		t.Error("December 2024 among March 2025 receipts is flagged")
	}
}
