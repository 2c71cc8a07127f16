package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
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
	PageModels   = "Reading"
	PageHardware = "This computer"
	PageLocale   = "Country & tax"
)

// pageAliases are the pages' former names, which scripts may still pass.
var pageAliases = map[string]string{"Models": PageModels, "Hardware": PageHardware}

func (u *UI) showSettings() { u.ShowSettings(PageModels) }

// ShowSettings opens the settings window on a page.
func (u *UI) ShowSettings(page string) fyne.Window {
	w := u.app.NewWindow("Shoebox settings")
	tabs := container.NewAppTabs(
		container.NewTabItem(PageModels, u.modelsPage()),
		container.NewTabItem(PageHardware, u.hardwarePage()),
		container.NewTabItem(PageLocale, u.localePage(w)),
	)
	if p, ok := pageAliases[page]; ok {
		page = p
	}
	for _, t := range tabs.Items {
		if t.Text == page {
			tabs.Select(t)
		}
	}
	w.SetContent(tabs)
	closeOnEscape(w, w.Close)
	w.Resize(fyne.NewSize(820, 620))
	w.Show()
	return w
}

// Settings keys for the chosen vision model.
const (
	SettingModel     = pipeline.SettingModel
	SettingProjector = pipeline.SettingProjector
)

// plainEngine says what reads the receipts in a bookkeeper's words.
func plainEngine(label string) string {
	if strings.HasPrefix(label, "OCR") { // "OCR (PP-OCR) on CPU": which page reader
		reader, _, _ := strings.Cut(strings.TrimPrefix(label, "OCR ("), ")")
		return "the built-in reader (" + reader + "), which needs no download"
	}
	return "the smart reader (" + label + ")"
}

// advanced is a closed section holding the technical details.
func advanced(objs ...fyne.CanvasObject) fyne.CanvasObject {
	return widget.NewAccordion(widget.NewAccordionItem("Advanced (technical details)", container.NewVBox(objs...)))
}

