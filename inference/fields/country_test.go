package fields

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// A country is data: a pack for a made-up country, loaded as any other
// is, lets the same rules read that country's receipt — its words for
// total, cash and change, its decimal comma, month names and currency.
func TestAMadeUpCountryPackReadsItsReceipt(t *testing.T) {
	fsys := fstest.MapFS{
		"zz/languages/zz.json": {Data: []byte(`{"language": "zz", "name": "Zedish",
			"labels": {"TOTAL": ["ZUMMAZ"], "SUBTOTAL": ["PARZUMMAZ"], "CASH": ["KASHEZ"], "CHANGE": ["RESTEZ"], "TAX": ["ZVAT"], "DATE": ["DAZ"]},
			"evidence": ["DANKEZ", "ZUMMAZ", "KASHEZ"],
			"months": {"ZEPTEMBRO": 9, "ZEP": 9}}`)},
		"zz/countries/zz.json": {Data: []byte(`{"country": "ZZ", "name": "Zedland", "jurisdiction": "other", "languages": ["zz"],
			"currency": "ZZD", "currency_marks": ["ZED"], "decimal_comma": true, "date_order": "DMY",
			"legal_forms": ["ZAG"], "tax_words": ["ZVAT"], "tax_rates": ["10"], "evidence": ["ZEDLAND"]}`)},
	}
	if err := packs.Load(fsys, "zz"); err != nil {
		t.Fatal(err)
	}
	page := lines("ZEDCO ZAG", "1 Long Road, Zedtown", "DAZ 14 Zeptembro 2025", "Bread 3,50", "Milk 1,25",
		"PARZUMMAZ 4,75", "ZVAT 10% 0,48", "ZUMMAZ ZED 5,23", "KASHEZ 10,00", "RESTEZ 4,77", "DANKEZ")
	loc := receipt.DefaultLocale(receipt.CountryAU) // a client elsewhere
	r := ExtractFields(page, loc, testNow)
	if got := r.Total.Value.String(); !r.Total.Set || got != "5.23" {
		t.Errorf("total = %q, want 5.23", got)
	}
	if got := r.Date.Value.Format("2006-01-02"); got != "2025-09-14" {
		t.Errorf("date = %s, want 2025-09-14", got)
	}
	if r.Currency.Value != "ZZD" || r.Currency.Confidence < receipt.LowConfidence {
		t.Errorf("currency = %q at %.2f, want ZZD as printed", r.Currency.Value, r.Currency.Confidence)
	}
	if r.AmountPaid.Value.String() != "10" {
		t.Errorf("amount paid = %s, want 10", r.AmountPaid.Value)
	}
}

