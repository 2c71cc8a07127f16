// Package ui is Shoebox's desktop app in Fyne: the window a bookkeeper works
// in. It holds no business logic of its own: it drives the library, the
// extraction pipeline and the export writers that the CLI uses too.
package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/internal/plain"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/pipeline"
	"github.com/shoebox-app/shoebox/receipt"
)

// Services are what the window drives.
type Services struct {
	Lib    *library.Library
	Engine inference.Engine
	// EngineLabel says what reads receipts: "OCR on CPU", "InternVL3-8B Q4_K_M on 2× L40S".
	EngineLabel string
	// Machine and Plan fill the Hardware page; nil Machine means "not probed".
	Machine *hw.Machine
	Plans   []ModelPlan
	// Workers is how many receipts are read at once (the OCR engine uses a core each).
	Workers int
	// ChooseEngine starts the engine the library's settings name (see
	// pipeline.ChooseEngine); with it, choosing a model in Settings switches
	// engines without a restart. Nil: the engine stays.
	ChooseEngine func() (inference.Engine, string, int, error)
}

// ModelPlan is a model and how it would run here, for the Models and Hardware pages.
type ModelPlan struct {
	Model hw.ModelFacts
	Plan  hw.Plan
}

// UI is the main window's state.
type UI struct {
	app fyne.App
	win fyne.Window
	svc Services

	list     *receiptList
	viewer   *viewer
	form     *form
	filter   *filterBar
	status   *widget.Label
	counts   *widget.Label
	progress *widget.ProgressBar
	// refused is the notice under the toolbar: what an import added and
	// refused, what an undo did. notice holds it with its close button.
	refused   *widget.Label
	notice    *fyne.Container
	noticeSeq int
	// baseTitle is the window's title before a receipt's name is put in front.
	baseTitle string
	// menuItems are the commands with keys, as the main menu holds them.
	menuItems []*fyne.MenuItem

	mu      sync.Mutex
	current int64
	runner  *pipeline.Runner
	cancel  context.CancelFunc
	running bool
	// batchDone is closed when the batch goroutine's Run returns, before
	// its last widget update is handed to the event loop.
	batchDone chan struct{}
	// pending is an engine started while a batch was running; it takes
	// over when the batch ends.
	pending *Services
	// before holds fields as they stood before this session's edits, by
	// the edit's history ID (see rememberBefore).
	before map[int64]receipt.Receipt
	// switching is true while SwitchEngine starts an engine; receipts
	// queued meanwhile are read by it.
	switching bool
	// firstRun is the country question, while it is open.
	firstRun *dialog.ConfirmDialog
	// countryLater is set when the country question was put off: it comes
	// back after a batch whose receipts tell the country.
	countryLater bool
	// readAgainAsk offers to read receipts again after the country changed.
	readAgainAsk *dialog.ConfirmDialog
	// shell opens other clients in this window; nil in tests that build a
	// UI on one library.
	shell *shell
	// clientButton names the client on screen and opens the switcher.
	clientButton *widget.Button
	// problems lists a refused export's problems while it is open.
	problems *problemsWindow
	// ruleOffer offers a saved rule to the receipts already read.
	ruleOffer *dialog.ConfirmDialog
}

