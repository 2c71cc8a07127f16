//go:build ignore

// icon_gen draws Shoebox's icon, a cardboard box with a receipt standing in
// it, to icon.png. Run with `go run assets/icon_gen.go` from the repo root.
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"os"
)

func main() {
	const n = 512
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	fill := func(x0, y0, x1, y1 int, c color.NRGBA) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.SetNRGBA(x, y, c)
			}
		}
	}
	round := func(x0, y0, x1, y1, r int, c color.NRGBA) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				dx, dy := 0, 0
				if x < x0+r {
					dx = x0 + r - x
				} else if x >= x1-r {
					dx = x - (x1 - r - 1)
				}
				if y < y0+r {
					dy = y0 + r - y
				} else if y >= y1-r {
					dy = y - (y1 - r - 1)
				}
				if dx*dx+dy*dy <= r*r {
					img.SetNRGBA(x, y, c)
				}
			}
		}
	}
	paper := color.NRGBA{0xfb, 0xfa, 0xf5, 0xff}
	ink := color.NRGBA{0x4a, 0x55, 0x68, 0xff}
	green := color.NRGBA{0x2f, 0x9e, 0x6e, 0xff}
	// the receipt, with a zig-zag tear at the top
	fill(150, 40, 362, 330, paper)
	for x := 150; x < 362; x++ {
		h := (x - 150) % 24
		if h > 12 {
			h = 24 - h
		}
		fill(x, 40, x+1, 40+h, color.NRGBA{})
	}
	for i, w := range []int{150, 110, 130, 90, 140} {
		fill(180, 80+i*34, 180+w, 94+i*34, ink)
		fill(300, 80+i*34, 332, 94+i*34, ink)
	}
	fill(180, 262, 332, 282, green)
	// the box
	round(40, 230, 472, 480, 28, color.NRGBA{0xc6, 0x8b, 0x4e, 0xff})
	fill(40, 230, 472, 290, color.NRGBA{0xa8, 0x70, 0x3a, 0xff})
	round(190, 330, 322, 380, 14, color.NRGBA{0x7a, 0x4e, 0x25, 0xff})
	f, err := os.Create("assets/icon.png")
	if err != nil {
		log.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
