//go:build notesseract

package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/ocr"
	"github.com/shoebox-app/shoebox/inference/ocr/ppocr"
	"github.com/shoebox-app/shoebox/receipt"
)

// The build without Tesseract (Windows' build; `make test-windows` runs
// this with -tags notesseract on Linux): PP-OCR alone by default, a PDF's
// text layer still read, and without PP-OCR's files an error that names
// both what is missing and why no other reader is left.
func TestOpenReaderWithoutTesseract(t *testing.T) {
	defer func(d string) { PPOCRDir = d }(PPOCRDir)
	root, _ := filepath.Abs("..")
	src := filepath.Join(root, "build", "lib", "ppocr")
	if m := ppocr.Missing(src); m != "" {
		t.Skipf("PP-OCR's files are not in %s (missing %s): run `make deps`", src, m)
	}
	opt := ocr.DefaultOptions(receipt.DefaultLocale(receipt.CountryAU))
	opt.Workers = 1
	PPOCRDir = src
	eng, label, err := OpenReader("", opt, func(s string) { t.Error("unexpected note:", s) })
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if label != "OCR (PP-OCR) on CPU" {
		t.Errorf("default reader %q", label)
	}
	res, err := eng.Extract(context.Background(), inference.Page{Text: "HARBOUR HARDWARE PTY LTD\n16/07/2025\nHAMMER 24.95\nTOTAL $24.95\n"})
	if err != nil {
		t.Fatalf("a text layer: %v", err)
	}
	if res.Engine != "pdf-text" || res.Receipt.Total.Value.StringFixed(2) != "24.95" {
		t.Errorf("a text layer read as %q, total %v", res.Engine, res.Receipt.Total.Value)
	}
	if _, _, err := OpenReader(ocr.ReaderBoth, opt, func(string) {}); err == nil {
		t.Error("--reader both started without Tesseract")
	}

	PPOCRDir = t.TempDir() // nothing there
	missingOnce = sync.Once{}
	_, _, err = OpenReader("", opt, func(string) {})
	if err == nil || !strings.Contains(err.Error(), ppocr.DetModel) || !strings.Contains(err.Error(), "Tesseract is not part of this build") {
		t.Errorf("without PP-OCR's files: %v", err)
	}
}
