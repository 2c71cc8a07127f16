package fields

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// ExtractFields finds a receipt's fields in its text lines by layout rules:
// supplier in the top lines (legal suffixes first), the address block below
// it, the date, totals by weighted keyword votes, tax, tax ID, document
// number, payment method and, when they add up, line items.
func ExtractFields(lines []Line, loc receipt.Locale, now time.Time) receipt.Receipt {
	lines = mendLineText(trimEdgeSpecks(lines))
	loc, det := PageLocale(lines, loc)
	if det.Pack != nil && slices.Contains(det.Pack.CurrencyMarks, "€") {
		lines = mendEuroSign(lines)
	}
	var r receipt.Receipt
	readSupplier(&r, lines, loc, det.Pack)
	SetDate(&r, FindDate(lines, loc, now))
	upper := make([]string, len(lines))
	for i, l := range lines {
		upper[i] = moneyKeywords(l, det.Pack)
	}
	leaveOutSumsInOtherCurrencies(lines, upper, det)
	lines, items, printed := readMoney(&r, lines, upper, loc)
	readIdentifiers(&r, lines, loc, det.Pack)
	if det.Pack != nil {
		r.PrintedIn = receipt.Text{Value: det.Pack.Country, Set: true, Source: receipt.SourceOCR, Confidence: confAssumed, Why: det.Why}
		if det.Sure {
			r.PrintedIn.Confidence = confLikely
		}
		r.TaxRules = loc.Country
	}
	readCurrencyAndPayment(&r, upper, det, loc, now)
	totalInItsCurrency(&r, lines, det)
	if !r.Subtotal.Set && (r.Total.Set != printed.Set || !r.Total.Value.Equal(printed.Value)) {
		items, _ = findLineItems(lines, upper, r) // they add up to the total, which changed
	}
	r.LineItems = items
	readTaxLines(&r, lines, upper, loc)
	readAdjustments(&r, lines, upper)
	mendTotalOneDigitOff(&r, lines, upper)
	pricesWithoutTheTax(&r)
	pricesWithTheTax(&r)
	readInvoice(lines, loc, now, &r)
	pricesWithoutTheTax(&r) // an invoice's net and tax, read now, make its gross
	return r
}

// leaveOutSumsInOtherCurrencies: where tourists pay, tills print the
// total again in their currency ("TOTAL CHF 51.45 / Total in EUR 55.92",
// "Total USD aprox. 145,20") and what they paid in it ("Bar EUR 60.00 zu
// Kurs 0.92"). A total or payment line that names only another currency
// than the one the page prints most is no reading of the receipt's total
// or of the amount paid, when a total line in the page's own currency, or
// naming none, is printed: its keywords are left out. A country changing
// its currency prints both of its own (see totalInItsCurrency).
func leaveOutSumsInOtherCurrencies(lines []Line, upper []string, det packs.Detection) {
	if det.Currency == "" {
		return
	}
	var foreign []int
	own := false
	for i, l := range lines {
		total := labelsTotal(upper[i])
		if !total && !labelsPayment(upper[i]) || len(amountsIn(l.Text)) == 0 {
			continue
		}
		cur := packs.LineCurrencies(l.Text)
		switch {
		case len(cur) == 0 || cur[det.Currency] > 0:
			own = own || total
		case !changesBetween(det.Pack, det.Currency, cur):
			foreign = append(foreign, i)
		}
	}
	if !own {
		return
	}
	for _, i := range foreign {
		upper[i] = ""
	}
}

// changesBetween says whether the page's country changed from or to its
// currency and one a line prints.
func changesBetween(pk *packs.Pack, page string, line map[string]int) bool {
	if pk == nil || !slices.Contains(pk.Currencies(), page) {
		return false
	}
	return slices.ContainsFunc(pk.Currencies(), func(c string) bool { return c != page && line[c] > 0 })
}

// labelsTotal says whether a line's keywords label a total (not a
// subtotal, a tax's total or a payment).
func labelsTotal(k string) bool {
	if reNotTotal.MatchString(k) {
		return false
	}
	for _, rule := range totalRules {
		if !rule.paid && rule.re.MatchString(k) {
			return true
		}
	}
	return false
}

