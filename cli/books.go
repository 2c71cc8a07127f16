package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/shoebox-app/shoebox/clients"
	"github.com/shoebox-app/shoebox/export"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

func init() {
	register("books", "a client's chart of accounts, tax codes, supplier rules and receipt coding", runBooks)
}

const booksUsage = `Usage (each takes --client NAME or --library DIR):
  shoebox books accounts [--import FILE] [--defaults]   the chart of accounts; import Xero's or MYOB's export
  shoebox books taxcodes                                the client's tax codes
  shoebox books default-account [CODE]                  the account a receipt is booked to when nothing else says
  shoebox books contacts [--import FILE] [--json]       suppliers as the program knows them: Xero contacts CSV, MYOB card file, QuickBooks vendor list
  shoebox books rules [--json]                          supplier rules
  shoebox books rule SUPPLIER [--account A] [--tax-code T] [--currency C] [--payment P] [--delete]
  shoebox books code ID [--line N] [--account A] [--tax-code T]   book a receipt (or line item N) to an account
  shoebox books bank-account NUMBER                     the account receipts are paid from (MYOB: 1-1110)
  shoebox books settings [--country C] [--currency C] [--fy-start MONTH] [--tax-registration ID]`

// booksFlags are the flags of every books subcommand.
type booksFlags struct {
	fs                                     *flag.FlagSet
	libDir                                 *string
	importFile, account, taxCode, currency *string
	payment, country, taxReg               *string
	defaults, del, asJSON                  *bool
	line, fyStart                          *int
}

// booksCommands are the books subcommands: how many arguments each takes
// and what it does with the client's library.
var booksCommands = map[string]struct {
	args int
	run  func(booksRun) error
}{
	"accounts":        {0, booksAccounts},
	"taxcodes":        {0, booksTaxCodes},
	"default-account": {-1, booksDefaultAccount},
	"contacts":        {0, booksContacts},
	"rules":           {0, booksRules},
	"rule":            {1, booksRule},
	"code":            {1, booksCode},
	"bank-account":    {1, booksBankAccount},
	"settings":        {0, booksSettings},
}

// booksRun is one books subcommand's call: its flags, library and output.
type booksRun struct {
	booksFlags
	env Env
	l   *library.Library
	ctx context.Context
	out *tabwriter.Writer
}

func runBooks(env Env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, booksUsage)
		return 2
	}
	sub := args[0]
	fs, libDir := newFlags(env, "books "+sub, "")
	f := booksFlags{
		fs: fs, libDir: libDir,
		importFile: fs.String("import", "", "accounts: the chart exported by Xero (CSV) or MYOB (tab-delimited); contacts: the supplier list"),
		defaults:   fs.Bool("defaults", false, "start from the country's default chart and tax codes"),
		account:    fs.String("account", "", "account code"),
		taxCode:    fs.String("tax-code", "", "tax code"),
		currency:   fs.String("currency", "", "currency (ISO code)"),
		payment:    fs.String("payment", "", "payment method"),
		line:       fs.Int("line", 0, "line item number (1 is the first); 0 books the whole receipt"),
		del:        fs.Bool("delete", false, "delete the supplier's rule"),
		asJSON:     fs.Bool("json", false, "print JSON"),
		country:    fs.String("country", "", "the client's country (AU, NZ, UK, EU, US, MY, other): dates, currency and year start follow"),
		fyStart:    fs.Int("fy-start", 0, "the month the client's financial year starts (1-12)"),
		taxReg:     fs.String("tax-registration", "", "the client's own tax registration (ABN, VAT number…)"),
	}
	if err := parseArgs(fs, args[1:]); err != nil {
		return 2
	}
	cmd, ok := booksCommands[sub]
	if !ok || cmd.args >= 0 && fs.NArg() != cmd.args || cmd.args < 0 && fs.NArg() > 1 {
		fmt.Fprintln(env.Stderr, booksUsage)
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	run := booksRun{booksFlags: f, env: env, l: l, ctx: context.Background(), out: tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)}
	err := cmd.run(run)
	run.out.Flush()
	if err != nil {
		if !errors.Is(err, errPrinted) {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
		}
		return 1
	}
	return 0
}

// errPrinted: the subcommand already said what went wrong.
var errPrinted = fmt.Errorf("already printed")

func (r booksRun) json(v any) error {
	if printJSON(r.env, v) != 0 {
		return errPrinted
	}
	return nil
}

func booksAccounts(r booksRun) error {
	if *r.defaults {
		if err := r.l.UseCountryDefaults(r.ctx, r.l.ChartCountry()); err != nil {
			return err
		}
	}
	if *r.importFile != "" {
		if err := importChart(r, *r.importFile); err != nil {
			return err
		}
	}
	accts, err := r.l.Accounts()
	if err != nil {
		return err
	}
	if *r.asJSON {
		return r.json(accts)
	}
	fmt.Fprintln(r.out, "CODE\tNAME\tTYPE\tTAX CODE")
	for _, a := range accts {
		fmt.Fprintf(r.out, "%s\t%s\t%s\t%s\n", a.Code, a.Name, a.Type, a.TaxCode)
	}
	return nil
}

func importChart(r booksRun, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	codes, _ := r.l.TaxCodes()
	accts, err := library.ParseChart(f, codes)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := r.l.SetAccounts(r.ctx, accts); err != nil {
		return err
	}
	fmt.Fprintf(r.env.Stdout, "imported %d accounts from %s\n", len(accts), path)
	if def := r.l.Setting(library.SettingDefaultAccount); def != "" && !hasAccount(accts, def) {
		fmt.Fprintf(r.env.Stdout, "the default account %s is not in it: set one with shoebox books default-account CODE\n", def)
	}
	return nil
}

