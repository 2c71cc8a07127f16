package ocr

import (
	"context"
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/receipt"
)

// resizeGray scales a grey image by a factor (bilinear; > 0).
func resizeGray(g *image.Gray, scale float64) *image.Gray {
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	nw, nh := max(1, int(math.Round(float64(w)*scale))), max(1, int(math.Round(float64(h)*scale)))
	out := image.NewGray(image.Rect(0, 0, nw, nh))
	at := func(x, y int) float64 {
		x = max(0, min(w-1, x))
		y = max(0, min(h-1, y))
		return float64(g.Pix[y*g.Stride+x])
	}
	for y := 0; y < nh; y++ {
		fy := (float64(y)+0.5)/scale - 0.5
		y0 := int(math.Floor(fy))
		ay := fy - float64(y0)
		for x := 0; x < nw; x++ {
			fx := (float64(x)+0.5)/scale - 0.5
			x0 := int(math.Floor(fx))
			ax := fx - float64(x0)
			v := at(x0, y0)*(1-ax)*(1-ay) + at(x0+1, y0)*ax*(1-ay) + at(x0, y0+1)*(1-ax)*ay + at(x0+1, y0+1)*ax*ay
			out.Pix[y*out.Stride+x] = uint8(v + 0.5)
		}
	}
	return out
}

// cropLine cuts a line's box out of a page with a margin, on a white border:
// Tesseract reads a single line best with some white around it.
func cropLine(g *image.Gray, box receipt.Box, margin, border int) (*image.Gray, image.Point) {
	r := image.Rect(box.X-margin, box.Y-margin, box.X+box.W+margin, box.Y+box.H+margin).Intersect(g.Bounds())
	out := image.NewGray(image.Rect(0, 0, r.Dx()+2*border, r.Dy()+2*border))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	for y := 0; y < r.Dy(); y++ {
		copy(out.Pix[(y+border)*out.Stride+border:], g.Pix[(r.Min.Y+y)*g.Stride+r.Min.X:(r.Min.Y+y)*g.Stride+r.Max.X])
	}
	return out, r.Min.Sub(image.Pt(border, border))
}

// readLine runs Tesseract (in single-line mode) on one cropped line, scaled,
// and returns its words in page coordinates.
func readLine(c *tessClient, g *image.Gray, box receipt.Box, scale float64, page, line int) ([]inference.Word, error) {
	return readCrop(c, g, box, scale, false, page, line)
}

// readCrop is readLine with, where stretch is set, the crop's contrast
// stretched to black and white first.
func readCrop(c *tessClient, g *image.Gray, box receipt.Box, scale float64, stretch bool, page, line int) ([]inference.Word, error) {
	margin := max(2, box.H/4)
	crop, origin := cropLine(g, box, margin, 8)
	if stretch {
		// The crop's own levels, then its white border.
		bare, at := cropLine(g, box, margin, 0)
		stretchContrast(bare)
		crop, origin = cropLine(bare, receipt.Box{W: bare.Bounds().Dx(), H: bare.Bounds().Dy()}, 0, 8)
		origin = origin.Add(at)
	}
	if scale != 1 {
		crop = resizeGray(crop, scale)
	}
	if err := c.SetImageFromBytes(encodePGM(crop)); err != nil {
		return nil, fmt.Errorf("tesseract could not take the line: %w", err)
	}
	boxes, err := c.GetBoundingBoxesVerbose()
	if err != nil {
		return nil, fmt.Errorf("tesseract failed on a line: %w", err)
	}
	return wordsFromBoxes(boxes, page, origin, scale, func(tessBox) int { return line }), nil
}

// rereadScale enlarges a line read again alone: on SROIE's 150 dpi scans a
// line read alone at 1.5× gave back dates the page reading had garbled
// ("72/01/2017" → "22/01/2017").
const rereadScale = 1.5

