package bank

import (
	_ "embed"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// Mapping says how to read one account's CSV exports. Columns count from
// 0 in the struct and from 1 wherever a person sees them; -1 is "none".
// Either Amount (signed, or unsigned with a Sign column) or Debit and
// Credit are set.
type Mapping struct {
	Preset       string `json:"preset,omitempty"`
	Delimiter    string `json:"delimiter"`
	Header       bool   `json:"header"`
	Date         int    `json:"date"`
	Description  []int  `json:"description"`
	Amount       int    `json:"amount"`
	Debit        int    `json:"debit"`
	Credit       int    `json:"credit"`
	Sign         int    `json:"sign"`
	Balance      int    `json:"balance"`
	Currency     int    `json:"currency"`
	Reference    int    `json:"reference"`
	DateForm     string `json:"date_form"`
	DecimalComma bool   `json:"decimal_comma"`
	// Negate turns the signs round, for card exports that show a purchase
	// as a positive amount.
	Negate bool `json:"negate,omitempty"`
	// Columns are the header's names as read (for showing the mapping).
	Columns []string `json:"columns,omitempty"`
}

//go:embed data/csv.json
var csvJSON []byte

type csvPreset struct {
	Name         string         `json:"name"`
	Label        string         `json:"label"`
	Signature    []string       `json:"signature"`
	NoHeader     map[string]any `json:"no_header"`
	DateForm     string         `json:"date_form"`
	DecimalComma bool           `json:"decimal_comma"`
}

var csvData = func() (d struct {
	Headers    map[string][]string `json:"headers"`
	DebitMarks []string            `json:"debit_marks"`
	Presets    []csvPreset         `json:"presets"`
},
) {
	if err := json.Unmarshal(csvJSON, &d); err != nil {
		panic("bank/data/csv.json: " + err.Error())
	}
	return d
}()

// Presets lists the documented bank exports: name and what it is.
func Presets() [][2]string {
	var out [][2]string
	for _, p := range csvData.Presets {
		out = append(out, [2]string{p.Name, p.Label})
	}
	return out
}

func none() Mapping {
	return Mapping{Date: -1, Amount: -1, Debit: -1, Credit: -1, Sign: -1, Balance: -1, Currency: -1, Reference: -1}
}

// Describe says the mapping in a bookkeeper's words.
func (m Mapping) Describe() string {
	col := func(i int) string {
		if i < 0 {
			return ""
		}
		if i < len(m.Columns) && m.Columns[i] != "" {
			return fmt.Sprintf("column %d (%s)", i+1, m.Columns[i])
		}
		return fmt.Sprintf("column %d", i+1)
	}
	var parts []string
	if m.Preset != "" {
		parts = append(parts, "layout: "+m.Preset)
	}
	parts = append(parts, fmt.Sprintf("date: %s as %s", col(m.Date), m.DateForm))
	var desc []string
	for _, d := range m.Description {
		desc = append(desc, col(d))
	}
	parts = append(parts, "description: "+strings.Join(desc, " + "))
	switch {
	case m.Amount >= 0 && m.Sign >= 0:
		parts = append(parts, fmt.Sprintf("amount: %s, money out where %s says debit", col(m.Amount), col(m.Sign)))
	case m.Amount >= 0:
		parts = append(parts, "amount: "+col(m.Amount))
	default:
		parts = append(parts, fmt.Sprintf("money out: %s, money in: %s", col(m.Debit), col(m.Credit)))
	}
	if m.Balance >= 0 {
		parts = append(parts, "balance: "+col(m.Balance))
	}
	if m.Currency >= 0 {
		parts = append(parts, "currency: "+col(m.Currency))
	}
	if m.DecimalComma {
		parts = append(parts, "decimal comma (1.234,56)")
	} else {
		parts = append(parts, "decimal point (1,234.56)")
	}
	if m.Negate {
		parts = append(parts, "signs turned round (purchases shown positive)")
	}
	return strings.Join(parts, "; ")
}

func normHeader(h string) string {
	return strings.TrimSpace(strings.ToLower(strings.Trim(strings.TrimSpace(h), `"*'`)))
}

// headerRank finds which field a header names and how early its synonym
// stands (lower is better).
func headerRank(h string) (field string, rank int) {
	h = normHeader(h)
	best, bestRank := "", 1<<30
	for f, syns := range csvData.Headers {
		for i, s := range syns {
			if (h == s || strings.HasPrefix(h, s+" (")) && i < bestRank {
				best, bestRank = f, i
			}
		}
	}
	return best, bestRank
}

func sniffDelimiter(txt string) rune {
	lines := strings.SplitN(txt, "\n", 12)
	if len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	best, bestScore := ',', -1
	for _, d := range []rune{',', ';', '\t', '|'} {
		counts := map[int]int{}
		for _, l := range lines {
			if strings.TrimSpace(l) == "" {
				continue
			}
			r := csv.NewReader(strings.NewReader(l))
			r.Comma, r.LazyQuotes, r.FieldsPerRecord = d, true, -1
			rec, err := r.Read()
			if err == nil && len(rec) > 1 {
				counts[len(rec)]++
			}
		}
		for n, c := range counts {
			if score := c*100 + n; score > bestScore && n > 1 {
				best, bestScore = d, score
			}
		}
	}
	return best
}

func readRows(txt string, delim rune) ([][]string, error) {
	r := csv.NewReader(strings.NewReader(txt))
	r.Comma, r.LazyQuotes, r.FieldsPerRecord, r.ReuseRecord = delim, true, -1, false
	var rows [][]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("the CSV file is damaged: %w", err)
		}
		empty := true
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
			if rec[i] != "" {
				empty = false
			}
		}
		if !empty {
			rows = append(rows, rec)
		}
		if len(rows) > MaxLines+10 {
			return nil, fmt.Errorf("the statement has more than %d lines", MaxLines)
		}
	}
	// Banks put account details above the table and totals below it:
	// keep the table, the rows as wide as most rows.
	width := map[int]int{}
	for _, r := range rows {
		width[len(r)]++
	}
	mode, n := 0, 0
	for w, c := range width {
		if c > n || (c == n && w > mode) {
			mode, n = w, c
		}
	}
	start, end := 0, len(rows)
	for start < end && len(rows[start]) < mode {
		start++
	}
	for end > start && len(rows[end-1]) < mode {
		end-- // and a total or a note below it
	}
	return rows[start:end], nil
}

