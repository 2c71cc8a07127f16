package inference

// Line items: the item lines between a receipt's heading and its totals,
// kept only when they add up.

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

var reLeadQty = regexp.MustCompile(`^\s*(\d{1,3})\s*[xX×*@]\s+`)

var reQtyPrice = regexp.MustCompile(`(?i)(\d+(?:\.\d+)?)\s*(?:PCS?|X|\*|@|UNIT|EA)\s*(?:RM|\$)?\s*(\d+[.,]\d{2})`)

// findLineItems reads item lines (a description ending in an amount) between
// the header and the first total, and keeps them only when they add up to
// the subtotal or total: a wrong table is worse than none. Items start at a
// table header (QTY, DESCRIPTION…) or a "2 x" line; failing that, right
// after the receipt's heading (its date or TAX INVOICE line), which is how
// many shops print them. A quantity printed under its item ("2 @ 6.50")
// belongs to that item.
func findLineItems(lines []Line, upper []string, r receipt.Receipt) []receipt.LineItem {
	target := r.Subtotal
	if !target.Set {
		target = r.Total
	}
	if !target.Set {
		return nil
	}
	if items := scanItems(lines, upper, target.Value, -1); items != nil {
		return items
	}
	heading := -1
	for i, l := range lines[:min(len(lines), 15)] {
		if reDateNum.MatchString(l.Text) || strings.Contains(upper[i], "INVOICE") || strings.Contains(upper[i], "RECEIPT") {
			heading = i
		}
	}
	if heading < 0 {
		return nil
	}
	return scanItems(lines, upper, target.Value, heading+1)
}

// scanItems collects item lines until the totals and keeps them when they
// add up to target. With from < 0 items begin at a table header or a
// quantity-led line; otherwise at line from.
func scanItems(lines []Line, upper []string, target decimal.Decimal, from int) []receipt.LineItem {
	var items []receipt.LineItem
	// alt[i] is item i's line total as its quantity times its unit price
	// say, where the line prints both and they disagree: one of the two
	// readings is misread.
	alt := map[int]decimal.Decimal{}
	sum := decimal.Zero
	started := false
	qtyColumn := false
	var pendingDesc string
	for i, l := range lines {
		k := upper[i]
		if from >= 0 && i == from {
			started = true
		}
		if from >= 0 && i < from {
			continue
		}
		if strings.Contains(k, "TOTAL") || reItemsEnd.MatchString(k) && started {
			break
		}
		if reItemsHeader.MatchString(k) && len(amountsIn(l.Text)) == 0 {
			started = true
			qtyColumn = qtyColumn || strings.Contains(k, "QTY") || strings.Contains(k, "QUANTITY")
			pendingDesc = ""
			continue
		}
		amts := amountsIn(l.Text)
		// "2 @ 6.50" under its item: the item's quantity and unit price.
		if m := reQtyUnderItem.FindStringSubmatch(l.Text); m != nil && started && len(items) > 0 {
			q, _ := decimal.NewFromString(m[1])
			if p, err := receipt.ParseAmount(m[2]); err == nil && q.IsPositive() {
				last := &items[len(items)-1]
				if near(q.Mul(p.Value), last.LineTotal.Value) {
					last.Quantity = receipt.Amount{Value: q, Set: true, Source: receipt.SourceOCR, Confidence: 0.6}
					last.UnitPrice = receipt.Amount{Value: p.Value, Set: true, Source: receipt.SourceOCR, Confidence: 0.6}
				} else {
					alt[len(items)-1] = q.Mul(p.Value)
				}
			}
			continue
		}
		lead := reLeadQty.FindStringSubmatch(l.Text)
		if lead == nil && qtyColumn {
			lead = reLeadCount.FindStringSubmatch(l.Text)
		}
		if lead != nil && len(amts) > 0 {
			started = true
		}
		if len(amts) == 0 {
			if started && letterCount(l.Text) >= 3 {
				pendingDesc = strings.TrimSpace(l.Text)
			}
			continue
		}
		if !started || reStopAddr.MatchString(k) {
			continue
		}
		desc := cleanItemDesc(reQtyPrice.ReplaceAllString(l.Text, ""))
		if letterCount(desc) < 2 {
			desc = pendingDesc
		}
		if letterCount(desc) < 2 {
			continue
		}
		li := receipt.LineItem{
			Description: receipt.Text{Value: desc, Set: true, Source: receipt.SourceOCR, Confidence: clamp(l.Conf * 0.7)},
			LineTotal:   receipt.Amount{Value: amts[len(amts)-1], Set: true, Source: receipt.SourceOCR, Confidence: clamp(l.Conf * 0.7)},
		}
		if b := l.Box; b.W > 0 {
			li.LineTotal.Box = &b
		}
		if lead != nil {
			li.Description.Value = cleanItemDesc(l.Text[len(lead[0]):])
			if q, err := decimal.NewFromString(lead[1]); err == nil && q.IsPositive() {
				li.Quantity = receipt.Amount{Value: q, Set: true, Source: receipt.SourceOCR, Confidence: 0.6}
				li.UnitPrice = receipt.Amount{Value: li.LineTotal.Value.Div(q).Round(2), Set: true, Source: receipt.SourceOCR, Confidence: 0.5}
				if len(amts) >= 2 { // a price column beside the amount
					price := amts[len(amts)-2]
					li.UnitPrice.Value = price
					switch v := q.Mul(price); {
					case price.Equal(li.LineTotal.Value) && !q.Equal(decimal.NewFromInt(1)):
						// Price and amount agree: one of them, so the
						// quantity, a misread 1 ("2 HAMMER 22.64 22.64").
						li.Quantity.Value, li.Quantity.Confidence = decimal.NewFromInt(1), 0.4
					case !v.Equal(li.LineTotal.Value):
						alt[len(items)] = v
					}
				}
			}
		} else if m := reQtyPrice.FindStringSubmatch(l.Text); m != nil {
			q, _ := decimal.NewFromString(m[1])
			if p, err := receipt.ParseAmount(m[2]); err == nil && q.IsPositive() {
				li.Quantity = receipt.Amount{Value: q, Set: true, Source: receipt.SourceOCR, Confidence: 0.6}
				li.UnitPrice = receipt.Amount{Value: p.Value, Set: true, Source: receipt.SourceOCR, Confidence: 0.6}
			}
		}
		items = append(items, li)
		sum = sum.Add(li.LineTotal.Value)
		pendingDesc = ""
	}
	if len(items) == 0 {
		return nil
	}
	// Exactly: a one-cent slack let an item misread by a cent through.
	if sum.Equal(target) {
		return items
	}
	// Off: when exactly one item's other reading makes the sum, that
	// reading was the right one.
	fix := -1
	for i, v := range alt {
		if sum.Sub(items[i].LineTotal.Value).Add(v).Equal(target) {
			if fix >= 0 {
				return nil
			}
			fix = i
		}
	}
	if fix < 0 {
		return mendItemZero(items, sum, target)
	}
	items[fix].LineTotal.Value = alt[fix]
	items[fix].LineTotal.Confidence *= 0.7
	return items
}

