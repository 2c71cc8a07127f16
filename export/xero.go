package export

import (
	"bufio"
	"io"
)

// XeroColumns are the columns of Xero's bills import template, in its
// order. Followed: Xero Central, "Import bills" and its CSV template
// (Business → Bills to pay → Import), as summarised in Xero's own guide
// pages: one row per line item, ContactName and InvoiceNumber repeated on
// each row of one bill; InvoiceDate and DueDate in the organisation's date
// format (DD/MM/YYYY in AU, NZ and the UK); TaxType is the tax rate's
// display name as it appears in Xero ("GST on Expenses", "20% (VAT on
// Expenses)"); all UnitAmounts in one file either tax inclusive or tax
// exclusive, chosen once when importing; at most 500 bills per file.
var XeroColumns = []string{
	"ContactName", "EmailAddress", "POAddressLine1", "POAddressLine2", "POAddressLine3",
	"POAddressLine4", "POCity", "PORegion", "POPostalCode", "POCountry", "InvoiceNumber", "Reference", "InvoiceDate",
	"DueDate", "InventoryItemCode", "Description", "Quantity", "UnitAmount", "Discount", "AccountCode", "TaxType",
	"TaxAmount", "TrackingName1", "TrackingOption1", "TrackingName2", "TrackingOption2", "Currency",
}

// XeroMaxBills is how many bills Xero imports from one file.
var XeroMaxBills = TargetOf(PresetXero).MaxBills

// XeroAmountsNote says how the file's amounts are to be read; Xero asks
// once per file.
const XeroAmountsNote = "amounts are tax inclusive: choose \"Tax inclusive\" when Xero asks"

// writeXero writes Xero bills: every UnitAmount tax inclusive. A receipt
// is already paid, so its due date is its date; a refund is a negative
// bill, which Xero imports as a credit note.
func writeXero(w io.Writer, rows []Coded, opt PresetOptions) (Stats, error) {
	b := opt.Books
	max := TargetOf(PresetXero).FieldMax
	bw := bufio.NewWriter(w)
	cw := newCellWriter(bw)
	cw.UseCRLF = true
	cw.Write(XeroColumns)
	layout := dateLayout(b.Locale)
	var st Stats
	for i := range rows {
		c := &rows[i]
		r := &c.Receipt
		cur := currencyOf(r, b.Locale)
		date := r.Date.Value.Format(layout)
		for _, p := range postings(c, b, opt.Itemised) {
			rec := make([]string, len(XeroColumns))
			contact, _ := b.contactFor(r)
			rec[0] = clip(contact, max["ContactName"])
			rec[2] = importText(r.SupplierAddress.Value)
			rec[10] = clip(c.invoiceNumber(), max["InvoiceNumber"])
			rec[11] = c.Reference()
			rec[12], rec[13] = date, date
			rec[15] = clip(p.Description, max["Description"])
			rec[16] = p.Qty.String()
			rec[17] = unitText(p.Unit, cur)
			rec[19] = p.Account
			rec[20] = b.taxName("xero", p.TaxCode)
			if len(b.TaxCodes) > 0 {
				rec[21] = moneyText(p.Tax, cur)
			}
			rec[26] = cur
			cw.Write(rec)
			st.Lines++
		}
		st.addTotal(c, b.Locale)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return st, err
	}
	return st, bw.Flush()
}
