package fields

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// whyPaid is the reason given for a total that is the amount paid.
const whyPaid = "the amount paid, with no change given"

// whyCashLessChange is the why of a total made from the amount handed
// over less the change, where no total line was read.
const whyCashLessChange = "cash less change"

// PaidOrUnlabelled says whether a total was only guessed: the amount
// paid, or an amount on no line labelled total.
func PaidOrUnlabelled(t receipt.Amount) bool {
	return t.Set && (strings.HasPrefix(t.Why, "no total label read") || t.Why == whyPaid)
}

// NoTotalLineRead says whether a total was made where no total line was
// read: from the subtotal and what follows it, the amount above a
// rounding line, or the amount paid.
func NoTotalLineRead(t receipt.Amount) bool {
	return t.Set && strings.HasPrefix(t.Why, "no total ")
}

// totalRule is a keyword pattern for total-like lines and the weight a match gives.
type totalRule struct {
	re     *regexp.Regexp
	weight float64
	// paid marks a payment line (CASH, VISA…): what was handed over, which
	// is the total only when no change was given.
	paid bool
	why  string
}

var (
	totalRules = []totalRule{
		// A final total comes after every other: "Total Sales Inclusive GST
		// 43.72 / Round Adj -0.02 / FinalTotal 43.70".
		{regexp.MustCompile(`FINAL\s*TOTAL`), 3.5, false, "the amount on the final total line"},
		{regexp.MustCompile(`ROUND\w*\s*TOTAL|TOTAL\s*((AMOUNT|AMT)\s*)?ROUND|NET+\s*TOTAL|GRAND\s*TOTAL|TOTAL\s*(AMOUNT|AMT)?\s*(DUE|PAYABLE)|(AMOUNT|AMT)\s*DUE|BALANCE\s*DUE|TOTAL\s*(INCL|INCLUSIVE)|TOTAL\s*SALES\s*\(?\s*INCL|TOTAL\s*\(?\s*(RM|MYR|AUD|USD|SGD|\$)|^\W*DUE\b`), 3, false, "the amount on the line labelled total due"},
		{regexp.MustCompile(`\bTOTAL\b|\bTOTAL\s*AMOUNT|\bAMOUNT\b|\bNETT\b|\bNET+\s*AMT\b`), 2, false, "the amount on the line labelled total"},
		{regexp.MustCompile(`\bCASH\b|\bPAID\b|\bPAYMENT\b|\bVISA\b|\bMASTER|\bCARD\b|\bEFTPOS\b|\bCREDIT\b|\bDEBIT\b`), 0.5, true, whyPaid},
	}
	reNotTotal   = regexp.MustCompile(`SUB\s*-?\s*TOTAL|TOTAL\s*(QTY|QUANTITY|ITEMS?|NO|DISC\w*|SAVING\w*|` + taxWords + `|EXCL\w*|POINTS?)|TOTAL\s*SALES\s*\(?\s*EXCL|CHANGE|TENDER|ROUNDING\s*ADJ|\bROUNDING\b\s*$|\bQTY\b|GST\s*SUMMARY|DISCOUNT|SAVINGS|SUPPL(Y|IES)|\bEXCL|ACCEPTED|RECEIVED|\bGROSS\b|TAXABLE|TOTAL\s*INCLUDE[SD]\b|DUE\s*DATE`)
	reTaxSummary = regexp.MustCompile(`(GST|SST|VAT|TAX)\s*SUM+[AE]R|TAX\s*CODE|\bCODE\b.*\bAMOUNT\b.*\b(TAX|GST)\b|^\s*AMOUNT\s*\(?RM\)?\s*TAX|\bRATE\b.*\bNET\b|\bNET\b.*\b(GST|TAX)\b.*\bTOTAL\b`)
	// "Tax Code  Taxable Amount  GST": a tax table's column headings, with
	// no amount of their own, even where the first words are misread.
	reTaxColumns = regexp.MustCompile(`\bAMOUNT\s*(\(\w+\))?\s*(GST|SST|VAT|TAX)\s*$`)
	reChange     = regexp.MustCompile(`CHANGE|BALANCE\s*$`)
	reCashLine   = regexp.MustCompile(`\bCASH\b|TENDER`)
)

