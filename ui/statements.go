package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/bank"
	"github.com/shoebox-app/shoebox/library"
)

// Line filters of the Statements view, as the bookkeeper reads them.
const (
	showAll     = "All lines"
	showMissing = "Receipt missing"
	showToCheck = "To check"
	showMatched = "Matched"
	showMoneyIn = "Money in"
	showNotNeed = "No receipt needed"
	allAccounts = "All accounts"
)

// statementsView is the Statements window: an account's statement lines
// with the receipt each is matched to, how sure, and why; importing a
// statement, matching, the missing-receipts list, and the bookkeeper's
// confirm, reject, match by hand and undo.
type statementsView struct {
	u        *UI
	win      fyne.Window
	account  *widget.Select
	filter   *widget.Select
	table    *widget.Table
	summary  *widget.Label
	detail   *widget.Label
	confirm  *widget.Button
	reject   *widget.Button
	byHand   *widget.Button
	unmatch  *widget.Button
	noNeed   *widget.Button
	lines    []library.StatementLine // as filtered, newest first as banks show them
	receipts map[int64]library.MatchReceipt
	selected int
}

// statementColumns are the table's headings and widths.
var statementColumns = []struct {
	title string
	width float32
}{{"Date", 100}, {"Description", 300}, {"Amount", 190}, {"Receipt", 300}, {"Status", 130}, {"Why", 620}}

func (u *UI) showStatements() { u.openStatements() }

func (u *UI) openStatements() *statementsView {
	v := &statementsView{u: u, selected: -1}
	title := "Statements"
	if u.shell != nil && u.shell.client != "" {
		title += " — " + u.shell.client
	}
	v.win = u.app.NewWindow(title)
	v.account = widget.NewSelect(nil, nil)
	v.filter = widget.NewSelect([]string{showAll, showMissing, showToCheck, showMatched, showMoneyIn, showNotNeed}, nil)
	v.filter.SetSelected(showAll)
	v.summary = widget.NewLabel("")
	v.detail = widget.NewLabel("Choose a line to see its receipt.")
	v.detail.Wrapping = fyne.TextWrapWord
	v.table = widget.NewTable(
		func() (int, int) { return len(v.lines), len(statementColumns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) { o.(*widget.Label).SetText(v.cell(id.Row, id.Col)) },
	)
	v.table.ShowHeaderRow = true
	v.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	v.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 {
			o.(*widget.Label).SetText(statementColumns[id.Col].title)
		}
	}
	for i, c := range statementColumns {
		v.table.SetColumnWidth(i, c.width)
	}
	v.table.OnSelected = func(id widget.TableCellID) { v.choose(id.Row) }
	v.confirm = widget.NewButtonWithIcon("Confirm", theme.ConfirmIcon(), v.confirmSelected)
	v.reject = widget.NewButtonWithIcon("Not this receipt", theme.CancelIcon(), v.rejectSelected)
	v.byHand = widget.NewButton("Match by hand…", v.matchByHand)
	v.unmatch = widget.NewButton("Remove match", v.unmatchSelected)
	v.noNeed = widget.NewButton("No receipt needed", v.noReceiptNeeded)
	v.enableActions()
	toolbar := container.NewHBox(
		widget.NewLabel("Account"), container.NewGridWrap(fyne.NewSize(220, v.account.MinSize().Height), v.account),
		widget.NewLabel("Show"), container.NewGridWrap(fyne.NewSize(170, v.filter.MinSize().Height), v.filter),
		widget.NewSeparator(),
		widget.NewButtonWithIcon("Import statement…", theme.FolderOpenIcon(), v.importStatement),
		widget.NewButtonWithIcon("Match now", theme.ViewRefreshIcon(), v.matchNow),
		widget.NewButtonWithIcon("Missing receipts list…", theme.DocumentSaveIcon(), v.saveMissing),
		widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), v.undo),
		widget.NewButtonWithIcon("Account…", theme.SettingsIcon(), v.showAccount),
	)
	actions := container.NewHBox(v.confirm, v.reject, v.byHand, v.noNeed, v.unmatch)
	bottom := container.NewBorder(nil, nil, nil, actions, v.detail)
	v.win.SetContent(container.NewBorder(container.NewVBox(toolbar, v.summary), bottom, nil, nil, v.table))
	v.win.Resize(fyne.NewSize(1240, 640))
	v.account.OnChanged = func(string) { v.reload() }
	v.filter.OnChanged = func(string) { v.reload() }
	v.loadAccounts()
	v.win.Show()
	return v
}

