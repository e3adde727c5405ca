/* fuzz_llm.c - libFuzzer target over the model-file readers: wl_gguf_open_memory or
 * wl_safetensors_open_memory (with the JSON parser under it) on arbitrary bytes, then every
 * metadata value walked through every conversion and every tensor's bytes touched, so a reader
 * that hands out a pointer past the input is caught by ASan.  The first input byte picks the
 * format (bit 0: 0 GGUF, 1 safetensors) and, in bits 2-7, an allocation to fail (0: none), so the
 * out-of-memory paths are fuzzed too; the rest is the file image.  A GGUF file that opens also
 * goes through wl_tokenizer_open (hostile vocabularies and merges), and when that succeeds the
 * input's own bytes are tokenized (special tokens parsed, BOS/EOS added) and detokenized: every
 * id in range, every token's text and piece touched.
 *
 *   make fuzz-llm              builds build/fuzz/fuzz_llm (clang -fsanitize=fuzzer,address,undefined)
 *                              and runs it for FUZZ_TIME seconds over tests/llm/corpus as seeds
 * tests/llm/test_fuzz_replay.c includes this file to replay the corpus in `make check`. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wgc/llm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fuzz_alloc { unsigned fail_at, count; } fuzz_alloc;

static void *fuzz_alloc_fn(void *user, size_t n) {
    fuzz_alloc *a = user;
    return ++a->count == a->fail_at ? NULL : malloc(n);
}

static void fuzz_free_fn(void *user, void *p) {
    (void)user;
    free(p);
}

static volatile unsigned char fuzz_sink;

static void fuzz_touch(const void *p, uint64_t n) {
    const unsigned char *b = p;
    if (!n) return;
    if (!p) __builtin_trap();
    fuzz_sink ^= b[0];
    fuzz_sink ^= b[n / 2];
    fuzz_sink ^= b[n - 1];
}

static void fuzz_value(const wl_value *v, int depth) {
    if (depth > 16) __builtin_trap();   /* GGUF nests at most 8 deep */
    uint64_t u;
    int64_t i;
    double f;
    bool b;
    const char *s;
    size_t len;
    (void)wl_value_u64(v, &u);
    (void)wl_value_i64(v, &i);
    (void)wl_value_f64(v, &f);
    (void)wl_value_bool(v, &b);
    if (wl_value_str(v, &s, &len) == WL_OK) fuzz_touch(s, len);
    if (v->type != WL_VALUE_ARRAY) {
        if ((unsigned)v->type >= WL_VALUE_COUNT || v->type == WL_VALUE_NONE) __builtin_trap();
        return;
    }
    if (wl_value_type_name(v->elem_type)[0] == '?') __builtin_trap();
    wl_value e;
    for (uint64_t k = 0; k < v->count; k++) {
        if (wl_value_at(v, k, &e) != WL_OK) __builtin_trap();
        fuzz_value(&e, depth + 1);
    }
    if (wl_value_at(v, v->count, &e) != WL_STATUS_NOT_FOUND) __builtin_trap();
}

static void fuzz_tokenizer(const wl_model *m, const wl_allocator *al, const uint8_t *data, size_t size) {
    wl_error err;
    wl_tokenizer *t = wl_tokenizer_open(m, al, &err);
    if (!t) {
        if (err.status == WL_OK || err.status >= WL_STATUS_COUNT || !err.message[0]) __builtin_trap();
        return;
    }
    uint32_t nv = wl_tokenizer_vocab_size(t);
    for (uint32_t i = 0; i < nv; i++) {
        size_t len;
        const char *s = wl_token_text(t, (int32_t)i, &len);
        if (!s) __builtin_trap();
        fuzz_touch(s, len);
        s = wl_token_piece(t, (int32_t)i, &len);
        if (!s) __builtin_trap();
        fuzz_touch(s, len);
    }
    int32_t ids[512];
    size_t n = 0;
    if (wl_tokenize(t, (const char *)data, size, WL_TOKENIZE_PARSE_SPECIAL | WL_TOKENIZE_ADD_SPECIAL, ids, 512, &n,
                    &err) == WL_OK) {
        char out[8192];
        size_t cap = wl_detok_cap(t), k;
        wl_detok d;
        wl_detok_init(&d, t, WL_DETOK_SPECIAL | WL_DETOK_STRIP_SPACE);
        for (size_t i = 0; i < n && i < 512; i++) {
            if (ids[i] < 0 || (uint32_t)ids[i] >= nv) __builtin_trap();
            if (cap <= sizeof out && wl_detok_push(&d, ids[i], out, cap, &k) != WL_OK) __builtin_trap();
        }
        if (cap <= sizeof out && wl_detok_flush(&d, out, cap, &k) != WL_OK) __builtin_trap();
    }
    wl_tokenizer_close(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    uint8_t sel = data[0];
    data++;
    size--;
    fuzz_alloc fa = { (unsigned)(sel >> 2), 0 };
    wl_allocator al = { fuzz_alloc_fn, fuzz_free_fn, &fa };
    wl_error err;
    wl_model *m = (sel & 1) ? wl_safetensors_open_memory(data, size, &al, &err)
                            : wl_gguf_open_memory(data, size, &al, &err);
    if (!m) {
        /* a failure is a status and a one-line, NUL-terminated message */
        if (err.status == WL_OK || err.status >= WL_STATUS_COUNT || !err.message[0] ||
            memchr(err.message, 0, sizeof err.message) == NULL)
            __builtin_trap();
        return 0;
    }
    uint64_t n = wl_model_metadata_count(m);
    for (uint64_t k = 0; k < n; k++) {
        const char *key = wl_model_metadata_key(m, k);
        const wl_value *v = wl_model_metadata_value(m, k);
        if (!key || !v || wl_model_find(m, key) != v) __builtin_trap();   /* keys are unique */
        fuzz_value(v, 0);
    }
    if (wl_model_metadata_key(m, n) || wl_model_metadata_value(m, n)) __builtin_trap();
    const unsigned char *lo = data, *hi = data + size;
    uint64_t tn = wl_model_tensor_count(m);
    for (uint64_t k = 0; k < tn; k++) {
        const wl_tensor_info *t = wl_model_tensor(m, k);
        if (!t || !t->name || wl_model_tensor_find(m, t->name) != t) __builtin_trap();
        if (t->dtype == WL_DTYPE_NONE || t->dtype >= WL_DTYPE_COUNT || t->n_dims < 1 || t->n_dims > WL_MAX_DIMS)
            __builtin_trap();
        if (t->offset > size || t->size > size - t->offset) __builtin_trap();
        const unsigned char *p = t->data;
        if (t->size && (p < lo || p > hi || t->size > (uint64_t)(hi - p))) __builtin_trap();
        if (t->size != t->elements / wl_dtype_block_elements(t->dtype) * wl_dtype_block_bytes(t->dtype))
            __builtin_trap();
        fuzz_touch(t->data, t->size);
        if (t->file != 0) __builtin_trap();
    }
    if (wl_model_tensor(m, tn)) __builtin_trap();
    if (!(sel & 1)) fuzz_tokenizer(m, &al, data, size);
    if (wl_model_file_count(m) != 1 || wl_model_file_size(m, 0) != size) __builtin_trap();
    wl_model_close(m);
    return 0;
}
