package library

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// Duplicates. Saving a receipt guesses whether it is the same purchase as
// another (same supplier and date, totals within one minor unit): the
// guess is its duplicate_of and a warning, worked out again on every save.
// A person's word outranks the guess and no save undoes it:
//
//   - a receipt marked as a copy of another has the status "duplicate"
//     (StatusDuplicate) and keeps its duplicate_of: it leaves the receipts
//     to check, bank matching and every export, and its original's warning
//     goes;
//   - a pair a person said is not the same purchase is kept in
//     not_duplicates and never guessed again, whichever of the two is saved.
//
// Each word is a change of the receipt's "duplicate" field in its history
// (DuplicateField), so the window's undo takes it back like an edit.

// Finding codes of duplicates.
const (
	// FindDuplicate is the finding code of a probable duplicate.
	FindDuplicate = "probable_duplicate"
	// FindMarkedDuplicate notes on a receipt marked as a copy that it is left out.
	FindMarkedDuplicate = "marked_duplicate"
	// FindHasCopies notes on a receipt the receipts marked as its copies.
	FindHasCopies = "has_copies"
)

// DuplicateField names a person's word on a duplicate in the history and
// the undo list. Its values are "" (no word), "copy of #N" and "not a copy
// of #N".
const DuplicateField = "duplicate"

// legacyDuplicateField is how earlier versions recorded a mark ("0" → "N"),
// which the next save then overwrote: undoing one changes nothing.
const legacyDuplicateField = "duplicate_of"

// IsDuplicateField says whether a history field is a word on a duplicate
// rather than one of the receipt's fields.
func IsDuplicateField(field string) bool {
	return field == DuplicateField || field == legacyDuplicateField
}

// judgement is a person's word on receipt pairs: a copy of other, or not
// the same purchase as other; other 0 is no word.
type judgement struct {
	other int64
	copy  bool
}

func (j judgement) String() string {
	switch {
	case j.other == 0:
		return ""
	case j.copy:
		return fmt.Sprintf("copy of #%d", j.other)
	}
	return fmt.Sprintf("not a copy of #%d", j.other)
}

func parseJudgement(s string) (judgement, error) {
	if s == "" {
		return judgement{}, nil
	}
	j := judgement{copy: true}
	rest, ok := strings.CutPrefix(s, "copy of #")
	if !ok {
		rest, ok = strings.CutPrefix(s, "not a copy of #")
		j.copy = false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if !ok || err != nil || n <= 0 {
		return judgement{}, fmt.Errorf("%q is not a word on a duplicate", s)
	}
	j.other = n
	return j, nil
}

// MarkDuplicate records that a person judged receipt id to be a copy of
// receipt other, the same purchase: id becomes a duplicate (out of review,
// bank matching and exports) and other's probable-duplicate warning about
// it goes. Marking it as a copy of another receipt moves the mark.
func (l *Library) MarkDuplicate(ctx context.Context, id, other int64) error {
	if id == other {
		return fmt.Errorf("a receipt cannot be a duplicate of itself")
	}
	return l.write(ctx, func(tx *sql.Tx) error {
		_, err := l.judgeTx(tx, id, judgement{other: other, copy: true}, 0, receipt.SourceUser, "field")
		return err
	})
}

// NotDuplicate records that a person judged receipt id not to be the same
// purchase as the receipt it is linked to: the probable duplicate the
// guess found, or the original it was marked a copy of (it then goes back
// to the status it had). The pair is never guessed again, whatever either
// receipt's later saves.
func (l *Library) NotDuplicate(ctx context.Context, id int64) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		var other sql.NullInt64
		if err := tx.QueryRow(`SELECT duplicate_of FROM receipts WHERE id = ?`, id).Scan(&other); errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("receipt %d: %w", id, ErrNotFound)
		} else if err != nil {
			return err
		}
		if !other.Valid {
			return fmt.Errorf("receipt %d is not linked to another receipt as a duplicate", id)
		}
		_, err := l.judgeTx(tx, id, judgement{other: other.Int64}, 0, receipt.SourceUser, "field")
		return err
	})
}

