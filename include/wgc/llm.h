/* llm.h - wl, wgc's model files: GGUF (v2, v3) and safetensors (single files, sharded ones with
 * model.safetensors.index.json, and the Hugging Face config.json beside them) opened read-only
 * into one wl_model: typed metadata, and tensor infos whose data points into the memory-mapped
 * file, so weights can go to the GPU straight from the mapping without a second host copy.
 *
 * Worked example (error handling shortened):
 *
 *     wl_error err;
 *     wl_model *m = wl_model_open("SmolLM2-135M-Instruct.Q4_1.gguf", NULL, &err);
 *     if (!m) { fprintf(stderr, "%s\n", err.message); return 1; }   // "...: offset 24: ..."
 *     const char *arch; size_t len;
 *     wl_model_get_str(m, "general.architecture", &arch, &len);       // "llama" (not NUL-ended)
 *     uint64_t blocks = 0;
 *     wl_model_get_u64(m, "llama.block_count", &blocks);              // 30
 *     const wl_tensor_info *t = wl_model_tensor_find(m, "token_embd.weight");
 *     printf("%s %s [%llu, %llu] %llu bytes at %p\n", t->name, wl_dtype_name(t->dtype),
 *            (unsigned long long)t->ne[0], (unsigned long long)t->ne[1],
 *            (unsigned long long)t->size, t->data);                 // Q8_0 [576, 49152] ...
 *     wl_model_close(m);                                             // unmaps: t->data dies here
 *
 * Errors are values: a failing open returns NULL and fills *err (a status and one line naming the
 * file, the field and its byte offset); getters return a status.  Every length, count and offset
 * in a file is checked against the file's size with overflow-safe arithmetic before it is used,
 * so a truncated, corrupt or hostile file is an error, never an out-of-bounds read.  The library
 * never exits, aborts or prints.  A wl_model is immutable after open: any number of threads may
 * read it.  Multi-byte values are read as little-endian (both formats' order).  The last section,
 * the engine, runs llama-family models on a wt context (it needs a device; the parsing above does
 * not).  See doc/llm.md. */
#ifndef WGC_LLM_H
#define WGC_LLM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wgc/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors: X(NAME, summary); the status is the row number ------------------------------- */
#define WL_ERRORS(X)                                            \
    X(OK, "no error")                                           \
    X(INVALID_ARGUMENT, "invalid argument")                     \
    X(IO, "file error")                                         \
    X(FORMAT, "malformed or truncated file")                    \
    X(UNSUPPORTED, "valid but unsupported (version, dtype)")    \
    X(OUT_OF_MEMORY, "host memory exhausted")                   \
    X(NOT_FOUND, "no such key or tensor")                       \
    X(TYPE, "the value has another type")                      \
    X(GPU, "the GPU or the tensor layer failed (its message follows)")

typedef enum wl_status {
#define X(name, summary) WL_STATUS_##name,
    WL_ERRORS(X)
#undef X
    WL_STATUS_COUNT
} wl_status;
#define WL_OK WL_STATUS_OK

const char *wl_status_name(wl_status s);   /* "WL_STATUS_FORMAT" */

typedef struct wl_error {
    wl_status status;      /* WL_OK when nothing failed */
    char message[320];     /* "<file>: <format>: offset <n>: <what>"; "" when none */
} wl_error;

/* Allocator hook: every host byte wl allocates goes through it.  Both NULL = malloc/free.  alloc
 * returning NULL makes the open fail with WL_STATUS_OUT_OF_MEMORY. */
typedef struct wl_allocator {
    void *(*alloc)(void *user, size_t size);   /* NULL = malloc */
    void (*free)(void *user, void *ptr);       /* NULL = free; ptr may be NULL */
    void *user;                                /* passed through */
} wl_allocator;

/* ---- tensor dtypes: X(NAME, ggml type id, elements per block, bytes per block) ------------- */
#define WL_DTYPES(X)          \
    X(F32, 0, 1, 4)           \
    X(F16, 1, 1, 2)           \
    X(BF16, 30, 1, 2)         \
    X(Q4_0, 2, 32, 18)        \
    X(Q4_1, 3, 32, 20)        \
    X(Q5_0, 6, 32, 22)        \
    X(Q5_1, 7, 32, 24)        \
    X(Q8_0, 8, 32, 34)        \
    X(Q2_K, 10, 256, 84)      \
    X(Q3_K, 11, 256, 110)     \
    X(Q4_K, 12, 256, 144)     \
    X(Q5_K, 13, 256, 176)     \
    X(Q6_K, 14, 256, 210)

