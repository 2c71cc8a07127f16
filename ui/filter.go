package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// filterBar narrows the list by status, period and text.
type filterBar struct {
	u      *UI
	status *widget.Select
	period *widget.Entry
	text   *widget.Entry
}

const allStatuses = "All receipts"

func newFilterBar(u *UI) *filterBar {
	f := &filterBar{u: u}
	opts := []string{allStatuses}
	for _, s := range library.Statuses {
		opts = append(opts, statusText(s))
	}
	f.status = widget.NewSelect(opts, func(string) { f.changed() })
	f.status.SetSelected(allStatuses)
	f.period = widget.NewEntry()
	f.period.SetPlaceHolder("Period: 2025-Q3, FY2025…")
	f.period.OnChanged = func(string) { f.changed() }
	f.text = widget.NewEntry()
	f.text.SetPlaceHolder("Search supplier, total…")
	f.text.OnChanged = func(string) { f.changed() }
	return f
}

func (f *filterBar) object() fyne.CanvasObject {
	return container.NewVBox(f.status, container.NewGridWithColumns(2, f.period, f.text))
}

func (f *filterBar) changed() {
	if f.u.list != nil && f.u.filter == f {
		f.u.Reload()
	}
}

func (f *filterBar) value() library.Filter {
	var flt library.Filter
	if f.status != nil {
		for _, s := range library.Statuses {
			if statusText(s) == f.status.Selected {
				flt.Statuses = []library.Status{s}
			}
		}
	}
	if f.period != nil && strings.TrimSpace(f.period.Text) != "" {
		if p, err := receipt.ParsePeriod(strings.TrimSpace(f.period.Text), f.u.svc.Lib.Locale().FYStartMonth); err == nil {
			flt.Period = &p
		}
	}
	if f.text != nil {
		flt.Text = strings.TrimSpace(f.text.Text)
	}
	return flt
}

func countsText(c map[library.Status]int) string {
	var parts []string
	total := 0
	for _, s := range library.Statuses {
		total += c[s]
		if c[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[s], statusText(s)))
		}
	}
	if total == 0 {
		return "No receipts yet: drop files or folders anywhere on this window."
	}
	return fmt.Sprintf("%d receipts: %s", total, strings.Join(parts, ", "))
}
