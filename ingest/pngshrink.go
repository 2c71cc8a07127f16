package ingest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"io"
	"math"
)

// A scanner's 16-bit PNG decoded whole takes eight bytes a pixel (630 MB
// at 80 megapixels) only to be shrunk to the 12 megapixels a page is read
// at. shrinkPNG reads such a file row by row instead and averages each
// row straight into the smaller page, so it holds two rows of the file
// and the page it makes. It reads the common (non-interlaced) PNGs; an
// interlaced one is left to image/png.

// errInterlaced says the PNG is interlaced and must be decoded whole.
var errInterlaced = errors.New("png: interlaced")

// pngHeader is what IHDR, PLTE and tRNS say about the pixels.
type pngHeader struct {
	width, height int
	depth         int         // bits a sample
	colorType     byte        // 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
	palette       [][4]uint16 // red, green, blue, alpha (not premultiplied)
	// key is tRNS for gray and RGB files: the one colour that is
	// transparent, in samples as stored.
	key    []uint16
	hasKey bool
}

func (h *pngHeader) channels() int {
	switch h.colorType {
	case 2:
		return 3
	case 4:
		return 2
	case 6:
		return 4
	}
	return 1
}

// gray says the page can be kept as 8-bit gray: no colour, no transparency.
func (h *pngHeader) gray() bool { return h.colorType == 0 && !h.hasKey }

// pngChunks checks the signature and every chunk's CRC, reads the header
// chunks and returns the IDAT payloads in order (slices of data).
func pngChunks(data []byte) (pngHeader, [][]byte, error) {
	var h pngHeader
	const sig = "\x89PNG\r\n\x1a\n"
	if !bytes.HasPrefix(data, []byte(sig)) {
		return h, nil, errors.New("png: not a PNG file")
	}
	rest := data[len(sig):]
	var idat [][]byte
	var trns []byte
	seenHeader, seenEnd := false, false
	for !seenEnd {
		if len(rest) < 12 {
			return h, nil, io.ErrUnexpectedEOF
		}
		n := binary.BigEndian.Uint32(rest)
		if uint64(n) > uint64(len(rest)-12) {
			return h, nil, io.ErrUnexpectedEOF
		}
		kind, body := string(rest[4:8]), rest[8:8+n]
		if crc32.ChecksumIEEE(rest[4:8+n]) != binary.BigEndian.Uint32(rest[8+n:]) {
			return h, nil, fmt.Errorf("png: invalid format: %s chunk checksum mismatch", kind)
		}
		rest = rest[12+n:]
		if !seenHeader && kind != "IHDR" {
			return h, nil, errors.New("png: invalid format: the header chunk is not first")
		}
		switch kind {
		case "IHDR":
			if seenHeader || len(body) != 13 {
				return h, nil, errors.New("png: invalid format: bad header chunk")
			}
			seenHeader = true
			w, ht := binary.BigEndian.Uint32(body), binary.BigEndian.Uint32(body[4:])
			if w == 0 || ht == 0 || w > 1<<30 || ht > 1<<30 {
				return h, nil, fmt.Errorf("png: invalid format: %d×%d pixels", w, ht)
			}
			h.width, h.height, h.depth, h.colorType = int(w), int(ht), int(body[8]), body[9]
			if body[10] != 0 || body[11] != 0 {
				return h, nil, errors.New("png: unsupported compression or filter method")
			}
			if !validDepth(h.colorType, h.depth) {
				return h, nil, fmt.Errorf("png: invalid format: colour type %d with %d-bit samples", h.colorType, h.depth)
			}
			if body[12] != 0 {
				return h, nil, errInterlaced
			}
		case "PLTE":
			if len(body)%3 != 0 || len(body) == 0 || len(body)/3 > 256 {
				return h, nil, errors.New("png: invalid format: bad palette")
			}
			h.palette = make([][4]uint16, len(body)/3)
			for i := range h.palette {
				c := body[3*i:]
				h.palette[i] = [4]uint16{uint16(c[0]) * 0x101, uint16(c[1]) * 0x101, uint16(c[2]) * 0x101, 0xffff}
			}
		case "tRNS":
			trns = body
		case "IDAT":
			idat = append(idat, body)
		case "IEND":
			seenEnd = true
		}
	}
	switch {
	case h.colorType == 3 && len(h.palette) == 0:
		return h, nil, errors.New("png: invalid format: no palette")
	case len(idat) == 0:
		return h, nil, errors.New("png: invalid format: no image data")
	}
	if trns != nil {
		switch h.colorType {
		case 3:
			for i := 0; i < len(trns) && i < len(h.palette); i++ {
				h.palette[i][3] = uint16(trns[i]) * 0x101
			}
		case 0, 2:
			if len(trns) == 2*h.channels() {
				h.hasKey = true
				for i := 0; i < len(trns); i += 2 {
					h.key = append(h.key, binary.BigEndian.Uint16(trns[i:]))
				}
			}
		}
	}
	return h, idat, nil
}

