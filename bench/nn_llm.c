/* nn_llm.c - `wgc bench llm`: the LLM kernels of issue 5 (softmax, norms, flash attention) beside
 * PyTorch in the same run (bench/baseline_llm.py).  Rows (full size; CPU adapters get smaller):
 *   softmax        wt_softmax over the last dim of [8192, 8192] f32: GB/s of one read + one write
 *   layernorm      wt_layer_norm [8192, 8192] f32 with weight and bias: GB/s as above
 *   rmsnorm        wt_rms_norm [8192, 8192] f32 with weight: GB/s as above
 *   flash f32/f16  wt_scaled_dot_product_attention, flash, causal, B1 H32 S4096 D128:
 *                  TFLOP/s of 4 B H S^2 D / 2 (the causal half of QK^T and PV)
 *   flash f16 tc   the same f16 on tensor cores (precision WT_ATTENTION_F16_TENSOR:
 *                  flash_coop.wgsl), where the device has cooperative matrices; baseline torch f16
 *                  f32 takes the tensor cores where the device has them (the default precision
 *                  for f32: flash_x3.wgsl, each operand split into f16 hi + lo, three products, as
 *                  torch's f32 SDPA runs CUTLASS's 3xTF32 on such GPUs), else the FMA kernels
 *   flash f32 fma  the same f32 on the FMA kernels alone (WT_ATTENTION_FMA); baseline torch f32
 * Time per op: `reps` copies recorded back to back into one batch (independent outputs), wt_sync,
 * bench_time_op's GPU time (wall clock where the device has no timestamps) / reps; best of
 * `runs` (median in the note).  Every result is checked on sampled
 * rows against a double-precision host computation; a wrong value makes the command exit 1.
 * Targets: softmax >= 150% of PyTorch, norms >= 100%, flash f32 >= 70% of SDPA f32. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wgc/tensor.h"


/* X(key, name, unit, target as a fraction of the torch figure) */
#define LLM_ROWS(X)                                                                  \
    X(softmax_GBps, "softmax f32 8192^2 (last dim)", "GB/s", 1.5)                    \
    X(layernorm_GBps, "layernorm f32 8192^2 (weight, bias)", "GB/s", 1.0)            \
    X(rmsnorm_GBps, "rmsnorm f32 8192^2 (weight)", "GB/s", 1.0)                      \
    X(flash_f32_TFLOPs, "flash attention f32 B1 H32 S4096 D128 causal", "TFLOP/s", 0.7) \
    X(flash_f16_TFLOPs, "flash attention f16 B1 H32 S4096 D128 causal", "TFLOP/s", NAN) \
    X(flash_f16_tc_TFLOPs, "flash attention f16 on tensor cores B1 H32 S4096 D128 causal", "TFLOP/s", NAN) \
    X(flash_f32_fma_TFLOPs, "flash attention f32 on FMA units (WT_ATTENTION_FMA) B1 H32 S4096 D128 causal", "TFLOP/s", NAN)

enum {
#define X(key, name, unit, rel) LLM_ROW_##key,
    LLM_ROWS(X)
#undef X
    LLM_ROW_COUNT
};
_Static_assert(LLM_ROW_COUNT == 7, "llm rows: update the count and bench/baseline_llm.py");

static const double llm_rel[] = {
#define X(key, name, unit, rel) rel,
    LLM_ROWS(X)
#undef X
};

typedef struct llm_sizes {
    const char *name;
    int64_t n;                     /* rows = cols of the softmax / norm matrix */
    int64_t h, s, d;               /* attention heads, sequence, head dim */
    int runs;
} llm_sizes;

typedef struct lb {
    const bench_options *opt;
    bench_report *rep;
    wt_context *ctx;
    llm_sizes sz;
    bool timed;               /* wt batch timing on: GPU time per op */
    int wrong, errors;
} lb;

static bool good(lb *b, const char *what, const void *t) {
    return bench_got(b->ctx, &b->errors, what, t);
}

