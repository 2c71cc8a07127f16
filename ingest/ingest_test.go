package ingest

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

var ctx = context.Background()

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// marked returns a w×h image, white with a red pixel at the top-left corner,
// so tests can see where orientation moved it.
func marked(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for y := 0; y < 4; y++ {
		for x := 0; x < 4; x++ {
			img.Set(x, y, color.NRGBA{0xff, 0, 0, 0xff})
		}
	}
	return img
}

func encodeJPEG(t *testing.T, img image.Image) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withOrientation inserts an EXIF APP1 segment carrying Orientation o.
func withOrientation(data []byte, o uint16) []byte {
	var tiffHdr bytes.Buffer
	tiffHdr.WriteString("MM\x00*")
	binary.Write(&tiffHdr, binary.BigEndian, uint32(8))
	binary.Write(&tiffHdr, binary.BigEndian, uint16(1))           // one entry
	binary.Write(&tiffHdr, binary.BigEndian, []uint16{0x0112, 3}) // tag, SHORT
	binary.Write(&tiffHdr, binary.BigEndian, uint32(1))           // count
	binary.Write(&tiffHdr, binary.BigEndian, []uint16{o, 0})      // value
	binary.Write(&tiffHdr, binary.BigEndian, uint32(0))           // next IFD
	seg := append([]byte("Exif\x00\x00"), tiffHdr.Bytes()...)
	app1 := []byte{0xFF, 0xE1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)}
	out := append([]byte{}, data[:2]...)
	out = append(out, app1...)
	out = append(out, seg...)
	return append(out, data[2:]...)
}

