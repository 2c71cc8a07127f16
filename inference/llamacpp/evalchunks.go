package llamacpp

/*
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// mtmd's C API, declared as mtmd.h and mtmd-helper.h have it (the symbols
// are linked by github.com/ollama/ollama/llama).
struct llama_context;
typedef struct mtmd_context mtmd_context;
typedef struct mtmd_bitmap mtmd_bitmap;
typedef struct mtmd_input_chunks mtmd_input_chunks;
struct shoebox_mtmd_input_text { const char * text; bool add_special; bool parse_special; };
mtmd_input_chunks * mtmd_input_chunks_init(void);
void mtmd_input_chunks_free(mtmd_input_chunks * chunks);
mtmd_bitmap * mtmd_helper_bitmap_init_from_buf(mtmd_context * ctx, const unsigned char * buf, size_t len);
void mtmd_bitmap_free(mtmd_bitmap * bitmap);
int32_t mtmd_tokenize(mtmd_context * ctx, mtmd_input_chunks * output, const struct shoebox_mtmd_input_text * text, const mtmd_bitmap ** bitmaps, size_t n_bitmaps);
int32_t mtmd_helper_eval_chunks(mtmd_context * ctx, struct llama_context * lctx, const mtmd_input_chunks * chunks,
                                int32_t n_past, int32_t seq_id, int32_t n_batch, bool logits_last, int32_t * new_n_past);
size_t mtmd_helper_get_n_tokens(const mtmd_input_chunks * chunks);
float * llama_get_logits_ith(struct llama_context * ctx, int32_t i);

*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/ollama/ollama/llama"
)

// ollama's wrappers hold their C pointer as the first field.

func contextPtr(c *llama.Context) *C.struct_llama_context {
	return *(**C.struct_llama_context)(unsafe.Pointer(c))
}

func mtmdPtr(m *llama.MtmdContext) *C.mtmd_context {
	return *(**C.mtmd_context)(unsafe.Pointer(m))
}

// logitsAt is the i-th output's logits (-1: the last) in llama.cpp's own
// buffer, without the copy ollama's GetLogitsIth makes: valid until the
// next decode.
func logitsAt(ctx *llama.Context, i, nVocab int) []float32 {
	p := C.llama_get_logits_ith(contextPtr(ctx), C.int32_t(i))
	if p == nil {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(p)), nVocab)
}

// EvalPrompt feeds a prompt with one image (at ImageMarker) into sequence
// seq through mtmd's own helper, which lays out positions for every model
// family: plain for LLaVA-type models, M-RoPE for Qwen2/2.5/3-VL, non-causal
// image attention for Gemma 3. It returns the position after the prompt and
// how many tokens it took; the last token's logits are ready to sample
// until the next decode.
func EvalPrompt(mt *llama.MtmdContext, ctx *llama.Context, text string, image []byte, seq, nBatch int) (nPast, nTokens int, err error) {
	chunks := C.mtmd_input_chunks_init()
	defer C.mtmd_input_chunks_free(chunks)
	ctext := C.CString(text)
	defer C.free(unsafe.Pointer(ctext))
	in := C.struct_shoebox_mtmd_input_text{text: ctext, add_special: true, parse_special: true}
	var bitmaps []*C.mtmd_bitmap
	if len(image) > 0 {
		cimg := C.CBytes(image)
		defer C.free(cimg)
		bm := C.mtmd_helper_bitmap_init_from_buf(mtmdPtr(mt), (*C.uchar)(cimg), C.size_t(len(image)))
		if bm == nil {
			return 0, 0, fmt.Errorf("the image could not be decoded")
		}
		defer C.mtmd_bitmap_free(bm)
		bitmaps = append(bitmaps, bm)
	}
	var bmp **C.mtmd_bitmap
	if len(bitmaps) > 0 {
		cb := (**C.mtmd_bitmap)(C.malloc(C.size_t(unsafe.Sizeof(bitmaps[0]))))
		defer C.free(unsafe.Pointer(cb))
		*cb = bitmaps[0]
		bmp = cb
	}
	if rc := C.mtmd_tokenize(mtmdPtr(mt), chunks, &in, bmp, C.size_t(len(bitmaps))); rc != 0 {
		return 0, 0, fmt.Errorf("the prompt and image could not be tokenized (mtmd_tokenize %d: the image marker count must match)", int(rc))
	}
	var newPast C.int32_t
	if rc := C.mtmd_helper_eval_chunks(mtmdPtr(mt), contextPtr(ctx), chunks, 0, C.int32_t(seq), C.int32_t(nBatch), true, &newPast); rc != 0 {
		return 0, 0, fmt.Errorf("evaluating the prompt failed (%d)", int(rc))
	}
	return int(newPast), int(C.mtmd_helper_get_n_tokens(chunks)), nil
}
