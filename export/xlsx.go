package export

import (
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"

	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/receipt"
)

// Sheet names, fixed so formulas and readers can rely on them.
const (
	SheetReceipts = "Receipts"
	SheetLines    = "Line items"
	SheetSummary  = "Tax summary"
)

// ReceiptColumns are the Receipts sheet's (and CSV's) columns.
var ReceiptColumns = []string{
	"ID", "Date", "Supplier", "Tax ID", "Document number", "Category", "Currency",
	"Subtotal", "Tax", "Total", "Payment method", "Status", "Flags", "Original", "File SHA-256", "Account", "Tax code",
	"Paid on (bank)", "Statement line",
}

// LineColumns are the Line items sheet's (and CSV's) columns.
var LineColumns = []string{"Receipt ID", "Date", "Supplier", "Description", "Quantity", "Unit price", "Line total", "Tax code", "Currency"}

// Stats says what an export wrote.
type Stats struct {
	Receipts, Lines int
	Totals          map[string]decimal.Decimal // gross per currency
	// Unconfirmed counts the receipts an import file left out because they
	// are not confirmed yet; LeftOut lists them and the others it left out,
	// each with the reason.
	Unconfirmed int
	LeftOut     []Problem
	// NewContacts are the suppliers not in the client's contact list that
	// the program will add as new contacts on import (Xero, QuickBooks).
	NewContacts []string
	// Duplicates are the receipts left out because a person marked each
	// as a copy of another (StatusDuplicate); an import file lists them in
	// LeftOut too.
	Duplicates []int64
}

// DuplicatesText says which receipts marked as duplicates an export left
// out ("" for none): "2 receipts marked as duplicates were left out (#7, #9)".
func (st Stats) DuplicatesText() string {
	n := len(st.Duplicates)
	if n == 0 {
		return ""
	}
	ids := make([]string, n)
	for i, id := range st.Duplicates {
		ids[i] = fmt.Sprintf("#%d", id)
	}
	if n == 1 {
		return fmt.Sprintf("1 receipt marked as a duplicate was left out (%s)", ids[0])
	}
	return fmt.Sprintf("%d receipts marked as duplicates were left out (%s)", n, strings.Join(ids, ", "))
}

// styles holds the workbook's cell styles.
type styles struct {
	f       *excelize.File
	header  int
	date    int
	text    int
	qty     int
	bold    int
	money   map[string]int // per currency
	boldMon map[string]int
	link    int
	pct     int // 10%
	pctFrac int // 5.5%
}

// setLayout gives a streamed sheet its column widths (wide enough for each
// header: printed, nothing is cut off) and keeps its header row in view.
func setLayout(sw *excelize.StreamWriter, widths []float64) error {
	for i, w := range widths {
		if err := sw.SetColWidth(i+1, i+1, w); err != nil {
			return err
		}
	}
	return sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"})
}

func newStyles(f *excelize.File) (*styles, error) {
	s := &styles{f: f, money: map[string]int{}, boldMon: map[string]int{}}
	var err error
	mk := func(st *excelize.Style) int {
		if err != nil {
			return 0
		}
		var id int
		id, err = f.NewStyle(st)
		return id
	}
	dateFmt := "yyyy-mm-dd"
	qtyFmt := "#,##0.###"
	s.header = mk(&excelize.Style{
		Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDE7F0"}},
		Border: []excelize.Border{{Type: "bottom", Color: "7F8C99", Style: 1}},
	})
	s.date = mk(&excelize.Style{CustomNumFmt: &dateFmt})
	s.text = mk(&excelize.Style{NumFmt: 49}) // "@": text
	s.qty = mk(&excelize.Style{CustomNumFmt: &qtyFmt})
	s.bold = mk(&excelize.Style{Font: &excelize.Font{Bold: true}})
	s.link = mk(&excelize.Style{Font: &excelize.Font{Color: "1F5FBF", Underline: "single"}})
	pct, pctFrac := "0%", "0.0#%"
	s.pct = mk(&excelize.Style{CustomNumFmt: &pct})
	s.pctFrac = mk(&excelize.Style{CustomNumFmt: &pctFrac})
	return s, err
}

