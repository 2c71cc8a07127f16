package receipt

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// Severity ranks a Finding.
type Severity string

// The severities, least first.
const (
	Info    Severity = "info"
	Warning Severity = "warning"
	Error   Severity = "error"
)

// Finding is one thing a reviewer should look at, naming the fields it
// involves by their JSON names ("total", "line_items[2].line_total").
type Finding struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Fields   []string `json:"fields"`
	Message  string   `json:"message"`
}

// Finding codes, stable for tests and for the UI to attach icons.
const (
	FindMissingTotal      = "missing_total"
	FindMissingDate       = "missing_date"
	FindLinesVsSubtotal   = "lines_vs_subtotal"
	FindSumVsTotal        = "sum_vs_total"
	FindTaxRate           = "tax_rate_implausible"
	FindTaxLineArithmetic = "tax_line_arithmetic"
	FindGSTFraction       = "gst_fraction"
	FindFutureDate        = "future_date"
	FindOldDate           = "old_date"
	FindTaxIDChecksum     = "tax_id_invalid"
	FindCurrency          = "currency_unknown"
	FindAmountDue         = "amount_due"
	FindForeignCurrency   = "foreign_currency"
)

// plausibleRates are the tax rates (percent) each country charges. The EU
// list is the union of member states' standard and reduced rates; US sales
// tax is checked as a range instead.
var plausibleRates = map[Country][]string{
	CountryAU: {"10", "0"},
	CountryNZ: {"15", "0"},
	CountryUK: {"20", "12.5", "5", "0"}, // 12.5: hospitality, Oct 2021 to Mar 2022
	CountryMY: {"6", "8", "10", "5", "0"},
	CountryEU: {"0", "2.1", "3", "4", "4.8", "5", "5.5", "6", "7", "8", "9", "9.5", "10", "11", "12", "13", "13.5", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "25.5", "27"},
}

// PlausibleRates are the tax rates (percent) a country's receipts use, for
// mending a misread rate; nil where any rate up to 30% is plausible.
func PlausibleRates(c Country) []decimal.Decimal {
	var out []decimal.Decimal
	for _, s := range plausibleRates[c] {
		out = append(out, decimal.RequireFromString(s))
	}
	return out
}

// Validate checks a receipt's arithmetic, dates, rates and tax ID against the
// locale's rules and returns what a reviewer should look at. now is passed in
// so tests are deterministic. Comparisons allow one minor unit of the
// receipt's currency per rounded quantity.
func Validate(r Receipt, loc Locale, now time.Time) []Finding {
	c := newChecker(r, loc)
	c.presence(now)
	c.lineItems()
	c.sums()
	c.taxLines()
	c.gstFraction()
	c.amountDue()
	c.taxID()
	if c.foreign {
		c.add(FindForeignCurrency, Info, fmt.Sprintf("in %s, not the client's %s: kept as printed", c.cur, c.client), "currency")
	}
	return c.out
}

// checker holds what every check of one receipt needs: its currency (for
// rounding and printing amounts), the rules' country, and the findings.
type checker struct {
	r       Receipt
	loc     Locale
	cur     string
	client  string
	foreign bool
	unit    decimal.Decimal
	out     []Finding
}

func newChecker(r Receipt, loc Locale) *checker {
	c := &checker{r: r, loc: loc, cur: r.Currency.Value, client: loc.Currency}
	if c.cur == "" {
		c.cur = loc.Currency
	}
	c.foreign = r.Currency.Set && c.cur != "" && loc.Currency != "" && c.cur != loc.Currency
	if r.TaxRules != "" {
		c.loc.Country = r.TaxRules // a page from elsewhere is checked by its own country's rates
	}
	c.unit = MinorUnit(c.cur)
	return c
}

func (c *checker) add(code string, sev Severity, msg string, fields ...string) {
	c.out = append(c.out, Finding{Code: code, Severity: sev, Fields: fields, Message: msg})
}

func (c *checker) money(d decimal.Decimal) string { return d.StringFixed(int32(MinorDigits(c.cur))) }

