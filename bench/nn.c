/* nn.c - `wgc bench nn`: the matmul family and conv2d beside PyTorch in the same run (softmax,
 * norms and attention are `wgc bench llm`, nn_llm.c; conv2d's rows are nn_conv.c's):
 *   sgemm N^3        C = A . B, f32 [N, N], N = 1024, 4096, 8192       2 N^3 flop
 *   sgemm ragged     4095 x 4097 x 1023 (M x N x K): no dim a multiple of a tile
 *   linear 4096^3    wt_linear(x, W) = x . W^T, x [M, K], W [N, K] f32, no bias (W read in place)
 *   linear ragged    the same at 4095 x 4097 x 1023
 *   bmm              [32, 512, 64] . [32, 64, 512] (batch x M x K . K x N)
 *   hgemm 4096^3     f16 operands, f32 accumulation (no tensor cores), where the device has f16
 *   hgemm tc 4096^3  the same on tensor cores (WT_MATMUL_F16_TENSOR: matmul_wgm.wgsl, workgroup
 *                    matrices, where the device has them, else matmul_coop.wgsl, subgroup
 *                    matrices), where the device has cooperative matrices; target 0.5 of torch f16;
 *                    where matmul_wgm.wgsl ran (matmul.c's guard did not fall back), a row for
 *                    matmul_coop.wgsl alone (policy matmul_workgroup_matrix OFF)
 *   matvec 4096^2    y = W . x, W [4096, 4096] f32: GB/s of W read (the decode path)
 * Time per op: `reps` copies recorded back to back into one batch (independent outputs, no
 * barrier between them), wt_sync, bench_time_op's GPU time (wall clock where the device has no
 * timestamps) / reps; best of `runs` (median in the note).  The
 * first use of a shape class runs the autotuner (outside the timing; its choice is in the note).
 * Every result is checked on 48 sampled outputs against a double-precision host product; a wrong
 * value makes the command exit 1.  WGC_NN_KERNELS=all adds a row per forced tiled kernel for
 * sgemm 1024^3, 4096^3, linear 4096^3 and bmm (to compare the variants on one device in one run;
 * linear's forced rows run wt_matmul_ex on the W^T view).
 *
 * Targets (issue 5): SGEMM 4096^3 >= 80% of cuBLAS f32 (torch, TF32 off), matvec >= 90%, f16 on
 * tensor cores >= 50% of cuBLAS f16 (torch's hgemm4096 figure, tensor cores on).
 * Baseline: bench/baseline_nn.py (PyTorch on CUDA, CUDA events around the same reps; JSON),
 * skipped on a CPU adapter unless --baseline torch. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_conv.h"       /* the conv2d row (bench/nn_conv.c) */
#include "wgc/tensor.h"


/* X(key, name, unit, better, absolute target, target as a fraction of the torch figure) */
#define NN_ROWS(X)                                                                          \
    X(sgemm1024_TFLOPs, "sgemm f32 1024^3", "TFLOP/s", HIGHER, NAN, NAN)                    \
    X(sgemm4096_TFLOPs, "sgemm f32 4096^3", "TFLOP/s", HIGHER, NAN, 0.8)                    \
    X(sgemm8192_TFLOPs, "sgemm f32 8192^3", "TFLOP/s", HIGHER, NAN, NAN)                    \
    X(sgemm_ragged_TFLOPs, "sgemm f32 4095x4097x1023", "TFLOP/s", HIGHER, NAN, NAN)         \
    X(linear4096_TFLOPs, "linear f32 4096x4096x4096 (x.W^T)", "TFLOP/s", HIGHER, NAN, NAN)  \
    X(linear_ragged_TFLOPs, "linear f32 ragged 4095x4097x1023", "TFLOP/s", HIGHER, NAN, NAN) \
    X(bmm_TFLOPs, "batched matmul 32x512x512x64 f32", "TFLOP/s", HIGHER, NAN, NAN)          \
    X(hgemm4096_TFLOPs, "matmul f16 4096^3 (f32 accumulate)", "TFLOP/s", HIGHER, NAN, NAN)  \
    X(hgemm4096_tc_TFLOPs, "matmul f16 4096^3 on tensor cores (cooperative matrix)", "TFLOP/s", HIGHER, NAN, 0.5) \
    X(matvec4096_GBps, "matvec f32 4096^2 (W . x)", "GB/s", HIGHER, NAN, 0.9)

