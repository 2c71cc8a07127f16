//go:build windows || notesseract

package ocr

import (
	"errors"
	"image"
)

// DefaultReader is PP-OCR alone where Tesseract is not built in (Windows:
// Debian has no Tesseract for it to link). Measured on the dev sets with
// `-tags notesseract` on Linux: see the README's Windows section.
const DefaultReader = ReaderPPOCR

// TesseractBuilt says whether this build links Tesseract (it does not).
const TesseractBuilt = false

// ErrNoTesseract is why every Tesseract instance fails to start here.
var ErrNoTesseract = errors.New("Tesseract is not part of this build of Shoebox: pages are read with PP-OCR")

// tessClient stands where gosseract's client stands in the build with
// Tesseract; none is ever made, so its methods are never reached.
type tessClient struct{}

// tessBox has the fields of gosseract's word box that the readers use.
type tessBox struct {
	Box                       image.Rectangle
	Word                      string
	Confidence                float64
	BlockNum, ParNum, LineNum int
}

func newClient(Options, int) (*tessClient, error) { return nil, ErrNoTesseract }

func (*tessClient) SetImageFromBytes([]byte) error { return ErrNoTesseract }

func (*tessClient) GetBoundingBoxesVerbose() ([]tessBox, error) { return nil, ErrNoTesseract }

func (*tessClient) Close() error { return nil }

func clientScript(*tessClient) string { return "" }

func quietLeptonica() {}