// ApplyCashRounding makes the total the amount paid when the receipt rounds
// cash to 5 cents (Malaysia, Australia, New Zealand…): a "ROUNDING" line that
// carries the rounded total itself ("Rounding RM 27.30" under 27.28), or a
// small rounding adjustment that turns a total ending in 1–4 or 6–9 cents
// into one ending in 0 or 5.
//
// It is exported for a receipt whose total and rounding came from two
// readings: the rounding line may be read by one reader only.
func ApplyCashRounding(r *receipt.Receipt) {
	if !r.Total.Set || !r.Rounding.Set {
		return
	}
	t, adj := r.Total.Value, r.Rounding.Value
	fiveCent := decimal.New(5, -2)
	switch {
	case adj.GreaterThanOrEqual(decimal.NewFromInt(1)) && adj.Sub(t).Abs().LessThanOrEqual(fiveCent) && inFiveCents(adj) && !inFiveCents(t):
		r.Total.Value = adj
		r.Rounding = receipt.Amount{Value: adj.Sub(t), Set: true, Source: r.Rounding.Source, Confidence: r.Rounding.Confidence, Box: r.Rounding.Box}
	case !adj.IsZero() && adj.Abs().LessThan(fiveCent) && !inFiveCents(t) && inFiveCents(t.Add(adj)):
		r.Total.Value = t.Add(adj)
	}
}

// inFiveCents says whether an amount is in whole 5 cents, as cash rounding
// leaves it.
func inFiveCents(d decimal.Decimal) bool {
	return d.Mul(decimal.NewFromInt(100)).Mod(decimal.NewFromInt(5)).IsZero()
}

// reconcileTotal checks the total against what the page's other amounts
// imply: subtotal + tax (+ service charge), to the 5 cents when the receipt
// prints a rounding line, and cash less change. A total that one of them
// confirms (to the 5 cents of cash rounding) gains confidence. Otherwise,
// when the printed total is one digit away from an implied value (953.35
// for 153.35: the print was misread, the arithmetic of other lines was
// not), or both implied values agree on another one, the implied value is
// taken; cash less change alone does not overrule a total that the line
// items add up to or that the page prints again (confirmed). dollarLost
// says the page prints "$" and the total's line does not: its 5 or 8 may
// be the sign misread.
func reconcileTotal(r *receipt.Receipt, service, change, supplies *decimal.Decimal, confirmed, rounds, dollarLost bool) {
	var implied []decimal.Decimal
	fromCash := -1
	if supplies != nil {
		implied = append(implied, *supplies)
	}
	// A subtotal equal to the total already includes the tax.
	if r.Subtotal.Set && r.TotalTax.Set && r.TotalTax.Value.IsPositive() && !(r.Total.Set && r.Subtotal.Value.Equal(r.Total.Value)) {
		sum := r.Subtotal.Value.Add(r.TotalTax.Value)
		if service != nil && service.IsPositive() {
			sum = sum.Add(*service)
		} else if r.Tip.Set {
			sum = sum.Add(r.Tip.Value) // the tip a card slip prints before its total
		}
		if rounds {
			sum = sum.Mul(decimal.NewFromInt(20)).Round(0).Div(decimal.NewFromInt(20))
		}
		implied = append(implied, sum)
	}
	// With no change given, cash is one more reading of the total's digits,
	// not arithmetic.
	if r.AmountPaid.Set && change != nil && change.IsPositive() && r.AmountPaid.Value.GreaterThan(*change) {
		fromCash = len(implied)
		implied = append(implied, r.AmountPaid.Value.Sub(*change))
	}
	if len(implied) == 0 {
		return
	}
	agreed := len(implied) == 2 && implied[0].Equal(implied[1])
	if !r.Total.Set {
		if agreed {
			r.Total = receipt.Amount{Value: implied[0], Set: true, Source: r.Subtotal.Source, Confidence: confAssumed}
		}
		return
	}
	// Cash rounding puts the amount paid up to 2 cents from the total: cash
	// less change confirms a total to 5 cents, and so does the arithmetic
	// of a receipt that prints a rounding line. Otherwise only the exact
	// value confirms it (35.01 of supplies against a payable read as 35.04).
	fiveCents := decimal.New(5, -2)
	for i, v := range implied {
		slack := decimal.Zero
		if i == fromCash || rounds {
			slack = fiveCents
		}
		if v.Sub(r.Total.Value).Abs().LessThanOrEqual(slack) {
			r.Total.Confidence = clamp(r.Total.Confidence + 0.2)
			return
		}
	}
	for i, v := range implied {
		// Cash less change is two more readings, each of which may be the
		// misread one: it does not overrule a total the items add up to.
		misread := misreadOf(v, r.Total.Value) || dollarLost && dollarReadAsDigit(v, r.Total.Value)
		if agreed || misread && !(i == fromCash && confirmed) {
			r.Total.Value, r.Total.Confidence = v, 0.7
			return
		}
	}
}

