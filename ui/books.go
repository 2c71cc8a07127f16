package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/internal/plain"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// codeSep parts a code from its name in a completion: "400 — Advertising".
const codeSep = " — "

// bookCodes are a client's account and tax codes as the pickers offer them.
type bookCodes struct {
	accounts, taxCodes []string
}

func loadBookCodes(lib *library.Library) bookCodes {
	var b bookCodes
	if accts, err := lib.Accounts(); err == nil {
		for _, a := range accts {
			if !a.Archived {
				b.accounts = append(b.accounts, a.Code+codeSep+a.Name)
			}
		}
	}
	codes, err := lib.TaxCodes()
	if err == nil && len(codes) == 0 {
		codes = library.DefaultTaxCodes(lib.Locale().Country)
	}
	for _, t := range codes {
		b.taxCodes = append(b.taxCodes, t.Code+codeSep+t.Name)
	}
	return b
}

// codeOf takes the code out of what a picker holds ("400 — Advertising" → "400").
func codeOf(s string) string {
	code, _, _ := strings.Cut(s, codeSep)
	return strings.TrimSpace(code)
}

// known says whether code is one of the picker's codes.
func known(options []string, code string) bool {
	for _, o := range options {
		if codeOf(o) == code {
			return true
		}
	}
	return false
}

// named shows a code with its name when the options know it.
func named(options []string, code string) string {
	for _, o := range options {
		if codeOf(o) == code {
			return o
		}
	}
	return code
}

// newCodePicker is an entry that completes a code from a list: its menu
// lists every code with its name, typing narrows it, and codeOf takes the
// code alone out of what it holds. Call setCodes to give it the list.
func newCodePicker(placeholder string) *widget.SelectEntry {
	e := widget.NewSelectEntry(nil)
	e.SetPlaceHolder(placeholder)
	return e
}

// setCodes gives a picker its codes; after runs after each change.
func setCodes(e *widget.SelectEntry, all []string, after func()) {
	e.SetOptions(all)
	e.OnChanged = func(typed string) {
		e.SetOptions(narrowCodes(all, typed))
		if after != nil {
			after()
		}
	}
}

// narrowCodes offers the options that contain what is typed (all of them
// once a listed code is there).
func narrowCodes(all []string, typed string) []string {
	t := strings.ToLower(strings.TrimSpace(typed))
	if t == "" || known(all, codeOf(typed)) {
		return all
	}
	var out []string
	for _, o := range all {
		if strings.Contains(strings.ToLower(o), t) {
			out = append(out, o)
		}
	}
	return out
}

// codingRow is the form's "Booked to" row: the receipt's account and tax
// code, saved when a listed code is chosen or typed.
type codingRow struct {
	f       *form
	account *widget.SelectEntry
	tax     *widget.SelectEntry
	origin  *widget.Label
	codes   bookCodes
	loading bool
	timer   *time.Timer
}

func newCodingRow(f *form) *codingRow {
	c := &codingRow{f: f, account: newCodePicker("account"), tax: newCodePicker("tax code"), origin: widget.NewLabel("")}
	c.origin.Wrapping = fyne.TextWrapWord
	c.origin.Importance = widget.LowImportance
	return c
}

