package bank

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// ofxZone is the time zone after an OFX date: [-5:EST], [+10], [5.30:IST].
var ofxZone = regexp.MustCompile(`^[+-]?[0-9]{1,2}(\.[0-9]{1,2})?(:[A-Za-z]*)?$`)

// ofxDate reads an OFX date: YYYYMMDD, optionally followed by HH, MM and
// SS, milliseconds (.XXX) and a time zone ([-5:EST]). A statement line
// is a day, so the day is the one written, in the zone the bank wrote it.
func ofxDate(tag, value string) (time.Time, error) {
	bad := func(why string) (time.Time, error) {
		return time.Time{}, fmt.Errorf("%q (%s) is not a date: %s", firstBytes(value, 40), tag, why)
	}
	v := strings.TrimSpace(value)
	if i := strings.IndexByte(v, '['); i >= 0 {
		zone := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v[i+1:]), "]"))
		if !ofxZone.MatchString(zone) {
			return bad("the time zone is not of the form [-5:EST]")
		}
		v = strings.TrimSpace(v[:i])
	}
	if i := strings.IndexByte(v, '.'); i >= 0 {
		if i != 14 || !allDigits(v[i+1:]) {
			return bad("only a full time (HHMMSS) may have a fraction of a second")
		}
		v = v[:i]
	}
	if !allDigits(v) || len(v) < 8 || len(v) > 14 || len(v)%2 != 0 {
		return bad("OFX dates are YYYYMMDD, optionally followed by HHMMSS")
	}
	n := func(from, to int) int {
		if len(v) < to {
			return 0
		}
		x, _ := strconv.Atoi(v[from:to])
		return x
	}
	y, m, d := n(0, 4), n(4, 6), n(6, 8)
	if n(8, 10) > 23 || n(10, 12) > 59 || n(12, 14) > 60 {
		return bad("the time of day is out of range")
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Year() != y || int(t.Month()) != m || t.Day() != d {
		return bad("there is no such day")
	}
	if y < 1900 || y > 2200 {
		return bad(fmt.Sprintf("the year %d is out of range", y))
	}
	return t, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// ofxAmount reads an OFX amount: an optional sign, digits, and a decimal
// point or (as OFX allows) a decimal comma. Thousands separators are not
// OFX and are refused rather than guessed at.
func ofxAmount(tag, value string) (decimal.Decimal, error) {
	v := strings.TrimSpace(value)
	sign := ""
	if v != "" && (v[0] == '-' || v[0] == '+') {
		sign, v = v[:1], v[1:]
	}
	whole, frac, _ := strings.Cut(strings.Replace(v, ",", ".", 1), ".")
	if (whole != "" && !allDigits(whole)) || (frac != "" && !allDigits(frac)) || whole+frac == "" || len(v) > 40 {
		return decimal.Decimal{}, fmt.Errorf("%q (%s) is not an amount", firstBytes(value, 40), tag)
	}
	if whole == "" {
		whole = "0"
	}
	num := sign + whole
	if frac != "" {
		num += "." + frac
	}
	return decimal.RequireFromString(num), nil
}

// ofxCurrency reads an ISO 4217 currency code.
func ofxCurrency(tag, value string) (string, error) {
	v := strings.ToUpper(strings.TrimSpace(value))
	if len(v) != 3 || strings.Trim(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return "", fmt.Errorf("%q (%s) is not a three-letter currency code", firstBytes(value, 40), tag)
	}
	return v, nil
}
