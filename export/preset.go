package export

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/receipt"
)

// Preset names an accounting program's import file.
type Preset string

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
}

// LineCode is one line item's own account and tax code ("" = the receipt's).
type LineCode struct{ Account, TaxCode string }

// line returns what line item i is booked to.
func (c *Coded) line(i int) (account, taxCode string) {
	account, taxCode = c.Account, c.TaxCode
	if lc, ok := c.Lines[i]; ok {
		if lc.Account != "" {
			account = lc.Account
		}
		if lc.TaxCode != "" {
			taxCode = lc.TaxCode
		}
	}
	return account, taxCode
}

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
// and tax codes as each importer wants them and for the check before writing.
type Books struct {
	Locale   receipt.Locale
	Accounts map[string]BookAccount // by code; empty: any code is accepted
	TaxCodes map[string]BookTaxCode // by code; empty: the client has no tax codes (US)
	// BankAccount is the account MYOB's Spend Money pays from (1-1110).
	BankAccount string
}

// BookAccount is one account of the chart.
type BookAccount struct{ Code, Name string }

// BookTaxCode is one tax code with its rate and Xero display name.
type BookTaxCode struct {
	Code     string
	Rate     decimal.Decimal
	RateSet  bool
	XeroName string
}

// PresetOptions shape a preset export.
type PresetOptions struct {
	Books Books
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

// WritePreset checks rows against what the preset's importer rejects and,
// only when nothing is wrong, writes the import file (and the originals'
// zip) atomically: a failure leaves no file half-written.
func WritePreset(path string, p Preset, rows []Coded, opt PresetOptions) (Stats, error) {
	if problems := Check(p, rows, opt); len(problems) > 0 {
		return Stats{}, &CheckError{Preset: p, Problems: problems}
	}
	var write func(io.Writer, []Coded, Books) (Stats, error)
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
	var st Stats
	err := fsutil.WriteExport(path, func(w io.Writer) error {
		var err error
		if st, err = write(w, rows, opt.Books); err != nil {
			return err
		}
		if opt.Attachments != "" {
			return writeAttachments(opt.Attachments, rows)
		}
		return nil
	})
	if err != nil {
		return Stats{}, err
	}
	return st, nil
}

// posting is one line of a bill or payment as the targets take it: gross
// (tax-inclusive) amounts whose sum is the receipt's total exactly.
type posting struct {
	Description      string
	Qty, Unit        decimal.Decimal // Qty × Unit = Gross
	Gross, Tax       decimal.Decimal
	Account, TaxCode string
	Item             int // the line item it books, -1 for the receipt's own lines
}

// postings splits a receipt into the lines a target books: its line items
// when it has them (with a line for whatever the total holds beyond them:
// tips, fees, rounding, or a discount), else one line for the total. The
// receipt's tax is shared among the lines whose tax code carries tax, in
// proportion to their amounts, so the lines' taxes add up to it exactly.
func postings(c *Coded, b Books) []posting {
	r := &c.Receipt
	cur := currencyOf(r, b.Locale)
	digits := int32(receipt.MinorDigits(cur))
	total := r.Total.Value
	one := decimal.NewFromInt(1)
	var ps []posting
	items := len(r.LineItems) > 0
	for _, li := range r.LineItems {
		if !li.LineTotal.Set {
			items = false
		}
	}
	sum := decimal.Zero
	if items {
		for i, li := range r.LineItems {
			acct, tc := c.line(i)
			p := posting{Item: i, Description: importText(li.Description.Value), Qty: one, Unit: li.LineTotal.Value, Gross: li.LineTotal.Value, Account: acct, TaxCode: tc}
			if li.Quantity.Set && li.UnitPrice.Set && !li.Quantity.Value.IsZero() && li.Quantity.Value.Mul(li.UnitPrice.Value).Equal(li.LineTotal.Value) {
				p.Qty, p.Unit = li.Quantity.Value, li.UnitPrice.Value
			}
			if p.Description == "" {
				p.Description = fmt.Sprintf("Item %d", i+1)
			}
			ps = append(ps, p)
			sum = sum.Add(p.Gross)
		}
	}
	tax := taxOf(r)
	hasTax := r.TotalTax.Set || len(r.TaxLines) > 0
	if items && !sum.Equal(total) && hasTax && r.TaxInclusive.Set && !r.TaxInclusive.Value && sum.Add(tax).Equal(total) {
		// Items priced before tax: their tax shares make them gross.
		shares := share(tax, ps, b, digits)
		for i := range ps {
			ps[i].Gross = ps[i].Gross.Add(shares[i])
			ps[i].Qty, ps[i].Unit = one, ps[i].Gross
		}
		sum = total
	}
	if !items {
		desc := importText(r.Category.Value)
		if desc == "" {
			desc = importText(r.SupplierName.Value)
		}
		if desc == "" {
			desc = "Purchase"
		}
		ps = []posting{{Item: -1, Description: desc, Qty: one, Unit: total, Gross: total, Account: c.Account, TaxCode: c.TaxCode}}
		sum = total
	}
	if diff := total.Sub(sum); !diff.IsZero() {
		desc := "Other charges (tip, fees, rounding)"
		if diff.IsNegative() {
			desc = "Discount"
		}
		ps = append(ps, posting{Item: -1, Description: desc, Qty: one, Unit: diff, Gross: diff, Account: c.Account, TaxCode: c.TaxCode})
	}
	if hasTax {
		for i, s := range share(tax, ps, b, digits) {
			ps[i].Tax = s
		}
	} else {
		for i := range ps {
			if t, ok := b.TaxCodes[ps[i].TaxCode]; ok && t.RateSet && t.Rate.IsPositive() {
				hundred := decimal.NewFromInt(100)
				ps[i].Tax = ps[i].Gross.Mul(t.Rate).Div(hundred.Add(t.Rate)).Round(digits)
			}
		}
	}
	return ps
}

// share splits tax over the postings whose tax code carries tax (all of
// them when no code says), by amount, the rounding remainder going to the
// largest, so the shares add up to tax exactly.
func share(tax decimal.Decimal, ps []posting, b Books, digits int32) []decimal.Decimal {
	out := make([]decimal.Decimal, len(ps))
	var idx []int
	for i, p := range ps {
		t, ok := b.TaxCodes[p.TaxCode]
		if !ok || !t.RateSet || t.Rate.IsPositive() {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 || tax.IsZero() {
		return out
	}
	base := decimal.Zero
	for _, i := range idx {
		base = base.Add(ps[i].Gross)
	}
	if base.IsZero() {
		out[idx[0]] = tax
		return out
	}
	sort.SliceStable(idx, func(a, c int) bool { return ps[idx[a]].Gross.Abs().GreaterThan(ps[idx[c]].Gross.Abs()) })
	left := tax
	for _, i := range idx[1:] {
		out[i] = tax.Mul(ps[i].Gross).Div(base).Round(digits)
		left = left.Sub(out[i])
	}
	out[idx[0]] = left
	return out
}

// importText makes text safe for an import file that a bookkeeper may also
// open in a spreadsheet: tabs and line breaks become spaces (they would
// split a tab-delimited record), and characters that start a formula are
// dropped from the front. Unlike Neutralize it adds no apostrophe, which
// the accounting program would keep as part of a supplier's name.
func importText(s string) string {
	s = stripControls(s)
	s = strings.Join(strings.Fields(strings.NewReplacer("\t", " ", "\r", " ", "\n", " ").Replace(s)), " ")
	return strings.TrimLeft(s, "=+-@ ")
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
