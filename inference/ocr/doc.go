// Package ocr owns the page readers: Tesseract through gosseract today
// (Tesseract, with its clean-up steps in preprocess.go, Leptonica's quiet
// in leptonica.go, and the second readings of lines and words it was unsure
// of in reread.go and lostlines.go). Tesseract is also an Engine: it reads a
// page and hands the lines to the rules of package fields, reading again
// only what the rules found missing or doubtful. It parses no field itself.
package ocr
