/* test_lazy.c - lazy execution, the buffer pool and errors: a thousand dependent ops then one
 * read equal eager mode and a host reference and go out in one submit; max_batch_ops flushes;
 * temporaries return to the pool only after the GPU is done, then are reused (hits, no misses);
 * a repeated workload past the bind group table's first size still hits every bind group; trim;
 * out-of-memory (memory_limit and the binding limit) leaves existing tensors intact; f16 refused
 * without shader-f16; every kind of bad call gives a clear error naming the op; and the CPU cost
 * per recorded op (printed). */
#include <time.h>

#include "tensor/tensor_test.h"

static wt_context *ctx;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* 1000 dependent ops: x = ((x * 1.001) + 0.5) ... with a few unary ops; returns the result. */
static wt_tensor *chain(wt_context *c, wt_tensor *x, int n) {
    wt_retain(x);
    for (int i = 0; i < n; i++) {
        wt_tensor *y;
        switch (i % 4) {
        case 0: y = wt_mul_scalar(c, x, 1.001); break;
        case 1: y = wt_add_scalar(c, x, 0.5); break;
        case 2: y = wt_maximum_scalar(c, x, -1.0); break;
        default: y = wt_sub_scalar(c, x, 0.25); break;
        }
        wt_release(x);
        x = y;
    }
    return x;
}

static double chain_ref(double x, int n) {
    for (int i = 0; i < n; i++) {
        switch (i % 4) {
        case 0: x = (float)(x * (float)1.001); break;
        case 1: x = (float)(x + 0.5); break;
        case 2: x = x > -1 ? x : -1; break;
        default: x = (float)(x - 0.25); break;
        }
    }
    return x;
}

static void test_laziness(tt_fixture *f) {
    /* a thousand ops (two hundred under valgrind, where each eager submit takes long) */
    const int n = test_under_valgrind() ? 200 : 1000;
    double in[300];
    for (int i = 0; i < 300; i++)
        in[i] = (float)(i * 0.1 - 10);
    wt_tensor *x = tt_upload(ctx, WT_F32, 1, (const int64_t[]){ 300 }, in);
    wt_sync(ctx);
    wt_stats s0, s1;
    wg_device_stats d0, d1;
    wt_get_stats(ctx, &s0);
    wg_device_get_stats(f->g.dev, &d0);
    wt_tensor *lazy = chain(ctx, x, n);
    wt_get_stats(ctx, &s1);
    CHECK_EQ_INT(s1.flushes - s0.flushes, 0);            /* nothing ran yet */
    CHECK_EQ_INT(s1.ops - s0.ops, n);
    double *lv = tt_read(ctx, lazy);
    wt_get_stats(ctx, &s1);
    wg_device_get_stats(f->g.dev, &d1);
    CHECK_EQ_INT(s1.flushes - s0.flushes, 1);            /* one submit for the whole chain */
    CHECK_EQ_INT(s1.dispatches - s0.dispatches, n);
    CHECK_EQ_INT(d1.dispatches - d0.dispatches, n);
    CHECKF(d1.barriers - d0.barriers >= (uint64_t)n - 1, "barriers %llu", (unsigned long long)(d1.barriers - d0.barriers));
    /* temporaries: only the result is live */
    CHECKF(s1.live_buffers <= 3, "live buffers %llu", (unsigned long long)s1.live_buffers);

    wt_context_set_eager(ctx, true);
    wt_get_stats(ctx, &s0);
    wt_tensor *eager = chain(ctx, x, n);
    wt_get_stats(ctx, &s1);
    CHECK_EQ_INT(s1.flushes - s0.flushes, n);
    wt_context_set_eager(ctx, false);
    double *ev = tt_read(ctx, eager);
    int bad = 0;
    for (int i = 0; i < 300; i++) {
        bad += lv[i] != ev[i];
        double want = chain_ref(in[i], n);
        bad += fabs(lv[i] - want) > 1e-4 * (1 + fabs(want));
    }
    CHECK_EQ_INT(bad, 0);
    free(lv);
    free(ev);
    wt_release(lazy);
    wt_release(eager);
    wt_release(x);
}