// loadAccounts fills the account picker and shows the first account.
func (v *statementsView) loadAccounts() {
	accts, err := v.u.svc.Lib.BankAccounts()
	if err != nil {
		v.summary.SetText("The statements cannot be read: " + err.Error())
		return
	}
	opts := []string{allAccounts}
	for _, a := range accts {
		opts = append(opts, a.Name)
	}
	v.account.Options = opts
	pick := allAccounts
	if len(accts) == 1 {
		pick = accts[0].Name
	}
	if v.account.Selected == "" || !slices.Contains(opts, v.account.Selected) {
		v.account.SetSelected(pick) // reloads
	} else {
		v.reload()
	}
}

// reload reads the lines again and shows them as filtered.
func (v *statementsView) reload() {
	lib := v.u.svc.Lib
	acct := v.account.Selected
	if acct == allAccounts {
		acct = ""
	}
	all, err := lib.StatementLines(library.LineFilter{Account: acct})
	if err != nil {
		v.summary.SetText("The statement lines cannot be read: " + err.Error())
		return
	}
	rs, _ := lib.MatchReceipts(time.Time{}, time.Time{})
	v.receipts = make(map[int64]library.MatchReceipt, len(rs))
	for _, r := range rs {
		v.receipts[r.ID] = r
	}
	counts := map[string]int{}
	v.lines = v.lines[:0]
	for _, l := range all {
		state := bank.StateText(l)
		counts[state]++
		if v.filter.Selected == showAll || v.filter.Selected == "" || strings.EqualFold(state, v.filter.Selected) ||
			(v.filter.Selected == showMatched && (state == "matched" || state == "confirmed")) {
			v.lines = append(v.lines, l)
		}
	}
	slices.Reverse(v.lines)
	if len(all) == 0 {
		v.summary.SetText("No statements yet. Import one from the bank: OFX, QFX, QIF, CAMT (ISO 20022 XML) or CSV.")
	} else {
		v.summary.SetText(fmt.Sprintf("%d lines: %d matched, %d confirmed by you, %d to check, %d receipt missing, %d need none, %d money in without a receipt",
			len(all), counts["matched"], counts["confirmed"], counts["to check"], counts["receipt missing"], counts["no receipt needed"], counts["money in"]))
	}
	v.selected = -1
	v.table.UnselectAll()
	v.table.Refresh()
	v.detail.SetText("Choose a line to see its receipt.")
	v.enableActions()
}

func (v *statementsView) cell(row, col int) string {
	if row >= len(v.lines) {
		return ""
	}
	l := v.lines[row]
	switch col {
	case 0:
		return l.Date.Format("02 Jan 2006")
	case 1:
		return l.Description
	case 2:
		s := l.Amount.StringFixed(2) + " " + l.Currency
		if l.OrigCurrency != "" {
			s += " (" + l.OrigCurrency + " " + l.OrigAmount.StringFixed(2) + ")"
		}
		return s
	case 3:
		return v.receiptText(l.ReceiptID)
	case 4:
		st := bank.StateText(l)
		switch l.MatchKind {
		case library.KindSplit:
			st += " (part)"
		case library.KindRefund:
			st += " (refund)"
		}
		return st
	case 5:
		return l.MatchReason
	}
	return ""
}

func (v *statementsView) receiptText(id int64) string {
	if id == 0 {
		return ""
	}
	r, ok := v.receipts[id]
	if !ok {
		return fmt.Sprintf("#%d", id)
	}
	return fmt.Sprintf("#%d %s, %s, %s %s", r.ID, r.Supplier, r.Date.Format("2 Jan 2006"), r.Total.StringFixed(2), r.Currency)
}

func (v *statementsView) current() (library.StatementLine, bool) {
	if v.selected < 0 || v.selected >= len(v.lines) {
		return library.StatementLine{}, false
	}
	return v.lines[v.selected], true
}

func (v *statementsView) choose(row int) {
	v.selected = row
	l, ok := v.current()
	if !ok {
		return
	}
	text := fmt.Sprintf("%s  %s  %s %s", l.Date.Format("2 Jan 2006"), l.Description, l.Amount.StringFixed(2), l.Currency)
	if l.ReceiptID != 0 {
		text += "\nReceipt " + v.receiptText(l.ReceiptID) + " — " + bank.StateText(l)
		if l.MatchReason != "" {
			text += ": " + l.MatchReason
		}
	} else if l.Amount.IsNegative() {
		text += "\nNo receipt: ask the client for it, or match one by hand."
	}
	v.detail.SetText(text)
	v.enableActions()
}

