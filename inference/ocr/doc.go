// Package ocr owns the page readers: Tesseract through gosseract
// (Tesseract, with its clean-up steps in preprocess.go, Leptonica's quiet
// in leptonica.go, and the rows of ink its page reading lost in
// lostlines.go), and PP-OCR through ONNX Runtime (package ppocr, which
// links no other reader; PPOCR in paddle.go makes it an Engine, with
// Tesseract beside it for the pages it is unsure of). Both engines read a
// page, hand the lines to the rules of package fields, and then run the
// one sequence of second looks in rules.go (pageRules): a missing or
// doubtful date, the doubtful words of the supplier's name, the total's
// and date's lines, each read again through a Rereader, which Tesseract
// implements by cutting lines and words out of a page image (reread.go).
// They parse no field themselves.
package ocr
