package fields

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// itemAmounts is the items' line totals joined by ";", as the eval labels
// write them.
func itemAmounts(items []receipt.LineItem) string {
	var out []string
	for _, it := range items {
		out = append(out, it.LineTotal.Value.StringFixed(2))
	}
	return strings.Join(out, ";")
}

// The readings below are synthetic phone photos (`shoebox synth --photo
// phone --seed 101`) as Tesseract read them.
func TestTotalMisreadMendedByItsItems(t *testing.T) {
	au := receipt.DefaultLocale(receipt.CountryAU)
	eu := receipt.DefaultLocale(receipt.CountryEU)
	items007 := []string{
		"TAX INVOICE", "Date: 09-04-2025 15:54", "5 x STAPLER $20.85", "1 x HAMMER $48.40", "3 x A4 FOLDERS $136.50",
		"5 x BATTERIES AA $50.90", "1 x MASKING TAPE $2.36",
	}
	for _, tc := range []struct {
		name         string
		loc          receipt.Locale
		lines        []Line
		total, items string
		mended       bool
	}{
		{
			"the GST is the items' share, not the total's", au, lines(append(items007, "TOTAL DUE $259.61", "GST included 10% $23.55")...),
			"259.01", "20.85;48.40;136.50;50.90;2.36", true,
		},
		{
			"the card paid the items' sum", eu, lines("TAX INVOICE", "LIGHT BULB EUR 18,55", "DESK LAMP EUR 51,66", "BALANCE DUE EUR 78,21", "Card EUR 70,21"),
			"70.21", "18.55;51.66", true,
		},
		{"a lost digit, and cash less change is the items' sum", eu, lines("TAX INVOICE", "5 x MASKING TAPE EUR 250,55", "1 x GEL PENS EUR 252,27",
			"GRAND TOTAL EUR 52,82", "CASH EUR 530,00", "CHANGE EUR 27,18"), "502.82", "250.55;252.27", true},
		{"a lost digit, with no cash to confirm it", eu, lines("TAX INVOICE", "5 x MASKING TAPE EUR 250,55", "1 x GEL PENS EUR 252,27",
			"GRAND TOTAL EUR 52,82", "Card EUR 52,82"), "52.82", "", false},
		{"an unsure total over sure items", au, confLines([]string{
			"TAX INVOICE", "1 x EXTENSION LEAD $35.21", "5 x PAINT BRUSH $157.30",
			"BALANCE DUE $192.52", "GST included 10% $17.50",
		}, 0.95, 0.95, 0.95, 0.55, 0.94), "192.51", "35.21;157.30", true},
		{"a sure total over sure items stays", au, confLines([]string{
			"TAX INVOICE", "1 x EXTENSION LEAD $35.21", "5 x PAINT BRUSH $157.30",
			"BALANCE DUE $192.52", "GST included 10% $17.50",
		}, 0.95, 0.95, 0.95, 0.95, 0.94), "192.52", "", false},
		{
			"nothing confirms the items' sum", au, lines(append(items007, "TOTAL DUE $259.61")...),
			"259.61", "", false,
		},
		{
			"the GST is the printed total's share", au, lines(append(items007, "TOTAL DUE $259.61", "GST included 10% $23.60")...),
			"259.61", "", false,
		},
		// The total's 0 against the items' 6 is an item misread, not the
		// total: mendItemZero's case, which this does not take.
		{
			"a 0 in the total is no misread 6", au, lines("TAX INVOICE", "1 x NAILS $12.00", "1 x GLUE $4.55", "TOTAL $10.55", "GST included 10% $1.50"),
			"10.55", "", false,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ExtractFields(tc.lines, tc.loc, testNow)
			if got := r.Total.Value.StringFixed(2); got != tc.total {
				t.Errorf("total %s, want %s", got, tc.total)
			}
			if got := itemAmounts(r.LineItems); got != tc.items {
				t.Errorf("items %q, want %q", got, tc.items)
			}
			if tc.mended && r.Total.Confidence > 0.5 {
				t.Errorf("a mended total at confidence %.2f does not ask for review", r.Total.Confidence)
			}
		})
	}
}

