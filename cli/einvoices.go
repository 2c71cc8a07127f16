package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/einvoice"
	"github.com/shoebox-app/shoebox/inference/ocr"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/receipt"
)

func init() {
	register("einvoices", "check e-invoices (Factur-X, ZUGFeRD, XRechnung, UBL) and score reading their printed pages", runEInvoices)
}

// readEInvoice is the e-invoice a file carries, nil when it is a PDF
// without one; an XML file that is no readable invoice is an error.
func readEInvoice(ctx context.Context, path string) (*einvoice.Invoice, error) {
	f, err := ingest.Probe(ctx, path, ingest.DefaultLimits())
	if err != nil {
		var ref *ingest.Refusal
		if errors.As(err, &ref) {
			return nil, errors.New(ref.Reason)
		}
		return nil, err
	}
	inv, err := ingest.EInvoice(ctx, f)
	if errors.Is(err, einvoice.ErrNoInvoiceInPDF) {
		return nil, nil
	}
	return inv, err
}

// einvoiceFields are the fields the printed-page reading is scored on:
// who sells and who buys, the number, the issue and due dates, the net,
// tax and gross sums, the currency, the seller's tax ID, and the kind
// (an invoice, or a credit note with a negative total), and the lines (as
// many as the XML's, with the same amounts; headings and notes are none).
var einvoiceFields = []string{"supplier", "buyer", "number", "date", "due", "net", "tax", "total", "currency", "tax_id", "kind", "lines"}

type einvoiceFile struct {
	Path    string          `json:"path"`
	Folder  string          `json:"folder"`
	Syntax  string          `json:"syntax,omitempty"`
	Error   string          `json:"error,omitempty"`
	Damaged bool            `json:"damaged,omitempty"`      // a PDF's e-invoice that cannot be read (Error says why)
	Rules   []string        `json:"rules_broken,omitempty"` // EN 16931 rules the invoice's own XML breaks
	Printed map[string]bool `json:"printed,omitempty"`      // field -> read right from the page
	// NotPrinted are fields whose XML value the page does not print at
	// all (the corpus has PDFs whose page shows another invoice than
	// their XML): they are not scored.
	NotPrinted []string `json:"not_printed,omitempty"`
	// Ready says the reading of the print was ready to confirm (its
	// evidence agreed); Unready why not.
	Ready    bool              `json:"ready,omitempty"`
	Unready  []string          `json:"unready,omitempty"`
	Want     map[string]string `json:"want,omitempty"`
	Got      map[string]string `json:"got,omitempty"`
	invoice  *einvoice.Invoice
	pdf      bool
	noInvoic bool
}

func runEInvoices(env Env, args []string) int {
	fs, _ := newFlags(env, "einvoices", "FOLDER...")
	printed := fs.Bool("printed", false, "also read each PDF's printed page with its XML ignored (OCR engine) and score it against the XML")
	asJSON := fs.Bool("json", false, "print JSON")
	misses := fs.Bool("misses", false, "with --printed: list every field read wrong")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	var files []einvoiceFile
	for _, root := range fs.Args() {
		paths, errs := ingest.Walk([]string{root})
		for _, e := range errs {
			fmt.Fprintln(env.Stderr, "shoebox:", e)
		}
		for _, p := range paths {
			ext := strings.ToLower(filepath.Ext(p))
			if ext != ".pdf" && ext != ".xml" {
				continue
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				rel = p
			}
			files = append(files, einvoiceFile{Path: p, Folder: filepath.Dir(rel), pdf: ext == ".pdf"})
		}
	}
	ctx, stop := interruptible()
	defer stop()
	for i := range files {
		f := &files[i]
		inv, err := readEInvoice(ctx, f.Path)
		switch {
		case err != nil:
			f.Error, f.Damaged = err.Error(), errors.Is(err, einvoice.ErrDamaged)
		case inv == nil:
			f.noInvoic = true
		default:
			f.invoice, f.Syntax = inv, inv.Syntax
			for _, fd := range inv.Check() {
				f.Rules = append(f.Rules, fd.Message)
			}
		}
	}
	if *printed {
		loc := receipt.DefaultLocale(receipt.CountryEU)
		eng, err := ocr.NewTesseract(ocr.DefaultOptions(loc))
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox: the OCR engine could not start:", err)
			return 1
		}
		defer eng.Close()
		var todo []int
		for i, f := range files {
			if f.pdf && f.invoice != nil {
				todo = append(todo, i)
			}
		}
		bar := newProgress(env.Stderr, len(todo))
		runPool(ctx, len(todo), poolSize(eng), func(k int) {
			f := &files[todo[k]]
			res, err := extractFile(ctx, eng, f.Path) // the pages only: the XML is ignored
			if err != nil {
				f.Error = "printed page: " + err.Error()
			} else {
				f.Want, f.Got, f.Printed = scorePrinted(f.invoice, &res.Receipt)
				f.Unready = receipt.Unready(res.Receipt, receipt.Validate(res.Receipt, loc, time.Now()))
				f.Ready = len(f.Unready) == 0
				for _, k := range einvoiceFields {
					if !printedOnPage(k, f.Want[k], res.Raw) {
						delete(f.Printed, k)
						f.NotPrinted = append(f.NotPrinted, k)
					}
				}
			}
			bar.done()
		})
		bar.finish()
	}
	if *asJSON {
		return printJSON(env, files)
	}
	printEInvoices(env.Stdout, files, *printed, *misses)
	return 0
}

