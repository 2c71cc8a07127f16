package library

import (
	"context"
	"database/sql"
	"embed"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
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

// Chart is a country's starting books, read from charts/<country>.json:
// the expense accounts with each program's number or name for them, the
// purchase tax codes with each program's name, and which code a receipt
// gets by default. Every file cites where its names come from.
type Chart struct {
	Country string            `json:"country"`
	Sources map[string]string `json:"sources"`
	// DefaultAccount is the account a receipt is booked to when neither a
	// supplier rule nor its category says otherwise.
	DefaultAccount string `json:"default_account"`
	// FreeTaxCode books a purchase that shows no tax; OutsideTaxCode one
	// whose tax cannot be claimed (tax of another country, tips, rounding).
	FreeTaxCode    string `json:"free_tax_code"`
	OutsideTaxCode string `json:"outside_tax_code"`
	// ClaimsTax is false where purchase tax is part of the cost (US sales
	// tax): a receipt is then one line at its total.
	ClaimsTax bool           `json:"claims_tax"`
	TaxCodes  []ChartTaxCode `json:"tax_codes"`
	Accounts  []ChartAccount `json:"accounts"`
}

// ChartTaxCode is one tax code of a country's chart and its name in each
// accounting program ("" where the program takes none).
type ChartTaxCode struct {
	Code           string          `json:"code"`
	Name           string          `json:"name"`
	Rate           decimal.Decimal `json:"rate"`
	DefaultForRate bool            `json:"default_for_rate,omitempty"`
	Xero           string          `json:"xero"`
	MYOB           string          `json:"myob,omitempty"`
	QBO            string          `json:"qbo,omitempty"`
}

// ChartAccount is one account of a country's chart: its code (Xero's
// numbering), MYOB's account number and QuickBooks' account name for it,
// and the receipt categories booked to it.
type ChartAccount struct {
	Code       string   `json:"code"`
	Name       string   `json:"name"`
	Type       string   `json:"type,omitempty"`
	TaxCode    string   `json:"tax_code"`
	MYOB       string   `json:"myob,omitempty"`
	QBO        string   `json:"qbo,omitempty"`
	Categories []string `json:"categories,omitempty"`
}

//go:embed charts/*.json
var chartFiles embed.FS

// ChartFor returns the starting books of a country ("AU", "NZ", "UK",
// "US", "CA", "IE", "EU"); false when Shoebox has none for it.
func ChartFor(country string) (Chart, bool) {
	data, err := chartFiles.ReadFile("charts/" + strings.ToLower(country) + ".json")
	if err != nil {
		return Chart{}, false
	}
	var c Chart
	if err := json.Unmarshal(data, &c); err != nil {
		panic(fmt.Sprintf("charts/%s.json: %v", strings.ToLower(country), err))
	}
	return c, true
}

// ChartCountries lists the countries that have a chart.
func ChartCountries() []string {
	entries, _ := chartFiles.ReadDir("charts")
	var out []string
	for _, e := range entries {
		out = append(out, strings.ToUpper(strings.TrimSuffix(e.Name(), ".json")))
	}
	return out
}

// CategoryAccount is the account of the chart whose categories name the
// receipt's category ("Meals" → Entertainment), or "".
func (c Chart) CategoryAccount(category string) string {
	want := receipt.Fold(category)
	if want == "" {
		return ""
	}
	for _, a := range c.Accounts {
		for _, cat := range a.Categories {
			if receipt.Fold(cat) == want {
				return a.Code
			}
		}
	}
	return ""
}

// DefaultTaxCodes are a country's purchase tax codes as its chart lists
// them; none for a country without a chart.
func DefaultTaxCodes(c receipt.Country) []TaxCode {
	chart, ok := ChartFor(string(c))
	if !ok {
		return nil
	}
	out := make([]TaxCode, len(chart.TaxCodes))
	for i, t := range chart.TaxCodes {
		out[i] = TaxCode{Code: t.Code, Name: t.Name, Rate: t.Rate, XeroName: t.Xero}
	}
	return out
}

// DefaultAccounts are the expense accounts of a country's chart, a start
// a bookkeeper replaces by importing the client's own.
func DefaultAccounts(c receipt.Country) []Account {
	chart, ok := ChartFor(string(c))
	if !ok {
		return nil
	}
	out := make([]Account, len(chart.Accounts))
	for i, a := range chart.Accounts {
		typ := a.Type
		if typ == "" {
			typ = "EXPENSE"
		}
		out[i] = Account{Code: a.Code, Name: a.Name, Type: typ, TaxCode: a.TaxCode}
	}
	return out
}

// SettingDefaultAccount is the library setting naming the account a
// receipt is booked to when nothing else says.
const SettingDefaultAccount = "default_account"

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

// SettingCountry is the library setting naming the client's country as
// its country pack's code ("IE"): the locale holds only the tax rules
// ("EU"), which many countries share, and each has its own chart.
const SettingCountry = "ui.country"

// ChartCountry is the country whose chart the client's books start from:
// the country chosen for it where Shoebox has a chart for that country
// (Ireland's VAT codes, not the euro countries' shared ones), else its tax
// rules'.
func (l *Library) ChartCountry() receipt.Country {
	if c := l.Setting(SettingCountry); c != "" {
		if _, ok := ChartFor(c); ok {
			return receipt.Country(c)
		}
	}
	return l.Locale().Country
}

// SwitchCountryDefaults gives the client country c's chart where its tax
// codes, accounts and default account are still another country's chart
// as Shoebox set them (or empty): choosing Ireland after a first start
// that set the euro countries' chart. What a person imported or changed
// stays.
func (l *Library) SwitchCountryDefaults(ctx context.Context, c receipt.Country) error {
	if _, ok := ChartFor(string(c)); !ok {
		return nil
	}
	codes, err := l.TaxCodes()
	if err != nil {
		return err
	}
	accts, err := l.Accounts()
	if err != nil {
		return err
	}
	byCode := func(a, b TaxCode) int { return strings.Compare(a.Code, b.Code) }
	acctByCode := func(a, b Account) int { return strings.Compare(a.Code, b.Code) }
	slices.SortFunc(codes, byCode)
	slices.SortFunc(accts, acctByCode)
	for _, other := range ChartCountries() {
		otherCodes, otherAccts := DefaultTaxCodes(receipt.Country(other)), DefaultAccounts(receipt.Country(other))
		slices.SortFunc(otherCodes, byCode)
		slices.SortFunc(otherAccts, acctByCode)
		if other == string(c) || !slices.EqualFunc(codes, otherCodes, sameTaxCode) || !slices.Equal(accts, otherAccts) {
			continue
		}
		chart, _ := ChartFor(other)
		if def := l.Setting(SettingDefaultAccount); def != "" && def != chart.DefaultAccount {
			continue
		}
		if err := l.SetTaxCodes(ctx, nil); err != nil {
			return err
		}
		if err := l.SetAccounts(ctx, nil); err != nil {
			return err
		}
		if err := l.SetSetting(SettingDefaultAccount, ""); err != nil {
			return err
		}
		break
	}
	return l.UseCountryDefaults(ctx, c)
}

// sameTaxCode compares tax codes by value (decimal rates by number).
func sameTaxCode(a, b TaxCode) bool {
	return a.Code == b.Code && a.Name == b.Name && a.Rate.Equal(b.Rate) && a.XeroName == b.XeroName
}

// UseCountryDefaults gives a client with no chart, tax codes or default
// account yet its country's; what is already set stays.
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
		if err := l.SetAccounts(ctx, DefaultAccounts(c)); err != nil {
			return err
		}
	}
	if chart, ok := ChartFor(string(c)); ok && l.Setting(SettingDefaultAccount) == "" {
		return l.SetSetting(SettingDefaultAccount, chart.DefaultAccount)
	}
	return nil
}

