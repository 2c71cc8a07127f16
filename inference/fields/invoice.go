package fields

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// Invoices differ from till receipts: the seller sits in a labelled block,
// a letterhead's sender line or the footer, beside a buyer's block that
// must not be taken for it; the invoice number and date are labelled; the
// total is the gross sum at the foot, below net and tax sums and column
// headers that name amounts. These rules read labels in English, German,
// French, Dutch, Italian and Spanish, and win over the receipt rules where
// they find a labelled value.

var (
	reInvoiceWord   = regexp.MustCompile(`(?i)(rechnung|invoice|factur|factuur|avoir|fattura|credit ?note|creditnota)`)
	reEuropeanTitle = regexp.MustCompile(`(?i)(rechnung|gutschrift|factur|avoir|fattura|factuur|creditnota)`)
	reCreditWord    = regexp.MustCompile(`(?i)\b(avoir|credit ?note|creditnota|nota di credito|nota de cr[ée]dito)\b`)

	reSellerHeader = regexp.MustCompile(`(?i)^(verkäufer|rechnungsersteller|rechnungssteller|leistungserbringer|seller|supplier|vendor|vendeur|fournisseur|émetteur|leverancier|verkoper|fornitore|cedente(?: prestatore)?|proveedor|emisor)\s*(?:/[\p{L} ]+)?\s*:?\s*$`)
	reBuyerHeader  = regexp.MustCompile(`(?i)^(käufer|rechnungsempfänger|leistungsempfänger|kunde|buyer|customer|bill to|billed to|invoice to|sold to|acheteur|client|facturé à|adresse de facturation|koper|factuuradres|klant|destinatario|cessionario(?: committente)?|cliente|comprador)\b`)
	// "CUSTOMER COPY": the copy of a card slip a customer keeps, no buyer's block.
	reSlipCopy     = regexp.MustCompile(`(?i)^(customer|client|cliente|kunde|klant)('?s)?\s*(copy|copie|kopie|copia|kopia|receipt)\b`)
	reNameValue    = regexp.MustCompile(`(?i)^(?:name|nom|naam|nome|nombre|firma|raison sociale)\s*:\s*(.+)$`)
	reLabelValue   = regexp.MustCompile(`^[\p{L}][\p{L} .\-/]{0,30}\s*:\s*`)
	reSenderSep    = regexp.MustCompile(`\s+[●•·|–-]\s+`)
	rePostcodeCity = regexp.MustCompile(`\b\d{4,5}\s+\p{L}`)
	// reHouseNumberFirst is a street address that starts with its number
	// ("38 boulevard des Dames", "12b, Quai Voltaire").
	reHouseNumberFirst = regexp.MustCompile(`^\d{1,4}[a-zA-Z]?,?\s+\p{L}`)

	reInvoiceNoLabel = regexp.MustCompile(`(?i)\b(?:rechnungs[\s-]?(?:nr|nummer|no)|beleg[\s-]?(?:nr|nummer)|gutschrifts?[\s-]?(?:nr|nummer)|invoice\s*(?:no|nr|number|#)|credit\s*note\s*(?:no|number|#)|n[°º]\s*(?:de\s+)?(?:facture|l'avoir|avoir)|num[ée]ro\s+de\s+(?:facture|l'avoir)|facture\s*n[°º]|factuur\s*(?:nummer|nr)|factuurnummer|numero\s+(?:fattura|documento)|fattura\s*n\.?|n(?:úmero|\.º)\s+(?:de\s+)?factura|factura\s*n[°º.]?)\.?\s*[:#]?\s*([A-Z0-9][\w\-/.]*)`)
	reInvoiceNoTitle = regexp.MustCompile(`(?i)\b(?:\p{L}*rechnung|gutschrift|rechnungskorrektur|invoice|facture|avoir|factuur|fattura|factura)\b\s*(?:\(\d{3}\)\s*)?(?:nr\.?|no\.?|n[°º]|#|nummer|number)?\s*:?\s*([A-Z0-9][\w\-/.]*\d[\w\-/.]*)`)
	reNoVom          = regexp.MustCompile(`(?i)(?:\b(?:nr\.?|no\.?)|#|\bn[°º])\s*\S+\s+(?:vom|von|du|del|van|of|dated|issued(?:\s+(?:at|on))?)\s+(.+)$`)
	reInvoiceDate    = regexp.MustCompile(`(?i)\b(rechnungsdatum|belegdatum|datum der rechnung|gutschriftsdatum|invoice\s+date|date\s+of\s+(?:issue|invoice)|issue\s+date|date\s+de\s+(?:la\s+)?facture|date\s+d'émission|date\s+de\s+l'avoir|factuurdatum|data\s+(?:fattura|documento|emissione)|fecha\s+(?:de\s+)?(?:factura|emisión|expedición))\b\.?\s*:?\s*(.*)$`)
	reDueDate        = regexp.MustCompile(`(?i)\b(fälligkeitsdatum|fälligkeitstag|fällig\s+am|zahlbar\s+bis|due\s+date|payment\s+due|date\s+d'échéance|échéance|vervaldatum|data\s+(?:di\s+)?scadenza|fecha\s+de\s+vencimiento)\b\.?\s*:?\s*(.*)$`)
	reDeliveryDate   = regexp.MustCompile(`(?i)\b(liefer-?\s*(?:und\s+leistungs)?datum|leistungsdatum|delivery\s+date|date\s+of\s+(?:delivery|supply)|date\s+de\s+livraison|leverdatum|data\s+(?:di\s+)?consegna|fecha\s+de\s+entrega)\b\.?\s*:?\s*(.*)$`)
	reGrossTotal     = regexp.MustCompile(`(?i)\b(bruttosumme|rechnungssumme\s+brutto|rechnungsbetrag|gesamtbetrag|gesamtsumme|endbetrag|bruttobetrag|summe\s+brutto|total\s+ttc|montant\s+ttc|total\s+(?:incl\.?|including|inc\.?)\s*(?:vat|tax|gst)?|invoice\s+total|total\s+amount|grand\s+total|totaal\s+(?:incl|inclusief)\.?|totale\s+(?:documento|fattura)|total\s+factura|importe\s+total)\b`)
	reNoBeforeVom    = regexp.MustCompile(`(?i)(?:\b(?:nr\.?|no\.?)|#|\bn[°º])\s*([A-Z0-9][\w\-/.]*\d[\w\-/.]*)\s+(?:vom|von|du|del|van|of|dated|issued)\b`)
	reCurrencyLabel  = regexp.MustCompile(`(?i)\b(?:rechnungswährung|währung|currency|devise|valuta|divisa|moneda)\s*:?\s*([A-Z]{3})\b`)
	reLegalForm      = regexp.MustCompile(`(?i)(?:^|\s)(gmbh|ag|a\.g\.|kg|ohg|e\.k\.|ug|se|sarl|sas|sa|s\.a\.|b\.v\.|bv|n\.v\.|nv|s\.r\.l\.|srl|s\.p\.a\.|spa|s\.l\.|ltd\.?|limited|inc\.?|llc|plc)(?:\W|$)`)
	reVATLabel       = regexp.MustCompile(`(?i)\b(?:ust\.?\s*-?\s*id\.?\s*-?\s*(?:nr\.?)?|ust-?idnr\.?|umsatzsteuer-?id\w*|vat\s*(?:reg(?:istration)?\.?\s*)?(?:id|no\.?|number|#)?|(?:n°\s*)?tva(?:\s+intra\w*\.?)?|btw(?:-?nr\.?|-?nummer)?|p\.?\s?iva|partita\s+iva|nif|cif|abn)\s*[:.]?\s*([A-Z]{2}\s?\d[\d ]{6,14}\d|[A-Z]{2}\d{2,}[A-Z0-9]{4,}|\d{3}[\d ]{6,12}\d)`)
	reBuyerWord      = regexp.MustCompile(`(?i)(client|kunde|customer|buyer|käufer|acheteur|klant|cliente|comprador|empfänger)`)
	reGrossTotal2    = regexp.MustCompile(`(?i)\b(summe\s+inkl\.?\s*(?:ust|mwst)\.?|zahlbetrag|due\s+payable|total\s+due|amount\s+due|montant\s+à\s+payer|net\s+à\s+payer|te\s+betalen|totale\s+da\s+pagare|total\s+a\s+pagar)\b`)
	rePageOf         = regexp.MustCompile(`(?i)\b(?:seite|page|pagina|página|blatt)\s+(\d+)\s*(?:von|of|de|/|di|sur|van)\s*(\d+)\b`)
	reSideBySide     = regexp.MustCompile(`(?i)^(?:lieferant|verkäufer|rechnungsersteller|seller|supplier|vendeur|fournisseur)\s+(?:käufer|kunde|rechnungsempfänger|buyer|customer|acheteur|client)\b`)
	reCurrencyCode   = regexp.MustCompile(`\b(EUR|USD|GBP|CHF|AUD|NZD|CAD|SEK|NOK|DKK|PLN|CZK|HUF|BGN|RON)\b`)
	reSlashedDate    = regexp.MustCompile(`\b(\d{1,2})/(\d{1,2})/(?:\d{4}|\d{2})\b`)
	reAmountOnly     = regexp.MustCompile(`^[-+]?\s*(?:[A-Z]{3}|€|\$|£)?\s*-?[\d.,' ]+\s*(?:[A-Z]{3}|€|\$|£)?$`)
)

