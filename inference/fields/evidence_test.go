package fields

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// boxedLines are text lines laid out as a page reader gives them: one box
// per line, one under another.
func boxedLines(text string) []Line {
	ls := LinesFromText(text)
	for i := range ls {
		ls[i].Box = receipt.Box{X: 10, Y: 30 * i, W: 400, H: 20}
		ls[i].Conf = 0.9
	}
	return ls
}

func kinds(s []receipt.Support) string {
	var out []string
	for _, x := range s {
		out = append(out, string(x.Kind))
	}
	return strings.Join(out, ",")
}

var my = receipt.DefaultLocale(receipt.CountryMY)

func TestAssessTotalEvidence(t *testing.T) {
	for _, tc := range []struct {
		name, page string
		again      string // the total's line read again alone; "" none
		trusted    bool
		kinds      string // the supports expected, in order; "" any
		doubt      string // a part of the doubt expected; "" none
	}{
		{"subtotal and tax add up", "SUBTOTAL 20.00\nSST 6% 1.20\nTOTAL 21.20", "", true, "reading,arithmetic", ""},
		{"cash less change", "TOTAL 21.20\nCASH 50.00\nCHANGE 28.80", "", true, "reading,arithmetic", ""},
		{"printed twice", "TOTAL 21.20\nVISA 21.20", "", true, "reading,printed_twice", ""},
		{"read again alone, the same", "TOTAL 21.20", "TOTAL 21.20", true, "reading,second_reader", ""},
		{"read once", "TOTAL 21.20", "", false, "reading", ""},
		{"read again alone, another amount: no support", "TOTAL 21.20", "TOTAL 27.20", false, "reading", ""},
		{"change that does not add up", "TOTAL 21.20\nCASH 50.00\nCHANGE 10.80", "", false, "", "paid 50.00 less change 10.80 = 39.20"},
		// The cash-rounded total is no amount handed over: the last
		// payment line above the change is.
		{"cash total, then cash tendered", "Total 41.71\nCash Rounding -0.01\nCash Total $41.70\nCash Tendered $50.00\nChange Due $8.30", "", true, "reading,arithmetic", ""},
		// A split payment: each part, less the change.
		{"paid in two parts", "TOTAL 293.60\nVISA 190.00\nCASH 110.00\nCHANGE 6.40", "", true, "reading,arithmetic", ""},
		// The till's count of items beside the amount due.
		{"an item count on the total's line", "15 ITEMS BALANCE DUE 51.64\nDEBIT MASTERCARD 51.64", "", true, "reading,printed_twice", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := boxedLines(tc.page)
			r := ExtractFields(lines, my, testNow)
			var looks []Reading
			if tc.again != "" {
				looks = append(looks, Reading{Name: "the total's line read again alone", Lines: LinesFromText(tc.again), Of: "total"})
			}
			Assess(&r, lines, my, testNow, looks...)
			ok, why := receipt.Trusted(r.Total, "total")
			if ok != tc.trusted {
				t.Errorf("trusted %v (%s), want %v; supports %s", ok, why, tc.trusted, kinds(r.Total.Support))
			}
			if tc.kinds != "" && kinds(r.Total.Support) != tc.kinds {
				t.Errorf("supports %s, want %s", kinds(r.Total.Support), tc.kinds)
			}
			if !strings.Contains(r.Total.Doubt, tc.doubt) || tc.doubt == "" && r.Total.Doubt != "" {
				t.Errorf("doubt %q, want %q", r.Total.Doubt, tc.doubt)
			}
		})
	}
}

