/* test_engine.c - the llama-family engine (wl_engine, wl_sampler).
 *
 * Without arguments (make check): tiny random models written as GGUF files in memory - llama
 * (tied head, interleaved RoPE), qwen2 (q/k/v biases, half-split RoPE, its own output head) and
 * llama with Llama-3 frequency factors (rope_freqs.weight) - and as BF16 safetensors with a
 * config.json and Hugging Face names (llama tied, qwen2 with biases; half RoPE; llama with Llama
 * 3.1's rope_scaling object, the reference taking Hugging Face's llama3 rule) - evaluated by the engine and by a
 * plain C forward pass in double: logits of every position within 1e-4; decoding token by token
 * through the KV cache equals evaluating the whole sequence; truncate and a second sequence;
 * batched decode of both sequences in one pass (wl_engine_eval_batch);
 * greedy sampling is the argmax, the repetition penalty and seeded sampling behave; bad input
 * (another architecture, a prompt longer than the context, a token out of range, a missing
 * tensor, a model larger than the device memory) is an error naming it.
 *
 * With `--real MODEL GOLDEN` (tests/llm/test_engine_real.sh): SmolLM2-135M-Instruct in F32
 * against llama.cpp's values in GOLDEN (tests/llm/golden/smollm2-f32.txt): every prompt
 * position's logits at 256 vocabulary entries and the top 32, and the row's mean and rms, within
 * 1e-3; greedy 64-token continuations equal up to the first step where llama.cpp's top two logits
 * are closer than 0.01; one submit per decoded token; the first decode steps' logits equal a
 * re-evaluation of the whole sequence within 1e-3; then prefill and decode tokens/s.
 *
 * With `--kv-f16 MODEL` (tests/llm/test_kv_f16_real.sh): the model with an f16 KV cache against
 * the f32 one (logits, argmax, wt_stats memory: see real_kv_f16).  Without arguments, also: an
 * f16 cache on a tiny model against a reference rounding k and v to f16, and a quantized
 * weight's bytes in wt_stats. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tensor/tensor_test.h"
#include "wgc/llm.h"

static wt_context *ctx;
static uint64_t seed = 0x9e3779b97f4a7c15ull;

/* ---- a tiny GGUF writer ---- */
typedef struct gbuf {
    unsigned char *d;
    size_t n, cap;
} gbuf;
static void put(gbuf *b, const void *p, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->d = realloc(b->d, b->cap);
    }
    memcpy(b->d + b->n, p, n);
    b->n += n;
}
static void p32(gbuf *b, uint32_t v) { put(b, &v, 4); }
static void p64(gbuf *b, uint64_t v) { put(b, &v, 8); }
static void pstr(gbuf *b, const char *s) { p64(b, strlen(s)); put(b, s, strlen(s)); }

typedef struct cfg {
    const char *arch;
    uint32_t layers, embd, heads, kv, hd, ff, vocab, ctx;
    bool bias, own_head, freqs;
    double base;
    bool hf;                  /* written as safetensors with Hugging Face names (half RoPE, BF16) */
} cfg;

typedef struct tens {
    char name[64];
    uint64_t ne0, ne1;
    double *v;
} tens;

typedef struct model {
    cfg c;
    tens t[64];
    int n;
} model;

static tens *add(model *m, const char *name, uint64_t ne0, uint64_t ne1, double scale, double base) {
    tens *t = &m->t[m->n++];
    snprintf(t->name, sizeof t->name, "%s", name);
    t->ne0 = ne0, t->ne1 = ne1;
    t->v = malloc(ne0 * ne1 * sizeof *t->v);
    for (uint64_t i = 0; i < ne0 * ne1; i++)
        t->v[i] = (double)(float)(base + scale * tt_rand(&seed, -1, 1));
    return t;
}

static const tens *get(const model *m, const char *name) {
    for (int i = 0; i < m->n; i++)
        if (!strcmp(m->t[i].name, name))
            return &m->t[i];
    return NULL;
}

static void make_model(model *m, const cfg *c) {
    memset(m, 0, sizeof *m);
    m->c = *c;
    uint32_t q = c->heads * c->hd, kv = c->kv * c->hd;
    add(m, "token_embd.weight", c->embd, c->vocab, 1, 0);
    add(m, "output_norm.weight", c->embd, 1, 0.2, 1);
    if (c->own_head)
        add(m, "output.weight", c->embd, c->vocab, 0.3, 0);
    if (c->freqs && !c->hf) {
        add(m, "rope_freqs.weight", c->hd / 2, 1, 3, 4);   /* divisors in [1, 7] */
    } else if (c->freqs) {
        /* Llama 3.1's rope_scaling in config.json (write_safetensors): the reference takes the
         * inverse frequencies as Hugging Face's llama3 rule makes them, as divisors of the plain
         * ones.  Wavelengths at hd 16, base 10000: 6.3, 20, 63 (kept), 199 (blended), 628 ... (/ 8) */
        tens *t = add(m, "rope_freqs.weight", c->hd / 2, 1, 0, 1);
        const double factor = 8, lo = 1, hi = 4, orig = 256, pi = 3.14159265358979323846;
        for (uint32_t i = 0; i < c->hd / 2; i++) {
            double inv = 1 / pow(c->base, 2.0 * i / c->hd), wl = 2 * pi / inv, scaled = wl > orig / lo ? inv / factor : inv;
            if (wl >= orig / hi && wl <= orig / lo) {
                double sm = (orig / wl - lo) / (hi - lo);
                scaled = (1 - sm) * scaled / factor + sm * scaled;
            }
            t->v[i] = inv / scaled;
        }
    }
    for (uint32_t l = 0; l < c->layers; l++) {
        char n[64];
#define W(name, a, b, s, base) (snprintf(n, sizeof n, "blk.%u." name, l), add(m, n, a, b, s, base))
        W("attn_norm.weight", c->embd, 1, 0.2, 1);
        W("attn_q.weight", c->embd, q, 0.3, 0);
        W("attn_k.weight", c->embd, kv, 0.3, 0);
        W("attn_v.weight", c->embd, kv, 0.3, 0);
        if (c->bias) {
            W("attn_q.bias", q, 1, 0.5, 0);
            W("attn_k.bias", kv, 1, 0.5, 0);
            W("attn_v.bias", kv, 1, 0.5, 0);
        }
        W("attn_output.weight", q, c->embd, 0.3, 0);
        W("ffn_norm.weight", c->embd, 1, 0.2, 1);
        W("ffn_gate.weight", c->embd, c->ff, 0.3, 0);
        W("ffn_up.weight", c->embd, c->ff, 0.3, 0);
        W("ffn_down.weight", c->ff, c->embd, 0.3, 0);
#undef W
    }
}

static void free_model(model *m) {
    for (int i = 0; i < m->n; i++)
        free(m->t[i].v);
}

