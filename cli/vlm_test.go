package cli

import (
	"context"
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/vlm"
	"github.com/shoebox-app/shoebox/inference/vlm/worker"
	"github.com/shoebox-app/shoebox/internal/testmodel"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/pipeline"
)

// TestMain lets this test binary serve as the model worker: the VLM engine
// starts os.Args[0] with SHOEBOX_TEST_WORKER=1.
func TestMain(m *testing.M) {
	if os.Getenv("SHOEBOX_TEST_WORKER") == "1" {
		os.Exit(runWorker(DefaultEnv(Build{}), nil))
	}
	workerCommand = []string{os.Args[0]}
	pipeline.Worker = workerCommand
	os.Setenv("SHOEBOX_TEST_WORKER_PARENT", "1")
	os.Exit(m.Run())
}

// needFaults skips a test that makes the worker misbehave on purpose when
// this build cannot (the shipped binary ignores SHOEBOX_WORKER_*; make
// test builds with -tags faultinject).
func needFaults(t *testing.T) {
	t.Helper()
	if !worker.FaultsCompiled {
		t.Skip("the worker's fault injection is not compiled in: build with -tags faultinject (make test does)")
	}
}

func tinyPair(t *testing.T) (string, string) {
	dir := t.TempDir()
	m, p := filepath.Join(dir, "tiny.gguf"), filepath.Join(dir, "mmproj-tiny.gguf")
	if err := testmodel.WriteLLM(m, testmodel.Tiny); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteProjector(p, testmodel.TinyProjector); err != nil {
		t.Fatal(err)
	}
	return m, p
}

func TestExtractWithTheVisionEngine(t *testing.T) {
	model, proj := tinyPair(t)
	src := "../../shared/data/sroie-dev"
	files, _ := filepath.Glob(src + "/0[0-4]*.jpg")
	if len(files) == 0 {
		t.Skip("shared receipts not present")
	}
	t.Setenv("SHOEBOX_TEST_WORKER", "1") // for the child only: TestMain already ran
	args := append([]string{"extract", "--engine", "vlm", "--model", model, "--mmproj", proj, "--max-tokens", "512", "--json"}, files...)
	code, out, errOut := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res []extracted
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	for _, r := range res {
		if r.Error != "" || r.Receipt == nil || r.Engine != "vlm" || !r.Receipt.Total.Set && !r.Receipt.SupplierName.Set {
			t.Errorf("%s: %+v", r.File, r)
		}
		if r.Timings == nil || r.Timings.OCR <= 0 {
			t.Errorf("%s: the page was not read with Tesseract for the model's hint: %+v", r.File, r.Timings)
		}
	}
}

func TestWorkerCrashIsRetried(t *testing.T) {
	needFaults(t)
	model, proj := tinyPair(t)
	files, _ := filepath.Glob("../../shared/data/sroie-dev/00*.jpg")
	if len(files) < 2 {
		t.Skip("shared receipts not present")
	}
	marker := filepath.Join(t.TempDir(), "crashed")
	t.Setenv("SHOEBOX_TEST_WORKER", "1")
	t.Setenv("SHOEBOX_WORKER_CRASH_ONCE", marker)
	code, out, errOut := run(t, append([]string{"extract", "--engine", "vlm", "--model", model, "--mmproj", proj, "--max-tokens", "512"}, files[:2]...)...)
	if code != 0 || !strings.Contains(errOut, "the model worker stopped on page 1") || !strings.Contains(errOut, "starting the model worker") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the worker never crashed")
	}
}

