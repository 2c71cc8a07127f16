package ui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// saveDelay is how long typing must pause before a field is saved; leaving
// the receipt, confirming or closing saves at once.
const saveDelay = 600 * time.Millisecond

// DefaultCategories seed the category list; supplier memory and the user add more.
var DefaultCategories = []string{
	"Advertising", "Bank fees", "Computer & software", "Entertainment", "Fuel", "Hardware & tools",
	"Meals", "Motor vehicle", "Office supplies", "Postage", "Professional fees", "Rent", "Repairs", "Stationery",
	"Subscriptions", "Telephone & internet", "Travel", "Utilities", "Other",
}

// fieldEntry is an entry that says when it gets focus, so the viewer can
// outline the field's box.
type fieldEntry struct {
	widget.Entry
	onFocus, onBlur func()
}

func newFieldEntry(onFocus func()) *fieldEntry {
	e := &fieldEntry{onFocus: onFocus}
	e.ExtendBaseWidget(e)
	return e
}

func (e *fieldEntry) FocusGained() {
	e.Entry.FocusGained()
	if e.onFocus != nil {
		e.onFocus()
	}
}

func (e *fieldEntry) FocusLost() {
	e.Entry.FocusLost()
	if e.onBlur != nil {
		e.onBlur()
	}
}

type fieldRow struct {
	spec  receipt.FieldSpec
	mark  *fieldMark
	label *widget.Label
	// validator is the entry's check of what is typed; it is off while
	// the field is marked unsure, so no ✓ shows beside a "?".
	validator fyne.StringValidator
	entry     *fieldEntry   // text-like fields
	check     *widget.Check // tax_inclusive
	sel       *widget.Select
}

// form is the right-hand panel: every field as the right input, findings
// beside the fields they involve, line items, and the review buttons.
type form struct {
	u        *UI
	rows     map[string]*fieldRow
	order    []string
	findings *widget.Label
	title    *widget.Label
	lines    *fyne.Container
	root     fyne.CanvasObject
	// lastEdit names the edit Ctrl+Z would undo.
	lastEdit *widget.Label

	mu      sync.Mutex
	rec     library.Record
	loading bool
	pending map[string]string
	timer   *time.Timer
	lineEnt map[string]*fieldEntry
	// lineMarks are the items' row marks: a question icon where one is unsure.
	lineMarks []*widget.Icon
	scroll    *container.Scroll
	tip       *tipLayer
	// steady keeps the findings' height while a receipt is on screen.
	steady *steadyLayout
	// coding is the account and tax code the receipt is booked to.
	coding *codingRow
	// paidBy is the statement line that paid the receipt (statements.go).
	paidBy *widget.Label
	// markDup marks the receipt as a copy of another; notDup, shown only
	// while the receipt is linked to another as a duplicate (a guess, or
	// marked), says it is not one.
	markDup, notDup *widget.Button
}

