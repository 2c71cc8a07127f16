package receipt

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Kind is how a field's value is typed in and shown.
type Kind string

// The kinds of field.
const (
	KindText     Kind = "text"
	KindAmount   Kind = "amount"
	KindDate     Kind = "date"
	KindBool     Kind = "bool"
	KindTaxID    Kind = "tax_id"
	KindDocType  Kind = "doc_type"
	KindCurrency Kind = "currency"
)

// FieldSpec describes one editable top-level field.
type FieldSpec struct {
	Path  string // JSON name, as in Finding.Fields and history
	Label string
	Kind  Kind
}

// Fields lists the top-level fields in form order.
var Fields = []FieldSpec{
	{"doc_type", "Document type", KindDocType},
	{"supplier_name", "Supplier", KindText},
	{"supplier_tax_id", "Supplier tax ID", KindTaxID},
	{"supplier_address", "Supplier address", KindText},
	{"supplier_phone", "Supplier phone", KindText},
	{"payer_name", "Payer", KindText},
	{"payer_address", "Payer address", KindText},
	{"document_number", "Document number", KindText},
	{"date", "Date", KindDate},
	{"time", "Time", KindText},
	{"currency", "Currency", KindCurrency},
	{"subtotal", "Subtotal", KindAmount},
	{"total_tax", "Tax", KindAmount},
	{"tax_inclusive", "Prices include tax", KindBool},
	{"tip", "Tip", KindAmount},
	{"discount", "Discount", KindAmount},
	{"rounding", "Rounding", KindAmount},
	{"total", "Total", KindAmount},
	{"amount_paid", "Amount paid", KindAmount},
	{"change", "Change", KindAmount},
	{"amount_due", "Amount due", KindAmount},
	{"due_date", "Due date", KindDate},
	{"delivery_date", "Delivery date", KindDate},
	{"payment_terms", "Payment terms", KindText},
	{"iban", "Pay to (IBAN)", KindText},
	{"payment_method", "Payment method", KindText},
	{"card_last_four", "Card (last four)", KindText},
	{"category", "Category", KindText},
	{"notes", "Notes", KindText},
}

// LineItemFields and TaxLineFields are the columns of the two tables.
var (
	LineItemFields = []FieldSpec{
		{"description", "Description", KindText},
		{"quantity", "Qty", KindAmount},
		{"unit_price", "Unit price", KindAmount},
		{"line_total", "Line total", KindAmount},
		{"tax_code", "Tax code", KindText},
	}
	TaxLineFields = []FieldSpec{
		{"label", "Label", KindText}, {"rate", "Rate %", KindAmount}, {"net", "Net", KindAmount}, {"tax", "Tax", KindAmount},
	}
)

var reIndexed = regexp.MustCompile(`^(line_items|tax_lines)\[(\d+)\]\.([a-z_]+)$`)