// near: a and b differ by at most units minor units of the currency.
func (c *checker) near(a, b decimal.Decimal, units int64) bool {
	return a.Sub(b).Abs().LessThanOrEqual(c.unit.Mul(decimal.NewFromInt(units)))
}

// presence: a known currency, a total, a date that is neither in the
// future nor ten years old (unless its evidence rules out a misread).
func (c *checker) presence(now time.Time) {
	r := c.r
	if r.Currency.Set && r.Currency.Value != "" && !ValidCurrency(r.Currency.Value) {
		c.add(FindCurrency, Warning, fmt.Sprintf("currency %q is not an ISO 4217 code Shoebox knows", r.Currency.Value), "currency")
	}
	if !r.Total.Set {
		c.add(FindMissingTotal, Error, "no total was found: enter the amount paid", "total")
	}
	if !r.Date.Set {
		c.add(FindMissingDate, Error, "no date was found: enter the receipt date", "date")
		return
	}
	today := Date(now.Year(), now.Month(), now.Day())
	switch {
	case r.Date.Value.After(today):
		c.add(FindFutureDate, Warning, fmt.Sprintf("date %s is in the future: day and month may be swapped", r.Date.Value.Format("2006-01-02")), "date")
	case r.Date.Value.Before(today.AddDate(-10, 0, 0)):
		// An old date is suspect as a misread year; one two kinds of
		// evidence agree on was not misread, so its age is a note for the
		// reviewer, not a reason to hold the receipt back.
		sev := Warning
		if trusted, _ := Trusted(r.Date, "date"); trusted {
			sev = Info
		}
		c.add(FindOldDate, sev, fmt.Sprintf("date %s is more than 10 years old", r.Date.Value.Format("2006-01-02")), "date")
	}
}

// lineItems: the lines add up to the subtotal (or the total when there is
// none), and each line's quantity × unit price is its amount.
func (c *checker) lineItems() {
	r := c.r
	if len(r.LineItems) == 0 {
		return
	}
	sum, complete := ItemsSum(r)
	target, name := r.Subtotal, "subtotal"
	if !target.Set {
		target, name = r.Total, "total"
	}
	tol := int64(len(r.LineItems))
	if complete && target.Set && !c.near(sum, target.Value, tol) {
		// On a tax-exclusive receipt without a subtotal, lines plus tax may make the total.
		adjusted := sum.Add(r.Tip.Value).Sub(r.Discount.Value).Add(r.Rounding.Value)
		plusTax := adjusted.Add(r.TotalTax.Value)
		// Prices with their tax in them, and a tip on the card slip.
		withTip := name == "total" && r.Tip.Set && c.near(adjusted, target.Value, tol)
		// Prices printed with their tax (Europe's) add up to the net
		// subtotal of the tax table and its tax ("IMPORTE TOTAL 200,72"
		// over "BASE IMPONIBLE 75,18 / 99,77").
		gross := name == "subtotal" && r.TotalTax.Set && c.near(sum, r.Subtotal.Value.Add(r.TotalTax.Value), tol)
		if !(name == "total" && c.near(plusTax, target.Value, tol)) && !gross && !withTip {
			c.add(FindLinesVsSubtotal, Warning, fmt.Sprintf("line items add up to %s but the %s is %s", c.money(sum), name, c.money(target.Value)), "line_items", name)
		}
	}
	for i, li := range r.LineItems {
		if li.Quantity.Set && li.UnitPrice.Set && li.LineTotal.Set {
			want := li.Quantity.Value.Mul(li.UnitPrice.Value)
			if !c.near(want, li.LineTotal.Value, 1) {
				f := fmt.Sprintf("line_items[%d]", i)
				c.add(FindLinesVsSubtotal, Warning, fmt.Sprintf("line %d: %s × %s is %s, not %s", i+1, li.Quantity.Value, c.money(li.UnitPrice.Value), c.money(want), c.money(li.LineTotal.Value)), f+".quantity", f+".unit_price", f+".line_total")
			}
		}
	}
}

// ItemsSum is what the line items add up to, and whether every item has
// its amount (false with no items).
func ItemsSum(r Receipt) (decimal.Decimal, bool) {
	sum := decimal.Zero
	for _, li := range r.LineItems {
		if !li.LineTotal.Set {
			return sum, false
		}
		sum = sum.Add(li.LineTotal.Value)
	}
	return sum, len(r.LineItems) > 0
}

