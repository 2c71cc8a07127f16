package vlm

import (
	"github.com/shoebox-app/shoebox/inference/vlm/protocol"

	"strings"
	"testing"

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
