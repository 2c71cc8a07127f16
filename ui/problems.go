package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/export"
	"github.com/shoebox-app/shoebox/internal/plain"
)

// problemsWindow lists what an accounting program would reject, in a
// window of its own beside the main one, so it stays open while the
// bookkeeper fixes one problem after another (issue 40 item 8: the list
// closed on Show, and the next problem had to be found again). After each
// change in the main window it checks again and marks what is fixed.
type problemsWindow struct {
	u     *UI
	win   fyne.Window
	head  *widget.Label
	rows  []problemRow
	check func() ([]export.Problem, error)
}

type problemRow struct {
	problem export.Problem
	text    *widget.Label
	show    *widget.Button
	fixed   bool
}

// showProblems opens (or fills again) the problems window for a refused
// export; retry exports again, check lists the problems as they stand.
func (u *UI) showProblems(ce *export.CheckError, retry func(), check func() ([]export.Problem, error)) {
	if u.problems != nil {
		u.problems.win.Close()
	}
	pw := &problemsWindow{u: u, check: check, win: u.app.NewWindow("Not exported yet — " + ce.Preset.Title())}
	list := container.NewVBox()
	for _, pr := range ce.Problems {
		pr := pr
		row := problemRow{problem: pr, text: widget.NewLabel(pr.String())}
		row.text.Wrapping = fyne.TextWrapWord
		jump := fyne.CanvasObject(layout.NewSpacer()) // or a button below
		switch {
		case pr.ReceiptID != 0:
			row.show = widget.NewButton("Show", func() {
				u.Select(pr.ReceiptID)
				u.focusProblem(pr.Field)
				u.win.RequestFocus()
			})
			jump = row.show
		case pr.Field == "settings":
			row.show = widget.NewButton("Settings", func() { u.ShowSettings("Country & tax") })
			jump = row.show
		}
		pw.rows = append(pw.rows, row)
		list.Add(container.NewBorder(nil, nil, nil, jump, row.text))
	}
	pw.head = widget.NewLabel(fmt.Sprintf("%s would reject %d %s, so nothing was written. Fix them here one by one "+
		"(this list stays open and marks each fixed), then export again.",
		ce.Preset.Title(), len(ce.Problems), plain.Word(len(ce.Problems), "thing", "things")))
	pw.head.Wrapping = fyne.TextWrapWord
	again := widget.NewButton("Export again", func() { retry() })
	again.Importance = widget.HighImportance
	closeBtn := widget.NewButton("Close", func() { pw.win.Close() })
	pw.win.SetContent(container.NewBorder(pw.head, container.NewHBox(layout.NewSpacer(), closeBtn, again), nil, nil, container.NewVScroll(list)))
	pw.win.SetOnClosed(func() {
		if u.problems == pw {
			u.problems = nil
		}
	})
	closeOnEscape(pw.win, pw.win.Close)
	pw.win.Resize(fyne.NewSize(640, 460))
	u.problems = pw
	pw.win.Show()
}

// recheck checks the export again and marks the problems gone as fixed.
func (pw *problemsWindow) recheck() {
	now, err := pw.check()
	if err != nil {
		return
	}
	open := map[string]bool{}
	for _, pr := range now {
		open[problemKey(pr)] = true
	}
	left := 0
	for i := range pw.rows {
		r := &pw.rows[i]
		fixed := !open[problemKey(r.problem)]
		if !fixed {
			left++
		}
		if fixed == r.fixed {
			continue
		}
		r.fixed = fixed
		if fixed {
			r.text.SetText("✓ Fixed: " + r.problem.String())
			r.text.Importance = widget.SuccessImportance
		} else {
			r.text.SetText(r.problem.String())
			r.text.Importance = widget.MediumImportance
		}
		r.text.Refresh()
	}
	if left == 0 {
		pw.head.SetText("Everything on this list is fixed: export again to write the file.")
	} else {
		pw.head.SetText(fmt.Sprintf("%d of %d still to fix; nothing was written yet. Each is marked as you fix it.", left, len(pw.rows)))
	}
}

// problemKey tells a problem apart from the others: the receipt and field
// it is on, or its words where it is on none.
func problemKey(p export.Problem) string {
	if p.ReceiptID == 0 && p.Field == "" {
		return p.Message
	}
	return fmt.Sprintf("%d/%s", p.ReceiptID, p.Field)
}

// changed tells the problems window, if one is open, that the library
// changed (an edit saved, a receipt confirmed, coding set, an undo).
func (u *UI) changed() {
	if u.problems != nil {
		u.problems.recheck()
	}
}
