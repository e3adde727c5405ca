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

/* ---- tokenizer -------------------------------------------------------------------------------- */
/* Text to token ids and back, as the model file says (doc/llm.md, "Tokenizers"):
 *
 *     wl_tokenizer *tok = wl_tokenizer_open(m, NULL, &err);           // GGUF keys or tokenizer.json
 *     int32_t ids[64]; size_t n;
 *     wl_tokenize(tok, "<|im_start|>user", 16, WL_TOKENIZE_PARSE_SPECIAL, ids, 64, &n, &err);
 *     wl_detok d; wl_detok_init(&d, tok, WL_DETOK_SPECIAL);          // streaming, whole UTF-8 only
 *     char buf[1024]; size_t k;                                       // >= wl_detok_cap(tok) bytes
 *     for (size_t i = 0; i < n; i++) { wl_detok_push(&d, ids[i], buf, sizeof buf, &k); fwrite(buf, 1, k, stdout); }
 *     wl_detok_flush(&d, buf, sizeof buf, &k); fwrite(buf, 1, k, stdout);
 *     wl_tokenizer_close(tok);                                        // independent of m's lifetime
 *
 * A wl_tokenizer is immutable after open: any number of threads may tokenize with it at once. */
typedef struct wl_tokenizer wl_tokenizer;
struct wl_model;

/* Vocabulary kinds: byte-level BPE (GGUF tokenizer.ggml.model "gpt2"; tokenizer.json BPE with a
 * ByteLevel pre-tokenizer) and SentencePiece BPE with byte fallback (GGUF "llama"; tokenizer.json
 * BPE with byte_fallback and U+2581 for spaces: Llama 2, Mistral).  Byte-level BPE splits text into words first, by one of these pre-tokenizers (the
 * GGUF tokenizer.ggml.pre names that select each are listed in doc/llm.md):
 *   GPT2    's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
 *   LLAMA3  (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|
 *           \s*[\r\n]+|\s+(?!\S)|\s+
 *   QWEN2   LLAMA3 with \p{N} for \p{N}{1,3}
 *   SMOLLM  every \p{N} its own piece, then GPT2 within each piece
 * X(NAME, canonical GGUF name). */
typedef enum wl_vocab_kind { WL_VOCAB_NONE = 0, WL_VOCAB_BPE, WL_VOCAB_SPM, WL_VOCAB_COUNT } wl_vocab_kind;
#define WL_PRETOKENIZERS(X) \
    X(GPT2, "gpt-2")        \
    X(LLAMA3, "llama-bpe")  \
    X(QWEN2, "qwen2")       \
    X(SMOLLM, "smollm")
typedef enum wl_pretok {
    WL_PRETOK_NONE = 0,   /* SentencePiece: no pre-tokenizer */
#define X(name, gguf) WL_PRETOK_##name,
    WL_PRETOKENIZERS(X)
#undef X
    WL_PRETOK_COUNT
} wl_pretok;

/* Token types, with GGUF's codes (tokenizer.ggml.token_type). */
typedef enum wl_token_type {
    WL_TOKEN_UNDEFINED = 0, WL_TOKEN_NORMAL = 1, WL_TOKEN_UNKNOWN = 2, WL_TOKEN_CONTROL = 3,
    WL_TOKEN_USER_DEFINED = 4, WL_TOKEN_UNUSED = 5, WL_TOKEN_BYTE = 6, WL_TOKEN_TYPE_COUNT
} wl_token_type;

typedef struct wl_special_tokens {   /* ids; -1 when the vocabulary has none */
    int32_t bos, eos, eot, eom, unk, pad, sep;
    bool add_bos, add_eos;           /* what WL_TOKENIZE_ADD_SPECIAL adds */
    bool add_space_prefix;           /* SentencePiece: " " before the text and after each special token */
} wl_special_tokens;

/* Reads the tokenizer of a model: GGUF's tokenizer.ggml.* keys (model, pre, tokens, token_type,
 * merges, scores, the special ids, add_bos_token, add_eos_token, add_space_prefix), or, for
 * safetensors, tokenizer.json (and tokenizer_config.json) beside the model's first file.  A
 * missing, broken or unsupported tokenizer is NULL with err filled (one line naming the key and
 * what is wrong: "tokenizer.ggml.pre 'xyz' is not a pre-tokenizer wgc knows (gpt-2, llama-bpe,
 * qwen2, smollm, ...)").  The tokenizer copies what it needs: m may be closed after. */
