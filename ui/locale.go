package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/internal/envvars"
	"github.com/shoebox-app/shoebox/internal/plain"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// countryNames are the countries as a bookkeeper says them.
var countryNames = map[receipt.Country]string{
	receipt.CountryAU: "Australia", receipt.CountryNZ: "New Zealand", receipt.CountryUK: "United Kingdom",
	receipt.CountryEU: "A euro country (EU)", receipt.CountryUS: "United States", receipt.CountryMY: "Malaysia",
	receipt.CountryOther: "Another country",
}

func countryName(c receipt.Country) string {
	if n, ok := countryNames[c]; ok {
		return n
	}
	return string(c)
}

func countryByName(name string) receipt.Country {
	for c, n := range countryNames {
		if n == name {
			return c
		}
	}
	return receipt.CountryOther
}

// taxIDNames are the tax-ID registers as their countries call them.
var taxIDNames = map[receipt.TaxScheme]string{
	receipt.SchemeABN: "ABN", receipt.SchemeNZGST: "GST number", receipt.SchemeUKVAT: "VAT number",
	receipt.SchemeEUVAT: "VAT number", receipt.SchemeUSEIN: "EIN", receipt.SchemeMYGST: "GST number",
	receipt.SchemeMYSST: "SST number",
}

var dateOrderNames = map[receipt.DateOrder]string{
	receipt.DMY: "day/month/year (25/12/2025)", receipt.MDY: "month/day/year (12/25/2025)", receipt.YMD: "year-month-day (2025-12-25)",
}

// localeChoice is the country, currency, financial year and date order
// inputs that the first-run question and Settings share.
type localeChoice struct {
	country, fy, order *widget.Select
	currency           *widget.SelectEntry
}

func newLocaleChoice(loc receipt.Locale) *localeChoice {
	var countries []string
	for _, c := range receipt.Countries {
		countries = append(countries, countryName(c))
	}
	var months []string
	for m := time.January; m <= time.December; m++ {
		months = append(months, m.String())
	}
	var orders []string
	for _, o := range []receipt.DateOrder{receipt.DMY, receipt.MDY, receipt.YMD} {
		orders = append(orders, dateOrderNames[o])
	}
	lc := &localeChoice{
		country:  widget.NewSelect(countries, nil),
		fy:       widget.NewSelect(months, nil),
		order:    widget.NewSelect(orders, nil),
		currency: widget.NewSelectEntry(receipt.KnownCurrencies),
	}
	lc.set(loc)
	lc.country.OnChanged = func(s string) {
		d := receipt.DefaultLocale(countryByName(s))
		lc.order.SetSelected(dateOrderNames[d.DateOrder])
		lc.fy.SetSelected(d.FYStartMonth.String())
		lc.currency.SetText(d.Currency)
	}
	return lc
}

func (lc *localeChoice) set(loc receipt.Locale) {
	lc.country.SetSelected(countryName(loc.Country))
	lc.fy.SetSelected(loc.FYStartMonth.String())
	lc.order.SetSelected(dateOrderNames[loc.DateOrder])
	lc.currency.SetText(loc.Currency)
}

func (lc *localeChoice) items() []*widget.FormItem {
	return []*widget.FormItem{
		widget.NewFormItem("Country", lc.country),
		widget.NewFormItem("Usual currency", lc.currency),
		widget.NewFormItem("Financial year starts in", lc.fy),
		widget.NewFormItem("Dates are written", lc.order),
	}
}

func (lc *localeChoice) value() receipt.Locale {
	l := receipt.Locale{Country: countryByName(lc.country.Selected), Currency: strings.ToUpper(strings.TrimSpace(lc.currency.Text)),
		DateOrder: receipt.DMY, FYStartMonth: time.January}
	for o, n := range dateOrderNames {
		if n == lc.order.Selected {
			l.DateOrder = o
		}
	}
	for m := time.January; m <= time.December; m++ {
		if m.String() == lc.fy.Selected {
			l.FYStartMonth = m
		}
	}
	return l
}

// localeChosen says whether someone has chosen the library's country (an
// unset locale reads as Australia's defaults).
func localeChosen(lib *library.Library) bool { return lib.Setting("locale") != "" }

