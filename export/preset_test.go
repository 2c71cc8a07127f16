package export

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

func auBooks() Books {
	d := decimal.RequireFromString
	return Books{
		Locale: receipt.DefaultLocale(receipt.CountryAU),
		Accounts: map[string]BookAccount{
			"461": {Code: "461", Name: "Printing & Stationery"}, "420": {Code: "420", Name: "Entertainment"},
			"6-1100": {Code: "6-1100", Name: "Stationery"}, "429": {Code: "429", Name: "General Expenses", MYOB: "6-1600", QBO: "Other General and Administrative Expenses"},
		},
		TaxCodes: map[string]BookTaxCode{
			"GST": {Code: "GST", Rate: d("10"), RateSet: true, XeroName: "GST on Expenses", MYOBName: "GST", QBOName: "GST on non-capital", DefaultForRate: true},
			"FRE": {Code: "FRE", Rate: d("0"), RateSet: true, XeroName: "GST Free Expenses", MYOBName: "FRE", QBOName: "GST-free non-capital", DefaultForRate: true},
			"NTR": {Code: "NTR", Rate: d("0"), RateSet: true, XeroName: "BAS Excluded", MYOBName: "N-T", QBOName: "Out of Scope"},
		},
		BankAccount:    "1-1110",
		DefaultAccount: "429",
		Categories:     map[string]string{"meals": "420"},
		FreeTaxCode:    "FRE", OutsideTaxCode: "NTR",
	}
}

func sum(ps []posting, f func(posting) decimal.Decimal) decimal.Decimal {
	s := decimal.Zero
	for _, p := range ps {
		s = s.Add(f(p))
	}
	return s
}

// TestItemisedPostingsAddUpToTotalAndTax: an itemised export books each
// item, with a line for what the total holds beyond them.
func TestItemisedPostingsAddUpToTotalAndTax(t *testing.T) {
	b := auBooks()
	gross := func(p posting) decimal.Decimal { return p.Gross }
	tax := func(p posting) decimal.Decimal { return p.Tax }
	cases := []struct {
		name       string
		r          receipt.Receipt
		lines      map[int]LineCode
		wantLines  int
		wantTaxes  []string
		wantExtras string
	}{
		{
			name: "items and a tip beyond them", r: receipt.Receipt{
				Total: amt("23.45"), TotalTax: amt("2.00"),
				LineItems: []receipt.LineItem{{Description: text("Coffee"), LineTotal: amt("11.00")}, {Description: text("Cake"), LineTotal: amt("11.00")}},
			},
			wantLines: 3, wantExtras: "Other charges (tip, fees, rounding)",
		},
		{
			name: "a discount", r: receipt.Receipt{
				Total: amt("90.00"), TotalTax: amt("8.18"),
				LineItems: []receipt.LineItem{{Description: text("Chair"), Quantity: amt("2"), UnitPrice: amt("50.00"), LineTotal: amt("100.00")}},
			},
			wantLines: 2, wantExtras: "Discount",
		},
		{
			name: "tax-free line takes no tax", r: receipt.Receipt{
				Total: amt("327.00"), TotalTax: amt("27.27"),
				LineItems: []receipt.LineItem{{Description: text("Blade"), LineTotal: amt("300.00")}, {Description: text("Delivery"), LineTotal: amt("27.00")}},
			},
			lines: map[int]LineCode{1: {TaxCode: "FRE"}}, wantLines: 2, wantTaxes: []string{"27.27", "0"},
		},
		{
			name: "items priced before tax", r: receipt.Receipt{
				Total: amt("110.00"), TotalTax: amt("10.00"), TaxInclusive: receipt.Of(false, receipt.SourceUser, 1),
				LineItems: []receipt.LineItem{{Description: text("A"), LineTotal: amt("60.00")}, {Description: text("B"), LineTotal: amt("40.00")}},
			},
			wantLines: 2, wantTaxes: []string{"6", "4"},
		},
		{name: "no items, tax from the code's rate", r: receipt.Receipt{Total: amt("9.00")}, wantLines: 1, wantTaxes: []string{"0.82"}},
		{name: "thirds round to the cent and still add up", r: receipt.Receipt{
			Total: amt("10.00"), TotalTax: amt("0.91"),
			LineItems: []receipt.LineItem{{LineTotal: amt("3.33")}, {LineTotal: amt("3.33")}, {LineTotal: amt("3.34")}},
		}, wantLines: 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Coded{Row: Row{ID: 1, Receipt: tc.r}, Account: "461", TaxCode: "GST", Lines: tc.lines}
			ps := postings(&c, b, true)
			if len(ps) != tc.wantLines {
				t.Fatalf("%d lines: %+v", len(ps), ps)
			}
			if !sum(ps, gross).Equal(tc.r.Total.Value) {
				t.Fatalf("lines add up to %s, total %s", sum(ps, gross), tc.r.Total.Value)
			}
			if tc.r.TotalTax.Set && !sum(ps, tax).Equal(tc.r.TotalTax.Value) {
				t.Fatalf("taxes add up to %s, receipt tax %s", sum(ps, tax), tc.r.TotalTax.Value)
			}
			for i, w := range tc.wantTaxes {
				if !ps[i].Tax.Equal(decimal.RequireFromString(w)) {
					t.Errorf("line %d tax %s, want %s", i+1, ps[i].Tax, w)
				}
			}
			if tc.wantExtras != "" && ps[len(ps)-1].Description != tc.wantExtras {
				t.Errorf("last line %q", ps[len(ps)-1].Description)
			}
			for _, p := range ps {
				if !p.Qty.Mul(p.Unit).Equal(p.Gross) {
					t.Errorf("line %q: %s × %s ≠ %s", p.Description, p.Qty, p.Unit, p.Gross)
				}
			}
		})
	}
}