// TestAssessTotalAgainstThePage gives the total as a reader might have got
// it wrong, and checks the page's other lines speak against it.
func TestAssessTotalAgainstThePage(t *testing.T) {
	for _, tc := range []struct {
		name, page string
		total      string // the value read
		at         int    // its line
		doubt      string
	}{
		// SROIE-like: 26.60 read 16.60; the arithmetic knows better.
		{"a misread digit the arithmetic catches", "SUBTOTAL 25.09\nGST 6% 1.51\nTOTAL 16.60", "16.60", 2, "subtotal 25.09 + tax 1.51 = 26.60"},
		{"another total, larger", "TOTAL : 91.00\nROUNDING ADJUSTMENT 0.00\nROUNDED TOTAL (RM): 9.60", "9.60", 2, "another total on the page: 91.00"},
		{"a count taken for the total", "1 PC KIDDY FISH 15.00\nTOTAL QTY 1.00", "1.00", 1, "its line counts items"},
		{"a rounding receipt with an unrounded total", "TOTAL 23.26\nROUNDING -0.01", "23.26", 0, "not rounded"},
		// The net of a tax line, printed again there with its tax beside it.
		{"the amount before tax", "Sub Total RM 68.87\nSR @ 6% 68. 87 4.13\nCASH 100.00", "68.87", 0, "68.87 is the amount before tax on the line \"SR @ 6% 68. 87 4.13\": with its tax 4.13 the total is 73.00"},
		// A photo cut off below the subtotal: its items add up to the
		// subtotal, which says nothing of the tax or tip below.
		{"the subtotal taken for the total", "BURGER 21.00\nFRIES 12.00\nSubtotal 33.00", "33.00", 2, "no total line read: the subtotal was taken for the total"},
		// A tax line that says "Total": its amount is the rate's tax of another.
		{"the tax included in the total", "CASH 7.50\n(Total Included GST @ 6% : 0.42)", "0.42", 1, "0.42 is the 6% tax of 7.50"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := boxedLines(tc.page)
			r := ExtractFields(lines, my, testNow)
			b := lines[tc.at].Box
			r.Total = receipt.Amount{Value: decimal.RequireFromString(tc.total), Set: true, Source: receipt.SourceOCR, Box: &b}
			Assess(&r, lines, my, testNow)
			if ok, _ := receipt.Trusted(r.Total, "total"); ok {
				t.Errorf("trusted with %s", kinds(r.Total.Support))
			}
			if !strings.Contains(r.Total.Doubt, tc.doubt) {
				t.Errorf("doubt %q, want %q", r.Total.Doubt, tc.doubt)
			}
			if r.Total.Confidence > 0.7 {
				t.Errorf("confidence %.2f for a doubted total", r.Total.Confidence)
			}
		})
	}
}

func TestAssessDateEvidence(t *testing.T) {
	for _, tc := range []struct {
		name, page string
		again      string
		want       string // the date read, yyyy-mm-dd
		trusted    bool
		doubt      string
	}{
		{"printed twice", "DATE: 06/01/2018\nSOLD 06/01/2018 10:05", "", "2018-01-06", true, ""},
		{"read again alone, the same", "DATE: 06/01/2018 10:05", "DATE: 06/01/2018", "2018-01-06", true, ""},
		{"read once", "DATE: 06/01/2018 10:05", "", "2018-01-06", false, ""},
		{"read again alone, another date", "DATE: 06/01/2018 10:05", "DATE: 08/01/2018", "2018-01-06", false, "gives 8 Jan 2018"},
		{"another issue date on the page", "DATE: 06/01/2018\nPRINTED 07/01/2018", "DATE: 06/01/2018", "2018-01-06", false, "another date on the page: 7 Jan 2018"},
		{"an expiry date is no rival", "DATE: 06/01/2018\nEXPIRY 07/01/2018", "DATE: 06/01/2018", "2018-01-06", true, ""},
		// A return-by date whose words end the line above it.
		{"a return-by date under its words", "DATE: 06/01/2018 10:05\nNon-food items can be returned by\n03/02/2018 with this receipt.", "DATE: 06/01/2018", "2018-01-06", true, ""},
		// The same date again, its year cut to the century by the reader.
		{"the year cut to its century", "Date: 25/10/2017\nDD: 25/10/20:7 11:43", "Date: 25/10/2017", "2017-10-25", true, ""},
		{"a return-by date on its line", "DATE: 06/01/2018 10:05\nRETURNS ACCEPTED THRU 03/02/2018", "DATE: 06/01/2018", "2018-01-06", true, ""},
		// The receipt's own date unread: the only date is an offer's end,
		// however many readers agree on it.
		{"only an offer's end", "SALES TAX 2.35\nTOTAL 32.66\nSweepstakes ends 12/31/2017.\nSweepstakes ends 12/31/2017.", "Sweepstakes ends 12/31/2017.", "2017-12-31", false, "prints it as another date"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := boxedLines(tc.page)
			r := ExtractFields(lines, my, testNow)
			if got := r.Date.Value.Format(time.DateOnly); got != tc.want {
				t.Fatalf("date %s, want %s", got, tc.want)
			}
			var looks []Reading
			if tc.again != "" {
				looks = append(looks, Reading{Name: "the date's line read again alone", Lines: LinesFromText(tc.again), Of: "date"})
			}
			Assess(&r, lines, my, testNow, looks...)
			if ok, why := receipt.Trusted(r.Date, "date"); ok != tc.trusted {
				t.Errorf("trusted %v (%s), want %v; supports %s", ok, why, tc.trusted, kinds(r.Date.Support))
			}
			if !strings.Contains(r.Date.Doubt, tc.doubt) || tc.doubt == "" && r.Date.Doubt != "" {
				t.Errorf("doubt %q, want %q", r.Date.Doubt, tc.doubt)
			}
		})
	}
}

