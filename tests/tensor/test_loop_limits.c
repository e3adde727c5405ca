/* test_loop_limits.c - right answers where a kernel's loop would pass lavapipe's 65,535
 * iterations per invocation (lavapipe stops such loops and the result is silently wrong): matmul
 * with K past 65535 * 8 (split into K chunks), attention with more keys than the flash kernels
 * take (the plain path), and clear errors for the shapes refused (softmax/norm rows past
 * 65535 * 256, conv2d reductions past 65535 * 8).  Shapes are the cheap ones of the right
 * length: 1 x K by K x 1 products and a one-query attention. */
#include "tensor_test.h"

static wt_context *ctx;

/* ones[1, K] . ones[K, 1] = K exactly (f32 holds integers to 2^24) */
static void ones_product(int64_t K) {
    wt_tensor *a = wt_ones(ctx, WT_F32, WT_SHAPE(1, K));
    wt_tensor *b = wt_ones(ctx, WT_F32, WT_SHAPE(K, 1));
    wt_tensor *c = wt_matmul(ctx, a, b);
    double v = 0;
    CHECKF(c && wt_item(ctx, c, &v) == WT_OK && v == (double)K, "ones[1,%lld].ones[%lld,1] = %.1f (%s)", (long long)K,
           (long long)K, v, wt_last_error(ctx));
    wt_release(a);
    wt_release(b);
    wt_release(c);
}

/* x [2, K] . w^T (w [3, K]) + bias, random values, against f64; also through f16 where the
 * device has it (the chunks' sums stay f32 until the end) */
static void random_linear(int64_t K, wt_dtype dt) {
    uint64_t s = 0x9e3779b97f4a7c15ull ^ (uint64_t)K;
    double *x = malloc(sizeof *x * 2 * (size_t)K), *w = malloc(sizeof *w * 3 * (size_t)K), bias[3] = { 0.5, -1, 2 };
    for (int64_t i = 0; i < 2 * K; i++)
        x[i] = tt_rand(&s, -1, 1);
    for (int64_t i = 0; i < 3 * K; i++)
        w[i] = tt_rand(&s, -1, 1);
    if (dt == WT_F16) {   /* the reference sees the rounded operands */
        for (int64_t i = 0; i < 2 * K; i++)
            x[i] = wt_f16_to_f32(wt_f32_to_f16((float)x[i]));
        for (int64_t i = 0; i < 3 * K; i++)
            w[i] = wt_f16_to_f32(wt_f32_to_f16((float)w[i]));
    }
    wt_tensor *tx = tt_upload(ctx, dt, WT_SHAPE(2, K), x), *tw = tt_upload(ctx, dt, WT_SHAPE(3, K), w);
    wt_tensor *tb = tt_upload(ctx, dt, WT_SHAPE(3), bias);
    wt_tensor *y = wt_linear(ctx, tx, tw, tb);
    CHECKF(y && wt_dtype_of(y) == dt && wt_ndim(y) == 2 && wt_shape(y)[0] == 2 && wt_shape(y)[1] == 3,
           "linear K %lld: %s", (long long)K, wt_last_error(ctx));
    if (y) {
        double *got = tt_read(ctx, y);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++) {
                double ref = bias[j], mag = 0;
                for (int64_t k = 0; k < K; k++) {
                    ref += x[i * K + k] * w[j * K + k];
                    mag += fabs(x[i * K + k] * w[j * K + k]);
                }
                double tol = dt == WT_F16 ? 2e-3 * fabs(ref) + 1e-5 * mag + 0.1 : 1e-5 * mag + 1e-3;
                CHECKF(fabs(got[i * 3 + j] - ref) <= tol, "linear %s K %lld [%d,%d]: %.6f, want %.6f",
                       wt_dtype_name(dt), (long long)K, i, j, got[i * 3 + j], ref);
            }
        free(got);
    }
    wt_release(tx);
    wt_release(tw);
    wt_release(tb);
    wt_release(y);
    free(x);
    free(w);
}