func wrapped(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

func gigabytes(b int64) string {
	if b <= 0 {
		return "download size not known yet"
	}
	return fmt.Sprintf("a %.1f GB download", float64(b)/1e9)
}

// recommendedText says in a sentence or three what the recommended reader
// is, how big it is and why it is the one for this computer (issue 40 item
// 10: Settings showed only the technical words). Sizes not recorded from
// the publisher's page are worked out from the reader's number of
// parameters, and say "about".
func recommendedText(e models.Entry, v models.Variant, plan hw.Plan) string {
	model, projector, estimated := e.VariantBytes(v)
	about := ""
	if estimated {
		about = "about "
	}
	why := "it is the best reader that fits wholly on your graphics card, so it reads quickly"
	if plan.OnCPU() || plan.Variant == "" {
		why = "this computer has no graphics card that Shoebox can use, and it is the smallest good reader: " +
			"it runs on the processor, slowly (how slowly is said above)"
	}
	return fmt.Sprintf("What it is: %s, a small AI that looks at each receipt's picture and writes down its fields, here on this computer "+
		"(nothing is sent anywhere). %s\nHow big: %s%.1f GB to download once (%.1f GB for the reader, %.1f GB for the part that sees pictures), "+
		"and as much room on disk.\nWhy this one: %s.",
		e.Name, e.About, about, float64(model+projector)/1e9, float64(model)/1e9, float64(projector)/1e9, why)
}

func (u *UI) modelsPage() fyne.CanvasObject {
	head := wrapped(fmt.Sprintf("%s It reads now with %s. "+
		"A smart reader reads faded, crumpled and unusual receipts better. Choose one below: it is downloaded once, "+
		"checked, and used for the next receipts you read.", u.serverText(), plainEngine(u.svc.EngineLabel)))
	chosen := wrapped(u.chosenModelText())
	items := []fyne.CanvasObject{head, chosen}
	var expert []fyne.CanvasObject
	expertLog := wrapped("")

	use := func(model, projector string) {
		msgs, ok := pipeline.VerifyPair(model, projector)
		if ok && !u.saveSettings(SettingModel, model, SettingProjector, projector) {
			return // saveSettings said why
		}
		report := "The files were checked and are sound."
		if !ok {
			report = "These files cannot be used: they are damaged or not a reader Shoebox knows. Details are under Advanced."
		}
		chosen.SetText(u.chosenModelText() + "\n" + report)
		expertLog.SetText(msgs)
		if ok {
			u.SwitchEngine(func(label string, err error) {
				if err != nil {
					chosen.SetText(u.chosenModelText() + "\nThe smart reader did not start; Shoebox goes on with the built-in reader. Details are under Advanced.")
					expertLog.SetText(msgs + "\n" + err.Error())
					return
				}
				chosen.SetText(u.chosenModelText() + "\nReady: the next receipts are read with it.")
			})
		}
	}
	pickFile := func() {
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
	}

	for _, f := range models.FindOllama(models.OllamaDir()) {
		f := f
		items = append(items, widget.NewCard(f.Name, "already on this computer (from Ollama): used where it is, no download",
			widget.NewButton("Use this reader", func() { use(f.Model, f.Projector) })))
	}

	cat, err := models.Catalogue()
	if err != nil {
		items = append(items, wrapped(err.Error()))
	}
	dir, _ := modelsDir()
	// The reader the planner's memory estimate picks for this computer
	// comes first, in the size it picks.
	recID, recVariant := "", ""
	var recPlan hw.Plan
	if u.svc.Machine != nil {
		if ref, plan := models.Recommend(cat, *u.svc.Machine); ref != "" {
			if e, v, err := models.Find(cat, ref); err == nil {
				recID, recVariant, recPlan = e.ID, v.Name, plan
			}
		}
	}
	cat = slices.Clone(cat)
	sort.SliceStable(cat, func(i, j int) bool { return cat[i].ID == recID && cat[j].ID != recID })
	for _, e := range cat {
		e := e
		mp, planned := u.planOf(e)
		best := 0
		for i, v := range e.Variants {
			if e.ID == recID && v.Name == recVariant || e.ID != recID && planned && v.Name == mp.Plan.Variant {
				best = i
			}
		}
		title := e.Name
		if e.ID == recID {
			title = "Recommended for this computer: " + e.Name
		}
		if !planned && u.svc.Machine != nil && len(e.Variants) > 0 {
			// No reference plan: plan the variant offered from its sizes.
			v := e.Variants[best]
			if facts := e.Facts(v); facts.Variants[0].Bytes > 0 {
				mp, planned = ModelPlan{Model: facts, Plan: hw.MakePlan(hw.Request{Machine: *u.svc.Machine, Model: facts, Parallel: 1})}, true
			}
		}
		var tech []fyne.CanvasObject
		for i, v := range e.Variants {
			v := v
			model, projector, _ := e.VariantBytes(v)
			size := model + projector
			bar := widget.NewProgressBar()
			bar.Hide()
			status := wrapped("")
			var btn *widget.Button
			label := fmt.Sprintf("Download %s (%s)", v.Name, gigabytes(size))
			if i == best {
				label = fmt.Sprintf("Download and use it (%s)", gigabytes(size))
			}
			btn = widget.NewButton(label, func() {
				btn.Disable()
				bar.Show()
				go func() {
					var paths []string
					for _, ref := range []models.FileRef{v.Model, v.Projector} {
						path, err := models.Download(context.Background(), nil, ref, dir, func(p models.DownloadProgress) {
							onMain(func() {
								if p.Total > 0 {
									bar.SetValue(float64(p.Done) / float64(p.Total))
								}
								status.SetText(fmt.Sprintf("%.0f MB of %.0f MB, about %s left", float64(p.Done)/1e6, float64(p.Total)/1e6, p.ETA.Round(time.Second)))
							})
						})
						if err != nil {
							onMain(func() {
								status.SetText("The download stopped: " + err.Error())
								btn.Enable()
							})
							return
						}
						paths = append(paths, path)
					}
					onMain(func() { use(paths[0], paths[1]); status.SetText("Downloaded and checked."); btn.Enable() })
				}()
			})
			if i == best {
				card := container.NewVBox(btn, bar, status)
				if e.ID == recID {
					card = container.NewVBox(wrapped(recommendedText(e, v, recPlan)), btn, bar, status)
				}
				items = append(items, widget.NewCard(title, u.plainSpeed(mp, planned), card))
			} else {
				tech = append(tech, btn, bar, status)
			}
		}
		// Every text wraps (a card subtitle and a long source address would
		// not, and would widen the page past the window).
		detail := fmt.Sprintf("%s: %s\nLicence: %s\nSource: %s\n%s", e.Name, e.EngineStatus, e.Licence, e.Source, u.planFor(e))
		l := widget.NewLabel(detail)
		l.Wrapping = fyne.TextWrapWord // breaks only a word longer than a line
		expert = append(expert, l)
		expert = append(expert, tech...)
		expert = append(expert, widget.NewSeparator())
	}
	items = append(items, widget.NewButton("Use a reader file you already have…", pickFile), u.serverCard())
	if eng, ok := u.Engine().(interface{ Unload() }); ok {
		expert = append(expert, widget.NewButton("Free the model's memory now (it loads again for the next receipt)", func() {
			go eng.Unload()
		}))
	}
	expert = append(expert, wrapped("A reader file is a GGUF model with its vision projector (mmproj) beside it."), expertLog)
	items = append(items, advanced(expert...))
	return container.NewVScroll(container.NewVBox(items...))
}

// planOf is the reference plan for a catalogue model on this machine.
func (u *UI) planOf(e models.Entry) (ModelPlan, bool) {
	for _, mp := range u.svc.Plans {
		if strings.HasPrefix(mp.Model.Name, e.Name+" ") || mp.Model.Name == e.Name {
			return mp, true
		}
	}
	return ModelPlan{}, false
}

// plainSpeed says how fast a model would read here, and on what, in words.
func (u *UI) plainSpeed(mp ModelPlan, planned bool) string {
	if !planned {
		return "How fast it reads on this computer is shown once its download size is known."
	}
	where := "on the processor"
	if !mp.Plan.OnCPU() {
		where = "with your NVIDIA graphics card"
	}
	return fmt.Sprintf("On this computer: %s, %s.", mp.Plan.SpeedText(), where)
}

// planFor says how a catalogue model would run here, from the reference facts when sizes are not recorded.
func (u *UI) planFor(e models.Entry) string {
	if mp, ok := u.planOf(e); ok {
		return fmt.Sprintf("On this machine: %s, %s.", mp.Plan.Summary(machineOr(u.svc.Machine)), mp.Plan.SpeedText())
	}
	return "Fit for this machine: shown once the file sizes are recorded."
}

func (u *UI) chosenModelText() string {
	m := u.svc.Lib.Setting(SettingModel)
	if m == "" {
		return "No smart reader chosen yet."
	}
	return fmt.Sprintf("Chosen smart reader: %s.", strings.TrimSuffix(filepath.Base(m), filepath.Ext(m)))
}

// modelsDir is where downloads go: $SHOEBOX_MODELS, else <data folder>/models.
func modelsDir() (string, error) { return models.DownloadDir(library.DefaultDir()) }

func machineOr(m *hw.Machine) hw.Machine {
	if m == nil {
		return hw.Machine{}
	}
	return *m
}

func (u *UI) hardwarePage() fyne.CanvasObject {
	m := machineOr(u.svc.Machine)
	var plain strings.Builder
	fmt.Fprintf(&plain, "Processor: %d cores. Memory free: %.1f GB.\n", m.CPUCores, float64(m.FreeRAMMiB)/1024)
	if len(m.GPUs) == 0 {
		plain.WriteString("Graphics card: no NVIDIA card found, so Shoebox reads on the processor. " +
			"The built-in reader is fast there; a smart reader is slower without a graphics card.\n")
	}
	for _, g := range m.GPUs {
		fmt.Fprintf(&plain, "Graphics card: %s with %.0f GB free, which makes a smart reader much faster.\n", g.Name, float64(g.FreeMiB)/1024)
	}
	for _, mp := range u.svc.Plans {
		where := "on the processor"
		if !mp.Plan.OnCPU() {
			where = "with the graphics card"
		}
		fmt.Fprintf(&plain, "\n%s: %s, %s.", strings.TrimSuffix(mp.Model.Name, " (reference)"), mp.Plan.SpeedText(), where)
	}

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
	return container.NewVScroll(container.NewVBox(wrapped(plain.String()),
		advanced(wrapped(b.String()), widget.NewSeparator(), u.overridesForm(m))))
}

func (u *UI) localePage(w fyne.Window) fyne.CanvasObject {
	country := ""
	if localeChosen(u.svc.Lib) {
		country = libraryCountry(u.svc.Lib)
	}
	lc := newLocaleChoice(u.svc.Lib.Locale(), country)
	saved := widget.NewLabel("")
	save := widget.NewButton("Save", func() {
		if !lc.chosen() {
			saved.SetText("Choose the country first.")
			return
		}
		l, code := lc.value()
		u.setCountry(l, code, w)
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
			if _, err := fmt.Sscanf(gpu.Selected, "%d:", &idx); err == nil { // "1: NVIDIA …"
				o.GPUs = []int{idx}
			}
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
