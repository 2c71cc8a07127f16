package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/jpeg"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/inference/vlm"
	"github.com/shoebox-app/shoebox/internal/plain"
	"github.com/shoebox-app/shoebox/receipt"
)

// Options configure the server engine.
type Options struct {
	// URL is the server's address: http://gpu-box:11434 (Ollama),
	// https://gpu-box:8000/v1 (vLLM); a trailing /v1 is optional.
	URL   string
	Model string
	// APIKey goes in the Authorization header as a bearer token and nowhere
	// else; see KeyFor. It goes only to the server at URL: the engine
	// follows no redirect with it to another server.
	APIKey string
	// AllowHTTPKey lets the key go over plain http:// to a server other
	// than this computer, where anyone on the network between can read it
	// (and the receipts). Without it New refuses such a server; with it the
	// engine warns (OnEvent). Over loopback (localhost, 127.0.0.1, ::1) the
	// key never leaves this computer and needs no permission.
	AllowHTTPKey bool
	// API: APIAuto (default), APIOpenAI or APIOllama.
	API string
	// CAFile adds a PEM certificate (a firm's own CA) to the system's roots.
	CAFile string
	Locale receipt.Locale
	// InFlight is how many pages are sent at once (the server batches
	// them); default 4. The pipeline runs as many receipts at a time.
	InFlight int
	// Timeout bounds one request; default 5 minutes.
	Timeout time.Duration
	// Retries after a busy, restarting or unreachable server (429, 502,
	// 503, 504, a refused or lost connection), waiting Backoff (default
	// 1 s), then twice as long each time; default 3.
	Retries int
	Backoff time.Duration
	// MaxTokens caps the answer; default vlm.DefaultMaxTokens, as for the
	// embedded engine.
	MaxTokens int
	// OnEvent hears about retries, for logs and the UI (keys redacted).
	OnEvent func(string)
	// Client replaces the HTTP client (tests); CAFile is then ignored.
	Client *http.Client
}

// Engine reads receipts on an inference server. It is safe for concurrent
// use; at most Options.InFlight pages are sent at once.
type Engine struct {
	opt    Options
	base   *url.URL
	client *http.Client
	slots  chan struct{}

	mu         sync.Mutex
	noLogprobs bool // the server refused logprobs once
	apiMu      sync.Mutex
	apiFound   string
}

// New checks the options and makes the engine; it does not contact the
// server (Available does).
func New(opt Options) (*Engine, error) {
	base, err := baseURL(opt.URL)
	if err != nil {
		return nil, err
	}
	if opt.Model == "" {
		return nil, errors.New("no model named: give the model the server should read with (its /v1/models or /api/tags list)")
	}
	switch opt.API {
	case APIAuto, APIOpenAI, APIOllama:
	default:
		return nil, fmt.Errorf("unknown server API %q: use openai or ollama (or leave it empty to detect)", opt.API)
	}
	if opt.InFlight <= 0 {
		opt.InFlight = 4
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 5 * time.Minute
	}
	if opt.Retries < 0 {
		opt.Retries = 0
	} else if opt.Retries == 0 {
		opt.Retries = 3
	}
	if opt.Backoff <= 0 {
		opt.Backoff = time.Second
	}
	if opt.MaxTokens <= 0 {
		opt.MaxTokens = vlm.DefaultMaxTokens
	}
	if opt.APIKey != "" && base.Scheme == "http" {
		switch {
		case loopback(base.Hostname()):
		case !opt.AllowHTTPKey:
			return nil, fmt.Errorf("the key would go to %s over plain http://, where anyone on the network between can read it "+
				"(and every receipt sent): use the server's https:// address, or, only on a network you trust, allow it "+
				"(--allow-http-key from the command line)", base.Host)
		case opt.OnEvent != nil:
			opt.OnEvent(fmt.Sprintf("warning: the key goes to %s over plain http://, as allowed: anyone on the network between can read it, and the receipts", base.Host))
		}
	}
	var client *http.Client
	if opt.Client != nil {
		c := *opt.Client
		c.CheckRedirect = checkRedirect
		client = &c
	} else if client, err = newHTTPClient(opt.CAFile, opt.InFlight); err != nil {
		return nil, err
	}
	e := &Engine{opt: opt, base: base, client: client, slots: make(chan struct{}, opt.InFlight), apiFound: opt.API}
	return e, nil
}

