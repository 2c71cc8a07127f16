package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

func init() {
	register("import", "add receipt files and folders to the library", runImport)
	register("list", "list the receipts in the library", runList)
	register("show", "show one receipt with its fields, findings and history", runShow)
}

// newFlags makes a command's flag set with the shared --library flag.
func newFlags(env Env, name, args string) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	lib := fs.String("library", "", "library folder (default: $SHOEBOX_HOME, else $XDG_DATA_HOME/shoebox)")
	fs.Func("client", "the client whose library to use (shoebox clients list)", func(name string) error { return useClient(name, lib) })
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "Usage: shoebox %s [flags] %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs, lib
}

func openLibrary(env Env, dir string) (*library.Library, bool) {
	if dir == "" {
		d, err := library.DefaultDir()
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return nil, false
		}
		dir = d
	}
	l, err := library.Open(dir)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return nil, false
	}
	return l, true
}

// interruptible is cancelled by Ctrl+C or a polite kill (SIGTERM), so a
// command stops between receipts and puts back what it was reading.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func runImport(env Env, args []string) int {
	fs, libDir := newFlags(env, "import", "PATH...")
	maxPages := fs.Int("max-pdf-pages", ingest.DefaultLimits().MaxPDFPages, "refuse PDFs with more pages")
	asJSON := fs.Bool("json", false, "print results as JSON")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	lim := ingest.DefaultLimits()
	lim.MaxPDFPages = *maxPages
	ctx, stop := interruptible()
	defer stop()
	var added, dups, refused int
	progress := func(r library.ImportResult) {
		switch r.Outcome {
		case library.Added:
			added++
		case library.Duplicate:
			dups++
		case library.Refused:
			refused++
		}
		if *asJSON {
			return
		}
		switch r.Outcome {
		case library.Added:
			fmt.Fprintf(env.Stdout, "added      #%d  %s\n", r.ID, printable(r.Path))
		case library.Duplicate:
			fmt.Fprintf(env.Stdout, "duplicate  #%d  %s (already in the library)\n", r.ID, printable(r.Path))
		case library.Refused:
			fmt.Fprintf(env.Stdout, "refused         %s: %s\n", printable(r.Path), printable(r.Reason))
		}
	}
	results := l.Import(ctx, fs.Args(), lim, progress)
	if *asJSON {
		if code := printJSON(env, results); code != 0 {
			return code
		}
	} else {
		fmt.Fprintf(env.Stdout, "%d added, %d already in the library, %d refused (library: %s)\n", added, dups, refused, l.Dir())
	}
	if refused > 0 && added+dups == 0 {
		return 1
	}
	return 0
}