enum {
#define X(key, name, unit, better, target, rel) NN_ROW_##key,
    NN_ROWS(X)
#undef X
    NN_ROW_COUNT
};
_Static_assert(NN_ROW_COUNT == 10, "nn rows: update the count and bench/baseline_nn.py");

static const double rel_targets[] = {
#define X(key, name, unit, better, target, rel) rel,
    NN_ROWS(X)
#undef X
};

typedef struct nn_sizes {
    const char *name;
    int64_t s1, s2, s3;            /* the three square sgemm sides */
    int64_t rm, rn, rk;            /* ragged */
    int64_t bb, bm, bn, bk;        /* batched */
    int64_t mv;                    /* matvec side */
    int runs;
} nn_sizes;

typedef struct nb {
    const bench_options *opt;
    bench_report *rep;
    wt_context *ctx;
    nn_sizes sz;
    bool all_kernels;
    bool timed;               /* wt batch timing on: GPU time per op */
    int wrong, errors;
} nb;

static bool ok(nb *b, const char *what, const void *t) {
    return bench_got(b->ctx, &b->errors, what, t);
}

static float *read_f32(nb *b, wt_tensor *t) {
    wt_tensor *f = wt_dtype_of(t) == WT_F32 ? t : wt_cast(b->ctx, t, WT_F32);
    size_t n = (size_t)wt_numel(t);
    float *h = malloc(n * sizeof *h + 4);
    if (!f || !h || wt_to_host(b->ctx, f, h, n * sizeof *h) != WT_OK) {
        fprintf(stderr, "wgc bench: readback: %s\n", wt_last_error(b->ctx));
        b->errors++;
        free(h);
        h = NULL;
    }
    if (f != t)
        wt_release(f);
    return h;
}

typedef struct mm_case {
    wt_tensor *a, *b;              /* [batch, M, K] or [M, K]; [batch, K, N] or [K, N] */
    int64_t batch, M, N, K;
    const char *kernel;            /* forced through the policy (wt_policy.matmul_kernel); NULL: chosen */
    wt_matmul_precision precision;
    wt_tensor *w;                  /* linear rows: W [N, K] (b is its transposed view); else NULL */
} mm_case;

static wt_tensor *run_mm(nb *b, const mm_case *c) {
    if (c->w)
        return wt_linear(b->ctx, c->a, c->w, NULL);
    return wt_matmul_ex(b->ctx, c->a, c->b, NULL, &(wt_matmul_desc){ .precision = c->precision });
}

typedef struct mm_call {
    nb *b;
    const mm_case *c;
} mm_call;

static wt_tensor *call_mm(void *arg) {
    mm_call *m = arg;
    return run_mm(m->b, m->c);
}

static void check_mm(nb *b, const char *what, const mm_case *c) {
    wt_tensor *out = run_mm(b, c);
    if (!ok(b, what, out))
        return;
    float *ha = read_f32(b, c->a), *hb = read_f32(b, c->w ? c->w : c->b), *ho = read_f32(b, out);
    if (ha && hb && ho) {
        uint64_t s = 88172645463325252ull;
        int bad = 0;
        for (int i = 0; i < 48; i++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            int64_t bi = (int64_t)(s % (uint64_t)c->batch), m = (int64_t)((s >> 20) % (uint64_t)c->M);
            int64_t n = (int64_t)((s >> 40) % (uint64_t)c->N);
            if (i == 0) { m = c->M - 1; n = c->N - 1; bi = c->batch - 1; }   /* the ragged corner */
            double ref = 0, mag = 0;
            for (int64_t k = 0; k < c->K; k++) {
                double x = ha[(bi * c->M + m) * c->K + k];
                double y = c->w ? hb[n * c->K + k] : hb[(bi * c->K + k) * c->N + n];
                ref += x * y;
                mag += fabs(x * y);
            }
            double got = ho[(bi * c->M + m) * c->N + n];
            double tol = wt_dtype_of(out) == WT_F16 ? 2e-3 * fabs(ref) + 1e-3 * mag : 1e-5 * mag + 1e-6;
            if (!(fabs(got - ref) <= tol) && !bad++)
                fprintf(stderr, "wgc bench: %s: [%lld, %lld, %lld] = %g, expected %g\n", what, (long long)bi,
                        (long long)m, (long long)n, got, ref);
        }
        if (bad)
            b->wrong++;
    }
    free(ha);
    free(hb);
    free(ho);
    wt_release(out);
}