// The page's currency wins over the client's: a German receipt that prints
// EUR, a Malaysian one that prints RM, a Polish one that prints PLN and a
// Bulgarian one in Cyrillic that prints лв, read in an Australian client's
// library, are EUR, MYR, PLN and BGN, never AUD; and their own rules read them (the
// German total from its words and decimal comma).
func TestTheCurrencyIsThePagesNotTheClients(t *testing.T) {
	au := receipt.DefaultLocale(receipt.CountryAU)
	for _, tc := range []struct {
		name, total, currency string
		page                  []Line
	}{
		{"German supermarket", "24.23", "EUR", lines("REWE Markt GmbH", "Hauptstr. 5, 50667 Köln", "03.04.2020 18:02",
			"Milch 1,19 A", "Brot 23,04 A", "SUMME EUR 24,23", "Geg. Bar EUR 40,00", "Rückgeld EUR 15,77",
			"MwSt% Netto MwSt Brutto", "A 7% 22,64 1,59 24,23")},
		{"Malaysian shop", "12.5", "MYR", lines("KEDAI RUNCIT MAJU SDN BHD", "NO 5, JALAN BESAR", "43000 KAJANG, SELANGOR",
			"GST ID: 000123456789", "12/03/2018", "TOTAL (RM) 12.50", "CASH 20.00", "CHANGE 7.50")},
		{"Polish bakery", "13.06", "PLN", lines("Piekarnia Nowak Sp. z o.o.", "ul. Długa 5, 00-238 Warszawa", "NIP 526-025-02-74",
			"2024-05-12", "PARAGON FISKALNY", "Chleb 3,49 C", "Mleko 2x2,79 5,58 C", "Piwo 3,99 A",
			"SPRZEDAŻ OPODATKOWANA A 3,99", "PTU A 23,00% 0,75", "SPRZEDAŻ OPODATKOWANA C 9,07", "PTU C 5,00% 0,43",
			"SUMA PTU 1,18", "SUMA PLN 13,06", "Gotówka 20,00 PLN", "Reszta 6,94 PLN")},
		{"Bulgarian shop, in Cyrillic", "13.28", "BGN", lines("КАУФЛАНД БЪЛГАРИЯ ЕООД", "гр. София, бул. Витоша 12", "ЕИК 131129282",
			"ХЛЯБ 1.89 Б", "МЛЯКО 2.49 Б", "СИРЕНЕ 8.90 Б", "ОБЩА СУМА 13.28 лв", "В БРОЙ 20.00 лв", "РЕСТО 6.72 лв",
			"ДДС Б = 20.00% 2.21", "12.03.2019 14:22", "ФИСКАЛЕН БОН")},
		// A Swedish till prints the year first with two digits and its
		// prices in kronor ("kr"); a Finnish one in Swedish is in euros.
		{"Swedish bakery", "86.5", "SEK", lines("Bageri Lindqvist HB", "Vasagatan 45", "111 52 Stockholm", "Org.nr 556123-4567",
			"KVITTO", "Datum: 24-03-28 08:10", "KANELBULLE 2 x 32,00 64,00", "KAFFE 22,50", "TOTALT 86,50 kr", "KONTANT 100,00 kr", "VÄXEL 13,50 kr",
			"MOMS % NETTO MOMS BRUTTO", "12% 77,23 9,27 86,50", "TACK FÖR BESÖKET")},
		{"Finnish café, in Swedish", "12.4", "EUR", lines("Kafé Strandén Ab", "Storagatan 3, 22100 Mariehamn", "FO-nummer 1234567-1",
			"KVITTO", "21.11.2024 16.05", "Kaffe 3,40", "Smörgås 9,00", "TOTALT 12,40", "KONTANT 20,00", "VÄXEL 7,60", "MOMS 14% 1,52", "Tack för besöket!")},
		// Danish and Norwegian tills print "kr", as Swedish ones do: the
		// page's words tell the crowns. A Swiss till prints CHF, and its
		// total again in euros for tourists.
		{"Danish café", "92", "DKK", lines("Café Havnely ApS", "Nyhavn 17", "1051 København K", "CVR-nr. 13585601",
			"Dato: 14.03.2025 kl. 10.42", "Kaffe latte 2 x 42,00 84,00", "Croissant 28,00", "Rabat -20,00", "I ALT kr. 92,00",
			"Dankort kr. 92,00", "Heraf moms 25% kr. 18,40", "Tak for besøget")},
		{"Norwegian grocery", "154.7", "NOK", lines("Nærkjøp Solheim AS", "Storgata 12", "0155 Oslo", "Org.nr. 923 609 016 MVA",
			"KVITTERING", "Melk 1 l 24,90", "Brød 39,90", "Ost 89,90", "Pant 2 x 3,00", "Pantretur -6,00", "TOTALT 154,70",
			"BankAxept 154,70", "Herav mva 15% 20,18", "17.01.2025 18:03", "Takk for handelen")},
		{"Swiss restaurant", "86.4", "CHF", lines("Restaurant Zum Alten Bären", "Marktgasse 8", "3011 Bern", "MWST-Nr. CHE-116.281.710 MWST",
			"Tisch 4 22.02.2025 19:48", "2 Rösti 24.50 49.00", "1 Bier 0.5l 7.90", "2 Kaffee 4.90 9.80", "1 Apfelstrudel 9.50",
			"Total CHF 76.20", "Trinkgeld 10.20", "Total CHF 86.40", "TWINT CHF 86.40", "Total EUR 90.80", "MWST 8.1% inkl. 5.71")},
		// No pack reads its words (its total is not checked here); its
		// currency is the code it prints all the same.
		{"receipt in lei", "", "RON", lines("SHOP", "12.03.2018", "TOTAL 12.34 RON", "NUMERAR 20.00 RON", "REST 7.66 RON")},
	} {
		r := ExtractFields(tc.page, au, testNow)
		if r.Currency.Value != tc.currency {
			t.Errorf("%s: currency %q (%s), want %s", tc.name, r.Currency.Value, r.Currency.Why, tc.currency)
		}
		if tc.total != "" && r.Total.Value.String() != tc.total {
			t.Errorf("%s: total %s, want %s", tc.name, r.Total.Value, tc.total)
		}
		f := receipt.Validate(r, au, testNow)
		foreign := false
		for _, x := range f {
			foreign = foreign || x.Code == receipt.FindForeignCurrency
		}
		if !foreign {
			t.Errorf("%s: no finding that the receipt is in a foreign currency: %v", tc.name, f)
		}
	}
	// A British till slip whose pound signs the reader lost, in a euro
	// client's library: its English words and tax word would be Ireland's,
	// but its VAT number is a British one with a valid check.
	eu := receipt.DefaultLocale(receipt.CountryEU)
	uk := lines("THE GOLDEN", "PLAICE", "14 Pier Road, Whitby", "Tel 01632 960288", "21/02/2025 18:22 TILL 1",
		"1 COD & CHIPS 10.50", "1 HADDOCK LARGE 9.80", "TOTAL 20.30", "CASH 40.00", "CHANGE 19.70",
		"VAT 20% NET 16.92 VAT 3.38", "Marsden Fisheries Ltd", "VAT No. 773 1804 26")
	if r := ExtractFields(uk, eu, testNow); r.Currency.Value != "GBP" {
		t.Errorf("a British slip in a euro library: currency %q (%s), want GBP", r.Currency.Value, r.Currency.Why)
	}
	// The same words without the VAT number are the client's prior's.
	if r := ExtractFields(uk[:len(uk)-1], eu, testNow); r.Currency.Value != "EUR" {
		t.Errorf("an English slip without its VAT number in a euro library: currency %q (%s), want the client's EUR", r.Currency.Value, r.Currency.Why)
	}
	// A page that prints no currency and says nothing of its country is
	// the client's currency, assumed: asked, not ready.
	r := ExtractFields(lines("CORNER SHOP", "12/03/2024", "TOTAL 9.00"), au, testNow)
	if r.Currency.Value != "AUD" || r.Currency.Confidence >= receipt.LowConfidence {
		t.Errorf("a page without currency: %q at %.2f, want AUD assumed (below %.2f)", r.Currency.Value, r.Currency.Confidence, receipt.LowConfidence)
	}
	if why := receipt.Unready(r, nil); !containsPrefix(why, "currency not printed") {
		t.Errorf("a page without currency is ready or says otherwise: %v", why)
	}
}

