/* engine.c - llama-family inference on wt tensors: weights uploaded once, a preallocated GPU KV
 * cache, and one forward pass per wl_engine_eval recorded lazily and submitted as one batch.
 *
 * The forward pass of n new tokens at position p of a sequence (x: [n, n_embd] f32):
 *   x = embed(tokens)
 *   per block: h = rms_norm(x) . q/k/v = linear(h) (+ bias) . RoPE on q and k at positions
 *     p .. p+n . k and v copied in place into the cache slice [seq, :, p .. p+n, :] (wt_copy_) .
 *     a = attention(q, cache[.., 0 .. p+n, ..]) causal, aligned to the end (grouped-query: the
 *     cache keeps n_head_kv heads) . x += linear(a, wo) . h = rms_norm(x) .
 *     x += down(silu(gate(h)) * up(h))
 *   logits = linear(rms_norm(x), output)   (the last row only unless every row is asked for)
 * Every weight goes through one small interface, wl__weight with wl__linear and wl__embed, the one
 * place quantized weights will plug in.  RoPE: GGUF llama files store q and k rows permuted for
 * llama.cpp's adjacent-pair rotation (WT_ROPE_INTERLEAVED); Hugging Face files and GGUF qwen2 use
 * the half-split pairs (WT_ROPE_HALF).  Llama-3 frequency factors (rope_freqs.weight) and linear
 * position scaling take host-computed angles (rope_host) instead of wt_rope.  A decode step of
 * SmolLM2-135M records about 20 dispatches per block, all in one batch: the engine raises the
 * context's max_batch_ops (when the policy leaves it at 0) so the batch never splits. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "llm/llm.h"

#define ENGINE_BATCH_OPS 8192u    /* max_batch_ops set by the engine: a step of 30 blocks is ~600 */
#define ENGINE_DEFAULT_CTX 4096u

/* ---- weights: the one interface the forward pass uses ---- */

typedef struct wl__weight {
    wt_tensor *t;             /* f32, or f16 where the device has it; NULL: absent or quantized */
    wt_qweight *q;            /* a GGML block-format matrix kept in its blocks (wt_qlinear) */
} wl__weight;

/* x [..., K] . w^T (+ bias): w [N, K]. */
static wt_tensor *wl__linear(wt_context *ctx, wt_tensor *x, const wl__weight *w, const wl__weight *bias) {
    if (w->q)
        return wt_qlinear(ctx, x, w->q, bias ? bias->t : NULL);
    return wt_linear(ctx, x, w->t, bias ? bias->t : NULL);
}

/* Rows of w [V, D] for ids (i32 [n]) as f32 [n, D]. */
static wt_tensor *wl__embed(wt_context *ctx, wt_tensor *ids, const wl__weight *w) {
    if (w->q)
        return wt_qembedding(ctx, w->q, ids);
    wt_tensor *e = wt_embedding(ctx, w->t, ids);
    if (!e || wt_dtype_of(e) == WT_F32)
        return e;
    wt_tensor *f = wt_cast(ctx, e, WT_F32);
    wt_release(e);
    return f;
}

/* ---- the model's tensors: X(field, GGUF name, Hugging Face name, shape, required) ---- */
enum { SH_EMBD, SH_Q, SH_KV, SH_BQ, SH_BKV, SH_O, SH_FF, SH_DOWN, SH_VOCAB, SH_ROPE };
#define ENGINE_GLOBALS(X)                                                          \
    X(tok_embd, "token_embd.weight", "model.embed_tokens.weight", SH_VOCAB, true) \
    X(out_norm, "output_norm.weight", "model.norm.weight", SH_EMBD, true)         \
    X(output, "output.weight", "lm_head.weight", SH_VOCAB, false)                 \
    X(rope_freqs, "rope_freqs.weight", "", SH_ROPE, false)
#define ENGINE_BLOCK(X)                                                                                  \
    X(attn_norm, "blk.%u.attn_norm.weight", "model.layers.%u.input_layernorm.weight", SH_EMBD, true)     \
    X(wq, "blk.%u.attn_q.weight", "model.layers.%u.self_attn.q_proj.weight", SH_Q, true)                 \
    X(wk, "blk.%u.attn_k.weight", "model.layers.%u.self_attn.k_proj.weight", SH_KV, true)                \
    X(wv, "blk.%u.attn_v.weight", "model.layers.%u.self_attn.v_proj.weight", SH_KV, true)                \
    X(bq, "blk.%u.attn_q.bias", "model.layers.%u.self_attn.q_proj.bias", SH_BQ, false)                   \
    X(bk, "blk.%u.attn_k.bias", "model.layers.%u.self_attn.k_proj.bias", SH_BKV, false)                  \
    X(bv, "blk.%u.attn_v.bias", "model.layers.%u.self_attn.v_proj.bias", SH_BKV, false)                  \
    X(wo, "blk.%u.attn_output.weight", "model.layers.%u.self_attn.o_proj.weight", SH_O, true)            \
    X(ffn_norm, "blk.%u.ffn_norm.weight", "model.layers.%u.post_attention_layernorm.weight", SH_EMBD, true) \
    X(gate, "blk.%u.ffn_gate.weight", "model.layers.%u.mlp.gate_proj.weight", SH_FF, true)               \
    X(up, "blk.%u.ffn_up.weight", "model.layers.%u.mlp.up_proj.weight", SH_FF, true)                     \
    X(down, "blk.%u.ffn_down.weight", "model.layers.%u.mlp.down_proj.weight", SH_DOWN, true)

