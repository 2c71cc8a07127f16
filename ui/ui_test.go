package ui

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"

	"github.com/shoebox-app/shoebox/export"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/models/gguf"
	"github.com/shoebox-app/shoebox/pipeline"
	"github.com/shoebox-app/shoebox/receipt"
)

// fakeEngine reads receipt n as "Shop n", dated July n, total n+0.50.
type fakeEngine struct{ n atomic.Int32 }

func (f *fakeEngine) Name() string { return "fake" }
func (f *fakeEngine) Close() error { return nil }
func (f *fakeEngine) Extract(ctx context.Context, p inference.Page) (inference.Result, error) {
	n := f.n.Add(1)
	time.Sleep(20 * time.Millisecond)
	// Total and date with two kinds of evidence: ready to confirm.
	two := []receipt.Support{{Kind: receipt.EvidenceReading, Why: "read"}, {Kind: receipt.EvidenceSecondReader, Why: "read again"}}
	r := fakeReceipt(n)
	r.Date.Support, r.Total.Support = two, two
	return inference.Result{Receipt: r}, nil
}

func fakeReceipt(n int32) receipt.Receipt {
	return receipt.Receipt{
		SupplierName: receipt.Of(fmt.Sprintf("Shop %d", n), receipt.SourceModel, 0.95),
		Date:         receipt.Of(receipt.Date(2025, 7, int(n)), receipt.SourceModel, 0.95),
		Total:        receipt.Of(decimal.New(int64(n)*100+50, -2), receipt.SourceModel, 0.95),
		Currency:     receipt.Of("AUD", receipt.SourceModel, 0.95),
		TotalTax:     receipt.Of(decimal.Zero, receipt.SourceModel, 0.4), // unsure: sends it to review
	}
}

func pngFiles(t *testing.T, n int) []string {
	dir := t.TempDir()
	var out []string
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, fmt.Sprintf("r%d.png", i))
		f, _ := os.Create(p)
		png.Encode(f, image.NewGray(image.Rect(0, 0, 40+i, 60)))
		f.Close()
		out = append(out, p)
	}
	return out
}

func newTestUI(t *testing.T) *UI {
	t.Helper()
	a := test.NewTempApp(t)
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	w := a.NewWindow("test")
	u := New(a, w, Services{Lib: lib, Engine: &fakeEngine{}, EngineLabel: "Fake engine"})
	w.Show()
	t.Cleanup(u.Close)
	return u
}

// extractAll runs a batch to the end.
func extractAll(t *testing.T, u *UI) {
	t.Helper()
	u.ExtractAll()
	waitBatch(t, u, 10*time.Second)
}

// show selects a receipt and waits for its page to load.
func show(u *UI, id int64) {
	u.Select(id)
	settle(u)
}

func TestDropAddsReceiptsAndListsRefusals(t *testing.T) {
	u := newTestUI(t)
	files := pngFiles(t, 2)
	bad := filepath.Join(t.TempDir(), "notes.pdf")
	os.WriteFile(bad, []byte("just some text"), 0o644)
	addPaths(u, append(files, bad))
	if u.list.Len() != 2 {
		t.Fatalf("list has %d rows", u.list.Len())
	}
	if !strings.Contains(u.refused.Text, "Added 2 receipts") || !strings.Contains(u.refused.Text, "notes.pdf: is not a receipt Shoebox can open") {
		t.Errorf("refused label = %q", u.refused.Text)
	}
	if u.Current() == 0 {
		t.Error("no receipt selected after the first import")
	}
	if !strings.Contains(u.counts.Text, "2 receipts: 2 new") {
		t.Errorf("counts = %q", u.counts.Text)
	}
}

func TestProgressBarFollowsTheBatch(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 3))
	extractAll(t, u)
	if u.progress.Value != 3 || u.progress.Max != 3 {
		t.Errorf("progress = %v of %v", u.progress.Value, u.progress.Max)
	}
	if !strings.Contains(u.status.Text, "All 3 read") || !strings.Contains(u.status.Text, "Fake engine") {
		t.Errorf("status = %q", u.status.Text)
	}
	counts, _ := u.svc.Lib.Counts()
	if counts[library.StatusExtracted] != 3 {
		t.Errorf("counts = %v", counts)
	}
}

