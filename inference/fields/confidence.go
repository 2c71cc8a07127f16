package fields

import "github.com/shoebox-app/shoebox/receipt"

// Confidence levels the rules give what they find, and the factors by which
// weaker evidence lowers a reader's confidence. One place, so that
// calibrating them against the dev sets changes numbers here, not rules.
//
// | name                | value | what it is given to                                          |
// |---------------------|-------|--------------------------------------------------------------|
// | confPrinted         | 0.9   | a value the page prints plainly (a ringgit mark for MYR)     |
// | confFromPayment     | 0.8   | a total computed as cash less change                         |
// | confLikely          | 0.7   | a value one keyword suggests (the payment method)            |
// | confAssumed         | 0.6   | a value assumed, not read: the library's currency, a         |
// |                     |       | quantity of 1, a total implied by subtotal and tax           |
// | confComputed        | 0.5   | a value computed from others (a unit price from the amount)  |
// | confClientDefault   | 0.4   | the client's currency on a page that prints none and says    |
// |                     |       | nothing of its country: asked, not guessed (not ready)       |
// | factorLegalForm     | 0.95  | a supplier's name with a legal form, at the top              |
// | factorLabelled      | 0.9   | a date's line confidence, as a date                          |
// | factorSecondReading | 0.8   | read again alone, or from an ambiguous or weaker reading     |
// | factorRepaired      | 0.6   | a date repaired from a misread digit or lost separator       |
// | factorUnlikelyRate  | 0.7   | a tax rate over 30% that the sums confirm                    |
// | factorPlainName     | 0.7   | a supplier's name without a legal form: the first name line  |
// | factorNotOnPage     | 0.5   | a model's value that no word on the page supports            |
// | factorLastResort    | 0.4   | a total guessed from the amount paid, no total label read    |
const (
	confPrinted     = 0.9
	confFromPayment = 0.8
	confLikely      = 0.7
	confAssumed     = 0.6
	confComputed    = 0.5
	// confClientDefault is under receipt.LowConfidence: a currency only
	// assumed keeps a receipt from being ready.
	confClientDefault = 0.4

	factorLegalForm     = 0.95
	factorLabelled      = 0.9
	factorSecondReading = 0.8
	factorRepaired      = 0.6
	factorUnlikelyRate  = 0.7
	factorPlainName     = 0.7
	factorNotOnPage     = 0.5
	factorLastResort    = 0.4
)

// SecondReading is the factor by which a value read again alone (a line cut
// out and read by itself) is less sure than the page's own reading.
const SecondReading = factorSecondReading

// calibration is how often a total or date with the given evidence was
// right on the dev sets (SROIE dev + more, 287 receipts, Tesseract,
// `shoebox eval --deterministic`), so that a confidence of 0.9 is right
// about nine times in ten. Columns: a doubt, then no, one, two and three or
// more kinds of support (see Assess). Counts were small where no evidence
// was found (3 totals, 11 dates): those take the one-support rate. Refit
// from the "Evidence" table `shoebox eval` prints after a change to the
// rules or the reader.
//
// | field | doubt      | none       | one        | two         | three+      |
// |-------|------------|------------|------------|-------------|-------------|
// | total | 0.60 (43)  | 0.56 (3)   | 0.56 (27)  | 0.98 (69)   | 0.995 (131) |
// | date  | 0.55 (31)  | 0.83 (11)  | 0.83 (29)  | 0.99 (163)  | 0.995 (40)  |
var calibration = map[string][5]float64{
	"total": {0.60, 0.56, 0.56, 0.98, 0.995},
	"date":  {0.55, 0.83, 0.83, 0.99, 0.995},
}

// calibrated is the confidence a field's evidence earns (calibration).
func calibrated(field string, support []receipt.Support, doubt string) float64 {
	row := calibration[field]
	if doubt != "" {
		return row[0]
	}
	return row[1+min(receipt.SupportKinds(support), 3)]
}
