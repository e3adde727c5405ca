/* test_fusion.c - the batch's fusion of elementwise chains and its GPU timing (src/tensor/batch.c):
 * fused chains give the C reference's values and the same values as the unfused ops, fuse only
 * what may be fused (temporaries, f32 intermediates, adjacent unary float ops and binary float
 * ops with a scalar right operand, no clamp after another op, at most 8 ops per dispatch), make
 * bind groups only for the dispatches that remain and find them again when the chain repeats, and
 * timing adds the GPU time of every finished batch (also past the query set's WT_TIMING_PAIRS
 * pairs without a wait). */
#include "tensor_test.h"

typedef wt_tensor *(*unary_fn)(wt_context *, wt_tensor *);

typedef struct chain_op {
    unary_fn fn;
    double (*ref)(double);
} chain_op;

static double r_sigmoid(double x) { return 1 / (1 + exp(-x)); }
static double r_neg(double x) { return -x; }
static double r_relu(double x) { return x > 0 ? x : 0; }
static double r_abs(double x) { return fabs(x); }
static double r_tanh(double x) { return tanh(x); }
static double r_silu(double x) { return x * r_sigmoid(x); }
static double r_exp(double x) { return exp(x); }
static double r_log(double x) { return log(x); }
static double r_sqrt(double x) { return sqrt(x); }

static const chain_op ops10[] = {
    { wt_sigmoid, r_sigmoid }, { wt_sqrt, r_sqrt }, { wt_neg, r_neg }, { wt_abs, r_abs }, { wt_relu, r_relu },
    { wt_tanh, r_tanh }, { wt_silu, r_silu }, { wt_exp, r_exp }, { wt_log, r_log }, { wt_neg, r_neg },
};

static wt_stats stats(wt_context *ctx) {
    wt_stats s;
    wt_get_stats(ctx, &s);
    return s;
}

/* Applies ops[0 .. n) to x, releasing every intermediate (temporaries); x is kept. */
static wt_tensor *run_chain(wt_context *ctx, wt_tensor *x, const chain_op *ops, int n) {
    wt_tensor *t = x;
    for (int i = 0; i < n; i++) {
        wt_tensor *u = ops[i].fn(ctx, t);
        CHECKF(u != NULL, "op %d: %s", i, wt_last_error(ctx));
        if (t != x)
            wt_release(t);
        t = u;
    }
    return t;
}

static void check_chain(tt_fixture *f, wt_tensor *x, const double *hx, const chain_op *ops, int n,
                        uint64_t want_fused, const char *what) {
    wt_context *ctx = f->ctx;
    int64_t len = wt_numel(x);
    uint64_t before = stats(ctx).fused;
    wt_tensor *y = run_chain(ctx, x, ops, n);
    double *got = tt_read(ctx, y);
    CHECKF(stats(ctx).fused - before == want_fused, "%s: fused %llu dispatches, want %llu", what,
           (unsigned long long)(stats(ctx).fused - before), (unsigned long long)want_fused);
    /* the same ops unfused */
    wt_context_set_fusion(ctx, false);
    wt_tensor *y2 = run_chain(ctx, x, ops, n);
    double *plain = tt_read(ctx, y2);
    wt_context_set_fusion(ctx, true);
    int bad = 0;
    for (int64_t i = 0; i < len && bad < 5; i++) {
        double want = hx[i];
        for (int k = 0; k < n; k++)
            want = ops[k].ref((double)(float)want);
        double tol = 1e-5 * (1 + fabs(want));
        if (fabs(got[i] - want) > tol || fabs(got[i] - plain[i]) > 2e-6 * (1 + fabs(plain[i]))) {
            fprintf(stderr, "%s: [%lld] fused %.9g unfused %.9g reference %.9g\n", what, (long long)i, got[i],
                    plain[i], want);
            bad++;
        }
    }
    CHECKF(bad == 0, "%s: values differ", what);
    free(got);
    free(plain);
    wt_release(y);
    wt_release(y2);
}

