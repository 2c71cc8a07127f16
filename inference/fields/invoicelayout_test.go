package fields

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

func TestLayoutCellsCutAtColumnGaps(t *testing.T) {
	cells := layoutCells("Kessler Logistik GmbH        Rechnung Nr.:     F2025 5087  x")
	var got []string
	for _, c := range cells {
		got = append(got, c.Text)
	}
	if strings.Join(got, "|") != "Kessler Logistik GmbH|Rechnung Nr.:|F2025 5087 x" || cells[1].X0 != 29 {
		t.Errorf("cells %q (second at %v)", got, cells[1].X0)
	}
	if c := layoutCells("Café      Größe"); len(c) != 2 || c[1].X0 != 10 || c[1].Text != "Größe" {
		t.Errorf("accented cells %+v: columns count letters, not bytes", c)
	}
}

func TestLabelAtTakesTheLongestPackLabel(t *testing.T) {
	tests := []struct{ text, label, rest string }{
		{"Total HT 624,90 €", "NET TOTAL", "624,90 €"},
		{"Total TTC 671,15 €", "GROSS TOTAL", "671,15 €"},
		{"Rechnungsempfänger/Leistungsempfänger:", "BUYER", ""},
		{"N° de facture : F-12", "INVOICE NUMBER", "F-12"},
		{"Totaal incl. BTW", "GROSS TOTAL", ""},
		{"Datumsangabe 12", "", ""}, // a label ends its word
		{"Date of delivery 2020-11-10", "DELIVERY DATE", "2020-11-10"},
	}
	for _, tt := range tests {
		label, rest, _ := labelAt(tt.text)
		if label != tt.label || tt.label != "" && rest != tt.rest {
			t.Errorf("labelAt(%q) = %q, %q; want %q, %q", tt.text, label, rest, tt.label, tt.rest)
		}
	}
}

