package einvoice

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// FindRule is the finding code of an EN 16931 rule the invoice breaks;
// the message names the rule ("BR-CO-15").
const FindRule = "einvoice_rule"

var cent = decimal.New(1, -2)

// Check tests the invoice's own arithmetic and required fields against the
// EN 16931 business rules it can check without a schema, and returns a
// finding for each rule that fails. An empty result means the totals
// reconcile: lines → net, tax per rate → tax total, net + tax → total,
// total − prepaid + rounding → amount due.
func (inv *Invoice) Check() []receipt.Finding {
	var out []receipt.Finding
	fail := func(rule, msg string, fields ...string) {
		out = append(out, receipt.Finding{Code: FindRule, Severity: receipt.Warning, Fields: fields, Message: rule + ": " + msg})
	}
	near := func(a, b decimal.Decimal, n int) bool {
		return a.Sub(b).Abs().LessThanOrEqual(cent.Mul(decimal.NewFromInt(int64(n))))
	}
	money := func(d decimal.Decimal) string { return d.StringFixed(2) }

	if inv.Number == "" {
		fail("BR-02", "the invoice has no number", "document_number")
	}
	if inv.IssueDate.IsZero() {
		fail("BR-03", "the invoice has no issue date", "date")
	}
	if inv.Seller.Name == "" {
		fail("BR-06", "the invoice names no seller", "supplier_name")
	}
	if inv.Currency == "" {
		fail("BR-05", "the invoice states no currency", "currency")
	}
	if !inv.GrandTotal.Set {
		fail("BR-14", "the invoice states no total with VAT", "total")
	}

	if len(inv.Lines) > 0 && inv.LineTotal.Set {
		sum, complete := decimal.Zero, true
		for _, l := range inv.Lines {
			sum = sum.Add(l.Net.Value)
			complete = complete && l.Net.Set
		}
		if complete && !near(sum, inv.LineTotal.Value, 0) {
			fail("BR-CO-10", fmt.Sprintf("the lines add up to %s but the sum of lines is stated as %s", money(sum), money(inv.LineTotal.Value)), "line_items", "subtotal")
		}
	}
	if inv.LineTotal.Set && inv.TaxBasis.Set {
		want := inv.LineTotal.Value.Sub(inv.Allowances.Value).Add(inv.Charges.Value)
		if !near(want, inv.TaxBasis.Value, 0) {
			fail("BR-CO-13", fmt.Sprintf("lines %s less allowances %s plus charges %s is %s, not the stated net total %s",
				money(inv.LineTotal.Value), money(inv.Allowances.Value), money(inv.Charges.Value), money(want), money(inv.TaxBasis.Value)), "subtotal", "discount")
		}
	}
	if len(inv.Taxes) > 0 && inv.TaxTotal.Set {
		sum := decimal.Zero
		for _, t := range inv.Taxes {
			sum = sum.Add(t.Amount.Value)
		}
		if !near(sum, inv.TaxTotal.Value, 0) {
			fail("BR-CO-14", fmt.Sprintf("the tax per rate adds up to %s but the tax total is %s", money(sum), money(inv.TaxTotal.Value)), "tax_lines", "total_tax")
		}
	}
	for i, t := range inv.Taxes {
		if t.Rate.Set && t.Basis.Set && t.Amount.Set {
			want := t.Basis.Value.Mul(t.Rate.Value).Div(decimal.NewFromInt(100)).Round(2)
			if !near(want, t.Amount.Value, 1) {
				f := fmt.Sprintf("tax_lines[%d]", i)
				fail("BR-CO-17", fmt.Sprintf("%s%% of %s is %s, not %s", t.Rate.Value, money(t.Basis.Value), money(want), money(t.Amount.Value)), f+".net", f+".tax")
			}
		}
	}
	if inv.TaxBasis.Set && inv.GrandTotal.Set {
		want := inv.TaxBasis.Value.Add(inv.TaxTotal.Value)
		if !near(want, inv.GrandTotal.Value, 0) {
			fail("BR-CO-15", fmt.Sprintf("net %s plus tax %s is %s, not the stated total %s", money(inv.TaxBasis.Value), money(inv.TaxTotal.Value), money(want), money(inv.GrandTotal.Value)), "subtotal", "total_tax", "total")
		}
	}
	// The MINIMUM profile has no prepaid amount, so its amount due may
	// rightly differ from the total.
	if inv.GrandTotal.Set && inv.Due.Set && (inv.Prepaid.Set || !inv.Minimum()) {
		want := inv.GrandTotal.Value.Sub(inv.Prepaid.Value).Add(inv.Rounding.Value)
		if !near(want, inv.Due.Value, 0) {
			fail("BR-CO-16", fmt.Sprintf("total %s less prepaid %s plus rounding %s is %s, not the stated amount due %s",
				money(inv.GrandTotal.Value), money(inv.Prepaid.Value), money(inv.Rounding.Value), money(want), money(inv.Due.Value)), "total", "amount_paid", "amount_due")
		}
	}
	return out
}

// Minimum reports whether the invoice follows the Factur-X / ZUGFeRD
// MINIMUM profile, which carries totals only.
func (inv *Invoice) Minimum() bool {
	return strings.Contains(strings.ToLower(inv.Profile), "minimum")
}

// FindDamaged is the finding for a PDF whose e-invoice cannot be read
// (ErrDamaged): its fields come from the print, which the XML would have
// stated exactly.
const FindDamaged = "einvoice_damaged"

// DamagedFinding is the finding a reading from the print carries when err,
// Read's error for the file, says its e-invoice is damaged.
func DamagedFinding(err error) (receipt.Finding, bool) {
	if !errors.Is(err, ErrDamaged) {
		return receipt.Finding{}, false
	}
	why := strings.TrimPrefix(err.Error(), ErrDamaged.Error()+": ")
	return receipt.Finding{
		Code: FindDamaged, Severity: receipt.Warning,
		Message: "this PDF carries an e-invoice that cannot be read: " + why + "; read from the print instead: check the fields against the document",
	}, true
}
