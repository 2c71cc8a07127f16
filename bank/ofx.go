package bank

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// ofxMaxDepth bounds element nesting; real statements nest about eight deep.
const ofxMaxDepth = 64

// parseOFX reads OFX 1.x (SGML) and 2.x (XML) bank and credit card
// statements, QFX included. OFX states the closing (ledger) balance
// only. Investment statements are passed over.
func parseOFX(txt string) (*Statement, error) {
	stmts, refusal, err := readOFX(txt)
	switch {
	case err != nil:
		return nil, fmt.Errorf("this OFX file cannot be read: %w", err)
	case len(stmts) == 0 && refusal != "":
		return nil, fmt.Errorf("this OFX file holds no statement: the bank answered with an error instead (%s)", refusal)
	case len(stmts) == 0:
		return nil, errors.New("this OFX file holds no bank or card statement (investment statements are not read)")
	}
	s := &Statement{Format: "OFX"}
	for _, st := range stmts {
		if s.Currency == "" {
			s.Currency = st.currency
		}
		if s.Account == "" {
			s.Account = st.account
		}
		if !st.from.IsZero() {
			s.From = st.from
		}
		if !st.to.IsZero() {
			s.To = st.to
		}
		s.Lines = append(s.Lines, st.lines...)
		if st.closing != nil {
			s.Closing = st.closing
		}
	}
	return s, nil
}

// ofxStatement is one STMTRS or CCSTMTRS as read.
type ofxStatement struct {
	currency, account string
	from, to          time.Time
	closing           *decimal.Decimal
	txns              []*ofxTxn
	lines             []Line
}

// ofxTxn is one STMTTRN as read.
type ofxTxn struct {
	posted, user    time.Time
	amount          *decimal.Decimal
	fitID           string
	name, payeeName string
	extdName, memo  string
	curSym, origSym string
	origRate        decimal.Decimal
}

// ofxReader turns the token stream into statements without building a
// tree: it keeps the open aggregates and the statement and transaction
// being read.
type ofxReader struct {
	z       ofxTokenizer
	closes  map[string]bool // elements the file closes somewhere
	stack   []string
	stmts   []*ofxStatement
	stmt    *ofxStatement
	txn     *ofxTxn
	txns    int
	status  ofxStatus
	refusal string // the last error status the bank answered with
}

type ofxStatus struct{ code, severity, message string }

// readOFX returns the file's bank and card statements, and the last
// error the bank answered with (a refused sign-on or request).
func readOFX(txt string) ([]*ofxStatement, string, error) {
	body, err := ofxBody(txt)
	if err != nil {
		return nil, "", err
	}
	r := &ofxReader{z: ofxTokenizer{src: body}, closes: ofxClosedNames(body)}
	if err := r.read(); err != nil {
		return nil, "", err
	}
	return r.stmts, r.refusal, nil
}

// ofxClosedNames lists the elements with a closing tag anywhere in the
// file: an empty SGML element among them is an aggregate, any other a
// leaf without a value.
func ofxClosedNames(body string) map[string]bool {
	names := map[string]bool{}
	for rest := body; ; {
		i := strings.Index(rest, "</")
		if i < 0 {
			return names
		}
		rest = rest[i+2:]
		end := strings.IndexByte(firstBytes(rest, 80), '>')
		if end < 0 {
			continue // not a closing tag: the tokenizer says why
		}
		if name := strings.TrimSpace(rest[:end]); ofxName(name) {
			names[strings.ToUpper(name)] = true
		}
	}
}

// ofxLeaves are the leaf elements this reader takes values from: empty,
// they stay leaves even where another element of the name has a closing tag.
var ofxLeaves = map[string]bool{
	"CURDEF": true, "ACCTID": true, "DTSTART": true, "DTEND": true, "TRNTYPE": true, "DTPOSTED": true,
	"DTUSER": true, "TRNAMT": true, "FITID": true, "NAME": true, "EXTDNAME": true, "MEMO": true,
	"CURRATE": true, "CURSYM": true, "BALAMT": true, "DTASOF": true, "CODE": true, "SEVERITY": true, "MESSAGE": true,
}

