package worker

import (
	"math"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ollama/ollama/llama"
	"github.com/ollama/ollama/ml"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/internal/testmodel"
)

// TestGreedySamplerPicksWhatTheFullChainPicks decodes with llama.cpp's own
// sampler chain (grammar over the whole vocabulary every step) and checks
// that the fast path (grammar asked about the best token first) chooses the
// same token at every step. The chain is greedy only with TopP and TypicalP
// at 1: ollama's zero values leave llama.cpp's typical-p sampler at p=0,
// which keeps the token whose surprise is nearest the entropy, not the most
// likely one (the engine ran that way until the fast path replaced it).
func TestGreedySamplerPicksWhatTheFullChainPicks(t *testing.T) {
	wide := testmodel.Tiny
	wide.Vocab = 5000 // so that the favourite, the next 255 and the whole vocabulary all get their turn
	for name, m := range map[string]testmodel.LLM{"bytes": testmodel.Tiny, "5000 tokens": wide} {
		t.Run(name, func(t *testing.T) { greedyAgainstChain(t, m) })
	}
}

func greedyAgainstChain(t *testing.T, m testmodel.LLM) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := testmodel.WriteLLM(path, m); err != nil {
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
	fast, err := newGreedySampler(model, grammar, newFirstByteIndex(model))
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
	t.Logf("%d steps where the favourite broke the grammar, %d needed the whole vocabulary", slow, fast.full)
}

func TestLogitStats(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	big := make([]float32, 151936) // split between goroutines
	for i := range big {
		big[i] = float32(rng.NormFloat64() * 3)
	}
	big[99999] = 25
	for _, tc := range []struct {
		name   string
		logits []float32
	}{
		{"small", []float32{1, 2, 3, -100}},
		{"largest first", []float32{9, 1, 2, 3}},
		{"152k", big},
	} {
		t.Run(tc.name, func(t *testing.T) {
			best, maxL, sum := logitStats(tc.logits)
			want, wantSum := 0, 0.0
			for i, l := range tc.logits {
				if l > tc.logits[want] {
					want = i
				}
			}
			for _, l := range tc.logits {
				wantSum += math.Exp(float64(l - tc.logits[want]))
			}
			if best != want || maxL != tc.logits[want] || math.Abs(float64(sum)-wantSum)/wantSum > 1e-4 {
				t.Errorf("best %d max %v sum %v, want %d %v %v", best, maxL, sum, want, tc.logits[want], wantSum)
			}
		})
	}
}

func TestTopK(t *testing.T) {
	logits := []float32{0.5, 3, -1, 3, 7, 0.5, 2}
	for k, want := range map[int][]int{1: {4}, 3: {4, 1, 3}, 5: {4, 1, 3, 6, 0}, 9: {4, 1, 3, 6, 0, 5, 2}} {
		if got := topK(logits, k, nil); !slices.Equal(got, want) {
			t.Errorf("topK(%d) = %v, want %v", k, got, want)
		}
	}
}

// BenchmarkGrammarOn152kVocab: what one token costs the sampler on a
// Qwen-sized vocabulary when the model's favourite fits the grammar (the
// usual case for a trained model) and when the whole vocabulary must be
// asked. go test -bench Grammar ./inference/llamacpp/
func BenchmarkGrammarOn152kVocab(b *testing.B) {
	m := testmodel.Tiny
	m.Vocab = 151936
	path := filepath.Join(b.TempDir(), "vocab.gguf")
	if err := testmodel.WriteLLM(path, m); err != nil {
		b.Fatal(err)
	}
	llama.BackendInit()
	model, err := llama.LoadModelFromFile(path, llama.ModelParams{VocabOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer llama.FreeModel(model)
	grammar := string(llama.SchemaToGrammar([]byte(assets.ReceiptSchema)))
	b.Run("new grammar", func(b *testing.B) {
		for b.Loop() {
			s, err := newGreedySampler(model, grammar, nil)
			if err != nil {
				b.Fatal(err)
			}
			s.free()
		}
	})
	// At the start only '{' fits. Ranked first, it is the only token asked;
	// ranked last, the best 256 are asked and then the vocabulary: all of
	// it, or the tokens whose first byte the grammar allows.
	logits := make([]float32, m.Vocab)
	byFirst := newFirstByteIndex(model)
	for _, tc := range []struct {
		name  string
		brace float32
		index *firstByteIndex
	}{{"favourite allowed", 10, byFirst}, {"whole vocabulary", -10, nil}, {"vocabulary by first byte", -10, byFirst}} {
		b.Run(tc.name+" (with new grammar)", func(b *testing.B) {
			clear(logits)
			logits[3+'{'] = tc.brace
			for b.Loop() {
				s, err := newGreedySampler(model, grammar, tc.index)
				if err != nil {
					b.Fatal(err)
				}
				if tok, _, err := s.pick(logits); err != nil || tok != 3+'{' {
					b.Fatalf("picked %d (%v), want '{'", tok, err)
				}
				s.free()
			}
		})
	}
}

// BenchmarkLogitStats: the best token and the softmax denominator over a
// Qwen-sized vocabulary
// with logits spread as a trained model's are.
func BenchmarkLogitStats(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	logits := make([]float32, 151936)
	for i := range logits {
		logits[i] = float32(rng.NormFloat64() * 3)
	}
	for b.Loop() {
		logitStats(logits)
	}
}

func TestExpNeg(t *testing.T) {
	worst := 0.0
	for x := -40.0; x <= 0; x += 0.0007 {
		got, want := float64(expNeg(float32(x))), math.Exp(float64(float32(x)))
		worst = math.Max(worst, math.Abs(got-want)/want)
	}
	if worst > 1e-5 {
		t.Errorf("expNeg is off by up to %g (relative)", worst)
	}
	if expNeg(-100) != 0 || expNeg(0) != 1 {
		t.Errorf("expNeg(-100) = %g, expNeg(0) = %g", expNeg(-100), expNeg(0))
	}
}

// argmax is the index of the largest logit.
func argmax(logits []float32) int {
	if len(logits) == 0 {
		return -1
	}
	best := 0
	for i, l := range logits {
		if l > logits[best] {
			best = i
		}
	}
	return best
}