// TestTimeBesideDateIsNoDate is SROIE's 067 pattern: a time "12.17.26"
// printed on a line of its own, read as 17 December 2026, beside the real
// date 06/01/18. Whichever the rules take, a date in the future or one
// another date on the page contradicts is not trusted.
func TestTimeBesideDateIsNoDate(t *testing.T) {
	lines := boxedLines("KEDAI RUNCIT SDN BHD\n06/01/18\n12.17.26\nTOTAL 8.70\nCASH 10.00\nCHANGE 1.30")
	now := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	for _, day := range []string{"", "2026-12-17"} {
		r := ExtractFields(lines, my, now)
		if day != "" { // as the old rules read it
			d, _ := time.Parse(time.DateOnly, day)
			b := lines[2].Box
			r.Date = receipt.Field[time.Time]{Value: d, Set: true, Source: receipt.SourceOCR, Box: &b}
		}
		Assess(&r, lines, my, now, Reading{Name: "the date's line read again alone", Lines: LinesFromText(lines[2].Text), Of: "date"})
		ok, why := receipt.Trusted(r.Date, "date")
		if r.Date.Value.Equal(receipt.Date(2026, 12, 17)) && ok {
			t.Errorf("the time read as %s is trusted", r.Date.Value.Format(time.DateOnly))
		}
		if day == "" && !r.Date.Value.Equal(receipt.Date(2018, 1, 6)) {
			t.Errorf("the rules read the date %s, want 2018-01-06 (a future date is no receipt's)", r.Date.Value.Format(time.DateOnly))
		}
		t.Logf("date %s: trusted %v %s", r.Date.Value.Format(time.DateOnly), ok, why)
	}
}

func TestConfidenceFollowsEvidence(t *testing.T) {
	none := calibrated("total", nil, "")
	one := calibrated("total", []receipt.Support{{Kind: receipt.EvidenceReading}}, "")
	same := calibrated("total", []receipt.Support{{Kind: receipt.EvidenceReading}, {Kind: receipt.EvidenceReading}}, "")
	two := calibrated("total", []receipt.Support{{Kind: receipt.EvidenceReading}, {Kind: receipt.EvidenceArithmetic}}, "")
	doubted := calibrated("total", []receipt.Support{{Kind: receipt.EvidenceReading}, {Kind: receipt.EvidenceArithmetic}}, "no")
	if !(none <= one && one == same && one < two && doubted < two) {
		t.Errorf("none %.2f, one %.2f, one twice %.2f, two %.2f, doubted %.2f", none, one, same, two, doubted)
	}
	for _, row := range calibration {
		for _, c := range row {
			if c <= 0 || c >= 1 {
				t.Errorf("calibrated confidence %v outside (0, 1)", c)
			}
		}
	}
}

func TestAssessTaxEvidence(t *testing.T) {
	lines := boxedLines("SUBTOTAL 20.00\nSST 6% 1.20\nTOTAL 21.20\nSST SUMMARY 20.00 1.20")
	r := ExtractFields(lines, my, testNow)
	Assess(&r, lines, my, testNow)
	if got := kinds(r.TotalTax.Support); got != "reading,printed_twice,arithmetic" {
		t.Errorf("tax supports %s, want reading,printed_twice,arithmetic", got)
	}
}

