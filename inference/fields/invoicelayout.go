package fields

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// An invoice's blocks sit side by side: the letterhead beside the meta
// block, the buyer's address beside the invoice number, a label above its
// value. The rules here read a page as cells (Line.Cells, or its words cut
// at wide gaps) and the labels of the language packs' invoice_labels, so
// that a value is the one printed beside or under its own label, not the
// text of another column that shares its line.

// labelled is a cell that starts with an invoice label.
type labelled struct {
	line, cell int
	label      string // the pack's label: "DUE DATE"
	rest       string // the cell's text after the label
	colon      bool   // a colon ends the label ("Kunde:")
}

// cellsOf are a line's cells: the text layer's, else its words cut where
// the gap between two is wider than the line is high, else the whole line.
func cellsOf(l Line) []Cell {
	if len(l.Cells) > 0 {
		return l.Cells
	}
	if len(l.Words) == 0 {
		return []Cell{{Text: l.Text, X0: float64(l.Box.X), X1: float64(l.Box.X + l.Box.W)}}
	}
	var out []Cell
	var cur []string
	var c Cell
	for i, w := range l.Words {
		x0, x1 := float64(w.Box.X), float64(w.Box.X+w.Box.W)
		if i > 0 && x0-c.X1 > 1.2*float64(max(w.Box.H, 1)) {
			c.Text = strings.Join(cur, " ")
			out = append(out, c)
			cur = nil
		}
		if len(cur) == 0 {
			c = Cell{X0: x0}
		}
		cur = append(cur, w.Text)
		c.X1 = x1
	}
	c.Text = strings.Join(cur, " ")
	return append(out, c)
}

// unit is the width of one character on a line: 1 in a text layer's
// columns, about half the line's height in pixels.
func unit(l Line) float64 {
	if len(l.Cells) > 0 || l.Box.H == 0 {
		return 1
	}
	return float64(l.Box.H) / 2
}

var (
	phrasesOnce sync.Once
	phrases     []packs.InvoicePhrase
)

func invoicePhrases() []packs.InvoicePhrase {
	phrasesOnce.Do(func() { phrases = packs.InvoicePhrases() })
	return phrases
}

// wordEnds are the byte offsets where each word of s ends, cutting as
// packs.Words does (at every mark that is no letter or digit).
func wordEnds(s string) []int {
	var ends []int
	in := false
	for i, r := range s {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if in && !w {
			ends = append(ends, i)
		}
		in = w
	}
	if in {
		ends = append(ends, len(s))
	}
	return ends
}

// labelAt says which invoice label a cell's text starts with (the longest
// of the packs' phrases) and what follows it.
func labelAt(text string) (label, rest string, ok bool) {
	label, rest, _, ok = labelColon(text)
	return label, rest, ok
}

// labelColon is labelAt, also saying whether a colon ends the label. A
// label joined to another by a slash ("Rechnungsempfänger/Leistungsempfänger")
// is one label.
func labelColon(text string) (label, rest string, colon, ok bool) {
	words := packs.Words(text)
	if len(words) == 0 {
		return "", "", false, false
	}
	for _, ph := range invoicePhrases() {
		if !hasWords(words, ph.Words) {
			continue
		}
		ends := wordEnds(text)
		if len(ends) < len(ph.Words) {
			continue
		}
		rest = text[ends[len(ph.Words)-1]:]
		// "Datum" is no label of "Datumsangabe": a label ends its word.
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsLetter(r) || unicode.IsDigit(r) {
			continue
		}
		colon = strings.HasPrefix(strings.TrimLeft(rest, " ."), ":")
		rest = strings.TrimSpace(strings.TrimLeft(rest, " .:#°º*"))
		if after, found := strings.CutPrefix(rest, "/"); found {
			if _, r2, c2, ok2 := labelColon(strings.TrimSpace(after)); ok2 {
				rest, colon = r2, colon || c2
			}
		}
		return ph.Label, rest, colon, true
	}
	// A text layer may split a label's word ("Br uttosumme", "Zahlbetr ag").
	if len(words) >= 2 {
		joined := words[0] + words[1]
		for _, ph := range invoicePhrases() {
			if len(ph.Words) == 1 && ph.Words[0] == joined {
				ends := wordEnds(text)
				rest := text[ends[1]:]
				colon := strings.HasPrefix(strings.TrimLeft(rest, " ."), ":")
				return ph.Label, strings.TrimSpace(strings.TrimLeft(rest, " .:#°º*")), colon, true
			}
		}
	}
	return "", "", false, false
}

