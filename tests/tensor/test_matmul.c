/* test_matmul.c - wt_matmul, wt_matmul_ex, wt_linear against a double-precision C reference:
 * odd shapes (1, 3, 17, 65, 129, ...) on every tiled kernel, transposed and strided operands
 * read in place, broadcast batch dims (3-D and 4-D), 1-D operands, linear with and without bias,
 * the matvec kernel (decode path), f16 where the device has it, empty products, and errors that
 * name the op and the shapes; the 16-byte kernels on W^T (k-contiguous B) and A^T operands, the
 * padded path for ragged products (policy matmul_pad ON: ragged K, A^T with ragged M, one operand
 * already exact) and its fallback when memory is short; split-K; the
 * autotuner's cache, gate and per-layout classes.  The reference works on the logical values of each operand, read
 * back from the very view passed to the op.  Error bound per output: f32 1e-5 * sum |a b| + 1e-6;
 * f16 (output rounded to binary16) 2e-3 * |ref| + 1e-3 * sum |a b| + 1e-3. */
#include <dirent.h>
#include <unistd.h>

#include "tensor_test.h"
#include "tensor/internal.h"

static wt_context *ctx;
static uint64_t seed = 0x1234567;
static bool light;      /* under valgrind: a few small cases (each kernel build takes seconds) */

