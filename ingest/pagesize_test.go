package ingest

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// minimalPDF writes a PDF whose pages have the given sizes in points and
// draw one line each.
func minimalPDF(t *testing.T, sizes ...[2]int) string {
	t.Helper()
	var objs []string
	kids := ""
	n := len(sizes)
	for i := range sizes {
		kids += fmt.Sprintf("%d 0 R ", 3+2*i)
	}
	objs = append(objs, "<< /Type /Catalog /Pages 2 0 R >>", fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids, n))
	for i, s := range sizes {
		content := "0 0 m 10 10 l S"
		objs = append(objs, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R >>", s[0], s[1], 4+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content))
	}
	var b strings.Builder
	b.WriteString("%PDF-1.4\n")
	var offsets []int
	for i, o := range objs {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	p := filepath.Join(t.TempDir(), "page.pdf")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A tiny PDF with a huge page must be refused before it is rendered: at
// 7000 pt it would be 378 megapixels; at 10000 pt pdftoppm gives 1×1.
func TestHugePDFPageIsRefusedNotRendered(t *testing.T) {
	if _, err := os.Stat("/usr/bin/pdfinfo"); err != nil {
		t.Skip("poppler-utils not installed")
	}
	ctx := context.Background()
	lim := DefaultLimits()
	for _, side := range []int{7000, 10000} {
		p := minimalPDF(t, [2]int{side, side})
		if _, err := Probe(ctx, p, lim); err == nil {
			t.Errorf("%d pt page: accepted at import", side)
		}
		// Rendering itself refuses too (a library imported before the check).
		if _, err := renderPDFPage(ctx, p, 0, lim.PDFDPI, lim); err == nil {
			t.Errorf("%d pt page: rendered", side)
		}
	}
	// Only the large second page of a normal first page is caught.
	p := minimalPDF(t, [2]int{595, 842}, [2]int{7000, 7000})
	_, err := Probe(ctx, p, lim)
	if err == nil || !strings.Contains(err.Error(), "page 2") {
		t.Errorf("second page: %v", err)
	}
	// An A4 page still renders.
	p = minimalPDF(t, [2]int{595, 842})
	f, err := Probe(ctx, p, lim)
	if err != nil {
		t.Fatal(err)
	}
	page, err := LoadPage(ctx, f, 0, lim)
	if err != nil || page.Image.Bounds().Dx() < 1000 {
		t.Fatalf("A4: %v", err)
	}
}

// Pages larger than the engines need are handed on shrunk (images) or
// rendered at a lower resolution (PDFs), so two large pages read side by
// side stay within bounded memory.
func TestLargePagesAreHandedOnAtWorkingSize(t *testing.T) {
	ctx := context.Background()
	lim := DefaultLimits()
	lim.WorkPixels = 2_000_000
	// A 16-bit PNG of 3000×2000 (6 MP; 48 MB decoded).
	img := image.NewNRGBA64(image.Rect(0, 0, 3000, 2000))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	p := filepath.Join(t.TempDir(), "big16.png")
	fh, _ := os.Create(p)
	png.Encode(fh, img)
	fh.Close()
	f, err := Probe(ctx, p, lim)
	if err != nil {
		t.Fatal(err)
	}
	page, err := LoadPage(ctx, f, 0, lim)
	if err != nil {
		t.Fatal(err)
	}
	b := page.Image.Bounds()
	if b.Dx()*b.Dy() > lim.WorkPixels || b.Dx() < 1500 {
		t.Errorf("16-bit PNG handed on at %v", b)
	}
	if _, ok := page.Image.(*image.NRGBA64); ok {
		t.Error("still 16 bits a channel")
	}
	if _, err := os.Stat("/usr/bin/pdfinfo"); err != nil {
		return
	}
	pdf := minimalPDF(t, [2]int{2000, 2000}) // 30 MP at 200 dpi: allowed, not needed
	f, err = Probe(ctx, pdf, lim)
	if err != nil {
		t.Fatal(err)
	}
	page, err = LoadPage(ctx, f, 0, lim)
	if err != nil {
		t.Fatal(err)
	}
	if b := page.Image.Bounds(); b.Dx()*b.Dy() > lim.WorkPixels || b.Dx() < 1000 {
		t.Errorf("large PDF page rendered at %v", b)
	}
}
