package export

import (
	"bufio"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"
)

// MYOB AccountRight imports (File → Import/Export Assistant) read
// tab-delimited text whose first record may name the fields; the lines of
// one transaction follow each other and a blank line ends the transaction.
// Followed: MYOB help, "Import and export fields" (AccountRight 2015 and
// later, Australia) and the field names of AccountRight's own Spend Money
// export ("Cheque Account", "Cheque #", "Date", "Inclusive", "Co./Last
// Name", …, "Allocation Account #", "Ex-Tax Amount", "Inc-Tax Amount",
// "Tax Code", "Tax Amount", "Allocation Memo"): account numbers have five
// digits with an optional separator after the first (6-1100), amounts at
// most two decimals with no currency sign, dates in the system's order
// (DD/MM/YYYY in Australia), "X" in Inclusive marks tax-inclusive amounts,
// tax codes are the company file's (GST, FRE, CAP, INP, ITS, NTR, GNR).
// The assistant matches a file's fields to its own by name, so a file may
// leave out the optional fields it does not fill.

// MYOBPurchaseColumns are the Purchases (Service) fields Shoebox fills.
var MYOBPurchaseColumns = []string{
	"Co./Last Name", "Inclusive", "Purchase #", "Date", "Supplier Invoice #",
	"Description", "Account #", "Ex-Tax Amount", "Inc-Tax Amount", "Journal Memo", "Tax Code", "Tax Amount", "Currency Code",
}

// MYOBSpendColumns are the Spend Money fields Shoebox fills.
var MYOBSpendColumns = []string{
	"Cheque Account", "Cheque #", "Date", "Inclusive", "Co./Last Name", "Memo",
	"Allocation Account #", "Ex-Tax Amount", "Inc-Tax Amount", "Tax Code", "Tax Amount", "Currency Code", "Allocation Memo",
}

// MYOBAccountPattern is the form of an MYOB account number.
var MYOBAccountPattern = regexp.MustCompile(`^[1-9][^0-9]?[0-9]{4}$`)

func writeMYOBPurchases(w io.Writer, rows []Coded, opt PresetOptions) (Stats, error) {
	max := TargetOf(PresetMYOBPurchases).FieldMax
	b := opt.Books
	return writeMYOB(w, MYOBPurchaseColumns, rows, opt, func(c *Coded, p posting, date, cur string) []string {
		invoice, memo := c.invoiceNumber(), c.Reference()
		if utf8.RuneCountInString(invoice) > max["Supplier Invoice #"] {
			// Too long for the field: the reference stands in, the number
			// is kept in the memo.
			invoice, memo = c.Reference(), c.Reference()+" invoice "+invoice
		}
		if c.Converted != "" {
			memo += " (" + c.Converted + ")"
		}
		card, _ := b.contactFor(&c.Receipt)
		return []string{
			card, "X", "", date, invoice,
			clip(p.Description, max["Description"]), b.accountName("myob", p.Account), moneyText(p.Gross.Sub(p.Tax), cur), moneyText(p.Gross, cur),
			clip(memo, max["Journal Memo"]), b.taxName("myob", p.TaxCode), moneyText(p.Tax, cur), myobCurrency(cur, b),
		}
	})
}

func writeMYOBSpend(w io.Writer, rows []Coded, opt PresetOptions) (Stats, error) {
	max := TargetOf(PresetMYOBSpend).FieldMax
	b := opt.Books
	return writeMYOB(w, MYOBSpendColumns, rows, opt, func(c *Coded, p posting, date, cur string) []string {
		memo := c.Reference()
		if n := importText(c.Receipt.DocumentNumber.Value); n != "" {
			memo += " " + n
		}
		if c.Converted != "" {
			memo += " (" + c.Converted + ")"
		}
		card, _ := b.contactFor(&c.Receipt)
		return []string{
			b.BankAccount, "", date, "X", card, clip(memo, max["Memo"]),
			b.accountName("myob", p.Account), moneyText(p.Gross.Sub(p.Tax), cur), moneyText(p.Gross, cur), b.taxName("myob", p.TaxCode), moneyText(p.Tax, cur),
			myobCurrency(cur, b), clip(p.Description, max["Allocation Memo"]),
		}
	})
}

// myobCurrency is blank for the company file's own currency.
func myobCurrency(cur string, b Books) string {
	if cur == b.Locale.Currency {
		return ""
	}
	return cur
}

func writeMYOB(w io.Writer, header []string, rows []Coded, opt PresetOptions, record func(*Coded, posting, string, string) []string) (Stats, error) {
	b := opt.Books
	bw := bufio.NewWriter(w)
	line := func(fields []string) {
		clean := make([]string, len(fields))
		for i, f := range fields {
			clean[i] = stripControls(f)
		}
		bw.WriteString(strings.Join(clean, "\t"))
		bw.WriteString("\r\n")
	}
	line(header)
	layout := dateLayout(b.Locale)
	var st Stats
	for i := range rows {
		c := &rows[i]
		if i > 0 {
			bw.WriteString("\r\n") // a blank line ends the transaction before
		}
		cur := currencyOf(&c.Receipt, b.Locale)
		date := c.Receipt.Date.Value.Format(layout)
		for _, p := range postings(c, b, opt.Itemised) {
			line(record(c, p, date, cur))
			st.Lines++
		}
		st.addTotal(c, b.Locale)
	}
	return st, bw.Flush()
}