// A subtotal whose word is misread ("Subtotat") reads as one more item: the
// items above it adding up to it make it the subtotal.
func TestSubtotalWithAMisreadWordIsFoundByItsItems(t *testing.T) {
	us := receipt.DefaultLocale(receipt.CountryUS)
	for _, tc := range []struct {
		name            string
		lines           []Line
		subtotal, items string
	}{
		{
			"two items", lines("TAX INVOICE", "Date Sep 13, 2024 16:50", "CABLE TIES $60.85", "WOOD GLUE $17.28", "Subtotat $78.13", "SALES TAX 7% $5.47", "TOTAL $83.60"),
			"78.13", "60.85;17.28",
		},
		{
			"with an item mended by its quantity and price", lines("TAX INVOICE", "Date Nov 11, 2025 10:31", "HAMMER $27.48", "2 @ $13.70", "STAPLER $46.30",
				"MASKING TAPE $48.12", "Subtotat $121.82", "SALES TAX 6% $7.31", "BALANCE DUE $129.13"),
			"121.82", "27.40;46.30;48.12",
		},
		{
			"an item that is not the sum of those above stays an item", lines("TAX INVOICE", "CABLE TIES $60.85", "WOOD GLUE $17.28", "TONER $78.10", "TOTAL $156.23"),
			"", "60.85;17.28;78.10",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ExtractFields(tc.lines, us, testNow)
			sub := ""
			if r.Subtotal.Set {
				sub = r.Subtotal.Value.StringFixed(2)
			}
			if sub != tc.subtotal || itemAmounts(r.LineItems) != tc.items {
				t.Errorf("subtotal %q items %q, want %q and %q", sub, itemAmounts(r.LineItems), tc.subtotal, tc.items)
			}
		})
	}
}

func TestItemAmountsWithALostDecimalPoint(t *testing.T) {
	for _, tc := range []struct {
		name  string
		loc   receipt.Locale
		lines []Line
		items string
	}{
		{"point lost", receipt.DefaultLocale(receipt.CountryUK), lines("TAX INVOICE", "Date 24 Apr 2025 10:57", "SANDWICH £40.41", "GEL PENS £11253", "3 @ £37.51",
			"LIGHT BULB £3331.", "AMOUNT DUE £186.25"), "40.41;112.53;33.31"},
		{
			"point read as a space", receipt.DefaultLocale(receipt.CountryAU), lines("TAX INVOICE", "1 x WOOD GLUE $6.37", "1 x COFFEE $47 60", "TOTAL $53.97"),
			"6.37;47.60",
		},
		{
			"no currency sign, no amount", receipt.DefaultLocale(receipt.CountryAU), lines("TAX INVOICE", "1 x WOOD GLUE $6.37", "1 x COFFEE 4760", "TOTAL $53.97"),
			"",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ExtractFields(tc.lines, tc.loc, testNow)
			if got := itemAmounts(r.LineItems); got != tc.items {
				t.Fatalf("items %q, want %q", got, tc.items)
			}
			for _, it := range r.LineItems {
				if it.LineTotal.Value.StringFixed(2) == "47.60" && it.LineTotal.Confidence > 0.5 {
					t.Errorf("an amount read without its point at confidence %.2f", it.LineTotal.Confidence)
				}
			}
		})
	}
}