typedef struct engine_block {
#define X(f, g, h, s, r) wl__weight f;
    ENGINE_BLOCK(X)
#undef X
    wt_tensor *k_cache, *v_cache;   /* cache_type [n_seq, n_head_kv, n_ctx, head_dim] */
} engine_block;

struct wl_engine {
    wt_context *ctx;
    wl_engine_info info;
    wl_format format;
#define X(f, g, h, s, r) wl__weight f;
    ENGINE_GLOBALS(X)
#undef X
    float *rope_ff;               /* host angles: per-pair frequency divisors (1 when absent) */
    double rope_pos_scale;        /* rope_host: positions multiplied by this (linear scaling) */
    engine_block *blocks;
    uint32_t *pos;                /* n_seq */
    wt_tensor *logits;
};

static const char *const supported_arch[] = { "llama", "mistral", "qwen2" };

/* Copies a wt error into err. */
static wl_status gpu_fail(wl_engine *e, wt_context *ctx, wl_error *err, const char *what) {
    (void)e;
    const char *m = ctx ? wt_last_error(ctx) : "";
    return wl__fail(err, wt_last_status(ctx) == WT_STATUS_OUT_OF_MEMORY ? WL_STATUS_OUT_OF_MEMORY : WL_STATUS_GPU,
                    "wl_engine", "%s: %s", what, *m ? m : "tensor error");
}

static void clear_err(wl_error *err) {
    if (err) {
        err->status = WL_OK;
        err->message[0] = 0;
    }
}

/* ---- loading ---- */

