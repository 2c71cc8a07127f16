package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/internal/synth"
)

// runSynthInvoices writes printed invoices in one language as PDFs whose
// truth rides along as Factur-X XML, so `shoebox einvoices --printed`
// scores reading their print.
func runSynthInvoices(env Env, out, lang string, n int, seed int64, scan bool) int {
	lang = strings.ToLower(lang)
	if !slices.Contains(synth.InvoiceLangs, lang) {
		fmt.Fprintf(env.Stderr, "shoebox: no invoices in language %q: choose one of %s\n", lang, strings.Join(synth.InvoiceLangs, ", "))
		return 2
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	credit, pages := 0, 0
	for i := range n {
		s := seed*100000 + int64(i)
		inv, err := synth.GenerateInvoice(s, lang)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 2
		}
		pdf := inv.PDF(s)
		if scan {
			if pdf, err = synth.ScanPDF(pdf, 200); err != nil {
				fmt.Fprintln(env.Stderr, "shoebox:", err)
				return 1
			}
		}
		name := filepath.Join(out, fmt.Sprintf("%s-%03d.pdf", lang, i))
		if err := fsutil.WriteAtomic(name, func(w io.Writer) error { _, err := w.Write(pdf); return err }); err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		if inv.Credit {
			credit++
		}
		if len(inv.Lines) > synth.InvoiceRowsPerPage {
			pages++
		}
	}
	kind := "printed"
	if scan {
		kind = "scanned"
	}
	fmt.Fprintf(env.Stdout, "wrote %d %s invoices in %s to %s (%d credit notes, %d over more than one page)\ntry: shoebox einvoices --printed %s\n", n, kind, lang, out, credit, pages, out)
	return 0
}