// More readings of synthetic phone photos (seed 202) whose items add up
// once one or two misreadings are undone.
func TestItemsMendedUntilTheyAddUp(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	uk := receipt.DefaultLocale(receipt.CountryUK)
	for _, tc := range []struct {
		name  string
		loc   receipt.Locale
		lines []Line
		items string
	}{
		{
			"an amount that lost its point after a price that kept it", eu, lines("TAX INVOICE Date: 25.04.25", "QTY DESCRIPTION PRICE AMOUNT",
				"5 AS FOLDERS EUR 33,35 EUR 166,75", "2. NAILS 1KG EUR 24,29 EUR4858 _", "3 CABLE TIES EUR 36,81 EUR 110,43", "BALANCE DUE EUR 325,76"),
			"166.75;48.58;110.43",
		},
		{"a quantity line with a dot and EUR misread", eu, lines("TAX INVOICE", "Date 04.10.25 1757", "COFFEE EUR 193,84", "4.@ BUR 48,46",
			"SANDWICH EUR 19,56", "BALANCE DUE EUR 213,40"), "193.84;19.56"},
		{"two amounts misread, each against its quantity and price", uk, lines("TAX INVOICE", "Date 04/05/24 19:07", "MASKING TAPE £282.98", "5 @ £56.58",
			"HAMMER £39.86", "DESK LAMP £91.68", "4 @ £22.90", "TOTAL DUE £414.36"), "282.90;39.86;91.60"},
		{"a speck read as a digit inside an amount", eu, lines("TAX INVOICE", "Date 05.09.24 14:44", "HAMMER EUR 53,34", "MASKING TAPE EUR 308,83",
			"NOTEBOOK EUR 45,72", "TOTAL DUE EUR 129,89"), "53.34;30.83;45.72"},
		// Seed 303: a 5 read as S against EUR, a speck read as a third decimal.
		{"a 5 read as S against the currency", eu, lines("TAX INVOICE", "Date 03.05.25 11:58", "NAILS 1KG EUR 26,15", "EXTENSION LEAD EURS,12",
			"STAPLER EUR 48,39", "TOTAL EUR 79,66"), "26.15;5.12;48.39"},
		{"a speck read as a third decimal", eu, lines("TAX INVOICE", "Date: 16.07.2024 13:07", "1 x TONER EUR 25,94", "3 x PAINT BRUSH EUR 25,412",
			"1 x LIGHT BULB EUR 15,01", "GRAND TOTAL EUR 66,36"), "25.94;25.41;15.01"},
		{
			"a stray digit that fits two items is not guessed", eu, lines("TAX INVOICE", "HAMMER EUR 21,00", "TAPE EUR 21,00", "TOTAL DUE EUR 23,00"),
			"",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := itemAmounts(ExtractFields(tc.lines, tc.loc, testNow).LineItems); got != tc.items {
				t.Errorf("items %q, want %q", got, tc.items)
			}
		})
	}
}

// A table whose rows print an item code and the amounts over the item's
// name (SROIE 006 and 513 laid out so): each name is taken from under its
// amounts, and the header's row of currencies is no item's name.
func TestItemNamesUnderTheirAmounts(t *testing.T) {
	descs := func(items []receipt.LineItem) string {
		var out []string
		for _, it := range items {
			out = append(out, it.Description.Value+" "+it.LineTotal.Value.StringFixed(2))
		}
		return strings.Join(out, "; ")
	}
	my := receipt.DefaultLocale(receipt.CountryMY)
	for _, tc := range []struct {
		name  string
		lines []Line
		want  string
	}{
		{"names under, a units row under the header", lines("ACME HARDWARE SDN BHD", "RECEIPT #: CS0388 DATE: 10/05/2017", "ITEM QTY U/P AMOUNT", "(RM) (RM)",
			"120000143 16.00 16.00 S", "WALL SOCKET 15A", "SUB-TOTAL (GST) 16.00", "TOTAL 16.00"), "WALL SOCKET 15A 16.00"},
		{
			"every name under its amounts", lines("ACME MACHINERY", "Doc No. S0040 Date: 11/01/2019", "Item Qty Price Amount Tax",
				"1072 1 80.00 80.00", "REPAIR PUMP (1UNIT)", "workmanship & service", "70349 1 16.00 16.00", "OVERFLOW ASSY", "TOTAL 96.00"),
			"REPAIR PUMP (1UNIT) 80.00; OVERFLOW ASSY 16.00",
		},
		{
			"a stray number between the amounts and the name, a tax code glued to an amount", lines("ACME HARDWARE CENTRE", "10/03/2018 Tax Invoice",
				"Item Qty U.Price RM", "001533 1.00 19.00 19.00SR", "1 0 5", "2kgs. Wood Lacquer Thinner", "000920 1.00 10.00 10.00 SR", "1.5kg. Putty Filler",
				"006828 2.00 2.50 5.00 SR", "Sand Paper Roll", "Total Amt Payable : 34.00"),
			"2kgs. Wood Lacquer Thinner 19.00; 1.5kg. Putty Filler 10.00; Sand Paper Roll 5.00",
		},
		{
			"a marker read as a letter against an amount", lines("ACME STATIONERY", "Receipt No. : CS1802 Date : 12/02/2018", "ITEM QTY U/P AMOUNT",
				"9557546953990 1 0.85 0.85 *", "- FASTER CX5N BALL PEN", "6924238702311 2 0.85 1.70x", "CBE HANDYCUTTER", "TOTAL 2.55"),
			"FASTER CX5N BALL PEN 0.85; CBE HANDYCUTTER 1.70",
		},
		{
			"a rule under the last name is no stray number", lines("ACME HARDWARE", "10/03/2018 Tax Invoice", "Item Qty U.Price RM",
				"001533 1.00 19.00 19.00 SR", "Wood Thinner", "002 1.00 5.00 5.00 SR", "-----", "Cashier: JOHN", "Total 24.00"),
			"",
		},
		{"names above, as most receipts print them", lines("ACME MART", "INVOICE 12 Date: 11/01/2019", "ITEM QTY AMOUNT", "BLEACH 1L", "2 11.50 23.00",
			"DISH SOAP", "1 4.45 4.45", "TOTAL 27.45"), "BLEACH 1L 23.00; DISH SOAP 4.45"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := descs(ExtractFields(tc.lines, my, testNow).LineItems); got != tc.want {
				t.Errorf("items %q, want %q", got, tc.want)
			}
		})
	}
}

