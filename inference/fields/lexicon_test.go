package fields

import (
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

func TestMendTradeWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"GARDENIA BAKERLES (KL) SDN BHD", "GARDENIA BAKERIES (KL) SDN BHD"},
		{"ENW HARDWAWVE CENTRE (M) SDN. BHD", "ENW HARDWARE CENTRE (M) SDN. BHD"},
		{"379, JALAN PERMAS SATU, BANOAR BARU", "379, JALAN PERMAS SATU, BANDAR BARU"},
		{"41150 KLANG, SCLANGOR,", "41150 KLANG, SELANGOR,"},
		{"KEDAI PAPAN YEW CHUAN", "KEDAI PAPAN YEW CHUAN"}, // a known word stays
		{"DAISO JAPAN, IOI MALL", "DAISO JAPAN, IOI MALL"}, // not JALAN
		{"BATFU (M) SDN BHD", "BATFU (M) SDN BHD"},         // short words: no dropped letters
		{"PASAR MINT JIN SENG", "PASAR MINT JIN SENG"},     // under five letters: left alone
		{"56000 KUALA !UMPUR, MALAYSIA", "56000 KUALA LUMPUR, MALAYSIA"},
		{"PETALING JAYA, SELA:IGOR DARUL EHSAN", "PETALING JAYA, SELANGOR DARUL EHSAN"},
		{"TAMAN DAYA, J!HOR.", "TAMAN DAYA, JOHOR."},
		{"NO.1, {AMAN SRI DENGKIL,", "NO.1, TAMAN SRI DENGKIL,"}, // a bracket for the first letter
		{"BUKIT [AMAN", "BUKIT TAMAN"},
		{"MR. D.I.Y. (M) SDN BHD", "MR. D.I.Y. (M) SDN BHD"}, // dots are no letters
		{"NO. 12,JA.AN SS4C/5", "NO. 12,JALAN SS4C/5"},       // … but for one inside a word, where a word fits
		{"LOT P.T. 2811, JALAN ANGSA", "LOT P.T. 2811, JALAN ANGSA"},
		{"ACME SDN.BHD", "ACME SDN.BHD"},
		{"KING'S CONFECTIONERY", "KING'S CONFECTIONERY"},                  // an apostrophe that fits no trade word
		{"Mixed Case Bakerles", "Mixed Case Bakerles"},                    // only capitals are mended
		{"McDONALDS", "McDONALDS"},                                        // no trade word fits
		{"MiNI MART", "MiNI MART"},                                        // MINI is no trade word
		{"AIK HOE HARDARE CENTRE", "AIK HOE HARDWARE CENTRE"},             // a letter dropped from a long word
		{"BAKER STORIES", "BAKER STORIES"},                                // an English word one letter from STORES stays
		{"TAMAN DAMAI, SERDANG,SELANGR", "TAMAN DAMAI, SERDANG,SELANGOR"}, // a dropped letter, after a comma
		{"HARDWARS MART", "HARDWARS MART"},                                // another ending is another word
		{"47500 SUBANG JAYA,SCLANGOR", "47500 SUBANG JAYA,SELANGOR"},      // words glued by a comma, one by one
		{"NO 7,JALAN TEMBAGA,PETALING,JAYA", "NO 7,JALAN TEMBAGA,PETALING,JAYA"},
	} {
		if got := mendTradeWords(tc.in); got != tc.want {
			t.Errorf("mendTradeWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMendAddressWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"PASAR BORONG SELAYANG", "PASAR BORONG SELAYANG"}, // PASAR, a market, is not PASIR
		{"JALAN TANJONG KATONG", "JALAN TANJONG KATONG"},   // an older spelling of TANJUNG
		{"CENTRAL PLAZA, SUNDAY MARKET", "CENTRAL PLAZA, SUNDAY MARKET"},
		{"41150 KLANG, SCLANGOR,", "41150 KLANG, SELANGOR,"}, // trade words too
	} {
		if got := mendAddressWords(tc.in); got != tc.want {
			t.Errorf("mendAddressWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// A supplier's name is no address: its proper names stay.
	if got := mendTradeWords("SANJUNG REALITI SDN. BHD"); got != "SANJUNG REALITI SDN. BHD" {
		t.Errorf("mendTradeWords mended a name to a street word: %q", got)
	}
}

func TestMendTradeWordsKeepsOtherEndings(t *testing.T) {
	if got := mendTradeWords("CORNER STATIONERS LTD"); got != "CORNER STATIONERS LTD" {
		t.Errorf("got %q", got)
	}
}

func TestMendAddressAbbrevs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"NO: G3, BIK G, JIN PJU 1A/3, ARA DAMANSARA", "NO: G3, BLK G, JLN PJU 1A/3, ARA DAMANSARA"},
		{"NO. 15 JEN TSJ2, TMN SUBANG JASA, OFF JUN BT 3 SUBANG", "NO. 15 JLN TSJ2, TMN SUBANG JASA, OFF JLN BT 3 SUBANG"},
		{"KEPONG, 1558-THN PUSAT KEPONG", "KEPONG, 1558-TMN PUSAT KEPONG"},
		{"42100 KLANG, THN PUSAT KEPONG", "42100 KLANG, TMN PUSAT KEPONG"},
		{"TAMAN JUN", "TAMAN JUN"},                     // the last word is no abbreviation before a name
		{"LOR 5, TAMAN MELATI", "LOR 5, TAMAN MELATI"}, // lorong
		{"JALAN PJU 10/4", "JALAN PJU 10/4"},
		{"NO 5, LUI 12", "NO 5, LUI 12"}, // LOT opens an address
		{"JINJANG UTARA", "JINJANG UTARA"},
		{"BIKE SHOP", "BIKE SHOP"},
		{"NO. 31G833G, JALAN SETIA INDAH X", "NO. 31G&33G, JALAN SETIA INDAH X"},
		{"NO. 318, JALAN 3/8A", "NO. 318, JALAN 3/8A"}, // no lettered numbers on both sides
	} {
		if got := myLexicon().abbrevs.apply(tc.in); got != tc.want {
			t.Errorf("abbreviations.apply(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMendFromPage(t *testing.T) {
	for _, tc := range []struct {
		name string
		body []string
		want string
	}{
		{"SANYO STATIONERY SHOP", []string{"SANYU SUPPLY SDN BHD (1135772-K)", "Follow us on Facebook: Sanyu.Stationery"}, "SANYU STATIONERY SHOP"},
		{"GARDEQIA BAKERIES (KL) SDN BHD", []string{"The recipient of Gardenia's products is"}, "GARDENIA BAKERIES (KL) SDN BHD"},
		{"SANYO STATIONERY SHOP", []string{"Thank you for shopping at SANYO", "SANYU SUPPLY SDN BHD"}, "SANYO STATIONERY SHOP"}, // printed again as read
		{"HARBOUR HARDWARE", []string{"HARDWIRE CABLE 2M 5.00"}, "HARBOUR HARDWARE"},                                            // a known word stays
		{"ACME TRADERS", []string{"ACNE CREAM 5.00", "ACRE LOT"}, "ACME TRADERS"},                                               // four letters: left alone
		{"BAIFU (M) SDN BHD", []string{"BAIFA 1.00", "BAIFO 2.00"}, "BAIFU (M) SDN BHD"},                                        // two twins: no guess
		{"RSSMANN", []string{"Vielen Dank", "UST: Dirk Rossmann GmbH"}, "ROSSMANN"},                                             // a logo's letter passed over
		{"BURGER JOINT", []string{"BURGERS 2 11.00"}, "BURGER JOINT"},                                                           // a letter more at the end: a plural
		{"SAMSNG TRADING", []string{"SAMSUNG 1.00", "SAMSING 2.00"}, "SAMSNG TRADING"},                                          // two fuller spellings: no guess
		{"DAILY GRIL", []string{"EXCELLENCE SERVED DAILY", "Daily Grill"}, "DAILY GRILL"},                                       // a double letter merged at the end
		{"DAILY GRIL", []string{"Daily Grills"}, "DAILY GRIL"},                                                                  // two letters more: no guess
		{"DAILY GRIL", []string{"GRIL PAN 1.00", "Daily Grill"}, "DAILY GRIL"},                                                  // printed again as read
	} {
		ls := append(lines(tc.name), lines(tc.body...)...)
		if got := myLexicon().mendFromPage(tc.name, ls, 0, 0); got != tc.want {
			t.Errorf("mendFromPage(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Where the reader gave each word's confidence, a name's word takes the
// page's spelling only when the page's is the surer reading, or printed
// there twice.
func TestMendFromPageWeighsTheReadings(t *testing.T) {
	withWords := func(text string, conf float64) Line {
		l := Line{Text: text, Conf: conf}
		for _, f := range strings.Fields(text) {
			l.Words = append(l.Words, inference.Word{Text: f, Conf: conf})
		}
		return l
	}
	const name = "KEMBOLA BAKERIES (KL) SDN BHD"
	for _, tc := range []struct {
		desc string
		name float64
		body []Line
		want string
	}{
		{"the page's reading is surer", 0.85, []Line{withWords("The recipient of Kembala's products", 0.95)}, "KEMBALA BAKERIES (KL) SDN BHD"},
		{"the name's reading is surer", 0.99, []Line{withWords("The recipient of Kembala's products", 0.95)}, name},
		{"read as surely", 0.990, []Line{withWords("The recipient of Kembala's products", 0.992)}, name}, // "Sushi" and "Sashi mi"
		{"printed twice, less surely", 0.99, []Line{withWords("The recipient of Kembala's products", 0.95), withWords("Kembala thanks you", 0.9)}, "KEMBALA BAKERIES (KL) SDN BHD"},
	} {
		ls := append([]Line{withWords(name, tc.name)}, tc.body...)
		if got := myLexicon().mendFromPage(name, ls, 0, 0); got != tc.want {
			t.Errorf("%s: mendFromPage = %q, want %q", tc.desc, got, tc.want)
		}
	}
}

// An address word read with doubt takes its spelling from the address's
// own confident line; one read with confidence stays as read.
func TestMendFromPageInAnAddress(t *testing.T) {
	page := lines("NO.1, TAMAN SRI UENGKIL, JALAN AIR HITAM", "43800 DENGKIL, SELANGOR.")
	addr := "NO.1, TAMAN SRI UENGKIL, JALAN AIR HITAM, 43800 DENGKIL, SELANGOR."
	page[0].Conf = 0.73
	if got, want := myLexicon().mendFromPage(addr, page, -1, -1), "NO.1, TAMAN SRI DENGKIL, JALAN AIR HITAM, 43800 DENGKIL, SELANGOR."; got != want {
		t.Errorf("doubtful line: %q, want %q", got, want)
	}
	page[0].Conf = 0.9
	if got := myLexicon().mendFromPage(addr, page, -1, -1); got != addr {
		t.Errorf("confident line: %q, want it as read", got)
	}
}

func TestMendLowerInCapsWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"HOnE MASTER HARDWARE &", "HOME MASTER HARDWARE &"}, // one lower-case letter in capitals is the misread one
		{"McDONALDS", "McDONALDS"},                           // no trade word fits
		{"MiNI MART", "MiNI MART"},                           // MINI is no trade word
		{"Jalan Dinar G", "Jalan Dinar G"},                   // mixed case is how it is printed
		{"NO 5, JALAn BESAR", "NO 5, JALAN BESAR"},
	} {
		if got := myLexicon().mendLowerInCapsWords(tc.in); got != tc.want {
			t.Errorf("mendLowerInCapsWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMendPlacePhrases(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"PT17920 SEK U9, SHAH ALAN", "PT17920 SEK U9, SHAH ALAM"},
		{"40150 SHEH ALAM SELANGOR", "40150 SHAH ALAM SELANGOR"},
		{"45600 BATANG BERJUNTAY, SELANGOR DARU EHSAN", "45600 BATANG BERJUNTAY, SELANGOR DARUL EHSAN"},
		{"47800 PETALING JAYA.", "47800 PETALING JAYA."},
		{"81100 JOHOR BAHRU, JOHOR.", "81100 JOHOR BAHRU, JOHOR."},
		{"TAMAN SRI JAYA", "TAMAN SRI JAYA"},             // SRI is not SERI's pair here
		{"SHAH ALAM KLANG LAMA", "SHAH ALAM KLANG LAMA"}, // right as read
		{"Shah Alan", "Shah Alan"},                       // only capitals are mended
		{"BANDAR BATU", "BANDAR BATU"},                   // BATU is a word
		{"JALAN SUBANG JASA 3", "JALAN SUBANG JASA 3"},   // a street, not the town of Subang Jaya
	} {
		if got := myLexicon().mendPlacePhrases(tc.in); got != tc.want {
			t.Errorf("mendPlacePhrases(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The place words, phrases and street abbreviations are Malaysia's: a
// British, American or Australian name or street is never "mended" to one.
func TestMalaysianMendsStayInMalaysia(t *testing.T) {
	for _, tc := range []struct {
		in   string
		c    receipt.Country
		want string
		addr bool
	}{
		{"SARAH BAKERY", receipt.CountryAU, "SARAH BAKERY", false},
		{"PARIS CAFE", receipt.CountryUK, "PARIS CAFE", false},
		{"GROVER HARDWAPE", receipt.CountryUS, "GROVER HARDWARE", false}, // a shop word is mended anywhere
		{"12 JEN ST", receipt.CountryUK, "12 JEN ST", true},
		{"PETRA HOUSE, WILMA ROAD", receipt.CountryUK, "PETRA HOUSE, WILMA ROAD", true},
		{"NO 5, JEN 3/4, TAMAN MELATI", receipt.CountryMY, "NO 5, JLN 3/4, TAMAN MELATI", true},
		{"PORTLAND OR, 97201", receipt.CountryUS, "PORTLAND OR, 97201", true},
	} {
		got := mendNameWords(tc.in, tc.c)
		if tc.addr {
			got = mendAddressText(tc.in, tc.c)
		}
		if got != tc.want {
			t.Errorf("%s %q -> %q, want %q", tc.c, tc.in, got, tc.want)
		}
	}
}

func TestFixLegalSuffix(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"GARDENIA BAKERIES (KL) SDN BLD", "GARDENIA BAKERIES (KL) SDN BHD"},
		{"WAHIN HARDWARE SIN BHD", "WAHIN HARDWARE SDN BHD"},
		{"99 SPEED MART $/D (519537-X)", "99 SPEED MART S/B (519537-X)"},
		{"KING'S CONFECTIONERY §/B", "KING'S CONFECTIONERY S/B"},
		{"MR. D.I.Y. (H) SDN BHD", "MR. D.I.Y. (M) SDN BHD"},
		{"GARDENIA BAKERIES (KL) SDN BHD", "GARDENIA BAKERIES (KL) SDN BHD"},
		{"SUPER TEN CASH & CARRY SEN 3HD", "SUPER TEN CASH & CARRY SDN BHD"},
		{"ACME (SP) SDN. BHX", "ACME (SP) SDN. BHD"},
		{"ACME BAKERIES(KL)SDNBHID", "ACME BAKERIES(KL)SDNBHD"},
		{"SIN HUAT TRADING", "SIN HUAT TRADING"}, // SIN is a name here: no BHD follows
		{"SEN HUAT BHX TRADING", "SEN HUAT BHX TRADING"},
		{"Harbour Hardware Pty Ltd", "Harbour Hardware Pty Ltd"},
		{"ACME CASH & CARRY SDN. KBD", "ACME CASH & CARRY SDN. BHD"},
		{"ACME CASH & CARRY SDN. KBD PUCHONG", "ACME CASH & CARRY SDN. KBD PUCHONG"}, // not the name's last word
		{"ACME RAIL SL I I BHD", "ACME RAIL SDN BHD"},
		{"ACME S & S BHD", "ACME S & S BHD"},
		{"SYARIKAT ACME BHD", "SYARIKAT ACME BHD"},
		{"La Pergoletta S . a . s .", "LA PERGOLETTA S.A.S."},
		{"Ferramenta Conti S. r. l.", "FERRAMENTA CONTI S.R.L."},
		{"Lusopost S .A.", "LUSOPOST S.A."},
	} {
		if got := fixLegalSuffix(tc.in); got != tc.want {
			t.Errorf("fixLegalSuffix(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMendDigitsInWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"LEVE1 6, BANGUNAN TH", "LEVEL 6, BANGUNAN TH"},
		{"47400 PETA1ING JAYA,", "47400 PETALING JAYA,"},
		{"JALAN SE7IA INDAH", "JALAN SETIA INDAH"},
		{"47500 5UBANG JAYA", "47500 SUBANG JAYA"},
		{"JALAN BANDAR RAWAN9 10", "JALAN BANDAR RAWANG 10"},
		{"JALAN SET1A INDAH", "JALAN SETIA INDAH"},
		// No word results, or too few letters: as read.
		{"JALAN PJU6A, U13/X, SS21/39, 2ND FLOOR", "JALAN PJU6A, U13/X, SS21/39, 2ND FLOOR"},
		{"NO 1O1, B10 0AA", "NO 1O1, B10 0AA"},
	} {
		if got := mendAddressWords(tc.in); got != tc.want {
			t.Errorf("mendAddressWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestJoinSplitWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"STAT IONERY SDN.BHD", "STATIONERY SDN.BHD"},
		{"47400 PETA1 ING JAYA,", "47400 PETALING JAYA,"},
		{"NO.2, JAL AN TEMENGGUNG", "NO.2, JALAN TEMENGGUNG"},
		{"L EVE1 6, BANGUNAN TH", "LEVEL 6, BANGUNAN TH"}, // four letters and a digit read for one
		{"NO 1, JLN 5", "NO 1, JLN 5"},
		// Words on their own, or no word together: as read.
		{"SEA FOOD HOME LIVING", "SEA FOOD HOME LIVING"},
		{"C W KHOO HARDWARE", "C W KHOO HARDWARE"},
		{"JALAN BESAR", "JALAN BESAR"},
	} {
		if got := myLexicon().joinSplitWords(tc.in, myLexicon().address); got != tc.want {
			t.Errorf("joinSplitWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMendZeroInNameWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"G0LDEN B0OK SDN BHD", "GOLDEN BOOK SDN BHD"},
		{"HAI~0 RAYA BHD", "HAI-O RAYA BHD"}, // SROIE 382 enlarged
		{"7-ELEVEN MALAYSIA SDN BHD", "7-ELEVEN MALAYSIA SDN BHD"},
		{"A1 MART", "A1 MART"},
		{"99 SPEED MART S/B", "99 SPEED MART S/B"},
		{"3M CENTRE", "3M CENTRE"},
		{"B00K CAFE", "B00K CAFE"},                 // two zeros: which is which is not known
		{"MART 2000 SDN BHD", "MART 2000 SDN BHD"}, // a number
		{"AB-10 TRADING", "AB-10 TRADING"},
		{"0 SUILLEABHAIN HARDWARE LTD", "O SUILLEABHAIN HARDWARE LTD"}, // Ó read as 0
		{"SEAN 0'BRIEN LTD", "SEAN O'BRIEN LTD"},
		{"ROOM 10 0 STREET", "ROOM 10 0 STREET"}, // after a number
		{"MART 100 0", "MART 100 0"},
	} {
		if got := mendZeroInNameWords(tc.in); got != tc.want {
			t.Errorf("mendZeroInNameWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMendZeroInAddressWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		c    receipt.Country
		want string
	}{
		{"49 0AK AVE, RENO NV 89501", receipt.CountryUS, "49 OAK AVE, RENO NV 89501"},
		{"220 PARK BLVD, TOLED0 0H 43604", receipt.CountryUS, "220 PARK BLVD, TOLEDO OH 43604"},
		{"GARTENWEG 11, 50667 K0ELN", receipt.CountryEU, "GARTENWEG 11, 50667 KOELN"},
		{"12 W00D ST, HOBART TAS 7000", receipt.CountryAU, "12 WOOD ST, HOBART TAS 7000"},
		{"2 0'CONNELL STREET, GALWAY H91 E2K4", receipt.CountryEU, "2 O'CONNELL STREET, GALWAY H91 E2K4"}, // an Irish O'
		{"UNIT 4, 0'NEILL'S YARD", receipt.CountryUK, "UNIT 4, O'NEILL'S YARD"},
		{"10TH FLOOR, 100 MAIN ST", receipt.CountryUS, "10TH FLOOR, 100 MAIN ST"},
		{"LOT B-01, JALAN 10/0", receipt.CountryMY, "LOT B-01, JALAN 10/0"},
		{"C/0 ACME, 5 HIGH ST", receipt.CountryAU, "C/0 ACME, 5 HIGH ST"},
		{"HOUSES OF PARLIAMENT, LONDON SW1A 0AA", receipt.CountryUK, "HOUSES OF PARLIAMENT, LONDON SW1A 0AA"},
		{"1 CHURCH R0AD, LONDON SW1A 0AA", receipt.CountryUK, "1 CHURCH ROAD, LONDON SW1A 0AA"},
		{"KAWASAN BALAKONG, 4330O SERI KEMBANGAN", receipt.CountryMY, "KAWASAN BALAKONG, 43300 SERI KEMBANGAN"},
		{"OFF JALAN PUDU, 551OO KUALA LUMPUR", receipt.CountryMY, "OFF JALAN PUDU, 55100 KUALA LUMPUR"},
		{"NO 1O, JALAN OO", receipt.CountryMY, "NO 1O, JALAN OO"}, // too few digits to know
	} {
		if got := mendZeroInAddressWords(tc.in, tc.c); got != tc.want {
			t.Errorf("mendZeroInAddressWords(%q, %s) = %q, want %q", tc.in, tc.c, got, tc.want)
		}
	}
}

func TestMendTradePhrases(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ACME CASHF & CARY SDN. BHD", "ACME CASH & CARRY SDN. BHD"},
		{"ACME CASH&CARY", "ACME CASH&CARRY"},
		{"ACME CASH & CARRY SDN BHD", "ACME CASH & CARRY SDN BHD"},
		{"LIM & SONS", "LIM & SONS"},
		{"CHEW & CHUA", "CHEW & CHUA"}, // two letters from CARRY
	} {
		if got := mendNameWords(tc.in, receipt.CountryMY); got != tc.want {
			t.Errorf("mendNameWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