typedef enum { K_SOFTMAX, K_LAYERNORM, K_RMSNORM, K_FLASH } llm_kind;

typedef struct llm_case {
    llm_kind kind;
    int dim;                       /* softmax dim */
    bool causal;
    wt_attention_impl impl;
    wt_attention_precision precision;
    wt_tensor *x, *w, *bias;       /* softmax / norms */
    wt_tensor *q, *k, *v;          /* attention */
} llm_case;

static wt_tensor *run_case(lb *b, const llm_case *c) {
    switch (c->kind) {
    case K_SOFTMAX: return wt_softmax(b->ctx, c->x, c->dim);
    case K_LAYERNORM: return wt_layer_norm(b->ctx, c->x, c->w, c->bias, 1e-5);
    case K_RMSNORM: return wt_rms_norm(b->ctx, c->x, c->w, 1e-5);
    default:
        return wt_scaled_dot_product_attention(b->ctx, c->q, c->k, c->v,
                                               &(wt_attention_desc){ .causal = c->causal, .impl = c->impl,
                                                                     .precision = c->precision });
    }
}

typedef struct case_call {
    lb *b;
    const llm_case *c;
} case_call;

static wt_tensor *call_case(void *arg) {
    case_call *k = arg;
    return run_case(k->b, k->c);
}

/* Best and median seconds per op (GPU time where wt's batch timing is on, bench_time_op). */
static bool time_case(lb *b, const llm_case *c, int reps, double *best, double *median) {
    bench_times t;
    if (!bench_time_op(b->ctx, b->timed, &b->errors, call_case, &(case_call){ b, c }, reps, b->sz.runs, &t))
        return false;
    *best = t.best;
    *median = t.median;
    return true;
}

static float *read_rows(lb *b, wt_tensor *t, int dim, int64_t start, int64_t len) {
    wt_tensor *v = wt_narrow(b->ctx, t, dim, start, len);
    wt_tensor *f = v ? wt_cast(b->ctx, v, WT_F32) : NULL;
    size_t n = f ? (size_t)wt_numel(f) : 0;
    float *h = f ? malloc(n * sizeof *h + 4) : NULL;
    if (!h || wt_to_host(b->ctx, f, h, n * sizeof *h) != WT_OK) {
        fprintf(stderr, "wgc bench: readback: %s\n", wt_last_error(b->ctx));
        b->errors++;
        free(h);
        h = NULL;
    }
    wt_release(v);
    wt_release(f);
    return h;
}

static void check_rows(lb *b, const char *what, const llm_case *c) {
    wt_tensor *y = run_case(b, c);
    if (!good(b, what, y))
        return;
    int64_t n = wt_size(c->x, -1), rows = wt_size(c->x, 0);
    float *w = c->w ? read_rows(b, c->w, 0, 0, n) : NULL, *bs = c->bias ? read_rows(b, c->bias, 0, 0, n) : NULL;
    int bad = 0;
    for (int i = 0; i < 4 && !bad; i++) {
        int64_t r = i == 3 ? rows - 1 : (int64_t)i * 977 % rows;
        float *x = read_rows(b, c->x, 0, r, 1), *g = read_rows(b, y, 0, r, 1);
        if (x && g) {
            double m = -INFINITY, s = 0, mu = 0, var = 0;
            for (int64_t j = 0; j < n; j++) {
                m = fmax(m, x[j]);
                mu += c->kind == K_RMSNORM ? (double)x[j] * x[j] : x[j];
            }
            mu /= (double)n;
            for (int64_t j = 0; j < n; j++) {
                s += exp(x[j] - m);
                var += (x[j] - mu) * (x[j] - mu);
            }
            var /= (double)n;
            for (int64_t j = 0; j < n && !bad; j++) {
                double ref;
                if (c->kind == K_SOFTMAX)
                    ref = exp(x[j] - m) / s;
                else if (c->kind == K_RMSNORM)
                    ref = x[j] / sqrt(mu + 1e-5) * w[j];
                else
                    ref = (x[j] - mu) / sqrt(var + 1e-5) * w[j] + bs[j];
                double tol = c->kind == K_SOFTMAX ? 1e-6 + 1e-4 * fabs(ref) : 1e-4 + 1e-4 * fabs(ref);
                if (!(fabs(g[j] - ref) <= tol)) {
                    bad = 1;
                    fprintf(stderr, "wgc bench: %s: [%lld, %lld] = %g, expected %g\n", what, (long long)r, (long long)j,
                            g[j], ref);
                }
            }
        }
        free(x);
        free(g);
    }
    b->wrong += bad;
    free(w);
    free(bs);
    wt_release(y);
}