static gbuf write_gguf(const model *m) {
    gbuf b = { 0 };
    const cfg *c = &m->c;
    put(&b, "GGUF", 4);
    p32(&b, 3);
    p64(&b, (uint64_t)m->n);
    p64(&b, 10);
    char k[96];
    pstr(&b, "general.architecture"), p32(&b, 8), pstr(&b, c->arch);
#define U(name, v) (snprintf(k, sizeof k, "%s." name, c->arch), pstr(&b, k), p32(&b, 4), p32(&b, v))
    U("block_count", c->layers);
    U("embedding_length", c->embd);
    U("feed_forward_length", c->ff);
    U("attention.head_count", c->heads);
    U("attention.head_count_kv", c->kv);
    U("context_length", c->ctx);
    U("attention.key_length", c->hd);
#undef U
    float eps = 1e-5f, base = (float)c->base;
    snprintf(k, sizeof k, "%s.attention.layer_norm_rms_epsilon", c->arch), pstr(&b, k), p32(&b, 6), put(&b, &eps, 4);
    snprintf(k, sizeof k, "%s.rope.freq_base", c->arch), pstr(&b, k), p32(&b, 6), put(&b, &base, 4);
    uint64_t off = 0;
    for (int i = 0; i < m->n; i++) {
        const tens *t = &m->t[i];
        pstr(&b, t->name);
        p32(&b, t->ne1 > 1 ? 2 : 1);
        p64(&b, t->ne0);
        if (t->ne1 > 1)
            p64(&b, t->ne1);
        p32(&b, 0);
        p64(&b, off);
        off += (t->ne0 * t->ne1 * 4 + 31) / 32 * 32;
    }
    while (b.n % 32)
        put(&b, "", 1);
    for (int i = 0; i < m->n; i++) {
        const tens *t = &m->t[i];
        for (uint64_t j = 0; j < t->ne0 * t->ne1; j++) {
            float f = (float)t->v[j];
            put(&b, &f, 4);
        }
        while (b.n % 32)
            put(&b, "", 1);
    }
    return b;
}

/* The model as model.safetensors (BF16, Hugging Face names) and config.json in dir; the values
 * are rounded to BF16 in place so the reference sees what the file holds. */
static float bf16_round(double v) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    u = (u + 0x7fff + ((u >> 16) & 1)) & 0xffff0000u;
    memcpy(&f, &u, 4);
    return f;
}
static void hf_name(const char *g, char *out, size_t size) {
    static const char *const map[][2] = {
        { "token_embd.weight", "model.embed_tokens.weight" }, { "output_norm.weight", "model.norm.weight" },
        { "output.weight", "lm_head.weight" }, { "attn_norm.weight", "input_layernorm.weight" },
        { "attn_q.", "self_attn.q_proj." }, { "attn_k.", "self_attn.k_proj." }, { "attn_v.", "self_attn.v_proj." },
        { "attn_output.", "self_attn.o_proj." }, { "ffn_norm.weight", "post_attention_layernorm.weight" },
        { "ffn_gate.", "mlp.gate_proj." }, { "ffn_up.", "mlp.up_proj." }, { "ffn_down.", "mlp.down_proj." } };
    unsigned l;
    int k = 0;
    if (sscanf(g, "blk.%u.%n", &l, &k) == 1 && k) {
        for (size_t i = 3; i < sizeof map / sizeof *map; i++)
            if (!strncmp(g + k, map[i][0], strlen(map[i][0]))) {
                snprintf(out, size, "model.layers.%u.%s%s", l, map[i][1], g + k + strlen(map[i][0]));
                return;
            }
    }
    for (size_t i = 0; i < 3; i++)
        if (!strcmp(g, map[i][0])) {
            snprintf(out, size, "%s", map[i][1]);
            return;
        }
    snprintf(out, size, "%s", g);
}
static bool write_safetensors(model *m, const char *dir) {
    const cfg *c = &m->c;
    char path[512], hdr[16384], nm[96];
    size_t hn = 0, off = 0;
    hn += (size_t)snprintf(hdr + hn, sizeof hdr - hn, "{");
    for (int i = 0; i < m->n; i++) {
        tens *t = &m->t[i];
        if (!strcmp(t->name, "rope_freqs.weight"))
            continue;   /* config.json's rope_scaling instead */
        hf_name(t->name, nm, sizeof nm);
        size_t bytes = t->ne0 * t->ne1 * 2;
        if (t->ne1 > 1)
            hn += (size_t)snprintf(hdr + hn, sizeof hdr - hn, "%s\"%s\":{\"dtype\":\"BF16\",\"shape\":[%llu,%llu],\"data_offsets\":[%zu,%zu]}",
                                   i ? "," : "", nm, (unsigned long long)t->ne1, (unsigned long long)t->ne0, off, off + bytes);
        else
            hn += (size_t)snprintf(hdr + hn, sizeof hdr - hn, "%s\"%s\":{\"dtype\":\"BF16\",\"shape\":[%llu],\"data_offsets\":[%zu,%zu]}",
                                   i ? "," : "", nm, (unsigned long long)t->ne0, off, off + bytes);
        off += bytes;
    }
    hn += (size_t)snprintf(hdr + hn, sizeof hdr - hn, "}");
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    uint64_t len = hn;
    fwrite(&len, 8, 1, f);
    fwrite(hdr, 1, hn, f);
    for (int i = 0; i < m->n; i++) {
        tens *t = &m->t[i];
        if (!strcmp(t->name, "rope_freqs.weight"))
            continue;
        for (uint64_t j = 0; j < t->ne0 * t->ne1; j++) {
            float b = bf16_round(t->v[j]);
            uint32_t u;
            memcpy(&u, &b, 4);
            uint16_t h = (uint16_t)(u >> 16);
            fwrite(&h, 2, 1, f);
            t->v[j] = b;
        }
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/config.json", dir);
    f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "{\"model_type\": \"%s\", \"num_hidden_layers\": %u, \"hidden_size\": %u, \"intermediate_size\": %u, "
               "\"num_attention_heads\": %u, \"num_key_value_heads\": %u, \"max_position_embeddings\": %u, "
               "\"rope_theta\": %.1f, \"rms_norm_eps\": 1e-05, \"vocab_size\": %u, \"head_dim\": %u%s}\n",
            c->arch, c->layers, c->embd, c->ff, c->heads, c->kv, c->ctx, c->base, c->vocab, c->hd,
            c->freqs ? ", \"rope_scaling\": {\"factor\": 8.0, \"high_freq_factor\": 4.0, \"low_freq_factor\": 1.0, "
                       "\"original_max_position_embeddings\": 256, \"rope_type\": \"llama3\"}" : "");
    fclose(f);
    return true;
}

