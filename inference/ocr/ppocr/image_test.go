package ppocr

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"
)

func randomRGB(w, h int) *rgb {
	r := rand.New(rand.NewPCG(3, 4))
	p := &rgb{w: w, h: h, pix: make([]uint8, 3*w*h)}
	for i := range p.pix {
		p.pix[i] = uint8(r.IntN(256))
	}
	return p
}

// Halving averages each 2×2 block; any ratio keeps the page's mean colour
// (every source pixel's area is shared out whole); sizes down to 1×1 work.
func TestShrinkRGBAveragesAreas(t *testing.T) {
	src := randomRGB(64, 40)
	half := shrinkRGB(src, 32, 20)
	for y := range 20 {
		for x := range 32 {
			for c := range 3 {
				sum := 0
				for _, d := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
					sum += int(src.pix[3*((2*y+d[1])*64+2*x+d[0])+c])
				}
				if got, want := int(half.pix[3*(y*32+x)+c]), (sum+2)/4; got-want > 1 || want-got > 1 {
					t.Fatalf("pixel %d,%d channel %d: %d, want %d", x, y, c, got, want)
				}
			}
		}
	}
	mean := func(p *rgb) float64 {
		s := 0.0
		for _, v := range p.pix {
			s += float64(v)
		}
		return s / float64(len(p.pix))
	}
	big := randomRGB(3001, 2003)
	for _, size := range [][2]int{{1920, 1281}, {1000, 999}, {7, 3}, {1, 1}, {3001, 2003}} {
		got := shrinkRGB(big, size[0], size[1])
		if got.w != size[0] || got.h != size[1] || len(got.pix) != 3*size[0]*size[1] {
			t.Fatalf("%v: %d×%d", size, got.w, got.h)
		}
		if d := mean(got) - mean(big); d > 0.6 || d < -0.6 {
			t.Errorf("%v: mean moved by %.2f", size, d)
		}
	}
}

// sampleAsBefore is the bilinear sample resample was first written with,
// kept to hold the faster addSample to the same numbers: the models must
// see the very same input, or the readings move.
func sampleAsBefore(m *rgb, x, y float64) (float32, float32, float32) {
	x -= 0.5
	y -= 0.5
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	cl := func(v, hi int) int { return min(max(v, 0), hi) }
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

// Crops turned and scaled every way, reaching past the page's edges, and
// shrunk with up to 3×3 points a pixel, come out bit for bit as the first
// resample made them.
func TestResampleKeepsItsNumbers(t *testing.T) {
	page := randomRGB(97, 61)
	r := rand.New(rand.NewPCG(5, 6))
	for k := range 200 {
		w, h, ss := 1+r.IntN(40), 1+r.IntN(30), 1+r.IntN(3)
		angle, scale := (r.Float64()-0.5)*0.8, 0.2+3*r.Float64()
		if k%2 == 0 {
			angle = 0 // upright, as the detector's input and most lines are
		}
		du := [2]float64{scale * math.Cos(angle), scale * math.Sin(angle)}
		dv := [2]float64{-du[1], du[0]}
		o := [2]float64{(r.Float64() - 0.2) * 110, (r.Float64() - 0.2) * 70}
		got := make([]float32, 3*w*h)
		page.resample(got, w, h, w, o, du, dv, ss, &recRange)
		plane := w * h
		for v := range h {
			for u := range w {
				var acc [3]float32
				for sy := range ss {
					fv := float64(v) + (float64(sy)+0.5)/float64(ss)
					for sx := range ss {
						fu := float64(u) + (float64(sx)+0.5)/float64(ss)
						rr, g, b := sampleAsBefore(page, o[0]+fu*du[0]+fv*dv[0], o[1]+fu*du[1]+fv*dv[1])
						acc[0] += b
						acc[1] += g
						acc[2] += rr
					}
				}
				for c := range 3 {
					if want := (acc[c]*(1/float32(ss*ss))/255 - 0.5) / 0.5; got[c*plane+v*w+u] != want {
						t.Fatalf("case %d: pixel %d,%d channel %d is %v, want %v", k, u, v, c, got[c*plane+v*w+u], want)
					}
				}
			}
		}
	}
}

// BenchmarkCutLine is a 960-pixel line's preparation for the recogniser:
// cut out of the page into the model's input, and its ink columns found.
func BenchmarkCutLine(b *testing.B) {
	page := randomRGB(900, 1600)
	line := box{c: [2]float64{450, 800}, u: [2]float64{1, 0}, v: [2]float64{0, 1}, l: 600, h: 30}
	var in recInput
	crops := []crop{{b: line, w: 960}}
	for b.Loop() {
		in.cut(page, crops, []int{0})
		_, _, _ = inkColumns(in.pix, 960, recHeight, in.pw)
	}
}

// WorkingPixels is the size of the copy the reader really works on, which
// the reading budget reserves.
func TestWorkingPixelsIsTheCopysSize(t *testing.T) {
	for _, size := range [][2]int{{463, 1013}, {1920, 500}, {1921, 2000}, {4000, 3000}, {2917, 4114}} {
		src, _ := workingCopy(image.NewGray(image.Rect(0, 0, size[0], size[1])))
		if got, want := WorkingPixels(size[0], size[1]), int64(src.w)*int64(src.h); got != want {
			t.Errorf("%d×%d: %d pixels, the copy has %d", size[0], size[1], got, want)
		}
	}
}
