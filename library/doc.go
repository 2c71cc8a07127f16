// Package library is the durable receipt store: one SQLite database (WAL,
// migrations), originals kept by sha256, thumbnails, the status lifecycle,
// the history of every edit, duplicate detection (a guess on every save,
// and a person's word on it that no save undoes: duplicates.go) and
// supplier memory.
package library