static uint32_t meta_u32(const wl_model *m, const char *arch, const char *key, uint64_t dflt) {
    char k[128];
    snprintf(k, sizeof k, "%s.%s", arch, key);
    uint64_t v = dflt;
    wl_model_get_u64(m, k, &v);
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static double meta_f64(const wl_model *m, const char *arch, const char *key, double dflt) {
    char k[128];
    snprintf(k, sizeof k, "%s.%s", arch, key);
    double v = dflt;
    wl_model_get_f64(m, k, &v);
    return v;
}

static float bf16_to_float(uint16_t h) {
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t rd16(const unsigned char *p) {
    return (uint16_t)(p[0] | p[1] << 8);
}

/* The wt block format of a GGML block dtype (same names), NONE for the others. */
static wt_qformat block_format(wl_dtype dt) {
    if (wl_dtype_block_elements(dt) <= 1)
        return WT_QFORMAT_NONE;
    for (int f = 1; f < WT_QFORMAT_COUNT; f++)
        if (!strcasecmp(wt_qformat_name((wt_qformat)f), wl_dtype_name(dt)))
            return (wt_qformat)f;
    return WT_QFORMAT_NONE;
}

/* Uploads one tensor as [ne1, ne0] (or [ne0] for 1-d).  A GGML block format goes to the GPU in its
 * blocks, straight from the mapping (wt_qweight_upload): a matrix stays so (wt_qlinear and
 * wt_qembedding read it), a vector is decoded there once (wt_qdequantize).  F32 as it is; F16 as
 * f16 where the device has it and the weight is a matrix, else widened; BF16 widened on the host. */
static wl_status upload(wl_engine *e, const wl_tensor_info *ti, bool matrix, wl__weight *w, wl_error *err) {
    wt_context *ctx = e->ctx;
    int64_t shape[2] = { (int64_t)ti->ne[1], (int64_t)ti->ne[0] };
    int nd = matrix ? 2 : 1;
    const int64_t *sh = matrix ? shape : shape + 1;
    uint64_t n = ti->elements;
    wl_dtype dt = ti->dtype;
    wt_qformat qf = block_format(dt);
    if (qf != WT_QFORMAT_NONE) {
        wt_qweight *q = wt_qweight_upload(ctx, qf, shape[0], shape[1], ti->data, ti->size);
        if (q && matrix) {
            w->q = q;
            e->info.weight_bytes += wt_qweight_bytes(q);
            return WL_OK;
        }
        wt_tensor *d = q ? wt_qdequantize(ctx, q) : NULL;
        w->t = d ? wt_view(ctx, d, nd, sh) : NULL;
        wt_release(d);
        wt_qweight_release(q);
    } else if (dt == WL_DTYPE_F32) {
        w->t = wt_from_host(ctx, WT_F32, nd, sh, ti->data);
    } else if (dt == WL_DTYPE_F16 && matrix && wt_context_has_f16(ctx)) {
        w->t = wt_from_host(ctx, WT_F16, nd, sh, ti->data);
    } else if (dt == WL_DTYPE_F16 || dt == WL_DTYPE_BF16) {
        float *f = malloc(n * sizeof *f);
        if (!f)
            return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl_engine", "tensor '%s': %llu floats", ti->name,
                            (unsigned long long)n);
        const unsigned char *p = ti->data;
        for (uint64_t i = 0; i < n; i++)
            f[i] = dt == WL_DTYPE_F16 ? wt_f16_to_f32(rd16(p + 2 * i)) : bf16_to_float(rd16(p + 2 * i));
        w->t = wt_from_host(ctx, WT_F32, nd, sh, f);
        free(f);
    } else {
        return wl__fail(err, WL_STATUS_UNSUPPORTED, "wl_engine", "tensor '%s' has dtype %s, which the engine does not read",
                        ti->name, wl_dtype_name(dt));
    }
    if (!w->t)
        return gpu_fail(e, ctx, err, ti->name);
    e->info.weight_bytes += (uint64_t)wt_numel(w->t) * wt_dtype_size(wt_dtype_of(w->t));
    return WL_OK;
}

/* pattern with its "%u" replaced by layer. */
static void expand(char *out, size_t size, const char *pattern, uint32_t layer) {
    const char *at = strstr(pattern, "%u");
    if (!at)
        snprintf(out, size, "%s", pattern);
    else
        snprintf(out, size, "%.*s%u%s", (int)(at - pattern), pattern, layer, at + 2);
}

/* Finds, checks the shape of and uploads one tensor. */
static wl_status load(wl_engine *e, const wl_model *m, const char *gguf, const char *hf, uint32_t layer, int shape,
                      bool required, wl__weight *w, wl_error *err) {
    char name[160];
    expand(name, sizeof name, e->format == WL_FORMAT_GGUF ? gguf : hf, layer);
    const wl_tensor_info *ti = name[0] ? wl_model_tensor_find(m, name) : NULL;
    if (!ti)
        return required ? wl__fail(err, WL_STATUS_NOT_FOUND, "wl_engine", "the model has no tensor '%s'", name) : WL_OK;
    const wl_engine_info *in = &e->info;
    uint64_t q = (uint64_t)in->n_head * in->head_dim, kv = (uint64_t)in->n_head_kv * in->head_dim;
    uint64_t want[2] = { 0, 1 };
    switch (shape) {
    case SH_EMBD: want[0] = in->n_embd; break;
    case SH_Q: want[0] = in->n_embd, want[1] = q; break;
    case SH_KV: want[0] = in->n_embd, want[1] = kv; break;
    case SH_BQ: want[0] = q; break;
    case SH_BKV: want[0] = kv; break;
    case SH_O: want[0] = q, want[1] = in->n_embd; break;
    case SH_FF: want[0] = in->n_embd, want[1] = in->n_ff; break;
    case SH_DOWN: want[0] = in->n_ff, want[1] = in->n_embd; break;
    case SH_VOCAB: want[0] = in->n_embd, want[1] = in->n_vocab; break;
    case SH_ROPE: want[0] = in->rope_dims / 2; break;
    default: break;
    }
    if (ti->ne[0] != want[0] || ti->ne[1] != want[1] || ti->ne[2] != 1 || ti->ne[3] != 1)
        return wl__fail(err, WL_STATUS_FORMAT, "wl_engine", "tensor '%s' has ne [%llu, %llu, %llu], want [%llu, %llu]",
                        name, (unsigned long long)ti->ne[0], (unsigned long long)ti->ne[1],
                        (unsigned long long)ti->ne[2], (unsigned long long)want[0], (unsigned long long)want[1]);
    if (shape == SH_ROPE) {   /* kept on the host: angles are computed there */
        if (ti->dtype != WL_DTYPE_F32)
            return wl__fail(err, WL_STATUS_UNSUPPORTED, "wl_engine", "tensor '%s' has dtype %s (F32 expected)", name,
                            wl_dtype_name(ti->dtype));
        free(e->rope_ff);   /* the file's factors win over ones computed from rope scaling keys */
        e->rope_ff = malloc(want[0] * sizeof *e->rope_ff);
        if (!e->rope_ff)
            return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl_engine", "rope factors");
        memcpy(e->rope_ff, ti->data, want[0] * sizeof *e->rope_ff);
        return WL_OK;
    }
    bool matrix = shape == SH_Q || shape == SH_KV || shape == SH_O || shape == SH_FF || shape == SH_DOWN ||
                  shape == SH_VOCAB;
    return upload(e, ti, matrix, w, err);
}

/* Llama 3.1's RoPE scaling as per-pair frequency divisors (what rope_freqs.weight holds in GGUF
 * files): a pair whose wavelength 2 pi / freq is shorter than original / high_freq_factor keeps
 * its frequency; longer than original / low_freq_factor, it is divided by factor; in between,
 * the frequency is blended: freq * ((1 - s) / factor + s) with s = (original / wavelength -
 * low) / (high - low).  Defaults are Llama 3.1's: low 1, high 4, original 8192. */
static wl_status llama3_factors(wl_engine *e, const wl_model *m, const char *a, double factor, wl_error *err) {
    const wl_engine_info *in = &e->info;
    double lo = meta_f64(m, a, "rope.scaling.low_freq_factor", 1.0);
    double hi = meta_f64(m, a, "rope.scaling.high_freq_factor", 4.0);
    double orig = meta_f64(m, a, "rope.scaling.original_context_length", 8192.0);
    if (!(factor >= 1 && lo > 0 && hi > lo && orig > 0) || factor > 1e6 || hi > 1e6 || orig > 1e12)
        return wl__fail(err, WL_STATUS_FORMAT, "wl_engine",
                        "llama3 rope scaling: factor %g, low_freq_factor %g, high_freq_factor %g, original context %g "
                        "(want factor >= 1, 0 < low < high, original > 0)", factor, lo, hi, orig);
    uint32_t n = in->rope_dims / 2;
    float *ff = malloc((n ? n : 1) * sizeof *ff);
    if (!ff)
        return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl_engine", "rope factors");
    const double pi = 3.14159265358979323846;
    for (uint32_t i = 0; i < n; i++) {
        double freq = pow(in->rope_base, -2.0 * i / in->rope_dims), wavelen = 2 * pi / freq;
        if (wavelen < orig / hi) {
            ff[i] = 1;
        } else if (wavelen > orig / lo) {
            ff[i] = (float)factor;
        } else {
            double sm = (orig / wavelen - lo) / (hi - lo);
            ff[i] = (float)(1.0 / ((1 - sm) / factor + sm));
        }
    }
    free(e->rope_ff);
    e->rope_ff = ff;
    return WL_OK;
}

static wl_status read_hparams(wl_engine *e, const wl_model *m, const wl_engine_desc *d, wl_error *err) {
    wl_engine_info *in = &e->info;
    const char *arch;
    size_t alen;
    if (wl_model_get_str(m, "general.architecture", &arch, &alen) != WL_OK)
        return wl__fail(err, WL_STATUS_FORMAT, "wl_engine", "the model has no general.architecture");
    snprintf(in->arch, sizeof in->arch, "%.*s", (int)(alen < 31 ? alen : 31), arch);
    bool ok = false;
    for (size_t i = 0; i < sizeof supported_arch / sizeof *supported_arch; i++)
        ok = ok || (strlen(supported_arch[i]) == alen && !memcmp(supported_arch[i], arch, alen));
    if (!ok)
        return wl__fail(err, WL_STATUS_UNSUPPORTED, "wl_engine",
                        "architecture '%.*s' is not supported (llama, mistral, qwen2)", (int)(alen < 64 ? alen : 64),
                        arch);
    const char *a = in->arch;
    in->n_layer = meta_u32(m, a, "block_count", 0);
    in->n_embd = meta_u32(m, a, "embedding_length", 0);
    in->n_ff = meta_u32(m, a, "feed_forward_length", 0);
    in->n_head = meta_u32(m, a, "attention.head_count", 0);
    in->n_head_kv = meta_u32(m, a, "attention.head_count_kv", in->n_head);
    if (!in->n_layer || !in->n_embd || !in->n_ff || !in->n_head || !in->n_head_kv || in->n_head % in->n_head_kv)
        return wl__fail(err, WL_STATUS_FORMAT, "wl_engine",
                        "%s: block_count %u, embedding_length %u, feed_forward_length %u, head_count %u, "
                        "head_count_kv %u: each must be > 0 and head_count a multiple of head_count_kv",
                        a, in->n_layer, in->n_embd, in->n_ff, in->n_head, in->n_head_kv);
    in->head_dim = meta_u32(m, a, "attention.key_length", in->n_embd / in->n_head);
    in->rope_dims = meta_u32(m, a, "rope.dimension_count", in->head_dim);
    if (in->head_dim == 0 || in->head_dim > 256 || in->head_dim % 2 || in->rope_dims != in->head_dim)
        return wl__fail(err, WL_STATUS_UNSUPPORTED, "wl_engine", "head dim %u with %u rotary dims (even, <= 256, all rotated)",
                        in->head_dim, in->rope_dims);
    in->rms_eps = meta_f64(m, a, "attention.layer_norm_rms_epsilon", 1e-5);
    in->rope_base = meta_f64(m, a, "rope.freq_base", 10000.0);
    const wl_tensor_info *te = wl_model_tensor_find(m, e->format == WL_FORMAT_GGUF ? "token_embd.weight"
                                                                                    : "model.embed_tokens.weight");
    in->n_vocab = meta_u32(m, a, "vocab_size", te ? te->ne[1] : 0);
    if (!in->n_vocab)
        return wl__fail(err, WL_STATUS_FORMAT, "wl_engine", "no vocabulary size");
    uint64_t ctx_len = meta_u32(m, a, "context_length", ENGINE_DEFAULT_CTX);
    in->n_ctx = d->n_ctx ? d->n_ctx : (uint32_t)(ctx_len < ENGINE_DEFAULT_CTX ? ctx_len : ENGINE_DEFAULT_CTX);
    in->n_seq = d->n_seq ? d->n_seq : 1;
    in->cache_type = d->cache_type ? d->cache_type : WT_F32;
    if (in->cache_type != WT_F32 && in->cache_type != WT_F16)
        return wl__fail(err, WL_STATUS_UNSUPPORTED, "wl_engine", "KV cache type %s (f32 or f16)",
                        wt_dtype_name(in->cache_type));
    if (in->cache_type == WT_F16 && !wt_context_has_f16(e->ctx))
        return wl__fail(err, WL_STATUS_UNSUPPORTED, "wl_engine", "an f16 KV cache needs a device with shader-f16");
    if (in->n_ctx > (1u << 24) || in->n_seq > 4096)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine", "n_ctx %u (at most 2^24) or n_seq %u (at most 4096)",
                        in->n_ctx, in->n_seq);
    in->rope_layout = e->format == WL_FORMAT_GGUF && strcmp(a, "qwen2") ? WT_ROPE_INTERLEAVED : WT_ROPE_HALF;
    /* position scaling: "none" ("default"), "linear" (positions / factor), "llama3" (frequency
     * factors: rope_freqs.weight when the file has it, else from the scaling keys); yarn and
     * others are refused */
    e->rope_pos_scale = 1.0;
    char k[128];
    const char *st;
    size_t sl;
    snprintf(k, sizeof k, "%s.rope.scaling.type", a);
#define IS(word) (sl == sizeof word - 1 && !memcmp(st, word, sl))
    if (wl_model_get_str(m, k, &st, &sl) == WL_OK && !IS("none") && !IS("default")) {
        double f = meta_f64(m, a, "rope.scaling.factor", 1.0);
        if (IS("linear")) {
            if (f > 0 && f != 1.0)
                e->rope_pos_scale = 1.0 / f;
        } else if (IS("llama3")) {
            wl_status r = llama3_factors(e, m, a, f, err);
            if (r != WL_OK)
                return r;
        } else {
            return wl__fail(err, WL_STATUS_UNSUPPORTED, "wl_engine",
                            "rope scaling '%.*s' is not supported (none, linear, llama3)", (int)(sl < 32 ? sl : 32), st);
        }
    }
#undef IS
    int64_t id;
    in->bos = wl_model_get_i64(m, "tokenizer.ggml.bos_token_id", &id) == WL_OK && id >= 0 && id < INT32_MAX ? (int32_t)id : -1;
    in->eos = wl_model_get_i64(m, "tokenizer.ggml.eos_token_id", &id) == WL_OK && id >= 0 && id < INT32_MAX ? (int32_t)id : -1;
    return WL_OK;
}

