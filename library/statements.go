package library

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/receipt"
)

// BankAccount is a bank or card account whose statements the client hands
// in; CSVMapping is the column mapping its CSV exports are read with (JSON,
// owned by the bank package), kept so it is set once per account.
type BankAccount struct {
	Name       string `json:"name"`
	Currency   string `json:"currency"`
	CSVMapping string `json:"csv_mapping,omitempty"`
}

// Match states of a statement line.
const (
	MatchNone      = ""          // no receipt
	MatchProposed  = "proposed"  // a receipt suggested, waiting for the bookkeeper
	MatchAutomatic = "matched"   // matched by Shoebox, sure
	MatchConfirmed = "confirmed" // confirmed or matched by hand by the bookkeeper
	// MatchNotNeeded: the bookkeeper said the line needs no receipt (a bank
	// fee, a transfer between the client's accounts, a loan repayment).
	MatchNotNeeded = "not_needed"
)

// Decided reports whether the bookkeeper settled the line (confirmed a
// receipt or said none is needed): match runs leave it as it is.
func (s StatementLine) Decided() bool {
	return s.MatchState == MatchConfirmed || s.MatchState == MatchNotNeeded
}

// Match kinds: how a line relates to its receipt.
const (
	KindPayment = "payment" // the line paid the receipt
	KindSplit   = "split"   // one of several lines that together paid it
	KindRefund  = "refund"  // money back for it
)

// StatementLine is one line of a bank or card statement as stored. Amount
// is signed: money out is negative. OrigAmount and OrigCurrency are the
// foreign amount a card payment was made in, when the bank states it.
type StatementLine struct {
	ID           int64           `json:"id"`
	StatementID  int64           `json:"statement_id"`
	Account      string          `json:"account"`
	Fingerprint  string          `json:"-"`
	Date         time.Time       `json:"date"`
	Amount       decimal.Decimal `json:"amount"`
	Currency     string          `json:"currency"`
	OrigAmount   decimal.Decimal `json:"orig_amount,omitzero"`
	OrigCurrency string          `json:"orig_currency,omitempty"`
	Description  string          `json:"description"`
	Reference    string          `json:"reference,omitempty"`
	Balance      string          `json:"balance,omitempty"`
	ReceiptID    int64           `json:"receipt_id,omitempty"`
	MatchState   string          `json:"match_state,omitempty"`
	MatchKind    string          `json:"match_kind,omitempty"`
	MatchReason  string          `json:"match_reason,omitempty"`
}

// NewStatement is a parsed statement file to keep: Data is the file as it
// came, stored untouched beside the receipts' originals.
type NewStatement struct {
	Account      string
	Currency     string
	Format       string
	OriginalName string
	Data         []byte
	From, To     time.Time
	Opening      string
	Closing      string
	Lines        []StatementLine
}

// StatementImport says what importing a statement did.
type StatementImport struct {
	StatementID int64 `json:"statement_id"`
	Lines       int   `json:"lines"`
	Added       int   `json:"added"`
	// AlreadyHad counts lines an earlier statement of the account carried
	// (an overlapping period), kept once.
	AlreadyHad int `json:"already_had"`
	// SameFile is true when this very file was imported before.
	SameFile bool `json:"same_file"`
}

// StatementInfo is one imported statement file.
type StatementInfo struct {
	ID           int64     `json:"id"`
	Account      string    `json:"account"`
	OriginalName string    `json:"original_name"`
	StoredPath   string    `json:"stored_path"`
	Format       string    `json:"format"`
	Currency     string    `json:"currency"`
	From         string    `json:"from"`
	To           string    `json:"to"`
	Opening      string    `json:"opening,omitempty"`
	Closing      string    `json:"closing,omitempty"`
	Lines        int       `json:"lines"`
	Added        int       `json:"added"`
	ImportedAt   time.Time `json:"imported_at"`
}

// ErrNoSuchLine is returned for an unknown statement line.
var ErrNoSuchLine = errors.New("no such statement line")

// SaveBankAccount creates an account or updates its currency and mapping
// (an empty field keeps the stored one).
func (l *Library) SaveBankAccount(ctx context.Context, a BankAccount) error {
	a.Name = strings.TrimSpace(a.Name)
	if a.Name == "" {
		return fmt.Errorf("an account needs a name")
	}
	return l.write(ctx, func(tx *sql.Tx) error { return saveAccountTx(tx, a, l.stamp()) })
}

