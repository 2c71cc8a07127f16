// Package envvars declares every environment variable Shoebox reads, with
// its meaning, in one place: the product reads them through these
// declarations (Var.Get), `shoebox version --env` prints them, and a test
// keeps any other file from reading one of its own.
package envvars

import (
	"fmt"
	"io"
	"os"
)

// Var is one environment variable Shoebox reads.
type Var struct {
	Name    string
	Meaning string
	// Default says what happens when the variable is not set.
	Default string
	// Secret values are never printed.
	Secret bool
	// TestOnly variables are read only by test builds (-tags faultinject).
	TestOnly bool
	// Foreign variables belong to other programs (the system, Go, Ollama,
	// Tesseract); Shoebox honours them.
	Foreign bool
}

// Get is the variable's value ("" when unset).
func (v Var) Get() string { return os.Getenv(v.Name) }

// Lookup is the variable's value and whether it is set.
func (v Var) Lookup() (string, bool) { return os.LookupEnv(v.Name) }

var all []Var

func declare(v Var) Var {
	all = append(all, v)
	return v
}

// Shoebox's own.
var (
	Home = declare(Var{
		Name:    "SHOEBOX_HOME",
		Meaning: "the folder that holds the clients and their libraries",
		Default: "$XDG_DATA_HOME/shoebox, else ~/.local/share/shoebox (Windows: %LOCALAPPDATA%\\Shoebox)",
	})
	Models = declare(Var{
		Name:    "SHOEBOX_MODELS",
		Meaning: "the folder where vision models are downloaded and looked for",
		Default: "<data folder>/models",
	})
	Config = declare(Var{
		Name:    "SHOEBOX_CONFIG",
		Meaning: "the folder of the user's own settings that never travel with a library (the server keys)",
		Default: "the system's user config folder/shoebox",
	})
	ServerKey = declare(Var{
		Name:    "SHOEBOX_SERVER_KEY",
		Meaning: "the API key of the inference server named on the command line (a flag would show in ps)",
		Default: "the key saved for that server, if any", Secret: true,
	})
	PPOCRDir = declare(Var{
		Name:    "SHOEBOX_PPOCR_DIR",
		Meaning: "the folder holding the PP-OCR page reader's models and ONNX Runtime",
		Default: "beside the program (<exe dir>/../lib/ppocr and the other layouts Shoebox ships in)",
	})
	PPOCRArena = declare(Var{
		Name:    "SHOEBOX_PPOCR_ARENA",
		Meaning: "pow2 gives each ONNX Runtime session its own doubling memory arena (for measuring); anything else shares one arena",
		Default: "one shared arena",
	})
)

// Test builds only (-tags faultinject): the vision worker misbehaves on
// purpose. Each holds a marker file's path, except REFUSE.
var (
	WorkerCrashOnce = declare(Var{
		Name:    "SHOEBOX_WORKER_CRASH_ONCE",
		Meaning: "the vision worker exits as if it crashed, once (the marker file records that it did)", TestOnly: true,
	})
	WorkerHangOnce = declare(Var{
		Name:    "SHOEBOX_WORKER_HANG_ONCE",
		Meaning: "the vision worker hangs, once", TestOnly: true,
	})
	WorkerCrashTwice = declare(Var{
		Name:    "SHOEBOX_WORKER_CRASH_TWICE",
		Meaning: "the vision worker crashes twice (the marker counts)", TestOnly: true,
	})
	WorkerRefuse = declare(Var{
		Name:    "SHOEBOX_WORKER_REFUSE",
		Meaning: "the vision worker refuses to read: always, or only to the ordinary prompt", TestOnly: true,
	})
	WorkerBangOnce = declare(Var{
		Name:    "SHOEBOX_WORKER_BANG_ONCE",
		Meaning: "the vision worker answers \"!!!!\" (NaN logits), once", TestOnly: true,
	})
)

// Other programs' variables that Shoebox honours.
var (
	XDGDataHome = declare(Var{
		Name: "XDG_DATA_HOME", Foreign: true,
		Meaning: "the user's data folder, where the library lives unless SHOEBOX_HOME says otherwise",
	})
	LocalAppData = declare(Var{
		Name: "LOCALAPPDATA", Foreign: true,
		Meaning: "on Windows, the user's local data folder: the library lives in %LOCALAPPDATA%\\Shoebox unless SHOEBOX_HOME says otherwise",
	})
	OllamaModels = declare(Var{
		Name: "OLLAMA_MODELS", Foreign: true,
		Meaning: "an Ollama model store to offer models from",
	})
	OllamaLibraryPath = declare(Var{
		Name: "OLLAMA_LIBRARY_PATH", Foreign: true,
		Meaning: "where llama.cpp loads GPU back-ends from", Default: "<exe dir>/../lib/ollama",
	})
	OMPThreadLimit = declare(Var{
		Name: "OMP_THREAD_LIMIT", Foreign: true,
		Meaning: "Tesseract's OpenMP threads; Shoebox sets 1 at start when unset (they fight its worker pool)",
	})
	GoMemLimit = declare(Var{
		Name: "GOMEMLIMIT", Foreign: true,
		Meaning: "the Go heap's soft limit; `shoebox process` sets 400 MiB when unset",
	})
	Display = declare(Var{
		Name: "DISPLAY", Foreign: true,
		Meaning: "the X display the window opens on",
	})
	WaylandDisplay = declare(Var{
		Name: "WAYLAND_DISPLAY", Foreign: true,
		Meaning: "the Wayland display the window opens on",
	})
	Lang = declare(Var{
		Name: "LANG", Foreign: true,
		Meaning: "the system's language and region, a hint for the first client's country",
	})
	LCAll = declare(Var{
		Name: "LC_ALL", Foreign: true,
		Meaning: "overrides LANG for the country hint",
	})
	LCMonetary = declare(Var{
		Name: "LC_MONETARY", Foreign: true,
		Meaning: "the system's money region, a hint for the first client's country",
	})
)

// All lists every declared variable, Shoebox's own first.
func All() []Var { return append([]Var(nil), all...) }

// Getenv reads a declared variable by name, for code that takes a getenv
// function (tests hand it their own). It panics on an undeclared name, so a
// new variable cannot be read without being declared here.
func Getenv(name string) string {
	for _, v := range all {
		if v.Name == name {
			return v.Get()
		}
	}
	panic(fmt.Sprintf("envvars: %s is not declared in internal/envvars", name))
}

// Print writes each variable, its meaning, its default and its value here
// (a secret one only as "set"); test-only ones only when testBuild.
func Print(w io.Writer, testBuild bool) {
	for _, v := range all {
		if v.TestOnly && !testBuild {
			continue
		}
		val, set := v.Lookup()
		switch {
		case !set:
			val = "(not set)"
		case v.Secret:
			val = "(set; not shown)"
		default:
			val = fmt.Sprintf("%q", val)
		}
		fmt.Fprintf(w, "%-26s %s\n", v.Name, val)
		fmt.Fprintf(w, "%-26s %s", "", v.Meaning)
		if v.Default != "" {
			fmt.Fprintf(w, "; unset: %s", v.Default)
		}
		fmt.Fprintln(w)
	}
}

// Names is every declared name, for the test that keeps reads here.
func Names() []string {
	var n []string
	for _, v := range all {
		n = append(n, v.Name)
	}
	return n
}
