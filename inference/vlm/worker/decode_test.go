package worker

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ollama/ollama/llama"
	"github.com/ollama/ollama/ml"

	"github.com/shoebox-app/shoebox/internal/testmodel"
)

// TestGrammarDecodeOnTinyModel runs the real llama.cpp on a generated model:
// load, tokenize, decode, and grammar-constrained greedy sampling, which
// must yield JSON that fits the schema even from random weights.
func TestGrammarDecodeOnTinyModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := testmodel.WriteLLM(path, testmodel.Tiny); err != nil {
		t.Fatal(err)
	}
	llama.BackendInit()
	model, err := llama.LoadModelFromFile(path, llama.ModelParams{UseMmap: true})
	if err != nil {
		t.Fatalf("llama.cpp rejects the tiny model: %v", err)
	}
	defer llama.FreeModel(model)
	ctx, err := llama.NewContextWithModel(model, llama.NewContextParams(1024, 256, 1, 1, ml.FlashAttentionDisabled, ""))
	if err != nil {
		t.Fatal(err)
	}
	schema := `{"type":"object","properties":{"supplier_name":{"type":"string","maxLength":12},"total":{"type":"string","pattern":"^-?[0-9]{1,7}[.][0-9]{2}$"}},"required":["supplier_name","total"],"additionalProperties":false}`
	grammar := llama.SchemaToGrammar([]byte(schema))
	if grammar == nil {
		t.Fatal("no grammar from the schema")
	}
	sampler, err := llama.NewSamplingContext(model, llama.SamplingParams{Temp: 0, TopP: 1, TypicalP: 1, Seed: 1, Grammar: string(grammar)})
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := model.Tokenize("user: read this receipt\nassistant: ", true, true)
	if err != nil || len(tokens) < 10 {
		t.Fatalf("tokenize: %d tokens, %v", len(tokens), err)
	}
	batch, err := llama.NewBatch(512, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer batch.Free()
	for i, tok := range tokens {
		batch.Add(tok, nil, i, i == len(tokens)-1, 0)
	}
	if err := ctx.Decode(batch); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	pos := len(tokens)
	for n := 0; n < 200; n++ {
		tok := sampler.Sample(ctx, batch.NumTokens()-1)
		sampler.Accept(tok, true)
		if model.TokenIsEog(tok) {
			break
		}
		out.WriteString(model.TokenToPiece(tok))
		batch.Clear()
		batch.Add(tok, nil, pos, true, 0)
		pos++
		if err := ctx.Decode(batch); err != nil {
			t.Fatal(err)
		}
	}
	var got struct {
		SupplierName *string `json:"supplier_name"`
		Total        *string `json:"total"`
	}
	dec := json.NewDecoder(strings.NewReader(out.String()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil || got.SupplierName == nil || got.Total == nil || !regexp.MustCompile(`^-?[0-9]{1,7}[.][0-9]{2}$`).MatchString(*got.Total) {
		t.Fatalf("output %q is not schema-valid JSON: %v", out.String(), err)
	}
	t.Logf("tiny model wrote %s", out.String())
}