/* Whether the tensor-core rows run matmul_wgm.wgsl: the policy's matmul_workgroup_matrix is not
 * OFF, ctx has built it and matmul.c's guard never fell back to matmul_coop.wgsl
 * (wt_stats.wgm_fallbacks). */
static bool wgm_ran(wt_context *ctx) {
    wt_policy p;
    wt_context_get_policy(ctx, &p);
    if (p.matmul_workgroup_matrix == WT_OFF)
        return false;
    wt_stats s;
    wt_get_stats(ctx, &s);
    return bench_kernel_built(ctx, "matmul_wgm") && s.wgm_fallbacks == 0;
}

static void flops_row(nb *b, const char *key, const char *name, mm_case *c, int reps) {
    bench_row *row = bench_find_row(b->rep, key);
    if (!row) {
        char nm[80];
        snprintf(nm, sizeof nm, "%.79s", name);
        row = bench_add_row(b->rep, key, nm, "TFLOP/s", BENCH_HIGHER, NAN);
    }
    bench_times t;
    bench_say(b->opt, "%s", key);
    wt_policy pol, forced;
    wt_context_get_policy(b->ctx, &pol);
    forced = pol;
    forced.matmul_kernel = c->kernel;
    if (c->kernel && wt_context_set_policy(b->ctx, &forced) != WT_OK) {
        ok(b, key, NULL);
        return;
    }
    bool timed = row && bench_time_op(b->ctx, b->timed, &b->errors, call_mm, &(mm_call){ b, c }, reps, b->sz.runs, &t);
    if (timed)
        check_mm(b, key, c);
    if (c->kernel)
        wt_context_set_policy(b->ctx, &pol);
    if (!timed)
        return;
    double flop = 2.0 * (double)c->batch * (double)c->M * (double)c->N * (double)c->K;
    row->ours = flop / t.best * 1e-12;
    /* linear rows: the tuner's class for W^T operands is not the public lookup's (row-major);
     * ragged rows may run padded copies on another class */
    bool ragged = c->K % 4 || c->N % 4;
    const char *k = c->kernel ? c->kernel
                    : c->w || ragged ? NULL
                                     : wt_autotune_lookup(b->ctx, c->M, c->N, c->K, c->batch, wt_dtype_of(c->a));
    snprintf(row->note, sizeof row->note, "%s; %s, best of %d x %d reps, median %.4g TFLOP/s",
             c->precision == WT_MATMUL_F16_TENSOR ? (wgm_ran(b->ctx) ? "matmul_wgm (workgroup matrices)"
                                                             : "matmul_coop (subgroup matrices)")
             : k              ? k
             : ragged         ? "auto (ragged: padded copies where they pay)"
             : c->w           ? "auto (W^T layout)" : "heuristic", b->timed ? "GPU time" : "wall clock",
             b->sz.runs, reps, flop / t.median * 1e-12);
}

/* linear: y is the transposed view of W [N, K] (batch 1). */
static void gemm(nb *b, const char *key, wt_dtype dt, int64_t batch, int64_t M, int64_t N, int64_t K, int reps,
                 bool variants, bool linear) {
    wt_context *ctx = b->ctx;
    wt_tensor *x = batch > 1 ? wt_uniform(ctx, dt, WT_SHAPE(batch, M, K), -1, 1) : wt_uniform(ctx, dt, WT_SHAPE(M, K), -1, 1);
    wt_tensor *w = linear ? wt_uniform(ctx, dt, WT_SHAPE(N, K), -1, 1) : NULL;
    wt_tensor *y = linear ? (w ? wt_transpose(ctx, w, 0, 1) : NULL)
                   : batch > 1 ? wt_uniform(ctx, dt, WT_SHAPE(batch, K, N), -1, 1) : wt_uniform(ctx, dt, WT_SHAPE(K, N), -1, 1);
    if (ok(b, "inputs", x) && ok(b, "inputs", y)) {
        mm_case c = { x, y, batch, M, N, K, NULL, WT_MATMUL_PRECISION_DEFAULT, w };
        const bench_row *main_row = bench_find_row(b->rep, key);
        flops_row(b, key, main_row ? main_row->name : key, &c, reps);
        const char *names[32];
        size_t nk = wt_matmul_kernel_names(names, 32);
        for (size_t k = 0; variants && b->all_kernels && k < nk && k < 32; k++) {
            if (strncmp(names[k], "tile", 4))
                continue;   /* the tiled kernels only (not matvec, not the tensor-core kernels) */
            char vk[48], vn[160];
            snprintf(vk, sizeof vk, "%s_%s", key, names[k]);
            snprintf(vn, sizeof vn, "%s, %s", main_row ? main_row->name : key, names[k]);
            if (strstr(names[k], "v4") && (K % 4 || N % 4))
                continue;   /* the 16-byte kernels need K and N multiples of 4 */
            c.kernel = names[k];
            flops_row(b, vk, vn, &c, reps);
        }
    }
    wt_release(x);
    wt_release(y);
    wt_release(w);
}

