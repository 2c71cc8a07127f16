package fields

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// A Reading is a second look at the same page, to cross-check values
// against: another reader's lines, or one value's line read again alone.
type Reading struct {
	// Name says in a few words what the reading is ("the total's line
	// read again alone"), for the reason a reviewer sees.
	Name  string
	Lines []Line
	// Of names the field whose line alone was read again ("total",
	// "date"); "" for a whole page. A line read again alone that
	// disagrees is a doubt; a whole page read by another reader only
	// supports what it also shows.
	Of string
}

// Assess weighs the evidence for a receipt's total and date and sets each
// field's Support, Doubt and a confidence calibrated on the dev sets (see
// calibrated). lines are the page's lines as the rules read them; others
// are second looks at the page. Fields a person set are left alone; the
// supplier's tax ID gains the checksum's support.
//
// Evidence that counts (each kind once):
//
//	kind           total                                   date
//	reading        the amount on the line it was found on  the date as printed on its line
//	arithmetic     subtotal + tax (± rounding, − discount); -
//	               the items' sum; cash less change
//	printed twice  the same amount on another line         the same date on another line
//	second reader  the same amount in another reading      the same date in another reading
//
// Doubts: arithmetic that gives another amount, a rounding receipt whose
// total is not rounded, a line read again that shows another value,
// another issue date on the page, a date in the future, a date the page
// labels as another (an expiry, an offer's end).
func Assess(r *receipt.Receipt, lines []Line, loc receipt.Locale, now time.Time, others ...Reading) {
	lines = mendLineText(trimEdgeSpecks(lines))
	// The country ExtractFields told from the page, not told again.
	if pk, ok := packs.Get(r.PrintedIn.Value); ok && r.PrintedIn.Set && loc.Pack == "" {
		loc = readWith(loc, pk)
	} else {
		loc, _ = PageLocale(lines, loc)
	}
	upper := make([]string, len(lines))
	for i, l := range lines {
		upper[i] = moneyKeywords(l, packOf(loc))
	}
	if r.Total.Set && r.Total.Source != receipt.SourceUser {
		r.Total.Support, r.Total.Doubt = nil, ""
		assessTotal(r, lines, upper, loc, others)
		r.Total.Confidence = calibrated("total", r.Total.Support, r.Total.Doubt)
	}
	if r.Date.Set && r.Date.Source != receipt.SourceUser {
		r.Date.Support, r.Date.Doubt = nil, ""
		assessDate(r, lines, loc, now, others)
		r.Date.Confidence = calibrated("date", r.Date.Support, r.Date.Doubt)
	}
	if r.SupplierName.Set && r.SupplierName.Source == receipt.SourceOCR {
		assessSupplier(r, lines, packOf(loc), others)
		if fromTextLayer(lines) && r.SupplierName.Doubt == "" {
			r.SupplierName.Support = appendSupport(r.SupplierName.Support, receipt.EvidenceSecondReader, "the PDF's text layer gives its letters exactly")
		}
	}
	if r.TotalTax.Set && r.TotalTax.Source != receipt.SourceUser && r.TotalTax.Value.IsPositive() {
		r.TotalTax.Support = nil
		assessTax(r, lines, receipt.PlausibleRates(loc.Country))
	}
	if id := &r.SupplierTaxID; id.Set && id.Source != receipt.SourceUser && id.Value.Scheme != receipt.SchemeNone &&
		id.Value.Scheme != receipt.SchemeOther && receipt.ValidateTaxID(id.Value) == nil {
		id.Support = appendSupport(id.Support, receipt.EvidenceChecksum, "its check digits hold")
	}
}

func appendSupport(s []receipt.Support, kind receipt.Evidence, why string) []receipt.Support {
	for _, x := range s {
		if x.Kind == kind {
			return s
		}
	}
	return append(s, receipt.Support{Kind: kind, Why: why})
}

