/* test_faults.c - every host allocation of wt fails once in turn (through the context's
 * allocator hook) during a small workload: creation, ops with broadcasting and views, a read,
 * an .npy round trip.  Each run must end cleanly: no crash, an error status where something
 * failed, and no leaked allocation once the context is destroyed. */
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
    long step = tt_under_valgrind() ? 4 : 1;   /* every context compiles its kernels again */
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
    tt_end(&f);
    return test_end();
}
