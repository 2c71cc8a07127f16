package models

import (
	"strings"

	"github.com/shoebox-app/shoebox/hw"
)

// bitsPerWeight of llama.cpp's weight formats, for sizes not yet recorded.
var bitsPerWeight = map[string]float64{"Q4_K_M": 4.85, "Q5_K_M": 5.7, "Q6_K": 6.6, "Q8_0": 8.5, "F16": 16, "BF16": 16, "F32": 32}

// VariantBytes is a variant's model and projector sizes: as recorded (or
// published), else estimated from the parameter counts; estimated says so.
func (e Entry) VariantBytes(v Variant) (model, projector int64, estimated bool) {
	model, projector = v.Model.Bytes(), v.Projector.Bytes()
	if model == 0 && e.ParamsB > 0 {
		if bits := bitsPerWeight[strings.ToUpper(v.Name)]; bits > 0 {
			model, estimated = int64(e.ParamsB*1e9*bits/8), true
		}
	}
	if projector == 0 && e.ProjectorParamsB > 0 {
		bits := 16.0 // projectors are published in F16 or Q8_0
		if strings.Contains(strings.ToUpper(v.Projector.Name), "Q8_0") {
			bits = 8.5
		}
		projector, estimated = int64(e.ProjectorParamsB*1e9*bits/8), true
	}
	return model, projector, estimated
}

// Facts are the planner's facts for one variant of the entry (Bytes 0 when
// neither recorded nor estimable).
func (e Entry) Facts(v Variant) hw.ModelFacts {
	model, proj, _ := e.VariantBytes(v)
	return hw.ModelFacts{
		Name: e.Name, Layers: e.Layers, EmbedDim: e.EmbedDim, HeadsKV: e.HeadsKV, HeadDimK: e.HeadDim, HeadDimV: e.HeadDim,
		ProjectorBytes: uint64(proj), Variants: []hw.Variant{{Name: v.Name, Bytes: uint64(model)}},
	}
}

// recommended is the order models are recommended in, best reader first;
// the first whose variant runs wholly on one GPU of the machine is the
// default. Catalogue entries not listed are never the default.
var recommended = []string{
	"qwen3-vl-8b:Q8_0", "qwen3-vl-8b:Q4_K_M", "qwen3-vl-4b:Q8_0", "qwen3-vl-4b:Q4_K_M",
	"qwen3-vl-2b:Q8_0", "qwen3-vl-2b:Q4_K_M",
}

// cpuDefault is the model recommended where no GPU holds one: the smallest
// good reader, as the CPU's speed is its memory bandwidth.
const cpuDefault = "qwen3-vl-2b:Q4_K_M"

// Recommend picks the default model for a machine from the planner's
// memory estimate: the best reader whose plan puts every layer and the
// projector on one GPU, else the small CPU model. It returns the
// "id:variant" and the plan.
func Recommend(cat []Entry, m hw.Machine) (string, hw.Plan) {
	for _, ref := range recommended {
		e, v, err := Find(cat, ref)
		if err != nil {
			continue
		}
		facts := e.Facts(v)
		if facts.Variants[0].Bytes == 0 {
			continue
		}
		p := hw.MakePlan(hw.Request{Machine: m, Model: facts, Parallel: 1})
		if !p.OnCPU() && p.GPULayers == p.TotalLayers && len(p.Devices) == 1 && p.Projector == "gpu" && p.Variant == v.Name {
			return ref, p
		}
	}
	e, v, err := Find(cat, cpuDefault)
	if err != nil {
		return "", hw.Plan{}
	}
	return cpuDefault, hw.MakePlan(hw.Request{Machine: m, Model: e.Facts(v)})
}
