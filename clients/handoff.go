package clients

import (
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/shopspring/decimal"

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

// Books gathers what the export presets need to know of a client's books:
// its chart and tax codes, named for each program as the country's chart
// names them, its default account, and the tax codes a receipt gets when
// nobody coded it.
func Books(l *library.Library) (export.Books, error) {
	loc := l.Locale()
	b := export.Books{
		Locale: loc, Accounts: map[string]export.BookAccount{}, TaxCodes: map[string]export.BookTaxCode{},
		BankAccount: l.Setting(SettingBankAccount), DefaultAccount: l.Setting(library.SettingDefaultAccount), Categories: map[string]string{},
	}
	b.Country = l.Setting(library.SettingCountry)
	chart, hasChart := library.ChartFor(string(l.ChartCountry()))
	chartAccounts := map[string]library.ChartAccount{}
	chartCodes := map[string]library.ChartTaxCode{}
	if hasChart {
		for _, a := range chart.Accounts {
			chartAccounts[a.Code] = a
		}
		for _, t := range chart.TaxCodes {
			chartCodes[t.Code] = t
		}
		b.FreeTaxCode, b.OutsideTaxCode, b.TaxIsCost = chart.FreeTaxCode, chart.OutsideTaxCode, !chart.ClaimsTax
		if b.DefaultAccount == "" {
			b.DefaultAccount = chart.DefaultAccount
		}
	}
	accts, err := l.Accounts()
	if err != nil {
		return b, err
	}
	for _, a := range accts {
		if a.Archived {
			continue
		}
		ba := export.BookAccount{Code: a.Code, Name: a.Name}
		// The country's chart numbers its accounts for MYOB and names them
		// for QuickBooks; an imported chart is the program's own already.
		if ca, ok := chartAccounts[a.Code]; ok && ca.Name == a.Name {
			ba.MYOB, ba.QBO = ca.MYOB, ca.QBO
			for _, cat := range ca.Categories {
				b.Categories[receipt.Fold(cat)] = a.Code
			}
		}
		b.Accounts[a.Code] = ba
	}
	if _, ok := b.Accounts[b.DefaultAccount]; !ok && len(b.Accounts) > 0 {
		b.DefaultAccount = ""
	}
	contacts, err := l.Contacts()
	if err != nil {
		return b, err
	}
	for _, c := range contacts {
		b.Contacts = append(b.Contacts, export.BookContact{Name: c.Name, TaxID: c.TaxID})
	}
	codes, err := l.TaxCodes()
	if err != nil {
		return b, err
	}
	if len(codes) == 0 {
		// A library made before it had books: its country's codes.
		codes = library.DefaultTaxCodes(l.ChartCountry())
	}
	for _, t := range codes {
		bt := export.BookTaxCode{Code: t.Code, Rate: t.Rate, RateSet: true, XeroName: t.XeroName}
		if ct, ok := chartCodes[t.Code]; ok && ct.Rate.Equal(t.Rate) {
			bt.MYOBName, bt.QBOName, bt.DefaultForRate = ct.MYOB, ct.QBO, ct.DefaultForRate
		}
		b.TaxCodes[t.Code] = bt
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
			Row:     export.Row{ID: rec.ID, Status: string(rec.Status), Receipt: rec.Receipt, Findings: rec.Findings, Original: l.OriginalPath(rec), Name: rec.OriginalName, SHA256: rec.SHA256, DuplicateOf: copyOf(rec)},
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

// Rows streams a client's receipts that f selects as export rows, each
// with the account and tax code a person or rule booked it to, for the
// workbook and CSV writers. err reports what ended the stream early.
func Rows(l *library.Library, f library.Filter) (rows iter.Seq[export.Row], err func() error) {
	var iterErr error
	rows = func(yield func(export.Row) bool) {
		for rec, err := range l.Records(f) {
			if err != nil {
				iterErr = err
				return
			}
			coding, err := l.Coding(rec.ID)
			if err != nil {
				iterErr = fmt.Errorf("receipt %d: %w", rec.ID, err)
				return
			}
			paid, err := payments(l, rec.ID)
			if err != nil {
				iterErr = fmt.Errorf("receipt %d: %w", rec.ID, err)
				return
			}
			if !yield(export.Row{
				ID: rec.ID, Status: string(rec.Status), Receipt: rec.Receipt, Findings: rec.Findings, Original: l.OriginalPath(rec),
				Name: rec.OriginalName, SHA256: rec.SHA256, Booked: export.LineCode{Account: coding.Account, TaxCode: coding.TaxCode}, Paid: paid,
				DuplicateOf: copyOf(rec),
			}) {
				return
			}
		}
	}
	return rows, func() error { return iterErr }
}

// copyOf is the receipt a person marked rec as a copy of (0: not marked;
// a probable duplicate is only a guess, and is exported).
func copyOf(rec library.Record) int64 {
	if rec.Status == library.StatusDuplicate {
		return rec.DuplicateOf
	}
	return 0
}

// ExportFilter narrows f, the receipts an export covers, to those the
// bookkeeper chose: confirmed ones unless all is set. Receipts marked as
// duplicates stay in, for the writers to leave out and count, so the
// export says how many copies it left out.
func ExportFilter(f library.Filter, all bool) library.Filter {
	if !all {
		f.Statuses = []library.Status{library.StatusConfirmed, library.StatusDuplicate}
	}
	return f
}

// payments are the statement lines that paid a receipt, sure or confirmed
// (a proposal is not a payment yet).
func payments(l *library.Library, id int64) ([]export.Payment, error) {
	lines, err := l.LinesForReceipt(id)
	if err != nil {
		return nil, err
	}
	var out []export.Payment
	for _, ln := range lines {
		if ln.MatchState != library.MatchAutomatic && ln.MatchState != library.MatchConfirmed {
			continue
		}
		text := ln.Account + ": " + ln.Description
		if ln.Reference != "" {
			text += " (" + ln.Reference + ")"
		}
		out = append(out, export.Payment{Date: ln.Date, Line: text})
	}
	return out, nil
}

// PresetRequest is what to export: the period ("" for all), whether to
// include receipts not yet confirmed, one line per item instead of one per
// tax rate, and the originals' zip.
type PresetRequest struct {
	Period             string
	IncludeUnconfirmed bool
	Itemised           bool
	Attachments        bool
	// Rates convert other currencies for MYOB and QuickBooks bank uploads
	// (units of the client's currency for one of each).
	Rates map[string]decimal.Decimal
}

// ExportPreset writes a client's confirmed receipts in period ("" for
// all) as the preset's import file at path, with the originals' zip beside
// it when attachments is set. The window uses it.
func ExportPreset(l *library.Library, p export.Preset, period, path string, attachments bool) (export.Stats, error) {
	return ExportPresetWith(l, p, path, PresetRequest{Period: period, Attachments: attachments})
}

// ExportPresetWith writes the import file req asks for. Receipts still
// being read or never read are left out; unconfirmed ones are left out
// (counted in Stats.Unconfirmed) unless req includes them, and those the
// target cannot take are listed in Stats.LeftOut with the reason. The
// check's problems come back as *export.CheckError, and then nothing was
// written; so does *export.NothingToExportError when nothing is left.
func ExportPresetWith(l *library.Library, p export.Preset, path string, req PresetRequest) (export.Stats, error) {
	rows, books, err := presetInput(l, req.Period)
	if err != nil {
		return export.Stats{}, err
	}
	opt := export.PresetOptions{Books: books, Itemised: req.Itemised, IncludeUnconfirmed: req.IncludeUnconfirmed, Rates: req.Rates}
	if req.Attachments {
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

// presetInput reads the receipts a preset exports in period, with the
// books: those read, and those marked as duplicates (left out and counted).
func presetInput(l *library.Library, period string) ([]export.Coded, export.Books, error) {
	f := library.Filter{Statuses: []library.Status{library.StatusExtracted, library.StatusNeedsReview, library.StatusConfirmed, library.StatusDuplicate}}
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
