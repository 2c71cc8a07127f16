package export

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// A receipt the bank statement paid shows the bank's date and the
// statement line in the workbook and the CSV (issue 44); an unpaid one
// leaves both empty.
func TestWorkbookAndCSVShowTheStatementLineThatPaid(t *testing.T) {
	rows := sampleRows()
	rows[0].Paid = []Payment{
		{Date: time.Date(2025, 7, 18, 0, 0, 0, 0, time.UTC), Line: "Visa: OFFICEWORKS 0412 SYDNEY (ref 88812)"},
		{Date: time.Date(2025, 7, 19, 0, 0, 0, 0, time.UTC), Line: "Visa: OFFICEWORKS part 2"},
	}
	dir := t.TempDir()
	xlsx := filepath.Join(dir, "tax.xlsx")
	if _, err := WriteXLSX(xlsx, slices.Values(rows), auOptions()); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(xlsx)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for cell, want := range map[string]string{
		"R1": "Paid on (bank)", "S1": "Statement line",
		"R2": "2025-07-18", "S2": "Visa: OFFICEWORKS 0412 SYDNEY (ref 88812); Visa: OFFICEWORKS part 2",
		"R3": "", "S3": "",
	} {
		if v, _ := f.GetCellValue(SheetReceipts, cell); v != want {
			t.Errorf("%s = %q, want %q", cell, v, want)
		}
	}
	path := filepath.Join(dir, "tax.csv")
	if _, err := WriteCSV(path, slices.Values(rows), auOptions()); err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0]
	at := slices.Index(head, "Paid on (bank)")
	if at < 0 || recs[1][at] != "2025-07-18" || recs[1][at+1] == "" || recs[2][at] != "" {
		t.Errorf("CSV header %q, first rows %q / %q", head, recs[1], recs[2])
	}
}
