/* test_quant.c - quantized weights (src/tensor/quant.c): for every format, random blocks (every
 * byte random except the f16 scales, which are finite) decoded on the GPU by wt_qdequantize,
 * wt_qembedding and through wt_qlinear, against a plain C reference in f64 written here from each
 * format's definition (doc/llm.md), element by element.  wt_qlinear for 1 to 4 rows of x
 * (qmatvec.wgsl: quant.c's row groups, and forced ones of 8 to 256 lanes and 1, 2, 4 rows), 5 to 63 rows
 * (qmatmul.wgsl) and 64 or more (the weight decoded, in chunks, then wt_linear), ragged N, f32
 * and f16 x, with and without a bias; qmatvec also on a second device created without subgroups
 * (its workgroup reduction).  Then a weight released while a product still reads it, and the
 * errors: unknown format, sizes, K not a multiple of the block, dtypes.
 *
 * `test_quant --gguf MODEL.gguf TENSOR OUT.npy` writes our decode of a GGUF tensor, uploaded straight
 * from wl's mapping, to .npy for tests/llm/test_quant_gguf.py (the gguf package's dequantize is the
 * reference there).  `test_quant --bench FORMAT N K M REPS [LANES:ROWS ...]` times wt_qlinear. */
#include <stdio.h>
#include <time.h>

#include "tensor_test.h"
#include "tensor/internal.h"
#include "wgc/llm.h"
#include "wgc/wgsl.h"

