package bank

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// The kill test runs this binary again as a child that imports a large
// statement, and kills it mid-import.
func TestMain(m *testing.M) {
	if dir := os.Getenv("SHOEBOX_BANK_KILL_CHILD"); dir != "" {
		lib, err := library.Open(filepath.Join(dir, "library"))
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("importing")
		if _, err := Import(ctx, lib, filepath.Join(dir, "big.csv"), ImportOptions{Account: "Cheque"}); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("done")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func openLib(t testing.TB) *library.Library {
	t.Helper()
	l, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func write(t testing.TB, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// bigStatement writes n lines of a cheque account in CommBank's layout
// (no header, running balance), from a fixed seed.
func bigStatement(n int, seed int64) string {
	rnd := rand.New(rand.NewSource(seed))
	var b strings.Builder
	bal := decimal.NewFromInt(1_000_000)
	day := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		if rnd.Intn(100) < 12 {
			day = day.AddDate(0, 0, 1)
		}
		amt := decimal.New(int64(100+rnd.Intn(40000)), -2).Neg()
		if rnd.Intn(10) == 0 {
			amt = amt.Neg()
		}
		bal = bal.Add(amt)
		fmt.Fprintf(&b, "%s,\"%s\",\"%s\",\"%s\"\n", day.Format("02/01/2006"), amt.StringFixed(2),
			fmt.Sprintf("POS PURCHASE SHOP %d STORE %04d", rnd.Intn(5000), rnd.Intn(10000)), bal.StringFixed(2))
	}
	return b.String()
}

func TestSameFileAndOverlappingStatementsKeepEachLineOnce(t *testing.T) {
	lib := openLib(t)
	dir := t.TempDir()
	rows := []string{
		"Date,Description,Amount,Balance",
		"01/07/2025,COFFEE CLUB,-4.50,995.50",
		"01/07/2025,COFFEE CLUB,-4.50,991.00", // two coffees, one day: two lines
		"03/07/2025,OFFICEWORKS,-42.50,948.50",
		"05/07/2025,ACME CLIENT,1500.00,2448.50",
		"09/07/2025,TELSTRA,-89.95,2358.55",
		"12/07/2025,BUNNINGS,-64.90,2293.65",
		"20/07/2025,COFFEE CLUB,-4.50,2289.15",
	}
	a := write(t, dir, "june-july.csv", strings.Join(rows[:6], "\n")+"\n")
	b := write(t, dir, "july.csv", strings.Join(append([]string{rows[0]}, rows[1:]...), "\n")+"\n")
	r1, err := Import(ctx, lib, a, ImportOptions{Account: "Cheque"})
	if err != nil {
		t.Fatal(err)
	}
	if r1.Added != 5 || r1.AlreadyHad != 0 {
		t.Fatalf("first statement: %+v", r1.StatementImport)
	}
	again, err := Import(ctx, lib, a, ImportOptions{Account: "Cheque"})
	if err != nil || !again.SameFile || again.Added != 0 {
		t.Fatalf("same file again: %+v %v", again.StatementImport, err)
	}
	r2, err := Import(ctx, lib, b, ImportOptions{Account: "Cheque"})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Added != 2 || r2.AlreadyHad != 5 {
		t.Fatalf("overlapping statement: added %d, already had %d; want 2 and 5", r2.Added, r2.AlreadyHad)
	}
	lines, _ := lib.StatementLines(library.LineFilter{Account: "Cheque"})
	if len(lines) != 7 {
		t.Fatalf("%d lines stored, want 7", len(lines))
	}
	sts, _ := lib.Statements("Cheque")
	if len(sts) != 2 {
		t.Fatalf("%d statements, want 2", len(sts))
	}
	for _, s := range sts {
		got, err := os.ReadFile(lib.StatementFile(s))
		want, _ := os.ReadFile(filepath.Join(dir, s.OriginalName))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s not kept untouched: %v", s.OriginalName, err)
		}
	}
	acct, ok, _ := lib.BankAccount("Cheque")
	if !ok || !strings.Contains(acct.CSVMapping, `"date_form":"DD/MM/YYYY"`) {
		t.Errorf("the account's mapping was not kept: %+v", acct)
	}
}

func TestRefusedStatementsLeaveNothing(t *testing.T) {
	lib := openLib(t)
	dir := t.TempDir()
	lt := func(n int) string { return strings.Repeat("<a>", n) }
	huge := filepath.Join(dir, "huge.csv")
	f, _ := os.Create(huge)
	f.Truncate(MaxFileBytes + 1) // sparse: refused by its size, never read
	f.Close()
	utf16 := append([]byte{0xFF, 0xFE}, func() []byte {
		var b []byte
		for _, r := range "Date,Description,Amount\r\n01/07/2025,Café Olé,-4.50\r\n" {
			b = append(b, byte(r), byte(r>>8))
		}
		return b
	}()...)
	cases := []struct {
		name, text, want string
	}{
		{"empty.csv", "", "empty"},
		{"bad-balance.csv", "Date,Description,Amount,Balance\n01/07/2025,A,-4.50,95.50\n02/07/2025,B,-5.00,80.00\n", "balances do not add up"},
		{"laughs.xml", `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><Document><BkToCstmrStmt><Stmt><Ntry>&lol2;</Ntry></Stmt></BkToCstmrStmt></Document>`, "document type"},
		{"xxe.xml", `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document>&x;</Document>`, "document type"},
		{"deep.xml", `<?xml version="1.0"?><Document>` + lt(20000) + strings.Repeat("</a>", 20000) + `</Document>`, "not an ISO 20022"},
		{"broken.xml", `<?xml version="1.0"?><Document><BkToCstmrStmt><Stmt><Ntry><Amt Ccy="EUR">1.00</Amt>`, "not a statement"},
		{"not-camt.xml", `<?xml version="1.0"?><Invoice><ID>1</ID></Invoice>`, "not an ISO 20022"},
		{"binary.csv", "PK\x03\x04\x00\x00binary", "not a text file"},
		{"no-dates.csv", "a,b,c\nx,y,z\n", "no column of dates"},
		{"bad-ofx.ofx", "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS>", "OFX file cannot be read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := write(t, dir, c.name, c.text)
			_, err := Import(ctx, lib, p, ImportOptions{Account: "Cheque"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want an error saying %q, got %v", c.want, err)
			}
			t.Logf("%s: %v", c.name, err)
		})
	}
	if _, err := Import(ctx, lib, huge, ImportOptions{Account: "Cheque"}); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a file over the limit: %v", err)
	}
	sts, _ := lib.Statements("")
	accts, _ := lib.BankAccounts()
	kept, _ := filepath.Glob(filepath.Join(lib.Dir(), "originals", "statements", "*", "*"))
	if len(sts) != 0 || len(accts) != 0 || len(kept) != 0 {
		t.Fatalf("a refused file left %d statements, %d accounts, %d stored files", len(sts), len(accts), len(kept))
	}
	// UTF-16 is an encoding, not an attack: it is read.
	p := filepath.Join(dir, "utf16.csv")
	os.WriteFile(p, utf16, 0o644)
	r, err := Import(ctx, lib, p, ImportOptions{Account: "Cheque"})
	if err != nil || r.Added != 1 || !strings.Contains(r.Statement.Lines[0].Description, "Café Olé") {
		t.Fatalf("UTF-16 statement: %+v %v", r, err)
	}
}

// TestKilledImportLosesNothing kills a child importing a 30,000-line
// statement at several moments, each into a library of its own: afterwards
// the library is sound and holds the statement whole or not at all, and
// importing it again completes it.
func TestKilledImportLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	child := func(dir string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SHOEBOX_BANK_KILL_CHILD="+dir)
		return cmd
	}
	// How long a whole import takes here, to kill the others across it.
	whole := t.TempDir()
	write(t, whole, "big.csv", bigStatement(30000, 7))
	start := time.Now()
	if out, err := child(whole).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	took := time.Since(start)
	for _, share := range []float64{0.2, 0.5, 0.8, 0.9, 0.97} {
		after := time.Duration(share * float64(took))
		dir := t.TempDir()
		write(t, dir, "big.csv", bigStatement(30000, 7))
		cmd := child(dir)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(after)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		lib, err := library.Open(filepath.Join(dir, "library"))
		if err != nil {
			t.Fatal(err)
		}
		if err := lib.IntegrityCheck(); err != nil {
			t.Fatal(err)
		}
		lines, _ := lib.StatementLines(library.LineFilter{})
		sts, _ := lib.Statements("")
		if !(len(sts) == 0 && len(lines) == 0 || len(sts) == 1 && len(lines) == 30000) {
			t.Fatalf("killed after %v: %d statements, %d lines (want none or all 30000)", after, len(sts), len(lines))
		}
		t.Logf("killed after %v of %v (%q): %d statements, %d lines", after.Round(time.Millisecond), took.Round(time.Millisecond), strings.TrimSpace(out.String()), len(sts), len(lines))
		if _, err := Import(ctx, lib, filepath.Join(dir, "big.csv"), ImportOptions{Account: "Cheque"}); err != nil {
			t.Fatal(err)
		}
		if lines, _ := lib.StatementLines(library.LineFilter{}); len(lines) != 30000 {
			t.Fatalf("after importing again: %d lines", len(lines))
		}
		lib.Close()
	}
}

