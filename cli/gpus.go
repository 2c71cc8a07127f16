package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/hw"
	catalogue "github.com/shoebox-app/shoebox/models"
)

func init() {
	register("gpus", "show the GPUs found and how a model would run on them", runGPUs)
}

func runGPUs(env Env, args []string) int {
	fs, _ := newFlags(env, "gpus", "")
	asJSON := fs.Bool("json", false, "print JSON")
	simulate := fs.String("simulate", "", "plan for the machine described in this JSON file instead of this one")
	modelPath := fs.String("model", "", "plan for this GGUF model file")
	mmproj := fs.String("mmproj", "", "its vision projector file (for its size)")
	factsPath := fs.String("model-facts", "", "plan for the model described in this JSON file")
	ctxLen := fs.Int("context", 0, "context length per sequence (0: the planner's, 8192: image, OCR hint and answer)")
	parallel := fs.Int("parallel", 0, "pages read at once as parallel sequences (0: the planner chooses, as the app does)")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	var m hw.Machine
	if *simulate != "" {
		if err := readJSON(*simulate, &m); err != nil {
			fmt.Fprintf(env.Stderr, "shoebox: %s: %v\n", *simulate, err)
			return 2
		}
	} else {
		m = hw.DiscoverHere()
	}
	var models []hw.ModelFacts
	switch {
	case *modelPath != "":
		f, err := hw.FactsFromGGUF(*modelPath, *mmproj)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		models = []hw.ModelFacts{f}
	case *factsPath != "":
		var f hw.ModelFacts
		if err := readJSON(*factsPath, &f); err != nil {
			fmt.Fprintf(env.Stderr, "shoebox: %s: %v\n", *factsPath, err)
			return 2
		}
		models = []hw.ModelFacts{f}
	default:
		if err := json.Unmarshal(assets.ReferenceModels, &models); err != nil {
			fmt.Fprintln(env.Stderr, "shoebox: reference models:", err)
			return 1
		}
	}
	var plans []hw.Plan
	for _, model := range models {
		plans = append(plans, hw.MakePlan(hw.Request{Machine: m, Model: model, Context: *ctxLen, Parallel: *parallel}))
	}
	if *asJSON {
		type modelPlan struct {
			Model hw.ModelFacts `json:"model"`
			Plan  hw.Plan       `json:"plan"`
		}
		out := struct {
			Machine hw.Machine  `json:"machine"`
			Plans   []modelPlan `json:"plans"`
		}{Machine: m}
		for i := range models {
			out.Plans = append(out.Plans, modelPlan{models[i], plans[i]})
		}
		return printJSON(env, out)
	}
	printMachine(env.Stdout, m)
	for i, model := range models {
		printPlan(env.Stdout, m, model, plans[i])
	}
	if cat, err := catalogue.Catalogue(); err == nil && *modelPath == "" && *factsPath == "" {
		if rec, p := catalogue.Recommend(cat, m); rec != "" {
			fmt.Fprintf(env.Stdout, "\nRecommended model from the catalogue: %s, %s (shoebox models list shows every model's fit)\n", rec, p.Summary(m))
		}
	}
	return 0
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func printMachine(w io.Writer, m hw.Machine) {
	avx := "no AVX2"
	if m.AVX2 {
		avx = "AVX2"
	}
	fmt.Fprintf(w, "CPU: %d cores, %s; %.1f GB memory free\n", m.CPUCores, avx, float64(m.FreeRAMMiB)/1024)
	if len(m.GPUs) == 0 {
		fmt.Fprintln(w, "GPUs: none")
	}
	for _, g := range m.GPUs {
		fmt.Fprintf(w, "GPU %d: %s, compute capability %d.%d, %.1f of %.1f GB free", g.Index, g.Name, g.CCMajor, g.CCMinor, float64(g.FreeMiB)/1024, float64(g.TotalMiB)/1024)
		if g.Driver != "" {
			fmt.Fprintf(w, ", driver %s (CUDA %s)", g.Driver, g.CUDADriver)
		}
		if g.PCIBus != "" {
			fmt.Fprintf(w, ", PCI %s", g.PCIBus)
		}
		fmt.Fprintln(w)
	}
	if len(m.GPUs) > 1 {
		var pairs []string
		for i := range m.GPUs {
			for j := i + 1; j < len(m.GPUs); j++ {
				ok := "no"
				if m.PeerOK(i, j) && m.PeerOK(j, i) {
					ok = "yes"
				}
				pairs = append(pairs, fmt.Sprintf("%d↔%d %s", m.GPUs[i].Index, m.GPUs[j].Index, ok))
			}
		}
		fmt.Fprintf(w, "Peer access: %s\n", strings.Join(pairs, ", "))
	}
	for _, n := range m.Notes {
		fmt.Fprintln(w, "Note:", n)
	}
}

func printPlan(w io.Writer, m hw.Machine, model hw.ModelFacts, p hw.Plan) {
	fmt.Fprintf(w, "\n%s: %s, %s\n", model.Name, p.Summary(m), p.SpeedText())
	fmt.Fprintf(w, "  layers on GPU %d/%d", p.GPULayers, p.TotalLayers)
	if len(p.TensorSplit) > 1 {
		fmt.Fprintf(w, " (split %v, layer mode)", p.TensorSplit)
	}
	fmt.Fprintf(w, "; projector on %s; flash attention %s; KV cache %s; %d threads; batch %d; context %d × %d\n",
		p.Projector, p.FlashAttention, p.KVType, p.Threads, p.Batch, p.Context, p.Parallel)
	for i, d := range p.Devices {
		fmt.Fprintf(w, "  GPU %d: about %.1f GB\n", d, float64(p.EstimateMiB[i])/1024)
	}
	if p.CPUMiB > 0 {
		fmt.Fprintf(w, "  CPU memory: about %.1f GB\n", float64(p.CPUMiB)/1024)
	}
	if len(p.Env) > 0 {
		fmt.Fprintf(w, "  worker environment: %s\n", strings.Join(p.Env, " "))
	}
	fmt.Fprintln(w, "  Why:")
	for _, r := range p.Reasons {
		fmt.Fprintf(w, "  - %s\n", r)
	}
	for _, x := range p.Warnings {
		fmt.Fprintf(w, "  ! %s\n", x)
	}
}
