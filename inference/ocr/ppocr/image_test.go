package ppocr

import (
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
