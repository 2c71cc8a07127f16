package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/receipt"
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

func TestPrintedOnPageFindsTheXMLsValueInItsPrintedForms(t *testing.T) {
	page := "Au bon moulin SARL\nRechnung Nr. RE-2015/504 vom 8. Oktober 2015\nGesamtbetrag: 1.571,04 €\nLieferdatum 07.10.2015"
	tests := []struct {
		field, want string
		printed     bool
	}{
		{"supplier", "Au bon moulin", true},
		{"supplier", "Seller Inc.", false},
		{"number", "RE-2015/504", true},
		{"number", "FA-2017-0010", false},
		{"total", "1571.04", true},
		{"total", "-1571.04", true},
		{"total", "571.04", false},
		{"date", "2015-10-08", true}, // the month by name
		{"date", "2015-10-07", true},
		{"date", "2014-10-08", false}, // another year than the page's
		{"currency", "EUR", true},
	}
	for _, tt := range tests {
		if got := printedOnPage(tt.field, tt.want, page); got != tt.printed {
			t.Errorf("%s %q printed = %v, want %v", tt.field, tt.want, got, tt.printed)
		}
	}
	if receipt.FoldName("Au bon moulin SARL") != receipt.FoldName("AU BON MOULIN") || receipt.FoldName("Lee & Tan Sdn. Bhd.") != "leetan" {
		t.Error("FoldName keeps the legal form")
	}
}
