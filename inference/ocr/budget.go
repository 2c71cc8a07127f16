package ocr

import (
	"context"
	"strings"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/ocr/ppocr"
	"github.com/shoebox-app/shoebox/internal/budget"
)

// Reading a page takes memory in proportion to its pixels: `shoebox
// extract` of one 12-megapixel page full of print peaked at 0.6–0.7 GB with
// both readers, of one 2.5-megapixel SROIE scan with Tesseract at 0.13 GB.
// Pages being read share a budget of readingPixels, so Tesseract reads a
// page of the largest working size (ingest.DefaultWorkPixels) alone while
// receipts of a few megapixels are read side by side. PP-OCR works on a
// copy at most ppocr.WorkingPixels large and reserves only that, so its
// reading of a large scan runs beside another page instead of leaving a
// core idle (sroie-more has nine A4 scans); Tesseract's reading of the same
// page then reserves the whole page, after PP-OCR's reservation is given
// back, so that two pages never wait on each other.
const readingPixels = 12_000_000

var readingBudget = budget.New(readingPixels)

// reserveReading waits until the page's pixels fit in the budget (a page
// with a text layer needs no reading) and returns the release.
func reserveReading(ctx context.Context, page inference.Page) (func(), error) {
	if page.Image == nil || hasText(page) {
		return func() {}, nil
	}
	b := page.Image.Bounds()
	release, err := readingBudget.Reserve(ctx, int64(b.Dx())*int64(b.Dy()))
	if err != nil {
		return nil, err
	}
	return func() { trimCHeap(); release() }, nil
}

// readWithin reads a page with PP-OCR within a reservation of the pixels
// of its working copy: its words upright, and how it was set upright.
func (p *PPOCR) readWithin(ctx context.Context, page inference.Page) ([]inference.Word, ppocr.Upright, inference.Timings, error) {
	release, err := reservePPOCR(ctx, page)
	if err != nil {
		return nil, ppocr.Upright{}, inference.Timings{}, err
	}
	defer release()
	return p.readUpright(ctx, page)
}

// reservePPOCR waits until the page's working copy fits in the budget and
// returns the release.
func reservePPOCR(ctx context.Context, page inference.Page) (func(), error) {
	if page.Image == nil {
		return func() {}, nil
	}
	b := page.Image.Bounds()
	return readingBudget.Reserve(ctx, ppocr.WorkingPixels(b.Dx(), b.Dy()))
}

// hasText says whether the page brings its words (a PDF's text layer).
func hasText(page inference.Page) bool { return strings.TrimSpace(page.Text) != "" }
