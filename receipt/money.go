package receipt

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Money is an amount in a currency. It is never a float.
type Money struct {
	Amount   decimal.Decimal `json:"amount"`
	Currency string          `json:"currency"` // ISO 4217, upper case; "" when unknown
}

func (m Money) String() string {
	s := m.Amount.StringFixed(int32(MinorDigits(m.Currency)))
	if m.Currency == "" {
		return s
	}
	return m.Currency + " " + s
}

// minorDigits holds the ISO 4217 currencies whose minor unit is not 2 digits.
var minorDigits = map[string]int{
	"JPY": 0, "KRW": 0, "VND": 0, "CLP": 0, "ISK": 0, "UGX": 0, "PYG": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"IDR": 2, // officially 2, though cents are never printed
	"BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "TND": 3, "LYD": 3, "IQD": 3,
}

// MinorDigits is the number of decimal digits of a currency's minor unit
// (2 for most, 0 for JPY, 3 for KWD). Unknown or empty currencies count as 2.
func MinorDigits(currency string) int {
	if d, ok := minorDigits[strings.ToUpper(currency)]; ok {
		return d
	}
	return 2
}

// MinorUnit is one minor unit of the currency: 0.01 for AUD, 1 for JPY.
func MinorUnit(currency string) decimal.Decimal {
	return decimal.New(1, -int32(MinorDigits(currency)))
}

// KnownCurrencies are the ISO 4217 codes the forms and parsers offer first.
var KnownCurrencies = []string{
	"AUD", "NZD", "GBP", "EUR", "USD", "MYR", "SGD", "CAD", "CHF", "JPY", "CNY", "HKD",
	"IDR", "THB", "PHP", "INR", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "BGN", "RON", "ISK", "ZAR", "KWD",
}

// ValidCurrency reports whether s looks like an ISO 4217 code we know.
func ValidCurrency(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, c := range KnownCurrencies {
		if c == s {
			return true
		}
	}
	_, ok := minorDigits[s]
	return ok
}

// currencyMarks maps what receipts print beside amounts to a currency. A bare
// "$" is ambiguous and maps to "": the country default decides.
var currencyMarks = []struct{ mark, code string }{
	// longest first, so "NZ$" wins over "$"
	{"US$", "USD"},
	{"AU$", "AUD"},
	{"NZ$", "NZD"},
	{"A$", "AUD"},
	{"S$", "SGD"},
	{"HK$", "HKD"},
	{"C$", "CAD"},
	{"RM", "MYR"},
	{"Rp", "IDR"},
	{"€", "EUR"},
	{"£", "GBP"},
	{"¥", "JPY"},
	{"₹", "INR"},
	{"฿", "THB"},
	{"₱", "PHP"},
	{"zł", "PLN"},
	{"Kč", "CZK"},
	{"Fr.", "CHF"},
	{"$", ""},
}

// CurrencyForCountry is the usual currency of a Country setting.
func CurrencyForCountry(c Country) string {
	switch c {
	case CountryAU:
		return "AUD"
	case CountryNZ:
		return "NZD"
	case CountryUK:
		return "GBP"
	case CountryEU:
		return "EUR"
	case CountryUS:
		return "USD"
	case CountryMY:
		return "MYR"
	}
	return ""
}

// ErrNoAmount is returned by ParseAmount for text that holds no number.
var ErrNoAmount = fmt.Errorf("no amount")