// roundsCash says whether a receipt rounds cash to 5 cents: it prints a
// rounding line, whether or not its amount could be read ("ROUNDING) 7 2 0
// >. 001", SROIE 026 read without clean-up).
func roundsCash(r receipt.Receipt, upper []string) bool {
	if r.Rounding.Set {
		return true
	}
	for _, k := range upper {
		if strings.Contains(k, "ROUNDING") {
			return true
		}
	}
	return false
}

// subtotalAfterAdjustments finds, on a receipt whose total line could not be
// read, the last subtotal printed below a tax or rounding line: one that
// already counts them ("Total GST Amt 2.40 / Sub Total 42.40", "Rounding
// 0.02 / Subtotal 41.45") is the amount due.
func subtotalAfterAdjustments(lines []Line, upper []string) (decimal.Decimal, Line, bool) {
	var found decimal.Decimal
	var at Line
	ok, adjusted := false, false
	for i, l := range lines {
		k := upper[i]
		switch {
		case reSubtotal.MatchString(k):
			if amts := amountsIn(l.Text); adjusted && len(amts) > 0 && amts[len(amts)-1].IsPositive() {
				found, at, ok = amts[len(amts)-1], l, true
			}
		case strings.Contains(k, "ROUNDING"), // its amount may be unreadable
			reTaxWord.MatchString(k) && len(amountsIn(l.Text)) > 0 && (!reNotTaxAmount.MatchString(k) || reTotalTaxLine.MatchString(k)):
			adjusted = true
		}
	}
	return found, at, ok
}

// totalAboveRounding finds, on a receipt with no total line read and no
// subtotal, the amount a rounding adjustment is made to: the last amount
// on the line just above the rounding line ("Qty 8 19.20 / Rounding Adj
// 0.00 / Due [9.20", SROIE 279, where "Due" and its amount were misread).
// The total is that amount plus the adjustment. It is taken only when no
// amount above it is larger (a tax or discount line is not a total) and
// an adjustment leaves a total in whole 5 cents.
func totalAboveRounding(lines []Line, upper []string) (decimal.Decimal, Line, bool) {
	largest := decimal.Zero
	for i := 1; i < len(lines); i++ {
		above := amountsIn(lines[i-1].Text)
		for _, a := range above {
			largest = decimal.Max(largest, a)
		}
		k := upper[i]
		if !strings.Contains(k, "ROUNDING") || strings.Contains(k, "TOTAL") {
			continue
		}
		adj := amountsIn(lines[i].Text)
		if len(adj) == 0 || len(above) == 0 {
			return decimal.Zero, Line{}, false
		}
		k = upper[i-1]
		if reTaxWord.MatchString(k) || reChange.MatchString(k) || reCashLine.MatchString(k) || strings.Contains(k, "DISC") {
			return decimal.Zero, Line{}, false
		}
		v := above[len(above)-1]
		if v.LessThan(largest) || !v.IsPositive() {
			return decimal.Zero, Line{}, false
		}
		a := adj[len(adj)-1]
		if strings.Contains(lines[i].Text, "-") && a.IsPositive() {
			a = a.Neg()
		}
		total := v.Add(a)
		if !a.IsZero() && !inFiveCents(total) {
			return decimal.Zero, Line{}, false
		}
		return total, lines[i-1], total.IsPositive()
	}
	return decimal.Zero, Line{}, false
}

// rePaidLine is a line giving what the customer handed over.
var rePaidLine = regexp.MustCompile(`\bCASH\b|TENDER|RECEIVED|\bPAID\b`)

