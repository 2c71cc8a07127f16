package fields

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// placedLines lays out text lines down a photo's page: each row is the
// line's top and height in pixels and its text.
func placedLines(rows ...any) []Line {
	var out []Line
	for i := 0; i+2 < len(rows); i += 3 {
		y, h, text := rows[i].(int), rows[i+1].(int), rows[i+2].(string)
		out = append(out, Line{Text: text, Conf: 0.97, Box: receipt.Box{X: 100, Y: y, W: 10 * len(text), H: h}})
	}
	return out
}

// The shop's name heads its address's paragraph: a slogan, a banner or the
// end of the receipt before on the roll, above a stretch of blank paper,
// is no name, however much it reads like one.
func TestTheNameHeadsTheAddressNotALineAboveABlank(t *testing.T) {
	us, _ := packs.Get("US")
	de, _ := packs.Get("DE")
	for _, tc := range []struct {
		lines []Line
		want  string
	}{
		{
			placedLines(
				66, 17, "Place Your",
				89, 17, "Card Here",
				230, 14, "Lucky Star Diner",
				250, 15, "Store#0042",
				269, 15, "Springfield, IL 62701",
				289, 15, "217.555.0143",
				315, 16, "Server: Molly 07/15/2016"),
			"LUCKY STAR DINER",
		},
		{
			placedLines(
				35, 55, "**PURCHASE**",
				108, 8, "8",
				145, 32, "Golden Wok #2614",
				186, 19, "Brooklyn, NY",
				203, 28, "(718)555-0198",
				234, 25, "12/22/2017 4:58:01 PM"),
			"GOLDEN WOK #2614",
		},
		// A slogan's lines far above the address, in a page's tight
		// spacing: a blank of a line and a half is no more needed.
		{
			placedLines(
				353, 20, "FRISCHE EINKAUFEN",
				471, 32, "WUNSCHLOS",
				518, 32, "GLUCKLICH?",
				566, 19, "URL in Ihr Smartphone",
				586, 24, "eintippen oder QR-Code",
				606, 28, "scannen, Feedback geben",
				699, 28, "www.feedback.example.de",
				768, 24, "Kaufhaus Nord",
				804, 28, "Detmolder Str. 4",
				842, 28, "33102 Paderborn",
				881, 28, "Tel. 05251/180420",
				921, 28, "www.kaufhaus-nord.de",
				960, 24, "EUR",
				995, 30, "APFELSAFT 0,99 B"),
			"KAUFHAUS NORD",
		},
		// A logo of several lines, then the name printed in full in its
		// words over a blank and the address.
		{
			placedLines(
				127, 22, "RIVIERE",
				207, 44, "ZINC",
				287, 45, "GRILL",
				366, 15, "MARAIS",
				406, 29, "ZINC GRILL",
				468, 15, "22 RUE RAMBUTEAU",
				489, 15, "75003 Paris",
				511, 15, "France",
				533, 15, "NOTE DE FRAIS - 1"),
			"ZINC GRILL",
		},
		// A name does not go on across blank paper: the logo over the
		// blank is not the printed name's first line.
		{
			placedLines(
				240, 73, "BLUEHARBR",
				386, 21, "Blue Harbor Restaurant",
				407, 19, "241 Mineola Blvd",
				427, 22, "Mineola, NY 11501",
				448, 23, "516-555-9797",
				493, 21, "09/10/17 3:28 PM"),
			"BLUE HARBOR RESTAURANT",
		},
		// A three-letter name heading its address counts.
		{
			placedLines(
				166, 21, "ZED",
				201, 23, "(310) 555-2050",
				238, 20, "0051a TABLE 308 #Party 1",
				270, 22, "BAR L SvrCk: 13 13:22 12/20/17"),
			"ZED",
		},
		// A heading that is one paragraph with its address stays, and
		// its trade word on the next line joins it.
		{
			placedLines(
				221, 11, "JOE'S",
				233, 14, "HAMBURGERS",
				245, 13, "3950 E MAIN ST, MAYWOOD, CA 90270",
				262, 13, "PHONE 323-555-1607"),
			"JOE'S HAMBURGERS",
		},
	} {
		pk := us
		switch tc.lines[0].Text {
		case "FRISCHE EINKAUFEN":
			pk = de
		case "RIVIERE":
			pk, _ = packs.Get("FR")
		}
		got, _, _ := findCompany(tc.lines, pk)
		if got.Value != tc.want {
			t.Errorf("%q: got %q, want %q", tc.lines[0].Text, got.Value, tc.want)
		}
	}
	// Without the blank, the heading is the name.
	lines := placedLines(
		100, 20, "FIREFLY",
		122, 14, "Lucky Star Diner",
		140, 14, "12 Elm Street",
		156, 14, "Springfield, IL 62701")
	if got, _, _ := findCompany(lines, us); !strings.HasPrefix(got.Value, "FIREFLY") {
		t.Errorf("a heading with its address below: got %q", got.Value)
	}
}

// A legal name of trade words alone ("RESTAURANTS, INC.") is the end of a
// group's name over its restaurant's: the restaurant's name below is the
// supplier.
func TestALegalNameOfTradeWordsAloneNamesNoOne(t *testing.T) {
	us, _ := packs.Get("US")
	lines := placedLines(
		38, 14, "RESTAURANTS, INC .",
		68, 13, "Taco Loco # 30",
		85, 20, "Exquisitamente.")
	if got, _, _ := findCompany(lines, us); got.Value != "TACO LOCO # 30" {
		t.Errorf("got %q", got.Value)
	}
}

// Malaysia's place words are mended on Malaysian pages only: "Plata" on an
// American receipt is no misread PLAZA.
func TestPlaceWordsAreMendedOnlyWhereTheyArePlaces(t *testing.T) {
	if got := mendNameWords("EL GRAN MAR DE PLATA", receipt.CountryUS); got != "EL GRAN MAR DE PLATA" {
		t.Errorf("US: %q", got)
	}
	if got := mendNameWords("SUNWAY PIAZA", receipt.CountryMY); got != "SUNWAY PLAZA" {
		t.Errorf("MY: %q", got)
	}
}

