package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const einvoices = "../../shared/data/einvoices"

func TestBareXMLInvoiceImportsWithAReadablePage(t *testing.T) {
	p := filepath.Join(einvoices, "XML-Rechnung/UBL/EN16931_Einfach.ubl.xml")
	if _, err := os.Stat(p); err != nil {
		t.Skip("test data not present:", err)
	}
	f, err := Probe(ctx, p, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != XML || f.Pages != 1 || f.Kind.Ext() != ".xml" {
		t.Fatalf("probed %+v; want one XML page", f)
	}
	page, err := LoadPage(ctx, f, 0, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.Text, "Seller: Lieferant GmbH") || !strings.Contains(page.Text, "529.87") {
		t.Errorf("page text lacks the seller or total:\n%s", page.Text)
	}
	if b := page.Image.Bounds(); b.Dx() < 800 || b.Dy() < 800 {
		t.Errorf("page image %v is too small to read", b)
	}
	if _, err := LoadPreview(ctx, f, DefaultLimits()); err != nil {
		t.Errorf("preview: %v", err)
	}
	inv, err := EInvoice(ctx, f)
	if err != nil || inv.Seller.Name != "Lieferant GmbH" {
		t.Errorf("EInvoice = %+v, %v", inv, err)
	}
}

func TestPDFHandsOverItsEmbeddedXML(t *testing.T) {
	p := filepath.Join(einvoices, "ZUGFeRDv2/correct/FNFE-factur-x-examples/Avoir_FR_type381_BASIC.pdf")
	if _, err := os.Stat(p); err != nil {
		t.Skip("test data not present:", err)
	}
	f, err := Probe(ctx, p, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	inv, err := EInvoice(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if !inv.CreditNote || inv.Seller.Name != "Au bon moulin" {
		t.Errorf("got %+v; want Au bon moulin's credit note", inv)
	}
}

func TestHostileXMLFilesAreRefusedAtImport(t *testing.T) {
	dir := t.TempDir()
	laughs := writeFile(t, dir, "laughs.xml", []byte(`<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><Invoice><ID>&b;</ID></Invoice>`))
	xxe := writeFile(t, dir, "xxe.xml", []byte(`<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "file:///etc/passwd">]><Invoice><ID>&x;</ID></Invoice>`))
	svg := writeFile(t, dir, "logo.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`))
	huge := filepath.Join(dir, "huge.xml")
	fh, _ := os.Create(huge)
	fh.WriteString(`<?xml version="1.0"?><Invoice>`)
	fh.Truncate(100 << 20)
	fh.Close()
	for _, c := range []struct{ path, reason string }{
		{laughs, "not an e-invoice Shoebox can read: unsafe XML: it declares a document type"},
		{xxe, "unsafe XML"},
		{svg, "not an e-invoice Shoebox can read"},
		{huge, "is an XML file of 100.0 MB, over the 16.0 MB limit"},
	} {
		start := time.Now()
		_, err := Probe(ctx, c.path, DefaultLimits())
		var r *Refusal
		if !errors.As(err, &r) || !strings.Contains(r.Reason, c.reason) {
			t.Errorf("%s: %v; want a refusal with %q", filepath.Base(c.path), err, c.reason)
		}
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("%s: refused after %s", filepath.Base(c.path), d)
		}
	}
}
