package fields

// An invoice's own evidence for its total: its totals block's arithmetic,
// and the labelled issue date that other dates beside it do not doubt.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// addInvoiceArithmetic records that the totals block adds up: net and tax
// make the gross, gross less paid the due.
func addInvoiceArithmetic(r *receipt.Receipt) {
	if !r.Total.Set {
		return
	}
	money := func(d decimal.Decimal) string { return d.StringFixed(2) }
	for _, why := range invoiceSums(r, money) {
		r.Total.Support = append(r.Total.Support, receipt.Support{Kind: receipt.EvidenceArithmetic, Why: why})
	}
}

// invoiceDateLabelled says an invoice's date was read beside its own label
// (or the number it is given with), not picked among the page's dates.
func invoiceDateLabelled(why string) bool {
	return why == "the labelled invoice date" || why == "the date the invoice number is given with" || why == whyDateline
}

func isInvoiceDoc(r *receipt.Receipt) bool {
	return r.DocType.Set && (r.DocType.Value == receipt.DocInvoice || r.DocType.Value == receipt.DocCreditNote)
}

// invoiceSums says which of an invoice's sums hold: net (its lines less
// the allowance) + tax = gross, and gross less what was paid = the amount
// due (a credit note's all negative). A tax of zero counts where it was
// read on its own line ("Steuerbetrag 0,00"), not where the net is the
// gross itself.
func invoiceSums(r *receipt.Receipt, money func(decimal.Decimal) string) []string {
	var out []string
	v := r.Total.Value
	if netTaxHold(r) {
		net := r.Subtotal.Value
		if r.Discount.Set && !net.Add(r.TotalTax.Value).Equal(v) {
			out = append(out, fmt.Sprintf("net %s less %s + tax %s = %s", money(net), money(r.Discount.Value), money(r.TotalTax.Value), money(v)))
		} else {
			out = append(out, fmt.Sprintf("net %s + tax %s = %s", money(net), money(r.TotalTax.Value), money(v)))
		}
	}
	if r.AmountPaid.Set && r.AmountDue.Set && v.Abs().Sub(r.AmountPaid.Value.Abs()).Equal(r.AmountDue.Value.Abs()) {
		out = append(out, fmt.Sprintf("total %s less %s paid leaves the %s due", money(v), money(r.AmountPaid.Value.Abs()), money(r.AmountDue.Value)))
	}
	return out
}

// assessInvoiceTotal adds an invoice's own evidence for its total: a credit
// note's amount as printed without its minus, the totals block's sums; and
// its doubt, a net and tax that make another gross or were not read.
func assessInvoiceTotal(r *receipt.Receipt, lines []Line, at int, money func(decimal.Decimal) string, support func(receipt.Evidence, string), doubt func(string)) {
	v := r.Total.Value
	if at < 0 && v.IsNegative() {
		for _, l := range lines {
			if hasAmount(l.Text, v.Abs()) || hasAmount(l.Text, v) {
				support(receipt.EvidenceReading, "the amount on the line "+strconv.Quote(strings.TrimSpace(l.Text))+", a credit note's")
				break
			}
		}
	}
	for _, why := range invoiceSums(r, money) {
		support(receipt.EvidenceArithmetic, why)
	}
	// A subtotal that makes the total with the tip alone included the tax
	// (a restaurant's "Zwischensumme 177.40" over its MWST table's gross).
	if r.Subtotal.Set && r.TotalTax.Set && !r.TotalTax.Value.IsZero() && !r.Subtotal.Value.Equal(v) && !r.Subtotal.Value.Add(r.Tip.Value).Equal(v) {
		if sum := r.Subtotal.Value.Add(r.TotalTax.Value).Add(r.Tip.Value); !sum.Equal(v) && !r.Discount.Set && !r.Rounding.Set {
			doubt(fmt.Sprintf("net %s + tax %s = %s", money(r.Subtotal.Value), money(r.TotalTax.Value), money(sum)))
		}
	}
	// A PDF invoice is ready only when its own sums hold: a total that the
	// net and tax do not confirm is checked by a person. (A scanned page
	// keeps the receipt's evidence: SROIE's till receipts headed "TAX
	// INVOICE" with a customer's block would lose it.)
	if (!r.Subtotal.Set || !r.TotalTax.Set) && fromTextLayer(lines) {
		doubt("the invoice's net and tax were not both read, so they do not confirm it")
	}
}

// netTaxHold says an invoice's net, less its allowance where the net is
// its lines' sum, and its tax make its total, each read where the page
// prints it.
func netTaxHold(r *receipt.Receipt) bool {
	if !r.Subtotal.Set || !r.TotalTax.Set || !r.Total.Set || r.Total.Why == whyNetAndTaxLines {
		return false // a total made of them proves nothing of them
	}
	if r.TotalTax.Value.IsZero() && (r.Subtotal.Why == r.Total.Why || r.TotalTax.Why == "") {
		return false
	}
	sum := r.Subtotal.Value.Add(r.TotalTax.Value)
	return sum.Equal(r.Total.Value) || r.Discount.Set && sum.Sub(r.Discount.Value).Equal(r.Total.Value)
}
