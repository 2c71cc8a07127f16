package bank

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/aclindsa/ofxgo"
	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// parseOFX reads OFX 1.x (SGML) and 2.x (XML) bank and credit card
// statements, QFX included, with ofxgo. OFX states the closing (ledger)
// balance only.
func parseOFX(txt string) (*Statement, error) {
	resp, err := ofxgo.ParseResponse(strings.NewReader(txt))
	if err != nil {
		return nil, fmt.Errorf("this OFX file cannot be read: %w", err)
	}
	s := &Statement{Format: "OFX"}
	var bad error
	add := func(cur string, acct string, list *ofxgo.TransactionList, bal ofxgo.Amount, asOf ofxgo.Date) {
		if cur == "XXX" { // ofxgo's name for a missing CURDEF
			cur = ""
		}
		if s.Currency == "" {
			s.Currency = cur
		}
		if s.Account == "" {
			s.Account = acct
		}
		if list != nil {
			if !list.DtStart.IsZero() {
				s.From = day(list.DtStart.Time)
			}
			if !list.DtEnd.IsZero() {
				s.To = day(list.DtEnd.Time)
			}
			for _, t := range list.Transactions {
				if t.DtPosted.IsZero() {
					bad = fmt.Errorf("an OFX transaction (%q) has no date (DTPOSTED): the file is damaged", string(t.FiTID))
					return
				}
				s.Lines = append(s.Lines, ofxLine(t, cur))
			}
		}
		c := rat(&bal.Rat)
		s.Closing = &c
	}
	for _, m := range resp.Bank {
		if st, ok := m.(*ofxgo.StatementResponse); ok {
			add(st.CurDef.String(), string(st.BankAcctFrom.AcctID), st.BankTranList, st.BalAmt, st.DtAsOf)
		}
	}
	for _, m := range resp.CreditCard {
		if st, ok := m.(*ofxgo.CCStatementResponse); ok {
			add(st.CurDef.String(), string(st.CCAcctFrom.AcctID), st.BankTranList, st.BalAmt, st.DtAsOf)
		}
	}
	if bad != nil {
		return nil, bad
	}
	if len(resp.Bank)+len(resp.CreditCard) == 0 {
		return nil, fmt.Errorf("this OFX file holds no bank or card statement (investment statements are not read)")
	}
	return s, nil
}

func ofxLine(t ofxgo.Transaction, cur string) Line {
	l := Line{Date: day(t.DtPosted.Time), Amount: rat(&t.TrnAmt.Rat), Currency: cur, Reference: string(t.FiTID)}
	if t.DtUser != nil && !t.DtUser.IsZero() {
		l.Date = day(t.DtUser.Time) // when the card was used, not when the bank booked it
	}
	name := string(t.Name)
	if t.Payee != nil && name == "" {
		name = string(t.Payee.Name)
	}
	l.Description = strings.TrimSpace(strings.Join(nonEmpty(name, string(t.ExtdName), string(t.Memo)), " "))
	if t.Currency != nil && t.Currency.CurSym.String() != "" && t.Currency.CurSym.String() != cur {
		l.Currency = t.Currency.CurSym.String()
	}
	if t.OrigCurrency != nil && t.OrigCurrency.CurSym.String() != "" {
		rate := rat(&t.OrigCurrency.CurRate.Rat)
		if !rate.IsZero() {
			l.OrigCurrency = t.OrigCurrency.CurSym.String()
			l.OrigAmount = l.Amount.Abs().Div(rate).Round(int32(receipt.MinorDigits(l.OrigCurrency)))
		}
	}
	return l
}

func nonEmpty(ss ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// rat converts OFX's exact amounts; 16 decimal places keep every amount
// a bank writes exact.
func rat(r *big.Rat) decimal.Decimal {
	return decimal.NewFromBigRat(r, 16)
}

func day(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