/* A [..] tensor of uniform(-1, 1) values. */
static wt_tensor *rnd(wt_dtype dt, int nd, const int64_t *shape) {
    int64_t n = 1;
    for (int i = 0; i < nd; i++)
        n *= shape[i];
    double *v = malloc((size_t)(n + 1) * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = tt_rand(&seed, -1, 1);
    wt_tensor *t = tt_upload(ctx, dt, nd, shape, v);
    free(v);
    return t;
}

/* Checks out = a . b (+ bias) in torch.matmul semantics; w_t: b is linear's weight [N, K]. */
static void check_mm(const char *what, wt_tensor *out, wt_tensor *a, wt_tensor *b, bool w_t, wt_tensor *bias) {
    CHECKF(out != NULL, "%s: %s", what, wt_last_error(ctx));
    if (!out)
        return;
    double *av = tt_read(ctx, a), *bv = tt_read(ctx, b), *cv = bias ? tt_read(ctx, bias) : NULL;
    double *ov = tt_read(ctx, out);
    int an = wt_ndim(a), bn = wt_ndim(b);
    const int64_t *as = wt_shape(a), *bs = wt_shape(b);
    int64_t M = an == 1 ? 1 : as[an - 2], K = as[an - 1];
    int64_t N = w_t ? bs[0] : bn == 1 ? 1 : bs[bn - 1];
    int abn = an >= 2 ? an - 2 : 0, bbn = (!w_t && bn >= 2) ? bn - 2 : 0;
    int obn = abn > bbn ? abn : bbn;
    int64_t osh[8], batch = 1;
    for (int d = 0; d < obn; d++) {
        int da = d - (obn - abn), db = d - (obn - bbn);
        int64_t sa = da >= 0 ? as[da] : 1, sb = db >= 0 ? bs[db] : 1;
        osh[d] = sa == 1 ? sb : sa;
        batch *= osh[d];
    }
    int64_t expect = batch * M * N;
    CHECKF(wt_numel(out) == expect, "%s: numel %lld, expected %lld", what, (long long)wt_numel(out), (long long)expect);
    bool f16 = wt_dtype_of(out) == WT_F16;
    int bad = 0;
    double worst = 0;
    for (int64_t bi = 0; bi < batch && wt_numel(out) == expect; bi++) {
        /* batch coordinate -> offsets into a and b */
        int64_t rem = bi, ao = 0, bo = 0, am = 1, bm = 1;
        for (int d = obn - 1; d >= 0; d--) {
            int64_t cd = rem % osh[d];
            rem /= osh[d];
            int da = d - (obn - abn), db = d - (obn - bbn);
            if (da >= 0) { ao += (as[da] == 1 ? 0 : cd) * am; am *= as[da]; }
            if (db >= 0) { bo += (bs[db] == 1 ? 0 : cd) * bm; bm *= bs[db]; }
        }
        ao *= M * K;
        bo *= K * N;
        for (int64_t m = 0; m < M; m++)
            for (int64_t n = 0; n < N; n++) {
                double s = 0, sa = 0;
                for (int64_t k = 0; k < K; k++) {
                    double x = av[ao + m * K + k];
                    double y = w_t ? bv[n * K + k] : bv[bo + k * N + n];
                    s += x * y;
                    sa += fabs(x * y);
                }
                if (cv) {
                    double c = cv[wt_numel(bias) == 1 ? 0 : n];
                    s += c;
                    sa += fabs(c);
                }
                double g = ov[(bi * M + m) * N + n];
                double tol = f16 ? 2e-3 * fabs(s) + 1e-3 * sa + 1e-3 : 1e-5 * sa + 1e-6;
                double e = fabs(g - s);
                if (e > worst)
                    worst = e;
                if (!(e <= tol) && bad++ < 3)
                    fprintf(stderr, "%s: [%lld, %lld, %lld] got %.9g want %.9g (tol %.3g)\n", what, (long long)bi,
                            (long long)m, (long long)n, g, s, tol);
            }
    }
    CHECKF(bad == 0, "%s: %d outputs out of bounds (worst error %.3g)", what, bad, worst);
    free(av);
    free(bv);
    free(cv);
    free(ov);
}

/* The 16-byte kernels (matmul3.wgsl, matmul4.wgsl). */
static bool is_v4(int k) {
    return strstr(wt_mm_kernel_name((wt_mm_kernel)k), "v4") != NULL;
}

/* Kernels the general loops run: all but the 16-byte ones (test_v4: they need aligned shapes). */
static bool kernel_runs(int k) {
    return !(light && k != WT_MM_AUTO && k != WT_MM_TILE64U) && !is_v4(k);
}

/* The same [K, N] values k-contiguous: the transposed view of a [N, K] copy (W^T). */
static wt_tensor *kcontig(wt_tensor *b) {
    wt_tensor *v = wt_transpose(ctx, b, 0, 1), *w = wt_contiguous(ctx, v), *r = wt_transpose(ctx, w, 0, 1);
    wt_release(v);
    wt_release(w);
    return r;
}

static wt_tensor *mm_k(wt_tensor *a, wt_tensor *b, wt_tensor *bias, wt_mm_kernel k) {
    return wt_matmul_kernel_ex(ctx, a, b, bias, k);
}

/* Every tiled kernel on 2-D row-major operands of odd sizes. */
static void test_shapes(void) {
    static const int64_t sz[][3] = { { 1, 1, 1 },    { 3, 17, 5 },   { 17, 3, 65 },  { 65, 129, 17 },
                                     { 129, 65, 3 }, { 130, 33, 131 }, { 2, 257, 1 }, { 200, 40, 260 } };
    for (int k = WT_MM_AUTO; k < WT_MM_MATVEC; k++) if (kernel_runs(k))
        for (size_t i = 0; i < (light ? 3 : sizeof sz / sizeof *sz); i++) {
            int64_t M = sz[i][0], K = sz[i][1], N = sz[i][2];
            wt_tensor *a = rnd(WT_F32, WT_SHAPE(M, K)), *b = rnd(WT_F32, WT_SHAPE(K, N));
            char what[96];
            snprintf(what, sizeof what, "%s %lldx%lldx%lld", wt_mm_kernel_name((wt_mm_kernel)k), (long long)M,
                     (long long)K, (long long)N);
            wt_tensor *c = mm_k(a, b, NULL, (wt_mm_kernel)k);
            check_mm(what, c, a, b, false, NULL);
            CHECK_EQ_INT(wt_ndim(c), 2);
            wt_release(a); wt_release(b); wt_release(c);
        }
}

/* Transposed and strided views read in place, on every tiled kernel. */
static void test_views(void) {
    int64_t M = 67, K = 45, N = 70;
    wt_tensor *at = rnd(WT_F32, WT_SHAPE(K, M)), *bt = rnd(WT_F32, WT_SHAPE(N, K));
    wt_tensor *a = wt_transpose(ctx, at, 0, 1), *b = wt_transpose(ctx, bt, 0, 1);
    wt_tensor *wide = rnd(WT_F32, WT_SHAPE(M, 2 * K + 1));
    wt_tensor *as = wt_slice(ctx, wide, 1, 1, 2 * K + 1, 2);        /* stride 2 along k */
    wt_tensor *bw = rnd(WT_F32, WT_SHAPE(K + 3, N + 5));
    wt_tensor *bs_in = wt_narrow(ctx, bw, 0, 3, K);   /* released at once: the view holds the storage */
    wt_tensor *bs = wt_narrow(ctx, bs_in, 1, 5, N);   /* offset, row stride N + 5 */
    wt_release(bs_in);
    for (int k = WT_MM_AUTO; k < WT_MM_MATVEC; k++) if (kernel_runs(k)) {
        wt_stats s0, s1;
        wt_get_stats(ctx, &s0);
        wt_tensor *c1 = mm_k(a, b, NULL, (wt_mm_kernel)k);
        wt_get_stats(ctx, &s1);
        CHECKF(s1.ops - s0.ops == 1, "transposed operands: %llu ops recorded (a copy was made?)",
               (unsigned long long)(s1.ops - s0.ops));
        check_mm("a^T . b^T", c1, a, b, false, NULL);
        wt_tensor *c2 = mm_k(as, bs, NULL, (wt_mm_kernel)k);
        check_mm("strided a . narrowed b", c2, as, bs, false, NULL);
        wt_tensor *c3 = mm_k(a, bs, NULL, (wt_mm_kernel)k);
        check_mm("a^T . narrowed b", c3, a, bs, false, NULL);
        wt_release(c1); wt_release(c2); wt_release(c3);
    }
    wt_release(at); wt_release(bt); wt_release(a); wt_release(b);
    wt_release(wide); wt_release(as); wt_release(bw); wt_release(bs);
}

/* Batched 3-D / 4-D with broadcast batch dims and expanded operands. */
static void test_batched(void) {
    wt_tensor *a = rnd(WT_F32, WT_SHAPE(3, 17, 33)), *b = rnd(WT_F32, WT_SHAPE(3, 33, 9));
    wt_tensor *c = wt_matmul(ctx, a, b);
    check_mm("[3,17,33].[3,33,9]", c, a, b, false, NULL);
    CHECK_EQ_INT(wt_ndim(c), 3);
    wt_release(c);
    wt_tensor *b2 = rnd(WT_F32, WT_SHAPE(33, 9));
    c = wt_matmul(ctx, a, b2);
    check_mm("[3,17,33].[33,9]", c, a, b2, false, NULL);
    wt_release(c);
    wt_tensor *a4 = rnd(WT_F32, WT_SHAPE(2, 1, 5, 7)), *b4 = rnd(WT_F32, WT_SHAPE(1, 3, 7, 66));
    for (int k = WT_MM_AUTO; k < WT_MM_MATVEC; k++) if (kernel_runs(k)) {
        c = mm_k(a4, b4, NULL, (wt_mm_kernel)k);
        check_mm("[2,1,5,7].[1,3,7,66]", c, a4, b4, false, NULL);
        if (c) {
            CHECK_EQ_INT(wt_ndim(c), 4);
            CHECK_EQ_INT(wt_shape(c)[0], 2);
            CHECK_EQ_INT(wt_shape(c)[1], 3);
        }
        wt_release(c);
    }
    /* a batch of transposed matrices with a permuted batch layout */
    wt_tensor *base = rnd(WT_F32, WT_SHAPE(4, 9, 2, 5));           /* [b1, k, b0, m] */
    int perm[4] = { 2, 0, 3, 1 };
    wt_tensor *ap = wt_permute(ctx, base, perm);                     /* [2, 4, 5, 9] */
    wt_tensor *bb = rnd(WT_F32, WT_SHAPE(4, 9, 3));
    c = wt_matmul(ctx, ap, bb);
    check_mm("permuted [2,4,5,9].[4,9,3]", c, ap, bb, false, NULL);
    wt_release(c);
    /* an expanded (stride 0) operand */
    wt_tensor *row = rnd(WT_F32, WT_SHAPE(1, 9, 3));
    wt_tensor *ex = wt_expand(ctx, row, WT_SHAPE(4, 9, 3));
    c = wt_matmul(ctx, ap, ex);
    check_mm("expanded b", c, ap, ex, false, NULL);
    wt_release(c);
    wt_release(a); wt_release(b); wt_release(b2); wt_release(a4); wt_release(b4);
    wt_release(base); wt_release(ap); wt_release(bb); wt_release(row); wt_release(ex);
}

/* 1-D operands (torch.matmul rules) and the matvec kernel. */
static void test_vectors(void) {
    wt_tensor *v = rnd(WT_F32, WT_SHAPE(36)), *m = rnd(WT_F32, WT_SHAPE(36, 21)), *mt = rnd(WT_F32, WT_SHAPE(19, 36));
    wt_tensor *c = wt_matmul(ctx, v, m);
    check_mm("vec.mat", c, v, m, false, NULL);
    CHECK(c && wt_ndim(c) == 1 && wt_shape(c)[0] == 21);
    wt_release(c);
    c = wt_matmul(ctx, mt, v);
    check_mm("mat.vec", c, mt, v, false, NULL);
    CHECK(c && wt_ndim(c) == 1 && wt_shape(c)[0] == 19);
    wt_release(c);
    c = wt_matmul(ctx, v, v);
    check_mm("vec.vec", c, v, v, false, NULL);
    CHECK(c && wt_ndim(c) == 0);
    wt_release(c);
    wt_tensor *b3 = rnd(WT_F32, WT_SHAPE(2, 36, 5));
    c = wt_matmul(ctx, v, b3);
    check_mm("vec.[2,36,5]", c, v, b3, false, NULL);
    CHECK(c && wt_ndim(c) == 2);
    wt_release(c);
    /* matvec kernel: W [R, K] . x, both directions, K past the unrolled loop and ragged tails */
    static const int64_t rk[][2] = { { 1, 4 }, { 9, 132 }, { 257, 1024 }, { 33, 1540 } };
    for (size_t i = 0; i < sizeof rk / sizeof *rk; i++) {
        wt_tensor *w = rnd(WT_F32, WT_SHAPE(rk[i][0], rk[i][1])), *x = rnd(WT_F32, WT_SHAPE(rk[i][1]));
        wt_tensor *x2 = wt_reshape(ctx, x, WT_SHAPE(1, rk[i][1]));
        wt_tensor *wt = wt_transpose(ctx, w, 0, 1);
        char what[64];
        snprintf(what, sizeof what, "matvec W[%lld,%lld].x", (long long)rk[i][0], (long long)rk[i][1]);
        c = mm_k(w, x, NULL, WT_MM_MATVEC);
        check_mm(what, c, w, x, false, NULL);
        wt_release(c);
        c = mm_k(x2, wt, NULL, WT_MM_MATVEC);
        check_mm("matvec x.W^T", c, x2, wt, false, NULL);
        wt_release(c);
        wt_tensor *bias = rnd(WT_F32, WT_SHAPE(rk[i][0]));
        c = wt_linear(ctx, x2, w, bias);        /* AUTO picks matvec */
        check_mm("linear decode", c, x2, w, true, bias);
        wt_release(c);
        wt_release(w); wt_release(x); wt_release(x2); wt_release(wt); wt_release(bias);
    }
    wt_release(v); wt_release(m); wt_release(mt); wt_release(b3);
}

static void test_linear(void) {
    wt_tensor *x = rnd(WT_F32, WT_SHAPE(2, 7, 40)), *w = rnd(WT_F32, WT_SHAPE(30, 40)), *bias = rnd(WT_F32, WT_SHAPE(30));
    wt_tensor *y = wt_linear(ctx, x, w, bias);
    check_mm("linear [2,7,40] bias", y, x, w, true, bias);
    CHECK(y && wt_ndim(y) == 3 && wt_shape(y)[2] == 30);
    wt_release(y);
    y = wt_linear(ctx, x, w, NULL);
    check_mm("linear [2,7,40]", y, x, w, true, NULL);
    wt_release(y);
    wt_tensor *b1 = rnd(WT_F32, WT_SHAPE(1));
    y = wt_linear(ctx, x, w, b1);
    check_mm("linear bias [1]", y, x, w, true, b1);
    wt_release(y);
    wt_tensor *xv = rnd(WT_F32, WT_SHAPE(40));
    y = wt_linear(ctx, xv, w, bias);
    check_mm("linear 1-D x", y, xv, w, true, bias);
    CHECK(y && wt_ndim(y) == 1);
    wt_release(y);
    /* bias on the matmul_ex path, every kernel */
    wt_tensor *a = rnd(WT_F32, WT_SHAPE(70, 40)), *bt = wt_transpose(ctx, w, 0, 1);
    for (int k = WT_MM_AUTO; k < WT_MM_MATVEC; k++) if (kernel_runs(k)) {
        y = mm_k(a, bt, bias, (wt_mm_kernel)k);
        check_mm("matmul_ex bias", y, a, w, true, bias);
        wt_release(y);
    }
    wt_release(x); wt_release(w); wt_release(bias); wt_release(b1); wt_release(xv); wt_release(a); wt_release(bt);
}

static void test_f16(void) {
    if (!wt_context_has_f16(ctx)) {
        printf("SKIP f16: the device has no shader-f16\n");
        return;
    }
    wt_tensor *a = rnd(WT_F16, WT_SHAPE(2, 65, 47)), *b = rnd(WT_F16, WT_SHAPE(47, 130));
    for (int k = WT_MM_AUTO; k < WT_MM_MATVEC; k++) if (kernel_runs(k)) {
        wt_tensor *c = mm_k(a, b, NULL, (wt_mm_kernel)k);
        check_mm("f16 [2,65,47].[47,130]", c, a, b, false, NULL);
        CHECK(c && wt_dtype_of(c) == WT_F16);
        wt_release(c);
    }
    wt_tensor *b32 = rnd(WT_F32, WT_SHAPE(47, 3));
    wt_tensor *c = wt_matmul(ctx, a, b32);
    check_mm("f16 . f32", c, a, b32, false, NULL);
    CHECK(c && wt_dtype_of(c) == WT_F32);
    wt_release(c);
    wt_tensor *w = rnd(WT_F16, WT_SHAPE(96, 256)), *x = rnd(WT_F16, WT_SHAPE(1, 256)), *bias = rnd(WT_F16, WT_SHAPE(96));
    c = wt_linear(ctx, x, w, bias);
    check_mm("f16 linear decode (matvec)", c, x, w, true, bias);
    wt_release(c);
    wt_release(a); wt_release(b); wt_release(b32); wt_release(w); wt_release(x); wt_release(bias);
}

/* The 16-byte kernels: row-major operands with K and N multiples of 4 (M, tiles, batch and
 * bias free), else a clear refusal.  The last three shapes are tile-exact for some kernels
 * (matmul4.wgsl's EXACT specialisation: 128 x 256 tiles, K a multiple of 16 or only of 8). */
static void test_v4(void) {
    static const int64_t sz[][4] = { { 1, 67, 44, 72 }, { 1, 129, 8, 260 }, { 1, 5, 132, 4 }, { 3, 70, 36, 68 },
                                     { 1, 128, 64, 256 }, { 2, 256, 40, 256 }, { 1, 128, 16, 384 } };
    for (int k = WT_MM_AUTO + 1; k < WT_MM_MATVEC; k++)
        for (size_t i = 0; is_v4(k) && i < sizeof sz / sizeof *sz; i++) {
            int64_t B = sz[i][0], M = sz[i][1], K = sz[i][2], N = sz[i][3];
            wt_tensor *a = B > 1 ? rnd(WT_F32, WT_SHAPE(B, M, K)) : rnd(WT_F32, WT_SHAPE(M, K));
            wt_tensor *b = rnd(WT_F32, WT_SHAPE(K, N)), *bias = rnd(WT_F32, WT_SHAPE(N));
            char what[96];
            snprintf(what, sizeof what, "%s %lldx%lldx%lldx%lld", wt_mm_kernel_name((wt_mm_kernel)k),
                     (long long)B, (long long)M, (long long)K, (long long)N);
            bool with_bias = i == 3 || i == 5;
            wt_tensor *c = mm_k(a, b, with_bias ? bias : NULL, (wt_mm_kernel)k);
            check_mm(what, c, a, b, false, with_bias ? bias : NULL);
            wt_release(a); wt_release(b); wt_release(c); wt_release(bias);
        }
    /* B k-contiguous (x . W^T, W [N, K] read in place: the kernels' MB == 1 variants), every
     * 16-byte kernel on the same shapes, with and without bias, no copy made */
    for (int k = WT_MM_AUTO + 1; k < WT_MM_MATVEC; k++)
        for (size_t i = 0; is_v4(k) && i < sizeof sz / sizeof *sz; i++) {
            int64_t B = sz[i][0], M = sz[i][1], K = sz[i][2], N = sz[i][3];
            wt_tensor *a = B > 1 ? rnd(WT_F32, WT_SHAPE(B, M, K)) : rnd(WT_F32, WT_SHAPE(M, K));
            wt_tensor *w = B > 1 && i == 5 ? rnd(WT_F32, WT_SHAPE(B, N, K)) : rnd(WT_F32, WT_SHAPE(N, K));
            wt_tensor *bt = wt_transpose(ctx, w, wt_ndim(w) - 2, wt_ndim(w) - 1), *bias = rnd(WT_F32, WT_SHAPE(N));
            char what[96];
            snprintf(what, sizeof what, "%s x.W^T %lldx%lldx%lldx%lld%s", wt_mm_kernel_name((wt_mm_kernel)k),
                     (long long)B, (long long)M, (long long)K, (long long)N, wt_ndim(w) == 3 ? " batched W" : "");
            bool with_bias = i == 0 || i == 3 || i == 4;
            wt_stats s0, s1;
            wt_get_stats(ctx, &s0);
            wt_tensor *c = mm_k(a, bt, with_bias ? bias : NULL, (wt_mm_kernel)k);
            wt_get_stats(ctx, &s1);
            CHECKF(s1.ops - s0.ops == 1, "%s: %llu ops recorded (a copy was made?)", what,
                   (unsigned long long)(s1.ops - s0.ops));
            check_mm(what, c, a, bt, false, with_bias ? bias : NULL);
            wt_release(a); wt_release(w); wt_release(bt); wt_release(c); wt_release(bias);
        }
    /* A m-contiguous (A^T views, M a multiple of 4: the kernels' MA == 1 variants), with B
     * row-major or k-contiguous, batched, with bias */
    static const int64_t st[][4] = { { 1, 68, 44, 72 }, { 1, 132, 8, 260 }, { 2, 128, 40, 256 }, { 1, 128, 16, 256 } };
    for (int k = WT_MM_AUTO + 1; k < WT_MM_MATVEC; k++)
        for (size_t i = 0; is_v4(k) && i < sizeof st / sizeof *st; i++) {
            int64_t B = st[i][0], M = st[i][1], K = st[i][2], N = st[i][3];
            wt_tensor *a0 = B > 1 ? rnd(WT_F32, WT_SHAPE(B, K, M)) : rnd(WT_F32, WT_SHAPE(K, M));
            wt_tensor *a = wt_transpose(ctx, a0, wt_ndim(a0) - 2, wt_ndim(a0) - 1);
            wt_tensor *b = rnd(WT_F32, WT_SHAPE(K, N)), *bt = kcontig(b), *bias = rnd(WT_F32, WT_SHAPE(N));
            for (int l = 0; l < 2; l++) {
                char what[96];
                snprintf(what, sizeof what, "%s A^T.%s %lldx%lldx%lldx%lld", wt_mm_kernel_name((wt_mm_kernel)k),
                         l ? "W^T" : "B", (long long)B, (long long)M, (long long)K, (long long)N);
                wt_tensor *c = mm_k(a, l ? bt : b, i == 1 ? bias : NULL, (wt_mm_kernel)k);
                check_mm(what, c, a, l ? bt : b, false, i == 1 ? bias : NULL);
                wt_release(c);
            }
            wt_release(a0); wt_release(a); wt_release(b); wt_release(bt); wt_release(bias);
        }
    {   /* W^T from a narrowed weight (quad-aligned offset, row stride K + 8), linear on AUTO */
        wt_tensor *wb = rnd(WT_F32, WT_SHAPE(140, 72)), *x = rnd(WT_F32, WT_SHAPE(2, 65, 64));
        wt_tensor *w_in = wt_narrow(ctx, wb, 0, 4, 132);   /* released at once: the view holds the storage */
        wt_tensor *w = wt_narrow(ctx, w_in, 1, 8, 64), *bias = rnd(WT_F32, WT_SHAPE(132));
        wt_release(w_in);
        wt_tensor *wt = wt_transpose(ctx, w, 0, 1);
        for (int k = WT_MM_AUTO + 1; k < WT_MM_MATVEC; k++) {
            if (!is_v4(k))
                continue;
            char what[96];
            snprintf(what, sizeof what, "%s x.W^T narrowed W", wt_mm_kernel_name((wt_mm_kernel)k));
            wt_tensor *c = mm_k(x, wt, bias, (wt_mm_kernel)k);
            check_mm(what, c, x, w, true, bias);
            wt_release(c);
        }
        wt_tensor *y = wt_linear(ctx, x, w, bias);
        check_mm("linear narrowed W (auto)", y, x, w, true, bias);
        wt_release(y);
        wt_release(wb); wt_release(x); wt_release(w); wt_release(bias); wt_release(wt);
    }
    /* aligned offsets and row strides of views; broadcast batch; f16 */
    wt_tensor *big = rnd(WT_F32, WT_SHAPE(2, 40, 48)), *bw = rnd(WT_F32, WT_SHAPE(2, 28, 40));
    wt_tensor *bv_in = wt_narrow(ctx, bw, 1, 4, 24);   /* released at once: the view holds the storage */
    wt_tensor *av = wt_narrow(ctx, big, 2, 4, 24), *bv = wt_narrow(ctx, bv_in, 2, 8, 32);
    wt_release(bv_in);
    wt_tensor *c = mm_k(av, bv, NULL, WT_MM_TILE128V4W);
    check_mm("v4 narrowed views", c, av, bv, false, NULL);
    wt_release(c);
    if (wt_context_has_f16(ctx)) {
        wt_tensor *h = rnd(WT_F16, WT_SHAPE(33, 16)), *g = rnd(WT_F16, WT_SHAPE(16, 20));
        wt_tensor *he = rnd(WT_F16, WT_SHAPE(128, 16)), *ge = rnd(WT_F16, WT_SHAPE(16, 256));   /* tile-exact */
        for (int k = WT_MM_AUTO + 1; k < WT_MM_MATVEC; k++) {
            if (!is_v4(k))
                continue;
            char what[64];
            snprintf(what, sizeof what, "v4 f16 %s", wt_mm_kernel_name((wt_mm_kernel)k));
            c = mm_k(h, g, NULL, (wt_mm_kernel)k);
            check_mm(what, c, h, g, false, NULL);
            CHECK(c && wt_dtype_of(c) == WT_F16);
            wt_release(c);
            c = mm_k(he, ge, NULL, (wt_mm_kernel)k);
            check_mm(what, c, he, ge, false, NULL);
            wt_release(c);
            /* x . W^T in f16, ragged and tile-exact */
            wt_tensor *gt = kcontig(g), *get = kcontig(ge);
            snprintf(what, sizeof what, "v4 f16 x.W^T %s", wt_mm_kernel_name((wt_mm_kernel)k));
            c = mm_k(h, gt, NULL, (wt_mm_kernel)k);
            check_mm(what, c, h, gt, false, NULL);
            wt_release(c);
            c = mm_k(he, get, NULL, (wt_mm_kernel)k);
            check_mm(what, c, he, get, false, NULL);
            wt_release(c);
            wt_release(gt); wt_release(get);
        }
        wt_release(h); wt_release(g); wt_release(he); wt_release(ge);
    }
    /* refusals: K % 4, N % 4, a transposed A with M % 4, an odd offset, W^T with rows not quad-aligned */
    wt_tensor *x = rnd(WT_F32, WT_SHAPE(8, 6)), *y = rnd(WT_F32, WT_SHAPE(6, 8)), *z = rnd(WT_F32, WT_SHAPE(8, 8));
    wt_tensor *zt = wt_transpose(ctx, x, 0, 1), *zo = wt_narrow(ctx, z, 1, 1, 4);   /* zt: [6, 8], M = 6 */
    wt_tensor *w6 = rnd(WT_F32, WT_SHAPE(4, 9)), *w8 = wt_narrow(ctx, w6, 1, 0, 8), *w4t = wt_transpose(ctx, w8, 0, 1);
    wt_tensor *r[4] = { mm_k(x, y, NULL, WT_MM_TILE64V4W), mm_k(z, zo, NULL, WT_MM_TILE64V4W),
                        mm_k(zt, z, NULL, WT_MM_TILE64V4W), mm_k(z, w4t, NULL, WT_MM_TILE128V4S) };
    for (int i = 0; i < 4; i++) {
        CHECKF(r[i] == NULL, "refusal %d", i);
        wt_release(r[i]);
    }
    CHECKF(strstr(wt_last_error(ctx), "needs row-major operands") != NULL, "%s", wt_last_error(ctx));
    CHECK_EQ_INT(wt_last_status(ctx), WT_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);
    wt_release(big); wt_release(bw); wt_release(av); wt_release(bv);
    wt_release(x); wt_release(y); wt_release(z); wt_release(zt); wt_release(zo); wt_release(w6); wt_release(w8); wt_release(w4t);
}

/* Ragged products through padded copies on the 16-byte kernels (matmul_pad ON takes the path at
 * any size): row-major and x . W^T, bias [N] and [1], f16, views with offsets, 3-D x; then a
 * context whose memory_limit leaves no room for the copies: the product runs in place, right,
 * with no error left and every temporary back in the pool. */
static wt_tensor *ops_of(wt_tensor *r, uint64_t *ops) {
    wt_stats st;
    wt_get_stats(ctx, &st);
    *ops = st.ops - *ops;
    return r;
}

/* Sets the context's policy with one field changed. */
#define SET_POLICY(field, value)                                                   \
    do {                                                                           \
        wt_policy p_;                                                              \
        wt_context_get_policy(ctx, &p_);                                           \
        p_.field = (value);                                                        \
        CHECKF(wt_context_set_policy(ctx, &p_) == WT_OK, "%s", wt_last_error(ctx)); \
    } while (0)

static void test_pad(void) {
    SET_POLICY(matmul_pad, WT_ON);
    static const int64_t sz[][3] = { { 67, 45, 70 }, { 130, 33, 131 }, { 5, 131, 9 }, { 129, 128, 257 } };
    wt_stats s0;
    for (size_t i = 0; i < sizeof sz / sizeof *sz; i++) {
        int64_t M = sz[i][0], K = sz[i][1], N = sz[i][2];
        wt_tensor *a = rnd(WT_F32, WT_SHAPE(M, K)), *b = rnd(WT_F32, WT_SHAPE(K, N)), *w = rnd(WT_F32, WT_SHAPE(N, K));
        wt_tensor *bias = rnd(WT_F32, WT_SHAPE(N)), *b1 = rnd(WT_F32, WT_SHAPE(1));
        char what[96];
        uint64_t ops;
        wt_get_stats(ctx, &s0);
        ops = s0.ops;
        snprintf(what, sizeof what, "padded %lldx%lldx%lld", (long long)M, (long long)K, (long long)N);
        wt_tensor *c = ops_of(wt_matmul(ctx, a, b), &ops);
        check_mm(what, c, a, b, false, NULL);
        CHECKF(ops == 3, "%s: %llu ops (the padded path pads A and B and multiplies)", what,
               (unsigned long long)ops);
        wt_release(c);
        snprintf(what, sizeof what, "padded linear %lldx%lldx%lld bias", (long long)M, (long long)K, (long long)N);
        c = wt_linear(ctx, a, w, bias);
        check_mm(what, c, a, w, true, bias);
        CHECK(c && wt_ndim(c) == 2 && wt_shape(c)[0] == M && wt_shape(c)[1] == N);
        wt_release(c);
        wt_tensor *wtv = wt_transpose(ctx, w, 0, 1);
        c = mm_k(a, wtv, b1, WT_MM_AUTO);
        check_mm("padded a . W^T bias [1]", c, a, w, true, b1);
        wt_release(c);
        wt_get_stats(ctx, &s0);
        ops = s0.ops;
        c = ops_of(mm_k(a, b, NULL, WT_MM_TILE64U), &ops);      /* a forced kernel: in place */
        CHECK_EQ_INT(ops, 1);
        check_mm("forced kernel, not padded", c, a, b, false, NULL);
        wt_release(c);
        wt_release(a); wt_release(b); wt_release(w); wt_release(bias); wt_release(b1); wt_release(wtv);
    }
    {   /* views with odd offsets, a 3-D x, f16 */
        wt_tensor *wide = rnd(WT_F32, WT_SHAPE(70, 51)), *x3 = rnd(WT_F32, WT_SHAPE(2, 33, 50));
        wt_tensor *av = wt_narrow(ctx, wide, 1, 1, 50), *wb = rnd(WT_F32, WT_SHAPE(41, 53));
        wt_tensor *w_in = wt_narrow(ctx, wb, 0, 1, 39);   /* released at once: the view holds the storage */
        wt_tensor *w = wt_narrow(ctx, w_in, 1, 3, 50), *bias = rnd(WT_F32, WT_SHAPE(39));
        wt_release(w_in);
        wt_tensor *c = wt_linear(ctx, av, w, bias);
        check_mm("padded linear, offset views", c, av, w, true, bias);
        wt_release(c);
        c = wt_linear(ctx, x3, w, bias);
        check_mm("padded linear 3-D x", c, x3, w, true, bias);
        CHECK(c && wt_ndim(c) == 3 && wt_shape(c)[2] == 39);
        wt_release(c);
        if (wt_context_has_f16(ctx)) {
            wt_tensor *h = rnd(WT_F16, WT_SHAPE(66, 37)), *g = rnd(WT_F16, WT_SHAPE(37, 71)), *hb = rnd(WT_F16, WT_SHAPE(71));
            c = wt_matmul_ex(ctx, h, g, hb, NULL);
            check_mm("padded f16 bias", c, h, g, false, hb);
            CHECK(c && wt_dtype_of(c) == WT_F16);
            wt_release(c);
            wt_release(h); wt_release(g); wt_release(hb);
        }
        wt_release(wide); wt_release(x3); wt_release(av); wt_release(wb); wt_release(w); wt_release(bias);
    }
    CHECKF(wt_last_status(ctx) == WT_OK, "%s", wt_last_error(ctx));
    /* no room for the copies: in place.  Probe the pool's sizes on an unlimited context first. */
    wt_context *keep = ctx;
    int64_t M = 300, K = 130, N = 301;
    ctx = wt_context_create(wt_context_device(keep), NULL);
    wt_tensor *a = rnd(WT_F32, WT_SHAPE(M, K)), *b = rnd(WT_F32, WT_SHAPE(K, N));
    wt_tensor *o = wt_zeros(ctx, WT_F32, WT_SHAPE(M, N));
    wt_get_stats(ctx, &s0);
    uint64_t limit = s0.allocated_bytes;
    wt_release(a); wt_release(b); wt_release(o);
    wt_context_destroy(ctx);
    ctx = wt_context_create(wt_context_device(keep),
                            &(wt_context_desc){ .memory_limit = limit, .policy = { .matmul_pad = WT_ON } });
    CHECK(ctx != NULL);
    a = rnd(WT_F32, WT_SHAPE(M, K));
    b = rnd(WT_F32, WT_SHAPE(K, N));
    wt_tensor *c = wt_matmul(ctx, a, b);
    CHECKF(c != NULL && wt_last_status(ctx) == WT_OK, "limited: %s", wt_last_error(ctx));
    check_mm("padded path without memory: in place", c, a, b, false, NULL);
    wt_get_stats(ctx, &s0);
    CHECKF(s0.peak_allocated_bytes <= limit, "peak %llu > limit %llu", (unsigned long long)s0.peak_allocated_bytes,
           (unsigned long long)limit);
    CHECK_EQ_INT(s0.live_tensors, 3);
    wt_release(a); wt_release(b); wt_release(c);
    wt_sync(ctx);
    wt_get_stats(ctx, &s0);
    CHECK_EQ_INT(s0.live_tensors, 0);
    CHECK_EQ_INT(s0.live_bytes, 0);
    CHECKF(s0.allocated_bytes == s0.pooled_bytes, "allocated %llu, pooled %llu", (unsigned long long)s0.allocated_bytes,
           (unsigned long long)s0.pooled_bytes);
    wt_context_destroy(ctx);
    ctx = keep;
    SET_POLICY(matmul_pad, WT_AUTO);
}

/* Ragged LM-head shapes on the padded path (matmul_pad ON): K ragged only (dlogits . W), an
 * m-contiguous A with ragged M (dlogits^T . x: A's [K, M] rows padded, then read transposed), an
 * operand already tile-exact and aligned that is read in place (one copy, not two: x . W^T and
 * dlogits^T . x), and K >= 2048 (K padded to a multiple of 128). */
static void test_pad_ragged(void) {
    SET_POLICY(matmul_pad, WT_ON);
    wt_stats s0;
    uint64_t ops;
    {   /* dlogits . W: K ragged */
        wt_tensor *g = rnd(WT_F32, WT_SHAPE(70, 45)), *w = rnd(WT_F32, WT_SHAPE(45, 64));
        wt_tensor *c = wt_matmul(ctx, g, w);
        check_mm("padded K ragged", c, g, w, false, NULL);
        wt_release(c); wt_release(g); wt_release(w);
    }
    {   /* dlogits^T . x: A m-contiguous, M ragged; x [64, 128] is tile-exact: one copy */
        wt_tensor *g = rnd(WT_F32, WT_SHAPE(64, 70)), *x = rnd(WT_F32, WT_SHAPE(64, 128));
        wt_tensor *gt = wt_transpose(ctx, g, 0, 1);
        wt_get_stats(ctx, &s0);
        ops = s0.ops;
        wt_tensor *c = ops_of(wt_matmul(ctx, gt, x), &ops);
        check_mm("padded A^T, M ragged", c, gt, x, false, NULL);
        CHECKF(ops == 2, "A^T M ragged: %llu ops (pad A, multiply)", (unsigned long long)ops);
        CHECK(c && wt_shape(c)[0] == 70 && wt_shape(c)[1] == 128);
        wt_release(c);
        wt_tensor *x2 = rnd(WT_F32, WT_SHAPE(64, 37));          /* both ragged */
        c = wt_matmul(ctx, gt, x2);
        check_mm("padded A^T . B, both ragged", c, gt, x2, false, NULL);
        wt_release(c); wt_release(x2); wt_release(g); wt_release(gt); wt_release(x);
    }
    {   /* x . W^T with x tile-exact: only W is copied */
        wt_tensor *x = rnd(WT_F32, WT_SHAPE(128, 64)), *w = rnd(WT_F32, WT_SHAPE(70, 64));
        wt_get_stats(ctx, &s0);
        ops = s0.ops;
        wt_tensor *c = ops_of(wt_linear(ctx, x, w, NULL), &ops);
        check_mm("padded linear, x exact", c, x, w, true, NULL);
        CHECKF(ops == 2, "x exact: %llu ops (pad W, multiply)", (unsigned long long)ops);
        wt_release(c); wt_release(x); wt_release(w);
    }
    {   /* K >= 2048: Kp a multiple of 128 */
        wt_tensor *a = rnd(WT_F32, WT_SHAPE(60, 2050)), *b = rnd(WT_F32, WT_SHAPE(2050, 64));
        wt_tensor *c = wt_matmul(ctx, a, b);
        check_mm("padded K 2050", c, a, b, false, NULL);
        wt_release(c); wt_release(a); wt_release(b);
    }
    CHECKF(wt_last_status(ctx) == WT_OK, "%s", wt_last_error(ctx));
    SET_POLICY(matmul_pad, WT_AUTO);
}

/* Split-K (tile128x128v4s_sk, tile128x64v4s_sk): few output tiles and a long K run as S partial
 * products summed by one reduction (two ops); row-major, A^T . W^T, batched, f16; with a bias or a
 * short K the row's kernel runs alone (one op). */
static void test_split_k(void) {
    static const wt_mm_kernel sk[2] = { WT_MM_TILE128V4SK, WT_MM_TILE128X64V4SK };
    for (int i = 0; i < 2; i++) {
        const char *kn = wt_mm_kernel_name(sk[i]);
        char what[96];
        wt_stats s0;
        uint64_t ops;
        wt_tensor *a = rnd(WT_F32, WT_SHAPE(64, 2048)), *b = rnd(WT_F32, WT_SHAPE(2048, 72));
        wt_get_stats(ctx, &s0);
        ops = s0.ops;
        wt_tensor *c = ops_of(mm_k(a, b, NULL, sk[i]), &ops);
        snprintf(what, sizeof what, "%s 64x2048x72", kn);
        check_mm(what, c, a, b, false, NULL);
        CHECKF(ops == 2, "%s: %llu ops (partial products, their sum)", what, (unsigned long long)ops);
        wt_release(c);
        wt_tensor *bias = rnd(WT_F32, WT_SHAPE(72));
        wt_get_stats(ctx, &s0);
        ops = s0.ops;
        c = ops_of(mm_k(a, b, bias, sk[i]), &ops);
        snprintf(what, sizeof what, "%s with bias (no split)", kn);
        check_mm(what, c, a, b, false, bias);
        CHECKF(ops == 1, "%s: %llu ops", what, (unsigned long long)ops);
        wt_release(c); wt_release(bias); wt_release(a); wt_release(b);
        /* A^T (m-contiguous) . W^T (k-contiguous), tile-exact: the weight-gradient layout */
        wt_tensor *a0 = rnd(WT_F32, WT_SHAPE(1024, 128)), *w = rnd(WT_F32, WT_SHAPE(64, 1024));
        wt_tensor *at = wt_transpose(ctx, a0, 0, 1), *wt = wt_transpose(ctx, w, 0, 1);
        c = mm_k(at, wt, NULL, sk[i]);
        snprintf(what, sizeof what, "%s A^T.W^T 128x1024x64", kn);
        check_mm(what, c, at, wt, false, NULL);
        wt_release(c); wt_release(a0); wt_release(w); wt_release(at); wt_release(wt);
        /* batched with a broadcast B */
        wt_tensor *a3 = rnd(WT_F32, WT_SHAPE(2, 36, 1024)), *b2 = rnd(WT_F32, WT_SHAPE(1024, 40));
        c = mm_k(a3, b2, NULL, sk[i]);
        snprintf(what, sizeof what, "%s batched 2x36x1024x40", kn);
        check_mm(what, c, a3, b2, false, NULL);
        CHECK(c && wt_ndim(c) == 3);
        wt_release(c); wt_release(a3); wt_release(b2);
        if (wt_context_has_f16(ctx)) {
            wt_tensor *h = rnd(WT_F16, WT_SHAPE(20, 1024)), *g = rnd(WT_F16, WT_SHAPE(1024, 24));
            c = mm_k(h, g, NULL, sk[i]);
            snprintf(what, sizeof what, "%s f16", kn);
            check_mm(what, c, h, g, false, NULL);
            CHECK(c && wt_dtype_of(c) == WT_F16);
            wt_release(c); wt_release(h); wt_release(g);
        }
    }
    CHECKF(wt_last_status(ctx) == WT_OK, "%s", wt_last_error(ctx));
}

static void test_empty(void) {
    wt_tensor *a = wt_zeros(ctx, WT_F32, WT_SHAPE(5, 0)), *b = wt_zeros(ctx, WT_F32, WT_SHAPE(0, 3));
    wt_tensor *c = wt_matmul(ctx, a, b);
    CHECKF(c != NULL, "%s", wt_last_error(ctx));
    if (c) {
        double *v = tt_read(ctx, c);
        int nz = 0;
        for (int i = 0; i < 15; i++)
            nz += v[i] != 0;
        CHECK_EQ_INT(nz, 0);
        CHECK_EQ_INT(wt_numel(c), 15);
        free(v);
    }
    wt_release(c);
    wt_tensor *e = wt_zeros(ctx, WT_F32, WT_SHAPE(0, 4)), *f = rnd(WT_F32, WT_SHAPE(4, 2));
    c = wt_matmul(ctx, e, f);
    CHECK(c && wt_numel(c) == 0 && wt_shape(c)[1] == 2);
    wt_release(c);
    wt_release(a); wt_release(b); wt_release(e); wt_release(f);
}

static void expect_error(wt_tensor *r, wt_status st, const char *part1, const char *part2) {
    CHECK(r == NULL);
    wt_release(r);
    CHECKF(wt_last_status(ctx) == st, "status %s, message '%s'", wt_status_name(wt_last_status(ctx)), wt_last_error(ctx));
    CHECKF(strstr(wt_last_error(ctx), part1) != NULL, "'%s' lacks '%s'", wt_last_error(ctx), part1);
    CHECKF(strstr(wt_last_error(ctx), part2) != NULL, "'%s' lacks '%s'", wt_last_error(ctx), part2);
    wt_clear_error(ctx);
}

static void test_errors(void) {
    wt_tensor *a = rnd(WT_F32, WT_SHAPE(2, 3)), *b = rnd(WT_F32, WT_SHAPE(4, 5));
    expect_error(wt_matmul(ctx, a, b), WT_STATUS_SHAPE, "wt_matmul: shapes [2, 3] and [4, 5]", "inner dims 3 and 4");
    wt_tensor *a3 = rnd(WT_F32, WT_SHAPE(2, 2, 3)), *b3 = rnd(WT_F32, WT_SHAPE(3, 3, 5));
    expect_error(wt_matmul(ctx, a3, b3), WT_STATUS_SHAPE, "[2, 2, 3] and [3, 3, 5]", "not broadcastable");
    wt_tensor *w = rnd(WT_F32, WT_SHAPE(5, 4)), *bias = rnd(WT_F32, WT_SHAPE(4));
    expect_error(wt_linear(ctx, a, w, NULL), WT_STATUS_SHAPE, "wt_linear: shapes [2, 3] and [5, 4]", "weight");
    wt_tensor *x = rnd(WT_F32, WT_SHAPE(2, 4));
    expect_error(wt_linear(ctx, x, w, bias), WT_STATUS_SHAPE, "wt_linear: bias shape [4]", "5 output features");
    wt_tensor *i = wt_zeros(ctx, WT_I32, WT_SHAPE(3, 2));
    expect_error(wt_matmul(ctx, a, i), WT_STATUS_DTYPE, "wt_matmul", "i32");
    wt_tensor *s = wt_scalar(ctx, WT_F32, 1);
    expect_error(wt_matmul(ctx, s, a), WT_STATUS_SHAPE, "wt_matmul", "at least one dim");
    wt_tensor *c = rnd(WT_F32, WT_SHAPE(3, 3));
    expect_error(mm_k(a, c, NULL, WT_MM_MATVEC), WT_STATUS_INVALID_ARGUMENT, "wt_matmul", "matvec");
    expect_error(wt_matmul(ctx, NULL, a), WT_STATUS_NULL_TENSOR, "wt_matmul", "NULL");
    wt_release(a); wt_release(b); wt_release(a3); wt_release(b3); wt_release(w); wt_release(bias);
    wt_release(x); wt_release(i); wt_release(s); wt_release(c);
}

/* The autotuner: a cached choice is read from the file, a new class is tuned ahead
 * (wt_autotune_matmul; a kernel whose check fails is never chosen), the choice is written and
 * then served without timing again; lazy products of new classes tune on first use. */
static char cache_dir[64];

static void test_autotune(void) {
    const char *k0 = wt_autotune_lookup(ctx, 1000, 1000, 1000, 1, WT_F32);     /* from the file */
    CHECKF(k0 && !strcmp(k0, "tile128x128u"), "cached: %s", k0 ? k0 : "none");
    SET_POLICY(tune_min_flop, 1);
    SET_POLICY(fault_tune_reject, "tile128x64w");
    wt_tensor *keep = rnd(WT_F32, WT_SHAPE(4));
    wt_context_set_eager(ctx, true);        /* eager: timed by the host clock */
    CHECK_EQ_INT(wt_autotune_matmul(ctx, 100, 90, 80, 1, WT_F32, false), WT_OK);
    const char *k = wt_autotune_lookup(ctx, 100, 90, 80, 1, WT_F32);
    wt_context_set_eager(ctx, false);
    CHECKF(k && strncmp(k, "tile", 4) == 0 && strcmp(k, "tile128x64w"), "tuned: %s", k ? k : "none");
    CHECKF(wt_last_status(ctx) == WT_OK, "tuning left an error: %s", wt_last_error(ctx));
    wt_stats s0, s1;
    wt_get_stats(ctx, &s0);
    const char *k2 = wt_autotune_lookup(ctx, 127, 65, 100, 1, WT_F32);      /* same class: no timing */
    CHECKF(k && k2 && !strcmp(k, k2), "%s, then %s", k ? k : "none", k2 ? k2 : "none");
    wt_get_stats(ctx, &s1);
    CHECK_EQ_INT(s1.ops - s0.ops, 0);
    /* the file holds the choice */
    char path[256], line[512];
    const uint8_t *u = wg_adapter_get_info(wg_device_get_adapter(wt_context_device(ctx)))->device_uuid;
    int w = snprintf(path, sizeof path, "%s/tune-v4-", cache_dir);
    for (int i = 0; i < 16; i++)
        w += snprintf(path + w, sizeof path - (size_t)w, "%02x", u[i]);
    snprintf(path + w, sizeof path - (size_t)w, ".txt");
    FILE *f = fopen(path, "r");
    CHECKF(f != NULL, "no cache file %s", path);
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "f32:m7:n7:k7:b0:l4 ", 19) && k && !strncmp(line + 19, k, strlen(k)))
            found++;
    if (f)
        fclose(f);
    CHECK_EQ_INT(found, 1);
    /* lazily, on a device with timestamp queries, the candidates are timed on the GPU */
    gpu_fixture g;
    fixture_init(&g, &(wg_device_desc){ .required_features = WG_FEATURE_BIT(WG_FEATURE_TIMESTAMP_QUERY) });
    wt_context *tc = wt_context_create(g.dev, &(wt_context_desc){ .policy = { .cache_dir = cache_dir,
        .tune_min_flop = 1, .fault_tune_reject = "tile128x64w" } });
    CHECK(tc != NULL);
    if (tc) {
        CHECK_EQ_INT(wt_autotune_matmul(tc, 200, 200, 200, 1, WT_F32, false), WT_OK);
        const char *kt = wt_autotune_lookup(tc, 200, 200, 200, 1, WT_F32);
        CHECKF(kt && strncmp(kt, "tile", 4) == 0 && strcmp(kt, "tile128x64w"), "tuned: %s", kt ? kt : "none");
        /* split-K candidates (two dispatches: the partial products, their sum) on the GPU clock too */
        CHECK_EQ_INT(wt_autotune_matmul(tc, 64, 64, 2048, 1, WT_F32, false), WT_OK);
        CHECKF(wt_last_status(tc) == WT_OK, "%s", wt_last_error(tc));
        wt_context_destroy(tc);
    }
    fixture_end(&g);
    f = fopen(path, "r");
    int gpu = 0, wall = 0, sk = 0;
    while (f && fgets(line, sizeof line, f)) {
        gpu += !strncmp(line, "f32:m8:n8:k8:b0:l0 ", 19) && strstr(line, " timer=gpu ") != NULL;
        wall += !strncmp(line, "f32:m7:n7:k7:b0:l4 ", 19) && strstr(line, " timer=wall ") != NULL;
        const char *t = strstr(line, " tile128x64v4s_sk=");
        sk += !strncmp(line, "f32:m6:n6:k11:b0:l0 ", 20) && strstr(line, " timer=gpu ") && t && t[18] != '-';
    }
    if (f)
        fclose(f);
    CHECK_EQ_INT(gpu, 1);
    CHECK_EQ_INT(wall, 1);
    CHECK_EQ_INT(sk, 1);
    /* a product of that class uses the choice and is right */
    wt_tensor *a = rnd(WT_F32, WT_SHAPE(100, 80)), *b = rnd(WT_F32, WT_SHAPE(80, 90));
    wt_tensor *c = wt_matmul(ctx, a, b);
    check_mm("tuned class", c, a, b, false, NULL);
    /* x . W^T (aligned): its own class (l1), tuned on W^T operands, the 16-byte kernels' MB == 1
     * variants among the candidates (they pass the check: one of them may win) */
    wt_tensor *wl = rnd(WT_F32, WT_SHAPE(92, 80));
    wt_context_set_eager(ctx, true);
    wt_tensor *y = wt_linear(ctx, a, wl, NULL);
    wt_context_set_eager(ctx, false);
    check_mm("tuned x.W^T class", y, a, wl, true, NULL);
    CHECKF(wt_last_status(ctx) == WT_OK, "%s", wt_last_error(ctx));
    f = fopen(path, "r");
    int l1 = 0, v4 = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "f32:m7:n7:k7:b0:l1 ", 19)) {
            l1++;
            v4 += strstr(line, " tile128x128v4s=") && !strstr(line, " tile128x128v4s=-");   /* timed: it passed */
        }
    if (f)
        fclose(f);
    CHECK_EQ_INT(l1, 1);
    CHECK_EQ_INT(v4, 1);
    /* A^T . b (A m-contiguous, M a multiple of 4): class l2, the MA == 1 variants timed too */
    wt_tensor *a0 = rnd(WT_F32, WT_SHAPE(80, 100)), *at = wt_transpose(ctx, a0, 0, 1), *b2 = rnd(WT_F32, WT_SHAPE(80, 92));
    wt_context_set_eager(ctx, true);
    wt_tensor *y2 = wt_matmul(ctx, at, b2);
    wt_context_set_eager(ctx, false);
    check_mm("tuned A^T.b class", y2, at, b2, false, NULL);
    f = fopen(path, "r");
    int l2 = 0, v4a = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "f32:m7:n7:k7:b0:l2 ", 19)) {
            l2++;
            v4a += strstr(line, " tile128x128v4s=") && !strstr(line, " tile128x128v4s=-");
        }
    if (f)
        fclose(f);
    CHECK_EQ_INT(l2, 1);
    CHECK_EQ_INT(v4a, 1);
    wt_release(a0); wt_release(at); wt_release(b2); wt_release(y2);
    wt_release(wl); wt_release(y);
    wt_release(a); wt_release(b); wt_release(c); wt_release(keep);
    SET_POLICY(tune_min_flop, 0);
    SET_POLICY(fault_tune_reject, NULL);
}

