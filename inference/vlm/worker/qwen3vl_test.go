package worker

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/vlm"
	"github.com/shoebox-app/shoebox/inference/vlm/protocol"
	"github.com/shoebox-app/shoebox/internal/testmodel"
	"github.com/shoebox-app/shoebox/receipt"
)

// TestQwen3VLReadsPagesWithDeepstack runs a tiny Qwen3-VL pair (a qwen3vl
// model with interleaved M-RoPE and a deepstack layer, a qwen3vl_merger
// projector whose image embeddings carry the deepstack slice beside the
// main one) through the worker, alone and as parallel sequences.
func TestQwen3VLReadsPagesWithDeepstack(t *testing.T) {
	dir := t.TempDir()
	model, projector := filepath.Join(dir, "qwen3vl.gguf"), filepath.Join(dir, "mmproj-qwen3vl.gguf")
	llm := testmodel.Tiny
	llm.Qwen3VL, llm.DeepstackLayers = true, testmodel.TinyQwen3Projector.Deepstack
	if err := testmodel.WriteLLM(model, llm); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(projector, testmodel.TinyQwen3Projector); err != nil {
		t.Fatal(err)
	}
	if fam := vlm.ProjectorFamily(projector); fam != "qwen3vl" {
		t.Errorf("family %q", fam)
	}
	readsPages(t, model, projector)
}

// TestLongAnswerStaysSchemaValid: a model that writes line items for as
// long as it may (the scripted tiny model, asked about a 40-line receipt)
// stops at the token limit, and its answer, closed after the last whole
// item, fits the schema and holds 40 items and more.
func TestLongAnswerStaysSchemaValid(t *testing.T) {
	dir := t.TempDir()
	model, projector := filepath.Join(dir, "scripted.gguf"), filepath.Join(dir, "mmproj.gguf")
	if err := testmodel.WriteLLM(model, testmodel.Scripted); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(projector, testmodel.TinyProjector); err != nil {
		t.Fatal(err)
	}
	s := &session{}
	defer s.free()
	var resp protocol.WorkerResponse
	if err := s.load(protocol.WorkerRequest{Model: model, Projector: projector, Threads: 1, Context: 8192, Parallel: 1, Batch: 512}, &resp); err != nil {
		t.Fatal(err)
	}
	var words []inference.Word
	for i := 0; i < 40; i++ {
		words = append(words, inference.Word{Text: fmt.Sprintf("ITEM%02d", i), Box: receipt.Box{X: 10, Y: 20 * i, W: 60, H: 12}, Line: i},
			inference.Word{Text: fmt.Sprintf("%d.50", i+1), Box: receipt.Box{X: 300, Y: 20 * i, W: 40, H: 12}, Line: i})
	}
	page := vlm.BuildPrompt("qwen3vl", assets.ReceiptPrompt, inference.Page{Words: words})
	page.Image = testPage(t, 1, "").Image
	if err := s.extract(protocol.WorkerRequest{Pages: []protocol.PageRequest{page}, Schema: assets.ReceiptSchema, MaxTokens: vlm.DefaultMaxTokens}, &resp); err != nil {
		t.Fatal(err)
	}
	got := resp.Pages[0]
	if got.Error != "" || len(got.Pieces) > vlm.DefaultMaxTokens {
		t.Fatalf("%d tokens: %+v", len(got.Pieces), got.Error)
	}
	closed, cut := vlm.CloseTruncated(got.Output)
	if err := vlm.ValidateJSON(assets.ReceiptSchema, closed); err != nil {
		t.Fatalf("closed answer breaks the schema: %v\n%s", err, clipped(closed))
	}
	var doc struct {
		Items []any `json:"line_items"`
		Taxes []any `json:"tax_lines"`
	}
	json.Unmarshal([]byte(closed), &doc)
	if len(doc.Items) < 40 || len(doc.Taxes) == 0 {
		t.Errorf("%d line items and %d tax lines in %d tokens (cut %v):\n%s", len(doc.Items), len(doc.Taxes), len(got.Pieces), cut, clipped(closed))
	}
	r, err := vlm.ParseModelJSON(got.Output, got.Pieces, receipt.DefaultLocale(receipt.CountryAU))
	if err != nil || len(r.LineItems) != len(doc.Items) || len(r.TaxLines) != len(doc.Taxes) {
		t.Errorf("parsed %d items, %d tax lines: %v", len(r.LineItems), len(r.TaxLines), err)
	}
	t.Logf("%d tokens, %d line items, %d tax lines, cut at the limit: %v", len(got.Pieces), len(doc.Items), len(doc.Taxes), cut)
}

func clipped(s string) string {
	if len(s) > 600 {
		return s[:300] + " … " + s[len(s)-300:]
	}
	return strings.TrimSpace(s)
}
