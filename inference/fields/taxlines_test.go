package fields

import (
	"fmt"
	"slices"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

func TestFindTaxLines(t *testing.T) {
	type want struct{ label, rate, net, tax string }
	for _, tc := range []struct {
		name      string
		country   receipt.Country
		lines     []Line
		want      []want
		inclusive string // "true", "false" or "" for unknown
	}{
		{
			"inclusive GST", receipt.CountryAU, lines("1 x HAMMER $24.95", "TOTAL $24.95", "GST included 10% $2.27"),
			[]want{{"GST", "10", "", "2.27"}},
			"true",
		},
		{
			"sales tax added", receipt.CountryUS, lines("DRILL $18.99", "SUBTOTAL $18.99", "SALES TAX 8% $1.52", "TOTAL $20.51"),
			[]want{{"SALES TAX", "8", "", "1.52"}},
			"false",
		},
		{
			"summary row with its net", receipt.CountryMY, lines("Total Sales (Inclusive GST) 190.80", "GST Summary Amount (RM) Tax (RM)", "SR @ 6% 180.00 10.80", "Total GST 10.80"),
			[]want{{"GST", "6", "180", "10.8"}},
			"true",
		},
		{
			"the rate of a total is no tax line", receipt.CountryMY, lines("Total Amt Incl. GST @ 6% : 12.00", "GST 6% 0.68"),
			[]want{{"GST", "6", "", "0.68"}},
			"true",
		},
		{
			"a net subtotal under an INCLUSIVE total", receipt.CountryMY, lines("Sub Total (Excluding GST): 18.31", "Total GST: 1.10", "Total (Inclusive GST): 19.40"),
			nil, "false",
		},
		{
			"item rows with rates under a table heading are no tax lines", receipt.CountryMY, lines("DESC QTY PRICE AMOUNT TAXCODE", "CODE AMOUNT TAX", "10% 10.00 100.00 ZRL", "3 1% 58.00 58.00 SR", "Total Inc. GST 6%: 362.50"),
			nil, "true",
		},
		{
			"a tax-coded row without a table heading", receipt.CountryMY, lines("TOTAL 37.63", "SR (@ 6%) 35.50 2.13", "Total GST 2.13"),
			[]want{{"", "6", "35.5", "2.13"}},
			"true",
		},
		{
			"tax included in the total", receipt.CountryMY, lines("Total Incl. GST@6% RM 12.30", "GST @6% included in total RM 0.70"),
			[]want{{"GST", "6", "", "0.7"}},
			"true",
		},
		{
			"a rate with three decimals", receipt.CountryMY, lines("TOTAL 19.40", "GST 6.000% 1.10"),
			[]want{{"GST", "6", "", "1.1"}},
			"true",
		},
		{
			"two rates", receipt.CountryEU, lines("SUMME EUR 23,07", "MWST 19% EUR 1,60", "MWST 7% EUR 1,09", "Total MWST EUR 2,69"),
			[]want{{"MWST", "19", "", "1.6"}, {"MWST", "7", "", "1.09"}},
			"true",
		},
		{
			"a table headed by its net and gross columns alone", receipt.CountryEU, lines("SUMME EUR 19,16", "Mehrwertst ohne MwSt mit MwSt", "V 19,0% 1,44 7,55 8,99", "a 7,0% 0,68 9,79 10,47"),
			[]want{{"", "19", "7.55", "1.44"}, {"", "7", "9.79", "0.68"}}, // the heading names no tax
			"true",
		},
		{
			"lines that do not add up to the tax are dropped", receipt.CountryUK, lines("TOTAL £60.00", "VAT 20% £10.00", "TOTAL VAT £7.00"),
			nil, "true",
		},
		// Synthetic phone photos (seed 101): a 0 read as O or @, a tax
		// word one letter off, a dollar sign read as 5.
		{
			"a rate's 0 read as O", receipt.CountryAU, lines("4 PRINTER PAPER $12.96 $51.84", "GST1O% INCL. $21.45", "BALANCE DUE = $235.94"),
			[]want{{"GST", "10", "", "21.45"}},
			"true",
		},
		{
			"an amount's 0 read as @", receipt.CountryEU, lines("MWST 7% INCL. EUR 1@,59", "GRAND TOTAL EUR 161,90"),
			[]want{{"MWST", "7", "", "10.59"}},
			"true",
		},
		{
			"a tax word one letter off beside INCLUDED", receipt.CountryEU, lines("TOTAL DUE EUR 344,00", "MYST included 19% EUR 54,92"),
			[]want{{"MWST", "19", "", "54.92"}},
			"true",
		},
		{
			"a word one letter off a tax word, with no INCLUDED, stays", receipt.CountryEU, lines("TOTAL DUE EUR 344,00", "MYST 19% EUR 54,92"),
			nil, "",
		},
		{
			"a dollar sign read as 5", receipt.CountryAU, lines("1 SCREWS S6PK $4.90 $4.90", "GST 10% INCL. 516.78", "GRANDTOTAL $184.53"),
			[]want{{"GST", "10", "", "16.78"}},
			"true",
		},
		{
			"no dollar sign to misread on a page without one", receipt.CountryMY, lines("GST 6% 516.78", "TOTAL 184.53"),
			nil, "",
		},
		// Seed 202: SALES TAX read as one word, a speck read as a rate's
		// digit, a tax's 0 read as 6.
		{
			"SALESTAX as one word", receipt.CountryUS, lines("SUBTOTAL $527.46", "SALESTAX7% $36.92", "GRANDTOTAL $564.38"),
			[]want{{"SALES TAX", "7", "", "36.92"}},
			"false",
		},
		{
			"a rate with a speck read as a digit", receipt.CountryUS, lines("Subtotal $166.22", "SALES TAX 79% $11.64", "TOTAL $177.86"),
			[]want{{"SALES TAX", "7", "", "11.64"}},
			"false",
		},
		{
			"a rate no sum confirms is no tax line", receipt.CountryUS, lines("Subtotal $166.22", "SALES TAX 79% $12.64", "TOTAL $178.86"),
			nil, "false",
		},
		{
			// B read as 8: 87% is no rate; 7% of the row's net is its tax, and they make its gross.
			"a VAT row's class letter read as a digit before its rate", receipt.CountryEU,
			lines("SUMME EUR 34,93", "MWST NETTO STEUER BRUTTO", "A 19% 20,36 3,87 24,23", "87% 10,00 0,70 10,70"),
			[]want{{"MWST", "19", "20.36", "3.87"}, {"MWST", "7", "10", "0.7"}},
			"true",
		},
		{
			// Г read as 1: 19% is a rate, but 9% is the one that makes the row's tax of its net.
			"a VAT row's class letter read as a digit makes another plausible rate", receipt.CountryEU,
			lines("SUMME EUR 102,03", "MWST NETTO STEUER BRUTTO", "19% 93,61 8,42 102,03"),
			[]want{{"MWST", "9", "93.61", "8.42"}},
			"true",
		},
		{
			// The second row's rate unread: the first's tax is not the receipt's.
			"a VAT table with a row left unread gives no breakdown", receipt.CountryEU,
			lines("SUMME EUR 235,07", "MWST NETTO STEUER BRUTTO", "B 20% 128,70 25,74 154,44", "G996 73,97 6,66 80,63"),
			nil, "",
		},
		{
			// 25,5 % read "25,59": of Finland's rates only 25.5 makes 13,69 of 53,70.
			"a VAT row whose % was misread takes the rate its arithmetic makes", receipt.CountryEU,
			lines("Y-tunnus 8204299-1", "MAKSETTAVAA 109,91 EUR", "ALV % VEROTON VERO VEROLLINEN", "25,59 53,70 13,69 67,39", "14% 37,30 5,22 42,52", "KIITOS KAYNNISTA"),
			[]want{{"ALV", "25.5", "53.7", "13.69"}, {"ALV", "14", "37.3", "5.22"}},
			"true",
		},
		{
			// A 0% row (a deposit) and the table's sum row are no rows left unread.
			"a VAT table with a 0% row and its sum row", receipt.CountryEU,
			lines("Y-tunnus 8204299-1", "MAKSETTAVAA 12,95 EUR", "ALV % VEROTON VERO VEROLLINEN", "25,5% 10,00 2,55 12,55", "0% 0,40 0,00 0,40", "YHT 10,40 2,55 12,95", "KIITOS KAYNNISTA"),
			[]want{{"ALV", "25.5", "10", "2.55"}},
			"true",
		},
		{
			"a German VAT table with its deposit at 0% and a sum row", receipt.CountryEU,
			lines("SUMME EUR 24,48", "MWST NETTO STEUER BRUTTO", "A 19% 20,36 3,87 24,23", "C 0% 0,25 0,00 0,25", "Sum 20,61 3,87 24,48"),
			[]want{{"MWST", "19", "20.36", "3.87"}},
			"true",
		},
		{
			"a tax one digit above its share", receipt.CountryEU, lines("TOTAL DUE EUR 12,65", "Includes MWST 19% EUR 2,62"),
			[]want{{"MWST", "19", "", "2.02"}},
			"true",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ExtractFields(tc.lines, receipt.DefaultLocale(tc.country), testNow)
			if len(r.TaxLines) != len(tc.want) {
				t.Fatalf("tax lines %+v, want %d (total tax %+v)", r.TaxLines, len(tc.want), r.TotalTax)
			}
			for i, w := range tc.want {
				tl := r.TaxLines[i]
				net := ""
				if tl.Net.Set {
					net = tl.Net.Value.String()
				}
				if tl.Label.Value != w.label || tl.Rate.Value.String() != w.rate || net != w.net || tl.Tax.Value.String() != w.tax {
					t.Errorf("line %d: %s %s%% net %s tax %s, want %+v", i, tl.Label.Value, tl.Rate.Value, net, tl.Tax.Value, w)
				}
			}
			got := ""
			if r.TaxInclusive.Set {
				got = map[bool]string{true: "true", false: "false"}[r.TaxInclusive.Value]
			}
			if got != tc.inclusive {
				t.Errorf("tax inclusive %q, want %q", got, tc.inclusive)
			}
		})
	}
}

