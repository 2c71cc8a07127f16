package cli

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/shoebox-app/shoebox/einvoice"
	"github.com/shoebox-app/shoebox/export"
	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/ocr"
	"github.com/shoebox-app/shoebox/inference/vlm"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/models"
	"github.com/shoebox-app/shoebox/pipeline"
	"github.com/shoebox-app/shoebox/receipt"
)

func init() {
	register("extract", "read receipts without a library and print or save the fields", runExtract)
}

type extracted struct {
	File     string             `json:"file"`
	Engine   string             `json:"engine,omitempty"`
	Error    string             `json:"error,omitempty"`
	Receipt  *receipt.Receipt   `json:"receipt,omitempty"`
	Findings []receipt.Finding  `json:"findings,omitempty"`
	Timings  *inference.Timings `json:"timings,omitempty"`
}

func runExtract(env Env, args []string) int {
	fs, _ := newFlags(env, "extract", "PATH...")
	engineName := fs.String("engine", "auto", "auto, ocr, vlm or server (auto: the vision model when one is installed, else OCR)")
	out := fs.String("o", "", "also write FILE.xlsx or FILE.csv")
	asJSON := fs.Bool("json", false, "print JSON")
	country := fs.String("country", "AU", "country rules: AU, NZ, UK, EU, US, MY, other")
	vf := addVLMFlags(fs)
	reader := addReaderFlag(fs)
	ignoreEInvoice := fs.Bool("ignore-einvoice", false, "read a PDF's printed pages even when it carries an e-invoice")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	c, err := receipt.ParseCountry(*country)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 2
	}
	loc := receipt.DefaultLocale(c)
	eng, code := openEngine(env, *engineName, *reader, vf, loc, ocr.DefaultOptions(loc))
	if eng == nil {
		return code
	}
	defer eng.Close()
	files, walkErrs := ingest.Walk(fs.Args())
	results := make([]extracted, len(files))
	ctx, stop := interruptible()
	defer stop()
	bar := newProgress(env.Stderr, len(files))
	runPool(ctx, len(files), poolSize(eng), func(i int) {
		results[i].File = files[i]
		var damaged error // a PDF's e-invoice that cannot be read: the print is read, and the finding says so
		if !*ignoreEInvoice {
			inv, err := readEInvoice(ctx, files[i])
			if errors.Is(err, einvoice.ErrDamaged) {
				damaged, err = err, nil
			}
			if err != nil || inv != nil {
				if err != nil {
					results[i].Error = err.Error()
				} else {
					r := inv.Receipt()
					results[i].Engine, results[i].Receipt = "e-invoice", &r
					results[i].Findings = append(receipt.Validate(r, loc, timeNow()), inv.Check()...)
				}
				bar.done()
				return
			}
		}
		res, err := extractFile(ctx, eng, files[i])
		if err != nil {
			results[i].Error = err.Error()
		} else {
			results[i].Engine = res.Engine
			results[i].Receipt = &res.Receipt
			results[i].Findings = receipt.Validate(res.Receipt, loc, timeNow())
			if fd, ok := einvoice.DamagedFinding(damaged); ok {
				results[i].Findings = append(results[i].Findings, fd)
			}
			t := res.Timings
			results[i].Timings = &t
		}
		bar.done()
	})
	bar.finish()
	// A hidden file a folder's walk skipped is said, not failed.
	failed, skipped := 0, 0
	for _, e := range walkErrs {
		fmt.Fprintln(env.Stderr, "shoebox:", e)
		if errors.Is(e, ingest.ErrHidden) {
			skipped++
		} else {
			failed++
		}
	}
	for _, r := range results {
		if r.Error != "" {
			failed++
		}
	}
	if *asJSON {
		if code := printJSON(env, results); code != 0 {
			return code
		}
	} else {
		for _, r := range results {
			printExtracted(env, r)
		}
	}
	if *out != "" {
		rows := func(yield func(export.Row) bool) {
			for _, r := range results {
				if r.Receipt != nil && !yield(export.Row{Status: "extracted", Receipt: *r.Receipt, Findings: r.Findings, Original: r.File}) {
					return
				}
			}
		}
		st, err := write(*out, rows, export.Options{Locale: loc, SummaryBy: receipt.ByQuarter})
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		fmt.Fprintf(env.Stderr, "wrote %s: %d receipts\n", *out, st.Receipts)
	}
	// Any file that could not be read makes the exit status 1, so a
	// script never takes a partial output for a complete one (issue 38
	// item 13); what could be read is printed and written all the same.
	if failed > 0 {
		fmt.Fprintf(env.Stderr, "shoebox: %d of %d files could not be read\n", failed, len(files)+len(walkErrs)-skipped)
		return 1
	}
	return 0
}

func printExtracted(env Env, r extracted) {
	w := env.Stdout
	if r.Error != "" {
		fmt.Fprintf(w, "%s: %s\n", printable(filepath.Base(r.File)), printable(r.Error))
		return
	}
	var parts []string
	for _, f := range []string{"supplier_name", "date", "total", "currency", "supplier_tax_id"} {
		if f == "total" && r.Receipt.Total.Set { // as printed: 19.20, not 19.2
			parts = append(parts, r.Receipt.Total.Value.StringFixed(int32(receipt.MinorDigits(r.Receipt.Currency.Value))))
			continue
		}
		if v, _ := receipt.Get(r.Receipt, f); v != "" {
			parts = append(parts, v)
		}
	}
	fmt.Fprintf(w, "%s: %s\n", printable(filepath.Base(r.File)), printable(strings.Join(parts, " | ")))
	for _, f := range r.Findings {
		fmt.Fprintf(w, "  %s: %s\n", f.Severity, f.Message)
	}
}

