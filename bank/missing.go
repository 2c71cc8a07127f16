package bank

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/shoebox-app/shoebox/export"
	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/library"
)

// Report is what is missing for a period: money out with no receipt (the
// list the client is asked for), lines whose receipt is only proposed,
// and receipts no statement line paid (cash, or another account).
type Report struct {
	Period              string
	Missing             []library.StatementLine
	ToCheck             []library.StatementLine
	ReceiptsWithoutLine []library.MatchReceipt
}

// MissingReport gathers the report for [from, to) (zero: all).
func MissingReport(lib *library.Library, label string, from, to time.Time) (Report, error) {
	r := Report{Period: label}
	lines, err := lib.StatementLines(library.LineFilter{From: from, To: to})
	if err != nil {
		return r, err
	}
	for _, l := range lines {
		switch {
		case !l.Amount.IsNegative():
		case l.MatchState == library.MatchNone:
			r.Missing = append(r.Missing, l)
		case l.MatchState == library.MatchProposed:
			r.ToCheck = append(r.ToCheck, l)
		}
	}
	receipts, err := lib.MatchReceipts(from, to)
	if err != nil {
		return r, err
	}
	paid, err := lib.ReceiptsOnStatements()
	if err != nil {
		return r, err
	}
	for _, rc := range receipts {
		if !paid[rc.ID] && rc.Total.IsPositive() {
			r.ReceiptsWithoutLine = append(r.ReceiptsWithoutLine, rc)
		}
	}
	return r, nil
}

var (
	missingHeader     = []string{"Account", "Date", "Description", "Amount", "Currency", "Foreign amount", "Note"}
	withoutLineHeader = []string{"Receipt", "Date", "Supplier", "Total", "Currency"}
)

// missingRows are the lines the client is asked for: those whose receipt
// is only proposed are left for the bookkeeper to settle in Shoebox.
func (r Report) missingRows() [][]string {
	var rows [][]string
	add := func(l library.StatementLine, note string) {
		foreign := ""
		if l.OrigCurrency != "" {
			foreign = l.OrigCurrency + " " + l.OrigAmount.StringFixed(2)
		}
		rows = append(rows, []string{
			export.Neutralize(l.Account), l.Date.Format("2006-01-02"), export.Neutralize(l.Description),
			l.Amount.Abs().StringFixed(2), l.Currency, foreign, note,
		})
	}
	for _, l := range r.Missing {
		add(l, "no receipt")
	}
	return rows
}

func (r Report) withoutLineRows() [][]string {
	var rows [][]string
	for _, rc := range r.ReceiptsWithoutLine {
		rows = append(rows, []string{fmt.Sprint(rc.ID), rc.Date.Format("2006-01-02"), export.Neutralize(rc.Supplier), rc.Total.StringFixed(2), rc.Currency})
	}
	return rows
}

// Write saves the report: a workbook (.xlsx) with both lists on their own
// sheets, or CSV: the missing receipts in the named file and the receipts
// with no statement line beside it (NAME-not-on-statement.csv), written as
// a pair. The file is written whole or not at all.
func (r Report) Write(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx":
		return fsutil.WriteExport(path, r.writeXLSX)
	case ".csv":
		other := strings.TrimSuffix(path, filepath.Ext(path)) + "-not-on-statement.csv"
		return fsutil.WriteExportPair(path, other, func(a, b io.Writer) error {
			if err := writeCSV(a, missingHeader, r.missingRows()); err != nil {
				return err
			}
			return writeCSV(b, withoutLineHeader, r.withoutLineRows())
		})
	}
	return fmt.Errorf("%s: write the list as .csv or .xlsx", filepath.Base(path))
}

func writeCSV(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	return cw.WriteAll(rows) // flushes, and says the first error
}

// sheetWriter writes cells and keeps the first error, so a sheet is written
// in a few plain lines and still fails whole.
type sheetWriter struct {
	f   *excelize.File
	err error
}

func (s *sheetWriter) do(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *sheetWriter) style(st *excelize.Style) int {
	id, err := s.f.NewStyle(st)
	s.do(err)
	return id
}

func cellName(col, row int) string {
	c, _ := excelize.CoordinatesToCellName(col, row) // col, row >= 1
	return c
}

func (r Report) writeXLSX(w io.Writer) error {
	s := &sheetWriter{f: excelize.NewFile()}
	defer s.f.Close()
	first := "Missing receipts"
	s.do(s.f.SetSheetName("Sheet1", first))
	bold := s.style(&excelize.Style{Font: &excelize.Font{Bold: true}})
	title := s.style(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 14}})
	money := s.style(&excelize.Style{NumFmt: 2}) // 0.00
	sheet := func(name, heading string, header []string, rows [][]string, widths []float64) {
		if name != first {
			_, err := s.f.NewSheet(name)
			s.do(err)
		}
		s.do(s.f.SetCellStr(name, "A1", heading))
		s.do(s.f.SetCellStyle(name, "A1", "A1", title))
		for i, h := range header {
			s.do(s.f.SetCellStr(name, cellName(i+1, 3), h))
			s.do(s.f.SetCellStyle(name, cellName(i+1, 3), cellName(i+1, 3), bold))
		}
		for y, row := range rows {
			for x, v := range row {
				c := cellName(x+1, y+4)
				if header[x] == "Amount" || header[x] == "Total" {
					if n, err := strconv.ParseFloat(v, 64); err == nil {
						s.do(s.f.SetCellFloat(name, c, n, 2, 64)) // a number, to add up in the sheet
						s.do(s.f.SetCellStyle(name, c, c, money))
						continue
					}
				}
				s.do(s.f.SetCellStr(name, c, v))
			}
		}
		for i, wd := range widths {
			col, err := excelize.ColumnNumberToName(i + 1)
			s.do(err)
			s.do(s.f.SetColWidth(name, col, col, wd))
		}
		s.do(s.f.SetPageLayout(name, &excelize.PageLayoutOptions{Orientation: ptr("landscape"), FitToWidth: ptr(1)}))
	}
	period := r.Period
	if period == "" {
		period = "all statements"
	}
	sheet(first, fmt.Sprintf("Receipts we still need — %s (%d)", period, len(r.Missing)), missingHeader, r.missingRows(),
		[]float64{16, 12, 48, 12, 9, 16, 30})
	sheet("Not on a statement", fmt.Sprintf("Receipts no statement line paid — %s (%d)", period, len(r.ReceiptsWithoutLine)),
		withoutLineHeader, r.withoutLineRows(), []float64{10, 12, 40, 12, 9})
	if s.err != nil {
		return s.err
	}
	return s.f.Write(w)
}

func ptr[T any](v T) *T { return &v }
