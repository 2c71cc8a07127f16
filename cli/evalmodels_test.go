package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/internal/testmodel"
)

// devSubset copies the first n labelled dev receipts into a folder.
func devSubset(t *testing.T, n int) string {
	files, _ := filepath.Glob("../../shared/data/sroie-dev/*.jpg")
	if len(files) < n {
		t.Skip("shared receipts not present")
	}
	dir := t.TempDir()
	for _, f := range files[:n] {
		stem := strings.TrimSuffix(f, ".jpg")
		for _, ext := range []string{".jpg", ".json"} {
			data, err := os.ReadFile(stem + ext)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, filepath.Base(stem)+ext), data, 0o644)
		}
	}
	return dir
}

// TestEvalComparesModels: eval --models reads the labelled receipts with
// each model (here two local pairs) and prints one table.
func TestEvalComparesModels(t *testing.T) {
	model, proj := tinyPair(t)
	labels := devSubset(t, 2)
	t.Setenv("SHOEBOX_TEST_WORKER", "1")
	pair := model + "+" + proj
	code, out, errOut := run(t, "eval", "--models", pair+","+pair, "--max-tokens", "512", "--labels", labels)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"MODEL", "COMPANY", "TOTAL", "READY", "RIGHT/READY", "REC/MIN", "MEMORY", "2 receipts each"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Count(out, "tiny.gguf+") < 2 {
		t.Errorf("not one row per model:\n%s", out)
	}
}

// TestEvalModelsDownloadNeedsConsentAndSaysWhy: a catalogue model that is
// not there is downloaded only with consent, and a failed download says
// what to do without a network.
func TestEvalModelsDownloadNeedsConsentAndSaysWhy(t *testing.T) {
	labels := devSubset(t, 1)
	t.Setenv("SHOEBOX_MODELS", t.TempDir())
	code, out, errOut := run(t, "eval", "--models", "qwen3-vl-2b", "--labels", labels)
	if code == 0 || !strings.Contains(errOut, "download Qwen3VL-2B-Instruct-Q4_K_M.gguf and mmproj-Qwen3VL-2B-Instruct-F16.gguf") ||
		!strings.Contains(errOut, "not downloaded (answer y, or pass --yes") || !strings.Contains(out, "failed: not downloaded") {
		t.Errorf("without consent: exit %d\n%s\n%s", code, out, errOut)
	}
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1") // no network, quickly
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	code, _, errOut = run(t, "eval", "--models", "qwen3-vl-2b", "--labels", labels, "--yes")
	if code == 0 || !strings.Contains(errOut, "could not download Qwen3VL-2B-Instruct-Q4_K_M.gguf") || !strings.Contains(errOut, "give local files as MODEL.gguf+MMPROJ.gguf") {
		t.Errorf("with --yes and no network: exit %d\n%s", code, errOut)
	}
}

// TestExtractReturnsLineItemsAndTaxLines: extract --engine vlm on a tiny
// pair (the scripted one, which fills the lists) gives line items and tax
// lines for dev receipts, and its raw answers, closed, fit the schema.
func TestExtractReturnsLineItemsAndTaxLines(t *testing.T) {
	dir := t.TempDir()
	model, proj := filepath.Join(dir, "scripted.gguf"), filepath.Join(dir, "mmproj-scripted.gguf")
	if err := testmodel.WriteLLM(model, testmodel.Scripted); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(proj, testmodel.TinyProjector); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../shared/data/sroie-dev/0[0-2]*.jpg")
	if len(files) < 2 {
		t.Skip("shared receipts not present")
	}
	t.Setenv("SHOEBOX_TEST_WORKER", "1")
	// The full limit takes 40 s a page here: 700 tokens hold six tax lines and some items.
	code, out, errOut := run(t, append([]string{"extract", "--engine", "vlm", "--model", model, "--mmproj", proj, "--max-tokens", "700", "--json"}, files[:2]...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res []extracted
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Receipt == nil || len(r.Receipt.LineItems) == 0 || len(r.Receipt.TaxLines) == 0 {
			t.Errorf("%s: %+v", r.File, r)
			continue
		}
		if r.Receipt.LineItems[0].LineTotal.Source != "model" {
			t.Errorf("%s: line item %+v", r.File, r.Receipt.LineItems[0])
		}
	}
}