// The date's line read again alone that gives another date is a doubt
// where the date was read once, and is outvoted where the other reader's
// page gave the same date.
func TestALineReadAgainIsOutvotedByTwoReaders(t *testing.T) {
	lines := boxedLines("KEDAI RUNCIT SDN BHD\n24/11/2017 12:13 PM\nTOTAL 8.70")
	now := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	again := Reading{Name: "the date's line read again alone", Lines: LinesFromText("24/11/2007 12:13 PM"), Of: "date"}
	page := Reading{Name: "Tesseract's reading of the page", Lines: boxedLines("KEDAI RUNCIT SDN BHD\n24/11/2017 12:13 PM\nTOTAL 8.70")}

	r := ExtractFields(lines, my, now)
	Assess(&r, lines, my, now, again)
	if r.Date.Doubt == "" {
		t.Error("read once, the line read again otherwise: no doubt")
	}
	r = ExtractFields(lines, my, now)
	Assess(&r, lines, my, now, page, again)
	if ok, why := receipt.Trusted(r.Date, "date"); !ok {
		t.Errorf("two readers agree, the line alone disagrees: %s", why)
	}
}

// A name the page does not print again whole is backed word by word: each
// word that is no trade word printed again elsewhere, in an item, a
// footer's words run together, or a web address; one word printed nowhere
// else leaves its letters read once.
func TestSupplierWordsPrintedAgain(t *testing.T) {
	us := receipt.DefaultLocale(receipt.CountryUS)
	head := "Crisfield Seafood Restaurant\n8012 Georgia Ave.\nSilver Spring, MD 20910\n08/14/2017 12:31 PM\n"
	tail := "\nSubtotal 27.00\nTax 1.62\nTotal 28.62\nThank you!"
	for _, tt := range []struct {
		name, body string
		backed     bool
	}{
		{"an item names the place", "1 Crisfield Special Platter 27.00", true},
		{"a footer runs it together", "1 Platter 27.00\nThank you for dining at Cris field", true},
		{"its web address", "1 Platter 27.00\nwww.crisfieldrestaurant.com", true},
		{"printed once", "1 Special Platter 27.00", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lines := boxedLines(head + tt.body + tail)
			for i := range lines {
				lines[i].Cells = nil // read off an image, not a PDF's text layer
			}
			r := ExtractFields(lines, us, testNow)
			Assess(&r, lines, us, testNow)
			if r.SupplierName.Value != "CRISFIELD SEAFOOD RESTAURANT" {
				t.Fatalf("supplier %q", r.SupplierName.Value)
			}
			if got := receipt.LettersBacked(r.SupplierName.Support); got != tt.backed {
				t.Errorf("letters backed %v, want %v: %+v", got, tt.backed, r.SupplierName.Support)
			}
		})
	}
}

// A heading printed again inside the address is the building's name (a
// mall, a business park), maybe not the business's: the name is in doubt,
// and its printing in the address backs none of its letters.
func TestANamePrintedInItsAddressIsInDoubt(t *testing.T) {
	my := receipt.DefaultLocale(receipt.CountryMY)
	for heading, address := range map[string]string{
		"PUSAT DAGANGAN PHILEO DAMANSARA":  "UNIT 105, BLOCK A,PUSAT DAGANGAN PHILEO DAMANSARA",
		"PUSAT DAGANGAN PHILEO DAMANSARA ": "UNIT 105, BLOCK A,PUSAT DAGANGAN PHI LEO DAMANSARA", // a word split apart
	} {
		ls := lines(heading, address, "NO. 9, JALAN 16/11,46350,PETALING JAYA,SELANGOR",
			"TEL 1800 88 1231", "QTY PRICE DISC AMT", "GP GREENCELL AAA", "1 6.00 0.00 6.00 SR", "GRAND TOTAL 6.00", "28/06/2018 3:11:35 PM")
		r := ExtractFields(ls, my, testNow)
		Assess(&r, ls, my, testNow)
		if r.SupplierName.Value != strings.TrimSpace(heading) {
			t.Fatalf("the name read is %q", r.SupplierName.Value)
		}
		if ok, why := receipt.SupplierTrusted(r.SupplierName); ok || !strings.Contains(why, "address") {
			t.Errorf("%s: a building's name in the address trusted (%v): %s", heading, ok, why)
		}
		if receipt.LettersBacked(r.SupplierName.Support) {
			t.Errorf("%s: the address's printing backs the name: %+v", heading, r.SupplierName.Support)
		}
	}
}

