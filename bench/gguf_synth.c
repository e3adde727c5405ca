/* gguf_synth.c - writes synthetic llama-family GGUF v3 files (bench/gguf_synth.h): the metadata a
 * llama loader reads (llama.* sizes, a byte-level BPE vocabulary: the 256 byte tokens in GPT-2's
 * byte-to-character mapping, one merge, filler tokens and BOS/EOS control tokens), then the
 * tensors in llama.cpp's names and order, each aligned to 32 bytes.  Blocks are random: 4- and
 * 6-bit codes uniform, f16 scales finite and normal, chosen so weights stay within about +-0.1
 * (a trained model's range), so the forward pass stays finite through every layer. */
#include "gguf_synth.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { GG_F32 = 0, GG_Q4_1 = 3, GG_Q8_0 = 8, GG_Q4_K = 12, GG_Q6_K = 14 };   /* ggml type ids */
enum { GV_U32 = 4, GV_I32 = 5, GV_F32 = 6, GV_STRING = 8, GV_ARRAY = 9 };    /* GGUF value types */
#define SYNTH_ALIGN 32
#define SYNTH_VERSION 1   /* in the file names: bump when the files' contents change */

static const struct { int type; uint32_t blk, bytes; } gg_types[] = {
    { GG_F32, 1, 4 }, { GG_Q4_1, 32, 20 }, { GG_Q8_0, 32, 34 }, { GG_Q4_K, 256, 144 }, { GG_Q6_K, 256, 210 },
};

static uint32_t type_blk(int t, uint32_t *bytes) {
    for (size_t i = 0; i < sizeof gg_types / sizeof *gg_types; i++)
        if (gg_types[i].type == t) {
            *bytes = gg_types[i].bytes;
            return gg_types[i].blk;
        }
    *bytes = 0;
    return 0;
}

const char *synth_recipe_name(synth_recipe r) {
    return r == SYNTH_Q4_K_M ? "Q4_K_M" : r == SYNTH_Q4_1 ? "Q4_1" : "?";
}

/* ---- the tensors ------------------------------------------------------------------------------ */
/* Tensor i of the file (0: token_embd, then 9 per block, then output_norm and output when untied):
 * its name, ne[0] (the row), ne[1] (rows; 1 for vectors) and type.  false past the end. */
typedef struct synth_tensor {
    char name[48];
    uint64_t ne0, ne1;
    int type;
} synth_tensor;

static uint32_t tensor_count(const synth_shape *s) {
    return 1 + 9 * s->n_layer + 1 + (s->tied ? 0 : 1);
}

/* llama.cpp's use_more_bits: the first and last eighth of the layers and every third in between */
static bool more_bits(uint32_t i, uint32_t n) {
    return i < n / 8 || i >= 7 * n / 8 || ((int64_t)i - n / 8) % 3 == 2;
}

static void tensor_at(const synth_shape *s, uint32_t i, synth_tensor *t) {
    uint64_t E = s->n_embd, KV = (uint64_t)s->n_head_kv * (s->n_embd / s->n_head), F = s->n_ff;
    bool k = s->recipe == SYNTH_Q4_K_M;
    int mat = k ? GG_Q4_K : GG_Q4_1, head = k ? GG_Q6_K : GG_Q8_0;
    if (i == 0) {
        snprintf(t->name, sizeof t->name, "token_embd.weight");
        t->ne0 = E, t->ne1 = s->n_vocab, t->type = s->tied || !k ? head : GG_Q4_K;
        return;
    }
    if (i > 9 * s->n_layer) {
        bool norm = i == 9 * s->n_layer + 1;
        snprintf(t->name, sizeof t->name, norm ? "output_norm.weight" : "output.weight");
        t->ne0 = E, t->ne1 = norm ? 1 : s->n_vocab, t->type = norm ? GG_F32 : head;
        return;
    }
    uint32_t l = (i - 1) / 9, j = (i - 1) % 9;
    static const char *const names[9] = { "attn_norm", "attn_q", "attn_k", "attn_v", "attn_output",
                                          "ffn_norm", "ffn_gate", "ffn_up", "ffn_down" };
    snprintf(t->name, sizeof t->name, "blk.%u.%s.weight", l, names[j]);
    const uint64_t ne0[9] = { E, E, E, E, E, E, E, E, F }, ne1[9] = { 1, E, KV, KV, E, 1, F, F, E };
    t->ne0 = ne0[j], t->ne1 = ne1[j];
    t->type = ne1[j] == 1 ? GG_F32 : mat;
    if (k && (j == 3 || j == 8) && more_bits(l, s->n_layer))
        t->type = GG_Q6_K;
}