static void test_batch_size(tt_fixture *f) {
    /* the default: 16 dispatches when the GPU is idle, else 128 per submit, so 1000 ops then a
     * read make between 9 submits (the GPU busy from the first one on) and 63 (always idle) */
    wt_context *d = wt_context_create(f->g.dev, &(wt_context_desc){ .allocator = test_allocator(&f->ta) });
    wt_tensor *x0 = wt_ones(d, WT_F32, WT_SHAPE(64));
    wt_tensor *y0 = chain(d, x0, 999);
    double v0;
    wt_tensor *e0 = wt_select(d, y0, 0, 5);
    CHECK(wt_item(d, e0, &v0) == WT_OK && fabs(v0 - chain_ref(1, 999)) < 1e-3 * (1 + fabs(v0)));
    wt_stats s0;
    wt_get_stats(d, &s0);
    CHECKF(s0.flushes >= 9 && s0.flushes <= 63, "%llu flushes", (unsigned long long)s0.flushes);
    wt_release(x0), wt_release(y0), wt_release(e0);
    wt_context_destroy(d);

    wt_context *c = wt_context_create(f->g.dev, &(wt_context_desc){ .label = "small batches", .policy.max_batch_ops = 10,
                                                                     .allocator = test_allocator(&f->ta) });
    CHECK(c != NULL);
    wt_tensor *x = wt_ones(c, WT_F32, WT_SHAPE(1000));   /* op 1 */
    wt_tensor *y = chain(c, x, 34);                        /* ops 2..35: flushes at 10, 20, 30 */
    wt_stats st;
    wt_get_stats(c, &st);
    CHECK_EQ_INT(st.flushes, 3);
    double v;
    wt_tensor *e = wt_select(c, y, 0, 999);
    CHECK(wt_item(c, e, &v) == WT_OK);
    CHECK(fabs(v - chain_ref(1, 34)) < 1e-4);
    wt_get_stats(c, &st);
    CHECK_EQ_INT(st.flushes, 4);
    CHECK(wt_flush(c) == WT_OK);   /* empty batch: no submit */
    wt_get_stats(c, &st);
    CHECK_EQ_INT(st.flushes, 4);
    wt_release(e), wt_release(x), wt_release(y);
    wt_context_destroy(c);
}

static void test_pool(void) {
    wt_trim(ctx);
    wt_stats a, b;
    /* a buffer released while its batch is pending is not reused before the GPU is done */
    wt_tensor *x = wt_zeros(ctx, WT_F32, WT_SHAPE(5000));
    wt_release(x);
    wt_get_stats(ctx, &a);
    CHECK_EQ_INT(a.pooled_buffers, 0);                    /* still held by the pending batch */
    CHECK_EQ_INT(a.live_buffers, 1);
    wt_tensor *y = wt_empty(ctx, WT_F32, WT_SHAPE(5000));  /* same class: must be a miss */
    wt_get_stats(ctx, &b);
    CHECK_EQ_INT(b.pool_misses - a.pool_misses, 1);
    CHECK_EQ_INT(b.pool_hits - a.pool_hits, 0);
    wt_release(y);
    CHECK(wt_sync(ctx) == WT_OK);
    /* after completion the same sizes come from the pool */
    wt_get_stats(ctx, &a);
    CHECK_EQ_INT(a.pooled_buffers, 2);
    CHECK_EQ_INT(a.pooled_bytes, a.allocated_bytes);
    wt_tensor *z1 = wt_zeros(ctx, WT_F32, WT_SHAPE(5000)), *z2 = wt_zeros(ctx, WT_F32, WT_SHAPE(4900));
    wt_get_stats(ctx, &b);
    CHECK_EQ_INT(b.pool_hits - a.pool_hits, 2);
    CHECK_EQ_INT(b.pool_misses - a.pool_misses, 0);
    CHECK_EQ_INT(b.live_buffers, 2);
    CHECK_EQ_INT(b.live_bytes, b.allocated_bytes);
    CHECK(b.peak_allocated_bytes >= b.allocated_bytes);
    /* steady state: a loop of temporaries does not grow the pool */
    for (int it = 0; it < 2; it++) {
        wt_tensor *w = chain(ctx, z1, 200);
        wt_release(w);
        wt_sync(ctx);
    }
    wt_get_stats(ctx, &a);
    wt_tensor *w = chain(ctx, z1, 200);
    wt_release(w);
    wt_sync(ctx);
    wt_get_stats(ctx, &b);
    CHECK_EQ_INT(b.pool_misses - a.pool_misses, 0);
    CHECK_EQ_INT(b.allocated_bytes, a.allocated_bytes);
    CHECK_EQ_INT(b.bind_group_misses - a.bind_group_misses, 0);
    CHECK_EQ_INT(b.kernels_compiled - a.kernels_compiled, 0);
    /* trim releases everything pooled */
    wt_release(z2);
    wt_trim(ctx);
    wt_get_stats(ctx, &a);
    CHECK_EQ_INT(a.pooled_bytes, 0);
    CHECK_EQ_INT(a.live_buffers, 1);
    CHECK_EQ_INT(a.allocated_bytes, a.live_bytes);
    wt_release(z1);
    wt_trim(ctx);
    wt_get_stats(ctx, &a);
    CHECK_EQ_INT(a.allocated_bytes, 0);
}

