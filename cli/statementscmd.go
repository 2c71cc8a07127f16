package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/bank"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

func init() {
	register("statements", "bank and card statements: statements import FILE [--account NAME] | list | accounts | remove ID | presets", runStatements)
	register("match", "match statement lines to receipts (--period 2025-Q3); --confirm, --reject, --no-receipt, --unmatch LINE, --undo", runMatch)
	register("missing", "list the statement lines with no receipt for a period: missing --period 2025-Q3 -o FILE.xlsx|.csv", runMissing)
}

func runStatements(env Env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, "Usage: shoebox statements import FILE... [--account NAME] | list [--account NAME] [--period P] [--missing] | accounts | remove ID | presets")
		return 2
	}
	switch args[0] {
	case "import":
		return runStatementsImport(env, args[1:])
	case "list":
		return runStatementsList(env, args[1:])
	case "accounts":
		return runStatementsAccounts(env, args[1:])
	case "remove":
		return runStatementsRemove(env, args[1:])
	case "presets":
		for _, p := range bank.Presets() {
			fmt.Fprintf(env.Stdout, "%-16s %s\n", p[0], p[1])
		}
		fmt.Fprintln(env.Stdout, "\nDate forms: "+strings.Join(bank.DateForms(), ", "))
		return 0
	}
	fmt.Fprintf(env.Stderr, "shoebox statements: unknown action %q: use import, list, accounts, remove or presets\n", args[0])
	return 2
}

// mappingFlags are the CSV column mapping a bookkeeper may set or change.
type mappingFlags struct {
	preset, dateForm, decimalComma, columns *string
	negate                                  *bool
}

func (m mappingFlags) set() bool {
	return *m.dateForm != "" || *m.decimalComma != "" || *m.columns != "" || *m.negate
}

// apply changes a detected or stored mapping as the flags say.
func (m mappingFlags) apply(base bank.Mapping) (bank.Mapping, error) {
	if *m.dateForm != "" {
		base.DateForm = *m.dateForm
	}
	switch strings.ToLower(*m.decimalComma) {
	case "":
	case "yes", "true", "comma":
		base.DecimalComma = true
	case "no", "false", "point":
		base.DecimalComma = false
	default:
		return base, fmt.Errorf("--decimal-comma %q: say yes or no", *m.decimalComma)
	}
	if *m.negate {
		base.Negate = true
	}
	if *m.columns != "" {
		for _, part := range strings.Split(*m.columns, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if !ok || err != nil || n < 0 {
				return base, fmt.Errorf("--columns %q: write field=column, columns counted from 1 (0 for none): date=1,description=3,amount=2", part)
			}
			n-- // people count from 1
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "date":
				base.Date = n
			case "description":
				base.Description = []int{n}
			case "amount":
				base.Amount = n
			case "debit", "out":
				base.Debit = n
			case "credit", "in":
				base.Credit = n
			case "sign":
				base.Sign = n
			case "balance":
				base.Balance = n
			case "currency":
				base.Currency = n
			case "reference":
				base.Reference = n
			default:
				return base, fmt.Errorf("--columns: unknown field %q (date, description, amount, debit, credit, sign, balance, currency, reference)", k)
			}
		}
	}
	return base, nil
}

func runStatementsImport(env Env, args []string) int {
	fs, libDir := newFlags(env, "statements import", "FILE...")
	account := fs.String("account", "", "the account the statement is of (default: the account number the file names)")
	mf := mappingFlags{
		preset:       fs.String("preset", "", "read a CSV file as a documented bank export (shoebox statements presets)"),
		dateForm:     fs.String("date-form", "", "CSV dates' form, e.g. DD/MM/YYYY (default: detected)"),
		decimalComma: fs.String("decimal-comma", "", "CSV amounts use a decimal comma: yes or no (default: detected)"),
		columns:      fs.String("columns", "", "CSV columns by number from 1: date=1,description=3,amount=2,balance=4"),
		negate:       fs.Bool("negate", false, "CSV shows purchases as positive amounts (some card exports)"),
	}
	asJSON := fs.Bool("json", false, "print results as JSON")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	ctx, stop := interruptible()
	defer stop()
	code := 0
	var results []map[string]any
	for _, path := range fs.Args() {
		opt := bank.ImportOptions{Account: *account, Preset: *mf.preset}
		if mf.set() {
			m, err := currentMapping(l, path, *account, *mf.preset)
			if err == nil {
				m, err = mf.apply(m)
			}
			if err != nil {
				fmt.Fprintf(env.Stderr, "shoebox: %s: %v\n", path, err)
				code = 1
				continue
			}
			opt.Mapping, opt.Preset = &m, ""
		}
		res, err := bank.Import(ctx, l, path, opt)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			code = 1
			continue
		}
		s := res.Statement
		if *asJSON {
			results = append(results, map[string]any{
				"file": path, "account": res.Account, "format": s.Format, "result": res.StatementImport,
				"opening": s.Opening, "closing": s.Closing, "from": s.From.Format("2006-01-02"), "to": s.To.Format("2006-01-02"), "mapping": s.Mapping, "notes": s.Notes,
			})
			continue
		}
		fmt.Fprintf(env.Stdout, "%s: %s statement of %s, %s to %s: %s", path, s.Format, res.Account, s.From.Format("2 Jan 2006"), s.To.Format("2 Jan 2006"), plural(res.Lines, "line"))
		switch {
		case res.SameFile:
			fmt.Fprintf(env.Stdout, " — this file was imported before; nothing added\n")
		case res.AlreadyHad > 0:
			fmt.Fprintf(env.Stdout, ", %d new, %d already imported from an overlapping statement\n", res.Added, res.AlreadyHad)
		default:
			fmt.Fprintf(env.Stdout, ", all new\n")
		}
		if s.Opening != nil || s.Closing != nil {
			fmt.Fprintf(env.Stdout, "  balances: opening %s, lines %s, closing %s (they add up)\n", money(s.Opening), s.Sum().StringFixed(2), money(s.Closing))
		}
		if s.Mapping != nil {
			fmt.Fprintf(env.Stdout, "  read as: %s\n  (change with --date-form, --decimal-comma, --columns or --preset; it is kept for the account)\n", s.Mapping.Describe())
		}
		for _, n := range s.Notes {
			fmt.Fprintln(env.Stdout, "  note:", n)
		}
	}
	if *asJSON && printJSON(env, results) != 0 {
		return 1
	}
	return code
}