// readInvoice applies the invoice rules to a document that calls itself an
// invoice (or credit note) in any of the six languages.
func readInvoice(lines []Line, loc receipt.Locale, now time.Time, r *receipt.Receipt) {
	isInvoice := continuationPage(lines) || creditTitle(lines, findLabels(lines))
	for _, l := range lines {
		if reInvoiceWord.MatchString(l.Text) {
			isInvoice = true
			break
		}
	}
	if !isInvoice {
		if fromTextLayer(lines) && !r.Total.Set {
			// A later page of a PDF invoice, its line table without the
			// totals: a tax or net read there is a row's, no sum of the
			// document (the page with the total has those).
			r.Subtotal, r.TotalTax, r.TaxLines = receipt.Amount{}, receipt.Amount{}, nil
		}
		return
	}
	// English "TAX INVOICE" heads till receipts too: there the invoice
	// rules only fill what the receipt rules left empty. An invoice in
	// another language, or with a seller's or buyer's block, is read as one.
	strong := invoiceBlocks(lines) || continuationPage(lines) || creditTitle(lines, findLabels(lines))
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		if reEuropeanTitle.MatchString(t) || isHeader(reSellerHeader, t) || isBuyerHeader(t) {
			strong = true
			break
		}
	}
	take := func(set, same bool) bool { return !set || !same && strong }
	boxOf := func(l Line) *receipt.Box {
		if l.Box.W == 0 && l.Box.H == 0 {
			return nil
		}
		b := l.Box
		return &b
	}
	dt := receipt.DocInvoice
	for _, l := range lines {
		if reCreditWord.MatchString(l.Text) {
			dt = receipt.DocCreditNote
			break
		}
	}
	if strong && (!r.DocType.Set || r.DocType.Value == receipt.DocReceipt) {
		r.DocType = found(dt, confLikely, nil, "the document calls itself an invoice")
	}

	if !strong {
		// Only the labelled number and dates, where nothing was found.
	} else if name, i, ok := sellerName(lines, packOf(loc)); ok {
		if take(r.SupplierName.Set, r.SupplierName.Value == name) {
			r.SupplierName = found(name, lines[i].Conf*confPrinted, boxOf(lines[i]), "the seller's block of the invoice")
		}
	} else if inBuyerBlock(lines, r.SupplierName.Value) {
		r.SupplierName = receipt.Text{} // the buyer's name is no supplier
	}
	if id, i, ok := sellerTaxID(lines, loc); ok && strong && take(r.SupplierTaxID.Set, r.SupplierTaxID.Value.Value == id.Value) {
		r.SupplierTaxID = found(id, lines[i].Conf*confPrinted, boxOf(lines[i]), "the seller's labelled VAT ID")
	}
	if name, i, ok := partyAfter(lines, reBuyerHeader); ok && strong && !r.PayerName.Set {
		r.PayerName = found(name, lines[i].Conf*confLikely, boxOf(lines[i]), "the buyer's block of the invoice")
	}

	if no, i, ok := invoiceNumber(lines); ok && take(r.DocumentNumber.Set, r.DocumentNumber.Value == no) {
		r.DocumentNumber = found(no, lines[i].Conf*confPrinted, boxOf(lines[i]), "the labelled invoice number")
	}
	sameDate := func(d time.Time) bool { return r.Date.Value.Equal(d) }
	loc = pageDateOrder(lines, loc)
	if d, i, ok := labelledDate(lines, loc, reInvoiceDate); ok {
		// "Invoice date" names the date plainly, on a till receipt too.
		if !r.Date.Set || !sameDate(d) || strong {
			r.Date = found(d, lines[i].Conf*confPrinted, boxOf(lines[i]), "the labelled invoice date")
		}
	} else if d, i, ok := numberDatedLine(lines, loc); ok && (!r.Date.Set || !sameDate(d) || strong) {
		r.Date = found(d, lines[i].Conf*confPrinted, boxOf(lines[i]), "the date the invoice number is given with")
	} else if d, i, ok := datelineDate(lines, loc); ok && strong {
		r.Date = found(d, lines[i].Conf*confPrinted, boxOf(lines[i]), whyDateline)
	}
	if d, i, ok := labelledDate(lines, loc, reDueDate); ok && strong {
		r.DueDate = found(d, lines[i].Conf*confPrinted, boxOf(lines[i]), "the labelled due date")
	}
	if d, i, ok := labelledDate(lines, loc, reDeliveryDate); ok && strong {
		r.DeliveryDate = found(d, lines[i].Conf*confPrinted, boxOf(lines[i]), "the labelled delivery date")
	}
	// A date the receipt rules took that is only the due date is doubtful.
	if r.Date.Set && r.DueDate.Set && r.Date.Value.Equal(r.DueDate.Value) && !strings.HasPrefix(r.Date.Why, "the labelled invoice") {
		r.Date.Confidence = min(r.Date.Confidence, confComputed)
	}

	for _, l := range lines {
		if m := reCurrencyLabel.FindStringSubmatch(l.Text); m != nil && strong && receipt.ValidCurrency(strings.ToUpper(m[1])) {
			if c := strings.ToUpper(m[1]); r.Currency.Value != c {
				r.Currency = found(c, l.Conf*confPrinted, boxOf(l), "the invoice's labelled currency")
			}
			break
		}
	}
	total, i, ok := grossTotal(lines, reGrossTotal)
	if !ok {
		total, i, ok = grossTotal(lines, reGrossTotal2)
	}
	switch {
	case ok && take(r.Total.Set, r.Total.Value.Equal(total)):
		r.Total = found(total, lines[i].Conf*confPrinted, boxOf(lines[i]), "the gross total of the invoice")
	case !ok && strong && notLastPage(lines):
		// An amount on page 1 of 2 is no total: the last page has it.
		r.Total = receipt.Amount{}
	}
	if strong {
		readInvoiceLayout(lines, loc, now, r)
	}
}

