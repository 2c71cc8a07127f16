package pipeline

import (
	"fmt"
	"strconv"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/ocr"
	"github.com/shoebox-app/shoebox/inference/server"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// The library settings that send pages to an inference server. Nothing
// leaves the machine unless SettingEngine is EngineServer. The API key is
// not a library setting (server.KeyFor).
const (
	SettingEngine         = "engine" // "" (the vision model if chosen, else OCR) or EngineServer
	SettingServerURL      = "server.url"
	SettingServerModel    = "server.model"
	SettingServerAPI      = "server.api"       // "", "openai" or "ollama"
	SettingServerInFlight = "server.in_flight" // pages sent at once
	SettingServerCA       = "server.ca_file"   // a PEM CA beside the system's roots
	EngineServer          = "server"
)

// ServerOptions are the server engine's options from a library's settings,
// with the key saved for that server (server.KeyFor: a key saved for
// another server is not sent, and onEvent hears why).
func ServerOptions(lib *library.Library, onEvent func(string)) server.Options {
	n, _ := strconv.Atoi(lib.Setting(SettingServerInFlight))
	url := lib.Setting(SettingServerURL)
	key, note := server.KeyFor(url)
	if note != "" && onEvent != nil {
		onEvent(note)
	}
	return server.Options{
		URL: url, Model: lib.Setting(SettingServerModel), API: lib.Setting(SettingServerAPI),
		CAFile: lib.Setting(SettingServerCA), InFlight: n, APIKey: key, Locale: lib.Locale(), OnEvent: onEvent,
	}
}

// StartServer makes the server engine with Tesseract beside it for the
// hint and the grounding (ServerWithOCR; the bare engine when Tesseract
// cannot start), a label that says where pages go, and how many receipts
// to have in flight. It does not contact the server: a server that is
// down makes the batch wait (Runner.GiveUpAfter), not fail.
func StartServer(opt server.Options, loc receipt.Locale) (inference.Engine, string, int, error) {
	opt.Locale = loc
	s, err := server.New(opt)
	if err != nil {
		return nil, "", 0, err
	}
	label := fmt.Sprintf("the server %s — receipt images and their text are sent there", s.Where())
	if o, err := ocr.NewTesseract(ocr.DefaultOptions(loc)); err == nil {
		return ServerWithOCR{Engine: s, OCR: o}, label, s.InFlight(), nil
	}
	return s, label, s.InFlight(), nil
}