// Tesseract may misread the label ("Bends 12/31/2017"): what PP-OCR's
// page prints labelled as an offer's end is no sale's date.
func TestPrintedAsAnotherDate(t *testing.T) {
	us := receipt.DefaultLocale(receipt.CountryUS)
	end := receipt.Date(2017, 12, 31)
	for page, want := range map[string]bool{
		"5/25/2017 1:00:17 PM\nTOTAL 32.66\nSweepstakes ends 12/31/2017.": true,
		"12/31/2017 1:00:17 PM\nTOTAL 32.66\nOffer ends 12/31/2017.":      false, // the sale's date too
		"5/25/2017\nTOTAL 32.66\nBends 12/31/2017.":                       false,
		"5/25/2017\nTOTAL 32.66":                                          false,
	} {
		if got := PrintedAsAnotherDate(LinesFromText(page), us, testNow, end); got != want {
			t.Errorf("%q: %v, want %v", page, got, want)
		}
	}
}

// A subtotal taken for the total stands where the page shows it paid, or
// where it is the sum of a net and its tax above it.
func TestASubtotalPaidOrTaxedIsTheTotal(t *testing.T) {
	for _, page := range []string{
		"BURGER 21.00\nFRIES 12.00\nSubtotal 33.00\nVISA 33.00",
		"BURGER 21.00\nFRIES 12.00\nSubtotal 33.00\nCASH 50.00\nCHANGE 17.00",
		"Amount: $25.34\nTax Rate:(9.00%): $2.28\nSub-Total: $27.62",
		"SALTED F.RICE 8.50\nNASI LEMAK 20.20\nSUBTOTAL 28.70\nRM CASH 100.000\nINC 6% GST 1.62",
	} {
		lines := boxedLines(page)
		loc := receipt.DefaultLocale(receipt.CountryUS)
		if strings.Contains(page, "RM") {
			loc = my
		}
		r := ExtractFields(lines, loc, testNow)
		Assess(&r, lines, loc, testNow)
		if !r.Total.Set || strings.Contains(r.Total.Doubt, "subtotal was taken") {
			t.Errorf("%q: total %s, doubt %q", page, r.Total.Value, r.Total.Doubt)
		}
	}
}

// A photo that cut off the receipt's first line leaves a name that is only
// what the business is ("TAVERN" under "GENERAL POOR'S"), or a detail of
// the sale read as the name ("Bar Tab: Bar Tab"): in doubt, whoever reads
// it. A full name, or a registered one of trade words, is not.
func TestANameCutOffAboveIsInDoubt(t *testing.T) {
	us := receipt.DefaultLocale(receipt.CountryUS)
	for heading, doubted := range map[string]bool{
		"TAVERN":                      true,
		"JAPANESE":                    true,
		"MIKUNI JAPANESE":             false,
		"Bar Tab: Bar Tab":            true,
		"GENERAL POOR'S TAVERN":       false,
		"STATION GARDEN SUPPLIES LLC": false,
	} {
		ls := lines(heading, "45 MAIN STREET", "HACKENSACK, NJ 07601", "Date:04/10/16 Time:12:30pm", "40 BONELESS WINGS $10.00", "Subtotal $10.00", "Tax $0.66", "Total $10.66")
		r := ExtractFields(ls, us, testNow)
		Assess(&r, ls, us, testNow)
		if !strings.EqualFold(r.SupplierName.Value, heading) {
			t.Fatalf("the name read is %q, want %q", r.SupplierName.Value, heading)
		}
		if got := strings.Contains(r.SupplierName.Doubt, "only what the business is") || strings.Contains(r.SupplierName.Doubt, "a label and its value"); got != doubted {
			t.Errorf("%q: doubt %q", heading, r.SupplierName.Doubt)
		}
	}
}