typedef enum wl_dtype {
    WL_DTYPE_NONE = 0,
#define X(name, id, blk, bytes) WL_DTYPE_##name,
    WL_DTYPES(X)
#undef X
    WL_DTYPE_COUNT
} wl_dtype;

const char *wl_dtype_name(wl_dtype t);          /* "Q4_1"; "?" for NONE or out of range */
uint32_t wl_dtype_block_elements(wl_dtype t);   /* 32 for Q4_1; 0 for NONE */
uint32_t wl_dtype_block_bytes(wl_dtype t);      /* 20 for Q4_1; 0 for NONE */

/* ---- metadata values ------------------------------------------------------------------------ */
/* The GGUF value types, in GGUF's order (GGUF's code + 1; 0 = none). */
typedef enum wl_value_type {
    WL_VALUE_NONE = 0,
    WL_VALUE_U8, WL_VALUE_I8, WL_VALUE_U16, WL_VALUE_I16, WL_VALUE_U32, WL_VALUE_I32, WL_VALUE_F32,
    WL_VALUE_BOOL, WL_VALUE_STRING, WL_VALUE_ARRAY, WL_VALUE_U64, WL_VALUE_I64, WL_VALUE_F64,
    WL_VALUE_COUNT
} wl_value_type;

const char *wl_value_type_name(wl_value_type t);   /* "u32", "string", "array", ... */

typedef struct wl_value {
    wl_value_type type;
    wl_value_type elem_type;        /* arrays: the elements' type */
    uint64_t count;                 /* strings: bytes; arrays: elements; scalars: 0 */
    const void *data;               /* scalars and strings: the bytes (little-endian, strings not
                                       NUL-terminated); arrays of scalars: the packed elements */
    const struct wl_value *items;   /* arrays of strings or arrays: one value per element */
} wl_value;

/* Element i of an array as a value (a scalar, string or array); WL_STATUS_TYPE for a non-array,
 * WL_STATUS_NOT_FOUND when i >= count. */
wl_status wl_value_at(const wl_value *array, uint64_t i, wl_value *out);
/* Conversions.  u64: any integer type holding a value >= 0 (and bool); i64: any integer type whose
 * value fits; f64: any number; bool: bool only; str: string only (*s not NUL-terminated). */
wl_status wl_value_u64(const wl_value *v, uint64_t *out);
wl_status wl_value_i64(const wl_value *v, int64_t *out);
wl_status wl_value_f64(const wl_value *v, double *out);
wl_status wl_value_bool(const wl_value *v, bool *out);
wl_status wl_value_str(const wl_value *v, const char **s, size_t *len);

/* ---- tensors ---------------------------------------------------------------------------------- */
#define WL_MAX_DIMS 4

typedef struct wl_tensor_info {
    const char *name;               /* NUL-terminated */
    wl_dtype dtype;
    uint32_t n_dims;                /* 1..WL_MAX_DIMS */
    uint64_t ne[WL_MAX_DIMS];       /* ggml order: ne[0] varies fastest (a row); unused dims are 1.
                                       safetensors shapes [a, b] become ne = {b, a, 1, 1} */
    uint64_t elements;              /* product of ne */
    uint64_t offset;                /* of the data within its file */
    uint64_t size;                  /* bytes: elements / block elements * block bytes */
    const void *data;               /* in the read-only mapping; valid until wl_model_close */
    uint32_t file;                  /* which file (shard) holds it: an index for wl_model_file_path */
} wl_tensor_info;

/* ---- models ----------------------------------------------------------------------------------- */
typedef enum wl_format {
    WL_FORMAT_NONE = 0,
    WL_FORMAT_GGUF,
    WL_FORMAT_SAFETENSORS,
    WL_FORMAT_COUNT
} wl_format;

typedef struct wl_model wl_model;

/* Opens a model read-only, memory-mapped.  path: a .gguf file; a .safetensors file; a
 * model.safetensors.index.json (its shards, named by weight_map, are opened from its directory);
 * or a directory holding model.safetensors.index.json or model.safetensors.  The file's kind is
 * told by its first bytes, not its name.  For safetensors, a config.json in the same directory is
 * read too: its scalar keys become "config.<key>" metadata, and for the llama family its sizes
 * also become the GGUF keys (general.architecture, <arch>.block_count, ...; see doc/llm.md).
 * alloc may be NULL; err may be NULL.  NULL on failure, with err filled. */
wl_model *wl_model_open(const char *path, const wl_allocator *alloc, wl_error *err);
/* The same parsers over a caller's memory (for tests and fuzzing): the model points into
 * [data, data+size), which must outlive it.  No config.json and no shards. */
