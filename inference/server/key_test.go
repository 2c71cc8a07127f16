package server

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
)

// A saved key belongs to the server it was saved for: same scheme, host
// and port. It is never handed to another, while $SHOEBOX_SERVER_KEY (the
// user's explicit choice) goes to whatever server the command names.
func TestASavedKeyGoesOnlyToItsServer(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("SHOEBOX_CONFIG", cfg)
	t.Setenv(KeyEnv, "")
	if err := SaveKey("https://gpu-box:8000/v1", "sk-firm-one"); err != nil {
		t.Fatal(err)
	}
	if err := SaveKey("https://other-box", "sk-firm-two"); err != nil {
		t.Fatal(err)
	}
	for url, want := range map[string]string{
		"https://gpu-box:8000":     "sk-firm-one",
		"https://GPU-BOX:8000/v1/": "sk-firm-one",
		"https://other-box:443":    "sk-firm-two",
		"http://gpu-box:8000":      "", // another scheme
		"https://gpu-box:8001":     "", // another port
		"https://evil-box:8000":    "", // another host
		"gpu-box:8000":             "", // http:// by default
	} {
		got, note := KeyFor(url)
		if got != want {
			t.Errorf("KeyFor(%s) = %q, want %q", url, got, want)
		}
		if want == "" && !strings.Contains(note, "no key is saved for") {
			t.Errorf("KeyFor(%s) says nothing of why no key goes: %q", url, note)
		}
	}
	p := filepath.Join(cfg, "server-key")
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the key file: %v %v", st, err)
	}
	if ents, _ := os.ReadDir(cfg); len(ents) != 1 {
		t.Errorf("left beside the key file: %v", ents)
	}
	t.Setenv(KeyEnv, "sk-from-env")
	if got, _ := KeyFor("https://evil-box:8000"); got != "sk-from-env" {
		t.Errorf("the key from the environment: %q", got)
	}
	t.Setenv(KeyEnv, "")
	// Forgetting one server's key keeps the other's.
	if err := SaveKey("https://gpu-box:8000", ""); err != nil {
		t.Fatal(err)
	}
	if a, _ := KeyFor("https://gpu-box:8000"); a != "" {
		t.Errorf("a forgotten key: %q", a)
	}
	if b, _ := KeyFor("https://other-box"); b != "sk-firm-two" {
		t.Errorf("the other server's key: %q", b)
	}
}

// The key file of old held a bare key bound to no server: it goes nowhere,
// and the user hears why. A file others can read is made private when the
// key is saved again.
func TestAnUnboundOldKeyIsNotSent(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("SHOEBOX_CONFIG", cfg)
	t.Setenv(KeyEnv, "")
	p := filepath.Join(cfg, "server-key")
	os.WriteFile(p, []byte("sk-old-unbound\n"), 0o644)
	key, note := KeyFor("http://gpu-box:11434")
	if key != "" || !strings.Contains(note, "give it again") {
		t.Fatalf("an unbound key: %q, note %q", key, note)
	}
	if err := SaveKey("https://gpu-box", "sk-new"); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("the key file is %v", st.Mode())
	}
	if b, _ := os.ReadFile(p); strings.Contains(string(b), "sk-old-unbound") {
		t.Errorf("the unbound key was kept: %s", b)
	}
}

// A key never goes over plain http:// to another computer unless the user
// allows it, and then with a warning; to this computer (loopback) it may.
func TestTheKeyGoesOverPlainHTTPOnlyWhenAllowed(t *testing.T) {
	_, err := New(Options{URL: "http://gpu-box:8000/v1", Model: "m", APIKey: "sk-x"})
	if err == nil || !strings.Contains(err.Error(), "--allow-http-key") || !strings.Contains(err.Error(), "https://") {
		t.Fatalf("a key over http:// to another computer: %v", err)
	}
	var events []string
	if _, err := New(Options{
		URL: "http://gpu-box:8000/v1", Model: "m", APIKey: "sk-x", AllowHTTPKey: true,
		OnEvent: func(s string) { events = append(events, s) },
	}); err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || !strings.Contains(events[0], "warning") || !strings.Contains(events[0], "http://") {
		t.Errorf("no warning when allowed: %q", events)
	}
	for _, ok := range []string{"https://gpu-box:8000", "http://localhost:11434", "http://127.0.0.1:8000", "http://[::1]:8000"} {
		if _, err := New(Options{URL: ok, Model: "m", APIKey: "sk-x"}); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	if _, err := New(Options{URL: "http://gpu-box:11434", Model: "m"}); err != nil {
		t.Errorf("no key, plain http: %v", err)
	}
}

// A refused key is not the page's fault, nor mended by waiting: it is
// ErrRefused (which the pipeline stops on, leaving receipts queued), and
// its message says that the server refused the key.
func TestARefusedKeySaysSo(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		_, s := newFake(t, func(n int, w http.ResponseWriter) { http.Error(w, `{"error":"invalid api key"}`, status) })
		_, err := engine(t, s.URL, func(o *Options) { o.APIKey = "sk-wrong" }).Extract(context.Background(), page())
		if !errors.Is(err, ErrRefused) || !errors.Is(err, inference.ErrUnavailable) || !strings.Contains(err.Error(), "refused the key") {
			t.Errorf("%d: %v", status, err)
		}
		_, err = engine(t, s.URL, nil).Extract(context.Background(), page())
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "wants a key") {
			t.Errorf("%d without a key: %v", status, err)
		}
	}
}

// A server's answer is text for a bookkeeper's records: terminal escapes,
// BEL and other control characters in it never reach a field.
func TestControlCharactersInAnAnswerAreStripped(t *testing.T) {
	answer := `{"supplier_name": "Kedai\u001b[2J\u001b]0;pwned\u0007 Runcit\u0000", "date": "25/12/2018", "total": "9.90",` +
		` "supplier_address": "Jalan 1,\u009b31m\nShah Alam\tSelangor", "line_items": [{"description": "Teh\u0008\u0008\u0008Kopi", "amount": "9.90"}]}`
	_, s := newFake(t, func(n int, w http.ResponseWriter) { content(w, answer) })
	res, err := engine(t, s.URL, nil).Extract(context.Background(), page())
	if err != nil {
		t.Fatal(err)
	}
	r := res.Receipt
	for _, v := range []string{r.SupplierName.Value, r.SupplierAddress.Value, r.LineItems[0].Description.Value} {
		for _, c := range v {
			if c < 0x20 || c >= 0x7f && c < 0xa0 {
				t.Errorf("control character %U in %q", c, v)
			}
		}
	}
	if r.SupplierName.Value != "Kedai[2J]0;pwned Runcit" || r.SupplierAddress.Value != "Jalan 1,31m Shah Alam Selangor" {
		t.Errorf("supplier %q, address %q", r.SupplierName.Value, r.SupplierAddress.Value)
	}
}