// fieldPtr returns a pointer to the Field the path names.
func fieldPtr(r *Receipt, path string) (any, error) {
	if m := reIndexed.FindStringSubmatch(path); m != nil {
		i, _ := strconv.Atoi(m[2])
		switch m[1] {
		case "line_items":
			if i >= len(r.LineItems) {
				return nil, fmt.Errorf("field %s: receipt has %d line items", path, len(r.LineItems))
			}
			li := &r.LineItems[i]
			switch m[3] {
			case "description":
				return &li.Description, nil
			case "quantity":
				return &li.Quantity, nil
			case "unit_price":
				return &li.UnitPrice, nil
			case "line_total":
				return &li.LineTotal, nil
			case "tax_code":
				return &li.TaxCode, nil
			}
		case "tax_lines":
			if i >= len(r.TaxLines) {
				return nil, fmt.Errorf("field %s: receipt has %d tax lines", path, len(r.TaxLines))
			}
			tl := &r.TaxLines[i]
			switch m[3] {
			case "label":
				return &tl.Label, nil
			case "rate":
				return &tl.Rate, nil
			case "net":
				return &tl.Net, nil
			case "tax":
				return &tl.Tax, nil
			}
		}
		return nil, fmt.Errorf("unknown field %q", path)
	}
	switch path {
	case "doc_type":
		return &r.DocType, nil
	case "supplier_name":
		return &r.SupplierName, nil
	case "supplier_tax_id":
		return &r.SupplierTaxID, nil
	case "supplier_address":
		return &r.SupplierAddress, nil
	case "supplier_phone":
		return &r.SupplierPhone, nil
	case "payer_name":
		return &r.PayerName, nil
	case "payer_address":
		return &r.PayerAddress, nil
	case "document_number":
		return &r.DocumentNumber, nil
	case "date":
		return &r.Date, nil
	case "time":
		return &r.Time, nil
	case "currency":
		return &r.Currency, nil
	case "subtotal":
		return &r.Subtotal, nil
	case "total_tax":
		return &r.TotalTax, nil
	case "tax_inclusive":
		return &r.TaxInclusive, nil
	case "tip":
		return &r.Tip, nil
	case "discount":
		return &r.Discount, nil
	case "rounding":
		return &r.Rounding, nil
	case "total":
		return &r.Total, nil
	case "amount_paid":
		return &r.AmountPaid, nil
	case "change":
		return &r.Change, nil
	case "amount_due":
		return &r.AmountDue, nil
	case "due_date":
		return &r.DueDate, nil
	case "delivery_date":
		return &r.DeliveryDate, nil
	case "payment_terms":
		return &r.PaymentTerms, nil
	case "iban":
		return &r.IBAN, nil
	case "payment_method":
		return &r.PaymentMethod, nil
	case "card_last_four":
		return &r.CardLastFour, nil
	case "category":
		return &r.Category, nil
	case "notes":
		return &r.Notes, nil
	}
	return nil, fmt.Errorf("unknown field %q", path)
}

// Get returns the field's value as text for display and history ("" when
// unset): amounts as plain decimals, dates as YYYY-MM-DD, tax IDs as
// "SCHEME:VALUE".
func Get(r *Receipt, path string) (string, error) {
	p, err := fieldPtr(r, path)
	if err != nil {
		return "", err
	}
	switch f := p.(type) {
	case *Text:
		return f.Value, nil
	case *Amount:
		if !f.Set {
			return "", nil
		}
		return f.Value.String(), nil
	case *Field[time.Time]:
		if !f.Set {
			return "", nil
		}
		return f.Value.Format(time.DateOnly), nil
	case *Field[bool]:
		if !f.Set {
			return "", nil
		}
		return strconv.FormatBool(f.Value), nil
	case *Field[TaxID]:
		if !f.Set || f.Value.Value == "" {
			return "", nil
		}
		if f.Value.Scheme == "" {
			return f.Value.Value, nil
		}
		return string(f.Value.Scheme) + ":" + f.Value.Value, nil
	case *Field[DocType]:
		return string(f.Value), nil
	}
	return "", fmt.Errorf("field %q has no text form", path)
}

// Meta returns the provenance of the field at path.
func Meta(r *Receipt, path string) (set bool, conf float64, src Source, box *Box, err error) {
	p, err := fieldPtr(r, path)
	if err != nil {
		return false, 0, "", nil, err
	}
	switch f := p.(type) {
	case *Text:
		return f.Set, f.Confidence, f.Source, f.Box, nil
	case *Amount:
		return f.Set, f.Confidence, f.Source, f.Box, nil
	case *Field[time.Time]:
		return f.Set, f.Confidence, f.Source, f.Box, nil
	case *Field[bool]:
		return f.Set, f.Confidence, f.Source, f.Box, nil
	case *Field[TaxID]:
		return f.Set, f.Confidence, f.Source, f.Box, nil
	case *Field[DocType]:
		return f.Set, f.Confidence, f.Source, f.Box, nil
	}
	return false, 0, "", nil, fmt.Errorf("unknown field %q", path)
}