// Printed invoices as pdftotext -layout gives their text layers: the
// letterhead beside the meta block, the buyer's address beside the number,
// values under or beside their labels, in the six languages.
func TestInvoiceLayoutReadsEachValueBesideItsOwnLabel(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	tests := []struct {
		name                                                 string
		page                                                 string
		supplier, buyer, number, date, due, net, total, curr string
		doc                                                  string
	}{
		{
			"Dutch, the buyer beside the meta block", `ORANJEHOF
Keizersgracht 123
5611 AH Eindhoven

Klant
Molenaar Installatie N.V.                                  Factuurnummer:                RE-20259163
Dorpsstraat 41                                             Factuurdatum:                 29-01-2025
2511 AB Den Haag                                           Vervaldatum:                  28-02-2025
                                                           Valuta:                       USD
Factuur
Omschrijving                                                Aantal           Prijs            BTW        Bedrag
Onderhoudscontract                                              3           671,12           21 %      2.013,36
                                                          Subtotaal                                    2.013,36
                                                          BTW 21%                                        422,81
                                                          Totaal incl. BTW                             2.436,17
Oranjehof Installatie N.V.                     IBAN NL12 3456 7890 1234 56             BTW-nummer NL857866090B01`,
			"Oranjehof Installatie N.V.", "Molenaar Installatie N.V.", "RE-20259163", "2025-01-29", "2025-02-28", "2013.36", "2436.17", "USD", "invoice",
		},
		{
			"German, a value under its label in the column to the right", `                   Rechnungsersteller
                       Lieferant GmbH
                       Lieferantenstraße 20                                   RECHNUNG
                                                                              Rechnungsnummer
                       80333 München                                                                471102
                                                                              Rechnungsdatum
                       Deutschland                                                              05.03.2013
                   Rechnungsempfänger                                         Kundennummer
                                                                                                 GE2020211
                       Kunden AG Mitte
                       Kundenstraße 15
                       Summe netto                                                              198,00
                       USt. 19 %                                                                 37,62
                       Gesamtbetrag                                                             235,62 EUR`,
			"Lieferant GmbH", "Kunden AG Mitte", "471102", "2013-03-05", "", "198", "235.62", "EUR", "invoice",
		},
		{
			"Spanish credit note, the month by name, printed positive", `CASTELLANO
Calle Mayor 5
28013 Madrid
Castellano Imprenta S.L. · Calle Mayor 5 · 28013 Madrid
Robledo Sistemas S.A.                                Nº de factura:          F20254319
Calle Alcalá 90                                      Fecha de emisión:       3 de mayo de 2025
28013 Madrid                                         Vencimiento:            2 de junio de 2025
FACTURA RECTIFICATIVA
Descripción                                     Cant.     Precio unit.      IVA     Importe
Formación                                          2           100,00      21 %      200,00
                                          Base imponible                        200,00 €
                                          IVA 21%                                42,00 €
                                          Total factura                         242,00 €
Castellano Imprenta S.L.              IBAN ES12 3456 7890 1234 5678 90        CIF ESB1234567X`,
			"Castellano Imprenta S.L.", "Robledo Sistemas S.A.", "F20254319", "2025-05-03", "2025-06-02", "-200", "-242", "EUR", "credit_note",
		},
		{
			"English, a UK sender line, the title's number", `Kestrel Software Ltd
12 High Street
Leeds LS1 4DY
Kestrel Software Ltd · 12 High Street · Leeds LS1 4DY
Bluebell Software Limited                                                               Invoice date:               26 May 2024
21 Main Street                                                                          Due date:                   5 June 2024
Dublin 2
TAX INVOICE 2024/20246032
Description                                                                                  Qty     Unit price           VAT        Amount
Website hosting                                                                               4           216.95        20 %        867.80
                                                              Subtotal                                          867.80
                                                              VAT 20%                                           173.56
                                                              Total                                           £1,041.36
                                                              Amount paid                                      -300.00
                                                              Amount due                                       £741.36`,
			"Kestrel Software Ltd", "Bluebell Software Limited", "2024/20246032", "2024-05-26", "2024-06-05", "867.8", "1041.36", "GBP", "invoice",
		},
		{
			"German, identifiers above the seller's name under a letter-spaced heading", `Rechnung Nr. RE2025118 vom 16.09.2025

Ver käufer :

GLN 4333741000005
Lief-Nr : 549910
NORDLICHT HANDEL GMBH
Hafenstraße 3
20457 Hamburg

Käufer :
Kunden-Nr. : 009420
Bergmann Werkzeuge GmbH
Lindenweg 7
80331 München
Artikel                                        Menge     Preis       Betrag
Schrauben M6                                      10      4,00        40,00
                                        Nettobetrag                    40,00
                                        Umsatzsteuer 19%                7,60
                                        Gesamtbetrag                   47,60 EUR
NORDLICHT HANDEL GMBH · Hafenstraße 3 · 20457 Hamburg · USt-IdNr. DE123456789`,
			"NORDLICHT HANDEL GMBH", "Bergmann Werkzeuge GmbH", "RE2025118", "2025-09-16", "", "40", "47.6", "EUR", "invoice",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ExtractFields(LinesFromText(tt.page), eu, testNow)
			get := func(path string) string { v, _ := receipt.Get(&r, path); return v }
			for path, want := range map[string]string{
				"supplier_name": tt.supplier, "payer_name": tt.buyer, "document_number": tt.number,
				"date": tt.date, "due_date": tt.due, "subtotal": tt.net, "total": tt.total, "currency": tt.curr, "doc_type": tt.doc,
			} {
				if got := get(path); !strings.EqualFold(got, want) {
					t.Errorf("%s = %q, want %q", path, got, want)
				}
			}
		})
	}
}

// The totals block's arithmetic is evidence for the total; a page 1 of 2
// leaves the totals to the last page, whose sum carried forward makes it an
// invoice's page though it names no invoice.
func TestInvoiceTotalsArithmeticAndPages(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	last := `                                           Übertrag                               1.000,00
Schulung                                 1       500,00       19 %          500,00
                                         Nettobetrag                             1.500,00
                                         zzgl. 19 % MwSt.                          285,00
                                         Gesamtbetrag                            1.785,00
                                         Anzahlung                                -785,00
                                         Zu zahlen                               1.000,00
Seite 2 von 2`
	r := ExtractFields(LinesFromText(last), eu, testNow)
	if r.Total.Value.StringFixed(2) != "1785.00" || r.AmountDue.Value.StringFixed(2) != "1000.00" || r.AmountPaid.Value.StringFixed(2) != "785.00" {
		t.Fatalf("total %s, due %s, paid %s", r.Total.Value, r.AmountDue.Value, r.AmountPaid.Value)
	}
	sums := 0
	for _, s := range r.Total.Support {
		if s.Kind == receipt.EvidenceArithmetic {
			sums++
		}
	}
	if sums != 2 {
		t.Errorf("total support %+v: want net + tax = gross and gross − paid = due", r.Total.Support)
	}
	first := `Nordwind Logistik GmbH
Rechnung Nr. 2024-17
Schulung                                 2       500,00       19 %        1.000,00
                                         Übertrag                               1.000,00
Seite 1 von 2`
	if r := ExtractFields(LinesFromText(first), eu, testNow); r.Total.Set {
		t.Errorf("page 1 of 2 has total %s: the sum carried forward is none", r.Total.Value)
	}
}

