package export

import (
	"bufio"
	"io"
	"strings"
)

// QBOBankColumns are QuickBooks Online's three-column bank upload.
// Followed: QuickBooks help, "Format CSV files in Excel to get bank
// transactions into QuickBooks": "These are the only columns QuickBooks can
// handle and this order": Date, Description, Amount, with money out
// negative; the date in one format throughout, chosen when uploading; at
// most 1,000 rows in one upload.
var QBOBankColumns = []string{"Date", "Description", "Amount"}

// QBOBankMaxRows is how many rows QuickBooks takes in one bank upload.
const QBOBankMaxRows = 1000

// QBOBillColumns are the bills import columns (Expenses → Suppliers/Vendors
// → Import bills; the importer maps the file's columns to its own):
// one row per bill line, Bill No repeated on each row of one bill; Account
// names the account as the chart of accounts does; amounts tax inclusive.
var QBOBillColumns = []string{"Vendor", "Bill No", "Bill Date", "Due Date", "Memo", "Currency", "Account",
	"Description", "Amount", "Tax Code"}

func writeQBOBank(w io.Writer, rows []Coded, b Books) (Stats, error) {
	return writeCSVRecords(w, QBOBankColumns, func(emit func([]string)) Stats {
		layout := dateLayout(b.Locale)
		var st Stats
		for i := range rows {
			c := &rows[i]
			r := &c.Receipt
			cur := currencyOf(r, b.Locale)
			desc := strings.TrimSpace(importText(r.SupplierName.Value) + " " + c.invoiceNumber())
			emit([]string{r.Date.Value.Format(layout), desc, moneyText(r.Total.Value.Neg(), cur)})
			st.Lines++
			st.addTotal(c, b.Locale)
		}
		return st
	})
}

func writeQBOBills(w io.Writer, rows []Coded, b Books) (Stats, error) {
	return writeCSVRecords(w, QBOBillColumns, func(emit func([]string)) Stats {
		layout := dateLayout(b.Locale)
		var st Stats
		for i := range rows {
			c := &rows[i]
			r := &c.Receipt
			cur := currencyOf(r, b.Locale)
			date := r.Date.Value.Format(layout)
			for _, p := range postings(c, b) {
				account := p.Account
				if a, ok := b.Accounts[p.Account]; ok && a.Name != "" {
					account = a.Name
				}
				emit([]string{importText(r.SupplierName.Value), c.invoiceNumber(), date, date, c.Reference(), cur,
					account, p.Description, moneyText(p.Gross, cur), p.TaxCode})
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
