package hw

import (
	"math"
	"strings"
	"testing"
)

func TestJudgeCanary(t *testing.T) {
	tests := []struct {
		name   string
		out    string
		logits []float32
		want   string // "" for accepted
	}{
		{"sound", "receipt receipt receipt", []float32{0.1, -2, 3}, ""},
		{"bangs", "!!!!!!!!!!!!", []float32{0, 0}, `only '!' repeated`},
		{"mostly bangs", "!!!!!!!!!a!!", nil, `only '!' repeated`},
		{"nan", "receipt", []float32{1, float32(math.NaN())}, "NaN"},
		{"inf", "receipt", []float32{float32(math.Inf(1))}, "infinite"},
		{"empty", "  \n", nil, "no output"},
		{"short is fine", "ok", nil, ""},
	}
	for _, tt := range tests {
		err := JudgeCanary(tt.out, tt.logits)
		if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
