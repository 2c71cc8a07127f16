package fields

// The parties of an invoice: the buyer in its block or under the sender
// line, the seller by its registered name, its tax ID outside the buyer's
// block.

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// sellerTaxIDByLabel is the first tax ID beside a tax ID label that is not
// the buyer's (in the buyer's block, or labelled as the client's).
func sellerTaxIDByLabel(lines []Line, labels []labelled, loc receipt.Locale) (receipt.TaxID, int, bool) {
	for _, lb := range labels {
		if lb.label != "TAX ID" {
			continue
		}
		v, j := valueOf(lines, lb)
		m := reTaxIDValue.FindString(v)
		if m == "" || reBuyerWord.MatchString(cellsOf(lines[lb.line])[lb.cell].Text) || inBuyerColumn(lines, labels, receipt.NormalizeTaxID(m)) {
			continue
		}
		id := receipt.DetectTaxID(m, loc.Country)
		if id.Value == "" {
			id = receipt.TaxID{Scheme: receipt.SchemeOther, Value: receipt.NormalizeTaxID(m)}
		}
		return id, j, true
	}
	return receipt.TaxID{}, -1, false
}

var reTaxIDValue = regexp.MustCompile(`\b[A-Z]{2,3}\s?[0-9A-Z][0-9A-Z .]{5,16}[0-9A-Z]\b|\b\d[\d ./-]{6,16}\d\b`)

// printedID reports a tax ID the page prints as it was read (not one
// mended from a misread digit, nor the buyer's).
func printedID(lines []Line, id string) bool {
	id = receipt.NormalizeTaxID(id)
	for _, l := range lines {
		if strings.Contains(receipt.NormalizeTaxID(l.Text), id) {
			return true
		}
	}
	return false
}

// inBuyerColumn reports a tax ID printed in the buyer's block: the few
// lines under the buyer's heading or name, in its column.
func inBuyerColumn(lines []Line, labels []labelled, id string) bool {
	if id == "" {
		return false
	}
	id = receipt.NormalizeTaxID(id)
	_, at, ok := buyerName(lines, labels)
	if !ok {
		return false
	}
	for j := at; j < len(lines) && j <= at+5; j++ {
		c := cellsOf(lines[j])[0]
		if strings.Contains(receipt.NormalizeTaxID(c.Text), id) {
			return true
		}
	}
	return false
}

// buyerName is the first name under the buyer's label, in the label's
// column, or the first line under the letterhead's sender line.
func buyerName(lines []Line, labels []labelled) (string, int, bool) {
	for _, lb := range labels {
		if lb.label != "BUYER" {
			continue
		}
		if rest := strings.TrimSpace(lb.rest); rest != "" {
			if lb.colon && strings.IndexFunc(rest, isLetter) >= 0 && !strings.ContainsAny(rest, "0123456789") {
				return rest, lb.line, true
			}
			continue // a sentence that starts with the label's words
		}
		cells := cellsOf(lines[lb.line])
		c := cells[lb.cell]
		if lb.cell+1 < len(cells) && lb.colon && strings.ContainsAny(cells[lb.cell+1].Text, "0123456789") {
			continue // a label with its value beside it ("Kunde: K123") is the meta block's
		}
		if name, j, ok := nameInColumn(lines, lb.line, c); ok {
			return name, j, true
		}
	}
	for i, l := range lines {
		if i > 30 {
			break
		}
		// The sender line sits above the addressee, never heads the page.
		cells := cellsOf(l)
		if i == 0 || len(cells) == 0 || len(reSenderSep.Split(l.Text, -1)) < 3 || !strings.ContainsAny(l.Text, "0123456789") {
			continue
		}
		if name, j, ok := nameInColumn(lines, i, cells[0]); ok && unicode.IsLetter([]rune(name)[0]) && !strings.ContainsAny(name, "@/") {
			return name, j, true
		}
	}
	return "", -1, false
}

