package fields

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

func TestTotalFromSubtotal(t *testing.T) {
	my := receipt.PlausibleRates(receipt.CountryMY)
	for _, tc := range []struct {
		name     string
		sub, tax int64 // cents; tax < 0: none read
		rates    bool
		want     int64 // cents; < 0: no total
	}{
		{"tax included: the subtotal is the total", 2870, 162, true, 2870},
		{"tax on top", 10000, 600, true, 10600},
		{"no tax read", 1250, -1, true, 1250},
		{"a tax that fits no rate", 10000, 137, true, -1},
		{"no rates known", 10000, 600, false, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := receipt.Receipt{Subtotal: receipt.Amount{Value: decimal.New(tc.sub, -2), Set: true, Confidence: 0.8}}
			if tc.tax >= 0 {
				r.TotalTax = receipt.Amount{Value: decimal.New(tc.tax, -2), Set: true}
			}
			rates := my
			if !tc.rates {
				rates = nil
			}
			totalFromSubtotal(&r, rates)
			switch {
			case tc.want < 0 && r.Total.Set:
				t.Errorf("total %v, want none", r.Total.Value)
			case tc.want >= 0 && (!r.Total.Set || !r.Total.Value.Equal(decimal.New(tc.want, -2))):
				t.Errorf("total %v (set %v), want %v", r.Total.Value, r.Total.Set, decimal.New(tc.want, -2))
			case r.Total.Set && r.Total.Confidence >= r.Subtotal.Confidence:
				t.Errorf("a total worked out from the subtotal is as sure as the subtotal (%v)", r.Total.Confidence)
			}
		})
	}
}

// A card terminal that was given a tip prints the amount, the tip and the
// total paid; the total before the tip, printed more often, is not what
// was paid. A tip guide or a tip line left blank changes nothing.
func TestTheTotalAfterTheTipTheSlipPrints(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	us := receipt.DefaultLocale(receipt.CountryUS)
	for _, tc := range []struct {
		name  string
		loc   receipt.Locale
		page  []string
		total string
	}{
		{"tip and total on the slip", receipt.DefaultLocale("other"), []string{"BISTRO DU COIN", "2024/03/15 22:04", "Sous-total / Subtotal 168.50", "TPS / GST 5% 8.43", "TVQ / QST 9,975% 16.81", "TOTAL 193.74 $", "CUSTOMER COPY", "VISA ************2219", "MONTANT / AMOUNT 193.74 $", "POURBOIRE / TIP 30.00 $", "TOTAL 223.74 $", "APPROVED"}, "223.74"},
		{"paid by card after the tip", eu, []string{"LE PETIT ZINC", "12/10/2024 21:15", "PLAT DU JOUR 18,50", "TOTAL TTC 76,50 €", "POURBOIRE 4,00 €", "PAYÉ CB 80,50 €"}, "80.5"},
		{"amount after the tip", eu, []string{"RESTAURACJA POD LIPAMI SP. Z O.O.", "Data: 2024-11-22 19:58", "SUMA PLN 169,00", "Kwota sprzedaży: 169,00 PLN", "Napiwek: 17,00 PLN", "KWOTA: 186,00 PLN"}, "186"},
		{"a tip one digit from the total before it", us, []string{"MAPLE & RYE", "10/26/2024 8:14 PM", "Subtotal 98.00", "Tax 11.52", "Amount Due $109.52", "Tip: $20.00", "Total: $129.52"}, "129.52"},
		{"a tip guide", us, []string{"HARBOR GRILL", "03/15/2024 8:37 PM", "Subtotal 128.00", "Tax 8.96", "Total 136.96", "Suggested Gratuity", "18% = $23.04", "20% = $25.60"}, "136.96"},
		{"a tip left blank", us, []string{"HARBOR GRILL", "03/15/2024 8:37 PM", "Subtotal 128.00", "Tax 8.96", "Total 136.96", "Amount: $136.96", "Tip:", "Total:"}, "136.96"},
		{"a tip that does not add up", us, []string{"HARBOR GRILL", "03/15/2024 8:37 PM", "Subtotal 128.00", "Tax 8.96", "Total 136.96", "Amount: $136.96", "Tip: 20.00", "Total: 158.96"}, "136.96"},
	} {
		r := ExtractFields(lines(tc.page...), tc.loc, testNow)
		if r.Total.Value.String() != tc.total {
			t.Errorf("%s: total %s (%s), want %s", tc.name, r.Total.Value, r.Total.Why, tc.total)
		}
	}
}

