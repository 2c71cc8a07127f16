package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/clients"
	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/pipeline"
	"github.com/shoebox-app/shoebox/receipt"
)

// shell is what outlives one library in the window: the app, the window,
// the machine and the clients' registry. Opening another client closes the
// library on screen (its batch stops, its receipts in flight go back to the
// queue, pending edits are saved) and builds a new UI for the other one in
// the same window, so two clients' receipts are never on screen together.
type shell struct {
	app     fyne.App
	win     fyne.Window
	version string
	machine hw.Machine
	// registry is the clients' list; nil when it could not be read (the
	// switcher then says why).
	registry *clients.Registry
	regErr   error

	ui     *UI
	lib    *library.Library
	client string // "" for a library opened by its folder
	dir    string
}

// open shows lib in the window as client (or by its folder, dir).
func (s *shell) open(lib *library.Library, client, dir string) *UI {
	s.lib, s.client, s.dir = lib, client, dir
	if err := leaveCountryUnset(lib); err != nil {
		fmt.Fprintln(os.Stderr, "shoebox:", err)
	}
	if n, err := lib.ResumeInterrupted(context.Background()); err == nil && n > 0 {
		fmt.Fprintf(os.Stderr, "shoebox: %d receipt(s) left mid-reading last time are back in the queue\n", n)
	}
	choose := func() (inference.Engine, string, int, error) {
		return pipeline.ChooseEngine(lib, s.machine, func(msg string) { fmt.Fprintln(os.Stderr, "shoebox:", msg) })
	}
	svc := Services{Lib: lib, Machine: &s.machine, Plans: referencePlans(s.machine), ChooseEngine: choose}
	var err error
	if svc.Engine, svc.EngineLabel, svc.Workers, err = choose(); err != nil {
		svc.Engine, svc.EngineLabel = unavailableEngine{err}, "no reader: "+err.Error()
	}
	s.win.SetTitle(s.title())
	u := New(s.app, s.win, svc)
	u.shell = s
	s.ui = u
	if client != "" {
		u.clientButton.SetText(client)
	}
	if counts, err := lib.Counts(); err == nil && counts[library.StatusQueued] > 0 {
		u.startRunner() // the batch a closed window left off goes on
	}
	if !localeChosen(lib) {
		u.askCountry()
	}
	return u
}

// title names the client (or the library's folder) in the window's title.
func (s *shell) title() string {
	if s.client != "" {
		return fmt.Sprintf("Shoebox — %s", s.client)
	}
	return fmt.Sprintf("Shoebox %s — %s", s.version, s.dir)
}

// close saves and stops everything the window has open.
func (s *shell) close() {
	if s.ui != nil {
		s.ui.Close()
	}
	if s.lib != nil {
		s.lib.Close()
	}
	s.ui, s.lib = nil, nil
}

// switchTo opens a client's library in place of the one on screen.
func (s *shell) switchTo(name string) error {
	if s.registry == nil {
		return s.regErr
	}
	if name == s.client {
		return nil
	}
	lib, c, err := s.registry.OpenLibrary(name)
	if err != nil {
		return err
	}
	s.close()
	s.open(lib, c.Name, s.registry.Path(c))
	return nil
}

// renameClient gives the client on screen, called old, a new name (the
// first start names the first client); a name left as it was, or empty,
// changes nothing.
func (u *UI) renameClient(old, name string) {
	s := u.shell
	name = strings.TrimSpace(name)
	if s == nil || s.registry == nil || s.client != old || name == "" || name == old {
		return
	}
	if err := s.registry.Rename(old, name); err != nil {
		u.showError(err)
		return
	}
	u.clientRenamed(name)
}

// clientRenamed shows the client on screen under its new name.
func (u *UI) clientRenamed(name string) {
	s := u.shell
	s.client = name
	u.baseTitle = s.title()
	u.win.SetTitle(u.baseTitle)
	u.clientButton.SetText(name)
}

// unavailableEngine stands in when no reader could start, so the window
// still opens to review, edit and export; reading says why.
type unavailableEngine struct{ err error }