func newForm(u *UI) *form {
	f := &form{u: u, rows: map[string]*fieldRow{}, pending: map[string]string{}, lineEnt: map[string]*fieldEntry{}}
	f.title = widget.NewLabelWithStyle("No receipt selected", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	f.title.Wrapping = fyne.TextWrapWord
	f.findings = widget.NewLabel("")
	f.findings.Wrapping = fyne.TextWrapWord
	f.tip = newTipLayer()
	grid := container.New(newFormLayout())
	for _, spec := range receipt.Fields {
		spec := spec
		row := &fieldRow{spec: spec, label: widget.NewLabel(spec.Label), mark: newFieldMark(f.tip)}
		row.label.Wrapping = fyne.TextWrapWord
		var input fyne.CanvasObject
		switch spec.Kind {
		case receipt.KindBool:
			row.check = widget.NewCheck("", func(b bool) { f.edited(spec.Path, strconv.FormatBool(b)) })
			input = row.check
		case receipt.KindDocType:
			var opts []string
			for _, d := range receipt.DocTypes {
				opts = append(opts, d.Name())
			}
			row.sel = widget.NewSelect(opts, func(s string) {
				if d, ok := receipt.DocTypeNamed(s); ok {
					f.edited(spec.Path, string(d))
				}
			})
			input = row.sel
		default:
			row.entry = newFieldEntry(func() { f.focused(spec.Path) })
			row.entry.onBlur = func() { f.tip.hideFor(row.mark) }
			row.entry.OnChanged = func(s string) { f.edited(spec.Path, s) }
			row.validator = validatorFor(spec)
			row.entry.Validator = row.validator
			if spec.Path == "notes" || spec.Path == "supplier_address" || spec.Path == "payer_address" {
				row.entry.MultiLine = true
				row.entry.Wrapping = fyne.TextWrapWord
				row.entry.SetMinRowsVisible(3)
			}
			input = row.entry
			if spec.Path == "category" || spec.Path == "currency" {
				choices := DefaultCategories
				if spec.Path == "currency" {
					choices = receipt.KnownCurrencies
				}
				menu := widget.NewSelect(choices, func(s string) {
					if s != "" {
						row.entry.SetText(s)
					}
				})
				menu.PlaceHolder = "…"
				input = container.NewBorder(nil, nil, nil, menu, row.entry)
			}
		}
		f.rows[spec.Path] = row
		f.order = append(f.order, spec.Path)
		grid.Add(row.mark)
		grid.Add(row.label)
		grid.Add(input)
	}
	f.lines = container.NewVBox()
	f.coding = newCodingRow(f)
	f.markDup = widget.NewButton("Mark duplicate…", f.markDuplicate)
	f.notDup = widget.NewButton("Not a duplicate", f.notDuplicate)
	f.notDup.Hide()
	buttons := container.NewGridWithColumns(2,
		widget.NewButton("Confirm  (Ctrl+Enter)", u.ConfirmCurrent),
		widget.NewButton("Re-extract", u.Reextract),
		f.markDup, f.notDup,
		widget.NewButton("Undo  (Ctrl+Z)", u.Undo),
	)
	f.steady = &steadyLayout{}
	f.paidBy = widget.NewLabel("")
	f.paidBy.Wrapping = fyne.TextWrapWord
	body := container.NewVBox(f.title, f.paidBy, container.New(f.steady, f.findings), grid, f.coding.object(),
		widget.NewLabelWithStyle("Line items", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), f.lines,
		widget.NewButton("Add line", f.addLine))
	f.scroll = container.NewVScroll(body)
	f.scroll.OnScrolled = func(fyne.Position) { f.tip.hide() }
	f.lastEdit = widget.NewLabel("No edits to undo.")
	f.lastEdit.Truncation = fyne.TextTruncateEllipsis
	history := container.NewBorder(nil, nil, nil, widget.NewButton("Your edits…", u.showEdits), f.lastEdit)
	f.root = container.NewBorder(nil, container.NewVBox(buttons, history), nil, nil, container.NewStack(f.scroll, newWheelLayer(f.scroll), f.tip.root))
	return f
}

func (f *form) object() fyne.CanvasObject { return f.root }

func validatorFor(spec receipt.FieldSpec) fyne.StringValidator {
	switch spec.Kind {
	case receipt.KindAmount:
		return func(s string) error {
			if strings.TrimSpace(s) == "" {
				return nil
			}
			_, err := receipt.ParseAmount(s)
			return err
		}
	case receipt.KindDate:
		return func(s string) error {
			if strings.TrimSpace(s) == "" {
				return nil
			}
			_, err := receipt.ParseDate(s, receipt.DMY)
			return err
		}
	}
	return nil
}

// show fills the form with a receipt, discarding nothing: pending edits were flushed by Select.
func (f *form) show(rec library.Record) {
	f.mu.Lock()
	switched := f.rec.ID != rec.ID
	f.rec = rec
	f.loading = true
	f.mu.Unlock()
	if switched {
		f.steady.reset()
		f.tip.hide()
		f.scroll.ScrollToTop() // title and warnings first
	}
	defer func() { f.mu.Lock(); f.loading = false; f.mu.Unlock() }()

	f.showTitle(rec)
	f.showDuplicate(rec)
	f.paidBy.SetText(statementLineText(f.u.svc.Lib, rec.ID))
	for _, path := range f.order {
		row := f.rows[path]
		v, _ := receipt.Get(&rec.Receipt, path)
		switch {
		case row.check != nil:
			row.check.SetChecked(v == "true")
		case row.sel != nil:
			row.sel.SetSelected(receipt.DocType(v).Name())
		default:
			v = inWords(path, v) // a tax ID's scheme shows in the label
			if row.spec.Kind == receipt.KindAmount {
				v = moneyText(v)
			}
			row.entry.SetText(v)
		}
	}
	f.markFields(rec)
	coding, err := f.u.svc.Lib.Coding(rec.ID)
	f.coding.show(f.u.svc.Lib, coding, err)
	f.showLines(rec, coding)
}

// showTitle names the receipt over the form and in the window's title, as
// it now stands (an edited supplier renames it at once).
func (f *form) showTitle(rec library.Record) {
	state := statusText(rec.Status)
	if rec.Status == library.StatusDuplicate {
		state = copyText(rec.DuplicateOf)
	}
	f.title.SetText(fmt.Sprintf("#%d  %s — %s", rec.ID, recordName(rec), state))
	f.u.win.SetTitle(fmt.Sprintf("#%d %s — %s", rec.ID, recordName(rec), f.u.baseTitle))
}

// markFields puts findings and low-confidence marks on the labels. A
// confirmed receipt was checked by a person: it shows no ? marks.
func (f *form) markFields(rec library.Record) {
	confirmed := rec.Status == library.StatusConfirmed
	flagged := map[string][]string{} // warnings: a check failed
	noted := map[string][]string{}   // notes (info) that hold nothing back
	var msgs []string
	for _, fd := range rec.Findings {
		icon, marks := "⚠", flagged
		if fd.Severity == receipt.Info {
			icon, marks = "•", noted
		}
		for _, p := range fd.Fields {
			marks[p] = append(marks[p], fd.Message)
		}
		msgs = append(msgs, icon+" "+fd.Message)
	}
	if rec.FailReason != "" {
		msgs = append([]string{"✖ Reading failed: " + rec.FailReason}, msgs...)
	}
	f.findings.SetText(strings.Join(msgs, "\n"))
	for _, path := range f.order {
		row := f.rows[path]
		text := row.spec.Label
		if name := taxIDNames[rec.Receipt.SupplierTaxID.Value.Scheme]; path == "supplier_tax_id" && name != "" {
			text += " (" + name + ")"
		}
		row.label.SetText(text)
		set, conf, src, _, _ := receipt.Meta(&rec.Receipt, path)
		unsure := set && src != receipt.SourceUser && src != receipt.SourceRule && conf < library.LowConfidence
		weighed, trusted, evidence := fieldEvidence(&rec.Receipt, path)
		if weighed {
			unsure = !trusted
		}
		if confirmed {
			unsure, trusted = false, true
		}
		switch {
		case len(flagged[path]) > 0:
			row.mark.set(warningIcon(), strings.Join(flagged[path], "\n"))
			row.label.Importance = widget.DangerImportance
		case weighed && !trusted:
			row.mark.set(unsureIcon(), evidence+"\nCheck it against the scan, then correct it or confirm.")
			row.label.Importance = widget.WarningImportance
		case len(noted[path]) > 0 && !unsure:
			// A note ("more than 10 years old", "in EUR, not the
			// client's AUD") on a field read surely: worth a look, no
			// alarm on a receipt ready to confirm.
			row.mark.set(theme.InfoIcon(), strings.TrimSpace(strings.Join(noted[path], "\n")+"\n"+evidence))
			row.label.Importance = widget.MediumImportance
		case weighed:
			row.mark.set(theme.ConfirmIcon(), evidence)
			row.label.Importance = widget.MediumImportance
		case unsure:
			row.mark.set(unsureIcon(), "Read with little certainty: check it against the scan, then correct it or confirm.")
			row.label.Importance = widget.WarningImportance
		case set && src == receipt.SourceRule:
			row.mark.set(theme.HistoryIcon(), "Filled in from this supplier's earlier receipts.")
			row.label.Importance = widget.MediumImportance
		default:
			row.mark.set(nil, "")
			row.label.Importance = widget.MediumImportance
		}
		row.label.Refresh()
		if row.entry != nil {
			if unsure {
				row.entry.Validator = nil
			} else {
				row.entry.Validator = row.validator
			}
			row.entry.Refresh()
		}
	}
}

func (f *form) showLines(rec library.Record, coding library.Coding) {
	f.lines.RemoveAll()
	f.lineEnt = map[string]*fieldEntry{}
	f.lineMarks = nil
	for i := range rec.Receipt.LineItems {
		f.lines.Add(f.lineRow(rec, i, rec.Receipt.LineItems[i], coding))
	}
	if len(rec.Receipt.LineItems) == 0 {
		f.lines.Add(widget.NewLabel("No line items were read. Add lines if you need them."))
	}
	f.lines.Refresh()
}

func (f *form) lineRow(rec library.Record, i int, li receipt.LineItem, coding library.Coding) fyne.CanvasObject {
	var cells []fyne.CanvasObject
	for _, spec := range receipt.LineItemFields[:4] {
		path := fmt.Sprintf("line_items[%d].%s", i, spec.Path)
		e := newFieldEntry(func() { f.focused(path) })
		v, _ := receipt.Get(&receipt.Receipt{LineItems: []receipt.LineItem{li}}, fmt.Sprintf("line_items[0].%s", spec.Path))
		if spec.Path == "unit_price" || spec.Path == "line_total" {
			v = moneyText(v)
		}
		e.SetText(v)
		e.SetPlaceHolder(spec.Label)
		e.OnChanged = func(s string) { f.edited(path, s) }
		f.lineEnt[path] = e
		cells = append(cells, e)
	}
	remove := widget.NewButton("✕", func() {
		f.flush()
		if err := f.u.svc.Lib.RemoveRow(context.Background(), f.rec.ID, "line_items", i); err != nil {
			f.u.showError(err)
			return
		}
		f.u.Select(f.rec.ID)
	})
	// A mark before the row where an amount was mended or read unsure
	// (a 0 read as 8 undone because the items must add up): check it. A
	// blank icon keeps the rows' columns in line.
	mark := widget.NewIcon(nil)
	if lineItemUnsure(li) && rec.Status != library.StatusConfirmed {
		mark = widget.NewIcon(theme.QuestionIcon())
	}
	f.lineMarks = append(f.lineMarks, mark)
	// The line's own account and tax code, when it is booked apart from the receipt.
	book := widget.NewButton(lineCodingText(coding, i), func() { f.editLineCoding(i) })
	return container.NewBorder(nil, nil, mark, container.NewHBox(book, remove), container.New(&lineLayout{}, cells...))
}

// lineItemUnsure says whether one of a line item's numbers was read below
// the review's confidence and not typed by the user.
func lineItemUnsure(li receipt.LineItem) bool {
	for _, a := range []receipt.Amount{li.Quantity, li.UnitPrice, li.LineTotal} {
		if a.Set && a.Source != receipt.SourceUser && a.Source != receipt.SourceRule && a.Confidence < library.LowConfidence {
			return true
		}
	}
	return false
}

func (f *form) addLine() {
	f.flush()
	id := f.rec.ID
	if id == 0 {
		return
	}
	n := len(f.rec.Receipt.LineItems)
	if err := f.u.svc.Lib.EditField(context.Background(), id, fmt.Sprintf("line_items[%d].description", n), "New item"); err != nil {
		f.u.showError(err)
		return
	}
	f.u.Select(id)
}

func (f *form) focused(path string) {
	_, _, _, box, _ := receipt.Meta(&f.rec.Receipt, path)
	f.u.viewer.highlight(box)
	if row, ok := f.rows[path]; ok {
		f.tip.show(row.mark)
	}
}

// edited records a change and saves it when typing pauses.
func (f *form) edited(path, value string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.loading || f.rec.ID == 0 {
		return
	}
	if path == "supplier_tax_id" && f.rec.Receipt.SupplierTaxID.Value.Scheme != "" && !strings.Contains(value, ":") && value != "" {
		value = string(f.rec.Receipt.SupplierTaxID.Value.Scheme) + ":" + value
	}
	f.pending[path] = value
	if f.timer != nil {
		f.timer.Stop()
	}
	f.timer = time.AfterFunc(saveDelay, func() { onMain(f.flush) })
}

func (f *form) dirty() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.pending) > 0
}

