package worker

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

// Declared here as llama.h has them, so this package needs no include path
// into the module cache; the symbols come from github.com/ollama/ollama/llama.
struct llama_model;
struct shoebox_chat_message { const char * role; const char * content; };
const char * llama_model_chat_template(const struct llama_model * model, const char * name);
int32_t llama_chat_apply_template(const char * tmpl, const struct shoebox_chat_message * chat, size_t n_msg, bool add_ass, char * buf, int32_t length);
*/
import "C"

import (
	"unsafe"

	"github.com/ollama/ollama/llama"
)

// ImageMarker is where mtmd puts an image in a prompt.
const ImageMarker = "<__media__>"

// modelPtr is the C model behind ollama's llama.Model, whose only field it is.
func modelPtr(m *llama.Model) *C.struct_llama_model {
	return *(**C.struct_llama_model)(unsafe.Pointer(m))
}

// ChatTemplate returns the model's own chat template ("" when it has none).
func ChatTemplate(m *llama.Model) string {
	t := C.llama_model_chat_template(modelPtr(m), nil)
	if t == nil {
		return ""
	}
	return C.GoString(t)
}

// Message is one turn of a chat.
type Message struct{ Role, Content string }

// ApplyChatTemplate formats messages with the model's template and opens
// the assistant's turn. llama.cpp recognises the common templates (ChatML,
// Llama 3, Gemma, MiniCPM, …) without a Jinja engine; when it does not
// recognise the model's own, the template named fallback ("chatml",
// "gemma"…, the family's) is used; failing both it returns false and the
// caller lays the prompt out plainly.
func ApplyChatTemplate(m *llama.Model, msgs []Message, fallback string) (string, bool) {
	if tmpl := ChatTemplate(m); tmpl != "" {
		if text, ok := applyTemplate(tmpl, msgs); ok {
			return text, true
		}
	}
	if fallback != "" {
		return applyTemplate(fallback, msgs)
	}
	return "", false
}

// applyTemplate formats msgs with a template's text or llama.cpp name.
func applyTemplate(tmpl string, msgs []Message) (string, bool) {
	if len(msgs) == 0 {
		return "", false
	}
	ct := C.CString(tmpl)
	defer C.free(unsafe.Pointer(ct))
	cmsgs := make([]C.struct_shoebox_chat_message, len(msgs))
	var frees []unsafe.Pointer
	total := 0
	for i, msg := range msgs {
		r, c := C.CString(msg.Role), C.CString(msg.Content)
		frees = append(frees, unsafe.Pointer(r), unsafe.Pointer(c))
		cmsgs[i] = C.struct_shoebox_chat_message{role: r, content: c}
		total += len(msg.Role) + len(msg.Content)
	}
	defer func() {
		for _, p := range frees {
			C.free(p)
		}
	}()
	var pin []C.struct_shoebox_chat_message = cmsgs
	size := 2*total + 512
	for attempt := 0; attempt < 2; attempt++ {
		buf := make([]byte, size)
		n := C.llama_chat_apply_template(ct, &pin[0], C.size_t(len(pin)), C.bool(true), (*C.char)(unsafe.Pointer(&buf[0])), C.int32_t(size))
		if n < 0 {
			return "", false
		}
		if int(n) <= size {
			return string(buf[:n]), true
		}
		size = int(n) + 1
	}
	return "", false
}
