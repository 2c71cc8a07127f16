package fields

import (
	"regexp"

	"github.com/shoebox-app/shoebox/receipt"
)

// bareVATNumber finds a UK or German VAT number that passes its checksum
// wherever it stands, for a label misread past recognition ("USt-IaNr
// DE738970300") or a number the labelled reading cut short ("VAT No GB
// 181 1959 SO"). A number with digits read as letters, or DE read as 0E,
// goes to the reviewer (0.5).
func bareVATNumber(lines []Line) (receipt.TaxID, float64, *receipt.Box, bool) {
	for _, l := range lines {
		for _, m := range reBareVATNumber.FindAllStringSubmatch(l.Text, -1) {
			read := receipt.NormalizeTaxID(m[2])
			digits := digitOf.Replace(read)
			if countDigits(read) < 7 || countDigits(digits) != len(digits) {
				continue
			}
			id := receipt.TaxID{Scheme: receipt.SchemeUKVAT, Value: "GB" + digits}
			if m[1] != "GB" {
				id = receipt.TaxID{Scheme: receipt.SchemeEUVAT, Value: "DE" + digits}
			}
			if receipt.ValidateTaxID(id) != nil {
				continue
			}
			conf := l.Conf * 0.8
			if digits != read || (m[1] != "GB" && m[1] != "DE") {
				conf = min(conf, 0.5)
			}
			var box *receipt.Box
			if l.Box.W > 0 {
				b := l.Box
				box = &b
			}
			return id, conf, box, true
		}
	}
	return receipt.TaxID{}, 0, nil, false
}

// reBareVATNumber is a country prefix (DE read as 0E or OE too) and nine
// characters that are digits or read for them, in groups.
var reBareVATNumber = regexp.MustCompile(`\b(DE|GB|[0O]E)((?:[\s.\-]?[\dOQ@SBIl|]){9})(?:$|[^\pL\d])`)
