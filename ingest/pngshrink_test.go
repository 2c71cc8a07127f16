package ingest

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// pngCases are images in every colour type and depth image/png writes:
// gray 8 and 16, RGB, RGBA 8 and 16 with transparency, and palettes of 2,
// 4, 16 and 256 colours (1-, 2-, 4- and 8-bit indexes, some transparent).
// Their content is noise over gradients, so the encoder picks every row
// filter somewhere.
func pngCases(w, h int) map[string]image.Image {
	r := rand.New(rand.NewPCG(1, 2))
	noise := func(x, y int) uint32 { return uint32((x*7+y*3)%200) + r.Uint32N(56) }
	cases := map[string]image.Image{}
	g := image.NewGray(image.Rect(0, 0, w, h))
	g16 := image.NewGray16(image.Rect(0, 0, w, h))
	rgb := image.NewRGBA(image.Rect(0, 0, w, h))
	rgba64 := image.NewNRGBA64(image.Rect(0, 0, w, h))
	nrgba := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			v := noise(x, y)
			g.SetGray(x, y, color.Gray{uint8(v)})
			g16.SetGray16(x, y, color.Gray16{uint16(v*257 + r.Uint32N(257))})
			rgb.SetRGBA(x, y, color.RGBA{uint8(v), uint8(255 - v), uint8(x), 0xff})
			rgba64.SetNRGBA64(x, y, color.NRGBA64{uint16(v * 250), uint16(x * 97), uint16(y * 131), uint16(0xffff - v*200)})
			nrgba.SetNRGBA(x, y, color.NRGBA{uint8(v), uint8(y), uint8(x), uint8(255 - v/2)})
		}
	}
	cases["gray8"], cases["gray16"], cases["rgb8"], cases["rgba16"], cases["rgba8"] = g, g16, rgb, rgba64, nrgba
	for _, n := range []int{2, 4, 16, 256} {
		pal := make(color.Palette, n)
		for i := range pal {
			pal[i] = color.NRGBA{uint8(i * 255 / (n - 1)), uint8(i * 37), uint8(255 - i), 0xff}
		}
		pal[n-1] = color.NRGBA{0x80, 0x40, 0x20, 0x60} // a half-transparent entry
		p := image.NewPaletted(image.Rect(0, 0, w, h), pal)
		for i := range p.Pix {
			p.Pix[i] = uint8(r.IntN(n))
		}
		cases["palette"+strconv.Itoa(n)] = p
	}
	return cases
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// boxShrink is the reference: image/png's decode, each page pixel the
// plain average of the file pixels whose column and row map onto it.
func boxShrink(img image.Image, nw, nh int) [][4]float64 {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	sum := make([][4]float64, nw*nh)
	n := make([]float64, nw*nh)
	for y := range h {
		for x := range w {
			r, g, bl, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA() // premultiplied
			i := (y*nh/h)*nw + x*nw/w
			sum[i][0] += float64(r)
			sum[i][1] += float64(g)
			sum[i][2] += float64(bl)
			sum[i][3] += float64(a)
			n[i]++
		}
	}
	for i := range sum {
		for c := range 4 {
			sum[i][c] /= n[i] * 257
		}
	}
	return sum
}

// Every colour type and depth shrinks to what image/png's decode averaged
// would give, within one level in 255, and keeps the page's aspect.
func TestShrinkPNGMatchesTheStandardDecoder(t *testing.T) {
	const w, h, work = 301, 203, 9000
	for name, img := range pngCases(w, h) {
		t.Run(name, func(t *testing.T) {
			data := encodePNG(t, img)
			got, err := shrinkPNG(data, work)
			if err != nil {
				t.Fatal(err)
			}
			nw, nh := got.Bounds().Dx(), got.Bounds().Dy()
			if nw*nh > work || nw < 100 || nh < 60 || absf(float64(nw)/float64(nh)-float64(w)/float64(h)) > 0.02 {
				t.Fatalf("page %d×%d from %d×%d", nw, nh, w, h)
			}
			std, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			want := boxShrink(std, nw, nh)
			_, isGray := got.(*image.Gray)
			if isGray != (name == "gray8" || name == "gray16") {
				t.Errorf("%T for %s", got, name)
			}
			worst := 0.0
			for y := range nh {
				for x := range nw {
					r, g, b, a := got.At(x, y).RGBA()
					for c, v := range []uint32{r, g, b, a} {
						worst = max(worst, absf(float64(v>>8)-want[y*nw+x][c]))
					}
				}
			}
			if worst > 1.01 {
				t.Errorf("differs from image/png's pixels by up to %.2f levels", worst)
			}
		})
	}
}

// A page no larger than the limit comes back at its own size, pixel for
// pixel.
func TestShrinkPNGKeepsASmallPage(t *testing.T) {
	img := pngCases(40, 30)["rgb8"]
	got, err := shrinkPNG(encodePNG(t, img), 0)
	if err != nil {
		t.Fatal(err)
	}
	for y := range 30 {
		for x := range 40 {
			if color.RGBAModel.Convert(img.At(x, y)) != got.At(x, y) {
				t.Fatalf("pixel %d,%d: %v, want %v", x, y, got.At(x, y), img.At(x, y))
			}
		}
	}
}

