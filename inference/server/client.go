package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/internal/plain"
)

// The APIs a server may speak.
const (
	APIAuto   = ""       // Ollama's native API when /api/tags answers, else OpenAI's
	APIOpenAI = "openai" // POST /v1/chat/completions, GET /v1/models
	APIOllama = "ollama" // POST /api/chat, GET /api/tags
)

// baseURL checks a server address and returns it without a trailing "/"
// or "/v1" (the paths are added per API). Credentials in the address are
// refused: the key has its own setting, kept out of what is shown.
func baseURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errors.New("no server address: give one such as http://gpu-box:11434 or https://gpu-box:8000/v1")
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%q is not a server address such as http://gpu-box:11434", redactURL(raw))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("the server address must start with http:// or https://, not %s://", u.Scheme)
	}
	if u.User != nil {
		return nil, errors.New("the server address holds a user name or password: give the key in its own setting (or SHOEBOX_SERVER_KEY) instead")
	}
	u.RawQuery, u.Fragment = "", ""
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/v1")
	return u, nil
}

// redactURL drops a user name and password from an address for messages.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		u.User = url.User("redacted")
		return u.String()
	}
	return raw
}

// newHTTPClient trusts the system's roots, plus caFile's certificates when
// given. Timeouts are per request (Options.Timeout), not here.
func newHTTPClient(caFile string, inFlight int) (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = inFlight + 2
	tr.ResponseHeaderTimeout = 0
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("the server's CA file: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("the server's CA file %s holds no PEM certificate", caFile)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: tr, CheckRedirect: checkRedirect}, nil
}

// maxRedirects bounds the redirects a model list may follow.
const maxRedirects = 5

// checkRedirect refuses every redirect of a page request, which carries the
// receipt's image, its text and the key: a server that answers 307 to
// http:// or to another host would have them sent there again. A model
// list (GET) may follow a redirect on the same server — same scheme, host
// and port — and nowhere else.
func checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	if first.Method != http.MethodGet {
		return &redirectRefused{to: req.URL, page: true}
	}
	if origin(req.URL) != origin(first.URL) {
		return &redirectRefused{to: req.URL}
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("the server redirected the model list %d times: give its final address", len(via))
	}
	return nil
}

// redirectRefused is a redirect the engine would not follow.
type redirectRefused struct {
	to   *url.URL
	page bool
}

func (r *redirectRefused) Error() string {
	to := redactURL(r.to.String())
	if r.page {
		return fmt.Sprintf("the server redirected the page request to %s; Shoebox does not follow redirects for pages "+
			"(they carry the receipt, its text and the key): give the server's final address instead", to)
	}
	return fmt.Sprintf("the server redirected to %s, another server or plain http://; Shoebox follows redirects only on "+
		"the same server: give the server's final address instead", to)
}

// ErrRefused marks what waiting does not mend: the server refuses this
// client's key, or redirects its pages elsewhere. Such an error also wraps
// inference.ErrUnavailable (the page is not at fault); the pipeline stops
// the batch at once, leaving the receipts queued, and shows the message,
// which says what to change.
var ErrRefused = errors.New("the server refuses this client")

// refusedError is an ErrRefused with its own message.
type refusedError struct{ msg string }

func (e *refusedError) Error() string   { return e.msg }
func (e *refusedError) Unwrap() []error { return []error{inference.ErrUnavailable, ErrRefused} }

// httpError is a server's answer other than 2xx.
type httpError struct {
	status int
	msg    string
	retry  time.Duration // from Retry-After
}

func (e *httpError) Error() string {
	if e.msg == "" {
		return fmt.Sprintf("HTTP %d", e.status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.status, e.msg)
}

// transient reports whether a failed attempt may succeed if simply tried
// again later: the server is busy, restarting or out of reach.
func transient(err error) bool {
	var he *httpError
	if errors.As(err, &he) {
		switch he.status {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	return connectionLost(err)
}

// connectionLost reports a refused, reset or dropped connection, or an
// address that does not resolve now. A kept-alive connection the server
// closed as the request was written to it ("use of closed network
// connection", net.ErrClosed) is dropped too.
func connectionLost(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// notThePage reports errors after which no page can be read, whatever it
// shows: the key is refused, the model or the path is not there, the
// certificate is not trusted. The page goes back in the queue.
func notThePage(err error) bool {
	var he *httpError
	if errors.As(err, &he) {
		return he.status == http.StatusUnauthorized || he.status == http.StatusForbidden || he.status == http.StatusNotFound ||
			he.status == http.StatusProxyAuthRequired
	}
	var rr *redirectRefused
	if errors.As(err, &rr) {
		return true
	}
	var ua x509.UnknownAuthorityError
	var hn x509.HostnameError
	var ci x509.CertificateInvalidError
	var rec tls.RecordHeaderError
	return errors.As(err, &ua) || errors.As(err, &hn) || errors.As(err, &ci) || errors.As(err, &rec)
}

// do sends one request and decodes a 2xx answer into out; the key goes in
// the Authorization header only.
func (e *Engine) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, e.base.JoinPath(path).String(), rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if e.opt.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.opt.APIKey)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		he := &httpError{status: resp.StatusCode, msg: errorMessage(data)}
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
			he.retry = time.Duration(min(s, 120)) * time.Second
		}
		return he
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("the server's answer is not the JSON its API promises (%w): %s", err, plain.Clip(string(data), 120))
	}
	return nil
}

