package hw

import (
	"path/filepath"
	"testing"

	"github.com/shoebox-app/shoebox/internal/testmodel"
)

func TestFactsFromGGUF(t *testing.T) {
	dir := t.TempDir()
	half := testmodel.Tiny
	half.F16 = true
	for _, tc := range []struct {
		model   testmodel.LLM
		variant string
	}{{testmodel.Tiny, "F32"}, {half, "F16"}} {
		m, p := filepath.Join(dir, tc.variant+".gguf"), filepath.Join(dir, "mmproj.gguf")
		if err := testmodel.WriteLLM(m, tc.model); err != nil {
			t.Fatal(err)
		}
		if err := testmodel.WriteProjector(p, testmodel.TinyProjector); err != nil {
			t.Fatal(err)
		}
		f, err := FactsFromGGUF(m, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Variants) != 1 || f.Variants[0].Name != tc.variant || f.Layers != tc.model.Layers || f.EmbedDim != tc.model.Embed || f.ProjectorBytes == 0 {
			t.Errorf("%s: %+v", tc.variant, f)
		}
	}
}
