package export

import (
	"bufio"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/shoebox-app/shoebox/receipt"
)

// QBOBankColumns are QuickBooks Online's three-column bank upload.
// Followed: QuickBooks help, "Format CSV files in Excel to get bank
// transactions into QuickBooks": "These are the only columns QuickBooks can
// handle and this order": Date, Description, Amount, with money out
// negative; the date in one format throughout, chosen when uploading; at
// most 1,000 rows in one upload.
var QBOBankColumns = []string{"Date", "Description", "Amount"}

// QBOBankMaxRows is how many rows QuickBooks takes in one bank upload.
var QBOBankMaxRows = TargetOf(PresetQBOBank).MaxRows

// QBOBillColumns are the bills import columns (Expenses → Suppliers/Vendors
// → Import bills; the importer maps the file's columns to its own):
// one row per bill line, Bill No repeated on each row of one bill; Account
// names the account as the chart of accounts does; amounts tax inclusive.
var QBOBillColumns = []string{
	"Vendor", "Bill No", "Bill Date", "Due Date", "Memo", "Currency", "Global Tax Calculation",
	"Account", "Description", "Amount", "Tax Code",
}

func writeQBOBank(w io.Writer, rows []Coded, opt PresetOptions) (Stats, error) {
	b := opt.Books
	max := TargetOf(PresetQBOBank).FieldMax
	return writeCSVRecords(w, QBOBankColumns, func(emit func([]string)) Stats {
		layout := dateLayout(b.Locale)
		var st Stats
		for i := range rows {
			c := &rows[i]
			r := &c.Receipt
			cur := currencyOf(r, b.Locale)
			desc := strings.TrimSpace(importText(r.SupplierName.Value) + " " + c.invoiceNumber())
			if c.Converted != "" {
				desc += " (" + c.Converted + ")"
			}
			// Money out is negative; a refund is money in.
			emit([]string{r.Date.Value.Format(layout), clip(desc, max["Description"]), moneyText(r.Total.Value.Neg(), cur)})
			st.Lines++
			st.addTotal(c, b.Locale)
		}
		return st
	})
}

func writeQBOBills(w io.Writer, rows []Coded, opt PresetOptions) (Stats, error) {
	b := opt.Books
	max := TargetOf(PresetQBOBills).FieldMax
	inclusive := "TaxInclusive"
	if b.taxName("qbo", b.FreeTaxCode) == "" && b.Locale.Country == receipt.CountryUS {
		inclusive = "" // QuickBooks US takes no tax on bills
	}
	return writeCSVRecords(w, QBOBillColumns, func(emit func([]string)) Stats {
		layout := dateLayout(b.Locale)
		var st Stats
		for i := range rows {
			c := &rows[i]
			r := &c.Receipt
			cur := currencyOf(r, b.Locale)
			date := r.Date.Value.Format(layout)
			number, memo := c.invoiceNumber(), c.Reference()
			if utf8.RuneCountInString(number) > max["Bill No"] {
				// Longer than QuickBooks' bill number: the reference stands
				// in, the supplier's number is kept in the memo.
				number, memo = c.Reference(), c.Reference()+" invoice "+number
			}
			for _, p := range postings(c, b, opt.Itemised) {
				vendor, _ := b.contactFor(r)
				emit([]string{
					vendor, number, date, date, clip(memo, max["Memo"]), cur, inclusive,
					b.accountName("qbo", p.Account), clip(p.Description, max["Description"]), moneyText(p.Gross, cur), b.taxName("qbo", p.TaxCode),
				})
				st.Lines++
			}
			st.addTotal(c, b.Locale)
		}
		return st
	})
}

func writeCSVRecords(w io.Writer, header []string, fill func(emit func([]string)) Stats) (Stats, error) {
	bw := bufio.NewWriter(w)
	cw := newCellWriter(bw)
	cw.UseCRLF = true
	cw.Write(header)
	st := fill(func(rec []string) { cw.Write(rec) })
	cw.Flush()
	if err := cw.Error(); err != nil {
		return st, err
	}
	return st, bw.Flush()
}