func money(d *decimal.Decimal) string {
	if d == nil {
		return "not stated"
	}
	return d.StringFixed(2)
}

// currentMapping is the mapping the flags change: the account's stored
// one, else the one the file's own columns suggest.
func currentMapping(l *library.Library, path, account, preset string) (bank.Mapping, error) {
	if account != "" && preset == "" {
		if a, ok, _ := l.BankAccount(account); ok && a.CSVMapping != "" {
			var m bank.Mapping
			if json.Unmarshal([]byte(a.CSVMapping), &m) == nil {
				return m, nil
			}
		}
	}
	return bank.MappingOf(path, l.Locale().DateOrder != receipt.MDY, preset)
}

func parsePeriodFlag(l *library.Library, s string) (receipt.Period, error) {
	if s == "" {
		return receipt.Period{}, nil
	}
	return receipt.ParsePeriod(s, l.Locale().FYStartMonth)
}

func runStatementsList(env Env, args []string) int {
	fs, libDir := newFlags(env, "statements list", "")
	account := fs.String("account", "", "only this account")
	period := fs.String("period", "", "only lines dated in 2025-07, 2025-Q3, FY2025 or 2025")
	missing := fs.Bool("missing", false, "only lines without a sure or confirmed receipt")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseArgs(fs, args); err != nil || fs.NArg() > 0 {
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	p, err := parsePeriodFlag(l, *period)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 2
	}
	lines, err := l.StatementLines(library.LineFilter{Account: *account, From: p.Start, To: p.End, Unmatched: *missing})
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	if *asJSON {
		return printJSON(env, lines)
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LINE\tACCOUNT\tDATE\tAMOUNT\tDESCRIPTION\tRECEIPT\tSTATUS\tWHY")
	for _, ln := range lines {
		rc := ""
		if ln.ReceiptID != 0 {
			rc = fmt.Sprint(ln.ReceiptID)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s %s\t%s\t%s\t%s\t%s\n", ln.ID, ln.Account, ln.Date.Format("2006-01-02"), ln.Amount.StringFixed(2), ln.Currency,
			clip(ln.Description, 40), rc, bank.StateText(ln), ln.MatchReason)
	}
	tw.Flush()
	return 0
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func runStatementsAccounts(env Env, args []string) int {
	fs, libDir := newFlags(env, "statements accounts", "")
	if err := parseArgs(fs, args); err != nil || fs.NArg() > 0 {
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	accts, err := l.BankAccounts()
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	for _, a := range accts {
		sts, _ := l.Statements(a.Name)
		fmt.Fprintf(env.Stdout, "%s (%s): %d statements\n", a.Name, a.Currency, len(sts))
		for _, s := range sts {
			fmt.Fprintf(env.Stdout, "  [%d] %s  %s  %s to %s  %d lines (%d new)  opening %s  closing %s\n", s.ID, s.OriginalName, s.Format, s.From, s.To, s.Lines, s.Added,
				orDash(s.Opening), orDash(s.Closing))
		}
		if a.CSVMapping != "" {
			var m bank.Mapping
			if json.Unmarshal([]byte(a.CSVMapping), &m) == nil {
				fmt.Fprintf(env.Stdout, "  CSV read as: %s\n", m.Describe())
			}
		}
	}
	return 0
}

func runStatementsRemove(env Env, args []string) int {
	fs, libDir := newFlags(env, "statements remove", "ID")
	if err := parseArgs(fs, args); err != nil || fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	id, err := strconv.ParseInt(fs.Arg(0), 10, 64)
	if err != nil {
		fmt.Fprintf(env.Stderr, "shoebox: %q is not a statement number (shoebox statements accounts shows them in brackets)\n", fs.Arg(0))
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	ctx, stop := interruptible()
	defer stop()
	info, err := l.RemoveStatement(ctx, id)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	fmt.Fprintf(env.Stdout, "removed %s from %s, with the lines it brought; import it again to read it another way\n", info.OriginalName, info.Account)
	return 0
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func runMatch(env Env, args []string) int {
	fs, libDir := newFlags(env, "match", "")
	period := fs.String("period", "", "match the lines dated in 2025-07, 2025-Q3, FY2025 or 2025 (default: all)")
	confirm := fs.Int64("confirm", 0, "confirm statement line LINE's receipt (or, with --receipt, match it by hand)")
	receiptID := fs.Int64("receipt", 0, "with --confirm: the receipt to match the line to")
	split := fs.Bool("split", false, "with --confirm: the line is one of several that paid the receipt")
	refund := fs.Bool("refund", false, "with --confirm: the line is money back for the receipt")
	reject := fs.Int64("reject", 0, "statement line LINE's proposed receipt is not its own")
	unmatch := fs.Int64("unmatch", 0, "take the receipt off statement line LINE (or its 'no receipt needed')")
	noReceipt := fs.Int64("no-receipt", 0, "statement line LINE needs no receipt (a bank fee, a transfer, a repayment)")
	always := fs.Bool("always", false, "with --no-receipt: lines of the same description never need one")
	undo := fs.Bool("undo", false, "take back the last confirm, reject or unmatch")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseArgs(fs, args); err != nil || fs.NArg() > 0 {
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	ctx, stop := interruptible()
	defer stop()
	var err error
	switch {
	case *confirm != 0:
		kind := library.KindPayment
		if *split {
			kind = library.KindSplit
		} else if *refund {
			kind = library.KindRefund
		}
		if err = bank.Confirm(ctx, l, *confirm, *receiptID, kind); err == nil {
			fmt.Fprintf(env.Stdout, "statement line %d confirmed\n", *confirm)
		}
	case *noReceipt != 0:
		if err = bank.NoReceiptNeeded(ctx, l, *noReceipt, *always); err == nil {
			fmt.Fprintf(env.Stdout, "statement line %d needs no receipt\n", *noReceipt)
		}
	case *reject != 0:
		if err = l.RejectMatch(ctx, *reject); err == nil {
			fmt.Fprintf(env.Stdout, "statement line %d: receipt rejected; it will not be proposed for this line again\n", *reject)
		}
	case *unmatch != 0:
		if err = l.UnmatchLine(ctx, *unmatch); err == nil {
			fmt.Fprintf(env.Stdout, "statement line %d has no receipt now\n", *unmatch)
		}
	case *undo:
		var what string
		var done bool
		if what, done, err = l.UndoMatch(ctx); err == nil {
			if done {
				fmt.Fprintln(env.Stdout, "undone:", what)
			} else {
				fmt.Fprintln(env.Stdout, "nothing to undo")
			}
		}
	default:
		p, perr := parsePeriodFlag(l, *period)
		if perr != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", perr)
			return 2
		}
		start := time.Now()
		out, rerr := bank.Run(ctx, l, p.Start, p.End, bank.DefaultRules)
		if err = rerr; err == nil {
			if *asJSON {
				return printJSON(env, out)
			}
			fmt.Fprintf(env.Stdout, "%d statement lines%s: %d matched, %d proposed for you to check, %d confirmed before, %d need no receipt, %d money out with no receipt, %d money in unmatched (%v)\n",
				out.Lines, periodText(p), out.Sure, out.Proposed, out.Confirmed, out.NotNeeded, out.Missing, out.MoneyIn, time.Since(start).Round(time.Millisecond))
		}
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	return 0
}

func periodText(p receipt.Period) string {
	if p.Label == "" {
		return ""
	}
	return " in " + p.Label
}

func runMissing(env Env, args []string) int {
	fs, libDir := newFlags(env, "missing", "")
	period := fs.String("period", "", "the period: 2025-07, 2025-Q3, FY2025 or 2025 (default: all statements)")
	out := fs.String("o", "", "write the list to FILE.xlsx (printable, two sheets) or FILE.csv (with FILE-not-on-statement.csv)")
	if err := parseArgs(fs, args); err != nil || fs.NArg() > 0 {
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	p, err := parsePeriodFlag(l, *period)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 2
	}
	rep, err := bank.MissingReport(l, p.Label, p.Start, p.End)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	if *out != "" {
		if err := rep.Write(*out); err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
	} else {
		tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
		for _, ln := range rep.Missing {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s %s\t%s\n", ln.ID, ln.Account, ln.Date.Format("2006-01-02"), ln.Amount.Abs().StringFixed(2), ln.Currency, ln.Description)
		}
		tw.Flush()
	}
	fmt.Fprintf(env.Stdout, "%d statement lines%s have no receipt, %d have one proposed to check; %d receipts are on no statement line",
		len(rep.Missing), periodText(p), len(rep.ToCheck), len(rep.ReceiptsWithoutLine))
	if *out != "" {
		fmt.Fprintf(env.Stdout, "; written to %s", *out)
	}
	fmt.Fprintln(env.Stdout)
	return 0
}
