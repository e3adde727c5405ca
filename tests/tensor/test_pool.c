/* test_pool.c - peak memory.  First cross_entropy over a 50k vocabulary (test_ce_memory below):
 * logits, their gradient and O(N), nothing more.  Then the buffer pool's bound: a training-like
 * loop (a forward keeping one activation per layer out of three temporaries, layers of different
 * widths, then a backward releasing the saved activations in reverse while making gradients of
 * their sizes) all recorded without a read, so the pending batch's temporaries cannot be reused
 * until the pool reclaims them.  The pool (live + pooled, wt_stats.peak_allocated_bytes) must stay
 * within the pool's bound: 1.1x the most bytes the test itself held at once (computed on the host
 * from the tensors' sizes), times the rounding of the size classes (at most 9/8), plus the pool's
 * 4 MiB floor, every step (it measured 1.215x the bytes held; the pool without its bound took 5.4x,
 * every batch's temporaries); steps after the first three must not grow the pool's peak; and the
 * values must be right (each step's result is read back and compared with a host computation in
 * f64), so reuse never lets a batch overwrite a buffer that pending or running work still reads. */
#include <math.h>
#include <stdlib.h>

#include "tensor/tensor_test.h"

#define LAYERS 12
#define STEPS 8

static uint64_t held, held_peak;   /* bytes the test holds: a tensor of n f32 is 4 n */

static void hold(int64_t n) {
    held += (uint64_t)n * 4;
    if (held > held_peak)
        held_peak = held;
}

static void drop(int64_t n) {
    held -= (uint64_t)n * 4;
}

/* One step.  Layer i has n[i] elements: a = full(v_i), b = exp(a * 0.001), c = a + b (saved), a
 * and b released; the backward makes g = c * 0.5 + 1 (two temporaries), sums it into acc and
 * releases c.  acc [1] accumulates sum_i n[i] (c_i * 0.5 + 1) over the step: read back. */
static double step(wt_context *ctx, const int64_t *n, int s, double *want) {
    wt_tensor *saved[LAYERS];
    double ref = 0;
    for (int i = 0; i < LAYERS; i++) {
        double v = 0.25 * (i + 1) + 0.01 * s;
        wt_tensor *a = wt_full(ctx, WT_F32, WT_SHAPE(n[i]), v);
        hold(n[i]);
        wt_tensor *am = wt_mul_scalar(ctx, a, 0.001);
        hold(n[i]);
        wt_tensor *b = wt_exp(ctx, am);
        hold(n[i]);
        wt_release(am), drop(n[i]);
        saved[i] = wt_add(ctx, a, b);
        hold(n[i]);
        wt_release(a), drop(n[i]);
        wt_release(b), drop(n[i]);
        double c = (float)v + (float)exp((float)(v * 0.001));
        ref += (double)n[i] * (c * 0.5 + 1);
    }
    wt_tensor *acc = wt_zeros(ctx, WT_F32, 0, NULL);
    for (int i = LAYERS; i-- > 0;) {
        wt_tensor *h = wt_mul_scalar(ctx, saved[i], 0.5);
        hold(n[i]);
        wt_release(saved[i]), drop(n[i]);
        wt_tensor *g = wt_add_scalar(ctx, h, 1);
        hold(n[i]);
        wt_release(h), drop(n[i]);
        wt_tensor *sg = wt_sum(ctx, g, 0, NULL, false);
        wt_release(g), drop(n[i]);
        wt_tensor *a2 = wt_add(ctx, acc, sg);
        wt_release(acc);
        wt_release(sg);
        acc = a2;
    }
    double got = NAN;
    CHECKF(wt_item(ctx, acc, &got) == WT_OK, "item: %s", wt_last_error(ctx));
    wt_release(acc);
    *want = ref;
    return got;
}

/* cross_entropy forward + backward over [N, 50257] f32 logits (label smoothing 0.1, one row
 * ignored, one target negative, one out of range, mean): the pool's peak beyond what was allocated
 * before (the logits and targets) is the gradient (dlogits, and the leaf's own copy of it that
 * wt_backward makes: grad.c) plus O(N), so no other [N, C] temporary is ever written (the composed
 * forward and backward this replaced wrote four or more); the loss and every gradient element
 * against an f64 host reference.  On a context of its own, so the pool's peak is this check's. */