// uniquePNG writes a small PNG whose pixels encode n.
func uniquePNG(t testing.TB, dir string, n int) string {
	img := image.NewGray(image.Rect(0, 0, 64, 96))
	for i := range img.Pix {
		img.Pix[i] = byte(200 + i%50)
	}
	for b := 0; b < 32; b++ {
		if n>>b&1 == 1 {
			img.SetGray(b, 0, color.Gray{})
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	p := filepath.Join(dir, fmt.Sprintf("r%05d.png", n))
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func addReceipt(t testing.TB, lib *library.Library, n int, supplier, date, total, cur string) int64 {
	t.Helper()
	res := lib.ImportFile(ctx, uniquePNG(t, t.TempDir(), n), ingest.DefaultLimits())
	if res.Outcome != library.Added {
		t.Fatalf("import: %+v", res)
	}
	d, _ := time.Parse("2006-01-02", date)
	rc := receipt.Receipt{
		SupplierName: receipt.Of(supplier, receipt.SourceUser, 1),
		Date:         receipt.Of(d, receipt.SourceUser, 1),
		Total:        receipt.Of(decimal.RequireFromString(total), receipt.SourceUser, 1),
		Currency:     receipt.Of(cur, receipt.SourceUser, 1),
	}
	if err := lib.SaveExtraction(ctx, res.ID, rc, "test", receipt.SourceUser); err != nil {
		t.Fatal(err)
	}
	return res.ID
}

func lineByDesc(t *testing.T, lib *library.Library, desc string) library.StatementLine {
	t.Helper()
	lines, _ := lib.StatementLines(library.LineFilter{})
	for _, l := range lines {
		if l.Description == desc {
			return l
		}
	}
	t.Fatalf("no line %q", desc)
	return library.StatementLine{}
}

// TestConfirmRejectUndoAndLearning walks the bookkeeper's actions: a
// proposal rejected is not proposed again, undo brings it back, a
// confirmed description names the supplier next month, a receipt matched
// by hand sticks through later runs, and one receipt is not paid twice.
func TestConfirmRejectUndoAndLearning(t *testing.T) {
	lib := openLib(t)
	dir := t.TempDir()
	cafe := addReceipt(t, lib, 1, "Joe Bloggs Coffee Pty Ltd", "2025-07-02", "18.40", "AUD")
	cafe2 := addReceipt(t, lib, 2, "Joe Bloggs Coffee Pty Ltd", "2025-08-06", "22.10", "AUD")
	paper := addReceipt(t, lib, 3, "Officeworks", "2025-07-03", "42.50", "AUD")
	stmt := write(t, dir, "july.csv", "Date,Description,Amount\n"+
		"03/07/2025,SQ *JB CAFE SURRY HILLS,-18.40\n"+
		"04/07/2025,OFFICEWORKS 0423 SYDNEY,-42.50\n"+
		"05/07/2025,OFFICEWORKS 0423 SYDNEY,-42.50\n"+
		"07/08/2025,SQ *JB CAFE SURRY HILLS,-22.10\n")
	if _, err := Import(ctx, lib, stmt, ImportOptions{Account: "Card"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, lib, time.Time{}, time.Time{}, DefaultRules); err != nil {
		t.Fatal(err)
	}
	jb := lineByDesc(t, lib, "SQ *JB CAFE SURRY HILLS")
	if jb.ReceiptID != cafe || jb.MatchState != library.MatchProposed || !strings.Contains(jb.MatchReason, "does not name") {
		t.Fatalf("café line: receipt %d %s (%s); want receipt %d proposed, saying the name does not match", jb.ReceiptID, jb.MatchState, jb.MatchReason, cafe)
	}
	// Two lines of Officeworks' amount: one gets the receipt, proposed
	// (the other fits too), the other is missing.
	lines, _ := lib.StatementLines(library.LineFilter{})
	var ow []library.StatementLine
	for _, l := range lines {
		if strings.HasPrefix(l.Description, "OFFICEWORKS") {
			ow = append(ow, l)
		}
	}
	if ow[0].ReceiptID != paper || ow[0].MatchState != library.MatchProposed || ow[1].ReceiptID != 0 {
		t.Fatalf("Officeworks lines: %+v / %+v", ow[0], ow[1])
	}

	// Reject, and the pair is never proposed again; undo brings it back.
	if err := lib.RejectMatch(ctx, jb.ID); err != nil {
		t.Fatal(err)
	}
	Run(ctx, lib, time.Time{}, time.Time{}, DefaultRules)
	if l, _ := lib.StatementLine(jb.ID); l.ReceiptID != 0 {
		t.Fatalf("rejected pair proposed again: %+v", l)
	}
	if what, ok, err := lib.UndoMatch(ctx); err != nil || !ok {
		t.Fatalf("undo: %q %v %v", what, ok, err)
	}
	Run(ctx, lib, time.Time{}, time.Time{}, DefaultRules)
	if l, _ := lib.StatementLine(jb.ID); l.ReceiptID != cafe {
		t.Fatalf("after undoing the rejection the proposal should be back: %+v", l)
	}

	// Confirm: the description is learned, and next month's line of the
	// same description is matched without asking.
	if err := Confirm(ctx, lib, jb.ID, 0, ""); err != nil {
		t.Fatal(err)
	}
	Run(ctx, lib, time.Time{}, time.Time{}, DefaultRules)
	aug := lines[len(lines)-1]
	if l, _ := lib.StatementLine(aug.ID); l.ReceiptID != cafe2 || l.MatchState != library.MatchAutomatic || !strings.Contains(l.MatchReason, "matched this description") {
		t.Fatalf("August café line after learning: %+v", l)
	}

	// A receipt already paid cannot be confirmed on a second payment line.
	if err := Confirm(ctx, lib, ow[1].ID, cafe, library.KindPayment); err == nil || !strings.Contains(err.Error(), "already paid") {
		t.Fatalf("a second payment for a confirmed receipt: %v", err)
	}
	// Matched by hand: the second Officeworks line is the receipt's; the
	// first loses it on the next run and is then missing.
	if err := Confirm(ctx, lib, ow[1].ID, paper, library.KindPayment); err != nil {
		t.Fatal(err)
	}
	Run(ctx, lib, time.Time{}, time.Time{}, DefaultRules)
	l0, _ := lib.StatementLine(ow[0].ID)
	l1, _ := lib.StatementLine(ow[1].ID)
	if l1.ReceiptID != paper || l1.MatchState != library.MatchConfirmed || l0.ReceiptID != 0 {
		t.Fatalf("after the hand match: %+v / %+v", l0, l1)
	}
	rep, _ := MissingReport(lib, "", time.Time{}, time.Time{})
	if len(rep.Missing) != 1 || rep.Missing[0].ID != ow[0].ID {
		t.Fatalf("missing: %+v", rep.Missing)
	}
	// The workbook and the CSV pair are written whole.
	for _, name := range []string{"missing.xlsx", "missing.csv"} {
		if err := rep.Write(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	csvText, _ := os.ReadFile(filepath.Join(dir, "missing.csv"))
	if !strings.Contains(string(csvText), "OFFICEWORKS 0423 SYDNEY") || !fileExists(filepath.Join(dir, "missing-not-on-statement.csv")) {
		t.Fatalf("missing CSV: %s", csvText)
	}
	if err := rep.Write(filepath.Join(dir, "missing.txt")); err == nil {
		t.Fatal("an unknown extension should be refused")
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestNoReceiptNeeded: a bank fee marked as needing no receipt leaves the
// missing list, next month's fee of that description is marked by itself,
// and undo puts the first back.
func TestNoReceiptNeeded(t *testing.T) {
	lib := openLib(t)
	dir := t.TempDir()
	stmt := write(t, dir, "cheque.csv", "Date,Description,Amount\n"+
		"31/07/2025,MONTHLY ACCOUNT FEE,-10.00\n31/07/2025,NETFLIX.COM,-16.99\n31/08/2025,MONTHLY ACCOUNT FEE,-10.00\n")
	if _, err := Import(ctx, lib, stmt, ImportOptions{Account: "Cheque"}); err != nil {
		t.Fatal(err)
	}
	Run(ctx, lib, time.Time{}, time.Time{}, DefaultRules)
	lines, _ := lib.StatementLines(library.LineFilter{})
	july, aug := lines[0], lines[2]
	if july.Description != "MONTHLY ACCOUNT FEE" {
		t.Fatalf("order: %+v", lines)
	}
	if err := NoReceiptNeeded(ctx, lib, july.ID, true); err != nil {
		t.Fatal(err)
	}
	out, _ := Run(ctx, lib, time.Time{}, time.Time{}, DefaultRules)
	if out.NotNeeded != 2 || out.Missing != 1 {
		t.Fatalf("after marking the fee: %+v", out)
	}
	if l, _ := lib.StatementLine(aug.ID); l.MatchState != library.MatchNotNeeded || !strings.Contains(l.MatchReason, "lines like this") {
		t.Fatalf("August's fee: %+v", l)
	}
	rep, _ := MissingReport(lib, "", time.Time{}, time.Time{})
	if len(rep.Missing) != 1 || rep.Missing[0].Description != "NETFLIX.COM" {
		t.Fatalf("missing: %+v", rep.Missing)
	}
	if _, ok, err := lib.UndoMatch(ctx); !ok || err != nil {
		t.Fatalf("undo: %v %v", ok, err)
	}
	if l, _ := lib.StatementLine(july.ID); l.MatchState != library.MatchNone {
		t.Fatalf("July's fee after undo: %+v", l)
	}
}
