package library

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// LowConfidence is the confidence under which a key field sends a receipt to review.
const LowConfidence = receipt.LowConfidence

// SupplierKey is the form supplier names are matched by: lower-case letters
// and digits only, so "SOON HUAT SDN. BHD." and "Soon Huat Sdn Bhd" agree.
func SupplierKey(name string) string { return receipt.Fold(name) }

// SetStatus moves a receipt to another status, recording who did it; reason
// is kept for failed receipts.
func (l *Library) SetStatus(ctx context.Context, id int64, to Status, who receipt.Source, reason string) error {
	return l.write(ctx, func(tx *sql.Tx) error { return l.setStatusTx(tx, id, to, who, reason) })
}

func (l *Library) setStatusTx(tx *sql.Tx, id int64, to Status, who receipt.Source, reason string) error {
	var from string
	if err := tx.QueryRow(`SELECT status FROM receipts WHERE id = ?`, id).Scan(&from); err == sql.ErrNoRows {
		return fmt.Errorf("receipt %d: %w", id, ErrNotFound)
	} else if err != nil {
		return err
	}
	if Status(from) == to {
		return nil
	}
	if !CanMove(Status(from), to) {
		return fmt.Errorf("receipt %d is %s and cannot become %s", id, from, to)
	}
	at := l.stamp()
	if to != StatusFailed {
		reason = ""
	}
	// Leaving "extracting" ends the claim.
	if _, err := tx.Exec(`UPDATE receipts SET status = ?, fail_reason = ?, updated_at = ?, claim_owner = '', claim_until = '' WHERE id = ?`, string(to), reason, at, id); err != nil {
		return err
	}
	note := string(to)
	if reason != "" {
		note += ": " + reason
	}
	return addHistory(tx, id, at, who, "status", "", from, note)
}