// sums: subtotal + tax + tip − discount ± rounding = total.
func (c *checker) sums() {
	r := c.r
	if !r.Subtotal.Set || !r.Total.Set {
		return
	}
	base := r.Subtotal.Value.Add(r.Tip.Value).Sub(r.Discount.Value).Add(r.Rounding.Value)
	exclusive := base.Add(r.TotalTax.Value)
	inclusive := r.TaxInclusive.Set && r.TaxInclusive.Value
	var ok bool
	switch {
	case inclusive:
		ok = c.near(base, r.Total.Value, 1)
		if !ok && r.TotalTax.Set && c.near(exclusive, r.Total.Value, 1) {
			ok = true
			if sum, complete := ItemsSum(r); complete && c.near(sum, r.Total.Value, int64(len(r.LineItems))) {
				break // the items are priced with their tax; the subtotal is the net of the tax table
			}
			if NetBelowTotal(&r) {
				break // "TOTAL 11,50 / BASE IMPONIBLE 10,45 / IVA 10% 1,05 (IVA INCLUIDO)"
			}
			c.add(FindSumVsTotal, Warning, fmt.Sprintf("the total %s is the subtotal plus tax, so the prices do not include tax: untick \"tax inclusive\"", c.money(r.Total.Value)), "tax_inclusive", "subtotal", "total_tax", "total")
		}
	case !r.TotalTax.Set || !r.TaxInclusive.Set:
		ok = c.near(exclusive, r.Total.Value, 1) || c.near(base, r.Total.Value, 1)
	default:
		ok = c.near(exclusive, r.Total.Value, 1)
	}
	if ok {
		return
	}
	fields := []string{"subtotal", "total"}
	for _, f := range []struct {
		name string
		a    Amount
	}{{"total_tax", r.TotalTax}, {"tip", r.Tip}, {"discount", r.Discount}, {"rounding", r.Rounding}} {
		if f.a.Set {
			fields = append(fields, f.name)
		}
	}
	want := exclusive
	if inclusive {
		want = base
	}
	c.add(FindSumVsTotal, Warning, fmt.Sprintf("subtotal and adjustments come to %s but the total is %s", c.money(want), c.money(r.Total.Value)), fields...)
}

// NetBelowTotal says whether the subtotal was read below the total: under
// a total it is no running sum of the prices but the net of the tax's
// breakdown ("TOTAL 11,50 / BASE IMPONIBLE 10,45 / IVA 10% 1,05"), which
// with the tax makes the total whether or not the prices held the tax.
func NetBelowTotal(r *Receipt) bool {
	s, t := r.Subtotal.Box, r.Total.Box
	return s != nil && t != nil && s.Y > t.Y+t.H/2
}

// taxLines: each declared rate is plausible for the country, and tax ≈
// net × rate.
func (c *checker) taxLines() {
	country := c.loc.Country
	for i, tl := range c.r.TaxLines {
		f := fmt.Sprintf("tax_lines[%d]", i)
		if tl.Rate.Set {
			if !ratePlausible(country, tl.Rate.Value) {
				c.add(FindTaxRate, Warning, fmt.Sprintf("a %s%% tax rate is unusual in %s", tl.Rate.Value.String(), country), f+".rate")
			}
			if tl.Net.Set && tl.Tax.Set {
				want := tl.Net.Value.Mul(tl.Rate.Value).Div(decimal.NewFromInt(100))
				if !c.near(want, tl.Tax.Value, 1) {
					c.add(FindTaxLineArithmetic, Warning, fmt.Sprintf("%s%% of %s is %s, not %s", tl.Rate.Value, c.money(tl.Net.Value), c.money(want), c.money(tl.Tax.Value)), f+".net", f+".tax")
				}
			}
		} else if tl.Net.Set && tl.Tax.Set && tl.Net.Value.IsPositive() {
			rate := tl.Tax.Value.Mul(decimal.NewFromInt(100)).Div(tl.Net.Value).Round(1)
			if !ratePlausible(country, rate) && !anyRateNear(country, tl.Net.Value, tl.Tax.Value, c.unit) {
				c.add(FindTaxRate, Warning, fmt.Sprintf("tax %s on %s is a %s%% rate, unusual in %s", c.money(tl.Tax.Value), c.money(tl.Net.Value), rate, country), f+".net", f+".tax")
			}
		}
	}
}

