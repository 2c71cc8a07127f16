package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/receipt"
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

func (u *UI) modelsPage() fyne.CanvasObject {
	head := widget.NewLabel(fmt.Sprintf("Reading receipts with: %s.\n\nNo vision model is installed, so Shoebox uses its built-in OCR engine (Tesseract), which needs no download and no GPU. A vision model reads difficult receipts better; the models below are what this machine could run.", u.svc.EngineLabel))
	head.Wrapping = fyne.TextWrapWord
	items := []fyne.CanvasObject{head}
	for _, mp := range u.svc.Plans {
		var smallest hw.Variant
		for _, v := range mp.Model.Variants {
			if smallest.Bytes == 0 || v.Bytes < smallest.Bytes {
				smallest = v
			}
		}
		fit := mp.Plan.Summary(machineOr(u.svc.Machine))
		card := widget.NewCard(mp.Model.Name, fmt.Sprintf("From %.1f GB (%s) plus a %.1f GB projector", float64(smallest.Bytes)/1e9, smallest.Name, float64(mp.Model.ProjectorBytes)/1e9),
			widget.NewLabel(fmt.Sprintf("On this machine: %s, %s.", fit, mp.Plan.SpeedText())))
		items = append(items, card)
	}
	note := widget.NewLabel("Downloads, integrity checks and models found in your Ollama folder are not available in this version: point the command line at a GGUF file with `shoebox gpus --model FILE` to see how it would run.")
	note.Wrapping = fyne.TextWrapWord
	items = append(items, note)
	return container.NewVScroll(container.NewVBox(items...))
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
	overrides := widget.NewLabel("Expert overrides (GPU choice, layers, precision) are taken by `shoebox gpus` today; the planner warns there when one is risky.")
	overrides.Wrapping = fyne.TextWrapWord
	return container.NewVScroll(container.NewVBox(text, widget.NewSeparator(), overrides))
}

func (u *UI) localePage(w fyne.Window) fyne.CanvasObject {
	loc := u.svc.Lib.Locale()
	var countries []string
	for _, c := range receipt.Countries {
		countries = append(countries, string(c))
	}
	country := widget.NewSelect(countries, nil)
	country.SetSelected(string(loc.Country))
	order := widget.NewSelect([]string{string(receipt.DMY), string(receipt.MDY), string(receipt.YMD)}, nil)
	order.SetSelected(string(loc.DateOrder))
	var months []string
	for m := time.January; m <= time.December; m++ {
		months = append(months, m.String())
	}
	fy := widget.NewSelect(months, nil)
	fy.SetSelected(loc.FYStartMonth.String())
	cur := widget.NewSelectEntry(receipt.KnownCurrencies)
	cur.SetText(loc.Currency)
	country.OnChanged = func(s string) {
		d := receipt.DefaultLocale(receipt.Country(s))
		order.SetSelected(string(d.DateOrder))
		fy.SetSelected(d.FYStartMonth.String())
		cur.SetText(d.Currency)
	}
	saved := widget.NewLabel("")
	save := widget.NewButton("Save", func() {
		l := receipt.Locale{Country: receipt.Country(country.Selected), DateOrder: receipt.DateOrder(order.Selected), Currency: strings.ToUpper(cur.Text)}
		for i, m := range months {
			if m == fy.Selected {
				l.FYStartMonth = time.Month(i + 1)
			}
		}
		if err := u.svc.Lib.SetLocale(l); err != nil {
			u.showError(err)
			return
		}
		saved.SetText("Saved. New readings and exports use these settings.")
	})
	return widget.NewForm(
		widget.NewFormItem("Country", country),
		widget.NewFormItem("Date order", order),
		widget.NewFormItem("Financial year starts", fy),
		widget.NewFormItem("Default currency", cur),
		widget.NewFormItem("Categories", widget.NewLabel(strings.Join(DefaultCategories, ", "))),
		widget.NewFormItem("", container.NewHBox(save, saved)),
	)
}
