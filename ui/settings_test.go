package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/hw"
)

// shownText collects the words a page shows without opening its Advanced section.
func shownText(o fyne.CanvasObject) string {
	var b strings.Builder
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *fyne.Container:
			for _, c := range w.Objects {
				walk(c)
			}
		case *container.Scroll:
			walk(w.Content)
		case *widget.Accordion:
			for _, it := range w.Items {
				b.WriteString(it.Title + "\n")
			}
		case *widget.Label:
			b.WriteString(w.Text + "\n")
		case *widget.Button:
			b.WriteString(w.Text + "\n")
		case *widget.Card:
			b.WriteString(w.Title + "\n" + w.Subtitle + "\n")
			if w.Content != nil {
				walk(w.Content)
			}
		case *widget.Form:
			for _, it := range w.Items {
				b.WriteString(it.Text + "\n")
				walk(it.Widget)
			}
		case *widget.Select:
			b.WriteString(w.Selected + "\n" + strings.Join(w.Options, "\n") + "\n")
		case *widget.Check:
			b.WriteString(w.Text + "\n")
		}
	}
	walk(o)
	return b.String()
}

// The Settings pages speak as a bookkeeper would; the technical words are
// only under Advanced.
func TestSettingsInPlainWords(t *testing.T) {
	u := newTestUI(t)
	m := hw.Machine{CPUCores: 2, AVX2: true, FreeRAMMiB: 8000, Notes: []string{"No NVIDIA driver found (libnvidia-ml.so is not installed): running on the CPU."}}
	u.svc.Machine = &m
	u.svc.Plans = referencePlans(m)
	for name, page := range map[string]fyne.CanvasObject{PageModels: u.modelsPage(), PageHardware: u.hardwarePage(), PageLocale: u.localePage(u.win)} {
		text := shownText(page)
		if len(text) < 40 {
			t.Errorf("%s: hardly any text found: %q", name, text)
		}
		for _, jargon := range []string{"GGUF", "Q4_K_M", "Q8_0", "AVX2", "libnvidia", "mtmd", "GPU layers", "LLaVA", "hashed", "not yet recorded", "Tesseract", "OCR"} {
			if strings.Contains(text, jargon) {
				t.Errorf("%s page says %q where a bookkeeper reads it:\n%s", name, jargon, text)
			}
		}
	}
	if !strings.Contains(shownText(u.localePage(u.win)), "Malaysia") {
		t.Error("countries are not named")
	}
}

// The reader the planner picks for the machine comes first and says so,
// in the size it fits: a 24 GB card gets a larger one than a CPU.
func TestModelsPageRecommendsAReaderForThisComputer(t *testing.T) {
	u := newTestUI(t)
	gpu := hw.Machine{CPUCores: 8, AVX2: true, FreeRAMMiB: 32000, GPUs: []hw.GPU{{Index: 0, Name: "NVIDIA GeForce RTX 4090", CCMajor: 8, CCMinor: 9, TotalMiB: 24576, FreeMiB: 23800}}}
	cpu := hw.Machine{CPUCores: 4, AVX2: true, FreeRAMMiB: 16000}
	var firsts []string
	for _, m := range []hw.Machine{gpu, cpu} {
		m := m
		u.svc.Machine = &m
		text := shownText(u.modelsPage())
		i := strings.Index(text, "Recommended for this computer: ")
		if i < 0 {
			t.Fatalf("no recommendation on %v:\n%s", m.GPUs, text)
		}
		line, _, _ := strings.Cut(text[i:], "\n")
		firsts = append(firsts, line)
	}
	if firsts[0] == firsts[1] {
		t.Errorf("the same reader is recommended with and without a 24 GB card: %q", firsts[0])
	}
}

// The recommended reader is explained in plain words: what it is, how big
// a download, and why it is the one for this computer; no card says its
// size is not known.
func TestRecommendedReaderExplained(t *testing.T) {
	u := newTestUI(t)
	m := hw.Machine{CPUCores: 2, AVX2: true, FreeRAMMiB: 8000}
	u.svc.Machine = &m
	u.svc.Plans = referencePlans(m)
	text := shownText(u.modelsPage())
	for _, want := range []string{"What it is: Qwen3-VL-2B-Instruct", "How big: about 1.8 GB to download", "Why this one: this computer has no graphics card"} {
		if !strings.Contains(text, want) {
			t.Errorf("the Reading page does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "not known") || strings.Contains(text, "once its download size is known") {
		t.Errorf("a download size is still not known:\n%s", text)
	}
}