/* A repeated workload that binds more buffer sets than the bind group table holds at first
 * (3/4 of 4096 slots): the table grows, so the repetition finds every bind group again (a table
 * cleared when full missed on every one: the working set is cyclic). */
static void test_bind_group_cache(void) {
    const int n = 3500;   /* 3500 dispatches in one batch (fusion off), each its own buffers */
    wt_tensor *x = wt_ones(ctx, WT_F32, WT_SHAPE(16));
    CHECK(wt_sync(ctx) == WT_OK);
    for (int rep = 0; rep < 2; rep++) {
        wt_stats a, b;
        wt_get_stats(ctx, &a);
        wt_tensor *y = chain(ctx, x, n);
        float h[16];
        CHECK(wt_to_host(ctx, y, h, sizeof h) == WT_OK && fabs(h[15] - chain_ref(1, n)) < 1e-3);
        wt_release(y);
        CHECK(wt_sync(ctx) == WT_OK);
        wt_get_stats(ctx, &b);
        CHECKF(b.bind_group_hits + b.bind_group_misses - a.bind_group_hits - a.bind_group_misses == (uint64_t)n,
               "rep %d: %llu bind groups", rep,
               (unsigned long long)(b.bind_group_hits + b.bind_group_misses - a.bind_group_hits - a.bind_group_misses));
        CHECKF(rep == 0 || b.bind_group_misses == a.bind_group_misses, "rep %d: %llu misses", rep,
               (unsigned long long)(b.bind_group_misses - a.bind_group_misses));
    }
    wt_release(x);
    wt_trim(ctx);   /* releases the pooled buffers and the bind groups holding them */
}

