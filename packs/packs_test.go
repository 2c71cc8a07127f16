package packs

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

func TestEveryBuiltInPackLoads(t *testing.T) {
	want := strings.Fields("AT AU BE BG CA CH DE DK ES FI FR IE IT MY NL NO NZ PL PT SE UK US")
	var got []string
	for _, p := range All() {
		got = append(got, p.Country)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("packs = %v, want at least %v", got, want)
	}
}

func TestTheLoaderRefusesWhatTheRulesCannotUse(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"unknown label":          {"d/languages/zz.json": `{"language":"zz","name":"Z","labels":{"TOTALLY":["X"]}}`},
		"unknown field":          {"d/languages/zz.json": `{"language":"zz","name":"Z","lables":{}}`},
		"bad month":              {"d/languages/zz.json": `{"language":"zz","name":"Z","months":{"SMARCH":13}}`},
		"lookalikes unpaired":    {"d/languages/zz.json": `{"language":"zz","name":"Z","script":"Cyrl","lookalikes":"AАB"}`},
		"lookalikes of Latin":    {"d/languages/zz.json": `{"language":"zz","name":"Z","script":"Cyrl","lookalikes":"AÄ"}`},
		"lookalikes, no script":  {"d/languages/zz.json": `{"language":"zz","name":"Z","lookalikes":"AА"}`},
		"misread letters as one": {"d/languages/zz.json": `{"language":"zz","name":"Z","misread_letters":{"łt":"t"}}`},
		"misread as itself":      {"d/languages/zz.json": `{"language":"zz","name":"Z","misread_letters":{"ł":"ł"}}`},
		"no language": {"d/countries/zz.json": `{"country":"ZZ","name":"Z","jurisdiction":"other","languages":["qq"],
			"currency":"ZZD","date_order":"DMY"}`},
		"bad date order": {"d/countries/zz.json": `{"country":"ZZ","name":"Z","jurisdiction":"other","languages":["en"],
			"currency":"ZZD","date_order":"DDMMYY"}`},
		"place word not in capitals": {"d/countries/zz.json": `{"country":"ZZ","name":"Z","jurisdiction":"other","languages":["en"],
			"currency":"ZZD","date_order":"DMY","places":{"words":["Jalan"]}}`},
		"currency change on no day": {"d/countries/zz.json": `{"country":"ZZ","name":"Z","jurisdiction":"other","languages":["en"],
			"currency":"ZZD","date_order":"DMY","currency_changes":[{"from":"1.1.2026","currency":"EUR","rate":"2"}]}`},
		"currency change to itself": {"d/countries/zz.json": `{"country":"ZZ","name":"Z","jurisdiction":"other","languages":["en"],
			"currency":"ZZD","date_order":"DMY","currency_changes":[{"from":"2026-01-01","currency":"ZZD","rate":"2"}]}`},
		"currency change without a rate": {"d/countries/zz.json": `{"country":"ZZ","name":"Z","jurisdiction":"other","languages":["en"],
			"currency":"ZZD","date_order":"DMY","currency_changes":[{"from":"2026-01-01","currency":"EUR"}]}`},
		"currency changes out of order": {"d/countries/zz.json": `{"country":"ZZ","name":"Z","jurisdiction":"other","languages":["en"],
			"currency":"ZZD","date_order":"DMY","currency_changes":[{"from":"2026-01-01","currency":"EUR","rate":"2"},{"from":"2020-01-01","currency":"ZZN","rate":"3"}]}`},
		"postcode range backwards": {"d/countries/zz.json": `{"country":"ZZ","name":"Z","jurisdiction":"other","languages":["en"],
			"currency":"ZZD","date_order":"DMY","places":{"towns":{"ZEDTOWN":[[12399, 12300]]}}}`},
	} {
		fsys := fstest.MapFS{}
		for n, b := range files {
			fsys[n] = &fstest.MapFile{Data: []byte(b)}
		}
		if err := Load(fsys, "d"); err == nil {
			t.Errorf("%s: loaded", name)
		}
		if _, ok := Get("ZZ"); ok {
			t.Fatalf("%s: a refused pack was added", name)
		}
	}
}