wl_tokenizer *wl_tokenizer_open(const struct wl_model *m, const wl_allocator *alloc, wl_error *err);
void wl_tokenizer_close(wl_tokenizer *t);   /* NULL is fine */

wl_vocab_kind wl_tokenizer_kind(const wl_tokenizer *t);
wl_pretok wl_tokenizer_pretok(const wl_tokenizer *t);
const char *wl_pretok_name(wl_pretok p);                       /* "smollm"; "none"; "?" */
uint32_t wl_tokenizer_vocab_size(const wl_tokenizer *t);
const wl_special_tokens *wl_tokenizer_special(const wl_tokenizer *t);

#define WL_TOKENIZE_PARSE_SPECIAL 1u   /* control tokens' text (<|im_start|>) in the text is that token */
#define WL_TOKENIZE_ADD_SPECIAL 2u     /* add BOS / EOS where the file says to */
/* Tokenizes text[0..len) (any bytes; NUL is a byte like any other).  Writes the first
 * min(total, cap) ids to ids (NULL when cap is 0) and the total count to *n, like snprintf: call
 * again with a bigger array when *n > cap.  Without PARSE_SPECIAL, user-defined tokens are still
 * matched (as llama.cpp does) but control tokens are plain text.  Invalid UTF-8 in byte-level BPE
 * text becomes U+FFFD, byte by byte (llama.cpp's behaviour); SentencePiece keeps the bytes
 * (byte-fallback tokens).  WL_STATUS_OUT_OF_MEMORY when the scratch memory cannot be had. */
wl_status wl_tokenize(const wl_tokenizer *t, const char *text, size_t len, uint32_t flags, int32_t *ids,
                      size_t cap, size_t *n, wl_error *err);

/* A token's string as the vocabulary stores it ("Ġhello", "▁the", "<0x0A>", "<|im_end|>"), not
 * NUL-terminated; NULL when id is out of range. */
const char *wl_token_text(const wl_tokenizer *t, int32_t id, size_t *len);
wl_token_type wl_token_get_type(const wl_tokenizer *t, int32_t id);   /* UNDEFINED when out of range */
/* The bytes a token stands for (" hello", "\n", "<|im_end|>" for control tokens; empty for
 * unused ones), not NUL-terminated; NULL when id is out of range.  A piece may be part of a
 * UTF-8 sequence (byte tokens). */
const char *wl_token_piece(const wl_tokenizer *t, int32_t id, size_t *len);
int32_t wl_token_find(const wl_tokenizer *t, const char *text, size_t len);   /* by text; -1 */

/* Streaming detokenizer: pieces in, valid UTF-8 out.  Bytes of a UTF-8 sequence split across
 * tokens are held until the sequence is whole; a byte that cannot be part of valid UTF-8 comes
 * out as U+FFFD.  Caller-owned state, no allocation. */
#define WL_DETOK_SPECIAL 1u       /* write control and unknown tokens' text (else skip them) */
#define WL_DETOK_STRIP_SPACE 2u   /* SentencePiece: drop the space the tokenizer put before the
                                     text and after each special token, so text round-trips */
typedef struct wl_detok {
    const wl_tokenizer *tok;
    uint32_t flags;
    unsigned char pending[4];   /* an incomplete UTF-8 sequence */
    uint32_t npending;
    bool at_start;              /* the next text piece starts a text (STRIP_SPACE) */
} wl_detok;
void wl_detok_init(wl_detok *d, const wl_tokenizer *t, uint32_t flags);
size_t wl_detok_cap(const wl_tokenizer *t);   /* an out buffer this big always suffices */
/* Appends token id's text to the stream: writes what is complete to out, *n bytes.
 * INVALID_ARGUMENT (nothing written) for an id out of range or cap < wl_detok_cap(t). */
wl_status wl_detok_push(wl_detok *d, int32_t id, char *out, size_t cap, size_t *n);
/* Ends the stream: a held incomplete sequence comes out as U+FFFD.  The state is reset. */
wl_status wl_detok_flush(wl_detok *d, char *out, size_t cap, size_t *n);

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

