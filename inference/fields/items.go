package fields

// Line items: the item lines between a receipt's heading and its totals,
// kept only when they add up.

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

var reLeadQty = regexp.MustCompile(`^\s*(\d{1,3})\s*[xX×*@]\s+`)

// reUnitsRow is a table header's second row, its columns' currency in
// brackets: "(RM) (RM)".
var reUnitsRow = regexp.MustCompile(`^\W*(\((RM|MYR|\$|S\$|A\$|US\$|USD|AUD|NZD|EUR|GBP|€|£)\)\s*)+$`)

// reQtyPrice is a quantity times a unit price: "2 x 3.40", "3 PCS @ 1.20",
// with a unit between ("2 kpl x 3,40", "0,712 kg x 3,99"), a fuel price to
// the tenth of a cent ("38,42 L x 1,899"); a pack's size is none ("Cerveja
// 6x0,33L"). A measured quantity's unit may be its l read as 1 ("38,64 1
// x6,29").
var reQtyPrice = regexp.MustCompile(`(?i)(?:(\d+[.,]\d{1,3})\s*(?:\p{L}[\p{L}\d]{0,3}\.?|1)\s+|(\d+(?:[.,]\d{1,3})?)\s*(?:\p{L}[\p{L}\d]{0,3}\.?\s+)?)(?:PCS?|X|\*|@|UNIT|EA)\s*(?:RM|\$)?\s*(\d+[.,]\d{2,3})(?:[^\p{L}\d]|$)`)

// quantityOrPrice reads a quantity or a unit price as the item patterns
// find it, its decimal mark a point or a comma ("0,712", a fuel price's
// "1,899"): never with a thousands separator.
func quantityOrPrice(s string) (decimal.Decimal, error) {
	return decimal.NewFromString(strings.Replace(s, ",", ".", 1))
}

// findLineItems reads item lines (a description ending in an amount) between
// the header and the first total, and keeps them only when they add up to
// the subtotal or total: a wrong table is worse than none. Items start at a
// table header (QTY, DESCRIPTION…) or a "2 x" line; failing that, right
// after the receipt's heading (its date or TAX INVOICE line), which is how
// many shops print them. A quantity printed under its item ("2 @ 6.50")
// belongs to that item.
func findLineItems(lines []Line, upper []string, r receipt.Receipt) ([]receipt.LineItem, receipt.Amount) {
	target := r.Subtotal
	if !target.Set {
		target = r.Total
		if r.Tip.Set && r.Tip.Value.LessThan(target.Value) {
			target.Value = target.Value.Sub(r.Tip.Value) // the items come to the total before a card slip's tip
		}
	}
	if !target.Set {
		return nil, receipt.Amount{}
	}
	for _, ir := range itemReadings(lines, upper) {
		if ir.throughEnds {
			// Read past a payment or tax word: only an exact sum tells
			// the words were an item's.
			if items := ir.addUpTo(target.Value); items != nil {
				return items, receipt.Amount{}
			}
			continue
		}
		if items, sub := ir.match(target.Value); items != nil {
			return items, sub
		}
	}
	return nil, receipt.Amount{}
}

// itemReadings are the page's item lines read from a table header or a
// quantity-led line, and, where the page has a heading (its date or TAX
// INVOICE line), read from right after it.
func itemReadings(lines []Line, upper []string) []itemReading {
	starts := []int{-1}
	heading := -1
	for i, l := range lines[:min(len(lines), 15)] {
		if reDateNum.MatchString(l.Text) || strings.Contains(upper[i], "INVOICE") || strings.Contains(upper[i], "RECEIPT") {
			heading = i
		}
	}
	if heading >= 0 {
		starts = append(starts, heading+1)
	}
	var out, through []itemReading
	for _, from := range starts {
		ir := readItems(lines, upper, from, false)
		out = append(out, ir)
		// An item named with a payment or tax word ("CARTA A4", paper,
		// read as the card it also names) ended the items early: read
		// on to the total, for the sum to tell.
		if ir.stoppedEarly {
			through = append(through, readItems(lines, upper, from, true))
		}
	}
	return append(out, through...)
}

