package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/vlm/worker"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/internal/plain"
	"github.com/shoebox-app/shoebox/receipt"
)

func init() {
	register("bench", "time the vision engine stage by stage on receipts (and against a bare llama.cpp decode loop), or an inference server in pages/minute", runBench)
}

type benchReport struct {
	Model     string  `json:"model"`
	Pages     int     `json:"pages"`
	Parallel  int     `json:"parallel"`   // pages the plan reads at once
	MeanBatch float64 `json:"mean_batch"` // pages read together, on average
	// FullGrammarPct is the share of output tokens for which the grammar ran
	// over the whole vocabulary: high for random weights, low for a model
	// that writes JSON by itself.
	FullGrammarPct float64 `json:"full_grammar_pct"`
	// RescueMSPerTok is the decode time per token spent finding the best
	// allowed token when the favourite broke the grammar: model-dependent
	// (a random-weight model breaks it at every turn), so the overhead is
	// also given without it.
	RescueMSPerTok float64 `json:"grammar_rescue_ms_per_token"`
	// ForwardMSPerTok is the time per token inside llama.cpp's decode steps
	// in the same run: InRunOverheadPct compares the engine's decode with
	// it, free of the run-to-run noise between the engine and the bare loop.
	ForwardMSPerTok     float64 `json:"forward_ms_per_token"`
	InRunOverheadPct    float64 `json:"in_run_overhead_pct"`
	OverheadExRescuePct float64 `json:"engine_overhead_without_rescue_pct"`
	LoadS               float64 `json:"load_s"`
	EncodeMS            float64 `json:"image_encode_ms_per_page"`
	PrefillMS           float64 `json:"prefill_ms_per_page"`
	DecodeMS            float64 `json:"decode_ms_per_page"`
	// OtherMS is the rest of a page's time: PNG encoding, the pipe to the
	// worker, waiting for a batch, parsing.
	OtherMS        float64 `json:"other_ms_per_page"`
	PromptTokens   float64 `json:"prompt_tokens_per_page"`
	OutputTokens   float64 `json:"output_tokens_per_page"`
	TokensPerSec   float64 `json:"decode_tokens_per_s"`
	PagesPerMinute float64 `json:"pages_per_minute"`
	BareMSPerToken float64 `json:"bare_decode_ms_per_token"`
	EngineMSPerTok float64 `json:"engine_decode_ms_per_token"`
	OverheadPct    float64 `json:"engine_overhead_pct"`
}