// A table's headings and notes are no lines, and its rows are taken only
// when they make the page's net.
func TestInvoiceTableRowsAddUpToTheNet(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	page := `Nordwind Logistik GmbH
RECHNUNG Nr. 2024-17
Bezeichnung                                   Menge   Einzelpreis     MwSt.        Gesamt
Hardware
Laserdrucker                                      2        100,00      19 %        200,00
   Seriennummer: SN-48213
Schulung                                          1         50,50       7 %         50,50
                                         Nettobetrag                             %s
                                         Gesamtbetrag                              290,00`
	r := ExtractFields(LinesFromText(strings.Replace(page, "%s", "250,50", 1)), eu, testNow)
	if len(r.LineItems) != 2 || r.LineItems[0].Description.Value != "Laserdrucker" || r.LineItems[0].Quantity.Value.String() != "2" ||
		r.LineItems[0].UnitPrice.Value.StringFixed(2) != "100.00" || r.LineItems[1].LineTotal.Value.StringFixed(2) != "50.50" {
		t.Fatalf("items %+v", r.LineItems)
	}
	r = ExtractFields(LinesFromText(strings.Replace(page, "%s", "260,50", 1)), eu, testNow)
	for _, it := range r.LineItems {
		if it.Description.Value == "Hardware" || strings.Contains(it.Description.Value, "Seriennummer") {
			t.Errorf("a heading or note became a line: %+v", r.LineItems)
		}
	}
}

func TestAGroupGapIsClosed(t *testing.T) {
	if got := amountsIn(closeGroupGaps("Total factura 6. 163,32 €")); len(got) != 1 || got[0].StringFixed(2) != "6163.32" {
		t.Errorf("got %v, want 6163.32", got)
	}
}

