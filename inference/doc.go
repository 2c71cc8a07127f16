// Package inference owns the engines that read a page into receipt fields:
// the Engine interface, the OCR engine (Tesseract), the embedded llama.cpp
// vision engine (run in a `shoebox worker` child process), prompts, the JSON
// schema and grammar, output guards, and the model catalogue, integrity
// checks and downloads. It never imports ui or library.
package inference
