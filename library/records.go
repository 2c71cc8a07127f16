package library

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// Record is one receipt with everything the library knows of it.
type Record struct {
	ID           int64             `json:"id"`
	SHA256       string            `json:"sha256"`
	OriginalName string            `json:"original_name"`
	SourcePath   string            `json:"source_path"`
	StoredPath   string            `json:"stored_path"` // relative to the library folder
	Kind         string            `json:"kind"`
	Size         int64             `json:"size"`
	Pages        int               `json:"pages"`
	Status       Status            `json:"status"`
	FailReason   string            `json:"fail_reason,omitempty"`
	ImportedAt   time.Time         `json:"imported_at"`
	UpdatedAt    time.Time         `json:"updated_at"`
	Engine       string            `json:"engine,omitempty"`
	Receipt      receipt.Receipt   `json:"receipt"`
	Findings     []receipt.Finding `json:"findings"`
	// DuplicateOf is the receipt this one is a copy of: marked by a person
	// when Status is StatusDuplicate, else the guess of a probable
	// duplicate (same supplier, date and total), which a save works out
	// again.
	DuplicateOf int64 `json:"duplicate_of,omitempty"`
}

// Summary is a receipt as a list row shows it.
type Summary struct {
	ID           int64           `json:"id"`
	OriginalName string          `json:"original_name"`
	SHA256       string          `json:"sha256"`
	Status       Status          `json:"status"`
	Supplier     string          `json:"supplier"`
	Date         string          `json:"date"` // YYYY-MM-DD or ""
	Total        decimal.Decimal `json:"total"`
	HasTotal     bool            `json:"has_total"`
	Currency     string          `json:"currency"`
	Category     string          `json:"category"`
	Warnings     int             `json:"warnings"`
	DuplicateOf  int64           `json:"duplicate_of,omitempty"` // as Record.DuplicateOf
	FailReason   string          `json:"fail_reason,omitempty"`
	// Confidence is the least of the key fields' confidences (supplier,
	// date, total; 0 for one not read), and Confidences each of them.
	Confidence  float64            `json:"confidence"`
	Confidences map[string]float64 `json:"confidences,omitempty"`
	// Reasons say why a read receipt is not ready to confirm.
	Reasons []string `json:"reasons,omitempty"`
}

// keyFields are the fields whose confidence a list row shows.
var keyFields = []string{"supplier_name", "date", "total"}

// confidenceSQL is a receipt's least key-field confidence, computed from
// its stored JSON so that lists can sort and filter by it.
var confidenceSQL = func() string {
	var parts []string
	for _, f := range keyFields {
		parts = append(parts, fmt.Sprintf("COALESCE(json_extract(data, '$.%s.confidence'), 0)", f))
	}
	return "(CASE WHEN json_valid(data) THEN min(" + strings.Join(parts, ", ") + ") ELSE 0 END)"
}()

const recordColumns = `id, sha256, original_name, source_path, stored_path, kind, size, pages, status, fail_reason,
	imported_at, updated_at, engine, data, findings, COALESCE(duplicate_of, 0)`