func hasAccount(accts []library.Account, code string) bool {
	for _, a := range accts {
		if a.Code == code {
			return true
		}
	}
	return false
}

func booksTaxCodes(r booksRun) error {
	codes, err := r.l.TaxCodes()
	if err != nil {
		return err
	}
	if *r.asJSON {
		return r.json(codes)
	}
	fmt.Fprintln(r.out, "CODE\tNAME\tRATE\tXERO TAX RATE")
	for _, t := range codes {
		fmt.Fprintf(r.out, "%s\t%s\t%s%%\t%s\n", t.Code, t.Name, t.Rate, t.XeroName)
	}
	return nil
}

// booksDefaultAccount shows or sets the account receipts are booked to
// when no rule, person or category says.
func booksDefaultAccount(r booksRun) error {
	if r.fs.NArg() == 1 {
		code := r.fs.Arg(0)
		accts, err := r.l.Accounts()
		if err != nil {
			return err
		}
		if len(accts) > 0 && !hasAccount(accts, code) {
			return fmt.Errorf("account %s is not in this client's chart of accounts", code)
		}
		if err := r.l.SetSetting(library.SettingDefaultAccount, code); err != nil {
			return err
		}
	}
	fmt.Fprintf(r.out, "default account\t%s\n", r.l.Setting(library.SettingDefaultAccount))
	return nil
}

// booksContacts shows the client's contacts, after importing its
// program's supplier list when --import names one.
func booksContacts(r booksRun) error {
	if *r.importFile != "" {
		f, err := os.Open(*r.importFile)
		if err != nil {
			return err
		}
		defer f.Close()
		contacts, err := library.ParseContacts(f)
		if err != nil {
			return fmt.Errorf("%s: %w", *r.importFile, err)
		}
		if err := r.l.SetContacts(r.ctx, contacts); err != nil {
			return err
		}
		fmt.Fprintf(r.env.Stdout, "imported %d contacts from %s\n", len(contacts), *r.importFile)
	}
	contacts, err := r.l.Contacts()
	if err != nil {
		return err
	}
	if *r.asJSON {
		return r.json(contacts)
	}
	fmt.Fprintln(r.out, "CONTACT\tTAX NUMBER")
	for _, c := range contacts {
		fmt.Fprintf(r.out, "%s\t%s\n", c.Name, c.TaxID)
	}
	return nil
}

func booksRules(r booksRun) error {
	rules, err := r.l.Rules()
	if err != nil {
		return err
	}
	if *r.asJSON {
		return r.json(rules)
	}
	fmt.Fprintln(r.out, "SUPPLIER\tACCOUNT\tTAX CODE\tCURRENCY\tPAYMENT\tFROM")
	for _, rule := range rules {
		from := fmt.Sprintf("learned from %d", rule.Learned)
		if rule.Typed {
			from = "typed"
		}
		fmt.Fprintf(r.out, "%s\t%s\t%s\t%s\t%s\t%s\n", rule.Name, rule.Account, rule.TaxCode, rule.Currency, rule.PaymentMethod, from)
	}
	return nil
}

func booksRule(r booksRun) error {
	if *r.del {
		return r.l.DeleteRule(r.ctx, r.fs.Arg(0))
	}
	return r.l.SetRule(r.ctx, library.SupplierRule{Name: r.fs.Arg(0), Account: *r.account, TaxCode: *r.taxCode, Currency: *r.currency, PaymentMethod: *r.payment})
}

func booksCode(r booksRun) error {
	id, err := strconv.ParseInt(r.fs.Arg(0), 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a receipt ID", r.fs.Arg(0))
	}
	if *r.account == "" && *r.taxCode == "" {
		c, err := r.l.Coding(id)
		if err != nil {
			return err
		}
		return r.json(c)
	}
	return r.l.SetCoding(r.ctx, id, *r.line-1, *r.account, *r.taxCode)
}

func booksSettings(r booksRun) error {
	loc := r.l.Locale()
	if *r.country != "" {
		c, err := receipt.ParseCountry(*r.country)
		if err != nil {
			return err
		}
		loc = receipt.DefaultLocale(c)
	}
	if *r.currency != "" {
		loc.Currency = strings.ToUpper(*r.currency)
	}
	if *r.fyStart != 0 {
		if *r.fyStart < 1 || *r.fyStart > 12 {
			return fmt.Errorf("--fy-start %d: use a month from 1 to 12", *r.fyStart)
		}
		loc.FYStartMonth = time.Month(*r.fyStart)
	}
	if *r.country != "" || *r.currency != "" || *r.fyStart != 0 {
		if err := r.l.SetLocale(loc); err != nil {
			return err
		}
	}
	if *r.taxReg != "" {
		if err := r.l.SetSetting(clients.SettingTaxRegistration, *r.taxReg); err != nil {
			return err
		}
	}
	fmt.Fprintf(r.out, "country\t%s\ncurrency\t%s\nfinancial year starts\t%s\ntax registration\t%s\nbank account\t%s\ndefault account\t%s\n",
		loc.Country, loc.Currency, loc.FYStartMonth, r.l.Setting(clients.SettingTaxRegistration), r.l.Setting(clients.SettingBankAccount),
		r.l.Setting(library.SettingDefaultAccount))
	return nil
}

func booksBankAccount(r booksRun) error {
	if !export.MYOBAccountPattern.MatchString(r.fs.Arg(0)) {
		fmt.Fprintf(r.env.Stderr, "shoebox: note: %q is not an MYOB account number (like 1-1110); MYOB Spend Money will refuse it\n", r.fs.Arg(0))
	}
	return r.l.SetSetting(clients.SettingBankAccount, r.fs.Arg(0))
}
