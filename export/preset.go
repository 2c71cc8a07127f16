package export

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/receipt"
)

// Preset names an accounting program's import file.
type Preset string

// The import files Shoebox writes.
const (
	PresetXero          Preset = "xero"           // Xero bills (purchases) CSV
	PresetMYOBPurchases Preset = "myob-purchases" // MYOB AccountRight Purchases (Service), tab-delimited
	PresetMYOBSpend     Preset = "myob-spend"     // MYOB AccountRight Spend Money, tab-delimited
	PresetQBOBank       Preset = "qbo-bank"       // QuickBooks Online bank transactions CSV
	PresetQBOBills      Preset = "qbo-bills"      // QuickBooks Online bills CSV
)

// Presets lists every preset in the order a menu offers them.
var Presets = []Preset{PresetXero, PresetMYOBPurchases, PresetMYOBSpend, PresetQBOBank, PresetQBOBills}

// ParsePreset accepts a preset name.
func ParsePreset(s string) (Preset, error) {
	for _, p := range Presets {
		if strings.EqualFold(s, string(p)) {
			return p, nil
		}
	}
	names := make([]string, len(Presets))
	for i, p := range Presets {
		names[i] = string(p)
	}
	return "", fmt.Errorf("unknown export format %q: use xlsx, csv, %s", s, strings.Join(names, ", "))
}

// Title is the preset as a bookkeeper knows it.
func (p Preset) Title() string {
	switch p {
	case PresetXero:
		return "Xero bills"
	case PresetMYOBPurchases:
		return "MYOB AccountRight purchases (service)"
	case PresetMYOBSpend:
		return "MYOB AccountRight spend money"
	case PresetQBOBank:
		return "QuickBooks Online bank transactions"
	case PresetQBOBills:
		return "QuickBooks Online bills"
	}
	return string(p)
}

// Ext is the file extension the target's importer expects.
func (p Preset) Ext() string {
	if p == PresetMYOBPurchases || p == PresetMYOBSpend {
		return ".txt"
	}
	return ".csv"
}

// Coded is a receipt to export with how it is booked: its account and tax
// code, and any line item booked differently.
type Coded struct {
	Row
	Account, TaxCode string
	Lines            map[int]LineCode // by line item index
	// Converted says how a receipt in another currency was converted for a
	// target that takes only the client's ("MYR 9.00 at 0.3300"); "" when
	// it was not.
	Converted string
}

// LineCode is one line item's own account and tax code ("" = the receipt's).
type LineCode struct{ Account, TaxCode string }

// Reference names a receipt in every preset and in the attachments zip:
// SB-<library ID>, so the accountant can find the original.
func (c *Coded) Reference() string { return fmt.Sprintf("SB-%d", c.ID) }

// invoiceNumber is the supplier's document number, else the reference.
func (c *Coded) invoiceNumber() string {
	if n := importText(c.Receipt.DocumentNumber.Value); n != "" {
		return n
	}
	return c.Reference()
}

// Books is what the client's accounting program knows, for naming accounts
// and tax codes as each importer wants them, for coding what nobody coded
// by hand, and for the check before writing.
type Books struct {
	Locale receipt.Locale
	// Country is the client's own country as a country pack's code ("IE")
	// where one was chosen: tax charged in another country under the same
	// rules (Germany's VAT for an Irish client) is not claimable either.
	Country  string
	Accounts map[string]BookAccount // by code; empty: any code is accepted
	TaxCodes map[string]BookTaxCode // by code; empty: the client has no tax codes
	// BankAccount is the account MYOB's Spend Money pays from (1-1110).
	BankAccount string
	// DefaultAccount books a receipt that no rule, person or category
	// booked; Categories books a receipt's category (folded, as
	// receipt.Fold) to an account.
	DefaultAccount string
	Categories     map[string]string
	// FreeTaxCode books a purchase that shows no tax, OutsideTaxCode one
	// whose tax cannot be claimed (another country's tax, a currency
	// other than the client's) and tips and rounding.
	FreeTaxCode, OutsideTaxCode string
	// TaxIsCost: purchase tax is part of the cost and never claimed (US
	// sales tax): a receipt is one line at its total.
	TaxIsCost bool
	// Contacts are the client's suppliers as its program names them; empty
	// when the client has not imported its list.
	Contacts []BookContact
}

