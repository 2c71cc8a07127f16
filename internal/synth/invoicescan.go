package synth

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
)

// ScanPDF turns a printed invoice into a scanned one: each page rendered
// in grey at dpi by poppler's pdftoppm and put back as the page's only
// content, an image with no text layer, so a reader must read it as it
// would a scan; the attached XML stays, as the truth to score against.
func ScanPDF(pdf []byte, dpi int) ([]byte, error) {
	dir, err := os.MkdirTemp("", "shoebox-synth-scan-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "print.pdf")
	if err := os.WriteFile(src, pdf, 0o600); err != nil {
		return nil, err
	}
	if out, err := exec.Command("pdftoppm", "-gray", "-png", "-r", fmt.Sprint(dpi), src, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pdftoppm (poppler-utils) could not render the invoice: %w: %s", err, out)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "page*.png"))
	sort.Strings(pages)
	x, name, err := attachmentOf(pdf)
	if err != nil {
		return nil, err
	}
	w := &pdfWriter{attachName: name, attach: x}
	for _, p := range pages {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			return nil, err
		}
		g := image.NewGray(img.Bounds())
		draw.Draw(g, g.Bounds(), img, img.Bounds().Min, draw.Src)
		w.newPage().image = g
	}
	return w.bytes(), nil
}

// attachmentOf is the XML a PDF of ours carries.
func attachmentOf(pdf []byte) ([]byte, string, error) {
	start := bytes.Index(pdf, []byte("/Subtype /text#2Fxml"))
	if start < 0 {
		return nil, "", fmt.Errorf("the invoice carries no XML")
	}
	s := bytes.Index(pdf[start:], []byte("stream\n"))
	e := bytes.Index(pdf[start:], []byte("\nendstream"))
	return pdf[start+s+len("stream\n") : start+e], "factur-x.xml", nil
}

// grayStream is an image's pixels, deflated, as a PDF image stream holds them.
func grayStream(g *image.Gray) []byte {
	var b bytes.Buffer
	zw := zlib.NewWriter(&b)
	for y := g.Rect.Min.Y; y < g.Rect.Max.Y; y++ {
		i := g.PixOffset(g.Rect.Min.X, y)
		_, _ = zw.Write(g.Pix[i : i+g.Rect.Dx()]) // into a bytes.Buffer: cannot fail
	}
	_ = zw.Close()
	return b.Bytes()
}
