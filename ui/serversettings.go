package ui

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/jpeg"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/server"
	"github.com/shoebox-app/shoebox/internal/plain"
	"github.com/shoebox-app/shoebox/pipeline"
)

// serverForm is Settings → Reading → "Use a server": the firm's own
// inference server (Ollama, vLLM, llama.cpp's server) reads the receipts
// instead of this computer. Nothing is sent anywhere until "Use this
// server" is pressed and the warning accepted.
type serverForm struct {
	u                      *UI
	url, key, inFlight, ca *widget.Entry
	api, model             *widget.Select
	status                 *widget.Label
	// confirm asks before the first page leaves the computer (a dialog;
	// tests answer it).
	confirm func(title, msg string, ok func())
}

var apiChoices = map[string]string{"found by itself": server.APIAuto, "OpenAI-style": server.APIOpenAI, "Ollama": server.APIOllama}

func (u *UI) newServerForm() *serverForm {
	lib := u.svc.Lib
	f := &serverForm{
		u: u, url: widget.NewEntry(), key: widget.NewPasswordEntry(), inFlight: widget.NewEntry(), ca: widget.NewEntry(),
		model: widget.NewSelect(nil, nil), status: wrapped(""),
	}
	f.api = widget.NewSelect([]string{"found by itself", "OpenAI-style", "Ollama"}, nil)
	f.api.SetSelected("found by itself")
	for label, v := range apiChoices {
		if v != "" && v == lib.Setting(pipeline.SettingServerAPI) {
			f.api.SetSelected(label)
		}
	}
	f.url.SetPlaceHolder("http://gpu-box:11434")
	f.url.SetText(lib.Setting(pipeline.SettingServerURL))
	f.key.SetPlaceHolder("only if the server asks for one")
	f.inFlight.SetPlaceHolder("4")
	f.inFlight.SetText(lib.Setting(pipeline.SettingServerInFlight))
	f.ca.SetPlaceHolder("your firm's CA file, if any")
	f.ca.SetText(lib.Setting(pipeline.SettingServerCA))
	if m := lib.Setting(pipeline.SettingServerModel); m != "" {
		f.model.Options = []string{m}
		f.model.SetSelected(m)
	}
	f.confirm = func(title, msg string, ok func()) {
		d := dialog.NewConfirm(title, msg, func(yes bool) {
			if yes {
				ok()
			}
		}, u.win)
		d.SetConfirmText("Send receipts there")
		d.Show()
	}
	return f
}

// options are the engine's options from the form (the key typed, else the
// one kept).
func (f *serverForm) options() server.Options {
	n, _ := strconv.Atoi(strings.TrimSpace(f.inFlight.Text))
	key := strings.TrimSpace(f.key.Text)
	if key == "" {
		key, _ = server.KeyFor(f.url.Text)
	}
	return server.Options{
		URL: strings.TrimSpace(f.url.Text), Model: f.model.Selected, API: apiChoices[f.api.Selected],
		CAFile: strings.TrimSpace(f.ca.Text), InFlight: n, APIKey: key, Locale: f.u.svc.Lib.Locale(),
	}
}

// findModels fills the model list from the server.
func (f *serverForm) findModels(done func()) {
	opt := f.options()
	opt.Model = "-" // any: only the list is asked for
	f.status.SetText("Asking the server which readers it has…")
	go func() {
		var names []string
		e, err := server.New(opt)
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			names, err = e.Models(ctx)
			cancel()
		}
		onMain(func() {
			defer callDone(done)
			if err != nil {
				f.status.SetText("The server did not answer: " + err.Error())
				return
			}
			if len(names) == 0 {
				f.status.SetText("The server answered but offers no readers.")
				return
			}
			f.model.Options = names
			if !contains(names, f.model.Selected) {
				f.model.SetSelected(names[0])
			}
			f.model.Refresh()
			f.status.SetText(fmt.Sprintf("The server offers %d %s.", len(names), plain.Word(len(names), "reader", "readers")))
		})
	}()
}

