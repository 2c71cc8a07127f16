package pipeline

import (
	"fmt"
	"sync"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/ocr"
	"github.com/shoebox-app/shoebox/inference/ocr/ppocr"
)

// PPOCRDir is where the PP-OCR reader's parts are looked for; "" means
// ppocr.DefaultDir() (<exe dir>/../lib/ppocr, or $SHOEBOX_PPOCR_DIR).
var PPOCRDir string

var missingOnce sync.Once

// OpenReader starts the OCR engine with the page reader named ("ppocr",
// "tesseract", "both"; "" for ocr.DefaultReader when PP-OCR's parts are
// found beside the binary, else Tesseract). When PP-OCR cannot start it
// reads with Tesseract and says why through note (once a process for a
// reader nobody asked for by name). It returns the engine and a label for
// people: "OCR (PP-OCR) on CPU".
func OpenReader(reader string, opt ocr.Options, note func(string)) (inference.Engine, string, error) {
	asked := reader != ""
	if reader == "" {
		reader = ocr.DefaultReader
	}
	tesseract := func(why string) (inference.Engine, string, error) {
		o, err := ocr.NewTesseract(opt)
		if err != nil {
			return nil, "", fmt.Errorf("the OCR engine could not start: %w", err)
		}
		label := "OCR (Tesseract) on CPU"
		if why != "" {
			tell := func() { note("reading with Tesseract: " + why) }
			if asked {
				tell()
			} else {
				missingOnce.Do(tell)
			}
		}
		return o, label, nil
	}
	switch reader {
	case ocr.ReaderTesseract:
		return tesseract("")
	case ocr.ReaderPPOCR, ocr.ReaderBoth:
		dir := PPOCRDir
		if dir == "" {
			dir = ppocr.DefaultDir()
		}
		p, err := ocr.NewPPOCR(opt, ocr.PPOCROptions(dir), reader == ocr.ReaderBoth)
		if err != nil {
			return tesseract(err.Error())
		}
		return p, "OCR (" + p.Label() + ") on CPU", nil
	}
	return nil, "", fmt.Errorf("unknown reader %q: use ppocr, tesseract or both", reader)
}
