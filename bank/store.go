package bank

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// Imported is what importing a statement file did.
type Imported struct {
	Account   string
	Statement *Statement
	library.StatementImport
}

// readLimited reads a statement file, refusing one over MaxFileBytes
// before reading it.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a file", path)
	}
	if st.Size() > MaxFileBytes {
		return nil, fmt.Errorf("%s is %d MB; statements over %d MB are refused (split it by period at the bank)", filepath.Base(path), st.Size()>>20, MaxFileBytes>>20)
	}
	return io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
}

// ImportOptions are the account to file the statement under ("" takes
// the account the file names), and a CSV mapping or preset to use instead
// of the account's stored one or a detected one.
type ImportOptions struct {
	Account string
	Mapping *Mapping
	Preset  string
}

// Import reads a statement file and keeps it in the library under its
// account. Nothing is stored when the file cannot be read or its balances
// do not add up. A CSV file is read with the account's stored mapping (or
// one detected, which is then stored for the account's next file).
func Import(ctx context.Context, lib *library.Library, path string, opt ImportOptions) (Imported, error) {
	var res Imported
	data, err := readLimited(path)
	if err != nil {
		return res, err
	}
	loc := lib.Locale()
	popt := Options{Currency: loc.Currency, DayFirst: loc.DateOrder != receipt.MDY}
	account := strings.TrimSpace(opt.Account)
	storedMapping := false
	if account != "" {
		if a, ok, err := lib.BankAccount(account); err != nil {
			return res, err
		} else if ok {
			if a.Currency != "" {
				popt.Currency = a.Currency
			}
			if a.CSVMapping != "" && opt.Mapping == nil && opt.Preset == "" {
				var m Mapping
				if json.Unmarshal([]byte(a.CSVMapping), &m) == nil {
					popt.Mapping, storedMapping = &m, true
				}
			}
		}
	}
	if opt.Mapping != nil {
		popt.Mapping = opt.Mapping
	}
	if opt.Preset != "" {
		txt, _, err := text(data)
		if err != nil {
			return res, err
		}
		m, _ := DetectMapping(txt, popt.DayFirst)
		if err := ApplyPreset(&m, opt.Preset); err != nil {
			return res, err
		}
		popt.Mapping = &m
	}
	s, err := Parse(filepath.Base(path), data, popt)
	if err != nil && storedMapping {
		// The bank changed its export: try reading it afresh.
		popt.Mapping = nil
		s, err = Parse(filepath.Base(path), data, popt)
	}
	if err != nil {
		return res, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	if err := s.CheckBalances(); err != nil {
		return res, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	if account == "" {
		account = s.Account
	}
	if account == "" {
		return res, fmt.Errorf("%s names no account: say which account it is (--account NAME)", filepath.Base(path))
	}
	res.Account, res.Statement = account, s
	if s.Mapping != nil {
		b, _ := json.Marshal(s.Mapping)
		if err := lib.SaveBankAccount(ctx, library.BankAccount{Name: account, Currency: s.Currency, CSVMapping: string(b)}); err != nil {
			return res, err
		}
	}
	ns := library.NewStatement{
		Account: account, Currency: s.Currency, Format: s.Format, OriginalName: filepath.Base(path), Data: data,
		From: s.From, To: s.To,
	}
	if s.Opening != nil {
		ns.Opening = s.Opening.String()
	}
	if s.Closing != nil {
		ns.Closing = s.Closing.String()
	}
	ns.Lines = storedLines(s)
	r, err := lib.AddStatement(ctx, ns)
	if err != nil {
		return res, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	res.StatementImport = r
	return res, nil
}

// storedLines gives each line its fingerprint: date, amount and
// description, and how many identical lines came before it in the file, so
// that an overlapping statement's copy of a line is the same line and two
// identical coffees on one day stay two.
func storedLines(s *Statement) []library.StatementLine {
	seen := map[string]int{}
	out := make([]library.StatementLine, len(s.Lines))
	for i, l := range s.Lines {
		base := l.Date.Format("2006-01-02") + "|" + l.Amount.StringFixed(4) + "|" + strings.Join(tokens(l.Description), " ")
		n := seen[base]
		seen[base] = n + 1
		ln := library.StatementLine{
			Fingerprint: fmt.Sprintf("%s|%d", base, n), Date: l.Date, Amount: l.Amount, Currency: l.Currency,
			OrigAmount: l.OrigAmount, OrigCurrency: l.OrigCurrency, Description: l.Description, Reference: l.Reference,
		}
		if l.Balance != nil {
			ln.Balance = l.Balance.String()
		}
		out[i] = ln
	}
	return out
}

// Run matches the statement lines dated in period (zero: all) to the
// library's receipts and stores the answer.
func Run(ctx context.Context, lib *library.Library, from, to time.Time, rules Rules) (Outcome, error) {
	lines, err := lib.StatementLines(library.LineFilter{From: from, To: to})
	if err != nil {
		return Outcome{}, err
	}
	rfrom, rto := from, to
	if !rfrom.IsZero() {
		rfrom = rfrom.AddDate(0, 0, -max(rules.InvoiceDays, rules.RefundDays))
	}
	if !rto.IsZero() {
		rto = rto.AddDate(0, 0, rules.EarlyDays+1)
	}
	receipts, err := lib.MatchReceipts(rfrom, rto)
	if err != nil {
		return Outcome{}, err
	}
	memory, err := lib.DescriptionMemory()
	if err != nil {
		return Outcome{}, err
	}
	rejected, err := lib.Rejections()
	if err != nil {
		return Outcome{}, err
	}
	taken, err := takenOutside(lib, from, to)
	if err != nil {
		return Outcome{}, err
	}
	changes, out := Match(lines, receipts, memory, rejected, taken, rules)
	return out, lib.ApplyMatchRun(ctx, changes)
}

// takenOutside are the receipts paid by lines outside [from, to).
func takenOutside(lib *library.Library, from, to time.Time) (map[int64]bool, error) {
	taken := map[int64]bool{}
	if from.IsZero() && to.IsZero() {
		return taken, nil
	}
	var ranges []library.LineFilter
	if !from.IsZero() {
		ranges = append(ranges, library.LineFilter{To: from})
	}
	if !to.IsZero() {
		ranges = append(ranges, library.LineFilter{From: to})
	}
	for _, f := range ranges {
		lines, err := lib.StatementLines(f)
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			if l.ReceiptID != 0 && l.MatchKind != library.KindRefund && (l.MatchState == library.MatchAutomatic || l.MatchState == library.MatchConfirmed) {
				taken[l.ReceiptID] = true
			}
		}
	}
	return taken, nil
}

// NoReceiptNeeded marks a line as needing no receipt; with remember, lines
// of the same description are marked so by later match runs.
func NoReceiptNeeded(ctx context.Context, lib *library.Library, lineID int64, remember bool) error {
	l, err := lib.StatementLine(lineID)
	if err != nil {
		return err
	}
	key := ""
	if remember {
		key = DescriptionKey(l.Description)
	}
	return lib.NoReceiptNeeded(ctx, lineID, key)
}

// Confirm confirms a line's receipt (or matches the given one by hand) and
// remembers the description for the supplier.
func Confirm(ctx context.Context, lib *library.Library, lineID, receiptID int64, kind string) error {
	l, err := lib.StatementLine(lineID)
	if err != nil {
		return err
	}
	return lib.ConfirmMatch(ctx, lineID, receiptID, kind, DescriptionKey(l.Description))
}

// MappingOf is how a CSV statement file would be read: its detected
// mapping, or a documented export's layout.
func MappingOf(path string, dayFirst bool, preset string) (Mapping, error) {
	data, err := readLimited(path)
	if err != nil {
		return Mapping{}, err
	}
	txt, _, err := text(data)
	if err != nil {
		return Mapping{}, err
	}
	m, err := DetectMapping(txt, dayFirst)
	if preset != "" {
		return m, ApplyPreset(&m, preset)
	}
	return m, err
}

// StateText says a line's match state in a bookkeeper's words.
func StateText(l library.StatementLine) string {
	switch l.MatchState {
	case library.MatchAutomatic:
		return "matched"
	case library.MatchConfirmed:
		return "confirmed"
	case library.MatchNotNeeded:
		return "no receipt needed"
	case library.MatchProposed:
		return "to check"
	}
	if l.Amount.IsNegative() {
		return "receipt missing"
	}
	return "money in"
}