// nameInColumn is the first line under line i, in cell c's column, that
// names someone: letters, no label, not an address; with its legal form
// when the next line holds it.
func nameInColumn(lines []Line, i int, c Cell) (string, int, bool) {
	u := unit(lines[i])
	salutation := ""
	for j := i + 1; j < len(lines) && j <= i+5; j++ {
		cells := cellsOf(lines[j])
		for k, d := range cells {
			if d.X0 < c.X0-12*u || d.X0 > c.X0+8*u {
				continue
			}
			t := strings.TrimSpace(d.Text)
			tail := []string{t} // with its value when the cell is a label ("Name:  Kunden AG")
			if k+1 < len(cells) && (strings.HasSuffix(t, ":") || strings.HasPrefix(cells[k+1].Text, ":")) {
				tail = append(tail, cells[k+1].Text)
			}
			if m := reNameValue.FindStringSubmatch(strings.Join(tail, " ")); m != nil {
				return salutation + strings.TrimSpace(m[1]), j, true
			}
			label, rest, isLabel := labelAt(t)
			switch {
			case isLabel && label == "SALUTATION" && rest == "":
				salutation = t + " " // "Herrn" over "Max Mustermann"
				continue
			case reIDLine.MatchString(t) || reLabelValue.MatchString(strings.Join(tail, " ")):
				continue // "GLN 4304171000002", "Nummer : 16259"
			case isLabel && label != "SALUTATION" || strings.IndexFunc(t, isLetter) < 0:
				return "", -1, false
			}
			return salutation + t, j, true
		}
	}
	return "", -1, false
}

// reIDLine is a line of one identifier: a short code and its digits.
var reIDLine = regexp.MustCompile(`^[A-Za-z][A-Za-z.\-]{1,8}\s*[:.]?\s*[A-Z]{0,3}[\d ]{5,}$`)

// endsInLegalForm reports a name that ends in a legal form of any
// country's pack ("GmbH & Co. KG", "S.L.U.", "DAC") after a name of its own.
func endsInLegalForm(name string) bool {
	w := packs.Words(name)
	for _, p := range packs.All() {
		if n, ok := p.IsLegalForm(w); ok && n < len(w) {
			return true
		}
	}
	return false
}

// sellerByLegalName replaces a seller's name read as its letterhead's
// short name ("NORDWIND") or not read at all with the registered name the
// page prints elsewhere with its legal form ("Nordwind Logistik GmbH", in
// the sender line or the footer), never the buyer's.
func sellerByLegalName(lines []Line, supplier, buyer string) (string, int, bool) {
	if supplier != "" && endsInLegalForm(supplier) {
		return "", -1, false
	}
	first := ""
	if w := packs.Words(supplier); len(w) > 0 {
		first = w[0]
	}
	best, at, count := "", -1, 0
	seen := map[string]int{}
	for i, l := range lines {
		for _, c := range cellsOf(l) {
			name := strings.TrimSpace(reSenderSep.Split(c.Text, -1)[0])
			if !endsInLegalForm(name) || strings.ContainsAny(name, "0123456789:@") || len(strings.Fields(name)) > 6 {
				continue
			}
			if buyer != "" && receipt.FoldName(name) == receipt.FoldName(buyer) {
				continue
			}
			if _, _, isLabel := labelAt(name); isLabel {
				continue
			}
			k := receipt.FoldName(name)
			seen[k]++
			w := packs.Words(name)
			matches := first != "" && len(w) > 0 && w[0] == first
			if matches && (at < 0 || seen[k] > count) || first == "" && seen[k] > count {
				best, at, count = name, i, seen[k]
			}
		}
	}
	if at < 0 || first == "" && count < 2 {
		return "", -1, false
	}
	return best, at, true
}

// addresseeReach is how far down the page an unlabelled addressee block
// may start, and blockGap how many lines of other columns may come between
// two of its lines (a text layer interleaves the columns printed beside it).
const (
	addresseeReach = 30
	blockGap       = 3
)

