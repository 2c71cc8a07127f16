package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// synth --invoices writes PDFs that einvoices --printed reads through the
// real page path (poppler's text layer, the OCR engine's rules) and scores
// against the XML each carries: a German credit note over two pages reads
// negative, with its seller, buyer, number, dates, sums and the rows of
// both pages right.
func TestSynthInvoicesScoredFromTheirPrint(t *testing.T) {
	dir := t.TempDir()
	// Seed 38 writes a credit note of two pages among its three.
	code, out, errb := run(t, "synth", "--invoices", "--lang", "de", "--out", dir, "-n", "3", "--seed", "38")
	if code != 0 || !strings.Contains(out, "wrote 3 printed invoices in de") {
		t.Fatalf("synth: exit %d: %s%s", code, out, errb)
	}
	if code, _, errb := run(t, "synth", "--invoices", "--lang", "xx", "--out", dir, "-n", "1"); code != 2 || !strings.Contains(errb, "choose one of en, de, fr, nl, it, es") {
		t.Errorf("an unknown language: exit %d, %s", code, errb)
	}
	code, out, errb = run(t, "einvoices", "--printed", "--json", dir)
	if code != 0 {
		t.Fatalf("einvoices: exit %d: %s", code, errb)
	}
	var files []einvoiceFile
	if err := json.Unmarshal([]byte(out), &files); err != nil || len(files) != 3 {
		t.Fatalf("einvoices --json: %v\n%s", err, out)
	}
	kinds := map[string]bool{}
	for _, f := range files {
		kinds[f.Want["kind"]] = true
		for _, k := range []string{"supplier", "buyer", "number", "date", "due", "net", "total", "currency", "tax_id", "kind", "lines"} {
			if right, scored := f.Printed[k]; !scored || !right {
				t.Errorf("%s %s: want %q got %q (scored %v)", f.Path, k, f.Want[k], f.Got[k], scored)
			}
		}
	}
	if !kinds["credit note"] {
		t.Errorf("no credit note among %v", kinds)
	}
}