func TestTranslateReadsLabelsAsTheRulesWords(t *testing.T) {
	de, _ := Get("DE")
	for in, want := range map[string]string{
		"ZU ZAHLEN EUR":   "TOTAL DUE EUR",
		"ZWISCHENSUMME":   "SUBTOTAL",
		"SUMME":           "TOTAL",
		"RUCKGELD":        "CHANGE",
		"BAR":             "CASH",
		"EC KARTE":        "CARD",
		"MWST NETTO":      "MWST NET",
		"SUSHI BAR MITTE": "SUSHI CASH MITTE", // Translate sees keyword text only: the rules never read names through it
	} {
		if got := strings.Join(de.Translate(strings.Fields(in)), " "); got != want {
			t.Errorf("Translate(%q) = %q, want %q", in, got, want)
		}
	}
	// Where a total's label carries a word the rules read on other lines
	// (gross, net, to pay, a discount's plural), the whole phrase is the
	// label; and a word of an item's name is no label of its own.
	for _, tc := range []struct{ country, in, want string }{
		{"DE", "SUMME BRUTTO", "TOTAL"},
		{"DE", "NETTO SUMME", "SUBTOTAL"},
		{"DE", "LEERGUT RUCKGABE", "LEERGUT RUCKGABE"},
		{"ES", "TOTAL A PAGAR", "TOTAL DUE"},
		{"PT", "TOTAL C IVA", "TOTAL"},
		{"FR", "TOTAL A PAYER", "TOTAL DUE"},
		{"FR", "TOTAL REMISES", "TOTAL DISCOUNT"},
		{"FR", "SOLDE CAGNOTTE", "SOLDE CAGNOTTE"},
		{"IT", "TOTALE SCONTI", "TOTAL DISCOUNT"},
		{"IT", "DI CUI IVA", "TAX"},
		{"FI", "PALE ALE", "PALE ALE"},
		{"NL", "STATIEGELD RETOUR", "STATIEGELD RETOUR"},
		{"PL", "SUMA BRUTTO", "TOTAL"},
		{"UK", "BALANCE TO PAY", "TOTAL DUE"},
		{"US", "TOTAL BEFORE TAX", "SUBTOTAL"},
		{"MY", "JUMLAH BESAR", "TOTAL DUE"},
		{"MY", "BAKI", "CHANGE"},
	} {
		pk, _ := Get(tc.country)
		if got := strings.Join(pk.Translate(strings.Fields(tc.in)), " "); got != tc.want {
			t.Errorf("%s: Translate(%q) = %q, want %q", tc.country, tc.in, got, tc.want)
		}
	}
	if fi, _ := Get("FI"); fi != nil {
		if n, ok := fi.Month("heinäkuuta"); !ok || n != 7 {
			t.Errorf("Month(heinäkuuta) = %d, %v", n, ok) // "15. heinäkuuta 2024": the written date's partitive
		}
	}
	if n, ok := de.Month("März"); !ok || n != 3 {
		t.Errorf("Month(März) = %d, %v", n, ok)
	}
	if Fold("Rückgeld Straße") != "RUCKGELD STRASSE" {
		t.Errorf("Fold = %q", Fold("Rückgeld Straße"))
	}
}