func hasWords(words, prefix []string) bool {
	if len(prefix) > len(words) {
		return false
	}
	for i, w := range prefix {
		if words[i] != w {
			return false
		}
	}
	return true
}

// findLabels lists every cell that starts with an invoice label.
func findLabels(lines []Line) []labelled {
	var out []labelled
	for i, l := range lines {
		for ci, c := range cellsOf(l) {
			if label, rest, colon, ok := labelColon(c.Text); ok {
				out = append(out, labelled{line: i, cell: ci, label: label, rest: rest, colon: colon})
			}
		}
	}
	return out
}

// valueOf is what a label labels: the rest of its cell, else the next cell
// on its line, else the cell printed under it (a value set below its label,
// left-aligned or right-aligned in the label's column). It returns the
// value and the line it is on.
func valueOf(lines []Line, lb labelled) (string, int) {
	if lb.rest != "" {
		return lb.rest, lb.line
	}
	cells := cellsOf(lines[lb.line])
	if lb.cell+1 < len(cells) {
		return cells[lb.cell+1].Text, lb.line
	}
	if c, j, ok := cellBelow(lines, lb.line, cells[lb.cell]); ok {
		return c.Text, j
	}
	return "", -1
}

// cellBelow is the first cell on the next two lines that sits in the
// column of c: starting where c starts, or ending to the right of its start
// within a few characters of its end.
func cellBelow(lines []Line, i int, c Cell) (Cell, int, bool) {
	u := unit(lines[i])
	for j := i + 1; j < len(lines) && j <= i+2; j++ {
		for _, d := range cellsOf(lines[j]) {
			if d.X1 < c.X0-2*u || d.X0 > c.X1+40*u {
				continue
			}
			if d.X0 < c.X0-2*u && d.X1 > c.X0+2*u && d.X1 < c.X1+2*u {
				continue // a cell of the column to the left that runs under the label
			}
			if d.X0 >= c.X0-2*u {
				return d, j, true
			}
		}
	}
	return Cell{}, -1, false
}

var reCurrencyCodeValue = regexp.MustCompile(`\b[A-Z]{3}\b`)

var reValueToken = regexp.MustCompile(`^[A-Za-z0-9][\w\-/.]*`)

// numberValue is the invoice number in a label's value: its first token,
// which must hold a digit.
func numberValue(v string) (string, bool) {
	v = strings.TrimSpace(strings.TrimLeft(v, ":#. "))
	tok := strings.TrimRight(reValueToken.FindString(v), ".,;:/-")
	if len(tok) < 2 || !strings.ContainsAny(tok, "0123456789") {
		return "", false
	}
	if _, err := receipt.ParseDate(tok, receipt.DMY); err == nil && reDateNum.MatchString(tok) {
		return "", false // a date beside the label, as "Nr. / Datum" headers print them
	}
	return tok, true
}

var reDayMonthYear = regexp.MustCompile(`(?i)\b(\d{1,2})\.?\s*(?:de\s+)?([\p{L}]{3,})\.?,?\s*(?:de\s+)?(\d{4})\b|\b([\p{L}]{3,})\.?\s+(\d{1,2}),?\s+(\d{4})\b`)

// dateValue reads a date as invoices print it: numbers in the page's
// order, or a day, a month's name in any of the packs' languages and a
// year ("28. März 2025", "3 de mayo de 2025", "March 3, 2025").
func dateValue(v string, loc receipt.Locale) (time.Time, bool) {
	for _, m := range reDateNum.FindAllString(v, -1) {
		if d, err := receipt.ParseDate(m, loc.DateOrder); err == nil {
			return d.Date, true
		}
	}
	months := packs.AllMonths()
	for _, m := range reDayMonthYear.FindAllStringSubmatch(v, -1) {
		day, name, year := m[1], m[2], m[3]
		if day == "" {
			name, day, year = m[4], m[5], m[6]
		}
		mon, ok := months[packs.Fold(name)]
		if !ok {
			if len(name) >= 3 {
				mon, ok = months[packs.Fold(name[:3])]
			}
			if !ok {
				continue
			}
		}
		d, _ := strconv.Atoi(day)
		y, _ := strconv.Atoi(year)
		t := time.Date(y, time.Month(mon), d, 0, 0, 0, 0, time.UTC)
		if d >= 1 && d <= 31 && t.Day() == d {
			return t, true
		}
	}
	return time.Time{}, false
}

