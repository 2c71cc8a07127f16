package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const einvoiceData = "../../shared/data/einvoices"

func TestImportAndProcessAnXMLInvoice(t *testing.T) {
	xml := filepath.Join(einvoiceData, "XML-Rechnung/UBL/ubl-tc434-creditnote1.xml")
	if _, err := os.Stat(xml); err != nil {
		t.Skip("e-invoice data not present:", err)
	}
	lib := t.TempDir()
	t.Setenv("SHOEBOX_HOME", t.TempDir())
	code, out, errOut := run(t, "import", "--library", lib, xml)
	if code != 0 || !strings.Contains(out, "1 added") {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = run(t, "process", "--library", lib, "--country", "EU", "--engine", "ocr")
	if code != 0 {
		t.Fatalf("process: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = run(t, "show", "--library", lib, "1")
	for _, want := range []string{"My Supplier Company", "-100.11", "credit_note", "e-invoice"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
}

func TestExtractReadsTheEmbeddedInvoice(t *testing.T) {
	pdf := filepath.Join(einvoiceData, "ZUGFeRDv2/correct/FNFE-factur-x-examples/Facture_FR_BASICWL.pdf")
	if _, err := os.Stat(pdf); err != nil {
		t.Skip("e-invoice data not present:", err)
	}
	t.Setenv("SHOEBOX_HOME", t.TempDir())
	code, out, errOut := run(t, "extract", "--engine", "ocr", "--country", "EU", pdf)
	if code != 0 || !strings.HasPrefix(out, "Facture_FR_BASICWL.pdf: Au bon moulin | 2017-11-13 | 671.15 | EUR") {
		t.Fatalf("extract: exit %d\n%s%s", code, out, errOut)
	}
}

func TestEInvoicesTableNamesTheBrokenRule(t *testing.T) {
	src := filepath.Join(einvoiceData, "ZUGFeRDv1/correct/Intarsys")
	if _, err := os.Stat(src); err != nil {
		t.Skip("e-invoice data not present:", err)
	}
	code, out, errOut := run(t, "einvoices", src)
	if code != 0 || !strings.Contains(out, "all                                                      9        9          7          2") ||
		!strings.Contains(out, "ZUGFeRD_1p0_COMFORT_Rechnungskorrektur.pdf: BR-CO-16") {
		t.Fatalf("einvoices: exit %d\n%s%s", code, out, errOut)
	}
}
