package bank

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// Statement is one statement file as read: its lines in file order, and
// the balances it states. Amounts are signed: money out is negative.
type Statement struct {
	Format   string `json:"format"` // OFX, QIF, CAMT.053, CSV, …
	Account  string `json:"account,omitempty"`
	Currency string `json:"currency,omitempty"`
	From     time.Time
	To       time.Time
	Opening  *decimal.Decimal `json:"opening,omitempty"`
	Closing  *decimal.Decimal `json:"closing,omitempty"`
	Lines    []Line           `json:"lines"`
	// Mapping is how a CSV file was read (nil for other formats).
	Mapping *Mapping `json:"mapping,omitempty"`
	// Notes say what was assumed or left out while reading.
	Notes []string `json:"notes,omitempty"`
}

// Line is one statement line. OrigAmount/OrigCurrency are the foreign
// amount of a card payment when the bank states it (positive).
type Line struct {
	Date         time.Time
	Amount       decimal.Decimal
	Currency     string
	OrigAmount   decimal.Decimal
	OrigCurrency string
	Description  string
	Reference    string
	Balance      *decimal.Decimal
}

// Limits keep a hostile or mistaken file from eating the computer.
const (
	MaxFileBytes = 64 << 20
	MaxLines     = 500_000
)

// ErrBalance says a statement's own balances do not add up.
var ErrBalance = errors.New("the statement's balances do not add up")

// Sum is the lines' total.
func (s *Statement) Sum() decimal.Decimal {
	var t decimal.Decimal
	for _, l := range s.Lines {
		t = t.Add(l.Amount)
	}
	return t
}

// CheckBalances verifies opening + lines = closing where the file states
// both, and each stated running balance against the line before it.
func (s *Statement) CheckBalances() error {
	if s.Opening != nil && s.Closing != nil {
		if got := s.Opening.Add(s.Sum()); !got.Equal(*s.Closing) {
			return fmt.Errorf("%w: opening %s + lines %s = %s, but the closing balance is %s", ErrBalance,
				s.Opening.StringFixed(2), s.Sum().StringFixed(2), got.StringFixed(2), s.Closing.StringFixed(2))
		}
	}
	return nil
}

// span sets From and To from the lines where the file did not say.
func (s *Statement) span() {
	for _, l := range s.Lines {
		if s.From.IsZero() || l.Date.Before(s.From) {
			s.From = l.Date
		}
		if s.To.IsZero() || l.Date.After(s.To) {
			s.To = l.Date
		}
	}
}

// text decodes a statement file to UTF-8: UTF-8 (with or without BOM) and
// UTF-16 with a BOM as they are; anything else that is not UTF-8 is read
// as Windows-1252, the encoding older bank exports use, and noted. A file
// with NUL bytes and no UTF-16 BOM is not text.
func text(data []byte) (string, string, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		data = data[3:]
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		out, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder().Bytes(data)
		if err != nil {
			return "", "", fmt.Errorf("the file says it is UTF-16 but is not: %w", err)
		}
		return string(out), "read as UTF-16", nil
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", "", errors.New("this is not a text file (it holds binary data): export the statement from the bank as OFX, QIF, CAMT XML or CSV")
	}
	if utf8.Valid(data) {
		return string(data), "", nil
	}
	out, err := charmap.Windows1252.NewDecoder().Bytes(data)
	if err != nil {
		return "", "", err
	}
	return string(out), "the file is not UTF-8: read as Windows-1252 (Western European)", nil
}

// Options steer reading: the account's CSV mapping (nil: detect it), and
// the currency and date order to assume where the file does not say.
type Options struct {
	Mapping  *Mapping
	Currency string
	DayFirst bool // dates like 03/04 are 3 April (most of the world)
}

// Parse reads a statement file of any supported format, told by its
// content (the name's extension only breaks ties).
func Parse(name string, data []byte, opt Options) (*Statement, error) {
	if len(data) == 0 {
		return nil, errors.New("the file is empty")
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("the file is %d MB; statements over %d MB are refused (split it by period at the bank)", len(data)>>20, MaxFileBytes>>20)
	}
	txt, note, err := text(data)
	if err != nil {
		return nil, err
	}
	var s *Statement
	head := strings.ToUpper(strings.TrimSpace(firstBytes(txt, 4096)))
	switch {
	case strings.HasPrefix(head, "OFXHEADER") || strings.Contains(head, "<OFX>") || strings.Contains(head, "<?OFX"):
		s, err = parseOFX(txt)
	case strings.HasPrefix(head, "!TYPE:") || strings.HasPrefix(head, "!ACCOUNT") || strings.HasPrefix(head, "!OPTION"):
		s, err = parseQIF(txt, opt)
	case strings.HasPrefix(head, "<?XML") || strings.HasPrefix(head, "<DOCUMENT") || strings.HasPrefix(head, "<"):
		s, err = parseCAMT(txt)
	default:
		s, err = parseCSV(txt, opt)
	}
	if err != nil {
		return nil, err
	}
	if len(s.Lines) > MaxLines {
		return nil, fmt.Errorf("the statement has %d lines; more than %d are refused", len(s.Lines), MaxLines)
	}
	if note != "" {
		s.Notes = append(s.Notes, note)
	}
	if s.Currency == "" {
		s.Currency = opt.Currency
	}
	for i := range s.Lines {
		if s.Lines[i].Currency == "" {
			s.Lines[i].Currency = s.Currency
		}
		statedForeignAmount(&s.Lines[i])
	}
	s.span()
	return s, nil
}

func firstBytes(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