// labelsPayment says whether a line's keywords label an amount paid (in
// cash, by card) and not the change.
func labelsPayment(k string) bool {
	if reChange.MatchString(k) {
		return false
	}
	return reCashLine.MatchString(k) || totalRules[len(totalRules)-1].re.MatchString(k)
}

// pricesWithoutTheTax unticks "tax inclusive" where a label said the total
// includes the tax ("Total Incl. Tax 203.47", as every total does) but the
// sums say the prices did not: the subtotal and its adjustments make the
// total only with the tax added, and the items do not make it alone.
func pricesWithoutTheTax(r *receipt.Receipt) {
	if !r.TaxInclusive.Value || !r.Subtotal.Set || !r.Total.Set || !r.TotalTax.Value.IsPositive() {
		return
	}
	base := r.Subtotal.Value.Add(r.Tip.Value).Sub(r.Discount.Value).Add(r.Rounding.Value)
	if base.Equal(r.Total.Value) || !base.Add(r.TotalTax.Value).Equal(r.Total.Value) {
		return
	}
	if items, _ := receipt.ItemsSum(*r); items.Equal(r.Total.Value) || receipt.NetBelowTotal(r) {
		return // priced with their tax; the subtotal is the tax table's net
	}
	r.TaxInclusive = receipt.Field[bool]{Value: false, Set: true, Source: receipt.SourceOCR, Confidence: confLikely}
}

// pricesWithTheTax ticks "prices include tax" where no label said either
// way and the page's sums show it: the tax, or the VAT table, printed
// below the total breaks down what was paid ("Moms 25% udgør" under "I
// ALT", a German MwSt table under SUMME); the VAT table's rows, net and
// tax, make the total; or the subtotal and its adjustments make the total
// without the tax. Never where the subtotal needs the tax added to make it.
func pricesWithTheTax(r *receipt.Receipt) {
	tax := r.TotalTax.Value
	if !r.TotalTax.Set {
		tax = receipt.TaxLinesTotal(r.TaxLines)
	}
	if r.TaxInclusive.Set || !r.Total.Set || !tax.IsPositive() {
		return
	}
	base := r.Subtotal.Value.Add(r.Tip.Value).Sub(r.Discount.Value).Add(r.Rounding.Value)
	if r.Subtotal.Set && base.Add(tax).Equal(r.Total.Value) {
		return
	}
	var why string
	gross, table := vatTableGross(r.TaxLines)
	switch {
	case r.Total.Box != nil && taxPrintedBelow(*r, r.Total.Box.Y+r.Total.Box.H):
		why = "the tax is printed below the total, as a part of it"
	case table && gross.Equal(r.Total.Value):
		why = "the VAT table's net and tax make the total"
	case r.Subtotal.Set && base.Equal(r.Total.Value):
		why = "the subtotal makes the total without the tax added"
	default:
		return
	}
	r.TaxInclusive = receipt.Field[bool]{Value: true, Set: true, Source: receipt.SourceOCR, Confidence: confLikely, Why: why}
}

// setText sets a text field read from the page (an empty value leaves it).
func setText(f *receipt.Text, v string, conf float64, box *receipt.Box) {
	if v != "" {
		*f = receipt.Text{Value: v, Set: true, Source: receipt.SourceOCR, Confidence: clamp(conf), Box: box}
	}
}

// boxOf is a line's place on the page, nil when the reader gave none.
func boxOf(l Line) *receipt.Box {
	if l.Box.W == 0 && l.Box.H == 0 {
		return nil
	}
	b := l.Box
	return &b
}

