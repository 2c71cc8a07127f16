package fields

import (
	"github.com/shoebox-app/shoebox/inference"

	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// Line is one text line of a page: its words, their union box and mean confidence.
type Line struct {
	Text  string
	Box   receipt.Box
	Conf  float64
	Words []inference.Word
}

// GroupLines joins OCR words into lines in reading order.
func GroupLines(words []inference.Word) []Line {
	var lines []Line
	index := map[int]int{}
	for _, w := range words {
		i, ok := index[w.Line]
		if !ok {
			i = len(lines)
			index[w.Line] = i
			lines = append(lines, Line{Box: w.Box})
		}
		l := &lines[i]
		if len(l.Words) > 0 {
			l.Text += " "
			l.Box = l.Box.Union(w.Box)
		}
		l.Text += w.Text
		l.Words = append(l.Words, w)
	}
	for i := range lines {
		sum := 0.0
		for _, w := range lines[i].Words {
			sum += w.Conf
		}
		lines[i].Conf = sum / float64(len(lines[i].Words))
	}
	return lines
}

// trimEdgeSpecks drops the specks OCR reads at the ends of a line, where a
// photo's table edge, a fold or a tear meets the text: a word of one or two
// characters, or of marks alone, read with little confidence ("SUNRISE
// PRINTING E", "| HAUPTSTRASSE 7 |"), or a letter or mark standing far off
// the rest of the line however confident ("SUNRISE BAKERY LLC      A").
func trimEdgeSpecks(lines []Line) []Line {
	// After SELANGOR a short last word is its honorific, D.E. (Darul
	// Ehsan), however misread ("Selangor Dt"): see reSelangorDE.
	selangorDE := func(before, last inference.Word) bool {
		return reSelangorDE.MatchString(strings.ToUpper(before.Text + " " + last.Text))
	}
	speck := func(w, next inference.Word, gap, height int, money bool) bool {
		n := len([]rune(w.Text))
		marks := strings.IndexFunc(w.Text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0
		// Numbers are content ("99 SPEED MART", "JALAN KPB 6"), and so are
		// the short words that open an address ("NO 2,") or end one ("DR").
		short := n <= 2 && !HasDigit(w.Text) && !shortWords[strings.ToUpper(strings.Trim(w.Text, ".,:"))]
		if w.Conf < 0.6 && (short || marks && n <= 3) || marks && n <= 2 && !strings.ContainsAny(w.Text, "&$€£#%") {
			return true // a lone "|" or "_" at a line's edge is never text
		}
		if n == 1 && HasDigit(w.Text) {
			// A lone digit far off a line without money and unsure is the
			// page's edge read as one ("3 ... GREENFIELD BAKERY INC", at
			// 8%); on an item line it is the quantity column, however
			// unsure ("1   PAINT BRUSH $11.42 $1.42" at 46%). The gap is
			// measured in the text's height, not the line's, which a tall
			// speck stretches.
			return !money && w.Conf < 0.5 && next.Box.H > 0 && gap > next.Box.H*3
		}
		return n <= 2 && !HasDigit(w.Text) && height > 0 && gap > height*3/2
	}
	gapBetween := func(a, b inference.Word) int { return b.Box.X - (a.Box.X + a.Box.W) }
	out := make([]Line, 0, len(lines))
	for _, l := range lines {
		ws := l.Words
		money := reMoney.MatchString(l.Text)
		for len(ws) > 1 && speck(ws[0], ws[1], gapBetween(ws[0], ws[1]), l.Box.H, money) {
			ws = ws[1:]
		}
		for len(ws) > 1 && !selangorDE(ws[len(ws)-2], ws[len(ws)-1]) && speck(ws[len(ws)-1], ws[len(ws)-2], gapBetween(ws[len(ws)-2], ws[len(ws)-1]), l.Box.H, money) {
			ws = ws[:len(ws)-1]
		}
		if len(ws) < len(l.Words) {
			l = GroupLines(ws)[0]
		}
		out = append(out, l)
	}
	return out
}

// shortWords are one- and two-letter words that are no specks.
var shortWords = wordSet("NO LO KG JL BT PT SS US UK AU & A I OF AT ON TO BY IN ST RD DR LN CT PL SQ")

// linesFromText makes lines from a PDF text layer (no boxes; full confidence).
func LinesFromText(text string) []Line {
	var out []Line
	for _, l := range strings.Split(text, "\n") {
		l = strings.Join(strings.Fields(l), " ")
		if l != "" {
			out = append(out, Line{Text: l, Conf: 1})
		}
	}
	return out
}

// taxWords name sales taxes: GST, VAT and its European names (MwSt, USt,
// TVA, IVA, BTW, moms, ALV, DPH, FPA…), US sales tax; the patterns that
// look for a tax line share them.
const taxWords = `GST|SST|VAT|TAX|MWST|UST|TVA|IVA|BTW|MOMS|ALV|DPH|FPA|PVM|PDV|DDV|KDV|PVN`

var (
	// reAmount also takes "100. 00": OCR often puts a space after a dot.
	reAmount   = regexp.MustCompile(`-?\d{1,3}(?:[,.' ]\d{3})*[.,]\d{2}\b|-?\d+ ?[.,] ?\d{2}\b`)
	reDateNum  = regexp.MustCompile(`\b(\d{1,2}[/\-.]\d{1,2}[/\-.](?:\d{4}|\d{2})|\d{4}[/\-.]\d{1,2}[/\-.]\d{1,2})\b`)
	reDateWord = regexp.MustCompile(`(?i)\b(\d{1,2}(?:st|nd|rd|th)?[\s\-/.]*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?[\s\-/.,]*(?:\d{4}|\d{2}))\b|\b((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s*\d{1,2}(?:st|nd|rd|th)?,?\s*\d{4})\b`)
	reTime     = regexp.MustCompile(`\b([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?\s*([AaPp][Mm])?\b`)
	reRegNo    = regexp.MustCompile(`[({][^)}]*\d{3,}[^)}]*[)}]|\(\s*\d{4,}[^)]*$`)
	// rePostcodeLine is an address line with a postcode and a place: "43300 SERI KEMBANGAN".
	rePostcodeLine     = regexp.MustCompile(`(^|[\s,])\d{4,6}\s*,?\s+[A-Z]{3,}|\b(SELANGOR|JOHOR|KUALA LUMPUR|PENANG|PERAK|KEDAH|SABAH|SARAWAK|MELAKA|PAHANG|NEGERI SEMBILAN|DARUL EHSAN)\b`)
	reLongNumber       = regexp.MustCompile(`\d{4,}`)
	reStreetNumberWord = regexp.MustCompile(`^(LOT|NO\b|NO\.|UNIT)`)
	reIDWord           = regexp.MustCompile(`\b(REG|ROC|CO|COMPANY|CAMPANY|COMPARY|GST|SST|TAX|ID|NO|NA|BRN)\b`)
	rePhone            = regexp.MustCompile(`(^|[^\d/])\+?\(?\d{2,4}\)?[\s-]{1,2}\d{3,4}[\s-]?\d{3,5}\b|\b1[38]00[\s-]?\d{2}[\s-]?\d{4}\b`)
	reSlogan           = regexp.MustCompile(`FOR SHOPPING|RETURNABLE|EXCHANGEABLE|WITH ORIGINAL RECEIPT|THANK|COME AGAIN|PLEASE`)
	reOwnedBy          = regexp.MustCompile(`(?i)^\W*(OWNED|OWN|OPERATED|MANAGED)\s+BY\s*:?\s*`)
	reStrongCo         = regexp.MustCompile(`\b(SDN\.?\s*BHD|SDN|BHD|BERHAD|S/B|PTY\.?\s*LTD|PTY|LTD|LIMITED|INC|LLC|PLC|GMBH|ENTERPRISES?|TRADING|CORPORATION|CORP)\b\.?`)
	reHeading          = regexp.MustCompile(`^(TAX INVOICE|SIMPLIFIED TAX INVOICE|INVOICE|RECEIPT|OFFICIAL RECEIPT|CASH BILL|CASH SALES?|SALES RECEIPT|WELCOME.*|THANK YOU.*|COPY|DUPLICATE|ORIGINAL|CUSTOMER COPY|MERCHANT COPY)$`)
	reStopAddr         = regexp.MustCompile(`\b(` + contactWords + `|INVOICE|RECEIPT|DATE|CASHIER|DOC|DOCUMENT|BILL|TABLE|ABN|VAT|TAX|OPEN|BUSINESS HOURS|UST|US[TIL1]\W{0,2}ID\w*|STEUER\w*|MWST|TVA|IVA|BTW|NIF|CIF|SIRET|EIN)\b|@[A-Z0-9-]+\.[A-Z]`)
	reTaxWord          = regexp.MustCompile(`\b(` + taxWords + `)\b`)
	reMoney            = regexp.MustCompile(`\d[.,]\d{2}\b`)
	reStreetWord       = regexp.MustCompile(`\b(JALAN|JLN|LORONG|TAMAN|TMN|LOT|BLOCK|LEVEL|ROAD|STREET|AVENUE|KAWASAN|BANDAR|PERSIARAN)\b`)
	reAddrHint         = regexp.MustCompile(`\d|\b(JALAN|JLN|JL|LORONG|TAMAN|TMN|LOT|NO|BLOCK|BLK|LEVEL|ROAD|RD|STREET|ST|AVENUE|AVE|KAWASAN|BANDAR|PERSIARAN|SELANGOR|JOHOR|KUALA|LUMPUR|PUCHONG|MALL|PLAZA)\b`)
	reRegLine          = regexp.MustCompile(`^\(?\s*(CO\.?\s*)?(REG|ROC|COMPANY|CO)?\.?\s*(NO)?\.?\s*:?\s*[A-Z]{0,3}\d{4,}[\s-]*[A-Z]?\s*\)?$`)
	reGSTID            = regexp.MustCompile(`(?i)\b(?:GST|SST|ABN|VAT|EIN|TAX|US[tli1]\W{0,2}Id(?:Nr)?\.?|USt\.?|TVA(?:\s+intra(?:com)?\.?)?|BTW(?:-?nr)?\.?|P\.?\s?IVA)\s*(?:REG(?:ISTRATION)?\.?\s*)?(?:ID|NO|NUMBER|#)?\.?\s*[:.]?\s*([A-Z]{0,2}\s?[\dOQ@SB][\dOQ@SB\s\-]{6,18}\d)`)
	reDocNo            = regexp.MustCompile(`(?i)\b(?:INVOICE|INV|RECEIPT|RCPT|BILL|DOC(?:UMENT)?|TRANS(?:ACTION)?|ORDER|CHECK|SLIP|REF)\s*(?:NO|NUMBER|#)?\.?\s*[:#]?\s*([A-Z0-9][A-Z0-9\-/]{3,})`)
)

// totalRule is a keyword pattern for total-like lines and the weight a match gives.
type totalRule struct {
	re     *regexp.Regexp
	weight float64
	// paid marks a payment line (CASH, VISA…): what was handed over, which
	// is the total only when no change was given.
	paid bool
}

var (
	totalRules = []totalRule{
		// A final total comes after every other: "Total Sales Inclusive GST
		// 43.72 / Round Adj -0.02 / FinalTotal 43.70".
		{regexp.MustCompile(`FINAL\s*TOTAL`), 3.5, false},
		{regexp.MustCompile(`ROUND\w*\s*TOTAL|TOTAL\s*((AMOUNT|AMT)\s*)?ROUND|NET+\s*TOTAL|GRAND\s*TOTAL|TOTAL\s*(AMOUNT|AMT)?\s*(DUE|PAYABLE)|AMOUNT\s*DUE|BALANCE\s*DUE|TOTAL\s*(INCL|INCLUSIVE)|TOTAL\s*SALES\s*\(?\s*INCL|TOTAL\s*\(?\s*(RM|MYR|AUD|USD|SGD|\$)`), 3, false},
		{regexp.MustCompile(`\bTOTAL\b|\bTOTAL\s*AMOUNT|\bAMOUNT\b|\bNETT\b`), 2, false},
		{regexp.MustCompile(`\bCASH\b|\bPAID\b|\bPAYMENT\b|\bVISA\b|\bMASTER|\bCARD\b|\bEFTPOS\b|\bCREDIT\b|\bDEBIT\b`), 0.5, true},
	}
	reNotTotal   = regexp.MustCompile(`SUB\s*-?\s*TOTAL|TOTAL\s*(QTY|QUANTITY|ITEMS?|NO|DISC\w*|SAVING\w*|` + taxWords + `|EXCL\w*|POINTS?)|TOTAL\s*SALES\s*\(?\s*EXCL|CHANGE|TENDER|ROUNDING\s*ADJ|\bROUNDING\b\s*$|\bQTY\b|GST\s*SUMMARY|DISCOUNT|SAVINGS|SUPPL(Y|IES)|\bEXCL|ACCEPTED|RECEIVED|\bGROSS\b`)
	reTaxSummary = regexp.MustCompile(`(GST|SST|VAT|TAX)\s*SUM+[AE]R|TAX\s*CODE|\bCODE\b.*\bAMOUNT\b.*\b(TAX|GST)\b|^\s*AMOUNT\s*\(?RM\)?\s*TAX|\bRATE\b.*\bNET\b|\bNET\b.*\b(GST|TAX)\b.*\bTOTAL\b`)
	// "Tax Code  Taxable Amount  GST": a tax table's column headings, with
	// no amount of their own, even where the first words are misread.
	reTaxColumns = regexp.MustCompile(`\bAMOUNT\s*(\(\w+\))?\s*(GST|SST|VAT|TAX)\s*$`)
	reChange     = regexp.MustCompile(`CHANGE|BALANCE\s*$`)
	reCashLine   = regexp.MustCompile(`\bCASH\b|TENDER`)
)

// startsTaxSummary says whether a line opens a tax summary table: its title
// or its column headings (k: the line's keywordText).
func startsTaxSummary(l Line, k string) bool {
	return reTaxSummary.MatchString(k) || reTaxColumns.MatchString(k) && len(amountsIn(l.Text)) == 0
}

// keywordText is a line's letters for keyword matching: amounts removed,
// upper case, digits that OCR puts for letters mapped back (T0TAL).
func keywordText(s string) string {
	s = reAmount.ReplaceAllString(s, " ")
	s = reGluedRate.ReplaceAllString(s, "$1 $2 ")
	s = strings.ToUpper(s)
	s = reGluedSalesTax.ReplaceAllString(s, "SALES TAX")
	s = strings.Map(func(r rune) rune {
		switch r {
		case '0':
			return 'O'
		case '1', '|':
			return 'I'
		case '5':
			return 'S'
		}
		if unicode.IsLetter(r) || r == ' ' || r == '(' || r == ')' || r == '$' {
			return r
		}
		return ' '
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

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

// reGluedSalesTax is SALES TAX read as one word ("SALESTAX7% $36.92"),
// where TAX would not stand on its own.
var reGluedSalesTax = regexp.MustCompile(`\bSALESTAX`)

// reGluedRate is a tax rate printed or read against its word: "GST10%INCL.".
var reGluedRate = regexp.MustCompile(`(\pL)(\d{1,2}(?:[.,]\d+)?%)`)

// mendLineText undoes what OCR does to a line's text that no rule further
// on should see:
//   - underscores glued to a word's ends, a rule or a speck ("_USt-IdNr",
//     "__-MARKTPLATZ"), which hid the word from \b;
//   - a 5 read as S against a currency code ("EURS2,17");
//   - the 0s read as a letter O or an @ inside a rate or an amount
//     ("GST1O%", "EUR 1@,59", "12.O5"), where a word would not stand. An
//     amount needs two digits read as digits, one before its decimal mark
//     ("No.05" and "OO.OO" stay).
//
// Only the line text changes, not its words.
func mendLineText(lines []Line) []Line {
	zero := strings.NewReplacer("O", "0", "o", "0", "@", "0")
	out := make([]Line, len(lines))
	for i, l := range lines {
		t := reGluedUnderscores.ReplaceAllString(l.Text, "")
		t = reZeroInRate.ReplaceAllString(t, "${1}0$2")
		t = reFiveAfterCurrency.ReplaceAllString(t, "$1 5$2")
		t = reMoneyWithO.ReplaceAllStringFunc(t, func(m string) string {
			if countDigits(m) < 2 || !strings.ContainsAny(strings.FieldsFunc(m, func(r rune) bool { return r == '.' || r == ',' })[0], "0123456789") {
				return m
			}
			return zero.Replace(m)
		})
		l.Text = t
		out[i] = l
	}
	return out
}

var (
	// reGluedUnderscores are underscores before a word's first letter or
	// digit, or after its last.
	reGluedUnderscores = regexp.MustCompile(`(?:^|\b)_+|_+(?:\b|$)`)
	reZeroInRate       = regexp.MustCompile(`(\d)[Oo@](\s?%)`)
	// reFiveAfterCurrency is a 5 read as S against a currency code:
	// "EURS2,17" is EUR 52,17.
	reFiveAfterCurrency = regexp.MustCompile(`\b(EUR|GBP|USD|AUD|NZD|MYR|RM)S(\d|[.,]\d)`)
	// reMoneyWithO is what may be a number with two decimals, O, o or @
	// among its digits, standing apart from letters and digits.
	reMoneyWithO = regexp.MustCompile(`(?:^|[^\pL\d@])[\dOo@]+[.,][\dOo@]{2}(?:$|[^\pL\d@])`)
)

func amountsIn(s string) []decimal.Decimal {
	var out []decimal.Decimal
	for _, m := range reAmount.FindAllString(s, -1) {
		if a, err := receipt.ParseAmount(strings.ReplaceAll(m, " ", "")); err == nil {
			out = append(out, a.Value)
		}
	}
	return out
}

// ExtractFields finds a receipt's fields in its text lines by layout rules:
// supplier in the top lines (legal suffixes first), the address block below
// it, the date, totals by weighted keyword votes, tax, tax ID, document
// number, payment method and, when they add up, line items.
func ExtractFields(lines []Line, loc receipt.Locale) receipt.Receipt {
	lines = mendLineText(trimEdgeSpecks(lines))
	var r receipt.Receipt
	src := receipt.SourceOCR
	set := func(f *receipt.Text, v string, conf float64, box *receipt.Box) {
		if v != "" {
			*f = receipt.Text{Value: v, Set: true, Source: src, Confidence: clamp(conf), Box: box}
		}
	}
	boxOf := func(l Line) *receipt.Box {
		if l.Box.W == 0 && l.Box.H == 0 {
			return nil
		}
		b := l.Box
		return &b
	}

	// Supplier and address.
	coIdx, coLast, coName, coConf := findCompany(lines)
	if coIdx >= 0 {
		b := boxOf(lines[coIdx])
		if coIdx > 0 && strings.Contains(coName, lines[coIdx-1].Text) && b != nil && lines[coIdx-1].Box.W > 0 {
			u := b.Union(lines[coIdx-1].Box)
			b = &u
		}
		set(&r.SupplierName, mendFromPage(tradeNameFixes.apply(mendTradeWords(mendZeroInNameWords(coName))), lines, coIdx, coLast), coConf, b)
		if addr, conf, box := findAddress(lines, coLast); addr != "" {
			addr = mendFromPage(mendPlacePhrases(addressAbbrevFixes.apply(mendAddressWords(addr))), lines, -1, -1)
			set(&r.SupplierAddress, mendPostcode(addr, loc.Country), conf, box)
		}
	}

	// Date and time.
	d, tm, conf, box := FindDate(lines, loc)
	SetDate(&r, d, tm, conf, box)

	// Money.
	upper := make([]string, len(lines))
	for i, l := range lines {
		upper[i] = mendTaxWord(keywordText(l.Text), l.Text)
	}
	if total, conf, box := findTotal(lines, upper); total.Set {
		total.Confidence, total.Box, total.Source = clamp(conf), box, src
		r.Total = total
		lines = mendDollarReadAsDigit(lines, upper, total.Value)
	}
	var service, change *decimal.Decimal
	taxFromTotalLine := false
	for i, l := range lines {
		amts := amountsIn(l.Text)
		if len(amts) == 0 {
			continue
		}
		last := amts[len(amts)-1]
		k := upper[i]
		switch {
		case service == nil && reServiceCharge.MatchString(k):
			service = &last
		case change == nil && reChange.MatchString(k) && !strings.Contains(k, "TOTAL"):
			v := last.Abs()
			change = &v
		case !r.Subtotal.Set && reSubtotal.MatchString(k):
			r.Subtotal = receipt.Amount{Value: last, Set: true, Source: src, Confidence: clamp(l.Conf * 0.9), Box: boxOf(l)}
		case !r.Rounding.Set && strings.Contains(k, "ROUNDING") && !strings.Contains(k, "TOTAL"):
			r.Rounding = receipt.Amount{Value: last, Set: true, Source: src, Confidence: clamp(l.Conf * 0.8), Box: boxOf(l)}
		case !taxFromTotalLine && reTotalTaxLine.MatchString(k) && !strings.Contains(k, "INC") && !strings.Contains(k, "INVOICE"):
			// "TOTAL GST 2.69" sums the tax lines above it: it wins over them.
			r.TotalTax = receipt.Amount{Value: last, Set: true, Source: src, Confidence: clamp(l.Conf * 0.7), Box: boxOf(l)}
			taxFromTotalLine = true
		case !r.TotalTax.Set && reTaxWord.MatchString(k) && !reNotTaxAmount.MatchString(k):
			r.TotalTax = receipt.Amount{Value: last, Set: true, Source: src, Confidence: clamp(l.Conf * 0.7), Box: boxOf(l)}
		case !r.AmountPaid.Set && reCashLine.MatchString(k) && !reChange.MatchString(k):
			r.AmountPaid = receipt.Amount{Value: last.Abs(), Set: true, Source: src, Confidence: clamp(l.Conf * 0.7), Box: boxOf(l)}
		}
	}
	applyCashRounding(&r)
	items, sub := findLineItems(lines, upper, r)
	if sub.Set && !r.Subtotal.Set {
		r.Subtotal = sub
	}
	totalMended := false
	if items == nil {
		items = totalFromItems(&r, lines, upper, receipt.PlausibleRates(loc.Country), change)
		totalMended = items != nil
	}
	printed := r.Total
	reconcileTotal(&r, service, change, suppliesTotal(lines, upper, r.TotalTax, receipt.PlausibleRates(loc.Country)), r.Total.Set && !r.Subtotal.Set && items != nil, roundsCash(r, upper))
	if totalMended {
		// Cash less change that confirmed the mend confirms it no more
		// in reconcileTotal: the printed total still disagrees.
		r.Total.Confidence = min(r.Total.Confidence, 0.5)
	}
	if !r.Total.Set {
		if v, l, ok := subtotalAfterAdjustments(lines, upper); ok {
			r.Total = receipt.Amount{Value: v, Set: true, Source: src, Confidence: clamp(l.Conf * 0.5), Box: boxOf(l)}
		}
	}
	if !r.Total.Set {
		totalFromSubtotal(&r, receipt.PlausibleRates(loc.Country))
		applyCashRounding(&r) // "SUB TOTAL 64.00 / GST 3.84 / ROUNDING ADJ 0.01"
	}
	if !r.Total.Set {
		if v, l, ok := totalAboveRounding(lines, upper); ok {
			r.Total = receipt.Amount{Value: v, Set: true, Source: src, Confidence: clamp(l.Conf * 0.5), Box: boxOf(l)}
		}
	}
	if !r.Total.Set {
		if v, l, ok := paidWithoutChange(lines, upper); ok {
			r.Total = receipt.Amount{Value: v, Set: true, Source: src, Confidence: clamp(l.Conf * 0.4), Box: boxOf(l)}
		}
	}
	if r.TotalTax.Set && r.Total.Set && r.TotalTax.Value.GreaterThanOrEqual(r.Total.Value) {
		r.TotalTax = receipt.Amount{} // a tax-exclusive subtotal read as tax
	}

	// Identifiers.
	for _, l := range lines {
		if !r.SupplierTaxID.Set {
			if m := reGSTID.FindStringSubmatch(l.Text); m != nil {
				// Digits read as letters inside the number ("ABN 5@ 281 977 903",
				// "DES97809626").
				num := m[1]
				if len(num) > 2 && unicode.IsLetter(rune(num[0])) && unicode.IsLetter(rune(num[1])) {
					num = num[:2] + digitOf.Replace(num[2:])
				} else {
					num = digitOf.Replace(num)
				}
				read := receipt.DetectTaxID(m[0][:len(m[0])-len(m[1])]+num, loc.Country)
				id := receipt.RepairTaxID(read)
				conf := l.Conf * 0.9
				if receipt.NormalizeTaxID(id.Value) != receipt.NormalizeTaxID(read.Value) {
					// A mend the checksum allows is a guess: one digit
					// misread outside the likely pairs can pass by chance.
					// The reviewer is asked to check it.
					conf = min(conf, 0.5)
				}
				if id.Value != "" && len(id.Value) >= 8 {
					r.SupplierTaxID = receipt.Field[receipt.TaxID]{Value: id, Set: true, Source: src, Confidence: clamp(conf), Box: boxOf(l)}
				}
			}
		}
		if !r.DocumentNumber.Set {
			if m := reDocNo.FindStringSubmatch(strings.ToUpper(l.Text)); m != nil && strings.ContainsAny(m[1], "0123456789") {
				set(&r.DocumentNumber, m[1], l.Conf*0.8, boxOf(l))
			}
		}
	}

	if !r.SupplierTaxID.Set || receipt.ValidateTaxID(r.SupplierTaxID.Value) != nil {
		if id, conf, box, ok := bareVATNumber(lines); ok {
			r.SupplierTaxID = receipt.Field[receipt.TaxID]{Value: id, Set: true, Source: src, Confidence: clamp(conf), Box: box}
		}
	}

	// Currency and payment method.
	joined := strings.ToUpper(strings.Join(upper, "\n"))
	switch {
	case reRinggit.MatchString(joined) || reRMAmount.MatchString(rawUpper(lines)):
		set(&r.Currency, "MYR", 0.9, nil)
	case loc.Currency != "":
		set(&r.Currency, loc.Currency, 0.6, nil)
	}
	for _, pm := range paymentMethods {
		if pm.re.MatchString(joined) {
			set(&r.PaymentMethod, pm.name, 0.7, nil)
			break
		}
	}
	if !r.Subtotal.Set && (r.Total.Set != printed.Set || !r.Total.Value.Equal(printed.Value)) {
		items, _ = findLineItems(lines, upper, r) // they add up to the total, which changed
	}
	r.LineItems = items
	r.TaxLines, r.TaxInclusive = findTaxLines(lines, upper, r)
	mendSingleTaxLine(&r, loc.Country)
	if !r.TotalTax.Set && len(r.TaxLines) > 0 && r.Total.Set {
		r.TotalTax = receipt.Amount{Value: receipt.TaxLinesTotal(r.TaxLines), Set: true, Source: src, Confidence: r.TaxLines[0].Tax.Confidence * 0.8}
	}
	return r
}

// applyCashRounding makes the total the amount paid when the receipt rounds
// cash to 5 cents (Malaysia, Australia, New Zealand…): a "ROUNDING" line that
// carries the rounded total itself ("Rounding RM 27.30" under 27.28), or a
// small rounding adjustment that turns a total ending in 1–4 or 6–9 cents
// into one ending in 0 or 5.
func applyCashRounding(r *receipt.Receipt) {
	if !r.Total.Set || !r.Rounding.Set {
		return
	}
	t, adj := r.Total.Value, r.Rounding.Value
	fiveCent := decimal.New(5, -2)
	switch {
	case adj.GreaterThanOrEqual(decimal.NewFromInt(1)) && adj.Sub(t).Abs().LessThanOrEqual(fiveCent) && inFiveCents(adj) && !inFiveCents(t):
		r.Total.Value = adj
		r.Rounding = receipt.Amount{Value: adj.Sub(t), Set: true, Source: r.Rounding.Source, Confidence: r.Rounding.Confidence, Box: r.Rounding.Box}
	case !adj.IsZero() && adj.Abs().LessThan(fiveCent) && !inFiveCents(t) && inFiveCents(t.Add(adj)):
		r.Total.Value = t.Add(adj)
	}
}

// inFiveCents says whether an amount is in whole 5 cents, as cash rounding
// leaves it.
func inFiveCents(d decimal.Decimal) bool {
	return d.Mul(decimal.NewFromInt(100)).Mod(decimal.NewFromInt(5)).IsZero()
}

// reconcileTotal checks the total against what the page's other amounts
// imply: subtotal + tax (+ service charge), to the 5 cents when the receipt
// prints a rounding line, and cash less change. A total that one of them
// confirms (to the 5 cents of cash rounding) gains confidence. Otherwise,
// when the printed total is one digit away from an implied value (953.35
// for 153.35: the print was misread, the arithmetic of other lines was
// not), or both implied values agree on another one, the implied value is
// taken; cash less change alone does not overrule a total that the line
// items add up to (itemsConfirm).
func reconcileTotal(r *receipt.Receipt, service, change, supplies *decimal.Decimal, itemsConfirm, rounds bool) {
	var implied []decimal.Decimal
	fromCash := -1
	if supplies != nil {
		implied = append(implied, *supplies)
	}
	// A subtotal equal to the total already includes the tax.
	if r.Subtotal.Set && r.TotalTax.Set && r.TotalTax.Value.IsPositive() && !(r.Total.Set && r.Subtotal.Value.Equal(r.Total.Value)) {
		sum := r.Subtotal.Value.Add(r.TotalTax.Value)
		if service != nil && service.IsPositive() {
			sum = sum.Add(*service)
		}
		if rounds {
			sum = sum.Mul(decimal.NewFromInt(20)).Round(0).Div(decimal.NewFromInt(20))
		}
		implied = append(implied, sum)
	}
	// With no change given, cash is one more reading of the total's digits,
	// not arithmetic.
	if r.AmountPaid.Set && change != nil && change.IsPositive() && r.AmountPaid.Value.GreaterThan(*change) {
		fromCash = len(implied)
		implied = append(implied, r.AmountPaid.Value.Sub(*change))
	}
	if len(implied) == 0 {
		return
	}
	agreed := len(implied) == 2 && implied[0].Equal(implied[1])
	if !r.Total.Set {
		if agreed {
			r.Total = receipt.Amount{Value: implied[0], Set: true, Source: r.Subtotal.Source, Confidence: 0.6}
		}
		return
	}
	// Cash rounding puts the amount paid up to 2 cents from the total: cash
	// less change confirms a total to 5 cents, and so does the arithmetic
	// of a receipt that prints a rounding line. Otherwise only the exact
	// value confirms it (35.01 of supplies against a payable read as 35.04).
	fiveCents := decimal.New(5, -2)
	for i, v := range implied {
		slack := decimal.Zero
		if i == fromCash || rounds {
			slack = fiveCents
		}
		if v.Sub(r.Total.Value).Abs().LessThanOrEqual(slack) {
			r.Total.Confidence = clamp(r.Total.Confidence + 0.2)
			return
		}
	}
	for i, v := range implied {
		// Cash less change is two more readings, each of which may be the
		// misread one: it does not overrule a total the items add up to.
		if agreed || misreadOf(v, r.Total.Value) && !(i == fromCash && itemsConfirm) {
			r.Total.Value, r.Total.Confidence = v, 0.7
			return
		}
	}
}

// roundsCash says whether a receipt rounds cash to 5 cents: it prints a
// rounding line, whether or not its amount could be read ("ROUNDING) 7 2 0
// >. 001", SROIE 026 read without clean-up).
func roundsCash(r receipt.Receipt, upper []string) bool {
	if r.Rounding.Set {
		return true
	}
	for _, k := range upper {
		if strings.Contains(k, "ROUNDING") {
			return true
		}
	}
	return false
}

// subtotalAfterAdjustments finds, on a receipt whose total line could not be
// read, the last subtotal printed below a tax or rounding line: one that
// already counts them ("Total GST Amt 2.40 / Sub Total 42.40", "Rounding
// 0.02 / Subtotal 41.45") is the amount due.
func subtotalAfterAdjustments(lines []Line, upper []string) (decimal.Decimal, Line, bool) {
	var found decimal.Decimal
	var at Line
	ok, adjusted := false, false
	for i, l := range lines {
		k := upper[i]
		switch {
		case reSubtotal.MatchString(k):
			if amts := amountsIn(l.Text); adjusted && len(amts) > 0 && amts[len(amts)-1].IsPositive() {
				found, at, ok = amts[len(amts)-1], l, true
			}
		case strings.Contains(k, "ROUNDING"), // its amount may be unreadable
			reTaxWord.MatchString(k) && len(amountsIn(l.Text)) > 0 && (!reNotTaxAmount.MatchString(k) || reTotalTaxLine.MatchString(k)):
			adjusted = true
		}
	}
	return found, at, ok
}

// totalAboveRounding finds, on a receipt with no total line read and no
// subtotal, the amount a rounding adjustment is made to: the last amount
// on the line just above the rounding line ("Qty 8 19.20 / Rounding Adj
// 0.00 / Due [9.20", SROIE 279, where "Due" and its amount were misread).
// The total is that amount plus the adjustment. It is taken only when no
// amount above it is larger (a tax or discount line is not a total) and
// an adjustment leaves a total in whole 5 cents.
func totalAboveRounding(lines []Line, upper []string) (decimal.Decimal, Line, bool) {
	largest := decimal.Zero
	for i := 1; i < len(lines); i++ {
		above := amountsIn(lines[i-1].Text)
		for _, a := range above {
			largest = decimal.Max(largest, a)
		}
		k := upper[i]
		if !strings.Contains(k, "ROUNDING") || strings.Contains(k, "TOTAL") {
			continue
		}
		adj := amountsIn(lines[i].Text)
		if len(adj) == 0 || len(above) == 0 {
			return decimal.Zero, Line{}, false
		}
		k = upper[i-1]
		if reTaxWord.MatchString(k) || reChange.MatchString(k) || reCashLine.MatchString(k) || strings.Contains(k, "DISC") {
			return decimal.Zero, Line{}, false
		}
		v := above[len(above)-1]
		if v.LessThan(largest) || !v.IsPositive() {
			return decimal.Zero, Line{}, false
		}
		a := adj[len(adj)-1]
		if strings.Contains(lines[i].Text, "-") && a.IsPositive() {
			a = a.Neg()
		}
		total := v.Add(a)
		if !a.IsZero() && !inFiveCents(total) {
			return decimal.Zero, Line{}, false
		}
		return total, lines[i-1], total.IsPositive()
	}
	return decimal.Zero, Line{}, false
}

// rePaidLine is a line giving what the customer handed over.
var rePaidLine = regexp.MustCompile(`\bCASH\b|TENDER|RECEIVED|\bPAID\b`)

// paidWithoutChange finds, on a receipt with no total read at all, an
// amount paid that gave no change: "Cash Received : 4.70" with no change
// line (SROIE 265, whose two total lines were misread). The amount must
// have cents: a whole amount is as likely notes handed over whose change
// line was lost.
func paidWithoutChange(lines []Line, upper []string) (decimal.Decimal, Line, bool) {
	var paid decimal.Decimal
	var at Line
	found := false
	for i, l := range lines {
		k := upper[i]
		amts := amountsIn(l.Text)
		if reChange.MatchString(k) {
			return decimal.Zero, Line{}, false // change was given, or its amount lost
		}
		if len(amts) == 0 || found || !rePaidLine.MatchString(k) {
			continue
		}
		paid, at, found = amts[len(amts)-1], l, true
	}
	if !found || !paid.IsPositive() || paid.Equal(paid.Truncate(0)) {
		return decimal.Zero, Line{}, false
	}
	return paid, at, true
}

// totalFromSubtotal makes the total, on a receipt whose total line could
// not be read, from its subtotal and tax: the subtotal itself when its tax
// is a rate's share of it (the prices include tax, "SUBTOTAL 28.70 / INC 6%
// GST 1.62") or there is no tax, the subtotal plus tax when the tax is a
// rate of it. A tax that fits no rate leaves the total unset.
func totalFromSubtotal(r *receipt.Receipt, rates []decimal.Decimal) {
	if !r.Subtotal.Set || !r.Subtotal.Value.IsPositive() {
		return
	}
	sub := r.Subtotal.Value
	set := func(v decimal.Decimal) {
		r.Total = receipt.Amount{Value: v, Set: true, Source: r.Subtotal.Source, Confidence: clamp(r.Subtotal.Confidence * 0.5), Box: r.Subtotal.Box}
	}
	if !r.TotalTax.Set || r.TotalTax.Value.IsZero() {
		set(sub)
		return
	}
	tax := r.TotalTax.Value
	switch {
	case taxedAtARate(sub.Sub(tax), sub, rates): // the prices include the tax
		set(sub)
	case taxedAtARate(sub, sub.Add(tax), rates):
		set(sub.Add(tax))
	}
}

// suppliesTotal is what a Malaysian GST invoice's supply totals add up to:
// the zero-rated supplies and the standard-rated supplies with their tax
// ("Total 0% supplies: 26.61", "Total 6% supplies (Inc. GST): 8.40"); their
// sum is the amount payable, which a misread "Total Payable: 35.04" can be
// checked against. The supply lines are misread too, so the sum is given
// (nil otherwise) only when the page confirms its parts: every reading of
// the zero-rated total agrees (Gardenia prints it twice), and the
// standard-rated total is its tax-exclusive line plus the tax, or that line
// taxed at one of the country's rates when the tax line was misread.
func suppliesTotal(lines []Line, upper []string, tax receipt.Amount, rates []decimal.Decimal) *decimal.Decimal {
	var zero, exclusive, inclusive []decimal.Decimal
	for i, l := range lines {
		k := upper[i]
		amts := amountsIn(l.Text)
		if !strings.Contains(k, "PLIES") || len(amts) == 0 { // "SUPPLIES", also as "SWYPLIES"
			continue
		}
		last := amts[len(amts)-1]
		switch {
		case strings.Contains(k, "EXCL"):
			exclusive = append(exclusive, last)
		case strings.Contains(k, "INC"):
			inclusive = append(inclusive, last)
		default:
			zero = append(zero, last) // its rate is often misread ("O%", "@&")
		}
	}
	if len(zero) == 0 || len(inclusive) != 1 || len(exclusive) != 1 ||
		!(tax.Set && exclusive[0].Add(tax.Value).Equal(inclusive[0]) || taxedAtARate(exclusive[0], inclusive[0], rates)) {
		return nil
	}
	for _, z := range zero[1:] {
		if !z.Equal(zero[0]) {
			return nil
		}
	}
	sum := zero[0].Add(inclusive[0])
	return &sum
}

// taxedAtARate reports whether gross is net taxed at one of rates, to the
// cent either way.
func taxedAtARate(net, gross decimal.Decimal, rates []decimal.Decimal) bool {
	hundred := decimal.NewFromInt(100)
	for _, r := range rates {
		if r.IsPositive() && near(net.Mul(hundred.Add(r)).Div(hundred), gross) {
			return true
		}
	}
	return false
}

// misreadOf reports whether read is what OCR makes of v: one digit
// misread (35.04 for 35.01), or the first digit lost or read as a mark
// ("$9.54" for 59.54).
func misreadOf(v, read decimal.Decimal) bool {
	if oneDigitApart(v, read) {
		return true
	}
	x, y := v.StringFixed(2), read.StringFixed(2)
	return len(x) == len(y)+1 && x[1:] == y && x[0] >= '1' && x[0] <= '9'
}

// oneDigitApart reports whether a and b, written to the cent, differ in
// exactly one digit.
func oneDigitApart(a, b decimal.Decimal) bool {
	x, y := a.StringFixed(2), b.StringFixed(2)
	if len(x) != len(y) {
		return false
	}
	diff := 0
	for i := range len(x) {
		if x[i] != y[i] {
			diff++
		}
	}
	return diff == 1
}

func rawUpper(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.ToUpper(l.Text))
		b.WriteByte('\n')
	}
	return b.String()
}

func clamp(c float64) float64 { return min(1, max(0, c)) }

// findCompany picks the supplier line among the top of the receipt: the
// first line that reads like a name, or a line with a legal suffix (SDN BHD,
// PTY LTD…) just below it, the registered company under a logo or trading
// name. A legal name further down ("Owned by: … SDN BHD" under the shop's
// address) does not displace the shop's name. It returns the name's first
// and last line, the name and a confidence.
func findCompany(lines []Line) (int, int, string, float64) {
	top := min(len(lines), 12)
	for i := 0; i < len(lines) && i < top; i++ {
		if reDateNum.MatchString(lines[i].Text) || strings.Contains(keywordText(lines[i].Text), "TOTAL") {
			top = i
			break
		}
	}
	clean := func(s string) string {
		s = mendLowerInCapsWords(reSBBeforeRegNo.ReplaceAllString(s, "${1}S/B${2}"))
		s = reRegNo.ReplaceAllString(s, " ")
		s = reOwnedBy.ReplaceAllString(s, "")
		s = strings.Join(dropLowercaseJunk(strings.Fields(s)), " ")
		s = mendOpeningParen(reQuoteAsQuery.ReplaceAllString(fixLegalSuffix(s), "$1'$2"))
		fields := mendCutSDN(dropAfterLegalSuffix(strings.Fields(s)))
		// Drop stray marks OCR puts before and after the name: "|", "#000002".
		for len(fields) > 1 && letterCount(fields[0]) == 0 && (!HasDigit(fields[0]) || strings.HasPrefix(fields[0], "#")) {
			fields = fields[1:] // "|", "#000002"; a leading number stays: "99 SPEED MART"
		}
		for len(fields) > 1 && letterCount(fields[len(fields)-1]) == 0 && fields[len(fields)-1] != "&" {
			fields = fields[:len(fields)-1]
		}
		name := strings.Trim(strings.Join(fields, " "), " .,:;-*|_")
		// A quote mark that opens or ends the name and is never closed or
		// opened is a speck: "\"BLUE DOOR CAFE".
		if n := strings.Count(name, `"`) + strings.Count(name, "“") + strings.Count(name, "”"); n == 1 {
			name = strings.Trim(name, `"“” `)
		}
		return name
	}
	// A name that ends in "&" or "AND" goes on to the next line.
	joinNext := func(i int, name string) (int, string) {
		if i+1 < len(lines) && reContinues.MatchString(name) && !reStopAddr.MatchString(strings.ToUpper(lines[i+1].Text)) {
			return i + 1, name + " " + clean(lines[i+1].Text)
		}
		return i, name
	}
	// legalName returns the name on line i when it carries a legal suffix;
	// a bare "SDN BHD" joins the line above.
	legalName := func(i int) string {
		u := strings.ToUpper(lines[i].Text)
		if !reStrongCo.MatchString(fixLegalSuffix(u)) || isLowerCase(lines[i].Text) || isNoiseLine(lines[i]) {
			return ""
		}
		name := clean(lines[i].Text)
		rest := strings.Fields(reStrongCo.ReplaceAllString(strings.ToUpper(name), ""))
		words := 0
		for _, w := range rest {
			if letterCount(w) >= 3 {
				words++
			}
		}
		switch {
		case letterCount(strings.Join(rest, "")) < 3 && i > 0:
			name = clean(lines[i-1].Text) + " " + name
		case words <= 1 && i > 0 && isNameStart(lines[i-1]):
			// "WESTERN EASTERN" over "STATIONERY SDN. BHD": one name on two lines.
			name = clean(lines[i-1].Text) + " " + name
		}
		if letterCount(name) < 3 {
			return ""
		}
		return name
	}
	plainName := func(i int) string {
		t := clean(lines[i].Text)
		u := strings.ToUpper(t)
		if isNoiseLine(lines[i]) || letterCount(t) < 4 || isLowerCase(t) || reHeading.MatchString(keywordText(u)) ||
			reStopAddr.MatchString(u) || reSlogan.MatchString(u) || reStreetWord.MatchString(u) && !isShopName(u) || rePostcodeLine.MatchString(u) ||
			strings.ContainsAny(t, "0123456789") && letterCount(t) < len(t)/2 {
			return ""
		}
		if upperShare(t) < 0.6 && lines[i].Conf < 0.8 {
			return ""
		}
		return t
	}
	first, firstName := -1, ""
	for i := 0; i < top; i++ {
		if name := legalName(i); name != "" {
			last, full := joinNext(i, name)
			return i, last, strings.ToUpper(full), lines[i].Conf * 0.95
		}
		if name := plainName(i); name != "" {
			first, firstName = i, name
			break
		}
	}
	if first < 0 {
		return -1, -1, "", 0
	}
	for i := first + 1; i < min(top, first+3); i++ {
		if name := legalName(i); name != "" {
			last, full := joinNext(i, name)
			return i, last, strings.ToUpper(full), lines[i].Conf * 0.9
		}
	}
	last, full := joinNext(first, firstName)
	return first, last, strings.ToUpper(full), lines[first].Conf * 0.7
}

// isShopName says whether a line with a street word is a shop's name all
// the same: no number, and it ends in a trade ("MAIN STREET BAKERY").
func isShopName(u string) bool {
	f := strings.Fields(u)
	for len(f) > 1 && legalForms[strings.Trim(f[len(f)-1], ".,")] {
		f = f[:len(f)-1] // "MAIN STREET GROCER KG"
	}
	return len(f) > 0 && !HasDigit(u) && shopWords[strings.Trim(f[len(f)-1], ".,")]
}

// legalForms are the legal-form words that may end a shop's name.
var legalForms = wordSet("LTD LIMITED PTY INC LLC KG GMBH AG SARL SAS BV NV SRL SPA PLC BHD SDN CO CORP")

// mendOpeningParen restores a "(" that OCR read as a letter or bracket
// before a short bracketed word with no opening of its own:
// "GARDENIA BAKERIES TKL) SDN BHD" → "(KL)".
func mendOpeningParen(s string) string {
	fields := strings.Fields(s)
	for i, f := range fields {
		if m := reLostParen.FindStringSubmatch(f); m != nil && !strings.Contains(strings.Join(fields[:i], " "), "(") {
			fields[i] = "(" + m[1] + ")"
		}
	}
	return strings.Join(fields, " ")
}

var reLostParen = regexp.MustCompile(`^[TIl1\[{|]([A-Z]{1,3})\)$`)

// isNameStart says a line reads as the first half of a name broken over
// two lines: a few clear capital words with no digits.
func isNameStart(l Line) bool {
	words := strings.Fields(l.Text)
	u := strings.ToUpper(l.Text)
	return l.Conf >= 0.85 && len(words) >= 1 && len(words) <= 3 && !HasDigit(l.Text) && upperShare(l.Text) >= 0.9 &&
		letterCount(l.Text) >= 4 && !reHeading.MatchString(keywordText(u)) && !reStopAddr.MatchString(u) && !reSlogan.MatchString(u) && !reStrongCo.MatchString(u)
}

// dropAfterLegalSuffix ends a name at its legal suffix when what follows is
// debris or a registration number ("S/B 272500-U) (KI1)", "SDN. BHD. WP"):
// receipts print nothing else after it on the name line.
func dropAfterLegalSuffix(fields []string) []string {
	end := -1
	for i, f := range fields {
		u := strings.Trim(strings.ToUpper(f), ".,")
		if u == "BHD" || u == "BERHAD" || u == "S/B" || u == "LTD" {
			end = i
		}
	}
	if end < 0 || end == len(fields)-1 {
		return fields
	}
	for _, f := range fields[end+1:] {
		if letterCount(f) > 2 && !HasDigit(f) && !strings.ContainsAny(f, "()[]{}") {
			return fields // a real word follows: keep the line as it is
		}
	}
	return fields[:end+1]
}

// mendCutSDN mends a name whose "SDN. BHD." was cut off at the edge of the
// print and its BHD read as a speck ("BEMED (SP) SDR. a"): SDN, or SDR or
// S0N for it, followed by one last fragment of a letter or two that is no
// legal form, or nothing at all ("BEMED (SP) SDN"). SON and SUN are words
// ("& SON") and stay.
func mendCutSDN(fields []string) []string {
	n := len(fields)
	isSDN := func(core string) bool {
		return core == "SDN" || core == "SDR" || core == "S0N" || core == "5DN" || core == "SDH"
	}
	if n >= 2 {
		if last := strings.ToUpper(fields[n-1]); isSDN(strings.TrimRight(last, ".,")) {
			dot := strings.TrimPrefix(last, strings.TrimRight(last, ".,"))
			return append(fields[:n-1:n-1], "SDN"+dot, "BHD"+dot)
		}
	}
	if n < 3 {
		return fields
	}
	last, sdn := fields[n-1], strings.ToUpper(fields[n-2])
	core := strings.TrimRight(sdn, ".,")
	if !isSDN(core) {
		return fields
	}
	u := strings.ToUpper(strings.Trim(last, ".,"))
	if letterCount(last) > 2 || HasDigit(last) || legalForms[u] || u == "&" {
		return fields
	}
	dot := strings.TrimPrefix(sdn, core)
	return append(fields[:n-2:n-2], "SDN"+dot, "BHD"+dot)
}

// isNoiseLine says a line is what Tesseract makes of a logo, a stamp or
// scanner speckle: a low mean confidence, or many short fragments.
func isNoiseLine(l Line) bool {
	if l.Conf > 0 && l.Conf < 0.45 {
		return true
	}
	words := strings.Fields(l.Text)
	short := 0
	for _, w := range words {
		if letterCount(w) <= 3 && !HasDigit(w) { // numbers are content: "79 SPEED MART $/B (519837-X)"
			short++
		}
	}
	return len(words) >= 5 && short*10 >= len(words)*6 && l.Conf < 0.6 && upperShare(l.Text) < 0.8
}

// dropLowercaseJunk removes lower-case fragments before an upper-case name
// ("bee. PAGOH REST AND SERVICE AREA"): receipts print names in capitals,
// and OCR reads speckle as short lower-case words.
func dropLowercaseJunk(fields []string) []string {
	rest := strings.Join(fields, " ")
	if upperShare(rest) < 0.5 {
		return fields
	}
	for len(fields) > 1 && letterCount(fields[0]) > 0 && letterCount(fields[0]) <= 4 && isLowerCase(fields[0]) {
		fields = fields[1:]
	}
	return fields
}

func letterCount(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

func isLowerCase(s string) bool {
	letters, lower := 0, 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsLower(r) {
				lower++
			}
		}
	}
	return letters > 0 && lower == letters
}

func upperShare(s string) float64 {
	letters, up := 0, 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				up++
			}
		}
	}
	if letters == 0 {
		return 0
	}
	return float64(up) / float64(letters)
}

