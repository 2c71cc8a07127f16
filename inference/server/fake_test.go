package server

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"errors"
	"image"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/vlm"
)

// The real server (real_test.go) is what the engine is tested against;
// these fakes add the faults a healthy Ollama does not show on demand.

const goodAnswer = `{"supplier_name": "Kedai Runcit Ah Seng", "date": "25/12/2018", "total": "9.90"}`

// fake answers /v1/chat/completions with what reply says for the n-th
// request (from 1), and lists "m" at /v1/models.
type fake struct {
	calls   atomic.Int32
	mu      sync.Mutex
	bodies  []map[string]any
	headers []http.Header
	reply   func(n int, w http.ResponseWriter)
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v1/models":
		io.WriteString(w, `{"data":[{"id":"m"}]}`)
	case "/v1/chat/completions":
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		f.mu.Lock()
		f.bodies = append(f.bodies, body)
		f.headers = append(f.headers, r.Header.Clone())
		f.mu.Unlock()
		f.reply(int(f.calls.Add(1)), w)
	default:
		http.NotFound(w, r)
	}
}

func content(w http.ResponseWriter, text string) {
	json.NewEncoder(w).Encode(map[string]any{
		"choices": []any{map[string]any{"message": map[string]any{"content": text}}},
		"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 20},
	})
}

func newFake(t *testing.T, reply func(n int, w http.ResponseWriter)) (*fake, *httptest.Server) {
	f := &fake{reply: reply}
	s := httptest.NewServer(f)
	t.Cleanup(s.Close)
	return f, s
}