// flush saves every pending edit now. A value that does not parse is kept
// on screen (the entry shows why) and not saved. It runs on the event loop:
// the pause after typing hands it there.
func (f *form) flush() {
	f.mu.Lock()
	if f.timer != nil {
		f.timer.Stop()
	}
	pending, id, before := f.pending, f.rec.ID, f.rec.Receipt
	f.pending = map[string]string{}
	f.mu.Unlock()
	if len(pending) == 0 || id == 0 {
		return
	}
	var errs []string
	for path, v := range pending {
		if err := f.u.svc.Lib.EditField(context.Background(), id, path, v); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		f.u.rememberBefore(id, path, before)
	}
	rec, err := f.u.svc.Lib.Get(id)
	if err != nil {
		return
	}
	f.mu.Lock()
	same := f.rec.ID == id
	if same {
		f.rec = rec
	}
	f.mu.Unlock()
	if same {
		f.showTitle(rec)
		f.showDuplicate(rec)
		f.markFields(rec)
		f.u.showLastEdit()
		if len(errs) > 0 {
			f.findings.SetText("Not saved: " + strings.Join(errs, "; ") + "\n" + f.findings.Text)
		}
	}
	f.u.list.reload()
	f.u.changed()
}

// showDuplicate offers "Not a duplicate" only while the receipt is linked
// to another as one: Shoebox's guess, or a person's mark.
func (f *form) showDuplicate(rec library.Record) {
	if rec.DuplicateOf != 0 {
		f.notDup.Show()
	} else {
		f.notDup.Hide()
	}
}

