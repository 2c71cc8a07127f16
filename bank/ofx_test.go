package bank

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"
)

const ofxSGMLHeader = "OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:USASCII\r\nCHARSET:1252\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n"

// sgmlBank wraps SGML statement lines in a bank statement (OFX 1.x).
func sgmlBank(cur, trns string) string {
	return ofxSGMLHeader + "<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20250801<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>\r\n" +
		"<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS>" + cur +
		"<BANKACCTFROM><BANKID>062000<ACCTID>987654<ACCTTYPE>CHECKING</BANKACCTFROM>\r\n" +
		"<BANKTRANLIST><DTSTART>20250701<DTEND>20250731\r\n" + trns + "</BANKTRANLIST>\r\n" +
		"<LEDGERBAL><BALAMT>1000,00<DTASOF>20250731</LEDGERBAL><AVAILBAL><BALAMT>900.00<DTASOF>20250731</AVAILBAL>" +
		"</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\r\n"
}

func parseOFXText(t *testing.T, name, txt string) *Statement {
	t.Helper()
	s, err := Parse(name, []byte(txt), Options{Currency: "AUD", DayFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOFXSGMLWithoutClosingTags reads an OFX 1.x statement the way banks
// write it: leaf elements never closed, some closed anyway, empty ones,
// entities, a decimal comma, signs and dates with times and zones.
func TestOFXSGMLWithoutClosingTags(t *testing.T) {
	trns := "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250703120000.000[-5:EST]<TRNAMT>-42,50<FITID>A1<NAME>AT&T &amp; Co &#233;&unknown;<MEMO></STMTTRN>\r\n" +
		"<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20250705<TRNAMT>+1500<FITID>A2</FITID><NAME></NAME><PAYEE><NAME>ACME CLIENT PTY LTD<ADDR1>1 Main St<CITY>Sydney</PAYEE><MEMO>INV 2031</STMTTRN>\r\n" +
		"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250731235959[+10:AEST]<DTUSER>20250730<TRNAMT>-.95<FITID>A3<NAME>FEE<MEMO>FEE</STMTTRN>\r\n"
	s := parseOFXText(t, "sgml.ofx", sgmlBank("<CURDEF>aud", trns))
	if s.Account != "987654" || s.Currency != "AUD" || len(s.Lines) != 3 {
		t.Fatalf("account %q currency %q, %d lines", s.Account, s.Currency, len(s.Lines))
	}
	want := []struct{ date, amount, desc, ref string }{
		{"2025-07-03", "-42.50", "AT&T & Co é&unknown;", "A1"},
		{"2025-07-05", "1500", "ACME CLIENT PTY LTD INV 2031", "A2"},
		{"2025-07-30", "-0.95", "FEE", "A3"},
	}
	for i, w := range want {
		l := s.Lines[i]
		if l.Date.Format(time.DateOnly) != w.date || !l.Amount.Equal(dec(w.amount)) || l.Description != w.desc || l.Reference != w.ref {
			t.Errorf("line %d: %s %s %q %q; want %+v", i+1, l.Date.Format(time.DateOnly), l.Amount, l.Description, l.Reference, w)
		}
	}
	if s.Closing == nil || !s.Closing.Equal(dec("1000")) {
		t.Errorf("closing balance %v, want the ledger balance 1000 (not the available 900)", s.Closing)
	}
	if s.From.Format(time.DateOnly) != "2025-07-01" || s.To.Format(time.DateOnly) != "2025-07-31" {
		t.Errorf("period %s to %s", s.From, s.To)
	}
}

// TestOFXWindows1252Payee reads a payee name written in Windows-1252, as
// the CHARSET:1252 header says.
func TestOFXWindows1252Payee(t *testing.T) {
	txt := sgmlBank("<CURDEF>EUR", "<STMTTRN><TRNTYPE>POS<DTPOSTED>20250710<TRNAMT>-12.30<FITID>B1<NAME>Bäckerei Müller – Köln<MEMO>Café €</STMTTRN>\r\n")
	raw, err := charmap.Windows1252.NewEncoder().String(txt)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(raw, "ä") {
		t.Fatal("the file is still UTF-8")
	}
	s := parseOFXText(t, "1252.ofx", raw)
	if got := s.Lines[0].Description; got != "Bäckerei Müller – Köln Café €" {
		t.Errorf("payee read as %q", got)
	}
	if s.Currency != "EUR" || s.Lines[0].Currency != "EUR" {
		t.Errorf("currency %q / %q", s.Currency, s.Lines[0].Currency)
	}
}

// TestOFXUTF8 reads UTF-8 OFX 1.x as it is, whether its header says
// UTF-8 or (as some banks write by mistake) CHARSET:1252.
func TestOFXUTF8(t *testing.T) {
	txt := sgmlBank("<CURDEF>CHF", "<STMTTRN><TRNTYPE>POS<DTPOSTED>20250710<TRNAMT>-8.50<FITID>U1<NAME>Café Zürich</STMTTRN>\r\n")
	for _, header := range []string{"ENCODING:USASCII\r\nCHARSET:1252", "ENCODING:UTF-8\r\nCHARSET:NONE"} {
		s := parseOFXText(t, "utf8.ofx", strings.Replace(txt, "ENCODING:USASCII\r\nCHARSET:1252", header, 1))
		if got := s.Lines[0].Description; got != "Café Zürich" || len(s.Notes) != 0 {
			t.Errorf("%s: payee read as %q, notes %v", header, got, s.Notes)
		}
	}
}

// TestOFXCardStatementSGML reads a credit card statement in OFX 1.x, with
// a line in a foreign currency stated both ways OFX allows: ORIGCURRENCY
// (the amount is in the statement's currency, converted at CURRATE) and
// CURRENCY (the amount is in that currency).
func TestOFXCardStatementSGML(t *testing.T) {
	txt := ofxSGMLHeader + `<OFX>
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20250901<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
<CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>0<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<CCSTMTRS><CURDEF>USD<CCACCTFROM><ACCTID>4111XXXXXXXX1111</CCACCTFROM>
<BANKTRANLIST><DTSTART>20250801<DTEND>20250831
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250812<DTUSER>20250810<TRNAMT>-108.00<FITID>C1<NAME>HOTEL PARIS<ORIGCURRENCY><CURRATE>1.08<CURSYM>EUR</ORIGCURRENCY></STMTTRN>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250815<TRNAMT>-5000<FITID>C2<NAME>TOKYO TAXI<CURRENCY><CURRATE>0.0068<CURSYM>JPY</CURRENCY></STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20250825<TRNAMT>200.00<FITID>C3<NAME>PAYMENT THANK YOU</STMTTRN>
</BANKTRANLIST>
<LEDGERBAL><BALAMT>-413.45<DTASOF>20250831</LEDGERBAL>
</CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>
`
	s := parseOFXText(t, "card.qfx", txt)
	if s.Format != "OFX" || s.Account != "4111XXXXXXXX1111" || s.Currency != "USD" || len(s.Lines) != 3 {
		t.Fatalf("%s account %q currency %q, %d lines", s.Format, s.Account, s.Currency, len(s.Lines))
	}
	hotel, taxi := s.Lines[0], s.Lines[1]
	if hotel.Date.Format(time.DateOnly) != "2025-08-10" || hotel.Currency != "USD" || hotel.OrigCurrency != "EUR" || !hotel.OrigAmount.Equal(dec("100")) {
		t.Errorf("hotel: %+v", hotel)
	}
	if taxi.Currency != "JPY" || !taxi.Amount.Equal(dec("-5000")) || taxi.OrigCurrency != "" {
		t.Errorf("taxi: %+v", taxi)
	}
	if s.Closing == nil || !s.Closing.Equal(dec("-413.45")) {
		t.Errorf("closing %v", s.Closing)
	}
}

// TestOFXDamagedAndHostileRefused: each file is refused with a reason a
// bookkeeper can act on, and none makes the reader panic, hang or grow.
func TestOFXDamagedAndHostileRefused(t *testing.T) {
	trn := "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250703<TRNAMT>-1.00<FITID>X<NAME>SHOP</STMTTRN>"
	cases := []struct{ name, text, want string }{
		{"cut off", sgmlBank("<CURDEF>AUD", trn)[:500], "the file is cut off"},
		{"no date", sgmlBank("<CURDEF>AUD", "<STMTTRN><TRNAMT>-1<FITID>X1</STMTTRN>"), `("X1") has no date (DTPOSTED)`},
		{"no amount", sgmlBank("<CURDEF>AUD", "<STMTTRN><DTPOSTED>20250703<FITID>X2</STMTTRN>"), `("X2") has no amount`},
		{"bad date", sgmlBank("<CURDEF>AUD", strings.Replace(trn, "20250703", "20251345", 1)), "there is no such day"},
		{"bad zone", sgmlBank("<CURDEF>AUD", strings.Replace(trn, "20250703", "20250703[EST]", 1)), "time zone"},
		{"bad amount", sgmlBank("<CURDEF>AUD", strings.Replace(trn, "-1.00", "1,234.56", 1)), "is not an amount"},
		{"bad currency", sgmlBank("<CURDEF>Dollars", trn), "not a three-letter currency code"},
		{"stray close", strings.Replace(sgmlBank("<CURDEF>AUD", trn), "</BANKTRANLIST>", "</BANKTRANLIST></STMTTRN>", 1), "closes <STMTTRN>, which is not open"},
		{"not a tag", sgmlBank("<CURDEF>AUD", strings.Replace(trn, "SHOP", "SHOP <3 ME", 1)), "is not a tag"},
		{"doctype", `<?xml version="1.0"?><!DOCTYPE OFX [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><?OFX OFXHEADER="200"?><OFX>&b;</OFX>`, "document type"},
		{"entity in SGML", ofxSGMLHeader + `<!ENTITY x SYSTEM "file:///etc/passwd"><OFX>&x;</OFX>`, "document type"},
		{"not OFX inside", ofxSGMLHeader + "<HTML><BODY>Sign in again</BODY></HTML>", "does not start with <OFX>"},
		{"header only", ofxSGMLHeader, "nothing after it"},
		{"garbled header", "OFXHEADER:100\nthis is not a header\n<OFX></OFX>", "not of the form NAME:VALUE"},
		{"unending comment", ofxSGMLHeader + "<OFX><!-- ", "never ends"},
		{"deep", ofxSGMLHeader + "<OFX>" + strings.Repeat("<A><B>", 50_000) + strings.Repeat("</B></A>", 50_000) + "</OFX>", "nest more than 64 deep"},
		{"investments only", ofxSGMLHeader + "<OFX><INVSTMTMSGSRSV1><INVSTMTTRNRS><INVSTMTRS><INVTRANLIST><INVBANKTRAN>" + trn + "</INVBANKTRAN></INVTRANLIST></INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1></OFX>", "investment statements are not read"},
		{"bank refused", ofxSGMLHeader + "<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>15500<SEVERITY>ERROR<MESSAGE>Wrong password</STATUS></SONRS></SIGNONMSGSRSV1></OFX>", "error instead (Wrong password (code 15500))"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse("bad.ofx", []byte(c.text), Options{Currency: "AUD"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want an error saying %q, got %v (%+v)", c.want, err, s)
			}
			if !strings.Contains(err.Error(), "OFX file") {
				t.Errorf("the error does not say it is about the OFX file: %v", err)
			}
			t.Log(err)
		})
	}
}

// TestOFXHugeFilesRefused: a statement over the line limit is refused
// while it is read, and a flood of comments or empty elements is read in
// one pass (no recursion, no copying of the rest of the file).
func TestOFXHugeFilesRefused(t *testing.T) {
	var b strings.Builder
	for i := 0; i <= MaxLines; i++ {
		fmt.Fprintf(&b, "<STMTTRN><DTPOSTED>20250703<TRNAMT>-1<FITID>%d</STMTTRN>\n", i)
	}
	_, err := Parse("huge.ofx", []byte(sgmlBank("<CURDEF>AUD", b.String())), Options{})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d lines", MaxLines)) {
		t.Fatalf("a statement of %d lines: %v", MaxLines+1, err)
	}
	flood := sgmlBank("<CURDEF>AUD", strings.Repeat("<!---->", 2_000_000)+strings.Repeat("<X/>", 2_000_000)+
		"<STMTTRN><DTPOSTED>20250703<TRNAMT>-1<FITID>F<NAME>SHOP</STMTTRN>")
	s, err := Parse("flood.ofx", []byte(flood), Options{})
	if err != nil || len(s.Lines) != 1 {
		t.Fatalf("comments and empty elements around one line: %v", err)
	}
	// Patterns that would make a careless reader go back over the rest of
	// the file at every step: ampersands without semicolons, and closing
	// tags that never end.
	for name, trn := range map[string]string{
		"ampersands":        "<STMTTRN><DTPOSTED>20250703<TRNAMT>-1<FITID>F<NAME>" + strings.Repeat("&", 8<<20) + "</STMTTRN>",
		"open closing tags": strings.Repeat("</", 4<<20) + ">",
	} {
		_, err := Parse(name+".ofx", []byte(sgmlBank("<CURDEF>AUD", trn)), Options{})
		t.Logf("%s: %v", name, err)
	}
	big := []byte(ofxSGMLHeader + "<OFX>" + strings.Repeat(" ", MaxFileBytes) + "</OFX>")
	if _, err := Parse("big.ofx", big, Options{}); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("a file over %d MB: %v", MaxFileBytes>>20, err)
	}
}

func TestOFXDateForms(t *testing.T) {
	for in, want := range map[string]string{
		"20250703":                   "2025-07-03",
		"2025070312":                 "2025-07-03",
		"202507031230":               "2025-07-03",
		"20250703123045":             "2025-07-03",
		"20250703123045.123":         "2025-07-03",
		"20250703235959.000[-5:EST]": "2025-07-03", // the day the bank wrote, not UTC's
		"20250703000000[+10:AEST]":   "2025-07-03",
		"20250703[5.30:IST]":         "2025-07-03",
		" 20250703[0] ":              "2025-07-03",
	} {
		got, err := ofxDate("DTPOSTED", in)
		if err != nil || got.Format(time.DateOnly) != want {
			t.Errorf("%q: %s %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "2025-07-03", "2025073", "20250230", "20250703250000", "20250703.5", "18000101", "20250703[EST]", "03/07/2025"} {
		if _, err := ofxDate("DTPOSTED", in); err == nil {
			t.Errorf("%q read as a date", in)
		}
	}
}

func TestOFXAmountForms(t *testing.T) {
	for in, want := range map[string]string{
		"-42.50": "-42.5", "+1500": "1500", "1500,25": "1500.25", "-,95": "-0.95", "7.": "7",
		" 0.1234567 ": "0.1234567", "-0": "0",
	} {
		got, err := ofxAmount("TRNAMT", in)
		if err != nil || !got.Equal(dec(want)) {
			t.Errorf("%q: %s %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-", ".", "1,234.56", "1.234,56", "12 34", "1e5", "1/3", "--1", "0x10", "$5"} {
		if _, err := ofxAmount("TRNAMT", in); err == nil {
			t.Errorf("%q read as an amount", in)
		}
	}
}

// BenchmarkParseOFX reads a year of a busy account: 10,000 lines of OFX 1.x.
func BenchmarkParseOFX(b *testing.B) {
	var trns strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&trns, "<STMTTRN>\r\n<TRNTYPE>DEBIT\r\n<DTPOSTED>20250703120000.000[-5:EST]\r\n<TRNAMT>-%d.%02d\r\n<FITID>%d\r\n<NAME>OFFICEWORKS %d\r\n<MEMO>Card xx1234\r\n</STMTTRN>\r\n", i%500, i%100, i, i)
	}
	data := []byte(sgmlBank("<CURDEF>AUD", trns.String()))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("year.ofx", data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
