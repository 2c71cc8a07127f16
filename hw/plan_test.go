package hw

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// Two vision models of the seeds' family (InternVL3 on Qwen2.5): the numbers
// are the GGUF facts of the 2B and 8B language models and their projectors.
var (
	model2B = ModelFacts{
		Name: "InternVL3-2B", Layers: 28, EmbedDim: 1536, HeadsKV: 2, HeadDimK: 128, HeadDimV: 128,
		ProjectorBytes: 640 << 20, NonLayerFraction: 0.15,
		Variants: []Variant{{"Q4_K_M", 1_100_000_000}, {"Q8_0", 1_900_000_000}, {"F16", 3_600_000_000}, {"BF16", 3_600_000_000}},
	}
	model8B = ModelFacts{
		Name: "InternVL3-8B", Layers: 28, EmbedDim: 3584, HeadsKV: 4, HeadDimK: 128, HeadDimV: 128,
		ProjectorBytes: 650 << 20, NonLayerFraction: 0.07,
		Variants: []Variant{{"Q4_K_M", 4_700_000_000}, {"Q8_0", 8_100_000_000}, {"F16", 15_200_000_000}, {"BF16", 15_200_000_000}},
	}
	model32B = ModelFacts{
		Name: "Big-32B", Layers: 64, EmbedDim: 5120, HeadsKV: 8, HeadDimK: 128, HeadDimV: 128,
		ProjectorBytes: 1300 << 20, Variants: []Variant{{"Q4_K_M", 19_900_000_000}, {"Q8_0", 34_800_000_000}, {"BF16", 65_500_000_000}},
	}
)

func gpu(i int, name string, cc int, totalGiB, freeGiB float64) GPU {
	return GPU{
		Index: i, Name: name, UUID: fmt.Sprintf("GPU-%d", i), CCMajor: cc / 10, CCMinor: cc % 10,
		TotalMiB: uint64(totalGiB * 1024), FreeMiB: uint64(freeGiB * 1024),
	}
}

func machine(p2p bool, gpus ...GPU) Machine {
	m := Machine{GPUs: gpus, CPUCores: 16, AVX2: true, FreeRAMMiB: 64 * 1024}
	m.P2P = make([][]bool, len(gpus))
	for i := range gpus {
		m.P2P[i] = make([]bool, len(gpus))
		for j := range gpus {
			m.P2P[i][j] = p2p || i == j
		}
	}
	return m
}

func many(n int, name string, cc int, total, free float64) []GPU {
	var out []GPU
	for i := 0; i < n; i++ {
		out = append(out, gpu(i, name, cc, total, free))
	}
	return out
}

var machines = map[string]Machine{
	"4xV100-16":    machine(true, many(4, "Tesla V100-SXM2-16GB", 70, 16, 15.5)...),
	"4xV100-noP2P": machine(false, many(4, "Tesla V100-PCIE-16GB", 70, 16, 15.5)...),
	"V100-32+16":   machine(false, gpu(0, "Tesla V100-PCIE-16GB", 70, 16, 15.5), gpu(1, "Tesla V100-PCIE-32GB", 70, 32, 31.5)),
	"T4":           machine(false, gpu(0, "Tesla T4", 75, 15, 14.6)),
	"A10":          machine(false, gpu(0, "NVIDIA A10", 86, 24, 22.2)),
	"L4":           machine(false, gpu(0, "NVIDIA L4", 89, 24, 22.0)),
	"2xL40S":       machine(false, many(2, "NVIDIA L40S", 89, 48, 44.4)...),
	"8xA100-40":    dgxA100(),
	"H100":         machine(false, gpu(0, "NVIDIA H100 80GB HBM3", 90, 80, 79.1)),
	"H200":         machine(false, gpu(0, "NVIDIA H200", 90, 141, 139.5)),
	"4090+3090":    machine(false, gpu(0, "NVIDIA GeForce RTX 3090", 86, 24, 23.1), gpu(1, "NVIDIA GeForce RTX 4090", 89, 24, 23.3)),
	"Xavier":       machine(false, gpu(0, "Xavier", 72, 32, 24)),
	"laptop-4GB":   machine(false, gpu(0, "NVIDIA GeForce RTX 3050 Laptop GPU", 86, 4, 3.7)),
	"no GPU":       {CPUCores: 8, AVX2: true, FreeRAMMiB: 16 * 1024},
	"NVML missing": {CPUCores: 2, AVX2: true, FreeRAMMiB: 20 * 1024, Notes: []string{initProblem(nvml.ERROR_LIBRARY_NOT_FOUND)}},
}