func TestTypingIntoAFieldSavesIt(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	extractAll(t, u)
	id := u.Current()
	u.Select(id)
	e := u.form.entry("total")
	e.SetText("")
	test.Type(e, "12.50")
	time.Sleep(saveDelay + 300*time.Millisecond) // the pause after typing saves
	settle(u)
	rec, _ := u.svc.Lib.Get(id)
	if rec.Receipt.Total.Value.String() != "12.5" || rec.Receipt.Total.Source != receipt.SourceUser {
		t.Fatalf("total = %+v", rec.Receipt.Total)
	}
	hist, _ := u.svc.Lib.History(id)
	last := hist[len(hist)-1]
	if last.Field != "total" || last.New != "12.5" || last.Who != receipt.SourceUser {
		t.Errorf("last history = %+v", last)
	}
	// A value that does not parse is not saved.
	e.SetText("twelve")
	u.form.flush()
	rec, _ = u.svc.Lib.Get(id)
	if rec.Receipt.Total.Value.String() != "12.5" || !strings.Contains(u.form.findings.Text, "Not saved") {
		t.Errorf("bad value: total %s, findings %q", rec.Receipt.Total.Value, u.form.findings.Text)
	}
}

func TestConfirmMovesToTheNextReceiptNeedingReview(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 3))
	extractAll(t, u)
	rows, _ := u.svc.Lib.List(library.Filter{})
	u.Select(rows[0].ID)
	u.ConfirmCurrent()
	if u.Current() != rows[1].ID {
		t.Fatalf("current = %d, want %d", u.Current(), rows[1].ID)
	}
	rec, _ := u.svc.Lib.Get(rows[0].ID)
	if rec.Status != library.StatusConfirmed {
		t.Errorf("status = %s", rec.Status)
	}
	u.Step(1)
	if u.Current() != rows[2].ID {
		t.Errorf("Step(1): current = %d", u.Current())
	}
}

func TestExportWritesAWorkbook(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 2))
	extractAll(t, u)
	u.ConfirmCurrent()
	path := filepath.Join(t.TempDir(), "tax.xlsx")
	st, err := u.ExportTo(path, "", false)
	if err != nil || st.Receipts != 1 {
		t.Fatalf("export: %+v %v", st, err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v, _ := f.GetCellValue("Receipts", "C2"); !strings.HasPrefix(v, "Shop ") {
		t.Errorf("C2 = %q", v)
	}
	// The window's workbook books the receipt as the CLI's does: the
	// client's default account, in the Account column (issue 39).
	head, _ := f.GetRows("Receipts")
	col := slices.Index(head[0], "Account")
	if col < 0 || len(head) < 2 || col >= len(head[1]) || head[1][col] == "" {
		t.Errorf("the workbook's Account column is missing or empty: %q", head)
	}
}

// The window's CSV starts with a byte order mark, so that Excel on
// Windows reads a supplier's accented letters as written; so does its
// line items' file.
func TestExportedCSVOpensInExcelWithItsAccents(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	extractAll(t, u)
	u.svc.Lib.EditField(context.Background(), u.Current(), "supplier_name", "Kjøpmann Haugen")
	u.ConfirmCurrent()
	path := filepath.Join(t.TempDir(), "receipts.csv")
	if _, err := u.ExportTo(path, "", false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, export.LinesPath(path)} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte("\ufeff")) {
			t.Errorf("%s starts %q, not with a byte order mark", filepath.Base(p), b[:min(len(b), 8)])
		}
	}
	if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte("Kjøpmann Haugen")) {
		t.Errorf("the supplier is not in the CSV as written")
	}
	// The message names both files.
	if msg := exportedText(export.Stats{Receipts: 1, Lines: 2}, path); !strings.Contains(msg, export.LinesPath(path)) {
		t.Errorf("the export's message does not name the line items' file: %q", msg)
	}
}

