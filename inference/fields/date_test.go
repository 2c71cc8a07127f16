package fields

import (
	"strings"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/receipt"
)

func TestDateShaped(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"BILi BY: 72/01/2017 09:09:16 PM RM", true},
		{"ne?! )| eso. 10:45", true},
		{"Date : 05-06-2015", true},
		{"TARIKH", true},
		{"NO.32 & 33, JALAN SR 1/9, SEKSYEN 9,", false},
		{"Total Amt Payable : 12.00", false},
	} {
		if got := dateShaped(Line{Text: tc.text}); got != tc.want {
			t.Errorf("dateShaped(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	for _, tc := range []struct {
		line Line
		want bool
	}{
		{Line{Text: "Date : 05-06-2015", Conf: 0.95}, true},
		{Line{Text: "ne?! )| eso.", Conf: 0.19}, true},
		{Line{Text: "Total Amt Payable : 12.00", Conf: 0.87}, false},
		{Line{Text: "i |", Conf: 0.1}, false}, // a speck, not a line
	} {
		if got := MayHideDate(tc.line); got != tc.want {
			t.Errorf("MayHideDate(%q at %.2f) = %v, want %v", tc.line.Text, tc.line.Conf, got, tc.want)
		}
	}
}

func TestOneDatePartApart(t *testing.T) {
	d := func(s string) time.Time { v, _ := time.Parse("2006-01-02", s); return v }
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"2018-05-20", "2018-06-20", true},  // a month misread
		{"2025-07-29", "2025-09-07", false}, // day and month: another reading
		{"2018-06-20", "2018-06-20", false}, // the same date
		{"2016-06-20", "2018-06-20", true},  // a year misread
	} {
		if got := OneDatePartApart(d(tc.a), d(tc.b)); got != tc.want {
			t.Errorf("oneDatePartApart(%s, %s) = %v", tc.a, tc.b, got)
		}
	}
}

// A time printed "8:13:39 PM" is 20:13:39, however OCR read the M.
func TestAfternoonTime(t *testing.T) {
	for _, text := range []string{"Date 25/12/2018 8:13:39 PM", "Date 25/12/2018 8:13:39 PH", "Date 25/12/2018 8:13:39 p.m.", "Date 25/12/2018 20:13:39"} {
		d := FindDate(LinesFromText(text), receipt.DefaultLocale(receipt.CountryMY), testNow)
		if d.Clock != "20:13:39" {
			t.Errorf("%q: time %q, want 20:13:39", text, d.Clock)
		}
	}
	if d := FindDate(LinesFromText("Date 25/12/2018 12:05 AM"), receipt.DefaultLocale(receipt.CountryMY), testNow); d.Clock != "00:05" {
		t.Errorf("12:05 AM: time %q, want 00:05", d.Clock)
	}
}

// Dates whose time was read against them, or printed as a till's stamp.
func TestSplitDateDigitsStayApartFromTheTime(t *testing.T) {
	for line, want := range map[string]string{
		"27/03/20 18:30":         "27/03/20 18:30", // a two-digit year and the time
		"27/03/20 1 8":           "27/03/2018",
		"5/25/2 017":             "5/25/2017",
		"5/25/2 0 17 1:00":       "5/25/2017 1:00",
		"5/25/2 017:30":          "5/25/2 017:30",
		"18.05.20 09 50 0000545": "18.05.20 09 50 0000545", // the time's colon lost
		"18.05.20 09.50 0000545": "18.05.20 09.50 0000545", // printed as a dot
		"18.05.20 09.50.":        "18.05.20 09.50.",
		"5/25/2 017.":            "5/25/2017.",
		"QTY 12 3/04/2018":       "QTY 12 3/04/2018",
	} {
		if got := joinSplitDateDigits(line, receipt.DMY); got != want {
			t.Errorf("joinSplitDateDigits(%q) = %q, want %q", line, got, want)
		}
	}
}

