package ui

import (
	"fmt"
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
		ok, why = supplierTrusted(f)
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

// supplierTrusted says whether a supplier's name as read is ready to
// confirm, and if not why, as receipt.Unready weighs it: so its mark says
// what the status says (issue 40 item 7: a garbled name was never marked).
func supplierTrusted(f receipt.Text) (bool, string) {
	switch {
	case f.Doubt != "":
		return false, "supplier not confirmed: " + f.Doubt
	case f.Confidence < receipt.LowConfidence:
		return false, fmt.Sprintf("supplier read unsure (%.0f%% sure)", f.Confidence*100)
	case f.Source == receipt.SourceOCR && !receipt.LettersBacked(f.Support) && !receipt.SureName(f):
		return false, "supplier not confirmed: its letters were read once"
	}
	return true, ""
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
