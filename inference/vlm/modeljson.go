package vlm

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/shoebox-app/shoebox/inference/vlm/protocol"
	"github.com/shoebox-app/shoebox/receipt"
)

// schemaFields maps the schema's top-level keys (assets/prompts/schema.json,
// shared with every engine) to receipt field paths.
var schemaFields = map[string]string{
	"document_type": "doc_type", "supplier_name": "supplier_name", "supplier_tax_id": "supplier_tax_id",
	"supplier_address": "supplier_address", "buyer_name": "payer_name", "buyer_address": "payer_address",
	"document_number": "document_number", "date": "date", "due_date": "due_date", "delivery_date": "delivery_date",
	"currency": "currency", "subtotal": "subtotal", "discount": "discount", "total_tax": "total_tax", "tip": "tip",
	"rounding": "rounding", "total": "total", "amount_paid": "amount_paid", "change": "change",
	"payment_method": "payment_method", "card_last_four": "card_last_four",
}

// The schema's keys of a line item and of a tax line, by receipt field.
var (
	itemFields = map[string]string{
		"description": "description", "quantity": "quantity", "unit_price": "unit_price",
		"amount": "line_total", "tax_code": "tax_code",
	}
	taxLineFields = map[string]string{"rate": "rate", "net": "net", "tax": "tax"}
)

// ParseModelJSON turns a model's schema-constrained JSON into a receipt.
// Each value's confidence, line items' and tax lines' included, is the
// geometric mean of the probabilities of the tokens that wrote it; values
// that do not parse (a date that is not a date) are left out rather than
// guessed. Output cut off at the token limit is closed after its last
// complete value first (CloseTruncated).
func ParseModelJSON(out string, pieces []protocol.Piece, loc receipt.Locale) (receipt.Receipt, error) {
	var r receipt.Receipt
	closed, _ := CloseTruncated(out)
	var doc map[string]any
	if err := json.Unmarshal([]byte(closed), &doc); err != nil {
		return r, fmt.Errorf("the model's answer is not the JSON asked for: %w", err)
	}
	spans := valueSpans(closed)
	conf := confidences(pieces)
	for key, path := range schemaFields {
		v, ok := doc[key].(string)
		if v = cleanText(v); !ok || v == "" {
			continue
		}
		if path == "doc_type" {
			v = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(v), " ", "_"))
		}
		if err := receipt.Set(&r, path, v, receipt.SourceModel, loc); err != nil {
			continue
		}
		receipt.SetProvenance(&r, path, conf(spans[key]), nil)
	}
	items, _ := doc["line_items"].([]any)
	for i, it := range items {
		obj, _ := it.(map[string]any)
		r.LineItems = append(r.LineItems, receipt.LineItem{})
		n := len(r.LineItems) - 1
		for key, field := range itemFields {
			path := fmt.Sprintf("line_items[%d].%s", n, field)
			if setFrom(&r, path, obj[key], loc) {
				receipt.SetProvenance(&r, path, conf(spans[fmt.Sprintf("line_items[%d].%s", i, key)]), nil)
			}
		}
		if li := r.LineItems[n]; !li.Description.Set && !li.LineTotal.Set {
			r.LineItems = r.LineItems[:n] // nothing usable: an empty object
		}
	}
	taxes, _ := doc["tax_lines"].([]any)
	for i, tl := range taxes {
		obj, _ := tl.(map[string]any)
		r.TaxLines = append(r.TaxLines, receipt.TaxLine{})
		n := len(r.TaxLines) - 1
		for key, field := range taxLineFields {
			path := fmt.Sprintf("tax_lines[%d].%s", n, field)
			if setFrom(&r, path, obj[key], loc) {
				receipt.SetProvenance(&r, path, conf(spans[fmt.Sprintf("tax_lines[%d].%s", i, key)]), nil)
			}
		}
		if !r.TaxLines[n].Tax.Set {
			r.TaxLines = r.TaxLines[:n]
		}
	}
	return r, nil
}

// setFrom sets the field at path from a JSON value, reporting whether it took.
func setFrom(r *receipt.Receipt, path string, v any, loc receipt.Locale) bool {
	s, ok := v.(string)
	if s = cleanText(s); !ok || s == "" {
		return false
	}
	return receipt.Set(r, path, s, receipt.SourceModel, loc) == nil
}

