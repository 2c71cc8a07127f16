package bank

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/shopspring/decimal"
)

// dateLayout is a date form a statement may use: Go's layout and the form
// a bookkeeper reads ("DD/MM/YYYY").
type dateLayout struct {
	Go, Shown  string
	dayFirst   bool // ambiguous with a month-first twin
	monthFirst bool
}

var dateLayouts = []dateLayout{
	{"2006-1-2", "YYYY-MM-DD", false, false},
	{"2006/1/2", "YYYY/MM/DD", false, false},
	{"20060102", "YYYYMMDD", false, false},
	{"2/1/2006", "DD/MM/YYYY", true, false},
	{"1/2/2006", "MM/DD/YYYY", false, true},
	{"2.1.2006", "DD.MM.YYYY", false, false},
	{"2-1-2006", "DD-MM-YYYY", true, false},
	{"1-2-2006", "MM-DD-YYYY", false, true},
	{"2/1/06", "DD/MM/YY", true, false},
	{"1/2/06", "MM/DD/YY", false, true},
	{"2.1.06", "DD.MM.YY", false, false},
	{"2 Jan 2006", "DD Mon YYYY", false, false},
	{"2-Jan-2006", "DD-Mon-YYYY", false, false},
	{"2-Jan-06", "DD-Mon-YY", false, false},
	{"2 Jan 06", "DD Mon YY", false, false},
	{"Jan 2, 2006", "Mon DD, YYYY", false, false},
	{"2006-01-02T15:04:05", "YYYY-MM-DDThh:mm:ss", false, false},
}

// layoutByShown finds a date form by the name a bookkeeper sees.
func layoutByShown(shown string) (dateLayout, bool) {
	for _, l := range dateLayouts {
		if strings.EqualFold(l.Shown, shown) {
			return l, true
		}
	}
	return dateLayout{}, false
}

// DateForms lists the date forms a mapping may name.
func DateForms() []string {
	out := make([]string, len(dateLayouts))
	for i, l := range dateLayouts {
		out[i] = l.Shown
	}
	return out
}

func cleanDate(s string) string {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), `"`))
	s = strings.ReplaceAll(s, "'", "/") // QIF: 7/ 1'24
	s = strings.ReplaceAll(s, "/ ", "/")
	if i := strings.IndexAny(s, " T"); i == 10 && len(s) > 10 && s[4] == '-' {
		s = s[:10] // 2024-07-01 00:00:00
	}
	return s
}

func (l dateLayout) parse(s string) (time.Time, error) {
	t, err := time.Parse(l.Go, cleanDate(s))
	if err != nil {
		return t, err
	}
	if t.Year() < 1970 || t.Year() > 2200 {
		return t, fmt.Errorf("year %d is out of range", t.Year())
	}
	return day(t), nil
}

// detectDates picks the date form every value fits. When day-first and
// month-first both fit (no day over 12), dayFirst decides and ambiguous
// says so.
func detectDates(values []string, dayFirst bool) (dateLayout, bool, error) {
	var fits []dateLayout
	for _, l := range dateLayouts {
		ok := len(values) > 0
		for _, v := range values {
			if _, err := l.parse(v); err != nil {
				ok = false
				break
			}
		}
		if ok {
			fits = append(fits, l)
		}
	}
	if len(fits) == 0 {
		return dateLayout{}, false, errors.New("no date form fits every date")
	}
	if len(fits) == 1 {
		return fits[0], false, nil
	}
	for _, l := range fits {
		if (dayFirst && l.dayFirst) || (!dayFirst && l.monthFirst) {
			return l, true, nil
		}
	}
	return fits[0], true, nil
}

// parseNumber reads an amount as banks print it: "1,234.56", "1.234,56"
// (decimalComma), "-12.50", "(12.50)", "12.50-", "12.50 CR", "12.50 DR",
// "$12.50", "12,50 €".
func parseNumber(s string, decimalComma bool) (decimal.Decimal, error) {
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(s), `"`))
	if t == "" {
		return decimal.Zero, errEmpty
	}
	neg := false
	up := strings.ToUpper(t)
	switch {
	case strings.HasSuffix(up, "CR"):
		t = t[:len(t)-2]
	case strings.HasSuffix(up, "DR"):
		t, neg = t[:len(t)-2], true
	}
	t = strings.TrimSpace(t)
	if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		t, neg = t[1:len(t)-1], !neg
	}
	letters := 0
	for _, r := range t {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters > 3 {
		return decimal.Zero, fmt.Errorf("%q is not an amount", s)
	}
	var b strings.Builder
	for _, r := range t {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '-' || r == '−':
			neg = !neg
		case r == '+':
		case r == '.' && !decimalComma, r == ',' && decimalComma:
			b.WriteByte('.')
		case r == ',' || r == '.' || r == '\'' || r == ' ' || r == '\u00a0' || r == '\u202f':
			// grouping
		case unicode.IsLetter(r) || unicode.Is(unicode.Sc, r):
			// a currency code or symbol
		default:
			return decimal.Zero, fmt.Errorf("%q is not an amount", s)
		}
	}
	if b.Len() == 0 || strings.Count(b.String(), ".") > 1 {
		return decimal.Zero, fmt.Errorf("%q is not an amount", s)
	}
	d, err := decimal.NewFromString(b.String())
	if err != nil {
		return d, fmt.Errorf("%q is not an amount", s)
	}
	if neg {
		d = d.Neg()
	}
	return d, nil
}

var errEmpty = errors.New("empty")

// detectDecimalComma looks at amounts for a decimal comma: "12,50" and
// "1.234,56" say comma, "12.50" and "1,234.56" say point; "1,234" alone
// says nothing. The majority of the values that say something decides.
func detectDecimalComma(values []string) (comma bool, sure bool) {
	var c, p int
	for _, v := range values {
		v = strings.TrimSpace(v)
		i := strings.LastIndexAny(v, ".,")
		if i < 0 {
			continue
		}
		after := 0
		for _, r := range v[i+1:] {
			if r >= '0' && r <= '9' {
				after++
			} else {
				break
			}
		}
		other := strings.ContainsRune(v[:i], map[byte]rune{'.': ',', ',': '.'}[v[i]])
		if after == 3 && !other {
			continue
		}
		if v[i] == ',' {
			c++
		} else {
			p++
		}
	}
	return c > p, c+p > 0
}