func engine(t *testing.T, url string, set func(*Options)) *Engine {
	t.Helper()
	opt := Options{URL: url, Model: "m", API: APIOpenAI, Backoff: 5 * time.Millisecond, Timeout: 5 * time.Second}
	if set != nil {
		set(&opt)
	}
	e, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func page() inference.Page {
	return inference.Page{Image: image.NewGray(image.Rect(0, 0, 40, 60))}
}

func TestSendsTheSchemaImageAndPromptAtTemperatureZero(t *testing.T) {
	f, s := newFake(t, func(n int, w http.ResponseWriter) { content(w, goodAnswer) })
	e := engine(t, s.URL+"/v1/", nil)
	words := []inference.Word{{Text: "AH", Line: 0}, {Text: "SENG", Line: 0}, {Text: "9.90", Line: 1}}
	res, err := e.Extract(context.Background(), inference.Page{Image: image.NewGray(image.Rect(0, 0, 40, 60)), Words: words})
	if err != nil {
		t.Fatal(err)
	}
	if res.Receipt.SupplierName.Value != "Kedai Runcit Ah Seng" || res.Receipt.Total.Value.String() != "9.9" {
		t.Errorf("read %+v", res.Receipt)
	}
	if res.Receipt.Total.Box == nil {
		t.Error("the total was not grounded on the OCR word 9.90")
	}
	b := f.bodies[0]
	if b["temperature"] != 0.0 || b["model"] != "m" {
		t.Errorf("temperature %v, model %v", b["temperature"], b["model"])
	}
	rf, _ := json.Marshal(b["response_format"])
	var want, got any
	json.Unmarshal(serverSchema(assets.ReceiptSchema), &want) // the schema without item counts
	var format struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Schema any `json:"schema"`
		} `json:"json_schema"`
	}
	json.Unmarshal(rf, &format)
	got = format.JSONSchema.Schema
	if format.Type != "json_schema" || !jsonEqual(got, want) {
		t.Errorf("response_format %s", rf)
	}
	msgs, _ := json.Marshal(b["messages"])
	if !strings.Contains(string(msgs), "data:image/jpeg;base64,") || !strings.Contains(string(msgs), "AH SENG") ||
		!strings.Contains(string(msgs), "bookkeeping firm") {
		t.Errorf("messages lack the image, the OCR hint or the prompt: %.300s", msgs)
	}
	if h := f.headers[0].Get("Authorization"); h != "" {
		t.Errorf("no key set, yet Authorization %q", h)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestRetriesBusyAndRestartingServers(t *testing.T) {
	_, s := newFake(t, func(n int, w http.ResponseWriter) {
		switch n {
		case 1:
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
		case 2:
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			content(w, goodAnswer)
		}
	})
	var events []string
	e := engine(t, s.URL, func(o *Options) { o.OnEvent = func(s string) { events = append(events, s) } })
	if _, err := e.Extract(context.Background(), page()); err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 {
		t.Errorf("events %q", events)
	}
}

func TestAServerThatStaysDownIsUnavailableNotThePagesFault(t *testing.T) {
	_, s := newFake(t, func(n int, w http.ResponseWriter) { w.WriteHeader(http.StatusBadGateway) })
	e := engine(t, s.URL, func(o *Options) { o.Retries = 2 })
	_, err := e.Extract(context.Background(), page())
	if !errors.Is(err, inference.ErrUnavailable) {
		t.Fatalf("got %v", err)
	}
	s.Close()
	if _, err := e.Extract(context.Background(), page()); !errors.Is(err, inference.ErrUnavailable) {
		t.Fatalf("connection refused: %v", err)
	}
	if err := e.Available(context.Background()); !errors.Is(err, inference.ErrUnavailable) {
		t.Fatalf("Available: %v", err)
	}
}

func TestA500TwiceFailsThePageAlone(t *testing.T) {
	f, s := newFake(t, func(n int, w http.ResponseWriter) {
		http.Error(w, `{"error":"model runner has unexpectedly stopped"}`, 500)
	})
	e := engine(t, s.URL, nil)
	_, err := e.Extract(context.Background(), page())
	if err == nil || errors.Is(err, inference.ErrUnavailable) || !strings.Contains(err.Error(), "unexpectedly stopped") {
		t.Fatalf("got %v", err)
	}
	if n := f.calls.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestGarbageAndSchemaBreakingAnswersAreRefused(t *testing.T) {
	for name, answer := range map[string]string{
		"not JSON":       "Sure! Here is the receipt: {",
		"extra key":      `{"supplier_name": "A", "date": "1/1/2020", "total": "1.00", "tip": "x"}`,
		"bad amount":     `{"supplier_name": "A", "date": "1/1/2020", "total": "1,00"}`,
		"missing total":  `{"supplier_name": "A", "date": "1/1/2020"}`,
		"number, string": `{"supplier_name": "A", "date": "1/1/2020", "total": 1.5}`,
	} {
		_, s := newFake(t, func(n int, w http.ResponseWriter) { content(w, answer) })
		_, err := engine(t, s.URL, nil).Extract(context.Background(), page())
		if !errors.Is(err, ErrSchema) {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, s := newFake(t, func(n int, w http.ResponseWriter) { io.WriteString(w, "<html>gateway</html>") })
	if _, err := engine(t, s.URL, nil).Extract(context.Background(), page()); err == nil || errors.Is(err, inference.ErrUnavailable) {
		t.Errorf("an HTML answer: %v", err)
	}
}

func TestRepeatedCharactersAreAFault(t *testing.T) {
	_, s := newFake(t, func(n int, w http.ResponseWriter) { content(w, strings.Repeat("!", 200)) })
	_, err := engine(t, s.URL, nil).Extract(context.Background(), page())
	if !errors.Is(err, vlm.ErrHardwareFault) {
		t.Fatalf("got %v", err)
	}
}

func TestARefusalIsAskedAgainWithTheStrictPrompt(t *testing.T) {
	f, s := newFake(t, func(n int, w http.ResponseWriter) {
		if n == 1 {
			content(w, `{"supplier_name": "I'm sorry, I can't help with personal information", "date": "", "total": "0.00"}`)
			return
		}
		content(w, goodAnswer)
	})
	res, err := engine(t, s.URL, nil).Extract(context.Background(), page())
	if err != nil || res.Receipt.SupplierName.Value != "Kedai Runcit Ah Seng" {
		t.Fatalf("%v %+v", err, res.Receipt.SupplierName)
	}
	second, _ := json.Marshal(f.bodies[1]["messages"])
	strict := strings.SplitN(assets.ReceiptPromptStrict, "\n", 2)[0]
	if !strings.Contains(string(second), strict[:40]) {
		t.Errorf("the retry did not use the strict prompt: %.200s", second)
	}
}

// A server that is up but too busy to answer in time: the page waits in
// the queue rather than failing.
func TestASlowAnswerFromAServerThatIsUpIsBusy(t *testing.T) {
	_, s := newFake(t, func(n int, w http.ResponseWriter) { time.Sleep(300 * time.Millisecond); content(w, goodAnswer) })
	e := engine(t, s.URL, func(o *Options) { o.Timeout = 50 * time.Millisecond })
	_, err := e.Extract(context.Background(), page())
	if !errors.Is(err, inference.ErrUnavailable) || !strings.Contains(err.Error(), "no answer within") {
		t.Fatalf("got %v", err)
	}
}

// A server whose machine dropped off the network: requests just hang.
func TestASilentServerIsUnavailable(t *testing.T) {
	defer func(d time.Duration) { checkTimeout = d }(checkTimeout)
	checkTimeout = 50 * time.Millisecond
	hang := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-hang }))
	defer s.Close()
	defer close(hang)
	e := engine(t, s.URL, func(o *Options) { o.Timeout = 50 * time.Millisecond })
	if _, err := e.Extract(context.Background(), page()); !errors.Is(err, inference.ErrUnavailable) {
		t.Fatalf("got %v", err)
	}
	if err := e.Available(context.Background()); !errors.Is(err, inference.ErrUnavailable) {
		t.Fatalf("Available: %v", err)
	}
}

func TestTheKeyGoesInTheHeaderAndNowhereElse(t *testing.T) {
	const key = "sk-firm-7f3a9c2e"
	f, s := newFake(t, func(n int, w http.ResponseWriter) {
		http.Error(w, `{"error":{"message":"Incorrect API key provided: `+key+`"}}`, http.StatusUnauthorized)
	})
	var events []string
	e := engine(t, s.URL, func(o *Options) { o.APIKey = key; o.OnEvent = func(s string) { events = append(events, s) } })
	_, err := e.Extract(context.Background(), page())
	if !errors.Is(err, inference.ErrUnavailable) {
		t.Fatalf("a refused key: %v", err)
	}
	if strings.Contains(err.Error(), key) || strings.Contains(strings.Join(events, " "), key) || strings.Contains(e.Where(), key) {
		t.Errorf("the key leaked: %v %q", err, events)
	}
	if got := f.headers[0].Get("Authorization"); got != "Bearer "+key {
		t.Errorf("Authorization %q", got)
	}
	if _, err := New(Options{URL: "http://user:" + key + "@gpu-box:8000", Model: "m"}); err == nil || strings.Contains(err.Error(), key) {
		t.Errorf("a key in the address: %v", err)
	}
}

func TestTLSWithTheFirmsCA(t *testing.T) {
	f := &fake{reply: func(n int, w http.ResponseWriter) { content(w, goodAnswer) }}
	s := httptest.NewTLSServer(f)
	defer s.Close()
	// Without the CA the certificate is not trusted: a setting to fix,
	// not the page's fault.
	if _, err := engine(t, s.URL, nil).Extract(context.Background(), page()); !errors.Is(err, inference.ErrUnavailable) {
		t.Fatalf("untrusted certificate: %v", err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw}), 0o644)
	if _, err := engine(t, s.URL, func(o *Options) { o.CAFile = ca }).Extract(context.Background(), page()); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(ca, []byte("not a certificate"), 0o644)
	if _, err := New(Options{URL: s.URL, Model: "m", CAFile: ca}); err == nil {
		t.Error("a CA file without a certificate was accepted")
	}
}