// amountOnLine is the last amount of a labelled line, from the label's
// cell on (the amounts of a tax basis printed left of the label are not
// the label's), negative when printed with a minus before or after it.
func amountOnLine(lines []Line, lb labelled) (decimal.Decimal, bool) {
	cells := cellsOf(lines[lb.line])
	var text []string
	text = append(text, lb.rest)
	for _, c := range cells[lb.cell+1:] {
		text = append(text, c.Text)
	}
	s := closeGroupGaps(strings.Join(text, " "))
	s = reDateNum.ReplaceAllString(s, " ")
	s = rePercent.ReplaceAllString(s, " ")
	a := amountsIn(s)
	if len(a) != 1 {
		return decimal.Decimal{}, false // none, or a table's sum row ("Total : 120.00 7.20")
	}
	v := a[len(a)-1]
	if !v.IsNegative() && reTrailingMinus.MatchString(s) {
		v = v.Neg()
	}
	return v, true
}

var (
	reTrailingMinus  = regexp.MustCompile(`\d[.,]\d{2}\s*-\s*(?:[A-Z]{3}|€|£|\$)?\s*$`)
	reTotalsCurrency = regexp.MustCompile(`(?:^|[\s\d])(EUR|USD|GBP|CHF|AUD|NZD|CAD|SEK|NOK|DKK|PLN|CZK|HUF|BGN|RON|JPY|INR|SGD|HKD|MYR)(?:$|[\s\d.,])|(US\$|€|£)`)
)

// reGroupGap is a thousands separator a page reader followed with a space
// ("6. 163,32").
var reGroupGap = regexp.MustCompile(`\b(\d{1,3})([.,']) (\d{3}[.,]\d{2})\b`)

// reCentsGap is a decimal separator a page reader followed with a space,
// after a thousands group ("93.178, 86").
var reCentsGap = regexp.MustCompile(`\b(\d{1,3}(?:[.,']\d{3})+)([.,]) (\d{2})\b`)

// closeGroupGaps joins an amount's groups that a page reader set apart
// after their separator: "6. 163,32" is 6.163,32, not 163,32; "93.178, 86"
// is 93.178,86, not 178,86.
func closeGroupGaps(s string) string {
	return reCentsGap.ReplaceAllString(reGroupGap.ReplaceAllString(s, "$1$2$3"), "$1$2$3")
}

// tailOf reports a reading that is the tail of a larger amount the label's
// line shows once its groups are closed (178.86 of 93,178.86): the line
// rules lost its thousands.
func tailOf(read, whole decimal.Decimal) bool {
	r, w := read.Abs().StringFixed(2), whole.Abs().StringFixed(2)
	return len(w) > len(r) && strings.HasSuffix(w, r)
}

// currencyOnLine is the currency printed beside an amount on a totals
// line ("13.635,46 €", "EUR 1,200.00"), "" when none.
func currencyOnLine(l Line) string {
	m := reTotalsCurrency.FindStringSubmatch(l.Text)
	if m == nil || len(amountsIn(l.Text)) == 0 {
		return ""
	}
	switch c := m[1] + m[2]; c {
	case "€":
		return "EUR"
	case "£":
		return "GBP"
	case "US$":
		return "USD"
	default:
		return c
	}
}

