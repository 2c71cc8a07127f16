package synth

import (
	"bytes"
	"fmt"
	"image"
	"strings"
)

// pdfWriter writes a small PDF of text pages in the standard Helvetica
// and Courier fonts (WinAnsi encoding, so the accents of the six invoice
// languages and € print), with one attached file the way Factur-X attaches
// its XML. Its text layer is what a PDF printed from an office program
// has: each string placed at its position, which pdftotext reads back.
type pdfWriter struct {
	pages      []*pdfPage
	attachName string
	attach     []byte
}

const (
	pageW, pageH = 595.0, 842.0 // A4 in points
	fontSans     = "F1"
	fontBold     = "F2"
	fontMono     = "F3"
)

type pdfPage struct {
	ops   bytes.Buffer
	image *image.Gray // a scanned page: the image fills it, and it has no text
}

func (w *pdfWriter) newPage() *pdfPage {
	p := &pdfPage{}
	w.pages = append(w.pages, p)
	return p
}

// text places s with its left edge at x, baseline y points from the top.
func (p *pdfPage) text(font string, size, x, y float64, s string) {
	fmt.Fprintf(&p.ops, "BT /%s %.1f Tf %.2f %.2f Td (%s) Tj ET\n", font, size, x, pageH-y, pdfString(s))
}

// right places s in Courier (every glyph 0.6 em wide) ending at x, as the
// amount columns of an invoice are set.
func (p *pdfPage) right(size, x, y float64, s string) {
	width := float64(len([]rune(s))) * 0.6 * size
	p.text(fontMono, size, x-width, y, s)
}

// rule draws a horizontal line, as tables and totals are underlined.
func (p *pdfPage) rule(x0, x1, y float64) {
	fmt.Fprintf(&p.ops, "0.5 w %.2f %.2f m %.2f %.2f l S\n", x0, pageH-y, x1, pageH-y)
}

// winAnsi maps the characters the invoices print outside Latin-1 to
// their WinAnsiEncoding codes.
var winAnsi = map[rune]byte{'€': 0x80, '‚': 0x82, '„': 0x84, '…': 0x85, '–': 0x96, '—': 0x97, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95}

func pdfString(s string) string {
	var b strings.Builder
	for _, r := range s {
		var c byte
		switch code, ok := winAnsi[r]; {
		case ok:
			c = code
		case r < 256:
			c = byte(r)
		default:
			c = '?'
		}
		switch c {
		case '(', ')', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			if c < 32 || c > 126 {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}

// bytes writes the PDF: catalogue, page tree, fonts, the attachment, then
// each page, with a cross-reference table of the objects' offsets.
func (w *pdfWriter) bytes() []byte {
	var out bytes.Buffer
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, out.Len())
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	out.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	// Objects 1–7 below; then per page its image (scans only), its content
	// stream and the page itself.
	var kids []string
	next := 8
	for _, p := range w.pages {
		if p.image != nil {
			next++
		}
		kids = append(kids, fmt.Sprintf("%d 0 R", next+1))
		next += 2
	}
	names := ""
	if w.attach != nil {
		names = fmt.Sprintf(" /Names << /EmbeddedFiles << /Names [(%s) 6 0 R] >> >> /AF [6 0 R]", pdfString(w.attachName))
	}
	obj("<< /Type /Catalog /Pages 2 0 R" + names + " >>")
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(w.pages)))
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>")
	obj(fmt.Sprintf("<< /Type /Filespec /F (%s) /UF (%s) /EF << /F 7 0 R >> /AFRelationship /Data >>", pdfString(w.attachName), pdfString(w.attachName)))
	obj(fmt.Sprintf("<< /Type /EmbeddedFile /Subtype /text#2Fxml /Length %d >>\nstream\n%s\nendstream", len(w.attach), w.attach))
	for _, p := range w.pages {
		if p.image != nil {
			// Pages of a scan: the image, then the content that draws it, then the page.
			data := grayStream(p.image)
			obj(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream",
				p.image.Rect.Dx(), p.image.Rect.Dy(), len(data), data))
			draw := fmt.Sprintf("q %.0f 0 0 %.0f 0 0 cm /Im1 Do Q", pageW, pageH)
			obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(draw), draw))
			obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.0f %.0f] /Resources << /XObject << /Im1 %d 0 R >> >> /Contents %d 0 R >>",
				pageW, pageH, len(offsets)-1, len(offsets)))
			continue
		}
		obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", p.ops.Len(), p.ops.Bytes()))
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.0f %.0f] /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R >> >> /Contents %d 0 R >>",
			pageW, pageH, len(offsets)))
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&out, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return out.Bytes()
}
