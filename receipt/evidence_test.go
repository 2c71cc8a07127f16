package receipt

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func TestTrusted(t *testing.T) {
	reading := Support{Kind: EvidenceReading, Why: "the amount on the TOTAL line"}
	sums := Support{Kind: EvidenceArithmetic, Why: "subtotal 20.00 + tax 1.20 = 21.20"}
	amount := func(src Source, doubt string, s ...Support) Amount {
		return Amount{Value: decimal.RequireFromString("21.20"), Set: true, Source: src, Confidence: 0.9, Support: s, Doubt: doubt}
	}
	for _, tc := range []struct {
		name string
		f    Amount
		ok   bool
		why  string
	}{
		{"two kinds agree", amount(SourceOCR, "", reading, sums), true, ""},
		{"one reading alone, however sure", amount(SourceOCR, "", reading), false, "read once"},
		{"one kind twice is one", amount(SourceOCR, "", reading, reading), false, "read once"},
		{"a doubt beats any support", amount(SourceOCR, "items add to 25.40", reading, sums), false, "total not confirmed: items add to 25.40"},
		{"an exact source", amount("e-invoice", "", Support{Kind: EvidenceExact, Why: "the invoice's XML"}), true, ""},
		{"a person's value", amount(SourceUser, ""), true, ""},
		{"not read", Amount{}, false, "no total read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, why := Trusted(tc.f, "total")
			if ok != tc.ok || !strings.Contains(why, tc.why) {
				t.Errorf("Trusted = %v %q, want %v %q", ok, why, tc.ok, tc.why)
			}
		})
	}
}

func TestUnready(t *testing.T) {
	two := []Support{{Kind: EvidenceReading}, {Kind: EvidencePrintedTwice}}
	r := Receipt{
		SupplierName: Text{Value: "KEDAI SDN BHD", Set: true, Source: SourceOCR, Confidence: 0.9, Support: two[1:]},
		Total:        Amount{Value: decimal.RequireFromString("8.70"), Set: true, Source: SourceOCR, Support: two},
		Date:         Field[time.Time]{Value: Date(2018, 1, 6), Set: true, Source: SourceOCR, Support: two},
		Currency:     Text{Value: "MYR", Set: true, Source: SourceOCR, Confidence: 0.9},
	}
	if why := Unready(r, nil); len(why) > 0 {
		t.Fatalf("a receipt with trusted total and date, sure supplier: %v", why)
	}
	once := r
	once.SupplierName.Support = []Support{{Kind: EvidenceReading, Why: "a registered name, with its legal form"}}
	if why := Unready(once, nil); len(why) != 1 || !strings.HasPrefix(why[0], "supplier not confirmed") {
		t.Errorf("a supplier read once from a heading: %v", why)
	}
	sure := once
	sure.SupplierName.Confidence = 0.95
	if why := Unready(sure, nil); len(why) != 0 {
		t.Errorf("a registered name read surely: %v", why)
	}
	sure.SupplierName.Doubt = "read again alone it reads KEDAL"
	if why := Unready(sure, nil); len(why) != 1 {
		t.Errorf("a doubted name: %v", why)
	}
	assumed := r
	assumed.Currency.Confidence = 0.4
	if why := Unready(assumed, nil); len(why) != 1 || !strings.HasPrefix(why[0], "currency not printed") {
		t.Errorf("a currency only assumed from the client: %v", why)
	}
	onlyOnce := r
	onlyOnce.Date.Support = two[:1]
	if why := Unready(onlyOnce, nil); len(why) != 1 || !strings.Contains(why[0], "date not confirmed") {
		t.Errorf("a date read once: %v", why)
	}
	warned := r
	if why := Unready(warned, []Finding{{Severity: Warning, Message: "date is in the future"}, {Severity: Info, Message: "fyi"}}); len(why) != 1 || why[0] != "date is in the future" {
		t.Errorf("a warning: %v", why)
	}
	// An old date holds the receipt back only while a misread year is
	// possible: read once it does, agreed on by two kinds it does not.
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	old := r
	old.Date.Value = Date(2015, 6, 2)
	if why := Unready(old, Validate(old, DefaultLocale("MY"), now)); len(why) != 0 {
		t.Errorf("an old date two kinds of evidence agree on: %v", why)
	}
	old.Date.Support = two[:1]
	if why := Unready(old, Validate(old, DefaultLocale("MY"), now)); len(why) != 2 || !strings.Contains(why[1], "more than 10 years old") {
		t.Errorf("an old date read once: %v", why)
	}
	unsure := r
	unsure.SupplierName.Confidence = 0.3
	if why := Unready(unsure, nil); len(why) != 1 || !strings.Contains(why[0], "supplier unsure") {
		t.Errorf("an unsure supplier: %v", why)
	}
}
