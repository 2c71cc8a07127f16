package ui

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/library"
)

// Main starts the desktop app with the GUI's own flags and returns the exit code.
func Main(args []string, version string) int {
	fs := flag.NewFlagSet("shoebox", flag.ContinueOnError)
	libraryDir := fs.String("library", "", "library folder (default: $SHOEBOX_HOME, else $XDG_DATA_HOME/shoebox)")
	// For `make screenshot`: open straight on a receipt, a field or a settings page.
	showID := fs.Int64("show", 0, "open this receipt")
	focus := fs.String("focus", "", "with --show: focus this field (its box is outlined on the page)")
	page := fs.String("settings", "", "open the settings window on this page (Models, Hardware)")
	if err := fs.Parse(args); err != nil {
		return 2
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
	eng, label, workers, err := chooseEngine(lib, m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "shoebox:", err)
		return 1
	}
	defer eng.Close()
	svc := Services{Lib: lib, Engine: eng, EngineLabel: label, Machine: &m, Plans: referencePlans(m), Workers: workers}

	a := app.NewWithID("app.shoebox.desktop")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	w := a.NewWindow("Shoebox " + version + " — " + dir)
	u := New(a, w, svc)
	w.Resize(fyne.NewSize(1280, 800))
	w.SetMaster()
	if counts, err := lib.Counts(); err == nil && counts[library.StatusQueued] > 0 {
		u.startRunner() // the batch a closed window left off goes on
	}
	w.SetCloseIntercept(func() {
		u.Close()
		w.Close()
	})
	if *showID != 0 {
		u.Select(*showID)
		if *focus != "" {
			go func() {
				time.Sleep(700 * time.Millisecond)
				fyne.Do(func() { u.FocusField(*focus) })
			}()
		}
	}
	if *page != "" {
		go func() {
			time.Sleep(500 * time.Millisecond) // after the main window is up
			fyne.Do(func() { u.ShowSettings(*page) })
		}()
	}
	w.ShowAndRun()
	return 0
}

// FocusField puts the cursor in a field, outlining its box on the page.
func (u *UI) FocusField(path string) {
	if e := u.form.entry(path); e != nil {
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

// chooseEngine starts the vision engine when a model has been chosen and
// passes its checks, else the OCR engine; a model that fails to start is
// reported in the label and OCR reads meanwhile.
func chooseEngine(lib *library.Library, m hw.Machine) (inference.Engine, string, int, error) {
	ocr := func(note string) (inference.Engine, string, int, error) {
		o, err := inference.NewOCR(inference.DefaultOCROptions(lib.Locale()))
		if err != nil {
			return nil, "", 0, fmt.Errorf("the OCR engine could not start: %w", err)
		}
		return o, "OCR (Tesseract) on CPU" + note, runtime.NumCPU(), nil
	}
	model, proj := lib.Setting(SettingModel), lib.Setting(SettingProjector)
	if model == "" {
		return ocr("")
	}
	if _, ok := verifyPair(model, proj); !ok {
		return ocr(" — the chosen model failed its check (Settings → Models)")
	}
	facts, err := hw.FactsFromGGUF(model, proj)
	if err != nil {
		return ocr(" — " + err.Error())
	}
	req := hw.Request{Machine: m, Model: facts}
	v, err := inference.NewVLM(inference.VLMOptions{Model: model, Projector: proj, Plan: hw.MakePlan(req), Request: &req, Locale: lib.Locale()})
	if err != nil {
		return ocr(" — the vision model did not start: " + err.Error())
	}
	plan := v.Plan()
	var eng inference.Engine = v
	if o, err := inference.NewOCR(inference.DefaultOCROptions(lib.Locale())); err == nil {
		eng = inference.VLMWithOCR{VLM: v, OCR: o} // the OCR text as a hint, and boxes for the review
	}
	// As many receipts in flight as the engine reads at once, so its batches fill.
	return eng, fmt.Sprintf("%s %s", strings.TrimSuffix(filepath.Base(model), ".gguf"), strings.TrimPrefix(plan.Summary(m), plan.Variant+" ")), max(plan.Parallel, 1), nil
}