// readSupplier reads the supplier's name (mended, doubted when it looks
// garbled) and the address below it.
func readSupplier(r *receipt.Receipt, lines []Line, loc receipt.Locale, pk *packs.Pack) {
	lx := lexiconOf(packOf(loc)) // the page's pack, else the client's country's
	co, coIdx, coLast := findCompany(lines, pk)
	if coIdx >= 0 {
		b := boxOf(lines[coIdx])
		for _, l := range lines[coIdx+1 : coLast+1] {
			if b != nil && l.Box.W > 0 {
				u := b.Union(l.Box)
				b = &u
			}
		}
		if coIdx > 0 && strings.Contains(co.Value, lines[coIdx-1].Text) && b != nil && lines[coIdx-1].Box.W > 0 {
			u := b.Union(lines[coIdx-1].Box)
			b = &u
		}
		co.Value = joinSpacedLetters(co.Value)
		if !fromTextLayer(lines) { // a text layer's letters are exact: no misreading to mend
			co.Value = closeBracketBeforeLegalForm(lx.mendFromPage(lx.mendNameWords(lx.mendBracketLookalikes(mendZeroInNameWords(co.Value), lines, coIdx, coLast)), lines, coIdx, coLast))
		}
		if co.Value != "" {
			co.Box = b
			if why := garbledName(co.Value); why != "" {
				co.Confidence = min(co.Confidence, receipt.LowConfidence-0.15)
				co.Doubt = "the name may be misread: " + why
			}
			r.SupplierName = co
		}
		if addr := findAddress(lines, coLast, pk, lx); addr.Value != "" {
			addr.Value = mendPostcode(lx.mendFromPage(mendUnreadSharpS(lx.mendAddressText(mendZeroInAddressWords(addr.Value, loc.Country)), pk), lines, -1, -1), loc.Country, lx)
			if addr.Value != "" {
				r.SupplierAddress = addr
			}
		}
	}
}

