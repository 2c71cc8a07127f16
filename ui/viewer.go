package ui

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// viewer shows a receipt's page: fit or zoomed, rotated, page by page, with
// the box of the focused field outlined.
type viewer struct {
	img     *canvas.Image
	mark    *canvas.Rectangle
	stack   *fyne.Container
	scroll  *container.Scroll
	watcher *resizeWatcher
	info    *widget.Label
	// rotateButton turns the page a quarter clockwise.
	rotateButton *widget.Button
	pageImg      image.Image
	// paper is the part of the page that is not blank margin: the view
	// shows only it, so a small receipt on a big white scan fills the panel.
	paper    image.Rectangle
	shown    image.Image // the paper, turned
	scale    float64     // screen pixels per page pixel, as laid out
	page     int
	pages    int
	zoom     float64 // 0 means fit to the panel
	rotation int     // quarter turns clockwise
	// turns are the quarter turns that set each page upright, where the
	// reader found one on its side or upside down: the page opens so.
	turns map[int]int
	box   *receipt.Box
	lib   *library.Library
	rec   library.Record
	seq   int
	// sharp is the PDF page rendered again for the zoom (see sharpen),
	// at sharpDPI; nil while the page shows as read.
	sharp      image.Image
	sharpDPI   int
	sharpShown image.Image // sharp's paper, turned
	sharpSeq   int
	// loads counts the page loads under way, for tests to wait on.
	loads sync.WaitGroup
}

func newViewer() *viewer {
	v := &viewer{}
	v.img = canvas.NewImageFromImage(nil)
	v.img.FillMode = canvas.ImageFillStretch
	v.img.ScaleMode = canvas.ImageScaleSmooth
	v.mark = canvas.NewRectangle(color.NRGBA{0xff, 0xc1, 0x07, 0x40})
	v.mark.StrokeColor = color.NRGBA{0xe6, 0x5c, 0x00, 0xff}
	v.mark.StrokeWidth = 2
	v.mark.Hide()
	// The panner over the page turns a drag into scrolling; the scroll
	// container learns the zoomed page's size from the stack's layout.
	v.stack = container.New(&pageLayout{v: v}, v.img, v.mark, newPanner(v))
	v.scroll = container.NewScroll(v.stack)
	v.info = widget.NewLabel("")
	return v
}

func (v *viewer) object() fyne.CanvasObject {
	v.rotateButton = widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), func() { v.rotation = (v.rotation + 1) % 4; v.shown, v.sharpShown = nil, nil; v.layout() })
	bar := container.NewHBox(
		widget.NewButton("Fit", func() { v.zoom = 0; v.layout() }),
		widget.NewButton("100%", func() { v.zoomTo(1) }),
		// Icons, not "−" and "⟳": a font without the symbols draws "�" (seen under Wine).
		widget.NewButtonWithIcon("", theme.ZoomOutIcon(), func() { v.setZoom(0.8) }),
		widget.NewButtonWithIcon("", theme.ZoomInIcon(), func() { v.setZoom(1.25) }),
		v.rotateButton,
		// Icons, not ◀ ▶: the window's font draws those as coloured emoji.
		widget.NewButtonWithIcon("", theme.NavigateBackIcon(), func() { v.turn(-1) }),
		widget.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { v.turn(1) }),
		v.info,
	)
	v.watcher = &resizeWatcher{Scroll: v.scroll, onResize: v.layout}
	return container.NewBorder(bar, nil, nil, nil, v.watcher)
}

func (v *viewer) setZoom(f float64) {
	cur := v.zoom
	if cur == 0 {
		cur = v.fitScale()
	}
	v.zoomTo(min(8, max(0.1, cur*f)))
}

// zoomTo sets the zoom keeping the middle of the view where it is.
func (v *viewer) zoomTo(z float64) {
	old := v.scale
	view := v.scroll.Size()
	mid := fyne.NewPos(v.scroll.Offset.X+view.Width/2, v.scroll.Offset.Y+view.Height/2)
	v.zoom = z
	v.layout()
	if old > 0 {
		r := float32(v.scale / old)
		v.scrollTo(fyne.NewPos(mid.X*r-view.Width/2, mid.Y*r-view.Height/2))
	}
}

