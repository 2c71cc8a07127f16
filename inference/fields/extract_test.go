package fields

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/internal/eval"
	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// confLines is lines whose words were read with the given confidences,
// one per line.
func confLines(texts []string, confs ...float64) []Line {
	ls := lines(texts...)
	for i := range ls {
		ls[i].Conf = confs[i]
		for _, f := range strings.Fields(ls[i].Text) {
			ls[i].Words = append(ls[i].Words, inference.Word{Text: f, Conf: confs[i], Box: ls[i].Box})
		}
	}
	return ls
}

func lines(texts ...string) []Line {
	out := make([]Line, len(texts))
	for i, t := range texts {
		out[i] = Line{Text: t, Conf: 0.9, Box: receipt.Box{X: 10, Y: 10 + 30*i, W: 300, H: 24}}
	}
	return out
}

func TestExtractFieldsRules(t *testing.T) {
	my := receipt.DefaultLocale(receipt.CountryMY)
	tests := []struct {
		name  string
		lines []Line
		field string
		want  string
	}{
		{"legal suffix beats a name stamp", lines("tan woon yann", "BOOK TA.K (TAMAN DAYA) SDN BHD", "NO.53 JALAN SAGU 18,", "81100 JOHOR BAHRU"), "supplier_name", "BOOK TA.K (TAMAN DAYA) SDN BHD"},
		{"registration number dropped", lines("SOON HUAT MACHINERY ENTERPRISE (JM0352019-K)", "NO.53 JALAN PUTRA 1,"), "supplier_name", "SOON HUAT MACHINERY ENTERPRISE"},
		{"OCR-misread suffix mended", lines("SUN WONG KUT SON BHD", "176 JLN SUNGEI BESI"), "supplier_name", "SUN WONG KUT SDN BHD"},
		{"heading skipped", lines("TAX INVOICE", "THREE STOOGES", "109, SS21/1A, DAMANSARA UTAMA"), "supplier_name", "THREE STOOGES"},
		{"name continues after &", lines("HOME MASTER HARDWARE &", "ELECTRICAL", "NO.113G & 115G, JALAN SETIA"), "supplier_name", "HOME MASTER HARDWARE & ELECTRICAL"},
		{"stray marks dropped, a leading number kept", lines("| 99 SPEED MART S/B", "LOT P.T. 2811, JALAN ANGSA"), "supplier_name", "99 SPEED MART S/B"},
		{"owned by prefix", lines("OWN BY: CHEF LEE SDN BHD", "LOT 1, JALAN 2"), "supplier_name", "CHEF LEE SDN BHD"},
		{"speckle read as words is not a name", append([]Line{{Text: "Bates, ey Sg ett, Tg EN Oa IIE SESS SIE", Conf: 0.19}}, lines("TEO HENG STATIONERY & BOOKS", "NO. 53, JALAN BESAR")...), "supplier_name", "TEO HENG STATIONERY & BOOKS"},
		{"shop name over a far-off owner", lines("SANYU STATIONERY SHOP", "NO. 31G&33G, JALAN SETIA INDAH X", "40170 SETIA ALAM", "Tel: +603-3362 4137", "Owned By :", "SANYU SUPPLY SDN BHD (1135772-K)"), "supplier_name", "SANYU STATIONERY SHOP"},
		{"registered company under a logo line", lines("GUARDIAN", "GUARDIAN HEALTH AND BEAUTY SDN BHD", "LOT 1, JALAN 2"), "supplier_name", "GUARDIAN HEALTH AND BEAUTY SDN BHD"},
		{"lower-case speckle before a name", lines("bee. PAGOH REST AND SERVICE AREA", "LOT R1, KWS REHAT"), "supplier_name", "PAGOH REST AND SERVICE AREA"},
		{"registration number in braces", lines("99 SPEED MART 5/B {519537-X)", "LOT P.T. 2811, JALAN ANGSA"), "supplier_name", "99 SPEED MART S/B"},
		{"SDN BHD cut off at the print's edge", lines("| . BEMED (SP) SDR. a", "No.4, Jalan Dinar G U3/G,"), "supplier_name", "BEMED (SP) SDN. BHD"},
		{"Selangor's D.E. misread and small", confLines([]string{"ACME SDN BHD", "No.4, Jalan Dinar G U3/G,", "40150 Shah Alam, Selangor Dt"}, 0.9, 0.9, 0.45), "supplier_address", "NO.4, JALAN DINAR G U3/G, 40150 SHAH ALAM, SELANGOR D.E."},
		{"Selangor's D.E. read as marks", lines("ACME SDN BHD", "NO. 20-A1, JALAN SS6/3,", "47301 PETALING JAYA", "SELANGOR [.€."), "supplier_address", "NO. 20-A1, JALAN SS6/3, 47301 PETALING JAYA, SELANGOR D.E."},
		{"a speck after SELANGOR. stays a speck", confLines([]string{"ACME SDN BHD", "LOT 3, JALAN PELABUR 23/1,", "40300 SHAH ALAM, SELANGOR. EE"}, 0.9, 0.9, 0.45), "supplier_address", "LOT 3, JALAN PELABUR 23/1, 40300 SHAH ALAM, SELANGOR."},
		{"a bracket for a number's 1", lines("ACME SDN BHD", "{06-107, LEVEL 1 THE MINES MALL", "43300 SERI KEMBANGAN"), "supplier_address", "106-107, LEVEL 1 THE MINES MALL, 43300 SERI KEMBANGAN"},
		{"a closed bracket stays", lines("ACME SDN BHD", "LOT 5 (1ST FLOOR), JALAN BESAR", "43300 SERI KEMBANGAN"), "supplier_address", "LOT 5 (1ST FLOOR), JALAN BESAR, 43300 SERI KEMBANGAN"},
		// SROIE 158 enlarged: lower-case debris and numbers make most of the
		// line's words short, but it is the name.
		{"a name line with debris and numbers is no noise", confLines([]string{"ae a .", "lah 79 SPEED MART $/B (519837-X)", "| LOT P.7. 2811, JALAN ANGSA,", "41150 KLANG, SELANGOR", "1934-TAMAN RIMBUNAN"}, 0.09, 0.54, 0.78, 0.89, 0.8), "supplier_name", "79 SPEED MART S/B"},
		{"BHD lost altogether", lines("BEMED (SP) SDN", "No.4, Jalan Dinar G U3/G,"), "supplier_name", "BEMED (SP) SDN BHD"},
		{"SDN read SDH, BHD a speck", lines("BEMED (SP) SDH. A", "No.4, Jalan Dinar G U3/G,"), "supplier_name", "BEMED (SP) SDN. BHD"},
		{"a son is no SDN", lines("LIM & SON", "No.4, Jalan Dinar G U3/G,"), "supplier_name", "LIM & SON"},
		{"& SON is a name", lines("JONES & SON", "12 HIGH STREET"), "supplier_name", "JONES & SON"},
		{"the time of sale under the name is no address", lines("ACME TRADING SDN BHD", "30Mar201818:17", "(123456-U)", "12, Jalan Besar 7/4,Kawasan Perindustrian", "81200 Johor Bahru,Johor"), "supplier_address", "12, JALAN BESAR 7/4,KAWASAN PERINDUSTRIAN, 81200 JOHOR BAHRU,JOHOR"},
		{"a spaced time of sale under the name is no address", lines("ACME TRADING SDN BHD", "09 May 2018 18·24", "12, Jalan Besar 7/4", "81200 Johor Bahru"), "supplier_address", "12, JALAN BESAR 7/4, 81200 JOHOR BAHRU"},
		{"a licensee's line above the premises is no address", lines("ACME RESTAURANTS SDN BHD", "LICENSEE OF ACME'S", "LEVEL 6, BANGUNAN TH,", "47400 PETALING JAYA"), "supplier_address", "LEVEL 6, BANGUNAN TH, 47400 PETALING JAYA"},
		{"a town's name above the premises is no address", lines("ACME TRADING SDN BHD", "BANDAR BARU RAWANG", "NO 15 JALAN BANDAR RAWANG 10", "48000 RAWANG"), "supplier_address", "NO 15 JALAN BANDAR RAWANG 10, 48000 RAWANG"},
		{"a licensee's line above a split LEVEL", lines("ACME RESTAURANTS SDN BHD", "LICENSEE OF ACME'S", "L eve1 6, Bangunan TH,", "47400 PETALING JAYA"), "supplier_address", "LEVEL 6, BANGUNAN TH, 47400 PETALING JAYA"},
		{"a unit and a floor open the premises", lines("ACME KITCHEN SDN BHD", "(123456-P)", "G-26, GRD FLOOR, ACME MALL", "NO 1, JALAN BESAR,", "47301 PETALING JAYA"), "supplier_address", "G-26, GRD FLOOR, ACME MALL, NO 1, JALAN BESAR, 47301 PETALING JAYA"},
		{"a tower's floor opens the premises", lines("ACME REALTIES SDN BHD", "Menara Acme #02-03, Level 2,", "27, Jalan Besar,", "50250 Kuala Lumpur."), "supplier_address", "MENARA ACME #02-03, LEVEL 2, 27, JALAN BESAR, 50250 KUALA LUMPUR."},
		{"a misread street word is an address's first line", lines("ACME PETROL", "Jaian Lapangan Terbang", "47200 Subang", "Selangor"), "supplier_address", "JALAN LAPANGAN TERBANG, 47200 SUBANG, SELANGOR"},
		{"a labelled number ends the address", lines("ACME SERVICE STATION", "LOT 26151 BANDAR BARU,", "43000 KAJANG, SELANGOR", "Site : 2188"), "supplier_address", "LOT 26151 BANDAR BARU, 43000 KAJANG, SELANGOR"},
		{"a phone spaced round its dash ends the address", lines("ACME SDN BHD", "LOT 38, JALAN BESAR,", "47170 PUCHONG, SELANGOR", "T EL : 03 - 8079 0255"), "supplier_address", "LOT 38, JALAN BESAR, 47170 PUCHONG, SELANGOR"},
		{"a tax number misread past its label ends the address", lines("ACME MART S/B (519537-X)", "LOT 12, JALAN ANGSA,", "41150 KLANG, SELANGOR", "G5T ID. N0:000181747712"), "supplier_address", "LOT 12, JALAN ANGSA, 41150 KLANG, SELANGOR"},
		{"a branch in brackets under a registered name is the name's", lines("ACME HYPERMARKET SDN BHD", "(JALAN BESAR LAMA)", "LOT 29, JLN SERI 8,", "58000 KUALA LUMPUR."), "supplier_name", "ACME HYPERMARKET SDN BHD (JALAN BESAR LAMA)"},
		{"a branch in brackets under a registered name is no address", lines("ACME HYPERMARKET SDN BHD", "(JALAN BESAR LAMA)", "LOT 29, JLN SERI 8,", "58000 KUALA LUMPUR."), "supplier_address", "LOT 29, JLN SERI 8, 58000 KUALA LUMPUR."},
		{"a registration in brackets is no branch", lines("ACME HYPERMARKET SDN BHD", "(564429-W)", "LOT 29, JLN SERI 8,"), "supplier_name", "ACME HYPERMARKET SDN BHD"},
		{"a legal name under a heading and a slogan, its legal form on a line of its own", lines("Acme's", "PERI-PERI CHICKEN", "Acme's Chickenland Malaysia", "Sdn Bhd", "Unit G-13, Ground Floor, No.1", "50480 Kuala Lumpur"), "supplier_name", "ACME'S CHICKENLAND MALAYSIA SDN BHD"},
		{"a legal name three lines under a heading is not the seller's", lines("ACME BAKERY", "FRESH EVERY DAY", "BAKED IN KLANG", "OWNED BY BETA FOODS SDN BHD", "NO 5, JALAN BESAR"), "supplier_name", "ACME BAKERY"},
		{"an open bracket before the legal form is no registration", lines("ACME (M SDN BHD E0118A)", "2nd Floor, Wisma Acme, Jalan Raja", "50200 Kuala Lumpur"), "supplier_name", "ACME (M) SDN BHD"},
		{"a street above its town's postcode stays", lines("ACME GMBH", "SCHULSTRASSE 22", "50667 KOELN"), "supplier_address", "SCHULSTRASSE 22, 50667 KOELN"},
		{"a fraction in an address is no S/B", lines("ACME TRADING", "NO 5, JALAN SS 9/2 (BLOCK A)"), "supplier_address", "NO 5, JALAN SS 9/2 (BLOCK A)"},
		{"lower-case debris before a mended suffix", lines("ua 99 SPEED MART 5/8 ($19937-x)", "LOT P.7, 2811, JALAN ANGSA,"), "supplier_name", "99 SPEED MART S/B"},
		{"registration tail after the suffix, apostrophe read as ?", lines("KING?S CONFECTIONERY $/B 272500-U) (KI1)", "NO. 20-A1, JALAN SS4/3"), "supplier_name", "KING'S CONFECTIONERY S/B"},
		{"a branch in brackets ends a name begun on the line above", lines("ACME RAYA MEGA MAJU", "(KAJANG) SDN BHD", "(767840-W)", "NO 24, JALAN BESAR"), "supplier_name", "ACME RAYA MEGA MAJU (KAJANG) SDN BHD"},
		{"name over two lines, a word split by the spacing", lines("WESTERN EASTERN", "STAT IONERY SDN.BHD", "CO REG NO : 21003B-K"), "supplier_name", "WESTERN EASTERN STATIONERY SDN.BHD"},
		{"debris read against BHD", lines("ACME HARDWARE & TIMBER SDN. BHD.L1T", "LOT 204, JALAN BATU 12"), "supplier_name", "ACME HARDWARE & TIMBER SDN. BHD"},
		{"name over two lines", lines("WESTERN EASTERN", "STATIONERY SDN. BHD", "CO REG NO : 21003B-K"), "supplier_name", "WESTERN EASTERN STATIONERY SDN. BHD"},
		{"a logo line does not join a full name", lines("GUARDIAN", "GUARDIAN HEALTH AND BEAUTY SDN BHD"), "supplier_name", "GUARDIAN HEALTH AND BEAUTY SDN BHD"},
		{"postcode with its first digit read as a letter", lines("ACME SDN BHD", "425, JALAN PAHANG, SETAPAK,", "S3000 KUALA LUMPUR."), "supplier_address", "425, JALAN PAHANG, SETAPAK, 53000 KUALA LUMPUR."},
		{"address below the phone and tax number, after its label", lines("HAI-O RAYA BHD (169199-V)", "KEPONG OUTLET", "TEL / FAX : 03-62636977", "GST ID NO: 001600892928", "HQ ADD: LOT 11995, BATU 2, JALAN KAPAR", "41400 KLANG, SELANGOR", "DATE: 15/12/2016"), "supplier_address", "LOT 11995, BATU 2, JALAN KAPAR, 41400 KLANG, SELANGOR"},
		{"no address after the body starts", lines("ACME SDN BHD", "TEL: 03-62636977", "TAX INVOICE NO 123", "2 X COFFEE 7.00"), "supplier_address", ""},
		{"a dollar sign in an address is an S", lines("MPH BOOKSTORES SDN BHD", "LOT $319, 2ND FLOOR, 1 UTAMA SHOPPING CENTRE"), "supplier_address", "LOT S319, 2ND FLOOR, 1 UTAMA SHOPPING CENTRE"},
		{"the country ends the address", lines("POPULAR BOOK CO. (M) SDN BHD", "NO 8, JALAN 7/118B, DESA TUN RAZAK", "56000 KUALA LUMPUR, MALAYSI.", "{0} MALL"), "supplier_address", "NO 8, JALAN 7/118B, DESA TUN RAZAK, 56000 KUALA LUMPUR, MALAYSI."},
		{"a dollar sign opening a street number is a 5", lines("ACME PTY LTD", "$4 PITT STREET, MELBOURNE VIC 3000"), "supplier_address", "54 PITT STREET, MELBOURNE VIC 3000"},
		{"a letter between two digits of an address", lines("ACME SDN BHD", "42100 KLANG, SELANGOR 1S58-TMN PUSAT KEPONG"), "supplier_address", "42100 KLANG, SELANGOR 1558-TMN PUSAT KEPONG"},
		{"specks in an address", lines("ACME SDN BHD", "LOT 1851-A, JALAN KPB 6, “S,", "43100 HULU LANGAT, 7"), "supplier_address", "LOT 1851-A, JALAN KPB 6, 43100 HULU LANGAT,"},
		{"opening bracket read as a letter", lines("GARDENIA BAKERIES TKL) SDN BHD", "LOT 3, JALAN PELABUR 23/1,"), "supplier_name", "GARDENIA BAKERIES (KL) SDN BHD"},
		{"a closing bracket with its opening stays", lines("ACME (M) SDN BHD", "LOT 3, JALAN PELABUR 23/1,"), "supplier_name", "ACME (M) SDN BHD"},
		{"a street word in a shop's name", lines("MAIN STREET BAKERY", "48 MILL ROAD", "LEEDS LS1 4AB"), "supplier_name", "MAIN STREET BAKERY"},
		{"a street word in a shop's name before its legal form", lines("MAIN STREET GROCER KG", "MARKTPLATZ 117", "80331 MUENCHEN"), "supplier_name", "MAIN STREET GROCER KG"},
		{"LTD read as LID", lines("OLD MILL PRINTING LID", "4 HIGH STREET"), "supplier_name", "OLD MILL PRINTING LTD"},
		{"specks at a line's ends", []Line{{Text: "SUNRISE PRINTING E", Conf: 0.6, Words: []inference.Word{{Text: "SUNRISE", Conf: 0.9}, {Text: "PRINTING", Conf: 0.9}, {Text: "E", Conf: 0.3}}}}, "supplier_name", "SUNRISE PRINTING"},
		{"a letter far off the end of a name", []Line{{Text: "SUNRISE BAKERY LLC A", Conf: 0.9, Box: receipt.Box{X: 100, Y: 10, W: 400, H: 20}, Words: []inference.Word{
			{Text: "SUNRISE", Conf: 0.9, Box: receipt.Box{X: 100, Y: 10, W: 90, H: 20}},
			{Text: "BAKERY", Conf: 0.9, Box: receipt.Box{X: 200, Y: 10, W: 80, H: 20}},
			{Text: "LLC", Conf: 0.9, Box: receipt.Box{X: 290, Y: 10, W: 40, H: 20}},
			{Text: "A", Conf: 0.9, Box: receipt.Box{X: 480, Y: 10, W: 20, H: 20}},
		}}}, "supplier_name", "SUNRISE BAKERY LLC"},
		// A heading set wide: its initials are as far apart as its words.
		{"initials in a heading set wide", []Line{{Text: "A B LIM HARDWARE SDN BHD", Conf: 0.99, Box: receipt.Box{X: 120, Y: 200, W: 450, H: 16}, Words: []inference.Word{
			{Text: "A", Conf: 0.99, Box: receipt.Box{X: 120, Y: 200, W: 10, H: 16}},
			{Text: "B", Conf: 0.96, Box: receipt.Box{X: 155, Y: 200, W: 10, H: 16}},
			{Text: "LIM", Conf: 0.99, Box: receipt.Box{X: 194, Y: 200, W: 60, H: 16}},
			{Text: "HARDWARE", Conf: 0.99, Box: receipt.Box{X: 282, Y: 200, W: 160, H: 16}},
			{Text: "SDN", Conf: 0.99, Box: receipt.Box{X: 470, Y: 200, W: 40, H: 16}},
			{Text: "BHD", Conf: 0.99, Box: receipt.Box{X: 530, Y: 200, W: 40, H: 16}},
		}}}, "supplier_name", "A B LIM HARDWARE SDN BHD"},
		{"a shop number ends a name", lines("ACME SIX POINT ENTERPRISE 777", "NO 14 JALAN BESAR"), "supplier_name", "ACME SIX POINT ENTERPRISE 777"},
		{"a registration number after a name goes", lines("ACME TRADING 1234567", "NO 14 JALAN BESAR"), "supplier_name", "ACME TRADING"},
		{"a trade word inside a longer name is no misread", lines("XYPETROL RIVERSIDE", "NO 14 JALAN BESAR"), "supplier_name", "XYPETROL RIVERSIDE"},
		{"a name over three lines", lines("ACME WIDGET HARDWARE", "ENTERPRISE (GREEN", "VALLEY) SDN BHD", "NO. 7, JALAN BESAR", "43000 KAJANG"), "supplier_name", "ACME WIDGET HARDWARE ENTERPRISE (GREEN VALLEY) SDN BHD"},
		{"a name over three lines, ENTERPRISE misread", lines("ACME WIDGET HARDWARE", "ENTERFRISE GREEN", "VALLEY SDN BHD", "NO. 7, JALAN BESAR", "43000 KAJANG"), "supplier_name", "ACME WIDGET HARDWARE ENTERPRISE GREEN VALLEY SDN BHD"},
		{"a heading over a full legal name stays apart", lines("ACME", "ACME FOODS SDN BHD", "NO. 7, JALAN BESAR"), "supplier_name", "ACME FOODS SDN BHD"},
		{"brackets read as letters", lines("ACME WIDGET HARDWARE", "ENTERPRISE ISETIA", "VALLEYI SDN BHD", "NO. 7, JALAN SETIA VALLEY", "43000 KAJANG"), "supplier_name", "ACME WIDGET HARDWARE ENTERPRISE (SETIA VALLEY) SDN BHD"},
		{"a bracket read as a letter alone", lines("ACME WIDGET HARDWARE", "ENTERPRISE L GREEN", "VALLEY Y SDN BHD", "NO. 7, JALAN GREEN VALLEY"), "supplier_name", "ACME WIDGET HARDWARE ENTERPRISE ( GREEN VALLEY ) SDN BHD"},
		{"a lone 1 in a name is a number, not a bracket", lines("KEDAI 1 MALAYSIA", "NO. 7, JALAN BESAR"), "supplier_name", "KEDAI 1 MALAYSIA"},
		{"a lone 1 in brackets is a number", lines("ACME (PHASE 1 ) SDN BHD", "NO. 7, JALAN BESAR"), "supplier_name", "ACME (PHASE 1 ) SDN BHD"},
		{"a word that is a letter and a page word stays unless it is no word", lines("ICONIC TRADING SDN BHD", "NO. 7, JALAN CONIC"), "supplier_name", "ICONIC TRADING SDN BHD"},
		// Seed-303 phone photos: the page's edge read as a digit, far off
		// and unsure; a quantity far off is read sure and stays.
		{"an unsure digit far off a name's start", []Line{{Text: "3 GREENFIELD BAKERY INC", Conf: 0.7, Box: receipt.Box{X: 1, Y: 20, W: 390, H: 30}, Words: []inference.Word{
			{Text: "3", Conf: 0.08, Box: receipt.Box{X: 1, Y: 20, W: 10, H: 30}},
			{Text: "GREENFIELD", Conf: 0.97, Box: receipt.Box{X: 130, Y: 20, W: 130, H: 30}},
			{Text: "BAKERY", Conf: 0.97, Box: receipt.Box{X: 266, Y: 20, W: 80, H: 30}},
			{Text: "INC", Conf: 0.96, Box: receipt.Box{X: 353, Y: 20, W: 37, H: 30}},
		}}}, "supplier_name", "GREENFIELD BAKERY INC"},
		{"an unsure digit far off a name, in a line a tall speck stretched", []Line{{Text: "4 HILLTOP ELECTRICAL", Conf: 0.7, Box: receipt.Box{X: 0, Y: 20, W: 376, H: 48}, Words: []inference.Word{
			{Text: "4", Conf: 0.25, Box: receipt.Box{X: 0, Y: 20, W: 19, H: 48}},
			{Text: "HILLTOP", Conf: 0.97, Box: receipt.Box{X: 154, Y: 23, W: 88, H: 18}},
			{Text: "ELECTRICAL", Conf: 0.97, Box: receipt.Box{X: 248, Y: 24, W: 128, H: 19}},
		}}}, "supplier_name", "HILLTOP ELECTRICAL"},
		{"an unsure quantity far off its item stays", []Line{
			{Text: "TAX INVOICE", Conf: 0.9},
			{Text: "QTY DESCRIPTION PRICE AMOUNT", Conf: 0.9},
			{Text: "1 PAINT BRUSH $11.42 $1.42", Conf: 0.6, Box: receipt.Box{X: 0, Y: 60, W: 500, H: 20}, Words: []inference.Word{
				{Text: "1", Conf: 0.3, Box: receipt.Box{X: 0, Y: 60, W: 8, H: 20}},
				{Text: "PAINT", Conf: 0.9, Box: receipt.Box{X: 100, Y: 60, W: 60, H: 20}},
				{Text: "BRUSH", Conf: 0.9, Box: receipt.Box{X: 170, Y: 60, W: 60, H: 20}},
				{Text: "$11.42", Conf: 0.9, Box: receipt.Box{X: 300, Y: 60, W: 70, H: 20}},
				{Text: "$1.42", Conf: 0.9, Box: receipt.Box{X: 430, Y: 60, W: 70, H: 20}},
			}},
			{Text: "1 NAILS $2.00 $2.00", Conf: 0.9},
			{Text: "TOTAL $13.42", Conf: 0.9},
		}, "line_items[0].line_total", "11.42"},
		{"a sure digit far off a name's start stays", []Line{{Text: "4 SEASONS CAFE INC", Conf: 0.9, Box: receipt.Box{X: 1, Y: 20, W: 390, H: 30}, Words: []inference.Word{
			{Text: "4", Conf: 0.93, Box: receipt.Box{X: 1, Y: 20, W: 10, H: 30}},
			{Text: "SEASONS", Conf: 0.97, Box: receipt.Box{X: 130, Y: 20, W: 130, H: 30}},
			{Text: "CAFE", Conf: 0.97, Box: receipt.Box{X: 266, Y: 20, W: 80, H: 30}},
			{Text: "INC", Conf: 0.96, Box: receipt.Box{X: 353, Y: 20, W: 37, H: 30}},
		}}}, "supplier_name", "4 SEASONS CAFE INC"},
		{"a street abbreviation is no speck", []Line{{Text: "ACME LLC", Conf: 0.9}, {Text: "32 LAKE DR", Conf: 0.5, Words: []inference.Word{{Text: "32", Conf: 0.9}, {Text: "LAKE", Conf: 0.9}, {Text: "DR", Conf: 0.4}}}, {Text: "TOLEDO OH 43604", Conf: 0.9}}, "supplier_address", "32 LAKE DR, TOLEDO OH 43604"},
		{"an unclosed quote before a name", lines(`"BLUE DOOR CAFE [`, "GARTENWEG 68"), "supplier_name", "BLUE DOOR CAFE"},
		{"a quoted word in a name stays", lines(`THE "BEST" CAFE`, "GARTENWEG 68"), "supplier_name", `THE "BEST" CAFE`},
		{"PTY, LID is PTY, LTD", lines("OAKWOOD TIMBER PTY, LID", "12 PITT STREET"), "supplier_name", "OAKWOOD TIMBER PTY, LTD"},
		{"PTV. LTD is PTY. LTD", lines("MAIN STREET GROCER PTV. LTD", "12 PITT STREET"), "supplier_name", "MAIN STREET GROCER PTY. LTD"},
		{"a rule's end glued to a street", lines("ACME GMBH", "__-MARKTPLATZ 90", "50667 KOELN", "_USt-IdNr DE553556329"), "supplier_address", "MARKTPLATZ 90, 50667 KOELN"},
		{"a zero read as @ in an address", lines("ACME PTY LTD", "100 PITT STREET", "HOBART TAS 700@", "ABN 51 824 753 556"), "supplier_address", "100 PITT STREET, HOBART TAS 7000"},
		{"an e-mail line ends the address", lines("ACME PTY LTD", "100 PITT STREET", "SALES@ACME.COM.AU"), "supplier_address", "100 PITT STREET"},
		{"a table edge read as | before a quantity", []Line{
			{Text: "TAX INVOICE", Conf: 0.9},
			{Text: "QTY DESCRIPTION PRICE AMOUNT", Conf: 0.9},
			{Text: "| 1 EXTENSION LEAD £60.11 £60.11", Conf: 0.9, Words: []inference.Word{{Text: "|", Conf: 0.9}, {Text: "1", Conf: 0.9}, {Text: "EXTENSION", Conf: 0.9}, {Text: "LEAD", Conf: 0.9}, {Text: "£60.11", Conf: 0.9}, {Text: "£60.11", Conf: 0.9}}},
			{Text: "TOTAL £60.11", Conf: 0.9},
		}, "line_items[0].description", "EXTENSION LEAD"},
		{"a 5 read as S after the country code", lines("ACME GMBH", "USt~IdNr DES97809628"), "supplier_tax_id", "EU_VAT:DE597809628"},
		{"a German label misread, DE read as 0", lines("ACME GMBH", "USI\\-IdNr DE@S3330849"), "supplier_tax_id", "EU_VAT:DE053330849"},
		{"a misread German label ends the address", lines("ACME GMBH", "MARKTPLATZ 79", "80331 MUENCHEN", "USI\\-IdNr DE@S3330849"), "supplier_address", "MARKTPLATZ 79, 80331 MUENCHEN"},
		{"the DE of a German number read as 0", lines("ACME GMBH", "USt-IdNr 0050792060 ES"), "supplier_tax_id", "EU_VAT:DE050792060"},
		{"a zero read as Q after the country code", lines("ACME GMBH", "USt-IdNr DEQ11485566"), "supplier_tax_id", "EU_VAT:DE011485566"},
		{"a stray digit after a UK VAT number", lines("ACME LTD", "VAT No GB 748 2683 95 4"), "supplier_tax_id", "UK_VAT:GB748268395"},
		{"a street without a number is no name", lines("|", "JALAN BESAR", "45600 BATANG BERJUNTAI"), "supplier_name", ""},
		{"a European VAT number ends the address", lines("OAKWOOD ELECTRICAL", "SCHULSTRASSE 95", "50667 KOELN", "USt-IdNr DE293698301"), "supplier_address", "SCHULSTRASSE 95, 50667 KOELN"},
		{"postcode line is not a name", lines("|", "43300 SERI KEMBANGAN, SELANGOR"), "supplier_name", ""},
		{"misread registration line skipped", lines("ACME SDN BHD", "Co-REG:860671-D", "{GST ID No 2000306020352)", "LOT 1851-A, JALAN KPB 6,", "43300 SERI KEMBANGAN"), "supplier_address", "LOT 1851-A, JALAN KPB 6, 43300 SERI KEMBANGAN"},
		{"address stops at a phone number without TEL", lines("ACME SDN BHD", "LOT 3, JALAN PELABUR 23/1,", "40300 SHAH ALAM, SELANGOR.", "VEL: 03- 5423228 BAX:03- 5423213"), "supplier_address", "LOT 3, JALAN PELABUR 23/1, 40300 SHAH ALAM, SELANGOR."},
		{"address debris dropped", lines("ACME SDN BHD", "| NO.19 & 21, JALAN TEMENGGUNG 23/9, :", "EE LOT R1, KWS REHAT"), "supplier_address", "NO.19 & 21, JALAN TEMENGGUNG 23/9, LOT R1, KWS REHAT"},
		{"letters for digits in a date", lines("02:49PM 565287 OS~-05-17"), "date", "2017-05-05"},
		{"a dash read as a tilde", lines("02249PH $65287 OS~05-17"), "date", "2017-05-05"},
		{"a date printed twice: the surer reading", confLines([]string{"vi U Date: 19/02/2017", "BD: 19/09/2017 11:09"}, 0.5, 0.65), "date", "2017-09-19"},
		{"a date printed twice: the first when as sure", confLines([]string{"Date: 19/02/2017", "BD: 19/09/2017 11:09"}, 0.7, 0.75), "date", "2017-02-19"},
		{"a due date is not the date read twice", confLines([]string{"Date: 19/02/2017", "DUE 19/03/2017"}, 0.5, 0.95), "date", "2017-02-19"},
		{"a bare date is not the date read twice", confLines([]string{"Date: 22/02/2025 Time: 11:54", "22/08/2025, whichever comes first."}, 0.5, 0.95), "date", "2025-02-22"},
		{"two tildes are no date", lines("CODE 12~05~17"), "date", ""},
		{"month one letter off", lines("CBE: 782931589323 14/dun/2017 08:34:22"), "date", "2017-06-14"},
		{"date glued to the time", lines("Q1-Nov-2017_11:20:04AM ROS934"), "date", "2017-11-01"},
		{"compact date beside a time", lines("00440010036 25032018 13:11:54 0003"), "date", "2018-03-25"},
		{"rounding adjustment applied", lines("Total (Inclusive of GST): 48.16", "Rounding Adj: -0.01", "CASH : 50.00"), "total", "48.15"},
		{"rounding line carrying the rounded total", lines("Total Sales (Inclusive GST) RM 27.28", "Rounding RM 27.30"), "total", "27.3"},
		{"tax summary total is not the total", lines("Total Sales (inclusive of GST) : 190.80", "GST Summary Amount (RM) Tax (RM)", "SR 6 180.00 10.80", "Total : 180.00 10.80"), "total", "190.8"},
		{"accepted amount is tendered, not total", lines("Total amount 1.50 RM", "Accepted total 2.00 RM", "Change 0.50 RM"), "total", "1.5"},
		{"unread total: the subtotal under the tax line", lines("Gross Amount : 40.00", "Total GST Amt : 2.40", "Sub Total : 42.40", "Rounding Adj. : 0", "Total (RM) (aeia0)"), "total", "42.4"},
		{"unread total: the subtotal under the rounding line", lines("SUBTOTAL (QTY 4) RM41 43", "ROUNDING RHO.02", "SUBTOTAL (QTY 4) RM41.45", "CASH RMD 60", "CHANGE CASH RM10,05"), "total", "41.45"},
		{"a subtotal above the tax is no total; with its tax it is", lines("Sub Total : 40.00", "GST 6% : 2.40", "Total (RM) (aeia0)"), "total", "42.4"},
		{"a tax rate glued to its word", lines("1 STAPLER $32.34", "GST10%INCL. $2.94", "AMOUNTDUE $32.34"), "total_tax", "2.94"},
		{"space after the decimal point", lines("CASH RM100. 00", "YOUR CHANGE RM3. 80"), "total", "96.2"},
		{"address block stops at phone", lines("ACME SDN BHD", "(123456-X)", "NO 37, JALAN MANIS 7,", "TAMAN SEGAR,", "56100 CHERAS", "TEL: 03-1234 5678"), "supplier_address", "NO 37, JALAN MANIS 7, TAMAN SEGAR, 56100 CHERAS"},
		{"branch name before the street skipped", lines("IKEA (M) SDN BHD", "IKEA CHERAS", "NO 2A JALAN COCHRANE", "55100 KUALA LUMPUR", "GST ID: 000123456789"), "supplier_address", "NO 2A JALAN COCHRANE, 55100 KUALA LUMPUR"},
		{"rounded total beats total", lines("TOTAL 9.02", "ROUNDING ADJ -0.02", "ROUNDED TOTAL (RM) 9.00", "CASH 10.00", "CHANGE 1.00"), "total", "9"},
		{"payable beats repeated supplies lines", lines("Total 6% supplies: 7.61", "Total 6% supplies: 7.61", "Total Payable: 33.05"), "total", "33.05"},
		{"subtotal and tax totals ignored", lines("SUB TOTAL 40.00", "TOTAL GST 2.40", "TOTAL QTY 3.00", "TOTAL 42.40"), "total", "42.4"},
		{"amount on the line below its label", lines("GRAND TOTAL", "RM 21.20"), "total", "21.2"},
		{"cash less change when no total keyword", lines("ITEM A 3.00", "CASH 50.00", "CHANGE 21.30"), "total", "28.7"},
		{"OCR digit for letter in TOTAL", lines("T0TAL: 12.50"), "total", "12.5"},
		{"date line preferred over expiry", lines("VALID UNTIL 31/12/2019", "DATE: 25/12/2018 8:13:39 PM"), "date", "2018-12-25"},
		{"the dated sale has its time", lines("TAXINV:G02-1550040 18/03/16", "ITEM 28.60", "18/03/18 09:03 #002-1S500408"), "date", "2018-03-18"},
		{"an item table with a tax column is no tax summary", lines("ACME MACHINERY", "Item Qty Price Amount Tax", "1072 1 80.00 80.00 SR", "PUMP REPAIR", "TOTAL 80.00"), "total", "80"},
		{"total tax line is the tax", lines("SUB-TOTAL 144.68", "TOTAL TAX 8.68", "TOTAL 153.35"), "total_tax", "8.68"},
		{"a tax total after the tax table is the tax", lines("SUB-TOTAL (GST) 16.00", "TOTAL 16.00", "CASH 16.00", "*GST C 6% INCLUDED IN TOTAL", "GST SUMMARY", "CODE AMOUNT % TAX/AMT", "SR 15.09 6 0.91", "TAX TOTAL: 0.91"), "total_tax", "0.91"},
		{"a tax total does not take the total's place", lines("SUB-TOTAL (GST) 16.00", "TOTAL 16.00", "TAX TOTAL: 0.91"), "total", "16"},
		{"misread total mended by the arithmetic", lines("SUB TOTAL 64.00", "GST 6% 3.84", "ROUNDING ADJ 0.01", "NET TOTAL 67.55", "Cash 100.00", "CHANGE 32.15"), "total", "67.85"},
		{"gross amount is before tax", lines("Gross Amount : 40.00", "Total GST Amt : 2.40"), "total", ""},
		{"a tax table header is not a total label", lines("Rate Net(RM) GST(RM) Total (RM)", "SR 6% 39.10 2.34 41.44"), "total", ""},
		{"time from the date line", lines("DATE: 25/12/2018 8:13:39 PM"), "time", "20:13:39"},
		{"month names", lines("18 APR 2018 14:02"), "date", "2018-04-18"},
		{"MY GST ID", lines("ACME SDN BHD", "GST ID: 000306020352"), "supplier_tax_id", "MY_GST:000306020352"},
		{"MY GST NO with its O read as 0", lines("ACME SDN BHD", "GST N0:000394528768"), "supplier_tax_id", "MY_GST:000394528768"},
		{"invoice number", lines("INVOICE NO: 18299/182/T6230"), "document_number", "18299/182/T6230"},
		{"ringgit", lines("TOTAL RM 5.00"), "currency", "MYR"},
		{"subtotal", lines("SUB TOTAL 40.00", "TOTAL 42.40"), "subtotal", "40"},
		{"gst amount but not GST ID", lines("GST REG NO: 000306020352", "GST 6% 2.40", "TOTAL 42.40"), "total_tax", "2.4"},
		{"no total at all", lines("HELLO", "WORLD"), "total", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ExtractFields(tt.lines, my, testNow)
			if got, _ := receipt.Get(&r, tt.field); got != tt.want {
				t.Errorf("%s = %q, want %q", tt.field, got, tt.want)
			}
		})
	}
}

