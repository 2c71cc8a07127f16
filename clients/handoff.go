package clients

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shoebox-app/shoebox/export"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// SettingBankAccount is the library setting naming the account receipts
// are paid from, as the accounting program numbers it (MYOB: 1-1110).
const SettingBankAccount = "bank_account"

// SettingTaxRegistration is the library setting holding the client's own
// tax registration (ABN, VAT or GST number).
const SettingTaxRegistration = "tax_registration"

// Books gathers what the export presets need to know of a client's books.
func Books(l *library.Library) (export.Books, error) {
	b := export.Books{Locale: l.Locale(), Accounts: map[string]export.BookAccount{}, TaxCodes: map[string]export.BookTaxCode{},
		BankAccount: l.Setting(SettingBankAccount)}
	accts, err := l.Accounts()
	if err != nil {
		return b, err
	}
	for _, a := range accts {
		if !a.Archived {
			b.Accounts[a.Code] = export.BookAccount{Code: a.Code, Name: a.Name}
		}
	}
	codes, err := l.TaxCodes()
	if err != nil {
		return b, err
	}
	if len(codes) == 0 {
		// A library made before it had books: its country's codes.
		codes = library.DefaultTaxCodes(b.Locale.Country)
	}
	for _, t := range codes {
		b.TaxCodes[t.Code] = export.BookTaxCode{Code: t.Code, Rate: t.Rate, RateSet: true, XeroName: t.XeroName}
	}
	return b, nil
}

// CodedRows reads the receipts f selects with their coding, in date order,
// ready for a preset.
func CodedRows(l *library.Library, f library.Filter) ([]export.Coded, error) {
	var out []export.Coded
	for rec, err := range l.Records(f) {
		if err != nil {
			return nil, err
		}
		c, err := l.Coding(rec.ID)
		if err != nil {
			return nil, fmt.Errorf("receipt %d: %w", rec.ID, err)
		}
		row := export.Coded{
			Row:     export.Row{ID: rec.ID, Status: string(rec.Status), Receipt: rec.Receipt, Findings: rec.Findings, Original: l.OriginalPath(rec), Name: rec.OriginalName, SHA256: rec.SHA256},
			Account: c.Account, TaxCode: c.TaxCode,
		}
		for i, lc := range c.Lines {
			if row.Lines == nil {
				row.Lines = map[int]export.LineCode{}
			}
			row.Lines[i] = export.LineCode{Account: lc.Account, TaxCode: lc.TaxCode}
		}
		out = append(out, row)
	}
	return out, nil
}

// ExportPreset writes a client's receipts in period ("" for all) as the
// preset's import file at path, with the originals' zip beside it when
// attachments is set. Receipts still being read or never read are left
// out; unconfirmed ones are named by the check. The check's problems come
// back as *export.CheckError, and then nothing was written. The window and
// `shoebox export --format` both use it.
func ExportPreset(l *library.Library, p export.Preset, period, path string, attachments bool) (export.Stats, error) {
	rows, books, err := presetInput(l, period)
	if err != nil {
		return export.Stats{}, err
	}
	opt := export.PresetOptions{Books: books}
	if attachments {
		opt.Attachments = export.AttachmentsPath(path)
	}
	return export.WritePreset(path, p, rows, opt)
}

// CheckPreset lists what the preset's importer would reject in a client's
// receipts in period, writing nothing: the window checks again after each
// fix, to mark the problems fixed.
func CheckPreset(l *library.Library, p export.Preset, period string) ([]export.Problem, error) {
	rows, books, err := presetInput(l, period)
	if err != nil {
		return nil, err
	}
	return export.Check(p, rows, export.PresetOptions{Books: books}), nil
}

// presetInput reads the receipts a preset exports in period, with the books.
func presetInput(l *library.Library, period string) ([]export.Coded, export.Books, error) {
	f := library.Filter{Statuses: []library.Status{library.StatusExtracted, library.StatusNeedsReview, library.StatusConfirmed}}
	if strings.TrimSpace(period) != "" {
		per, err := receipt.ParsePeriod(strings.TrimSpace(period), l.Locale().FYStartMonth)
		if err != nil {
			return nil, export.Books{}, err
		}
		f.Period = &per
	}
	rows, err := CodedRows(l, f)
	if err != nil {
		return nil, export.Books{}, err
	}
	if len(rows) == 0 {
		return nil, export.Books{}, errors.New("no receipts to export in that period")
	}
	books, err := Books(l)
	return rows, books, err
}
