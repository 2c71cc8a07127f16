package synth

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// cell is text on a row of a pack country's receipt, placed at a share of
// the printable width (0 the left edge, 1 the right).
type cell struct {
	text  string
	at    float64
	align align
	bold  bool
}

type row []cell

// tillWidth is a pack country's till roll in characters: wide enough for
// a four-column tax table.
const tillWidth = 40

// renderLocal prints a pack country's receipt in its layout.
func renderLocal(r Receipt) (image.Image, error) {
	rows := localRows(r)
	switch r.Layout {
	case Centred:
		return sheetOf(rows, 560, 21, 32).render()
	case Table:
		return sheetOf(rows, 680, 19, 29).render()
	}
	return renderTillRows(rows)
}

// localRows sets a pack country's receipt out: the header, the items, the
// total and payment, the tax table, the thanks.
func localRows(r Receipt) []row {
	l := r.Local
	var rows []row
	add := func(cs ...cell) { rows = append(rows, cs) }
	blank := func() { rows = append(rows, nil) }
	table := r.Layout == Table
	head := cell{at: 0.5, align: centre}
	if table {
		head = cell{at: 0, align: left}
	}
	with := func(c cell, text string, bold bool) cell { c.text, c.bold = text, bold; return c }
	add(with(head, r.Supplier, true))
	for _, a := range r.Address {
		add(with(head, a, false))
	}
	if r.TaxID != "" {
		add(with(head, r.TaxID, false))
	}
	blank()
	date := l.DateWord + ": " + r.Date
	if table {
		add(cell{text: l.Header, bold: true}, cell{text: date, at: 1, align: right})
		add(cell{text: r.Time, at: 1, align: right})
	} else {
		add(with(head, l.Header, true))
		add(cell{text: date}, cell{text: r.Time, at: 1, align: right})
	}
	blank()

	if table {
		add(cell{text: l.ItemHead[0], bold: true}, cell{text: l.ItemHead[1], at: 0.14, bold: true},
			cell{text: l.ItemHead[2], at: 0.75, align: right, bold: true}, cell{text: l.ItemHead[3], at: 1, align: right, bold: true})
		for _, it := range r.Items {
			add(cell{text: fmt.Sprint(it.Qty)}, cell{text: it.Desc, at: 0.14},
				cell{text: r.amount(it.UnitCents, false), at: 0.75, align: right},
				cell{text: r.amount(int64(it.Qty)*it.UnitCents, false), at: 1, align: right})
		}
	} else {
		amountAt := 1.0
		if l.Letters {
			amountAt = 0.94
		}
		for _, it := range r.Items {
			cs := row{{text: it.Desc}}
			if l.RateColumn {
				cs = append(cs, cell{text: r.rateText(r.Bands[it.Band]), at: 0.7, align: right})
			}
			cs = append(cs, cell{text: r.amount(int64(it.Qty)*it.UnitCents, false), at: amountAt, align: right})
			if l.Letters {
				cs = append(cs, cell{text: r.Bands[it.Band].Letter, at: 1, align: right})
			}
			if it.Qty > 1 {
				// German tills print the quantity above the item, others below.
				q := cell{text: fmt.Sprintf("  %d %s %s", it.Qty, languageWords[l.Lang].multi, r.amount(it.UnitCents, false))}
				if l.Lang == "de" {
					add(q)
					add(cs...)
				} else {
					add(cs...)
					add(q)
				}
				continue
			}
			add(cs...)
		}
	}
	if !table {
		add(cell{text: strings.Repeat("-", tillWidth)})
	} else {
		blank()
	}

	labelAt := 0.0
	if table {
		labelAt = 0.5
	}
	line := func(label string, cents int64, bold bool) {
		add(cell{text: label, at: labelAt, bold: bold}, cell{text: r.amount(cents, true), at: 1, align: right, bold: bold})
	}
	sub, tax, total := r.Totals()
	if !r.Inclusive {
		line(l.SubtotalWord, sub, false)
		for _, b := range r.BandSums() {
			add(cell{text: fmt.Sprintf("%s %s", l.TaxWord, r.rateText(b.Band)), at: labelAt}, cell{text: r.amount(b.Tax, false), at: 1, align: right})
		}
	}
	line(l.TotalWord, total, true)
	if l.OfWhichTax != "" {
		add(cell{text: l.OfWhichTax, at: labelAt}, cell{text: r.amount(tax, false), at: 1, align: right})
	}
	if r.CashCents > 0 {
		line(l.CashWord, r.CashCents, false)
		line(l.ChangeWord, r.CashCents-total, false)
	} else {
		line(l.CardWord, total, false)
	}

	if len(l.TableHead) > 0 {
		blank()
		cols := []float64{0, 0.62, 1}
		if len(l.TableHead) == 4 {
			cols = []float64{0, 0.45, 0.68, 1}
		}
		hr := row{{text: l.TableHead[0]}}
		for i, h := range l.TableHead[1:] {
			hr = append(hr, cell{text: h, at: cols[i+1], align: right})
		}
		add(hr...)
		for _, b := range r.BandSums() {
			rate := r.rateText(b.Band)
			if b.Letter != "" {
				rate = b.Letter + " " + rate
			}
			vals := []int64{b.Net, b.Tax, b.Gross}[:len(l.TableHead)-1]
			cs := row{{text: rate}}
			for i, v := range vals {
				cs = append(cs, cell{text: r.number(v), at: cols[i+1], align: right})
			}
			add(cs...)
		}
	}
	blank()
	add(cell{text: l.Thanks, at: 0.5, align: centre})
	return rows
}

