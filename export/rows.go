package export

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// Row is one receipt to export.
type Row struct {
	ID       int64  // library ID; 0 for receipts read without a library
	Status   string // the library's status; StatusDuplicate rows are left out
	Receipt  receipt.Receipt
	Findings []receipt.Finding
	Original string // path of the original file, linked from the workbook
	// Name is the file's own name as it was imported ("IMG_2041.jpg"; the
	// stored original is named by its SHA-256, kept in a hidden column).
	Name   string
	SHA256 string
	// Booked is the account and tax code a person or rule booked the
	// receipt to ("" where nobody did: Options.Books then says).
	Booked LineCode
	// Paid are the bank or card statement lines that paid the receipt
	// (matched sure or confirmed): a split payment has several.
	Paid []Payment
	// DuplicateOf is, for a receipt a person marked as a duplicate, the
	// receipt it is a copy of.
	DuplicateOf int64
}

// Payment is a statement line that paid a receipt, as the workbook shows it.
type Payment struct {
	Date time.Time
	// Line is the statement's account and description (and reference).
	Line string
}

// paidOn is the day the bank paid the receipt (the first part of a split)
// and the statement lines, one a line of text.
func (row Row) paidOn() (day *time.Time, lines string) {
	var ls []string
	for i, p := range row.Paid {
		if i == 0 {
			d := p.Date
			day = &d
		}
		ls = append(ls, p.Line)
	}
	return day, strings.Join(ls, "; ")
}

// FileName is the name a person knows the original by.
func (row Row) FileName() string {
	if row.Name != "" {
		return row.Name
	}
	return filepath.Base(row.Original)
}

// StatusDuplicate is the status of a receipt a person marked as a copy of
// another (the same purchase): every writer leaves it out, so a purchase
// is never booked or claimed twice, and counts it in Stats.Duplicates.
const StatusDuplicate = "duplicate"

// isDuplicate: a row a person marked as a copy of another.
func (row Row) isDuplicate() bool { return row.Status == StatusDuplicate }

// statusText says a library status as a bookkeeper would.
var statusText = map[string]string{
	"new":          "not read yet",
	"queued":       "waiting to be read",
	"extracting":   "being read",
	"extracted":    "ready to confirm",
	"needs_review": "to check",
	"confirmed":    "confirmed",
	"failed":       "could not be read",
	"duplicate":    "marked as a duplicate",
}

// StatusText is a status in words ("needs_review" is "to check").
func StatusText(status string) string {
	if t, ok := statusText[status]; ok {
		return t
	}
	return strings.ReplaceAll(status, "_", " ")
}

// fieldNames name fields as the review form does.
func fieldName(path string) string {
	for _, f := range receipt.Fields {
		if f.Path == path {
			return strings.ToLower(f.Label[:1]) + f.Label[1:]
		}
	}
	return strings.ReplaceAll(path, "_", " ")
}

// Options shape an export.
type Options struct {
	Locale receipt.Locale
	// SummaryBy groups the tax summary: by month, quarter or financial year.
	SummaryBy receipt.Granularity
	// BOM starts CSV files with a UTF-8 byte order mark, which Excel needs to
	// read them as UTF-8.
	BOM bool
	// Books, when set, fills the Account and Tax code columns as an import
	// file would book each receipt, and groups the tax summary by tax code.
	Books *Books
}

// Booking is what a receipt is booked to when exported: the account (as a
// person or rule coded it, else its category's, else the default) and the
// tax code of each of its lines, in order. A window shows it under
// "Booked to" for a receipt nobody coded.
func (b Books) Booking(row Row) (account string, taxCodes []string) {
	account, taxCodes, _ = Options{Books: &b}.booking(row)
	return account, taxCodes
}

// booking is the account and tax codes a row is booked to, and its lines:
// as the import files book it when the export knows the client's books,
// else as coded.
func (o Options) booking(row Row) (account string, taxCodes []string, ps []posting) {
	if o.Books == nil || !row.Receipt.Total.Set {
		if row.Booked.TaxCode != "" {
			taxCodes = []string{row.Booked.TaxCode}
		}
		return row.Booked.Account, taxCodes, nil
	}
	c := Coded{Row: row, Account: row.Booked.Account, TaxCode: row.Booked.TaxCode}
	ps = postings(&c, *o.Books, false)
	for _, p := range ps {
		if p.TaxCode != "" && !slices.Contains(taxCodes, p.TaxCode) {
			taxCodes = append(taxCodes, p.TaxCode)
		}
	}
	return o.Books.accountFor(&c), taxCodes, ps
}

