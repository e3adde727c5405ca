/* test_fusion.c - the batch's fusion of unary float chains and its GPU timing (src/tensor/batch.c):
 * fused chains give the C reference's values and the same values as the unfused ops, fuse only
 * what may be fused (temporaries, f32 intermediates, adjacent unary float ops, no clamp after
 * another op, at most 8 ops per dispatch), and timing adds the GPU time of every finished batch
 * (also past the query set's WT_TIMING_PAIRS pairs without a wait). */
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

    /* another op in between (a scalar add) ends the chain */
    before = stats(ctx).fused;
    t1 = wt_sigmoid(ctx, x4);
    t2 = wt_add_scalar(ctx, t1, 1.0);
    wt_release(t1);
    t3 = wt_sqrt(ctx, t2);
    wt_release(t2);
    CHECK(wt_sync(ctx) == WT_OK);
    CHECK_EQ_INT((int)(stats(ctx).fused - before), 0);
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
    wt_release(x);
    wt_release(y);
    tt_end(&f);
}

int main(void) {
    tt_fixture f;
    tt_init(&f, &(wt_context_desc){ .max_batch_ops = 4096 });
    test_chains(&f);
    tt_end(&f);
    test_timing();
    return test_end();
}