// lineAt is the index of the line that box b lies on, or -1: the same
// line's box may differ by a trimmed speck, or come from the line read
// again alone.
func lineAt(lines []Line, b *receipt.Box) int {
	if b == nil {
		return -1
	}
	// The line the value was read from, where it is one of these; else
	// the one sharing most of its height: on a photo taken askew each
	// line's box is tall, and a line's box reaches into the next one's
	// ("COBB CO TAX 2.000% 0.95" into "TOTAL $50.30").
	best, most := -1, 0
	for i, l := range lines {
		if l.Box == *b {
			return i
		}
		if SameLine(l.Box, *b) {
			if shared := min(l.Box.Y+l.Box.H, b.Y+b.H) - max(l.Box.Y, b.Y); shared > most {
				best, most = i, shared
			}
		}
	}
	return best
}

// SameLine says whether two boxes are on one text line: on one page, most
// of the lower one's height shared, and overlapping across.
func SameLine(a, b receipt.Box) bool {
	if a.Page != b.Page || a.H <= 0 || b.H <= 0 {
		return false
	}
	shared := min(a.Y+a.H, b.Y+b.H) - max(a.Y, b.Y)
	across := min(a.X+a.W, b.X+b.W) - max(a.X, b.X)
	return across > 0 && 2*shared > min(a.H, b.H)
}

func hasAmount(s string, v decimal.Decimal) bool {
	return slices.ContainsFunc(amountsIn(s), v.Equal)
}

// discountedBelow says whether the total a printed on line i is the
// total v on line at before the discounts printed between them ("Total
// TTC 54,00 / Remise fidélité 10 % -5,40 / NET A PAYER 48,60"): the
// amounts with a minus there make a into v to the cent.
func discountedBelow(lines []Line, i, at int, a, v decimal.Decimal) bool {
	if i < 0 || at <= i+1 || !a.GreaterThan(v) {
		return false
	}
	off := decimal.Zero
	for _, l := range lines[i+1 : at] {
		if amts := amountsIn(l.Text); len(amts) > 0 && amts[len(amts)-1].IsNegative() {
			off = off.Add(amts[len(amts)-1])
		}
	}
	return off.IsNegative() && a.Add(off).Equal(v)
}