// LowConfidence is the confidence under which a field is flagged for checking.
const LowConfidence = 0.6

// currencyOf is the receipt's currency, else the locale's.
func currencyOf(r *receipt.Receipt, loc receipt.Locale) string {
	if r.Currency.Value != "" {
		return r.Currency.Value
	}
	if loc.Currency != "" {
		return loc.Currency
	}
	return "XXX" // ISO 4217's "no currency": never summed with a real one
}

// taxOf is the tax a receipt carries: its total tax, else the sum of its tax
// lines. The Receipts sheet and the tax summary both use it, so they agree.
func taxOf(r *receipt.Receipt) decimal.Decimal {
	if r.TotalTax.Set {
		return r.TotalTax.Value
	}
	return receipt.TaxLinesTotal(r.TaxLines)
}

// flags lists, in words, what a reviewer should know about a row: fields
// read with little certainty (not once a person confirmed the receipt),
// a tax that was not read, findings, a probable duplicate.
func flags(row Row) string {
	var out []string
	if taxNotRead(&row.Receipt) {
		out = append(out, "tax not read: not in the tax summary")
	}
	if row.Status != "confirmed" {
		if low := unsureFields(row); len(low) > 0 {
			out = append(out, "check "+strings.Join(low, ", ")+" (read with little certainty)")
		}
	}
	for _, f := range row.Findings {
		if f.Severity != receipt.Info {
			out = append(out, f.Message)
		}
	}
	return strings.Join(out, "; ")
}

// taxNotRead: a tax invoice (or a receipt with the supplier's tax ID)
// whose tax was not read at all. Summing it as "no tax" would understate
// the tax to claim.
func taxNotRead(r *receipt.Receipt) bool {
	if r.TotalTax.Set || len(r.TaxLines) > 0 || !r.Total.Set {
		return false
	}
	dt := r.DocType.Value
	return dt == receipt.DocTaxInvoice || dt == receipt.DocInvoice || r.SupplierTaxID.Set
}

// unsureFields names the fields read with little certainty.
func unsureFields(row Row) []string {
	var low []string
	// The tax ID too: a misread one the checksum mended comes at 0.5, and
	// a BAS or VAT claim needs it right.
	for _, f := range []string{"supplier_name", "supplier_tax_id", "date", "total", "total_tax", "subtotal"} {
		set, conf, src, _, _ := receipt.Meta(&row.Receipt, f)
		if set && src != receipt.SourceUser && conf < LowConfidence {
			low = append(low, fieldName(f))
		}
	}
	// An item amount mended so the items add up (a 0 read as 8 undone)
	// comes at 0.5 too.
	for _, li := range row.Receipt.LineItems {
		if a := li.LineTotal; a.Set && a.Source != receipt.SourceUser && a.Confidence < LowConfidence {
			low = append(low, "line items")
			break
		}
	}
	return low
}

func taxIDText(r *receipt.Receipt) string {
	if !r.SupplierTaxID.Set || r.SupplierTaxID.Value.Value == "" {
		return ""
	}
	id := r.SupplierTaxID.Value
	switch id.Scheme {
	case receipt.SchemeABN:
		return "ABN " + id.Value
	case receipt.SchemeNZGST:
		return "GST " + id.Value
	case receipt.SchemeUKVAT, receipt.SchemeEUVAT:
		return "VAT " + id.Value
	case receipt.SchemeUSEIN:
		return "EIN " + id.Value
	case receipt.SchemeMYGST:
		return "GST " + id.Value
	case receipt.SchemeMYSST:
		return "SST " + id.Value
	}
	return id.Value
}

// Neutralize makes untrusted text safe for spreadsheets: text that begins
// with =, +, -, @, a tab, a carriage return or a line feed is prefixed with an apostrophe
// so no spreadsheet reads it as a formula (OWASP CSV injection). Control
// characters (ESC, BEL …) are removed first.
func Neutralize(s string) string {
	s = stripControls(s)
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r', '\n':
		return "'" + s
	}
	return s
}