func containsPrefix(ss []string, p string) bool {
	for _, s := range ss {
		if len(s) >= len(p) && s[:len(p)] == p {
			return true
		}
	}
	return false
}

// A VAT table is read in the page's language, its rows' net, tax and
// gross in whatever order they are printed.
func TestVATTablesInTheirLanguage(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	for name, tc := range map[string]struct {
		page []Line
		want string
	}{
		"German": {lines("REWE Markt GmbH", "50667 Köln", "03.04.2020", "Milch 1,19 B", "Wein 463,27 A", "SUMME EUR 533,68",
			"MwSt% Netto MwSt Brutto", "A 19% 389,30 73,97 463,27", "B 7% 65,80 4,61 70,41"), "19:73.97;7:4.61"},
		"French, gross first": {lines("CHEZ ALAIN SARL", "75003 Paris", "23/08/2022", "TOTAL TTC 36,00",
			"TVA TTC HT TVA", "20% 24,00 20,00 4,00", "10% 12,00 10,91 1,09"), "20:4.00;10:1.09"},
		// A pack's tax words are the tax lines' words: Canada's HST.
		"Canadian HST": {lines("ROY BAKERY LTD.", "3 Queen St W", "Ottawa ON K1P 1J1", "01/07/2025", "SCONE $42.46",
			"SUBTOTAL $238.63", "HST 13% $31.02", "TOTAL $269.65"), "13:31.02"},
	} {
		r := ExtractFields(tc.page, eu, testNow)
		var got []string
		for _, tl := range r.TaxLines {
			got = append(got, tl.Rate.Value.String()+":"+tl.Tax.Value.StringFixed(2))
		}
		if g := strings.Join(got, ";"); g != tc.want {
			t.Errorf("%s: tax lines %q, want %q", name, g, tc.want)
		}
	}
}

