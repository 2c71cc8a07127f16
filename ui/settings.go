package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/models"
	"github.com/shoebox-app/shoebox/pipeline"
)

// Page names for ShowSettings.
const (
	PageModels   = "Models"
	PageHardware = "Hardware"
	PageLocale   = "Country & tax"
)

func (u *UI) showSettings() { u.ShowSettings(PageModels) }

// ShowSettings opens the settings window on a page.
func (u *UI) ShowSettings(page string) fyne.Window {
	w := u.app.NewWindow("Shoebox settings")
	tabs := container.NewAppTabs(
		container.NewTabItem(PageModels, u.modelsPage()),
		container.NewTabItem(PageHardware, u.hardwarePage()),
		container.NewTabItem(PageLocale, u.localePage(w)),
	)
	for _, t := range tabs.Items {
		if t.Text == page {
			tabs.Select(t)
		}
	}
	w.SetContent(tabs)
	w.Resize(fyne.NewSize(820, 620))
	w.Show()
	return w
}

// Settings keys for the chosen vision model.
const (
	SettingModel     = pipeline.SettingModel
	SettingProjector = pipeline.SettingProjector
)

func (u *UI) modelsPage() fyne.CanvasObject {
	head := widget.NewLabel(fmt.Sprintf("Reading receipts with: %s. The built-in OCR engine (Tesseract) needs no download and no GPU. "+
		"A vision model reads difficult receipts better: a model chosen here is checked, remembered and started, with the OCR text as its hint; the next batch reads with it.", u.svc.EngineLabel))
	head.Wrapping = fyne.TextWrapWord
	chosen := widget.NewLabel(u.chosenModelText())
	chosen.Wrapping = fyne.TextWrapWord
	items := []fyne.CanvasObject{head, chosen}
	if eng, ok := u.Engine().(interface{ Unload() }); ok {
		items = append(items, widget.NewButton("Free the model's memory now (it loads again for the next receipt)", func() {
			go eng.Unload()
		}))
	}

	use := func(model, projector string) {
		msgs, ok := pipeline.VerifyPair(model, projector)
		if ok {
			u.svc.Lib.SetSetting(SettingModel, model)
			u.svc.Lib.SetSetting(SettingProjector, projector)
		}
		chosen.SetText(u.chosenModelText() + "\n" + msgs)
		if ok {
			u.SwitchEngine(func(label string, err error) {
				if err != nil {
					chosen.SetText(u.chosenModelText() + "\n" + msgs + "\nThe model did not start: " + err.Error())
					return
				}
				chosen.SetText(u.chosenModelText() + "\n" + msgs + "\nNow reading with " + label + ".")
			})
		}
	}
	pick := widget.NewButton("Use a GGUF file…", func() {
		dialog.ShowFileOpen(func(r fyne.URIReadCloser, err error) {
			if err != nil || r == nil {
				return
			}
			model := r.URI().Path()
			r.Close()
			projector := ""
			if found := models.FindInFolder(filepath.Dir(model)); len(found) > 0 {
				projector = found[0].Projector
			}
			use(model, projector)
		}, u.win)
	})
	items = append(items, pick)

	for _, f := range models.FindOllama(models.OllamaDir()) {
		f := f
		items = append(items, widget.NewCard(f.Name, "found in your Ollama models: used where it is, not copied",
			widget.NewButton("Use this model", func() { use(f.Model, f.Projector) })))
	}

	cat, err := models.Catalogue()
	if err != nil {
		items = append(items, widget.NewLabel(err.Error()))
	}
	dir, _ := modelsDir()
	for _, e := range cat {
		e := e
		var rows []fyne.CanvasObject
		plan := u.planFor(e)
		for _, v := range e.Variants {
			v := v
			size := "size not yet recorded"
			if v.Model.Bytes() > 0 {
				size = fmt.Sprintf("%.1f GB", float64(v.Model.Bytes()+v.Projector.Bytes())/1e9)
			}
			bar := widget.NewProgressBar()
			bar.Hide()
			status := widget.NewLabel("")
			status.Wrapping = fyne.TextWrapWord
			var btn *widget.Button
			btn = widget.NewButton("Download "+v.Name+" ("+size+")", func() {
				btn.Disable()
				bar.Show()
				go func() {
					var paths []string
					for _, ref := range []models.FileRef{v.Model, v.Projector} {
						path, err := models.Download(context.Background(), nil, ref, dir, func(p models.DownloadProgress) {
							fyne.Do(func() {
								if p.Total > 0 {
									bar.SetValue(float64(p.Done) / float64(p.Total))
								}
								status.SetText(fmt.Sprintf("%s: %.0f MB, %.1f MB/s, ETA %s", ref.Name, float64(p.Done)/1e6, p.BytesPerSec/1e6, p.ETA.Round(time.Second)))
							})
						})
						if err != nil {
							fyne.Do(func() { status.SetText(err.Error()); btn.Enable() })
							return
						}
						paths = append(paths, path)
					}
					fyne.Do(func() { use(paths[0], paths[1]); status.SetText("Downloaded and checked."); btn.Enable() })
				}()
			})
			rows = append(rows, btn, bar, status)
		}
		// Every text wraps (a card subtitle and a long source address would
		// not, and would widen the page past the window).
		detail := fmt.Sprintf("%s\nLicence: %s\nSource: %s\n%s", e.EngineStatus, e.Licence, e.Source, plan)
		lbl := widget.NewLabel(detail)
		lbl.Wrapping = fyne.TextWrapBreak
		items = append(items, widget.NewCard(e.Name, "", container.NewVBox(append([]fyne.CanvasObject{lbl}, rows...)...)))
	}
	return container.NewVScroll(container.NewVBox(items...))
}

