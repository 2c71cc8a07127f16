package receipt

import (
	"fmt"
	"regexp"
	"time"
)

// Period is a half-open range of dates [Start, End) with the label a user
// typed or a report prints: "2025-07", "2025-Q3", "FY2025".
type Period struct {
	Label string
	Start time.Time
	End   time.Time
}

// Contains reports whether the date d falls in the period.
func (p Period) Contains(d time.Time) bool {
	return !d.Before(p.Start) && d.Before(p.End)
}

var (
	reMonth   = regexp.MustCompile(`^(\d{4})-(\d{2})$`)
	reQuarter = regexp.MustCompile(`^(\d{4})-?[Qq]([1-4])$`)
	reFY      = regexp.MustCompile(`^(?i:FY)(\d{4})$`)
	reYear    = regexp.MustCompile(`^(\d{4})$`)
)

// ParsePeriod reads "2025-07" (a month), "2025-Q3" (a calendar quarter),
// "FY2025" (a financial year) or "2025" (a calendar year). A financial year
// is named by the calendar year it ends in, the Australian habit: with a
// July start FY2025 is 1 July 2024 to 30 June 2025; with a January start it
// is calendar 2025.
func ParsePeriod(s string, fyStart time.Month) (Period, error) {
	if fyStart < time.January || fyStart > time.December {
		fyStart = time.January
	}
	switch {
	case reMonth.MatchString(s):
		m := reMonth.FindStringSubmatch(s)
		mo := atoi(m[2])
		if mo < 1 || mo > 12 {
			return Period{}, fmt.Errorf("period %q: month must be 01–12", s)
		}
		start := Date(atoi(m[1]), time.Month(mo), 1)
		return Period{Label: s, Start: start, End: start.AddDate(0, 1, 0)}, nil
	case reQuarter.MatchString(s):
		m := reQuarter.FindStringSubmatch(s)
		q := atoi(m[2])
		start := Date(atoi(m[1]), time.Month(3*(q-1)+1), 1)
		return Period{Label: fmt.Sprintf("%s-Q%d", m[1], q), Start: start, End: start.AddDate(0, 3, 0)}, nil
	case reFY.MatchString(s):
		y := atoi(reFY.FindStringSubmatch(s)[1])
		start := Date(y, fyStart, 1)
		if fyStart != time.January {
			start = Date(y-1, fyStart, 1)
		}
		return Period{Label: fmt.Sprintf("FY%d", y), Start: start, End: start.AddDate(1, 0, 0)}, nil
	case reYear.MatchString(s):
		start := Date(atoi(s), time.January, 1)
		return Period{Label: s, Start: start, End: start.AddDate(1, 0, 0)}, nil
	}
	return Period{}, fmt.Errorf("period %q: use 2025-07 (month), 2025-Q3 (quarter), FY2025 (financial year) or 2025", s)
}

// Granularity is how a summary groups dates into periods.
type Granularity string

// The periods a summary can group by (fy: the client's financial year).
const (
	ByMonth   Granularity = "month"
	ByQuarter Granularity = "quarter"
	ByFY      Granularity = "fy"
)

// PeriodOf returns the month, quarter or financial year that holds d. Quarters
// are counted within the financial year when it does not start in January,
// so AU's Q1 is July–September (labelled "FY2026-Q1").
func PeriodOf(d time.Time, g Granularity, fyStart time.Month) Period {
	if fyStart < time.January || fyStart > time.December {
		fyStart = time.January
	}
	fyStartDate := Date(d.Year(), fyStart, 1)
	if d.Before(fyStartDate) {
		fyStartDate = fyStartDate.AddDate(-1, 0, 0)
	}
	fyName := fyStartDate.Year()
	if fyStart != time.January {
		fyName++
	}
	switch g {
	case ByMonth:
		start := Date(d.Year(), d.Month(), 1)
		return Period{Label: start.Format("2006-01"), Start: start, End: start.AddDate(0, 1, 0)}
	case ByQuarter:
		monthsIn := (int(d.Month()) - int(fyStart) + 12) % 12
		start := fyStartDate.AddDate(0, monthsIn/3*3, 0)
		label := fmt.Sprintf("%d-Q%d", d.Year(), monthsIn/3+1)
		if fyStart != time.January {
			label = fmt.Sprintf("FY%d-Q%d", fyName, monthsIn/3+1)
		}
		return Period{Label: label, Start: start, End: start.AddDate(0, 3, 0)}
	default:
		return Period{Label: fmt.Sprintf("FY%d", fyName), Start: fyStartDate, End: fyStartDate.AddDate(1, 0, 0)}
	}
}
