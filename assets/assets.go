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

// ReceiptPrompt is the business-context instruction given to vision models.
//
//go:embed prompts/receipt.txt
var ReceiptPrompt string

// ReceiptPromptStrict replaces ReceiptPrompt for one retry when a model
// declines to read a receipt (some refuse anything with a name or address on it).
//
//go:embed prompts/receipt-strict.txt
var ReceiptPromptStrict string

// ReceiptSchema is the JSON schema model output is constrained to (amounts
// as strings: a number grammar let a tiny model write 46E7107108).
//
//go:embed prompts/schema.json
var ReceiptSchema string

// SampleReceipt is a synthetic receipt (internal/synth's seed 7 for
// Australia: WESTGATE ELECTRICAL PTY LTD, 28-06-2024) that Settings reads to
// test an inference server, so the test sends no client's data.
//
//go:embed sample-receipt.jpg
var SampleReceipt []byte
