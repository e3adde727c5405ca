/* ops.c - `wgc bench ops`: wt tensor ops (issue 4) beside PyTorch measured in the same run.
 *
 * Measured through the public wt API exactly as a user calls it (lazy batches, the pool):
 *   add, mul        c = a + b (a * b) on n f32; 3 x 4n bytes per op
 *   unary x5        sigmoid, sqrt, neg, abs, relu one after another; 5 x 2 x 4n bytes
 *   sum (all)       sum of n f32 (the two-pass whole-tensor reduction); 4n bytes
 *   sum dim 0/1     sum over each dim of a [rows, cols] f32 matrix (COL / ROW layouts); 4 x rows x cols
 *   transpose       contiguous copy of the transposed view of a [t, t] f32 matrix; 2 x 4t^2 bytes
 *   cat             cat of two [r, c] f32 matrices along dim 1; 2 x 2 x 4rc bytes
 *   tiny op         `ops` dependent ops (x * 1.001, + 0.5, alternating) on 1024 f32 recorded into
 *                   one batch, then one wait: end-to-end µs per op, the CPU cost of recording, and
 *                   the GPU time per op (batch timestamps / ops).  wt fuses the chain of
 *                   temporaries (8 ops per dispatch); the fusion-off rows time one dispatch per
 *                   op, the per-dispatch cost (torch's figures are the same eager / graph ones)
 *   unary x5 unfused  the same with wt_context_set_fusion(false): five dispatches, as PyTorch eager
 *                   runs them (by default wt fuses the chain of temporaries into one dispatch,
 *                   which reads x and writes the result once: the row above)
 * Time per op: `reps` copies of the op recorded back to back into the pending batch (independent
 * outputs, no barrier between them), wt_sync; GPU time (wt's batch timing: the timestamps around
 * each submitted batch's pass, summed; the batches of a run queue back to back) / reps, which is
 * what the baseline's CUDA events measure, best of `runs`; the wall-clock figure (record + submit
 * + wait) is in the note.  Without timestamp queries, wall clock / reps.  The full size uses up
 * to 40 reps (the baseline the same).  Every result is checked against a host computation; a
 * wrong value makes the command exit 1.
 *
 * Targets (issue 4), printed beside each row and computed from the baseline of the same run:
 * elementwise >= 100% of PyTorch's bandwidth, sum >= 95%, transpose >= 80%; tiny op <= 2.5 µs.
 * Without a baseline the relative targets stay "-" (the note says which factor applies).
 *
 * Baseline: bench/baseline_ops.py (PyTorch on CUDA: the same ops, the same shapes, CUDA events
 * around the same reps; JSON on stdout), skipped on a CPU adapter unless --baseline torch. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wgc/tensor.h"


/* X(key, name, unit, better, absolute target, target as a fraction of the torch figure) */
#define OPS_ROWS(X)                                                                     \
    X(add_GBps, "add, f32 (3 x 4n bytes)", "GB/s", HIGHER, NAN, 1.0)                    \
    X(mul_GBps, "mul, f32 (3 x 4n bytes)", "GB/s", HIGHER, NAN, 1.0)                    \
    X(unary5_GBps, "5 unary ops in a row (5 x 8n bytes)", "GB/s", HIGHER, NAN, 1.0)     \
    X(unary5_unfused_GBps, "5 unary ops in a row, fusion off", "GB/s", HIGHER, NAN, NAN) \
    X(sum_all_GBps, "sum over everything", "GB/s", HIGHER, NAN, 0.95)                  \
    X(sum_dim0_GBps, "sum over dim 0 of [rows, cols]", "GB/s", HIGHER, NAN, 0.95)      \
    X(sum_dim1_GBps, "sum over dim 1 of [rows, cols]", "GB/s", HIGHER, NAN, 0.95)      \
    X(transpose_GBps, "transpose t x t, contiguous copy", "GB/s", HIGHER, NAN, 0.8)    \
    X(cat_GBps, "cat of two [r, c] along dim 1", "GB/s", HIGHER, NAN, NAN)             \
    X(tiny_e2e_us, "dependent tiny op, one batch, end to end", "us", LOWER, 2.5, NAN)  \
    X(tiny_record_us, "dependent tiny op, CPU record", "us", LOWER, NAN, NAN)             \
    X(tiny_gpu_us, "dependent tiny op, GPU time", "us", LOWER, NAN, NAN)                 \
    X(tiny_unfused_e2e_us, "dependent tiny op unfused, end to end", "us", LOWER, NAN, NAN) \
    X(tiny_unfused_gpu_us, "dependent tiny op unfused, GPU time", "us", LOWER, NAN, NAN)