// readMoney reads the labelled amounts (subtotal, tax, rounding, cash,
// change, service), the line items, and the total with the arithmetic that
// confirms or mends it, falling back step by step where no total is
// printed. It returns the lines (a "$" read as a digit mended), the items
// and the total as printed.
func readMoney(r *receipt.Receipt, lines []Line, upper []string, loc receipt.Locale) ([]Line, []receipt.LineItem, receipt.Amount) {
	if total := findTotal(lines, upper); total.Set {
		r.Total = total
		lines = mendDollarReadAsDigit(lines, upper, total.Value)
	}
	if total, tip, _, at, ok := totalAfterTip(lines, upper); ok && r.Total.Value.Equal(total) {
		r.Tip = found(tip, at.Conf*factorLabelled, boxOf(at), "the tip on the card slip")
	}
	var service, change *decimal.Decimal
	taxFromTotalLine, paidIsTotal := false, false
	for i, l := range lines {
		amts := amountsIn(l.Text)
		if len(amts) == 0 {
			continue
		}
		last := amts[len(amts)-1]
		k := upper[i]
		switch {
		case service == nil && reServiceCharge.MatchString(k):
			service = &last
		case change == nil && reChange.MatchString(k) && !strings.Contains(k, "TOTAL"):
			v := last.Abs()
			change = &v
		case !r.Subtotal.Set && reSubtotal.MatchString(k):
			r.Subtotal = found(last, l.Conf*factorLabelled, boxOf(l), "the amount on the subtotal line")
		case !r.Rounding.Set && strings.Contains(k, "ROUNDING") && !strings.Contains(k, "TOTAL"):
			if reMinusCurrency.MatchString(l.Text) && last.IsPositive() {
				last = last.Neg() // "ROUNDING ADJUSTMENT -RM 0.01"
			}
			r.Rounding = found(last, l.Conf*factorSecondReading, boxOf(l), "the amount on the rounding line")
		case !taxFromTotalLine && reTotalTaxLine.MatchString(k) && !strings.Contains(k, "INC") && !strings.Contains(k, "INVOICE"):
			// "TOTAL GST 2.69" sums the tax lines above it: it wins over them.
			r.TotalTax = found(last, l.Conf*confLikely, boxOf(l), "the amount on the total tax line")
			taxFromTotalLine = true
		case !r.TotalTax.Set && reTaxWord.MatchString(k) && !reNotTaxAmount.MatchString(k):
			r.TotalTax = found(last, l.Conf*confLikely, boxOf(l), "the amount on a line that names the tax")
		case (!r.AmountPaid.Set || paidIsTotal) && reCashLine.MatchString(k) && !reChange.MatchString(k):
			// "Cash Total $41.70" is the total in cash; the "Cash Tendered
			// $50.00" below it is what was handed over.
			r.AmountPaid = found(last.Abs(), l.Conf*confLikely, boxOf(l), "the amount on the cash line")
			paidIsTotal = strings.Contains(k, "TOTAL")
		}
	}
	ApplyCashRounding(r)
	items, sub := findLineItems(lines, upper, *r)
	if sub.Set && !r.Subtotal.Set {
		r.Subtotal = sub
	}
	totalMended := false
	if items == nil {
		items = totalFromItems(r, lines, upper, receipt.PlausibleRates(loc.Country), change)
		totalMended = items != nil
	}
	printed := r.Total
	itemsConfirm := r.Total.Set && !r.Subtotal.Set && items != nil
	var supplies *decimal.Decimal
	if loc.Country == receipt.CountryMY { // Malaysian GST invoices' supply totals
		supplies = suppliesTotal(lines, upper, r.TotalTax, receipt.PlausibleRates(loc.Country))
	}
	reconcileTotal(r, service, change, supplies, itemsConfirm || printedTwice(lines, r.Total), roundsCash(*r, upper), dollarLostOnTotal(lines, r.Total))
	if totalMended {
		// Cash less change that confirmed the mend confirms it no more
		// in reconcileTotal: the printed total still disagrees.
		r.Total.Confidence = min(r.Total.Confidence, 0.5)
	}
	applySumBlock(r, lines, upper)
	readSurcharge(r, lines, upper)
	if !r.Total.Set {
		if v, l, ok := subtotalAfterAdjustments(lines, upper); ok {
			r.Total = found(v, l.Conf*confComputed, boxOf(l), "no total printed: the subtotal, after the adjustments below it")
		}
	}
	if !r.Total.Set && (r.TotalTax.Set && r.TotalTax.Value.IsPositive() || !unreadSumsAfterSubtotal(lines, upper)) {
		totalFromSubtotal(r, receipt.PlausibleRates(loc.Country))
		ApplyCashRounding(r) // "SUB TOTAL 64.00 / GST 3.84 / ROUNDING ADJ 0.01"
	}
	if !r.Total.Set {
		if v, l, ok := totalAboveRounding(lines, upper); ok {
			r.Total = found(v, l.Conf*confComputed, boxOf(l), "no total label read: the amount above the rounding line")
		}
	}
	if !r.Total.Set {
		if v, l, ok := paidWithoutChange(lines, upper); ok {
			r.Total = found(v, l.Conf*factorLastResort, boxOf(l), "no total label read: the amount paid, with no change given")
		}
	}
	if r.TotalTax.Set && r.Total.Set && r.TotalTax.Value.GreaterThanOrEqual(r.Total.Value) {
		r.TotalTax = receipt.Amount{} // a tax-exclusive subtotal read as tax
	}

	return lines, items, printed
}

// readIdentifiers reads the supplier's tax ID and the document number.
func readIdentifiers(r *receipt.Receipt, lines []Line, loc receipt.Locale, pk *packs.Pack) {
	r.SupplierTaxID = findTaxID(lines, loc, pk)
	r.SupplierPhone = findSupplierPhone(lines, pk)
	for _, l := range lines {
		if no := pk.ReceiptNumber(l.Text); no != "" {
			r.DocumentNumber = found(no, l.Conf*0.8, boxOf(l), "the number after the page's word for a receipt") // "Kvittering 4-118730"
			break
		}
	}
	for _, l := range lines {
		if !r.DocumentNumber.Set {
			if m := reDocNo.FindStringSubmatch(strings.ToUpper(l.Text)); m != nil && strings.ContainsAny(m[1], "0123456789") {
				setText(&r.DocumentNumber, m[1], l.Conf*0.8, boxOf(l))
			}
		}
	}

	if !r.SupplierTaxID.Set || receipt.ValidateTaxID(r.SupplierTaxID.Value) != nil {
		if id := labelledTaxID(lines, loc, pk); id.Set {
			r.SupplierTaxID = id
		} else if id := bareVATNumber(lines); id.Set {
			r.SupplierTaxID = id
		}
	}
}

