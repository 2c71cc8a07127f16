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

// Discounts and a service charge printed between the subtotal and the
// total are read where the sums need them, with the tax added on top or
// already in the prices, and the total is then backed by the arithmetic,
// not doubted by it; amounts the sums do not need are left alone.
func TestDiscountsAndChargesBetweenSubtotalAndTotal(t *testing.T) {
	eu, uk, us := receipt.DefaultLocale(receipt.CountryEU), receipt.DefaultLocale(receipt.CountryUK), receipt.DefaultLocale(receipt.CountryUS)
	place := func(texts ...string) []Line {
		var rows []any
		for i, text := range texts {
			rows = append(rows, 100+20*i, 15, text)
		}
		return placedLines(rows...)
	}
	for _, tc := range []struct {
		name               string
		loc                receipt.Locale
		page               []Line
		discount, charge   string // "" none
		inclusive, doubted bool
		tax                string // "" any
	}{
		{"a discount, the tax in the prices", eu, place("SUPERMERCATO ROSSI S.R.L.", "27-09-2024 18:12", "PANE 2,40", "SUBTOTALE 43,26", "SCONTO A PAGARE -0,80", "TOTALE COMPLESSIVO 42,46", "di cui IVA 3,94"), "0.80", "", true, false, ""},
		{"a discount and a saving printed again", eu, place("VERS MARKT B.V.", "15-03-2024 17:02", "SUBTOTAAL 41,97", "BONUS KIPFILET 25% -1,62", "UW VOORDEEL 1,62", "TOTAAL 40,35", "BTW 9% 31,37 28,78 2,59", "BTW 21% 7,78 6,43 1,35", "TOTAAL 40,35 36,41 3,94"), "1.62", "", true, false, ""},
		{"a service charge, the VAT in the prices", uk, place("THE OLD BELL", "15/03/2024 21:40", "Subtotal 101.40", "Discretionary Service 12.5% 12.68", "TOTAL £114.08", "VAT @ 20% 16.90"), "", "12.68", true, false, ""},
		{"a coupon, the tax added", us, place("CORNER MART", "03/15/2024 10:02", "Subtotal 50.00", "Coupon -5.00", "Sales Tax 3.60", "Total 48.60"), "5.00", "", false, false, ""},
		{"a discount printed without its minus", us, place("CORNER MART", "03/15/2024 10:02", "Subtotal 50.00", "Discount 5.00", "Sales Tax 3.60", "Total 48.60"), "5.00", "", false, false, ""},
		// The total's label glued to the time: the closing sums find it,
		// and 31.80 + 7.38 is no subtotal and tax.
		{"two subtotals, a gratuity after the second", us, place("SAGE", "FRENCH CAFE & WINE BAR", "CHANDA R SvrCk: 8 1:56p 06/02/15", "2 SAUV BLANC JB 18.00", "1 VEGGIE SANDWICH 11.00", "1 QUICHE LORAINE 12.00",
			"Sub Total : 41.00", "OPEN $DISCOUNT *Discount*: 11.00", "Tax 1.80", "Sub Total : 31.80", "GRATUITY 18 7.38", "06/02 2:44pTOTAL : 39.18", "THANK YOU!"), "11.00", "7.38", false, false, "1.80"},
		// "Incl. Tax" on the total says the total has the tax, not the prices.
		{"a service charge and a tax added to it", my, place("RESTORAN SRI MELATI", "14/03/2025 20:15", "Sub Total 174.50", "Service Charge 10% 17.45", "Service Tax 6% 11.52", "Total Incl. Tax 203.47", "Rounding Adj -0.02", "TOTAL RM 203.45", "CASH 250.00", "CHANGE 46.55"), "", "17.45", false, false, "11.52"},
		// Two surcharges, and the card slip's copy of the total below.
		{"a holiday and a card surcharge", receipt.DefaultLocale(receipt.CountryAU), place("LITTLE LONSDALE ESPRESSO", "27/01/2025 10:18", "Subtotal 82.50", "Sun/Public Holiday Surcharge 15% 12.38", "Total 94.88", "Card Surcharge Visa 1.4% 1.33", "TOTAL AUD 96.21", "GST included 8.75", "VISA 96.21",
			"CUSTOMER COPY", "PURCHASE AUD $94.88", "SURCHARGE AUD $1.33", "TIP AUD $0.00", "TOTAL AUD $96.21", "APPROVED"), "", "13.71", true, false, ""},
		// Two subtotals, one per kind of sale, then the tax on one of them.
		{"goods and a rental, each its subtotal", my, place("KEDAI PERKAKASAN JAYA", "21/08/2025 16:40", "SIMEN PORTLAND 50KG 47.00", "Goods Sub Total 145.63", "Rental Sub Total 165.00", "Service Tax 8% (*S8) 13.20", "Total (RM) 323.83", "Rounding Adj 0.02", "NETT MYR 323.85", "Cash Received 400.00", "Change 76.15"), "", "", false, false, "13.20"},
		{"two taxes, added", receipt.DefaultLocale(receipt.CountryOther), place("BISTRO LE CORMORAN", "2024-03-15 21:18", "Sous-total / Subtotal 168.50", "TPS / GST 5% 8.43", "TVQ / QST 9,975% 16.81", "TOTAL 193.74 $"), "", "", false, false, "25.24"},
		{"amounts that make no sum", eu, place("SUPERMERCATO ROSSI S.R.L.", "27-09-2024 18:12", "SUBTOTALE 43,26", "SCONTO A PAGARE -0,50", "TOTALE COMPLESSIVO 42,46", "di cui IVA 3,94"), "", "", false, true, ""},
	} {
		r := ExtractFields(tc.page, tc.loc, testNow)
		Assess(&r, tc.page, tc.loc, testNow)
		if got := r.Discount.Value.StringFixed(2); r.Discount.Set != (tc.discount != "") || r.Discount.Set && got != tc.discount {
			t.Errorf("%s: discount %s (set %v), want %q", tc.name, got, r.Discount.Set, tc.discount)
		}
		if got := r.Tip.Value.StringFixed(2); r.Tip.Set != (tc.charge != "") || r.Tip.Set && got != tc.charge {
			t.Errorf("%s: charge %s (set %v), want %q", tc.name, got, r.Tip.Set, tc.charge)
		}
		if tc.tax != "" && r.TotalTax.Value.StringFixed(2) != tc.tax {
			t.Errorf("%s: tax %s, want %s", tc.name, r.TotalTax.Value, tc.tax)
		}
		if tc.inclusive && !r.TaxInclusive.Value {
			t.Errorf("%s: the tax not read as in the prices", tc.name)
		}
		if doubted := r.Total.Doubt != ""; doubted != tc.doubted {
			t.Errorf("%s: total %s doubted %v (%q), want %v", tc.name, r.Total.Value, doubted, r.Total.Doubt, tc.doubted)
		}
		sums := false
		for _, f := range receipt.Validate(r, tc.loc, testNow) {
			sums = sums || f.Code == receipt.FindSumVsTotal
			if f.Code == receipt.FindLinesVsSubtotal {
				t.Errorf("%s: %s", tc.name, f.Message)
			}
		}
		if sums != tc.doubted {
			t.Errorf("%s: a finding that the sums are off: %v, want %v", tc.name, sums, tc.doubted)
		}
	}
}

// Subtotals printed one under another, per kind of sale, add up to the
// receipt's subtotal where only together they make the total.
func TestSubtotalsPerKindOfSaleAddUp(t *testing.T) {
	my := receipt.DefaultLocale(receipt.CountryMY)
	page := lines("KEDAI PERKAKASAN JAYA", "21/08/2025 16:40", "Goods Sub Total 145.63", "Rental Sub Total 165.00", "Service Tax 8% (*S8) 13.20",
		"Total (RM) 323.83", "Rounding Adj 0.02", "NETT MYR 323.85", "Cash Received 400.00", "Change 76.15")
	r := ExtractFields(page, my, testNow)
	if r.Subtotal.Value.StringFixed(2) != "310.63" || r.Total.Value.StringFixed(2) != "323.85" {
		t.Errorf("subtotal %s (%s), total %s", r.Subtotal.Value, r.Subtotal.Why, r.Total.Value)
	}
}
