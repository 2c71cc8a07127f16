package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
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
	f := clients.ExportFilter(library.Filter{}, all)
	if strings.TrimSpace(period) != "" {
		p, err := receipt.ParsePeriod(strings.TrimSpace(period), loc.FYStartMonth)
		if err != nil {
			return export.Stats{}, err
		}
		f.Period = &p
	}
	// The client's books name each receipt's account and tax codes in the
	// workbook and group its tax summary by tax code, as the CLI's do.
	books, err := clients.Books(u.svc.Lib)
	if err != nil {
		return export.Stats{}, err
	}
	rows, iterErr := clients.Rows(u.svc.Lib, f)
	opt := export.Options{Locale: loc, SummaryBy: receipt.ByQuarter, Books: &books}
	var st export.Stats
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		// A bookkeeper opens the window's CSV in a spreadsheet: Excel
		// on Windows reads a supplier's Ø or é right only after a byte
		// order mark (the CLI leaves it to --bom, for scripts).
		opt.BOM = true
		st, err = export.WriteCSV(path, rows, opt)
	} else {
		st, err = export.WriteXLSX(path, rows, opt)
	}
	if err == nil {
		err = iterErr()
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
			attach.Show()
		} else {
			attach.Hide()
		}
	})
	format.SetSelected("Excel workbook (.xlsx)")
	dialog.ShowForm("Export", "Next: where to save…", "Cancel", []*widget.FormItem{
		widget.NewFormItem("Format", format), widget.NewFormItem("Period", period),
		widget.NewFormItem("", container.NewVBox(all, attach)),
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
		name := "receipts"
		if isPreset {
			name = string(preset)
		}
		u.chooseExportFile(fmt.Sprintf("%s-%s%s", name, time.Now().Format("2006-01-02"), ext), ext, func(path string) {
			if isPreset {
				u.exportPreset(preset, clients.PresetRequest{Period: period.Text, IncludeUnconfirmed: all.Checked, Attachments: attach.Checked}, path)
				return
			}
			st, err := u.ExportTo(path, period.Text, all.Checked)
			if err != nil {
				u.showError(err)
				return
			}
			dialog.ShowInformation("Exported", exportedText(st, path), u.win)
		})
	}, u.win)
}

// exportedText says what an export wrote and where (a CSV's line items go
// to a file of their own beside it), and the copies it left out.
func exportedText(st export.Stats, path string) string {
	receipts, lines := plain.Count(st.Receipts, "receipt", "receipts"), plain.Count(st.Lines, "line item", "line items")
	msg := fmt.Sprintf("%s and %s written to\n%s", receipts, lines, path)
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		msg = fmt.Sprintf("%s written to\n%s\nand %s to\n%s", receipts, path, lines, export.LinesPath(path))
	}
	return msg + duplicatesNote(st)
}

// duplicatesNote says which receipts an export left out as copies of others.
func duplicatesNote(st export.Stats) string {
	if dups := st.DuplicatesText(); dups != "" {
		return "\n\n" + dups + ": each is a copy of another receipt, so the purchase counts once."
	}
	return ""
}

// settingExportFolder is the folder the last export was saved in.
const settingExportFolder = "ui.export_folder"

