package ppocr

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

// pageText is the page's words line by line.
func pageText(words []wordLike) string {
	var b strings.Builder
	line := -1
	for _, w := range words {
		if w.line != line && line >= 0 {
			b.WriteByte('\n')
		} else if line >= 0 {
			b.WriteByte(' ')
		}
		line = w.line
		b.WriteString(w.text)
	}
	return b.String()
}

type wordLike struct {
	text string
	line int
}

func readText(t *testing.T, r *Reader, img image.Image) string {
	t.Helper()
	words, _, err := r.Read(context.Background(), img, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ws []wordLike
	for _, w := range words {
		if w.Box.W <= 0 || w.Box.H <= 0 || w.Conf <= 0 || w.Conf > 1 {
			t.Errorf("word %q has box %+v and confidence %.2f", w.Text, w.Box, w.Conf)
		}
		for _, a := range w.Alts {
			if a.At < 0 || a.At >= len([]rune(w.Text)) || a.P < minAltP || a.P > 1 || len(a.Text) != 1 {
				t.Errorf("word %q has a second choice %+v outside it", w.Text, a)
			}
		}
		ws = append(ws, wordLike{w.Text, w.Line})
	}
	return pageText(ws)
}

// A dev receipt read with the real models and ONNX Runtime shows its
// labelled total, date and the supplier's name with its spaces.
func TestReadsADevReceipt(t *testing.T) {
	r := testReader(t)
	pg := loadPage(t, sroie(t, "sroie-dev", "000.jpg"))
	text := readText(t, r, pg.Image)
	t.Log(text)
	for _, want := range []string{"9.00", "25/12/2018", "SDN BH", "JOHOR BAHRU", "THANK YOU"} {
		if !strings.Contains(text, want) {
			t.Errorf("the reading lacks %q", want)
		}
	}
	// "Total: 9.00" is one line though the detector sees two regions.
	found := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "Total") && strings.HasSuffix(l, "9.00") {
			found = true
		}
	}
	if !found {
		t.Error("the total's label and amount are not on one line")
	}
}

// imageOf is the reader's page copy as an image, to hand to Read.
func imageOf(p *rgb) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, p.w, p.h))
	for i := 0; i < p.w*p.h; i++ {
		copy(img.Pix[4*i:4*i+3], p.pix[3*i:3*i+3])
		img.Pix[4*i+3] = 255
	}
	return img
}

// A receipt photographed upside down or on either side is turned upright
// and read in order, top line first; a page upright is not turned.
func TestReadsATurnedReceipt(t *testing.T) {
	r := testReader(t)
	pg := loadPage(t, sroie(t, "sroie-dev", "000.jpg"))
	for q := range 4 {
		words, tm, err := r.Read(context.Background(), imageOf(toRGB(pg.Image).turned(q)), 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := (4 - q) % 4; tm.Upright.Turns != want {
			t.Errorf("a page turned %d quarter turns was turned %d more, want %d", q, tm.Upright.Turns, want)
		}
		readsInOrder(t, fmt.Sprintf("turned %d", q), words, "JOHOR BAHRU", "25/12/2018", "9.00", "THANK YOU")
	}
}

// readsInOrder checks that a reading of SROIE 000 holds each of want, the
// first before the last (the head of the page read before its foot).
func readsInOrder(t *testing.T, how string, words []inference.Word, want ...string) {
	t.Helper()
	var text strings.Builder
	for _, w := range words {
		text.WriteString(w.Text + " ")
	}
	got := text.String()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s: the reading lacks %q:\n%s", how, w, got)
		}
	}
	if strings.Index(got, want[0]) > strings.Index(got, want[len(want)-1]) {
		t.Errorf("%s: %q is read after %q:\n%s", how, want[0], want[len(want)-1], got)
	}
}

// A receipt photographed at a slant, however steep, is straightened and
// read in order; the boxes PageBox gives back lie on the page as given.
func TestReadsASlantedReceipt(t *testing.T) {
	r := testReader(t)
	pg := loadPage(t, sroie(t, "sroie-dev", "000.jpg"))
	upright := toRGB(pg.Image)
	for _, deg := range []float64{25, -35, 110} {
		// straightened by −a leaves the page's level text running at a.
		a := deg * math.Pi / 180
		slanted := upright.straightened(-a)
		words, tm, err := r.Read(context.Background(), imageOf(slanted), 0)
		if err != nil {
			t.Fatal(err)
		}
		if tm.Upright.Tilt == 0 {
			t.Errorf("%v°: the page was not straightened (%+v)", deg, tm.Upright)
		}
		for _, w := range words {
			if b := tm.Upright.PageBox(w.Box, slanted.w, slanted.h); b.X < 0 || b.Y < 0 || b.X+b.W > slanted.w || b.Y+b.H > slanted.h {
				t.Errorf("%v°: %q put back at %+v, off the %d×%d page", deg, w.Text, b, slanted.w, slanted.h)
			}
		}
		readsInOrder(t, fmt.Sprintf("%v°", deg), words, "25/12/2018", "9.00", "THANK YOU")
	}
}