// The supplier's line read again alone backs the name's letters when it
// reads them all, also where the box took in a logo's line beside them;
// a reading that lacks some of them backs nothing.
func TestTheNameReadAgainAmongItsNeighboursBacksItsLetters(t *testing.T) {
	us, _ := packs.Get("US")
	lines := placedLines(
		100, 30, "GUSTO",
		140, 14, "THAI GUSTO RESTAURANT",
		160, 14, "1 Main St, Springfield, IL 62701")
	for again, backed := range map[string]bool{
		"GUSTG THAI GUSTO RESTAURANT": true,
		"THAI GUSTO RESTAURANT":       true,
		"THAI GUST0 RESTAURAN":        false,
	} {
		r := receipt.Receipt{SupplierName: receipt.Text{Value: "THAI GUSTO RESTAURANT", Set: true, Confidence: 0.7, Source: receipt.SourceOCR, Box: &receipt.Box{X: 100, Y: 100, W: 300, H: 54}}}
		assessSupplier(&r, lines, us, []Reading{{Name: "the supplier's name read again alone", Lines: LinesFromText(again), Of: "supplier"}})
		if got := receipt.LettersBacked(r.SupplierName.Support); got != backed {
			t.Errorf("read again %q: backed %v, want %v (%+v)", again, got, backed, r.SupplierName.Support)
		}
	}
}

// A web address that spells the name backs its letters, a space read
// after its hyphen and a digit read for a letter notwithstanding.
func TestTheNameInTheWebAddressDespiteItsMisreads(t *testing.T) {
	de, _ := packs.Get("DE")
	lines := placedLines(
		768, 24, "Kaufhaus Nord",
		804, 28, "Detmolder Str. 4",
		921, 28, "www.kaufhaus- n0rd.de")
	r := receipt.Receipt{SupplierName: receipt.Text{Value: "KAUFHAUS NORD", Set: true, Confidence: 0.7, Source: receipt.SourceOCR, Box: &lines[0].Box}}
	assessSupplier(&r, lines, de, nil)
	if !receipt.LettersBacked(r.SupplierName.Support) {
		t.Errorf("not backed: %+v", r.SupplierName.Support)
	}
}

// A second reading a letter off the name is a doubt, unless the page
// prints the word in dispute again as first read: two readings to one.
func TestADisputedWordPrintedAgainSettlesTheDoubt(t *testing.T) {
	my, _ := packs.Get("MY")
	for footer, settled := range map[string]bool{
		"SANYU SUPPLY SDN BHD":  true,
		"THANK YOU, COME AGAIN": false,
	} {
		lines := placedLines(
			100, 20, "SANYU STATIONERY SHOP",
			130, 14, "NO. 31G&33G, JALAN SETIA INDAH X ,U13/X",
			400, 14, footer)
		r := receipt.Receipt{SupplierName: receipt.Text{Value: "SANYU STATIONERY SHOP", Set: true, Confidence: 0.8, Source: receipt.SourceOCR, Box: &lines[0].Box}}
		assessSupplier(&r, lines, my, []Reading{{Name: "the supplier's name read again alone", Lines: LinesFromText("SANYO STATIONERY SHOP"), Of: "supplier"}})
		if got := r.SupplierName.Doubt == "" && receipt.LettersBacked(r.SupplierName.Support); got != settled {
			t.Errorf("footer %q: settled %v, want %v (doubt %q, %+v)", footer, got, settled, r.SupplierName.Doubt, r.SupplierName.Support)
		}
	}
}

// A table's headings name no business, in English as in any language,
// and a till word opening a line ("STATION", as in "Station: 2") does not
// make a shop's name a till line when a trade word follows it: the
// synthetic Australian "STATION ELECTRICAL" over its address lost its
// name to "QTY DESCRIPTION PRICE AMOUNT".
func TestTableHeadingsAndTillWordsAreNoName(t *testing.T) {
	au, _ := packs.Get("AU")
	fr, _ := packs.Get("FR")
	pt, _ := packs.Get("PT")
	for _, tc := range []struct {
		pk     *packs.Pack
		line   string
		noName bool
	}{
		{au, "QTY DESCRIPTION PRICE AMOUNT", true},
		{fr, "QTE DESIGNATION P.U. MONTANT", true},
		{au, "Station: 2", true},
		{au, "SERVER MEGAN", true},
		{au, "STATION ELECTRICAL", false},
		{pt, "Fatura Simplificada FS 0214/289341", true}, // a document's title and number
		{pt, "Fatura Expresso Lda", false},
		{au, "TABLE MOUNTAIN RESTAURANT", false},
	} {
		if got := notANameLine(Line{Text: tc.line, Conf: 0.99}, tc.pk); got != tc.noName {
			t.Errorf("%s %q: no name %v, want %v", tc.pk.Country, tc.line, got, tc.noName)
		}
	}
	page := lines("STATION ELECTRICAL", "60GEORGE STREET", "PERTH WA 6000", "ABN 18400 804 020", "TAX INVOICE Date: 27 Mar 2024",
		"QTY DESCRIPTION PRICE AMOUNT", "1 NOTEBOOK $25.38 $25.38", "AMOUNT DUE $25.38")
	if n, _, _ := findCompany(page, au); n.Value != "STATION ELECTRICAL" {
		t.Errorf("supplier %q, want STATION ELECTRICAL", n.Value)
	}
}

// A legal form read with digits for its letters is the page's country's
// form ("SP. Z 0.0." is SP. Z O.O.); a unit number after a name ("5A") is
// no SA, and a country without the form keeps the digits.
func TestALegalFormReadWithDigitsIsItsLetters(t *testing.T) {
	pl, _ := packs.Get("PL")
	fr, _ := packs.Get("FR")
	us, _ := packs.Get("US")
	for _, tc := range []struct {
		pk       *packs.Pack
		in, want string
	}{
		{pl, "SKLEP NOWAK SP. Z 0.0.", "SKLEP NOWAK SP. Z O.O"},
		{pl, "Piekarnia Nowak Sp. z O.0", "Piekarnia Nowak Sp. z O.O"},
		{pl, "SKLEP NOWAK SP. Z O.O.", "SKLEP NOWAK SP. Z O.O"},
		{fr, "CAFE DU PORT 5A", "CAFE DU PORT 5A"},
		{us, "SKLEP NOWAK SP. Z 0.0.", "SKLEP NOWAK SP. Z"}, // a number after a name goes
	} {
		if got := cleanName(tc.in, tc.pk); got != tc.want {
			t.Errorf("%s: cleanName(%q) = %q, want %q", tc.pk.Country, tc.in, got, tc.want)
		}
	}
}

