package synth

import (
	"fmt"
	"html"
	"math/rand"
	"strings"
	"time"
)

// InvoiceRowsPerPage is how many table rows fit on a page before the invoice
// carries its sum forward to the next.
const InvoiceRowsPerPage = 28

// money writes cents as the invoice's language does: 1.234,56 or 1,234.56.
func (inv *Invoice) money(cents int64) string {
	neg := cents < 0
	if neg {
		cents = -cents
	}
	whole := fmt.Sprint(cents / 100)
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(inv.words.group)
		}
		b.WriteRune(r)
	}
	point := "."
	if inv.words.decimalComma {
		point = ","
	}
	s := fmt.Sprintf("%s%s%02d", b.String(), point, cents%100)
	if neg {
		s = "-" + s
	}
	return s
}

// signed is an amount as printed: a credit note that prints minus signs
// prints them on every amount.
func (inv *Invoice) signed(cents int64) string {
	if inv.negative {
		cents = -cents
	}
	return inv.money(cents)
}

// marked is an amount with the currency as the invoice marks its totals.
func (inv *Invoice) marked(cents int64) string {
	s := inv.signed(cents)
	switch inv.markStyle {
	case 0:
		return s + " " + inv.Currency
	case 1:
		if sym := map[string]string{"EUR": "€", "GBP": "£"}[inv.Currency]; sym != "" {
			if inv.words.decimalComma {
				return s + " " + sym
			}
			return sym + s
		}
		return inv.Currency + " " + s
	}
	return s
}

func (inv *Invoice) date(t time.Time) string {
	if inv.longDate {
		return inv.words.longDate(t, inv.words.months)
	}
	return t.Format(inv.words.dateLayout)
}