/* ---- the reference forward pass, in double ---- */
static void rmsnorm(const double *x, const double *w, uint32_t n, double *out) {
    double s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += x[i] * x[i];
    double r = 1 / sqrt(s / n + 1e-5);
    for (uint32_t i = 0; i < n; i++)
        out[i] = x[i] * r * w[i];
}
/* out[o] = sum_i x[i] w[o][i] (+ b[o]) */
static void lin(const double *x, const tens *w, const tens *b, double *out) {
    for (uint64_t o = 0; o < w->ne1; o++) {
        double s = b ? b->v[o] : 0;
        for (uint64_t i = 0; i < w->ne0; i++)
            s += x[i] * w->v[o * w->ne0 + i];
        out[o] = s;
    }
}
static void rope_ref(const model *m, double *v, uint32_t heads, uint32_t pos) {
    const cfg *c = &m->c;
    const tens *ff = get(m, "rope_freqs.weight");
    bool half = !strcmp(c->arch, "qwen2") || c->hf;
    for (uint32_t h = 0; h < heads; h++)
        for (uint32_t i = 0; i < c->hd / 2; i++) {
            double a = pos * pow(c->base, -2.0 * i / c->hd) / (ff ? ff->v[i] : 1);
            double *x0 = &v[h * c->hd + (half ? i : 2 * i)], *x1 = &v[h * c->hd + (half ? i + c->hd / 2 : 2 * i + 1)];
            double y0 = *x0 * cos(a) - *x1 * sin(a), y1 = *x0 * sin(a) + *x1 * cos(a);
            *x0 = y0, *x1 = y1;
        }
}
/* logits [n][vocab] of tokens[0 .. n) */
static bool ref_f16_kv;   /* the reference rounds k (after RoPE) and v to f16, as an f16 KV cache stores them */

static double round_f16(double v) {
    return wt_f16_to_f32(wt_f32_to_f16((float)v));
}

static double *ref_forward(const model *m, const int32_t *tok, uint32_t n) {
    const cfg *c = &m->c;
    uint32_t E = c->embd, Q = c->heads * c->hd, KV = c->kv * c->hd;
    double *x = calloc((size_t)n * E, 8), *h = malloc(E * 8), *K = malloc((size_t)n * KV * 8),
           *V = malloc((size_t)n * KV * 8), *q = malloc((size_t)n * Q * 8), *a = malloc(Q * 8), *o = malloc(E * 8),
           *g = malloc(c->ff * 8), *u = malloc(c->ff * 8), *p = malloc(n * 8);
    const tens *emb = get(m, "token_embd.weight");
    for (uint32_t t = 0; t < n; t++)
        memcpy(&x[t * E], &emb->v[(size_t)tok[t] * E], E * 8);
    char nm[64];
#define T(name) (snprintf(nm, sizeof nm, "blk.%u." name, l), get(m, nm))
    for (uint32_t l = 0; l < c->layers; l++) {
        for (uint32_t t = 0; t < n; t++) {
            rmsnorm(&x[t * E], T("attn_norm.weight")->v, E, h);
            lin(h, T("attn_q.weight"), T("attn_q.bias"), &q[t * Q]);
            lin(h, T("attn_k.weight"), T("attn_k.bias"), &K[t * KV]);
            lin(h, T("attn_v.weight"), T("attn_v.bias"), &V[t * KV]);
            rope_ref(m, &q[t * Q], c->heads, t);
            rope_ref(m, &K[t * KV], c->kv, t);
            for (uint32_t i = 0; ref_f16_kv && i < KV; i++)
                K[t * KV + i] = round_f16(K[t * KV + i]), V[t * KV + i] = round_f16(V[t * KV + i]);
        }
        for (uint32_t t = 0; t < n; t++) {
            for (uint32_t hh = 0; hh < c->heads; hh++) {
                uint32_t kh = hh / (c->heads / c->kv);
                double mx = -1e300, s = 0;
                for (uint32_t j = 0; j <= t; j++) {
                    double d = 0;
                    for (uint32_t e = 0; e < c->hd; e++)
                        d += q[t * Q + hh * c->hd + e] * K[j * KV + kh * c->hd + e];
                    p[j] = d / sqrt(c->hd);
                    mx = fmax(mx, p[j]);
                }
                for (uint32_t j = 0; j <= t; j++)
                    s += (p[j] = exp(p[j] - mx));
                for (uint32_t e = 0; e < c->hd; e++) {
                    double acc = 0;
                    for (uint32_t j = 0; j <= t; j++)
                        acc += p[j] * V[j * KV + kh * c->hd + e];
                    a[hh * c->hd + e] = acc / s;
                }
            }
            lin(a, T("attn_output.weight"), NULL, o);
            for (uint32_t e = 0; e < E; e++)
                x[t * E + e] += o[e];
            rmsnorm(&x[t * E], T("ffn_norm.weight")->v, E, h);
            lin(h, T("ffn_gate.weight"), NULL, g);
            lin(h, T("ffn_up.weight"), NULL, u);
            for (uint32_t f = 0; f < c->ff; f++)
                g[f] = g[f] / (1 + exp(-g[f])) * u[f];
            lin(g, T("ffn_down.weight"), NULL, o);
            for (uint32_t e = 0; e < E; e++)
                x[t * E + e] += o[e];
        }
    }
#undef T
    double *out = malloc((size_t)n * c->vocab * 8);
    const tens *head = get(m, "output.weight");
    for (uint32_t t = 0; t < n; t++) {
        rmsnorm(&x[t * E], get(m, "output_norm.weight")->v, E, h);
        lin(h, head ? head : emb, NULL, &out[(size_t)t * c->vocab]);
    }
    free(x), free(h), free(K), free(V), free(q), free(a), free(o), free(g), free(u), free(p);
    return out;
}

/* max |got - want| over n */
/* wl_sampler's documented order in plain C (sample.c's opening comment): candidates sorted by
 * logit (ties by id), top-k, top-p and min-p at temperature 1, then a draw at the temperature with
 * splitmix64's next uniform number. */
static int32_t ref_sample(const float *l, size_t V, const wl_sampler_desc *q, uint64_t *state) {
    int32_t *id = malloc(V * sizeof *id);
    for (size_t i = 0; i < V; i++)
        id[i] = (int32_t)i;
    for (size_t i = 1; i < V; i++)   /* insertion sort: stable, ids ascending among ties */
        for (size_t j = i; j > 0 && l[id[j]] > l[id[j - 1]]; j--) {
            int32_t t = id[j];
            id[j] = id[j - 1];
            id[j - 1] = t;
        }
    size_t n = q->top_k && q->top_k < V ? q->top_k : V;
    double mx = l[id[0]], sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += exp(l[id[i]] - mx);
    if (q->top_p > 0 && q->top_p < 1) {
        double acc = 0;
        size_t k = 0;
        while (k < n && acc < q->top_p)
            acc += exp(l[id[k++]] - mx) / sum;
        n = k;
    }
    if (q->min_p > 0) {
        size_t k = 1;
        while (k < n && l[id[k]] - mx >= log(q->min_p))
            k++;
        n = k;
    }
    double z = 0;
    for (size_t i = 0; i < n; i++)
        z += exp((l[id[i]] - mx) / q->temperature);
    uint64_t w = (*state += 0x9e3779b97f4a7c15ull);
    w = (w ^ (w >> 30)) * 0xbf58476d1ce4e5b9ull;
    w = (w ^ (w >> 27)) * 0x94d049bb133111ebull;
    w ^= w >> 31;
    double x = (double)(w >> 11) * (1.0 / 9007199254740992.0) * z, acc = 0;
    int32_t pick = id[n - 1];
    for (size_t i = 0; i < n; i++) {
        acc += exp((l[id[i]] - mx) / q->temperature);
        if (x < acc) {
            pick = id[i];
            break;
        }
    }
    free(id);
    return pick;
}

static double maxdiff(const float *got, const double *want, size_t n) {
    double d = 0;
    for (size_t i = 0; i < n; i++)
        d = fmax(d, isnan(got[i]) ? INFINITY : fabs(got[i] - want[i]));
    return d;
}

