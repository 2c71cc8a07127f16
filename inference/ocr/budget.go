package ocr

import (
	"context"
	"strings"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/internal/budget"
)

// Reading a page takes memory in proportion to its pixels: `shoebox
// extract` of one 12-megapixel page full of print peaked at 0.6–0.7 GB with
// both readers, of one 2.5-megapixel SROIE scan with Tesseract at 0.13 GB.
// Pages being read share a budget of readingPixels, so a page of the
// largest working size (ingest.DefaultWorkPixels) is read alone while
// receipts of a few megapixels are read side by side.
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

// hasText says whether the page brings its words (a PDF's text layer).
func hasText(page inference.Page) bool { return strings.TrimSpace(page.Text) != "" }
