package library

import (
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// Account is one line of the client's chart of accounts.
type Account struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Type     string `json:"type,omitempty"`     // EXPENSE, Cost of Sales, …, as the source names it
	TaxCode  string `json:"tax_code,omitempty"` // the account's default tax code
	Archived bool   `json:"archived,omitempty"`
}

// TaxCode is one of the client's tax codes: the short code MYOB and the
// review form use, the rate, and the tax rate's display name in Xero.
type TaxCode struct {
	Code     string          `json:"code"`
	Name     string          `json:"name"`
	Rate     decimal.Decimal `json:"rate"` // percent
	XeroName string          `json:"xero_name,omitempty"`
}

// DefaultTaxCodes are a country's purchase tax codes: Australia's GST codes
// as MYOB names them with Xero's matching tax rates, the UK's VAT rates by
// their Xero display names, New Zealand's GST; none for the US.
func DefaultTaxCodes(c receipt.Country) []TaxCode {
	d := decimal.RequireFromString
	switch c {
	case receipt.CountryAU:
		return []TaxCode{
			{"GST", "GST (10%)", d("10"), "GST on Expenses"},
			{"CAP", "GST on capital purchases (10%)", d("10"), "GST on Capital"},
			{"FRE", "GST free", d("0"), "GST Free Expenses"},
			{"GNR", "Supplier not registered for GST", d("0"), "GST Free Expenses"},
			{"INP", "Input taxed", d("0"), "Input Taxed"},
			{"ITS", "Input taxed sales", d("0"), "Input Taxed"},
			{"NTR", "Not reportable", d("0"), "BAS Excluded"},
		}
	case receipt.CountryNZ:
		return []TaxCode{
			{"GST", "GST (15%)", d("15"), "15% GST on Expenses"},
			{"Z", "Zero rated", d("0"), "Zero Rated"},
			{"E", "Exempt", d("0"), "No GST"},
			{"N", "No GST", d("0"), "No GST"},
		}
	case receipt.CountryUK:
		return []TaxCode{
			{"20% (VAT on Expenses)", "Standard rate VAT", d("20"), "20% (VAT on Expenses)"},
			{"5% (VAT on Expenses)", "Reduced rate VAT", d("5"), "5% (VAT on Expenses)"},
			{"Zero Rated Expenses", "Zero rated", d("0"), "Zero Rated Expenses"},
			{"Exempt Expenses", "Exempt", d("0"), "Exempt Expenses"},
			{"No VAT", "Outside the scope of VAT", d("0"), "No VAT"},
		}
	}
	return nil
}

// DefaultAccounts are the expense accounts of Xero's standard chart, a
// start a bookkeeper replaces by importing the client's own.
func DefaultAccounts(c receipt.Country) []Account {
	// Bank fees and insurance carry no GST or VAT credit.
	tax, free := "", ""
	switch c {
	case receipt.CountryAU:
		tax, free = "GST", "FRE"
	case receipt.CountryNZ:
		tax, free = "GST", "E"
	case receipt.CountryUK:
		tax, free = "20% (VAT on Expenses)", "Exempt Expenses"
	}
	list := []struct{ code, name string }{
		{"310", "Cost of Goods Sold"}, {"400", "Advertising"}, {"404", "Bank Fees"}, {"408", "Cleaning"},
		{"412", "Consulting & Accounting"}, {"420", "Entertainment"}, {"425", "Freight & Courier"},
		{"429", "General Expenses"}, {"433", "Insurance"}, {"441", "Legal expenses"},
		{"445", "Light, Power, Heating"}, {"449", "Motor Vehicle Expenses"}, {"453", "Office Expenses"},
		{"461", "Printing & Stationery"}, {"469", "Rent"}, {"473", "Repairs and Maintenance"},
		{"485", "Subscriptions"}, {"489", "Telephone & Internet"}, {"493", "Travel - National"},
		{"494", "Travel - International"},
	}
	out := make([]Account, len(list))
	for i, a := range list {
		out[i] = Account{Code: a.code, Name: a.name, Type: "EXPENSE", TaxCode: tax}
		if a.code == "404" || a.code == "433" {
			out[i].TaxCode = free
		}
	}
	return out
}

