package fields

import (
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

// Totals blocks as pdftotext -layout gives them: the net and tax are the
// pair that makes the printed gross, from the labelled sums or the VAT
// breakdown's rows; a table row with a rate is no tax.
func TestInvoiceNetAndTaxMakeTheGross(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	tests := []struct {
		name, page                string
		net, tax, total, discount string
		rates                     []string
	}{
		{
			"German, the breakdown with bare rates and labelled sums", `Rechnung Nr. 4711
Pos   Beschreibung     Nettopreis   Menge   Steuer            Entgelt
 1    Trennblätter          9,90   20 Stk  19 % VAT (S)       198,00
 2    Joghurt               5,50   50 Stk   7 % VAT (S)       275,00
Umsatzsteueraufschlüsselung:
Art (Kategorie)   Steuerbasisbetrag    USt. %     USt.-Betrag
VAT (S)                      275,00         7           19,25
VAT (S)                      198,00        19           37,62
Belegsummen:
          Positionssumme                          473,00
          Rechnungssumme ohne USt.                473,00
          Steuerbetrag                             56,87
          Bruttosumme                             529,87`,
			"473", "56.87", "529.87", "",
			[]string{"7", "19"},
		},
		{
			"German, lines less an allowance", `Rechnung Nr. 4712
          Positionssumme                          202,70
          Gesamtbetrag der Zuschläge                5,80
          Gesamtbetrag der Abschläge              -14,73
          Rechnungssumme ohne USt.                193,77
          Steuerbetrag                             21,30
          Bruttosumme                             215,07`,
			"202.7", "21.3", "215.07", "8.93", nil,
		},
		{
			"French, the rows interleaved with the sums", `FACTURE F-2017-1
                Taxe                      Base              Montant          Total HT      624,90 €
TVA collectée (vente) 20,0%                       81,90 €         16,38 €
                                                                            Total taxes        46,25 €
TVA collectée (vente) 5,5%                    543,00 €            29,87 €
                                                                               Total TTC      671,15 €`,
			"624.9", "46.25", "671.15", "",
			[]string{"20", "5.5"},
		},
		{
			"no tax charged: a zero rate and a printed 0,00", `Rechnung Nr. 99
Art (Kategorie) Steuerbasisbetrag    USt. %          USt.-Betrag
VAT (E)
                      380,00                0           0,00
          Rechnungssumme ohne USt.                 380,00
          Steuerbetrag                               0,00
          Bruttosumme                              380,00`,
			"380", "0", "380", "",
			[]string{"0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ExtractFields(LinesFromText(tt.page), eu, testNow)
			for _, c := range []struct {
				field string
				got   receipt.Amount
				want  string
			}{{"net", r.Subtotal, tt.net}, {"tax", r.TotalTax, tt.tax}, {"total", r.Total, tt.total}, {"discount", r.Discount, tt.discount}} {
				if c.want == "" {
					if c.got.Set {
						t.Errorf("%s %s, want none", c.field, c.got.Value)
					}
					continue
				}
				if !c.got.Set || c.got.Value.String() != c.want {
					t.Errorf("%s %s (set %v, %s), want %s", c.field, c.got.Value, c.got.Set, c.got.Why, c.want)
				}
			}
			if tt.rates != nil {
				var rates []string
				for _, tl := range r.TaxLines {
					rates = append(rates, tl.Rate.Value.String())
				}
				if len(rates) != len(tt.rates) || len(rates) > 0 && (rates[0] != tt.rates[0] || rates[len(rates)-1] != tt.rates[len(tt.rates)-1]) {
					t.Errorf("tax lines at %v, want %v", rates, tt.rates)
				}
			}
		})
	}
}

// A PDF invoice's total is confirmed by its own sums or not at all: a
// gross printed alone is doubted; net + tax = gross (a zero tax read on its
// own line too) supports it.
func TestInvoiceTotalNeedsItsSums(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	alone := "Rechnung Nr. 4713\nFällig am 04.04.2018\n          Bruttosumme                             529,87\n          Zahlbetrag                              529,87"
	summed := "Rechnung Nr. 4714\n          Rechnungssumme ohne USt.                380,00\n          Steuerbetrag                              0,00\n          Bruttosumme                             380,00"
	for _, tc := range []struct {
		name, page string
		trusted    bool
	}{{"the gross alone", alone, false}, {"net and a zero tax", summed, true}} {
		t.Run(tc.name, func(t *testing.T) {
			lines := LinesFromText(tc.page)
			r := ExtractFields(lines, eu, testNow)
			Assess(&r, lines, eu, testNow)
			if ok, why := receipt.Trusted(r.Total, "total"); ok != tc.trusted {
				t.Errorf("trusted %v (%s; %s), want %v", ok, why, kinds(r.Total.Support), tc.trusted)
			}
		})
	}
}

// The addressee's block needs no label: a name over its address down to a
// postcode and town, beside the delivery address under its own heading, or
// with its salutation; the seller's two-line name keeps its legal form.
func TestInvoiceUnlabelledAddressee(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	tests := []struct{ name, page, seller, buyer string }{
		{"French, the billing address right of the delivery address", `       Au bon moulin SARL - 1242 chemin de l'olive - 84340 Malaucène - France
       TVA : FR11999999998 - SIRET : 99999999800010
Facture FA-2017-0010
Adresse de livraison
                                                        Ma jolie boutique
Ma jolie boutique
35 rue de la République
                                                        Alexandre Payet
69001 Lyon                                              35 rue de la République
France                                                  69001 Lyon
Date de facture                   13/11/2017
Total HT      624,90 €
Total TTC     671,15 €`, "Au bon moulin SARL", "Ma jolie boutique"},
		{"German, a salutation over the name under a two-line letterhead", `MVM Musterhafter
Versicherungsverein Musterstadt a.G.

Herrn
Max Mustermann
Musterstr. 11
12346 Bad Musterhausen

Beitragsrechnung Nr. 00.123.456.7        11. März 2014
Fälligkeitstag: 01.04.2014`, "MVM Musterhafter Versicherungsverein Musterstadt a.G.", "Herrn Max Mustermann"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ExtractFields(LinesFromText(tt.page), eu, testNow)
			if r.SupplierName.Value != tt.seller {
				t.Errorf("seller %q, want %q", r.SupplierName.Value, tt.seller)
			}
			if r.PayerName.Value != tt.buyer {
				t.Errorf("buyer %q (%s), want %q", r.PayerName.Value, r.PayerName.Why, tt.buyer)
			}
		})
	}
}

