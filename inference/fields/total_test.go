package fields

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

func TestTotalFromSubtotal(t *testing.T) {
	my := receipt.PlausibleRates(receipt.CountryMY)
	for _, tc := range []struct {
		name     string
		sub, tax int64 // cents; tax < 0: none read
		rates    bool
		want     int64 // cents; < 0: no total
	}{
		{"tax included: the subtotal is the total", 2870, 162, true, 2870},
		{"tax on top", 10000, 600, true, 10600},
		{"no tax read", 1250, -1, true, 1250},
		{"a tax that fits no rate", 10000, 137, true, -1},
		{"no rates known", 10000, 600, false, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := receipt.Receipt{Subtotal: receipt.Amount{Value: decimal.New(tc.sub, -2), Set: true, Confidence: 0.8}}
			if tc.tax >= 0 {
				r.TotalTax = receipt.Amount{Value: decimal.New(tc.tax, -2), Set: true}
			}
			rates := my
			if !tc.rates {
				rates = nil
			}
			totalFromSubtotal(&r, rates)
			switch {
			case tc.want < 0 && r.Total.Set:
				t.Errorf("total %v, want none", r.Total.Value)
			case tc.want >= 0 && (!r.Total.Set || !r.Total.Value.Equal(decimal.New(tc.want, -2))):
				t.Errorf("total %v (set %v), want %v", r.Total.Value, r.Total.Set, decimal.New(tc.want, -2))
			case r.Total.Set && r.Total.Confidence >= r.Subtotal.Confidence:
				t.Errorf("a total worked out from the subtotal is as sure as the subtotal (%v)", r.Total.Confidence)
			}
		})
	}
}
