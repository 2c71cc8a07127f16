package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/inference/ocr"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/internal/eval"
	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/receipt"
)

func init() {
	register("eval", "measure extraction accuracy on labelled receipts", runEval)
}

// labelled is one receipt image with its label.
type labelled struct {
	Image string
	Label eval.Label
}

// findLabelled lists the images in dir with a label: NNN.json beside
// NNN.jpg (the SROIE layout), or rows of labels.csv (file,company,date,address,total).
func findLabelled(dir string) ([]labelled, error) {
	var out []labelled
	if f, err := os.Open(filepath.Join(dir, "labels.csv")); err == nil {
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			return nil, fmt.Errorf("labels.csv: %w", err)
		}
		// Columns by the header's names when it has one, else
		// file,company,date,address,total[,tax,items] (tax_id and tax_rates by header only).
		cols := map[string]int{"file": 0, "company": 1, "date": 2, "address": 3, "total": 4, "tax": 5, "items": 6}
		if len(rows) > 0 && strings.EqualFold(rows[0][0], "file") {
			cols = map[string]int{}
			for i, name := range rows[0] {
				cols[strings.ToLower(strings.TrimSpace(name))] = i
			}
			rows = rows[1:]
		}
		for i, row := range rows {
			cell := func(name string) string {
				if c, ok := cols[name]; ok && c < len(row) {
					return row[c]
				}
				return ""
			}
			if cell("file") == "" || len(row) < 5 {
				return nil, fmt.Errorf("labels.csv row %d: want file,company,date,address,total", i+1)
			}
			out = append(out, labelled{filepath.Join(dir, cell("file")), eval.Label{
				Company: cell("company"), Date: cell("date"),
				Address: cell("address"), Total: cell("total"), Tax: cell("tax"), Items: cell("items"), TaxID: cell("tax_id"), TaxRates: cell("tax_rates"), Currency: cell("currency"),
			}})
		}
		return out, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		ext := strings.ToLower(filepath.Ext(name))
		if ext != ".jpg" && ext != ".jpeg" && ext != ".png" && ext != ".pdf" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(name, filepath.Ext(name))+".json"))
		if err != nil {
			continue
		}
		var l eval.Label
		if err := json.Unmarshal(data, &l); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, labelled{filepath.Join(dir, name), l})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Image < out[j].Image })
	return out, nil
}

type evalReport struct {
	Engine     string                  `json:"engine"`
	Receipts   int                     `json:"receipts"`
	Seconds    float64                 `json:"seconds"`
	PerMinute  float64                 `json:"receipts_per_minute"`
	Fields     map[string]*fieldReport `json:"fields"`
	Order      []string                `json:"-"` // fields in report order
	Overall    fieldReport             `json:"overall"`
	Misses     []miss                  `json:"worst_misses"`
	Failures   []string                `json:"failures,omitempty"`
	Preprocess ocr.Preprocess          `json:"preprocess"`
	CLISeconds float64                 `json:"tesseract_cli_seconds,omitempty"`
	CLIPerMin  float64                 `json:"tesseract_cli_receipts_per_minute,omitempty"`
	// What the status means: ready receipts and how many are right, how
	// well confidence predicts correctness, and each receipt's outcome.
	Readiness   eval.Readiness     `json:"readiness"`
	Calibration []eval.Calibration `json:"calibration"`
	Evidence    []eval.EvidenceRow `json:"evidence"`
	Outcomes    []eval.Outcome     `json:"receipts_detail"`
}

type fieldReport struct {
	Exact                               float64 `json:"exact_match"`
	Precision                           float64 `json:"precision"`
	Recall                              float64 `json:"recall"`
	F1                                  float64 `json:"f1"`
	correct, predicted, labelled, total int
}

type miss struct {
	Receipt string `json:"receipt"`
	Field   string `json:"field"`
	Want    string `json:"want"`
	Got     string `json:"got"`
}

func (f *fieldReport) finish() {
	if f.total > 0 {
		f.Exact = float64(f.correct) / float64(f.total)
	}
	if f.predicted > 0 {
		f.Precision = float64(f.correct) / float64(f.predicted)
	}
	if f.labelled > 0 {
		f.Recall = float64(f.correct) / float64(f.labelled)
	}
	if f.Precision+f.Recall > 0 {
		f.F1 = 2 * f.Precision * f.Recall / (f.Precision + f.Recall)
	}
}

