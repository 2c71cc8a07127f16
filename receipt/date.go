package receipt

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ParsedDate is the result of ParseDate.
type ParsedDate struct {
	Date time.Time // midnight UTC
	// Ambiguous is set when day and month could be swapped and both readings
	// are valid dates, so the locale's order decided ("05/08/2025").
	Ambiguous bool
	// Time is "HH:MM" or "HH:MM:SS" when the text carried one, else "".
	Time string
}

var monthNames = map[string]time.Month{
	"JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6, "JUL": 7, "AUG": 8, "SEP": 9, "SEPT": 9, "OCT": 10, "NOV": 11, "DEC": 12,
	"JANUARY": 1, "FEBRUARY": 2, "MARCH": 3, "APRIL": 4, "JUNE": 6, "JULY": 7, "AUGUST": 8, "SEPTEMBER": 9, "OCTOBER": 10, "NOVEMBER": 11, "DECEMBER": 12,
	// Malay and a few European spellings seen on receipts
	"MAC": 3, "MEI": 5, "OGO": 8, "OGOS": 8, "OKT": 10, "DIS": 12, "MAI": 5, "DEZ": 12, "MRZ": 3,
}

var (
	reISO      = regexp.MustCompile(`^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$`)
	reNumeric  = regexp.MustCompile(`^(\d{1,2})([-/.])(\d{1,2})([-/.])(\d{2}|\d{4})$`)
	reDayMonth = regexp.MustCompile(`^(\d{1,2})(?:ST|ND|RD|TH)?[-/. ]*([A-Z]{3,9})\.?[-/., ]*(\d{2}|\d{4})$`)
	reMonthDay = regexp.MustCompile(`^([A-Z]{3,9})\.?[-/. ]*(\d{1,2})(?:ST|ND|RD|TH)?[-/., ]+(\d{2}|\d{4})$`)
	reCompact  = regexp.MustCompile(`^(\d{4})(\d{2})(\d{2})$`)
	reTimePart = regexp.MustCompile(`(?i)\s*(?:T|\s)(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM)?$`)
)

// ParseDate reads a date in the forms receipts print: "05/08/2025",
// "11/02/18", "18 APR 2018", "16 Jul 2025", "Jul 16, 2025", "2025-07-16",
// "16.07.2025", optionally followed by a time. All-numeric dates with slashes
// or dashes follow order; dotted dates are day first, as everywhere they are
// used. Two-digit years are 2000–2069 or 1970–1999.
func ParseDate(s string, order DateOrder) (ParsedDate, error) {
	var out ParsedDate
	t := strings.ToUpper(strings.TrimSpace(s))
	if m := reTimePart.FindStringSubmatchIndex(t); m != nil {
		hh, _ := strconv.Atoi(t[m[2]:m[3]])
		mm, _ := strconv.Atoi(t[m[4]:m[5]])
		ss := -1
		if m[6] >= 0 {
			ss, _ = strconv.Atoi(t[m[6]:m[7]])
		}
		if m[8] >= 0 {
			switch {
			case t[m[8]:m[9]] == "PM" && hh < 12:
				hh += 12
			case t[m[8]:m[9]] == "AM" && hh == 12:
				hh = 0
			}
		}
		if hh < 24 && mm < 60 && ss < 60 {
			out.Time = fmt.Sprintf("%02d:%02d", hh, mm)
			if ss >= 0 {
				out.Time += fmt.Sprintf(":%02d", ss)
			}
			t = strings.TrimSpace(t[:m[0]])
		}
	}
	t = strings.TrimRight(t, ".,")

	var y, mo, d int
	switch {
	case reISO.MatchString(t):
		m := reISO.FindStringSubmatch(t)
		y, mo, d = atoi(m[1]), atoi(m[2]), atoi(m[3])
	case reCompact.MatchString(t):
		m := reCompact.FindStringSubmatch(t)
		y, mo, d = atoi(m[1]), atoi(m[2]), atoi(m[3])
	case reNumeric.MatchString(t):
		m := reNumeric.FindStringSubmatch(t)
		a, b, c := atoi(m[1]), atoi(m[3]), m[5]
		if m[2] != m[4] {
			return out, fmt.Errorf("%q is not a date: mixed separators", s)
		}
		y = expandYear(c)
		first := order
		if m[2] == "." {
			first = DMY
		}
		if first == YMD && m[2] == "-" && len(m[1]) == 2 && validDate(expandYear(m[1]), b, atoi(c)) {
			// A Swedish till's "24-03-28": two-digit year, month, day.
			y, mo, d = expandYear(m[1]), b, atoi(c)
			break
		}
		if first == YMD { // a short first part otherwise is the day
			first = DMY
		}
		dd, mm := a, b
		if first == MDY {
			dd, mm = b, a
		}
		if !validDate(y, mm, dd) && validDate(y, dd, mm) {
			dd, mm = mm, dd // only the other reading is a real date
		} else if validDate(y, dd, mm) && dd != mm && dd <= 12 && mm <= 12 {
			out.Ambiguous = m[2] != "."
		}
		d, mo = dd, mm
	case reDayMonth.MatchString(t):
		m := reDayMonth.FindStringSubmatch(t)
		mon, ok := monthNames[m[2]]
		if !ok {
			return out, fmt.Errorf("%q is not a date: unknown month %q", s, m[2])
		}
		d, mo, y = atoi(m[1]), int(mon), expandYear(m[3])
	case reMonthDay.MatchString(t):
		m := reMonthDay.FindStringSubmatch(t)
		mon, ok := monthNames[m[1]]
		if !ok {
			return out, fmt.Errorf("%q is not a date: unknown month %q", s, m[1])
		}
		mo, d, y = int(mon), atoi(m[2]), expandYear(m[3])
	default:
		return out, fmt.Errorf("%q is not a date Shoebox can read", s)
	}
	if !validDate(y, mo, d) {
		return out, fmt.Errorf("%q is not a real date", s)
	}
	out.Date = Date(y, time.Month(mo), d)
	return out, nil
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func expandYear(s string) int {
	y := atoi(s)
	if len(s) == 2 {
		if y < 70 {
			return 2000 + y
		}
		return 1900 + y
	}
	return y
}

func validDate(y, m, d int) bool {
	if m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2200 {
		return false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t.Day() == d && int(t.Month()) == m
}

// MonthNumber is the month an English month's name or abbreviation in
// capitals names ("MAR", "SEPT", "MARCH").
func MonthNumber(name string) (time.Month, bool) {
	m, ok := monthNames[name]
	return m, ok
}
