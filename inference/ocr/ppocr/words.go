package ppocr

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

// SpaceFactor sets spaces between letters: two characters whose centres lie more than this many times
// the line's usual character pitch apart (in the recogniser's time steps)
// have a space between them. The Chinese recogniser seldom writes the
// spaces between English words itself. Chosen by measurement on the SROIE
// line transcripts (see TestSpacingAgainstTranscripts).
var SpaceFactor = 1.6

// pitch is the usual distance between neighbouring characters' centres on
// a line: the median, or fallback for lines too short to say.
func pitch(chars []char, fallback float64) float64 {
	if len(chars) < 6 {
		return fallback
	}
	d := make([]float64, 0, len(chars)-1)
	for i := 1; i < len(chars); i++ {
		d = append(d, centre(chars[i])-centre(chars[i-1]))
	}
	sort.Float64s(d)
	return d[len(d)/2]
}

func centre(c char) float64 { return float64(c.first+c.last) / 2 }

// pagePitch is the median character pitch over the page's lines, for lines
// too short to have their own.
func pagePitch(lines []textLine) float64 {
	var d []float64
	for _, l := range lines {
		for i := 1; i < len(l.chars); i++ {
			if l.chars[i].text != " " && l.chars[i-1].text != " " {
				d = append(d, centre(l.chars[i])-centre(l.chars[i-1]))
			}
		}
	}
	if len(d) == 0 {
		return 3
	}
	sort.Float64s(d)
	return d[len(d)/2]
}

// splitWords cuts a line's characters into words: at the spaces the
// recogniser wrote, and at the gaps isSpace finds.
func splitWords(l textLine, p float64) [][]char {
	var words [][]char
	var cur []char
	for _, c := range l.chars {
		if strings.TrimSpace(c.text) == "" {
			if len(cur) > 0 {
				words = append(words, cur)
				cur = nil
			}
			continue
		}
		if len(cur) > 0 && !inNumber(cur, c) && isSpace(l, cur[len(cur)-1], c, p) {
			words = append(words, cur)
			cur = nil
		}
		cur = append(cur, c)
	}
	if len(cur) > 0 {
		words = append(words, cur)
	}
	return words
}

// inNumber says whether c continues a number: a digit after a digit and a
// separator ("5/3", "22:52", "9.00"), or a separator after a digit.
func inNumber(cur []char, c char) bool {
	digit := func(s string) bool { return len(s) == 1 && s[0] >= '0' && s[0] <= '9' }
	sep := func(s string) bool { return len(s) == 1 && strings.Contains("/:.,", s) }
	a := cur[len(cur)-1].text
	if digit(a) && sep(c.text) {
		return true
	}
	return digit(c.text) && sep(a) && len(cur) >= 2 && digit(cur[len(cur)-2].text)
}

// SpaceGap sets spaces from the ink: a run of blank columns between two characters at least this
// many times the text's height is a space (measured: see
// TestSpacingAgainstTranscripts).
var SpaceGap = 0.35

// isSpace says whether a space stands between characters a and b of line
// l: the widest run of blank columns between their centres against the
// text's height, or, where the crop shows no ink, their distance in time
// steps against the line's pitch p.
func isSpace(l textLine, a, b char, p float64) bool {
	if l.inkH <= 0 || len(l.ink) == 0 {
		return centre(b)-centre(a) > SpaceFactor*p
	}
	gap := SpaceGap
	if besideDigitOne(a, b) {
		gap = SpaceGapOne
	}
	return blankRun(l, a, b) >= max(gap*l.inkH, SpaceSpread*l.letterGap)
}

// SpaceGapOne is SpaceGap between two digits one of which is a 1: in
// proportional print a 1 stands narrow in a digit's full width, and the
// blank beside it is as wide as a space in a line of other digits
// ("12/1 1/2024", "F2024-1 183" for an invoice's 12/11/2024 and F2024-1183;
// "81 100" for a Malaysian postcode, "29/1 1/2017" for a date). Measured
// with TestSpacingAgainstTranscripts (-spacing.set sroie-dev): 0.35 to 0.8
// cut words alike (91.2–91.5%); whole evals of the real sets, 0.7 against
// 0.5: two more sroie-more dates read whole, no field lost (0.5 is the
// least that joins a Helvetica invoice's 1s; 0.6 already joins the space
// of "Served by: 41 5/1/2019", which no field needs).
var SpaceGapOne = 0.7