// scorePrinted compares a page reading with what the invoice's XML says.
func scorePrinted(inv *einvoice.Invoice, got *receipt.Receipt) (want, read map[string]string, ok map[string]bool) {
	truth := inv.Receipt()
	want, read, ok = map[string]string{}, map[string]string{}, map[string]bool{}
	put := func(field, w, g string, right bool) {
		want[field], read[field], ok[field] = w, g, right
	}
	sameName := func(w, g string) bool { return receipt.FoldName(w) != "" && receipt.FoldName(w) == receipt.FoldName(g) }
	put("supplier", truth.SupplierName.Value, got.SupplierName.Value, sameName(truth.SupplierName.Value, got.SupplierName.Value))
	if truth.PayerName.Set {
		put("buyer", truth.PayerName.Value, got.PayerName.Value, sameName(truth.PayerName.Value, got.PayerName.Value))
	}
	put("number", truth.DocumentNumber.Value, got.DocumentNumber.Value,
		receipt.Fold(truth.DocumentNumber.Value) == receipt.Fold(got.DocumentNumber.Value))
	d := func(f receipt.Field[time.Time]) string {
		if !f.Set {
			return ""
		}
		return f.Value.Format(time.DateOnly)
	}
	put("date", d(truth.Date), d(got.Date), truth.Date.Set && got.Date.Set && truth.Date.Value.Equal(got.Date.Value))
	if truth.DueDate.Set {
		put("due", d(truth.DueDate), d(got.DueDate), got.DueDate.Set && truth.DueDate.Value.Equal(got.DueDate.Value))
	}
	// Amounts are scored by size here; the kind says whether a credit
	// note's were made negative.
	sameAmount := func(w, g receipt.Amount) bool { return w.Set && g.Set && g.Value.Abs().Equal(w.Value.Abs()) }
	if truth.Subtotal.Set && truth.TotalTax.Set {
		put("net", truth.Subtotal.Value.String(), amountText(got.Subtotal), sameAmount(truth.Subtotal, got.Subtotal))
		put("tax", truth.TotalTax.Value.String(), amountText(got.TotalTax), sameAmount(truth.TotalTax, got.TotalTax))
	}
	put("total", truth.Total.Value.String(), amountText(got.Total), sameAmount(truth.Total, got.Total))
	credit := truth.DocType.Value == receipt.DocCreditNote && truth.Total.Value.IsNegative()
	kind := func(r *receipt.Receipt) string {
		if r.DocType.Set && r.DocType.Value == receipt.DocCreditNote && r.Total.Value.IsNegative() {
			return "credit note"
		}
		return "invoice"
	}
	if truth.Total.Set {
		put("kind", kind(&truth), kind(got), credit == (kind(got) == "credit note"))
	}
	if n := len(truth.LineItems); n > 0 {
		same := len(got.LineItems) == n
		for i := 0; same && i < n; i++ {
			same = got.LineItems[i].LineTotal.Value.Abs().Equal(truth.LineItems[i].LineTotal.Value.Abs())
		}
		put("lines", fmt.Sprint(n), fmt.Sprint(len(got.LineItems)), same)
	}
	put("currency", truth.Currency.Value, got.Currency.Value, truth.Currency.Value == got.Currency.Value)
	tid := func(f receipt.Field[receipt.TaxID]) string { return receipt.NormalizeTaxID(f.Value.Value) }
	put("tax_id", tid(truth.SupplierTaxID), tid(got.SupplierTaxID), tid(truth.SupplierTaxID) != "" && tid(truth.SupplierTaxID) == tid(got.SupplierTaxID))
	return want, read, ok
}