// findAddress collects the lines below the supplier until a phone, tax or
// document line, or a gap.
func findAddress(lines []Line, coIdx int) (string, float64, *receipt.Box) {
	var parts []string
	var box *receipt.Box
	conf := 0.0
	hints := 0
	heights := make([]int, 0, len(lines))
	for _, l := range lines {
		if l.Box.H > 0 {
			heights = append(heights, l.Box.H)
		}
	}
	lineH := median(heights)
	prevBottom := -1
	skipped, idLines, contactLines := 0, 0, 0
	if lines[coIdx].Box.H > 0 {
		prevBottom = lines[coIdx].Box.Y + lines[coIdx].Box.H
	}
	for i := coIdx + 1; i < len(lines) && len(parts) < 6; i++ {
		l := lines[i]
		u := strings.ToUpper(mendLowerInCapsWords(strings.TrimSpace(l.Text)))
		if len(parts) == 0 && idLines < 3 && isIdentifierLine(u) {
			idLines++
			prevBottom = l.Box.Y + l.Box.H
			continue // registration or tax number between the name and the street
		}
		u = cleanAddressLine(u)
		if len(parts) == 0 && contactLines < 3 && (reContactLine.MatchString(u) || rePhone.MatchString(u)) &&
			!reBodyStarts.MatchString(u) && !reMoney.MatchString(u) {
			contactLines++
			prevBottom = l.Box.Y + l.Box.H
			continue // phone and tax number printed above the address: "TEL / FAX", "GST ID NO" (SROIE 382)
		}
		if reStopAddr.MatchString(u) || reDateNum.MatchString(u) || reMoney.MatchString(u) && !reStreetWord.MatchString(u) || rePhone.MatchString(u) {
			break
		}
		if len(parts) == 0 && !reAddrHint.MatchString(u) && skipped < 2 {
			skipped++ // a branch name or slogan under the supplier: "IKEA CHERAS", "BISTRO & CAFE"
			prevBottom = l.Box.Y + l.Box.H
			continue
		}
		if lineH > 0 && prevBottom >= 0 && l.Box.H > 0 && l.Box.Y-prevBottom > 2*lineH && len(parts) > 0 {
			break
		}
		if letterCount(u) < 2 {
			if len(parts) > 0 {
				break
			}
			continue
		}
		if reAddrHint.MatchString(u) {
			hints++
		}
		parts = append(parts, strings.Trim(u, " "))
		conf += l.Conf
		if l.Box.W > 0 {
			if box == nil {
				b := l.Box
				box = &b
			} else {
				u := box.Union(l.Box)
				box = &u
			}
		}
		prevBottom = l.Box.Y + l.Box.H
		if reCountryEnd.MatchString(u) {
			break // the country ends an address: "… 56000 KUALA LUMPUR, MALAYSI." over "{0} MALL" (SROIE 196)
		}
	}
	if len(parts) == 0 || hints == 0 {
		return "", 0, nil
	}
	addr := parts[0]
	for _, p := range parts[1:] {
		if strings.HasSuffix(addr, ",") {
			addr += " " + p
		} else {
			addr += ", " + p
		}
	}
	return addr, conf / float64(len(parts)) * 0.8, box
}

