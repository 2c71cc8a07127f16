// Command shoebox is the Shoebox desktop app and its command line: with no
// command it opens the window; `shoebox help` lists the commands.
package main

import (
	_ "embed"
	"os"
	"regexp"

	"github.com/shoebox-app/shoebox/cli"
	"github.com/shoebox-app/shoebox/ui"
)

//go:embed FyneApp.toml
var fyneAppTOML string

func main() {
	b := buildInfo()
	if len(os.Args) > 1 && cli.IsCommand(os.Args[1]) {
		os.Exit(cli.Run(cli.DefaultEnv(b), os.Args[1:]))
	}
	os.Exit(ui.Main(os.Args[1:], b.Version))
}

// buildInfo reads the version from FyneApp.toml, the one place it is kept.
func buildInfo() cli.Build {
	find := func(key string) string {
		m := regexp.MustCompile(`(?m)^\s*` + key + `\s*=\s*"?([^"\n]+)"?`).FindStringSubmatch(fyneAppTOML)
		if m == nil {
			return "dev"
		}
		return m[1]
	}
	return cli.Build{Version: find("Version"), Number: find("Build")}
}
