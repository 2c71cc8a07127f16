package receipt

import (
	"testing"
	"time"
)

func TestParsePeriod(t *testing.T) {
	tests := []struct {
		in         string
		fy         time.Month
		label      string
		start, end string
	}{
		{"2025-07", time.July, "2025-07", "2025-07-01", "2025-08-01"},
		{"2025-12", time.January, "2025-12", "2025-12-01", "2026-01-01"},
		{"2025-Q3", time.July, "2025-Q3", "2025-07-01", "2025-10-01"},
		{"2025q1", time.January, "2025-Q1", "2025-01-01", "2025-04-01"},
		{"FY2025", time.July, "FY2025", "2024-07-01", "2025-07-01"},  // AU
		{"FY2025", time.April, "FY2025", "2024-04-01", "2025-04-01"}, // UK
		{"fy2025", time.January, "FY2025", "2025-01-01", "2026-01-01"},
		{"2024", time.July, "2024", "2024-01-01", "2025-01-01"},
	}
	for _, tt := range tests {
		p, err := ParsePeriod(tt.in, tt.fy)
		if err != nil {
			t.Fatalf("ParsePeriod(%q): %v", tt.in, err)
		}
		if p.Label != tt.label || p.Start.Format(time.DateOnly) != tt.start || p.End.Format(time.DateOnly) != tt.end {
			t.Errorf("ParsePeriod(%q, %v) = %s [%s, %s), want %s [%s, %s)", tt.in, tt.fy, p.Label,
				p.Start.Format(time.DateOnly), p.End.Format(time.DateOnly), tt.label, tt.start, tt.end)
		}
	}
	for _, bad := range []string{"2025-13", "Q3", "FY25", "2025-Q5", ""} {
		if _, err := ParsePeriod(bad, time.July); err == nil {
			t.Errorf("ParsePeriod(%q) should fail", bad)
		}
	}
}

func TestPeriodOf(t *testing.T) {
	tests := []struct {
		date  time.Time
		g     Granularity
		fy    time.Month
		label string
		start string
	}{
		{Date(2025, 7, 16), ByMonth, time.July, "2025-07", "2025-07-01"},
		{Date(2025, 7, 16), ByQuarter, time.January, "2025-Q3", "2025-07-01"},
		{Date(2025, 7, 16), ByQuarter, time.July, "FY2026-Q1", "2025-07-01"},
		{Date(2025, 6, 30), ByQuarter, time.July, "FY2025-Q4", "2025-04-01"},
		{Date(2025, 6, 30), ByFY, time.July, "FY2025", "2024-07-01"},
		{Date(2025, 7, 1), ByFY, time.July, "FY2026", "2025-07-01"},
		{Date(2025, 4, 5), ByFY, time.April, "FY2026", "2025-04-01"},
		{Date(2025, 3, 31), ByFY, time.April, "FY2025", "2024-04-01"},
		{Date(2025, 3, 31), ByFY, time.January, "FY2025", "2025-01-01"},
	}
	for _, tt := range tests {
		p := PeriodOf(tt.date, tt.g, tt.fy)
		if p.Label != tt.label || p.Start.Format(time.DateOnly) != tt.start || !p.Contains(tt.date) {
			t.Errorf("PeriodOf(%s, %s, %v) = %s from %s, want %s from %s", tt.date.Format(time.DateOnly), tt.g, tt.fy,
				p.Label, p.Start.Format(time.DateOnly), tt.label, tt.start)
		}
		if fy, err := ParsePeriod(p.Label, tt.fy); tt.g == ByFY && (err != nil || !fy.Start.Equal(p.Start)) {
			t.Errorf("FY label %s does not parse back to the same year: %v %v", p.Label, fy, err)
		}
	}
}