// Name is "server".
func (e *Engine) Name() string { return "server" }

// InFlight is how many pages the engine sends at once.
func (e *Engine) InFlight() int { return e.opt.InFlight }

// Where names the model and the server, for the status bar and messages:
// the host only, never a key or a path's secrets.
func (e *Engine) Where() string {
	return fmt.Sprintf("%s at %s", e.opt.Model, e.base.Host)
}

// Model is the model the engine reads with.
func (e *Engine) Model() string { return e.opt.Model }

// Close releases idle connections.
func (e *Engine) Close() error {
	e.client.CloseIdleConnections()
	return nil
}

func (e *Engine) event(format string, args ...any) {
	if e.opt.OnEvent != nil {
		e.opt.OnEvent(e.redact(fmt.Sprintf(format, args...)))
	}
}

// checkTimeout bounds Available and the API check: a server that does not
// list its models in this long is not there. A variable for tests.
var checkTimeout = 10 * time.Second

// Available checks that the server answers this client and offers the
// model, within checkTimeout; its error wraps inference.ErrUnavailable.
func (e *Engine) Available(ctx context.Context) error {
	tctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	names, err := e.models(tctx)
	if err != nil {
		return e.classify(ctx, err)
	}
	if len(names) > 0 && !hasModel(names, e.opt.Model) {
		return fmt.Errorf("%w: %s has no model %q (it offers %s)", inference.ErrUnavailable, e.base.Host, e.opt.Model, plain.Clip(fmt.Sprint(names), 200))
	}
	return nil
}

// hasModel matches Ollama's "name" and "name:latest" as one.
func hasModel(names []string, m string) bool {
	for _, n := range names {
		if n == m || n == m+":latest" || n+":latest" == m {
			return true
		}
	}
	return false
}

// ErrSchema marks an answer that is not the JSON the schema asks for: the
// server ignored the response format.
var ErrSchema = errors.New("the server's answer does not follow the receipt schema (does it support JSON-schema output?)")

// Extract reads one page on the server: the page as JPEG, the prompt with
// its OCR text as the hint, the schema as the response format. A refusal
// is asked again with the strict prompt, once; every value is then
// grounded on the page's OCR words.
func (e *Engine) Extract(ctx context.Context, page inference.Page) (inference.Result, error) {
	start := time.Now()
	var img bytes.Buffer
	// JPEG at high quality: a tenth of a PNG's bytes on the wire, at full
	// resolution (fewer pixels would cost accuracy; JPEG's loss does not
	// show at this quality).
	if err := jpeg.Encode(&img, page.Image, &jpeg.Options{Quality: 95}); err != nil {
		return inference.Result{}, err
	}
	// The same words the embedded engine sends, laid out for a model
	// whose family the server does not tell us: its own chat template.
	req := vlm.BuildPrompt("", assets.ReceiptPrompt, page)
	c := chat{
		system: req.System, user: req.User, image: img.Bytes(),
		schema: receiptSchema, maxTokens: e.opt.MaxTokens,
	}
	a, r, err := e.read(ctx, c)
	if err == nil && vlm.Refused(&r) {
		e.event("the model declined page %d (%q): asking again with the strict bookkeeping prompt", page.Index+1, plain.Clip(a.text, 80))
		c.system = vlm.BuildPrompt("", assets.ReceiptPromptStrict, page).System
		a, r, err = e.read(ctx, c)
		if err == nil && vlm.Refused(&r) {
			return inference.Result{Raw: a.text, Engine: "server"}, fmt.Errorf("%w twice, the second time with the strict prompt: %s", vlm.ErrRefused, plain.Clip(a.text, 120))
		}
	}
	if err != nil {
		return inference.Result{Raw: a.text, Engine: "server"}, err
	}
	t := inference.Timings{
		Load: a.load, Prefill: a.prefill, Decode: a.decode, PromptTokens: a.promptTokens, OutputTokens: a.outTok,
		Total: time.Since(start), Batch: 1,
	}
	if a.decode > 0 && a.outTok > 0 {
		t.TokensPerSec = float64(a.outTok) / a.decode.Seconds()
	}
	if len(page.Words) > 0 {
		fields.Ground(&r, page.Words)
	}
	return inference.Result{Receipt: r, Raw: a.text, Words: page.Words, Timings: t, Engine: "server"}, nil
}