static void test_chains(tt_fixture *f) {
    wt_context *ctx = f->ctx;
    int64_t n4 = 4096, n1 = 1001;
    double *h = malloc(4096 * sizeof *h);
    for (int i = 0; i < 4096; i++)
        h[i] = -3 + 6.0 * ((i * 7919) % 4096) / 4096.0;
    wt_tensor *x4 = tt_upload(ctx, WT_F32, 1, &n4, h), *x1 = tt_upload(ctx, WT_F32, 1, &n1, h);
    check_chain(f, x4, h, ops10, 5, 4, "5 ops, vec4 path");
    check_chain(f, x1, h, ops10, 5, 4, "5 ops, 1001 elements");
    /* 10 ops: one dispatch of 8 (the key's chain holds 7 after the first) and one of 2 */
    check_chain(f, x4, h, ops10, 8, 7, "8 ops");
    check_chain(f, x4, h, ops10, 9, 7, "9 ops");
    check_chain(f, x4, h, ops10, 10, 8, "10 ops");

    /* a strided input (transposed view): the first op's addressing serves the fused dispatch */
    wt_tensor *m = tt_upload(ctx, WT_F32, 2, (const int64_t[]){ 64, 64 }, h);
    wt_tensor *mt = wt_transpose(ctx, m, 0, 1);
    double *ht = malloc(4096 * sizeof *ht);
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++)
            ht[i * 64 + j] = h[j * 64 + i];
    check_chain(f, mt, ht, ops10, 3, 2, "transposed input");

    /* an i32 input: exp gives f32, then log: fused, the i32 read converts as before */
    double hi[64];
    for (int i = 0; i < 64; i++)
        hi[i] = i % 7 - 3;
    int64_t n64 = 64;
    wt_tensor *xi = tt_upload(ctx, WT_I32, 1, &n64, hi);
    check_chain(f, xi, hi, (const chain_op[]){ { wt_exp, r_exp }, { wt_log, r_log } }, 2, 1, "i32 input");
    wt_release(xi);

    /* an intermediate still held by its tensor is written: no fusion, both values right */
    uint64_t before = stats(ctx).fused;
    wt_tensor *t1 = wt_sigmoid(ctx, x4), *t2 = wt_sqrt(ctx, t1);
    double *g1 = tt_read(ctx, t1), *g2 = tt_read(ctx, t2);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 0);
    for (int i = 0; i < 4096; i++) {
        CHECKF(fabs(g1[i] - r_sigmoid((float)h[i])) < 1e-6, "kept intermediate [%d]", i);
        CHECKF(fabs(g2[i] - sqrt(r_sigmoid((float)h[i]))) < 1e-6, "kept intermediate's consumer [%d]", i);
    }
    free(g1);
    free(g2);
    wt_release(t1);
    wt_release(t2);

    /* a view of the intermediate keeps it alive too */
    before = stats(ctx).fused;
    t1 = wt_neg(ctx, x4);
    wt_tensor *v = wt_reshape(ctx, t1, WT_SHAPE(64, 64));
    wt_release(t1);
    t2 = wt_abs(ctx, v);
    wt_release(t2);
    CHECK(wt_sync(ctx) == WT_OK);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 0);
    wt_release(v);

    /* a prefix of a released intermediate (narrowed view, offset 0): not fused, values right */
    before = stats(ctx).fused;
    t1 = wt_neg(ctx, x4);
    v = wt_narrow(ctx, t1, 0, 0, 1000);
    wt_release(t1);
    t2 = wt_abs(ctx, v);
    wt_release(v);
    g1 = tt_read(ctx, t2);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 0);
    CHECK_EQ_INT(wt_numel(t2), 1000);
    for (int i = 0; i < 1000; i++)
        CHECKF(g1[i] == fabs((double)(float)h[i]), "narrowed intermediate [%d]", i);
    free(g1);
    wt_release(t2);

    /* clamp reads its bounds from Params: not fused after another op, but it may start a chain */
    before = stats(ctx).fused;
    t1 = wt_neg(ctx, x4);
    t2 = wt_clamp(ctx, t1, -1, 0.5);
    wt_release(t1);
    wt_tensor *t3 = wt_abs(ctx, t2);
    wt_release(t2);
    double *g3 = tt_read(ctx, t3);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 1);
    for (int i = 0; i < 4096; i++) {
        double want = fabs(fmin(fmax(-(double)(float)h[i], -1), 0.5));
        CHECKF(fabs(g3[i] - want) < 1e-6, "clamp chain [%d]: %g vs %g", i, g3[i], want);
    }
    free(g3);
    wt_release(t3);

    /* a scalar add in between is a link: sigmoid, + 1, sqrt is one dispatch */
    before = stats(ctx).fused;
    t1 = wt_sigmoid(ctx, x4);
    t2 = wt_add_scalar(ctx, t1, 1.0);
    wt_release(t1);
    t3 = wt_sqrt(ctx, t2);
    wt_release(t2);
    g3 = tt_read(ctx, t3);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 2);
    for (int i = 0; i < 4096; i++) {
        double want = sqrt((double)(float)r_sigmoid((float)h[i]) + 1);
        CHECKF(fabs(g3[i] - want) < 1e-6, "sigmoid + 1 sqrt [%d]: %g vs %g", i, g3[i], want);
    }
    free(g3);
    wt_release(t3);

    /* the intermediate as the right operand of a two-tensor op, or a reduction: no link */
    before = stats(ctx).fused;
    t1 = wt_sigmoid(ctx, x4);
    t2 = wt_sub(ctx, x4, t1);
    wt_release(t1);
    t3 = wt_sum(ctx, t2, 0, NULL, false);
    wt_release(t2);
    double sum = 0, want_sum = 0;
    CHECK(wt_item(ctx, t3, &sum) == WT_OK);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 0);
    for (int i = 0; i < 4096; i++)
        want_sum += (float)h[i] - r_sigmoid((float)h[i]);
    CHECKF(fabs(sum - want_sum) < 1e-3, "x - sigmoid(x) summed: %g vs %g", sum, want_sum);
    wt_release(t3);

    /* f16 intermediates round on store: never fused */
    if (wt_context_has_f16(ctx)) {
        wt_tensor *xh = wt_cast(ctx, x4, WT_F16);
        before = stats(ctx).fused;
        t1 = wt_sigmoid(ctx, xh);
        t2 = wt_sqrt(ctx, t1);
        wt_release(t1);
        double *g = tt_read(ctx, t2);
        CHECK_EQ_INT((int)(stats(ctx).fused - before), 0);
        for (int i = 0; i < 4096; i++) {
            double s = wt_f16_to_f32(wt_f32_to_f16((float)r_sigmoid(wt_f16_to_f32(wt_f32_to_f16((float)h[i])))));
            CHECKF(fabs(g[i] - sqrt(s)) < 2e-3, "f16 chain [%d]: %g vs %g", i, g[i], sqrt(s));
        }
        free(g);
        wt_release(t2);
        wt_release(xh);
    } else {
        printf("SKIP: f16 chain: the adapter has no shader-f16\n");
    }

    /* the context option: no fusion at all */
    wt_context_set_fusion(ctx, false);
    before = stats(ctx).fused;
    wt_tensor *y = run_chain(ctx, x4, ops10, 5);
    CHECK(wt_sync(ctx) == WT_OK);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 0);
    wt_release(y);
    wt_context_set_fusion(ctx, true);

    free(h);
    free(ht);
    wt_release(x4);
    wt_release(x1);
    wt_release(m);
    wt_release(mt);
}

