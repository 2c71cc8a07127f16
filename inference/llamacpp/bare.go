package llamacpp

import (
	"fmt"
	"time"

	"github.com/ollama/ollama/llama"
	"github.com/ollama/ollama/ml"

	"github.com/shoebox-app/shoebox/hw"
)

// BareDecode is the yardstick for the engine's overhead: it loads a model
// in this process as the plan says (threads, GPU layers, split) and decodes
// n tokens greedily by argmax, with no grammar, no sampler and no
// probabilities, and returns the time per token.
func BareDecode(modelPath string, n int, plan hw.Plan) (time.Duration, error) {
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
	ctx, err := llama.NewContextWithModel(m, llama.NewContextParams(max(n+64, 512), 64, 1, max(threads, 1), ml.FlashAttentionAuto, ""))
	if err != nil {
		return 0, err
	}
	b, err := llama.NewBatch(64, 1, 0)
	if err != nil {
		return 0, err
	}
	defer b.Free()
	toks, err := m.Tokenize("Receipt:", true, true)
	if err != nil {
		return 0, err
	}
	for i, t := range toks {
		b.Add(t, nil, i, i == len(toks)-1, 0)
	}
	if err := ctx.Decode(b); err != nil {
		return 0, err
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
