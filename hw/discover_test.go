package hw

import (
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxa100"
)

// dgxA100 is go-nvml's DGX A100 mock discovered through our code, with free
// memory filled in (the mock reports none free).
func dgxA100() Machine {
	m := Discover(dgxa100.New())
	for i := range m.GPUs {
		m.GPUs[i].FreeMiB = m.GPUs[i].TotalMiB - 600
	}
	return m
}

func TestDiscoverDGXA100(t *testing.T) {
	m := Discover(dgxa100.New())
	if len(m.GPUs) != 8 {
		t.Fatalf("found %d GPUs: %+v", len(m.GPUs), m.Notes)
	}
	g := m.GPUs[0]
	if !strings.Contains(g.Name, "A100") || g.CC() != 80 || g.TotalMiB != 40960 || g.UUID == "" {
		t.Errorf("gpu 0 = %+v", g)
	}
	if m.PeerOK(0, 1) {
		t.Error("the mock has no P2P status, which must read as no peer access")
	}
	if !m.PeerOK(0, 0) {
		t.Error("a GPU is its own peer")
	}
	if g.Driver == "" || g.CUDADriver == "" {
		t.Errorf("driver versions missing: %+v", g)
	}
	if m.CPUCores < 1 || m.FreeRAMMiB == 0 {
		t.Errorf("cpu/ram: %+v", m)
	}
}

func TestDiscoverProblemsPlanForCPU(t *testing.T) {
	tests := []struct {
		ret  nvml.Return
		note string
	}{
		{nvml.ERROR_LIBRARY_NOT_FOUND, "No NVIDIA driver found"},
		{nvml.ERROR_NO_PERMISSION, "permission denied"},
		{nvml.ERROR_LIB_RM_VERSION_MISMATCH, "different versions"},
		{nvml.ERROR_DRIVER_NOT_LOADED, "not loaded"},
	}
	for _, tt := range tests {
		ret := tt.ret
		lib := &mock.Interface{InitFunc: func() nvml.Return { return ret }}
		m := Discover(lib)
		if len(m.GPUs) != 0 || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], tt.note) || !strings.Contains(m.Notes[0], "running on the CPU") {
			t.Errorf("%v: %+v", tt.ret, m.Notes)
		}
		p := MakePlan(Request{Machine: m, Model: model2B})
		if !p.OnCPU() || !strings.Contains(strings.Join(p.Reasons, " "), tt.note) {
			t.Errorf("%v: plan %+v", tt.ret, p)
		}
	}
}

func TestDiscoverSurvivesPanickingDriver(t *testing.T) {
	lib := &mock.Interface{
		InitFunc:           func() nvml.Return { return nvml.SUCCESS },
		DeviceGetCountFunc: func() (int, nvml.Return) { panic("driver exploded") },
	}
	m := Discover(lib)
	if len(m.GPUs) != 0 || len(m.Notes) == 0 {
		t.Errorf("%+v", m)
	}
}

func TestDiscoverRealLibraryNeverFails(t *testing.T) {
	m := Discover(nvml.New())
	if m.CPUCores < 1 {
		t.Fatal("no CPU cores")
	}
	if len(m.GPUs) == 0 && len(m.Notes) == 0 {
		t.Error("no GPU and no note saying why")
	}
}
