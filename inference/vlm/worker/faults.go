//go:build faultinject

package worker

import (
	"os"
	"strings"
	"time"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/inference/vlm/protocol"
	"github.com/shoebox-app/shoebox/internal/envvars"
	"github.com/shoebox-app/shoebox/internal/fsutil"
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
	for v, act := range map[envvars.Var]func(){
		envvars.WorkerCrashOnce: func() { os.Exit(134) },
		envvars.WorkerHangOnce:  func() { time.Sleep(time.Hour) },
	} {
		if marker := v.Get(); marker != "" {
			if _, err := os.Stat(marker); os.IsNotExist(err) {
				_ = fsutil.WriteBytes(marker, nil)
				act()
			}
		}
	}
	// SHOEBOX_WORKER_CRASH_TWICE=marker: the marker counts the crashes.
	if marker := envvars.WorkerCrashTwice.Get(); marker != "" {
		if b, _ := os.ReadFile(marker); len(b) < 2 {
			_ = fsutil.WriteBytes(marker, append(b, '!'))
			os.Exit(134)
		}
	}
}

// testRefusal lets tests make a worker answer like a model that declines:
// always (SHOEBOX_WORKER_REFUSE=always) or only to the ordinary prompt
// (=ordinary), as the engine's retry with the strict prompt expects.
func testRefusal(req protocol.WorkerRequest, resp *protocol.WorkerResponse) {
	mode := envvars.WorkerRefuse.Get()
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
	marker := envvars.WorkerBangOnce.Get()
	if marker == "" {
		return
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		return
	}
	_ = fsutil.WriteBytes(marker, nil)
	for i := range resp.Pages {
		resp.Pages[i] = protocol.PageResponse{Output: strings.Repeat("!", 40)}
	}
}
