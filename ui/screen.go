package ui

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.4/glfw"
)

// fallbackSize is the first window's size where the screen cannot be
// asked: it fits a 1366×768 laptop screen with its task bar and title bar.
var fallbackSize = fyne.NewSize(1280, 680)

// frameAllowance is the height, in screen pixels, left for the window's
// title bar, which the work area does not leave out.
const frameAllowance = 40

// fitToScreen sizes the first window to the screen's work area (the screen
// less its task bars), so a bookkeeper sees the whole form on a large
// screen and nothing is cut off on a small one (issue 40 item 6: the fixed
// 1280×680 window showed eight form fields on any screen). It must run on
// the event loop, where the driver may ask GLFW.
func fitToScreen(w fyne.Window) {
	mon := glfw.GetPrimaryMonitor()
	if mon == nil {
		return
	}
	_, _, width, height := mon.GetWorkarea()
	if width <= 0 || height <= frameAllowance {
		return
	}
	scale := float32(1)
	if c := w.Canvas(); c != nil && c.Scale() > 0 {
		scale = c.Scale()
	}
	w.Resize(fyne.NewSize(float32(width)/scale, float32(height-frameAllowance)/scale))
	w.CenterOnScreen()
}
