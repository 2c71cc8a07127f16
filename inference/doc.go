// Package inference is the contract between what reads a page and what uses
// the reading: Page (an image, its PDF text layer, words already read),
// Word, Result, Timings and the Engine interface, plus FillGaps for
// combining two readings. The engines live beneath it: the page readers in
// ocr/, the text-to-field rules in fields/, the vision-language model in
// vlm/ (its child process in vlm/worker/). pipeline/ chooses and combines
// them; ui/ and cli/ drive pipeline/. It never imports ui or library.
package inference