func TestFocusedFieldIsOutlined(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	id := u.Current()
	var r receipt.Receipt
	r.Total = receipt.Amount{Value: decimal.NewFromInt(5), Set: true, Source: receipt.SourceOCR, Confidence: 0.9, Box: &receipt.Box{X: 5, Y: 10, W: 20, H: 8}}
	u.svc.Lib.SaveExtraction(context.Background(), id, r, "ocr", receipt.SourceOCR)
	show(u, id)
	u.FocusField("total")
	if u.viewer.box == nil || u.viewer.box.W != 20 {
		t.Fatalf("viewer box = %+v", u.viewer.box)
	}
}

// An item amount mended so the items add up comes unsure: its row is
// marked for checking, the others are not.
func TestUnsureItemAmountIsMarked(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	id := u.Current()
	item := func(desc, amount string, conf float64) receipt.LineItem {
		return receipt.LineItem{Description: receipt.Of(desc, receipt.SourceOCR, 0.9), LineTotal: receipt.Of(decimal.RequireFromString(amount), receipt.SourceOCR, conf)}
	}
	r := receipt.Receipt{
		Total:     receipt.Of(decimal.RequireFromString("212.78"), receipt.SourceOCR, 0.9),
		LineItems: []receipt.LineItem{item("HAMMER", "192.00", 0.5), item("BATTERIES", "20.78", 0.9)},
	}
	if err := u.svc.Lib.SaveExtraction(context.Background(), id, r, "ocr", receipt.SourceOCR); err != nil {
		t.Fatal(err)
	}
	show(u, id)
	marks := u.form.lineMarks
	if len(marks) != 2 || marks[0].Resource != theme.QuestionIcon() || marks[1].Resource != nil {
		t.Fatalf("marks %+v", marks)
	}
}

// `shoebox --show 1 --focus line_items[0].line_total` crashed: only the
// receipt's own fields were looked up.
func TestFocusingALineItemCell(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	id := u.Current()
	r := receipt.Receipt{LineItems: []receipt.LineItem{{
		Description: receipt.Of("HAMMER", receipt.SourceOCR, 0.9),
		LineTotal:   receipt.Of(decimal.RequireFromString("9.50"), receipt.SourceOCR, 0.9),
	}}}
	if err := u.svc.Lib.SaveExtraction(context.Background(), id, r, "ocr", receipt.SourceOCR); err != nil {
		t.Fatal(err)
	}
	show(u, id)
	u.FocusField("line_items[0].line_total")
	if got := u.win.Canvas().Focused(); got == nil || got != u.form.lineEnt["line_items[0].line_total"] {
		t.Errorf("focused %v", got)
	}
	if u.form.scroll.Offset.Y <= 0 {
		t.Errorf("the form did not scroll down to the items (offset %v)", u.form.scroll.Offset)
	}
	u.FocusField("no_such_field") // nothing to focus, and no crash
}

func TestSettingsPagesAndChoosingAModel(t *testing.T) {
	u := newTestUI(t)
	for _, page := range []string{PageModels, PageHardware, PageLocale} {
		w := u.ShowSettings(page)
		w.Close()
	}
	dir := t.TempDir()
	var mw, pw gguf.Writer
	mw.Set("general.architecture", "llama")
	mw.AddF32("token_embd.weight", []uint64{32, 4}, make([]float32, 128))
	pw.Set("general.architecture", "clip")
	pw.AddF32("mm.0.weight", []uint64{32, 32}, make([]float32, 1024))
	model, proj := filepath.Join(dir, "Mine-Q8_0.gguf"), filepath.Join(dir, "mmproj-Mine.gguf")
	if err := mw.Write(model); err != nil {
		t.Fatal(err)
	}
	pw.Write(proj)
	msg, ok := pipeline.VerifyPair(model, proj)
	if !ok || !strings.Contains(msg, "Mine-Q8_0.gguf: sound (1 tensors)") || !strings.Contains(msg, "not in Shoebox's catalogue") {
		t.Fatalf("verify: %v %s", ok, msg)
	}
	os.WriteFile(proj, []byte("GGUF"), 0o644)
	if msg, ok := pipeline.VerifyPair(model, proj); ok || !strings.Contains(msg, "mmproj-Mine.gguf is damaged") {
		t.Fatalf("damaged projector accepted: %s", msg)
	}
}