wl_engine *wl_engine_create(wt_context *ctx, const wl_model *m, const wl_engine_desc *desc, wl_error *err) {
    clear_err(err);
    if (!ctx || !m) {
        wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_create", "NULL %s", ctx ? "model" : "context");
        return NULL;
    }
    wl_engine_desc d = desc ? *desc : (wl_engine_desc){ 0 };
    wl_engine *e = calloc(1, sizeof *e);
    if (!e) {
        wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl_engine_create", "no memory");
        return NULL;
    }
    e->ctx = ctx;
    e->format = wl_model_format(m);
    wl_engine_info *in = &e->info;
    if (read_hparams(e, m, &d, err) != WL_OK)
        goto fail;
    e->blocks = calloc(in->n_layer, sizeof *e->blocks);
    e->pos = calloc(in->n_seq, sizeof *e->pos);
    if (!e->blocks || !e->pos) {
        wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl_engine_create", "no memory");
        goto fail;
    }
    wt_policy pol;
    wt_context_get_policy(ctx, &pol);
    if (!pol.max_batch_ops) {
        pol.max_batch_ops = ENGINE_BATCH_OPS;
        if (wt_context_set_policy(ctx, &pol) != WT_OK) {
            gpu_fail(e, ctx, err, "policy");
            goto fail;
        }
    }
#define X(f, g, h, s, r)                                                   \
    if (load(e, m, g, h, 0, s, r, &e->f, err) != WL_OK)                    \
        goto fail;
    ENGINE_GLOBALS(X)
#undef X
    in->tied = e->output.t == NULL && e->output.q == NULL;
    in->rope_host = e->rope_ff != NULL || e->rope_pos_scale != 1.0;
    if (!e->rope_ff) {   /* ones: batched decode takes host angles too */
        e->rope_ff = malloc(in->rope_dims / 2 * sizeof *e->rope_ff);
        if (!e->rope_ff) {
            wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl_engine_create", "no memory");
            goto fail;
        }
        for (uint32_t i = 0; i < in->rope_dims / 2; i++)
            e->rope_ff[i] = 1;
    }
    int64_t cshape[4] = { in->n_seq, in->n_head_kv, in->n_ctx, in->head_dim };
    for (uint32_t l = 0; l < in->n_layer; l++) {
        engine_block *b = &e->blocks[l];
#define X(f, g, h, s, r)                                                   \
        if (load(e, m, g, h, l, s, r, &b->f, err) != WL_OK)                \
            goto fail;
        ENGINE_BLOCK(X)
#undef X
        b->k_cache = wt_zeros(ctx, in->cache_type, 4, cshape);
        b->v_cache = wt_zeros(ctx, in->cache_type, 4, cshape);
        if (!b->k_cache || !b->v_cache) {
            gpu_fail(e, ctx, err, "KV cache");
            goto fail;
        }
        in->kv_bytes += 2 * (uint64_t)wt_numel(b->k_cache) * wt_dtype_size(in->cache_type);
        if (wt_flush(ctx) != WT_OK) {   /* uploads go out block by block */
            gpu_fail(e, ctx, err, "upload");
            goto fail;
        }
    }
    return e;
fail:
    wl_engine_release(e);
    return NULL;
}

