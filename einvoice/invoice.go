package einvoice

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Amount is a money amount an invoice may or may not state.
type Amount struct {
	Value decimal.Decimal
	Set   bool
}

func (a Amount) String() string {
	if !a.Set {
		return ""
	}
	return a.Value.StringFixed(2)
}

// Party is the seller or the buyer.
type Party struct {
	Name      string
	VATID     string // the VAT (or GST, ABN) registration, BT-31 / BT-48
	TaxNumber string // a national tax number where no VAT ID is given (German Steuernummer, BT-32)
	Address   string
	Country   string // ISO 3166 alpha-2
}

// Line is one invoice line (BG-25).
type Line struct {
	Name      string
	Quantity  Amount
	UnitPrice Amount // net price per one unit (the price's base quantity divided out)
	Net       Amount // line net amount, BT-131
	Category  string // VAT category code: S, Z, E, AE, K, G, O, L, M
	Rate      Amount // percent
}

// Tax is one VAT breakdown (BG-23): a category and rate with its taxable
// amount and tax.
type Tax struct {
	Category string
	Rate     Amount
	Basis    Amount
	Amount   Amount
}

// Invoice is what an e-invoice says, as it says it: credit notes keep the
// positive amounts their XML holds (Receipt negates them).
type Invoice struct {
	Syntax     string // "CII", "CII (ZUGFeRD 1)", "UBL Invoice", "UBL CreditNote"
	Profile    string // the specification identifier (BT-24), e.g. urn:cen.eu:en16931:2017
	TypeCode   string // UNTDID 1001: 380 invoice, 381 credit note, 384 corrected invoice…
	CreditNote bool
	Number     string
	IssueDate  time.Time // zero when absent
	DueDate    time.Time
	Delivery   time.Time
	Currency   string
	Seller     Party
	Buyer      Party
	Lines      []Line
	Taxes      []Tax
	// Document totals (BG-22).
	LineTotal  Amount // BT-106 sum of line net amounts
	Allowances Amount // BT-107
	Charges    Amount // BT-108
	TaxBasis   Amount // BT-109 total without VAT
	TaxTotal   Amount // BT-110
	GrandTotal Amount // BT-112 total with VAT
	Prepaid    Amount // BT-113
	Rounding   Amount // BT-114
	Due        Amount // BT-115 amount due for payment
	Terms      string // BT-20
	IBAN       string // BT-84
}

// ErrNoInvoiceInPDF is returned by Read for a PDF that carries no e-invoice.
var ErrNoInvoiceInPDF = errors.New("the PDF carries no e-invoice XML")

// ErrDamaged is wrapped by Read's error for a PDF that carries an e-invoice
// which cannot be read: its XML is malformed, its stream corrupt, or its
// attachment not XML. The PDF is then read from its print, and the user is
// told (FindDamaged).
var ErrDamaged = errors.New("the PDF carries an e-invoice that cannot be read")

// Read reads an e-invoice file: a PDF with its XML embedded, or a bare
// CII or UBL XML file. The file is refused unread when it is over maxBytes
// (MaxXMLBytes for XML; PDFs may be larger, their XML may not).
func Read(path string, maxBytes int64) (*Invoice, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if maxBytes > 0 && st.Size() > maxBytes {
		return nil, fmt.Errorf("%w: the file is %d MB, over the %d MB limit", ErrHostile, st.Size()>>20, maxBytes>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if IsPDF(data) {
		x, name, err := FromPDF(data)
		if err != nil {
			return nil, err
		}
		inv, err := Parse(x)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrDamaged, name, err)
		}
		return inv, nil
	}
	return Parse(data)
}

// Parse reads CII or UBL invoice XML.
func Parse(data []byte) (*Invoice, error) {
	root, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	switch {
	case root.name == "CrossIndustryInvoice" || root.name == "CrossIndustryDocument":
		return fromCII(root), nil
	case root.name == "Invoice" && root.first("HeaderExchangedDocument") != nil:
		// ZUGFeRD's 2013 release candidate: CII elements under an <Invoice> root.
		inv := fromCII(root)
		inv.Syntax = "CII (ZUGFeRD 1 draft)"
		return inv, nil
	case root.name == "Invoice" || root.name == "CreditNote":
		return fromUBL(root), nil
	}
	return nil, fmt.Errorf("%w: its root element is <%s>, not a CII CrossIndustryInvoice or a UBL Invoice or CreditNote", ErrNotInvoice, root.name)
}

// LooksLikeXML reports whether a file's first bytes start an XML document
// (after an optional byte-order mark and white space).
func LooksLikeXML(head []byte) bool {
	s := strings.TrimPrefix(string(head), "\ufeff")
	s = strings.TrimLeft(s, " \t\r\n")
	return strings.HasPrefix(s, "<?xml") || strings.HasPrefix(s, "<") && len(s) > 1 && (s[1] == '!' || isNameStart(s[1]))
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// creditNoteCodes are the UNTDID 1001 document types that credit.
var creditNoteCodes = map[string]bool{"81": true, "83": true, "261": true, "262": true, "296": true, "308": true, "381": true, "396": true, "420": true, "458": true, "532": true}

func parseAmount(s string) Amount {
	s = strings.TrimSpace(s)
	if s == "" {
		return Amount{}
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return Amount{}
	}
	return Amount{Value: d, Set: true}
}

// parseDate reads CII's DateTimeString (format 102 = YYYYMMDD) and UBL's
// xs:date (YYYY-MM-DD).
func parseDate(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"20060102", "2006-01-02", "2006-01-02Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		}
	}
	if len(s) >= 10 {
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil {
			return t
		}
	}
	return time.Time{}
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