static void test_oom(tt_fixture *f) {
    wt_context *c = wt_context_create(f->g.dev, &(wt_context_desc){ .memory_limit = 2 << 20,
                                                                     .allocator = test_allocator(&f->ta) });
    wt_tensor *a = wt_full(c, WT_F32, WT_SHAPE(300000), 3);   /* 1.2 MB */
    CHECK(a != NULL);
    wt_tensor *tmp = wt_full(c, WT_F32, WT_SHAPE(100000), 1);   /* 400 KB, then released: pooled */
    wt_release(tmp);
    wt_tensor *b = wt_full(c, WT_F32, WT_SHAPE(300000), 4);   /* over the limit even after freeing the pool */
    CHECK(b == NULL);
    CHECK_EQ_INT(wt_last_status(c), WT_STATUS_OUT_OF_MEMORY);
    CHECKF(strstr(wt_last_error(c), "wt_full") && strstr(wt_last_error(c), "1200000 bytes"), "%s", wt_last_error(c));
    wt_clear_error(c);
    double v;
    wt_tensor *e = wt_select(c, a, 0, 299999);
    CHECK(wt_item(c, e, &v) == WT_OK && v == 3);   /* existing tensors intact */
    wt_tensor *s = wt_full(c, WT_F32, WT_SHAPE(50000), 5);   /* smaller ones still fit */
    CHECK(s != NULL);
    wt_release(e), wt_release(s), wt_release(a);
    wt_tensor *b2 = wt_full(c, WT_F32, WT_SHAPE(300000), 4);   /* after releasing: fits again */
    CHECK(b2 != NULL);
    wt_release(b2);
    /* a long chain whose temporaries together pass the limit: batches flush by bytes and later
     * ones reuse what finished, so it runs within 2 MiB */
    wt_stats st0, st1;
    wt_get_stats(c, &st0);
    wt_tensor *x = wt_full(c, WT_F32, WT_SHAPE(65536), 1);
    wt_tensor *y = chain(c, x, 40);
    CHECKF(y != NULL, "%s", wt_last_error(c));
    wt_tensor *e2 = y ? wt_select(c, y, 0, 65535) : NULL;
    CHECK(e2 && wt_item(c, e2, &v) == WT_OK && fabs(v - chain_ref(1, 40)) < 1e-4);
    wt_get_stats(c, &st1);
    CHECKF(st1.flushes - st0.flushes >= 4, "%llu flushes", (unsigned long long)(st1.flushes - st0.flushes));
    CHECK(st1.peak_allocated_bytes <= (1 << 20) * 2);
    wt_release(e2), wt_release(x), wt_release(y);
    wt_context_destroy(c);
    /* bigger than one binding may hold */
    wt_tensor *huge = wt_empty(ctx, WT_F32, WT_SHAPE(2147483647));
    CHECK(huge == NULL && wt_last_status(ctx) == WT_STATUS_OUT_OF_MEMORY);
    wt_clear_error(ctx);
}

static void test_errors(tt_fixture *f) {
    wt_tensor *fl = wt_ones(ctx, WT_F32, WT_SHAPE(2, 3)), *bo = wt_ones(ctx, WT_BOOL, WT_SHAPE(3));
    wt_tensor *r;
    CHECK(wt_add(NULL, fl, fl) == NULL);
    r = wt_add(ctx, bo, bo);
    CHECK(r == NULL && wt_last_status(ctx) == WT_STATUS_DTYPE && strstr(wt_last_error(ctx), "wt_add: arithmetic on bool"));
    wt_clear_error(ctx);
    r = wt_exp(ctx, bo);
    CHECK(r == NULL && strstr(wt_last_error(ctx), "wt_exp"));
    wt_clear_error(ctx);
    r = wt_clamp(ctx, fl, 2, 1);
    CHECK(r == NULL && wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);
    wt_tensor *w4 = wt_ones(ctx, WT_F32, WT_SHAPE(4));
    r = wt_where(ctx, bo, fl, w4);
    CHECKF(r == NULL && strstr(wt_last_error(ctx), "wt_where: shapes [3], [2, 3] and [4] are not broadcastable"), "%s",
           wt_last_error(ctx));
    wt_clear_error(ctx);
    /* a failing chain reports its root cause once at the end */
    wt_tensor *t1 = wt_mul(ctx, fl, w4);
    wt_tensor *t2 = wt_exp(ctx, t1);
    wt_tensor *t3 = wt_add_scalar(ctx, t2, 1);
    CHECK(!t1 && !t2 && !t3);
    CHECKF(strstr(wt_last_error(ctx), "wt_mul: shapes [2, 3] and [4]") != NULL, "%s", wt_last_error(ctx));
    CHECK(wt_to_host(ctx, t3, NULL, 0) == WT_STATUS_SHAPE);
    wt_clear_error(ctx);
    CHECK(wt_exp(ctx, NULL) == NULL && wt_last_status(ctx) == WT_STATUS_NULL_TENSOR);
    wt_clear_error(ctx);
    CHECK(wt_cast(ctx, fl, (wt_dtype)99) == NULL && wt_last_status(ctx) == WT_STATUS_DTYPE);
    wt_clear_error(ctx);
    /* a tensor from another context */
    wt_context *c2 = wt_context_create(f->g.dev, NULL);
    wt_tensor *o = wt_ones(c2, WT_F32, WT_SHAPE(3));
    CHECK(wt_add(ctx, w4, o) == NULL && wt_last_status(ctx) == WT_STATUS_WRONG_CONTEXT);
    wt_clear_error(ctx);
    wt_release(o);
    wt_context_destroy(c2);
    CHECK(strcmp(wt_status_name(WT_STATUS_SHAPE), "WT_STATUS_SHAPE") == 0);
    CHECK(strcmp(wt_dtype_name(WT_BOOL), "bool") == 0 && wt_dtype_size(WT_F16) == 2);
    CHECK(wt_promote(WT_I32, WT_F16) == WT_F16 && wt_promote(WT_U32, WT_I32) == WT_I32 && wt_promote(WT_BOOL, WT_U32) == WT_U32);
    /* f16 without shader-f16 */
    wg_error err;
    wg_device *plain = wg_adapter_create_device(f->g.ad, &(wg_device_desc){ .label = "no f16", .cache_dir = "" }, &err);
    CHECK(plain != NULL);
    wt_context *c3 = wt_context_create(plain, NULL);
    CHECK(!wt_context_has_f16(c3));
    CHECK(wt_zeros(c3, WT_F16, WT_SHAPE(2)) == NULL && wt_last_status(c3) == WT_STATUS_DTYPE &&
          strstr(wt_last_error(c3), "shader-f16"));
    wt_context_destroy(c3);
    wg_device_release(plain);
    wt_release(fl), wt_release(bo), wt_release(w4);
}

