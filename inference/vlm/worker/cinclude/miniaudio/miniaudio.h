/*
 * Shoebox's stand-in for miniaudio.h.
 *
 * The ollama module zip ships llama.cpp without its vendor/ folder, and
 * tools/mtmd/mtmd-helper.cpp includes "miniaudio/miniaudio.h" for audio input.
 * Shoebox never feeds audio to a model, so this header declares only the few
 * names mtmd-helper.cpp uses and makes every decoder call fail: an audio
 * buffer is then reported as undecodable instead of being read.
 *
 * Written for Shoebox; it contains no miniaudio code. The Makefile puts this
 * folder on CGO_CPPFLAGS.
 */
#ifndef SHOEBOX_MINIAUDIO_STUB_H
#define SHOEBOX_MINIAUDIO_STUB_H

#include <stddef.h>
#include <stdint.h>

typedef int ma_result;
typedef uint64_t ma_uint64;
typedef uint32_t ma_uint32;

#define MA_SUCCESS 0
#define MA_NOT_IMPLEMENTED (-29)

typedef enum { ma_format_unknown = 0, ma_format_f32 = 5 } ma_format;
typedef enum { ma_encoding_format_unknown = 0, ma_encoding_format_wav = 1 } ma_encoding_format;

typedef struct {
    ma_format format;
    ma_uint32 channels;
    ma_uint32 sampleRate;
} ma_decoder_config;

typedef struct {
    int unused;
} ma_decoder;

typedef struct {
    int unused;
} ma_encoder_config;

typedef struct {
    int unused;
} ma_encoder;

static inline ma_decoder_config ma_decoder_config_init(ma_format format, ma_uint32 channels, ma_uint32 sample_rate) {
    ma_decoder_config c;
    c.format = format;
    c.channels = channels;
    c.sampleRate = sample_rate;
    return c;
}

static inline ma_result ma_decoder_init_memory(const void *data, size_t size, const ma_decoder_config *config, ma_decoder *decoder) {
    (void)data; (void)size; (void)config; (void)decoder;
    return MA_NOT_IMPLEMENTED;
}

static inline ma_result ma_decoder_get_length_in_pcm_frames(ma_decoder *decoder, ma_uint64 *length) {
    (void)decoder;
    if (length) *length = 0;
    return MA_NOT_IMPLEMENTED;
}

static inline ma_result ma_decoder_read_pcm_frames(ma_decoder *decoder, void *frames, ma_uint64 count, ma_uint64 *read) {
    (void)decoder; (void)frames; (void)count;
    if (read) *read = 0;
    return MA_NOT_IMPLEMENTED;
}

static inline ma_result ma_decoder_uninit(ma_decoder *decoder) {
    (void)decoder;
    return MA_SUCCESS;
}

#endif