// In a month-first country a split first digit joins only into a month.
func TestSplitDayJoinsOnlyIntoAMonthWhereMonthsComeFirst(t *testing.T) {
	us := receipt.DefaultLocale(receipt.CountryUS)
	now := time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)
	for line, want := range map[string]string{
		"Station: 1 6/02/2018 04:18:31 PM": "2018-06-02",
		"Date: 1 2/17/2017 6:29 PM":        "2017-12-17",
	} {
		if d := FindDate(LinesFromText(line), us, now); !d.Set || d.Value.Format("2006-01-02") != want {
			t.Errorf("%q: got %v, want %s", line, d.Value, want)
		}
	}
	if got := joinSplitDateDigits("Station: 1 6/02/2018", receipt.DMY); got != "Station: 16/02/2018" {
		t.Errorf("day first: %q", got)
	}
}

func TestGluedAndStampedDates(t *testing.T) {
	my := receipt.DefaultLocale(receipt.CountryMY)
	now := time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		line, want string
	}{
		{"12Mar201818:19 S", "2018-03-12"},
		{"27/03/201809:15", "2018-03-27"},
		{"Date/Time 20180428/191204", "2018-04-28"},
		{"Invoice # : OR18031202170432", ""}, // a number, no date
		// Digits the reader's spacing split.
		{"27/03/20 18 No : CS-20243", "2018-03-27"},
		{"Date printed 1 8/06/20 1 8 08:18:01", "2018-06-18"},
		{"02/04/18 15 ITEMS", "2018-04-02"}, // a year of 18 and a count, not 1815
	} {
		d := FindDate([]Line{{Text: tc.line, Conf: 0.9}}, my, now)
		got := ""
		if d.Set {
			got = d.Value.Format("2006-01-02")
		}
		if got != tc.want {
			t.Errorf("FindDate(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestTillDatesWithATwoDigitYear(t *testing.T) {
	us := receipt.DefaultLocale(receipt.CountryUS)
	for text, want := range map[string]string{
		"chk 1924 Jun28' 17 05:36P Gst 0": "2017-06-28",
		"Oct01'17 01:44PM":                "2017-10-01",
		"Aug08 19 07:33PM":                "2019-08-08",
		"Aug23' 19 12:07PM":               "2019-08-23",
		"Ju116'17 08:15PM":                "2017-07-16",
	} {
		d := FindDate(lines("ACME DINER", text, "TOTAL 9.00"), us, testNow)
		if got := d.Value.Format("2006-01-02"); !d.Set || got != want {
			t.Errorf("%q: %s (set %v), want %s", text, got, d.Set, want)
		}
	}
}

// A month's name with its O read as a zero, its L as a one.
func TestAMonthsNameWithADigitForALetter(t *testing.T) {
	for _, tc := range []struct {
		country    receipt.Country
		text, want string
	}{
		{receipt.CountryNZ, "Sun 12 0ct 2025 2 2:14 pm Reg 1", "2025-10-12"},
		{receipt.CountryUS, "N0v 3, 2024 6:02 PM", "2024-11-03"},
		{receipt.CountryUK, "Ju1y 21, 2024", "2024-07-21"},
		{receipt.CountryUK, "Table 12 A1B 2025", ""},
	} {
		d := FindDate(lines("ACME GARDENS", tc.text, "TOTAL 9.00"), receipt.DefaultLocale(tc.country), testNow)
		if got := d.Value.Format("2006-01-02"); d.Set != (tc.want != "") || d.Set && got != tc.want {
			t.Errorf("%q: %s (set %v), want %q", tc.text, got, d.Set, tc.want)
		}
	}
}

// A date a promotion ends on, or a till's software version, is no rival
// to the sale's date.
func TestAPromotionsEndIsNoRivalDate(t *testing.T) {
	us := receipt.DefaultLocale(receipt.CountryUS)
	now := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, text := range []string{
		"FIVE STAR BURGERS\n5/25/2017 1:00:17 PM\nTotal 12.50\nSweepstakes ends 12/31/2017.",
		"FIVE STAR BURGERS\nVente 5/25/2017 12:27:43\nTotal 12.50\nVersion 3.13.14",
	} {
		lines := LinesFromText(text)
		r := ExtractFields(lines, us, now)
		Assess(&r, lines, us, now)
		if r.Date.Value.Format("2006-01-02") != "2017-05-25" || strings.HasPrefix(r.Date.Doubt, "another date") {
			t.Errorf("%q: date %v, doubt %q", text, r.Date.Value, r.Date.Doubt)
		}
	}
}

// A month's name, the comma after its day read as a dot or a colon.
func TestMonthNameDateCommaReadAsDot(t *testing.T) {
	us := receipt.DefaultLocale(receipt.CountryUS)
	for _, line := range []string{"June 23.2019 at 2:33 PM", "June 23,2019 at 2:33 PM", "Jun 23. 2019", "Date: Jun 23:2019 5:48:07 FM"} {
		if d := FindDate(LinesFromText(line), us, testNow); d.Value.Format("2006-01-02") != "2019-06-23" {
			t.Errorf("%q: %v", line, d.Value)
		}
	}
}

// A two-digit year with the hour read against it: no year is followed by a
// colon.
func TestTwoDigitYearGluedToTheTime(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	for line, want := range map[string]string{
		"06.05.2009:49 0000545 002": "2020-05-06",
		"27/03/201809:15":           "2018-03-27",
		"18.05.20 09 50 0000545":    "2020-05-18",
		"18.05.20 09.50 0000545":    "2020-05-18",
	} {
		if d := FindDate(LinesFromText(line), eu, testNow); d.Value.Format("2006-01-02") != want {
			t.Errorf("%q: %v, want %s", line, d.Value, want)
		}
	}
	us := receipt.DefaultLocale(receipt.CountryUS)
	if d := FindDate(LinesFromText("Date: 06/14/2017 1838:46"), us, testNow); d.Clock != "18:38:46" {
		t.Errorf("a time's first colon lost: %q", d.Clock)
	}
}

// A date taken from its labelled line takes its time from where the page
// prints the same date beside the sale's time.
func TestTheSameDatePrintedWithItsTimeGivesTheTime(t *testing.T) {
	eu := receipt.DefaultLocale(receipt.CountryEU)
	d := FindDate(LinesFromText("15.04.20 16:15 8665111 0176\nKundenbeleg\nDatum: 15.04.2020"), eu, testNow)
	if d.Value.Format("2006-01-02") != "2020-04-15" || d.Clock != "16:15" {
		t.Errorf("%v at %q, want 2020-04-15 at 16:15", d.Value, d.Clock)
	}
}

// A German till's TSE stamps print the sale's date and time in ISO 8601
// again: with them, the sale's date is surer than the date and time of a
// deposit slip cashed in above it.
func TestTheSalesDateTheTSEStampsPrintAgain(t *testing.T) {
	page := lines("FRISCHEMARKT HOLZ", "Hauptstr. 5", "80331 München", "MILCH 1,19 B", "LEERGUT -3,75 A",
		"Leergut-Bon Nr. 0815-2291", "vom 08.06.2024 09:12", "SUMME EUR 54,66",
		"TSE-Start: 2024-06-15T17:41:03.000", "TSE-Stop: 2024-06-15T17:42:51.000", "Sa 15.06.2024 17:42 Bon-Nr.:6621")
	d := FindDate(page, receipt.DefaultLocale(receipt.CountryEU), testNow)
	if got := d.Value.Format(time.DateOnly); got != "2024-06-15" {
		t.Errorf("date %s (%s), want 2024-06-15", got, d.Why)
	}
}

// A date in running text ("… our engagement letter dated 3 December
// 2021") is no labelled date, though "dated" labels one on its own line.
func TestADateInASentenceIsNoLabelledDate(t *testing.T) {
	uk := receipt.DefaultLocale(receipt.CountryUK)
	page := lines("Date (tax point): 28 February 2025",
		"Our work was carried out in accordance with our engagement letter dated 3 December 2021.", "Dated: 4 March 2025",
		"N de factura: FV-2024/01873 Fecha de factura: 22/05/2024")
	want := map[string]bool{"2025-02-28": true, "2021-12-03": false, "2025-03-04": true, "2024-05-22": true}
	for _, c := range dateCandidates(page, uk, false, testNow) {
		d := c.d.Format("2006-01-02")
		if w, ok := want[d]; ok && c.labelled != w {
			t.Errorf("%s labelled %v, want %v", d, c.labelled, w)
		}
	}
}