// judgeTx makes to receipt id's word on a duplicate, recording the change
// as kind by who. about is the other receipt a word of "" concerns (the
// pair whose "not a copy" an undo takes back). It reports whether anything
// changed.
func (l *Library) judgeTx(tx *sql.Tx, id int64, to judgement, about int64, who receipt.Source, kind string) (bool, error) {
	if to.other != 0 {
		about = to.other
	}
	if about == id {
		return false, fmt.Errorf("a receipt cannot be a duplicate of itself")
	}
	var status string
	var dupOf sql.NullInt64
	if err := tx.QueryRow(`SELECT status, duplicate_of FROM receipts WHERE id = ?`, id).Scan(&status, &dupOf); errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("receipt %d: %w", id, ErrNotFound)
	} else if err != nil {
		return false, err
	}
	if about != 0 {
		var otherStatus string
		var otherDup sql.NullInt64
		if err := tx.QueryRow(`SELECT status, duplicate_of FROM receipts WHERE id = ?`, about).Scan(&otherStatus, &otherDup); errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("there is no receipt %d in this library", about)
		} else if err != nil {
			return false, err
		}
		if to.copy && Status(otherStatus) == StatusDuplicate && otherDup.Valid && otherDup.Int64 == id {
			return false, fmt.Errorf("receipt %d is marked as a copy of this one: to keep receipt %d instead, say receipt %d is not a duplicate first", about, about, about)
		}
		if to.copy && Status(otherStatus) == StatusDuplicate && otherDup.Valid {
			return false, fmt.Errorf("receipt %d is itself marked as a copy of receipt %d: mark this one as a copy of receipt %d", about, otherDup.Int64, otherDup.Int64)
		}
	}
	st := Status(status)
	if to.copy && st == StatusExtracting {
		return false, fmt.Errorf("receipt %d is being read: mark it once it has been read", id)
	}
	cur := judgement{}
	if st == StatusDuplicate && dupOf.Valid {
		cur = judgement{other: dupOf.Int64, copy: true}
	} else if about != 0 {
		no, err := notDuplicatesTx(tx, id, about)
		if err != nil {
			return false, err
		}
		if no {
			cur = judgement{other: about}
		}
	}
	if cur == to {
		return false, nil
	}
	if cur.copy && !to.copy {
		if err := l.unmarkTx(tx, id, who); err != nil {
			return false, err
		}
	}
	at := l.stamp()
	switch {
	case to.copy:
		if err := setNotDuplicatesTx(tx, id, to.other, false, at); err != nil {
			return false, err
		}
		if st != StatusDuplicate {
			if err := l.setStatusTx(tx, id, StatusDuplicate, who, ""); err != nil {
				return false, err
			}
		}
		if _, err := tx.Exec(`UPDATE receipts SET duplicate_of = ?, updated_at = ? WHERE id = ?`, to.other, at, id); err != nil {
			return false, err
		}
	case to.other != 0:
		if err := setNotDuplicatesTx(tx, id, to.other, true, at); err != nil {
			return false, err
		}
	default:
		if err := setNotDuplicatesTx(tx, id, about, false, at); err != nil {
			return false, err
		}
	}
	if err := addHistory(tx, id, at, who, kind, DuplicateField, cur.String(), to.String()); err != nil {
		return false, err
	}
	return true, l.refreshDuplicatesTx(tx, id, about, cur.other)
}

// unmarkTx takes receipt id out of the duplicates, back to the status it
// had (statusBeforeMarkTx).
func (l *Library) unmarkTx(tx *sql.Tx, id int64, who receipt.Source) error {
	back, err := statusBeforeMarkTx(tx, id)
	if err != nil {
		return err
	}
	if err := l.setStatusTx(tx, id, back, who, ""); err != nil {
		return err
	}
	_, err = tx.Exec(`UPDATE receipts SET duplicate_of = NULL WHERE id = ?`, id)
	return err
}