/* one query over Lk keys that all score 0: the output is the mean of v = (0 .. Lk-1) */
static void long_attention(int64_t Lk) {
    const int64_t D = 4;
    wt_tensor *q = wt_ones(ctx, WT_F32, WT_SHAPE(1, 1, 1, D));
    wt_tensor *k = wt_zeros(ctx, WT_F32, WT_SHAPE(1, 1, Lk, D));
    wt_tensor *r = wt_arange(ctx, WT_F32, 0, (double)Lk, 1);
    wt_tensor *r2 = r ? wt_view(ctx, r, WT_SHAPE(1, 1, Lk, 1)) : NULL;
    wt_tensor *v = r2 ? wt_expand(ctx, r2, WT_SHAPE(1, 1, Lk, D)) : NULL;
    wt_tensor *o = v ? wt_scaled_dot_product_attention(ctx, q, k, v, NULL) : NULL;
    CHECKF(o != NULL, "attention Lk %lld: %s", (long long)Lk, wt_last_error(ctx));
    if (o) {
        double *got = tt_read(ctx, o), want = (double)(Lk - 1) / 2;
        for (int d = 0; d < D; d++)
            CHECKF(fabs(got[d] - want) <= 1e-4 * want, "attention Lk %lld: out[%d] %.3f, want %.3f", (long long)Lk, d,
                   got[d], want);
        free(got);
    }
    /* asking for flash explicitly is a clear error naming the limit */
    wt_clear_error(ctx);
    wt_tensor *of = v ? wt_scaled_dot_product_attention(ctx, q, k, v, &(wt_attention_desc){ .impl = WT_ATTENTION_FLASH })
                      : NULL;
    CHECKF(!of && wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT && strstr(wt_last_error(ctx), "keys"),
           "flash Lk %lld: %s", (long long)Lk, wt_last_error(ctx));
    wt_clear_error(ctx);
    wt_release(of);
    wt_release(q);
    wt_release(k);
    wt_release(r);
    wt_release(r2);
    wt_release(v);
    wt_release(o);
}

/* shapes refused with a message, nothing recorded */
static void refusals(void) {
    /* views with stride 0: no memory behind the long rows */
    wt_tensor *one = wt_zeros(ctx, WT_F32, WT_SHAPE(1));
    wt_tensor *row = one ? wt_expand(ctx, one, WT_SHAPE(65535LL * 256 + 1)) : NULL;
    wt_tensor *one4 = one ? wt_view(ctx, one, WT_SHAPE(1, 1, 1, 1)) : NULL;
    wt_tensor *x = one4 ? wt_expand(ctx, one4, WT_SHAPE(1, 65536, 3, 3)) : NULL;   /* C * KH * KW = 65536 * 9 */
    CHECKF(row && x, "inputs: %s", wt_last_error(ctx));
    wt_stats before, after;
    wt_get_stats(ctx, &before);
    wt_tensor *sm = wt_softmax(ctx, row, 0);
    CHECKF(!sm && wt_last_status(ctx) == WT_STATUS_SHAPE && strstr(wt_last_error(ctx), "wt_softmax"), "softmax: %s",
           wt_last_error(ctx));
    wt_clear_error(ctx);
    wt_tensor *ln = wt_layer_norm(ctx, row, NULL, NULL, 1e-5);
    CHECKF(!ln && wt_last_status(ctx) == WT_STATUS_SHAPE && strstr(wt_last_error(ctx), "wt_layer_norm"),
           "layer_norm: %s", wt_last_error(ctx));
    wt_clear_error(ctx);
    wt_tensor *c = wt_conv2d(ctx, x, x, NULL, NULL);
    CHECKF(!c && wt_last_status(ctx) == WT_STATUS_SHAPE && strstr(wt_last_error(ctx), "wt_conv2d"), "conv2d: %s",
           wt_last_error(ctx));
    wt_clear_error(ctx);
    wt_get_stats(ctx, &after);
    CHECK_EQ_INT(after.ops, before.ops);
    CHECK_EQ_INT(after.live_tensors, before.live_tensors);
    wt_release(one);
    wt_release(row);
    wt_release(one4);
    wt_release(x);
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    ones_product(65535LL * 8);          /* the longest K in one product */
    ones_product(65535LL * 8 + 1);      /* the shortest split one (not a multiple of 4: a tiled kernel) */
    ones_product(1LL << 21);            /* 2^21: the case */
    ones_product((1LL << 21) + 3);
    random_linear(600001, WT_F32);
    if (wt_context_has_f16(ctx))
        random_linear(600001, WT_F16);
    long_attention(65535LL * 32 + 7);   /* past the flash kernels' reach */
    refusals();
    tt_end(&f);
    return test_end();
}
