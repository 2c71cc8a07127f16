package bank

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// Rules are matching's windows and thresholds.
type Rules struct {
	// SettleDays: a card payment reaches the statement up to this many
	// days after the receipt's date (card settlement).
	SettleDays int
	// EarlyDays: a line may be dated this many days before its receipt
	// (a pre-authorised payment, a receipt dated on delivery).
	EarlyDays int
	// WindowDays: the furthest a proposal may be from its receipt.
	WindowDays int
	// InvoiceDays: an invoice may be paid this long after its date.
	InvoiceDays int
	// RefundDays: money back may come this long after the purchase.
	RefundDays int
	// SureName: how well the description must name the supplier (0–1)
	// for a match to be made without asking.
	SureName float64
	// FXTolerance: how far a conversion may be from the rate other lines
	// of the same currencies show, for a proposal.
	FXTolerance float64
}

// DefaultRules suit card and bank accounts alike.
var DefaultRules = Rules{SettleDays: 5, EarlyDays: 3, WindowDays: 14, InvoiceDays: 60, RefundDays: 90, SureName: 0.6, FXTolerance: 0.03}

// Outcome counts what a match run did.
type Outcome struct {
	Lines     int `json:"lines"`
	Sure      int `json:"matched"`
	Proposed  int `json:"proposed"`
	Confirmed int `json:"confirmed"`
	Missing   int `json:"missing"` // money out with no receipt and nothing proposed
	NotNeeded int `json:"no_receipt_needed"`
	MoneyIn   int `json:"money_in_unmatched"`
}

type lineInfo struct {
	l     library.StatementLine
	words []string
	key   string
}

type receiptInfo struct {
	r       library.MatchReceipt
	words   []string
	invoice bool // paid by transfer, often weeks after its date
	credit  bool // a credit note or a refund receipt: money comes back
}

type pair struct {
	li, ri       int
	score        float64
	name, date   float64
	amount       float64
	days         int
	sure         bool
	why          []string
	refund       bool
	nameFromMemo bool
}

func amountKey(cur string, a decimal.Decimal) string {
	return cur + "|" + a.Abs().StringFixed(4)
}

func days(a, b time.Time) int { return int(math.Round(a.Sub(b).Hours() / 24)) }

// Match works out each statement line's receipt. Lines the bookkeeper
// confirmed keep theirs (and their receipts are taken); every other line
// gets a fresh answer: a sure match, a proposal with its reason, or
// nothing. taken are receipts paid by lines outside this run. It is pure:
// the caller stores the answer.
func Match(lines []library.StatementLine, receipts []library.MatchReceipt, memory map[string]string,
	rejected map[[2]int64]bool, taken map[int64]bool, rules Rules,
) ([]library.LineMatch, Outcome) {
	ls := make([]lineInfo, 0, len(lines))
	for _, l := range lines {
		ls = append(ls, lineInfo{l: l, words: descriptionWords(l.Description), key: DescriptionKey(l.Description)})
	}
	rs, byAmount, foreign := indexReceipts(receipts)
	rates := referenceRates(lines)
	takenR := map[int64]bool{}
	for id := range taken {
		takenR[id] = true
	}
	for _, li := range ls {
		if li.l.MatchState == library.MatchConfirmed && li.l.MatchKind != library.KindRefund {
			takenR[li.l.ReceiptID] = true
		}
	}
	var pairs []pair
	for i, li := range ls {
		l := li.l
		switch {
		case l.Decided() || notNeeded(li, memory):
		case l.Amount.IsNegative():
			pairs = append(pairs, paymentCandidates(i, li, rs, byAmount, foreign, rates, memory, rejected, takenR, rules)...)
		case l.Amount.IsPositive():
			pairs = append(pairs, creditCandidates(i, li, rs, byAmount, memory, rejected, rules)...)
		}
	}
	result, lineDone, receiptDone := assign(pairs, ls, rs)
	splits(ls, rs, lineDone, receiptDone, takenR, rejected, memory, rules, result)
	return answer(ls, result, memory)
}

