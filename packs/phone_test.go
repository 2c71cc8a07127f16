package packs

import (
	"slices"
	"testing"
)

func TestPhonesOfAPage(t *testing.T) {
	pg := pageOf([]string{
		"CALL US AT 954-565-2299",
		"Tel: (310) 278-2050",
		"TEL:03-3362 4137",
		"Date 05-11-2018 08:03",   // a date
		"2 BURGER 15.00 12.50",    // amounts
		"Card XXXX1234 5678 9012", // glued to letters
	})
	want := []string{"954-565-2299", "(310) 278-2050", "03-3362 4137"}
	if !slices.Equal(pg.phones(), want) {
		t.Errorf("phones = %q, want %q", pg.phones(), want)
	}
}

// A receipt printing dollars and no address: its phone's area code tells
// the United States from Canada, both ways, whatever the client's country.
func TestPhoneTellsTheCountry(t *testing.T) {
	page := func(phone string) []string {
		return []string{"BOA STEAKHOUSE", phone, "1 CRAB CAKE 15.00", "Sub Total : 43.00", "Tax: 4.09", "TOTAL : $47.09", "THANK YOU"}
	}
	for _, tt := range []struct{ phone, prior, want string }{
		{"(310) 278-2050", "CA", "US"},
		{"(604) 278-2050", "US", "CA"},
	} {
		d := Detect(page(tt.phone), tt.prior)
		if d.Pack == nil || d.Pack.Country != tt.want || !d.Sure || d.Currency != tt.want+"D" {
			t.Errorf("%s in a %s library: %+v", tt.phone, tt.prior, d)
		}
	}
	// Without the phone the page says nothing of which: the client's
	// country, unsure.
	if d := Detect(page(""), "CA"); d.Sure {
		t.Errorf("no phone: %+v", d)
	}
}

// Whatever a page's line holds, telling its country from its phone
// numbers neither panics nor takes a number glued to other digits.
func FuzzDetectPhones(f *testing.F) {
	for _, s := range []string{"Tel: (310) 278-2050", "+49 89 1234567", "03-3362 4137", "05-11-2018 08:03", "+1 (999) 000-0000 x12345", "0 0 0 0 0 0 0 0 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		pg := pageOf([]string{line})
		for _, p := range pg.phones() {
			if CountDigits(p) < phoneMinDigits || CountDigits(p) > phoneMaxDigits {
				t.Errorf("%q: phone %q has %d digits", line, p, CountDigits(p))
			}
		}
		Detect([]string{line}, "US")
	})
}
