package ui

import (
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/receipt"
)

// marginScan writes a 1000×1400 white scan with a 300×1000 receipt on it.
func marginScan(t *testing.T) string {
	img := image.NewGray(image.Rect(0, 0, 1000, 1400))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(350, 200, 650, 1200), image.NewUniform(color.Gray{0x60}), image.Point{}, draw.Src)
	p := filepath.Join(t.TempDir(), "scan.png")
	f, _ := os.Create(p)
	png.Encode(f, img)
	f.Close()
	return p
}

func TestPaperBoundsCropsBlankMargins(t *testing.T) {
	f, _ := os.Open(marginScan(t))
	img, _ := png.Decode(f)
	f.Close()
	r := paperBounds(img)
	if r.Min.X < 320 || r.Min.X > 350 || r.Max.X < 650 || r.Max.X > 680 || r.Min.Y < 170 || r.Max.Y > 1230 {
		t.Errorf("paper %v, want about (350,200)-(650,1200)", r)
	}
	full := image.NewGray(image.Rect(0, 0, 100, 100)) // all dark: no margin
	if r := paperBounds(full); r != full.Bounds() {
		t.Errorf("no margins: %v", r)
	}
}

// scanWithABoxedTotal is the review of a scan with margins whose total, 9,
// was read at (560, 1150) on its page, the reader having turned its pages
// as turns says; the window is 1200×700.
func scanWithABoxedTotal(t *testing.T, turns map[int]int) *UI {
	t.Helper()
	u := newTestUI(t)
	u.win.Resize(fyne.NewSize(1200, 700))
	addPaths(u, []string{marginScan(t)})
	id := u.Current()
	var r receipt.Receipt
	r.Total = receipt.Amount{
		Value: decimal.NewFromInt(9), Set: true, Source: receipt.SourceOCR, Confidence: 0.9,
		Box: &receipt.Box{X: 560, Y: 1150, W: 80, H: 30},
	}
	r.PageTurns = turns
	if err := u.svc.Lib.SaveExtraction(context.Background(), id, r, "ocr", receipt.SourceOCR); err != nil {
		t.Fatal(err)
	}
	show(u, id)
	return u
}

// A zoomed scan scrolls with the wheel and pans with a drag, "+" keeps the
// middle of the view, and a field focused while zoomed is brought into view.
func TestZoomedScanPansAndShowsTheFocusedField(t *testing.T) {
	u := scanWithABoxedTotal(t, nil)
	v := u.viewer
	view := v.scroll.Size()
	if got := v.stack.MinSize(); got.Height < view.Height-2 {
		t.Errorf("at Fit the cropped receipt is %v in a %v panel: the margins were not cropped", got, view)
	}
	for i := 0; i < 4; i++ {
		v.setZoom(1.25)
	}
	if v.stack.MinSize().Height <= view.Height || v.stack.MinSize().Width <= view.Width {
		t.Fatalf("zoomed page %v fits the view %v", v.stack.MinSize(), view)
	}
	if v.scroll.Offset.X == 0 {
		t.Errorf("+ zoomed into the top-left corner (offset %v)", v.scroll.Offset)
	}
	c := u.win.Canvas()
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(v.watcher).Add(fyne.NewPos(50, 50))
	before := v.scroll.Offset
	test.Scroll(c, at, 0, -120)
	if v.scroll.Offset.Y <= before.Y {
		t.Errorf("the wheel did not scroll: %v → %v", before, v.scroll.Offset)
	}
	before = v.scroll.Offset
	test.Drag(c, at, 30, -60)
	if v.scroll.Offset.X != before.X-30 || v.scroll.Offset.Y != before.Y+60 {
		t.Errorf("dragging moved the page from %v to %v", before, v.scroll.Offset)
	}
	v.scrollTo(fyne.Position{})
	u.FocusField("total")
	m, off := v.mark.Position(), v.scroll.Offset
	if !v.mark.Visible() || m.Y < off.Y || m.Y+v.mark.Size().Height > off.Y+view.Height || m.X < off.X || m.X > off.X+view.Width {
		t.Errorf("outline at %v (%v) is outside the view at %v (%v)", m, v.mark.Size(), off, view)
	}
}

// A PDF page zoomed past 100% is rendered again at the zoom's resolution:
// the picture on screen has a page pixel per screen pixel, not the pixels
// it was read at, enlarged (issue 40 item 4). The crop keeps its own rows.
func TestZoomedPDFPageIsRenderedAtTheZoom(t *testing.T) {
	if _, err := os.Stat(invoicePDF); err != nil {
		t.Skip("the shared e-invoices are not here")
	}
	u := newTestUI(t)
	addPaths(u, []string{invoicePDF})
	v := u.viewer
	v.loads.Wait()
	settle(u)
	read := v.shown.Bounds().Dx()
	if nrgba, ok := v.shown.(*image.NRGBA); ok && nrgba.Stride != 4*nrgba.Rect.Dx() {
		t.Errorf("the page on screen shares the rows of a wider image: stride %d for %d pixels", nrgba.Stride, nrgba.Rect.Dx())
	}
	v.zoomTo(2)
	v.loads.Wait()
	settle(u)
	if got := v.img.Image.Bounds().Dx(); got < read*19/10 {
		t.Errorf("at 200%% the page is drawn from %d pixels across, want about %d", got, 2*read)
	}
	v.zoomTo(1)
	if got := v.img.Image.Bounds().Dx(); got != read {
		t.Errorf("at 100%% the page is drawn from %d pixels, want the %d it was read at", got, read)
	}
}

// A page the reader found on its side opens turned upright, and the
// focused field's outline turns with it: here and after the turn button.
func TestATurnedPageOpensUprightWithItsOutline(t *testing.T) {
	u := scanWithABoxedTotal(t, map[int]int{0: 1})
	v := u.viewer
	if v.rotation != 1 {
		t.Fatalf("the page opened %d quarter turns round, want the reader's 1", v.rotation)
	}
	if w, h := v.rotatedSize(); w != v.paper.Dy() || h != v.paper.Dx() {
		t.Errorf("shown %d×%d, want the paper %v on its side", w, h, v.paper)
	}
	u.FocusField("total")
	size := v.mark.Size()
	if !v.mark.Visible() || size.Height <= size.Width {
		t.Fatalf("the total's outline (visible %v, %v) is not turned with the page", v.mark.Visible(), size)
	}
	// Turned clockwise, the box's left edge becomes its top: it lies
	// paper height − its bottom from the left.
	wantX := float32(v.paper.Dy()-(1150-v.paper.Min.Y)-30)*float32(v.scale) - 3
	if got := v.mark.Position().X; got < wantX-2 || got > wantX+2 {
		t.Errorf("the outline is at x %.0f, want %.0f", got, wantX)
	}
	test.Tap(v.rotateButton)
	if v.rotation != 2 || !v.mark.Visible() || v.mark.Size().Width <= v.mark.Size().Height {
		t.Errorf("after the turn button: %d quarter turns, outline visible %v at %v", v.rotation, v.mark.Visible(), v.mark.Size())
	}
}
