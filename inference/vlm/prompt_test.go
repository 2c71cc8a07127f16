package vlm

import (
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

func word(text string, x, y, line int) inference.Word {
	return inference.Word{Text: text, Box: receipt.Box{X: x, Y: y, W: 10 * len(text), H: 12}, Line: line}
}

// TestPromptsPerFamily: every family lays out the same parts (system
// context, OCR hint in reading order with its columns, instruction), with
// the system prompt in its own turn or at the top of the user's.
func TestPromptsPerFamily(t *testing.T) {
	page := inference.Page{Words: []inference.Word{
		word("TOTAL", 0, 100, 2), word("12.50", 200, 100, 2),
		word("ACME", 0, 0, 1), word("STORE", 50, 0, 1),
	}}
	for _, c := range []struct {
		projector, family, template string
		systemTurn                  bool
	}{
		{"qwen3vl_merger", "qwen3vl", "chatml", true},
		{"qwen2.5vl_merger", "qwen25vl", "chatml", true},
		{"internvl", "internvl", "chatml", true},
		{"resampler", "minicpmv", "chatml", true},
		{"gemma3", "gemma3", "gemma", false},
		{"idefics3", "smolvlm", "smolvlm", false},
		{"mlp", "llava", "", true},
	} {
		fam := FamilyOf(c.projector)
		if fam != c.family {
			t.Errorf("%s: family %q, want %q", c.projector, fam, c.family)
		}
		req := BuildPrompt(fam, assets.ReceiptPrompt, page)
		if req.Template != c.template || (req.System != "") != c.systemTurn {
			t.Errorf("%s: template %q, system turn %v", fam, req.Template, req.System != "")
		}
		all := req.System + "\n" + req.User
		hint := strings.Index(all, "ACME STORE\nTOTAL")
		if !strings.Contains(all, "bookkeeping firm") || hint < 0 || hint > strings.Index(all, "Transcribe this document") {
			t.Errorf("%s: prompt parts out of place:\n%s", fam, all)
		}
		if !strings.Contains(all, "TOTAL               12.50") {
			t.Errorf("%s: the amount lost its column:\n%s", fam, all)
		}
	}
}

func TestValidateJSON(t *testing.T) {
	good := `{"supplier_name":"A","date":"1/2/25","total":"9.00","line_items":[{"description":"X","amount":"1.00"}]}`
	if err := ValidateJSON(assets.ReceiptSchema, good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		`{"supplier_name":"A","date":"1/2/25"}`,
		`{"supplier_name":"A","date":"1/2/25","total":"9"}`,
		`{"supplier_name":"A","date":"1/2/25","total":"9.00","colour":"red"}`,
		`{"supplier_name":"A","date":"1/2/25","total":"9.00","line_items":[{"description":"X"}]}`,
		`{"supplier_name":"A","date":"1/2/25","total":"9.00","document_type":"memo"}`,
	} {
		if ValidateJSON(assets.ReceiptSchema, bad) == nil {
			t.Errorf("%s passed", bad)
		}
	}
}

// TestLongHintKeepsLinesNotColumns: a page too long to lay out in columns
// within the context gets its lines alone.
func TestLongHintKeepsLinesNotColumns(t *testing.T) {
	var words []inference.Word
	for i := 0; i < 150; i++ {
		words = append(words, word("ITEM", 0, 20*i, i), word("9.99", 600, 20*i, i))
	}
	req := BuildPrompt("qwen3vl", assets.ReceiptPrompt, inference.Page{Words: words})
	if strings.Contains(req.User, "ITEM  ") || strings.Count(req.User, "ITEM 9.99\n") != 150 {
		t.Errorf("long hint:\n%s", req.User[:300])
	}
}
