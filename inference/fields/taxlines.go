package fields

import (
	"regexp"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

var (
	// reTaxRate is a rate as receipts print it: "10%", "@ 6 %", "7,5%".
	reTaxRate = regexp.MustCompile(`(\d{1,2}(?:[.,]\d{1,3})?)\s*%`)
	// reTaxCode is a tax code that opens a summary row: SR (standard
	// rated), ZR / ZRL (zero rated), TX.
	reTaxCode = regexp.MustCompile(`^\W*(SR|ZRL?|TX|S|Z)\b`)
	// reInclusive says the prices include the tax: "GST included",
	// "Includes VAT", "Total Sales (Inclusive GST)", "MWST 19% INCL.".
	reInclusive = regexp.MustCompile(`\bINCL\w*|\bINC\b`)
)

// findTaxLines reads the tax lines of a receipt: a tax word and a rate
// with the tax amount ("VAT 20% INCL. £53.97", "SALES TAX 8% $3.20"), or a
// tax summary row with its net as well ("SR 6% 180.00 10.80"). One line per
// rate is kept, the one that also gives the net first. Lines whose taxes do
// not add up to the receipt's total tax are dropped: a wrong breakdown is
// worse than none. It also says whether the prices include the tax, when
// the page says so.
func findTaxLines(lines []Line, upper []string, r receipt.Receipt) ([]receipt.TaxLine, receipt.Field[bool]) {
	var inclusive receipt.Field[bool]
	byRate := map[string]receipt.TaxLine{}
	var order []string
	inSummary, summaryWord := false, ""
	var rowsLeft [][]decimal.Decimal // a VAT table's rows of amounts that do not add up, or print no rate read
	zeroGross := decimal.Zero        // what its 0% rows cover
	for i, l := range lines {
		u := strings.ToUpper(l.Text)
		k := upper[i]
		if startsVATTable(l, k) {
			inSummary, summaryWord = true, reTaxWord.FindString(k)
		}
		taxWord := reTaxWord.FindString(k)
		summaryRow := inSummary || reTaxCode.MatchString(u)
		if taxWord == "" && !summaryRow {
			continue
		}
		if taxWord != "" && reInclusive.MatchString(k) && !inclusive.Set {
			inclusive = receipt.Field[bool]{Value: true, Set: true, Source: receipt.SourceOCR, Confidence: clamp(l.Conf * 0.8)}
		}
		m := reTaxRate.FindStringSubmatch(u)
		if m == nil {
			row := amountsIn(l.Text)
			if !inSummary || taxWord != "" || len(row) < 2 || letterCount(l.Text) > 3 {
				continue
			}
			// A row whose % was misread ("25,59 53,70 13,69 67,39" for
			// 25,5 %; "Г996 73.97 6.66 80.63" for Г 9 %): the one rate
			// of the country that makes its tax of its net, and with it
			// its gross, is its rate.
			rate, ok := rateTheRowMakes(row, r)
			if !ok {
				rowsLeft = append(rowsLeft, row)
				continue
			}
			m = []string{rate.String() + "%", rate.String()}
		}
		rate, err := decimal.NewFromString(strings.Replace(m[1], ",", ".", 1))
		if err == nil && rate.IsZero() && inSummary {
			// "0% 0,40 0,00 0,40": no tax line, but part of what the
			// table covers.
			if amts := amountsIn(reTaxRate.ReplaceAllString(l.Text, " ")); len(amts) >= 2 && amts[len(amts)-2].IsZero() {
				zeroGross = zeroGross.Add(amts[len(amts)-1])
			}
			continue
		}
		if err != nil || !rate.IsPositive() {
			continue
		}
		amts := amountsIn(reTaxRate.ReplaceAllString(l.Text, " "))
		if len(amts) == 0 {
			continue
		}
		if len(amts) == 1 {
			if tax, ok := splitRowTax(lines, i, amts[0], rate, r); ok {
				amts = append(amts, tax)
			}
		}
		conf := clamp(l.Conf * 0.7)
		if !reTaxRate.MatchString(u) {
			conf *= factorUnlikelyRate // the rate from the row's arithmetic
		}
		if rate.GreaterThan(decimal.NewFromInt(30)) {
			var ok bool
			if rate, ok = rateTheSumsConfirm(m[1], amts, r); !ok {
				continue
			}
			conf *= factorUnlikelyRate
		} else if _, _, adds := netTaxGross(amts, rate); len(amts) >= 3 && !adds {
			// "19% 67.06 6.04 73.10": the tax class Г read as 1 before 9%.
			if c, ok := rateTheRowConfirms(m[1], amts); ok {
				rate, conf = c, conf*factorUnlikelyRate
			}
		}
		tl := receipt.TaxLine{
			Label: receipt.Text{Value: taxLabel(k, taxWord, summaryWord), Set: true, Source: receipt.SourceOCR, Confidence: conf},
			Rate:  receipt.Amount{Value: rate, Set: true, Source: receipt.SourceOCR, Confidence: conf},
		}
		hundred := decimal.NewFromInt(100)
		last := amts[len(amts)-1]
		// "Total Amt Incl. GST @ 6% : 12.00" names the rate of a total
		// ("GST @6% included in total RM 0.70" is a tax amount all the same).
		if len(amts) == 1 && (r.Total.Set && near(last, r.Total.Value) ||
			!r.Total.Set && strings.Contains(k, "TOTAL") && !reTotalTaxLine.MatchString(k)) {
			continue
		}
		if r.Total.Set && !last.LessThan(r.Total.Value) && len(amts) == 1 {
			continue
		}
		if n, t, ok := netTaxGross(amts, rate); ok && len(amts) >= 3 {
			// "A 19% 20,36 3,87 24,23": net, tax and gross in any order.
			tl.Net = receipt.Amount{Value: n, Set: true, Source: receipt.SourceOCR, Confidence: conf}
			last = t
		} else if len(amts) >= 2 {
			prev := amts[len(amts)-2]
			switch {
			case near(prev.Mul(rate).Div(hundred), last): // net, tax
				tl.Net = receipt.Amount{Value: prev, Set: true, Source: receipt.SourceOCR, Confidence: conf}
				last = last.Round(2)
			case near(prev.Mul(hundred.Add(rate)).Div(hundred), last): // net, gross
				tl.Net = receipt.Amount{Value: prev, Set: true, Source: receipt.SourceOCR, Confidence: conf}
				last = last.Sub(prev)
			}
		}
		// A summary row with no tax word must add up (net × rate = tax),
		// and no tax exceeds the rate's share of the total: an item row
		// with a discount rate ("10% 10.00 100.00") is neither.
		if taxWord == "" && !tl.Net.Set {
			if inSummary {
				rowsLeft = append(rowsLeft, amts)
			}
			continue
		}
		// A tax one digit off the rate's share of the total passes, for
		// mendSingleTaxLine to mend ("MWST 19% EUR 2,62" of 12.65).
		share := taxIncluded(r.Total.Value, rate).Round(2)
		if r.Total.Set && last.GreaterThan(r.Total.Value.Mul(rate).Div(hundred).Add(decimal.New(1, -2))) && !oneDigitApart(last, share) {
			continue
		}
		tl.Tax = receipt.Amount{Value: last, Set: true, Source: receipt.SourceOCR, Confidence: conf}
		if b := l.Box; b.W > 0 {
			tl.Tax.Box = &b
		}
		key := rate.String()
		old, seen := byRate[key]
		switch {
		case !seen:
			order = append(order, key)
			byRate[key] = tl
		case !old.Net.Set && tl.Net.Set:
			byRate[key] = tl
		}
	}
	var out []receipt.TaxLine
	for _, k := range order {
		out = append(out, byRate[k])
	}
	if len(out) == 0 || r.TotalTax.Set && !near(receipt.TaxLinesTotal(out), r.TotalTax.Value) && !breakdownMakesTotal(out, r) {
		out = nil
	}
	// A table with a row left unread whose read rows do not make the
	// total is part of a breakdown, and its tax part of the tax. Its sum
	// row ("YHT 10,40 2,55 12,95") is no row left unread.
	if gross, ok := vatTableGross(out); ok && r.Total.Set && !near(gross.Add(zeroGross), r.Total.Value) {
		for _, row := range rowsLeft {
			if last := row[len(row)-1]; !near(last, gross.Add(zeroGross)) && !near(last, r.Total.Value) {
				out = nil
				break
			}
		}
	}
	return out, inclusiveByArithmetic(r, inclusive)
}

// inclusiveByArithmetic says whether prices include the tax where the
// page's sums tell, else what its words said: the arithmetic outweighs the
// words ("Total Sales (Excluding GST) 18.31 / GST 1.10 / Total (Inclusive
// GST) 19.40" adds the tax to a net subtotal, whatever INCLUSIVE says).
func inclusiveByArithmetic(r receipt.Receipt, said receipt.Field[bool]) receipt.Field[bool] {
	if !r.Subtotal.Set || !r.TotalTax.Set || !r.Total.Set || !r.TotalTax.Value.IsPositive() {
		return said
	}
	switch {
	case near(r.Subtotal.Value.Add(r.TotalTax.Value), r.Total.Value):
		return receipt.Field[bool]{Value: false, Set: true, Source: receipt.SourceOCR, Confidence: confAssumed}
	case near(r.Subtotal.Value, r.Total.Value):
		return receipt.Field[bool]{Value: true, Set: true, Source: receipt.SourceOCR, Confidence: confAssumed}
	}
	return said
}

// breakdownMakesTotal says whether tax lines each proven by their net
// (net × rate = tax) add up, with the subtotal, to the total where the tax
// read alone does not: then the breakdown, not that reading, is the tax
// ("TVA5.5%(A) 3,79" read as a tax of 3.79 where the table's rows give
// 0.21 and 0.95 and 13.34 + 1.16 = 14.50).
func breakdownMakesTotal(tls []receipt.TaxLine, r receipt.Receipt) bool {
	if !r.Subtotal.Set || !r.Total.Set || r.TotalTax.Set && near(r.Subtotal.Value.Add(r.TotalTax.Value), r.Total.Value) {
		return false
	}
	for _, tl := range tls {
		if !tl.Net.Set {
			return false
		}
	}
	return near(r.Subtotal.Value.Add(receipt.TaxLinesTotal(tls)), r.Total.Value)
}

// splitRowTax finds the tax of a VAT table's row that a photo's skew cut
// in two: the rate and its net on one line ("TVA5.5%(A) 3,79e"), the tax
// on the line under or over it ("0,21e 4,00e"), where net × rate makes it
// to the cent. An amount that is itself the rate's share of the total is
// the line's tax, not a net ("GST 6% 1.62").
func splitRowTax(lines []Line, i int, net, rate decimal.Decimal, r receipt.Receipt) (decimal.Decimal, bool) {
	if r.Total.Set && near(taxIncluded(r.Total.Value, rate), net) {
		return decimal.Decimal{}, false
	}
	want := net.Mul(rate).Div(decimal.NewFromInt(100))
	for _, j := range []int{i + 1, i - 1} {
		if j < 0 || j >= len(lines) || reTaxRate.MatchString(strings.ToUpper(lines[j].Text)) {
			continue
		}
		for _, a := range amountsIn(lines[j].Text) {
			if a.IsPositive() && a.LessThan(net) && near(want, a) {
				return a, true
			}
		}
	}
	return decimal.Decimal{}, false
}

// taxLabel names a line's tax: its tax word, with SALES before TAX kept,
// or in a summary table the word of the table's heading.
func taxLabel(k, word, summaryWord string) string {
	if word == "" {
		return summaryWord
	}
	if word == "TAX" && strings.Contains(k, "SALES TAX") {
		return "SALES TAX"
	}
	return word
}

// taxIncluded is the tax a gross amount includes at rate (percent).
func taxIncluded(gross, rate decimal.Decimal) decimal.Decimal {
	return gross.Mul(rate).Div(decimal.NewFromInt(100).Add(rate))
}

// near says whether two amounts agree to the cent.
func near(a, b decimal.Decimal) bool {
	return a.Sub(b).Abs().LessThanOrEqual(decimal.New(1, -2))
}

// mendSingleTaxLine checks a receipt's one tax line against its total, the
// way a reviewer would, and mends one misreading:
//   - a rate the country does not use ("16%" in Australia) when exactly one
//     rate it does use makes the tax from the total;
//   - a tax one digit away from the rate's share of the total (12.05 for
//     11.05 of 121.58 at 10% inclusive), the total tax with it.
//
// Partly tax-free receipts have less tax than the share and are left as
// read: only a one-digit slip is mended.
func mendSingleTaxLine(r *receipt.Receipt, c receipt.Country) {
	if len(r.TaxLines) != 1 || !r.Total.Set || r.TaxLines[0].Net.Set || !r.TaxLines[0].Rate.Set {
		return
	}
	tl := &r.TaxLines[0]
	share := func(rate decimal.Decimal) decimal.Decimal { return taxIncluded(r.Total.Value, rate).Round(2) }
	rates := receipt.PlausibleRates(c)
	plausible := len(rates) == 0
	for _, p := range rates {
		plausible = plausible || p.Equal(tl.Rate.Value)
	}
	if !plausible {
		var fits []decimal.Decimal
		for _, p := range rates {
			if p.IsPositive() && near(share(p), tl.Tax.Value) {
				fits = append(fits, p)
			}
		}
		if len(fits) == 1 {
			tl.Rate.Value, tl.Rate.Confidence = fits[0], tl.Rate.Confidence*0.7
		}
		return
	}
	if want := share(tl.Rate.Value); !near(want, tl.Tax.Value) && oneDigitApart(want, tl.Tax.Value) {
		tl.Tax.Value, tl.Tax.Confidence = want, tl.Tax.Confidence*0.7
		if r.TotalTax.Set && oneDigitApart(want, r.TotalTax.Value) {
			r.TotalTax.Value, r.TotalTax.Confidence = want, r.TotalTax.Confidence*0.7
		}
	}
}

// mendTaxWord names the tax of a line that says its rate is included but
// whose tax word is misread ("MYST included 19%"): the word one letter
// away from a tax word of its length is that word. k is the line's
// keywordText, raw its text.
func mendTaxWord(k, raw string) string {
	if reTaxWord.MatchString(k) || !reRateIncluded.MatchString(strings.ToUpper(raw)) {
		return k
	}
	words := strings.Fields(k)
	for i, w := range words {
		for _, t := range strings.Split(taxWords, "|") {
			if len(t) >= 3 && len(w) == len(t) && editDistance(w, t, 1) == 1 {
				words[i] = t
				return strings.Join(words, " ")
			}
		}
	}
	return k
}

// reRateIncluded is a rate beside the word that says the prices include
// it: "included 19%", "10% INCL.".
var reRateIncluded = regexp.MustCompile(`\bINCL\w*\.?\s*\d{1,2}(?:[.,]\d+)?\s*%|\d{1,2}(?:[.,]\d+)?\s*%\s*INCL`)

// mendDollarReadAsDigit reads a tax amount that exceeds the total, which
// no tax can, and begins with a 5 or an 8 on a page that prints "$", as the
// dollar sign misread ("GST 10% INCL. 516.78" under GRAND TOTAL $184.53 is
// $16.78). Only the line text changes.
func mendDollarReadAsDigit(lines []Line, upper []string, total decimal.Decimal) []Line {
	if !strings.Contains(rawUpper(lines), "$") {
		return lines
	}
	var out []Line // a copy, once a line changes
	for i, l := range lines {
		if !reTaxWord.MatchString(upper[i]) || strings.Contains(l.Text, "$") {
			continue
		}
		ms := reAmount.FindAllStringIndex(l.Text, -1)
		if len(ms) != 1 {
			continue
		}
		at, end := ms[0][0], ms[0][1]
		read := l.Text[at:end]
		v, err := receipt.ParseAmount(read)
		if err != nil || v.Value.LessThan(total) || (read[0] != '5' && read[0] != '8') {
			continue
		}
		rest, err := receipt.ParseAmount(read[1:])
		if err != nil || !rest.Value.IsPositive() || !rest.Value.LessThan(total) {
			continue
		}
		if out == nil {
			out = append([]Line(nil), lines...)
		}
		out[i].Text = l.Text[:at] + "$" + l.Text[at+1:]
	}
	if out == nil {
		return lines
	}
	return out
}

// rateTheSumsConfirm reads a rate that no tax has ("SALES TAX 79%" over a
// subtotal of $166.22 and a tax of $11.64; "520% 128.70 25.74 154.44",
// a tax class Б read as 5 before 20%) as the rate with one digit left
// out, a speck or a letter read beside it, when exactly one such rate
// makes the tax (amts' last): of the subtotal, of the share of the total,
// or of the row's own net where its net and tax make its gross.
func rateTheSumsConfirm(read string, amts []decimal.Decimal, r receipt.Receipt) (decimal.Decimal, bool) {
	hundred := decimal.NewFromInt(100)
	tax := amts[len(amts)-1]
	return rateWithADigitLeftOut(read, func(c decimal.Decimal) bool {
		_, _, rowAddsUp := netTaxGross(amts, c)
		return rowAddsUp || r.Subtotal.Set && near(r.Subtotal.Value.Mul(c).Div(hundred), tax) ||
			r.Total.Set && near(taxIncluded(r.Total.Value, c), tax)
	})
}

// rateTheRowConfirms reads a plausible rate that a VAT row's amounts do
// not bear out as the rate with one digit left out where exactly one such
// rate makes the row's tax of its net and, with it, its gross.
func rateTheRowConfirms(read string, amts []decimal.Decimal) (decimal.Decimal, bool) {
	return rateWithADigitLeftOut(read, func(c decimal.Decimal) bool {
		_, _, rowAddsUp := netTaxGross(amts, c)
		return rowAddsUp
	})
}

// rateTheRowMakes is the one rate of the page's country (its pack's tax
// rates) at which a VAT row's last three amounts are a net, its tax and
// their sum; ok is false where none or several are, or the country is
// not known.
func rateTheRowMakes(amts []decimal.Decimal, r receipt.Receipt) (decimal.Decimal, bool) {
	pk, ok := packs.Get(r.PrintedIn.Value)
	if !ok || len(amts) < 3 {
		return decimal.Zero, false
	}
	var found []decimal.Decimal
	for _, s := range pk.TaxRates {
		c, err := decimal.NewFromString(s)
		if err != nil || !c.IsPositive() {
			continue
		}
		if _, _, adds := netTaxGross(amts, c); adds {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		return decimal.Zero, false
	}
	return found[0], true
}

// rateWithADigitLeftOut is the one rate of at most 30% that read, a rate
// as printed, gives with one of its digits left out and that fits; ok is
// false where none or several do.
func rateWithADigitLeftOut(read string, fits func(decimal.Decimal) bool) (decimal.Decimal, bool) {
	var found []decimal.Decimal
	for i := range len(read) {
		if read[i] < '0' || read[i] > '9' {
			continue
		}
		c, err := decimal.NewFromString(strings.Replace(read[:i]+read[i+1:], ",", ".", 1))
		if err != nil || !c.IsPositive() || c.GreaterThan(decimal.NewFromInt(30)) || slices.ContainsFunc(found, c.Equal) {
			continue
		}
		if fits(c) {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		return decimal.Zero, false
	}
	return found[0], true
}

// netTaxGross finds, among a row's last three amounts, a net, the tax at
// rate on it and their sum, in whatever order the table prints them.
func netTaxGross(amts []decimal.Decimal, rate decimal.Decimal) (net, tax decimal.Decimal, ok bool) {
	if len(amts) < 3 {
		return net, tax, false
	}
	x := amts[len(amts)-3:]
	hundred := decimal.NewFromInt(100)
	for _, o := range [][3]int{{0, 1, 2}, {1, 2, 0}, {2, 1, 0}, {1, 0, 2}, {0, 2, 1}, {2, 0, 1}} {
		n, t, g := x[o[0]], x[o[1]], x[o[2]]
		if n.IsPositive() && near(n.Add(t), g) && near(n.Mul(rate).Div(hundred), t) {
			return n, t, true
		}
	}
	return net, tax, false
}

// vatTableGross is what a VAT table's rows add up to, net and tax of every
// rate: the total of what they cover. ok is false unless every row gives
// its net.
func vatTableGross(tls []receipt.TaxLine) (decimal.Decimal, bool) {
	sum := decimal.Zero
	for _, tl := range tls {
		if !tl.Net.Set || !tl.Tax.Set {
			return decimal.Zero, false
		}
		sum = sum.Add(tl.Net.Value).Add(tl.Tax.Value)
	}
	return sum, len(tls) > 0
}

// mendTotalFromVATTable takes the VAT table's gross for the total where the
// total line's reading is one digit off it and the gross is printed on
// another line too ("SUMME 19,16" read for 19,46, with "EUR 19,46" below
// and rows of 8,99 and 10,47): two rows' arithmetic and a second printing
// against one reading.
func mendTotalFromVATTable(r *receipt.Receipt, lines []Line) {
	gross, ok := vatTableGross(r.TaxLines)
	if !ok || len(r.TaxLines) < 2 || !r.Total.Set || gross.Equal(r.Total.Value) || !oneDigitApart(gross, r.Total.Value) ||
		r.Rounding.Set && gross.Add(r.Rounding.Value).Equal(r.Total.Value) { // cash rounded: "24,33 / PYÖRISTYS +0,02 / 24,35"
		return
	}
	for _, l := range lines {
		if hasAmount(l.Text, gross) && (r.Total.Box == nil || l.Box != *r.Total.Box) && len(amountsIn(l.Text)) == 1 {
			b := l.Box
			r.Total = found(gross, l.Conf*confLikely, &b, "the VAT table's rows add up to it, and it is printed again; the total line read one digit off")
			return
		}
	}
}
