//go:build !windows && !notesseract

package ocr

// #cgo LDFLAGS: -lleptonica
// #include <leptonica/allheaders.h>
import "C"

import "sync"

var quietOnce sync.Once

// quietLeptonica stops Leptonica, the image library under Tesseract, from
// printing its own errors to stderr: on some pages Tesseract's layout
// analysis asks it for a box off the image ("Error in boxClipToRectangle:
// box outside rectangle", SROIE 164), which Leptonica reports and
// Tesseract then handles. The lines broke the CLI's progress bar and told
// the user nothing. Tesseract's own messages are off per instance
// (DisableOutput).
func quietLeptonica() {
	quietOnce.Do(func() { C.setMsgSeverity(C.L_SEVERITY_NONE) })
}
