package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// fieldMark is the icon before a field that needs a look: an orange
// question mark where the reading is unsure, a red warning where a check
// failed. Pointing at it, tapping it or putting the cursor in its field
// shows why.
type fieldMark struct {
	widget.BaseWidget
	icon   *widget.Icon
	reason string
	tip    *tipLayer
}

func newFieldMark(tip *tipLayer) *fieldMark {
	m := &fieldMark{icon: widget.NewIcon(nil), tip: tip}
	m.ExtendBaseWidget(m)
	return m
}

func (m *fieldMark) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(m.icon) }

func (m *fieldMark) MinSize() fyne.Size { return fyne.NewSquareSize(theme.IconInlineSize()) }

// The marks' icons (functions: the theme is looked up once the app runs).
func unsureIcon() fyne.Resource  { return theme.NewWarningThemedResource(theme.QuestionIcon()) }
func warningIcon() fyne.Resource { return theme.NewErrorThemedResource(theme.WarningIcon()) }

// set shows an icon with its reason; a nil icon clears the mark.
func (m *fieldMark) set(icon fyne.Resource, reason string) {
	m.reason = reason
	m.icon.SetResource(icon)
	m.tip.hideFor(m)
}

func (m *fieldMark) MouseIn(*desktop.MouseEvent)    { m.tip.show(m) }
func (m *fieldMark) MouseMoved(*desktop.MouseEvent) {}
func (m *fieldMark) MouseOut()                      { m.tip.hideFor(m) }
func (m *fieldMark) Tapped(*fyne.PointEvent)        { m.tip.show(m) }

// tipLayer draws a mark's reason over the form. It takes no taps or
// pointer moves, so the clicks around it land where they are aimed.
type tipLayer struct {
	root  *fyne.Container // the layer, stacked over what it annotates
	box   *fyne.Container
	text  *widget.Label
	owner *fieldMark
}

func newTipLayer() *tipLayer {
	t := &tipLayer{text: widget.NewLabel("")}
	t.text.Wrapping = fyne.TextWrapWord
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground))
	bg.StrokeColor = theme.Color(theme.ColorNameWarning)
	bg.StrokeWidth = 1
	bg.CornerRadius = theme.InputRadiusSize()
	t.box = container.NewStack(bg, t.text)
	t.box.Hide()
	t.root = container.NewWithoutLayout(t.box)
	return t
}

func (t *tipLayer) show(m *fieldMark) {
	if m.reason == "" || t.root.Size().Width == 0 {
		return
	}
	t.owner = m
	t.text.SetText(m.reason)
	d := fyne.CurrentApp().Driver()
	at := d.AbsolutePositionForObject(m).Subtract(d.AbsolutePositionForObject(t.root))
	width := min(320, t.root.Size().Width-at.X-theme.Padding())
	t.box.Resize(fyne.NewSize(width, 0))
	t.text.Resize(fyne.NewSize(width, 0))
	h := t.text.MinSize().Height
	y := at.Y + m.Size().Height + 2
	if y+h > t.root.Size().Height {
		y = at.Y - h - 2 // no room below: above the mark
	}
	t.box.Move(fyne.NewPos(at.X, y))
	t.box.Resize(fyne.NewSize(width, h))
	t.box.Show()
	t.box.Refresh()
}

// hideFor hides the tip if it is m's.
func (t *tipLayer) hideFor(m *fieldMark) {
	if t.owner == m {
		t.hide()
	}
}

func (t *tipLayer) hide() {
	t.owner = nil
	t.box.Hide()
}
