package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/clients"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// clientLibrary opens a client's library the way the app does.
func clientLibrary(t *testing.T, name string) *library.Library {
	t.Helper()
	dir, _ := clients.DefaultDir()
	reg, err := clients.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l, _, err := reg.OpenLibrary(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestClientsCommandsAndPresetExport(t *testing.T) {
	src := "../../shared/data/sroie-dev/000.jpg"
	if _, err := os.Stat(src); err != nil {
		t.Skip("dev receipts not here")
	}
	t.Setenv("SHOEBOX_HOME", t.TempDir())
	for _, args := range [][]string{
		{"clients", "new", "Harbour Cafe"},
		{"clients", "new", "Smith & Co", "--country", "UK"},
		{"import", "--client", "Harbour Cafe", src},
		{"import", "--client", "Smith & Co", src},
	} {
		if code, _, errOut := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	if code, _, errOut := run(t, "list", "--client", "Nobody"); code == 0 || !strings.Contains(errOut, "no such client") {
		t.Fatalf("unknown client: exit %d: %s", code, errOut)
	}
	code, out, _ := run(t, "clients", "list")
	if code != 0 || strings.Index(out, "Smith & Co") > strings.Index(out, "Harbour Cafe") {
		t.Fatalf("clients list (the last used first):\n%s", out)
	}

	l := clientLibrary(t, "Harbour Cafe")
	r := receipt.Receipt{
		SupplierName: receipt.Of("BOOK TA .K (TAMAN DAYA) SDN BHD", receipt.SourceModel, 0.9),
		Date:         receipt.Of(receipt.Date(2018, 12, 25), receipt.SourceModel, 0.9),
		Total:        receipt.Of(decimal.RequireFromString("9.00"), receipt.SourceModel, 0.9), TotalTax: receipt.Of(decimal.RequireFromString("0.82"), receipt.SourceModel, 0.9),
	}
	if err := l.SaveExtraction(context.Background(), 1, r, "test", receipt.SourceModel); err != nil {
		t.Fatal(err)
	}
	out1 := filepath.Join(t.TempDir(), "bills.csv")
	code, out, errOut := run(t, "export", "--client", "Harbour Cafe", "--format", "xero", "-o", out1)
	if code != 1 || !strings.Contains(errOut, "nothing to write, so no file was made") || !strings.Contains(out, "receipt 1: not confirmed yet") || !strings.Contains(out, "add --all") {
		t.Fatalf("export before confirming: exit %d:\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(out1); !os.IsNotExist(err) {
		t.Fatal("a file was written although nothing was to be written")
	}
	// Nobody coded it: --all writes it to the default account, its GST at
	// the code for 10%.
	code, out, errOut = run(t, "export", "--client", "Harbour Cafe", "--format", "xero", "--all", "-o", out1)
	if b, _ := os.ReadFile(out1); code != 0 || !strings.Contains(string(b), ",429,GST on Expenses,0.82,") {
		t.Fatalf("export --all with no coding: exit %d %s%s\n%s", code, out, errOut, b)
	}
	if code, out, errOut := run(t, "books", "default-account", "461", "--client", "Harbour Cafe"); code != 0 || !strings.Contains(out, "461") {
		t.Fatalf("books default-account: exit %d %s%s", code, out, errOut)
	}
	if code, _, errOut := run(t, "books", "default-account", "999", "--client", "Harbour Cafe"); code != 1 || !strings.Contains(errOut, "not in this client's chart") {
		t.Fatalf("books default-account 999: exit %d %s", code, errOut)
	}
	// The client's Xero contacts: the supplier is written as its contact.
	contacts := filepath.Join(t.TempDir(), "Contacts.csv")
	os.WriteFile(contacts, []byte("*ContactName,EmailAddress,TaxNumber\nBook Ta .K (Taman Daya) Sdn Bhd,,\n"), 0o644)
	if code, out, errOut := run(t, "books", "contacts", "--client", "Harbour Cafe", "--import", contacts); code != 0 || !strings.Contains(out, "imported 1 contacts") {
		t.Fatalf("books contacts --import: exit %d %s%s", code, out, errOut)
	}
	code, out, errOut = run(t, "export", "--client", "Harbour Cafe", "--format", "xero", "--all", "-o", out1)
	if b, _ := os.ReadFile(out1); code != 0 || !strings.Contains(string(b), "\r\nBook Ta .K (Taman Daya) Sdn Bhd,") || strings.Contains(out, "new contacts") {
		t.Fatalf("export with the client's contacts: exit %d %s%s\n%s", code, out, errOut, b)
	}
	if code, _, errOut := run(t, "books", "code", "1", "--client", "Harbour Cafe", "--account", "461", "--tax-code", "GST"); code != 0 {
		t.Fatalf("books code: %s", errOut)
	}
	if err := l.Confirm(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(t, "export", "--client", "Harbour Cafe", "--format", "xero", "--attachments", "-o", out1)
	if code != 0 || !strings.Contains(out, "1 receipts, 1 lines") || !strings.Contains(out, "tax inclusive") {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	b, _ := os.ReadFile(out1)
	if !strings.Contains(string(b), "Book Ta .K (Taman Daya) Sdn Bhd,,,,,,,,,,SB-1,SB-1,25/12/2018,25/12/2018,,") ||
		!strings.Contains(string(b), ",461,GST on Expenses,0.82,") {
		t.Fatalf("xero file:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(out1), "bills-originals.zip")); err != nil {
		t.Fatal(err)
	}
	// The confirm taught Harbour Cafe a rule; Smith & Co knows nothing of it.
	if _, out, _ := run(t, "books", "rules", "--client", "Harbour Cafe"); !strings.Contains(out, "461") {
		t.Fatalf("Harbour Cafe rules:\n%s", out)
	}
	if _, out, _ := run(t, "books", "rules", "--client", "Smith & Co"); strings.Contains(out, "BOOK TA") {
		t.Fatalf("Smith & Co has Harbour Cafe's rule:\n%s", out)
	}
	if _, out, _ := run(t, "books", "settings", "--client", "Smith & Co", "--tax-registration", "GB123456789"); !strings.Contains(out, "April") || !strings.Contains(out, "GB123456789") || !strings.Contains(out, "GBP") {
		t.Fatalf("UK client's settings:\n%s", out)
	}
	if _, out, _ := run(t, "books", "taxcodes", "--client", "Smith & Co"); !strings.Contains(out, "20% (VAT on Expenses)") {
		t.Fatalf("UK client's tax codes:\n%s", out)
	}
	code, out, errOut = run(t, "clients", "move", "1", "Harbour Cafe", "Smith & Co")
	if code == 0 || !strings.Contains(errOut, "already receipt 1 here") {
		t.Fatalf("moving onto the same file in the other client: exit %d %s%s", code, out, errOut)
	}
	for _, args := range [][]string{{"clients", "rename", "Smith & Co", "Smith and Co"}, {"clients", "archive", "Smith and Co"}} {
		if code, _, errOut := run(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	if _, out, _ := run(t, "clients", "list"); strings.Contains(out, "Smith") {
		t.Fatalf("archived client listed:\n%s", out)
	}
}
