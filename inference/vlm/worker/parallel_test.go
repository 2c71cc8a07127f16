package worker

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ollama/ollama/llama"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference/vlm/protocol"
	"github.com/shoebox-app/shoebox/internal/testmodel"
)

func tinyPair(t testing.TB) (model, projector string) {
	dir := t.TempDir()
	model, projector = filepath.Join(dir, "tiny.gguf"), filepath.Join(dir, "mmproj-tiny.gguf")
	if err := testmodel.WriteLLM(model, testmodel.Tiny); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(projector, testmodel.TinyProjector); err != nil {
		t.Fatal(err)
	}
	return model, projector
}

func testPage(t testing.TB, seed int, user string) protocol.PageRequest {
	img := image.NewGray(image.Rect(0, 0, 48, 64))
	for i := range img.Pix {
		img.Pix[i] = byte(i*seed + seed*seed)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return protocol.PageRequest{Image: buf.Bytes(), System: "You read receipts.", User: user}
}

// TestParallelSequencesAreIsolated: pages read together as parallel
// sequences in one context each get a reading, a page that cannot be read
// fails alone, and a page's logits beside another page are its logits
// alone (to float rounding: a batch of two takes other kernels than a batch
// of one, so long greedy outputs of a random-weight model may part at a
// near-tie; attending to the other page's cells would move them by whole
// units).
func TestParallelSequencesAreIsolated(t *testing.T) {
	model, projector := tinyPair(t)
	pages := []protocol.PageRequest{
		testPage(t, 1, "Read this receipt."),
		testPage(t, 2, "Read this invoice, please."),
		{Image: []byte("not an image"), System: "You read receipts.", User: "Read this."},
		testPage(t, 3, "What is the total?"),
	}
	load := func(parallel int) *session {
		s := &session{}
		var resp protocol.WorkerResponse
		if err := s.load(protocol.WorkerRequest{Model: model, Projector: projector, Threads: 1, Context: 2048, Parallel: parallel, Batch: 512}, &resp); err != nil {
			t.Fatal(err)
		}
		return s
	}

	s := load(len(pages))
	defer s.free()
	var resp protocol.WorkerResponse
	if err := s.extract(protocol.WorkerRequest{Pages: pages, Schema: assets.ReceiptSchema, MaxTokens: 200}, &resp); err != nil {
		t.Fatal(err)
	}
	for i, got := range resp.Pages {
		if i == 2 {
			if got.Error == "" {
				t.Errorf("page 2 is not an image but read as %q", got.Output)
			}
			continue
		}
		if got.Error != "" || len(got.Pieces) == 0 || !strings.HasPrefix(got.Output, "{") || got.PromptTokens == 0 || got.DecodeMS <= 0 {
			t.Errorf("page %d: %+v", i, got)
		}
	}
	if err := s.extract(protocol.WorkerRequest{Pages: append(pages, pages[0]), Schema: assets.ReceiptSchema}, &resp); err == nil {
		t.Error("five pages went into a context made for four")
	}

	// The first decoding step of page 1, alone and beside page 0.
	firstStep := func(s *session, pages []protocol.PageRequest) []float32 {
		s.ctx.KvCacheClear()
		b, err := llama.NewBatch(16, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Free()
		for i, p := range pages {
			pos, _, _, err := s.prefill(p, i)
			if err != nil {
				t.Fatal(err)
			}
			b.Add(3+'{', nil, pos, true, i)
		}
		if err := s.ctx.Decode(b); err != nil {
			t.Fatal(err)
		}
		return slices.Clone(logitsAt(s.ctx, len(pages)-1, s.model.NumVocab()))
	}
	one := load(1)
	defer one.free()
	alone, beside := firstStep(one, pages[1:2]), firstStep(s, pages[:2])
	var worst float64
	for i := range alone {
		worst = max(worst, math.Abs(float64(alone[i]-beside[i])))
	}
	if worst > 1e-3 {
		t.Errorf("page 1's logits move by up to %g when page 0 is read beside it", worst)
	}
}

// TestQwen2VLReadsPagesWithMRoPE runs a tiny Qwen2-VL pair (an M-RoPE
// language model and a qwen2vl_merger projector) through the worker's
// path: mtmd lays out the image's M-RoPE positions, the decode steps go on
// from the position mtmd returns, alone and as parallel sequences.
func TestQwen2VLReadsPagesWithMRoPE(t *testing.T) {
	dir := t.TempDir()
	model, projector := filepath.Join(dir, "qwen.gguf"), filepath.Join(dir, "mmproj-qwen.gguf")
	llm := testmodel.Tiny
	llm.Qwen2VL = true
	if err := testmodel.WriteLLM(model, llm); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(projector, testmodel.TinyQwenProjector); err != nil {
		t.Fatal(err)
	}
	readsPages(t, model, projector)
}

// readsPages reads one page, then two as parallel sequences, with a model
// pair, and checks each reading.
func readsPages(t *testing.T, model, projector string) {
	t.Helper()
	s := &session{}
	defer s.free()
	var resp protocol.WorkerResponse
	if err := s.load(protocol.WorkerRequest{Model: model, Projector: projector, Threads: 1, Context: 2048, Parallel: 2, Batch: 512}, &resp); err != nil {
		t.Fatal(err)
	}
	pages := []protocol.PageRequest{testPage(t, 1, "Read this receipt."), testPage(t, 2, "Read this one.")}
	for _, batch := range [][]protocol.PageRequest{pages[:1], pages} {
		resp = protocol.WorkerResponse{}
		if err := s.extract(protocol.WorkerRequest{Pages: batch, Schema: assets.ReceiptSchema, MaxTokens: 300}, &resp); err != nil {
			t.Fatal(err)
		}
		for i, p := range resp.Pages {
			if p.Error != "" || !strings.HasPrefix(p.Output, "{") || p.PromptTokens == 0 {
				t.Errorf("%d pages, page %d: %+v", len(batch), i, p)
			}
		}
	}
}

// TestGemma3ReadsPagesWithBidirectionalImageAttention runs a tiny Gemma 3
// pair: mtmd decodes its image tokens with causal attention off, then the
// worker's decode steps go on causally, alone and as parallel sequences.
func TestGemma3ReadsPagesWithBidirectionalImageAttention(t *testing.T) {
	dir := t.TempDir()
	model, projector := filepath.Join(dir, "gemma3.gguf"), filepath.Join(dir, "mmproj-gemma3.gguf")
	llm := testmodel.Tiny
	llm.Gemma3 = true
	if err := testmodel.WriteLLM(model, llm); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(projector, testmodel.TinyGemma3Projector); err != nil {
		t.Fatal(err)
	}
	readsPages(t, model, projector)
}

// TestQwen25VLReadsPagesWithWindowedAttention: Qwen2.5-VL's projector
// (windowed attention, RMS norms, gated SiLU) with the M-RoPE model.
func TestQwen25VLReadsPagesWithWindowedAttention(t *testing.T) {
	dir := t.TempDir()
	model, projector := filepath.Join(dir, "qwen25.gguf"), filepath.Join(dir, "mmproj-qwen25.gguf")
	llm := testmodel.Tiny
	llm.Qwen2VL = true
	if err := testmodel.WriteLLM(model, llm); err != nil {
		t.Fatal(err)
	}
	proj := testmodel.TinyQwenProjector
	proj.Qwen25 = true
	if err := testmodel.WriteProjector(projector, proj); err != nil {
		t.Fatal(err)
	}
	readsPages(t, model, projector)
}