func (r *ofxReader) read() error {
	tok, err := r.skipSpace()
	if err != nil {
		return err
	}
	if tok.kind != ofxStart || tok.name != "OFX" {
		return errors.New("it does not start with <OFX>")
	}
	r.stack = append(r.stack, "OFX")
	var pending string // a start tag not yet known to be a leaf or an aggregate
	var lastLeaf string
	for len(r.stack) > 0 {
		tok, err := r.z.next()
		if err != nil {
			return err
		}
		switch tok.kind {
		case ofxEOF:
			return fmt.Errorf("it ends inside <%s>: the file is cut off", r.top())
		case ofxText:
			if v := strings.TrimSpace(tok.text); v != "" && pending != "" {
				if err := r.leaf(pending, v); err != nil {
					return err
				}
				pending, lastLeaf = "", pending
			}
		case ofxStart:
			if err := r.settle(pending); err != nil {
				return err
			}
			pending, lastLeaf = tok.name, ""
		case ofxEnd:
			if tok.name == pending { // <MEMO></MEMO>
				if err := r.leaf(pending, ""); err != nil {
					return err
				}
				pending, lastLeaf = "", tok.name
				continue
			}
			if err := r.settle(pending); err != nil {
				return err
			}
			pending = ""
			if err := r.end(tok.name, lastLeaf); err != nil {
				return err
			}
			lastLeaf = ""
		}
	}
	return nil
}

func (r *ofxReader) skipSpace() (ofxToken, error) {
	for {
		tok, err := r.z.next()
		if err != nil || tok.kind != ofxText || strings.TrimSpace(tok.text) != "" {
			return tok, err
		}
	}
}

func (r *ofxReader) top() string { return r.stack[len(r.stack)-1] }

// settle decides what an element followed by a tag is: an aggregate when
// the file closes that name somewhere, else a leaf without a value.
func (r *ofxReader) settle(name string) error {
	if name == "" {
		return nil
	}
	if r.closes[name] && !ofxLeaves[name] {
		return r.open(name)
	}
	return r.leaf(name, "")
}

// end closes the aggregate named, and every element left open inside it.
// A closing tag just after a leaf's value closes that leaf.
func (r *ofxReader) end(name, lastLeaf string) error {
	for i := len(r.stack) - 1; i >= 0; i-- {
		if r.stack[i] != name {
			continue
		}
		for len(r.stack) > i {
			if err := r.close(r.top()); err != nil {
				return err
			}
			r.stack = r.stack[:len(r.stack)-1]
		}
		return nil
	}
	if name == lastLeaf {
		return nil
	}
	return fmt.Errorf("it closes <%s>, which is not open (the file is damaged)", name)
}

func (r *ofxReader) open(name string) error {
	if len(r.stack) >= ofxMaxDepth {
		return fmt.Errorf("its elements nest more than %d deep", ofxMaxDepth)
	}
	parent := r.top()
	r.stack = append(r.stack, name)
	switch {
	case name == "STMTRS" || name == "CCSTMTRS":
		r.stmt, r.txn = &ofxStatement{}, nil
	case name == "STMTTRN" && parent == "BANKTRANLIST" && r.stmt != nil:
		r.txns++
		if r.txns > MaxLines {
			return fmt.Errorf("the statement has more than %d lines", MaxLines)
		}
		r.txn = &ofxTxn{}
	case name == "STATUS":
		r.status = ofxStatus{}
	}
	return nil
}

func (r *ofxReader) close(name string) error {
	switch {
	case name == "STMTTRN" && r.txn != nil:
		r.stmt.txns = append(r.stmt.txns, r.txn)
		r.txn = nil
	case (name == "STMTRS" || name == "CCSTMTRS") && r.stmt != nil:
		for _, t := range r.stmt.txns {
			l, err := t.line(r.stmt.currency)
			if err != nil {
				return err
			}
			r.stmt.lines = append(r.stmt.lines, l)
		}
		r.stmt.txns = nil
		r.stmts = append(r.stmts, r.stmt)
		r.stmt = nil
	case name == "STATUS":
		if st := r.status; st.code != "" && st.code != "0" && strings.EqualFold(st.severity, "ERROR") {
			r.refusal = strings.TrimSpace(fmt.Sprintf("%s (code %s)", st.message, st.code))
		}
	}
	return nil
}

