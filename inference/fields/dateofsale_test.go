package fields

import (
	"strings"
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
		noRival    bool // no other date on the page doubts it
	}{
		// A Finnish till prints its time with a dot; the next dispensing's
		// date is labelled on the line above it.
		{"a time printed with a dot, a next date labelled above", "FI", receipt.CountryEU, []string{
			"KALEVAN APTEEKKI", "Resepti 1", "AMOXIN 500 mg tabl 21 kpl 16,85",
			"Seuraava toimitus aikaisintaan", "12.12.2024", "MAKSETTAVA YHTEENSA EUR 40,94",
			"21.11.2024 16.05 Asiakas 0001",
		}, "2024-11-21", "16:05", true},
		// A Canadian card slip prints the year first with two digits.
		{"a slip's year-first date beside the till's in full", "CA", receipt.CountryOther, []string{
			"NORTHPOINT ELECTRONICS", "2024-01-25 15:07 REG 03", "TOTAL 249.06",
			"DATE/TIME: 24/01/25 15:08:22", "2025-01-25 after the 1-year manufacturer's warranty ends",
		}, "2024-01-25", "15:08:22", true},
		// An age check's date of birth, a use-by date, points that lapse.
		{"a date of birth", "AU", receipt.CountryAU, []string{
			"CELLAR DOOR LIQUOR", "27/06/2025 18:42 Reg 2", "Shiraz 750ml 24.00", "TOTAL $24.00", "ID SIGHTED: DL SA DOB 14/08/1996 (Y)",
		}, "2025-06-27", "18:42", true},
		{"a use-by date, points that lapse", "DE", receipt.CountryEU, []string{
			"METZGEREI HUBER", "29.11.2024 11:47", "Weißwürste 6,40", "Weißwürste zu verbrauchen bis 02.12.24", "SUMME EUR 6,40", "Punkte verfallen am 31.12.2025",
		}, "2024-11-29", "11:47", true},
		// A repair ticket: brought in, promised, then picked up and paid.
		{"a repair's check-in and promised dates", "US", receipt.CountryUS, []string{
			"SPOKE & CHAIN", "REPAIR TICKET / RECEIPT", "Checked in: 05/02/2025 10:14 AM", "Promised: 05/06/2025",
			"Picked up / paid: 05/07/2025 5:38 PM", "Labor subtotal 144.00", "TOTAL 325.99",
		}, "2025-05-07", "17:38", true},
		// A hotel bill: the arrival's label is its own line's.
		{"a departure under an arrival", "US", receipt.CountryUS, []string{
			"THE HARWICK", "GUEST FOLIO", "Arrival: 04/08/24 Conf No: 77310942",
			"Departure: 04/11/24 Page 1 of 1", "04/08/24 Room Charge 286.00", "04/09/24 Room Charge 286.00",
			"Total 1,040.77",
		}, "2024-04-11", "", false},
		// A next appointment stamped with its time, its label alone on
		// the line above.
		{"a next appointment with its time", "IT", receipt.CountryEU, []string{
			"SALONE GIULIA", "DOCUMENTO COMMERCIALE", "05/06/2025 17:40", "Piega 25,00", "TOTALE EURO 25,00",
			"Prossimo appuntamento:", "giovedi' 12/06/2025 ore 10:30 - Giulia",
		}, "2025-06-05", "17:40", true},
		// A parcel's delivery and a car park's entry are other dates.
		{"a delivery promised", "BE", receipt.CountryEU, []string{
			"FLEURS DE LA PLACE", "Date : 10/05/2024 16:22", "Bouquet 45,00", "TOTAL 45,00",
			"Livraison prévue : dimanche 12/05/2024, 9h-12h",
		}, "2024-05-10", "16:22", true},
		// A Spanish ticket writes its date out ("22 de noviembre de
		// 2025"); a gift card's balance is valid until another.
		{"a date written out, a gift card's validity", "ES", receipt.CountryEU, []string{
			"FERRETERÍA EL CLAVO", "FACTURA SIMPLIFICADA", "Sábado, 22 de noviembre de 2025 - 11:07", "Taladro 89,90", "TOTAL 129,39",
			"Tarjeta regalo ****3318 50,00", "Saldo restante 15,00", "Válida hasta 30/06/2026", "Tarjeta bancaria VISA 79,39",
		}, "2025-11-22", "11:07", true},
		{"a lottery's draw", "UK", receipt.CountryUK, []string{
			"HOPE LANE HOSPICE SHOP", "Date: 03/02/2025 Time: 11:26 Till 1", "Books 3 for 2 4.00", "TOTAL 20.00",
			"Lottery draw: Friday 07/02/2025.",
		}, "2025-02-03", "11:26", true},
		{"a repair ready for collection", "BG", receipt.CountryEU, []string{
			"ОБУЩАР ЕТ", "Подметки 45.00", "ОБЩА СУМА 61.40", "В БРОЙ 70.00", "РЕСТО 8.60", "Готово за получаване след",
			"19.05.2023 г., 10:00 ч.", "0000612 0001 Петко", "16-05-2023 17:48:09", "ФИСКАЛЕН БОН",
		}, "2023-05-16", "17:48:09", true},
		// A can's best-by date, a deal's last day, points that lapse.
		{"a best-by date and a deal's end", "US", receipt.CountryUS, []string{
			"HARBOR TAPROOM", "09/12/2025 7:31 PM", "Crowler 32oz 16.00", "TOTAL 38.40", "Canned 7:31 PM - Best by 09/13/2025",
			"Owner Deal Days run through 09/30/2025.",
		}, "2025-09-12", "19:31", true},
		{"points valid until", "PL", receipt.CountryEU, []string{
			"ZOO-KĄCIK", "2024-11-07 15:42", "Karma dla kota 19,00 A", "SUMA PLN 19,00", "Punkty ważne do: 31.12.2024",
		}, "2024-11-07", "15:42", true},
		// Dates after a sale stamped with its time, printed bare or with
		// words no pack lists, long past when the shoebox is read: an
		// order deadline, a service due.
		{"an order deadline, long past", "AT", receipt.CountryEU, []string{
			"BÄCKEREI GRUBER", "19.03.2025 07:12", "Kaisersemmel 2,20", "SUMME EUR 19,75", "Osterpinzen vorbestellen", "– bis 14.04.2025 –",
		}, "2025-03-19", "07:12", true},
		{"a service due one part from the sale's day", "AU", receipt.CountryAU, []string{
			"TORRENS TYRE & BRAKE", "Date: 22/02/2025 Time: 11:54", "TOTAL 841.00", "Rotate tyres at 138,452 km or by", "22/08/2025, whichever comes first.",
		}, "2025-02-22", "11:54", true},
		// A later date labelled date, or stamped with a time, stays a rival.
		{"a later date stamped with a time", "UK", receipt.CountryUK, []string{
			"ELECTRIC PALACE", "Date: 10/05/2025 16:22", "Adult 2 x 9.50 19.00", "TOTAL 19.00", "Screening 12/05/2025 19:30 Screen 2",
		}, "2025-05-10", "16:22", false},
		{"a car park's entry", "NL", receipt.CountryEU, []string{
			"PARKEERGARAGE", "Inrit 22-02-2024 19:12", "Betaald 23-02-2024 08:47", "TOTAAL 18,50",
		}, "2024-02-23", "08:47", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc := receipt.DefaultLocale(tc.country)
			loc.Pack = tc.pack
			if tc.pack == "CA" {
				loc.DateOrder = receipt.DMY
			}
			page := lines(tc.page...)
			r := ExtractFields(page, loc, testNow)
			if got := r.Date.Value.Format(time.DateOnly); got != tc.date || r.Time.Value != tc.time {
				t.Errorf("date %s %q, want %s %q (%s)", got, r.Time.Value, tc.date, tc.time, r.Date.Why)
			}
			Assess(&r, page, loc, testNow)
			if rival := strings.Contains(r.Date.Doubt, "another date"); rival == tc.noRival {
				t.Errorf("doubt %q", r.Date.Doubt)
			}
		})
	}
}
