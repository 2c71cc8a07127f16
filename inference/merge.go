package inference

import "github.com/shoebox-app/shoebox/receipt"

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
	earlier := len(dst.LineItems)
	FillGaps(dst, src)
	if earlier > 0 && invoiceDoc(*dst) && invoiceDoc(src) {
		dst.LineItems = append(dst.LineItems, src.LineItems...)
	}
}

func invoiceDoc(r receipt.Receipt) bool {
	return r.DocType.Set && (r.DocType.Value == receipt.DocInvoice || r.DocType.Value == receipt.DocCreditNote)
}
