package export

import (
	"encoding/csv"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"

	"github.com/shoebox-app/shoebox/receipt"
)

func amt(s string) receipt.Amount {
	return receipt.Of(decimal.RequireFromString(s), receipt.SourceUser, 1)
}

func text(s string) receipt.Text { return receipt.Of(s, receipt.SourceUser, 1) }

func sampleRows() []Row {
	au := receipt.Receipt{
		SupplierName:  text("Officeworks"),
		SupplierTaxID: receipt.Of(receipt.TaxID{Scheme: receipt.SchemeABN, Value: "51824753556"}, receipt.SourceUser, 1),
		Date:          receipt.Of(receipt.Date(2025, 7, 16), receipt.SourceUser, 1),
		Currency:      text("AUD"),
		Category:      text("Stationery"),
		Subtotal:      amt("110.00"),
		TotalTax:      amt("10.00"),
		TaxInclusive:  receipt.Of(true, receipt.SourceUser, 1),
		TaxLines:      []receipt.TaxLine{{Label: text("GST"), Rate: amt("10"), Net: amt("100.00"), Tax: amt("10.00")}},
		Total:         amt("110.00"),
		LineItems: []receipt.LineItem{
			{Description: text("Paper A4"), Quantity: amt("2"), UnitPrice: amt("27.50"), LineTotal: amt("55.00")},
			{Description: text("Pens"), Quantity: amt("1"), UnitPrice: amt("55.00"), LineTotal: amt("55.00")},
		},
	}
	au2 := receipt.Receipt{ // GST-free items and a tip beyond the tax line
		SupplierName: text("Cafe"), Date: receipt.Of(receipt.Date(2025, 8, 2), receipt.SourceModel, 0.4), Currency: text("AUD"),
		Category: text("Meals"), TotalTax: amt("1.00"), Tip: amt("2.00"), Total: amt("23.45"),
		TaxLines: []receipt.TaxLine{{Label: text("GST"), Rate: amt("10"), Net: amt("10.00"), Tax: amt("1.00")}},
	}
	my := receipt.Receipt{
		SupplierName: text("SOON HUAT MACHINERY ENTERPRISE"), Date: receipt.Of(receipt.Date(2025, 1, 11), receipt.SourceUser, 1),
		Currency: text("MYR"), Total: amt("327.00"),
	}
	hostile := receipt.Receipt{
		SupplierName: text(`=HYPERLINK("http://evil.example","click")`), DocumentNumber: text("@SUM(1+1)"),
		Category: text("-1+1"), Notes: text("+cmd"), Date: receipt.Of(receipt.Date(2025, 7, 20), receipt.SourceUser, 1),
		Currency: text("AUD"), Total: amt("5.00"),
		LineItems: []receipt.LineItem{{Description: text("\tTAB"), LineTotal: amt("5.00")}},
	}
	return []Row{
		{ID: 1, Status: "confirmed", Receipt: au, Original: "/lib/originals/ab/abc.jpg"},
		{ID: 2, Status: "needs_review", Receipt: au2, Findings: []receipt.Finding{{Code: "x", Severity: receipt.Warning, Message: "check the tip", Fields: []string{"tip"}}}},
		{ID: 3, Status: "confirmed", Receipt: my},
		{ID: 4, Status: "confirmed", Receipt: hostile},
	}
}

func auOptions() Options {
	return Options{Locale: receipt.DefaultLocale(receipt.CountryAU), SummaryBy: receipt.ByQuarter}
}

func writeSample(t *testing.T) (string, Stats) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tax.xlsx")
	st, err := WriteXLSX(path, slices.Values(sampleRows()), auOptions())
	if err != nil {
		t.Fatal(err)
	}
	return path, st
}