// BookContact is one supplier of the client's program, with its tax number
// (letters and digits only) when known.
type BookContact struct{ Name, TaxID string }

// contactFor names a receipt's supplier as the client's program does: the
// contact with its tax number, else the one whose name folds alike
// ("Officeworks Pty Ltd" is "OFFICEWORKS"). found is false when the client
// has a list and the supplier is not in it; with no list, the name as read.
func (b Books) contactFor(r *receipt.Receipt) (name string, found bool) {
	read := importText(r.SupplierName.Value)
	if len(b.Contacts) == 0 {
		return read, true
	}
	if id := taxIDKey(r.SupplierTaxID.Value.Value); id != "" {
		for _, c := range b.Contacts {
			if c.TaxID != "" && (c.TaxID == id || strings.HasSuffix(c.TaxID, id) || strings.HasSuffix(id, c.TaxID)) {
				return c.Name, true
			}
		}
	}
	key := receipt.FoldName(read)
	for _, c := range b.Contacts {
		if key != "" && receipt.FoldName(c.Name) == key {
			return c.Name, true
		}
	}
	return read, false
}

// taxIDKey keeps a tax number's letters and digits, upper case.
func taxIDKey(s string) string {
	var out strings.Builder
	for _, r := range strings.ToUpper(s) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			out.WriteRune(r)
		}
	}
	return out.String()
}

// BookAccount is one account of the chart, with its MYOB number and
// QuickBooks name where they differ from its code and name.
type BookAccount struct {
	Code, Name string
	MYOB, QBO  string
}

// BookTaxCode is one tax code with its rate and its name in each program
// ("" where the program takes the code itself: MYOB; or none: QBO US).
type BookTaxCode struct {
	Code     string
	Rate     decimal.Decimal
	RateSet  bool
	XeroName string
	MYOBName string
	QBOName  string
	// DefaultForRate: the code a tax line of this rate gets when nobody
	// chose one (GST for 10% in Australia, not CAP).
	DefaultForRate bool
}

// PresetOptions shape a preset export.
type PresetOptions struct {
	Books Books
	// Itemised books each line item on its own line; otherwise a receipt
	// is one line per tax rate (and one each for a tip and rounding).
	Itemised bool
	// IncludeUnconfirmed exports receipts not yet confirmed; otherwise they
	// are left out and counted in Stats.Unconfirmed.
	IncludeUnconfirmed bool
	// Rates converts receipts in another currency for the targets that
	// take only the client's (MYOB, a QuickBooks bank upload): units of the
	// client's currency for one of each currency, as the bookkeeper gives
	// them. A currency without a rate is left out there.
	Rates map[string]decimal.Decimal
	// Attachments, when set, is where a zip of the originals goes, each
	// named by its row's reference (SB-12.jpg).
	Attachments string
}

// AttachmentsPath is where the originals' zip goes beside an export file:
// bills.csv → bills-originals.zip.
func AttachmentsPath(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + "-originals.zip"
}

// CheckError is returned when the check before writing found rows the
// target would reject; nothing was written.
type CheckError struct {
	Preset   Preset
	Problems []Problem
}

func (e *CheckError) Error() string {
	return fmt.Sprintf("%s: %d problem(s) the import would reject; nothing was written", e.Preset.Title(), len(e.Problems))
}

// NothingToExportError is returned when every receipt was left out (see
// Stats.LeftOut); no file was written.
type NothingToExportError struct {
	Preset      Preset
	Unconfirmed int
	LeftOut     []Problem
}

func (e *NothingToExportError) Error() string {
	msg := fmt.Sprintf("%s: nothing to write, so no file was made: ", e.Preset.Title())
	if e.Unconfirmed == len(e.LeftOut) {
		return msg + fmt.Sprintf("%d receipt(s) not confirmed yet (confirm them, or include them with --all)", e.Unconfirmed)
	}
	return msg + fmt.Sprintf("all %d receipt(s) were left out", len(e.LeftOut))
}

