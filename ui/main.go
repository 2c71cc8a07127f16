package ui

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/clients"
	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/internal/envvars"
)

// Main starts the desktop app with the GUI's own flags and returns the exit code.
func Main(args []string, version string) (code int) {
	fs := flag.NewFlagSet("shoebox", flag.ContinueOnError)
	libraryDir := fs.String("library", "", "library folder (default: $SHOEBOX_HOME, else $XDG_DATA_HOME/shoebox)")
	// For `make screenshot`: open straight on a receipt, a field or a settings page.
	showID := fs.Int64("show", 0, "open this receipt")
	focus := fs.String("focus", "", "with --show: focus this field (its box is outlined on the page)")
	page := fs.String("settings", "", "open the settings window on this page (Reading, This computer, Country & tax)")
	zoom := fs.Float64("zoom", 0, "with --show: zoom the scan to this scale (1 is 100%)")
	clientName := fs.String("client", "", "open this client's library (default: the client opened last, else the library folder)")
	showClients := fs.Bool("clients", false, "open the client switcher (for make screenshot)")
	showRules := fs.Bool("rules", false, "open the supplier rules table (for make screenshot)")
	showStatements := fs.Bool("statements", false, "open the Statements window (for make screenshot)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if why := noDisplay(runtime.GOOS, envvars.Getenv); why != "" {
		fmt.Fprintln(os.Stderr, "shoebox:", why)
		return 1
	}
	if *libraryDir != "" && *clientName != "" {
		fmt.Fprintln(os.Stderr, "shoebox: give --client or --library, not both")
		return 2
	}
	sh := &shell{version: version, machine: hw.DiscoverHere()}
	if d, err := clients.DefaultDir(); err != nil {
		sh.regErr = err
	} else if sh.registry, err = clients.Open(d); err != nil {
		sh.regErr = err
	}
	lib, client, dir, err := sh.first(*libraryDir, *clientName)
	if err != nil {
		fmt.Fprintln(os.Stderr, "shoebox:", err)
		return 1
	}
	a := app.NewWithID("app.shoebox.desktop")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	w := a.NewWindow("Shoebox")
	sh.app, sh.win = a, w
	w.Resize(fallbackSize)
	a.Lifecycle().SetOnStarted(func() { fyne.Do(func() { fitToScreen(w) }) })
	w.SetMaster()
	u := sh.open(lib, client, dir)
	defer sh.close()
	w.SetCloseIntercept(func() {
		sh.close()
		w.Close()
	})
	if *showID != 0 {
		u.Select(*showID)
		if *focus != "" || *zoom > 0 {
			go func() {
				time.Sleep(700 * time.Millisecond)
				onMain(func() {
					if *zoom > 0 {
						u.viewer.showAtZoom(*zoom)
					}
					if *focus != "" {
						u.FocusField(*focus)
						// Scripts driving the window wait for this line,
						// and point at the box where it says.
						at := fyne.Position{}
						if e := u.form.entry(*focus); e != nil {
							at = fyne.CurrentApp().Driver().AbsolutePositionForObject(e)
						}
						scale := w.Canvas().Scale()
						fmt.Fprintf(os.Stderr, "shoebox: focused %s at %d,%d\n", *focus, int(at.X*scale), int(at.Y*scale))
					}
				})
			}()
		}
	}
	if *showClients || *showRules || *showStatements {
		go func() {
			time.Sleep(500 * time.Millisecond)
			onMain(func() {
				switch {
				case *showClients:
					sh.ui.showClients()
				case *showRules:
					sh.ui.showRules()
				default:
					sh.ui.showStatements()
				}
			})
		}()
	}
	if *page != "" {
		go func() {
			time.Sleep(500 * time.Millisecond) // after the main window is up
			onMain(func() { sh.ui.ShowSettings(*page) })
		}()
	}
	// A display that is named but cannot be reached (a stale DISPLAY, no X
	// server) makes GLFW panic on the main goroutine: say so and exit
	// cleanly, closing the library, instead of printing a stack.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "shoebox: the window could not open on this display: %v\n", r)
			code = 1
		}
	}()
	w.ShowAndRun()
	return 0
}

// FocusField puts the cursor in a field, outlining its box on the page.
func (u *UI) FocusField(path string) {
	if e := u.form.entry(path); e != nil {
		u.form.scrollTo(e) // first: scrolling hides the reason a focused mark shows
		u.win.Canvas().Focus(e)
	}
}

func referencePlans(m hw.Machine) []ModelPlan {
	var models []hw.ModelFacts
	if err := json.Unmarshal(assets.ReferenceModels, &models); err != nil {
		return nil
	}
	var out []ModelPlan
	for _, md := range models {
		out = append(out, ModelPlan{Model: md, Plan: hw.MakePlan(hw.Request{Machine: m, Model: md})})
	}
	return out
}
