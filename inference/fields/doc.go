// Package fields owns the rules that turn a page reader's lines of words
// into receipt fields, in pure Go (no cgo, no reader): lines and their text
// mends (lines.go), the supplier (supplier.go, lexicon*.go), the address and
// postcode tables (address.go, postcode.go), the date (date.go), the total
// and the arithmetic that confirms it (total.go), tax IDs (taxid.go), line
// items (items.go), tax lines (taxlines.go), printed invoices read by their
// blocks — cells, the packs' invoice labels, parties, the line table and
// the totals' arithmetic (invoice*.go) — and Ground, which finds where
// on the page a value given by a model was printed (ground.go).
// ExtractFields runs them all. Golden tests in testdata/ show a rule
// change's effect on dev receipts as a diff (go test -update refreshes).
package fields
