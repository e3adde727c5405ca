/* test_faults.c - every host allocation of wt fails once in turn (through the context's
 * allocator hook) during a small workload: creation, ops with broadcasting and views, a read,
 * an .npy round trip.  Each run must end cleanly: no crash, an error status where something
 * failed, and no leaked allocation once the context is destroyed.  Then every host allocation
 * of wg fails once in turn during a flush (its bind groups are made there, after fusion): the
 * read reports the error (a bind group's among them) or gives the right values, the context
 * computes correctly after wt_clear_error, and nothing leaks. */
#include <unistd.h>

#include "tensor/tensor_test.h"

/* Returns the number of wt allocations the workload made (when nothing fails), or -1 if a run
 * with a failure reported success with wrong numbers. */
static int workload(wt_context *ctx, const char *path) {
    wt_tensor *a = wt_arange(ctx, WT_F32, 0, 12, 1);
    wt_tensor *m = wt_reshape(ctx, a, WT_SHAPE(3, 4));
    wt_tensor *t = wt_transpose(ctx, m, 0, 1);
    wt_tensor *e = wt_exp(ctx, t);
    wt_tensor *s = wt_add(ctx, e, t);
    wt_tensor *c = wt_lt_scalar(ctx, s, 10);
    wt_tensor *w = wt_where(ctx, c, s, t);
    float host[12];
    wt_status st = wt_to_host(ctx, w, host, sizeof host);
    int ok = 0;
    if (st == WT_OK) {
        /* t is [4, 3] with t[i][j] = m[j][i] = 4 j + i; w = t + exp(t) where that is < 10, else t */
        ok = 1;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++) {
                double x = 4 * j + i, v = x + exp(x), want = v < 10 ? v : x;
                if (fabs(host[i * 3 + j] - want) > 1e-4 * (1 + fabs(want)))
                    ok = -1;
            }
    }
    if (st == WT_OK && wt_save_npy(ctx, w, path) == WT_OK) {
        wt_tensor *l = wt_load_npy(ctx, path);
        wt_release(l);
    }
    wt_tensor *all[] = { a, m, t, e, s, c, w };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        wt_release(all[i]);
    return ok;
}

/* Fails wg's k-th host allocation from now on (the device's instance allocator). */
static void fail_wg_at(test_alloc *wa, long k) {
    wa->failed = 0;
    wa->fail_at = wa->total + k;
}

/* Run k: y = exp(x) * 0.5 + x on a fresh x of 64 elements.  Its flush's bind groups are new (the
 * runs keep their tensors alive, so the buffers are new; the check after each run uses another
 * size class) on a device whose bind group objects are not recycled yet, so each bind group is a
 * host allocation of wg; run k fails the flush's k-th one (its kernels were built before). */