enum {
#define X(key, name, unit, better, target, rel) OPS_ROW_##key,
    OPS_ROWS(X)
#undef X
    OPS_ROW_COUNT
};
_Static_assert(OPS_ROW_COUNT == 14, "ops rows: update the count, the baseline script and tests/cli/test_bench_ops.sh");
_Static_assert(OPS_ROW_COUNT <= BENCH_MAX_ROWS, "report too small");

static const double rel_targets[] = {
#define X(key, name, unit, better, target, rel) rel,
    OPS_ROWS(X)
#undef X
};

typedef struct ops_sizes {
    const char *name;
    int64_t n;                /* elementwise and sum-all elements */
    int64_t rows, cols;       /* sum over dims */
    int64_t t;                /* transpose side */
    int64_t cr, cc;           /* cat: two [cr, cc] */
    int ops;                  /* tiny dependent ops */
    int runs, reps;
} ops_sizes;

typedef struct ob {
    const bench_options *opt;
    bench_report *rep;
    wt_context *ctx;
    ops_sizes sz;
    int wrong, errors;
    bool timed;               /* wt batch timing on: GPU time per op */
} ob;

static bool ok(ob *b, const char *what, wt_tensor *t) {
    return bench_got(b->ctx, &b->errors, what, t);
}

static float *read_all(ob *b, wt_tensor *t) {
    size_t n = (size_t)wt_numel(t);
    float *h = malloc(n * sizeof *h + 4);
    if (!h || wt_to_host(b->ctx, t, h, n * sizeof *h) != WT_OK) {
        fprintf(stderr, "wgc bench: readback: %s\n", wt_last_error(b->ctx));
        b->errors++;
        free(h);
        return NULL;
    }
    return h;
}

static void mismatch(ob *b, const char *what, int64_t bad, int64_t n, int64_t at, double got, double want) {
    if (!bad)
        return;
    fprintf(stderr, "wgc bench: %s: %lld of %lld values wrong (first at %lld: %g, expected %g)\n", what,
            (long long)bad, (long long)n, (long long)at, got, want);
    b->wrong++;
}

typedef wt_tensor *(*op_fn)(ob *b, wt_tensor *const *in);

typedef struct op_call {
    ob *b;
    op_fn fn;
    wt_tensor *const *in;
} op_call;

static wt_tensor *call_op(void *arg) {
    op_call *c = arg;
    return c->fn(c->b, c->in);
}

static void rate_row(ob *b, const char *key, double bytes, op_fn fn, wt_tensor *const *in) {
    bench_row *row = bench_find_row(b->rep, key);
    bench_times t;
    bench_say(b->opt, "%s", key);
    if (!row || !bench_time_op(b->ctx, b->timed, &b->errors, call_op, &(op_call){ b, fn, in }, b->sz.reps,
                               b->sz.runs, &t))
        return;
    row->ours = bytes / t.best * 1e-9;
    snprintf(row->note, sizeof row->note, "%s, best of %d x %d reps, median %.4g GB/s (wall %.4g), %.0f MiB",
             b->timed ? "GPU time" : "wall clock", b->sz.runs, b->sz.reps, bytes / t.median * 1e-9,
             bytes / t.wall * 1e-9, bytes / 1048576.0);
}

