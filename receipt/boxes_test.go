package receipt

import "testing"

// Every box of a receipt is reached: a field's, a line item's, a tax
// line's; a field without one is passed over.
func TestEachBoxReachesEveryBox(t *testing.T) {
	var r Receipt
	r.SupplierName.Box = &Box{X: 1}
	r.Total.Box = &Box{X: 2}
	r.Date.Box = &Box{X: 3}
	r.LineItems = []LineItem{{Description: Text{Box: &Box{X: 4}}}, {LineTotal: Amount{Box: &Box{X: 5}}}}
	r.TaxLines = []TaxLine{{Tax: Amount{Box: &Box{X: 6}}}}
	sum, n := 0, 0
	EachBox(&r, func(b *Box) { sum += b.X; n++; b.Y = 9 })
	if n != 6 || sum != 21 {
		t.Errorf("reached %d boxes summing %d, want 6 and 21", n, sum)
	}
	if r.LineItems[1].LineTotal.Box.Y != 9 || r.SupplierName.Box.Y != 9 {
		t.Error("the boxes were not changed in place")
	}
}

// A box two fields share is moved once, not twice.
func TestEachBoxPassesASharedBoxOnce(t *testing.T) {
	var r Receipt
	shared := &Box{X: 100}
	r.Subtotal.Box, r.Total.Box = shared, shared
	EachBox(&r, func(b *Box) { b.X += 1000 })
	if shared.X != 1100 {
		t.Errorf("the shared box moved to %d, want 1100", shared.X)
	}
}