func TestLineItemsOnlyWhenTheyAddUp(t *testing.T) {
	my := receipt.DefaultLocale(receipt.CountryMY)
	good := ExtractFields(lines("QTY DESC AMOUNT", "2 x TEA 5.00", "1 x CAKE 7.50", "TOTAL 12.50"), my, testNow)
	if len(good.LineItems) != 2 || good.LineItems[0].Quantity.Value.String() != "2" || good.LineItems[0].UnitPrice.Value.String() != "2.5" {
		t.Errorf("items = %+v", good.LineItems)
	}
	bad := ExtractFields(lines("QTY DESC AMOUNT", "2 x TEA 5.00", "1 x CAKE 7.50", "TOTAL 99.00"), my, testNow)
	if len(bad.LineItems) != 0 {
		t.Errorf("items that do not add up were kept: %+v", bad.LineItems)
	}
}

func TestScore(t *testing.T) {
	loc := receipt.DefaultLocale(receipt.CountryMY)
	var r receipt.Receipt
	receipt.Set(&r, "supplier_name", "BOOK TA.K (TAMAN DAYA) SDN BHD", receipt.SourceOCR, loc)
	receipt.Set(&r, "date", "2018-12-25", receipt.SourceOCR, loc)
	receipt.Set(&r, "total", "9.00", receipt.SourceOCR, loc)
	s := eval.Score(eval.Label{Company: "BOOK TA .K (TAMAN DAYA) SDN BHD", Date: "25/12/2018", Total: "RM9.00", Address: "X"}, &r, loc)
	if !s["company"].Correct || !s["date"].Correct || !s["total"].Correct || s["address"].Correct {
		t.Errorf("score = %+v", s)
	}
	receipt.Set(&r, "date", "2018-03-25", receipt.SourceOCR, loc)
	if s := eval.Score(eval.Label{Date: "25032018"}, &r, loc); !s["date"].Correct {
		t.Errorf("a DDMMYYYY label should match: %+v", s["date"])
	}
}

