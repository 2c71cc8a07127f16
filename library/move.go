package library

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/receipt"
)

// Arrival is a receipt coming from another library: its record, history
// and coding, and a note for both histories ("moved from client Harbour
// Cafe, receipt 12").
type Arrival struct {
	Record  Record
	Path    string // its original in the other library
	History []Change
	Coding  Coding
	Note    string
	// Notes are the findings its last reading brought that the fields
	// cannot show (ReadingNotes): they stay among its findings there.
	Notes []receipt.Finding
}

// Receive takes in a receipt from another library: the original is
// imported, and its fields, findings, status, coding and history are kept,
// with the move recorded last. A file already in this library is refused.
func (l *Library) Receive(ctx context.Context, a Arrival) (int64, error) {
	res := l.ImportFile(ctx, a.Path, ingest.DefaultLimits())
	switch res.Outcome {
	case Duplicate:
		return 0, fmt.Errorf("this file is already receipt %d here", res.ID)
	case Refused:
		return 0, fmt.Errorf("the original could not be copied: %s", res.Reason)
	}
	id := res.ID
	err := l.write(ctx, func(tx *sql.Tx) error {
		// The import's own "new" entry goes: the receipt's history starts
		// where it started in the other library.
		if _, err := tx.Exec(`DELETE FROM history WHERE receipt_id = ?`, id); err != nil {
			return err
		}
		for _, c := range a.History {
			if _, err := tx.Exec(`INSERT INTO history (receipt_id, at, who, kind, field, old, new) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				id, c.At.UTC().Format(time.RFC3339Nano), string(c.Who), c.Kind, c.Field, c.Old, c.New); err != nil {
				return err
			}
		}
		// The reading's notes before the findings are made from them: a
		// damaged e-invoice's finding would otherwise be lost on the way.
		notes := a.Notes
		if notes == nil {
			notes = []receipt.Finding{}
		}
		nj, err := json.Marshal(notes)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE receipts SET reading_notes = ? WHERE id = ?`, string(nj), id); err != nil {
			return err
		}
		at := l.stamp()
		if _, err := l.storeReceiptTx(tx, id, a.Record.Receipt, l.Locale(), at); err != nil {
			return err
		}
		// A copy's original stays behind: here it is a receipt of its own
		// again, in the status it had before it was marked.
		status := a.Record.Status
		if status == StatusDuplicate {
			if _, err := tx.Exec(`UPDATE receipts SET engine = ? WHERE id = ?`, a.Record.Engine, id); err != nil {
				return err
			}
			back, err := statusBeforeMarkTx(tx, id)
			if err != nil {
				return err
			}
			status = back
			if err := addHistory(tx, id, at, "system", "field", DuplicateField, judgement{other: a.Record.DuplicateOf, copy: true}.String(), ""); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(`UPDATE receipts SET status = ?, fail_reason = ?, engine = ?, original_name = ? WHERE id = ?`,
			string(status), a.Record.FailReason, a.Record.Engine, a.Record.OriginalName, id); err != nil {
			return err
		}
		if a.Coding.Account != "" || a.Coding.TaxCode != "" {
			if _, err := tx.Exec(`INSERT INTO receipt_coding (receipt_id, line, account, tax_code, source) VALUES (?, ?, ?, ?, ?)`,
				id, wholeReceipt, a.Coding.Account, a.Coding.TaxCode, string(a.Coding.Source)); err != nil {
				return err
			}
		}
		for i, lc := range a.Coding.Lines {
			if _, err := tx.Exec(`INSERT INTO receipt_coding (receipt_id, line, account, tax_code, source) VALUES (?, ?, ?, ?, ?)`,
				id, i, lc.Account, lc.TaxCode, string(lc.Source)); err != nil {
				return err
			}
		}
		return addHistory(tx, id, at, receipt.SourceUser, "moved", "", "", a.Note)
	})
	if err != nil {
		l.forget(id)
		return 0, err
	}
	return id, nil
}

// ReadingNotes are the findings receipt id's last reading brought that its
// fields cannot show (a PDF's e-invoice that could not be read).
func (l *Library) ReadingNotes(id int64) ([]receipt.Finding, error) {
	var nj string
	if err := l.db.QueryRow(`SELECT reading_notes FROM receipts WHERE id = ?`, id).Scan(&nj); err == sql.ErrNoRows {
		return nil, fmt.Errorf("receipt %d: %w", id, ErrNotFound)
	} else if err != nil {
		return nil, err
	}
	var notes []receipt.Finding
	if err := json.Unmarshal([]byte(nj), &notes); err != nil {
		return nil, fmt.Errorf("receipt %d: its reading's notes are damaged: %w", id, err)
	}
	return notes, nil
}

// Release removes a receipt that has moved to another library: its row
// (with its history and coding), its original and its thumbnail. Receipts
// marked as its copies go back to the status they had, and no receipt is
// left linked to it.
func (l *Library) Release(ctx context.Context, id int64) error {
	rec, err := l.Get(id)
	if err != nil {
		return err
	}
	if err := l.write(ctx, func(tx *sql.Tx) error {
		linked, err := l.leaveTx(tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM receipts WHERE id = ?`, id); err != nil {
			return err
		}
		return l.refreshDuplicatesTx(tx, linked...)
	}); err != nil {
		return err
	}
	for _, p := range []string{l.OriginalPath(rec), l.Thumbnail(rec)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("receipt %d left the library but its file %s could not be removed: %w", id, filepath.Base(p), err)
		}
	}
	return nil
}

// forget undoes a Receive that failed half way.
func (l *Library) forget(id int64) {
	_ = l.Release(context.Background(), id) // if it fails, the claim's lease runs out and frees it
}