// contactWords label a phone, fax, mail or tax-number line.
const contactWords = `TEL|TELEPHONE|PHONE|PH|FAX|GST|SST|REG|ROC|CO NO|COMPANY NO|MOBILE|HP|H/P|E-?MAIL|WWW|HTTP`

var (
	// reContactLine is a phone, fax, mail or tax-number line, which some
	// receipts print between the name and the address.
	reContactLine = regexp.MustCompile(`\b(` + contactWords + `)\b`)
	// reBodyStarts is a line of the receipt's body: no address follows.
	reBodyStarts = regexp.MustCompile(`\b(INVOICE|RECEIPT|DATE|CASHIER|DOC|DOCUMENT|BILL|TABLE|TERMINAL|COUNTER)\b`)
	// reAddressLabel is the label some receipts print before the address:
	// "ADD:", "ADDRESS :", "HQ ADD:" (read "H@ ADD:").
	reAddressLabel = regexp.MustCompile(`^\W*(H[QO0@]\s*|HEAD\s*OFFICE\s*)?(ADD|ADDR|ADDRESS|ALAMAT)\s*[:.;]\s*`)
)

// reCountryEnd is an address line that ends with the country's name,
// its last letter or two maybe cut off.
var reCountryEnd = regexp.MustCompile(`\b(MALAYS(IA|I)?|AUSTRALIA|SINGAPORE|UNITED KINGDOM|USA|DEUTSCHLAND|GERMANY|FRANCE)\W*$`)