// summaryKey groups the tax summary.
type summaryKey struct {
	Currency, Period, TaxCode, Label string
	Rate                             string // percent, "" when unknown
	start                            time.Time
}

type summaryValue struct {
	Net, Tax, Gross decimal.Decimal
	Receipts        int
}

// summary accumulates the tax summary one receipt at a time.
type summary struct {
	opt  Options
	rows map[summaryKey]*summaryValue
	// taxUnread counts, per currency, the tax invoices left out because
	// their tax was not read.
	taxUnread map[string]*summaryValue
	// printedTax and gross are, per currency, what the Receipts sheet's Tax
	// and Total columns add up to, for the check row's cached values.
	printedTax, gross map[string]decimal.Decimal
}

func newSummary(opt Options) *summary {
	return &summary{
		opt: opt, rows: map[summaryKey]*summaryValue{}, taxUnread: map[string]*summaryValue{},
		printedTax: map[string]decimal.Decimal{}, gross: map[string]decimal.Decimal{},
	}
}

// rateOf is a tax line's rate in percent: as printed, else worked out from
// its net and tax, taken as the nearest rate the country charges when one
// is within a tenth of a percent.
func rateOf(printed receipt.Amount, net, tax decimal.Decimal, c receipt.Country) string {
	if printed.Set {
		return printed.Value.String()
	}
	if !net.IsPositive() {
		return ""
	}
	r := tax.Mul(decimal.NewFromInt(100)).Div(net)
	for _, p := range receipt.PlausibleRates(c) {
		if p.Sub(r).Abs().LessThanOrEqual(decimal.New(1, -1)) {
			return p.String()
		}
	}
	return r.Round(2).String()
}

