package fields

import (
	"strings"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

// groundedFields are checked against the page's OCR words.
var groundedFields = []string{
	"supplier_name", "supplier_tax_id", "document_number", "date", "subtotal", "total_tax", "total",
	"payer_name", "due_date", "delivery_date", "discount", "tip", "rounding", "amount_paid", "change", "card_last_four",
}

// groundedAmounts are the fields findSupport looks up as numbers.
var groundedAmounts = map[string]bool{
	"total": true, "subtotal": true, "total_tax": true, "discount": true, "tip": true,
	"rounding": true, "amount_paid": true, "change": true, "line_total": true, "unit_price": true, "net": true, "tax": true,
}

// Ground finds the OCR words that support each value an engine read and
// attaches their box, so the review screen can outline it. A value with no
// support on the page has its confidence halved: models invent, and a
// total that is not printed anywhere is the first thing to check.
func Ground(r *receipt.Receipt, words []inference.Word) {
	lines := GroupLines(words)
	for _, path := range groundedFields {
		set, conf, src, box, _ := receipt.Meta(r, path)
		if !set || box != nil {
			continue
		}
		v, _ := receipt.Get(r, path)
		if i := strings.IndexByte(v, ':'); i >= 0 && path == "supplier_tax_id" {
			v = v[i+1:]
		}
		if b, ok := findSupport(lines, path, v); ok {
			receipt.SetProvenance(r, path, -1, &b)
		} else if src != receipt.SourceUser {
			receipt.SetProvenance(r, path, conf*factorNotOnPage, nil)
		}
	}
	// Line items and tax lines: each amount and description is looked up
	// alike, so an invented line loses confidence as an invented total does.
	for i := range r.LineItems {
		li := &r.LineItems[i]
		groundText(lines, "description", &li.Description)
		groundAmount(lines, "line_total", &li.LineTotal)
		groundAmount(lines, "unit_price", &li.UnitPrice)
	}
	for i := range r.TaxLines {
		groundAmount(lines, "net", &r.TaxLines[i].Net)
		groundAmount(lines, "tax", &r.TaxLines[i].Tax)
	}
}

func groundText(lines []Line, path string, f *receipt.Text) {
	if !f.Set || f.Box != nil || f.Source == receipt.SourceUser {
		return
	}
	if b, ok := findSupport(lines, path, f.Value); ok {
		f.Box = &b
	} else {
		f.Confidence *= factorNotOnPage
	}
}

func groundAmount(lines []Line, path string, f *receipt.Amount) {
	if !f.Set || f.Box != nil || f.Source == receipt.SourceUser {
		return
	}
	if b, ok := findSupport(lines, path, f.Value.String()); ok {
		f.Box = &b
	} else {
		f.Confidence *= factorNotOnPage
	}
}

// findSupport looks for a line that holds the value: amounts as numbers,
// the rest as normalised text.
func findSupport(lines []Line, path, v string) (receipt.Box, bool) {
	switch {
	case groundedAmounts[path]:
		want, err := receipt.ParseAmount(v)
		if err != nil {
			return receipt.Box{}, false
		}
		for i := len(lines) - 1; i >= 0; i-- { // totals sit low on the page
			for _, a := range amountsIn(lines[i].Text) {
				if a.Equal(want.Value) {
					return lines[i].Box, true
				}
			}
		}
	case path == "date" || path == "due_date" || path == "delivery_date":
		for _, l := range lines {
			for _, s := range append(reDateNum.FindAllString(l.Text, -1), reDateWord.FindAllString(l.Text, -1)...) {
				if d, err := receipt.ParseDate(s, receipt.DMY); err == nil && d.Date.Format("2006-01-02") == v {
					return l.Box, true
				}
				if d, err := receipt.ParseDate(s, receipt.MDY); err == nil && d.Date.Format("2006-01-02") == v {
					return l.Box, true
				}
			}
		}
	default:
		want := receipt.Fold(v)
		if len(want) < 3 {
			return receipt.Box{}, false
		}
		for _, l := range lines {
			if strings.Contains(receipt.Fold(l.Text), want) || len(want) > 8 && strings.Contains(want, receipt.Fold(l.Text)) && len(receipt.Fold(l.Text)) > len(want)/2 {
				return l.Box, true
			}
		}
	}
	return receipt.Box{}, false
}