// addresseeBlock is the name heading an unlabelled address block in the
// page's upper part: a name, then, in its column, lines down to a postcode
// and town ("Ma jolie boutique" / "Alexandre Payet" / "35 rue de la
// République" / "69001 Lyon"). A block under a heading of its own
// ("Adresse de livraison") is that heading's, and the seller's block, or
// one that names the seller, is not the buyer's.
func addresseeBlock(lines []Line, seller string) (string, int, bool) {
	for i := 1; i < len(lines) && i < addresseeReach; i++ {
		for _, c := range cellsOf(lines[i]) {
			name := strings.TrimSpace(c.Text)
			at := i
			if label, rest, ok := labelAt(name); ok && label == "SALUTATION" && rest == "" {
				// "Herrn" over "Max Mustermann": the name with its salutation.
				d, j, found := cellBelow(lines, i, c)
				if !found || !nameLike(strings.TrimSpace(d.Text)) {
					continue
				}
				name, at = name+" "+strings.TrimSpace(d.Text), j
			} else if !nameLike(name) {
				continue
			}
			if seller != "" && receipt.FoldName(name) == receipt.FoldName(seller) || headedAbove(lines, i, c) {
				continue
			}
			if blockEndsInTown(lines, at, c, seller) {
				return name, i, true
			}
		}
	}
	return "", -1, false
}

// nameLike is a cell that may name someone: letters, no digits, no label,
// no mark of a phone, mail or web address.
func nameLike(t string) bool {
	if len([]rune(t)) < 3 || strings.ContainsAny(t, "0123456789@:/€$£%") || strings.IndexFunc(t, isLetter) < 0 {
		return false
	}
	if _, _, isLabel := labelAt(t); isLabel {
		return false
	}
	return unicode.IsUpper([]rune(t)[0])
}

// sameColumn finds the cell of line j that starts where c does.
func sameColumn(lines []Line, j int, c Cell, u float64) (Cell, bool) {
	for _, d := range cellsOf(lines[j]) {
		if d.X0 >= c.X0-2*u && d.X0 <= c.X0+2*u {
			return d, true
		}
	}
	return Cell{}, false
}

// headedAbove reports a cell with another cell in its column on one of the
// lines just above it: a heading, or the block goes on from above. A
// registered name (the letterhead's) or a town's line above ends a block of
// its own.
func headedAbove(lines []Line, i int, c Cell) bool {
	u := unit(lines[i])
	for j := i - 1; j >= 0 && j >= i-blockGap; j-- {
		if d, ok := sameColumn(lines, j, c, u); ok {
			t := strings.TrimSpace(d.Text)
			return !endsInLegalForm(t) && !rePostcodeCity.MatchString(t)
		}
	}
	return false
}

// blockEndsInTown reports a column block under line i's cell c that reaches
// a postcode and town within four lines, names no seller and holds no label.
func blockEndsInTown(lines []Line, i int, c Cell, seller string) bool {
	u := unit(lines[i])
	count, gap := 0, 0
	for j := i + 1; j < len(lines) && count < 4 && gap <= blockGap; j++ {
		d, ok := sameColumn(lines, j, c, u)
		if !ok {
			gap++
			continue
		}
		gap = 0
		count++
		t := strings.TrimSpace(d.Text)
		if _, _, isLabel := labelAt(t); isLabel || seller != "" && strings.Contains(receipt.FoldName(t), receipt.FoldName(seller)) {
			return false
		}
		if rePostcodeCity.MatchString(t) {
			return count >= 1
		}
	}
	return false
}

// sellerNameGoesOn completes a seller's name printed on two lines, its
// legal form on the second ("MVM Musterhafter" / "Versicherungsverein
// Musterstadt a.G."): the line under the name's, with no digits, that ends
// in a legal form and is not the buyer's name.
func sellerNameGoesOn(lines []Line, seller, buyer string) (string, int, bool) {
	// A page reader's misread legal form ("S.r.|.") would join the name to
	// the next name: only a text layer's letters are sure enough.
	if seller == "" || endsInLegalForm(seller) || !fromTextLayer(lines) {
		return "", -1, false
	}
	for i, l := range lines[:max(len(lines)-1, 0)] {
		if receipt.FoldName(strings.TrimSpace(cellsOf(l)[0].Text)) != receipt.FoldName(seller) {
			continue
		}
		next := strings.TrimSpace(cellsOf(lines[i+1])[0].Text)
		if endsInLegalForm(next) && !strings.ContainsAny(next, "0123456789:@") && receipt.FoldName(next) != receipt.FoldName(buyer) {
			return strings.TrimSpace(cellsOf(l)[0].Text) + " " + next, i, true
		}
		return "", -1, false
	}
	return "", -1, false
}