// A receipt small in a large photo is read from its own part of the page,
// which the detector then sees at full sharpness, and its words put back
// where the receipt lies.
func TestReadsAReceiptSmallInALargePhoto(t *testing.T) {
	r := testReader(t)
	pg := loadPage(t, sroie(t, "sroie-dev", "000.jpg"))
	rb := pg.Image.Bounds()
	at := image.Pt(3*rb.Dx(), rb.Dy()/2)
	photo := image.NewRGBA(image.Rect(0, 0, 5*rb.Dx(), 2*rb.Dy()))
	draw.Draw(photo, photo.Rect, image.NewUniform(color.RGBA{112, 88, 64, 255}), image.Point{}, draw.Src) // a table
	draw.Draw(photo, rb.Sub(rb.Min).Add(at), pg.Image, rb.Min, draw.Src)
	words, tm, err := r.Read(context.Background(), photo, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tm.Upright.Crop.Empty() || !tm.Upright.Crop.Overlaps(rb.Sub(rb.Min).Add(at)) {
		t.Fatalf("the photo was read as %+v, want the receipt's part of it", tm.Upright)
	}
	receiptArea := rb.Sub(rb.Min).Add(at).Inset(-20)
	for _, w := range words {
		b := tm.Upright.PageBox(w.Box, photo.Rect.Dx(), photo.Rect.Dy())
		if !image.Rect(b.X, b.Y, b.X+b.W, b.Y+b.H).In(receiptArea) {
			t.Errorf("%q put back at %+v, off the receipt at %v", w.Text, b, receiptArea)
		}
	}
	readsInOrder(t, "small in a photo", words, "25/12/2018", "9.00", "THANK YOU")
}

// A box on the upright page, taken back, lies where its pixels were on
// the page as given.
func TestPageBoxUndoesTheStraightening(t *testing.T) {
	const w, h = 400, 600
	for _, up := range []Upright{{Turns: 1, Tilt: 20 * math.Pi / 180}, {Turns: 2, Tilt: -30 * math.Pi / 180}, {Tilt: 15 * math.Pi / 180}} {
		tw, th := w, h
		if up.Turns%2 == 1 {
			tw, th = h, w
		}
		cw, ch := StraightSize(tw, th, up.Tilt)
		for _, p := range [][2]int{{100, 150}, {350, 40}, {20, 580}} {
			// Where the point lies once turned, then on the straightened
			// canvas (StraightSource's inverse).
			x, y := turnPoint(p[0], p[1], w, h, up.Turns)
			dx, dy := float64(x)+0.5-float64(tw)/2, float64(y)+0.5-float64(th)/2
			c, s := math.Cos(up.Tilt), math.Sin(up.Tilt)
			u, v := float64(cw)/2+c*dx+s*dy, float64(ch)/2-s*dx+c*dy
			b := up.PageBox(receipt.Box{X: int(u) - 1, Y: int(v) - 1, W: 3, H: 3}, w, h)
			if p[0] < b.X-1 || p[0] > b.X+b.W || p[1] < b.Y-1 || p[1] > b.Y+b.H {
				t.Errorf("%+v: the point %v, read at (%.0f, %.0f), put back at %+v", up, p, u, v, b)
			}
		}
	}
}

// TurnBox takes a box on the turned page back where its pixels lay.
func TestTurnBoxUndoesTheTurn(t *testing.T) {
	const w, h = 40, 30
	b := receipt.Box{X: 5, Y: 7, W: 10, H: 4}
	for q := range 4 {
		// The box's corner pixels, turned, span the box on the turned page.
		x0, y0 := turnPoint(b.X, b.Y, w, h, q)
		x1, y1 := turnPoint(b.X+b.W-1, b.Y+b.H-1, w, h, q)
		on := receipt.Box{X: min(x0, x1), Y: min(y0, y1), W: max(x0, x1) - min(x0, x1) + 1, H: max(y0, y1) - min(y0, y1) + 1}
		if got := TurnBox(on, w, h, q); got != b {
			t.Errorf("%d quarter turns: %+v came back as %+v, want %+v", q, on, got, b)
		}
	}
}

// A blank page, a tiny one and a page of noise give no words and no error.
func TestBlankAndTinyPages(t *testing.T) {
	r := testReader(t)
	white := image.NewGray(image.Rect(0, 0, 600, 900))
	draw.Draw(white, white.Rect, image.NewUniform(color.White), image.Point{}, draw.Src)
	for name, img := range map[string]image.Image{
		"white": white, "black": image.NewGray(image.Rect(0, 0, 300, 300)),
		"one pixel": image.NewGray(image.Rect(0, 0, 1, 1)), "empty": image.NewGray(image.Rect(0, 0, 0, 0)),
	} {
		words, _, err := r.Read(context.Background(), img, 0)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if len(words) > 0 {
			t.Errorf("%s: read %d words", name, len(words))
		}
	}
	if _, _, err := r.Read(context.Background(), nil, 0); err == nil {
		t.Error("a page without an image read without error")
	}
}

// A 20,000-pixel-tall page is read in strips at full resolution: a
// receipt pasted at its top, across a cut between strips and at its foot
// is read three times, each where it lies.
func TestVeryTallPage(t *testing.T) {
	r := testReader(t)
	pg := loadPage(t, sroie(t, "sroie-dev", "000.jpg"))
	b := pg.Image.Bounds()
	tall := image.NewRGBA(image.Rect(0, 0, b.Dx(), 20000))
	draw.Draw(tall, tall.Rect, image.NewUniform(color.White), image.Point{}, draw.Src)
	tops := []int{0, 9000, 20000 - b.Dy()}
	for _, y := range tops {
		draw.Draw(tall, b.Sub(b.Min).Add(image.Pt(0, y)), pg.Image, b.Min, draw.Src)
	}
	words, _, err := r.Read(context.Background(), tall, 0)
	if err != nil {
		t.Fatal(err)
	}
	var at []int
	for _, w := range words {
		if strings.Contains(w.Text, "25/12/2018") {
			at = append(at, w.Box.Y)
		}
	}
	if len(at) != len(tops) {
		t.Fatalf("the date was read at %v, want once in each of the copies at %v", at, tops)
	}
	for i, y := range at {
		if d := y - tops[i]; d < 0 || d > b.Dy() {
			t.Errorf("copy %d's date at y=%d, outside the copy at %d", i, y, tops[i])
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := r.Read(ctx, tall, 0); err == nil {
		t.Error("a cancelled read went on")
	}
}

// A receipt taller than one strip is read once: the lines in the overlap
// of two strips, which both strips find, give one reading, not two (SROIE
// 070's item line at y=894 was read "LOIAN" and "LOKAM", one under the
// other, and counted twice).
func TestOverlapOfStripsReadOnce(t *testing.T) {
	r := testReader(t)
	pg := loadPage(t, sroie(t, "sroie-dev", "070.jpg"))
	if h := pg.Image.Bounds().Dy(); h <= stripHeight {
		t.Fatalf("the page is %d px tall, one strip: it tests nothing", h)
	}
	words, _, err := r.Read(context.Background(), pg.Image, 0)
	if err != nil {
		t.Fatal(err)
	}
	inOverlap := 0
	for i, a := range words {
		if a.Box.Y >= stripHeight-stripOverlap && a.Box.Y+a.Box.H <= stripHeight {
			inOverlap++
		}
		for _, b := range words[i+1:] {
			x0, y0 := max(a.Box.X, b.Box.X), max(a.Box.Y, b.Box.Y)
			x1, y1 := min(a.Box.X+a.Box.W, b.Box.X+b.Box.W), min(a.Box.Y+a.Box.H, b.Box.Y+b.Box.H)
			if x1 > x0 && y1 > y0 && 2*(x1-x0)*(y1-y0) > min(a.Box.W*a.Box.H, b.Box.W*b.Box.H) {
				t.Errorf("%q at %+v and %q at %+v are one print read twice", a.Text, a.Box, b.Text, b.Box)
			}
		}
	}
	if inOverlap == 0 {
		t.Error("no word lies in the strips' overlap: the page tests nothing")
	}
}

// Missing and damaged parts are named in a clear error.
func TestMissingAndDamagedModels(t *testing.T) {
	src := testDir(t)
	link := func(dir string, names ...string) {
		for _, n := range names {
			if err := os.Symlink(filepath.Join(src, n), filepath.Join(dir, n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	missing := t.TempDir()
	link(missing, Library, Keys, RecModel)
	if _, err := New(Options{Dir: missing}); err == nil || !strings.Contains(err.Error(), DetModel) {
		t.Errorf("a missing detector gave %v", err)
	}
	damaged := t.TempDir()
	link(damaged, Library, Keys, RecModel, ClsModel)
	data, err := os.ReadFile(filepath.Join(src, DetModel))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(damaged, DetModel), data[:len(data)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Dir: damaged}); err == nil || !strings.Contains(err.Error(), DetModel) {
		t.Errorf("a truncated detector gave %v", err)
	} else {
		t.Log(err)
	}
	// A damaged alphabet that no longer matches the recogniser.
	keys := t.TempDir()
	link(keys, Library, DetModel, RecModel)
	if err := os.WriteFile(filepath.Join(keys, Keys), []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Dir: keys}); err == nil || !strings.Contains(err.Error(), Keys) {
		t.Errorf("a damaged alphabet gave %v", err)
	}
}

func BenchmarkDetect(b *testing.B) {
	r := testReader(b)
	page := toRGB(loadPage(b, sroie(b, "sroie-dev", "000.jpg")).Image)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var t Timings
		if _, err := r.detect(context.Background(), page, &t); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecognise(b *testing.B) {
	r := testReader(b)
	page := toRGB(loadPage(b, sroie(b, "sroie-dev", "000.jpg")).Image)
	var t Timings
	boxes, err := r.detect(context.Background(), page, &t)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(boxes)), "lines/page")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.recognise(context.Background(), page, boxes, &t); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadPage(b *testing.B) {
	r := testReader(b)
	img := loadPage(b, sroie(b, "sroie-dev", "000.jpg")).Image
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := r.Read(context.Background(), img, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// showingThrough is page with back printed on the other side of its paper
// showing through: back mirrored, its ink at share of its darkness.
func showingThrough(page, back *rgb, share float64) *rgb {
	out := &rgb{w: page.w, h: page.h, pix: slices.Clone(page.pix)}
	for y := 0; y < out.h; y++ {
		for x := 0; x < out.w; x++ {
			bx, by := back.w-1-x*back.w/out.w, y*back.h/out.h // mirrored, stretched to the page
			for c := 0; c < 3; c++ {
				dark := 255 - float64(back.pix[3*(by*back.w+bx)+c])
				i := 3*(y*out.w+x) + c
				out.pix[i] = uint8(max(0, float64(out.pix[i])-share*dark))
			}
		}
	}
	return out
}

// faded is page with its print's darkness cut to share below row from.
func faded(page *rgb, from int, share float64) *rgb {
	out := &rgb{w: page.w, h: page.h, pix: slices.Clone(page.pix)}
	for i := 3 * from * page.w; i < len(out.pix); i++ {
		out.pix[i] = uint8(255 - share*(255-float64(out.pix[i])))
	}
	return out
}

// The back of thin paper showing through is left out of the reading, the
// front read as before; faded print of the front, which reads worse
// mirrored, is kept.
func TestTheBackOfThePaperShowingThroughIsLeftOut(t *testing.T) {
	r := testReader(t)
	front := toRGB(loadPage(t, sroie(t, "sroie-dev", "000.jpg")).Image)
	back := toRGB(loadPage(t, sroie(t, "sroie-dev", "006.jpg")).Image)
	clean, tc, err := r.Read(context.Background(), imageOf(front), 0)
	if err != nil {
		t.Fatal(err)
	}
	if tc.ShowThrough != 0 {
		t.Errorf("a clean page had %d lines left out as showing through", tc.ShowThrough)
	}
	words, tm, err := r.Read(context.Background(), imageOf(showingThrough(front, back, 0.12)), 0)
	if err != nil {
		t.Fatal(err)
	}
	if tm.ShowThrough < 5 {
		t.Errorf("%d lines of the back left out, want most of them", tm.ShowThrough)
	}
	readsInOrder(t, "showing through", words, "JOHOR BAHRU", "25/12/2018", "9.00", "THANK YOU")
	if lines := func(ws []inference.Word) int { return ws[len(ws)-1].Line + 1 }; lines(words) > lines(clean)+3 {
		t.Errorf("%d lines read with the back showing through, %d without", lines(words), lines(clean))
	}
	words, tm, err = r.Read(context.Background(), imageOf(faded(front, front.h/2, 0.3)), 0)
	if err != nil {
		t.Fatal(err)
	}
	if tm.ShowThrough != 0 {
		t.Errorf("%d lines of faded print left out as showing through", tm.ShowThrough)
	}
	readsInOrder(t, "faded below its middle", words, "JOHOR BAHRU", "25/12/2018", "9.00", "THANK YOU")
}
