package export

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// withACopy is sampleRows with a second photo of the Officeworks receipt
// (ID 5) that a person marked as a copy of receipt 1.
func withACopy() []Row {
	rows := sampleRows()
	copied := rows[0]
	copied.ID, copied.Status, copied.DuplicateOf, copied.Original = 5, StatusDuplicate, 1, "/lib/originals/cd/cde.jpg"
	return append(rows, copied)
}

// A receipt marked as a copy is in no sheet, and the tax summary counts the
// purchase once: its figures are those of the export without the copy.
func TestWorkbookLeavesOutAMarkedCopy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tax.xlsx")
	st, err := WriteXLSX(path, slices.Values(withACopy()), auOptions())
	if err != nil {
		t.Fatal(err)
	}
	if st.Receipts != 4 || st.Lines != 3 || !slices.Equal(st.Duplicates, []int64{5}) {
		t.Fatalf("stats %+v", st)
	}
	if got := st.DuplicatesText(); got != "1 receipt marked as a duplicate was left out (#5)" {
		t.Errorf("message %q", got)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, sheet := range []string{SheetReceipts, SheetLines} {
		rows, _ := f.GetRows(sheet)
		for _, r := range rows[1:] {
			if len(r) > 0 && r[0] == "5" {
				t.Errorf("%s has the copy: %v", sheet, r)
			}
		}
	}
	summary, _ := f.GetRows(SheetSummary, excelize.Options{RawCellValue: true})
	got := map[string][]string{}
	note := ""
	for _, r := range summary[1:] {
		if len(r) >= 8 {
			got[strings.Join(r[:5], "|")] = r[5:8]
		}
		if len(r) == 1 {
			note = r[0]
		}
	}
	// As TestTaxSummaryAgreesWithReceipts: the 110.00 with 10.00 GST once.
	for k, v := range map[string][]string{
		"AUD|FY2026-Q1||GST|0.1": {"110", "11", "121"},
		"AUD|Total AUD|||":       {"127.45", "11", "138.45"},
		"AUD|Receipts sheet|||":  {"", "11", "138.45"},
	} {
		if !slices.Equal(got[k], v) {
			t.Errorf("summary %s = %v, want %v (the copy counted?)", k, got[k], v)
		}
	}
	if !strings.Contains(note, "1 receipt marked as a duplicate was left out (#5)") {
		t.Errorf("the summary's note does not say the copy was left out: %q", note)
	}
}

func TestCSVLeavesOutAMarkedCopy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.csv")
	st, err := WriteCSV(path, slices.Values(withACopy()), auOptions())
	if err != nil || st.Receipts != 4 || st.Lines != 3 || !slices.Equal(st.Duplicates, []int64{5}) {
		t.Fatalf("%+v %v", st, err)
	}
	for _, p := range []string{path, LinesPath(path)} {
		data, _ := os.ReadFile(p)
		recs, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r[0] == "5" {
				t.Errorf("%s has the copy: %v", filepath.Base(p), r)
			}
		}
	}
}

// An import file leaves the copy out with the reason, whether or not
// unconfirmed receipts are asked for, and its check passes it over.
func TestImportFileLeavesOutAMarkedCopy(t *testing.T) {
	b := auBooks()
	var rows []Coded
	for _, r := range withACopy() {
		if r.ID == 1 || r.ID == 5 {
			rows = append(rows, Coded{Row: r, Account: "6-1100"})
		}
	}
	for _, all := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "bills.csv")
		st, err := WritePreset(path, PresetXero, rows, PresetOptions{Books: b, IncludeUnconfirmed: all})
		if err != nil {
			t.Fatal(err)
		}
		if st.Receipts != 1 || st.Unconfirmed != 0 || !slices.Equal(st.Duplicates, []int64{5}) || len(st.LeftOut) != 1 ||
			st.LeftOut[0].Field != "duplicate" || !strings.Contains(st.LeftOut[0].String(), "receipt 5: marked as a copy of receipt 1") {
			t.Fatalf("all %v: stats %+v", all, st)
		}
		data, _ := os.ReadFile(path)
		if n := strings.Count(string(data), "Officeworks"); n != 1 {
			t.Errorf("all %v: the purchase is in the file %d times:\n%s", all, n, data)
		}
	}
	// Same supplier and invoice number as the original: not a problem, as
	// the copy never goes in.
	rows[0].Receipt.DocumentNumber, rows[1].Receipt.DocumentNumber = text("INV-1"), text("INV-1")
	if problems := Check(PresetXero, rows, PresetOptions{Books: b}); len(problems) != 0 {
		t.Errorf("the check looked at the copy: %v", problems)
	}
}
