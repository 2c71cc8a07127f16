package vlm

import (
	"github.com/shoebox-app/shoebox/inference/vlm/protocol"

	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/shoebox-app/shoebox/receipt"
)

// modelFields maps the schema's keys to receipt fields.
var modelFields = []string{"supplier_name", "supplier_tax_id", "supplier_address", "document_number", "date", "currency",
	"subtotal", "total_tax", "total", "payment_method"}

// ParseModelJSON turns a model's schema-constrained JSON into a receipt.
// Each field's confidence is the geometric mean of the probabilities of the
// tokens that wrote its value; values that do not parse (a date that is
// not a date) are left out rather than guessed.
func ParseModelJSON(out string, pieces []protocol.Piece, loc receipt.Locale) (receipt.Receipt, error) {
	var r receipt.Receipt
	spans, values, err := valueSpans(out)
	if err != nil {
		return r, fmt.Errorf("the model's answer is not the JSON asked for: %w", err)
	}
	// Byte offset of each piece, for mapping spans to token probabilities.
	starts := make([]int, len(pieces))
	off := 0
	for i, p := range pieces {
		starts[i] = off
		off += len(p.Text)
	}
	confOf := func(s span) float64 {
		sum, n := 0.0, 0
		for i, p := range pieces {
			end := starts[i] + len(p.Text)
			if end > s.start && starts[i] < s.end {
				sum += math.Log(math.Max(float64(p.P), 1e-9))
				n++
			}
		}
		if n == 0 {
			return 0.5
		}
		return math.Exp(sum / float64(n))
	}
	for _, key := range modelFields {
		v, ok := values[key]
		if !ok || strings.TrimSpace(v) == "" {
			continue
		}
		if err := receipt.Set(&r, key, v, receipt.SourceModel, loc); err != nil {
			continue
		}
		conf := confOf(spans[key])
		receipt.SetProvenance(&r, key, conf, nil)
	}
	return r, nil
}

type span struct{ start, end int }

// valueSpans finds each top-level string value and its byte span.
func valueSpans(out string) (map[string]span, map[string]string, error) {
	dec := json.NewDecoder(strings.NewReader(out))
	spans, values := map[string]span{}, map[string]string{}
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, nil, fmt.Errorf("no object")
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, _ := k.(string)
		before := int(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, err
		}
		after := int(dec.InputOffset())
		var s string
		if json.Unmarshal(raw, &s) == nil {
			values[key] = s
		} else {
			values[key] = string(bytes.TrimSpace(raw))
		}
		spans[key] = span{before, after}
	}
	return spans, values, nil
}
