package receipt

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in        string
		order     DateOrder
		want      string
		ambiguous bool
		time      string
	}{
		{"05/08/2025", DMY, "2025-08-05", true, ""},
		{"05/08/2025", MDY, "2025-05-08", true, ""},
		{"11/02/18", DMY, "2018-02-11", true, ""},
		{"18 APR 2018", DMY, "2018-04-18", false, ""},
		{"16 Jul 2025", MDY, "2025-07-16", false, ""},
		{"Jul 16, 2025", DMY, "2025-07-16", false, ""},
		{"July 16 2025", DMY, "2025-07-16", false, ""},
		{"2025-07-16", MDY, "2025-07-16", false, ""},
		{"16.07.2025", MDY, "2025-07-16", false, ""}, // dotted dates are day first
		{"05.08.2025", MDY, "2025-08-05", false, ""},
		{"13/05/2025", MDY, "2025-05-13", false, ""}, // only one reading is real
		{"25/12/2018", DMY, "2018-12-25", false, ""},
		{"12/12/2018", DMY, "2018-12-12", false, ""}, // same either way
		{"16-Jul-25", DMY, "2025-07-16", false, ""},
		{"02-01-2019", DMY, "2019-01-02", true, ""},
		{"24-03-28", YMD, "2024-03-28", false, ""}, // a Swedish till's year first
		{"28-03-2024", YMD, "2024-03-28", false, ""},
		{"24-03-28", DMY, "2028-03-24", false, ""},
		{"18/03/2018 13:25", DMY, "2018-03-18", false, "13:25"},
		{"2018-03-18T09:05:10", DMY, "2018-03-18", false, "09:05:10"},
		{"03/18/2018 01:05 PM", MDY, "2018-03-18", false, "13:05"},
		{"20180318", DMY, "2018-03-18", false, ""},
		{"1st Jan 2020", DMY, "2020-01-01", false, ""},
		{"31 DIS 2017", DMY, "2017-12-31", false, ""},
		{"29/02/2024", DMY, "2024-02-29", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in+"/"+string(tt.order), func(t *testing.T) {
			got, err := ParseDate(tt.in, tt.order)
			if err != nil {
				t.Fatalf("ParseDate(%q): %v", tt.in, err)
			}
			if s := got.Date.Format("2006-01-02"); s != tt.want {
				t.Errorf("date = %s, want %s", s, tt.want)
			}
			if got.Ambiguous != tt.ambiguous {
				t.Errorf("ambiguous = %v, want %v", got.Ambiguous, tt.ambiguous)
			}
			if got.Time != tt.time {
				t.Errorf("time = %q, want %q", got.Time, tt.time)
			}
			if got.Date.Location() != time.UTC || got.Date.Hour() != 0 {
				t.Errorf("date %v is not midnight UTC", got.Date)
			}
		})
	}
}

func TestParseDateRejects(t *testing.T) {
	for _, in := range []string{"", "31/02/2025", "2025-13-01", "hello", "12/05-2025", "32 Jan 2020", "16 Foo 2020", "29/02/2023"} {
		if got, err := ParseDate(in, DMY); err == nil {
			t.Errorf("ParseDate(%q) = %v, want an error", in, got.Date)
		}
	}
}
