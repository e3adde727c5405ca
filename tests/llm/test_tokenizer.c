/* test_tokenizer.c - the tokenizers (src/llm/tokenizer.c).
 *
 * Without arguments (make check): GGUF vocabularies written here in memory.
 *   - byte-level BPE against a plain reference merge (the textbook loop: merge the adjacent pair
 *     of lowest rank, leftmost first, until none is left) on random one-word texts;
 *   - SentencePiece against a plain reference (merge the adjacent pair whose concatenation is the
 *     token of highest score; byte fallback);
 *   - every pre-tokenizer and SentencePiece: random UTF-8 texts round-trip through the streaming
 *     detokenizer fed one token at a time, and every chunk it writes is whole UTF-8;
 *   - the detokenizer on bytes split across tokens and on invalid bytes (U+FFFD);
 *   - hostile vocabularies (missing and mistyped keys, short arrays, duplicates, odd merges, bad
 *     byte tokens, out-of-range ids) open with an error or tokenize without reading out of
 *     bounds (make asan), and a failing allocation at every point of open and tokenize.
 * With --golden FILE.json --vocab VOCAB.gguf (tests/llm/test_tokenizer_golden.sh): the ids of
 * every case equal llama.cpp's (tests/llm/golden/gen_tokens.py wrote them), every valid UTF-8
 * text round-trips, and a 1 MiB text tokenizes in under a second. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test.h"
#include "llm/llm.h"

/* ---- a GGUF writer (metadata only) ---------------------------------------------------------- */
typedef struct buf { unsigned char *d; size_t n, cap; } buf;

static void put(buf *b, const void *p, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->d = realloc(b->d, b->cap);
    }
    memcpy(b->d + b->n, p, n);
    b->n += n;
}
static void u32(buf *b, uint32_t v) { put(b, &v, 4); }
static void u64(buf *b, uint64_t v) { put(b, &v, 8); }
static void strn(buf *b, const char *s, size_t n) { u64(b, n); put(b, s, n); }
static void str(buf *b, const char *s) { strn(b, s, strlen(s)); }

enum { T_U32 = 4, T_I32 = 5, T_F32 = 6, T_BOOL = 7, T_STR = 8, T_ARR = 9 };

typedef struct gguf { buf kv; uint64_t count; } gguf;

static void kv_str(gguf *g, const char *k, const char *v) { str(&g->kv, k); u32(&g->kv, T_STR); str(&g->kv, v); g->count++; }
static void kv_u32(gguf *g, const char *k, uint32_t v) { str(&g->kv, k); u32(&g->kv, T_U32); u32(&g->kv, v); g->count++; }
static void kv_bool(gguf *g, const char *k, int v) {
    unsigned char c = (unsigned char)v;
    str(&g->kv, k); u32(&g->kv, T_BOOL); put(&g->kv, &c, 1); g->count++;
}
static void kv_strs(gguf *g, const char *k, const char *const *v, size_t n) {
    str(&g->kv, k); u32(&g->kv, T_ARR); u32(&g->kv, T_STR); u64(&g->kv, n);
    for (size_t i = 0; i < n; i++) str(&g->kv, v[i]);
    g->count++;
}
static void kv_i32s(gguf *g, const char *k, const int32_t *v, size_t n) {
    str(&g->kv, k); u32(&g->kv, T_ARR); u32(&g->kv, T_I32); u64(&g->kv, n);
    put(&g->kv, v, n * 4);
    g->count++;
}
static void kv_f32s(gguf *g, const char *k, const float *v, size_t n) {
    str(&g->kv, k); u32(&g->kv, T_ARR); u32(&g->kv, T_F32); u64(&g->kv, n);
    put(&g->kv, v, n * 4);
    g->count++;
}

static buf gguf_bytes(gguf *g) {
    buf b = { 0 };
    put(&b, "GGUF", 4);
    u32(&b, 3);
    u64(&b, 0);
    u64(&b, g->count);
    put(&b, g->kv.d, g->kv.n);
    free(g->kv.d);
    memset(g, 0, sizeof *g);
    return b;
}

/* ---- a vocabulary under construction -------------------------------------------------------- */
typedef struct vocab {
    char *tok[4096];
    int32_t type[4096];
    float score[4096];
    size_t n;
    char *merge[4096];
    size_t nm;
} vocab;

static int vocab_add(vocab *v, const char *s, size_t len, int32_t type, float score) {
    v->tok[v->n] = malloc(len + 1);
    memcpy(v->tok[v->n], s, len);
    v->tok[v->n][len] = 0;
    v->type[v->n] = type;
    v->score[v->n] = score;
    return (int)v->n++;
}

static void vocab_free(vocab *v) {
    for (size_t i = 0; i < v->n; i++) free(v->tok[i]);
    for (size_t i = 0; i < v->nm; i++) free(v->merge[i]);
    memset(v, 0, sizeof *v);
}

static size_t put_utf8(uint32_t cp, char *o) {
    if (cp < 0x80) return o[0] = (char)cp, 1;
    if (cp < 0x800) return o[0] = (char)(0xc0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3f)), 2;
    if (cp < 0x10000)
        return o[0] = (char)(0xe0 | cp >> 12), o[1] = (char)(0x80 | ((cp >> 6) & 0x3f)), o[2] = (char)(0x80 | (cp & 0x3f)), 3;
    o[0] = (char)(0xf0 | cp >> 18), o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

static uint32_t byte_cp[256];