// withChunkByte returns a copy of a PNG with one byte of its first chunk
// of kind changed and the chunk's checksum made right again.
func withChunkByte(data []byte, kind string, at int, v byte) []byte {
	out := bytes.Clone(data)
	i := bytes.Index(out, []byte(kind)) - 4
	n := int(binary.BigEndian.Uint32(out[i:]))
	out[i+8+at] = v
	binary.BigEndian.PutUint32(out[i+8+n:], crc32.ChecksumIEEE(out[i+4:i+8+n]))
	return out
}

// Damaged files are errors, never a panic or a page of garbage: every
// truncation, a flipped byte (the chunk checksum), a bad header and an
// interlaced file (left to image/png).
func TestShrinkPNGRefusesDamage(t *testing.T) {
	data := encodePNG(t, pngCases(60, 40)["rgba16"])
	for n := 0; n < len(data)-12; n += max(1, len(data)/97) {
		if _, err := shrinkPNG(data[:n], 1000); err == nil {
			t.Fatalf("the first %d of %d bytes decoded", n, len(data))
		}
	}
	flipped := bytes.Clone(data)
	flipped[len(flipped)/2] ^= 0x10
	if _, err := shrinkPNG(flipped, 1000); err == nil {
		t.Error("a flipped byte decoded")
	}
	if _, err := shrinkPNG(withChunkByte(data, "IHDR", 8, 3), 1000); err == nil {
		t.Error("16-bit palette accepted")
	}
	if _, err := shrinkPNG(withChunkByte(data, "IHDR", 12, 1), 1000); !errors.Is(err, errInterlaced) {
		t.Errorf("interlaced: %v", err)
	}
}

func FuzzShrinkPNG(f *testing.F) {
	for _, img := range pngCases(23, 17) {
		f.Add(encodePNG(f, img))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = withRightChecksums(data) // so mutations reach the header and pixels
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width*cfg.Height > 1<<20 {
			return
		}
		img, err := shrinkPNG(data, 500)
		if err == nil && img.Bounds().Dx()*img.Bounds().Dy() > 500 {
			t.Fatalf("page %v over the limit", img.Bounds())
		}
		if _, stdErr := png.Decode(bytes.NewReader(data)); stdErr == nil && err != nil && !errors.Is(err, errInterlaced) {
			t.Fatalf("image/png reads it, shrinkPNG says %v", err)
		}
	})
}

// withRightChecksums returns data with every whole chunk's CRC recomputed.
func withRightChecksums(data []byte) []byte {
	out := bytes.Clone(data)
	for i := 8; i+12 <= len(out); {
		n := int(binary.BigEndian.Uint32(out[i:]))
		if n < 0 || n > len(out)-i-12 {
			break
		}
		binary.BigEndian.PutUint32(out[i+8+n:], crc32.ChecksumIEEE(out[i+4:i+8+n]))
		i += 12 + n
	}
	return out
}

// A large 16-bit scan is read at working size without ever holding the
// whole file decoded: LoadPage allocates about the page it returns, not
// the eight bytes a pixel image/png would.
func TestLargeSixteenBitPNGIsNeverDecodedWhole(t *testing.T) {
	const w, h = 4000, 3000 // 12 MP: 96 MB decoded whole
	img := image.NewNRGBA64(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			v := uint16(0xffff - (x/40%2)*0x8000)
			img.SetNRGBA64(x, y, color.NRGBA64{v, v, v, 0xffff})
		}
	}
	p := filepath.Join(t.TempDir(), "scan16.png")
	if err := os.WriteFile(p, encodePNG(t, img), 0o644); err != nil {
		t.Fatal(err)
	}
	lim := DefaultLimits()
	lim.WorkPixels = 3_000_000
	f, err := Probe(context.Background(), p, lim)
	if err != nil {
		t.Fatal(err)
	}
	var page Page
	allocs := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			page, err = LoadPage(context.Background(), f, 0, lim)
		}
	}).AllocedBytesPerOp()
	if err != nil {
		t.Fatal(err)
	}
	if b := page.Image.Bounds(); b.Dx()*b.Dy() > lim.WorkPixels || b.Dx() < 1900 {
		t.Fatalf("page %v", b)
	}
	if allocs > 40<<20 {
		t.Errorf("loading allocated %d MB; the page is %d MB and the file decoded whole %d MB", allocs>>20, lim.WorkPixels*4>>20, w*h*8>>20)
	}
	// Stripes 40 pixels wide survive the shrink.
	c := page.Image.At(5, 5).(color.RGBA)
	d := page.Image.At(5+int(40*float64(page.Image.Bounds().Dx())/w), 5).(color.RGBA)
	if c.R < 0xf0 || d.R > 0x90 {
		t.Errorf("stripes lost: %v then %v", c, d)
	}
}

func absf(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
