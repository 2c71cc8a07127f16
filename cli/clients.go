package cli

import (
	"context"
	"encoding/json"
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
	register("clients", "list, create, rename or archive clients (each is its own library)", runClients)
	register("books", "a client's chart of accounts, tax codes, supplier rules and receipt coding", runBooks)
}

// useClient points a command's --library at a client's library folder.
func useClient(name string, lib *string) error {
	if *lib != "" {
		return fmt.Errorf("give --client or --library, not both")
	}
	dir, err := clients.DefaultDir()
	if err != nil {
		return err
	}
	reg, err := clients.Open(dir)
	if err != nil {
		return err
	}
	l, c, err := reg.OpenLibrary(name)
	if err != nil {
		return err
	}
	l.Close()
	*lib = reg.Path(c)
	return nil
}

func openRegistry(env Env) (*clients.Registry, bool) {
	dir, err := clients.DefaultDir()
	if err == nil {
		var reg *clients.Registry
		if reg, err = clients.Open(dir); err == nil {
			return reg, true
		}
	}
	fmt.Fprintln(env.Stderr, "shoebox:", err)
	return nil, false
}

const clientsUsage = `Usage:
  shoebox clients list [--all] [--json]      clients, most recently used first
  shoebox clients new NAME [--country AU]    a new client with its own library
  shoebox clients rename OLD NEW
  shoebox clients archive NAME               hide a client (its library stays)
  shoebox clients unarchive NAME
  shoebox clients move ID FROM TO            move a receipt to another client (its history goes with it)
Every library command takes --client NAME.`

func runClients(env Env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, clientsUsage)
		return 2
	}
	fs := newFlagSet(env, "clients "+args[0])
	all := fs.Bool("all", false, "list archived clients too")
	asJSON := fs.Bool("json", false, "print JSON")
	country := fs.String("country", "AU", "the new client's country: AU, NZ, UK, EU, US, MY or other")
	if err := parseArgs(fs, args[1:]); err != nil {
		return 2
	}
	reg, ok := openRegistry(env)
	if !ok {
		return 1
	}
	want := map[string]int{"list": 0, "new": 1, "rename": 2, "archive": 1, "unarchive": 1, "move": 3}
	n, known := want[args[0]]
	if !known || fs.NArg() != n {
		fmt.Fprintln(env.Stderr, clientsUsage)
		return 2
	}
	var err error
	switch args[0] {
	case "list":
		list := reg.List(*all)
		if *asJSON {
			enc := json.NewEncoder(env.Stdout)
			enc.SetIndent("", "  ")
			enc.Encode(list)
			return 0
		}
		if len(list) == 0 {
			fmt.Fprintln(env.Stdout, "no clients yet: shoebox clients new NAME")
			return 0
		}
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CLIENT\tLAST USED\tFOLDER")
		for _, c := range list {
			name := c.Name
			if c.Archived {
				name += " (archived)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", name, c.LastOpened.Local().Format("2006-01-02 15:04"), reg.Path(c))
		}
		tw.Flush()
		return 0
	case "new":
		var c receipt.Country
		if c, err = receipt.ParseCountry(*country); err == nil {
			var cl clients.Client
			if cl, err = reg.New(fs.Arg(0), c); err == nil {
				fmt.Fprintf(env.Stdout, "new client %s (%s) in %s\n", cl.Name, c, reg.Path(cl))
			}
		}
	case "rename":
		err = reg.Rename(fs.Arg(0), fs.Arg(1))
	case "archive":
		err = reg.Archive(fs.Arg(0))
	case "unarchive":
		err = reg.Unarchive(fs.Arg(0))
	case "move":
		err = moveReceipt(env, reg, fs.Arg(0), fs.Arg(1), fs.Arg(2))
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	return 0
}

func moveReceipt(env Env, reg *clients.Registry, idText, fromName, toName string) error {
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a receipt ID", idText)
	}
	from, fc, err := reg.OpenLibrary(fromName)
	if err != nil {
		return err
	}
	defer from.Close()
	to, tc, err := reg.OpenLibrary(toName)
	if err != nil {
		return err
	}
	defer to.Close()
	newID, err := clients.Move(context.Background(), from, to, fc.Name, tc.Name, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "receipt %d of %s is now receipt %d of %s\n", id, fc.Name, newID, tc.Name)
	return nil
}

func newFlagSet(env Env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	return fs
}

