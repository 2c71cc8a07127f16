package cli

import (
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shoebox-app/shoebox/clients"
	"github.com/shoebox-app/shoebox/export"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

func init() {
	register("export", "write receipts to an Excel workbook, CSV, or Xero / MYOB / QuickBooks import files", runExport)
}

func runExport(env Env, args []string) int {
	fs, libDir := newFlags(env, "export", "")
	out := fs.String("o", "", "output file: FILE.xlsx, or FILE.csv (line items go to FILE.lines.csv)")
	period := fs.String("period", "", "only receipts dated in 2025-07, 2025-Q3, FY2025 or 2025")
	all := fs.Bool("all", false, "include receipts not yet confirmed (the workbook's Status column says which)")
	split := fs.String("split", "", "one file per month, quarter or fy: FILE-2025-07.xlsx …")
	by := fs.String("summary", "quarter", "tax summary by month, quarter or fy")
	bom := fs.Bool("bom", false, "start CSV files with a byte order mark (Excel on Windows needs it for accents)")
	format := fs.String("format", "", "xlsx, csv, xero, myob-purchases, myob-spend, qbo-bank or qbo-bills (default: by the file's extension)")
	attachments := fs.Bool("attachments", false, "with an accounting format, also zip the originals, each named by its reference")
	itemised := fs.Bool("itemised", false, "with an accounting format, one line per line item instead of one per tax rate")
	rateText := fs.String("rate", "", "with MYOB or qbo-bank, convert other currencies: MYR=0.33,USD=1.52 (the client's currency for one unit)")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if f := strings.ToLower(*format); f != "" && f != "xlsx" && f != "csv" {
		p, err := export.ParsePreset(f)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 2
		}
		rates, err := export.ParseRates(*rateText)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 2
		}
		return runPresetExport(env, *libDir, p, *out, clients.PresetRequest{
			Period: *period, IncludeUnconfirmed: *all, Itemised: *itemised,
			Attachments: *attachments, Rates: rates,
		})
	}
	ext := strings.ToLower(filepath.Ext(*out))
	if ext != ".xlsx" && ext != ".csv" {
		fmt.Fprintf(env.Stderr, "shoebox: %s: the output must end in .xlsx or .csv\n", *out)
		return 2
	}
	gran, ok := parseGranularity(*by)
	if !ok {
		fmt.Fprintf(env.Stderr, "shoebox: --summary %q: use month, quarter or fy\n", *by)
		return 2
	}
	var splitBy receipt.Granularity
	if *split != "" {
		if splitBy, ok = parseGranularity(*split); !ok {
			fmt.Fprintf(env.Stderr, "shoebox: --split %q: use month, quarter or fy\n", *split)
			return 2
		}
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	loc := l.Locale()
	f := clients.ExportFilter(library.Filter{}, *all)
	if *period != "" {
		p, err := receipt.ParsePeriod(*period, loc.FYStartMonth)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 2
		}
		f.Period = &p
	}
	opt := export.Options{Locale: loc, SummaryBy: gran, BOM: *bom}
	// The client's books name each receipt's account and tax codes and
	// group the tax summary by tax code.
	books, err := clients.Books(l)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	opt.Books = &books

	// Group into files: one, or one per period.
	targets := map[string]*receipt.Period{*out: f.Period}
	if splitBy != "" {
		targets = map[string]*receipt.Period{}
		for rec, err := range l.Records(f) {
			if err != nil {
				fmt.Fprintln(env.Stderr, "shoebox:", err)
				return 1
			}
			if !rec.Receipt.Date.Set || rec.Status == library.StatusDuplicate {
				continue
			}
			p := receipt.PeriodOf(rec.Receipt.Date.Value, splitBy, loc.FYStartMonth)
			name := strings.TrimSuffix(*out, filepath.Ext(*out)) + "-" + p.Label + filepath.Ext(*out)
			if _, seen := targets[name]; !seen {
				pc := p
				if f.Period != nil { // both the split period and the --period filter apply
					pc.Start, pc.End = later(p.Start, f.Period.Start), earlier(p.End, f.Period.End)
				}
				targets[name] = &pc
			}
		}
	}
	if len(targets) == 0 {
		fmt.Fprintln(env.Stderr, "shoebox: no dated receipts to split")
		return 1
	}
	for name, p := range targets {
		ff := f
		ff.Period = p
		rows, iterErr := clients.Rows(l, ff)
		st, err := write(name, rows, opt)
		if err == nil {
			err = iterErr()
		}
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		fmt.Fprintf(env.Stdout, "wrote %s: %d receipts, %d line items%s\n", name, st.Receipts, st.Lines, totalsText(st))
		if dups := st.DuplicatesText(); dups != "" {
			fmt.Fprintf(env.Stdout, "  %s: each is a copy of another receipt\n", dups)
		}
	}
	return 0
}