// rereadLines reads again, one by one, the lines that which chooses,
// each cut out of the reading's preprocessed page and read in single-line
// mode, and returns the lines with those readings in their place (a line
// read as nothing keeps its first reading) and how many were read again.
func (o *Tesseract) rereadLines(ctx context.Context, reading pageReading, lines []fields.Line, which func(fields.Line) bool) ([]fields.Line, int) {
	c, err := o.lineClient(ctx)
	if err != nil {
		return lines, 0
	}
	defer func() { o.lines <- c }()
	out := append([]fields.Line(nil), lines...)
	n := 0
	for i, l := range lines {
		if l.Box.W <= 0 || l.Box.H <= 0 || len(l.Words) == 0 || !which(l) {
			continue
		}
		words, err := readLine(c, reading.gray, reading.onGray(l.Box), rereadScale, l.Box.Page, l.Words[0].Line)
		n++
		if err != nil || len(words) == 0 {
			continue
		}
		reading.toPage(words)
		if again := fields.GroupLines(words); len(again) == 1 {
			out[i] = again[0]
		}
	}
	return out, n
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
func (o *Tesseract) rereadDoubtfulDate(ctx context.Context, reading pageReading, lines []fields.Line, r *receipt.Receipt) {
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
	again, n := o.rereadLines(ctx, reading, lines[at:at+1], func(fields.Line) bool { return true })
	if n == 0 {
		return
	}
	second := fields.DateDigitsConf(again[0])
	if second < sureDateConf || second < first+0.15 {
		return
	}
	if d := fields.FindDate(again, o.opt.Locale, o.opt.Now()); d.Set && fields.OneDatePartApart(d.Value, r.Date.Value) {
		d.Confidence *= fields.SecondReading
		d.Why = "the date's line read again alone, surer: " + d.Why
		fields.SetDate(r, d)
	}
}

// rereadWords reads again alone, enlarged, the words of lines that which
// chooses, and puts a second reading of one word in place of the first
// when keep takes it (a reading of more words took in a neighbour's ink,
// on a tilted photo). It returns the lines with their text rebuilt and how
// many words were replaced.
func (o *Tesseract) rereadWords(ctx context.Context, reading pageReading, lines []fields.Line, which func(fields.Line, inference.Word) bool, keep func(first, second inference.Word) bool) ([]fields.Line, int) {
	c, err := o.lineClient(ctx)
	if err != nil {
		return lines, 0
	}
	defer func() { o.lines <- c }()
	out := append([]fields.Line(nil), lines...)
	n := 0
	for i, l := range lines {
		var words []inference.Word
		for j, w := range l.Words {
			if w.Box.W <= 0 || w.Box.H <= 0 || !which(l, w) {
				continue
			}
			read, err := readLine(c, reading.gray, reading.onGray(w.Box), rereadScale, w.Box.Page, w.Line)
			if err != nil || len(read) != 1 {
				continue
			}
			second := w
			second.Text, second.Conf = read[0].Text, read[0].Conf
			if !keep(w, second) {
				continue
			}
			if words == nil {
				words = append([]inference.Word(nil), l.Words...)
			}
			words[j] = second
			n++
		}
		if words != nil {
			out[i] = fields.GroupLines(words)[0]
		}
	}
	return out, n
}

// A word of the supplier's name or address read with less than
// doubtfulWordConf is read again alone, enlarged, and the second reading
// replaces it when it is read with sureWordConf or more, surer by
// wordConfGain, and keeps every letter and digit: on SROIE 597 "CNE ONE
// [Rit SEAFOOD" (15%, 17%) is read again "ONE" (89%) and "THREE" (90%);
// on 183 the house number "16" (2%) is read again "15" (92%). A reading
// that loses a character ("81750" as "§1750", 88%) or leaves only marks
// ("ON" as "‘", 86%) is no better, however sure. A number needs what a
// date's digits need (sureDateConf): no word list checks it, and a
// synthetic phone photo's postcode "6000" (57%) was read again "6008"
// (87%).
const (
	doubtfulWordConf = 0.6
	sureWordConf     = 0.85
	wordConfGain     = 0.2
)

// rereadNameWords reads again the doubtful words of the lines r's
// supplier name and address were found on, and takes the name and address
// found in the lines so mended.
func (o *Tesseract) rereadNameWords(ctx context.Context, reading pageReading, lines []fields.Line, r *receipt.Receipt) {
	o.mendNameWords(ctx, reading, lines, r, func(w inference.Word) bool { return w.Conf < doubtfulWordConf },
		func(first, second inference.Word) bool {
			sure := sureWordConf
			if fields.HasDigit(second.Text) {
				sure = sureDateConf // no word list checks a number
			}
			return second.Conf >= sure && second.Conf >= first.Conf+wordConfGain
		})
}

// mendNameWords reads again alone, with Tesseract, the words of r's
// supplier name and address lines that doubtful chooses, puts a second
// reading in place of the first where better takes it and keeps every
// letter and digit, and takes the name and address found in the lines so
// mended.
func (o *Tesseract) mendNameWords(ctx context.Context, reading pageReading, lines []fields.Line, r *receipt.Receipt, doubtful func(inference.Word) bool, better func(first, second inference.Word) bool) {
	within := nameAndAddressLines(*r)
	if within == nil {
		return
	}
	again, n := o.rereadWords(ctx, reading, lines, func(l fields.Line, w inference.Word) bool {
		return doubtful(w) && alnumCount(w.Text) >= 2 && within(l)
	}, func(first, second inference.Word) bool {
		return better(first, second) && alnumCount(second.Text) >= alnumCount(first.Text)
	})
	if n == 0 {
		return
	}
	takeNameAndAddress(r, fields.ExtractFields(again, o.opt.Locale, o.opt.Now()))
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

// readAgain reads the line in box alone, as a second look at the values
// on it; ok is false when it read nothing.
func (o *Tesseract) readAgain(ctx context.Context, reading pageReading, box receipt.Box, scale float64) (fields.Line, bool) {
	if box.W <= 0 || box.H <= 0 || reading.gray == nil {
		return fields.Line{}, false
	}
	c, err := o.lineClient(ctx)
	if err != nil {
		return fields.Line{}, false
	}
	defer func() { o.lines <- c }()
	words, err := readLine(c, reading.gray, reading.onGray(box), scale, box.Page, 0)
	if err != nil || len(words) == 0 {
		return fields.Line{}, false
	}
	reading.toPage(words)
	return fields.AsOneLine(words), true
}

// secondLooks reads the total's and the date's lines again alone, for
// fields.Assess to compare with the page's reading. A look that reads no
// amount (or no date) at all is no reading: the line is looked at once
// more, larger. The date's own words on lines, another reader's reading
// of the page, are looked at close as well (closeLook); nil lines, no
// close look: Tesseract looking close at the date it misread itself reads
// the same misreading again (SROIE 239's 04/04/17 for 06/04/17 then
// outweighed PP-OCR's date).
func (o *Tesseract) secondLooks(ctx context.Context, reading pageReading, r receipt.Receipt, lines []fields.Line) []fields.Reading {
	var out []fields.Reading
	for _, f := range []struct {
		of    string
		box   *receipt.Box
		reads func(fields.Line) bool
	}{
		{"total", r.Total.Box, fields.HasAmount},
		{"date", r.Date.Box, func(l fields.Line) bool { return fields.HasDate(l, o.opt.Locale, o.opt.Now()) }},
	} {
		if f.box == nil {
			continue
		}
		for _, scale := range []float64{secondLookScale, largerLookScale} {
			again, ok := o.readAgain(ctx, reading, *f.box, scale)
			if !ok {
				continue
			}
			out = append(out, fields.Reading{Name: "the " + f.of + "'s line read again alone", Lines: []fields.Line{again}, Of: f.of})
			if f.reads(again) {
				break
			}
		}
	}
	if r.Date.Box != nil {
		for _, l := range lines {
			if l.Box != *r.Date.Box {
				continue
			}
			if again, ok := o.closeLook(ctx, reading, l); ok {
				out = append(out, fields.Reading{Name: "the date read again alone, enlarged", Lines: []fields.Line{again}, Of: "date"})
			}
			break
		}
	}
	return out
}

// closeLookHeight is the height in pixels a date's own words are enlarged
// to, their contrast stretched, for a close look. A phone photo prints its
// date 12 to 20 pixels high, under what Tesseract reads well, and grey on
// grey: on receipts-us, of 53 dates PP-OCR read in a word or three, the
// words so enlarged were read the same 45 times and otherwise 3, where the
// words as they are were read the same 31 times and otherwise 5. Scans
// print dates larger (SROIE's 150 dpi) and gain nothing: there the line's
// looks read them first.
const closeLookHeight = 48

// closeLookMinHeight is the least height in pixels of a date worth the
// close look: lower it is a speck or a rule, not print, and enlarged to
// closeLookHeight it would make a line image of tens of thousands of
// pixels.
const closeLookMinHeight = 6

// closeLook reads again alone the words of a line that print its date,
// enlarged to closeLookHeight and their contrast stretched; ok is false
// when the line prints no date in up to three words, or nothing was read.
func (o *Tesseract) closeLook(ctx context.Context, reading pageReading, l fields.Line) (fields.Line, bool) {
	box, ok := fields.DateWordsBox(l, o.opt.Locale, o.opt.Now())
	b := reading.onGray(box)
	if !ok || box.W <= 0 || b.H < closeLookMinHeight || reading.gray == nil {
		return fields.Line{}, false
	}
	c, err := o.lineClient(ctx)
	if err != nil {
		return fields.Line{}, false
	}
	defer func() { o.lines <- c }()
	words, err := readCrop(c, reading.gray, b, max(1, closeLookHeight/float64(b.H)), true, box.Page, 0)
	if err != nil || len(words) == 0 {
		return fields.Line{}, false
	}
	reading.toPage(words)
	return fields.AsOneLine(words), true
}

// supplierLook reads the supplier's name again, each of its lines alone
// (a name broken over two lines is read as two), for fields.Assess to
// compare with the page's reading; nil when its letters are backed
// already or nothing was read.
func (o *Tesseract) supplierLook(ctx context.Context, reading pageReading, r receipt.Receipt, lines []fields.Line) []fields.Reading {
	box := supplierLookBox(r)
	if box == nil {
		return nil
	}
	var parts []string
	for _, l := range lines {
		cx, cy := l.Box.X+l.Box.W/2, l.Box.Y+l.Box.H/2
		if l.Box.W == 0 || cx < box.X || cx > box.X+box.W || cy < box.Y || cy > box.Y+box.H {
			continue
		}
		again, ok := o.readAgain(ctx, reading, l.Box, secondLookScale)
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
