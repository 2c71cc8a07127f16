package ui

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/internal/envvars"
	"github.com/shoebox-app/shoebox/internal/plain"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// otherCountry is the choice for a country Shoebox has no pack for.
const otherCountry = "Another country"

// settingCountry is the country chosen for the library, as its pack's code
// ("DE"), or "other": the locale holds only its tax rules ("EU"), which
// many countries share. settingCountryUnset marks a locale that nobody
// chose yet (the first start's "Ask me later").
const (
	settingCountry      = library.SettingCountry
	settingCountryUnset = "ui.country_unset"
)

// countryChoices are the countries the country question and Settings
// offer, by name: every country Shoebox has a pack for (packs/data), in
// alphabetical order, then another country.
func countryChoices() []string {
	var names []string
	for _, p := range packs.All() {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return append(names, otherCountry)
}

// packByName is the pack a country's name stands for.
func packByName(name string) (*packs.Pack, bool) {
	for _, p := range packs.All() {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// countryLocale is the usual settings of a country pack: its tax rules,
// currency and date order, and its tax rules' financial year.
func countryLocale(p *packs.Pack) receipt.Locale {
	c, err := receipt.ParseCountry(p.Jurisdiction)
	if err != nil {
		c = receipt.CountryOther
	}
	l := receipt.DefaultLocale(c)
	l.Currency, l.DateOrder = p.Currency, receipt.DateOrder(p.DateOrder)
	return l
}

// libraryCountry is the name of the country a library was set to: the
// pack chosen, else the pack of its tax rules where only one country has
// them (Australia), else another country (a library set before countries
// were listed by name, to "a euro country").
func libraryCountry(lib *library.Library) string {
	if p, ok := packs.Get(lib.Setting(settingCountry)); ok {
		return p.Name
	}
	c := lib.Locale().Country
	if p, ok := packs.Get(string(c)); ok && p.Jurisdiction == string(c) {
		return p.Name
	}
	return otherCountry
}

// taxIDNames are the tax-ID registers as their countries call them.
var taxIDNames = map[receipt.TaxScheme]string{
	receipt.SchemeABN: "ABN", receipt.SchemeNZGST: "GST number", receipt.SchemeUKVAT: "VAT number",
	receipt.SchemeEUVAT: "VAT number", receipt.SchemeUSEIN: "EIN", receipt.SchemeMYGST: "GST number",
	receipt.SchemeMYSST: "SST number", receipt.SchemeCHVAT: "VAT number", receipt.SchemeNOVAT: "VAT number",
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

// newLocaleChoice shows loc with country (a name from countryChoices; ""
// leaves the country unchosen and the rest blank, nothing preselected).
func newLocaleChoice(loc receipt.Locale, country string) *localeChoice {
	var months []string
	for m := time.January; m <= time.December; m++ {
		months = append(months, m.String())
	}
	var orders []string
	for _, o := range []receipt.DateOrder{receipt.DMY, receipt.MDY, receipt.YMD} {
		orders = append(orders, dateOrderNames[o])
	}
	lc := &localeChoice{
		country:  widget.NewSelect(countryChoices(), nil),
		fy:       widget.NewSelect(months, nil),
		order:    widget.NewSelect(orders, nil),
		currency: widget.NewSelectEntry(receipt.KnownCurrencies),
	}
	lc.country.PlaceHolder = "(choose the country)"
	if country != "" {
		lc.country.SetSelected(country)
		lc.fy.SetSelected(loc.FYStartMonth.String())
		lc.order.SetSelected(dateOrderNames[loc.DateOrder])
		lc.currency.SetText(loc.Currency)
	}
	lc.country.OnChanged = func(s string) {
		d := receipt.DefaultLocale(receipt.CountryOther)
		if p, ok := packByName(s); ok {
			d = countryLocale(p)
		}
		lc.order.SetSelected(dateOrderNames[d.DateOrder])
		lc.fy.SetSelected(d.FYStartMonth.String())
		lc.currency.SetText(d.Currency)
	}
	return lc
}

func (lc *localeChoice) items() []*widget.FormItem {
	return []*widget.FormItem{
		widget.NewFormItem("Country", lc.country),
		widget.NewFormItem("Usual currency", lc.currency),
		widget.NewFormItem("Financial year starts in", lc.fy),
		widget.NewFormItem("Dates are written", lc.order),
	}
}

// chosen says whether a country has been chosen.
func (lc *localeChoice) chosen() bool { return lc.country.Selected != "" }

// value is the locale chosen and the country's pack code ("other" for
// another country). Another country paying in euros keeps the euro
// countries' tax rules.
func (lc *localeChoice) value() (receipt.Locale, string) {
	l := receipt.Locale{
		Country: receipt.CountryOther, Currency: strings.ToUpper(strings.TrimSpace(lc.currency.Text)),
		DateOrder: receipt.DMY, FYStartMonth: time.January,
	}
	code := "other"
	if p, ok := packByName(lc.country.Selected); ok {
		l.Country, code = countryLocale(p).Country, p.Country
	} else if l.Currency == "EUR" {
		l.Country = receipt.CountryEU
	}
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
	return l, code
}

// localeChosen says whether someone has chosen the library's country.
func localeChosen(lib *library.Library) bool {
	return lib.Setting("locale") != "" && lib.Setting(settingCountryUnset) == ""
}

// leaveCountryUnset gives a library nobody has chosen a country for the
// settings of no country in particular (no currency assumed), so each
// page's own words, currency and address tell where it is from until the
// bookkeeper chooses (issue 40 item 2: an unset library read Malaysian
// receipts as Australian dollars).
func leaveCountryUnset(lib *library.Library) error {
	if localeChosen(lib) {
		return nil
	}
	if err := lib.SetSetting(settingCountryUnset, "1"); err != nil {
		return err
	}
	if lib.Locale() == receipt.DefaultLocale(receipt.CountryOther) {
		return nil
	}
	return lib.SetLocale(receipt.DefaultLocale(receipt.CountryOther))
}

// guessCountry guesses where the receipts come from, as a country's name
// (see countryChoices): from the countries the receipts read so far were
// printed in, their currencies and tax IDs, else from the computer's
// language setting. fromReceipts says the receipts told; "" when nothing
// tells.
func guessCountry(lib *library.Library, getenv func(string) string) (name, why string, fromReceipts bool) {
	votes := map[string]int{}
	seen := 0
	for rec, err := range lib.Records(library.Filter{}) {
		if err != nil || seen >= 50 {
			break
		}
		seen++
		r := rec.Receipt
		if p, ok := packs.Get(r.PrintedIn.Value); ok && r.PrintedIn.Set {
			votes[p.Country]++
			continue
		}
		// A currency only one country pays in; one the rules assumed
		// from the settings says nothing.
		if r.Currency.Set && r.Currency.Confidence > 0.6 {
			var payers []string
			for _, p := range packs.All() {
				if p.Currency == r.Currency.Value {
					payers = append(payers, p.Country)
				}
			}
			if len(payers) == 1 {
				votes[payers[0]]++
				continue
			}
		}
		if s := string(r.SupplierTaxID.Value.Scheme); r.SupplierTaxID.Set && len(s) > 3 && s[2] == '_' {
			if p, ok := packs.Get(s[:2]); ok && p.Jurisdiction == s[:2] {
				votes[p.Country]++
			}
		}
	}
	best, n := "", 0
	for _, p := range packs.All() {
		if votes[p.Country] > n {
			best, n = p.Country, votes[p.Country]
		}
	}
	if p, ok := packs.Get(best); ok {
		return p.Name, fmt.Sprintf("Guessed from %d of the %d receipts read so far.", n, seen), true
	}
	for _, key := range []string{"LC_ALL", "LC_MONETARY", "LANG"} {
		v := getenv(key) // en_MY.UTF-8
		if _, region, ok := strings.Cut(strings.SplitN(v, ".", 2)[0], "_"); ok {
			if p, ok := packs.Get(region); ok {
				return p.Name, "Guessed from your computer's language setting.", false
			}
		}
	}
	return "", "", false
}

// askCountry asks, on a library's first run, where its receipts come from;
// the first start also names the first client. "Ask me later" leaves the
// country unset, and the question comes back once the receipts read tell
// where they are from.
func (u *UI) askCountry() {
	name, why, _ := guessCountry(u.svc.Lib, envvars.Getenv)
	loc := receipt.DefaultLocale(receipt.CountryOther)
	if p, ok := packByName(name); ok {
		loc = countryLocale(p)
	}
	lc := newLocaleChoice(loc, name)
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
	items := lc.items()
	var client *widget.Entry
	if s := u.shell; s != nil && s.client == firstClientName {
		client = widget.NewEntry()
		client.SetPlaceHolder("the client's name, e.g. Smith Plumbing Pty Ltd")
		items = append([]*widget.FormItem{widget.NewFormItem("Whose receipts", client)}, items...)
	}
	body := container.NewVBox(append(top, widget.NewForm(items...))...)
	d := dialog.NewCustomConfirm("Where are your receipts from?", "Use these settings", "Ask me later", body, func(ok bool) {
		u.firstRun = nil
		if client != nil {
			u.renameClient(firstClientName, client.Text)
		}
		if !ok || !lc.chosen() {
			u.countryLater = true
			if ok {
				u.say("No country chosen: Shoebox asks again once the receipts tell where they are from.")
			}
			return
		}
		l, code := lc.value()
		u.setCountry(l, code, u.win)
	}, u.win)
	d.Resize(fyne.NewSize(560, 0))
	d.Show()
	u.firstRun = d
}

// askCountryAgain asks for the country once per session after a batch,
// when the question was put off and the receipts read now tell.
func (u *UI) askCountryAgain() {
	if !u.countryLater || u.firstRun != nil || localeChosen(u.svc.Lib) {
		return
	}
	if _, _, told := guessCountry(u.svc.Lib, func(string) string { return "" }); told {
		u.countryLater = false
		u.askCountry()
	}
}

// SetLocale stores the library's country settings (for tests and scripts:
// the country is taken to be the locale's own).
func (u *UI) SetLocale(l receipt.Locale) { u.setCountry(l, string(l.Country), u.win) }

// setCountry stores the library's country (its pack's code, or "other")
// and settings, starts the reader anew with them (it checks dates,
// currencies and tax numbers by country) and offers to read again the
// receipts read under the old ones.
func (u *UI) setCountry(l receipt.Locale, code string, parent fyne.Window) {
	old := u.svc.Lib.Locale()
	oldName := libraryCountry(u.svc.Lib)
	wasChosen := localeChosen(u.svc.Lib)
	if err := u.svc.Lib.SetLocale(l); err != nil {
		u.showError(err)
		return
	}
	if !u.saveSettings(settingCountry, code, settingCountryUnset, "") {
		return
	}
	if err := u.svc.Lib.SwitchCountryDefaults(context.Background(), receipt.Country(code)); err != nil {
		u.showError(err)
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
	newName := libraryCountry(u.svc.Lib)
	msg := fmt.Sprintf("%s read with the settings for %s. Read them again for %s?\n"+
		"Changes you typed into them are replaced; confirmed receipts stay as they are.",
		n, oldName, newName)
	if !wasChosen {
		msg = fmt.Sprintf("%s read before you chose the country. Read them again for %s?\n"+
			"Confirmed receipts stay as they are.", n, newName)
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