func (c *codingRow) object() fyne.CanvasObject {
	return container.NewVBox(
		widget.NewLabelWithStyle("Booked to", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		container.NewGridWithColumns(2, c.account, c.tax), c.origin)
}

// show puts a receipt's coding (err: why it could not be read) beside the
// client's codes.
func (c *codingRow) show(lib *library.Library, coding library.Coding, err error) {
	c.loading = true
	defer func() { c.loading = false }()
	c.codes = loadBookCodes(lib)
	setCodes(c.account, c.codes.accounts, c.changed)
	setCodes(c.tax, c.codes.taxCodes, c.changed)
	if err != nil {
		c.origin.SetText("The coding could not be read: " + err.Error())
		return
	}
	c.account.SetText(named(c.codes.accounts, coding.Account))
	c.tax.SetText(named(c.codes.taxCodes, coding.TaxCode))
	c.origin.SetText(codingOrigin(coding))
}

func codingOrigin(c library.Coding) string {
	switch {
	case c.Account == "" && c.TaxCode == "":
		return "Not booked yet: choose the account and tax code the accounting software should use."
	case c.Source == receipt.SourceRule:
		return "From this supplier's rule (Supplier rules…)."
	case c.Source == receipt.SourceUser:
		return "Chosen by you."
	}
	return ""
}

// changed saves the coding when typing pauses and both values are codes
// the client's books list (or empty).
func (c *codingRow) changed() {
	if c.loading {
		return
	}
	if c.timer != nil {
		c.timer.Stop()
	}
	c.timer = time.AfterFunc(saveDelay, func() { onMain(c.save) })
}

func (c *codingRow) save() {
	id := c.f.rec.ID
	if id == 0 {
		return
	}
	account, tax := codeOf(c.account.Text), codeOf(c.tax.Text)
	if now, err := c.f.u.svc.Lib.Coding(id); err == nil && now.Account == account && now.TaxCode == tax {
		// Nothing typed: saving would book a confirmed receipt anew and
		// send it back to review (an export's save did, in the walkthrough).
		return
	}
	var wrong []string
	if account != "" && len(c.codes.accounts) > 0 && !known(c.codes.accounts, account) {
		wrong = append(wrong, fmt.Sprintf("account %s is not in the chart of accounts", account))
	}
	if tax != "" && !known(c.codes.taxCodes, tax) {
		wrong = append(wrong, fmt.Sprintf("%q is not one of the tax codes", tax))
	}
	if len(wrong) > 0 {
		c.origin.SetText("Not saved: " + strings.Join(wrong, "; ") + ". Choose one from the list.")
		return
	}
	if err := c.f.u.svc.Lib.SetCoding(context.Background(), id, -1, account, tax); err != nil {
		c.origin.SetText("Not saved: " + err.Error())
		return
	}
	if coding, err := c.f.u.svc.Lib.Coding(id); err == nil {
		c.origin.SetText(codingOrigin(coding))
	}
	c.f.u.list.reload()
	c.f.u.changed()
}

// editLineCoding books one line item to its own account and tax code.
func (f *form) editLineCoding(i int) {
	id := f.rec.ID
	if id == 0 {
		return
	}
	lib := f.u.svc.Lib
	codes := loadBookCodes(lib)
	coding, err := lib.Coding(id)
	if err != nil {
		f.u.showError(err)
		return
	}
	account, tax := newCodePicker("as the receipt"), newCodePicker("as the receipt")
	if lc, ok := coding.Lines[i]; ok {
		account.SetText(named(codes.accounts, lc.Account))
		tax.SetText(named(codes.taxCodes, lc.TaxCode))
	}
	setCodes(account, codes.accounts, nil)
	setCodes(tax, codes.taxCodes, nil)
	title := fmt.Sprintf("Book line %d", i+1)
	if i < len(f.rec.Receipt.LineItems) && f.rec.Receipt.LineItems[i].Description.Value != "" {
		title += ": " + f.rec.Receipt.LineItems[i].Description.Value
	}
	d := dialog.NewForm(title, "Save", "Cancel", []*widget.FormItem{
		widget.NewFormItem("Account", account), widget.NewFormItem("Tax code", tax),
	}, func(ok bool) {
		if !ok {
			return
		}
		if err := lib.SetCoding(context.Background(), id, i, codeOf(account.Text), codeOf(tax.Text)); err != nil {
			f.u.showError(err)
			return
		}
		f.u.Select(id)
	}, f.u.win)
	d.Resize(fyne.NewSize(480, d.MinSize().Height))
	d.Show()
}

// lineCodingText is what a line's coding button says.
func lineCodingText(c library.Coding, i int) string {
	lc, ok := c.Lines[i]
	if !ok || (lc.Account == "" && lc.TaxCode == "") {
		return "…"
	}
	return strings.Trim(lc.Account+" "+lc.TaxCode, " ")
}

// showRules is the supplier rules table: for each supplier, the account,
// tax code, currency and payment method its receipts get when read, where
// the rule came from, and buttons to save or delete it; a row at the top
// adds a rule.
func (u *UI) showRules() {
	lib := u.svc.Lib
	codes := loadBookCodes(lib)
	w := u.app.NewWindow("Supplier rules")
	if u.shell != nil && u.shell.client != "" {
		w.SetTitle("Supplier rules — " + u.shell.client)
	}
	rows := container.NewVBox()
	var fill func()
	header := func() fyne.CanvasObject {
		bold := func(s string) fyne.CanvasObject {
			return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		}
		return container.New(&rulesLayout{}, bold("Supplier"), bold("Account"), bold("Tax code"), bold("Currency"),
			bold("Paid by"), bold("From"), layout.NewSpacer(), layout.NewSpacer())
	}
	row := func(r library.SupplierRule, isNew bool) fyne.CanvasObject {
		name := widget.NewEntry()
		name.SetText(r.Name)
		name.SetPlaceHolder("supplier's name")
		account, tax := newCodePicker("account"), newCodePicker("tax code")
		account.SetText(named(codes.accounts, r.Account))
		tax.SetText(named(codes.taxCodes, r.TaxCode))
		setCodes(account, codes.accounts, nil)
		setCodes(tax, codes.taxCodes, nil)
		currency := widget.NewSelectEntry(receipt.KnownCurrencies)
		currency.SetText(r.Currency)
		paid := widget.NewEntry()
		paid.SetText(r.PaymentMethod)
		paid.SetPlaceHolder("card, cash…")
		from := widget.NewLabel(ruleOrigin(r))
		from.Truncation = fyne.TextTruncateEllipsis
		saveText := "Save"
		if isNew {
			saveText = "Add"
		}
		save := widget.NewButtonWithIcon(saveText, theme.DocumentSaveIcon(), func() {
			nr := library.SupplierRule{
				Name: name.Text, Account: codeOf(account.Text), TaxCode: codeOf(tax.Text),
				Currency: strings.TrimSpace(currency.Text), PaymentMethod: strings.TrimSpace(paid.Text),
			}
			if !isNew && library.SupplierKey(nr.Name) != r.Key {
				// A renamed supplier is a new rule in place of the old.
				if err := lib.DeleteRule(context.Background(), r.Name); err != nil {
					dialog.ShowError(err, w)
					return
				}
			}
			if err := lib.SetRule(context.Background(), nr); err != nil {
				dialog.ShowError(err, w)
				return
			}
			fill()
			u.offerRule(nr, w)
		})
		del := widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
			dialog.ShowConfirm("Delete rule", fmt.Sprintf("Delete the rule for %s? Receipts already read keep their coding.", r.Name), func(ok bool) {
				if ok {
					if err := lib.DeleteRule(context.Background(), r.Name); err != nil {
						dialog.ShowError(err, w)
						return
					}
					fill()
				}
			}, w)
		})
		if isNew {
			del.Hide()
		}
		return container.New(&rulesLayout{}, name, account, tax, currency, paid, from, save, del)
	}
	fill = func() {
		rows.RemoveAll()
		rows.Add(header())
		rows.Add(row(library.SupplierRule{}, true))
		rows.Add(widget.NewSeparator())
		rules, err := lib.Rules()
		if err != nil {
			rows.Add(widget.NewLabel("The rules could not be read: " + err.Error()))
		}
		for _, r := range rules {
			rows.Add(row(r, false))
		}
		if len(rules) == 0 {
			rows.Add(widget.NewLabel("No rules yet. Confirming a receipt with its account and tax code teaches Shoebox that supplier's rule."))
		}
		rows.Refresh()
	}
	fill()
	intro := widget.NewLabel("A supplier's rule codes its receipts as they are read; the form marks what came from a rule. " +
		"Rules are learned when you confirm receipts; a rule you save here is never changed by learning.")
	intro.Wrapping = fyne.TextWrapWord
	w.SetContent(container.NewBorder(intro, nil, nil, nil, container.NewVScroll(rows)))
	w.Resize(fyne.NewSize(1180, 520))
	w.Show()
}

