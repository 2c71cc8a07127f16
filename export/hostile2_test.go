package export

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/shoebox-app/shoebox/receipt"
)

// controlRows carry raw control characters, as a server's answer did in
// issue 38 item 13: ESC (a terminal escape), BEL, NUL, DEL and a C1 CSI.
func controlRows() []Row {
	r := receipt.Receipt{
		SupplierName: text("Shop\x1b[31m RED\x07"), DocumentNumber: text("INV\x00-1"), Category: text("\x1b]0;pwned\x07Meals"),
		Notes: text("a\x7fb"), Date: receipt.Of(receipt.Date(2025, 7, 20), receipt.SourceUser, 1), Currency: text("AUD"), Total: amt("5.00"),
		LineItems: []receipt.LineItem{{Description: text("Coffee\u009b2J"), LineTotal: amt("5.00")}},
	}
	return []Row{{ID: 7, Status: "confirmed", Receipt: r, Name: "scan\x1b.jpg"}}
}

// control reports the first control character in s other than tab, CR and
// LF (which CSV quotes and a cell may hold).
func control(s string) (rune, bool) {
	for _, c := range s {
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7f && c <= 0x9f) {
			return c, true
		}
	}
	return 0, false
}

// TestControlCharactersNeverReachCells: no CSV file, workbook cell or
// accounting import file carries a raw control character.
func TestControlCharactersNeverReachCells(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.csv")
	if _, err := WriteCSV(out, slices.Values(controlRows()), auOptions()); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{out, LinesPath(out)} {
		b, _ := os.ReadFile(p)
		if c, ok := control(string(b)); ok {
			t.Errorf("%s holds %U: %q", filepath.Base(p), c, b)
		}
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "Shop[31m RED") {
		t.Errorf("the text around the control characters was lost: %q", b)
	}
	x := filepath.Join(dir, "out.xlsx")
	if _, err := WriteXLSX(x, slices.Values(controlRows()), auOptions()); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(x)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, sheet := range f.GetSheetList() {
		rows, _ := f.GetRows(sheet)
		for _, row := range rows {
			for _, v := range row {
				if c, ok := control(v); ok {
					t.Errorf("%s: a cell holds %U: %q", sheet, c, v)
				}
			}
		}
	}
	books := auBooks()
	books.Accounts = nil
	for _, p := range Presets {
		coded := []Coded{{Row: controlRows()[0], Account: "6-1100", TaxCode: "GST"}}
		path := filepath.Join(dir, string(p)+".csv")
		if _, err := WritePreset(path, p, coded, PresetOptions{Books: books}); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		b, _ := os.ReadFile(path)
		if c, ok := control(string(b)); ok {
			t.Errorf("%s holds %U: %q", p, c, b)
		}
	}
}

// TestExportOntoALinkOrReadOnlyFileIsRefused: an export never replaces a
// link (which would break it) nor writes through it (to wherever it
// points), and never overwrites a file the user made read-only; it says so
// instead (issue 38 item 13).
func TestExportOntoALinkOrReadOnlyFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "elsewhere.txt")
	os.WriteFile(real, []byte("keep me\n"), 0o644)
	for _, name := range []string{"out.xlsx", "out.csv", "out.lines.csv"} {
		link := filepath.Join(t.TempDir(), name)
		if name == "out.lines.csv" {
			link = filepath.Join(filepath.Dir(link), "out.lines.csv")
		}
		if err := os.Symlink(real, link); err != nil {
			t.Fatal(err)
		}
		target := link
		if name == "out.lines.csv" {
			target = filepath.Join(filepath.Dir(link), "out.csv")
		}
		var err error
		if strings.HasSuffix(target, ".csv") {
			_, err = WriteCSV(target, slices.Values(sampleRows()), auOptions())
		} else {
			_, err = WriteXLSX(target, slices.Values(sampleRows()), auOptions())
		}
		if err == nil || !strings.Contains(err.Error(), "link") {
			t.Errorf("%s as a link: %v", name, err)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced", name)
		}
		if b, _ := os.ReadFile(real); string(b) != "keep me\n" {
			t.Errorf("%s: written through the link: %q", name, b)
		}
		if name == "out.lines.csv" {
			if _, err := os.Stat(target); err == nil {
				t.Errorf("out.csv was written though out.lines.csv could not be")
			}
		}
	}
	for _, name := range []string{"ro.xlsx", "ro.csv"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("the user's\n"), 0o444)
		var err error
		if strings.HasSuffix(p, ".csv") {
			_, err = WriteCSV(p, slices.Values(sampleRows()), auOptions())
		} else {
			_, err = WriteXLSX(p, slices.Values(sampleRows()), auOptions())
		}
		if err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("%s read-only: %v", name, err)
		}
		if b, _ := os.ReadFile(p); string(b) != "the user's\n" {
			t.Errorf("%s: a read-only file was overwritten", name)
		}
	}
}
