package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/shoebox-app/shoebox/internal/testmodel"
)

func init() {
	register("testmodel", "write a tiny random-weight GGUF model that the embedded llama.cpp runs (for trying the engine without a download)", runTestModel)
}

func runTestModel(env Env, args []string) int {
	fs, _ := newFlags(env, "testmodel", "")
	out := fs.String("out", ".", "folder to write the model and its projector into")
	size := fs.String("size", "tiny", "tiny (loads and reads in well under a second), scripted (tiny, made to fill the schema's tax lines and line items up to the token limit) or bench (0.35 B parameters in F16 with a 152k vocabulary, 0.7 GB: for shoebox bench)")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	llm, proj := testmodel.Tiny, testmodel.TinyProjector
	switch *size {
	case "tiny":
	case "scripted":
		llm = testmodel.Scripted
	case "bench":
		llm, proj = testmodel.Bench, testmodel.BenchProjector
	default:
		fmt.Fprintf(env.Stderr, "shoebox: unknown size %q: use tiny, scripted or bench\n", *size)
		return 2
	}
	p := filepath.Join(*out, "shoebox-"+*size+"-llm.gguf")
	if err := testmodel.WriteLLM(p, llm); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	pp := filepath.Join(*out, "mmproj-shoebox-"+*size+".gguf")
	if err := testmodel.WriteProjector(pp, proj); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	fmt.Fprintf(env.Stdout, "wrote %s and %s: random weights, so the fields it reads are nonsense, but every step\n(image encoding, grammar-constrained decoding, the worker) is the real one.\n", p, pp)
	fmt.Fprintf(env.Stdout, "try: shoebox extract --engine vlm --model %s --mmproj %s RECEIPT.jpg\n", p, pp)
	return 0
}