/* ---- the ops ---- */
static wt_tensor *f_add(ob *b, wt_tensor *const *in) { return wt_add(b->ctx, in[0], in[1]); }
static wt_tensor *f_mul(ob *b, wt_tensor *const *in) { return wt_mul(b->ctx, in[0], in[1]); }
static wt_tensor *f_unary5(ob *b, wt_tensor *const *in) {
    wt_context *c = b->ctx;
    wt_tensor *t1 = wt_sigmoid(c, in[0]), *t2 = wt_sqrt(c, t1), *t3 = wt_neg(c, t2), *t4 = wt_abs(c, t3);
    wt_tensor *t5 = wt_relu(c, t4);
    wt_release(t1);
    wt_release(t2);
    wt_release(t3);
    wt_release(t4);
    return t5;
}
static wt_tensor *f_sum_all(ob *b, wt_tensor *const *in) { return wt_sum(b->ctx, in[0], 0, NULL, false); }
static wt_tensor *f_sum0(ob *b, wt_tensor *const *in) { return wt_sum(b->ctx, in[0], 1, (const int[]){ 0 }, false); }
static wt_tensor *f_sum1(ob *b, wt_tensor *const *in) { return wt_sum(b->ctx, in[0], 1, (const int[]){ 1 }, false); }
static wt_tensor *f_transpose(ob *b, wt_tensor *const *in) {
    wt_tensor *v = wt_transpose(b->ctx, in[0], 0, 1), *c = wt_contiguous(b->ctx, v);
    wt_release(v);
    return c;
}
static wt_tensor *f_cat(ob *b, wt_tensor *const *in) { return wt_cat(b->ctx, in, 2, 1); }

static double sigmoid(double x) { return 1 / (1 + exp(-x)); }

static void bench_elementwise(ob *b) {
    wt_context *c = b->ctx;
    int64_t n = b->sz.n;
    wt_manual_seed(c, 1234);
    wt_tensor *x = wt_uniform(c, WT_F32, 1, &n, 0.5, 1.5), *y = wt_uniform(c, WT_F32, 1, &n, -2, -1);
    if (!ok(b, "inputs", x) || !ok(b, "inputs", y))
        goto out;
    wt_tensor *in[2] = { x, y };
    rate_row(b, "add_GBps", 12.0 * (double)n, f_add, in);
    rate_row(b, "mul_GBps", 12.0 * (double)n, f_mul, in);
    rate_row(b, "unary5_GBps", 40.0 * (double)n, f_unary5, in);
    wt_context_set_fusion(c, false);
    rate_row(b, "unary5_unfused_GBps", 40.0 * (double)n, f_unary5, in);
    wt_context_set_fusion(c, true);
    rate_row(b, "sum_all_GBps", 4.0 * (double)n, f_sum_all, in);
    /* check once */
    wt_tensor *a = f_add(b, in), *m = f_mul(b, in), *u = f_unary5(b, in), *s = f_sum_all(b, in);
    float *hx = read_all(b, x), *hy = read_all(b, y);
    float *ha = a ? read_all(b, a) : NULL, *hm = m ? read_all(b, m) : NULL, *hu = u ? read_all(b, u) : NULL;
    double sum = 0;
    if (s && wt_item(c, s, &sum) != WT_OK)
        b->errors++;
    if (hx && hy && ha && hm && hu) {
        int64_t ba = 0, bm = 0, bu = 0, fa = 0, fm = 0, fu = 0;
        double ref = 0, mag = 0;
        for (int64_t i = 0; i < n; i++) {
            if (ha[i] != hx[i] + hy[i] && !ba++)
                fa = i;
            if (hm[i] != hx[i] * hy[i] && !bm++)
                fm = i;
            double w = sqrt(sigmoid(hx[i]));
            if (fabs(hu[i] - w) > 1e-6 * w + 1e-7 && !bu++)
                fu = i;
            ref += hx[i];
            mag += fabs(hx[i]);
        }
        mismatch(b, "add", ba, n, fa, ha[fa], (double)(hx[fa] + hy[fa]));
        mismatch(b, "mul", bm, n, fm, hm[fm], (double)(hx[fm] * hy[fm]));
        mismatch(b, "unary chain", bu, n, fu, hu[fu], sqrt(sigmoid(hx[fu])));
        mismatch(b, "sum", fabs(sum - ref) > 1e-5 * mag, 1, 0, sum, ref);
    }
    free(hx);
    free(hy);
    free(ha);
    free(hm);
    free(hu);
    wt_release(a);
    wt_release(m);
    wt_release(u);
    wt_release(s);
out:
    wt_release(x);
    wt_release(y);
}

