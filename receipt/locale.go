package receipt

import (
	"fmt"
	"strings"
	"time"
)

// Country is the tax jurisdiction whose rules a library follows.
type Country string

// The countries a client's library can be set to (EU: a euro country).
const (
	CountryAU    Country = "AU"
	CountryNZ    Country = "NZ"
	CountryUK    Country = "UK"
	CountryEU    Country = "EU"
	CountryUS    Country = "US"
	CountryMY    Country = "MY"
	CountryOther Country = "other"
)

// Countries lists the Country settings in the order a form offers them.
var Countries = []Country{CountryAU, CountryNZ, CountryUK, CountryEU, CountryUS, CountryMY, CountryOther}

// DateOrder is how a locale writes all-numeric dates.
type DateOrder string

// The orders of day, month and year.
const (
	DMY DateOrder = "DMY"
	MDY DateOrder = "MDY"
	YMD DateOrder = "YMD"
)

// Locale holds the settings that change how receipts are read and summed.
type Locale struct {
	Country      Country    `json:"country"`
	DateOrder    DateOrder  `json:"date_order"`
	FYStartMonth time.Month `json:"fy_start_month"` // 7 for AU, 4 for UK, 1 for calendar years
	Currency     string     `json:"currency"`
	// Pack is the country pack a page is read with (packs.Detect's choice,
	// "DE"); empty for the client's own country. Not a setting: the
	// reading rules fill it per page.
	Pack string `json:"-"`
}

// DefaultLocale returns the usual settings for a country.
func DefaultLocale(c Country) Locale {
	l := Locale{Country: c, DateOrder: DMY, FYStartMonth: time.January, Currency: CurrencyForCountry(c)}
	switch c {
	case CountryAU, CountryNZ:
		l.FYStartMonth = time.July
		if c == CountryNZ {
			l.FYStartMonth = time.April
		}
	case CountryUK:
		l.FYStartMonth = time.April
	case CountryUS:
		l.DateOrder = MDY
	}
	return l
}

// ParseCountry accepts a Country code in any case; "GB" means UK.
func ParseCountry(s string) (Country, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	if u == "GB" {
		u = "UK"
	}
	for _, c := range Countries {
		if strings.ToUpper(string(c)) == u {
			return c, nil
		}
	}
	return "", fmt.Errorf("unknown country %q: use one of AU, NZ, UK, EU, US, MY, other", s)
}
