package library

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shoebox-app/shoebox/receipt"
)

// SupplierRule codes a supplier's receipts: the account, tax code, currency
// and payment method its receipts get on extraction. Rules are learned
// from confirmed receipts and can be typed in the rules table; what a
// person typed is never overwritten by learning.
type SupplierRule struct {
	Key           string    `json:"key"` // SupplierKey of the name
	Name          string    `json:"name"`
	Account       string    `json:"account,omitempty"`
	TaxCode       string    `json:"tax_code,omitempty"`
	Currency      string    `json:"currency,omitempty"`
	PaymentMethod string    `json:"payment_method,omitempty"`
	Typed         bool      `json:"typed,omitempty"`   // set by a person in the rules table
	Learned       int       `json:"learned,omitempty"` // confirmed receipts it learned from
	UpdatedAt     time.Time `json:"updated_at"`
}

// Coding is how a receipt is booked: its account and tax code, and any
// line item booked differently. Source says who chose it: rule (from a
// supplier rule) or user.
type Coding struct {
	Account string         `json:"account,omitempty"`
	TaxCode string         `json:"tax_code,omitempty"`
	Source  receipt.Source `json:"source,omitempty"`
	// Lines holds line items' own coding by item index; an item not here
	// is booked like the receipt.
	Lines map[int]LineCoding `json:"lines,omitempty"`
}

// LineCoding is one line item's account and tax code.
type LineCoding struct {
	Account string         `json:"account,omitempty"`
	TaxCode string         `json:"tax_code,omitempty"`
	Source  receipt.Source `json:"source,omitempty"`
}