// New builds the main window's content into w.
func New(a fyne.App, w fyne.Window, svc Services) *UI {
	u := &UI{app: a, win: w, svc: svc, baseTitle: w.Title()}
	if u.svc.EngineLabel == "" {
		u.svc.EngineLabel = svc.Engine.Name()
	}
	u.list = newReceiptList(u)
	u.viewer = newViewer()
	u.form = newForm(u)
	u.filter = newFilterBar(u)
	u.status = widget.NewLabel("")
	u.counts = widget.NewLabel("")
	u.progress = widget.NewProgressBar()
	u.refused = widget.NewLabel("")
	u.refused.Wrapping = fyne.TextWrapWord
	u.notice = container.NewBorder(nil, nil, nil, widget.NewButtonWithIcon("", theme.CancelIcon(), func() { u.notice.Hide() }), u.refused)
	u.notice.Hide()

	u.clientButton = widget.NewButtonWithIcon("Clients…", theme.AccountIcon(), func() { u.showClients() })
	toolbar := container.NewHBox(
		u.clientButton,
		widget.NewSeparator(),
		widget.NewButton("Add files…", u.showAddFiles),
		widget.NewButton("Add folder…", u.showAddFolder),
		widget.NewSeparator(),
		widget.NewButton("Extract all", u.ExtractAll),
		widget.NewButton("Pause", u.Pause),
		widget.NewSeparator(),
		widget.NewButton("Export…", u.showExport),
		widget.NewButton("Supplier rules…", u.showRules),
		widget.NewButton("Statements…", u.showStatements),
		widget.NewButton("Settings", u.showSettings),
	)
	left := container.NewBorder(container.NewVBox(u.filter.object(), u.counts), nil, nil, nil, u.list.widget)
	centre := u.viewer.object()
	right := u.form.object()
	split := container.NewHSplit(left, container.NewHSplit(centre, right))
	split.Offset = 0.26
	split.Trailing.(*container.Split).Offset = 0.55
	statusBar := container.NewBorder(nil, nil, nil, u.status, u.progress)
	w.SetContent(container.NewBorder(container.NewVBox(toolbar, u.notice), statusBar, nil, nil, split))
	w.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) {
		var paths []string
		for _, uri := range uris {
			paths = append(paths, uri.Path())
		}
		go u.AddPaths(paths)
	})
	u.addShortcuts()
	closeOnEscape(w, nil)
	u.setStatus(pipeline.Progress{})
	u.Reload()
	u.showLastEdit()
	return u
}

// addShortcuts puts the window's keys in its main menu, where a bookkeeper
// can also read them. The GLFW driver names a pressed Ctrl+key the way
// desktop.CustomShortcut does (Ctrl+Z is fyne.ShortcutUndo) and matches it
// against the main menu's items before the focused widget sees the key, so
// each works wherever the focus is, a text field included.
func (u *UI) addShortcuts() {
	ctrl := func(key fyne.KeyName) fyne.Shortcut {
		return &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}
	}
	item := func(label string, sc fyne.Shortcut, fn func()) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, fn)
		it.Shortcut = sc
		return it
	}
	u.menuItems = []*fyne.MenuItem{
		item("Add files…", ctrl(fyne.KeyO), u.showAddFiles),
		item("Export…", ctrl(fyne.KeyE), u.showExport),
		item("Confirm and go to the next to check", ctrl(fyne.KeyReturn), u.ConfirmCurrent),
		item("Next receipt", ctrl(fyne.KeyDown), func() { u.Step(1) }),
		item("Previous receipt", ctrl(fyne.KeyUp), func() { u.Step(-1) }),
		item("Undo the last edit", &fyne.ShortcutUndo{}, u.Undo),
	}
	file := fyne.NewMenu("File", fyne.NewMenuItem("Clients…", u.showClients), fyne.NewMenuItemSeparator(),
		u.menuItems[0], u.menuItems[1], fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Supplier rules…", u.showRules), fyne.NewMenuItem("Settings…", u.showSettings))
	review := fyne.NewMenu("Receipt", u.menuItems[2:]...)
	u.win.SetMainMenu(fyne.NewMainMenu(file, review))
	// The keypad's Enter is a key of its own.
	u.win.Canvas().AddShortcut(ctrl(fyne.KeyEnter), func(fyne.Shortcut) { u.ConfirmCurrent() })
}

// TypeShortcut runs the window's command for a shortcut as the driver would
// (for tests: the real keys are checked under Xvfb) and says whether one ran.
func (u *UI) TypeShortcut(sc fyne.Shortcut) bool {
	for _, it := range u.menuItems {
		if it.Shortcut != nil && it.Shortcut.ShortcutName() == sc.ShortcutName() {
			it.Action()
			return true
		}
	}
	return false
}

