package fields

// Tests of receipts photographed askew or curled, and of their sums: rows
// the reading split, values on tall skewed lines, sums that a split
// payment, a misread total or a tax on the wrong label hide.

import (
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

// TestJoinSplitRows: a label and its amount that a curled photo set a
// little apart are one row again; the next row's amount, an amount to the
// left, or a line that has its own amount are not joined.
func TestJoinSplitRows(t *testing.T) {
	w := func(line int, text string, x, y, width, h int) inference.Word {
		return inference.Word{Text: text, Line: line, Conf: 0.99, Box: receipt.Box{X: x, Y: y, W: width, H: h}}
	}
	for _, tc := range []struct {
		name  string
		words []inference.Word
		want  []string
	}{
		{"the amount a little above its label", []inference.Word{
			w(0, "Total", 386, 827, 63, 16), w(0, "45.43", 761, 817, 70, 20),
			w(1, "-0.03", 763, 848, 63, 18),
			w(2, "Rounding", 383, 858, 109, 18),
			w(3, "50.00", 765, 936, 66, 20),
			w(4, "Cash", 392, 948, 50, 18),
			w(5, "4.60", 784, 967, 48, 19),
			w(6, "Change", 388, 979, 86, 20),
		}, []string{"Total 45.43", "Rounding -0.03", "Cash 50.00", "Change 4.60"}},
		{"the next row's amount", []inference.Word{
			w(0, "TOTAL:", 100, 500, 80, 20),
			w(1, "12.00", 400, 530, 60, 20),
		}, []string{"TOTAL:", "12.00"}},
		{"an amount to the left of the words", []inference.Word{
			w(0, "12.00", 100, 500, 60, 20),
			w(1, "Thank you", 300, 510, 120, 20),
		}, []string{"12.00", "Thank you"}},
		{"a line with an amount of its own", []inference.Word{
			w(0, "Subtotal", 100, 500, 90, 20), w(0, "9.00", 200, 500, 50, 20),
			w(1, "3.00", 400, 510, 50, 20),
		}, []string{"Subtotal 9.00", "3.00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := GroupLines(tc.words)
			var got []string
			for _, l := range lines {
				got = append(got, l.Text)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("lines %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("lines %q, want %q", got, tc.want)
					break
				}
			}
		})
	}
}

// TestLineAtTakesTheValuesOwnLine: on a photo taken askew a line's box
// reaches into the next; the value's own line is the one its box is.
func TestLineAtTakesTheValuesOwnLine(t *testing.T) {
	lines := []Line{
		{Text: "COBB CO TAX 2.000% 0.95", Box: receipt.Box{X: 360, Y: 944, W: 812, H: 82}},
		{Text: "TOTAL $50.30", Box: receipt.Box{X: 359, Y: 984, W: 800, H: 86}},
	}
	total := lines[1].Box
	if got := lineAt(lines, &total); got != 1 {
		t.Errorf("lineAt = %d, want 1 (the total's own line)", got)
	}
	near := receipt.Box{X: 370, Y: 990, W: 700, H: 80} // the line read again alone
	if got := lineAt(lines, &near); got != 1 {
		t.Errorf("lineAt = %d, want 1 (the line sharing most of its height)", got)
	}
}

// TestSumsReplaceATaxReadAsTheSubtotal: a skewed photo's reading put the
// tax's amount on the subtotal's label and the total on its own; the
// closing sums' arithmetic gives the subtotal and the tax back.
func TestSumsReplaceATaxReadAsTheSubtotal(t *testing.T) {
	w := func(line int, text string, x, y, width int) inference.Word {
		return inference.Word{Text: text, Line: line, Conf: 0.99, Box: receipt.Box{X: x, Y: y, W: width, H: 10}}
	}
	lines := GroupLines([]inference.Word{
		w(0, "VILLA", 20, 10, 40), w(0, "RESTAURANT", 70, 10, 80),
		w(1, "1", 20, 186, 5), w(1, "Veal", 30, 186, 30), w(1, "25.95", 210, 186, 33),
		w(2, "87.25", 210, 217, 33),
		w(3, "SUB", 21, 226, 19), w(3, "TOTAL:", 42, 225, 34), w(3, "7.53", 216, 230, 29),
		w(4, "Tax", 20, 240, 18), w(4, "1:", 40, 240, 10),
		w(5, "$94.78", 206, 260, 38),
		w(6, "TOTAL:", 19, 266, 31),
	})
	r := ExtractFields(lines, receipt.DefaultLocale(receipt.CountryUS), testNow)
	if r.Total.Value.String() != "94.78" || r.Subtotal.Value.String() != "87.25" || r.TotalTax.Value.String() != "7.53" {
		t.Errorf("total %s, subtotal %s, tax %s; want 94.78, 87.25, 7.53", r.Total.Value, r.Subtotal.Value, r.TotalTax.Value)
	}
}

// TestASalePaidInTwoIsNotOnePayment: a grocery paid by food stamps and a
// debit card prints its amount due as "BALANCE" and its change apart; the
// closing sums, not the card's part less the change, are the total.
func TestASalePaidInTwoIsNotOnePayment(t *testing.T) {
	r := ExtractFields(lines("PIONEER VALLEY MARKET", "03/04/25 4:12 PM", "DOG FOOD 15 LB 21.99 T",
		"SUBTOTAL 73.92", "TAX 6.25% ON $47.26 2.95", "**** BALANCE 76.87", "EBT SNAP 26.66", "DEBIT ***5520 50.21",
		"CHANGE 0.00", "EBT FOOD BALANCE $184.37"), receipt.DefaultLocale(receipt.CountryUS), testNow)
	if r.Total.Value.String() != "76.87" {
		t.Errorf("total %s (%s), want 76.87", r.Total.Value, r.Total.Why)
	}
}

// TestATotalOneDigitOffTheSumsPrintedAgain: the subtotal less a discount
// makes an amount printed again below, one digit off the total's reading:
// the reading gives way; where the tax and rounding make the total read,
// it stands.
func TestATotalOneDigitOffTheSumsPrintedAgain(t *testing.T) {
	nz := receipt.DefaultLocale(receipt.CountryNZ)
	r := ExtractFields(lines("KAIMAI HARDWARE", "Date: 14/06/2025", "Subtotal 335.64", "TradeClub Member Disc 10% -33.56",
		"TOTAL (incl GST) 802.08", "GST Content 15% 39.40", "PURCHASE NZ$302.08"), nz, testNow)
	if r.Total.Value.String() != "302.08" {
		t.Errorf("total %s (%s), want 302.08", r.Total.Value, r.Total.Why)
	}
	my := receipt.DefaultLocale(receipt.CountryMY)
	r = ExtractFields(lines("TEO HENG STATIONERY", "Date: 18/01/2018", "SUB-TOTAL (EX) 4.60", "TOTAL TAX 0.28", "ROUNDING 0.02",
		"TOTAL 4.90", "CASH 4.90", "SR 6.00 4.60 0.28"), my, testNow)
	if r.Total.Value.String() != "4.9" {
		t.Errorf("total %s (%s), want 4.90", r.Total.Value, r.Total.Why)
	}
}
