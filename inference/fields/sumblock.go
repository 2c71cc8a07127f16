package fields

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// sumBlock is a receipt's closing sums as its arithmetic shows them:
// subtotal + tax (or tip, or service) = total.
type sumBlock struct {
	subtotal, added, total decimal.Decimal
	at                     Line // the total's line
}

// findSumBlock finds the closing sums where the labels SUBTOTAL, TAX and
// TOTAL stand, whatever the reading did to the rows: a skewed photo puts
// the right-hand column of amounts a line above or below its labels
// ("$10.28 / Subtotal $0.62 / Tax $10.90 / Total"). Among the amounts
// from the line above the subtotal's label (or the tax line's, where no
// subtotal is labelled or the tax stands above it) to three lines under
// the last total or tax label, it looks for a, b and c in reading order with
// a + b = c and b between 0.5% and 30% of a (a tax, a tip or a service
// charge, not a rounding),
// and takes the largest c. The arithmetic is the evidence; the labels
// only say where to look.
func findSumBlock(lines []Line, upper []string) (sumBlock, bool) {
	sub, tax := -1, -1
	for i, k := range upper {
		if sub < 0 && reSubtotal.MatchString(k) {
			sub = i
		}
		if tax < 0 && reTaxWord.MatchString(k) && !reNotTaxAmount.MatchString(k) && !reHeading.MatchString(k) && len(amountsIn(lines[i].Text)) > 0 {
			tax = i
		}
	}
	switch {
	case sub < 0 && tax < 0:
		return sumBlock{}, false
	case sub < 0 || tax >= 0 && tax < sub && tax >= sub-2:
		sub = tax // "TAXABLE SALES / TAX / TL.", or the tax printed above its subtotal
	}
	end := sub
	for i := sub + 1; i < len(lines) && i <= sub+8; i++ {
		if saysTotal(upper[i]) || reTaxWord.MatchString(upper[i]) {
			end = i
		}
	}
	type amt struct {
		v decimal.Decimal
		i int
	}
	var amts []amt
	changeLine := slices.ContainsFunc(upper, func(k string) bool { return strings.Contains(k, "CHANGE") })
	for i := max(0, sub-1); i < len(lines) && i <= end+3; i++ {
		// The change is no sum; "BALANCE", which names the change on some
		// tills and the amount due on others, is one where the page prints
		// its change on a line of its own.
		if reChange.MatchString(upper[i]) && (!strings.Contains(upper[i], "BALANCE") || strings.Contains(upper[i], "CHANGE") || !changeLine) {
			continue
		}
		for _, v := range amountsIn(lines[i].Text) {
			if v.IsPositive() {
				amts = append(amts, amt{v, i})
			}
		}
	}
	var best sumBlock
	ok := false
	limit, least := decimal.New(3, -1), decimal.New(5, -3)
	for x := 0; x < len(amts); x++ {
		for y := x + 1; y < len(amts); y++ {
			a, b := amts[x].v, amts[y].v
			if b.GreaterThan(a.Mul(limit)) || b.LessThan(a.Mul(least)) { // a tax, tip or service; not a rounding
				continue
			}
			for z := y + 1; z < len(amts); z++ {
				if amts[x].i == amts[z].i {
					continue // net, tax and gross on one line are a tax table's row
				}
				if c := amts[z].v; c.Equal(a.Add(b)) && (!ok || c.GreaterThan(best.total)) {
					best, ok = sumBlock{a, b, c, lines[amts[z].i]}, true
				}
			}
		}
	}
	return best, ok
}

// saysTotal says whether keyword text labels a total (not a subtotal).
func saysTotal(k string) bool {
	return strings.Contains(k, "TOTAL") && !reNotTotal.MatchString(k) || strings.Contains(k, "AMOUNT DUE") || strings.Contains(k, "BALANCE DUE")
}