func TestMendSingleTaxLine(t *testing.T) {
	au := receipt.DefaultLocale(receipt.CountryAU)
	for _, tc := range []struct {
		name      string
		lines     []Line
		rate, tax string
	}{
		{"a tax one digit off the share", lines("BALANCE DUE $121.58", "GST included 10% $12.05"), "10", "11.05"},
		{"a rate Australia does not use", lines("TOTAL $33.11", "GST included 16% $3.01"), "10", "3.01"},
		{"less tax than the share: GST-free items", lines("TOTAL $33.11", "GST included 10% $1.50"), "10", "1.5"},
		{"two digits off stays", lines("AMOUNT DUE $211.93", "GST included 10% $3.27"), "10", "3.27"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ExtractFields(tc.lines, au, testNow)
			if len(r.TaxLines) != 1 {
				t.Fatalf("tax lines %+v", r.TaxLines)
			}
			tl := r.TaxLines[0]
			if tl.Rate.Value.String() != tc.rate || tl.Tax.Value.String() != tc.tax || r.TotalTax.Value.String() != tc.tax {
				t.Errorf("rate %s tax %s total tax %s, want %s%% %s", tl.Rate.Value, tl.Tax.Value, r.TotalTax.Value, tc.rate, tc.tax)
			}
		})
	}
}