/* Lines of the tuner's cache file that start with prefix and contain part (NULL: any). */
static int cache_lines(wt_context *c, const char *prefix, const char *part) {
    char path[256], line[512];
    const uint8_t *u = wg_adapter_get_info(wg_device_get_adapter(wt_context_device(c)))->device_uuid;
    int w = snprintf(path, sizeof path, "%s/tune-v4-", cache_dir);
    for (int i = 0; i < 16; i++)
        w += snprintf(path + w, sizeof path - (size_t)w, "%02x", u[i]);
    snprintf(path + w, sizeof path - (size_t)w, ".txt");
    FILE *f = fopen(path, "r");
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += !strncmp(line, prefix, strlen(prefix)) && (!part || strstr(line, part));
    if (f)
        fclose(f);
    return n;
}

/* ops recorded by one wt_matmul of [M, K] . [K, N] on c (1: no tuning inside it), checked. */
static uint64_t matmul_ops(wt_context *c, int64_t M, int64_t N, int64_t K) {
    wt_tensor *a = wt_uniform(c, WT_F32, WT_SHAPE(M, K), -1, 1), *b = wt_uniform(c, WT_F32, WT_SHAPE(K, N), -1, 1);
    wt_stats s0, s1;
    wt_get_stats(c, &s0);
    wt_tensor *r = wt_matmul(c, a, b);
    wt_get_stats(c, &s1);
    wt_context *keep = ctx;
    ctx = c;
    check_mm("tune modes", r, a, b, false, NULL);
    ctx = keep;
    wt_release(a); wt_release(b); wt_release(r);
    return s1.ops - s0.ops;
}