// reBracketOne is a word opening with a bracket and a digit, with no
// closing bracket; the line's later words must not close it either.
var reBracketOne = regexp.MustCompile(`^[{(\[]\d[^)}\]]*$`)

// reSelangorDE is Selangor's honorific D.E. (Darul Ehsan) ending an
// address line, as OCR misreads its two small letters and dots: "DT",
// "[.€.", "OLE,", "OE.", "I.E.".
var reSelangorDE = regexp.MustCompile(`\bSELANGOR,?\s+[\[({|IDO0Q]L?[\s.,:;]*[ET€3][\s.,:;]*$`)

// reDollarNumber is a street number opening a line, its 5 read as "$".
var reDollarNumber = regexp.MustCompile(`^\W*\$\d`)

// reLetterInNumber is a letter OCR reads for a digit, between two digits.
var reLetterInNumber = regexp.MustCompile(`\d[SOIl|]\d`)

// isIdentifierLine recognises a company registration or tax number line,
// also as OCR misreads it: "Co-REG:860671-D", "Campany Reg. Na, ; 001056194X",
// "GST NO: 001329332224", "(JM0352019-K)".
func isIdentifierLine(u string) bool {
	if reRegLine.MatchString(strings.ReplaceAll(u, " ", "")) || reRegNo.MatchString(u) && letterCount(reRegNo.ReplaceAllString(u, "")) < 3 {
		return true
	}
	return reIDWord.MatchString(u) && reLongNumber.MatchString(u) && !reStreetWord.MatchString(u) ||
		reOutletCode.MatchString(u)
}

