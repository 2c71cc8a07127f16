// Package testollama runs a real Ollama server for tests: Ollama's own
// server built from the github.com/ollama/ollama module Shoebox already
// pins (the same llama.cpp sources, headers and CGO flags as Shoebox's
// build, so Go's build cache supplies the compiled llama.cpp), started on
// 127.0.0.1 with a private models folder, serving a vision model made with
// `ollama create` from internal/testmodel's tiny random-weight pair. Tests
// of the server engine read pages through it, stop it and start it again;
// it is never used by the product.
package testollama

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/internal/testmodel"
)

// ModelName is the model Start creates.
const ModelName = "shoebox-tiny"

// Binary returns an ollama binary built from the pinned module, building
// it into the user's cache (…/shoebox/ollama-VERSION/ollama) when it is not
// there yet, under a lock so that test packages running at once build it
// once. It reports how long a build took (0 when cached).
func Binary() (string, time.Duration, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}|{{.Version}}", "github.com/ollama/ollama").Output()
	if err != nil {
		return "", 0, fmt.Errorf("go list -m github.com/ollama/ollama: %w", err)
	}
	dir, version, _ := strings.Cut(strings.TrimSpace(string(out)), "|")
	if dir == "" || version == "" {
		return "", 0, fmt.Errorf("the ollama module is not in the module cache (go mod download github.com/ollama/ollama)")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", 0, err
	}
	binDir := filepath.Join(cache, "shoebox", "ollama-"+version)
	bin := filepath.Join(binDir, "ollama")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return "", 0, err
	}
	lock, err := os.OpenFile(filepath.Join(binDir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", 0, err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", 0, err
	}
	defer func() { _ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) }() // closing the file unlocks it anyway
	if st, err := os.Stat(bin); err == nil && st.Mode()&0o111 != 0 {
		return bin, 0, nil
	}
	if os.Getenv("CGO_CPPFLAGS") == "" {
		return "", 0, errors.New("CGO_CPPFLAGS is not set: run the tests through make (make test), which points cgo at the headers llama.cpp needs")
	}
	// Built in the module's own folder with its own go.mod and go.sum (its
	// dependencies are not Shoebox's); the llama.cpp packages compile with
	// the same sources and flags as Shoebox's, so the build cache has them.
	start := time.Now()
	tmp := bin + ".tmp"
	cmd := exec.Command("go", "build", "-ldflags", "-X github.com/ollama/ollama/version.Version="+strings.TrimPrefix(version, "v"), "-o", tmp, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return "", 0, fmt.Errorf("go build github.com/ollama/ollama@%s failed: %w\n%s", version, err, tail(log.String(), 3000))
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", 0, err
	}
	return bin, time.Since(start), nil
}

// Server is a running `ollama serve`.
type Server struct {
	URL      string // http://127.0.0.1:PORT
	Model    string
	bin      string
	host     string
	dir      string
	parallel int
	cmd      *exec.Cmd
	done     chan struct{}
	log      *os.File
}

// Start builds ollama if needed (skipping the test, with the reason, only
// when that build is impossible), serves it on a free loopback port with
// OLLAMA_NUM_PARALLEL=parallel, and creates ModelName from the tiny model
// pair. The server is stopped when the test ends.
func Start(t testing.TB, parallel int) *Server {
	t.Helper()
	bin, took, err := Binary()
	if err != nil {
		t.Skipf("a real Ollama server cannot be built here, so the server engine is not tested against one: %v", err)
	}
	if took > 0 {
		t.Logf("built ollama in %s", took.Round(time.Second))
	}
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	host := l.Addr().String()
	l.Close()
	s := &Server{URL: "http://" + host, Model: ModelName, bin: bin, host: host, dir: dir, parallel: max(parallel, 1)}
	t.Cleanup(s.Stop)
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	// The tiny pair, with room for the prompt and the OCR hint: its byte
	// vocabulary spends a token a character, and Ollama holds num_ctx to
	// the model's trained context.
	llm := testmodel.Tiny
	llm.Context = 8192
	model, proj := filepath.Join(dir, "tiny-llm.gguf"), filepath.Join(dir, "tiny-mmproj.gguf")
	if err := testmodel.WriteLLM(model, llm); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(proj, testmodel.TinyProjector); err != nil {
		t.Fatal(err)
	}
	// Two FROM lines: the model, then its projector. One thread per
	// sequence: two on a two-core machine made decoding crawl. A chat
	// template of every message, as real models' have: Ollama's default
	// renders only the last user turn, and the system prompt with the OCR
	// hint would not reach the model.
	mf := fmt.Sprintf("FROM %s\nFROM %s\nPARAMETER num_ctx 8192\nPARAMETER num_thread 1\n", model, proj) +
		"TEMPLATE \"\"\"{{ range .Messages }}{{ .Role }}: {{ .Content }}\n{{ end }}assistant: \"\"\"\n"
	if err := os.WriteFile(filepath.Join(dir, "Modelfile"), []byte(mf), 0o644); err != nil {
		t.Fatal(err)
	}
	create := exec.Command(bin, "create", ModelName, "-f", filepath.Join(dir, "Modelfile"))
	create.Env = s.env()
	if out, err := create.CombinedOutput(); err != nil {
		t.Fatalf("ollama create: %v\n%s\nserver log:\n%s", err, tail(string(out), 2000), s.Log())
	}
	return s
}

func (s *Server) env() []string {
	return append(os.Environ(), "OLLAMA_HOST="+s.host, "OLLAMA_MODELS="+filepath.Join(s.dir, "models"), "HOME="+s.dir,
		fmt.Sprintf("OLLAMA_NUM_PARALLEL=%d", s.parallel), "OLLAMA_MAX_LOADED_MODELS=1", "OLLAMA_KEEP_ALIVE=30m",
		"OLLAMA_NOPRUNE=1", "OLLAMA_CONTEXT_LENGTH=8192")
}

// Restart starts `ollama serve` (again, after Stop) on the same port and
// models folder, and waits until it answers.
func (s *Server) Restart() error {
	if s.cmd != nil {
		return errors.New("ollama is running")
	}
	log, err := os.OpenFile(filepath.Join(s.dir, "serve.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(s.bin, "serve")
	cmd.Env = s.env()
	cmd.Stdout, cmd.Stderr = log, log
	// Its own process group: Stop kills the model runner it starts too,
	// as a server machine going away would.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		log.Close()
		return err
	}
	s.cmd, s.log, s.done = cmd, log, make(chan struct{})
	go func(done chan struct{}) {
		_ = cmd.Wait() // the server's log says why it ended
		close(done)
	}(s.done)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		select {
		case <-s.done:
			s.cmd = nil
			return fmt.Errorf("ollama serve stopped at once:\n%s", s.Log())
		case <-time.After(100 * time.Millisecond):
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/api/version", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
	}
	s.Stop()
	return fmt.Errorf("ollama serve did not answer within a minute:\n%s", s.Log())
}

// Stop kills the server and its model runner at once (no graceful
// shutdown: requests in flight see their connections drop).
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL) // fails only when the group has already gone
	<-s.done
	s.cmd = nil
	s.log.Close()
}

// Log is the end of the server's log, for failure messages.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "serve.log"))
	return tail(string(b), 4000)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