// PDF prints the invoice as a PDF with its truth attached as Factur-X
// XML (factur-x.xml), so `shoebox einvoices --printed` scores a reading
// of the print against it.
func (inv *Invoice) PDF(seed int64) []byte {
	rng := rand.New(rand.NewSource(seed ^ 0x5eed))
	w := inv.words
	pw := &pdfWriter{attachName: "factur-x.xml", attach: inv.CII()}

	// The rows of the table, cut into pages.
	var pages [][]InvoiceLine
	for i := 0; i < len(inv.Lines); i += InvoiceRowsPerPage {
		pages = append(pages, inv.Lines[i:min(i+InvoiceRowsPerPage, len(inv.Lines))])
	}
	labels := struct{ number, date, due, delivery, customer, order, buyer, net, gross, paid, amountDue, carried, pageOf, title, tax, terms string }{
		pick(rng, w.number), pick(rng, w.date), pick(rng, w.due), pick(rng, w.delivery), pick(rng, w.customerNo), pick(rng, w.orderNo),
		pick(rng, w.buyer), pick(rng, w.net), pick(rng, w.gross), pick(rng, w.paid), pick(rng, w.amountDue), pick(rng, w.carried),
		pick(rng, w.pageOf), pick(rng, w.title), pick(rng, w.tax), pick(rng, w.terms),
	}
	if inv.Credit {
		labels.title = pick(rng, w.credit)
	}
	s := inv.Seller
	var carried int64
	for pi, rows := range pages {
		p := pw.newPage()
		// Letterhead.
		lx := 50.0
		if inv.sellerRight {
			lx = 340
		}
		head := s.Name
		if s.Brand != "" {
			head = s.Brand
		}
		p.text(fontBold, 16, lx, 60, head)
		if pi > 0 {
			// A later page names the document again beside its page number.
			p.text(fontSans, 8.5, 340, 110, labels.title+" "+inv.Number)
		}
		y := 76.0
		for _, t := range []string{s.Street, s.City} {
			p.text(fontSans, 8, lx, y, t)
			y += 10
		}
		if pi == 0 {
			// The addressee, in the envelope's window.
			y = 140
			if inv.senderLine {
				p.text(fontSans, 6.5, 50, y, s.Name+" · "+s.Street+" · "+s.City)
				y += 14
			}
			if inv.buyerLabelled {
				p.text(fontBold, 8, 50, y, labels.buyer)
				y += 12
			}
			for _, t := range []string{inv.Buyer.Name, inv.Buyer.Street, inv.Buyer.City} {
				p.text(fontSans, 9, 50, y, t)
				y += 11
			}
			if rng.Intn(3) == 0 {
				p.text(fontSans, 8, 50, y, inv.Buyer.Label+" "+inv.Buyer.VATID)
			}
			// The meta block.
			type kv struct{ k, v string }
			meta := []kv{{labels.date, inv.date(inv.Issue)}}
			if !inv.titleNumber {
				meta = append([]kv{{labels.number, inv.Number}}, meta...)
			}
			if !inv.Delivery.IsZero() {
				meta = append(meta, kv{labels.delivery, inv.date(inv.Delivery)})
			}
			meta = append(meta, kv{labels.due, inv.date(inv.Due)}, kv{labels.customer, fmt.Sprintf("K%05d", rng.Intn(100000))})
			if rng.Intn(2) == 0 {
				meta = append(meta, kv{labels.order, fmt.Sprintf("%d", 4500000000+rng.Int63n(99999999))})
			}
			if inv.markStyle == 2 {
				meta = append(meta, kv{pick(rng, w.currency), inv.Currency})
			}
			my := 150.0
			if inv.sellerRight {
				my = 120
			}
			for _, m := range meta {
				p.text(fontSans, 8.5, 340, my, m.k+":")
				p.text(fontSans, 8.5, 450, my, m.v)
				my += 12
			}
			title := labels.title
			if inv.titleNumber {
				title += " " + inv.Number
			}
			p.text(fontBold, 14, 50, 250, title)
		}
		// The table.
		y = 280.0
		if pi > 0 {
			y = 130
		}
		p.text(fontBold, 8.5, 50, y, w.head[0])
		for i, x := range []float64{370, 440, 490, 545} {
			p.text(fontBold, 8.5, x-float64(len([]rune(w.head[i+1])))*4.4, y, w.head[i+1])
		}
		p.rule(50, 545, y+4)
		y += 16
		if pi > 0 {
			p.text(fontSans, 8.5, 50, y, labels.carried)
			p.right(8.5, 545, y, inv.signed(carried))
			y += 14
		}
		for _, l := range rows {
			switch {
			case l.Heading:
				p.text(fontBold, 8.5, 50, y, l.Text)
			case l.Note:
				p.text(fontSans, 7.5, 62, y, l.Text)
			default:
				p.text(fontSans, 8.5, 50, y, l.Text)
				p.right(8.5, 370, y, fmt.Sprint(l.Qty))
				p.right(8.5, 440, y, inv.money(l.UnitCents))
				p.right(8.5, 490, y, fmt.Sprintf("%d %%", l.Rate))
				p.right(8.5, 545, y, inv.signed(l.Net()))
				carried += l.Net()
			}
			y += 14
		}
		if pi < len(pages)-1 {
			p.rule(50, 545, y-8)
			p.text(fontSans, 8.5, 50, y+2, labels.carried)
			p.right(8.5, 545, y+2, inv.signed(carried))
		} else {
			// The totals block.
			net, tax, gross := inv.Totals()
			p.rule(300, 545, y-6)
			y += 6
			row := func(label, amount string, bold bool) {
				f := fontSans
				if bold {
					f = fontBold
				}
				p.text(f, 9, 330, y, label)
				p.right(9, 545, y, amount)
				y += 13
			}
			row(labels.net, inv.marked(net), false)
			for _, b := range inv.Bands() {
				l := fmt.Sprintf(labels.tax, fmt.Sprint(b.Rate))
				if inv.taxBasisOnLine {
					p.text(fontSans, 7.5, 220, y, inv.money(b.NetCents))
				}
				row(l, inv.marked(b.Tax), false)
			}
			_ = tax
			row(labels.gross, inv.marked(gross), true)
			if inv.PaidCents > 0 {
				row(labels.paid, inv.marked(-inv.PaidCents), false)
				row(labels.amountDue, inv.marked(gross-inv.PaidCents), true)
			}
			y += 16
			p.text(fontSans, 8.5, 50, y, fmt.Sprintf(labels.terms, inv.date(inv.Due)))
			y += 12
			p.text(fontSans, 8.5, 50, y, "IBAN "+inv.IBAN)
		}
		// The footer: who the seller is, its bank and registration.
		p.rule(50, 545, 770)
		p.text(fontSans, 7, 50, 782, s.Name)
		p.text(fontSans, 7, 50, 791, s.Street)
		p.text(fontSans, 7, 50, 800, s.City)
		p.text(fontSans, 7, 230, 782, "IBAN "+inv.IBAN)
		p.text(fontSans, 7, 400, 782, s.Label+" "+s.VATID)
		if len(pages) > 1 || rng.Intn(2) == 0 {
			p.text(fontSans, 7, 400, 800, fmt.Sprintf(labels.pageOf, pi+1, len(pages)))
		}
	}
	return pw.bytes()
}

