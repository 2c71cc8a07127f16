package receipt

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/shopspring/decimal"
)

// ParsedAmount is the result of ParseAmount.
type ParsedAmount struct {
	Value decimal.Decimal
	// Currency is the ISO code named or implied by a symbol in the text, ""
	// when none was printed or the symbol is ambiguous ("$").
	Currency string
	// Symbol is "$" when a bare dollar sign was printed, so callers can apply
	// the country's dollar.
	Symbol string
}

// ParseAmount reads a money amount in the forms receipts print it:
// "$1,530.00", "1.530,00 €", "RM 9.00", "9,00", "(12.50)", "-12.50",
// "12.50-", "12.50 CR", "USD 10". Grouping and decimal separators are told
// apart by position: the last separator followed by exactly three digits,
// with no other kind of separator present, is a thousands separator
// ("1,530" is 1530), any other last separator is the decimal point.
func ParseAmount(s string) (ParsedAmount, error) {
	var out ParsedAmount
	t := strings.TrimSpace(s)
	if t == "" {
		return out, ErrNoAmount
	}
	neg := false
	if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		neg = true
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	upper := strings.ToUpper(t)
	for _, suffix := range []string{" CR", "CR"} {
		if strings.HasSuffix(upper, suffix) && len(upper) > len(suffix) && !unicode.IsLetter(rune(upper[len(upper)-len(suffix)-1])) {
			neg = true
			t = strings.TrimSpace(t[:len(t)-len(suffix)])
			break
		}
	}

	// Strip currency marks and ISO codes wherever they stand.
	for _, m := range currencyMarks {
		if i := strings.Index(t, m.mark); i >= 0 {
			if out.Currency == "" && out.Symbol == "" {
				out.Currency = m.code
				if m.code == "" {
					out.Symbol = m.mark
				}
			}
			t = t[:i] + " " + t[i+len(m.mark):]
		}
	}
	fields := strings.Fields(t)
	var kept []string
	for _, f := range fields {
		u := strings.ToUpper(strings.Trim(f, "."))
		if len(u) == 3 && isAllLetters(u) && ValidCurrency(u) {
			if out.Currency == "" {
				out.Currency, out.Symbol = u, ""
			}
			continue
		}
		kept = append(kept, f)
	}
	t = strings.Join(kept, "")

	if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "−") {
		neg = !neg
		t = strings.TrimLeft(t, "-−")
	} else if strings.HasSuffix(t, "-") {
		neg = !neg
		t = strings.TrimRight(t, "-")
	}
	t = strings.TrimPrefix(t, "+")
	if t == "" {
		return out, ErrNoAmount
	}
	for _, r := range t {
		if !(r >= '0' && r <= '9') && r != '.' && r != ',' && r != '\'' && r != ' ' && r != '\u00a0' && r != '\u202f' {
			return out, fmt.Errorf("%q is not an amount: unexpected %q", s, r)
		}
	}
	num, err := normaliseSeparators(t)
	if err != nil {
		return out, fmt.Errorf("%q is not an amount: %w", s, err)
	}
	v, err := decimal.NewFromString(num)
	if err != nil {
		return out, fmt.Errorf("%q is not an amount: %w", s, err)
	}
	if neg {
		v = v.Neg()
	}
	out.Value = v
	return out, nil
}

func isAllLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// normaliseSeparators turns "1.530,00" or "1,530.00" or "1 530,00" into
// "1530.00".
func normaliseSeparators(t string) (string, error) {
	t = strings.NewReplacer(" ", "", "\u00a0", "", "\u202f", "", "'", "").Replace(t)
	if t == "" || strings.Trim(t, ".,") == "" {
		return "", ErrNoAmount
	}
	lastDot, lastComma := strings.LastIndex(t, "."), strings.LastIndex(t, ",")
	var decimalSep byte
	switch {
	case lastDot >= 0 && lastComma >= 0:
		if lastDot > lastComma {
			decimalSep = '.'
		} else {
			decimalSep = ','
		}
	case lastDot >= 0 || lastComma >= 0:
		sep := byte('.')
		last := lastDot
		if lastComma >= 0 {
			sep, last = ',', lastComma
		}
		count := strings.Count(t, string(sep))
		digitsAfter := len(t) - last - 1
		intPart := t[:strings.Index(t, string(sep))]
		// One separator with exactly three digits after it groups
		// thousands, unless the integer part is 0 ("0.500").
		switch {
		case count > 1:
			decimalSep = 0 // "1,234,567": all grouping
		case digitsAfter == 3 && intPart != "0" && intPart != "":
			decimalSep = 0
		default:
			decimalSep = sep
		}
	}
	intPart := t
	if decimalSep != 0 {
		intPart = t[:strings.LastIndexByte(t, decimalSep)]
	}
	if err := checkGrouping(intPart); err != nil {
		return "", err
	}
	var b strings.Builder
	seenDecimal := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			b.WriteByte(c)
		case c == decimalSep && i == strings.LastIndexByte(t, decimalSep):
			if seenDecimal {
				return "", fmt.Errorf("two decimal separators")
			}
			seenDecimal = true
			b.WriteByte('.')
		case c == '.' || c == ',':
			// grouping separator: dropped
		}
	}
	out := b.String()
	if out == "" || out == "." {
		return "", ErrNoAmount
	}
	return out, nil
}

// checkGrouping accepts an integer part whose separators split it into a
// leading group of 1–3 digits and groups of 3 (or 2, the Indian lakh form).
func checkGrouping(intPart string) error {
	groups := strings.FieldsFunc(intPart, func(r rune) bool { return r == '.' || r == ',' })
	if len(groups) <= 1 {
		if strings.Trim(intPart, "0123456789") != "" {
			return fmt.Errorf("misplaced separator")
		}
		return nil
	}
	if strings.Count(intPart, ".")+strings.Count(intPart, ",") != len(groups)-1 || strings.ContainsAny(intPart[:1], ".,") {
		return fmt.Errorf("misplaced separator")
	}
	if n := len(groups[0]); n < 1 || n > 3 {
		return fmt.Errorf("misplaced separator")
	}
	for _, g := range groups[1:] {
		if len(g) != 3 && len(g) != 2 {
			return fmt.Errorf("digit groups must have three digits")
		}
	}
	return nil
}