static void synthetic(const cfg *c) {
    model m;
    make_model(&m, c);
    gbuf g = { 0 };
    wl_error err;
    wl_model *wm = NULL;
    char dir[] = "/tmp/wgc_engine_XXXXXX";
    if (c->hf) {
        CHECK(mkdtemp(dir) && write_safetensors(&m, dir));
        wm = wl_model_open(dir, NULL, &err);
    } else {
        g = write_gguf(&m);
        wm = wl_gguf_open_memory(g.d, g.n, NULL, &err);
    }
    CHECKF(wm != NULL, "%s: open: %s", c->arch, err.message);
    wl_engine *e = wm ? wl_engine_create(ctx, wm, &(wl_engine_desc){ .n_ctx = 24, .n_seq = 2 }, &err) : NULL;
    CHECKF(e != NULL, "%s: create: %s", c->arch, err.message);
    wl_model_close(wm);   /* the engine keeps nothing pointing into the model */
    if (c->hf) {
        char path[600];
        snprintf(path, sizeof path, "%s/model.safetensors", dir), remove(path);
        snprintf(path, sizeof path, "%s/config.json", dir), remove(path);
        remove(dir);
    }
    if (!e) {
        free(g.d), free_model(&m);
        return;
    }
    const wl_engine_info *in = wl_engine_get_info(e);
    CHECK(in->tied == !c->own_head && in->rope_host == c->freqs && in->n_vocab == c->vocab && in->n_ctx == 24);
    CHECK(in->rope_layout == (!strcmp(c->arch, "qwen2") || c->hf ? WT_ROPE_HALF : WT_ROPE_INTERLEAVED));
    enum { N = 13 };
    int32_t tok[N];
    for (int i = 0; i < N; i++)
        tok[i] = (int32_t)(tt_rand(&seed, 0, c->vocab - 0.01));
    double *want = ref_forward(&m, tok, N);
    size_t V = c->vocab;
    float *got = malloc(N * V * sizeof *got);
    /* the whole prompt at once, every row */
    CHECKF(wl_engine_eval(e, 0, tok, N, WL_LOGITS_ALL, &err) == WL_OK, "%s: eval: %s", c->arch, err.message);
    CHECKF(wl_engine_read_logits(e, got, N * V, &err) == WL_OK, "%s: read: %s", c->arch, err.message);
    double d = maxdiff(got, want, N * V);
    CHECKF(d <= 1e-4, "%s: prefill logits differ from the reference by %g", c->arch, d);
    CHECK(wl_engine_pos(e, 0) == N);
    /* token by token through the KV cache on sequence 1, after a 5-token prefix */
    CHECKF(wl_engine_eval(e, 1, tok, 5, WL_LOGITS_LAST, &err) == WL_OK, "%s: eval 5: %s", c->arch, err.message);
    CHECK(wl_engine_read_logits(e, got, V, &err) == WL_OK);
    d = maxdiff(got, want + 4 * V, V);
    CHECKF(d <= 1e-4, "%s: prefix logits differ by %g", c->arch, d);
    double dd = 0;
    for (int t = 5; t < N; t++) {
        CHECKF(wl_engine_eval(e, 1, &tok[t], 1, WL_LOGITS_LAST, &err) == WL_OK, "%s: decode: %s", c->arch, err.message);
        CHECK(wl_engine_read_logits(e, got, V, &err) == WL_OK);
        dd = fmax(dd, maxdiff(got, want + t * V, V));
    }
    CHECKF(dd <= 1e-4, "%s: decoded logits differ from the reference by %g", c->arch, dd);
    /* truncate sequence 1 back to 7 and decode again: the same rows */
    CHECK(wl_engine_truncate(e, 1, 7, &err) == WL_OK && wl_engine_pos(e, 1) == 7);
    CHECK(wl_engine_eval(e, 1, &tok[7], 3, WL_LOGITS_ALL, &err) == WL_OK);
    CHECK(wl_engine_read_logits(e, got, 3 * V, &err) == WL_OK);
    d = maxdiff(got, want + 7 * V, 3 * V);
    CHECKF(d <= 1e-4, "%s: after truncate, logits differ by %g", c->arch, d);
    /* greedy = the reference's argmax of the last row */
    wl_sampler *s = wl_sampler_create(NULL, &err);
    int32_t t0 = -1;
    CHECK(s && wl_sampler_sample(s, e, 2, &t0, &err) == WL_OK);
    size_t best = 0;
    for (size_t i = 1; i < V; i++)
        if (want[9 * V + i] > want[9 * V + best])
            best = i;
    CHECKF(t0 == (int32_t)best, "%s: greedy %d, reference argmax %zu", c->arch, t0, best);
    /* a huge repetition penalty on that token moves the argmax elsewhere */
    wl_sampler *sp = wl_sampler_create(&(wl_sampler_desc){ .repeat_penalty = 1e30f }, &err);
    wl_sampler_accept(sp, t0);
    int32_t t1 = -1;
    CHECK(wl_sampler_sample(sp, e, 2, &t1, &err) == WL_OK && t1 >= 0 && t1 != t0);
    /* seeded sampling: reproducible; top_k 1 is greedy; every draw inside the top-k */
    wl_sampler_desc sd = { .temperature = 1.5f, .top_k = 5, .seed = 42 };
    wl_sampler *a = wl_sampler_create(&sd, &err), *b = wl_sampler_create(&sd, &err);
    sd.top_k = 1;
    wl_sampler *k1 = wl_sampler_create(&sd, &err);
    bool same = true, inside = true, varied = false;
    for (int i = 0; i < 40; i++) {
        int32_t x = -1, y = -2, z = -3;
        wl_sampler_sample(a, e, 2, &x, &err);
        wl_sampler_sample(b, e, 2, &y, &err);
        wl_sampler_sample(k1, e, 2, &z, &err);
        same = same && x == y && z == t0;
        int rank = 0;
        for (size_t j = 0; j < V; j++)
            rank += want[9 * V + j] > want[9 * V + (size_t)x];
        inside = inside && x >= 0 && rank < 5;
        varied = varied || x != t0;
    }
    CHECKF(same && inside && varied, "%s: seeded sampling same %d inside top-k %d varied %d", c->arch, same, inside, varied);
    /* top-k on the GPU (wt_topk) then top-p, min-p, temperature: the same draws as the documented
     * order run here in C on the row the sampler saw (row 2 of the last evaluation) */
    const float *lrow = got + 2 * V;
    for (int kk = 0; kk < 3; kk++) {
        wl_sampler_desc q = { .temperature = 0.8f + 0.4f * kk, .top_k = kk == 2 ? (uint32_t)V - 1 : 3u + 5u * kk,
                              .top_p = kk == 1 ? 0.0f : 0.9f, .min_p = kk == 0 ? 0.0f : 0.02f, .seed = 7u + kk };
        wl_sampler *gs = wl_sampler_create(&q, &err);
        uint64_t state = q.seed;
        int agree = 0;
        for (int i = 0; i < 30; i++) {
            int32_t x = -1;
            CHECK(gs && wl_sampler_sample(gs, e, 2, &x, &err) == WL_OK);
            agree += x == ref_sample(lrow, V, &q, &state);
        }
        CHECKF(agree == 30, "%s: top_k %u: %d of 30 draws agree with the C reference", c->arch, q.top_k, agree);
        wl_sampler_release(gs);
    }
    wl_sampler_release(a), wl_sampler_release(b), wl_sampler_release(k1), wl_sampler_release(sp), wl_sampler_release(s);
    /* bad input */
    CHECK(wl_engine_eval(e, 0, tok, 12, WL_LOGITS_LAST, &err) == WL_STATUS_INVALID_ARGUMENT &&
          strstr(err.message, "12 tokens at position 13 do not fit the context of 24 positions"));
    CHECK(wl_engine_pos(e, 0) == N);
    int32_t badtok = (int32_t)c->vocab;
    CHECK(wl_engine_eval(e, 0, &badtok, 1, WL_LOGITS_LAST, &err) == WL_STATUS_INVALID_ARGUMENT &&
          strstr(err.message, "outside [0,"));
    CHECK(wl_engine_eval(e, 2, tok, 1, WL_LOGITS_LAST, &err) == WL_STATUS_INVALID_ARGUMENT);
    CHECK(wl_engine_truncate(e, 0, N + 1, &err) == WL_STATUS_INVALID_ARGUMENT);
    /* batched decode: one token each of both sequences in one pass, rows in the order asked */
    CHECK(wl_engine_truncate(e, 0, 5, &err) == WL_OK && wl_engine_truncate(e, 1, 8, &err) == WL_OK);
    static const int steps[][2][2] = { { { 1, 8 }, { 0, 5 } }, { { 0, 6 }, { 1, 9 } } };   /* (seq, position) */
    double db = 0;
    for (int st = 0; st < 2; st++) {
        uint32_t seqs[2] = { (uint32_t)steps[st][0][0], (uint32_t)steps[st][1][0] };
        int32_t tk[2] = { tok[steps[st][0][1]], tok[steps[st][1][1]] };
        CHECKF(wl_engine_eval_batch(e, seqs, tk, 2, &err) == WL_OK, "%s: eval_batch: %s", c->arch, err.message);
        CHECK(wl_engine_read_logits(e, got, 2 * V, &err) == WL_OK);
        db = fmax(db, maxdiff(got, want + steps[st][0][1] * V, V));
        db = fmax(db, maxdiff(got + V, want + steps[st][1][1] * V, V));
    }
    CHECK(wl_engine_pos(e, 0) == 7 && wl_engine_pos(e, 1) == 10);
    uint32_t one = 0;
    CHECK(wl_engine_eval_batch(e, &one, &tok[7], 1, &err) == WL_OK && wl_engine_read_logits(e, got, V, &err) == WL_OK);
    db = fmax(db, maxdiff(got, want + 7 * V, V));
    CHECKF(db <= 1e-4, "%s: batched decode differs from the reference by %g", c->arch, db);
    uint32_t dup[2] = { 1, 1 };
    CHECK(wl_engine_eval_batch(e, dup, tok, 2, &err) == WL_STATUS_INVALID_ARGUMENT && strstr(err.message, "appears twice"));
    CHECK(wl_engine_pos(e, 1) == 10);
    wl_engine_release(e);
    CHECKF(wt_last_status(ctx) == WT_OK, "%s: left over error: %s", c->arch, wt_last_error(ctx));
    free(want), free(got), free(g.d);
    free_model(&m);
}

