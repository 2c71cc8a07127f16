package export

import (
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// posting is one line of a bill or payment as the targets take it: gross
// (tax-inclusive) amounts whose sum is the receipt's total exactly, and
// taxes whose sum is its printed tax where that tax can be claimed.
type posting struct {
	Description      string
	Qty, Unit        decimal.Decimal // Qty × Unit = Gross
	Gross, Tax       decimal.Decimal
	Account, TaxCode string
	Item             int // the line item it books, -1 for the receipt's own lines
}

var (
	one     = decimal.NewFromInt(1)
	hundred = decimal.NewFromInt(100)
)

// accountFor is the account a receipt is booked to: as a person or the
// supplier's rule coded it, else its category's account, else the
// client's default account.
func (b Books) accountFor(c *Coded) string {
	if c.Account != "" {
		return c.Account
	}
	if a := b.Categories[receipt.Fold(c.Receipt.Category.Value)]; a != "" {
		return a
	}
	return b.DefaultAccount
}

// rateCode is the tax code a tax line of rate gets: the code marked the
// default for that rate, else the only code with it; "" when none fits.
func (b Books) rateCode(rate decimal.Decimal) string {
	var found []string
	for code, t := range b.TaxCodes {
		if !t.RateSet || !t.Rate.Equal(rate) {
			continue
		}
		if t.DefaultForRate {
			return code
		}
		found = append(found, code)
	}
	if len(found) == 1 {
		return found[0]
	}
	return ""
}

// standardRates are the positive rates the client's tax codes are the
// default for, highest first.
func (b Books) standardRates() []decimal.Decimal {
	var out []decimal.Decimal
	for _, t := range b.TaxCodes {
		if t.DefaultForRate && t.RateSet && t.Rate.IsPositive() {
			out = append(out, t.Rate)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GreaterThan(out[j]) })
	return out
}

// foreignReason says why a receipt's tax cannot be claimed in the client's
// books: it is in another currency, or was charged under another country's
// tax rules. "" when it can.
func (b Books) foreignReason(r *receipt.Receipt) string {
	cur := currencyOf(r, b.Locale)
	if b.Locale.Currency != "" && cur != b.Locale.Currency {
		return fmt.Sprintf("in %s, not %s: its tax is not claimable here", cur, b.Locale.Currency)
	}
	if r.TaxRules != "" && b.Locale.Country != "" && r.TaxRules != b.Locale.Country {
		return fmt.Sprintf("tax charged under %s rules is not claimable here", r.TaxRules)
	}
	// Only where the page's own words named its country (the reading's
	// confidence above its guess from the client's prior).
	if in := r.PrintedIn.Value; r.PrintedIn.Set && r.PrintedIn.Confidence > printedInGuessed && in != "" && b.Country != "" && !strings.EqualFold(in, b.Country) {
		return fmt.Sprintf("tax charged in %s is not claimable in %s's return", countryName(in), countryName(b.Country))
	}
	return ""
}

// printedInGuessed is the confidence of a receipt's PrintedIn that the
// reading rules took from the client's country, the page saying nothing
// sure of its own (fields' confAssumed).
const printedInGuessed = 0.6

// countryName is a country pack's name ("Germany" for "DE"), the tax
// rules' in words ("a euro country" for EU), else the code.
func countryName(code string) string {
	switch code {
	case "EU":
		return "a euro country"
	case "other":
		return "another country"
	}
	if p, ok := packs.Get(code); ok {
		return p.Name
	}
	return code
}

// codeRate is a tax code's rate, if the books know it.
func (b Books) codeRate(code string) (decimal.Decimal, bool) {
	t, ok := b.TaxCodes[code]
	return t.Rate, ok && t.RateSet
}

// postings splits a receipt into the lines a target books: one line per
// tax rate (its net and tax as the receipt's tax lines give them), a tip
// and rounding on lines of their own, and whatever the total holds beyond
// them on a line without tax; or, when itemised or when a person booked
// its line items one by one, its line items.
func postings(c *Coded, b Books, itemised bool) []posting {
	if c.Receipt.Total.Value.IsNegative() {
		// A refund or credit note books as its purchase would, negated.
		pos := negated(c)
		ps := postings(&pos, b, itemised)
		for i := range ps {
			ps[i].Gross, ps[i].Tax = ps[i].Gross.Neg(), ps[i].Tax.Neg()
			ps[i].Unit = ps[i].Unit.Neg()
		}
		return ps
	}
	// Line items a person booked one by one ask for an itemised receipt.
	if (itemised || len(c.Lines) > 0) && hasItems(&c.Receipt) {
		return itemPostings(c, b)
	}
	return ratePostings(c, b)
}

// negated is a refund's receipt with every amount's sign turned.
func negated(c *Coded) Coded {
	n := *c
	r := &n.Receipt
	neg := func(a receipt.Amount) receipt.Amount {
		a.Value = a.Value.Neg()
		return a
	}
	r.Total, r.TotalTax, r.Tip, r.Rounding, r.Subtotal = neg(r.Total), neg(r.TotalTax), neg(r.Tip), neg(r.Rounding), neg(r.Subtotal)
	r.TaxLines = append([]receipt.TaxLine(nil), r.TaxLines...)
	for i := range r.TaxLines {
		r.TaxLines[i].Net, r.TaxLines[i].Tax = neg(r.TaxLines[i].Net), neg(r.TaxLines[i].Tax)
	}
	r.LineItems = append([]receipt.LineItem(nil), r.LineItems...)
	for i := range r.LineItems {
		r.LineItems[i].LineTotal, r.LineItems[i].UnitPrice = neg(r.LineItems[i].LineTotal), neg(r.LineItems[i].UnitPrice)
	}
	return n
}

func hasItems(r *receipt.Receipt) bool {
	for _, li := range r.LineItems {
		if !li.LineTotal.Set {
			return false
		}
	}
	return len(r.LineItems) > 0
}

// purchaseText names a receipt's lines: its category, else its supplier.
func purchaseText(r *receipt.Receipt) string {
	if d := importText(r.Category.Value); d != "" {
		return d
	}
	if d := importText(r.SupplierName.Value); d != "" {
		return d
	}
	return "Purchase"
}

func ratePostings(c *Coded, b Books) []posting {
	r := &c.Receipt
	cur := currencyOf(r, b.Locale)
	digits := int32(receipt.MinorDigits(cur))
	account := b.accountFor(c)
	desc := purchaseText(r)
	var ps []posting
	add := func(d string, gross, tax decimal.Decimal, code string) {
		ps = append(ps, posting{Item: -1, Description: d, Qty: one, Unit: gross, Gross: gross, Tax: tax, Account: account, TaxCode: code})
	}
	outside := b.OutsideTaxCode
	if outside == "" {
		outside = b.FreeTaxCode
	}
	// A tip and rounding carry no tax: lines of their own, never coded as
	// the purchase is.
	base := r.Total.Value
	var tail []posting
	if r.Tip.Set && !r.Tip.Value.IsZero() {
		tail = append(tail, posting{Item: -1, Description: "Tip", Qty: one, Unit: r.Tip.Value, Gross: r.Tip.Value, Account: account, TaxCode: outside})
		base = base.Sub(r.Tip.Value)
	}
	if r.Rounding.Set && !r.Rounding.Value.IsZero() {
		tail = append(tail, posting{Item: -1, Description: "Rounding", Qty: one, Unit: r.Rounding.Value, Gross: r.Rounding.Value, Account: account, TaxCode: outside})
		base = base.Sub(r.Rounding.Value)
	}
	tax := taxOf(r)
	label := labelOr("", b.Locale)
	if len(r.TaxLines) > 0 && r.TaxLines[0].Label.Value != "" {
		label = strings.ToUpper(importText(r.TaxLines[0].Label.Value))
	}
	free := c.TaxCode
	if rate, ok := b.codeRate(free); free == "" || ok && rate.IsPositive() {
		free = b.FreeTaxCode
	}
	switch {
	case b.foreignReason(r) != "":
		code := c.TaxCode
		if code == "" {
			code = outside
		}
		add(desc, base, decimal.Zero, code)
	case b.TaxIsCost:
		code := c.TaxCode
		if code == "" {
			code = b.rateCode(decimal.Zero)
			if tax.IsZero() || code == "" {
				code = b.FreeTaxCode
			}
		}
		add(desc, base, decimal.Zero, code)
	case len(r.TaxLines) > 0 && receipt.TaxLinesTotal(r.TaxLines).Equal(tax) && tax.IsPositive() && taxLinesBookable(r.TaxLines):
		ps = taxLinePostings(c, b, base, desc, account, free, digits)
	case tax.IsPositive():
		ps = oneRatePostings(c, b, base, tax, desc, label, account, free, digits)
	default:
		code := c.TaxCode
		if rate, ok := b.codeRate(code); ok && rate.IsPositive() && !r.TotalTax.Set && len(r.TaxLines) == 0 {
			// Coded to a taxed code by a person or rule, the tax not read:
			// the code's rate gives it.
			add(desc, base, base.Mul(rate).Div(hundred.Add(rate)).Round(digits), code)
			break
		}
		add(desc+" (no "+label+")", base, decimal.Zero, free)
	}
	return append(ps, tail...)
}

// taxLinesBookable: every tax line that carries tax gives its net, or a
// rate to work the net out from.
func taxLinesBookable(lines []receipt.TaxLine) bool {
	for _, tl := range lines {
		if !tl.Tax.Value.IsZero() && !tl.Net.Set && !(tl.Rate.Set && tl.Rate.Value.IsPositive()) {
			return false
		}
	}
	return true
}

// taxLinePostings books one line per tax line: its net plus its tax, at
// the code for its rate. What the total holds beyond the tax lines goes on
// a line without tax; a net worked out from a rounded tax absorbs the
// rounding it carries.
func taxLinePostings(c *Coded, b Books, base decimal.Decimal, desc, account, free string, digits int32) []posting {
	r := &c.Receipt
	var ps []posting
	slack, derived := decimal.Zero, -1
	minor := decimal.New(5, -digits-1)
	remaining := base
	for _, tl := range r.TaxLines {
		net := tl.Net.Value
		rate, rateKnown := tl.Rate.Value, tl.Rate.Set
		if !tl.Net.Set {
			if !rateKnown || !rate.IsPositive() {
				continue // no tax and no net: the remainder line takes it
			}
			net = tl.Tax.Value.Mul(hundred).Div(rate).Round(digits)
			slack = slack.Add(minor.Mul(hundred.Add(rate)).Div(rate)).Add(minor)
			derived = len(ps)
		}
		if !rateKnown {
			rate = nearestRate(b, net, tl.Tax.Value)
		}
		code := b.rateCode(rate)
		if c.TaxCode != "" {
			if cr, ok := b.codeRate(c.TaxCode); len(r.TaxLines) == 1 || ok && cr.Equal(rate) {
				code = c.TaxCode
			}
		}
		label := strings.ToUpper(importText(tl.Label.Value))
		if label == "" {
			label = labelOr("", b.Locale)
		}
		gross := net.Add(tl.Tax.Value)
		ps = append(ps, posting{
			Item: -1, Description: fmt.Sprintf("%s (%s %s%%)", desc, label, rate.String()), Qty: one, Unit: gross,
			Gross: gross, Tax: tl.Tax.Value, Account: account, TaxCode: code,
		})
		remaining = remaining.Sub(gross)
	}
	if derived >= 0 && !remaining.IsZero() && remaining.Abs().LessThanOrEqual(slack) {
		p := &ps[derived]
		p.Gross = p.Gross.Add(remaining)
		p.Unit = p.Gross
		remaining = decimal.Zero
	}
	if !remaining.IsZero() {
		d := "Other amounts (no tax)"
		if remaining.IsNegative() {
			d = "Discount"
		}
		ps = append(ps, posting{Item: -1, Description: d, Qty: one, Unit: remaining, Gross: remaining, Account: account, TaxCode: free})
	}
	return ps
}

// nearestRate is the client's rate nearest to tax / net, or that ratio.
func nearestRate(b Books, net, tax decimal.Decimal) decimal.Decimal {
	if !net.IsPositive() {
		return decimal.Zero
	}
	r := tax.Mul(hundred).Div(net)
	for _, s := range b.standardRates() {
		if s.Sub(r).Abs().LessThanOrEqual(decimal.New(5, -1)) {
			return s
		}
	}
	return r.Round(2)
}

// oneRatePostings books a receipt whose tax has no breakdown by rate. When
// the tax is what one of the client's rates gives on the whole amount, it
// is one line at that rate; when it is less (a supermarket receipt with
// taxed and tax-free goods), the taxed part is what the tax is the rate of,
// and the rest is a line without tax.
func oneRatePostings(c *Coded, b Books, base, tax decimal.Decimal, desc, label, account, free string, digits int32) []posting {
	line := func(d string, gross, t decimal.Decimal, code string) posting {
		return posting{Item: -1, Description: d, Qty: one, Unit: gross, Gross: gross, Tax: t, Account: account, TaxCode: code}
	}
	rates := b.standardRates()
	if cr, ok := b.codeRate(c.TaxCode); ok && cr.IsPositive() {
		rates = []decimal.Decimal{cr}
	}
	if len(rates) == 0 {
		return []posting{line(desc, base, tax, c.TaxCode)}
	}
	// A printed tax is rounded (and often summed per item): allow a cent
	// per ten of tax.
	tolerance := decimal.New(1, -digits).Add(tax.Div(decimal.NewFromInt(1000)))
	for _, rate := range rates {
		want := base.Mul(rate).Div(hundred.Add(rate))
		if want.Sub(tax).Abs().LessThanOrEqual(tolerance) {
			return []posting{line(fmt.Sprintf("%s (%s %s%%)", desc, label, rate), base, tax, codeOr(c.TaxCode, b.rateCode(rate)))}
		}
	}
	// Less tax than the lowest rate gives on the whole: part was taxed at
	// the standard rate (the highest), the rest not.
	rate := rates[0]
	taxed := tax.Mul(hundred.Add(rate)).Div(rate).Round(digits)
	if taxed.GreaterThanOrEqual(base) {
		return []posting{line(fmt.Sprintf("%s (%s %s%%)", desc, label, rate), base, tax, codeOr(c.TaxCode, b.rateCode(rate)))}
	}
	return []posting{
		line(fmt.Sprintf("%s (%s %s%%)", desc, label, rate), taxed, tax, codeOr(c.TaxCode, b.rateCode(rate))),
		line(desc+" (no "+label+")", base.Sub(taxed), decimal.Zero, free),
	}
}

func codeOr(chosen, def string) string {
	if chosen != "" {
		return chosen
	}
	return def
}

// itemPostings books each line item on its own line, as a person coded it
// (else as the receipt is booked), with a line for whatever the total
// holds beyond them; the receipt's tax is shared among the lines whose tax
// code carries tax, in proportion to their amounts.
func itemPostings(c *Coded, b Books) []posting {
	r := &c.Receipt
	digits := int32(receipt.MinorDigits(currencyOf(r, b.Locale)))
	total := r.Total.Value
	account := b.accountFor(c)
	tax := taxOf(r)
	receiptCode := c.TaxCode
	if receiptCode == "" {
		switch {
		case b.foreignReason(r) != "":
			receiptCode = b.OutsideTaxCode
		case b.TaxIsCost && tax.IsPositive():
			receiptCode = codeOr(b.rateCode(decimal.Zero), b.FreeTaxCode)
		case b.TaxIsCost || !tax.IsPositive():
			receiptCode = b.FreeTaxCode
		case len(r.TaxLines) == 1 && r.TaxLines[0].Rate.Set:
			receiptCode = b.rateCode(r.TaxLines[0].Rate.Value)
		default:
			if rates := b.standardRates(); len(rates) > 0 {
				receiptCode = b.rateCode(rates[0])
			}
		}
	}
	var ps []posting
	sum := decimal.Zero
	for i, li := range r.LineItems {
		acct, tc := account, receiptCode
		if lc, ok := c.Lines[i]; ok {
			acct, tc = codeOr(lc.Account, acct), codeOr(lc.TaxCode, tc)
		}
		p := posting{Item: i, Description: importText(li.Description.Value), Qty: one, Unit: li.LineTotal.Value, Gross: li.LineTotal.Value, Account: acct, TaxCode: tc}
		if li.Quantity.Set && li.UnitPrice.Set && !li.Quantity.Value.IsZero() && li.Quantity.Value.Mul(li.UnitPrice.Value).Equal(li.LineTotal.Value) {
			p.Qty, p.Unit = li.Quantity.Value, li.UnitPrice.Value
		}
		if p.Description == "" {
			p.Description = fmt.Sprintf("Item %d", i+1)
		}
		ps = append(ps, p)
		sum = sum.Add(p.Gross)
	}
	claimable := !b.TaxIsCost && b.foreignReason(r) == ""
	if !sum.Equal(total) && claimable && tax.IsPositive() && r.TaxInclusive.Set && !r.TaxInclusive.Value && sum.Add(tax).Equal(total) {
		// Items priced before tax: their tax shares make them gross.
		shares := share(tax, ps, b, digits)
		for i := range ps {
			ps[i].Gross = ps[i].Gross.Add(shares[i])
			ps[i].Qty, ps[i].Unit = one, ps[i].Gross
		}
		sum = total
	}
	if diff := total.Sub(sum); !diff.IsZero() {
		desc := "Other charges (tip, fees, rounding)"
		if diff.IsNegative() {
			desc = "Discount"
		}
		ps = append(ps, posting{Item: -1, Description: desc, Qty: one, Unit: diff, Gross: diff, Account: account, TaxCode: receiptCode})
	}
	if claimable {
		for i, s := range share(tax, ps, b, digits) {
			ps[i].Tax = s
		}
	}
	return ps
}

// share splits tax over the postings whose tax code carries tax (all of
// them when no code says), by amount, the rounding remainder going to the
// largest, so the shares add up to tax exactly.
func share(tax decimal.Decimal, ps []posting, b Books, digits int32) []decimal.Decimal {
	out := make([]decimal.Decimal, len(ps))
	var idx []int
	for i, p := range ps {
		t, ok := b.TaxCodes[p.TaxCode]
		if !ok || !t.RateSet || t.Rate.IsPositive() {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 || tax.IsZero() {
		return out
	}
	base := decimal.Zero
	for _, i := range idx {
		base = base.Add(ps[i].Gross)
	}
	if base.IsZero() {
		out[idx[0]] = tax
		return out
	}
	sort.SliceStable(idx, func(a, c int) bool { return ps[idx[a]].Gross.Abs().GreaterThan(ps[idx[c]].Gross.Abs()) })
	left := tax
	for _, i := range idx[1:] {
		out[i] = tax.Mul(ps[i].Gross).Div(base).Round(digits)
		left = left.Sub(out[i])
	}
	out[idx[0]] = left
	return out
}

// taxName is a tax code as program names it: Xero's display name, MYOB's
// code, QuickBooks' name; "" where the program takes none.
func (b Books) taxName(program, code string) string {
	t, ok := b.TaxCodes[code]
	switch program {
	case "xero":
		if ok {
			return t.XeroName
		}
		return ""
	case "myob":
		if ok && t.MYOBName != "" {
			return t.MYOBName
		}
	case "qbo":
		if names, known := ProgramTaxNames("qbo", string(b.Locale.Country)); known && len(names.Names) == 1 && names.Names[0] == "" {
			return "" // QuickBooks US: bills take no tax code
		}
		if ok && t.QBOName != "" {
			return t.QBOName
		}
	}
	return code
}

// accountName is an account as program names it: MYOB's number, the
// QuickBooks account name, else its code.
func (b Books) accountName(program, code string) string {
	a, ok := b.Accounts[code]
	if !ok {
		return code
	}
	switch program {
	case "myob":
		if a.MYOB != "" {
			return a.MYOB
		}
	case "qbo":
		if a.QBO != "" {
			return a.QBO
		}
		if a.Name != "" {
			return a.Name
		}
	}
	return code
}