static void test_ce_memory(wg_device *dev) {
    wt_context *ctx = wt_context_create(dev, &(wt_context_desc){ .label = "test_pool cross_entropy" });
    CHECK(ctx != NULL);
    if (!ctx)
        return;
    enum { N = 64, C = 50257, IGN = 5 };
    const double e = 0.1;
    double *x = malloc((size_t)N * C * sizeof *x), tv[N];
    uint64_t seed = 12345;
    for (int64_t i = 0; i < (int64_t)N * C; i++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        x[i] = (double)(float)((double)(seed >> 11) / 9007199254740992.0 * 8.0 - 4.0);
    }
    for (int r = 0; r < N; r++)   /* row 1 counts from the end (-3), row 2 is out of range: picks 0 */
        tv[r] = r == IGN ? -100 : r == 1 ? -3 : r == 2 ? C + 7 : (double)((r * 7919) % C);
    wt_tensor *xt = tt_upload(ctx, WT_F32, WT_SHAPE(N, C), x);
    wt_tensor *tt = tt_upload(ctx, WT_I32, WT_SHAPE(N), tv);
    CHECK(wt_set_requires_grad(ctx, xt, true) == WT_OK);
    CHECK(wt_sync(ctx) == WT_OK);
    wt_stats a, b;
    wt_get_stats(ctx, &a);
    wt_tensor *loss = wt_cross_entropy(ctx, xt, tt, &(wt_loss_desc){ .reduction = WT_REDUCTION_MEAN,
                                                                     .use_ignore_index = true, .ignore_index = -100,
                                                                     .label_smoothing = e });
    CHECKF(loss && wt_backward(ctx, loss, NULL, NULL) == WT_OK, "cross_entropy: %s", wt_last_error(ctx));
    CHECK(wt_sync(ctx) == WT_OK);
    wt_get_stats(ctx, &b);
    uint64_t grad = (uint64_t)N * C * 4, extra = b.peak_allocated_bytes - a.allocated_bytes;
    printf("cross_entropy [%d, %d]: logits %.2f MB, pool peak beyond them %.2f MB (dlogits and the leaf's copy: "
           "%.2f MB)\n", N, C, grad / 1e6, extra / 1e6, 2 * grad / 1e6);
    CHECKF(extra <= 2 * (grad / 8 * 9) + (64u << 10), "cross_entropy forward + backward took %llu bytes beyond the "
           "logits, more than twice their gradient (%llu) + O(N)", (unsigned long long)extra, (unsigned long long)grad);
    /* the reference: mean over the valid rows of (1 - e)(lse - x_t) + e (lse - mean x); dx =
     * (softmax - e / C - (1 - e) onehot) / valid */
    double want = 0;
    double *dref = calloc((size_t)N * C, sizeof *dref);
    for (int r = 0; r < N; r++) {
        if (r == IGN)
            continue;
        const double *xr = x + (int64_t)r * C;
        double m = -INFINITY, s = 0, sx = 0;
        for (int j = 0; j < C; j++)
            m = xr[j] > m ? xr[j] : m;
        for (int j = 0; j < C; j++)
            s += exp(xr[j] - m), sx += xr[j];
        double lse = m + log(s);
        int t = (int)tv[r] < 0 ? (int)tv[r] + C : (int)tv[r] < C ? (int)tv[r] : -1;
        want += ((1 - e) * (lse - (t >= 0 ? xr[t] : 0)) + e * (lse - sx / C)) / (N - 1);
        for (int j = 0; j < C; j++)
            dref[(int64_t)r * C + j] = (exp(xr[j] - lse) - e / C - (j == t ? 1 - e : 0)) / (N - 1);
    }
    double got = NAN;
    CHECK(wt_item(ctx, loss, &got) == WT_OK);
    CHECKF(fabs(got - want) <= 1e-5 * fabs(want), "cross_entropy %.9g, want %.9g", got, want);
    wt_tensor *g = wt_grad(ctx, xt);
    double *gd = g ? tt_read(ctx, g) : NULL;
    double worst = 0;
    for (int64_t i = 0; gd && i < (int64_t)N * C; i++) {
        double d = fabs(gd[i] - dref[i]);
        worst = d > worst ? d : worst;
    }
    CHECKF(gd && worst <= 1e-8, "cross_entropy gradient off by %.3g", worst);
    free(gd);
    free(dref);
    free(x);
    wt_release(g);
    wt_release(loss);
    wt_release(xt);
    wt_release(tt);
    wt_context_destroy(ctx);
}

int main(void) {
    tt_fixture f;
    wt_context *ctx = tt_init(&f, &(wt_context_desc){ .label = "test_pool" });
    test_ce_memory(wt_context_device(ctx));
    /* widths from 0.25 to 2 M elements (1 to 8 MB), no two in one size class */
    int64_t n[LAYERS];
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < LAYERS; i++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        n[i] = (1 << 18) + (int64_t)(seed % (7u << 18)) + i * 4096;
    }
    wt_stats st;
    uint64_t peak2 = 0;
    for (int s = 0; s < STEPS; s++) {
        double want, got = step(ctx, n, s, &want);
        CHECKF(fabs(got - want) <= 1e-4 * want, "step %d: sum %.9g, want %.9g", s, got, want);
        wt_get_stats(ctx, &st);
        uint64_t bound = held_peak / 10 * 11 / 8 * 9 + (4ull << 20);
        CHECKF(st.peak_allocated_bytes <= bound, "step %d: pool peak %.2f MB > bound %.2f MB (held at most %.2f MB)",
               s, st.peak_allocated_bytes / 1e6, bound / 1e6, held_peak / 1e6);
        if (s == 2)
            peak2 = st.peak_allocated_bytes;
        if (s > 2)
            CHECKF(st.peak_allocated_bytes == peak2, "step %d: pool peak grew from %llu to %llu", s,
                   (unsigned long long)peak2, (unsigned long long)st.peak_allocated_bytes);
        printf("step %d: held at most %.2f MB, pool peak %.2f MB (%.3fx), misses %llu, flushes %llu\n", s,
               held_peak / 1e6, st.peak_allocated_bytes / 1e6, (double)st.peak_allocated_bytes / (double)held_peak,
               (unsigned long long)st.pool_misses, (unsigned long long)st.flushes);
    }
    tt_end(&f);
    return test_end();
}