// showAtZoom shows the page at zoom z from its top-left corner, as a page
// opened at a set zoom is read; unlike zoomTo it does not depend on where
// the view was, which before the window has its final size means nothing.
func (v *viewer) showAtZoom(z float64) {
	v.zoom = min(8, max(0.1, z))
	v.scroll.Offset = fyne.Position{}
	v.layout()
}

// scrollTo moves the view's top-left corner to p, kept within the page.
func (v *viewer) scrollTo(p fyne.Position) {
	content, view := v.stack.MinSize(), v.scroll.Size()
	v.scroll.Offset = fyne.NewPos(max(0, min(p.X, content.Width-view.Width)), max(0, min(p.Y, content.Height-view.Height)))
	v.scroll.Refresh()
}

func (v *viewer) turn(d int) {
	if p := v.page + d; p >= 0 && p < v.pages {
		v.page = p
		v.loadPage()
	}
}

// load shows a receipt's first page.
func (v *viewer) load(lib *library.Library, rec library.Record) {
	v.lib, v.rec, v.page, v.pages, v.box = lib, rec, 0, max(1, rec.Pages), nil
	v.turns = rec.Receipt.PageTurns
	v.scroll.Offset = fyne.Position{}
	v.loadPage()
}

func (v *viewer) loadPage() {
	v.seq++
	seq, rec, page := v.seq, v.rec, v.page
	v.info.SetText(fmt.Sprintf("page %d of %d", page+1, v.pages))
	v.loads.Add(1)
	go func() {
		defer v.loads.Done()
		f := v.lib.File(rec)
		p, err := ingest.LoadPage(context.Background(), f, page, ingest.DefaultLimits())
		onMain(func() {
			if seq != v.seq {
				return // a newer receipt was chosen meanwhile
			}
			if err != nil {
				v.info.SetText(err.Error())
				v.pageImg = nil
			} else {
				v.pageImg = p.Image
				v.paper = paperBounds(p.Image)
			}
			// The page as the reader set it upright; the turn button
			// turns it on from there.
			v.rotation = v.turns[page]
			v.shown = nil
			v.sharp, v.sharpShown, v.sharpDPI = nil, nil, 0
			v.layout()
		})
	}()
}

// pdfDPI is the resolution a PDF page is read and laid out at; the boxes
// of its fields are in its pixels.
var pdfDPI = ingest.DefaultLimits().PDFDPI

// maxSharpDPI bounds the resolution a zoomed PDF page is rendered at: an A4
// page at 400 dpi is 15.5 megapixels.
const maxSharpDPI = 400

// wantDPI is the resolution a PDF page must be rendered at for the zoom to
// show a page pixel per screen pixel: 0 where the page as read is enough
// (fit, zoomed out) or the file is no PDF.
func (v *viewer) wantDPI() int {
	if v.zoom == 0 || v.lib == nil || ingest.Kind(v.rec.Kind) != ingest.PDF {
		return 0
	}
	px := v.zoom
	if c := fyne.CurrentApp().Driver().CanvasForObject(v.img); c != nil {
		px *= float64(c.Scale())
	}
	dpi := int(float64(pdfDPI)*px + 0.5)
	if dpi <= pdfDPI*11/10 {
		return 0
	}
	return min(dpi, maxSharpDPI)
}

// sharpen renders the PDF page on screen again at dpi, in the background,
// so that text zoomed past 100% is drawn from the PDF, not enlarged from
// the pixels it was read at (issue 40 item 4).
func (v *viewer) sharpen(dpi int) {
	if v.sharpSeq == v.seq && v.sharpDPI == -dpi {
		return // already under way
	}
	v.sharpSeq, v.sharpDPI = v.seq, -dpi
	seq, rec, page := v.seq, v.rec, v.page
	f := v.lib.File(rec)
	lim := ingest.DefaultLimits()
	lim.PDFDPI, lim.WorkPixels = dpi, 0
	v.loads.Add(1)
	go func() {
		defer v.loads.Done()
		p, err := ingest.LoadPage(context.Background(), f, page, lim)
		onMain(func() {
			if seq != v.seq || v.sharpDPI != -dpi {
				return // another page, or another zoom, since
			}
			if err != nil {
				v.sharpDPI = 0
				return // the page as read stays on screen
			}
			v.sharp, v.sharpDPI, v.sharpShown = p.Image, dpi, nil
			v.layout()
		})
	}()
}

