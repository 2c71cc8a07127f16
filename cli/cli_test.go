package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
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
