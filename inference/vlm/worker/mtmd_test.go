package worker

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"testing"

	"github.com/ollama/ollama/llama"
	"github.com/ollama/ollama/ml"

	"github.com/shoebox-app/shoebox/internal/testmodel"
)

// TestImageEmbeddingsOnTinyModel: the generated projector turns an image
// into embeddings of the language model's width through the real mtmd code.
func TestImageEmbeddingsOnTinyModel(t *testing.T) {
	dir := t.TempDir()
	mpath, ppath := filepath.Join(dir, "tiny.gguf"), filepath.Join(dir, "mmproj-tiny.gguf")
	if err := testmodel.WriteLLM(mpath, testmodel.Tiny); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(ppath, testmodel.TinyProjector); err != nil {
		t.Fatal(err)
	}
	llama.BackendInit()
	model, err := llama.LoadModelFromFile(mpath, llama.ModelParams{UseMmap: true})
	if err != nil {
		t.Fatal(err)
	}
	defer llama.FreeModel(model)
	ctx, err := llama.NewContextWithModel(model, llama.NewContextParams(1024, 256, 1, 1, ml.FlashAttentionDisabled, ""))
	if err != nil {
		t.Fatal(err)
	}
	mt, err := llama.NewMtmdContext(ctx, ppath)
	if err != nil {
		t.Fatal(err)
	}
	defer mt.Free()
	img := image.NewRGBA(image.Rect(0, 0, 40, 60))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	img.Set(0, 0, color.White)
	var buf bytes.Buffer
	png.Encode(&buf, img)
	chunks, err := mt.MultimodalTokenize(ctx, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	embeds := 0
	for _, c := range chunks {
		if c.Embed != nil {
			embeds++
			if len(c.Embed) != testmodel.Tiny.Embed {
				t.Fatalf("embedding of width %d, want %d", len(c.Embed), testmodel.Tiny.Embed)
			}
		}
	}
	if embeds == 0 {
		t.Fatalf("no image embeddings in %d chunks", len(chunks))
	}
	t.Logf("%d chunks, %d image embeddings", len(chunks), embeds)
}