// pngHeaderOnly is a PNG signature and IHDR chunk claiming w×h pixels.
func pngHeaderOnly(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	binary.Write(&b, binary.BigEndian, uint32(13))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// textPDF builds a one-page PDF with a text layer, by hand.
func textPDF(lines ...string) []byte {
	var content strings.Builder
	content.WriteString("BT /F1 12 Tf 40 360 Td 14 TL\n")
	for _, l := range lines {
		fmt.Fprintf(&content, "(%s) Tj T*\n", l)
	}
	content.WriteString("ET")
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", content.Len(), content.String()),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

func TestSniff(t *testing.T) {
	tests := []struct {
		head []byte
		want Kind
	}{
		{[]byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, JPEG},
		{[]byte("\x89PNG\r\n\x1a\n........"), PNG},
		{[]byte("RIFF\x00\x00\x00\x00WEBPVP8 "), WebP},
		{[]byte("II*\x00\x08\x00\x00\x00........"), TIFF},
		{[]byte("MM\x00*\x00\x00\x00\x08........"), TIFF},
		{[]byte("BM\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), BMP},
		{[]byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00"), HEIC},
		{[]byte("\x00\x00\x00\x18ftypmif1\x00\x00\x00\x00"), HEIC},
		{[]byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n...."), PDF},
	}
	for _, tt := range tests {
		if got, err := Sniff(tt.head); err != nil || got != tt.want {
			t.Errorf("Sniff(%q) = %q, %v; want %q", tt.head[:8], got, err, tt.want)
		}
	}
	if _, err := Sniff([]byte("hello, this is just a text file")); !errors.Is(err, ErrUnsupported) {
		t.Errorf("text sniffed as a supported kind: %v", err)
	}
}

func TestProbeRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := encodeJPEG(t, marked(40, 60))
	tests := []struct {
		name   string
		data   []byte
		reason string // a part of the refusal's reason
		atLoad bool   // may pass Probe and be refused by LoadPage
	}{
		{"empty.jpg", nil, "is empty (0 bytes)", false},
		{"notes.pdf", []byte("Dear accountant,\nplease find attached...\n"), "not a receipt Shoebox can open (JPEG, PNG, WebP, TIFF, BMP, HEIC, PDF or an e-invoice XML): it holds plain text", false},
		{"bomb.png", pngHeaderOnly(20000, 20000), "20000×20000 pixels (400 megapixels), over the 80-megapixel limit", false},
		{"broken.pdf", []byte("%PDF-1.4\n1 0 obj\n<< garbage"), "is a damaged PDF", false},
		{"truncated.jpg", good[:len(good)/2], "is a damaged jpeg image", true},
		{"garbled.png", append(pngHeaderOnly(10, 10), []byte("IDATnonsense")...), "is a damaged png image", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, dir, tt.name, tt.data)
			f, err := Probe(ctx, p, DefaultLimits())
			if !tt.atLoad {
				var r *Refusal
				if !errors.As(err, &r) || !strings.Contains(r.Error(), tt.reason) || !strings.HasPrefix(r.Error(), tt.name+": ") {
					t.Fatalf("Probe error = %v, want a refusal containing %q", err, tt.reason)
				}
				return
			}
			if err == nil { // a damaged body may pass the header checks
				_, err = LoadPage(ctx, f, 0, DefaultLimits())
			}
			var r *Refusal
			if !errors.As(err, &r) || !strings.Contains(r.Error(), tt.reason) {
				t.Fatalf("LoadPage error = %v, want a refusal containing %q", err, tt.reason)
			}
		})
	}
}

func TestPDFPageLimit(t *testing.T) {
	p := writeFile(t, t.TempDir(), "one.pdf", textPDF("hello"))
	lim := DefaultLimits()
	lim.MaxPDFPages = 0
	if _, err := Probe(ctx, p, lim); err != nil {
		t.Fatalf("no limit: %v", err)
	}
	// A two-page document against a limit of one: build it from two copies of the page.
	two := bytes.Replace(textPDF("a"), []byte("/Kids [3 0 R] /Count 1"), []byte("/Kids [3 0 R 3 0 R] /Count 2"), 1)
	p2 := writeFile(t, t.TempDir(), "two.pdf", two)
	lim.MaxPDFPages = 1
	_, err := Probe(ctx, p2, lim)
	if err == nil || !strings.Contains(err.Error(), "PDF of 2 pages, over the limit of 1") {
		t.Fatalf("want a page-limit refusal, got %v", err)
	}
}

func TestPDFTextLayerAndRender(t *testing.T) {
	p := writeFile(t, t.TempDir(), "emailed.pdf", textPDF("ACME PTY LTD", "TOTAL 12.50"))
	f, err := Probe(ctx, p, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != PDF || f.Pages != 1 {
		t.Fatalf("probe = %+v", f)
	}
	page, err := LoadPage(ctx, f, 0, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.Text, "ACME PTY LTD") || !strings.Contains(page.Text, "TOTAL 12.50") {
		t.Errorf("text layer = %q", page.Text)
	}
	// 300×400 pt at 200 dpi
	if b := page.Image.Bounds(); b.Dx() < 833 || b.Dx() > 834 || b.Dy() < 1111 || b.Dy() > 1112 {
		t.Errorf("rendered %v, want about 833×1111", b)
	}
	if _, err := LoadPage(ctx, f, 1, DefaultLimits()); err == nil {
		t.Error("page 2 of a one-page PDF loaded")
	}
}

func TestFormatsDecode(t *testing.T) {
	dir := t.TempDir()
	img := marked(30, 20)
	var pngB, tifB, bmpB bytes.Buffer
	png.Encode(&pngB, img)
	tiff.Encode(&tifB, img, nil)
	bmp.Encode(&bmpB, img)
	files := map[string][]byte{"a.png": pngB.Bytes(), "b.tif": tifB.Bytes(), "c.bmp": bmpB.Bytes(), "d.jpg": encodeJPEG(t, img)}
	for name, data := range files {
		p := writeFile(t, dir, name, data)
		f, err := Probe(ctx, p, DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		page, err := LoadPage(ctx, f, 0, DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := page.Image.Bounds(); b.Dx() != 30 || b.Dy() != 20 || f.Width != 30 {
			t.Errorf("%s: bounds %v, probe %dx%d", name, b, f.Width, f.Height)
		}
	}
}

func TestHEIC(t *testing.T) {
	if _, err := exec.LookPath("heif-enc"); err != nil {
		t.Skip("heif-enc not installed")
	}
	dir := t.TempDir()
	src := writeFile(t, dir, "src.png", func() []byte { var b bytes.Buffer; png.Encode(&b, marked(64, 48)); return b.Bytes() }())
	out := filepath.Join(dir, "photo.heic")
	if msg, err := exec.Command("heif-enc", "-q", "90", src, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("heif-enc: %v %s", err, msg)
	}
	f, err := Probe(ctx, out, DefaultLimits())
	if err != nil || f.Kind != HEIC {
		t.Fatalf("probe: %+v %v", f, err)
	}
	page, err := LoadPage(ctx, f, 0, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if b := page.Image.Bounds(); b.Dx() != 64 || b.Dy() != 48 {
		t.Errorf("decoded %v", b)
	}
}

func TestEXIFOrientation(t *testing.T) {
	// The stored image is 40 wide, 20 high with the mark at its top-left.
	data := encodeJPEG(t, marked(40, 20))
	tests := []struct {
		o            uint16
		w, h         int
		markX, markY int // where the mark must end up
	}{
		{1, 40, 20, 0, 0},
		{3, 40, 20, 39, 19},
		{6, 20, 40, 19, 0}, // camera held rotated: turn 90° clockwise
		{8, 20, 40, 0, 39},
		{2, 40, 20, 39, 0},
	}
	for _, tt := range tests {
		p := writeFile(t, t.TempDir(), "photo.jpg", withOrientation(data, tt.o))
		f, err := Probe(ctx, p, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		page, err := LoadPage(ctx, f, 0, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		b := page.Image.Bounds()
		if b.Dx() != tt.w || b.Dy() != tt.h {
			t.Errorf("orientation %d: %dx%d, want %dx%d", tt.o, b.Dx(), b.Dy(), tt.w, tt.h)
			continue
		}
		r, g, _, _ := page.Image.At(tt.markX, tt.markY).RGBA()
		if r>>8 < 200 || g>>8 > 80 {
			t.Errorf("orientation %d: mark not at (%d,%d)", tt.o, tt.markX, tt.markY)
		}
	}
	// The original bytes are never changed.
	p := writeFile(t, t.TempDir(), "keep.jpg", withOrientation(data, 6))
	before, _ := os.ReadFile(p)
	f, _ := Probe(ctx, p, DefaultLimits())
	LoadPage(ctx, f, 0, DefaultLimits())
	after, _ := os.ReadFile(p)
	if !bytes.Equal(before, after) {
		t.Error("LoadPage changed the original file")
	}
}

func TestWalk(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "2025", "july"), 0o755)
	os.MkdirAll(filepath.Join(dir, ".hidden"), 0o755)
	writeFile(t, dir, "b.jpg", []byte("x"))
	writeFile(t, filepath.Join(dir, "2025", "july"), "a.png", []byte("x"))
	writeFile(t, filepath.Join(dir, ".hidden"), "c.jpg", []byte("x"))
	writeFile(t, dir, ".DS_Store", []byte("x"))
	files, errs := Walk([]string{dir, filepath.Join(dir, "b.jpg"), filepath.Join(dir, "missing.jpg")})
	if len(files) != 2 || !strings.HasSuffix(files[0], "2025/july/a.png") || !strings.HasSuffix(files[1], "b.jpg") {
		t.Errorf("files = %v", files)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), ".hidden: is a hidden folder") || !strings.Contains(errs[1].Error(), "missing.jpg: cannot be read") {
		t.Errorf("errs = %v", errs)
	}
}

// TestWalkReportsHiddenFiles is issue 38 item 11: .hidden.jpg in an
// imported folder was skipped without a line. A hidden file of a kind
// Shoebox reads, and a hidden folder, get one; a Mac's metadata files
// (.DS_Store, ._ twins) do not; a hidden file named on its own is read.
func TestWalkReportsHiddenFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.jpg", []byte("x"))
	writeFile(t, dir, ".hidden.jpg", []byte("x"))
	writeFile(t, dir, ".Scan.PDF", []byte("x"))
	writeFile(t, dir, "._a.jpg", []byte("x"))
	writeFile(t, dir, ".DS_Store", []byte("x"))
	os.MkdirAll(filepath.Join(dir, ".thumbnails"), 0o755)
	writeFile(t, filepath.Join(dir, ".thumbnails"), "t1.jpg", []byte("x"))
	files, errs := Walk([]string{dir})
	if len(files) != 1 || !strings.HasSuffix(files[0], "a.jpg") {
		t.Errorf("files = %v", files)
	}
	var lines []string
	for _, err := range errs {
		if !errors.Is(err, ErrHidden) {
			t.Errorf("not a hidden-file line: %v", err)
		}
		lines = append(lines, err.Error())
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{".hidden.jpg: is hidden", ".Scan.PDF: is hidden", ".thumbnails: is a hidden folder"} {
		if !strings.Contains(got, want) {
			t.Errorf("no line %q in\n%s", want, got)
		}
	}
	if len(errs) != 3 {
		t.Errorf("%d lines, want 3:\n%s", len(errs), got)
	}
	files, errs = Walk([]string{filepath.Join(dir, ".hidden.jpg")})
	if len(files) != 1 || len(errs) != 0 {
		t.Errorf("a hidden file named on its own: %v %v", files, errs)
	}
}

func TestSROIEReceiptsProbe(t *testing.T) {
	matches, _ := filepath.Glob("../../shared/data/sroie-dev/*.jpg")
	if len(matches) == 0 {
		t.Skip("../shared/data/sroie-dev not present")
	}
	for _, p := range matches[:5] {
		f, err := Probe(ctx, p, DefaultLimits())
		if err != nil || f.Kind != JPEG || len(f.SHA256) != 64 {
			t.Errorf("%s: %+v %v", p, f, err)
		}
	}
}