// reOutletCode is a line that numbers the outlet, not its street: "Site:
// 1046" under a petrol station's name (SROIE 064).
var reOutletCode = regexp.MustCompile(`^(SITE|STATION|STORE|BRANCH|OUTLET)\s*(NO|CODE|ID)?\.?\s*[:#]?\s*\d+\.?$`)

// cleanAddressLine drops OCR debris from an address line: marks with no
// letter or digit ("|", ":", "“") and a short fragment before the street
// number ("EE LOT R1", "| NO.19").
func cleanAddressLine(u string) string {
	// No money in an address: "$" is a misread 5 in the street number that
	// opens a line ("$4 PITT STREET"), else a misread S ("LOT $319").
	u = reAddressLabel.ReplaceAllString(u, "")
	u = reSelangorDE.ReplaceAllString(u, "SELANGOR D.E.")
	if reDollarNumber.MatchString(u) {
		u = strings.Replace(u, "$", "5", 1)
	}
	fields := strings.Fields(strings.ReplaceAll(u, "$", "S"))
	if len(fields) > 0 && len(fields[0]) > 2 {
		fields[0] = strings.TrimLeft(fields[0], "-~") // a rule's end glued on: "-MARKTPLATZ 90"
	}
	out := fields[:0]
	for i, f := range fields {
		switch {
		case f == "&" || f == "-" || f == "/":
			out = append(out, f)
		case !HasDigit(f) && letterCount(f) <= 1 && strings.ContainsAny(f, "“”\"'‘’`"):
			// a speck read as a quote and a letter: “S,
		case strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0:
			if HasDigit(f) {
				f = strings.ReplaceAll(f, "@", "0") // a blurred zero: "HOBART TAS 700@"
				// A bracket that opens a number and never closes is its 1:
				// "{06-107, LEVEL 1".
				if reBracketOne.MatchString(f) && !strings.ContainsAny(strings.Join(fields[i+1:], " "), ")}]") {
					f = "1" + f[1:]
				}
				// A letter between two digits is a misread digit: "1S58-TMN".
				f = reLetterInNumber.ReplaceAllStringFunc(f, digitOf.Replace)
			}
			out = append(out, rePostcodeMisread.ReplaceAllStringFunc(f, digitOf.Replace))
		}
	}
	if len(out) > 2 && len(out[0]) <= 2 && !HasDigit(out[0]) && reStreetNumberWord.MatchString(out[1]) {
		out = out[1:]
	}
	// A lone character after the last comma is a speck: "HULU LANGAT, 7".
	if n := len(out); n >= 3 && len([]rune(out[n-1])) == 1 && strings.HasSuffix(out[n-2], ",") {
		out = out[:n-1]
	}
	return strings.Join(out, " ")
}

// A UK postcode ends the address: an outward code (one or two letters, a
// digit, maybe one more character) and an inward code (a digit and two
// letters). Blur reads the digits as letters or brackets ("LS] 4AB",
// "LE1 SYA") and may drop the space ("LELSYA", "DE12PQ").
var reUKPostcodeEnd = regexp.MustCompile(`\b([A-Z]{1,2})([0-9\]|lIL!])([0-9A-Z]?)\s*([0-9SOQIlB])([A-Z]{2})(\W*)$`)

// reSpeckAfterPostcode is, by country, a lone digit after the postcode
// that ends an address, or in Germany after the town that follows it: a
// speck read as a digit ("BRISBANE QLD 4000 4", "04109 LEIPZIG 2",
// "YORK YO1 7HH 1").
var reSpeckAfterPostcode = map[receipt.Country]*regexp.Regexp{
	receipt.CountryAU: regexp.MustCompile(`(\b[A-Z]{2,3}\s+\d{4})\s+\d\W*$`),
	receipt.CountryUS: regexp.MustCompile(`(\b[A-Z]{2}\s+\d{5}(?:-\d{4})?)\s+\d\W*$`),
	receipt.CountryUK: regexp.MustCompile(`([A-Z]\d[0-9A-Z]?\s*\d[A-Z]{2})\s+\d\W*$`),
	receipt.CountryEU: regexp.MustCompile(`(\b\d{5}\s+[\pL\-]{3,})\s+\d\W*$`),
}

// reSpeckAfterHouseNumber is, by country, a lone digit read from a speck
// where a street's line ends: after the street word of a line that began
// with its house number ("211 CHURCH LANE 7, YORK"), or in Germany after
// the house number that follows the street ("SCHULSTRASSE 22 4, 50667").
var reSpeckAfterHouseNumber = func() map[receipt.Country]*regexp.Regexp {
	street := regexp.MustCompile(`^(\d+[A-Z]?\s+(?:[A-Z'&]+\s+)*(?:STREET|ROAD|LANE|AVENUE|DRIVE|BOULEVARD|PARADE|TERRACE|ST|RD|LN|AVE|DR|BLVD))\s+\d(\s*,)`)
	return map[receipt.Country]*regexp.Regexp{
		receipt.CountryAU: street, receipt.CountryUK: street, receipt.CountryUS: street,
		receipt.CountryEU: regexp.MustCompile(`(\pL{3,}\s+\d{1,4}[A-Z]?)\s+\d(\s*,)`),
	}
}()

// reSpeckBeforeTown is, by country, a lone digit read from a speck before
// a town line that holds nothing but the town and its postcode ("146
// STATION ROAD, 1 LEEDS LS1 4AB"): no street word, so no house number.
var reSpeckBeforeTown = func() map[receipt.Country]*regexp.Regexp {
	town := `(,\s*)\d\s+([A-Z][A-Z'\-]+(?:\s+[A-Z][A-Z'\-]+)?\s+`
	return map[receipt.Country]*regexp.Regexp{
		receipt.CountryAU: regexp.MustCompile(town + `(?:NSW|VIC|QLD|WA|SA|TAS|NT|ACT)\s+\d{4}\W*)$`),
		receipt.CountryUK: regexp.MustCompile(town + `[A-Z]{1,2}\d[0-9A-Z]?\s*\d[A-Z]{2}\W*)$`),
		receipt.CountryUS: regexp.MustCompile(town + `[A-Z]{2}\s+\d{5}(?:-\d{4})?\W*)$`),
	}
}()

// reSpeckBeforeHouseNumber is a lone digit before the house number that
// opens a British or American address ("7 172 MAIN ST"). Not in
// Australia, where "4 12 GEORGE ST" may be unit 4/12 with its slash lost.
var reSpeckBeforeHouseNumber = regexp.MustCompile(`^\d\s+(\d{1,5}[A-Z]?\s+[A-Z])`)