func assessTotal(r *receipt.Receipt, lines []Line, upper []string, loc receipt.Locale, others []Reading) {
	t := &r.Total
	v := t.Value
	cur := r.Currency.Value
	if cur == "" {
		cur = loc.Currency
	}
	money := func(d decimal.Decimal) string { return d.StringFixed(int32(receipt.MinorDigits(cur))) }
	support := func(kind receipt.Evidence, why string) { t.Support = appendSupport(t.Support, kind, why) }
	doubt := func(why string) {
		if t.Doubt == "" {
			t.Doubt = why
		}
	}
	// A rival amount printed on the page is a doubt unless the page's
	// arithmetic confirms the total: then the rival is the misread one.
	var rival string
	unlessSums := func(why string) {
		if rival == "" {
			rival = why
		}
	}
	defer func() {
		if rival != "" && !receipt.HasSupport(t.Support, receipt.EvidenceArithmetic) {
			doubt(rival)
		}
	}()
	fiveCents := decimal.New(5, -2)
	rounded := func(d decimal.Decimal) decimal.Decimal {
		return d.Div(fiveCents).Round(0).Mul(fiveCents)
	}
	at := lineAt(lines, t.Box)
	labelled := totalLines(lines, upper)
	if at >= 0 && countsThings(upper[at]) {
		doubt("its line counts items: " + strconv.Quote(strings.TrimSpace(lines[at].Text)))
		at = -1
	}
	if at < 0 || !hasAmount(lines[at].Text, v) {
		// Computed, or mended from a misreading: a total line that shows
		// the value as printed is its reading, or else any line that does.
		at = -1
		for _, i := range append(labelled, seq(len(lines))...) {
			if v.IsPositive() && hasAmount(lines[i].Text, v) && !reChange.MatchString(upper[i]) && !countsThings(upper[i]) {
				at = i
				break
			}
		}
	}
	if at >= 0 {
		why := t.Why
		if why == "" || t.Box == nil || lines[at].Box != *t.Box {
			why = "the amount on the line " + strconv.Quote(strings.TrimSpace(lines[at].Text))
		}
		support(receipt.EvidenceReading, why)
	}
	// Another total line with a larger amount, or one a misreading away:
	// which is the total? Only a rounding adjustment between them explains
	// it. Smaller amounts on total lines are counts, savings or a part's
	// total.
	for _, i := range labelled {
		a := lastAmount(lines[i].Text)
		if i == at || a.Equal(v) || a.LessThan(v) && !misreadOf(v, a) && !misreadOf(a, v) ||
			r.Rounding.Set && (a.Add(r.Rounding.Value).Equal(v) || rounded(a).Equal(v)) ||
			r.Tip.Set && a.Add(r.Tip.Value).Equal(v) || discountedBelow(lines, i, at, a, v) {
			continue // the total before the rounding, the tip or a discount
		}
		unlessSums("another total on the page: " + money(a))
	}

	// Arithmetic of other lines.
	taxAdded := false // the subtotal and tax on other lines make the total
	onOtherLine := func(f receipt.Amount) bool { return f.Set && (f.Box == nil || t.Box == nil || *f.Box != *t.Box) }
	if onOtherLine(r.Subtotal) && onOtherLine(r.TotalTax) && r.TotalTax.Value.IsPositive() && !r.Subtotal.Value.Equal(v) {
		added := serviceCharge(lines, upper)
		if r.Tip.Set {
			added = r.Tip.Value // the service charge or tip the sums need
		}
		sum := r.Subtotal.Value.Add(r.TotalTax.Value).Add(added)
		if r.Discount.Set {
			sum = sum.Sub(r.Discount.Value.Abs())
		}
		ways := []decimal.Decimal{sum}
		if r.Rounding.Set {
			ways = append(ways, sum.Add(r.Rounding.Value), rounded(sum))
		}
		// The sum in words: "subtotal 79.60 − 30.00 + tax 3.27 + 4.96".
		terms := func(withTax, rounding bool, result decimal.Decimal) string {
			why := "subtotal " + money(r.Subtotal.Value)
			if r.Discount.Set && r.Discount.Value.IsPositive() {
				why += " − " + money(r.Discount.Value.Abs())
			}
			if withTax {
				why += " + tax " + money(r.TotalTax.Value)
			}
			if added.IsPositive() {
				why += " + " + money(added)
			}
			if rounding && r.Rounding.Value.IsNegative() {
				why += " − rounding " + money(r.Rounding.Value.Abs())
			} else if rounding {
				why += " + rounding " + money(r.Rounding.Value)
			}
			return why + " = " + money(result)
		}
		// A tax printed below the total is what the prices held ("Moms
		// 25% udgør 90,49" under "I ALT 452,50"), whatever its words.
		taxBelow := t.Box != nil && taxPrintedBelow(*r, t.Box.Y+t.Box.H)
		included := r.TaxInclusive.Set && r.TaxInclusive.Value || taxBelow
		if in := sum.Sub(r.TotalTax.Value); included && (in.Equal(v) || r.Rounding.Set && in.Add(r.Rounding.Value).Equal(v)) {
			// The prices hold the tax: the discounts and the charge between
			// the subtotal and the total make it.
			support(receipt.EvidenceArithmetic, terms(false, !in.Equal(v), v)+", the tax included")
		} else if slices.ContainsFunc(ways, v.Equal) {
			taxAdded = true
			support(receipt.EvidenceArithmetic, terms(true, !sum.Equal(v), v))
		} else if !sum.GreaterThan(v) || sum.Sub(v).GreaterThan(fiveCents) || !r.Rounding.Set {
			doubt(terms(true, false, sum))
		}
	}
	if isInvoiceDoc(r) {
		assessInvoiceTotal(r, lines, at, money, support, doubt)
	}
	if n := len(r.LineItems); n >= 2 {
		sum, complete := receipt.ItemsSum(*r)
		switch {
		case !complete:
		case sum.Equal(v):
			support(receipt.EvidenceArithmetic, fmt.Sprintf("the %d items add up to %s", n, money(v)))
		case r.Tip.Set && r.Tip.Value.IsPositive() && sum.Add(r.Tip.Value).Equal(v):
			// The total after a card slip's tip, or a service charge.
			support(receipt.EvidenceArithmetic, fmt.Sprintf("the %d items add up to %s, and with the tip or charge of %s to %s", n, money(sum), money(r.Tip.Value), money(v)))
		}
	}
	if gross, ok := vatTableGross(r.TaxLines); ok && len(r.TaxLines) >= 2 {
		switch {
		case gross.Equal(v):
			support(receipt.EvidenceArithmetic, fmt.Sprintf("the VAT table's rows (net + tax per rate) add up to %s", money(v)))
		case r.Rounding.Set && gross.Add(r.Rounding.Value).Equal(v):
			// Cash rounded to five cents ("YHTEENSÄ 24,33 / PYÖRISTYS
			// +0,02 / MAKSETTAVA 24,35").
			support(receipt.EvidenceArithmetic, fmt.Sprintf("the VAT table's rows (net + tax per rate) add up to %s, and with the rounding to %s", money(gross), money(v)))
		case oneDigitApart(gross, v):
			// A table that covers the whole sale, one digit off the total:
			// one of the two was misread (both readers read SUMME 19,16
			// for 19,46; the rows add up to 19,46).
			doubt(fmt.Sprintf("the VAT table's rows add up to %s", money(gross)))
		}
	}
	paidConfirms := false
	if paid, change, payments, ok := cashAndChange(r, lines, upper); ok {
		left := paid.Sub(change)
		split := decimal.Zero // a split payment: each payment line's amount
		for _, p := range payments {
			split = split.Add(p)
		}
		split = split.Sub(change)
		switch {
		case change.IsZero():
			// Paid in parts with nothing back ("Bar 20,00 / Bankomat
			// 32,18 / Rückgeld 0,00"): only the parts together say
			// anything of the total.
			if split.Equal(v) {
				paidConfirms = true
				support(receipt.EvidenceArithmetic, fmt.Sprintf("paid in %d parts", len(payments)))
			}
		case left.Equal(v) || r.Rounding.Set && left.Equal(rounded(v)):
			paidConfirms = true
			support(receipt.EvidenceArithmetic, fmt.Sprintf("paid %s less change %s", money(paid), money(change)))
		case len(payments) >= 2 && split.Equal(v):
			paidConfirms = true
			support(receipt.EvidenceArithmetic, fmt.Sprintf("paid in %d parts less change %s", len(payments), money(change)))
		case left.Sub(v).Abs().GreaterThan(fiveCents):
			doubt(fmt.Sprintf("paid %s less change %s = %s", money(paid), money(change), money(left)))
		}
	}
	if r.Rounding.Set && !r.Rounding.Value.IsZero() && !rounded(v).Equal(v) {
		doubt(fmt.Sprintf("the receipt rounds to 5 cents, but %s is not rounded", money(v)))
	}
	if why := taxArithmeticAgainst(lines, at, v, money); why != "" {
		doubt(why)
	}
	// The subtotal taken for the total: read on the subtotal's line, and
	// no total line on the page. A photo cut off below the subtotal shows
	// no more, and the items add up to the subtotal whatever tax, tip or
	// fee follows it; only the payment confirms it (cash less change, or
	// the amount on a payment line), the tax it adds to a net above it
	// ("Amount 25.34 / Tax 2.28 / Sub-Total 27.62"), or the tax it
	// includes ("SUBTOTAL 28.70 / INC 6% GST 1.62": nothing to add).
	taxIncluded := r.TotalTax.Set && r.TotalTax.Value.IsPositive() && r.TotalTax.Value.LessThan(v) &&
		taxedAtARate(v.Sub(r.TotalTax.Value), v, receipt.PlausibleRates(loc.Country))
	if at >= 0 && reSubtotal.MatchString(upper[at]) && len(labelled) == 0 && !paidConfirms && !taxAdded && !taxIncluded && !paidOnALine(lines, upper, v) {
		doubt("no total line read: the subtotal was taken for the total, and nothing below it shows it paid")
	}

	// The same amount on another line.
	for i, l := range lines {
		if i == at || reChange.MatchString(upper[i]) || countsThings(upper[i]) || !hasAmount(l.Text, v) || !v.IsPositive() {
			continue
		}
		support(receipt.EvidencePrintedTwice, fmt.Sprintf("%s also printed on the line %q", money(v), strings.TrimSpace(l.Text)))
		break
	}

	// Other readings.
	// A total line read again alone that disagrees was, on the dev sets,
	// the misread one every time: no support, but no doubt either.
	for _, o := range others {
		if !slices.ContainsFunc(o.Lines, func(l Line) bool { return hasAmount(l.Text, v) && samePlace(o, l, t.Box) }) {
			continue
		}
		if at < 0 && o.Of == "" && v.IsPositive() {
			// Not on the page as first read: this reading is where the
			// value was read.
			at = -2
			support(receipt.EvidenceReading, o.Name+" shows "+money(v))
			continue
		}
		support(receipt.EvidenceSecondReader, o.Name+" gives the same "+money(v))
	}
}

