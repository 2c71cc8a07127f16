// Package receipt is Shoebox's domain: a Receipt and its fields, each with a
// confidence, a source and an optional box on the page image; money as
// decimals with a currency; normalisers for the forms dates, amounts and tax
// IDs take on real receipts; and the validation findings a reviewer sees.
// It imports nothing else of ours, so every other package can depend on it.
package receipt

import (
	"strings"
	"time"
	"unicode"

	"github.com/shopspring/decimal"
	"golang.org/x/text/unicode/norm"
)

// DocType is what kind of document a receipt is.
type DocType string

// The kinds of document.
const (
	DocReceipt    DocType = "receipt"
	DocTaxInvoice DocType = "tax_invoice"
	DocInvoice    DocType = "invoice"
	DocCreditNote DocType = "credit_note"
	DocOther      DocType = "other"
)

// DocTypes lists every DocType in the order a form offers them.
var DocTypes = []DocType{DocReceipt, DocTaxInvoice, DocInvoice, DocCreditNote, DocOther}

// docTypeNames are the kinds of document as a bookkeeper names them.
var docTypeNames = map[DocType]string{
	DocReceipt:    "Receipt",
	DocTaxInvoice: "Tax invoice",
	DocInvoice:    "Invoice",
	DocCreditNote: "Credit note",
	DocOther:      "Other",
}

// Name is the kind of document in words a form shows ("Credit note");
// a kind it does not know, as stored.
func (d DocType) Name() string {
	if n, ok := docTypeNames[d]; ok {
		return n
	}
	return string(d)
}

// DocTypeNamed is the kind of document a form's words name (Name's
// inverse); ok is false for words that name none.
func DocTypeNamed(name string) (DocType, bool) {
	for d, n := range docTypeNames {
		if n == name {
			return d, true
		}
	}
	return "", false
}

// Source says who produced a value.
type Source string

// The sources of a value.
const (
	SourceModel Source = "model" // a vision-language model
	SourceOCR   Source = "ocr"   // the OCR engine's layout rules
	SourceUser  Source = "user"  // typed or confirmed by a person
	SourceRule  Source = "rule"  // filled in from supplier memory or a default
	// SourceEInvoice is a structured e-invoice (Factur-X, ZUGFeRD, XRechnung,
	// UBL, Peppol): the issuer's own data, read exactly.
	SourceEInvoice Source = "e-invoice"
)

// Box is a rectangle on a page image, in pixels of that page as ingested
// (after EXIF orientation), with Page counting from 0.
type Box struct {
	Page int `json:"page"`
	X    int `json:"x"`
	Y    int `json:"y"`
	W    int `json:"w"`
	H    int `json:"h"`
}