// guessCountry guesses where the receipts come from: from the currencies and
// tax IDs read off the receipts so far, else from the computer's language
// setting. why says what the guess rests on ("" when there is none).
func guessCountry(lib *library.Library, getenv func(string) string) (c receipt.Country, why string) {
	votes := map[receipt.Country]int{}
	seen := 0
	for rec, err := range lib.Records(library.Filter{}) {
		if err != nil || seen >= 50 {
			break
		}
		seen++
		r := rec.Receipt
		// A currency the rules assumed from the settings says nothing.
		if r.Currency.Set && r.Currency.Confidence > 0.6 {
			for _, cc := range receipt.Countries {
				if receipt.CurrencyForCountry(cc) == r.Currency.Value {
					votes[cc]++
				}
			}
		}
		if s := string(r.SupplierTaxID.Value.Scheme); r.SupplierTaxID.Set && len(s) > 3 && s[2] == '_' {
			votes[receipt.Country(s[:2])]++
		}
	}
	best, n := receipt.Country(""), 0
	for _, cc := range receipt.Countries {
		if votes[cc] > n {
			best, n = cc, votes[cc]
		}
	}
	if best != "" {
		return best, fmt.Sprintf("Guessed from the currency and tax numbers on %d of the %d receipts read so far.", n, seen)
	}
	for _, key := range []string{"LC_ALL", "LC_MONETARY", "LANG"} {
		v := getenv(key) // en_MY.UTF-8
		if _, region, ok := strings.Cut(strings.SplitN(v, ".", 2)[0], "_"); ok {
			cc := receipt.Country(strings.ToUpper(region))
			if cc == "GB" {
				cc = receipt.CountryUK
			}
			if _, known := countryNames[cc]; known {
				return cc, "Guessed from your computer's language setting."
			}
		}
	}
	return receipt.CountryAU, ""
}

// askCountry asks, on a library's first run, where its receipts come from.
func (u *UI) askCountry() {
	c, why := guessCountry(u.svc.Lib, envvars.Getenv)
	lc := newLocaleChoice(receipt.DefaultLocale(c))
	intro := widget.NewLabel("Shoebox checks dates, amounts and tax numbers the way your country writes them. " +
		"You can change this later in Settings.")
	intro.Wrapping = fyne.TextWrapWord
	top := []fyne.CanvasObject{intro}
	if why != "" {
		guess := widget.NewLabel(why)
		guess.Wrapping = fyne.TextWrapWord
		guess.Importance = widget.HighImportance
		top = append(top, guess)
	}
	body := container.NewVBox(append(top, widget.NewForm(lc.items()...))...)
	d := dialog.NewCustomConfirm("Where are your receipts from?", "Use these settings", "Ask me later", body, func(ok bool) {
		if ok {
			u.SetLocale(lc.value())
		}
	}, u.win)
	d.Resize(fyne.NewSize(560, 0))
	d.Show()
	u.firstRun = d
}

// SetLocale stores the library's country settings, starts the reader anew
// with them (it checks dates, currencies and tax numbers by country) and
// offers to read again the receipts read under the old ones.
func (u *UI) SetLocale(l receipt.Locale) { u.setLocale(l, u.win) }

func (u *UI) setLocale(l receipt.Locale, parent fyne.Window) {
	old := u.svc.Lib.Locale()
	wasChosen := localeChosen(u.svc.Lib)
	if err := u.svc.Lib.SetLocale(l); err != nil {
		u.showError(err)
		return
	}
	u.SwitchEngine(nil)
	if wasChosen && old == l {
		return
	}
	ids := u.readUnconfirmed()
	if len(ids) == 0 {
		return
	}
	n := fmt.Sprintf("%d %s were", len(ids), plain.Word(len(ids), "receipt", "receipts"))
	if len(ids) == 1 {
		n = "1 receipt was"
	}
	msg := fmt.Sprintf("%s read with %s's settings. Read them again for %s?\n"+
		"Changes you typed into them are replaced; confirmed receipts stay as they are.",
		n, countryName(old.Country), countryName(l.Country))
	if !wasChosen {
		msg = fmt.Sprintf("%s read before you chose the country. Read them again for %s?\n"+
			"Confirmed receipts stay as they are.", n, countryName(l.Country))
	}
	d := dialog.NewConfirm("Read the receipts again?", msg, func(ok bool) {
		if ok {
			u.readAgain(ids)
		}
	}, parent)
	d.SetConfirmText("Read again")
	d.SetDismissText("Keep them")
	d.Show()
	u.readAgainAsk = d
}

// readUnconfirmed lists the receipts that have been read but not confirmed.
func (u *UI) readUnconfirmed() []int64 {
	rows, err := u.svc.Lib.List(library.Filter{Statuses: []library.Status{library.StatusExtracted, library.StatusNeedsReview, library.StatusFailed}})
	if err != nil {
		return nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	return ids
}

// readAgain queues receipts and reads them once the engine for the new
// settings has started.
func (u *UI) readAgain(ids []int64) {
	u.form.flush()
	if _, err := u.svc.Lib.Enqueue(context.Background(), ids, true); err != nil {
		u.showError(err)
		return
	}
	u.Reload()
	u.mu.Lock()
	waiting := u.switching
	u.mu.Unlock()
	if !waiting {
		u.startRunner()
	}
	// Otherwise the engine switch starts the runner when it is done.
}
