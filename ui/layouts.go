package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// formLayout is a two-column grid: labels as wide as the widest label,
// inputs taking the rest.
type formLayout struct{}

func newFormLayout() fyne.Layout { return formLayout{} }

func (formLayout) labelWidth(objs []fyne.CanvasObject) float32 {
	w := float32(0)
	for i := 0; i < len(objs); i += 2 {
		w = max(w, objs[i].MinSize().Width)
	}
	return w
}

func (l formLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	pad := theme.Padding()
	lw := l.labelWidth(objs)
	y := float32(0)
	for i := 0; i+1 < len(objs); i += 2 {
		h := max(objs[i].MinSize().Height, objs[i+1].MinSize().Height)
		objs[i].Move(fyne.NewPos(0, y))
		objs[i].Resize(fyne.NewSize(lw, h))
		objs[i+1].Move(fyne.NewPos(lw+pad, y))
		objs[i+1].Resize(fyne.NewSize(size.Width-lw-pad, h))
		y += h + pad
	}
}

func (l formLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	pad := theme.Padding()
	lw := l.labelWidth(objs)
	w, h := float32(0), float32(0)
	for i := 0; i+1 < len(objs); i += 2 {
		w = max(w, lw+pad+objs[i+1].MinSize().Width)
		h += max(objs[i].MinSize().Height, objs[i+1].MinSize().Height) + pad
	}
	return fyne.NewSize(w, h)
}

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