// paidWithoutChange finds, on a receipt with no total read at all, an
// amount paid that gave no change: "Cash Received : 4.70" with no change
// line (SROIE 265, whose two total lines were misread). The amount must
// have cents: a whole amount is as likely notes handed over whose change
// line was lost.
func paidWithoutChange(lines []Line, upper []string) (decimal.Decimal, Line, bool) {
	var paid decimal.Decimal
	var at Line
	found := false
	for i, l := range lines {
		k := upper[i]
		amts := amountsIn(l.Text)
		if reChange.MatchString(k) {
			return decimal.Zero, Line{}, false // change was given, or its amount lost
		}
		if len(amts) == 0 || found || !rePaidLine.MatchString(k) {
			continue
		}
		paid, at, found = amts[len(amts)-1], l, true
	}
	if !found || !paid.IsPositive() || paid.Equal(paid.Truncate(0)) {
		return decimal.Zero, Line{}, false
	}
	return paid, at, true
}

// reTipLine is a tip's line: the pack's words for a tip read as TIP.
var reTipLine = regexp.MustCompile(`\bTIPS?\b|\bGRATUITY\b`)

// totalAfterTip finds the total a card terminal prints after the tip it
// was given: "AMOUNT 193.74 / TIP 30.00 / TOTAL 223.74", "Napiwek 17,00 /
// KWOTA 186,00", "POURBOIRE 4,00 / PAYÉ CB 80,50". The tip's line and a
// total or payment line at most two lines below it must add up exactly: an
// amount on one of the three lines above the tip plus the tip is the
// total. The tip guide's percentages ("18% = $30.06") and a tip left
// blank or written in with no total below it make no such sum.
func totalAfterTip(lines []Line, upper []string) (total, tip decimal.Decimal, totalLine, tipLine Line, ok bool) {
	for i := range lines {
		if !reTipLine.MatchString(upper[i]) || rePercent.MatchString(lines[i].Text) {
			continue
		}
		tips := amountsIn(lines[i].Text)
		if len(tips) == 0 || !tips[len(tips)-1].IsPositive() {
			continue
		}
		tip = tips[len(tips)-1]
		for j := i + 1; j < min(len(lines), i+3); j++ {
			totals := amountsIn(lines[j].Text)
			if len(totals) == 0 || !labelsTotalOrPayment(upper[j]) || reNotTotal.MatchString(upper[j]) || reChange.MatchString(upper[j]) {
				continue
			}
			total = totals[len(totals)-1]
			base := func(k int) bool { return k >= i-3 && k < i }
			if printedOn(lines, func(k int) bool { return !base(k) }, func(a decimal.Decimal) bool { return a.Add(tip).Equal(total) }) {
				return total, tip, lines[j], lines[i], true
			}
			break
		}
	}
	return decimal.Zero, decimal.Zero, Line{}, Line{}, false
}

// labelsTotalOrPayment says whether a line's keywords label a total or a
// payment.
func labelsTotalOrPayment(k string) bool {
	for _, rule := range totalRules {
		if rule.re.MatchString(k) {
			return true
		}
	}
	return false
}

// totalFromSubtotal makes the total, on a receipt whose total line could
// not be read, from its subtotal and tax: the subtotal itself when its tax
// is a rate's share of it (the prices include tax, "SUBTOTAL 28.70 / INC 6%
// GST 1.62") or there is no tax, the subtotal plus tax when the tax is a
// rate of it. A tax that fits no rate leaves the total unset.
func totalFromSubtotal(r *receipt.Receipt, rates []decimal.Decimal) {
	if !r.Subtotal.Set || !r.Subtotal.Value.IsPositive() {
		return
	}
	sub := r.Subtotal.Value
	set := func(v decimal.Decimal) {
		r.Total = receipt.Amount{Value: v, Set: true, Source: r.Subtotal.Source, Confidence: clamp(r.Subtotal.Confidence * 0.5), Box: r.Subtotal.Box}
	}
	if !r.TotalTax.Set || r.TotalTax.Value.IsZero() {
		set(sub)
		return
	}
	tax := r.TotalTax.Value
	switch {
	case taxedAtARate(sub.Sub(tax), sub, rates): // the prices include the tax
		set(sub)
	case taxedAtARate(sub, sub.Add(tax), rates):
		set(sub.Add(tax))
	}
}

