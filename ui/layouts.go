package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// formLayout is a three-column grid: a mark, a label and an input per
// field. The mark and label columns have fixed widths and long labels wrap,
// so a mark that comes or goes never moves the inputs.
type formLayout struct{}

func newFormLayout() fyne.Layout { return formLayout{} }

const (
	markWidth  = 24
	labelWidth = 132
)

// rowHeight lays a wrapping label out at the label column's width first: its
// height depends on it.
func rowHeight(objs []fyne.CanvasObject, i int) float32 {
	if objs[i+1].Size().Width != labelWidth {
		objs[i+1].Resize(fyne.NewSize(labelWidth, objs[i+1].MinSize().Height))
	}
	return max(objs[i].MinSize().Height, objs[i+1].MinSize().Height, objs[i+2].MinSize().Height)
}

func (l formLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	pad := theme.Padding()
	y := float32(0)
	for i := 0; i+2 < len(objs); i += 3 {
		h := rowHeight(objs, i)
		ms := objs[i].MinSize()
		objs[i].Move(fyne.NewPos((markWidth-ms.Width)/2, y+(min(h, theme.InputBorderSize()*2+theme.TextSize()*2.4)-ms.Height)/2))
		objs[i].Resize(ms)
		objs[i+1].Move(fyne.NewPos(markWidth, y))
		objs[i+1].Resize(fyne.NewSize(labelWidth, h))
		x := markWidth + labelWidth + pad
		objs[i+2].Move(fyne.NewPos(x, y))
		objs[i+2].Resize(fyne.NewSize(size.Width-x, h))
		y += h + pad
	}
}

func (l formLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	pad := theme.Padding()
	w, h := float32(0), float32(0)
	for i := 0; i+2 < len(objs); i += 3 {
		w = max(w, markWidth+labelWidth+pad+objs[i+2].MinSize().Width)
		h += rowHeight(objs, i) + pad
	}
	return fyne.NewSize(w, h)
}

// steadyLayout keeps its content's tallest height until reset, so text
// that shrinks (a warning that clears) does not pull what follows upwards
// under the pointer.
type steadyLayout struct{ tallest float32 }

func (l *steadyLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

func (l *steadyLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	l.tallest = max(l.tallest, s.Height)
	return fyne.NewSize(s.Width, l.tallest)
}

func (l *steadyLayout) reset() { l.tallest = 0 }

// lineLayout sets a line item's cells: description wide, numbers narrow.
type lineLayout struct{}

var lineShares = []float32{0.46, 0.14, 0.2, 0.2}

func (lineLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	pad := theme.Padding()
	for i, o := range objs {
		w := size.Width*lineShares[i%len(lineShares)] - pad
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w + pad
	}
}

func (lineLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(float32(len(objs))*60, h)
}

// wheelLayer lies over a scrolled panel and hands every turn of the mouse
// wheel to the panel's scroll, so the form moves wherever the pointer is:
// a text box under the pointer would otherwise take the wheel for its own
// (sideways) scrolling and the form would stop (issue 40 item 5). It takes
// nothing else: clicks, hovering and keys reach what lies under it.
type wheelLayer struct {
	widget.BaseWidget
	scroll *container.Scroll
}

func newWheelLayer(s *container.Scroll) *wheelLayer {
	w := &wheelLayer{scroll: s}
	w.ExtendBaseWidget(w)
	return w
}

func (w *wheelLayer) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

func (w *wheelLayer) Scrolled(ev *fyne.ScrollEvent) { w.scroll.Scrolled(ev) }
