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
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// viewer shows a receipt's page: fit or zoomed, rotated, page by page, with
// the box of the focused field outlined.
type viewer struct {
	img      *canvas.Image
	mark     *canvas.Rectangle
	stack    *fyne.Container
	scroll   *container.Scroll
	info     *widget.Label
	pageImg  image.Image
	page     int
	pages    int
	zoom     float64 // 0 means fit to the panel
	rotation int     // quarter turns clockwise
	box      *receipt.Box
	lib      *library.Library
	rec      library.Record
	seq      int
	// loads counts the page loads under way, for tests to wait on: the
	// test driver runs fyne.Do on the loading goroutine itself.
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
	v.stack = container.NewWithoutLayout(v.img, v.mark)
	v.scroll = container.NewScroll(v.stack)
	v.info = widget.NewLabel("")
	return v
}

func (v *viewer) object() fyne.CanvasObject {
	bar := container.NewHBox(
		widget.NewButton("Fit", func() { v.zoom = 0; v.layout() }),
		widget.NewButton("100%", func() { v.zoom = 1; v.layout() }),
		widget.NewButton("−", func() { v.setZoom(0.8) }),
		widget.NewButton("+", func() { v.setZoom(1.25) }),
		widget.NewButton("⟳", func() { v.rotation = (v.rotation + 1) % 4; v.layout() }),
		widget.NewButton("◀", func() { v.turn(-1) }),
		widget.NewButton("▶", func() { v.turn(1) }),
		v.info,
	)
	return container.NewBorder(bar, nil, nil, nil, &resizeWatcher{Scroll: v.scroll, onResize: v.layout})
}

func (v *viewer) setZoom(f float64) {
	if v.zoom == 0 {
		v.zoom = v.fitScale()
	}
	v.zoom = min(8, max(0.1, v.zoom*f))
	v.layout()
}

func (v *viewer) turn(d int) {
	if p := v.page + d; p >= 0 && p < v.pages {
		v.page = p
		v.loadPage()
	}
}

// load shows a receipt's first page.
func (v *viewer) load(lib *library.Library, rec library.Record) {
	v.lib, v.rec, v.page, v.pages, v.rotation, v.box = lib, rec, 0, max(1, rec.Pages), 0, nil
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
		fyne.Do(func() {
			if seq != v.seq {
				return // a newer receipt was chosen meanwhile
			}
			if err != nil {
				v.info.SetText(err.Error())
				v.pageImg = nil
			} else {
				v.pageImg = p.Image
			}
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
	b := v.pageImg.Bounds()
	if v.rotation%2 == 1 {
		return b.Dy(), b.Dx()
	}
	return b.Dx(), b.Dy()
}

func (v *viewer) layout() {
	if v.pageImg == nil {
		v.img.Image = nil
		v.img.Refresh()
		v.mark.Hide()
		return
	}
	v.img.Image = rotate(v.pageImg, v.rotation)
	scale := v.zoom
	if scale == 0 {
		scale = v.fitScale()
	}
	w, h := v.rotatedSize()
	size := fyne.NewSize(float32(float64(w)*scale), float32(float64(h)*scale))
	v.img.Resize(size)
	v.img.Move(fyne.NewPos(0, 0))
	v.stack.Resize(size)
	v.img.Refresh()
	if v.box != nil && v.box.Page == v.page && v.rotation == 0 && v.box.W > 0 {
		pad := float32(3)
		v.mark.Move(fyne.NewPos(float32(float64(v.box.X)*scale)-pad, float32(float64(v.box.Y)*scale)-pad))
		v.mark.Resize(fyne.NewSize(float32(float64(v.box.W)*scale)+2*pad, float32(float64(v.box.H)*scale)+2*pad))
		v.mark.Show()
		v.mark.Refresh()
		if v.zoom != 0 {
			v.scroll.Offset = fyne.NewPos(max(0, v.mark.Position().X-40), max(0, v.mark.Position().Y-80))
			v.scroll.Refresh()
		}
	} else {
		v.mark.Hide()
	}
	// The stack has no layout: tell the scroller the content's size.
	v.scroll.Content.(*fyne.Container).Resize(size)
	v.scroll.Refresh()
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
