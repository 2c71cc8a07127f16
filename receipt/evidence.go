package receipt

import (
	"fmt"
	"slices"
)

// Evidence names a kind of support for a value. Supports of one kind count
// once: a total printed on three lines is one reading printed twice, not
// three supports.
type Evidence string

const (
	// EvidenceReading is the value as read where it is printed.
	EvidenceReading Evidence = "reading"
	// EvidenceArithmetic is other amounts on the page add up to it.
	EvidenceArithmetic Evidence = "arithmetic"
	// EvidencePrintedTwice is the same value read on another line.
	EvidencePrintedTwice Evidence = "printed_twice"
	// EvidenceSecondReader is another reading of the page (another reader,
	// or the value's line read again alone) gives the same characters.
	EvidenceSecondReader Evidence = "second_reader"
	// EvidenceChecksum is a tax ID whose check digits hold.
	EvidenceChecksum Evidence = "checksum"
	// EvidenceMemory is what the library remembers of a confirmed supplier.
	EvidenceMemory Evidence = "memory"
	// EvidenceExact is a source that states the value exactly (an
	// e-invoice's XML); enough on its own.
	EvidenceExact Evidence = "exact"
)

// Support is one reason to trust a value, in words a reviewer reads
// ("subtotal 20.00 + tax 1.20 = 21.20").
type Support struct {
	Kind Evidence `json:"kind"`
	Why  string   `json:"why"`
}

// LowConfidence is the confidence under which a field a person must check
// (the supplier) sends a receipt to review.
const LowConfidence = 0.6

// SupportKinds counts a field's distinct kinds of support: a total printed
// on three lines is one kind.
func SupportKinds(s []Support) int {
	seen := map[Evidence]bool{}
	for _, x := range s {
		seen[x.Kind] = true
	}
	return len(seen)
}

// HasSupport says whether a field's support holds evidence of a kind.
func HasSupport(s []Support, kind Evidence) bool {
	return slices.ContainsFunc(s, func(x Support) bool { return x.Kind == kind })
}

// Trusted says whether a field may be confirmed in bulk: a person set it,
// an exact source stated it, or two independent kinds of evidence agree
// on it and nothing contradicts it. Otherwise it says why not, in words.
func Trusted[T any](f Field[T], name string) (bool, string) {
	exact := HasSupport(f.Support, EvidenceExact)
	switch n := SupportKinds(f.Support); {
	case f.Source == SourceUser:
		return true, ""
	case !f.Set:
		return false, "no " + name + " read"
	case f.Doubt != "":
		return false, name + " not confirmed: " + f.Doubt
	case exact:
		return true, ""
	case n < 2:
		return false, name + " not confirmed: read once, nothing else on the page agrees"
	}
	return true, ""
}

// Unready lists why a receipt is not ready to confirm, in words; an empty
// list means it is. Ready needs a trusted total and date (see Trusted), a
// currency the page prints or its country tells, a supplier read with
// confidence and, from the page reader, its letters backed by a second
// printing, a second reader or memory, and no warning among the findings.
func Unready(r Receipt, findings []Finding) []string {
	var out []string
	if ok, why := Trusted(r.Total, "total"); !ok {
		out = append(out, why)
	}
	if ok, why := Trusted(r.Date, "date"); !ok {
		out = append(out, why)
	}
	if r.SupplierTaxID.Doubt != "" && r.SupplierTaxID.Source != SourceUser {
		out = append(out, "tax ID not confirmed: "+r.SupplierTaxID.Doubt)
	}
	if r.Currency.Source != SourceUser && (!r.Currency.Set || r.Currency.Confidence < LowConfidence) {
		out = append(out, "currency not printed: assumed to be the client's")
	}
	if ok, why := SupplierTrusted(r.SupplierName); !ok {
		out = append(out, why)
	}
	for _, f := range findings {
		if f.Severity != Info {
			out = append(out, f.Message)
		}
	}
	return out
}

// SupplierTrusted says whether the supplier's name may be confirmed in
// bulk, and if not why, in words: a person set it, or it was read with
// confidence, nothing doubts it and, from the page reader, its letters are
// backed by a second printing, a second reader or memory (a legal form
// says the line is the registered name, not that its letters were read
// right), or it is a registered name read surely (SureName).
func SupplierTrusted(f Text) (bool, string) {
	switch {
	case !f.Set:
		return false, "no supplier read"
	case f.Source == SourceUser:
		return true, ""
	case f.Doubt != "":
		return false, "supplier not confirmed: " + f.Doubt
	case f.Confidence < LowConfidence:
		return false, fmt.Sprintf("supplier unsure (%.0f%%)", f.Confidence*100)
	case f.Source == SourceOCR && !LettersBacked(f.Support) && !SureName(f):
		return false, "supplier not confirmed: its letters were read once"
	}
	return true, ""
}

// LettersBacked says whether a name's support vouches for its letters: a
// second printing, a second reader, memory or an exact source.
func LettersBacked(s []Support) bool {
	for _, x := range s {
		switch x.Kind {
		case EvidencePrintedTwice, EvidenceSecondReader, EvidenceMemory, EvidenceExact:
			return true
		}
	}
	return false
}

// sureNameConfidence is the confidence from which the page reader's name,
// its legal form read on its line, is trusted letter by letter without a
// second reading: at 0.93 and above (a line read at 98% or more), 48 of 48
// such names were right on the 287 SROIE dev receipts; below it, 9 in 10.
const sureNameConfidence = 0.93

// SureName says whether a name was read surely enough to stand on its own
// reading: a registered name (its legal form read with it) read at
// sureNameConfidence or more.
func SureName(f Text) bool {
	if f.Confidence < sureNameConfidence || f.Doubt != "" {
		return false
	}
	for _, x := range f.Support {
		if x.Kind == EvidenceReading {
			return true
		}
	}
	return false
}
