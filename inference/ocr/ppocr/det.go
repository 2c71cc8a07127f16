package ppocr

import (
	"context"
	"fmt"
	"image"
	"math"
	"slices"
	"time"

	ort "github.com/yalue/onnxruntime_go"
)

// Detection settings, PaddleOCR's defaults unless measured otherwise.
const (
	// DefaultMaxSide caps the width the detector sees; taller pages are
	// read in strips of at most stripHeight rows (scaled), so a long
	// receipt keeps the resolution of a short one.
	DefaultMaxSide = 960
	// stripHeight: ONNX Runtime keeps about 200 MB for a 960×1280 input
	// and more as shapes vary; 960×960 strips bound it.
	stripHeight  = 960
	stripOverlap = 128 // more than a text line's height, so each line lies whole in one strip
	binThresh    = 0.3 // a pixel is text above this probability
	boxThresh    = 0.6 // a region is kept when its mean probability is above this
	unclipRatio  = 1.5 // DB's text kernels are shrunk; grow them back
	minBoxSide   = 3
)

// box is a detected text region on the page: a rectangle centred at c with
// its long side along u (unit vector, near horizontal) of length l and its
// short side along v of length h, in page pixels.
type box struct {
	c     [2]float64
	u, v  [2]float64
	l, h  float64
	score float64
	// slant is the direction of a clearly elongated region's long axis,
	// in radians from the horizontal (positive running down to the right,
	// within ±90°), however steep; slanted says it was measured.
	slant   float64
	slanted bool
}

// minY and maxY are the box's vertical extent on the page.
func (b box) corners() [4][2]float64 {
	var out [4][2]float64
	for i, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		out[i] = [2]float64{
			b.c[0] + s[0]*b.l/2*b.u[0] + s[1]*b.h/2*b.v[0],
			b.c[1] + s[0]*b.l/2*b.u[1] + s[1]*b.h/2*b.v[1],
		}
	}
	return out
}

func (b box) bounds() (x0, y0, x1, y1 float64) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, p := range b.corners() {
		x0, y0 = min(x0, p[0]), min(y0, p[1])
		x1, y1 = max(x1, p[0]), max(y1, p[1])
	}
	return
}

