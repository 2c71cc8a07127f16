package fields

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// Invoices as their text layers read (pdftotext -layout, columns joined):
// the seller must not be the buyer or a heading, the invoice date not the
// due or delivery date, the total the gross sum at the foot.
func TestInvoicesReadSellerNumberDateAndTotal(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	tests := []struct {
		name                             string
		text                             []string
		supplier, number, date, total    string
		buyer, due, currency, taxID, doc string
	}{
		{"German stylesheet with seller and buyer blocks", []string{
			"Stylesheet zur Lesbarmachung der XML-Daten von ZUGFeRD 2.0-Rechnungen",
			"Handelsrechnung Nr. 471102 vom 05.03.2018",
			"Währung : GBP",
			"Liefer- und Leistungsdatum : 06.03.2018",
			"Ver käufer :", "Nummer : 549910", "Lieferant GmbH", "Lieferantenstraße 20", "DE 80333 München",
			"Steuernummer : 201/113/40209", "USt.-Id.-Nr. : DE123456789",
			"Käufer:", "Kunden AG Mitte", "Kundenstraße 15", "USt.-Id.-Nr. : DE136695976",
			"Zahlbar bis 04.04.2018",
			"Positionssumme 473,00", "Gesamtbetrag der Zuschläge 0,00", "Rechnungssumme ohne USt. 473,00",
			"Steuerbetrag 56,87", "Br uttosumme 529,87", "Zahlbetrag 529,87",
			"Zahlungsbedingungen: Der Rechnungsbetrag wurde bereits beglichen. 03.10.2018",
		}, "Lieferant GmbH", "471102", "2018-03-05", "529.87", "Kunden AG Mitte", "2018-04-04", "GBP", "DE123456789", "invoice"},
		{"French sender line, buyer's delivery address first; a credit note is negative", []string{
			"Au bon moulin SARL - 1242 chemin de l'olive - 84340 Malaucène - France",
			"TVA : FR11999999998 - SIRET : 99999999800010",
			"Avoir AV-2017-0005",
			"Adresse de livraison", "Ma jolie boutique", "35 rue de la République",
			"Date de facture 13/11/2017", "Date d'échéance 13/12/2017", "N° TVA client FR19787878784",
			"Total HT 624,90 €", "Total taxes 46,25 €", "Total TTC 671,15 €", "Solde à payer 470,15 €",
		}, "Au bon moulin SARL", "AV-2017-0005", "2017-11-13", "-671.15", "", "2017-12-13", "EUR", "FR11999999998", "credit_note"},
		{"seller and buyer side by side", []string{
			"Lieferant Käufer RECHNUNGS-KORREKTUR Seite 1",
			"GLN 4333741000005 Lief-Nr: 549910 GLN 4304171000002",
			"MUSTERLIEFERANT GMBH MUSTER-KUNDE GMBH Beleg-Nr : RK21012345",
			"Beleg-Datum : 16.09.2013",
			"Warenwert Zu-/Abschlag Nettobetrag MwSt-Betrag MwSt-% Endbetrag",
			"-5,00 0,15 -4,85 -0,92 19,0 -5,77",
			"-7,90 0,23 -7,67 -1,12 EUR -8,79",
		}, "MUSTERLIEFERANT GMBH", "RK21012345", "", "-8.79", "", "", "EUR", "", "invoice"},
		{"letterhead sender line, invoice # of a date", []string{
			"Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen",
			"Theodor Est", "Bahnstr. 42", "88802 Spielkreis",
			"Rechnung # RE-20170509/505 von 09.05.2017",
			"Leistungsdatum 07.05.2017",
			"Menge Produkt USt. Preis Gesamtbetrag",
			"1,00 Künstlerische Gestaltung 7% 160,00 € 160,00 €",
			"Nettobetrag: 496,00 €", "USt. Gesamt: 75,04 €", "Gesamtbetrag: 571,04 €",
			"USt-ID: DE136695976",
		}, "Bei Spiel GmbH", "RE-20170509/505", "2017-05-09", "571.04", "Theodor Est", "", "EUR", "DE136695976", "invoice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ExtractFields(lines(tt.text...), eu, testNow)
			get := func(path string) string { v, _ := receipt.Get(&r, path); return v }
			for path, want := range map[string]string{
				"supplier_name": tt.supplier, "document_number": tt.number,
				"total": tt.total, "payer_name": tt.buyer, "due_date": tt.due, "currency": tt.currency, "doc_type": tt.doc,
			} {
				if got := get(path); got != want {
					t.Errorf("%s = %q, want %q", path, got, want)
				}
			}
			if tt.date != "" && get("date") != tt.date {
				t.Errorf("date = %q, want %q", get("date"), tt.date)
			}
			if tt.taxID != "" && receipt.NormalizeTaxID(r.SupplierTaxID.Value.Value) != tt.taxID {
				t.Errorf("tax ID = %q, want %q", r.SupplierTaxID.Value.Value, tt.taxID)
			}
		})
	}
}