/* Chains that start with, or contain, binary float ops: the dependent tiny-op pattern of `wgc
 * bench ops`, a bias add then relu, every binary op with a scalar, a broadcast scalar tensor. */
static void test_binary_chains(tt_fixture *f) {
    wt_context *ctx = f->ctx;
    int64_t n = 1000;
    double h[1000], hb[1000];
    for (int i = 0; i < 1000; i++) {
        h[i] = (i % 100) * 0.01 + 0.25;
        hb[i] = ((i * 37) % 200) * 0.01 - 1;
    }
    wt_tensor *x = tt_upload(ctx, WT_F32, 1, &n, h), *b = tt_upload(ctx, WT_F32, 1, &n, hb);

    /* 20 dependent scalar ops: 8 + 8 + 4 ops in three dispatches, the float values of the host */
    uint64_t before = stats(ctx).fused;
    wt_tensor *t = x;
    wt_retain(t);
    for (int i = 0; i < 20; i++) {
        wt_tensor *u = i % 2 ? wt_add_scalar(ctx, t, 0.5) : wt_mul_scalar(ctx, t, 1.001);
        wt_release(t);
        t = u;
    }
    double *g = tt_read(ctx, t);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 17);
    for (int j = 0; j < 1000; j++) {
        float v = (float)h[j];
        for (int i = 0; i < 20; i++)
            v = i % 2 ? v + 0.5f : v * (float)1.001;
        CHECKF(fabs(g[j] - v) <= 1e-6 * fabs(v), "scalar chain [%d]: %.9g vs %.9g", j, g[j], (double)v);
    }
    free(g);
    wt_release(t);

    /* x + b (two tensors), then relu, then * 2: one dispatch reading x and b */
    before = stats(ctx).fused;
    wt_tensor *s1 = wt_add(ctx, x, b), *s2 = wt_relu(ctx, s1);
    wt_release(s1);
    wt_tensor *s3 = wt_mul_scalar(ctx, s2, 2.0);
    wt_release(s2);
    g = tt_read(ctx, s3);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 2);
    for (int j = 0; j < 1000; j++) {
        double want = 2 * fmax((double)((float)h[j] + (float)hb[j]), 0);
        CHECKF(fabs(g[j] - want) < 1e-6, "bias relu [%d]: %g vs %g", j, g[j], want);
    }
    free(g);
    wt_release(s3);

    /* every binary float op as a link, with its scalar: sub, div, pow, minimum, maximum, remainder */
    before = stats(ctx).fused;
    t = wt_add_scalar(ctx, x, 0.75);
    wt_tensor *(*const fns[])(wt_context *, wt_tensor *, double) = {
        wt_sub_scalar, wt_div_scalar, wt_pow_scalar, wt_minimum_scalar, wt_maximum_scalar, wt_remainder_scalar,
    };
    const double sc[] = { 0.25, 0.5, 1.5, 2.5, 0.3, 0.7 };
    for (int i = 0; i < 6; i++) {
        wt_tensor *u = fns[i](ctx, t, sc[i]);
        wt_release(t);
        t = u;
    }
    g = tt_read(ctx, t);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 6);
    for (int j = 0; j < 1000; j++) {
        float v = (float)h[j] + 0.75f;
        v = v - 0.25f;
        v = v / 0.5f;
        v = powf(v, 1.5f);
        v = fminf(v, 2.5f);
        v = fmaxf(v, 0.3f);
        v = v - floorf(v / 0.7f) * 0.7f;
        CHECKF(fabs(g[j] - v) < 2e-6, "scalar op links [%d]: %.9g vs %.9g", j, g[j], (double)v);
    }
    free(g);
    wt_release(t);

    /* a one-element tensor operand (broadcast, not a scalar in Params) starts a chain too */
    wt_tensor *one = tt_upload(ctx, WT_F32, 1, (const int64_t[]){ 1 }, (const double[]){ 3.0 });
    before = stats(ctx).fused;
    s1 = wt_mul(ctx, x, one);
    s2 = wt_exp(ctx, s1);
    wt_release(s1);
    g = tt_read(ctx, s2);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 1);
    for (int j = 0; j < 1000; j++) {
        double want = exp((double)(float)(3 * (float)h[j]));
        CHECKF(fabs(g[j] - want) < 1e-5 * want, "broadcast tensor chain [%d]: %g vs %g", j, g[j], want);
    }
    free(g);
    wt_release(s2);
    wt_release(one);
    wt_release(x);
    wt_release(b);
}

