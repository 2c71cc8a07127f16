package export

import (
	"bufio"
	"encoding/csv"
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
// untrusted text neutralised. Both files are written atomically.
func WriteCSV(path string, rows iter.Seq[Row], opt Options) (Stats, error) {
	stats := Stats{}
	newCSV := func(w io.Writer, header []string) (*csv.Writer, *bufio.Writer) {
		bw := bufio.NewWriter(w)
		if opt.BOM {
			bw.WriteString("\ufeff")
		}
		cw := csv.NewWriter(bw)
		cw.Write(header)
		return cw, bw
	}
	done := func(cw *csv.Writer, bw *bufio.Writer) error {
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		return bw.Flush()
	}
	// Both files stream side by side; the line items file is renamed into
	// place just after the receipts file.
	err := fsutil.WriteAtomic(LinesPath(path), func(lw io.Writer) error {
		lcw, lbw := newCSV(lw, LineColumns)
		err := fsutil.WriteAtomic(path, func(w io.Writer) error {
			cw, bw := newCSV(w, ReceiptColumns)
			for row := range rows {
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
				cw.Write([]string{id, date, Neutralize(r.SupplierName.Value), Neutralize(taxIDText(r)), Neutralize(r.DocumentNumber.Value),
					Neutralize(r.Category.Value), cur, amountText(r.Subtotal, cur), tax, amountText(r.Total, cur),
					Neutralize(r.PaymentMethod.Value), row.Status, Neutralize(flags(row)), Neutralize(row.Original)})
				stats.Receipts++
				for _, li := range r.LineItems {
					qty := ""
					if li.Quantity.Set {
						qty = li.Quantity.Value.String()
					}
					lcw.Write([]string{id, date, Neutralize(r.SupplierName.Value), Neutralize(li.Description.Value), qty,
						amountText(li.UnitPrice, cur), amountText(li.LineTotal, cur), Neutralize(li.TaxCode.Value), cur})
					stats.Lines++
				}
			}
			return done(cw, bw)
		})
		if err != nil {
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
