package synth

import (
	"image"
	"image/color"
	"math"
	"math/rand"
)

// Photo says how a phone photo spoils a clean receipt.
type Photo struct {
	RotateDeg float64 // the receipt lies at an angle
	Blur      int     // box-blur radius in pixels (camera shake, focus)
	Noise     int     // ± grey levels of sensor noise
	Dim       int     // grey levels the paper loses (poor light, thermal fade)
	// Keystone is the perspective of a photo taken from below the
	// receipt's middle: its top edge is this fraction narrower than its
	// bottom (0.1: 10%).
	Keystone float64
	Seed     int64
}

// PhonePhoto draws the spoils of an ordinary phone photo: tilted up to 3
// degrees, maybe slightly blurred, noisy, dim, and in up to 8% perspective.
func PhonePhoto(rng *rand.Rand) Photo {
	return Photo{
		RotateDeg: rng.Float64()*6 - 3, Blur: rng.Intn(2), Noise: 5 + rng.Intn(20),
		Dim: rng.Intn(60), Keystone: rng.Float64() * 0.08, Seed: rng.Int63(),
	}
}

// Degrade returns img as a phone might have photographed it.
func Degrade(img image.Image, p Photo) *image.Gray {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	src := image.NewGray(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			src.Set(x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	// Rotate about the centre on a light-grey table, and narrow the rows
	// towards the top for the perspective.
	out := image.NewGray(image.Rect(0, 0, w, h))
	th := p.RotateDeg * math.Pi / 180
	sin, cos := math.Sin(th), math.Cos(th)
	cx, cy := float64(w)/2, float64(h)/2
	for y := 0; y < h; y++ {
		scale := 1 - p.Keystone*(1-float64(y)/float64(h))
		for x := 0; x < w; x++ {
			dx, dy := (float64(x)-cx)/scale, float64(y)-cy
			sx, sy := int(cos*dx+sin*dy+cx), int(-sin*dx+cos*dy+cy)
			v := uint8(200)
			if sx >= 0 && sx < w && sy >= 0 && sy < h {
				v = src.GrayAt(sx, sy).Y
			}
			out.SetGray(x, y, color.Gray{v})
		}
	}
	if p.Blur > 0 {
		out = boxBlur(out, p.Blur)
	}
	rng := rand.New(rand.NewSource(p.Seed))
	for i, v := range out.Pix {
		n := int(v) - p.Dim
		if p.Noise > 0 {
			n += rng.Intn(2*p.Noise+1) - p.Noise
		}
		out.Pix[i] = uint8(min(255, max(0, n)))
	}
	return out
}

func boxBlur(g *image.Gray, r int) *image.Gray {
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	out := image.NewGray(g.Bounds())
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			sum, n := 0, 0
			for yy := max(0, y-r); yy <= min(h-1, y+r); yy++ {
				for xx := max(0, x-r); xx <= min(w-1, x+r); xx++ {
					sum += int(g.Pix[yy*g.Stride+xx])
					n++
				}
			}
			out.Pix[y*out.Stride+x] = uint8(sum / n)
		}
	}
	return out
}