// cleanText is a model's (or a server's) value as text for the records:
// control characters — a terminal's escape sequences, BEL, NUL, C1 codes —
// are dropped, line breaks and tabs become spaces, and runs of spaces one.
// An answer comes from a model or a server we do not control; what it
// writes must not reach a review screen, a terminal or an export as
// anything but plain text.
func cleanText(s string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t' || r == '\v' || r == '\f':
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(clean), " ")
}

// confidences returns a function giving the geometric mean probability of
// the tokens that overlap a byte span of the output (0.5 when none do).
func confidences(pieces []protocol.Piece) func(span) float64 {
	starts := make([]int, len(pieces))
	off := 0
	for i, p := range pieces {
		starts[i] = off
		off += len(p.Text)
	}
	return func(s span) float64 {
		sum, n := 0.0, 0
		for i, p := range pieces {
			if end := starts[i] + len(p.Text); end > s.start && starts[i] < s.end {
				sum += math.Log(math.Max(float64(p.P), 1e-9))
				n++
			}
		}
		if n == 0 || s.end <= s.start {
			return 0.5
		}
		return math.Exp(sum / float64(n))
	}
}

type span struct{ start, end int }

// valueSpans finds the byte span of every scalar value in a JSON document,
// by path: "total", "line_items[3].amount". The document must be valid.
func valueSpans(doc string) map[string]span {
	spans := map[string]span{}
	dec := json.NewDecoder(strings.NewReader(doc))
	var walk func(path string) error
	walk = func(path string) error {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				if path != "" {
					key = path + "." + key
				}
				if err := walk(key); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(path + "[" + strconv.Itoa(i) + "]"); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		// Token skips the separator before a value: find where it starts.
		start := before
		for start < len(doc) && strings.IndexByte(" \t\r\n:,", doc[start]) >= 0 {
			start++
		}
		spans[path] = span{start, int(dec.InputOffset())}
		return nil
	}
	_ = walk("") // a document cut short keeps the spans found before the cut
	return spans
}

// CloseTruncated makes output cut off at the token limit valid JSON again:
// it keeps everything up to the last value that ended whole directly in
// the top-level object or in an array (a line item is kept whole or not at
// all, so each kept one still has its required keys), and closes the
// brackets left open. Valid JSON comes back as it is, with false.
func CloseTruncated(out string) (string, bool) {
	if json.Valid([]byte(out)) {
		return out, false
	}
	type frame struct {
		kind    byte // '{' or '['
		wantKey bool
	}
	var stack []frame
	cut, cutDepth := -1, 0
	var cutStack []frame
	ended := func(pos int) { // a value ended at pos
		if n := len(stack); n > 0 && (stack[n-1].kind == '[' || n == 1) {
			cut, cutDepth = pos, n
			cutStack = append(cutStack[:0], stack...)
		}
	}
	inStr, esc, isKey := false, false, false
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
				if !isKey {
					ended(i + 1)
				}
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
			isKey = len(stack) > 0 && stack[len(stack)-1].kind == '{' && stack[len(stack)-1].wantKey
		case '{':
			stack = append(stack, frame{'{', true})
		case '[':
			stack = append(stack, frame{'[', false})
		case '}', ']':
			if len(stack) == 0 {
				return out, false
			}
			stack = stack[:len(stack)-1]
			ended(i + 1)
		case ':':
			if n := len(stack); n > 0 {
				stack[n-1].wantKey = false
			}
		case ',':
			if n := len(stack); n > 0 && stack[n-1].kind == '{' {
				stack[n-1].wantKey = true
			}
		case ' ', '\t', '\r', '\n':
		default: // numbers, true, false, null: whole when a delimiter follows
			if i+1 < len(out) && strings.IndexByte(",}] \t\r\n", out[i+1]) >= 0 {
				ended(i + 1)
			}
		}
	}
	if cut < 0 {
		return out, false
	}
	var b strings.Builder
	b.WriteString(out[:cut])
	for i := cutDepth - 1; i >= 0; i-- {
		if cutStack[i].kind == '{' {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
	return b.String(), true
}