// applySumBlock takes the total from the closing sums' arithmetic where
// the rules found none, or took the subtotal for it; the subtotal and
// the tax the arithmetic names replace readings it contradicts.
func applySumBlock(r *receipt.Receipt, lines []Line, upper []string) {
	// A total the rules only guessed (the amount paid, no total label
	// read, or one payment less the change where the sale was paid in two:
	// "EBT SNAP 26.66 / DEBIT 50.21 / CHANGE 0.00") gives way to the
	// arithmetic as an unset one does.
	sb, ok := findSumBlock(lines, upper)
	if !ok {
		return
	}
	guessed := PaidOrUnlabelled(r.Total) || r.Total.Why == whyCashLessChange && !r.Total.Value.Equal(sb.total)
	// A total printed and labelled stands, unless it is the arithmetic's
	// subtotal and the rules took the subtotal for it ("Subtotal $28.48")
	// or read the labels the other way round ("Amount: $25.34 / Tax $2.28
	// / Sub-Total: $27.62").
	tookSubtotal := r.Total.Set && r.Total.Value.Equal(sb.subtotal) && r.Subtotal.Set &&
		(r.Subtotal.Value.Equal(r.Total.Value) || r.Subtotal.Value.Equal(sb.total))
	// What the sums add may be the tip the card slip prints, not a tax.
	addsTip := r.Tip.Set && r.Tip.Value.Equal(sb.added)
	if r.Total.Set && !guessed && !tookSubtotal {
		// The printed total stands; where the sums make it, their tax is
		// the receipt's when no tax amount was read on its line ("27.36 /
		// Subtotal / 2.60 / Tax / Grand Total 29.96").
		// A skewed photo's reading may put the tax's amount on the
		// subtotal's label ("87.25 / SUB TOTAL: 7.53 / Tax 1: / TOTAL:
		// $94.78"): a subtotal that is the sums' tax, and with the tax
		// read makes no total, is theirs to replace.
		if r.Total.Value.Equal(sb.total) && !addsTip && r.Subtotal.Set && r.Subtotal.Value.Equal(sb.added) &&
			!r.Subtotal.Value.Add(r.TotalTax.Value).Equal(r.Total.Value) {
			r.Subtotal = found(sb.subtotal, sb.at.Conf*confLikely, nil, "the closing sums' arithmetic")
			r.TotalTax = found(sb.added, sb.at.Conf*confLikely, nil, "the closing sums' arithmetic")
			return
		}
		if r.Total.Value.Equal(sb.total) && !r.TotalTax.Set && !addsTip && (!r.Subtotal.Set || r.Subtotal.Value.Equal(sb.subtotal)) {
			if !r.Subtotal.Set {
				r.Subtotal = found(sb.subtotal, sb.at.Conf*confLikely, nil, "the closing sums' arithmetic")
			}
			r.TotalTax = found(sb.added, sb.at.Conf*confLikely, nil, "the closing sums' arithmetic")
		}
		return
	}
	box := func(l Line) *receipt.Box {
		if l.Box.W == 0 && l.Box.H == 0 {
			return nil
		}
		b := l.Box
		return &b
	}
	// A subtotal read above the sums' own stands where the adjustments
	// printed between it and the total make the total: "Sub Total 41.00 /
	// Discount 11.00 / Tax 1.80 / Sub Total 31.80 / Gratuity 7.38 / Total
	// 39.18" is not 31.80 + a tax of 7.38.
	if r.Subtotal.Set && !r.Subtotal.Value.Equal(sb.subtotal) {
		adjusted := *r
		adjusted.Total = found(sb.total, sb.at.Conf*confLikely, box(sb.at), "the subtotal "+r.Subtotal.Value.StringFixed(2)+" and the adjustments printed below it make "+sb.total.StringFixed(2)+", printed where the page's sums stand")
		if readAdjustments(&adjusted, lines, upper) {
			*r = adjusted
			return
		}
	}
	why := "subtotal " + sb.subtotal.StringFixed(2) + " + " + sb.added.StringFixed(2) + " = " + sb.total.StringFixed(2) + ", printed where the page's sums stand"
	r.Total = found(sb.total, sb.at.Conf*confLikely, box(sb.at), why)
	if !r.Subtotal.Set || !r.Subtotal.Value.Equal(sb.subtotal) {
		r.Subtotal = found(sb.subtotal, sb.at.Conf*confLikely, nil, "the closing sums' arithmetic")
	}
	if !addsTip && (!r.TotalTax.Set || !r.TotalTax.Value.Equal(sb.added) && !r.TotalTax.Value.Add(sb.subtotal).Equal(sb.total)) {
		r.TotalTax = found(sb.added, sb.at.Conf*confLikely, nil, "the closing sums' arithmetic")
	}
}

