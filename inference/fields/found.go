package fields

import "github.com/shoebox-app/shoebox/receipt"

// found is what a rule returns for a value it found on the page: set, from
// the reader, with its confidence (clamped to 0–1), the box it was read
// from (nil when it was computed from other values) and why it was taken.
func found[T any](v T, conf float64, box *receipt.Box, why string) receipt.Field[T] {
	if box != nil && box.W == 0 && box.H == 0 {
		box = nil
	}
	return receipt.Field[T]{Value: v, Set: true, Source: receipt.SourceOCR, Confidence: clamp(conf), Box: box, Why: why}
}