func saveAccountTx(tx *sql.Tx, a BankAccount, at string) error {
	_, err := tx.Exec(`INSERT INTO bank_accounts (name, currency, csv_mapping, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT(name) DO UPDATE SET
			currency = CASE WHEN excluded.currency != '' THEN excluded.currency ELSE bank_accounts.currency END,
			csv_mapping = CASE WHEN excluded.csv_mapping != '' THEN excluded.csv_mapping ELSE bank_accounts.csv_mapping END`,
		a.Name, a.Currency, a.CSVMapping, at)
	return err
}

// BankAccounts lists the accounts by name.
func (l *Library) BankAccounts() ([]BankAccount, error) {
	rows, err := l.db.Query(`SELECT name, currency, csv_mapping FROM bank_accounts ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BankAccount
	for rows.Next() {
		var a BankAccount
		if err := rows.Scan(&a.Name, &a.Currency, &a.CSVMapping); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// BankAccount returns one account; ok is false when there is none by that name.
func (l *Library) BankAccount(name string) (BankAccount, bool, error) {
	a := BankAccount{Name: name}
	err := l.db.QueryRow(`SELECT currency, csv_mapping FROM bank_accounts WHERE name = ?`, name).Scan(&a.Currency, &a.CSVMapping)
	if errors.Is(err, sql.ErrNoRows) {
		return a, false, nil
	}
	return a, err == nil, err
}

// AddStatement keeps a statement: the file goes to originals/ untouched
// (written and synced before the database knows of it, so a kill leaves at
// most a file the next import of it reuses), then the statement and its
// new lines go in in one transaction. A line already stored for the
// account (same fingerprint: an overlapping statement) is counted, not
// added again; the same file twice adds nothing.
func (l *Library) AddStatement(ctx context.Context, s NewStatement) (StatementImport, error) {
	var res StatementImport
	if strings.TrimSpace(s.Account) == "" {
		return res, fmt.Errorf("the statement needs an account name")
	}
	sum := sha256.Sum256(s.Data)
	sha := hex.EncodeToString(sum[:])
	res.Lines = len(s.Lines)
	var existing int64
	same := func(q interface {
		QueryRow(string, ...any) *sql.Row
	},
	) (bool, error) {
		err := q.QueryRow(`SELECT id FROM statements WHERE account = ? AND sha256 = ?`, s.Account, sha).Scan(&existing)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		if err == nil {
			res.StatementID, res.SameFile, res.AlreadyHad = existing, true, len(s.Lines)
		}
		return err == nil, err
	}
	if ok, err := same(l.db); ok || err != nil {
		return res, err
	}
	ext := strings.ToLower(filepath.Ext(s.OriginalName))
	if len(ext) > 8 || strings.ContainsAny(ext, `/\ `) {
		ext = ""
	}
	rel := filepath.Join("originals", "statements", sha[:2], sha+ext)
	dst := filepath.Join(l.dir, rel)
	if st, err := os.Stat(dst); err != nil || st.Size() != int64(len(s.Data)) {
		if err := os.MkdirAll(filepath.Dir(dst), privateDir); err != nil {
			return res, fmt.Errorf("cannot keep the statement in the library: %w", err)
		}
		fsutil.TidyFolder(filepath.Dir(dst)) // what a killed import left
		if err := fsutil.WriteAtomic(dst, func(w io.Writer) error { _, err := w.Write(s.Data); return err }); err != nil {
			return res, fmt.Errorf("cannot keep the statement in the library: %w", err)
		}
	}
	at := l.stamp()
	err := l.write(ctx, func(tx *sql.Tx) error {
		res.Added, res.AlreadyHad = 0, 0 // a busy library runs this again
		// Another program may have imported the same file meanwhile.
		if ok, err := same(tx); ok || err != nil {
			return err
		}
		if err := saveAccountTx(tx, BankAccount{Name: s.Account, Currency: s.Currency}, at); err != nil {
			return err
		}
		r, err := tx.Exec(`INSERT INTO statements (account, sha256, original_name, stored_path, format, currency, period_from, period_to,
			opening, closing, line_count, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			s.Account, sha, s.OriginalName, rel, s.Format, s.Currency, dateText(s.From), dateText(s.To), s.Opening, s.Closing, len(s.Lines), at)
		if err != nil {
			return err
		}
		id, _ := r.LastInsertId()
		res.StatementID = id
		ins, err := tx.Prepare(`INSERT INTO statement_lines (statement_id, account, fingerprint, date, amount, currency, orig_amount,
			orig_currency, description, reference, balance) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(account, fingerprint) DO NOTHING`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for i, ln := range s.Lines {
			if i%512 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			orig := ""
			if ln.OrigCurrency != "" {
				orig = ln.OrigAmount.String()
			}
			r, err := ins.Exec(id, s.Account, ln.Fingerprint, dateText(ln.Date), ln.Amount.String(), ln.Currency, orig,
				ln.OrigCurrency, ln.Description, ln.Reference, ln.Balance)
			if err != nil {
				return err
			}
			if n, _ := r.RowsAffected(); n == 1 {
				res.Added++
			} else {
				res.AlreadyHad++
			}
		}
		_, err = tx.Exec(`UPDATE statements SET added = ? WHERE id = ?`, res.Added, id)
		return err
	})
	return res, err
}