// unreadSumsAfterSubtotal says whether the page prints a tax or total
// line below its subtotal whose amount was not read ("Tax $2.", "Total
// 036-7"; a title such as TAX INVOICE or a tax number is no such line):
// the subtotal is then not the total, whatever the rules could not read.
func unreadSumsAfterSubtotal(lines []Line, upper []string) bool {
	sub := -1
	for i, k := range upper {
		if reSubtotal.MatchString(k) {
			sub = i
			break
		}
	}
	if sub < 0 {
		return false
	}
	for i := sub + 1; i < len(lines) && i <= sub+3; i++ {
		k := upper[i]
		label := len(strings.Fields(k)) <= 3 && !reHeading.MatchString(k) && !reLongNumber.MatchString(lines[i].Text)
		if label && (saysTotal(k) || reTaxWord.MatchString(k) && !reNotTaxAmount.MatchString(k)) && len(amountsIn(lines[i].Text)) == 0 {
			return true
		}
	}
	return false
}

// readSurcharge reads the one amount printed between the subtotal's line
// and the total's that the sums need: a service fee, a carry-out or
// table charge, a tip ("Subtotal 22.98 / Tax 1.61 / Service fees on
// tables 3.45 / Total 28.04"). It is taken, as the receipt's tip or
// service charge, only where subtotal + tax + it is the total to the
// cent; the label says nothing the arithmetic does not.
func readSurcharge(r *receipt.Receipt, lines []Line, upper []string) {
	if r.Tip.Set || !r.Subtotal.Set || !r.Total.Set || !r.TotalTax.Set {
		return
	}
	extra := r.Total.Value.Sub(r.Subtotal.Value).Sub(r.TotalTax.Value).Sub(r.Rounding.Value).Add(r.Discount.Value.Abs())
	if !extra.IsPositive() || extra.GreaterThan(r.Subtotal.Value.Mul(decimal.New(3, -1))) {
		return
	}
	sub, total, tax := lineAt(lines, r.Subtotal.Box), lineAt(lines, r.Total.Box), lineAt(lines, r.TotalTax.Box)
	if sub < 0 || total <= sub+1 {
		return
	}
	found := -1
	for i := sub + 1; i < total; i++ {
		if i == tax || reTaxWord.MatchString(upper[i]) || strings.Contains(upper[i], "ROUNDING") {
			continue
		}
		amts := amountsIn(lines[i].Text) // "Service Charge (18.00%) $6.12": the rate, then the amount
		if len(amts) > 0 && amts[len(amts)-1].Equal(extra) {
			if found >= 0 {
				return // two lines could be it
			}
			found = i
		}
	}
	if found < 0 {
		return
	}
	l := lines[found]
	r.Tip = receipt.Amount{
		Value: extra, Set: true, Source: receipt.SourceOCR, Confidence: l.Conf * confLikely, Box: boxOf(l),
		Why: "the amount printed between the subtotal and the total that they need: " + strings.TrimSpace(l.Text),
	}
}

// allCharges stands for every charge readAdjustments found, taken together.
const allCharges = -2

// eachLabelled says whether every line of charges names its charge: an
// amount alone on its line may be a tax whose label the reading put on
// another.
func eachLabelled(lines []Line, charges map[int]decimal.Decimal) bool {
	for i := range charges {
		if letterCount(lines[i].Text) < 3 {
			return false
		}
	}
	return true
}

