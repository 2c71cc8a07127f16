package ocr

import (
	"context"
	"strings"
	"time"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// Rereader reads parts of a page again, each alone: the second look the
// rules take at what a page reader left missing or doubtful. Tesseract
// cutting lines and words out of a page image (tessRereader) is the reader
// that reads a cut-out line well: Tesseract's engine rereads on the image
// it read the page from, PP-OCR's on the photo as it is.
type Rereader interface {
	// Lines reads again the lines which chooses, each alone, enlarged, and
	// returns the lines with those readings in their place (a line read
	// as nothing, or as two, keeps its first reading) and how many were
	// read again.
	Lines(ctx context.Context, lines []fields.Line, which func(fields.Line) bool) ([]fields.Line, int)
	// Words reads again alone, enlarged, the words of lines that which
	// chooses, and puts a second reading of one word in place of the
	// first where keep takes it; it returns the lines with their text
	// rebuilt and how many words were replaced.
	Words(ctx context.Context, lines []fields.Line, which func(fields.Line, inference.Word) bool, keep func(first, second inference.Word) bool) ([]fields.Line, int)
	// Line reads what is printed in box alone, at scale (1: as printed);
	// ok is false when it read nothing.
	Line(ctx context.Context, box receipt.Box, scale float64) (fields.Line, bool)
	// CloseUp reads the words in box close up, enlarged and their contrast
	// stretched; ok is false when the box is too small to be print or
	// nothing was read.
	CloseUp(ctx context.Context, box receipt.Box) (fields.Line, bool)
}

// pageRules are the rules both page readers run over their lines after
// fields.ExtractFields: the second looks at what the first reading left
// missing or doubtful, taken through again (nil: nothing is read again, as
// on a PDF's text layer), and what they are weighed with.
type pageRules struct {
	loc   receipt.Locale
	now   time.Time
	again Rereader
}

// rules are the page rules of a reader with these options, reading again
// with again.
func (opt Options) rules(again Rereader) pageRules {
	return pageRules{loc: opt.Locale, now: opt.Now(), again: again}
}

// mending says what pageRules.mend does for one page reader.
type mending struct {
	// ownDates looks for a missing date in the lines that may hide one,
	// read again, and reads a doubtful date's line again: Tesseract
	// rereading its own page. PP-OCR's date gets its second reader's
	// looks instead (secondLooks).
	ownDates bool
	// alternatives mends the name's and address's words from the page
	// reader's own other readings of them (PP-OCR's).
	alternatives bool
	// doubtful says which of the name's and address's words are read
	// again, better whether a second reading takes a word's place on a
	// page that prints the spellings printed; nil doubtful reads none
	// again.
	doubtful func(inference.Word) bool
	better   func(printed fields.PageSpellings, pk *packs.Pack, first, second inference.Word) bool
}

// mend mends r, found in lines, where the first reading left it in
// doubt, in this order: a missing or doubtful date read again
// (ownDates); a date that cannot be as read, repaired from one common
// digit misreading or a lost separator ("64/06/2024", "2703/2018"); the
// name's and address's words mended from the reader's alternatives, then
// read again. It returns the lines the date was last read from and the
// lines with the name's words mended from the alternatives.
func (s pageRules) mend(ctx context.Context, r *receipt.Receipt, lines []fields.Line, m mending) (dateLines, named []fields.Line) {
	dateLines = lines
	if m.ownDates && s.again != nil {
		// A date the page reading garbled ("72/01/2017", or a whole line
		// read as "ne?! )| eso.") is often read right when its line is
		// read alone, enlarged. Only the date is taken from these
		// readings: other fields keep the page's.
		if !r.Date.Set {
			if again, n := s.again.Lines(ctx, lines, fields.MayHideDate); n > 0 {
				d := fields.FindDate(again, s.loc, s.now)
				d.Confidence *= fields.SecondReading // read from a line alone: less sure
				d.Why = "a line read again alone: " + d.Why
				fields.SetDate(r, d)
				dateLines = again
			}
		} else if r.Date.Box != nil {
			s.rereadDoubtfulDate(ctx, lines, r)
		}
	}
	if !r.Date.Set {
		fields.SetDate(r, fields.RepairedDate(s.loc, s.now, dateLines, lines))
	}
	named = lines
	within := nameAndAddressLines(*r)
	pk, _ := packs.Get(r.PrintedIn.Value)
	if m.alternatives && within != nil {
		if mended, n := fields.MendFromAlternatives(lines, within, pk); n > 0 {
			named = mended
			takeNameAndAddress(r, fields.ExtractFields(named, s.loc, s.now))
		}
	}
	if m.doubtful != nil && s.again != nil {
		printed := fields.CountPageWords(named)
		s.mendNameWords(ctx, named, r, m.doubtful, func(first, second inference.Word) bool { return m.better(printed, pk, first, second) })
	}
	return dateLines, named
}

// A date whose digits the page reading was unsure of (under
// doubtfulDateConf) is read again alone; the second reading replaces it
// only when its digits are read with sureDateConf or more and clearly
// surer than the first time. On SROIE 467 "20/06/2018" (74%) is read again
// as "20/05/2018" (97%). Of the 25 doubtful dates on SROIE, 5 others are
// read again surer and the same, and none surer and different. On a
// synthetic UK phone photo "07/09/25" (62%) was read again as "07/29/25"
// (92%), which parses only with day and month swapped: a second reading
// may change one part of the date, no more.
const (
	doubtfulDateConf = 0.8
	sureDateConf     = 0.9
)

// rereadDoubtfulDate reads again alone the line r's date was found on,
// when its date was read with doubt, and takes the date read then when it
// is clearly surer.
func (s pageRules) rereadDoubtfulDate(ctx context.Context, lines []fields.Line, r *receipt.Receipt) {
	at := -1
	for i, l := range lines {
		if l.Box == *r.Date.Box {
			at = i
			break
		}
	}
	if at < 0 {
		return
	}
	first := fields.DateDigitsConf(lines[at])
	if first >= doubtfulDateConf {
		return
	}
	again, n := s.again.Lines(ctx, lines[at:at+1], func(fields.Line) bool { return true })
	if n == 0 {
		return
	}
	second := fields.DateDigitsConf(again[0])
	if second < sureDateConf || second < first+0.15 {
		return
	}
	if d := fields.FindDate(again, s.loc, s.now); d.Set && fields.OneDatePartApart(d.Value, r.Date.Value) {
		d.Confidence *= fields.SecondReading
		d.Why = "the date's line read again alone, surer: " + d.Why
		fields.SetDate(r, d)
	}
}

// A word of the supplier's name or address that Tesseract's page reading
// was unsure of (under doubtfulWordConf) is read again alone, enlarged,
// and the second reading replaces it when it is read with sureWordConf or
// more, surer by wordConfGain, and keeps every letter and digit: on SROIE
// 597 "CNE ONE [Rit SEAFOOD" (15%, 17%) is read again "ONE" (89%) and
// "THREE" (90%); on 183 the house number "16" (2%) is read again "15"
// (92%). A reading that loses a character ("81750" as "§1750", 88%) or
// leaves only marks ("ON" as "‘", 86%) is no better, however sure. A
// number needs what a date's digits need (sureDateConf): no word list
// checks it, and a synthetic phone photo's postcode "6000" (57%) was read
// again "6008" (87%).
const (
	doubtfulWordConf = 0.6
	sureWordConf     = 0.85
	wordConfGain     = 0.2
)

// tesseractDoubtful and tesseractBetter are Tesseract's own mending of
// its name words (see doubtfulWordConf).
func tesseractDoubtful(w inference.Word) bool { return w.Conf < doubtfulWordConf }

func tesseractBetter(_ fields.PageSpellings, _ *packs.Pack, first, second inference.Word) bool {
	sure := sureWordConf
	if fields.HasDigit(second.Text) {
		sure = sureDateConf // no word list checks a number
	}
	return second.Conf >= sure && second.Conf >= first.Conf+wordConfGain
}

// mendNameWords reads again the words of r's supplier name and address
// lines that doubtful chooses, puts a second reading in place of the
// first where better takes it and keeps every letter and digit, and takes
// the name and address found in the lines so mended.
func (s pageRules) mendNameWords(ctx context.Context, lines []fields.Line, r *receipt.Receipt, doubtful func(inference.Word) bool, better func(first, second inference.Word) bool) {
	within := nameAndAddressLines(*r)
	if within == nil {
		return
	}
	again, n := s.again.Words(ctx, lines, func(l fields.Line, w inference.Word) bool {
		return doubtful(w) && alnumCount(w.Text) >= 2 && within(l)
	}, func(first, second inference.Word) bool {
		return better(first, second) && alnumCount(second.Text) >= alnumCount(first.Text)
	})
	if n == 0 {
		return
	}
	takeNameAndAddress(r, fields.ExtractFields(again, s.loc, s.now))
}

// nameAndAddressLines says which lines hold r's supplier name and address;
// nil when r has neither.
func nameAndAddressLines(r receipt.Receipt) func(fields.Line) bool {
	var boxes []receipt.Box
	for _, f := range []receipt.Text{r.SupplierName, r.SupplierAddress} {
		if f.Box != nil {
			boxes = append(boxes, *f.Box)
		}
	}
	if len(boxes) == 0 {
		return nil
	}
	// A line's middle, not its box: the page's line keeps the specks at
	// its edges that the field's box was trimmed of.
	return func(l fields.Line) bool {
		mid := l.Box.Y + l.Box.H/2
		for _, b := range boxes {
			if mid >= b.Y && mid <= b.Y+b.H {
				return true
			}
		}
		return false
	}
}

// takeNameAndAddress puts the name and address found in a mended reading
// of the page into r.
func takeNameAndAddress(r *receipt.Receipt, mended receipt.Receipt) {
	if mended.SupplierName.Set {
		r.SupplierName = mended.SupplierName
	}
	if mended.SupplierAddress.Set {
		r.SupplierAddress = mended.SupplierAddress
	}
}

// secondLookScale is the size at which a value's line is read again alone
// as a second look (fields.Assess). Unscaled, it differs most from the
// rereads at rereadScale that may have given the value, and on the dev
// sets it agreed with right values more often than at 1.5, 2 or 3.
const secondLookScale = 1.0

// largerLookScale is the size of the look taken when the first read no
// value at all.
const largerLookScale = 2.0

// secondLooks reads the total's and the date's lines again alone, for
// fields.Assess to compare with the page's reading. A look that reads no
// amount (or no date) at all is no reading: the line is looked at once
// more, larger. The date's own words on lines, another reader's reading
// of the page, are looked at close as well; nil lines, no close look:
// Tesseract looking close at the date it misread itself reads the same
// misreading again (SROIE 239's 04/04/17 for 06/04/17 then outweighed
// PP-OCR's date).
func (s pageRules) secondLooks(ctx context.Context, r receipt.Receipt, lines []fields.Line) []fields.Reading {
	return s.looksAt(ctx, r, lines, true, true)
}

// dateLooks are secondLooks at the date alone.
func (s pageRules) dateLooks(ctx context.Context, r receipt.Receipt, lines []fields.Line) []fields.Reading {
	return s.looksAt(ctx, r, lines, false, true)
}

// totalLooks are secondLooks at the total alone.
func (s pageRules) totalLooks(ctx context.Context, r receipt.Receipt, lines []fields.Line) []fields.Reading {
	return s.looksAt(ctx, r, lines, true, false)
}

// looksAt reads again, withTotal, the total's line and, withDate, the
// date's (and its words close up, where lines are given).
func (s pageRules) looksAt(ctx context.Context, r receipt.Receipt, lines []fields.Line, withTotal, withDate bool) []fields.Reading {
	if s.again == nil {
		return nil
	}
	var out []fields.Reading
	for _, f := range []struct {
		of    string
		box   *receipt.Box
		reads func(fields.Line) bool
	}{
		{"total", r.Total.Box, fields.HasAmount},
		{"date", r.Date.Box, func(l fields.Line) bool { return fields.HasDate(l, s.loc, s.now) }},
	} {
		if f.box == nil || f.of == "total" && !withTotal || f.of == "date" && !withDate {
			continue
		}
		for _, scale := range []float64{secondLookScale, largerLookScale} {
			again, ok := s.again.Line(ctx, *f.box, scale)
			if !ok {
				continue
			}
			out = append(out, fields.Reading{Name: "the " + f.of + "'s line read again alone", Lines: []fields.Line{again}, Of: f.of})
			if f.reads(again) {
				break
			}
		}
	}
	if r.Date.Box != nil && withDate {
		for _, l := range lines {
			if l.Box != *r.Date.Box {
				continue
			}
			if again, ok := s.closeLook(ctx, l); ok {
				out = append(out, fields.Reading{Name: "the date read again alone, enlarged", Lines: []fields.Line{again}, Of: "date"})
			}
			break
		}
	}
	return out
}

// closeLook reads again close up the words of a line that print its date;
// ok is false when the line prints no date in up to three words, or
// nothing was read.
func (s pageRules) closeLook(ctx context.Context, l fields.Line) (fields.Line, bool) {
	box, ok := fields.DateWordsBox(l, s.loc, s.now)
	if !ok {
		return fields.Line{}, false
	}
	return s.again.CloseUp(ctx, box)
}

// supplierLook reads the supplier's name again, each of its lines alone
// (a name broken over two lines is read as two), for fields.Assess to
// compare with the page's reading; nil when its letters are backed
// already or nothing was read.
func (s pageRules) supplierLook(ctx context.Context, r receipt.Receipt, lines []fields.Line) []fields.Reading {
	box := supplierLookBox(r)
	if box == nil || s.again == nil {
		return nil
	}
	var parts []string
	for _, l := range lines {
		cx, cy := l.Box.X+l.Box.W/2, l.Box.Y+l.Box.H/2
		if l.Box.W == 0 || cx < box.X || cx > box.X+box.W || cy < box.Y || cy > box.Y+box.H {
			continue
		}
		again, ok := s.again.Line(ctx, l.Box, secondLookScale)
		if !ok {
			return nil
		}
		parts = append(parts, strings.TrimSpace(again.Text))
	}
	if len(parts) == 0 {
		return nil
	}
	return []fields.Reading{{Name: "the supplier's name read again alone", Lines: []fields.Line{{Text: strings.Join(parts, " ")}}, Of: "supplier"}}
}

// supplierLookBox is the box of a supplier's name worth a second look: a
// name whose letters nothing else backs yet; nil otherwise.
func supplierLookBox(r receipt.Receipt) *receipt.Box {
	s := r.SupplierName
	if !s.Set || s.Box == nil || receipt.LettersBacked(s.Support) || receipt.SureName(s) || s.Doubt != "" || s.Source != receipt.SourceOCR || s.Box.H > 3*s.Box.W {
		return nil
	}
	return s.Box
}
