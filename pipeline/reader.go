package pipeline

import (
	"fmt"
	"sync"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/ocr"
)

// PPOCRDir is where the PP-OCR reader's parts are looked for; "" means
// ppocr.DefaultDir() (lib/ppocr or ../lib/ppocr beside the binary, or
// $SHOEBOX_PPOCR_DIR).
var PPOCRDir string

var missingOnce sync.Once

// OpenReader starts the OCR engine with the page reader named ("ppocr",
// "tesseract", "both"), or with "" the default: ocr.DefaultReader when
// PP-OCR's parts are found beside the binary and start, else Tesseract,
// with the reason said once a process through note. A reader asked for by
// name that cannot start is an error (eval must not score another reader
// under its name). It returns the engine and a label for people: "OCR
// (PP-OCR) on CPU".
func OpenReader(reader string, opt ocr.Options, note func(string)) (inference.Engine, string, error) {
	asked := reader != ""
	if reader == "" {
		reader = ocr.DefaultReader
	}
	tesseract := func(why string) (inference.Engine, string, error) {
		o, err := ocr.NewTesseract(opt)
		if err != nil && why != "" {
			// A build without Tesseract (Windows) has no reader left.
			return nil, "", fmt.Errorf("the OCR engine could not start: %s; %w", why, err)
		}
		if err != nil {
			return nil, "", fmt.Errorf("the OCR engine could not start: %w", err)
		}
		if why != "" {
			missingOnce.Do(func() { note("reading with Tesseract: " + why) })
		}
		return o, "OCR (Tesseract) on CPU", nil
	}
	switch reader {
	case ocr.ReaderTesseract:
		return tesseract("")
	case ocr.ReaderPPOCR, ocr.ReaderBoth:
		// "" lets ppocr look in each folder a release uses, and name them
		// all when the files are in none.
		p, err := ocr.NewPPOCR(opt, ocr.PPOCROptions(PPOCRDir), reader == ocr.ReaderBoth)
		if err != nil && asked {
			return nil, "", err
		}
		if err != nil {
			return tesseract(err.Error())
		}
		return p, "OCR (" + p.Label() + ") on CPU", nil
	}
	return nil, "", fmt.Errorf("unknown reader %q: use ppocr, tesseract or both", reader)
}
