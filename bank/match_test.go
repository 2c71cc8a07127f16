package bank

import (
	"strings"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/library"
)

func day0(s string) time.Time { t, _ := time.Parse("2006-01-02", s); return t }

func ln(id int64, date, amt, desc string) library.StatementLine {
	return library.StatementLine{ID: id, Date: day0(date), Amount: dec(amt), Currency: "AUD", Description: desc}
}

func rc(id int64, supplier, date, total, cur, doc string) library.MatchReceipt {
	return library.MatchReceipt{ID: id, Supplier: supplier, SupplierKey: strings.ToLower(supplier), Date: day0(date), Total: dec(total), Currency: cur, DocType: doc}
}

// TestMatchCases: the cases the dev statement has few of, one by one.
func TestMatchCases(t *testing.T) {
	type want struct {
		line      int64
		receipt   int64
		state     string
		kind      string
		reasonHas string
	}
	cases := []struct {
		name     string
		lines    []library.StatementLine
		receipts []library.MatchReceipt
		want     []want
	}{
		{
			"an invoice paid by transfer weeks later",
			[]library.StatementLine{ln(1, "2025-08-20", "-1250.00", "ACME PLUMBING PTY LTD INV 2231")},
			[]library.MatchReceipt{rc(10, "Acme Plumbing Pty Ltd", "2025-07-25", "1250.00", "AUD", "invoice")},
			[]want{{1, 10, library.MatchAutomatic, library.KindPayment, "paid 26 days after"}},
		},
		{
			"a shop's tax invoice keeps the card window",
			[]library.StatementLine{ln(1, "2025-08-20", "-55.00", "BUNNINGS 4321")},
			[]library.MatchReceipt{rc(10, "Bunnings", "2025-07-25", "55.00", "AUD", "tax_invoice")},
			[]want{{1, 0, "", "", ""}},
		},
		{
			"a credit note's money back",
			[]library.StatementLine{ln(1, "2025-08-03", "30.00", "OFFICEWORKS REFUND")},
			[]library.MatchReceipt{rc(10, "Officeworks", "2025-08-02", "30.00", "AUD", "credit_note")},
			[]want{{1, 10, library.MatchAutomatic, library.KindPayment, "credit note"}},
		},
		{
			"a card payment abroad with the foreign amount stated",
			[]library.StatementLine{{
				ID: 1, Date: day0("2025-08-05"), Amount: dec("-172.80"), Currency: "AUD", Description: "HOTEL ADLON BERLIN",
				OrigAmount: dec("100.00"), OrigCurrency: "EUR",
			}},
			[]library.MatchReceipt{rc(10, "Hotel Adlon", "2025-08-03", "100.00", "EUR", "")},
			[]want{{1, 10, library.MatchAutomatic, library.KindPayment, "paid EUR 100.00, charged AUD 172.80 (1.7280 AUD per EUR)"}},
		},
		{
			"one receipt paid in two parts",
			[]library.StatementLine{ln(1, "2025-08-05", "-60.00", "HARVEY NORMAN AUBURN"), ln(2, "2025-08-05", "-39.99", "HARVEY NORMAN AUBURN")},
			[]library.MatchReceipt{rc(10, "Harvey Norman", "2025-08-05", "99.99", "AUD", "")},
			[]want{{1, 10, library.MatchProposed, library.KindSplit, "add up"}, {2, 10, library.MatchProposed, library.KindSplit, "add up"}},
		},
		{
			"money back for a purchase",
			[]library.StatementLine{ln(1, "2025-08-05", "-89.00", "MYER SYDNEY"), ln(2, "2025-08-12", "89.00", "MYER SYDNEY REFUND")},
			[]library.MatchReceipt{rc(10, "Myer", "2025-08-04", "89.00", "AUD", "")},
			[]want{{1, 10, library.MatchAutomatic, library.KindPayment, ""}, {2, 10, library.MatchProposed, library.KindRefund, "money back"}},
		},
		{
			"the same amount at another shop is never matched sure",
			[]library.StatementLine{ln(1, "2025-08-05", "-12.50", "CALTEX WOOLLOOMOOLOO")},
			[]library.MatchReceipt{rc(10, "Harris Farm Markets", "2025-08-05", "12.50", "AUD", "")},
			[]want{{1, 10, library.MatchProposed, library.KindPayment, "does not name"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			changes, _ := Match(c.lines, c.receipts, nil, nil, nil, DefaultRules)
			got := map[int64]library.LineMatch{}
			for _, ch := range changes {
				got[ch.LineID] = ch
			}
			for _, w := range c.want {
				g := got[w.line]
				if g.ReceiptID != w.receipt || g.State != w.state || g.Kind != w.kind || !strings.Contains(g.Reason, w.reasonHas) {
					t.Errorf("line %d: got receipt %d %q %q (%s); want %d %q %q with %q", w.line, g.ReceiptID, g.State, g.Kind, g.Reason,
						w.receipt, w.state, w.kind, w.reasonHas)
				}
			}
		})
	}
}
