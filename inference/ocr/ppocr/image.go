package ppocr

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/shoebox-app/shoebox/receipt"
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

// WorkingPixels is the size of the copy the reader works on for a page of
// w×h pixels.
func WorkingPixels(w, h int) int64 {
	if w <= workWidth {
		return int64(w) * int64(h)
	}
	s := float64(workWidth) / float64(w)
	return int64(workWidth) * int64(max(1, int(math.Round(float64(h)*s))))
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

// plane is an image's 8-bit samples, c to a pixel, rows stride apart: the
// reader's colour copy (c 3) and a page in grey for Tesseract (c 1) are
// turned and straightened by the same code, so both lie alike.
type plane struct {
	pix             []uint8
	w, h, stride, c int
}

func (m *rgb) plane() plane { return plane{m.pix, m.w, m.h, 3 * m.w, 3} }

func rgbOf(p plane) *rgb { return &rgb{w: p.w, h: p.h, pix: p.pix} }

func grayPlane(g *image.Gray) plane {
	return plane{g.Pix, g.Rect.Dx(), g.Rect.Dy(), g.Stride, 1}
}

func grayOf(p plane) *image.Gray {
	return &image.Gray{Pix: p.pix, Stride: p.stride, Rect: image.Rect(0, 0, p.w, p.h)}
}

// turned is the page turned q quarter turns clockwise.
func (m *rgb) turned(q int) *rgb {
	if (q%4+4)%4 == 0 {
		return m
	}
	return rgbOf(m.plane().turned(q))
}

// straightened is the page with its text, running at tilt, made
// horizontal (StraightSource), the canvas's corners white.
func (m *rgb) straightened(tilt float64) *rgb { return rgbOf(m.plane().straightened(tilt)) }

// turned is p turned q quarter turns clockwise.
func (p plane) turned(q int) plane {
	q = (q%4 + 4) % 4
	ow, oh := p.w, p.h
	if q%2 == 1 {
		ow, oh = p.h, p.w
	}
	out := plane{make([]uint8, p.c*ow*oh), ow, oh, p.c * ow, p.c}
	for y := range p.h {
		for x := range p.w {
			dx, dy := turnPoint(x, y, p.w, p.h, q)
			copy(out.pix[dy*out.stride+p.c*dx:][:p.c], p.pix[y*p.stride+p.c*x:][:p.c])
		}
	}
	return out
}

// straightened is p with its text, running at tilt, made horizontal on the
// canvas StraightSize gives, sampled between pixel centres, white off the
// page.
func (p plane) straightened(tilt float64) plane {
	cw, ch := StraightSize(p.w, p.h, tilt)
	out := plane{make([]uint8, p.c*cw*ch), cw, ch, p.c * cw, p.c}
	at := func(x, y, c int) float64 {
		if x < 0 || y < 0 || x >= p.w || y >= p.h {
			return 255 // off the page: paper
		}
		return float64(p.pix[y*p.stride+p.c*x+c])
	}
	for y := range ch {
		for x := range cw {
			sx, sy := StraightSource(float64(x)+0.5, float64(y)+0.5, p.w, p.h, tilt)
			sx, sy = sx-0.5, sy-0.5
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			for c := range p.c {
				v := (at(x0, y0, c)*(1-fx)+at(x0+1, y0, c)*fx)*(1-fy) + (at(x0, y0+1, c)*(1-fx)+at(x0+1, y0+1, c)*fx)*fy
				out.pix[y*out.stride+p.c*x+c] = uint8(math.Round(v))
			}
		}
	}
	return out
}

// turnPoint is where pixel (x, y) of a w×h page lies once the page is
// turned q quarter turns clockwise (q in 0–3).
func turnPoint(x, y, w, h, q int) (int, int) {
	switch q {
	case 1:
		return h - 1 - y, x
	case 2:
		return w - 1 - x, h - 1 - y
	case 3:
		return y, w - 1 - x
	}
	return x, y
}

// TurnBox takes a box on a page turned q quarter turns clockwise back to
// the page as it was, w×h pixels.
func TurnBox(b receipt.Box, w, h, q int) receipt.Box {
	q = (q%4 + 4) % 4
	out := b
	switch q {
	case 1: // the turned page's (u, v) was the page's (v, h−u)
		out.X, out.Y, out.W, out.H = b.Y, h-b.X-b.W, b.H, b.W
	case 2:
		out.X, out.Y = w-b.X-b.W, h-b.Y-b.H
	case 3: // the turned page's (u, v) was the page's (w−v, u)
		out.X, out.Y, out.W, out.H = w-b.Y-b.H, b.X, b.H, b.W
	}
	return out
}

// Upright is how the reader set a page upright to read it: Turns quarter
// turns clockwise, then its text, which ran at Tilt radians from the
// horizontal (positive running down to the right), straightened about the
// page's centre onto a canvas that holds the whole page (StraightSize).
//
// Crop, where not empty, is the part of the page that was read (its text,
// a receipt small in a large photo), in the page's pixels; the turns and
// the tilt are the crop's.
type Upright struct {
	Crop  image.Rectangle
	Turns int
	Tilt  float64
}

// Moved says whether the page was cropped, turned or straightened at all.
func (u Upright) Moved() bool { return !u.Crop.Empty() || u.Turns != 0 || u.Tilt != 0 }

// Page is img as it was read: cropped, turned and straightened, in grey.
func (u Upright) Page(img *image.Gray) *image.Gray {
	g := img
	if !u.Crop.Empty() {
		g = img.SubImage(u.Crop.Add(img.Bounds().Min)).(*image.Gray)
	}
	if (u.Turns%4+4)%4 != 0 {
		g = grayOf(grayPlane(g).turned(u.Turns))
	}
	if u.Tilt != 0 {
		g = grayOf(grayPlane(g).straightened(u.Tilt))
	}
	return g
}

// StraightSize is the canvas of a w×h page straightened by tilt.
func StraightSize(w, h int, tilt float64) (int, int) {
	c, s := math.Abs(math.Cos(tilt)), math.Abs(math.Sin(tilt))
	return int(math.Ceil(float64(w)*c + float64(h)*s)), int(math.Ceil(float64(w)*s + float64(h)*c))
}

// StraightSource is the point of a w×h page that point (x, y) of its
// canvas straightened by tilt shows: the canvas's horizontal is the
// page's text direction.
func StraightSource(x, y float64, w, h int, tilt float64) (float64, float64) {
	cw, ch := StraightSize(w, h, tilt)
	dx, dy := x-float64(cw)/2, y-float64(ch)/2
	c, s := math.Cos(tilt), math.Sin(tilt)
	return float64(w)/2 + c*dx - s*dy, float64(h)/2 + s*dx + c*dy
}

// PageBox takes a box on the page as read, upright, back to the page as
// given, w×h pixels: a straightened box becomes the box around its
// corners there.
func (u Upright) PageBox(b receipt.Box, w, h int) receipt.Box {
	if !u.Crop.Empty() {
		w, h = u.Crop.Dx(), u.Crop.Dy()
	}
	if u.Tilt != 0 {
		tw, th := w, h
		if (u.Turns%4+4)%4%2 == 1 {
			tw, th = h, w
		}
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, p := range [4][2]int{{b.X, b.Y}, {b.X + b.W, b.Y}, {b.X, b.Y + b.H}, {b.X + b.W, b.Y + b.H}} {
			x, y := StraightSource(float64(p[0]), float64(p[1]), tw, th, u.Tilt)
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
		x0, y0 = max(0, math.Floor(x0)), max(0, math.Floor(y0))
		x1, y1 = min(float64(tw), math.Ceil(x1)), min(float64(th), math.Ceil(y1))
		b.X, b.Y, b.W, b.H = int(x0), int(y0), max(1, int(x1-x0)), max(1, int(y1-y0))
	}
	b = TurnBox(b, w, h, u.Turns)
	b.X, b.Y = b.X+u.Crop.Min.X, b.Y+u.Crop.Min.Y
	return b
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

// addSample adds the colour at (x, y) in pixel-centre coordinates,
// bilinear, with the edge pixels repeated outside the page, to acc in B, G,
// R order. It is the inner step of every crop and detector input (a page's
// lines sample about a million points), so it indexes the pixels itself
// rather than through helpers.
func (m *rgb) addSample(acc *[3]float32, x, y float64) {
	x -= 0.5
	y -= 0.5
	x0, y0 := floor(x), floor(y)
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	xa, xb := clampTo(x0, m.w-1), clampTo(x0+1, m.w-1)
	ya, yb := clampTo(y0, m.h-1), clampTo(y0+1, m.h-1)
	ta, tb := 3*(ya*m.w+xa), 3*(ya*m.w+xb)
	ba, bb := 3*(yb*m.w+xa), 3*(yb*m.w+xb)
	pix := m.pix
	gx, gy := 1-fx, 1-fy
	for c := 0; c < 3; c++ {
		top := float32(pix[ta+c])*gx + float32(pix[tb+c])*fx
		bot := float32(pix[ba+c])*gx + float32(pix[bb+c])*fx
		acc[2-c] += top*gy + bot*fy
	}
}

// floor is math.Floor for the page's coordinates, as an int.
func floor(v float64) int {
	i := int(v)
	if float64(i) > v {
		i--
	}
	return i
}

// clampTo holds v to [0, hi].
func clampTo(v, hi int) int {
	return min(max(v, 0), hi)
}

// inputRange maps a colour channel's 0–255 (B, G, R) to a model's input:
// (v/255 − mean) / std.
type inputRange struct{ mean, std [3]float32 }

func (n *inputRange) of(c int, v float32) float32 { return (v/255 - n.mean[c]) / n.std[c] }

var (
	// detRange is the detector's: ImageNet's means and deviations.
	detRange = inputRange{mean: [3]float32{0.485, 0.456, 0.406}, std: [3]float32{0.229, 0.224, 0.225}}
	// recRange is the recogniser's and the angle classifier's: [-1, 1].
	recRange = inputRange{mean: [3]float32{0.5, 0.5, 0.5}, std: [3]float32{0.5, 0.5, 0.5}}
)

// resample writes into dst (w×h in rows stride apart, CHW planes in B, G, R
// order, as PaddleOCR's models were trained on OpenCV's BGR images) the
// page region that maps dst's pixel (u, v) to page point o + (u+0.5)·du +
// (v+0.5)·dv, averaging ss×ss points a pixel when shrinking; norm maps
// 0–255 to the model's range.
func (m *rgb) resample(dst []float32, w, h, stride int, o, du, dv [2]float64, ss int, norm *inputRange) {
	if du[1] == 0 && dv[0] == 0 {
		m.resampleUpright(dst, w, h, stride, o, du[0], dv[1], ss, norm)
		return
	}
	plane := stride * h
	inv := 1 / float32(ss*ss)
	for v := 0; v < h; v++ {
		for u := 0; u < w; u++ {
			var acc [3]float32
			for sy := 0; sy < ss; sy++ {
				fv := float64(v) + (float64(sy)+0.5)/float64(ss)
				for sx := 0; sx < ss; sx++ {
					fu := float64(u) + (float64(sx)+0.5)/float64(ss)
					m.addSample(&acc, o[0]+fu*du[0]+fv*dv[0], o[1]+fu*du[1]+fv*dv[1])
				}
			}
			i := v*stride + u
			for c := 0; c < 3; c++ {
				dst[c*plane+i] = norm.of(c, acc[c]*inv)
			}
		}
	}
}

// tap is where one sampling point falls along one axis: between the
// pixels at offsets a and b of the page's pixels, weighted g and f.
type tap struct {
	a, b int
	f, g float32
}

// taps are the sampling points of n output pixels, ss each, along an axis
// of size pixels (offsets step apart) that starts at o and advances d a
// pixel: the same points and weights addSample finds.
func taps(n, ss int, o, d float64, size, step int) []tap {
	out := make([]tap, 0, n*ss)
	for i := 0; i < n; i++ {
		for k := 0; k < ss; k++ {
			fi := float64(i) + (float64(k)+0.5)/float64(ss)
			p := o + fi*d - 0.5
			p0 := floor(p)
			f := float32(p - float64(p0))
			out = append(out, tap{a: step * clampTo(p0, size-1), b: step * clampTo(p0+1, size-1), f: f, g: 1 - f})
		}
	}
	return out
}

// resampleUpright is resample for a region that is not turned (the
// detector's input, and most lines): each column's and each row's sampling
// points are found once.
func (m *rgb) resampleUpright(dst []float32, w, h, stride int, o [2]float64, du, dv float64, ss int, norm *inputRange) {
	plane := stride * h
	inv := 1 / float32(ss*ss)
	cols := taps(w, ss, o[0], du, m.w, 3)
	rows := taps(h, ss, o[1], dv, m.h, 3*m.w)
	pix := m.pix
	for v := 0; v < h; v++ {
		ry := rows[v*ss : (v+1)*ss]
		out := dst[v*stride : v*stride+w]
		for u := range out {
			cx := cols[u*ss : (u+1)*ss]
			var acc [3]float32
			for _, y := range ry {
				for _, x := range cx {
					ta, tb, ba, bb := y.a+x.a, y.a+x.b, y.b+x.a, y.b+x.b
					for c := 0; c < 3; c++ {
						top := float32(pix[ta+c])*x.g + float32(pix[tb+c])*x.f
						bot := float32(pix[ba+c])*x.g + float32(pix[bb+c])*x.f
						acc[2-c] += top*y.g + bot*y.f
					}
				}
			}
			i := v*stride + u
			for c := 0; c < 3; c++ {
				dst[c*plane+i] = norm.of(c, acc[c]*inv)
			}
		}
	}
}