static void bad_models(void) {
    wl_error err;
    cfg c = { "gpt2", 1, 32, 4, 2, 8, 40, 50, 32, false, false, false, 10000, false };
    model m;
    make_model(&m, &c);
    gbuf g = write_gguf(&m);
    wl_model *wm = wl_gguf_open_memory(g.d, g.n, NULL, &err);
    CHECK(wm && !wl_engine_create(ctx, wm, NULL, &err) && err.status == WL_STATUS_UNSUPPORTED &&
          strstr(err.message, "architecture 'gpt2' is not supported"));
    wl_model_close(wm);
    free(g.d);
    /* a llama file without its blk.0.ffn_up.weight */
    m.c.arch = "llama";
    for (int i = 0; i < m.n; i++)
        if (!strcmp(m.t[i].name, "blk.0.ffn_up.weight"))
            snprintf(m.t[i].name, sizeof m.t[i].name, "blk.0.ffn_upx.weight");
    g = write_gguf(&m);
    wm = wl_gguf_open_memory(g.d, g.n, NULL, &err);
    CHECK(wm && !wl_engine_create(ctx, wm, NULL, &err) && err.status == WL_STATUS_NOT_FOUND &&
          strstr(err.message, "no tensor 'blk.0.ffn_up.weight'"));
    wl_model_close(wm);
    free(g.d);
    /* a model larger than the device memory (about 40 KB; a context capped at 16 KiB): OUT_OF_MEMORY, nothing leaked */
    m.c.arch = "llama";
    for (int i = 0; i < m.n; i++)
        if (!strcmp(m.t[i].name, "blk.0.ffn_upx.weight"))
            snprintf(m.t[i].name, sizeof m.t[i].name, "blk.0.ffn_up.weight");
    g = write_gguf(&m);
    wm = wl_gguf_open_memory(g.d, g.n, NULL, &err);
    wt_context *small = wt_context_create(wt_context_device(ctx), &(wt_context_desc){ .memory_limit = 16 << 10 });
    CHECK(wm && small);
    wl_engine *e = wm && small ? wl_engine_create(small, wm, NULL, &err) : NULL;
    CHECKF(!e && err.status == WL_STATUS_OUT_OF_MEMORY && strstr(err.message, "wl_engine: "), "a model over the memory limit: %s", err.message);
    printf("over the memory limit: %s\n", err.message);
    wl_engine_release(e);
    wt_context_destroy(small);
    wl_model_close(wm);
    free(g.d);
    free_model(&m);
    CHECK(!wl_engine_create(ctx, NULL, NULL, &err) && err.status == WL_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);
}

/* ---- the real model against llama.cpp ---- */

typedef struct gold_prompt {
    int32_t ids[512];
    int n;
    double *mean, *rms;
    int32_t (*top)[32];
    double (*topv)[32], (*sub)[256];
    int32_t greedy[64];
    double gap[64];
    int ng;
} gold_prompt;

