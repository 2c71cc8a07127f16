package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// croppedPDF writes a one-page PDF with the given MediaBox and CropBox sides
// in points.
func croppedPDF(t *testing.T, media, crop [2]int) string {
	t.Helper()
	content := "0 0 m 10 10 l S"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /CropBox [0 0 %d %d] /Contents 4 0 R >>", media[0], media[1], crop[0], crop[1]),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
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
	p := filepath.Join(t.TempDir(), "cropped.pdf")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Issue 38 item 6: a 630-byte PDF with a 7000-pt MediaBox and a small
// CropBox passed the page-size guard, which read pdfinfo's page size (the
// CropBox), while pdftoppm rendered the MediaBox (1.49 GB at 7000 pt). The
// guard and the renderer must use the same box: the CropBox, the page a
// PDF viewer shows.
func TestCropBoxIsTheBoxGuardedAndRendered(t *testing.T) {
	if _, err := os.Stat("/usr/bin/pdftoppm"); err != nil {
		t.Skip("poppler-utils not installed")
	}
	ctx := context.Background()
	lim := DefaultLimits()
	for _, media := range []int{7000, 9000} {
		p := croppedPDF(t, [2]int{media, media}, [2]int{216, 600}) // a 7.6×21 cm receipt
		f, err := Probe(ctx, p, lim)
		if err != nil {
			t.Fatalf("%d pt MediaBox: %v", media, err)
		}
		page, err := LoadPage(ctx, f, 0, lim)
		if err != nil {
			t.Fatalf("%d pt MediaBox: %v", media, err)
		}
		b := page.Image.Bounds()
		wantW, wantH := 216*lim.PDFDPI/72, 600*lim.PDFDPI/72
		if b.Dx() < wantW-2 || b.Dx() > wantW+2 || b.Dy() < wantH-2 || b.Dy() > wantH+2 {
			t.Errorf("%d pt MediaBox: rendered %v, want the CropBox's %d×%d", media, b, wantW, wantH)
		}
	}
	// A CropBox larger than the MediaBox is cut to it (PDF 32000 14.11.2).
	p := croppedPDF(t, [2]int{216, 600}, [2]int{9000, 9000})
	f, err := Probe(ctx, p, lim)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPage(ctx, f, 0, lim); err != nil {
		t.Fatal(err)
	}
	// A huge CropBox on a huge MediaBox is still refused.
	p = croppedPDF(t, [2]int{9000, 9000}, [2]int{8000, 8000})
	if _, err := Probe(ctx, p, lim); err == nil {
		t.Error("an 8000-pt CropBox was accepted")
	}
}