// readCurrencyAndPayment takes the currency the page prints (or its
// country's on the receipt's day, when the page is surely from one; else
// the client's, assumed) and the payment method. A page that prints two
// of its country's currencies, around a change from one to the other, is
// in the one in force on its day.
func readCurrencyAndPayment(r *receipt.Receipt, upper []string, det packs.Detection, loc receipt.Locale, now time.Time) {
	pk := det.Pack
	joined := strings.ToUpper(strings.Join(upper, "\n"))
	switch {
	case det.Currency != "":
		setText(&r.Currency, det.Currency, confPrinted, nil)
		r.Currency.Why = "printed on the page"
		if c := currencyInForce(pk, *r, now); c != "" && c != det.Currency && det.Printed[c] > 0 && slices.Contains(pk.Currencies(), det.Currency) {
			setText(&r.Currency, c, confPrinted, nil)
			r.Currency.Why = fmt.Sprintf("printed on the page, and in force on its day (it prints %s too)", det.Currency)
		}
	case pk != nil && pk.Country == "MY" && reRinggit.MatchString(joined):
		setText(&r.Currency, "MYR", confPrinted, nil)
		r.Currency.Why = "printed on the page (RM)"
	case det.Sure && pk != nil:
		setText(&r.Currency, currencyInForce(pk, *r, now), confLikely, nil)
		r.Currency.Why = "no currency printed; the page is from " + det.Why
	case loc.Currency != "":
		setText(&r.Currency, loc.Currency, confClientDefault, nil)
		r.Currency.Why = "no currency printed, and nothing on the page tells its country: the client's currency, assumed"
	}
	for _, pm := range paymentMethods {
		if pm.re.MatchString(joined) {
			setText(&r.PaymentMethod, pm.name, confLikely, nil)
			break
		}
	}
}

// readTaxLines reads the tax lines (a VAT table's, per rate) and mends the
// total and the tax from them.
func readTaxLines(r *receipt.Receipt, lines []Line, upper []string, loc receipt.Locale) {
	r.TaxLines, r.TaxInclusive = findTaxLines(lines, upper, *r)
	if r.TotalTax.Set && len(r.TaxLines) > 0 && breakdownMakesTotal(r.TaxLines, *r) {
		r.TotalTax = receipt.Amount{Value: receipt.TaxLinesTotal(r.TaxLines), Set: true, Source: receipt.SourceOCR, Confidence: r.TaxLines[0].Tax.Confidence, Why: "the sum of the tax table's rows, which with the subtotal make the total"}
	}
	mendTotalFromVATTable(r, lines)
	mendSingleTaxLine(r, loc.Country)
	if !r.TotalTax.Set && len(r.TaxLines) > 0 && r.Total.Set {
		r.TotalTax = receipt.Amount{Value: receipt.TaxLinesTotal(r.TaxLines), Set: true, Source: receipt.SourceOCR, Confidence: r.TaxLines[0].Tax.Confidence * factorSecondReading, Why: "the sum of the tax lines"}
	}
}

func rawUpper(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.ToUpper(l.Text))
		b.WriteByte('\n')
	}
	return b.String()
}

// dollarLostOnTotal says whether the page prints "$" and the total's own
// line does not: a 5 or an 8 that opens its amount may be the sign.
func dollarLostOnTotal(lines []Line, total receipt.Amount) bool {
	if !total.Set || total.Box == nil || !strings.Contains(rawUpper(lines), "$") {
		return false
	}
	for _, l := range lines {
		if l.Box == *total.Box {
			return !strings.Contains(l.Text, "$")
		}
	}
	return false
}