// highlight outlines a field's box (nil hides the outline).
func (v *viewer) highlight(b *receipt.Box) {
	v.box = b
	if b != nil && b.Page != v.page && b.Page < v.pages {
		v.page = b.Page
		v.loadPage()
		return
	}
	v.layout()
}

func (v *viewer) fitScale() float64 {
	w, h := v.rotatedSize()
	if w == 0 || h == 0 {
		return 1
	}
	avail := v.scroll.Size()
	if avail.Width <= 0 || avail.Height <= 0 {
		return 1
	}
	return min(float64(avail.Width)/float64(w), float64(avail.Height)/float64(h))
}

func (v *viewer) rotatedSize() (int, int) {
	if v.pageImg == nil {
		return 0, 0
	}
	if v.rotation%2 == 1 {
		return v.paper.Dy(), v.paper.Dx()
	}
	return v.paper.Dx(), v.paper.Dy()
}

// layout sizes the page for the zoom and outlines the focused field's box;
// while zoomed it scrolls the box into view.
func (v *viewer) layout() {
	if v.pageImg == nil {
		v.img.Image = nil
		v.img.Refresh()
		v.mark.Hide()
		v.scale = 0
		return
	}
	if v.shown == nil {
		v.shown = rotate(crop(v.pageImg, v.paper), v.rotation)
		v.sharpShown = nil
	}
	v.img.Image = v.shown
	v.scale = v.zoom
	if v.scale == 0 {
		v.scale = v.fitScale()
	}
	if want := v.wantDPI(); want > 0 && v.sharp != nil && v.sharpDPI >= want {
		if v.sharpShown == nil {
			k := float64(v.sharpDPI) / float64(pdfDPI)
			r := image.Rect(int(float64(v.paper.Min.X)*k), int(float64(v.paper.Min.Y)*k), int(float64(v.paper.Max.X)*k), int(float64(v.paper.Max.Y)*k))
			v.sharpShown = rotate(crop(v.sharp, r.Intersect(v.sharp.Bounds())), v.rotation)
		}
		v.img.Image = v.sharpShown
	} else if want > 0 {
		v.sharpen(want)
	}
	v.stack.Refresh() // its layout sizes the image and the outline
	v.img.Refresh()
	if v.mark.Visible() && v.zoom != 0 {
		m, view, off := v.mark.Position(), v.scroll.Size(), v.scroll.Offset
		if m.X < off.X || m.Y < off.Y || m.X+v.mark.Size().Width > off.X+view.Width || m.Y+v.mark.Size().Height > off.Y+view.Height {
			v.scrollTo(fyne.NewPos(m.X-40, m.Y-view.Height/3))
		}
	}
	v.scroll.Refresh()
}

// pageLayout sizes the page image for the viewer's scale and puts the
// outline on the focused field's box; its MinSize tells the scroll
// container how far the page can be scrolled.
type pageLayout struct{ v *viewer }

func (l *pageLayout) size() fyne.Size {
	w, h := l.v.rotatedSize()
	return fyne.NewSize(float32(float64(w)*l.v.scale), float32(float64(h)*l.v.scale))
}

func (l *pageLayout) MinSize([]fyne.CanvasObject) fyne.Size { return l.size() }

func (l *pageLayout) Layout(objs []fyne.CanvasObject, _ fyne.Size) {
	v, size := l.v, l.size()
	v.img.Move(fyne.Position{})
	v.img.Resize(size)
	objs[len(objs)-1].Resize(size) // the panner
	b, scale := v.box, float32(v.scale)
	if b == nil || b.Page != v.page || b.W <= 0 || v.pageImg == nil {
		v.mark.Hide()
		return
	}
	// The box on the paper, turned as the paper is shown.
	x, y, w, h := b.X-v.paper.Min.X, b.Y-v.paper.Min.Y, b.W, b.H
	pw, ph := v.paper.Dx(), v.paper.Dy()
	switch v.rotation % 4 {
	case 1:
		x, y, w, h = ph-y-h, x, h, w
	case 2:
		x, y = pw-x-w, ph-y-h
	case 3:
		x, y, w, h = y, pw-x-w, h, w
	}
	pad := float32(3)
	v.mark.Move(fyne.NewPos(float32(x)*scale-pad, float32(y)*scale-pad))
	v.mark.Resize(fyne.NewSize(float32(w)*scale+2*pad, float32(h)*scale+2*pad))
	v.mark.Show()
}

