package vlm

import (
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/inference/vlm/protocol"
	"github.com/shoebox-app/shoebox/receipt"
)

func TestParseModelJSONConfidences(t *testing.T) {
	out := `{"supplier_name":"ACME","date":"25/12/2018","total":"9.00","currency":"MYR"}`
	// One piece per byte: the total's tokens are unsure.
	var pieces []protocol.Piece
	t0 := strings.Index(out, `"9.00"`)
	for i := range out {
		p := float32(0.95)
		if i >= t0 && i < t0+6 {
			p = 0.2
		}
		pieces = append(pieces, protocol.Piece{Text: out[i : i+1], P: p})
	}
	r, err := ParseModelJSON(out, pieces, receipt.DefaultLocale(receipt.CountryMY))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := receipt.Get(&r, "date"); v != "2018-12-25" || r.Total.Value.String() != "9" || r.Currency.Value != "MYR" {
		t.Fatalf("parsed %+v", r)
	}
	if r.SupplierName.Confidence < 0.9 || r.Total.Confidence > 0.5 {
		t.Errorf("confidences: supplier %v total %v", r.SupplierName.Confidence, r.Total.Confidence)
	}
	if _, err := ParseModelJSON("I cannot help with personal information.", nil, receipt.DefaultLocale(receipt.CountryMY)); err == nil {
		t.Error("a refusal parsed as a receipt")
	}
	if err := JudgeOutput("!!!!!!!!!!!!!!!!"); err == nil {
		t.Error("!!!! accepted")
	}
}

// TestParseModelJSONReadsTheWholeDocument: line items, tax lines and the
// invoice and payment fields come through, each value with the confidence
// of the tokens that wrote it.
func TestParseModelJSONReadsTheWholeDocument(t *testing.T) {
	out := `{"supplier_name":"ACME PTY LTD","date":"03/02/2025","total":"33.00","document_type":"tax_invoice","buyer_name":"Smith & Co",` +
		`"document_number":"INV-1042","due_date":"03/03/2025","delivery_date":"01/02/2025","subtotal":"30.00","discount":"0.00","total_tax":"3.00",` +
		`"tip":"1.50","rounding":"-0.02","amount_paid":"50.00","change":"17.00","payment_method":"VISA","card_last_four":"4821",` +
		`"tax_lines":[{"rate":"10","net":"30.00","tax":"3.00"}],` +
		`"line_items":[{"description":"WIDGET","quantity":"2","unit_price":"10.00","amount":"20.00","tax_code":"GST"},{"description":"GADGET","amount":"10.00"}]}`
	var pieces []protocol.Piece
	unsure := strings.Index(out, `"GADGET"`)
	for i := range out {
		p := float32(0.9)
		if i >= unsure && i < unsure+8 {
			p = 0.1
		}
		pieces = append(pieces, protocol.Piece{Text: out[i : i+1], P: p})
	}
	r, err := ParseModelJSON(out, pieces, receipt.DefaultLocale(receipt.CountryAU))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"doc_type": "tax_invoice", "payer_name": "Smith & Co", "document_number": "INV-1042",
		"due_date": "2025-03-03", "delivery_date": "2025-02-01", "tip": "1.5", "rounding": "-0.02", "amount_paid": "50", "change": "17",
		"card_last_four": "4821", "line_items[0].quantity": "2", "line_items[0].unit_price": "10", "line_items[0].line_total": "20",
		"line_items[0].tax_code": "GST", "line_items[1].description": "GADGET", "tax_lines[0].rate": "10", "tax_lines[0].net": "30", "tax_lines[0].tax": "3",
	} {
		if got, err := receipt.Get(&r, path); err != nil || got != want {
			t.Errorf("%s = %q (%v), want %q", path, got, err, want)
		}
	}
	if c := r.LineItems[0].Description.Confidence; c < 0.85 {
		t.Errorf("a sure line's confidence %v", c)
	}
	if c := r.LineItems[1].Description.Confidence; c > 0.2 {
		t.Errorf("an unsure line's confidence %v", c)
	}
	if r.LineItems[1].LineTotal.Source != receipt.SourceModel || r.TaxLines[0].Tax.Confidence < 0.85 {
		t.Errorf("provenance: %+v %+v", r.LineItems[1].LineTotal, r.TaxLines[0].Tax)
	}
}

// TestCloseTruncated: an answer cut off at the token limit keeps its whole
// values and whole line items, and parses.
func TestCloseTruncated(t *testing.T) {
	full := `{"supplier_name":"ACME","date":"1/2/25","total":"9.00","line_items":[{"description":"A","amount":"1.00"},{"description":"B","amount":"2.00"}]}`
	cut := strings.Index(full, `"B"`) + 2 // inside the second item
	got, closed := CloseTruncated(full[:cut])
	want := `{"supplier_name":"ACME","date":"1/2/25","total":"9.00","line_items":[{"description":"A","amount":"1.00"}]}`
	if !closed || got != want {
		t.Errorf("CloseTruncated = %q, %v\nwant %q", got, closed, want)
	}
	got, _ = CloseTruncated(full[:strings.Index(full, `"total"`)+10]) // inside the total
	if want := `{"supplier_name":"ACME","date":"1/2/25"}`; got != want {
		t.Errorf("cut in a value: %q, want %q", got, want)
	}
	if got, closed := CloseTruncated(full); closed || got != full {
		t.Error("a whole answer was changed")
	}
	r, err := ParseModelJSON(full[:cut], nil, receipt.DefaultLocale(receipt.CountryAU))
	if err != nil || len(r.LineItems) != 1 || !r.Total.Set {
		t.Errorf("parsed a cut answer: %v %+v", err, r.LineItems)
	}
}
