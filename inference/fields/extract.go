package fields

import (
	"strings"
	"time"
	"unicode"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// ExtractFields finds a receipt's fields in its text lines by layout rules:
// supplier in the top lines (legal suffixes first), the address block below
// it, the date, totals by weighted keyword votes, tax, tax ID, document
// number, payment method and, when they add up, line items.
func ExtractFields(lines []Line, loc receipt.Locale, now time.Time) receipt.Receipt {
	lines = mendLineText(trimEdgeSpecks(lines))
	var r receipt.Receipt
	src := receipt.SourceOCR
	set := func(f *receipt.Text, v string, conf float64, box *receipt.Box) {
		if v != "" {
			*f = receipt.Text{Value: v, Set: true, Source: src, Confidence: clamp(conf), Box: box}
		}
	}
	boxOf := func(l Line) *receipt.Box {
		if l.Box.W == 0 && l.Box.H == 0 {
			return nil
		}
		b := l.Box
		return &b
	}

	// Supplier and address.
	coIdx, coLast, coName, coConf := findCompany(lines)
	if coIdx >= 0 {
		b := boxOf(lines[coIdx])
		if coIdx > 0 && strings.Contains(coName, lines[coIdx-1].Text) && b != nil && lines[coIdx-1].Box.W > 0 {
			u := b.Union(lines[coIdx-1].Box)
			b = &u
		}
		set(&r.SupplierName, mendFromPage(tradeNameFixes.apply(mendTradeWords(mendZeroInNameWords(coName))), lines, coIdx, coLast), coConf, b)
		if addr, conf, box := findAddress(lines, coLast); addr != "" {
			addr = mendFromPage(mendPlacePhrases(addressAbbrevFixes.apply(mendAddressWords(addr))), lines, -1, -1)
			set(&r.SupplierAddress, mendPostcode(addr, loc.Country), conf, box)
		}
	}

	// Date and time.
	d, tm, conf, box := FindDate(lines, loc, now)
	SetDate(&r, d, tm, conf, box)

	// Money.
	upper := make([]string, len(lines))
	for i, l := range lines {
		upper[i] = mendTaxWord(keywordText(l.Text), l.Text)
	}
	if total, conf, box := findTotal(lines, upper); total.Set {
		total.Confidence, total.Box, total.Source = clamp(conf), box, src
		r.Total = total
		lines = mendDollarReadAsDigit(lines, upper, total.Value)
	}
	var service, change *decimal.Decimal
	taxFromTotalLine := false
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
			r.Subtotal = receipt.Amount{Value: last, Set: true, Source: src, Confidence: clamp(l.Conf * 0.9), Box: boxOf(l)}
		case !r.Rounding.Set && strings.Contains(k, "ROUNDING") && !strings.Contains(k, "TOTAL"):
			r.Rounding = receipt.Amount{Value: last, Set: true, Source: src, Confidence: clamp(l.Conf * 0.8), Box: boxOf(l)}
		case !taxFromTotalLine && reTotalTaxLine.MatchString(k) && !strings.Contains(k, "INC") && !strings.Contains(k, "INVOICE"):
			// "TOTAL GST 2.69" sums the tax lines above it: it wins over them.
			r.TotalTax = receipt.Amount{Value: last, Set: true, Source: src, Confidence: clamp(l.Conf * 0.7), Box: boxOf(l)}
			taxFromTotalLine = true
		case !r.TotalTax.Set && reTaxWord.MatchString(k) && !reNotTaxAmount.MatchString(k):
			r.TotalTax = receipt.Amount{Value: last, Set: true, Source: src, Confidence: clamp(l.Conf * 0.7), Box: boxOf(l)}
		case !r.AmountPaid.Set && reCashLine.MatchString(k) && !reChange.MatchString(k):
			r.AmountPaid = receipt.Amount{Value: last.Abs(), Set: true, Source: src, Confidence: clamp(l.Conf * 0.7), Box: boxOf(l)}
		}
	}
	applyCashRounding(&r)
	items, sub := findLineItems(lines, upper, r)
	if sub.Set && !r.Subtotal.Set {
		r.Subtotal = sub
	}
	totalMended := false
	if items == nil {
		items = totalFromItems(&r, lines, upper, receipt.PlausibleRates(loc.Country), change)
		totalMended = items != nil
	}
	printed := r.Total
	reconcileTotal(&r, service, change, suppliesTotal(lines, upper, r.TotalTax, receipt.PlausibleRates(loc.Country)), r.Total.Set && !r.Subtotal.Set && items != nil, roundsCash(r, upper))
	if totalMended {
		// Cash less change that confirmed the mend confirms it no more
		// in reconcileTotal: the printed total still disagrees.
		r.Total.Confidence = min(r.Total.Confidence, 0.5)
	}
	if !r.Total.Set {
		if v, l, ok := subtotalAfterAdjustments(lines, upper); ok {
			r.Total = receipt.Amount{Value: v, Set: true, Source: src, Confidence: clamp(l.Conf * 0.5), Box: boxOf(l)}
		}
	}
	if !r.Total.Set {
		totalFromSubtotal(&r, receipt.PlausibleRates(loc.Country))
		applyCashRounding(&r) // "SUB TOTAL 64.00 / GST 3.84 / ROUNDING ADJ 0.01"
	}
	if !r.Total.Set {
		if v, l, ok := totalAboveRounding(lines, upper); ok {
			r.Total = receipt.Amount{Value: v, Set: true, Source: src, Confidence: clamp(l.Conf * 0.5), Box: boxOf(l)}
		}
	}
	if !r.Total.Set {
		if v, l, ok := paidWithoutChange(lines, upper); ok {
			r.Total = receipt.Amount{Value: v, Set: true, Source: src, Confidence: clamp(l.Conf * 0.4), Box: boxOf(l)}
		}
	}
	if r.TotalTax.Set && r.Total.Set && r.TotalTax.Value.GreaterThanOrEqual(r.Total.Value) {
		r.TotalTax = receipt.Amount{} // a tax-exclusive subtotal read as tax
	}

	// Identifiers.
	for _, l := range lines {
		if !r.SupplierTaxID.Set {
			if m := reGSTID.FindStringSubmatch(l.Text); m != nil {
				// Digits read as letters inside the number ("ABN 5@ 281 977 903",
				// "DES97809626").
				num := m[1]
				if len(num) > 2 && unicode.IsLetter(rune(num[0])) && unicode.IsLetter(rune(num[1])) {
					num = num[:2] + digitOf.Replace(num[2:])
				} else {
					num = digitOf.Replace(num)
				}
				read := receipt.DetectTaxID(m[0][:len(m[0])-len(m[1])]+num, loc.Country)
				id := receipt.RepairTaxID(read)
				conf := l.Conf * 0.9
				if receipt.NormalizeTaxID(id.Value) != receipt.NormalizeTaxID(read.Value) {
					// A mend the checksum allows is a guess: one digit
					// misread outside the likely pairs can pass by chance.
					// The reviewer is asked to check it.
					conf = min(conf, 0.5)
				}
				if id.Value != "" && len(id.Value) >= 8 {
					r.SupplierTaxID = receipt.Field[receipt.TaxID]{Value: id, Set: true, Source: src, Confidence: clamp(conf), Box: boxOf(l)}
				}
			}
		}
		if !r.DocumentNumber.Set {
			if m := reDocNo.FindStringSubmatch(strings.ToUpper(l.Text)); m != nil && strings.ContainsAny(m[1], "0123456789") {
				set(&r.DocumentNumber, m[1], l.Conf*0.8, boxOf(l))
			}
		}
	}

	if !r.SupplierTaxID.Set || receipt.ValidateTaxID(r.SupplierTaxID.Value) != nil {
		if id, conf, box, ok := bareVATNumber(lines); ok {
			r.SupplierTaxID = receipt.Field[receipt.TaxID]{Value: id, Set: true, Source: src, Confidence: clamp(conf), Box: box}
		}
	}

	// Currency and payment method.
	joined := strings.ToUpper(strings.Join(upper, "\n"))
	switch {
	case reRinggit.MatchString(joined) || reRMAmount.MatchString(rawUpper(lines)):
		set(&r.Currency, "MYR", confPrinted, nil)
	case loc.Currency != "":
		set(&r.Currency, loc.Currency, confAssumed, nil)
	}
	for _, pm := range paymentMethods {
		if pm.re.MatchString(joined) {
			set(&r.PaymentMethod, pm.name, confLikely, nil)
			break
		}
	}
	if !r.Subtotal.Set && (r.Total.Set != printed.Set || !r.Total.Value.Equal(printed.Value)) {
		items, _ = findLineItems(lines, upper, r) // they add up to the total, which changed
	}
	r.LineItems = items
	r.TaxLines, r.TaxInclusive = findTaxLines(lines, upper, r)
	mendSingleTaxLine(&r, loc.Country)
	if !r.TotalTax.Set && len(r.TaxLines) > 0 && r.Total.Set {
		r.TotalTax = receipt.Amount{Value: receipt.TaxLinesTotal(r.TaxLines), Set: true, Source: src, Confidence: r.TaxLines[0].Tax.Confidence * 0.8}
	}
	return r
}

func rawUpper(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.ToUpper(l.Text))
		b.WriteByte('\n')
	}
	return b.String()
}