void wl_engine_release(wl_engine *e) {
    if (!e)
        return;
#define X(f, g, h, s, r) wt_release(e->f.t), wt_qweight_release(e->f.q);
    ENGINE_GLOBALS(X)
#undef X
    for (uint32_t l = 0; e->blocks && l < e->info.n_layer; l++) {
        engine_block *b = &e->blocks[l];
#define X(f, g, h, s, r) wt_release(b->f.t), wt_qweight_release(b->f.q);
        ENGINE_BLOCK(X)
#undef X
        wt_release(b->k_cache);
        wt_release(b->v_cache);
    }
    wt_release(e->logits);
    free(e->blocks);
    free(e->pos);
    free(e->rope_ff);
    free(e);
}

const wl_engine_info *wl_engine_get_info(const wl_engine *e) {
    return e ? &e->info : NULL;
}

wt_context *wl_engine_context(wl_engine *e) {
    return e ? e->ctx : NULL;
}

uint32_t wl_engine_pos(const wl_engine *e, uint32_t seq) {
    return e && seq < e->info.n_seq ? e->pos[seq] : 0;
}

wl_status wl_engine_truncate(wl_engine *e, uint32_t seq, uint32_t pos, wl_error *err) {
    clear_err(err);
    if (!e || seq >= e->info.n_seq)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_truncate", "no sequence %u", seq);
    if (pos > e->pos[seq])
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_truncate",
                        "position %u is past sequence %u's length %u", pos, seq, e->pos[seq]);
    /* later evals overwrite positions earlier work of the pending batch may still read: submit it */
    if (pos < e->pos[seq] && wt_flush(e->ctx) != WT_OK)
        return gpu_fail(e, e->ctx, err, "flush");
    e->pos[seq] = pos;
    return WL_OK;
}

/* ---- the forward pass ---- */

/* RoPE of x [n, heads, head_dim] at positions pos[t] (several sequences: wl_engine_eval_batch),
 * or p0 .. p0+n when pos is NULL. */
