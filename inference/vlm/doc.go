// Package vlm owns the vision-language engine: Engine starts the model in a
// child process (`shoebox worker`, package worker), batches pages to it,
// restarts it with a safer plan after a crash, turns its JSON into a
// receipt with per-field confidence (modeljson.go), retries a refusal with
// the strict prompt (refusal.go) and grounds every answer on the page's OCR
// words (fields.Ground). It links no page reader and no llama.cpp.
package vlm
