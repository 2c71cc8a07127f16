package ppocr

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	ort "github.com/yalue/onnxruntime_go"
)

// Recognition settings.
const (
	recHeight = 48
	// recMaxWidth caps a line crop's width (48 px high): a ratio of 40,
	// longer than any receipt line seen.
	recMaxWidth = 48 * 40
	// defaultRecBatch: lines are read one at a time. Batches pad every
	// line to the widest, and cost more CPU for the page than single
	// lines do (measured on SROIE 000: 1.0 s for lines one by one, 1.1 s
	// in twos, 1.9 s in eights, 3.4 s in sixteens).
	defaultRecBatch = 1
	clsWidth        = 192
	clsBatch        = 16
	clsSample       = 16 // lines that vote on a page's angle
	// clsFlip is how sure the angle classifier must be that a line is
	// upside down before it is turned.
	clsFlip = 0.9
)

// crop is one text region cut out of the page at the recogniser's height.
type crop struct {
	b box
	w int // width at height 48
}

// char is one recognised character with the time steps it spans.
type char struct {
	text        string
	first, last int
	conf        float32
	// alt is the recogniser's second choice over the character's steps
	// (another character, not a blank), altP its probability at its
	// likeliest step.
	alt  string
	altP float32
}

// textLine is one region's reading.
type textLine struct {
	b     box
	chars []char
	steps int     // time steps of the crop (its padded width / steps)
	width float64 // crop width in the recogniser's pixels, padding excluded
	// ink says which columns of the crop (at height 48) hold ink, and
	// inkH is the text's height in the crop's rows: word gaps are found
	// there, since the recogniser's time steps (8 columns) are too
	// coarse to tell a space from a wide letter.
	ink  []bool
	inkH float64
	px   float64 // crop columns per time step
	// letterGap is the median blank run between the line's characters.
	letterGap float64
	// contrast is the crop's paper less its ink, in the model's input
	// range (0 to 2): faint print, or the back of the paper (showThrough).
	contrast float64
}

// cutInto samples the region b of the page, turned upright, at height h
// and width w into dst, whose rows are stride apart (a model's input with
// its padding).
func cutInto(dst []float32, stride int, page *rgb, b box, w, h int, norm *inputRange) {
	// Page point for crop pixel (u, v): top-left corner + u·du + v·dv.
	du := [2]float64{b.u[0] * b.l / float64(w), b.u[1] * b.l / float64(w)}
	dv := [2]float64{b.v[0] * b.h / float64(h), b.v[1] * b.h / float64(h)}
	o := [2]float64{b.c[0] - b.l/2*b.u[0] - b.h/2*b.v[0], b.c[1] - b.l/2*b.u[1] - b.h/2*b.v[1]}
	ss := min(3, max(1, int(math.Ceil(b.h/float64(h)))))
	page.resample(dst, w, h, stride, o, du, dv, ss, norm)
}

// cropsOf sizes each region for the recogniser: its width at height 48.
func cropsOf(boxes []box) []crop {
	crops := make([]crop, len(boxes))
	for i, b := range boxes {
		w := int(math.Round(b.l / b.h * recHeight))
		w = min(max(w, 8), recMaxWidth)
		crops[i] = crop{b: b, w: w}
	}
	return crops
}

// recognise reads every region, in batches of similar widths.
func (r *Reader) recognise(ctx context.Context, page *rgb, boxes []box, t *Timings) ([]textLine, error) {
	// A line is cut out just before it is read, so a page's crops are
	// never all in memory at once.
	crops := cropsOf(boxes)
	t2 := time.Now()
	order := make([]int, len(crops))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return crops[order[a]].w < crops[order[b]].w })
	lines := make([]textLine, len(crops))
	var in recInput
	for start := 0; start < len(order); start += recBatchN {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		batch := order[start:min(start+recBatchN, len(order))]
		t0 := time.Now()
		in.cut(page, crops, batch)
		t.Prepare += time.Since(t0)
		if err := r.recBatch(&in, crops, batch, lines); err != nil {
			return nil, err
		}
	}
	t.Recognise += time.Since(t2)
	return lines, nil
}

// recInput is the recogniser's input for one batch: the crops, each padded
// to the widest (pw, a multiple of 8) with 0, mid-grey. Its buffer serves
// every batch of a page, so a page's lines are cut into one allocation.
type recInput struct {
	pix []float32
	pw  int
}

