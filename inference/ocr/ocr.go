package ocr

import (
	"context"
	"fmt"
	"image"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// Options configure the Tesseract engine.
type Options struct {
	Locale     receipt.Locale
	Preprocess Preprocess
	// PSM is Tesseract's page segmentation mode; 6 (one uniform block of
	// text) reads receipts best by measurement (4, a single column of text
	// of variable sizes, lost 9 points of supplier names on SROIE).
	PSM       int
	Languages []string // Tesseract language packs; default "eng"
	// Workers is how many pages may be read at once (one Tesseract
	// instance each); default: the number of cores.
	Workers int
	// SparseFallback reads a page again in sparse-text mode when the first
	// pass found no date or no total.
	SparseFallback bool
	// LostLines reads alone the rows of ink no word of the page reading
	// covers (see findLostBands).
	LostLines bool
	// RereadNameWords reads alone, enlarged, the words of the supplier's
	// name and address that the page reading was unsure of.
	RereadNameWords bool
	// BorderFallback reads a page again with its dark margins whitened
	// when the first reading found neither date nor total.
	BorderFallback bool
	// NoInvertedRetry turns off Tesseract's second reading, inverted, of
	// each word it is unsure of (in case it is light print on dark). Beside
	// PP-OCR (NewPPOCR) it is set: those readings took 12% of Tesseract's
	// time on sroie-more, and the fields read as well without them.
	// Tesseract alone keeps them: SROIE 076's date, above a dashed rule,
	// reads only with them.
	NoInvertedRetry bool
	// Deterministic turns off Tesseract's adaptive classifier, so a page
	// reads the same whatever was read before it (slightly less accurate).
	Deterministic bool
	// Now is today for the rules (a date after it is no receipt's date);
	// nil means the clock.
	Now func() time.Time
}

// Tesseract is the OCR engine: it needs no model download and no GPU. It
// reads words with boxes and confidences, then finds the fields by layout
// rules. Safe for concurrent use: each call borrows one of Workers
// Tesseract instances.
type Tesseract struct {
	opt     Options
	clients chan *tessClient // in opt.PSM
	sparse  chan *tessClient // in psm 11, for the fallback pass
	// lines holds instances in psm 7 for lines read again alone, made when
	// first needed (most pages never need one).
	lines     chan *tessClient
	linesMu   sync.Mutex
	linesMade int
}

// NewTesseract starts the Tesseract engine.
func NewTesseract(opt Options) (*Tesseract, error) {
	quietLeptonica()
	if opt.PSM == 0 {
		opt.PSM = 6
	}
	if len(opt.Languages) == 0 {
		opt.Languages = []string{"eng"}
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.NumCPU()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Locale.Country == "" {
		opt.Locale = receipt.DefaultLocale(receipt.CountryOther)
	}
	o := &Tesseract{
		opt: opt, clients: make(chan *tessClient, opt.Workers), sparse: make(chan *tessClient, opt.Workers),
		lines: make(chan *tessClient, opt.Workers),
	}
	fill := func(pool chan *tessClient, psm int) error {
		for i := 0; i < opt.Workers; i++ {
			c, err := newClient(opt, psm)
			if err != nil {
				return err
			}
			pool <- c
		}
		return nil
	}
	if err := fill(o.clients, opt.PSM); err != nil {
		o.Close()
		return nil, err
	}
	if opt.SparseFallback {
		if err := fill(o.sparse, 11); err != nil {
			o.Close()
			return nil, err
		}
	}
	return o, nil
}

// blankPage is a tiny white image: it makes an instance initialise, and
// lets go of the page an instance last read.
var blankPage = encodePGM(image.NewGray(image.Rect(0, 0, 8, 8)))

// lineClient borrows an instance in single-line mode, making one when
// fewer than Workers exist; give it back with o.lines <- c.
func (o *Tesseract) lineClient(ctx context.Context) (*tessClient, error) {
	select {
	case c := <-o.lines:
		return c, nil
	default:
	}
	o.linesMu.Lock()
	if o.linesMade < o.opt.Workers {
		o.linesMade++
		o.linesMu.Unlock()
		c, err := newClient(o.opt, 7)
		if err != nil {
			o.linesMu.Lock()
			o.linesMade--
			o.linesMu.Unlock()
		}
		return c, err
	}
	o.linesMu.Unlock()
	select {
	case c := <-o.lines:
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readLines reads a page after the clean-up steps of pre, groups its words
// into lines and, with LostLines, reads the lines it lost; the words and
// timings go into res.
func (o *Tesseract) readLines(ctx context.Context, page inference.Page, pre Preprocess, res *inference.Result) (pageReading, []fields.Line, error) {
	pr, t, err := o.readPageWith(ctx, page, o.opt.PSM, pre)
	if err != nil {
		return pr, nil, err
	}
	res.Words, res.Timings = pr.words, t
	lines := fields.GroupLines(pr.words)
	if o.opt.LostLines {
		t0 := time.Now()
		var more []inference.Word
		lines, more = o.readLostLines(ctx, pr, lines)
		res.Words = append(res.Words, more...)
		res.Timings.Reread += time.Since(t0)
	}
	return pr, lines, nil
}

// fieldsFound counts the key fields an extraction found.
func fieldsFound(r receipt.Receipt) int {
	n := 0
	for _, set := range []bool{r.SupplierName.Set, r.SupplierAddress.Set, r.Date.Set, r.Total.Set} {
		if set {
			n++
		}
	}
	return n
}

// Name is "ocr".
func (o *Tesseract) Name() string { return "ocr" }

// Close frees the Tesseract instances.
func (o *Tesseract) Close() error {
	for _, pool := range []chan *tessClient{o.clients, o.sparse, o.lines} {
		for done := false; !done; {
			select {
			case c := <-pool:
				c.Close()
			default:
				done = true
			}
		}
	}
	return nil
}

// Extract reads one page. A PDF text layer, when present, is used instead of
// OCR. Otherwise, in order: the page reading (psm 6 after the Preprocess
// steps); the rows of ink it lost, read alone (LostLines); the fields by
// layout rules; then, only for what is still missing or doubtful, a second
// reading with dark margins whitened (BorderFallback, no date and no total),
// a sparse-text reading (SparseFallback, no date or no total), and the
// page rules' second looks (pageRules.mend, with its own dates read again
// and, with RereadNameWords, the name's doubtful words; then the total's
// and date's lines read again for the assessment).
func (o *Tesseract) Extract(ctx context.Context, page inference.Page) (inference.Result, error) {
	release, err := reserveReading(ctx, page)
	if err != nil {
		return inference.Result{}, err
	}
	defer release()
	return o.extract(ctx, page)
}

// extract is Extract within a reservation of the reading budget.
func (o *Tesseract) extract(ctx context.Context, page inference.Page) (inference.Result, error) {
	start := time.Now()
	res := inference.Result{Engine: "ocr"}
	var lines []fields.Line
	var reading pageReading
	if hasText(page) {
		lines = fields.LinesFromText(page.Text)
		res.Engine = "pdf-text"
	} else {
		var err error
		reading, lines, err = o.readLines(ctx, page, o.opt.Preprocess, &res)
		if err != nil {
			return res, err
		}
	}
	r := fields.ExtractFields(lines, o.opt.Locale, o.opt.Now())
	// A page read with neither date nor total may be framed by a dark
	// margin that threw Tesseract's layout off (SROIE 382 read a clean
	// receipt as "DRAAABDAAAA"): it is read again with the margins
	// whitened, and that reading kept when it finds more. Whitening margins
	// on every page lost more than it won (text that touches the edge).
	if res.Engine == "ocr" && o.opt.BorderFallback && !r.Date.Set && !r.Total.Set {
		pre := o.opt.Preprocess
		pre.Borders = true
		again := inference.Result{Engine: res.Engine}
		if pr, ls, err := o.readLines(ctx, page, pre, &again); err == nil {
			res.Timings.Preprocess += again.Timings.Preprocess
			res.Timings.OCR += again.Timings.OCR
			res.Timings.Reread += again.Timings.Reread
			if r2 := fields.ExtractFields(ls, o.opt.Locale, o.opt.Now()); fieldsFound(r2) > fieldsFound(r) {
				r, lines, reading, res.Words = r2, ls, pr, again.Words
			}
		}
	}
	// A single-column pass drops lines of faint dot-matrix print; when it
	// found no date or no total, a sparse-text pass (psm 11) often does.
	// Its fields only fill gaps.
	var sparseLines []fields.Line
	if res.Engine == "ocr" && o.opt.SparseFallback && (!r.Date.Set || !r.Total.Set) {
		if words, t, err := o.read(ctx, page, 11); err == nil {
			res.Timings.OCR += t.OCR
			res.Timings.Preprocess += t.Preprocess
			// A sparse reading tears the address block apart: its address
			// is worse than none (measured on SROIE: 2 of 2 wrong), while
			// its supplier name is right more often than not.
			sparseLines = fields.GroupLines(words)
			sparse := fields.ExtractFields(sparseLines, o.opt.Locale, o.opt.Now())
			sparse.SupplierAddress = receipt.Text{}
			inference.FillGaps(&r, sparse)
		}
	}
	rules := o.opt.rules(o.rereaderOn(reading, &res.Timings.Reread))
	m := mending{ownDates: true}
	if o.opt.RereadNameWords {
		m.doubtful, m.better = tesseractDoubtful, tesseractBetter
	}
	dateLines, _ := rules.mend(ctx, &r, lines, m)
	looks := rules.secondLooks(ctx, r, nil) // no close look at its own date: a misread read again alike is no second reading
	if len(sparseLines) > 0 {
		looks = append(looks, fields.Reading{Name: "the page read again as scattered text", Lines: sparseLines})
	}
	// The lines as last read: a date may come from its line read alone.
	fields.Assess(&r, dateLines, o.opt.Locale, o.opt.Now(), looks...)
	res.Raw = linesText(lines)
	res.Receipt = r
	res.Timings.Total = time.Since(start)
	return res, nil
}

// Options returns the options the reader was made with (their defaults
// filled in).
func (o *Tesseract) Options() Options { return o.opt }

// Read runs Tesseract on a page and returns its words in page coordinates.
func (o *Tesseract) Read(ctx context.Context, page inference.Page) ([]inference.Word, inference.Timings, error) {
	return o.read(ctx, page, o.opt.PSM)
}

func (o *Tesseract) read(ctx context.Context, page inference.Page, psm int) ([]inference.Word, inference.Timings, error) {
	r, t, err := o.readPage(ctx, page, psm)
	return r.words, t, err
}

// pageReading is a page's words with the cleaned-up image they were read
// from (upscaled by factor), for reading some of its lines again.
type pageReading struct {
	words  []inference.Word
	gray   *image.Gray
	factor int
}

// onGray is a page box in the coordinates of the preprocessed image, which
// is the page enlarged factor times.
func (pr pageReading) onGray(b receipt.Box) receipt.Box {
	b.X, b.Y, b.W, b.H = b.X*pr.factor, b.Y*pr.factor, b.W*pr.factor, b.H*pr.factor
	return b
}

// toPage moves words read on the preprocessed image back to page
// coordinates.
func (pr pageReading) toPage(words []inference.Word) {
	for i := range words {
		b := &words[i].Box
		b.X, b.Y, b.W, b.H = b.X/pr.factor, b.Y/pr.factor, b.W/pr.factor, b.H/pr.factor
	}
}

func (o *Tesseract) readPage(ctx context.Context, page inference.Page, psm int) (pageReading, inference.Timings, error) {
	pre := o.opt.Preprocess
	if psm != o.opt.PSM {
		pre = Preprocess{} // the fallback pass reads the page as it is
	}
	return o.readPageWith(ctx, page, psm, pre)
}

// readPageWith reads a page in mode psm after the clean-up steps of pre.
func (o *Tesseract) readPageWith(ctx context.Context, page inference.Page, psm int, pre Preprocess) (pageReading, inference.Timings, error) {
	var t inference.Timings
	if page.Image == nil {
		return pageReading{}, t, fmt.Errorf("the page has no image")
	}
	// Each mode has its own instances: switching an instance's mode resets
	// what it has adapted to, which cost 7 points of exact match on SROIE.
	pool := o.clients
	if psm != o.opt.PSM {
		pool = o.sparse
	}
	var c *tessClient
	select {
	case c = <-pool:
	case <-ctx.Done():
		return pageReading{}, t, ctx.Err()
	}
	defer func() { pool <- c }()

	t0 := time.Now()
	g := toGray(page.Image)
	if pre.Contrast {
		if g == page.Image { // never change the caller's image
			g = cloneGray(g)
		}
		stretchContrast(g)
	}
	if pre.Borders {
		if g == page.Image {
			g = cloneGray(g)
		}
		clearBorders(g)
	}
	if pre.Deskew {
		// Tesseract copes with a degree or so; resampling a straight scan only
		// blurs its digits. Boxes stay in deskewed coordinates (pixels off).
		if a := skewAngle(g); a <= -15 || a >= 15 {
			g = rotateSmall(g, a)
		}
	}
	factor := 1
	if pre.MinWidth > 0 {
		for g.Bounds().Dx()*factor < pre.MinWidth && factor < 4 {
			factor++
		}
		g = upscale(g, factor)
	}
	data := encodePGM(g)
	t.Preprocess = time.Since(t0)

	t1 := time.Now()
	if err := c.SetImageFromBytes(data); err != nil {
		return pageReading{}, t, fmt.Errorf("tesseract could not take the page: %w", err)
	}
	boxes, err := c.GetBoundingBoxesVerbose()
	// The instance would hold the page and its layout until its next page;
	// a blank page lets them go now (reserveReading's release trims them).
	if berr := c.SetImageFromBytes(blankPage); berr != nil && err == nil {
		err = berr
	}
	if err != nil {
		return pageReading{}, t, fmt.Errorf("tesseract failed: %w", err)
	}
	t.OCR = time.Since(t1)
	lineIDs := map[[3]int]int{}
	words := wordsFromBoxes(boxes, page.Index, image.Point{}, float64(factor), func(b tessBox) int {
		key := [3]int{b.BlockNum, b.ParNum, b.LineNum}
		id, ok := lineIDs[key]
		if !ok {
			id = len(lineIDs)
			lineIDs[key] = id
		}
		return id
	})
	return pageReading{words: lookalikesInScript(words, clientScript(c)), gray: g, factor: factor}, t, nil
}

// lookalikesInScript writes back in script the words read in its Latin
// lookalikes that its language packs know, or that mix them with the
// script's letters (packs.FromLookalikes): Tesseract reading Bulgarian with
// English beside it reads bold РЕСТО as "PECTO". Where script is ""
// (Latin) the words stay as read.
func lookalikesInScript(words []inference.Word, script string) []inference.Word {
	if script == "" {
		return words
	}
	for i, w := range words {
		if to, ok := packs.FromLookalikes(script, w.Text); ok {
			words[i].Text = to
		}
	}
	return words
}

// wordsFromBoxes turns Tesseract's words into ours: boxes read on an image
// scaled by scale whose top-left lies at origin on the page, back in page
// coordinates; lineOf numbers each word's line.
func wordsFromBoxes(boxes []tessBox, page int, origin image.Point, scale float64, lineOf func(tessBox) int) []inference.Word {
	words := make([]inference.Word, 0, len(boxes))
	for _, b := range boxes {
		text := strings.TrimSpace(b.Word)
		if text == "" {
			continue
		}
		r := b.Box
		words = append(words, inference.Word{
			Text: text,
			Box: receipt.Box{
				Page: page,
				X:    origin.X + int(float64(r.Min.X)/scale), Y: origin.Y + int(float64(r.Min.Y)/scale),
				W: int(float64(r.Dx()) / scale), H: int(float64(r.Dy()) / scale),
			},
			Conf: b.Confidence / 100,
			Line: lineOf(b),
		})
	}
	return words
}

func cloneGray(g *image.Gray) *image.Gray {
	c := image.NewGray(g.Rect)
	copy(c.Pix, g.Pix)
	return c
}

// DefaultOptions are the settings chosen by measurement on SROIE (see
// `shoebox eval`): contrast stretch, psm 4, adaptive classifier on, and a
// psm-11 pass over the unprocessed page when no date or total was found
// (dates 75.0% -> 76.2% for 233 -> 210 receipts/minute). The fallback has
// its own instances: switching one instance's mode resets what it adapted
// to, which cost 7 points of company and 2 of total.
func DefaultOptions(loc receipt.Locale) Options {
	return Options{Locale: loc, Preprocess: DefaultPreprocess, SparseFallback: true, LostLines: true, BorderFallback: true, RereadNameWords: true}
}

// linesText is a reading's lines as text, one a line: an engine's Raw.
func linesText(lines []fields.Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}