func runEval(env Env, args []string) int {
	fs, _ := newFlags(env, "eval", "")
	labels := fs.String("labels", "", "folder of receipts with labels (NNN.jpg + NNN.json, or labels.csv)")
	engineName := fs.String("engine", "ocr", "ocr, vlm (with --model and --mmproj), server (with --server and --server-model) or auto (vlm when --model is given)")
	vf := addVLMFlags(fs)
	reader := addReaderFlag(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	country := fs.String("country", "MY", "country rules for dates and amounts (SROIE is Malaysian)")
	pre := fs.String("preprocess", "default", "page clean-up: default, none, or a comma list of contrast, upscale, deskew, borders")
	determ := fs.Bool("deterministic", false, "turn off Tesseract's adaptive classifier (reproducible, slightly less accurate)")
	sparse := fs.Bool("sparse-fallback", true, "read pages again in sparse-text mode when no date or total was found")
	lost := fs.Bool("lost-lines", true, "read alone the rows of ink the page reading left out")
	nameWords := fs.Bool("reread-name-words", true, "read alone, enlarged, the doubtful words of the supplier's name and address")
	borders := fs.Bool("border-fallback", true, "read a page again with its dark margins whitened when it gave neither date nor total")
	compare := fs.Bool("compare-cli", false, "also time the raw tesseract CLI (--psm 4, one process per core) on the same images")
	limit := fs.Int("n", 0, "only the first n receipts")
	psm := fs.Int("psm", 0, "Tesseract page segmentation mode (default: the engine's choice)")
	modelList := fs.String("models", "", "compare vision models: a comma list of catalogue IDs (id or id:variant; downloaded with consent) or local MODEL.gguf+MMPROJ.gguf pairs; prints one table")
	yes := fs.Bool("yes", false, "with --models: download missing catalogue models without asking")
	dump := fs.String("dump", "", "write each receipt's OCR text, fields found and label to DIR/NAME.txt (for reading misses), and its words to DIR/NAME.lines (for replaying through the rules)")
	wantCurrency := fs.String("currency", "", "the currency every receipt of the set is in (MYR for SROIE), where its labels name none: scored, and counted in right-among-ready")
	cpuProfile := fs.String("cpuprofile", "", "write a Go CPU profile of the reading to FILE (go tool pprof; time in Tesseract and ONNX Runtime shows under the Go call that entered them)")
	replay := fs.String("replay", "", "for rule work: read each receipt's words from DIR/NAME.lines, as --dump wrote them, instead of the image (seconds for a set; the readers' second looks are left out, so confirm with a full eval)")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if *labels == "" {
		fs.Usage()
		return 2
	}
	items, err := findLabelled(*labels)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	for i := range items {
		if items[i].Label.Currency == "" {
			items[i].Label.Currency = strings.ToUpper(*wantCurrency)
		}
	}
	if *limit > 0 && *limit < len(items) {
		items = items[:*limit]
	}
	if len(items) == 0 {
		fmt.Fprintf(env.Stderr, "shoebox: no labelled receipts in %s\n", *labels)
		return 1
	}
	c, err := receipt.ParseCountry(*country)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 2
	}
	loc := receipt.DefaultLocale(c)
	if *modelList != "" {
		var refs []string
		for _, r := range strings.Split(*modelList, ",") {
			if r = strings.TrimSpace(r); r != "" {
				refs = append(refs, r)
			}
		}
		return compareModels(env, refs, items, loc, *yes, *asJSON, vf)
	}
	pp, err := parsePreprocess(*pre)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 2
	}
	opts := ocr.DefaultOptions(loc)
	opts.Preprocess, opts.SparseFallback, opts.Deterministic, opts.LostLines, opts.BorderFallback, opts.RereadNameWords = pp, *sparse, *determ, *lost, *borders, *nameWords
	if *psm > 0 {
		opts.PSM = *psm
	}
	var eng inference.Engine = replayEngine{dir: *replay, loc: loc}
	if *replay == "" {
		var code int
		if eng, code = openEngine(env, *engineName, *reader, vf, loc, opts); eng == nil {
			return code
		}
	}
	defer eng.Close()

	softMemoryLimit() // as process does: eval's peak memory is the app's
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	ctx, stop := interruptible()
	defer stop()
	rep := evaluate(ctx, env, eng, items, loc, *dump)
	rep.Preprocess = pp
	sort.SliceStable(rep.Misses, func(i, j int) bool { return missRank(rep.Misses[i]) > missRank(rep.Misses[j]) })
	if *compare {
		rep.CLISeconds = timeTesseractCLI(ctx, items)
		if rep.CLISeconds > 0 {
			rep.CLIPerMin = float64(len(items)) / rep.CLISeconds * 60
		}
	}
	if *asJSON {
		return printJSON(env, rep)
	}
	printEval(env.Stdout, rep)
	return 0
}