// As lets a caller that lists a CheckError's problems (the window's list,
// each with a button to its receipt) list the receipts left out instead.
func (e *NothingToExportError) As(target any) bool {
	if ce, ok := target.(**CheckError); ok {
		*ce = &CheckError{Preset: e.Preset, Problems: e.LeftOut}
		return true
	}
	return false
}

// WritePreset writes the preset's import file (and the originals' zip)
// atomically. Receipts the file cannot hold (marked as duplicates; not
// confirmed, unless asked for; a refund or currency the target cannot
// take) are left out and listed in Stats.LeftOut; the rest are checked
// against what the importer rejects, and any problem means nothing is
// written.
func WritePreset(path string, p Preset, rows []Coded, opt PresetOptions) (Stats, error) {
	var write func(io.Writer, []Coded, PresetOptions) (Stats, error)
	switch p {
	case PresetXero:
		write = writeXero
	case PresetMYOBPurchases:
		write = writeMYOBPurchases
	case PresetMYOBSpend:
		write = writeMYOBSpend
	case PresetQBOBank:
		write = writeQBOBank
	case PresetQBOBills:
		write = writeQBOBills
	default:
		return Stats{}, fmt.Errorf("unknown export format %q", p)
	}
	if t, country := TargetOf(p), string(opt.Books.Locale.Country); country != "" && !t.serves(country) && (opt.Books.Country == "" || !t.serves(opt.Books.Country)) {
		where := country
		if opt.Books.Country != "" {
			where = opt.Books.Country
		}
		served := make([]string, len(t.Countries))
		for i, c := range t.Countries {
			served[i] = countryName(c)
		}
		return Stats{}, &CheckError{Preset: p, Problems: []Problem{{
			Field:   "settings",
			Message: fmt.Sprintf("%s is not sold for a client in %s (it serves %s): choose another format", p.Title(), countryName(where), strings.Join(served, ", ")),
		}}}
	}
	var in []Coded
	var left Stats
	for i := range rows {
		reason, field := leftOutReason(p, &rows[i], opt)
		if reason == "" {
			in = append(in, convertIfNeeded(p, rows[i], opt))
			continue
		}
		switch field {
		case "status":
			left.Unconfirmed++
		case "duplicate":
			left.Duplicates = append(left.Duplicates, rows[i].ID)
		}
		left.LeftOut = append(left.LeftOut, Problem{ReceiptID: rows[i].ID, Field: field, Message: reason})
	}
	if len(in) == 0 {
		return left, &NothingToExportError{Preset: p, Unconfirmed: left.Unconfirmed, LeftOut: left.LeftOut}
	}
	if problems := Check(p, in, opt); len(problems) > 0 {
		return left, &CheckError{Preset: p, Problems: problems}
	}
	var st Stats
	err := fsutil.WriteExport(path, func(w io.Writer) error {
		cw := &countingWriter{w: w}
		var err error
		if st, err = write(cw, in, opt); err != nil {
			return err
		}
		if max := TargetOf(p).MaxBytes; max > 0 && cw.n > int64(max) {
			return fmt.Errorf("%s takes at most %d KB in one upload and this file is %d KB: export a shorter period (--period)", p.Title(), max/1024, (cw.n+1023)/1024)
		}
		if opt.Attachments != "" {
			return writeAttachments(opt.Attachments, in)
		}
		return nil
	})
	if err != nil {
		return left, err
	}
	st.Unconfirmed, st.LeftOut, st.Duplicates = left.Unconfirmed, left.LeftOut, left.Duplicates
	if p == PresetXero || p == PresetQBOBills {
		seen := map[string]bool{}
		for i := range in {
			if name, found := opt.Books.contactFor(&in[i].Receipt); !found && !seen[name] {
				seen[name] = true
				st.NewContacts = append(st.NewContacts, name)
			}
		}
	}
	return st, nil
}