func TestWorkbookCells(t *testing.T) {
	path, st := writeSample(t)
	if st.Receipts != 4 || st.Lines != 3 {
		t.Fatalf("stats = %+v", st)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !slices.Equal(got, []string{SheetReceipts, SheetLines, SheetSummary}) {
		t.Fatalf("sheets = %v", got)
	}
	// Header
	if v, _ := f.GetCellValue(SheetReceipts, "J1"); v != "Total" {
		t.Errorf("J1 = %q", v)
	}
	// A real date: a number with a date format.
	if typ, _ := f.GetCellType(SheetReceipts, "B2"); typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
		t.Errorf("B2 type = %v, want a number", typ)
	}
	raw, _ := f.GetCellValue(SheetReceipts, "B2", excelize.Options{RawCellValue: true})
	if raw != "45854" { // 2025-07-16 as an Excel serial
		t.Errorf("B2 raw = %q, want serial 45854", raw)
	}
	if v, _ := f.GetCellValue(SheetReceipts, "B2"); v != "2025-07-16" {
		t.Errorf("B2 shows %q", v)
	}
	// Money: a number shown with its currency.
	if raw, _ := f.GetCellValue(SheetReceipts, "J2", excelize.Options{RawCellValue: true}); raw != "110" {
		t.Errorf("J2 raw = %q", raw)
	}
	if v, _ := f.GetCellValue(SheetReceipts, "J2"); v != "AUD 110.00" {
		t.Errorf("J2 shows %q, want AUD 110.00", v)
	}
	if v, _ := f.GetCellValue(SheetReceipts, "J4"); v != "MYR 327.00" {
		t.Errorf("J4 shows %q", v)
	}
	if v, _ := f.GetCellValue(SheetReceipts, "D2"); v != "ABN 51824753556" {
		t.Errorf("D2 = %q", v)
	}
	if v, _ := f.GetCellValue(SheetReceipts, "M3"); !strings.Contains(v, "check date (read with little certainty)") || !strings.Contains(v, "check the tip") {
		t.Errorf("flags = %q", v)
	}
	if fm, _ := f.GetCellFormula(SheetReceipts, "N2"); fm != `HYPERLINK("file:///lib/originals/ab/abc.jpg","abc.jpg")` {
		t.Errorf("N2 formula = %q", fm)
	}
	// Totals per currency, never mixed.
	rows, _ := f.GetRows(SheetReceipts)
	var totals []string
	for i, r := range rows {
		if len(r) > 2 && strings.HasPrefix(r[2], "Total ") {
			fm, _ := f.GetCellFormula(SheetReceipts, "J"+itoa(i+1))
			v, _ := f.GetCellValue(SheetReceipts, "J"+itoa(i+1))
			totals = append(totals, r[2]+"|"+fm+"|"+v)
			// The subtotal's and tax's sums are stored too, for viewers
			// that show a formula's stored value without recalculating.
			for _, col := range []string{"H", "I"} {
				if fm, _ := f.GetCellFormula(SheetReceipts, col+itoa(i+1)); fm != "" {
					if v, _ := f.GetCellValue(SheetReceipts, col+itoa(i+1)); v == "" {
						t.Errorf("%s%d holds %s with no stored value", col, i+1, fm)
					}
				}
			}
		}
	}
	want := []string{
		`Total AUD|SUMIF($G$2:$G$5,"AUD",J$2:J$5)|AUD 138.45`,
		`Total MYR|SUMIF($G$2:$G$5,"MYR",J$2:J$5)|MYR 327.00`,
	}
	if !slices.Equal(totals, want) {
		t.Errorf("totals = %v\nwant %v", totals, want)
	}
	// Frozen header and a filterable table.
	panes, _ := f.GetPanes(SheetReceipts)
	if !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("panes = %+v", panes)
	}
	tables, _ := f.GetTables(SheetReceipts)
	if len(tables) != 1 || tables[0].Range != "A1:S5" {
		t.Errorf("tables = %+v", tables)
	}
	// Line items
	if v, _ := f.GetCellValue(SheetLines, "D2"); v != "Paper A4" {
		t.Errorf("line D2 = %q", v)
	}
	if v, _ := f.GetCellValue(SheetLines, "G3"); v != "AUD 55.00" {
		t.Errorf("line G3 = %q", v)
	}
}

