package fields

import (
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/receipt"
)

// The sale's date among the other dates the page prints, on receipts of
// kinds the real sets lack: a pharmacy's next dispensing, a card slip
// printing the year first, a hotel bill's arrival.
func TestSalesDateAmongOtherDates(t *testing.T) {
	for _, tc := range []struct {
		name, pack string
		country    receipt.Country
		page       []string
		date, time string
	}{
		// A Finnish till prints its time with a dot; the next dispensing's
		// date is labelled on the line above it.
		{"a time printed with a dot, a next date labelled above", "FI", receipt.CountryEU, []string{
			"KALEVAN APTEEKKI", "Resepti 1", "AMOXIN 500 mg tabl 21 kpl 16,85",
			"Seuraava toimitus aikaisintaan", "12.12.2024", "MAKSETTAVA YHTEENSA EUR 40,94",
			"21.11.2024 16.05 Asiakas 0001",
		}, "2024-11-21", "16:05"},
		// A Canadian card slip prints the year first with two digits.
		{"a slip's year-first date beside the till's in full", "CA", receipt.CountryOther, []string{
			"NORTHPOINT ELECTRONICS", "2024-01-25 15:07 REG 03", "TOTAL 249.06",
			"DATE/TIME: 24/01/25 15:08:22", "2025-01-25 after the 1-year manufacturer's warranty ends",
		}, "2024-01-25", "15:08:22"},
		// A hotel bill: the arrival's label is its own line's.
		{"a departure under an arrival", "US", receipt.CountryUS, []string{
			"THE HARWICK", "GUEST FOLIO", "Arrival: 04/08/24 Conf No: 77310942",
			"Departure: 04/11/24 Page 1 of 1", "04/08/24 Room Charge 286.00", "04/09/24 Room Charge 286.00",
			"Total 1,040.77",
		}, "2024-04-11", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc := receipt.DefaultLocale(tc.country)
			loc.Pack = tc.pack
			if tc.pack == "CA" {
				loc.DateOrder = receipt.DMY
			}
			r := ExtractFields(lines(tc.page...), loc, testNow)
			if got := r.Date.Value.Format(time.DateOnly); got != tc.date || r.Time.Value != tc.time {
				t.Errorf("date %s %q, want %s %q (%s)", got, r.Time.Value, tc.date, tc.time, r.Date.Why)
			}
		})
	}
}
