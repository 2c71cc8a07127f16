package worker

import (
	"fmt"
	"time"

	"github.com/ollama/ollama/llama"
	"github.com/ollama/ollama/ml"

	"github.com/shoebox-app/shoebox/hw"
)

// BareDecode is the yardstick for the engine's overhead: it loads a model
// in this process as the plan says (threads, GPU layers, split), fills the
// context with prompt tokens (a step's attention cost grows with what
// precedes it: compare at the engine's prompt length) and decodes n tokens
// greedily by argmax, with no grammar, no sampler and no probabilities,
// and returns the time per token.
func BareDecode(modelPath string, prompt, n int, plan hw.Plan) (time.Duration, error) {
	llama.BackendInit()
	split := make([]float32, 0, len(plan.TensorSplit))
	for _, l := range plan.TensorSplit {
		split = append(split, float32(l))
	}
	threads := plan.Threads
	m, err := llama.LoadModelFromFile(modelPath, llama.ModelParams{UseMmap: true, NumGpuLayers: plan.GPULayers, MainGpu: plan.MainGPU, TensorSplit: split})
	if err != nil {
		return 0, err
	}
	defer llama.FreeModel(m)
	prompt = max(prompt, 1)
	ctx, err := llama.NewContextWithModel(m, llama.NewContextParams(prompt+n+64, 512, 1, max(threads, 1), ml.FlashAttentionAuto, ""))
	if err != nil {
		return 0, err
	}
	b, err := llama.NewBatch(512, 1, 0)
	if err != nil {
		return 0, err
	}
	defer b.Free()
	text, err := m.Tokenize("Receipt: TAX INVOICE, 2 x coffee 4.50, total 9.00. ", false, false)
	if err != nil || len(text) == 0 {
		return 0, fmt.Errorf("the model cannot tokenize text: %w", err)
	}
	toks := make([]int, prompt)
	for i := range toks {
		toks[i] = text[i%len(text)]
	}
	for i := 0; i < len(toks); i += 512 {
		b.Clear()
		for j := i; j < min(i+512, len(toks)); j++ {
			b.Add(toks[j], nil, j, j == len(toks)-1, 0)
		}
		if err := ctx.Decode(b); err != nil {
			return 0, err
		}
	}
	idx, pos := b.NumTokens()-1, len(toks)
	start := time.Now()
	for i := 0; i < n; i++ {
		logits := ctx.GetLogitsIth(idx)
		best := 0
		for j, l := range logits {
			if l > logits[best] {
				best = j
			}
		}
		b.Clear()
		b.Add(best, nil, pos, true, 0)
		pos++
		if err := ctx.Decode(b); err != nil {
			return 0, fmt.Errorf("bare decode step %d: %w", i, err)
		}
		idx = 0
	}
	return time.Since(start) / time.Duration(max(n, 1)), nil
}