func (v *statementsView) enableActions() {
	l, ok := v.current()
	set := func(b *widget.Button, on bool) {
		if on {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	set(v.confirm, ok && l.ReceiptID != 0 && l.MatchState != library.MatchConfirmed)
	set(v.reject, ok && l.ReceiptID != 0)
	set(v.byHand, ok)
	set(v.unmatch, ok && l.Decided())
	set(v.noNeed, ok && l.Amount.IsNegative() && !l.Decided())
}

// act runs a bookkeeper's action and shows its outcome.
func (v *statementsView) act(err error) {
	if err != nil {
		dialog.ShowError(err, v.win)
	}
	v.reload()
}

func (v *statementsView) confirmSelected() {
	if l, ok := v.current(); ok {
		v.act(bank.Confirm(context.Background(), v.u.svc.Lib, l.ID, 0, l.MatchKind))
	}
}

func (v *statementsView) rejectSelected() {
	if l, ok := v.current(); ok {
		v.act(v.u.svc.Lib.RejectMatch(context.Background(), l.ID))
	}
}

// noReceiptNeeded marks a bank fee, a transfer or a repayment as needing
// no receipt, and asks whether lines like it never do.
func (v *statementsView) noReceiptNeeded() {
	l, ok := v.current()
	if !ok {
		return
	}
	key := bank.DescriptionKey(l.Description)
	if key == "" {
		v.act(bank.NoReceiptNeeded(context.Background(), v.u.svc.Lib, l.ID, false))
		return
	}
	dialog.ShowConfirm("No receipt needed", fmt.Sprintf("Do later lines described like “%s” need no receipt either?", l.Description),
		func(always bool) { v.act(bank.NoReceiptNeeded(context.Background(), v.u.svc.Lib, l.ID, always)) }, v.win)
}

func (v *statementsView) unmatchSelected() {
	if l, ok := v.current(); ok {
		v.act(v.u.svc.Lib.UnmatchLine(context.Background(), l.ID))
	}
}

func (v *statementsView) undo() {
	what, ok, err := v.u.svc.Lib.UndoMatch(context.Background())
	v.act(err)
	if err == nil {
		if ok {
			v.summary.SetText("Undone: " + what + ". " + v.summary.Text)
		} else {
			v.summary.SetText("Nothing to undo. " + v.summary.Text)
		}
	}
}

// kindChoices are how a line may pay a receipt, in the bookkeeper's words.
var kindChoices = map[string]string{
	"It paid the receipt":                library.KindPayment,
	"It paid part of it (split payment)": library.KindSplit,
	"It is money back for it (a refund)": library.KindRefund,
}

func (v *statementsView) matchByHand() {
	l, ok := v.current()
	if !ok {
		return
	}
	number := widget.NewEntry()
	number.SetPlaceHolder("receipt number, e.g. 12")
	number.Validator = func(s string) error {
		if _, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(s), "#"), 10, 64); err != nil {
			return fmt.Errorf("type the receipt's number, as the list shows it (#12)")
		}
		return nil
	}
	kind := widget.NewRadioGroup([]string{"It paid the receipt", "It paid part of it (split payment)", "It is money back for it (a refund)"}, nil)
	kind.SetSelected("It paid the receipt")
	dialog.ShowForm("Match by hand", "Match", "Cancel", []*widget.FormItem{
		widget.NewFormItem("Line", widget.NewLabel(fmt.Sprintf("%s  %s  %s", l.Date.Format("2 Jan 2006"), l.Description, l.Amount.StringFixed(2)))),
		widget.NewFormItem("Receipt", number),
		widget.NewFormItem("How", kind),
	}, func(okay bool) {
		if !okay {
			return
		}
		id, _ := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(number.Text), "#"), 10, 64)
		v.act(bank.Confirm(context.Background(), v.u.svc.Lib, l.ID, id, kindChoices[kind.Selected]))
	}, v.win)
}

