package ui

import (
	"strings"

	"github.com/shoebox-app/shoebox/receipt"
)

// fieldEvidence says, for a field the status rests on (total, date, the
// supplier's tax ID), whether it is trusted and why, in words for the
// field's mark: what speaks against it, and what backs it.
func fieldEvidence(r *receipt.Receipt, path string) (known, trusted bool, reason string) {
	var ok bool
	var why string
	var support []receipt.Support
	switch path {
	case "total":
		ok, why = receipt.Trusted(r.Total, "total")
		support = r.Total.Support
		known = r.Total.Set && r.Total.Source != receipt.SourceUser
	case "date":
		ok, why = receipt.Trusted(r.Date, "date")
		support = r.Date.Support
		known = r.Date.Set && r.Date.Source != receipt.SourceUser
	case "supplier_name":
		f := r.SupplierName
		known = f.Set && f.Source != receipt.SourceUser && f.Source != receipt.SourceRule
		ok, why = receipt.SupplierTrusted(f)
		support = f.Support
	case "supplier_tax_id":
		f := r.SupplierTaxID
		ok, why = f.Doubt == "", "tax ID not confirmed: "+f.Doubt
		support = f.Support
		known = f.Set && f.Source != receipt.SourceUser && (f.Doubt != "" || len(support) > 0)
	default:
		return false, false, ""
	}
	if !known {
		return false, false, ""
	}
	var lines []string
	if !ok {
		lines = append(lines, capitalise(why)+".")
	}
	if len(support) > 0 {
		var backs []string
		for _, s := range support {
			backs = append(backs, s.Why)
		}
		lines = append(lines, "Backed by: "+strings.Join(backs, "; ")+".")
	}
	return true, ok, strings.Join(lines, "\n")
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