// notNeeded says the bookkeeper said lines like this one need no receipt.
func notNeeded(li lineInfo, memory map[string]string) bool {
	k, ok := memory[li.key]
	return ok && k == "" && li.key != "" && li.l.Amount.IsNegative()
}

// indexReceipts readies the receipts for matching: their supplier words,
// by amount, and by currency in date order (for conversions).
func indexReceipts(receipts []library.MatchReceipt) ([]receiptInfo, map[string][]int, map[string][]int) {
	rs := make([]receiptInfo, len(receipts))
	byAmount := map[string][]int{}
	foreign := map[string][]int{}
	for i, r := range receipts {
		// A "tax invoice" is most often a shop's receipt: only an invoice
		// proper gets the long payment window.
		rs[i] = receiptInfo{
			r: r, words: supplierWords(r.Supplier), invoice: r.DocType == string(receipt.DocInvoice),
			credit: r.Total.IsNegative() || r.DocType == string(receipt.DocCreditNote),
		}
		k := amountKey(r.Currency, r.Total)
		byAmount[k] = append(byAmount[k], i)
		if r.Currency != "" {
			foreign[r.Currency] = append(foreign[r.Currency], i)
		}
	}
	for _, list := range foreign {
		sort.Slice(list, func(a, b int) bool { return receipts[list[a]].Date.Before(receipts[list[b]].Date) })
	}
	return rs, byAmount, foreign
}

// assign gives each line its best pair, best first, one receipt to one
// payment: a pair is sure only when nothing else fits nearly as well.
func assign(pairs []pair, ls []lineInfo, rs []receiptInfo) (map[int]library.LineMatch, map[int]bool, map[int]bool) {
	sort.SliceStable(pairs, func(a, b int) bool {
		if pairs[a].score != pairs[b].score {
			return pairs[a].score > pairs[b].score
		}
		if da, db := abs1(pairs[a].days), abs1(pairs[b].days); da != db {
			return da < db
		}
		return rs[pairs[a].ri].r.ID < rs[pairs[b].ri].r.ID
	})
	byLine := map[int][]int{}
	byReceipt := map[int][]int{}
	for k, p := range pairs {
		byLine[p.li] = append(byLine[p.li], k)
		if !p.refund {
			byReceipt[p.ri] = append(byReceipt[p.ri], k)
		}
	}
	lineDone := map[int]bool{}
	receiptDone := map[int]bool{}
	result := map[int]library.LineMatch{}
	for k, p := range pairs {
		if lineDone[p.li] || (!p.refund && receiptDone[p.ri]) {
			continue
		}
		lineDone[p.li] = true
		if !p.refund {
			receiptDone[p.ri] = true
		}
		m := library.LineMatch{LineID: ls[p.li].l.ID, ReceiptID: rs[p.ri].r.ID, Kind: library.KindPayment}
		if p.refund {
			m.Kind = library.KindRefund
		}
		rival := ""
		for _, q := range append(append([]int(nil), byLine[p.li]...), byReceipt[p.ri]...) {
			o := pairs[q]
			if q == k || o.amount < 0.95 || o.name < 0.3 || o.score < p.score-0.1 {
				continue
			}
			if o.li == p.li {
				rival = fmt.Sprintf("another receipt fits too (%s, %s)", rs[o.ri].r.Supplier, rs[o.ri].r.Date.Format("2 Jan"))
			} else {
				rival = fmt.Sprintf("another statement line fits this receipt too (%s, %s)", ls[o.li].l.Date.Format("2 Jan"), ls[o.li].l.Description)
			}
			break
		}
		why := append([]string(nil), p.why...)
		if p.sure && rival == "" {
			m.State = library.MatchAutomatic
		} else {
			m.State = library.MatchProposed
			if rival != "" {
				why = append(why, rival)
			}
		}
		m.Reason = strings.Join(why, "; ")
		result[p.li] = m
	}
	return result, lineDone, receiptDone
}

