package ppocr

import (
	"context"
	"encoding/csv"
	"flag"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var spacingAll = flag.String("spacing.set", "", "measure word spacing on every receipt of this shared/data set (sroie-dev, sroie-more) and print a table of thresholds")

// gtLine is one line of a SROIE transcript (NNN.box.csv): its box and text.
type gtLine struct {
	x0, y0, x1, y1 float64
	text           string
}

func readTranscript(t testing.TB, path string) []gtLine {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []gtLine
	for _, row := range rows {
		if len(row) < 9 {
			continue
		}
		var c [8]float64
		for i := range c {
			c[i], _ = strconv.ParseFloat(strings.TrimSpace(row[i]), 64)
		}
		l := gtLine{x0: math.Inf(1), y0: math.Inf(1), x1: math.Inf(-1), y1: math.Inf(-1), text: strings.Join(row[8:], ",")}
		for i := 0; i < 8; i += 2 {
			l.x0, l.x1 = min(l.x0, c[i]), max(l.x1, c[i])
			l.y0, l.y1 = min(l.y0, c[i+1]), max(l.y1, c[i+1])
		}
		out = append(out, l)
	}
	return out
}

// pairSample is one pair of neighbouring characters of a line whose letters
// match the transcript's: what the rules see, and whether the transcript
// has a space there.
type pairSample struct {
	explicit   bool
	number     bool // inNumber holds: never a space
	one        bool // two digits, one a 1 (besideDigitOne)
	run, inkH  float64
	letterGap  float64
	steps, pit float64
	space      bool
	line       int // index of its line among the matched ones
}

// spacingSamples reads the receipts and returns the character pairs of
// the regions whose letters equal their transcript line's.
func spacingSamples(t testing.TB, r *Reader, images []string) (samples []pairSample, lines, regions int) {
	for _, img := range images {
		gt := readTranscript(t, strings.TrimSuffix(img, ".jpg")+".box.csv")
		pg := loadPage(t, img)
		src := toRGB(pg.Image)
		var tm Timings
		boxes, err := r.detect(context.Background(), src, &tm)
		if err != nil {
			t.Fatal(err)
		}
		tls, err := r.recognise(context.Background(), src, boxes, &tm)
		if err != nil {
			t.Fatal(err)
		}
		fallback := pagePitch(tls)
		for _, l := range tls {
			regions++
			x0, y0, x1, y1 := l.b.bounds()
			best, bestIoU := -1, 0.0
			for i, g := range gt {
				ix := min(x1, g.x1) - max(x0, g.x0)
				iy := min(y1, g.y1) - max(y0, g.y0)
				if ix <= 0 || iy <= 0 {
					continue
				}
				inter := ix * iy
				iou := inter / ((x1-x0)*(y1-y0) + (g.x1-g.x0)*(g.y1-g.y0) - inter)
				if iou > bestIoU {
					best, bestIoU = i, iou
				}
			}
			if best < 0 || bestIoU < 0.2 {
				continue
			}
			var ours []char
			explicit := map[int]bool{}
			for _, c := range l.chars {
				if strings.TrimSpace(c.text) == "" {
					explicit[len(ours)] = true
					continue
				}
				ours = append(ours, c)
			}
			want := strings.ToUpper(gt[best].text)
			var letters []rune
			var spaceBefore []bool
			sp := false
			for _, ch := range want {
				if ch == ' ' {
					sp = true
					continue
				}
				letters = append(letters, ch)
				spaceBefore = append(spaceBefore, sp)
				sp = false
			}
			var got []rune
			for _, c := range ours {
				got = append(got, []rune(strings.ToUpper(c.text))...)
			}
			if string(got) != string(letters) || len(got) != len(ours) || len(ours) < 2 {
				continue
			}
			p := pitch(l.chars, fallback)
			for i := 1; i < len(ours); i++ {
				samples = append(samples, pairSample{
					explicit: explicit[i], number: inNumber(ours[:i], ours[i]), one: besideDigitOne(ours[i-1], ours[i]), letterGap: l.letterGap, run: blankRun(l, ours[i-1], ours[i]), inkH: l.inkH,
					steps: centre(ours[i]) - centre(ours[i-1]), pit: p, space: spaceBefore[i], line: lines,
				})
			}
			lines++
		}
	}
	return samples, lines, regions
}

// wordAccuracy is the share of the transcript's words (on the matched
// lines) that a rule cuts exactly, and the share of lines it spaces right.
func wordAccuracy(samples []pairSample, lines int, rule func(pairSample) bool) (words, exactLines float64) {
	// Per line: the pairs in order; a word is right when the cuts at both
	// its ends and none inside agree.
	byLine := make([][]pairSample, lines)
	for _, s := range samples {
		byLine[s.line] = append(byLine[s.line], s)
	}
	right, total, okLines := 0, 0, 0
	for _, ps := range byLine {
		ok := true
		start, wordOK := true, true
		for _, s := range ps {
			cut := rule(s)
			if cut != s.space {
				ok, wordOK = false, false
			}
			if s.space { // the transcript's word ends here
				total++
				if wordOK && start {
					right++
				}
				start, wordOK = cut, true
			}
		}
		total++
		if wordOK && start {
			right++
		}
		if ok {
			okLines++
		}
	}
	return float64(right) / float64(max(1, total)), float64(okLines) / float64(max(1, len(byLine)))
}

func receiptsOf(t testing.TB, set string, n int) []string {
	dir := filepath.Dir(sroie(t, set, "."))
	imgs, _ := filepath.Glob(filepath.Join(dir, set, "*.jpg"))
	var out []string
	for _, img := range imgs {
		if _, err := os.Stat(strings.TrimSuffix(img, ".jpg") + ".box.csv"); err == nil {
			out = append(out, img)
		}
	}
	sort.Strings(out)
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// TestSpacingAgainstTranscripts checks the spaces put back between words
// against the SROIE line transcripts, on the lines whose letters PP-OCR
// read exactly (so that only the spacing is judged). With -spacing.set it
// reads a whole set and prints the word accuracy of other thresholds.
func TestSpacingAgainstTranscripts(t *testing.T) {
	r := testReader(t)
	set, n := "sroie-dev", 6
	if *spacingAll != "" {
		set, n = *spacingAll, 0
	}
	samples, lines, regions := spacingSamples(t, r, receiptsOf(t, set, n))
	words, exact := wordAccuracy(samples, lines, func(s pairSample) bool {
		gap := SpaceGap
		if s.one {
			gap = SpaceGapOne
		}
		return s.explicit || !s.number && s.run >= max(gap*s.inkH, SpaceSpread*s.letterGap)
	})
	t.Logf("%s: %d of %d regions read letter for letter; words cut right %.1f%%, lines spaced right %.1f%%", set, lines, regions, words*100, exact*100)
	if *spacingAll != "" {
		for _, g := range []float64{0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6} {
			w, e := wordAccuracy(samples, lines, func(s pairSample) bool { return s.explicit || !s.number && s.run >= g*s.inkH })
			t.Logf("blank run ≥ %.2f × text height: words %.1f%%, lines %.1f%%", g, w*100, e*100)
		}
		for _, g := range []float64{0.3, 0.35, 0.4, 0.45} {
			for _, k := range []float64{1.5, 2, 2.5, 3, 4} {
				w, e := wordAccuracy(samples, lines, func(s pairSample) bool {
					return s.explicit || !s.number && s.run >= max(g*s.inkH, k*s.letterGap)
				})
				t.Logf("blank run ≥ %.2f × text height and ≥ %.1f × letter gap: words %.1f%%, lines %.1f%%", g, k, w*100, e*100)
			}
		}
		for _, g := range []float64{0.35, 0.5, 0.6, 0.7, 0.8} {
			w, e := wordAccuracy(samples, lines, func(s pairSample) bool {
				return s.explicit || !s.number && s.run >= max(map[bool]float64{false: SpaceGap, true: g}[s.one]*s.inkH, SpaceSpread*s.letterGap)
			})
			t.Logf("beside a digit 1, blank run ≥ %.2f × text height: words %.1f%%, lines %.1f%%", g, w*100, e*100)
		}
		w, e := wordAccuracy(samples, lines, func(s pairSample) bool { return s.explicit || s.run >= SpaceGap*s.inkH })
		t.Logf("without the number rule: words %.1f%%, lines %.1f%%", w*100, e*100)
		for _, f := range []float64{1.2, 1.4, 1.6, 1.8, 2.0} {
			w, e := wordAccuracy(samples, lines, func(s pairSample) bool { return s.explicit || s.steps > f*s.pit })
			t.Logf("centres ≥ %.1f × pitch: words %.1f%%, lines %.1f%%", f, w*100, e*100)
		}
		w, e = wordAccuracy(samples, lines, func(s pairSample) bool { return s.explicit })
		t.Logf("the recogniser's own spaces only: words %.1f%%, lines %.1f%%", w*100, e*100)
	}
	if lines < 20 {
		t.Fatalf("only %d regions read letter for letter", lines)
	}
	if words < 0.85 {
		t.Errorf("words cut right %.1f%%, want ≥ 85%%", words*100)
	}
}