/* Bind groups are made at the flush for the dispatches that remain: a 400-op chain of scalar ops
 * (8 per dispatch) makes 50 bind groups, not 400 + 350, and the same chain again (the pool hands
 * out the same buffers in the same order, intermediates included) finds all 50 in the cache. */
static void test_bind_groups(tt_fixture *f) {
    wt_context *ctx = f->ctx;
    wt_trim(ctx);                                /* an empty bind group cache */
    wt_tensor *x = wt_full(ctx, WT_F32, WT_SHAPE(1000), 1.0);
    CHECK(wt_sync(ctx) == WT_OK);
    for (int rep = 0; rep < 3; rep++) {
        wt_stats s0 = stats(ctx);
        wt_tensor *t = x;
        wt_retain(t);
        for (int i = 0; i < 400; i++) {
            wt_tensor *u = i % 2 ? wt_add_scalar(ctx, t, 0.25) : wt_mul_scalar(ctx, t, 0.5);
            wt_release(t);
            t = u;
        }
        double v = 0;
        wt_tensor *e = wt_select(ctx, t, 0, 999);
        CHECK(wt_item(ctx, e, &v) == WT_OK && fabs(v - 0.5) < 1e-6);   /* x -> x / 2 + 1/4 -> 1/2 */
        wt_release(e);
        wt_release(t);
        CHECK(wt_sync(ctx) == WT_OK);
        wt_stats s1 = stats(ctx);
        uint64_t hits = s1.bind_group_hits - s0.bind_group_hits, misses = s1.bind_group_misses - s0.bind_group_misses;
        CHECKF(s1.fused - s0.fused == 350, "rep %d: fused %llu", rep, (unsigned long long)(s1.fused - s0.fused));
        /* 50 dispatches (the select is a view, read without a dispatch) */
        CHECKF(hits + misses == 50, "rep %d: %llu bind groups fetched", rep, (unsigned long long)(hits + misses));
        CHECKF(rep == 0 || misses == 0, "rep %d: %llu bind group misses", rep, (unsigned long long)misses);
    }
    wt_release(x);
}

