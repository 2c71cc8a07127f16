package testmodel

import (
	"fmt"
	"math/rand"

	"github.com/shoebox-app/shoebox/models/gguf"
)

// Projector describes a tiny LLaVA-type vision projector (CLIP encoder plus
// a two-layer MLP into the language model's embedding space).
type Projector struct {
	ImageSize, PatchSize, Embed, Heads, Layers, FFN, Hidden int
	TextEmbed                                               int // the language model's embedding size
	Seed                                                    int64
	// QwenMerger makes a Qwen2-VL projector ("qwen2vl_merger"): two patch
	// convolutions, M-RoPE inside the encoder, no position table, and 2×2
	// patches merged into one image token. Pair it with an LLM with Qwen2VL.
	QwenMerger bool
	// Qwen25 (with QwenMerger) makes Qwen2.5-VL's: RMS norms, a gated SiLU
	// feed-forward, and windowed attention in every layer but each second.
	Qwen25 bool
	// Qwen3Merger makes a Qwen3-VL projector ("qwen3vl_merger"): two patch
	// convolutions with a bias, a learned position table resized to the
	// image, fused QKV attention with M-RoPE, 2×2 patches merged, and
	// Deepstack layers whose outputs, merged and projected as the last
	// layer's are, ride along each image embedding (its width is
	// TextEmbed × (1 + Deepstack)). Pair it with an LLM with Qwen3VL.
	Qwen3Merger bool
	Deepstack   int
	// Gemma3 makes a Gemma 3 projector: a SigLIP encoder (position table, no
	// class token), patches averaged 2×2, a norm and one projection.
	Gemma3 bool
}

// TinyGemma3Projector pairs with a Tiny LLM with Gemma3 set.
var TinyGemma3Projector = Projector{ImageSize: 32, PatchSize: 8, Embed: 32, Heads: 2, Layers: 2, FFN: 64, Hidden: 64, TextEmbed: 64, Seed: 4, Gemma3: true}

// TinyQwen3Projector pairs with a Tiny LLM with Qwen3VL and
// DeepstackLayers 1.
var TinyQwen3Projector = Projector{ImageSize: 32, PatchSize: 8, Embed: 32, Heads: 2, Layers: 2, FFN: 64, Hidden: 64, TextEmbed: 64, Seed: 5, Qwen3Merger: true, Deepstack: 1}

// TinyQwenProjector pairs with a Tiny LLM with Qwen2VL set.
var TinyQwenProjector = Projector{ImageSize: 32, PatchSize: 8, Embed: 32, Heads: 2, Layers: 2, FFN: 64, Hidden: 64, TextEmbed: 64, Seed: 3, QwenMerger: true}

// BenchProjector pairs with Bench: 224-pixel images in 14-pixel patches,
// 256 image tokens.
var BenchProjector = Projector{ImageSize: 224, PatchSize: 14, Embed: 256, Heads: 4, Layers: 4, FFN: 1024, Hidden: 1024, TextEmbed: 1024, Seed: 2}

// TinyProjector pairs with Tiny.
var TinyProjector = Projector{ImageSize: 32, PatchSize: 8, Embed: 32, Heads: 2, Layers: 2, FFN: 64, Hidden: 64, TextEmbed: 64, Seed: 2}