static int read_golden(const char *path, int *subset, gold_prompt *ps, int maxp) {
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char word[32];
    int np = -1, V = 0;
    while (fscanf(f, "%31s", word) == 1) {
        if (word[0] == '#' || !strcmp(word, "prompt")) {
            int c;
            while ((c = fgetc(f)) != '\n' && c != EOF) {}
            if (!strcmp(word, "prompt") && ++np >= maxp)
                break;
        } else if (!strcmp(word, "vocab")) {
            if (fscanf(f, "%d", &V) != 1) break;
        } else if (!strcmp(word, "subset")) {
            int k = 0;
            if (fscanf(f, "%d", &k) != 1 || k != 256) break;
            for (int i = 0; i < 256; i++)
                if (fscanf(f, "%d", &subset[i]) != 1) break;
        } else if (!strcmp(word, "ids") && np >= 0) {
            gold_prompt *p = &ps[np];
            if (fscanf(f, "%d", &p->n) != 1 || p->n > 512) break;
            for (int i = 0; i < p->n; i++)
                if (fscanf(f, "%d", &p->ids[i]) != 1) break;
            p->mean = calloc((size_t)p->n, 8), p->rms = calloc((size_t)p->n, 8);
            p->top = calloc((size_t)p->n, sizeof *p->top), p->topv = calloc((size_t)p->n, sizeof *p->topv);
            p->sub = calloc((size_t)p->n, sizeof *p->sub);
        } else if (!strcmp(word, "pos") && np >= 0) {
            gold_prompt *p = &ps[np];
            int i, k;
            double mean, rms;
            char w2[16];
            if (fscanf(f, "%d %lf %lf %15s %d", &i, &mean, &rms, w2, &k) != 5 || i < 0 || i >= p->n || k != 32) break;
            p->mean[i] = mean, p->rms[i] = rms;
            for (int j = 0; j < 32; j++)
                if (fscanf(f, "%d %lf", &p->top[i][j], &p->topv[i][j]) != 2) break;
            if (fscanf(f, "%15s", w2) != 1) break;
            for (int j = 0; j < 256; j++)
                if (fscanf(f, "%lf", &p->sub[i][j]) != 1) break;
        } else if (!strcmp(word, "greedy") && np >= 0) {
            gold_prompt *p = &ps[np];
            if (fscanf(f, "%d", &p->ng) != 1 || p->ng > 64) break;
            for (int j = 0; j < p->ng; j++)
                if (fscanf(f, "%d %lf", &p->greedy[j], &p->gap[j]) != 2) break;
        } else {
            break;
        }
    }
    fclose(f);
    return V ? np + 1 : -1;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void real(const char *path, const char *golden) {
    static gold_prompt ps[8];
    int subset[256];
    int np = read_golden(golden, subset, ps, 8);
    CHECKF(np > 0, "cannot read %s", golden);
    if (np <= 0)
        return;
    wl_error err;
    wl_model *wm = wl_model_open(path, NULL, &err);
    CHECKF(wm != NULL, "%s", err.message);
    if (!wm)
        return;
    double t = now();
    wl_engine *e = wl_engine_create(ctx, wm, &(wl_engine_desc){ .n_ctx = 256 }, &err);
    CHECKF(e != NULL, "%s", err.message);
    wl_model_close(wm);
    if (!e)
        return;
    printf("loaded in %.1f s: %.1f MiB weights, %.1f MiB KV cache\n", now() - t,
           wl_engine_get_info(e)->weight_bytes / 1048576.0, wl_engine_get_info(e)->kv_bytes / 1048576.0);
    const size_t V = wl_engine_get_info(e)->n_vocab;
    float *lg = malloc(512 * V * sizeof *lg);
    double prefill_s = 0, decode_s = 0;
    int prefill_n = 0, decode_n = 0;
    for (int p = 0; p < np; p++) {
        gold_prompt *g = &ps[p];
        CHECK(wl_engine_truncate(e, 0, 0, &err) == WL_OK);
        t = now();
        CHECKF(wl_engine_eval(e, 0, g->ids, (uint32_t)g->n, WL_LOGITS_ALL, &err) == WL_OK, "%s", err.message);
        CHECKF(wl_engine_read_logits(e, lg, g->n * V, &err) == WL_OK, "%s", err.message);
        prefill_s += now() - t, prefill_n += g->n;
        double worst = 0;
        for (int i = 0; i < g->n; i++) {
            const float *r = lg + i * V;
            double s = 0, q = 0;
            for (size_t j = 0; j < V; j++)
                s += r[j], q += (double)r[j] * r[j];
            worst = fmax(worst, fabs(s / V - g->mean[i]));
            worst = fmax(worst, fabs(sqrt(q / V) - g->rms[i]));
            for (int j = 0; j < 32; j++)
                worst = fmax(worst, fabs(r[g->top[i][j]] - g->topv[i][j]));
            for (int j = 0; j < 256; j++)
                worst = fmax(worst, fabs(r[subset[j]] - g->sub[i][j]));
        }
        printf("prompt %d: %d tokens, largest logit difference from llama.cpp %.2e\n", p, g->n, worst);
        CHECKF(worst <= 1e-3, "prompt %d: logits differ from llama.cpp by %g (> 1e-3)", p, worst);
        /* greedy continuation: the last row's argmax, then one token at a time */
        wl_sampler *s = wl_sampler_create(NULL, &err);
        CHECK(wl_engine_eval(e, 0, g->ids, 0, WL_LOGITS_LAST, &err) == WL_STATUS_INVALID_ARGUMENT);
        int agree = 0, compared = 0;
        bool diverged = false;
        wt_stats st0, st1;
        wt_get_stats(ctx, &st0);
        int32_t tok = -1;
        /* logits of the whole prompt are current: sample row n-1 */
        CHECK(wl_engine_truncate(e, 0, 0, &err) == WL_OK);
        CHECK(wl_engine_eval(e, 0, g->ids, (uint32_t)g->n, WL_LOGITS_LAST, &err) == WL_OK);
        t = now();
        enum { KV_STEPS = 6 };   /* prompt 0: the first decode steps' logits, for the re-evaluation below */
        float *steps = p == 0 ? malloc(KV_STEPS * V * sizeof *steps) : NULL;
        int32_t seqtok[512];
        memcpy(seqtok, g->ids, (size_t)g->n * sizeof *seqtok);
        wt_stats sth = st0;   /* at the second half's start: the steady state */
        for (int j = 0; j < g->ng; j++) {
            if (j == g->ng / 2)
                wt_get_stats(ctx, &sth);
            if (steps && j < KV_STEPS)
                CHECK(wl_engine_read_logits(e, steps + j * V, V, &err) == WL_OK);
            CHECK(wl_sampler_sample(s, e, 0, &tok, &err) == WL_OK);
            seqtok[g->n + j] = tok;
            if (!diverged) {
                compared++;
                if (tok == g->greedy[j])
                    agree++;
                else
                    CHECKF(false, "prompt %d step %d: token %d, llama.cpp %d (gap %.4f)", p, j, tok, g->greedy[j],
                           g->gap[j]);
                if (g->gap[j] < 0.01 || tok != g->greedy[j])
                    diverged = true;   /* a near tie: the rest may differ */
            }
            if (j + 1 < g->ng)
                CHECKF(wl_engine_eval(e, 0, &tok, 1, WL_LOGITS_LAST, &err) == WL_OK, "%s", err.message);
        }
        decode_s += now() - t, decode_n += g->ng;
        wt_get_stats(ctx, &st1);
        uint64_t flushes = st1.flushes - st0.flushes;
        printf("prompt %d: greedy %d of %d compared tokens equal llama.cpp's; %llu submits for %d tokens\n", p, agree,
               compared, (unsigned long long)flushes, g->ng);
        /* one submit per token once the pool holds what a decode step uses: the first steps
         * after a prefill may add the pool's reclaims (pool.c: a wait before it grows past
         * its bound), so the count is taken over the second half */
        uint64_t half = st1.flushes - sth.flushes;
        int nh = g->ng - g->ng / 2;
        CHECKF(steps || half <= (uint64_t)nh, "prompt %d: %llu submits for the last %d decoded tokens", p,
               (unsigned long long)half, nh);
        if (steps) {   /* decoding through the KV cache equals evaluating the whole sequence again */
            uint32_t n = (uint32_t)g->n + KV_STEPS - 1;
            CHECK(wl_engine_truncate(e, 0, 0, &err) == WL_OK);
            CHECK(wl_engine_eval(e, 0, seqtok, n, WL_LOGITS_ALL, &err) == WL_OK);
            CHECK(wl_engine_read_logits(e, lg, n * V, &err) == WL_OK);
            double d = 0;
            for (size_t i = 0; i < KV_STEPS * V; i++)
                d = fmax(d, fabs(steps[i] - lg[(size_t)(g->n - 1) * V + i]));
            printf("prompt 0: decode vs re-evaluation of %u tokens: largest logit difference %.2e\n", n, d);
            CHECKF(d <= 1e-3, "KV-cache decode differs from re-evaluation by %g", d);
            free(steps);
        }
        wl_sampler_release(s);
        free(g->mean), free(g->rms), free(g->top), free(g->topv), free(g->sub);
    }
    printf("prefill %.1f tok/s (%d tokens), decode %.2f tok/s (%d tokens)\n", prefill_n / prefill_s, prefill_n,
           decode_n / decode_s, decode_n);
    free(lg);
    wl_engine_release(e);
}

/* An f16 KV cache (wl_engine_desc.cache_type): half the cache bytes, in wt_stats too, and logits
 * within 2e-3 of the reference that rounds k and v to f16 (prefill and token-by-token decode;
 * the rest is where f32 and double round k and v to a different f16 neighbour), which must be
 * closer than the exact reference (the cache really is f16). */
static void kv_f16(const cfg *c) {
    if (!wt_context_has_f16(ctx)) {
        printf("SKIP: kv_f16: the device has no shader-f16\n");
        return;
    }
    model m;
    make_model(&m, c);
    gbuf g = write_gguf(&m);
    wl_error err;
    wl_model *wm = wl_gguf_open_memory(g.d, g.n, NULL, &err);
    CHECKF(wm != NULL, "%s", err.message);
    wt_stats s0, s1, s2;
    wt_sync(ctx);
    wt_get_stats(ctx, &s0);
    wl_engine *e32 = wm ? wl_engine_create(ctx, wm, &(wl_engine_desc){ .n_ctx = 24 }, &err) : NULL;
    CHECKF(e32 != NULL, "%s", err.message);
    wt_get_stats(ctx, &s1);
    wl_engine *e = wm ? wl_engine_create(ctx, wm, &(wl_engine_desc){ .n_ctx = 24, .cache_type = WT_F16 }, &err) : NULL;
    CHECKF(e != NULL, "f16 cache: %s", err.message);
    wt_get_stats(ctx, &s2);
    wl_model_close(wm);
    if (!e || !e32) {
        wl_engine_release(e), wl_engine_release(e32), free(g.d), free_model(&m);
        return;
    }
    const wl_engine_info *in = wl_engine_get_info(e), *in32 = wl_engine_get_info(e32);
    uint64_t kv16 = 2ull * c->layers * c->kv * 24 * c->hd * 2;
    CHECK(in->cache_type == WT_F16 && in32->cache_type == WT_F32);
    CHECKF(in->kv_bytes == kv16 && in32->kv_bytes == 2 * kv16, "kv bytes %llu (f16), %llu (f32)",
           (unsigned long long)in->kv_bytes, (unsigned long long)in32->kv_bytes);
    uint64_t l32 = s1.live_bytes - s0.live_bytes, l16 = s2.live_bytes - s1.live_bytes;
    CHECKF(l32 >= in32->weight_bytes + in32->kv_bytes && l16 >= in->weight_bytes + in->kv_bytes && l16 < l32,
           "live bytes: f32 engine %llu, f16 engine %llu", (unsigned long long)l32, (unsigned long long)l16);
    enum { N = 13 };
    int32_t tok[N];
    for (int i = 0; i < N; i++)
        tok[i] = (int32_t)(tt_rand(&seed, 0, c->vocab - 0.01));
    ref_f16_kv = true;
    double *want = ref_forward(&m, tok, N);
    ref_f16_kv = false;
    double *exact = ref_forward(&m, tok, N);
    size_t V = c->vocab;
    float *got = malloc(N * V * sizeof *got);
    CHECKF(wl_engine_eval(e, 0, tok, N, WL_LOGITS_ALL, &err) == WL_OK, "eval: %s", err.message);
    CHECK(wl_engine_read_logits(e, got, N * V, &err) == WL_OK);
    double d = maxdiff(got, want, N * V), dx = maxdiff(got, exact, N * V);
    CHECKF(d <= 2e-3, "f16 cache: prefill logits differ from the f16-rounding reference by %g", d);
    CHECK(wl_engine_truncate(e, 0, 5, &err) == WL_OK);
    double dd = 0;
    for (int t = 5; t < N; t++) {
        CHECK(wl_engine_eval(e, 0, &tok[t], 1, WL_LOGITS_LAST, &err) == WL_OK);
        CHECK(wl_engine_read_logits(e, got, V, &err) == WL_OK);
        dd = fmax(dd, maxdiff(got, want + t * V, V));
    }
    CHECKF(dd <= 2e-3, "f16 cache: decoded logits differ from the f16-rounding reference by %g", dd);
    /* the rounding is what the reference models: without it the logits are much further off */
    CHECKF(dx > 2 * fmax(d, dd), "f16 cache: %g from the exact reference, %g from the rounding one", dx, fmax(d, dd));
    printf("f16 KV cache: %llu bytes (f32: %llu); logits within %.2g of the f16-rounding reference, %.2g of the "
           "exact one\n", (unsigned long long)in->kv_bytes, (unsigned long long)in32->kv_bytes, fmax(d, dd), dx);
    wl_engine_release(e), wl_engine_release(e32);
    CHECKF(wt_last_status(ctx) == WT_OK, "left over error: %s", wt_last_error(ctx));
    free(want), free(exact), free(got), free(g.d);
    free_model(&m);
}

/* --kv-f16 MODEL: a real model with an f32 and an f16 KV cache.  The same prompt (prefill, every
 * row) and 6 greedy decode steps through the caches: logits within tol (absolute, against rows
 * whose values span tens) and the same argmax wherever the f32 row's top two are 0.05 apart;
 * wt_stats: each engine's live bytes hold its weights (quantized ones included) and cache, and
 * the f16 engine's cache takes half the bytes. */
static void real_kv_f16(const char *path) {
    static const int32_t prompt[] = { 1, 9690, 198, 2683, 359, 253, 5356, 5646, 11173, 3365, 3511, 308, 34519,
                                      28, 7018, 411, 407, 19712, 8182, 2, 198, 1, 4093, 198 };
    enum { N = sizeof prompt / sizeof *prompt, STEPS = 6 };
    const double tol = 0.1;   /* measured 0.036 on lavapipe */
    wl_error err;
    wl_model *wm = wl_model_open(path, NULL, &err);
    CHECKF(wm != NULL, "%s", err.message);
    if (!wm)
        return;
    wl_engine *e[2] = { NULL, NULL };
    uint64_t live[2] = { 0, 0 };
    for (int i = 0; i < 2; i++) {
        wt_stats a, b;
        wt_sync(ctx);
        wt_get_stats(ctx, &a);
        e[i] = wl_engine_create(ctx, wm, &(wl_engine_desc){ .n_ctx = 64, .cache_type = i ? WT_F16 : WT_F32 }, &err);
        CHECKF(e[i] != NULL, "%s", err.message);
        wt_get_stats(ctx, &b);
        live[i] = b.live_bytes - a.live_bytes;
    }
    wl_model_close(wm);
    if (!e[0] || !e[1]) {
        wl_engine_release(e[0]), wl_engine_release(e[1]);
        return;
    }
    const wl_engine_info *in[2] = { wl_engine_get_info(e[0]), wl_engine_get_info(e[1]) };
    printf("weights %.1f MiB; KV cache f32 %.2f MiB, f16 %.2f MiB; live bytes after create: %.1f / %.1f MiB\n",
           in[0]->weight_bytes / 1048576.0, in[0]->kv_bytes / 1048576.0, in[1]->kv_bytes / 1048576.0,
           live[0] / 1048576.0, live[1] / 1048576.0);
    CHECK(in[1]->kv_bytes * 2 == in[0]->kv_bytes && in[0]->weight_bytes == in[1]->weight_bytes);
    for (int i = 0; i < 2; i++)
        CHECKF(live[i] >= in[i]->weight_bytes + in[i]->kv_bytes && live[i] <= (in[i]->weight_bytes + in[i]->kv_bytes) * 1.1,
               "engine %d: live bytes %llu, weights + cache %llu", i, (unsigned long long)live[i],
               (unsigned long long)(in[i]->weight_bytes + in[i]->kv_bytes));
    CHECKF(live[0] - live[1] >= in[1]->kv_bytes * 9 / 10, "the f16 cache saved %lld bytes of %llu",
           (long long)(live[0] - live[1]), (unsigned long long)in[1]->kv_bytes);
    size_t V = in[0]->n_vocab;
    float *g[2] = { malloc(N * V * sizeof(float)), malloc(N * V * sizeof(float)) };
    double worst = 0;
    int mism = 0, rows = 0;
    int32_t tok = -1;
    for (int step = 0; step <= STEPS; step++) {
        uint32_t n = step ? 1 : N;
        for (int i = 0; i < 2; i++) {
            CHECKF(wl_engine_eval(e[i], 0, step ? &tok : prompt, n, step ? WL_LOGITS_LAST : WL_LOGITS_ALL, &err) == WL_OK,
                   "eval: %s", err.message);
            CHECK(wl_engine_read_logits(e[i], g[i], n * V, &err) == WL_OK);
        }
        for (uint32_t r = 0; r < n; r++) {
            const float *a = g[0] + r * V, *b = g[1] + r * V;
            size_t ba = 0, bb = 0, second = SIZE_MAX;
            for (size_t j = 0; j < V; j++) {
                worst = fmax(worst, fabs((double)a[j] - b[j]));
                if (a[j] > a[ba])
                    second = ba, ba = j;
                else if (second == SIZE_MAX || a[j] > a[second])
                    second = j;
                if (b[j] > b[bb])
                    bb = j;
            }
            rows++;
            mism += ba != bb && a[ba] - a[second] >= 0.05;
            if (r == n - 1)
                tok = (int32_t)ba;   /* greedy, from the f32 engine: both decode the same tokens */
        }
    }
    printf("f16 vs f32 KV cache: %d rows (%d prompt, %d decoded), max |logit difference| %.4f, %d argmax changes\n",
           rows, N, STEPS, worst, mism);
    CHECKF(worst <= tol, "f16 KV cache: logits differ from the f32 cache's by %g (> %g)", worst, tol);
    CHECK(mism == 0);
    free(g[0]), free(g[1]);
    wl_engine_release(e[0]), wl_engine_release(e[1]);
}

/* A quantized weight's own buffer counts in wt_stats (allocated, peak, live bytes and buffers)
 * while it lives: a model's peak memory is its weights plus the rest. */
static void qweight_stats(void) {
    enum { R = 48, C = 256 };
    size_t bytes = (size_t)R * C / 32 * 34;   /* Q8_0: 34 bytes a block */
    unsigned char *raw = calloc(bytes, 1);
    wt_stats a, b, c;
    wt_sync(ctx);
    wt_get_stats(ctx, &a);
    wt_qweight *w = wt_qweight_upload(ctx, WT_QFORMAT_Q8_0, R, C, raw, bytes);
    CHECKF(w != NULL, "%s", wt_last_error(ctx));
    wt_get_stats(ctx, &b);
    wt_qweight_release(w);
    wt_get_stats(ctx, &c);
    uint64_t sz = (bytes + 3) & ~(size_t)3;
    CHECKF(b.allocated_bytes - a.allocated_bytes == sz && b.live_bytes - a.live_bytes == sz &&
           b.live_buffers == a.live_buffers + 1 && b.peak_allocated_bytes >= b.allocated_bytes,
           "after upload: allocated +%lld, live +%lld, buffers +%lld (want %llu bytes, 1 buffer)",
           (long long)(b.allocated_bytes - a.allocated_bytes), (long long)(b.live_bytes - a.live_bytes),
           (long long)(b.live_buffers - a.live_buffers), (unsigned long long)sz);
    CHECK(c.allocated_bytes == a.allocated_bytes && c.live_bytes == a.live_bytes && c.live_buffers == a.live_buffers);
    free(raw);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);   /* progress lines as they come */
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    if (argc == 4 && !strcmp(argv[1], "--real")) {
        real(argv[2], argv[3]);
    } else if (argc == 3 && !strcmp(argv[1], "--kv-f16")) {
        real_kv_f16(argv[2]);
    } else {
        synthetic(&(cfg){ "llama", 2, 64, 4, 2, 16, 96, 80, 64, false, false, false, 10000, false });
        synthetic(&(cfg){ "qwen2", 2, 64, 4, 1, 16, 96, 80, 64, true, true, false, 1000000, false });
        synthetic(&(cfg){ "llama", 1, 64, 4, 4, 16, 96, 80, 64, false, false, true, 500000, false });
        synthetic(&(cfg){ "llama", 2, 64, 4, 2, 16, 96, 80, 64, false, false, false, 10000, true });
        synthetic(&(cfg){ "qwen2", 1, 64, 4, 2, 16, 96, 80, 64, true, true, false, 10000, true });
        synthetic(&(cfg){ "llama", 1, 64, 4, 2, 16, 96, 80, 64, false, false, true, 10000, true });   /* Llama 3.1 */
        bad_models();
        qweight_stats();
        kv_f16(&(cfg){ "llama", 2, 64, 4, 2, 16, 96, 80, 64, false, false, false, 10000, false });
    }
    CHECKF(wt_last_status(ctx) == WT_OK, "left over error: %s", wt_last_error(ctx));
    tt_end(&f);
    return test_end();
}
