package export

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"strings"
	"time"

	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/receipt"
)

// LinesPath is where WriteCSV puts the line items beside receipts.csv:
// receipts.lines.csv.
func LinesPath(path string) string {
	if strings.HasSuffix(strings.ToLower(path), ".csv") {
		return path[:len(path)-4] + ".lines.csv"
	}
	return path + ".lines.csv"
}

// WriteCSV writes the Receipts table to path and the Line items table to
// LinesPath(path): UTF-8 (with a BOM if opt.BOM), ISO dates, dot decimals,
// untrusted text neutralised. Both files are written atomically. Receipts
// marked as duplicates are left out (Stats.Duplicates).
func WriteCSV(path string, rows iter.Seq[Row], opt Options) (Stats, error) {
	stats := Stats{}
	newCSV := func(w io.Writer, header []string) (cellWriter, *bufio.Writer) {
		bw := bufio.NewWriter(w)
		if opt.BOM {
			bw.WriteString("\ufeff")
		}
		cw := newCellWriter(bw)
		cw.Write(header)
		return cw, bw
	}
	done := func(cw cellWriter, bw *bufio.Writer) error {
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		return bw.Flush()
	}
	// Both files stream side by side and are put in place together: a
	// failure leaves the previous pair, never half of a new one.
	err := fsutil.WriteExportPair(path, LinesPath(path), func(w, lw io.Writer) error {
		cw, bw := newCSV(w, ReceiptColumns)
		lcw, lbw := newCSV(lw, LineColumns)
		for row := range rows {
			if row.isDuplicate() {
				stats.Duplicates = append(stats.Duplicates, row.ID)
				continue
			}
			r := &row.Receipt
			cur := currencyOf(r, opt.Locale)
			date := ""
			if r.Date.Set {
				date = r.Date.Value.Format(time.DateOnly)
			}
			id := ""
			if row.ID != 0 {
				id = fmt.Sprint(row.ID)
			}
			tax := ""
			if r.TotalTax.Set || len(r.TaxLines) > 0 {
				tax = taxOf(r).StringFixed(int32(receipt.MinorDigits(cur)))
			}
			account, taxCodes, _ := opt.booking(row)
			paidText, paidDay, paidLines := "", (*time.Time)(nil), ""
			if paidDay, paidLines = row.paidOn(); paidDay != nil {
				paidText = paidDay.Format(time.DateOnly)
			}
			cw.Write([]string{
				id, date, Neutralize(r.SupplierName.Value), Neutralize(taxIDText(r)), Neutralize(r.DocumentNumber.Value),
				Neutralize(r.Category.Value), Neutralize(cur), amountText(r.Subtotal, cur), tax, amountText(r.Total, cur),
				Neutralize(r.PaymentMethod.Value), StatusText(row.Status), Neutralize(flags(row)), Neutralize(row.FileName()), row.SHA256,
				Neutralize(account), Neutralize(strings.Join(taxCodes, ", ")), paidText, Neutralize(paidLines),
			})
			stats.Receipts++
			for _, li := range r.LineItems {
				qty := ""
				if li.Quantity.Set {
					qty = li.Quantity.Value.String()
				}
				lcw.Write([]string{
					id, date, Neutralize(r.SupplierName.Value), Neutralize(li.Description.Value), qty,
					amountText(li.UnitPrice, cur), amountText(li.LineTotal, cur), Neutralize(li.TaxCode.Value), Neutralize(cur),
				})
				stats.Lines++
			}
		}
		if err := done(cw, bw); err != nil {
			return err
		}
		return done(lcw, lbw)
	})
	return stats, err
}

func amountText(a receipt.Amount, cur string) string {
	if !a.Set {
		return ""
	}
	return a.Value.StringFixed(int32(receipt.MinorDigits(cur)))
}
