package models

import (
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/hw"
)

func oneGPU(name string, totalMiB, freeMiB uint64) hw.Machine {
	return hw.Machine{
		GPUs: []hw.GPU{{Index: 0, Name: name, CCMajor: 8, CCMinor: 9, TotalMiB: totalMiB, FreeMiB: freeMiB}},
		P2P:  [][]bool{{true}}, CPUCores: 8, AVX2: true, FreeRAMMiB: 32000,
	}
}

// TestCatalogueOffersTheDocumentModels: Qwen3-VL 2B/4B/8B, Qwen2.5-VL 3B/7B
// and MiniCPM-V are listed with what they are good at, a memory estimate
// for every variant, and no hash or size we have not read.
func TestCatalogueOffersTheDocumentModels(t *testing.T) {
	cat, err := Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"qwen3-vl-2b", "qwen3-vl-4b", "qwen3-vl-8b", "qwen2.5-vl-3b", "qwen2.5-vl-7b", "minicpm-v-2.6"} {
		e, _, err := Find(cat, id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if e.About == "" || e.Family == "" || !strings.Contains(e.EngineStatus, "not yet recorded") {
			t.Errorf("%s: %+v", id, e)
		}
		for _, v := range e.Variants {
			if v.Model.SHA256 != "" || v.Model.Size != 0 || v.Projector.SHA256 != "" {
				t.Errorf("%s %s: a hash or size nobody read", id, v.Name)
			}
			if mb, pb, est := e.VariantBytes(v); mb == 0 || pb == 0 || !est {
				t.Errorf("%s %s: no memory estimate", id, v.Name)
			}
		}
	}
	// File names are unique, so verifying one model's file never checks it
	// against another's record.
	seen := map[string]string{}
	for _, e := range cat {
		for _, v := range e.Variants {
			for _, f := range []FileRef{v.Model, v.Projector} {
				if other, ok := seen[f.Name]; ok && other != e.ID {
					t.Errorf("%s is both %s's and %s's", f.Name, other, e.ID)
				}
				seen[f.Name] = e.ID
			}
		}
	}
}

func TestRecommendFollowsMemory(t *testing.T) {
	cat, _ := Catalogue()
	for _, c := range []struct {
		m    hw.Machine
		want string
	}{
		{oneGPU("RTX 4060", 8188, 7600), "qwen3-vl-4b:Q4_K_M"},
		{oneGPU("RTX 3090", 24576, 23600), "qwen3-vl-8b:Q8_0"},
		{hw.Machine{CPUCores: 8, AVX2: true, FreeRAMMiB: 16000}, "qwen3-vl-2b:Q4_K_M"},
	} {
		if got, p := Recommend(cat, c.m); got != c.want {
			t.Errorf("%v: recommended %s (%s), want %s", c.m.GPUs, got, p.Summary(c.m), c.want)
		}
	}
}