/* ---- chat: conversations as the model's chat template writes them (src/llm/chat.c) ------------ *
 *
 *     wl_chat_message msgs[] = { { "user", "What is 2+2?" } };
 *     char text[4096]; size_t len;
 *     wl_chat_format(m, msgs, 1, true, text, sizeof text, &len, &err);
 *     // SmolLM2: "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by
 *     //   Hugging Face<|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n"
 *     wl_tokenize(tok, text, len, WL_TOKENIZE_PARSE_SPECIAL, ids, cap, &n, &err);   // no ADD_SPECIAL:
 *                                                   // the template writes the BOS it wants
 *
 * The Jinja template in tokenizer.chat_template is recognised by its markers, never executed:
 *   CHATML  <|im_start|> and <|im_end|> (SmolLM2, Qwen2, Qwen2.5 without tools): each message is
 *           "<|im_start|>ROLE\nCONTENT<|im_end|>\n", the generation prompt "<|im_start|>assistant\n".
 *           When a literal in the template holds "<|im_start|>system\nTEXT<|im_end|>", TEXT is the
 *           default system message, written first when the first message is not a system one.
 *   LLAMA3  <|start_header_id|>, <|end_header_id|> and <|eot_id|> (Llama 3 Instruct): the BOS
 *           token's text first when the template names bos_token, then each message
 *           "<|start_header_id|>ROLE<|end_header_id|>\n\nCONTENT<|eot_id|>", the generation prompt
 *           "<|start_header_id|>assistant<|end_header_id|>\n\n".
 *   LLAMA31 LLAMA3's markers with "Cutting Knowledge Date:" and "Today Date:" (Llama 3.1 / 3.2
 *           Instruct, without tools): the BOS text (when the template names bos_token), then always
 *           a system turn "<|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date:
 *           KNOWLEDGE\nToday Date: DATE\n\nSYSTEM<|eot_id|>" (SYSTEM: the first message's content
 *           when its role is system, trimmed; else empty), then the other messages as LLAMA3.
 *           KNOWLEDGE is read from the template ("December 2023"), DATE is the template's default
 *           date_string ("26 Jul 2024"): set wl_chat_template.date to another before applying.
 * Both Llama kinds trim contents as the template's trim filter does (always, in 3.1's); ChatML
 * when it applies Jinja's trim filter.  Anything else (Llama 2's [INST], Gemma, a Llama 3 system
 * header without dates...) is WL_STATUS_UNSUPPORTED naming what was found.  See doc/llm.md, "Chat". */
#define WL_CHAT_KINDS(X)      \
    X(CHATML, "chatml")       \
    X(LLAMA3, "llama3")       \
    X(LLAMA31, "llama31")
typedef enum wl_chat_kind {
    WL_CHAT_NONE = 0,
#define X(name, str) WL_CHAT_##name,
    WL_CHAT_KINDS(X)
#undef X
    WL_CHAT_KIND_COUNT
} wl_chat_kind;
const char *wl_chat_kind_name(wl_chat_kind k);   /* "chatml"; "none"; "?" */

typedef struct wl_chat_message {
    const char *role;        /* "system", "user", "assistant" (written as given), NUL-terminated */
    const char *content;     /* NUL-terminated */
} wl_chat_message;

typedef struct wl_chat_template {
    wl_chat_kind kind;
    bool trim;                       /* contents are trimmed */
    bool bos;                        /* LLAMA3, LLAMA31: bos_text before the first message */
    char bos_text[64];               /* the BOS token's text ("<|begin_of_text|>"); "" when none */
    char default_system[1024];       /* CHATML: the default system message; "" when none */
    char knowledge[64];              /* LLAMA31: the "Cutting Knowledge Date: " text ("December 2023") */
    char date[64];                   /* LLAMA31: the "Today Date: " text ("26 Jul 2024"); the caller may
                                        set another (NUL-terminated) before wl_chat_apply */
    const char *end_of_turn;         /* "<|im_end|>" or "<|eot_id|>": the token that ends a turn */
} wl_chat_template;

/* Recognises a template's text (len bytes).  bos: the BOS token's text (NULL: none).  Fills *out,
 * or WL_STATUS_UNSUPPORTED with err naming what the text looks like. */
wl_status wl_chat_template_parse(const char *text, size_t len, const char *bos, wl_chat_template *out,
                                 wl_error *err);
/* The same over m's tokenizer.chat_template and its BOS token (tokenizer.ggml.bos_token_id's entry in
 * tokenizer.ggml.tokens); for a safetensors model, chat_template and bos_token of the
 * tokenizer_config.json beside its first file (read at each call).  WL_STATUS_NOT_FOUND when the
 * model has no template. */
