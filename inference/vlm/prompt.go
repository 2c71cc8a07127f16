package vlm

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/inference/vlm/protocol"
	"github.com/shoebox-app/shoebox/models/gguf"
)

// FamilyPrompt is how one model family is prompted (assets/prompts/families.json).
type FamilyPrompt struct {
	// ChatTemplate is the llama.cpp template name used when llama.cpp does
	// not recognise the model's own template ("" lays the prompt out plainly).
	ChatTemplate string `json:"chat_template"`
	// SystemRole false puts the system prompt at the top of the user's turn.
	SystemRole bool `json:"system_role"`
}

type familyTable struct {
	Families       map[string]FamilyPrompt `json:"families"`
	ProjectorTypes map[string]string       `json:"projector_types"`
}

var families = func() familyTable {
	var t familyTable
	if err := json.Unmarshal(assets.PromptFamilies, &t); err != nil {
		panic("assets/prompts/families.json: " + err.Error())
	}
	return t
}()

// FamilyOf names the model family of a projector type (clip.projector_type
// in an mmproj file): "qwen3vl", "internvl", "gemma3"…; "" when unknown.
func FamilyOf(projectorType string) string {
	return families.ProjectorTypes[projectorType]
}

// ProjectorFamily reads a projector file's header for its family.
func ProjectorFamily(path string) string {
	f, err := gguf.Read(path)
	if err != nil {
		return ""
	}
	t, _ := f.KV["clip.projector_type"].(string)
	return FamilyOf(t)
}

// PromptFor is the family's prompt layout; unknown families get the system
// turn and the model's own template only.
func PromptFor(family string) FamilyPrompt {
	if p, ok := families.Families[family]; ok {
		return p
	}
	return FamilyPrompt{SystemRole: true}
}

// BuildPrompt lays out one page's request for a family: the short
// business-context system prompt (system, from assets), then in the user's
// turn after the image the page's own text (a PDF text layer) or its OCR
// laid out in reading order with line breaks, then the instruction.
func BuildPrompt(family, system string, page inference.Page) protocol.PageRequest {
	fp := PromptFor(family)
	var user strings.Builder
	if page.Text != "" {
		user.WriteString(strings.TrimSpace(assets.TextLayerHeader) + "\n")
		user.WriteString(strings.TrimSpace(page.Text) + "\n\n")
	} else if len(page.Words) > 0 {
		lines := fields.GroupLines(page.Words)
		hint := LayoutText(lines)
		if len(hint) > maxLayoutBytes {
			// A long page's columns would crowd the image and the answer
			// out of the context: its lines alone, in reading order.
			hint = LayoutText(plainLines(lines))
		}
		user.WriteString(strings.TrimSpace(assets.OCRHintHeader) + "\n")
		user.WriteString(hint + "\n\n")
	}
	user.WriteString(strings.TrimSpace(assets.ReceiptInstruction))
	req := protocol.PageRequest{System: strings.TrimSpace(system), User: user.String(), Template: fp.ChatTemplate}
	if !fp.SystemRole {
		req.User, req.System = req.System+"\n\n"+req.User, ""
	}
	return req
}

// layoutColumns is the widest a laid-out line may be; a hint laid out
// longer than maxLayoutBytes (about 1,000 tokens where runs of spaces are
// one token, as in Qwen's and Gemma's vocabularies; more in a vocabulary
// that spends a token per space) keeps its lines but not its columns.
const (
	layoutColumns  = 80
	maxLayoutBytes = 3000
)

// plainLines are lines without their words, which LayoutText writes as
// they read, one a line.
func plainLines(lines []fields.Line) []fields.Line {
	out := make([]fields.Line, len(lines))
	for i, l := range lines {
		out[i] = fields.Line{Text: l.Text, Box: l.Box}
	}
	return out
}

// LayoutText writes OCR lines top to bottom, each word at the column its
// position on the page gives, so that a line's amounts stay in their
// column as printed (an item's price right of its name, a table's columns
// under their heads). Columns are scaled to fit layoutColumns.
func LayoutText(lines []fields.Line) string {
	lines = slices.Clone(lines)
	sort.SliceStable(lines, func(i, j int) bool {
		a, b := lines[i].Box, lines[j].Box
		if a.Page != b.Page {
			return a.Page < b.Page
		}
		return a.Y+a.H/2 < b.Y+b.H/2
	})
	// Character width: the median of the words' widths per character.
	// The left margin is where most lines start (a tenth of them may start
	// further left: specks and scanner edges read as text).
	var widths []float64
	var starts []int
	right := 0
	for _, l := range lines {
		first := math.MaxInt
		for _, w := range l.Words {
			if n := len([]rune(w.Text)); n > 0 && w.Box.W > 0 {
				widths = append(widths, float64(w.Box.W)/float64(n))
			}
			right = max(right, w.Box.X+w.Box.W)
			first = min(first, w.Box.X)
		}
		if first < math.MaxInt {
			starts = append(starts, first)
		}
	}
	sort.Ints(starts)
	left := 0
	if len(starts) > 0 {
		left = starts[len(starts)/10]
	}
	if len(widths) == 0 {
		var out []string
		for _, l := range lines {
			out = append(out, strings.TrimSpace(l.Text))
		}
		return strings.Join(out, "\n")
	}
	sort.Float64s(widths)
	charW := widths[len(widths)/2]
	if span := float64(right - left); span/charW > layoutColumns {
		charW = span / layoutColumns
	}
	var out []string
	for _, l := range lines {
		if len(l.Words) == 0 {
			out = append(out, strings.TrimSpace(l.Text))
			continue
		}
		words := slices.Clone(l.Words)
		sort.SliceStable(words, func(i, j int) bool { return words[i].Box.X < words[j].Box.X })
		var b strings.Builder
		col := 0
		for i, w := range words {
			want := max(0, int(math.Round(float64(w.Box.X-left)/charW)))
			switch {
			case i == 0:
			case want > col+1:
			default:
				want = col + 1
			}
			for ; col < want; col++ {
				b.WriteByte(' ')
			}
			b.WriteString(w.Text)
			col += len([]rune(w.Text))
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return strings.Join(out, "\n")
}