// panner lies over the page: dragging it moves the zoomed page.
type panner struct {
	widget.BaseWidget
	v *viewer
}

func newPanner(v *viewer) *panner {
	p := &panner{v: v}
	p.ExtendBaseWidget(p)
	return p
}

func (p *panner) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

func (p *panner) Dragged(e *fyne.DragEvent) {
	off := p.v.scroll.Offset
	p.v.scrollTo(fyne.NewPos(off.X-e.Dragged.DX, off.Y-e.Dragged.DY))
}

func (p *panner) DragEnd() {}

// Cursor shows a hand: the page can be dragged.
func (p *panner) Cursor() desktop.Cursor { return desktop.PointerCursor }

// paperBounds finds the part of a scan that is not blank margin: the rows
// and columns where more than a few sampled pixels are darker than paper,
// with a little margin kept. A page without margins is returned whole.
func paperBounds(img image.Image) image.Rectangle {
	b := img.Bounds()
	step := max(1, max(b.Dx(), b.Dy())/600)
	cols := make([]int, b.Dx()/step+1)
	rows := make([]int, b.Dy()/step+1)
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			r, g, bl, _ := img.At(x, y).RGBA()
			if (r*299+g*587+bl*114)/1000 < 0x9000 { // ink, not the grey of paper or scanner noise
				rows[(y-b.Min.Y)/step]++
				cols[(x-b.Min.X)/step]++
			}
		}
	}
	span := func(counts []int, other int) (int, int) {
		need := max(2, other/100) // specks of dust are not paper
		lo, hi := -1, -1
		for i, n := range counts {
			if n >= need {
				if lo < 0 {
					lo = i
				}
				hi = i
			}
		}
		return lo, hi
	}
	x0, x1 := span(cols, len(rows))
	y0, y1 := span(rows, len(cols))
	if x0 < 0 || y0 < 0 {
		return b
	}
	margin := 12 * step
	r := image.Rect(b.Min.X+x0*step-margin, b.Min.Y+y0*step-margin, b.Min.X+(x1+1)*step+margin, b.Min.Y+(y1+1)*step+margin).Intersect(b)
	if r.Dx()*r.Dy() > b.Dx()*b.Dy()*9/10 {
		return b // hardly any margin: keep the whole page
	}
	return r
}

// crop returns the part r of img as an image of its own. A SubImage would
// share the page's rows (its stride is the page's width), and the GL
// painter uploads an unscaled image's pixels as rows of the cropped width:
// a PDF page shown at 100% came out as dashes (issue 40 item 4).
func crop(img image.Image, r image.Rectangle) image.Image {
	if r == img.Bounds() && r.Min == (image.Point{}) {
		return img
	}
	out := image.NewNRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
	return out
}

// rotate turns an image by quarter turns clockwise, for display only.
func rotate(src image.Image, quarters int) image.Image {
	if quarters%4 == 0 {
		return src
	}
	b := src.Bounds()
	in := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(in, in.Bounds(), src, b.Min, draw.Src)
	w, h := b.Dx(), b.Dy()
	var out *image.NRGBA
	if quarters%2 == 1 {
		out = image.NewNRGBA(image.Rect(0, 0, h, w))
	} else {
		out = image.NewNRGBA(image.Rect(0, 0, w, h))
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var dx, dy int
			switch quarters % 4 {
			case 1:
				dx, dy = h-1-y, x
			case 2:
				dx, dy = w-1-x, h-1-y
			case 3:
				dx, dy = y, w-1-x
			}
			copy(out.Pix[out.PixOffset(dx, dy):out.PixOffset(dx, dy)+4], in.Pix[in.PixOffset(x, y):in.PixOffset(x, y)+4])
		}
	}
	return out
}

// resizeWatcher re-lays the page out when the panel changes size.
type resizeWatcher struct {
	*container.Scroll
	onResize func()
	last     fyne.Size
}

func (r *resizeWatcher) Resize(s fyne.Size) {
	r.Scroll.Resize(s)
	if s != r.last {
		r.last = s
		r.onResize()
	}
}