// moneyStyle is a number format that shows the currency code and the
// currency's minor digits: AUD 1,530.00, JPY 1,200.
func (s *styles) moneyStyle(cur string, bold bool) (int, error) {
	m := s.money
	if bold {
		m = s.boldMon
	}
	if id, ok := m[cur]; ok {
		return id, nil
	}
	digits := receipt.MinorDigits(cur)
	num := "#,##0"
	if digits > 0 {
		num += "." + strings.Repeat("0", digits)
	}
	code := strings.NewReplacer(`"`, "", `\`, "").Replace(cur)
	format := fmt.Sprintf(`"%s "%s;"%s "-%s`, code, num, code, num)
	st := &excelize.Style{CustomNumFmt: &format}
	if bold {
		st.Font = &excelize.Font{Bold: true}
	}
	id, err := s.f.NewStyle(st)
	m[cur] = id
	return id, err
}

func money(d decimal.Decimal) float64 {
	f, _ := d.Float64()
	return f
}

// text returns a neutralised string cell: untrusted text is never a formula.
func (s *styles) textCell(v string) excelize.Cell {
	return excelize.Cell{StyleID: s.text, Value: Neutralize(v)}
}

// WriteXLSX writes the workbook to path atomically, streaming rows so memory
// stays flat however many receipts there are.
func WriteXLSX(path string, rows iter.Seq[Row], opt Options) (Stats, error) {
	st := Stats{Totals: map[string]decimal.Decimal{}}
	err := fsutil.WriteExport(path, func(w io.Writer) error {
		var err error
		st, err = writeWorkbook(w, rows, opt)
		return err
	})
	return st, err
}

func writeWorkbook(w io.Writer, rows iter.Seq[Row], opt Options) (Stats, error) {
	stats := Stats{Totals: map[string]decimal.Decimal{}}
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", SheetReceipts); err != nil {
		return stats, err
	}
	for _, name := range []string{SheetLines, SheetSummary} {
		if _, err := f.NewSheet(name); err != nil {
			return stats, err
		}
	}
	if err := f.SetDocProps(&excelize.DocProperties{Creator: "Shoebox", Title: "Receipts"}); err != nil {
		return stats, err
	}
	s, err := newStyles(f)
	if err != nil {
		return stats, err
	}
	// Sheet settings go in before the rows stream in.
	if err := setUpPrinting(f); err != nil {
		return stats, err
	}
	receipts, err := newReceiptsSheet(f, s, opt)
	if err != nil {
		return stats, err
	}
	lines, err := newLinesSheet(f, s)
	if err != nil {
		return stats, err
	}
	// Rows stream once: each goes to both sheets and into the summary.
	sum := newSummary(opt)
	for row := range rows {
		if row.isDuplicate() {
			stats.Duplicates = append(stats.Duplicates, row.ID)
			continue
		}
		cur := currencyOf(&row.Receipt, opt.Locale)
		booked, err := receipts.add(row, cur, &stats)
		if err != nil {
			return stats, err
		}
		if err := lines.add(row, cur, &stats); err != nil {
			return stats, err
		}
		sum.add(row, booked)
	}
	if err := receipts.finish(&stats); err != nil {
		return stats, err
	}
	if err := lines.finish(); err != nil {
		return stats, err
	}
	if err := writeSummary(f, s, sum, receipts.currencies, receipts.last(), opt, stats); err != nil {
		return stats, err
	}
	f.SetActiveSheet(0)
	_, err = f.WriteTo(w)
	return stats, err
}

// receiptsSheet streams the Receipts sheet: one row per receipt, then the
// totals per currency.
type receiptsSheet struct {
	sw         *excelize.StreamWriter
	s          *styles
	opt        Options
	row        int // the next row to write
	currencies []string
	seen       map[string]bool
	// subtotals and taxes are the sums per currency of the Subtotal and
	// Tax columns, stored beside their SUMIF so that a viewer that does
	// not recalculate shows them as Excel does.
	subtotals, taxes map[string]decimal.Decimal
}

func newReceiptsSheet(f *excelize.File, s *styles, opt Options) (*receiptsSheet, error) {
	sw, err := f.NewStreamWriter(SheetReceipts)
	if err != nil {
		return nil, err
	}
	// Wide enough for each header: printed, nothing is cut off.
	if err := setLayout(sw, []float64{7, 11, 32, 18, 18, 16, 10, 14, 13, 14, 16, 17, 40, 24, 20, 10, 16, 14, 40}); err != nil {
		return nil, err
	}
	// The stored file's SHA-256 is for tracing, not for reading.
	if err := sw.SetColVisible(15, 15, false); err != nil {
		return nil, err
	}
	if err := sw.SetRow("A1", headerCells(ReceiptColumns, s.header)); err != nil {
		return nil, err
	}
	return &receiptsSheet{sw: sw, s: s, opt: opt, row: 2, seen: map[string]bool{}, subtotals: map[string]decimal.Decimal{}, taxes: map[string]decimal.Decimal{}}, nil
}

// last is the last receipt row (2 when there are none, so formulas hold).
func (rs *receiptsSheet) last() int { return max(rs.row-1, 2) }

// add writes a receipt's row and returns the lines it is booked as.
func (rs *receiptsSheet) add(row Row, cur string, stats *Stats) ([]posting, error) {
	s, r := rs.s, &row.Receipt
	if !rs.seen[cur] {
		rs.seen[cur] = true
		rs.currencies = append(rs.currencies, cur)
	}
	mon, err := s.moneyStyle(cur, false)
	if err != nil {
		return nil, err
	}
	amount := func(a receipt.Amount) any {
		if !a.Set {
			return nil
		}
		return excelize.Cell{StyleID: mon, Value: money(a.Value)}
	}
	tax := any(nil)
	if r.TotalTax.Set || len(r.TaxLines) > 0 {
		tax = excelize.Cell{StyleID: mon, Value: money(taxOf(r))}
		rs.taxes[cur] = rs.taxes[cur].Add(taxOf(r))
	}
	if r.Subtotal.Set {
		rs.subtotals[cur] = rs.subtotals[cur].Add(r.Subtotal.Value)
	}
	var link any
	if row.Original != "" {
		abs, _ := filepath.Abs(row.Original)
		name := Neutralize(row.FileName())
		link = excelize.Cell{StyleID: s.link, Formula: fmt.Sprintf(`HYPERLINK("file://%s","%s")`, escapeFormula(abs), escapeFormula(name)), Value: name}
	}
	account, taxCodes, booked := rs.opt.booking(row)
	var paidOn any
	day, lines := row.paidOn()
	if day != nil {
		paidOn = excelize.Cell{StyleID: s.date, Value: *day}
	}
	cells := []any{
		idCell(row), s.dateCell(r), s.textCell(r.SupplierName.Value), s.textCell(taxIDText(r)), s.textCell(r.DocumentNumber.Value),
		s.textCell(r.Category.Value), s.textCell(cur), amount(r.Subtotal), tax, amount(r.Total), s.textCell(r.PaymentMethod.Value),
		StatusText(row.Status), s.textCell(flags(row)), link, s.textCell(row.SHA256), s.textCell(account), s.textCell(strings.Join(taxCodes, ", ")),
		paidOn, s.textCell(lines),
	}
	if err := rs.sw.SetRow(fmt.Sprintf("A%d", rs.row), cells); err != nil {
		return nil, err
	}
	rs.row++
	stats.Receipts++
	if r.Total.Set {
		stats.Totals[cur] = stats.Totals[cur].Add(r.Total.Value)
	}
	return booked, nil
}

// finish makes the receipts a table and adds the totals per currency:
// SUMIF, so currencies are never added together.
func (rs *receiptsSheet) finish(stats *Stats) error {
	s, last := rs.s, rs.last()
	if rs.row > 2 {
		if err := rs.sw.AddTable(&excelize.Table{Range: fmt.Sprintf("A1:S%d", rs.row-1), Name: "Receipts", StyleName: "TableStyleLight1", ShowRowStripes: boolPtr(false)}); err != nil {
			return err
		}
	}
	r := rs.row + 1
	for _, cur := range rs.currencies {
		bm, err := s.moneyStyle(cur, true)
		if err != nil {
			return err
		}
		sumif := func(col string) excelize.Cell {
			return excelize.Cell{StyleID: bm, Formula: fmt.Sprintf(`SUMIF($G$2:$G$%d,"%s",%s$2:%s$%d)`, last, escapeFormula(Neutralize(cur)), col, col, last)}
		}
		total, subtotal, tax := sumif("J"), sumif("H"), sumif("I")
		total.Value, subtotal.Value, tax.Value = money(stats.Totals[cur]), money(rs.subtotals[cur]), money(rs.taxes[cur])
		cells := []any{nil, nil, excelize.Cell{StyleID: s.bold, Value: Neutralize("Total " + cur)}, nil, nil, nil, s.textCell(cur), subtotal, tax, total}
		if err := rs.sw.SetRow(fmt.Sprintf("A%d", r), cells); err != nil {
			return err
		}
		r++
	}
	return rs.sw.Flush()
}

// linesSheet streams the Line items sheet: one row per line item.
type linesSheet struct {
	sw  *excelize.StreamWriter
	s   *styles
	row int
}

func newLinesSheet(f *excelize.File, s *styles) (*linesSheet, error) {
	sw, err := f.NewStreamWriter(SheetLines)
	if err != nil {
		return nil, err
	}
	if err := setLayout(sw, []float64{10, 11, 28, 40, 9, 13, 13, 9, 9}); err != nil {
		return nil, err
	}
	if err := sw.SetRow("A1", headerCells(LineColumns, s.header)); err != nil {
		return nil, err
	}
	return &linesSheet{sw: sw, s: s, row: 2}, nil
}

func (ls *linesSheet) add(row Row, cur string, stats *Stats) error {
	s, r := ls.s, &row.Receipt
	mon, err := s.moneyStyle(cur, false)
	if err != nil {
		return err
	}
	amount := func(a receipt.Amount) any {
		if !a.Set {
			return nil
		}
		return excelize.Cell{StyleID: mon, Value: money(a.Value)}
	}
	for _, li := range r.LineItems {
		var qty any
		if li.Quantity.Set {
			qty = excelize.Cell{StyleID: s.qty, Value: money(li.Quantity.Value)}
		}
		lc := []any{
			idCell(row), s.dateCell(r), s.textCell(r.SupplierName.Value), s.textCell(li.Description.Value), qty,
			amount(li.UnitPrice), amount(li.LineTotal), s.textCell(li.TaxCode.Value), s.textCell(cur),
		}
		if err := ls.sw.SetRow(fmt.Sprintf("A%d", ls.row), lc); err != nil {
			return err
		}
		ls.row++
		stats.Lines++
	}
	return nil
}

func (ls *linesSheet) finish() error {
	if ls.row > 2 {
		if err := ls.sw.AddTable(&excelize.Table{Range: fmt.Sprintf("A1:I%d", ls.row-1), Name: "LineItems", StyleName: "TableStyleLight1", ShowRowStripes: boolPtr(false)}); err != nil {
			return err
		}
	}
	return ls.sw.Flush()
}

// idCell is a row's library ID, empty for a receipt read without one.
func idCell(row Row) any {
	if row.ID == 0 {
		return nil
	}
	return row.ID
}

// dateCell is a receipt's date as a date cell, empty when unread.
func (s *styles) dateCell(r *receipt.Receipt) any {
	if !r.Date.Set {
		return nil
	}
	return excelize.Cell{StyleID: s.date, Value: r.Date.Value}
}

// writeSummary writes the Tax summary sheet: one row per currency,
// period and tax code (or printed tax), a total per currency and its
// check against the Receipts sheet.
func writeSummary(f *excelize.File, s *styles, sum *summary, currencies []string, lastReceiptRow int, opt Options, stats Stats) error {
	ss, err := f.NewStreamWriter(SheetSummary)
	if err != nil {
		return err
	}
	if err := setLayout(ss, []float64{10, 14, 24, 12, 9, 16, 16, 16, 10}); err != nil {
		return err
	}
	head := []string{"Currency", "Period", "Tax code", "Tax", "Rate", "Net", "Tax amount", "Gross", "Receipts"}
	if err := ss.SetRow("A1", headerCells(head, s.header)); err != nil {
		return err
	}
	r := 2
	keys := sum.sorted()
	for _, cur := range currencies {
		first := r
		net, tax, gross := decimal.Zero, decimal.Zero, decimal.Zero
		mon, _ := s.moneyStyle(cur, false)
		bm, _ := s.moneyStyle(cur, true)
		for _, k := range keys {
			if k.Currency != cur {
				continue
			}
			v := sum.rows[k]
			var rate any
			if frac, ok := k.rateFraction(); ok {
				style := s.pct
				if !strings.HasSuffix(fmt.Sprintf("%g", frac*100), "0") && frac*100 != float64(int(frac*100)) {
					style = s.pctFrac
				}
				rate = excelize.Cell{StyleID: style, Value: frac}
			}
			cells := []any{
				s.textCell(cur), k.Period, s.textCell(k.TaxCode), s.textCell(k.Label), rate,
				excelize.Cell{StyleID: mon, Value: money(v.Net)},
				excelize.Cell{StyleID: mon, Value: money(v.Tax)},
				excelize.Cell{StyleID: mon, Value: money(v.Gross)},
				v.Receipts,
			}
			if err := ss.SetRow(fmt.Sprintf("A%d", r), cells); err != nil {
				return err
			}
			net, tax, gross = net.Add(v.Net), tax.Add(v.Tax), gross.Add(v.Gross)
			r++
		}
		if r == first && sum.taxUnread[cur] == nil {
			continue
		}
		total := []any{
			s.textCell(cur),
			excelize.Cell{StyleID: s.bold, Value: Neutralize("Total " + cur)},
			nil, nil, nil,
			excelize.Cell{StyleID: bm, Formula: fmt.Sprintf("SUM(F%d:F%d)", first, r-1), Value: money(net)},
			excelize.Cell{StyleID: bm, Formula: fmt.Sprintf("SUM(G%d:G%d)", first, r-1), Value: money(tax)},
			excelize.Cell{StyleID: bm, Formula: fmt.Sprintf("SUM(H%d:H%d)", first, r-1), Value: money(gross)},
		}
		if err := ss.SetRow(fmt.Sprintf("A%d", r), total); err != nil {
			return err
		}
		// The check a bookkeeper can see: this summary's gross against the Receipts sheet.
		check := []any{
			cur, "Receipts sheet", nil, nil, nil, nil,
			excelize.Cell{StyleID: mon, Formula: fmt.Sprintf(`SUMIF(%s!$G$2:$G$%d,"%s",%s!$I$2:$I$%d)`, quoteSheet(SheetReceipts), lastReceiptRow, escapeFormula(cur), quoteSheet(SheetReceipts), lastReceiptRow), Value: money(sum.printedTax[cur])},
			excelize.Cell{StyleID: mon, Formula: fmt.Sprintf(`SUMIF(%s!$G$2:$G$%d,"%s",%s!$J$2:$J$%d)`, quoteSheet(SheetReceipts), lastReceiptRow, escapeFormula(cur), quoteSheet(SheetReceipts), lastReceiptRow), Value: money(sum.gross[cur])},
		}
		if err := ss.SetRow(fmt.Sprintf("A%d", r+1), check); err != nil {
			return err
		}
		r += 2
		if unread := sum.taxUnread[cur]; unread != nil {
			// Tax invoices whose tax was not read: not summed as "no tax".
			note := fmt.Sprintf("Not in this summary: %d tax invoice(s) whose tax was not read (gross %s): see Flags on the Receipts sheet",
				unread.Receipts, unread.Gross.StringFixed(int32(receipt.MinorDigits(cur))))
			if err := ss.SetRow(fmt.Sprintf("A%d", r), []any{s.textCell(cur), excelize.Cell{StyleID: s.bold, Value: note}}); err != nil {
				return err
			}
			r++
		}
		r++
	}
	by := map[receipt.Granularity]string{receipt.ByMonth: "month", receipt.ByQuarter: "quarter", receipt.ByFY: "financial year"}[opt.SummaryBy]
	note := fmt.Sprintf("Grouped by %s (financial year starts in %s). Amounts in each currency are summed separately. Gross that no tax line accounts for (tips, rounding, tax-free items) is listed as \"no tax\".",
		by, opt.Locale.FYStartMonth)
	if opt.Books != nil {
		note += " Each receipt is summed under the tax codes it is booked to; tax that cannot be claimed here (another country's, another currency's) is under its code with no tax amount, so the tax may be less than the Receipts sheet's."
	}
	if dups := stats.DuplicatesText(); dups != "" {
		note += " Not on any sheet: " + dups + ", each a copy of a receipt listed."
	}
	if err := ss.SetRow(fmt.Sprintf("A%d", r), []any{note}); err != nil {
		return err
	}
	return ss.Flush()
}

func headerCells(names []string, style int) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = excelize.Cell{StyleID: style, Value: n}
	}
	return out
}

func escapeFormula(s string) string { return strings.ReplaceAll(s, `"`, `""`) }

func quoteSheet(name string) string { return "'" + strings.ReplaceAll(name, "'", "''") + "'" }

func boolPtr(b bool) *bool { return &b }

// setUpPrinting makes every sheet print as an accountant expects: landscape,
// all columns on one page's width, the header row repeated on each page.
func setUpPrinting(f *excelize.File) error {
	landscape, one, any := "landscape", 1, 0
	fit := true
	for _, sheet := range []string{SheetReceipts, SheetLines, SheetSummary} {
		if err := f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Orientation: &landscape, FitToWidth: &one, FitToHeight: &any}); err != nil {
			return err
		}
		if err := f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
			return err
		}
		if err := f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", RefersTo: quoteSheet(sheet) + "!$1:$1", Scope: sheet}); err != nil {
			return err
		}
	}
	return nil
}
