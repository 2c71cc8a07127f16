package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// The embedded engine's grammar makes its output follow the schema; a
// server is asked to, and may not (an old server ignores response_format).
// validate checks an answer against the schema itself, for the keywords
// assets/prompts/schema.json uses and those a schema of objects, arrays
// and strings plausibly grows (line items, tax lines): type, properties,
// required, additionalProperties, items, enum, pattern, minLength,
// maxLength, minItems, maxItems, minimum, maximum. Other keywords pass.

type schemaNode struct {
	Type                 any                    `json:"type"`
	Properties           map[string]*schemaNode `json:"properties"`
	Required             []string               `json:"required"`
	AdditionalProperties *bool                  `json:"additionalProperties"`
	Items                *schemaNode            `json:"items"`
	Enum                 []any                  `json:"enum"`
	Pattern              string                 `json:"pattern"`
	MinLength            *int                   `json:"minLength"`
	MaxLength            *int                   `json:"maxLength"`
	MinItems             *int                   `json:"minItems"`
	MaxItems             *int                   `json:"maxItems"`
	Minimum              *float64               `json:"minimum"`
	Maximum              *float64               `json:"maximum"`
}

var (
	schemaMu    sync.Mutex
	schemaCache = map[string]*schemaNode{}
	patterns    sync.Map // string → *regexp.Regexp
)

func parseSchema(src string) (*schemaNode, error) {
	schemaMu.Lock()
	defer schemaMu.Unlock()
	if s, ok := schemaCache[src]; ok {
		return s, nil
	}
	var s schemaNode
	if err := json.Unmarshal([]byte(src), &s); err != nil {
		return nil, fmt.Errorf("the output schema does not parse: %w", err)
	}
	schemaCache[src] = &s
	return &s, nil
}

// validate reports the first way out breaks the schema.
func validate(schema, out string) error {
	s, err := parseSchema(schema)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return s.check(v, "the answer")
}

func (s *schemaNode) types() []string {
	switch t := s.Type.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

func typeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func (s *schemaNode) check(v any, where string) error {
	if ts := s.types(); len(ts) > 0 {
		got, ok := typeOf(v), false
		for _, t := range ts {
			if t == got || t == "number" && got == "integer" {
				ok = true
			}
		}
		if !ok {
			return fmt.Errorf("%s is %s, not %s", where, got, strings.Join(ts, " or "))
		}
	}
	if len(s.Enum) > 0 {
		ok := false
		for _, e := range s.Enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				ok = true
			}
		}
		if !ok {
			return fmt.Errorf("%s is not one of %v", where, s.Enum)
		}
	}
	switch x := v.(type) {
	case string:
		n := utf8.RuneCountInString(x)
		if s.MaxLength != nil && n > *s.MaxLength {
			return fmt.Errorf("%s is %d characters long, over %d", where, n, *s.MaxLength)
		}
		if s.MinLength != nil && n < *s.MinLength {
			return fmt.Errorf("%s is %d characters long, under %d", where, n, *s.MinLength)
		}
		if s.Pattern != "" {
			re, err := pattern(s.Pattern)
			if err == nil && !re.MatchString(x) {
				return fmt.Errorf("%s %q does not match %s", where, clip(x, 40), s.Pattern)
			}
		}
	case json.Number:
		f, _ := x.Float64()
		if s.Minimum != nil && f < *s.Minimum || s.Maximum != nil && f > *s.Maximum {
			return fmt.Errorf("%s %s is out of range", where, x)
		}
	case []any:
		if s.MaxItems != nil && len(x) > *s.MaxItems || s.MinItems != nil && len(x) < *s.MinItems {
			return fmt.Errorf("%s has %d items, out of range", where, len(x))
		}
		if s.Items != nil {
			for i, item := range x {
				if err := s.Items.check(item, fmt.Sprintf("%s[%d]", where, i)); err != nil {
					return err
				}
			}
		}
	case map[string]any:
		for _, k := range s.Required {
			if _, ok := x[k]; !ok {
				return fmt.Errorf("%s lacks %q", where, k)
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p, ok := s.Properties[k]
			if !ok {
				if s.AdditionalProperties != nil && !*s.AdditionalProperties {
					return fmt.Errorf("%s has %q, which the schema does not allow", where, k)
				}
				continue
			}
			if err := p.check(x[k], where+"."+k); err != nil {
				return err
			}
		}
	}
	return nil
}

// pattern compiles a schema pattern once (Go's RE2 reads the ECMA-262
// subset schemas use).
func pattern(p string) (*regexp.Regexp, error) {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	patterns.Store(p, re)
	return re, nil
}

// compactJSON is the schema as one line, for request bodies.
func compactJSON(src string) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, []byte(src)) != nil {
		return json.RawMessage(src)
	}
	return b.Bytes()
}

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
