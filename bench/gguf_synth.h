/* gguf_synth.h - synthetic llama-family GGUF files for `wgc bench generate` (bench/gguf_synth.c):
 * the tensors of a real model's shape, random but valid quantized blocks (finite f16 scales,
 * values of a trained model's magnitude), a minimal byte-level BPE vocabulary, so that both wgc's
 * engine and llama.cpp load the file.  Decoding speed depends on the shapes and the formats, not
 * on the values. */
#ifndef WGC_BENCH_GGUF_SYNTH_H
#define WGC_BENCH_GGUF_SYNTH_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How the matrices are quantized:
 *   Q4_K_M  llama.cpp's recipe of that name: Q4_K for most matrices; Q6_K for attn_v and
 *           ffn_down in the layers llama.cpp gives more bits (the first and last eighth, and every
 *           third in between: about half) and for the output head (the token embedding when the
 *           head is tied); an untied token embedding Q4_K
 *   Q4_1    SmolLM2-135M-Instruct.Q4_1.gguf's: Q4_1 matrices, the (tied) token embedding Q8_0
 * Norm weights are F32 ones. */
typedef enum synth_recipe { SYNTH_Q4_K_M = 0, SYNTH_Q4_1, SYNTH_RECIPE_COUNT } synth_recipe;

typedef struct synth_shape {
    uint32_t n_layer, n_embd, n_head, n_head_kv, n_ff, n_vocab, n_ctx;
    bool tied;                /* no output.weight: the head is the token embedding */
    double rope_base;
    synth_recipe recipe;
} synth_shape;

const char *synth_recipe_name(synth_recipe r);   /* "Q4_K_M" */
/* The file name that identifies the shape, the recipe and the writer's version, e.g.
 * "llama-L16-E2048-H32x8-F8192-V128256-tied.Q4_K_M.v1.gguf" (prefix first). */
void synth_file_name(const synth_shape *s, const char *prefix, char *buf, size_t cap);
/* Checks the shape against the block sizes (rows of the K formats are multiples of 256, of Q4_1
 * multiples of 32; heads divide the width); false with a message in err. */
bool synth_check(const synth_shape *s, char *err, size_t cap);
/* Bytes the file's tensor data takes (the weights as stored). */
uint64_t synth_weight_bytes(const synth_shape *s);
/* Writes the model to path (through path.tmp and a rename, so an existing path is whole), blocks
 * drawn from seed.  false with a message in err. */
bool synth_write(const synth_shape *s, const char *path, uint64_t seed, char *err, size_t cap);

#endif
