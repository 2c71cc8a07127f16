// Package export writes confirmed receipts to the files a bookkeeper hands on:
// an Excel workbook (receipts, line items, tax summary) and CSV, safely
// (atomic writes, neutralised formulas). It knows nothing of Fyne.
package export