// ParseChart reads a chart of accounts exported by Xero (Accounting →
// Chart of accounts → Export: a CSV whose header is "*Code,*Name,*Type,*Tax
// Code,Description,…"), by MYOB AccountRight (File → Import/Export →
// Export Data → Accounts: tab-delimited, "Account Number, Account Name,
// Header, …, Account Type, …, Tax Code, …") or by QuickBooks Online (the
// Account List report: "Account #" when numbers are on, "Account",
// "Type", "Detail type", …; without numbers the name is the code). Columns are found by their
// header names, so column order and extra columns do not matter; MYOB
// header accounts are left out. Xero names a tax rate by its display name
// ("GST on Expenses"): it is mapped to the client's code with that Xero name.
func ParseChart(r io.Reader, codes []TaxCode) ([]Account, error) {
	records, find, err := readProgramExport(r, "chart of accounts file")
	if err != nil {
		return nil, err
	}
	code, name := find("code", "account number", "account #", "number"), find("name", "account name", "account", "full name")
	typ, tax, header := find("type", "account type"), find("tax code", "tax type", "default tax code"), find("header")
	if name < 0 {
		return nil, fmt.Errorf("the chart of accounts has no code and name columns (Xero: *Code, *Name; MYOB: Account Number, Account Name; QuickBooks: Account #, Account); its header is %q", strings.Join(records[0], ", "))
	}
	if code < 0 {
		// QuickBooks without account numbers names accounts only: the
		// name is the code its import files use.
		code = name
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

// Contact is one of the client's suppliers as its accounting program
// names it (the card MYOB matches, Xero's contact, QuickBooks' vendor),
// with its tax number when the list gives one.
type Contact struct {
	Name  string `json:"name"`
	TaxID string `json:"tax_id,omitempty"` // letters and digits only, upper case
}

// Contacts returns the client's contacts by name.
func (l *Library) Contacts() ([]Contact, error) {
	rows, err := l.db.Query(`SELECT name, tax_id FROM contacts ORDER BY name COLLATE NOCASE`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Contact
	for rows.Next() {
		var c Contact
		if err := rows.Scan(&c.Name, &c.TaxID); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// SetContacts replaces the client's contacts in one transaction.
func (l *Library) SetContacts(ctx context.Context, contacts []Contact) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM contacts`); err != nil {
			return err
		}
		for _, c := range contacts {
			if _, err := tx.Exec(`INSERT INTO contacts (key, name, tax_id) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET tax_id = excluded.tax_id`,
				receipt.FoldName(c.Name), c.Name, NormalizeContactTaxID(c.TaxID)); err != nil {
				return fmt.Errorf("contact %q: %w", c.Name, err)
			}
		}
		return nil
	})
}

// NormalizeContactTaxID keeps a tax number's letters and digits, upper
// case: "51 824 753 556" and "GB 123 4567 89" compare as printed apart.
func NormalizeContactTaxID(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ParseContacts reads a client's supplier list as its program exports it:
// Xero's contacts CSV (*ContactName, TaxNumber), MYOB AccountRight's card
// file (tab-delimited: Co./Last Name, First Name, A.B.N.) or QuickBooks
// Online's vendor list (Vendor or Supplier, Tax ID or ABN). Columns are
// found by their header names.
func ParseContacts(r io.Reader) ([]Contact, error) {
	records, find, err := readProgramExport(r, "contacts file")
	if err != nil {
		return nil, err
	}
	name := find("contactname", "co./last name", "vendor", "supplier", "display name", "company", "name")
	first2 := find("first name")
	tax := find("taxnumber", "tax number", "a.b.n.", "abn", "tax id", "tax registration number", "gst number", "vat number", "business id no.")
	if name < 0 {
		return nil, fmt.Errorf("the contacts file has no name column (Xero: *ContactName; MYOB: Co./Last Name; QuickBooks: Vendor or Supplier); its header is %q", strings.Join(records[0], ", "))
	}
	get := func(rec []string, i int) string {
		if i < 0 || i >= len(rec) {
			return ""
		}
		return strings.TrimSpace(rec[i])
	}
	var out []Contact
	seen := map[string]bool{}
	for _, rec := range records[1:] {
		c := Contact{Name: get(rec, name), TaxID: NormalizeContactTaxID(get(rec, tax))}
		if f := get(rec, first2); f != "" && c.Name != "" {
			c.Name += ", " + f // an MYOB individual's card: "Last, First"
		}
		key := receipt.FoldName(c.Name)
		if key == "" || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the contacts file lists no contacts")
	}
	return out, nil
}

// readProgramExport reads a file an accounting program exported (CSV, or
// tab-delimited as MYOB writes it; a BOM and "*" before required headers
// allowed) and returns its records and a lookup of a column by any of its
// header names (lower case; -1 when none is there). what names the file
// in errors ("contacts file").
func readProgramExport(r io.Reader, what string) (records [][]string, find func(names ...string) int, err error) {
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, err
	}
	s := strings.TrimPrefix(string(text), "\ufeff")
	first, _, _ := strings.Cut(s, "\n")
	cr := csv.NewReader(strings.NewReader(s))
	if strings.Contains(first, "\t") {
		cr.Comma = '\t'
		cr.LazyQuotes = true
	}
	cr.FieldsPerRecord = -1
	records, err = cr.ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("the %s is not a CSV or tab-delimited file: %w", what, err)
	}
	if len(records) == 0 {
		return nil, nil, fmt.Errorf("the %s is empty", what)
	}
	col := map[string]int{}
	for i, h := range records[0] {
		col[strings.ToLower(strings.TrimSpace(strings.TrimLeft(h, "*")))] = i
	}
	find = func(names ...string) int {
		for _, n := range names {
			if i, ok := col[n]; ok {
				return i
			}
		}
		return -1
	}
	return records, find, nil
}