// The items of a bill paid by card with a tip add up to the total before
// the tip: with it they confirm the total the slip prints, and they are
// kept (Tesseract's reading without the slip had won with the items'
// arithmetic behind it).
func TestTheItemsConfirmTheTotalAfterTheTip(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	page := lines("THE CROOKED FIDDLE", "Date: 23/08/2024 Time: 21:16", "2 x Seafood Chowder 19.00", "1 x Fish & Chips 18.50",
		"1 x Apple Crumble 7.50", "Balance Due 45.00", "CUSTOMER COPY", "SALE 45.00", "GRATUITY 5.00", "TOTAL 50.00", "APPROVED")
	r := ExtractFields(page, eu, testNow)
	Assess(&r, page, eu, testNow)
	if r.Total.Value.String() != "50" || len(r.LineItems) != 3 || !receipt.HasSupport(r.Total.Support, receipt.EvidenceArithmetic) {
		t.Errorf("total %s (%s), %d items, support %s", r.Total.Value, r.Total.Why, len(r.LineItems), kinds(r.Total.Support))
	}
	for _, f := range receipt.Validate(r, eu, testNow) {
		if strings.Contains(f.Message, "line items") {
			t.Errorf("finding %q", f.Message)
		}
	}
}

// A label printed letter by letter is read as its words, and the amount to
// pay after a cash rounding is the total.
func TestTotalsPrintedLetterByLetterOrToPay(t *testing.T) {
	for _, tc := range []struct {
		name  string
		loc   receipt.Locale
		page  []string
		total string
	}{
		{"Z U  Z A H L E N, paid in two parts", receipt.DefaultLocale(receipt.CountryEU), []string{"MARKT GRUBER", "08.03.2025 10:12", "Semmel 0,45", "Z U  Z A H L E N EUR 52,18", "Bar 20,00", "Bankomat 32,18", "Betrag EUR 32,18"}, "52.18"},
		{"Z U ZAHLEN, half joined by the reader", receipt.DefaultLocale(receipt.CountryEU), []string{"MARKT GRUBER", "08.03.2025 10:12", "Semmel 0,45", "Z U ZAHLEN EUR 52,18", "Bar 20,00", "Bankomat 32,18", "Betrag EUR 32,18"}, "52.18"},
		{"S U M A  P L N", receipt.DefaultLocale(receipt.CountryEU), []string{"SKLEP POD DĘBEM SP. Z O.O.", "2024-05-11 12:40", "PARAGON FISKALNY", "CHLEB 169,18 C", "S U M A   P L N 169,18", "KARTA 100,00", "GOTÓWKA 69,18"}, "169.18"},
		{"to pay, after a cash rounding", receipt.DefaultLocale(receipt.CountryNZ), []string{"KOWHAI BAKERY", "15/03/2024 09:12", "Pie 16.45", "Total $16.45", "Cash rounding +0.05", "To pay (cash) $16.50", "Cash 20.00", "Change 3.50"}, "16.5"},
	} {
		r := ExtractFields(lines(tc.page...), tc.loc, testNow)
		if r.Total.Value.String() != tc.total {
			t.Errorf("%s: total %s (%s), want %s", tc.name, r.Total.Value, r.Total.Why, tc.total)
		}
	}
}

