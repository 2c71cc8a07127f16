package worker

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
typedef struct mtmd_input_chunk mtmd_input_chunk;
struct shoebox_mtmd_input_text { const char * text; bool add_special; bool parse_special; };
mtmd_input_chunks * mtmd_input_chunks_init(void);
void mtmd_input_chunks_free(mtmd_input_chunks * chunks);
mtmd_bitmap * mtmd_helper_bitmap_init_from_buf(mtmd_context * ctx, const unsigned char * buf, size_t len);
void mtmd_bitmap_free(mtmd_bitmap * bitmap);
int32_t mtmd_tokenize(mtmd_context * ctx, mtmd_input_chunks * output, const struct shoebox_mtmd_input_text * text, const mtmd_bitmap ** bitmaps, size_t n_bitmaps);
size_t mtmd_helper_get_n_tokens(const mtmd_input_chunks * chunks);
size_t mtmd_input_chunks_size(const mtmd_input_chunks * chunks);
const mtmd_input_chunk * mtmd_input_chunks_get(const mtmd_input_chunks * chunks, size_t idx);
int mtmd_input_chunk_get_type(const mtmd_input_chunk * chunk); // 0 text, 1 image, 2 audio
int32_t mtmd_encode_chunk(mtmd_context * ctx, const mtmd_input_chunk * chunk);
float * mtmd_get_output_embd(mtmd_context * ctx);
int32_t mtmd_helper_eval_chunk_single(mtmd_context * ctx, struct llama_context * lctx, const mtmd_input_chunk * chunk,
                                      int32_t n_past, int32_t seq_id, int32_t n_batch, bool logits_last, int32_t * new_n_past);
int32_t mtmd_helper_decode_image_chunk(mtmd_context * ctx, struct llama_context * lctx, const mtmd_input_chunk * chunk,
                                       float * encoded_embd, int32_t n_past, int32_t seq_id, int32_t n_batch, int32_t * new_n_past);
float * llama_get_logits_ith(struct llama_context * ctx, int32_t i);
void llama_set_embeddings(struct llama_context * ctx, bool embeddings);

// mtmd_context_params as mtmd.h lays it out in this llama.cpp.
struct shoebox_mtmd_params {
	bool use_gpu;
	bool print_timings;
	int n_threads;
	const char * image_marker;
	const char * media_marker;
	int flash_attn_type;
	bool warmup;
	int image_min_tokens;
	int image_max_tokens;
};
struct llama_model;
struct shoebox_mtmd_params mtmd_context_params_default(void);
mtmd_context * mtmd_init_from_file(const char * mmproj_fname, const struct llama_model * text_model, const struct shoebox_mtmd_params ctx_params);
const struct llama_model * llama_get_model(const struct llama_context * ctx);

*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/ollama/ollama/llama"
)

// ollama's wrappers hold their C pointer as the first field.

// noEmbeddings turns off the copy of each output's hidden state that
// ollama's context parameters ask for: the worker reads logits only, and
// for a deepstack model (Qwen3-VL) this llama.cpp copies a row as wide as
// its image embeddings (the main slice and each deepstack slice) out of a
// tensor one slice wide, and aborts ("tensor read out of bounds").
func noEmbeddings(c *llama.Context) {
	C.llama_set_embeddings(contextPtr(c), C.bool(false))
}

func contextPtr(c *llama.Context) *C.struct_llama_context {
	return *(**C.struct_llama_context)(unsafe.Pointer(c))
}

func mtmdPtr(m *llama.MtmdContext) *C.mtmd_context {
	return *(**C.mtmd_context)(unsafe.Pointer(m))
}

// NewMtmd loads a vision projector for the model behind ctx, like ollama's
// NewMtmdContext but with the encoder's thread count: ollama leaves mtmd's
// default of 4, which on a 2-core machine costs ~250 ms of contention per
// image even for a projector of 16 patches.
func NewMtmd(ctx *llama.Context, projector string, threads int, useGPU bool) (*llama.MtmdContext, error) {
	p := C.mtmd_context_params_default()
	p.n_threads = C.int(max(threads, 1))
	p.use_gpu = C.bool(useGPU)
	p.print_timings = false
	path := C.CString(projector)
	defer C.free(unsafe.Pointer(path))
	c := C.mtmd_init_from_file(path, C.llama_get_model(contextPtr(ctx)), p)
	if c == nil {
		return nil, fmt.Errorf("llama.cpp could not load the projector %s", projector)
	}
	mt := new(llama.MtmdContext)
	*(**C.mtmd_context)(unsafe.Pointer(mt)) = c // its only field, as mtmdPtr reads it
	return mt, nil
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
// seq, chunk by chunk with mtmd's own helpers, which lay out positions for
// every model family: plain for LLaVA-type models, M-RoPE for
// Qwen2/2.5/3-VL, non-causal image attention for Gemma 3. Image chunks are
// encoded apart so that the vision encoder's time is known. It returns the
// position after the prompt, how many tokens it took and the encoding
// time; the last token's logits are ready to sample until the next decode.
func EvalPrompt(mt *llama.MtmdContext, ctx *llama.Context, text string, image []byte, seq, nBatch int) (nPast, nTokens int, encode time.Duration, err error) {
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
			return 0, 0, 0, fmt.Errorf("the image could not be decoded")
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
		return 0, 0, 0, fmt.Errorf("the prompt and image could not be tokenized (mtmd_tokenize %d: the image marker count must match)", int(rc))
	}
	// As mtmd_helper_eval_chunks does, with the encoder timed.
	var past C.int32_t
	n := int(C.mtmd_input_chunks_size(chunks))
	for i := 0; i < n; i++ {
		chunk := C.mtmd_input_chunks_get(chunks, C.size_t(i))
		if C.mtmd_input_chunk_get_type(chunk) == 0 {
			if rc := C.mtmd_helper_eval_chunk_single(mtmdPtr(mt), contextPtr(ctx), chunk, past, C.int32_t(seq), C.int32_t(nBatch), C.bool(i == n-1), &past); rc != 0 {
				return 0, 0, encode, fmt.Errorf("evaluating the prompt failed (%d) after %d of its %d tokens (the page's context may be too small for it)", int(rc), int(past), int(C.mtmd_helper_get_n_tokens(chunks)))
			}
			continue
		}
		t := time.Now()
		if rc := C.mtmd_encode_chunk(mtmdPtr(mt), chunk); rc != 0 {
			return 0, 0, encode, fmt.Errorf("the vision encoder failed on the image (%d)", int(rc))
		}
		encode += time.Since(t)
		if rc := C.mtmd_helper_decode_image_chunk(mtmdPtr(mt), contextPtr(ctx), chunk, C.mtmd_get_output_embd(mtmdPtr(mt)), past, C.int32_t(seq), C.int32_t(nBatch), &past); rc != 0 {
			return 0, 0, encode, fmt.Errorf("evaluating the image failed (%d)", int(rc))
		}
	}
	return int(past), int(C.mtmd_helper_get_n_tokens(chunks)), encode, nil
}
