// Package architecture holds the test that keeps docs/architecture.md true:
// every package of the module appears in its package table, and imports only
// the packages of ours its row allows.
package architecture
