package fields

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

var update = flag.Bool("update", false, "rewrite testdata/*.json from what the rules find now")

// TestGolden replays readings of dev receipts (testdata/NAME.lines, the
// words `shoebox eval --dump` writes, with a "# country: XX" row) through
// the rules and compares what they find with testdata/NAME.json. A rule
// change shows its effect here as a diff, without Tesseract or the images:
// review it, then `go test ./inference/fields -run Golden -update`.
func TestGolden(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.lines")
	if len(paths) < 10 {
		t.Fatalf("only %d golden readings in testdata", len(paths))
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".lines")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			country := receipt.CountryOther
			for _, row := range strings.Split(string(raw), "\n") {
				if c, ok := strings.CutPrefix(row, "# country: "); ok {
					country = receipt.Country(strings.TrimSpace(c))
				}
			}
			words, err := inference.ReadWords(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			lines, loc := GroupLines(words), receipt.DefaultLocale(country)
			r := ExtractFields(lines, loc, testNow)
			Assess(&r, lines, loc, testNow) // the evidence, without the reader's second looks
			got, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			want := strings.TrimSuffix(p, ".lines") + ".json"
			if *update {
				if err := os.WriteFile(want, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			exp, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if !bytes.Equal(got, exp) {
				t.Errorf("the rules now read %s differently:\n%s", name, fieldDiff(exp, got))
			}
		})
	}
}

// fieldDiff lists the receipt fields whose JSON differs, with both sides
// on one line each: enough to see which field a rule change moved.
func fieldDiff(want, got []byte) string {
	var w, g map[string]json.RawMessage
	if json.Unmarshal(want, &w) != nil || json.Unmarshal(got, &g) != nil {
		return "- " + string(want) + "\n+ " + string(got)
	}
	keys := map[string]bool{}
	for k := range w {
		keys[k] = true
	}
	for k := range g {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		a, c := compact(w[k]), compact(g[k])
		if a != c {
			fmt.Fprintf(&b, "%s:\n  - %s\n  + %s\n", k, a, c)
		}
	}
	return b.String()
}

func compact(m json.RawMessage) string {
	var b bytes.Buffer
	if len(m) == 0 || json.Compact(&b, m) != nil {
		return string(m)
	}
	return b.String()
}