static void bench_layout(ob *b) {
    wt_context *c = b->ctx;
    int64_t R = b->sz.rows, C = b->sz.cols, T = b->sz.t;
    wt_tensor *x = wt_uniform(c, WT_F32, 2, (const int64_t[]){ R, C }, -1, 1);
    wt_tensor *t = wt_uniform(c, WT_F32, 2, (const int64_t[]){ T, T }, -1, 1);
    wt_tensor *p = wt_uniform(c, WT_F32, 2, (const int64_t[]){ b->sz.cr, b->sz.cc }, -1, 1);
    wt_tensor *q = wt_uniform(c, WT_F32, 2, (const int64_t[]){ b->sz.cr, b->sz.cc }, -1, 1);
    if (!ok(b, "inputs", x) || !ok(b, "inputs", t) || !ok(b, "inputs", p) || !ok(b, "inputs", q))
        goto out;
    rate_row(b, "sum_dim0_GBps", 4.0 * (double)(R * C), f_sum0, &x);
    rate_row(b, "sum_dim1_GBps", 4.0 * (double)(R * C), f_sum1, &x);
    rate_row(b, "transpose_GBps", 8.0 * (double)(T * T), f_transpose, &t);
    wt_tensor *pq[2] = { p, q };
    rate_row(b, "cat_GBps", 16.0 * (double)(b->sz.cr * b->sz.cc), f_cat, pq);
    /* checks */
    wt_tensor *s0 = f_sum0(b, &x), *s1 = f_sum1(b, &x), *tt = f_transpose(b, &t), *cc = f_cat(b, pq);
    float *hx = read_all(b, x), *h0 = s0 ? read_all(b, s0) : NULL, *h1 = s1 ? read_all(b, s1) : NULL;
    float *ht = read_all(b, t), *htt = tt ? read_all(b, tt) : NULL;
    float *hp = read_all(b, p), *hq = read_all(b, q), *hc = cc ? read_all(b, cc) : NULL;
    if (hx && h0 && h1) {
        int64_t bad0 = 0, bad1 = 0;
        double *col = calloc((size_t)C, sizeof *col), *cm = calloc((size_t)C, sizeof *cm);
        for (int64_t i = 0; i < R; i++) {
            double s = 0, m = 0;
            for (int64_t j = 0; j < C; j++) {
                double v = hx[i * C + j];
                s += v;
                m += fabs(v);
                col[j] += v;
                cm[j] += fabs(v);
            }
            bad1 += fabs(h1[i] - s) > 1e-5 * m + 1e-6;
        }
        for (int64_t j = 0; j < C; j++)
            bad0 += fabs(h0[j] - col[j]) > 1e-5 * cm[j] + 1e-6;
        mismatch(b, "sum dim 0", bad0, C, 0, h0[0], col[0]);
        mismatch(b, "sum dim 1", bad1, R, 0, h1[0], 0);
        free(col);
        free(cm);
    }
    if (ht && htt) {
        int64_t bad = 0;
        for (int64_t i = 0; i < T; i++)
            for (int64_t j = 0; j < T; j++)
                bad += htt[i * T + j] != ht[j * T + i];
        mismatch(b, "transpose", bad, T * T, 0, htt[0], ht[0]);
    }
    if (hp && hq && hc) {
        int64_t bad = 0, r = b->sz.cr, k = b->sz.cc;
        for (int64_t i = 0; i < r; i++)
            for (int64_t j = 0; j < k; j++)
                bad += hc[i * 2 * k + j] != hp[i * k + j] || hc[i * 2 * k + k + j] != hq[i * k + j];
        mismatch(b, "cat", bad, 2 * r * k, 0, hc[0], hp[0]);
    }
    free(hx);
    free(h0);
    free(h1);
    free(ht);
    free(htt);
    free(hp);
    free(hq);
    free(hc);
    wt_release(s0);
    wt_release(s1);
    wt_release(tt);
    wt_release(cc);
out:
    wt_release(x);
    wt_release(t);
    wt_release(p);
    wt_release(q);
}

