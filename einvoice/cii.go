package einvoice

import "time"

// UN/CEFACT Cross Industry Invoice: ZUGFeRD 2.x, Factur-X and XRechnung CII
// use the D16B CrossIndustryInvoice; ZUGFeRD 1.0 the older
// CrossIndustryDocument, whose elements differ in name only ("A|B" below).
const (
	ciiTx         = "SupplyChainTradeTransaction|SpecifiedSupplyChainTradeTransaction"
	ciiAgreement  = ciiTx + "/ApplicableHeaderTradeAgreement|ApplicableSupplyChainTradeAgreement"
	ciiDelivery   = ciiTx + "/ApplicableHeaderTradeDelivery|ApplicableSupplyChainTradeDelivery"
	ciiSettlement = ciiTx + "/ApplicableHeaderTradeSettlement|ApplicableSupplyChainTradeSettlement"
	ciiSummation  = ciiSettlement + "/SpecifiedTradeSettlementHeaderMonetarySummation|SpecifiedTradeSettlementMonetarySummation"
	ciiRate       = "RateApplicablePercent|ApplicablePercent"
)

func fromCII(root *node) *Invoice {
	inv := &Invoice{Syntax: "CII"}
	if root.name == "CrossIndustryDocument" {
		inv.Syntax = "CII (ZUGFeRD 1)"
	}
	inv.Profile = root.str("ExchangedDocumentContext|SpecifiedExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID")
	doc := root.first("ExchangedDocument|HeaderExchangedDocument")
	inv.Number = doc.str("ID")
	inv.TypeCode = doc.str("TypeCode")
	inv.CreditNote = creditNoteCodes[inv.TypeCode]
	inv.IssueDate = ciiDate(doc, "IssueDateTime")

	inv.Seller = ciiParty(root.first(ciiAgreement + "/SellerTradeParty"))
	inv.Buyer = ciiParty(root.first(ciiAgreement + "/BuyerTradeParty"))
	inv.Delivery = ciiDate(root, ciiDelivery+"/ActualDeliverySupplyChainEvent/OccurrenceDateTime")

	set := root.first(ciiSettlement)
	inv.Currency = set.str("InvoiceCurrencyCode")
	for _, t := range set.all("ApplicableTradeTax") {
		inv.Taxes = append(inv.Taxes, Tax{
			Category: t.str("CategoryCode"), Rate: parseAmount(t.str(ciiRate)),
			Basis: parseAmount(t.str("BasisAmount")), Amount: parseAmount(t.str("CalculatedAmount")),
		})
	}
	for _, pt := range set.all("SpecifiedTradePaymentTerms") {
		if d := ciiDate(pt, "DueDateDateTime"); !d.IsZero() && inv.DueDate.IsZero() {
			inv.DueDate = d
		}
		if desc := pt.str("Description"); desc != "" {
			inv.Terms = joinNonEmpty("; ", inv.Terms, desc)
		}
	}
	for _, pm := range set.all("SpecifiedTradeSettlementPaymentMeans") {
		if iban := pm.str("PayeePartyCreditorFinancialAccount/IBANID"); iban != "" {
			inv.IBAN = iban
			break
		}
	}

	sum := root.first(ciiSummation)
	inv.LineTotal = parseAmount(sum.str("LineTotalAmount"))
	inv.Charges = parseAmount(sum.str("ChargeTotalAmount"))
	inv.Allowances = parseAmount(sum.str("AllowanceTotalAmount"))
	inv.TaxBasis = parseAmount(sum.str("TaxBasisTotalAmount"))
	// The tax total may be stated twice: in the invoice's currency and in
	// the seller's accounting currency (BT-111).
	for i, tt := range sum.all("TaxTotalAmount") {
		if c := tt.attr("currencyID"); i == 0 || c == inv.Currency {
			inv.TaxTotal = parseAmount(tt.text)
			if c == inv.Currency {
				break
			}
		}
	}
	inv.Rounding = parseAmount(sum.str("RoundingAmount"))
	inv.GrandTotal = parseAmount(sum.str("GrandTotalAmount"))
	inv.Prepaid = parseAmount(sum.str("TotalPrepaidAmount"))
	inv.Due = parseAmount(sum.str("DuePayableAmount"))

	for _, li := range root.all(ciiTx + "/IncludedSupplyChainTradeLineItem") {
		// EXTENDED's group and information lines carry no amount of their own.
		switch li.str("AssociatedDocumentLineDocument/LineStatusReasonCode") {
		case "GROUP", "INFORMATION":
			continue
		}
		agr := li.first("SpecifiedLineTradeAgreement|SpecifiedSupplyChainTradeAgreement")
		lset := li.first("SpecifiedLineTradeSettlement|SpecifiedSupplyChainTradeSettlement")
		l := Line{
			Name:     li.str("SpecifiedTradeProduct/Name"),
			Quantity: parseAmount(li.str("SpecifiedLineTradeDelivery|SpecifiedSupplyChainTradeDelivery/BilledQuantity")),
			Net:      parseAmount(lset.str("SpecifiedTradeSettlementLineMonetarySummation|SpecifiedTradeSettlementMonetarySummation/LineTotalAmount")),
			Category: lset.str("ApplicableTradeTax/CategoryCode"),
			Rate:     parseAmount(lset.str("ApplicableTradeTax/" + ciiRate)),
		}
		price := agr.first("NetPriceProductTradePrice")
		l.UnitPrice = perUnit(parseAmount(price.str("ChargeAmount")), parseAmount(price.str("BasisQuantity")))
		inv.Lines = append(inv.Lines, l)
	}
	return inv
}

// ciiDate reads a date element: its DateTimeString, or (in ZUGFeRD's
// draft) the element's own text.
func ciiDate(n *node, path string) time.Time {
	if d := parseDate(n.str(path + "/DateTimeString")); !d.IsZero() {
		return d
	}
	return parseDate(n.str(path))
}

// perUnit divides a price out of its base quantity ("12.00 per 100 pieces").
func perUnit(price, base Amount) Amount {
	if price.Set && base.Set && base.Value.IsPositive() && !base.Value.Equal(one) {
		price.Value = price.Value.Div(base.Value)
	}
	return price
}

func ciiParty(p *node) Party {
	if p == nil {
		return Party{}
	}
	out := Party{Name: p.str("Name")}
	for _, reg := range p.all("SpecifiedTaxRegistration/ID") {
		switch reg.attr("schemeID") {
		case "VA":
			if out.VATID == "" {
				out.VATID = reg.text
			}
		default:
			if out.TaxNumber == "" {
				out.TaxNumber = reg.text
			}
		}
	}
	a := p.first("PostalTradeAddress")
	out.Country = a.str("CountryID")
	out.Address = joinNonEmpty(", ", a.str("LineOne"), a.str("LineTwo"), a.str("LineThree"),
		joinNonEmpty(" ", a.str("PostcodeCode"), a.str("CityName")), out.Country)
	return out
}
