package inference

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// An invoice's table goes on over its pages; a till receipt's second
// reading, or a page that is no invoice's, only fills gaps.
func TestAddPageAppendsAnInvoicesRows(t *testing.T) {
	page := func(doc receipt.DocType, amounts ...string) receipt.Receipt {
		r := receipt.Receipt{DocType: receipt.Of(doc, receipt.SourceOCR, 0.7)}
		for _, a := range amounts {
			r.LineItems = append(r.LineItems, receipt.LineItem{LineTotal: receipt.Amount{Value: decimal.RequireFromString(a), Set: true}})
		}
		return r
	}
	for _, tc := range []struct {
		name        string
		first, next receipt.Receipt
		want        int
	}{
		{"an invoice's two pages", page(receipt.DocInvoice, "1.00", "2.00"), page(receipt.DocInvoice, "3.00"), 3},
		{"a credit note's two pages", page(receipt.DocCreditNote, "-1.00"), page(receipt.DocCreditNote, "-3.00"), 2},
		{"a receipt's two pages", page(receipt.DocReceipt, "1.00"), page(receipt.DocReceipt, "3.00"), 1},
		{"the rows only on the later page", page(receipt.DocInvoice), page(receipt.DocInvoice, "3.00"), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			AddPage(&tc.first, tc.next)
			if len(tc.first.LineItems) != tc.want {
				t.Errorf("%d rows, want %d", len(tc.first.LineItems), tc.want)
			}
		})
	}
}

// Rows read on a page without sums are kept once the document's net shows
// they make it, and dropped when they do not.
func TestAddPageChecksUncheckedRows(t *testing.T) {
	amount := func(s string) receipt.Amount {
		return receipt.Amount{Value: decimal.RequireFromString(s), Set: true}
	}
	rowsPage := func() receipt.Receipt {
		r := receipt.Receipt{DocType: receipt.Of(receipt.DocInvoice, receipt.SourceOCR, 0.7)}
		for _, a := range []string{"198.00", "275.00"} {
			it := receipt.LineItem{LineTotal: amount(a)}
			it.LineTotal.Doubt = RowsUnchecked
			r.LineItems = append(r.LineItems, it)
		}
		return r
	}
	for _, tc := range []struct {
		name, net string
		want      int
	}{{"the rows make the net", "473.00", 2}, {"they do not", "480.00", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			first := rowsPage()
			last := receipt.Receipt{DocType: receipt.Of(receipt.DocInvoice, receipt.SourceOCR, 0.7), Subtotal: amount(tc.net)}
			AddPage(&first, last)
			if len(first.LineItems) != tc.want {
				t.Fatalf("%d rows, want %d", len(first.LineItems), tc.want)
			}
			for _, it := range first.LineItems {
				if it.LineTotal.Doubt != "" {
					t.Errorf("a checked row keeps its doubt %q", it.LineTotal.Doubt)
				}
			}
		})
	}
}

// A document's pages keep the quarter turns the reader gave each: the
// review opens every page upright.
func TestAddPageKeepsEachPagesTurns(t *testing.T) {
	var doc receipt.Receipt
	AddPage(&doc, receipt.Receipt{})
	AddPage(&doc, receipt.Receipt{PageTurns: map[int]int{1: 1}})
	AddPage(&doc, receipt.Receipt{PageTurns: map[int]int{2: 2}})
	if len(doc.PageTurns) != 2 || doc.PageTurns[1] != 1 || doc.PageTurns[2] != 2 || doc.PageTurns[0] != 0 {
		t.Errorf("page turns %v, want page 1 a quarter and page 2 half round", doc.PageTurns)
	}
}
