package pipeline

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/internal/testmodel"
)

// The model chosen in Settings is checked as a pair: a projector made for
// another model fails the check (and the library reads with OCR).
func TestVerifyPairRefusesAMismatchedProjector(t *testing.T) {
	dir := t.TempDir()
	llm, proj := filepath.Join(dir, "llm.gguf"), filepath.Join(dir, "mmproj.gguf")
	other := testmodel.TinyProjector
	other.TextEmbed = 32
	testmodel.WriteLLM(llm, testmodel.Tiny)
	testmodel.WriteProjector(proj, testmodel.TinyProjector)
	if msg, ok := VerifyPair(llm, proj); !ok {
		t.Fatalf("its own projector: %s", msg)
	}
	testmodel.WriteProjector(proj, other)
	if msg, ok := VerifyPair(llm, proj); ok || !strings.Contains(msg, "do not belong together") {
		t.Errorf("another model's projector: %v %s", ok, msg)
	}
}