// leaf takes the value of a leaf element from where it stands.
func (r *ofxReader) leaf(name, value string) error {
	if value == "" {
		return nil // an empty element states nothing
	}
	parent := r.top()
	switch {
	case r.txn != nil:
		return r.txn.set(parent, name, value)
	case r.stmt != nil:
		return r.stmt.set(parent, name, value)
	case parent == "STATUS":
		switch name {
		case "CODE":
			r.status.code = value
		case "SEVERITY":
			r.status.severity = value
		case "MESSAGE":
			r.status.message = value
		}
	}
	return nil
}

func (st *ofxStatement) set(parent, name, value string) error {
	var err error
	switch parent + ">" + name {
	case "STMTRS>CURDEF", "CCSTMTRS>CURDEF":
		st.currency, err = ofxCurrency(name, value)
	case "BANKACCTFROM>ACCTID", "CCACCTFROM>ACCTID":
		st.account = value
	case "BANKTRANLIST>DTSTART":
		st.from, err = ofxDate(name, value)
	case "BANKTRANLIST>DTEND":
		st.to, err = ofxDate(name, value)
	case "LEDGERBAL>BALAMT":
		var bal decimal.Decimal
		bal, err = ofxAmount(name, value)
		st.closing = &bal
	case "AVAILBAL>BALAMT":
		_, err = ofxAmount(name, value) // not a statement balance: checked only
	case "LEDGERBAL>DTASOF", "AVAILBAL>DTASOF":
		_, err = ofxDate(name, value)
	}
	return err
}

func (t *ofxTxn) set(parent, name, value string) error {
	var err error
	switch parent + ">" + name {
	case "STMTTRN>DTPOSTED":
		t.posted, err = ofxDate(name, value)
	case "STMTTRN>DTUSER":
		t.user, err = ofxDate(name, value)
	case "STMTTRN>TRNAMT":
		var a decimal.Decimal
		a, err = ofxAmount(name, value)
		t.amount = &a
	case "STMTTRN>FITID":
		t.fitID = value
	case "STMTTRN>NAME":
		t.name = value
	case "PAYEE>NAME":
		t.payeeName = value
	case "STMTTRN>EXTDNAME":
		t.extdName = value
	case "STMTTRN>MEMO":
		t.memo = value
	case "CURRENCY>CURSYM":
		t.curSym, err = ofxCurrency(name, value)
	case "ORIGCURRENCY>CURSYM":
		t.origSym, err = ofxCurrency(name, value)
	case "ORIGCURRENCY>CURRATE":
		t.origRate, err = ofxAmount(name, value)
	case "CURRENCY>CURRATE":
		_, err = ofxAmount(name, value)
	}
	return err
}

// line is the statement line of a transaction in a statement kept in cur.
func (t *ofxTxn) line(cur string) (Line, error) {
	if t.posted.IsZero() {
		return Line{}, fmt.Errorf("a transaction (%q) has no date (DTPOSTED): the file is damaged", t.fitID)
	}
	if t.amount == nil {
		return Line{}, fmt.Errorf("a transaction (%q) has no amount (TRNAMT): the file is damaged", t.fitID)
	}
	l := Line{Date: t.posted, Amount: *t.amount, Currency: cur, Reference: t.fitID}
	if !t.user.IsZero() {
		l.Date = t.user // when the card was used, not when the bank booked it
	}
	name := t.name
	if name == "" {
		name = t.payeeName
	}
	l.Description = strings.TrimSpace(strings.Join(nonEmpty(name, t.extdName, t.memo), " "))
	if t.curSym != "" && t.curSym != cur {
		l.Currency = t.curSym
	}
	if t.origSym != "" && !t.origRate.IsZero() {
		l.OrigCurrency = t.origSym
		l.OrigAmount = l.Amount.Abs().Div(t.origRate).Round(int32(receipt.MinorDigits(l.OrigCurrency)))
	}
	return l, nil
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

func day(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
