package library

import (
	"image"
	"image/color"

	"golang.org/x/image/draw"
)

// shrink scales img to fit in size×size. JPEG pages (YCbCr) are box-filtered
// directly, which is several times faster than a kernel scaler and as sharp
// at thumbnail size; other images go through the kernel scaler.
func shrink(img image.Image, size int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > size || h > size {
		if w >= h {
			w, h = size, max(1, h*size/w)
		} else {
			w, h = max(1, w*size/h), size
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	src, ok := img.(*image.YCbCr)
	if !ok {
		draw.BiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
		return dst
	}
	for dy := 0; dy < h; dy++ {
		y0 := b.Min.Y + dy*b.Dy()/h
		y1 := max(y0+1, b.Min.Y+(dy+1)*b.Dy()/h)
		for dx := 0; dx < w; dx++ {
			x0 := b.Min.X + dx*b.Dx()/w
			x1 := max(x0+1, b.Min.X+(dx+1)*b.Dx()/w)
			// Average at most 4×4 samples spread over the source cell.
			sy, sx := max(1, (y1-y0)/4), max(1, (x1-x0)/4)
			var ys, cbs, crs, n int
			for y := y0; y < y1; y += sy {
				for x := x0; x < x1; x += sx {
					ys += int(src.Y[src.YOffset(x, y)])
					ci := src.COffset(x, y)
					cbs += int(src.Cb[ci])
					crs += int(src.Cr[ci])
					n++
				}
			}
			r, g, bl := color.YCbCrToRGB(uint8(ys/n), uint8(cbs/n), uint8(crs/n))
			i := dst.PixOffset(dx, dy)
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = r, g, bl, 0xff
		}
	}
	return dst
}