// A later page's rows make its net less the sum brought forward above
// them; a credit note's rows and prices are negative together.
func TestInvoiceTableOnALaterPage(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	page := `                                                                   GUTSCHRIFT 2024/20240026
Bezeichnung                                                             Menge   Einzelpreis         MwSt.        Gesamt
Übertrag                                                                                                    -1.000,00
Wartungsvertrag                                                            4        100,00           10 %      -400,00
Schulung                                                                   2         50,00           20 %      -100,00
   laut Angebot vom Vormonat
                                                                Summe netto                                 -1.500,00
                                                                USt. 20 %                                      -20,00
                                                                USt. 10 %                                     -140,00
                                                                Gesamtbetrag                                -1.660,00
Seite 2 von 2`
	r := ExtractFields(LinesFromText(page), eu, testNow)
	if len(r.LineItems) != 2 || r.LineItems[0].LineTotal.Value.StringFixed(2) != "-400.00" || r.LineItems[0].UnitPrice.Value.StringFixed(2) != "-100.00" {
		t.Fatalf("items %+v", r.LineItems)
	}
	if f := receipt.Validate(r, eu, testNow); len(f) > 0 {
		for _, x := range f {
			if strings.Contains(x.Message, " × ") {
				t.Errorf("finding %q", x.Message)
			}
		}
	}
}

// A table that prints the quantity (or the position) before the
// description: the quantity with its decimals, a whole number a position.
func TestInvoiceTableWithLeadingFigures(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	page := `Rechnung # RE-20151008/504
Menge            Produkt                                             USt.      Preis      Gesamtbetrag
1,00             Künstlerische Gestaltung                            7%        160,00 €   160,00 €
                 (Stunde):
400,00           Luftballon: Bunt, ca. 500ml                         19%       0,79 €     316,00 €
Nettobetrag: 476,00 €
Gesamtbetrag: 551,24 €`
	r := ExtractFields(LinesFromText(page), eu, testNow)
	if len(r.LineItems) != 2 || r.LineItems[1].Description.Value != "Luftballon: Bunt, ca. 500ml" || r.LineItems[1].Quantity.Value.String() != "400" ||
		r.LineItems[1].UnitPrice.Value.StringFixed(2) != "0.79" {
		t.Fatalf("items %+v", r.LineItems)
	}
	pos := `Rechnung Nr. 4711
Pos  Beschreibung        Nettopreis     Menge        Entgelt
 1   Trennblätter              9,90    20 Stk        198,00
 2   Joghurt                   5,50    50 Stk        275,00
          Rechnungssumme ohne USt.                473,00
          Bruttosumme                             529,87`
	r = ExtractFields(LinesFromText(pos), eu, testNow)
	if len(r.LineItems) != 2 || r.LineItems[0].Description.Value != "Trennblätter" || r.LineItems[0].Quantity.Set && r.LineItems[0].Quantity.Value.String() == "1" {
		t.Fatalf("items %+v", r.LineItems)
	}
}

