package einvoice

import "github.com/shopspring/decimal"

var one = decimal.NewFromInt(1)

// OASIS UBL 2.1 Invoice and CreditNote: XRechnung UBL, Peppol BIS Billing
// 3.0 and PINT A-NZ.
func fromUBL(root *node) *Invoice {
	inv := &Invoice{Syntax: "UBL " + root.name, CreditNote: root.name == "CreditNote"}
	inv.Profile = root.str("CustomizationID")
	inv.Number = root.str("ID")
	inv.TypeCode = root.str("InvoiceTypeCode|CreditNoteTypeCode")
	if creditNoteCodes[inv.TypeCode] {
		inv.CreditNote = true
	}
	inv.IssueDate = parseDate(root.str("IssueDate"))
	inv.DueDate = parseDate(root.str("DueDate"))
	if inv.DueDate.IsZero() {
		inv.DueDate = parseDate(root.str("PaymentMeans/PaymentDueDate"))
	}
	inv.Currency = root.str("DocumentCurrencyCode")
	inv.Seller = ublParty(root.first("AccountingSupplierParty/Party"))
	inv.Buyer = ublParty(root.first("AccountingCustomerParty/Party"))
	inv.Delivery = parseDate(root.str("Delivery/ActualDeliveryDate"))
	for _, pt := range root.all("PaymentTerms/Note") {
		inv.Terms = joinNonEmpty("; ", inv.Terms, pt.text)
	}
	for _, pm := range root.all("PaymentMeans") {
		if id := pm.str("PayeeFinancialAccount/ID"); id != "" {
			inv.IBAN = id
			break
		}
	}
	// A second TaxTotal may state the tax in the accounting currency only.
	for i, tt := range root.all("TaxTotal") {
		amt := tt.first("TaxAmount")
		if i > 0 && amt.attr("currencyID") != inv.Currency {
			continue
		}
		if inv.TaxTotal.Set && amt.attr("currencyID") != inv.Currency {
			continue
		}
		inv.TaxTotal = parseAmount(amt.text)
		inv.Taxes = nil
		for _, st := range tt.all("TaxSubtotal") {
			inv.Taxes = append(inv.Taxes, Tax{
				Category: st.str("TaxCategory/ID"), Rate: parseAmount(st.str("TaxCategory/Percent")),
				Basis: parseAmount(st.str("TaxableAmount")), Amount: parseAmount(st.str("TaxAmount")),
			})
		}
		if amt.attr("currencyID") == inv.Currency {
			break
		}
	}
	m := root.first("LegalMonetaryTotal")
	inv.LineTotal = parseAmount(m.str("LineExtensionAmount"))
	inv.TaxBasis = parseAmount(m.str("TaxExclusiveAmount"))
	inv.GrandTotal = parseAmount(m.str("TaxInclusiveAmount"))
	inv.Allowances = parseAmount(m.str("AllowanceTotalAmount"))
	inv.Charges = parseAmount(m.str("ChargeTotalAmount"))
	inv.Prepaid = parseAmount(m.str("PrepaidAmount"))
	inv.Rounding = parseAmount(m.str("PayableRoundingAmount"))
	inv.Due = parseAmount(m.str("PayableAmount"))
	for _, li := range root.all("InvoiceLine|CreditNoteLine") {
		l := Line{
			Name:     li.str("Item/Name"),
			Quantity: parseAmount(li.str("InvoicedQuantity|CreditedQuantity")),
			Net:      parseAmount(li.str("LineExtensionAmount")),
			Category: li.str("Item/ClassifiedTaxCategory/ID"),
			Rate:     parseAmount(li.str("Item/ClassifiedTaxCategory/Percent")),
		}
		l.UnitPrice = perUnit(parseAmount(li.str("Price/PriceAmount")), parseAmount(li.str("Price/BaseQuantity")))
		inv.Lines = append(inv.Lines, l)
	}
	return inv
}

func ublParty(p *node) Party {
	if p == nil {
		return Party{}
	}
	out := Party{Name: p.str("PartyLegalEntity/RegistrationName")}
	if out.Name == "" {
		out.Name = p.str("PartyName/Name")
	}
	for _, ts := range p.all("PartyTaxScheme") {
		id := ts.str("CompanyID")
		switch {
		case ts.str("TaxScheme/ID") == "VAT" || ts.str("TaxScheme/ID") == "GST":
			if out.VATID == "" {
				out.VATID = id
			}
		case out.TaxNumber == "":
			out.TaxNumber = id
		}
	}
	// PINT A-NZ gives the ABN as the legal entity's identifier (scheme 0151).
	if le := p.first("PartyLegalEntity/CompanyID"); le != nil && out.VATID == "" && le.attr("schemeID") == "0151" {
		out.VATID = le.text
	}
	a := p.first("PostalAddress")
	out.Country = a.str("Country/IdentificationCode")
	out.Address = joinNonEmpty(", ", a.str("StreetName"), a.str("AdditionalStreetName"), a.str("AddressLine/Line"),
		joinNonEmpty(" ", a.str("PostalZone"), a.str("CityName")), out.Country)
	return out
}
