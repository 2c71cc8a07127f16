package fields

import (
	"regexp"
	"unicode"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// bareVATNumber finds a UK or German VAT number that passes its checksum
// wherever it stands, for a label misread past recognition ("USt-IaNr
// DE738970300") or a number the labelled reading cut short ("VAT No GB
// 181 1959 SO"). A number with digits read as letters, or DE read as 0E,
// goes to the reviewer (0.5).
func bareVATNumber(lines []Line) receipt.Field[receipt.TaxID] {
	for _, l := range lines {
		for _, m := range reBareVATNumber.FindAllStringSubmatch(l.Text, -1) {
			read := receipt.NormalizeTaxID(m[2])
			digits := digitOf.Replace(read)
			if packs.CountDigits(read) < 7 || packs.CountDigits(digits) != len(digits) {
				continue
			}
			id := receipt.TaxID{Scheme: receipt.SchemeUKVAT, Value: "GB" + digits}
			if m[1] != "GB" {
				id = receipt.TaxID{Scheme: receipt.SchemeEUVAT, Value: "DE" + digits}
			}
			if receipt.ValidateTaxID(id) != nil {
				continue
			}
			conf, why := l.Conf*factorSecondReading, "a VAT number that passes its check digit"
			if digits != read || (m[1] != "GB" && m[1] != "DE") {
				conf, why = min(conf, confComputed), "a VAT number that passes its check digit once misread digits are put back"
			}
			var box *receipt.Box
			if l.Box.W > 0 {
				b := l.Box
				box = &b
			}
			return found(id, conf, box, why)
		}
	}
	return receipt.Field[receipt.TaxID]{}
}

// reNoReadN0 is a label's NO with its O read as 0.
var reNoReadN0 = regexp.MustCompile(`(?i)\bN0\b`)

// findTaxID finds the supplier's tax ID after its label (ABN, GST REG NO,
// VAT NO…), with digits read as letters put back and one misread digit
// mended where exactly one mend passes the checksum.
func findTaxID(lines []Line, loc receipt.Locale, pk *packs.Pack) receipt.Field[receipt.TaxID] {
	for _, l := range lines {
		m := reGSTID.FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		// Digits read as letters inside the number ("ABN 5@ 281 977 903",
		// "DES97809626").
		num := m[1]
		label := reNoReadN0.ReplaceAllString(m[0][:len(m[0])-len(m[1])], "NO") // "GST N0:"
		// The page's country's own form ("NIF: B47786405", "P.IVA
		// 04603586779"): its B is the format's, not a misread 8.
		if national, ok := pk.NationalTaxID(receipt.NormalizeTaxID(num)); ok {
			if id := receipt.DetectTaxID(national, loc.Country); receipt.ValidateTaxID(id) == nil {
				b := l.Box
				return found(id, l.Conf*factorLabelled, &b, "the number after a tax ID label, in "+pk.Name+"'s own form")
			}
		}
		switch {
		case packs.IsTaxIDShape(receipt.NormalizeTaxID(num)):
			// NL123456789B01: the B is the format's, not a misread 8.
		case len(num) > 2 && unicode.IsLetter(rune(num[0])) && unicode.IsLetter(rune(num[1])):
			num = num[:2] + digitOf.Replace(num[2:])
		default:
			num = digitOf.Replace(num)
		}
		read := receipt.DetectTaxID(label+num, loc.Country)
		id := receipt.RepairTaxID(read)
		conf, why := l.Conf*factorLabelled, "the number after a tax ID label"
		if receipt.NormalizeTaxID(id.Value) != receipt.NormalizeTaxID(read.Value) {
			// A mend the checksum allows is a guess: one digit
			// misread outside the likely pairs can pass by chance.
			// The reviewer is asked to check it.
			conf, why = min(conf, confComputed), "the number after a tax ID label, one digit mended so that its checksum passes"
		}
		if id.Value != "" && len(id.Value) >= 8 {
			b := l.Box
			return found(id, conf, &b, why)
		}
	}
	return receipt.Field[receipt.TaxID]{}
}

// reBareVATNumber is a country prefix (DE read as 0E or OE too) and nine
// characters that are digits or read for them, in groups.
var reBareVATNumber = regexp.MustCompile(`\b(DE|GB|[0O]E)((?:[\s.\-]?[\dOQ@SBIl|]){9})(?:$|[^\pL\d])`)