static void test_overhead(test_alloc *ta) {
    wt_tensor *x = wt_ones(ctx, WT_F32, WT_SHAPE(16));
    wt_tensor *y = chain(ctx, x, 1000);   /* warm: kernels, bind groups, pool */
    wt_release(y);
    wt_sync(ctx);
    /* steady state: recording, flushing and reading do no host allocation */
    long before = ta->total;
    y = chain(ctx, x, 1000);
    float h[16];
    CHECK(wt_to_host(ctx, y, h, sizeof h) == WT_OK);
    wt_release(y);
    wt_sync(ctx);
    CHECKF(ta->total == before, "%ld host allocations in a steady-state 1000-op chain", ta->total - before);
    double best = 1e9;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now_s();
        y = chain(ctx, x, 1000);
        wt_flush(ctx);
        double t1 = now_s();
        wt_release(y);
        wt_sync(ctx);
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    printf("1000 dependent tiny ops, record + flush: %.2f us/op (CPU, this machine)\n", best * 1e3);
    /* the validation layers cost ~50 us per dispatch on their own; without them this is ~1 us */
    const char *v = getenv("WGC_TEST_VALIDATION");
    double bound = v && !strcmp(v, "0") ? 25 : 1000;
    if (test_under_valgrind()) {
        printf("note: under valgrind the per-op bound is 100 ms\n");
        bound = 100000;
    }
    CHECKF(best * 1e3 < bound, "%.2f us/op (bound %.0f)", best * 1e3, bound);
    wt_release(x);
}

int main(void) {
    tt_fixture f;
    /* fusion off: these tests count dispatches, barriers and bind groups of one op each
     * (test_fusion covers the fused chains) */
    ctx = tt_init(&f, &(wt_context_desc){ .label = "one big batch", .policy = { .max_batch_ops = 4096, .fusion = WT_OFF } });
    test_laziness(&f);
    test_batch_size(&f);
    test_pool();
    test_bind_group_cache();
    test_oom(&f);
    test_errors(&f);
    test_overhead(&f.ta);
    tt_end(&f);
    return test_end();
}