// answer turns the run's result into the changes to store, and counts.
func answer(ls []lineInfo, result map[int]library.LineMatch, memory map[string]string) ([]library.LineMatch, Outcome) {
	var out Outcome
	var changes []library.LineMatch
	for i, li := range ls {
		out.Lines++
		switch li.l.MatchState {
		case library.MatchConfirmed:
			out.Confirmed++
			continue
		case library.MatchNotNeeded:
			out.NotNeeded++
			continue
		}
		m, ok := result[i]
		if !ok && notNeeded(li, memory) {
			m, ok = library.LineMatch{LineID: li.l.ID, State: library.MatchNotNeeded, Reason: "you said lines like this need no receipt"}, true
		}
		switch {
		case !ok:
			m = library.LineMatch{LineID: li.l.ID}
			if li.l.Amount.IsNegative() {
				out.Missing++
			} else {
				out.MoneyIn++
			}
		case m.State == library.MatchNotNeeded:
			out.NotNeeded++
		case m.State == library.MatchAutomatic:
			out.Sure++
		default:
			out.Proposed++
		}
		if m.ReceiptID != li.l.ReceiptID || m.State != li.l.MatchState || m.Kind != li.l.MatchKind || m.Reason != li.l.MatchReason {
			changes = append(changes, m)
		}
	}
	return changes, out
}