// reGluedHouseNumber is a house number read against its street's name
// ("8PITT STREET", "35MAIN ST"); 1ST, 2ND and 12A keep their letters.
var reGluedHouseNumber = regexp.MustCompile(`^(\d{1,5})([A-Z]{3,}\b)`)

// reDriveAsOregon is DR read as OR where no ZIP follows, so no state: "229
// LAKE OR, TOLEDO OH 43604".
var reDriveAsOregon = regexp.MustCompile(`(\b[A-Z]{2,}\s+)OR(\s*,)`)

// reGermanHouseNumber is a German street and the number after it, where
// OCR may read a digit as a letter ("MARKTPLATZ S6").
var reGermanHouseNumber = regexp.MustCompile(`(?:STRASSE|STRAßE|STR\.|PLATZ|WEG|ALLEE|GASSE|RING|DAMM)\s+[\dSOIlB]{1,4}\b`)

// reUKGluedTown is a town and its postcode read as one word ("BATHBAL1SU",
// "LEEDSLS1 4AB"). A digit must be read as one: without it, thousands of
// English words would split.
var reUKGluedTown = regexp.MustCompile(`\b([A-Z]{3,}?)([A-Z]{1,2}(?:[0-9][0-9A-Z]?\s*[0-9SOQIlB]|[\]|lIL!][0-9A-Z]?\s*[0-9])[A-Z]{2}\W*)$`)

// townPostcodes are the postcode ranges of Malaysian post towns (Pos
// Malaysia's allocation), generous where a town spans several: a range too
// narrow would "mend" a right postcode. Cheras has one in Selangor and one
// in Kuala Lumpur.
var townPostcodes = map[string][][2]int{
	"KUALA LUMPUR": {{50000, 60000}}, "PETALING JAYA": {{46000, 47999}}, "SHAH ALAM": {{40000, 40999}},
	"KLANG": {{41000, 42999}}, "SUBANG JAYA": {{47500, 47699}}, "PUCHONG": {{47100, 47199}},
	"SERI KEMBANGAN": {{43300, 43300}}, "KAJANG": {{43000, 43009}}, "SEMENYIH": {{43500, 43500}},
	"DENGKIL": {{43800, 43800}}, "RAWANG": {{48000, 48099}}, "AMPANG": {{68000, 68000}},
	"JOHOR BAHRU": {{79000, 81999}}, "SEREMBAN": {{70000, 70999}}, "IPOH": {{30000, 31999}},
	"CHERAS": {{43200, 43200}, {56000, 56199}}, "BALAKONG": {{43300, 43300}}, "BANGI": {{43600, 43699}},
	"HULU LANGAT": {{43100, 43100}}, "SEPANG": {{43900, 43900}}, "BANTING": {{42700, 42700}},
	"SUNGAI BULOH": {{47000, 47000}}, "BATU CAVES": {{68100, 68100}}, "SELAYANG": {{68100, 68100}},
	"CYBERJAYA": {{63000, 63999}}, "PUTRAJAYA": {{62000, 62999}}, "NILAI": {{71800, 71800}},
	"PLENTONG": {{81700, 81799}}, "MASAI": {{81700, 81799}}, "PASIR GUDANG": {{81700, 81799}},
	"SKUDAI": {{81300, 81399}}, "SENAI": {{81400, 81499}}, "KULAI": {{81000, 81099}},
	"ULU TIRAM": {{81800, 81899}}, "GELANG PATAH": {{81500, 81599}}, "BATU PAHAT": {{83000, 83099}},
	"MUAR": {{84000, 84099}}, "PAGOH": {{84600, 84699}}, "SEGAMAT": {{85000, 85099}}, "KLUANG": {{86000, 86099}},
	"MELAKA": {{75000, 78999}}, "GEORGE TOWN": {{10000, 11999}}, "BUTTERWORTH": {{12000, 13999}},
	"KUANTAN": {{25000, 26999}}, "KOTA BHARU": {{15000, 16999}}, "KUALA TERENGGANU": {{20000, 21999}},
	"ALOR SETAR": {{5000, 6999}}, "KOTA KINABALU": {{88000, 88999}}, "KUCHING": {{93000, 94999}},
}

// germanTownPostcodes are the postcode ranges of Germany's largest
// cities (Deutsche Post), for receipts set to EU.
var germanTownPostcodes = map[string][][2]int{
	"BERLIN": {{10115, 14199}}, "HAMBURG": {{20000, 22999}}, "MUENCHEN": {{80331, 81929}}, "MÜNCHEN": {{80331, 81929}},
	"KOELN": {{50667, 51149}}, "KÖLN": {{50667, 51149}}, "FRANKFURT": {{60306, 60599}, {65929, 65936}},
	"STUTTGART": {{70173, 70629}}, "DUESSELDORF": {{40210, 40629}}, "DÜSSELDORF": {{40210, 40629}},
	"LEIPZIG": {{4000, 4399}}, "DORTMUND": {{44135, 44388}}, "ESSEN": {{45127, 45359}}, "BREMEN": {{28000, 28999}},
	"DRESDEN": {{1000, 1399}}, "HANNOVER": {{30000, 30699}}, "NUERNBERG": {{90000, 90499}}, "NÜRNBERG": {{90000, 90499}},
}

// reTownPostcode is a postcode before a town's name; four digits are a
// German postcode that lost its leading 0 ("4109 LEIPZIG").
var reTownPostcode = regexp.MustCompile(`(^|[\s,])(\d{4,5}),?\s+(\p{Lu}[\p{Lu} ]+)`)

// reTownEnd is what may follow a town's name: a mark, or a state's name.
var reTownEnd = regexp.MustCompile(`^\s*([^A-Z\s]|(SELANGOR|JOHOR|WILAYAH|W\.?P|MALAYSIA|NEGERI|PERAK)\b)`)

// mendTownPostcode mends a postcode that cannot be its town's in towns
// ("93200 KUALA LUMPUR", "56667 KOELN"): when exactly one digit changed
// makes it one, that is the postcode printed, and four digits before a
// town whose codes start with 0 lost that 0 ("4109 LEIPZIG"). A postcode
// in range, or one that two changes would fit ("44000 PETALING JAYA":
// 46000 or 47000), stays as read.
func mendTownPostcode(addr string, towns map[string][][2]int) string {
	for _, m := range reTownPostcode.FindAllStringSubmatchIndex(addr, -1) {
		code, after := addr[m[4]:m[5]], addr[m[6]:m[7]]
		if lotNumber.MatchString(addr[:m[4]]) {
			continue // "LOT 12345": no postcode
		}
		var ranges [][2]int
		for town, rng := range towns {
			// The town's whole name, ending the address or a part of it:
			// "KLANG LAMA" is a road, not Klang.
			if rest, ok := strings.CutPrefix(after, town); ok && (rest == "" || reTownEnd.MatchString(rest)) {
				ranges = rng
				break
			}
		}
		if ranges == nil {
			continue
		}
		in := inRanges(ranges)
		if len(code) == 4 {
			// Only a code with a leading 0 lost: "4109 LEIPZIG".
			if in("0"+code) && rangesStartWithZero(ranges) {
				return addr[:m[4]] + "0" + addr[m[4]:] // the matches after it moved
			}
			continue
		}
		if fit, ok := oneDigitFit(code, in); ok {
			addr = addr[:m[4]] + fit + addr[m[5]:]
		}
	}
	return addr
}

// inRanges says whether a postcode lies in one of ranges.
func inRanges(ranges [][2]int) func(string) bool {
	return func(s string) bool {
		n, _ := strconv.Atoi(s)
		for _, r := range ranges {
			if n >= r[0] && n <= r[1] {
				return true
			}
		}
		return false
	}
}

// rangesStartWithZero says whether a town's postcodes are written with a
// leading 0 (Leipzig, 04103), which a reading may lose.
func rangesStartWithZero(ranges [][2]int) bool {
	for _, r := range ranges {
		if r[0] < 10000 {
			return true
		}
	}
	return false
}

// oneDigitFit is the code a postcode read as code stands for when it is
// not one in (a range) and exactly one changed digit makes it one.
func oneDigitFit(code string, in func(string) bool) (string, bool) {
	if in(code) {
		return "", false
	}
	fit := ""
	for i := range len(code) {
		for d := byte('0'); d <= '9'; d++ {
			if d == code[i] {
				continue
			}
			if c := code[:i] + string(d) + code[i+1:]; in(c) {
				if fit != "" && fit != c {
					return "", false // two fit: neither is known
				}
				fit = c
			}
		}
	}
	return fit, fit != ""
}

// auCityPostcodes are the postcodes of the Australian capitals' city
// localities (with their GPO boxes): a shop that prints BRISBANE QLD, not
// its suburb, is in 4000.
var auCityPostcodes = map[string][][2]int{
	"SYDNEY": {{2000, 2001}}, "MELBOURNE": {{3000, 3004}}, "BRISBANE": {{4000, 4001}}, "PERTH": {{6000, 6001}, {6831, 6850}},
	"ADELAIDE": {{5000, 5001}}, "HOBART": {{7000, 7001}}, "DARWIN": {{800, 801}}, "CANBERRA": {{2600, 2601}},
}

// auCapitals are the capital cities of Australia's states and territories.
var auCapitals = map[string]string{"NSW": "SYDNEY", "VIC": "MELBOURNE", "QLD": "BRISBANE", "WA": "PERTH", "SA": "ADELAIDE",
	"TAS": "HOBART", "NT": "DARWIN", "ACT": "CANBERRA"}

// reAUTownStatePostcode is a town's last word, its state and a postcode.
var reAUTownStatePostcode = regexp.MustCompile(`\b[A-Z]{5,9}\s+(?:NSW|VIC|QLD|WA|SA|TAS|NT|ACT)\s+\d{4}\b`)

// reAUCityPostcode is an Australian capital, its state and its postcode.
var reAUCityPostcode = regexp.MustCompile(`\b(SYDNEY|MELBOURNE|BRISBANE|PERTH|ADELAIDE|HOBART|DARWIN|CANBERRA)\s+(NSW|VIC|QLD|WA|SA|TAS|NT|ACT)\s+(\d{4})\b`)

// mendAUCityPostcode mends the postcode of a capital's city locality read
// with one digit wrong, most often a blurred 0 ("BRISBANE QLD 4900").
func mendAUCityPostcode(addr string) string {
	// A capital's name one letter off before its own state ("SYONEY NSW
	// 2000") is that capital.
	addr = reAUTownStatePostcode.ReplaceAllStringFunc(addr, func(m string) string {
		f := strings.Fields(m)
		if c := auCapitals[f[1]]; len(f[0]) == len(c) && editDistance(f[0], c, 1) == 1 {
			return c + m[len(f[0]):]
		}
		return m
	})
	m := reAUCityPostcode.FindStringSubmatchIndex(addr)
	if m == nil || auCapitals[addr[m[4]:m[5]]] != addr[m[2]:m[3]] {
		return addr
	}
	if fit, ok := oneDigitFit(addr[m[6]:m[7]], inRanges(auCityPostcodes[addr[m[2]:m[3]]])); ok {
		return addr[:m[6]] + fit + addr[m[7]:]
	}
	return addr
}

// rePercent is a rate in a label: "GST 6%", "10% Srv Chg".
var rePercent = regexp.MustCompile(`\d+(?:[.,]\d+)?\s*%`)

// reJava is JAYA misread (see mendPostcode).
var reJava = regexp.MustCompile(`\bJAVA\b`)

// reMYPostcode is a Malaysian postcode: five digits before the town's
// name ("40150 SHAH ALAM"), not a lot or house number.
var reMYPostcode = regexp.MustCompile(`(^|[\s,])(\d{4})9(\s+[A-Z]{3,})`)

