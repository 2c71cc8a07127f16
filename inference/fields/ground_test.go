package fields

import (
	"github.com/shoebox-app/shoebox/inference"

	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

func TestGroundAttachesBoxesAndDoubtsInventions(t *testing.T) {
	words := []inference.Word{
		{Text: "ACME", Box: receipt.Box{X: 10, Y: 5, W: 40, H: 10}, Line: 0}, {Text: "SDN", Box: receipt.Box{X: 55, Y: 5, W: 20, H: 10}, Line: 0},
		{Text: "BHD", Box: receipt.Box{X: 80, Y: 5, W: 20, H: 10}, Line: 0},
		{Text: "Date:", Box: receipt.Box{X: 10, Y: 40, W: 30, H: 10}, Line: 1}, {Text: "25/12/2018", Box: receipt.Box{X: 45, Y: 40, W: 60, H: 10}, Line: 1},
		{Text: "TOTAL", Box: receipt.Box{X: 10, Y: 90, W: 30, H: 10}, Line: 2}, {Text: "9.00", Box: receipt.Box{X: 80, Y: 90, W: 25, H: 10}, Line: 2},
	}
	r := receipt.Receipt{
		SupplierName: receipt.Of("Acme Sdn. Bhd.", receipt.SourceModel, 0.9),
		Date:         receipt.Of(receipt.Date(2018, 12, 25), receipt.SourceModel, 0.9),
		Total:        receipt.Of(decimal.RequireFromString("9"), receipt.SourceModel, 0.9),
		TotalTax:     receipt.Of(decimal.RequireFromString("0.54"), receipt.SourceModel, 0.8), // printed nowhere
	}
	Ground(&r, words)
	if r.Total.Box == nil || r.Total.Box.Y != 90 || r.Total.Box.W != 95 {
		t.Errorf("total box = %+v", r.Total.Box)
	}
	if r.Date.Box == nil || r.Date.Box.Y != 40 || r.SupplierName.Box == nil || r.SupplierName.Box.Y != 5 {
		t.Errorf("date box %+v, supplier box %+v", r.Date.Box, r.SupplierName.Box)
	}
	if r.TotalTax.Box != nil || r.TotalTax.Confidence != 0.4 {
		t.Errorf("unsupported tax kept confidence %v, box %+v", r.TotalTax.Confidence, r.TotalTax.Box)
	}
	if r.Total.Confidence != 0.9 {
		t.Errorf("supported total lost confidence: %v", r.Total.Confidence)
	}
}