// Line returns the account and tax code line item i is booked to.
func (c Coding) Line(i int) (account, taxCode string) {
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

// wholeReceipt is the receipt_coding line that codes the whole receipt.
const wholeReceipt = -1

// Rules returns every supplier rule by supplier name.
func (l *Library) Rules() ([]SupplierRule, error) {
	rows, err := l.db.Query(`SELECT key, name, account, tax_code, currency, payment_method, typed, learned, updated_at FROM supplier_rules ORDER BY name COLLATE NOCASE`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SupplierRule
	for rows.Next() {
		r, err := scanRule(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func scanRule(row interface{ Scan(...any) error }) (SupplierRule, error) {
	var r SupplierRule
	var at string
	err := row.Scan(&r.Key, &r.Name, &r.Account, &r.TaxCode, &r.Currency, &r.PaymentMethod, &r.Typed, &r.Learned, &at)
	r.UpdatedAt, _ = time.Parse(time.RFC3339Nano, at)
	return r, err
}

// RuleFor returns the rule for a supplier name, if there is one.
func (l *Library) RuleFor(supplier string) (SupplierRule, bool, error) {
	return ruleFor(l.db.QueryRow, supplier)
}

func ruleFor(query func(string, ...any) *sql.Row, supplier string) (SupplierRule, bool, error) {
	key := SupplierKey(supplier)
	if key == "" {
		return SupplierRule{}, false, nil
	}
	r, err := scanRule(query(`SELECT key, name, account, tax_code, currency, payment_method, typed, learned, updated_at FROM supplier_rules WHERE key = ?`, key))
	if errors.Is(err, sql.ErrNoRows) {
		return SupplierRule{}, false, nil
	}
	return r, err == nil, err
}

// SetRule stores a rule a person typed in the rules table; learning never
// overwrites it. The account and tax code must be in the client's books
// when the books list any.
func (l *Library) SetRule(ctx context.Context, r SupplierRule) error {
	key := SupplierKey(r.Name)
	if key == "" {
		return fmt.Errorf("a supplier rule needs the supplier's name")
	}
	if err := l.checkCodes(r.Account, r.TaxCode); err != nil {
		return err
	}
	return l.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO supplier_rules (key, name, account, tax_code, currency, payment_method, typed, learned, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, 1, 0, ?)
			ON CONFLICT(key) DO UPDATE SET name = excluded.name, account = excluded.account, tax_code = excluded.tax_code,
				currency = excluded.currency, payment_method = excluded.payment_method, typed = 1, updated_at = excluded.updated_at`,
			key, strings.TrimSpace(r.Name), r.Account, r.TaxCode, strings.ToUpper(r.Currency), r.PaymentMethod, l.stamp())
		return err
	})
}

// DeleteRule removes a supplier's rule.
func (l *Library) DeleteRule(ctx context.Context, supplier string) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM supplier_rules WHERE key = ?`, SupplierKey(supplier))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("there is no rule for supplier %q", supplier)
		}
		return nil
	})
}

// checkCodes refuses an account or tax code the client's books do not
// list, when the books list any.
func (l *Library) checkCodes(account, taxCode string) error {
	if account != "" {
		var n, found int
		if err := l.db.QueryRow(`SELECT COUNT(*), COALESCE(SUM(code = ?), 0) FROM accounts`, account).Scan(&n, &found); err != nil {
			return err
		}
		if n > 0 && found == 0 {
			return fmt.Errorf("account %s is not in this client's chart of accounts", account)
		}
	}
	if taxCode != "" {
		var n, found int
		if err := l.db.QueryRow(`SELECT COUNT(*), COALESCE(SUM(code = ?), 0) FROM tax_codes`, taxCode).Scan(&n, &found); err != nil {
			return err
		}
		if n > 0 && found == 0 {
			return fmt.Errorf("tax code %q is not one of this client's tax codes", taxCode)
		}
	}
	return nil
}

// Coding returns how a receipt is booked.
func (l *Library) Coding(id int64) (Coding, error) {
	return codingOf(l.db.Query, id)
}

func codingOf(query func(string, ...any) (*sql.Rows, error), id int64) (Coding, error) {
	rows, err := query(`SELECT line, account, tax_code, source FROM receipt_coding WHERE receipt_id = ? ORDER BY line`, id)
	if err != nil {
		return Coding{}, err
	}
	defer rows.Close()
	var c Coding
	for rows.Next() {
		var line int
		var lc LineCoding
		var src string
		if err := rows.Scan(&line, &lc.Account, &lc.TaxCode, &src); err != nil {
			return c, err
		}
		lc.Source = receipt.Source(src)
		if line == wholeReceipt {
			c.Account, c.TaxCode, c.Source = lc.Account, lc.TaxCode, lc.Source
			continue
		}
		if c.Lines == nil {
			c.Lines = map[int]LineCoding{}
		}
		c.Lines[line] = lc
	}
	return c, rows.Err()
}

// SetCoding books a receipt (line < 0) or one of its line items to an
// account and tax code, as a person chose, with history. An empty value
// leaves that part as it is. A confirmed receipt goes back to review.
func (l *Library) SetCoding(ctx context.Context, id int64, line int, account, taxCode string) error {
	if err := l.checkCodes(account, taxCode); err != nil {
		return err
	}
	if line < 0 {
		line = wholeReceipt
	}
	return l.write(ctx, func(tx *sql.Tx) error {
		rec, err := getTx(tx, id)
		if err != nil {
			return err
		}
		if line >= len(rec.Receipt.LineItems) {
			return fmt.Errorf("receipt %d has no line item %d", id, line+1)
		}
		changed, err := setCodingTx(tx, id, line, account, taxCode, receipt.SourceUser, l.stamp())
		if err != nil || !changed {
			return err
		}
		if rec.Status == StatusConfirmed {
			return l.setStatusTx(tx, id, StatusNeedsReview, receipt.SourceUser, "")
		}
		return nil
	})
}

// codingField names a coding change in history: "account",
// "line_items[2].tax_code".
func codingField(line int, part string) string {
	if line == wholeReceipt {
		return part
	}
	return fmt.Sprintf("line_items[%d].%s", line, part)
}

// setCodingTx writes one coding row and its history; it reports whether
// anything changed.
func setCodingTx(tx *sql.Tx, id int64, line int, account, taxCode string, who receipt.Source, at string) (bool, error) {
	var oldAccount, oldTax, oldSource string
	err := tx.QueryRow(`SELECT account, tax_code, source FROM receipt_coding WHERE receipt_id = ? AND line = ?`, id, line).Scan(&oldAccount, &oldTax, &oldSource)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, err
	}
	newAccount, newTax := oldAccount, oldTax
	if account != "" {
		newAccount = account
	}
	if taxCode != "" {
		newTax = taxCode
	}
	if newAccount == oldAccount && newTax == oldTax && err == nil {
		if oldSource != string(who) && who == receipt.SourceUser {
			// A person chose what a rule had put: it is theirs now.
			_, err := tx.Exec(`UPDATE receipt_coding SET source = ? WHERE receipt_id = ? AND line = ?`, string(who), id, line)
			return false, err
		}
		return false, nil
	}
	if _, err := tx.Exec(`INSERT INTO receipt_coding (receipt_id, line, account, tax_code, source) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT(receipt_id, line) DO UPDATE SET account = excluded.account, tax_code = excluded.tax_code, source = excluded.source`,
		id, line, newAccount, newTax, string(who)); err != nil {
		return false, err
	}
	if newAccount != oldAccount {
		if err := addHistory(tx, id, at, who, "field", codingField(line, "account"), oldAccount, newAccount); err != nil {
			return false, err
		}
	}
	if newTax != oldTax {
		if err := addHistory(tx, id, at, who, "field", codingField(line, "tax_code"), oldTax, newTax); err != nil {
			return false, err
		}
	}
	return true, nil
}

