package cli

import (
	"fmt"
	"time"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/server"
	"github.com/shoebox-app/shoebox/internal/plain"
	"github.com/shoebox-app/shoebox/receipt"
)

type benchServerReport struct {
	Server   string `json:"server"` // model at host
	Pages    int    `json:"pages"`
	InFlight int    `json:"in_flight"`
	Failed   int    `json:"failed"`
	// WarmS is the first page, read alone before the timing (it may load
	// the model on the server).
	WarmS          float64 `json:"warm_up_s"`
	PagesPerMinute float64 `json:"pages_per_minute"`
	RequestMS      float64 `json:"request_ms_per_page"` // as this client waited for it
	PromptTokens   float64 `json:"prompt_tokens_per_page"`
	OutputTokens   float64 `json:"output_tokens_per_page"`
	// Where the server's time went, when it says (Ollama's native API).
	PrefillMS    float64 `json:"server_prefill_ms_per_page,omitempty"`
	DecodeMS     float64 `json:"server_decode_ms_per_page,omitempty"`
	TokensPerSec float64 `json:"server_decode_tokens_per_s,omitempty"`
}

// benchServer times the server engine: one page to warm the server up,
// then n pages with inFlight at once, page images only (no OCR hint, so
// that the numbers are the server's).
func benchServer(env Env, sf serverFlags, pages []inference.Page, n, inFlight int, asJSON bool) int {
	if *sf.url == "" || *sf.model == "" {
		fmt.Fprintln(env.Stderr, "shoebox: --engine server needs --server URL and --server-model NAME")
		return 2
	}
	opt := sf.options(inFlight, func(s string) { fmt.Fprintln(env.Stderr, "shoebox:", s) })
	opt.Locale = receipt.DefaultLocale(receipt.CountryOther)
	s, err := server.New(opt)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 2
	}
	defer s.Close()
	tellWherePagesGo(env.Stderr, s.Where())
	ctx, stop := interruptible()
	defer stop()
	if err := s.Available(ctx); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	rep := benchServerReport{Server: s.Where(), InFlight: s.InFlight()}
	t0 := time.Now()
	if _, err := s.Extract(ctx, pages[0]); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox: warming up:", err)
		return 1
	}
	rep.WarmS = time.Since(t0).Seconds()
	results := make([]inference.Result, n)
	errs := make([]error, n)
	start := time.Now()
	runPool(ctx, n, s.InFlight(), func(i int) {
		results[i], errs[i] = s.Extract(ctx, pages[i%len(pages)])
	})
	wall := time.Since(start)
	ok := 0
	for i, res := range results {
		if errs[i] != nil {
			rep.Failed++
			fmt.Fprintln(env.Stderr, "shoebox:", errs[i])
			continue
		}
		ok++
		t := res.Timings
		rep.RequestMS += plain.Millis(t.Total)
		rep.PromptTokens += float64(t.PromptTokens)
		rep.OutputTokens += float64(t.OutputTokens)
		rep.PrefillMS += plain.Millis(t.Prefill)
		rep.DecodeMS += plain.Millis(t.Decode)
	}
	rep.Pages = n
	if ok == 0 {
		fmt.Fprintln(env.Stderr, "shoebox: no page was read")
		return 1
	}
	k := float64(ok)
	rep.RequestMS, rep.PromptTokens, rep.OutputTokens, rep.PrefillMS, rep.DecodeMS = rep.RequestMS/k, rep.PromptTokens/k, rep.OutputTokens/k, rep.PrefillMS/k, rep.DecodeMS/k
	rep.PagesPerMinute = k / wall.Minutes()
	if rep.DecodeMS > 0 {
		rep.TokensPerSec = rep.OutputTokens / (rep.DecodeMS / 1000)
	}
	if asJSON {
		if code := printJSON(env, rep); code != 0 {
			return code
		}
	} else {
		w := env.Stdout
		fmt.Fprintf(w, "%s: %d pages, %d in flight, %.1f pages/minute (warm-up page %.2f s)", rep.Server, rep.Pages, rep.InFlight, rep.PagesPerMinute, rep.WarmS)
		if rep.Failed > 0 {
			fmt.Fprintf(w, ", %d failed", rep.Failed)
		}
		fmt.Fprintf(w, "\nper page: %.0f ms from request to answer, %.0f prompt tokens, %.0f output tokens\n", rep.RequestMS, rep.PromptTokens, rep.OutputTokens)
		if rep.DecodeMS > 0 {
			fmt.Fprintf(w, "on the server: prefill %.0f ms, decode %.0f ms (%.0f tokens/s per page)\n", rep.PrefillMS, rep.DecodeMS, rep.TokensPerSec)
		}
	}
	if rep.Failed > 0 {
		return 1
	}
	return 0
}
