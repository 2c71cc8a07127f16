// Package testmodel writes tiny random-weight GGUF models that the real
// llama.cpp loads and runs on the CPU in milliseconds: a llama-architecture
// language model with a byte-level SentencePiece vocabulary, so any text,
// and any grammar-constrained JSON, can be produced. Tests and
// `shoebox testmodel` use them; no weights are downloaded.
package testmodel

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/shoebox-app/shoebox/models/gguf"
)

// LLM describes the tiny language model.
type LLM struct {
	Embed, Heads, Layers, FFN, Context int
	Seed                               int64
	// Bang makes the model say "!" whatever it is asked, as a GPU with
	// broken arithmetic does: for testing the guards.
	Bang bool
	// ChatTemplate replaces the default (plain, unknown to llama.cpp) template.
	ChatTemplate string
	// Vocab pads the 259 byte-level tokens with made-up word pieces up to
	// this size, as real vocabularies (32k–150k) are: the output layer and
	// every full grammar pass grow with it. 0: bytes only.
	Vocab int
	// F16 stores the weight matrices in half precision, as released models
	// are (norms stay F32); Tied leaves out output.weight, so the output
	// layer reuses token_embd as Qwen2.5's smaller models do.
	F16, Tied bool
	// Qwen2VL makes a "qwen2vl" model: the same tensors, with M-RoPE
	// positions (three position sections per token), as Qwen2-VL and
	// Qwen2.5-VL's language models have. Pair it with a QwenMerger projector.
	Qwen2VL bool
	// Prefer makes a scripted model instead of a random one: every token's
	// logit is fixed, the bytes of Prefer first in that order, so greedy
	// decoding under a grammar writes the allowed byte that comes first in
	// Prefer at every step (in AfterQuote right after a '"'), whatever the
	// prompt or image (blocks add nothing; a token's embedding says only
	// whether it is a quote).
	Prefer, AfterQuote string
	// Qwen3VL makes a "qwen3vl" model: Qwen3's query/key norms and no
	// attention biases, interleaved M-RoPE, and DeepstackLayers extra
	// slices of each image embedding that the first DeepstackLayers blocks
	// add to their output (Qwen3-VL's deepstack). Pair it with a
	// Qwen3Merger projector with as many deepstack layers.
	Qwen3VL         bool
	DeepstackLayers int
	// Gemma3 makes a "gemma3" model (query/key norms, norms after attention
	// and feed-forward), whose image tokens attend to each other both ways:
	// mtmd turns causal attention off while it decodes them. Pair it with a
	// Gemma3 projector.
	Gemma3 bool
}

// Tiny is small enough to load and decode in well under a second.
var Tiny = LLM{Embed: 64, Heads: 4, Layers: 2, FFN: 128, Context: 2048, Seed: 1}

// Scripted is Tiny made to fill the receipt schema's lists: empty strings,
// amounts of 1.11, six tax lines, then line items until the token limit
// (see Prefer). It shows a reading with line items and tax lines end to end.
var Scripted = LLM{Embed: 64, Heads: 4, Layers: 2, FFN: 128, Context: 8192, Seed: 1, Prefer: "\",.{[tal1", AfterQuote: ",.{[tal1\""}

// Bench has the shape that sets a real model's per-token cost: ~0.35 B
// parameters in F16 (0.7 GB, one memory pass per token like a 1–2 B
// quantised model) and a Qwen-sized 151,936-token vocabulary. For
// measuring the engine against a bare decode loop; its output is nonsense.
var Bench = LLM{Embed: 1024, Heads: 16, Layers: 16, FFN: 2816, Context: 8192, Seed: 1, Vocab: 151936, F16: true, Tied: true}

// Vocabulary: <unk>, <s>, </s>, then the 256 byte tokens.
const (
	tokUnk   = 0
	tokBOS   = 1
	tokEOS   = 2
	vocabLen = 3 + 256
)

