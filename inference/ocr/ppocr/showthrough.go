package ppocr

import (
	"context"
	"sort"
)

// Thin receipt paper, scanned or photographed against the light, shows
// what is printed on its back (the terms of a card payment, a loyalty
// scheme's small print): faint lines, mirrored. The recogniser reads them
// as nonsense ("bnaneaeoinoeepns metaya", "System angeschlossen sind,"
// mirrored) that the rules would take for a name over the logo, an
// address's words or an item. A line faint beside the page's print that
// the recogniser reads surer mirrored is the back's, and is left out.
// Faded print of the front reads worse mirrored ("Tax" read 0.98, mirrored
// "x6T" 0.49), so a faded receipt keeps its faint lines.
const (
	// faintContrast: a line whose contrast is under this share of the
	// page's strong print (its lines' 90th percentile) is faint. On the
	// dev scans the back's print showed 0.10–0.16 of it, faded front print
	// 0.15–0.35.
	faintContrast = 0.35
	// mirroredGain is how much surer (mean character confidence) a faint
	// line must read mirrored to be the back's: 0.2–0.4 on the back's
	// lines of the dev scans.
	mirroredGain = 0.1
	// backLines is how many lines must read surer mirrored before a page
	// is taken to show its back.
	backLines = 3
)

// leaveOutShowThrough drops the lines of the page that are the back of the
// paper showing through (see faintContrast): its faint lines are read
// again mirrored, a second recognition of those lines alone.
func (r *Reader) leaveOutShowThrough(ctx context.Context, page *rgb, lines []textLine, t *Timings) ([]textLine, error) {
	var contrasts []float64
	for _, l := range lines {
		if len(l.chars) > 0 {
			contrasts = append(contrasts, l.contrast)
		}
	}
	if len(contrasts) < 4 {
		return lines, nil
	}
	sort.Float64s(contrasts)
	strong := contrasts[len(contrasts)*9/10]
	var faint []int
	var mirrored []box
	for i, l := range lines {
		if len(l.chars) > 0 && l.contrast < faintContrast*strong {
			b := l.b
			b.u = [2]float64{-b.u[0], -b.u[1]} // read from its right end: mirrored
			faint, mirrored = append(faint, i), append(mirrored, b)
		}
	}
	if len(faint) == 0 {
		return lines, nil
	}
	back, err := r.recognise(ctx, page, mirrored, t)
	if err != nil {
		return nil, err
	}
	drop := make(map[int]bool, len(faint))
	backContrast := 0.0 // the strongest of the back's lines
	for k, i := range faint {
		if meanConf(back[k]) > meanConf(lines[i])+mirroredGain {
			drop[i] = true
			backContrast = max(backContrast, lines[i].contrast)
		}
	}
	// A page that shows its back in several lines shows it in the lines
	// that read as well mirrored as not, as faint as those: digits and
	// letters that mirror into themselves ("00.08", mirrored 80.00; "A",
	// "H", "O"). A faint line of the front still reads clearly better
	// upright.
	if len(drop) >= backLines {
		for k, i := range faint {
			if lines[i].contrast <= backContrast && meanConf(back[k]) >= meanConf(lines[i])-mirroredGain {
				drop[i] = true
			}
		}
	}
	out := make([]textLine, 0, len(lines)-len(drop))
	for i, l := range lines {
		if !drop[i] {
			out = append(out, l)
		}
	}
	t.ShowThrough = len(drop)
	return out, nil
}

// meanConf is a line's mean character confidence (0 with no characters).
func meanConf(l textLine) float64 {
	if len(l.chars) == 0 {
		return 0
	}
	sum := 0.0
	for _, c := range l.chars {
		sum += float64(c.conf)
	}
	return sum / float64(len(l.chars))
}
