package ppocr

import "testing"

// CTC's greedy decoding keeps, for each character, the recogniser's
// likeliest other character over the steps it spans.
func TestDecodeKeepsSecondChoices(t *testing.T) {
	keys := []string{"A", "M", "N", "Ｉ"}
	// Time steps × (blank, A, M, N, Ｉ).
	probs := []float32{
		0.02, 0.95, 0.01, 0.01, 0.01, // A, sure
		0.9, 0.05, 0.02, 0.02, 0.01, // blank
		0.05, 0.05, 0.6, 0.25, 0.05, // M, N second
		0.05, 0.01, 0.55, 0.35, 0.04, // M again, N likelier second
		0.9, 0.02, 0.02, 0.02, 0.04, // blank
		0.1, 0.5, 0.0, 0.0, 0.4, // A, full-width I second
	}
	got := decode(probs, 6, 5, keys)
	if len(got) != 3 {
		t.Fatalf("decoded %d characters (%+v), want 3", len(got), got)
	}
	for i, want := range []struct {
		text, alt string
		altP      float32
	}{{"A", "M", 0.01}, {"M", "N", 0.35}, {"A", "I", 0.4}} {
		c := got[i]
		if c.text != want.text || c.alt != want.alt || c.altP != want.altP {
			t.Errorf("character %d: %q, second %q at %.2f; want %q, second %q at %.2f", i, c.text, c.alt, c.altP, want.text, want.alt, want.altP)
		}
	}
	if _, ok := secondChoice(got[0]); ok {
		t.Error("a second choice at 0.01 was kept")
	}
	if a, ok := secondChoice(got[1]); !ok || a != "N" {
		t.Errorf("M's second choice is %q (%v), want N", a, ok)
	}
	if _, ok := secondChoice(char{text: "M", alt: "m", altP: 0.3}); ok {
		t.Error("the same letter in lower case was kept as a second choice")
	}
}
