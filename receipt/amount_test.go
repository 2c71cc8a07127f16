package receipt

import (
	"testing"
)

func TestParseAmount(t *testing.T) {
	tests := []struct {
		in       string
		want     string
		currency string
		symbol   string
	}{
		{"$1,530.00", "1530", "", "$"},
		{"1.530,00 €", "1530", "EUR", ""},
		{"RM 9.00", "9", "MYR", ""},
		{"RM9.00", "9", "MYR", ""},
		{"9,00", "9", "", ""},
		{"(12.50)", "-12.5", "", ""},
		{"-12.50", "-12.5", "", ""},
		{"12.50-", "-12.5", "", ""},
		{"12.50 CR", "-12.5", "", ""},
		{"USD 10", "10", "USD", ""},
		{"10.00 EUR", "10", "EUR", ""},
		{"£4.99", "4.99", "GBP", ""},
		{"NZ$ 15.00", "15", "NZD", ""},
		{"1,234,567.89", "1234567.89", "", ""},
		{"1 234,56", "1234.56", "", ""},
		{"1,530", "1530", "", ""},
		{"0.500", "0.5", "", ""},
		{"12", "12", "", ""},
		{"-$3.20", "-3.2", "", "$"},
		{"¥1,200", "1200", "JPY", ""},
		{"1'234.50", "1234.5", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAmount(tt.in)
			if err != nil {
				t.Fatalf("ParseAmount(%q): %v", tt.in, err)
			}
			if got.Value.String() != tt.want {
				t.Errorf("value = %s, want %s", got.Value, tt.want)
			}
			if got.Currency != tt.currency || got.Symbol != tt.symbol {
				t.Errorf("currency/symbol = %q/%q, want %q/%q", got.Currency, got.Symbol, tt.currency, tt.symbol)
			}
		})
	}
}

func TestParseAmountRejects(t *testing.T) {
	for _, in := range []string{"", "   ", "abc", "$", "12a.00", "1.2.3,4,5,,", "TOTAL"} {
		if got, err := ParseAmount(in); err == nil {
			t.Errorf("ParseAmount(%q) = %v, want an error", in, got.Value)
		}
	}
}

func TestMinorUnit(t *testing.T) {
	tests := map[string]string{"AUD": "0.01", "JPY": "1", "KWD": "0.001", "": "0.01", "xyz": "0.01"}
	for cur, want := range tests {
		if got := MinorUnit(cur).String(); got != want {
			t.Errorf("MinorUnit(%q) = %s, want %s", cur, got, want)
		}
	}
}