// mendPostcode mends the postcode formats of countries whose postcodes
// mix letters and digits, and the blurred last zero of a Malaysian
// postcode. Malaysian delivery postcodes end in 0 (40150, 47800; a few in
// 1, 47301): one ending in 9 is a 0 read with its bowl closed (SROIE
// "40159 SHAH ALAM", "47809 PETALING JAYA").
func mendPostcode(addr string, c receipt.Country) string {
	if c == receipt.CountryMY {
		addr = mendTownPostcode(addr, townPostcodes)
		// JAYA ends many Malaysian place names (PETALING JAYA, PERMAS
		// JAYA, KELANA JAYA); JAVA, its misread, none.
		addr = reJava.ReplaceAllString(addr, "JAYA")
		all := reMYPostcode.FindAllStringSubmatchIndex(addr, -1)
		if len(all) == 0 {
			return addr
		}
		m := all[len(all)-1]
		if lotNumber.MatchString(addr[:m[3]]) {
			return addr
		}
		return addr[:m[5]] + "0" + addr[m[5]+1:]
	}
	switch c {
	case receipt.CountryEU:
		addr = mendTownPostcode(addr, germanTownPostcodes)
	case receipt.CountryAU:
		addr = mendAUCityPostcode(addr)
	}
	if re := reSpeckAfterPostcode[c]; re != nil {
		addr = re.ReplaceAllString(addr, "$1")
	}
	if re := reSpeckAfterHouseNumber[c]; re != nil {
		addr = re.ReplaceAllString(addr, "$1$2")
	}
	if re := reSpeckBeforeTown[c]; re != nil {
		addr = re.ReplaceAllString(addr, "$1$2")
	}
	if c == receipt.CountryUK || c == receipt.CountryUS {
		addr = reSpeckBeforeHouseNumber.ReplaceAllString(addr, "$1")
	}
	if c == receipt.CountryAU || c == receipt.CountryUK || c == receipt.CountryUS {
		addr = reGluedHouseNumber.ReplaceAllString(addr, "$1 $2")
	}
	if c == receipt.CountryUS {
		addr = reDriveAsOregon.ReplaceAllString(addr, "${1}DR$2")
	}
	if c == receipt.CountryEU {
		addr = reGermanHouseNumber.ReplaceAllStringFunc(addr, func(m string) string {
			sp := strings.LastIndexByte(m, ' ')
			if countDigits(m[sp+1:]) == 0 {
				return m
			}
			return m[:sp+1] + digitOf.Replace(m[sp+1:])
		})
	}
	if c != receipt.CountryUK {
		return addr
	}
	addr = reUKGluedTown.ReplaceAllString(addr, "$1 $2")
	m := reUKPostcodeEnd.FindStringSubmatchIndex(addr)
	if m == nil {
		return addr
	}
	g := func(i int) string { return addr[m[2*i]:m[2*i+1]] }
	return addr[:m[0]] + g(1) + digitOf.Replace(g(2)) + g(3) + " " + digitOf.Replace(g(4)) + g(5) + g(6)
}

// lotNumber is an address that ends with the word before a lot or house
// number: the five digits after it are no postcode.
var lotNumber = regexp.MustCompile(`\b(LOT|NO|P\.\s?T|PT|BATU|KM)\.?\s*$`)

// A five-digit postcode with its first digit read as a letter: S3000, §7100.
var (
	rePostcodeMisread = regexp.MustCompile(`^[S§OQIlB]\d{4},?$`)
)

// setDate sets a receipt's date and time as findDate found them; a zero
// date leaves the receipt as it was.
func SetDate(r *receipt.Receipt, d time.Time, tm string, conf float64, box *receipt.Box) {
	if d.IsZero() {
		return
	}
	r.Date = receipt.Field[time.Time]{Value: d, Set: true, Source: receipt.SourceOCR, Confidence: clamp(conf), Box: box}
	if tm != "" {
		r.Time = receipt.Text{Value: tm, Set: true, Source: receipt.SourceOCR, Confidence: clamp(conf)}
	}
}

// findDate returns the most plausible date on the page, preferring lines
// that say DATE.
func FindDate(lines []Line, loc receipt.Locale) (time.Time, string, float64, *receipt.Box) {
	return findDateRepairing(lines, loc, false)
}

// findDateRepairing is findDate that, with repair, also takes dates that
// cannot be as read once one common digit misreading is undone (see
// repairDate): the last resort when no date reads as printed.
func findDateRepairing(lines []Line, loc receipt.Locale, repair bool) (time.Time, string, float64, *receipt.Box) {
	type cand struct {
		d     time.Time
		t     string
		score float64
		conf  float64
		box   *receipt.Box
		// digits is how sure the date's own characters were read; other
		// marks something else on the line (see dateDigitsConf).
		digits float64
		other  bool
	}
	var cands []cand
	now := time.Now()
	for i, l := range lines {
		text := mendDateText(l.Text)
		var found []string
		found = append(found, reDateNum.FindAllString(text, -1)...)
		for _, m := range reDateWord.FindAllString(text, -1) {
			found = append(found, m)
		}
		printed := len(found)
		if repair {
			found = append(found, lostSeparatorDates(text)...)
		}
		for j, s := range found {
			pd, err := receipt.ParseDate(s, loc.DateOrder)
			repaired := j >= printed
			if err != nil || !plausibleDate(pd.Date, now) {
				if !repair {
					continue
				}
				if repaired {
					continue
				}
				if pd, repaired = repairDate(s, loc, now); !repaired {
					continue
				}
			}
			score := 1.0
			k := strings.ToUpper(l.Text)
			if strings.Contains(k, "DATE") || strings.Contains(k, "TARIKH") {
				score += 2
			}
			if reNotIssueDate.MatchString(k) {
				score -= 1.5
			}
			if pd.Ambiguous {
				score -= 0.1
			}
			score -= float64(i) * 0.01 // earlier wins ties
			t := ""
			if m := reTime.FindStringSubmatch(text); m != nil {
				if p2, err := receipt.ParseDate(pd.Date.Format("2006-01-02")+" "+m[0], loc.DateOrder); err == nil {
					t = p2.Time
					// The sale is stamped with its time; registration,
					// expiry and invoice-reference dates are not.
					score += 0.5
				}
			}
			b := l.Box
			conf := l.Conf * 0.9
			if pd.Ambiguous {
				conf *= 0.8
			}
			if repaired {
				conf *= 0.6
				score -= 10 // any date read as printed wins
			}
			cands = append(cands, cand{pd.Date, t, score, conf, &b, DateDigitsConf(l), repaired || reNotIssueDate.MatchString(k)})
		}
	}
	if len(cands) == 0 {
		return time.Time{}, "", 0, nil
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	c := cands[0]
	// A receipt that prints its date twice, read two ways one part apart
	// ("Date: 19/02/2017" at 50%, "19/09/2017 11:09" at 65%): one was
	// misread, and the surer reading is taken.
	for _, o := range cands[1:] {
		if !o.other && !c.other && OneDatePartApart(o.d, c.d) && o.digits >= c.digits+0.1 {
			if o.t == "" {
				o.t = c.t
			}
			c = o
			break
		}
	}
	if c.box.W == 0 {
		c.box = nil
	}
	return c.d, c.t, c.conf, c.box
}

// repairedDate is findDateRepairing's last resort tried on each reading in
// turn: the lines as last read, then the page's own, for a date line that
// read worse alone than on the page ("Date: 23.94.24" there, garbled when
// read again).
func RepairedDate(loc receipt.Locale, readings ...[]Line) (time.Time, string, float64, *receipt.Box) {
	for _, ls := range readings {
		if d, tm, conf, box := findDateRepairing(ls, loc, true); !d.IsZero() {
			return d, tm, conf, box
		}
	}
	return time.Time{}, "", 0, nil
}

func plausibleDate(d time.Time, now time.Time) bool {
	return d.Year() >= 1990 && !d.After(now.AddDate(1, 0, 0))
}

// dateDigitMisreads are the digits blur turns a 0 into (its closed bowl read
// as 6, 8 or 9) and a 1 into 7.
var dateDigitMisreads = map[byte]byte{'6': '0', '8': '0', '9': '0', '7': '1'}

// repairDate mends a date that cannot be as read (day 64, month 18, year
// 2625) by undoing one common digit misreading, when exactly one such
// change gives a plausible date.
func repairDate(s string, loc receipt.Locale, now time.Time) (receipt.ParsedDate, bool) {
	var found receipt.ParsedDate
	n := 0
	for i := 0; i < len(s); i++ {
		to, ok := dateDigitMisreads[s[i]]
		if !ok {
			continue
		}
		t := s[:i] + string(to) + s[i+1:]
		pd, err := receipt.ParseDate(t, loc.DateOrder)
		if err != nil || !plausibleDate(pd.Date, now) {
			continue
		}
		if n == 0 || !pd.Date.Equal(found.Date) {
			n++
		}
		found = pd
	}
	return found, n == 1
}

// reLostSeparator is a date with its thin separators lost: "27/03/2018"
// read alone as "2703/2018" or "27032018" (SROIE 076). Only four-digit
// years count: without the year's shape, digits are an invoice or phone
// number as often as a date. It is a last resort (findDateRepairing).
var reLostSeparator = regexp.MustCompile(`\b(\d{2})([/\-.]?)(\d{2})([/\-.]?)((?:19|20)\d{2})\b`)

// lostSeparatorDates gives back the dates in s that lost one separator or
// both, with them put back ("2703/2018" → "27/03/2018").
func lostSeparatorDates(s string) []string {
	var out []string
	for _, g := range reLostSeparator.FindAllStringSubmatch(s, -1) {
		sep := g[2] + g[4]
		switch len(sep) {
		case 0:
			sep = "/"
		case 2:
			continue // printed whole: reDateNum has it
		}
		out = append(out, g[1]+sep+g[3]+sep+g[5])
	}
	return out
}

var (
	// reDateShaped is three groups of digit-like characters with date
	// separators, a dash maybe read as a tilde: "OS~-05-17", "OS~05-17",
	// "Q1-Nov-2017", "14/dun/2017".
	reDateShaped = regexp.MustCompile(`(^|[^0-9A-Za-z])([0-9OQDSIlBZ|~]{1,4})([/\-.~])([0-9A-Za-z~]{1,4})([/\-.~])([0-9OQDSIlBZ]{2,4})`)
	// reCompactDate is a date without separators next to a time: "25032018 13:11:54".
	reCompactDate = regexp.MustCompile(`\b(\d{2})(\d{2})((?:19|20)\d{2})(\s+\d{1,2}:\d{2})`)
	reISOCompact  = regexp.MustCompile(`\b((?:19|20)\d{2})(\d{2})(\d{2})(\s+\d{1,2}:\d{2})`)
	// digitOf maps the letters and marks OCR reads for digits back to
	// digits, and drops the ~ it puts among them. Callers apply it only
	// where a pattern says digits belong (a date group, a postcode, the
	// number after a tax label), so the superset is safe everywhere.
	digitOf = strings.NewReplacer("O", "0", "Q", "0", "D", "0", "@", "0", "S", "5", "§", "5", "I", "1", "l", "1", "L", "1",
		"|", "1", "]", "1", "!", "1", "B", "8", "Z", "2", "~", "")
	monthAbbrevs = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}
)

// mendDateText undoes the OCR misreadings that hide a date: letters for
// digits inside a date-shaped group (O/Q/D→0, S→5, I/l/|→1, B→8, Z→2), a
// month name one letter off ("dun" → JUN), "_" glued to the time, and the
// separators a compact date leaves out. The date is still parsed and
// validated afterwards; this only lets a candidate be seen.
func mendDateText(s string) string {
	s = strings.ReplaceAll(s, "_", " ")
	s = reDateShaped.ReplaceAllStringFunc(s, func(m string) string {
		g := reDateShaped.FindStringSubmatch(m)
		day, month, year := g[2], g[4], g[6]
		if strings.Count(m, "")-1 < 6 || countDigits(day+month+year) < 3 {
			return m
		}
		if letterCount(month) >= 3 {
			if fixed := nearestMonth(month); fixed != "" {
				month = fixed
			}
		} else {
			month = digitOf.Replace(month)
		}
		// A dash read as a tilde: "OS~05-17" is 05-05-17.
		sep1, sep2 := g[3], g[5]
		switch {
		case sep1 == "~" && sep2 == "~":
			return m
		case sep1 == "~":
			sep1 = sep2
		case sep2 == "~":
			sep2 = sep1
		}
		return g[1] + digitOf.Replace(day) + sep1 + month + sep2 + digitOf.Replace(year)
	})
	s = reCompactDate.ReplaceAllString(s, "$1/$2/$3$4")
	return reISOCompact.ReplaceAllString(s, "$1-$2-$3$4")
}

func countDigits(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}

// nearestMonth returns the month abbreviation a three-letter word is, or is
// one letter away from when only one month is; "" otherwise.
func nearestMonth(w string) string {
	w = strings.ToUpper(w)
	if len(w) != 3 {
		return ""
	}
	found := ""
	for _, m := range monthAbbrevs {
		diff := hamming(w, m, 1)
		if diff == 0 {
			return m
		}
		if diff == 1 {
			if found != "" {
				return ""
			}
			found = m
		}
	}
	return found
}