func runBench(env Env, args []string) int {
	fs, _ := newFlags(env, "bench", "RECEIPT...")
	model := fs.String("model", "", "GGUF model")
	mmproj := fs.String("mmproj", "", "its projector")
	n := fs.Int("n", 5, "pages to read (receipts are reused in turn)")
	parallel := fs.Int("parallel", 0, "pages read at once as parallel sequences (0: the planner chooses); with --engine server: pages in flight (0: 4)")
	asJSON := fs.Bool("json", false, "print JSON")
	engineName := fs.String("engine", "vlm", "vlm (the embedded engine, with --model and --mmproj) or server (with --server and --server-model)")
	sf := addServerFlags(fs)
	maxTokens := fs.Int("max-tokens", 0, "the most tokens a page's answer may take (0: the engine's limit)")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	pages, err := benchPages(fs.Args())
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	switch *engineName {
	case "vlm":
	case "server":
		return benchServer(env, sf, pages, *n, *parallel, *asJSON)
	default:
		fmt.Fprintf(env.Stderr, "shoebox: unknown engine %q: use vlm or server\n", *engineName)
		return 2
	}
	loc := receipt.DefaultLocale(receipt.CountryOther)
	t0 := time.Now()
	v, code := startVLM(env, *model, *mmproj, loc, *parallel, *maxTokens)
	if v == nil {
		return code
	}
	defer v.Close()
	rep := benchReport{Model: filepath.Base(*model), LoadS: time.Since(t0).Seconds(), Parallel: max(v.Plan().Parallel, 1)}
	start := time.Now()
	results := make([]inference.Result, *n)
	errs := make([]error, *n)
	runPool(context.Background(), *n, rep.Parallel, func(i int) {
		results[i], errs[i] = v.Extract(context.Background(), pages[i%len(pages)])
	})
	for i, res := range results {
		if errs[i] != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", errs[i])
			return 1
		}
		t := res.Timings
		rep.EncodeMS += plain.Millis(t.ImageEncode)
		rep.PrefillMS += plain.Millis(t.Prefill)
		rep.DecodeMS += plain.Millis(t.Decode)
		rep.PromptTokens += float64(t.PromptTokens)
		rep.OutputTokens += float64(t.OutputTokens)
		rep.OtherMS += plain.Millis(t.Total - t.ImageEncode - t.Prefill - t.Decode)
		rep.MeanBatch += float64(t.Batch)
		rep.FullGrammarPct += float64(t.FullGrammarSteps)
		rep.RescueMSPerTok += plain.Millis(t.GrammarRescue)
		rep.ForwardMSPerTok += plain.Millis(t.Forward)
	}
	wall := time.Since(start)
	k := float64(*n)
	rep.Pages = *n
	rep.EncodeMS, rep.PrefillMS, rep.DecodeMS = rep.EncodeMS/k, rep.PrefillMS/k, rep.DecodeMS/k
	rep.PromptTokens, rep.OutputTokens = rep.PromptTokens/k, rep.OutputTokens/k
	if rep.DecodeMS > 0 {
		rep.TokensPerSec = rep.OutputTokens / (rep.DecodeMS / 1000)
		rep.EngineMSPerTok = rep.DecodeMS / rep.OutputTokens
	}
	rep.PagesPerMinute = k / wall.Minutes()
	rep.OtherMS, rep.MeanBatch = rep.OtherMS/k, rep.MeanBatch/k
	if rep.OutputTokens > 0 {
		rep.FullGrammarPct = 100 * rep.FullGrammarPct / (rep.OutputTokens * k)
		rep.RescueMSPerTok /= rep.OutputTokens * k
		rep.ForwardMSPerTok /= rep.OutputTokens * k
	}
	if rep.ForwardMSPerTok > 0 && rep.Parallel == 1 {
		rep.InRunOverheadPct = ((rep.EngineMSPerTok-rep.RescueMSPerTok)/rep.ForwardMSPerTok - 1) * 100
	}
	// The yardstick decodes one sequence: compared with one page at a time.
	if rep.Parallel == 1 {
		if bare, err := worker.BareDecode(*model, int(rep.PromptTokens), max(int(rep.OutputTokens), 32), v.Plan()); err == nil && bare > 0 {
			rep.BareMSPerToken = plain.Millis(bare)
			rep.OverheadPct = (rep.EngineMSPerTok/rep.BareMSPerToken - 1) * 100
			rep.OverheadExRescuePct = ((rep.EngineMSPerTok-rep.RescueMSPerTok)/rep.BareMSPerToken - 1) * 100
		}
	}
	if *asJSON {
		return printJSON(env, rep)
	}
	w := env.Stdout
	fmt.Fprintf(w, "%s: %d pages, up to %d at a time (%.1f on average), load %.2f s, %.1f pages/minute\n", rep.Model, rep.Pages, rep.Parallel, rep.MeanBatch, rep.LoadS, rep.PagesPerMinute)
	fmt.Fprintf(w, "per page: image encode %.1f ms, prefill %.1f ms (%.0f tokens), decode %.1f ms (%.0f tokens, %.0f tokens/s)\n",
		rep.EncodeMS, rep.PrefillMS, rep.PromptTokens, rep.DecodeMS, rep.OutputTokens, rep.TokensPerSec)
	fmt.Fprintf(w, "grammar over the whole vocabulary on %.0f%% of output tokens\n", rep.FullGrammarPct)
	fmt.Fprintf(w, "other per page (PNG, pipe, batch wait, parsing): %.1f ms\n", rep.OtherMS)
	if rep.Parallel == 1 {
		fmt.Fprintf(w, "decode per token: engine %.3f ms, bare llama.cpp loop %.3f ms: overhead %.1f%% (%.1f%% without the %.3f ms of grammar rescues)\n",
			rep.EngineMSPerTok, rep.BareMSPerToken, rep.OverheadPct, rep.OverheadExRescuePct, rep.RescueMSPerTok)
		fmt.Fprintf(w, "in the same run: %.3f ms of each token inside llama.cpp's decode: engine overhead %.1f%% without rescues\n", rep.ForwardMSPerTok, rep.InRunOverheadPct)
	} else {
		fmt.Fprintf(w, "decode per token and page: %.3f ms (the overhead against a bare loop is measured with --parallel 1)\n", rep.EngineMSPerTok)
	}
	return 0
}

// benchPages loads the first page of each receipt.
func benchPages(paths []string) ([]inference.Page, error) {
	var pages []inference.Page
	for _, p := range paths {
		f, err := ingest.Probe(context.Background(), p, ingest.DefaultLimits())
		if err != nil {
			return nil, err
		}
		pg, err := ingest.LoadPage(context.Background(), f, 0, ingest.DefaultLimits())
		if err != nil {
			return nil, err
		}
		pages = append(pages, inference.Page{Image: pg.Image})
	}
	return pages, nil
}