static void check_attention(lb *b, const char *what, const llm_case *c) {
    wt_tensor *y = run_case(b, c);
    if (!good(b, what, y))
        return;
    int64_t H = wt_size(c->q, 1), S = wt_size(c->q, 2), D = wt_size(c->q, 3);
    int64_t h = H - 1;
    wt_tensor *qh = wt_select(b->ctx, c->q, 1, h), *kh = wt_select(b->ctx, c->k, 1, h), *vh = wt_select(b->ctx, c->v, 1, h);
    wt_tensor *yh = wt_select(b->ctx, y, 1, h);
    float *q = qh ? read_rows(b, qh, 0, 0, 1) : NULL, *k = kh ? read_rows(b, kh, 0, 0, 1) : NULL;
    float *v = vh ? read_rows(b, vh, 0, 0, 1) : NULL, *g = yh ? read_rows(b, yh, 0, 0, 1) : NULL;
    double tol = wt_dtype_of(y) == WT_F16 ? 5e-3 : 2e-5;
    int bad = 0;
    double *p = malloc((size_t)S * sizeof *p);
    for (int t = 0; q && k && v && g && p && t < 4 && !bad; t++) {
        int64_t i = t == 3 ? S - 1 : (int64_t)t * 1231 % S;
        double m = -INFINITY, s = 0, scale = 1 / sqrt((double)D);
        for (int64_t j = 0; j <= i; j++) {
            double acc = 0;
            for (int64_t d = 0; d < D; d++)
                acc += (double)q[i * D + d] * k[j * D + d];
            p[j] = acc * scale;
            m = fmax(m, p[j]);
        }
        for (int64_t j = 0; j <= i; j++)
            s += p[j] = exp(p[j] - m);
        for (int64_t e = 0; e < D && !bad; e++) {
            double acc = 0;
            for (int64_t j = 0; j <= i; j++)
                acc += p[j] * v[j * D + e];
            double ref = acc / s;
            if (!(fabs(g[i * D + e] - ref) <= tol)) {
                bad = 1;
                fprintf(stderr, "wgc bench: %s: head %lld row %lld col %lld = %g, expected %g\n", what, (long long)h,
                        (long long)i, (long long)e, g[i * D + e], ref);
            }
        }
    }
    b->wrong += bad;
    free(p);
    free(q);
    free(k);
    free(v);
    free(g);
    wt_release(qh);
    wt_release(kh);
    wt_release(vh);
    wt_release(yh);
    wt_release(y);
}

static void bw_row(lb *b, const char *key, llm_kind kind, wt_dtype dt, int dim, int reps) {
    bench_row *row = bench_find_row(b->rep, key);
    int64_t n = b->sz.n;
    llm_case c = { .kind = kind, .dim = dim };
    c.x = wt_normal(b->ctx, dt, WT_SHAPE(n, n), 0, 2);
    if (kind != K_SOFTMAX)
        c.w = wt_uniform(b->ctx, dt, WT_SHAPE(n), 0.5, 1.5);
    if (kind == K_LAYERNORM)
        c.bias = wt_uniform(b->ctx, dt, WT_SHAPE(n), -1, 1);
    bench_say(b->opt, "%s", key);
    double best, med;
    if (row && good(b, "inputs", c.x) && time_case(b, &c, reps, &best, &med)) {
        double bytes = 2.0 * (double)wt_dtype_size(dt) * (double)n * (double)n;
        row->ours = bytes / best * 1e-9;
        snprintf(row->note, sizeof row->note, "best of %d x %d reps, median %.4g GB/s; %lld^2", b->sz.runs, reps,
                 bytes / med * 1e-9, (long long)n);
        if (dim == -1 && dt == WT_F32)
            check_rows(b, key, &c);
    }
    wt_release(c.x);
    wt_release(c.w);
    wt_release(c.bias);
}