// suppliesTotal is what a Malaysian GST invoice's supply totals add up to:
// the zero-rated supplies and the standard-rated supplies with their tax
// ("Total 0% supplies: 26.61", "Total 6% supplies (Inc. GST): 8.40"); their
// sum is the amount payable, which a misread "Total Payable: 35.04" can be
// checked against. The supply lines are misread too, so the sum is given
// (nil otherwise) only when the page confirms its parts: every reading of
// the zero-rated total agrees (Gardenia prints it twice), and the
// standard-rated total is its tax-exclusive line plus the tax, or that line
// taxed at one of the country's rates when the tax line was misread.
func suppliesTotal(lines []Line, upper []string, tax receipt.Amount, rates []decimal.Decimal) *decimal.Decimal {
	var zero, exclusive, inclusive []decimal.Decimal
	for i, l := range lines {
		k := upper[i]
		amts := amountsIn(l.Text)
		if !strings.Contains(k, "PLIES") || len(amts) == 0 { // "SUPPLIES", also as "SWYPLIES"
			continue
		}
		last := amts[len(amts)-1]
		switch {
		case strings.Contains(k, "EXCL"):
			exclusive = append(exclusive, last)
		case strings.Contains(k, "INC"):
			inclusive = append(inclusive, last)
		default:
			zero = append(zero, last) // its rate is often misread ("O%", "@&")
		}
	}
	if len(zero) == 0 || len(inclusive) != 1 || len(exclusive) != 1 ||
		!(tax.Set && exclusive[0].Add(tax.Value).Equal(inclusive[0]) || taxedAtARate(exclusive[0], inclusive[0], rates)) {
		return nil
	}
	for _, z := range zero[1:] {
		if !z.Equal(zero[0]) {
			return nil
		}
	}
	sum := zero[0].Add(inclusive[0])
	return &sum
}

// taxedAtARate reports whether gross is net taxed at one of rates, to the
// cent either way.
func taxedAtARate(net, gross decimal.Decimal, rates []decimal.Decimal) bool {
	hundred := decimal.NewFromInt(100)
	for _, r := range rates {
		if r.IsPositive() && near(net.Mul(hundred.Add(r)).Div(hundred), gross) {
			return true
		}
	}
	return false
}

// misreadOf reports whether read is what OCR makes of v: one digit
// misread (35.04 for 35.01), or the first digit lost or read as a mark
// ("$9.54" for 59.54).
func misreadOf(v, read decimal.Decimal) bool {
	if oneDigitApart(v, read) {
		return true
	}
	x, y := v.StringFixed(2), read.StringFixed(2)
	return len(x) == len(y)+1 && x[1:] == y && x[0] >= '1' && x[0] <= '9'
}

// dollarReadAsDigit reports whether read is v with a dollar sign before
// it read as a 5 or an 8 ("554.46" for $54.46), as mendDollarReadAsDigit
// reads a tax line.
func dollarReadAsDigit(v, read decimal.Decimal) bool {
	x, y := v.StringFixed(2), read.StringFixed(2)
	return len(y) == len(x)+1 && y[1:] == x && (y[0] == '5' || y[0] == '8')
}

// oneDigitApart reports whether a and b, written to the cent, differ in
// exactly one digit.
func oneDigitApart(a, b decimal.Decimal) bool {
	x, y := a.StringFixed(2), b.StringFixed(2)
	if len(x) != len(y) {
		return false
	}
	diff := 0
	for i := range len(x) {
		if x[i] != y[i] {
			diff++
		}
	}
	return diff == 1
}

// rePercent is a rate in a label: "GST 6%", "10% Srv Chg".
var rePercent = regexp.MustCompile(`\d+(?:[.,]\d+)?\s*%`)