// test reads the bundled sample receipt (no client's data) on the server,
// with the page text read here as the hint, as real receipts are.
func (f *serverForm) test(done func()) {
	opt := f.options()
	f.status.SetText("Reading the sample receipt on the server…")
	go func() {
		start := time.Now()
		text, err := func() (string, error) {
			eng, _, _, err := pipeline.StartServer(opt, opt.Locale)
			if err != nil {
				return "", err
			}
			defer eng.Close()
			img, _, err := image.Decode(bytes.NewReader(assets.SampleReceipt))
			if err != nil {
				return "", err
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			res, err := eng.Extract(ctx, inference.Page{Image: img})
			if err != nil {
				return "", err
			}
			r := res.Receipt
			return fmt.Sprintf("It read the sample receipt in %.1f seconds: %q, total %s.", time.Since(start).Seconds(),
				r.SupplierName.Value, r.Total.Value.StringFixed(2)), nil
		}()
		onMain(func() {
			defer callDone(done)
			if err != nil {
				f.status.SetText("The test did not work: " + err.Error())
				return
			}
			f.status.SetText(text)
		})
	}()
}

// use saves the server in the library's settings, after saying plainly
// that receipts will leave this computer, and starts reading with it.
func (f *serverForm) use() {
	opt := f.options()
	s, err := server.New(opt)
	if err != nil {
		f.status.SetText(err.Error())
		return
	}
	host := s.Where()
	f.confirm("Send receipts to the server?", fmt.Sprintf("From now on Shoebox sends each receipt's picture, and the text "+
		"read from it on this computer, to %s to be read there. Nothing is sent anywhere unless you choose this. "+
		"Use it only with a server that you or your firm runs and trusts.", host), func() {
		lib := f.u.svc.Lib
		if !saveSettings(f.u, lib, pipeline.SettingServerURL, opt.URL, pipeline.SettingServerModel, opt.Model,
			pipeline.SettingServerAPI, opt.API, pipeline.SettingServerCA, opt.CAFile, pipeline.SettingServerInFlight, strings.TrimSpace(f.inFlight.Text)) {
			return
		}
		if k := strings.TrimSpace(f.key.Text); k != "" {
			if err := server.SaveKey(opt.URL, k); err != nil {
				f.status.SetText("The key could not be kept: " + err.Error())
				return
			}
		}
		if !saveSettings(f.u, lib, pipeline.SettingEngine, pipeline.EngineServer) {
			return
		}
		f.key.SetText("")
		f.status.SetText("Starting…")
		f.u.SwitchEngine(func(label string, err error) {
			if err != nil {
				f.status.SetText("It did not start: " + err.Error())
				return
			}
			f.status.SetText("Ready: the next receipts are read by " + host + ".")
		})
	})
}

// stop goes back to reading on this computer.
func (f *serverForm) stop() {
	if !f.u.saveSettings(pipeline.SettingEngine, "") {
		return
	}
	f.status.SetText("Receipts are read on this computer again.")
	f.u.SwitchEngine(nil)
}

func (u *UI) serverCard() fyne.CanvasObject {
	f := u.newServerForm()
	find := widget.NewButton("Find its readers", func() { f.findModels(nil) })
	buttons := container.NewHBox(widget.NewButton("Test with a sample receipt", func() { f.test(nil) }),
		widget.NewButton("Use this server", f.use))
	if u.svc.Lib.Setting(pipeline.SettingEngine) == pipeline.EngineServer {
		buttons.Add(widget.NewButton("Stop using it", f.stop))
	}
	form := widget.NewForm(widget.NewFormItem("Address", f.url), widget.NewFormItem("Reader", container.NewBorder(nil, nil, nil, find, f.model)),
		widget.NewFormItem("Key", f.key))
	more := advanced(widget.NewForm(widget.NewFormItem("Kind of server", f.api), widget.NewFormItem("Pages at once", f.inFlight),
		widget.NewFormItem("Certificate", f.ca)))
	// The explanation wraps in a label: a card's subtitle does not, and
	// would widen the page past the window.
	return widget.NewCard("Use a server", "", container.NewVBox(wrapped("Your firm's own reading server (Ollama, vLLM or "+
		"llama.cpp) reads the receipts instead of this computer. Their pictures are then sent to it; nothing is sent "+
		"unless you choose this."), form, buttons, f.status, more))
}

// serverText is the Reading page's first sentence: where receipts are read.
func (u *UI) serverText() string {
	lib := u.svc.Lib
	if lib.Setting(pipeline.SettingEngine) == pipeline.EngineServer {
		return fmt.Sprintf("Shoebox sends your receipts to the server %s to be read (see \"Use a server\" below).", lib.Setting(pipeline.SettingServerURL))
	}
	return "Shoebox reads your receipts on this computer; nothing is sent anywhere."
}

func callDone(done func()) {
	if done != nil {
		done()
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
