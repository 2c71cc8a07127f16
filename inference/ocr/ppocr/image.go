package ppocr

import (
	"image"
	"image/color"
	"image/draw"
	"math"
)

// workWidth caps the width of the page copy the reader samples from: twice
// the detector's width keeps a line's crop sharp, and a 12-MP scan (the
// largest page ingest hands on) is not copied whole.
const workWidth = 2 * DefaultMaxSide

// workingCopy is the page as rgb, shrunk to workWidth wide when wider, and
// the factor page coordinates are to the copy's.
func workingCopy(img image.Image) (*rgb, float64) {
	b := img.Bounds()
	if b.Dx() <= workWidth {
		return toRGB(img), 1
	}
	s := float64(workWidth) / float64(b.Dx())
	return shrinkRGB(toRGB(img), workWidth, max(1, int(math.Round(float64(b.Dy())*s)))), float64(b.Dx()) / float64(workWidth)
}

// shrinkRGB scales src down to w×h, each pixel the average of the area of
// src it covers (x/image/draw's kernel scalers hold eight floats for every
// pixel of an intermediate the source's height: 200 MB for a 12 MP page).
func shrinkRGB(src *rgb, w, h int) *rgb {
	xs, ys := areaShares(src.w, w), areaShares(src.h, h)
	out := &rgb{w: w, h: h, pix: make([]uint8, 3*w*h)}
	row := make([]float32, 3*w)                                     // one source row, shrunk across
	acc := [2][]float32{make([]float32, 3*w), make([]float32, 3*w)} // output rows oy and oy+1
	oy := 0
	flush := func() {
		o := out.pix[3*oy*w : 3*(oy+1)*w]
		for i, v := range acc[0] {
			o[i] = uint8(min(255, v+0.5))
		}
		acc[0], acc[1] = acc[1], acc[0]
		clear(acc[1])
		oy++
	}
	for y := 0; y < src.h; y++ {
		clear(row)
		line := src.pix[3*y*src.w : 3*(y+1)*src.w]
		for x, sh := range xs {
			for _, part := range sh {
				if part.weight == 0 {
					continue
				}
				d := row[3*part.to : 3*part.to+3]
				d[0] += part.weight * float32(line[3*x])
				d[1] += part.weight * float32(line[3*x+1])
				d[2] += part.weight * float32(line[3*x+2])
			}
		}
		for ys[y][0].to > oy {
			flush()
		}
		for _, part := range ys[y] {
			if part.weight == 0 {
				continue
			}
			a := acc[part.to-oy]
			for i, v := range row {
				a[i] += part.weight * v
			}
		}
	}
	for oy < h {
		flush()
	}
	return out
}

// share is the part of a source pixel's width (or height) that falls in
// output pixel to, as a fraction of the output pixel.
type share struct {
	to     int
	weight float32
}

// areaShares splits each of n source pixels between the one or two of m
// (m ≤ n) output pixels it overlaps: shares[i][0] is the first.
func areaShares(n, m int) [][2]share {
	out := make([][2]share, n)
	for i := range out {
		a, b := float64(i)*float64(m)/float64(n), float64(i+1)*float64(m)/float64(n)
		o := min(int(a), m-1)
		if b <= float64(o+1) || o == m-1 {
			out[i][0] = share{o, float32(min(b, float64(m)) - a)}
			continue
		}
		out[i][0] = share{o, float32(float64(o+1) - a)}
		out[i][1] = share{o + 1, float32(b - float64(o+1))}
	}
	return out
}

// rgb is a page as 8-bit RGB rows, the form every step samples from.
type rgb struct {
	w, h int
	pix  []uint8 // 3 bytes a pixel
}