func scanRecord(row interface{ Scan(...any) error }) (Record, error) {
	var r Record
	var status, imported, updated, data, findings string
	err := row.Scan(&r.ID, &r.SHA256, &r.OriginalName, &r.SourcePath, &r.StoredPath, &r.Kind, &r.Size, &r.Pages,
		&status, &r.FailReason, &imported, &updated, &r.Engine, &data, &findings, &r.DuplicateOf)
	if err != nil {
		return r, err
	}
	r.Status = Status(status)
	r.ImportedAt, _ = time.Parse(time.RFC3339Nano, imported)
	r.UpdatedAt, _ = time.Parse(time.RFC3339Nano, updated)
	if err := json.Unmarshal([]byte(data), &r.Receipt); err != nil {
		return r, fmt.Errorf("receipt %d: stored fields unreadable: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(findings), &r.Findings); err != nil {
		return r, fmt.Errorf("receipt %d: stored findings unreadable: %w", r.ID, err)
	}
	return r, nil
}

// Get returns one receipt.
func (l *Library) Get(id int64) (Record, error) {
	rec, err := scanRecord(l.db.QueryRow(`SELECT `+recordColumns+` FROM receipts WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return rec, fmt.Errorf("receipt %d: %w", id, ErrNotFound)
	}
	return rec, err
}

func getTx(tx *sql.Tx, id int64) (Record, error) {
	rec, err := scanRecord(tx.QueryRow(`SELECT `+recordColumns+` FROM receipts WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return rec, fmt.Errorf("receipt %d: %w", id, ErrNotFound)
	}
	return rec, err
}

// Filter selects receipts for List. Zero values select everything.
type Filter struct {
	Statuses []Status
	Period   *receipt.Period // by receipt date; receipts without a date never match
	Supplier string          // case-insensitive substring of the supplier name
	Category string          // exact
	Text     string          // substring of supplier, file name, total or category
	// BelowConfidence keeps receipts whose least key-field confidence is
	// under it (0: no filter); ByConfidence lists the least sure first.
	BelowConfidence float64
	ByConfidence    bool
	Limit           int
	Offset          int
}

func (f Filter) where() (string, []any) {
	var conds []string
	var args []any
	if len(f.Statuses) > 0 {
		marks := strings.TrimSuffix(strings.Repeat("?,", len(f.Statuses)), ",")
		conds = append(conds, "status IN ("+marks+")")
		for _, s := range f.Statuses {
			args = append(args, string(s))
		}
	}
	if f.Period != nil {
		conds = append(conds, "date != '' AND date >= ? AND date < ?")
		args = append(args, f.Period.Start.Format(time.DateOnly), f.Period.End.Format(time.DateOnly))
	}
	if f.Supplier != "" {
		conds = append(conds, "supplier LIKE ? ESCAPE '\\'")
		args = append(args, "%"+likeEscape(f.Supplier)+"%")
	}
	if f.Category != "" {
		conds = append(conds, "category = ?")
		args = append(args, f.Category)
	}
	if f.Text != "" {
		conds = append(conds, "(supplier LIKE ? ESCAPE '\\' OR original_name LIKE ? ESCAPE '\\' OR total LIKE ? ESCAPE '\\' OR category LIKE ? ESCAPE '\\')")
		p := "%" + likeEscape(f.Text) + "%"
		args = append(args, p, p, p, p)
	}
	if f.BelowConfidence > 0 {
		conds = append(conds, confidenceSQL+" < ?")
		args = append(args, f.BelowConfidence)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// List returns summaries in import order.
func (l *Library) List(f Filter) ([]Summary, error) {
	where, args := f.where()
	order := ` ORDER BY id`
	if f.ByConfidence {
		order = ` ORDER BY ` + confidenceSQL + `, id`
	}
	q := `SELECT id, original_name, sha256, status, supplier, date, total, currency, category, warnings, COALESCE(duplicate_of, 0), fail_reason, data, findings FROM receipts` + where + order
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d OFFSET %d", f.Limit, f.Offset)
	}
	rows, err := l.db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Summary
	for rows.Next() {
		var s Summary
		var status, total, data, findings string
		if err := rows.Scan(&s.ID, &s.OriginalName, &s.SHA256, &status, &s.Supplier, &s.Date, &total, &s.Currency, &s.Category, &s.Warnings, &s.DuplicateOf, &s.FailReason, &data, &findings); err != nil {
			return nil, err
		}
		s.Status = Status(status)
		s.trust(data, findings)
		if total != "" {
			s.Total, s.HasTotal = decimal.RequireFromString(total), true
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// trust fills a row's confidences and, for a receipt that was read, why it
// is not ready to confirm.
func (s *Summary) trust(data, findings string) {
	var r receipt.Receipt
	if json.Unmarshal([]byte(data), &r) != nil {
		return
	}
	s.Confidences = map[string]float64{}
	s.Confidence = 1
	for _, f := range keyFields {
		set, conf, _, _, _ := receipt.Meta(&r, f)
		if !set {
			conf = 0
		}
		s.Confidences[f] = conf
		s.Confidence = min(s.Confidence, conf)
	}
	if s.Status == StatusExtracted || s.Status == StatusNeedsReview {
		var fs []receipt.Finding
		if json.Unmarshal([]byte(findings), &fs) != nil {
			fs = nil // findings unreadable: the reasons are worked out from the fields alone
		}
		s.Reasons = receipt.Unready(r, fs)
	}
}

// Records returns full records matching f, ordered by date, for export. It
// streams: memory stays flat however large the library.
func (l *Library) Records(f Filter) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		where, args := f.where()
		rows, err := l.db.Query(`SELECT `+recordColumns+` FROM receipts`+where+` ORDER BY date, id`, args...)
		if err != nil {
			yield(Record{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanRecord(rows)
			if !yield(r, err) || err != nil {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(Record{}, err)
		}
	}
}

// Counts returns how many receipts are in each status (all statuses present).
func (l *Library) Counts() (map[Status]int, error) {
	out := map[Status]int{}
	for _, s := range Statuses {
		out[s] = 0
	}
	rows, err := l.db.Query(`SELECT status, COUNT(*) FROM receipts GROUP BY status`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			return nil, err
		}
		out[Status(s)] = n
	}
	return out, rows.Err()
}

// Change is one history entry.
type Change struct {
	At    time.Time      `json:"at"`
	Who   receipt.Source `json:"who"`  // model, ocr, user, rule, or "system"
	Kind  string         `json:"kind"` // "status" or "field"
	Field string         `json:"field,omitempty"`
	Old   string         `json:"old"`
	New   string         `json:"new"`
}

// History returns a receipt's changes, oldest first.
func (l *Library) History(id int64) ([]Change, error) {
	rows, err := l.db.Query(`SELECT at, who, kind, field, old, new FROM history WHERE receipt_id = ? ORDER BY id`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Change
	for rows.Next() {
		var c Change
		var at, who string
		if err := rows.Scan(&at, &who, &c.Kind, &c.Field, &c.Old, &c.New); err != nil {
			return nil, err
		}
		c.At, _ = time.Parse(time.RFC3339Nano, at)
		c.Who = receipt.Source(who)
		out = append(out, c)
	}
	return out, rows.Err()
}