// Till receipts headed TAX INVOICE are no invoices: the invoice rules only
// fill gaps there (the golden readings of SROIE receipts hold the rest).
func TestTaxInvoiceReceiptsStayReceipts(t *testing.T) {
	au := receipt.DefaultLocale(receipt.CountryAU)
	r := ExtractFields(lines("TAX INVOICE", "KEDAI ABC", "Invoice No 123456", "2 x TEA $5.00", "TOTAL $5.00"), au, testNow)
	if r.DocType.Set || r.Total.Value.StringFixed(2) != "5.00" || r.DocumentNumber.Value != "123456" {
		t.Errorf("doc type %q, total %s, number %q", r.DocType.Value, r.Total.Value, r.DocumentNumber.Value)
	}
}

// A Malaysian till's tax invoice photographed without its last lines: its
// GST and its sales before GST are no gross total ("Total GST 7.20" had
// become the total, and both readers agreed on it).
func TestATaxInvoiceCutBelowItsTaxHasNoTotal(t *testing.T) {
	my := receipt.DefaultLocale(receipt.CountryMY)
	r := ExtractFields(lines("SYARIKAT PERNIAGAAN GIN KEE", "NO 290, JALAN AIR PANAS,", "43800 DENGKIL, SELANGOR", "GST ID : 000781500416", "TAX INVOICE",
		"Bill To :", "SUCI ALAM JAYA TRANSPORT", "NO 1 JALAN AMAN 2", "TAMAN DESA 43800", "Doc No. CS00010527 Date: 06/03/2018",
		"Item Qty S/Price S/Price Amount Tax", "101869 2 60.00 63.60 127.20 SR", "PASIR KASAR (D)", "TotalQty: 2 127.20",
		"Total Sales (Excluding GST) : 120.00", "Discount : 0.00", "Total GST 7.20", "Rounding : 0.00"), my, testNow)
	if r.Total.Set && (r.Total.Value.Equal(decimal.RequireFromString("7.20")) || r.Total.Value.Equal(decimal.RequireFromString("120"))) {
		t.Errorf("total %s (%s)", r.Total.Value, r.Total.Why)
	}
}

// What follows a gross label and makes it the net, in the page's language.
func TestWordsAfterATotalThatExcludeTheTax(t *testing.T) {
	for country, rests := range map[string]map[string]bool{
		"MY": {"Sales (Excluding GST) : 120.00": true, "excl. tax 12.00": true, "Sales (Inclusive GST) : 127.20": false},
		"DE": {"(ohne MwSt) 100,00": true, "netto 100,00": true, "brutto 119,00": false},
		"FR": {"hors taxes 100,00": true, "TTC 120,00": false},
	} {
		pk, _ := packs.Get(country)
		for rest, want := range rests {
			if got := (invoicePage{pack: pk}).excludesTax(rest); got != want {
				t.Errorf("%s %q: %v", country, rest, got)
			}
		}
	}
}

func TestInvoiceNumberIssuedAtADate(t *testing.T) {
	r := ExtractFields(lines("Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen", "Invoice # RE-20201121/508 issued at 2020-11-21",
		"Date of delivery 2020-11-10", "Net total: 496.00 €", "VAT total: 75.04 €", "Due payable: 571.04 €"), receipt.DefaultLocale(receipt.CountryEU), testNow)
	if d := r.Date.Value.Format("2006-01-02"); d != "2020-11-21" || r.DocumentNumber.Value != "RE-20201121/508" {
		t.Errorf("date %s number %q; want 2020-11-21 (not the delivery date), RE-20201121/508", d, r.DocumentNumber.Value)
	}
}

func TestMonthFirstInvoicePage(t *testing.T) {
	r := ExtractFields(lines("Au bon moulin SARL - 1242 chemin de l'olive - 84340 Malaucène - France", "Invoice FA-2017-0008",
		"Invoice Date 11/03/2017", "Due Date 12/03/2017", "SEPA Wire transfer 11/17/2017 623.00 €", "Total TTC 2 076,76 €"), receipt.DefaultLocale(receipt.CountryEU), testNow)
	if d := r.Date.Value.Format("2006-01-02"); d != "2017-11-03" {
		t.Errorf("date %s; want 2017-11-03 (the page writes 11/17/2017, month first)", d)
	}
}

// "CUSTOMER COPY" heads the copy of a card slip, not a buyer's block: the
// shop's name the slip prints under it stays the supplier.
func TestACardSlipsCustomerCopyIsNoBuyer(t *testing.T) {
	page := lines("FRESHWAY MARKETPLACE", "455 Gympie Road", "Kedron QLD 4031", "TAX INVOICE", "ABN 79 604 118 273",
		"15/03/2024 16:08", "MILK 3L 4.65", "BREAD 5.50", "TOTAL $10.15", "EFTPOS $10.15",
		"CUSTOMER COPY", "FRESHWAY MARKETPLACE KEDRON", "MERCHANT ID 00038821455", "PURCHASE AUD $10.15", "TOTAL AUD $10.15", "APPROVED")
	r := ExtractFields(page, receipt.DefaultLocale(receipt.CountryAU), testNow)
	if r.SupplierName.Value != "FRESHWAY MARKETPLACE" {
		t.Errorf("supplier %q (%s), want FRESHWAY MARKETPLACE", r.SupplierName.Value, r.SupplierName.Why)
	}
	if r.PayerName.Set {
		t.Errorf("payer %q, want none", r.PayerName.Value)
	}
}