// AddPaths imports files and folders (the drop handler and the Add buttons
// call it) and lists the refused files with their reasons.
func (u *UI) AddPaths(paths []string) []library.ImportResult {
	res := u.svc.Lib.Import(context.Background(), paths, ingest.DefaultLimits(), nil)
	var added, dups int
	var refused []string
	for _, r := range res {
		switch r.Outcome {
		case library.Added:
			added++
		case library.Duplicate:
			dups++
		case library.Refused:
			refused = append(refused, fmt.Sprintf("%s: %s", shortPath(r.Path), r.Reason))
		}
	}
	onMain(func() {
		msg := fmt.Sprintf("Added %d %s", added, plain.Word(added, "receipt", "receipts"))
		if dups > 0 {
			msg += fmt.Sprintf(", %d already in the library", dups)
		}
		if len(refused) > 0 {
			msg += fmt.Sprintf(". Not added (%d):\n%s", len(refused), joinMax(refused, 8))
		}
		if len(refused) > 0 {
			u.sayUntilClosed(msg)
		} else {
			u.say(msg)
		}
		u.Reload()
	})
	return res
}

// Reload re-reads the list and counts from the library.
func (u *UI) Reload() {
	rows, err := u.svc.Lib.List(u.filter.value())
	if err != nil {
		u.showError(err)
		return
	}
	u.list.set(rows)
	counts, _ := u.svc.Lib.Counts()
	u.counts.SetText(countsText(counts))
	if len(rows) > 0 && (u.Current() == 0 || u.list.index(u.Current()) < 0) {
		// The receipt on screen is filtered out: show the first that matches,
		// so the list and the form never disagree.
		u.Select(rows[0].ID)
	}
}

// Select shows a receipt in the viewer and form, saving pending edits first.
func (u *UI) Select(id int64) {
	u.form.flush()
	rec, err := u.svc.Lib.Get(id)
	if err != nil {
		u.showError(err)
		return
	}
	u.mu.Lock()
	u.current = id
	u.mu.Unlock()
	u.list.selectID(id)
	u.form.show(rec)
	u.viewer.load(u.svc.Lib, rec)
}

// Current is the receipt on screen (0 for none).
func (u *UI) Current() int64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.current
}

// Step moves to the next (1) or previous (-1) receipt in the list.
func (u *UI) Step(dir int) {
	if id, ok := u.list.neighbour(u.Current(), dir); ok {
		u.Select(id)
	}
}

// ConfirmCurrent confirms the receipt on screen and moves to the next that
// needs review.
func (u *UI) ConfirmCurrent() {
	id := u.Current()
	if id == 0 {
		return
	}
	u.form.flush()
	if rec, err := u.svc.Lib.Get(id); err == nil && rec.Status == library.StatusDuplicate {
		// Nothing to confirm: a copy is out of the books. On to the next.
		u.say(fmt.Sprintf("#%d is a copy of #%d and left out, so there is nothing to confirm. \"Not a duplicate\" puts it back.", id, rec.DuplicateOf))
		if next, ok, _ := u.svc.Lib.NextForReview(id); ok {
			u.Select(next)
		}
		return
	}
	if err := u.svc.Lib.Confirm(context.Background(), id); err != nil {
		u.showError(err)
		return
	}
	next, ok, _ := u.svc.Lib.NextForReview(id)
	u.Reload()
	if ok {
		u.Select(next)
	} else {
		u.Select(id)
	}
	u.changed()
}