// itemReading is a page's item lines as read, before they are checked
// against a total.
type itemReading struct {
	items []receipt.LineItem
	// alt[i] is item i's line total as its quantity times its unit price
	// say, where the line prints both and they disagree: one of the two
	// readings is misread.
	alt map[int]decimal.Decimal
	sum decimal.Decimal
	// at[i] is the index of item i's line.
	at []int
	// stoppedEarly: the items ended at a line priced like an item with a
	// payment, change or tax word, before the total's; throughEnds: they
	// were read past such lines.
	stoppedEarly, throughEnds bool
}

// readItems collects item lines until the totals. With from < 0 items
// begin at a table header or a quantity-led line; otherwise at line from.
// throughEnds reads on past lines with a payment, change or tax word, to
// the total's.
func readItems(lines []Line, upper []string, from int, throughEnds bool) itemReading {
	var items []receipt.LineItem
	var at []int
	alt := map[int]decimal.Decimal{}
	sum := decimal.Zero
	started, qtyColumn := false, false
	var pendingDesc string
	nameBelow := false // items print their names under their amounts
	for i, l := range lines {
		k := upper[i]
		if from >= 0 && i < from {
			continue
		}
		started = started || i == from
		amts := amountsIn(l.Text)
		if !isTableHeading(k, amts) && !(qtyColumn && pricedRow(l.Text, amts)) {
			if strings.Contains(k, "TOTAL") {
				break
			}
			if reItemsEnd.MatchString(k) && started {
				// A line priced like an item may be one whose name is a
				// payment or tax word ("CARTA A4 22% 6,31"): read past it
				// only when reading through.
				itemLike := len(amts) == 1 && letterCount(reAmount.ReplaceAllString(l.Text, "")) >= 3
				if !throughEnds || !itemLike {
					return itemReading{items: items, alt: alt, sum: sum, at: at, stoppedEarly: itemLike, throughEnds: throughEnds}
				}
			}
		}
		if reItemsHeader.MatchString(k) && len(amts) == 0 {
			started = true
			qtyColumn = qtyColumn || strings.Contains(k, "QTY") || strings.Contains(k, "QUANTITY")
			pendingDesc = ""
			continue
		}
		// "2 @ 6.50" under its item: the item's quantity and unit price.
		if m := reQtyUnderItem.FindStringSubmatch(l.Text); m != nil && started && len(items) > 0 {
			q, _ := quantityOrPrice(m[1] + m[2])
			if p, err := receipt.ParseAmount(m[3]); err == nil && q.IsPositive() {
				last := &items[len(items)-1]
				if near(q.Mul(p.Value), last.LineTotal.Value) {
					last.Quantity = receipt.Amount{Value: q, Set: true, Source: receipt.SourceOCR, Confidence: confAssumed}
					last.UnitPrice = receipt.Amount{Value: p.Value, Set: true, Source: receipt.SourceOCR, Confidence: confAssumed}
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
		// Amounts read from a misreading go to the reviewer (0.5); like
		// every item line, they are kept only when the items add up.
		guessed := false
		if started || lead != nil {
			// Last on the line, after a price that kept its point or alone.
			if v, ok := lostPointAmount(l.Text); ok {
				amts, guessed = append(amts, v), true
			} else if v, ok := extraDecimalAmount(l.Text); ok && len(amts) == 0 {
				amts, guessed = []decimal.Decimal{v}, true
			}
		}
		if lead != nil && len(amts) > 0 {
			started = true
		}
		if len(amts) == 0 {
			if started && !nameBelow && letterCount(l.Text) >= 3 && !reUnitsRow.MatchString(k) {
				pendingDesc = strings.TrimSpace(l.Text)
			}
			continue
		}
		if !started || reStopAddr.MatchString(k) {
			continue
		}
		desc := cleanItemDesc(reQtyPrice.ReplaceAllString(withoutTaxCode(l.Text), ""))
		if letterCount(desc) < 2 && (nameBelow || pendingDesc == "" && i > 0 && (reItemsHeader.MatchString(upper[i-1]) || reUnitsRow.MatchString(upper[i-1]))) {
			// Right under the table's header, an item code and its
			// amounts over the item's name: so is every item after it.
			if below, ok := nameUnder(lines, upper, i); ok {
				desc, nameBelow = below, true
			}
		}
		if letterCount(desc) < 2 && !nameBelow {
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
		if guessed {
			li.LineTotal.Confidence = min(li.LineTotal.Confidence, 0.5)
		}
		if lead != nil {
			if d := cleanItemDesc(withoutTaxCode(l.Text[len(lead[0]):])); letterCount(d) >= 2 || letterCount(desc) < 2 {
				li.Description.Value = d // "2 x TEA 5.00"; "2 11.50 23.00" keeps the name above it
			}
			if other, ok := quantityFromLead(&li, lead[1], amts); ok {
				alt[len(items)] = other
			}
		} else if m := reQtyPrice.FindStringSubmatch(l.Text); m != nil {
			q, _ := quantityOrPrice(m[1] + m[2])
			if p, err := quantityOrPrice(m[3]); err == nil && q.IsPositive() {
				li.Quantity = receipt.Amount{Value: q, Set: true, Source: receipt.SourceOCR, Confidence: confAssumed}
				li.UnitPrice = receipt.Amount{Value: p, Set: true, Source: receipt.SourceOCR, Confidence: confAssumed}
			}
		}
		items = append(items, li)
		at = append(at, i)
		sum = sum.Add(li.LineTotal.Value)
		pendingDesc = ""
	}
	return itemReading{items: items, alt: alt, sum: sum, at: at, throughEnds: throughEnds}
}

// isTableHeading says whether a line (k its keywordText, amts its
// amounts) heads an item table: it names two columns or more and no
// amount, one of them maybe with the total's word ("AANTAL OMSCHRIJVING
// PRIJS BEDRAG": QTY DESCRIPTION PRICE TOTAL).
func isTableHeading(k string, amts []decimal.Decimal) bool {
	return len(amts) == 0 && len(reItemsHeader.FindAllString(k, -1)) >= 2
}

// quantityFromLead sets an item's quantity from the count that leads its
// line, and its unit price from the price column beside its amount (or
// the amount over the quantity, computed). Where the quantity times the
// price is not the amount, one of them is misread: other is that product,
// the line total as the price would have it.
func quantityFromLead(li *receipt.LineItem, count string, amts []decimal.Decimal) (other decimal.Decimal, ok bool) {
	q, err := decimal.NewFromString(count)
	if err != nil || !q.IsPositive() {
		return decimal.Zero, false
	}
	li.Quantity = receipt.Amount{Value: q, Set: true, Source: receipt.SourceOCR, Confidence: confAssumed}
	li.UnitPrice = receipt.Amount{Value: li.LineTotal.Value.Div(q).Round(2), Set: true, Source: receipt.SourceOCR, Confidence: confComputed}
	if len(amts) < 2 {
		return decimal.Zero, false
	}
	price := amts[len(amts)-2] // a price column beside the amount
	li.UnitPrice.Value = price
	switch v := q.Mul(price); {
	case price.Equal(li.LineTotal.Value) && !q.Equal(decimal.NewFromInt(1)):
		// Price and amount agree: one of them, so the quantity, a misread
		// 1 ("2 HAMMER 22.64 22.64").
		li.Quantity.Value, li.Quantity.Confidence = decimal.NewFromInt(1), 0.4
	case !v.Equal(li.LineTotal.Value):
		return v, true
	}
	return decimal.Zero, false
}

// pricedRow says whether a line (amts its amounts) is a row of an item
// table with a quantity column: its quantity first, and its price times
// the quantity its amount last ("3 CARTA A4 30,64 91,92"). It is an item
// whatever its words say (CARTA is paper, and a card).
func pricedRow(text string, amts []decimal.Decimal) bool {
	lead := reLeadCount.FindStringSubmatch(text)
	if lead == nil || len(amts) < 2 {
		return false
	}
	q, err := decimal.NewFromString(lead[1])
	return err == nil && q.IsPositive() && near(q.Mul(amts[len(amts)-2]), amts[len(amts)-1])
}

// withoutTaxCode is a line's text without the tax code of one or two
// letters printed after its last amount ("1x 2.20 2.20 SR", "1,99 A"),
// which is not the item's name.
func withoutTaxCode(s string) string {
	locs := reAmount.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return s
	}
	end := locs[len(locs)-1][1]
	if tail := strings.Trim(s[end:], " *"); tail != "" && letterCount(tail) == len([]rune(tail)) && len([]rune(tail)) <= 2 {
		return s[:end]
	}
	return s
}

// nameUnder is the line under item line i when it can be the item's
// name: letters, no amount, no total or end of the items. A stray number
// between them, with neither letters nor an amount, is passed over.
func nameUnder(lines []Line, upper []string, i int) (string, bool) {
	j := i + 1
	if j+1 < len(lines) && letterCount(lines[j].Text) == 0 && HasDigit(lines[j].Text) && len(amountsIn(lines[j].Text)) == 0 {
		j++ // a stray number between the amounts and the name ("1 0 5"); not a rule ("-----")
	}
	if j >= len(lines) {
		return "", false
	}
	next, k := lines[j], upper[j]
	if len(amountsIn(next.Text)) > 0 || letterCount(next.Text) < 3 || strings.Contains(k, "TOTAL") || reItemsEnd.MatchString(k) || reUnitsRow.MatchString(k) {
		return "", false
	}
	return cleanItemDesc(next.Text), true
}

// match keeps the items when they add up to target, or to the last
// "item", which is then a subtotal whose word was misread ("Subtotat
// $78.13" under items of 60.85 and 17.28): it is returned set.
func (ir itemReading) match(target decimal.Decimal) ([]receipt.LineItem, receipt.Amount) {
	if items := ir.addUpTo(target); items != nil {
		return items, receipt.Amount{}
	}
	n := len(ir.items)
	if n < 3 {
		return nil, receipt.Amount{}
	}
	last := ir.items[n-1]
	if _, priced := ir.alt[n-1]; priced || last.Quantity.Set {
		return nil, receipt.Amount{}
	}
	above := itemReading{items: ir.items[:n-1], alt: ir.alt, sum: ir.sum.Sub(last.LineTotal.Value), at: ir.at[:n-1]}
	items := above.addUpTo(last.LineTotal.Value)
	if items == nil {
		return nil, receipt.Amount{}
	}
	sub := last.LineTotal
	sub.Confidence *= 0.7
	return items, sub
}

// addUpTo returns a copy of the items when they add up to target, exactly
// or with one misreading undone.
func (ir itemReading) addUpTo(target decimal.Decimal) []receipt.LineItem {
	if len(ir.items) == 0 {
		return nil
	}
	items := append([]receipt.LineItem(nil), ir.items...)
	// Exactly: a one-cent slack let an item misread by a cent through.
	if ir.sum.Equal(target) {
		// The amounts add up: where a line's quantity times its price
		// disagrees, the price was misread ("1 184810 165.00 165.00", an
		// item code glued to the price), and is the amount over the
		// quantity, computed.
		for i := range ir.alt {
			if i >= len(items) {
				continue
			}
			if q := items[i].Quantity; q.Set && q.Value.IsPositive() {
				items[i].UnitPrice = receipt.Amount{Value: items[i].LineTotal.Value.Div(q.Value).Round(2), Set: true, Source: receipt.SourceOCR, Confidence: confComputed}
			}
		}
		return items
	}
	// Off: when exactly one item's other reading makes the sum, that
	// reading was the right one.
	fix := -1
	for i, v := range ir.alt {
		if i >= len(items) {
			continue
		}
		if ir.sum.Sub(items[i].LineTotal.Value).Add(v).Equal(target) {
			if fix >= 0 {
				return nil
			}
			fix = i
		}
	}
	if fix < 0 && len(ir.alt) > 1 {
		// Each line whose quantity times price disagrees with its amount,
		// read the other way: two misread amounts on one receipt.
		all := ir.sum
		for i, v := range ir.alt {
			all = all.Sub(items[i].LineTotal.Value).Add(v)
		}
		if all.Equal(target) {
			for i, v := range ir.alt {
				items[i].LineTotal.Value = v
				items[i].LineTotal.Confidence *= 0.7
			}
			return items
		}
	}
	if fix < 0 {
		if mended := mendItemZero(items, ir.sum, target); mended != nil {
			return mended
		}
		return mendItemStrayDigit(items, ir.sum, target)
	}
	items[fix].LineTotal.Value = ir.alt[fix]
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
	return mendOneItem(items, sum, target, func(read string) []string {
		var out []string
		for k := range len(read) {
			if dateDigitMisreads[read[k]] == '0' {
				out = append(out, read[:k]+"0"+read[k+1:])
			}
		}
		return out
	})
}

// mendItemStrayDigit makes items add up to target when exactly one digit
// left out of one item's amount does: a speck read as a digit inside it
// ("MASKING TAPE EUR 308,83" for 30,83). To the reviewer as well.
func mendItemStrayDigit(items []receipt.LineItem, sum, target decimal.Decimal) []receipt.LineItem {
	return mendOneItem(items, sum, target, func(read string) []string {
		if packs.CountDigits(read) <= 3 {
			return nil
		}
		var out []string
		for k := range len(read) {
			if read[k] != '.' {
				out = append(out, read[:k]+read[k+1:])
			}
		}
		return out
	})
}

// mendOneItem makes items add up to target when exactly one of the other
// readings that readings gives of one item's amount (written to the cent)
// does. Where two fit, neither is known and it returns nil.
func mendOneItem(items []receipt.LineItem, sum, target decimal.Decimal, readings func(string) []string) []receipt.LineItem {
	fix, to := -1, decimal.Zero
	for i, it := range items {
		rest := sum.Sub(it.LineTotal.Value)
		for _, r := range readings(it.LineTotal.Value.StringFixed(2)) {
			v, err := decimal.NewFromString(r)
			if err != nil || !rest.Add(v).Equal(target) || fix == i && v.Equal(to) {
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

// lostPointAmount reads an item's amount whose decimal point OCR lost or
// read as a space, after its currency sign at the end of the line:
// "£11253" is 112.53, "$47 60" 47.60. Such a line is kept only when the
// items add up, as every item line is.
func lostPointAmount(s string) (decimal.Decimal, bool) {
	m := reItemLostPoint.FindStringSubmatch(s)
	if m == nil {
		return decimal.Zero, false
	}
	v, err := decimal.NewFromString(strings.TrimSpace(m[1]) + "." + m[2])
	return v, err == nil
}

// extraDecimalAmount reads an item's amount with a speck read as a third
// decimal, after its currency sign at the end of the line: "EUR 25,412"
// is 25,41.
func extraDecimalAmount(s string) (decimal.Decimal, bool) {
	m := reItemExtraDecimal.FindStringSubmatch(s)
	if m == nil {
		return decimal.Zero, false
	}
	v, err := decimal.NewFromString(m[1] + "." + m[2])
	return v, err == nil
}

var (
	// reItemExtraDecimal is a currency sign, an amount and one digit more.
	reItemExtraDecimal = regexp.MustCompile(`(?:[$£€]|\bRM|\bEUR)\s?(\d{1,4})[.,](\d{2})\d\W{0,2}$`)
	// reItemLostPoint is reLostPoint after a currency sign, which an item
	// line needs: without one, codes and quantities would read as amounts.
	reItemLostPoint = regexp.MustCompile(`(?:[$£€]|\bRM|\bEUR)\s?(\d{1,4}\s?)(\d{2})\W{0,2}$`)
	// reQtyUnderItem is a quantity line printed under its item: "2 @ 6.50",
	// "4 x EUR 27,85", "3 x S1.63" (its $ read as S), with a unit: "2 Stk x
	// 1,39", "0,520 kg x 3,80 EUR/kg". A quantity with decimals has its
	// unit: "2.00 X 68.00" alone on a line is the next item's, its amount
	// on the discount's line below.
	reQtyUnderItem = regexp.MustCompile(`^\s*(?:(\d{1,3})\.?|(\d{1,3}[.,]\d{1,3})\s*\p{L}[\p{L}\d]{0,3}\.?)\s*(?:\p{L}[\p{L}\d]{0,3}\.?\s+)?[@xX×]\s*(?:[A-Z]{3}\s*|[$€£S]\s*)?(\d+[.,]\d{2})\s*(?:(?:[A-Z]{3}|€)\s*/\s*\p{L}{1,3})?\s*$`)
	// reLeadCount is a bare leading count, read as the quantity only under
	// a QTY column heading.
	reLeadCount    = regexp.MustCompile(`^\s*(\d{1,3})\s+`)
	reCurrencyMark = regexp.MustCompile(`\b(EUR|GBP|USD|AUD|NZD|MYR|RM)\b|[$€£—–]`)
)

// totalFromItems mends a total misread where the page's other amounts
// show it, and returns the items, which then add up (nil where nothing was
// mended):
//   - one 0 read as 6, 8 or 9 (a blurred 0's closed bowl, as
//     dateDigitMisreads): "TOTAL DUE $259.61" over items that add up to
//     259.01, when the tax printed is the sum's share at a rate the country
//     uses and not the printed total's, or another line prints the sum (a
//     card payment);
//   - one digit lost ("GRAND TOTAL EUR 52,82" over items of 502,82), when
//     cash less change is the items' sum too: two readings of other lines
//     agree;
//   - any one digit, when the total line was read unsure and every item
//     line sure, and the tax printed is the sum's share ("BALANCE DUE
//     $192.52" at 55% over items of 192.51 at 95%, GST $17.50).
//
// The mended total goes to the reviewer (0.5).
func totalFromItems(r *receipt.Receipt, lines []Line, upper []string, rates []decimal.Decimal, change *decimal.Decimal) []receipt.LineItem {
	if !r.Total.Set || r.Subtotal.Set {
		return nil
	}
	for _, ir := range itemReadings(lines, upper) {
		if len(ir.items) < 2 {
			continue
		}
		confirmed := false
		switch {
		case zeroReadAsLoop(ir.sum, r.Total.Value):
			taxSays := r.TotalTax.Set && inclusiveTaxAtARate(ir.sum, r.TotalTax.Value, rates) && !inclusiveTaxAtARate(r.Total.Value, r.TotalTax.Value, rates)
			itemLine := map[int]bool{}
			for _, i := range ir.at {
				itemLine[i] = true
			}
			confirmed = taxSays || printedOn(lines, func(i int) bool { return itemLine[i] }, ir.sum.Equal)
		case oneDigitLost(ir.sum, r.Total.Value):
			confirmed = r.AmountPaid.Set && change != nil && change.IsPositive() && r.AmountPaid.Value.Sub(*change).Equal(ir.sum)
		case oneDigitApart(ir.sum, r.Total.Value) && r.Total.Confidence < 0.6:
			// Any one digit, where the total was read unsure and every
			// item sure, and the tax printed is the sum's share.
			sure := true
			for _, it := range ir.items {
				sure = sure && it.LineTotal.Confidence >= 0.63 // the line read at 90%
			}
			confirmed = sure && r.TotalTax.Set && inclusiveTaxAtARate(ir.sum, r.TotalTax.Value, rates)
		}
		if !confirmed {
			continue
		}
		r.Total.Value, r.Total.Confidence = ir.sum, min(r.Total.Confidence, 0.5)
		return ir.addUpTo(ir.sum)
	}
	return nil
}

// oneDigitLost reports whether read is v, written to the cent, with one of
// its digits left out.
func oneDigitLost(v, read decimal.Decimal) bool {
	x, y := v.StringFixed(2), read.StringFixed(2)
	if len(x) != len(y)+1 {
		return false
	}
	for i := range len(x) {
		if x[i] >= '0' && x[i] <= '9' && x[:i]+x[i+1:] == y {
			return true
		}
	}
	return false
}

// zeroReadAsLoop reports whether read is v with one 0 read as 6, 8 or 9.
func zeroReadAsLoop(v, read decimal.Decimal) bool {
	x, y := v.StringFixed(2), read.StringFixed(2)
	if len(x) != len(y) || !oneDigitApart(v, read) {
		return false
	}
	for i := range len(x) {
		if x[i] != y[i] {
			return x[i] == '0' && dateDigitMisreads[y[i]] == '0'
		}
	}
	return false
}

// inclusiveTaxAtARate reports whether tax is gross's tax-inclusive share
// at one of rates, to the cent.
func inclusiveTaxAtARate(gross, tax decimal.Decimal, rates []decimal.Decimal) bool {
	for _, rate := range rates {
		if rate.IsPositive() && near(taxIncluded(gross, rate), tax) {
			return true
		}
	}
	return false
}
