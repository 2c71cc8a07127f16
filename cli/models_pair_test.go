package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/internal/testmodel"
)

// models verify with a projector made for another model fails (rc 1) and
// says why, before extract would fail loading the pair.
func TestModelsVerifyRefusesAMismatchedProjector(t *testing.T) {
	t.Setenv("SHOEBOX_MODELS", t.TempDir())
	dir := t.TempDir()
	llm, own, other := filepath.Join(dir, "llm.gguf"), filepath.Join(dir, "mmproj-own.gguf"), filepath.Join(dir, "mmproj-other.gguf")
	wide := testmodel.TinyProjector
	wide.TextEmbed = 32
	if err := testmodel.WriteLLM(llm, testmodel.Tiny); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(own, testmodel.TinyProjector); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(other, wide); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "models", "verify", llm, "--mmproj", own)
	if code != 0 || !strings.Contains(out, "mmproj-own.gguf fits llm.gguf") {
		t.Errorf("its own projector: %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = run(t, "models", "verify", llm, "--mmproj", other)
	if code == 0 || !strings.Contains(errOut, "do not belong together") || !strings.Contains(errOut, "32 wide") {
		t.Errorf("another model's projector: %d\n%s%s", code, out, errOut)
	}
}
