// Command shoebox is the Shoebox desktop app and its command line: with no
// command it opens the window; `shoebox help` lists the commands.
package main

import (
	_ "embed"
	"os"
	"regexp"
	"syscall"

	"github.com/shoebox-app/shoebox/cli"
	"github.com/shoebox-app/shoebox/internal/envvars"
	"github.com/shoebox-app/shoebox/ui"
)

//go:embed FyneApp.toml
var fyneAppTOML string

// release is the packaged version (`git describe`), set by the packaging
// scripts with -ldflags "-X main.release=…"; a plain build shows
// FyneApp.toml's.
var release string

func main() {
	limitOpenMP()
	b := buildInfo()
	if len(os.Args) > 1 && cli.IsCommand(os.Args[1]) {
		os.Exit(cli.Run(cli.DefaultEnv(b), os.Args[1:]))
	}
	os.Exit(ui.Main(os.Args[1:], b.Version))
}

// buildInfo reads the version from FyneApp.toml, the one place it is kept,
// unless a package build set release.
func buildInfo() cli.Build {
	find := func(key string) string {
		m := regexp.MustCompile(`(?m)^\s*` + key + `\s*=\s*"?([^"\n]+)"?`).FindStringSubmatch(fyneAppTOML)
		if m == nil {
			return "dev"
		}
		return m[1]
	}
	v := find("Version")
	if release != "" {
		v = release
	}
	return cli.Build{Version: v, Number: find("Build")}
}

// limitOpenMP restarts the process with OMP_THREAD_LIMIT=1 when it is unset.
// Debian's Tesseract is built with OpenMP, whose threads spin against each
// other and against our own worker pool: 43 receipts/minute on 2 cores with
// it, 226 without. libgomp reads the variable when it is loaded, before any
// Go code runs, hence the exec.
func limitOpenMP() {
	if envvars.OMPThreadLimit.Get() != "" {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	// Exec only returns on failure: carry on with OpenMP's default.
	_ = syscall.Exec(exe, os.Args, append(os.Environ(), "OMP_THREAD_LIMIT=1"))
}