// statusBeforeMarkTx is the status a receipt marked as a duplicate had
// before it was marked, as its history says; a confirmed receipt that a
// person edited since goes back to review. With nothing in its history, a
// receipt that was read goes to review and one never read is new.
func statusBeforeMarkTx(tx *sql.Tx, id int64) (Status, error) {
	var hid int64
	var old string
	err := tx.QueryRow(`SELECT id, old FROM history WHERE receipt_id = ? AND kind = 'status' AND new = ? ORDER BY id DESC LIMIT 1`,
		id, string(StatusDuplicate)).Scan(&hid, &old)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", err
	}
	back := Status(old)
	if err != nil || !CanMove(StatusDuplicate, back) {
		var engine string
		if err := tx.QueryRow(`SELECT engine FROM receipts WHERE id = ?`, id).Scan(&engine); err != nil {
			return "", err
		}
		if engine == "" {
			return StatusNew, nil
		}
		return StatusNeedsReview, nil
	}
	if back == StatusConfirmed {
		var edits int
		if err := tx.QueryRow(`SELECT COUNT(*) FROM history WHERE receipt_id = ? AND id > ? AND who = ? AND kind IN ('field', 'undo', 'remove_row') AND field NOT IN (?, ?)`,
			id, hid, string(receipt.SourceUser), DuplicateField, legacyDuplicateField).Scan(&edits); err != nil {
			return "", err
		}
		if edits > 0 {
			back = StatusNeedsReview
		}
	}
	return back, nil
}

// notDuplicatePair is a pair as not_duplicates keeps it: lower ID first.
func notDuplicatePair(a, b int64) (int64, int64) {
	return min(a, b), max(a, b)
}

func notDuplicatesTx(tx *sql.Tx, a, b int64) (bool, error) {
	lo, hi := notDuplicatePair(a, b)
	var n int
	err := tx.QueryRow(`SELECT COUNT(*) FROM not_duplicates WHERE receipt_id = ? AND other_id = ?`, lo, hi).Scan(&n)
	return n > 0, err
}