func TestTruncatedModelIsAClearError(t *testing.T) {
	model, proj := tinyPair(t)
	data, _ := os.ReadFile(model)
	os.WriteFile(model, data[:len(data)/2], 0o644)
	code, _, errOut := run(t, "extract", "--engine", "vlm", "--model", model, "--mmproj", proj, "x.jpg")
	if code != 1 || !strings.Contains(errOut, "model file tiny.gguf is damaged: tensor") || !strings.Contains(errOut, "the file is truncated") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestBenchReportsStages(t *testing.T) {
	model, proj := tinyPair(t)
	files, _ := filepath.Glob("../../shared/data/sroie-dev/00*.jpg")
	if len(files) == 0 {
		t.Skip("shared receipts not present")
	}
	t.Setenv("SHOEBOX_TEST_WORKER", "1")
	code, out, errOut := run(t, append([]string{"bench", "--model", model, "--mmproj", proj, "-n", "2", "--max-tokens", "512", "--json"}, files[0])...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep benchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Pages != 2 || rep.EncodeMS <= 0 || rep.PrefillMS <= 0 || rep.ForwardMSPerTok <= 0 || rep.ForwardMSPerTok > rep.EngineMSPerTok || rep.PromptTokens < 100 || rep.DecodeMS <= 0 || rep.OutputTokens <= 0 || rep.TokensPerSec <= 0 || rep.BareMSPerToken <= 0 || rep.PagesPerMinute <= 0 {
		t.Errorf("report = %+v", rep)
	}
}

func TestBangingModelIsRejectedAtLoad(t *testing.T) {
	dir := t.TempDir()
	m, p := filepath.Join(dir, "bang.gguf"), filepath.Join(dir, "mmproj-bang.gguf")
	bang := testmodel.Tiny
	bang.Bang = true
	if err := testmodel.WriteLLM(m, bang); err != nil {
		t.Fatal(err)
	}
	testmodel.WriteProjector(p, testmodel.TinyProjector)
	t.Setenv("SHOEBOX_TEST_WORKER", "1")
	code, _, errOut := run(t, "extract", "--engine", "vlm", "--model", m, "--mmproj", p, "--max-tokens", "512", "../../shared/data/sroie-dev/006.jpg")
	if code != 1 || !strings.Contains(errOut, "hardware or precision fault") || !strings.Contains(errOut, `only '!' repeated`) || !strings.Contains(errOut, "on every configuration, the CPU included") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestIdleWorkerIsUnloadedAndComesBack(t *testing.T) {
	model, proj := tinyPair(t)
	t.Setenv("SHOEBOX_TEST_WORKER", "1")
	var events []string
	v, err := vlm.New(vlm.Options{
		Model: model, Projector: proj, Worker: workerCommand, IdleUnload: 200 * time.Millisecond, MaxTokens: 512,
		OnEvent: func(s string) {
			if !strings.Contains(s, "reached the limit") {
				events = append(events, s)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	page := inference.Page{Image: image.NewGray(image.Rect(0, 0, 64, 64))}
	if _, err := v.Extract(context.Background(), page); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	if v.Loaded() {
		t.Fatal("the worker is still loaded after the idle time")
	}
	if _, err := v.Extract(context.Background(), page); err != nil || !v.Loaded() {
		t.Fatalf("after unloading: %v, loaded %v", err, v.Loaded())
	}
	if len(events) < 2 || !strings.HasPrefix(events[0], "unloading the model after") || events[1] != "starting the model worker" {
		t.Errorf("events = %q", events)
	}
	v.Unload() // as Settings → Models asks
	if v.Loaded() {
		t.Fatal("the worker is still loaded after Unload")
	}
	if _, err := v.Extract(context.Background(), page); err != nil || !v.Loaded() {
		t.Fatalf("after Unload: %v, loaded %v", err, v.Loaded())
	}
}

func TestRefusalIsAskedAgainWithTheStrictPrompt(t *testing.T) {
	needFaults(t)
	model, proj := tinyPair(t)
	files, _ := filepath.Glob("../../shared/data/sroie-dev/00*.jpg")
	if len(files) == 0 {
		t.Skip("shared receipts not present")
	}
	t.Setenv("SHOEBOX_TEST_WORKER", "1")
	defer os.Unsetenv("SHOEBOX_WORKER_REFUSE")

	os.Setenv("SHOEBOX_WORKER_REFUSE", "ordinary")
	code, out, errOut := run(t, "extract", "--engine", "vlm", "--model", model, "--mmproj", proj, "--max-tokens", "512", "--json", files[0])
	if code != 0 || !strings.Contains(errOut, "the model declined page 1") || !strings.Contains(errOut, "strict bookkeeping prompt") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	var res []extracted
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res) != 1 || res[0].Error != "" || res[0].Receipt == nil {
		t.Fatalf("the retry's reading should be kept: %v\n%s", err, out)
	}

	os.Setenv("SHOEBOX_WORKER_REFUSE", "always")
	code, out, errOut = run(t, "extract", "--engine", "vlm", "--model", model, "--mmproj", proj, "--max-tokens", "512", "--json", files[0])
	if code != 1 || !strings.Contains(out, "declined to read the page") || !strings.Contains(out, "twice, the second time with the strict prompt") {
		t.Fatalf("a second refusal must be the page's error: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

// TestPagesAreReadTogether: concurrent callers' pages go to the worker as
// one request of parallel sequences, and a worker that dies during such a
// request costs no page: each is retried alone.
func TestPagesAreReadTogether(t *testing.T) {
	model, proj := tinyPair(t)
	t.Setenv("SHOEBOX_TEST_WORKER", "1")
	for _, crash := range []bool{false, true} {
		var env []string
		if crash && !worker.FaultsCompiled {
			continue // this build cannot make the worker crash
		}
		if crash {
			env = []string{"SHOEBOX_WORKER_CRASH_ONCE=" + filepath.Join(t.TempDir(), "crashed")}
		}
		var events []string
		var mu sync.Mutex
		v, err := vlm.New(vlm.Options{
			Model: model, Projector: proj, Plan: hw.Plan{Threads: 1, Parallel: 3}, Worker: workerCommand, WorkerEnv: env, MaxTokens: 512,
			OnEvent: func(s string) { mu.Lock(); events = append(events, s); mu.Unlock() },
		})
		if err != nil {
			t.Fatal(err)
		}
		results := make([]inference.Result, 3)
		errs := make([]error, 3)
		var wg sync.WaitGroup
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				img := image.NewGray(image.Rect(0, 0, 40+i, 60))
				for p := range img.Pix {
					img.Pix[p] = byte(p * (i + 1))
				}
				results[i], errs[i] = v.Extract(context.Background(), inference.Page{Image: img, Index: i})
			}()
		}
		wg.Wait()
		v.Close()
		together := 0
		for i, res := range results {
			if errs[i] != nil || res.Engine != "vlm" || res.Timings.OutputTokens == 0 {
				t.Errorf("crash %v, page %d: %v %+v", crash, i, errs[i], res.Timings)
			}
			if res.Timings.Batch > 1 {
				together++
			}
		}
		log := strings.Join(events, "\n")
		t.Logf("crash %v: %d of 3 pages read beside others; events: %q", crash, together, events)
		switch {
		case crash && !strings.Contains(log, "retrying them one at a time") && !strings.Contains(log, "retrying"):
			t.Errorf("the crash was not retried: %s", log)
		case !crash && together == 0:
			t.Errorf("no two pages were read together")
		}
	}
}

// TestEvalWithTheVisionEngine scores the vision engine like the OCR one.
func TestEvalWithTheVisionEngine(t *testing.T) {
	model, proj := tinyPair(t)
	if _, err := os.Stat("../../shared/data/sroie-dev/000.json"); err != nil {
		t.Skip("shared receipts not present")
	}
	t.Setenv("SHOEBOX_TEST_WORKER", "1")
	code, out, errOut := run(t, "eval", "--engine", "vlm", "--model", model, "--mmproj", proj, "--max-tokens", "512", "--labels", "../../shared/data/sroie-dev", "-n", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep evalReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Engine != "vlm" || rep.Receipts != 2 || rep.Fields["total"] == nil || len(rep.Failures) != 0 {
		t.Errorf("report: %+v", rep)
	}
}

// gpuPlan plans the tiny model for a machine with a GPU, so that there is a
// plan below the first one (this build has no GPU back-end: llama.cpp runs
// the layers on the CPU).
func gpuPlan(t *testing.T, model, proj string) (hw.Plan, *hw.Request) {
	t.Helper()
	facts, err := hw.FactsFromGGUF(model, proj)
	if err != nil {
		t.Fatal(err)
	}
	req := hw.Request{Machine: hw.Machine{CPUCores: 2, FreeRAMMiB: 8000, GPUs: []hw.GPU{{Index: 0, Name: "Test GPU", CCMajor: 8, CCMinor: 6, TotalMiB: 8000, FreeMiB: 7000}}}, Model: facts}
	plan := hw.MakePlan(req)
	if plan.OnCPU() {
		t.Fatalf("the test needs a GPU plan: %v", plan.Reasons)
	}
	return plan, &req
}

// TestFaultsWhileReadingStepDown: output that says the device computes
// wrongly ("!!!!"), or a worker that dies on a page and again when the page
// is retried, moves the engine to the next safer plan, and the page is read
// there.
func TestFaultsWhileReadingStepDown(t *testing.T) {
	needFaults(t)
	model, proj := tinyPair(t)
	t.Setenv("SHOEBOX_TEST_WORKER", "1")
	for _, tc := range []struct{ hook, event string }{
		{"SHOEBOX_WORKER_BANG_ONCE", "hardware or precision fault"},
		{"SHOEBOX_WORKER_CRASH_TWICE", "stopped on page 1 again"},
	} {
		t.Run(tc.hook, func(t *testing.T) {
			plan, req := gpuPlan(t, model, proj)
			var events []string
			v, err := vlm.New(vlm.Options{
				Model: model, Projector: proj, Plan: plan, Request: req, Worker: workerCommand, MaxTokens: 512,
				WorkerEnv: []string{tc.hook + "=" + filepath.Join(t.TempDir(), "marker")}, OnEvent: func(s string) { events = append(events, s) },
			})
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			res, err := v.Extract(context.Background(), inference.Page{Image: image.NewGray(image.Rect(0, 0, 40, 60))})
			if err != nil || res.Timings.OutputTokens == 0 {
				t.Fatalf("the page was not read on a safer plan: %v (events %q)", err, events)
			}
			if after := v.Plan(); after.GPULayers >= plan.GPULayers && !after.OnCPU() {
				t.Errorf("the plan did not step down: %d layers before, %d after", plan.GPULayers, after.GPULayers)
			}
			if log := strings.Join(events, "\n"); !strings.Contains(log, tc.event) || !strings.Contains(log, "stepping down") {
				t.Errorf("events: %q", events)
			}
		})
	}
}

// TestProcessReadsWithTheChosenModel: `shoebox process` reads with the
// vision model the library is set to, as the app's Extract all does.
func TestProcessReadsWithTheChosenModel(t *testing.T) {
	model, proj := tinyPair(t)
	files, _ := filepath.Glob("../../shared/data/sroie-dev/00*.jpg")
	if len(files) < 2 {
		t.Skip("shared receipts not present")
	}
	t.Setenv("SHOEBOX_TEST_WORKER", "1")
	dir := t.TempDir()
	if code, _, errOut := run(t, append([]string{"import", "--library", dir}, files[:2]...)...); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	l, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.SetSetting(pipeline.SettingModel, model)
	l.SetSetting(pipeline.SettingProjector, proj)
	l.Close()
	code, _, errOut := run(t, "process", "--library", dir)
	if code != 0 || !strings.Contains(errOut, "reading with tiny") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	l, err = library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rows, err := l.List(library.Filter{})
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d receipts, %v", len(rows), err)
	}
	for _, r := range rows {
		rec, err := l.Get(r.ID)
		if err != nil || rec.Engine != "vlm" {
			t.Errorf("receipt %d read by %q (%v), want the vision model", r.ID, rec.Engine, err)
		}
	}
}
