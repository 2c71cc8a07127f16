package ocr

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/receipt"
)

// SROIE 076 prints its date just above a dashed rule; the page reading
// garbles that line, and read alone it loses both slashes ("27032018").
func TestOCRReadsADateWhoseSlashesWereLost(t *testing.T) {
	r := extractSROIE(t, "076.jpg", func(*Options) {})
	if got := r.Date.Value.Format("2006-01-02"); !r.Date.Set || got != "2018-03-27" {
		t.Errorf("date %q (set %v), want 2018-03-27", got, r.Date.Set)
	}
}

// A line read again alone replaces its garbled page reading, in page
// coordinates; lines not chosen stay as they were.
func TestRereadLinesReadsTheChosenLinesAgain(t *testing.T) {
	eng, pr := readHardwareReceipt(t)
	lines := fields.GroupLines(pr.words)
	dateAt := -1
	for i, l := range lines {
		if strings.Contains(l.Text, "16/07/2025") {
			dateAt = i
		}
	}
	if dateAt < 0 {
		t.Fatalf("the page reading has no date line:\n%+v", lines)
	}
	garbled := append([]fields.Line(nil), lines...)
	garbled[dateAt].Text = strings.Replace(garbled[dateAt].Text, "16/07/2025", "76/07/2025", 1)
	again, n := eng.rereaderOn(pr, new(time.Duration)).Lines(context.Background(), garbled, func(l fields.Line) bool { return strings.Contains(l.Text, "76/07") })
	if n != 1 {
		t.Fatalf("%d lines read again, want 1", n)
	}
	if !strings.Contains(again[dateAt].Text, "16/07/2025") {
		t.Errorf("line read again = %q", again[dateAt].Text)
	}
	if a, b := again[dateAt].Box, lines[dateAt].Box; abs(a.Y-b.Y) > b.H/2 || abs(a.X-b.X) > 2*b.H {
		t.Errorf("box read again %+v, on the page %+v", a, b)
	}
	for i := range lines {
		if i != dateAt && again[i].Text != garbled[i].Text {
			t.Errorf("line %d changed: %q -> %q", i, garbled[i].Text, again[i].Text)
		}
	}
	if d := fields.FindDate(again, eng.opt.Locale, eng.opt.Now()).Value; d.Format("2006-01-02") != "2025-07-16" {
		t.Errorf("date after reading again = %v", d)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// A date read with doubt is read again alone and replaced when the second
// reading is sure; a date read surely is left alone.
func TestDoubtfulDateIsReadAgain(t *testing.T) {
	eng, pr := readHardwareReceipt(t)
	for _, tc := range []struct {
		name string
		conf float64 // of the garbled date word
		want string
	}{
		{"doubtful: read again", 0.5, "2025-07-16"},
		{"sure: kept as read", 0.95, "2025-06-16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := fields.GroupLines(pr.words)
			for i, l := range lines {
				for j, w := range l.Words {
					if w.Text == "16/07/2025" {
						lines[i].Words[j].Text, lines[i].Words[j].Conf = "16/06/2025", tc.conf
						lines[i].Text = strings.Replace(l.Text, "16/07/2025", "16/06/2025", 1)
					}
				}
			}
			var r receipt.Receipt
			fields.SetDate(&r, fields.FindDate(lines, eng.opt.Locale, eng.opt.Now()))
			if r.Date.Value.Format("2006-01-02") != "2025-06-16" {
				t.Fatalf("garbled date found as %v", r.Date.Value)
			}
			eng.opt.rules(eng.rereaderOn(pr, new(time.Duration))).rereadDoubtfulDate(context.Background(), lines, &r)
			if got := r.Date.Value.Format("2006-01-02"); got != tc.want {
				t.Errorf("date = %s, want %s", got, tc.want)
			}
		})
	}
}

// SROIE 597's name opens with two words the page reading was unsure of
// ("CNE ONE [Rit SEAFOOD…", 15% and 17%); read alone they are right.
func TestOCRRereadsDoubtfulNameWords(t *testing.T) {
	const want = "ONE ONE THREE SEAFOOD RESTAURANT SDN BHD"
	if r := extractSROIE(t, "597.jpg", func(*Options) {}); r.SupplierName.Value != want {
		t.Errorf("supplier %q, want %q", r.SupplierName.Value, want)
	}
	if r := extractSROIE(t, "597.jpg", func(o *Options) { o.RereadNameWords = false }); r.SupplierName.Value == want {
		t.Errorf("supplier %q without reading words again: the test no longer shows the pass at work", r.SupplierName.Value)
	}
}

// A word read again alone replaces its first reading only where keep
// takes the second; the line's text is rebuilt, other words stay.
func TestRereadWordsReplacesWhatKeepTakes(t *testing.T) {
	eng, pr := readHardwareReceipt(t)
	lines := fields.GroupLines(pr.words)
	at, word := -1, -1
	for i, l := range lines {
		for j, w := range l.Words {
			if w.Text == "HAMMER" {
				at, word = i, j
			}
		}
	}
	if at < 0 {
		t.Fatalf("the page reading has no HAMMER:\n%+v", lines)
	}
	garbled := append([]fields.Line(nil), lines...)
	garbled[at].Words = append([]inference.Word(nil), lines[at].Words...)
	garbled[at].Words[word].Text, garbled[at].Words[word].Conf = "HAMMAR", 0.1
	garbled[at].Text = strings.Replace(lines[at].Text, "HAMMER", "HAMMAR", 1)
	which := func(_ fields.Line, w inference.Word) bool { return w.Text == "HAMMAR" }

	again, n := eng.rereaderOn(pr, new(time.Duration)).Words(context.Background(), garbled, which, func(first, second inference.Word) bool { return second.Conf > first.Conf })
	if n != 1 || again[at].Text != lines[at].Text || again[at].Words[word].Box != lines[at].Words[word].Box {
		t.Errorf("%d words read again, line %q, want 1 and %q in the same place", n, again[at].Text, lines[at].Text)
	}
	for i := range lines {
		if i != at && again[i].Text != garbled[i].Text {
			t.Errorf("line %d changed: %q -> %q", i, garbled[i].Text, again[i].Text)
		}
	}
	if again, n := eng.rereaderOn(pr, new(time.Duration)).Words(context.Background(), garbled, which, func(inference.Word, inference.Word) bool { return false }); n != 0 || again[at].Text != garbled[at].Text {
		t.Errorf("%d words replaced against keep, line %q", n, again[at].Text)
	}
}

// A date printed small and grey, as on a phone photo, is read by the close
// look at its own words, enlarged and their contrast stretched.
func TestCloseLookReadsASmallGreyDate(t *testing.T) {
	eng, pr := readHardwareReceipt(t)
	const shrink = 1.6 // its 20-pixel date line to 12 pixels
	small := resizeGray(pr.gray, 1/(shrink*float64(pr.factor)))
	for i, v := range small.Pix {
		small.Pix[i] = uint8(110 + int(v)*60/255) // grey print on grey paper
	}
	at := func(v int) int { return int(float64(v) / shrink) }
	var words []inference.Word
	for _, w := range pr.words {
		w.Box.X, w.Box.Y, w.Box.W, w.Box.H = at(w.Box.X), at(w.Box.Y), at(w.Box.W), at(w.Box.H)
		words = append(words, w)
	}
	photo := pageReading{gray: small, factor: 1}
	var dateLine fields.Line
	for _, l := range fields.GroupLines(words) {
		if strings.Contains(l.Text, "16/07/2025") {
			dateLine = l
		}
	}
	if dateLine.Text == "" {
		t.Fatal("the date's line was not read on the page")
	}
	again, ok := eng.opt.rules(eng.rereaderOn(photo, new(time.Duration))).closeLook(context.Background(), dateLine)
	if !ok || !strings.Contains(again.Text, "16/07/2025") {
		t.Errorf("close look read %q (%v), want the date 16/07/2025", again.Text, ok)
	}
	if h := again.Words[0].Box.H; h > 2*dateLine.Box.H {
		t.Errorf("the close look's words are not in page coordinates: %+v", again.Words[0].Box)
	}
	// A date a few pixels high is a speck, not print: no look.
	speck := dateLine
	speck.Words = append([]inference.Word(nil), dateLine.Words...)
	for i := range speck.Words {
		speck.Words[i].Box.H = closeLookMinHeight - 1
	}
	if again, ok := eng.opt.rules(eng.rereaderOn(photo, new(time.Duration))).closeLook(context.Background(), speck); ok {
		t.Errorf("a %d-pixel date was looked at: %q", closeLookMinHeight-1, again.Text)
	}
}