// An item whose name is a payment word in the page's language ("CARTA
// A4", paper, is also the card one pays with) does not end the items when
// the items read on to the total add up to it.
func TestAnItemNamedWithAPaymentWord(t *testing.T) {
	page := lines("Caffe Ricci S.n.c.", "Via Dante, 27", "50123 Firenze", "DOCUMENTO COMMERCIALE", "Data: 30/07/2024 16:00",
		"CORNETTO 10% 6,25", "PASTA 500G 10% 17,22", "PILE AA 22% 33,28", "2 x 16,64", "CARTA A4 22% 6,31", "NASTRO ADESIVO 22% 53,89",
		"TOTALE COMPLESSIVO EUR 116,95", "DI CUI IVA 18,99", "PAGAMENTO CARTA EUR 116,95")
	loc := receipt.DefaultLocale(receipt.CountryEU)
	loc.Pack = "IT"
	r := ExtractFields(page, loc, testNow)
	var got []string
	for _, it := range r.LineItems {
		got = append(got, it.LineTotal.Value.StringFixed(2))
	}
	if g := strings.Join(got, ";"); g != "6.25;17.22;33.28;6.31;53.89" {
		t.Errorf("items %q, want the five up to the total", g)
	}
}

// A quantity line under its item reads with its price's $ read as S ("3
// x S1.63" under "STAPLER $4.89"): it is the item's quantity, no item.
func TestQuantityUnderItemWithItsDollarReadAsS(t *testing.T) {
	page := lines("ROY BAKERY LTD.", "61 King St E", "Ottawa ON K1P 1J1", "INVOICE", "Date: 2025-05-18 15:30",
		"STAPLER $4.89", "3 x S1.63", "SANDWICH $28.22", "MASKING TAPE $22.67", "SUBTOTAL $55.78", "HST 13% $7.25", "TOTAL $63.03")
	r := ExtractFields(page, receipt.DefaultLocale(receipt.CountryOther), testNow)
	if len(r.LineItems) != 3 || !r.LineItems[0].Quantity.Value.Equal(decimal.NewFromInt(3)) {
		t.Errorf("items %+v, want three, the first 3 x 1.63", r.LineItems)
	}
}

