package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// A server that refuses the key was reached: process says it refused this
// client, not that it "could not be reached" (which sent the user to look
// at the network), and the receipts stay queued.
func TestProcessSaysTheServerRefusedTheKey(t *testing.T) {
	src := "../../shared/data/sroie-dev/006.jpg"
	if _, err := os.Stat(src); err != nil {
		t.Skip("shared receipts not present")
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/v1/models" {
			io.WriteString(w, `{"data":[{"id":"m"}]}`)
			return
		}
		http.Error(w, `{"error":{"message":"invalid api key"}}`, http.StatusUnauthorized)
	}))
	defer s.Close()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("SHOEBOX_SERVER_KEY", "sk-wrong")
	lib := t.TempDir()
	if code, out, errOut := run(t, "import", "--library", lib, src); code != 0 {
		t.Fatalf("import: %d %s %s", code, out, errOut)
	}
	code, out, errOut := run(t, "process", "--library", lib, "--engine", "server", "--server", s.URL+"/v1",
		"--server-model", "m", "--server-api", "openai", "--wait", "5s")
	if code != 1 {
		t.Errorf("process exited %d, want 1\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "could not be reached") || !strings.Contains(out, "stopped: the server refused this client") {
		t.Errorf("process said:\n%s\n(stderr: %s)", out, errOut)
	}
	if !strings.Contains(out, "1 receipts stay queued") {
		t.Errorf("process did not say the receipt stays queued:\n%s", out)
	}
}