// sellerName finds the seller in a labelled block ("Verkäufer:", "Seller")
// or, failing that, the letterhead's one-line sender address
// ("Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen"), on a page of pack pk.
func sellerName(lines []Line, pk *packs.Pack) (string, int, bool) {
	if name, i, ok := partyAfter(lines, reSellerHeader); ok {
		return name, i, true
	}
	// "Lieferant  Käufer" side by side: the text layer joins the columns,
	// so the seller's name ends at its legal form.
	for i, l := range lines {
		if !reSideBySide.MatchString(strings.TrimSpace(l.Text)) {
			continue
		}
		for j := i + 1; j < len(lines) && j <= i+4; j++ {
			if m := reLegalForm.FindStringIndex(lines[j].Text); m != nil {
				name := strings.TrimSpace(lines[j].Text[:m[1]])
				if strings.IndexFunc(name, isLetter) >= 0 {
					return strings.TrimRight(name, " ,;"), j, true
				}
			}
		}
	}
	for i, l := range lines {
		if i > 25 {
			break
		}
		parts := reSenderSep.Split(l.Text, -1)
		if len(parts) >= 3 && rePostcodeCity.MatchString(l.Text) {
			name := strings.TrimSpace(parts[0])
			// A letterhead's address line ("38 boulevard des Dames ·
			// 13002 Marseille · 04 91 …") starts with its street; a
			// period's dates ("Billing Period: 03/01/2025 – 03/31/2025")
			// are no sender.
			if len([]rune(name)) >= 3 && !reBuyerHeader.MatchString(name) && strings.IndexFunc(name, isLetter) >= 0 && !pk.IsStreetLine(name) && !reHouseNumberFirst.MatchString(name) &&
				!reLabelValue.MatchString(name) && !reDateNum.MatchString(name) {
				return name, i, true
			}
		}
	}
	return "", -1, false
}