func (v *statementsView) importStatement() {
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil || rc == nil {
			return
		}
		path := rc.URI().Path()
		rc.Close()
		acct := v.account.Selected
		ask := widget.NewEntry()
		if acct != "" && acct != allAccounts {
			ask.SetText(acct)
		}
		ask.SetPlaceHolder("e.g. Business card (empty: the account the file names)")
		dialog.ShowForm("Which account is this statement of?", "Import", "Cancel", []*widget.FormItem{
			widget.NewFormItem("Account", ask),
		}, func(okay bool) {
			if okay {
				v.runImport(path, strings.TrimSpace(ask.Text))
			}
		}, v.win)
	}, v.win)
	d.Show()
}

// runImport imports and matches in the background; the window shows what
// came in and how the file was read.
func (v *statementsView) runImport(path, account string) {
	lib := v.u.svc.Lib
	v.summary.SetText("Importing " + path + "…")
	go func() {
		res, err := bank.Import(context.Background(), lib, path, bank.ImportOptions{Account: account})
		var out bank.Outcome
		if err == nil {
			out, err = bank.Run(context.Background(), lib, time.Time{}, time.Time{}, bank.DefaultRules)
		}
		onMain(func() {
			if err != nil {
				dialog.ShowError(err, v.win)
				v.loadAccounts()
				return
			}
			msg := fmt.Sprintf("%s: %d lines, %d new", res.Statement.Format, res.Lines, res.Added)
			if res.SameFile {
				msg = "This file was imported before; nothing added."
			} else if res.AlreadyHad > 0 {
				msg += fmt.Sprintf(", %d already in from an overlapping statement", res.AlreadyHad)
			}
			if res.Statement.Mapping != nil {
				msg += ".\nRead as " + res.Statement.Mapping.Describe() + " (kept for this account)"
			}
			msg += fmt.Sprintf(".\nMatched %d, %d to check, %d receipts missing.", out.Sure, out.Proposed, out.Missing)
			v.account.Selected = res.Account
			v.loadAccounts()
			dialog.ShowInformation("Statement imported", msg, v.win)
		})
	}()
}

func (v *statementsView) matchNow() {
	lib := v.u.svc.Lib
	v.summary.SetText("Matching…")
	go func() {
		_, err := bank.Run(context.Background(), lib, time.Time{}, time.Time{}, bank.DefaultRules)
		onMain(func() { v.act(err) })
	}()
}

func (v *statementsView) saveMissing() {
	rep, err := bank.MissingReport(v.u.svc.Lib, "", time.Time{}, time.Time{})
	if err != nil {
		dialog.ShowError(err, v.win)
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			return
		}
		path := wc.URI().Path()
		wc.Close() // the report is written beside it and renamed over it, whole
		if err := rep.Write(path); err != nil {
			if st, serr := os.Stat(path); serr == nil && st.Size() == 0 {
				os.Remove(path) // the dialog's own empty file: nothing is left on refusal
			}
			dialog.ShowError(err, v.win)
			return
		}
		dialog.ShowInformation("Missing receipts", fmt.Sprintf("%d lines with no receipt written to %s.", len(rep.Missing), path), v.win)
	}, v.win)
	d.SetFileName("missing-receipts.xlsx")
	d.Show()
}

// statementLineText says which statement line paid a receipt, for the
// receipt form ("" when none).
func statementLineText(lib *library.Library, receiptID int64) string {
	lines, err := lib.LinesForReceipt(receiptID)
	if err != nil || len(lines) == 0 {
		return ""
	}
	var parts []string
	for _, l := range lines {
		parts = append(parts, fmt.Sprintf("%s %s %s (%s, %s)", l.Date.Format("2 Jan 2006"), l.Amount.Abs().StringFixed(2), l.Currency,
			l.Description, bank.StateText(l)))
	}
	return "On the statement: " + strings.Join(parts, "; ")
}

// columnEntry is a column number as a bookkeeper counts (from 1; empty
// for none).
func columnEntry(i int) *widget.Entry {
	e := widget.NewEntry()
	if i >= 0 {
		e.SetText(strconv.Itoa(i + 1))
	}
	e.SetPlaceHolder("none")
	return e
}

func columnOf(e *widget.Entry) (int, error) {
	s := strings.TrimSpace(e.Text)
	if s == "" {
		return -1, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return -1, fmt.Errorf("%q is not a column number (1 is the first column)", s)
	}
	return n - 1, nil
}

