package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/sys/cpu"

	"github.com/shoebox-app/shoebox/inference/vlm/worker"
	"github.com/shoebox-app/shoebox/internal/envvars"
)

func init() {
	register("version", "print the version, Go and llama.cpp builds, and CPU features (--env: the environment variables read)", runVersion)
}

func runVersion(env Env, args []string) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	vars := fs.Bool("env", false, "list the environment variables Shoebox reads: what each means and its value here")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	w := env.Stdout
	if *vars {
		envvars.Print(w, worker.FaultsCompiled)
		return 0
	}
	fmt.Fprintf(w, "shoebox %s (build %s)\n", env.Build.Version, env.Build.Number)
	fmt.Fprintf(w, "go:        %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "llama.cpp: commit %s, from github.com/ollama/ollama %s\n", worker.Commit(), moduleVersion("github.com/ollama/ollama"))
	fmt.Fprintf(w, "compiled:  %s\n", strings.Join(worker.CPUFeatures(), " "))
	fmt.Fprintf(w, "this CPU:  %d cores, AVX2 %s, FMA %s, AVX-512 %s\n", runtime.NumCPU(), yes(cpu.X86.HasAVX2), yes(cpu.X86.HasFMA), yes(cpu.X86.HasAVX512F))
	dir, libs := gpuBackends()
	if len(libs) == 0 {
		fmt.Fprintf(w, "back-ends: CPU only (no libggml-cuda.so in %s; see `make cuda`)\n", dir)
	} else {
		fmt.Fprintf(w, "back-ends: CPU + %s (from %s)\n", strings.Join(libs, ", "), dir)
	}
	return 0
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// pinnedOllama is go.mod's version of github.com/ollama/ollama, for test
// binaries, which carry no module list (a test keeps the two equal).
const pinnedOllama = "v0.17.4"

func moduleVersion(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == path {
				return d.Version
			}
		}
	}
	return pinnedOllama
}

// gpuBackends lists the GPU back-end libraries llama.cpp will load: from
// OLLAMA_LIBRARY_PATH, else <exe dir>/../lib/ollama.
func gpuBackends() (string, []string) {
	dir := envvars.OllamaLibraryPath.Get()
	if dir == "" {
		exe, err := os.Executable()
		if err != nil {
			return "(unknown)", nil
		}
		dir = filepath.Join(filepath.Dir(exe), "..", "lib", "ollama")
	}
	dir = filepath.Clean(dir)
	var libs []string
	for _, pattern := range []string{"libggml-cuda*.so*", "libggml-hip*.so*", "libggml-vulkan*.so*"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, p := range m {
			libs = append(libs, filepath.Base(p))
		}
	}
	return dir, libs
}
