package ui

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/clients"
	"github.com/shoebox-app/shoebox/export"
	"github.com/shoebox-app/shoebox/internal/plain"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

func (u *UI) showError(err error) {
	if err == nil {
		return
	}
	dialog.ShowError(err, u.win)
}

// ExportTo writes the receipts the exporter chose: confirmed only unless all
// is set, in the period if one is given, as .xlsx or .csv by extension.
func (u *UI) ExportTo(path, period string, all bool) (export.Stats, error) {
	u.form.flush()
	loc := u.svc.Lib.Locale()
	f := library.Filter{}
	if !all {
		f.Statuses = []library.Status{library.StatusConfirmed}
	}
	if strings.TrimSpace(period) != "" {
		p, err := receipt.ParsePeriod(strings.TrimSpace(period), loc.FYStartMonth)
		if err != nil {
			return export.Stats{}, err
		}
		f.Period = &p
	}
	var iterErr error
	rows := func(yield func(export.Row) bool) {
		for rec, err := range u.svc.Lib.Records(f) {
			if err != nil {
				iterErr = err
				return
			}
			if !yield(export.Row{ID: rec.ID, Status: string(rec.Status), Receipt: rec.Receipt, Findings: rec.Findings, Original: u.svc.Lib.OriginalPath(rec), Name: rec.OriginalName, SHA256: rec.SHA256}) {
				return
			}
		}
	}
	opt := export.Options{Locale: loc, SummaryBy: receipt.ByQuarter}
	var st export.Stats
	var err error
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		st, err = export.WriteCSV(path, rows, opt)
	} else {
		st, err = export.WriteXLSX(path, rows, opt)
	}
	if err == nil {
		err = iterErr
	}
	return st, err
}

// exportFormats are the export dialog's choices: the workbook, CSV, and
// each accounting program's import file.
func exportFormats() []string {
	out := []string{"Excel workbook (.xlsx)", "CSV (.csv)"}
	for _, p := range export.Presets {
		out = append(out, p.Title()+" ("+p.Ext()+")")
	}
	return out
}

// presetOf is the preset a format choice names, if it names one.
func presetOf(choice string) (export.Preset, bool) {
	for _, p := range export.Presets {
		if strings.HasPrefix(choice, p.Title()+" (") {
			return p, true
		}
	}
	return "", false
}

func (u *UI) showExport() {
	period := widget.NewEntry()
	period.SetPlaceHolder("all dates, or 2025-Q3, 2025-07, FY2025")
	all := widget.NewCheck("Include receipts not yet confirmed", nil)
	attach := widget.NewCheck("Also the original files in a zip, named by reference", nil)
	attach.Hide()
	format := widget.NewSelect(exportFormats(), func(s string) {
		if _, ok := presetOf(s); ok {
			all.Hide()
			attach.Show()
		} else {
			all.Show()
			attach.Hide()
		}
	})
	format.SetSelected("Excel workbook (.xlsx)")
	dialog.ShowForm("Export", "Choose file…", "Cancel", []*widget.FormItem{
		widget.NewFormItem("Format", format), widget.NewFormItem("Period", period), widget.NewFormItem("", all),
		widget.NewFormItem("", attach),
	}, func(ok bool) {
		if !ok {
			return
		}
		preset, isPreset := presetOf(format.Selected)
		ext := ".xlsx"
		switch {
		case isPreset:
			ext = preset.Ext()
		case strings.HasPrefix(format.Selected, "CSV"):
			ext = ".csv"
		}
		save := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil || w == nil {
				return
			}
			path := w.URI().Path()
			w.Close()
			if !strings.EqualFold(filepath.Ext(path), ext) {
				path += ext
			}
			if isPreset {
				u.exportPreset(preset, period.Text, path, attach.Checked)
				return
			}
			st, err := u.ExportTo(path, period.Text, all.Checked)
			if err != nil {
				u.showError(err)
				return
			}
			dialog.ShowInformation("Exported", fmt.Sprintf("%d receipts and %d line items written to\n%s", st.Receipts, st.Lines, path), u.win)
		}, u.win)
		name := "receipts"
		if isPreset {
			name = string(preset)
		}
		save.SetFileName(fmt.Sprintf("%s-%s%s", name, time.Now().Format("2006-01-02"), ext))
		save.Show()
	}, u.win)
}

// exportPreset writes an accounting program's import file; when the check
// finds what the program would reject, nothing is written and the list
// shows each problem with a button to the receipt and field to fix.
func (u *UI) exportPreset(p export.Preset, period, path string, attachments bool) {
	u.form.flush()
	u.form.coding.save()
	st, err := clients.ExportPreset(u.svc.Lib, p, period, path, attachments)
	var ce *export.CheckError
	switch {
	case errors.As(err, &ce):
		u.showProblems(ce)
	case err != nil:
		u.showError(err)
	default:
		msg := fmt.Sprintf("%d receipts and %d lines written for %s to\n%s", st.Receipts, st.Lines, p.Title(), path)
		if attachments {
			msg += "\nOriginals: " + export.AttachmentsPath(path)
		}
		dialog.ShowInformation("Exported", msg, u.win)
	}
}

// showProblems lists what an accounting program would reject, each with a
// button that opens the receipt at the field to fix.
func (u *UI) showProblems(ce *export.CheckError) {
	list := container.NewVBox()
	var d dialog.Dialog
	for _, pr := range ce.Problems {
		pr := pr
		text := widget.NewLabel(pr.String())
		text.Wrapping = fyne.TextWrapWord
		var jump fyne.CanvasObject = layout.NewSpacer()
		switch {
		case pr.ReceiptID != 0:
			jump = widget.NewButton("Show", func() {
				d.Hide()
				u.Select(pr.ReceiptID)
				u.focusProblem(pr.Field)
			})
		case pr.Field == "settings":
			jump = widget.NewButton("Settings", func() { d.Hide(); u.ShowSettings("Country & tax") })
		}
		list.Add(container.NewBorder(nil, nil, nil, jump, text))
	}
	head := widget.NewLabel(fmt.Sprintf("%s would reject %d %s, so nothing was written. Fix them and export again.",
		ce.Preset.Title(), len(ce.Problems), plain.Word(len(ce.Problems), "thing", "things")))
	head.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustom("Not exported yet", "Close", container.NewBorder(head, nil, nil, nil, container.NewVScroll(list)), u.win)
	d.Resize(fyne.NewSize(640, 460))
	d.Show()
}

// focusProblem puts the cursor where an export problem is fixed.
func (u *UI) focusProblem(field string) {
	switch {
	case field == "account" || strings.HasSuffix(field, ".account"):
		u.win.Canvas().Focus(u.form.coding.account)
	case field == "tax_code" || strings.HasSuffix(field, ".tax_code"):
		u.win.Canvas().Focus(u.form.coding.tax)
	case field != "" && field != "status":
		u.FocusField(field)
	}
}

func shortPath(p string) string {
	dir, file := filepath.Split(p)
	return filepath.Join(filepath.Base(dir), file)
}

func joinMax(lines []string, n int) string {
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… and %d more", len(lines)-n)
}

// reload re-reads the rows under the current filter (after an edit changed one).
func (l *receiptList) reload() {
	rows, err := l.u.svc.Lib.List(l.u.filter.value())
	if err != nil {
		return
	}
	l.set(rows)
}