// A French photo's VAT table, its rows cut in two by the skew and its €
// read as e: each rate's net on its line, its tax on the next or the one
// before, where net × rate makes it; the rows, with the subtotal, make the
// total, so they are the tax, not the net read beside the first rate.
func TestSplitVATRowsOfAPhoto(t *testing.T) {
	text := "CHEZ ALAIN MIAM MIAM\n26 rue Charlot\n75003 Paris\nFrance\nTICKET DE CAISSE\nVendeur A 23/08/2022 12:52:33\n" +
		"1 MIAM MIAM 4,00 A\n4,00e\n1 Limonade\n0,21e 4,00e\nTVA5.5%(A) 3,79e\n0,95e 10,506\nTVA10.0%(B) 9,55e\n" +
		"Total HT 13,34e\nTOTAL TTC 14,50\nPaiement\n14,50e\nCarte Bancaire"
	lines := boxedLines(text)
	for i := range lines {
		lines[i].Cells = nil // a photo's reading, not a text layer
	}
	r := ExtractFields(lines, receipt.DefaultLocale(receipt.CountryEU), testNow)
	got := ""
	for _, tl := range r.TaxLines {
		got += fmt.Sprintf("%s%% %s %s; ", tl.Rate.Value, tl.Net.Value.StringFixed(2), tl.Tax.Value.StringFixed(2))
	}
	if got != "5.5% 3.79 0.21; 10% 9.55 0.95; " || r.TotalTax.Value.StringFixed(2) != "1.16" || r.Subtotal.Value.StringFixed(2) != "13.34" {
		t.Errorf("tax lines %q, tax %s, subtotal %s", got, r.TotalTax.Value, r.Subtotal.Value)
	}
	if f := receipt.Validate(r, receipt.DefaultLocale(receipt.CountryEU), testNow); len(f) > 0 {
		for _, x := range f {
			if x.Severity != receipt.Info {
				t.Errorf("finding: %s", x.Message)
			}
		}
	}
}

