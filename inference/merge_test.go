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
