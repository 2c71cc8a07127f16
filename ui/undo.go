package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// fieldLabel names a field path as the form does ("Total", "Line 2: Line total").
func fieldLabel(path string) string {
	if library.IsDuplicateField(path) {
		return "Duplicate"
	}
	for _, f := range receipt.Fields {
		if f.Path == path {
			return f.Label
		}
	}
	for _, table := range []struct {
		name, row string
		cols      []receipt.FieldSpec
	}{{"line_items", "Line", receipt.LineItemFields}, {"tax_lines", "Tax line", receipt.TaxLineFields}} {
		var i int
		var col string
		if n, _ := fmt.Sscanf(strings.Replace(path, "].", "] ", 1), table.name+"[%d] %s", &i, &col); n == 2 {
			for _, c := range table.cols {
				if c.Path == col {
					col = c.Label
				}
			}
			return fmt.Sprintf("%s %d: %s", table.row, i+1, col)
		}
	}
	return path
}

func shownValue(v string) string {
	if v == "" {
		return "(empty)"
	}
	if r := []rune(v); len(r) > 24 {
		return string(r[:23]) + "…" // whole letters: a byte cut showed a broken glyph
	}
	return v
}

// editText says what an edit did, the new value first so a cut line still
// shows it: "#5 Total: 12.50 (was 9.00)".
func editText(e library.Edit) string {
	return fmt.Sprintf("#%d %s: %s (was %s)", e.ReceiptID, fieldLabel(e.Field), shownValue(inWords(e.Field, e.New)), shownValue(inWords(e.Field, e.Old)))
}

// Undo puts back the newest edit still standing, whichever receipt it was
// made on, and shows that receipt. With nothing to undo it says so quietly.
func (u *UI) Undo() {
	u.form.flush()
	e, ok, err := u.svc.Lib.UndoLatest(context.Background())
	if err != nil {
		u.showError(err)
		return
	}
	if !ok {
		u.say("Nothing to undo.")
		return
	}
	u.restoreBefore(e)
	u.Select(e.ReceiptID)
	u.Reload()
	if library.IsDuplicateField(e.Field) {
		u.say(fmt.Sprintf("Undone on #%d: %q is taken back.", e.ReceiptID, inWords(e.Field, e.New)))
	} else {
		u.say(fmt.Sprintf("Undone on #%d: %s is %s again.", e.ReceiptID, fieldLabel(e.Field), shownValue(inWords(e.Field, e.Old))))
	}
	u.showLastEdit()
	u.changed()
}

// showLastEdit puts the edit the next undo would revert under the review buttons.
func (u *UI) showLastEdit() {
	edits, err := u.svc.Lib.UndoableEdits(1)
	if err != nil || len(edits) == 0 {
		u.form.lastEdit.SetText("No edits to undo.")
		return
	}
	u.form.lastEdit.SetText("Last edit: " + editText(edits[0]))
}

// showEdits lists the latest edits still standing; choosing one shows its receipt.
func (u *UI) showEdits() {
	u.form.flush()
	edits, err := u.svc.Lib.UndoableEdits(50)
	if err != nil {
		u.showError(err)
		return
	}
	var d dialog.Dialog
	var content fyne.CanvasObject
	if len(edits) == 0 {
		content = widget.NewLabel("No edits yet: what you type into a receipt shows here, newest first.")
	} else {
		list := widget.NewList(func() int { return len(edits) },
			func() fyne.CanvasObject {
				l := widget.NewLabel("")
				l.Truncation = fyne.TextTruncateEllipsis
				return l
			},
			func(i widget.ListItemID, o fyne.CanvasObject) {
				o.(*widget.Label).SetText(edits[i].At.Local().Format("15:04  ") + editText(edits[i]))
			})
		list.OnSelected = func(i widget.ListItemID) {
			u.Select(edits[i].ReceiptID)
			u.FocusField(edits[i].Field)
			d.Hide()
		}
		note := widget.NewLabel("Newest first. Ctrl+Z undoes the top one; choose one to see its receipt.")
		note.Wrapping = fyne.TextWrapWord
		content = container.NewBorder(note, nil, nil, nil, list)
	}
	d = dialog.NewCustom("Your edits", "Close", content, u.win)
	d.Resize(fyne.NewSize(620, 460))
	d.Show()
}

// rememberBefore keeps, for this session, how a field stood before the
// edit just saved (value, source, confidence, box), so that undoing the
// edit brings its unsure mark back.
func (u *UI) rememberBefore(id int64, path string, before receipt.Receipt) {
	edits, err := u.svc.Lib.UndoableEdits(1)
	if err != nil || len(edits) == 0 || edits[0].ReceiptID != id || edits[0].Field != path {
		return
	}
	var field receipt.Receipt
	if receipt.CopyField(&field, &before, path) != nil {
		return
	}
	u.mu.Lock()
	if u.before == nil {
		u.before = map[int64]receipt.Receipt{}
	}
	u.before[edits[0].HistoryID] = field
	u.mu.Unlock()
}

func (u *UI) restoreBefore(e library.Edit) {
	u.mu.Lock()
	field, ok := u.before[e.HistoryID]
	delete(u.before, e.HistoryID)
	u.mu.Unlock()
	if ok {
		if err := u.svc.Lib.RestoreField(context.Background(), e.ReceiptID, e.Field, field); err != nil {
			u.showError(err)
		}
	}
}
