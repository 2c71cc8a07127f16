// Package export writes receipts to the files a bookkeeper hands on: an
// Excel workbook (receipts with the account and tax codes each is booked
// to, line items, a tax summary by tax code and currency, set up for
// printing) and CSV, and the import files of accounting software (Xero
// bills, MYOB purchases and spend money, QuickBooks Online bank
// transactions and bills). It books what nobody coded from the client's
// Books (default account, category accounts, a tax code per rate), one
// line per tax rate, and holds each file to what its importer takes as
// the cited table in targets/targets.json says; receipts a file cannot
// hold are left out with the reason, receipts a person marked as copies
// of others are left out of every file (counted, so the message says so),
// and what the importer would reject stops the write. Writes are atomic
// (a CSV pair together); untrusted text never becomes a formula in a
// workbook or human CSV, while import files keep values verbatim;
// statuses and flags are in words. It knows nothing of Fyne.
package export