static wt_tensor *rope(wl_engine *e, wt_tensor *x, uint32_t p0, const uint32_t *pos, uint32_t n) {
    wt_context *ctx = e->ctx;
    const wl_engine_info *in = &e->info;
    if (!in->rope_host && !pos)
        return wt_rope(ctx, x, &(wt_rope_desc){ .layout = in->rope_layout, .theta = in->rope_base,
                                                 .position_offset = p0, .seq_dim = -3 });
    /* angle(t, i) = (p0 + t) * scale * base^(-2i / d) / ff[i]; y0 = x0 cos - x1 sin, y1 = x0 sin + x1 cos */
    uint32_t h = in->head_dim / 2;
    float *cs = malloc((size_t)2 * n * h * sizeof *cs);
    if (!cs)
        return NULL;
    for (uint32_t t = 0; t < n; t++)
        for (uint32_t i = 0; i < h; i++) {
            double ang = (double)(pos ? pos[t] : p0 + t) * e->rope_pos_scale * pow(in->rope_base, -2.0 * i / in->head_dim) / e->rope_ff[i];
            cs[(size_t)t * h + i] = (float)cos(ang);
            cs[(size_t)n * h + (size_t)t * h + i] = (float)sin(ang);
        }
    wt_tensor *tab = wt_from_host(ctx, WT_F32, WT_SHAPE(2, n, 1, h), cs);
    free(cs);
    wt_tensor *c = tab ? wt_select(ctx, tab, 0, 0) : NULL, *s = tab ? wt_select(ctx, tab, 0, 1) : NULL;
    wt_tensor *x0, *x1;
    int64_t nh = wt_size(x, 1);
    if (in->rope_layout == WT_ROPE_INTERLEAVED) {
        wt_tensor *v = wt_view(ctx, x, WT_SHAPE(n, nh, h, 2));
        x0 = wt_select(ctx, v, 3, 0);
        x1 = wt_select(ctx, v, 3, 1);
        wt_release(v);
    } else {
        x0 = wt_narrow(ctx, x, 2, 0, h);
        x1 = wt_narrow(ctx, x, 2, h, h);
    }
    wt_tensor *a = wt_mul(ctx, x0, c), *b = wt_mul(ctx, x1, s), *y0 = wt_sub(ctx, a, b);
    wt_release(a);
    wt_release(b);
    a = wt_mul(ctx, x0, s);
    b = wt_mul(ctx, x1, c);
    wt_tensor *y1 = wt_add(ctx, a, b);
    wt_release(a);
    wt_release(b);
    wt_tensor *out = NULL;
    if (in->rope_layout == WT_ROPE_INTERLEAVED) {
        wt_tensor *st = wt_stack(ctx, (wt_tensor *const[]){ y0, y1 }, 2, 3);
        out = st ? wt_view(ctx, st, WT_SHAPE(n, nh, in->head_dim)) : NULL;
        wt_release(st);
    } else {
        out = wt_cat(ctx, (wt_tensor *const[]){ y0, y1 }, 2, 2);
    }
    wt_release(y0);
    wt_release(y1);
    wt_release(x0);
    wt_release(x1);
    wt_release(c);
    wt_release(s);
    wt_release(tab);
    return out;
}

/* Positions [0, len) of a sequence's cache slice cs [Hkv, n_ctx, D] as attention reads them: a
 * view of the f32 cache; an f16 cache widened to f32 (a copy: the attention stays f32, so only
 * the rounding of k and v to f16 as they are stored differs from the f32 cache). */
static wt_tensor *cache_seen(wl_engine *e, wt_tensor *cs, uint32_t len) {
    wt_tensor *v = wt_narrow(e->ctx, cs, 1, 0, len);
    if (!v || wt_dtype_of(v) == WT_F32)
        return v;
    wt_tensor *f = wt_cast(e->ctx, v, WT_F32);
    wt_release(v);
    return f;
}

/* Attention of one token each of n sequences (bseq[i] at bpos[i]): row i's k and v into its
 * sequence's cache, its q against that cache; [H, n, D] (a new reference) or NULL. */
static wt_tensor *attend_batch(wl_engine *e, engine_block *b, wt_tensor *qr, wt_tensor *kr, wt_tensor *v3,
                               const uint32_t *bseq, const uint32_t *bpos, uint32_t n) {
    wt_context *ctx = e->ctx;
    wt_tensor **outs = calloc(n, sizeof *outs);
    bool ok = outs != NULL;
    for (uint32_t i = 0; ok && i < n; i++) {
        wt_tensor *cache[2] = { b->k_cache, b->v_cache }, *src[2] = { kr, v3 }, *seen[2] = { NULL, NULL };
        for (int j = 0; j < 2 && ok; j++) {
            wt_tensor *cs = wt_select(ctx, cache[j], 0, bseq[i]);
            wt_tensor *dst = cs ? wt_narrow(ctx, cs, 1, bpos[i], 1) : NULL;
            wt_tensor *row = wt_narrow(ctx, src[j], 0, i, 1);
            wt_tensor *st = row ? wt_transpose(ctx, row, 0, 1) : NULL;
            ok = dst && st && wt_copy_(ctx, dst, st) == WT_OK;
            seen[j] = ok ? cache_seen(e, cs, bpos[i] + 1) : NULL;
            ok = ok && seen[j];
            wt_release(st), wt_release(row), wt_release(dst), wt_release(cs);
        }
        wt_tensor *qrow = ok ? wt_narrow(ctx, qr, 0, i, 1) : NULL;
        wt_tensor *qt = qrow ? wt_transpose(ctx, qrow, 0, 1) : NULL;
        outs[i] = qt ? wt_scaled_dot_product_attention(ctx, qt, seen[0], seen[1], &(wt_attention_desc){ .causal = true })
                     : NULL;
        ok = outs[i] != NULL;
        wt_release(qt), wt_release(qrow), wt_release(seen[0]), wt_release(seen[1]);
    }
    wt_tensor *a = ok ? (n == 1 ? (wt_retain(outs[0]), outs[0]) : wt_cat(ctx, outs, (int)n, 1)) : NULL;
    for (uint32_t i = 0; outs && i < n; i++)
        wt_release(outs[i]);
    free(outs);
    return a;
}

