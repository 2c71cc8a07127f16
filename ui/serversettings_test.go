package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/internal/testollama"
	"github.com/shoebox-app/shoebox/pipeline"
)

// Settings → Reading → Use a server, against a real Ollama server: the
// model list, the sample-receipt test with its time, the plain warning
// before anything is sent, and the switch; the key is kept outside the
// library, readable by the user alone.
func TestUseAServer(t *testing.T) {
	srv := testollama.Start(t, 1)
	cfg := t.TempDir()
	t.Setenv("SHOEBOX_CONFIG", cfg)
	u := newTestUI(t)
	u.svc.ChooseEngine = func() (inference.Engine, string, int, error) {
		return pipeline.ChooseEngine(u.svc.Lib, hw.Machine{CPUCores: 2}, nil)
	}
	if !strings.Contains(shownText(u.modelsPage()), "Use a server") {
		t.Fatal("no Use a server card")
	}
	f := u.newServerForm()
	f.url.SetText(srv.URL)
	found := false
	f.findModels(func() { found = true })
	waitFor(t, 3*time.Minute, "finding models did not finish", func() bool { return found })
	if !contains(f.model.Options, srv.Model+":latest") && !contains(f.model.Options, srv.Model) {
		t.Fatalf("models %q; status %q", f.model.Options, f.status.Text)
	}
	tested := false
	f.test(func() { tested = true })
	waitFor(t, 3*time.Minute, "the test did not finish", func() bool { return tested })
	if !strings.Contains(f.status.Text, "read the sample receipt in") {
		t.Fatalf("test: %q\n%s", f.status.Text, srv.Log())
	}
	if u.svc.Lib.Setting(pipeline.SettingEngine) != "" {
		t.Fatal("testing the server chose it")
	}

	const key = "sk-firm-0b8d61f2"
	f.key.SetText(key)
	var asked string
	f.confirm = func(title, msg string, ok func()) { asked = msg; ok() }
	f.use()
	if !strings.Contains(asked, "sent") || !strings.Contains(asked, strings.TrimPrefix(srv.URL, "http://")) {
		t.Errorf("the warning does not say plainly where receipts go: %q", asked)
	}
	waitFor(t, time.Minute, "the switch did not finish", func() bool { return strings.Contains(u.status.Text, "sent there") })
	if !strings.Contains(u.status.Text, "server") || !strings.Contains(u.status.Text, "sent there") {
		t.Errorf("the status bar does not say where pages go: %q (%q)", u.status.Text, f.status.Text)
	}
	if _, ok := u.Engine().(inference.Remote); !ok {
		t.Errorf("engine %T", u.Engine())
	}
	st, err := os.Stat(filepath.Join(cfg, "server-key"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the key file: %v %v", st, err)
	}
	// The key is in no file of the library (settings, database, WAL).
	filepath.Walk(u.svc.Lib.Dir(), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(key)) {
				t.Errorf("the key is in %s", p)
			}
		}
		return nil
	})
	if f.key.Text != "" {
		t.Error("the key stays in the form")
	}
}