// reRatePercent is a tax rate as printed: "6%", "@ 10 %", "19,0%".
var reRatePercent = regexp.MustCompile(`\b(\d{1,2}(?:[.,]\d{1,2})?)\s?%`)

// taxArithmeticAgainst says, in words, why the tax arithmetic of the page
// makes v no total: a line that states a rate shows v with v's tax at that
// rate beside it (v is the net, "SR @ 6% 68.87 4.13"), or v's own line
// states a rate and v is that rate's tax on another amount of the page
// ("Total Included GST @ 6% : 0.42" beside 7.50). "" when nothing does.
func taxArithmeticAgainst(lines []Line, at int, v decimal.Decimal, money func(decimal.Decimal) string) string {
	if !v.IsPositive() {
		return ""
	}
	cent := decimal.New(1, -2)
	near := func(a, b decimal.Decimal) bool { return a.Sub(b).Abs().LessThanOrEqual(cent) }
	rateOf := func(s string) (decimal.Decimal, bool) {
		m := reRatePercent.FindStringSubmatch(s)
		if m == nil {
			return decimal.Zero, false
		}
		r, err := decimal.NewFromString(strings.Replace(m[1], ",", ".", 1))
		return r, err == nil && r.IsPositive() && r.LessThan(decimal.NewFromInt(50))
	}
	hundred := decimal.NewFromInt(100)
	for i, l := range lines {
		rate, ok := rateOf(l.Text)
		if !ok {
			continue
		}
		amts := amountsIn(reRatePercent.ReplaceAllString(l.Text, " "))
		if i != at && slices.ContainsFunc(amts, v.Equal) {
			tax := v.Mul(rate).Div(hundred)
			for _, a := range amts {
				if a.IsPositive() && !a.Equal(v) && near(a, tax) {
					return fmt.Sprintf("%s is the amount before tax on the line %q: with its tax %s the total is %s",
						money(v), strings.TrimSpace(l.Text), money(a), money(v.Add(a)))
				}
			}
		}
		if i != at {
			continue
		}
		for _, o := range lines {
			for _, a := range amountsIn(o.Text) {
				if !a.GreaterThan(v) {
					continue
				}
				if near(a.Mul(rate).Div(hundred), v) || near(a.Mul(rate).Div(hundred.Add(rate)), v) {
					return fmt.Sprintf("%s is the %s%% tax of %s, as its line says", money(v), rate.String(), money(a))
				}
			}
		}
	}
	return ""
}