func TestCashLessChangeDoesNotOverruleATotalItsItemsMake(t *testing.T) {
	my := receipt.DefaultLocale(receipt.CountryMY)
	// The change is misread (22.51 for 12.51); the items add up to the total.
	r := ExtractFields(lines("TAX INVOICE", "1 x TONER 60.00", "1 x PAPER 27.49", "AMOUNT DUE 87.49", "CASH 100.00", "CHANGE 22.51"), my, testNow)
	if got := r.Total.Value.StringFixed(2); got != "87.49" {
		t.Errorf("total %s, want 87.49", got)
	}
	// The total is misread (133.64 for 133.04); the items and the change agree.
	r = ExtractFields(lines("TAX INVOICE", "1 x TONER 100.00", "1 x PAPER 33.04", "AMOUNT DUE 133.64", "CASH 160.00", "CHANGE 26.96"), my, testNow)
	if got := r.Total.Value.StringFixed(2); got != "133.04" || len(r.LineItems) != 2 {
		t.Errorf("total %s with %d items, want 133.04 with 2", got, len(r.LineItems))
	}
}

func TestZerosReadAsLettersInAnABN(t *testing.T) {
	r := ExtractFields(lines("ACME PTY LTD", "ABN 5@ 396 937 164"), receipt.DefaultLocale(receipt.CountryAU), testNow)
	if got, _ := receipt.Get(&r, "supplier_tax_id"); got != "AU_ABN:50396937164" {
		t.Errorf("tax ID %q", got)
	}
}