// chooseExportFile asks where to save an export: a folder (typed, or
// chosen) and a file name. Unlike the toolkit's save dialog, which creates
// (and empties) the file as soon as it is chosen, it creates nothing: the
// export alone writes the file, whole or not at all, so a refused export
// leaves no empty file behind (issue 40 item 8).
func (u *UI) chooseExportFile(name, ext string, write func(path string)) {
	folder := widget.NewEntry()
	folder.SetText(u.exportFolder())
	browse := widget.NewButton("Choose…", func() {
		d := dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
			if err == nil && l != nil {
				folder.SetText(l.Path())
			}
		}, u.win)
		if l, err := storage.ListerForURI(storage.NewFileURI(expandHome(folder.Text))); err == nil {
			d.SetLocation(l)
		}
		d.Show()
	})
	file := widget.NewEntry()
	file.SetText(name)
	d := dialog.NewForm("Save the export", "Export", "Cancel", []*widget.FormItem{
		widget.NewFormItem("In the folder", container.NewBorder(nil, nil, nil, browse, folder)),
		widget.NewFormItem("File name", file),
	}, func(ok bool) {
		if !ok {
			return
		}
		dir, fn := expandHome(strings.TrimSpace(folder.Text)), strings.TrimSpace(file.Text)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			u.showError(fmt.Errorf("there is no folder %s: choose one that exists", dir))
			return
		}
		if fn == "" || strings.ContainsRune(fn, filepath.Separator) {
			u.showError(fmt.Errorf("give the file a name (without a folder)"))
			return
		}
		if !strings.EqualFold(filepath.Ext(fn), ext) {
			fn += ext
		}
		path := filepath.Join(dir, fn)
		u.saveSettings(settingExportFolder, dir)
		if _, err := os.Stat(path); err == nil {
			dialog.ShowConfirm("Replace "+fn+"?", "There is a file called "+fn+" in that folder already.\n"+
				"Replace it? It is replaced only once the export is written whole.", func(yes bool) {
				if yes {
					write(path)
				}
			}, u.win)
			return
		}
		write(path)
	}, u.win)
	d.Resize(fyne.NewSize(640, d.MinSize().Height))
	d.Show()
}

// exportFolder is where the next export goes: the last export's folder,
// else the home folder.
func (u *UI) exportFolder() string {
	if d := u.svc.Lib.Setting(settingExportFolder); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return home
	}
	return "."
}

func expandHome(p string) string {
	if strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[2:])
		}
	}
	return p
}

// exportPreset writes an accounting program's import file; when the check
// finds what the program would reject, nothing is written and a window of
// its own lists each problem with a button to the receipt and field to
// fix, and marks each fixed as the fixes are made.
func (u *UI) exportPreset(p export.Preset, req clients.PresetRequest, path string) {
	u.form.flush()
	u.form.coding.save()
	st, err := clients.ExportPresetWith(u.svc.Lib, p, path, req)
	var ce *export.CheckError
	switch {
	case errors.As(err, &ce):
		u.showProblems(ce, func() { u.exportPreset(p, req, path) }, func() ([]export.Problem, error) {
			return clients.CheckPreset(u.svc.Lib, p, req.Period)
		})
	case err != nil:
		u.showError(err)
	default:
		if u.problems != nil {
			u.problems.win.Close()
		}
		dialog.ShowInformation("Exported", presetWritten(p, st, path, req.Attachments), u.win)
	}
}

// presetWritten says what an import file holds and what it left out.
func presetWritten(p export.Preset, st export.Stats, path string, attachments bool) string {
	msg := fmt.Sprintf("%s and %s written for %s to\n%s", plain.Count(st.Receipts, "receipt", "receipts"), plain.Count(st.Lines, "line", "lines"), p.Title(), path)
	if attachments {
		msg += "\nOriginals: " + export.AttachmentsPath(path)
	}
	if st.Unconfirmed > 0 {
		msg += fmt.Sprintf("\n\n%s not confirmed yet %s left out: confirm %s, or tick \"Include receipts not yet confirmed\".",
			plain.Count(st.Unconfirmed, "receipt", "receipts"), plain.Word(st.Unconfirmed, "was", "were"), plain.Word(st.Unconfirmed, "it", "them"))
	}
	msg += duplicatesNote(st)
	var other []string
	for _, pr := range st.LeftOut {
		if pr.Field != "status" && pr.Field != "duplicate" {
			other = append(other, pr.String())
		}
	}
	if len(other) > 0 {
		msg += "\n\nAlso left out:\n" + joinMax(other, 5)
	}
	if len(st.NewContacts) > 0 {
		msg += fmt.Sprintf("\n\n%s will add %s as new %s: %s", p.Title(), plain.Count(len(st.NewContacts), "supplier", "suppliers"),
			plain.Word(len(st.NewContacts), "contact", "contacts"), joinMax(st.NewContacts, 5))
	}
	return msg
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