// printedOnPage says whether the XML's value for field is on the page at
// all: the invoice number's letters and digits, the total in any of the
// usual spellings, the date's year. A page that lacks it cannot be read
// for it. Other fields always count.
func printedOnPage(field, want, page string) bool {
	flat := receipt.Fold(page)
	switch field {
	case "number":
		return want == "" || strings.Contains(flat, receipt.Fold(want))
	case "supplier", "buyer":
		return want == "" || strings.Contains(flat, receipt.FoldName(want))
	case "date", "due":
		d, err := time.Parse(time.DateOnly, want)
		if err != nil {
			return true
		}
		return dateOnPage(d, page)
	case "total", "net", "tax":
		d, err := decimal.NewFromString(want)
		if err != nil {
			return true
		}
		abs := d.Abs()
		spaced := strings.ReplaceAll(page, " ", "")
		for _, form := range []string{
			abs.StringFixed(2), strings.Replace(abs.StringFixed(2), ".", ",", 1),
			moneyGrouped(abs, ",", "."), moneyGrouped(abs, ".", ","),
		} {
			if containsNumber(spaced, form) {
				return true
			}
		}
		return false
	}
	return true
}

// monthNames are the months as invoices in English, German, French,
// Dutch, Italian and Spanish spell them, by the first letters that tell
// them apart.
var monthNames = [12][]string{
	{"jan", "janv", "gen", "ene"},
	{"feb", "fév", "fev"},
	{"mar", "mär", "maa"},
	{"apr", "avr", "abr"},
	{"may", "mai", "mei", "mag"},
	{"jun", "juin", "giu"},
	{"jul", "juil", "lug"},
	{"aug", "aoû", "aou", "ago"},
	{"sep", "set"},
	{"oct", "okt", "ott"},
	{"nov"},
	{"dec", "dez", "déc", "dic"},
}

// dateOnPage says whether the page prints the date in a usual form:
// day and month as numbers in either order with its year, the ISO form,
// or the month's name with the day and year.
func dateOnPage(d time.Time, page string) bool {
	y := d.Format("2006")
	if !strings.Contains(page, y) && !strings.Contains(page, d.Format("06")) {
		return false
	}
	for _, layout := range []string{"02.01.", "2.1.", "02/01/", "01/02/", "2/1/", "1/2/", "2006-01-02", "20060102", "02-01-", "01-02-"} {
		if strings.Contains(page, d.Format(layout)) {
			return true
		}
	}
	low := strings.ToLower(page)
	for _, name := range monthNames[d.Month()-1] {
		if strings.Contains(low, name) && strings.Contains(page, y) {
			return true
		}
	}
	return false
}

// containsNumber finds a number in text that is not part of a longer one
// (571,04 is not in 1.571,04).
func containsNumber(text, num string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], num)
		if i < 0 {
			return false
		}
		i += from
		before := i == 0 || !strings.ContainsAny(text[i-1:i], "0123456789.,")
		end := i + len(num)
		after := end == len(text) || !strings.ContainsAny(text[end:end+1], "0123456789")
		if before && after {
			return true
		}
		from = i + 1
	}
}

// moneyGrouped writes an amount with thousands grouped: 1.589,80 or 1,589.80.
func moneyGrouped(d decimal.Decimal, group, point string) string {
	whole, cents, _ := strings.Cut(d.StringFixed(2), ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(group)
		}
		b.WriteRune(r)
	}
	return b.String() + point + cents
}

func amountText(a receipt.Amount) string {
	if !a.Set {
		return ""
	}
	return a.Value.String()
}

