package server

import (
	"bytes"
	"context"
	"errors"
	"image/jpeg"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/vlm"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/internal/testollama"
	"github.com/shoebox-app/shoebox/receipt"
)

func loadPage(t *testing.T, path string) inference.Page {
	t.Helper()
	f, err := ingest.Probe(context.Background(), path, ingest.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	pg, err := ingest.LoadPage(context.Background(), f, 0, ingest.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return inference.Page{Image: pg.Image, Text: pg.Text}
}

// TestRealOllama reads dev receipts through a real Ollama server (built
// from the pinned module, serving our tiny vision model) by both APIs:
// OpenAI's /v1/chat/completions with response_format json_schema, and
// Ollama's /api/chat with format. The tiny model's readings are nonsense;
// what is checked is that every answer is the schema's JSON, parsed and
// timed, and that the model list and Available see the model.
func TestRealOllama(t *testing.T) {
	srv := testollama.Start(t, 2)
	paths := testollama.Receipts(t, 2)
	for _, api := range []string{APIOpenAI, APIOllama, APIAuto} {
		t.Run("api="+api, func(t *testing.T) {
			e, err := New(Options{URL: srv.URL, Model: srv.Model, API: api, Locale: receipt.DefaultLocale(receipt.CountryMY), Timeout: 3 * time.Minute, MaxTokens: testMaxTokens})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			ctx := context.Background()
			if err := e.Available(ctx); err != nil {
				t.Fatalf("Available: %v\n%s", err, srv.Log())
			}
			names, err := e.Models(ctx)
			if err != nil || !hasModel(names, srv.Model) {
				t.Fatalf("Models = %v, %v; want %s among them", names, err, srv.Model)
			}
			for _, p := range paths {
				page := loadPage(t, p)
				// A line of OCR as the hint, with a word to ground on.
				page.Words = []inference.Word{{Text: "TOTAL", Conf: 0.9, Line: 0}, {Text: "9.99", Conf: 0.9, Line: 0}}
				res, err := e.Extract(ctx, page)
				if errors.Is(err, ErrSchema) {
					t.Fatalf("%s: the server's answer broke the schema: %v", p, err)
				}
				if err != nil && !errors.Is(err, vlm.ErrRefused) {
					t.Fatalf("%s: %v\n%s", p, err, srv.Log())
				}
				if verr := validate(assets.ReceiptSchema, res.Raw); verr != nil {
					t.Errorf("%s: %v in %q", p, verr, res.Raw)
				}
				if err == nil && (res.Engine != "server" || res.Timings.PromptTokens == 0 || res.Timings.Total <= 0) {
					t.Errorf("%s: result %+v", p, res.Timings)
				}
				wantTimes := e.apiFound == APIOllama
				if err == nil && wantTimes && (res.Timings.Prefill <= 0 || res.Timings.Decode <= 0) {
					t.Errorf("%s: Ollama's native API gave no prefill/decode times: %+v", p, res.Timings)
				}
				t.Logf("%s via %s: %d prompt tokens, %d output, %s: %.80q", p, e.apiFound, res.Timings.PromptTokens, res.Timings.OutputTokens, res.Timings.Total.Round(time.Millisecond), res.Raw)
			}
			// The answer's tokens come with probabilities, which become
			// the fields' confidences.
			a, err := e.ask(ctx, chat{
				system: "Read the receipt.", user: strings.TrimSpace(assets.ReceiptInstruction), image: jpegOf(t, loadPage(t, paths[0])),
				schema: compactJSON(assets.ReceiptSchema), maxTokens: 64,
			})
			if err != nil || len(a.pieces) == 0 {
				t.Errorf("no token probabilities from %s (%v): %d logprobs for %q", e.apiFound, err, len(a.pieces), a.text)
			}
			if api == APIAuto && e.apiFound != APIOllama {
				t.Errorf("auto detected %q on an Ollama server", e.apiFound)
			}
		})
	}
}

// TestRealOllamaGoesAway: a server that is stopped answers
// inference.ErrUnavailable (the page is not at fault), and reads again
// once it is back.
func TestRealOllamaGoesAway(t *testing.T) {
	srv := testollama.Start(t, 1)
	page := loadPage(t, testollama.Receipts(t, 1)[0])
	e, err := New(Options{URL: srv.URL, Model: srv.Model, API: APIOpenAI, Retries: 1, Backoff: 10 * time.Millisecond, MaxTokens: testMaxTokens})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := e.Extract(ctx, page); err != nil && !errors.Is(err, vlm.ErrRefused) {
		t.Fatal(err)
	}
	srv.Stop()
	if _, err := e.Extract(ctx, page); !errors.Is(err, inference.ErrUnavailable) {
		t.Fatalf("with the server stopped: %v, want ErrUnavailable", err)
	}
	if err := e.Available(ctx); !errors.Is(err, inference.ErrUnavailable) {
		t.Fatalf("Available with the server stopped: %v", err)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if err := e.Available(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Extract(ctx, page); err != nil && !errors.Is(err, vlm.ErrRefused) {
		t.Fatalf("after the restart: %v", err)
	}
}

func jpegOf(t *testing.T, p inference.Page) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, p.Image, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testMaxTokens caps the tiny random-weight model's answers, which would
// otherwise run to the full schema's limit on every page.
const testMaxTokens = 512