wl_model *wl_gguf_open_memory(const void *data, size_t size, const wl_allocator *alloc, wl_error *err);
wl_model *wl_safetensors_open_memory(const void *data, size_t size, const wl_allocator *alloc, wl_error *err);
void wl_model_close(wl_model *m);   /* NULL is fine */

wl_format wl_model_format(const wl_model *m);
uint32_t wl_model_version(const wl_model *m);       /* GGUF: 2 or 3; safetensors: 0 */
uint64_t wl_model_alignment(const wl_model *m);     /* GGUF: general.alignment or 32; safetensors: 1 */
uint32_t wl_model_file_count(const wl_model *m);    /* shards; 1 for a single file */
const char *wl_model_file_path(const wl_model *m, uint32_t i);   /* "" for memory */
uint64_t wl_model_file_size(const wl_model *m, uint32_t i);

/* Metadata in file order (safetensors: __metadata__, then config.json's keys). */
uint64_t wl_model_metadata_count(const wl_model *m);
const char *wl_model_metadata_key(const wl_model *m, uint64_t i);        /* NULL when out of range */
const wl_value *wl_model_metadata_value(const wl_model *m, uint64_t i);  /* NULL when out of range */
const wl_value *wl_model_find(const wl_model *m, const char *key);       /* NULL when absent */
/* Typed getters by key: WL_STATUS_NOT_FOUND when absent, WL_STATUS_TYPE when not convertible (see
 * wl_value_u64...); *out untouched on failure. */
wl_status wl_model_get_u64(const wl_model *m, const char *key, uint64_t *out);
wl_status wl_model_get_i64(const wl_model *m, const char *key, int64_t *out);
wl_status wl_model_get_f64(const wl_model *m, const char *key, double *out);
wl_status wl_model_get_bool(const wl_model *m, const char *key, bool *out);
wl_status wl_model_get_str(const wl_model *m, const char *key, const char **s, size_t *len);

/* Tensors in file order (sharded safetensors: shard by shard). */
uint64_t wl_model_tensor_count(const wl_model *m);
const wl_tensor_info *wl_model_tensor(const wl_model *m, uint64_t i);           /* NULL when out of range */
const wl_tensor_info *wl_model_tensor_find(const wl_model *m, const char *name); /* NULL when absent */

/* ---- engine: llama-family inference on wt tensors (src/llm/engine.c, sample.c) -------------- *
 *
 *     wt_context *ctx = wt_context_create(dev, NULL);
 *     wl_engine *e = wl_engine_create(ctx, m, &(wl_engine_desc){ .n_ctx = 2048 }, &err);
 *     wl_model_close(m);                            // the weights are on the GPU now
 *     int32_t prompt[] = { 504, 3575, 282, 4649, 314 }, tok;
 *     wl_engine_eval(e, 0, prompt, 5, WL_LOGITS_LAST, &err);          // prefill
 *     wl_sampler *s = wl_sampler_create(&(wl_sampler_desc){ .temperature = 0 }, &err);
 *     for (int i = 0; i < 64; i++) {
 *         wl_sampler_sample(s, e, 0, &tok, &err);   // greedy: argmax on the GPU, 4 bytes read
 *         if (tok == wl_engine_get_info(e)->eos) break;
 *         wl_sampler_accept(s, tok);
 *         wl_engine_eval(e, 0, &tok, 1, WL_LOGITS_LAST, &err);         // one submit per token
 *     }
 *     wl_sampler_release(s); wl_engine_release(e); wt_context_destroy(ctx);
 *
 * Architectures: the llama family (general.architecture "llama", "mistral", "qwen2"; GGUF names
 * or Hugging Face safetensors names); anything else is WL_STATUS_UNSUPPORTED naming it.  Weights
 * F32 and F16 go to the GPU as they are, BF16 widened to f32; the block formats Q4_0, Q4_1 and
 * Q8_0 are dequantized to f32 on the host (until wt has quantized kernels); others are refused.
 * The KV cache (f32, [n_seq, heads_kv, n_ctx, head_dim] per block) is allocated at create.  The
 * engine raises the context's max_batch_ops when the policy leaves it at 0, so a decode step is
 * one batch.  See doc/llm.md, "Engine". */
typedef struct wl_engine wl_engine;

typedef struct wl_engine_desc {
    const char *label;
    uint32_t n_ctx;           /* positions per sequence; 0: min(the model's context_length, 4096) */
    uint32_t n_seq;           /* sequences, each with its own KV cache; 0: 1 */
} wl_engine_desc;