/* The tune modes: FIRST_USE within a budget (a cut tuning is kept in memory, not in the file;
 * wt_autotune_matmul completes it), AHEAD (lazy ops never tune; wt_autotune_matmul does) and OFF
 * (no lookup, no tuning).  Each on its own context and shape class. */
static void test_tune_modes(void) {
    wg_device *dev = wt_context_device(ctx);
    wt_context *c = wt_context_create(dev, &(wt_context_desc){ .policy = { .cache_dir = cache_dir,
        .tune_min_flop = 1, .tune_budget_ms = 1 } });
    CHECK(c != NULL);
    if (c) {
        uint64_t ops = matmul_ops(c, 300, 300, 300);                 /* class f32:m9:n9:k9:b0:l0 */
        CHECKF(ops > 1, "first use: %llu ops (tuning expected)", (unsigned long long)ops);
        const char *k = wt_autotune_lookup(c, 300, 300, 300, 1, WT_F32);
        /* the heuristic's kernel (64 x 64 16-byte tiles for 9 tiles) leads: a 1 ms budget keeps it */
        CHECKF(k != NULL && !strcmp(k, "tile64x64v4w"), "first use within the budget: %s", k ? k : "no choice");
        CHECK_EQ_INT(cache_lines(c, "f32:m9:n9:k9:b0:l0 ", NULL), 0);     /* cut short: not in the file */
        CHECK_EQ_INT(wt_autotune_matmul(c, 300, 300, 300, 1, WT_F32, false), WT_OK);
        CHECK_EQ_INT(cache_lines(c, "f32:m9:n9:k9:b0:l0 ", NULL), 1);
        CHECK_EQ_INT(cache_lines(c, "f32:m9:n9:k9:b0:l0 ", "=-1"), 0);    /* every candidate timed */
        CHECK_EQ_INT(matmul_ops(c, 300, 300, 300), 1);
        CHECKF(wt_last_status(c) == WT_OK, "%s", wt_last_error(c));
        wt_context_destroy(c);
    }
    c = wt_context_create(dev, &(wt_context_desc){ .policy = { .cache_dir = cache_dir, .tune = WT_TUNE_AHEAD } });
    CHECK(c != NULL);
    if (c) {
        CHECK_EQ_INT(matmul_ops(c, 600, 40, 40), 1);                   /* class f32:m10:n6:k6:b0:l0 */
        CHECK(wt_autotune_lookup(c, 600, 40, 40, 1, WT_F32) == NULL);
        CHECK_EQ_INT(wt_autotune_matmul(c, 600, 40, 40, 1, WT_F32, false), WT_OK);
        CHECK(wt_autotune_lookup(c, 600, 40, 40, 1, WT_F32) != NULL);
        CHECK_EQ_INT(cache_lines(c, "f32:m10:n6:k6:b0:l0 ", NULL), 1);
        CHECK_EQ_INT(matmul_ops(c, 600, 40, 40), 1);
        /* x . W^T ahead: its own class (l1) */
        CHECK_EQ_INT(wt_autotune_matmul(c, 600, 40, 40, 1, WT_F32, true), WT_OK);
        CHECK_EQ_INT(cache_lines(c, "f32:m10:n6:k6:b0:l1 ", NULL), 1);
        CHECK_EQ_INT(wt_autotune_matmul(c, 0, 40, 40, 1, WT_F32, false), WT_STATUS_INVALID_ARGUMENT);
        wt_clear_error(c);
        wt_context_destroy(c);
    }
    c = wt_context_create(dev, &(wt_context_desc){ .policy = { .cache_dir = cache_dir, .tune = WT_TUNE_OFF,
        .tune_min_flop = 1 } });
    CHECK(c != NULL);
    if (c) {
        CHECK_EQ_INT(matmul_ops(c, 40, 600, 40), 1);                   /* class f32:m6:n10:k6:b0:l0 */
        CHECK(wt_autotune_lookup(c, 40, 600, 40, 1, WT_F32) == NULL);
        CHECK_EQ_INT(cache_lines(c, "f32:m6:n10:k6:b0:l0 ", NULL), 0);
        wt_context_destroy(c);
    }
}