// A VAT table's heading set wide keeps its short label: "HT" far off "TVA"
// is the French net's column, not a speck at the line's edge.
func TestAWideHeadingKeepsItsShortLabel(t *testing.T) {
	line := Line{Text: "TVA HT", Conf: 0.98, Box: receipt.Box{X: 22, Y: 621, W: 220, H: 24}, Words: []inference.Word{
		{Text: "TVA", Conf: 0.98, Box: receipt.Box{X: 22, Y: 621, W: 33, H: 17}},
		{Text: "HT", Conf: 0.99, Box: receipt.Box{X: 220, Y: 631, W: 22, H: 14}},
	}}
	if got := trimEdgeSpecks([]Line{line})[0].Text; got != "TVA HT" {
		t.Errorf("trimmed to %q", got)
	}
	line.Words[1].Text, line.Text = "X", "TVA X"
	if got := trimEdgeSpecks([]Line{line})[0].Text; got != "TVA" {
		t.Errorf("a letter far off: %q", got)
	}
}

// TestAVATTableBeforeCashRoundingIsNoMisreadTotal: a Finnish till rounds
// cash to five cents; the VAT table's rows make the sum before it, and
// with the rounding line the total.
func TestAVATTableBeforeCashRoundingIsNoMisreadTotal(t *testing.T) {
	ls := lines("Kuusikon Lähikauppa Oy", "YHTEENSÄ 24,33", "PYÖRISTYS +0,02", "MAKSETTAVA EUR 24,35", "KÄTEINEN 30,00", "TAKAISIN 5,65",
		"ALV % VEROTON VERO VEROLLINEN", "14,0 15,66 2,19 17,85", "25,5 5,16 1,32 6,48", "14.11.2025 klo 18.03 KASSA 2")
	loc := receipt.DefaultLocale(receipt.CountryEU)
	r := ExtractFields(ls, loc, testNow)
	Assess(&r, ls, loc, testNow)
	if r.Total.Value.String() != "24.35" || r.Total.Doubt != "" {
		t.Errorf("total %s (doubt %q), want 24.35 without doubt", r.Total.Value, r.Total.Doubt)
	}
}

// TestAnInvoicesNetAndTaxOverItsGrossAreNoTaxInclusivePrices: an invoice
// prints its net, its tax and its gross, then the VAT breakdown below: the
// prices are net, whatever stands under the gross.
func TestAnInvoicesNetAndTaxOverItsGrossAreNoTaxInclusivePrices(t *testing.T) {
	ls := lines("Mustermann GmbH", "RECHNUNG", "Rechnungsnummer: RE-2020-508", "Rechnungsdatum: 21.11.2020",
		"Pos Menge Einzelpreis Gesamt", "1 2 239,935 479,87", "Nettobetrag 479,87", "MwSt 19% 91,17", "Gesamtbetrag 571,04",
		"MwSt-Satz Netto MwSt", "19% 479,87 91,17")
	r := ExtractFields(ls, receipt.DefaultLocale(receipt.CountryEU), testNow)
	if r.TaxInclusive.Set && r.TaxInclusive.Value {
		t.Errorf("prices include tax (%s); the invoice's net and tax make its gross", r.TaxInclusive.Why)
	}
	if fs := receipt.Validate(r, receipt.DefaultLocale(receipt.CountryEU), testNow); slices.ContainsFunc(fs, func(f receipt.Finding) bool { return f.Code == receipt.FindSumVsTotal }) {
		t.Errorf("findings %+v", fs)
	}
}