// add splits a receipt into tax-rate lines whose gross adds up to its total
// exactly: its tax lines when they account for all its tax, else one line;
// whatever the total holds beyond them (tips, rounding, tax-free items) is a
// line of its own with no tax.
func (s *summary) add(row Row, booked []posting) {
	r := &row.Receipt
	if !r.Total.Set {
		return
	}
	period := "(no date)"
	var start time.Time
	if r.Date.Set {
		p := receipt.PeriodOf(r.Date.Value, s.opt.SummaryBy, s.opt.Locale.FYStartMonth)
		period, start = p.Label, p.Start
	}
	cur := currencyOf(r, s.opt.Locale)
	s.gross[cur] = s.gross[cur].Add(r.Total.Value)
	if r.TotalTax.Set || len(r.TaxLines) > 0 {
		s.printedTax[cur] = s.printedTax[cur].Add(taxOf(r))
	}
	// Tax that could not be claimed anyway (another country's, or part of
	// the cost) is summed under its code whether it was read or not.
	claimable := s.opt.Books == nil || !s.opt.Books.TaxIsCost && s.opt.Books.foreignReason(r) == ""
	if taxNotRead(r) && claimable {
		v := s.taxUnread[cur]
		if v == nil {
			v = &summaryValue{}
			s.taxUnread[cur] = v
		}
		v.Gross = v.Gross.Add(r.Total.Value)
		v.Receipts++
		return
	}
	counted := map[summaryKey]bool{}
	put := func(code, label, rate string, net, tax decimal.Decimal) {
		k := summaryKey{Currency: cur, Period: period, TaxCode: code, Label: label, Rate: rate, start: start}
		v := s.rows[k]
		if v == nil {
			v = &summaryValue{}
			s.rows[k] = v
		}
		v.Net, v.Tax, v.Gross = v.Net.Add(net), v.Tax.Add(tax), v.Gross.Add(net.Add(tax))
		if !counted[k] {
			v.Receipts++
			counted[k] = true
		}
	}
	// Rules of the page's own country name its tax: German VAT is VAT,
	// whatever the client's country.
	loc := s.opt.Locale
	if r.TaxRules != "" {
		loc = receipt.DefaultLocale(r.TaxRules)
	}
	if b := s.opt.Books; b != nil && booked != nil {
		for _, p := range booked {
			rate, label := "", labelOr("", loc)
			if t, ok := b.TaxCodes[p.TaxCode]; ok && t.RateSet {
				rate = t.Rate.String()
			}
			if p.Tax.IsZero() {
				label = "no tax"
			}
			put(p.TaxCode, label, rate, p.Gross.Sub(p.Tax), p.Tax)
		}
		return
	}
	putLabel := func(label, rate string, net, tax decimal.Decimal) { put("", label, rate, net, tax) }
	tax := taxOf(r)
	remaining := r.Total.Value
	if len(r.TaxLines) > 0 && receipt.TaxLinesTotal(r.TaxLines).Equal(tax) {
		type share struct {
			label, rate string
			net, tax    decimal.Decimal
		}
		var shares []share
		// A net worked out from a rounded tax (tax × 100 / rate) is off by
		// up to half a minor unit × 100 / rate; what is left of the total
		// within that is rounding, not a tax-free part.
		slack, derived := decimal.Zero, -1
		minor := decimal.New(5, -int32(receipt.MinorDigits(cur))-1)
		for _, tl := range r.TaxLines {
			net := tl.Net.Value
			if !tl.Net.Set && tl.Rate.Set && tl.Rate.Value.IsPositive() {
				net = tl.Tax.Value.Mul(decimal.NewFromInt(100)).Div(tl.Rate.Value).Round(int32(receipt.MinorDigits(cur)))
				// net + tax carry the tax's rounding (100 + rate) / rate
				// times, and the net's own.
				hundred := decimal.NewFromInt(100)
				slack = slack.Add(minor.Mul(hundred.Add(tl.Rate.Value)).Div(tl.Rate.Value)).Add(minor)
				derived = len(shares)
			}
			shares = append(shares, share{labelOr(tl.Label.Value, loc), rateOf(tl.Rate, net, tl.Tax.Value, loc.Country), net, tl.Tax.Value})
			remaining = remaining.Sub(net).Sub(tl.Tax.Value)
		}
		if derived >= 0 && !remaining.IsZero() && remaining.Abs().LessThanOrEqual(slack) {
			shares[derived].net = shares[derived].net.Add(remaining)
			remaining = decimal.Zero
		}
		for _, sh := range shares {
			putLabel(sh.label, sh.rate, sh.net, sh.tax)
		}
		if !remaining.IsZero() {
			putLabel("no tax", "0", remaining, decimal.Zero)
		}
		return
	}
	if tax.IsZero() {
		putLabel("no tax", "0", remaining, decimal.Zero)
		return
	}
	var printed receipt.Amount
	if len(r.TaxLines) == 1 {
		printed = r.TaxLines[0].Rate
	}
	label := ""
	if len(r.TaxLines) > 0 {
		label = r.TaxLines[0].Label.Value
	}
	putLabel(labelOr(label, loc), rateOf(printed, remaining.Sub(tax), tax, loc.Country), remaining.Sub(tax), tax)
}

func labelOr(label string, loc receipt.Locale) string {
	if label != "" {
		return strings.ToUpper(label)
	}
	switch loc.Country {
	case receipt.CountryAU, receipt.CountryNZ, receipt.CountryMY:
		return "GST"
	case receipt.CountryUK, receipt.CountryEU:
		return "VAT"
	case receipt.CountryUS:
		return "SALES TAX"
	}
	return "TAX"
}

// sorted returns the summary lines by currency, period, tax code, label, rate.
func (s *summary) sorted() []summaryKey {
	keys := make([]summaryKey, 0, len(s.rows))
	for k := range s.rows {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.Currency != b.Currency {
			return a.Currency < b.Currency
		}
		if !a.start.Equal(b.start) {
			return a.start.Before(b.start)
		}
		if a.Period != b.Period {
			return a.Period < b.Period
		}
		if a.TaxCode != b.TaxCode {
			return a.TaxCode < b.TaxCode
		}
		if a.Label != b.Label {
			return a.Label < b.Label
		}
		return a.Rate < b.Rate
	})
	return keys
}

// rateFraction is the rate as a spreadsheet percentage (0.1 for 10%).
func (k summaryKey) rateFraction() (float64, bool) {
	d, err := decimal.NewFromString(k.Rate)
	if err != nil {
		return 0, false
	}
	f, _ := d.Div(decimal.NewFromInt(100)).Float64()
	return f, true
}
