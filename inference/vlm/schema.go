package vlm

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"unicode/utf8"
)

// ValidateJSON checks a JSON document against a JSON schema of the kinds
// assets/prompts/schema.json uses (object, array, string; properties,
// required, additionalProperties false, items, maxItems, maxLength,
// pattern, enum), naming the first value that breaks it. A grammar holds
// the embedded engine's output to the schema; a model server's answer, or
// one closed after the token limit, is checked with this.
func ValidateJSON(schema, doc string) error {
	var s, d any
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		return fmt.Errorf("the schema is not JSON: %w", err)
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return validate(s.(map[string]any), d, "$")
}

func validate(s map[string]any, v any, at string) error {
	switch s["type"] {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s is not an object", at)
		}
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]any)
		for _, k := range req {
			if _, ok := obj[k.(string)]; !ok {
				return fmt.Errorf("%s lacks the required %q", at, k)
			}
		}
		for k, x := range obj {
			ps, ok := props[k].(map[string]any)
			if !ok {
				if s["additionalProperties"] == false {
					return fmt.Errorf("%s has %q, which the schema does not allow", at, k)
				}
				continue
			}
			if err := validate(ps, x, at+"."+k); err != nil {
				return err
			}
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s is not an array", at)
		}
		if m, ok := s["maxItems"].(float64); ok && len(arr) > int(m) {
			return fmt.Errorf("%s has %d items, more than %d", at, len(arr), int(m))
		}
		items, _ := s["items"].(map[string]any)
		for i, x := range arr {
			if items != nil {
				if err := validate(items, x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s is not a string", at)
		}
		if m, ok := s["maxLength"].(float64); ok && utf8.RuneCountInString(str) > int(m) {
			return fmt.Errorf("%s is longer than %d characters", at, int(m))
		}
		if p, ok := s["pattern"].(string); ok {
			re, err := regexp.Compile(p)
			if err != nil {
				return fmt.Errorf("%s: the schema's pattern %q: %w", at, p, err)
			}
			if !re.MatchString(str) {
				return fmt.Errorf("%s %q does not match %s", at, str, p)
			}
		}
		if e, ok := s["enum"].([]any); ok && !slices.Contains(e, any(str)) {
			return fmt.Errorf("%s %q is not one of %v", at, str, e)
		}
	}
	return nil
}
