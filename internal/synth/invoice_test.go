package synth

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/einvoice"
)

// Each language's invoice is a PDF whose attached Factur-X XML states the
// invoice it prints: e-invoice reading finds number, parties, currency and
// sums in it, and the print (through poppler, as ingest reads a PDF) shows
// the same number and the gross total as the language writes it.
func TestInvoicePDFCarriesItsTruth(t *testing.T) {
	for _, lang := range InvoiceLangs {
		for seed := int64(1); seed <= 12; seed++ {
			inv, err := GenerateInvoice(seed, lang)
			if err != nil {
				t.Fatal(err)
			}
			pdf := inv.PDF(seed)
			x, name, err := einvoice.FromPDF(pdf)
			if err != nil || name != "factur-x.xml" {
				t.Fatalf("%s/%d: attachment %q: %v", lang, seed, name, err)
			}
			got, err := einvoice.Parse(x)
			if err != nil {
				t.Fatalf("%s/%d: %v", lang, seed, err)
			}
			_, _, gross := inv.Totals()
			if got.Number != inv.Number || got.Seller.Name != inv.Seller.Name || got.Buyer.Name != inv.Buyer.Name ||
				got.Currency != inv.Currency || got.CreditNote != inv.Credit || got.GrandTotal.String() != centsDot(gross) {
				t.Errorf("%s/%d: XML says %+v", lang, seed, got)
			}
			if fs := got.Check(); len(fs) > 0 {
				t.Errorf("%s/%d: the XML breaks EN 16931: %v", lang, seed, fs)
			}
			if seed == 1 {
				checkPrint(t, pdf, inv.Number, inv.money(gross))
			}
		}
	}
}

func checkPrint(t *testing.T, pdf []byte, want ...string) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Log("poppler-utils missing: print not checked")
		return
	}
	path := filepath.Join(t.TempDir(), "invoice.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", path, "-").CombinedOutput()
	if err != nil || bytes.Contains(out, []byte("Error")) {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	for _, w := range want {
		if !strings.Contains(string(out), w) {
			t.Errorf("the print lacks %q:\n%s", w, out)
		}
	}
}

// Long tables run over pages that carry their sum forward; credit notes
// and foreign currencies come up.
func TestInvoicesVary(t *testing.T) {
	multi, credit, foreign := 0, 0, 0
	for seed := int64(0); seed < 60; seed++ {
		inv, _ := GenerateInvoice(seed, "de")
		if len(inv.Lines) > InvoiceRowsPerPage {
			multi++
		}
		if inv.Credit {
			credit++
		}
		if inv.Currency != "EUR" {
			foreign++
		}
	}
	if multi == 0 || credit == 0 || foreign == 0 {
		t.Errorf("%d multi-page, %d credit notes, %d foreign currencies in 60", multi, credit, foreign)
	}
}
