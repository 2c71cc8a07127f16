package models

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/internal/testmodel"
	"github.com/shoebox-app/shoebox/models/gguf"
)

func writePair(t *testing.T, llm testmodel.LLM, proj testmodel.Projector) (string, *gguf.File, string, *gguf.File) {
	t.Helper()
	dir := t.TempDir()
	m, p := filepath.Join(dir, "llm.gguf"), filepath.Join(dir, "mmproj.gguf")
	if err := testmodel.WriteLLM(m, llm); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(p, proj); err != nil {
		t.Fatal(err)
	}
	mh, err := gguf.Read(m)
	if err != nil {
		t.Fatal(err)
	}
	ph, err := gguf.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	return m, mh, p, ph
}

// A projector made for another model (its embeddings another width) is
// refused before anything is loaded, for every family testmodel writes;
// each family's own pair passes.
func TestAMismatchedProjectorIsRefused(t *testing.T) {
	qwen := testmodel.Tiny
	qwen.Qwen2VL = true
	qwen3 := testmodel.Tiny
	qwen3.Qwen3VL, qwen3.DeepstackLayers = true, 1
	gemma := testmodel.Tiny
	gemma.Gemma3 = true
	narrow := func(p testmodel.Projector) testmodel.Projector { p.TextEmbed = 32; return p }
	for _, c := range []struct {
		name string
		llm  testmodel.LLM
		proj testmodel.Projector
	}{
		{"llava", testmodel.Tiny, testmodel.TinyProjector},
		{"qwen2vl", qwen, testmodel.TinyQwenProjector},
		{"qwen3vl", qwen3, testmodel.TinyQwen3Projector},
		{"gemma3", gemma, testmodel.TinyGemma3Projector},
	} {
		m, mh, p, ph := writePair(t, c.llm, c.proj)
		if err := CheckPair(m, mh, p, ph); err != nil {
			t.Errorf("%s: its own pair: %v", c.name, err)
		}
		m, mh, p, ph = writePair(t, c.llm, narrow(c.proj))
		err := CheckPair(m, mh, p, ph)
		if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "32 wide") || !strings.Contains(err.Error(), "takes 64") {
			t.Errorf("%s: a projector 32 wide for a model 64 wide: %v", c.name, err)
		}
	}
	// The tiny model with the bench projector (what `shoebox testmodel`
	// writes for each size).
	m, mh, p, ph := writePair(t, testmodel.Tiny, testmodel.BenchProjector)
	if err := CheckPair(m, mh, p, ph); !errors.Is(err, ErrMismatch) {
		t.Errorf("tiny model, bench projector: %v", err)
	}
	// Deepstack layers the model does not take.
	noDeep := qwen3
	noDeep.DeepstackLayers = 0
	m, mh, p, ph = writePair(t, noDeep, testmodel.TinyQwen3Projector)
	if err := CheckPair(m, mh, p, ph); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "Deepstack") {
		t.Errorf("deepstack: %v", err)
	}
	// Two models, or the projector first.
	m, mh, p, ph = writePair(t, testmodel.Tiny, testmodel.TinyProjector)
	if err := CheckPair(p, ph, m, mh); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "model first") {
		t.Errorf("swapped: %v", err)
	}
	if err := CheckPair(m, mh, m, mh); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "not a projector") {
		t.Errorf("two models: %v", err)
	}
}
