// Package cli holds Shoebox's subcommands (everything but the GUI): each
// parses its own flags and drives the same packages the desktop app uses.
package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"time"
)

// Build identifies this binary; main fills it from FyneApp.toml.
type Build struct {
	Version string
	Number  string
}

// Env is what a command reads and writes, so tests can run commands in-process.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Build  Build
}

// DefaultEnv is the process's own streams.
func DefaultEnv(b Build) Env {
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Build: b}
}

type command struct {
	summary string
	run     func(env Env, args []string) int
}

var commands = map[string]command{}

func register(name, summary string, run func(Env, []string) int) {
	commands[name] = command{summary: summary, run: run}
}

// IsCommand reports whether name is a subcommand (anything else starts the GUI).
func IsCommand(name string) bool {
	_, ok := commands[name]
	return ok || name == "help" || name == "-h" || name == "--help"
}

// Run dispatches args[0] to its command and returns the exit code.
func Run(env Env, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(env.Stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "shoebox: unknown command %q\n\n", args[0])
		usage(env.Stderr)
		return 2
	}
	return c.run(env, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Shoebox reads receipts into a spreadsheet, offline.")
	fmt.Fprintln(w, "\nUsage:\n  shoebox [--library DIR]     start the desktop app\n  shoebox COMMAND [flags]     run a command (COMMAND -h for its flags)\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// timeNow is the clock commands judge dates by.
var timeNow = time.Now

// parseArgs parses flags wherever they stand among the positional arguments
// ("extract a.jpg b.jpg -o out.xlsx"); "--" ends the flags.
func parseArgs(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	return fs.Parse(append([]string{"--"}, positional...))
}

// printJSON writes v to standard output as indented JSON and returns the
// command's exit code: 1, with the reason, when the output cannot be written
// (a closed pipe, a full disk).
func printJSON(env Env, v any) int {
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox: writing the output:", err)
		return 1
	}
	return 0
}