// convertIfNeeded turns a receipt in another currency into the client's
// for a target that takes only the client's, at the rate the bookkeeper
// gave: one line at the converted total, its tax not claimable (tax paid
// abroad never is), and the conversion said in its memo.
func convertIfNeeded(p Preset, c Coded, opt PresetOptions) Coded {
	b := opt.Books
	r := &c.Receipt
	cur := currencyOf(r, b.Locale)
	rate, ok := opt.Rates[cur]
	if !ok || cur == b.Locale.Currency || TargetOf(p).Program != "myob" && p != PresetQBOBank {
		return c
	}
	home := b.Locale.Currency
	converted := r.Total.Value.Mul(rate).Round(int32(receipt.MinorDigits(home)))
	c.Converted = fmt.Sprintf("%s %s at %s", cur, moneyText(r.Total.Value, cur), rate.String())
	c.Receipt = receipt.Receipt{
		SupplierName: r.SupplierName, DocumentNumber: r.DocumentNumber, Date: r.Date, Category: r.Category,
		Currency: receipt.Of(home, receipt.SourceUser, 1), Total: receipt.Of(converted, receipt.SourceUser, 1), TaxRules: r.TaxRules,
	}
	if c.Receipt.TaxRules == "" || c.Receipt.TaxRules == b.Locale.Country {
		c.Receipt.TaxRules = receipt.CountryOther
	}
	c.Lines = nil
	return c
}

// ParseRates reads exchange rates as a bookkeeper types them:
// "MYR=0.33,USD=1.52" (units of the client's currency for one of each).
func ParseRates(s string) (map[string]decimal.Decimal, error) {
	out := map[string]decimal.Decimal{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		cur, val, ok := strings.Cut(part, "=")
		rate, err := decimal.NewFromString(strings.TrimSpace(val))
		cur = strings.ToUpper(strings.TrimSpace(cur))
		if !ok || err != nil || !rate.IsPositive() || len(cur) != 3 {
			return nil, fmt.Errorf("exchange rate %q: write it as CUR=RATE, for example MYR=0.33 (units of the client's currency for one MYR)", part)
		}
		out[cur] = rate
	}
	return out, nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// clip shortens s to at most max characters (max 0: no limit).
func clip(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max])
}

// importText makes text fit one field of an import file: control
// characters go, and tabs and line breaks become spaces (they would split
// a tab-delimited record). The value is otherwise verbatim: "@Home" stays
// the supplier "@Home". Formula protection belongs to the workbook and
// the CSV a person opens (Neutralize), not to a file a program imports.
func importText(s string) string {
	s = stripControls(s)
	return strings.Join(strings.Fields(strings.NewReplacer("\t", " ", "\r", " ", "\n", " ").Replace(s)), " ")
}

// dateLayout writes dates in the client's order with a four-digit year:
// DD/MM/YYYY for AU, NZ and the UK, MM/DD/YYYY for the US.
func dateLayout(loc receipt.Locale) string {
	switch loc.DateOrder {
	case receipt.MDY:
		return "01/02/2006"
	case receipt.YMD:
		return "2006-01-02"
	}
	return "02/01/2006"
}

// money writes an amount with the currency's minor digits and a dot.
func moneyText(d decimal.Decimal, cur string) string {
	return d.StringFixed(int32(receipt.MinorDigits(cur)))
}

// unitText writes a unit price with at least the currency's minor digits.
func unitText(d decimal.Decimal, cur string) string {
	if digits := int32(receipt.MinorDigits(cur)); -d.Exponent() <= digits {
		return d.StringFixed(digits)
	}
	return d.String()
}

// addTotal counts a receipt in an export's stats.
func (st *Stats) addTotal(c *Coded, loc receipt.Locale) {
	if st.Totals == nil {
		st.Totals = map[string]decimal.Decimal{}
	}
	cur := currencyOf(&c.Receipt, loc)
	st.Totals[cur] = st.Totals[cur].Add(c.Receipt.Total.Value)
	st.Receipts++
}
