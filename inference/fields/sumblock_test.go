package fields

import (
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/receipt"
)

// An amount between the subtotal and the total that the sums need (a
// service fee, a carry-out charge) is read as the receipt's tip or
// service charge, and the arithmetic then backs the total; an amount the
// sums do not need is left alone.
func TestAServiceFeeBetweenSubtotalAndTotalCompletesTheSums(t *testing.T) {
	us := receipt.DefaultLocale(receipt.CountryUS)
	page := func(fee string) []Line {
		var rows []any
		for i, text := range []string{
			"Thai Gusto", "1 Main St, Springfield, IL 62701", "05/12/2019 7:48 PM", "Pad Thai 22.98",
			"Subtotal $22.98", "Tax $1.61", "Service fees on tables $" + fee, "Total $28.04",
		} {
			rows = append(rows, 100+20*i, 15, text)
		}
		return placedLines(rows...)
	}
	lines := page("3.45")
	r := ExtractFields(lines, us, testNow)
	Assess(&r, lines, us, testNow)
	if !r.Tip.Set || r.Tip.Value.StringFixed(2) != "3.45" {
		t.Fatalf("service fee: %+v", r.Tip)
	}
	arithmetic := false
	for _, s := range r.Total.Support {
		arithmetic = arithmetic || s.Kind == receipt.EvidenceArithmetic && strings.Contains(s.Why, "3.45")
	}
	if !arithmetic || r.Total.Doubt != "" {
		t.Errorf("total: %+v", r.Total)
	}
	for _, f := range receipt.Validate(r, us, testNow) {
		if f.Code == receipt.FindSumVsTotal {
			t.Errorf("finding: %s", f.Message)
		}
	}
	if r := ExtractFields(page("2.00"), us, testNow); r.Tip.Set {
		t.Errorf("a fee the sums do not need read as the tip: %+v", r.Tip)
	}
}

// A service charge printed with its rate, and a tax whose amount a skewed
// photo put above its label, still make the sums that back the total.
func TestSumsOfASkewedPhotoAndARatedServiceCharge(t *testing.T) {
	us := receipt.DefaultLocale(receipt.CountryUS)
	place := func(texts ...string) []Line {
		var rows []any
		for i, text := range texts {
			rows = append(rows, 100+20*i, 15, text)
		}
		return placedLines(rows...)
	}
	for _, lines := range [][]Line{
		place("Route 66 Grill", "1 Main St, Springfield, IL 62701", "03/17/19 5:39 PM", "Burger $30.60",
			"Subtotal $30.60", "Service Charge (18.00%) $6.12", "Tax $2.14", "Total $38.86"),
		place("Route 66 Grill", "1 Main St, Springfield, IL 62701", "03/17/19 5:39 PM", "2 23.98", "Adult Dinner", "2 3.38", "Soda",
			"27.36", "Subtotal", "2.60", "Tax", "Grand Total 29.96"),
	} {
		r := ExtractFields(lines, us, testNow)
		Assess(&r, lines, us, testNow)
		if ok, why := receipt.Trusted(r.Total, "total"); !ok {
			t.Errorf("%s: %s", r.Total.Value, why)
		}
		for _, f := range receipt.Validate(r, us, testNow) {
			if f.Code == receipt.FindSumVsTotal {
				t.Errorf("%s: %s", r.Total.Value, f.Message)
			}
		}
	}
}

// Malaysia's service tax (SST, since September 2018) is a tax, not a
// service charge: alone, or beside the restaurant's own service charge,
// it is the receipt's tax, counted once, and the sums confirm the total.
// Read as a service charge too, it was counted twice ("subtotal 50.00 +
// tax 3.00 = 56.00") and the right total doubted.
func TestAServiceTaxIsATax(t *testing.T) {
	my := receipt.DefaultLocale(receipt.CountryMY)
	for _, tc := range []struct {
		tax, total string
		page       []Line
	}{
		{"3", "53", lines("RESTORAN SELERA KITA SDN BHD", "NO 12, JALAN BUNGA RAYA", "43000 KAJANG, SELANGOR", "12/03/2019 13:05",
			"NASI LEMAK 2 20.00", "TEH TARIK 3 30.00", "SUB TOTAL 50.00", "SERVICE TAX 6% 3.00", "TOTAL (RM) 53.00", "CASH 60.00", "CHANGE 7.00")},
		{"3.3", "58.3", lines("RESTORAN SELERA KITA SDN BHD", "NO 12, JALAN BUNGA RAYA", "43000 KAJANG, SELANGOR", "12/03/2019 13:05",
			"NASI LEMAK 2 20.00", "TEH TARIK 3 30.00", "SUB TOTAL 50.00", "SERVICE CHARGE 10% 5.00", "SERVICE TAX 6% 3.30", "TOTAL (RM) 58.30")},
	} {
		r := ExtractFields(tc.page, my, testNow)
		Assess(&r, tc.page, my, testNow)
		if ok, why := receipt.Trusted(r.Total, "total"); !ok {
			t.Errorf("%s: %s", r.Total.Value, why)
		}
		if r.Total.Value.String() != tc.total || r.TotalTax.Value.String() != tc.tax {
			t.Errorf("total %s (want %s), tax %s (%s; want %s)", r.Total.Value, tc.total, r.TotalTax.Value, r.TotalTax.Why, tc.tax)
		}
		for _, f := range receipt.Validate(r, my, testNow) {
			if f.Code == receipt.FindSumVsTotal {
				t.Errorf("%s: %s", r.Total.Value, f.Message)
			}
		}
	}
}