func (e unavailableEngine) Name() string { return "none" }
func (e unavailableEngine) Close() error { return nil }
func (e unavailableEngine) Extract(context.Context, inference.Page) (inference.Result, error) {
	return inference.Result{}, e.err
}

// clientNames lists the registry's clients, most recently opened first.
func (s *shell) clientNames(archived bool) []clients.Client {
	if s.registry == nil {
		return nil
	}
	list := s.registry.List(archived)
	sort.SliceStable(list, func(i, j int) bool { return list[i].LastOpened.After(list[j].LastOpened) })
	return list
}

// showClients is the client switcher: the clients, most recent first, to
// open, rename or archive, and a new one to create.
func (u *UI) showClients() {
	s := u.shell
	if s == nil {
		u.say("Clients are not available in this window.")
		return
	}
	if s.registry == nil {
		u.showError(fmt.Errorf("the list of clients could not be read: %w", s.regErr))
		return
	}
	var list []clients.Client
	chosen := -1
	items := widget.NewList(func() int { return len(list) },
		func() fyne.CanvasObject { return widget.NewLabel("client name, last opened") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			c := list[i]
			text := c.Name
			if c.Name == s.client {
				text += "  (open now)"
			}
			if !c.LastOpened.IsZero() {
				text += "  · last opened " + c.LastOpened.Local().Format("2 Jan 2006")
			}
			o.(*widget.Label).SetText(text)
		})
	items.OnSelected = func(i widget.ListItemID) { chosen = i }
	refresh := func() {
		list = s.clientNames(false)
		chosen = -1
		items.UnselectAll()
		items.Refresh()
	}
	refresh()
	var d dialog.Dialog
	selected := func() (clients.Client, bool) {
		if chosen < 0 || chosen >= len(list) {
			u.say("Choose a client in the list first.")
			return clients.Client{}, false
		}
		return list[chosen], true
	}
	open := widget.NewButton("Open", func() {
		c, ok := selected()
		if !ok {
			return
		}
		d.Hide()
		if err := s.switchTo(c.Name); err != nil {
			s.ui.showError(err)
		}
	})
	open.Importance = widget.HighImportance
	newClient := widget.NewButton("New client…", func() {
		name := widget.NewEntry()
		name.SetPlaceHolder("e.g. Smith Plumbing Pty Ltd")
		lc := newLocaleChoice(u.svc.Lib.Locale(), "")
		if localeChosen(u.svc.Lib) {
			lc.country.SetSelected(libraryCountry(u.svc.Lib))
		}
		dialog.ShowForm("New client", "Create and open", "Cancel", []*widget.FormItem{
			widget.NewFormItem("Name", name), widget.NewFormItem("Country", lc.country),
		}, func(ok bool) {
			if !ok {
				return
			}
			if !lc.chosen() {
				u.showError(fmt.Errorf("choose the client's country: Shoebox reads its receipts and sums its tax by it"))
				return
			}
			loc, code := lc.value()
			c, err := s.registry.New(strings.TrimSpace(name.Text), loc.Country)
			if err != nil {
				u.showError(err)
				return
			}
			d.Hide()
			if err := s.switchTo(c.Name); err != nil {
				s.ui.showError(err)
				return
			}
			if err := s.lib.SetLocale(loc); err != nil {
				s.ui.showError(err)
				return
			}
			saveSettings(s.ui, s.lib, settingCountry, code)
			if err := s.lib.SwitchCountryDefaults(context.Background(), receipt.Country(code)); err != nil {
				s.ui.showError(err)
			}
		}, u.win)
	})
	rename := widget.NewButton("Rename…", func() {
		c, ok := selected()
		if !ok {
			return
		}
		e := widget.NewEntry()
		e.SetText(c.Name)
		dialog.ShowForm("Rename "+c.Name, "Rename", "Cancel", []*widget.FormItem{widget.NewFormItem("New name", e)}, func(ok bool) {
			if !ok {
				return
			}
			if err := s.registry.Rename(c.Name, strings.TrimSpace(e.Text)); err != nil {
				u.showError(err)
				return
			}
			if c.Name == s.client {
				u.clientRenamed(strings.TrimSpace(e.Text))
			}
			refresh()
		}, u.win)
	})
	archive := widget.NewButton("Archive", func() {
		c, ok := selected()
		if !ok {
			return
		}
		if c.Name == s.client {
			u.say("Open another client before archiving this one.")
			return
		}
		dialog.ShowConfirm("Archive "+c.Name, "Archive this client? Its receipts stay on this computer;\n`shoebox clients unarchive` brings it back.", func(ok bool) {
			if !ok {
				return
			}
			if err := s.registry.Archive(c.Name); err != nil {
				u.showError(err)
				return
			}
			refresh()
		}, u.win)
	})
	hint := widget.NewLabel("Each client's receipts, settings, accounts and rules are kept apart.")
	hint.Wrapping = fyne.TextWrapWord
	buttons := container.NewHBox(open, newClient, rename, archive)
	content := container.NewBorder(hint, buttons, nil, nil, items)
	d = dialog.NewCustom("Clients", "Close", content, u.win)
	d.Resize(fyne.NewSize(560, 420))
	d.Show()
}

