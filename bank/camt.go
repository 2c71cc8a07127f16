package bank

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// camtAmount is an ISO 20022 amount with its currency attribute.
type camtAmount struct {
	Value string `xml:",chardata"`
	Ccy   string `xml:"Ccy,attr"`
}

type camtDate struct {
	Dt   string `xml:"Dt"`
	DtTm string `xml:"DtTm"`
}

func (d camtDate) time() (time.Time, bool) {
	if d.Dt != "" {
		t, err := time.Parse("2006-01-02", strings.TrimSpace(d.Dt))
		return t, err == nil
	}
	if d.DtTm != "" {
		s := strings.TrimSpace(d.DtTm)
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04:05.999999999"} {
			if t, err := time.Parse(layout, s); err == nil {
				return day(t), true
			}
		}
	}
	return time.Time{}, false
}

type camtParty struct {
	Nm    string `xml:"Nm"`
	PtyNm string `xml:"Pty>Nm"` // CAMT.053.001.08 and later nest the name
}

func (p camtParty) name() string {
	if p.Nm != "" {
		return p.Nm
	}
	return p.PtyNm
}

type camtTx struct {
	EndToEndID string     `xml:"Refs>EndToEndId"`
	AcctSvcr   string     `xml:"Refs>AcctSvcrRef"`
	Amt        camtAmount `xml:"Amt"`
	InstdAmt   camtAmount `xml:"AmtDtls>InstdAmt>Amt"`
	Cdtr       camtParty  `xml:"RltdPties>Cdtr"`
	Dbtr       camtParty  `xml:"RltdPties>Dbtr"`
	Ustrd      []string   `xml:"RmtInf>Ustrd"`
	AddtlInf   string     `xml:"AddtlTxInf"`
}

// camtStatus is an entry's status: plain text up to version 8, a code
// element from version 9.
type camtStatus struct {
	Text string `xml:",chardata"`
	Cd   string `xml:"Cd"`
}

type camtEntry struct {
	Amt       camtAmount `xml:"Amt"`
	CdtDbt    string     `xml:"CdtDbtInd"`
	RvslInd   bool       `xml:"RvslInd"`
	Sts       camtStatus `xml:"Sts"`
	BookgDt   camtDate   `xml:"BookgDt"`
	ValDt     camtDate   `xml:"ValDt"`
	AcctSvcr  string     `xml:"AcctSvcrRef"`
	Txs       []camtTx   `xml:"NtryDtls>TxDtls"`
	AddtlInfo string     `xml:"AddtlNtryInf"`
}

type camtBalance struct {
	Code   string     `xml:"Tp>CdOrPrtry>Cd"`
	Amt    camtAmount `xml:"Amt"`
	CdtDbt string     `xml:"CdtDbtInd"`
	Dt     camtDate   `xml:"Dt"`
}

type camtReport struct {
	IBAN    string        `xml:"Acct>Id>IBAN"`
	Other   string        `xml:"Acct>Id>Othr>Id"`
	Ccy     string        `xml:"Acct>Ccy"`
	Bals    []camtBalance `xml:"Bal"`
	Entries []camtEntry   `xml:"Ntry"`
}

type camtDocument struct {
	XMLName xml.Name
	Stmts   []camtReport `xml:"BkToCstmrStmt>Stmt"`
	Rpts    []camtReport `xml:"BkToCstmrAcctRpt>Rpt"`
	Ntfs    []camtReport `xml:"BkToCstmrDbtCdtNtfctn>Ntfctn"`
}

// safeXML refuses what statements never carry and XML attacks need: a
// document type declaration (entity definitions, external references).
// encoding/xml expands no entities itself; this makes the refusal say why.
func safeXML(txt string) error {
	d := xml.NewDecoder(strings.NewReader(txt))
	d.Strict = true
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("this XML file is damaged: %w", err)
		}
		if dir, ok := tok.(xml.Directive); ok {
			if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(string(dir))), "DOCTYPE") {
				return errors.New("this XML file declares a document type (DOCTYPE, entities): bank statements never do, so it is refused")
			}
		}
		if _, ok := tok.(xml.StartElement); ok {
			return nil // declarations come before the root element
		}
	}
}

