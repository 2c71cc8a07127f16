package vlm

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

func TestRefused(t *testing.T) {
	text := func(s string) receipt.Text { return receipt.Text{Value: s, Set: true} }
	total := receipt.Amount{Value: decimal.RequireFromString("12.30"), Set: true}
	for _, tc := range []struct {
		name string
		r    receipt.Receipt
		want bool
	}{
		{"a reading", receipt.Receipt{SupplierName: text("BOOK TA .K SDN BHD"), Total: total}, false},
		{"total only", receipt.Receipt{Total: total}, false},
		{"apology as supplier", receipt.Receipt{SupplierName: text("I'm sorry, but I can't help with that."), Total: total}, true},
		{"personal information", receipt.Receipt{SupplierAddress: text("This contains personal information")}, true},
		{"cannot", receipt.Receipt{SupplierName: text("I cannot read receipts")}, true},
		{"nothing read", receipt.Receipt{SupplierName: text("  "), Total: receipt.Amount{Set: true}}, true},
		{"a shop called Sorry Not Sorry", receipt.Receipt{SupplierName: text("SORRY NOT SORRY CAFE"), Total: total}, false},
	} {
		if got := Refused(&tc.r); got != tc.want {
			t.Errorf("%s: Refused = %v, want %v", tc.name, got, tc.want)
		}
	}
}
