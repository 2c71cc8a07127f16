package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/export"
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

func (u *UI) showExport() {
	period := widget.NewEntry()
	period.SetPlaceHolder("all dates, or 2025-Q3, 2025-07, FY2025")
	all := widget.NewCheck("Include receipts not yet confirmed", nil)
	format := widget.NewRadioGroup([]string{"Excel workbook (.xlsx)", "CSV (.csv)"}, nil)
	format.SetSelected("Excel workbook (.xlsx)")
	dialog.ShowForm("Export", "Choose file…", "Cancel", []*widget.FormItem{
		widget.NewFormItem("Period", period), widget.NewFormItem("", all), widget.NewFormItem("Format", format),
	}, func(ok bool) {
		if !ok {
			return
		}
		ext := ".xlsx"
		if strings.HasPrefix(format.Selected, "CSV") {
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
			st, err := u.ExportTo(path, period.Text, all.Checked)
			if err != nil {
				u.showError(err)
				return
			}
			dialog.ShowInformation("Exported", fmt.Sprintf("%d receipts and %d line items written to\n%s", st.Receipts, st.Lines, path), u.win)
		}, u.win)
		save.SetFileName(fmt.Sprintf("receipts-%s%s", time.Now().Format("2006-01-02"), ext))
		save.Show()
	}, u.win)
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
