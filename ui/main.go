package ui

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/pipeline"
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
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if why := noDisplay(runtime.GOOS, os.Getenv); why != "" {
		fmt.Fprintln(os.Stderr, "shoebox:", why)
		return 1
	}
	dir := *libraryDir
	if dir == "" {
		d, err := library.DefaultDir()
		if err != nil {
			fmt.Fprintln(os.Stderr, "shoebox:", err)
			return 1
		}
		dir = d
	}
	lib, err := library.Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "shoebox:", err)
		return 1
	}
	defer lib.Close()
	if n, err := lib.ResumeInterrupted(context.Background()); err == nil && n > 0 {
		fmt.Fprintf(os.Stderr, "shoebox: %d receipt(s) left mid-reading last time are back in the queue\n", n)
	}
	m := hw.Discover(nvml.New())
	// Restarts and step-downs of the model worker go to the log.
	choose := func() (inference.Engine, string, int, error) {
		return pipeline.ChooseEngine(lib, m, func(s string) { fmt.Fprintln(os.Stderr, "shoebox:", s) })
	}
	eng, label, workers, err := choose()
	if err != nil {
		fmt.Fprintln(os.Stderr, "shoebox:", err)
		return 1
	}
	svc := Services{Lib: lib, Engine: eng, EngineLabel: label, Machine: &m, Plans: referencePlans(m), Workers: workers,
		ChooseEngine: choose}

	a := app.NewWithID("app.shoebox.desktop")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	w := a.NewWindow("Shoebox " + version + " — " + dir)
	u := New(a, w, svc)
	// Fits a 1366×768 laptop screen with its task bar and title bar.
	w.Resize(fyne.NewSize(1280, 680))
	w.SetMaster()
	if counts, err := lib.Counts(); err == nil && counts[library.StatusQueued] > 0 {
		u.startRunner() // the batch a closed window left off goes on
	}
	w.SetCloseIntercept(func() {
		u.Close()
		w.Close()
	})
	if !localeChosen(lib) {
		u.askCountry()
	}
	if *showID != 0 {
		u.Select(*showID)
		if *focus != "" || *zoom > 0 {
			go func() {
				time.Sleep(700 * time.Millisecond)
				fyne.Do(func() {
					if *zoom > 0 {
						u.viewer.zoomTo(*zoom)
					}
					if *focus != "" {
						u.FocusField(*focus)
						// Scripts driving the window wait for this line.
						fmt.Fprintf(os.Stderr, "shoebox: focused %s\n", *focus)
					}
				})
			}()
		}
	}
	if *page != "" {
		go func() {
			time.Sleep(500 * time.Millisecond) // after the main window is up
			fyne.Do(func() { u.ShowSettings(*page) })
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