// markDuplicate asks which receipt the one on screen is a copy of and
// marks it: it leaves the receipts to check and every export.
func (f *form) markDuplicate() {
	f.flush()
	id := f.rec.ID
	if id == 0 {
		return
	}
	e := widget.NewEntry()
	e.SetPlaceHolder("receipt number, e.g. 12")
	if f.rec.DuplicateOf != 0 {
		e.SetText(strconv.FormatInt(f.rec.DuplicateOf, 10))
	}
	why := widget.NewLabel("This receipt is then left out of the receipts to check and of every export, so the purchase counts once.")
	why.Wrapping = fyne.TextWrapWord
	d := dialog.NewForm("Mark as a duplicate", "Mark", "Cancel", []*widget.FormItem{
		widget.NewFormItem("Same purchase as receipt #", e), widget.NewFormItem("", why),
	}, func(ok bool) {
		if !ok {
			return
		}
		other, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(e.Text), "#"), 10, 64)
		if err != nil {
			f.u.showError(fmt.Errorf("%q is not a receipt number", e.Text))
			return
		}
		f.judged(id, f.u.svc.Lib.MarkDuplicate(context.Background(), id, other),
			fmt.Sprintf("#%d is marked as a copy of #%d: it is left out of the receipts to check and of exports. Ctrl+Z takes it back.", id, other))
	}, f.u.win)
	d.Resize(fyne.NewSize(440, d.MinSize().Height)) // the number box was 35 px wide
	d.Show()
}

