/* test_ew_vpt.c - the vec4 map kernels with several vec4s per invocation (WGC_EW_VPT = 1, 2, 4,
 * read when a context is created; unset = the default): add, a scalar add, mul by a broadcast element and a unary
 * chain on sizes that end inside a workgroup, exactly at one and one vec4 past it, each checked
 * element by element against the host; plus a batch flush threshold set through WGC_BATCH_MB. */
#include <math.h>
#include <stdlib.h>

#include "tensor/tensor_test.h"

static void check(wt_context *ctx, const char *what, int vpt, int64_t n, wt_tensor *t, const double *want) {
    CHECKF(t != NULL, "%s vpt %d n %lld: %s", what, vpt, (long long)n, wt_last_error(ctx));
    if (!t)
        return;
    double *v = tt_read(ctx, t);
    int64_t bad = 0;
    for (int64_t i = 0; v && i < n; i++)
        if (fabs(v[i] - want[i]) > 1e-5 * fabs(want[i]) + 1e-6 && bad++ < 3)
            fprintf(stderr, "%s vpt %d n %lld: [%lld] = %g, want %g\n", what, vpt, (long long)n, (long long)i, v[i],
                    want[i]);
    CHECKF(v && bad == 0, "%s vpt %d n %lld: %lld wrong", what, vpt, (long long)n, (long long)bad);
    free(v);
}

int main(void) {
    static const int64_t sizes[] = { 4, 1020, 1024 * 4, 1024 * 4 + 4, 2048 * 4 + 12, 8 * 1024 * 4 + 4 };
    static const char *const vpts[] = { "1", "2", "4", NULL };   /* NULL: the default (2 for map1, 1 for map2) */
    for (int vi = 0; vi < 4; vi++) {
        if (vpts[vi])
            setenv("WGC_EW_VPT", vpts[vi], 1);
        else
            unsetenv("WGC_EW_VPT");
        if (vi == 2)
            setenv("WGC_BATCH_MB", "1", 1);   /* vpt 4: flush after 1 MiB of outputs */
        else
            unsetenv("WGC_BATCH_MB");         /* the default (wt_policy_from_env refuses 0) */
        tt_fixture f;
        wt_context *ctx = tt_init(&f, NULL);
        int vpt = vpts[vi] ? atoi(vpts[vi]) : 0;
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            int64_t n = sizes[si];
            double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
            double *w = malloc((size_t)n * sizeof *w);
            uint64_t s = 7 + (uint64_t)n;
            for (int64_t i = 0; i < n; i++) {
                x[i] = tt_rand(&s, 0.5, 1.5);
                y[i] = tt_rand(&s, -2, -1);
            }
            wt_tensor *a = tt_upload(ctx, WT_F32, 1, &n, x), *b = tt_upload(ctx, WT_F32, 1, &n, y);
            wt_tensor *c = wt_add(ctx, a, b);
            for (int64_t i = 0; i < n; i++)
                w[i] = (double)((float)x[i] + (float)y[i]);
            check(ctx, "add", vpt, n, c, w);
            wt_tensor *d = wt_add_scalar(ctx, a, 0.25);
            for (int64_t i = 0; i < n; i++)
                w[i] = (double)((float)x[i] + 0.25f);
            check(ctx, "add scalar", vpt, n, d, w);
            wt_tensor *one = wt_narrow(ctx, b, 0, n - 1, 1);   /* a single element: broadcast mode */
            wt_tensor *e = one ? wt_mul(ctx, a, one) : NULL;
            for (int64_t i = 0; i < n; i++)
                w[i] = (double)((float)x[i] * (float)y[n - 1]);
            check(ctx, "mul broadcast", vpt, n, e, w);
            wt_tensor *s1 = wt_sqrt(ctx, a), *s2 = s1 ? wt_neg(ctx, s1) : NULL;
            for (int64_t i = 0; i < n; i++)
                w[i] = -sqrt(x[i]);
            check(ctx, "sqrt neg", vpt, n, s2, w);
            wt_release(a), wt_release(b), wt_release(c), wt_release(d), wt_release(one), wt_release(e);
            wt_release(s1), wt_release(s2);
            free(x), free(y), free(w);
        }
        /* 40 recorded adds of 128 KiB outputs: the 1 MiB threshold flushes every few ops, the
         * default 1 GiB only early (an idle GPU after 16 ops) and at the sync */
        wt_stats st0, st;
        int64_t n = 32 * 1024;
        wt_tensor *a = wt_ones(ctx, WT_F32, 1, &n), *outs[40] = { 0 };
        CHECKF(a != NULL && wt_sync(ctx) == WT_OK, "ones: %s", wt_last_error(ctx));
        wt_get_stats(ctx, &st0);
        for (int i = 0; i < 40; i++)
            outs[i] = wt_add(ctx, a, a);
        CHECK(wt_sync(ctx) == WT_OK);
        wt_get_stats(ctx, &st);
        uint64_t fl = st.flushes - st0.flushes;
        if (vi == 2)
            CHECKF(fl >= 4, "WGC_BATCH_MB=1: %llu flushes for 40 ops", (unsigned long long)fl);
        else
            CHECKF(fl <= 3, "default batch bytes: %llu flushes for 40 ops", (unsigned long long)fl);
        for (int i = 0; i < 40; i++)
            wt_release(outs[i]);
        wt_release(a);
        wt_get_stats(ctx, &st);
        CHECK_EQ_INT(st.live_tensors, 0);
        tt_end(&f);
    }
    return test_end();
}
