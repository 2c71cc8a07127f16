package ocr

import (
	"context"
	"fmt"
	"image"
	"math"
	"time"

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
	return lookalikesInScript(wordsFromBoxes(boxes, page, origin, scale, func(tessBox) int { return line }), clientScript(c)), nil
}

// rereadScale enlarges a line read again alone: on SROIE's 150 dpi scans a
// line read alone at 1.5× gave back dates the page reading had garbled
// ("72/01/2017" → "22/01/2017").
const rereadScale = 1.5

// tessRereader is Tesseract's Rereader: lines and words cut out of one
// page image (the preprocessed image Tesseract read the page from, or a
// photo as it is beside PP-OCR) and read in single-line mode, the time it
// takes added to spent.
type tessRereader struct {
	o     *Tesseract
	at    pageReading
	spent *time.Duration
}

// rereaderOn is Tesseract's Rereader on a reading's image, the time its
// readings take added to spent; nil where the reading has no image (a
// PDF's text layer).
func (o *Tesseract) rereaderOn(at pageReading, spent *time.Duration) Rereader {
	if at.gray == nil {
		return nil
	}
	return &tessRereader{o: o, at: at, spent: spent}
}

// borrow lends an instance in single-line mode and starts the clock; give
// it back with the function returned.
func (t *tessRereader) borrow(ctx context.Context) (*tessClient, func(), error) {
	start := time.Now()
	c, err := t.o.lineClient(ctx)
	if err != nil {
		*t.spent += time.Since(start)
		return nil, nil, err
	}
	return c, func() { t.o.lines <- c; *t.spent += time.Since(start) }, nil
}

// Lines reads again the lines which chooses, each cut out of the page
// image and read at rereadScale.
func (t *tessRereader) Lines(ctx context.Context, lines []fields.Line, which func(fields.Line) bool) ([]fields.Line, int) {
	c, done, err := t.borrow(ctx)
	if err != nil {
		return lines, 0
	}
	defer done()
	out := append([]fields.Line(nil), lines...)
	n := 0
	for i, l := range lines {
		if l.Box.W <= 0 || l.Box.H <= 0 || len(l.Words) == 0 || !which(l) {
			continue
		}
		words, err := readLine(c, t.at.gray, t.at.onGray(l.Box), rereadScale, l.Box.Page, l.Words[0].Line)
		n++
		if err != nil || len(words) == 0 {
			continue
		}
		t.at.toPage(words)
		if again := fields.GroupLines(words); len(again) == 1 {
			out[i] = again[0]
		}
	}
	return out, n
}

// Words reads again the words which chooses, each cut out of the page
// image and read at rereadScale; a reading of more than one word is no
// reading of the word (it took in a neighbour's ink, on a tilted photo).
func (t *tessRereader) Words(ctx context.Context, lines []fields.Line, which func(fields.Line, inference.Word) bool, keep func(first, second inference.Word) bool) ([]fields.Line, int) {
	c, done, err := t.borrow(ctx)
	if err != nil {
		return lines, 0
	}
	defer done()
	out := append([]fields.Line(nil), lines...)
	n := 0
	for i, l := range lines {
		var words []inference.Word
		for j, w := range l.Words {
			if w.Box.W <= 0 || w.Box.H <= 0 || !which(l, w) {
				continue
			}
			read, err := readLine(c, t.at.gray, t.at.onGray(w.Box), rereadScale, w.Box.Page, w.Line)
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

// Line reads the box cut out of the page image at scale.
func (t *tessRereader) Line(ctx context.Context, box receipt.Box, scale float64) (fields.Line, bool) {
	if box.W <= 0 || box.H <= 0 {
		return fields.Line{}, false
	}
	c, done, err := t.borrow(ctx)
	if err != nil {
		return fields.Line{}, false
	}
	defer done()
	words, err := readLine(c, t.at.gray, t.at.onGray(box), scale, box.Page, 0)
	if err != nil || len(words) == 0 {
		return fields.Line{}, false
	}
	t.at.toPage(words)
	return fields.AsOneLine(words), true
}

// closeLookHeight is the height in pixels words are enlarged to, their
// contrast stretched, for a close look. A phone photo prints its date 12
// to 20 pixels high, under what Tesseract reads well, and grey on grey:
// on receipts-us, of 53 dates PP-OCR read in a word or three, the words so
// enlarged were read the same 45 times and otherwise 3, where the words as
// they are were read the same 31 times and otherwise 5. Scans print dates
// larger (SROIE's 150 dpi) and gain nothing: there the line's looks read
// them first.
const closeLookHeight = 48

// closeLookMinHeight is the least height in pixels of words worth the
// close look: lower it is a speck or a rule, not print, and enlarged to
// closeLookHeight it would make a line image of tens of thousands of
// pixels.
const closeLookMinHeight = 6

// CloseUp reads the box cut out of the page image, its contrast stretched,
// enlarged to closeLookHeight; nothing under closeLookMinHeight on the
// image.
func (t *tessRereader) CloseUp(ctx context.Context, box receipt.Box) (fields.Line, bool) {
	b := t.at.onGray(box)
	if box.W <= 0 || b.H < closeLookMinHeight {
		return fields.Line{}, false
	}
	c, done, err := t.borrow(ctx)
	if err != nil {
		return fields.Line{}, false
	}
	defer done()
	words, err := readCrop(c, t.at.gray, b, max(1, closeLookHeight/float64(b.H)), true, box.Page, 0)
	if err != nil || len(words) == 0 {
		return fields.Line{}, false
	}
	t.at.toPage(words)
	return fields.AsOneLine(words), true
}
