//go:build faultinject

package worker

import (
	"os"
	"strings"
	"time"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference/vlm/protocol"
)

// FaultsCompiled says whether this build can be told to misbehave through
// SHOEBOX_WORKER_* variables: only test builds (-tags faultinject) can.
const FaultsCompiled = true

// testFault lets tests make a worker die or hang once (or die twice), as
// llama.cpp can.
func testFault(op string) {
	if op != "extract" {
		return
	}
	for env, act := range map[string]func(){
		"SHOEBOX_WORKER_CRASH_ONCE": func() { os.Exit(134) },
		"SHOEBOX_WORKER_HANG_ONCE":  func() { time.Sleep(time.Hour) },
	} {
		if marker := os.Getenv(env); marker != "" {
			if _, err := os.Stat(marker); os.IsNotExist(err) {
				os.WriteFile(marker, nil, 0o644)
				act()
			}
		}
	}
	// SHOEBOX_WORKER_CRASH_TWICE=marker: the marker counts the crashes.
	if marker := os.Getenv("SHOEBOX_WORKER_CRASH_TWICE"); marker != "" {
		if b, _ := os.ReadFile(marker); len(b) < 2 {
			os.WriteFile(marker, append(b, '!'), 0o644)
			os.Exit(134)
		}
	}
}

// testRefusal lets tests make a worker answer like a model that declines:
// always (SHOEBOX_WORKER_REFUSE=always) or only to the ordinary prompt
// (=ordinary), as the engine's retry with the strict prompt expects.
func testRefusal(req protocol.WorkerRequest, resp *protocol.WorkerResponse) {
	mode := os.Getenv("SHOEBOX_WORKER_REFUSE")
	if mode == "" {
		return
	}
	for i, page := range req.Pages {
		if i < len(resp.Pages) && (mode == "always" || !strings.HasPrefix(page.System, strings.TrimSpace(assets.ReceiptPromptStrict))) {
			resp.Pages[i] = protocol.PageResponse{Output: `{"supplier_name": "I'm sorry, but I can't help with personal information.", "date": "", "total": "0.00"}`}
		}
	}
}

// testBang lets tests make a worker's first extract answer "!!!!" for
// every page, as a GPU with broken arithmetic does
// (SHOEBOX_WORKER_BANG_ONCE=marker file).
func testBang(resp *protocol.WorkerResponse) {
	marker := os.Getenv("SHOEBOX_WORKER_BANG_ONCE")
	if marker == "" {
		return
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		return
	}
	os.WriteFile(marker, nil, 0o644)
	for i := range resp.Pages {
		resp.Pages[i] = protocol.PageResponse{Output: strings.Repeat("!", 40)}
	}
}
