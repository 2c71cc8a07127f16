package vlm

import (
	"regexp"
	"strings"

	"github.com/shoebox-app/shoebox/receipt"
)

// reRefusal matches the phrases instruction-tuned models decline with. The
// grammar keeps a refusal inside the JSON, so it shows up as a field value.
var reRefusal = regexp.MustCompile(`(?i)\b(I\s*(can\s*not|can'?t|cannot|am\s+unable|'m\s+unable|am\s+not\s+able|won'?t)|I'?m\s+sorry|sorry,|as\s+an\s+AI|personal(ly)?\s+(identifiable\s+)?information|privacy\s+reasons|not\s+able\s+to\s+(help|assist|provide|read))`)

// Refused reports whether a model's reading is a refusal rather than a
// receipt: a refusal phrase in a text field, or nothing read at all (no
// supplier, date, total, tax or address) from a page the model was asked to
// transcribe.
func Refused(r *receipt.Receipt) bool {
	for _, t := range []receipt.Text{r.SupplierName, r.SupplierAddress, r.DocumentNumber, r.PaymentMethod} {
		if t.Set && reRefusal.MatchString(t.Value) {
			return true
		}
	}
	empty := func(t receipt.Text) bool { return !t.Set || strings.TrimSpace(t.Value) == "" }
	return empty(r.SupplierName) && empty(r.SupplierAddress) && !r.Date.Set && !r.SupplierTaxID.Set &&
		(!r.Total.Set || r.Total.Value.IsZero()) && !r.TotalTax.Set && !r.Subtotal.Set
}