// WriteProjector writes the projector (an mmproj file) to path.
func WriteProjector(path string, p Projector) error {
	rng := rand.New(rand.NewSource(p.Seed))
	var w gguf.Writer
	w.Set("general.architecture", "clip")
	w.Set("general.name", "shoebox-tiny-mmproj")
	w.Set("general.file_type", uint32(0))
	w.Set("clip.has_vision_encoder", true)
	switch {
	case p.Qwen3Merger:
		w.Set("clip.projector_type", "qwen3vl_merger")
	case p.QwenMerger && p.Qwen25:
		w.Set("clip.projector_type", "qwen2.5vl_merger")
		w.Set("clip.vision.n_wa_pattern", uint32(2))
		w.Set("clip.use_silu", true)
	case p.QwenMerger:
		w.Set("clip.projector_type", "qwen2vl_merger")
	case p.Gemma3:
		w.Set("clip.projector_type", "gemma3")
		w.Set("clip.vision.projector.scale_factor", uint32(2))
	default:
		w.Set("clip.projector_type", "mlp")
	}
	w.Set("clip.use_gelu", !p.Qwen25)
	w.Set("clip.vision.image_size", uint32(p.ImageSize))
	w.Set("clip.vision.patch_size", uint32(p.PatchSize))
	w.Set("clip.vision.embedding_length", uint32(p.Embed))
	w.Set("clip.vision.feed_forward_length", uint32(p.FFN))
	w.Set("clip.vision.block_count", uint32(p.Layers))
	w.Set("clip.vision.projection_dim", uint32(p.TextEmbed))
	w.Set("clip.vision.attention.head_count", uint32(p.Heads))
	w.Set("clip.vision.attention.layer_norm_epsilon", float32(1e-5))
	w.Set("clip.vision.image_mean", []float32{0.48, 0.46, 0.41})
	w.Set("clip.vision.image_std", []float32{0.27, 0.26, 0.28})

	randn := func(n int, scale float32) []float32 { return randn(rng, n, scale) }
	e, f, h, t := uint64(p.Embed), uint64(p.FFN), uint64(p.Hidden), uint64(p.TextEmbed)
	ps := uint64(p.PatchSize)
	nPos := uint64((p.ImageSize/p.PatchSize)*(p.ImageSize/p.PatchSize) + 1)
	w.AddF32("v.patch_embd.weight", []uint64{ps, ps, 3, e}, randn(int(ps*ps*3*e), 0.05))
	merged := e // what the merger's first layer takes in
	if p.Qwen3Merger {
		nPatch := nPos - 1
		w.AddF32("v.patch_embd.weight.1", []uint64{ps, ps, 3, e}, randn(int(ps*ps*3*e), 0.05))
		w.AddF32("v.patch_embd.bias", []uint64{e}, fill(int(e), 0))
		w.AddF32("v.position_embd.weight", []uint64{e, nPatch}, randn(int(e*nPatch), 0.1))
		merged = 4 * e
	} else if p.QwenMerger {
		// Two frames' convolution (a still image is both), positions by
		// M-RoPE rather than a table, 2×2 patches into one token.
		w.AddF32("v.patch_embd.weight.1", []uint64{ps, ps, 3, e}, randn(int(ps*ps*3*e), 0.05))
		merged = 4 * e
	} else if p.Gemma3 {
		nPatch := nPos - 1 // no class token
		w.AddF32("v.position_embd.weight", []uint64{e, nPatch}, randn(int(e*nPatch), 0.1))
	} else {
		w.AddF32("v.class_embd", []uint64{e}, randn(int(e), 0.1))
		w.AddF32("v.position_embd.weight", []uint64{e, nPos}, randn(int(e*nPos), 0.1))
	}
	w.AddF32("v.pre_ln.weight", []uint64{e}, fill(int(e), 1))
	w.AddF32("v.pre_ln.bias", []uint64{e}, fill(int(e), 0))
	for i := 0; i < p.Layers; i++ {
		b := fmt.Sprintf("v.blk.%d.", i)
		attn := []string{"attn_q", "attn_k", "attn_v", "attn_out"}
		if p.Qwen3Merger {
			w.AddF32(b+"attn_qkv.weight", []uint64{e, 3 * e}, randn(int(3*e*e), 0.1))
			w.AddF32(b+"attn_qkv.bias", []uint64{3 * e}, fill(int(3*e), 0))
			attn = attn[3:]
		}
		for _, n := range attn {
			w.AddF32(b+n+".weight", []uint64{e, e}, randn(int(e*e), 0.1))
			w.AddF32(b+n+".bias", []uint64{e}, fill(int(e), 0))
		}
		if p.Qwen3Merger && i < p.Deepstack {
			d := fmt.Sprintf("v.deepstack.%d.", i)
			w.AddF32(d+"norm.weight", []uint64{4 * e}, fill(int(4*e), 1))
			w.AddF32(d+"norm.bias", []uint64{4 * e}, fill(int(4*e), 0))
			w.AddF32(d+"fc1.weight", []uint64{4 * e, h}, randn(int(4*e*h), 0.1))
			w.AddF32(d+"fc1.bias", []uint64{h}, fill(int(h), 0))
			w.AddF32(d+"fc2.weight", []uint64{h, t}, randn(int(h*t), 0.1))
			w.AddF32(d+"fc2.bias", []uint64{t}, fill(int(t), 0))
		}
		w.AddF32(b+"ln1.weight", []uint64{e}, fill(int(e), 1))
		w.AddF32(b+"ln1.bias", []uint64{e}, fill(int(e), 0))
		w.AddF32(b+"ln2.weight", []uint64{e}, fill(int(e), 1))
		w.AddF32(b+"ln2.bias", []uint64{e}, fill(int(e), 0))
		if p.Qwen25 {
			w.AddF32(b+"ffn_gate.weight", []uint64{e, f}, randn(int(e*f), 0.1))
			w.AddF32(b+"ffn_gate.bias", []uint64{f}, fill(int(f), 0))
		}
		w.AddF32(b+"ffn_up.weight", []uint64{e, f}, randn(int(e*f), 0.1))
		w.AddF32(b+"ffn_up.bias", []uint64{f}, fill(int(f), 0))
		w.AddF32(b+"ffn_down.weight", []uint64{f, e}, randn(int(f*e), 0.1))
		w.AddF32(b+"ffn_down.bias", []uint64{e}, fill(int(e), 0))
	}
	if p.Gemma3 {
		w.AddF32("mm.soft_emb_norm.weight", []uint64{e}, fill(int(e), 1))
		w.AddF32("mm.input_projection.weight", []uint64{t, e}, randn(int(t*e), 0.1))
		return w.Write(path)
	}
	w.AddF32("mm.0.weight", []uint64{merged, h}, randn(int(merged*h), 0.1))
	w.AddF32("mm.0.bias", []uint64{h}, fill(int(h), 0))
	w.AddF32("mm.2.weight", []uint64{h, t}, randn(int(h*t), 0.1))
	w.AddF32("mm.2.bias", []uint64{t}, fill(int(t), 0))
	return w.Write(path)
}
