/* test_topk.c - wt_topk against a plain C reference: rows with many ties (index order), NaN,
 * -0 and +0, infinities, f32 / f16 / i32, any dim (transposed and strided inputs), k = 0, 1, the
 * row's length and 1024, a vocabulary-sized row (49,152, the LLM sampler's), several rows,
 * largest and smallest; gradients in test_grad ("topk"); the refusals. */
#include <stdint.h>
#include <string.h>

#include "tensor_test.h"

static wt_context *ctx;
static uint64_t rng = 0x243f6a8885a308d3ull;

static uint32_t next(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* torch's order: NaN above everything, -0 == +0, ties by index. Is (a at i) before (b at j)? */
static bool before(double a, int64_t i, double b, int64_t j, bool largest) {
    bool na = isnan(a), nb = isnan(b);
    if (na || nb) {
        if (na && nb)
            return i < j;
        return largest ? na : nb;
    }
    if (a != b)
        return largest ? a > b : a < b;
    return i < j;
}

/* Reference of one row: the k first in that order (selection, O(k L)). */
static void ref_row(const double *x, int64_t L, int64_t step, int64_t k, bool largest, double *v, int64_t *id) {
    char *used = calloc((size_t)L + 1, 1);
    for (int64_t r = 0; r < k; r++) {
        int64_t best = -1;
        for (int64_t j = 0; j < L; j++)
            if (!used[j] && (best < 0 || before(x[j * step], j, x[best * step], best, largest)))
                best = j;
        used[best] = 1;
        v[r] = x[best * step];
        id[r] = best;
    }
    free(used);
}

static bool same(double a, double b) {
    return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

/* x: shape [R, L] C order as doubles; the tensor is made with dtype dt and laid out so that the
 * topk dim is dim (0: the tensor is [L, R], the same data transposed). */
static void check(const char *what, wt_dtype dt, const double *x, int64_t R, int64_t L, int64_t k, bool largest,
                  bool along0) {
    size_t n = (size_t)(R * L);
    float *f = malloc(n * sizeof *f + 4);
    int32_t *iv = malloc(n * sizeof *iv + 4);
    uint16_t *h = malloc(n * sizeof *h + 4);
    double *xr = malloc(n * sizeof *xr + 8);   /* what the device holds, back as doubles */
    for (size_t i = 0; i < n; i++) {
        f[i] = (float)x[i];
        iv[i] = (int32_t)x[i];
        h[i] = wt_f32_to_f16(f[i]);
        xr[i] = dt == WT_F32 ? f[i] : dt == WT_I32 ? iv[i] : wt_f16_to_f32(h[i]);
    }
    const void *src = dt == WT_F32 ? (const void *)f : dt == WT_I32 ? (const void *)iv : (const void *)h;
    wt_tensor *t = wt_from_host(ctx, dt, WT_SHAPE(R, L), src), *tt = NULL;
    CHECKF(t != NULL, "%s: upload: %s", what, wt_last_error(ctx));
    if (along0) {   /* the same rows along dim 0 of a transposed view */
        tt = wt_transpose(ctx, t, 0, 1);
    }
    wt_tensor *idx = NULL;
    wt_tensor *v = wt_topk(ctx, along0 ? tt : t, k, along0 ? 0 : 1, largest, &idx);
    CHECKF(v && idx, "%s: %s", what, wt_last_error(ctx));
    if (v && idx) {
        const int64_t *vs = wt_shape(v);
        bool shape_ok = wt_ndim(v) == 2 && (along0 ? vs[0] == k && vs[1] == R : vs[0] == R && vs[1] == k);
        CHECKF(shape_ok && wt_dtype_of(v) == dt && wt_dtype_of(idx) == WT_I32, "%s: result shape/dtype", what);
        wt_tensor *vt = along0 ? wt_transpose(ctx, v, 0, 1) : NULL, *it = along0 ? wt_transpose(ctx, idx, 0, 1) : NULL;
        wt_tensor *vc = wt_contiguous(ctx, along0 ? vt : v), *ic = wt_contiguous(ctx, along0 ? it : idx);
        wt_release(vt);
        wt_release(it);
        double *gv = tt_read(ctx, vc), *gi = tt_read(ctx, ic);
        double *rv = malloc((size_t)(k + 1) * sizeof *rv);
        int64_t *ri = malloc((size_t)(k + 1) * sizeof *ri);
        int bad = 0;
        for (int64_t r = 0; r < R && shape_ok; r++) {
            ref_row(xr + r * L, L, 1, k, largest, rv, ri);
            for (int64_t j = 0; j < k; j++)
                if (!same(gv[r * k + j], rv[j]) || gi[r * k + j] != (double)ri[j]) {
                    if (bad++ < 3)
                        fprintf(stderr, "  %s: row %lld rank %lld: got %g at %g, want %g at %lld\n", what, (long long)r,
                                (long long)j, gv[r * k + j], gi[r * k + j], rv[j], (long long)ri[j]);
                }
        }
        CHECKF(bad == 0, "%s: %d entries differ", what, bad);
        free(gv), free(gi), free(rv), free(ri);
        wt_release(vc);
        wt_release(ic);
    }
    wt_clear_error(ctx);
    wt_release(v);
    wt_release(idx);
    wt_release(tt);
    wt_release(t);
    free(f), free(iv), free(h), free(xr);
}

/* values drawn from few levels (many ties), with specials mixed in */
static double *data(int64_t n, int levels, bool specials) {
    double *x = malloc((size_t)n * sizeof *x);
    for (int64_t i = 0; i < n; i++) {
        x[i] = levels ? (double)((int)(next() % (uint32_t)levels) - levels / 2) * 0.25
                      : ((double)next() / 2097152.0 - 1.0) * 1000.0;
        if (specials) {
            uint32_t r = next() % 16;
            x[i] = r == 0 ? NAN : r == 1 ? -0.0 : r == 2 ? 0.0 : r == 3 ? INFINITY : r == 4 ? -INFINITY : x[i];
        }
    }
    return x;
}

int main(void) {
    tt_fixture fx;
    ctx = tt_init(&fx, NULL);
    bool f16 = wt_context_has_f16(ctx);
    for (int largest = 1; largest >= 0; largest--) {
        const char *w = largest ? "largest" : "smallest";
        char name[96];
        double *x = data(7 * 300, 9, false);   /* heavy ties */
        snprintf(name, sizeof name, "ties 7x300 k 37 %s", w);
        check(name, WT_F32, x, 7, 300, 37, largest, false);
        snprintf(name, sizeof name, "ties along dim 0 k 300 %s", w);
        check(name, WT_F32, x, 7, 300, 300, largest, true);
        snprintf(name, sizeof name, "i32 ties k 1 %s", w);
        check(name, WT_I32, x, 7, 300, 1, largest, false);
        free(x);
        x = data(5 * 1000, 0, true);            /* NaN, -0, +0, infinities */
        snprintf(name, sizeof name, "specials 5x1000 k 200 %s", w);
        check(name, WT_F32, x, 5, 1000, 200, largest, false);
        if (f16) {
            snprintf(name, sizeof name, "f16 specials k 64 %s", w);
            check(name, WT_F16, x, 5, 1000, 64, largest, false);
        }
        snprintf(name, sizeof name, "k 0 %s", w);
        check(name, WT_F32, x, 5, 1000, 0, largest, false);
        free(x);
        x = data(2 * 49152, 0, false);          /* a vocabulary row */
        snprintf(name, sizeof name, "vocabulary 2x49152 k 40 %s", w);
        check(name, WT_F32, x, 2, 49152, 40, largest, false);
        snprintf(name, sizeof name, "vocabulary 2x49152 k 1024 %s", w);
        check(name, WT_F32, x, 2, 49152, 1024, largest, false);
        free(x);
        x = data(300 * 5, 0, false);            /* many short rows */
        snprintf(name, sizeof name, "300x5 k 5 %s", w);
        check(name, WT_F32, x, 300, 5, 5, largest, false);
        free(x);
    }
    /* 0-d, a 1-d vector, indices not asked for */
    wt_tensor *s = wt_full(ctx, WT_F32, 0, NULL, 3.5);
    wt_tensor *sv = wt_topk(ctx, s, 1, 0, true, NULL);
    double one = 0;
    CHECK(sv && wt_ndim(sv) == 0 && wt_item(ctx, sv, &one) == WT_OK && one == 3.5);
    wt_release(sv);
    /* refusals: nothing recorded, clear messages */
    wt_stats st0;
    wt_get_stats(ctx, &st0);
    wt_tensor *big = wt_zeros(ctx, WT_F32, WT_SHAPE(2, 2000));
    wt_tensor *bad;
    wt_tensor *idx = (wt_tensor *)1;
    CHECK((bad = wt_topk(ctx, big, 1025, 1, true, &idx)) == NULL && idx == NULL && wt_last_status(ctx) == WT_STATUS_SHAPE &&
          strstr(wt_last_error(ctx), "1024"));
    wt_clear_error(ctx);
    CHECK(wt_topk(ctx, big, 2001, 1, true, NULL) == NULL && strstr(wt_last_error(ctx), "out of range"));
    wt_clear_error(ctx);
    CHECK(wt_topk(ctx, big, -1, 1, true, NULL) == NULL);
    wt_clear_error(ctx);
    CHECK(wt_topk(ctx, big, 1, 2, true, NULL) == NULL && strstr(wt_last_error(ctx), "dim 2"));
    wt_clear_error(ctx);
    wt_tensor *b = wt_cast(ctx, big, WT_BOOL);
    CHECK(wt_topk(ctx, b, 1, 1, true, NULL) == NULL && wt_last_status(ctx) == WT_STATUS_DTYPE);
    wt_clear_error(ctx);
    CHECK(wt_topk(ctx, NULL, 1, 1, true, NULL) == NULL);
    wt_clear_error(ctx);
    wt_release(b);
    wt_release(big);
    wt_release(s);
    tt_end(&fx);
    return test_end();
}