/* f16 4096^3 on tensor cores (WT_MATMUL_F16_TENSOR), where the device has cooperative matrices. */
static void hgemm_tc(nb *b) {
    bench_row *row = bench_find_row(b->rep, "hgemm4096_tc_TFLOPs");
    if (!wt_matmul_tensor_cores(b->ctx)) {
        snprintf(row->note, sizeof row->note, "no cooperative matrix (16x16x16 f16 -> f32, subgroup 32) on this adapter");
        return;
    }
    int64_t n = b->sz.s2;
    wt_tensor *x = wt_uniform(b->ctx, WT_F16, WT_SHAPE(n, n), -1, 1), *y = wt_uniform(b->ctx, WT_F16, WT_SHAPE(n, n), -1, 1);
    if (ok(b, "inputs", x) && ok(b, "inputs", y)) {
        mm_case c = { x, y, 1, n, n, n, NULL, WT_MATMUL_F16_TENSOR, NULL };
        flops_row(b, "hgemm4096_tc_TFLOPs", row->name, &c, 5);
        /* where matmul_wgm.wgsl ran: matmul_coop.wgsl alone on the same product */
        if (wgm_ran(b->ctx)) {
            wt_policy p, off;
            wt_context_get_policy(b->ctx, &p);
            off = p;
            off.matmul_workgroup_matrix = WT_OFF;
            wt_context_set_policy(b->ctx, &off);
            {
                char nm[80];
                snprintf(nm, sizeof nm, "matmul f16 %lld^3 on tensor cores, subgroup matrices only", (long long)n);
                flops_row(b, "hgemm4096_tc_TFLOPs_matmul_coop", nm, &c, 5);
            }
            wt_context_set_policy(b->ctx, &p);
        }
    }
    wt_release(x);
    wt_release(y);
}

static void matvec(nb *b) {
    wt_context *ctx = b->ctx;
    int64_t n = b->sz.mv;
    int reps = 100;
    wt_tensor *w = wt_uniform(ctx, WT_F32, WT_SHAPE(n, n), -1, 1), *x = wt_uniform(ctx, WT_F32, WT_SHAPE(n), -1, 1);
    bench_row *row = bench_find_row(b->rep, "matvec4096_GBps");
    bench_say(b->opt, "matvec");
    if (ok(b, "inputs", w) && ok(b, "inputs", x) && row) {
        mm_case c = { w, x, 1, n, 1, n, NULL, WT_MATMUL_PRECISION_DEFAULT, NULL };
        bench_times t;
        if (bench_time_op(b->ctx, b->timed, &b->errors, call_mm, &(mm_call){ b, &c }, reps, b->sz.runs, &t)) {
            double bytes = 4.0 * (double)n * (double)n;
            row->ours = bytes / t.best * 1e-9;
            snprintf(row->note, sizeof row->note, "%s, best of %d x %d reps, median %.4g GB/s; %lld^2",
                     b->timed ? "GPU time" : "wall clock", b->sz.runs, reps, bytes / t.median * 1e-9, (long long)n);
            /* check: W [n, n] . x [n] as a [n, n] . [n, 1] product */
            wt_tensor *x2 = wt_reshape(ctx, x, WT_SHAPE(n, 1));
            mm_case c2 = { w, x2, 1, n, 1, n, NULL, WT_MATMUL_PRECISION_DEFAULT, NULL };
            if (ok(b, "reshape", x2))
                check_mm(b, "matvec", &c2);
            wt_release(x2);
        }
    }
    wt_release(w);
    wt_release(x);
}

