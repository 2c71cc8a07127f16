// Package library is the durable receipt store: one SQLite database (WAL,
// migrations), originals kept by sha256, thumbnails, the status lifecycle,
// the history of every edit, duplicate detection and supplier memory.
package library