int main(void) {
    light = test_under_valgrind();   /* the fixture's lost timeout is 20 minutes there */
    /* a private tuning cache with one choice in it, before the first lookup reads it */
    snprintf(cache_dir, sizeof cache_dir, "/tmp/wgc-tune-XXXXXX");
    if (!mkdtemp(cache_dir))
        return 1;
    const wt_context_desc cd = { .policy = { .cache_dir = cache_dir } };
    {
        tt_fixture pf;
        wt_context *pc = tt_init(&pf, &cd);
        const uint8_t *u = wg_adapter_get_info(wg_device_get_adapter(wt_context_device(pc)))->device_uuid;
        char path[256];
        int w = snprintf(path, sizeof path, "%s/tune-v4-", cache_dir);
        for (int i = 0; i < 16; i++)
            w += snprintf(path + w, sizeof path - (size_t)w, "%02x", u[i]);
        snprintf(path + w, sizeof path - (size_t)w, ".txt");
        FILE *f = fopen(path, "w");
        if (f) {
            fputs("f32:m10:n10:k10:b0:l0 tile128x128u tile64x64u=1.0\ngarbage line\n", f);
            fclose(f);
        }
        tt_end(&pf);
    }
    tt_fixture f;
    ctx = tt_init(&f, &cd);
    if (light)
        printf("note: under valgrind: auto and tile64x64 kernels, small shapes, no f16, no autotuning\n");
    test_shapes();
    test_views();
    if (!light) {
        test_batched();
        test_vectors();
        test_f16();
    }
    test_linear();
    if (!light) {
        test_v4();
        test_pad();
        test_pad_ragged();
        test_split_k();
    }
    test_empty();
    test_errors();
    if (!light) {
        test_autotune();
        test_tune_modes();
    }
    tt_end(&f);
    char path[256];
    int w = snprintf(path, sizeof path, "%s/", cache_dir);
    DIR *dir = opendir(cache_dir);
    for (struct dirent *e; dir && (e = readdir(dir));)
        if (e->d_name[0] != '.') {
            snprintf(path + w, sizeof path - (size_t)w, "%.200s", e->d_name);
            remove(path);
        }
    if (dir)
        closedir(dir);
    rmdir(cache_dir);
    return test_end();
}
