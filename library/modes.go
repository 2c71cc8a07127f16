package library

import (
	"io/fs"
	"os"
	"path/filepath"
)

// The library holds a client's suppliers, totals, tax IDs and bank
// details: its folders are the user's alone (0700) and so are its files
// (0600), the database and SQLite's -wal and -shm beside it included.
const (
	privateDir  fs.FileMode = 0o700
	privateFile fs.FileMode = 0o600
)

// dbName is the database's name in the library folder.
const dbName = "library.db"

// prepareFiles makes a library folder's files private before SQLite opens
// them, and mends what an earlier read-only open left behind.
//
// SQLite creates -wal and -shm with the database file's mode, and creates
// the database itself 0644 under the usual umask. So a new database is
// created here, empty (SQLite takes an empty file as an empty database),
// with 0600, and its WAL files follow it. A library made before this is
// put right: group and other bits are taken off its folders and database
// files, the owner's bits are kept (a database the user made read-only
// stays read-only).
//
// With library.db 0444, a read-write open falls back to reading and still
// creates -wal and -shm, 0444 like the database; once the user makes the
// database writable again, SQLite opens that -shm read-only and every write
// fails with "attempt to write a readonly database" (issue 38 item 4). So
// when this user can write the database, its WAL files are made writable
// too (chmod, never removal: another program may have the library open).
func prepareFiles(dir string) {
	for _, sub := range []string{"", "originals", "thumbs"} {
		makePrivate(filepath.Join(dir, sub))
	}
	if shards, err := filepath.Glob(filepath.Join(dir, "originals", "??")); err == nil {
		for _, d := range shards {
			makePrivate(d)
		}
	}
	db := filepath.Join(dir, dbName)
	if f, err := os.OpenFile(db, os.O_WRONLY|os.O_CREATE|os.O_EXCL, privateFile); err == nil {
		f.Close()
	}
	makePrivate(db)
	dbWritable := writable(db)
	for _, suffix := range []string{"-wal", "-shm"} {
		p := db + suffix
		makePrivate(p)
		if dbWritable {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && !writable(p) {
				_ = os.Chmod(p, privateFile) // if it fails, SQLite's open reports the file
			}
		}
	}
}

// makePrivate takes group and other bits off a file or folder this user
// owns; anything else is left as it is.
func makePrivate(p string) {
	st, err := os.Stat(p)
	if err != nil {
		return
	}
	if m := st.Mode().Perm(); m&0o077 != 0 {
		_ = os.Chmod(p, m&^0o077) // another user's file: not ours to change, left as it is
	}
}