func isLetter(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > 0x7f }

// isHeader matches a block header, also when the text layer spaced its
// letters apart ("Ver käufer :").
func isHeader(header *regexp.Regexp, text string) bool {
	t := strings.TrimSpace(text)
	if header.MatchString(t) {
		return true
	}
	if f := strings.Fields(t); len(f) > 1 && len(f) <= 4 {
		return header.MatchString(strings.Join(f, ""))
	}
	return false
}

// isBuyerHeader reports a line that opens the buyer's block ("Bill to:",
// "Kunde"), which a card slip's "CUSTOMER COPY" does not.
func isBuyerHeader(text string) bool {
	return isHeader(reBuyerHeader, text) && !reSlipCopy.MatchString(strings.TrimSpace(text))
}

// partyAfter reads the name in the block a header line opens: a "Name:"
// line, else the first line that is no "label: value" pair, with the next
// line when that completes the name with its legal form
// ("MVM Musterhafter" / "Versicherungsverein Musterstadt a.G.").
func partyAfter(lines []Line, header *regexp.Regexp) (string, int, bool) {
	for i, l := range lines {
		if !isHeader(header, l.Text) {
			continue
		}
		if header == reBuyerHeader && !headerAlone(header, l.Text) {
			continue // "Customer VAT Number ESA…", "Invoice to pay by …": no block's heading
		}
		for j := i + 1; j < len(lines) && j <= i+6; j++ {
			t := strings.TrimSpace(lines[j].Text)
			if isHeader(reSellerHeader, t) || isBuyerHeader(t) && header != reBuyerHeader {
				break
			}
			if m := reNameValue.FindStringSubmatch(t); m != nil {
				t = strings.TrimSpace(m[1])
				if j+1 < len(lines) && !reLegalForm.MatchString(t) {
					next := strings.TrimSpace(lines[j+1].Text)
					if reLegalForm.MatchString(next) && !strings.ContainsAny(next, "0123456789:") {
						return t + " " + next, j, true
					}
				}
				return t, j, true
			}
			if reLabelValue.MatchString(t) || strings.IndexFunc(t, isLetter) < 0 {
				continue
			}
			if j+1 < len(lines) && !reLegalForm.MatchString(t) {
				next := strings.TrimSpace(lines[j+1].Text)
				if m := reNameValue.FindStringSubmatch(next); m != nil {
					next = strings.TrimSpace(m[1]) // "Name:" beside the second of two lines
				}
				if reLegalForm.MatchString(next) && !strings.ContainsAny(next, "0123456789:") {
					return t + " " + next, j, true
				}
			}
			return t, j, true
		}
	}
	return "", -1, false
}

