package library

import (
	"database/sql"
	"errors"
	"fmt"
)

// migrations are applied in order; the schema_version table records how many
// have run. Never edit one that has shipped: add another.
var migrations = []string{
	// 1: receipts, their history, supplier memory, settings.
	`CREATE TABLE receipts (
		id            INTEGER PRIMARY KEY,
		sha256        TEXT NOT NULL UNIQUE,
		original_name TEXT NOT NULL,
		source_path   TEXT NOT NULL,
		stored_path   TEXT NOT NULL,
		kind          TEXT NOT NULL,
		size          INTEGER NOT NULL,
		pages         INTEGER NOT NULL,
		status        TEXT NOT NULL,
		fail_reason   TEXT NOT NULL DEFAULT '',
		imported_at   TEXT NOT NULL,
		updated_at    TEXT NOT NULL,
		engine        TEXT NOT NULL DEFAULT '',
		data          TEXT NOT NULL DEFAULT '{}',
		findings      TEXT NOT NULL DEFAULT '[]',
		supplier      TEXT NOT NULL DEFAULT '',
		supplier_key  TEXT NOT NULL DEFAULT '',
		date          TEXT NOT NULL DEFAULT '',
		total         TEXT NOT NULL DEFAULT '',
		currency      TEXT NOT NULL DEFAULT '',
		category      TEXT NOT NULL DEFAULT '',
		warnings      INTEGER NOT NULL DEFAULT 0,
		duplicate_of  INTEGER REFERENCES receipts(id) ON DELETE SET NULL
	);
	CREATE INDEX receipts_status ON receipts(status, id);
	CREATE INDEX receipts_date ON receipts(date);
	CREATE INDEX receipts_supplier ON receipts(supplier_key, date);
	CREATE INDEX receipts_category ON receipts(category);
	CREATE TABLE history (
		id         INTEGER PRIMARY KEY,
		receipt_id INTEGER NOT NULL REFERENCES receipts(id) ON DELETE CASCADE,
		at         TEXT NOT NULL,
		who        TEXT NOT NULL,
		kind       TEXT NOT NULL,
		field      TEXT NOT NULL DEFAULT '',
		old        TEXT NOT NULL DEFAULT '',
		new        TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX history_receipt ON history(receipt_id, id);
	CREATE TABLE suppliers (
		key         TEXT PRIMARY KEY,
		name        TEXT NOT NULL,
		category    TEXT NOT NULL DEFAULT '',
		tax_scheme  TEXT NOT NULL DEFAULT '',
		tax_value   TEXT NOT NULL DEFAULT '',
		confirmed   INTEGER NOT NULL DEFAULT 0,
		updated_at  TEXT NOT NULL
	);
	CREATE TABLE settings (
		key   TEXT PRIMARY KEY,
		value TEXT NOT NULL
	);`,
	// 2: the client's books: chart of accounts, tax codes, supplier rules
	// (account, tax code, currency, payment method) and each receipt's and
	// line item's coding (line -1 is the whole receipt).
	`CREATE TABLE accounts (
		code      TEXT PRIMARY KEY,
		name      TEXT NOT NULL,
		type      TEXT NOT NULL DEFAULT '',
		tax_code  TEXT NOT NULL DEFAULT '',
		archived  INTEGER NOT NULL DEFAULT 0
	);
	CREATE TABLE tax_codes (
		code      TEXT PRIMARY KEY,
		name      TEXT NOT NULL,
		rate      TEXT NOT NULL DEFAULT '',
		xero_name TEXT NOT NULL DEFAULT ''
	);
	CREATE TABLE supplier_rules (
		key            TEXT PRIMARY KEY,
		name           TEXT NOT NULL,
		account        TEXT NOT NULL DEFAULT '',
		tax_code       TEXT NOT NULL DEFAULT '',
		currency       TEXT NOT NULL DEFAULT '',
		payment_method TEXT NOT NULL DEFAULT '',
		typed          INTEGER NOT NULL DEFAULT 0,
		learned        INTEGER NOT NULL DEFAULT 0,
		updated_at     TEXT NOT NULL
	);
	CREATE TABLE receipt_coding (
		receipt_id INTEGER NOT NULL REFERENCES receipts(id) ON DELETE CASCADE,
		line       INTEGER NOT NULL,
		account    TEXT NOT NULL DEFAULT '',
		tax_code   TEXT NOT NULL DEFAULT '',
		source     TEXT NOT NULL DEFAULT '',
		PRIMARY KEY (receipt_id, line)
	);`,
	// 3: who is reading a receipt, and until when their claim holds.
	`ALTER TABLE receipts ADD COLUMN claim_owner TEXT NOT NULL DEFAULT '';
	ALTER TABLE receipts ADD COLUMN claim_until TEXT NOT NULL DEFAULT '';`,
	// 4: findings the last reading brought that the fields cannot show (a
	// PDF's e-invoice that could not be read), kept through edits.
	`ALTER TABLE receipts ADD COLUMN reading_notes TEXT NOT NULL DEFAULT '[]';`,
	// 5: the client's contacts (suppliers) as its accounting program knows
	// them, to name a receipt's supplier the way the program will match it.
	`CREATE TABLE contacts (
		key    TEXT PRIMARY KEY,
		name   TEXT NOT NULL,
		tax_id TEXT NOT NULL DEFAULT ''
	);`,
	// 6: bank and card statements (statements.go): the accounts with their
	// CSV column mapping, each imported file, its lines (one row per line,
	// however many overlapping files carried it), each line's receipt, the
	// pairs the bookkeeper rejected, the history that undo walks back, and
	// the statement descriptions learned to name a supplier.
	`CREATE TABLE bank_accounts (
		name        TEXT PRIMARY KEY,
		currency    TEXT NOT NULL DEFAULT '',
		csv_mapping TEXT NOT NULL DEFAULT '',
		created_at  TEXT NOT NULL
	);
	CREATE TABLE statements (
		id            INTEGER PRIMARY KEY,
		account       TEXT NOT NULL REFERENCES bank_accounts(name),
		sha256        TEXT NOT NULL,
		original_name TEXT NOT NULL,
		stored_path   TEXT NOT NULL,
		format        TEXT NOT NULL,
		currency      TEXT NOT NULL DEFAULT '',
		period_from   TEXT NOT NULL DEFAULT '',
		period_to     TEXT NOT NULL DEFAULT '',
		opening       TEXT NOT NULL DEFAULT '',
		closing       TEXT NOT NULL DEFAULT '',
		line_count    INTEGER NOT NULL DEFAULT 0,
		added         INTEGER NOT NULL DEFAULT 0,
		imported_at   TEXT NOT NULL,
		UNIQUE (account, sha256)
	);
	CREATE TABLE statement_lines (
		id            INTEGER PRIMARY KEY,
		statement_id  INTEGER NOT NULL REFERENCES statements(id) ON DELETE CASCADE,
		account       TEXT NOT NULL,
		fingerprint   TEXT NOT NULL,
		date          TEXT NOT NULL,
		amount        TEXT NOT NULL,
		currency      TEXT NOT NULL DEFAULT '',
		orig_amount   TEXT NOT NULL DEFAULT '',
		orig_currency TEXT NOT NULL DEFAULT '',
		description   TEXT NOT NULL DEFAULT '',
		reference     TEXT NOT NULL DEFAULT '',
		balance       TEXT NOT NULL DEFAULT '',
		receipt_id    INTEGER REFERENCES receipts(id) ON DELETE SET NULL,
		match_state   TEXT NOT NULL DEFAULT '',
		match_kind    TEXT NOT NULL DEFAULT '',
		match_reason  TEXT NOT NULL DEFAULT '',
		UNIQUE (account, fingerprint)
	);
	CREATE INDEX statement_lines_date ON statement_lines(account, date);
	CREATE INDEX statement_lines_receipt ON statement_lines(receipt_id);
	CREATE TABLE match_rejections (
		line_id    INTEGER NOT NULL REFERENCES statement_lines(id) ON DELETE CASCADE,
		receipt_id INTEGER NOT NULL REFERENCES receipts(id) ON DELETE CASCADE,
		PRIMARY KEY (line_id, receipt_id)
	);
	CREATE TABLE match_history (
		id      INTEGER PRIMARY KEY,
		line_id INTEGER NOT NULL REFERENCES statement_lines(id) ON DELETE CASCADE,
		at      TEXT NOT NULL,
		who     TEXT NOT NULL,
		kind    TEXT NOT NULL,
		old     TEXT NOT NULL,
		new     TEXT NOT NULL
	);
	CREATE TABLE description_memory (
		desc_key     TEXT PRIMARY KEY,
		supplier_key TEXT NOT NULL,
		supplier     TEXT NOT NULL,
		confirmed    INTEGER NOT NULL DEFAULT 1,
		updated_at   TEXT NOT NULL
	);`,
	// 7: a confirmed supplier's phone number (E.164), which names it on a
	// later receipt that prints no tax ID (packs.Pack.PhoneKey).
	`ALTER TABLE suppliers ADD COLUMN phone TEXT NOT NULL DEFAULT '';`,
	// 8: pairs of receipts a person said are not the same purchase (each
	// pair once, the lower ID first), which the probable-duplicate guess
	// then leaves alone whatever is saved later. A receipt a person marked
	// as a copy has the status "duplicate" and its duplicate_of; a
	// duplicate_of on any other receipt is the guess, as before.
	`CREATE TABLE not_duplicates (
		receipt_id INTEGER NOT NULL REFERENCES receipts(id) ON DELETE CASCADE,
		other_id   INTEGER NOT NULL REFERENCES receipts(id) ON DELETE CASCADE,
		at         TEXT NOT NULL,
		PRIMARY KEY (receipt_id, other_id),
		CHECK (receipt_id < other_id)
	);
	CREATE INDEX not_duplicates_other ON not_duplicates(other_id);`,
}

// migrate brings the schema up to date. A library that is up to date is
// only read (a read-only library still opens); otherwise every step runs in
// one write transaction, so two programs opening an old library at once
// upgrade it once.
func migrate(db *sql.DB) error {
	var v int
	if err := db.QueryRow(`SELECT version FROM schema_version`).Scan(&v); err == nil && v == len(migrations) {
		return nil
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }() // after Commit, a no-op
	if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return err
	}
	err = tx.QueryRow(`SELECT version FROM schema_version`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		v = 0
		if _, err := tx.Exec(`INSERT INTO schema_version (version) VALUES (0)`); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	if v > len(migrations) {
		return fmt.Errorf("the library was written by a newer Shoebox (schema %d, this one knows %d): update Shoebox", v, len(migrations))
	}
	for i := v; i < len(migrations); i++ {
		if _, err := tx.Exec(migrations[i]); err != nil {
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
	}
	if _, err := tx.Exec(`UPDATE schema_version SET version = ?`, len(migrations)); err != nil {
		return err
	}
	return tx.Commit()
}
