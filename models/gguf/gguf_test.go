package gguf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/fs/ggml"
)

func TestWriteThenReadAgreesWithOllamasReader(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.gguf")
	var w Writer
	w.Set("general.architecture", "llama")
	w.Set("llama.block_count", uint32(2))
	w.Set("llama.embedding_length", uint32(64))
	w.Set("tokenizer.ggml.tokens", []string{"<s>", "</s>", "a"})
	w.Set("tokenizer.ggml.scores", []float32{0, 0, -1})
	w.AddF32("token_embd.weight", []uint64{64, 3}, make([]float32, 192))
	w.AddF32("output_norm.weight", []uint64{64}, make([]float32, 64))
	if err := w.Write(p); err != nil {
		t.Fatal(err)
	}
	f, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if f.Version != 3 || len(f.Tensors) != 2 || f.KV["llama.block_count"] != uint32(2) || f.Tensors[1].Offset != 768 || f.Tensors[1].Size != 256 {
		t.Fatalf("read back: %+v", f)
	}
	fh, _ := os.Open(p)
	defer fh.Close()
	g, err := ggml.Decode(fh, -1)
	if err != nil {
		t.Fatalf("ollama's reader rejects our file: %v", err)
	}
	if g.KV().BlockCount() != 2 || len(g.Tensors().Items()) != 2 {
		t.Fatalf("ollama reads %d blocks, %d tensors", g.KV().BlockCount(), len(g.Tensors().Items()))
	}
}

func TestTensorSizes(t *testing.T) {
	for _, tt := range []struct {
		typ  TensorType
		n    uint64
		want uint64
	}{{F32, 10, 40}, {F16, 10, 20}, {Q8_0, 64, 68}, {Q4_0, 32, 18}, {12, 256, 144}, {BF16, 3, 6}} {
		if got, err := tt.typ.Size(tt.n); err != nil || got != tt.want {
			t.Errorf("type %d × %d = %d (%v), want %d", tt.typ, tt.n, got, err, tt.want)
		}
	}
	if _, err := TensorType(99).Size(1); err == nil {
		t.Error("unknown type accepted")
	}
	if _, err := Q8_0.Size(33); err == nil {
		t.Error("partial block accepted")
	}
}

func TestHalf(t *testing.T) {
	for _, tc := range []struct {
		in   float32
		want uint16
	}{
		{0, 0},
		{1, 0x3c00},
		{-2, 0xc000},
		{0.5, 0x3800},
		{65504, 0x7bff},
		{1e6, 0x7c00},
		{1e-8, 0},
		{0.1, 0x2e66},
		{1.0009765625, 0x3c01},
		{1.00048828125, 0x3c00},
		/* tie to even */ {1.00146484375, 0x3c02},
	} {
		if got := Half(tc.in); got != tc.want {
			t.Errorf("Half(%v) = %#04x, want %#04x", tc.in, got, tc.want)
		}
	}
}

// A file cut by a few bytes must be caught whatever the header's length:
// the tensor data starts at the aligned end of the header counted from the
// file's first byte, magic included.
func TestReadCatchesAFileCutShort(t *testing.T) {
	for pad := 0; pad < 32; pad++ {
		p := filepath.Join(t.TempDir(), "t.gguf")
		var w Writer
		w.Set("general.architecture", "llama")
		w.Set("general.name", strings.Repeat("x", pad))
		w.AddF32("output_norm.weight", []uint64{64}, make([]float32, 64))
		if err := w.Write(p); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(p); err != nil {
			t.Fatalf("whole file refused: %v", err)
		}
		st, _ := os.Stat(p)
		for cut := int64(1); cut <= 32; cut++ {
			if err := os.Truncate(p, st.Size()-cut); err != nil {
				t.Fatal(err)
			}
			if _, err := Read(p); err == nil {
				t.Errorf("header pad %d: a file cut by %d bytes passes", pad, cut)
				break
			}
		}
	}
}