type want struct {
	variant string
	devices []int
	split   string // "layer", "none"
	fa      string
	kv      string
	proj    string
	layers  int      // 0: all
	p2p     bool     // GGML_CUDA_P2P=1 set
	reasons []string // substrings that must appear
}

func TestPlans(t *testing.T) {
	tests := []struct {
		machine string
		model   ModelFacts
		want    want
	}{
		{"4xV100-16", model8B, want{
			variant: "Q8_0", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu",
			reasons: []string{"BF16 weights need compute capability 8.0", "F16 (14.2 GB) would need its layers split across 2 GPUs", "Q8_0 is near-lossless"},
		}},
		{"4xV100-noP2P", model8B, want{
			variant: "Q8_0", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu",
			reasons: []string{"one GPU needs no copies between GPUs"},
		}},
		{"4xV100-16", model2B, want{variant: "F16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu", reasons: []string{"BF16 weights need compute capability 8.0", "fits in 80%"}}},
		{"V100-32+16", model8B, want{variant: "F16", devices: []int{1}, split: "none", fa: "on", kv: "f16", proj: "gpu", reasons: []string{"Tesla V100-PCIE-32GB"}}},
		{"V100-32+16", model2B, want{variant: "F16", devices: []int{1}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"T4", model8B, want{variant: "Q8_0", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu", reasons: []string{"Higher-precision variants (F16) do not fit"}}},
		{"T4", model2B, want{variant: "F16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"A10", model8B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"A10", model2B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"L4", model8B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"L4", model2B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"2xL40S", model8B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu", reasons: []string{"one GPU needs no copies"}}},
		{"2xL40S", model2B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"8xA100-40", model8B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"8xA100-40", model2B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"H100", model8B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"H100", model2B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"H200", model8B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"H200", model2B, want{variant: "BF16", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"4090+3090", model8B, want{variant: "BF16", devices: []int{1}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		{"4090+3090", model2B, want{variant: "BF16", devices: []int{1}, split: "none", fa: "on", kv: "f16", proj: "gpu"}},
		// An 8k-token page (image, hint and answer) leaves Q8_0 no room on two 24 GB cards.
		{"4090+3090", model32B, want{
			variant: "Q4_K_M", devices: []int{1, 0}, split: "layer", fa: "on", kv: "f16", proj: "gpu", p2p: false,
			reasons: []string{"GGML_CUDA_P2P is left unset"},
		}},
		{"Xavier", model8B, want{
			variant: "F16", devices: []int{0}, split: "none", fa: "off", kv: "f16", proj: "gpu",
			reasons: []string{"Flash attention is off: Xavier (compute capability 7.2, Jetson Xavier)", "BF16 weights need"},
		}},
		{"Xavier", model2B, want{variant: "F16", devices: []int{0}, split: "none", fa: "off", kv: "f16", proj: "gpu"}},
		{"laptop-4GB", model8B, want{
			variant: "Q4_K_M", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "cpu", layers: 12,
			reasons: []string{"No variant of InternVL3-8B fits wholly", "projector runs on the CPU"},
		}},
		{"laptop-4GB", model2B, want{
			variant: "Q8_0", devices: []int{0}, split: "none", fa: "on", kv: "f16", proj: "cpu",
			reasons: []string{"projector runs on the CPU"},
		}},
		{"no GPU", model8B, want{variant: "Q4_K_M", split: "none", fa: "auto", kv: "f16", proj: "cpu", reasons: []string{"7 threads", "memory bandwidth"}}},
		{"no GPU", model2B, want{variant: "Q4_K_M", split: "none", fa: "auto", kv: "f16", proj: "cpu"}},
		{"NVML missing", model8B, want{variant: "Q4_K_M", split: "none", fa: "auto", kv: "f16", proj: "cpu", reasons: []string{"No NVIDIA driver found", "1 thread:"}}},
		{"NVML missing", model2B, want{variant: "Q4_K_M", split: "none", fa: "auto", kv: "f16", proj: "cpu"}},
	}
	for _, tt := range tests {
		t.Run(tt.machine+"/"+tt.model.Name, func(t *testing.T) {
			p := MakePlan(Request{Machine: machines[tt.machine], Model: tt.model})
			w := tt.want
			if p.Variant != w.variant || !slices.Equal(p.Devices, w.devices) || p.SplitMode != w.split || p.FlashAttention != w.fa || p.KVType != w.kv || p.Projector != w.proj {
				t.Errorf("plan = %s on %v split %s fa %s kv %s projector %s; want %s on %v split %s fa %s kv %s projector %s\n%s",
					p.Variant, p.Devices, p.SplitMode, p.FlashAttention, p.KVType, p.Projector,
					w.variant, w.devices, w.split, w.fa, w.kv, w.proj, strings.Join(p.Reasons, "\n"))
			}
			wantLayers := tt.model.Layers
			if w.devices == nil {
				wantLayers = 0
			}
			if w.layers != 0 {
				wantLayers = w.layers
			}
			if p.GPULayers != wantLayers {
				t.Errorf("gpu layers = %d, want %d", p.GPULayers, wantLayers)
			}
			if got := slices.Contains(p.Env, "GGML_CUDA_P2P=1"); got != w.p2p {
				t.Errorf("P2P env = %v, want %v", got, w.p2p)
			}
			all := strings.Join(p.Reasons, "\n")
			for _, r := range w.reasons {
				if !strings.Contains(all, r) {
					t.Errorf("reasons lack %q:\n%s", r, all)
				}
			}
			if p.ReceiptsPerMin <= 0 {
				t.Errorf("no speed estimate")
			}
			sum := 0
			for _, n := range p.TensorSplit {
				sum += n
			}
			if sum != p.GPULayers {
				t.Errorf("tensor split %v adds to %d, not %d", p.TensorSplit, sum, p.GPULayers)
			}
		})
	}
}

// TestInvariants checks every plan over every machine, model and override.
func TestInvariants(t *testing.T) {
	layers := []int{0, 5, 100}
	for name, m := range machines {
		for _, model := range []ModelFacts{model2B, model8B, model32B} {
			for _, ctx := range []int{2048, 8192, 32768} {
				for _, par := range []int{1, 4} {
					for _, ov := range []Overrides{{}, {Variant: "BF16"}, {Variant: "F16"}, {KVType: "q8_0"}, {GPULayers: &layers[1]}, {GPUs: []int{1, 0}}} {
						req := Request{Machine: m, Model: model, Context: ctx, Parallel: par, Overrides: ov}
						p := MakePlan(req)
						where := fmt.Sprintf("%s/%s/ctx%d/par%d/%+v", name, model.Name, ctx, par, ov)
						if p.SplitMode == "row" {
							t.Fatalf("%s: row split", where)
						}
						for i, d := range p.Devices {
							g := m.GPUs[slices.IndexFunc(m.GPUs, func(g GPU) bool { return g.Index == d })]
							if strings.EqualFold(p.Variant, "BF16") && g.CC() < 80 {
								t.Fatalf("%s: BF16 on %s (CC %d)", where, g.Name, g.CC())
							}
							if float64(p.EstimateMiB[i]) > float64(g.FreeMiB)*Headroom {
								t.Fatalf("%s: %d MiB estimated on %s with %d MiB free", where, p.EstimateMiB[i], g.Name, g.FreeMiB)
							}
						}
						if p.KVType == "q8_0" && p.FlashAttention != "on" {
							t.Fatalf("%s: q8_0 KV cache without flash attention", where)
						}
						if slices.Contains(p.Env, "GGML_CUDA_P2P=0") {
							t.Fatalf("%s: GGML_CUDA_P2P set to 0 enables P2P", where)
						}
					}
				}
			}
		}
	}
}

func TestQ8KVOnlyWhenItMakesTheModelFit(t *testing.T) {
	for name, m := range machines {
		for _, model := range []ModelFacts{model2B, model8B, model32B} {
			for _, ctx := range []int{4096, 32768} {
				req := Request{Machine: m, Model: model, Context: ctx, Parallel: 2}
				p := MakePlan(req)
				if p.KVType != "q8_0" {
					continue
				}
				req.Overrides.KVType = "f16"
				f16 := MakePlan(req)
				worse := rank(f16.Variant) < rank(p.Variant) || f16.GPULayers < p.GPULayers || len(f16.Devices) > len(p.Devices) || f16.Projector != p.Projector
				if !worse {
					t.Errorf("%s/%s/%d: q8_0 KV chosen though f16 gives the same plan", name, model.Name, ctx)
				}
			}
		}
	}
	p := MakePlan(Request{Machine: machines["Xavier"], Model: model8B, Context: 32768, Parallel: 4})
	if p.KVType != "f16" {
		t.Errorf("Xavier (no flash attention): kv %s", p.KVType)
	}
}

func TestOverridesWarn(t *testing.T) {
	n := 5
	p := MakePlan(Request{Machine: machines["H100"], Model: model8B, Overrides: Overrides{GPULayers: &n}})
	if p.GPULayers != 5 || len(p.Warnings) == 0 {
		t.Errorf("gpu layers override: %d %v", p.GPULayers, p.Warnings)
	}
	p = MakePlan(Request{Machine: machines["T4"], Model: model8B, Overrides: Overrides{Variant: "BF16"}})
	if strings.EqualFold(p.Variant, "BF16") && !p.OnCPU() {
		t.Errorf("BF16 forced onto a T4")
	}
	p = MakePlan(Request{Machine: machines["H100"], Model: model8B, Overrides: Overrides{CPUOnly: true}})
	if !p.OnCPU() {
		t.Errorf("CPU override ignored")
	}
}

func TestSummary(t *testing.T) {
	p := MakePlan(Request{Machine: machines["4xV100-16"], Model: model8B, Overrides: Overrides{Variant: "F16"}})
	if got := p.Summary(machines["4xV100-16"]); got != "F16 on 2× Tesla V100-SXM2-16GB" {
		t.Errorf("summary = %q", got)
	}
	p = MakePlan(Request{Machine: machines["no GPU"], Model: model8B})
	if got := p.Summary(machines["no GPU"]); got != "Q4_K_M on the CPU (7 threads)" {
		t.Errorf("summary = %q", got)
	}
}

func TestStepDownEndsOnTheCPU(t *testing.T) {
	req := Request{Machine: machines["4xV100-16"], Model: model8B, Overrides: Overrides{Variant: "F16"}}
	p := MakePlan(req)
	var steps []string
	for i := 0; i < 10; i++ {
		next, ok := StepDown(req, p, "canary printed !!!!")
		if !ok {
			break
		}
		safer := next.OnCPU() || len(next.Devices) < len(p.Devices) || next.GPULayers < p.GPULayers
		if !safer {
			t.Fatalf("step %d is not safer: %v/%d → %v/%d", i, p.Devices, p.GPULayers, next.Devices, next.GPULayers)
		}
		p = next
		steps = p.Steps
	}
	if !p.OnCPU() {
		t.Fatalf("did not end on the CPU: %+v", p)
	}
	if len(steps) < 3 || !strings.Contains(steps[0], "split across 2 GPUs failed (canary printed !!!!): trying one GPU") {
		t.Errorf("steps = %q", steps)
	}
	if _, ok := StepDown(req, p, "x"); ok {
		t.Error("stepped down from the CPU")
	}
}

// TestPlannerChoosesParallelPages: with Parallel left at 0 the planner reads
// AutoParallel pages at once only where that costs nothing else.
func TestPlannerChoosesParallelPages(t *testing.T) {
	for _, tc := range []struct {
		machine string
		model   ModelFacts
		context int
		want    int
	}{
		{"H100", model2B, 0, AutoParallel},
		{"H200", model32B, 0, AutoParallel},
		{"L4", model8B, 4096, AutoParallel},
		{"L4", model8B, 0, 1},     // four 8k caches would need a smaller variant
		{"L4", model8B, 32768, 1}, // four 32k caches would need a smaller variant
		{"V100-32+16", model32B, 0, 1},
		{"no GPU", model2B, 0, 1},
		{"NVML missing", model8B, 0, 1},
		{"laptop-4GB", model8B, 0, 1}, // partly offloaded
	} {
		auto := MakePlan(Request{Machine: machines[tc.machine], Model: tc.model, Context: tc.context})
		if auto.Parallel != tc.want {
			t.Errorf("%s/%s: %d pages at once, want %d (%v)", tc.machine, tc.model.Name, auto.Parallel, tc.want, auto.Reasons)
		}
		one := MakePlan(Request{Machine: machines[tc.machine], Model: tc.model, Context: tc.context, Parallel: 1})
		if auto.Variant != one.Variant || auto.KVType != one.KVType || auto.GPULayers != one.GPULayers || len(auto.Devices) != len(one.Devices) {
			t.Errorf("%s/%s: reading several pages changed the plan: %+v vs %+v", tc.machine, tc.model.Name, auto, one)
		}
	}
}

// TestQ8OnOneGPUBeforeASplit: a model whose 16-bit weights need a split but
// whose Q8_0 fits one GPU runs Q8_0 on one GPU, unless the variant was
// chosen; where Q8_0 does not fit one GPU either, or there is no Q8_0,
// the split stays.
func TestQ8OnOneGPUBeforeASplit(t *testing.T) {
	noQ8 := model8B
	noQ8.Variants = []Variant{{"Q4_K_M", 4_700_000_000}, {"F16", 15_200_000_000}}
	for _, tc := range []struct {
		name, machine string
		model         ModelFacts
		variant       string // chosen in settings
		want          string
		devices       []int
		reason        string
	}{
		{"V100s without peer access", "4xV100-noP2P", model8B, "", "Q8_0", []int{0}, "Q8_0 is near-lossless"},
		{"V100s with peer access", "4xV100-16", model8B, "", "Q8_0", []int{0}, "Choose F16 in settings to split it"},
		{"F16 chosen", "4xV100-noP2P", model8B, "F16", "F16", []int{0, 1}, "Variant F16 was chosen in settings"},
		{"no Q8_0 published", "4xV100-noP2P", noQ8, "", "F16", []int{0, 1}, "split across 2 GPUs"},
		{"Q8_0 does not fit one GPU either", "8xA100-40", model32B, "", "BF16", []int{0, 1, 2}, "split across 3 GPUs"},
		{"F16 fits one GPU", "V100-32+16", model8B, "", "F16", []int{1}, "fits in 80%"},
	} {
		p := MakePlan(Request{Machine: machines[tc.machine], Model: tc.model, Overrides: Overrides{Variant: tc.variant}})
		if p.Variant != tc.want || !slices.Equal(p.Devices, tc.devices) || !strings.Contains(strings.Join(p.Reasons, "\n"), tc.reason) {
			t.Errorf("%s: %s on %v, want %s on %v with %q\n%s", tc.name, p.Variant, p.Devices, tc.want, tc.devices, tc.reason, strings.Join(p.Reasons, "\n"))
		}
	}
}