func printEInvoices(w io.Writer, files []einvoiceFile, printed, misses bool) {
	type row struct {
		files, invoices, reconciled, ruleBroken, failed, none int
		scored                                                int
		right, counted, absent                                map[string]int
	}
	rows := map[string]*row{}
	var folders []string
	for _, f := range files {
		r := rows[f.Folder]
		if r == nil {
			r = &row{right: map[string]int{}, counted: map[string]int{}, absent: map[string]int{}}
			rows[f.Folder] = r
			folders = append(folders, f.Folder)
		}
		r.files++
		switch {
		case f.invoice != nil:
			r.invoices++
			if len(f.Rules) == 0 {
				r.reconciled++
			} else {
				r.ruleBroken++
			}
		case f.noInvoic:
			r.none++
		default:
			r.failed++
		}
		if f.Printed != nil {
			r.scored++
			for k, v := range f.Printed {
				r.counted[k]++
				if v {
					r.right[k]++
				}
			}
			for _, k := range f.NotPrinted {
				r.absent[k]++
			}
		}
	}
	sort.Strings(folders)
	total := &row{right: map[string]int{}, counted: map[string]int{}, absent: map[string]int{}}
	fmt.Fprintf(w, "%-52s %5s %8s %10s %10s %7s %8s\n", "FOLDER", "FILES", "INVOICES", "RECONCILED", "RULE BROKE", "NO XML", "UNREAD")
	for _, name := range folders {
		r := rows[name]
		fmt.Fprintf(w, "%-52s %5d %8d %10d %10d %7d %8d\n", name, r.files, r.invoices, r.reconciled, r.ruleBroken, r.none, r.failed)
		total.files += r.files
		total.invoices += r.invoices
		total.reconciled += r.reconciled
		total.ruleBroken += r.ruleBroken
		total.none += r.none
		total.failed += r.failed
		total.scored += r.scored
		for k, v := range r.right {
			total.right[k] += v
		}
		for k, v := range r.counted {
			total.counted[k] += v
		}
		for k, v := range r.absent {
			total.absent[k] += v
		}
	}
	fmt.Fprintf(w, "%-52s %5d %8d %10d %10d %7d %8d\n", "all", total.files, total.invoices, total.reconciled, total.ruleBroken, total.none, total.failed)
	var notes []string
	for _, f := range files {
		rel := filepath.Join(f.Folder, filepath.Base(f.Path))
		for _, r := range f.Rules {
			notes = append(notes, fmt.Sprintf("  %s: %s", rel, r))
		}
		switch {
		case f.Damaged:
			notes = append(notes, fmt.Sprintf("  %s: carries a damaged e-invoice: %s", rel, strings.TrimPrefix(f.Error, einvoice.ErrDamaged.Error()+": ")))
		case f.Error != "":
			notes = append(notes, fmt.Sprintf("  %s: not read: %s", rel, f.Error))
		}
		if f.noInvoic {
			notes = append(notes, fmt.Sprintf("  %s: carries no e-invoice", rel))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintln(w, "\nNot reconciled or not read:")
		for _, n := range notes {
			fmt.Fprintln(w, n)
		}
	}
	if !printed {
		return
	}
	fmt.Fprintf(w, "\nPrinted pages read with the XML ignored, scored against the XML:\n%-52s %4s", "FOLDER", "PDFS")
	for _, f := range einvoiceFields {
		fmt.Fprintf(w, " %9s", f)
	}
	fmt.Fprintln(w)
	line := func(name string, r *row) {
		fmt.Fprintf(w, "%-52s %4d", name, r.scored)
		for _, f := range einvoiceFields {
			if r.counted[f] == 0 {
				fmt.Fprintf(w, " %9s", "-")
				continue
			}
			fmt.Fprintf(w, " %8.1f%%", 100*float64(r.right[f])/float64(r.counted[f]))
		}
		fmt.Fprintln(w)
	}
	for _, name := range folders {
		if rows[name].scored > 0 {
			line(name, rows[name])
		}
	}
	line("all", total)
	if len(total.absent) > 0 {
		// The same, with a page that prints another value than its XML
		// counted as a miss: the ceiling no reading can pass.
		fmt.Fprintf(w, "%-52s %4d", "all, unprinted values counted as misses", total.scored)
		for _, f := range einvoiceFields {
			if total.counted[f]+total.absent[f] == 0 {
				fmt.Fprintf(w, " %9s", "-")
				continue
			}
			fmt.Fprintf(w, " %8.1f%%", 100*float64(total.right[f])/float64(total.counted[f]+total.absent[f]))
		}
		fmt.Fprintln(w)
	}
	ready, readyRight := 0, 0
	for _, f := range files {
		if !f.Ready {
			continue
		}
		ready++
		right := true
		for _, k := range []string{"supplier", "number", "date", "total", "currency", "kind"} {
			if ok, scored := f.Printed[k]; scored && !ok {
				right = false
			}
		}
		if right {
			readyRight++
		}
	}
	fmt.Fprintf(w, "\nReady to confirm: %d of %d; right on %d of them (supplier, number, date, total, currency and kind where scored)\n", ready, total.scored, readyRight)
	var absent []string
	for _, f := range files {
		if len(f.NotPrinted) > 0 {
			absent = append(absent, fmt.Sprintf("  %s: %s", filepath.Base(f.Path), strings.Join(f.NotPrinted, ", ")))
		}
	}
	if len(absent) > 0 {
		fmt.Fprintf(w, "\nNot scored: the XML's value is not on the printed page at all (%d PDFs):\n%s\n", len(absent), strings.Join(absent, "\n"))
	}
	if misses {
		fmt.Fprintln(w, "\nMisses:")
		for _, f := range files {
			for _, k := range einvoiceFields {
				if right, scored := f.Printed[k]; scored && !right {
					fmt.Fprintf(w, "  %s %-8s want %q got %q\n", filepath.Base(f.Path), k, f.Want[k], f.Got[k])
				}
			}
		}
	}
}