// evaluate reads every labelled receipt with eng and scores it: accuracy
// per field, the ready rate and right-among-ready, calibration and the
// evidence table. dump, when set, is a folder for each reading.
func evaluate(ctx context.Context, env Env, eng inference.Engine, items []labelled, loc receipt.Locale, dump string) evalReport {
	results := make([]map[string]eval.FieldScore, len(items))
	outcomes := make([]eval.Outcome, len(items))
	failures := make([]string, len(items))
	bar := newProgress(env.Stderr, len(items))
	start := time.Now()
	runPool(ctx, len(items), poolSize(eng), func(i int) {
		var res inference.Result
		var err error
		if re, ok := eng.(replayEngine); ok {
			res, err = re.read(items[i].Image)
		} else {
			res, err = extractFile(ctx, eng, items[i].Image)
		}
		if err != nil {
			failures[i] = err.Error()
		} else {
			results[i] = eval.Score(items[i].Label, &res.Receipt, loc)
			outcomes[i] = eval.NewOutcome(filepath.Base(items[i].Image), results[i], &res.Receipt, receipt.Validate(res.Receipt, loc, time.Now()))
		}
		if dump != "" {
			if err := dumpReading(dump, items[i], res, results[i]); err != nil {
				failures[i] = err.Error()
			}
		}
		bar.done()
	})
	elapsed := time.Since(start)
	bar.finish()

	rep := evalReport{Engine: engineLabel(eng), Receipts: len(items), Seconds: elapsed.Seconds(), Fields: map[string]*fieldReport{}}
	rep.PerMinute = float64(len(items)) / elapsed.Minutes()
	rep.Order = scoredFields(items, loc)
	for _, f := range rep.Order {
		rep.Fields[f] = &fieldReport{}
	}
	for i, res := range results {
		failed := res == nil
		if !failed {
			rep.Outcomes = append(rep.Outcomes, outcomes[i])
		}
		if failed {
			rep.Failures = append(rep.Failures, filepath.Base(items[i].Image)+": "+failures[i])
			// A receipt that could not be read found nothing: its labelled
			// fields count against recall.
			res = eval.Score(items[i].Label, &receipt.Receipt{}, loc)
		}
		for _, f := range rep.Order {
			fr := rep.Fields[f]
			s := res[f]
			fr.total++
			rep.Overall.total++
			if s.Want != "" {
				fr.labelled++
				rep.Overall.labelled++
			}
			if s.Got != "" {
				fr.predicted++
				rep.Overall.predicted++
			}
			if s.Correct {
				fr.correct++
				rep.Overall.correct++
			} else if !failed {
				rep.Misses = append(rep.Misses, miss{filepath.Base(items[i].Image), f, s.Want, s.Got})
			}
		}
	}
	for _, f := range rep.Fields {
		f.finish()
	}
	rep.Overall.finish()
	// A receipt that failed is not ready: it counts in the ready rate's
	// denominator.
	rep.Readiness = eval.ReadinessOf(rep.Outcomes)
	rep.Readiness.Receipts = len(items)
	rep.Readiness.ReadyRate = float64(rep.Readiness.Ready) / float64(len(items))
	for _, f := range eval.ScoredFields {
		rep.Calibration = append(rep.Calibration, eval.Calibrate(f, rep.Outcomes))
	}
	rep.Evidence = eval.EvidenceTable(rep.Outcomes)
	return rep
}

// engineLabel names an engine and, for OCR, its page reader.
func engineLabel(eng inference.Engine) string {
	switch e := eng.(type) {
	case *ocr.PPOCR:
		return eng.Name() + " (" + e.Label() + ")"
	case *ocr.Tesseract:
		return eng.Name() + " (Tesseract)"
	}
	return eng.Name()
}

// scoredFields are SROIE's four fields and the extra ones any label has:
// those Score gives for it.
func scoredFields(items []labelled, loc receipt.Locale) []string {
	labelled := map[string]bool{}
	for _, it := range items {
		for f := range eval.Score(it.Label, &receipt.Receipt{}, loc) {
			labelled[f] = true
		}
	}
	out := append([]string(nil), eval.ScoredFields...)
	for _, f := range eval.ExtraFields {
		if labelled[f] {
			out = append(out, f)
		}
	}
	return out
}