// readInvoiceLayout reads an invoice's labelled blocks by their cells and
// the packs' invoice labels: number, dates, buyer, seller, net, tax, gross,
// paid and due, currency and the credit note's sign. What it finds by its
// own label wins over what the line rules found.
func readInvoiceLayout(lines []Line, loc receipt.Locale, now time.Time, r *receipt.Receipt) {
	labels := findLabels(lines)
	// A text layer's characters are exact: what its labels label wins. A
	// page reader's are not: there the line rules' values, mended from
	// misreadings, stand, and the labels fill what they left empty.
	exact := fromTextLayer(lines)
	boxOf := func(i int) *receipt.Box {
		if i < 0 || lines[i].Box.W == 0 && lines[i].Box.H == 0 {
			return nil
		}
		b := lines[i].Box
		return &b
	}
	first := map[string]labelled{}
	last := map[string]labelled{}
	for _, lb := range labels {
		if _, ok := first[lb.label]; !ok {
			first[lb.label] = lb
		}
		last[lb.label] = lb
	}

	p := invoicePage{lines: lines, labels: labels, exact: exact, pack: packOf(loc)}
	readInvoiceNumberAndDates(p, loc, now, r)
	readInvoiceParties(p, r)
	gi, di, ni := readInvoiceTotals(p, r)

	// The currency printed beside the sums, else in a labelled line.
	for _, i := range []int{gi, di, ni} {
		if i < 0 {
			continue
		}
		if c := currencyOnLine(lines[i]); c != "" && receipt.ValidCurrency(c) {
			r.Currency = found(c, confPrinted, boxOf(i), "printed beside the invoice's total")
			break
		}
	}
	if lb, ok := first["CURRENCY"]; ok {
		v, j := valueOf(lines, lb)
		if m := reCurrencyCodeValue.FindString(v); m != "" && receipt.ValidCurrency(m) {
			r.Currency = found(m, lines[j].Conf*confPrinted, boxOf(j), "the invoice's labelled currency")
		}
	}

	if notLastPage(lines) && strings.HasPrefix(r.Currency.Why, "no currency printed") {
		r.Currency = receipt.Text{} // the last page, which prints the sums, may print it
	}
	// The seller's tax ID: labelled, outside the buyer's block.
	if id, j, ok := sellerTaxIDByLabel(lines, labels, loc); ok && (!r.SupplierTaxID.Set || inBuyerColumn(lines, labels, r.SupplierTaxID.Value.Value) || !printedID(lines, r.SupplierTaxID.Value.Value) ||
		len(id.Value) > len(r.SupplierTaxID.Value.Value) && strings.HasPrefix(id.Value, r.SupplierTaxID.Value.Value)) {
		r.SupplierTaxID = found(id, lines[j].Conf*confPrinted, boxOf(j), "the seller's labelled tax ID")
	}

	// A credit note's title makes its sums negative.
	if creditTitle(lines, labels) {
		r.DocType = found(receipt.DocCreditNote, confLikely, nil, "the document calls itself a credit note")
	}
	credit := r.DocType.Set && r.DocType.Value == receipt.DocCreditNote
	if items, ok := invoiceTable(lines, labels, credit); ok {
		r.LineItems = items
	}
	if credit {
		for _, a := range []*receipt.Amount{&r.Total, &r.Subtotal, &r.TotalTax, &r.AmountDue, &r.Discount} {
			if a.Set && a.Value.IsPositive() {
				a.Value = a.Value.Neg()
				a.Why += "; negative: a credit note"
			}
		}
	}
}

// invoicePage is a page read as an invoice: its lines, its labels, and
// whether its letters are exact (a text layer).
type invoicePage struct {
	lines  []Line
	labels []labelled
	exact  bool
	pack   *packs.Pack // the page's, whose words its labels are read with
}

// box is line i's place on the page, nil when the reader gave none.
func (p invoicePage) box(i int) *receipt.Box {
	if i < 0 || p.lines[i].Box.W == 0 && p.lines[i].Box.H == 0 {
		return nil
	}
	b := p.lines[i].Box
	return &b
}

