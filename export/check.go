package export

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// Problem is one thing the target's importer would reject, with where to
// fix it: a receipt (ID 0: the whole file or the client's settings) and
// the field to jump to.
type Problem struct {
	ReceiptID int64  `json:"receipt_id,omitempty"`
	Field     string `json:"field,omitempty"` // status, duplicate, supplier_name, date, total, account, tax_code, line_items[i].account, settings
	Message   string `json:"message"`
}

func (p Problem) String() string {
	if p.ReceiptID == 0 {
		return p.Message
	}
	return fmt.Sprintf("receipt %d: %s", p.ReceiptID, p.Message)
}

// leftOutReason says why a receipt stays out of the preset's file without
// stopping the rest, and the field it concerns: marked as a duplicate,
// not confirmed (unless asked for), a refund or a foreign currency the
// target cannot take. "" when it goes in.
func leftOutReason(p Preset, c *Coded, opt PresetOptions) (reason, field string) {
	if c.isDuplicate() {
		return fmt.Sprintf("marked as a copy of receipt %d: left out so the purchase is not booked twice", c.DuplicateOf), "duplicate"
	}
	if c.Status != "confirmed" && !opt.IncludeUnconfirmed {
		return fmt.Sprintf("not confirmed yet (%s)", StatusText(c.Status)), "status"
	}
	r := &c.Receipt
	b := opt.Books
	cur := currencyOf(r, b.Locale)
	_, rated := opt.Rates[cur]
	foreign := b.Locale.Currency != "" && cur != b.Locale.Currency && !rated
	switch p {
	case PresetMYOBPurchases, PresetMYOBSpend:
		if foreign {
			return fmt.Sprintf("in %s: MYOB takes only %s here and Shoebox knows no exchange rate: give the rate for %s, or enter it in MYOB by hand", cur, b.Locale.Currency, cur), "currency"
		}
	case PresetQBOBank:
		if foreign {
			return fmt.Sprintf("in %s: a QuickBooks bank upload is in the account's own currency (%s) and Shoebox knows no exchange rate: give the rate for %s, or match it to the bank's %s line", cur, b.Locale.Currency, cur, b.Locale.Currency), "currency"
		}
	}
	if r.Total.Set && r.Total.Value.IsNegative() {
		switch p {
		case PresetMYOBSpend:
			return "a refund: Spend Money takes no money in; enter it as Receive Money", "total"
		case PresetQBOBills:
			return "a refund or credit note: a QuickBooks bill cannot be negative; enter it as a supplier credit", "total"
		}
	}
	return "", ""
}

// Check lists what the preset's importer would reject in rows that go in
// the file: receipts without a supplier, date or total, lines without an
// account or with one the chart lacks, missing or unknown tax codes, a
// supplier name longer than the program takes, too many bills for one
// file. An empty list means the file can be written. Receipts marked as
// duplicates never go in, and are not checked.
func Check(p Preset, rows []Coded, opt PresetOptions) []Problem {
	rows = slices.DeleteFunc(slices.Clone(rows), func(c Coded) bool { return c.isDuplicate() })
	b := opt.Books
	t := TargetOf(p)
	var out []Problem
	add := func(id int64, field, format string, args ...any) {
		out = append(out, Problem{ReceiptID: id, Field: field, Message: fmt.Sprintf(format, args...)})
	}
	coded := p != PresetQBOBank // everything but the bank upload books lines to accounts
	myob := t.Program == "myob"
	switch {
	case t.MaxBills > 0 && len(rows) > t.MaxBills:
		add(0, "", "%s imports at most %d bills from one file and this has %d: export a shorter period (--period)", p.Title(), t.MaxBills, len(rows))
	case t.MaxRows > 0 && len(rows) > t.MaxRows:
		add(0, "", "%s takes at most %d rows in one upload and this has %d: export a shorter period (--period)", p.Title(), t.MaxRows, len(rows))
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
		supplier, known := b.contactFor(r)
		if coded && strings.TrimSpace(supplier) == "" {
			add(id, "supplier_name", "no supplier: %s needs one for each bill", p.Title())
		} else if myob && !known {
			add(id, "supplier_name", "supplier %q is not one of the client's MYOB cards (the import would refuse it, error -66): correct the supplier's name, or add the card in MYOB and import the card file again (shoebox books contacts --import FILE)", supplier)
		}
		if max := t.FieldMax["Co./Last Name"]; myob && utf8.RuneCountInString(supplier) > max {
			add(id, "supplier_name", "supplier %q is %d characters, longer than MYOB's %d: MYOB matches it to a card by name (import log error -66); shorten it to the card's name", supplier, utf8.RuneCountInString(supplier), max)
		}
		if !r.Date.Set {
			add(id, "date", "no date")
		}
		if !r.Total.Set {
			add(id, "total", "no total")
			continue
		}
		if opt.Attachments != "" && c.Original != "" {
			if _, err := os.Stat(c.Original); err != nil {
				add(id, "", "its original file is missing (%s)", c.Original)
			}
		}
		if p == PresetXero || p == PresetQBOBills {
			k := bill{strings.ToLower(supplier), strings.ToLower(c.invoiceNumber())}
			if other, dup := bills[k]; dup {
				add(id, "document_number", "same supplier and invoice number as receipt %d: %s would join them into one bill", other, p.Title())
			} else {
				bills[k] = id
			}
		}
		if !coded {
			continue
		}
		for _, ps := range postings(c, b, opt.Itemised) {
			field := func(part string) string {
				if ps.Item < 0 {
					return part
				}
				return fmt.Sprintf("line_items[%d].%s", ps.Item, part)
			}
			what := fmt.Sprintf("line %q", ps.Description)
			switch {
			case ps.Account == "":
				add(id, field("account"), "%s has no account, and the client has no default account: set one (shoebox books default-account CODE)", what)
			case len(b.Accounts) > 0 && b.Accounts[ps.Account].Code == "":
				add(id, field("account"), "%s: account %s is not in the client's chart of accounts", what, ps.Account)
			case myob && !MYOBAccountPattern.MatchString(b.accountName("myob", ps.Account)):
				add(id, field("account"), "%s: %q is not an MYOB account number (like 6-1100)", what, ps.Account)
			}
			if len(b.TaxCodes) == 0 {
				continue
			}
			tc, known := b.TaxCodes[ps.TaxCode]
			if known && tc.RateSet && tc.Rate.IsZero() && !ps.Tax.IsZero() {
				add(id, field("tax_code"), "%s carries %s tax but is coded %s, which is tax free", what, moneyText(ps.Tax, currencyOf(r, b.Locale)), ps.TaxCode)
			}
			switch {
			case ps.TaxCode == "":
				add(id, field("tax_code"), "%s has no tax code (the client has none for this rate): add one to the client's tax codes or code it", what)
			case !known:
				add(id, field("tax_code"), "%s: tax code %q is not one of the client's tax codes", what, ps.TaxCode)
			case p == PresetXero && b.taxName("xero", ps.TaxCode) == "":
				add(id, field("tax_code"), "%s: tax code %s has no Xero tax rate name (Xero refuses a blank TaxType)", what, ps.TaxCode)
			}
		}
	}
	return out
}