// A tax ID the checksum mended is right more often than not, but a digit
// misread outside the likely pairs can pass by chance: the reviewer is
// asked to check it.
func TestMendedTaxIDAsksForReview(t *testing.T) {
	au := receipt.DefaultLocale(receipt.CountryAU)
	for _, tc := range []struct {
		line, want string
		unsure     bool
	}{
		{"ABN 50 008 201 062", "AU_ABN:50008201062", false},
		{"ABN 56 008 201 062", "AU_ABN:50008201062", true},
		{"ABN 45 912 532 781 4", "AU_ABN:45912532781", true}, // a synthetic phone photo: a speck read as 4
	} {
		r := ExtractFields(lines("ACME PTY LTD", tc.line), au, testNow)
		got, _ := receipt.Get(&r, "supplier_tax_id")
		if got != tc.want || (r.SupplierTaxID.Confidence < 0.6) != tc.unsure { // 0.6: the review's bar (library.LowConfidence)
			t.Errorf("%s: tax ID %q at %.2f, want %q (unsure %v)", tc.line, got, r.SupplierTaxID.Confidence, tc.want, tc.unsure)
		}
	}
}

// A UK or German VAT number that passes its checksum is found whatever
// its label became (synthetic phone photos, seed 101).
func TestVATNumberWithItsLabelMisread(t *testing.T) {
	for _, tc := range []struct {
		country    receipt.Country
		line, want string
		unsure     bool
	}{
		{receipt.CountryEU, "USt-IaNr DE738970300", "EU_VAT:DE738970300", false},
		{receipt.CountryEU, "_USt-IdNr DES53556329", "EU_VAT:DE553556329", false},
		{receipt.CountryEU, "USt-IdNr 0E594225913", "EU_VAT:DE594225913", true},
		{receipt.CountryUK, "VAT No GB 112.9472 81", "UK_VAT:GB112947281", false},
		{receipt.CountryUK, "VAT No GB 181 1959 SO", "UK_VAT:GB181195950", true},
		{receipt.CountryEU, "Y-tunnus 1l03633-2", "EU_VAT:FI11036332", true}, // a 1 read as l
		{receipt.CountryEU, "USt-IdNr DE7389703OO", "EU_VAT:DE738970300", true},
		{receipt.CountryEU, "USt-IdNr DE73897O3OO", "", false}, // three letters: not a number read
		{receipt.CountryEU, "Kundennr DE738970301", "", false}, // fails the check digit
		{receipt.CountryEU, "CODE738970300", "", false},
	} {
		r := ExtractFields(lines("ACME GMBH", tc.line), receipt.DefaultLocale(tc.country), testNow)
		got, _ := receipt.Get(&r, "supplier_tax_id")
		if got != tc.want || tc.want != "" && (r.SupplierTaxID.Confidence < 0.6) != tc.unsure {
			t.Errorf("%s: tax ID %q at %.2f, want %q (unsure %v)", tc.line, got, r.SupplierTaxID.Confidence, tc.want, tc.unsure)
		}
	}
}

// A tax ID label read a letter off, its number glued to it, still names
// the number when the number's check holds.
func TestTaxIDAfterAMisreadLabel(t *testing.T) {
	loc := receipt.DefaultLocale(receipt.CountryEU)
	loc.Pack = "FI"
	for line, want := range map[string]string{
		"Y-hunnus6191369-8":  "EU_VAT:FI61913698",
		"Y-hunnus6191369-7":  "", // its check fails
		"Y-hunnus 6191369-8": "EU_VAT:FI61913698",
		"Kunnus 6191369-8":   "", // too short a label to be told a letter off
	} {
		r := ExtractFields(lines("Kirjakauppa Hamalainen Ay", "Aleksanterinkatu 1", line, "LOPPUSUMMA 107,52"), loc, testNow)
		got, _ := receipt.Get(&r, "supplier_tax_id")
		if got != want || want != "" && r.SupplierTaxID.Confidence >= 0.6 {
			t.Errorf("%q: tax ID %q at %.2f, want %q, unsure", line, got, r.SupplierTaxID.Confidence, want)
		}
	}
}

func TestItemsMustAddUpToTheCent(t *testing.T) {
	r := ExtractFields(lines("TAX INVOICE", "1 x TONER 27.52", "1 x PAPER 34.90", "TOTAL 62.41"), receipt.DefaultLocale(receipt.CountryAU), testNow)
	if len(r.LineItems) != 0 {
		t.Errorf("items a cent off the total were kept: %+v", r.LineItems)
	}
}

// Synthetic phone photos read a 0 of one item as 8 or 6 ("192,80" for
// 192,00): when exactly one such digit makes the sum, it is mended and
// flagged. A digit that fits on two items, or a misreading other than of a
// 0, leaves the items unknown.
func TestItemsZeroMisreadMendedBySum(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	r := ExtractFields(lines("TAX INVOICE", "Date: 22.08.24 08:33", "5 x HAMMER EUR 192,80", "1 x BATTERIES AA EUR 20,78",
		"1 x MASKING TAPE EUR 23,34", "TOTAL EUR 236,12"), eu, testNow)
	if len(r.LineItems) != 3 || r.LineItems[0].LineTotal.Value.StringFixed(2) != "192.00" ||
		r.LineItems[0].UnitPrice.Value.StringFixed(2) != "38.40" || r.LineItems[0].LineTotal.Confidence >= 0.6 {
		t.Fatalf("items %+v", r.LineItems)
	}
	au := receipt.DefaultLocale(receipt.CountryAU)
	for _, ls := range [][]Line{
		lines("TAX INVOICE", "1 x NAILS $10.06", "1 x SCREWS $10.06", "TOTAL $20.06"),
		// Synthetic AU 034: 27.51 read 27.52 (2 for 1) is not tried; 5.09 as 5.08 neither.
		lines("TAX INVOICE", "2 x NAILS 1KG $34.90", "1 x HAMMER $5.09", "1 x PRINTER PAPER $27.52", "2 x CABLE TIES $98.78", "GRAND TOTAL $166.28"),
	} {
		if r := ExtractFields(ls, au, testNow); len(r.LineItems) != 0 {
			t.Errorf("items %+v", r.LineItems)
		}
	}
}

func TestItemsQuantityOneWhenPriceIsTheAmount(t *testing.T) {
	r := ExtractFields(lines("TAX INVOICE", "QTY DESCRIPTION PRICE AMOUNT", "2 HAMMER £22.64 £22.64", "3 NAILS £1.50 £4.50", "TOTAL £27.14"), receipt.DefaultLocale(receipt.CountryUK), testNow)
	if len(r.LineItems) != 2 || r.LineItems[0].Quantity.Value.String() != "1" || r.LineItems[1].Quantity.Value.String() != "3" {
		t.Errorf("items %+v", r.LineItems)
	}
}

func TestItemsMisreadAmountMendedByQuantityTimesPrice(t *testing.T) {
	uk := receipt.DefaultLocale(receipt.CountryUK)
	r := ExtractFields(lines("TAX INVOICE", "QTY DESCRIPTION PRICE AMOUNT", "1 SCREWS £36.13 836.13", "2 HAMMER £22.64 £45.28",
		"TOTAL DUE £81.41"), uk, testNow)
	if len(r.LineItems) != 2 || r.LineItems[0].LineTotal.Value.StringFixed(2) != "36.13" {
		t.Fatalf("items %+v", r.LineItems)
	}
	// Two items whose other reading would each make the sum: no guess.
	r = ExtractFields(lines("TAX INVOICE", "QTY DESCRIPTION PRICE AMOUNT", "1 SCREWS £10.00 £11.00", "1 NAILS £10.00 £11.00",
		"TOTAL DUE £21.00"), uk, testNow)
	if len(r.LineItems) != 0 {
		t.Errorf("items %+v", r.LineItems)
	}
}

func TestReconcileTotal(t *testing.T) {
	amt := func(s string) receipt.Amount {
		if s == "" {
			return receipt.Amount{}
		}
		return receipt.Amount{Value: decimal.RequireFromString(s), Set: true, Confidence: 0.5}
	}
	dec := func(s string) *decimal.Decimal {
		if s == "" {
			return nil
		}
		d := decimal.RequireFromString(s)
		return &d
	}
	for _, tc := range []struct {
		name                                 string
		total, subtotal, tax, rounding, paid string
		service, change                      string
		want                                 string
	}{
		{"misread first digit, subtotal + tax to the 5 cents", "953.35", "144.68", "8.68", "0.01", "953.35", "", "0.00", "153.35"},
		{"service charge counts", "345.95", "295.00", "19.47", "-0.02", "", "29.50", "", "343.95"},
		{"cash less change agrees", "67.55", "64.00", "3.84", "0.01", "100.00", "", "32.15", "67.85"},
		{"a misread total: cash less change", "87.99", "", "", "", "100.00", "", "12.51", "87.49"},
		{"tax-inclusive subtotal", "5.30", "5.30", "0.30", "0.00", "10.00", "", "4.70", "5.30"},
		{"cash rounding is no misreading", "72.93", "", "4.13", "", "73.00", "", "0.05", "72.93"},
		{"two digits apart stays", "48.20", "40.00", "2.40", "", "", "", "", "48.20"},
		{"no total: both implied agree", "", "40.00", "2.40", "", "50.00", "", "7.60", "42.40"},
		{"no total: one implied is not enough", "", "40.00", "2.40", "", "", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := receipt.Receipt{Total: amt(tc.total), Subtotal: amt(tc.subtotal), TotalTax: amt(tc.tax), Rounding: amt(tc.rounding), AmountPaid: amt(tc.paid)}
			reconcileTotal(&r, dec(tc.service), dec(tc.change), nil, false, r.Rounding.Set, false)
			got := ""
			if r.Total.Set {
				got = r.Total.Value.StringFixed(2)
			}
			if got != tc.want {
				t.Errorf("total %q, want %q", got, tc.want)
			}
		})
	}
}

// totalCase is a page's lines and the total ExtractFields must find in
// them, "" for none.
type totalCase struct {
	name  string
	lines []Line
	want  string
}

// checkTotals reads each case's total with Malaysian rules.
func checkTotals(t *testing.T, cases []totalCase) {
	t.Helper()
	my := receipt.DefaultLocale(receipt.CountryMY)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ExtractFields(tc.lines, my, testNow)
			got := ""
			if r.Total.Set {
				got = r.Total.Value.StringFixed(2)
			}
			if got != tc.want {
				t.Errorf("total %q, want %q", got, tc.want)
			}
		})
	}
}

