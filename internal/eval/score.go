package eval

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// Label is a receipt's ground truth for the fields SROIE labels (and our own
// CSV labels). Values are as printed; Score normalises them.
type Label struct {
	Company string `json:"company"`
	Date    string `json:"date"`
	Address string `json:"address"`
	Total   string `json:"total"`
	// Tax and Items are scored only where labelled (our synthetic sets):
	// the total tax, and the line items' totals in order, split by ";".
	Tax   string `json:"tax,omitempty"`
	Items string `json:"items,omitempty"`
	// TaxID is the supplier's tax number as printed ("ABN 51 824 753 556").
	TaxID string `json:"tax_id,omitempty"`
	// TaxRates are the receipt's tax lines as rate:tax, split by ";"
	// ("20:53.97"): scored as the tax lines read, in order.
	TaxRates string `json:"tax_rates,omitempty"`
	// Currency is the ISO code the receipt is in ("EUR").
	Currency string `json:"currency,omitempty"`
}

// ScoredFields are the fields eval scores, in report order.
var ScoredFields = []string{"company", "date", "address", "total"}

// ExtraFields are scored when a label set has them.
var ExtraFields = []string{"tax", "items", "tax_id", "tax_rates", "currency"}

// FieldScore is one field of one receipt.
type FieldScore struct {
	Want, Got string
	Correct   bool
}

// NormalizeText is how names and addresses are compared: letters and digits
// only, so case, spacing and punctuation that OCR moves do not count, nor
// accents (receipt.Fold), nor the strokes of letters NFD keeps whole, which
// the page reader reads as the letters under them (Søvik is SOVIK, Sæther
// SAETHER, Wrocław WROCLAW). receipt.Fold keys a library's saved suppliers,
// so the strokes are the measurement's alone.
func NormalizeText(s string) string { return receipt.Fold(strokedLetters.Replace(s)) }

var strokedLetters = strings.NewReplacer("ø", "o", "Ø", "O", "æ", "ae", "Æ", "AE", "ł", "l", "Ł", "L")

// Score compares an extraction with a label, field by field, after
// normalisation: dates as calendar dates, totals as decimals.
func Score(l Label, r *receipt.Receipt, loc receipt.Locale) map[string]FieldScore {
	out := map[string]FieldScore{}
	got := func(path string) string { v, _ := receipt.Get(r, path); return v }
	out["company"] = FieldScore{
		Want: l.Company, Got: got("supplier_name"),
		Correct: l.Company != "" && NormalizeText(l.Company) == NormalizeText(got("supplier_name")),
	}
	out["address"] = FieldScore{
		Want: l.Address, Got: got("supplier_address"),
		Correct: l.Address != "" && NormalizeText(l.Address) == NormalizeText(got("supplier_address")),
	}
	fd := FieldScore{Want: l.Date, Got: got("date")}
	want := l.Date
	if len(want) == 8 && len(strings.Map(keepDigits, want)) == 8 { // SROIE writes some dates as DDMMYYYY, some as YYYYMMDD
		if y := want[:2]; (y == "19" || y == "20") && want[4:6] >= "01" && want[4:6] <= "12" {
			want = want[:4] + "-" + want[4:6] + "-" + want[6:]
		} else {
			want = want[:2] + "/" + want[2:4] + "/" + want[4:]
		}
	}
	if d, err := receipt.ParseDate(want, loc.DateOrder); err == nil && r.Date.Set {
		fd.Correct = d.Date.Equal(r.Date.Value)
	}
	out["date"] = fd
	ft := FieldScore{Want: l.Total, Got: got("total")}
	if a, err := receipt.ParseAmount(l.Total); err == nil && r.Total.Set {
		ft.Correct = a.Value.Equal(r.Total.Value)
	} else if d, err := decimal.NewFromString(l.Total); err == nil && r.Total.Set {
		ft.Correct = d.Equal(r.Total.Value)
	}
	out["total"] = ft
	if l.Tax != "" {
		fx := FieldScore{Want: l.Tax, Got: got("total_tax")}
		if a, err := receipt.ParseAmount(l.Tax); err == nil && r.TotalTax.Set {
			fx.Correct = a.Value.Equal(r.TotalTax.Value)
		}
		out["tax"] = fx
	}
	if l.TaxID != "" {
		want := receipt.DetectTaxID(l.TaxID, loc.Country)
		ft := FieldScore{Want: want.Value, Got: r.SupplierTaxID.Value.Value}
		ft.Correct = r.SupplierTaxID.Set && receipt.NormalizeTaxID(ft.Got) == receipt.NormalizeTaxID(want.Value)
		out["tax_id"] = ft
	}
	if l.TaxRates != "" {
		var got []string
		for _, tl := range r.TaxLines {
			got = append(got, tl.Rate.Value.String()+":"+tl.Tax.Value.StringFixed(2))
		}
		fr := FieldScore{Want: l.TaxRates, Got: strings.Join(got, ";")}
		fr.Correct = fr.Want == fr.Got
		out["tax_rates"] = fr
	}
	if l.Currency != "" {
		fc := FieldScore{Want: strings.ToUpper(l.Currency), Got: r.Currency.Value}
		fc.Correct = r.Currency.Set && fc.Got == fc.Want
		out["currency"] = fc
	}
	if l.Items != "" {
		var got []string
		for _, it := range r.LineItems {
			got = append(got, it.LineTotal.Value.StringFixed(2))
		}
		fi := FieldScore{Want: l.Items, Got: strings.Join(got, ";")}
		want := strings.Split(l.Items, ";")
		fi.Correct = len(want) == len(got)
		for i := 0; fi.Correct && i < len(want); i++ {
			a, err := receipt.ParseAmount(want[i])
			fi.Correct = err == nil && a.Value.StringFixed(2) == got[i]
		}
		out["items"] = fi
	}
	return out
}

func keepDigits(r rune) rune {
	if r >= '0' && r <= '9' {
		return r
	}
	return -1
}
