package einvoice

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rawPDF builds a PDF whose one attachment, named name, holds stream as it
// is, with the dictionary entries extra (a filter, say).
func rawPDF(name, extra string, stream []byte) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	b.WriteString("1 0 obj\n<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(" + name + ") 4 0 R] >> >> >>\nendobj\n")
	b.WriteString("2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n")
	b.WriteString("3 0 obj\n<< /Length 5 >>\nstream\nBT ET\nendstream\nendobj\n")
	b.WriteString("4 0 obj\n<< /Type /Filespec /F (" + name + ") /UF (" + name + ") /AFRelationship /Data /EF << /F 5 0 R >> >>\nendobj\n")
	fmt.Fprintf(&b, "5 0 obj\n<< /Type /EmbeddedFile /Subtype /text#2Fxml %s /Length %d >>\nstream\n", extra, len(stream))
	b.Write(stream)
	b.WriteString("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")
	return b.Bytes()
}

// A PDF that declares an e-invoice which cannot be read is not a PDF
// without one: Read says the attachment is damaged, and why, so that the
// user hears it rather than a silent reading of the print.
func TestADamagedAttachmentIsReportedNotMissing(t *testing.T) {
	truncated := tinyCII[:len(tinyCII)/2]
	cases := map[string][]byte{
		"malformed XML":   minimalPDF(t, "factur-x.xml", []byte(strings.Replace(tinyCII, "</rsm:ExchangedDocument>", "</rsm:Exchanged>", 1))),
		"truncated XML":   minimalPDF(t, "factur-x.xml", []byte(truncated)),
		"not XML at all":  minimalPDF(t, "factur-x.xml", []byte("\x00\x01garbage that was once an invoice")),
		"corrupt stream":  rawPDF("factur-x.xml", "/Filter /FlateDecode", []byte("x\x9c this is not deflate data at all")),
		"unknown filter":  rawPDF("zugferd-invoice.xml", "/Filter /LZWDecode", []byte("whatever")),
		"unnamed garbage": rawPDF("xrechnung.xml", "", []byte("<?xml version=\"1.0\"?><rsm:CrossIndustryInvoice><oops")),
	}
	dir := t.TempDir()
	for name, pdf := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".pdf")
		os.WriteFile(p, pdf, 0o600)
		_, err := Read(p, 0)
		if !errors.Is(err, ErrDamaged) || errors.Is(err, ErrNoInvoiceInPDF) {
			t.Errorf("%s: %v; want ErrDamaged", name, err)
			continue
		}
		if !strings.Contains(err.Error(), "cannot be read") || len(err.Error()) < len(ErrDamaged.Error())+10 {
			t.Errorf("%s: the message does not say what is wrong: %v", name, err)
		}
	}
	// A PDF with an attachment that is no e-invoice still carries none.
	p := filepath.Join(dir, "notes.pdf")
	os.WriteFile(p, minimalPDF(t, "notes.txt", []byte("just notes")), 0o600)
	if _, err := Read(p, 0); !errors.Is(err, ErrNoInvoiceInPDF) {
		t.Errorf("a text attachment: %v", err)
	}
	// A good attachment beside a damaged one is read.
	good := minimalPDF(t, "factur-x.xml", []byte(tinyCII))
	if _, _, err := FromPDF(append(good, cases["corrupt stream"][len("%PDF-1.7\n"):]...)); err != nil {
		t.Errorf("a good attachment beside a damaged one: %v", err)
	}
}
