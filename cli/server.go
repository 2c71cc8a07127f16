package cli

import (
	"flag"
	"fmt"
	"io"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/server"
	"github.com/shoebox-app/shoebox/pipeline"
	"github.com/shoebox-app/shoebox/receipt"
)

// serverFlags name an inference server for --engine server; the API key
// comes from $SHOEBOX_SERVER_KEY (a flag would show in ps).
type serverFlags struct {
	url, model, api, ca *string
	maxTokens           *int
	allowHTTPKey        *bool
}

func addServerFlags(fs *flag.FlagSet) serverFlags {
	return serverFlags{
		url:       fs.String("server", "", "with --engine server: the server's address, e.g. http://gpu-box:11434 (Ollama) or http://gpu-box:8000/v1 (vLLM); the key, if it needs one, from $"+server.KeyEnv),
		model:     fs.String("server-model", "", "with --engine server: the model it reads with (as its /v1/models or /api/tags lists it)"),
		api:       fs.String("server-api", "", "with --engine server: openai (/v1/chat/completions) or ollama (/api/chat); default: ollama's when the server is Ollama"),
		ca:        fs.String("server-ca", "", "with --engine server: a PEM CA certificate to trust besides the system's (a firm's own CA)"),
		maxTokens: fs.Int("server-max-tokens", 0, "with --engine server: the most tokens a page's answer may take (0: the longest dev receipt's answer fits)"),
		allowHTTPKey: fs.Bool("allow-http-key", false, "with --engine server: send the key to a server on another computer over plain http://, "+
			"where anyone on the network between can read it (https:// needs no permission, nor a server on this computer)"),
	}
}

// options are the engine's options from the flags, the key from the
// environment or the one saved for this server (server.KeyFor), inFlight
// pages at once (0: the engine's default).
func (sf serverFlags) options(inFlight int, onEvent func(string)) server.Options {
	key, note := server.KeyFor(*sf.url)
	if note != "" && onEvent != nil {
		onEvent(note)
	}
	return server.Options{
		URL: *sf.url, Model: *sf.model, API: *sf.api, CAFile: *sf.ca, InFlight: inFlight,
		APIKey: key, AllowHTTPKey: *sf.allowHTTPKey, OnEvent: onEvent, MaxTokens: *sf.maxTokens,
	}
}

// startServerEngine makes the server engine (with Tesseract's hint unless
// hints is false) and says plainly that pages leave this computer.
func startServerEngine(env Env, sf serverFlags, loc receipt.Locale, inFlight int, hints bool) (inference.Engine, int) {
	if *sf.url == "" || *sf.model == "" {
		fmt.Fprintln(env.Stderr, "shoebox: --engine server needs --server URL and --server-model NAME")
		return nil, 2
	}
	opt := sf.options(inFlight, func(s string) { fmt.Fprintln(env.Stderr, "shoebox:", s) })
	if !hints {
		opt.Locale = loc
		s, err := server.New(opt)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return nil, 2
		}
		tellWherePagesGo(env.Stderr, s.Where())
		return s, 0
	}
	eng, label, _, err := pipeline.StartServer(opt, loc)
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return nil, 2
	}
	fmt.Fprintln(env.Stderr, "reading with", label)
	return eng, 0
}

// tellWherePagesGo is the plain notice that pages leave this computer.
func tellWherePagesGo(w io.Writer, where string) {
	fmt.Fprintf(w, "reading with the server %s: receipt images and their text are sent there\n", where)
}
