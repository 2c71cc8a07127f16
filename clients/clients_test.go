package clients

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/export"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

func TestRegistryNewRenameArchiveRecentFirst(t *testing.T) {
	dir := t.TempDir()
	reg, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	reg.now = func() time.Time { clock = clock.Add(time.Minute); return clock }
	for _, n := range []string{"Smith & Co Pty Ltd", "Harbour Cafe", "Jones Plumbing"} {
		if _, err := reg.New(n, receipt.CountryAU); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := reg.New("harbour cafe", receipt.CountryAU); err == nil {
		t.Fatal("a second client with the same name was made")
	}
	l, _, err := reg.OpenLibrary("smith & co pty ltd")
	if err != nil {
		t.Fatal(err)
	}
	if loc := l.Locale(); loc.Country != receipt.CountryAU || loc.FYStartMonth != time.July {
		t.Fatalf("new client's locale %+v", loc)
	}
	if codes, _ := l.TaxCodes(); len(codes) != 6 {
		t.Fatalf("new AU client has %d tax codes, want the 6 GST purchase codes", len(codes))
	}
	if accts, _ := l.Accounts(); len(accts) != 20 || l.Setting(library.SettingDefaultAccount) != "429" {
		t.Fatalf("new AU client has %d accounts and default account %q, want the 20 of its chart and 429", len(accts), l.Setting(library.SettingDefaultAccount))
	}
	l.Close()
	names := func(cs []Client) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return strings.Join(out, ", ")
	}
	if got := names(reg.List(false)); got != "Smith & Co Pty Ltd, Jones Plumbing, Harbour Cafe" {
		t.Fatalf("recent first: %s", got)
	}
	if err := reg.Rename("Jones Plumbing", "Jones & Sons Plumbing"); err != nil {
		t.Fatal(err)
	}
	if err := reg.Rename("Harbour Cafe", "jones & sons plumbing"); err == nil {
		t.Fatal("renamed onto another client's name")
	}
	if err := reg.Archive("Harbour Cafe"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := reg.OpenLibrary("Harbour Cafe"); err == nil {
		t.Fatal("opened an archived client")
	}
	// Everything survives a reopen of the registry.
	reg2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(reg2.List(false)); got != "Smith & Co Pty Ltd, Jones & Sons Plumbing" {
		t.Fatalf("after reopen: %s", got)
	}
	if got := names(reg2.List(true)); !strings.Contains(got, "Harbour Cafe") {
		t.Fatalf("archived client gone: %s", got)
	}
	c, _ := reg2.Get("jones & sons plumbing")
	if c.Folder != "jones-plumbing" {
		t.Fatalf("renaming moved the folder: %s", c.Folder)
	}
	if _, err := reg2.Get("nobody"); !errors.Is(err, ErrNoClient) {
		t.Fatalf("unknown client: %v", err)
	}
}

// TestTwoClientsKeepReceiptsAndRulesApart imports the same file into two
// clients: each counts its own receipts and learns its own supplier rule.
func TestTwoClientsKeepReceiptsAndRulesApart(t *testing.T) {
	needDevData(t)
	reg, _ := Open(t.TempDir())
	a := newClient(t, reg, "Harbour Cafe")
	b := newClient(t, reg, "Smith & Co")
	buildClient(t, a, devReceipts)
	other := devReceipts[0]
	other.account, other.taxCode = "420", "GST" // the same shop, booked as entertainment by this client
	buildClient(t, b, []devReceipt{other})

	count := func(l *library.Library) int {
		c, err := l.Counts()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, v := range c {
			n += v
		}
		return n
	}
	if count(a) != 4 || count(b) != 1 {
		t.Fatalf("receipts: %d and %d, want 4 and 1", count(a), count(b))
	}
	ra, _, _ := a.RuleFor(devReceipts[0].supplier)
	rb, _, _ := b.RuleFor(devReceipts[0].supplier)
	if ra.Account != "461" || rb.Account != "420" {
		t.Fatalf("rules: %s and %s, want 461 and 420", ra.Account, rb.Account)
	}
	if rules, _ := b.Rules(); len(rules) != 1 {
		t.Fatalf("client B learned %d rules from its one receipt", len(rules))
	}
	// The same file again in client B is a duplicate there, not in A.
	res := b.ImportFile(ctx, filepath.Join(devDir, devReceipts[0].file), ingest.DefaultLimits())
	if res.Outcome != library.Duplicate {
		t.Fatalf("re-import into B: %s", res.Outcome)
	}
	if a.Dir() == b.Dir() {
		t.Fatal("two clients share a library folder")
	}
}

// TestCheckListsRejectsAndNothingIsWritten: a receipt without an account
// (its chart lost the default account) and one with an unknown tax code
// are each listed with the field to jump to, and the file is not written
// (an older one stays as it was).
func TestCheckListsRejectsAndNothingIsWritten(t *testing.T) {
	needDevData(t)
	reg, _ := Open(t.TempDir())
	l := newClient(t, reg, "Harbour Cafe")
	ids := buildClient(t, l, devReceipts[:3])
	if err := l.SetCoding(ctx, ids[1], 0, "999", ""); err == nil {
		t.Fatal("coded to an account the chart lacks")
	}
	// What a chart replaced under a receipt, and what nobody coded yet:
	if err := l.SetAccounts(ctx, library.DefaultAccounts(receipt.CountryAU)[:5]); err != nil {
		t.Fatal(err)
	}
	if err := l.SetTaxCodes(ctx, library.DefaultTaxCodes(receipt.CountryAU)[:1]); err != nil {
		t.Fatal(err)
	}
	res := l.ImportFile(ctx, filepath.Join(devDir, "034.jpg"), ingest.DefaultLimits())
	if res.Outcome != library.Added {
		t.Fatalf("import: %+v", res)
	}
	r := receipt.Receipt{SupplierName: txt("Nobody Coded Me"), Date: receipt.Of(receipt.Date(2025, 7, 1), receipt.SourceModel, 0.9), Total: amt("5.00")}
	if err := l.SaveExtraction(ctx, res.ID, r, "test", receipt.SourceModel); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "bills.csv")
	os.WriteFile(path, []byte("last week's file\n"), 0o644)
	rows, _ := CodedRows(l, library.Filter{})
	books, _ := Books(l)
	_, err := export.WritePreset(path, export.PresetXero, rows, export.PresetOptions{Books: books, IncludeUnconfirmed: true, Attachments: export.AttachmentsPath(path)})
	var ce *export.CheckError
	if !errors.As(err, &ce) {
		t.Fatalf("WritePreset: %v", err)
	}
	var got []string
	for _, p := range ce.Problems {
		got = append(got, p.Field+": "+p.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"account: receipt 4: line \"Nobody Coded Me (no GST)\" has no account, and the client has no default account",
		"account: receipt 1: line \"BOOK TA .K (TAMAN DAYA) SDN BHD (GST 10%)\": account 461 is not in the client's chart",
		"tax_code: receipt 3: line \"HOME MASTER HARDWARE & ELECTRICAL (no GST)\": tax code \"FRE\" is not one of the client's tax codes",
		"line_items[1].tax_code: receipt 2: line \"Delivery (GST free)\": tax code \"FRE\"",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "last week's file\n" {
		t.Fatalf("the old file was touched: %q", b)
	}
	if _, err := os.Stat(export.AttachmentsPath(path)); !os.IsNotExist(err) {
		t.Fatalf("an attachments zip was written: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// TestFailedWriteLeavesNothingHalfWritten: an original that cannot be read
// while zipping fails the export after the check passed; the import file
// is not replaced and no zip appears.
func TestFailedWriteLeavesNothingHalfWritten(t *testing.T) {
	needDevData(t)
	reg, _ := Open(t.TempDir())
	l := newClient(t, reg, "Harbour Cafe")
	buildClient(t, l, devReceipts[:2])
	rows, _ := CodedRows(l, library.Filter{})
	rows[1].Original = t.TempDir() // a folder: it exists, but reading it fails
	books, _ := Books(l)
	dir := t.TempDir()
	path := filepath.Join(dir, "bills.csv")
	os.WriteFile(path, []byte("last week's file\n"), 0o644)
	if _, err := export.WritePreset(path, export.PresetXero, rows, export.PresetOptions{Books: books, Attachments: export.AttachmentsPath(path)}); err == nil {
		t.Fatal("the export did not fail")
	}
	if b, _ := os.ReadFile(path); string(b) != "last week's file\n" {
		t.Fatalf("the old file was replaced by a partial export: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("files left beside it: %v", entries)
	}
}

// TestMoveReceiptBetweenClients moves a coded, confirmed receipt: it
// arrives whole with its history and the move recorded, and leaves.
func TestMoveReceiptBetweenClients(t *testing.T) {
	needDevData(t)
	reg, _ := Open(t.TempDir())
	a := newClient(t, reg, "Harbour Cafe")
	b := newClient(t, reg, "Smith & Co")
	ids := buildClient(t, a, devReceipts[1:2])
	before, _ := a.History(ids[0])
	rec, _ := a.Get(ids[0])
	newID, err := Move(ctx, a, b, "Harbour Cafe", "Smith & Co", ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Get(ids[0]); !errors.Is(err, library.ErrNotFound) {
		t.Fatalf("the receipt is still in the source: %v", err)
	}
	if _, err := os.Stat(a.OriginalPath(rec)); !os.IsNotExist(err) {
		t.Fatalf("the source kept the original: %v", err)
	}
	moved, err := b.Get(newID)
	if err != nil || moved.Status != library.StatusConfirmed || !moved.Receipt.Total.Value.Equal(dec("327.00")) || moved.SHA256 != rec.SHA256 {
		t.Fatalf("arrived as %+v %v", moved, err)
	}
	c, _ := b.Coding(newID)
	if c.Account != "473" || c.Lines[1].TaxCode != "FRE" {
		t.Fatalf("coding did not travel: %+v", c)
	}
	after, _ := b.History(newID)
	if len(after) != len(before)+1 || after[len(after)-1].Kind != "moved" ||
		!strings.Contains(after[len(after)-1].New, "moved from client Harbour Cafe (receipt 1) to client Smith & Co") {
		t.Fatalf("history: %d entries before, %d after, last %+v", len(before), len(after), after[len(after)-1])
	}
	// Moving it back onto a copy already there is refused and loses nothing.
	if _, err := Move(ctx, b, b, "Smith & Co", "Smith & Co", newID); err == nil {
		t.Fatal("moved a receipt onto its own client")
	}
	a.ImportFile(ctx, filepath.Join(devDir, devReceipts[1].file), ingest.DefaultLimits())
	if _, err := Move(ctx, b, a, "Smith & Co", "Harbour Cafe", newID); err == nil || !strings.Contains(err.Error(), "already receipt") {
		t.Fatalf("move onto a duplicate: %v", err)
	}
	if _, err := b.Get(newID); err != nil {
		t.Fatalf("a refused move lost the receipt: %v", err)
	}
}

// TestTwoRegistryHandlesDoNotUndoEachOther: the app and a command each
// hold the registry; a client one adds survives the other's change.
func TestTwoRegistryHandlesDoNotUndoEachOther(t *testing.T) {
	dir := t.TempDir()
	app, _ := Open(dir)
	cmd, _ := Open(dir)
	if _, err := app.New("Harbour Cafe", receipt.CountryAU); err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.New("Smith & Co", receipt.CountryUK); err != nil {
		t.Fatal(err)
	}
	if err := app.Archive("Smith & Co"); err != nil {
		t.Fatal(err)
	}
	again, _ := Open(dir)
	if all := again.List(true); len(all) != 2 || len(again.List(false)) != 1 {
		t.Fatalf("registry: %+v", all)
	}
}

// The library used before any client was made (the default folder, which
// holds the registry) becomes a client: listed, opened by name, renamed
// and archived like the others, its receipts where they were.
func TestAdoptTheFirstLibrary(t *testing.T) {
	home := t.TempDir()
	first, err := library.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	reg, err := Open(filepath.Join(home, "clients"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Adopt("First client", filepath.Join(home, "clients")); err == nil {
		t.Error("a folder with no library was listed")
	}
	c, err := reg.Adopt("First client", home)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := reg.Adopt("Other name", home); err != nil || again.Name != "First client" {
		t.Errorf("adopting twice: %+v %v", again, err)
	}
	if _, err := reg.New("Smith Plumbing", receipt.CountryAU); err != nil {
		t.Fatal(err)
	}
	reg2, _ := Open(filepath.Join(home, "clients"))
	if n := len(reg2.List(false)); n != 2 {
		t.Fatalf("%d clients listed, want the first library and Smith Plumbing", n)
	}
	if got, ok := reg2.ByPath(home); !ok || got.Name != c.Name || filepath.Clean(reg2.Path(got)) != filepath.Clean(home) {
		t.Errorf("ByPath(%s) = %+v %v (path %s)", home, got, ok, reg2.Path(got))
	}
	if err := reg2.Rename("First client", "Harbour Café"); err != nil {
		t.Fatal(err)
	}
	l, _, err := reg2.OpenLibrary("Harbour Café")
	if err != nil {
		t.Fatal(err)
	}
	if l.Dir() != home && filepath.Clean(l.Dir()) != filepath.Clean(home) {
		t.Errorf("the adopted client opens %s, not %s", l.Dir(), home)
	}
	l.Close()
	if err := reg2.Archive("Harbour Café"); err != nil {
		t.Fatal(err)
	}
	if n := len(reg2.List(false)); n != 1 {
		t.Errorf("after archiving, %d listed", n)
	}
	if _, err := os.Stat(filepath.Join(home, "library.db")); err != nil {
		t.Errorf("archiving touched the library: %v", err)
	}
}