// readAdjustments reads the discounts and the charge printed between the
// subtotal's line and the total's where the sums need them: "SUBTOTALE
// 43,26 / SCONTO A PAGARE -0,80 / TOTALE 42,46", "Subtotal 101.40 /
// Discretionary Service 12.5% 12.68 / TOTAL 114.08". Every amount printed
// there with a minus is a discount, and one on a discount's line where the
// sums need it; one other amount (a service charge, a surcharge), or all
// of them together, is the charge; a second subtotal is where the sums
// stand or another part of them. They are taken only where the subtotal
// with them, and the rounding, makes the total to the cent: with the tax
// added on top, or, where that does not, with the tax already in the
// prices (which the reading then records). Where two or more lines there
// name a tax ("TPS / GST 5% 8.43 / TVQ / QST 9,975% 16.81"), their sum is
// the tax when only it makes the total. It says whether it took any.
func readAdjustments(r *receipt.Receipt, lines []Line, upper []string) bool {
	if !r.Subtotal.Set || !r.Total.Set || r.Discount.Set {
		return false
	}
	s, v := r.Subtotal.Value.Add(r.Rounding.Value), r.Total.Value
	tax := decimal.Zero
	if r.TotalTax.Set {
		tax = r.TotalTax.Value
	}
	if s.Equal(v) || s.Add(tax).Add(r.Tip.Value).Equal(v) {
		return false // the sums need nothing more
	}
	sub, total := lineAt(lines, r.Subtotal.Box), lineAt(lines, r.Total.Box)
	if sub < 0 || total <= sub+1 {
		return false
	}
	// The total printed first under the subtotal closes the sums, not its
	// card slip's copy further down ("TOTAL AUD $96.21").
	for i := sub + 1; i < total; i++ {
		if amts := amountsIn(lines[i].Text); len(amts) > 0 && amts[len(amts)-1].Equal(v) && saysTotal(upper[i]) {
			total = i
			break
		}
	}
	discount, taxes, labelled, parts := decimal.Zero, decimal.Zero, decimal.Zero, decimal.Zero
	var discounts, taxLines, labelledAt []int
	var partLines []string
	charges := map[int]decimal.Decimal{}
	for i := sub + 1; i < total; i++ {
		k := upper[i]
		amts := amountsIn(lines[i].Text)
		if reTaxWord.MatchString(k) && len(amts) > 0 && amts[len(amts)-1].IsPositive() && !strings.Contains(k, "INC") {
			taxes = taxes.Add(amts[len(amts)-1]) // "TPS / GST 5% 8.43 / TVQ / QST 9,975% 16.81"
			taxLines = append(taxLines, i)
		}
		if reSubtotal.MatchString(k) && len(amts) > 0 && amts[len(amts)-1].IsPositive() && !reTaxWord.MatchString(k) {
			parts = parts.Add(amts[len(amts)-1]) // "Goods Sub Total 145.63 / Rental Sub Total 165.00"
			partLines = append(partLines, strings.TrimSpace(lines[i].Text))
		}
		if len(amts) == 0 || reTaxWord.MatchString(k) || strings.Contains(k, "ROUNDING") || strings.Contains(k, "TOTAL") || reCountLine.MatchString(k) {
			continue
		}
		switch a := amts[len(amts)-1]; {
		case a.IsNegative():
			discount = discount.Add(a.Neg())
			discounts = append(discounts, i)
		case a.IsPositive() && strings.Contains(k, "DISCOUNT"):
			// "Discount: 11.00" may take off as "-11.00" does, or sum the
			// discounts above it ("UW VOORDEEL 1,62"): the sums say which.
			labelled = labelled.Add(a)
			labelledAt = append(labelledAt, i)
		case a.IsPositive() && !r.Tip.Set:
			charges[i] = a
		}
	}
	take := func(charge int, inclusive bool) {
		if len(discounts) > 0 {
			r.Discount = found(discount, lines[discounts[0]].Conf*confLikely, boxOf(lines[discounts[0]]), "the discounts printed between the subtotal and the total, which the sums need")
		}
		switch {
		case charge >= 0:
			l := lines[charge]
			r.Tip = found(charges[charge], l.Conf*confLikely, boxOf(l), "the amount printed between the subtotal and the total that they need: "+strings.TrimSpace(l.Text))
		case charge == allCharges:
			at := slices.Sorted(maps.Keys(charges))
			sum, labels := decimal.Zero, []string{}
			for _, i := range at {
				sum = sum.Add(charges[i])
				labels = append(labels, strings.TrimSpace(lines[i].Text))
			}
			l := lines[at[0]]
			r.Tip = found(sum, l.Conf*confLikely, boxOf(l), "the charges printed between the subtotal and the total that they need: "+strings.Join(labels, "; "))
		}
		if inclusive && tax.IsPositive() {
			r.TaxInclusive = receipt.Field[bool]{Value: true, Set: true, Source: receipt.SourceOCR, Confidence: confAssumed}
		}
	}
	// The taxes: the one read, or each tax line's together (a Canadian
	// till's GST and QST, a US till's state and local tax).
	taxReadings := []decimal.Decimal{tax}
	if len(taxLines) >= 2 && !taxes.Equal(tax) {
		taxReadings = append(taxReadings, taxes)
	}
	if labelled.IsPositive() && (len(discounts) == 0 || !s.Sub(discount).Add(tax).Add(r.Tip.Value).Equal(v) && !s.Sub(discount).Add(r.Tip.Value).Equal(v)) {
		discount = discount.Add(labelled)
		discounts = append(discounts, labelledAt...)
		slices.Sort(discounts)
	}
	// A second subtotal under the first is where the sums stand after the
	// lines between ("Sub Total 41.00 / Discount 11.00 / Tax 1.80 / Sub
	// Total 31.80"), or, where that does not make the total, another part
	// of it, added.
	subtotals := []decimal.Decimal{s}
	if parts.IsPositive() {
		subtotals = append(subtotals, s.Add(parts))
	}
	for _, subtotal := range subtotals {
		for _, t := range taxReadings {
			for _, withTax := range []bool{true, false} {
				base := subtotal.Sub(discount).Add(r.Tip.Value)
				if withTax {
					if !t.IsPositive() {
						continue
					}
					base = base.Add(t)
				} else if !t.Equal(tax) {
					continue // taxes summed only to be added
				}
				match := -1
				switch {
				case base.Equal(v):
				case len(charges) > 0:
					all := base
					for i, a := range charges {
						all = all.Add(a)
						if base.Add(a).Equal(v) {
							if match >= 0 {
								return false // two lines could be it
							}
							match = i
						}
					}
					if match < 0 && len(charges) >= 2 && all.Equal(v) && eachLabelled(lines, charges) {
						match = allCharges // "Public Holiday Surcharge 15% 12.38 / Card Surcharge 1.4% 1.33"
					}
					if match == -1 {
						continue
					}
				default:
					continue
				}
				if !t.Equal(tax) {
					l := lines[taxLines[0]]
					r.TotalTax = found(t, l.Conf*confLikely, boxOf(l), "the taxes printed between the subtotal and the total, which with it make the total")
				}
				take(match, !withTax)
				if !subtotal.Equal(s) {
					l := lines[lineAt(lines, r.Subtotal.Box)]
					r.Subtotal = found(r.Subtotal.Value.Add(parts), l.Conf*confLikely, boxOf(l), "the subtotals printed one under another, added: "+strings.TrimSpace(l.Text)+"; "+strings.Join(partLines, "; "))
				}
				return true
			}
		}
	}
	return false
}