// Enqueue queues receipts for extraction: new and failed ones, and, when
// again is set, already-read ones (re-extract). A receipt marked as a
// duplicate is not read again. It returns how many moved.
func (l *Library) Enqueue(ctx context.Context, ids []int64, again bool) (int, error) {
	n := 0
	err := l.write(ctx, func(tx *sql.Tx) error {
		n = 0
		for _, id := range ids {
			var st string
			if err := tx.QueryRow(`SELECT status FROM receipts WHERE id = ?`, id).Scan(&st); err != nil {
				return fmt.Errorf("receipt %d: %w", id, ErrNotFound)
			}
			s := Status(st)
			if s == StatusQueued || s == StatusExtracting || s == StatusDuplicate || (!again && s != StatusNew && s != StatusFailed) {
				continue
			}
			if err := l.setStatusTx(tx, id, StatusQueued, "user", ""); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// ResumeInterrupted puts receipts left "extracting" by a program that has
// ended (a crash, a kill, a closed window) or whose lease ran out back in
// the queue. Receipts another running program is reading are left to it.
// The app and `process` call it at start; NextQueued does it too.
func (l *Library) ResumeInterrupted(ctx context.Context) (int, error) {
	n := 0
	err := l.write(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = l.reclaimTx(tx)
		return err
	})
	return n, err
}

// NextQueued claims the oldest queued receipt for this program, marking it
// extracting, after taking back receipts abandoned by programs that ended.
// The claim is renewed while the library stays open.
func (l *Library) NextQueued(ctx context.Context) (int64, bool, error) {
	var id int64
	var found bool
	err := l.write(ctx, func(tx *sql.Tx) error {
		found = false
		if _, err := l.reclaimTx(tx); err != nil {
			return err
		}
		err := tx.QueryRow(`SELECT id FROM receipts WHERE status = ? ORDER BY id LIMIT 1`, string(StatusQueued)).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		if err := l.setStatusTx(tx, id, StatusExtracting, "system", ""); err != nil {
			return err
		}
		_, err = tx.Exec(`UPDATE receipts SET claim_owner = ?, claim_until = ? WHERE id = ?`, processOwner, l.leaseEnd(), id)
		return err
	})
	if found {
		l.startRenewing()
	}
	return id, found, err
}

// NextForReview returns the first receipt after afterID (wrapping round)
// that is waiting for a person: needs review, then extracted (never one
// marked as a duplicate).
func (l *Library) NextForReview(afterID int64) (int64, bool, error) {
	for _, q := range []string{
		`SELECT id FROM receipts WHERE status = ? AND id > ? ORDER BY id LIMIT 1`,
		`SELECT id FROM receipts WHERE status = ? AND id <= ? ORDER BY id LIMIT 1`,
	} {
		for _, st := range []Status{StatusNeedsReview, StatusExtracted} {
			var id int64
			err := l.db.QueryRow(q, string(st), afterID).Scan(&id)
			if err == nil {
				return id, true, nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return 0, false, err
			}
		}
	}
	return 0, false, nil
}

// SaveExtraction stores what an engine read for a receipt that is being
// extracted: supplier memory fills category and tax ID where the engine left
// them empty, every field is recorded in history, findings are computed, and
// the receipt moves to extracted or needs review.
//
// notes are findings the reading brings that the fields cannot show (a
// PDF's e-invoice that could not be read, so it was read from the print):
// they stay among the receipt's findings, through edits, until it is read
// again.
func (l *Library) SaveExtraction(ctx context.Context, id int64, r receipt.Receipt, engine string, who receipt.Source, notes ...receipt.Finding) error {
	loc := l.Locale()
	if notes == nil {
		notes = []receipt.Finding{}
	}
	nj, err := json.Marshal(notes)
	if err != nil {
		return err
	}
	return l.write(ctx, func(tx *sql.Tx) error {
		rec, err := getTx(tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE receipts SET reading_notes = ? WHERE id = ?`, string(nj), id); err != nil {
			return err
		}
		keepPersonsEdits(&rec.Receipt, &r, loc)
		applySupplierMemory(tx, &r)
		if err := applySupplierRule(tx, id, &r, l.stamp()); err != nil {
			return err
		}
		at := l.stamp()
		for _, path := range changedPaths(&rec.Receipt, &r) {
			oldV, _ := receipt.Get(&rec.Receipt, path)
			newV, _ := receipt.Get(&r, path)
			src := who
			if _, _, s, _, _ := receipt.Meta(&r, path); s == receipt.SourceRule {
				src = receipt.SourceRule
			}
			if err := addHistory(tx, id, at, src, "field", path, oldV, newV); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(`UPDATE receipts SET engine = ? WHERE id = ?`, engine, id); err != nil {
			return err
		}
		findings, err := l.storeReceiptTx(tx, id, r, loc, at)
		if err != nil {
			return err
		}
		if rec.Status == StatusDuplicate {
			return nil // a person's word that it is a copy stands whatever a reading brings
		}
		to := StatusExtracted
		if needsReview(r, findings) {
			to = StatusNeedsReview
		}
		if rec.Status != StatusExtracting && rec.Status != to && !CanMove(rec.Status, to) {
			// Saved without a claim (e.g. the CLI): go through the queue states.
			for _, step := range []Status{StatusQueued, StatusExtracting} {
				if CanMove(rec.Status, step) {
					if err := l.setStatusTx(tx, id, step, "system", ""); err != nil {
						return err
					}
					rec.Status = step
				}
			}
		}
		return l.setStatusTx(tx, id, to, "system", "")
	})
}

// keepPersonsEdits carries every field a person set (or cleared) on the
// stored receipt into a new reading: a person's edit always wins, the reading
// fills only what is untouched. A table with any cell a person typed is kept
// whole.
func keepPersonsEdits(stored, read *receipt.Receipt, loc receipt.Locale) {
	for _, f := range receipt.Fields {
		if _, _, src, _, err := receipt.Meta(stored, f.Path); err != nil || src != receipt.SourceUser {
			continue
		}
		v, err := receipt.Get(stored, f.Path)
		if err != nil {
			continue
		}
		if err := receipt.Set(read, f.Path, v, receipt.SourceUser, loc); err != nil {
			continue // a value the person typed that no longer parses stays only on the stored receipt
		}
	}
	touched := func(table string, n int, specs []receipt.FieldSpec) bool {
		for i := 0; i < n; i++ {
			for _, s := range specs {
				if _, _, src, _, _ := receipt.Meta(stored, fmt.Sprintf("%s[%d].%s", table, i, s.Path)); src == receipt.SourceUser {
					return true
				}
			}
		}
		return false
	}
	if touched("line_items", len(stored.LineItems), receipt.LineItemFields) {
		read.LineItems = stored.LineItems
	}
	if touched("tax_lines", len(stored.TaxLines), receipt.TaxLineFields) {
		read.TaxLines = stored.TaxLines
	}
}

// Fail marks a receipt as failed with a reason the user can read.
func (l *Library) Fail(ctx context.Context, id int64, reason string) error {
	return l.SetStatus(ctx, id, StatusFailed, "system", reason)
}

// needsReview: a receipt goes to review unless its total and date are
// trusted, its supplier is sure and no finding warns (receipt.Unready).
func needsReview(r receipt.Receipt, findings []receipt.Finding) bool {
	return len(receipt.Unready(r, findings)) > 0
}

// changedPaths lists the fields (top level and table cells) whose text differs.
func changedPaths(a, b *receipt.Receipt) []string {
	var out []string
	for _, f := range receipt.Fields {
		x, _ := receipt.Get(a, f.Path)
		y, _ := receipt.Get(b, f.Path)
		if x != y {
			out = append(out, f.Path)
		}
	}
	cells := func(table string, n int, specs []receipt.FieldSpec) {
		for i := 0; i < n; i++ {
			for _, s := range specs {
				p := fmt.Sprintf("%s[%d].%s", table, i, s.Path)
				x, _ := receipt.Get(a, p)
				y, _ := receipt.Get(b, p)
				if x != y {
					out = append(out, p)
				}
			}
		}
	}
	cells("line_items", max(len(a.LineItems), len(b.LineItems)), receipt.LineItemFields)
	cells("tax_lines", max(len(a.TaxLines), len(b.TaxLines)), receipt.TaxLineFields)
	return out
}

// storeReceiptTx writes the receipt, its findings (validation plus
// duplicates: duplicateFindingsTx) and the columns lists and queries use.
func (l *Library) storeReceiptTx(tx *sql.Tx, id int64, r receipt.Receipt, loc receipt.Locale, at string) ([]receipt.Finding, error) {
	findings := receipt.Validate(r, loc, l.now())
	if findings == nil {
		findings = []receipt.Finding{}
	}
	var nj, status string
	if err := tx.QueryRow(`SELECT reading_notes, status FROM receipts WHERE id = ?`, id).Scan(&nj, &status); err != nil {
		return nil, err
	}
	var notes []receipt.Finding
	if json.Unmarshal([]byte(nj), &notes) == nil {
		findings = append(findings, notes...)
	}
	key := SupplierKey(r.SupplierName.Value)
	date := ""
	if r.Date.Set {
		date = r.Date.Value.Format(time.DateOnly)
	}
	total := ""
	if r.Total.Set {
		total = r.Total.Value.String()
	}
	cur := r.Currency.Value
	if cur == "" {
		cur = loc.Currency
	}
	if f, ok := dateOutOfLine(tx, id, key, r); ok {
		findings = append(findings, f)
	}
	dupOf, dups, err := duplicateFindingsTx(tx, id, Status(status), key, date, total, cur)
	if err != nil {
		return nil, err
	}
	findings = append(findings, dups...)
	data, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	fj, _ := json.Marshal(findings)
	warnings := warningCount(findings)
	_, err = tx.Exec(`UPDATE receipts SET data = ?, findings = ?, supplier = ?, supplier_key = ?, date = ?, total = ?, currency = ?,
		category = ?, warnings = ?, duplicate_of = ?, updated_at = ? WHERE id = ?`,
		string(data), string(fj), r.SupplierName.Value, key, date, total, cur, r.Category.Value, warnings, dupOf, at, id)
	return findings, err
}

// EditField sets one field from text a person typed, saving at once with
// history; findings are recomputed. A confirmed receipt that is edited goes
// back to review.
func (l *Library) EditField(ctx context.Context, id int64, path, value string) error {
	return l.editField(ctx, id, path, value, receipt.SourceUser, "field")
}

func (l *Library) editField(ctx context.Context, id int64, path, value string, who receipt.Source, kind string) error {
	loc := l.Locale()
	return l.write(ctx, func(tx *sql.Tx) error {
		rec, err := getTx(tx, id)
		if err != nil {
			return err
		}
		// A path one past the last row adds a row (the form's "add line"):
		// grow the table first, so the new row's old value is "".
		if err := ensureRow(&rec.Receipt, path); err != nil {
			return err
		}
		oldV, err := receipt.Get(&rec.Receipt, path)
		if err != nil {
			return err
		}
		if err := receipt.Set(&rec.Receipt, path, value, who, loc); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		newV, _ := receipt.Get(&rec.Receipt, path)
		if newV == oldV {
			return nil
		}
		at := l.stamp()
		if err := addHistory(tx, id, at, who, kind, path, oldV, newV); err != nil {
			return err
		}
		if _, err := l.storeReceiptTx(tx, id, rec.Receipt, loc, at); err != nil {
			return err
		}
		if rec.Status == StatusConfirmed {
			return l.setStatusTx(tx, id, StatusNeedsReview, who, "")
		}
		return nil
	})
}

// ensureRow grows line items or tax lines so that path's row exists: typing
// into the first cell of a new row creates it.
func ensureRow(r *receipt.Receipt, path string) error {
	var table string
	var i int
	if n, _ := fmt.Sscanf(path, "line_items[%d]", &i); n == 1 {
		table = "line_items"
	} else if n, _ := fmt.Sscanf(path, "tax_lines[%d]", &i); n == 1 {
		table = "tax_lines"
	} else {
		return nil
	}
	switch {
	case table == "line_items" && i == len(r.LineItems):
		r.LineItems = append(r.LineItems, receipt.LineItem{})
	case table == "tax_lines" && i == len(r.TaxLines):
		r.TaxLines = append(r.TaxLines, receipt.TaxLine{})
	}
	return nil
}

// RemoveRow deletes line item or tax line i, with history.
func (l *Library) RemoveRow(ctx context.Context, id int64, table string, i int) error {
	loc := l.Locale()
	return l.write(ctx, func(tx *sql.Tx) error {
		rec, err := getTx(tx, id)
		if err != nil {
			return err
		}
		r := &rec.Receipt
		var old []byte
		switch {
		case table == "line_items" && i >= 0 && i < len(r.LineItems):
			old, _ = json.Marshal(r.LineItems[i])
			r.LineItems = append(r.LineItems[:i], r.LineItems[i+1:]...)
		case table == "tax_lines" && i >= 0 && i < len(r.TaxLines):
			old, _ = json.Marshal(r.TaxLines[i])
			r.TaxLines = append(r.TaxLines[:i], r.TaxLines[i+1:]...)
		default:
			return fmt.Errorf("receipt %d has no %s row %d", id, table, i+1)
		}
		at := l.stamp()
		if err := addHistory(tx, id, at, receipt.SourceUser, "remove_row", fmt.Sprintf("%s[%d]", table, i), string(old), ""); err != nil {
			return err
		}
		_, err = l.storeReceiptTx(tx, id, *r, loc, at)
		return err
	})
}

// Undo reverts the last field edit a person made to a receipt (itself
// recorded as an edit) and returns the field it restored: a word on a
// duplicate (DuplicateField) is taken back too.
func (l *Library) Undo(ctx context.Context, id int64) (string, error) {
	var field, old, new string
	err := l.db.QueryRow(`SELECT field, old, new FROM history WHERE receipt_id = ? AND who = 'user' AND kind = 'field' ORDER BY id DESC LIMIT 1`, id).Scan(&field, &old, &new)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("receipt %d has no edit to undo", id)
	}
	if err != nil {
		return "", err
	}
	if IsDuplicateField(field) {
		return field, l.undoJudgement(ctx, Edit{ReceiptID: id, Field: field, Old: old, New: new})
	}
	return field, l.editField(ctx, id, field, old, receipt.SourceUser, "undo")
}

// Confirm marks a receipt as checked by a person and teaches supplier memory
// its category and tax ID. A receipt marked as a duplicate is refused: it
// is out of the books until a person says it is not one.
func (l *Library) Confirm(ctx context.Context, id int64) error {
	return l.write(ctx, func(tx *sql.Tx) error {
		rec, err := getTx(tx, id)
		if err != nil {
			return err
		}
		if rec.Status == StatusConfirmed {
			return nil
		}
		if rec.Status == StatusDuplicate {
			return fmt.Errorf("receipt %d is marked as a copy of receipt %d, so it is left out: say it is not a duplicate to confirm it", id, rec.DuplicateOf)
		}
		if !CanMove(rec.Status, StatusConfirmed) {
			return fmt.Errorf("receipt %d is %s: it can be confirmed once it has been read", id, rec.Status)
		}
		if err := l.setStatusTx(tx, id, StatusConfirmed, receipt.SourceUser, ""); err != nil {
			return err
		}
		if err := l.rememberSupplier(tx, rec.Receipt); err != nil {
			return err
		}
		return learnSupplierRule(tx, id, rec.Receipt, l.stamp())
	})
}

func (l *Library) rememberSupplier(tx *sql.Tx, r receipt.Receipt) error {
	key := SupplierKey(r.SupplierName.Value)
	if key == "" {
		return nil
	}
	_, err := tx.Exec(`INSERT INTO suppliers (key, name, category, tax_scheme, tax_value, phone, confirmed, updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)
		ON CONFLICT(key) DO UPDATE SET name = excluded.name,
			category = CASE WHEN excluded.category != '' THEN excluded.category ELSE suppliers.category END,
			tax_scheme = CASE WHEN excluded.tax_value != '' THEN excluded.tax_scheme ELSE suppliers.tax_scheme END,
			tax_value = CASE WHEN excluded.tax_value != '' THEN excluded.tax_value ELSE suppliers.tax_value END,
			phone = CASE WHEN excluded.phone != '' THEN excluded.phone ELSE suppliers.phone END,
			confirmed = suppliers.confirmed + 1, updated_at = excluded.updated_at`,
		key, r.SupplierName.Value, r.Category.Value, string(r.SupplierTaxID.Value.Scheme), r.SupplierTaxID.Value.Value, phoneKey(r), l.stamp())
	return err
}

// phoneKey is the supplier's phone number as the page's country dials
// it, in E.164; "" where none was read or the page's country is unknown.
func phoneKey(r receipt.Receipt) string {
	if !r.SupplierPhone.Set || !r.PrintedIn.Set {
		return ""
	}
	pk, ok := packs.Get(r.PrintedIn.Value)
	if !ok {
		return ""
	}
	return pk.PhoneKey(r.SupplierPhone.Value)
}

// applySupplierMemory pre-fills category and tax ID from the supplier's
// last confirmed receipt, marked as coming from a rule.
func applySupplierMemory(tx *sql.Tx, r *receipt.Receipt) {
	nameFromTaxID(tx, r)
	nameFromPhone(tx, r)
	key := SupplierKey(r.SupplierName.Value)
	if key == "" {
		return
	}
	var category, scheme, value string
	var confirmed int
	if err := tx.QueryRow(`SELECT category, tax_scheme, tax_value, confirmed FROM suppliers WHERE key = ?`, key).Scan(&category, &scheme, &value, &confirmed); err != nil {
		return
	}
	rememberedSupport(r, confirmed, scheme, value)
	if !r.Category.Set && category != "" {
		r.Category = receipt.Of(category, receipt.SourceRule, 0.9)
	}
	if !r.SupplierTaxID.Set && value != "" {
		r.SupplierTaxID = receipt.Of(receipt.TaxID{Scheme: receipt.TaxScheme(scheme), Value: value}, receipt.SourceRule, 0.9)
	}
}

// nameFromTaxID names the supplier as the client confirmed it before, when
// the page prints a tax ID whose check digits hold and that a confirmed
// supplier carries: a logo read as "UE POHLWEG" over a VAT number the
// client has confirmed for "Aldi GmbH & Co. KG" is Aldi.
func nameFromTaxID(tx *sql.Tx, r *receipt.Receipt) {
	id := r.SupplierTaxID
	if !id.Set || id.Source == receipt.SourceRule || r.SupplierName.Source == receipt.SourceUser || receipt.ValidateTaxID(id.Value) != nil {
		return
	}
	var name string
	var confirmed int
	err := tx.QueryRow(`SELECT name, confirmed FROM suppliers WHERE tax_value = ? AND confirmed > 0 ORDER BY confirmed DESC, updated_at DESC LIMIT 1`,
		id.Value.Value).Scan(&name, &confirmed)
	if err == nil && name != "" {
		renameFromMemory(r, name, confirmed, "tax ID", id.Value.Value)
	}
}

// nameFromPhone names the supplier as the client confirmed it before, when
// the page prints no valid tax ID, its name was read unsurely (a logo
// misread: "DRIRTLESS ACRES") and its phone number is one confirmed
// supplier's, and no other's. A US receipt prints no tax ID; a number two
// suppliers share (a food court's), or a customer's printed on a delivery
// ticket, names nobody, and a name read surely is the page's.
func nameFromPhone(tx *sql.Tx, r *receipt.Receipt) {
	n := r.SupplierName
	if n.Source == receipt.SourceUser || n.Source == receipt.SourceRule || n.Set && n.Doubt == "" && n.Confidence >= LowConfidence ||
		r.SupplierTaxID.Set && receipt.ValidateTaxID(r.SupplierTaxID.Value) == nil {
		return
	}
	key := phoneKey(*r)
	if key == "" {
		return
	}
	var name string
	var confirmed, suppliers int
	err := tx.QueryRow(`SELECT MAX(name), MAX(confirmed), COUNT(*) FROM suppliers WHERE phone = ? AND confirmed > 0`, key).Scan(&name, &confirmed, &suppliers)
	if err == nil && suppliers == 1 {
		renameFromMemory(r, name, confirmed, "phone number", r.SupplierPhone.Value)
	}
}

// renameFromMemory names the supplier as confirmed before, found by what
// (its tax ID, its phone number) with the value value.
func renameFromMemory(r *receipt.Receipt, name string, confirmed int, what, value string) {
	if name == "" || SupplierKey(name) == SupplierKey(r.SupplierName.Value) {
		return
	}
	r.SupplierName = receipt.Text{
		Value: name, Set: true, Source: receipt.SourceRule, Confidence: 0.9, Box: r.SupplierName.Box,
		Why:     "the supplier you confirmed before with the " + what + " " + value,
		Support: []receipt.Support{{Kind: receipt.EvidenceMemory, Why: fmt.Sprintf("its %s, confirmed %d time(s) for this supplier", what, confirmed)}},
	}
}