static wt_context *ctx;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd32(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static double h2d(uint16_t h) {
    return wt_f16_to_f32(h);
}
static uint16_t rd16(const uint8_t *p) {
    return (uint16_t)(p[0] | p[1] << 8);
}
static double f16at(const uint8_t *p) {
    return h2d(rd16(p));
}

/* ---- the f64 reference: weight e of a block, from the format's definition; *mag the sum of the
 * magnitudes of its terms (the f32 decode's rounding scale) ---- */
static double ref_weight(wt_qformat f, const uint8_t *b, int e, double *mag) {
    double d, m, sc, mn;
    int q;
    switch (f) {
    case WT_QFORMAT_F32: {
        float v;
        memcpy(&v, b + 4 * e, 4);
        *mag = fabs(v);
        return v;
    }
    case WT_QFORMAT_F16:
        *mag = fabs(f16at(b + 2 * e));
        return f16at(b + 2 * e);
    case WT_QFORMAT_BF16: {
        uint32_t u = (uint32_t)rd16(b + 2 * e) << 16;
        float v;
        memcpy(&v, &u, 4);
        *mag = fabs(v);
        return v;
    }
    case WT_QFORMAT_Q4_0:   /* d f16, qs[16]: weights j and j + 16 are qs[j]'s low and high nibble */
        q = (b[2 + e % 16] >> (e / 16 * 4) & 15) - 8;
        *mag = fabs(f16at(b) * q);
        return f16at(b) * q;
    case WT_QFORMAT_Q4_1:   /* d, m, qs[16]: d q + m */
        q = b[4 + e % 16] >> (e / 16 * 4) & 15;
        *mag = fabs(f16at(b) * q) + fabs(f16at(b + 2));
        return f16at(b) * q + f16at(b + 2);
    case WT_QFORMAT_Q5_0: { /* d, qh u32 (bit e: the fifth bit of weight e), qs[16]: d (q - 16) */
        uint32_t qh = (uint32_t)b[2] | (uint32_t)b[3] << 8 | (uint32_t)b[4] << 16 | (uint32_t)b[5] << 24;
        q = ((b[6 + e % 16] >> (e / 16 * 4) & 15) | (int)((qh >> e & 1) << 4)) - 16;
        *mag = fabs(f16at(b) * q);
        return f16at(b) * q;
    }
    case WT_QFORMAT_Q5_1: {
        uint32_t qh = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
        q = (b[8 + e % 16] >> (e / 16 * 4) & 15) | (int)((qh >> e & 1) << 4);
        *mag = fabs(f16at(b) * q) + fabs(f16at(b + 2));
        return f16at(b) * q + f16at(b + 2);
    }
    case WT_QFORMAT_Q8_0:   /* d, qs[32] i8 */
        q = (int8_t)b[2 + e];
        *mag = fabs(f16at(b) * q);
        return f16at(b) * q;
    case WT_QFORMAT_Q2_K: { /* scales[16] (lo: scale, hi: min of 16 weights), qs[64], d, dmin */
        int s = b[e / 16];
        q = b[16 + 32 * (e / 128) + e % 32] >> (2 * (e % 128 / 32)) & 3;
        d = f16at(b + 80) * (s & 15);
        m = f16at(b + 82) * (s >> 4);
        *mag = fabs(d * q) + fabs(m);
        return d * q - m;
    }
    case WT_QFORMAT_Q3_K: { /* hmask[32], qs[64], scales[12] (16 x 6 bits), d */
        int i = e / 16;
        int lo = i < 8 ? b[96 + i] & 15 : b[96 + i - 8] >> 4;
        int hi = b[104 + i % 4] >> (2 * (i / 4)) & 3;
        sc = (lo | hi << 4) - 32;
        q = (b[32 + 32 * (e / 128) + e % 32] >> (2 * (e % 128 / 32)) & 3) - ((b[e % 32] >> (e / 32) & 1) ? 0 : 4);
        d = f16at(b + 108) * sc;
        *mag = fabs(d * q);
        return d * q;
    }
    case WT_QFORMAT_Q4_K:
    case WT_QFORMAT_Q5_K: { /* d, dmin, scales[12] (8 x (6-bit scale, 6-bit min)), [qh[32]], qs[128] */
        int j = e / 32;
        const uint8_t *s = b + 4;
        if (j < 4) {
            sc = s[j] & 63;
            mn = s[j + 4] & 63;
        } else {
            sc = (s[j + 4] & 15) | (s[j - 4] >> 6) << 4;
            mn = (s[j + 4] >> 4) | (s[j] >> 6) << 4;
        }
        bool five = f == WT_QFORMAT_Q5_K;
        q = b[(five ? 48 : 16) + 32 * (j / 2) + e % 32] >> (4 * (j % 2)) & 15;
        if (five)
            q |= (b[16 + e % 32] >> j & 1) << 4;
        d = f16at(b) * sc;
        m = f16at(b + 2) * mn;
        *mag = fabs(d * q) + fabs(m);
        return d * q - m;
    }
    case WT_QFORMAT_Q6_K: { /* ql[128], qh[64], scales[16] i8, d */
        int n = e / 128, r = e % 128;
        int lo = b[64 * n + r % 64] >> (4 * (r / 64)) & 15;
        int hi = b[128 + 32 * n + r % 32] >> (2 * (r / 32)) & 3;
        q = (lo | hi << 4) - 32;
        d = f16at(b + 208) * (int8_t)b[192 + e / 16];
        *mag = fabs(d * q);
        return d * q;
    }
    default:
        *mag = 0;
        return 0;
    }
}

/* A random finite f16 of magnitude about 2^-10 .. 2^-2, either sign (scales: sums stay moderate). */
static uint16_t rnd_scale(void) {
    float v = (float)((rnd32() % 10000) / 10000.0 * 0.25 + 0.001) * ((rnd32() & 1) ? -1.0f : 1.0f);
    return wt_f32_to_f16(v);
}

static void put16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* rows x cols random weights of format f: random bytes, finite f16 scales (and finite floats) */
static uint8_t *random_weight(wt_qformat f, int64_t rows, int64_t cols, size_t *bytes) {
    uint32_t blk = wt_qformat_block_elements(f), bb = wt_qformat_block_bytes(f);
    int64_t nblk = rows * cols / blk;
    *bytes = (size_t)nblk * bb;
    uint8_t *w = malloc(*bytes + 8);
    for (size_t i = 0; i < *bytes; i++)
        w[i] = (uint8_t)rnd32();
    for (int64_t i = 0; i < nblk; i++) {
        uint8_t *b = w + i * bb;
        switch (f) {
        case WT_QFORMAT_F32: {
            float v = (float)((int)(rnd32() % 2001) - 1000) / 997.0f;
            memcpy(b, &v, 4);
            break;
        }
        case WT_QFORMAT_F16:
            put16(b, wt_f32_to_f16((float)((int)(rnd32() % 2001) - 1000) / 997.0f));
            break;
        case WT_QFORMAT_BF16: {
            float v = (float)((int)(rnd32() % 2001) - 1000) / 997.0f;
            uint32_t u;
            memcpy(&u, &v, 4);
            put16(b, (uint16_t)(u >> 16));
            break;
        }
        case WT_QFORMAT_Q4_0: case WT_QFORMAT_Q5_0: case WT_QFORMAT_Q8_0:
            put16(b, rnd_scale());
            break;
        case WT_QFORMAT_Q4_1: case WT_QFORMAT_Q5_1: case WT_QFORMAT_Q4_K: case WT_QFORMAT_Q5_K:
            put16(b, rnd_scale());
            put16(b + 2, rnd_scale());
            break;
        case WT_QFORMAT_Q2_K:
            put16(b + 80, rnd_scale());
            put16(b + 82, rnd_scale());
            break;
        case WT_QFORMAT_Q3_K:
            put16(b + 108, rnd_scale());
            break;
        case WT_QFORMAT_Q6_K:
            put16(b + 208, rnd_scale());
            break;
        default:
            break;
        }
    }
    return w;
}

/* the reference of the whole weight: values and magnitudes [rows * cols] */
static void ref_weights(wt_qformat f, const uint8_t *w, int64_t rows, int64_t cols, double *v, double *mag) {
    uint32_t blk = wt_qformat_block_elements(f), bb = wt_qformat_block_bytes(f);
    for (int64_t i = 0; i < rows * cols; i++)
        v[i] = ref_weight(f, w + i / blk * bb, (int)(i % blk), &mag[i]);
}

static int64_t cols_for(wt_qformat f, int k) {
    return wt_qformat_block_elements(f) == 256 ? 256 * k : 32 * k;
}

/* wt_qdequantize and wt_qembedding of a random weight against the reference */
static void test_decode(wt_qformat f) {
    int64_t rows = 7, cols = cols_for(f, 3);
    size_t bytes;
    uint8_t *w = random_weight(f, rows, cols, &bytes);
    double *v = malloc((size_t)(rows * cols) * sizeof *v), *mag = malloc((size_t)(rows * cols) * sizeof *mag);
    ref_weights(f, w, rows, cols, v, mag);
    wt_qweight *qw = wt_qweight_upload(ctx, f, rows, cols, w, bytes);
    CHECKF(qw != NULL, "%s upload: %s", wt_qformat_name(f), wt_last_error(ctx));
    CHECK(wt_qweight_rows(qw) == rows && wt_qweight_cols(qw) == cols && wt_qweight_bytes(qw) == bytes &&
          wt_qweight_format(qw) == f);
    wt_tensor *dq = wt_qdequantize(ctx, qw);
    CHECKF(dq && wt_ndim(dq) == 2 && wt_shape(dq)[0] == rows && wt_shape(dq)[1] == cols, "%s dequantize: %s",
           wt_qformat_name(f), wt_last_error(ctx));
    double *got = tt_read(ctx, dq);
    int bad = 0;
    for (int64_t i = 0; i < rows * cols; i++)
        if (!(fabs(got[i] - v[i]) <= 4e-7 * mag[i]) && bad++ < 3)
            printf("  %s weight %lld: got %.9g, want %.9g\n", wt_qformat_name(f), (long long)i, got[i], v[i]);
    CHECKF(bad == 0, "%s dequantize: %d weights differ", wt_qformat_name(f), bad);
    free(got);
    /* embedding: i32 ids (negative from the end, out of range -> zeros) as a 2 x 3 tensor, and u32 */
    double ids[6] = { 3, 0, -1, 6, 7, -8 };
    int64_t want_row[6] = { 3, 0, 6, 6, -1, -1 };
    wt_tensor *it = tt_upload(ctx, WT_I32, 2, (int64_t[]){ 2, 3 }, ids);
    wt_tensor *e = wt_qembedding(ctx, qw, it);
    CHECKF(e && wt_ndim(e) == 3 && wt_shape(e)[2] == cols, "%s embedding: %s", wt_qformat_name(f), wt_last_error(ctx));
    got = tt_read(ctx, e);
    bad = 0;
    for (int r = 0; r < 6; r++)
        for (int64_t k = 0; k < cols; k++) {
            double want = want_row[r] < 0 ? 0 : v[want_row[r] * cols + k];
            double tol = want_row[r] < 0 ? 0 : 4e-7 * mag[want_row[r] * cols + k];
            bad += !(fabs(got[r * cols + k] - want) <= tol);
        }
    CHECKF(bad == 0, "%s embedding: %d weights differ", wt_qformat_name(f), bad);
    free(got);
    double uids[2] = { 5, 1 };
    wt_tensor *ut = tt_upload(ctx, WT_U32, 1, (int64_t[]){ 2 }, uids);
    wt_tensor *ue = wt_qembedding(ctx, qw, ut);
    got = tt_read(ctx, ue);
    bad = 0;
    for (int r = 0; r < 2; r++)
        for (int64_t k = 0, row = (int64_t)uids[r]; k < cols; k++)
            bad += !(fabs(got[r * cols + k] - v[row * cols + k]) <= 4e-7 * mag[row * cols + k]);
    CHECKF(bad == 0, "%s embedding (u32 ids): %d weights differ", wt_qformat_name(f), bad);
    free(got);
    wt_release(ut);
    wt_release(ue);
    wt_release(it);
    wt_release(e);
    wt_release(dq);
    wt_qweight_release(qw);
    free(v);
    free(mag);
    free(w);
}

/* wt_qlinear of M rows against sum_k W[n, k] x[m, k] in f64 (x as uploaded: rounded to f16 for f16) */
static void test_linear_on(wt_context *c, wt_qformat f, int64_t M, int64_t N, int64_t K, wt_dtype dt, bool bias,
                           const char *what) {
    size_t bytes;
    uint8_t *w = random_weight(f, N, K, &bytes);
    double *v = malloc((size_t)(N * K) * sizeof *v), *mag = malloc((size_t)(N * K) * sizeof *mag);
    ref_weights(f, w, N, K, v, mag);
    double *x = malloc((size_t)(M * K) * sizeof *x), *bv = malloc((size_t)N * sizeof *bv);
    for (int64_t i = 0; i < M * K; i++) {
        x[i] = (double)((int)(rnd32() % 2001) - 1000) / 1000.0;
        x[i] = dt == WT_F16 ? wt_f16_to_f32(wt_f32_to_f16((float)x[i])) : (double)(float)x[i];
    }
    for (int64_t i = 0; i < N; i++)
        bv[i] = (double)(float)((int)(rnd32() % 2001) - 1000) / 100.0;
    wt_qweight *qw = wt_qweight_upload(c, f, N, K, w, bytes);
    /* x as [M, K], or [2, M / 2, K] when M is even (batch dims flatten) */
    wt_tensor *xt = M % 2 == 0 ? tt_upload(c, dt, 3, (int64_t[]){ 2, M / 2, K }, x)
                               : tt_upload(c, dt, 2, (int64_t[]){ M, K }, x);
    wt_tensor *bt = bias ? tt_upload(c, WT_F32, 1, &N, bv) : NULL;
    wt_tensor *y = wt_qlinear(c, xt, qw, bt);
    CHECKF(y && wt_dtype_of(y) == dt && wt_numel(y) == M * N && wt_shape(y)[wt_ndim(y) - 1] == N,
           "%s qlinear %s M %lld: %s", wt_qformat_name(f), what, (long long)M, wt_last_error(c));
    double *got = y ? tt_read(c, y) : NULL;
    int bad = 0;
    for (int64_t m = 0; got && m < M; m++)
        for (int64_t n = 0; n < N; n++) {
            double s = bias ? bv[n] : 0, a = fabs(s);
            for (int64_t k = 0; k < K; k++) {
                s += v[n * K + k] * x[m * K + k];
                a += (fabs(v[n * K + k]) + mag[n * K + k]) * fabs(x[m * K + k]);
            }
            double tol = 2e-6 * a + (dt == WT_F16 ? fabs(s) / 1024 : 0);
            double g = got[m * N + n];
            if (!(fabs(g - s) <= tol) && bad++ < 3)
                printf("  %s %s M %lld K %lld: y[%lld, %lld] = %.9g, want %.9g (tol %.3g)\n", wt_qformat_name(f), what,
                       (long long)M, (long long)K, (long long)m, (long long)n, g, s, tol);
        }
    CHECKF(bad == 0, "%s qlinear %s M %lld N %lld K %lld %s%s: %d outputs differ", wt_qformat_name(f), what,
           (long long)M, (long long)N, (long long)K, wt_dtype_name(dt), bias ? " bias" : "", bad);
    free(got);
    wt_release(y);
    wt_release(xt);
    wt_release(bt);
    wt_qweight_release(qw);
    free(v);
    free(mag);
    free(x);
    free(bv);
    free(w);
}

static void test_linear(wt_qformat f) {
    bool big = wt_qformat_block_elements(f) == 256;
    /* K: 3, 18, 40 units of 32 (K-quants 8, 16, 32): qmatvec's own row groups of 8 to 64 lanes */
    int64_t ks[3] = { big ? 256 : 96, big ? 512 : 576, big ? 1024 : 1280 };
    test_linear_on(ctx, f, 1, 45, ks[0], WT_F32, false, "matvec");
    test_linear_on(ctx, f, 1, 37, ks[1], WT_F32, true, "matvec");
    test_linear_on(ctx, f, 3, 19, ks[2], WT_F32, false, "matvec");
    test_linear_on(ctx, f, 4, 33, ks[1], WT_F32, true, "matvec");
    test_linear_on(ctx, f, 2, 2051, ks[0], WT_F32, true, "matvec, two rows a group");
    test_linear_on(ctx, f, 1, 16387, ks[0], WT_F32, false, "matvec, four rows a group");
    test_linear_on(ctx, f, 1, 29, 4096, WT_F32, false, "matvec, long rows");
    /* forced row groups (test hook): 8 lanes x 4 rows, 256 lanes x 1 row, 16 x 2; ragged N */
    static const int forced[3][2] = { { 3, 2 }, { 8, 0 }, { 4, 1 } };
    for (int i = 0; i < 3; i++) {
        wt__qmatvec_tune(forced[i][0], forced[i][1]);
        char what[64];
        snprintf(what, sizeof what, "matvec, %d lanes x %d rows", 1 << forced[i][0], 1 << forced[i][1]);
        test_linear_on(ctx, f, 1 + i, 47 + 2 * i, ks[2 - i], WT_F32, i == 1, what);
        test_linear_on(ctx, f, 4, 5, ks[i], WT_F32, i != 1, what);
    }
    wt__qmatvec_tune(0, -1);
    test_linear_on(ctx, f, 37, 70, ks[0], WT_F32, true, "matmul");
    test_linear_on(ctx, f, 6, 9, ks[1], WT_F32, false, "matmul");
    test_linear_on(ctx, f, 64, 45, ks[1], WT_F32, true, "decoded, wt_linear");
    if (wt_context_has_f16(ctx)) {
        test_linear_on(ctx, f, 2, 21, ks[1], WT_F16, false, "matvec");
        test_linear_on(ctx, f, 33, 65, ks[0], WT_F16, true, "matmul");
    }
}

static void test_errors(void) {
    uint8_t buf[4096] = { 0 };
    wt_clear_error(ctx);
    wt_qformat unknown[3] = { WT_QFORMAT_NONE, WT_QFORMAT_COUNT, (wt_qformat)99 };
    for (int i = 0; i < 3; i++)
        CHECK(!wt_qweight_upload(ctx, unknown[i], 1, 32, buf, 18) && wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    CHECK(!wt_qweight_upload(ctx, WT_QFORMAT_Q4_K, 2, 96, buf, 108) && wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(strstr(wt_last_error(ctx), "multiple of 256") != NULL);
    CHECK(!wt_qweight_upload(ctx, WT_QFORMAT_Q4_0, 2, 48, buf, 54) && wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(!wt_qweight_upload(ctx, WT_QFORMAT_F32, 1, 40, buf, 160) && wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(!wt_qweight_upload(ctx, WT_QFORMAT_Q4_0, 2, 64, buf, 71) && wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(strstr(wt_last_error(ctx), "72 bytes, got 71") != NULL);
    CHECK(!wt_qweight_upload(ctx, WT_QFORMAT_Q4_0, 0, 64, buf, 0) && wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(!wt_qweight_upload(ctx, WT_QFORMAT_Q8_0, 1, (1 << 20) + 32, buf, 34 * 32769) &&
          wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(!wt_qweight_upload(ctx, WT_QFORMAT_Q8_0, 1 << 30, 1 << 20, buf, 1) && wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(!wt_qweight_upload(ctx, WT_QFORMAT_Q4_0, 1, 32, NULL, 18) &&
          wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    CHECK(strcmp(wt_qformat_name(WT_QFORMAT_Q4_K), "q4_k") == 0 && strcmp(wt_qformat_name((wt_qformat)77), "?") == 0);
    CHECK(wt_qformat_block_bytes(WT_QFORMAT_Q3_K) == 110 && wt_qformat_block_elements(WT_QFORMAT_Q6_K) == 256 &&
          wt_qformat_block_bytes(WT_QFORMAT_NONE) == 0);
    wt_qweight *qw = wt_qweight_upload(ctx, WT_QFORMAT_Q4_0, 2, 64, buf, 72);
    CHECK(qw != NULL);
    wt_tensor *x = wt_zeros(ctx, WT_F32, 2, (int64_t[]){ 1, 32 });
    wt_clear_error(ctx);
    CHECK(!wt_qlinear(ctx, x, qw, NULL) && wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(strstr(wt_last_error(ctx), "wt_qlinear: x [1, 32]") != NULL);
    wt_tensor *xi = wt_zeros(ctx, WT_I32, 1, (int64_t[]){ 64 });
    CHECK(!wt_qlinear(ctx, xi, qw, NULL) && wt_last_status(ctx) == WT_STATUS_DTYPE);
    wt_tensor *x64 = wt_zeros(ctx, WT_F32, 1, (int64_t[]){ 64 });
    wt_tensor *b3 = wt_zeros(ctx, WT_F32, 1, (int64_t[]){ 3 });
    CHECK(!wt_qlinear(ctx, x64, qw, b3) && wt_last_status(ctx) == WT_STATUS_SHAPE);
    wt_clear_error(ctx);
    CHECK(!wt_qlinear(ctx, x64, NULL, NULL) && wt_last_status(ctx) == WT_STATUS_NULL_TENSOR);
    CHECK(!wt_qembedding(ctx, qw, x64) && wt_last_status(ctx) == WT_STATUS_DTYPE);
    CHECK(!wt_qdequantize(ctx, NULL));
    /* a 1-d x gives a 1-d result; a strided x is copied first */
    wt_tensor *y = wt_qlinear(ctx, x64, qw, NULL);
    CHECK(y && wt_ndim(y) == 1 && wt_shape(y)[0] == 2);
    wt_tensor *x2 = wt_zeros(ctx, WT_F32, 2, (int64_t[]){ 64, 2 });
    wt_tensor *xt = wt_transpose(ctx, x2, 0, 1);
    wt_tensor *y2 = wt_qlinear(ctx, xt, qw, NULL);
    CHECK(y2 && wt_shape(y2)[0] == 2 && wt_shape(y2)[1] == 2);
    double *g = tt_read(ctx, y2);
    CHECK(g[0] == 0 && g[3] == 0);
    free(g);
    wt_release(y2);
    wt_release(xt);
    wt_release(x2);
    wt_release(y);
    wt_release(b3);
    wt_release(x64);
    wt_release(xi);
    wt_release(x);
    wt_qweight_release(qw);
    wt_qweight_release(NULL);
    wt_clear_error(ctx);
}

/* A weight released while a recorded product still reads it (its batch not yet submitted), then
 * a second weight uploaded (its buffer may take the first one's place): both products right. */
static void test_lifetime(void) {
    int64_t N = 33, K = 64;
    double x[64], *v[2], *mag = malloc((size_t)(N * K) * sizeof *mag);
    for (int64_t k = 0; k < K; k++)
        x[k] = (double)(float)((int)(rnd32() % 2001) - 1000) / 1000.0;
    wt_tensor *xt = tt_upload(ctx, WT_F32, 1, &K, x), *y[2];
    for (int i = 0; i < 2; i++) {
        size_t bytes;
        uint8_t *w = random_weight(WT_QFORMAT_Q8_0, N, K, &bytes);
        v[i] = malloc((size_t)(N * K) * sizeof *v[i]);
        ref_weights(WT_QFORMAT_Q8_0, w, N, K, v[i], mag);
        wt_qweight *qw = wt_qweight_upload(ctx, WT_QFORMAT_Q8_0, N, K, w, bytes);
        free(w);
        y[i] = wt_qlinear(ctx, xt, qw, NULL);
        wt_qweight_release(qw);
    }
    for (int i = 0; i < 2; i++) {
        double *got = tt_read(ctx, y[i]);
        int bad = 0;
        for (int64_t n = 0; n < N; n++) {
            double want = 0, a = 0;
            for (int64_t k = 0; k < K; k++) {
                want += v[i][n * K + k] * x[k];
                a += fabs(v[i][n * K + k] * x[k]);
            }
            bad += !(fabs(got[n] - want) <= 2e-6 * a);
        }
        CHECKF(bad == 0, "product %d of a released weight: %d outputs differ", i, bad);
        free(got);
        free(v[i]);
        wt_release(y[i]);
    }
    wt_release(xt);
    free(mag);
}

/* every kernel key the C side makes compiles: each format, rows of x, lanes per row, subgroups */
static void test_compile(void) {
    int n = 0;
    for (uint32_t fmt = 1; fmt < WT_QFORMAT_COUNT; fmt++)
        for (uint32_t file = WT_K_qmatvec; file <= WT_K_qrows; file++)
            for (int v = 0; v < (file == WT_K_qmatvec ? 12 : 2); v++) {
                wt_kkey k = wt_key((wt_kfile)file, fmt, WT_F32, WT_U32, WT_F32, WT_F32);
                k.in[2] = WT_F32;
                if (file == WT_K_qmatvec) {   /* rows of x, lanes, bias, rows a group, subgroups (of 32) */
                    k.mode[0] = (uint8_t)(1 + v % 4);
                    k.mode[1] = (uint8_t)(3 + v % 6);
                    k.mode[2] = (uint8_t)((v & 1) | (v % 3) << 1 | (v >= 6 ? (v >= 9 ? 24 : 8) : 0));
                } else {
                    k.mode[0] = (uint8_t)v;
                }
                wgsl_result *r = wt_kernel_compile(ctx, "test_quant", &k, 1);
                const char *name = file == WT_K_qrows ? "qrows" : file == WT_K_qmatmul ? "qmatmul" : "qmatvec";
                CHECKF(r && r->ok, "%s for %s: %s", name, wt_qformat_name((wt_qformat)fmt), wt_last_error(ctx));
                wgsl_result_free(r);
                wt_clear_error(ctx);
                n++;
            }
    printf("%d kernel keys compiled\n", n);
}

/* --gguf: decode to .npy for tests/llm/test_quant_gguf.py */
static int dump(int argc, char **argv) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    wt_qweight *qw = NULL;
    wl_model *m = NULL;
    const char *out;
    if (!strcmp(argv[1], "--gguf") && argc == 5) {
        wl_error err;
        m = wl_model_open(argv[2], NULL, &err);
        CHECKF(m != NULL, "%s", err.message);
        const wl_tensor_info *t = m ? wl_model_tensor_find(m, argv[3]) : NULL;
        CHECKF(t != NULL, "no tensor %s", argv[3]);
        static const wt_qformat of[WL_DTYPE_COUNT] = {
            [WL_DTYPE_F32] = WT_QFORMAT_F32, [WL_DTYPE_F16] = WT_QFORMAT_F16, [WL_DTYPE_BF16] = WT_QFORMAT_BF16,
            [WL_DTYPE_Q4_0] = WT_QFORMAT_Q4_0, [WL_DTYPE_Q4_1] = WT_QFORMAT_Q4_1, [WL_DTYPE_Q5_0] = WT_QFORMAT_Q5_0,
            [WL_DTYPE_Q5_1] = WT_QFORMAT_Q5_1, [WL_DTYPE_Q8_0] = WT_QFORMAT_Q8_0, [WL_DTYPE_Q2_K] = WT_QFORMAT_Q2_K,
            [WL_DTYPE_Q3_K] = WT_QFORMAT_Q3_K, [WL_DTYPE_Q4_K] = WT_QFORMAT_Q4_K, [WL_DTYPE_Q5_K] = WT_QFORMAT_Q5_K,
            [WL_DTYPE_Q6_K] = WT_QFORMAT_Q6_K,
        };
        if (t)   /* straight from the mapping */
            qw = wt_qweight_upload(ctx, of[t->dtype], (int64_t)(t->elements / t->ne[0]), (int64_t)t->ne[0], t->data,
                                   (size_t)t->size);
        out = argv[4];
    } else {
        fprintf(stderr, "usage: test_quant [--gguf MODEL TENSOR OUT.npy]\n");
        return 2;
    }
    CHECKF(qw != NULL, "upload: %s", wt_last_error(ctx));
    wt_tensor *d = wt_qdequantize(ctx, qw);
    CHECKF(d && wt_save_npy(ctx, d, out) == WT_OK, "%s: %s", out, wt_last_error(ctx));
    wt_release(d);
    wt_qweight_release(qw);
    wl_model_close(m);
    tt_end(&f);
    return test_end();
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the process's CPU time: lavapipe's work, steadier than the wall clock on a shared machine */
static double cpu_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* REPS products of x by the weights ws[0 .. n - 1] in turn, recorded back to back and waited for
 * once: seconds per product by the host clock, of process CPU, and (gpu) of the GPU's busy time */
static void time_products(wt_tensor *x, wt_qweight **ws, int n, int64_t reps, bool gpu, double *host, double *cpu,
                          double *dev) {
    wt_stats s0, s1;
    wt_get_stats(ctx, &s0);
    double t0 = now_s(), c0 = cpu_s();
    for (int64_t i = 0; i < reps; i++)
        wt_release(wt_qlinear(ctx, x, ws[i % n], NULL));
    CHECKF(wt_sync(ctx) == WT_OK, "%s", wt_last_error(ctx));
    *host = (now_s() - t0) / (double)reps;
    *cpu = (cpu_s() - c0) / (double)reps;
    wt_get_stats(ctx, &s1);
    *dev = gpu ? (double)(s1.gpu_ns - s0.gpu_ns) * 1e-9 / (double)reps : 0;
}

/* --bench FORMAT N K M REPS [LANES:ROWS ...]: REPS wt_qlinear of M rows by a random N x K weight
 * (after one warm-up): the time per product by the host clock and, where the device has
 * timestamps, the GPU's busy time; GB/s of weight bytes.  "hot" multiplies one weight REPS times
 * (it may stay in the GPU's L2 cache); "cold" rotates among copies of at least 256 MiB together
 * (at most 64), as a model's layers do.  With LANES:ROWS arguments (log2 of qmatvec's lanes and
 * rows per row group, wt__qmatvec_tune; 0:-1 for quant.c's choice) each is timed in turn; without,
 * quant.c's choice, then the dense f32 wt_linear of the dequantized weight for scale. */
static int bench(int argc, char **argv) {
    if (argc < 7) {
        fprintf(stderr, "usage: test_quant --bench FORMAT N K M REPS [LANES:ROWS ...]\n");
        return 2;
    }
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    wt_qformat fmt = WT_QFORMAT_NONE;
    for (int i = 1; i < WT_QFORMAT_COUNT; i++)
        if (!strcmp(argv[2], wt_qformat_name((wt_qformat)i)))
            fmt = (wt_qformat)i;
    int64_t N = atoll(argv[3]), K = atoll(argv[4]), M = atoll(argv[5]), reps = atoll(argv[6]);
    CHECKF(fmt != WT_QFORMAT_NONE && N > 0 && K > 0 && M > 0 && reps > 0, "bad arguments");
    size_t bytes;
    uint8_t *w = random_weight(fmt, N, K, &bytes);
    int n = (int)((((size_t)256 << 20) + bytes - 1) / bytes);
    n = n < 1 ? 1 : n > 64 ? 64 : n;
    wt_qweight *ws[64];
    for (int i = 0; i < n; i++) {
        ws[i] = wt_qweight_upload(ctx, fmt, N, K, w, bytes);
        CHECKF(ws[i] != NULL, "upload: %s", wt_last_error(ctx));
    }
    wt_tensor *x = wt_rand(ctx, WT_F32, 2, (int64_t[]){ M, K });
    bool gpu = wt_context_set_timing(ctx, true) == WT_OK;
    wt_clear_error(ctx);
    int nshape = argc - 7 > 0 ? argc - 7 : 1;
    for (int s = 0; s < nshape && test_failures_ == 0; s++) {
        int l = 0, r = -1;
        if (argc > 7 && sscanf(argv[7 + s], "%d:%d", &l, &r) != 2)
            l = 0, r = -1;
        wt__qmatvec_tune(l, r);
        double hot, cpu, hot_dev, cold, cold_cpu, cold_dev;
        time_products(x, ws, n, n, gpu, &hot, &cpu, &hot_dev);   /* warm-up: kernels, bind groups */
        time_products(x, ws, 1, reps, gpu, &hot, &cpu, &hot_dev);
        time_products(x, ws, n, reps, gpu, &cold, &cold_cpu, &cold_dev);
        printf("%s N %lld K %lld M %lld", wt_qformat_name(fmt), (long long)N, (long long)K, (long long)M);
        if (argc > 7 && l >= 3 && r >= 0)
            printf(" lanes %d rows %d", 1 << l, 1 << r);
        else if (argc > 7)
            printf(" quant.c's row groups");
        printf(": hot %.1f us per product (host clock, %lld back to back; process CPU %.1f us), %.0f GB/s",
               hot * 1e6, (long long)reps, cpu * 1e6, (double)bytes / hot * 1e-9);
        if (gpu)
            printf(", GPU busy %.2f us, %.0f GB/s; cold (%d copies) GPU busy %.2f us, %.0f GB/s", hot_dev * 1e6,
                   (double)bytes / hot_dev * 1e-9, n, cold_dev * 1e6, (double)bytes / cold_dev * 1e-9);
        printf("\n");
    }
    wt__qmatvec_tune(0, -1);
    if (argc == 7) {   /* the dense f32 wt_linear of the same shape, for scale */
        wt_tensor *wd = wt_qdequantize(ctx, ws[0]);
        wt_release(wt_linear(ctx, x, wd, NULL));
        wt_sync(ctx);
        double t0 = now_s(), c0 = cpu_s();
        for (int64_t i = 0; i < reps; i++)
            wt_release(wt_linear(ctx, x, wd, NULL));
        CHECKF(wt_sync(ctx) == WT_OK, "%s", wt_last_error(ctx));
        double host = (now_s() - t0) / (double)reps, cpu = (cpu_s() - c0) / (double)reps;
        printf("f32 wt_linear of the dequantized weight: %.1f us per product, %.2f GB/s; process CPU %.1f us\n",
               host * 1e6, (double)(N * K * 4) / host * 1e-9, cpu * 1e6);
        wt_release(wd);
    }
    wt_release(x);
    for (int i = 0; i < n; i++)
        wt_qweight_release(ws[i]);
    free(w);
    tt_end(&f);
    return test_end();
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--bench"))
        return bench(argc, argv);
    if (argc > 1)
        return dump(argc, argv);
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    test_compile();
    test_errors();
    test_lifetime();
    for (int fmt = 1; fmt < WT_QFORMAT_COUNT; fmt++) {
        test_decode((wt_qformat)fmt);
        test_linear((wt_qformat)fmt);
    }
    /* prefill by decoded chunks: a memory_limit of 8 MiB makes them 1024 rows */
    wt_context *c3 = wt_context_create(f.g.dev, &(wt_context_desc){ .memory_limit = 8 << 20 });
    test_linear_on(c3, WT_QFORMAT_Q4_K, 70, 2100, 256, WT_F32, true, "decoded in 3 chunks");
    test_linear_on(c3, WT_QFORMAT_Q4_0, 64, 1030, 256, WT_F32, false, "decoded in 2 chunks");
    wt_context_destroy(c3);
    /* qmatvec's workgroup reduction: a device without subgroups */
    if (wg_device_has_feature(f.g.dev, WG_FEATURE_SUBGROUPS)) {
        wg_device *dev = fixture_device(&f.g, NULL);
        wt_context *c2 = wt_context_create(dev, NULL);
        CHECK(c2 != NULL);
        int64_t ks[3] = { 96, 576, 1280 };
        for (int i = 0; i < 3; i++) {
            test_linear_on(c2, WT_QFORMAT_Q4_1, 1 + i, 29, ks[i], WT_F32, i == 1, "matvec, no subgroups");
            test_linear_on(c2, WT_QFORMAT_Q6_K, 1 + i, 29, 1024 << i, WT_F32, i == 1, "matvec, no subgroups");
            test_linear_on(c2, WT_QFORMAT_Q8_0, 1 + i, 8195, ks[i], WT_F32, i == 1, "matvec, no subgroups, two rows");
        }
        wt_context_destroy(c2);
        wg_device_release(dev);
    } else {
        printf("the device has no subgroups: qmatvec's shuffle path untested here\n");
    }
    tt_end(&f);
    return test_end();
}