// cut samples the crops listed in batch into the input.
func (in *recInput) cut(page *rgb, crops []crop, batch []int) {
	pw := 0
	for _, i := range batch {
		pw = max(pw, crops[i].w)
	}
	in.pw = (pw + 7) / 8 * 8
	n := len(batch) * 3 * recHeight * in.pw
	if cap(in.pix) < n {
		in.pix = make([]float32, n)
	}
	in.pix = in.pix[:n]
	clear(in.pix)
	for k, i := range batch {
		c := crops[i]
		cutInto(in.pix[k*3*recHeight*in.pw:], in.pw, page, c.b, c.w, recHeight, &recRange)
	}
}

// recBatch reads the crops listed in batch, as cut into in, into lines.
func (r *Reader) recBatch(in *recInput, crops []crop, batch []int, lines []textLine) error {
	n, pw := len(batch), in.pw
	x, err := ort.NewTensor(ort.NewShape(int64(n), 3, recHeight, int64(pw)), in.pix)
	if err != nil {
		return err
	}
	defer func() { _ = x.Destroy() }() // fails only on a handle already freed
	outs := []ort.Value{nil}
	if err := r.rec.Run([]ort.Value{x}, outs); err != nil {
		return fmt.Errorf("text recognition failed: %w", err)
	}
	defer func() { _ = outs[0].Destroy() }() // fails only on a handle already freed
	out, ok := outs[0].(*ort.Tensor[float32])
	if !ok {
		return fmt.Errorf("text recognition gave %T, want float32", outs[0])
	}
	shape := out.GetShape()
	classes := len(r.keys) + 1
	if len(shape) != 3 || shape[0] != int64(n) || shape[2] != int64(classes) {
		return fmt.Errorf("text recognition gave shape %v, want [%d T %d] (does %s match the model?)", shape, n, classes, Keys)
	}
	steps := int(shape[1])
	data := out.GetData()
	for k, i := range batch {
		c := crops[i]
		chars := decode(data[k*steps*classes:(k+1)*steps*classes], steps, classes, r.keys)
		// Steps past the crop's own width read the padding.
		ink, inkH, contrast := inkColumns(in.pix[k*3*recHeight*pw:(k+1)*3*recHeight*pw], c.w, recHeight, pw)
		lines[i] = textLine{
			b: c.b, chars: chars, steps: steps, width: float64(c.w) * float64(steps) / float64(pw),
			ink: ink, inkH: inkH, px: float64(pw) / float64(steps), contrast: contrast,
		}
		lines[i].letterGap = letterGap(lines[i])
	}
	return nil
}

// decode is CTC's greedy decoding: the likeliest class at each time step,
// repeats merged, blanks (class 0) dropped; each character keeps the steps
// it spans and its mean probability.
func decode(probs []float32, steps, classes int, keys []string) []char {
	var out []char
	prev := 0
	for t := 0; t < steps; t++ {
		row := probs[t*classes : (t+1)*classes]
		best, bp := 0, row[0]
		second, sp := 0, float32(0) // the likeliest character after best
		for c := 1; c < classes; c++ {
			switch v := row[c]; {
			case v > bp:
				if best != 0 {
					second, sp = best, bp
				}
				best, bp = c, v
			case v > sp:
				second, sp = c, v
			}
		}
		switch {
		case best == 0:
		case best == prev && len(out) > 0 && out[len(out)-1].last == t-1:
			ch := &out[len(out)-1]
			n := float32(ch.last - ch.first + 1)
			ch.conf = (ch.conf*n + bp) / (n + 1)
			ch.last = t
			if second != 0 && sp > ch.altP {
				ch.alt, ch.altP = halfWidth(keys[second-1]), sp
			}
		default:
			ch := char{text: halfWidth(keys[best-1]), first: t, last: t, conf: bp}
			if second != 0 {
				ch.alt, ch.altP = halfWidth(keys[second-1]), sp
			}
			out = append(out, ch)
		}
		prev = best
	}
	return out
}

