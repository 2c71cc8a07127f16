package bank

import (
	"fmt"
	"strings"
)

// parseQIF reads Quicken Interchange Format bank, cash and card registers
// (!Type:Bank, CCard, Cash, Oth A, Oth L): D date, T/U amount, P payee,
// M memo, N number, ^ end of a record. An "Opening Balance" record (the
// first, whose category is the account itself in brackets) is the opening
// balance, not a line. QIF names no currency and no date order: dates are
// read in the one form every record fits, the options' order breaking a tie.
func parseQIF(txt string, opt Options) (*Statement, error) {
	s := &Statement{Format: "QIF"}
	type rec struct {
		date, amount, payee, memo, num, cat string
	}
	var recs []rec
	var cur rec
	inBank := false
	for n, raw := range strings.Split(strings.ReplaceAll(txt, "\r\n", "\n"), "\n") {
		line := strings.TrimRight(raw, "\r ")
		if line == "" {
			continue
		}
		if line[0] == '!' {
			h := strings.ToLower(strings.TrimSpace(line))
			switch {
			case strings.HasPrefix(h, "!type:bank"), strings.HasPrefix(h, "!type:ccard"), strings.HasPrefix(h, "!type:cash"),
				strings.HasPrefix(h, "!type:oth"):
				inBank = true
			case strings.HasPrefix(h, "!type:"):
				inBank = false // investments, categories, classes, memorised items
			}
			continue
		}
		if !inBank {
			continue
		}
		if len(recs) > MaxLines {
			return nil, fmt.Errorf("the statement has more than %d lines", MaxLines)
		}
		v := strings.TrimSpace(line[1:])
		switch line[0] {
		case 'D':
			cur.date = v
		case 'T', 'U':
			if cur.amount == "" {
				cur.amount = v
			}
		case 'P':
			cur.payee = v
		case 'M':
			cur.memo = v
		case 'N':
			cur.num = v
		case 'L':
			cur.cat = v
		case '^':
			if cur.date != "" || cur.amount != "" {
				recs = append(recs, cur)
			}
			cur = rec{}
		case 'C', 'A', 'S', 'E', '$', '%', 'F', 'X', 'I', 'Q', 'Y', 'O':
			// cleared mark, address, splits, … : not needed
		default:
			return nil, fmt.Errorf("QIF line %d (%q) is not a QIF field", n+1, firstBytes(line, 40))
		}
	}
	if cur.date != "" && cur.amount != "" {
		recs = append(recs, cur)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("this QIF file holds no bank, cash or card register")
	}
	dates := make([]string, len(recs))
	amounts := make([]string, len(recs))
	for i, r := range recs {
		dates[i], amounts[i] = r.date, r.amount
	}
	layout, ambiguous, err := detectDates(dates, opt.DayFirst)
	if err != nil {
		return nil, fmt.Errorf("QIF dates: %w (first: %q)", err, dates[0])
	}
	if ambiguous {
		s.Notes = append(s.Notes, "dates read as "+layout.Shown+": no date in the file tells day from month")
	}
	comma, _ := detectDecimalComma(amounts)
	for i, r := range recs {
		d, _ := layout.parse(r.date)
		a, err := parseNumber(r.amount, comma)
		if err != nil {
			return nil, fmt.Errorf("QIF record %d: amount %w", i+1, err)
		}
		if i == 0 && strings.EqualFold(strings.TrimSpace(r.payee), "Opening Balance") {
			o := a
			s.Opening = &o
			s.From = d
			continue
		}
		s.Lines = append(s.Lines, Line{Date: d, Amount: a, Description: strings.Join(nonEmpty(r.payee, r.memo), " "), Reference: r.num})
	}
	return s, nil
}