// Patterns the field finders use per line, compiled once.
var (
	reSubtotal = regexp.MustCompile(`SUB\s*-?\s*TOTAL`)
	// "KING?S": OCR reads an apostrophe between letters as a question mark.
	reQuoteAsQuery  = regexp.MustCompile(`(\pL)\?(\pL)`)
	reServiceCharge = regexp.MustCompile(`SERVICE\s*(CHARGE|CHG|TAX)|\bSVC\s*(CHG|CHARGE)|\bS/C\b`)
	// "TOTAL GST 8.68", "Total GST Amt : 2.40": the tax, not a total.
	reTotalTaxLine = regexp.MustCompile(`^\W*TOTAL\s*(` + taxWords + `|SALES\s+TAX)\b`)
	reNotTaxAmount = regexp.MustCompile(`\bID\b|REG|\bNO\b|TOTAL|EXCL|SUMMARY|INVOICE|AMOUNT\s*\(`)
	reRinggit      = regexp.MustCompile(`\bRM\b|\bMYR\b|RINGGIT`)
	reRMAmount     = regexp.MustCompile(`\bRM\s?\d`)
	reContinues    = regexp.MustCompile(`(&|\bAND)$`)
	reNotIssueDate = regexp.MustCompile(`EXP|VALID|BEST BEFORE|DUE`)
	reItemsEnd     = regexp.MustCompile(`\b(` + taxWords + `|CASH|CARD|CHANGE|DUE|BALANCE|PAYABLE|TENDERED)\b|ROUNDING`)
	reItemsHeader  = regexp.MustCompile(`\b(QTY|DESC|DESCRIPTION|ITEM|PRICE|AMOUNT|AMT)\b`)
	paymentMethods = []struct {
		re   *regexp.Regexp
		name string
	}{
		{regexp.MustCompile(`\bVISA\b`), "card (Visa)"}, {regexp.MustCompile(`\bMASTER\s*CARD|\bMASTERCARD\b`), "card (Mastercard)"},
		{regexp.MustCompile(`\bAMEX\b`), "card (Amex)"}, {regexp.MustCompile(`\bEFTPOS\b|\bDEBIT\b`), "card (debit)"},
		{regexp.MustCompile(`\bCREDIT\s*CARD\b`), "card"}, {regexp.MustCompile(`\bCASH\b`), "cash"},
	}
)

// findTotal votes for the total: every total-like line gives its amount a
// weight by keyword (rounded/grand/net totals most), cash less change adds
// to its value, and the heaviest value wins.
func findTotal(lines []Line, upper []string) (receipt.Amount, float64, *receipt.Box) {
	type vote struct {
		value  decimal.Decimal
		weight float64
		conf   float64
		box    receipt.Box
	}
	votes := map[string]*vote{}
	add := func(value decimal.Decimal, w, conf float64, box receipt.Box) {
		if !value.IsPositive() {
			return
		}
		k := value.StringFixed(2)
		if votes[k] == nil {
			votes[k] = &vote{value: value, box: box}
		}
		// The strongest keyword counts in full, each further mention a little:
		// repetition confirms a value but must not outvote a "TOTAL PAYABLE".
		v := votes[k]
		v.weight = max(v.weight, w) + min(v.weight, w)*0.25
		v.conf = max(v.conf, conf)
		if w >= 2 || v.box.W == 0 {
			v.box = box
		}
	}
	var cash, change, notes *decimal.Decimal
	var lostPoint, paid []vote
	inSummary, changeLost := false, false
	for i, l := range lines {
		k := upper[i]
		// A tax summary table ("GST SUMMARY", "TAX CODE  AMOUNT  TAX") ends
		// with a TOTAL row of net and tax: not the receipt's total.
		if startsTaxSummary(l, k) {
			inSummary = true
		}
		amts := amountsIn(l.Text)
		amtLine := l
		if len(amts) == 0 && !HasDigit(rePercent.ReplaceAllString(l.Text, "")) && i+1 < len(lines) && letterCount(reAmount.ReplaceAllString(lines[i+1].Text, "")) <= 3 {
			// The amount printed under its label; a row of several
			// amounts is a table's ("T @ 6% 5.42 0.33"). A label with
			// digits had its amount, garbled ("CASH Zz. .00"): what is
			// under it is another line's.
			if under := amountsIn(lines[i+1].Text); len(under) == 1 {
				amts, amtLine = under, lines[i+1]
			}
		}
		if len(amts) == 0 {
			if reChange.MatchString(k) && !strings.Contains(k, "TOTAL") && !HasDigit(l.Text) {
				changeLost = true // "CHANGE Yh"; "CHANGE o.00" is a misread 0.00
			}
			if m := reWholeNotes.FindStringSubmatch(l.Text); m != nil && notes == nil && reCashLine.MatchString(k) && !reChange.MatchString(k) {
				v, _ := decimal.NewFromString(m[1])
				notes = &v
			}
			if m := reLostPoint.FindStringSubmatch(l.Text); m != nil && !reNotTotal.MatchString(k) && !inSummary {
				for _, rule := range totalRules {
					if rule.re.MatchString(k) {
						n, _ := decimal.NewFromString(strings.TrimSpace(m[1]) + m[2])
						lostPoint = append(lostPoint, vote{value: n.Shift(-2), weight: rule.weight, conf: l.Conf, box: l.Box})
						break
					}
				}
			}
			continue
		}
		last := amts[len(amts)-1]
		// Cash handed over and change given are amounts, whatever sign a
		// receipt prints them with ("Cash -50.00").
		if reChange.MatchString(k) && !strings.Contains(k, "TOTAL") {
			v := last.Abs()
			change = &v
			continue
		}
		if reCashLine.MatchString(k) && cash == nil {
			v := last.Abs()
			cash = &v
		}
		if reNotTotal.MatchString(k) || inSummary {
			continue
		}
		for _, rule := range totalRules {
			if rule.re.MatchString(k) {
				if rule.paid {
					paid = append(paid, vote{value: last, weight: rule.weight, conf: amtLine.Conf, box: amtLine.Box})
					if cash == nil { // "Payment 20.00 / Change Due 2.80"
						v := last.Abs()
						cash = &v
					}
				} else {
					add(last, rule.weight, amtLine.Conf, amtLine.Box)
				}
				break
			}
		}
	}
	// An amount paid is one more reading of the total, unless change was
	// given, whether its amount was read or not ("Cash 100.00 / CHANGE Yh").
	for _, v := range paid {
		if !changeLost && (change == nil || !change.IsPositive()) {
			add(v.value, v.weight, v.conf, v.box)
		}
	}
	if cash != nil && change != nil && !change.IsNegative() && cash.GreaterThan(*change) {
		add(cash.Sub(*change), 1.5, 0.8, receipt.Box{})
	}
	// A total whose decimal point was lost ("GRAND TOTAL 1000") counts
	// when the page prints the amount it stands for elsewhere ("SUB TOTAL
	// 10.00").
	for _, v := range lostPoint {
		if printedOn(lines, func(i int) bool { return lines[i].Box == v.box }, v.value.Equal) {
			add(v.value, v.weight*0.8, v.conf*0.8, v.box)
		}
	}
	// Whole notes less change, when nothing else was read, counts only as a
	// reading of an amount the page prints to within a digit: the subtotal
	// "28.10" for 100 less 71.30.
	if len(votes) == 0 && cash == nil && notes != nil && change != nil && notes.GreaterThan(*change) {
		v := notes.Sub(*change)
		payment := func(i int) bool { return reCashLine.MatchString(upper[i]) || reChange.MatchString(upper[i]) }
		if printedOn(lines, payment, func(a decimal.Decimal) bool { return a.Equal(v) || oneDigitApart(a, v) }) {
			add(v, 1.5, 0.6, receipt.Box{})
		}
	}
	var best *vote
	for _, v := range votes {
		if best == nil || v.weight > best.weight || v.weight == best.weight && v.value.GreaterThan(best.value) {
			best = v
		}
	}
	if best == nil {
		return receipt.Amount{}, 0, nil
	}
	conf := best.conf * min(1, 0.55+best.weight/8)
	var box *receipt.Box
	if best.box.W > 0 {
		b := best.box
		box = &b
	}
	return receipt.Amount{Value: best.value, Set: true}, conf, box
}

// reLostPoint is a line ending in a bare number of three to six digits, or
// in digits and two more after a space: an amount whose decimal point the
// print or the OCR lost ("GRAND TOTAL 1000", "FinalTotal 43 70").
var reLostPoint = regexp.MustCompile(`(?:^|\s)(\d{1,4}\s?)(\d{2})\s*$`)

// reWholeNotes is a cash line's amount read without its cents, or with
// them garbled: notes handed over ("RM CASH 100 0G", "CASH 50"). It counts
// only against a change line, as cash less change, and only where no
// total was read.
var reWholeNotes = regexp.MustCompile(`(?:^|[\s:])(?:RM|\$)?(\d{1,3})(?:\s*[.,]?\s*[0OoGCDQU]{1,2})?\s*$`)

// printedOn says whether a line that skip does not pass over prints an
// amount that match takes.
func printedOn(lines []Line, skip func(i int) bool, match func(decimal.Decimal) bool) bool {
	for i, l := range lines {
		if skip(i) {
			continue
		}
		for _, a := range amountsIn(l.Text) {
			if match(a) {
				return true
			}
		}
	}
	return false
}

// legalSuffixFixes undo the OCR misreadings of Malaysian legal suffixes
// that the shapes of the letters make likely: SDN read as SON, SDR or SIN,
// BHD as EHD, BHO or BLD, S/B as 5/B, 5/8 or $/D, (M) as (H).
var legalSuffixFixes = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\b(S[O0D]N|SDR|5DN|SUN|SIN|\$DN)(\.?\s*)(BHD|EHD|BED|BILD|BHO|8HD|BND|B\.H\.D|AVO)\b`), "SDN${2}BHD"},
	{regexp.MustCompile(`\bSDN(\.?\s*)([BE8][HLIN1|][DO0Q]|BED|BILD|AVO)\b`), "SDN${1}BHD"},
	{regexp.MustCompile(`(\s)[S5$§][/|][B8RD]\b`), "${1}S/B"},
	// "(M)", for Malaysia, before SDN BHD: "(H) SDN BHD", "(4) SDN BHD".
	{regexp.MustCompile(`\((H|N|4|IM|HM|NM|RM)\)(\s*SDN)`), "(M)${2}"},
	// "(KL)", for Kuala Lumpur, likewise: KI is no region.
	{regexp.MustCompile(`\(K[I1|]\.?\)(\s*SDN)`), "(KL)${1}"},
	{regexp.MustCompile(`\bPT[VY¥]([.,]?\s*)L[I1lT]D\b`), "PTY${1}LTD"},
	{regexp.MustCompile(`(\pL\s+)L[I1]D(\.?)$`), "${1}LTD${2}"}, // a name's last word
	{regexp.MustCompile(`¥`), "Y"},
}

// reSBBeforeRegNo is S/B as OCR misreads it right before the registration
// number, where nothing else is printed: also 9/2 ("99 SPEED MART 9/2
// (519837-X)").
var reSBBeforeRegNo = regexp.MustCompile(`(\s)[S5$9][/|][B8R2](\s*\(\s*\d)`)

func fixLegalSuffix(s string) string {
	u := strings.ToUpper(s)
	for _, f := range legalSuffixFixes {
		u = f.re.ReplaceAllString(u, f.with)
	}
	if u == strings.ToUpper(s) {
		return s
	}
	return u
}

func HasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// median is used by the layout rules for typical line heights.
func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return s[len(s)/2]
}

// DateDigitsConf is the least confidence of a line's date-shaped words
// ("20/06/2018", "05-06-2015"), or 1 when it has none.
func DateDigitsConf(l Line) float64 {
	c := 1.0
	for _, w := range l.Words {
		if reDateShaped.MatchString(w.Text) {
			c = min(c, w.Conf)
		}
	}
	return c
}

// OneDatePartApart reports whether two dates differ in exactly one of day,
// month and year: a second reading mends one misread part. One that
// changes more read something else, such as "07/29/25" for 07/09/25, which
// only parses with day and month swapped.
func OneDatePartApart(a, b time.Time) bool {
	n := 0
	if a.Day() != b.Day() {
		n++
	}
	if a.Month() != b.Month() {
		n++
	}
	if a.Year() != b.Year() {
		n++
	}
	return n == 1
}

// MayHideDate chooses the lines read again when a page gave no date: those
// shaped like a date, and those read as garble.
func MayHideDate(l Line) bool {
	return dateShaped(l) || l.Conf < garbledLineConf && len(strings.TrimSpace(l.Text)) >= 4
}

// dateShaped says whether a line may hold a date the page reading garbled.
func dateShaped(l Line) bool {
	u := strings.ToUpper(l.Text)
	return reDateShaped.MatchString(l.Text) || reTime.MatchString(l.Text) ||
		strings.Contains(u, "DATE") || strings.Contains(u, "TARIKH")
}

// garbledLineConf is the confidence under which a page line is taken as
// garbled: on SROIE 076 the line "27/03/2018 No : CS-20243", printed just
// above a dashed rule, was read as "ne?! )| eso." (19%).
const garbledLineConf = 0.5
