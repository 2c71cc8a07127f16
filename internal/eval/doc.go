// Package eval owns how a reading is scored against labels: the SROIE-style
// label, per-field exact match after normalisation, the fields scored.
// `shoebox eval` and tests use it; the product's runtime never does.
package eval