// A country's places are data too: the words its addresses print and its
// post towns' postcodes, from its pack, mend its own pages' misreads and
// no other country's.
func TestAMadeUpCountrysPlacesMendItsAddresses(t *testing.T) {
	fsys := fstest.MapFS{
		"zp/languages/zp.json": {Data: []byte(`{"language": "zp", "name": "Zeplish",
			"labels": {"TOTAL": ["ZUMMAZ"], "DATE": ["DAZ"]}, "evidence": ["DANKEZ", "ZUMMAZ"],
			"street_words": ["ZTRAAT"]}`)},
		"zp/countries/zp.json": {Data: []byte(`{"country": "ZP", "name": "Zepland", "jurisdiction": "other", "languages": ["zp"],
			"currency": "ZPD", "currency_marks": ["ZPD"], "date_order": "DMY", "evidence": ["ZEPLAND"],
			"places": {"words": ["ZTRAAT", "PLEINZ"], "streets": ["KORNWALLEN"], "towns": {"ZEPTOWN": [[12300, 12399]]}}}`)},
	}
	if err := packs.Load(fsys, "zp"); err != nil {
		t.Fatal(err)
	}
	zp, _ := packs.Get("ZP")
	lx := lexiconOf(zp)
	if got := lx.mendAddressText("7 KORNWALLIN ZTRQAT"); got != "7 KORNWALLEN ZTRAAT" {
		t.Errorf("Zepland address mended to %q, want its place words", got)
	}
	if got := lx.mendTownPostcode("7 KORNWALLEN ZTRAAT, 12845 ZEPTOWN"); got != "7 KORNWALLEN ZTRAAT, 12345 ZEPTOWN" {
		t.Errorf("Zepland postcode mended to %q, want its town's 12345", got)
	}
	if got := lx.mendNameWords("KORNWALLIN PLFINZ"); got != "KORNWALLIN PLEINZ" {
		t.Errorf("Zepland name mended to %q: a place word in names, a street name only in addresses", got)
	}
	for _, other := range []string{"MY", "DE", "US"} {
		pk, _ := packs.Get(other)
		if got := lexiconOf(pk).mendAddressText("7 KORNWALLIN ZTRQAT"); got != "7 KORNWALLIN ZTRQAT" {
			t.Errorf("%s page mended Zepland's words: %q", other, got)
		}
	}
	// And Malaysia's are Malaysia's: JALAN is mended on a Malaysian page,
	// not on a Zepland one.
	my, _ := packs.Get("MY")
	if got := lexiconOf(my).mendAddressText("NO 5, JAIAN BESAR"); got != "NO 5, JALAN BESAR" {
		t.Errorf("Malaysian page: %q", got)
	}
	if got := lx.mendAddressText("NO 5, JAIAN BESAR"); got != "NO 5, JAIAN BESAR" {
		t.Errorf("Zepland page mended to a Malaysian street word: %q", got)
	}
}

// Bulgaria pays in euros from 2026: a receipt is in the currency in force
// on its day, whether it prints none (its words say it is Bulgarian), or
// prints both (the dual display around the change), and its total is the
// one in that currency, whichever of the two the labels put first.
func TestTheCurrencyInForceOnTheReceiptsDay(t *testing.T) {
	au := receipt.DefaultLocale(receipt.CountryAU)
	head := []string{"КАУФЛАНД БЪЛГАРИЯ ЕООД", "гр. София, бул. Витоша 12", "ЕИК 131129282", "ФИСКАЛЕН БОН"}
	for _, tc := range []struct {
		name, total, currency string
		body                  []string
	}{
		{"2019, no mark", "13.28", "BGN", []string{"12.03.2019 14:22", "ХЛЯБ 1.89 Б", "МЛЯКО 2.49 Б", "СИРЕНЕ 8.90 Б", "ОБЩА СУМА 13.28", "В БРОЙ 20.00", "РЕСТО 6.72"}},
		{"2026, no mark", "6.79", "EUR", []string{"15.02.2026 14:22", "ХЛЯБ 0.97 Б", "МЛЯКО 1.27 Б", "СИРЕНЕ 4.55 Б", "ОБЩА СУМА 6.79", "В БРОЙ 10.00", "РЕСТО 3.21"}},
		{"2025, both, lev first", "13.28", "BGN", []string{"20.10.2025 14:22", "ХЛЯБ 1.89 Б", "МЛЯКО 2.49 Б", "СИРЕНЕ 8.90 Б", "ОБЩА СУМА 13.28 лв", "6.79 EUR", "1 EUR = 1.95583 лв"}},
		{"2026, both, euro first", "6.79", "EUR", []string{"15.02.2026 14:22", "ХЛЯБ 0.97 Б", "МЛЯКО 1.27 Б", "СИРЕНЕ 4.55 Б", "ОБЩА СУМА 6.79 EUR", "13.28 лв", "1 EUR = 1.95583 лв"}},
		{"2026, both, lev first", "6.79", "EUR", []string{"15.02.2026 14:22", "ОБЩА СУМА 13.28 лв", "ОБЩА СУМА 6.79 EUR", "1 EUR = 1.95583 лв"}},
		{"2025, both, euro first", "13.28", "BGN", []string{"20.10.2025 14:22", "ОБЩА СУМА 6.79 EUR", "ОБЩА СУМА 13.28 лв", "1 EUR = 1.95583 лв"}},
	} {
		r := ExtractFields(lines(append(slices.Clone(head), tc.body...)...), au, testNow)
		if r.Currency.Value != tc.currency {
			t.Errorf("%s: currency %q (%s), want %s", tc.name, r.Currency.Value, r.Currency.Why, tc.currency)
		}
		if r.Total.Value.String() != tc.total {
			t.Errorf("%s: total %s (%s), want %s", tc.name, r.Total.Value, r.Total.Why, tc.total)
		}
	}
}