// A deposit given back ("LEEGGOED TERUG -3,90") says TERUG as change does,
// but comes before any payment: the change is the line after the cash.
func TestARefundBeforeThePaymentIsNoChange(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	lines := boxedLines("GROENVELD SUPERMARKT\n11-06-2024 10:12\nMELK 1,19\nLEEGGOED TERUG -3,90\nTOTAAL 50,10\nCash 100,00\nTerug 49,90")
	r := ExtractFields(lines, eu, testNow)
	Assess(&r, lines, eu, testNow)
	if r.Total.Value.StringFixed(2) != "50.10" || strings.Contains(r.Total.Doubt, "change") {
		t.Errorf("total %s, doubt %q", r.Total.Value, r.Total.Doubt)
	}
}

// A total printed before a discount is no rival to the amount to pay
// after it: the discount makes one into the other to the cent.
func TestATotalBeforeItsDiscountIsNoRival(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	page := lines("PRESSING DE LA GARE", "12/02/2024 10:15", "1 Veste 11,50", "Total TTC 54,00", "Remise fidelite 10 % -5,40", "NET A PAYER 48,60", "Regle CB 48,60")
	r := ExtractFields(page, eu, testNow)
	Assess(&r, page, eu, testNow)
	if r.Total.Value.String() != "48.6" || strings.Contains(r.Total.Doubt, "another total") {
		t.Errorf("total %s, doubt %q", r.Total.Value, r.Total.Doubt)
	}
	// Without the discount between them, the larger total is a rival.
	page = lines("PRESSING DE LA GARE", "12/02/2024 10:15", "1 Veste 11,50", "Total TTC 54,00", "NET A PAYER 48,60", "Regle CB 48,60")
	r = ExtractFields(page, eu, testNow)
	Assess(&r, page, eu, testNow)
	if !strings.Contains(r.Total.Doubt, "another total") {
		t.Errorf("total %s, doubt %q", r.Total.Value, r.Total.Doubt)
	}
}

// A split payment with nothing back confirms the total its parts make,
// and not the card's part of it (a second reading took "Betrag EUR 32,18",
// the card slip's amount, for the total).
func TestPartsPaidWithNothingBackConfirmTheTotal(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	page := lines("FRISCHEKAUF", "14.03.2025 16:02", "Semmel 0,45", "ZU ZAHLEN EUR 52,18", "Bar 20,00", "Bankomat 32,18", "Rückgeld 0,00",
		"Bankomat Kartenzahlung", "Betrag EUR 32,18")
	r := ExtractFields(page, eu, testNow)
	Assess(&r, page, eu, testNow)
	if r.Total.Value.String() != "52.18" || !receipt.HasSupport(r.Total.Support, receipt.EvidenceArithmetic) {
		t.Errorf("total %s, support %s", r.Total.Value, kinds(r.Total.Support))
	}
	// No change line read: the parts still make the total.
	uk := receipt.DefaultLocale(receipt.CountryUK)
	noChange := lines("FRESHWAYS", "15/06/2024 10:12", "COLA 2L 1.99", "20 BALANCE DUE 37.51", "CASH 20.00", "VISA DEBIT CONTACTLESS 17.51", "CHANGE DUE O.00")
	r = ExtractFields(noChange, uk, testNow)
	Assess(&r, noChange, uk, testNow)
	if r.Total.Value.String() != "37.51" || !receipt.HasSupport(r.Total.Support, receipt.EvidenceArithmetic) {
		t.Errorf("no change line: total %s, support %s", r.Total.Value, kinds(r.Total.Support))
	}
	r = ExtractFields(page, eu, testNow)
	r.Total.Value = decimal.RequireFromString("32.18")
	Assess(&r, page, eu, testNow)
	if receipt.HasSupport(r.Total.Support, receipt.EvidenceArithmetic) {
		t.Errorf("the card's part has %s", kinds(r.Total.Support))
	}
}