// WriteLLM writes the model to path.
func WriteLLM(path string, m LLM) error {
	rng := rand.New(rand.NewSource(m.Seed))
	nVocab := max(m.Vocab, vocabLen)
	var w gguf.Writer
	arch := "llama"
	switch {
	case m.Qwen2VL:
		arch = "qwen2vl"
	case m.Qwen3VL:
		arch = "qwen3vl"
	case m.Gemma3:
		arch = "gemma3"
	}
	w.Set("general.architecture", arch)
	w.Set("general.name", "shoebox-tiny-"+arch)
	if m.F16 {
		w.Set("general.file_type", uint32(1)) // mostly F16
	} else {
		w.Set("general.file_type", uint32(0)) // all F32
	}
	w.Set(arch+".context_length", uint32(m.Context))
	w.Set(arch+".embedding_length", uint32(m.Embed))
	w.Set(arch+".block_count", uint32(m.Layers))
	w.Set(arch+".feed_forward_length", uint32(m.FFN))
	w.Set(arch+".attention.head_count", uint32(m.Heads))
	w.Set(arch+".attention.head_count_kv", uint32(m.Heads))
	w.Set(arch+".rope.dimension_count", uint32(m.Embed/m.Heads))
	w.Set(arch+".attention.layer_norm_rms_epsilon", float32(1e-5))
	w.Set(arch+".vocab_size", uint32(nVocab))
	if m.Qwen3VL {
		w.Set(arch+".n_deepstack_layers", uint32(m.DeepstackLayers))
	}
	if m.Qwen2VL || m.Qwen3VL {
		// Sections of the rotary half of a head: time, height, width (and
		// none for the fourth), as Qwen2-VL's [16, 24, 24, 0] for 128.
		half := int32(m.Embed / m.Heads / 2)
		w.Set(arch+".rope.dimension_sections", []int32{half / 4, (half - half/4) / 2, half - half/4 - (half-half/4)/2, 0})
	}

	tokens := []string{"<unk>", "<s>", "</s>"}
	types := []int32{2, 3, 3} // unknown, control, control
	for b := 0; b < 256; b++ {
		tokens = append(tokens, fmt.Sprintf("<0x%02X>", b))
		types = append(types, 6) // byte
	}
	for i := 0; len(tokens) < nVocab; i++ {
		tokens = append(tokens, wordPiece(i))
		types = append(types, 1) // normal
	}
	unk := uint32(tokUnk)
	if m.Bang { // swap "<unk>" and the byte token of '!' so that '!' is token 0
		bang := 3 + int('!')
		tokens[0], tokens[bang] = tokens[bang], tokens[0]
		types[0], types[bang] = types[bang], types[0]
		unk = uint32(bang)
	}
	scores := make([]float32, nVocab)
	for i := vocabLen; i < nVocab; i++ {
		scores[i] = -float32(i) // shorter pieces (earlier) merge first
	}
	w.Set("tokenizer.ggml.model", "llama")
	w.Set("tokenizer.ggml.tokens", tokens)
	w.Set("tokenizer.ggml.scores", scores)
	w.Set("tokenizer.ggml.token_type", types)
	w.Set("tokenizer.ggml.bos_token_id", uint32(tokBOS))
	w.Set("tokenizer.ggml.eos_token_id", uint32(tokEOS))
	w.Set("tokenizer.ggml.unknown_token_id", unk)
	w.Set("tokenizer.ggml.add_bos_token", true)
	tmpl := m.ChatTemplate
	if tmpl == "" {
		tmpl = "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}assistant: "
	}
	w.Set("tokenizer.chat_template", tmpl)

	randn := func(n int, scale float32) []float32 { return randn(rng, n, scale) }
	ones := func(n int) []float32 { return fill(n, 1) }
	matrix := w.AddF32
	if m.F16 {
		matrix = w.AddF16
	}
	e, f, v := uint64(m.Embed), uint64(m.FFN), uint64(nVocab)
	embd := randn(m.Embed*nVocab, 0.5)
	// The scripted model's fixed logits: one set after a '"' (its own
	// preference order, AfterQuote), another after any other token, so
	// that even without a grammar it writes more than one character (the
	// canary refuses "!!!!"-like output).
	var logits, afterQuote []float32
	if m.Prefer != "" {
		quote := 3 + int('"')
		embd = make([]float32, m.Embed*nVocab)
		for tok := 0; tok < nVocab; tok++ {
			if tok == quote {
				embd[tok*m.Embed+1] = 1 // the second axis marks a quote
			} else {
				embd[tok*m.Embed] = 1
			}
		}
		rank := func(prefer string) []float32 {
			l := fill(nVocab, -5)
			l[tokEOS] = -10 // only where the grammar allows nothing else
			for i := 0; i < len(prefer); i++ {
				l[3+int(prefer[i])] = 10 - float32(i)*0.1
			}
			return l
		}
		logits, afterQuote = rank(m.Prefer), rank(m.AfterQuote)
	}
	matrix("token_embd.weight", []uint64{e, v}, embd)
	outNorm := ones(m.Embed)
	if m.Bang {
		outNorm = make([]float32, m.Embed) // every logit is 0: greedy picks token 0, which is "!"
	}
	w.AddF32("output_norm.weight", []uint64{e}, outNorm)
	switch {
	case logits != nil:
		// The normed hidden state is √Embed on one axis: the first after
		// most tokens, the second after a quote.
		out := make([]float32, m.Embed*nVocab)
		k := float32(math.Sqrt(float64(m.Embed)))
		for tok := range logits {
			out[tok*m.Embed] = logits[tok] / k
			out[tok*m.Embed+1] = afterQuote[tok] / k
		}
		matrix("output.weight", []uint64{e, v}, out)
	case !m.Tied:
		matrix("output.weight", []uint64{e, v}, randn(m.Embed*nVocab, 0.5))
	}
	// A scripted model's blocks add nothing to the residual stream.
	scale := float32(0.1)
	if logits != nil {
		scale = 0
	}
	for i := 0; i < m.Layers; i++ {
		p := fmt.Sprintf("blk.%d.", i)
		w.AddF32(p+"attn_norm.weight", []uint64{e}, ones(m.Embed))
		for _, n := range []string{"attn_q", "attn_k", "attn_v"} {
			matrix(p+n+".weight", []uint64{e, e}, randn(m.Embed*m.Embed, 0.1))
		}
		matrix(p+"attn_output.weight", []uint64{e, e}, randn(m.Embed*m.Embed, scale))
		if m.Gemma3 || m.Qwen3VL {
			hd := uint64(m.Embed / m.Heads)
			w.AddF32(p+"attn_q_norm.weight", []uint64{hd}, ones(int(hd)))
			w.AddF32(p+"attn_k_norm.weight", []uint64{hd}, ones(int(hd)))
		}
		if m.Gemma3 {
			w.AddF32(p+"post_attention_norm.weight", []uint64{e}, ones(m.Embed))
			w.AddF32(p+"post_ffw_norm.weight", []uint64{e}, ones(m.Embed))
		}
		if m.Qwen2VL { // Qwen2's attention has biases, and its graph adds them
			for _, n := range []string{"attn_q", "attn_k", "attn_v"} {
				w.AddF32(p+n+".bias", []uint64{e}, make([]float32, m.Embed))
			}
		}
		w.AddF32(p+"ffn_norm.weight", []uint64{e}, ones(m.Embed))
		matrix(p+"ffn_gate.weight", []uint64{e, f}, randn(m.Embed*m.FFN, 0.1))
		matrix(p+"ffn_up.weight", []uint64{e, f}, randn(m.Embed*m.FFN, 0.1))
		matrix(p+"ffn_down.weight", []uint64{f, e}, randn(m.FFN*m.Embed, scale))
	}
	return w.Write(path)
}

// wordPiece is the i-th made-up vocabulary entry: two or more lower-case
// letters, every other one starting a word (SentencePiece's "▁").
func wordPiece(i int) string {
	var b []byte
	for n := i/2 + 26; n > 0; n /= 26 {
		b = append(b, byte('a'+n%26))
	}
	if i%2 == 0 {
		return "\u2581" + string(b)
	}
	return string(b)
}

// randn is n normal random weights of the given scale.
func randn(rng *rand.Rand, n int, scale float32) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(rng.NormFloat64()) * scale
	}
	return out
}

// fill is n copies of v.
func fill(n int, v float32) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = v
	}
	return out
}