// startVLM checks the model files, plans for this machine and starts the
// vision engine's worker. It prints why and returns an exit code on failure.
func startVLM(env Env, model, projector string, loc receipt.Locale, parallel, maxTokens int) (*vlm.Engine, int) {
	if model == "" || projector == "" {
		fmt.Fprintln(env.Stderr, "shoebox: --engine vlm needs --model FILE.gguf and --mmproj FILE.gguf")
		return nil, 2
	}
	cat, _ := models.Catalogue()
	for _, p := range []string{model, projector} {
		if _, err := models.Verify(p, models.RefByName(cat, filepath.Base(p)), nil); err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return nil, 1
		}
	}
	facts, err := hw.FactsFromGGUF(model, projector)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return nil, 1
	}
	m := hw.DiscoverHere()
	req := hw.Request{Machine: m, Model: facts, Parallel: parallel}
	plan := hw.MakePlan(req)
	v, err := vlm.New(vlm.Options{
		Model: model, Projector: projector, Plan: plan, Request: &req, Locale: loc, Worker: workerCommand, MaxTokens: maxTokens,
		OnEvent: func(s string) { fmt.Fprintln(env.Stderr, "shoebox:", s) },
	})
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return nil, 1
	}
	fmt.Fprintf(env.Stderr, "reading with %s (%s)\n", filepath.Base(model), v.Plan().Summary(m))
	return v, 0
}

// addReaderFlag adds --reader, the OCR engine's page reader.
func addReaderFlag(fs *flag.FlagSet) *string {
	return fs.String("reader", "", "the OCR engine's page reader: ppocr, tesseract or both (default: "+ocr.DefaultReader+" when its models are installed, else tesseract)")
}

// vlmFlags are the vision engine's flags that extract and eval share.
type vlmFlags struct {
	model, mmproj *string
	parallel      *int
	maxTokens     *int
	hints         *bool
	server        serverFlags
}

func addVLMFlags(fs *flag.FlagSet) vlmFlags {
	return vlmFlags{
		model:     fs.String("model", "", "with --engine vlm: the GGUF model file"),
		mmproj:    fs.String("mmproj", "", "with --engine vlm: its vision projector (mmproj) file"),
		parallel:  fs.Int("parallel", 0, "with --engine vlm: pages read at once as parallel sequences (0: the planner chooses); with --engine server: pages in flight (0: 4)"),
		maxTokens: fs.Int("max-tokens", 0, fmt.Sprintf("with --engine vlm: the most tokens a page's answer may take (0: %d, which holds the longest dev receipt's)", vlm.DefaultMaxTokens)),
		hints:     fs.Bool("ocr-hints", true, "with --engine vlm or server: read each page with Tesseract first, as a hint for the model and to ground its answers"),
		server:    addServerFlags(fs),
	}
}

// openEngine starts the engine --engine names: vlm (auto: when --model is
// given), else OCR with ocr's options. It prints why and returns an exit
// code when it cannot.
//
// reader names the OCR engine's page reader (ppocr, tesseract, both; ""
// for the default: PP-OCR when its parts are found beside the binary).
func openEngine(env Env, name, reader string, vf vlmFlags, loc receipt.Locale, ocrOpt ocr.Options) (inference.Engine, int) {
	switch {
	case name == "server":
		return startServerEngine(env, vf.server, loc, *vf.parallel, *vf.hints)
	case name == "vlm" || name == "auto" && *vf.model != "":
		v, code := startVLM(env, *vf.model, *vf.mmproj, loc, *vf.parallel, *vf.maxTokens)
		if v == nil {
			return nil, code
		}
		return withOCRHints(env, v, loc, *vf.hints), 0
	case name == "auto" || name == "ocr":
		o, _, err := pipeline.OpenReader(reader, ocrOpt, func(s string) { fmt.Fprintln(env.Stderr, "shoebox:", s) })
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return nil, 1
		}
		return o, 0
	}
	fmt.Fprintf(env.Stderr, "shoebox: unknown engine %q: use auto, ocr, vlm or server\n", name)
	return nil, 2
}

// withOCRHints pairs the vision engine with Tesseract (see
// pipeline.VLMWithOCR) unless hints are off or Tesseract cannot start.
func withOCRHints(env Env, v *vlm.Engine, loc receipt.Locale, hints bool) inference.Engine {
	if !hints {
		return v
	}
	o, err := ocr.NewTesseract(ocr.DefaultOptions(loc))
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox: reading without OCR hints:", err)
		return v
	}
	return pipeline.VLMWithOCR{Engine: v, OCR: o}
}

// poolSize is how many files are read at once: a core each for OCR, and at
// least as many as the vision engine reads together, so that its batches fill.
func poolSize(eng inference.Engine) int {
	if v, ok := eng.(interface{ Plan() hw.Plan }); ok {
		return max(runtime.NumCPU(), v.Plan().Parallel)
	}
	if s, ok := eng.(interface{ InFlight() int }); ok {
		return s.InFlight() // the server reads them; Tesseract's hint is the only work here
	}
	return runtime.NumCPU()
}

// workerCommand starts the model worker; nil means this executable's "worker".
var workerCommand []string