func dateText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01-02")
}

// Statements lists the imported statement files of an account ("" for all), newest period last.
func (l *Library) Statements(account string) ([]StatementInfo, error) {
	rows, err := l.db.Query(`SELECT id, account, original_name, stored_path, format, currency, period_from, period_to, opening, closing,
		line_count, added, imported_at FROM statements WHERE ? = '' OR account = ? ORDER BY account, period_to, id`, account, account)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StatementInfo
	for rows.Next() {
		var s StatementInfo
		var at string
		if err := rows.Scan(&s.ID, &s.Account, &s.OriginalName, &s.StoredPath, &s.Format, &s.Currency, &s.From, &s.To, &s.Opening,
			&s.Closing, &s.Lines, &s.Added, &at); err != nil {
			return nil, err
		}
		s.ImportedAt, _ = time.Parse(time.RFC3339Nano, at)
		out = append(out, s)
	}
	return out, rows.Err()
}

// LineFilter picks statement lines: an account ("" for all), a date range
// [From, To) (zero for open), and only those without a sure match.
type LineFilter struct {
	Account   string
	From, To  time.Time
	Unmatched bool
}

const lineColumns = `id, statement_id, account, fingerprint, date, amount, currency, orig_amount, orig_currency, description,
	reference, balance, COALESCE(receipt_id, 0), match_state, match_kind, match_reason`

func scanLine(row interface{ Scan(...any) error }) (StatementLine, error) {
	var ln StatementLine
	var date, amount, orig string
	err := row.Scan(&ln.ID, &ln.StatementID, &ln.Account, &ln.Fingerprint, &date, &amount, &ln.Currency, &orig, &ln.OrigCurrency,
		&ln.Description, &ln.Reference, &ln.Balance, &ln.ReceiptID, &ln.MatchState, &ln.MatchKind, &ln.MatchReason)
	if err != nil {
		return ln, err
	}
	ln.Date, _ = time.Parse("2006-01-02", date)
	ln.Amount, _ = decimal.NewFromString(amount)
	if orig != "" {
		ln.OrigAmount, _ = decimal.NewFromString(orig)
	}
	return ln, nil
}

// StatementLines lists lines by date.
func (l *Library) StatementLines(f LineFilter) ([]StatementLine, error) {
	q := `SELECT ` + lineColumns + ` FROM statement_lines WHERE 1=1`
	var args []any
	if f.Account != "" {
		q += ` AND account = ?`
		args = append(args, f.Account)
	}
	if !f.From.IsZero() {
		q += ` AND date >= ?`
		args = append(args, dateText(f.From))
	}
	if !f.To.IsZero() {
		q += ` AND date < ?`
		args = append(args, dateText(f.To))
	}
	if f.Unmatched {
		q += ` AND match_state NOT IN ('matched', 'confirmed', 'not_needed')`
	}
	q += ` ORDER BY date, id`
	rows, err := l.db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StatementLine
	for rows.Next() {
		ln, err := scanLine(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, ln)
	}
	return out, rows.Err()
}

