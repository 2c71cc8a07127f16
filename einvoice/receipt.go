package einvoice

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// countryOf maps a seller's ISO country to the tax register its ID belongs to.
func countryOf(iso string) receipt.Country {
	switch iso {
	case "AU":
		return receipt.CountryAU
	case "NZ":
		return receipt.CountryNZ
	case "GB":
		return receipt.CountryUK
	case "US":
		return receipt.CountryUS
	case "MY":
		return receipt.CountryMY
	}
	return receipt.CountryEU
}

// Receipt maps the invoice onto Shoebox's receipt: every field it states,
// from the e-invoice at full confidence. A credit note's amounts become
// negative, so sums and the tax summary subtract it.
func (inv *Invoice) Receipt() receipt.Receipt {
	const why = "stated in the e-invoice"
	text := func(s string) receipt.Text {
		s = strings.Join(strings.Fields(s), " ")
		if s == "" {
			return receipt.Text{}
		}
		f := receipt.Of(s, receipt.SourceEInvoice, 1)
		f.Why = why
		return f
	}
	date := func(t time.Time) receipt.Field[time.Time] {
		if t.IsZero() {
			return receipt.Field[time.Time]{}
		}
		f := receipt.Of(t, receipt.SourceEInvoice, 1)
		f.Why = why
		return f
	}
	sign := decimal.NewFromInt(1)
	if inv.CreditNote && !(inv.GrandTotal.Set && inv.GrandTotal.Value.IsNegative()) {
		sign = decimal.NewFromInt(-1)
	}
	amount := func(a Amount, signed bool) receipt.Amount {
		if !a.Set {
			return receipt.Amount{}
		}
		v := a.Value
		if signed {
			v = v.Mul(sign)
		}
		f := receipt.Of(v, receipt.SourceEInvoice, 1)
		f.Why = why
		return f
	}

	var r receipt.Receipt
	dt := receipt.DocInvoice
	if inv.CreditNote {
		dt = receipt.DocCreditNote
	}
	r.DocType = receipt.Of(dt, receipt.SourceEInvoice, 1)
	r.DocType.Why = "document type " + inv.TypeCode + " in the e-invoice"
	r.SupplierName = text(inv.Seller.Name)
	if id := firstNonEmpty(inv.Seller.VATID, inv.Seller.TaxNumber); id != "" {
		tid := receipt.DetectTaxID(id, countryOf(inv.Seller.Country))
		if tid.Value == "" {
			tid = receipt.TaxID{Scheme: receipt.SchemeOther, Value: receipt.NormalizeTaxID(id)}
		}
		r.SupplierTaxID = receipt.Of(tid, receipt.SourceEInvoice, 1)
		r.SupplierTaxID.Why = why
	}
	r.SupplierAddress = text(inv.Seller.Address)
	r.PayerName = text(inv.Buyer.Name)
	r.PayerAddress = text(inv.Buyer.Address)
	r.DocumentNumber = text(inv.Number)
	r.Date = date(inv.IssueDate)
	r.DueDate = date(inv.DueDate)
	r.DeliveryDate = date(inv.Delivery)
	r.Currency = text(inv.Currency)
	r.PaymentTerms = text(inv.Terms)
	r.IBAN = text(inv.IBAN)

	for _, l := range inv.Lines {
		li := receipt.LineItem{
			Description: text(l.Name),
			Quantity:    amount(l.Quantity, true),
			UnitPrice:   amount(l.UnitPrice, false),
			LineTotal:   amount(l.Net, true),
			TaxCode:     text(taxCode(l.Category, l.Rate)),
		}
		r.LineItems = append(r.LineItems, li)
	}
	for _, t := range inv.Taxes {
		r.TaxLines = append(r.TaxLines, receipt.TaxLine{
			Label: text(taxCode(t.Category, Amount{})),
			Rate:  amount(t.Rate, false),
			Net:   amount(t.Basis, true),
			Tax:   amount(t.Amount, true),
		})
	}
	// Subtotal is the lines' sum; document allowances less charges are the
	// discount, so subtotal − discount + tax = total holds as EN 16931 sums it.
	if inv.LineTotal.Set {
		r.Subtotal = amount(inv.LineTotal, true)
		if inv.Allowances.Set || inv.Charges.Set {
			d := inv.Allowances.Value.Sub(inv.Charges.Value)
			if !d.IsZero() {
				r.Discount = amount(Amount{Value: d, Set: true}, true)
			}
		}
	} else {
		r.Subtotal = amount(inv.TaxBasis, true)
	}
	r.TotalTax = amount(inv.TaxTotal, true)
	if r.TotalTax.Set || r.Subtotal.Set {
		r.TaxInclusive = receipt.Of(false, receipt.SourceEInvoice, 1)
	}
	r.Total = amount(inv.GrandTotal, true)
	switch {
	case inv.Prepaid.Set && !inv.Prepaid.Value.IsZero():
		r.AmountPaid = amount(inv.Prepaid, true)
	case !inv.Prepaid.Set && inv.Minimum() && inv.GrandTotal.Set && inv.Due.Set && !inv.GrandTotal.Value.Equal(inv.Due.Value):
		r.AmountPaid = amount(Amount{Value: inv.GrandTotal.Value.Sub(inv.Due.Value), Set: true}, true)
		r.AmountPaid.Why = "the total less the amount due: the minimum profile states no prepayment"
	}
	if inv.Due.Set {
		due := inv.Due
		// The amount due includes the payable rounding (BT-114), which the
		// receipt has no place for; keep due = total − paid exact.
		if inv.Rounding.Set {
			due.Value = due.Value.Sub(inv.Rounding.Value)
		}
		r.AmountDue = amount(due, true)
	}
	r.PaymentMethod = text(paymentMethod(inv))
	// The XML states total and date exactly: enough for "ready to
	// confirm" on its own, when its own arithmetic holds (the findings).
	exact := []receipt.Support{{Kind: receipt.EvidenceExact, Why: "stated in the e-invoice's structured data"}}
	if r.Total.Set {
		r.Total.Support = exact
	}
	if r.Date.Set {
		r.Date.Support = exact
	}
	return r
}

func paymentMethod(inv *Invoice) string {
	if inv.IBAN != "" {
		return "bank transfer"
	}
	return ""
}

// taxCode names a VAT category as a bookkeeper reads it.
func taxCode(cat string, rate Amount) string {
	names := map[string]string{
		"S": "VAT", "Z": "VAT zero-rated", "E": "VAT exempt", "AE": "VAT reverse charge",
		"K": "VAT intra-EU supply", "G": "VAT export", "O": "not subject to VAT", "L": "IGIC", "M": "IPSI",
	}
	s := names[cat]
	if s == "" {
		s = cat
	}
	if rate.Set {
		s = joinNonEmpty(" ", s, rate.Value.String()+"%")
	}
	return s
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
