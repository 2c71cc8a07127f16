// Package assets holds what Shoebox embeds in its binary: the app icon, the
// model catalogue and reference facts, the prompts and the output schema,
// so a single executable carries everything it needs to run offline.
package assets

import _ "embed"

// Icon is the application icon, a 512×512 PNG drawn by icon_gen.go.
//
//go:embed icon.png
var Icon []byte

// ReferenceModels holds planner facts (layer counts, head shapes, approximate
// file sizes) of the seeds' InternVL3 2B and 8B models, for `shoebox gpus`
// when no model file is given. Sizes are rounded; the model catalogue holds
// the exact ones.
//
//go:embed models/reference.json
var ReferenceModels []byte

// Catalogue lists the vision models Shoebox offers to download: files per
// variant with their sources. Sizes and SHA-256s are recorded only once they
// have been read from the publisher; until then Verify checks structure only
// and says so.
//
//go:embed models/catalogue.json
var Catalogue []byte

// ReceiptPrompt is the short business-context system prompt given to
// vision models (and to a model server: every engine shares these prompts
// and ReceiptSchema).
//
//go:embed prompts/receipt.txt
var ReceiptPrompt string

// ReceiptPromptStrict replaces ReceiptPrompt for one retry when a model
// declines to read a receipt (some refuse anything with a name or address on it).
//
//go:embed prompts/receipt-strict.txt
var ReceiptPromptStrict string

// ReceiptInstruction is the user's turn after the image and the page's
// text hint: what to transcribe.
//
//go:embed prompts/receipt-user.txt
var ReceiptInstruction string

// OCRHintHeader introduces the page's OCR text, laid out line by line in
// reading order; TextLayerHeader a PDF's own text layer.
//
//go:embed prompts/ocr-hint.txt
var OCRHintHeader string

// TextLayerHeader introduces a PDF page's own text layer in the prompt.
//
//go:embed prompts/text-layer-hint.txt
var TextLayerHeader string

// PromptFamilies says per vision-model family where the system prompt goes
// and which llama.cpp chat template stands in when the model's own is not
// recognised, and maps projector types to families.
//
//go:embed prompts/families.json
var PromptFamilies []byte

// ReceiptSchema is the JSON schema model output is constrained to: a plain
// JSON Schema (usable as an OpenAI-style response_format json_schema with
// strict off) of the whole document, line items and tax lines included.
// Amounts are strings: a number grammar let a tiny model write 46E7107108.
// The required keys and the short scalar fields come before the lists, so
// an answer cut off at the token limit loses only its last lines.
//
//go:embed prompts/schema.json
var ReceiptSchema string

// SampleReceipt is a synthetic receipt (internal/synth's seed 7 for
// Australia: WESTGATE ELECTRICAL PTY LTD, 28-06-2024) that Settings reads to
// test an inference server, so the test sends no client's data.
//
//go:embed sample-receipt.jpg
var SampleReceipt []byte