// sheetOf places rows in a proportional font on a page px wide.
func sheetOf(rows []row, px int, size float64, gap int) *sheet {
	s := &sheet{width: px, size: size, lineGap: gap}
	margin := 24
	for _, cs := range rows {
		if len(cs) == 0 {
			s.blank()
			continue
		}
		var ps []piece
		for _, c := range cs {
			text := c.text
			if strings.Trim(text, "-") == "" && text != "" {
				continue // a till's rule is no line on a printed page
			}
			ps = append(ps, piece{text: text, x: margin + int(math.Round(c.at*float64(px-2*margin))), align: c.align, bold: c.bold})
		}
		if len(ps) == 0 {
			continue
		}
		s.row(ps...)
	}
	return s
}

// tillLine sets cells in a monospaced line of w characters, each at
// least one space from the one before.
func tillLine(cs row, w int) string {
	var buf []rune
	end := 0
	for _, c := range cs {
		t := []rune(c.text)
		pos := int(math.Round(c.at * float64(w)))
		start := pos
		switch c.align {
		case right:
			start = pos - len(t)
		case centre:
			start = pos - len(t)/2
		}
		if end > 0 && start < end+1 {
			start = end + 1
		}
		start = max(start, 0)
		for len(buf) < start+len(t) {
			buf = append(buf, ' ')
		}
		copy(buf[start:], t)
		end = start + len(t)
	}
	return strings.TrimRight(string(buf), " ")
}

// renderTillRows prints rows on a monospaced till roll.
func renderTillRows(rows []row) (image.Image, error) {
	f, err := opentype.Parse(gomono.TTF)
	if err != nil {
		return nil, err
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 22, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	defer face.Close()
	lines := make([]string, len(rows))
	longest := tillWidth
	for i, cs := range rows {
		lines[i] = tillLine(cs, tillWidth)
		longest = max(longest, len([]rune(lines[i])))
	}
	lh := 34
	img := image.NewGray(image.Rect(0, 0, 40+longest*14, 60+lh*len(lines)))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	d := font.Drawer{Dst: img, Src: image.NewUniform(color.Black), Face: face}
	for i, l := range lines {
		d.Dot = fixed.P(20, 40+i*lh)
		d.DrawString(l)
	}
	return img, nil
}

// LocalLines are a pack country's receipt as its till prints it, for
// tests and reading.
func LocalLines(r Receipt) []string {
	var out []string
	for _, cs := range localRows(r) {
		out = append(out, tillLine(cs, tillWidth))
	}
	return out
}