// gatedEngine is a fakeEngine whose pages wait for gate to close, and which
// counts its Close calls.
type gatedEngine struct {
	fakeEngine
	gate   chan struct{}
	closed atomic.Int32
}

func (g *gatedEngine) Extract(ctx context.Context, p inference.Page) (inference.Result, error) {
	<-g.gate
	return g.fakeEngine.Extract(ctx, p)
}

func (g *gatedEngine) Close() error { g.closed.Add(1); return nil }

// TestChoosingAModelSwitchesEngines: the engine the settings now name takes
// the next batch; a batch already running finishes on the old engine, which
// is closed afterwards.
func TestChoosingAModelSwitchesEngines(t *testing.T) {
	u := newTestUI(t)
	old := &gatedEngine{gate: make(chan struct{})}
	u.svc.Engine = old
	next := &fakeEngine{}
	u.svc.ChooseEngine = func() (inference.Engine, string, int, error) { return next, "Next engine", 2, nil }
	addPaths(u, pngFiles(t, 3))
	u.ExtractAll() // a batch on the old engine, held at its first page
	var switched string
	u.SwitchEngine(func(label string, err error) { switched = label })
	waitFor(t, 10*time.Second, "the engine did not start", func() bool { return switched != "" })
	if switched != "Next engine" {
		t.Fatalf("label %q", switched)
	}
	if u.Engine() != inference.Engine(old) {
		t.Fatal("the engine changed under a running batch")
	}
	close(old.gate)
	waitBatch(t, u, 10*time.Second)
	waitFor(t, 5*time.Second, "the new engine did not take over", func() bool {
		return u.Engine() == inference.Engine(next) && old.closed.Load() > 0
	})
	if u.svc.Workers != 2 {
		t.Fatalf("engine %T with %d workers after the batch", u.Engine(), u.svc.Workers)
	}
	if old.closed.Load() != 1 || old.n.Load() != 3 {
		t.Errorf("old engine read %d pages and was closed %d times", old.n.Load(), old.closed.Load())
	}
}

// TestSettingsFitTheirWindow: no settings page is wider than the window it
// opens in (an unwrapped label once made it 1,700 px wide, cutting every
// wrapped text off at the right).
func TestSettingsFitTheirWindow(t *testing.T) {
	u := newTestUI(t)
	w := u.ShowSettings(PageModels)
	defer w.Close()
	if min := w.Content().MinSize(); min.Width > 820 {
		t.Errorf("settings need %.0f px of width, the window has 820", min.Width)
	}
}

// Closing the window while a batch runs waits for the batch's goroutine to
// end, not for the event loop that Close itself runs on (which would stall
// until Wait's 10-second timeout).
func TestClosingDuringABatchDoesNotWaitForTheWindow(t *testing.T) {
	u := newTestUI(t)
	eng := &gatedEngine{gate: make(chan struct{})}
	u.svc.Engine = eng
	addPaths(u, pngFiles(t, 2))
	u.ExtractAll()
	time.AfterFunc(200*time.Millisecond, func() { close(eng.gate) }) // the page in flight ends
	start := time.Now()
	u.Close() // on the test goroutine, which stands for the event loop: nothing queued runs meanwhile
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Close took %s", d)
	}
	if eng.closed.Load() != 1 {
		t.Error("the engine was not closed")
	}
	runQueued()
}

// Esc closes the dialog on top of the main window, and the window takes
// clicks again: a dialog hidden but left on the overlay stack would take
// them all.
func TestEscClosesTheDialogOnTop(t *testing.T) {
	u := newTestUI(t)
	u.showExport()
	if u.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no export dialog")
	}
	u.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if n := len(u.win.Canvas().Overlays().List()); n != 0 {
		t.Fatalf("%d overlays left after Esc", n)
	}
	u.showExport()
	if u.win.Canvas().Overlays().Top() == nil {
		t.Fatal("the export dialog did not open again after Esc")
	}
}