// planFor says how a catalogue model would run here, from the reference facts when sizes are not recorded.
func (u *UI) planFor(e models.Entry) string {
	for _, mp := range u.svc.Plans {
		if strings.HasPrefix(mp.Model.Name, e.Name+" ") || mp.Model.Name == e.Name {
			return fmt.Sprintf("On this machine: %s, %s.", mp.Plan.Summary(machineOr(u.svc.Machine)), mp.Plan.SpeedText())
		}
	}
	return "Fit for this machine: shown once the file sizes are recorded."
}

func (u *UI) chosenModelText() string {
	m := u.svc.Lib.Setting(SettingModel)
	if m == "" {
		return "No vision model chosen."
	}
	return fmt.Sprintf("Chosen vision model: %s (projector %s).", filepath.Base(m), filepath.Base(u.svc.Lib.Setting(SettingProjector)))
}

// modelsDir is where downloads go: $SHOEBOX_MODELS, else <data folder>/models.
func modelsDir() (string, error) {
	d, err := library.DefaultDir()
	if err != nil && os.Getenv("SHOEBOX_MODELS") == "" {
		return "", err
	}
	return models.Dir(d), nil
}

func machineOr(m *hw.Machine) hw.Machine {
	if m == nil {
		return hw.Machine{}
	}
	return *m
}

