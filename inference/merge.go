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
