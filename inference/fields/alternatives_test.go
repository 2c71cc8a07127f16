package fields

import (
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/packs"
)

func TestMendFromAlternatives(t *testing.T) {
	my, _ := packs.Get("MY") // the words are Malaysian names and places
	alt := func(at int, letter string, p float64) inference.Alt { return inference.Alt{At: at, Text: letter, P: p} }
	for _, tc := range []struct {
		name string
		word inference.Word
		page []inference.Word // other lines of the page, one word each
		want string
	}{
		{"a second choice makes a word", inference.Word{Text: "MINL", Alts: []inference.Alt{alt(3, "I", 0.34)}}, nil, "MINI"},
		{"the likelier of two that make words", inference.Word{Text: "ALAH", Alts: []inference.Alt{alt(3, "N", 0.1), alt(3, "M", 0.3)}}, nil, "ALAM"},
		{"two second choices together", inference.Word{Text: "PESAF", Alts: []inference.Alt{alt(1, "A", 0.2), alt(4, "R", 0.26)}}, nil, "PASAR"},
		{"a word printed elsewhere on the page", inference.Word{Text: "ACNE", Conf: 0.8, Alts: []inference.Alt{alt(2, "M", 0.2)}}, []inference.Word{{Text: "ACME.", Conf: 0.95}}, "ACME"},
		{"a word printed elsewhere but read less surely", inference.Word{Text: "Dion", Conf: 0.94, Alts: []inference.Alt{alt(2, "a", 0.17)}}, []inference.Word{{Text: "Dian", Conf: 0.88}}, "Dion"},
		{"a word as read stays", inference.Word{Text: "MINE", Alts: []inference.Alt{alt(3, "I", 0.4)}}, nil, "MINE"},
		{"no second choice, no mend", inference.Word{Text: "MINL"}, nil, "MINL"},
		{"a second choice that makes no word", inference.Word{Text: "NART", Alts: []inference.Alt{alt(0, "7", 0.19)}}, nil, "NART"},
		{"a legal form glued to a word", inference.Word{Text: "ALAH)SDN.RHD", Alts: []inference.Alt{alt(3, "M", 0.3), alt(9, "B", 0.14)}}, nil, "ALAM)SDN.BHD"},
		{"a digit is never a second choice for a letter", inference.Word{Text: "SE7IA", Alts: []inference.Alt{alt(2, "T", 0.3)}}, nil, "SE7IA"},
		{"a short run is left alone", inference.Word{Text: "LO", Alts: []inference.Alt{alt(1, "T", 0.4)}}, nil, "LO"},
		{"a pair of letters becomes a place's abbreviation", inference.Word{Text: "BAKERIES(KI", Alts: []inference.Alt{alt(10, "L", 0.35)}}, nil, "BAKERIES(KL"},
		{"a pair of letters becomes nothing else", inference.Word{Text: "(KI)", Alts: []inference.Alt{alt(2, "T", 0.35)}}, nil, "(KI)"},
		{"a doubted letter takes the page's surer spelling", inference.Word{Text: "TUAH)", Conf: 0.88, Alts: []inference.Alt{alt(3, "N", 0.23)}}, []inference.Word{{Text: "TUAK", Conf: 0.99}}, "TUAK)"},
		{"a letter not doubted keeps its reading", inference.Word{Text: "TUAH", Conf: 0.88, Alts: []inference.Alt{alt(0, "J", 0.23)}}, []inference.Word{{Text: "TUAK", Conf: 0.99}}, "TUAH"},
		{"the page's spelling read less surely", inference.Word{Text: "TUAH", Conf: 0.95, Alts: []inference.Alt{alt(3, "N", 0.23)}}, []inference.Word{{Text: "TUAK", Conf: 0.9}}, "TUAH"},
		{"three letters do not take the page's spelling", inference.Word{Text: "TEO", Conf: 0.86, Alts: []inference.Alt{alt(2, "D", 0.34)}}, []inference.Word{{Text: "TEL", Conf: 0.97}}, "TEO"},
		{"two twins on the page: no guess", inference.Word{Text: "TUAH", Conf: 0.8, Alts: []inference.Alt{alt(3, "N", 0.23)}}, []inference.Word{{Text: "TUAK", Conf: 0.99}, {Text: "TUAM", Conf: 0.9}}, "TUAH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ls := []Line{{Text: tc.word.Text, Conf: 0.8, Words: []inference.Word{tc.word}}}
			for _, w := range tc.page {
				ls = append(ls, Line{Text: w.Text, Conf: w.Conf, Words: []inference.Word{w}})
			}
			out, n := MendFromAlternatives(ls, func(l Line) bool { return l.Text == tc.word.Text }, my)
			if out[0].Text != tc.want || out[0].Words[0].Text != tc.want {
				t.Errorf("mended to %q (word %q), want %q", out[0].Text, out[0].Words[0].Text, tc.want)
			}
			if (n > 0) != (tc.want != tc.word.Text) {
				t.Errorf("%d words mended", n)
			}
			if ls[0].Text != tc.word.Text {
				t.Error("the lines given were changed")
			}
		})
	}
	// Lines outside the name and address are left as read.
	ls := []Line{{Text: "MINL", Words: []inference.Word{{Text: "MINL", Alts: []inference.Alt{alt(3, "I", 0.34)}}}}}
	if out, n := MendFromAlternatives(ls, func(Line) bool { return false }, nil); n != 0 || out[0].Text != "MINL" {
		t.Errorf("a line outside the fields was mended to %q", out[0].Text)
	}
}

// The words business names are made of in the page's languages, and in
// English, which shop signs print everywhere, are words a second choice
// may make: on a French page "BURCER" with G second for the C is BURGER,
// "BOULANCERIE" with G for the C BOULANGERIE.
func TestMendFromAlternativesTakesTheSignWordsOfThePage(t *testing.T) {
	fr, ok := packs.Get("FR")
	if !ok {
		t.Fatal("no French pack")
	}
	for _, tc := range []struct{ read, want string }{
		{"BURCER", "BURGER"},
		{"BOULANCERIE", "BOULANGERIE"},
	} {
		at := strings.Index(tc.read, "C")
		if tc.read == "BOULANCERIE" {
			at = strings.LastIndex(tc.read, "C")
		}
		w := inference.Word{Text: tc.read, Conf: 0.94, Alts: []inference.Alt{{At: at, Text: "G", P: 0.27}}}
		ls := []Line{{Text: tc.read, Conf: 0.94, Words: []inference.Word{w}}}
		if out, _ := MendFromAlternatives(ls, func(Line) bool { return true }, fr); out[0].Text != tc.want {
			t.Errorf("%s on a French page mended to %q, want %q", tc.read, out[0].Text, tc.want)
		}
	}
	// A word of another language's trade is not one of this page's.
	de, _ := packs.Get("DE")
	w := inference.Word{Text: "BOULANCERIE", Conf: 0.94, Alts: []inference.Alt{{At: 6, Text: "G", P: 0.27}}}
	if out, _ := MendFromAlternatives([]Line{{Text: w.Text, Words: []inference.Word{w}}}, func(Line) bool { return true }, de); out[0].Text != w.Text {
		t.Errorf("a French trade word made on a German page: %q", out[0].Text)
	}
}