static void flash_row(lb *b, const char *key, wt_dtype dt, int64_t H, int64_t S, int64_t D, bool causal,
                      wt_attention_impl impl, wt_attention_precision prec, int reps) {
    bench_row *row = bench_find_row(b->rep, key);
    llm_case c = { .kind = K_FLASH, .causal = causal, .impl = impl, .precision = prec };
    c.q = wt_normal(b->ctx, dt, WT_SHAPE(1, H, S, D), 0, 1);
    c.k = wt_normal(b->ctx, dt, WT_SHAPE(1, H, S, D), 0, 1);
    c.v = wt_normal(b->ctx, dt, WT_SHAPE(1, H, S, D), 0, 1);
    bench_say(b->opt, "%s", key);
    double best, med;
    if (row && good(b, "inputs", c.q) && good(b, "inputs", c.k) && good(b, "inputs", c.v) &&
        time_case(b, &c, reps, &best, &med)) {
        double flop = 4.0 * (double)H * (double)S * (double)S * (double)D / (causal ? 2 : 1);
        row->ours = flop / best * 1e-12;
        /* which kernel f32's default took (attention.c: the tensor cores where the device has them) */
        const char *ran = dt != WT_F32 || prec != WT_ATTENTION_PRECISION_DEFAULT ? ""
                          : bench_kernel_built(b->ctx, "flash_x3") ? "flash_x3 (f32 split on tensor cores); "
                                                                   : "FMA kernels; ";
        snprintf(row->note, sizeof row->note, "%sbest of %d x %d reps, median %.4g TFLOP/s (%.3f ms)", ran, b->sz.runs,
                 reps, flop / med * 1e-12, best * 1e3);
        if (causal)
            check_attention(b, key, &c);
    }
    wt_release(c.q);
    wt_release(c.k);
    wt_release(c.v);
}

/* flash f16 on tensor cores (WT_ATTENTION_F16_TENSOR), as flash_row */
static void flash_tc_row(lb *b, int64_t H, int64_t S, int64_t D, int reps) {
    bench_row *row = bench_find_row(b->rep, "flash_f16_tc_TFLOPs");
    if (!wt_attention_tensor_cores(b->ctx)) {
        snprintf(row->note, sizeof row->note, "no cooperative matrix (16x16x16 f16 -> f32, subgroup 32) on this adapter");
        return;
    }
    llm_case c = { .kind = K_FLASH, .causal = true, .impl = WT_ATTENTION_FLASH, .precision = WT_ATTENTION_F16_TENSOR };
    c.q = wt_normal(b->ctx, WT_F16, WT_SHAPE(1, H, S, D), 0, 1);
    c.k = wt_normal(b->ctx, WT_F16, WT_SHAPE(1, H, S, D), 0, 1);
    c.v = wt_normal(b->ctx, WT_F16, WT_SHAPE(1, H, S, D), 0, 1);
    bench_say(b->opt, "flash_f16_tc_TFLOPs");
    double best, med;
    if (good(b, "inputs", c.q) && good(b, "inputs", c.k) && good(b, "inputs", c.v) &&
        time_case(b, &c, reps, &best, &med)) {
        double flop = 4.0 * (double)H * (double)S * (double)S * (double)D / 2;
        row->ours = flop / best * 1e-12;
        snprintf(row->note, sizeof row->note, "flash_coop (subgroup matrices); best of %d x %d reps, median %.4g "
                 "TFLOP/s (%.3f ms)", b->sz.runs, reps, flop / med * 1e-12, best * 1e3);
        check_attention(b, "flash_f16_tc_TFLOPs", &c);
    }
    wt_release(c.q);
    wt_release(c.k);
    wt_release(c.v);
}