func (u *UI) hardwarePage() fyne.CanvasObject {
	m := machineOr(u.svc.Machine)
	var b strings.Builder
	fmt.Fprintf(&b, "CPU: %d cores%s, %.1f GB memory free\n", m.CPUCores, map[bool]string{true: " with AVX2", false: " without AVX2"}[m.AVX2], float64(m.FreeRAMMiB)/1024)
	if len(m.GPUs) == 0 {
		b.WriteString("GPUs: none found\n")
	}
	for _, g := range m.GPUs {
		fmt.Fprintf(&b, "GPU %d: %s — compute capability %d.%d, %.1f of %.1f GB free\n", g.Index, g.Name, g.CCMajor, g.CCMinor, float64(g.FreeMiB)/1024, float64(g.TotalMiB)/1024)
	}
	for _, n := range m.Notes {
		b.WriteString(n + "\n")
	}
	for _, mp := range u.svc.Plans {
		fmt.Fprintf(&b, "\n%s: %s (%s)\n", mp.Model.Name, mp.Plan.Summary(m), mp.Plan.SpeedText())
		for _, r := range mp.Plan.Reasons {
			b.WriteString("  • " + r + "\n")
		}
		for _, w := range mp.Plan.Warnings {
			b.WriteString("  ! " + w + "\n")
		}
	}
	text := widget.NewLabel(b.String())
	text.Wrapping = fyne.TextWrapWord
	return container.NewVScroll(container.NewVBox(text, widget.NewSeparator(), u.overridesForm(m)))
}

func (u *UI) localePage(w fyne.Window) fyne.CanvasObject {
	lc := newLocaleChoice(u.svc.Lib.Locale())
	saved := widget.NewLabel("")
	save := widget.NewButton("Save", func() {
		u.setLocale(lc.value(), w)
		saved.SetText("Saved. New readings and exports use these settings.")
	})
	categories := widget.NewLabel(strings.Join(DefaultCategories, ", "))
	categories.Wrapping = fyne.TextWrapWord // unwrapped, it made the settings window 1,700 px wide
	items := append(lc.items(),
		widget.NewFormItem("Categories", categories),
		widget.NewFormItem("", container.NewHBox(save, saved)))
	return widget.NewForm(items...)
}

// overridesForm lets an expert try a GPU choice, layer count or precision
// and shows the plan with the planner's warnings.
func (u *UI) overridesForm(m hw.Machine) fyne.CanvasObject {
	if len(u.svc.Plans) == 0 {
		return widget.NewLabel("")
	}
	model := u.svc.Plans[len(u.svc.Plans)-1].Model
	var variants []string
	for _, v := range model.Variants {
		variants = append(variants, v.Name)
	}
	variant := widget.NewSelect(append([]string{"automatic"}, variants...), nil)
	variant.SetSelected("automatic")
	var gpuOpts []string
	gpuOpts = append(gpuOpts, "automatic")
	for _, g := range m.GPUs {
		gpuOpts = append(gpuOpts, fmt.Sprintf("%d: %s", g.Index, g.Name))
	}
	gpu := widget.NewSelect(gpuOpts, nil)
	gpu.SetSelected("automatic")
	layers := widget.NewEntry()
	layers.SetPlaceHolder("automatic")
	cpu := widget.NewCheck("CPU only", nil)
	result := widget.NewLabel("")
	result.Wrapping = fyne.TextWrapWord
	try := widget.NewButton("Show the plan", func() {
		var o hw.Overrides
		if variant.Selected != "automatic" {
			o.Variant = variant.Selected
		}
		if gpu.Selected != "automatic" {
			var idx int
			fmt.Sscanf(gpu.Selected, "%d:", &idx)
			o.GPUs = []int{idx}
		}
		if n, err := strconv.Atoi(strings.TrimSpace(layers.Text)); err == nil {
			o.GPULayers = &n
		}
		o.CPUOnly = cpu.Checked
		p := hw.MakePlan(hw.Request{Machine: m, Model: model, Overrides: o})
		text := fmt.Sprintf("%s: %s, %s", model.Name, p.Summary(m), p.SpeedText())
		for _, w := range p.Warnings {
			text += "\n⚠ " + w
		}
		result.SetText(text)
	})
	return widget.NewCard("Expert overrides", "for "+model.Name+"; the plan above is what Shoebox chooses by itself",
		container.NewVBox(widget.NewForm(widget.NewFormItem("Precision", variant), widget.NewFormItem("GPU", gpu),
			widget.NewFormItem("GPU layers", layers), widget.NewFormItem("", cpu)), try, result))
}
