package inference

import (
	"context"
	"fmt"
	"image"
	"runtime"
	"strings"
	"time"

	"github.com/otiai10/gosseract/v2"

	"github.com/shoebox-app/shoebox/receipt"
)

// OCROptions configure the Tesseract engine.
type OCROptions struct {
	Locale     receipt.Locale
	Preprocess Preprocess
	// PSM is Tesseract's page segmentation mode; 4 (a single column of
	// text of variable sizes) reads receipts best by measurement.
	PSM       int
	Languages []string // Tesseract language packs; default "eng"
	// Workers is how many pages may be read at once (one Tesseract
	// instance each); default: the number of cores.
	Workers int
}

// OCR is the Tesseract engine: it needs no model download and no GPU. It
// reads words with boxes and confidences, then finds the fields by layout
// rules. Safe for concurrent use: each call borrows one of Workers
// Tesseract instances.
type OCR struct {
	opt     OCROptions
	clients chan *gosseract.Client
}

// NewOCR starts the Tesseract engine.
func NewOCR(opt OCROptions) (*OCR, error) {
	if opt.PSM == 0 {
		opt.PSM = 4
	}
	if len(opt.Languages) == 0 {
		opt.Languages = []string{"eng"}
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.NumCPU()
	}
	if opt.Locale.Country == "" {
		opt.Locale = receipt.DefaultLocale(receipt.CountryOther)
	}
	o := &OCR{opt: opt, clients: make(chan *gosseract.Client, opt.Workers)}
	for i := 0; i < opt.Workers; i++ {
		c := gosseract.NewClient()
		if err := c.SetLanguage(opt.Languages...); err != nil {
			o.Close()
			return nil, err
		}
		if err := c.SetPageSegMode(gosseract.PageSegMode(opt.PSM)); err != nil {
			o.Close()
			return nil, err
		}
		o.clients <- c
	}
	return o, nil
}

// Name is "ocr".
func (o *OCR) Name() string { return "ocr" }

// Close frees the Tesseract instances.
func (o *OCR) Close() error {
	for {
		select {
		case c := <-o.clients:
			c.Close()
		default:
			return nil
		}
	}
}

// Extract reads one page. A PDF text layer, when present, is used instead of OCR.
func (o *OCR) Extract(ctx context.Context, page Page) (Result, error) {
	start := time.Now()
	res := Result{Engine: "ocr"}
	var lines []Line
	if strings.TrimSpace(page.Text) != "" {
		lines = linesFromText(page.Text)
		res.Engine = "pdf-text"
	} else {
		words, t, err := o.Read(ctx, page)
		if err != nil {
			return res, err
		}
		res.Words, res.Timings = words, t
		lines = GroupLines(words)
	}
	var raw strings.Builder
	for _, l := range lines {
		raw.WriteString(l.Text)
		raw.WriteByte('\n')
	}
	res.Raw = raw.String()
	res.Receipt = ExtractFields(lines, o.opt.Locale)
	res.Timings.Total = time.Since(start)
	return res, nil
}

// Read runs Tesseract on a page and returns its words in page coordinates.
func (o *OCR) Read(ctx context.Context, page Page) ([]Word, Timings, error) {
	var t Timings
	if page.Image == nil {
		return nil, t, fmt.Errorf("the page has no image")
	}
	var c *gosseract.Client
	select {
	case c = <-o.clients:
	case <-ctx.Done():
		return nil, t, ctx.Err()
	}
	defer func() { o.clients <- c }()

	t0 := time.Now()
	g := toGray(page.Image)
	pre := o.opt.Preprocess
	if pre.Contrast {
		if g == page.Image { // never change the caller's image
			g = cloneGray(g)
		}
		stretchContrast(g)
	}
	angle := 0
	if pre.Deskew {
		angle = skewAngle(g)
		g = rotateSmall(g, angle)
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
		return nil, t, fmt.Errorf("tesseract could not take the page: %w", err)
	}
	boxes, err := c.GetBoundingBoxesVerbose()
	if err != nil {
		return nil, t, fmt.Errorf("tesseract failed: %w", err)
	}
	t.OCR = time.Since(t1)
	words := make([]Word, 0, len(boxes))
	lineIDs := map[[3]int]int{}
	for _, b := range boxes {
		text := strings.TrimSpace(b.Word)
		if text == "" {
			continue
		}
		key := [3]int{b.BlockNum, b.ParNum, b.LineNum}
		id, ok := lineIDs[key]
		if !ok {
			id = len(lineIDs)
			lineIDs[key] = id
		}
		r := b.Box
		words = append(words, Word{
			Text: text,
			Box:  receipt.Box{Page: page.Index, X: r.Min.X / factor, Y: r.Min.Y / factor, W: r.Dx() / factor, H: r.Dy() / factor},
			Conf: b.Confidence / 100,
			Line: id,
		})
	}
	_ = angle // boxes stay in deskewed coordinates; a few tenths of a degree move them by pixels
	return words, t, nil
}

func cloneGray(g *image.Gray) *image.Gray {
	c := image.NewGray(g.Rect)
	copy(c.Pix, g.Pix)
	return c
}
