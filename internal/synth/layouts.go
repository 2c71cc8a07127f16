package synth

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// align says where a piece of text sits against its x.
type align int

const (
	left align = iota
	centre
	right
)

// piece is text placed on a row.
type piece struct {
	text  string
	x     int // left edge, centre or right edge, by align
	align align
	bold  bool
}

// sheet lays out rows of pieces in a proportional font.
type sheet struct {
	width   int
	rows    [][]piece
	size    float64
	lineGap int
}

func (s *sheet) row(ps ...piece) { s.rows = append(s.rows, ps) }
func (s *sheet) blank()          { s.rows = append(s.rows, nil) }

func (s *sheet) render() (image.Image, error) {
	faces := map[bool]font.Face{}
	for bold, ttf := range map[bool][]byte{false: goregular.TTF, true: gobold.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return nil, err
		}
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: s.size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, err
		}
		defer face.Close()
		faces[bold] = face
	}
	img := image.NewGray(image.Rect(0, 0, s.width, 50+s.lineGap*len(s.rows)))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	for i, ps := range s.rows {
		y := 40 + i*s.lineGap
		for _, p := range ps {
			face := faces[p.bold]
			w := font.MeasureString(face, p.text).Round()
			x := p.x
			switch p.align {
			case centre:
				x -= w / 2
			case right:
				x -= w
			}
			d := font.Drawer{Dst: img, Src: image.NewUniform(color.Black), Face: face, Dot: fixed.P(x, y)}
			d.DrawString(p.text)
		}
	}
	return img, nil
}

// renderCentred: bold centred header, items with their quantity below.
func renderCentred(r Receipt) (image.Image, error) {
	s := &sheet{width: 520, size: 21, lineGap: 32}
	mid, l, rt := s.width/2, 24, s.width-24
	s.row(piece{text: r.Supplier, x: mid, align: centre, bold: true})
	for _, a := range r.Address {
		s.row(piece{text: a, x: mid, align: centre})
	}
	if r.TaxID != "" {
		s.row(piece{text: r.TaxID, x: mid, align: centre})
	}
	s.blank()
	s.row(piece{text: "TAX INVOICE", x: mid, align: centre, bold: true})
	s.row(piece{text: "Date " + r.Date, x: l}, piece{text: r.Time, x: rt, align: right})
	s.blank()
	for _, it := range r.Items {
		s.row(piece{text: it.Desc, x: l}, piece{text: r.Money(int64(it.Qty) * it.UnitCents), x: rt, align: right})
		if it.Qty > 1 {
			s.row(piece{text: fmt.Sprintf("  %d @ %s", it.Qty, r.Money(it.UnitCents)), x: l})
		}
	}
	s.blank()
	sub, tax, total := r.Totals()
	if !r.Inclusive {
		s.row(piece{text: "Subtotal", x: l}, piece{text: r.Money(sub), x: rt, align: right})
		s.row(piece{text: fmt.Sprintf("%s %d%%", r.TaxLabel, r.TaxRate), x: l}, piece{text: r.Money(tax), x: rt, align: right})
	}
	s.row(piece{text: r.totalWord(), x: l, bold: true}, piece{text: r.Money(total), x: rt, align: right, bold: true})
	if r.Inclusive {
		s.row(piece{text: fmt.Sprintf("Includes %s %d%%", r.TaxLabel, r.TaxRate), x: l}, piece{text: r.Money(tax), x: rt, align: right})
	}
	if r.CashCents > 0 {
		s.row(piece{text: "Cash", x: l}, piece{text: r.Money(r.CashCents), x: rt, align: right})
		s.row(piece{text: "Change", x: l}, piece{text: r.Money(r.CashCents - total), x: rt, align: right})
	} else {
		s.row(piece{text: "Card", x: l}, piece{text: r.Money(total), x: rt, align: right})
	}
	s.blank()
	s.row(piece{text: "Thank you for shopping with us", x: mid, align: centre})
	return s.render()
}

// renderTable: header on the left, a column table, totals on the right.
func renderTable(r Receipt) (image.Image, error) {
	s := &sheet{width: 640, size: 19, lineGap: 29}
	l, rt := 24, s.width-24
	s.row(piece{text: r.Supplier, x: l, bold: true})
	for _, a := range r.Address {
		s.row(piece{text: a, x: l})
	}
	if r.TaxID != "" {
		s.row(piece{text: r.TaxID, x: l})
	}
	s.blank()
	s.row(piece{text: "TAX INVOICE", x: l, bold: true}, piece{text: "Date: " + r.Date, x: rt, align: right})
	if r.Time != "" {
		s.row(piece{text: "Time: " + r.Time, x: rt, align: right})
	}
	s.blank()
	qtyX, descX, priceX := l, l+60, rt-130
	s.row(piece{text: "QTY", x: qtyX, bold: true}, piece{text: "DESCRIPTION", x: descX, bold: true},
		piece{text: "PRICE", x: priceX, align: right, bold: true}, piece{text: "AMOUNT", x: rt, align: right, bold: true})
	for _, it := range r.Items {
		s.row(piece{text: fmt.Sprint(it.Qty), x: qtyX}, piece{text: it.Desc, x: descX},
			piece{text: r.Money(it.UnitCents), x: priceX, align: right}, piece{text: r.Money(int64(it.Qty) * it.UnitCents), x: rt, align: right})
	}
	s.blank()
	sub, tax, total := r.Totals()
	labelX := rt - 260
	if !r.Inclusive {
		s.row(piece{text: "SUBTOTAL", x: labelX}, piece{text: r.Money(sub), x: rt, align: right})
		s.row(piece{text: fmt.Sprintf("%s %d%%", r.TaxLabel, r.TaxRate), x: labelX}, piece{text: r.Money(tax), x: rt, align: right})
	} else {
		s.row(piece{text: fmt.Sprintf("%s %d%% INCL.", r.TaxLabel, r.TaxRate), x: labelX}, piece{text: r.Money(tax), x: rt, align: right})
	}
	s.row(piece{text: r.totalWord(), x: labelX, bold: true}, piece{text: r.Money(total), x: rt, align: right, bold: true})
	if r.CashCents > 0 {
		s.row(piece{text: "CASH", x: labelX}, piece{text: r.Money(r.CashCents), x: rt, align: right})
		s.row(piece{text: "CHANGE", x: labelX}, piece{text: r.Money(r.CashCents - total), x: rt, align: right})
	}
	return s.render()
}
