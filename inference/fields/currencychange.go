package fields

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// currencyInForce is the page's country's currency on the receipt's day
// (today's where no date was read): a Bulgarian receipt of 2026 is in
// euros. "" without a country.
func currencyInForce(pk *packs.Pack, r receipt.Receipt, now time.Time) string {
	if pk == nil {
		return ""
	}
	day := now
	if r.Date.Set {
		day = r.Date.Value
	}
	return pk.CurrencyOn(day)
}

// totalInItsCurrency: around a country's change of currency its shops print
// the total in both, the old one converted at the rate fixed by law (lev
// and euro at 1.95583). Where the page prints both currencies and an
// amount that is the total so converted, the total is the one in the
// receipt's currency. The conversion is arithmetic, so it holds whatever
// the labels; an amount that converts to the total both ways is left
// alone.
func totalInItsCurrency(r *receipt.Receipt, lines []Line, det packs.Detection) {
	pk := det.Pack
	if pk == nil || !r.Total.Set || !r.Currency.Set || r.Total.Value.LessThan(decimal.NewFromInt(1)) {
		return
	}
	for i, c := range pk.CurrencyChanges {
		before := pk.CurrencyBefore(i)
		rate, err := decimal.NewFromString(c.Rate)
		if err != nil || det.Printed[before] == 0 || det.Printed[c.Currency] == 0 {
			continue
		}
		total := r.Total.Value
		var inNew, inBefore *receipt.Amount // the total in the other currency
		other := func(u decimal.Decimal, l Line, in, besides string) *receipt.Amount {
			a := found(u, min(l.Conf, r.Total.Confidence), boxOf(l), fmt.Sprintf("the total in %s; the page prints it in %s too (%s %s = 1 %s)", in, besides, c.Rate, before, c.Currency))
			return &a
		}
		for _, l := range lines {
			for _, u := range amountsIn(l.Text) {
				switch {
				case inNew == nil && convertsTo(u, rate, total):
					inNew = other(u, l, c.Currency, before)
				case inBefore == nil && convertsTo(total, rate, u):
					inBefore = other(u, l, before, c.Currency)
				}
			}
		}
		switch {
		case inNew != nil && inBefore == nil && r.Currency.Value == c.Currency:
			r.Total = *inNew
		case inBefore != nil && inNew == nil && r.Currency.Value == before:
			r.Total = *inBefore
		}
	}
}

// convertsTo says whether amount x in the new currency is y in the one
// before it at rate, rounded to the cent.
func convertsTo(x, rate, y decimal.Decimal) bool {
	return x.IsPositive() && x.Mul(rate).Round(2).Sub(y).Abs().LessThanOrEqual(decimal.New(1, -2))
}
