package library

import (
	"context"
	"database/sql"
	"regexp"
	"strconv"
	"time"

	"github.com/shoebox-app/shoebox/receipt"
)

// Edit is a change a person made to one field, as the window's undo list shows it.
type Edit struct {
	HistoryID int64
	ReceiptID int64
	At        time.Time
	Field     string
	Old, New  string
}

// undoWindow is how many of the latest edits and undos UndoableEdits reads.
const undoWindow = 500

// UndoableEdits returns, newest first, at most n field edits people made
// that have not been undone, across all receipts: the window's one undo
// history. Each undo cancels the latest edit of its receipt's field still
// standing. A word on a duplicate is one of them (DuplicateField).
func (l *Library) UndoableEdits(n int) ([]Edit, error) {
	rows, err := l.db.Query(`SELECT id, receipt_id, at, kind, field, old, new FROM (
		SELECT * FROM history WHERE who = 'user' AND kind IN ('field', 'undo') ORDER BY id DESC LIMIT ?) ORDER BY id`, undoWindow)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var stack []Edit
	for rows.Next() {
		var e Edit
		var at, kind string
		if err := rows.Scan(&e.HistoryID, &e.ReceiptID, &at, &kind, &e.Field, &e.Old, &e.New); err != nil {
			return nil, err
		}
		e.At, _ = time.Parse(time.RFC3339Nano, at)
		if kind == "field" {
			stack = append(stack, e)
			continue
		}
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].ReceiptID == e.ReceiptID && stack[i].Field == e.Field {
				stack = append(stack[:i], stack[i+1:]...)
				break
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []Edit
	for i := len(stack) - 1; i >= 0 && len(out) < n; i-- {
		out = append(out, stack[i])
	}
	return out, nil
}

// UndoLatest puts back the value the newest edit UndoableEdits lists
// replaced, recording the undo; ok is false when there is nothing to undo.
func (l *Library) UndoLatest(ctx context.Context) (e Edit, ok bool, err error) {
	edits, err := l.UndoableEdits(1)
	if err != nil || len(edits) == 0 {
		return Edit{}, false, err
	}
	e = edits[0]
	if IsDuplicateField(e.Field) {
		return e, true, l.undoJudgement(ctx, e)
	}
	if line, part, ok := codingEdit(e.Field); ok {
		return e, true, l.undoCoding(ctx, e, line, part)
	}
	rec, err := l.Get(e.ReceiptID)
	if err != nil {
		return e, false, err
	}
	if cur, _ := receipt.Get(&rec.Receipt, e.Field); cur == e.Old {
		// The field already holds the old value (read again since): only
		// the undo is recorded, so the next undo goes further back.
		return e, true, l.write(ctx, func(tx *sql.Tx) error {
			return addHistory(tx, e.ReceiptID, l.stamp(), receipt.SourceUser, "undo", e.Field, e.Old, e.Old)
		})
	}
	return e, true, l.editField(ctx, e.ReceiptID, e.Field, e.Old, receipt.SourceUser, "undo")
}

// RestoreField puts back a field's value and provenance (source,
// confidence, box) from before, where the field still holds before's value:
// after an undo, a field the engine was unsure of is marked unsure again.
// It records no history (the undo did).
func (l *Library) RestoreField(ctx context.Context, id int64, path string, before receipt.Receipt) error {
	loc := l.Locale()
	return l.write(ctx, func(tx *sql.Tx) error {
		rec, err := getTx(tx, id)
		if err != nil {
			return err
		}
		want, err := receipt.Get(&before, path)
		if err != nil {
			return err
		}
		if cur, _ := receipt.Get(&rec.Receipt, path); cur != want {
			return nil // changed since: keep what is there
		}
		if err := receipt.CopyField(&rec.Receipt, &before, path); err != nil {
			return err
		}
		_, err = l.storeReceiptTx(tx, id, rec.Receipt, loc, l.stamp())
		return err
	})
}

// reCodingField is a coding change's field in history (codingField):
// "account", "tax_code", "line_items[2].account".
var reCodingField = regexp.MustCompile(`^(?:line_items\[(\d+)\]\.)?(account|tax_code)$`)

// codingEdit reads a coding change's field: the line it books
// (wholeReceipt for the receipt's own) and which part, account or tax code.
func codingEdit(field string) (line int, part string, ok bool) {
	m := reCodingField.FindStringSubmatch(field)
	if m == nil {
		return 0, "", false
	}
	line = wholeReceipt
	if m[1] != "" {
		line, _ = strconv.Atoi(m[1])
	}
	return line, m[2], true
}

// undoCoding books a receipt's line back as it was before the edit e, a
// blank account or tax code included (SetCoding keeps what a blank
// leaves), and records the undo; a confirmed receipt goes back to review,
// as after any change to its coding.
func (l *Library) undoCoding(ctx context.Context, e Edit, line int, part string) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		rec, err := getTx(tx, e.ReceiptID)
		if err != nil {
			return err
		}
		// part is account or tax_code (reCodingField): a column's name.
		if _, err := tx.Exec(`INSERT INTO receipt_coding (receipt_id, line, `+part+`, source) VALUES (?, ?, ?, ?)
			ON CONFLICT(receipt_id, line) DO UPDATE SET `+part+` = excluded.`+part+`, source = excluded.source`,
			e.ReceiptID, line, e.Old, string(receipt.SourceUser)); err != nil {
			return err
		}
		if err := addHistory(tx, e.ReceiptID, l.stamp(), receipt.SourceUser, "undo", e.Field, e.New, e.Old); err != nil {
			return err
		}
		if rec.Status == StatusConfirmed {
			return l.setStatusTx(tx, e.ReceiptID, StatusNeedsReview, receipt.SourceUser, "")
		}
		return nil
	})
}