static void baseline_torch(nb *b, int bi, bool cpu_adapter, const char *adapter) {
    bench_report *rep = b->rep;
    char a[7][48];
    const nn_sizes *s = &b->sz;
    snprintf(a[0], 48, "%lld,%lld,%lld", (long long)s->s1, (long long)s->s2, (long long)s->s3);
    snprintf(a[1], 48, "%lld,%lld,%lld", (long long)s->rm, (long long)s->rn, (long long)s->rk);
    snprintf(a[2], 48, "%lld,%lld,%lld,%lld", (long long)s->bb, (long long)s->bm, (long long)s->bn, (long long)s->bk);
    snprintf(a[3], 48, "%lld", (long long)s->mv);
    snprintf(a[4], 48, "%d", s->runs);
    snprintf(a[6], 48, "%lld", (long long)s->s2);
    snprintf(a[5], 48, "%s", nn_conv_shape(b->opt->size != BENCH_SIZE_AUTO ? b->opt->size
                                           : cpu_adapter ? BENCH_SIZE_MEDIUM : BENCH_SIZE_FULL));
    const char *args[] = { "--square", a[0], "--ragged", a[1], "--bmm", a[2], "--matvec", a[3], "--runs", a[4],
                           "--conv", a[5], "--linear", a[6], NULL };
    const char *js;
    char *out = bench_torch_baseline(rep, bi, b->opt, cpu_adapter, adapter, "baseline_nn.py", args,
                                     "CUDA events, TF32 off", &js);
    if (!out)
        return;
    for (int i = 0; i < rep->row_count; i++) {
        bench_row *row = &rep->rows[i];
        char base_key[48];
        snprintf(base_key, sizeof base_key, "%s", row->key);
        char *us = strstr(base_key, "_tile");      /* variant rows compare with the main row's figure */
        if (us)
            *us = 0;
        if ((us = strstr(base_key, "_matmul_coop")))   /* matmul_coop.wgsl alone: the same baseline */
            *us = 0;
        if (!strcmp(base_key, "hgemm4096_tc_TFLOPs"))   /* torch's f16 product uses the tensor cores */
            snprintf(base_key, sizeof base_key, "hgemm4096_TFLOPs");
        double v = bench_json_num(js, base_key, NULL);
        if (isnan(v))
            continue;
        row->base[bi] = v;
        snprintf(row->base_note[bi], sizeof row->base_note[bi], "CUDA events");
    }
    free(out);
}

