package library

import (
	"database/sql"
	"fmt"
	"time"

	"github.com/shoebox-app/shoebox/receipt"
)

// FindDateOutOfLine is the finding code of a date years before the rest of
// the supplier's or the library's receipts.
const FindDateOutOfLine = "date_out_of_line"

// yearsOutOfLine is how far before the usual dates a receipt's date must lie
// to be flagged: a misread year ("2016" for 2018) is typically that far off.
const yearsOutOfLine = 2

// rememberedSupport adds what supplier memory knows to a reading: a name
// that matches a supplier a person confirmed, and a tax ID that matches the
// one remembered for it (or a doubt when it is another).
func rememberedSupport(r *receipt.Receipt, confirmed int, scheme, value string) {
	if confirmed > 0 && r.SupplierName.Set && r.SupplierName.Source != receipt.SourceUser {
		r.SupplierName.Support = append(r.SupplierName.Support, receipt.Support{
			Kind: receipt.EvidenceMemory,
			Why:  fmt.Sprintf("a supplier you confirmed %d time(s) before", confirmed),
		})
		r.SupplierName.Confidence = max(r.SupplierName.Confidence, 0.9)
	}
	id := &r.SupplierTaxID
	if confirmed == 0 || value == "" || !id.Set || id.Source == receipt.SourceUser || id.Source == receipt.SourceRule {
		return
	}
	if receipt.NormalizeTaxID(id.Value.Value) == receipt.NormalizeTaxID(value) {
		id.Support = append(id.Support, receipt.Support{Kind: receipt.EvidenceMemory, Why: "the tax ID remembered for this supplier"})
	} else {
		id.Doubt = "this supplier's confirmed receipts carry " + value
	}
}

// dateOutOfLine flags a date years before the supplier's other receipts
// (two or more), or else the library's (five or more): a misread year.
func dateOutOfLine(tx *sql.Tx, id int64, key string, r receipt.Receipt) (receipt.Finding, bool) {
	if !r.Date.Set || r.Date.Source == receipt.SourceUser {
		return receipt.Finding{}, false
	}
	for _, q := range []struct {
		where string
		args  []any
		least int
		whose string
	}{
		{"supplier_key = ? AND supplier_key != ''", []any{key}, 2, "this supplier's other receipts"},
		{"1 = 1", nil, 5, "the library's other receipts"},
	} {
		var n int
		var earliest sql.NullString
		args := append(append([]any{}, q.args...), id)
		if err := tx.QueryRow(`SELECT COUNT(*), MIN(date) FROM receipts WHERE `+q.where+` AND id != ? AND date != ''`, args...).Scan(&n, &earliest); err != nil || n < q.least || !earliest.Valid {
			continue
		}
		first, err := time.Parse(time.DateOnly, earliest.String)
		if err != nil {
			continue
		}
		if r.Date.Value.Before(first.AddDate(-yearsOutOfLine, 0, 0)) {
			return receipt.Finding{
				Code: FindDateOutOfLine, Severity: receipt.Warning, Fields: []string{"date"},
				Message: fmt.Sprintf("date %s is years before %s (the earliest is %s): is the year misread?", r.Date.Value.Format(time.DateOnly), q.whose, earliest.String),
			}, true
		}
		return receipt.Finding{}, false
	}
	return receipt.Finding{}, false
}