// dumpReading writes what the engine read and found on one receipt beside
// its label, so a miss can be traced to the OCR or to the rules.
func dumpReading(dir string, item labelled, res inference.Result, scores map[string]eval.FieldScore) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	for _, f := range append(eval.ScoredFields, eval.ExtraFields...) {
		s, ok := scores[f]
		if !ok {
			continue
		}
		mark := "ok  "
		if !s.Correct {
			mark = "MISS"
		}
		fmt.Fprintf(&b, "%s %-8s want %q got %q\n", mark, f, s.Want, s.Got)
	}
	b.WriteString("\n")
	if len(res.Words) == 0 {
		b.WriteString(res.Raw)
	}
	for _, l := range fields.GroupLines(res.Words) { // with each line's mean confidence
		fmt.Fprintf(&b, "%3.0f %s\n", l.Conf*100, l.Text)
	}
	stem := strings.TrimSuffix(filepath.Base(item.Image), filepath.Ext(item.Image))
	if err := writeExportBytes(filepath.Join(dir, stem+".txt"), []byte(b.String())); err != nil {
		return err
	}
	// The words themselves, for replaying the reading through the rules
	// (inference/fields/testdata holds some as golden tests).
	var words bytes.Buffer
	if err := inference.WriteWords(&words, res.Words); err != nil {
		return err
	}
	return writeExportBytes(filepath.Join(dir, stem+".lines"), words.Bytes())
}