// parseCAMT reads ISO 20022 bank-to-customer statements (camt.053), account
// reports (camt.052) and debit/credit notifications (camt.054), any
// version: elements are matched by name, not namespace. Booked entries are
// read; pending ones are left out and noted. The opening balance is OPBD
// (or PRCD), the closing CLBD; with one report per account.
func parseCAMT(txt string) (*Statement, error) {
	if err := safeXML(txt); err != nil {
		return nil, err
	}
	var doc camtDocument
	d := xml.NewDecoder(strings.NewReader(txt))
	d.Strict = true
	if err := d.Decode(&doc); err != nil {
		return nil, fmt.Errorf("this XML file is not a statement that can be read: %w", err)
	}
	s := &Statement{}
	var reports []camtReport
	switch {
	case len(doc.Stmts) > 0:
		s.Format, reports = "CAMT.053", doc.Stmts
	case len(doc.Rpts) > 0:
		s.Format, reports = "CAMT.052", doc.Rpts
	case len(doc.Ntfs) > 0:
		s.Format, reports = "CAMT.054", doc.Ntfs
	default:
		return nil, fmt.Errorf("this XML file (<%s>) is not an ISO 20022 bank statement (camt.052, camt.053 or camt.054)", doc.XMLName.Local)
	}
	pending := 0
	for ri, r := range reports {
		acct := r.IBAN
		if acct == "" {
			acct = r.Other
		}
		if s.Account == "" {
			s.Account = acct
		} else if acct != "" && acct != s.Account {
			return nil, fmt.Errorf("this file holds statements of several accounts (%s, %s): import each account's file on its own", s.Account, acct)
		}
		for _, b := range r.Bals {
			v, err := camtValue(b.Amt, b.CdtDbt)
			if err != nil {
				return nil, err
			}
			if s.Currency == "" {
				s.Currency = b.Amt.Ccy
			}
			switch b.Code {
			case "OPBD", "PRCD":
				if ri == 0 && s.Opening == nil {
					s.Opening = &v
				}
			case "CLBD":
				s.Closing = &v
			}
		}
		if s.Currency == "" {
			s.Currency = r.Ccy
		}
		for _, e := range r.Entries {
			status := strings.ToUpper(strings.TrimSpace(e.Sts.Cd + e.Sts.Text))
			if status == "PDNG" || status == "INFO" {
				pending++
				continue
			}
			l, err := camtLine(e)
			if err != nil {
				return nil, err
			}
			s.Lines = append(s.Lines, l)
		}
	}
	if pending > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d pending entries left out (not yet booked)", pending))
	}
	return s, nil
}

func camtValue(a camtAmount, cdtDbt string) (decimal.Decimal, error) {
	v, err := decimal.NewFromString(strings.TrimSpace(a.Value))
	if err != nil {
		return v, fmt.Errorf("amount %q is not a number", a.Value)
	}
	if strings.TrimSpace(cdtDbt) == "DBIT" {
		v = v.Neg()
	}
	return v, nil
}

func camtLine(e camtEntry) (Line, error) {
	v, err := camtValue(e.Amt, e.CdtDbt)
	if err != nil {
		return Line{}, err
	}
	l := Line{Amount: v, Currency: e.Amt.Ccy, Reference: e.AcctSvcr}
	date, ok := e.BookgDt.time()
	if !ok {
		date, ok = e.ValDt.time()
	}
	if !ok {
		return l, fmt.Errorf("an entry of %s %s has no booking date", e.Amt.Value, e.Amt.Ccy)
	}
	l.Date = date
	var parts []string
	for _, tx := range e.Txs {
		party := tx.Cdtr.name()
		if v.IsPositive() {
			party = tx.Dbtr.name()
		}
		parts = append(parts, party)
		parts = append(parts, tx.Ustrd...)
		parts = append(parts, tx.AddtlInf)
		if l.Reference == "" {
			l.Reference = firstNonEmpty(tx.AcctSvcr, tx.EndToEndID)
		}
		if tx.InstdAmt.Ccy != "" && tx.InstdAmt.Ccy != l.Currency && len(e.Txs) == 1 {
			if o, err := decimal.NewFromString(strings.TrimSpace(tx.InstdAmt.Value)); err == nil {
				l.OrigAmount, l.OrigCurrency = o.Abs(), tx.InstdAmt.Ccy
			}
		}
	}
	parts = append(parts, e.AddtlInfo)
	l.Description = strings.Join(nonEmpty(parts...), " ")
	return l, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" && s != "NOTPROVIDED" {
			return s
		}
	}
	return ""
}