static void baseline(lb *b, int bi, bool cpu_adapter, const char *adapter) {
    bench_report *rep = b->rep;
    char a[3][48];
    snprintf(a[0], 48, "%lld", (long long)b->sz.n);
    snprintf(a[1], 48, "%lld,%lld,%lld", (long long)b->sz.h, (long long)b->sz.s, (long long)b->sz.d);
    snprintf(a[2], 48, "%d", b->sz.runs);
    const char *args[] = { "--n", a[0], "--attn", a[1], "--runs", a[2], NULL };
    const char *js;
    char *out = bench_torch_baseline(rep, bi, b->opt, cpu_adapter, adapter, "baseline_llm.py", args, "CUDA events",
                                     &js);
    if (!out)
        return;
    for (int i = 0; i < rep->row_count; i++) {
        bench_row *row = &rep->rows[i];
        /* the tensor-core rows compare with torch's figure of their dtype */
        const char *k = !strcmp(row->key, "flash_f16_tc_TFLOPs")   ? "flash_f16_TFLOPs"
                        : !strcmp(row->key, "flash_f32_fma_TFLOPs") ? "flash_f32_TFLOPs"
                                                                   : row->key;
        double v = bench_json_num(js, k, NULL);
        if (isnan(v))
            continue;
        row->base[bi] = v;
        char note[40] = "CUDA events";
        if (!strncmp(row->key, "flash", 5))
            bench_json_str(js, strstr(row->key, "f32") ? "sdpa_f32_backend" : "sdpa_f16_backend", note, sizeof note);
        snprintf(row->base_note[bi], sizeof row->base_note[bi], "%s", note);
    }
    free(out);
}

/* The FMA flash kernel the context runs: name as wt_policy.attention_kernel takes it, NULL the
 * default (the rest of the policy as it was) */
static void attention_kernel(lb *b, const char *name) {
    wt_policy p;
    wt_context_get_policy(b->ctx, &p);
    p.attention_kernel = name;
    if (wt_context_set_policy(b->ctx, &p) != WT_OK)
        bench_say(b->opt, "attention kernel %s: %s", name ? name : "default", wt_last_error(b->ctx));
}

/* WGC_LLM_ATTENTION=name,name,...: rows of the FMA flash kernels by name (wt_policy's
 * attention_kernel, src/tensor/attention.c's table FL; a trailing h: with f16 inputs), with or
 * without WGC_LLM_EXTRA */
static void flash3_rows(lb *b) {
    int64_t H = b->sz.h, S = b->sz.s, D = b->sz.d;
    bool f16 = wt_context_has_f16(b->ctx);
    wt_policy was;
    wt_context_get_policy(b->ctx, &was);
    char keep[32];
    snprintf(keep, sizeof keep, "%s", was.attention_kernel ? was.attention_kernel : "");
    const char *f3 = getenv("WGC_LLM_ATTENTION");
    for (const char *m = f3; m && *m;) {
        char key[64], name[96], kn[32];
        int n = (int)strcspn(m, ",");
        snprintf(kn, sizeof kn, "%.*s", n < 31 ? n : 31, m);
        bool h = kn[0] && kn[strlen(kn) - 1] == 'h';
        m += n + (m[n] == ',');
        if (h && !f16)
            continue;
        snprintf(key, sizeof key, "x_%s_TFLOPs", kn);
        if (h)
            kn[strlen(kn) - 1] = 0;
        snprintf(name, sizeof name, "flash %s causal, %s", h ? "f16" : "f32", kn);
        bench_add_row(b->rep, key, name, "TFLOP/s", BENCH_HIGHER, NAN);
        attention_kernel(b, kn);
        flash_row(b, key, h ? WT_F16 : WT_F32, H, S, D, true, WT_ATTENTION_FLASH, WT_ATTENTION_FMA, 3);
    }
    attention_kernel(b, keep[0] ? keep : NULL);
}

