package fields

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

// An invoice's line table: a row is a description followed by columns of
// figures (quantity, unit price, rate, amount); a heading or a note has no
// figures, and the rows below the table's end (the totals block, a sum
// carried forward) are no lines. The rows are taken only when they add
// up to what the page says they make: its net total, or the sum it carries
// forward to the next page.

var (
	reQuantity  = regexp.MustCompile(`^\d+(?:[.,]\d{1,3})?(?:\s*\p{L}{1,6}\.?)?$`)
	reRateCell  = regexp.MustCompile(`^\d{1,2}(?:[.,]\d{1,2})?\s*%$`)
	reAmountEnd = regexp.MustCompile(`-?\d{1,3}(?:[.,' ]\d{3})*[.,]\d{2}\s*-?\s*(?:[A-Z]{3}|€|£|\$)?$`)
)

// invoiceTable reads the rows of the page's line table and the sum they
// must make (on a later page, less the sum brought forward above them); ok
// only when they make it.
func invoiceTable(lines []Line, labels []labelled, credit bool) ([]receipt.LineItem, bool) {
	end, start := len(lines), 0
	var want, brought decimal.Decimal
	haveWant := false
	for _, lb := range labels {
		switch lb.label {
		case "NET TOTAL", "CARRIED FORWARD", "GROSS TOTAL":
			if lb.label == "CARRIED FORWARD" && lb.line < len(lines)/3 {
				// The sum brought forward at the top of a later page: the
				// rows below it make the rest.
				if v, ok := amountOnLine(lines, lb); ok && start == 0 {
					brought, start = v, lb.line+1
				}
				continue
			}
			v, ok := amountOnLine(lines, lb)
			if !ok {
				continue // a column heading ("Gesamt"), not a sum
			}
			if lb.line < end {
				end = lb.line
			}
			if !haveWant && lb.label != "GROSS TOTAL" {
				want, haveWant = v, true
			}
		}
	}
	if !haveWant {
		if end == len(lines) && start == 0 && fromTextLayer(lines) {
			return uncheckedRows(lines, credit)
		}
		return nil, false
	}
	want = want.Sub(brought)
	items, sum := rowsIn(lines[start:end], credit)
	if len(items) == 0 || !sum.Abs().Equal(want.Abs()) {
		return nil, false
	}
	return items, true
}

// reLeadingNumber is a figure printed before a row's description: its
// position ("1") or its quantity ("1,00").
var reLeadingNumber = regexp.MustCompile(`^\d+(?:[.,]\d{1,3})?$`)

