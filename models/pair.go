package models

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"

	"github.com/shoebox-app/shoebox/models/gguf"
)

// ErrMismatch is wrapped by CheckPair's error: the projector was made for
// another language model, and loading the pair fails.
var ErrMismatch = errors.New("the model and its projector do not belong together")

// IsProjector says whether a GGUF header is a vision projector (an mmproj
// file) rather than a language model.
func IsProjector(h *gguf.File) bool {
	a, _ := h.KV["general.architecture"].(string)
	return a == "clip"
}

// CheckPair checks that a projector fits a language model: the width of
// the image embeddings it writes must be the model's embedding width, and
// a Qwen3-VL projector must feed as many Deepstack layers as the model
// takes. llama.cpp refuses a pair that does not fit only when it loads it
// ("mismatch between text model and mtmd projector"); this says so before
// anything is loaded, from the headers. modelPath and projPath name the
// files in the message.
func CheckPair(modelPath string, model *gguf.File, projPath string, proj *gguf.File) error {
	mName, pName := filepath.Base(modelPath), filepath.Base(projPath)
	switch {
	case IsProjector(model) && !IsProjector(proj):
		return fmt.Errorf("%w: %s is a projector and %s a language model: give the model first, then the projector (--mmproj)", ErrMismatch, mName, pName)
	case IsProjector(model):
		return fmt.Errorf("%w: %s and %s are both projectors: a vision model is a language model and its projector", ErrMismatch, mName, pName)
	case !IsProjector(proj):
		return fmt.Errorf("%w: %s is a language model, not a projector (an mmproj-*.gguf file)", ErrMismatch, pName)
	}
	arch, _ := model.KV["general.architecture"].(string)
	embd, ok := kvUint(model, arch+".embedding_length")
	if !ok {
		return nil // a model that does not say: llama.cpp will
	}
	out, how := projectorOutput(proj)
	if out == 0 {
		return nil
	}
	if out != embd {
		return fmt.Errorf("%w: %s writes image embeddings %d wide (%s), but %s takes %d (%s.embedding_length): "+
			"the projector was made for another model; use the projector published with this model",
			ErrMismatch, pName, out, how, mName, embd, arch)
	}
	if pt, _ := proj.KV["clip.projector_type"].(string); pt == "qwen3vl_merger" {
		want, _ := kvUint(model, arch+".n_deepstack_layers")
		if got := deepstackLayers(proj); got != want {
			return fmt.Errorf("%w: %s feeds %d Deepstack layers, but %s takes %d (%s.n_deepstack_layers): "+
				"the projector was made for another model; use the projector published with this model",
				ErrMismatch, pName, got, mName, want, arch)
		}
	}
	return nil
}

// projectorOutput is the width of the embeddings a projector writes, from
// its last projection's tensor where llama.cpp reads it, else from
// clip.vision.projection_dim (which older LLaVA conversions set to CLIP's
// own projection, so the tensors come first); 0 when neither says.
func projectorOutput(p *gguf.File) (uint64, string) {
	dims := map[string][]uint64{}
	for _, t := range p.Tensors {
		dims[t.Name] = t.Dims
	}
	for _, c := range []struct {
		name string
		dim  int
	}{
		{"mm.2.bias", 0}, {"mm.2.weight", 1}, // LLaVA's MLP, Qwen2/2.5/3-VL's merger, Pixtral, Kimi-VL
		{"mm.3.bias", 0}, {"mm.3.weight", 1}, // MLP with norm, InternVL
		{"mm.input_projection.weight", 0}, // Gemma 3
		{"mm.model.mlp.3.weight", 1},      // GLM-Edge
		{"mm.model.fc.weight", 1},         // Idefics3, SmolVLM
		{"resampler.proj.weight", 0},      // MiniCPM-V
		{"mm.model.peg.0.bias", 0},        // MobileVLM v2
	} {
		if d, ok := dims[c.name]; ok && c.dim < len(d) && d[c.dim] > 0 {
			return d[c.dim], "tensor " + c.name
		}
	}
	if v, ok := kvUint(p, "clip.vision.projection_dim"); ok && v > 0 {
		return v, "clip.vision.projection_dim"
	}
	return 0, ""
}

var reDeepstack = regexp.MustCompile(`^v\.deepstack\.(\d+)\.`)

// deepstackLayers counts a Qwen3-VL projector's Deepstack mergers.
func deepstackLayers(p *gguf.File) uint64 {
	seen := map[string]bool{}
	for _, t := range p.Tensors {
		if m := reDeepstack.FindStringSubmatch(t.Name); m != nil {
			seen[m[1]] = true
		}
	}
	return uint64(len(seen))
}

// kvUint reads an integer header value of any width.
func kvUint(h *gguf.File, key string) (uint64, bool) {
	switch v := h.KV[key].(type) {
	case uint8:
		return uint64(v), true
	case uint16:
		return uint64(v), true
	case uint32:
		return uint64(v), true
	case uint64:
		return v, true
	case int8:
		return uint64(max(v, 0)), v >= 0
	case int16:
		return uint64(max(v, 0)), v >= 0
	case int32:
		return uint64(max(v, 0)), v >= 0
	case int64:
		return uint64(max(v, 0)), v >= 0
	}
	return 0, false
}