// Patterns the field finders use per line, compiled once.
var (
	reSubtotal = regexp.MustCompile(`SUB\s*-?\s*TOTAL`)
	// "KING?S": OCR reads an apostrophe between letters as a question mark.
	reQuoteAsQuery = regexp.MustCompile(`(\pL)\?(\pL)`)
	// "POOR ' S": the apostrophe of a letter-spaced heading read as a
	// word of its own.
	reSpacedApostropheS = regexp.MustCompile(`(\pL)\s*(['’])\s*([Ss])\b`)
	// A service charge is the shop's; a service tax (Malaysia's SST,
	// "SERVICE TAX 6%") is a tax, read by the tax words.
	reServiceCharge = regexp.MustCompile(`SERVICE\s*(CHARGE|CHG)|\bSVC\s*(CHG|CHARGE)|\bS/C\b`)
	// "TOTAL GST 8.68", "Total GST Amt : 2.40", "TAX TOTAL: 0.91": the
	// tax, not a total.
	reTotalTaxLine = regexp.MustCompile(`^\W*(TOTAL\s*(` + taxWords + `|SALES\s+TAX)|(` + taxWords + `)\s*TOTAL)\b`)
	reNotTaxAmount = regexp.MustCompile(`\bID\b|REG|\bNO\b|TOTAL|EXCL|SUMMARY|INVOICE|AMOUNT\s*\(`)
	reRinggit      = regexp.MustCompile(`\bRM\b|\bMYR\b|RINGGIT`)
	reContinues    = regexp.MustCompile(`(&|\bAND)$`)
	reItemsEnd     = regexp.MustCompile(`\b(` + taxWords + `|CASH|CARD|CHANGE|DUE|BALANCE|PAYABLE|TENDERED)\b|ROUNDING`)
	reItemsHeader  = regexp.MustCompile(`\b(QTY|DESC|DESCRIPTION|ITEM|PRICE|AMOUNT|AMT)\b`)
	paymentMethods = []struct {
		re   *regexp.Regexp
		name string
	}{
		{regexp.MustCompile(`\bVISA\b`), "card (Visa)"},
		{regexp.MustCompile(`\bMASTER\s*CARD|\bMASTERCARD\b`), "card (Mastercard)"},
		{regexp.MustCompile(`\bAMEX\b`), "card (Amex)"},
		{regexp.MustCompile(`\bEFTPOS\b|\bDEBIT\b`), "card (debit)"},
		{regexp.MustCompile(`\bCREDIT\s*CARD\b`), "card"},
		{regexp.MustCompile(`\bCASH\b`), "cash"},
	}
)

// findTotal votes for the total: every total-like line gives its amount a
// weight by keyword (rounded/grand/net totals most), cash less change adds
// to its value, and the heaviest value wins.
// totalVote is one amount the page offers as its total: how strongly
// (the sum of its keywords' weights), how surely it was read, where, and
// the reason of its strongest reading.
type totalVote struct {
	value  decimal.Decimal
	weight float64
	conf   float64
	box    receipt.Box
	why    string
	top    float64 // the weight of the reading why comes from
}

// totalVotes tallies the amounts offered as the total, by value.
type totalVotes map[string]*totalVote

// add counts one reading of value. The strongest keyword counts in full,
// each further mention a little: repetition confirms a value but must not
// outvote a "TOTAL PAYABLE".
func (votes totalVotes) add(value decimal.Decimal, w, conf float64, box receipt.Box, why string) {
	if !value.IsPositive() {
		return
	}
	k := value.StringFixed(2)
	if votes[k] == nil {
		votes[k] = &totalVote{value: value, box: box}
	}
	v := votes[k]
	v.weight = max(v.weight, w) + min(v.weight, w)*0.25
	v.conf = max(v.conf, conf)
	if w >= 2 || v.box.W == 0 {
		v.box = box
	}
	if w > v.top {
		v.why, v.top = why, w
	}
}

// best is the vote with the most weight (the larger amount on a tie).
func (votes totalVotes) best() *totalVote {
	var best *totalVote
	for _, v := range votes {
		if best == nil || v.weight > best.weight || v.weight == best.weight && v.value.GreaterThan(best.value) {
			best = v
		}
	}
	return best
}