// A full stop the reading set apart joins the word it ends; a store
// number reads as digits.
func TestALoneFullStopJoinsItsWord(t *testing.T) {
	my, _ := packs.Get("MY")
	for in, want := range map[string]string{
		"SELERA KAMPUNG FOOD SDN . BHD": "SELERA KAMPUNG FOOD SDN. BHD",
		"KEDAI RUNCIT MAJU SDN BHD .":   "KEDAI RUNCIT MAJU SDN BHD",
		"PRAIRIE STAR FUEL #I18":        "PRAIRIE STAR FUEL #118", // a store number's 1 read as I
		"PRAIRIE STAR FUEL #IO":         "PRAIRIE STAR FUEL #IO",  // no digit: no number
	} {
		if got := cleanName(in, my); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

// The name heads the receipt above its first date, total or priced line:
// a table's guests, an item with its price or one below the first priced
// line is no name, however the logo above was misread.
func TestNoNameBelowTheFirstPricedLineOrOnATillLine(t *testing.T) {
	us, _ := packs.Get("US")
	for _, tc := range []struct {
		lines []Line
		want  string
	}{
		{placedLines(
			10, 20, "Server : Trinity (734)692-4300",
			40, 20, "Dine In",
			70, 20, "1 UIta Guests: 2",
			100, 20, "1 Bells Draft 2.50",
			130, 20, "Cheese Bread 6.00",
			160, 20, "Caprese",
			190, 20, "SALAD OUT FIRST 7.00"), ""},
		{placedLines(
			10, 20, "Lucky Star Diner",
			40, 20, "Guests: 2",
			70, 20, "Coffee 2.50"), "LUCKY STAR DINER"},
	} {
		if got, _, _ := findCompany(tc.lines, us); got.Value != tc.want {
			t.Errorf("got %q, want %q", got.Value, tc.want)
		}
	}
}

// Another reader's name that lies on a line this reading knows is a
// street's or the till's is a piece of that line; on a line of a name,
// or beside such a line, it may be the name.
func TestNoNameAtAStreetOrTillLine(t *testing.T) {
	lines := placedLines(
		10, 20, "8030 Renaissance Parkway",
		40, 20, "Durham, NC 27713",
		70, 20, "Uncle Julio's")
	at := func(x, y, w int) *receipt.Box { return &receipt.Box{X: x, Y: y, W: w, H: 20} }
	for _, tc := range []struct {
		box  *receipt.Box
		want bool
	}{
		{at(250, 12, 100), true},  // "NCE PARKWAY"
		{at(120, 41, 60), true},   // the town's line
		{at(110, 70, 80), false},  // the name's
		{at(600, 12, 100), false}, // beside the street's line, not on it
		{nil, false},
	} {
		if got := NoNameAt(lines, tc.box, "US"); got != tc.want {
			t.Errorf("NoNameAt(%+v) = %v, want %v", tc.box, got, tc.want)
		}
	}
}

// Under a logo, the shop's motto is no name, nor is the back of the paper
// showing through above it, read as mirrored nonsense in lower case.
func TestNeitherAMottoNorTextShowingThroughIsTheName(t *testing.T) {
	loc := receipt.DefaultLocale(receipt.CountryEU)
	loc.Pack = "DE"
	r := ExtractFields(lines(
		"erouatevegnurielsni neejlew eid nereisusnie ofnoX meniem",
		"ROSSMANN",
		"MeinDrogeriemarkt",
		"27.02.2020 15:56 Bed.Nr. :120 Kasse 02",
		"BRILLENPUTZTUCH 1,95 A",
		"SUMME EUR 1,95",
		"UST-ID: Dirk Rossmann GmbH DE 115 664 938",
	), loc, testNow)
	if r.SupplierName.Value != "ROSSMANN" {
		t.Errorf("supplier %q, want the logo's ROSSMANN", r.SupplierName.Value)
	}
	for line, want := range map[string]bool{
		"thank you for shopping with us": true,
		"Cafe Eugene":                    false,
		"real, Markt Paderborn":          false,
		"eBay store online shop":         false, // capitalised at its second letter
		"iPhone repair and service":      false,
		"麦当劳 快餐 餐厅 分店":                   false, // a script without capitals
	} {
		if got := isProse(line); got != want {
			t.Errorf("%q: prose %v, want %v", line, got, want)
		}
	}
}

// A shop may be named as a motto reads ("MEIN MARKT", "YOUR CBD STORE"):
// the name and its address are read, the name doubted for a look.
func TestANameThatReadsLikeAMottoIsDoubted(t *testing.T) {
	for _, tc := range []struct{ pack, name, street, town string }{
		{"DE", "MEIN MARKT", "HAUPTSTR. 5", "10115 BERLIN"},
		{"US", "YOUR CBD STORE", "123 MAIN ST", "SPRINGFIELD, IL 62701"},
	} {
		loc := receipt.DefaultLocale(receipt.CountryEU)
		if tc.pack == "US" {
			loc = receipt.DefaultLocale(receipt.CountryUS)
		}
		loc.Pack = tc.pack
		lines := lines(tc.name, tc.street, tc.town, "12.03.2024 10:15", "TOTAL 12,50")
		r := ExtractFields(lines, loc, testNow)
		Assess(&r, lines, loc, testNow)
		if r.SupplierName.Value != tc.name || r.SupplierAddress.Value == "" {
			t.Errorf("%s: supplier %q at %q, want %q and its address", tc.pack, r.SupplierName.Value, r.SupplierAddress.Value, tc.name)
		}
		if ok, why := receipt.SupplierTrusted(r.SupplierName); ok || !strings.Contains(why, "motto") {
			t.Errorf("%s: %q trusted %v (%s), want it doubted as a motto", tc.pack, tc.name, ok, why)
		}
	}
}

// Two letters read surely far off a name's end are a word whose "&" was
// not read ("COASTLINE GAS & GO"); read unsurely, or as strokes a speck
// makes, they go.
func TestTwoLettersReadSurelyAreNoSpeck(t *testing.T) {
	for _, tc := range []struct {
		last string
		conf float64
		want string
	}{
		{"GO", 0.99, "COASTLINE GAS GO"},
		{"GO", 0.6, "COASTLINE GAS"},
		{"Il", 0.99, "COASTLINE GAS"},
	} {
		words := []inference.Word{
			{Text: "COASTLINE", Conf: 0.99, Box: receipt.Box{X: 208, Y: 101, W: 69, H: 9}},
			{Text: "GAS", Conf: 0.99, Box: receipt.Box{X: 287, Y: 101, W: 23, H: 9}},
			{Text: tc.last, Conf: tc.conf, Box: receipt.Box{X: 335, Y: 101, W: 15, H: 9}},
		}
		if got := trimEdgeSpecks([]Line{GroupLines(words)[0]})[0].Text; got != tc.want {
			t.Errorf("%q at %.2f: %q, want %q", tc.last, tc.conf, got, tc.want)
		}
	}
}

// A two-letter legal form set apart from the name is the name's, not a
// speck at the line's edge: the Finnish partnership's AY stays, where a
// lone letter as far off goes.
func TestATwoLetterLegalFormIsNoSpeck(t *testing.T) {
	words := []inference.Word{
		{Text: "PAPERIKAUPPA", Conf: 0.98, Box: receipt.Box{X: 130, Y: 26, W: 147, H: 13}},
		{Text: "VIRTANEN", Conf: 0.99, Box: receipt.Box{X: 294, Y: 26, W: 94, H: 13}},
		{Text: "AY", Conf: 0.99, Box: receipt.Box{X: 408, Y: 26, W: 21, H: 13}},
	}
	line := GroupLines(words)[0]
	if got := trimEdgeSpecks([]Line{line})[0].Text; got != "PAPERIKAUPPA VIRTANEN AY" {
		t.Errorf("trimmed to %q", got)
	}
	// A letter at the words' own spacing is a word ("GENERAL POOR S");
	// one as far off as a legal form may stand is a speck.
	words[2].Text = "X"
	if got := trimEdgeSpecks([]Line{GroupLines(words)[0]})[0].Text; got != "PAPERIKAUPPA VIRTANEN X" {
		t.Errorf("a letter at the words' spacing: %q", got)
	}
	words[2].Box.X = 440
	if got := trimEdgeSpecks([]Line{GroupLines(words)[0]})[0].Text; got != "PAPERIKAUPPA VIRTANEN" {
		t.Errorf("a letter far off: %q", got)
	}
	words[2].Text = "AY"
	if got := trimEdgeSpecks([]Line{GroupLines(words)[0]})[0].Text; got != "PAPERIKAUPPA VIRTANEN AY" {
		t.Errorf("a legal form far off trimmed to %q", got)
	}
}

// The blank under a heading printed large grows with the heading: "SAGE",
// four lines tall, over "FRENCH CAFE & WINE BAR" is one name, as a phone
// photo taken straight reads it (its line boxes no taller than the text).
func TestBlankUnderALargeHeadingGrowsWithIt(t *testing.T) {
	lines := boxedLines("SAGE\nFRENCH CAFE & WINE BAR\n0121a Table 3 #Party 2\nCHANDA R SvrCk: 8 1:56p 06/02/15\n1 VEGGIE SANDWICH 12.00\nSub Total : 12.00\nTOTAL 12.00")
	lines[0].Box = receipt.Box{X: 185, Y: 167, W: 297, H: 74}
	for i := 1; i < len(lines); i++ {
		lines[i].Box = receipt.Box{X: 160, Y: 281 + 48*(i-1), W: 330, H: 18}
	}
	r := ExtractFields(lines, receipt.DefaultLocale(receipt.CountryUS), testNow)
	if r.SupplierName.Value != "SAGE FRENCH CAFE & WINE BAR" {
		t.Errorf("supplier %q", r.SupplierName.Value)
	}
	// Blank paper as tall as the heading is no break in a name, but three
	// body lines' worth under a heading of body size is.
	lines[0].Box = receipt.Box{X: 185, Y: 200, W: 297, H: 18}
	if r := ExtractFields(lines, receipt.DefaultLocale(receipt.CountryUS), testNow); r.SupplierName.Value != "SAGE" {
		t.Errorf("across blank paper: supplier %q", r.SupplierName.Value)
	}
}

// A greeting is no name, its small l read as i or 1 too.
func TestAGreetingMisreadIsNoName(t *testing.T) {
	for _, greeting := range []string{"Welcome to the Family", "Weicome to the Family", "We1come to the Family"} {
		ls := boxedLines(greeting + "\nFamilyMart\nMaxincome Resources SdinBhd(383322-)\nNo 16A, Jalan Asaka U8/83, Bukit Jelutong\nTAX INVOICE\n16/04/2018 16:28\nTOTAL 18.80")
		r := ExtractFields(ls, my, testNow)
		if strings.Contains(r.SupplierName.Value, "COME") {
			t.Errorf("%q: supplier %q", greeting, r.SupplierName.Value)
		}
	}
}

// A slogan is no name when the reader glued its words either.
func TestAGluedSloganIsNoName(t *testing.T) {
	for _, slogan := range []string{"TQ FOR SHOPPING WITH myNEWS.com", "TQFORSHOPPING WITH myNEWS.com", "PLEASECOMEAGAIN"} {
		ls := boxedLines(slogan + "\nPAGOH REST AND SERVICE AREA\nLOT R1, KWS REHAT & RAWAT PAGOH ARAH UTARA,\n84600,PAGOH,JOHOR\n23/03/2018 9:34:40AM\nGRAND TOTAL 10.00")
		if r := ExtractFields(ls, my, testNow); r.SupplierName.Value != "PAGOH REST AND SERVICE AREA" {
			t.Errorf("%q: supplier %q", slogan, r.SupplierName.Value)
		}
	}
}

// An apostrophe read as a word of its own joins its letters again.
func TestASpacedApostropheJoinsItsS(t *testing.T) {
	ls := boxedLines("GENERAL POOR ' S\nTAVERN\n45 MAIN STREET\nHACKENSACK, NJ 07601\n04/10/2016 8:12 PM\nTOTAL 10.70")
	if r := ExtractFields(ls, receipt.DefaultLocale(receipt.CountryUS), testNow); r.SupplierName.Value != "GENERAL POOR'S TAVERN" {
		t.Errorf("supplier %q", r.SupplierName.Value)
	}
}

// A time of day read into the name's line is no part of the name.
func TestATimeAfterTheNameGoes(t *testing.T) {
	us, _ := packs.Get("US")
	for in, want := range map[string]string{
		"IN-N-OUT BURGER SANTA CLARA 12:48 PM": "IN-N-OUT BURGER SANTA CLARA",
		"IN-N-OUT BURGER 12:48":                "IN-N-OUT BURGER",
	} {
		if got := cleanName(in, us); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A digit opening a name as tall as its letters is the name's ("7
// ELEVEN"); one standing a third shorter is a letter half read.
func TestASmallDigitOpeningTheNameIsInDoubt(t *testing.T) {
	for h, doubted := range map[int]bool{19: false, 18: false, 14: true, 10: true} {
		words := []inference.Word{
			{Text: "3", Conf: 0.97, Box: receipt.Box{X: 120, Y: 275, W: 13, H: h}},
			{Text: "&", Conf: 0.78, Box: receipt.Box{X: 173, Y: 273, W: 12, H: 19}},
			{Text: "BEST", Conf: 0.98, Box: receipt.Box{X: 230, Y: 273, W: 98, H: 19}},
			{Text: "RESTAURANT", Conf: 0.98, Box: receipt.Box{X: 373, Y: 273, W: 264, H: 19}},
		}
		lines := append([]Line{GroupLines(words)[0]}, boxedLinesFrom(330, "NO. 2, JALAN SS4C/5, PETALING JAYA", "19/03/2018 12:00", "TOTAL 12.00")...)
		r := ExtractFields(lines, my, testNow)
		Assess(&r, lines, my, testNow)
		if r.SupplierName.Value != "3 & BEST RESTAURANT" {
			t.Fatalf("supplier %q", r.SupplierName.Value)
		}
		if got := strings.Contains(r.SupplierName.Doubt, "smaller"); got != doubted {
			t.Errorf("digit %d px high beside 19: doubted %v (%q)", h, got, r.SupplierName.Doubt)
		}
	}
}

// A name whose line opens with "&" lost the word before it.
func TestANameOpeningWithAnAmpersandIsInDoubt(t *testing.T) {
	for name, doubted := range map[string]bool{"& BEST RESTAURANT": true, "B & BEST RESTAURANT": false} {
		lines := boxedLines(name + "\n(001610235-P)\nNO. 2, JALAN SS4C/5, PETALING JAYA\n19/03/2018 12:00\nTOTAL 12.00")
		r := ExtractFields(lines, my, testNow)
		Assess(&r, lines, my, testNow)
		if got := strings.Contains(r.SupplierName.Doubt, "&"); got != doubted {
			t.Errorf("%q (read %q): doubted %v (%q)", name, r.SupplierName.Value, got, r.SupplierName.Doubt)
		}
	}
	// Its second line may open with one.
	us := receipt.DefaultLocale(receipt.CountryUS)
	lines := boxedLines("MooYAH Burgers Fries\n& Shakes #199\n6121 NW Cache Rd\nLawton, OK 73505\n03/22/2014 12:10 PM\nTOTAL 13.03")
	r := ExtractFields(lines, us, testNow)
	Assess(&r, lines, us, testNow)
	if !strings.HasPrefix(r.SupplierName.Value, "MOOYAH") || r.SupplierName.Doubt != "" {
		t.Errorf("two-line name %q doubted %q", r.SupplierName.Value, r.SupplierName.Doubt)
	}
}

// boxedLinesFrom is boxedLines starting at y.
func boxedLinesFrom(y int, texts ...string) []Line {
	ls := boxedLines(strings.Join(texts, "\n"))
	for i := range ls {
		ls[i].Box.Y += y
	}
	return ls
}

// A name that does not stand centred over the centred lines below it was
// read in part; one a little off, or over lines that share no centre, is
// no sign of it.
func TestANameOffTheCentreOfTheLinesBelowIsInDoubt(t *testing.T) {
	box := func(x, w int) receipt.Box { return receipt.Box{X: x, Y: 0, W: w, H: 20} }
	below := func(boxes ...receipt.Box) []Line {
		ls := []Line{{}}
		for i, b := range boxes {
			b.Y = 30 * (i + 1)
			ls = append(ls, Line{Text: "LINE", Box: b})
		}
		return ls
	}
	centred := below(box(356, 141), box(201, 437), box(309, 227), box(237, 359)) // SROIE 021
	for _, tc := range []struct {
		desc  string
		name  receipt.Box
		lines []Line
		off   bool
	}{
		{"read in part (SROIE 021)", box(163, 369), centred, true},
		{"whole", box(236, 369), centred, false},
		{"a whole name a little off (SROIE 352)", box(42, 427), below(box(180, 265), box(164, 296), box(126, 374), box(198, 229)), false},
		{"lines set flush left", box(163, 369), below(box(100, 141), box(100, 437), box(100, 227)), false},
	} {
		tc.lines[0] = Line{Text: "NAME", Box: tc.name}
		if got := offCentre(tc.lines, 0); got != tc.off {
			t.Errorf("%s: off centre %v, want %v", tc.desc, got, tc.off)
		}
	}
}

// The name printed in full under a logo's heading is read whole: with its
// legal form on the next line, and without the "of" that names the owner.
func TestTheFullNameUnderALogosHeading(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	for _, tc := range []struct {
		name string
		page []Line
		want string
	}{
		{"its legal form on the next line", lines("PASTELARIA CANTINHO DOCE", "Cantinho Doce - Pastelaria e", "Cafetaria, Lda", "Rua Augusta, 85", "1100-048 Lisboa", "Contribuinte: 516720937", "09-01-2025 10:42", "Café 0,80", "TOTAL 12,30 €"), "CANTINHO DOCE - PASTELARIA E CAFETARIA, LDA"},
		{"the owner's of", lines("FARMACIA SAN MARCO", "di Farmacia San Marco S.r.l.", "Calle dei Fabbri, 4712", "30124 VENEZIA (VE)", "P.IVA 04712880279", "22-10-2025 11:05", "TOTALE COMPLESSIVO 27,10"), "FARMACIA SAN MARCO S.R.L"},
		// Its words in the page's language (SERVIÇOS read without its
		// cedilla is no misread SERVICES), its legal form read in two.
		{"in the page's language", lines("LUSOPOST", "Lusopost - Servicos Postais, S .A.", "Sede: Av. Almirante Reis, 214, Lisboa", "NIPC 514832606", "03-06-2025 11:20", "TOTAL 12,20 €"), "LUSOPOST - SERVICOS POSTAIS, S.A"},
		// The legal name under the trading name shares its word: it is
		// not the rest of the heading.
		{"the legal name sharing the heading's word", lines("LAVANDARIA ALVA", "Alva Lavandarias,", "Unipessoal Lda", "Av. da Liberdade, 412 Loja B", "4710-251 Braga", "NIF 513772197", "12-09-2025 17:02", "TOTAL 46,20 €"), "LAVANDARIA ALVA"},
	} {
		r := ExtractFields(tc.page, eu, testNow)
		if r.SupplierName.Value != tc.want {
			t.Errorf("%s: supplier %q (%s), want %q", tc.name, r.SupplierName.Value, r.SupplierName.Why, tc.want)
		}
	}
}

// A short Cyrillic word is short: "ООД" (three letters, six bytes) is a
// legal form, not a misreading of the card slip's "КОД".
func TestACyrillicLegalFormIsNotMendedFromThePage(t *testing.T) {
	page := lines(`"СТАРАТА КЪЩА" ООД`, "гр. Велико Търново", `ул. "Гурко" № 18`, "ЕИК: 104382153", "09.08.2025 20:41",
		"ОБЩА СУМА 67,70 лв", "КАРТА 67,70 лв", "КОД ЗА ОДОБРЕНИЕ: 090233")
	r := ExtractFields(page, receipt.DefaultLocale(receipt.CountryEU), testNow)
	if want := `"СТАРАТА КЪЩА" ООД`; r.SupplierName.Value != want {
		t.Errorf("supplier %q, want %q", r.SupplierName.Value, want)
	}
}

// A word of the page's own language is not mended into an English shop
// word: ESTACION is no misread STATION.
func TestANameInThePagesLanguageKeepsItsWords(t *testing.T) {
	page := lines("ESTACION DE SERVICIO EL CRUCE", "CARBURANTES EL CRUCE, S.A.", "Ctra. N-340, km 412", "04720 Aguadulce (Almería)",
		"CIF: A04123457", "FACTURA SIMPLIFICADA", "Fecha: 11-07-2025 08:14", "GASOLEO A 45,32 L 68,12", "TOTAL 72,12 €", "IVA 21% 12,52")
	r := ExtractFields(page, receipt.DefaultLocale(receipt.CountryEU), testNow)
	if !strings.HasPrefix(r.SupplierName.Value, "ESTACION") {
		t.Errorf("supplier %q, want the ESTACION printed", r.SupplierName.Value)
	}
}

// A heading that only says what the business is (GASTHAUS) goes on to the
// business's own name on the next line, unless that line prints the name
// in full with the heading's words in it; a logo's name goes on to the
// trade word under it (GREENLEAF / FOODS).
func TestATradeHeadingGoesOnToItsName(t *testing.T) {
	eu, us := receipt.DefaultLocale(receipt.CountryEU), receipt.DefaultLocale(receipt.CountryUS)
	for _, tc := range []struct {
		loc  receipt.Locale
		page []Line
		want string
	}{
		{eu, lines("GASTHAUS", "Zum Schwarzen Adler", "Inh. Theresia Pichler", "Lerchenfelder Gürtel 28, 1070 Wien", "UID: ATU73255087", "09.11.2024 20:15", "S U M M E EUR 139,20"), "GASTHAUS ZUM SCHWARZEN ADLER"},
		{us, lines("CORNERSTONE", "D R U G", "Store #0552", "3901 N High St, Columbus OH 43214", "07/14/2024 4:37 PM", "TOTAL $69.94"), "CORNERSTONE DRUG"},
		{receipt.DefaultLocale(receipt.CountryAU), lines("GREENLEAF", "FOODS", "Shop 14, Westfield Rd, Indooroopilly", "QLD 4068 Ph (07) 3555 0182", "15/06/2024 10:02", "TOTAL $67.30"), "GREENLEAF FOODS"},
		// The kinds of business a heading's second line names.
		{receipt.DefaultLocale(receipt.CountryOther), lines("RIVERSIDE", "VETERINARY CLINIC", "Dublin Road, Mullingar", "Tel: 044 934 8812", "03/03/2025 10:12", "TOTAL €291.41"), "RIVERSIDE VETERINARY CLINIC"},
		{receipt.DefaultLocale(receipt.CountryUK), lines("VOLTBOX", "E L E C T R O N I C S", "112 New Street, Birmingham B2 4JB", "29/11/2024 14:02", "TOTAL £317.98"), "VOLTBOX ELECTRONICS"},
		{receipt.DefaultLocale(receipt.CountryNZ), lines("REEF & BATTER", "Fish 'n' Chips", "17 Marine Parade, New Brighton", "07/03/2025 18:40", "TOTAL $69.30"), "REEF & BATTER FISH 'N' CHIPS"},
		{us, lines("GRILLE", "Villaggio Grille", "4780 Wharf Parkway", "Orange Beach, AL 36561", "05/12/2019 7:48 PM", "Total $48.20"), "VILLAGGIO GRILLE"},
		// A car park's heading is its trade; the next line names it.
		{eu, lines("PARKEERGARAGE", "STADHUISPLEIN", "ParkStad Exploitatie B.V.", "Stadhuisplein 4", "1315 HR Almere", "Betaald 23-02-2024 08:47", "TOTAAL 18,50"), "PARKEERGARAGE STADHUISPLEIN"},
		// A name carried on to the next line by its article, not by an
		// owner's "di".
		{eu, lines("HOTEL MIRADOURO", "DA GRAÇA", "Miradouro da Graça - Hotelaria e Turismo, S.A.", "Largo da Graça, 63 - 1170-165 Lisboa", "19-04-2025 11:12", "TOTAL 1.212,50 €"), "HOTEL MIRADOURO DA GRAÇA"},
		{eu, lines("TRATTORIA DA GIGI", "di Esposito Luigi", "Via dei Tribunali, 94", "80138 NAPOLI", "12/10/2024 21:15", "TOTALE 48,00"), "TRATTORIA DA GIGI"},
	} {
		if r := ExtractFields(tc.page, tc.loc, testNow); r.SupplierName.Value != tc.want {
			t.Errorf("supplier %q (%s), want %q", r.SupplierName.Value, r.SupplierName.Why, tc.want)
		}
	}
}

// A trade heading joined to the line under it is read whole, but not
// trusted: that line may be the branch's place ("MARCHÉ +" / "Centre
// Commercial Grand Sud"), not the business's name.
func TestATradeHeadingJoinedToItsNextLineIsDoubted(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	page := lines("MARCHÉ +", "Centre Commercial Grand Sud", "128 avenue Jean Jaurès", "69007 LYON", "14/06/2024 18:02", "TOTAL 23,10 €")
	r := ExtractFields(page, eu, testNow)
	Assess(&r, page, eu, testNow)
	if !strings.Contains(r.SupplierName.Doubt, "says only what the business is") {
		t.Errorf("supplier %q, doubt %q", r.SupplierName.Value, r.SupplierName.Doubt)
	}
	// The name printed in full under its logo and trade is no such join.
	us := receipt.DefaultLocale(receipt.CountryUS)
	page = boxedLines("GRILLE\nVillaggio Grille\n4780 Wharf Parkway\nOrange Beach, AL 36561\n05/12/2019 7:48 PM\nTotal $48.20")
	r = ExtractFields(page, us, testNow)
	Assess(&r, page, us, testNow)
	if strings.Contains(r.SupplierName.Doubt, "first line") {
		t.Errorf("supplier %q, doubt %q", r.SupplierName.Value, r.SupplierName.Doubt)
	}
}

// The owner's "di" before a registered name goes (golden till-it-003 reads
// it at the head of the address); a longer word in small letters is a
// capital misread, and stays.
func TestTheOwnersPrepositionBeforeALegalName(t *testing.T) {
	for in, want := range map[string]string{
		"di Farmacia San Marco S . r. l .": "Farmacia San Marco S . r. l .",
		"egi CASH & CARRY SDN. BHD":        "egi CASH & CARRY SDN. BHD",
	} {
		if got := dropLeadingPreposition(in); got != want {
			t.Errorf("dropLeadingPreposition(%q) = %q, want %q", in, got, want)
		}
	}
}

// printedRow is a line of text printed with letters letterWidth wide.
type printedRow struct {
	text        string
	letterWidth int
}

// printedLines are lines as a page reader reads them, each word boxed, the
// letters of each line letterWidth pixels wide: a till's double-size
// heading is twice as wide as its body.
func printedLines(rows ...printedRow) []Line {
	var words []inference.Word
	y := 20
	for i, row := range rows {
		x := 40
		h := max(14, row.letterWidth+4)
		for _, w := range strings.Fields(row.text) {
			width := row.letterWidth * utf8.RuneCountInString(w)
			words = append(words, inference.Word{Text: w, Box: receipt.Box{X: x, Y: y, W: width, H: h}, Conf: 0.98, Line: i})
			x += width + row.letterWidth
		}
		y += h + h/2
	}
	return GroupLines(words)
}

// A name printed large over two lines is one name, whatever the second
// line says ("PARQUE" over "PRAÇA NOVA", a place's words), the large
// print's own spacing no blank between them; a line printed small under
// it is not (see TestATradeHeadingGoesOnToItsName for the trade lines
// that are).
func TestANamePrintedLargeOverTwoLinesIsOneName(t *testing.T) {
	type row = printedRow
	eu := receipt.DefaultLocale(receipt.CountryEU)
	for _, tc := range []struct {
		page []Line
		want string
	}{
		{printedLines(row{"PARQUE", 24}, row{"PRAÇA NOVA", 24}, row{"ESTACIONAMENTOS PRAÇA NOVA, S.A.", 12}, row{"Praça Nova, 10", 12},
			row{"3000-123 Coimbra", 12}, row{"NIF 503716294", 12}, row{"FATURA-RECIBO", 12}, row{"Pagamento: 18/11/2023 10:02", 12},
			row{"TOTAL 13,20", 12}), "PARQUE PRAÇA NOVA"},
		{printedLines(row{"FERRETERÍA", 22}, row{"EL CLAVO", 22}, row{"SUMINISTROS EL CLAVO, S.L.", 11}, row{"CIF: B50934173", 11},
			row{"C/ Mayor, 88 - 50001 Zaragoza", 11}, row{"Sábado, 22 de noviembre de 2025 - 11:07", 11}, row{"TOTAL 129,39", 11}), "FERRETERÍA EL CLAVO"},
		{printedLines(row{"POST & PAPIER", 20}, row{"KRÜGER", 20}, row{"Postfiliale 452 - Schreibwaren - Geschenke", 10},
			row{"Inh. Martina Krüger e.K.", 10}, row{"Hauptstraße 27, 79104 Freiburg", 10}, row{"Datum 03.02.25 Zeit 11:18", 10}, row{"SUMME EUR 24,10", 10}), "POST & PAPIER KRÜGER"},
		// The address printed small under a large name is not the name's.
		{printedLines(row{"PARQUE", 24}, row{"PRAÇA NOVA", 12}, row{"3000-123 Coimbra", 12}, row{"NIF 503716294", 12},
			row{"Pagamento: 18/11/2023 10:02", 12}, row{"TOTAL 13,20", 12}, row{"IVA 23% 2,47", 12}), "PARQUE"},
	} {
		if r := ExtractFields(tc.page, eu, testNow); r.SupplierName.Value != tc.want {
			t.Errorf("supplier %q (%s), want %q", r.SupplierName.Value, r.SupplierName.Why, tc.want)
		}
	}
}

// A legal name printed with its address after a comma is the name alone.
func TestTheAddressAfterALegalNameIsNoPartOfIt(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	for _, tc := range []struct {
		page []Line
		want string
	}{
		{lines("PERRON SHOP", "Bahnhof Olten - Gleis 7", "Perron Retail GmbH, Bahnhofquai 3", "4600 Olten", "MWST-Nr. CHE-215.389.044 MWST",
			"Datum: 2025-07-04 Zeit: 06:52:07", "TOTAL CHF 51.45"), "PERRON RETAIL GMBH"},
		// The legal form after the comma is the name's own.
		{lines("SUMINISTROS EL CLAVO, S.L.", "CIF: B50934173", "C/ Mayor, 88 - 50001 Zaragoza", "22/11/2025 11:07", "TOTAL 129,39"), "SUMINISTROS EL CLAVO, S.L"},
	} {
		if r := ExtractFields(tc.page, eu, testNow); r.SupplierName.Value != tc.want {
			t.Errorf("supplier %q (%s), want %q", r.SupplierName.Value, r.SupplierName.Why, tc.want)
		}
	}
}

// The name a page says the business trades under ends a heading joined
// from its lines where it ends: "& GAMES" under "TOADSTOOL TOYS" is the
// trade, when the footer says "o/a Toadstool Toys".
func TestTheNameItTradesUnderEndsTheHeading(t *testing.T) {
	type row = printedRow
	ca := receipt.DefaultLocale(receipt.CountryOther)
	ca.Pack = "CA"
	for _, tc := range []struct {
		page []Line
		want string
	}{
		{printedLines(row{"TOADSTOOL TOYS", 20}, row{"& GAMES", 20}, row{"88 Brock Street, Kingston ON K7L 1R9", 10},
			row{"Store 01 Reg 02 Trans 58814", 10}, row{"01/25/2025 14:02", 10}, row{"TOTAL 184.12", 10},
			row{"2739115 Ontario Inc. o/a Toadstool Toys", 10}), "TOADSTOOL TOYS"},
		// Without it the line is the name's.
		{printedLines(row{"TOADSTOOL TOYS", 20}, row{"& GAMES", 20}, row{"88 Brock Street, Kingston ON K7L 1R9", 10},
			row{"Store 01 Reg 02 Trans 58814", 10}, row{"01/25/2025 14:02", 10}, row{"TOTAL 184.12", 10},
			row{"2739115 Ontario Inc.", 10}), "TOADSTOOL TOYS & GAMES"},
	} {
		if r := ExtractFields(tc.page, ca, testNow); r.SupplierName.Value != tc.want {
			t.Errorf("supplier %q (%s), want %q", r.SupplierName.Value, r.SupplierName.Why, tc.want)
		}
	}
}

// The shop's phone is a number its country's plan holds, printed with its
// name and address, else at the foot; not one after FAX, nor a number
// among the sale's lines.
func TestTheSuppliersPhone(t *testing.T) {
	for _, tc := range []struct {
		pack string
		page []Line
		want string
	}{
		{"DE", lines("EISCAFÉ CORTINA", "Bertoldstraße 22", "79098 Freiburg", "Fax 0761 555 38 21 Tel. 0761 555 38 20", "20.07.24 15:42",
			"Spaghetti-Eis 7,90", "SUMME EUR 7,90"), "0761 555 38 20"},
		{"DE", lines("EISCAFÉ CORTINA", "Bertoldstraße 22", "79098 Freiburg", "Tel. 0761 555 38 20 Fax 0761 555 38 21", "20.07.24 15:42",
			"Spaghetti-Eis 7,90", "SUMME EUR 7,90"), "0761 555 38 20"},
		{"US", lines("DRIFTLESS ACRES", "Aug 16, 2025 9:42 AM", "Honey $11.00", "Call back 608-555-0117 $0.00", "Total $11.00",
			"Questions? (608) 555-0142"), "(608) 555-0142"},
		{"MY", lines("SEMUA KOPI SDN BHD", "22, Lebuh Armenian, 10200 George Town", "Tel: 04-261 3378", "Kopi 9.90", "TOTAL RM 9.90"), "04-261 3378"},
		{"MY", lines("SEMUA KOPI SDN BHD", "22, Lebuh Armenian, 10200 George Town", "TEL/FAX: 04-261 3378", "Kopi 9.90", "TOTAL RM 9.90"), "04-261 3378"},
		{"MY", lines("SEMUA KOPI SDN BHD", "22, Lebuh Armenian, 10200 George Town", "FAX NO: 04-261 3379 TEL NO: 04-261 3378", "Kopi 9.90", "TOTAL RM 9.90"), "04-261 3378"},
	} {
		loc := receipt.DefaultLocale(receipt.CountryEU)
		loc.Pack = tc.pack
		if r := ExtractFields(tc.page, loc, testNow); r.SupplierPhone.Value != tc.want {
			t.Errorf("%s: phone %q, want %q", tc.page[0].Text, r.SupplierPhone.Value, tc.want)
		}
	}
}

// Trades listed under a heading, set apart by stars, are no part of the
// name.
func TestTradesListedWithStarsAreNoName(t *testing.T) {
	uk := receipt.DefaultLocale(receipt.CountryUK)
	uk.Pack = "UK"
	page := lines("BRAMBLEWOOD GARDEN CENTRE", "Plants * Gifts * Pets * Coffee Shop", "Knutsford Road, Holmes Chapel", "Cheshire CW4 8AJ",
		"19/04/2025 11:06", "COMPOST 50L 16.47", "TOTAL 55.72")
	if r := ExtractFields(page, uk, testNow); r.SupplierName.Value != "BRAMBLEWOOD GARDEN CENTRE" {
		t.Errorf("supplier %q (%s)", r.SupplierName.Value, r.SupplierName.Why)
	}
}

// A registered name on a sender line ends at its legal form, not at the
// line's end; a name printed with the word for "trading as" before it is
// the name without the word.
func TestTheNameEndsWhereItsLineGoesOn(t *testing.T) {
	for _, tc := range []struct {
		country string
		page    []Line
		want    string
	}{
		{"EU", lines("BUROWELT LEITNER", "Leitner Burobedarf Grosshandels GmbH, Industriezeile 36, 4020 Linz",
			"RECHNUNG 24-R-08812", "Rechnungsdatum: 04.11.2024", "Gesamtbetrag 1.231,28"), "LEITNER BUROBEDARF GROSSHANDELS GMBH"},
		{"other", lines("KAWARTHA", "TIRE HOTEL", "Seasonal Swaps - Storage - Balancing", "2718364 Ontario Inc.", "o/a Kawartha Tire Hotel",
			"1190 Chemong Rd, Peterborough ON K9H 7E7", "2024/11/09 10:12", "TOTAL $273.06"), "KAWARTHA TIRE HOTEL"},
	} {
		r := ExtractFields(tc.page, receipt.DefaultLocale(receipt.Country(tc.country)), testNow)
		if r.SupplierName.Value != tc.want {
			t.Errorf("supplier %q (%s), want %q", r.SupplierName.Value, r.SupplierName.Why, tc.want)
		}
	}
}