// An optician's invoice with the insurers' parts taken off: the page's
// gross total (679,00) is not what the patient paid (RESTE À CHARGE
// 258,91, paid by card), and the reading is left to the reviewer.
func TestTheInvoicesGrossTotalIsDoubtedBesideTheRestToPay(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	page := lines("OPTIQUE DU PARC", "8 place Graslin - 44000 NANTES", "SARL VISION CLAIRE", "TVA FR39882163405", "FACTURE N° F2024-0412", "Date : 07/03/2024",
		"Monture LUNA 5231 189,00", "Verre OD progressif 245,00", "Verre OG progressif 245,00", "TOTAL TTC 679,00 €", "dont TVA 20 % 113,17 €", "Total HT 565,83 €",
		"Part AMO Sécurité sociale (60 %) -0,09 €", "Part AMC Mutuelle (tiers payant) -420,00 €", "RESTE À CHARGE", "258,91 €", "Réglé par CB le 07/03/2024 258,91 €")
	r := ExtractFields(page, eu, testNow)
	Assess(&r, page, eu, testNow)
	if r.Total.Value.String() != "258.91" && r.Total.Doubt == "" {
		t.Errorf("total %s (%s) taken without a doubt", r.Total.Value, r.Total.Why)
	}
}

// TestEuropeanTillSums: the sums of European tills, whose prices hold the
// tax and whose tables restate it below the total.
func TestEuropeanTillSums(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	for _, tc := range []struct {
		name, page, total, support string
	}{
		// The VAT printed below the total, in words no pack marks as
		// included: the subtotal and the rounding make the total.
		{
			"tax printed below the total", "HAVGUS FISK\nVesterbrogade 94, 1620 København V\nLørdag 06-09-2025 10:22\nTorskeryg 126,58\nLaksefilet 325,85\nSUBTOTAL 452,43\nAfrunding 0,07\nI ALT 452,50\nKontant 500,00\nRetur 47,50\nMoms 25% udgør 90,49\nMomsgrundlag 361,94",
			"452.50", "subtotal 452.43 + rounding 0.07 = 452.50, the tax included",
		},
		// The tax as a VAT table's rows, all below the total.
		{
			"a VAT table below the total", "NEWSAGENT & DELI\n12 Shop Street, Galway\n14/03/2025 07:58\nIRISH TIMES 3.30 C\nTEA LARGE 7.90 B\nCADBURY 3.19 A\nSUBTOTAL 14.39\nCASH ROUNDING 0.01\nTOTAL 14.40\nCASH 20.00\nCHANGE 5.60\nVAT NET VAT GROSS\nA 23% 2.59 0.60 3.19\nB 13.5% 6.96 0.94 7.90\nC 9% 3.03 0.27 3.30",
			"14.40", "subtotal 14.39 + rounding 0.01 = 14.40, the tax included",
		},
		// An invoice's net and tax from its VAT table replace the
		// subtotal, whose discount they hold already.
		{
			"a discount inside the VAT table's net", "PUTZEREI EDELWEISS\nRECHNUNG / BELEG Nr. 25-004471\nAbholung: Fr 07.11.2025 17:36\n1 x Sakko 9,90 A\n1 x Wintermantel 58,40 A\nZwischensumme 68,30\nStammkundenrabatt 10% -6,83 A\nGESAMT EUR 61,47\nBar 70,00\nRückgeld 8,53\nSteuer Satz Netto Steuer Brutto\nA 20% 51,22 10,25 61,47",
			"61.47", "subtotal 51.22 + tax 10.25 = 61.47",
		},
		// Thousands marked by an apostrophe read with spaces round it.
		{
			"apostrophe thousands read apart", "SAITENWERK\nSa 29.03.2025 15:22\nE-Gitarre 1'290.00\nGigbag 152.60\nTotal Verkauf inkl. MWST 1'442.60\nEintausch Akustikgitarre -380.00\nZU BEZAHLEN 1 ' 062.60\nTWINT CHF 1 ’062.60",
			"1062.60", "1062.60 also printed",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := boxedLines(tc.page)
			r := ExtractFields(lines, eu, testNow)
			Assess(&r, lines, eu, testNow)
			if !r.Total.Value.Equal(decimal.RequireFromString(tc.total)) {
				t.Fatalf("total %s, want %s", r.Total.Value, tc.total)
			}
			if r.Total.Doubt != "" {
				t.Errorf("doubt %q, want none", r.Total.Doubt)
			}
			found := false
			for _, s := range r.Total.Support {
				found = found || strings.Contains(s.Why, tc.support)
			}
			if !found {
				t.Errorf("supports %+v, want one saying %q", r.Total.Support, tc.support)
			}
		})
	}
}
