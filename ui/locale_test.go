package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// localeEngine reads every receipt in the currency of the settings it was
// started with, as the rules do when a receipt names none.
type localeEngine struct{ loc receipt.Locale }

func (e localeEngine) Name() string { return "locale " + string(e.loc.Country) }
func (e localeEngine) Close() error { return nil }
func (e localeEngine) Extract(ctx context.Context, p inference.Page) (inference.Result, error) {
	return inference.Result{Receipt: receipt.Receipt{
		SupplierName: receipt.Of("Kedai", receipt.SourceOCR, 0.9),
		Total:        receipt.Of(decimal.RequireFromString("9.00"), receipt.SourceOCR, 0.9),
		Currency:     receipt.Of(e.loc.Currency, receipt.SourceOCR, 0.6),
	}}, nil
}

func TestGuessCountry(t *testing.T) {
	u := newTestUI(t)
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if c, why, _ := guessCountry(u.svc.Lib, env(nil)); c != "" || why != "" {
		t.Errorf("no clue, yet %q %q: nothing may be preselected", c, why)
	}
	if c, why, told := guessCountry(u.svc.Lib, env(map[string]string{"LANG": "en_MY.UTF-8"})); c != "Malaysia" || why == "" || told {
		t.Errorf("LANG=en_MY: %s %q %v", c, why, told)
	}
	if c, _, _ := guessCountry(u.svc.Lib, env(map[string]string{"LANG": "de_DE.UTF-8"})); c != "Germany" {
		t.Errorf("LANG=de_DE: %s", c)
	}
	// Receipts that tell their country outvote the computer's setting.
	addPaths(u, pngFiles(t, 3))
	for i, r := range u.list.rows {
		rec := receipt.Receipt{
			Total:    receipt.Of(decimal.NewFromInt(9), receipt.SourceOCR, 0.9),
			Currency: receipt.Of("MYR", receipt.SourceOCR, 0.9),
		}
		if i == 0 {
			rec.Currency = receipt.Field[string]{}
			rec.PrintedIn = receipt.Of("MY", receipt.SourceOCR, 0.9)
		}
		u.svc.Lib.SaveExtraction(context.Background(), r.ID, rec, "ocr", receipt.SourceOCR)
	}
	if c, why, told := guessCountry(u.svc.Lib, env(map[string]string{"LANG": "en_US.UTF-8"})); c != "Malaysia" || why == "" || !told {
		t.Errorf("Malaysian receipts: %s %q %v", c, why, told)
	}
}

// Every country Shoebox has a pack for is offered by its name.
func TestCountryChoicesNameEveryPack(t *testing.T) {
	got := strings.Join(countryChoices(), "|")
	for _, p := range packs.All() {
		if !strings.Contains(got, p.Name) {
			t.Errorf("%s (%s) is not offered: %s", p.Name, p.Country, got)
		}
	}
	if strings.Contains(got, "EU") || !strings.Contains(got, "Germany") {
		t.Errorf("choices: %s", got)
	}
	lc := newLocaleChoice(receipt.DefaultLocale(receipt.CountryOther), "")
	if lc.chosen() || lc.currency.Text != "" {
		t.Errorf("a country or currency preselected: %q %q", lc.country.Selected, lc.currency.Text)
	}
	lc.country.SetSelected("Germany")
	if l, code := lc.value(); code != "DE" || l.Country != receipt.CountryEU || l.Currency != "EUR" {
		t.Errorf("Germany: %+v %s", l, code)
	}
}

// A new library reads with no country assumed; "Ask me later" keeps it so
// (no Australian dollars for Malaysian receipts), and once a batch's
// receipts tell the country the question comes back with it chosen;
// choosing reads the receipts again in its currency.
func TestCountryAskedAgainWhenTheReceiptsTell(t *testing.T) {
	t.Setenv("LANG", "")
	u := newTestUI(t)
	if err := leaveCountryUnset(u.svc.Lib); err != nil { // as the window does on opening
		t.Fatal(err)
	}
	u.svc.Engine = localeEngine{u.svc.Lib.Locale()}
	u.svc.ChooseEngine = func() (inference.Engine, string, int, error) {
		return localeEngine{u.svc.Lib.Locale()}, "OCR", 1, nil
	}
	u.askCountry()
	if u.firstRun == nil {
		t.Fatal("no country question")
	}
	u.firstRun.Dismiss() // Ask me later
	if localeChosen(u.svc.Lib) || u.svc.Lib.Locale().Currency != "" {
		t.Fatalf("after Ask me later: %+v, chosen %v", u.svc.Lib.Locale(), localeChosen(u.svc.Lib))
	}
	u.svc.Engine = printedInEngine{}
	addPaths(u, pngFiles(t, 2))
	extractAll(t, u)
	settle(u)
	rec, _ := u.svc.Lib.Get(u.Current())
	if rec.Receipt.Currency.Value == "AUD" {
		t.Fatalf("read in AUD with no country chosen")
	}
	if u.firstRun == nil {
		t.Fatal("the receipts tell Malaysia, and the question did not come back")
	}
	u.firstRun.Confirm()
	if l := u.svc.Lib.Locale(); l.Country != receipt.CountryMY || l.Currency != "MYR" || !localeChosen(u.svc.Lib) || libraryCountry(u.svc.Lib) != "Malaysia" {
		t.Fatalf("locale %+v, country %s", l, libraryCountry(u.svc.Lib))
	}
	if u.readAgainAsk == nil {
		t.Fatal("no offer to read the receipts again")
	}
	u.readAgainAsk.Confirm()
	waitFor(t, 10*time.Second, "the receipts were not read again", func() bool {
		counts, _ := u.svc.Lib.Counts()
		return counts[library.StatusQueued]+counts[library.StatusExtracting] == 0 && u.Wait(0) && !u.busySwitching()
	})
	settle(u)
	for _, r := range u.list.rows {
		rec, _ := u.svc.Lib.Get(r.ID)
		if rec.Receipt.Currency.Value != "MYR" {
			t.Errorf("#%d read again in %q", r.ID, rec.Receipt.Currency.Value)
		}
	}
}

// printedInEngine reads receipts whose words say Malaysia but print no currency.
type printedInEngine struct{}

func (printedInEngine) Name() string { return "printed in" }
func (printedInEngine) Close() error { return nil }
func (printedInEngine) Extract(ctx context.Context, p inference.Page) (inference.Result, error) {
	return inference.Result{Receipt: receipt.Receipt{
		SupplierName: receipt.Of("Kedai Sdn Bhd", receipt.SourceOCR, 0.9),
		Total:        receipt.Of(decimal.RequireFromString("9.00"), receipt.SourceOCR, 0.9),
		PrintedIn:    receipt.Of("MY", receipt.SourceOCR, 0.9),
	}}, nil
}

func (u *UI) busySwitching() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.switching
}