// mendTotalOneDigitOff takes the amount the subtotal and the discounts
// printed between it and the total make (with the rounding, and the tax
// where the prices do not hold it), where the total's line was read one digit off it and
// another line prints it: "Subtotal 335.64 / TradeClub Disc -33.56 / TOTAL
// (incl GST) 802.08 / PURCHASE NZ$302.08". The arithmetic and a second
// printing outweigh one reading.
func mendTotalOneDigitOff(r *receipt.Receipt, lines []Line, upper []string) {
	if !r.Total.Set || !r.Subtotal.Set || r.Total.Value.Equal(r.Subtotal.Value) {
		return
	}
	sub, total := lineAt(lines, r.Subtotal.Box), lineAt(lines, r.Total.Box)
	if sub < 0 || total <= sub {
		return
	}
	// The discounts together, or one of them alone (a reading may give
	// one line twice).
	all := decimal.Zero
	discounts := []decimal.Decimal{}
	for i := sub + 1; i < total; i++ {
		if amts := amountsIn(lines[i].Text); len(amts) > 0 && amts[len(amts)-1].IsNegative() && !reTaxWord.MatchString(upper[i]) {
			d := amts[len(amts)-1].Neg()
			all = all.Add(d)
			if !slices.ContainsFunc(discounts, d.Equal) {
				discounts = append(discounts, d)
			}
		}
	}
	if len(discounts) > 1 || len(discounts) == 1 && !all.Equal(discounts[0]) {
		discounts = append(discounts, all)
	}
	for _, discount := range append(discounts, decimal.Zero) {
		v := r.Subtotal.Value.Sub(discount).Add(r.Rounding.Value)
		if r.TotalTax.Set && !(r.TaxInclusive.Set && r.TaxInclusive.Value) {
			v = v.Add(r.TotalTax.Value)
		}
		if !v.IsPositive() || !oneDigitApart(v, r.Total.Value) || !printedOn(lines, func(i int) bool { return i <= total }, v.Equal) {
			continue
		}
		b := lines[total].Box
		r.Total = found(v, lines[total].Conf*confLikely, &b, fmt.Sprintf("the subtotal %s and what is printed under it make %s, printed again below; the total line read one digit off (%s)",
			r.Subtotal.Value.StringFixed(2), v.StringFixed(2), r.Total.Value.StringFixed(2)))
		if discount.IsPositive() && !r.Discount.Set {
			r.Discount = found(discount, lines[total].Conf*confLikely, nil, "the discounts printed between the subtotal and the total")
		}
		return
	}
}