// readInvoiceNumberAndDates reads the number and the dates, each beside or
// under its label.
func readInvoiceNumberAndDates(p invoicePage, loc receipt.Locale, now time.Time, r *receipt.Receipt) {
	lines, labels, exact := p.lines, p.labels, p.exact
	boxOf := p.box
	for _, lb := range labels {
		if lb.label != "INVOICE NUMBER" {
			continue
		}
		v, j := valueOf(lines, lb)
		if no, ok := numberValue(v); ok {
			if !r.DocumentNumber.Set || exact && r.DocumentNumber.Value != no {
				r.DocumentNumber = found(no, lines[j].Conf*confPrinted, boxOf(j), "the value beside the invoice number's label")
			}
			break
		}
	}
	if no, j, ok := titleNumber(lines, labels); ok && !numberLabelled(lines, labels) {
		r.DocumentNumber = found(no, lines[j].Conf*confPrinted, boxOf(j), "the number beside the document's title")
	}
	loc = pageDateOrder(lines, loc)
	dates := map[string]*receipt.Field[time.Time]{"ISSUE DATE": &r.Date, "DUE DATE": &r.DueDate, "DELIVERY DATE": &r.DeliveryDate}
	whys := map[string]string{"ISSUE DATE": "the labelled invoice date", "DUE DATE": "the labelled due date", "DELIVERY DATE": "the labelled delivery date"}
	done := map[string]bool{}
	for _, lb := range labels {
		f, ok := dates[lb.label]
		if !ok || done[lb.label] {
			continue
		}
		if startsWithWord(lb.rest) && !lb.colon {
			continue // "Date of delivery …" is no issue date
		}
		v, j := valueOf(lines, lb)
		d, ok := dateValue(v, loc)
		if !ok && lb.rest == "" {
			// A column heading among others ("Beschreibung  Fälligkeit
			// Teilzahlung"): its date is printed under it.
			if c, below, found := cellBelow(lines, lb.line, cellsOf(lines[lb.line])[lb.cell]); found {
				d, ok = dateValue(c.Text, loc)
				j = below
			}
		}
		if !ok || lb.label != "DUE DATE" && d.After(now) {
			continue // an issue or delivery date in the future is misread
		}
		done[lb.label] = true
		if lb.label == "ISSUE DATE" && r.Date.Set && strings.HasPrefix(r.Date.Why, "the labelled invoice") && !r.Date.Value.Equal(d) && isBareDateLabel(lines[lb.line], lb) {
			continue // a plain "Datum" loses to a labelled invoice date
		}
		if !f.Set || exact || f.Value.Equal(d) {
			*f = found(d, lines[j].Conf*confPrinted, boxOf(j), whys[lb.label])
		}
	}

	if !r.DueDate.Set {
		if d, j, ok := dueInPaymentTerms(lines, loc); ok {
			r.DueDate = found(d, lines[j].Conf*confLikely, boxOf(j), "the date the payment terms give")
		}
	}
}

// readInvoiceParties reads the buyer and checks the seller against it.
func readInvoiceParties(p invoicePage, r *receipt.Receipt) {
	lines, labels := p.lines, p.labels
	boxOf := p.box
	// The buyer: the block under its label, else the addressee under the
	// letterhead's one-line sender address.
	if name, j, ok := buyerName(lines, labels); ok {
		r.PayerName = found(name, lines[j].Conf*confLikely, boxOf(j), "the buyer's block of the invoice")
	} else if name, j, ok := addresseeBlock(lines, r.SupplierName.Value); ok && !r.PayerName.Set {
		r.PayerName = found(name, lines[j].Conf*confAssumed, boxOf(j), "the address block the invoice is sent to")
	}
	if r.PayerName.Set && r.SupplierName.Set && isBuyersName(r.SupplierName.Value, r.PayerName.Value) {
		r.SupplierName = receipt.Text{} // the buyer's name is no supplier
	}
	if label, rest, ok := labelAt(r.SupplierName.Value); ok && rest == "" && label != "SELLER" {
		r.SupplierName = receipt.Text{} // a block's heading ("DESTINATARIO") names no one
	}
	if reIDLine.MatchString(strings.TrimSpace(r.SupplierName.Value)) {
		r.SupplierName = receipt.Text{} // nor does an identifier ("GLN 4333741000005") under the seller's heading
	}
	if name, j, ok := sellerNameGoesOn(lines, r.SupplierName.Value, r.PayerName.Value); ok {
		r.SupplierName = found(name, lines[j].Conf*confPrinted, boxOf(j), "the seller's name and the legal form printed under it")
	}
	if name, j, ok := sellerByLegalName(lines, r.SupplierName.Value, r.PayerName.Value); ok {
		r.SupplierName = found(name, lines[j].Conf*confPrinted, boxOf(j), "the seller's name as its letterhead, sender line or footer prints it")
	}
}