// ruleMatches lists the receipts read but not confirmed whose supplier a
// rule names and whose coding differs from the rule's, leaving out those a
// person coded.
func ruleMatches(lib *library.Library, r library.SupplierRule) []int64 {
	key := library.SupplierKey(r.Name)
	var ids []int64
	for rec, err := range lib.Records(library.Filter{Statuses: []library.Status{library.StatusExtracted, library.StatusNeedsReview}}) {
		if err != nil {
			break
		}
		if key == "" || library.SupplierKey(rec.Receipt.SupplierName.Value) != key {
			continue
		}
		c, err := lib.Coding(rec.ID)
		if err != nil || c.Source == receipt.SourceUser {
			continue
		}
		if (r.Account == "" || c.Account == r.Account) && (r.TaxCode == "" || c.TaxCode == r.TaxCode) {
			continue
		}
		ids = append(ids, rec.ID)
	}
	return ids
}

// offerRule offers to code, with a rule just saved, the receipts already
// read from its supplier: a rule codes receipts as they are read, so
// without the offer those read before stayed uncoded (issue 40 item 9).
func (u *UI) offerRule(r library.SupplierRule, parent fyne.Window) {
	if r.Account == "" && r.TaxCode == "" {
		return
	}
	ids := ruleMatches(u.svc.Lib, r)
	if len(ids) == 0 {
		return
	}
	codes := strings.Trim(r.Account+" / "+r.TaxCode, " /")
	msg := fmt.Sprintf("%d %s from %s already read %s not booked this way yet.\nBook %s to %s now? Confirmed receipts and those you coded yourself stay as they are.",
		len(ids), plain.Word(len(ids), "receipt", "receipts"), r.Name, plain.Word(len(ids), "is", "are"), plain.Word(len(ids), "it", "them"), codes)
	d := dialog.NewConfirm("Use the rule for the receipts already read?", msg, func(ok bool) {
		if !ok {
			return
		}
		for _, id := range ids {
			if err := u.svc.Lib.SetCoding(context.Background(), id, -1, r.Account, r.TaxCode); err != nil {
				dialog.ShowError(err, parent)
				break
			}
		}
		if cur := u.Current(); cur != 0 {
			u.Select(cur)
		}
		u.Reload()
		u.changed()
	}, parent)
	d.SetConfirmText(fmt.Sprintf("Book %d", len(ids)))
	d.SetDismissText("Not now")
	d.Show()
	u.ruleOffer = d
}

func ruleOrigin(r library.SupplierRule) string {
	switch {
	case r.Key == "":
		return ""
	case r.Typed:
		return "typed by you"
	case r.Learned == 1:
		return "learned from 1 receipt"
	}
	return fmt.Sprintf("learned from %d receipts", r.Learned)
}

// rulesLayout sets a rules row's columns: the supplier widest, then the
// codes, currency, payment, origin and the two buttons.
type rulesLayout struct{}

var rulesColumns = []float32{0.24, 0.17, 0.15, 0.09, 0.1, 0.13, 0.08, 0.04}

func (l *rulesLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	pad := theme.Padding()
	for i, o := range objs {
		w := size.Width * rulesColumns[i%len(rulesColumns)]
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w-pad, size.Height))
		x += w
	}
}

func (l *rulesLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(900, h)
}
