// Package inference is the contract between what reads a page and what uses
// the reading: Page (an image, its PDF text layer, words already read),
// Word, Result, Timings and the Engine interface (Remote and
// ErrUnavailable for engines that read on another machine), plus FillGaps
// for combining two readings. The engines live beneath it: the page
// readers in ocr/, the text-to-field rules in fields/, the vision-language
// model in vlm/ (its child process in vlm/worker/), an inference server in
// server/. pipeline/ chooses and combines
// them; ui/ and cli/ drive pipeline/. It never imports ui or library.
package inference