func abs1(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// nameScore is how well a line names a receipt's supplier; memo says the
// bookkeeper confirmed this description for this supplier before.
func nameScore(li lineInfo, ri receiptInfo, memory map[string]string) (float64, bool) {
	if k, ok := memory[li.key]; ok && li.key != "" && k == ri.r.SupplierKey && k != "" {
		return 1, true
	}
	return similarity(li.words, ri.words), false
}

func dateScore(d int, invoice bool, rules Rules) (float64, bool) {
	switch {
	case d >= 0 && d <= rules.SettleDays:
		return 1 - 0.03*float64(d), true
	case invoice && d >= 0 && d <= rules.InvoiceDays:
		return 0.9 - 0.005*float64(d), true
	case d < 0 && d >= -rules.EarlyDays:
		return 0.6, false
	case d > rules.SettleDays && d <= rules.WindowDays:
		return 0.5 - 0.02*float64(d-rules.SettleDays), false
	}
	return 0, false
}

func describeDays(d int) string {
	switch {
	case d == 0:
		return "paid on the receipt's date"
	case d == 1:
		return "paid 1 day after the receipt"
	case d > 1:
		return fmt.Sprintf("paid %d days after the receipt", d)
	case d == -1:
		return "paid 1 day before the receipt's date"
	}
	return fmt.Sprintf("paid %d days before the receipt's date", -d)
}

func namePhrase(name float64, memo bool, supplier string) string {
	switch {
	case memo:
		return "you matched this description to " + supplier + " before"
	case name >= 0.6:
		return "the description names " + supplier
	case name >= 0.3:
		return "the description partly names " + supplier
	}
	return "the description does not name " + supplier
}

func paymentCandidates(i int, li lineInfo, rs []receiptInfo, byAmount map[string][]int, foreign map[string][]int, rates map[string]decimal.Decimal,
	memory map[string]string, rejected map[[2]int64]bool, taken map[int64]bool, rules Rules,
) []pair {
	l := li.l
	var out []pair
	consider := func(ri int, amountScore float64, amountWhy string, estimated bool) {
		r := rs[ri]
		if taken[r.r.ID] || rejected[[2]int64{l.ID, r.r.ID}] || r.credit {
			return
		}
		d := days(l.Date, r.r.Date)
		limit := rules.WindowDays
		if r.invoice {
			limit = rules.InvoiceDays
		}
		if d < -rules.EarlyDays || d > limit {
			return
		}
		ds, dateOK := dateScore(d, r.invoice, rules)
		ns, memo := nameScore(li, r, memory)
		if estimated && ns < 0.3 {
			return
		}
		p := pair{li: i, ri: ri, name: ns, date: ds, amount: amountScore, days: d, nameFromMemo: memo}
		p.score = 0.5*ns + 0.3*ds + 0.2*amountScore
		p.sure = amountScore >= 0.95 && ns >= rules.SureName && dateOK
		p.why = []string{amountWhy, describeDays(d), namePhrase(ns, memo, r.r.Supplier)}
		out = append(out, p)
	}
	for _, ri := range byAmount[amountKey(l.Currency, l.Amount)] {
		consider(ri, 1, "same amount", false)
	}
	if l.Currency != "" {
		for _, ri := range byAmount[amountKey("", l.Amount)] {
			consider(ri, 1, "same amount", false)
		}
	}
	if l.OrigCurrency != "" {
		rate := l.Amount.Abs().Div(l.OrigAmount)
		why := fmt.Sprintf("paid %s %s, charged %s %s (%s %s per %s)", l.OrigCurrency, l.OrigAmount.StringFixed(2), l.Currency,
			l.Amount.Abs().StringFixed(2), rate.StringFixed(4), l.Currency, l.OrigCurrency)
		for _, ri := range byAmount[amountKey(l.OrigCurrency, l.OrigAmount)] {
			consider(ri, 0.95, why, false)
		}
		return out
	}
	if len(out) > 0 {
		return out
	}
	// A foreign receipt paid without the foreign amount on the statement:
	// the rate it implies must be near the rate other lines show.
	for cur, list := range foreign {
		if cur == l.Currency {
			continue
		}
		lo := sort.Search(len(list), func(k int) bool { return !rs[list[k]].r.Date.Before(l.Date.AddDate(0, 0, -rules.WindowDays)) })
		for k := lo; k < len(list); k++ {
			r := rs[list[k]]
			if r.r.Date.After(l.Date.AddDate(0, 0, rules.EarlyDays)) {
				break
			}
			if r.r.Total.IsZero() || r.credit {
				continue
			}
			implied := l.Amount.Abs().Div(r.r.Total)
			ref, ok := rates[cur+">"+l.Currency]
			if !ok {
				consider(list[k], 0.4, fmt.Sprintf("%s %s would be %s %s per %s; no other line shows this rate to check it",
					cur, r.r.Total.StringFixed(2), implied.StringFixed(4), l.Currency, cur), true)
				continue
			}
			dev, _ := implied.Div(ref).Sub(decimal.NewFromInt(1)).Abs().Float64()
			if dev > rules.FXTolerance {
				continue
			}
			consider(list[k], 0.7-5*dev, fmt.Sprintf("%s %s at %s %s per %s; other lines show %s (%.1f%% apart)", cur,
				r.r.Total.StringFixed(2), implied.StringFixed(4), l.Currency, cur, ref.StringFixed(4), dev*100), true)
		}
	}
	return out
}

// creditCandidates: money in is a credit note's refund (a receipt with a
// negative total), or money back for a purchase from the same supplier.
func creditCandidates(i int, li lineInfo, rs []receiptInfo, byAmount map[string][]int, memory map[string]string,
	rejected map[[2]int64]bool, rules Rules,
) []pair {
	l := li.l
	var out []pair
	keys := []string{amountKey(l.Currency, l.Amount), amountKey("", l.Amount)}
	if l.OrigCurrency != "" {
		keys = append(keys, amountKey(l.OrigCurrency, l.OrigAmount))
	}
	refundText := isRefundText(l.Description)
	for _, k := range keys {
		for _, ri := range byAmount[k] {
			r := rs[ri]
			if rejected[[2]int64{l.ID, r.r.ID}] {
				continue
			}
			d := days(l.Date, r.r.Date)
			ns, memo := nameScore(li, r, memory)
			if r.credit {
				if d < -rules.EarlyDays || d > rules.WindowDays {
					continue
				}
				ds, dateOK := dateScore(d, false, rules)
				p := pair{li: i, ri: ri, name: ns, date: ds, amount: 1, days: d, nameFromMemo: memo}
				p.score = 0.5*ns + 0.3*ds + 0.2
				p.sure = ns >= rules.SureName && dateOK
				p.why = []string{"money back of the credit note's amount", describeDays(d), namePhrase(ns, memo, r.r.Supplier)}
				out = append(out, p)
				continue
			}
			if d < 0 || d > rules.RefundDays || (ns < 0.5 && !memo) {
				continue
			}
			p := pair{li: i, ri: ri, name: ns, amount: 0.9, days: d, refund: true, nameFromMemo: memo}
			p.score = 0.5*ns + 0.2*0.9
			if refundText {
				p.score += 0.1
			}
			p.why = []string{fmt.Sprintf("money back of the same amount, %d days after the purchase", d), namePhrase(ns, memo, r.r.Supplier)}
			out = append(out, p)
		}
	}
	return out
}

// splits proposes two payments that together paid a receipt no single
// line did: both name the supplier, both fall in the window, and they add
// up to its total exactly.
func splits(ls []lineInfo, rs []receiptInfo, lineDone, receiptDone map[int]bool, taken map[int64]bool,
	rejected map[[2]int64]bool, memory map[string]string, rules Rules, result map[int]library.LineMatch,
) {
	var free []int
	for i, li := range ls {
		if !lineDone[i] && !li.l.Decided() && li.l.Amount.IsNegative() && len(li.words) > 0 {
			free = append(free, i)
		}
	}
	sort.Slice(free, func(a, b int) bool { return ls[free[a]].l.Date.Before(ls[free[b]].l.Date) })
	for ri, r := range rs {
		if receiptDone[ri] || taken[r.r.ID] || r.credit || !r.r.Total.IsPositive() || len(r.words) == 0 {
			continue
		}
		from := r.r.Date.AddDate(0, 0, -rules.EarlyDays)
		to := r.r.Date.AddDate(0, 0, rules.WindowDays)
		lo := sort.Search(len(free), func(k int) bool { return !ls[free[k]].l.Date.Before(from) })
		var near []int
		for k := lo; k < len(free) && !ls[free[k]].l.Date.After(to); k++ {
			li := ls[free[k]]
			if lineDone[free[k]] || li.l.Amount.Abs().GreaterThanOrEqual(r.r.Total) || (li.l.Currency != r.r.Currency && r.r.Currency != "") ||
				rejected[[2]int64{li.l.ID, r.r.ID}] {
				continue
			}
			if ns, _ := nameScore(li, r, memory); ns >= 0.5 {
				near = append(near, free[k])
			}
		}
		found := false
		for a := 0; a < len(near) && !found; a++ {
			for b := a + 1; b < len(near) && !found; b++ {
				la, lb := ls[near[a]].l, ls[near[b]].l
				if !la.Amount.Add(lb.Amount).Abs().Equal(r.r.Total) {
					continue
				}
				reason := fmt.Sprintf("two payments of %s and %s add up to the receipt's total %s; the descriptions name %s",
					la.Amount.Abs().StringFixed(2), lb.Amount.Abs().StringFixed(2), r.r.Total.StringFixed(2), r.r.Supplier)
				for _, x := range []int{near[a], near[b]} {
					lineDone[x] = true
					result[x] = library.LineMatch{LineID: ls[x].l.ID, ReceiptID: r.r.ID, State: library.MatchProposed, Kind: library.KindSplit, Reason: reason}
				}
				receiptDone[ri] = true
				found = true
			}
		}
	}
}

// referenceRates are, per pair of currencies ("USD>MYR"), the median rate
// of the lines that state their foreign amount.
func referenceRates(lines []library.StatementLine) map[string]decimal.Decimal {
	by := map[string][]decimal.Decimal{}
	for _, l := range lines {
		if l.OrigCurrency != "" && !l.OrigAmount.IsZero() && l.Currency != "" {
			k := l.OrigCurrency + ">" + l.Currency
			by[k] = append(by[k], l.Amount.Abs().Div(l.OrigAmount))
		}
	}
	out := map[string]decimal.Decimal{}
	for k, v := range by {
		sort.Slice(v, func(a, b int) bool { return v[a].LessThan(v[b]) })
		out[k] = v[len(v)/2]
	}
	return out
}
