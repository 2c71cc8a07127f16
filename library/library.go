package library

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite" // pure-Go SQLite: no cgo, same file format
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/shoebox-app/shoebox/internal/envvars"
	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/receipt"
)

// Status is where a receipt is in its lifecycle.
type Status string

// The statuses, in the order a receipt usually passes through them.
const (
	StatusNew         Status = "new"
	StatusQueued      Status = "queued"
	StatusExtracting  Status = "extracting"
	StatusExtracted   Status = "extracted"    // read with no findings: ready to confirm
	StatusNeedsReview Status = "needs_review" // read, with findings or unsure fields
	StatusConfirmed   Status = "confirmed"
	StatusFailed      Status = "failed"
	// StatusDuplicate: a person marked the receipt as a copy of another
	// (Record.DuplicateOf), the same purchase. It is out of the receipts
	// to check, of bank matching and of every export, and is not read
	// again; "not a duplicate" puts it back in the status it had.
	StatusDuplicate Status = "duplicate"
)

// Statuses lists every Status in lifecycle order (a duplicate is a side
// track, last).
var Statuses = []Status{StatusNew, StatusQueued, StatusExtracting, StatusExtracted, StatusNeedsReview, StatusConfirmed, StatusFailed, StatusDuplicate}

// transitions are the allowed status changes. Any receipt but one being
// read may be marked as a duplicate, and goes back where it was when a
// person says it is not one (or its original leaves the library);
// Confirm and Enqueue refuse a duplicate of their own accord.
var transitions = map[Status][]Status{
	StatusNew:         {StatusQueued, StatusFailed, StatusDuplicate},
	StatusQueued:      {StatusExtracting, StatusNew, StatusFailed, StatusDuplicate},
	StatusExtracting:  {StatusExtracted, StatusNeedsReview, StatusFailed, StatusQueued},
	StatusExtracted:   {StatusNeedsReview, StatusConfirmed, StatusQueued, StatusDuplicate},
	StatusNeedsReview: {StatusExtracted, StatusConfirmed, StatusQueued, StatusDuplicate},
	StatusConfirmed:   {StatusNeedsReview, StatusQueued, StatusDuplicate},
	StatusFailed:      {StatusQueued, StatusDuplicate},
	StatusDuplicate:   {StatusNew, StatusQueued, StatusExtracted, StatusNeedsReview, StatusConfirmed, StatusFailed},
}

// CanMove reports whether a receipt may go from one status to another.
func CanMove(from, to Status) bool {
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// ParseStatus accepts a status name ("needs-review" too).
func ParseStatus(s string) (Status, error) {
	s = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
	for _, st := range Statuses {
		if string(st) == s {
			return st, nil
		}
	}
	return "", fmt.Errorf("unknown status %q: use one of new, queued, extracting, extracted, needs_review, confirmed, failed, duplicate", s)
}

// ErrNotFound is returned for an unknown receipt ID.
var ErrNotFound = errors.New("no such receipt")

// Library is an open receipt library folder.
type Library struct {
	dir string
	db  *sql.DB
	// writeMu serialises write transactions so that none waits on SQLite's lock.
	writeMu sync.Mutex
	now     func() time.Time

	renewOnce sync.Once
	stopRenew chan struct{}
	closeOnce sync.Once
}

// DefaultDir is where the library lives: $SHOEBOX_HOME, else
// $XDG_DATA_HOME/shoebox, else the system's place for a user's data
// (dataDir: ~/.local/share/shoebox, or %LOCALAPPDATA%\Shoebox on Windows).
func DefaultDir() (string, error) {
	if d := envvars.Home.Get(); d != "" {
		return d, nil
	}
	if d := envvars.XDGDataHome.Get(); d != "" {
		return filepath.Join(d, "shoebox"), nil
	}
	d, err := dataDir()
	if err != nil {
		return "", fmt.Errorf("no home folder to keep the library in: set SHOEBOX_HOME or use --library DIR")
	}
	return d, nil
}

// Open opens (creating if needed) the library in dir.
func Open(dir string) (*Library, error) {
	for _, sub := range []string{"", "originals", "thumbs"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), privateDir); err != nil {
			return nil, fmt.Errorf("cannot create the library folder %s: %w", dir, err)
		}
	}
	prepareFiles(dir)
	path := filepath.Join(dir, dbName)
	var db *sql.DB
	var err error
	// A database this user cannot write is opened read-only at once: a
	// read-write try would leave -wal and -shm with its read-only mode.
	if writable(path) {
		dsn := "file:" + path +
			"?_txlock=immediate&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)"
		if db, err = sql.Open("sqlite", dsn); err != nil {
			return nil, err
		}
		// Two connections: a reader is never blocked by the writer under WAL.
		db.SetMaxOpenConns(2)
		if err = db.Ping(); err != nil {
			db.Close()
			db = nil
			if !isReadOnly(err) {
				return nil, fmt.Errorf("cannot open the library database in %s: %w", dir, err)
			}
		}
	}
	if db == nil {
		// A library on read-only media or in a folder this user cannot
		// write (no room for SQLite's WAL files) can still be listed,
		// shown and exported; changes are refused by SQLite.
		db, err = sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
		if err != nil {
			return nil, err
		}
		if err := db.Ping(); err != nil {
			db.Close()
			return nil, fmt.Errorf("cannot open the library database in %s: %w", dir, err)
		}
	}
	if err := migrate(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("cannot upgrade the library database in %s: %w", dir, err)
	}
	removeStaleCopies(dir)
	return &Library{dir: dir, db: db, now: time.Now}, nil
}