// errorMessage digs the message out of an error body: OpenAI's
// {"error":{"message":…}}, Ollama's {"error":"…"}, else the text.
func errorMessage(body []byte) string {
	var oa struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &oa) == nil && len(oa.Error) > 0 {
		var s string
		if json.Unmarshal(oa.Error, &s) == nil {
			return plain.Clip(s, 200)
		}
		var m struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(oa.Error, &m) == nil && m.Message != "" {
			return plain.Clip(m.Message, 200)
		}
	}
	return plain.Clip(string(body), 200)
}

// withRetries runs one request attempt after another while the failure is
// transient: up to Options.Retries more times, waiting Backoff, then twice
// as long each time (at most 30 s, or what Retry-After asks). A 500 is
// tried again once: a runner that crashed on the page is restarted by the
// server, and a page that crashes it twice fails by itself.
func (e *Engine) withRetries(ctx context.Context, what string, attempt func(context.Context) error) error {
	wait := e.opt.Backoff
	fiveHundreds := 0
	for i := 0; ; i++ {
		err := attempt(ctx)
		if err == nil || ctx.Err() != nil {
			return err
		}
		var he *httpError
		retry := transient(err)
		if errors.As(err, &he) && he.status == http.StatusInternalServerError && fiveHundreds == 0 {
			fiveHundreds++
			retry = true
		}
		if !retry || i >= e.opt.Retries {
			return err
		}
		d := wait
		if he != nil && he.retry > 0 {
			d = he.retry
		}
		e.event("%s: %s; trying again in %s (%d of %d)", what, e.redact(err.Error()), d.Round(100*time.Millisecond), i+1, e.opt.Retries)
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return ctx.Err()
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// classify turns a failed page request into the error the pipeline acts
// on: inference.ErrUnavailable when the server, not the page, is at fault.
// Every message passes through redact.
func (e *Engine) classify(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return ctx.Err()
	}
	if errors.Is(err, inference.ErrUnavailable) {
		return err // classified already (Available)
	}
	msg := e.redact(err.Error())
	var he *httpError
	var rr *redirectRefused
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		// ctx is alive: a check with its own short deadline (the model
		// list, the API) got no answer from a server that has gone silent.
		return fmt.Errorf("%w: %s did not answer (%s)", inference.ErrUnavailable, e.Where(), msg)
	case errors.As(err, &he) && (he.status == http.StatusUnauthorized || he.status == http.StatusForbidden || he.status == http.StatusProxyAuthRequired):
		if e.opt.APIKey == "" {
			return &refusedError{fmt.Sprintf("the server refused: %s wants a key (%s): set $%s, or give the key in Settings → Reading",
				e.Where(), msg, KeyEnv)}
		}
		return &refusedError{fmt.Sprintf("the server refused the key: %s answered %s: check $%s or the key in Settings → Reading",
			e.Where(), msg, KeyEnv)}
	case errors.As(err, &rr):
		return &refusedError{fmt.Sprintf("%s: %s", e.Where(), e.redact(rr.Error()))}
	case errors.As(err, &he) && he.status == http.StatusNotFound:
		return fmt.Errorf("%w: %s answered 404 (%s): check the address and the model name", inference.ErrUnavailable, e.Where(), msg)
	case transient(err) || notThePage(err):
		return fmt.Errorf("%w: %s: %s", inference.ErrUnavailable, e.Where(), msg)
	}
	return fmt.Errorf("%s: %s", e.Where(), msg)
}

// redact removes the API key from a message, wherever a server or a
// library may have echoed it.
func (e *Engine) redact(s string) string {
	if k := e.opt.APIKey; k != "" {
		s = strings.ReplaceAll(s, k, "[key]")
	}
	return s
}