// setNotDuplicatesTx records (on) or forgets (off) that a and b are not the
// same purchase.
func setNotDuplicatesTx(tx *sql.Tx, a, b int64, on bool, at string) error {
	if a == 0 || b == 0 {
		return nil
	}
	lo, hi := notDuplicatePair(a, b)
	if on {
		_, err := tx.Exec(`INSERT INTO not_duplicates (receipt_id, other_id, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, lo, hi, at)
		return err
	}
	_, err := tx.Exec(`DELETE FROM not_duplicates WHERE receipt_id = ? AND other_id = ?`, lo, hi)
	return err
}

// duplicateFindingsTx works out receipt id's duplicate_of and duplicate
// findings from its status and the columns it is being saved with: a copy
// a person marked keeps its original; any other receipt gets the guess,
// which passes over marked copies and the pairs a person said differ.
func duplicateFindingsTx(tx *sql.Tx, id int64, status Status, key, date, total, cur string) (any, []receipt.Finding, error) {
	var dupOf any
	var fs []receipt.Finding
	if status == StatusDuplicate {
		var other sql.NullInt64
		if err := tx.QueryRow(`SELECT duplicate_of FROM receipts WHERE id = ?`, id).Scan(&other); err != nil {
			return nil, nil, err
		}
		if other.Valid {
			dupOf = other.Int64
			fs = append(fs, receipt.Finding{
				Code: FindMarkedDuplicate, Severity: receipt.Info,
				Message: fmt.Sprintf("marked as a copy of receipt %d: left out of the receipts to check, bank matching and every export", other.Int64),
			})
		}
	} else if t, err := decimal.NewFromString(total); key != "" && date != "" && err == nil {
		other, err := probableDuplicate(tx, id, key, date, t, cur)
		if err != nil {
			return nil, nil, err
		}
		if other != 0 {
			dupOf = other
			fs = append(fs, receipt.Finding{
				Code: FindDuplicate, Severity: receipt.Warning,
				Fields:  []string{"supplier_name", "date", "total"},
				Message: fmt.Sprintf("probably the same purchase as receipt %d (same supplier, date and total)", other),
			})
		}
	}
	copies, err := markedCopiesTx(tx, id)
	if err != nil {
		return nil, nil, err
	}
	switch len(copies) {
	case 0:
	case 1:
		fs = append(fs, receipt.Finding{
			Code: FindHasCopies, Severity: receipt.Info,
			Message: fmt.Sprintf("receipt %d is marked as a copy of this one and left out of exports", copies[0]),
		})
	default:
		names := make([]string, len(copies))
		for i, c := range copies {
			names[i] = strconv.FormatInt(c, 10)
		}
		fs = append(fs, receipt.Finding{
			Code: FindHasCopies, Severity: receipt.Info,
			Message: fmt.Sprintf("receipts %s are marked as copies of this one and left out of exports", strings.Join(names, ", ")),
		})
	}
	return dupOf, fs, nil
}

// markedCopiesTx lists the receipts marked as copies of receipt id.
func markedCopiesTx(tx *sql.Tx, id int64) ([]int64, error) {
	return idsTx(tx, `SELECT id FROM receipts WHERE duplicate_of = ? AND status = ? ORDER BY id`, id, string(StatusDuplicate))
}

// idsTx is ids inside a transaction.
func idsTx(tx *sql.Tx, q string, args ...any) ([]int64, error) { return idsOf(tx.Query, q, args...) }

// probableDuplicate finds an earlier-imported receipt with the same supplier
// and date whose total is within one minor unit: not a copy a person
// marked (its original is the one to name), nor one a person said is
// another purchase.
func probableDuplicate(tx *sql.Tx, id int64, key, date string, total decimal.Decimal, cur string) (int64, error) {
	rows, err := tx.Query(`SELECT id, total FROM receipts WHERE supplier_key = ? AND date = ? AND id != ? AND total != '' AND status != ?
		AND id NOT IN (SELECT other_id FROM not_duplicates WHERE receipt_id = ? UNION SELECT receipt_id FROM not_duplicates WHERE other_id = ?)
		ORDER BY id`, key, date, id, string(StatusDuplicate), id, id)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	unit := receipt.MinorUnit(cur)
	for rows.Next() {
		var other int64
		var t string
		if err := rows.Scan(&other, &t); err != nil {
			return 0, err
		}
		if d, err := decimal.NewFromString(t); err == nil && d.Sub(total).Abs().LessThanOrEqual(unit) {
			return other, nil
		}
	}
	return 0, rows.Err()
}

// refreshDuplicatesTx works the duplicate links and findings out again for
// receipts ids and every receipt linked to one of them, after a person's
// word changed or a receipt left: the rest of their findings stay.
func (l *Library) refreshDuplicatesTx(tx *sql.Tx, ids ...int64) error {
	seen := map[int64]bool{}
	var all []int64
	add := func(id int64) {
		if id != 0 && !seen[id] {
			seen[id] = true
			all = append(all, id)
		}
	}
	for _, id := range ids {
		add(id)
	}
	for _, id := range ids {
		if id == 0 {
			continue
		}
		linked, err := idsTx(tx, `SELECT id FROM receipts WHERE duplicate_of = ?`, id)
		if err != nil {
			return err
		}
		for _, o := range linked {
			add(o)
		}
	}
	for _, id := range all {
		if err := refreshDuplicateTx(tx, id); err != nil {
			return err
		}
	}
	return nil
}

func refreshDuplicateTx(tx *sql.Tx, id int64) error {
	var status, key, date, total, cur, fj string
	err := tx.QueryRow(`SELECT status, supplier_key, date, total, currency, findings FROM receipts WHERE id = ?`, id).
		Scan(&status, &key, &date, &total, &cur, &fj)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // gone
	}
	if err != nil {
		return err
	}
	var fs []receipt.Finding
	if err := json.Unmarshal([]byte(fj), &fs); err != nil {
		return fmt.Errorf("receipt %d: stored findings unreadable: %w", id, err)
	}
	fs = slices.DeleteFunc(fs, func(f receipt.Finding) bool {
		return f.Code == FindDuplicate || f.Code == FindMarkedDuplicate || f.Code == FindHasCopies
	})
	dupOf, more, err := duplicateFindingsTx(tx, id, Status(status), key, date, total, cur)
	if err != nil {
		return err
	}
	fs = append(fs, more...)
	if fs == nil {
		fs = []receipt.Finding{}
	}
	nj, err := json.Marshal(fs)
	if err != nil {
		return err
	}
	_, err = tx.Exec(`UPDATE receipts SET findings = ?, warnings = ?, duplicate_of = ? WHERE id = ?`, string(nj), warningCount(fs), dupOf, id)
	return err
}

// warningCount counts the findings that hold a receipt back (not notes).
func warningCount(fs []receipt.Finding) int {
	n := 0
	for _, f := range fs {
		if f.Severity != receipt.Info {
			n++
		}
	}
	return n
}

// leaveTx takes receipt id's links out before it leaves the library: the
// copies marked of it go back where they were (their original is gone),
// and every pair with it is forgotten. It returns the receipts to work
// out again once it has gone (refreshDuplicatesTx).
func (l *Library) leaveTx(tx *sql.Tx, id int64) ([]int64, error) {
	copies, err := markedCopiesTx(tx, id)
	if err != nil {
		return nil, err
	}
	at := l.stamp()
	for _, c := range copies {
		if err := l.unmarkTx(tx, c, "system"); err != nil {
			return nil, err
		}
		if err := addHistory(tx, c, at, "system", "field", DuplicateField, judgement{other: id, copy: true}.String(), ""); err != nil {
			return nil, err
		}
	}
	linked, err := idsTx(tx, `SELECT id FROM receipts WHERE duplicate_of = ? OR id = (SELECT duplicate_of FROM receipts WHERE id = ?)`, id, id)
	if err != nil {
		return nil, err
	}
	if _, err := tx.Exec(`UPDATE receipts SET duplicate_of = NULL WHERE duplicate_of = ?`, id); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(`DELETE FROM not_duplicates WHERE receipt_id = ? OR other_id = ?`, id, id); err != nil {
		return nil, err
	}
	return append(linked, copies...), nil
}

// undoJudgement takes back a word on a duplicate (an undo of edit e).
func (l *Library) undoJudgement(ctx context.Context, e Edit) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		if e.Field == DuplicateField {
			old, err := parseJudgement(e.Old)
			if err != nil {
				return err
			}
			nw, err := parseJudgement(e.New)
			if err != nil {
				return err
			}
			about := nw.other
			if about == 0 {
				about = old.other
			}
			var gone bool
			if err := tx.QueryRow(`SELECT NOT EXISTS (SELECT 1 FROM receipts WHERE id = ?)`, about).Scan(&gone); err != nil {
				return err
			}
			if !gone {
				changed, err := l.judgeTx(tx, e.ReceiptID, old, about, receipt.SourceUser, "undo")
				if err != nil || changed {
					return err
				}
			}
		}
		// Already as it was, the other receipt has left the library, or an
		// earlier version's mark (which the next save overwrote): only the
		// undo is recorded, so the next undo goes further back.
		return addHistory(tx, e.ReceiptID, l.stamp(), receipt.SourceUser, "undo", e.Field, e.Old, e.Old)
	})
}
