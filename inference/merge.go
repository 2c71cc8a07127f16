package inference

import (
	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// FillGaps copies into dst the fields that src has and dst lacks, so a
// multi-page document keeps its first page's reading and takes the rest
// (a total on the last page) from later pages.
func FillGaps(dst *receipt.Receipt, src receipt.Receipt) {
	for _, f := range receipt.Fields {
		if set, _, _, _, _ := receipt.Meta(dst, f.Path); set {
			continue
		}
		if set, _, _, _, _ := receipt.Meta(&src, f.Path); !set {
			continue
		}
		receipt.CopyField(dst, &src, f.Path)
	}
	if len(dst.LineItems) == 0 {
		dst.LineItems = src.LineItems
	}
	if len(dst.TaxLines) == 0 {
		dst.TaxLines = src.TaxLines
	}
}

// AddPage adds a later page of one document to the reading of the pages
// before it: FillGaps, and an invoice's line table that goes on over the
// page, its rows after the earlier pages' (each page's rows were read only
// where they make that page's own sum). Two readings of one page are
// combined with FillGaps, never with AddPage.
func AddPage(dst *receipt.Receipt, src receipt.Receipt) {
	for page, q := range src.PageTurns {
		if dst.PageTurns == nil {
			dst.PageTurns = map[int]int{}
		}
		dst.PageTurns[page] = q
	}
	earlier := len(dst.LineItems)
	FillGaps(dst, src)
	if earlier > 0 && invoiceDoc(*dst) && invoiceDoc(src) {
		dst.LineItems = append(dst.LineItems, src.LineItems...)
	}
	checkRows(dst)
}

// RowsUnchecked is the doubt of an invoice's table rows read on a page that
// prints no sum to check them against: the rows go on to a later page.
const RowsUnchecked = "on a page without the invoice's sums: not yet checked against its net"

// checkRows settles a document's unchecked rows once it has a net: all its
// rows that make the net (the lines' sum, or the taxed net with the
// allowance) are kept and lose their doubt; otherwise the unchecked rows
// are dropped, a wrong table being worse than none.
func checkRows(r *receipt.Receipt) {
	unchecked := 0
	sum := decimal.Zero
	for _, it := range r.LineItems {
		if it.LineTotal.Doubt == RowsUnchecked {
			unchecked++
		}
		sum = sum.Add(it.LineTotal.Value)
	}
	if unchecked == 0 || !r.Subtotal.Set {
		return
	}
	net := r.Subtotal.Value.Abs()
	if sum.Abs().Equal(net) || r.Discount.Set && sum.Abs().Equal(net.Add(r.Discount.Value.Abs())) {
		for i := range r.LineItems {
			if r.LineItems[i].LineTotal.Doubt == RowsUnchecked {
				r.LineItems[i].LineTotal.Doubt = ""
			}
		}
		return
	}
	kept := r.LineItems[:0]
	for _, it := range r.LineItems {
		if it.LineTotal.Doubt != RowsUnchecked {
			kept = append(kept, it)
		}
	}
	r.LineItems = kept
}

func invoiceDoc(r receipt.Receipt) bool {
	return r.DocType.Set && (r.DocType.Value == receipt.DocInvoice || r.DocType.Value == receipt.DocCreditNote)
}
