package pipeline

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/ocr"
	"github.com/shoebox-app/shoebox/inference/vlm"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/models"
	"github.com/shoebox-app/shoebox/models/gguf"
)

// The library settings that name the vision model a library is read with.
const (
	SettingModel     = "vlm.model"
	SettingProjector = "vlm.projector"
)

// VerifyPair checks a model file and its projector (size and SHA-256
// against the catalogue where it knows them, the GGUF structure always)
// and reports on each in a line.
func VerifyPair(model, projector string) (string, bool) {
	cat, _ := models.Catalogue()
	var out []string
	ok := true
	var headers []*gguf.File
	for _, p := range []string{model, projector} {
		if p == "" {
			out = append(out, "No projector (mmproj-*.gguf) was found beside the model: a vision model needs one.")
			ok = false
			continue
		}
		v, err := models.Verify(p, models.RefByName(cat, filepath.Base(p)), nil)
		if err != nil {
			out = append(out, err.Error())
			ok = false
			continue
		}
		headers = append(headers, v.Header)
		out = append(out, fmt.Sprintf("%s: sound (%d tensors).", filepath.Base(p), len(v.Header.Tensors)))
		out = append(out, v.Warnings...)
	}
	if ok && len(headers) == 2 {
		// Each file sound is not enough: the projector must fit the model.
		if err := models.CheckPair(model, headers[0], projector, headers[1]); err != nil {
			out = append(out, err.Error())
			ok = false
		}
	}
	return strings.Join(out, "\n"), ok
}

// ChooseEngine starts the engine a library reads with: the inference
// server when its settings say so (StartServer), else the vision model
// chosen in its settings when that passes its checks and starts (with
// Tesseract for the model's hint and grounding), else the OCR engine, with
// the reason in the label. The OCR engine reads with PP-OCR when its
// models and ONNX Runtime are found beside the binary (see OpenReader),
// else with Tesseract. It returns the engine, a label for people, and
// how many receipts to have in flight (a core each for OCR; as many as the
// vision engine reads at once).
func ChooseEngine(lib *library.Library, m hw.Machine, onEvent func(string)) (inference.Engine, string, int, error) {
	readWithOCR := func(note string) (inference.Engine, string, int, error) {
		say := onEvent
		if say == nil {
			say = func(string) {}
		}
		o, label, err := OpenReader("", ocr.DefaultOptions(lib.Locale()), say)
		if err != nil {
			return nil, "", 0, err
		}
		return o, label + note, runtime.NumCPU(), nil
	}
	if lib.Setting(SettingEngine) == EngineServer {
		eng, label, n, err := StartServer(ServerOptions(lib, onEvent), lib.Locale())
		if err != nil {
			return readWithOCR(" — the server in Settings cannot be used: " + err.Error())
		}
		return eng, label, n, nil
	}
	model, proj := lib.Setting(SettingModel), lib.Setting(SettingProjector)
	if model == "" {
		return readWithOCR("")
	}
	if _, ok := VerifyPair(model, proj); !ok {
		return readWithOCR(" — the chosen model failed its check (Settings → Models)")
	}
	facts, err := hw.FactsFromGGUF(model, proj)
	if err != nil {
		return readWithOCR(" — " + err.Error())
	}
	req := hw.Request{Machine: m, Model: facts}
	v, err := vlm.New(vlm.Options{Model: model, Projector: proj, Plan: hw.MakePlan(req), Request: &req, Locale: lib.Locale(), OnEvent: onEvent, Worker: Worker})
	if err != nil {
		return readWithOCR(" — the vision model did not start: " + err.Error())
	}
	plan := v.Plan()
	var eng inference.Engine = v
	if o, err := ocr.NewTesseract(ocr.DefaultOptions(lib.Locale())); err == nil {
		eng = VLMWithOCR{Engine: v, OCR: o}
	}
	label := fmt.Sprintf("%s %s", strings.TrimSuffix(filepath.Base(model), ".gguf"), strings.TrimPrefix(plan.Summary(m), plan.Variant+" "))
	return eng, label, max(plan.Parallel, 1), nil
}

// Worker is the command that starts the model worker; nil means this
// executable's "worker" (tests set their own binary).
var Worker []string