// extent is the box's extent along the unit direction d: its corners
// projected on d. Along (0, 1) it is the box's vertical extent.
func (b box) extent(d [2]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range b.corners() {
		x := p[0]*d[0] + p[1]*d[1]
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// lyingSideways says whether the text the detector found runs down the
// page rather than across it: most of its length in regions three times
// as tall as wide (fitBox leaves such regions upright), at least three of
// them. A receipt's lines across the page are wide regions; a page with
// little text says nothing.
func lyingSideways(boxes []box) bool {
	tall, wide, n := 0.0, 0.0, 0
	for _, b := range boxes {
		switch {
		case b.h >= 3*b.l:
			tall += b.h
			n++
		case b.l >= 3*b.h:
			wide += b.l
		}
	}
	return n >= 3 && tall > 2*wide
}

// cropGain is how much sharper the detector must see a page's text read
// alone before the rest of the page is left out: the detector sees a page
// at most MaxSide wide, so a receipt a quarter of a 4000-pixel photo's
// width is seen at a quarter of its pixels, alone at all of them.
const cropGain = 1.5

// textArea is the part of a w×h page (in its pixels) that holds the text
// the detector found on its working copy (scale page pixels a pixel),
// with a margin of two lines' height, when the detector would see it
// cropGain times sharper alone.
func textArea(boxes []box, scale float64, w, h, maxSide int) (image.Rectangle, bool) {
	if len(boxes) < 4 {
		return image.Rectangle{}, false
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	heights := make([]float64, 0, len(boxes))
	for _, b := range boxes {
		for _, p := range b.corners() {
			x0, y0, x1, y1 = min(x0, p[0]), min(y0, p[1]), max(x1, p[0]), max(y1, p[1])
		}
		heights = append(heights, min(b.l, b.h))
	}
	slices.Sort(heights)
	m := 2 * heights[len(heights)/2]
	r := image.Rect(int((x0-m)*scale), int((y0-m)*scale), int(math.Ceil((x1+m)*scale)), int(math.Ceil((y1+m)*scale))).Intersect(image.Rect(0, 0, w, h))
	sharpness := func(width int) float64 { return min(1, float64(maxSide)/float64(width)) }
	if r.Dx() < 1 || sharpness(r.Dx()) < cropGain*sharpness(w) {
		return image.Rectangle{}, false
	}
	return r, true
}

// straightenFrom is the slant from which a page is straightened before it
// is read: below it the regions are fitted at their own angle and the
// rows measured across the page's (pageSkew), as on most phone photos.
const straightenFrom = 12 * math.Pi / 180

// slantAgree is how near a region's direction must lie to the page's to
// count as running with it.
const slantAgree = 6 * math.Pi / 180

// pageSlant is the one angle most of the page's text runs at, in radians
// from the horizontal (positive running down to the right, within ±90°):
// of its clearly elongated regions, the direction that those within
// slantAgree of it carry the most length, their mean (on the doubled
// angle, so that directions either side of ±90° agree). It is false where
// fewer than four regions run that way, or they hold less than half the
// length (a curled receipt, text at several angles; a logo, a plate or a
// table edge beside the receipt say nothing).
func pageSlant(boxes []box) (float64, bool) {
	var slanted []box
	total := 0.0
	for _, b := range boxes {
		if b.slanted {
			slanted = append(slanted, b)
			total += max(b.l, b.h)
		}
	}
	near := func(a, b float64) bool {
		d := math.Mod(math.Abs(a-b), math.Pi)
		return min(d, math.Pi-d) <= slantAgree
	}
	best, bestW, bestN := 0.0, 0.0, 0
	for _, c := range slanted {
		w, n := 0.0, 0
		for _, b := range slanted {
			if near(b.slant, c.slant) {
				w += max(b.l, b.h)
				n++
			}
		}
		if w > bestW {
			best, bestW, bestN = c.slant, w, n
		}
	}
	if bestN < 4 || bestW < total/2 {
		return 0, false
	}
	var sx, sy float64
	for _, b := range slanted {
		if near(b.slant, best) {
			sx += max(b.l, b.h) * math.Cos(2*b.slant)
			sy += max(b.l, b.h) * math.Sin(2*b.slant)
		}
	}
	return 0.5 * math.Atan2(sy, sx), true
}

// detect finds the page's text regions.
func (r *Reader) detect(ctx context.Context, page *rgb, t *Timings) ([]box, error) {
	s := min(1, float64(r.opt.MaxSide)/float64(page.w))
	sw := int(math.Round(float64(page.w) * s))
	sh := int(math.Round(float64(page.h) * s))
	if sw < 1 || sh < 1 {
		return nil, nil
	}
	var boxes []box
	prevStart, prevEnd := 0, 0 // the previous strip's boxes are boxes[prevStart:prevEnd]
	for top := 0; ; top += stripHeight - stripOverlap {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h := min(stripHeight, sh-top)
		last := top+h >= sh
		got, err := r.detectStrip(page, s, sw, top, h, t)
		if err != nil {
			return nil, err
		}
		start := len(boxes)
		for _, b := range got {
			_, y0, _, y1 := b.bounds()
			// A region touching a cut between strips is whole in the
			// neighbouring strip, which overlaps this one by more than a
			// line's height.
			if top > 0 && y0*s < float64(top)+2 {
				continue
			}
			if !last && y1*s > float64(top+h)-2 {
				continue
			}
			// A region whole in the overlap was found by both strips: it
			// is read once, from the strip where it lies farther from the
			// cut (483 lines of the 287 SROIE receipts were read twice).
			if top > 0 && y0*s < float64(top+stripOverlap) {
				if j := sameRegion(boxes[prevStart:prevEnd], b); j >= 0 {
					_, _, _, py1 := boxes[prevStart+j].bounds()
					if y0*s-float64(top) > float64(top+stripOverlap)-py1*s {
						boxes[prevStart+j] = b
					}
					continue
				}
			}
			boxes = append(boxes, b)
		}
		prevStart, prevEnd = start, len(boxes)
		if last {
			break
		}
	}
	return boxes, nil
}

// sameRegion finds the region among boxes that b covers for the most part
// (their bounds overlap by more than half their union); -1 when none does.
func sameRegion(boxes []box, b box) int {
	bx0, by0, bx1, by1 := b.bounds()
	best, bestIoU := -1, 0.5
	for i, o := range boxes {
		ox0, oy0, ox1, oy1 := o.bounds()
		iw, ih := min(bx1, ox1)-max(bx0, ox0), min(by1, oy1)-max(by0, oy0)
		if iw <= 0 || ih <= 0 {
			continue
		}
		inter := iw * ih
		union := (bx1-bx0)*(by1-by0) + (ox1-ox0)*(oy1-oy0) - inter
		if iou := inter / union; iou > bestIoU {
			best, bestIoU = i, iou
		}
	}
	return best
}

// detectStrip runs the detector on rows [top, top+h) of the page scaled by
// s (sw wide) and returns the regions in page coordinates.
func (r *Reader) detectStrip(page *rgb, s float64, sw, top, h int, t *Timings) ([]box, error) {
	t0 := time.Now()
	pw, ph := (sw+31)/32*32, (h+31)/32*32
	in := make([]float32, 3*pw*ph) // padding is 0: the mean colour
	norm := &detRange
	ss := 1
	if s < 1 {
		ss = min(3, int(math.Ceil(1/s)))
	}
	if s == 1 {
		var level [3][256]float32 // each channel's 0–255 in the model's range
		for c := range level {
			for v := range level[c] {
				level[c][v] = norm.of(c, float32(v))
			}
		}
		plane := pw * ph
		for y := 0; y < h; y++ {
			row := page.pix[3*(top+y)*page.w:]
			for x := 0; x < sw; x++ {
				i := y*pw + x
				in[i] = level[0][row[3*x+2]]
				in[plane+i] = level[1][row[3*x+1]]
				in[2*plane+i] = level[2][row[3*x]]
			}
		}
	} else {
		page.resample(in, sw, h, pw, [2]float64{0, float64(top) / s}, [2]float64{1 / s, 0}, [2]float64{0, 1 / s}, ss, norm)
	}
	t.Prepare += time.Since(t0)

	t1 := time.Now()
	// One page at a time runs the detector, whose buffers are the
	// reader's largest; recognition runs beside it.
	r.detMu.Lock()
	defer r.detMu.Unlock()
	x, err := ort.NewTensor(ort.NewShape(1, 3, int64(ph), int64(pw)), in)
	if err != nil {
		return nil, err
	}
	defer func() { _ = x.Destroy() }() // fails only on a handle already freed
	outs := []ort.Value{nil}
	if err := r.det.Run([]ort.Value{x}, outs); err != nil {
		return nil, fmt.Errorf("text detection failed: %w", err)
	}
	defer func() { _ = outs[0].Destroy() }() // fails only on a handle already freed
	out, ok := outs[0].(*ort.Tensor[float32])
	if !ok {
		return nil, fmt.Errorf("text detection gave %T, want float32", outs[0])
	}
	shape := out.GetShape()
	if len(shape) != 4 || shape[2] != int64(ph) || shape[3] != int64(pw) {
		return nil, fmt.Errorf("text detection gave a map of shape %v for an input of %d×%d", shape, ph, pw)
	}
	t.Detect += time.Since(t1)

	t2 := time.Now()
	found := regions(out.GetData(), pw, sw, h)
	for i := range found {
		b := &found[i]
		b.c = [2]float64{b.c[0] / s, (b.c[1] + float64(top)) / s}
		b.l, b.h = b.l/s, b.h/s
	}
	t.Prepare += time.Since(t2)
	return found, nil
}

// regions finds the text regions of a probability map (stride wide, w×h
// used): connected pixels above binThresh, kept when their mean
// probability passes boxThresh, as rectangles along their main axis grown
// by DB's unclip.
func regions(prob []float32, stride, w, h int) []box {
	label := make([]int32, w*h)
	var out []box
	var stack []int32
	var px []int32
	n := int32(0)
	for start := 0; start < w*h; start++ {
		if label[start] != 0 || prob[(start/w)*stride+start%w] <= binThresh {
			continue
		}
		n++
		label[start] = n
		stack = append(stack[:0], int32(start))
		px = px[:0]
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			px = append(px, p)
			x, y := int(p)%w, int(p)/w
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					q := ny*w + nx
					if label[q] == 0 && prob[ny*stride+nx] > binThresh {
						label[q] = n
						stack = append(stack, int32(q))
					}
				}
			}
		}
		if len(px) < minBoxSide*minBoxSide {
			continue
		}
		if b, ok := fitBox(px, prob, stride, w); ok {
			out = append(out, b)
		}
	}
	return out
}