/* The kernel profile: sums of calls of each kernel with calls, and the number of those kernels. */
static uint64_t profiled(wt_context *ctx, uint64_t *ns, uint32_t *kernels, uint64_t *max_calls) {
    uint32_t n = wt_kernel_list(ctx, NULL, 0);
    wt_kernel_info *ki = calloc(n ? n : 1, sizeof *ki);
    CHECK(ki != NULL);
    if (!ki)
        return 0;
    n = wt_kernel_list(ctx, ki, n);
    uint64_t calls = 0;
    *ns = 0;
    *kernels = 0;
    *max_calls = 0;
    for (uint32_t i = 0; i < n; i++)
        if (ki[i].calls) {
            CHECKF(ki[i].gpu_ns > 0, "%s: %llu calls in 0 ns", ki[i].name, (unsigned long long)ki[i].calls);
            calls += ki[i].calls;
            *ns += ki[i].gpu_ns;
            (*kernels)++;
            *max_calls = ki[i].calls > *max_calls ? ki[i].calls : *max_calls;
        } else {
            CHECKF(ki[i].gpu_ns == 0, "%s: time without calls", ki[i].name);
        }
    free(ki);
    return calls;
}

/* wt_context_set_profiling: every dispatch timed and counted under its kernel, also in a batch
 * longer than the query set; off stops counting (timing stays), on again zeroes the counts. */
static void test_profile(wt_context *ctx, wt_tensor *y) {
    CHECK(wt_context_set_profiling(ctx, true) == WT_OK);
    uint64_t ns, top;
    uint32_t kernels;
    CHECK(profiled(ctx, &ns, &kernels, &top) == 0);
    wt_stats s0 = stats(ctx);
    for (int i = 0; i < 5; i++)
        wt_release(wt_neg(ctx, y));
    for (int i = 0; i < 3; i++)
        wt_release(wt_add(ctx, y, y));
    CHECK(wt_sync(ctx) == WT_OK);
    wt_stats s1 = stats(ctx);
    uint64_t calls = profiled(ctx, &ns, &kernels, &top);
    CHECKF(calls == 8 && kernels == 2 && top == 5, "profile: %llu calls of %u kernels (most %llu), want 8 of 2 (5)",
           (unsigned long long)calls, kernels, (unsigned long long)top);
    CHECKF(s1.dispatches - s0.dispatches == 8 && s1.timed_batches - s0.timed_batches == 8 && ns == s1.gpu_ns - s0.gpu_ns,
           "profile: %llu dispatches, %llu timed pairs, kernels %llu ns of %llu", (unsigned long long)(s1.dispatches - s0.dispatches),
           (unsigned long long)(s1.timed_batches - s0.timed_batches), (unsigned long long)ns,
           (unsigned long long)(s1.gpu_ns - s0.gpu_ns));
    /* more dispatches than the query set has pairs, one flush requested at the end */
    for (int i = 0; i < 2100; i++)
        wt_release(wt_neg(ctx, y));
    CHECK(wt_sync(ctx) == WT_OK);
    calls = profiled(ctx, &ns, &kernels, &top);
    CHECKF(calls == 2108 && top == 2105, "profile after 2100 more: %llu calls (most %llu)", (unsigned long long)calls,
           (unsigned long long)top);
    CHECK(wt_context_set_profiling(ctx, false) == WT_OK);
    wt_stats s2 = stats(ctx);
    wt_release(wt_neg(ctx, y));
    CHECK(wt_sync(ctx) == WT_OK);
    CHECK(profiled(ctx, &ns, &kernels, &top) == 2108 && stats(ctx).timed_batches == s2.timed_batches + 1);
    CHECK(wt_context_set_profiling(ctx, true) == WT_OK);
    CHECK(profiled(ctx, &ns, &kernels, &top) == 0 && ns == 0);
    CHECK(wt_context_set_profiling(ctx, false) == WT_OK && wt_context_set_timing(ctx, false) == WT_OK);
}

