package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/models"
	"github.com/shoebox-app/shoebox/receipt"
)

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Build: Build{Version: "9.9.9", Number: "7"}}, args)
	return code, out.String(), errb.String()
}

func TestVersionReportsLlamaAndCPU(t *testing.T) {
	code, out, _ := run(t, "version")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"shoebox 9.9.9 (build 7)", "go1.", "llama.cpp: commit ", "github.com/ollama/ollama v0.17.4", "compiled:", "SSE3", "back-ends:"} {
		if !strings.Contains(out, want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, errOut := run(t, "frobnicate")
	if code != 2 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestHelpListsCommands(t *testing.T) {
	code, out, _ := run(t, "help")
	if code != 0 || !strings.Contains(out, "version") {
		t.Fatalf("exit %d, help:\n%s", code, out)
	}
}

func TestPinnedOllamaMatchesGoMod(t *testing.T) {
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mod), "github.com/ollama/ollama "+pinnedOllama+"\n") {
		t.Fatalf("go.mod does not pin github.com/ollama/ollama %s; update pinnedOllama", pinnedOllama)
	}
}

func TestImportListShow(t *testing.T) {
	lib := t.TempDir()
	src := "../../shared/data/sroie-dev"
	if _, err := os.Stat(src); err != nil {
		t.Skip("shared receipts not present")
	}
	code, out, _ := run(t, "import", "--library", lib, src+"/006.jpg", src+"/006.json", src+"/040.jpg")
	if code != 0 || !strings.Contains(out, "2 added, 0 already in the library, 1 refused") || !strings.Contains(out, "006.json: is not a receipt") {
		t.Fatalf("import: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "import", "--library", lib, src+"/006.jpg")
	if code != 0 || !strings.Contains(out, "0 added, 1 already in the library") {
		t.Fatalf("re-import: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "list", "--library", lib, "--status", "new")
	if code != 0 || !strings.Contains(out, "(006.jpg)") || !strings.Contains(out, "2 shown; library: 2 new") {
		t.Fatalf("list: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "show", "--library", lib, "1")
	if code != 0 || !strings.Contains(out, "Receipt #1  new  (006.jpg") || !strings.Contains(out, "History:") {
		t.Fatalf("show: exit %d\n%s", code, out)
	}
	code, _, errOut := run(t, "show", "--library", lib, "99")
	if code != 1 || !strings.Contains(errOut, "receipt 99: no such receipt") {
		t.Fatalf("show 99: exit %d %s", code, errOut)
	}
	code, _, errOut = run(t, "list", "--library", lib, "--status", "done")
	if code != 2 || !strings.Contains(errOut, `unknown status "done"`) {
		t.Fatalf("bad status: exit %d %s", code, errOut)
	}
}

func TestExportFromLibrary(t *testing.T) {
	src := "../../shared/data/sroie-dev"
	if _, err := os.Stat(src); err != nil {
		t.Skip("shared receipts not present")
	}
	lib := t.TempDir()
	if code, out, _ := run(t, "import", "--library", lib, src+"/006.jpg", src+"/040.jpg"); code != 0 {
		t.Fatal(out)
	}
	l, err := library.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for id, v := range map[int64][3]string{1: {"SOON HUAT", "11/01/2019", "327.00"}, 2: {"SANYU", "15/02/2019", "12.00"}} {
		l.Enqueue(ctx, []int64{id}, false)
		l.NextQueued(ctx)
		var r receipt.Receipt
		receipt.Set(&r, "supplier_name", v[0], receipt.SourceOCR, l.Locale())
		receipt.Set(&r, "date", v[1], receipt.SourceOCR, l.Locale())
		receipt.Set(&r, "total", v[2], receipt.SourceOCR, l.Locale())
		receipt.Set(&r, "currency", "MYR", receipt.SourceOCR, l.Locale())
		if err := l.SaveExtraction(ctx, id, r, "ocr", receipt.SourceOCR); err != nil {
			t.Fatal(err)
		}
	}
	l.Confirm(ctx, 1)
	l.Close()
	out := filepath.Join(t.TempDir(), "tax.xlsx")
	code, stdout, stderr := run(t, "export", "--library", lib, "-o", out)
	if code != 0 || !strings.Contains(stdout, "1 receipts, 0 line items; totals MYR 327.00") {
		t.Fatalf("export: %d %s %s", code, stdout, stderr)
	}
	code, stdout, _ = run(t, "export", "--library", lib, "--all", "--split", "month", "-o", strings.Replace(out, ".xlsx", ".csv", 1))
	if code != 0 || !strings.Contains(stdout, "tax-2019-01.csv: 1 receipts") || !strings.Contains(stdout, "tax-2019-02.csv: 1 receipts") {
		t.Fatalf("split export: %d %s", code, stdout)
	}
	if code, _, stderr := run(t, "export", "--library", lib, "-o", "x.pdf"); code != 2 || !strings.Contains(stderr, "must end in .xlsx or .csv") {
		t.Fatalf("bad extension: %d %s", code, stderr)
	}
}

func TestGPUsOnThisMachine(t *testing.T) {
	code, out, _ := run(t, "gpus")
	if code != 0 || !strings.Contains(out, "CPU: ") || !strings.Contains(out, "InternVL3-8B (reference): ") || !strings.Contains(out, "Why:") {
		t.Fatalf("gpus: %d\n%s", code, out)
	}
}

func TestGPUsSimulated(t *testing.T) {
	dir := t.TempDir()
	devices := filepath.Join(dir, "devices.json")
	os.WriteFile(devices, []byte(`{"gpus": [
	  {"index": 0, "name": "NVIDIA GeForce RTX 3090", "cc_major": 8, "cc_minor": 6, "total_mib": 24576, "free_mib": 23600},
	  {"index": 1, "name": "NVIDIA GeForce RTX 4090", "cc_major": 8, "cc_minor": 9, "total_mib": 24576, "free_mib": 23800}],
	  "p2p": [[true, false], [false, true]], "cpu_cores": 16, "avx2": true, "free_ram_mib": 60000}`), 0o644)
	facts := filepath.Join(dir, "facts.json")
	os.WriteFile(facts, []byte(`{"name": "Big-32B", "layers": 64, "embed_dim": 5120, "heads_kv": 8, "head_dim_k": 128, "head_dim_v": 128,
	  "projector_bytes": 1363148800, "variants": [{"name": "Q4_K_M", "bytes": 19900000000}, {"name": "BF16", "bytes": 65500000000}]}`), 0o644)
	code, out, errOut := run(t, "gpus", "--simulate", devices, "--model-facts", facts)
	if code != 0 || !strings.Contains(out, "Big-32B: Q4_K_M on NVIDIA GeForce RTX 4090 + NVIDIA GeForce RTX 3090") ||
		!strings.Contains(out, "GGML_CUDA_P2P is left unset") || !strings.Contains(out, "Peer access: 0↔1 no") {
		t.Fatalf("simulate: %d %s\n%s", code, errOut, out)
	}
	os.WriteFile(devices, []byte(`{"gpuz": []}`), 0o644)
	if code, _, errOut := run(t, "gpus", "--simulate", devices); code != 2 || !strings.Contains(errOut, `unknown field "gpuz"`) {
		t.Fatalf("bad file: %d %s", code, errOut)
	}
}

func TestModelsListAndVerify(t *testing.T) {
	t.Setenv("SHOEBOX_MODELS", t.TempDir())
	t.Setenv("OLLAMA_MODELS", t.TempDir())
	code, out, _ := run(t, "models", "list")
	if code != 0 || !strings.Contains(out, "internvl3-8b") || !strings.Contains(out, "downloads go to") {
		t.Fatalf("list: %d\n%s", code, out)
	}
	bad := filepath.Join(t.TempDir(), "model.gguf")
	os.WriteFile(bad, []byte("GGML not a gguf file at all"), 0o644)
	code, _, errOut := run(t, "models", "verify", bad)
	if code != 1 || !strings.Contains(errOut, `model file model.gguf is damaged: not a GGUF file: it starts with "GGML"`) {
		t.Fatalf("verify: %d %s", code, errOut)
	}
}

func TestTestModelWritesALoadableGGUF(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := run(t, "testmodel", "--out", dir)
	if code != 0 || !strings.Contains(out, "shoebox-tiny-llm.gguf") {
		t.Fatalf("%d %s", code, out)
	}
	code, out, errOut := run(t, "models", "verify", filepath.Join(dir, "shoebox-tiny-llm.gguf"))
	if code != 0 || !strings.Contains(out, "OK (21 tensors") {
		t.Fatalf("verify: %d %s %s", code, out, errOut)
	}
}

func TestModelsRefreshWritesTheCatalogue(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every repository lists every catalogue file name with a made-up hash.
		cat, _ := models.Catalogue()
		var files []string
		for _, e := range cat {
			for _, v := range e.Variants {
				for _, f := range []models.FileRef{v.Model, v.Projector} {
					files = append(files, fmt.Sprintf(`{"type":"file","path":%q,"size":%d,"lfs":{"oid":%q,"size":%d}}`, f.Name, f.Bytes(), strings.Repeat("c3", 32), f.Bytes()))
				}
			}
		}
		fmt.Fprint(w, "["+strings.Join(files, ",")+"]")
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "catalogue.json")
	code, stdout, errOut := run(t, "models", "refresh", "--hub", srv.URL, "-o", out)
	if code != 0 || !strings.Contains(stdout, "files updated; catalogue written to "+out) {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errOut)
	}
	data, _ := os.ReadFile(out)
	var cat []models.Entry
	if err := json.Unmarshal(data, &cat); err != nil || len(cat) == 0 || cat[0].Variants[0].Model.SHA256 != strings.Repeat("c3", 32) {
		t.Fatalf("written catalogue: %v\n%.300s", err, data)
	}
}

func TestEngineChoiceErrors(t *testing.T) {
	for _, args := range [][]string{
		{"extract", "--engine", "foo", "x.jpg"},
		{"eval", "--engine", "foo", "--labels", "../../shared/data/sroie-dev"},
		{"extract", "--engine", "vlm", "x.jpg"},
	} {
		code, _, errOut := run(t, args...)
		if _, err := os.Stat("../../shared/data/sroie-dev"); err != nil && args[0] == "eval" {
			continue
		}
		if code != 2 || !strings.Contains(errOut, `unknown engine "foo"`) && !strings.Contains(errOut, "--engine vlm needs --model") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}

// With no model installed, extract reads with the OCR engine, and its
// one-line summary shows the total as printed, cents included.
func TestExtractWithOCROutOfTheBox(t *testing.T) {
	const receiptPath = "../../shared/data/sroie-dev/279.jpg"
	if _, err := os.Stat(receiptPath); err != nil {
		t.Skip("the SROIE receipts are not here:", err)
	}
	t.Setenv("SHOEBOX_HOME", t.TempDir())
	code, out, errOut := run(t, "extract", "--country", "MY", receiptPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := "279.jpg: KING'S CONFECTIONERY S/B | 2017-02-09 | 19.20 | MYR"; !strings.HasPrefix(out, want) {
		t.Errorf("extract printed %q, want it to start %q", out, want)
	}
}
