package pipeline

import (
	"context"
	"errors"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/inference/ocr"
	"github.com/shoebox-app/shoebox/inference/server"
	"github.com/shoebox-app/shoebox/inference/vlm"
)

// VLMWithOCR reads each page with Tesseract first and gives its words to
// the vision model: as a hint in the prompt (small models misread faint
// print less when they see the OCR text), and to ground every answer with
// a box on the page, so that a value the page does not show loses
// confidence. A page whose OCR fails is still read, without the hint.
type VLMWithOCR struct {
	*vlm.Engine
	OCR *ocr.Tesseract
}

// Extract reads one page; a PDF text layer, when there is one, is the hint
// instead of OCR.
func (h VLMWithOCR) Extract(ctx context.Context, page inference.Page) (inference.Result, error) {
	return withOCRHint(ctx, h.OCR, page, h.Engine.Extract)
}

// withOCRHint reads the page with Tesseract, gives its words to a model
// engine's extract, and assesses the model's total and date on the page's
// lines. The vision engine and the server engine share it.
func withOCRHint(ctx context.Context, o *ocr.Tesseract, page inference.Page, extract func(context.Context, inference.Page) (inference.Result, error)) (inference.Result, error) {
	var t inference.Timings
	if page.Text == "" && len(page.Words) == 0 {
		words, ot, err := o.Read(ctx, page)
		if err != nil && ctx.Err() != nil {
			return inference.Result{}, ctx.Err()
		}
		if err == nil {
			page.Words, t = words, ot
		}
	}
	res, err := extract(ctx, page)
	if err == nil {
		// The model's total and date are trusted as the rules' are: on
		// evidence, with the page reader as the second reader.
		opt := o.Options()
		lines := fields.LinesFromText(page.Text)
		if len(page.Words) > 0 {
			lines = fields.GroupLines(page.Words)
		}
		fields.AssessModel(&res.Receipt, lines, opt.Locale, opt.Now())
	}
	res.Timings.OCR += t.OCR
	res.Timings.Preprocess += t.Preprocess
	res.Timings.Total += t.OCR + t.Preprocess
	return res, err
}

// Close stops the worker and frees Tesseract.
func (h VLMWithOCR) Close() error {
	return errors.Join(h.Engine.Close(), h.OCR.Close())
}

// ServerWithOCR is VLMWithOCR for the server engine: Tesseract reads each
// page here, on this computer, and its words go with the image as the
// model's hint and ground its answers.
type ServerWithOCR struct {
	*server.Engine
	OCR *ocr.Tesseract
}

// Extract reads one page with the OCR hint.
func (h ServerWithOCR) Extract(ctx context.Context, page inference.Page) (inference.Result, error) {
	return withOCRHint(ctx, h.OCR, page, h.Engine.Extract)
}

// Close frees Tesseract and the server's idle connections.
func (h ServerWithOCR) Close() error {
	return errors.Join(h.Engine.Close(), h.OCR.Close())
}
