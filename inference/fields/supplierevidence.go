package fields

import (
	"strconv"
	"strings"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// assessSupplier gives the supplier's name, as the rules read it, the
// evidence that backs it: a legal form after it (the registered name),
// its words printed again on another line of the page (a footer's
// "Aldi GmbH & Co. KG", a logo's name printed in full), or another
// reader finding the same name. A name with none of them was read once
// from a heading: receipt.Unready keeps such a receipt for review.
func assessSupplier(r *receipt.Receipt, lines []Line, pk *packs.Pack, others []Reading) {
	s := &r.SupplierName
	s.Support = nil
	name := s.Value
	words := packs.Words(name)
	if len(words) == 0 {
		return
	}
	support := func(kind receipt.Evidence, why string) { s.Support = appendSupport(s.Support, kind, why) }
	u := packs.Fold(name)
	if reRegisteredForm.MatchString(u) || reStrongCo.MatchString(u) {
		support(receipt.EvidenceReading, "a registered name, with its legal form")
	} else if n, ok := pk.IsLegalForm(words); ok && n < len(words) {
		support(receipt.EvidenceReading, "a registered name, with its legal form")
	}
	own := lineAt(lines, s.Box)
	for i, l := range lines {
		if i == own || s.Box != nil && l.Box.W > 0 && s.Box.Union(l.Box) == *s.Box {
			continue // the name's own lines
		}
		lw := packs.Words(l.Text)
		if letterCount(strings.Join(words, "")) >= 4 && len(lw) <= len(words)+6 && containsWords(lw, words) {
			support(receipt.EvidencePrintedTwice, "the name printed again: "+strconv.Quote(strings.TrimSpace(l.Text)))
			break
		}
	}
	// Both readers must find it: the name may have come from either.
	same := func(ls []Line) bool {
		n, _, _ := findCompany(ls, pk)
		a, b := strings.Join(words, ""), strings.Join(packs.Words(joinSpacedLetters(n.Value)), "")
		return b != "" && (a == b || len(a) >= 6 && EditDistance(a, b, 2) <= 2)
	}
	for _, o := range others {
		if o.Of == "" && same(mendLineText(trimEdgeSpecks(o.Lines))) && same(lines) {
			support(receipt.EvidenceSecondReader, o.Name+" finds the same name")
		}
	}
}