// showAccount is the account's page: its statement files (one read the
// wrong way can be removed, to be imported again) and how its CSV files
// are read: the date form, the decimal separator, the columns, all
// changeable and kept for the account's next file.
func (v *statementsView) showAccount() {
	lib := v.u.svc.Lib
	name := v.account.Selected
	if name == "" || name == allAccounts {
		dialog.ShowInformation("Account", "Choose an account first.", v.win)
		return
	}
	acct, _, err := lib.BankAccount(name)
	if err != nil {
		dialog.ShowError(err, v.win)
		return
	}
	var d dialog.Dialog
	files := container.NewVBox()
	sts, _ := lib.Statements(name)
	for _, s := range sts {
		s := s
		files.Add(container.NewBorder(nil, nil, nil, widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), func() {
			dialog.ShowConfirm("Remove statement", fmt.Sprintf("Remove %s and the %d lines it brought (with their matches)? The receipts stay.", s.OriginalName, s.Added),
				func(yes bool) {
					if !yes {
						return
					}
					_, err := lib.RemoveStatement(context.Background(), s.ID)
					d.Hide()
					v.act(err)
				}, v.win)
		}), widget.NewLabel(fmt.Sprintf("%s — %s, %s to %s, %d lines", s.OriginalName, s.Format, s.From, s.To, s.Lines))))
	}
	if len(sts) == 0 {
		files.Add(widget.NewLabel("No statements imported."))
	}
	var m bank.Mapping
	hasCSV := acct.CSVMapping != "" && json.Unmarshal([]byte(acct.CSVMapping), &m) == nil
	items := []*widget.FormItem{widget.NewFormItem("Statements", files)}
	var save func() error
	if hasCSV {
		dateForm := widget.NewSelect(bank.DateForms(), nil)
		dateForm.SetSelected(m.DateForm)
		comma := widget.NewCheck("amounts use a decimal comma (1.234,56)", nil)
		comma.SetChecked(m.DecimalComma)
		negate := widget.NewCheck("purchases are shown as positive amounts", nil)
		negate.SetChecked(m.Negate)
		date, amount, debit, credit, balance := columnEntry(m.Date), columnEntry(m.Amount), columnEntry(m.Debit), columnEntry(m.Credit), columnEntry(m.Balance)
		desc := -1
		if len(m.Description) > 0 {
			desc = m.Description[0]
		}
		description := columnEntry(desc)
		items = append(items,
			widget.NewFormItem("CSV files read as", widget.NewLabel(wrapText(m.Describe(), 90))),
			widget.NewFormItem("Date form", dateForm),
			widget.NewFormItem("", comma),
			widget.NewFormItem("", negate),
			widget.NewFormItem("Date column", date),
			widget.NewFormItem("Description column", description),
			widget.NewFormItem("Amount column", amount),
			widget.NewFormItem("Money out column", debit),
			widget.NewFormItem("Money in column", credit),
			widget.NewFormItem("Balance column", balance),
		)
		save = func() error {
			n := m
			n.DateForm, n.DecimalComma, n.Negate = dateForm.Selected, comma.Checked, negate.Checked
			for _, c := range []struct {
				e   *widget.Entry
				dst *int
			}{{date, &n.Date}, {amount, &n.Amount}, {debit, &n.Debit}, {credit, &n.Credit}, {balance, &n.Balance}, {description, &desc}} {
				col, err := columnOf(c.e)
				if err != nil {
					return err
				}
				*c.dst = col
			}
			n.Description = nil
			if desc >= 0 {
				n.Description = []int{desc}
			}
			if n.Date < 0 || len(n.Description) == 0 || (n.Amount < 0 && (n.Debit < 0 || n.Credit < 0)) {
				return fmt.Errorf("a statement needs a date column, a description column, and an amount column or both money out and money in columns")
			}
			b, _ := json.Marshal(n)
			return lib.SaveBankAccount(context.Background(), library.BankAccount{Name: name, CSVMapping: string(b)})
		}
	}
	d = dialog.NewForm("Account: "+name, "Save", "Close", items, func(ok bool) {
		if ok && save != nil {
			if err := save(); err != nil {
				dialog.ShowError(err, v.win)
				return
			}
			v.summary.SetText("Saved: this account's next CSV file is read the new way. Remove a statement read the wrong way and import it again.")
		}
	}, v.win)
	d.Resize(fyne.NewSize(760, 560))
	d.Show()
}

func wrapText(s string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(s) {
		if n > 0 && n+len(w) > width {
			b.WriteString("\n")
			n = 0
		} else if n > 0 {
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
