package fields

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