func findTotal(lines []Line, upper []string) receipt.Amount {
	type vote = totalVote
	votes := totalVotes{}
	var cash, change, notes *decimal.Decimal
	var lostPoint, paid []vote
	inSummary, changeLost := false, false
	for i, l := range lines {
		k := upper[i]
		// A tax summary table ("GST SUMMARY", "TAX CODE  AMOUNT  TAX") ends
		// with a TOTAL row of net and tax: not the receipt's total.
		if startsTaxSummary(l, k) {
			inSummary = true
		}
		amts := amountsIn(l.Text)
		amtLine := l
		if len(amts) == 0 && !HasDigit(rePercent.ReplaceAllString(l.Text, "")) && i+1 < len(lines) && letterCount(reAmount.ReplaceAllString(lines[i+1].Text, "")) <= 3 {
			// The amount printed under its label; a row of several
			// amounts is a table's ("T @ 6% 5.42 0.33"). A label with
			// digits had its amount, garbled ("CASH Zz. .00"): what is
			// under it is another line's.
			if under := amountsIn(lines[i+1].Text); len(under) == 1 {
				amts, amtLine = under, lines[i+1]
			}
		}
		if len(amts) == 0 {
			if reChange.MatchString(k) && !strings.Contains(k, "TOTAL") && !HasDigit(l.Text) {
				changeLost = true // "CHANGE Yh"; "CHANGE o.00" is a misread 0.00
			}
			if m := reWholeNotes.FindStringSubmatch(l.Text); m != nil && notes == nil && reCashLine.MatchString(k) && !reChange.MatchString(k) {
				v, _ := decimal.NewFromString(m[1])
				notes = &v
			}
			if m := reLostPoint.FindStringSubmatch(l.Text); m != nil && !reNotTotal.MatchString(k) && !inSummary {
				for _, rule := range totalRules {
					if rule.re.MatchString(k) {
						n, _ := decimal.NewFromString(strings.TrimSpace(m[1]) + m[2])
						lostPoint = append(lostPoint, vote{value: n.Shift(-2), weight: rule.weight, conf: l.Conf, box: l.Box, why: rule.why + ", its decimal point lost and the amount printed elsewhere"})
						break
					}
				}
			}
			continue
		}
		last := amts[len(amts)-1]
		// Cash handed over and change given are amounts, whatever sign a
		// receipt prints them with ("Cash -50.00").
		if reChange.MatchString(k) && !strings.Contains(k, "TOTAL") {
			v := last.Abs()
			change = &v
			continue
		}
		if reCashLine.MatchString(k) && cash == nil {
			v := last.Abs()
			cash = &v
		}
		if reNotTotal.MatchString(k) || inSummary {
			continue
		}
		for _, rule := range totalRules {
			if rule.re.MatchString(k) {
				if rule.paid {
					paid = append(paid, vote{value: last, weight: rule.weight, conf: amtLine.Conf, box: amtLine.Box, why: rule.why})
					if cash == nil { // "Payment 20.00 / Change Due 2.80"
						v := last.Abs()
						cash = &v
					}
				} else {
					if v, ok := joinedAmount(lines, amtLine); ok {
						last = v
					}
					votes.add(last, rule.weight, amtLine.Conf, amtLine.Box, rule.why)
				}
				break
			}
		}
	}
	// An amount paid is one more reading of the total, unless change was
	// given, whether its amount was read or not ("Cash 100.00 / CHANGE Yh").
	for _, v := range paid {
		if !changeLost && (change == nil || !change.IsPositive()) {
			votes.add(v.value, v.weight, v.conf, v.box, v.why)
		}
	}
	if cash != nil && change != nil && !change.IsNegative() && cash.GreaterThan(*change) {
		votes.add(cash.Sub(*change), 1.5, confFromPayment, receipt.Box{}, whyCashLessChange)
	}
	// A total whose decimal point was lost ("GRAND TOTAL 1000") counts
	// when the page prints the amount it stands for elsewhere ("SUB TOTAL
	// 10.00").
	for _, v := range lostPoint {
		if printedOn(lines, func(i int) bool { return lines[i].Box == v.box }, v.value.Equal) {
			votes.add(v.value, v.weight*0.8, v.conf*factorSecondReading, v.box, v.why)
		}
	}
	// Whole notes less change, when nothing else was read, counts only as a
	// reading of an amount the page prints to within a digit: the subtotal
	// "28.10" for 100 less 71.30.
	if len(votes) == 0 && cash == nil && notes != nil && change != nil && notes.GreaterThan(*change) {
		v := notes.Sub(*change)
		payment := func(i int) bool { return reCashLine.MatchString(upper[i]) || reChange.MatchString(upper[i]) }
		if printedOn(lines, payment, func(a decimal.Decimal) bool { return a.Equal(v) || oneDigitApart(a, v) }) {
			votes.add(v, 1.5, confAssumed, receipt.Box{}, "whole notes less change, an amount the page prints")
		}
	}
	if v, _, at, _, ok := totalAfterTip(lines, upper); ok {
		votes.add(v, 4, at.Conf, at.Box, "the total after the tip the card slip prints")
	}
	best := votes.best()
	if best == nil {
		return receipt.Amount{}
	}
	// Two lines labelled total alike ("SALE TOTAL 176.44" over an
	// exchange's "TOTAL 94.07"): the one below, when the page's subtotal
	// and tax make it (a total above one with a tip added is no such).
	if !subtotalAndTaxMake(lines, upper, best.value) {
		var made *totalVote
		for _, v := range votes {
			below := v.box.Page == best.box.Page && v.box.Y > best.box.Y && best.box.H > 0
			if v != best && v.weight == best.weight && below && subtotalAndTaxMake(lines, upper, v.value) && (made == nil || v.value.GreaterThan(made.value)) {
				made = v
			}
		}
		if made != nil {
			best = made
		}
	}
	var box *receipt.Box
	if best.box.W > 0 {
		b := best.box
		box = &b
	}
	return found(best.value, best.conf*min(1, 0.55+best.weight/8), box, best.why)
}