// isBuyersName says whether a supplier's name is the buyer's: the same, or
// the buyer's whole name with the next column's label read onto it
// ("PAPERBARK PHYSIO PTY LTD ACCOUNT ID" beside "Account ID 300412").
func isBuyersName(supplier, buyer string) bool {
	if receipt.FoldName(supplier) == receipt.FoldName(buyer) {
		return true
	}
	s, b := packs.Words(supplier), packs.Words(buyer)
	return letterCount(buyer) >= 8 && len(b) >= 2 && len(s) > len(b) && hasWords(s, b)
}

// excludesTax says whether the words after a total's label make it the
// net: "Total Sales (Excluding GST)", and what the page's language pack
// reads as NET ("Total (ohne MwSt)", "Total hors taxes").
func (p invoicePage) excludesTax(rest string) bool {
	for _, w := range p.pack.Translate(packs.Words(rest)) {
		if w == "NET" || strings.HasPrefix(w, "EXCL") {
			return true
		}
	}
	return false
}

// whyNetAndTaxLines is the reason of a total the page does not print, made
// of its net and tax lines.
const whyNetAndTaxLines = "the invoice's net total and its tax lines"

// readInvoiceTotals reads the totals block: net, tax, gross, paid and due,
// with the arithmetic that holds among them. It returns the lines of the
// gross, the amount due and the net (-1 where not printed).
func readInvoiceTotals(p invoicePage, r *receipt.Receipt) (gi, di, ni int) {
	lines, labels, exact := p.lines, p.labels, p.exact
	boxOf := p.box
	amount := func(label string) (decimal.Decimal, int, bool) {
		var lb labelled
		ok := false
		for _, l := range labels {
			if l.label == label && !wordsAfterLabel(l.rest) && (label != "GROSS TOTAL" || !p.excludesTax(l.rest)) {
				lb, ok = l, true
			}
		}
		if !ok {
			return decimal.Decimal{}, -1, false
		}
		v, ok := amountOnLine(lines, lb)
		if !ok && lb.line+1 < len(lines) && reAmountOnly.MatchString(strings.TrimSpace(lines[lb.line+1].Text)) {
			a := amountsIn(lines[lb.line+1].Text)
			if len(a) == 1 {
				return a[0], lb.line + 1, true
			}
		}
		return v, lb.line, ok
	}
	if notLastPage(lines) {
		// Page 1 of 2 carries its sum forward: the totals are the last page's.
		r.Total, r.Subtotal, r.TotalTax, r.AmountDue = receipt.Amount{}, receipt.Amount{}, receipt.Amount{}, receipt.Amount{}
		r.TaxLines = nil
	}
	// A total the line rules took from "Gesamtbetrag der Abschläge" names
	// another sum.
	for _, lb := range labels {
		if lb.label == "GROSS TOTAL" && wordsAfterLabel(lb.rest) && r.Total.Set && sameBox(r.Total.Box, boxOf(lb.line)) {
			for _, a := range amountsIn(lines[lb.line].Text) {
				if a.Equal(r.Total.Value) {
					r.Total = receipt.Amount{}
					break
				}
			}
		}
	}
	net, ni, hasNet := amount("NET TOTAL")
	gross, gi, hasGross := amount("GROSS TOTAL")
	due, di, hasDue := amount("AMOUNT DUE")
	paid, _, hasPaid := amount("PAID")
	if hasGross && hasNet && gi < ni {
		hasGross = false // "Total" above the net: a column heading's or a line's, not the sum's
	}
	taxSum, taxes := decimal.Zero, 0
	for _, lb := range labels {
		if lb.label != "TAX" || hasNet && lb.line <= ni || hasGross && lb.line >= gi {
			continue
		}
		if v, ok := amountOnLine(lines, lb); ok {
			taxSum = taxSum.Add(v)
			taxes++
		}
	}
	if hasNet && (exact || !r.Subtotal.Set || tailOf(r.Subtotal.Value, net)) {
		r.Subtotal = found(net, lines[ni].Conf*confPrinted, boxOf(ni), "the invoice's labelled net total")
	}
	if hasNet && taxes > 0 && (!hasGross || net.Add(taxSum).Equal(gross)) {
		r.TotalTax = found(taxSum, confPrinted, nil, "the tax lines of the invoice's totals block")
	}
	switch {
	case hasGross:
		if !r.Total.Set || exact && !r.Total.Value.Equal(gross) || tailOf(r.Total.Value, gross) {
			r.Total = found(gross, lines[gi].Conf*confPrinted, boxOf(gi), "the gross total of the invoice")
		}
	case hasNet && taxes > 0 && !r.Total.Set:
		r.Total = found(net.Add(taxSum), confComputed, nil, whyNetAndTaxLines)
	case hasDue && !hasPaid:
		r.Total = found(due, lines[di].Conf*confPrinted, boxOf(di), "the amount due of the invoice")
	}
	if !notLastPage(lines) {
		settleNetAndTax(r, lines, labels, net, ni, hasNet, taxSum, taxes)
	}
	if hasPaid && !paid.IsZero() {
		r.AmountPaid = found(paid.Abs(), confPrinted, nil, "the invoice's labelled prepayment")
	}
	if hasDue {
		r.AmountDue = found(due, lines[di].Conf*confPrinted, boxOf(di), "the invoice's labelled amount due")
	}
	addInvoiceArithmetic(r)
	return gi, di, ni
}

