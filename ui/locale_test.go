package ui

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/library"
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
	if c, why := guessCountry(u.svc.Lib, env(nil)); c != receipt.CountryAU || why != "" {
		t.Errorf("no clue: %s %q", c, why)
	}
	if c, why := guessCountry(u.svc.Lib, env(map[string]string{"LANG": "en_MY.UTF-8"})); c != receipt.CountryMY || why == "" {
		t.Errorf("LANG=en_MY: %s %q", c, why)
	}
	if c, _ := guessCountry(u.svc.Lib, env(map[string]string{"LANG": "en_GB.UTF-8"})); c != receipt.CountryUK {
		t.Errorf("LANG=en_GB: %s", c)
	}
	// Receipts that name their currency outvote the computer's setting.
	addPaths(u, pngFiles(t, 2))
	for _, r := range u.list.rows {
		rec := receipt.Receipt{Total: receipt.Of(decimal.NewFromInt(9), receipt.SourceOCR, 0.9),
			Currency: receipt.Of("MYR", receipt.SourceOCR, 0.9)}
		u.svc.Lib.SaveExtraction(context.Background(), r.ID, rec, "ocr", receipt.SourceOCR)
	}
	if c, why := guessCountry(u.svc.Lib, env(map[string]string{"LANG": "en_US.UTF-8"})); c != receipt.CountryMY || why == "" {
		t.Errorf("MYR receipts: %s %q", c, why)
	}
}

// A new library asks for its country; choosing one reads the receipts read
// so far again, with the new country's currency (Re-extract kept AUD: the
// engine still had the settings it started with).
func TestFirstRunCountryReadsReceiptsAgain(t *testing.T) {
	t.Setenv("LANG", "en_MY.UTF-8")
	u := newTestUI(t)
	u.svc.Engine = localeEngine{u.svc.Lib.Locale()}
	u.svc.ChooseEngine = func() (inference.Engine, string, int, error) {
		return localeEngine{u.svc.Lib.Locale()}, "OCR", 1, nil
	}
	if localeChosen(u.svc.Lib) {
		t.Fatal("a new library has a country")
	}
	addPaths(u, pngFiles(t, 2))
	extractAll(t, u)
	rec, _ := u.svc.Lib.Get(u.Current())
	if rec.Receipt.Currency.Value != "AUD" {
		t.Fatalf("before: %q", rec.Receipt.Currency.Value)
	}
	u.askCountry()
	if u.firstRun == nil {
		t.Fatal("no country question")
	}
	u.firstRun.Confirm() // Malaysia, as the computer's language suggests
	if l := u.svc.Lib.Locale(); l.Country != receipt.CountryMY || l.Currency != "MYR" || !localeChosen(u.svc.Lib) {
		t.Fatalf("locale %+v", l)
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

func (u *UI) busySwitching() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.switching
}
