package ingest

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"strings"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/shoebox-app/shoebox/einvoice"
)

// EInvoice hands over the e-invoice a file carries: a bare CII or UBL XML
// file, or the XML attached to a Factur-X / ZUGFeRD / XRechnung PDF. It
// returns einvoice.ErrNoInvoiceInPDF for a PDF without one (read its pages
// instead), an error wrapping einvoice.ErrDamaged for a PDF that carries
// one which cannot be read (read its pages, and say so with
// einvoice.DamagedFinding), and a clear error for XML that is malformed,
// hostile or no invoice.
func EInvoice(ctx context.Context, f File) (*einvoice.Invoice, error) {
	switch f.Kind {
	case XML:
		return einvoice.Read(f.Path, einvoice.MaxXMLBytes)
	case PDF:
		return einvoice.Read(f.Path, 0)
	}
	return nil, einvoice.ErrNoInvoiceInPDF
}

// probeXML accepts a bare XML file only when it is an e-invoice Shoebox reads.
func probeXML(path string, size int64) error {
	if size > einvoice.MaxXMLBytes {
		return refuse(path, nil, "is an XML file of %s, over the %s limit for an e-invoice", humanBytes(size), humanBytes(einvoice.MaxXMLBytes))
	}
	if _, err := einvoice.Read(path, einvoice.MaxXMLBytes); err != nil {
		if errors.Is(err, einvoice.ErrNotInvoice) || errors.Is(err, einvoice.ErrHostile) {
			return refuse(path, err, "is an XML file but not an e-invoice Shoebox can read: %v", err)
		}
		return refuse(path, err, "is an e-invoice XML file that cannot be read: %v", err)
	}
	return nil
}

// loadXMLPage renders a bare e-invoice as a readable page: its text, typed
// out, so the review and the thumbnail have something to show.
func loadXMLPage(f File, index int) (Page, error) {
	p := Page{Index: index}
	inv, err := einvoice.Read(f.Path, einvoice.MaxXMLBytes)
	if err != nil {
		return p, refuse(f.Path, err, "is an e-invoice XML file that cannot be read: %v", err)
	}
	lines := inv.Text()
	var text bytes.Buffer
	for _, l := range lines {
		text.WriteString(l)
		text.WriteByte('\n')
	}
	p.Text = text.String()
	p.Image = typeset(lines)
	return p, nil
}

// typeset draws lines of text on a white page, twice the size of the
// built-in 7×13 font so it reads at a glance.
func typeset(lines []string) image.Image {
	const margin, lineH, cols = 16, 15, 100
	face := basicfont.Face7x13
	w := margin*2 + cols*7
	rows := 0
	for _, l := range lines {
		rows += 1 + max(0, len([]rune(l))-1)/(cols-4)
	}
	h := margin*2 + max(rows, 40)*lineH
	small := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(small, small.Bounds(), image.White, image.Point{}, draw.Src)
	d := font.Drawer{Dst: small, Src: image.NewUniform(color.Black), Face: face}
	row := 0
	for _, l := range lines {
		r := []rune(asciiFold(l))
		for {
			n := min(len(r), cols)
			d.Dot = fixed.P(margin, margin+(row+1)*lineH-3)
			d.DrawString(string(r[:n]))
			row++
			r = r[n:]
			if len(r) == 0 {
				break
			}
			r = append([]rune("    "), r...)
		}
	}
	big := image.NewRGBA(image.Rect(0, 0, w*2, h*2))
	xdraw.NearestNeighbor.Scale(big, big.Bounds(), small, small.Bounds(), xdraw.Src, nil)
	return big
}

// asciiFold spells the letters the built-in font lacks the way German and
// French write them without accents ("Lieferantenstraße" → "Lieferantenstrasse").
func asciiFold(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
			continue
		}
		if t, ok := foldTable[r]; ok {
			b.WriteString(t)
			continue
		}
		b.WriteByte('?')
	}
	return b.String()
}

var foldTable = map[rune]string{
	'ä': "ae", 'ö': "oe", 'ü': "ue", 'Ä': "Ae", 'Ö': "Oe", 'Ü': "Ue", 'ß': "ss",
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'å': "a", 'æ': "ae", 'ç': "c", 'è': "e", 'é': "e", 'ê': "e", 'ë': "e",
	'ì': "i", 'í': "i", 'î': "i", 'ï': "i", 'ñ': "n", 'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ø': "o", 'œ': "oe",
	'ù': "u", 'ú': "u", 'û': "u", 'ý': "y", 'ÿ': "y", 'À': "A", 'Á': "A", 'Â': "A", 'Ç': "C", 'È': "E", 'É': "E",
	'Ê': "E", 'Î': "I", 'Ñ': "N", 'Ó': "O", 'Ô': "O", 'Ø': "O", 'Ù': "U", 'Ú': "U", 'Û': "U",
	'€': "EUR", '£': "GBP", '×': "x", '–': "-", '—': "-", '’': "'", '‘': "'", '“': "\"", '”': "\"", '„': "\"", '°': "o", '\u00a0': " ",
}
