package server

import (
	"context"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
)

// elsewhere is a server that records every request that reaches it: the
// place a hostile or misconfigured server redirects to.
type elsewhere struct {
	mu   sync.Mutex
	seen []string // method, path and Authorization of each request
	*httptest.Server
}

func newElsewhere(t *testing.T) *elsewhere {
	e := &elsewhere{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		e.mu.Lock()
		e.seen = append(e.seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		e.mu.Unlock()
		switch r.URL.Path {
		case "/v1/models":
			io.WriteString(w, `{"data":[{"id":"m"}]}`)
		default:
			content(w, goodAnswer)
		}
	}))
	t.Cleanup(e.Close)
	return e
}

func (e *elsewhere) requests() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.seen...)
}

// caFile writes a TLS test server's certificate as a CA file, so that the
// engine builds its own HTTP client (as it does for users).
func caFile(t *testing.T, s *httptest.Server) string {
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw}), 0o600)
	return ca
}

// A page request carries the receipt's image, its text and the key: a 307
// from https:// to http:// (or to another host) must not send it again.
func TestAPageRequestIsNeverRedirected(t *testing.T) {
	const key = "sk-firm-redirect"
	for _, name := range []string{"https to http", "another host"} {
		t.Run(name, func(t *testing.T) {
			other := newElsewhere(t)
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/v1/models":
					io.WriteString(w, `{"data":[{"id":"m"}]}`)
				default:
					http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
				}
			})
			var s *httptest.Server
			var set func(*Options)
			if name == "https to http" {
				s = httptest.NewTLSServer(h)
				set = func(o *Options) { o.CAFile = caFile(t, s); o.APIKey = key }
			} else {
				s = httptest.NewServer(h)
				set = func(o *Options) { o.APIKey = key }
			}
			defer s.Close()
			e := engine(t, s.URL, set)
			_, err := e.Extract(context.Background(), page())
			if got := other.requests(); len(got) > 0 {
				t.Fatalf("the page was sent on to %s: %q", other.URL, got)
			}
			if err == nil || !strings.Contains(err.Error(), "redirected") || !strings.Contains(err.Error(), other.Listener.Addr().String()) ||
				!strings.Contains(err.Error(), "final address") {
				t.Fatalf("want an error naming the redirect and its target, got %v", err)
			}
			if !errors.Is(err, inference.ErrUnavailable) {
				t.Errorf("a redirect is the server's set-up, not the page's fault: %v", err)
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("the key leaked: %v", err)
			}
		})
	}
}

// Listing the models may follow a redirect on the same server (a proxy
// adding a slash), never to another host and never down to http://.
func TestTheModelListFollowsOnlyRedirectsOnTheSameServer(t *testing.T) {
	const key = "sk-firm-list"
	other := newElsewhere(t)
	var s *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v1/models/", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/v1/models/", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		io.WriteString(w, `{"data":[{"id":"m"}]}`)
	})
	s = httptest.NewTLSServer(mux)
	defer s.Close()
	e := engine(t, s.URL, func(o *Options) { o.CAFile = caFile(t, s); o.APIKey = key })
	if names, err := e.Models(context.Background()); err != nil || len(names) != 1 {
		t.Fatalf("a redirect on the same server: %v %v", names, err)
	}

	for _, name := range []string{"down to http", "another host"} {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/v1/models", http.StatusFound)
		})
		var s *httptest.Server
		var set func(*Options)
		if name == "down to http" {
			s = httptest.NewTLSServer(h)
			set = func(o *Options) { o.CAFile = caFile(t, s); o.APIKey = key }
		} else {
			s = httptest.NewServer(h)
			set = func(o *Options) { o.APIKey = key }
		}
		_, err := engine(t, s.URL, set).Models(context.Background())
		s.Close()
		if err == nil || !strings.Contains(err.Error(), "redirected") {
			t.Errorf("%s: want the redirect refused, got %v", name, err)
		}
	}
	if got := other.requests(); len(got) > 0 {
		t.Errorf("the model list was asked of another server: %q", got)
	}
}
