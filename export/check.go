package export

import (
	"fmt"
	"os"
	"strings"
)

// Problem is one thing the target's importer would reject, with where to
// fix it: a receipt (ID 0: the whole file or the client's settings) and
// the field to jump to.
type Problem struct {
	ReceiptID int64  `json:"receipt_id,omitempty"`
	Field     string `json:"field,omitempty"` // status, supplier_name, date, total, account, tax_code, line_items[i].account, settings
	Message   string `json:"message"`
}

func (p Problem) String() string {
	if p.ReceiptID == 0 {
		return p.Message
	}
	return fmt.Sprintf("receipt %d: %s", p.ReceiptID, p.Message)
}

// Check lists what the preset's importer would reject in rows: receipts
// not confirmed, without a supplier, date or total, refunds, lines without
// an account or with one the chart lacks, missing or unknown tax codes,
// too many rows for one file, and the target's own limits. An empty list
// means the file can be written.
func Check(p Preset, rows []Coded, opt PresetOptions) []Problem {
	b := opt.Books
	var out []Problem
	add := func(id int64, field, format string, args ...any) {
		out = append(out, Problem{ReceiptID: id, Field: field, Message: fmt.Sprintf(format, args...)})
	}
	coded := p != PresetQBOBank // everything but the bank upload books lines to accounts
	myob := p == PresetMYOBPurchases || p == PresetMYOBSpend
	switch {
	case p == PresetXero && len(rows) > XeroMaxBills:
		add(0, "", "Xero imports at most %d bills from one file and this has %d: export a shorter period (--period)", XeroMaxBills, len(rows))
	case p == PresetQBOBank && len(rows) > QBOBankMaxRows:
		add(0, "", "QuickBooks takes at most %d bank transactions in one upload and this has %d: export a shorter period (--period)", QBOBankMaxRows, len(rows))
	}
	if p == PresetMYOBSpend && !MYOBAccountPattern.MatchString(b.BankAccount) {
		if b.BankAccount == "" {
			add(0, "settings", "MYOB Spend Money needs the bank account the receipts were paid from: set it in the client's settings (an account number like 1-1110)")
		} else {
			add(0, "settings", "the bank account %q is not an MYOB account number (like 1-1110)", b.BankAccount)
		}
	}
	type bill struct{ contact, number string }
	bills := map[bill]int64{}
	for i := range rows {
		c := &rows[i]
		r := &c.Receipt
		id := c.ID
		if c.Status != "confirmed" {
			add(id, "status", "not confirmed yet (%s): check and confirm it first", strings.ReplaceAll(c.Status, "_", " "))
		}
		if coded && strings.TrimSpace(importText(r.SupplierName.Value)) == "" {
			add(id, "supplier_name", "no supplier: %s needs one for each bill", p.Title())
		}
		if !r.Date.Set {
			add(id, "date", "no date")
		}
		if !r.Total.Set {
			add(id, "total", "no total")
			continue
		}
		if r.Total.Value.IsNegative() {
			add(id, "total", "a refund or credit note (total %s): enter it as a credit note in the accounting program", r.Total.Value)
			continue
		}
		if opt.Attachments != "" && c.Original != "" {
			if _, err := os.Stat(c.Original); err != nil {
				add(id, "", "its original file is missing (%s)", c.Original)
			}
		}
		cur := currencyOf(r, b.Locale)
		if myob && b.Locale.Currency != "" && cur != b.Locale.Currency {
			add(id, "currency", "in %s: MYOB needs an exchange rate for a foreign currency, which Shoebox does not know; enter it in MYOB by hand", cur)
		}
		if p == PresetMYOBPurchases && len(c.invoiceNumber()) > myobSupplierInvoiceMax {
			add(id, "document_number", "invoice number %q is longer than MYOB's %d characters", c.invoiceNumber(), myobSupplierInvoiceMax)
		}
		if p == PresetXero || p == PresetQBOBills {
			k := bill{strings.ToLower(importText(r.SupplierName.Value)), strings.ToLower(c.invoiceNumber())}
			if other, dup := bills[k]; dup {
				add(id, "document_number", "same supplier and invoice number as receipt %d: %s would join them into one bill", other, p.Title())
			} else {
				bills[k] = id
			}
		}
		if !coded {
			continue
		}
		taxed := false
		for _, ps := range postings(c, b) {
			field := func(part string) string {
				if ps.Item < 0 {
					return part
				}
				return fmt.Sprintf("line_items[%d].%s", ps.Item, part)
			}
			what := fmt.Sprintf("line %q", ps.Description)
			switch {
			case ps.Account == "":
				add(id, field("account"), "%s has no account", what)
			case len(b.Accounts) > 0 && b.Accounts[ps.Account].Code == "":
				add(id, field("account"), "%s: account %s is not in the client's chart of accounts", what, ps.Account)
			case myob && !MYOBAccountPattern.MatchString(ps.Account):
				add(id, field("account"), "%s: %q is not an MYOB account number (like 6-1100)", what, ps.Account)
			}
			if len(b.TaxCodes) == 0 {
				continue
			}
			t, known := b.TaxCodes[ps.TaxCode]
			switch {
			case ps.TaxCode == "":
				add(id, field("tax_code"), "%s has no tax code", what)
			case !known:
				add(id, field("tax_code"), "%s: tax code %q is not one of the client's tax codes", what, ps.TaxCode)
			case p == PresetXero && t.XeroName == "":
				add(id, field("tax_code"), "%s: tax code %s has no Xero tax rate name", what, ps.TaxCode)
			}
			if !known || !t.RateSet || t.Rate.IsPositive() {
				taxed = true
			}
		}
		if tax := taxOf(r); !taxed && tax.IsPositive() {
			add(id, "tax_code", "the receipt shows %s tax but every line is coded tax free", moneyText(tax, cur))
		}
	}
	return out
}
