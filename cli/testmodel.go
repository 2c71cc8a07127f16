package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/shoebox-app/shoebox/inference/testmodel"
)

func init() {
	register("testmodel", "write a tiny random-weight GGUF model that the embedded llama.cpp runs (for trying the engine without a download)", runTestModel)
}

func runTestModel(env Env, args []string) int {
	fs, _ := newFlags(env, "testmodel", "")
	out := fs.String("out", ".", "folder to write shoebox-tiny-llm.gguf into")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	p := filepath.Join(*out, "shoebox-tiny-llm.gguf")
	if err := testmodel.WriteLLM(p, testmodel.Tiny); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	fmt.Fprintln(env.Stdout, "wrote", p, "(a language model only: its vision projector comes with the vision engine)")
	return 0
}