// gstFraction: in Australia, GST in a tax-inclusive total is one eleventh
// of the taxable part.
func (c *checker) gstFraction() {
	r := c.r
	if c.loc.Country != CountryAU || !r.TaxInclusive.Set || !r.TaxInclusive.Value || !r.Total.Set || !r.TotalTax.Set {
		return
	}
	eleventh := r.Total.Value.Div(decimal.NewFromInt(11))
	switch {
	case r.TotalTax.Value.GreaterThan(eleventh.Add(c.unit)):
		c.add(FindGSTFraction, Warning, fmt.Sprintf("GST %s is more than 1/11 of the total %s (%s)", c.money(r.TotalTax.Value), c.money(r.Total.Value), c.money(eleventh)), "total_tax", "total")
	case r.TotalTax.Value.LessThan(eleventh.Sub(c.unit)):
		c.add(FindGSTFraction, Info, fmt.Sprintf("GST %s is less than 1/11 of the total %s (%s): some items may be GST-free", c.money(r.TotalTax.Value), c.money(r.Total.Value), c.money(eleventh)), "total_tax", "total")
	}
}

// amountDue: an invoice's amount due is its total less what was paid in
// advance.
func (c *checker) amountDue() {
	r := c.r
	if !r.AmountDue.Set || !r.Total.Set {
		return
	}
	want := r.Total.Value.Sub(r.AmountPaid.Value)
	// Cash handed over at the till, change given back, is no prepayment:
	// what was due before it is the total, and nothing after it ("NET A
	// PAYER 2.318,51 / ESPECES 2.330,00 / RENDU 11,49").
	tendered := r.AmountPaid.Set && r.AmountPaid.Value.GreaterThanOrEqual(r.Total.Value)
	if tendered && (c.near(r.Total.Value, r.AmountDue.Value, 1) || r.AmountDue.Value.IsZero()) {
		return
	}
	if !c.near(want, r.AmountDue.Value, 1) {
		c.add(FindAmountDue, Warning, fmt.Sprintf("the total %s less %s paid is %s, but the amount due is %s", c.money(r.Total.Value), c.money(r.AmountPaid.Value), c.money(want), c.money(r.AmountDue.Value)), "total", "amount_paid", "amount_due")
	}
}

// taxID: the supplier's tax ID passes its scheme's checksum.
func (c *checker) taxID() {
	if id := c.r.SupplierTaxID; id.Set && id.Value.Value != "" {
		if err := ValidateTaxID(id.Value); err != nil {
			c.add(FindTaxIDChecksum, Warning, err.Error(), "supplier_tax_id")
		}
	}
}

func ratePlausible(c Country, rate decimal.Decimal) bool {
	if c == CountryUS {
		return !rate.IsNegative() && rate.LessThanOrEqual(decimal.NewFromFloat(11.5))
	}
	rates, ok := plausibleRates[c]
	if !ok {
		return !rate.IsNegative() && rate.LessThanOrEqual(decimal.NewFromInt(30))
	}
	for _, s := range rates {
		if decimal.RequireFromString(s).Sub(rate).Abs().LessThan(decimal.NewFromFloat(0.05)) {
			return true
		}
	}
	return false
}

// anyRateNear reports whether some plausible rate explains tax on net within
// a minor unit: small amounts give rough effective rates.
func anyRateNear(c Country, net, tax, unit decimal.Decimal) bool {
	for _, s := range plausibleRates[c] {
		want := net.Mul(decimal.RequireFromString(s)).Div(decimal.NewFromInt(100))
		if want.Sub(tax).Abs().LessThanOrEqual(unit) {
			return true
		}
	}
	return false
}

// HasError reports whether any finding is an Error.
func HasError(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == Error {
			return true
		}
	}
	return false
}