int bench_nn(const bench_options *opt) {
    bench_report *rep;
    bench_wt w;
    bench_size size;
    if (!bench_wt_start(opt, "nn", true, &rep, &w, &size))
        return 2;
    nb b = { .opt = opt, .rep = rep, .ctx = w.ctx, .timed = w.timed };
    const char *ak = getenv("WGC_NN_KERNELS");
    b.all_kernels = ak && !strcmp(ak, "all");
    const wg_adapter_info *info = w.info;
    bool cpu = w.cpu;
    static const nn_sizes sizes[BENCH_SIZE_COUNT] = {
        [BENCH_SIZE_SMALL] = { "small", 64, 128, 192, 63, 65, 31, 2, 64, 64, 16, 256, 2 },
        [BENCH_SIZE_MEDIUM] = { "medium", 256, 512, 768, 255, 257, 127, 4, 128, 128, 64, 1024, 3 },
        [BENCH_SIZE_FULL] = { "full", 1024, 4096, 8192, 4095, 4097, 1023, 32, 512, 512, 64, 4096, 5 },
    };
    b.sz = sizes[size];
    b.sz.runs = bench_runs(opt, b.sz.runs);
    bench_info(rep, "size", "%s: sgemm %lld^3 %lld^3 %lld^3, ragged %lldx%lldx%lld, bmm %lldx%lldx%lldx%lld, matvec "
               "%lld^2; %d runs", b.sz.name, (long long)b.sz.s1, (long long)b.sz.s2, (long long)b.sz.s3,
               (long long)b.sz.rm, (long long)b.sz.rn, (long long)b.sz.rk, (long long)b.sz.bb, (long long)b.sz.bm,
               (long long)b.sz.bn, (long long)b.sz.bk, (long long)b.sz.mv, b.sz.runs);
#define X(key, name, unit, better, target, rel) bench_add_row(rep, #key, name, unit, BENCH_##better, target);
    NN_ROWS(X)
#undef X
    /* the names say the sizes that run (the keys keep the full sizes' names) */
    long long s1 = b.sz.s1, s2 = b.sz.s2, s3 = b.sz.s3, rm = b.sz.rm, rn = b.sz.rn, rk = b.sz.rk;
    bench_row_label(rep, "sgemm1024_TFLOPs", "sgemm f32 %lld^3", s1);
    bench_row_label(rep, "sgemm4096_TFLOPs", "sgemm f32 %lld^3", s2);
    bench_row_label(rep, "sgemm8192_TFLOPs", "sgemm f32 %lld^3", s3);
    bench_row_label(rep, "sgemm_ragged_TFLOPs", "sgemm f32 %lldx%lldx%lld", rm, rn, rk);
    bench_row_label(rep, "linear4096_TFLOPs", "linear f32 %lldx%lldx%lld (x.W^T)", s2, s2, s2);
    bench_row_label(rep, "linear_ragged_TFLOPs", "linear f32 ragged %lldx%lldx%lld", rm, rn, rk);
    bench_row_label(rep, "bmm_TFLOPs", "batched matmul %lldx%lldx%lldx%lld f32", (long long)b.sz.bb,
                    (long long)b.sz.bm, (long long)b.sz.bn, (long long)b.sz.bk);
    bench_row_label(rep, "hgemm4096_TFLOPs", "matmul f16 %lld^3 (f32 accumulate)", s2);
    bench_row_label(rep, "hgemm4096_tc_TFLOPs", "matmul f16 %lld^3 on tensor cores (cooperative matrix)", s2);
    bench_row_label(rep, "matvec4096_GBps", "matvec f32 %lld^2 (W . x)", (long long)b.sz.mv);

    wt_manual_seed(b.ctx, 1234);
    /* WGC_NN_KERNELS=all: variant rows for three shapes (the report holds 48 rows) */
    gemm(&b, "sgemm1024_TFLOPs", WT_F32, 1, b.sz.s1, b.sz.s1, b.sz.s1, 20, true, false);
    gemm(&b, "sgemm4096_TFLOPs", WT_F32, 1, b.sz.s2, b.sz.s2, b.sz.s2, 5, true, false);
    gemm(&b, "sgemm8192_TFLOPs", WT_F32, 1, b.sz.s3, b.sz.s3, b.sz.s3, 2, false, false);
    gemm(&b, "sgemm_ragged_TFLOPs", WT_F32, 1, b.sz.rm, b.sz.rn, b.sz.rk, 5, false, false);
    gemm(&b, "linear4096_TFLOPs", WT_F32, 1, b.sz.s2, b.sz.s2, b.sz.s2, 5, true, true);
    gemm(&b, "linear_ragged_TFLOPs", WT_F32, 1, b.sz.rm, b.sz.rn, b.sz.rk, 5, false, true);
    gemm(&b, "bmm_TFLOPs", WT_F32, b.sz.bb, b.sz.bm, b.sz.bn, b.sz.bk, 20, true, false);
    if (wt_context_has_f16(b.ctx))
        gemm(&b, "hgemm4096_TFLOPs", WT_F16, 1, b.sz.s2, b.sz.s2, b.sz.s2, 5, false, false);
    else
        snprintf(bench_find_row(rep, "hgemm4096_TFLOPs")->note, sizeof rep->rows[0].note, "no shader-f16 on this adapter");
    hgemm_tc(&b);
    matvec(&b);
    nn_conv_rows(rep, b.ctx, b.timed, size, b.sz.runs, b.all_kernels, &b.wrong, &b.errors);
    bench_wt_done(&w, rep);

    int bt = bench_add_baseline(rep, "torch");
    if (bench_want(opt, "torch"))
        baseline_torch(&b, bt, cpu, info->name);
    else
        bench_baseline_status(rep, bt, false, "not selected (--baseline %s)", opt->baseline);
    bench_relative_targets(rep, bt, rel_targets, NN_ROW_COUNT);
    nn_conv_target(rep, bt);
    int rc = bench_wt_end(&w, rep, opt, b.wrong, b.errors);
    free(rep);
    return rc;
}