// A page read without clean-up (SROIE 026): the rounding line's amount is
// unreadable, but the line says the receipt rounds to 5 cents, so 144.68 +
// 8.68 confirms 153.35 and mends the cash line's 953.35; the total line
// "GRAND TOTAL 1000" lost its point, and SUB TOTAL 10.00 confirms it (SROIE
// 052).
func TestTotalsOfAPoorReading(t *testing.T) {
	checkTotals(t, []totalCase{
		{"a rounding line with no amount read", lines("SUB-TOTAL (B&D) ay 144.68", "TOTAL TAX ¢ mA Le 8.68", "ROUNDING) 7 2 0 >. 001", "CASH :Y _/953.35", "CHANGE SN 0.00"), "153.35"},
		{"no rounding line: the sum is exact", lines("SUB-TOTAL 144.68", "TOTAL TAX 8.68", "CASH 953.35", "CHANGE 0.00"), "953.35"},
		{"a total that lost its point", lines("SUB TOTAL 10.00", "GRAND TOTAL 1000", "CASH 20,00 MYR 20.00", "CHANGE DUE 40.00"), "10.00"},
		{"a lost point nothing confirms", lines("ITEM 12.50", "GRAND TOTAL 1000", "CASH 20.00"), "20.00"},
		// SROIE 196 enlarged: the total line garbled, cash printed negative,
		// and a misspelt tax summary whose row sits under an AMOUNT heading.
		{"cash printed negative, a tax table's row", lines("Total RM Incl. of GST 51D", "Cash -50. 00", "CHANGE 44,25", "GST Summery Amount CRM) Tax (RM)", "T @ 6% 5.42 0. 33"), "5.75"},
		// SROIE 015 enlarged: the words of the rounded total run together.
		{"a rounded total's words run together", lines("Subtotal : 75.90", "TotalAmtRounded «15.90.", "Cash 50.00", "Change Due : 34.10"), "15.90"},
		{"a final total", lines("Total Sales Inclusive GST @6% 43.72", "Round Adj -0.02", "FinalTotal 43.70"), "43.70"},
		// SROIE 474 with margins whitened: the final total's point read as a space.
		{"a final total whose point is a space", lines("Total Sales Inclusive GST @6% 43.90", "Total 43.70", "Round Adj 0.01", "FinalTotal 43 70", "CASH =0.06", "CHANGE 0.30"), "43.70"},
		// SROIE 245 enlarged: no total line read, change given but unreadable.
		{"cash with its change unreadable is no total", lines("8 SUB TOTAL 64.00", "GST 6% 3.84", "ROUNDING ADJ 0.01", "Cash 100.00", "CHANGE Yh"), "67.85"},
		// SROIE 400 read without clean-up: "o.00" is a change of 0.00.
		// SROIE 164 with margins whitened: the cash line lost its cents and
		// the subtotal a digit (28.70 read 28.10); the total line is gone.
		{"notes handed over less change", lines("SOYA CINCAU 4,30", "SUBTOTAL 28.10 |", "RM CASH 100 0G", "CHANGE 71.30", "INC 6% GST 1.62"), "28.70"},
		{"whole notes and no change line", lines("ITEM 4,30", "CASH 100"), ""},
		{"whole notes less change that no amount confirms", lines("ITEM 4,30", "ITEM 9.60", "CASH 100", "CHANGE 71.30"), ""},
		// SROIE 561 read without clean-up: the total line garbled, the cash
		// line's amount too, and under it an items' sum.
		{"an amount under a garbled cash line is not cash", lines("1 DI9 CHAM (1) E 5.57 S", "CASH Zz. .00", "15.67", "Subtotal 15.67", "10% Srv Chg 155", "Total: 1%.22", "Payment 20.00", "Change Due 2.80"), "17.20"},
		{"payment with change given is no total", lines("ITEM 4.00", "Total: 1%.22", "Payment 20.00", "Change Due 2.80"), "17.20"},
		{"payment with no change is the total", lines("ITEM 4.00", "Total: 1%.22", "Payment 20.00", "Change Due 0.00"), "20.00"},
		{"a change of o.00 leaves cash the total", lines("SUB-TOTAL 103.77", "ROUNDING 0.00", "TOTAL 110.600", "CASH 110.00", "CHANGE o.00"), "110.00"},
		// "The total includes 6% GST of 3.98": a statement of the tax, not a total.
		{"the tax a total includes is no total", lines("ITEM 70.30", "Total (incl GST) 70.30", "Cash Tendered 70.30", "Change 0.00", "TOTAL INCLUDES 6% GST 3.98"), "70.30"},
		{"a bare due line is the total", lines("SCONE 1 7.50 0 7.50 S", "Rounding Adj 0.00", "Due 7.50", "Pay 20.00", "Change 12.50", "(Total Included GST @ 6% : 0.42)"), "7.50"},
		{"a due date is no amount due", lines("ITEM 7.50", "Due Date 12.05.18", "Due 7.50"), "7.50"},
		{"the taxable amount is no total", lines("SUBTOTAL RM53.60", "CASH RM100.00", "CHANGE RM46.40", "TAXABLE AMOUNT RM50.57", "6% GST RM3.03"), "53.60"},
		// Change 8.50 read 0.50: cash less change is one digit from the total.
		{"a total printed twice stands against cash less change", lines("Total Sales (Inclusive GST) RM 141.50", "CASH RM 150.00", "CHANGE RM 0.50", "GST Summary Amount(RM) Tax(RM)", "Z 141.50 0.00"), "141.50"},
		{"a total printed once yields to cash less change", lines("Total Sales (Inclusive GST) RM 141.50", "CASH RM 150.00", "CHANGE RM 0.50"), "149.50"},
		{"a total's digits split by the spacing, the joined amount printed above", lines("Gross Amt : 136.00", "GST (6%): 0.00", "Net Amt : 1 36.00", "Received 150.00", "Change : 14.00"), "136.00"},
		{"split digits joined only when the page confirms them", lines("ITEM 36.00", "TOTAL : 1 36.00"), "36.00"},
		{"a total including tax is the total", lines("ITEM 12.00", "Total including GST 12.00", "GST 6% 0.68"), "12.00"},
	})
}

func TestReconcileTotalWithSupplies(t *testing.T) {
	for _, tc := range []struct{ name, total, supplies, want string }{
		{"a digit misread", "35.04", "35.01", "35.01"},
		{"the first digit read as a mark", "9.54", "59.54", "59.54"},
		{"two digits apart stays", "35.94", "35.01", "35.94"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := receipt.Receipt{Total: receipt.Amount{Value: decimal.RequireFromString(tc.total), Set: true}}
			sum := decimal.RequireFromString(tc.supplies)
			reconcileTotal(&r, nil, nil, &sum, false, false, false)
			if got := r.Total.Value.StringFixed(2); got != tc.want {
				t.Errorf("total %s, want %s", got, tc.want)
			}
		})
	}
}