// write picks the writer by extension: the one writer `export` and `extract` share.
func write(path string, rows iter.Seq[export.Row], opt export.Options) (export.Stats, error) {
	if strings.ToLower(filepath.Ext(path)) == ".csv" {
		return export.WriteCSV(path, rows, opt)
	}
	return export.WriteXLSX(path, rows, opt)
}

func totalsText(st export.Stats) string {
	var parts []string
	for cur, t := range st.Totals {
		parts = append(parts, receipt.Money{Amount: t, Currency: cur}.String())
	}
	if len(parts) == 0 {
		return ""
	}
	return "; totals " + strings.Join(parts, ", ")
}

func parseGranularity(s string) (receipt.Granularity, bool) {
	switch strings.ToLower(s) {
	case "month":
		return receipt.ByMonth, true
	case "quarter":
		return receipt.ByQuarter, true
	case "fy", "year":
		return receipt.ByFY, true
	}
	return "", false
}

// runPresetExport writes an accounting program's import file. Receipts not
// confirmed are left out unless req includes them, and so are those the
// program cannot take; each is named with the reason, and the file holds
// the rest. When the check finds what the program would reject, nothing is
// written and each problem says where to fix it.
func runPresetExport(env Env, libDir string, p export.Preset, out string, req clients.PresetRequest) int {
	l, ok := openLibrary(env, libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	st, err := clients.ExportPresetWith(l, p, out, req)
	var ce *export.CheckError
	var none *export.NothingToExportError
	switch {
	case errors.As(err, &none):
		fmt.Fprintf(env.Stderr, "shoebox: %v\n", err)
		printLeftOut(env, export.Stats{Unconfirmed: none.Unconfirmed, LeftOut: none.LeftOut})
		return 1
	case errors.As(err, &ce):
		fmt.Fprintf(env.Stderr, "shoebox: %v:\n", err)
		for _, pr := range ce.Problems {
			hint := ""
			if pr.ReceiptID != 0 {
				hint = fmt.Sprintf("  → shoebox show %d", pr.ReceiptID)
				if strings.Contains(pr.Field, "account") || strings.Contains(pr.Field, "tax_code") {
					hint = fmt.Sprintf("  → shoebox books code %d%s --account … --tax-code …", pr.ReceiptID, lineFlag(pr.Field))
				}
			}
			fmt.Fprintf(env.Stderr, "  %s%s\n", pr, hint)
		}
		printLeftOut(env, st)
		return 1
	case err != nil:
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	fmt.Fprintf(env.Stdout, "wrote %s (%s): %d receipts, %d lines%s\n", out, p.Title(), st.Receipts, st.Lines, totalsText(st))
	printLeftOut(env, st)
	if len(st.NewContacts) > 0 {
		fmt.Fprintf(env.Stdout, "new contacts %s will add (not in the client's contact list): %s\n", p.Title(), strings.Join(st.NewContacts, "; "))
	}
	if p == export.PresetXero {
		fmt.Fprintln(env.Stdout, export.XeroAmountsNote)
	}
	if req.Attachments {
		fmt.Fprintf(env.Stdout, "originals in %s, each named by its reference (SB-ID)\n", export.AttachmentsPath(out))
	}
	return 0
}

// printLeftOut names the receipts an import file left out, and why.
func printLeftOut(env Env, st export.Stats) {
	if len(st.LeftOut) == 0 {
		return
	}
	fmt.Fprintf(env.Stdout, "left out %d receipt(s):\n", len(st.LeftOut))
	for _, pr := range st.LeftOut {
		fmt.Fprintf(env.Stdout, "  %s\n", pr)
	}
	if st.Unconfirmed > 0 {
		fmt.Fprintf(env.Stdout, "%d not confirmed yet: confirm them, or add --all to include them\n", st.Unconfirmed)
	}
	if n := len(st.Duplicates); n > 0 {
		fmt.Fprintf(env.Stdout, "%d marked as duplicates: each is a copy of another receipt\n", n)
	}
	var rates []string
	for _, pr := range st.LeftOut {
		if cur, _, ok := strings.Cut(strings.TrimPrefix(pr.Message, "in "), ":"); ok && pr.Field == "currency" && len(cur) == 3 && !slices.Contains(rates, cur) {
			rates = append(rates, cur)
		}
	}
	if len(rates) > 0 {
		fmt.Fprintf(env.Stdout, "to convert them, give the exchange rates: --rate %s=… (units of the client's currency for one)\n", strings.Join(rates, "=…,"))
	}
}

// lineFlag turns "line_items[2].account" into " --line 3".
func lineFlag(field string) string {
	var i int
	if n, _ := fmt.Sscanf(field, "line_items[%d]", &i); n == 1 {
		return fmt.Sprintf(" --line %d", i+1)
	}
	return ""
}