// An exchange prints what is returned and what is sold, each with its
// total: the receipt's total is the one its subtotal and tax make.
func TestAnExchangesTotalIsTheOneItsSumsMake(t *testing.T) {
	page := lines("RIDGEWAY HARDWARE", "06/03/2023 SAT 10:37 AM", "*** EXCHANGE ***", "RETURN ORIG REC 05/20/2023",
		"20V CORDLESS DRILL KIT -89.99 T", "SALE", "20V IMPACT DRIVER KIT 129.00 T", "DRILL BIT SET 24.97 T", "3 EA @ 7.49 22.47 T",
		"RETURN TOTAL -89.99", "SALE TOTAL 176.44", "NET SUBTOTAL 86.45", "CO STATE TAX 2.90% 2.51", "DENVER CITY TAX 4.81% 4.16",
		"RTD TAX 1.00% 0.86", "SCFD TAX 0.10% 0.09", "TOTAL TAX 7.62", "TOTAL 94.07", "DISCOVER 94.07", "CHANGE 0.00")
	r := ExtractFields(page, receipt.DefaultLocale(receipt.CountryUS), testNow)
	if r.Total.Value.String() != "94.07" {
		t.Errorf("total %s (%s), want 94.07", r.Total.Value, r.Total.Why)
	}
}

// A till where tourists pay prints the total again in their currency: the
// receipt's total is the one in the page's own.
func TestATotalInAnotherCurrencyIsNoReadingOfTheTotal(t *testing.T) {
	for name, tc := range map[string]struct {
		page  []Line
		total string
	}{
		"Swiss station shop, euros larger": {lines("PERRON SHOP", "Perron Retail GmbH, Bahnhofquai 3", "4600 Olten", "Datum: 2025-07-04 Zeit: 06:52",
			"Sandwich 6.90", "Kaffee 4.50", "USB-C Ladekabel 19.90", "Zigaretten 20.15", "TOTAL CHF 51.45", "Total in EUR 55.92",
			"Bar EUR 60.00 zu Kurs 0.92", "= CHF 55.20", "Rückgeld CHF 3.75", "MWST 8.1% 2.23"), "51.45"},
		"Spanish restaurant, pounds": {lines("LA CARACOLA", "CIF: B29618733", "12/08/2025 21:40", "Paella 2 x 18,50 37,00", "Vino 22,00",
			"TOTAL 59,00 €", "Total GBP aprox. 51,30", "TARJETA 59,00 €"), "59"},
	} {
		r := ExtractFields(tc.page, receipt.DefaultLocale(receipt.CountryEU), testNow)
		if r.Total.Value.String() != tc.total {
			t.Errorf("%s: total %s (%s), want %s", name, r.Total.Value, r.Total.Why, tc.total)
		}
	}
}

// A total whose dollar sign was read as a digit before it ("554.46" for
// $54.46) is the amount its subtotal and tax make.
func TestADollarSignReadAsADigitBeforeTheTotal(t *testing.T) {
	page := lines("DRIFTLESS ACRES", "Aug 16, 2025 at 9:42 AM", "Heirloom Tomatoes $10.80", "Salad Mix $6.00", "Pasture Eggs $14.00",
		"Raw Wildflower Honey $11.00", "Beeswax Candles $12.00", "Subtotal $53.80", "WI Sales Tax (5.5%) $0.66", "Total 554.46")
	r := ExtractFields(page, receipt.DefaultLocale(receipt.CountryUS), testNow)
	if r.Total.Value.String() != "54.46" {
		t.Errorf("total %s (%s), want 54.46", r.Total.Value, r.Total.Why)
	}
	// A page that prints no dollar sign has none to misread.
	page = lines("DRIFTLESS ACRES", "Aug 16, 2025 at 9:42 AM", "Heirloom Tomatoes 10.80", "Salad Mix 6.00", "Pasture Eggs 14.00",
		"Raw Wildflower Honey 11.00", "Beeswax Candles 12.00", "Subtotal 53.80", "WI Sales Tax (5.5%) 0.66", "Total 554.46")
	if r := ExtractFields(page, receipt.DefaultLocale(receipt.CountryUS), testNow); r.Total.Value.String() == "54.46" {
		t.Errorf("total %s (%s) on a page with no dollar sign", r.Total.Value, r.Total.Why)
	}
}

