package library

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

func TestParseChartXeroAndMYOB(t *testing.T) {
	xero := "\ufeff*Code,*Name,*Type,*Tax Code,Description,Dashboard,Expense Claims,Enable Payments\n" +
		"200,Sales,Revenue,GST on Income,,No,No,No\n" +
		"404,Bank Fees,Expense,GST Free Expenses,\"Fees, charges\",No,Yes,No\n" +
		"461,Printing & Stationery,Expense,GST on Expenses,,No,Yes,No\n"
	accts, err := ParseChart(strings.NewReader(xero), DefaultTaxCodes(receipt.CountryAU))
	if err != nil {
		t.Fatal(err)
	}
	if len(accts) != 3 || accts[1].Code != "404" || accts[1].TaxCode != "FRE" || accts[2].TaxCode != "GST" || accts[0].TaxCode != "GST on Income" {
		t.Fatalf("Xero chart read as %+v", accts)
	}
	myob := "Account Number\tAccount Name\tHeader\tBalance\tAccount Type\tLast Cheque Number\tTax Code\n" +
		"6-0000\tExpenses\tH\t$0.00\tExpense\t\tN-T\n" +
		"6-1100\tStationery\t\t$0.00\tExpense\t\tGST\n" +
		"6-1200\tBank Charges\t\t$0.00\tExpense\t\tFRE\n"
	accts, err = ParseChart(strings.NewReader(myob), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(accts) != 2 || accts[0].Code != "6-1100" || accts[0].Name != "Stationery" || accts[1].TaxCode != "FRE" || accts[0].Type != "Expense" {
		t.Fatalf("MYOB chart read as %+v (the header account 6-0000 must be left out)", accts)
	}
	qbo := "Account,Type,Detail type,Description,Balance\nAdvertising,Expenses,Advertising/Promotional,,0.00\nBank Charges,Expenses,Bank Charges,,0.00\n"
	accts, err = ParseChart(strings.NewReader(qbo), nil)
	if err != nil || len(accts) != 2 || accts[0].Code != "Advertising" || accts[1].Name != "Bank Charges" || accts[1].Type != "Expenses" {
		t.Fatalf("QuickBooks account list read as %+v %v", accts, err)
	}
	for _, bad := range []string{"", "Foo,Bar\n1,2\n", "*Code,*Name\n400,A\n400,B\n"} {
		if _, err := ParseChart(strings.NewReader(bad), nil); err == nil {
			t.Errorf("ParseChart(%q) accepted it", bad)
		}
	}
}

// saveRead stores what an engine read for receipt id, the way the queue does.
func saveRead(t *testing.T, l *Library, id int64, r receipt.Receipt) {
	t.Helper()
	if err := l.SaveExtraction(ctx, id, r, "test", receipt.SourceModel); err != nil {
		t.Fatal(err)
	}
}

func TestSupplierRulesLearnFromConfirmAndApplyOnExtraction(t *testing.T) {
	l := openTemp(t)
	if err := l.UseCountryDefaults(ctx, receipt.CountryAU); err != nil {
		t.Fatal(err)
	}
	first := importOne(t, l, 1)
	r := extracted("Officeworks", receipt.Date(2025, 7, 1), "55.00")
	r.PaymentMethod = receipt.Of("Visa", receipt.SourceModel, 0.9)
	saveRead(t, l, first, r)
	if err := l.SetCoding(ctx, first, -1, "461", "GST"); err != nil {
		t.Fatal(err)
	}
	if err := l.SetCoding(ctx, first, -1, "999", ""); err == nil {
		t.Fatal("an account not in the chart was accepted")
	}
	if err := l.Confirm(ctx, first); err != nil {
		t.Fatal(err)
	}
	rule, ok, err := l.RuleFor("OFFICEWORKS")
	if err != nil || !ok || rule.Account != "461" || rule.TaxCode != "GST" || rule.Currency != "AUD" || rule.PaymentMethod != "Visa" || rule.Learned != 1 {
		t.Fatalf("rule after a confirm: %+v %v %v", rule, ok, err)
	}

	// The next receipt from the supplier is coded by the rule, marked as such.
	second := importOne(t, l, 2)
	r2 := extracted("Officeworks", receipt.Date(2025, 7, 9), "12.00")
	r2.Currency = receipt.Text{}
	saveRead(t, l, second, r2)
	c, err := l.Coding(second)
	if err != nil || c.Account != "461" || c.TaxCode != "GST" || c.Source != receipt.SourceRule {
		t.Fatalf("coding from the rule: %+v %v", c, err)
	}
	rec, _ := l.Get(second)
	if rec.Receipt.Currency.Value != "AUD" || rec.Receipt.Currency.Source != receipt.SourceRule || rec.Receipt.PaymentMethod.Value != "Visa" {
		t.Fatalf("currency/payment from the rule: %+v / %+v", rec.Receipt.Currency, rec.Receipt.PaymentMethod)
	}

	// A rule a person typed wins over learning.
	if err := l.SetRule(ctx, SupplierRule{Name: "Officeworks", Account: "453", TaxCode: "GST"}); err != nil {
		t.Fatal(err)
	}
	if err := l.SetCoding(ctx, second, -1, "461", ""); err != nil {
		t.Fatal(err)
	}
	if err := l.Confirm(ctx, second); err != nil {
		t.Fatal(err)
	}
	rule, _, _ = l.RuleFor("Officeworks")
	if rule.Account != "453" || !rule.Typed || rule.Learned != 2 {
		t.Fatalf("a typed rule was overwritten by learning: %+v", rule)
	}
	// A person's coding is not replaced by a rule on re-extraction.
	if _, err := l.Enqueue(ctx, []int64{second}, true); err != nil {
		t.Fatal(err)
	}
	saveRead(t, l, second, r2)
	if c, _ := l.Coding(second); c.Account != "461" || c.Source != receipt.SourceUser {
		t.Fatalf("re-extraction replaced a person's coding: %+v", c)
	}
}

func TestSetCodingKeepsHistoryAndSendsConfirmedBackToReview(t *testing.T) {
	l := openTemp(t)
	l.UseCountryDefaults(ctx, receipt.CountryAU)
	id := importOne(t, l, 3)
	r := extracted("Bunnings", receipt.Date(2025, 8, 1), "30.00")
	r.LineItems = []receipt.LineItem{
		{Description: receipt.Of("Drill bits", receipt.SourceModel, 0.9), LineTotal: amount("20.00")},
		{Description: receipt.Of("Gift card", receipt.SourceModel, 0.9), LineTotal: amount("10.00")},
	}
	saveRead(t, l, id, r)
	if err := l.SetCoding(ctx, id, -1, "473", "GST"); err != nil {
		t.Fatal(err)
	}
	if err := l.Confirm(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := l.SetCoding(ctx, id, 1, "", "FRE"); err != nil {
		t.Fatal(err)
	}
	if err := l.SetCoding(ctx, id, 2, "", "FRE"); err == nil {
		t.Fatal("coded a line item the receipt does not have")
	}
	c, _ := l.Coding(id)
	if a, tc := c.Line(0); a != "473" || tc != "GST" {
		t.Fatalf("item 1 books to %s/%s", a, tc)
	}
	if a, tc := c.Line(1); a != "473" || tc != "FRE" {
		t.Fatalf("item 2 books to %s/%s", a, tc)
	}
	rec, _ := l.Get(id)
	if rec.Status != StatusNeedsReview {
		t.Fatalf("a confirmed receipt whose coding changed is %s", rec.Status)
	}
	h, _ := l.History(id)
	var fields []string
	for _, ch := range h {
		if ch.Kind == "field" && (strings.Contains(ch.Field, "account") || strings.Contains(ch.Field, "tax_code")) {
			fields = append(fields, ch.Field+"="+ch.New)
		}
	}
	if strings.Join(fields, " ") != "account=473 tax_code=GST line_items[1].tax_code=FRE" {
		t.Fatalf("history: %v", fields)
	}
}

// TestContactsFromEachProgramsList: Xero's contacts CSV, MYOB's card file
// and QuickBooks' vendor list each give names and tax numbers; a real
// library keeps them.
func TestContactsFromEachProgramsList(t *testing.T) {
	for name, tc := range map[string]struct {
		file string
		want Contact
	}{
		"xero": {"\ufeff*ContactName,EmailAddress,POAddressLine1,TaxNumber\nOfficeworks Ltd,,\"1 Main St, Sydney\",51 824 753 556\nBunnings,,,\n", Contact{"Officeworks Ltd", "51824753556"}},
		"myob": {"Co./Last Name\tFirst Name\tCard ID\tA.B.N.\nOfficeworks Ltd\t\t*None\t51 824 753 556\nSmith\tJane\t*None\t\n", Contact{"Officeworks Ltd", "51824753556"}},
		"qbo":  {"Vendor,Company,Phone,Tax ID\nOfficeworks Ltd,Officeworks,,51824753556\n", Contact{"Officeworks Ltd", "51824753556"}},
	} {
		got, err := ParseContacts(strings.NewReader(tc.file))
		if err != nil || len(got) == 0 || got[0] != tc.want {
			t.Errorf("%s: %+v %v", name, got, err)
		}
		if name == "myob" && (len(got) != 2 || got[1].Name != "Smith, Jane") {
			t.Errorf("MYOB individual card read as %+v", got)
		}
	}
	if _, err := ParseContacts(strings.NewReader("Foo,Bar\n1,2\n")); err == nil {
		t.Error("a file without a name column was accepted")
	}
	l := openTemp(t)
	if err := l.SetContacts(ctx, []Contact{{"Officeworks Ltd", "51 824 753 556"}, {"Bunnings", ""}}); err != nil {
		t.Fatal(err)
	}
	got, err := l.Contacts()
	if err != nil || len(got) != 2 || got[1] != (Contact{"Officeworks Ltd", "51824753556"}) {
		t.Fatalf("stored contacts %+v %v", got, err)
	}
}

// A client first given the euro countries' shared chart takes Ireland's
// when Ireland is chosen; a chart a person changed stays theirs.
func TestChoosingTheCountrySwitchesAnUntouchedChart(t *testing.T) {
	l := openTemp(t)
	if err := l.UseCountryDefaults(ctx, receipt.CountryEU); err != nil {
		t.Fatal(err)
	}
	if err := l.SetSetting(SettingCountry, "IE"); err != nil {
		t.Fatal(err)
	}
	if c := l.ChartCountry(); c != "IE" {
		t.Fatalf("chart country %q, want IE", c)
	}
	if err := l.SwitchCountryDefaults(ctx, "IE"); err != nil {
		t.Fatal(err)
	}
	codes, _ := l.TaxCodes()
	ie := DefaultTaxCodes("IE")
	if len(codes) != len(ie) || len(ie) == 0 {
		t.Fatalf("tax codes %+v, want Ireland's %d", codes, len(ie))
	}
	chart, _ := ChartFor("IE")
	if got := l.Setting(SettingDefaultAccount); got != chart.DefaultAccount {
		t.Errorf("default account %q, want Ireland's %q", got, chart.DefaultAccount)
	}

	// A chart with a code of the bookkeeper's own is kept.
	other := openTemp(t)
	own := append(DefaultTaxCodes(receipt.CountryEU), TaxCode{Code: "V16", Name: "VAT 16% (old rate)", Rate: decimal.NewFromInt(16)})
	if err := other.SetTaxCodes(ctx, own); err != nil {
		t.Fatal(err)
	}
	if err := other.SwitchCountryDefaults(ctx, "IE"); err != nil {
		t.Fatal(err)
	}
	if codes, _ := other.TaxCodes(); len(codes) != len(own) {
		t.Errorf("a changed chart was replaced: %d codes, want the %d set", len(codes), len(own))
	}
}