// tableRow reads one row of the line table: a description (after its
// position or quantity, where the table prints those first) and figures
// that end in the row's amount; the amount as printed, for the page's sum.
func tableRow(cells []Cell, conf float64, credit bool) (receipt.LineItem, decimal.Decimal, bool) {
	d := 0
	for d < len(cells) && d < 2 && reLeadingNumber.MatchString(strings.TrimSpace(cells[d].Text)) {
		d++
	}
	// An article's code before the description ("TB100A4  Trennblätter A4").
	if d+1 < len(cells) && reArticleCode.MatchString(strings.TrimSpace(cells[d].Text)) && strings.IndexFunc(cells[d].Text, isLetter) >= 0 &&
		strings.ContainsRune(strings.TrimSpace(cells[d+1].Text), ' ') && strings.IndexFunc(cells[d+1].Text, isLetter) >= 0 {
		d++
	}
	if len(cells)-d < 3 || strings.IndexFunc(cells[d].Text, isLetter) < 0 || !reAmountEnd.MatchString(cells[len(cells)-1].Text) {
		return receipt.LineItem{}, decimal.Decimal{}, false
	}
	if _, _, isLabel := labelAt(cells[d].Text); isLabel {
		return receipt.LineItem{}, decimal.Decimal{}, false
	}
	figures := cells[d+1:]
	total := amountsIn(closeGroupGaps(figures[len(figures)-1].Text))
	if len(total) != 1 {
		return receipt.LineItem{}, decimal.Decimal{}, false
	}
	it := receipt.LineItem{Description: found(cells[d].Text, conf, nil, "a row of the invoice's table")}
	v := total[0]
	if credit && v.IsPositive() {
		v = v.Neg()
	}
	it.LineTotal = found(v, conf, nil, "the row's amount")
	// A quantity printed before the description has its decimals ("1,00");
	// a whole number there is the row's position.
	if d > 0 {
		if q := strings.TrimSpace(cells[d-1].Text); strings.ContainsAny(q, ".,") {
			if n, err := decimal.NewFromString(strings.Replace(q, ",", ".", 1)); err == nil {
				it.Quantity = found(n, conf, nil, "the row's quantity")
			}
		}
	}
	for k, c := range figures[:len(figures)-1] {
		// A credit note's rows are negative: their prices with them.
		neg := v.IsNegative() && !strings.HasPrefix(strings.TrimSpace(c.Text), "-")
		t := strings.TrimSpace(c.Text)
		switch {
		case reRateCell.MatchString(t):
			it.TaxCode = found(t, conf, nil, "the row's tax rate")
		case k == 0 && !it.Quantity.Set && reQuantity.MatchString(t) && !reAmountEnd.MatchString(t):
			if q := amountsIn(t + ",00"); len(q) == 1 {
				it.Quantity = found(q[0], conf, nil, "the row's quantity")
			}
		default:
			if a := amountsIn(t); len(a) == 1 && !it.UnitPrice.Set {
				price := a[0]
				if neg {
					price = price.Neg()
				}
				it.UnitPrice = found(price, conf, nil, "the row's unit price")
			}
		}
	}
	return it, total[0], true
}

// uncheckedRows are the rows of a PDF page that prints no sum at all (the
// table goes on to a later page that has them): taken with the doubt
// inference.RowsUnchecked, for inference.AddPage to keep where the
// document's rows make its net and to drop where they do not.
func uncheckedRows(lines []Line, credit bool) ([]receipt.LineItem, bool) {
	items, _ := rowsIn(lines, credit)
	for i := range items {
		items[i].LineTotal.Doubt = inference.RowsUnchecked
	}
	return items, len(items) > 0
}

// rowsIn reads the table rows among lines and the sum of their amounts as
// printed. A row whose amount the table sets on the line below, beside an
// article's code ("4012345001235        198,00"), is read with it.
func rowsIn(lines []Line, credit bool) ([]receipt.LineItem, decimal.Decimal) {
	var items []receipt.LineItem
	sum := decimal.Zero
	for i := 0; i < len(lines); i++ {
		cells := cellsOf(lines[i])
		it, v, ok := tableRow(cells, lines[i].Conf*confPrinted, credit)
		if !ok && i+1 < len(lines) && !reAmountEnd.MatchString(cells[len(cells)-1].Text) {
			if amount, below := amountBelow(lines[i+1]); below {
				it, v, ok = tableRow(append(cells[:len(cells):len(cells)], amount), lines[i].Conf*confPrinted, credit)
				if ok {
					i++
				}
			}
		}
		if ok {
			items = append(items, it)
			sum = sum.Add(v)
		}
	}
	return items, sum
}

// amountBelow is the amount that ends a line of nothing but codes and
// that amount: a row's amount set under it.
func amountBelow(l Line) (Cell, bool) {
	cells := cellsOf(l)
	last := cells[len(cells)-1]
	if len(cells) < 2 || !reAmountEnd.MatchString(last.Text) || len(amountsIn(last.Text)) != 1 {
		return Cell{}, false
	}
	for _, c := range cells[:len(cells)-1] {
		if strings.ContainsAny(c.Text, " ") || strings.IndexFunc(c.Text, isLetter) >= 0 && !reArticleCode.MatchString(c.Text) {
			return Cell{}, false
		}
	}
	return last, true
}

// reArticleCode is an article's code: letters and digits in one word,
// with a digit ("TB100A4", "4012345001235").
var reArticleCode = regexp.MustCompile(`^[A-Za-z0-9\-/.]*\d[A-Za-z0-9\-/.]*$`)