// startsWithWord reports text that goes on in a lower-case word that is
// no month ("of delivery"), not in a date.
func startsWithWord(text string) bool {
	f := strings.Fields(text)
	if len(f) == 0 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(f[0])
	if !unicode.IsLower(r) || len([]rune(f[0])) < 2 {
		return false
	}
	_, month := packs.AllMonths()[packs.Fold(strings.Trim(f[0], ".,"))]
	return !month
}

func sameBox(a, b *receipt.Box) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// wordsAfterLabel reports a label that goes on in a lower-case word
// ("Gesamtbetrag der Zuschläge", "Rechnungssumme ohne USt."): it names
// another sum than the label's.
func wordsAfterLabel(rest string) bool { return startsWithWord(rest) }

// dueInPaymentTerms reads the due date from a payment terms sentence
// ("Zahlbar innerhalb 30 Tagen netto bis 04.04.2018, 3% Skonto … bis
// 15.03.2018", "Please remit until 2020-12-12"): the latest date after a
// word for "until" on a line that starts with a payment word; a discount's
// earlier date is not the due date.
func dueInPaymentTerms(lines []Line, loc receipt.Locale) (time.Time, int, bool) {
	var dueBy [][]string
	for _, ph := range invoicePhrases() {
		if ph.Label == "DUE BY" {
			dueBy = append(dueBy, ph.Words)
		}
	}
	for i, l := range lines {
		label, _, ok := labelAt(l.Text)
		if !ok || label != "PAYMENT TERMS" {
			continue
		}
		text := l.Text
		if i+1 < len(lines) && len(cellsOf(lines[i+1])) == 1 {
			text += " " + lines[i+1].Text // the sentence goes on below
		}
		var best time.Time
		ends := wordEnds(text)
		words := packs.Words(text)
		for k := range words {
			for _, ph := range dueBy {
				if !hasWords(words[k:], ph) || k+len(ph) > len(ends) {
					continue
				}
				rest := text[ends[k+len(ph)-1]:]
				if m := reDateNum.FindStringIndex(rest); m != nil && strings.TrimSpace(rest[:m[0]]) == "" {
					if d, ok := dateValue(rest[m[0]:m[1]], loc); ok && d.After(best) {
						best = d
					}
				} else if d, ok := dateValue(firstWords(rest, 5), loc); ok && d.After(best) {
					best = d
				}
			}
		}
		if !best.IsZero() {
			return best, i, true
		}
	}
	return time.Time{}, -1, false
}

