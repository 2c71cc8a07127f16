package packs

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"
)

// rePhone is a phone number as pages print one: an optional country code,
// then groups of digits apart by spaces, dashes, dots, a slash or an area
// code's brackets ("(310) 278-2050", "03-3362 4137", "+49 89 123456",
// "089/12345-67"). A bare run of digits is left out: a till's transaction
// or card number could pass for a number somewhere.
var rePhone = regexp.MustCompile(`(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,5}\)[ .-]?|\d{1,5}[ ./-])(?:\d{2,5}[ .-]?){1,4}\d{2,5}`)

// reNotPhone are runs of digits that look like a phone number but are a
// date ("05-11-2018") or amounts ("15.00 12.50").
var reNotPhone = regexp.MustCompile(`^\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b|\d[.]\d{2}(?:\s|$)`)

// A national number has 8 to 13 digits with its trunk prefix.
const (
	phoneMinDigits = 8
	phoneMaxDigits = 13
)

// phones are the phone-shaped runs of a page's lines that stand alone
// (no digit or letter glued to either end).
func (pg page) phones() []string {
	var out []string
	for _, l := range pg.raws {
		for _, at := range rePhone.FindAllStringIndex(l, -1) {
			m := l[at[0]:at[1]]
			if glued(l, at[0], at[1]) || reNotPhone.MatchString(m) || isTaxIDAfterLetters(l[:at[0]], m) {
				continue
			}
			if n := CountDigits(m); n >= phoneMinDigits && n <= phoneMaxDigits {
				out = append(out, m)
			}
		}
	}
	return out
}

// isTaxIDAfterLetters says whether a number and the country letters that
// end the text before it, opening a word or glued to a tax label, make a
// tax ID of that country's scheme ("TVA BE 0196.075.206", "BTWBE
// 0813.107.943"): the number is the ID's, not a phone's ("CALL US AT
// 954-565-2299" stays a phone: no Austrian ID is shaped so).
func isTaxIDAfterLetters(before, number string) bool {
	m := reTrailingLetters.FindStringSubmatchIndex(before)
	if m == nil {
		return false
	}
	letters, lead := before[m[2]:m[3]], before[:m[2]]
	id := letters + reIDSpacing.ReplaceAllString(number, "")
	mu.RLock()
	defer mu.RUnlock()
	for _, p := range countries {
		if p.taxPrefix == letters && p.taxID.MatchString(id) && (lead == "" || !unicode.IsLetter(lastRune(lead)) || p.gluedToTaxLabel(lead)) {
			return true
		}
	}
	return false
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// reIDSpacing is what a tax ID is printed with between its characters.
var reIDSpacing = regexp.MustCompile(`[\s.\-/]`)

// reTrailingLetters is two capitals at the end of a text.
var reTrailingLetters = regexp.MustCompile(`(\p{Lu}{2})\s*$`)

// glued says whether a letter or a digit touches s[i:j], or a mark that
// goes on with a number ("06/14/2017": the match "14/2017 18" starts after a
// slash; "12.50" after a decimal point).
func glued(s string, i, j int) bool {
	word := func(b byte) bool { return unicode.IsLetter(rune(b)) || b >= '0' && b <= '9' }
	digit := func(b byte) bool { return b >= '0' && b <= '9' }
	if i > 0 && (word(s[i-1]) || strings.IndexByte("/.,-:", s[i-1]) >= 0 && i > 1 && digit(s[i-2])) {
		return true
	}
	return j < len(s) && word(s[j]) || j+1 < len(s) && strings.IndexByte("/.,:", s[j]) >= 0 && digit(s[j+1])
}

// reNANP is a North American number as printed: its area code, the
// exchange and the line ("(310) 278-2050", "954.565.2299").
var reNANP = regexp.MustCompile(`^(?:\+?1[ .-]?)?\(?[2-9]\d{2}\)?[ .-]?[2-9]\d{2}[ .-]?\d{4}$`)

// nationalShape says whether a number printed without its country code
// is shaped as a region's own are: in North America its ten digits; where
// numbers are dialled at home with a trunk prefix ("0" in most of Europe,
// Australia and Malaysia), with it. A till's other numbers rarely are.
func nationalShape(s, region string) bool {
	if strings.HasPrefix(s, "+") {
		return true
	}
	switch ndd := phonenumbers.GetNddPrefixForRegion(region, true); ndd {
	case "1":
		return reNANP.MatchString(s)
	case "":
		return true
	default:
		return strings.HasPrefix(strings.TrimLeft(s, "("), ndd)
	}
}

// CountLetters is how many letters, of any script, s holds.
func CountLetters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// CountDigits is how many ASCII digits s holds.
func CountDigits(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}

// phoneOf returns the first of a page's phone numbers that the country's
// numbering plan holds as a valid number of its own ("" where none does or
// the pack names no plan). libphonenumber's plans tell the United States'
// area codes from Canada's, which share +1.
func (p *Pack) phoneOf(phones []string) string {
	region := p.PhoneRegion
	if region == "" {
		return ""
	}
	for _, s := range phones {
		if !nationalShape(s, region) {
			continue
		}
		num, err := phonenumbers.Parse(s, region)
		if err == nil && phonenumbers.IsValidNumberForRegion(num, region) {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// PhoneOn is the first phone number a line prints that the pack's
// country's numbering plan holds as one of its own, as printed; "" where
// it prints none or the pack names no plan.
func (p *Pack) PhoneOn(line string) string {
	if p == nil {
		return ""
	}
	return p.phoneOf(page{raws: []string{line}}.phones())
}

// PhoneKey is a phone number in the one form every printing of it gives,
// read with the pack's numbering plan: E.164 ("+60391302672" for
// "03-9130 2672" and "+603-9130 2672"); "" where it is no valid number or
// the pack names no plan.
func (p *Pack) PhoneKey(s string) string {
	if p == nil || p.PhoneRegion == "" {
		return ""
	}
	num, err := phonenumbers.Parse(s, p.PhoneRegion)
	if err != nil || !phonenumbers.IsValidNumber(num) {
		return ""
	}
	return phonenumbers.Format(num, phonenumbers.E164)
}