// Set parses text typed by a person (or a rule) into the field at path and
// marks it with src at full confidence, keeping its box. An empty value
// clears the field. Dates follow loc's order; tax IDs are detected with
// loc's country unless written "SCHEME:VALUE".
func Set(r *Receipt, path, value string, src Source, loc Locale) error {
	p, err := fieldPtr(r, path)
	if err != nil {
		return err
	}
	value = strings.TrimSpace(value)
	clear := value == ""
	switch f := p.(type) {
	case *Text:
		if path == "currency" && !clear {
			value = strings.ToUpper(value)
			if !ValidCurrency(value) {
				return fmt.Errorf("%q is not a currency code such as AUD, GBP or EUR", value)
			}
		}
		*f = Field[string]{Value: value, Set: !clear, Source: src, Confidence: 1, Box: f.Box}
	case *Amount:
		var v decimal.Decimal
		if !clear {
			a, err := ParseAmount(value)
			if err != nil {
				return err
			}
			v = a.Value
		}
		*f = Field[decimal.Decimal]{Value: v, Set: !clear, Source: src, Confidence: 1, Box: f.Box}
	case *Field[time.Time]:
		var v time.Time
		if !clear {
			d, err := ParseDate(value, loc.DateOrder)
			if err != nil {
				return err
			}
			v = d.Date
		}
		*f = Field[time.Time]{Value: v, Set: !clear, Source: src, Confidence: 1, Box: f.Box}
	case *Field[bool]:
		var v bool
		if !clear {
			switch strings.ToLower(value) {
			case "true", "yes", "y", "1":
				v = true
			case "false", "no", "n", "0":
			default:
				return fmt.Errorf("%q is not yes or no", value)
			}
		}
		*f = Field[bool]{Value: v, Set: !clear, Source: src, Confidence: 1, Box: f.Box}
	case *Field[TaxID]:
		var v TaxID
		if !clear {
			if scheme, id, ok := strings.Cut(value, ":"); ok && knownScheme(TaxScheme(scheme)) {
				v = TaxID{Scheme: TaxScheme(scheme), Value: NormalizeTaxID(id)}
			} else {
				v = DetectTaxID(value, loc.Country)
			}
		}
		*f = Field[TaxID]{Value: v, Set: !clear, Source: src, Confidence: 1, Box: f.Box}
	case *Field[DocType]:
		v := DocType(strings.ToLower(value))
		if !clear && !knownDocType(v) {
			return fmt.Errorf("%q is not a document type (receipt, tax_invoice, invoice, credit_note, other)", value)
		}
		*f = Field[DocType]{Value: v, Set: !clear, Source: src, Confidence: 1, Box: f.Box}
	}
	return nil
}

func knownScheme(s TaxScheme) bool {
	switch s {
	case SchemeABN, SchemeNZGST, SchemeUKVAT, SchemeEUVAT, SchemeUSEIN, SchemeMYGST, SchemeMYSST, SchemeCHVAT, SchemeNOVAT, SchemeOther:
		return true
	}
	return false
}

func knownDocType(d DocType) bool {
	for _, t := range DocTypes {
		if t == d {
			return true
		}
	}
	return false
}

// CopyField copies the field at path, value and provenance, from src to dst.
func CopyField(dst, src *Receipt, path string) error {
	d, err := fieldPtr(dst, path)
	if err != nil {
		return err
	}
	s, err := fieldPtr(src, path)
	if err != nil {
		return err
	}
	switch d := d.(type) {
	case *Text:
		*d = *s.(*Text)
	case *Amount:
		*d = *s.(*Amount)
	case *Field[time.Time]:
		*d = *s.(*Field[time.Time])
	case *Field[bool]:
		*d = *s.(*Field[bool])
	case *Field[TaxID]:
		*d = *s.(*Field[TaxID])
	case *Field[DocType]:
		*d = *s.(*Field[DocType])
	}
	return nil
}

// SetProvenance changes a set field's confidence (when conf >= 0) and box
// (when box is not nil), keeping its value and source.
func SetProvenance(r *Receipt, path string, conf float64, box *Box) error {
	p, err := fieldPtr(r, path)
	if err != nil {
		return err
	}
	apply := func(c *float64, b **Box) {
		if conf >= 0 {
			*c = conf
		}
		if box != nil {
			*b = box
		}
	}
	switch f := p.(type) {
	case *Text:
		apply(&f.Confidence, &f.Box)
	case *Amount:
		apply(&f.Confidence, &f.Box)
	case *Field[time.Time]:
		apply(&f.Confidence, &f.Box)
	case *Field[bool]:
		apply(&f.Confidence, &f.Box)
	case *Field[TaxID]:
		apply(&f.Confidence, &f.Box)
	case *Field[DocType]:
		apply(&f.Confidence, &f.Box)
	}
	return nil
}