// A tax ID the OCR mended by its checksum comes at confidence 0.5: the
// row asks for it to be checked, as for the date or the total.
func TestFlagsAnUnsureTaxID(t *testing.T) {
	r := receipt.Receipt{
		SupplierName:  text("ACME PTY LTD"),
		SupplierTaxID: receipt.Of(receipt.TaxID{Scheme: receipt.SchemeABN, Value: "50008201062"}, receipt.SourceOCR, 0.5),
		Total:         amt("10.00"),
	}
	if got := flags(Row{Receipt: r}); !strings.Contains(got, "check supplier tax ID") {
		t.Errorf("flags %q", got)
	}
	r.SupplierTaxID.Confidence = 0.9
	if got := flags(Row{Receipt: r}); strings.Contains(got, "supplier tax ID") {
		t.Errorf("flags %q", got)
	}
}

func TestFlagsAnUnsureItemAmount(t *testing.T) {
	item := func(conf float64, src receipt.Source) receipt.LineItem {
		return receipt.LineItem{Description: text("HAMMER"), LineTotal: receipt.Of(decimal.RequireFromString("192.00"), src, conf)}
	}
	r := receipt.Receipt{SupplierName: text("ACME PTY LTD"), Total: amt("192.00"), LineItems: []receipt.LineItem{item(0.5, receipt.SourceOCR)}}
	if got := flags(Row{Receipt: r}); !strings.Contains(got, "check line items") {
		t.Errorf("flags %q", got)
	}
	r.LineItems[0] = item(0.5, receipt.SourceUser)
	if got := flags(Row{Receipt: r}); strings.Contains(got, "line items") {
		t.Errorf("a typed amount flagged: %q", got)
	}
}

func TestHostileTextIsNeutralised(t *testing.T) {
	path, _ := writeSample(t)
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for cell, want := range map[string]string{
		"C5": `'=HYPERLINK("http://evil.example","click")`,
		"E5": "'@SUM(1+1)",
		"F5": "'-1+1",
	} {
		v, _ := f.GetCellValue(SheetReceipts, cell)
		fm, _ := f.GetCellFormula(SheetReceipts, cell)
		typ, _ := f.GetCellType(SheetReceipts, cell)
		if v != want || fm != "" || (typ != excelize.CellTypeSharedString && typ != excelize.CellTypeInlineString) {
			t.Errorf("%s = %q (formula %q, type %v), want text %q", cell, v, fm, typ, want)
		}
	}
	if v, _ := f.GetCellValue(SheetLines, "D4"); v != "'\tTAB" {
		t.Errorf("tab-led description = %q", v)
	}
}

func TestTaxSummaryAgreesWithReceipts(t *testing.T) {
	path, _ := writeSample(t)
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _ := f.GetRows(SheetSummary, excelize.Options{RawCellValue: true})
	got := map[string][]string{}
	for _, r := range rows[1:] {
		if len(r) >= 8 {
			got[strings.Join(r[:5], "|")] = r[5:8]
		}
	}
	// Without the client's books the summary goes by the tax as printed
	// (tips, GST-free items and the hostile receipt's untaxed 5.00 as "no
	// tax"), its tax code column empty.
	want := map[string][]string{
		"AUD|FY2026-Q1||GST|0.1":  {"110", "11", "121"},
		"AUD|FY2026-Q1||no tax|0": {"17.45", "0", "17.45"},
		"MYR|FY2025-Q3||no tax|0": {"327", "0", "327"},
		"AUD|Total AUD|||":        {"127.45", "11", "138.45"},
		"AUD|Receipts sheet|||":   {"", "11", "138.45"},
	}
	for k, v := range want {
		if !slices.Equal(got[k], v) {
			t.Errorf("summary %s = %v, want %v", k, got[k], v)
		}
	}
	fm, _ := f.GetCellFormula(SheetSummary, "H4")
	if !strings.HasPrefix(fm, "SUM(H2:H") {
		t.Errorf("total formula = %q", fm)
	}
}