// mendItemZero makes items add up to target when exactly one 6, 8 or 9 of
// one item's amount, read for a 0 (a blurred 0's closed bowl, as
// dateDigitMisreads), does: "5 x HAMMER EUR 192,80" under TOTAL EUR
// 236,12 is 192,00. Other misreadings are not tried: with 9 read for 8 or
// 2 for 1 allowed, a coincidence on another item made a wrong list of a
// synthetic phone photo. The mended amount goes to the reviewer (0.5).
func mendItemZero(items []receipt.LineItem, sum, target decimal.Decimal) []receipt.LineItem {
	fix, to := -1, decimal.Zero
	for i, it := range items {
		read := it.LineTotal.Value.StringFixed(2)
		rest := sum.Sub(it.LineTotal.Value)
		for k := range len(read) {
			if dateDigitMisreads[read[k]] != '0' {
				continue
			}
			v, err := decimal.NewFromString(read[:k] + "0" + read[k+1:])
			if err != nil || !rest.Add(v).Equal(target) {
				continue
			}
			if fix >= 0 {
				return nil // two mends fit: neither is known
			}
			fix, to = i, v
		}
	}
	if fix < 0 {
		return nil
	}
	it := &items[fix]
	if it.Quantity.Set && it.UnitPrice.Set && it.UnitPrice.Value.Equal(it.LineTotal.Value.Div(it.Quantity.Value).Round(2)) {
		it.UnitPrice.Value = to.Div(it.Quantity.Value).Round(2)
	}
	it.LineTotal.Value, it.LineTotal.Confidence = to, min(it.LineTotal.Confidence, 0.5)
	return items
}

// cleanItemDesc is an item line without its amounts, currency marks and
// the dashes and dots that pad a till roll.
func cleanItemDesc(s string) string {
	s = reAmount.ReplaceAllString(s, "")
	s = reCurrencyMark.ReplaceAllString(s, " ")
	return strings.Trim(strings.Join(strings.Fields(s), " "), " :*-—–.|_[]{}'\"‘’“”")
}

var (
	// reQtyUnderItem is a quantity line printed under its item: "2 @ 6.50",
	// "4 x EUR 27,85".
	reQtyUnderItem = regexp.MustCompile(`^\s*(\d{1,3})\s*[@xX×]\s*(?:[A-Z]{3}\s*|[$€£]\s*)?(\d+[.,]\d{2})\s*$`)
	// reLeadCount is a bare leading count, read as the quantity only under
	// a QTY column heading.
	reLeadCount    = regexp.MustCompile(`^\s*(\d{1,3})\s+`)
	reCurrencyMark = regexp.MustCompile(`\b(EUR|GBP|USD|AUD|NZD|MYR|RM)\b|[$€£—–]`)
)
