package cli

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// show lists a finding that names no field (a damaged e-invoice: it is
// about the whole receipt) without an empty "[]" after it; a finding that
// names fields keeps them in brackets.
func TestShowPrintsNoEmptyBracketsForAFindingWithoutFields(t *testing.T) {
	src := "../../shared/data/sroie-dev/006.jpg"
	if _, err := os.Stat(src); err != nil {
		t.Skip("shared receipts not present")
	}
	lib := t.TempDir()
	if code, out, errOut := run(t, "import", "--library", lib, src); code != 0 {
		t.Fatalf("import: %d %s %s", code, out, errOut)
	}
	l, err := library.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	var r receipt.Receipt
	receipt.Set(&r, "supplier_name", "SOON HUAT", receipt.SourceOCR, l.Locale())
	note := receipt.Finding{Code: "einvoice_damaged", Severity: receipt.Warning, Message: "the PDF's e-invoice could not be read"}
	if err := l.SaveExtraction(context.Background(), 1, r, "ocr", receipt.SourceOCR, note); err != nil {
		t.Fatal(err)
	}
	l.Close()
	code, out, errOut := run(t, "show", "--library", lib, "1")
	if code != 0 {
		t.Fatalf("show: %d %s", code, errOut)
	}
	found, named := false, false
	for _, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(strings.TrimSpace(line), "[]") {
			t.Errorf("a finding shows empty brackets: %q", line)
		}
		if strings.Contains(line, "could not be read") {
			found = true
		}
		if strings.HasSuffix(line, "[total]") {
			named = true
		}
	}
	if !found || !named {
		t.Errorf("show did not list the e-invoice's finding, or the missing total's with its field:\n%s", out)
	}
}