// samePlace says whether a line of another reading is where the value
// was read: a line read again alone is; a line of another reading of the
// whole page must lie on the value's line (an amount such as 1.00 is
// printed somewhere on most receipts).
func samePlace(o Reading, l Line, b *receipt.Box) bool {
	return o.Of != "" || b == nil || SameLine(l.Box, *b)
}

// assessTax gathers the support for the total tax: its reading, the same
// amount printed again (a tax summary), and the country's rate of the
// net or of a tax-inclusive total giving it.
func assessTax(r *receipt.Receipt, lines []Line, rates []decimal.Decimal) {
	x := &r.TotalTax
	v := x.Value
	at := lineAt(lines, x.Box)
	if at >= 0 && hasAmount(lines[at].Text, v) {
		x.Support = appendSupport(x.Support, receipt.EvidenceReading, x.Why)
	}
	for i, l := range lines {
		if i != at && hasAmount(l.Text, v) {
			x.Support = appendSupport(x.Support, receipt.EvidencePrintedTwice, fmt.Sprintf("%s also printed on the line %q", v.StringFixed(2), strings.TrimSpace(l.Text)))
			break
		}
	}
	hundred := decimal.NewFromInt(100)
	for _, rate := range rates {
		switch {
		case !rate.IsPositive():
		case r.Subtotal.Set && r.Total.Set && r.Subtotal.Value.LessThan(r.Total.Value) && near(r.Subtotal.Value.Mul(rate).Div(hundred), v):
			x.Support = appendSupport(x.Support, receipt.EvidenceArithmetic, fmt.Sprintf("%s%% of the subtotal %s", rate, r.Subtotal.Value.StringFixed(2)))
		case r.Total.Set && near(taxIncluded(r.Total.Value, rate), v):
			x.Support = appendSupport(x.Support, receipt.EvidenceArithmetic, fmt.Sprintf("the %s%% included in the total %s", rate, r.Total.Value.StringFixed(2)))
		}
	}
}