// applySupplierRule codes a freshly read receipt from its supplier's rule:
// the account and tax code (unless a person already coded it), and the
// currency and payment method where the reader found none, each marked as
// coming from a rule.
func applySupplierRule(tx *sql.Tx, id int64, r *receipt.Receipt, at string) error {
	rule, ok, err := ruleFor(tx.QueryRow, r.SupplierName.Value)
	if err != nil || !ok {
		return err
	}
	if !r.Currency.Set && rule.Currency != "" {
		r.Currency = receipt.Of(rule.Currency, receipt.SourceRule, 0.9)
	}
	if !r.PaymentMethod.Set && rule.PaymentMethod != "" {
		r.PaymentMethod = receipt.Of(rule.PaymentMethod, receipt.SourceRule, 0.9)
	}
	if rule.Account == "" && rule.TaxCode == "" {
		return nil
	}
	var src string
	err = tx.QueryRow(`SELECT source FROM receipt_coding WHERE receipt_id = ? AND line = ?`, id, wholeReceipt).Scan(&src)
	if err == nil && receipt.Source(src) == receipt.SourceUser {
		return nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	_, err = setCodingTx(tx, id, wholeReceipt, rule.Account, rule.TaxCode, receipt.SourceRule, at)
	return err
}

// learnSupplierRule teaches the supplier's rule what a confirmed receipt
// was booked to, unless a person typed the rule.
func learnSupplierRule(tx *sql.Tx, id int64, r receipt.Receipt, at string) error {
	key := SupplierKey(r.SupplierName.Value)
	if key == "" {
		return nil
	}
	c, err := codingOf(tx.Query, id)
	if err != nil {
		return err
	}
	_, err = tx.Exec(`INSERT INTO supplier_rules (key, name, account, tax_code, currency, payment_method, typed, learned, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, 0, 1, ?)
		ON CONFLICT(key) DO UPDATE SET
			account = CASE WHEN supplier_rules.typed = 0 AND excluded.account != '' THEN excluded.account ELSE supplier_rules.account END,
			tax_code = CASE WHEN supplier_rules.typed = 0 AND excluded.tax_code != '' THEN excluded.tax_code ELSE supplier_rules.tax_code END,
			currency = CASE WHEN supplier_rules.typed = 0 AND excluded.currency != '' THEN excluded.currency ELSE supplier_rules.currency END,
			payment_method = CASE WHEN supplier_rules.typed = 0 AND excluded.payment_method != '' THEN excluded.payment_method ELSE supplier_rules.payment_method END,
			learned = supplier_rules.learned + 1, updated_at = excluded.updated_at`,
		key, r.SupplierName.Value, c.Account, c.TaxCode, r.Currency.Value, r.PaymentMethod.Value, at)
	return err
}
