//go:build !windows

package hw

import (
	"fmt"
	"runtime"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"golang.org/x/sys/cpu"
)

// DiscoverHere asks this computer's NVIDIA driver, if any, about its GPUs.
func DiscoverHere() Machine { return Discover(nvml.New()) }

// Discover asks NVML (through lib, so tests pass go-nvml's mocks; nvml.New()
// for the real library) about the GPUs, and the OS about CPU and memory. It
// never fails: problems become Notes, and the machine plans for the CPU.
func Discover(lib nvml.Interface) Machine {
	m := Machine{CPUCores: runtime.NumCPU(), AVX2: cpu.X86.HasAVX2, FreeRAMMiB: freeRAMMiB()}
	if lib == nil {
		m.Notes = append(m.Notes, "GPU discovery is off: running on the CPU.")
		return m
	}
	done := make(chan Machine, 1)
	go func() { done <- discoverGPUs(lib, m) }()
	select {
	case got := <-done:
		return got
	case <-time.After(DiscoverTimeout):
		m.Notes = append(m.Notes, fmt.Sprintf("The NVIDIA driver did not answer within %s: running on the CPU. Check nvidia-smi.", DiscoverTimeout))
		return m
	}
}

// safe runs an NVML call, turning a panic (a mock without that function, a
// broken driver) into ERROR_UNKNOWN.
func safe[T any](f func() (T, nvml.Return)) (v T, ret nvml.Return) {
	defer func() {
		if recover() != nil {
			ret = nvml.ERROR_UNKNOWN
		}
	}()
	return f()
}

func discoverGPUs(lib nvml.Interface, m Machine) Machine {
	ret, _ := safe(func() (nvml.Return, nvml.Return) { r := lib.Init(); return r, r })
	if ret != nvml.SUCCESS {
		m.Notes = append(m.Notes, initProblem(ret))
		return m
	}
	defer func() { _, _ = safe(func() (nvml.Return, nvml.Return) { r := lib.Shutdown(); return r, r }) }()
	driver, _ := safe(lib.SystemGetDriverVersion)
	cudaVer, ret := safe(lib.SystemGetCudaDriverVersion)
	cudaText := ""
	if ret == nvml.SUCCESS && cudaVer > 0 {
		cudaText = fmt.Sprintf("%d.%d", cudaVer/1000, cudaVer%1000/10)
	}
	n, ret := safe(lib.DeviceGetCount)
	if ret != nvml.SUCCESS {
		m.Notes = append(m.Notes, "The NVIDIA driver would not list its GPUs ("+nvml.ErrorString(ret)+"): running on the CPU.")
		return m
	}
	var devs []nvml.Device
	for i := 0; i < n; i++ {
		d, ret := safe(func() (nvml.Device, nvml.Return) { return lib.DeviceGetHandleByIndex(i) })
		if ret != nvml.SUCCESS {
			m.Notes = append(m.Notes, fmt.Sprintf("GPU %d could not be opened (%s) and is not used.", i, errText(ret)))
			continue
		}
		g := GPU{Index: i, Driver: driver, CUDADriver: cudaText}
		g.Name, _ = safe(d.GetName)
		g.UUID, _ = safe(d.GetUUID)
		cc, ret := safe(func() ([2]int, nvml.Return) { a, b, r := d.GetCudaComputeCapability(); return [2]int{a, b}, r })
		if ret == nvml.SUCCESS {
			g.CCMajor, g.CCMinor = cc[0], cc[1]
		}
		mem, ret := safe(d.GetMemoryInfo)
		if ret != nvml.SUCCESS {
			m.Notes = append(m.Notes, fmt.Sprintf("GPU %d (%s) did not report its memory and is not used.", i, g.Name))
			continue
		}
		g.TotalMiB, g.FreeMiB = mem.Total>>20, mem.Free>>20
		if pci, ret := safe(d.GetPciInfo); ret == nvml.SUCCESS {
			g.PCIBus = pciBus(pci)
		}
		m.GPUs = append(m.GPUs, g)
		devs = append(devs, d)
	}
	m.P2P = make([][]bool, len(devs))
	for i := range devs {
		m.P2P[i] = make([]bool, len(devs))
		for j := range devs {
			if i == j {
				m.P2P[i][j] = true
				continue
			}
			st, ret := safe(func() (nvml.GpuP2PStatus, nvml.Return) {
				return devs[i].GetP2PStatus(devs[j], nvml.P2P_CAPS_INDEX_READ)
			})
			m.P2P[i][j] = ret == nvml.SUCCESS && st == nvml.P2P_STATUS_OK
		}
	}
	if len(m.GPUs) == 0 && n == 0 {
		m.Notes = append(m.Notes, "The NVIDIA driver is installed but reports no GPU: running on the CPU.")
	}
	return m
}

func pciBus(p nvml.PciInfo) string {
	b := make([]byte, 0, len(p.BusIdLegacy))
	for _, c := range p.BusIdLegacy {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return string(b)
}

func errText(ret nvml.Return) string {
	defer func() { _ = recover() }() // a driver without the call: no text
	return nvml.ErrorString(ret)
}

// initProblem says in plain words why NVML did not start.
func initProblem(ret nvml.Return) string {
	switch ret {
	case nvml.ERROR_LIBRARY_NOT_FOUND:
		return "No NVIDIA driver found (libnvidia-ml.so is not installed): running on the CPU."
	case nvml.ERROR_DRIVER_NOT_LOADED:
		return "The NVIDIA driver is installed but not loaded: running on the CPU. Restart the computer or run nvidia-smi to see why."
	case nvml.ERROR_NO_PERMISSION:
		return "Shoebox may not talk to the NVIDIA driver (permission denied): running on the CPU. Ask your administrator for access to /dev/nvidia*."
	case nvml.ERROR_LIB_RM_VERSION_MISMATCH:
		return "The NVIDIA driver and its library are different versions (usually after a driver update): running on the CPU. Restart the computer."
	}
	return "The NVIDIA driver could not be started (" + errText(ret) + "): running on the CPU."
}