static void init_byte_cp(void) {   /* GPT-2's bytes_to_unicode, written out from its definition */
    uint32_t next = 256;
    for (int b = 0; b < 256; b++) {
        int printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || b >= 0xae;
        byte_cp[b] = printable ? (uint32_t)b : next++;
    }
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* The byte-level vocabulary: the 256 byte characters, then merges over the letters a..d. */
static void make_bpe(vocab *v, int nmerges) {
    memset(v, 0, sizeof *v);
    for (int b = 0; b < 256; b++) {
        char u[4];
        size_t k = put_utf8(byte_cp[b], u);
        vocab_add(v, u, k, 1, 0);
    }
    vocab_add(v, "<|im_start|>", 12, 3, 0);
    vocab_add(v, "<|im_end|>", 10, 3, 0);
    vocab_add(v, "<tool>", 6, 4, 0);
    /* merge operands: the letters and what earlier merges made */
    const char *made[512] = { "a", "b", "c", "d", "\xc4\xa0" /* Ġ: the space */ };
    size_t nmade = 5;
    while ((int)v->nm < nmerges) {
        const char *l = made[rnd((uint32_t)nmade)], *r = made[rnd((uint32_t)nmade)];
        char m[256], c[256];
        if (strlen(l) + strlen(r) > 60) continue;
        snprintf(m, sizeof m, "%s %s", l, r);
        snprintf(c, sizeof c, "%s%s", l, r);
        int dup = 0;
        for (size_t i = 0; i < v->nm; i++) dup |= !strcmp(v->merge[i], m);
        if (dup) continue;
        v->merge[v->nm++] = strcpy(malloc(strlen(m) + 1), m);
        int have = 0;
        for (size_t i = 0; i < v->n; i++) have |= !strcmp(v->tok[i], c);
        if (!have) {
            int id = vocab_add(v, c, strlen(c), 1, 0);
            made[nmade++] = v->tok[id];
        }
    }
}

static buf bpe_file(vocab *v, const char *pre) {
    gguf g = { 0 };
    kv_str(&g, "general.architecture", "llama");
    kv_str(&g, "tokenizer.ggml.model", "gpt2");
    kv_str(&g, "tokenizer.ggml.pre", pre);
    kv_strs(&g, "tokenizer.ggml.tokens", (const char *const *)v->tok, v->n);
    kv_i32s(&g, "tokenizer.ggml.token_type", v->type, v->n);
    kv_strs(&g, "tokenizer.ggml.merges", (const char *const *)v->merge, v->nm);
    kv_u32(&g, "tokenizer.ggml.bos_token_id", 256);
    kv_u32(&g, "tokenizer.ggml.eos_token_id", 257);
    kv_bool(&g, "tokenizer.ggml.add_bos_token", 0);
    return gguf_bytes(&g);
}

/* SentencePiece: <unk> <s> </s>, the byte tokens, then pieces over a b c ▁ with scores. */
static void make_spm(vocab *v) {
    memset(v, 0, sizeof *v);
    vocab_add(v, "<unk>", 5, 2, 0);
    vocab_add(v, "<s>", 3, 3, 0);
    vocab_add(v, "</s>", 4, 3, 0);
    for (int b = 0; b < 256; b++) {
        char s[8];
        snprintf(s, sizeof s, "<0x%02X>", b);
        vocab_add(v, s, 6, 6, 0);
    }
    vocab_add(v, "<|im_start|>", 12, 3, 0);
    vocab_add(v, "<tool>", 6, 4, 0);
    const char *alpha[] = { "a", "b", "c", "\xe2\x96\x81", "\xc3\xa9" };
    for (size_t i = 0; i < 5; i++) vocab_add(v, alpha[i], strlen(alpha[i]), 1, -(float)i);
    for (int i = 0; v->n < 420; i++) {   /* concatenations of existing pieces, random scores */
        size_t a = 261 + rnd((uint32_t)(v->n - 261)), b = 261 + rnd((uint32_t)(v->n - 261));
        char c[128];
        if (strlen(v->tok[a]) + strlen(v->tok[b]) > 40 || v->type[a] != 1 || v->type[b] != 1) continue;
        snprintf(c, sizeof c, "%s%s", v->tok[a], v->tok[b]);
        int have = 0;
        for (size_t k = 0; k < v->n; k++) have |= !strcmp(v->tok[k], c);
        if (!have) vocab_add(v, c, strlen(c), 1, -(float)(rnd(1000)) - (float)(rnd(100)) / 128.0f);
    }
}

static buf spm_file(vocab *v) {
    gguf g = { 0 };
    kv_str(&g, "general.architecture", "llama");
    kv_str(&g, "tokenizer.ggml.model", "llama");
    kv_strs(&g, "tokenizer.ggml.tokens", (const char *const *)v->tok, v->n);
    kv_i32s(&g, "tokenizer.ggml.token_type", v->type, v->n);
    kv_f32s(&g, "tokenizer.ggml.scores", v->score, v->n);
    return gguf_bytes(&g);
}

static wl_tokenizer *open_bytes(buf *b, const wl_allocator *al, wl_error *err) {
    wl_model *m = wl_gguf_open_memory(b->d, b->n, NULL, err);
    if (!m) return NULL;
    wl_tokenizer *t = wl_tokenizer_open(m, al, err);
    wl_model_close(m);
    return t;
}

/* ---- helpers -------------------------------------------------------------------------------- */
static int utf8_valid(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (!len || i + len > n) return 0;
        uint32_t cp = len == 1 ? c : c & (0x7f >> len);
        for (size_t k = 1; k < len; k++) {
            if (((unsigned char)s[i + k] & 0xc0) != 0x80) return 0;
            cp = cp << 6 | ((unsigned char)s[i + k] & 0x3f);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += len;
    }
    return 1;
}

static int32_t *tokenize(const wl_tokenizer *t, const char *s, size_t n, uint32_t flags, size_t *count) {
    wl_error err;
    size_t k = 0;
    wl_status st = wl_tokenize(t, s, n, flags, NULL, 0, &k, &err);
    CHECKF(st == WL_OK, "%s", err.message);
    int32_t *ids = malloc((k + 1) * sizeof *ids);
    size_t k2 = 0;
    st = wl_tokenize(t, s, n, flags, ids, k, &k2, &err);
    CHECK(st == WL_OK && k2 == k);
    *count = k;
    return ids;
}

/* The streaming detokenizer over ids, one at a time; every chunk must be whole UTF-8. */
static char *detok(const wl_tokenizer *t, const int32_t *ids, size_t n, uint32_t flags, size_t *len) {
    size_t cap = wl_detok_cap(t), total = 0;
    char *out = malloc(n * cap + cap + 1), *chunk = malloc(cap);
    wl_detok d;
    wl_detok_init(&d, t, flags);
    int whole = 1;
    for (size_t i = 0; i < n; i++) {
        size_t k;
        CHECK(wl_detok_push(&d, ids[i], chunk, cap, &k) == WL_OK);
        whole &= utf8_valid(chunk, k);
        memcpy(out + total, chunk, k);
        total += k;
    }
    size_t k;
    CHECK(wl_detok_flush(&d, chunk, cap, &k) == WL_OK);
    whole &= utf8_valid(chunk, k);
    memcpy(out + total, chunk, k);
    total += k;
    CHECKF(whole, "a detokenizer chunk is not whole UTF-8");
    free(chunk);
    out[total] = 0;
    *len = total;
    return out;
}

/* A random UTF-8 text mixing what pre-tokenizers care about. */
static size_t random_text(char *o, size_t maxcp) {
    static const uint32_t pool[] = { 'a', 'b', 'c', 'd', 'A', ' ', ' ', ' ', '\n', '\r', '\t', '1', '2', '\'',
                                     's', '.', ',', '!', 0xe9, 0x4e2d, 0x1f389, 0x663, 0xff11, 0x301, 0xa0, 0x3000,
                                     '<', '|', '>' };
    size_t n = rnd((uint32_t)maxcp + 1), k = 0;
    for (size_t i = 0; i < n; i++) k += put_utf8(pool[rnd(sizeof pool / sizeof pool[0])], o + k);
    o[k] = 0;
    return k;
}

/* ---- references ----------------------------------------------------------------------------- */
static int find_tok(const vocab *v, const char *s, size_t n) {
    for (size_t i = 0; i < v->n; i++)
        if (strlen(v->tok[i]) == n && !memcmp(v->tok[i], s, n)) return (int)i;
    return -1;
}

/* Textbook BPE over one word of byte characters: merge the lowest-rank adjacent pair (leftmost
 * among equals) until no pair has a rank. */
static size_t ref_bpe(const vocab *v, const char *w, int32_t *out) {
    char sym[256][128];
    size_t n = 0;
    for (size_t i = 0; w[i];) {
        size_t l = ((unsigned char)w[i] & 0xe0) == 0xc0 ? 2 : 1;
        memcpy(sym[n], w + i, l);
        sym[n++][l] = 0;
        i += l;
    }
    for (;;) {
        size_t best = SIZE_MAX, at = 0;
        for (size_t i = 0; i + 1 < n; i++) {
            char m[300];
            snprintf(m, sizeof m, "%.127s %.127s", sym[i], sym[i + 1]);
            for (size_t r = 0; r < v->nm && r < best; r++)
                if (!strcmp(v->merge[r], m)) best = r, at = i;
        }
        if (best == SIZE_MAX) break;
        size_t la = strlen(sym[at]), lb = strlen(sym[at + 1]);
        memcpy(sym[at] + la, sym[at + 1], lb + 1);
        memmove(sym[at + 1], sym[at + 2], (n - at - 2) * sizeof sym[0]);
        n--;
    }
    for (size_t i = 0; i < n; i++) out[i] = find_tok(v, sym[i], strlen(sym[i]));
    return n;
}

/* SentencePiece: merge the adjacent pair whose concatenation is the highest-scoring token
 * (leftmost among equals); characters that are no token become byte tokens. */
static size_t ref_spm(const vocab *v, const char *text, int32_t *out) {
    char w[1024];
    size_t k = 0;
    memcpy(w, "\xe2\x96\x81", 3), k = 3;   /* the space prefix */
    for (size_t i = 0; text[i]; i++) {
        if (text[i] == ' ') memcpy(w + k, "\xe2\x96\x81", 3), k += 3;
        else w[k++] = text[i];
    }
    size_t off[1024], len[1024], n = 0;
    for (size_t i = 0; i < k;) {
        unsigned c = (unsigned char)w[i];
        size_t l = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
        off[n] = i, len[n++] = l;
        i += l;
    }
    for (;;) {
        int best = -1;
        float bs = 0;
        for (size_t i = 0; i + 1 < n; i++) {
            int id = find_tok(v, w + off[i], len[i] + len[i + 1]);
            if (id >= 0 && (best < 0 || v->score[id] > bs)) best = (int)i, bs = v->score[id];
        }
        if (best < 0) break;
        len[best] += len[best + 1];
        memmove(off + best + 1, off + best + 2, (n - best - 2) * sizeof off[0]);
        memmove(len + best + 1, len + best + 2, (n - best - 2) * sizeof len[0]);
        n--;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        int id = find_tok(v, w + off[i], len[i]);
        if (id >= 0) {
            out[m++] = id;
            continue;
        }
        for (size_t j = 0; j < len[i]; j++) {
            char s[8];
            snprintf(s, sizeof s, "<0x%02X>", (unsigned char)w[off[i] + j]);
            out[m++] = find_tok(v, s, 6);
        }
    }
    return m;
}

/* ---- the tests ------------------------------------------------------------------------------ */
static void test_bpe_reference(void) {
    vocab v;
    make_bpe(&v, 120);
    buf b = bpe_file(&v, "gpt-2");
    wl_error err;
    wl_tokenizer *t = open_bytes(&b, NULL, &err);
    CHECKF(t != NULL, "%s", err.message);
    if (!t) return;
    CHECK(wl_tokenizer_kind(t) == WL_VOCAB_BPE && wl_tokenizer_pretok(t) == WL_PRETOK_GPT2);
    CHECK_EQ_INT(wl_tokenizer_vocab_size(t), v.n);
    int mismatches = 0;
    for (int i = 0; i < 400; i++) {
        char text[64];
        size_t n = 1 + rnd(40);
        for (size_t k = 0; k < n; k++) text[k] = "abcd"[rnd(4)];
        text[n] = 0;
        int32_t want[64];
        size_t nw = ref_bpe(&v, text, want), got;
        int32_t *ids = tokenize(t, text, n, 0, &got);
        int same = got == nw && !memcmp(ids, want, nw * sizeof *ids);
        if (!same && mismatches++ < 3) fprintf(stderr, "bpe: '%s': %zu ids, reference %zu\n", text, got, nw);
        CHECK(same);
        free(ids);
    }
    wl_tokenizer_close(t);
    free(b.d);
    vocab_free(&v);
}

static void test_spm_reference(void) {
    vocab v;
    make_spm(&v);
    buf b = spm_file(&v);
    wl_error err;
    wl_tokenizer *t = open_bytes(&b, NULL, &err);
    CHECKF(t != NULL, "%s", err.message);
    if (!t) return;
    const wl_special_tokens *sp = wl_tokenizer_special(t);
    CHECK(wl_tokenizer_kind(t) == WL_VOCAB_SPM && sp->bos == 1 && sp->eos == 2 && sp->unk == 0);
    CHECK(sp->add_bos && !sp->add_eos && sp->add_space_prefix);
    int mismatches = 0;
    for (int i = 0; i < 400; i++) {
        static const char *const parts[] = { "a", "b", "c", " ", "\xc3\xa9", "\xe4\xb8\xad", "x" };
        char text[256];
        size_t n = 0, parts_n = 1 + rnd(30);
        for (size_t k = 0; k < parts_n; k++) {
            const char *p = parts[rnd(7)];
            memcpy(text + n, p, strlen(p));
            n += strlen(p);
        }
        text[n] = 0;
        int32_t want[1024];
        size_t nw = ref_spm(&v, text, want), got;
        int32_t *ids = tokenize(t, text, n, 0, &got);
        int same = got == nw && !memcmp(ids, want, nw * sizeof *ids);
        if (!same && mismatches++ < 3) fprintf(stderr, "spm: '%s': %zu ids, reference %zu\n", text, got, nw);
        CHECK(same);
        free(ids);
        /* BOS with ADD_SPECIAL; round trip dropping the prefix space */
        ids = tokenize(t, text, n, WL_TOKENIZE_ADD_SPECIAL, &got);
        CHECK(got == nw + 1 && ids[0] == 1);
        size_t dl;
        char *back = detok(t, ids, got, WL_DETOK_STRIP_SPACE, &dl);
        CHECKF(dl == n && !memcmp(back, text, n), "spm round trip '%s' -> '%s'", text, back);
        free(back);
        free(ids);
    }
    wl_tokenizer_close(t);
    free(b.d);
    vocab_free(&v);
}

static void test_round_trip(void) {
    static const char *const pres[] = { "gpt-2", "llama-bpe", "qwen2", "smollm", NULL };
    for (int p = 0; pres[p] || p == 4; p++) {
        vocab v;
        buf b;
        if (pres[p]) {
            make_bpe(&v, 60);
            b = bpe_file(&v, pres[p]);
        } else {
            make_spm(&v);
            b = spm_file(&v);
        }
        wl_error err;
        wl_tokenizer *t = open_bytes(&b, NULL, &err);
        CHECKF(t != NULL, "%s", err.message);
        for (int i = 0; t && i < 300; i++) {
            char text[1024];
            size_t n = random_text(text, 60), got, dl;
            uint32_t fl = i & 1 ? WL_TOKENIZE_PARSE_SPECIAL : 0;
            int32_t *ids = tokenize(t, text, n, fl, &got);
            char *back = detok(t, ids, got, WL_DETOK_SPECIAL | WL_DETOK_STRIP_SPACE, &dl);
            CHECKF(dl == n && !memcmp(back, text, n), "%s: round trip of '%s' gives '%s'", pres[p] ? pres[p] : "spm",
                   text, back);
            free(back);
            free(ids);
        }
        if (pres[p]) {   /* the empty text, and a text that is all special tokens */
            size_t got;
            int32_t *ids = tokenize(t, "", 0, 0, &got);
            CHECK_EQ_INT(got, 0);
            free(ids);
            ids = tokenize(t, "<|im_start|><tool><|im_end|>", 28, WL_TOKENIZE_PARSE_SPECIAL, &got);
            CHECK(got == 3 && ids[0] == 256 && ids[1] == 258 && ids[2] == 257);
            free(ids);
            ids = tokenize(t, "<tool><|im_end|>", 16, 0, &got);   /* user-defined is still matched */
            CHECK(got > 2 && ids[0] == 258);
            free(ids);
        }
        wl_tokenizer_close(t);
        free(b.d);
        vocab_free(&v);
        if (!pres[p]) break;
    }
}

static void test_detok_stream(void) {
    vocab v;
    make_bpe(&v, 10);
    buf b = bpe_file(&v, "gpt-2");
    wl_error err;
    wl_tokenizer *t = open_bytes(&b, NULL, &err);
    CHECKF(t != NULL, "%s", err.message);
    if (!t) return;
    /* "é中🎉" as single-byte tokens: the detokenizer holds bytes until a character is whole */
    const unsigned char text[] = "\xc3\xa9\xe4\xb8\xad\xf0\x9f\x8e\x89";
    size_t cap = wl_detok_cap(t), k;
    char *out = malloc(cap);
    wl_detok d;
    wl_detok_init(&d, t, 0);
    size_t expect_at[] = { 0, 2, 0, 0, 3, 0, 0, 0, 4 };
    for (size_t i = 0; i < 9; i++) {
        int32_t id = -1;
        for (int32_t x = 0; x < 256; x++) {
            size_t pl;
            const char *p = wl_token_piece(t, x, &pl);
            if (pl == 1 && (unsigned char)p[0] == text[i]) id = x;
        }
        CHECK(id >= 0 && wl_detok_push(&d, id, out, cap, &k) == WL_OK);
        CHECKF(k == expect_at[i], "after byte %zu: %zu bytes out", i, k);
    }
    CHECK(wl_detok_flush(&d, out, cap, &k) == WL_OK && k == 0);
    /* a cut sequence at the end and an invalid byte: U+FFFD each */
    int32_t lead = -1, bad = -1, a = wl_token_find(t, "a", 1);
    for (int32_t x = 0; x < 256; x++) {
        size_t pl;
        const char *p = wl_token_piece(t, x, &pl);
        if ((unsigned char)p[0] == 0xe4) lead = x;
        if ((unsigned char)p[0] == 0xff) bad = x;
    }
    CHECK(wl_detok_push(&d, bad, out, cap, &k) == WL_OK && k == 3 && !memcmp(out, "\xef\xbf\xbd", 3));
    CHECK(wl_detok_push(&d, lead, out, cap, &k) == WL_OK && k == 0);
    CHECK(wl_detok_push(&d, a, out, cap, &k) == WL_OK && k == 4 && !memcmp(out, "\xef\xbf\xbd" "a", 4));
    CHECK(wl_detok_push(&d, lead, out, cap, &k) == WL_OK && k == 0);
    CHECK(wl_detok_flush(&d, out, cap, &k) == WL_OK && k == 3);
    /* control tokens are skipped unless asked for; bad arguments */
    CHECK(wl_detok_push(&d, 256, out, cap, &k) == WL_OK && k == 0);
    wl_detok_init(&d, t, WL_DETOK_SPECIAL);
    CHECK(wl_detok_push(&d, 256, out, cap, &k) == WL_OK && k == 12 && !memcmp(out, "<|im_start|>", 12));
    CHECK(wl_detok_push(&d, (int32_t)v.n, out, cap, &k) == WL_STATUS_INVALID_ARGUMENT);
    CHECK(wl_detok_push(&d, -1, out, cap, &k) == WL_STATUS_INVALID_ARGUMENT);
    CHECK(wl_detok_push(&d, 0, out, cap - 1, &k) == WL_STATUS_INVALID_ARGUMENT);
    /* accessors */
    size_t tl;
    CHECK(wl_token_text(t, 256, &tl) && tl == 12 && wl_token_get_type(t, 256) == WL_TOKEN_CONTROL);
    CHECK(!wl_token_text(t, -1, &tl) && !wl_token_piece(t, (int32_t)v.n, &tl));
    CHECK(wl_token_find(t, "<tool>", 6) == 258 && wl_token_find(t, "zzz", 3) == -1);
    CHECK_STR(wl_pretok_name(WL_PRETOK_SMOLLM), "smollm");
    /* the snprintf-like count */
    int32_t few[2];
    size_t n;
    CHECK(wl_tokenize(t, "a b c d e", 9, 0, few, 2, &n, &err) == WL_OK && n > 2);
    free(out);
    wl_tokenizer_close(t);
    free(b.d);
    vocab_free(&v);
}

/* Writes a vocabulary with one thing wrong; it must open with the given status or, when want
 * is WL_OK, open and tokenize random text without reading out of bounds. */
static void hostile(const char *what, buf b, wl_status want) {
    wl_error err;
    wl_model *m = wl_gguf_open_memory(b.d, b.n, NULL, &err);
    CHECKF(m != NULL, "%s: %s", what, err.message);
    wl_tokenizer *t = m ? wl_tokenizer_open(m, NULL, &err) : NULL;
    if (want == WL_OK) {
        CHECKF(t != NULL, "%s: %s", what, err.message);
    } else {
        CHECKF(!t && err.status == want && err.message[0], "%s: status %s (%s)", what, wl_status_name(err.status),
               err.message);
    }
    wl_model_close(m);
    for (int i = 0; t && i < 50; i++) {
        char text[1024];
        size_t n = random_text(text, 40), got, dl;
        int32_t *ids = tokenize(t, text, n, WL_TOKENIZE_PARSE_SPECIAL | WL_TOKENIZE_ADD_SPECIAL, &got);
        for (size_t k = 0; k < got; k++) CHECK(ids[k] >= 0 && (uint32_t)ids[k] < wl_tokenizer_vocab_size(t));
        free(detok(t, ids, got, WL_DETOK_SPECIAL, &dl));
        free(ids);
    }
    wl_tokenizer_close(t);
    free(b.d);
}

static void test_hostile(void) {
    vocab v;
    make_bpe(&v, 30);
    gguf g = { 0 };
    kv_str(&g, "general.architecture", "llama");
    hostile("no tokenizer", gguf_bytes(&g), WL_STATUS_NOT_FOUND);
    kv_str(&g, "tokenizer.ggml.model", "bert");
    hostile("bert", gguf_bytes(&g), WL_STATUS_UNSUPPORTED);
    kv_str(&g, "tokenizer.ggml.model", "gpt2");
    kv_strs(&g, "tokenizer.ggml.tokens", (const char *const *)v.tok, v.n);
    kv_strs(&g, "tokenizer.ggml.merges", (const char *const *)v.merge, v.nm);
    hostile("no pre", gguf_bytes(&g), WL_STATUS_UNSUPPORTED);
    kv_str(&g, "tokenizer.ggml.model", "gpt2");
    kv_str(&g, "tokenizer.ggml.pre", "nonesuch");
    kv_strs(&g, "tokenizer.ggml.tokens", (const char *const *)v.tok, v.n);
    kv_strs(&g, "tokenizer.ggml.merges", (const char *const *)v.merge, v.nm);
    hostile("unknown pre", gguf_bytes(&g), WL_STATUS_UNSUPPORTED);
    kv_str(&g, "tokenizer.ggml.model", "gpt2");
    kv_str(&g, "tokenizer.ggml.pre", "gpt-2");
    kv_strs(&g, "tokenizer.ggml.tokens", (const char *const *)v.tok, v.n);
    hostile("no merges", gguf_bytes(&g), WL_STATUS_FORMAT);
    kv_str(&g, "tokenizer.ggml.model", "gpt2");
    kv_str(&g, "tokenizer.ggml.pre", "gpt-2");
    kv_u32(&g, "tokenizer.ggml.tokens", 5);
    kv_strs(&g, "tokenizer.ggml.merges", (const char *const *)v.merge, v.nm);
    hostile("tokens not an array", gguf_bytes(&g), WL_STATUS_FORMAT);
    kv_str(&g, "tokenizer.ggml.model", "gpt2");
    kv_str(&g, "tokenizer.ggml.pre", "gpt-2");
    kv_i32s(&g, "tokenizer.ggml.tokens", v.type, v.n);
    kv_strs(&g, "tokenizer.ggml.merges", (const char *const *)v.merge, v.nm);
    hostile("tokens of integers", gguf_bytes(&g), WL_STATUS_FORMAT);
    kv_str(&g, "tokenizer.ggml.model", "gpt2");
    kv_str(&g, "tokenizer.ggml.pre", "gpt-2");
    kv_strs(&g, "tokenizer.ggml.tokens", (const char *const *)v.tok, v.n);
    kv_i32s(&g, "tokenizer.ggml.token_type", v.type, v.n - 1);
    kv_strs(&g, "tokenizer.ggml.merges", (const char *const *)v.merge, v.nm);
    hostile("short token_type", gguf_bytes(&g), WL_STATUS_FORMAT);
    kv_str(&g, "tokenizer.ggml.model", "llama");
    kv_strs(&g, "tokenizer.ggml.tokens", (const char *const *)v.tok, v.n);
    kv_f32s(&g, "tokenizer.ggml.scores", v.score, 3);
    hostile("short scores", gguf_bytes(&g), WL_STATUS_FORMAT);
    /* duplicates */
    const char *dup[3] = { "a", "b", "a" };
    kv_str(&g, "tokenizer.ggml.model", "llama");
    kv_strs(&g, "tokenizer.ggml.tokens", dup, 3);
    hostile("duplicate token", gguf_bytes(&g), WL_STATUS_FORMAT);
    /* opens: odd merges, empty tokens, bad types and byte tokens, ids out of range */
    const char *odd_tok[] = { "", "a", "b", "ab", "<0xZZ>", "<0x4>", "<|x|>", "", "\xff\xfe", "\xc4\xa0" };
    int32_t odd_ty[] = { 1, 1, 1, 1, 6, 6, 3, 3, 77, -5 };
    const char *odd_merge[] = { "a b", "a b", "ab", "a ", " a", "zz qq", "", "ab ab", "\xff \xfe", "a  b" };
    kv_str(&g, "tokenizer.ggml.model", "gpt2");
    kv_str(&g, "tokenizer.ggml.pre", "smollm");
    kv_strs(&g, "tokenizer.ggml.tokens", odd_tok, 10);
    kv_i32s(&g, "tokenizer.ggml.token_type", odd_ty, 10);
    kv_strs(&g, "tokenizer.ggml.merges", odd_merge, 10);
    kv_u32(&g, "tokenizer.ggml.bos_token_id", 99999);
    kv_u32(&g, "tokenizer.ggml.eos_token_id", 6);
    kv_bool(&g, "tokenizer.ggml.add_bos_token", 1);
    kv_bool(&g, "tokenizer.ggml.add_eos_token", 1);
    hostile("odd byte-level vocabulary", gguf_bytes(&g), WL_OK);
    kv_str(&g, "tokenizer.ggml.model", "llama");
    kv_strs(&g, "tokenizer.ggml.tokens", odd_tok, 10);
    kv_i32s(&g, "tokenizer.ggml.token_type", odd_ty, 10);
    kv_u32(&g, "tokenizer.ggml.unknown_token_id", 4);
    hostile("odd SentencePiece vocabulary", gguf_bytes(&g), WL_OK);
    const char *one[] = { "x" };
    kv_str(&g, "tokenizer.ggml.model", "llama");
    kv_strs(&g, "tokenizer.ggml.tokens", one, 1);
    hostile("one-token SentencePiece vocabulary", gguf_bytes(&g), WL_OK);
    vocab_free(&v);
}

typedef struct failer { int at, count; } failer;
static void *fail_alloc(void *u, size_t n) {
    failer *f = u;
    return ++f->count == f->at ? NULL : malloc(n);
}
static void fail_free(void *u, void *p) { (void)u; free(p); }

static void test_alloc_failures(void) {
    for (int kind = 0; kind < 2; kind++) {
        vocab v;
        buf b;
        if (kind) make_spm(&v), b = spm_file(&v);
        else make_bpe(&v, 40), b = bpe_file(&v, "smollm");
        wl_model *m = wl_gguf_open_memory(b.d, b.n, NULL, NULL);
        CHECK(m != NULL);
        const char *text = "<|im_start|>ab cd  \xe4\xb8\xad 12 abc\n\n<tool> ab";
        int opened = 0, tokenized = 0;
        for (int at = 1; at < 200 && !tokenized; at++) {
            failer f = { at, 0 };
            wl_allocator al = { fail_alloc, fail_free, &f };
            wl_error err;
            wl_tokenizer *t = wl_tokenizer_open(m, &al, &err);
            if (!t) {
                CHECKF(err.status == WL_STATUS_OUT_OF_MEMORY, "allocation %d: %s", at, err.message);
                continue;
            }
            opened = 1;
            int32_t ids[256];
            size_t n;
            wl_status s = wl_tokenize(t, text, strlen(text), WL_TOKENIZE_PARSE_SPECIAL, ids, 256, &n, &err);
            CHECK(s == WL_OK || s == WL_STATUS_OUT_OF_MEMORY);
            tokenized = s == WL_OK;
            wl_tokenizer_close(t);
        }
        CHECK(opened && tokenized);
        wl_model_close(m);
        free(b.d);
        vocab_free(&v);
    }
}

/* ---- tokenizer.json ------------------------------------------------------------------------ */
static char tmpdir[64];

static void write_file(const char *name, const char *text) {
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    CHECKF(f != NULL, "cannot write %s", path);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* tokenizer.json text: it must open with status want; when it opens, random text tokenizes and
 * round-trips. */
static void json_case(const char *what, const char *json, wl_status want) {
    write_file("tokenizer.json", json);
    wl_error err;
    wl_model *m = wl_model_open(tmpdir, NULL, &err);
    CHECKF(m != NULL, "%s: %s", what, err.message);
    if (!m) return;
    wl_tokenizer *t = wl_tokenizer_open(m, NULL, &err);
    wl_model_close(m);
    if (want != WL_OK) {
        CHECKF(!t && err.status == want && err.message[0], "%s: status %s (%s)", what, wl_status_name(err.status),
               err.message);
        wl_tokenizer_close(t);
        return;
    }
    CHECKF(t != NULL, "%s: %s", what, err.message);
    if (t) CHECK(wl_tokenizer_kind(t) == (strstr(what, "SentencePiece") ? WL_VOCAB_SPM : WL_VOCAB_BPE));
    for (int i = 0; t && i < 100; i++) {
        char text[1024];
        size_t n = random_text(text, 40), got, dl;
        int32_t *ids = tokenize(t, text, n, WL_TOKENIZE_PARSE_SPECIAL, &got);
        char *back = detok(t, ids, got, WL_DETOK_SPECIAL | WL_DETOK_STRIP_SPACE, &dl);
        if (strstr(what, "round-trip")) CHECKF(dl == n && !memcmp(back, text, n), "%s: '%s' -> '%s'", what, text, back);
        free(back);
        free(ids);
    }
    wl_tokenizer_close(t);
}

static void test_tokenizer_json(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/wgc-tok-XXXXXX");
    CHECK(mkdtemp(tmpdir) != NULL);
    static const char hdr[] = "{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
    char path[128];
    snprintf(path, sizeof path, "%s/model.safetensors", tmpdir);
    FILE *f = fopen(path, "wb");
    if (f) {
        uint64_t hl = sizeof hdr - 1;
        fwrite(&hl, 8, 1, f);
        fwrite(hdr, 1, sizeof hdr - 1, f);
        fwrite("\0\0\0\0", 1, 4, f);
        fclose(f);
    }
    /* a byte-level vocabulary: the 256 byte characters as "vocab", merges over a b c */
    char *bytes = malloc(1 << 16);
    size_t k = 0;
    k += (size_t)sprintf(bytes + k, "{");
    for (int b = 0; b < 256; b++) {
        char u[8];
        size_t ul = put_utf8(byte_cp[b], u);
        u[ul] = 0;
        if (byte_cp[b] == '"' || byte_cp[b] == '\\') k += (size_t)sprintf(bytes + k, "%s\"\\%s\":%d", b ? "," : "", u, b);
        else k += (size_t)sprintf(bytes + k, "%s\"%s\":%d", b ? "," : "", u, b);
    }
    k += (size_t)sprintf(bytes + k, ",\"ab\":256,\"abc\":257,\"\u0120a\":258}");
    char *doc = malloc(1 << 17);
    const char *pre_gpt2 = "{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"use_regex\":true}";
    const char *added = "[{\"id\":259,\"content\":\"<|im_start|>\",\"special\":true},"
                        "{\"id\":261,\"content\":\"<tool>\",\"special\":false}]";
#define DOC(pre, vocab, merges, add) (snprintf(doc, 1 << 17, \
    "{\"added_tokens\":%s,\"pre_tokenizer\":%s,\"model\":{\"type\":\"BPE\",\"vocab\":%s,\"merges\":%s}}", \
    add, pre, vocab, merges), doc)
    json_case("byte-level round-trip", DOC(pre_gpt2, bytes, "[\"a b\",[\"ab\",\"c\"],\"\u0120 a\"]", added), WL_OK);
    json_case("odd merges round-trip", DOC(pre_gpt2, bytes, "[\"ab\",\"a \",\" b\",\"zz qq\",\"a b\",\"a b\"]", added), WL_OK);
    json_case("merge of 3", DOC(pre_gpt2, bytes, "[[\"a\",\"b\",\"c\"]]", added), WL_STATUS_FORMAT);
    json_case("merge a number", DOC(pre_gpt2, bytes, "[5]", added), WL_STATUS_FORMAT);
    json_case("vocab id negative", DOC(pre_gpt2, "{\"a\":-1}", "[]", "[]"), WL_STATUS_FORMAT);
    json_case("vocab id huge", DOC(pre_gpt2, "{\"a\":99999999999}", "[]", "[]"), WL_STATUS_FORMAT);
    json_case("vocab id fraction", DOC(pre_gpt2, "{\"a\":1.5}", "[]", "[]"), WL_STATUS_FORMAT);
    json_case("vocab duplicate", DOC(pre_gpt2, "{\"a\":0,\"b\":1}", "[]", "[{\"id\":2,\"content\":\"a\"}]"),
              WL_STATUS_FORMAT);
    json_case("vocab holes", DOC(pre_gpt2, "{\"a\":0,\"b\":7}", "[\"a b\"]", "[{\"id\":30,\"content\":\"<x>\"}]"), WL_OK);
    json_case("empty vocab", DOC(pre_gpt2, "{}", "[]", "[]"), WL_STATUS_FORMAT);
    json_case("vocab not object", DOC(pre_gpt2, "[]", "[]", "[]"), WL_STATUS_FORMAT);
    json_case("added bad", DOC(pre_gpt2, bytes, "[]", "[{\"id\":\"x\"}]"), WL_STATUS_FORMAT);
    json_case("unknown pre", DOC("{\"type\":\"Whitespace\"}", bytes, "[]", "[]"), WL_STATUS_UNSUPPORTED);
    json_case("splitting Metaspace",
              "{\"pre_tokenizer\":{\"type\":\"Metaspace\",\"replacement\":\"\u2581\",\"split\":true},"
              "\"model\":{\"type\":\"BPE\",\"byte_fallback\":true,\"vocab\":{\"a\":0},\"merges\":[]}}",
              WL_STATUS_UNSUPPORTED);
    json_case("WordPiece", "{\"model\":{\"type\":\"WordPiece\",\"vocab\":{\"a\":0}}}", WL_STATUS_UNSUPPORTED);
    json_case("not JSON", "{\"model\":", WL_STATUS_FORMAT);
    json_case("not an object", "[1]", WL_STATUS_FORMAT);
    /* SentencePiece form: byte tokens, pieces over a b, Prepend + Replace */
    k = (size_t)sprintf(doc, "{\"added_tokens\":[{\"id\":0,\"content\":\"<unk>\",\"special\":true}],"
                             "\"normalizer\":{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"Prepend\",\"prepend\":\"\u2581\"},"
                             "{\"type\":\"Replace\",\"pattern\":{\"String\":\" \"},\"content\":\"\u2581\"}]},"
                             "\"pre_tokenizer\":null,\"model\":{\"type\":\"BPE\",\"byte_fallback\":true,"
                             "\"unk_token\":\"<unk>\",\"vocab\":{");
    for (int b = 0; b < 256; b++) k += (size_t)sprintf(doc + k, "\"<0x%02X>\":%d,", b, b + 1);
    sprintf(doc + k, "\"a\":257,\"b\":258,\"\u2581\":259,\"ab\":260,\"\u2581a\":261,\"\u2581ab\":262},"
                     "\"merges\":[\"a b\",\"\u2581 a\",\"\u2581a b\",\"\u2581 ab\"]}}");
    json_case("SentencePiece form round-trip", doc, WL_OK);
    write_file("tokenizer_config.json", "{\"add_bos_token\":false,\"bos_token\":{\"content\":\"<unk>\"},\"eos_token\":7}");
    json_case("SentencePiece form with a config round-trip", doc, WL_OK);
    {   /* every allocation of the tokenizer.json path failing in turn */
        wl_error err;
        wl_model *m = wl_model_open(tmpdir, NULL, &err);
        int opened = 0;
        for (int at = 1; m && at < 400 && !opened; at++) {
            failer fl = { at, 0 };
            wl_allocator al = { fail_alloc, fail_free, &fl };
            wl_tokenizer *t = wl_tokenizer_open(m, &al, &err);
            CHECKF(t || err.status == WL_STATUS_OUT_OF_MEMORY, "allocation %d: %s", at, err.message);
            opened = t != NULL;
            wl_tokenizer_close(t);
        }
        CHECK(opened);
        wl_model_close(m);
    }
    write_file("tokenizer_config.json", "{\"add_bos_token\":");
    json_case("broken config", doc, WL_STATUS_FORMAT);
    snprintf(path, sizeof path, "%s/tokenizer_config.json", tmpdir);
    remove(path);
    snprintf(path, sizeof path, "%s/tokenizer.json", tmpdir);
    remove(path);
    wl_error err;
    wl_model *m = wl_model_open(tmpdir, NULL, &err);
    wl_tokenizer *t = m ? wl_tokenizer_open(m, NULL, &err) : NULL;
    CHECKF(m && !t && err.status == WL_STATUS_IO, "no tokenizer.json: %s", err.message);
    wl_model_close(m);
    snprintf(path, sizeof path, "%s/model.safetensors", tmpdir);
    remove(path);
    remove(tmpdir);
    free(bytes);
    free(doc);
}