/* WGC_LLM_EXTRA=1: more rows without a baseline, to see the other kernel paths on one device. */
static void extra_rows(lb *b) {
    int64_t H = b->sz.h, S = b->sz.s, D = b->sz.d;
    bool f16 = wt_context_has_f16(b->ctx);
    bench_add_row(b->rep, "x_softmax_dim0_GBps", "softmax f32 n^2 over dim 0 (COL)", "GB/s", BENCH_HIGHER, NAN);
    bw_row(b, "x_softmax_dim0_GBps", K_SOFTMAX, WT_F32, 0, 10);
    if (f16) {
        bench_add_row(b->rep, "x_softmax_f16_GBps", "softmax f16 n^2", "GB/s", BENCH_HIGHER, NAN);
        bw_row(b, "x_softmax_f16_GBps", K_SOFTMAX, WT_F16, -1, 20);
        bench_add_row(b->rep, "x_rmsnorm_f16_GBps", "rmsnorm f16 n^2", "GB/s", BENCH_HIGHER, NAN);
        bw_row(b, "x_rmsnorm_f16_GBps", K_RMSNORM, WT_F16, -1, 20);
    }
    bench_add_row(b->rep, "x_flash_nc_TFLOPs", "flash f32 not causal", "TFLOP/s", BENCH_HIGHER, NAN);
    flash_row(b, "x_flash_nc_TFLOPs", WT_F32, H, S, D, false, WT_ATTENTION_FLASH, WT_ATTENTION_FMA, 3);
    bench_add_row(b->rep, "x_flash_v2_TFLOPs", "flash f32 causal, flash2.wgsl", "TFLOP/s", BENCH_HIGHER, NAN);
    wt_policy was;
    wt_context_get_policy(b->ctx, &was);
    char keep[32];
    snprintf(keep, sizeof keep, "%s", was.attention_kernel ? was.attention_kernel : "");
    attention_kernel(b, "flash2");
    flash_row(b, "x_flash_v2_TFLOPs", WT_F32, H, S, D, true, WT_ATTENTION_FLASH, WT_ATTENTION_FMA, 3);
    attention_kernel(b, keep[0] ? keep : NULL);
    bench_add_row(b->rep, "x_flash_d64_TFLOPs", "flash f32 causal D64", "TFLOP/s", BENCH_HIGHER, NAN);
    flash_row(b, "x_flash_d64_TFLOPs", WT_F32, H, S, 64, true, WT_ATTENTION_FLASH, WT_ATTENTION_FMA, 3);
    bench_add_row(b->rep, "x_flash_d256_TFLOPs", "flash f32 causal D256", "TFLOP/s", BENCH_HIGHER, NAN);
    flash_row(b, "x_flash_d256_TFLOPs", WT_F32, H / 2, S, 256, true, WT_ATTENTION_FLASH, WT_ATTENTION_FMA, 3);
    bench_add_row(b->rep, "x_plain_TFLOPs", "plain attention f32 causal H/4 S/2", "TFLOP/s", BENCH_HIGHER, NAN);
    flash_row(b, "x_plain_TFLOPs", WT_F32, H / 4 ? H / 4 : 1, S / 2, D, true, WT_ATTENTION_PLAIN, WT_ATTENTION_FMA, 1);
}