// fitBox fits a rectangle to one region's pixels: along the region's main
// axis when it is clearly elongated and near horizontal, else upright.
func fitBox(px []int32, prob []float32, stride, w int) (box, bool) {
	var sx, sy, sp float64
	for _, p := range px {
		x, y := float64(int(p)%w), float64(int(p)/w)
		sx += x
		sy += y
		sp += float64(prob[(int(p)/w)*stride+int(p)%w])
	}
	n := float64(len(px))
	score := sp / n
	if score < boxThresh {
		return box{}, false
	}
	mx, my := sx/n, sy/n
	var cxx, cyy, cxy float64
	for _, p := range px {
		dx, dy := float64(int(p)%w)-mx, float64(int(p)/w)-my
		cxx += dx * dx
		cyy += dy * dy
		cxy += dx * dy
	}
	theta := 0.5 * math.Atan2(2*cxy, cxx-cyy)
	// Eigenvalues: how elongated the region is.
	tr, det := cxx+cyy, cxx*cyy-cxy*cxy
	disc := math.Sqrt(max(0, tr*tr/4-det))
	l1, l2 := tr/2+disc, tr/2-disc
	slant, slanted := theta, l2 > 0 && l1 >= 4*l2
	if math.Abs(theta) > 20*math.Pi/180 || l2 <= 0 || l1 < 4*l2 || math.Abs(theta) < 0.5*math.Pi/180 {
		theta = 0
	}
	u := [2]float64{math.Cos(theta), math.Sin(theta)}
	v := [2]float64{-u[1], u[0]}
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, p := range px {
		x, y := float64(int(p)%w)+0.5, float64(int(p)/w)+0.5
		a := x*u[0] + y*u[1]
		b := x*v[0] + y*v[1]
		lo[0], hi[0] = min(lo[0], a-0.5), max(hi[0], a+0.5)
		lo[1], hi[1] = min(lo[1], b-0.5), max(hi[1], b+0.5)
	}
	l, h := hi[0]-lo[0], hi[1]-lo[1]
	if min(l, h) < minBoxSide {
		return box{}, false
	}
	// DB's unclip: grow by area × ratio / perimeter on every side.
	d := l * h * unclipRatio / (2 * (l + h))
	ca, cb := (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
	c := [2]float64{ca*u[0] + cb*v[0], ca*u[1] + cb*v[1]}
	return box{c: c, u: u, v: v, l: l + 2*d, h: h + 2*d, score: score, slant: slant, slanted: slanted}, true
}
