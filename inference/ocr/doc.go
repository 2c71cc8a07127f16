// Package ocr owns the page readers: Tesseract through gosseract
// (Tesseract, with its clean-up steps in preprocess.go, Leptonica's quiet
// in leptonica.go, and the second readings of lines and words it was unsure
// of in reread.go and lostlines.go), and PP-OCR through ONNX Runtime
// (package ppocr, which links no other reader; PPOCR in paddle.go makes it
// an Engine, with Tesseract beside it for the pages it is unsure of). Both
// engines read a page and hand the lines to the rules of package fields,
// reading again only what the rules found missing or doubtful. They parse
// no field themselves.
package ocr