// ExtractAll queues every new or failed receipt and reads the queue in the
// background; the progress bar follows it.
func (u *UI) ExtractAll() {
	rows, err := u.svc.Lib.List(library.Filter{Statuses: []library.Status{library.StatusNew, library.StatusFailed}})
	if err != nil {
		u.showError(err)
		return
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	if len(ids) == 0 {
		if counts, _ := u.svc.Lib.Counts(); counts[library.StatusQueued] == 0 {
			u.say("Nothing to read: every receipt has been read. Re-extract reads one again.")
			return
		}
	}
	if _, err := u.svc.Lib.Enqueue(context.Background(), ids, false); err != nil {
		u.showError(err)
		return
	}
	u.startRunner()
}

// Reextract queues the receipt on screen again.
func (u *UI) Reextract() {
	id := u.Current()
	if id == 0 {
		return
	}
	u.form.flush()
	if rec, err := u.svc.Lib.Get(id); err == nil && rec.Status == library.StatusDuplicate {
		u.say(fmt.Sprintf("#%d is a copy of #%d and left out, so it is not read again. \"Not a duplicate\" puts it back first.", id, rec.DuplicateOf))
		return
	}
	if _, err := u.svc.Lib.Enqueue(context.Background(), []int64{id}, true); err != nil {
		u.showError(err)
		return
	}
	u.startRunner()
}

func (u *UI) startRunner() {
	u.mu.Lock()
	if u.running {
		u.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	u.cancel, u.running = cancel, true
	done := make(chan struct{})
	u.batchDone = done
	r := &pipeline.Runner{Lib: u.svc.Lib, Engine: u.svc.Engine, Workers: max(u.svc.Workers, 1), PageTimeout: 5 * time.Minute}
	r.OnProgress = func(p pipeline.Progress) {
		onMain(func() {
			u.setStatus(p)
			u.Reload()
			if p.Current == 0 && u.Current() != 0 {
				if rec, err := u.svc.Lib.Get(u.Current()); err == nil && !u.form.dirty() {
					u.form.show(rec)
				}
			}
		})
	}
	u.runner = r
	u.mu.Unlock()
	go func() {
		err := r.Run(ctx)
		close(done)
		onMain(func() {
			u.mu.Lock()
			u.running = false
			u.mu.Unlock()
			u.takePendingEngine()
			if err != nil {
				u.showError(err)
			}
			u.setStatus(r.Snapshot())
			u.Reload()
			u.askCountryAgain()
		})
	}()
}

// Pause stops the batch after the receipt being read (which goes back to the queue).
func (u *UI) Pause() {
	if u.stopBatch() {
		u.say("Pausing: the receipt being read goes back to the queue. Extract all goes on.")
	} else {
		u.say("Nothing is being read.")
	}
}

// stopBatch cancels the batch and says whether one was running.
func (u *UI) stopBatch() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.cancel != nil {
		u.cancel()
	}
	return u.running
}

// Wait blocks until the background batch has stopped, and says whether it
// did within the timeout. It does not need the event loop, so Close may call
// it from there; the batch's last widget update may still be queued.
func (u *UI) Wait(timeout time.Duration) bool {
	u.mu.Lock()
	done := u.batchDone
	u.mu.Unlock()
	if done == nil {
		return true
	}
	select {
	case <-done:
		return true
	default:
	}
	select {
	case <-done:
		return true
	case <-time.After(timeout):
		return false
	}
}

func (u *UI) setStatus(p pipeline.Progress) {
	if p.Total == 0 {
		// No batch this session: a bar at 0% would say something is stuck.
		u.progress.Hide()
		u.status.SetText(u.readerText())
		return
	}
	u.progress.Show()
	u.progress.Max = float64(p.Total)
	u.progress.SetValue(float64(p.Done + p.Failed))
	text := fmt.Sprintf("%d/%d read", p.Done+p.Failed, p.Total)
	if p.Failed > 0 {
		text += fmt.Sprintf(" (%d failed)", p.Failed)
	}
	finished := p.Done+p.Failed >= p.Total && p.Current == 0
	switch {
	case finished && !p.Started.IsZero():
		text = fmt.Sprintf("All %d read in %s", p.Total, time.Since(p.Started).Round(100*time.Millisecond))
		if p.Failed > 0 {
			text += fmt.Sprintf(" (%d failed)", p.Failed)
		}
	case finished:
	case p.Waiting != "":
		text += " · waiting for the server to answer; the receipts stay queued"
	case p.PerMinute > 0:
		rate := fmt.Sprintf("%.0f/min", p.PerMinute)
		if _, remote := u.Engine().(inference.Remote); remote {
			rate = fmt.Sprintf("%.1f pages/min", p.PagesPerMinute)
		}
		text += fmt.Sprintf(" · %s · about %s left", rate, max(time.Second, p.ETA.Round(time.Second)))
	}
	u.status.SetText(text + " · " + u.readerText())
}

// Close stops the batch (receipts in flight return to the queue), saves
// edits and stops the engine.
func (u *UI) Close() {
	u.stopBatch()
	u.Wait(10 * time.Second)
	u.form.flush()
	u.mu.Lock()
	eng := u.svc.Engine
	if u.pending != nil {
		u.pending.Engine.Close()
		u.pending = nil
	}
	u.mu.Unlock()
	eng.Close()
}

// SwitchEngine starts the engine the settings now name, in the background,
// and hands it the next batch (a running batch finishes on the old one).
// done, when not nil, hears the new engine's label or the error.
func (u *UI) SwitchEngine(done func(label string, err error)) {
	if u.svc.ChooseEngine == nil {
		return
	}
	u.status.SetText("Starting the chosen engine…")
	u.mu.Lock()
	u.switching = true
	u.mu.Unlock()
	go func() {
		eng, label, workers, err := u.svc.ChooseEngine()
		onMain(func() {
			u.mu.Lock()
			u.switching = false
			u.mu.Unlock()
			if counts, cerr := u.svc.Lib.Counts(); cerr == nil && counts[library.StatusQueued] > 0 {
				defer u.startRunner() // receipts queued while it started
			}
			if err == nil {
				u.mu.Lock()
				u.pending = &Services{Engine: eng, EngineLabel: label, Workers: workers}
				u.mu.Unlock()
				u.takePendingEngine()
			}
			if done != nil {
				done(label, err)
			}
		})
	}()
}

// takePendingEngine puts a newly started engine in place of the old one,
// unless a batch is still running on the old one.
func (u *UI) takePendingEngine() {
	u.mu.Lock()
	if u.pending == nil || u.running {
		u.mu.Unlock()
		return
	}
	old := u.svc.Engine
	u.svc.Engine, u.svc.EngineLabel, u.svc.Workers = u.pending.Engine, u.pending.EngineLabel, u.pending.Workers
	u.pending = nil
	u.mu.Unlock()
	go old.Close()
	u.status.SetText(u.readerText())
}

// Engine is the engine reading receipts now.
func (u *UI) Engine() inference.Engine {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.svc.Engine
}

// recordName is what a receipt is called on screen: its supplier, else its file's name.
func recordName(rec library.Record) string {
	if name := rec.Receipt.SupplierName.Value; name != "" {
		return name
	}
	return rec.OriginalName
}

// noticeTime is how long a passing notice stays under the toolbar.
const noticeTime = 8 * time.Second

// say shows a passing notice under the toolbar.
func (u *UI) say(msg string) {
	seq := u.sayUntilClosed(msg)
	time.AfterFunc(noticeTime, func() {
		onMain(func() {
			if u.noticeSeq == seq {
				u.notice.Hide()
			}
		})
	})
}

// sayUntilClosed shows a notice that stays until its close button is pressed.
func (u *UI) sayUntilClosed(msg string) int {
	u.noticeSeq++
	u.refused.SetText(msg)
	u.notice.Show()
	return u.noticeSeq
}

// readerText names the engine in the status bar as a bookkeeper would.
func (u *UI) readerText() string {
	if strings.HasPrefix(u.svc.EngineLabel, "OCR") {
		return "Reading with the built-in reader"
	}
	return "Reading with " + u.svc.EngineLabel
}

// saveSettings stores settings of the open library; one that cannot be
// saved is said at once, or the bookkeeper would find it forgotten later.
// It reports whether all were saved.
func (u *UI) saveSettings(kv ...string) bool {
	return saveSettings(u, u.svc.Lib, kv...)
}

func saveSettings(u *UI, lib *library.Library, kv ...string) bool {
	for i := 0; i+1 < len(kv); i += 2 {
		if err := lib.SetSetting(kv[i], kv[i+1]); err != nil {
			u.showError(fmt.Errorf("the setting could not be saved (is the disk full or the library read-only?): %w", err))
			return false
		}
	}
	return true
}