// notDuplicate says the receipt on screen is not the same purchase as the
// one it is linked to: Shoebox's guess is dismissed for good, or the mark
// is taken off and the receipt is back with the others.
func (f *form) notDuplicate() {
	f.flush()
	id, other, marked := f.rec.ID, f.rec.DuplicateOf, f.rec.Status == library.StatusDuplicate
	if id == 0 || other == 0 {
		return
	}
	msg := fmt.Sprintf("#%d and #%d are different purchases: Shoebox will not take them for duplicates again.", id, other)
	if marked {
		msg = fmt.Sprintf("#%d is no longer a copy of #%d: it is back with your receipts and in exports.", id, other)
	}
	f.judged(id, f.u.svc.Lib.NotDuplicate(context.Background(), id), msg)
}

// judged shows the window after a word on a duplicate about receipt id:
// the error where it was not taken, else the lists again, the receipt
// selected, the edit to undo and msg.
func (f *form) judged(id int64, err error, msg string) {
	if err != nil {
		f.u.showError(err)
		return
	}
	f.u.Reload()
	f.u.Select(id)
	f.u.showLastEdit()
	f.u.changed()
	f.u.say(msg)
}

// entry returns the input of a top-level field, for tests.
// entry is the field's entry: a receipt field's or a line item cell's
// ("line_items[1].line_total"); nil for a path the form does not show.
func (f *form) entry(path string) *fieldEntry {
	if row, ok := f.rows[path]; ok {
		return row.entry
	}
	return f.lineEnt[path]
}

