// Package synth makes synthetic receipts with known ground truth, for tests
// and measurements of the engines on layouts and fields SROIE does not
// label (tax lines, line items, tax numbers, other countries' formats):
// Generate draws a receipt from a seed and a country, Render prints it in
// its Layout, and Degrade (with PhonePhoto) spoils it as a phone photo
// would. Text is set in the Go fonts, so no font files are needed.
package synth

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Item is one purchased line.
type Item struct {
	Desc      string
	Qty       int
	UnitCents int64
	Band      int // index into Receipt.Bands, where the receipt has several rates
}

// Receipt is what a synthetic receipt says; Render prints it.
type Receipt struct {
	Supplier  string
	Address   []string
	TaxID     string // printed as given, e.g. "ABN 51 824 753 556"
	Date      string // printed as given, e.g. "16/07/2025"
	Items     []Item
	TaxLabel  string // "GST", "VAT"
	TaxRate   int    // percent
	Inclusive bool   // prices include tax (AU, UK) or tax is added (US)
	Currency  string // symbol printed before amounts
	Comma     bool   // decimal comma (EU)

	Layout    Layout
	TotalWord string // the total line's label; "" is TOTAL
	Time      string // printed beside the date when set, e.g. "14:32"
	ISODate   string // the date as YYYY-MM-DD, for labels
	CashCents int64  // cash handed over (0: paid by card); change is printed

	// Bands are the tax rates of a receipt with several (a pack country's);
	// nil: TaxRate is the one rate.
	Bands []Band
	// Local is how a pack country's receipt prints (its language, formats
	// and tax table); nil prints the English receipt.
	Local *Local
	// ISOCurrency is the receipt's currency as eval labels it ("EUR").
	ISOCurrency string
	// TaxIDLabel is the tax ID as a reader should give it, where it is
	// printed otherwise ("P.IVA 01234567890" is IT01234567890); used on
	// pack countries' receipts, where "" leaves it unlabelled.
	TaxIDLabel string
}

// Layout is how a receipt is set out on paper.
type Layout int

const (
	// Till is a monospaced till roll, one column, amounts padded right.
	Till Layout = iota
	// Centred is a proportional font, a bold centred header, quantities on a
	// second line under their item ("2 @ 6.50").
	Centred
	// Table is a proportional font, the header on the left, a QTY /
	// DESCRIPTION / PRICE / AMOUNT table and a right-hand totals block.
	Table
	layoutCount
)

func (l Layout) String() string {
	return [...]string{"till", "centred", "table", "?"}[min(int(l), 3)]
}

// Money formats cents as the receipt prints them.
func (r Receipt) Money(cents int64) string {
	s := fmt.Sprintf("%d.%02d", cents/100, cents%100)
	if r.Comma {
		s = strings.Replace(s, ".", ",", 1)
	}
	return r.Currency + s
}

// Totals are the receipt's sums in cents.
func (r Receipt) Totals() (subtotal, tax, total int64) {
	if len(r.Bands) > 0 {
		for _, b := range r.BandSums() {
			tax += b.Tax
			if r.Inclusive {
				subtotal += b.Gross
			} else {
				subtotal += b.Net
			}
		}
		total = subtotal
		if !r.Inclusive {
			total += tax
		}
		return subtotal, tax, total
	}
	for _, it := range r.Items {
		subtotal += int64(it.Qty) * it.UnitCents
	}
	if r.Inclusive {
		total = subtotal
		tax = (total*int64(r.TaxRate) + (100+int64(r.TaxRate))/2) / (100 + int64(r.TaxRate))
		return
	}
	tax = (subtotal*int64(r.TaxRate) + 50) / 100
	return subtotal, tax, subtotal + tax
}

// Lines are the receipt's text lines, top to bottom.
func (r Receipt) Lines() []string {
	var out []string
	out = append(out, r.Supplier)
	out = append(out, r.Address...)
	if r.TaxID != "" {
		out = append(out, r.TaxID)
	}
	out = append(out, "TAX INVOICE", "Date: "+r.Date+r.timeSuffix(), "")
	for _, it := range r.Items {
		line := int64(it.Qty) * it.UnitCents
		out = append(out, pad(fmt.Sprintf("%d x %s", it.Qty, it.Desc), r.Money(line)))
	}
	sub, tax, total := r.Totals()
	out = append(out, "")
	if !r.Inclusive {
		out = append(out, pad("SUBTOTAL", r.Money(sub)))
		out = append(out, pad(fmt.Sprintf("%s %d%%", r.TaxLabel, r.TaxRate), r.Money(tax)))
		out = append(out, pad(r.totalWord(), r.Money(total)))
	} else {
		out = append(out, pad(r.totalWord(), r.Money(total)))
		out = append(out, pad(fmt.Sprintf("%s included %d%%", r.TaxLabel, r.TaxRate), r.Money(tax)))
	}
	if r.CashCents > 0 {
		out = append(out, pad("CASH", r.Money(r.CashCents)), pad("CHANGE", r.Money(r.CashCents-total)))
	}
	out = append(out, "", "THANK YOU")
	return out
}

const width = 34 // characters per printed line

func pad(left, right string) string {
	n := width - len(left) - len(right)
	if n < 1 {
		n = 1
	}
	return left + strings.Repeat(" ", n) + right
}

func (r Receipt) totalWord() string {
	if r.TotalWord == "" {
		return "TOTAL"
	}
	return r.TotalWord
}

func (r Receipt) timeSuffix() string {
	if r.Time == "" {
		return ""
	}
	return "  " + r.Time
}

// Render prints the receipt in its layout, black on white, at about the
// size of a 200 dpi scan.
func Render(r Receipt) (image.Image, error) {
	if r.Local != nil {
		return renderLocal(r)
	}
	switch r.Layout {
	case Centred:
		return renderCentred(r)
	case Table:
		return renderTable(r)
	}
	return renderTill(r)
}

// renderTill prints Lines in a monospaced font.
func renderTill(r Receipt) (image.Image, error) {
	f, err := opentype.Parse(gomono.TTF)
	if err != nil {
		return nil, err
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 22, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	defer face.Close()
	lines := r.Lines()
	lh := 34
	img := image.NewGray(image.Rect(0, 0, 40+width*14, 60+lh*len(lines)))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	d := font.Drawer{Dst: img, Src: image.NewUniform(color.Black), Face: face}
	for i, l := range lines {
		d.Dot = fixed.P(20, 40+i*lh)
		d.DrawString(l)
	}
	return img, nil
}