func TestSuppliesTotal(t *testing.T) {
	gst := receipt.Amount{Value: decimal.RequireFromString("0.48"), Set: true}
	for _, tc := range []struct {
		name  string
		lines []Line
		want  string // "": none
	}{
		{"zero-rated and tax-inclusive supplies", lines("Total O% swyplies: 26.61", "Total 6% supplies (excl. GST): 7.92", "GST: 0.48", "Total 6% supplies (Inc. GST): 8.40", "Total @& supplies: 26.61", "Total Payable: 35.04"), "35.01"},
		{"two readings of the zero-rated total disagree", lines("Total 0% supplies: 15.36", "Total 6% supplies (excl. GST): 7.92", "Total 6% supplies (Inc. GST): 8.40", "Total (% supplies, 10.36"), ""},
		{"the tax line misread: the inclusive is the exclusive at 6%", lines("Total O% supplies: 27.44", "Total @% supplies (excl. GST): 30.28", "(ST: 1.82 |", "~ | 64 supplies (Inc. ST): 32.10 |", "Total @& supplies: 27.44"), "59.54"},
		{"exclusive plus tax is not the inclusive", lines("Total 0% supplies: 26.61", "Total 6% supplies (excl. GST): 7.92", "Total 6% supplies (Inc. GST): 8.90"), ""},
		{"no supply lines", lines("Total Payable: 35.04"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			upper := make([]string, len(tc.lines))
			for i, l := range tc.lines {
				upper[i] = keywordText(l.Text)
			}
			got := ""
			if v := suppliesTotal(tc.lines, upper, gst, receipt.PlausibleRates(receipt.CountryMY)); v != nil {
				got = v.StringFixed(2)
			}
			if got != tc.want {
				t.Errorf("suppliesTotal = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMendPostcode(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		country receipt.Country
		want    string
	}{
		{"106 LONDON ROAD, LEICESTER LE1 SYA", receipt.CountryUK, "106 LONDON ROAD, LEICESTER LE1 5YA"},
		{"4 HIGH STREET, LONDON SW1A OAA", receipt.CountryUK, "4 HIGH STREET, LONDON SW1A 0AA"},
		{"4 HIGH STREET, LEEDS LS1 4AB", receipt.CountryUK, "4 HIGH STREET, LEEDS LS1 4AB"},
		{"SUITE 4 SOUTH WING", receipt.CountryUK, "SUITE 4 SOUTH WING"},
		{"32 LONDON ROAD, LEICESTER LELSYA", receipt.CountryUK, "32 LONDON ROAD, LEICESTER LE1 5YA"},
		{"112 STATION ROAD, LEEDS LS] 4AB", receipt.CountryUK, "112 STATION ROAD, LEEDS LS1 4AB"},
		{"107 STATION ROAD, DERBY DE12PQ.", receipt.CountryUK, "107 STATION ROAD, DERBY DE1 2PQ."},
		{"10 MILL ROAD, LONDON", receipt.CountryUK, "10 MILL ROAD, LONDON"},
		{"10 MILL ROAD, BRISTOL", receipt.CountryUK, "10 MILL ROAD, BRISTOL"},
		{"LOT 3, JALAN PJU 1A SEK", receipt.CountryMY, "LOT 3, JALAN PJU 1A SEK"},
		{"PERSIARAN SURIAN, 47301 PETALING JAYA", receipt.CountryMY, "PERSIARAN SURIAN, 47301 PETALING JAYA"},
		{"LOT 11999 BATU 2, 41400 KLANG", receipt.CountryMY, "LOT 11999 BATU 2, 41400 KLANG"},
		{"12 GEORGE ST, SYDNEY NSW 2009", receipt.CountryAU, "12 GEORGE ST, SYDNEY NSW 2009"},
		// Synthetic phone photos: specks after the postcode, a town glued to it.
		{"8PITT STREET, BRISBANE QLD 4000 4", receipt.CountryAU, "8 PITT STREET, BRISBANE QLD 4000"},
		{"UNIT 4, 12 GEORGE ST, SYDNEY NSW 2000", receipt.CountryAU, "UNIT 4, 12 GEORGE ST, SYDNEY NSW 2000"},
		{"102 CHURCH LANE, YORK YO1 7HH 1", receipt.CountryUK, "102 CHURCH LANE, YORK YO1 7HH"},
		{"48 CHURCH LANE, YORK Y01 7HH", receipt.CountryUK, "48 CHURCH LANE, YORK YO1 7HH"},
		{"9 MARKET ST, PORTSMOUTH P01 2AB", receipt.CountryUK, "9 MARKET ST, PORTSMOUTH PO1 2AB"},
		{"3 HIGH ST, BIRMINGHAM B10 0AA", receipt.CountryUK, "3 HIGH ST, BIRMINGHAM B10 0AA"},
		{"5 MILL RD, YORK Y010 5DD", receipt.CountryUK, "5 MILL RD, YORK YO10 5DD"},
		{"183 LONDON ROAD, LEEDSLS1 4AB 3", receipt.CountryUK, "183 LONDON ROAD, LEEDS LS1 4AB"},
		{"8STATION ROAD, BATHBAL1SU", receipt.CountryUK, "8 STATION ROAD, BATH BA1 1SU"},
		{"12 HIGH STREET, ABYSSINIAN", receipt.CountryUK, "12 HIGH STREET, ABYSSINIAN"},
		{"50 PARK BLVD, TOLEDO OH 43604 5", receipt.CountryUS, "50 PARK BLVD, TOLEDO OH 43604"},
		{"50 PARK BLVD, SUITE 5", receipt.CountryUS, "50 PARK BLVD, SUITE 5"},
		{"12 JAVA STREET, PERTH WA 6000", receipt.CountryAU, "12 JAVA STREET, PERTH WA 6000"},
		// Synthetic German phone photos: Köln's 50667 read 56667, Leipzig's
		// 04109 read 64109 and 4109.
		{"HAUPTSTRASSE 8, 56667 KOELN", receipt.CountryEU, "HAUPTSTRASSE 8, 50667 KOELN"},
		{"MARKTPLATZ 74, 64109 LEIPZIG", receipt.CountryEU, "MARKTPLATZ 74, 04109 LEIPZIG"},
		{"MARKTPLATZ 24, 4109 LEIPZIG", receipt.CountryEU, "MARKTPLATZ 24, 04109 LEIPZIG"},
		{"MARKTPLATZ 31, 80332 MUENCHEN", receipt.CountryEU, "MARKTPLATZ 31, 80332 MUENCHEN"}, // in range: as read
		{"DOMPLATZ 3, 50667 KÖLN", receipt.CountryEU, "DOMPLATZ 3, 50667 KÖLN"},
		{"BAHNHOFSTRASSE 2, 3011 BERN", receipt.CountryEU, "BAHNHOFSTRASSE 2, 3011 BERN"}, // a Swiss code: no German town
		// Synthetic AU phone photos read the 0s of a capital's city postcode
		// as 9 or 6. A suburb's postcode is left to its suburb.
		{"169 PITT STREET, BRISBANE QLD 4900", receipt.CountryAU, "169 PITT STREET, BRISBANE QLD 4000"},
		{"81 KING STREET, BRISBANE QLD 4060", receipt.CountryAU, "81 KING STREET, BRISBANE QLD 4000"},
		{"63 PITT STREET, MELBOURNE VIC 3600", receipt.CountryAU, "63 PITT STREET, MELBOURNE VIC 3000"},
		{"50 BEACH ROAD, PERTH WA 6060", receipt.CountryAU, "50 BEACH ROAD, PERTH WA 6000"},
		{"12 GEORGE ST, SYDNEY NSW 2009", receipt.CountryAU, "12 GEORGE ST, SYDNEY NSW 2009"}, // 2000 or 2001: as read
		{"1 SMITH ST, DARWIN NT 0860", receipt.CountryAU, "1 SMITH ST, DARWIN NT 0800"},
		{"4 LATROBE TCE, PADDINGTON QLD 4064", receipt.CountryAU, "4 LATROBE TCE, PADDINGTON QLD 4064"},
		{"GPO BOX 9, BRISBANE QLD 4001", receipt.CountryAU, "GPO BOX 9, BRISBANE QLD 4001"},
		// Synthetic phone photos, seed 101: specks read as digits after a
		// German town, a house number or a street; a house number's 5 read
		// as S; a capital's name one letter off.
		{"BAHNHOFSTRASSE 62, 04109 LEIPZIG 2", receipt.CountryEU, "BAHNHOFSTRASSE 62, 04109 LEIPZIG"},
		{"SCHULSTRASSE 22 4, 50667 KOELN", receipt.CountryEU, "SCHULSTRASSE 22, 50667 KOELN"},
		{"HAUPTSTRASSE 7, 10115 BERLIN", receipt.CountryEU, "HAUPTSTRASSE 7, 10115 BERLIN"},
		{"MARKTPLATZ S6, 10115 BERLIN", receipt.CountryEU, "MARKTPLATZ 56, 10115 BERLIN"},
		{"MARKTPLATZ SO, 10115 BERLIN", receipt.CountryEU, "MARKTPLATZ SO, 10115 BERLIN"}, // no digit read: no number
		{"211 CHURCH LANE 7, YORK YO1 7HH", receipt.CountryUK, "211 CHURCH LANE, YORK YO1 7HH"},
		{"UNIT 4, HIGH STREET 2, LEEDS LS1 4AB", receipt.CountryUK, "UNIT 4, HIGH STREET 2, LEEDS LS1 4AB"}, // no house number first
		{"117 KING STREET, SYONEY NSW 2000", receipt.CountryAU, "117 KING STREET, SYDNEY NSW 2000"},
		{"8 MAIN ROAD, SYDNEY VIC 3000", receipt.CountryAU, "8 MAIN ROAD, SYDNEY VIC 3000"}, // not Victoria's capital
		{"2 BAY ST, HOBARD NSW 2000", receipt.CountryAU, "2 BAY ST, HOBARD NSW 2000"},
		// Seed 202: a speck before a town line, and before a house number.
		{"146 STATION ROAD, 1 LEEDS LS1 4AB", receipt.CountryUK, "146 STATION ROAD, LEEDS LS1 4AB"},
		{"16 CHAPEL ROAD, 3 PERTH WA 6000", receipt.CountryAU, "16 CHAPEL ROAD, PERTH WA 6000"},
		{"16 CHAPEL ROAD, 3 SURRY HILLS NSW 2010", receipt.CountryAU, "16 CHAPEL ROAD, SURRY HILLS NSW 2010"},
		{"UNIT 2, 3 HIGH STREET LEEDS LS1 4AB", receipt.CountryUK, "UNIT 2, 3 HIGH STREET LEEDS LS1 4AB"}, // a street: its number
		{"7 172 MAIN ST, TOLEDO OH 43604", receipt.CountryUS, "172 MAIN ST, TOLEDO OH 43604"},
		{"4 12 GEORGE ST, SYDNEY NSW 2000", receipt.CountryAU, "4 12 GEORGE ST, SYDNEY NSW 2000"}, // unit 4/12?
		{"3 MAIN ST, TOLEDO OH 43604", receipt.CountryUS, "3 MAIN ST, TOLEDO OH 43604"},
		{"35MAIN ST, AUSTIN TX 78701", receipt.CountryUS, "35 MAIN ST, AUSTIN TX 78701"},
		{"12 1ST AVENUE, SALEM OR 97301", receipt.CountryUS, "12 1ST AVENUE, SALEM OR 97301"},
		{"229 LAKE OR, TOLEDO OH 43604", receipt.CountryUS, "229 LAKE DR, TOLEDO OH 43604"},
		{"12 MAIN ST, SALEM OR 97301", receipt.CountryUS, "12 MAIN ST, SALEM OR 97301"},
	} {
		lx := lexiconIn(tc.country)
		if tc.country == receipt.CountryEU {
			lx = lexiconIn("DE") // the euro rules, with the German pack's towns
		}
		if got := mendPostcode(tc.addr, tc.country, lx); got != tc.want {
			t.Errorf("mendPostcode(%q) = %q, want %q", tc.addr, got, tc.want)
		}
	}
}

// A date line read again alone may come out worse than the page read it
// (synthetic EU phone photo, seed 202: "Date: 23.94.24" on the page): the
// page's reading is mended when the new one cannot be.
func TestRepairedDateFromThePageWhenTheLineReadAloneIsWorse(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	page := lines("TAX INVOICE Date: 23.94.24", "Time: 15:26")
	alone := lines("TAX INVOICE Dae: 2?.9A.2A", "Time: 15:26")
	for _, tc := range []struct {
		name     string
		readings [][]Line
		want     string
	}{
		{"the page's reading, mended", [][]Line{alone, page}, "2024-04-23"},
		{"the later reading first", [][]Line{lines("Date: 23.04.24"), page}, "2024-04-23"},
		{"nothing to mend", [][]Line{alone}, ""},
	} {
		d := RepairedDate(eu, testNow, tc.readings...).Value
		got := ""
		if !d.IsZero() {
			got = d.Format("2006-01-02")
		}
		if got != tc.want {
			t.Errorf("%s: date %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestRepairedDates(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []Line
		want  string
	}{
		{"a day read 64 for 04", lines("Date 64/06/2024 15:46"), "2024-06-04"},
		{"a year read 2625 for 2025", lines("Date 26.03.2625 19:04"), "2025-03-26"},
		{"a year read 2824 and a Q for 0", lines("TAX INVOICE Date: Q1.12.2824"), "2024-12-01"},
		{"a date read as printed wins", lines("Date: 19/2/2617", "DD: 19/09/2017 11:09"), "2017-09-19"},
		{"two misread digits are not repaired", lines("Date 68/86/2024"), ""},
		{"a lost slash before the month", lines("2703/2018 No : CS-20243"), "2018-03-27"},
		{"a lost dash before the year", lines("Date 05-062018 11:25"), "2018-06-05"},
		{"a lost separator that makes no date", lines("INV 4512/2018"), ""},
		{"a date read as printed wins over a lost separator", lines("REF 0112/2018", "Date 05/06/2018"), "2018-06-05"},
		{"eight digits with no year shape stay a number", lines("TEL 0356/1234"), ""},
		{"both slashes lost", lines("27032018 (No 8.20243"), "2018-03-27"},
		{"digits inside a longer number are no date", lines("BARCODE 9556930270320181"), ""},
		{"a document number is no date", lines("Document No : TD27032018"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := findDateRepairing(tc.lines, receipt.DefaultLocale(receipt.CountryMY), true, testNow).Value
			got := ""
			if !d.IsZero() {
				got = d.Format("2006-01-02")
			}
			if got != tc.want {
				t.Errorf("date %q, want %q", got, tc.want)
			}
		})
	}
	if d := FindDate(lines("Date 64/06/2024"), receipt.DefaultLocale(receipt.CountryMY), testNow); d.Set {
		t.Errorf("findDate repaired %v without being asked", d)
	}
}

// With no total line read, the amount a rounding adjustment is made to,
// plus the adjustment, is the total; a tax or discount line above the
// rounding line, or an amount smaller than one above it, is not.
func TestTotalAboveRounding(t *testing.T) {
	checkTotals(t, []totalCase{
		{"no adjustment (SROIE 279)", lines("French Lo 8 2.40 0 19.20", "Qty 8 19.20", "Rounding Adj 0.00", "fue [9.20", "Pay 20,00"), "19.20"},
		{"an adjustment down", lines("ITEM A 12.00", "ITEM B 15.28", "27.28", "Rounding Adj -0.03"), "27.25"},
		{"an adjustment up", lines("ITEM A 12.00", "ITEM B 15.28", "27.28", "Rounding Adj 0.02"), "27.30"},
		{"a tax line above the rounding line", lines("ITEM A 18.31", "GST 6% 1.09", "Rounding Adj 0.00"), ""},
		{"an amount smaller than an item above", lines("ITEM A 18.31", "ITEM B 1.09", "Rounding Adj 0.00"), ""},
		{"an adjustment that leaves odd cents", lines("ITEM A 27.28", "Rounding Adj 0.01"), ""},
		{"a total line read wins", lines("Sub 19.20", "Rounding Adj 0.00", "TOTAL 19.20"), "19.20"},
	})
}

func TestPaidWithoutChange(t *testing.T) {
	checkTotals(t, []totalCase{
		// SROIE 265: both total lines misread, and the tax table's headings
		// misread too ("Taz Cade"): its row is not a total.
		{"cash received, no change (SROIE 265)", lines("here Tals A", "Total Ssiec Inclusive GST : = eer", "Cech Received : 4.70", "Taz Cade Tazable Amount GST", "SR 5.00 #43 022", "GST: 0.27"), "4.70"},
		{"a change line", lines("Amount Received 50.00", "Change 12.30"), ""},
		{"a change line whose amount was lost", lines("Amount Received 12.40", "Change ~~"), ""},
		{"whole notes handed over", lines("Amount Received 20.00"), ""},
		{"a total line read wins", lines("TOTAL 4.60", "Cash 4.70"), "4.60"},
	})
}

func TestTaxColumnsStartASummary(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"Tax Code Taxable Amount GST", true},
		{"Taz Cade Tazable Amount GST", true},
		{"Code Amount (RM) Tax", true},
		{"GST Summary", true},
		{"Total Amount GST 0.27", false},
		{"Total Amount Incl GST", false},
		{"TOTAL AMOUNT", false},
	} {
		l := lines(tc.line)[0]
		if got := startsTaxSummary(l, keywordText(l.Text)); got != tc.want {
			t.Errorf("startsTaxSummary(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestIsIdentifierLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"CO-REG:860671-D", true},
		{"CAMPANY REG. NA, ; 001056194X", true},
		{"GST NO: 001329332224", true},
		{"(JM0352019-K)", true},
		{"SITE: 1046", true},
		{"STATION NO. 27", true},
		{"VATNO GB 051 5905 82", true}, // PP-OCR lost the space of VAT NO
		{"ABN 51 824 753 556", true},
		{"176 JLN SUNGEI BESI", false},
		{"NO. 53, JALAN BESAR,", false},
		{"SITE 3, JALAN PERDANA", false},
	} {
		if got := isIdentifierLine(tc.line); got != tc.want {
			t.Errorf("isIdentifierLine(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestIsDateTimeLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"30MAR201818:17", true},
		{"09 MAY 2018 18·24", true},
		{"12 MARCH 2018 9:05 PM", true},
		{"1 SEPT 2019", true},
		{"12 MARKET 5", false},
		{"LOT 5, JALAN MAWAR 3", false},
		{"81200 JOHOR BAHRU", false},
		{"MAY 2018", false}, // no day: not a time of sale
	} {
		if got := isDateTimeLine(tc.line); got != tc.want {
			t.Errorf("isDateTimeLine(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestMendTownPostcode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"NO 290, JALAN AIR PANAS, SETAPAK, 93200, KUALA LUMPUR.", "NO 290, JALAN AIR PANAS, SETAPAK, 53200, KUALA LUMPUR."},
		{"OFF JLN BT 3 SUBANG, 46000 SHAH ALAM, SEL.", "OFF JLN BT 3 SUBANG, 40000 SHAH ALAM, SEL."},
		{"MUKIM KAPAR, 52100 KLANG, SELANGOR", "MUKIM KAPAR, 42100 KLANG, SELANGOR"},
		{"JALAN KLANG LAMA, 44000 PETALING JAYA", "JALAN KLANG LAMA, 44000 PETALING JAYA"}, // 46000 or 47000: left
		{"LEBUH BANDAR UTAMA, 47800 PETALING JAYA", "LEBUH BANDAR UTAMA, 47800 PETALING JAYA"},
		{"LOT 12345 KLANG LAMA", "LOT 12345 KLANG LAMA"}, // no town of the table
		{"81750 PLENTONG, JOHOR", "81750 PLENTONG, JOHOR"},
		// SROIE 046 read without clean-up.
		{"BANDAR BARU PERMAS JAYA, 91750 PLENTONG, JOHOR.", "BANDAR BARU PERMAS JAYA, 81750 PLENTONG, JOHOR."},
		// Cheras has a postcode in Selangor and one in Kuala Lumpur.
		{"BANDAR MAHKOTA CHERAS, 43200 CHERAS, SELANGOR", "BANDAR MAHKOTA CHERAS, 43200 CHERAS, SELANGOR"},
		{"TAMAN CONNAUGHT, 56000 CHERAS, KUALA LUMPUR", "TAMAN CONNAUGHT, 56000 CHERAS, KUALA LUMPUR"},
		{"TAMAN CONNAUGHT, 58000 CHERAS, KUALA LUMPUR", "TAMAN CONNAUGHT, 56000 CHERAS, KUALA LUMPUR"},
		{"84600,PAGOH,JOHOR", "84600,PAGOH,JOHOR"},
		{"4317 TRILLIUM 56 BESI", "4317 TRILLIUM 56 BESI"},
		// Letters read among a postcode's digits, where that fits the town.
		{"SEKSYEN U9,4D170 SHAH ALAM", "SEKSYEN U9,40170 SHAH ALAM"},
		{"JALAN TUN BESAR, 500CO KUALA LUMPUR.", "JALAN TUN BESAR, 50000 KUALA LUMPUR."},
		{"JALAN BESAR, 4015A SHAH ALAM", "JALAN BESAR, 4015A SHAH ALAM"},                       // an A is a 4 or a smudge: left
		{"JALAN BESAR, 5S100 SHAH ALAM", "JALAN BESAR, 5S100 SHAH ALAM"},                       // 55100 is no Shah Alam code
		{"LOT PT12A, 4O150 MERLIMAU", "LOT PT12A, 4O150 MERLIMAU"},                             // no town of the table
		{"NO 12, JALAN SS2/3, SS2OO PETALING JAYA", "NO 12, JALAN SS2/3, SS2OO PETALING JAYA"}, // two digits: no postcode
	} {
		if got := myLexicon().mendTownPostcode(tc.in); got != tc.want {
			t.Errorf("mendTownPostcode(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMendMoneyWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"TOTAL RDUNDED RM", "TOTAL ROUNDED RM"},
		{"ROUNDING ADJUSIMENT RM", "ROUNDING ADJUSTMENT RM"},
		{"ROURIDING RH", "ROUNDING RH"}, // "ri" read for n
		{"TOTAI AMOUNT", "TOTAL AMOUNT"},
		{"SUBIUIAL", "SUBTOTAL"}, // T read as I, O as U
		{"IUIAL (GSI INUL)", "TOTAL (GSI INUL)"},
		{"IOLAL SALES", "TOTAL SALES"},
		{"RUUNDING ADJUSIMENIS", "ROUNDING ADJUSIMENIS"},
		{"LOCAL TIDAL LOYAL", "LOCAL TIDAL LOYAL"},
		// Left as read: other words, and those one letter from two money words.
		{"SERVICE CHARGE", "SERVICE CHARGE"},
		{"SERVICE RENDERED", "SERVICE RENDERED"},
		{"CHARGF", "CHARGE"},
		{"GOODS SOLD ARE NOT RETURNABLE", "GOODS SOLD ARE NOT RETURNABLE"},
	} {
		if got := mendMoneyWords(tc.in, myLexicon()); got != tc.want {
			t.Errorf("mendMoneyWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Misread or abbreviated labels still find the total, rounded to the 5
// cents paid.
func TestMisreadRoundingLines(t *testing.T) {
	my := receipt.DefaultLocale(receipt.CountryMY)
	for _, tc := range []struct {
		name  string
		lines []Line
		want  string
	}{
		{"rounded total's label misread", lines("ACME SDN BHD", "TOTAL INCL. GST RM 8.11", "ROUNDING ADJUSIMENT -RM 0.01", "TOTAL RDUNDED RM 8.10", "CASH RM 50.00", "CHANGE RM 41.90"), "8.1"},
		{"amount due abbreviated", lines("ACME SDN BHD", "2 CHICKEN RICE 64.65", "Amt Due 129.30", "Thank you"), "129.3"},
		{"rounding's n read as ri", lines("ACME SDN BHD", "Total Sales (Inclusive GST) RM 37.44", "Rouriding RM 37.45", "CREDIT RM 37.45"), "37.45"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ExtractFields(tc.lines, my, testNow)
			if got := r.Total.Value.String(); got != tc.want {
				t.Errorf("total %s, want %s", got, tc.want)
			}
		})
	}
}

// A name broken over lines is boxed whole: the review window outlines it
// all, and the rereads and second choices that mend a name's words look
// at every line of it.
func TestANameOverLinesIsBoxedWhole(t *testing.T) {
	ls := lines("KIM LOONG HARDWARE", "ENTERPRISE (BATU", "JAYA) SDN BHD", "NO. 12, JALAN BESAR,", "41050 KLANG, SELANGOR")
	r := ExtractFields(ls, receipt.DefaultLocale(receipt.CountryMY), testNow)
	if r.SupplierName.Value != "KIM LOONG HARDWARE ENTERPRISE (BATU JAYA) SDN BHD" {
		t.Fatalf("name %q", r.SupplierName.Value)
	}
	want := ls[0].Box.Union(ls[2].Box)
	if b := r.SupplierName.Box; b == nil || *b != want {
		t.Errorf("name's box %+v, want %+v (its three lines)", b, want)
	}
}

func TestMendStateAfterPostcode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"12 JALAN BESAR, 40150 SHAH ALAM SANGOR", "12 JALAN BESAR, 40150 SHAH ALAM SELANGOR"},
		{"NO. 7, JALAN MAJU, 47500 SUBANG JAYA, 5ELENGOR D.E.", "NO. 7, JALAN MAJU, 47500 SUBANG JAYA, SELANGOR D.E."},
		{"12, JALAN BESAR, 81200 JOHOR BAHRU,JOHR", "12, JALAN BESAR, 81200 JOHOR BAHRU,JOHOR"},
		{"12 JALAN BESAR, 40150,SHAH ALAM SANGOR", "12 JALAN BESAR, 40150,SHAH ALAM SELANGOR"},       // the comma after the postcode stays
		{"12 JALAN BESAR, 40150 SHAH ALAM", "12 JALAN BESAR, 40150 SHAH ALAM"},                       // no state printed
		{"12 JALAN BESAR, 81200 JOHOR BAHRU, SELANGR", "12 JALAN BESAR, 81200 JOHOR BAHRU, SELANGR"}, // not the postcode's state
		{"LOT 5, 50450 KUALA LUMPUR", "LOT 5, 50450 KUALA LUMPUR"},                                   // a state of two words is left
		{"NO 5, 47100 PUCHONG, JALAN SELANGAT", "NO 5, 47100 PUCHONG, JALAN SELANGAT"},               // another ending
	} {
		if got := myLexicon().mendStateAfterPostcode(tc.in); got != tc.want {
			t.Errorf("mendStateAfterPostcode(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCloseBracketBeforeLegalForm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ACME HARDWARE ENTERPRISE (SETIA ALAM SDN BHD", "ACME HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD"},
		{"ACME (M SDN. BHD.", "ACME (M) SDN. BHD."},
		{"ACME BAKERIES (KL) SDN BHD", "ACME BAKERIES (KL) SDN BHD"},
		{"ACME (SETIA ALAM", "ACME (SETIA ALAM"}, // no legal form: left
		{"ACME SDN BHD (JALAN BESAR", "ACME SDN BHD (JALAN BESAR"},
		{"ACME (SDN BHD", "ACME (SDN BHD"},
	} {
		if got := closeBracketBeforeLegalForm(tc.in); got != tc.want {
			t.Errorf("closeBracketBeforeLegalForm(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A VAT number printed in its country's own form, without the two letters
// of its international form, is read in the international form of the
// page's country; a Spanish NIF's letter is the format's, not a misread
// digit.
func TestTaxIDInTheCountrysOwnForm(t *testing.T) {
	for _, tc := range []struct {
		pack, line, want string
	}{
		{"ES", "NIF: B47786405", "EU_VAT:ESB47786405"},
		{"ES", "C.I.F. B60078300", "EU_VAT:ESB60078300"},
		{"IT", "P.IVA 04603586779", "EU_VAT:IT04603586779"},
		{"IT", "Partita IVA 04603586779", "EU_VAT:IT04603586779"},
		{"AT", "UID-Nr. U13585627", "EU_VAT:ATU13585627"},
		{"PT", "NIF 501964843", "EU_VAT:PT501964843"},
		{"FI", "Y-tunnus 2077474-0", "EU_VAT:FI20774740"},
		{"PL", "NIP 526-025-02-74", "EU_VAT:PL5260250274"},
		{"PL", "NIP: 5260250274", "EU_VAT:PL5260250274"},
		{"IT", "P.IVA IT04603586779", "EU_VAT:IT04603586779"}, // the international form stays
	} {
		loc := receipt.DefaultLocale(receipt.CountryEU)
		loc.Pack = tc.pack
		r := ExtractFields(lines("ACME", tc.line, "TOTAL 10,00"), loc, testNow)
		if got, _ := receipt.Get(&r, "supplier_tax_id"); got != tc.want {
			t.Errorf("%s page, %q: tax ID %q, want %q", tc.pack, tc.line, got, tc.want)
		}
	}
}

// Where the house number follows the street, the street's line is the
// address's first, above the town's line as the country prints it; it is
// no branch's name cut off for want of a number in front.
func TestAddressWithTheHouseNumberAfterTheStreet(t *testing.T) {
	for _, tc := range []struct{ pack, street, town, want string }{
		{"NL", "Molenweg 49", "3511 LX Utrecht", "MOLENWEG 49, 3511 LX UTRECHT"},
		{"BE", "Kerkstraat 12", "2000 Antwerpen", "KERKSTRAAT 12, 2000 ANTWERPEN"},
		{"DE", "Husener Str. 121", "33100 Paderborn", "HUSENER STR. 121, 33100 PADERBORN"},
	} {
		loc := receipt.DefaultLocale(receipt.CountryEU)
		loc.Pack = tc.pack
		r := ExtractFields(lines("IJzerwaren Bakker B.V.", tc.street, tc.town, "Datum: 06-11-2024", "TOTAAL 10,00"), loc, testNow)
		if r.SupplierAddress.Value != tc.want {
			t.Errorf("%s: address %q, want %q", tc.pack, r.SupplierAddress.Value, tc.want)
		}
	}
}

// The shop's phone, whatever its label ("Tlf.", "Tél."), or a registered
// name printed after the postcode and town ends the address; a registered
// name under a motto, before the street, is passed over.
func TestTheAddressEndsAtThePhoneOrTheRegisteredName(t *testing.T) {
	for _, tc := range []struct {
		pack string
		page []string
		want string
	}{
		{
			"NO",
			[]string{"Kjøpmann Haugen", "Lia Center, Liaveien 4", "7053 Ranheim", "Tlf. 73 55 06 42", "Haugen Dagligvare AS", "12.01.2025 10:14", "TOTALT 154,70"},
			"LIA CENTER, LIAVEIEN 4, 7053 RANHEIM",
		},
		{
			"NO",
			[]string{"Bykiosken", "Torgallmenningen 9", "5014 Bergen", "Torgkiosk Bergen AS", "12.01.2025 10:14", "TOTALT 54,70"},
			"TORGALLMENNINGEN 9, 5014 BERGEN",
		},
		{
			"FR",
			[]string{"BOULANGERIE MARIE", "12 rue de la République", "69002 Lyon", "Tél. 04 78 42 16 30", "12/04/2025 08:12", "TOTAL 7,40"},
			"12 RUE DE LA RÉPUBLIQUE, 69002 LYON",
		},
		{
			"DE",
			[]string{"Metzgerei Brandl", "Hausschlachtung seit 1958", "Inh. Josef Brandl e.K.", "Marktplatz 4 - 84028 Landshut", "Tel. 0871/2 74 18", "29.11.24 11:48", "SUMME EUR 42,51"},
			"HAUSSCHLACHTUNG SEIT 1958, MARKTPLATZ 4 - 84028 LANDSHUT",
		},
	} {
		loc := receipt.DefaultLocale(receipt.CountryEU)
		loc.Pack = tc.pack
		if r := ExtractFields(lines(tc.page...), loc, testNow); r.SupplierAddress.Value != tc.want {
			t.Errorf("%s: address %q, want %q", tc.pack, r.SupplierAddress.Value, tc.want)
		}
	}
}

// A German street's ß, which neither PP-OCR's alphabet nor English
// Tesseract's has, read as B, F or one S, or lost, is given back, in a compound or
// in the word after the street's name; the ending alone with no name
// before it, or a page of another language, is left as read.
func TestStreetEndingWithItsSharpSMisread(t *testing.T) {
	de, _ := packs.Get("DE")
	nl, _ := packs.Get("NL")
	for _, tc := range []struct {
		pk       *packs.Pack
		in, want string
	}{
		{de, "SCHULSTRABE 85, 50667 KOLN", "SCHULSTRASSE 85, 50667 KOLN"},
		{de, "HAUPTSTRASE 62, 50667 KOLN", "HAUPTSTRASSE 62, 50667 KOLN"},
		{de, "HAUPTSTRASSE 62", "HAUPTSTRASSE 62"},
		{de, "SCHULSTRAßE 70", "SCHULSTRAßE 70"},
		{de, "STRABE 5", "STRABE 5"},
		{de, "MARIAHILFER STRABE 39, 8010 GRAZ", "MARIAHILFER STRASSE 39, 8010 GRAZ"},
		{de, "HAUPTSTRAFE 27, 97070 WURZBURG", "HAUPTSTRASSE 27, 97070 WURZBURG"},
		{de, "HAUPTSTRAE 4, 90402 NURNBERG", "HAUPTSTRASSE 4, 90402 NURNBERG"},
		{de, "MARIAHILFER STRABE62, 6020 INNSBRUCK", "MARIAHILFER STRASSE 62, 6020 INNSBRUCK"},
		{de, "12 STRABE 5", "12 STRABE 5"},
		{nl, "SCHULSTRABE 85", "SCHULSTRABE 85"},
	} {
		if got := mendUnreadSharpS(tc.in, tc.pk); got != tc.want {
			t.Errorf("%q mended to %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A house number after a comma is the street's where the language writes
// it so, and the address ends at the tax number or the document's title
// in the page's language.
func TestSouthernEuropeanAddress(t *testing.T) {
	for _, tc := range []struct {
		pack string
		ls   []string
		want string
	}{
		{"ES", []string{"Cafeteria Sanchez S.L.U.", "Calle Mayor, 7", "46001 Valencia", "CIF: B67505677", "TICKET Fecha: 05/04/25"}, "CALLE MAYOR, 7, 46001 VALENCIA"},
		{"ES", []string{"Papeleria Nunez S.L.U.", "Calle Mayor, 76", "46001 Valencia", "C.I.F. B93668952", "FACTURA SIMPLIFICADA", "Fecha: 24/06/2025"}, "CALLE MAYOR, 76, 46001 VALENCIA"},
		{"ES", []string{"Papeleria Nunez S.L.U.", "C.I.F. B93668952", "Calle Mayor, 76", "46001 Valencia", "Fecha: 24/06/2025"}, "CALLE MAYOR, 76, 46001 VALENCIA"},
		{"IT", []string{"Bar Roma S.r.l.", "Via Roma, 7", "40121 Bologna", "P.IVA 04603586779"}, "VIA ROMA, 7, 40121 BOLOGNA"},
		// The elided article read as a word of its own is no speck.
		{"BE", []string{"QUINCAILLERIE WOUTERS SRL", "Chaussee d' Ixelles 33", "1000 Bruxelles", "TVA BE 0858.425.749"}, "CHAUSSEE D'IXELLES 33, 1000 BRUXELLES"},
		{"IT", []string{"Bar Roma S.r.l.", "Piazza dell' Unita 7", "40121 Bologna", "P.IVA 04603586779"}, "PIAZZA DELL'UNITA 7, 40121 BOLOGNA"},
		// Only the page's languages' elisions: a speck with a quote stays a speck.
		{"DE", []string{"Baeckerei Huber GmbH", "E' Hauptstrasse 7", "50667 Koeln", "USt-IdNr. DE237484321"}, "HAUPTSTRASSE 7, 50667 KOELN"},
	} {
		loc := receipt.DefaultLocale(receipt.CountryEU)
		loc.Pack = tc.pack
		r := ExtractFields(lines(append(tc.ls, "TOTAL 10,00")...), loc, testNow)
		if r.SupplierAddress.Value != tc.want {
			t.Errorf("%s %q: address %q, want %q", tc.pack, tc.ls[1], r.SupplierAddress.Value, tc.want)
		}
	}
}

// An item table headed in the page's language, its amount column named
// with the total's word ("BEDRAG"), is read: quantity, name, price and
// amount per line, adding up to the total.
func TestItemTableHeadedInThePagesLanguage(t *testing.T) {
	for _, tc := range []struct {
		pack   string
		header string
		items  []string
		total  string
	}{
		{"NL", "AANTAL OMSCHRIJVING PRIJS BEDRAG", []string{"1 HALFVOLLE MELK 25,93 25,93", "5 BATTERIJEN AA 28,78 143,90", "1 SCHROEVEN 50ST 8,50 8,50"}, "TOTAALBEDRAG 178,33"},
		{"IT", "Q.TA DESCRIZIONE PREZZO IMPORTO", []string{"3 CARTA A4 30,64 91,92", "1 LATTE 24,17 24,17"}, "TOTALE EUR 116,09"},
	} {
		loc := receipt.DefaultLocale(receipt.CountryEU)
		loc.Pack = tc.pack
		ls := append([]string{"ACME B.V.", "Datum: 11-11-24", tc.header}, tc.items...)
		r := ExtractFields(lines(append(ls, tc.total)...), loc, testNow)
		if len(r.LineItems) != len(tc.items) {
			t.Errorf("%s: %d items, want %d", tc.pack, len(r.LineItems), len(tc.items))
			continue
		}
		if q := r.LineItems[1].Quantity.Value.String(); tc.pack == "NL" && q != "5" {
			t.Errorf("%s: second item's quantity %s, want 5", tc.pack, q)
		}
	}
}

// Where the items' amounts add up to the total, a price column that
// disagrees with an amount was misread (an item code glued to it): the
// unit price is the amount over the quantity, computed, and no finding
// holds the receipt back.
func TestAMisreadPriceOfItemsThatAddUp(t *testing.T) {
	r := ExtractFields(lines("ACME SDN BHD", "14/06/2017 08:34", "Qty Code&Desc Price Total", "ALPHA LIPID LIFE LINE", "1 184810 165.00 165.00", "Total: 165.00"), receipt.DefaultLocale(receipt.CountryMY), testNow)
	if len(r.LineItems) != 1 {
		t.Fatalf("%d items, want 1", len(r.LineItems))
	}
	if p := r.LineItems[0].UnitPrice; p.Value.String() != "165" || p.Confidence > 0.5 {
		t.Errorf("unit price %s at %.2f, want 165 computed", p.Value, p.Confidence)
	}
	for _, f := range receipt.Validate(r, receipt.DefaultLocale(receipt.CountryMY), testNow) {
		if f.Code == receipt.FindLinesVsSubtotal {
			t.Errorf("finding: %s", f.Message)
		}
	}
}

// A tax ID after any language's tax ID label is read in whatever groups
// and dots it is printed, its country's prefix before it or its page's
// country's own; a prefix letter read as a digit ("1E") is put back where
// the format and check then hold. A tax word alone ("TVA") labels only a
// number with its country's prefix: a VAT table's rates and amounts are
// no tax ID.
func TestTaxIDAfterAnyLanguagesLabel(t *testing.T) {
	for _, tc := range []struct {
		pack, line, want string
	}{
		{"AT", "UID: ATU13585627", "EU_VAT:ATU13585627"},
		{"PT", "Contribuinte n.º 526919272", "EU_VAT:PT526919272"},
		{"BE", "TVA BE 0196.075.206", "EU_VAT:BE0196075206"},
		{"BE", "BTW BE 0196 075 206", "EU_VAT:BE0196075206"},
		{"IE", "VAT No. 1E9733623F", "EU_VAT:IE9733623F"},
		{"IT", "IVA 22 123,45 27,16", ""},
		{"FR", "TVA 20% 1.595,05 334,96", ""},
		{"BE", "TVA BE 0196.075.207", ""},                   // its check fails
		{"IE", "VAT No. IE2123138]", "EU_VAT:IE2123138J"},   // its check letter read as a bracket
		{"ES", "C.1.F. B93421923", "EU_VAT:ESB93421923"},    // its I read as 1
		{"BE", "BTWBE 0813.107.943", "EU_VAT:BE0813107943"}, // the prefix glued to the tax word
		// A business number is a VAT number with the register's word
		// after it; a tax word after another number leaves that number.
		{"NO", "Org.nr. 923 609 016 MVA", "NO_VAT:NO923609016MVA"},
		{"NO", "Org.nr. 923 609 016", ""},
		{"NO", "0rg.nr. 923 609 016 MVA", "NO_VAT:NO923609016MVA"}, // its O read as a zero
		{"CH", "MWST-Nr. CHE-116.281.710 MWST", "CH_VAT:CHE116281710MWST"},
		{"DK", "CVR-nr. 13585601", "EU_VAT:DK13585601"},
		{"ES", "CIF: B93421923 IVA incluido", "EU_VAT:ESB93421923"},
	} {
		loc := receipt.DefaultLocale(receipt.CountryEU)
		loc.Pack = tc.pack
		r := ExtractFields(lines("ACME", "Hauptplatz 1", "1010 Wien", tc.line, "TOTAL 10,00"), loc, testNow)
		if got, _ := receipt.Get(&r, "supplier_tax_id"); got != tc.want {
			t.Errorf("%s page, %q: tax ID %q, want %q", tc.pack, tc.line, got, tc.want)
		}
		if strings.Contains(r.SupplierAddress.Value, "1010 WIEN,") {
			t.Errorf("%s page, %q: the address took the tax ID's line: %q", tc.pack, tc.line, r.SupplierAddress.Value)
		}
	}
}

// A town's name misread after its postcode is the one town of the
// country's table whose postcodes hold it and whose name is a letter or
// two away; a postcode of another town, or a name far off, leaves it.
func TestTownNameMendedFromItsPostcode(t *testing.T) {
	de, my := lexiconIn("DE"), myLexicon()
	for _, tc := range []struct {
		lx       *lexicon
		in, want string
	}{
		{de, "GARTENWEG 48, 90402 NIRNBERG", "GARTENWEG 48, 90402 NÜRNBERG"},
		{de, "HAUPTSTRASSE 5, 10115 BERIN", "HAUPTSTRASSE 5, 10115 BERLIN"},
		{de, "HAUPTSTRASSE 5, 50667 BERIN", "HAUPTSTRASSE 5, 50667 BERIN"}, // Köln's postcode
		{de, "HAUPTSTRASSE 5, 10115 BREMERHAVEN", "HAUPTSTRASSE 5, 10115 BREMERHAVEN"},
		{de, "SCHULSTRASSE 85, 50667 KOLN", "SCHULSTRASSE 85, 50667 KOLN"}, // Köln as read without its marks
		{my, "SEKSYEN 9, 40150 SHAH ALAN, SELANGOR", "SEKSYEN 9, 40150 SHAH ALAM, SELANGOR"},
		{my, "JALAN BESAR, 40150 SHAH ALAM", "JALAN BESAR, 40150 SHAH ALAM"},
	} {
		if got := tc.lx.mendTownPostcode(tc.in); got != tc.want {
			t.Errorf("%q mended to %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A postcode of the country's shape is read back where a letter was read
// for a digit of like shape or the other way, its groups spaced as the
// country prints them; a code that fits as read, or an address of another
// shape, stays.
func TestPostcodeReadToItsCountrysShape(t *testing.T) {
	ca, nl := lexiconIn("CA"), lexiconIn("NL")
	for _, tc := range []struct {
		lx       *lexicon
		in, want string
	}{
		{ca, "106 KING ST E, TORONTO ON MSH 2N2", "106 KING ST E, TORONTO ON M5H 2N2"},
		{ca, "41 QUEEN ST W, OTTAWA ON K1P 1]1", "41 QUEEN ST W, OTTAWA ON K1P 1J1"},
		{ca, "BANK ST, OTTAWA ON K1P 1 J1", "BANK ST, OTTAWA ON K1P 1J1"},
		{ca, "3 QUEEN ST W, OTTAWA ON K1P1J1", "3 QUEEN ST W, OTTAWA ON K1P 1J1"},
		{ca, "3 QUEEN ST W, OTTAWA ON K1P 1J1", "3 QUEEN ST W, OTTAWA ON K1P 1J1"},
		{ca, "SUITE 100, 3 QUEEN ST W", "SUITE 100, 3 QUEEN ST W"},
		{nl, "MOLENWEG 49, 3511 LX UTRECHT", "MOLENWEG 49, 3511 LX UTRECHT"},
		{nl, "MOLENWEG 49, 35I1 LX UTRECHT", "MOLENWEG 49, 3511 LX UTRECHT"},
		{lexiconIn("DE"), "HAUPTSTRASSE 5, 5O667 KOELN", "HAUPTSTRASSE 5, 5O667 KOELN"}, // no shape: the town's range mends it
	} {
		if got := tc.lx.mendPostcodeShape(tc.in); got != tc.want {
			t.Errorf("%q read %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Shop lots listed with commas ("NO 24,25 &26,") open the address: the
// premises' word before them says they are no amount, as an amount ends
// an address ("TEL 03-1234 5678 TOTAL 24,25" would).
func TestAnAddressOpeningWithLotsThatReadLikeAnAmount(t *testing.T) {
	r := ExtractFields(lines("PASAR RAYA MEGA MAJU", "(SEMENYIH) SDN BHD", "(767840-W)", "NO 24,25 &26,",
		"JALAN PUSAT PERNIAGAAN BUNGA RAYA 4", "PUSAT PERNIAGAAN BUNGA RAYA", "TEL: FAX:", "Date : 03/07/2018", "Total : 30.45"),
		receipt.DefaultLocale(receipt.CountryMY), testNow)
	if want := "NO 24,25 &26, JALAN PUSAT PERNIAGAAN BUNGA RAYA 4, PUSAT PERNIAGAAN BUNGA RAYA"; !strings.HasPrefix(r.SupplierAddress.Value, want) {
		t.Errorf("address %q, want %q", r.SupplierAddress.Value, want)
	}
	for _, page := range [][]Line{
		lines("KEDAI MAJU", "JALAN BUNGA RAYA 4", "24,25 CASH"),
		lines("KEDAI MAJU SDN BHD", "NO 12, JALAN BUNGA", "43000 KAJANG", "NO 1234 12.50"), // further down, a till's line
	} {
		r := ExtractFields(page, receipt.DefaultLocale(receipt.CountryMY), testNow)
		if strings.Contains(r.SupplierAddress.Value, "CASH") || strings.Contains(r.SupplierAddress.Value, "12.50") {
			t.Errorf("address %q runs into an amount's line", r.SupplierAddress.Value)
		}
	}
}

// A card slip's codes under its merchant are no address; a glued address
// line, more letters than digits, is one.
func TestACardSlipsCodeIsNoAddress(t *testing.T) {
	r := ExtractFields(boxedLines("CARTE BANCAIRE\nMastercard\nLE 23/08/22 A 12:52:23\nA. MIAM MIAM\nPARIS\n75003\n6021195 83833640200022\n30066\n############65 28\nCC1829E4CEC39967\nNO AUT0:144309\nMONTANT :\n14,50 EUR"),
		receipt.DefaultLocale(receipt.CountryEU), testNow)
	if strings.Contains(r.SupplierAddress.Value, "CC1829") {
		t.Errorf("address %q", r.SupplierAddress.Value)
	}
	// The masked card number as Tesseract read it, its #s as Es.
	r = ExtractFields(boxedLines("CARTE BANCAIRE\nMastercard\nLE 23/08/22 A 12:52:23\nA. MIAM MIAM\n«##EEEEEE22¢26528\nCC1829E4CEC39967\nMONTANT :\n14,50 EUR"),
		receipt.DefaultLocale(receipt.CountryEU), testNow)
	if strings.Contains(r.SupplierAddress.Value, "EEEE") {
		t.Errorf("address %q", r.SupplierAddress.Value)
	}
	// A Bulgarian shop's ЕИК with its label misread.
	r = ExtractFields(boxedLines("КАФЕ ИВАНОВ АД\nбул. Цар Освободител 16\n1000 София\nБИК: 941198395\n15.02.2025 14:22\nОБЩА СУМА 13.28 лв"),
		receipt.DefaultLocale(receipt.CountryEU), testNow)
	if a := r.SupplierAddress.Value; a == "" || strings.Contains(a, "941198395") {
		t.Errorf("address %q", a)
	}
	for u, want := range map[string]bool{
		"БИК: 941198395": true, "EWK 105102393": true, "ЕИК 131129282": true, "TEL 0312345678": true,
		"JALAN 12": false, "NO 12345": false, "POSTFACH 12345678": false, "UL. 12345678A": false, "1000 СОФИЯ": false,
	} {
		if isLabelledCode(u) != want {
			t.Errorf("isLabelledCode(%q) = %v", u, !want)
		}
	}
	for u, want := range map[string]bool{"############6528": true, "**** **** **** 1234": true, "XXXXXXXXXXXX1234": true, "KARTE XXXX1234": true, "**** DANKE ****": false, "1000 WIEN": false, "WWW.BAR.AT 1": false} {
		if isMaskedNumber(u) != want {
			t.Errorf("isMaskedNumber(%q) = %v", u, !want)
		}
	}
	for u, want := range map[string]bool{"CC1829E4CEC39967": true, "A0000000041010": true, "47400PETALINGJAYA": false, "NO 12, JALAN 1/23": false, "LOT1851-A&1851B,JALANKPB6,": false, "112015THST": false, "1683R0UTE9": false} {
		if isCodeLine(u) != want {
			t.Errorf("isCodeLine(%q) = %v", u, !want)
		}
	}
}