func column(rows [][]string, i int) []string {
	var out []string
	for _, r := range rows {
		if i < len(r) && r[i] != "" {
			out = append(out, r[i])
		}
	}
	return out
}

func isDateColumn(vals []string) bool {
	if len(vals) == 0 {
		return false
	}
	_, _, err := detectDates(vals, true)
	return err == nil
}

func isNumberColumn(vals []string) bool {
	if len(vals) == 0 {
		return false
	}
	comma, _ := detectDecimalComma(vals)
	for _, v := range vals {
		if _, err := parseNumber(v, comma); err != nil {
			return false
		}
		if !strings.ContainsAny(v, "0123456789") {
			return false
		}
	}
	return true
}

// DetectMapping works out how to read a CSV statement: the delimiter,
// whether the first row names the columns, which column is which (by the
// header's words, a documented preset, or the values themselves), the
// date form and the decimal separator.
func DetectMapping(txt string, dayFirst bool) (Mapping, error) {
	m := none()
	delim := sniffDelimiter(txt)
	m.Delimiter = string(delim)
	rows, err := readRows(txt, delim)
	if err != nil {
		return m, err
	}
	if len(rows) < 1 {
		return m, errors.New("the CSV file has no rows")
	}
	first := rows[0]
	header := true
	for _, c := range first {
		if isDateColumn([]string{c}) || (c != "" && isNumberColumn([]string{c})) {
			header = false
		}
	}
	m.Header = header
	body := rows
	if header {
		body = rows[1:]
		mapHeader(&m, first)
	} else {
		guessColumns(&m, body)
	}
	if m.Date < 0 {
		return m, errors.New("no column of dates found: set the mapping by hand")
	}
	if m.Amount < 0 && (m.Debit < 0 || m.Credit < 0) {
		if m.Debit >= 0 || m.Credit >= 0 {
			return m, errors.New("a money-out or money-in column was found but not both: set the mapping by hand")
		}
		return m, errors.New("no amount column found: set the mapping by hand")
	}
	if len(m.Description) == 0 {
		return m, errors.New("no description column found: set the mapping by hand")
	}
	if m.Amount >= 0 && m.Sign < 0 {
		// a D/C column beside an unsigned amount
		for i := range first {
			vals := column(body, i)
			if i != m.Amount && len(vals) > 0 && all(vals, func(v string) bool {
				v = strings.ToLower(v)
				return v == "c" || v == "cr" || v == "crdt" || slices.Contains(csvData.DebitMarks, v) || v == "h" || v == "bij"
			}) {
				m.Sign = i
			}
		}
	}
	// The dates decide their form; where they cannot (no day over 12), a
	// documented export's form does, else the client's date order.
	dates := column(body, m.Date)
	l, ambiguous, err := detectDates(dates, dayFirst)
	if err != nil {
		return m, fmt.Errorf("column %d holds dates no form fits (first: %q): set the date form by hand", m.Date+1, first0(dates))
	}
	if pl, ok := layoutByShown(m.DateForm); !ambiguous || !ok || !all(dates, func(v string) bool { _, err := pl.parse(v); return err == nil }) {
		m.DateForm = l.Shown
	}
	var amounts []string
	for _, c := range []int{m.Amount, m.Debit, m.Credit, m.Balance} {
		if c >= 0 {
			amounts = append(amounts, column(body, c)...)
		}
	}
	if comma, sure := detectDecimalComma(amounts); sure {
		m.DecimalComma = comma
	}
	return m, nil
}

