package ui

import "fyne.io/fyne/v2"

// closeOnEscape makes Esc close what is on top in w: an open dialog or
// menu, else, given closeWindow, the window itself (Settings). Esc reaches
// the window only while no text box has the cursor: a box keeps its keys.
func closeOnEscape(w fyne.Window, closeWindow func()) {
	w.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name != fyne.KeyEscape {
			return
		}
		// The stack holds a dialog's or menu's overlay, not the dialog:
		// hidden but left in the stack, it would still take every click.
		if overlays := w.Canvas().Overlays(); overlays.Top() != nil {
			top := overlays.Top()
			overlays.Remove(top)
			top.Hide()
			return
		}
		if closeWindow != nil {
			closeWindow()
		}
	})
}
