package fields

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// Line is one text line of a page: its words, their union box and mean confidence.
type Line struct {
	Text  string
	Box   receipt.Box
	Conf  float64
	Words []inference.Word
	// Cells are the line's parts that a wide gap sets apart (the columns
	// of a letterhead, a meta block or a table), where the page's layout
	// is known without words: a PDF's text layer, in character columns.
	Cells []Cell
}

// Cell is a run of a line's words with a wide gap on either side: one
// column's part of the line. X0 and X1 are where it starts and ends, in
// the units of the line's words (pixels, or character columns for a
// text layer).
type Cell struct {
	Text   string
	X0, X1 float64
}

// AsOneLine is words made one line, whatever lines they were read on (a
// reader may split what was cut out as one line); the words are copied.
func AsOneLine(words []inference.Word) Line {
	one := append([]inference.Word(nil), words...)
	for i := range one {
		one[i].Line = 0
	}
	return GroupLines(one)[0]
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
	return joinSplitRows(lines)
}

// splitRowReach is how far apart, in line heights, a label's and its
// amount's centres may lie across the page and be one row a reader split:
// a reader puts two regions on one row where their middles share most of
// their height (centres a third of a height apart); the next row lies a
// whole height or more away.
const splitRowReach = 0.75

// joinSplitRows puts back on one line a label and its amount that a
// photo's tilt or curl set on two, one just above the other: an amount
// alone on its line, to the right of a line of words without an amount,
// their centres less than splitRowReach of a line's height apart ("-0.03"
// over "Rounding", "50.00" over "Cash" on a receipt curled across). Of
// two pairs that share a line, the closer is joined.
func joinSplitRows(lines []Line) []Line {
	type pair struct {
		label, amount int
		apart         float64
	}
	var pairs []pair
	for i := 0; i+1 < len(lines); i++ {
		for _, p := range [][2]int{{i, i + 1}, {i + 1, i}} {
			label, amount := lines[p[0]], lines[p[1]]
			if len(amountsIn(label.Text)) > 0 || letterCount(label.Text) < 3 ||
				len(amountsIn(amount.Text)) != 1 || !reAmountOnly.MatchString(strings.TrimSpace(amount.Text)) ||
				amount.Box.X < label.Box.X+label.Box.W {
				continue
			}
			h := float64(max(label.Box.H, amount.Box.H))
			apart := math.Abs(float64(2*label.Box.Y+label.Box.H-2*amount.Box.Y-amount.Box.H)) / 2
			if h > 0 && apart < splitRowReach*h {
				pairs = append(pairs, pair{p[0], p[1], apart / h})
			}
		}
	}
	if len(pairs) == 0 {
		return lines
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(a.apart, b.apart) })
	joined := make([]bool, len(lines))
	for _, p := range pairs {
		if joined[p.label] || joined[p.amount] {
			continue
		}
		joined[p.label], joined[p.amount] = true, true
		words := append(slices.Clone(lines[p.label].Words), lines[p.amount].Words...)
		for i := range words {
			words[i].Line = lines[p.label].Words[0].Line
		}
		slices.SortStableFunc(words, func(a, b inference.Word) int { return cmp.Compare(a.Box.X, b.Box.X) })
		lines[p.label] = GroupLines(words)[0]
		lines[p.amount] = Line{}
	}
	return slices.DeleteFunc(lines, func(l Line) bool { return len(l.Words) == 0 })
}