// scrollTo scrolls the form so that e shows, a little below the top.
func (f *form) scrollTo(e fyne.CanvasObject) {
	d := fyne.CurrentApp().Driver()
	y := d.AbsolutePositionForObject(e).Y - d.AbsolutePositionForObject(f.scroll.Content).Y
	top := f.scroll.Offset.Y
	if y >= top && y+e.Size().Height <= top+f.scroll.Size().Height {
		return // already in view
	}
	f.scroll.Offset.Y = max(0, y-2*theme.Padding()-e.Size().Height)
	f.scroll.Refresh()
}

// moneyText shows an amount with at least two decimals, as receipts print
// it ("9.00", not "9"); other text is left as it is.
func moneyText(v string) string {
	d, err := decimal.NewFromString(v)
	if err != nil || d.Exponent() <= -2 {
		return v
	}
	return d.StringFixed(2)
}

// inWords is a field's stored value as the form shows it: a kind of
// document by its name ("Credit note"), a tax ID without its scheme's code
// (the field's label names the scheme), a word on a duplicate as a
// sentence's end ("copy of #3", "not marked").
func inWords(path, v string) string {
	switch path {
	case library.DuplicateField:
		if v == "" {
			return "not marked"
		}
		return v
	case "duplicate_of": // an earlier version's mark: the receipt's number, 0 for none
		if v == "" || v == "0" {
			return "not marked"
		}
		return "copy of #" + v
	case "doc_type":
		return receipt.DocType(v).Name()
	case "supplier_tax_id":
		if _, after, ok := strings.Cut(v, ":"); ok {
			return after
		}
	}
	if slices.ContainsFunc(receipt.Fields, func(f receipt.FieldSpec) bool { return f.Path == path && f.Kind == receipt.KindBool }) {
		switch v {
		case "true":
			return "yes"
		case "false":
			return "no"
		}
	}
	return v
}