// Union returns the smallest box on b's page that holds both boxes.
func (b Box) Union(o Box) Box {
	x0, y0 := min(b.X, o.X), min(b.Y, o.Y)
	x1, y1 := max(b.X+b.W, o.X+o.W), max(b.Y+b.H, o.Y+o.H)
	return Box{Page: b.Page, X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// Field is one extracted value with its provenance. The zero Field is
// "not present"; Set distinguishes an empty value that was read from one that
// was never found.
type Field[T any] struct {
	Value      T       `json:"value"`
	Set        bool    `json:"set"`
	Confidence float64 `json:"confidence,omitempty"` // 0–1
	Source     Source  `json:"source,omitempty"`
	Box        *Box    `json:"box,omitempty"`
	// Why says in a few words how the reader came to the value ("the
	// amount on the TOTAL line", "cash less change"), for the reviewer.
	Why string `json:"why,omitempty"`
	// Support lists the independent evidence that the value is right
	// (see Assess in inference/fields); Doubt says what speaks against it.
	Support []Support `json:"support,omitempty"`
	Doubt   string    `json:"doubt,omitempty"`
}

// Of returns a set field with the given value and provenance.
func Of[T any](v T, src Source, confidence float64) Field[T] {
	return Field[T]{Value: v, Set: true, Source: src, Confidence: confidence}
}

// Text is a string-valued field.
type Text = Field[string]

// Amount is a decimal-valued field; its currency is the receipt's.
type Amount = Field[decimal.Decimal]

// TaxScheme names the register a supplier's tax ID belongs to.
type TaxScheme string

// The tax-ID registers Shoebox checks.
const (
	SchemeNone  TaxScheme = ""
	SchemeABN   TaxScheme = "AU_ABN"
	SchemeNZGST TaxScheme = "NZ_GST"
	SchemeUKVAT TaxScheme = "UK_VAT"
	SchemeEUVAT TaxScheme = "EU_VAT"
	SchemeUSEIN TaxScheme = "US_EIN"
	SchemeMYGST TaxScheme = "MY_GST"
	SchemeMYSST TaxScheme = "MY_SST"
	SchemeCHVAT TaxScheme = "CH_VAT" // a Swiss business ID (UID) registered for VAT: CHE123456789MWST (TVA, IVA)
	SchemeNOVAT TaxScheme = "NO_VAT" // a Norwegian organisation number registered for VAT: NO912345678MVA
	SchemeOther TaxScheme = "other"
)

// TaxID is a supplier's tax registration number.
type TaxID struct {
	Scheme TaxScheme `json:"scheme,omitempty"`
	Value  string    `json:"value"` // as normalised by NormalizeTaxID
}

// LineItem is one purchased line.
type LineItem struct {
	Description Text   `json:"description"`
	Quantity    Amount `json:"quantity"`
	UnitPrice   Amount `json:"unit_price"`
	LineTotal   Amount `json:"line_total"`
	TaxCode     Text   `json:"tax_code"`
}

// TaxLine is one tax rate's share of a receipt: "GST 10% on 90.91 = 9.09".
type TaxLine struct {
	Label Text   `json:"label"` // GST, VAT, SST, Sales tax…
	Rate  Amount `json:"rate"`  // percent: 10 means 10%
	Net   Amount `json:"net"`
	Tax   Amount `json:"tax"`
}

// TaxLinesTotal is the sum of the tax lines' taxes.
func TaxLinesTotal(lines []TaxLine) decimal.Decimal {
	sum := decimal.Zero
	for _, tl := range lines {
		sum = sum.Add(tl.Tax.Value)
	}
	return sum
}

// Receipt is everything Shoebox knows about one document.
type Receipt struct {
	DocType         Field[DocType]   `json:"doc_type"`
	SupplierName    Text             `json:"supplier_name"`
	SupplierTaxID   Field[TaxID]     `json:"supplier_tax_id"`
	SupplierAddress Text             `json:"supplier_address"`
	SupplierPhone   Text             `json:"supplier_phone"`
	PayerName       Text             `json:"payer_name"`
	PayerAddress    Text             `json:"payer_address"`
	DocumentNumber  Text             `json:"document_number"`
	Date            Field[time.Time] `json:"date"` // calendar date at 00:00 UTC
	Time            Text             `json:"time"` // "HH:MM" or "HH:MM:SS", local to the receipt
	Currency        Text             `json:"currency"`
	LineItems       []LineItem       `json:"line_items"`
	Subtotal        Amount           `json:"subtotal"`
	TaxLines        []TaxLine        `json:"tax_lines"`
	TotalTax        Amount           `json:"total_tax"`
	TaxInclusive    Field[bool]      `json:"tax_inclusive"`
	Tip             Amount           `json:"tip"`
	Discount        Amount           `json:"discount"` // a positive amount taken off
	Rounding        Amount           `json:"rounding"` // signed: -0.02 rounds down
	Total           Amount           `json:"total"`
	AmountPaid      Amount           `json:"amount_paid"`
	// Change is the cash handed back (paid less total); left out of JSON
	// while unset, as the invoice terms below.
	Change Amount `json:"change,omitzero"`
	// Invoice terms: when payment is due, when the goods or services were
	// delivered, the terms as printed, the account to pay into, and what is
	// still owed (the total less prepayments). Left out of JSON while unset,
	// so stored receipts and golden readings keep their shape.
	DueDate      Field[time.Time] `json:"due_date,omitzero"`
	DeliveryDate Field[time.Time] `json:"delivery_date,omitzero"`
	PaymentTerms Text             `json:"payment_terms,omitzero"`
	IBAN         Text             `json:"iban,omitzero"`
	AmountDue    Amount           `json:"amount_due,omitzero"`
	// PrintedIn is the country the page was printed in, as its words told
	// the reading rules (a country pack's code: "DE"); TaxRules are the
	// rules its rates and arithmetic are checked by ("EU"), whatever the
	// client's country. Left out of JSON while unset.
	PrintedIn     Text    `json:"printed_in,omitzero"`
	TaxRules      Country `json:"tax_rules,omitempty"`
	PaymentMethod Text    `json:"payment_method"`
	CardLastFour  Text    `json:"card_last_four"`
	Category      Text    `json:"category"`
	Notes         Text    `json:"notes"`

	// PageTurns holds, for each page the reader found lying on its side
	// or upside down, the quarter turns clockwise that set it upright (the
	// review shows it so); the boxes stay on the page as given.
	PageTurns map[int]int `json:"page_turns,omitempty"`
}

// Date returns the calendar date y-m-d at midnight UTC, the form Receipt.Date holds.
func Date(y int, m time.Month, d int) time.Time {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Fold reduces text to lower-case letters and digits without accents, the
// form names are compared in: "SOON HUAT SDN. BHD." and "Soon Huat Sdn
// Bhd" fold alike, and so do "Bürobedarf Köhler" and "BUROBEDARF KOHLER".
func Fold(s string) string {
	return fold(s)
}

// legalFormWords end a company's name without naming it: "Au bon moulin"
// and "Au bon moulin SARL" are one seller.
var legalFormWords = map[string]bool{
	"gmbh": true, "ag": true, "kg": true, "ug": true, "sarl": true, "sas": true,
	"sa": true, "srl": true, "spa": true, "sl": true, "bv": true, "nv": true, "ltd": true, "limited": true, "pty": true,
	"inc": true, "llc": true, "plc": true, "sdn": true, "bhd": true, "co": true, "corp": true, "mbh": true,
}

// FoldName folds a company's name as Fold does, leaving out the legal form
// at its end (GmbH, SARL, Pty Ltd, Sdn Bhd, …).
func FoldName(s string) string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '&' })
	for len(words) > 1 && legalFormWords[fold(words[len(words)-1])] {
		words = words[:len(words)-1]
	}
	return fold(strings.Join(words, " "))
}

func fold(s string) string {
	var b strings.Builder
	// Accents and umlauts go too: a page reader drops them as often as
	// it reads them (Köhler is KOHLER), and ß is ss.
	for _, r := range norm.NFD.String(strings.ReplaceAll(strings.ToLower(s), "ß", "ss")) {
		if unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