// headerAlone reports a header line that is the header alone, with its
// colon or a second name for it ("Käufer/Leistungsempfänger:").
func headerAlone(header *regexp.Regexp, text string) bool {
	t := strings.TrimSpace(text)
	m := header.FindStringIndex(t)
	if m == nil {
		return isHeader(header, t) // spaced apart: short by construction
	}
	rest := strings.TrimSpace(t[m[1]:])
	return rest == "" || rest == ":" || strings.HasPrefix(rest, "/")
}

// inBuyerBlock reports whether name is read in the lines under a buyer's header.
func inBuyerBlock(lines []Line, name string) bool {
	if name == "" {
		return false
	}
	for i, l := range lines {
		if !isBuyerHeader(l.Text) {
			continue
		}
		for j := i; j < len(lines) && j <= i+5; j++ {
			if strings.Contains(lines[j].Text, name) {
				return true
			}
		}
	}
	return false
}

func invoiceNumber(lines []Line) (string, int, bool) {
	// "Rechnung Nr. 471102 vom 05.03.2018" heads the invoice and names its
	// own number; a labelled "Rechnungsnummer" comes next, a number after
	// the title last.
	for _, re := range []*regexp.Regexp{reNoBeforeVom, reInvoiceNoLabel, reInvoiceNoTitle} {
		for i, l := range lines {
			text := l.Text
			if re == reNoBeforeVom {
				if !reInvoiceWord.MatchString(text) && !reEuropeanTitle.MatchString(text) {
					continue
				}
				if i+1 < len(lines) {
					text += " " + lines[i+1].Text // "… Nr. 47110818" / "vom 31.10.2018"
				}
			}
			m := re.FindStringSubmatchIndex(text)
			if m == nil {
				continue
			}
			if re == reInvoiceNoTitle {
				// "Data fattura: 27 marzo 2024": a number that starts a
				// date is the day of the invoice's date, not its number.
				if startsWithDate(text[m[2]:]) {
					continue
				}
			}
			v := strings.TrimRight(text[m[2]:m[3]], ".,;:")
			if strings.ContainsAny(v, "0123456789") && len(v) >= 2 {
				return v, i, true
			}
			// The value printed below its label, in the same column.
			if i+1 < len(lines) && strings.HasSuffix(strings.TrimSpace(l.Text), strings.TrimSpace(text[m[0]:m[1]])) {
				next := strings.Fields(lines[i+1].Text)
				if len(next) > 0 && strings.ContainsAny(next[0], "0123456789") {
					return strings.TrimRight(next[0], ".,;:"), i + 1, true
				}
			}
		}
	}
	return "", -1, false
}