// totalLines are the lines labelled as the amount due ("TOTAL", "GRAND
// TOTAL", "AMOUNT DUE"…) that print an amount, outside a tax summary.
func totalLines(lines []Line, upper []string) []int {
	var out []int
	inSummary := false
	for i, l := range lines {
		k := upper[i]
		if startsTaxSummary(l, k) {
			inSummary = true
		}
		if inSummary || reNotTotal.MatchString(k) || len(amountsIn(l.Text)) == 0 {
			continue
		}
		// A line that says AMOUNT or NETT without TOTAL is an item or tax
		// table's column as often as the amount due.
		if totalRules[0].re.MatchString(k) || totalRules[1].re.MatchString(k) || strings.Contains(k, "TOTAL") {
			out = append(out, i)
		}
	}
	return out
}

// paidOnALine says whether a payment line (cash, card, paid…) that is no
// subtotal's shows the amount v.
func paidOnALine(lines []Line, upper []string, v decimal.Decimal) bool {
	payment := totalRules[len(totalRules)-1].re
	for i, l := range lines {
		if payment.MatchString(upper[i]) && !reSubtotal.MatchString(upper[i]) && !reChange.MatchString(upper[i]) && hasAmount(l.Text, v) {
			return true
		}
	}
	return false
}

// reCountLine counts things rather than money ("Total Qty 1.00",
// "Items 3.00"): the same number on it is no reading of an amount.
var reCountLine = regexp.MustCompile(`\b(QTY|QUANTITY|ITEMS?|ITENS|PCS|COUNT|UNITS?)\b|TOTAL\s*(QTY|ITEM|ITEN)|NO\.?\s*OF\b`)

// countsThings says whether a line's keywords count things rather than
// money: a count beside the amount due is the till's item count ("15 ITEMS
// BALANCE DUE 51.64"), and the amount is the total's.
func countsThings(k string) bool {
	return reCountLine.MatchString(k) && !totalRules[1].re.MatchString(k)
}

// seq is 0, 1, … n-1.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func lastAmount(s string) decimal.Decimal {
	amts := amountsIn(s)
	if len(amts) == 0 {
		return decimal.Zero
	}
	return amts[len(amts)-1]
}

// serviceCharge is the service charge a page prints, or zero.
func serviceCharge(lines []Line, upper []string) decimal.Decimal {
	for i, l := range lines {
		if reServiceCharge.MatchString(upper[i]) {
			return lastAmount(l.Text)
		}
	}
	return decimal.Zero
}

// cashAndChange finds the amount paid and the change given, when the page
// prints both: the amount on the payment line (CASH, TENDERED, PAYMENT,
// VISA…) above the change line, and every payment line's above it (a
// split payment: "Karta 200,00 / Gotówka 110,00 / Reszta 6,40"). A change
// line before any payment is a refund ("LEEGGOED TERUG -3,90", a deposit
// given back), not the change. A change of nothing, or no change line
// read, counts only under a split payment ("Bar 20,00 / Bankomat 32,18 /
// Rückgeld 0,00").
func cashAndChange(r *receipt.Receipt, lines []Line, upper []string) (paid, change decimal.Decimal, payments []decimal.Decimal, ok bool) {
	payment := totalRules[len(totalRules)-1].re
	havePaid := r.AmountPaid.Set
	paid = r.AmountPaid.Value
	if havePaid && r.Change.Set {
		// A reader that gave the change (the vision model does) is held
		// to the same sum as a change line on the page.
		change = r.Change.Value.Abs()
		return paid, change, nil, change.IsPositive() && paid.GreaterThan(change)
	}
	paymentLine := false
	for i, l := range lines {
		k := upper[i]
		switch {
		case reChange.MatchString(k) && !strings.Contains(k, "TOTAL"):
			if amts := amountsIn(l.Text); len(amts) > 0 && paymentLine {
				change = amts[len(amts)-1].Abs()
				if change.IsZero() && len(payments) >= 2 {
					return paid, change, payments, havePaid // paid in parts, nothing back
				}
				return paid, change, payments, havePaid && change.IsPositive() && paid.GreaterThan(change)
			}
		case reCashLine.MatchString(k) || payment.MatchString(k):
			// The last payment line above the change is what was handed
			// over: "Cash Total $41.70 / Cash Tendered $50.00 / Change Due".
			if amts := amountsIn(l.Text); len(amts) > 0 {
				paymentLine = true
				payments = append(payments, amts[len(amts)-1].Abs())
				if !r.AmountPaid.Set {
					paid, havePaid = amts[len(amts)-1].Abs(), true
				}
			}
		}
	}
	if len(payments) >= 2 {
		return paid, change, payments, havePaid // parts paid, no change line read ("CHANGE DUE O.00")
	}
	return paid, change, payments, false
}

