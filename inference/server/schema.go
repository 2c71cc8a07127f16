package server

import (
	"bytes"
	"encoding/json"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference/vlm"
)

// validate checks a server's answer against the schema itself, as the
// embedded engine's closed answers are checked (vlm.ValidateJSON): the
// embedded engine's grammar makes its output follow the schema, but a
// server is only asked to, and may not (an old server ignores
// response_format).
func validate(schema, out string) error { return vlm.ValidateJSON(schema, out) }

// compactJSON is a JSON document without its layout, as a request sends it.
func compactJSON(src string) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, []byte(src)) != nil {
		return json.RawMessage(src)
	}
	return b.Bytes()
}

// receiptSchema is assets/prompts/schema.json as every request sends it,
// made once.
var receiptSchema = serverSchema(assets.ReceiptSchema)

// serverSchema is the schema as a server's grammar gets it: without the
// arrays' item counts, which servers that turn a schema into a grammar
// spell out one rule an item (120 line items made Ollama's grammar give
// up and let the model stop anywhere). The answer is still checked
// against the whole schema, counts included.
func serverSchema(src string) json.RawMessage {
	var v any
	if json.Unmarshal([]byte(src), &v) != nil {
		return compactJSON(src)
	}
	var drop func(any)
	drop = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			delete(t, "maxItems")
			delete(t, "minItems")
			for _, c := range t {
				drop(c)
			}
		case []any:
			for _, c := range t {
				drop(c)
			}
		}
	}
	drop(v)
	b, err := json.Marshal(v)
	if err != nil {
		return compactJSON(src)
	}
	return b
}