func validDepth(colorType byte, depth int) bool {
	switch colorType {
	case 0:
		return depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16
	case 3:
		return depth == 1 || depth == 2 || depth == 4 || depth == 8
	case 2, 4, 6:
		return depth == 8 || depth == 16
	}
	return false
}

// shrinkPNG decodes a non-interlaced PNG into a page of at most maxPixels
// (aspect kept), each page pixel the average of the file pixels it covers:
// *image.Gray for plain gray files, *image.RGBA (premultiplied) otherwise.
// An interlaced file gives errInterlaced.
func shrinkPNG(data []byte, maxPixels int) (image.Image, error) {
	h, idat, err := pngChunks(data)
	if err != nil {
		return nil, err
	}
	w, ht := h.width, h.height
	nw, nh := w, ht
	if maxPixels > 0 && int64(w)*int64(ht) > int64(maxPixels) {
		scale := math.Sqrt(float64(maxPixels) / (float64(w) * float64(ht)))
		nw, nh = max(1, int(float64(w)*scale)), max(1, int(float64(ht)*scale))
	}
	readers := make([]io.Reader, len(idat))
	for i, b := range idat {
		readers[i] = bytes.NewReader(b)
	}
	z, err := zlib.NewReader(io.MultiReader(readers...))
	if err != nil {
		return nil, fmt.Errorf("png: %w", err)
	}
	defer z.Close()

	chans := h.channels()
	rowBytes := (w*chans*h.depth + 7) / 8
	bpp := max(1, chans*h.depth/8) // the filters' byte distance
	cur, prev := make([]byte, rowBytes+1), make([]byte, rowBytes+1)

	// Column x of the file falls in page column x*nw/w; each page column
	// averages cols[ox] file columns and the rows of its band.
	outCh := 4
	if h.gray() {
		outCh = 1
	}
	colOf := make([]int32, w)
	cols := make([]uint64, nw)
	for x := range colOf {
		colOf[x] = int32(int64(x) * int64(nw) / int64(w))
		cols[colOf[x]]++
	}
	acc := make([]uint64, nw*outCh)
	var dst image.Image
	var pix []byte
	stride := nw * outCh
	if outCh == 1 {
		g := image.NewGray(image.Rect(0, 0, nw, nh))
		dst, pix = g, g.Pix
	} else {
		c := image.NewRGBA(image.Rect(0, 0, nw, nh))
		dst, pix = c, c.Pix
	}
	band, bandRows := 0, uint64(0)
	emit := func() {
		row := pix[band*stride : (band+1)*stride]
		for ox := 0; ox < nw; ox++ {
			n := cols[ox] * bandRows
			for c := 0; c < outCh; c++ {
				i := ox*outCh + c
				row[i] = uint8(acc[i] / n >> 8)
				acc[i] = 0
			}
		}
	}
	var px [4]uint32
	for y := 0; y < ht; y++ {
		if _, err := io.ReadFull(z, cur); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("png: %w", err)
		}
		if err := unfilter(cur, prev, bpp); err != nil {
			return nil, err
		}
		if b := int(int64(y) * int64(nh) / int64(ht)); b != band {
			emit()
			band, bandRows = b, 0
		}
		bandRows++
		samples := cur[1:]
		for x := 0; x < w; x++ {
			h.pixel(samples, x, &px)
			i := int(colOf[x]) * outCh
			if outCh == 1 {
				acc[i] += uint64(px[0])
				continue
			}
			a := px[3]
			acc[i] += uint64(px[0] * a / 0xffff)
			acc[i+1] += uint64(px[1] * a / 0xffff)
			acc[i+2] += uint64(px[2] * a / 0xffff)
			acc[i+3] += uint64(a)
		}
		cur, prev = prev, cur
	}
	emit()
	return dst, nil
}