// TestImportTextIsVerbatim: an import file keeps a value as it is ("@Home"
// is a shop, not a formula), only without breaks and control characters.
func TestImportTextIsVerbatim(t *testing.T) {
	for in, want := range map[string]string{`=HYPERLINK("x")`: `=HYPERLINK("x")`, "@Home": "@Home", "a\tb\r\nc": "a b c", "-1+1": "-1+1", "Cafe\x07": "Cafe"} {
		if got := importText(in); got != want {
			t.Errorf("importText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckLimitsAndMYOBRules(t *testing.T) {
	b := auBooks()
	row := func(id int64) Coded {
		return Coded{Row: Row{ID: id, Status: "confirmed", Receipt: receipt.Receipt{
			SupplierName: text(fmt.Sprintf("Shop %d", id)),
			Date:         receipt.Of(receipt.Date(2025, 7, 1), receipt.SourceUser, 1), Total: amt("11.00"), Currency: text("AUD"),
		}}, Account: "461", TaxCode: "GST"}
	}
	var many []Coded
	for i := int64(1); i <= int64(XeroMaxBills)+1; i++ {
		many = append(many, row(i))
	}
	if ps := Check(PresetXero, many, PresetOptions{Books: b}); len(ps) != 1 || !strings.Contains(ps[0].Message, "at most 500 bills") {
		t.Fatalf("Xero limit: %v", ps)
	}
	if ps := Check(PresetXero, many[:XeroMaxBills], PresetOptions{Books: b}); len(ps) != 0 {
		t.Fatalf("500 bills: %v", ps)
	}
	// MYOB: account numbers its way, a bank account, a card name of at
	// most 50 characters.
	long := row(2)
	long.Receipt.SupplierName = text(strings.Repeat("Harbourside Hardware ", 3)) // 62 characters
	long.Account = "6-1100"
	nob := b
	nob.BankAccount = ""
	ps := Check(PresetMYOBSpend, []Coded{row(1), long}, PresetOptions{Books: nob})
	var msgs []string
	for _, p := range ps {
		msgs = append(msgs, p.String())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"needs the bank account", `receipt 1: line "Shop 1": "461" is not an MYOB account number`, "receipt 2: supplier \"Harbourside", "longer than MYOB's 50"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in\n%s", want, all)
		}
	}
	// A refund goes in (a credit note); a receipt whose tax is coded tax
	// free and the same bill twice do not.
	refund, free, dup := row(3), row(4), row(5)
	refund.Receipt.Total = amt("-5.00")
	free.TaxCode, free.Receipt.TotalTax = "FRE", amt("1.00")
	dup.Receipt.SupplierName, dup.Receipt.DocumentNumber = text("Shop 1"), text("SB-1")
	ps = Check(PresetXero, []Coded{row(1), refund, free, dup}, PresetOptions{Books: b})
	msgs = nil
	for _, p := range ps {
		msgs = append(msgs, p.String())
	}
	all = strings.Join(msgs, "\n")
	for _, want := range []string{"receipt 4: line \"Shop 4 (GST 10%)\" carries 1.00 tax but is coded FRE", "receipt 5: same supplier and invoice number as receipt 1"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in\n%s", want, all)
		}
	}
	if strings.Contains(all, "receipt 3") {
		t.Errorf("a refund is a Xero credit note, not a problem:\n%s", all)
	}
}

// TestWritePresetLeavesOutWhatItCannotTake: unconfirmed receipts, a
// foreign currency MYOB cannot convert and a refund QuickBooks bills
// cannot hold are left out with their reasons and the rest is written;
// with nothing left, no file is made at all.
func TestWritePresetLeavesOutWhatItCannotTake(t *testing.T) {
	b := auBooks()
	mk := func(id int64, status, cur, total string) Coded {
		return Coded{Row: Row{ID: id, Status: status, Receipt: receipt.Receipt{
			SupplierName: text("Shop"), DocumentNumber: text(fmt.Sprint(id)),
			Date: receipt.Of(receipt.Date(2025, 7, 1), receipt.SourceUser, 1), Total: amt(total), Currency: text(cur),
		}}, Account: "6-1100"}
	}
	rows := []Coded{mk(1, "confirmed", "AUD", "11.00"), mk(2, "needs_review", "AUD", "5.00"), mk(3, "confirmed", "MYR", "9.00"), mk(4, "confirmed", "AUD", "-4.00")}
	dir := t.TempDir()
	path := filepath.Join(dir, "spend.txt")
	st, err := WritePreset(path, PresetMYOBSpend, rows, PresetOptions{Books: b})
	if err != nil {
		t.Fatal(err)
	}
	if st.Receipts != 1 || st.Unconfirmed != 1 || len(st.LeftOut) != 3 {
		t.Fatalf("stats %+v", st)
	}
	var why []string
	for _, p := range st.LeftOut {
		why = append(why, p.String())
	}
	for _, want := range []string{"receipt 2: not confirmed yet (to check)", "receipt 3: in MYR: MYOB takes only AUD here and Shoebox knows no exchange rate", "receipt 4: a refund: Spend Money takes no money in"} {
		if !strings.Contains(strings.Join(why, "\n"), want) {
			t.Errorf("missing %q in %q", want, why)
		}
	}
	// Included on request.
	if st, err := WritePreset(path, PresetMYOBSpend, rows, PresetOptions{Books: b, IncludeUnconfirmed: true}); err != nil || st.Receipts != 2 {
		t.Fatalf("with unconfirmed: %+v %v", st, err)
	}
	// Nothing left: an error and no file, not an empty one.
	empty := filepath.Join(dir, "none.csv")
	_, err = WritePreset(empty, PresetQBOBank, rows[1:3], PresetOptions{Books: b})
	var none *NothingToExportError
	if !errors.As(err, &none) || len(none.LeftOut) != 2 {
		t.Fatalf("nothing to write: %v", err)
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Fatalf("a refused export left a file: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("folder holds %d files, want only spend.txt", len(entries))
	}
}

// codedRows turns the workbook benchmark's generated receipts into coded rows.
func codedRows(n int) []Coded {
	var out []Coded
	for row := range manyRows(n) {
		out = append(out, Coded{Row: row, Account: "461", TaxCode: "GST"})
	}
	return out
}

// BenchmarkPreset500 writes 500 receipts (1,500 line items) with each
// preset; the target is under a second each.
// Run: go test -tags migrated_fynedo -run '^$' -bench Preset500 ./export
func BenchmarkPreset500(b *testing.B) {
	rows := codedRows(500)
	books := auBooks()
	books.Accounts = nil // any code: the generated receipts book to 461 and MYOB needs 6-1100
	for _, p := range Presets {
		b.Run(string(p), func(b *testing.B) {
			rs := rows
			if p == PresetMYOBPurchases || p == PresetMYOBSpend {
				rs = append([]Coded(nil), rows...)
				for i := range rs {
					rs[i].Account = "6-1100"
				}
			}
			dir := b.TempDir()
			for n := 0; n < b.N; n++ {
				path := filepath.Join(dir, "out"+p.Ext())
				st, err := WritePreset(path, p, rs, PresetOptions{Books: books})
				if err != nil {
					if ce := (*CheckError)(nil); errors.As(err, &ce) {
						b.Fatal(ce.Problems[:min(3, len(ce.Problems))])
					}
					b.Fatal(err)
				}
				if st.Receipts != 500 {
					b.Fatal(st)
				}
			}
			if fi, err := os.Stat(filepath.Join(dir, "out"+p.Ext())); err == nil {
				b.ReportMetric(float64(fi.Size())/1e3, "kB_file")
			}
		})
	}
}

// TestPresetsFollowTheClientsCountry: a UK client's Xero file names VAT
// rates as Xero does and writes DD/MM/YYYY; a US client's files write
// MM/DD/YYYY and carry no tax.
func TestPresetsFollowTheClientsCountry(t *testing.T) {
	d := decimal.RequireFromString
	row := Coded{
		Row: Row{ID: 7, Status: "confirmed", Receipt: receipt.Receipt{
			SupplierName: text("Ryman"),
			Date:         receipt.Of(receipt.Date(2025, 4, 3), receipt.SourceUser, 1), Total: amt("12.00"), TotalTax: amt("2.00"),
		}},
		Account: "429", TaxCode: "20% (VAT on Expenses)",
	}
	uk := Books{
		Locale:   receipt.DefaultLocale(receipt.CountryUK),
		TaxCodes: map[string]BookTaxCode{"20% (VAT on Expenses)": {Code: "20% (VAT on Expenses)", Rate: d("20"), RateSet: true, XeroName: "20% (VAT on Expenses)", DefaultForRate: true}},
	}
	path := filepath.Join(t.TempDir(), "uk.csv")
	if _, err := WritePreset(path, PresetXero, []Coded{row}, PresetOptions{Books: uk}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "Ryman,,,,,,,,,,SB-7,SB-7,03/04/2025,03/04/2025,,Ryman (VAT 20%),1,12.00,,429,20% (VAT on Expenses),2.00,,,,,GBP") {
		t.Fatalf("UK Xero file:\n%s", b)
	}
	us := Books{Locale: receipt.DefaultLocale(receipt.CountryUS)}
	row.TaxCode, row.Receipt.TotalTax = "", receipt.Amount{}
	for p, want := range map[Preset]string{PresetQBOBank: "04/03/2025,Ryman SB-7,-12.00", PresetQBOBills: "Ryman,SB-7,04/03/2025,04/03/2025,SB-7,USD,,429,Ryman (no SALES TAX),12.00,"} {
		path := filepath.Join(t.TempDir(), "us.csv")
		if _, err := WritePreset(path, p, []Coded{row}, PresetOptions{Books: us}); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); !strings.Contains(string(b), want) {
			t.Errorf("US %s file lacks %q:\n%s", p, want, b)
		}
	}
}

// TestForeignCurrencyConvertedOnlyAtAGivenRate: MYOB takes only the
// client's currency: a receipt in MYR is left out with the reason, or,
// with the rate the bookkeeper gives, converted to one line in AUD whose
// tax is not claimed, the conversion said in the memo. A program not sold
// in the client's country is refused outright.
func TestForeignCurrencyConvertedOnlyAtAGivenRate(t *testing.T) {
	b := auBooks()
	r := Coded{Row: Row{ID: 5, Status: "confirmed", Receipt: receipt.Receipt{
		SupplierName: text("Book Ta K"), Currency: text("MYR"),
		Date: receipt.Of(receipt.Date(2025, 7, 1), receipt.SourceUser, 1), Total: amt("9.00"), TotalTax: amt("0.51"), TaxRules: receipt.CountryMY,
	}}}
	dir := t.TempDir()
	path := filepath.Join(dir, "p.txt")
	_, err := WritePreset(path, PresetMYOBPurchases, []Coded{r}, PresetOptions{Books: b})
	var none *NothingToExportError
	if !errors.As(err, &none) || !strings.Contains(none.LeftOut[0].Message, "give the rate for MYR") {
		t.Fatalf("without a rate: %v", err)
	}
	rates, err := ParseRates("myr=0.3300")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseRates("MYR=-1"); err == nil {
		t.Error("a negative rate was accepted")
	}
	st, err := WritePreset(path, PresetMYOBPurchases, []Coded{r}, PresetOptions{Books: b, Rates: rates})
	if err != nil || st.Receipts != 1 {
		t.Fatalf("with a rate: %+v %v", st, err)
	}
	got, _ := os.ReadFile(path)
	if !strings.Contains(string(got), "Book Ta K\tX\t\t01/07/2025\tSB-5\tBook Ta K\t6-1600\t2.97\t2.97\tSB-5 (MYR 9.00 at 0.33)\tN-T\t0.00\t") {
		t.Fatalf("converted purchase:\n%s", got)
	}
	us := b
	us.Locale = receipt.DefaultLocale(receipt.CountryUS)
	_, err = WritePreset(path, PresetMYOBSpend, []Coded{r}, PresetOptions{Books: us})
	var ce *CheckError
	if !errors.As(err, &ce) || !strings.Contains(ce.Problems[0].Message, "not sold for a client in United States") {
		t.Fatalf("MYOB for a US client: %v", err)
	}
	// The client's own country by name, not its tax rules' code.
	ie := b
	ie.Locale, ie.Country = receipt.DefaultLocale(receipt.CountryEU), "IE"
	_, err = WritePreset(path, PresetMYOBSpend, []Coded{r}, PresetOptions{Books: ie})
	if !errors.As(err, &ce) || !strings.Contains(ce.Problems[0].Message, "not sold for a client in Ireland (it serves Australia, New Zealand)") {
		t.Fatalf("MYOB for an Irish client: %v", err)
	}
}

// TestSuppliersNamedAsTheClientsContacts: with the client's contact list,
// a supplier is written as its contact: by tax number first, then by name
// without its legal form. MYOB refuses one not among its cards, with the
// fix; Xero adds it as a new contact, and the export says which.
func TestSuppliersNamedAsTheClientsContacts(t *testing.T) {
	b := auBooks()
	b.Contacts = []BookContact{{Name: "Officeworks Ltd", TaxID: "51824753556"}, {Name: "Bunnings Group"}}
	mk := func(id int64, supplier, abn string) Coded {
		r := receipt.Receipt{
			SupplierName: text(supplier), Date: receipt.Of(receipt.Date(2025, 7, 1), receipt.SourceUser, 1),
			Total: amt("11.00"), Currency: text("AUD"), DocumentNumber: text(fmt.Sprint(id)),
		}
		if abn != "" {
			r.SupplierTaxID = receipt.Of(receipt.TaxID{Scheme: receipt.SchemeABN, Value: abn}, receipt.SourceUser, 1)
		}
		return Coded{Row: Row{ID: id, Status: "confirmed", Receipt: r}}
	}
	rows := []Coded{mk(1, "OFFICEW0RKS", "51824753556"), mk(2, "BUNNINGS GROUP PTY LTD", ""), mk(3, "Corner Deli", "")}
	path := filepath.Join(t.TempDir(), "bills.csv")
	st, err := WritePreset(path, PresetXero, rows, PresetOptions{Books: b})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	for _, want := range []string{"\r\nOfficeworks Ltd,", "\r\nBunnings Group,", "\r\nCorner Deli,"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("Xero file lacks %q:\n%s", want, got)
		}
	}
	if !slices.Equal(st.NewContacts, []string{"Corner Deli"}) {
		t.Errorf("new contacts %q", st.NewContacts)
	}
	_, err = WritePreset(filepath.Join(t.TempDir(), "p.txt"), PresetMYOBPurchases, rows, PresetOptions{Books: b})
	var ce *CheckError
	if !errors.As(err, &ce) || len(ce.Problems) != 1 || ce.Problems[0].ReceiptID != 3 || !strings.Contains(ce.Problems[0].Message, "not one of the client's MYOB cards") {
		t.Fatalf("MYOB with an unknown card: %v", err)
	}
}
