package fields

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

func TestGroundAttachesBoxesAndDoubtsInventions(t *testing.T) {
	words := []inference.Word{
		{Text: "ACME", Box: receipt.Box{X: 10, Y: 5, W: 40, H: 10}, Line: 0},
		{Text: "SDN", Box: receipt.Box{X: 55, Y: 5, W: 20, H: 10}, Line: 0},
		{Text: "BHD", Box: receipt.Box{X: 80, Y: 5, W: 20, H: 10}, Line: 0},
		{Text: "Date:", Box: receipt.Box{X: 10, Y: 40, W: 30, H: 10}, Line: 1},
		{Text: "25/12/2018", Box: receipt.Box{X: 45, Y: 40, W: 60, H: 10}, Line: 1},
		{Text: "TOTAL", Box: receipt.Box{X: 10, Y: 90, W: 30, H: 10}, Line: 2},
		{Text: "9.00", Box: receipt.Box{X: 80, Y: 90, W: 25, H: 10}, Line: 2},
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

// TestGroundLineItemsAndModelChange: a model's line items are looked up on
// the page as its total is, and the change it read counts in the total's
// cash-less-change arithmetic as a change line on the page does.
func TestGroundLineItemsAndModelChange(t *testing.T) {
	words := []inference.Word{
		{Text: "WIDGET", Box: receipt.Box{X: 10, Y: 5, W: 60, H: 10}, Line: 0},
		{Text: "20.00", Box: receipt.Box{X: 120, Y: 5, W: 40, H: 10}, Line: 0},
		{Text: "TOTAL", Box: receipt.Box{X: 10, Y: 40, W: 50, H: 10}, Line: 1},
		{Text: "20.00", Box: receipt.Box{X: 120, Y: 40, W: 40, H: 10}, Line: 1},
		{Text: "CASH", Box: receipt.Box{X: 10, Y: 60, W: 40, H: 10}, Line: 2},
		{Text: "50.00", Box: receipt.Box{X: 120, Y: 60, W: 40, H: 10}, Line: 2},
	}
	amt := func(s string, c float64) receipt.Amount {
		return receipt.Of(decimal.RequireFromString(s), receipt.SourceModel, c)
	}
	r := receipt.Receipt{
		Total:      amt("20", 0.9),
		AmountPaid: amt("50", 0.9),
		Change:     amt("30", 0.9), // read by the model; no change line printed
		LineItems: []receipt.LineItem{
			{Description: receipt.Of("WIDGET", receipt.SourceModel, 0.9), LineTotal: amt("20", 0.9)},
			{Description: receipt.Of("GIZMO", receipt.SourceModel, 0.9), LineTotal: amt("7.77", 0.9)}, // invented
		},
	}
	Ground(&r, words)
	if r.LineItems[0].LineTotal.Box == nil || r.LineItems[0].Description.Box == nil || r.LineItems[0].LineTotal.Confidence != 0.9 {
		t.Errorf("printed line: %+v", r.LineItems[0])
	}
	if r.LineItems[1].LineTotal.Box != nil || r.LineItems[1].LineTotal.Confidence != 0.45 || r.LineItems[1].Description.Confidence != 0.45 {
		t.Errorf("invented line kept its confidence: %+v", r.LineItems[1])
	}
	lines := GroupLines(words)
	r.LineItems = r.LineItems[:1]
	AssessModel(&r, lines, receipt.DefaultLocale(receipt.CountryAU), receipt.Date(2026, 1, 1))
	found := false
	for _, s := range r.Total.Support {
		found = found || s.Kind == receipt.EvidenceArithmetic && strings.Contains(s.Why, "less change 30.00")
	}
	if !found {
		t.Errorf("the model's change gave no arithmetic: %+v", r.Total.Support)
	}
}
