// Package vlm owns the vision-language engine: Engine starts the model in a
// child process (`shoebox worker`, package worker), batches pages to it,
// restarts it with a safer plan after a crash, lays out each model
// family's prompt (prompt.go, text from assets/prompts), turns its JSON —
// the whole document, line items and tax lines included, in the schema
// every engine shares — into a receipt with per-value confidence
// (modeljson.go), closes an answer cut off at the token limit (its size
// in tokens.go),
// checks a document against the schema (schema.go), retries a refusal with
// the strict prompt (refusal.go) and grounds every answer on the page's OCR
// words (fields.Ground). It links no page reader and no llama.cpp.
package vlm
