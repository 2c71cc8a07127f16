package vlm

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var reLineAmount = regexp.MustCompile(`^(.*?)\s*(-?\d{1,7}[.,]\d{2})\s*$`)

// fullAnswer is the longest answer a model could give for a page of OCR
// lines: every line that ends in an amount as a line item with all five
// keys (totals and tax lines too: an overestimate), and every other field.
func fullAnswer(lines []string, label map[string]string) string {
	doc := map[string]any{
		"supplier_name": label["company"], "date": label["date"], "total": "123.45", "document_type": "tax_invoice",
		"supplier_tax_id": "001234567-W", "supplier_address": label["address"], "buyer_name": "A CUSTOMER SDN BHD",
		"buyer_address": label["address"], "document_number": "CS00123456", "due_date": label["date"], "delivery_date": label["date"],
		"currency": "MYR", "subtotal": "116.46", "discount": "1.00", "total_tax": "6.99", "tip": "0.00", "rounding": "-0.01",
		"amount_paid": "150.00", "change": "26.55", "payment_method": "CASH", "card_last_four": "1234",
		"tax_lines": []map[string]string{{"rate": "6", "net": "116.46", "tax": "6.99"}, {"rate": "0", "net": "10.00", "tax": "0.00"}},
	}
	var items []map[string]string
	for _, l := range lines {
		m := reLineAmount.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		desc := m[1]
		if len(desc) > 60 {
			desc = desc[:60]
		}
		items = append(items, map[string]string{"description": desc, "quantity": "1", "unit_price": m[2], "amount": m[2], "tax_code": "SR"})
	}
	doc["line_items"] = items
	b, _ := json.Marshal(doc)
	return string(b)
}

// TestTokenLimitFitsTheLongestDevReceipt: the answer limit holds the full
// answer to every dev receipt with a fifth to spare.
func TestTokenLimitFitsTheLongestDevReceipt(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../../shared/data/sroie-dev", "../../../shared/data/sroie-more"} {
		f, _ := filepath.Glob(filepath.Join(dir, "*.box.csv"))
		files = append(files, f...)
	}
	if len(files) == 0 {
		t.Skip("shared receipts not present")
	}
	worst, worstFile, worstItems := 0, "", 0
	for _, f := range files {
		rf, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		r := csv.NewReader(rf)
		r.FieldsPerRecord, r.LazyQuotes = -1, true
		rows, _ := r.ReadAll()
		rf.Close()
		var lines []string
		for _, row := range rows {
			if len(row) >= 9 {
				lines = append(lines, strings.Join(row[8:], ","))
			}
		}
		label := map[string]string{}
		if data, err := os.ReadFile(strings.TrimSuffix(f, ".box.csv") + ".json"); err == nil {
			json.Unmarshal(data, &label)
		}
		ans := fullAnswer(lines, label)
		if n := EstimateTokens(ans); n > worst {
			var doc struct {
				LineItems []any `json:"line_items"`
			}
			json.Unmarshal([]byte(ans), &doc)
			worst, worstFile, worstItems = n, f, len(doc.LineItems)
		}
	}
	t.Logf("%d receipts; the longest full answer: %s, %d lines with an amount, about %d tokens; limit %d", len(files), filepath.Base(worstFile), worstItems, worst, DefaultMaxTokens)
	if DefaultMaxTokens < worst*6/5 {
		t.Errorf("DefaultMaxTokens %d leaves less than a fifth to spare over %d", DefaultMaxTokens, worst)
	}
}

func TestEstimateTokens(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{{"12.50", 5}, {`{"total":"9.00"}`, 2 + 2 + 3 + 4 + 2}, {"NASI LEMAK", 2 + 2}} {
		if got := EstimateTokens(c.s); got != c.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}
