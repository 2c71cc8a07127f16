//go:build !windows && !notesseract

package ocr

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/otiai10/gosseract/v2"

	"github.com/shoebox-app/shoebox/packs"
)

// DefaultReader is the reader a page is read with when PP-OCR's parts are
// found, chosen by measurement on the 287 SROIE dev receipts (see README):
// PP-OCR, with Tesseract on the pages whose total or date PP-OCR is unsure
// of, read totals and dates best (3.5 and 3.8 points over PP-OCR alone,
// 8 and 4 over Tesseract alone) for 10% more time than PP-OCR alone.
const DefaultReader = ReaderBoth

// TesseractBuilt says whether this build links Tesseract (it does).
const TesseractBuilt = true

type (
	tessClient = gosseract.Client
	tessBox    = gosseract.BoundingBox
)

// clientScript is the script (ISO 15924) of the languages other than
// Latin an instance reads, "" where they are all Latin.
func clientScript(c *tessClient) string {
	for _, l := range c.Languages {
		if s := packs.ScriptOfTesseract(l); s != "" {
			return s
		}
	}
	return ""
}

func newClient(opt Options, psm int) (*tessClient, error) {
	c := gosseract.NewClient()
	if err := c.SetLanguage(opt.Languages...); err != nil {
		c.Close()
		return nil, err
	}
	// Tesseract's own messages ("Line cannot be recognized!!" for a band
	// of speckle) would land in the middle of a progress bar.
	if err := c.DisableOutput(); err != nil {
		c.Close()
		return nil, err
	}
	// gosseract's SetPageSegMode reaches Tesseract before its Init, which
	// resets the mode to 6 (one uniform block); a variable is applied
	// after Init.
	if err := c.SetVariable("tessedit_pageseg_mode", strconv.Itoa(psm)); err != nil {
		c.Close()
		return nil, err
	}
	if opt.NoInvertedRetry {
		if err := c.SetVariable("tessedit_do_invert", "0"); err != nil {
			c.Close()
			return nil, err
		}
	}
	// Tesseract adapts to the pages it has read: worth several points of
	// exact match on SROIE, at the price of a page's reading depending on
	// which pages the same instance read before. Deterministic turns it
	// off (tests, reproducible evals).
	if opt.Deterministic {
		if err := c.SetVariable("classify_enable_learning", "0"); err != nil {
			c.Close()
			return nil, err
		}
	}
	if err := initNow(c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// initMu serialises Tesseract's Init. gosseract's Init points file
// descriptor 2 at /dev/null and back (dup, freopen, dup2) to hide
// Tesseract's start-up chatter; two at once leave stderr on /dev/null for
// good, and every later error message of the program is lost.
var initMu sync.Mutex

// initNow initialises an instance under initMu, so it never initialises
// lazily, on a worker, beside another; nothing later re-initialises it
// (its languages and config file never change).
func initNow(c *tessClient) error {
	initMu.Lock()
	defer initMu.Unlock()
	if err := c.SetImageFromBytes(blankPage); err != nil {
		return fmt.Errorf("tesseract could not start: %w", err)
	}
	if _, err := c.Text(); err != nil {
		return fmt.Errorf("tesseract could not start: %w", err)
	}
	return nil
}