// firstWords is the first n words of s.
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// numberLabelled reports a page whose invoice number stands beside its label.
func numberLabelled(lines []Line, labels []labelled) bool {
	for _, lb := range labels {
		if lb.label == "INVOICE NUMBER" {
			if v, _ := valueOf(lines, lb); v != "" {
				if _, ok := numberValue(v); ok {
					return true
				}
			}
		}
	}
	return false
}

// titleNumber is the number printed in the document's title ("FACTURE
// 2024/0012", "Gutschrift G-77"): a cell of the title word and the number
// alone.
func titleNumber(lines []Line, labels []labelled) (string, int, bool) {
	titles := packs.LabelWordsEverywhere("INVOICE")
	titles = append(titles, []string{"INVOICE"}, []string{"TAX", "INVOICE"})
	for _, lb := range labels {
		if lb.label == "CREDIT NOTE" && len(strings.Fields(lb.rest)) == 1 {
			if no, ok := numberValue(lb.rest); ok {
				return no, lb.line, true
			}
		}
	}
	for i, l := range lines {
		for _, c := range cellsOf(l) {
			f := strings.Fields(c.Text)
			if len(f) < 2 || len(f) > 3 {
				continue
			}
			head := packs.Words(strings.Join(f[:len(f)-1], " "))
			for _, t := range titles {
				if strings.Join(head, " ") == strings.Join(t, " ") {
					if no, ok := numberValue(f[len(f)-1]); ok {
						return no, i, true
					}
				}
			}
		}
	}
	return "", -1, false
}

// continuationPage reports an invoice's later page, which may not call
// itself an invoice: it carries the sum of the pages before it forward
// ("Übertrag 1.234,56").
func continuationPage(lines []Line) bool {
	sums := map[string]bool{}
	for _, lb := range findLabels(lines) {
		if _, ok := amountOnLine(lines, lb); ok && !wordsAfterLabel(lb.rest) {
			sums[lb.label] = true
		}
	}
	// Or a PDF's last page with nothing but the totals block on it.
	return sums["CARRIED FORWARD"] || fromTextLayer(lines) && sums["GROSS TOTAL"] && (sums["AMOUNT DUE"] || sums["NET TOTAL"] || sums["PAID"])
}

// invoiceBlocks reports a page with an invoice's own blocks, which till
// receipts lack: a due date, or a buyer's block under its own heading.
func invoiceBlocks(lines []Line) bool {
	for _, lb := range findLabels(lines) {
		switch lb.label {
		case "DUE DATE":
			if v, _ := valueOf(lines, lb); v != "" {
				if _, ok := dateValue(v, receipt.Locale{DateOrder: receipt.DMY}); ok {
					return true
				}
			}
		case "BUYER":
			if lb.rest == "" && len(cellsOf(lines[lb.line])) <= 2 {
				if _, _, ok := nameInColumn(lines, lb.line, cellsOf(lines[lb.line])[lb.cell]); ok {
					return true
				}
			}
		}
	}
	return false
}

// isBareDateLabel reports a label that is the plain word for date ("Datum",
// "Date"), which also heads order and delivery dates.
func isBareDateLabel(l Line, lb labelled) bool {
	c := cellsOf(l)[lb.cell].Text
	return len(packs.Words(strings.TrimSuffix(c, lb.rest))) == 1
}

// creditTitle reports a page titled as a credit note: a cell that is the
// label alone, or the label with its number, in the top two thirds of the
// page, on no row of the items.
func creditTitle(lines []Line, labels []labelled) bool {
	for _, lb := range labels {
		if lb.label != "CREDIT NOTE" || lb.line > len(lines)*2/3 || isTableRow(lines[lb.line].Text) {
			continue
		}
		if rest := strings.TrimSpace(lb.rest); rest == "" || strings.ContainsAny(rest, "0123456789") && len(strings.Fields(rest)) <= 3 {
			return true
		}
	}
	return false
}

// isTableRow says whether a line reads as a row of the items: a
// quantity or position first, an amount last ("1 ABONO LIQUIDO 1L 10%
// 6,45", where ABONO is a fertiliser, not a credit).
func isTableRow(text string) bool {
	f := strings.Fields(text)
	return len(f) >= 3 && reLeadingNumber.MatchString(f[0]) && reAmountEnd.MatchString(strings.TrimSpace(text))
}