// A tax class or a marker read against an amount is set apart from it; a
// unit and the euro sign read as an e stay.
func TestAMarkGluedToAnAmountIsSetApart(t *testing.T) {
	for in, want := range map[string]string{
		"19.00SR":             "19.00 SR",
		"MILCH 1,19B":         "MILCH 1,19 B",
		"6924238702311 1.70x": "6924238702311 1.70 x",
		"BANANEN 2.50KG":      "BANANEN 2.50KG",
		"Total HT 13,34e":     "Total HT 13,34e",
		"REF 12.345ABC":       "REF 12.345ABC",
		// Spaces read into an amount's first group or round its
		// apostrophe; a count before an amount stays apart.
		"Summe netto 1 0.617,80": "Summe netto 10.617,80",
		"ZU BEZAHLEN 1 ' 062.60": "ZU BEZAHLEN 1'062.60",
		"TWINT 1 ’062.60":        "TWINT 1'062.60",
		"2 5.000,00":             "2 5.000,00",
		// A date cut after its first hyphen or slash; amounts stay.
		"KASTICKET nr. 1204 24- 12-2024": "KASTICKET nr. 1204 24-12-2024",
		"Date 5/ 12/24":                  "Date 5/12/24",
		"2. 12.50":                       "2. 12.50",
		"ORD #07 -REG #19- 10/03/2018":   "ORD #07 -REG #19- 10/03/2018",
	} {
		if got := mendLineText(lines(in))[0].Text; got != want {
			t.Errorf("%q mended to %q, want %q", in, got, want)
		}
	}
}

// A unit between the quantity and its price ("2 kpl x 3,40", "0,712 kg x
// 3,99", its l read as 1) is still the quantity's: the 1 of "kp1" is not.
func TestAQuantityWithItsUnit(t *testing.T) {
	loc := receipt.DefaultLocale(receipt.CountryEU)
	loc.Pack = "FI"
	r := ExtractFields(lines("LEIPOMO AINO", "14.03.2025 klo 08.47", "Korvapuusti", "2 kp1 x 3,40 6,80",
		"Tomaatti", "0,712 kg x 3,99 2,84", "DIESEL 38,42 L x 1,899 72,96", "Olut 6x0,33L 4,49", "DIESEL 38,64 1 x6,29 243,05", "YHTEENSÄ EUR 330,14"), loc, testNow)
	if len(r.LineItems) != 5 {
		t.Fatalf("items %+v", r.LineItems)
	}
	for i, want := range [][2]string{{"2", "3.4"}, {"0.712", "3.99"}, {"38.42", "1.899"}, {"", ""}, {"38.64", "6.29"}} {
		q, p := r.LineItems[i].Quantity, r.LineItems[i].UnitPrice
		if want[0] == "" && q.Set || want[0] != "" && (q.Value.String() != want[0] || p.Value.String() != want[1]) {
			t.Errorf("item %d: %v × %v, want %s", i, q.Value, p.Value, want)
		}
	}
	for _, f := range receipt.Validate(r, loc, testNow) {
		if strings.Contains(f.Message, "line ") {
			t.Errorf("finding %q", f.Message)
		}
	}
}

// A weight and its price per kilo printed under the item ("0,520 kg x
// 3,80 EUR/kg") are its quantity and unit price.
func TestAWeightUnderItsItem(t *testing.T) {
	r := ExtractFields(lines("MARKET LA SPIGA", "22-10-2025 11:05", "DESCRIZIONE IVA Prezzo(€)", "PANE CASERECCIO 4% 1,98", "0,520 kg x 3,80 EUR/kg",
		"LATTE INTERO 1L 4% 2,98", "2 Stk x 1,49", "TOTALE COMPLESSIVO 4,96"), receipt.DefaultLocale(receipt.CountryEU), testNow)
	if len(r.LineItems) != 2 {
		t.Fatalf("items %+v", r.LineItems)
	}
	for i, want := range [][2]string{{"0.52", "3.8"}, {"2", "1.49"}} {
		if it := r.LineItems[i]; it.Quantity.Value.String() != want[0] || it.UnitPrice.Value.String() != want[1] {
			t.Errorf("item %d: %v × %v, want %s × %s", i, it.Quantity.Value, it.UnitPrice.Value, want[0], want[1])
		}
	}
}