// TestInvoiceSellerAndDateAsLettersPrintThem: a letterhead's own ways of
// naming the seller and dating the letter, and sentences and periods that
// only look like them.
func TestInvoiceSellerAndDateAsLettersPrintThem(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	for _, tc := range []struct {
		name, country, page        string
		supplier, date, total, net string
	}{
		{"French: a sender line that starts with its street, the dateline, the net after a discount", "EU", `IMPRIMERIE DES CALANQUES
Impression numérique · Signalétique
12 rue de la République · 13001 Marseille · 04 91 00 00 00
                                              Boulangerie Martin SARL
                                              3 quai du Port
                                              13002 Marseille
FACTURE N° F2025-0042
Marseille, le 3 mars 2025
Convention du 14 janvier 2025
Désignation                       Qté    P.U. HT    Montant HT
Flyers A5                           1     200,00        200,00
Cartes de visite                    2      50,00        100,00
                        Total HT brut                   300,00
                        Remise 10 %                     -30,00
                        Total HT net                    270,00
                        TVA 20 %                         54,00
                        Total TTC                       324,00`, "IMPRIMERIE DES CALANQUES", "2025-03-03", "324.00", "300.00"},
		{"Italian: the invoice date named in the payment terms' sentence is the due date's", "EU", `Falegnameria Rossi
Via dei Mestieri, 12 – 31050 Ponzano Veneto (TV) – tel. 0422 000 000
                                              Spett.le
                                              Studio Bianchi
FATTURA
Numero:        41/2024              Data:        18/06/2024
Descrizione                                    Importo €   IVA
Tavolo in rovere                                1.000,00   22%
                              Totale imponibile   1.000,00
                              Totale IVA 22%        220,00
                              TOTALE FATTURA €    1.220,00
                              Acconto versato 15/03/2024   -200,00
                              NETTO A PAGARE €    1.020,00
Pagamento: bonifico, saldo a 30 gg data fattura, scadenza 18/07/2024`, "FALEGNAMERIA ROSSI", "2024-06-18", "1220.00", "1000.00"},
		{"US: a billing period is no sender line; a lower-case logo on a text layer", "US", `front range it
Managed IT  ·  Help Desk
2150 Main St, Suite 4, Denver, CO 80205   |   (720) 555-0100   |   ar@frontrange.example
Bill To
Cherry Creek Title, LLC
3033 E 1st Ave
Denver, CO 80206
Invoice
Invoice Number:   FR-0146                 Client No.:     CC-207
Invoice Date:     03/31/2025              PO Number:      7781
Billing Period:   03/01/2025 - 03/31/2025   Payment Terms:  Net 30 - due 04/30/2025
Description                                   Amount
Help desk retainer                            1,500.00
                              Subtotal        1,500.00
                              Sales Tax          0.00
                              Total Due       1,500.00`, "FRONT RANGE IT", "2025-03-31", "1500.00", ""},
		{"New Zealand: the name the page says it trades under goes on past the logo's line", "NZ", `KAURI LIGHT
PHOTOGRAPHY  —  corporate · events
                                                  TAX INVOICE
Harbourside Legal Limited                         Invoice no.  KLP-0231
Level 9, 120 Albert Street                        Date         28 February 2025
Auckland
From: Aroha Whitcombe trading as Kauri Light Photography
Description                                       Amount
Event coverage                                    1,000.00
                                  Subtotal        1,000.00
                                  GST 15%           150.00
                                  Total NZD       1,150.00`, "KAURI LIGHT PHOTOGRAPHY", "2025-02-28", "1150.00", ""},
		{"Belgian: a bilingual total to pay", "EU", `VERSTRAETE ADVIES
Kortrijksesteenweg 100 · 9000 Gent
FACTUUR / RECHNUNG
Factuurnummer / Rechnungsnummer: 2024/0093
Factuurdatum / Rechnungsdatum: 30/09/2024
Omschrijving / Beschreibung                          Bedrag
Consultancy                                       10.617,80
                 Totaal excl. btw / Summe netto          10.617,80 EUR
                 Btw / USt. 0 % - verlegd                     0,00 EUR
                 Totaal te betalen / Gesamtbetrag        10.617,80 EUR`, "VERSTRAETE ADVIES", "2024-09-30", "10617.80", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc := eu
			if tc.country != "EU" {
				loc = receipt.DefaultLocale(receipt.Country(tc.country))
			}
			r := ExtractFields(LinesFromText(tc.page), loc, testNow)
			get := func(path string) string { v, _ := receipt.Get(&r, path); return v }
			want := map[string]string{"supplier_name": tc.supplier, "date": tc.date, "total": tc.total}
			if tc.net != "" {
				want["subtotal"] = tc.net
			}
			for path, w := range want {
				got := get(path)
				if a, err := decimal.NewFromString(got); err == nil && a.Equal(decimal.RequireFromString(w)) {
					continue
				}
				if !strings.EqualFold(got, w) {
					t.Errorf("%s = %q, want %q", path, got, w)
				}
			}
			if tc.net == "300.00" && !r.Discount.Value.Equal(decimal.NewFromInt(30)) {
				t.Errorf("discount %s, want the 30.00 between the lines' sum and the net", r.Discount.Value)
			}
		})
	}
}

// The buyer's name with the next column's label read onto it is the
// buyer's still; a longer name that starts with the same word is not.
func TestABuyersNameWithTheNextColumnsLabelIsNoSupplier(t *testing.T) {
	for _, tc := range []struct {
		supplier, buyer string
		want            bool
	}{
		{"PAPERBARK PHYSIO PTY LTD ACCOUNT ID", "Paperbark Physio Pty Ltd", true},
		{"Paperbark Physio Pty Ltd", "PAPERBARK PHYSIO PTY LTD", true},
		{"PAPERBARK PHYSIOTHERAPY", "Paperbark Physio", false},
		{"ACME SUPPLIES", "ACME", false},
	} {
		if got := isBuyersName(tc.supplier, tc.buyer); got != tc.want {
			t.Errorf("isBuyersName(%q, %q) = %v, want %v", tc.supplier, tc.buyer, got, tc.want)
		}
	}
}