/* ---- goldens (llama.cpp's ids) -------------------------------------------------------------- */
static int hexval(int c) { return c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }

static double now(clockid_t c) {
    struct timespec ts;
    clock_gettime(c, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int golden(const char *path, const char *vocab_path) {
    size_t len;
    char *text = test_read_file(path, &len);
    CHECKF(text != NULL, "cannot read %s", path);
    wl_error err;
    wl_model *vm = wl_model_open(vocab_path, NULL, &err);
    CHECKF(vm != NULL, "%s", err.message);
    if (!text || !vm) return test_end();
    wl_tokenizer *t = wl_tokenizer_open(vm, NULL, &err);
    CHECKF(t != NULL, "%s: %s", vocab_path, err.message);
    wl_model_close(vm);
    wl_model *arena = wl__model_new(NULL);
    char msg[200];
    json_node *doc = wl__json_parse(arena, text, len, msg, sizeof msg, NULL);
    CHECKF(doc != NULL, "%s: %s", path, msg);
    const json_node *cases = wl__json_get(doc, "cases");
    CHECK(cases && cases->type == JSON_ARRAY && cases->count > 0);
    int n_cases = 0, n_equal = 0, n_trips = 0;
    char *longest = NULL;
    size_t longest_len = 0;
    for (const json_node *c = cases ? cases->child : NULL; t && c; c = c->next) {
        const json_node *name = wl__json_get(c, "name"), *hex = wl__json_get(c, "text_hex"),
                        *ps = wl__json_get(c, "parse_special"), *as = wl__json_get(c, "add_special"),
                        *ids = wl__json_get(c, "ids");
        if (!name || !hex || !ps || !as || !ids) {
            CHECKF(0, "%s: a case lacks a field", path);
            continue;
        }
        size_t n = hex->len / 2;
        char *s = malloc(n + 1);
        for (size_t i = 0; i < n; i++) s[i] = (char)(hexval(hex->str[2 * i]) << 4 | hexval(hex->str[2 * i + 1]));
        s[n] = 0;
        uint32_t fl = (ps->type == JSON_TRUE ? WL_TOKENIZE_PARSE_SPECIAL : 0) |
                      (as->type == JSON_TRUE ? WL_TOKENIZE_ADD_SPECIAL : 0);
        size_t got;
        int32_t *mine = tokenize(t, s, n, fl, &got);
        int same = got == ids->count;
        size_t k = 0, first = SIZE_MAX;
        for (const json_node *e = ids->child; e; e = e->next, k++)
            if (k >= got || mine[k] != e->i) {
                same = 0;
                if (first == SIZE_MAX) first = k;
            }
        n_cases++;
        n_equal += same;
        CHECKF(same, "%s: case '%s' (parse_special %d, add_special %d): %zu ids, llama.cpp %llu, first difference at %zu",
               path, name->str, ps->type == JSON_TRUE, as->type == JSON_TRUE, got, (unsigned long long)ids->count,
               first == SIZE_MAX ? got : first);
        if (utf8_valid(s, n)) {   /* round trip, specials written, the add_special ones skipped */
            size_t dl, skip = 0, cnt = got;
            const wl_special_tokens *sp = wl_tokenizer_special(t);
            if ((fl & WL_TOKENIZE_ADD_SPECIAL) && sp->add_bos && cnt && mine[0] == sp->bos) skip = 1;
            if ((fl & WL_TOKENIZE_ADD_SPECIAL) && sp->add_eos && cnt > skip && mine[cnt - 1] == sp->eos) cnt--;
            char *back = detok(t, mine + skip, cnt - skip, WL_DETOK_SPECIAL | WL_DETOK_STRIP_SPACE, &dl);
            int trip = dl == n && !memcmp(back, s, n);
            CHECKF(trip, "%s: case '%s' does not round-trip", path, name->str);
            n_trips += trip;
            free(back);
        }
        if (n > longest_len) {
            free(longest);
            longest = s, longest_len = n;
        } else {
            free(s);
        }
        free(mine);
    }
    /* speed: about 1 MiB of the longest case's text */
    if (t && longest) {
        size_t reps = (1u << 20) / (longest_len + 1) + 1, big_n = 0;
        char *big = malloc(reps * (longest_len + 1));
        for (size_t r = 0; r < reps; r++) {
            memcpy(big + big_n, longest, longest_len);
            big_n += longest_len;
            big[big_n++] = '\n';
        }
        /* CPU time: the wall clock of this shared machine says more about its load */
        double c0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
        size_t got;
        int32_t *ids = tokenize(t, big, big_n, WL_TOKENIZE_PARSE_SPECIAL, &got);
        double dt = now(CLOCK_PROCESS_CPUTIME_ID) - c0, wall = now(CLOCK_MONOTONIC) - w0;
        printf("%s: %zu bytes -> %zu tokens (twice: counted, then written) in %.3f s CPU, %.3f s wall\n",
               wl_pretok_name(wl_tokenizer_pretok(t)), big_n, got, dt, wall);
        CHECKF(dt < 1.0, "1 MiB took %.3f s of CPU", dt);
        free(ids);
        free(big);
    }
    printf("%s: %d/%d cases equal llama.cpp's ids, %d texts round-trip\n", path, n_equal, n_cases, n_trips);
    free(longest);
    wl_model_close(arena);
    wl_tokenizer_close(t);
    free(text);
    return test_end();
}

int main(int argc, char **argv) {
    init_byte_cp();
    if (argc == 5 && !strcmp(argv[1], "--golden") && !strcmp(argv[3], "--vocab")) return golden(argv[2], argv[4]);
    if (argc != 1) {
        fprintf(stderr, "usage: test_tokenizer [--golden FILE.json --vocab VOCAB.gguf]\n");
        return 2;
    }
    test_bpe_reference();
    test_spm_reference();
    test_round_trip();
    test_detok_stream();
    test_hostile();
    test_alloc_failures();
    test_tokenizer_json();
    return test_end();
}