// besideDigitOne says whether a and b are digits, one of them a 1.
func besideDigitOne(a, b char) bool {
	digit := func(s string) bool { return len(s) == 1 && s[0] >= '0' && s[0] <= '9' }
	return digit(a.text) && digit(b.text) && (a.text == "1" || b.text == "1")
}

// SpaceSpread sets spaces in letter-spaced headings: in widely spaced print ("T o t a l") a space is also at
// least this many times the line's usual gap between letters.
var SpaceSpread = 2.0

// letterGap is the median blank run between a line's neighbouring
// characters: the gap between letters of a word on most lines.
func letterGap(l textLine) float64 {
	var runs []float64
	for i := 1; i < len(l.chars); i++ {
		if strings.TrimSpace(l.chars[i].text) != "" && strings.TrimSpace(l.chars[i-1].text) != "" {
			runs = append(runs, blankRun(l, l.chars[i-1], l.chars[i]))
		}
	}
	if len(runs) < 4 {
		return 0
	}
	sort.Float64s(runs)
	return runs[len(runs)/2]
}

// blankRun is the widest run of inkless crop columns between the centres
// of characters a and b.
func blankRun(l textLine, a, b char) float64 {
	x0 := int((centre(a) + 0.5) * l.px)
	x1 := min(len(l.ink), int((centre(b)+0.5)*l.px))
	run, best := 0, 0
	for x := max(0, x0); x < x1; x++ {
		if l.ink[x] {
			run = 0
			continue
		}
		run++
		best = max(best, run)
	}
	return float64(best)
}

// rows groups the regions into text lines in reading order: regions that
// share most of their height are on one row (a receipt's "TOTAL" and its
// amount far to the right are two regions), rows top to bottom, regions
// left to right. Height and order are measured across the page's text
// (pageSkew) where the row is: on a photo taken a few degrees askew, an
// amount at the right edge sits a line lower on the page than its label,
// yet on its row.
func rows(lines []textLine) [][]int {
	idx := make([]int, 0, len(lines))
	for i, l := range lines {
		if len(l.chars) > 0 {
			idx = append(idx, i)
		}
	}
	skew := pageSkew(lines)
	directions := func(y float64) (along, across [2]float64) {
		a := skew.at(y)
		return [2]float64{math.Cos(a), math.Sin(a)}, [2]float64{-math.Sin(a), math.Cos(a)}
	}
	type span struct{ y0, y1 float64 }
	// extent is region i's height across the text, its middle part: the
	// unclipped box is taller than the ink; its middle three fifths are
	// the text.
	extent := func(i int, across [2]float64) span {
		y0, y1 := lines[i].b.extent(across)
		pad := (y1 - y0) * 0.2
		return span{y0 + pad, y1 - pad}
	}
	_, across := directions(skew.y0)
	centre := func(i int) float64 { return dot(lines[i].b.c, across) }
	sort.SliceStable(idx, func(a, b int) bool { return centre(idx[a]) < centre(idx[b]) })
	// A row is measured across the text where its first region is.
	type row struct {
		regions       []int
		along, across [2]float64
		span          span
	}
	var out []row
	for _, i := range idx {
		best, bestShare := -1, 0.0
		// Only the last few rows can hold a region this low.
		for r := max(0, len(out)-3); r < len(out); r++ {
			rs, e := out[r].span, extent(i, out[r].across)
			shared := min(e.y1, rs.y1) - max(e.y0, rs.y0)
			share := shared / min(e.y1-e.y0, rs.y1-rs.y0)
			if share > 0.5 && share > bestShare && !overlapsAcross(lines, out[r].regions, i, out[r].along) {
				best, bestShare = r, share
			}
		}
		if best >= 0 {
			out[best].regions = append(out[best].regions, i)
			continue
		}
		along, across := directions(lines[i].b.c[1])
		out = append(out, row{regions: []int{i}, along: along, across: across, span: extent(i, across)})
	}
	regions := make([][]int, len(out))
	for n, r := range out {
		sort.SliceStable(r.regions, func(a, b int) bool {
			return dot(lines[r.regions[a]].b.c, r.along) < dot(lines[r.regions[b]].b.c, r.along)
		})
		regions[n] = r.regions
	}
	return regions
}