/* One block on x [n, n_embd]: n tokens of sequence seq from position p0, or (bseq not NULL) one
 * token each of sequences bseq[i] at bpos[i].  Returns the new x (a new reference) or NULL. */
static wt_tensor *block(wl_engine *e, engine_block *b, wt_tensor *x, uint32_t seq, uint32_t p0, uint32_t n,
                        const uint32_t *bseq, const uint32_t *bpos) {
    wt_context *ctx = e->ctx;
    const wl_engine_info *in = &e->info;
    int64_t H = in->n_head, Hkv = in->n_head_kv, D = in->head_dim;
    wt_tensor *h = wt_rms_norm(ctx, x, b->attn_norm.t, in->rms_eps);
    wt_tensor *q = wl__linear(ctx, h, &b->wq, &b->bq);
    wt_tensor *k = wl__linear(ctx, h, &b->wk, &b->bk);
    wt_tensor *v = wl__linear(ctx, h, &b->wv, &b->bv);
    wt_release(h);
    wt_tensor *q3 = wt_view(ctx, q, WT_SHAPE(n, H, D)), *k3 = wt_view(ctx, k, WT_SHAPE(n, Hkv, D));
    wt_tensor *v3 = wt_view(ctx, v, WT_SHAPE(n, Hkv, D));
    wt_release(q);
    wt_release(k);
    wt_release(v);
    wt_tensor *qr = q3 ? rope(e, q3, p0, bpos, n) : NULL, *kr = k3 ? rope(e, k3, p0, bpos, n) : NULL;
    wt_release(q3);
    wt_release(k3);
    /* new keys and values into the cache: [Hkv, n, D] slices at p0 */
    wt_tensor *cache[2] = { b->k_cache, b->v_cache }, *src[2] = { kr, v3 }, *seen[2] = { NULL, NULL };
    bool ok = kr && v3;
    wt_tensor *a = NULL;
    if (bseq) {
        a = ok && qr ? attend_batch(e, b, qr, kr, v3, bseq, bpos, n) : NULL;
        ok = false;   /* skips the one-sequence path below */
    }
    for (int i = 0; i < 2 && ok; i++) {
        wt_tensor *cs = wt_select(ctx, cache[i], 0, seq);
        wt_tensor *dst = cs ? wt_narrow(ctx, cs, 1, p0, n) : NULL;
        wt_tensor *st = wt_transpose(ctx, src[i], 0, 1);
        ok = dst && st && wt_copy_(ctx, dst, st) == WT_OK;
        seen[i] = ok ? cache_seen(e, cs, p0 + n) : NULL;
        ok = ok && seen[i];
        wt_release(st);
        wt_release(dst);
        wt_release(cs);
    }
    wt_release(kr);
    wt_release(v3);
    wt_tensor *qt = qr ? wt_transpose(ctx, qr, 0, 1) : NULL;
    wt_release(qr);
    if (!bseq)
        a = ok && qt ? wt_scaled_dot_product_attention(ctx, qt, seen[0], seen[1], &(wt_attention_desc){ .causal = true })
                     : NULL;
    wt_release(qt);
    wt_release(seen[0]);
    wt_release(seen[1]);
    wt_tensor *at = a ? wt_transpose(ctx, a, 0, 1) : NULL;   /* [n, H, D] */
    wt_release(a);
    wt_tensor *a2 = at ? wt_reshape(ctx, at, WT_SHAPE(n, H * D)) : NULL;
    wt_release(at);
    wt_tensor *o = a2 ? wl__linear(ctx, a2, &b->wo, NULL) : NULL;
    wt_release(a2);
    wt_tensor *x1 = o ? wt_add(ctx, x, o) : NULL;
    wt_release(o);
    h = x1 ? wt_rms_norm(ctx, x1, b->ffn_norm.t, in->rms_eps) : NULL;
    wt_tensor *g = h ? wl__linear(ctx, h, &b->gate, NULL) : NULL;
    wt_tensor *u = h ? wl__linear(ctx, h, &b->up, NULL) : NULL;
    wt_release(h);
    wt_tensor *sg = g ? wt_silu(ctx, g) : NULL;
    wt_release(g);
    wt_tensor *mm = sg && u ? wt_mul(ctx, sg, u) : NULL;
    wt_release(sg);
    wt_release(u);
    wt_tensor *dn = mm ? wl__linear(ctx, mm, &b->down, NULL) : NULL;
    wt_release(mm);
    wt_tensor *x2 = dn ? wt_add(ctx, x1, dn) : NULL;
    wt_release(dn);
    wt_release(x1);
    return x2;
}

/* The last block's output for n tokens (wl_engine_eval: sequence seq from position p0;
 * wl_engine_eval_batch: seqs and pos per token); drops the previous logits first. */
