package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shoebox-app/shoebox/inference/ocr"
	"github.com/shoebox-app/shoebox/inference/ocr/ppocr"
	"github.com/shoebox-app/shoebox/receipt"
)

// Without PP-OCR's files the OCR engine reads with Tesseract and says why,
// once; PP-OCR asked for by name is an error that names what is missing.
func TestOpenReaderFallsBackToTesseract(t *testing.T) {
	defer func(d string) { PPOCRDir = d }(PPOCRDir)
	opt := ocr.DefaultOptions(receipt.DefaultLocale(receipt.CountryMY))
	opt.Workers = 1

	PPOCRDir = t.TempDir() // nothing there
	if _, _, err := OpenReader(ocr.ReaderPPOCR, opt, func(string) {}); err == nil || !strings.Contains(err.Error(), ppocr.DetModel) {
		t.Errorf("--reader ppocr without its files: %v", err)
	}
	missingOnce = sync.Once{}
	var notes []string
	eng, label, err := OpenReader("", opt, func(s string) { notes = append(notes, s) })
	if err != nil {
		t.Fatal(err)
	}
	eng.Close()
	if _, ok := eng.(*ocr.Tesseract); !ok || label != "OCR (Tesseract) on CPU" {
		t.Errorf("got %T %q", eng, label)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], ppocr.DetModel) {
		t.Errorf("notes %q", notes)
	}
	eng, _, _ = OpenReader("", opt, func(s string) { notes = append(notes, s) })
	eng.Close()
	if len(notes) != 1 {
		t.Errorf("said again: %q", notes)
	}

	if _, _, err := OpenReader("easyocr", opt, func(string) {}); err == nil {
		t.Error("an unknown reader was accepted")
	}
}

// With the files `make deps` fetches, the default reader is PP-OCR; with
// one of them damaged, Tesseract.
func TestOpenReaderDefault(t *testing.T) {
	defer func(d string) { PPOCRDir = d }(PPOCRDir)
	root, _ := filepath.Abs("..")
	src := filepath.Join(root, "build", "lib", "ppocr")
	if m := ppocr.Missing(src); m != "" {
		t.Skipf("PP-OCR's files are not in %s (missing %s): run `make deps`", src, m)
	}
	opt := ocr.DefaultOptions(receipt.DefaultLocale(receipt.CountryMY))
	opt.Workers = 1
	PPOCRDir = src
	eng, label, err := OpenReader("", opt, func(s string) { t.Error("unexpected note:", s) })
	if err != nil {
		t.Fatal(err)
	}
	eng.Close()
	if !strings.Contains(label, "PP-OCR") {
		t.Errorf("default reader %q", label)
	}

	dir := t.TempDir()
	for _, n := range []string{ppocr.Library, ppocr.Keys, ppocr.RecModel, ppocr.ClsModel} {
		if err := os.Symlink(filepath.Join(src, n), filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(src, ppocr.DetModel))
	os.WriteFile(filepath.Join(dir, ppocr.DetModel), data[:len(data)/2], 0o644)
	PPOCRDir = dir
	missingOnce = sync.Once{}
	var notes []string
	eng, label, err = OpenReader("", opt, func(s string) { notes = append(notes, s) })
	if err != nil {
		t.Fatal(err)
	}
	eng.Close()
	if label != "OCR (Tesseract) on CPU" || len(notes) != 1 || !strings.Contains(notes[0], ppocr.DetModel) {
		t.Errorf("a truncated detector: %q, notes %q", label, notes)
	}
}
