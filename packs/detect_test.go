package packs

import "testing"

// A US restaurant's receipt: its address tells the country however the
// comma is spaced, and neither a tip's suggested percentages nor the
// English words Canada's French shares ("TABLE") speak for another
// country.
func TestAUSReceiptIsSurelyAmerican(t *testing.T) {
	for _, page := range [][]string{
		{"EL POLLO", "7519 S. ATLANTIC AVE.", "CUDAHY,CA 90201", "Subtotal 12.06", "Tax 1.06", "Total 13.12"},
		{"PAPPA'S", "7800 Airport Blvd", "Houston , Tx 77061", "Table 7", "SUGGESTED GRATUITY", "15% 6.23", "20% 8.31", "Total 41.50"},
		{"THE PALACE", "1427 WASHINGTON AVE. , NEW ORLEANS, LA.", "Table 522 #Party 2", "Server: Laura", "Date 03/12/19", "Sub Total 43.00", "Total 47.09"},
	} {
		d := Detect(page, "US")
		if d.Pack == nil || d.Pack.Country != "US" || !d.Sure || d.Currency != "" {
			t.Errorf("%q: %+v", page[2], d)
		}
	}
}

// The rates a page prints under a tip's label are suggestions, not the
// tax rates of a country that charges them.
func TestATipsPercentagesAreNoTaxRate(t *testing.T) {
	uk, _ := Get("UK")
	page := pageOf([]string{"SUGGESTED GRATUITY", "18% 8.48", "20% 9.42"})
	if r := page.taxRate(uk); r != "" {
		t.Errorf("tip suggestions read as the tax rate %s%%", r)
	}
	if r := pageOf([]string{"VAT 20% 1.50"}).taxRate(uk); r != "20" {
		t.Errorf("VAT 20%%: rate %q", r)
	}
}

// A rate with decimals is the country's printed with a trailing zero too.
func TestADecimalRateWithItsTrailingZero(t *testing.T) {
	fr, _ := Get("FR")
	for line, want := range map[string]string{"TVA 5,50 % 0,52": "5.5", "TVA 5,5% 0,52": "5.5", "TVA 5,55 % 0,52": "", "TVA 20,00 % 1,00": "20"} {
		if r := pageOf([]string{line}).taxRate(fr); r != want {
			t.Errorf("%q: rate %q, want %q", line, r, want)
		}
	}
}

// A currency with no pack is still the page's where its code stands
// beside an amount (a Bulgarian receipt's BGN, a Romanian one's RON),
// never the client's; a Polish receipt is Poland's, in its złoty.
func TestTheCurrencyCodeOfACountryWithoutAPack(t *testing.T) {
	for _, tc := range []struct {
		page []string
		want string
	}{
		{[]string{"KAUFLAND BULGARIA EOOD", "ОБЩА СУМА 12.34 BGN", "В БРОЙ 20.00 BGN"}, "BGN"},
		{[]string{"MEGA IMAGE SRL", "TOTAL 45,10 RON"}, "RON"},
		{[]string{"PARAGON FISKALNY", "SPRZEDAŻ OPODATKOWANA A 12,30", "PTU A 23,00% 2,30", "SUMA PLN 12,30", "GOTÓWKA 20,00", "RESZTA 7,70"}, "PLN"},
	} {
		if d := Detect(tc.page, "AU"); d.Currency != tc.want {
			t.Errorf("%q: currency %q, want %q (%s)", tc.page[0], d.Currency, tc.want, d.Why)
		}
	}
	if d := Detect([]string{"PARAGON FISKALNY", "SUMA PLN 12,30", "PTU A 23,00% 2,30", "RESZTA 7,70"}, "AU"); d.Pack == nil || d.Pack.Country != "PL" || !d.Sure {
		t.Errorf("a Polish receipt in an Australian library: %+v", d)
	}
}

// Words that look like currency marks are not: "cad." (Italian for each)
// beside a price, and Rome's province "(RM)" after the town, on Italian
// pages that print no euro sign the reader kept. A Malaysian page's
// "Amt (RM)" heading still names ringgit.
func TestWordsThatLookLikeCurrencyMarks(t *testing.T) {
	for _, tc := range []struct {
		page []string
		want string
	}{
		{[]string{"CAFFE DEL PORTICO", "40125 Bologna (BO)", "P. IVA 04829170358", "DOCUMENTO COMMERCIALE", "TOTALE COMPLESSIVO 11,50", "di cui IVA 1,05", "Consumazione al tavolo +0,50 cad."}, ""},
		{[]string{"LA PERGOLETTA", "00153 Roma (RM)", "P. IVA 11346082974", "DOCUMENTO COMMERCIALE", "TOTALE COMPLESSIVO 26,50", "di cui IVA 2,41"}, ""},
		{[]string{"MAPLE LEAF OUTFITTERS", "TOTAL 12.50 CAD"}, "CAD"},
		{[]string{"YUM'S RESTAURANT", "Server 347", "SEK", "TOTAL 22.03"}, ""},
		{[]string{"KEDAI RUNCIT MAJU SDN BHD", "GST Summary Amt (RM) Tax (RM)", "SR 6% 10.00 0.60", "TOTAL 10.60"}, "MYR"},
	} {
		if d := Detect(tc.page, "EU"); d.Currency != tc.want {
			t.Errorf("%q: currency %q, want %q (%s)", tc.page[0], d.Currency, tc.want, d.Why)
		}
	}
}