wl_status wl_chat_template_from_model(const wl_model *m, wl_chat_template *out, wl_error *err);
/* Writes msgs[0 .. n) as the template does, then the assistant's generation prompt when
 * add_generation_prompt.  Like snprintf: the first min(total, cap - 1) bytes and a NUL go to out
 * (out may be NULL when cap is 0), the total length to *len; call again with a bigger buffer when
 * *len >= cap.  INVALID_ARGUMENT for a NULL role or content. */
wl_status wl_chat_apply(const wl_chat_template *t, const wl_chat_message *msgs, size_t n,
                        bool add_generation_prompt, char *out, size_t cap, size_t *len, wl_error *err);
/* wl_chat_template_from_model, then wl_chat_apply. */
wl_status wl_chat_format(const wl_model *m, const wl_chat_message *msgs, size_t n, bool add_generation_prompt,
                         char *out, size_t cap, size_t *len, wl_error *err);

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
 * The KV cache ([n_seq, heads_kv, n_ctx, head_dim] per block; f32, or f16 by the desc) is allocated at create.  The
 * engine raises the context's max_batch_ops when the policy leaves it at 0, so a decode step is
 * one batch.  See doc/llm.md, "Engine". */
typedef struct wl_engine wl_engine;

typedef struct wl_engine_desc {
    const char *label;
    uint32_t n_ctx;           /* positions per sequence; 0: min(the model's context_length, 4096) */
    uint32_t n_seq;           /* sequences, each with its own KV cache; 0: 1 */
    wt_dtype cache_type;      /* the KV cache's elements: 0 or WT_F32; WT_F16 (half the memory; k and
                                 v rounded to f16 as they are stored, attention still in f32; needs
                                 shader-f16) */
} wl_engine_desc;

typedef struct wl_engine_info {
    char arch[32];            /* general.architecture */
    uint32_t n_vocab, n_embd, n_layer, n_head, n_head_kv, head_dim, n_ff, rope_dims;
    uint32_t n_ctx, n_seq;
    wt_dtype cache_type;      /* WT_F32 or WT_F16 */
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

/* ---- stop strings (src/llm/stop.c) ----------------------------------------------------------- *
 * Generation stops once the generated text contains one of the given strings (llama.cpp's
 * reverse prompts, its server's `stop`); the string is never shown.  Text goes through a wl_stop
 * as it comes (after the streaming detokenizer):
 *
 *     wl_stop *st = wl_stop_create((const char *const[]){ "\nUser:", "###" }, NULL, 2, &err);
 *     char out[...]; size_t k; int hit;          // out: wl_stop_cap(st, piece length) bytes
 *     wl_stop_push(st, piece, plen, out, sizeof out, &k, &hit); fwrite(out, 1, k, stdout);
 *     if (hit >= 0) break;                       // string `hit` matched: what came before it is out
 *     ...
 *     wl_stop_flush(st, out, sizeof out, &k);    // end of text without a match: the held tail
 *
 * A tail of the text that may still begin a stop string is held back, so a stream never shows a
 * prefix of a string that then matches; a string split over several tokens is found as one.  The
 * match that starts first wins (the lower index on a tie); text after it is dropped. */
typedef struct wl_stop wl_stop;
/* strings[0 .. n) of lens[i] bytes (lens NULL: NUL-terminated), copied; n may be 0 (nothing
 * stops).  An empty or NULL string is INVALID_ARGUMENT. */
wl_stop *wl_stop_create(const char *const *strings, const size_t *lens, size_t n, wl_error *err);
void wl_stop_release(wl_stop *s);   /* NULL is fine */
void wl_stop_reset(wl_stop *s);     /* a new text: nothing held, nothing matched */
/* out bytes that always suffice for a push of len bytes: len + the longest string - 1. */
size_t wl_stop_cap(const wl_stop *s, size_t len);
/* Appends text[0 .. len): writes to out what is now safe to show (*n bytes) and sets *which to the
 * index of the string matched, or -1 (which may be NULL).  After a match, pushes write nothing.
 * INVALID_ARGUMENT (nothing written) when cap < wl_stop_cap(s, len). */
wl_status wl_stop_push(wl_stop *s, const char *text, size_t len, char *out, size_t cap, size_t *n, int *which);
/* Ends the text: the held tail comes out when nothing matched (cap >= wl_stop_cap(s, 0)); reset. */
wl_status wl_stop_flush(wl_stop *s, char *out, size_t cap, size_t *n);
int wl_stop_matched(const wl_stop *s);   /* the index matched, -1 while none */

#ifdef __cplusplus
}
#endif
#endif