// first opens the library the window starts on: the folder given, the
// client given, else the client opened last, else the default library.
func (s *shell) first(dir, client string) (*library.Library, string, string, error) {
	if dir == "" { // a library given by its folder is no client's business
		s.listDefaultLibrary()
	}
	if dir == "" && client == "" && s.registry != nil {
		if recent := s.clientNames(false); len(recent) > 0 && !recent[0].LastOpened.IsZero() {
			client = recent[0].Name
		}
	}
	if client != "" {
		if s.registry == nil {
			return nil, "", "", s.regErr
		}
		lib, c, err := s.registry.OpenLibrary(client)
		if err != nil {
			return nil, "", "", err
		}
		return lib, c.Name, s.registry.Path(c), nil
	}
	if dir == "" {
		d, err := library.DefaultDir()
		if err != nil {
			return nil, "", "", err
		}
		if lib, name, err := s.openDefaultAsClient(d); err == nil {
			return lib, name, d, nil
		}
		dir = d
	}
	lib, err := library.Open(dir)
	return lib, "", dir, err
}

// firstClientName is what the library the window first opens is called
// until the bookkeeper names it (the first start asks).
const firstClientName = "First client"

// listDefaultLibrary lists the default library as a client when it holds a
// library the registry does not list yet: one read before any client was
// made stays in the switcher even when another client opens (the case of
// issue 40 item 1).
func (s *shell) listDefaultLibrary() {
	d, err := library.DefaultDir()
	if err != nil || s.registry == nil {
		return
	}
	if _, listed := s.registry.ByPath(d); listed {
		return
	}
	if _, err := os.Stat(filepath.Join(d, "library.db")); err != nil {
		return
	}
	if _, err := s.registry.Adopt(firstClientName, d); err != nil {
		fmt.Fprintln(os.Stderr, "shoebox:", err)
	}
}

// openDefaultAsClient opens the default library as a client of the
// registry, listing it first if it is not yet: so the first receipts
// read stay in the switcher beside the clients made later (issue 40 item
// 1: they looked lost once another client was made).
func (s *shell) openDefaultAsClient(dir string) (*library.Library, string, error) {
	if s.registry == nil {
		return nil, "", s.regErr
	}
	lib, err := library.Open(dir) // makes the library a first start needs
	if err != nil {
		return nil, "", err
	}
	lib.Close()
	c, listed := s.registry.ByPath(dir)
	if !listed {
		if c, err = s.registry.Adopt(firstClientName, dir); err != nil {
			return nil, "", err
		}
	}
	if c.Archived { // every client archived: the window must open one
		if err := s.registry.Unarchive(c.Name); err != nil {
			return nil, "", err
		}
	}
	lib, c, err = s.registry.OpenLibrary(c.Name)
	if err != nil {
		return nil, "", err
	}
	return lib, c.Name, nil
}