// staleAfter is how old a temporary copy must be before Open removes it: an
// import in another program may be writing a young one.
const staleAfter = 10 * time.Minute

// removeStaleCopies deletes the temporary copies that imports killed midway
// left in originals/ and thumbs/, and killed writes of the library's own
// files.
func removeStaleCopies(dir string) {
	patterns := []string{
		filepath.Join(dir, ".tmp-*"),
		filepath.Join(dir, "originals", ".tmp-*"),
		filepath.Join(dir, "originals", "*", ".tmp-*"),
		filepath.Join(dir, "thumbs", ".tmp-*"),
		filepath.Join(dir, "thumbs", "*.tmp"), // older versions' names
	}
	for _, pat := range patterns {
		matches, _ := filepath.Glob(pat)
		for _, m := range matches {
			if fsutil.Leftover(m, staleAfter) || olderVersionsLeftover(m) {
				os.Remove(m)
			}
		}
	}
}

// olderVersionsLeftover: a temporary copy named the way earlier versions
// named them (no process in the name), not written for staleAfter.
func olderVersionsLeftover(path string) bool {
	st, err := os.Lstat(path)
	return err == nil && st.Mode().IsRegular() && time.Since(st.ModTime()) > staleAfter
}

// Dir is the library folder.
func (l *Library) Dir() string { return l.dir }

// Close stops renewing claims and closes the database.
func (l *Library) Close() error {
	l.closeOnce.Do(func() {
		l.renewOnce.Do(func() {}) // no heartbeat starts after this
		if l.stopRenew != nil {
			close(l.stopRenew)
		}
	})
	return l.db.Close()
}

// IntegrityCheck runs SQLite's integrity_check and returns its verdict.
func (l *Library) IntegrityCheck() error {
	var res string
	if err := l.db.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return fmt.Errorf("library database is damaged: %s", res)
	}
	return nil
}

func (l *Library) stamp() string { return l.now().UTC().Format(time.RFC3339Nano) }

// write runs fn in one write transaction. Transactions begin IMMEDIATE (the
// DSN's _txlock), so another program's writer makes this one wait up to the
// busy timeout instead of failing midway; if the lock is still held after
// that, the whole transaction is tried again, for up to busyRetries rounds.
func (l *Library) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	l.writeMu.Lock()
	defer l.writeMu.Unlock()
	var err error
	for attempt := 0; attempt < busyRetries; attempt++ {
		if err = l.writeOnce(ctx, fn); err == nil || !isBusy(err) || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Duration(50*(attempt+1)) * time.Millisecond)
	}
	if err != nil && isBusy(err) {
		return fmt.Errorf("the library is busy in another program for too long; try again: %w", err)
	}
	return err
}

const busyRetries = 6

func (l *Library) writeOnce(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback() // fn's error is the one to report
		return err
	}
	if err := tx.Commit(); err != nil {
		if isBusy(err) {
			return err
		}
		return fmt.Errorf("saving to the library failed (is the disk full?): %w", err)
	}
	return nil
}

// isReadOnly reports SQLITE_READONLY and its extended codes.
func isReadOnly(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()&0xff == sqlite3.SQLITE_READONLY
	}
	return false
}

// isBusy reports SQLite's "database is locked" (SQLITE_BUSY and its
// extended codes) from the driver.
func isBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()&0xff == sqlite3.SQLITE_BUSY
	}
	return false
}

func addHistory(tx *sql.Tx, id int64, at string, who receipt.Source, kind, field, old, new string) error {
	_, err := tx.Exec(`INSERT INTO history (receipt_id, at, who, kind, field, old, new) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		id, at, string(who), kind, field, old, new)
	return err
}

// Locale returns the library's locale settings (AU defaults until set).
func (l *Library) Locale() receipt.Locale {
	var v string
	if err := l.db.QueryRow(`SELECT value FROM settings WHERE key = 'locale'`).Scan(&v); err == nil {
		var loc receipt.Locale
		if json.Unmarshal([]byte(v), &loc) == nil && loc.Country != "" {
			return loc
		}
	}
	return receipt.DefaultLocale(receipt.CountryAU)
}

// SetLocale stores the library's locale settings.
func (l *Library) SetLocale(loc receipt.Locale) error {
	b, _ := json.Marshal(loc)
	return l.write(context.Background(), func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO settings (key, value) VALUES ('locale', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, string(b))
		return err
	})
}

// Setting returns a stored setting ("" when unset).
func (l *Library) Setting(key string) string {
	var v string
	if err := l.db.QueryRow(`SELECT value FROM settings WHERE key = ?`, key).Scan(&v); err != nil {
		return "" // unset (or unreadable: the default applies)
	}
	return v
}

// SetSetting stores a setting.
func (l *Library) SetSetting(key, value string) error {
	return l.write(context.Background(), func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
		return err
	})
}