// startsWithDate reports text that begins with a date ("27 marzo 2024",
// "05.03.2018").
func startsWithDate(text string) bool {
	for _, re := range []*regexp.Regexp{reDateNum, reDayMonthYear} {
		if m := re.FindStringIndex(text); m != nil && m[0] == 0 {
			if _, ok := dateValue(text[m[0]:m[1]], receipt.Locale{DateOrder: receipt.DMY}); ok {
				return true
			}
		}
	}
	return false
}

// labelledDate is the first date after a label that names it, on the
// label's line or the next.
func labelledDate(lines []Line, loc receipt.Locale, label *regexp.Regexp) (time.Time, int, bool) {
	for i, l := range lines {
		m := label.FindStringSubmatchIndex(l.Text)
		if m == nil || inSentence(l.Text[:m[0]]) {
			continue
		}
		if d, ok := firstDate(l.Text[m[4]:m[5]], loc); ok {
			return d, i, true
		}
		if strings.TrimSpace(l.Text[m[4]:m[5]]) == "" && i+1 < len(lines) {
			if d, ok := firstDate(lines[i+1].Text, loc); ok {
				return d, i + 1, true
			}
		}
	}
	return time.Time{}, -1, false
}

// inSentence says whether the text before a label is a sentence's start,
// two words in small letters: the label is words of the sentence ("saldo a
// 30 gg data fattura, scadenza 18/07/2024" names the due date), not a
// label of its own.
func inSentence(before string) bool { return smallWords(before) >= 2 }