int bench_llm(const bench_options *opt) {
    bench_report *rep;
    bench_wt w;
    bench_size size;
    if (!bench_wt_start(opt, "llm", true, &rep, &w, &size))
        return 2;
    lb b = { .opt = opt, .rep = rep, .ctx = w.ctx, .timed = w.timed };
    const wg_adapter_info *info = w.info;
    bool cpu = w.cpu;
    static const llm_sizes sizes[BENCH_SIZE_COUNT] = {
        [BENCH_SIZE_SMALL] = { "small", 256, 2, 128, 64, 2 },
        [BENCH_SIZE_MEDIUM] = { "medium", 1024, 4, 512, 128, 3 },
        [BENCH_SIZE_FULL] = { "full", 8192, 32, 4096, 128, 5 },
    };
    b.sz = sizes[size];
    b.sz.runs = bench_runs(opt, b.sz.runs);
    bench_info(rep, "size", "%s: softmax/norms %lld^2, attention B1 H%lld S%lld D%lld causal; %d runs", b.sz.name,
               (long long)b.sz.n, (long long)b.sz.h, (long long)b.sz.s, (long long)b.sz.d, b.sz.runs);
#define X(key, name, unit, rel) bench_add_row(rep, #key, name, unit, BENCH_HIGHER, NAN);
    LLM_ROWS(X)
#undef X
    /* the names say the sizes that run (the keys keep the full sizes' names) */
    long long ln = b.sz.n, lh = b.sz.h, ls = b.sz.s, ld = b.sz.d;
    bench_row_label(rep, "softmax_GBps", "softmax f32 %lld^2 (last dim)", ln);
    bench_row_label(rep, "layernorm_GBps", "layernorm f32 %lld^2 (weight, bias)", ln);
    bench_row_label(rep, "rmsnorm_GBps", "rmsnorm f32 %lld^2 (weight)", ln);
    bench_row_label(rep, "flash_f32_TFLOPs", "flash attention f32 B1 H%lld S%lld D%lld causal", lh, ls, ld);
    bench_row_label(rep, "flash_f16_TFLOPs", "flash attention f16 B1 H%lld S%lld D%lld causal", lh, ls, ld);
    bench_row_label(rep, "flash_f16_tc_TFLOPs", "flash attention f16 on tensor cores B1 H%lld S%lld D%lld causal",
                    lh, ls, ld);
    bench_row_label(rep, "flash_f32_fma_TFLOPs", "flash attention f32 on FMA units (WT_ATTENTION_FMA) B1 H%lld S%lld "
                    "D%lld causal", lh, ls, ld);
    wt_manual_seed(b.ctx, 4321);
    bw_row(&b, "softmax_GBps", K_SOFTMAX, WT_F32, -1, 20);
    bw_row(&b, "layernorm_GBps", K_LAYERNORM, WT_F32, -1, 20);
    bw_row(&b, "rmsnorm_GBps", K_RMSNORM, WT_F32, -1, 20);
    int64_t H = b.sz.h, S = b.sz.s, D = b.sz.d;
    flash_row(&b, "flash_f32_TFLOPs", WT_F32, H, S, D, true, WT_ATTENTION_FLASH, WT_ATTENTION_PRECISION_DEFAULT, 3);
    if (wt_context_has_f16(b.ctx))
        flash_row(&b, "flash_f16_TFLOPs", WT_F16, H, S, D, true, WT_ATTENTION_FLASH, WT_ATTENTION_PRECISION_DEFAULT, 3);
    else
        snprintf(bench_find_row(rep, "flash_f16_TFLOPs")->note, sizeof rep->rows[0].note, "no shader-f16 on this adapter");
    flash_tc_row(&b, H, S, D, 3);
    flash_row(&b, "flash_f32_fma_TFLOPs", WT_F32, H, S, D, true, WT_ATTENTION_FLASH, WT_ATTENTION_FMA, 3);
    const char *ex = getenv("WGC_LLM_EXTRA");
    if (ex && *ex && strcmp(ex, "0"))
        extra_rows(&b);
    flash3_rows(&b);
    bench_wt_done(&w, rep);

    int bt = bench_add_baseline(rep, "torch");
    if (bench_want(opt, "torch"))
        baseline(&b, bt, cpu, info->name);
    else
        bench_baseline_status(rep, bt, false, "not selected (--baseline %s)", opt->baseline);
    bench_relative_targets(rep, bt, llm_rel, LLM_ROW_COUNT);
    int rc = bench_wt_end(&w, rep, opt, b.wrong, b.errors);
    free(rep);
    return rc;
}