static uint64_t tensor_bytes(const synth_tensor *t) {
    uint32_t bytes, blk = type_blk(t->type, &bytes);
    return t->ne0 / blk * bytes * t->ne1;
}

uint64_t synth_weight_bytes(const synth_shape *s) {
    uint64_t n = 0;
    synth_tensor t;
    for (uint32_t i = 0; i < tensor_count(s); i++) {
        tensor_at(s, i, &t);
        n += tensor_bytes(&t);
    }
    return n;
}

bool synth_check(const synth_shape *s, char *err, size_t cap) {
    uint32_t blk = s->recipe == SYNTH_Q4_K_M ? 256 : 32;
    const char *why = NULL;
    if (!s->n_layer || !s->n_embd || !s->n_head || !s->n_head_kv || !s->n_ff || !s->n_ctx)
        why = "a size is zero";
    else if (s->n_embd % s->n_head || s->n_head % s->n_head_kv || (s->n_embd / s->n_head) % 2)
        why = "the heads do not divide the width (or the KV heads the heads, or the head dim is odd)";
    else if (s->n_embd % blk || s->n_ff % blk)
        why = s->recipe == SYNTH_Q4_K_M ? "width and FFN width must be multiples of 256 (Q4_K rows)"
                                        : "width and FFN width must be multiples of 32 (Q4_1 rows)";
    else if (s->n_vocab < 260)
        why = "the vocabulary needs at least 260 tokens";
    if (why)
        snprintf(err, cap, "synthetic model: %s", why);
    return !why;
}

void synth_file_name(const synth_shape *s, const char *prefix, char *buf, size_t cap) {
    snprintf(buf, cap, "%s-L%u-E%u-H%ux%u-F%u-V%u-C%u%s.%s.v%d.gguf", prefix, s->n_layer, s->n_embd, s->n_head,
             s->n_head_kv, s->n_ff, s->n_vocab, s->n_ctx, s->tied ? "-tied" : "", synth_recipe_name(s->recipe),
             SYNTH_VERSION);
}

/* ---- the header, built in memory ------------------------------------------------------------ */
typedef struct gbuf {
    unsigned char *p;
    size_t n, cap;
    bool oom;
} gbuf;

