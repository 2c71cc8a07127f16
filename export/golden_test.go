package export

import (
	"bytes"
	"encoding/csv"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// chartBooks is a new client's books in a country: its chart's accounts
// and tax codes, as clients.Books gives them for a client that kept them.
func chartBooks(t *testing.T, country receipt.Country) Books {
	t.Helper()
	chart, ok := library.ChartFor(string(country))
	if !ok {
		t.Fatalf("no chart for %s", country)
	}
	b := Books{
		Locale: receipt.DefaultLocale(country), Accounts: map[string]BookAccount{}, TaxCodes: map[string]BookTaxCode{},
		Categories: map[string]string{}, DefaultAccount: chart.DefaultAccount, FreeTaxCode: chart.FreeTaxCode,
		OutsideTaxCode: chart.OutsideTaxCode, TaxIsCost: !chart.ClaimsTax, BankAccount: "1-1110",
	}
	for _, a := range chart.Accounts {
		b.Accounts[a.Code] = BookAccount{Code: a.Code, Name: a.Name, MYOB: a.MYOB, QBO: a.QBO}
		for _, c := range a.Categories {
			b.Categories[receipt.Fold(c)] = a.Code
		}
	}
	for _, tc := range chart.TaxCodes {
		b.TaxCodes[tc.Code] = BookTaxCode{Code: tc.Code, Rate: tc.Rate, RateSet: true, XeroName: tc.Xero, MYOBName: tc.MYOB, QBOName: tc.QBO, DefaultForRate: tc.DefaultForRate}
	}
	return b
}

func taxLine(label, rate, net, tax string) receipt.TaxLine {
	return receipt.TaxLine{Label: text(label), Rate: amt(rate), Net: amt(net), Tax: amt(tax)}
}

func confirmed(id int64, supplier, doc string, y int, m, d int, cur string, r receipt.Receipt) Coded {
	r.SupplierName, r.DocumentNumber, r.Currency = text(supplier), text(doc), text(cur)
	r.Date = receipt.Of(receipt.Date(y, time.Month(m), d), receipt.SourceUser, 1)
	return Coded{Row: Row{ID: id, Status: "confirmed", Receipt: r}}
}

// goldenReceipts are the receipts every country's files are written from:
// a receipt with two tax rates and its tax lines, a mixed receipt whose
// tax has no breakdown, a café bill with a tip and rounding, a refund, a
// receipt in another currency, "@Home", a long supplier invoice number.
func goldenReceipts(country receipt.Country) []Coded {
	cur := receipt.CurrencyForCountry(country)
	var rates [2]string
	switch country {
	case receipt.CountryAU:
		rates = [2]string{"10", "0"}
	case receipt.CountryNZ:
		rates = [2]string{"15", "0"}
	case receipt.CountryUK:
		rates = [2]string{"20", "5"}
	case receipt.CountryEU:
		rates = [2]string{"19", "7"}
	case receipt.CountryUS:
		rates = [2]string{"8.875", "0"}
	}
	label := labelOr("", receipt.DefaultLocale(country))
	r1, _ := decimal.NewFromString(rates[0])
	r2, _ := decimal.NewFromString(rates[1])
	net1, net2 := decimal.RequireFromString("40.00"), decimal.RequireFromString("60.00")
	tax1, tax2 := net1.Mul(r1).Div(hundred).Round(2), net2.Mul(r2).Div(hundred).Round(2)
	total := net1.Add(net2).Add(tax1).Add(tax2)
	mixed := receipt.Receipt{
		Total: amt(total.StringFixed(2)), TotalTax: amt(tax1.Add(tax2).StringFixed(2)),
		TaxLines: []receipt.TaxLine{taxLine(label, rates[0], net1.StringFixed(2), tax1.StringFixed(2)), taxLine(label, rates[1], net2.StringFixed(2), tax2.StringFixed(2))},
	}
	// $100 of shopping with $3 of the standard rate's tax and no breakdown.
	supermarket := receipt.Receipt{Total: amt("100.00"), TotalTax: amt("3.00"), Category: text("Groceries")}
	if country == receipt.CountryUS {
		supermarket.TotalTax = amt("0.00")
	}
	cafe := receipt.Receipt{
		Total: amt("38.00"), TotalTax: amt("3.00"), Tip: amt("5.00"), Rounding: amt("-0.02"), Category: text("Meals"),
		TaxLines: []receipt.TaxLine{taxLine(label, rates[0], "30.02", "3.00")},
	}
	if country != receipt.CountryAU {
		// The café's tax at the country's standard rate on 30.00.
		t := decimal.RequireFromString("30.00").Mul(r1).Div(hundred).Round(2)
		cafe.TotalTax = amt(t.StringFixed(2))
		cafe.TaxLines = []receipt.TaxLine{taxLine(label, rates[0], "30.00", t.StringFixed(2))}
		cafe.Total = amt(decimal.RequireFromString("34.98").Add(t).StringFixed(2))
	}
	refund := receipt.Receipt{Total: amt("-22.00"), TotalTax: amt("-2.00"), TaxLines: []receipt.TaxLine{taxLine(label, rates[0], "-20.00", "-2.00")}}
	if country != receipt.CountryAU {
		refund = receipt.Receipt{Total: amt("-22.00")}
	}
	foreign := receipt.Receipt{
		Total: amt("9.00"), TotalTax: amt("0.51"), TaxRules: receipt.CountryMY,
		TaxLines: []receipt.TaxLine{taxLine("SST", "6", "8.49", "0.51")},
	}
	foreignCur := "MYR"
	home := receipt.Receipt{Total: amt("45.00")}
	return []Coded{
		confirmed(1, "Harbour Grocer", "T-1001", 2025, 7, 1, cur, mixed),
		confirmed(2, "Corner Supermarket", "", 2025, 7, 2, cur, supermarket),
		confirmed(3, "Blue Door Café", "8812", 2025, 7, 3, cur, cafe),
		confirmed(4, "Harbour Grocer", "CN-77", 2025, 7, 4, cur, refund),
		confirmed(5, "Book Ta K Sdn Bhd", "", 2025, 7, 5, foreignCur, foreign),
		confirmed(6, "@Home", "INV-2025-0000-0000-123456", 2025, 7, 6, cur, home),
	}
}

// goldenCountries are the client countries each program's files are
// written for: the ones it serves that Shoebox has a chart for.
func goldenCountries(p Preset) []receipt.Country {
	var out []receipt.Country
	for _, c := range []receipt.Country{receipt.CountryAU, receipt.CountryNZ, receipt.CountryUK, receipt.CountryUS, receipt.CountryEU} {
		if TargetOf(p).serves(string(c)) {
			out = append(out, c)
		}
	}
	return out
}

// TestGoldenPresetFiles writes every preset for every client country it
// serves from the same receipts and compares each with
// testdata/golden/<preset>-<country> byte for byte (go test -update
// rewrites them). Each file's header must be its target's cited columns,
// every tax name in it one its program takes in that country (the cited
// table), and each receipt's lines must add up to its total.
func TestGoldenPresetFiles(t *testing.T) {
	for _, p := range Presets {
		for _, country := range goldenCountries(p) {
			t.Run(string(p)+"-"+string(country), func(t *testing.T) {
				b := chartBooks(t, country)
				rows := goldenReceipts(country)
				path := filepath.Join(t.TempDir(), string(p)+"-"+strings.ToLower(string(country))+p.Ext())
				st, err := WritePreset(path, p, rows, PresetOptions{Books: b})
				var ce *CheckError
				if errors.As(err, &ce) {
					t.Fatalf("%v: %v", err, ce.Problems)
				}
				if err != nil {
					t.Fatal(err)
				}
				got, _ := os.ReadFile(path)
				golden := filepath.Join("testdata", "golden", filepath.Base(path))
				if *update {
					os.MkdirAll(filepath.Dir(golden), 0o755)
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (go test ./export -run Golden -update writes it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from %s:\n%s", path, golden, got)
				}
				header, records := readImportFile(t, p, got)
				if !slices.Equal(header, TargetOf(p).Columns) {
					t.Errorf("header %q, the cited table says %q", header, TargetOf(p).Columns)
				}
				checkTaxNames(t, p, country, header, records)
				if st.Receipts+len(st.LeftOut) != len(rows) {
					t.Errorf("%d receipts written and %d left out of %d", st.Receipts, len(st.LeftOut), len(rows))
				}
			})
		}
	}
}

// readImportFile splits a written file into its header and records.
func readImportFile(t *testing.T, p Preset, data []byte) ([]string, [][]string) {
	t.Helper()
	if p.Ext() == ".txt" {
		var recs [][]string
		for _, ln := range strings.Split(strings.TrimSuffix(string(data), "\r\n"), "\r\n") {
			if ln != "" {
				recs = append(recs, strings.Split(ln, "\t"))
			}
		}
		return recs[0], recs[1:]
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs[0], recs[1:]
}

// checkTaxNames holds every tax name a file carries against the names its
// program takes in the client's country, as the cited table lists them.
func checkTaxNames(t *testing.T, p Preset, country receipt.Country, header []string, records [][]string) {
	t.Helper()
	col := slices.IndexFunc(header, func(h string) bool { return h == "TaxType" || h == "Tax Code" })
	if col < 0 {
		return // the bank upload names no tax
	}
	names, ok := ProgramTaxNames(TargetOf(p).Program, string(country))
	if !ok {
		t.Fatalf("the table lists no %s tax names for %s", TargetOf(p).Program, country)
	}
	for _, rec := range records {
		if !slices.Contains(names.Names, rec[col]) {
			t.Errorf("%s %s: tax name %q is not one %s takes (%s: %q)", p, country, rec[col], TargetOf(p).Program, names.Source, names.Names)
		}
	}
}

// TestChartsNameWhatEachProgramTakes: every tax code of every country's
// chart is named, for each program sold there, as the cited table lists
// that program's names; every chart cites its sources.
func TestChartsNameWhatEachProgramTakes(t *testing.T) {
	for _, country := range library.ChartCountries() {
		chart, _ := library.ChartFor(country)
		if len(chart.Sources) == 0 || chart.Sources["accounts"] == "" {
			t.Errorf("%s chart cites no source", country)
		}
		for _, program := range []string{"xero", "myob", "qbo"} {
			names, ok := ProgramTaxNames(program, country)
			if !ok {
				continue
			}
			if chart.Sources[program] == "" {
				t.Errorf("%s chart names %s tax codes without a source", country, program)
			}
			for _, tc := range chart.TaxCodes {
				name := map[string]string{"xero": tc.Xero, "myob": tc.MYOB, "qbo": tc.QBO}[program]
				if program == "myob" && name == "" {
					name = tc.Code
				}
				if !slices.Contains(names.Names, name) {
					t.Errorf("%s chart: %s's %s name %q is not in the table (%s)", country, tc.Code, program, name, names.Source)
				}
			}
		}
		codes := map[string]bool{}
		for _, tc := range chart.TaxCodes {
			codes[tc.Code] = true
		}
		for _, c := range []string{chart.FreeTaxCode, chart.OutsideTaxCode} {
			if !codes[c] {
				t.Errorf("%s chart: %q is not one of its tax codes", country, c)
			}
		}
		found := false
		for _, a := range chart.Accounts {
			found = found || a.Code == chart.DefaultAccount
			if !codes[a.TaxCode] {
				t.Errorf("%s chart: account %s's tax code %q is not one of its codes", country, a.Code, a.TaxCode)
			}
			if listed("myob", country) && !MYOBAccountPattern.MatchString(a.MYOB) {
				t.Errorf("%s chart: account %s has no MYOB number", country, a.Code)
			}
		}
		if !found {
			t.Errorf("%s chart: default account %s is not in it", country, chart.DefaultAccount)
		}
	}
}

// listed says whether the table lists program's tax names for country.
func listed(program, country string) bool {
	_, ok := ProgramTaxNames(program, country)
	return ok
}

// TestWorkbookBooksEachReceiptAndSumsByTaxCode: with the client's books,
// the Receipts sheet names the account and tax codes each receipt is
// booked to, and the tax summary goes by tax code and currency: a German
// client's 19% and 7% are VAT under their own codes, and a German receipt
// in an Australian client's workbook is VAT, not GST, and not claimable.
func TestWorkbookBooksEachReceiptAndSumsByTaxCode(t *testing.T) {
	summary := func(t *testing.T, country receipt.Country, rows []Coded) (map[string][]string, *excelize.File) {
		t.Helper()
		b := chartBooks(t, country)
		var plain []Row
		for _, c := range rows {
			plain = append(plain, c.Row)
		}
		path := filepath.Join(t.TempDir(), "books.xlsx")
		opt := Options{Locale: b.Locale, SummaryBy: receipt.ByQuarter, Books: &b}
		if _, err := WriteXLSX(path, slices.Values(plain), opt); err != nil {
			t.Fatal(err)
		}
		f, err := excelize.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		got := map[string][]string{}
		recs, _ := f.GetRows(SheetSummary, excelize.Options{RawCellValue: true})
		for _, r := range recs[1:] {
			if len(r) >= 8 {
				got[strings.Join(r[:5], "|")] = r[5:8]
			}
		}
		return got, f
	}
	de := goldenReceipts(receipt.CountryEU)[:1] // 19% and 7%
	got, f := summary(t, receipt.CountryEU, de)
	for k, v := range map[string][]string{
		"EUR|2025-Q3|V19|VAT|0.19": {"40", "7.6", "47.6"},
		"EUR|2025-Q3|V7|VAT|0.07":  {"60", "4.2", "64.2"},
	} {
		if !slices.Equal(got[k], v) {
			t.Errorf("German client's summary %s = %v, want %v (all: %v)", k, got[k], v, got)
		}
	}
	if acct, _ := f.GetCellValue(SheetReceipts, "P2"); acct != "429" {
		t.Errorf("Account column %q, want the default account 429", acct)
	}
	if codes, _ := f.GetCellValue(SheetReceipts, "Q2"); codes != "V19, V7" {
		t.Errorf("Tax code column %q, want V19, V7", codes)
	}
	// In an Australian client: the German receipt is in EUR, its VAT not
	// claimable (NTR, no tax); the Australian one is GST under GST and FRE.
	german := de[0]
	german.Receipt.TaxRules = receipt.CountryEU
	german.ID = 9
	au := goldenReceipts(receipt.CountryAU)[0]
	got, _ = summary(t, receipt.CountryAU, []Coded{au, german})
	for k, v := range map[string][]string{
		"AUD|FY2026-Q1|GST|GST|0.1":  {"40", "4", "44"},
		"AUD|FY2026-Q1|FRE|no tax|0": {"60", "0", "60"},
		"EUR|FY2026-Q1|NTR|no tax|0": {"111.8", "0", "111.8"},
	} {
		if !slices.Equal(got[k], v) {
			t.Errorf("Australian client's summary %s = %v, want %v (all: %v)", k, got[k], v, got)
		}
	}
	// Without the books, the German receipt's tax is still VAT, never GST.
	s := newSummary(Options{Locale: receipt.DefaultLocale(receipt.CountryAU), SummaryBy: receipt.ByQuarter})
	german.Receipt.TaxLines[0].Label, german.Receipt.TaxLines[1].Label = receipt.Text{}, receipt.Text{}
	s.add(german.Row, nil)
	for k := range s.rows {
		if k.Label != "VAT" {
			t.Errorf("German tax summed as %q", k.Label)
		}
	}
}

// TestRateLinesAddUpAndTaxPerRateIsPrinted: for every client country and
// every golden receipt, the lines add up to the total; where the tax can
// be claimed, the lines' taxes add up to the printed tax and each rate's
// line carries exactly that rate's printed tax.
func TestRateLinesAddUpAndTaxPerRateIsPrinted(t *testing.T) {
	for _, country := range []receipt.Country{receipt.CountryAU, receipt.CountryNZ, receipt.CountryUK, receipt.CountryUS, receipt.CountryEU} {
		b := chartBooks(t, country)
		for _, c := range goldenReceipts(country) {
			r := &c.Receipt
			ps := postings(&c, b, false)
			gross, tax := decimal.Zero, decimal.Zero
			for _, p := range ps {
				gross, tax = gross.Add(p.Gross), tax.Add(p.Tax)
				if p.TaxCode == "" || p.Account == "" {
					t.Errorf("%s receipt %d: line %q not booked: %+v", country, c.ID, p.Description, p)
				}
			}
			if !gross.Equal(r.Total.Value) {
				t.Errorf("%s receipt %d: lines add up to %s, total %s", country, c.ID, gross, r.Total.Value)
			}
			claimable := !b.TaxIsCost && b.foreignReason(r) == ""
			if !claimable {
				if !tax.IsZero() {
					t.Errorf("%s receipt %d: %s tax claimed that cannot be", country, c.ID, tax)
				}
				continue
			}
			if !tax.Equal(taxOf(r)) {
				t.Errorf("%s receipt %d: taxes add up to %s, printed %s", country, c.ID, tax, taxOf(r))
			}
			for _, tl := range r.TaxLines {
				found := false
				for _, p := range ps {
					if strings.Contains(p.Description, tl.Rate.Value.String()+"%") && p.Tax.Equal(tl.Tax.Value) {
						found = true
					}
				}
				if !found {
					t.Errorf("%s receipt %d: no line carries the %s%% tax %s: %+v", country, c.ID, tl.Rate.Value, tl.Tax.Value, ps)
				}
			}
		}
	}
}

// TestBookingOfAReceiptNobodyCoded: what the window shows under "Booked
// to" for a receipt nobody coded is what the import files will book.
func TestBookingOfAReceiptNobodyCoded(t *testing.T) {
	b := chartBooks(t, receipt.CountryAU)
	rows := goldenReceipts(receipt.CountryAU)
	for i, want := range []struct {
		account string
		codes   []string
	}{{"429", []string{"GST", "FRE"}}, {"429", []string{"GST", "FRE"}}, {"420", []string{"GST", "NTR"}}} {
		account, codes := b.Booking(rows[i].Row)
		if account != want.account || !slices.Equal(codes, want.codes) {
			t.Errorf("receipt %d booked to %s %v, want %s %v", rows[i].ID, account, codes, want.account, want.codes)
		}
	}
	coded := rows[0].Row
	coded.Booked = LineCode{Account: "453", TaxCode: "CAP"}
	if account, codes := b.Booking(coded); account != "453" || !slices.Equal(codes, []string{"CAP", "FRE"}) {
		t.Errorf("coded by a person: %s %v", account, codes)
	}
}

// TestTaxLineWithoutNetOrRate: a tax line that gives neither its net nor
// its rate cannot be booked by rate: the receipt's tax is booked as one
// rate, and still adds up.
func TestTaxLineWithoutNetOrRate(t *testing.T) {
	b := chartBooks(t, receipt.CountryAU)
	c := confirmed(1, "Shop", "", 2025, 7, 1, "AUD", receipt.Receipt{
		Total: amt("11.00"), TotalTax: amt("1.00"),
		TaxLines: []receipt.TaxLine{{Label: text("GST"), Tax: amt("1.00")}},
	})
	ps := postings(&c, b, false)
	if len(ps) != 1 || !ps[0].Tax.Equal(decimal.RequireFromString("1.00")) || ps[0].TaxCode != "GST" || !ps[0].Gross.Equal(decimal.RequireFromString("11.00")) {
		t.Fatalf("postings %+v", ps)
	}
}

// An Irish client's books claim Irish VAT only: a German invoice's VAT is
// charged under the same EU rules, in another country's return. A page
// whose country was only guessed from the client's is not judged so.
func TestAnotherEUCountrysVATIsNotClaimable(t *testing.T) {
	b := chartBooks(t, "IE")
	b.Locale = receipt.DefaultLocale(receipt.CountryEU)
	b.Country = "IE"
	r := &receipt.Receipt{Currency: text("EUR"), TaxRules: receipt.CountryEU}
	for _, tc := range []struct {
		in   string
		conf float64
		want string
	}{
		{"DE", 0.7, "tax charged in Germany is not claimable in Ireland's return"},
		{"IE", 0.7, ""},
		{"DE", 0.6, ""}, // guessed, not read
	} {
		r.PrintedIn = receipt.Text{Value: tc.in, Set: true, Confidence: tc.conf}
		if got := b.foreignReason(r); got != tc.want {
			t.Errorf("printed in %s at %.1f: %q, want %q", tc.in, tc.conf, got, tc.want)
		}
	}
}