// yearCutToCentury says whether other is date with its year read as its
// first two digits: "25/10/20:7" for 25/10/2017, a year "20" read as 2020.
func yearCutToCentury(other, date time.Time) bool {
	return other.Year() == 2020 && date.Year()/100 == 20 && other.Month() == date.Month() && other.Day() == date.Day()
}

func assessDate(r *receipt.Receipt, lines []Line, loc receipt.Locale, now time.Time, others []Reading) {
	d := &r.Date
	support := func(kind receipt.Evidence, why string) { d.Support = appendSupport(d.Support, kind, why) }
	doubt := func(why string) {
		if d.Doubt == "" {
			d.Doubt = why
		}
	}
	show := func(t time.Time) string { return t.Format("2 Jan 2006") }
	today := receipt.Date(now.Year(), now.Month(), now.Day())
	labelledInvoiceDate := isInvoiceDoc(r) && invoiceDateLabelled(d.Why)
	if labelledInvoiceDate && fromTextLayer(lines) {
		support(receipt.EvidenceSecondReader, "the PDF's text layer gives its characters exactly")
	}
	cands := dateCandidates(lines, loc, false, now)
	readAsPrintedInFull(cands)
	var stamped *receipt.Box // where the sale's date is printed with its time
	if i := slices.IndexFunc(cands, func(c dateCand) bool { return c.d.Equal(d.Value) && c.t != "" && !c.other }); i >= 0 {
		stamped = cands[i].box
	}
	for _, c := range cands {
		switch {
		case !c.d.Equal(d.Value):
			// A date in the future is not a rival issue date (a card's
			// expiry, a voucher's end); nor are dates labelled so, nor an
			// invoice's other dates beside its labelled issue date, nor,
			// below a sale stamped with its time, a later date printed
			// without one or a date label: what the sale is good for
			// until, or leads to (a return, a pick-up, an appointment),
			// however long ago it was.
			later := stamped != nil && c.box != nil && c.box.Y > stamped.Y && c.d.After(d.Value) && c.t == "" && !c.labelled
			if !c.other && !c.d.After(today) && !later && !labelledInvoiceDate && !yearCutToCentury(c.d, d.Value) {
				doubt("another date on the page: " + show(c.d))
			}
		case d.Box != nil && c.box != nil && SameLine(*c.box, *d.Box):
			why := d.Why
			if why == "" {
				why = "read on the page"
			}
			support(receipt.EvidenceReading, why)
		default:
			support(receipt.EvidencePrintedTwice, "the same date printed on another line")
		}
	}
	if d.Value.After(today) {
		doubt("it is in the future")
	}
	// Only ever printed as an expiry, an offer's end or a due date: the
	// receipt's own date was not found ("Sweepstakes ends 12/31/2017").
	if !labelledInvoiceDate && onlyAsAnotherDate(cands, d.Value) {
		doubt("the page prints it as another date (an expiry, an offer's end), not the receipt's own")
	}
	read := receipt.HasSupport(d.Support, receipt.EvidenceReading)
	lineDoubt := ""
	for _, o := range others {
		seen, other := false, time.Time{}
		for _, c := range dateCandidates(o.Lines, loc, false, now) {
			if c.d.Equal(d.Value) && (o.Of != "" || d.Box == nil || c.box == nil || SameLine(*c.box, *d.Box)) {
				seen = true
			} else if !c.other && other.IsZero() {
				other = c.d
			}
		}
		switch {
		case seen && !read && o.Of == "":
			// Not on the page as first read: this reading is where the
			// date was read.
			support(receipt.EvidenceReading, o.Name+" shows it")
			read = true
		case seen:
			support(receipt.EvidenceSecondReader, o.Name+" gives the same date")
		case o.Of == "date" && !other.IsZero() && lineDoubt == "":
			lineDoubt = o.Name + " gives " + show(other)
		}
	}
	// The date's line read again alone is outvoted where two kinds of
	// evidence already agree on the date (both readers' pages, or two
	// printings): a phone photo's line cut out reads worse than its page.
	if lineDoubt != "" && receipt.SupportKinds(d.Support) < 2 {
		doubt(lineDoubt)
	}
}