func TestCSV(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	opt := auOptions()
	opt.BOM = true
	st, err := WriteCSV(path, slices.Values(sampleRows()), opt)
	if err != nil || st.Receipts != 4 || st.Lines != 3 {
		t.Fatalf("%+v %v", st, err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "\ufeffID,Date,Supplier") {
		t.Errorf("no BOM/header: %q", data[:30])
	}
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(data), "\ufeff"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := recs[1][:10]; !slices.Equal(got, []string{"1", "2025-07-16", "Officeworks", "ABN 51824753556", "", "Stationery", "AUD", "110.00", "10.00", "110.00"}) {
		t.Errorf("row 1 = %v", got)
	}
	if recs[4][2] != `'=HYPERLINK("http://evil.example","click")` || recs[4][5] != "'-1+1" || recs[4][4] != "'@SUM(1+1)" {
		t.Errorf("hostile row = %v", recs[4])
	}
	lines, _ := os.ReadFile(LinesPath(path))
	if !strings.Contains(string(lines), "1,2025-07-16,Officeworks,Paper A4,2,27.50,55.00,,AUD") {
		t.Errorf("lines csv:\n%s", lines)
	}
}

func TestUnwritableDestination(t *testing.T) {
	if os.Geteuid() == 0 {
		// root ignores permissions; a missing folder shows the same path.
		_, err := WriteXLSX("/nonexistent-folder/x.xlsx", slices.Values(sampleRows()), auOptions())
		if err == nil || !strings.Contains(err.Error(), "cannot write in folder /nonexistent-folder: the folder does not exist") {
			t.Fatalf("err = %v", err)
		}
		return
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o500)
	_, err := WriteXLSX(filepath.Join(dir, "x.xlsx"), slices.Values(sampleRows()), auOptions())
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("err = %v", err)
	}
}

func TestFailedWriteKeepsOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tax.xlsx")
	os.WriteFile(path, []byte("old workbook"), 0o644)
	bad := func(yield func(Row) bool) {
		r := sampleRows()[0]
		r.Receipt.Currency = text("AUD")
		yield(r)
		panic("engine crashed mid-export")
	}
	func() {
		defer func() { recover() }()
		WriteXLSX(path, iter.Seq[Row](bad), auOptions())
	}()
	if data, _ := os.ReadFile(path); string(data) != "old workbook" {
		t.Fatalf("old file damaged: %q", data)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestNeutralize(t *testing.T) {
	for in, want := range map[string]string{"=1": "'=1", "+1": "'+1", "-1": "'-1", "@x": "'@x", "\tx": "'\tx", "\rx": "'\rx", "ok": "ok", "": "", "a=b": "a=b"} {
		if got := Neutralize(in); got != want {
			t.Errorf("Neutralize(%q) = %q, want %q", in, got, want)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// A net worked out from a rounded tax leaves a cent or so of the total
// over: that is rounding, not a tax-free row.
func TestTaxSummaryFoldsRoundingOfAWorkedOutNet(t *testing.T) {
	amt := func(s string) receipt.Amount {
		return receipt.Amount{Value: decimal.RequireFromString(s), Set: true}
	}
	r := receipt.Receipt{
		Date: receipt.Field[time.Time]{Value: receipt.Date(2025, 7, 16), Set: true}, Currency: receipt.Text{Value: "GBP", Set: true},
		Total: amt("87.49"), TotalTax: amt("14.58"),
		TaxLines: []receipt.TaxLine{{Label: receipt.Text{Value: "VAT", Set: true}, Rate: amt("20"), Tax: amt("14.58")}},
	}
	opt := auOptions()
	opt.Locale = receipt.DefaultLocale(receipt.CountryUK)
	s := newSummary(opt)
	s.add(Row{Receipt: r}, nil)
	var keys []string
	for k, v := range s.rows {
		keys = append(keys, fmt.Sprintf("%s %s%% net %s tax %s", k.Label, k.Rate, v.Net.StringFixed(2), v.Tax.StringFixed(2)))
	}
	if len(keys) != 1 || keys[0] != "VAT 20% net 72.91 tax 14.58" {
		t.Errorf("summary rows %q", keys)
	}
	// At the edge: tax 14.58 of a total up to 3 pence either side.
	r.Total = amt("87.45")
	s = newSummary(opt)
	s.add(Row{Receipt: r}, nil)
	if len(s.rows) != 1 {
		t.Errorf("3p of rounding made a row: %+v", s.rows)
	}
	// A real tax-free part stays apart.
	r.Total = amt("97.49")
	s = newSummary(opt)
	s.add(Row{Receipt: r}, nil)
	if len(s.rows) != 2 {
		t.Errorf("summary rows %+v", s.rows)
	}
}