static void put(gbuf *b, const void *src, size_t n) {
    if (b->oom)
        return;
    if (b->n + n > b->cap) {
        size_t c = b->cap ? b->cap : 1 << 16;
        while (c < b->n + n)
            c *= 2;
        unsigned char *g = realloc(b->p, c);
        if (!g) {
            b->oom = true;
            return;
        }
        b->p = g, b->cap = c;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void put_u32(gbuf *b, uint32_t v) {
    unsigned char x[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24) };
    put(b, x, 4);
}

static void put_u64(gbuf *b, uint64_t v) {
    put_u32(b, (uint32_t)v);
    put_u32(b, (uint32_t)(v >> 32));
}

static void put_str(gbuf *b, const char *s) {
    put_u64(b, strlen(s));
    put(b, s, strlen(s));
}

static void kv_u32(gbuf *b, const char *key, uint32_t v) {
    put_str(b, key), put_u32(b, GV_U32), put_u32(b, v);
}

static void kv_f32(gbuf *b, const char *key, float v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    put_str(b, key), put_u32(b, GV_F32), put_u32(b, u);
}

static void kv_str(gbuf *b, const char *key, const char *v) {
    put_str(b, key), put_u32(b, GV_STRING), put_str(b, v);
}

/* The UTF-8 of code point c (< 0x800) */
static size_t utf8(uint32_t c, char *out) {
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    out[0] = (char)(0xC0 | (c >> 6));
    out[1] = (char)(0x80 | (c & 0x3F));
    return 2;
}

/* Token id's text: the byte tokens in GPT-2's byte-to-character mapping (printable bytes stand
 * for themselves, the others for U+0100 + their rank), "Ġt" (the one merge's result), fillers,
 * BOS and EOS last. */
static void token_text(const synth_shape *s, uint32_t id, char *buf, size_t cap) {
    if (id < 256) {
        uint32_t c = id, rank = 0;
        bool printable = (id >= 33 && id <= 126) || (id >= 161 && id <= 172) || id >= 174;
        if (!printable) {
            for (uint32_t b = 0; b < id; b++)
                rank += !((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174);
            c = 256 + rank;
        }
        buf[utf8(c, buf)] = 0;
    } else if (id == 256) {
        snprintf(buf, cap, "\xC4\xA0t");
    } else if (id == s->n_vocab - 2) {
        snprintf(buf, cap, "<|begin_of_text|>");
    } else if (id == s->n_vocab - 1) {
        snprintf(buf, cap, "<|end_of_text|>");
    } else {
        snprintf(buf, cap, "synth%u", id);
    }
}

static void header(gbuf *b, const synth_shape *s) {
    uint32_t nt = tensor_count(s);
    put(b, "GGUF", 4);
    put_u32(b, 3);
    put_u64(b, nt);
    put_u64(b, 20);   /* metadata entries below */
    kv_str(b, "general.architecture", "llama");
    kv_str(b, "general.name", "wgc synthetic llama (random weights)");
    kv_u32(b, "general.file_type", s->recipe == SYNTH_Q4_K_M ? 15 : 3);   /* llama.cpp's MOSTLY_Q4_K_M, MOSTLY_Q4_1 */
    kv_u32(b, "llama.block_count", s->n_layer);
    kv_u32(b, "llama.context_length", s->n_ctx);
    kv_u32(b, "llama.embedding_length", s->n_embd);
    kv_u32(b, "llama.feed_forward_length", s->n_ff);
    kv_u32(b, "llama.attention.head_count", s->n_head);
    kv_u32(b, "llama.attention.head_count_kv", s->n_head_kv);
    kv_f32(b, "llama.rope.freq_base", (float)s->rope_base);
    kv_f32(b, "llama.attention.layer_norm_rms_epsilon", 1e-5f);
    kv_u32(b, "llama.rope.dimension_count", s->n_embd / s->n_head);
    kv_u32(b, "llama.vocab_size", s->n_vocab);
    kv_str(b, "tokenizer.ggml.model", "gpt2");
    kv_str(b, "tokenizer.ggml.pre", "llama-bpe");
    char tok[32];
    put_str(b, "tokenizer.ggml.tokens"), put_u32(b, GV_ARRAY), put_u32(b, GV_STRING), put_u64(b, s->n_vocab);
    for (uint32_t i = 0; i < s->n_vocab; i++) {
        token_text(s, i, tok, sizeof tok);
        put_str(b, tok);
    }
    put_str(b, "tokenizer.ggml.token_type"), put_u32(b, GV_ARRAY), put_u32(b, GV_I32), put_u64(b, s->n_vocab);
    for (uint32_t i = 0; i < s->n_vocab; i++)
        put_u32(b, i >= s->n_vocab - 2 ? 3 : 1);   /* control: BOS, EOS; else normal */
    put_str(b, "tokenizer.ggml.merges"), put_u32(b, GV_ARRAY), put_u32(b, GV_STRING), put_u64(b, 1);
    put_str(b, "\xC4\xA0 t");
    kv_u32(b, "tokenizer.ggml.bos_token_id", s->n_vocab - 2);
    kv_u32(b, "tokenizer.ggml.eos_token_id", s->n_vocab - 1);
    uint64_t off = 0;
    synth_tensor t;
    for (uint32_t i = 0; i < nt; i++) {
        tensor_at(s, i, &t);
        put_str(b, t.name);
        put_u32(b, t.ne1 > 1 ? 2 : 1);
        put_u64(b, t.ne0);
        if (t.ne1 > 1)
            put_u64(b, t.ne1);
        put_u32(b, (uint32_t)t.type);
        put_u64(b, off);
        off += (tensor_bytes(&t) + SYNTH_ALIGN - 1) / SYNTH_ALIGN * SYNTH_ALIGN;
    }
    static const unsigned char zero[SYNTH_ALIGN];
    put(b, zero, (SYNTH_ALIGN - b->n % SYNTH_ALIGN) % SYNTH_ALIGN);
}

/* ---- random blocks -------------------------------------------------------------------------- */
static uint64_t rnd(uint64_t *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static double unit(uint64_t *s) {
    return (double)(rnd(s) >> 11) / 9007199254740992.0;
}

/* f16 bits of a positive normal v (6.1e-5 <= v < 65504), rounded to nearest */
static uint16_t f16(double v) {
    int e;
    double m = frexp(v, &e);   /* v = m 2^e, m in [0.5, 1) */
    int frac = (int)lround((2 * m - 1) * 1024);
    if (frac == 1024)
        frac = 0, e++;
    return (uint16_t)(((e - 1 + 15) << 10) | frac);
}

static void put16(unsigned char *p, uint16_t v) {
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
}

static void fill(unsigned char *p, size_t n, uint64_t *s) {
    for (size_t i = 0; i < n; i += 8) {
        uint64_t r = rnd(s);
        memcpy(p + i, &r, n - i < 8 ? n - i : 8);
    }
}

/* One block of type t at p. */
static void block(int t, unsigned char *p, uint64_t *s) {
    double d = 1e-4 * (0.7 + 0.6 * unit(s));   /* the block's scale: normal in f16 */
    switch (t) {
    case GG_Q4_1:   /* d, m, qs[16]: d q + m, q in 0..15: about +-0.01 */
        put16(p, f16(10 * d)), put16(p + 2, 0x8000 | f16(80 * d)), fill(p + 4, 16, s);
        break;
    case GG_Q8_0:   /* d, qs[32] i8: about +-0.03 */
        put16(p, f16(2.5 * d)), fill(p + 2, 32, s);
        break;
    case GG_Q4_K:   /* d, dmin, scales[12] (6-bit sc, mn), qs[128]: (d sc) q - dmin mn, centred */
        put16(p, f16(d)), put16(p + 2, f16(7.5 * d)), fill(p + 4, 140, s);
        break;
    case GG_Q6_K:   /* ql[128], qh[64], scales[16] i8 (1..16 here), d: (d sc) (q - 32) */
        fill(p, 192, s);
        for (int i = 0; i < 16; i++)
            p[192 + i] = (unsigned char)(1 + rnd(s) % 16);
        put16(p + 208, f16(d));
        break;
    default:
        break;
    }
}

bool synth_write(const synth_shape *s, const char *path, uint64_t seed, char *err, size_t cap) {
    if (!synth_check(s, err, cap))
        return false;
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    gbuf h = { 0 };
    header(&h, s);
    FILE *f = h.oom ? NULL : fopen(tmp, "wb");
    if (!f) {
        snprintf(err, cap, "%s: %s", tmp, h.oom ? "out of memory" : "cannot create it");
        free(h.p);
        return false;
    }
    static char iobuf[1 << 22];
    setvbuf(f, iobuf, _IOFBF, sizeof iobuf);
    bool ok = fwrite(h.p, 1, h.n, f) == h.n;
    free(h.p);
    uint64_t rs = seed * 0x9E3779B97F4A7C15ull + 1;
    unsigned char blk[256 * 4], pad[SYNTH_ALIGN] = { 0 };
    const float one = 1.0f;
    synth_tensor t;
    for (uint32_t i = 0; ok && i < tensor_count(s); i++) {
        tensor_at(s, i, &t);
        uint32_t bytes, bn = type_blk(t.type, &bytes);
        uint64_t n = t.ne0 / bn * t.ne1;
        for (uint64_t k = 0; ok && k < n; k++) {
            if (t.type == GG_F32)
                memcpy(blk, &one, 4);
            else
                block(t.type, blk, &rs);
            ok = fwrite(blk, 1, bytes, f) == bytes;
        }
        size_t p = (size_t)((SYNTH_ALIGN - tensor_bytes(&t) % SYNTH_ALIGN) % SYNTH_ALIGN);
        ok = ok && fwrite(pad, 1, p, f) == p;
    }
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, cap, "%s: cannot write it (disk full?)", ok ? path : tmp);
        remove(tmp);
        return false;
    }
    return true;
}
