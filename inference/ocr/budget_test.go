package ocr

import (
	"context"
	"image"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/inference"
)

func pageOf(w, h int) inference.Page {
	return inference.Page{Image: image.NewGray(image.Rect(0, 0, w, h))}
}

// Two pages of the largest working size are never read at once; receipts
// of a few megapixels are; a page with a text layer reserves nothing; a
// page larger than the whole budget waits for the others, then reads.
func TestReadingBudget(t *testing.T) {
	ctx := context.Background()
	waits := func(p inference.Page) bool {
		t.Helper()
		c, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		release, err := reserveReading(c, p)
		if err == nil {
			release()
		}
		return err != nil
	}
	big, err := reserveReading(ctx, pageOf(4000, 3000))
	if err != nil {
		t.Fatal(err)
	}
	if !waits(pageOf(4000, 3000)) {
		t.Error("a second 12-megapixel page was read beside the first")
	}
	if !waits(pageOf(1000, 1000)) {
		t.Error("a small page was read beside a full budget")
	}
	text := pageOf(4000, 3000)
	text.Text = "TOTAL 12.50"
	if waits(text) {
		t.Error("a page with a text layer waited")
	}
	big()
	var small []func()
	for range 4 {
		r, err := reserveReading(ctx, pageOf(1700, 1700)) // SROIE's usual 2.5-3 MP
		if err != nil {
			t.Fatal(err)
		}
		small = append(small, r)
	}
	if !waits(pageOf(9000, 9000)) {
		t.Error("an oversized page was read beside four small ones")
	}
	for _, r := range small {
		r()
	}
	// PP-OCR reserves the copy it reads, at most 1920 pixels wide: its
	// reading of a 12-megapixel scan leaves room for a receipt beside it,
	// while Tesseract's reading of another such scan waits.
	scan, err := reservePPOCR(ctx, pageOf(4000, 3000))
	if err != nil {
		t.Fatal(err)
	}
	if waits(pageOf(1700, 1700)) {
		t.Error("a receipt waited for PP-OCR's reading of a scan")
	}
	if !waits(pageOf(4000, 3000)) {
		t.Error("Tesseract read a 12-megapixel page beside PP-OCR's reading of another")
	}
	scan()
	if waits(pageOf(9000, 9000)) {
		t.Error("an oversized page never reads")
	}
}
