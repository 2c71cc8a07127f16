package llamacpp

import (
	"path/filepath"
	"testing"

	"github.com/ollama/ollama/llama"
	"github.com/ollama/ollama/ml"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference/testmodel"
)

// TestGreedySamplerPicksWhatTheFullChainPicks decodes with llama.cpp's own
// sampler chain (grammar over the whole vocabulary every step) and checks
// that the fast path (grammar asked about the best token first) chooses the
// same token at every step. The chain is greedy only with TopP and TypicalP
// at 1: ollama's zero values leave llama.cpp's typical-p sampler at p=0,
// which keeps the token whose surprise is nearest the entropy, not the most
// likely one (the engine ran that way until the fast path replaced it).
func TestGreedySamplerPicksWhatTheFullChainPicks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := testmodel.WriteLLM(path, testmodel.Tiny); err != nil {
		t.Fatal(err)
	}
	llama.BackendInit()
	model, err := llama.LoadModelFromFile(path, llama.ModelParams{UseMmap: true})
	if err != nil {
		t.Fatal(err)
	}
	defer llama.FreeModel(model)
	ctx, err := llama.NewContextWithModel(model, llama.NewContextParams(2048, 256, 1, 1, ml.FlashAttentionDisabled, ""))
	if err != nil {
		t.Fatal(err)
	}
	grammar := string(llama.SchemaToGrammar([]byte(assets.ReceiptSchema)))
	chain, err := llama.NewSamplingContext(model, llama.SamplingParams{Temp: 0, TopP: 1, TypicalP: 1, Seed: 1, Grammar: grammar})
	if err != nil {
		t.Fatal(err)
	}
	fast, err := newGreedySampler(newVocab(model), grammar)
	if err != nil {
		t.Fatal(err)
	}
	defer fast.free()
	toks, err := model.Tokenize("user: read this receipt\nassistant: ", true, true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := llama.NewBatch(256, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	for i, tok := range toks {
		b.Add(tok, nil, i, i == len(toks)-1, 0)
	}
	if err := ctx.Decode(b); err != nil {
		t.Fatal(err)
	}
	pos, idx, slow := len(toks), b.NumTokens()-1, 0
	for n := 0; n < 300; n++ {
		want := chain.Sample(ctx, idx)
		chain.Accept(want, true)
		logits := logitsAt(ctx, idx, model.NumVocab())
		if argmax(logits) != want {
			slow++
		}
		got, p, err := fast.pick(logits)
		if err != nil {
			t.Fatalf("step %d: %v", n, err)
		}
		if got != want {
			t.Fatalf("step %d: fast path picked %q, the chain %q", n, model.TokenToPiece(got), model.TokenToPiece(want))
		}
		if !(p > 0 && p <= 1) {
			t.Fatalf("step %d: probability %v", n, p)
		}
		if model.TokenIsEog(got) {
			break
		}
		b.Clear()
		b.Add(got, nil, pos, true, 0)
		pos++
		idx = 0
		if err := ctx.Decode(b); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d steps needed the grammar over the whole vocabulary", slow)
}

func TestSoftmaxAt(t *testing.T) {
	logits := []float32{1, 2, 3, -100}
	for _, tc := range []struct {
		tok  int
		want float64
	}{{2, 0.665241}, {0, 0.090031}, {3, 0}} {
		if got := softmaxAt(logits, tc.tok, 3); got < float32(tc.want-1e-5) || got > float32(tc.want+1e-5) {
			t.Errorf("softmaxAt(%d) = %v, want %v", tc.tok, got, tc.want)
		}
	}
}