func TestLogprobsRefusedAreDroppedOnce(t *testing.T) {
	f, s := newFake(t, func(n int, w http.ResponseWriter) {
		if n == 1 {
			http.Error(w, `{"error":"logprobs are not supported"}`, http.StatusBadRequest)
			return
		}
		content(w, goodAnswer)
	})
	e := engine(t, s.URL, nil)
	for i := 0; i < 2; i++ {
		if _, err := e.Extract(context.Background(), page()); err != nil {
			t.Fatal(err)
		}
	}
	if f.bodies[0]["logprobs"] != true || f.bodies[1]["logprobs"] != nil || f.bodies[2]["logprobs"] != nil {
		t.Errorf("logprobs sent: %v %v %v", f.bodies[0]["logprobs"], f.bodies[1]["logprobs"], f.bodies[2]["logprobs"])
	}
}

func TestPagesInFlightAreCapped(t *testing.T) {
	var now, most atomic.Int32
	_, s := newFake(t, func(n int, w http.ResponseWriter) {
		c := now.Add(1)
		for m := most.Load(); c > m && !most.CompareAndSwap(m, c); m = most.Load() {
		}
		time.Sleep(30 * time.Millisecond)
		now.Add(-1)
		content(w, goodAnswer)
	})
	e := engine(t, s.URL, func(o *Options) { o.InFlight = 2 })
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); e.Extract(context.Background(), page()) }()
	}
	wg.Wait()
	if m := most.Load(); m != 2 {
		t.Errorf("%d requests at once, want 2", m)
	}
}

func TestPiecesFollowTheText(t *testing.T) {
	text := `{"a": "é"}`
	lps := []tokenLogprob{{Token: `{"a": "`}, {Token: "\uFFFD"}, {Token: "\uFFFD"}, {Token: `"}`}}
	p := piecesOf(text, lps)
	if len(p) != 4 || p[1].Text+p[2].Text != "é" {
		t.Errorf("pieces %+v", p)
	}
	if piecesOf(text, []tokenLogprob{{Token: "nonsense"}}) != nil {
		t.Error("tokens that do not spell the text gave pieces")
	}
}

// A request written to a kept-alive connection the server has just closed
// fails with net.ErrClosed, as CI saw once: the server went away, not the
// page.
func TestAConnectionClosedUnderTheRequestIsLost(t *testing.T) {
	err := &url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1/chat/completions", Err: &net.OpError{Op: "write", Net: "tcp", Err: net.ErrClosed}}
	if !connectionLost(err) {
		t.Errorf("%v is no lost connection", err)
	}
}
