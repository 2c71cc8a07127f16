package ocr

import (
	"context"
	"image"
	"os"
	"sync"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

// Tesseract instances starting on several workers at once must leave the
// program's stderr where it was: error lines printed later must reach the
// user, not /dev/null.
func TestStartingInParallelKeepsStderr(t *testing.T) {
	before, err := os.Readlink("/proc/self/fd/2")
	if err != nil {
		t.Skip("no /proc here:", err)
	}
	page := inference.Page{Image: image.NewGray(image.Rect(0, 0, 40, 20))}
	for round := 0; round < 2; round++ {
		var wg sync.WaitGroup
		for e := 0; e < 3; e++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				eng, err := NewTesseract(Options{Locale: receipt.DefaultLocale(receipt.CountryAU), Workers: 3})
				if err != nil {
					t.Error(err)
					return
				}
				defer eng.Close()
				var inner sync.WaitGroup
				for w := 0; w < 3; w++ {
					inner.Add(1)
					go func() {
						defer inner.Done()
						eng.Extract(context.Background(), page)
					}()
				}
				inner.Wait()
			}()
		}
		wg.Wait()
		if after, _ := os.Readlink("/proc/self/fd/2"); after != before {
			t.Fatalf("round %d: stderr was %s, now %s: later error messages are lost", round, before, after)
		}
	}
}