// "Data fattura: 27 marzo 2024" beside the number's label: the day that
// starts a date is no invoice number.
func TestInvoiceNumberIsNoDatesDay(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	rows := [][]string{
		{"Colombo Software S.r.l."},
		{"Spett.le", "N. documento:", "20253843"},
		{"Galli Tipografia S.n.c.", "Data fattura:", "27 marzo 2024"},
		{"NOTA DI CREDITO"},
		{"", "Totale fattura", "-6.185,79 CHF"},
	}
	var words []inference.Word
	for i, row := range rows {
		for c, cell := range row {
			x := 20 + 500*c
			for _, w := range strings.Fields(cell) {
				words = append(words, inference.Word{Text: w, Conf: 0.95, Line: i, Box: receipt.Box{X: x, Y: 40 * i, W: 12 * len(w), H: 20}})
				x += 12*len(w) + 10
			}
		}
	}
	if r := ExtractFields(GroupLines(words), eu, testNow); r.DocumentNumber.Value != "20253843" {
		t.Errorf("number %q (%s), want 20253843", r.DocumentNumber.Value, r.DocumentNumber.Why)
	}
}

// A page reader that sets the cents apart after a thousands group ("93.178,
// 86") loses the thousands in the line rules' reading: the labelled sums,
// their groups closed, are read whole.
func TestInvoiceSumsKeepTheirThousands(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	rows := [][]string{
		{"Oranjehof Installatie N.V."},
		{"FACTUUR", "Factuurnummer:", "F-2024-17"},
		{"", "Totaal excl. BTW", "77.751, 60"},
		{"", "BTW 21%", "14.751, 83"},
		{"", "BTW 9%", "675,43"},
		{"", "Totaal incl. BTW", "93.178, 86"},
	}
	var words []inference.Word
	for i, row := range rows {
		for c, cell := range row {
			x := 20 + 500*c
			for _, w := range strings.Fields(cell) {
				words = append(words, inference.Word{Text: w, Conf: 0.95, Line: i, Box: receipt.Box{X: x, Y: 40 * i, W: 12 * len(w), H: 20}})
				x += 12*len(w) + 10
			}
		}
	}
	r := ExtractFields(GroupLines(words), eu, testNow)
	if r.Total.Value.StringFixed(2) != "93178.86" || r.Subtotal.Value.StringFixed(2) != "77751.60" || r.TotalTax.Value.StringFixed(2) != "15427.26" {
		t.Errorf("total %s, net %s, tax %s; want 93178.86, 77751.60, 15427.26", r.Total.Value, r.Subtotal.Value, r.TotalTax.Value)
	}
}

// A table that sets a row's amount on the line below, beside the article's
// code, and prints the code before the description.
func TestInvoiceTableAmountOnTheLineBelow(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	page := `Rechnung Nr. 471102
    Pos                                     Beschreibung                                Nettopreis          Menge       Steuersatz        Nettobetrag
    1                 TB100A4               Trennblätter A4                                9,9000           20 Stk            19 %
                      4012345001235                                                                                                            198,00
                      (GTIN)
    2                 ARNR2                 Joghurt Banane                                 5,5000           50 Stk             7%
                      4000050986428                                                                                                            275,00
                                                     Positionssumme                                                                            473,00
                                                     Rechnungssumme ohne USt.                                                                  473,00
                                                     Steuerbetrag                                                                                56,87
                                                     Bruttosumme                                                                               529,87`
	r := ExtractFields(LinesFromText(page), eu, testNow)
	if len(r.LineItems) != 2 || r.LineItems[0].Description.Value != "Trennblätter A4" || r.LineItems[1].LineTotal.Value.StringFixed(2) != "275.00" {
		t.Fatalf("items %+v", r.LineItems)
	}
}

// A due date under its column heading among others ("Beschreibung
// Fälligkeit  Teilzahlung"), beside a sentence that runs to its left.
func TestInvoiceDueDateUnderItsColumnHeading(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	page := `Handelsrechnung Nr. R18-31 vom 03.10.2018
Zahlungsbedingungen:
                      Beschreibung                          Fälligkeit       Teilzahlung
Den Rechnungsbetrag überweisen Sie bitte bis zum
                                                            21.11.2018
21.11.2018 auf das unten angegebene Konto.`
	if r := ExtractFields(LinesFromText(page), eu, testNow); !r.DueDate.Set || r.DueDate.Value.Format("2006-01-02") != "2018-11-21" {
		t.Errorf("due %v (%s), want 2018-11-21", r.DueDate.Value, r.DueDate.Why)
	}
}