// trimEdgeSpecks drops the specks OCR reads at the ends of a line, where a
// photo's table edge, a fold or a tear meets the text: a word of one or two
// characters, or of marks alone, read with little confidence ("SUNRISE
// PRINTING E", "| HAUPTSTRASSE 7 |"), or a letter or mark standing far off
// the rest of the line however confident ("SUNRISE BAKERY LLC      A"),
// unless it is a label ("TVA      HT", a VAT table's heading) or a legal
// form ("PAPERIKAUPPA VIRTANEN   AY"). Far off means against the line's
// own spacing too, on a line without money (an item line's columns are
// far apart): a heading set wide keeps its initials and short words ("C
// W  KHOO HARDWARE", "SAM  SAM  TRADING CO").
func trimEdgeSpecks(lines []Line) []Line {
	// After SELANGOR a short last word is its honorific, D.E. (Darul
	// Ehsan), however misread ("Selangor Dt"): see reSelangorDE.
	selangorDE := func(before, last inference.Word) bool {
		return reSelangorDE.MatchString(strings.ToUpper(before.Text + " " + last.Text))
	}
	spacing := 0 // the line's usual gap between words, its edges left out
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
		return n <= 2 && !HasDigit(w.Text) && height > 0 && gap > height*3/2 && (money || gap > 2*spacing) && !packs.IsLabelWord(w.Text) && !packs.IsLegalFormWord(w.Text) && !surelyAWord(w)
	}
	gapBetween := func(a, b inference.Word) int { return b.Box.X - (a.Box.X + a.Box.W) }
	out := make([]Line, 0, len(lines))
	for _, l := range lines {
		ws := l.Words
		money := reMoney.MatchString(l.Text)
		spacing = innerSpacing(ws, gapBetween)
		if len(ws) == 3 && len([]rune(ws[2].Text)) > 2 {
			spacing = gapBetween(ws[1], ws[2])
		}
		for len(ws) > 1 && speck(ws[0], ws[1], gapBetween(ws[0], ws[1]), l.Box.H, money) {
			ws = ws[1:]
		}
		spacing = innerSpacing(ws, gapBetween)
		if len(ws) == 3 && len([]rune(ws[0].Text)) > 2 {
			spacing = gapBetween(ws[0], ws[1])
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

// surelyAWord says whether two letters far off a line's end were read as
// a word, not a speck: read surely, and not all strokes a speck or the
// page's edge reads as ("COASTLINE GAS   GO", its & unread).
func surelyAWord(w inference.Word) bool {
	return w.Conf >= 0.95 && len([]rune(w.Text)) == 2 && strings.IndexFunc(w.Text, func(r rune) bool {
		return unicode.IsLetter(r) && !strings.ContainsRune("IiLlJjTtrf", r)
	}) >= 0 && strings.IndexFunc(w.Text, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}

// innerSpacing is the median gap between a line's words, the gaps at its
// two ends left out (they are the ones in question); 0 when the line has
// fewer than four words. On a line of three, trimEdgeSpecks measures one
// end's gap against the other's, where that end is a word ("GENERAL POOR
// S", the apostrophe lost: the S stands as far off as POOR does).
func innerSpacing(ws []inference.Word, gap func(a, b inference.Word) int) int {
	if len(ws) < 4 {
		return 0
	}
	var gaps []int
	for i := 2; i < len(ws)-1; i++ {
		gaps = append(gaps, gap(ws[i-1], ws[i]))
	}
	sort.Ints(gaps)
	return gaps[len(gaps)/2]
}

// shortWords are one- and two-letter words that are no specks.
var shortWords = wordSet("NO LO KG JL BT PT SS US UK AU & A I OF AT ON TO BY IN ST RD DR LN CT PL SQ")

// LinesFromText makes lines from a PDF text layer (no boxes; full confidence).
func LinesFromText(text string) []Line {
	var out []Line
	for _, raw := range strings.Split(text, "\n") {
		l := strings.Join(strings.Fields(raw), " ")
		if l != "" {
			out = append(out, Line{Text: l, Conf: 1, Cells: layoutCells(raw)})
		}
	}
	return out
}

// fromTextLayer reports lines that LinesFromText made from a PDF's text
// layer: their letters are as printed.
func fromTextLayer(lines []Line) bool { return len(lines) > 0 && lines[0].Cells != nil }

// layoutCells cuts a text layer's line, laid out in character columns
// (pdftotext -layout), at gaps of three spaces or more: a word gap inside
// a phrase is one space, a column gap several.
func layoutCells(raw string) []Cell {
	var cells []Cell
	runes := []rune(strings.ReplaceAll(raw, "\t", "    "))
	start, spaces := -1, 0
	flush := func(end int) {
		if start >= 0 {
			cells = append(cells, Cell{Text: strings.Join(strings.Fields(string(runes[start:end])), " "), X0: float64(start), X1: float64(end)})
		}
		start = -1
	}
	for i, r := range runes {
		if r == ' ' {
			spaces++
			if spaces == 3 {
				flush(i - 2)
			}
			continue
		}
		if start < 0 {
			start = i
		}
		spaces = 0
	}
	end := len(runes)
	for end > 0 && runes[end-1] == ' ' {
		end--
	}
	flush(end)
	return cells
}

// taxWords name sales taxes, as a pattern's alternatives: GST, VAT and
// its European names (MwSt, USt, TVA, IVA, BTW, moms, ALV, DPH, FPA…), US
// sales tax, and every one-word tax word of the built-in packs (Canada's
// HST, PST, QST, TPS and TVQ; the Canaries' IGIC); the patterns that look
// for a tax line share them.
var taxWords = func() string {
	words := strings.Split(`GST|SST|VAT|TAX|MWST|UST|TVA|IVA|BTW|MOMS|ALV|DPH|FPA|PVM|PDV|DDV|KDV|PVN`, "|")
	for _, pk := range packs.All() {
		for _, w := range pk.TaxWords {
			if f := packs.Words(w); len(f) == 1 && !slices.Contains(words, f[0]) {
				words = append(words, f[0])
			}
		}
	}
	return strings.Join(words, "|")
}()

var (
	// reAmount also takes "100. 00": OCR often puts a space after a dot.
	reAmount   = regexp.MustCompile(`-?\d{1,3}(?:[,.' ]\d{3})*[.,]\d{2}\b|-?\d+ ?[.,] ?\d{2}\b`)
	reDateNum  = regexp.MustCompile(`\b(\d{1,2}[/\-.]\d{1,2}[/\-.](?:\d{4}|\d{2})|\d{4}[/\-.]\d{1,2}[/\-.]\d{1,2})\b`)
	reDateWord = regexp.MustCompile(`(?i)\b(\d{1,2}(?:st|nd|rd|th)?[\s\-/.]*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?[\s\-/.,]*(?:\d{4}|\d{2}))\b|\b((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s*\d{1,2}(?:st|nd|rd|th)?,?\s*\d{4})\b`)
	// reTime is a time of day; OCR reads the M of PM as H or N ("8:13:39 PH").
	reTime  = regexp.MustCompile(`\b([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?\s*([AaPp]\.?[MmHhNn]\.?)?(?:\b|$)`)
	reRegNo = regexp.MustCompile(`[({][^)}]*\d{3,}[^)}]*[)}]|\(\s*\d{4,}[^)]*$`)
	// rePostcodeLine is an address line with a postcode and a place: "43300 SERI KEMBANGAN".
	rePostcodeLine     = regexp.MustCompile(`(^|[\s,])\d{4,6}\s*,?\s+[A-Z]{3,}|\b(SELANGOR|JOHOR|KUALA LUMPUR|PENANG|PERAK|KEDAH|SABAH|SARAWAK|MELAKA|PAHANG|NEGERI SEMBILAN|DARUL EHSAN)\b`)
	reLongNumber       = regexp.MustCompile(`\d{4,}`)
	reStreetNumberWord = regexp.MustCompile(`^(LOT|NO\b|NO\.|UNIT)`)
	reIDWord           = regexp.MustCompile(`\b(REG|ROC|CO|COMPANY|CAMPANY|COMPARY|GST|SST|TAX|ID|NO|NA|BRN|VAT(NO)?|ABN)\b`)
	rePhone            = regexp.MustCompile(`(^|[^\d/])\+?\(?\d{2,4}\)?(\s?-\s?|\s{1,2})\d{3,4}[\s-]?\d{3,5}\b|\b1[38]00[\s-]?\d{2}[\s-]?\d{4}\b|\d{10,}`)
	reSlogan           = regexp.MustCompile(`FOR ?SHOPPING|RETURNABLE|EXCHANGEABLE|WITH ?ORIGINAL ?RECEIPT|THANK|COME ?AGAIN|PLEASE`) // also glued: "TQFORSHOPPING WITH MYNEWS.COM"
	reOwnedBy          = regexp.MustCompile(`(?i)^\W*(OWNED|OWN|OPERATED|MANAGED)\s+BY\s*:?\s*`)
	reStrongCo         = regexp.MustCompile(`\b(SDN\.?\s*BHD|SDN|BHD|BERHAD|S/B|PTY\.?\s*LTD|PTY|LTD|LIMITED|INC|LLC|PLC|GMBH|ENTERPRISES?|TRADING|CORPORATION|CORP)\b\.?`)
	reHeading          = regexp.MustCompile(`^(TAX INVOICE|SIMPLIFIED TAX INVOICE|INVOICE|RECEIPT|OFFICIAL RECEIPT|CASH BILL|CASH SALES?|SALES RECEIPT|WE[LI]COME.*|THANK YOU.*|COPY|DUPLICATE|ORIGINAL|CUSTOMER COPY|MERCHANT COPY)$`)                                 // WE[LI]COME: "Weicome to the Family", l read as i
	reStopAddr         = regexp.MustCompile(`\b(` + contactWords + `|INVOICE|RECEIPT|DATE|CASHIER|DOC|DOCUMENT|BILL|TABLE|ABN|VAT|TAX|OPEN|BUSINESS HOURS|UST|US[TIL1]\W{0,2}ID\w*|STEUER\w*|MWST|TVA|IVA|BTW|NIF|CIF|SIRET|EIN)\b|@[A-Z0-9-]+\.[A-Z]|INVOICE|RECEIPT`) // the last two also glued: "TAXINVOICE"
	reTaxWord          = regexp.MustCompile(`\b(` + taxWords + `)\b`)
	reMoney            = regexp.MustCompile(`\d[.,]\d{2}\b`)
	reStreetWord       = regexp.MustCompile(`\b(JALAN|JLN|LORONG|TAMAN|TMN|LOT|BLOCK|LEVEL|ROAD|STREET|AVENUE|KAWASAN|BANDAR|PERSIARAN)\b`)
	reAddrHint         = regexp.MustCompile(`\d|\b(JALAN|JLN|JL|LORONG|TAMAN|TMN|LOT|NO|BLOCK|BLK|LEVEL|ROAD|RD|STREET|ST|AVENUE|AVE|KAWASAN|BANDAR|PERSIARAN|SELANGOR|JOHOR|KUALA|LUMPUR|MALL|PLAZA)\b`)
	reRegLine          = regexp.MustCompile(`^\(?\s*(CO\.?\s*)?(REG|ROC|COMPANY|CO)?\.?\s*(NO)?\.?\s*:?\s*[A-Z]{0,3}\d{4,}[\s-]*[A-Z]?\s*\)?$`)
	reGSTID            = regexp.MustCompile(`(?i)\b(?:GST|SST|ABN|VAT|EIN|TAX|US[tli1]\W{0,2}Id(?:Nr)?\.?|USt\.?|TVA(?:\s+intra(?:com)?\.?)?|BTW(?:-?nr)?\.?|P\.?\s?IVA|PARTITA\s+IVA|N\.?\s?I\.?\s?F\.?|C\.?\s?I\.?\s?F\.?|NIPC|UID(?:-?Nr)?\.?|Y-?TUNNUS)\s*(?:REG(?:ISTRATION)?\.?\s*)?(?:ID|N[O0]|NUMBER|#)?\.?\s*[:.]?\s*([A-Z]{0,2}\s?[\dOQ@SB][\dOQ@SB\s\-]{6,18}\d)`)
	reDocNo            = regexp.MustCompile(`(?i)\b(?:INVOICE|INV|RECEIPT|RCPT|BILL|DOC(?:UMENT)?|TRANS(?:ACTION)?|ORDER|CHECK|SLIP|REF)\s*(?:NO|NUMBER|#)?\.?\s*[:#]?\s*([A-Z0-9][A-Z0-9\-/]{3,})`)
)

// startsTaxSummary says whether a line opens a tax summary table: its title
// or its column headings (k: the line's keywordText).
func startsTaxSummary(l Line, k string) bool {
	return reTaxSummary.MatchString(k) || reTaxColumns.MatchString(k) && len(amountsIn(l.Text)) == 0 && !reItemColumns.MatchString(k)
}

// startsVATTable says whether a line opens a table of tax per rate, for
// reading its rows as tax lines: a tax summary, or column headings in any
// language. The total's rules do not use it: a UK till's "20% VAT Net"
// heads lines that hold the receipt's total.
func startsVATTable(l Line, k string) bool {
	return startsTaxSummary(l, k) || reTaxTableHeader.MatchString(k) && len(amountsIn(l.Text)) == 0 && !reItemColumns.MatchString(k)
}

// reTaxTableHeader is a VAT table's column headings in any language, as
// the packs translate them: a tax word beside net, gross or subtotal
// ("MwSt% Netto MwSt Brutto", "TVA HT TVA TTC", "IVA Base imponible
// Cuota"), or net beside gross, whose labels took the tax words in
// ("Mehrwertst ohne MwSt mit MwSt").
var reTaxTableHeader = regexp.MustCompile(`\b(` + taxWords + `)\b.*\b(NET|GROSS|SUBTOTAL)\b|\b(NET|GROSS|SUBTOTAL)\b.*\b(` + taxWords + `)\b|\bNET\b.*\bGROSS\b`)

// reItemColumns are an item table's column headings: a table that has them
// lists goods, whatever tax column it has beside them ("ITEM QTY PRICE
// AMOUNT TAX").
var reItemColumns = regexp.MustCompile(`\b(QTY|QUANTITY|ITEM|DESC\w*|PRICE)\b`)

// keywordText is a line's letters for keyword matching: amounts removed,
// upper case, digits that OCR puts for letters mapped back (T0TAL).
func keywordText(s string) string {
	s = reAmount.ReplaceAllString(s, " ")
	s = reGluedRate.ReplaceAllString(s, "$1 $2 ")
	s = packs.Fold(s)
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
//   - a tax class or a marker read against the amount before it ("7.90SR",
//     "1,99B", "1.70x" for "1.70 *"), which hid the amount from \b; a
//     unit ("2.50KG") and an e, the euro sign as read (mendEuroSign),
//     stay;
//   - spaces read around an apostrophe that marks thousands ("1 ' 062.60",
//     Swiss and Liechtenstein tills), which split the amount in two;
//   - a space read inside an amount's leading digits ("1 0.617,80"), which
//     left a thousands group that starts with 0, as no amount is printed;
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
		t = reSpacedApostrophe.ReplaceAllString(t, "$1'$2")
		t = reSpaceInLeadingGroup.ReplaceAllString(t, "$1$2")
		t = reSplitDate.ReplaceAllString(t, "$1$2$3$4$3$5$6")
		t = reMarkAfterAmount.ReplaceAllStringFunc(t, func(m string) string {
			sm := reMarkAfterAmount.FindStringSubmatch(m)
			if mark := strings.ToUpper(sm[2]); mark == "E" || unitWords[mark] {
				return m
			}
			return sm[1] + " " + sm[2] + sm[3]
		})
		t = reMoneyWithO.ReplaceAllStringFunc(t, func(m string) string {
			if packs.CountDigits(m) < 2 || !strings.ContainsAny(strings.FieldsFunc(m, func(r rune) bool { return r == '.' || r == ',' })[0], "0123456789") {
				return m
			}
			return zero.Replace(m)
		})
		l.Text = t
		out[i] = l
	}
	return out
}

// mendEuroSign puts back the euro sign a reader took for an e against an
// amount ("TVA5.5%(A) 3,79e", "Total HT 13,34e"), on a page of a country
// whose money is the euro: the rules found no amount there.
func mendEuroSign(lines []Line) []Line {
	out := make([]Line, len(lines))
	for i, l := range lines {
		l.Text = reEuroAsE.ReplaceAllString(l.Text, "$1 €$2")
		out[i] = l
	}
	return out
}

// reEuroAsE is an amount with two decimals and an e glued after it.
var reEuroAsE = regexp.MustCompile(`(\d[.,]\d{2})[eE](\s|$)`)

// unitWords are the units a quantity or a time is printed in against its
// number ("2.50KG" is a weight, "12.50km" a distance, "4.28PM" a time, no
// amounts), and the credit and debit marks that sign an amount ("12.00CR"
// is no payment of 12.00).
var unitWords = wordSet("KG G GR MG L LT CL DL ML M CM MM KM MI FT LB OZ PC PK PZ ST AM PM H HR HRS HS CR DR")

var (
	// reGluedUnderscores are underscores before a word's first letter or
	// digit, or after its last.
	reGluedUnderscores = regexp.MustCompile(`(?:^|\b)_+|_+(?:\b|$)`)
	reZeroInRate       = regexp.MustCompile(`(\d)[Oo@](\s?%)`)
	// reSpaceInLeadingGroup is one or two digits, a space, and an amount
	// whose first group is a lone 0 before a thousands group.
	reSpaceInLeadingGroup = regexp.MustCompile(`\b(\d{1,2}) (0[.,']\d{3}[.,]\d{2})\b`)
	// reSplitDate is a date the reading cut after its first hyphen or
	// slash: "24- 12-2024" (not a till's "REG #19- 10/03/2018").
	reSplitDate = regexp.MustCompile(`(^|[\s:])(\d{1,2})([-/]) (\d{1,2})[-/](\d{4}|\d{2})($|[^-/.\d])`)
	// reSpacedApostrophe is an apostrophe or its typographic forms between
	// a number's thousands and the rest of an amount with two decimals,
	// a space read on either side.
	reSpacedApostrophe = regexp.MustCompile(`\b(\d{1,3}) ?['’‘´` + "`" + `] ?(\d{3}[.,]\d{2})\b`)
	// reMarkAfterAmount is an amount with two decimals and one or two
	// letters glued after it, ending the word.
	reMarkAfterAmount = regexp.MustCompile(`(\d[.,]\d{2})(\pL{1,2})(\s|$)`)
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

func clamp(c float64) float64 { return min(1, max(0, c)) }

// letterCount is how many letters s holds (packs.CountLetters).
var letterCount = packs.CountLetters

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

// HasDigit reports whether s holds a digit.
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

// moneyWords are the words the rules for totals, tax, rounding and
// change look for: OCR's misreads of them are mended in a line's keyword
// text (see mendMoneyWords). CHARGE, SERVICE and RENDERED are here so
// that they are never mended to CHANGE or TENDERED.
var moneyWords = wordSet(`ROUNDING ROUNDED ADJUSTMENT TOTAL SUBTOTAL INCLUSIVE EXCLUSIVE AMOUNT
PAYABLE BALANCE DISCOUNT TENDERED CHANGE CHARGE SERVICE RENDERED`)

// glyphMerges are letter pairs OCR reads for one letter: "Rouriding" for
// ROUNDING.
var glyphMerges = [][2]string{{"RI", "N"}, {"RN", "M"}, {"II", "U"}, {"VV", "W"}, {"CL", "D"}}

// moneyKeywords is a line's keyword text for the money rules, its tax
// word and money words mended.
func moneyKeywords(l Line, pk *packs.Pack) string {
	return mendMoneyWords(mendTaxWord(translatedKeywords(keywordText(l.Text), pk), l.Text), lexiconOf(pk))
}

// mendMoneyWords replaces each word of keyword text that is one misread
// letter (from eight letters on, one edit), one letter read as two, or a
// few letters read as their lookalikes from exactly one money word:
// "RDUNDED", "ADJUSIMENT", "ROURIDING", "IUIAL".
func mendMoneyWords(k string, lx *lexicon) string {
	fields := strings.Fields(k)
	changed := false
	for i, w := range fields {
		if len(w) < 5 || moneyWords[w] || lx.known[w] || englishNeighbours[w] {
			continue
		}
		if m, ok := nearestMoneyWord(w); ok {
			fields[i], changed = m, true
		}
	}
	if !changed {
		return k
	}
	return strings.Join(fields, " ")
}

func nearestMoneyWord(w string) (string, bool) {
	variants := []string{w}
	for _, g := range glyphMerges {
		for at := 0; ; {
			i := strings.Index(w[at:], g[0])
			if i < 0 {
				break
			}
			variants = append(variants, w[:at+i]+g[1]+w[at+i+len(g[0]):])
			at += i + 1
		}
	}
	for _, v := range variants[1:] {
		if moneyWords[v] {
			return v, true
		}
	}
	best := ""
	for _, v := range variants {
		limit, dist := 1, hamming
		if len(v) >= 8 {
			dist = editDistance
		}
		for m := range moneyWords {
			if dist(v, m, limit) > limit && !lookalike(v, m) {
				continue
			}
			if best != "" && best != m {
				return "", false
			}
			best = m
		}
	}
	return best, best != ""
}

// lookalikeLetters are the letters thermal and dot-matrix print makes
// look alike, in pairs: T, I and L lose or gain a bar; O, U, D and Q an
// opening or a tail.
var lookalikeLetters = map[[2]byte]bool{}

func init() {
	for _, group := range []string{"TIL", "OUDQ"} {
		for i := range len(group) {
			for j := range len(group) {
				if i != j {
					lookalikeLetters[[2]byte{group[i], group[j]}] = true
				}
			}
		}
	}
}

// lookalike says whether w is m with up to three letters read as their
// lookalikes and at least two letters as printed: "IUIAL" and "IOLAL" for
// TOTAL, "SUBIUIAL" for SUBTOTAL.
func lookalike(w, m string) bool {
	if len(w) != len(m) {
		return false
	}
	changed := 0
	for i := range len(w) {
		if w[i] == m[i] {
			continue
		}
		if !lookalikeLetters[[2]byte{w[i], m[i]}] {
			return false
		}
		changed++
	}
	return changed > 0 && changed <= 3 && len(w)-changed >= 2
}

// reMinusCurrency is a minus sign printed before the currency of an
// amount: "-RM 0.01", "- $0.02".
var reMinusCurrency = regexp.MustCompile(`-\s*(RM|MYR|S?\$|A\$|€|£)\s*\d`)