// StatementLine returns one line.
func (l *Library) StatementLine(id int64) (StatementLine, error) {
	ln, err := scanLine(l.db.QueryRow(`SELECT `+lineColumns+` FROM statement_lines WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return ln, fmt.Errorf("statement line %d: %w", id, ErrNoSuchLine)
	}
	return ln, err
}

// LinesForReceipt returns the statement lines matched or proposed for a
// receipt (its payment, the parts of a split, a refund).
func (l *Library) LinesForReceipt(id int64) ([]StatementLine, error) {
	rows, err := l.db.Query(`SELECT `+lineColumns+` FROM statement_lines WHERE receipt_id = ? ORDER BY date, id`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StatementLine
	for rows.Next() {
		ln, err := scanLine(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, ln)
	}
	return out, rows.Err()
}

// MatchReceipt is a receipt as matching sees it: who, when, how much.
type MatchReceipt struct {
	ID          int64
	Supplier    string
	SupplierKey string
	Date        time.Time
	Total       decimal.Decimal
	Currency    string
	Status      Status
	DocType     string
}

// MatchReceipts lists the read receipts with a total and a date in [from,
// to) (zero for open), the ones statement lines can be matched to.
func (l *Library) MatchReceipts(from, to time.Time) ([]MatchReceipt, error) {
	q := `SELECT id, supplier, supplier_key, date, total, currency, status, COALESCE(json_extract(data, '$.doc_type.value'), '')
		FROM receipts WHERE total != '' AND date != '' AND status IN ('extracted', 'needs_review', 'confirmed')`
	var args []any
	if !from.IsZero() {
		q += ` AND date >= ?`
		args = append(args, dateText(from))
	}
	if !to.IsZero() {
		q += ` AND date < ?`
		args = append(args, dateText(to))
	}
	rows, err := l.db.Query(q+` ORDER BY date, id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []MatchReceipt
	for rows.Next() {
		var r MatchReceipt
		var date, total, status string
		var doc any
		if err := rows.Scan(&r.ID, &r.Supplier, &r.SupplierKey, &date, &total, &r.Currency, &status, &doc); err != nil {
			return nil, err
		}
		var err1, err2 error
		r.Date, err1 = time.Parse("2006-01-02", date)
		r.Total, err2 = decimal.NewFromString(total)
		if err1 != nil || err2 != nil {
			continue
		}
		r.Status = Status(status)
		if s, ok := doc.(string); ok {
			r.DocType = s
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Rejections returns the (line, receipt) pairs the bookkeeper said are
// not each other's, so matching never proposes them again.
func (l *Library) Rejections() (map[[2]int64]bool, error) {
	rows, err := l.db.Query(`SELECT line_id, receipt_id FROM match_rejections`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[[2]int64]bool{}
	for rows.Next() {
		var a, b int64
		if err := rows.Scan(&a, &b); err != nil {
			return nil, err
		}
		out[[2]int64{a, b}] = true
	}
	return out, rows.Err()
}

// LineMatch is a line's receipt and how sure: the state a match run, a
// confirmation or a hand match gives it.
type LineMatch struct {
	LineID    int64  `json:"line_id"`
	ReceiptID int64  `json:"receipt_id,omitempty"`
	State     string `json:"state,omitempty"`
	Kind      string `json:"kind,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// ApplyMatchRun stores what a match run found, in one transaction. Lines
// the bookkeeper settled (Decided) are never touched; the other
// lines of the run get their new state (an empty state clears an old
// proposal). A run is not undone step by step: it is re-run.
func (l *Library) ApplyMatchRun(ctx context.Context, changes []LineMatch) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		st, err := tx.Prepare(`UPDATE statement_lines SET receipt_id = ?, match_state = ?, match_kind = ?, match_reason = ?
			WHERE id = ? AND match_state NOT IN ('confirmed', 'not_needed')`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, c := range changes {
			var rid any
			if c.ReceiptID != 0 {
				rid = c.ReceiptID
			}
			if _, err := st.Exec(rid, c.State, c.Kind, c.Reason, c.LineID); err != nil {
				return err
			}
		}
		return nil
	})
}

// historyEntry is a line's match before and after a bookkeeper's action.
type historyEntry struct {
	Match    LineMatch `json:"match"`
	Rejected int64     `json:"rejected,omitempty"` // a rejection this action added
}

func currentMatch(tx *sql.Tx, lineID int64) (LineMatch, error) {
	m := LineMatch{LineID: lineID}
	err := tx.QueryRow(`SELECT COALESCE(receipt_id, 0), match_state, match_kind, match_reason FROM statement_lines WHERE id = ?`, lineID).
		Scan(&m.ReceiptID, &m.State, &m.Kind, &m.Reason)
	if errors.Is(err, sql.ErrNoRows) {
		return m, fmt.Errorf("statement line %d: %w", lineID, ErrNoSuchLine)
	}
	return m, err
}

func setMatchTx(tx *sql.Tx, m LineMatch) error {
	var rid any
	if m.ReceiptID != 0 {
		rid = m.ReceiptID
	}
	_, err := tx.Exec(`UPDATE statement_lines SET receipt_id = ?, match_state = ?, match_kind = ?, match_reason = ? WHERE id = ?`,
		rid, m.State, m.Kind, m.Reason, m.LineID)
	return err
}

func (l *Library) recordMatch(tx *sql.Tx, kind string, old, new historyEntry) error {
	o, _ := json.Marshal(old)
	n, _ := json.Marshal(new)
	_, err := tx.Exec(`INSERT INTO match_history (line_id, at, who, kind, old, new) VALUES (?, ?, ?, ?, ?, ?)`,
		old.Match.LineID, l.stamp(), string(receipt.SourceUser), kind, string(o), string(n))
	return err
}

// ConfirmMatch makes a line's receipt the bookkeeper's: a proposal or an
// automatic match confirmed, or a receipt chosen by hand (receiptID != 0
// and not the line's own). descKey is the line's description as matching
// compares it: it is remembered to name the receipt's supplier next time.
// A receipt already paid by another line is refused unless kind says the
// line is a split part or a refund.
func (l *Library) ConfirmMatch(ctx context.Context, lineID, receiptID int64, kind, descKey string) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		old, err := currentMatch(tx, lineID)
		if err != nil {
			return err
		}
		m := old
		if receiptID != 0 && receiptID != old.ReceiptID {
			m = LineMatch{LineID: lineID, ReceiptID: receiptID, Kind: kind, Reason: "matched by hand"}
		}
		if m.ReceiptID == 0 {
			return fmt.Errorf("statement line %d has no receipt to confirm: choose one", lineID)
		}
		if m.Kind == "" {
			m.Kind = KindPayment
		}
		var supplier, key string
		if err := tx.QueryRow(`SELECT supplier, supplier_key FROM receipts WHERE id = ?`, m.ReceiptID).Scan(&supplier, &key); errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("receipt %d: %w", m.ReceiptID, ErrNotFound)
		} else if err != nil {
			return err
		}
		if m.Kind == KindPayment {
			var other int64
			err := tx.QueryRow(`SELECT id FROM statement_lines WHERE receipt_id = ? AND id != ? AND match_kind = 'payment'
				AND match_state IN ('matched', 'confirmed')`, m.ReceiptID, lineID).Scan(&other)
			if err == nil {
				return fmt.Errorf("receipt %d is already paid by statement line %d: undo that match first, or mark this line as a split part", m.ReceiptID, other)
			}
		}
		m.State = MatchConfirmed
		if err := setMatchTx(tx, m); err != nil {
			return err
		}
		if descKey != "" && key != "" {
			if _, err := tx.Exec(`INSERT INTO description_memory (desc_key, supplier_key, supplier, confirmed, updated_at) VALUES (?, ?, ?, 1, ?)
				ON CONFLICT(desc_key) DO UPDATE SET supplier_key = excluded.supplier_key, supplier = excluded.supplier,
				confirmed = CASE WHEN description_memory.supplier_key = excluded.supplier_key THEN description_memory.confirmed + 1 ELSE 1 END,
				updated_at = excluded.updated_at`, descKey, key, supplier, l.stamp()); err != nil {
				return err
			}
		}
		return l.recordMatch(tx, "confirm", historyEntry{Match: old}, historyEntry{Match: m})
	})
}

// NoReceiptNeeded says a line needs no receipt, and, with descKey, that
// lines of that description never do: later match runs mark them so.
func (l *Library) NoReceiptNeeded(ctx context.Context, lineID int64, descKey string) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		old, err := currentMatch(tx, lineID)
		if err != nil {
			return err
		}
		m := LineMatch{LineID: lineID, State: MatchNotNeeded, Reason: "you said this line needs no receipt"}
		if err := setMatchTx(tx, m); err != nil {
			return err
		}
		if descKey != "" {
			// An empty supplier stands for "no receipt needed".
			if _, err := tx.Exec(`INSERT INTO description_memory (desc_key, supplier_key, supplier, confirmed, updated_at) VALUES (?, '', '', 1, ?)
				ON CONFLICT(desc_key) DO UPDATE SET supplier_key = '', supplier = '', confirmed = 1, updated_at = excluded.updated_at`, descKey, l.stamp()); err != nil {
				return err
			}
		}
		return l.recordMatch(tx, "no receipt needed", historyEntry{Match: old}, historyEntry{Match: m})
	})
}

// RejectMatch says a line's proposed or automatic receipt is not its own:
// the pair is never proposed again and the line is left without a receipt.
func (l *Library) RejectMatch(ctx context.Context, lineID int64) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		old, err := currentMatch(tx, lineID)
		if err != nil {
			return err
		}
		if old.ReceiptID == 0 {
			return fmt.Errorf("statement line %d has no receipt to reject", lineID)
		}
		if _, err := tx.Exec(`INSERT OR IGNORE INTO match_rejections (line_id, receipt_id) VALUES (?, ?)`, lineID, old.ReceiptID); err != nil {
			return err
		}
		m := LineMatch{LineID: lineID}
		if err := setMatchTx(tx, m); err != nil {
			return err
		}
		return l.recordMatch(tx, "reject", historyEntry{Match: old}, historyEntry{Match: m, Rejected: old.ReceiptID})
	})
}

// UnmatchLine takes a receipt off a line (a wrong confirmed match).
func (l *Library) UnmatchLine(ctx context.Context, lineID int64) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		old, err := currentMatch(tx, lineID)
		if err != nil {
			return err
		}
		m := LineMatch{LineID: lineID}
		if err := setMatchTx(tx, m); err != nil {
			return err
		}
		return l.recordMatch(tx, "unmatch", historyEntry{Match: old}, historyEntry{Match: m})
	})
}

// UndoMatch takes back the bookkeeper's last confirm, reject or unmatch
// and says what it undid; ok is false when there is nothing to undo.
func (l *Library) UndoMatch(ctx context.Context) (what string, ok bool, err error) {
	err = l.write(ctx, func(tx *sql.Tx) error {
		var id, lineID int64
		var kind, oldText, newText string
		err := tx.QueryRow(`SELECT id, line_id, kind, old, new FROM match_history ORDER BY id DESC LIMIT 1`).Scan(&id, &lineID, &kind, &oldText, &newText)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return err
		}
		var old, new historyEntry
		if err := json.Unmarshal([]byte(oldText), &old); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(newText), &new); err != nil {
			return err
		}
		if new.Rejected != 0 {
			if _, err := tx.Exec(`DELETE FROM match_rejections WHERE line_id = ? AND receipt_id = ?`, lineID, new.Rejected); err != nil {
				return err
			}
		}
		old.Match.LineID = lineID
		if err := setMatchTx(tx, old.Match); err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM match_history WHERE id = ?`, id); err != nil {
			return err
		}
		ok = true
		what = fmt.Sprintf("%s of statement line %d", kind, lineID)
		return nil
	})
	return what, ok, err
}

// DescriptionMemory maps a statement description (as matching folds it) to
// the supplier key the bookkeeper confirmed for it.
func (l *Library) DescriptionMemory() (map[string]string, error) {
	rows, err := l.db.Query(`SELECT desc_key, supplier_key FROM description_memory`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

// StatementFile is the absolute path of a statement's stored original.
func (l *Library) StatementFile(s StatementInfo) string { return filepath.Join(l.dir, s.StoredPath) }

// ReceiptsOnStatements are the receipts a statement line pays, sure or proposed.
func (l *Library) ReceiptsOnStatements() (map[int64]bool, error) {
	ids, err := l.ids(`SELECT DISTINCT receipt_id FROM statement_lines WHERE receipt_id IS NOT NULL AND match_kind != 'refund'`)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// RemoveStatement takes an imported statement out: the file read the wrong
// way (a date form or a column mistaken) is removed, with the lines it
// brought and their matches, to be imported again read the right way.
// Lines an earlier statement brought stay. The stored original stays too,
// as every original does: importing the file again finds it there.
func (l *Library) RemoveStatement(ctx context.Context, id int64) (StatementInfo, error) {
	var info StatementInfo
	err := l.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRow(`SELECT account, original_name, stored_path FROM statements WHERE id = ?`, id).
			Scan(&info.Account, &info.OriginalName, &info.StoredPath)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("no statement %d (shoebox statements accounts lists them)", id)
		} else if err != nil {
			return err
		}
		info.ID = id
		if _, err := tx.Exec(`DELETE FROM statement_lines WHERE statement_id = ?`, id); err != nil {
			return err
		}
		_, err = tx.Exec(`DELETE FROM statements WHERE id = ?`, id)
		return err
	})
	return info, err
}

// ids runs a query that selects one id a row.
func (l *Library) ids(q string, args ...any) ([]int64, error) { return idsOf(l.db.Query, q, args...) }

// idsOf runs, with query (a database's or a transaction's), a query that
// selects one id a row.
func idsOf(query func(string, ...any) (*sql.Rows, error), q string, args ...any) ([]int64, error) {
	rows, err := query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