static void bench_tiny(ob *b, bool fused) {
    wt_context *c = b->ctx;
    int K = b->sz.ops;
    float h[1024];
    for (int i = 0; i < 1024; i++)
        h[i] = (float)(i % 100) * 0.01f;
    wt_tensor *x0 = wt_from_host(c, WT_F32, 1, (const int64_t[]){ 1024 }, h);
    if (!ok(b, "input", x0))
        return;
    double e2e[BENCH_MAX_RUNS], rec[BENCH_MAX_RUNS], gpu[BENCH_MAX_RUNS];
    float got[1024];
    bool good = true;
    bench_say(b->opt, "tiny ops x %d%s", K, fused ? "" : ", fusion off");
    wt_context_set_fusion(c, fused);
    for (int r = -1; r < b->sz.runs && good; r++) {
        wt_sync(c);
        wt_tensor *x = x0;
        wt_retain(x);
        uint64_t g0 = bench_gpu_ns(b->ctx);
        double t0 = bench_now_s();
        for (int i = 0; i < K && good; i++) {
            wt_tensor *y = i % 2 ? wt_add_scalar(c, x, 0.5) : wt_mul_scalar(c, x, 1.001);
            wt_release(x);
            good = ok(b, "tiny op", x = y);
        }
        double t1 = bench_now_s();
        good = good && wt_sync(c) == WT_OK;
        double t2 = bench_now_s();
        if (r >= 0) {
            rec[r] = (t1 - t0) / K * 1e6;
            e2e[r] = (t2 - t0) / K * 1e6;
            gpu[r] = (double)(bench_gpu_ns(b->ctx) - g0) * 1e-3 / K;
        }
        if (good && r == b->sz.runs - 1 && wt_to_host(c, x, got, sizeof got) == WT_OK) {
            int64_t bad = 0, at = 0;
            double want0 = 0;
            for (int j = 0; j < 1024; j++) {
                float v = h[j];
                for (int i = 0; i < K; i++)
                    v = i % 2 ? v + 0.5f : v * (float)1.001;
                if (fabsf(got[j] - v) > 1e-5f * fabsf(v) && !bad++) {
                    at = j;
                    want0 = v;
                }
            }
            mismatch(b, "tiny chain", bad, 1024, at, got[at], want0);
        }
        wt_release(x);
    }
    wt_release(x0);
    wt_context_set_fusion(c, true);
    if (!good)
        return;
    int n = b->sz.runs;
    bench_row *row = bench_find_row(b->rep, fused ? "tiny_e2e_us" : "tiny_unfused_e2e_us");
    if (row) {
        row->ours = bench_min(e2e, n);
        snprintf(row->note, sizeof row->note, "%d ops, record + one submit + wait; best of %d, median %.3g us", K, n,
                 bench_median(e2e, n));
    }
    if (fused && (row = bench_find_row(b->rep, "tiny_record_us"))) {
        row->ours = bench_min(rec, n);
        snprintf(row->note, sizeof row->note, "wt_mul_scalar/wt_add_scalar CPU cost; median %.3g us",
                 bench_median(rec, n));
    }
    if (b->timed && (row = bench_find_row(b->rep, fused ? "tiny_gpu_us" : "tiny_unfused_gpu_us"))) {
        row->ours = bench_min(gpu, n);
        snprintf(row->note, sizeof row->note, "batch timestamps / %d ops%s; median %.3g us", K,
                 fused ? ", 8 ops per dispatch" : ", a barrier after each", bench_median(gpu, n));
    }
}

/* ---- baseline ---- */
static void baseline_torch(ob *b, int bi, bool cpu_adapter, const char *adapter) {
    bench_report *rep = b->rep;
    char a[8][32];
    const ops_sizes *s = &b->sz;
    snprintf(a[0], 32, "%lld", (long long)s->n);
    snprintf(a[1], 32, "%lld", (long long)s->rows);
    snprintf(a[2], 32, "%lld", (long long)s->cols);
    snprintf(a[3], 32, "%lld", (long long)s->t);
    snprintf(a[4], 32, "%lld,%lld", (long long)s->cr, (long long)s->cc);
    snprintf(a[5], 32, "%d", s->ops);
    snprintf(a[6], 32, "%d", s->runs);
    snprintf(a[7], 32, "%d", s->reps);
    const char *args[] = { "--n", a[0], "--rows", a[1], "--cols", a[2], "--t", a[3], "--cat", a[4], "--ops", a[5],
                           "--runs", a[6], "--reps", a[7], NULL };
    const char *js;
    char *out = bench_torch_baseline(rep, bi, b->opt, cpu_adapter, adapter, "baseline_ops.py", args, "CUDA events",
                                     &js);
    if (!out)
        return;
    for (int i = 0; i < rep->row_count; i++) {
        bench_row *row = &rep->rows[i];
        double v = bench_json_num(js, row->key, NULL);
        if (isnan(v))
            continue;
        row->base[bi] = v;
        snprintf(row->base_note[bi], sizeof row->base_note[bi], "%s",
                 !strcmp(row->key, "tiny_e2e_us") || !strcmp(row->key, "tiny_unfused_e2e_us") ? "eager + synchronize"
                 : strstr(row->key, "gpu_us") ? "CUDA graph replay, events"
                 : !strcmp(row->key, "unary5_unfused_GBps") ? "eager (never fused), events" : "CUDA events");
    }
    free(out);
}