// upsideDown says whether the angle classifier finds most of the page's
// lines upside down: a page is photographed or scanned upside down as a
// whole, and is then turned (Read). Lines alone are not turned: on the
// SROIE receipts, all upright, the classifier turned a date line now and
// then ("8102/20/22").
//
// The vote is taken on the page's clsSample widest lines: more lines did
// not change a page's verdict, and classifying every line cost 5% of the
// page's time.
func (r *Reader) upsideDown(ctx context.Context, page *rgb, boxes []box, t *Timings) (bool, error) {
	t0 := time.Now()
	defer func() { t.Classify += time.Since(t0) }()
	crops := cropsOf(boxes)
	sample := make([]int, len(crops))
	for i := range sample {
		sample[i] = i
	}
	sort.SliceStable(sample, func(a, b int) bool { return crops[sample[a]].w > crops[sample[b]].w })
	sample = sample[:min(len(sample), clsSample)]
	up := make([]bool, len(sample))
	for start := 0; start < len(sample); start += clsBatch {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		end := min(start+clsBatch, len(sample))
		n := end - start
		in := make([]float32, n*3*recHeight*clsWidth)
		for k := 0; k < n; k++ {
			c := crops[sample[start+k]]
			w := min(c.w, clsWidth)
			// The classifier sees the line's start, squeezed to 192 wide at most.
			b := c.b
			if c.w > clsWidth*3 { // a long line: its first part is enough
				part := float64(clsWidth*3) / float64(c.w)
				b.c = [2]float64{b.c[0] - b.l*(1-part)/2*b.u[0], b.c[1] - b.l*(1-part)/2*b.u[1]}
				b.l *= part
				w = clsWidth
			}
			cutInto(in[k*3*recHeight*clsWidth:], clsWidth, page, b, w, recHeight, &recRange)
		}
		x, err := ort.NewTensor(ort.NewShape(int64(n), 3, recHeight, clsWidth), in)
		if err != nil {
			return false, err
		}
		outs := []ort.Value{nil}
		err = r.cls.Run([]ort.Value{x}, outs)
		_ = x.Destroy() // fails only on a handle already freed
		if err != nil {
			return false, fmt.Errorf("the angle classifier failed: %w", err)
		}
		out, ok := outs[0].(*ort.Tensor[float32])
		if !ok || len(out.GetData()) != 2*n {
			_ = outs[0].Destroy()
			return false, fmt.Errorf("the angle classifier gave %v, want [%d 2]", outs[0].GetShape(), n)
		}
		p := out.GetData()
		for k := 0; k < n; k++ {
			up[start+k] = p[2*k+1] > clsFlip
		}
		_ = outs[0].Destroy()
	}
	n := 0
	for _, u := range up {
		if u {
			n++
		}
	}
	return 2*n > len(sample), nil
}

// inkColumns finds the columns of a crop (CHW in [-1, 1], w×h in rows
// stride apart) with ink: darker than halfway between the crop's paper and
// its ink, in the rows the text fills. It also gives the text's height in
// rows, and its contrast (paper less ink, 0 to 2); a crop without
// contrast has no ink.
func inkColumns(pix []float32, w, h, stride int) (cols []bool, inkH, contrast float64) {
	plane := w * h
	gray := make([]float32, plane)
	for y := 0; y < h; y++ {
		row := pix[y*stride:]
		for x := 0; x < w; x++ {
			gray[y*w+x] = (row[x] + row[stride*h+x] + row[2*stride*h+x]) / 3
		}
	}
	// Paper and ink levels: the 90th and 5th percentiles, from a histogram.
	var hist [256]int
	for _, v := range gray {
		hist[min(255, max(0, int((v+1)*127.5)))]++
	}
	pct := func(p float64) float32 {
		want, n := int(p*float64(plane)), 0
		for i, c := range hist {
			n += c
			if n > want {
				return float32(i)/127.5 - 1
			}
		}
		return 1
	}
	ink, paper := pct(0.05), pct(0.90)
	cols = make([]bool, w)
	contrast = float64(paper - ink)
	if paper-ink < 0.25 {
		return cols, 0, contrast
	}
	th := (ink + paper) / 2
	rowInk := make([]int, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if gray[y*w+x] < th {
				rowInk[y]++
			}
		}
	}
	// The text's rows: the band of rows with a tenth of the busiest row's
	// ink around the busiest, which leaves out the edges of the lines above
	// and below that the region's margin takes in.
	busiest, by := 0, 0
	for y, n := range rowInk {
		if n > busiest {
			busiest, by = n, y
		}
	}
	if busiest == 0 {
		return cols, 0, contrast
	}
	y0, y1 := by, by
	for y0 > 0 && rowInk[y0-1]*10 >= busiest {
		y0--
	}
	for y1 < h-1 && rowInk[y1+1]*10 >= busiest {
		y1++
	}
	for x := 0; x < w; x++ {
		dark := 0
		for y := y0; y <= y1; y++ {
			if gray[y*w+x] < th {
				dark++
			}
		}
		cols[x] = dark >= 2
	}
	return cols, float64(y1 - y0 + 1), contrast
}

// recBatchN is how many lines are read in one run (a variable for tests).
var recBatchN = defaultRecBatch

// halfWidth writes the recogniser's full-width forms (U+FF01–FF5E: "：",
// "（", "ＲＭ") as their ASCII letters, digits and marks, which the rules
// look for.
func halfWidth(s string) string {
	r := []rune(s)
	if len(r) == 1 && r[0] >= 0xFF01 && r[0] <= 0xFF5E {
		return string(r[0] - 0xFEE0)
	}
	return s
}