// An item of a simplified invoice whose name is a credit note's word
// ("ABONO", a fertiliser) makes no credit note of it.
func TestAnItemNamedLikeACreditNoteIsNoTitle(t *testing.T) {
	loc := receipt.DefaultLocale(receipt.CountryEU)
	loc.Pack = "ES"
	page := lines("VIVEROS EL OLIVAR", "CIF B46815379", "FACTURA SIMPLIFICADA", "Fecha: 22/03/2025 Hora: 11:48",
		"CANT DESCRIPCION IVA IMPORTE", "1 OLIVO ARBEQUINA M25L 10% 34,95", "1 ABONO LIQUIDO 1L 10% 6,45", "TOTAL 41,40", "TARJETA 41,40", "IVA INCLUIDO")
	// The reader's cells, cut at the columns' gaps.
	page[6].Cells = []Cell{{Text: "1", X0: 10, X1: 18}, {Text: "ABONO LIQUIDO 1L", X0: 60, X1: 220}, {Text: "10%", X0: 300, X1: 330}, {Text: "6,45", X0: 380, X1: 420}}
	r := ExtractFields(page, loc, testNow)
	if r.Total.Value.String() != "41.4" || r.DocType.Value == receipt.DocCreditNote {
		t.Errorf("total %s (%s), a %s", r.Total.Value, r.Total.Why, r.DocType.Value)
	}
}

// A restaurant's bill whose subtotal already holds the tax (its MWST
// table's gross) and whose card slip adds a tip is not doubted for a net
// and tax that make another sum.
func TestATaxInclusiveSubtotalAndTipRaiseNoDoubt(t *testing.T) {
	loc := receipt.DefaultLocale(receipt.CountryOther)
	loc.Pack = "CH"
	page := lines("Wirtshaus Rössli-Reuss", "Rössli-Reuss Gastro AG", "Sankt-Karli-Quai 7", "6004 Luzern", "Rechnung Nr. 2024-18833",
		"Sa. 12.10.2024 19:48", "2 Luzerner Chügelipastete 34.50 69.00 A", "1 Zürcher Geschnetzeltes 42.00 42.00 A",
		"2 Rivella rot 33cl 5.20 10.40 A", "1 Pinot Noir Karaffe 5dl 29.00 29.00 A", "1 Coupe Dänemark 12.50 12.50 A",
		"1 Nusstorte z. Mitnehmen 14.50 14.50 B", "Zwischensumme 177.40", "Total CHF 177.40",
		"MWST-Nr. CHE-109.473.629 MWST", "Code Satz Netto MWST Brutto", "A 8.1% 150.69 12.21 162.90", "B 2.6% 14.13 0.37 14.50",
		"Total 164.82 12.58 177.40", "Zahlung Mastercard 177.40", "Trinkgeld 2.60", "Belastet Total CHF 180.00")
	r := ExtractFields(page, loc, testNow)
	Assess(&r, page, loc, testNow)
	if r.Total.Value.String() != "180" || strings.Contains(r.Total.Doubt, "net") {
		t.Errorf("total %s (%s), doubt %q", r.Total.Value, r.Total.Why, r.Total.Doubt)
	}
	if r.TotalTax.Set && r.TotalTax.Value.Equal(r.Tip.Value) {
		t.Errorf("the tip %s taken for the tax (%s)", r.Tip.Value, r.TotalTax.Why)
	}
}

// What a tourist paid in their currency ("Bar EUR 60.00 zu Kurs 0.92" on a
// Swiss till) is no amount paid in the page's: neither 60.00 nor the rate.
func TestAPaymentInAnotherCurrencyIsNoAmountPaid(t *testing.T) {
	loc := receipt.DefaultLocale(receipt.CountryEU)
	page := lines("PERRON SHOP", "Perron Retail GmbH, Bahnhofquai 3", "4600 Olten", "Datum: 2025-07-04 Zeit: 06:52",
		"Sandwich 6.90", "Kaffee 4.50", "USB-C Ladekabel 19.90", "Zigaretten 20.15", "TOTAL CHF 51.45", "Total in EUR 55.92",
		"Bar EUR 60.00 zu Kurs 0.92", "= CHF 55.20", "Rückgeld CHF 3.75", "MWST 8.1% 2.23")
	r := ExtractFields(page, loc, testNow)
	if r.Total.Value.String() != "51.45" || r.AmountPaid.Set && !r.AmountPaid.Value.Equal(decimal.RequireFromString("55.20")) {
		t.Errorf("total %s, paid %s (%s)", r.Total.Value, r.AmountPaid.Value, r.AmountPaid.Why)
	}
}