typedef struct wl_engine_info {
    char arch[32];            /* general.architecture */
    uint32_t n_vocab, n_embd, n_layer, n_head, n_head_kv, head_dim, n_ff, rope_dims;
    uint32_t n_ctx, n_seq;
    double rope_base, rms_eps;
    wt_rope_layout rope_layout;
    bool rope_host;           /* rope frequency factors or linear scaling: angles from the host */
    bool tied;                /* the output head is the token embedding */
    int32_t bos, eos;         /* tokenizer.ggml.{bos,eos}_token_id; -1 when absent */
    uint64_t weight_bytes, kv_bytes;   /* on the GPU */
} wl_engine_info;

/* Uploads m's weights to ctx's device and allocates the KV cache.  m is only read during the call
 * (the engine keeps nothing pointing into it).  NULL on failure with err filled: an unsupported
 * architecture or dtype (named), a missing or misshapen tensor (named), a GPU error. */
wl_engine *wl_engine_create(wt_context *ctx, const wl_model *m, const wl_engine_desc *desc, wl_error *err);
void wl_engine_release(wl_engine *e);   /* NULL is fine; the context stays */
const wl_engine_info *wl_engine_get_info(const wl_engine *e);
wt_context *wl_engine_context(wl_engine *e);

typedef enum wl_logits_mode {
    WL_LOGITS_LAST = 0,       /* the last token's row */
    WL_LOGITS_ALL,            /* one row per token */
    WL_LOGITS_NONE,           /* none (the KV cache only) */
    WL_LOGITS_MODE_COUNT
} wl_logits_mode;
/* Appends tokens[0 .. n) to sequence seq at its position (wl_engine_pos) and records the forward
 * pass (lazily: it goes to the GPU with the next readback, such as the sampler's, or wt_flush, so
 * a decode step and its sampling are one submit): logits as mode says.  The prompt must fit: pos + n <= n_ctx, else
 * WL_STATUS_INVALID_ARGUMENT and nothing changes; a token outside [0, n_vocab) likewise. */
wl_status wl_engine_eval(wl_engine *e, uint32_t seq, const int32_t *tokens, uint32_t n, wl_logits_mode mode,
                         wl_error *err);
/* One token each for n distinct sequences seqs[i] (n <= n_seq) in one pass: the linear layers
 * take all n rows at once, so the weights are read once per step for all n (on lavapipe the
 * n-row products run wt's tiled kernels, slower there than n matvecs: see doc/llm.md).  Logits: row i for seqs[i].  RoPE angles come from the host (per-row positions); attention runs
 * per sequence against its own cache.  A full context, a repeated sequence or a token outside
 * the vocabulary is WL_STATUS_INVALID_ARGUMENT and nothing changes. */
wl_status wl_engine_eval_batch(wl_engine *e, const uint32_t *seqs, const int32_t *tokens, uint32_t n, wl_error *err);
/* The last eval's logits, f32 [rows, n_vocab] (borrowed: valid until the next eval); NULL before. */
wt_tensor *wl_engine_logits(wl_engine *e);
/* Reads them back (waits): count must be rows * n_vocab floats. */
wl_status wl_engine_read_logits(wl_engine *e, float *dst, size_t count, wl_error *err);
uint32_t wl_engine_pos(const wl_engine *e, uint32_t seq);   /* tokens in seq's KV cache */
/* Forgets seq's positions from pos on (pos 0: a reset); pos past the current length is an error. */
wl_status wl_engine_truncate(wl_engine *e, uint32_t seq, uint32_t pos, wl_error *err);

/* Sampling, in llama.cpp's order: repetition penalty (on the GPU), then greedy argmax on the GPU
 * when temperature <= 0; else the row is read back and top-k, top-p, min-p (on the probabilities
 * at temperature 1), temperature and a draw from a seeded generator run on the host in double.
 * The same seed and the same logits give the same tokens. */
typedef struct wl_sampler_desc {
    float temperature;        /* <= 0: greedy */
    uint32_t top_k;           /* 0: off */
    float top_p;              /* 0 or >= 1: off */
    float min_p;              /* 0: off */
    float repeat_penalty;     /* 0 or 1: off; > 1 penalises tokens seen in the last repeat_last_n */
    uint32_t repeat_last_n;   /* 0: 64 */
    uint64_t seed;
} wl_sampler_desc;
typedef struct wl_sampler wl_sampler;
wl_sampler *wl_sampler_create(const wl_sampler_desc *desc, wl_error *err);
void wl_sampler_release(wl_sampler *s);
void wl_sampler_accept(wl_sampler *s, int32_t token);   /* history for the penalty */
void wl_sampler_reset(wl_sampler *s);                   /* empty history, generator reseeded */
/* Picks a token from row `row` of e's last logits. */
wl_status wl_sampler_sample(wl_sampler *s, wl_engine *e, uint32_t row, int32_t *token, wl_error *err);

#ifdef __cplusplus
}
#endif
#endif
