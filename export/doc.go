// Package export writes receipts to the files a bookkeeper hands on: an
// Excel workbook (receipts, line items, tax summary, set up for printing)
// and CSV, and the import files of accounting software (Xero bills, MYOB
// purchases and spend money, QuickBooks Online bank transactions and
// bills) after a check of what the target would reject. Writes are atomic
// (a CSV pair together), untrusted text never becomes a formula, statuses
// and flags are in words. It knows nothing of Fyne.
package export