// toRGB copies an image into rgb, with fast paths for the usual decoders'
// types.
func toRGB(img image.Image) *rgb {
	b := img.Bounds()
	out := &rgb{w: b.Dx(), h: b.Dy(), pix: make([]uint8, 3*b.Dx()*b.Dy())}
	switch m := img.(type) {
	case *image.YCbCr:
		for y := 0; y < out.h; y++ {
			o := 3 * y * out.w
			for x := 0; x < out.w; x++ {
				yi := m.YOffset(b.Min.X+x, b.Min.Y+y)
				ci := m.COffset(b.Min.X+x, b.Min.Y+y)
				r, g, bb := color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
				out.pix[o], out.pix[o+1], out.pix[o+2] = r, g, bb
				o += 3
			}
		}
	case *image.Gray:
		for y := 0; y < out.h; y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+out.w]
			o := 3 * y * out.w
			for _, v := range row {
				out.pix[o], out.pix[o+1], out.pix[o+2] = v, v, v
				o += 3
			}
		}
	default:
		rgba, ok := img.(*image.RGBA)
		if !ok {
			rgba = image.NewRGBA(image.Rect(0, 0, out.w, out.h))
			draw.Draw(rgba, rgba.Rect, img, b.Min, draw.Src)
			b = rgba.Rect
		}
		for y := 0; y < out.h; y++ {
			row := rgba.Pix[y*rgba.Stride:]
			o := 3 * y * out.w
			for x := 0; x < out.w; x++ {
				// Transparent pixels are paper, not ink.
				a := row[4*x+3]
				if a == 255 {
					out.pix[o], out.pix[o+1], out.pix[o+2] = row[4*x], row[4*x+1], row[4*x+2]
				} else {
					for c := 0; c < 3; c++ {
						out.pix[o+c] = uint8(int(row[4*x+c]) + 255 - int(a))
					}
				}
				o += 3
			}
		}
	}
	return out
}

// sample gives the colour at (x, y) in pixel-centre coordinates, bilinear,
// with the edge pixels repeated outside the page.
func (m *rgb) sample(x, y float64) (float32, float32, float32) {
	x -= 0.5
	y -= 0.5
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	cl := func(v, hi int) int {
		if v < 0 {
			return 0
		}
		if v > hi {
			return hi
		}
		return v
	}
	xa, xb := cl(x0, m.w-1), cl(x0+1, m.w-1)
	ya, yb := cl(y0, m.h-1), cl(y0+1, m.h-1)
	p := func(xx, yy, c int) float32 { return float32(m.pix[3*(yy*m.w+xx)+c]) }
	var out [3]float32
	for c := 0; c < 3; c++ {
		top := p(xa, ya, c)*(1-fx) + p(xb, ya, c)*fx
		bot := p(xa, yb, c)*(1-fx) + p(xb, yb, c)*fx
		out[c] = top*(1-fy) + bot*fy
	}
	return out[0], out[1], out[2]
}

// resample writes into dst (w×h, CHW planes in B, G, R order, as PaddleOCR's
// models were trained on OpenCV's BGR images) the page region that maps
// dst's pixel (u, v) to page point o + (u+0.5)·du + (v+0.5)·dv, averaging
// ss×ss points a pixel when shrinking; norm maps 0–255 to the model's range.
func (m *rgb) resample(dst []float32, w, h, stride int, o, du, dv [2]float64, ss int, norm func(c int, v float32) float32) {
	plane := stride * h
	inv := 1 / float32(ss*ss)
	for v := 0; v < h; v++ {
		for u := 0; u < w; u++ {
			var acc [3]float32
			for sy := 0; sy < ss; sy++ {
				fv := float64(v) + (float64(sy)+0.5)/float64(ss)
				for sx := 0; sx < ss; sx++ {
					fu := float64(u) + (float64(sx)+0.5)/float64(ss)
					px := o[0] + fu*du[0] + fv*dv[0]
					py := o[1] + fu*du[1] + fv*dv[1]
					r, g, b := m.sample(px, py)
					acc[0] += b
					acc[1] += g
					acc[2] += r
				}
			}
			i := v*stride + u
			for c := 0; c < 3; c++ {
				dst[c*plane+i] = norm(c, acc[c]*inv)
			}
		}
	}
}