// pixel reads pixel x of an unfiltered row as 16-bit RGBA, not
// premultiplied.
func (h *pngHeader) pixel(row []byte, x int, px *[4]uint32) {
	sample := func(i int) uint32 { // the i-th sample of the row, scaled to 16 bits
		switch h.depth {
		case 16:
			return uint32(row[2*i])<<8 | uint32(row[2*i+1])
		case 8:
			return uint32(row[i]) * 0x101
		}
		per := 8 / h.depth
		v := uint32(row[i/per]>>(8-h.depth*(i%per+1))) & (1<<h.depth - 1)
		return v * 0xffff / (1<<h.depth - 1)
	}
	raw := func(i int) uint16 { // as stored, for the tRNS key
		if h.depth == 16 {
			return uint16(row[2*i])<<8 | uint16(row[2*i+1])
		}
		if h.depth == 8 {
			return uint16(row[i])
		}
		per := 8 / h.depth
		return uint16(row[i/per]>>(8-h.depth*(i%per+1))) & (1<<h.depth - 1)
	}
	switch h.colorType {
	case 0:
		g := sample(x)
		px[0], px[1], px[2], px[3] = g, g, g, 0xffff
		if h.hasKey && raw(x) == h.key[0] {
			px[3] = 0
		}
	case 2:
		px[0], px[1], px[2], px[3] = sample(3*x), sample(3*x+1), sample(3*x+2), 0xffff
		if h.hasKey && raw(3*x) == h.key[0] && raw(3*x+1) == h.key[1] && raw(3*x+2) == h.key[2] {
			px[3] = 0
		}
	case 3:
		i := int(raw(x))
		if i >= len(h.palette) {
			px[0], px[1], px[2], px[3] = 0, 0, 0, 0xffff // as image/png: out of range is opaque black
			return
		}
		p := h.palette[i]
		px[0], px[1], px[2], px[3] = uint32(p[0]), uint32(p[1]), uint32(p[2]), uint32(p[3])
	case 4:
		g := sample(2 * x)
		px[0], px[1], px[2], px[3] = g, g, g, sample(2*x+1)
	case 6:
		px[0], px[1], px[2], px[3] = sample(4*x), sample(4*x+1), sample(4*x+2), sample(4*x+3)
	}
}

// unfilter undoes a row's PNG filter in place; cur[0] names the filter
// and prev is the previous row unfiltered (zeros before the first).
func unfilter(cur, prev []byte, bpp int) error {
	c, p := cur[1:], prev[1:]
	switch cur[0] {
	case 0:
	case 1:
		for i := bpp; i < len(c); i++ {
			c[i] += c[i-bpp]
		}
	case 2:
		for i := range c {
			c[i] += p[i]
		}
	case 3:
		for i := 0; i < bpp && i < len(c); i++ {
			c[i] += p[i] / 2
		}
		for i := bpp; i < len(c); i++ {
			c[i] += uint8((int(c[i-bpp]) + int(p[i])) / 2)
		}
	case 4:
		for i := range c {
			var a, cc int
			if i >= bpp {
				a, cc = int(c[i-bpp]), int(p[i-bpp])
			}
			c[i] += paeth(a, int(p[i]), cc)
		}
	default:
		return fmt.Errorf("png: invalid format: bad filter type %d", cur[0])
	}
	return nil
}

func paeth(a, b, c int) uint8 {
	p := a + b - c
	pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
	switch {
	case pa <= pb && pa <= pc:
		return uint8(a)
	case pb <= pc:
		return uint8(b)
	}
	return uint8(c)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
