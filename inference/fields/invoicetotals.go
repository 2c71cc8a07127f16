package fields

// An invoice's net and tax: the labelled sums of its totals block and the
// rows of its VAT breakdown (a rate, the basis it is charged on and the
// tax), taken only where net and tax make the gross the page prints.

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// vatRow is one rate's row of an invoice's VAT breakdown.
type vatRow struct {
	rate, net, tax decimal.Decimal
	line           int
}

// reBareRate is a rate printed without its percent sign, in a column whose
// heading carries it ("USt. %", "Steuersatz [%]").
var reBareRate = regexp.MustCompile(`(?:^|\s)(\d{1,2}(?:[.,]\d{1,2})?)(?:\s|$)`)

// rateHeadingReach is how many lines under a heading with a percent sign
// its bare rates are read.
const rateHeadingReach = 6

// vatRows reads the rows of a VAT breakdown: a rate (with its percent
// sign, or bare under a heading that has it) and two amounts of which the
// second is the rate's share of the first, to the cent ("VAT (S) 198,00
// 19 37,62", "TVA 20,0% 81,90 € 16,38 €"), or net, tax and gross. A row
// printed twice counts once.
func vatRows(lines []Line) []vatRow {
	var rows []vatRow
	heading := -rateHeadingReach - 1
	seen := map[string]bool{}
	for i, l := range lines {
		text := closeGroupGaps(reDateNum.ReplaceAllString(l.Text, " "))
		rest := reTaxRate.ReplaceAllString(text, " ")
		amts := amountsIn(rest)
		if strings.Contains(text, "%") && len(amts) == 0 && len(strings.Fields(text)) >= 2 {
			heading = i
			continue
		}
		if len(amts) < 2 {
			continue
		}
		var rates []decimal.Decimal
		for _, m := range reTaxRate.FindAllStringSubmatch(text, -1) {
			if v, err := decimal.NewFromString(strings.Replace(m[1], ",", ".", 1)); err == nil {
				rates = append(rates, v)
			}
		}
		if len(rates) == 0 && i-heading <= rateHeadingReach {
			for _, m := range reBareRate.FindAllStringSubmatch(reAmount.ReplaceAllString(rest, " "), -1) {
				if v, err := decimal.NewFromString(strings.Replace(m[1], ",", ".", 1)); err == nil && v.LessThanOrEqual(decimal.NewFromInt(30)) {
					rates = append(rates, v)
				}
			}
		}
		for _, rate := range rates {
			if row, ok := rowAtRate(amts, rate); ok {
				row.line = i
				key := row.rate.String() + " " + row.net.String() + " " + row.tax.String()
				if !seen[key] {
					seen[key] = true
					rows = append(rows, row)
				}
				break
			}
		}
	}
	return rows
}

// rowAtRate finds a net and the tax at rate on it among a row's amounts:
// the tax after its net (the nearest net first), or net, tax and gross in
// any order. At a zero rate the tax is a printed 0,00.
func rowAtRate(amts []decimal.Decimal, rate decimal.Decimal) (vatRow, bool) {
	if rate.IsPositive() {
		if n, t, ok := netTaxGross(amts, rate); ok {
			return vatRow{rate: rate, net: n, tax: t}, true
		}
	}
	hundred := decimal.NewFromInt(100)
	for j := len(amts) - 1; j >= 1; j-- {
		for i := j - 1; i >= 0; i-- {
			n, t := amts[i], amts[j]
			if n.IsZero() || rate.IsZero() != t.IsZero() {
				continue
			}
			if n.Mul(rate).Div(hundred).Sub(t).Abs().LessThanOrEqual(decimal.New(2, -2)) {
				return vatRow{rate: rate, net: n, tax: t}, true
			}
		}
	}
	return vatRow{}, false
}