// subtotalAndTaxMake says whether an amount on a subtotal line and one on
// a tax line below it add up to v.
func subtotalAndTaxMake(lines []Line, upper []string, v decimal.Decimal) bool {
	for i, l := range lines {
		if !reSubtotal.MatchString(upper[i]) {
			continue
		}
		for _, sub := range amountsIn(l.Text) {
			for j := i + 1; j < len(lines); j++ {
				if !reTaxWord.MatchString(upper[j]) || reNotTaxAmount.MatchString(upper[j]) && !reTotalTaxLine.MatchString(upper[j]) {
					continue
				}
				for _, tax := range amountsIn(lines[j].Text) {
					if tax.IsPositive() && sub.Add(tax).Equal(v) {
						return true
					}
				}
			}
		}
	}
	return false
}

// reSplitAmount is a labelled amount whose first digits the reader's
// spacing split off: "Net Amt : 1 36.00", "TOTAL RM 1 70.00". After a colon
// or a currency a lone group of digits is no quantity.
var reSplitAmount = regexp.MustCompile(`(?:[:$]|\bRM)\s*(\d{1,3})\s+(\d{1,3}\s?[.,]\s?\d{2})\s*$`)

// joinedAmount is the amount of a line like "Net Amt : 1 36.00" with its
// digits joined, taken only when the page prints the joined amount on
// another line ("Gross Amt : 136.00"): 36.00 and 136.00 are both readings
// of the print, and only the second is confirmed.
func joinedAmount(lines []Line, l Line) (decimal.Decimal, bool) {
	m := reSplitAmount.FindStringSubmatch(l.Text)
	if m == nil {
		return decimal.Decimal{}, false
	}
	a, err := receipt.ParseAmount(m[1] + strings.ReplaceAll(m[2], " ", ""))
	if err != nil {
		return decimal.Decimal{}, false
	}
	v := a.Value
	if !printedOn(lines, func(i int) bool { return lines[i].Box == l.Box }, v.Equal) {
		return decimal.Decimal{}, false
	}
	return v, true
}

// reLostPoint is a line ending in a bare number of three to six digits, or
// in digits and two more after a space: an amount whose decimal point the
// print or the OCR lost ("GRAND TOTAL 1000", "FinalTotal 43 70").
var reLostPoint = regexp.MustCompile(`(?:^|\s)(\d{1,4}\s?)(\d{2})\s*$`)

// reWholeNotes is a cash line's amount read without its cents, or with
// them garbled: notes handed over ("RM CASH 100 0G", "CASH 50"). It counts
// only against a change line, as cash less change, and only where no
// total was read.
var reWholeNotes = regexp.MustCompile(`(?:^|[\s:])(?:RM|\$)?(\d{1,3})(?:\s*[.,]?\s*[0OoGCDQU]{1,2})?\s*$`)

// printedTwice says whether the page prints the total's amount on a line
// other than its own ("TOTAL 141.50" and a tax table's "Z 141.50 0.00"):
// two prints read alike are surer than cash less change, either of which
// may be misread.
func printedTwice(lines []Line, total receipt.Amount) bool {
	if !total.Set || total.Box == nil {
		return false
	}
	return printedOn(lines, func(i int) bool { return lines[i].Box == *total.Box }, total.Value.Equal)
}

// printedOn says whether a line that skip does not pass over prints an
// amount that match takes.
func printedOn(lines []Line, skip func(i int) bool, match func(decimal.Decimal) bool) bool {
	for i, l := range lines {
		if skip(i) {
			continue
		}
		for _, a := range amountsIn(l.Text) {
			if match(a) {
				return true
			}
		}
	}
	return false
}
