package fields

import (
	"strings"
	"unicode"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/packs"
)

// legalFormWords are the words of a company's legal form, which a second
// choice may make too ("Sdn.Rhd" with B second for the R).
var legalFormWords = wordSet("SDN BHD BERHAD")

// placeAbbreviations are the two letters a name or address gives a city
// or state by ("GARDENIA BAKERIES (KL)"): a pair of letters is mended only
// to one of them.
var placeAbbreviations = wordSet("KL PJ JB KK")

// MendFromAlternatives takes the reader's second choice for a letter of a
// word on the lines within says (the supplier's name and address) where
// that makes a word of the lexicon, a word business names are made of in
// the page's languages or English (pk.IsSignWord: "BURCER" with G second
// for the C), or one the page prints elsewhere, and the word as read is
// none: PP-OCR read "MINL" with I its second choice
// for the L, "PASAF" with R for the F, "ALAH" with M for the H. A word is
// mended by one second choice, or two where one does not make a word;
// among several, the likeliest is taken. It gives the lines with the
// mended words and how many were mended.
//
// The reader's own doubt is the evidence: a letter is never swapped for a
// lookalike it did not consider, so a short word ("ALAH") may be mended
// that the lexicon alone leaves as read.
func MendFromAlternatives(lines []Line, within func(Line) bool, pk *packs.Pack) ([]Line, int) {
	out := make([]Line, len(lines))
	copy(out, lines)
	mended := 0
	for i, l := range lines {
		if !within(l) || !hasAlts(l) {
			continue
		}
		page := surePageWords(lines, i)
		words := make([]inference.Word, len(l.Words))
		copy(words, l.Words)
		changed := false
		for j, w := range words {
			// A word the page prints elsewhere counts where it was read
			// surer than this one: "Dion" (0.94) and "Dian" (0.88) on one
			// page are the same name, and each a second choice of the other.
			isWord := func(s string) bool {
				return KnownWord(s, pk) || legalFormWords[s] || pk.IsSignWord(s) || page[s] > w.Conf
			}
			if text, ok := mendWordFromAlternatives(w, isWord, page); ok {
				words[j].Text = text
				changed = true
				mended++
			}
		}
		if changed {
			texts := make([]string, len(words))
			for j, w := range words {
				texts[j] = w.Text
			}
			out[i].Words, out[i].Text = words, strings.Join(texts, " ")
		}
	}
	return out, mended
}

// surePageWords gives the runs of letters of the words on the lines other
// than skip read with confidence (as pageWords), in capitals, with the
// surest reading of each.
func surePageWords(lines []Line, skip int) map[string]float64 {
	return runConfidences(lines, func(i int, l Line) bool { return i != skip && l.Conf >= 0.8 })
}

// runConfidences gives the runs of letters of the words of the lines keep
// takes, in capitals, each with its surest reading's confidence.
func runConfidences(lines []Line, keep func(i int, l Line) bool) map[string]float64 {
	sure := map[string]float64{}
	for i, l := range lines {
		if !keep(i, l) {
			continue
		}
		for _, w := range l.Words {
			for _, run := range strings.FieldsFunc(strings.ToUpper(w.Text), func(r rune) bool { return !unicode.IsLetter(r) }) {
				sure[run] = max(sure[run], w.Conf)
			}
		}
	}
	return sure
}

func hasAlts(l Line) bool {
	for _, w := range l.Words {
		if len(w.Alts) > 0 {
			return true
		}
	}
	return false
}

// mendWordFromAlternatives mends each run of three or more letters of w
// that is not a word (isWord, in capitals) to one that is, by w's second
// choices within the run; failing that, to the one spelling of page
// (surer than w) that differs from it in a single letter the reader
// doubted ("ALAH", N second for the H, beside "SETIA ALAM" read surely).
func mendWordFromAlternatives(w inference.Word, isWord func(string) bool, page map[string]float64) (string, bool) {
	if len(w.Alts) == 0 {
		return "", false
	}
	text := []rune(w.Text)
	changed := false
	for start := 0; start < len(text); {
		if !unicode.IsLetter(text[start]) {
			start++
			continue
		}
		end := start
		for end < len(text) && unicode.IsLetter(text[end]) {
			end++
		}
		if run := string(text[start:end]); end-start == 2 && !placeAbbreviations[strings.ToUpper(run)] {
			if best, ok := bestAlternative(text[start:end], start, w.Alts, func(s string) bool { return placeAbbreviations[s] }); ok {
				copy(text[start:end], best)
				changed = true
			}
		} else if end-start >= 3 && !isWord(strings.ToUpper(run)) && !englishNeighbours[strings.ToUpper(run)] {
			if best, ok := bestAlternative(text[start:end], start, w.Alts, isWord); ok {
				copy(text[start:end], best)
				changed = true
			} else if twin, ok := doubtedLetterTwin(text[start:end], start, w, page); ok {
				copy(text[start:end], twin)
				changed = true
			}
		}
		start = end
	}
	return string(text), changed
}

// bestAlternative is the likeliest spelling of run (starting at rune
// offset in its word) with one of alts, or else two, that isWord takes.
func bestAlternative(run []rune, offset int, alts []inference.Alt, isWord func(string) bool) ([]rune, bool) {
	var in []inference.Alt
	for _, a := range alts {
		r := []rune(a.Text)
		if a.At >= offset && a.At < offset+len(run) && len(r) == 1 && unicode.IsLetter(r[0]) {
			in = append(in, a)
		}
	}
	try := func(subs ...inference.Alt) ([]rune, bool) {
		c := make([]rune, len(run))
		copy(c, run)
		for _, a := range subs {
			c[a.At-offset] = []rune(a.Text)[0]
		}
		return c, isWord(strings.ToUpper(string(c)))
	}
	var best []rune
	bestP := 0.0
	for _, a := range in {
		if c, ok := try(a); ok && a.P > bestP {
			best, bestP = c, a.P
		}
	}
	if best != nil {
		return best, true
	}
	for x, a := range in {
		for _, b := range in[x+1:] {
			if a.At == b.At {
				continue
			}
			if c, ok := try(a, b); ok && a.P*b.P > bestP {
				best, bestP = c, a.P*b.P
			}
		}
	}
	return best, best != nil
}

// doubtedLetterTwin is the one word of page, read surer than w, that
// spells run (at rune offset in w) but for one letter the reader had a
// second choice for. A run of three letters is left: "TEO" is no more
// likely TEL, which every receipt prints, than anything else.
func doubtedLetterTwin(run []rune, offset int, w inference.Word, page map[string]float64) ([]rune, bool) {
	if len(run) < 4 {
		return nil, false
	}
	doubted := map[int]bool{}
	for _, a := range w.Alts {
		doubted[a.At-offset] = true
	}
	upper := []rune(strings.ToUpper(string(run)))
	var twin []rune
	for p, conf := range page {
		c := []rune(p)
		if conf <= w.Conf || len(c) != len(upper) {
			continue
		}
		diff := -1
		for i := range c {
			if c[i] != upper[i] {
				if diff >= 0 {
					diff = -2
					break
				}
				diff = i
			}
		}
		if diff >= 0 && doubted[diff] {
			if twin != nil {
				return nil, false
			}
			twin = c
		}
	}
	if twin == nil {
		return nil, false
	}
	out := make([]rune, len(run))
	copy(out, run)
	for i := range out {
		if unicode.IsLower(out[i]) {
			out[i] = unicode.ToLower(twin[i])
		} else {
			out[i] = twin[i]
		}
	}
	return out, true
}