// settleNetAndTax sets an invoice's net and tax to the pair that makes its
// gross: the labelled net or the breakdown's bases, the labelled tax lines
// or the breakdown's taxes. The breakdown's rows become the tax lines when
// their taxes are the tax. A net and tax that make another gross are left
// as read, for the evidence to doubt.
func settleNetAndTax(r *receipt.Receipt, lines []Line, labels []labelled, net decimal.Decimal, ni int, hasNet bool, taxSum decimal.Decimal, taxes int) {
	exact := fromTextLayer(lines)
	if !r.Total.Set {
		if exact {
			// A tax or net the line rules read on a page without the
			// invoice's total (a table's row) is no sum of it.
			r.Subtotal, r.TotalTax, r.TaxLines = receipt.Amount{}, receipt.Amount{}, nil
		}
		return
	}
	gross := r.Total.Value
	rows := vatRows(lines)
	rowNet, rowTax := decimal.Zero, decimal.Zero
	for _, row := range rows {
		rowNet, rowTax = rowNet.Add(row.net), rowTax.Add(row.tax)
	}
	type netCand struct {
		v    decimal.Decimal
		line int
		why  string
	}
	type taxCand struct {
		v   decimal.Decimal
		why string
	}
	var nets []netCand
	var taxCands []taxCand
	if hasNet {
		nets = append(nets, netCand{net, ni, "the invoice's labelled net total"})
	}
	if taxes > 0 {
		taxCands = append(taxCands, taxCand{taxSum, "the tax lines of the invoice's totals block"})
	}
	if len(rows) > 0 {
		nets = append(nets, netCand{rowNet, -1, "the bases of the invoice's VAT breakdown"})
		taxCands = append(taxCands, taxCand{rowTax, "the taxes of the invoice's VAT breakdown"})
	}
	for _, n := range nets {
		for _, t := range taxCands {
			if !n.v.Add(t.v).Equal(gross) {
				continue
			}
			if !r.Subtotal.Set || !r.Subtotal.Value.Equal(n.v) {
				conf, box := confComputed, (*receipt.Box)(nil)
				if n.line >= 0 {
					conf, box = lines[n.line].Conf*confPrinted, boxOf(lines[n.line])
				}
				r.Subtotal = found(n.v, conf, box, n.why)
				// A discount taken off the subtotal it replaces is in
				// these bases already ("Zwischensumme 68,30 /
				// Stammkundenrabatt 10% -6,83" over a row 51,22 + 10,25).
				r.Discount = receipt.Amount{}
			}
			r.TotalTax = found(t.v, confPrinted, nil, t.why)
			if len(rows) > 0 && rowTax.Equal(t.v) {
				r.TaxLines = taxLinesOf(rows, lines)
			}
			if n.line >= 0 {
				linesSumAndAllowance(r, lines, labels, n.line)
			}
			return
		}
	}
}

// taxLinesOf are the breakdown's rows as the receipt's tax lines, each
// named by its line's tax word.
func taxLinesOf(rows []vatRow, lines []Line) []receipt.TaxLine {
	out := make([]receipt.TaxLine, 0, len(rows))
	for _, row := range rows {
		l := lines[row.line]
		conf := l.Conf * confPrinted
		word := ""
		if label, _, ok := labelAt(l.Text); ok && label == "TAX" {
			word = strings.Fields(l.Text)[0]
		}
		tl := receipt.TaxLine{
			Rate: receipt.Amount{Value: row.rate, Set: true, Source: receipt.SourceOCR, Confidence: conf},
			Net:  receipt.Amount{Value: row.net, Set: true, Source: receipt.SourceOCR, Confidence: conf},
			Tax:  receipt.Amount{Value: row.tax, Set: true, Source: receipt.SourceOCR, Confidence: conf, Box: boxOf(l)},
		}
		if word != "" {
			tl.Label = receipt.Text{Value: word, Set: true, Source: receipt.SourceOCR, Confidence: conf}
		}
		out = append(out, tl)
	}
	return out
}

// linesSumAndAllowance takes a net sum printed above the net the tax is
// charged on and larger than it ("Positionssumme 202,70" over "Rechnungssumme
// ohne USt. 193,77") as the subtotal, the difference as the document's
// allowance, as EN 16931 sums an invoice: lines less allowances plus tax.
func linesSumAndAllowance(r *receipt.Receipt, lines []Line, labels []labelled, ni int) {
	basis := r.Subtotal.Value
	for _, lb := range labels {
		if lb.label != "NET TOTAL" || lb.line >= ni || wordsAfterLabel(lb.rest) {
			continue
		}
		v, ok := amountOnLine(lines, lb)
		if !ok || v.Sign() != basis.Sign() || !v.Abs().GreaterThan(basis.Abs()) {
			continue
		}
		r.Subtotal = found(v, lines[lb.line].Conf*confPrinted, boxOf(lines[lb.line]), "the sum of the invoice's lines")
		r.Discount = found(v.Sub(basis), confPrinted, nil, "the invoice's lines less the net its tax is charged on")
		return
	}
}