// writeExportBytes writes a file made for the user (a dump, a label file)
// the way every export is written.
func writeExportBytes(path string, data []byte) error {
	return fsutil.WriteExport(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// missRank puts totals and dates (money and periods) first, then blanks.
func missRank(m miss) int {
	r := map[string]int{"total": 4, "date": 3, "tax": 3, "company": 2, "items": 2, "tax_id": 2, "tax_rates": 2, "address": 1}[m.Field] * 2
	if m.Got == "" {
		r++
	}
	return r
}

func printEval(w io.Writer, rep evalReport) {
	fmt.Fprintf(w, "%s engine on %d receipts: %.1f s, %.0f receipts/minute\n", rep.Engine, rep.Receipts, rep.Seconds, rep.PerMinute)
	if rep.CLISeconds > 0 {
		fmt.Fprintf(w, "raw tesseract CLI (--psm 4, %d processes): %.1f s, %.0f receipts/minute; engine time per receipt is %.2f× the CLI's\n",
			runtime.NumCPU(), rep.CLISeconds, rep.CLIPerMin, rep.Seconds/rep.CLISeconds)
	}
	fmt.Fprintf(w, "\n%-9s %7s %9s %7s %6s\n", "FIELD", "EXACT", "PRECISION", "RECALL", "F1")
	for _, f := range rep.Order {
		r := rep.Fields[f]
		fmt.Fprintf(w, "%-9s %6.1f%% %8.1f%% %6.1f%% %6.3f\n", f, r.Exact*100, r.Precision*100, r.Recall*100, r.F1)
	}
	fmt.Fprintf(w, "%-9s %6.1f%% %8.1f%% %6.1f%% %6.3f\n", "overall", rep.Overall.Exact*100, rep.Overall.Precision*100, rep.Overall.Recall*100, rep.Overall.F1)
	for _, f := range rep.Failures {
		fmt.Fprintln(w, "failed:", f)
	}
	rd := rep.Readiness
	fmt.Fprintf(w, "\nReady to confirm: %d of %d (%.1f%%); right on %d of them (total, date, and supplier and currency where labelled) (%.1f%%)\n",
		rd.Ready, rd.Receipts, rd.ReadyRate*100, rd.ReadyRight, rd.RightShare*100)
	if len(rd.WrongReady) > 0 {
		fmt.Fprintf(w, "  ready but wrong: %s\n", strings.Join(rd.WrongReady, " "))
	}
	fmt.Fprintf(w, "\n%-9s %8s %9s %6s  %s\n", "FIELD", "ANSWERED", "RIGHT", "ECE", "CONFIDENCE BAND: ANSWERS, MEAN CONFIDENCE -> ACCURACY")
	for _, c := range rep.Calibration {
		var bands []string
		for _, b := range c.Buckets {
			bands = append(bands, fmt.Sprintf("%.1f-%.1f: %d, %.2f->%.2f", b.From, b.To, b.N, b.MeanConfidence, b.Accuracy))
		}
		fmt.Fprintf(w, "%-9s %8d %8.1f%% %6.3f  %s\n", c.Field, c.Answered, c.Accuracy*100, c.ECE, strings.Join(bands, "; "))
	}
	fmt.Fprintf(w, "\nEvidence (refits inference/fields calibration):\n")
	for _, e := range rep.Evidence {
		fmt.Fprintf(w, "  %-6s %-6s %4d answers, %.3f right\n", e.Field, e.Evidence, e.N, e.Accuracy)
	}
	if len(rep.Misses) > 0 {
		fmt.Fprintln(w, "\nWorst misses:")
		for i, m := range rep.Misses {
			if i == 25 {
				fmt.Fprintf(w, "… and %d more\n", len(rep.Misses)-25)
				break
			}
			fmt.Fprintf(w, "  %s %-8s want %q got %q\n", m.Receipt, m.Field, m.Want, m.Got)
		}
	}
}

func parsePreprocess(s string) (ocr.Preprocess, error) {
	switch s {
	case "default", "":
		return ocr.DefaultPreprocess, nil
	case "none":
		return ocr.Preprocess{}, nil
	}
	var p ocr.Preprocess
	for _, part := range strings.Split(s, ",") {
		switch strings.TrimSpace(part) {
		case "contrast":
			p.Contrast = true
		case "upscale":
			p.MinWidth = 1000
		case "deskew":
			p.Deskew = true
		case "borders":
			p.Borders = true
		default:
			return p, fmt.Errorf("--preprocess: unknown step %q (contrast, upscale, deskew, borders)", part)
		}
	}
	return p, nil
}

// extractFile reads every page of a file and keeps the first page's fields,
// filling gaps from later pages.
func extractFile(ctx context.Context, eng inference.Engine, path string) (inference.Result, error) {
	lim := ingest.DefaultLimits()
	f, err := ingest.Probe(ctx, path, lim)
	if err != nil {
		var ref *ingest.Refusal
		if errors.As(err, &ref) { // callers print the file name themselves
			return inference.Result{}, errors.New(ref.Reason)
		}
		return inference.Result{}, err
	}
	var first inference.Result
	for i := 0; i < f.Pages; i++ {
		p, err := ingest.LoadPage(ctx, f, i, lim)
		if err != nil {
			var ref *ingest.Refusal
			if errors.As(err, &ref) {
				return first, errors.New(ref.Reason)
			}
			return first, err
		}
		res, err := eng.Extract(ctx, inference.Page{Image: p.Image, Index: i, Text: p.Text})
		if err != nil {
			return first, fmt.Errorf("%s page %d: %w", filepath.Base(path), i+1, err)
		}
		if i == 0 {
			first = res
			continue
		}
		inference.AddPage(&first.Receipt, res.Receipt)
		first.Words = append(first.Words, res.Words...)
		first.Raw += "\f" + res.Raw
	}
	return first, nil
}

// runPool calls fn(i) for i in [0,n) on workers goroutines.
func runPool(ctx context.Context, n, workers int, fn func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, min(workers, n)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// timeTesseractCLI runs `tesseract IMAGE - --psm 4` over the images, one
// process per core, and returns the wall time in seconds.
func timeTesseractCLI(ctx context.Context, items []labelled) float64 {
	if _, err := exec.LookPath("tesseract"); err != nil {
		return 0
	}
	start := time.Now()
	runPool(ctx, len(items), runtime.NumCPU(), func(i int) {
		cmd := exec.CommandContext(ctx, "tesseract", items[i].Image, "-", "--psm", "4")
		cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
		_ = cmd.Run() // only the time is measured; its reading is not used
	})
	return time.Since(start).Seconds()
}

// replayEngine reads a receipt from the words an earlier eval --dump wrote
// for it, through the rules alone.
type replayEngine struct {
	dir string
	loc receipt.Locale
}

func (replayEngine) Name() string { return "replay" }
func (replayEngine) Close() error { return nil }
func (e replayEngine) Extract(context.Context, inference.Page) (inference.Result, error) {
	return inference.Result{}, errors.New("the replay engine reads dumps, not pages")
}

func (e replayEngine) read(image string) (inference.Result, error) {
	stem := strings.TrimSuffix(filepath.Base(image), filepath.Ext(image))
	f, err := os.Open(filepath.Join(e.dir, stem+".lines"))
	if err != nil {
		return inference.Result{}, err
	}
	defer f.Close()
	words, err := inference.ReadWords(f)
	if err != nil {
		return inference.Result{}, err
	}
	lines := fields.GroupLines(words)
	now := time.Now()
	r := fields.ExtractFields(lines, e.loc, now)
	fields.Assess(&r, lines, e.loc, now)
	return inference.Result{Receipt: r, Words: words}, nil
}