// A page's text is taken as askew when its long regions run at least
// minSkew from the horizontal (a straight scan's rows stay exactly as
// measured on the page) and at most maxSkew (beyond, the regions' own
// directions are no longer the page's), and the middle half of their
// directions lie within skewSpread of one angle, or of one that turns
// steadily from the top of the page to its foot: a receipt photographed
// at a slant and in perspective runs at 5.5° at its head and 3.5° at its
// foot. Where the directions scatter (a receipt bent along its lines), no
// angle fits its rows.
const (
	minSkew    = 0.5 * math.Pi / 180
	maxSkew    = 15 * math.Pi / 180
	skewSpread = 1 * math.Pi / 180
)

// skew is the page's text direction, in radians from the horizontal
// (positive running down to the right), at height y on the page: a + b·(y − y0).
type skew struct{ a, b, y0 float64 }

func (s skew) at(y float64) float64 { return s.a + s.b*(y-s.y0) }

// pageSkew is the direction of the page's text from its regions three
// times longer than high (their direction is sure), of which there must be
// four: their median, or the line through their directions down the page
// where the median leaves them too scattered; none (0) where neither fits
// (see skewSpread).
func pageSkew(lines []textLine) skew {
	var ys, angles []float64
	for _, l := range lines {
		if len(l.chars) == 0 || l.b.l < 3*l.b.h {
			continue
		}
		u := l.b.u
		if u[0] < 0 {
			u = [2]float64{-u[0], -u[1]}
		}
		ys, angles = append(ys, l.b.c[1]), append(angles, math.Atan2(u[1], u[0]))
	}
	if len(angles) < 4 {
		return skew{}
	}
	sorted := slices.Sorted(slices.Values(angles))
	a := sorted[len(sorted)/2]
	if math.Abs(a) < minSkew || math.Abs(a) > maxSkew {
		return skew{}
	}
	if middleHalf(sorted) <= skewSpread {
		return skew{a: a}
	}
	s, ok := skewDownThePage(ys, angles)
	if !ok {
		return skew{}
	}
	return s
}

// skewDownThePage fits the regions' directions as a line down the page
// (least squares, fitted again without the regions more than two spreads
// off), and takes it where the middle half of what is left lies within
// skewSpread of it and it stays within maxSkew over the regions' heights.
func skewDownThePage(ys, angles []float64) (skew, bool) {
	fit := func(keep []bool) skew {
		var n, sy, sa float64
		for i := range ys {
			if keep[i] {
				n, sy, sa = n+1, sy+ys[i], sa+angles[i]
			}
		}
		y0, a0 := sy/n, sa/n
		var syy, sya float64
		for i := range ys {
			if keep[i] {
				syy += (ys[i] - y0) * (ys[i] - y0)
				sya += (ys[i] - y0) * (angles[i] - a0)
			}
		}
		if syy == 0 {
			return skew{a: a0, y0: y0}
		}
		return skew{a: a0, b: sya / syy, y0: y0}
	}
	keep := make([]bool, len(ys))
	for i := range keep {
		keep[i] = true
	}
	s := fit(keep)
	var residuals []float64
	for i := range ys {
		keep[i] = math.Abs(angles[i]-s.at(ys[i])) <= 2*skewSpread
		if keep[i] {
			residuals = append(residuals, angles[i]-s.at(ys[i]))
		}
	}
	if len(residuals) < 4 || len(residuals) < len(ys)*3/4 {
		return skew{}, false
	}
	s = fit(keep)
	residuals = residuals[:0]
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range ys {
		if keep[i] {
			residuals = append(residuals, angles[i]-s.at(ys[i]))
			lo, hi = min(lo, ys[i]), max(hi, ys[i])
		}
	}
	slices.Sort(residuals)
	if middleHalf(residuals) > skewSpread || max(math.Abs(s.at(lo)), math.Abs(s.at(hi))) > maxSkew {
		return skew{}, false
	}
	return s, true
}