int bench_ops(const bench_options *opt) {
    bench_report *rep;
    bench_wt w;
    bench_size size;
    if (!bench_wt_start(opt, "ops", false, &rep, &w, &size))
        return 2;
    ob b = { .opt = opt, .rep = rep, .ctx = w.ctx, .timed = w.timed };
    const wg_adapter_info *info = w.info;
    bool cpu = w.cpu;
    static const ops_sizes sizes[BENCH_SIZE_COUNT] = {
        [BENCH_SIZE_SMALL] = { "small", 1 << 16, 200, 300, 256, 100, 130, 100, 2, 2 },
        [BENCH_SIZE_MEDIUM] = { "medium", 1 << 22, 2048, 2048, 1024, 1024, 2048, 1000, 3, 3 },
        [BENCH_SIZE_FULL] = { "full", 1 << 26, 8192, 8192, 4096, 4096, 8192, 1000, 10, 10 },
    };
    b.sz = sizes[size];
    b.sz.runs = bench_runs(opt, b.sz.runs);
    /* full size on a big GPU: 40 reps instead of 10, so the one submit + wait per run (tens of
     * µs, which CUDA events do not see) weighs 4x less: on the H200 add 3891 -> 4247 GB/s, sum
     * 3552 -> 3668.  The outputs of a run stay alive (as in the baseline): reps x 4n bytes; with 4x
     * headroom for temporaries, kept under half the device-local heap. */
    if (size == BENCH_SIZE_FULL && info->device_local_bytes) {
        int64_t fit = (int64_t)(info->device_local_bytes / 2 / (uint64_t)(4 * b.sz.n * 4));
        b.sz.reps = fit >= 40 ? 40 : fit > b.sz.reps ? (int)fit : b.sz.reps;
    }
    const char *reps = getenv("WGC_OPS_REPS");   /* sweep knob: reps per run (the baseline gets the same) */
    if (reps && atoi(reps) > 0 && atoi(reps) <= 1000)
        b.sz.reps = atoi(reps);
    bench_info(rep, "size", "%s: n %lld, sums [%lld, %lld], transpose %lld^2, cat 2 x [%lld, %lld], %d tiny ops; "
               "%d runs x %d reps", b.sz.name, (long long)b.sz.n, (long long)b.sz.rows, (long long)b.sz.cols,
               (long long)b.sz.t, (long long)b.sz.cr, (long long)b.sz.cc, b.sz.ops, b.sz.runs, b.sz.reps);
#define X(key, name, unit, better, target, rel) bench_add_row(rep, #key, name, unit, BENCH_##better, target);
    OPS_ROWS(X)
#undef X

    bench_elementwise(&b);
    bench_layout(&b);
    bench_tiny(&b, true);
    bench_tiny(&b, false);
    bench_wt_done(&w, rep);

    int bt = bench_add_baseline(rep, "torch");
    if (bench_want(opt, "torch"))
        baseline_torch(&b, bt, cpu, info->name);
    else
        bench_baseline_status(rep, bt, false, "not selected (--baseline %s)", opt->baseline);
    /* relative targets from the baseline of this run */
    bench_relative_targets(rep, bt, rel_targets, OPS_ROW_COUNT);
    int rc = bench_wt_end(&w, rep, opt, b.wrong, b.errors);
    free(rep);
    return rc;
}