// Accounts returns the chart of accounts by code (archived ones too).
func (l *Library) Accounts() ([]Account, error) {
	rows, err := l.db.Query(`SELECT code, name, type, tax_code, archived FROM accounts ORDER BY code`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Account
	for rows.Next() {
		var a Account
		if err := rows.Scan(&a.Code, &a.Name, &a.Type, &a.TaxCode, &a.Archived); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// SetAccounts replaces the chart of accounts in one transaction. Codes
// receipts already use stay valid text: the export check flags any that
// the new chart lacks.
func (l *Library) SetAccounts(ctx context.Context, accounts []Account) error {
	seen := map[string]bool{}
	for _, a := range accounts {
		if a.Code == "" {
			return fmt.Errorf("account %q has no code", a.Name)
		}
		if seen[a.Code] {
			return fmt.Errorf("account code %s appears twice", a.Code)
		}
		seen[a.Code] = true
	}
	return l.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM accounts`); err != nil {
			return err
		}
		for _, a := range accounts {
			if _, err := tx.Exec(`INSERT INTO accounts (code, name, type, tax_code, archived) VALUES (?, ?, ?, ?, ?)`,
				a.Code, a.Name, a.Type, a.TaxCode, a.Archived); err != nil {
				return err
			}
		}
		return nil
	})
}

// TaxCodes returns the client's tax codes by code.
func (l *Library) TaxCodes() ([]TaxCode, error) {
	rows, err := l.db.Query(`SELECT code, name, rate, xero_name FROM tax_codes ORDER BY code`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TaxCode
	for rows.Next() {
		var t TaxCode
		var rate string
		if err := rows.Scan(&t.Code, &t.Name, &rate, &t.XeroName); err != nil {
			return nil, err
		}
		t.Rate, _ = decimal.NewFromString(rate)
		out = append(out, t)
	}
	return out, rows.Err()
}

// SetTaxCodes replaces the client's tax codes.
func (l *Library) SetTaxCodes(ctx context.Context, codes []TaxCode) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM tax_codes`); err != nil {
			return err
		}
		for _, t := range codes {
			if t.Code == "" {
				return fmt.Errorf("tax code %q has no code", t.Name)
			}
			if _, err := tx.Exec(`INSERT INTO tax_codes (code, name, rate, xero_name) VALUES (?, ?, ?, ?)`,
				t.Code, t.Name, t.Rate.String(), t.XeroName); err != nil {
				return fmt.Errorf("tax code %s: %w", t.Code, err)
			}
		}
		return nil
	})
}

// UseCountryDefaults gives a client with no chart or tax codes yet its
// country's defaults; what is already set stays.
func (l *Library) UseCountryDefaults(ctx context.Context, c receipt.Country) error {
	if codes, err := l.TaxCodes(); err != nil {
		return err
	} else if len(codes) == 0 {
		if err := l.SetTaxCodes(ctx, DefaultTaxCodes(c)); err != nil {
			return err
		}
	}
	if accts, err := l.Accounts(); err != nil {
		return err
	} else if len(accts) == 0 {
		return l.SetAccounts(ctx, DefaultAccounts(c))
	}
	return nil
}

// ParseChart reads a chart of accounts exported by Xero (Accounting →
// Chart of accounts → Export: a CSV whose header is "*Code,*Name,*Type,*Tax
// Code,Description,…") or by MYOB AccountRight (File → Import/Export →
// Export Data → Accounts: tab-delimited, "Account Number, Account Name,
// Header, …, Account Type, …, Tax Code, …"). Columns are found by their
// header names, so column order and extra columns do not matter; MYOB
// header accounts are left out. Xero names a tax rate by its display name
// ("GST on Expenses"): it is mapped to the client's code with that Xero name.
func ParseChart(r io.Reader, codes []TaxCode) ([]Account, error) {
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	s := strings.TrimPrefix(string(text), "\ufeff")
	first, _, _ := strings.Cut(s, "\n")
	cr := csv.NewReader(strings.NewReader(s))
	if strings.Contains(first, "\t") {
		cr.Comma = '\t'
		cr.LazyQuotes = true
	}
	cr.FieldsPerRecord = -1
	records, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("the chart of accounts is not a CSV or tab-delimited file: %w", err)
	}
	if len(records) == 0 {
		return nil, fmt.Errorf("the chart of accounts file is empty")
	}
	col := map[string]int{}
	for i, h := range records[0] {
		col[strings.ToLower(strings.TrimSpace(strings.TrimLeft(h, "*")))] = i
	}
	find := func(names ...string) int {
		for _, n := range names {
			if i, ok := col[n]; ok {
				return i
			}
		}
		return -1
	}
	code, name := find("code", "account number"), find("name", "account name")
	typ, tax, header := find("type", "account type"), find("tax code", "tax type"), find("header")
	if code < 0 || name < 0 {
		return nil, fmt.Errorf("the chart of accounts has no code and name columns (Xero: *Code, *Name; MYOB: Account Number, Account Name); its header is %q", strings.Join(records[0], ", "))
	}
	byXero := map[string]string{}
	for _, c := range codes {
		if c.XeroName != "" {
			if _, dup := byXero[strings.ToLower(c.XeroName)]; !dup {
				byXero[strings.ToLower(c.XeroName)] = c.Code
			}
		}
	}
	get := func(rec []string, i int) string {
		if i < 0 || i >= len(rec) {
			return ""
		}
		return strings.TrimSpace(rec[i])
	}
	var out []Account
	seen := map[string]bool{}
	for n, rec := range records[1:] {
		a := Account{Code: get(rec, code), Name: get(rec, name), Type: get(rec, typ), TaxCode: get(rec, tax)}
		if a.Code == "" && a.Name == "" {
			continue
		}
		if get(rec, header) != "" && !strings.EqualFold(get(rec, header), "N") {
			continue // an MYOB header account: nothing can be coded to it
		}
		if a.Code == "" {
			return nil, fmt.Errorf("line %d of the chart of accounts: account %q has no code", n+2, a.Name)
		}
		if seen[a.Code] {
			return nil, fmt.Errorf("line %d of the chart of accounts: code %s appears twice", n+2, a.Code)
		}
		seen[a.Code] = true
		if c, ok := byXero[strings.ToLower(a.TaxCode)]; ok {
			a.TaxCode = c
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the chart of accounts lists no accounts")
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out, nil
}