static void flush_faults(void) {
    gpu_fixture g;
    fixture_init(&g, NULL);
    test_alloc ta = { 0 };
    wt_context *c = wt_context_create(g.dev, &(wt_context_desc){ .label = "flush faults",
                                                                  .allocator = test_allocator(&ta) });
    CHECK(c != NULL);
    enum { RUNS = 48 };
    wt_tensor *keep[RUNS + 1][3] = { { NULL } };
    int errors = 0, bind_group_errors = 0, clean = 0;
    for (long k = 0; k <= RUNS && c && !clean; k++) {   /* run 0 fails nothing: it builds the kernels */
        wt_tensor **t = keep[k];
        t[0] = wt_full(c, WT_F32, WT_SHAPE(64), (double)k);
        wt_tensor *e = wt_exp(c, t[0]);
        t[1] = wt_mul_scalar(c, e, 0.5);        /* fused with exp at the flush */
        wt_release(e);
        t[2] = wt_add(c, t[1], t[0]);
        float host[64];
        if (k)
            fail_wg_at(&g.ta, k);
        wt_status st = wt_to_host(c, t[2], host, sizeof host);
        bool failed = g.ta.failed;
        g.ta.fail_at = 0;
        if (st != WT_OK) {
            CHECKF(failed && wt_last_status(c) == st, "run %ld: %s without a failed allocation", k, wt_last_error(c));
            errors++;
            if (strstr(wt_last_error(c), "bind group")) {   /* reported by the read that flushed */
                bind_group_errors++;
                CHECKF(st == WT_STATUS_HOST_OUT_OF_MEMORY && strstr(wt_last_error(c), "wt_to_host: bind group"), "%s",
                       wt_last_error(c));
            }
        } else {
            double want = exp((float)k) * 0.5 + k;
            CHECKF(fabs(host[63] - want) < 1e-5 * want, "run %ld: %g, want %g", k, host[63], want);
            clean = k && !failed;               /* every allocation of the flush passed */
        }
        /* usable again: a new computation gives the right values */
        wt_clear_error(c);
        wt_tensor *x = wt_full(c, WT_F32, WT_SHAPE(1024), 2.0), *y = wt_exp(c, x);
        double v = 0;
        wt_tensor *y0 = wt_select(c, y, 0, 1023);
        CHECKF(wt_item(c, y0, &v) == WT_OK && fabs(v - exp(2.0)) < 1e-5 * exp(2.0), "run %ld: after the error %s", k,
               wt_last_error(c));
        wt_release(x), wt_release(y), wt_release(y0);
    }
    printf("flush faults: %d runs failed (%d in a bind group), then a clean one: %s\n", errors, bind_group_errors,
           clean ? "yes" : "no");
    CHECK(clean);
    CHECK(errors > 0 && bind_group_errors > 0);
    for (int r = 0; r <= RUNS; r++)
        for (int i = 0; i < 3; i++)
            wt_release(keep[r][i]);
    wt_context_destroy(c);
    CHECK_EQ_INT(ta.live, 0);
    fixture_end(&g);                            /* no validation message, no wg allocation leaked */
}

int main(void) {
    tt_fixture f;
    tt_init(&f, NULL);   /* the fixture's own context stays unused: the runs below make their own */
    char path[128];
    snprintf(path, sizeof path, "/tmp/wt_faults_%d.npy", (int)getpid());
    test_alloc ta = { 0 };
    wt_context *ctx = wt_context_create(f.g.dev, &(wt_context_desc){ .allocator = test_allocator(&ta) });
    CHECK(ctx != NULL);
    CHECK(workload(ctx, path) == 1);
    wt_context_destroy(ctx);
    long total = ta.total;
    CHECK_EQ_INT(ta.live, 0);
    printf("the workload makes %ld wt allocations; failing each in turn\n", total);
    int failed_runs = 0, bad = 0;
    long step = test_under_valgrind() ? 4 : 1;   /* every context compiles its kernels again */
    if (step > 1)
        printf("note: under valgrind every 4th allocation fails\n");
    long runs = 0;
    for (long k = 1; k <= total + 2; k += step, runs++) {
        test_alloc fa = { .fail_at = k };
        wt_context *c = wt_context_create(f.g.dev, &(wt_context_desc){ .allocator = test_allocator(&fa) });
        if (c) {
            int r = workload(c, path);
            if (r < 0)
                bad++;
            /* a failure may also be absorbed (a free-list slot): then the results must be right */
            if (fa.failed && wt_last_status(c) != WT_OK)
                failed_runs++;
            wt_context_destroy(c);
        } else {
            CHECK(fa.failed);
            failed_runs++;
        }
        CHECKF(fa.live == 0, "fail at %ld: %ld allocations leaked", k, fa.live);
    }
    CHECK_EQ_INT(bad, 0);
    CHECKF(failed_runs > runs / 2, "only %d of %ld runs reported the failure", failed_runs, runs);
    unlink(path);
    flush_faults();
    tt_end(&f);
    return test_end();
}