func runList(env Env, args []string) int {
	fs, libDir := newFlags(env, "list", "")
	status := fs.String("status", "", "only receipts in this status (new, queued, extracting, extracted, needs_review, confirmed, failed)")
	period := fs.String("period", "", "only receipts dated in 2025-07, 2025-Q3, FY2025 or 2025")
	supplier := fs.String("supplier", "", "only suppliers whose name contains this")
	category := fs.String("category", "", "only this category")
	below := fs.Float64("below-confidence", 0, "only receipts whose least sure key field (supplier, date, total) is under this confidence, e.g. 0.9")
	sortBy := fs.String("sort", "id", "order: id, or confidence (least sure first)")
	asJSON := fs.Bool("json", false, "print JSON (with each receipt's confidences and why it is not ready to confirm)")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if *sortBy != "id" && *sortBy != "confidence" {
		fmt.Fprintf(env.Stderr, "shoebox: --sort %q: use id or confidence\n", *sortBy)
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	f := library.Filter{Supplier: *supplier, Category: *category, BelowConfidence: *below, ByConfidence: *sortBy == "confidence"}
	if *status != "" {
		st, err := library.ParseStatus(*status)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 2
		}
		f.Statuses = []library.Status{st}
	}
	if *period != "" {
		p, err := receipt.ParsePeriod(*period, l.Locale().FYStartMonth)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 2
		}
		f.Period = &p
	}
	rows, err := l.List(f)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	if *asJSON {
		if rows == nil {
			rows = []library.Summary{}
		}
		return printJSON(env, rows)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tDATE\tSUPPLIER\tTOTAL\tSURE\tCATEGORY\tNOTES")
	for _, r := range rows {
		total := ""
		if r.HasTotal {
			total = receipt.Money{Amount: r.Total, Currency: r.Currency}.String()
		}
		var notes []string
		if r.Warnings > 0 {
			notes = append(notes, fmt.Sprintf("%d warning(s)", r.Warnings))
		}
		switch {
		case r.Status == library.StatusDuplicate:
			notes = append(notes, fmt.Sprintf("copy of #%d, left out of exports", r.DuplicateOf))
		case r.DuplicateOf != 0:
			notes = append(notes, fmt.Sprintf("duplicate of #%d?", r.DuplicateOf))
		}
		if r.FailReason != "" {
			notes = append(notes, r.FailReason)
		}
		if len(r.Reasons) > 0 {
			notes = append(notes, r.Reasons[0])
		}
		sure := ""
		if r.Confidences != nil {
			sure = fmt.Sprintf("%.0f%%", r.Confidence*100)
		}
		supplier := r.Supplier
		if supplier == "" {
			supplier = "(" + r.OriginalName + ")"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Status, r.Date, printable(supplier), total, sure, printable(r.Category), printable(strings.Join(notes, "; ")))
	}
	tw.Flush()
	counts, _ := l.Counts()
	var parts []string
	for _, s := range library.Statuses {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	fmt.Fprintf(env.Stdout, "%d shown; library: %s\n", len(rows), strings.Join(parts, ", "))
	return 0
}

func runShow(env Env, args []string) int {
	fs, libDir := newFlags(env, "show", "ID")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(fs.Arg(0), "#"), 10, 64)
	if err != nil {
		fmt.Fprintf(env.Stderr, "shoebox: %q is not a receipt ID\n", fs.Arg(0))
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	rec, err := l.Get(id)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	hist, _ := l.History(id)
	if *asJSON {
		return printJSON(env, struct {
			library.Record
			Original string           `json:"original"`
			History  []library.Change `json:"history"`
		}{rec, l.OriginalPath(rec), hist})
	}
	w := env.Stdout
	fmt.Fprintf(w, "Receipt #%d  %s  (%s, %d page(s), %s)\n", rec.ID, rec.Status, printable(rec.OriginalName), rec.Pages, rec.Kind)
	fmt.Fprintf(w, "Original: %s\n", l.OriginalPath(rec))
	if rec.FailReason != "" {
		fmt.Fprintf(w, "Failed: %s\n", rec.FailReason)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, f := range receipt.Fields {
		v, _ := receipt.Get(&rec.Receipt, f.Path)
		set, conf, src, _, _ := receipt.Meta(&rec.Receipt, f.Path)
		if !set {
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s %.0f%%\n", f.Label, printable(v), src, conf*100)
	}
	tw.Flush()
	for i, li := range rec.Receipt.LineItems {
		fmt.Fprintf(w, "  line %d: %s  %s × %s = %s\n", i+1, li.Description.Value, li.Quantity.Value, li.UnitPrice.Value, li.LineTotal.Value)
	}
	for _, f := range rec.Findings {
		// A finding about the whole receipt (a damaged e-invoice) names no
		// field: no empty "[]" after it.
		fields := ""
		if len(f.Fields) > 0 {
			fields = " [" + strings.Join(f.Fields, ", ") + "]"
		}
		fmt.Fprintf(w, "  %s: %s%s\n", f.Severity, f.Message, fields)
	}
	fmt.Fprintln(w, "History:")
	for _, h := range hist {
		what := h.New
		if h.Kind != "status" {
			what = fmt.Sprintf("%s: %q → %q", h.Field, h.Old, h.New)
		}
		fmt.Fprintf(w, "  %s  %-6s %s %s\n", h.At.Local().Format("2006-01-02 15:04:05"), h.Who, h.Kind, what)
	}
	return 0
}
