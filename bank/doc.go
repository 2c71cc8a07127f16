// Package bank owns bank and card statements: reading them (OFX/QFX, QIF,
// ISO 20022 CAMT.052/053/054, CSV with a per-account column mapping),
// keeping them in the client's library, matching their lines to receipts,
// and listing what is missing on either side for a period.
package bank