// smallWords counts the words of two letters or more that s prints in
// small letters only: running text has many, a label few.
func smallWords(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		if isLowerCase(w) && letterCount(w) >= 2 {
			n++
		}
	}
	return n
}

// numberDatedLine reads "Rechnung Nr. 471102 vom 05.03.2018".
func numberDatedLine(lines []Line, loc receipt.Locale) (time.Time, int, bool) {
	for i, l := range lines {
		if !reInvoiceWord.MatchString(l.Text) && !reEuropeanTitle.MatchString(l.Text) {
			continue
		}
		text := l.Text
		if i+1 < len(lines) {
			text += " " + lines[i+1].Text // "… Nr. 00.123.456.7-2018-1 vom" / "11.03.2018"
		}
		if m := reNoVom.FindStringSubmatch(text); m != nil {
			if d, ok := firstDate(m[1], loc); ok {
				return d, i, true
			}
		}
	}
	return time.Time{}, -1, false
}

// whyDateline is the reason of a date read from a letter's dateline.
const whyDateline = "the date the invoice is dated with, after its place"

// dateline is a business letter's dateline: a place, a comma, and the
// date, with the word the language puts before it (the packs'
// dateline_words: "Lyon, le 5 décembre 2024", "Berlin, den 05.12.2024",
// "Milano, 5 dicembre 2024"), made once from the packs loaded.
var dateline = sync.OnceValue(func() *regexp.Regexp {
	words := packs.AllDatelineWords()
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	links := ""
	if len(words) > 0 {
		links = `(?i:(?:` + strings.Join(words, "|") + `)\s+)?`
	}
	return regexp.MustCompile(`^\s*\p{Lu}[\p{L}'’. \-]{1,40},\s*` + links + `(.{6,30})$`)
})

// datelineDate reads the date of the first line that is a dateline and
// nothing more: the place and the date it was written.
func datelineDate(lines []Line, loc receipt.Locale) (time.Time, int, bool) {
	for i, l := range lines {
		m := dateline().FindStringSubmatch(strings.TrimSpace(l.Text))
		if m == nil {
			continue
		}
		if d, ok := dateValue(m[1], loc); ok {
			return d, i, true
		}
	}
	return time.Time{}, -1, false
}

// pageDateOrder is month-first when a slashed date on the page can only be
// read so ("11/17/2017" beside "11/03/2017"), else the locale's order.
func pageDateOrder(lines []Line, loc receipt.Locale) receipt.Locale {
	for _, l := range lines {
		for _, m := range reSlashedDate.FindAllStringSubmatch(l.Text, -1) {
			first, _ := strconv.Atoi(m[1])
			second, _ := strconv.Atoi(m[2])
			if first <= 12 && second > 12 && second <= 31 {
				loc.DateOrder = receipt.MDY
				return loc
			}
		}
	}
	return loc
}

func firstDate(s string, loc receipt.Locale) (time.Time, bool) {
	for _, re := range []*regexp.Regexp{reDateNum, reDateWord} {
		for _, m := range re.FindAllString(s, -1) {
			if d, err := receipt.ParseDate(m, loc.DateOrder); err == nil {
				return d.Date, true
			}
		}
	}
	return time.Time{}, false
}