func TestDetectTheCountryFromThePageNotTheClient(t *testing.T) {
	for _, tc := range []struct {
		name, prior, country, currency string
		sure                           bool
		page                           []string
	}{
		{"a German receipt in an Australian library", "AU", "DE", "EUR", true, []string{
			"REWE Markt GmbH", "Hauptstr. 5", "50667 Köln", "Milch 1,19 A", "SUMME EUR 24,23",
			"Bar 40,00", "Rückgeld 15,77", "MwSt% Netto MwSt Brutto", "A 7% 22,64 1,59 24,23",
		}},
		{"a Malaysian receipt in a euro library", "EU", "MY", "MYR", true, []string{
			"KEDAI RUNCIT MAJU SDN BHD", "NO 5, JALAN BESAR", "43000 KAJANG, SELANGOR", "GST ID: 000123456789",
			"TOTAL (RM) 12.50", "CASH 20.00", "CHANGE 7.50",
		}},
		{"a French bill", "UK", "FR", "EUR", true, []string{
			"CHEZ ALAIN", "26 rue Charlot 75003 Paris", "TOTAL TTC 14,50 €", "TVA 10% 1,32", "ESPECES 20,00", "RENDU 5,50",
		}},
		{"a US diner", "US", "US", "USD", false, []string{"Blue Door Cafe", "Burger $12.99", "Subtotal $12.99", "Tax $1.04", "Total $14.03"}},
		{"a page that says nothing", "NZ", "NZ", "", false, []string{"THANK YOU", "12.00"}},
		// German words are Austria's too: the web address or the VAT ID
		// with its country letters tells Germany, no currency printed.
		{"a German page with its web address", "EU", "DE", "", true, []string{
			"RSSMANN", "Mein Drogeriemarkt", "27.02.2020 15:56 Kasse 02", "Ruckgeld (Bar)", "1 Artikel",
			"VIELEN DANK FUR IHREN EINKAUF", "Umtausch nur mit Kassenbon", "Hier Petition unterzeichnen rossmann.de/",
		}},
		{"a German page with its VAT ID", "EU", "DE", "", true, []string{
			"ROSSMANN", "Mein Drogeriemarkt", "20.05.2020 10:12 Kasse 01", "Ruckgeld (Bar)", "3 Artikel",
			"UmSt-ID.Nr. DE 115 055 186", "VIELEN DANK FUR IHREN EINKAUF", "Umtausch nur mit Kassenbon",
		}},
		// A Belgian VAT number is no French phone number.
		{"a Belgian shop's VAT number", "EU", "BE", "", true, []string{
			"Droguerie Dupont SA", "Rue de la Regence 117", "4000 Liege", "TVA BE 0196.075.206", "TICKET Date: 10-12-2024",
			"TOTAL A PAYER 401,50", "ESPECES 410,00", "A RENDRE 8,50", "TVA HT TVA TTC", "A 21% 308,14 64,71 372,85",
		}},
	} {
		d := Detect(tc.page, tc.prior)
		if d.Pack == nil || d.Pack.Country != tc.country || d.Currency != tc.currency || d.Sure != tc.sure {
			got := "nil"
			if d.Pack != nil {
				got = d.Pack.Country
			}
			t.Errorf("%s: %s %q sure=%v (%s), want %s %q sure=%v", tc.name, got, d.Currency, d.Sure, d.Why, tc.country, tc.currency, tc.sure)
		}
	}
}

// A letter misread as a currency symbol, away from any amount, prints no
// currency: "SELANGOR D.E." read as "SELANGOR [.€.".
func TestASymbolCountsBesideAnAmount(t *testing.T) {
	d := Detect([]string{"KING'S CONFECTIONERY S/B", "47301 PETALING JAYA", "SELANGOR [.€.", "GST ID 001234567890", "Due 19.20"}, "MY")
	if d.Pack == nil || d.Pack.Country != "MY" || d.Currency != "" {
		t.Errorf("got %v %q", d.Pack, d.Currency)
	}
	if d := Detect([]string{"Milch 1,19 €", "SUMME 24,23 €"}, "AU"); d.Currency != "EUR" {
		t.Errorf("euro beside amounts: %q", d.Currency)
	}
}

// A date's label that says it is not the document's own, in the page's
// languages, and in English where the page has no pack.
func TestLabelsAnotherDate(t *testing.T) {
	de, _ := Get("DE")
	fr, _ := Get("FR")
	for _, tt := range []struct {
		p    *Pack
		line string
		want bool
	}{
		{de, "MHD 12.05.2021", true},
		{de, "Gültig bis 31.12.2020", true},
		{de, "Datum 12.05.2021 14:03", false},
		{fr, "Date d'expiration: 31/05/18", true},
		{fr, "Offre valable jusqu'au 30/06/2019", true},
		{nil, "EXP 05/21", true},
		{nil, "PANDA EXPRESS 03/16/2013", false},
		{nil, "Sweepstakes ends 12/31/2017", true},
	} {
		if got := tt.p.LabelsAnotherDate(tt.line); got != tt.want {
			t.Errorf("%q: %v, want %v", tt.line, got, tt.want)
		}
	}
}