func first0(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func all[T any](s []T, f func(T) bool) bool {
	for _, v := range s {
		if !f(v) {
			return false
		}
	}
	return true
}

// mapHeader maps the columns a header names (the best-ranked synonym
// wins a field; up to three columns make the description) and takes a
// documented export's date form and decimal separator when its headings
// are all there.
func mapHeader(m *Mapping, first []string) {
	m.Columns = append([]string(nil), first...)
	ranks := map[string]int{}
	var descs [][2]int
	for i, h := range first {
		f, r := headerRank(h)
		switch f {
		case "":
		case "description":
			descs = append(descs, [2]int{r, i})
		default:
			cur := map[string]*int{
				"date": &m.Date, "amount": &m.Amount, "debit": &m.Debit, "credit": &m.Credit, "sign": &m.Sign,
				"balance": &m.Balance, "currency": &m.Currency, "reference": &m.Reference,
			}[f]
			if old, ok := ranks[f]; !ok || r < old {
				ranks[f], *cur = r, i
			}
		}
	}
	sort.Slice(descs, func(a, b int) bool { return descs[a][0] < descs[b][0] })
	for _, d := range descs {
		if len(m.Description) < 3 {
			m.Description = append(m.Description, d[1])
		}
	}
	norm := make([]string, len(first))
	for i, h := range first {
		norm[i] = normHeader(h)
	}
	for _, p := range csvData.Presets {
		if len(p.Signature) > 0 && all(p.Signature, func(s string) bool { return slices.Contains(norm, s) }) {
			m.Preset = p.Name
			if p.DateForm != "" {
				m.DateForm = p.DateForm
			}
			m.DecimalComma = p.DecimalComma
		}
	}
}

// guessColumns reads a file without a header by its values: the dates,
// the numbers (one: the amount; two that hold a running balance: amount
// and balance; two that are never both filled: money out and in), and the
// longest text.
func guessColumns(m *Mapping, rows [][]string) {
	if len(rows) == 0 {
		return
	}
	var nums []int
	textLen := map[int]int{}
	for i := range rows[0] {
		vals := column(rows, i)
		switch {
		case len(vals) == 0:
		case m.Date < 0 && isDateColumn(vals):
			m.Date = i
		case isNumberColumn(vals):
			nums = append(nums, i)
		default:
			for _, v := range vals {
				textLen[i] += len(v)
			}
		}
	}
	bestText, best := -1, 0
	for i, n := range textLen {
		if n > best || (n == best && i < bestText) {
			bestText, best = i, n
		}
	}
	if bestText >= 0 {
		m.Description = []int{bestText}
	}
	switch {
	case len(nums) == 1:
		m.Amount = nums[0]
	case len(nums) >= 2:
		a, b := nums[0], nums[1]
		comma, _ := detectDecimalComma(append(column(rows, a), column(rows, b)...))
		if runningBalance(rows, a, b, comma) {
			m.Amount, m.Balance = a, b
		} else if runningBalance(rows, b, a, comma) {
			m.Amount, m.Balance = b, a
		} else if exclusive(rows, a, b) {
			m.Debit, m.Credit = a, b
		} else {
			m.Amount = a
		}
	}
}

func cell(r []string, i int) string {
	if i >= 0 && i < len(r) {
		return r[i]
	}
	return ""
}

func runningBalance(rows [][]string, amt, bal int, comma bool) bool {
	if len(rows) < 2 {
		return false
	}
	fwd, back := true, true
	for i := 1; i < len(rows); i++ {
		a0, e1 := parseNumber(cell(rows[i-1], amt), comma)
		a1, e2 := parseNumber(cell(rows[i], amt), comma)
		b0, e3 := parseNumber(cell(rows[i-1], bal), comma)
		b1, e4 := parseNumber(cell(rows[i], bal), comma)
		if e1 != nil || e2 != nil || e3 != nil || e4 != nil {
			return false
		}
		fwd = fwd && b0.Add(a1).Equal(b1)
		back = back && b1.Add(a0).Equal(b0)
	}
	return fwd || back
}

func exclusive(rows [][]string, a, b int) bool {
	for _, r := range rows {
		if (cell(r, a) == "") == (cell(r, b) == "") {
			return false
		}
	}
	return true
}

// ApplyPreset sets a mapping to a documented export's layout by name.
func ApplyPreset(m *Mapping, name string) error {
	for _, p := range csvData.Presets {
		if p.Name != name {
			continue
		}
		m.Preset, m.DecimalComma = p.Name, p.DecimalComma
		if p.DateForm != "" {
			m.DateForm = p.DateForm
		}
		if p.NoHeader != nil {
			n := none()
			n.Preset, n.DateForm, n.DecimalComma, n.Delimiter = m.Preset, m.DateForm, m.DecimalComma, m.Delimiter
			if n.Delimiter == "" {
				n.Delimiter = ","
			}
			for f, v := range p.NoHeader {
				switch x := v.(type) {
				case float64:
					*map[string]*int{"date": &n.Date, "amount": &n.Amount, "balance": &n.Balance, "debit": &n.Debit, "credit": &n.Credit}[f] = int(x)
				case []any:
					for _, c := range x {
						n.Description = append(n.Description, int(c.(float64)))
					}
				}
			}
			*m = n
		}
		return nil
	}
	var names []string
	for _, p := range csvData.Presets {
		names = append(names, p.Name)
	}
	return fmt.Errorf("no bank export layout named %q: choose one of %s", name, strings.Join(names, ", "))
}

// parseCSV reads a CSV statement with the account's mapping, or a
// detected one (kept in the statement, to be shown and stored).
func parseCSV(txt string, opt Options) (*Statement, error) {
	var m Mapping
	if opt.Mapping != nil {
		m = *opt.Mapping
	} else {
		d, err := DetectMapping(txt, opt.DayFirst)
		if err != nil {
			return nil, fmt.Errorf("cannot tell how to read this CSV file: %w", err)
		}
		m = d
	}
	delim := ','
	if m.Delimiter != "" {
		delim = []rune(m.Delimiter)[0]
	}
	rows, err := readRows(txt, delim)
	if err != nil {
		return nil, err
	}
	if m.Header && len(rows) > 0 {
		rows = rows[1:]
	}
	layout, ok := layoutByShown(m.DateForm)
	if !ok {
		return nil, fmt.Errorf("unknown date form %q: use one of %s", m.DateForm, strings.Join(DateForms(), ", "))
	}
	s := &Statement{Format: "CSV", Mapping: &m}
	var balances []*decimal.Decimal
	for n, r := range rows {
		where := fmt.Sprintf("CSV row %d", n+1)
		if m.Header {
			where = fmt.Sprintf("CSV row %d", n+2)
		}
		d, err := layout.parse(cell(r, m.Date))
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a date in the form %s (change the date form if the file uses another)", where, cell(r, m.Date), m.DateForm)
		}
		var amt decimal.Decimal
		if m.Amount >= 0 {
			amt, err = parseNumber(cell(r, m.Amount), m.DecimalComma)
			if err != nil {
				return nil, fmt.Errorf("%s: amount %w", where, err)
			}
			if m.Sign >= 0 && slices.Contains(csvData.DebitMarks, strings.ToLower(cell(r, m.Sign))) {
				amt = amt.Abs().Neg()
			}
		} else {
			out, err1 := parseNumber(cell(r, m.Debit), m.DecimalComma)
			in, err2 := parseNumber(cell(r, m.Credit), m.DecimalComma)
			empty1, empty2 := errors.Is(err1, errEmpty), errors.Is(err2, errEmpty)
			if err1 != nil && !empty1 || err2 != nil && !empty2 || (empty1 && empty2) {
				return nil, fmt.Errorf("%s: neither money out (%q) nor money in (%q) is an amount", where, cell(r, m.Debit), cell(r, m.Credit))
			}
			amt = in.Abs().Sub(out.Abs())
		}
		if m.Negate {
			amt = amt.Neg()
		}
		var desc []string
		for _, c := range m.Description {
			desc = append(desc, cell(r, c))
		}
		l := Line{Date: d, Amount: amt, Description: strings.Join(nonEmpty(desc...), " "), Reference: cell(r, m.Reference), Currency: cell(r, m.Currency)}
		var bal *decimal.Decimal
		if m.Balance >= 0 {
			if b, err := parseNumber(cell(r, m.Balance), m.DecimalComma); err == nil {
				bal = &b
				l.Balance = &b
			}
		}
		balances = append(balances, bal)
		s.Lines = append(s.Lines, l)
	}
	if len(s.Lines) == 0 {
		return nil, errors.New("the CSV file has no statement lines")
	}
	// Newest first, as many banks export: turn it round.
	if s.Lines[0].Date.After(s.Lines[len(s.Lines)-1].Date) {
		slices.Reverse(s.Lines)
		slices.Reverse(balances)
	}
	if err := checkRunning(s, balances); err != nil {
		return nil, err
	}
	return s, nil
}

// checkRunning checks a balance column against the amounts, and states the
// opening (first balance less its line) and closing balances from it.
func checkRunning(s *Statement, balances []*decimal.Decimal) error {
	var prev *decimal.Decimal
	var since decimal.Decimal // the lines' sum since the last stated balance
	for i, b := range balances {
		since = since.Add(s.Lines[i].Amount)
		if b == nil {
			continue
		}
		if prev != nil {
			if want := prev.Add(since); !want.Equal(*b) {
				return fmt.Errorf("%w: after the line of %s (%s %s) the balance column says %s but the lines give %s; check the amount and balance columns",
					ErrBalance, s.Lines[i].Date.Format("2006-01-02"), s.Lines[i].Description, s.Lines[i].Amount, b, want)
			}
		} else {
			o := b.Sub(since)
			s.Opening = &o
		}
		prev, since = b, decimal.Zero
	}
	if prev != nil {
		c := prev.Add(since)
		s.Closing = &c
	}
	return nil
}
