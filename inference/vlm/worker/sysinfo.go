package worker

/*
// Symbols compiled into the binary by github.com/ollama/ollama/llama; declared
// here rather than included so this package needs no include paths into the
// module cache.
extern const char *LLAMA_COMMIT;
const char *llama_print_system_info(void);
static const char *shoebox_llama_commit(void) { return LLAMA_COMMIT; }
*/
import "C"

import (
	"strings"

	_ "github.com/ollama/ollama/llama" // links llama.cpp and ggml into the binary
)

// Commit is the llama.cpp commit the pinned ollama module vendors.
func Commit() string { return C.GoString(C.shoebox_llama_commit()) }

// CPUFeatures lists the CPU features the ggml CPU back-end was compiled with
// ("AVX2", "FMA", …), as llama.cpp reports them.
func CPUFeatures() []string {
	info := C.GoString(C.llama_print_system_info())
	var out []string
	for _, part := range strings.Split(info, "|") {
		part = strings.TrimSpace(part)
		if i := strings.Index(part, ":"); i >= 0 { // "CPU : SSE3 = 1"
			part = strings.TrimSpace(part[i+1:])
		}
		name, val, ok := strings.Cut(part, "=")
		if ok && strings.TrimSpace(val) == "1" {
			out = append(out, strings.TrimSpace(name))
		}
	}
	return out
}