// CII is the invoice as Factur-X (EN 16931) Cross Industry Invoice XML:
// the truth its printed page is scored against.
func (inv *Invoice) CII() []byte {
	x := html.EscapeString
	amt := func(c int64) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }
	day := func(t time.Time) string { return t.Format("20060102") }
	code := "380"
	if inv.Credit {
		code = "381"
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
`)
	fmt.Fprintf(&b, "<rsm:ExchangedDocument><ram:ID>%s</ram:ID><ram:TypeCode>%s</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format=\"102\">%s</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>\n", x(inv.Number), code, day(inv.Issue))
	b.WriteString("<rsm:SupplyChainTradeTransaction>\n")
	for i, l := range inv.Lines {
		if l.Heading || l.Note {
			continue
		}
		fmt.Fprintf(&b, `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>%d</ram:LineID></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>%s</ram:Name></ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>%s</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement><ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">%d</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery><ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>%d</ram:RateApplicablePercent></ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>%s</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>
`, i+1, x(l.Text), amt(l.UnitCents), l.Qty, l.Rate, amt(l.Net()))
	}
	party := func(role string, p Party) {
		fmt.Fprintf(&b, "<ram:%s><ram:Name>%s</ram:Name><ram:PostalTradeAddress><ram:LineOne>%s</ram:LineOne><ram:CityName>%s</ram:CityName><ram:CountryID>%s</ram:CountryID></ram:PostalTradeAddress><ram:SpecifiedTaxRegistration><ram:ID schemeID=\"VA\">%s</ram:ID></ram:SpecifiedTaxRegistration></ram:%s>\n",
			role, x(p.Name), x(p.Street), x(p.City), p.Country, x(p.VATID), role)
	}
	b.WriteString("<ram:ApplicableHeaderTradeAgreement>\n")
	party("SellerTradeParty", inv.Seller)
	party("BuyerTradeParty", inv.Buyer)
	b.WriteString("</ram:ApplicableHeaderTradeAgreement>\n<ram:ApplicableHeaderTradeDelivery>")
	if !inv.Delivery.IsZero() {
		fmt.Fprintf(&b, "<ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime><udt:DateTimeString format=\"102\">%s</udt:DateTimeString></ram:OccurrenceDateTime></ram:ActualDeliverySupplyChainEvent>", day(inv.Delivery))
	}
	fmt.Fprintf(&b, "</ram:ApplicableHeaderTradeDelivery>\n<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>%s</ram:InvoiceCurrencyCode>\n", inv.Currency)
	fmt.Fprintf(&b, "<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>%s</ram:IBANID></ram:PayeePartyCreditorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans>\n", strings.ReplaceAll(inv.IBAN, " ", ""))
	for _, t := range inv.Bands() {
		fmt.Fprintf(&b, "<ram:ApplicableTradeTax><ram:CalculatedAmount>%s</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>%s</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>%d</ram:RateApplicablePercent></ram:ApplicableTradeTax>\n", amt(t.Tax), amt(t.NetCents), t.Rate)
	}
	fmt.Fprintf(&b, "<ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format=\"102\">%s</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>\n", day(inv.Due))
	net, tax, gross := inv.Totals()
	fmt.Fprintf(&b, "<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>%s</ram:LineTotalAmount><ram:TaxBasisTotalAmount>%s</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID=\"%s\">%s</ram:TaxTotalAmount><ram:GrandTotalAmount>%s</ram:GrandTotalAmount><ram:TotalPrepaidAmount>%s</ram:TotalPrepaidAmount><ram:DuePayableAmount>%s</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>\n",
		amt(net), amt(net), inv.Currency, amt(tax), amt(gross), amt(inv.PaidCents), amt(gross-inv.PaidCents))
	b.WriteString("</ram:ApplicableHeaderTradeSettlement>\n</rsm:SupplyChainTradeTransaction>\n</rsm:CrossIndustryInvoice>\n")
	return []byte(b.String())
}