const booksUsage = `Usage (each takes --client NAME or --library DIR):
  shoebox books accounts [--import FILE] [--defaults]   the chart of accounts; import Xero's or MYOB's export
  shoebox books taxcodes                                the client's tax codes
  shoebox books rules [--json]                          supplier rules
  shoebox books rule SUPPLIER [--account A] [--tax-code T] [--currency C] [--payment P] [--delete]
  shoebox books code ID [--line N] [--account A] [--tax-code T]   book a receipt (or line item N) to an account
  shoebox books bank-account NUMBER                     the account receipts are paid from (MYOB: 1-1110)
  shoebox books settings [--country C] [--currency C] [--fy-start MONTH] [--tax-registration ID]`

func runBooks(env Env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, booksUsage)
		return 2
	}
	sub := args[0]
	fs, libDir := newFlags(env, "books "+sub, "")
	importFile := fs.String("import", "", "chart of accounts file exported by Xero (CSV) or MYOB (tab-delimited)")
	defaults := fs.Bool("defaults", false, "start from the country's default chart and tax codes")
	account := fs.String("account", "", "account code")
	taxCode := fs.String("tax-code", "", "tax code")
	currency := fs.String("currency", "", "currency (ISO code)")
	payment := fs.String("payment", "", "payment method")
	line := fs.Int("line", 0, "line item number (1 is the first); 0 books the whole receipt")
	del := fs.Bool("delete", false, "delete the supplier's rule")
	asJSON := fs.Bool("json", false, "print JSON")
	country := fs.String("country", "", "the client's country (AU, NZ, UK, EU, US, MY, other): dates, currency and year start follow")
	fyStart := fs.Int("fy-start", 0, "the month the client's financial year starts (1-12)")
	taxReg := fs.String("tax-registration", "", "the client's own tax registration (ABN, VAT number…)")
	if err := parseArgs(fs, args[1:]); err != nil {
		return 2
	}
	want := map[string]int{"accounts": 0, "taxcodes": 0, "rules": 0, "rule": 1, "code": 1, "bank-account": 1, "settings": 0}
	if n, ok := want[sub]; !ok || fs.NArg() != n {
		fmt.Fprintln(env.Stderr, booksUsage)
		return 2
	}
	l, ok := openLibrary(env, *libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	ctx := context.Background()
	fail := func(err error) int {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	switch sub {
	case "accounts":
		if *defaults {
			if err := l.UseCountryDefaults(ctx, l.Locale().Country); err != nil {
				return fail(err)
			}
		}
		if *importFile != "" {
			f, err := os.Open(*importFile)
			if err != nil {
				return fail(err)
			}
			defer f.Close()
			codes, _ := l.TaxCodes()
			accts, err := library.ParseChart(f, codes)
			if err != nil {
				return fail(fmt.Errorf("%s: %w", *importFile, err))
			}
			if err := l.SetAccounts(ctx, accts); err != nil {
				return fail(err)
			}
			fmt.Fprintf(env.Stdout, "imported %d accounts from %s\n", len(accts), *importFile)
		}
		accts, err := l.Accounts()
		if err != nil {
			return fail(err)
		}
		if *asJSON {
			return printJSON(env, accts)
		}
		fmt.Fprintln(tw, "CODE\tNAME\tTYPE\tTAX CODE")
		for _, a := range accts {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", a.Code, a.Name, a.Type, a.TaxCode)
		}
	case "taxcodes":
		codes, err := l.TaxCodes()
		if err != nil {
			return fail(err)
		}
		if *asJSON {
			return printJSON(env, codes)
		}
		fmt.Fprintln(tw, "CODE\tNAME\tRATE\tXERO TAX RATE")
		for _, t := range codes {
			fmt.Fprintf(tw, "%s\t%s\t%s%%\t%s\n", t.Code, t.Name, t.Rate, t.XeroName)
		}
	case "rules":
		rules, err := l.Rules()
		if err != nil {
			return fail(err)
		}
		if *asJSON {
			return printJSON(env, rules)
		}
		fmt.Fprintln(tw, "SUPPLIER\tACCOUNT\tTAX CODE\tCURRENCY\tPAYMENT\tFROM")
		for _, r := range rules {
			from := fmt.Sprintf("learned from %d", r.Learned)
			if r.Typed {
				from = "typed"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Account, r.TaxCode, r.Currency, r.PaymentMethod, from)
		}
	case "rule":
		if *del {
			if err := l.DeleteRule(ctx, fs.Arg(0)); err != nil {
				return fail(err)
			}
			return 0
		}
		if err := l.SetRule(ctx, library.SupplierRule{Name: fs.Arg(0), Account: *account, TaxCode: *taxCode, Currency: *currency, PaymentMethod: *payment}); err != nil {
			return fail(err)
		}
	case "code":
		id, err := strconv.ParseInt(fs.Arg(0), 10, 64)
		if err != nil {
			return fail(fmt.Errorf("%q is not a receipt ID", fs.Arg(0)))
		}
		if *account == "" && *taxCode == "" {
			c, err := l.Coding(id)
			if err != nil {
				return fail(err)
			}
			return printJSON(env, c)
		}
		if err := l.SetCoding(ctx, id, *line-1, *account, *taxCode); err != nil {
			return fail(err)
		}
	case "settings":
		loc := l.Locale()
		if *country != "" {
			c, err := receipt.ParseCountry(*country)
			if err != nil {
				return fail(err)
			}
			loc = receipt.DefaultLocale(c)
		}
		if *currency != "" {
			loc.Currency = strings.ToUpper(*currency)
		}
		if *fyStart != 0 {
			if *fyStart < 1 || *fyStart > 12 {
				return fail(fmt.Errorf("--fy-start %d: use a month from 1 to 12", *fyStart))
			}
			loc.FYStartMonth = time.Month(*fyStart)
		}
		if *country != "" || *currency != "" || *fyStart != 0 {
			if err := l.SetLocale(loc); err != nil {
				return fail(err)
			}
		}
		if *taxReg != "" {
			if err := l.SetSetting(clients.SettingTaxRegistration, *taxReg); err != nil {
				return fail(err)
			}
		}
		fmt.Fprintf(tw, "country\t%s\ncurrency\t%s\nfinancial year starts\t%s\ntax registration\t%s\nbank account\t%s\n",
			loc.Country, loc.Currency, loc.FYStartMonth, l.Setting(clients.SettingTaxRegistration), l.Setting(clients.SettingBankAccount))
	case "bank-account":
		if !export.MYOBAccountPattern.MatchString(fs.Arg(0)) {
			fmt.Fprintf(env.Stderr, "shoebox: note: %q is not an MYOB account number (like 1-1110); MYOB Spend Money will refuse it\n", fs.Arg(0))
		}
		if err := l.SetSetting(clients.SettingBankAccount, fs.Arg(0)); err != nil {
			return fail(err)
		}
	}
	return 0
}

func printJSON(env Env, v any) int {
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	return 0
}

// runPresetExport writes an accounting program's import file. It looks at
// every receipt that was read in the period, so that the check lists the
// ones not confirmed yet instead of leaving them out unnoticed.
func runPresetExport(env Env, libDir string, p export.Preset, out, period string, attachments bool) int {
	l, ok := openLibrary(env, libDir)
	if !ok {
		return 1
	}
	defer l.Close()
	st, err := clients.ExportPreset(l, p, period, out, attachments)
	var ce *export.CheckError
	if errors.As(err, &ce) {
		fmt.Fprintf(env.Stderr, "shoebox: %v:\n", err)
		for _, pr := range ce.Problems {
			hint := ""
			if pr.ReceiptID != 0 {
				hint = fmt.Sprintf("  → shoebox show %d", pr.ReceiptID)
				if strings.Contains(pr.Field, "account") || strings.Contains(pr.Field, "tax_code") {
					hint = fmt.Sprintf("  → shoebox books code %d%s --account … --tax-code …", pr.ReceiptID, lineFlag(pr.Field))
				}
			}
			fmt.Fprintf(env.Stderr, "  %s%s\n", pr, hint)
		}
		return 1
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	fmt.Fprintf(env.Stdout, "wrote %s (%s): %d receipts, %d lines%s\n", out, p.Title(), st.Receipts, st.Lines, totalsText(st))
	if p == export.PresetXero {
		fmt.Fprintln(env.Stdout, export.XeroAmountsNote)
	}
	if attachments {
		fmt.Fprintf(env.Stdout, "originals in %s, each named by its reference (SB-ID)\n", export.AttachmentsPath(out))
	}
	return 0
}

// lineFlag turns "line_items[2].account" into " --line 3".
func lineFlag(field string) string {
	var i int
	if n, _ := fmt.Sscanf(field, "line_items[%d]", &i); n == 1 {
		return fmt.Sprintf(" --line %d", i+1)
	}
	return ""
}
