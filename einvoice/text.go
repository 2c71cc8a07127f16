package einvoice

import (
	"fmt"
	"strings"
)

// Text renders the invoice as plain lines a person can read beside the
// fields: the review's page for a bare XML file.
func (inv *Invoice) Text() []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	kind := "INVOICE"
	if inv.CreditNote {
		kind = "CREDIT NOTE"
	}
	add("%s %s", kind, inv.Number)
	add("e-invoice: %s, document type %s", inv.Syntax, inv.TypeCode)
	if inv.Profile != "" {
		add("profile: %s", inv.Profile)
	}
	add("")
	dates := "No issue date"
	if !inv.IssueDate.IsZero() {
		dates = "Issued " + day(inv.IssueDate)
	}
	if !inv.DueDate.IsZero() {
		dates += "   Due " + day(inv.DueDate)
	}
	if !inv.Delivery.IsZero() {
		dates += "   Delivered " + day(inv.Delivery)
	}
	add("%s", dates)
	add("")
	party := func(role string, p Party) {
		add("%s: %s", role, oneLine(p.Name))
		if p.Address != "" {
			add("   %s", oneLine(p.Address))
		}
		if p.VATID != "" {
			add("   VAT ID %s", p.VATID)
		}
		if p.TaxNumber != "" {
			add("   Tax number %s", p.TaxNumber)
		}
	}
	party("Seller", inv.Seller)
	party("Buyer", inv.Buyer)
	add("")
	if len(inv.Lines) > 0 {
		add("Lines (%s):", inv.Currency)
		for i, l := range inv.Lines {
			add("%3d. %-40.40s %8s x %10s = %12s  %s", i+1, oneLine(l.Name), l.Quantity.Value.String(), l.UnitPrice, l.Net, taxCode(l.Category, l.Rate))
		}
		add("")
	}
	for _, t := range inv.Taxes {
		add("Tax %-22s on %12s = %12s", taxCode(t.Category, t.Rate), t.Basis, t.Amount)
	}
	sum := func(label string, a Amount) {
		if a.Set {
			add("%-28s %12s %s", label, a, inv.Currency)
		}
	}
	sum("Sum of lines", inv.LineTotal)
	sum("Allowances", inv.Allowances)
	sum("Charges", inv.Charges)
	sum("Total without tax", inv.TaxBasis)
	sum("Tax", inv.TaxTotal)
	sum("Total with tax", inv.GrandTotal)
	sum("Paid in advance", inv.Prepaid)
	sum("Rounding", inv.Rounding)
	sum("Amount due", inv.Due)
	if inv.Terms != "" || inv.IBAN != "" {
		add("")
	}
	if inv.Terms != "" {
		add("Payment terms: %s", oneLine(inv.Terms))
	}
	if inv.IBAN != "" {
		add("Pay to IBAN %s", inv.IBAN)
	}
	return out
}

func day(t interface{ Format(string) string }) string { return t.Format("2006-01-02") }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
