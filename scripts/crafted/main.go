// Command crafted writes the hostile folder that bounds the memory of
// `shoebox process` (issue 27): two 8900×8900 16-bit PNG scans just under
// the pixel limit, a 40000×40000 PNG bomb, a 1000×20000 JPEG, a truncated
// and an empty JPEG, a PDF with a 7000-pt page and one with a 14000×200-pt
// page. scripts/crafted-peak.sh imports and reads it under /usr/bin/time.
//
//	go run ./scripts/crafted DIR
package main

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
)

// chunk appends a PNG chunk; writes to a bytes.Buffer cannot fail.
func chunk(b *bytes.Buffer, kind string, data []byte) {
	b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(data))))
	b.WriteString(kind)
	b.Write(data)
	b.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(append([]byte(kind), data...))))
}

func bomb(w, h int) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr, uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 0
	chunk(&b, "IHDR", ihdr)
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, 9) // level 9 is valid
	row := make([]byte, w+1)
	for y := 0; y < h; y++ {
		must(zw.Write(row))
	}
	check(zw.Close())
	chunk(&b, "IDAT", z.Bytes())
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

func pdf(w, h int) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents 4 0 R >>", w, h),
		"<< /Length 0 >>\nstream\n\nendstream",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	var offs []int
	for i, o := range objs {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/crafted DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i, seed := range []int{3, 7} {
		img := image.NewNRGBA64(image.Rect(0, 0, 8900, 8900))
		for y := 0; y < 8900; y++ {
			for x := 0; x < 8900; x++ {
				v := uint16(0xffff - ((x/(60+seed))%2)*0x6000 - ((y*seed)%97)*0x40)
				img.SetNRGBA64(x, y, color.NRGBA64{v, v, v - 0x100, 0xffff})
			}
		}
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("scan16-%d.png", i+1)))
		check(err)
		check((&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(f, img))
		check(f.Close())
	}
	write := func(name string, data []byte) { check(os.WriteFile(filepath.Join(dir, name), data, 0o644)) }
	write("bomb.png", bomb(40000, 40000))
	tall := image.NewRGBA(image.Rect(0, 0, 1000, 20000))
	for i := range tall.Pix {
		tall.Pix[i] = 0xff
	}
	var jb bytes.Buffer
	check(jpeg.Encode(&jb, tall, nil))
	write("tall.jpg", jb.Bytes())
	write("truncated.jpg", jb.Bytes()[:jb.Len()/3])
	write("empty.jpg", nil)
	write("huge-page.pdf", pdf(7000, 7000))
	write("long-strip.pdf", pdf(14000, 200))
}

// check stops the command on the first failure: a hostile folder missing a
// file would make the memory check it feeds pass for the wrong reason.
func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "crafted:", err)
		os.Exit(1)
	}
}

func must(_ int, err error) { check(err) }