// grossTotal is the amount on the last line that names the gross total
// ("Bruttosumme", "Total TTC", "Gesamtbetrag", not "Gesamtbetrag der
// Zuschläge"), or on the line below a label that stands alone.
func grossTotal(lines []Line, reGrossTotal *regexp.Regexp) (v decimal.Decimal, at int, ok bool) {
	at = -1
	for i, l := range lines {
		loc := reGrossTotal.FindStringIndex(l.Text)
		rest := ""
		if loc != nil {
			rest = l.Text[loc[1]:]
		} else if f := strings.Fields(l.Text); len(f) >= 2 && len(f) <= 4 {
			// "Br uttosumme 18,08": a label the text layer spaced apart.
			label := strings.Join(f[:len(f)-1], "")
			if m := reGrossTotal.FindStringIndex(label); m == nil || m[0] != 0 || m[1] != len(label) {
				continue
			}
			rest = f[len(f)-1]
		} else {
			continue
		}
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(rest)), "der ") {
			continue
		}
		// A date is no amount: "Der Rechnungsbetrag wurde bereits
		// beglichen. 03.10.2018" states no total.
		rest = reDateNum.ReplaceAllString(rest, " ")
		if a := amountsIn(rest); len(a) > 0 {
			v, at, ok = a[len(a)-1], i, true
			continue
		}
		if strings.TrimSpace(rest) == "" && len(strings.Fields(l.Text)) >= 4 {
			// The last column of a tax summary table ("… MwSt-% Endbetrag"):
			// its sum row is the one that names the currency.
			for j := i + 1; j < len(lines) && j <= i+6; j++ {
				a := amountsIn(lines[j].Text)
				if len(a) >= 2 && reCurrencyCode.MatchString(lines[j].Text) {
					v, at, ok = a[len(a)-1], j, true
				}
			}
			continue
		}
		if strings.TrimSpace(rest) == "" && i+1 < len(lines) && reAmountOnly.MatchString(strings.TrimSpace(lines[i+1].Text)) {
			if a := amountsIn(lines[i+1].Text); len(a) == 1 {
				v, at, ok = a[0], i+1, true
			}
		}
	}
	return v, at, ok
}

// sellerTaxID is the labelled VAT ID in the seller's block, else the first
// labelled one outside the buyer's block: a printed ID is kept even when its
// check digit fails (validation then says so).
func sellerTaxID(lines []Line, loc receipt.Locale) (receipt.TaxID, int, bool) {
	pick := func(i int) (receipt.TaxID, bool) {
		m := reVATLabel.FindStringSubmatch(lines[i].Text)
		if m == nil {
			return receipt.TaxID{}, false
		}
		id := receipt.DetectTaxID(m[1], loc.Country)
		if id.Value == "" {
			id = receipt.TaxID{Scheme: receipt.SchemeOther, Value: receipt.NormalizeTaxID(m[1])}
		}
		return id, true
	}
	for i, l := range lines {
		if !isHeader(reSellerHeader, l.Text) {
			continue
		}
		for j := i + 1; j < len(lines) && j <= i+12 && !isBuyerHeader(lines[j].Text); j++ {
			if id, ok := pick(j); ok {
				return id, j, true
			}
		}
	}
	inBuyer := -100
	for i, l := range lines {
		if isBuyerHeader(l.Text) {
			inBuyer = i
		}
		if i-inBuyer <= 6 || reBuyerWord.MatchString(l.Text) {
			continue
		}
		if id, ok := pick(i); ok {
			return id, i, true
		}
	}
	return receipt.TaxID{}, -1, false
}

// notLastPage reports a page that says it is followed by others ("Seite 1 von 2").
func notLastPage(lines []Line) bool {
	for _, l := range lines {
		if m := rePageOf.FindStringSubmatch(l.Text); m != nil {
			page, _ := strconv.Atoi(m[1])
			of, _ := strconv.Atoi(m[2])
			if page < of {
				return true
			}
		}
	}
	return false
}
