package cli

import (
	"encoding/json"
	"fmt"
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

// damagedFacturX is a one-page PDF whose factur-x.xml attachment is a
// corrupt deflate stream.
func damagedFacturX() []byte {
	var b strings.Builder
	var off []int
	obj := func(s string) { off = append(off, b.Len()); b.WriteString(s) }
	b.WriteString("%PDF-1.7\n")
	obj("1 0 obj\n<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(factur-x.xml) 6 0 R] >> >> >>\nendobj\n")
	obj("2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n")
	obj("3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>\nendobj\n")
	content := "BT /F1 14 Tf 20 150 Td (ACME GmbH  Rechnung 7) Tj 0 -30 Td (Total EUR 119.00) Tj ET"
	obj(fmt.Sprintf("4 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(content), content))
	obj("5 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n")
	obj("6 0 obj\n<< /Type /Filespec /F (factur-x.xml) /UF (factur-x.xml) /AFRelationship /Alternative /EF << /F 7 0 R >> >>\nendobj\n")
	bad := "x\x9c not deflate at all"
	obj(fmt.Sprintf("7 0 obj\n<< /Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(bad), bad))
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 8\n0000000000 65535 f \n")
	for _, o := range off {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size 8 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", x)
	return []byte(b.String())
}

// A PDF that declares a Factur-X invoice which cannot be read: einvoices
// says it carries a damaged one (not none), and extract reads the print
// with a finding that says why.
func TestADamagedEInvoiceIsReportedByEInvoicesAndExtract(t *testing.T) {
	dir := t.TempDir()
	pdf := filepath.Join(dir, "rechnung.pdf")
	os.WriteFile(pdf, damagedFacturX(), 0o600)
	t.Setenv("SHOEBOX_HOME", t.TempDir())
	code, out, errOut := run(t, "einvoices", dir)
	if !strings.Contains(out, "rechnung.pdf: carries a damaged e-invoice: factur-x.xml") || strings.Contains(out, "carries no e-invoice") {
		t.Errorf("einvoices: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = run(t, "extract", "--engine", "ocr", "--country", "EU", "--json", pdf)
	var res []struct {
		Error    string
		Findings []receipt.Finding
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res) != 1 {
		t.Fatalf("extract: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	found := false
	for _, f := range res[0].Findings {
		found = found || f.Code == "einvoice_damaged" && strings.Contains(f.Message, "read from the print")
	}
	if code != 0 || res[0].Error != "" || !found {
		t.Errorf("extract: exit %d, %+v\n%s", code, res[0], errOut)
	}
}
