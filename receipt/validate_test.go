package receipt

import (
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

var now = time.Date(2025, 9, 1, 12, 0, 0, 0, time.UTC)

func amt(s string) Amount { return Of(decimal.RequireFromString(s), SourceModel, 0.9) }

func line(total string) LineItem { return LineItem{LineTotal: amt(total)} }

// base is an AU tax-inclusive receipt with no findings.
func base() Receipt {
	return Receipt{
		SupplierName:  Of("Officeworks", SourceModel, 0.9),
		SupplierTaxID: Of(TaxID{Scheme: SchemeABN, Value: "51824753556"}, SourceModel, 0.9),
		Date:          Of(Date(2025, 7, 16), SourceModel, 0.9),
		Currency:      Of("AUD", SourceModel, 0.9),
		LineItems:     []LineItem{line("55.00"), line("55.00")},
		Subtotal:      amt("110.00"),
		TotalTax:      amt("10.00"),
		TaxInclusive:  Of(true, SourceModel, 0.9),
		TaxLines:      []TaxLine{{Rate: amt("10"), Net: amt("100.00"), Tax: amt("10.00")}},
		Total:         amt("110.00"),
	}
}

func TestValidate(t *testing.T) {
	au := DefaultLocale(CountryAU)
	uk := DefaultLocale(CountryUK)
	tests := []struct {
		name   string
		loc    Locale
		mutate func(*Receipt)
		codes  []string
		fields []string // fields of the first finding
	}{
		{"clean AU receipt", au, func(r *Receipt) {}, nil, nil},
		{"prepayment leaves the amount due", au, func(r *Receipt) { r.AmountPaid, r.AmountDue = amt("30.00"), amt("80.00") }, nil, nil},
		{
			"amount due not the total less the prepayment", au, func(r *Receipt) { r.AmountPaid, r.AmountDue = amt("30.00"), amt("70.00") },
			[]string{FindAmountDue},
			[]string{"total", "amount_paid", "amount_due"},
		},
		{"cash tendered, the total due before it", au, func(r *Receipt) { r.AmountPaid, r.AmountDue = amt("120.00"), amt("110.00") }, nil, nil},
		{"cash tendered, nothing due after it", au, func(r *Receipt) { r.AmountPaid, r.AmountDue = amt("120.00"), amt("0") }, nil, nil},
		{
			"cash tendered, a due that is neither", au, func(r *Receipt) { r.AmountPaid, r.AmountDue = amt("120.00"), amt("50.00") },
			[]string{FindAmountDue},
			[]string{"total", "amount_paid", "amount_due"},
		},
		{"missing total", au, func(r *Receipt) { r.Total = Amount{}; r.Subtotal = Amount{} }, []string{FindMissingTotal}, []string{"total"}},
		{"missing date", au, func(r *Receipt) { r.Date = Field[time.Time]{} }, []string{FindMissingDate}, []string{"date"}},
		{"lines do not sum to subtotal", au, func(r *Receipt) { r.LineItems[1] = line("45.00") }, []string{FindLinesVsSubtotal}, []string{"line_items", "subtotal"}},
		{"lines within a cent each", au, func(r *Receipt) { r.LineItems[1] = line("55.01") }, nil, nil},
		{"quantity times price", au, func(r *Receipt) {
			r.LineItems[0].Quantity = amt("2")
			r.LineItems[0].UnitPrice = amt("20.00")
		}, []string{FindLinesVsSubtotal}, []string{"line_items[0].quantity", "line_items[0].unit_price", "line_items[0].line_total"}},
		{"exclusive sum off", uk, func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.Currency = Of("GBP", SourceModel, 1)
			r.TaxInclusive = Of(false, SourceModel, 1)
			r.Subtotal, r.TotalTax, r.Total = amt("100.00"), amt("20.00"), amt("119.00")
			r.LineItems = nil
			r.TaxLines = []TaxLine{{Rate: amt("20"), Net: amt("100.00"), Tax: amt("20.00")}}
		}, []string{FindSumVsTotal}, []string{"subtotal", "total", "total_tax"}},
		{"exclusive with tip, discount and rounding", uk, func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.TaxInclusive = Of(false, SourceModel, 1)
			r.Subtotal, r.TotalTax, r.Total = amt("100.00"), amt("20.00"), amt("124.98")
			r.Tip, r.Discount, r.Rounding = amt("10.00"), amt("5.00"), amt("-0.02")
			r.LineItems = nil
			r.TaxLines = []TaxLine{{Rate: amt("20"), Net: amt("100.00"), Tax: amt("20.00")}}
		}, nil, nil},
		{"inclusive sum off", au, func(r *Receipt) { r.Total = amt("120.00") }, []string{FindGSTFraction, FindSumVsTotal}, nil},
		{"inclusive, a subtotal that needs the tax added", au, func(r *Receipt) {
			r.LineItems = nil
			r.Subtotal, r.Total = amt("100.00"), amt("110.00")
			r.Subtotal.Box, r.Total.Box = &Box{Y: 400, H: 20}, &Box{Y: 430, H: 20}
		}, []string{FindSumVsTotal}, []string{"tax_inclusive", "subtotal", "total_tax", "total"}},
		{"inclusive, the net of the tax's breakdown printed under the total", au, func(r *Receipt) {
			r.LineItems = nil
			r.Subtotal, r.Total = amt("100.00"), amt("110.00")
			r.Subtotal.Box, r.Total.Box = &Box{Y: 460, H: 20}, &Box{Y: 430, H: 20}
		}, nil, nil},
		{"UK rate 17.5 is implausible", uk, func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.TaxLines = []TaxLine{{Rate: amt("17.5")}}
		}, []string{FindTaxRate}, []string{"tax_lines[0].rate"}},
		{"UK hospitality's 12.5 (2021-22) is plausible", uk, func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.Currency = Of("GBP", SourceModel, 1)
			r.TaxInclusive = Of(false, SourceModel, 1)
			r.Subtotal, r.TotalTax, r.Total = amt("100.00"), amt("12.50"), amt("112.50")
			r.LineItems = nil
			r.TaxLines = []TaxLine{{Rate: amt("12.5"), Net: amt("100.00"), Tax: amt("12.50")}}
		}, nil, nil},
		{"AU rate 15 is implausible", au, func(r *Receipt) {
			r.TaxLines = []TaxLine{{Rate: amt("15")}}
		}, []string{FindTaxRate}, nil},
		{"undeclared rate from net and tax", au, func(r *Receipt) {
			r.TaxLines = []TaxLine{{Net: amt("100.00"), Tax: amt("6.00")}}
		}, []string{FindTaxRate}, []string{"tax_lines[0].net", "tax_lines[0].tax"}},
		{"MY 6% GST is plausible", DefaultLocale(CountryMY), func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.TaxLines = []TaxLine{{Net: amt("100.00"), Tax: amt("6.00")}}
			r.TaxInclusive = Of(false, SourceModel, 1)
			r.LineItems = nil
			r.Subtotal, r.TotalTax, r.Total = amt("100.00"), amt("6.00"), amt("106.00")
		}, nil, nil},
		{"tax line arithmetic", au, func(r *Receipt) {
			r.TaxLines = []TaxLine{{Rate: amt("10"), Net: amt("100.00"), Tax: amt("11.00")}}
		}, []string{FindTaxLineArithmetic}, []string{"tax_lines[0].net", "tax_lines[0].tax"}},
		{"GST over a eleventh", au, func(r *Receipt) { r.TotalTax = amt("12.00"); r.Subtotal = amt("110.00") }, []string{FindGSTFraction}, []string{"total_tax", "total"}},
		{"GST under a eleventh", au, func(r *Receipt) { r.TotalTax = amt("5.00") }, []string{FindGSTFraction}, nil},
		{"future date", au, func(r *Receipt) { r.Date = Of(Date(2025, 12, 8), SourceModel, 1) }, []string{FindFutureDate}, []string{"date"}},
		{"today is fine", au, func(r *Receipt) { r.Date = Of(Date(2025, 9, 1), SourceModel, 1) }, nil, nil},
		{"eleven years old", au, func(r *Receipt) { r.Date = Of(Date(2014, 8, 1), SourceModel, 1) }, []string{FindOldDate}, nil},
		{"bad ABN", au, func(r *Receipt) { r.SupplierTaxID = Of(TaxID{Scheme: SchemeABN, Value: "51824753557"}, SourceModel, 1) }, []string{FindTaxIDChecksum}, []string{"supplier_tax_id"}},
		{"JPY tolerance is one yen", DefaultLocale(CountryOther), func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.Currency = Of("JPY", SourceModel, 1)
			r.TaxInclusive = Of(false, SourceModel, 1)
			r.TaxLines, r.LineItems = nil, nil
			r.Subtotal, r.TotalTax, r.Total = amt("1000"), amt("100"), amt("1101")
		}, nil, nil},
		{"JPY two yen off", DefaultLocale(CountryOther), func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.Currency = Of("JPY", SourceModel, 1)
			r.TaxInclusive = Of(false, SourceModel, 1)
			r.TaxLines, r.LineItems = nil, nil
			r.Subtotal, r.TotalTax, r.Total = amt("1000"), amt("100"), amt("1102")
		}, []string{FindSumVsTotal}, nil},
		{"unknown currency", au, func(r *Receipt) { r.Currency = Of("ABC", SourceModel, 1) }, []string{FindCurrency}, []string{"currency"}},
		{"prices with their tax make the net subtotal and its tax", DefaultLocale(CountryEU), func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.Currency = Of("EUR", SourceModel, 1)
			r.TaxInclusive = Of(false, SourceModel, 1)
			r.LineItems = []LineItem{line("51.58"), line("149.14")}
			r.Subtotal, r.TotalTax, r.Total = amt("174.95"), amt("25.77"), amt("200.72")
			r.TaxLines = []TaxLine{{Rate: amt("21"), Net: amt("75.18"), Tax: amt("15.79")}, {Rate: amt("10"), Net: amt("99.77"), Tax: amt("9.98")}}
		}, nil, nil},
		{"ticked inclusive, the net subtotal and its tax make the total, the items priced with tax", DefaultLocale(CountryEU), func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.Currency = Of("EUR", SourceModel, 1)
			r.LineItems = []LineItem{line("51.58"), line("149.14")}
			r.Subtotal, r.TotalTax, r.Total = amt("174.95"), amt("25.77"), amt("200.72")
			r.TaxLines = []TaxLine{{Rate: amt("21"), Net: amt("75.18"), Tax: amt("15.79")}, {Rate: amt("10"), Net: amt("99.77"), Tax: amt("9.98")}}
		}, nil, nil},
		{"ticked inclusive, the items priced without tax", DefaultLocale(CountryEU), func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.Currency = Of("EUR", SourceModel, 1)
			r.LineItems = []LineItem{line("75.18"), line("99.77")}
			r.Subtotal, r.TotalTax, r.Total = amt("174.95"), amt("25.77"), amt("200.72")
			r.TaxLines = []TaxLine{{Rate: amt("21"), Net: amt("75.18"), Tax: amt("15.79")}, {Rate: amt("10"), Net: amt("99.77"), Tax: amt("9.98")}}
		}, []string{FindSumVsTotal}, []string{"tax_inclusive", "subtotal", "total_tax", "total"}},
		{"prices with a misread tax", DefaultLocale(CountryEU), func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.Currency = Of("EUR", SourceModel, 1)
			r.TaxInclusive = Of(false, SourceModel, 1)
			r.LineItems = []LineItem{line("51.58"), line("149.14")}
			r.Subtotal, r.TotalTax, r.Total = amt("174.95"), amt("15.79"), amt("190.74")
			r.TaxLines = nil
		}, []string{FindLinesVsSubtotal}, []string{"line_items", "subtotal"}},
		{"lines plus tax make the total when no subtotal", uk, func(r *Receipt) {
			r.SupplierTaxID = Field[TaxID]{}
			r.Subtotal = Amount{}
			r.TaxInclusive = Of(false, SourceModel, 1)
			r.LineItems = []LineItem{line("50.00"), line("50.00")}
			r.TotalTax, r.Total = amt("20.00"), amt("120.00")
			r.TaxLines = nil
		}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := base()
			tt.mutate(&r)
			got := Validate(r, tt.loc, now)
			var codes []string
			for _, f := range got {
				if f.Code == FindForeignCurrency && !slices.Contains(tt.codes, FindForeignCurrency) {
					continue // the fixtures are in AUD whatever the client's country; see TestForeignCurrency
				}
				codes = append(codes, f.Code)
				if f.Message == "" || len(f.Fields) == 0 {
					t.Errorf("finding %s has no message or fields: %+v", f.Code, f)
				}
			}
			slices.Sort(codes)
			want := slices.Clone(tt.codes)
			slices.Sort(want)
			if !slices.Equal(codes, want) {
				t.Fatalf("codes = %v, want %v (%+v)", codes, want, got)
			}
			if tt.fields != nil && !slices.Equal(got[0].Fields, tt.fields) {
				t.Errorf("fields = %v, want %v", got[0].Fields, tt.fields)
			}
		})
	}
}

func TestMissingTotalIsAnError(t *testing.T) {
	r := base()
	r.Total, r.Subtotal = Amount{}, Amount{}
	if !HasError(Validate(r, DefaultLocale(CountryAU), now)) {
		t.Fatal("a receipt without a total must have an error finding")
	}
}

func TestForeignCurrency(t *testing.T) {
	now := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	r := Receipt{Currency: Text{Value: "EUR", Set: true, Source: SourceOCR, Confidence: 0.9}}
	f := Validate(r, DefaultLocale(CountryAU), now)
	if !slices.ContainsFunc(f, func(x Finding) bool { return x.Code == FindForeignCurrency && x.Severity == Info }) {
		t.Errorf("a EUR receipt in an AUD library: %+v", f)
	}
	r.Currency.Value = "AUD"
	if slices.ContainsFunc(Validate(r, DefaultLocale(CountryAU), now), func(x Finding) bool { return x.Code == FindForeignCurrency }) {
		t.Error("an AUD receipt in an AUD library is foreign")
	}
}