// middleHalf is the spread of the middle half of sorted values.
func middleHalf(sorted []float64) float64 {
	return sorted[len(sorted)*3/4] - sorted[len(sorted)/4]
}

// overlapsAcross says whether region i overlaps any of the row's regions
// along the text (direction along) by more than a third of the narrower:
// then it is on another line, however close.
func overlapsAcross(lines []textLine, row []int, i int, along [2]float64) bool {
	x0, x1 := lines[i].b.extent(along)
	for _, j := range row {
		a0, a1 := lines[j].b.extent(along)
		if min(x1, a1)-max(x0, a0) > min(x1-x0, a1-a0)/3 {
			return true
		}
	}
	return false
}

func dot(a, b [2]float64) float64 { return a[0]*b[0] + a[1]*b[1] }

// wordsOf turns the page's line readings into words with boxes on page,
// numbered by row.
func wordsOf(lines []textLine, page int) []inference.Word {
	fallback := pagePitch(lines)
	var out []inference.Word
	for n, row := range rows(lines) {
		for _, i := range row {
			l := lines[i]
			p := pitch(l.chars, fallback)
			for _, w := range splitWords(l, p) {
				var text strings.Builder
				var alts []inference.Alt
				conf, at := 0.0, 0
				for _, c := range w {
					if a, ok := secondChoice(c); ok {
						alts = append(alts, inference.Alt{At: at, Text: a, P: float64(c.altP)})
					}
					text.WriteString(c.text)
					conf += float64(c.conf)
					at += utf8.RuneCountInString(c.text)
				}
				out = append(out, inference.Word{
					Text: text.String(), Conf: conf / float64(len(w)), Line: n,
					Box:  wordBox(l, w[0].first, w[len(w)-1].last+1, page),
					Alts: alts,
				})
			}
		}
	}
	return out
}

// minAltP: a second choice less likely than this is no evidence.
const minAltP = 0.05

// secondChoice is c's second choice worth keeping: a letter or digit other
// than c's own, in any case, and not too unlikely.
func secondChoice(c char) (string, bool) {
	r, n := utf8.DecodeRuneInString(c.alt)
	if c.altP < minAltP || n != len(c.alt) || !(unicode.IsLetter(r) || unicode.IsDigit(r)) || r > unicode.MaxASCII ||
		strings.EqualFold(c.alt, c.text) {
		return "", false
	}
	return c.alt, true
}

// wordBox is the page box of time steps [from, to) of a line: the part of
// the region they cover, with half a step's margin.
func wordBox(l textLine, from, to int, page int) receipt.Box {
	a := max(0, (float64(from)-0.5)/l.width)
	z := min(1, (float64(to)+0.5)/l.width)
	if z <= a {
		a, z = 0, 1
	}
	b := l.b
	shift := (a+z)/2 - 0.5
	b.c = [2]float64{b.c[0] + shift*b.l*b.u[0], b.c[1] + shift*b.l*b.u[1]}
	b.l *= z - a
	// The unclipped region is taller than the text: a word's box is its ink.
	grow := b.h - b.h/(1+unclipRatio*0.6)
	b.h -= grow
	x0, y0, x1, y1 := b.bounds()
	return receipt.Box{
		Page: page, X: int(math.Floor(max(0, x0))), Y: int(math.Floor(max(0, y0))),
		W: int(math.Ceil(x1 - max(0, x0))), H: int(math.Ceil(y1 - max(0, y0))),
	}
}