// read asks once (with retries on a busy or lost server) and holds the
// answer to the guards: not empty or one character repeated, valid
// against the schema, a receipt.
func (e *Engine) read(ctx context.Context, c chat) (answer, receipt.Receipt, error) {
	select {
	case e.slots <- struct{}{}:
	case <-ctx.Done():
		return answer{}, receipt.Receipt{}, ctx.Err()
	}
	defer func() { <-e.slots }()
	a, err := e.ask(ctx, c)
	if err != nil {
		return a, receipt.Receipt{}, err
	}
	if fault := vlm.JudgeOutput(a.text); fault != nil {
		return a, receipt.Receipt{}, fmt.Errorf("%s answered %q: %w; the server's GPU or precision settings compute wrongly", e.Where(), plain.Clip(a.text, 40), fault)
	}
	if closed, cut := vlm.CloseTruncated(a.text); cut && a.truncated {
		// The answer reached the token limit: what ended whole is kept,
		// as the embedded engine keeps it.
		e.event("the answer for a page reached its limit of %d tokens: the items that ended whole are kept", c.maxTokens)
		a.text = closed
	}
	if err := validate(assets.ReceiptSchema, a.text); err != nil {
		return a, receipt.Receipt{}, fmt.Errorf("%w: %w: %s", ErrSchema, err, plain.Clip(a.text, 120))
	}
	r, err := vlm.ParseModelJSON(a.text, a.pieces, e.opt.Locale)
	return a, r, err
}

// ask sends the chat in the server's API, within the per-request timeout,
// retrying while the server is busy or out of reach.
func (e *Engine) ask(ctx context.Context, c chat) (answer, error) {
	api, err := e.api(ctx)
	if err != nil {
		return answer{}, e.classify(ctx, err)
	}
	var a answer
	err = e.withRetries(ctx, "page request to "+e.Where(), func(ctx context.Context) error {
		rctx, cancel := context.WithTimeout(ctx, e.opt.Timeout)
		defer cancel()
		e.mu.Lock()
		c.logprobs = !e.noLogprobs
		e.mu.Unlock()
		var err error
		if api == APIOllama {
			a, err = e.ollamaChat(rctx, c)
		} else {
			a, err = e.openAIChat(rctx, c)
		}
		var he *httpError
		if c.logprobs && errors.As(err, &he) && he.status == http.StatusBadRequest {
			// Some servers refuse logprobs: without them every field
			// gets the neutral confidence, which beats no reading.
			c.logprobs = false
			if api == APIOllama {
				a, err = e.ollamaChat(rctx, c)
			} else {
				a, err = e.openAIChat(rctx, c)
			}
			if err == nil {
				e.mu.Lock()
				e.noLogprobs = true
				e.mu.Unlock()
			}
		}
		if rctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			return e.timedOut(ctx)
		}
		return err
	})
	return a, e.classify(ctx, err)
}

// timedOut: a request got no answer within the timeout. The answer is
// capped (MaxTokens), so a server that is still up is busier than it can
// serve (a month-end queue from every seat): the page is not at fault
// either, and waits in the queue (the pipeline fails a receipt only after
// it has met this several times).
func (e *Engine) timedOut(ctx context.Context) error {
	if err := e.Available(ctx); err != nil {
		return err
	}
	return fmt.Errorf("%w: %s is up but gave no answer within %s: it has more pages than it can read (fewer pages at once, or a longer timeout)",
		inference.ErrUnavailable, e.Where(), e.opt.Timeout)
}
