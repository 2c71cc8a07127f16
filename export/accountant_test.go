package export

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"

	"github.com/shoebox-app/shoebox/receipt"
)

// What an accountant reads: file names, plain statuses and flags, rates as
// numbers, tax invoices without their tax kept out of the sums, and a
// workbook that prints.
func TestWorkbookReadsAsAnAccountantExpects(t *testing.T) {
	unsure := receipt.Receipt{
		SupplierName: receipt.Of("Cafe", receipt.SourceOCR, 0.4), Date: receipt.Of(receipt.Date(2025, 8, 2), receipt.SourceOCR, 0.9),
		Currency: text("AUD"), Total: amt("22.00"), TotalTax: amt("2.00"),
		TaxLines: []receipt.TaxLine{{Label: text("=TAXLABEL()"), Net: amt("20.00"), Tax: amt("2.00")}}, // rate not printed
	}
	noTax := receipt.Receipt{ // a tax invoice whose GST was not read
		SupplierName: text("Bunnings"), SupplierTaxID: receipt.Of(receipt.TaxID{Scheme: receipt.SchemeABN, Value: "51824753556"}, receipt.SourceOCR, 0.9),
		DocType: receipt.Of(receipt.DocTaxInvoice, receipt.SourceOCR, 0.9), Date: receipt.Of(receipt.Date(2025, 8, 3), receipt.SourceUser, 1),
		Currency: text("AUD"), Total: amt("55.00"),
	}
	rows := []Row{
		{ID: 1, Status: "needs_review", Receipt: unsure, Original: "/lib/originals/ab/abcdef.jpg", Name: "IMG_2041.jpg", SHA256: "abcdef"},
		{ID: 2, Status: "confirmed", Receipt: unsure, Original: "/lib/originals/cd/cdef.jpg", Name: "scan 7.pdf", SHA256: "cdef"},
		{ID: 3, Status: "extracted", Receipt: noTax},
	}
	path := filepath.Join(t.TempDir(), "books.xlsx")
	if _, err := WriteXLSX(path, slices.Values(rows), auOptions()); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cell := func(sheet, c string) string { v, _ := f.GetCellValue(sheet, c); return v }

	if v := cell(SheetReceipts, "N2"); v != "IMG_2041.jpg" {
		t.Errorf("Original shows %q, want the file's own name", v)
	}
	if v := cell(SheetReceipts, "O2"); v != "abcdef" {
		t.Errorf("SHA-256 column = %q", v)
	}
	if visible, _ := f.GetColVisible(SheetReceipts, "O"); visible {
		t.Error("the SHA-256 column is visible")
	}
	for c, want := range map[string]string{"L2": "to check", "L3": "confirmed", "L4": "ready to confirm"} {
		if v := cell(SheetReceipts, c); v != want {
			t.Errorf("status %s = %q, want %q", c, v, want)
		}
	}
	if v := cell(SheetReceipts, "M2"); !strings.Contains(v, "check supplier") || strings.Contains(v, "supplier_name") {
		t.Errorf("unconfirmed flags = %q", v)
	}
	if v := cell(SheetReceipts, "M3"); strings.Contains(v, "little certainty") {
		t.Errorf("a confirmed receipt flagged as unsure: %q", v)
	}
	if v := cell(SheetReceipts, "M4"); !strings.Contains(v, "tax not read") {
		t.Errorf("tax invoice without tax: flags %q", v)
	}

	// The tax summary: rates as numbers in a percent format, worked out
	// where not printed; no row for the tax invoice without its tax.
	rows2, _ := f.GetRows(SheetSummary, excelize.Options{RawCellValue: true})
	var notes []string
	for i, r := range rows2[1:] {
		if len(r) >= 5 && r[1] != "" && strings.HasPrefix(r[1], "FY") {
			at, _ := excelize.CoordinatesToCellName(5, i+2)
			typ, _ := f.GetCellType(SheetSummary, at)
			if r[4] == "" || typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString {
				t.Errorf("summary row %v: rate %q of type %v, want a number", r, r[4], typ)
			}
			if shown := cell(SheetSummary, at); shown != "10%" {
				t.Errorf("rate shows %q, want 10%%", shown)
			}
			if r[3] != "'=TAXLABEL()" {
				t.Errorf("tax label %q, want it neutralised", r[3])
			}
			if gross, _ := decimal.NewFromString(r[7]); gross.Equal(decimal.RequireFromString("55")) {
				t.Errorf("the tax invoice without its tax is summed: %v", r)
			}
		}
		if len(r) > 1 && strings.HasPrefix(r[1], "Not in this summary") {
			notes = append(notes, r[1])
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "1 tax invoice(s)") || !strings.Contains(notes[0], "55.00") {
		t.Errorf("notes = %q", notes)
	}

	// Printing: landscape, one page wide, the header row on every page.
	for _, sheet := range []string{SheetReceipts, SheetLines, SheetSummary} {
		pl, _ := f.GetPageLayout(sheet)
		if pl.Orientation == nil || *pl.Orientation != "landscape" || pl.FitToWidth == nil || *pl.FitToWidth != 1 {
			t.Errorf("%s page layout %+v", sheet, pl)
		}
		props, _ := f.GetSheetProps(sheet)
		if props.FitToPage == nil || !*props.FitToPage {
			t.Errorf("%s does not fit to page", sheet)
		}
	}
	names := f.GetDefinedName()
	titles := 0
	for _, n := range names {
		if n.Name == "_xlnm.Print_Titles" && strings.HasSuffix(n.RefersTo, "!$1:$1") {
			titles++
		}
	}
	if titles != 3 {
		t.Errorf("print titles on %d sheets, want 3: %+v", titles, names)
	}
	// Headers fit their columns.
	for i, h := range ReceiptColumns {
		col, _ := excelize.ColumnNumberToName(i + 1)
		if w, _ := f.GetColWidth(SheetReceipts, col); w < float64(len(h)) {
			t.Errorf("column %q is %.0f wide, its header %d", h, w, len(h))
		}
	}
}

// A CSV pair is replaced whole or not at all: when the line items file
// cannot be written, the receipts file is left as it was.
func TestCSVPairIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "receipts.csv")
	if err := os.WriteFile(path, []byte("old receipts\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The lines file's name is taken by a folder with something in it:
	// renaming over it fails.
	if err := os.MkdirAll(filepath.Join(LinesPath(path), "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteCSV(path, slices.Values(sampleRows()), auOptions()); err == nil {
		t.Fatal("no error with the lines file blocked")
	}
	if data, _ := os.ReadFile(path); string(data) != "old receipts\n" {
		t.Errorf("receipts.csv was replaced without its lines: %q", data)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") || strings.HasPrefix(e.Name(), ".old-") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestCSVNeutralisesLineBreaksAndRespectsUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	r := receipt.Receipt{SupplierName: text("\n=1+1"), Total: amt("1.00"), Currency: text("AUD")}
	path := filepath.Join(t.TempDir(), "r.csv")
	if _, err := WriteCSV(path, slices.Values([]Row{{ID: 1, Receipt: r}}), auOptions()); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"'`+"\n=1+1\"") {
		t.Errorf("a value led by a line feed is not neutralised:\n%s", data)
	}
	for _, p := range []string{path, LinesPath(path)} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v under umask 022, want -rw-r--r--", filepath.Base(p), fi.Mode().Perm())
		}
	}
	xlsx := filepath.Join(t.TempDir(), "r.xlsx")
	if _, err := WriteXLSX(xlsx, slices.Values([]Row{{ID: 1, Receipt: r}}), auOptions()); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(xlsx); fi.Mode().Perm() != 0o644 {
		t.Errorf("workbook mode %v under umask 022", fi.Mode().Perm())
	}
}