// PrintedAsAnotherDate says whether the lines print date d only labelled
// as another date than the document's own: an expiry, an offer's end, a
// due date ("Sweepstakes ends 12/31/2017"), never bare or as the sale's.
func PrintedAsAnotherDate(lines []Line, loc receipt.Locale, now time.Time, d time.Time) bool {
	return onlyAsAnotherDate(dateCandidates(lines, loc, false, now), d)
}

// onlyAsAnotherDate is PrintedAsAnotherDate over the dates read.
func onlyAsAnotherDate(cands []dateCand, d time.Time) bool {
	labelledOther := false
	for _, c := range cands {
		if c.d.Equal(d) {
			if !c.other {
				return false
			}
			labelledOther = true
		}
	}
	return labelledOther
}

// AssessModel is Assess for a vision model's reading, with lines the page
// reader's: where the page reader shows a total or date the model read
// too, two readers agree.
func AssessModel(r *receipt.Receipt, lines []Line, loc receipt.Locale, now time.Time) {
	Assess(r, lines, loc, now)
	agree := func(support []receipt.Support) []receipt.Support {
		if receipt.HasSupport(support, receipt.EvidenceReading) {
			return appendSupport(support, receipt.EvidenceSecondReader, "the vision model read the same")
		}
		return support
	}
	if r.Total.Set && r.Total.Source != receipt.SourceUser {
		r.Total.Support = agree(r.Total.Support)
		r.Total.Confidence = calibrated("total", r.Total.Support, r.Total.Doubt)
	}
	if r.Date.Set && r.Date.Source != receipt.SourceUser {
		r.Date.Support = agree(r.Date.Support)
		r.Date.Confidence = calibrated("date", r.Date.Support, r.Date.Doubt)
	}
}

// HasDate says whether a date is read on the line.
func HasDate(l Line, loc receipt.Locale, now time.Time) bool {
	return len(dateCandidates([]Line{l}, loc, false, now)) > 0
}

// HasAmount says whether an amount is read on the line.
func HasAmount(l Line) bool { return len(amountsIn(l.Text)) > 0 }

// DateWordsBox is the box of the words of a line that print its date (one
// word, or two or three together: "Jan 28, 2018"), without the rest of
// the line; ok is false when no run of up to three words prints one.
func DateWordsBox(l Line, loc receipt.Locale, now time.Time) (box receipt.Box, ok bool) {
	for n := 1; n <= 3; n++ {
		for i := 0; i+n <= len(l.Words); i++ {
			run := l.Words[i : i+n]
			if !HasDate(AsOneLine(run), loc, now) {
				continue
			}
			box = run[0].Box
			for _, w := range run[1:] {
				box = box.Union(w.Box)
			}
			return box, true
		}
	}
	return receipt.Box{}, false
}

// taxPrintedBelow says whether a receipt's tax is printed below the page
// height y: its tax line, or where the tax is the sum of a VAT table's
// rows, every row.
func taxPrintedBelow(r receipt.Receipt, y int) bool {
	if r.TotalTax.Box != nil {
		return r.TotalTax.Box.Y > y
	}
	for _, tl := range r.TaxLines {
		if tl.Tax.Box == nil || tl.Tax.Box.Y <= y {
			return false
		}
	}
	return len(r.TaxLines) > 0
}