static void test_timing(void) {
    tt_fixture f;
    memset(&f, 0, sizeof f);
    fixture_init(&f.g, NULL);
    if (!wg_device_has_feature(f.g.dev, WG_FEATURE_TIMESTAMP_QUERY)) {
        /* wg turns the feature on wherever the adapter has it; without it timing is refused */
        wt_context *plain = wt_context_create(f.g.dev, NULL);
        CHECK(wt_context_set_timing(plain, true) == WT_STATUS_INVALID_ARGUMENT);
        CHECK(strstr(wt_last_error(plain), "timestamp") != NULL);
        wt_context_destroy(plain);
        fixture_end(&f.g);
        printf("SKIP: timing: the adapter has no timestamp queries\n");
        return;
    }
    f.ctx = wt_context_create(f.g.dev, &(wt_context_desc){ .allocator = test_allocator(&f.ta), .timing = true });
    CHECK(f.ctx != NULL);
    wt_context *ctx = f.ctx;
    int64_t n = 1 << 16;
    wt_tensor *x = wt_full(ctx, WT_F32, 1, &n, 2.0);
    wt_tensor *y = wt_exp(ctx, x);
    CHECK(wt_sync(ctx) == WT_OK);
    wt_stats s = stats(ctx);
    CHECKF(s.timed_batches == s.flushes && s.gpu_ns > 0, "timed %llu of %llu batches, %llu ns",
           (unsigned long long)s.timed_batches, (unsigned long long)s.flushes, (unsigned long long)s.gpu_ns);
    /* more batches than the query set has pairs, no wait in between: every one is still counted */
    for (int i = 0; i < 2100; i++) {
        wt_tensor *z = wt_neg(ctx, y);
        wt_release(z);
        CHECK(wt_flush(ctx) == WT_OK);
    }
    CHECK(wt_sync(ctx) == WT_OK);
    wt_stats s2 = stats(ctx);
    CHECKF(s2.timed_batches == s2.flushes && s2.flushes - s.flushes == 2100 && s2.gpu_ns > s.gpu_ns,
           "after 2100 flushes: timed %llu of %llu batches", (unsigned long long)s2.timed_batches,
           (unsigned long long)s2.flushes);
    /* off: batches run untimed */
    CHECK(wt_context_set_timing(ctx, false) == WT_OK);
    wt_tensor *z = wt_neg(ctx, y);
    CHECK(wt_sync(ctx) == WT_OK);
    CHECK(stats(ctx).timed_batches == s2.timed_batches && stats(ctx).flushes == s2.flushes + 1);
    wt_release(z);
    test_profile(ctx, y);
    wt_release(x);
    wt_release(y);
    tt_end(&f);
}

int main(void) {
    tt_fixture f;
    tt_init(&f, &(wt_context_desc){ .policy.max_batch_ops = 4096 });
    test_chains(&f);
    test_binary_chains(&f);
    test_bind_groups(&f);
    tt_end(&f);
    test_timing();
    return test_end();
}
