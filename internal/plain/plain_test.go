package plain

import (
	"testing"
	"time"
	"unicode/utf8"
)

func TestClipNeverBreaksACharacter(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Café  Münster\n GmbH", 100, "Café Münster GmbH"},
		{"Café", 4, "Caf…"}, // é is two bytes: cut before it
		{"→ total", 2, "…"},
		{"abc", 3, "abc"},
	} {
		got := Clip(c.in, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestWordsAndMillis(t *testing.T) {
	if Count(1, "receipt", "receipts") != "1 receipt" || Count(0, "receipt", "receipts") != "0 receipts" {
		t.Error("Count")
	}
	if Word(2, "is", "are") != "are" {
		t.Error("Word")
	}
	if Millis(1500*time.Microsecond) != 1.5 {
		t.Error("Millis")
	}
}
