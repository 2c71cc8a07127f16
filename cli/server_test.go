package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/internal/testollama"
)

// The server engine from the command line, against a real Ollama server:
// extract, eval, process and bench with --engine server. The key is set
// (Ollama ignores it) to check that no output shows it.
func TestServerEngineCommands(t *testing.T) {
	srv := testollama.Start(t, 2)
	const key = "sk-test-5e1f0c9a77"
	t.Setenv("SHOEBOX_SERVER_KEY", key)
	paths := testollama.Receipts(t, 2)
	flags := []string{"--engine", "server", "--server", srv.URL, "--server-model", srv.Model, "--server-max-tokens", "512"}
	check := func(name string, code int, out, errOut string) {
		t.Helper()
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", name, code, out, errOut)
		}
		if strings.Contains(out+errOut, key) {
			t.Errorf("%s printed the key", name)
		}
		if !strings.Contains(errOut, "sent there") {
			t.Errorf("%s did not say that pages leave the computer: %s", name, errOut)
		}
	}

	code, out, errOut := run(t, append(append([]string{"extract", "--json"}, flags...), paths...)...)
	check("extract", code, out, errOut)
	var got []extracted
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != 2 {
		t.Fatalf("extract --json: %v %s", err, out)
	}
	for _, r := range got {
		if r.Engine != "server" && r.Error == "" {
			t.Errorf("%s: engine %q", r.File, r.Engine)
		}
	}

	lib := t.TempDir()
	if code, out, errOut := run(t, append([]string{"import", "--library", lib}, paths...)...); code != 0 {
		t.Fatalf("import: %d %s %s", code, out, errOut)
	}
	code, out, errOut = run(t, append([]string{"process", "--library", lib}, flags...)...)
	check("process", code, out, errOut)
	if !strings.Contains(out, "read 2 receipts, 0 failed") || !strings.Contains(out, "pages/minute") {
		t.Errorf("process: %s", out)
	}

	code, out, errOut = run(t, append(append([]string{"bench", "-n", "2", "--parallel", "2"}, flags...), paths[0])...)
	check("bench", code, out, errOut)
	if !strings.Contains(out, "2 in flight") || !strings.Contains(out, "pages/minute") {
		t.Errorf("bench: %s", out)
	}

	if labels := labelledDir(paths); labels != "" {
		code, out, errOut = run(t, append([]string{"eval", "--labels", labels, "-n", "2"}, flags...)...)
		check("eval", code, out, errOut)
		if !strings.Contains(out, "server engine on 2 receipts") {
			t.Errorf("eval: %s", out)
		}
	}
}

// labelledDir is the folder of the SROIE receipts, "" for synthetic ones.
func labelledDir(paths []string) string {
	if i := strings.LastIndex(paths[0], "/"); i > 0 && strings.Contains(paths[0], "sroie-dev") {
		return paths[0][:i]
	}
	return ""
}