static wt_tensor *hidden(wl_engine *e, const int32_t *tokens, uint32_t n, uint32_t seq, uint32_t p0,
                         const uint32_t *seqs, const uint32_t *pos) {
    wt_release(e->logits);
    e->logits = NULL;
    wt_tensor *ids = wt_from_host(e->ctx, WT_I32, WT_SHAPE(n), tokens);
    wt_tensor *x = ids ? wl__embed(e->ctx, ids, &e->tok_embd) : NULL;
    wt_release(ids);
    for (uint32_t l = 0; x && l < e->info.n_layer; l++) {
        wt_tensor *y = block(e, &e->blocks[l], x, seq, p0, n, seqs, pos);
        wt_release(x);
        x = y;
    }
    return x;
}

/* Logits of rows x: the output norm, then the head (the embedding when tied). */
static wt_tensor *head(wl_engine *e, wt_tensor *x) {
    wt_tensor *h = wt_rms_norm(e->ctx, x, e->out_norm.t, e->info.rms_eps);
    wt_tensor *lg = h ? wl__linear(e->ctx, h, e->info.tied ? &e->tok_embd : &e->output, NULL) : NULL;
    wt_release(h);
    return lg;
}

wl_status wl_engine_eval(wl_engine *e, uint32_t seq, const int32_t *tokens, uint32_t n, wl_logits_mode mode,
                         wl_error *err) {
    clear_err(err);
    if (!e)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_eval", "NULL engine");
    const wl_engine_info *in = &e->info;
    if (seq >= in->n_seq)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_eval", "sequence %u of %u", seq, in->n_seq);
    if (!n || !tokens || (unsigned)mode >= WL_LOGITS_MODE_COUNT)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_eval", "no tokens (n %u) or mode %d", n, (int)mode);
    uint32_t p0 = e->pos[seq];
    if ((uint64_t)p0 + n > in->n_ctx)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_eval",
                        "%u tokens at position %u do not fit the context of %u positions", n, p0, in->n_ctx);
    for (uint32_t i = 0; i < n; i++)
        if (tokens[i] < 0 || (uint32_t)tokens[i] >= in->n_vocab)
            return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_eval", "token %u is %d, outside [0, %u)", i,
                            tokens[i], in->n_vocab);
    wt_context *ctx = e->ctx;
    wt_tensor *x = hidden(e, tokens, n, seq, p0, NULL, NULL);
    if (x && mode != WL_LOGITS_NONE) {
        wt_tensor *last = mode == WL_LOGITS_LAST && n > 1 ? wt_narrow(ctx, x, 0, n - 1, 1) : (wt_retain(x), x);
        e->logits = last ? head(e, last) : NULL;
        wt_release(last);
    }
    bool ok = x && (mode == WL_LOGITS_NONE || e->logits);
    wt_release(x);
    if (!ok) {
        wt_release(e->logits);
        e->logits = NULL;
        return gpu_fail(e, ctx, err, "eval");
    }
    e->pos[seq] = p0 + n;
    return WL_OK;
}

wl_status wl_engine_eval_batch(wl_engine *e, const uint32_t *seqs, const int32_t *tokens, uint32_t n, wl_error *err) {
    clear_err(err);
    if (!e || !seqs || !tokens || !n)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_eval_batch", "NULL engine or arrays, or n 0");
    const wl_engine_info *in = &e->info;
    if (n > in->n_seq)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_eval_batch", "%u sequences, the engine has %u", n,
                        in->n_seq);
    uint32_t *pos = malloc(n * sizeof *pos);
    if (!pos)
        return wl__fail(err, WL_STATUS_OUT_OF_MEMORY, "wl_engine_eval_batch", "no memory");
    for (uint32_t i = 0; i < n; i++) {
        const char *why = NULL;
        if (seqs[i] >= in->n_seq)
            why = "is not a sequence";
        for (uint32_t j = 0; !why && j < i; j++)
            if (seqs[j] == seqs[i])
                why = "appears twice";
        if (!why && e->pos[seqs[i]] >= in->n_ctx)
            why = "has a full context";
        if (!why && (tokens[i] < 0 || (uint32_t)tokens[i] >= in->n_vocab))
            why = "has a token outside the vocabulary";
        if (why) {
            free(pos);
            return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_eval_batch", "entry %u: sequence %u %s (token %d)",
                            i, seqs[i], why, tokens[i]);
        }
        pos[i] = e->pos[seqs[i]];
    }
    wt_context *ctx = e->ctx;
    wt_tensor *x = hidden(e, tokens, n, 0, 0, seqs, pos);
    e->logits = x ? head(e, x) : NULL;
    wt_release(x);
    if (!e->logits) {
        free(pos);
        return gpu_fail(e, ctx, err, "eval_batch");
    }
    for (uint32_t i = 0; i < n; i++)
        e->pos[seqs[i]] = pos[i] + 1;
    free(pos);
    return WL_OK;
}

wt_tensor *wl_engine_logits(wl_engine *e) {
    return e ? e->logits : NULL;
}

wl_status wl_engine_read_logits(wl_engine *e, float *dst, size_t count, wl_error *err) {
    clear_err(err);
    if (!e || !e->logits)
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_read_logits", "no logits (no eval yet?)");
    if (count != (size_t)wt_numel(e->logits))
        return wl__fail(err, WL_STATUS_INVALID_ARGUMENT, "wl_engine_read_logits", "count %zu, the logits hold %lld",
                        count, (long long)wt_numel(e->logits));
    if (wt_to_host(e->ctx, e->logits, dst, count * sizeof *dst) != WT_OK)
        return gpu_fail(e, e->ctx, err, "read logits");
    return WL_OK;
}