// A street's name written as one word with its street word, where the
// language compounds them, makes a street line with its number; a word
// that merely ends in the letters of a short street word is none.
func TestStreetLinesOfCompoundingLanguages(t *testing.T) {
	for _, tc := range []struct {
		pack, line string
		want       bool
	}{
		{"NL", "Molenweg 49", true},
		{"NL", "Prinsengracht 85", true},
		{"DE", "Hauptstraße 5", true},
		{"DE", "Bahnhofplatz 3", true},
		{"DE", "Hauptstr. 5", true},
		{"FI", "Mannerheimintie 12", true},
		{"DE", "Molenweg", false},       // no number
		{"DE", "WEG 5", true},           // the street word alone
		{"US", "Hauptstrasse 5", false}, // English compounds no street
		{"NL", "WEGWIJZER 12", false},
	} {
		p, _ := Get(tc.pack)
		if got := p.IsStreetLine(tc.line); got != tc.want {
			t.Errorf("%s %q: street line %v, want %v", tc.pack, tc.line, got, tc.want)
		}
	}
	// Each ending names a language's street: a US word does not end in one.
	if p, _ := Get("DE"); p.IsStreetLine("SWEG 5") {
		t.Error("a word of three letters before its ending was taken for a street")
	}
}

// A VAT number in its country's own form is given in the international
// form of the pack's pattern; one in that form already, or of another
// shape, is not.
func TestNationalTaxID(t *testing.T) {
	for _, tc := range []struct {
		pack, in, want string
		ok             bool
	}{
		{"ES", "B47786405", "ESB47786405", true},
		{"IT", "04603586779", "IT04603586779", true},
		{"AT", "U12345678", "ATU12345678", true},
		{"UK", "123456789", "GB123456789", true},
		{"SE", "5561234567", "SE556123456701", true},
		{"CH", "116281710MWST", "CHE116281710MWST", true},
		{"NO", "923609016MVA", "NO923609016MVA", true},
		{"NO", "923609016", "NO923609016", false}, // an organisation number not registered for VAT
		{"DK", "13585601", "DK13585601", true},
		{"IT", "IT04603586779", "", false},
		{"IT", "0460358677", "", false},
		{"US", "123456789", "", false}, // no tax ID pattern
	} {
		p, _ := Get(tc.pack)
		got, ok := p.NationalTaxID(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("%s %q: %q %v, want %q %v", tc.pack, tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// Every rate a pack's receipts print is one its jurisdiction's checks
// accept: an Irish 13.5% was "unusual in EU" on every Irish receipt.
func TestEveryPacksTaxRatesAreItsJurisdictions(t *testing.T) {
	for _, p := range All() {
		c, err := receipt.ParseCountry(p.Jurisdiction)
		if err != nil {
			t.Fatalf("%s: jurisdiction %q: %v", p.Country, p.Jurisdiction, err)
		}
		plausible := receipt.PlausibleRates(c)
		if plausible == nil {
			continue // any rate up to the country's cap
		}
		for _, r := range p.TaxRates {
			rate := decimal.RequireFromString(r)
			if !slices.ContainsFunc(plausible, rate.Equal) {
				t.Errorf("%s prints %s%%, which %s's checks call unusual", p.Country, r, c)
			}
		}
	}
}

// A page in a script PP-OCR cannot read is read by Tesseract with the
// trained data of every language the packs write in it.
func TestTheLanguagesOfAScript(t *testing.T) {
	if got := ScriptTesseractLanguages("Cyrl"); strings.Join(got, "+") != "bul+eng" {
		t.Errorf("Cyrillic: %v, want bul+eng", got)
	}
	if got := ScriptTesseractLanguages("Grek"); got != nil {
		t.Errorf("no pack writes Greek: %v", got)
	}
}

// Tesseract reading Bulgarian with English beside it reads bold РЕСТО as
// "PECTO": a word wholly of lookalikes that the language knows is written
// back in Cyrillic; Latin words that are no Bulgarian word stay.
func TestWordsReadInLatinLookalikes(t *testing.T) {
	for read, want := range map[string]string{
		"PECTO":    "РЕСТО",
		"OCHOBA:":  "ОСНОВА:",
		"KACOB":    "КАСОВ",
		"BGN":      "",
		"TOTAL":    "",
		"CAFE":     "",
		"OBO":      "",     // ОБЩО misread: no lookalike of it
		"РЕСТО":    "",     // already Cyrillic
		"OБЩA":     "ОБЩА", // Latin O and A among Cyrillic: no word mixes them
		"CУMA:":    "СУМА:",
		"LEDлампа": "", // L has no Cyrillic lookalike
		"ЕКО":      "",
	} {
		got, ok := FromLookalikes("Cyrl", read)
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("%q: %q, want %q", read, got, want)
		}
	}
	if _, ok := FromLookalikes("Latn", "PECTO"); ok {
		t.Error("a script no pack writes in has no lookalikes")
	}
}

// Any language's label counts, a Cyrillic page read as Latin lookalikes
// shows none.
func TestAPagePrintsALabel(t *testing.T) {
	if !PrintsALabel([]string{"KAFFEE 2,50", "ZU ZAHLEN 2,50"}) || !PrintsALabel([]string{"Cash 20.00"}) || !PrintsALabel([]string{"ОБЩА СУМА 13.28 лв"}) {
		t.Error("a label was not seen")
	}
	if PrintsALabel([]string{"KAYAH 5bJFAPИA EOO", "O5山A CYMA 13.28 nB", "B 5PON 20.00 nB", "PECTO 6.72 nB"}) {
		t.Error("lookalikes of Cyrillic labels taken for a label")
	}
}

// A possessive and a trade word is a shop's motto in the pack's
// languages, read apart or as one word; a name is none.
func TestSlogansByTheirOpeners(t *testing.T) {
	de, _ := Get("DE")
	fr, _ := Get("FR")
	us, _ := Get("US")
	for _, tc := range []struct {
		p    *Pack
		line string
		want bool
	}{
		{de, "Mein Drogeriemarkt", true},
		{de, "MeinDrogeriemarkt", true},
		{de, "IHR BAUMARKT", true},
		{de, "ROSSMANN", false},
		{de, "Meineke Autoservice", false},
		{de, "Mein Drogeriemarkt ist auch am Sonntag nicht geöffnet", false}, // a sentence, not a motto
		{fr, "Votre supermarché", true},
		{us, "YOUR NEIGHBORHOOD STORE", true},
		{us, "YOUR NEIGHBORHOOD", false},
		{de, "Your neighborhood store", false}, // not the pack's language
		{nil, "Mein Drogeriemarkt", false},
	} {
		if got := tc.p.IsSlogan(tc.line); got != tc.want {
			t.Errorf("%q: slogan %v, want %v", tc.line, got, tc.want)
		}
	}
}

// A tax ID with its country letters tells the country only where the
// letters open a word or follow a tax label: prices and words that end in
// them print none ("LEMONADE 2 12.50 25.00" is no German ID).
func TestATaxIDOnThePage(t *testing.T) {
	for line, want := range map[string]string{
		"UmSt-ID.Nr. DE 115 055 186": "DE:DE115055186",
		"BTWBE 0813.107.943":         "BE:BE0813107943",
		"TVA BE 0196.075.206":        "BE:BE0196075206",
		"FRIES 2 12.50 25.00":        "",
		"LEMONADE 2 12.50 25.00":     "",
		"COOKIE 2 1.50 3.00 A":       "",
		"BARCODE 123456789":          "",
		"RECEIPT 2024/12345":         "",
		"DE 115 055 1867":            "", // a digit runs on
	} {
		pg := pageOf([]string{line})
		got := ""
		for _, c := range []string{"DE", "BE", "ES", "IE", "PT", "FR"} {
			p, _ := Get(c)
			if id := pg.taxIDOf(p); id != "" {
				got = c + ":" + id
			}
		}
		if got != want {
			t.Errorf("%q: %q, want %q", line, got, want)
		}
	}
	d := Detect([]string{"Blue Door Cafe", "COOKIE 2 1.50 3.00 A", "Subtotal 3.00", "Tax 0.24", "Total 3.24"}, "")
	if d.Pack != nil && d.Pack.Country == "IE" && d.Sure {
		t.Errorf("a US cafe's prices told Ireland: %s", d.Why)
	}
}

func TestTheCurrencyInForceOnADay(t *testing.T) {
	bg, ok := Get("BG")
	if !ok {
		t.Fatal("no Bulgarian pack")
	}
	for day, want := range map[string]string{"2019-03-12": "BGN", "2025-12-31": "BGN", "2026-01-01": "EUR", "2026-11-27": "EUR"} {
		d, _ := time.Parse(time.DateOnly, day)
		if got := bg.CurrencyOn(d); got != want {
			t.Errorf("Bulgaria on %s: %s, want %s", day, got, want)
		}
	}
	if got := bg.Currencies(); !slices.Equal(got, []string{"BGN", "EUR"}) {
		t.Errorf("Bulgaria's currencies: %v", got)
	}
}

// A registered name says what it trades under after T/A, o/a, DBA or
// h.o.d.n., however the letters are spaced; a tax table's letters are no
// such words.
func TestTradingAs(t *testing.T) {
	en, _ := Get("UK")
	nl, _ := Get("NL")
	for _, tc := range []struct {
		pk         *Pack
		line, want string
	}{
		{en, "Harcourt Pharmacy Services Pty Ltd T/A Jacaranda Pharmacy", "Jacaranda Pharmacy"},
		{en, "2739115 Ontario Inc. o/a Toadstool Toys", "Toadstool Toys"},
		{en, "J. Smith t / a Smith's Plumbing", "Smith's Plumbing"},
		{en, "Blue Door LLC dba: Joe's Diner", "Joe's Diner"},
		{en, "Trading as Kōwhai Garden Centre", "Kōwhai Garden Centre"},
		{nl, "J. de Vries h.o.d.n. Bakkerij De Korenschoof", "Bakkerij De Korenschoof"},
		{en, "Mr K Patel t/as Patel's Pharmacy", "Patel's Pharmacy"},
		// The name ends where the line goes on with something else.
		{en, "Tidewater Digital Pty Ltd trading as Tidewater Hosting · ABN 59 618 723 407", "Tidewater Hosting"},
		{en, "Registered as Shannonlink Communications Limited, trading as Shannonlink. Registered in Ireland No. 612784.", "Shannonlink"},
		{en, "Mr J Smith t/a J. Smith Plumbing (est. 1990)", "J. Smith Plumbing"},
		{en, "Ace Holdings Ltd t/a Ace Tyres, Unit 4", "Ace Tyres"},
		{en, "T A 12.50", ""},
		{en, "T/A 12.50", ""},
		{en, "TOTAL 12.50", ""},
		{en, "VAT/A 20%", ""},
	} {
		if got := tc.pk.TradingAs(tc.line); got != tc.want {
			t.Errorf("%s %q: trading as %q, want %q", tc.pk.Country, tc.line, got, tc.want)
		}
	}
}

// A receipt's number follows the language's word for a receipt, with a
// number label or none; a card's reference or a word with no digit is no
// such number.
func TestReceiptNumber(t *testing.T) {
	no, _ := Get("NO")
	de, _ := Get("DE")
	fr, _ := Get("FR")
	for _, tc := range []struct {
		pk         *Pack
		line, want string
	}{
		{no, "Kvittering 4-118730", "4-118730"},
		{no, "Bong 55102   Kasse 2", "55102"},
		{de, "29.11.24 11:48 Bon 40517 Verk. 3", "40517"},
		{de, "Beleg-Nr. 2024/18804", "2024/18804"},
		{fr, "Ticket n° VT25-01934 Caisse 2", "VT25-01934"},
		{no, "Ref. 0041882 Auth 721660", ""},
		{de, "Bon appétit", ""},
		{de, "Kassenbon", ""},
		{de, "Leergut-Bon Nr. 0815-2291", ""},
	} {
		if got := tc.pk.ReceiptNumber(tc.line); got != tc.want {
			t.Errorf("%s %q: number %q, want %q", tc.pk.Country, tc.line, got, tc.want)
		}
	}
}
