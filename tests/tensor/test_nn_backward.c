/* test_nn_backward.c - the backward kernels of backward.h against plain C references in double
 * precision, each reference written directly as the gradient (conv2d's input gradient as the sum
 * over the forward's contributions, and so on): conv2d (stride, padding, dilation, groups, a
 * strided input and grad, both dw kernels, a dw reduction over more than 65,535 pixels, f16),
 * max pooling (ties, overlapping windows, padding, dilation, indices given or recomputed), avg
 * pooling (count_include_pad both ways), silu, gelu, softmax, log_softmax, layer_norm, rms_norm
 * (f16 too), rope (both layouts), and flash-attention backward (causal, grouped-query, a strided
 * q). */
#include "tensor/tensor_test.h"
#include "tensor/backward.h"

static wt_context *ctx;
static uint64_t seed = 0x2545f4914f6cdd1dull;

static double round_to(wt_dtype dt, double x) {
    return dt == WT_F16 ? wt_f16_to_f32(wt_f32_to_f16((float)x)) : (float)x;
}

static double *rand_vals(wt_dtype dt, int64_t n, double lo, double hi) {
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = round_to(dt, tt_rand(&seed, lo, hi));
    return v;
}

/* Compares t with ref: |got - ref| <= tol * mag[i] + atol (mag NULL: tol * |ref|); counts one
 * check, printing the worst element on failure. */
static void expect_close(const char *what, wt_tensor *t, const double *ref, const double *mag, int64_t n, double tol,
                         double atol) {
    CHECKF(t != NULL, "%s: %s", what, wt_last_error(ctx));
    if (!t)
        return;
    CHECKF(wt_numel(t) == n, "%s: %lld elements, expected %lld", what, (long long)wt_numel(t), (long long)n);
    if (wt_numel(t) != n)
        return;
    double *got = tt_read(ctx, t);
    int64_t bad = -1;
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double e = fabs(got[i] - ref[i]), lim = tol * (mag ? mag[i] : fabs(ref[i])) + atol;
        if (!(e <= lim) && (bad < 0 || e - lim > worst)) {
            bad = i;
            worst = e - lim;
        }
    }
    CHECKF(bad < 0, "%s: element %lld: got %.8g, expected %.8g", what, (long long)bad, bad < 0 ? 0 : got[bad],
           bad < 0 ? 0 : ref[bad]);
    free(got);
}

/* ---- conv2d ---------------------------------------------------------------------------------- */

typedef struct conv_case {
    int64_t N, C, H, W, K, KH, KW, sh, sw, ph, pw, dh, dw, G;
    int layout;      /* 0 contiguous x and dy, 1 x an NHWC buffer permuted, dy every other column */
    wt_dtype dt;
} conv_case;

/* t (values v, NCHW shape s) as layout 0: contiguous, 1: an NHWC buffer permuted to NCHW, 2:
 * every other column of a tensor twice as wide */
static wt_tensor *make4(wt_dtype dt, const int64_t s[4], const double *v, int layout) {
    int64_t N = s[0], C = s[1], H = s[2], W = s[3], n = N * C * H * W;
    if (layout == 0)
        return tt_upload(ctx, dt, 4, s, v);
    double *t = calloc((size_t)(2 * n + 1), sizeof *t);
    wt_tensor *b, *view;
    if (layout == 1) {
        for (int64_t a = 0; a < N; a++)
            for (int64_t c = 0; c < C; c++)
                for (int64_t h = 0; h < H; h++)
                    for (int64_t w = 0; w < W; w++)
                        t[((a * H + h) * W + w) * C + c] = v[((a * C + c) * H + h) * W + w];
        b = tt_upload(ctx, dt, 4, (const int64_t[]){ N, H, W, C }, t);
        view = wt_permute(ctx, b, (const int[]){ 0, 3, 1, 2 });
    } else {
        for (int64_t i = 0; i < n; i++)
            t[2 * i + 1] = v[i];
        b = tt_upload(ctx, dt, 4, (const int64_t[]){ N, C, H, 2 * W }, t);
        view = wt_slice(ctx, b, 3, 1, 2 * W, 2);
    }
    free(t);
    wt_release(b);
    return view;
}

static void conv_case_run(const conv_case *c) {
    int64_t Cg = c->C / c->G, Kg = c->K / c->G;
    int64_t OH = (c->H + 2 * c->ph - c->dh * (c->KH - 1) - 1) / c->sh + 1;
    int64_t OW = (c->W + 2 * c->pw - c->dw * (c->KW - 1) - 1) / c->sw + 1;
    int64_t nx = c->N * c->C * c->H * c->W, nw = c->K * Cg * c->KH * c->KW, ny = c->N * c->K * OH * OW;
    double *x = rand_vals(c->dt, nx, -1, 1), *w = rand_vals(c->dt, nw, -1, 1), *dy = rand_vals(c->dt, ny, -1, 1);
    double *rx = calloc((size_t)nx, sizeof *rx), *mx = calloc((size_t)nx, sizeof *mx);
    double *rw = calloc((size_t)nw, sizeof *rw), *mw = calloc((size_t)nw, sizeof *mw);
    double *rb = calloc((size_t)c->K, sizeof *rb), *mb = calloc((size_t)c->K, sizeof *mb);
    for (int64_t n = 0; n < c->N; n++)
        for (int64_t k = 0; k < c->K; k++)
            for (int64_t oh = 0; oh < OH; oh++)
                for (int64_t ow = 0; ow < OW; ow++) {
                    double g = dy[((n * c->K + k) * OH + oh) * OW + ow];
                    rb[k] += g;
                    mb[k] += fabs(g);
                    for (int64_t ci = 0; ci < Cg; ci++)
                        for (int64_t kh = 0; kh < c->KH; kh++)
                            for (int64_t kw = 0; kw < c->KW; kw++) {
                                int64_t ih = oh * c->sh - c->ph + kh * c->dh, iw = ow * c->sw - c->pw + kw * c->dw;
                                if (ih < 0 || ih >= c->H || iw < 0 || iw >= c->W)
                                    continue;
                                int64_t xi = ((n * c->C + (k / Kg) * Cg + ci) * c->H + ih) * c->W + iw;
                                int64_t wi = ((k * Cg + ci) * c->KH + kh) * c->KW + kw;
                                rx[xi] += g * w[wi];
                                mx[xi] += fabs(g * w[wi]);
                                rw[wi] += g * x[xi];
                                mw[wi] += fabs(g * x[xi]);
                            }
                }
    wt_tensor *tx = make4(c->dt, (const int64_t[]){ c->N, c->C, c->H, c->W }, x, c->layout == 1 ? 1 : 0);
    wt_tensor *tw = tt_upload(ctx, c->dt, 4, (const int64_t[]){ c->K, Cg, c->KH, c->KW }, w);
    wt_tensor *ty = make4(c->dt, (const int64_t[]){ c->N, c->K, OH, OW }, dy, c->layout == 1 ? 2 : 0);
    wt_tensor *gx, *gw, *gb;
    wt_conv2d_desc d = { .stride = { c->sh, c->sw }, .padding = { c->ph, c->pw }, .dilation = { c->dh, c->dw },
                         .groups = c->G };
    wt_status s = wt__conv2d_backward(ctx, tx, tw, ty, &d, &gx, &gw, &gb);
    char what[200];
    snprintf(what, sizeof what, "conv N%lld C%lld %lldx%lld K%lld %lldx%lld s(%lld,%lld) p(%lld,%lld) d(%lld,%lld) g%lld "
             "layout %d %s", (long long)c->N, (long long)c->C, (long long)c->H, (long long)c->W, (long long)c->K,
             (long long)c->KH, (long long)c->KW, (long long)c->sh, (long long)c->sw, (long long)c->ph,
             (long long)c->pw, (long long)c->dh, (long long)c->dw, (long long)c->G, c->layout,
             wt_dtype_name(c->dt));
    CHECKF(s == WT_OK, "%s: %s", what, wt_last_error(ctx));
    double tol = c->dt == WT_F16 ? 2e-3 : 2e-5, atol = c->dt == WT_F16 ? 1e-3 : 1e-6;
    char w2[240];
    if (s == WT_OK) {
        snprintf(w2, sizeof w2, "%s dx", what);
        expect_close(w2, gx, rx, mx, nx, tol, atol);
        snprintf(w2, sizeof w2, "%s dw", what);
        expect_close(w2, gw, rw, mw, nw, tol, atol);
        snprintf(w2, sizeof w2, "%s db", what);
        expect_close(w2, gb, rb, mb, c->K, tol, atol);
        CHECK(wt_dtype_of(gx) == c->dt && wt_dtype_of(gw) == c->dt && wt_dtype_of(gb) == c->dt);
        CHECK(wt_ndim(gw) == 4 && wt_size(gw, 1) == Cg && wt_size(gx, 2) == c->H);
    }
    wt_release(gx);
    wt_release(gw);
    wt_release(gb);
    wt_release(tx);
    wt_release(tw);
    wt_release(ty);
    free(x), free(w), free(dy), free(rx), free(mx), free(rw), free(mw), free(rb), free(mb);
}

static void test_conv(void) {
    static const conv_case cases[] = {
        /* N  C  H  W  K KH KW sh sw ph pw dh dw G layout */
        { 2, 3, 7, 6, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, WT_F32 },   /* stride 1, small: direct dx */
        /* stride 1, 75 M multiply-adds: dx through wt_conv2d (flipped weight), tiled dw */
        { 4, 16, 64, 64, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, WT_F32 },
        { 2, 32, 40, 40, 32, 3, 3, 1, 1, 2, 1, 2, 1, 2, 0, WT_F32 },   /* dilated, 2 groups: direct dx */
        { 2, 4, 9, 8, 6, 3, 2, 2, 3, 1, 0, 1, 1, 2, 0, WT_F32 },   /* strides, groups: direct dx */
        { 1, 3, 10, 9, 5, 3, 3, 1, 2, 2, 1, 2, 1, 1, 1, WT_F32 },  /* dilation, strided x and dy */
        { 2, 6, 6, 7, 6, 3, 3, 2, 1, 1, 2, 1, 2, 6, 0, WT_F32 },   /* depthwise */
        { 1, 2, 5, 5, 3, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, WT_F32 },   /* 1 x 1 */
        { 2, 4, 6, 6, 40, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, WT_F32 },  /* tiled dw (Kg 40, R 36) */
        { 3, 8, 7, 5, 96, 3, 3, 2, 2, 1, 0, 1, 1, 2, 1, WT_F32 },  /* tiled dw, two groups, strided */
        { 2, 3, 6, 6, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, WT_F16 },
        { 1, 4, 5, 7, 64, 3, 3, 2, 1, 1, 1, 1, 1, 1, 0, WT_F16 },  /* f16, tiled dw */
        /* dw summed over 2 x 190 x 190 = 72,200 pixels (> 65,535): chunked */
        { 2, 1, 190, 190, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, WT_F32 },
    };
    bool f16 = wg_device_has_feature(wt_context_device(ctx), WG_FEATURE_SHADER_F16);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (cases[i].dt != WT_F16 || f16)
            conv_case_run(&cases[i]);
    /* errors: grad of the wrong shape, dtypes that differ */
    wt_tensor *x = wt_zeros(ctx, WT_F32, 4, (const int64_t[]){ 1, 2, 5, 5 });
    wt_tensor *w = wt_zeros(ctx, WT_F32, 4, (const int64_t[]){ 3, 2, 3, 3 });
    wt_tensor *dy = wt_zeros(ctx, WT_F32, 4, (const int64_t[]){ 1, 3, 4, 3 });
    wt_tensor *gx = (wt_tensor *)1, *gw = (wt_tensor *)1;
    CHECK(wt__conv2d_backward(ctx, x, w, dy, NULL, &gx, &gw, NULL) == WT_STATUS_SHAPE && !gx && !gw);
    CHECK(strstr(wt_last_error(ctx), "[1, 3, 4, 3]") != NULL);
    wt_release(x);
    wt_release(w);
    wt_release(dy);
}

/* ---- pooling --------------------------------------------------------------------------------- */

typedef struct pool_case {
    int64_t N, C, H, W, kh, kw, sh, sw, ph, pw, dh, dw;
    int layout;
} pool_case;

static void pool_case_run(const pool_case *c, bool max, bool include_pad, bool given) {
    int64_t OH = (c->H + 2 * c->ph - c->dh * (c->kh - 1) - 1) / c->sh + 1;
    int64_t OW = (c->W + 2 * c->pw - c->dw * (c->kw - 1) - 1) / c->sw + 1;
    int64_t nx = c->N * c->C * c->H * c->W, ny = c->N * c->C * OH * OW;
    double *x = malloc((size_t)nx * sizeof *x);
    for (int64_t i = 0; i < nx; i++)   /* few distinct values: ties in most windows */
        x[i] = (double)(int)tt_rand(&seed, 0, 3);
    double *dy = rand_vals(WT_F32, ny, -1, 1), *rx = calloc((size_t)nx, sizeof *rx);
    for (int64_t nc = 0; nc < c->N * c->C; nc++)
        for (int64_t oh = 0; oh < OH; oh++)
            for (int64_t ow = 0; ow < OW; ow++) {
                double g = dy[(nc * OH + oh) * OW + ow];
                int64_t h0 = oh * c->sh - c->ph, w0 = ow * c->sw - c->pw, at = -1, cnt = 0;
                double best = 0;
                for (int64_t kh = 0; kh < c->kh; kh++)
                    for (int64_t kw = 0; kw < c->kw; kw++) {
                        int64_t h = h0 + kh * c->dh, w = w0 + kw * c->dw;
                        if (h < 0 || h >= c->H || w < 0 || w >= c->W)
                            continue;
                        cnt++;
                        double v = x[(nc * c->H + h) * c->W + w];
                        if (at < 0 || v > best) {   /* the first maximum in window order */
                            best = v;
                            at = (nc * c->H + h) * c->W + w;
                        }
                    }
                if (max) {
                    if (at >= 0)
                        rx[at] += g;
                    continue;
                }
                int64_t he = h0 + c->kh < c->H + c->ph ? h0 + c->kh : c->H + c->ph;
                int64_t we = w0 + c->kw < c->W + c->pw ? w0 + c->kw : c->W + c->pw;
                int64_t div = include_pad ? (he - h0) * (we - w0) : cnt;
                for (int64_t kh = 0; kh < c->kh; kh++)
                    for (int64_t kw = 0; kw < c->kw; kw++) {
                        int64_t h = h0 + kh, w = w0 + kw;
                        if (h >= 0 && h < c->H && w >= 0 && w < c->W)
                            rx[(nc * c->H + h) * c->W + w] += g / (double)(div ? div : 1);
                    }
            }
    int64_t xs[4] = { c->N, c->C, c->H, c->W }, ys[4] = { c->N, c->C, OH, OW };
    wt_tensor *tx = make4(WT_F32, xs, x, c->layout);
    wt_tensor *ty = make4(WT_F32, ys, dy, c->layout ? 2 : 0);
    wt_pool2d_desc d = { .kernel = { c->kh, c->kw }, .stride = { c->sh, c->sw }, .padding = { c->ph, c->pw },
                         .dilation = { c->dh, c->dw }, .count_include_pad = include_pad };
    wt_tensor *gx, *ind = NULL;
    if (max) {
        wt_tensor *y = given ? wt_max_pool2d(ctx, tx, &d, &ind) : NULL;
        wt_release(y);
        gx = wt__max_pool2d_backward(ctx, tx, ind, ty, &d);
    } else {
        gx = wt__avg_pool2d_backward(ctx, tx, ty, &d);
    }
    char what[160];
    snprintf(what, sizeof what, "%s pool %lldx%lld k(%lld,%lld) s(%lld,%lld) p(%lld,%lld) d(%lld,%lld)%s%s",
             max ? "max" : "avg", (long long)c->H, (long long)c->W, (long long)c->kh, (long long)c->kw,
             (long long)c->sh, (long long)c->sw, (long long)c->ph, (long long)c->pw, (long long)c->dh,
             (long long)c->dw, max ? (given ? " indices given" : " indices recomputed") : "",
             !max && include_pad ? " count_include_pad" : "");
    expect_close(what, gx, rx, NULL, nx, 1e-6, 1e-6);
    wt_release(gx);
    wt_release(ind);
    wt_release(tx);
    wt_release(ty);
    free(x), free(dy), free(rx);
}

static void test_pool(void) {
    static const pool_case cases[] = {
        { 2, 3, 6, 6, 2, 2, 2, 2, 0, 0, 1, 1, 0 },   /* the CNN's 2 x 2 */
        { 1, 2, 7, 8, 3, 3, 2, 1, 1, 1, 1, 1, 1 },   /* overlapping, padding, strided */
        { 2, 2, 9, 7, 3, 2, 1, 2, 1, 1, 2, 3, 0 },   /* dilation (max only) */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pool_case_run(&cases[i], true, false, true);
        pool_case_run(&cases[i], true, false, false);
        if (cases[i].dh == 1 && cases[i].dw == 1) {
            pool_case_run(&cases[i], false, true, false);
            pool_case_run(&cases[i], false, false, false);
        }
    }
}

/* ---- activations ----------------------------------------------------------------------------- */

static void test_act(void) {
    int64_t shape[2] = { 7, 37 }, n = 7 * 37;
    double *x = rand_vals(WT_F32, n, -5, 5), *dy = rand_vals(WT_F32, n, -1, 1);
    double *rs = malloc((size_t)n * sizeof *rs), *rg = malloc((size_t)n * sizeof *rg);
    for (int64_t i = 0; i < n; i++) {
        double s = 1 / (1 + exp(-x[i]));
        rs[i] = dy[i] * s * (1 + x[i] * (1 - s));
        rg[i] = dy[i] * (0.5 * (1 + erf(x[i] / sqrt(2.0))) + x[i] * exp(-0.5 * x[i] * x[i]) / sqrt(2 * M_PI));
    }
    for (int layout = 0; layout < 2; layout++) {
        wt_tensor *tx = tt_make(ctx, WT_F32, 2, shape, x, layout ? TT_TRANSPOSED : TT_CONTIG);
        wt_tensor *ty = tt_make(ctx, WT_F32, 2, shape, dy, layout ? TT_STRIDED : TT_CONTIG);
        wt_tensor *gs = wt__silu_backward(ctx, tx, ty), *gg = wt__gelu_backward(ctx, tx, ty);
        expect_close(layout ? "silu backward, strided" : "silu backward", gs, rs, NULL, n, 1e-5, 1e-6);
        expect_close(layout ? "gelu backward, strided" : "gelu backward", gg, rg, NULL, n, 1e-5, 1e-6);
        wt_release(gs);
        wt_release(gg);
        wt_release(tx);
        wt_release(ty);
    }
    free(x), free(dy), free(rs), free(rg);
}


/* ---- softmax, norms, rope -------------------------------------------------------------------- */

static void softmax_case(const int64_t *shape, int nd, int dim, bool lsm, wt_dtype dt) {
    int64_t n = 1;
    for (int d = 0; d < nd; d++)
        n *= shape[d];
    int64_t K = shape[dim], I = 1;
    for (int d = dim + 1; d < nd; d++)
        I *= shape[d];
    double *x = rand_vals(dt, n, -3, 3), *dy = rand_vals(dt, n, -1, 1);
    double *y = malloc((size_t)n * sizeof *y), *ref = malloc((size_t)n * sizeof *ref);
    for (int64_t o = 0; o < n / K; o++) {
        int64_t base = (o / I) * K * I + o % I;
        double m = -INFINITY, s = 0, t = 0;
        for (int64_t r = 0; r < K; r++)
            m = fmax(m, x[base + r * I]);
        for (int64_t r = 0; r < K; r++)
            s += exp(x[base + r * I] - m);
        for (int64_t r = 0; r < K; r++) {
            double p = exp(x[base + r * I] - m) / s;
            y[base + r * I] = lsm ? log(p) : p;
            t += lsm ? dy[base + r * I] : dy[base + r * I] * p;
        }
        for (int64_t r = 0; r < K; r++) {
            int64_t i = base + r * I;
            double p = exp(x[i] - m) / s;
            ref[i] = lsm ? dy[i] - p * t : p * (dy[i] - t);
        }
    }
    wt_tensor *tx = tt_upload(ctx, dt, nd, shape, x);
    wt_tensor *ty = lsm ? wt_log_softmax(ctx, tx, dim) : wt_softmax(ctx, tx, dim);
    wt_tensor *tg = tt_make(ctx, dt, nd, shape, dy, TT_TRANSPOSED);
    wt_tensor *dx = lsm ? wt__log_softmax_backward(ctx, ty, tg, dim - nd) : wt__softmax_backward(ctx, ty, tg, dim);
    char what[120];
    snprintf(what, sizeof what, "%s backward, dim %d of %d dims, K %lld %s", lsm ? "log_softmax" : "softmax", dim, nd,
             (long long)K, wt_dtype_name(dt));
    /* f16: y is stored rounded (relative 2^-11), and dx rounded once */
    expect_close(what, dx, ref, NULL, n, dt == WT_F16 ? 4e-3 : 1e-5, dt == WT_F16 ? 2e-3 : 1e-6);
    CHECK(!dx || wt_dtype_of(dx) == dt);
    wt_release(dx);
    wt_release(tx);
    wt_release(ty);
    wt_release(tg);
    free(x), free(dy), free(y), free(ref);
}

static void test_softmax(void) {
    for (int lsm = 0; lsm < 2; lsm++) {
        softmax_case((const int64_t[]){ 3, 5, 70 }, 3, 2, lsm, WT_F32);    /* a workgroup per row */
        softmax_case((const int64_t[]){ 4, 9, 6 }, 3, 1, lsm, WT_F32);     /* a lane per row, inner 6 */
        softmax_case((const int64_t[]){ 300, 2, 3 }, 3, 0, lsm, WT_F32);   /* a leading dim of 300 */
        if (wt_context_has_f16(ctx))
            softmax_case((const int64_t[]){ 6, 90 }, 2, 1, lsm, WT_F16);
    }
}

static void norm_case(int64_t M, int64_t K, bool rms, bool weight, int layout, wt_dtype dt) {
    int64_t n = M * K, shape[2] = { M, K };
    double eps = 1e-5;
    double *x = rand_vals(dt, n, -2, 2), *dy = rand_vals(dt, n, -1, 1), *w = rand_vals(dt, K, 0.5, 1.5);
    double *rx = malloc((size_t)n * sizeof *rx), *rw = calloc((size_t)K, sizeof *rw), *rb = calloc((size_t)K, sizeof *rb);
    double *mw = calloc((size_t)K, sizeof *mw), *mb = calloc((size_t)K, sizeof *mb), *mx = malloc((size_t)n * sizeof *mx);
    for (int64_t m = 0; m < M; m++) {
        const double *xr = x + m * K, *gr = dy + m * K;
        double mu = 0, v = 0;
        for (int64_t k = 0; k < K; k++)
            mu += rms ? 0 : xr[k];
        mu /= (double)K;
        for (int64_t k = 0; k < K; k++)
            v += (xr[k] - mu) * (xr[k] - mu);
        double rstd = 1 / sqrt(v / (double)K + eps), sg = 0, sgx = 0, mag = 0;
        for (int64_t k = 0; k < K; k++) {
            double g = gr[k] * (weight ? w[k] : 1), xh = (xr[k] - mu) * rstd;
            sg += g;
            sgx += g * xh;
            mag += fabs(g) * (1 + fabs(xh));
            rw[k] += gr[k] * xh;
            mw[k] += fabs(gr[k] * xh);
            rb[k] += gr[k];
            mb[k] += fabs(gr[k]);
        }
        for (int64_t k = 0; k < K; k++) {
            double g = gr[k] * (weight ? w[k] : 1), xh = (xr[k] - mu) * rstd;
            rx[m * K + k] = rstd * (g - (rms ? 0 : sg / (double)K) - xh * sgx / (double)K);
            mx[m * K + k] = rstd * (fabs(g) + mag / (double)K);
        }
    }
    wt_tensor *tx = tt_make(ctx, dt, 2, shape, x, layout);
    wt_tensor *tg = tt_make(ctx, dt, 2, shape, dy, layout == TT_CONTIG ? TT_STRIDED : TT_CONTIG);
    wt_tensor *tw = weight ? tt_upload(ctx, dt, 1, &K, w) : NULL;
    wt_tensor *gx, *gw = NULL, *gb = NULL;
    wt_status s = rms ? wt__rms_norm_backward(ctx, tx, tw, tg, eps, &gx, weight ? &gw : NULL)
                      : wt__layer_norm_backward(ctx, tx, tw, tg, eps, &gx, weight ? &gw : NULL, &gb);
    char what[120], w2[160];
    snprintf(what, sizeof what, "%s backward M %lld K %lld%s layout %d %s", rms ? "rms_norm" : "layer_norm",
             (long long)M, (long long)K, weight ? " weight" : "", layout, wt_dtype_name(dt));
    double tol = dt == WT_F16 ? 2e-3 : 2e-5;
    CHECKF(s == WT_OK, "%s: %s", what, wt_last_error(ctx));
    if (s == WT_OK) {
        snprintf(w2, sizeof w2, "%s dx", what);
        expect_close(w2, gx, rx, mx, n, tol, 1e-6);
        CHECK(wt_dtype_of(gx) == dt);
        if (weight) {
            snprintf(w2, sizeof w2, "%s dw", what);
            expect_close(w2, gw, rw, mw, K, tol, 1e-6);
        }
        if (!rms) {
            snprintf(w2, sizeof w2, "%s db", what);
            expect_close(w2, gb, rb, mb, K, tol, 1e-6);
        }
    }
    wt_release(gx);
    wt_release(gw);
    wt_release(gb);
    wt_release(tx);
    wt_release(tg);
    wt_release(tw);
    free(x), free(dy), free(w), free(rx), free(rw), free(rb), free(mw), free(mb), free(mx);
}

static void test_norm(void) {
    for (int rms = 0; rms < 2; rms++) {
        norm_case(9, 37, rms, true, TT_CONTIG, WT_F32);          /* a lane per row */
        norm_case(5, 300, rms, true, TT_TRANSPOSED, WT_F32);     /* a workgroup per row, strided x */
        norm_case(6, 20, rms, false, TT_STRIDED, WT_F32);
        norm_case(3000, 3, rms, true, TT_CONTIG, WT_F32);        /* dw over chunks of rows */
        if (wt_context_has_f16(ctx))
            norm_case(7, 96, rms, true, TT_CONTIG, WT_F16);
    }
    wt_tensor *x = wt_zeros(ctx, WT_F32, 2, (const int64_t[]){ 2, 4 });
    wt_tensor *w = wt_zeros(ctx, WT_F32, 1, (const int64_t[]){ 5 });
    wt_tensor *gx = (wt_tensor *)1;
    CHECK(wt__layer_norm_backward(ctx, x, w, x, 1e-5, &gx, NULL, NULL) == WT_STATUS_SHAPE && !gx);
    wt_release(x);
    wt_release(w);
}

static void rope_case(wt_rope_layout layout, int64_t rd, int64_t off) {
    int64_t B = 2, S = 5, H = 3, D = 8, n = B * S * H * D, shape[4] = { B, S, H, D };
    double *dy = rand_vals(WT_F32, n, -1, 1), *ref = malloc((size_t)n * sizeof *ref);
    for (int64_t i = 0; i < n; i++) {
        int64_t d = i % D, pos = (i / (H * D)) % S + off;
        if (d >= rd) {
            ref[i] = dy[i];
            continue;
        }
        int64_t p, partner;
        bool first;
        if (layout == WT_ROPE_HALF) {
            first = d < rd / 2;
            p = first ? d : d - rd / 2;
            partner = first ? d + rd / 2 : d - rd / 2;
        } else {
            first = d % 2 == 0;
            p = d / 2;
            partner = d ^ 1;
        }
        double a = (double)pos * pow(10000.0, -2.0 * (double)p / (double)rd), c = cos(a), s = sin(a);
        double x0 = dy[i], x1 = dy[i - d + partner];
        ref[i] = first ? x0 * c + x1 * s : x0 * c - x1 * s;   /* the transposed rotation */
    }
    wt_tensor *tg = tt_make(ctx, WT_F32, 4, shape, dy, TT_STRIDED);
    wt_tensor *dx = wt__rope_backward(ctx, tg, &(wt_rope_desc){ .layout = layout, .rotary_dims = rd,
                                                                 .position_offset = off, .seq_dim = 1 });
    char what[80];
    snprintf(what, sizeof what, "rope backward layout %d rotary %lld offset %lld", (int)layout, (long long)rd,
             (long long)off);
    expect_close(what, dx, ref, NULL, n, 1e-5, 1e-5);
    wt_release(dx);
    wt_release(tg);
    free(dy), free(ref);
}

static void test_rope(void) {
    rope_case(WT_ROPE_INTERLEAVED, 8, 0);
    rope_case(WT_ROPE_HALF, 6, 3);
}

/* ---- attention --------------------------------------------------------------------------------- */

typedef struct attn_case {
    int64_t B, H, Hkv, Lq, Lk, D;
    int rank;          /* 4: [B, H, L, D]; 3: [H, L, D] (B 1) */
    bool causal, given, strided_q;
    double scale;      /* 0: 1 / sqrt(D) */
} attn_case;

static wt_tensor *attn_tensor(const attn_case *c, int64_t heads, int64_t L, const double *v, bool strided) {
    int64_t shape[4] = { c->B, heads, L, c->D };
    if (!strided)
        return c->rank == 4 ? tt_upload(ctx, WT_F32, 4, shape, v) : tt_upload(ctx, WT_F32, 3, shape + 1, v);
    /* a [B, L, heads, D] buffer permuted to [B, heads, L, D] */
    int64_t n = c->B * heads * L * c->D;
    double *t = malloc((size_t)n * sizeof *t);
    for (int64_t b = 0; b < c->B; b++)
        for (int64_t h = 0; h < heads; h++)
            for (int64_t l = 0; l < L; l++)
                for (int64_t d = 0; d < c->D; d++)
                    t[((b * L + l) * heads + h) * c->D + d] = v[((b * heads + h) * L + l) * c->D + d];
    wt_tensor *base = tt_upload(ctx, WT_F32, 4, (const int64_t[]){ c->B, L, heads, c->D }, t);
    free(t);
    wt_tensor *view = wt_permute(ctx, base, (const int[]){ 0, 2, 1, 3 });
    wt_release(base);
    return view;
}

static double max_abs(const double *v, int64_t n) {
    double m = 0;
    for (int64_t i = 0; i < n; i++)
        m = fmax(m, fabs(v[i]));
    return m;
}

static void attn_case_run(const attn_case *c) {
    int64_t D = c->D, G = c->H / c->Hkv, nq = c->B * c->H * c->Lq * D, nk = c->B * c->Hkv * c->Lk * D;
    double scale = c->scale != 0 ? c->scale : 1 / sqrt((double)D);
    double *q = rand_vals(WT_F32, nq, -1, 1), *k = rand_vals(WT_F32, nk, -1, 1), *v = rand_vals(WT_F32, nk, -1, 1);
    double *go = rand_vals(WT_F32, nq, -1, 1);
    double *rq = calloc((size_t)nq, sizeof *rq), *rk = calloc((size_t)nk, sizeof *rk), *rv = calloc((size_t)nk, sizeof *rv);
    double *pr = malloc((size_t)c->Lk * sizeof *pr), *ds = malloc((size_t)c->Lk * sizeof *ds);
    for (int64_t b = 0; b < c->B; b++)
        for (int64_t h = 0; h < c->H; h++) {
            int64_t kvh = b * c->Hkv + h / G;
            const double *K = k + kvh * c->Lk * D, *V = v + kvh * c->Lk * D;
            for (int64_t i = 0; i < c->Lq; i++) {
                const double *Q = q + ((b * c->H + h) * c->Lq + i) * D, *dO = go + ((b * c->H + h) * c->Lq + i) * D;
                double m = -INFINITY, sum = 0, delta = 0;
                for (int64_t j = 0; j < c->Lk; j++) {
                    bool vis = !c->causal || j <= i + c->Lk - c->Lq;
                    double sc = 0;
                    for (int64_t d = 0; d < D; d++)
                        sc += Q[d] * K[j * D + d];
                    pr[j] = vis ? sc * scale : -INFINITY;
                    m = fmax(m, pr[j]);
                }
                for (int64_t j = 0; j < c->Lk; j++) {
                    pr[j] = m == -INFINITY ? 0 : exp(pr[j] - m);
                    sum += pr[j];
                }
                for (int64_t j = 0; j < c->Lk; j++) {
                    pr[j] = sum > 0 ? pr[j] / sum : 0;
                    double dp = 0;
                    for (int64_t d = 0; d < D; d++)
                        dp += dO[d] * V[j * D + d];
                    ds[j] = dp;
                    delta += pr[j] * dp;
                }
                for (int64_t j = 0; j < c->Lk; j++) {
                    ds[j] = pr[j] * (ds[j] - delta);
                    for (int64_t d = 0; d < D; d++) {
                        rq[((b * c->H + h) * c->Lq + i) * D + d] += scale * ds[j] * K[j * D + d];
                        rk[(kvh * c->Lk + j) * D + d] += scale * ds[j] * Q[d];
                        rv[(kvh * c->Lk + j) * D + d] += pr[j] * dO[d];
                    }
                }
            }
        }
    wt_tensor *tq = attn_tensor(c, c->H, c->Lq, q, c->strided_q), *tk = attn_tensor(c, c->Hkv, c->Lk, k, false);
    wt_tensor *tv = attn_tensor(c, c->Hkv, c->Lk, v, false), *tg = attn_tensor(c, c->H, c->Lq, go, c->strided_q);
    wt_attention_desc d = { .causal = c->causal, .scale = c->scale };
    wt_tensor *o = c->given ? wt_scaled_dot_product_attention(ctx, tq, tk, tv, &d) : NULL;
    wt_tensor *gq, *gk, *gv;
    wt_status s = wt__attention_backward(ctx, tq, tk, tv, o, tg, &d, &gq, &gk, &gv);
    char what[160], w2[200];
    snprintf(what, sizeof what, "attention backward B%lld H%lld/%lld Lq %lld Lk %lld D %lld%s%s%s",
             (long long)c->B, (long long)c->H, (long long)c->Hkv, (long long)c->Lq, (long long)c->Lk, (long long)D,
             c->causal ? " causal" : "", c->given ? "" : " (output recomputed)", c->strided_q ? " strided q" : "");
    CHECKF(s == WT_OK, "%s: %s", what, wt_last_error(ctx));
    if (s == WT_OK) {
        snprintf(w2, sizeof w2, "%s dq", what);
        expect_close(w2, gq, rq, NULL, nq, 0, 1e-4 * max_abs(rq, nq) + 1e-6);
        snprintf(w2, sizeof w2, "%s dk", what);
        expect_close(w2, gk, rk, NULL, nk, 0, 1e-4 * max_abs(rk, nk) + 1e-6);
        snprintf(w2, sizeof w2, "%s dv", what);
        expect_close(w2, gv, rv, NULL, nk, 0, 1e-4 * max_abs(rv, nk) + 1e-6);
        CHECK(wt_ndim(gk) == c->rank && wt_size(gk, -3) == c->Hkv && wt_size(gv, -2) == c->Lk);
    }
    wt_release(gq);
    wt_release(gk);
    wt_release(gv);
    wt_release(o);
    wt_release(tq);
    wt_release(tk);
    wt_release(tv);
    wt_release(tg);
    free(q), free(k), free(v), free(go), free(rq), free(rk), free(rv), free(pr), free(ds);
}

static void test_attention(void) {
    static const attn_case cases[] = {
        /* B H Hkv Lq Lk D rank causal given strided_q scale */
        { 2, 2, 2, 20, 20, 16, 4, false, true, false, 0 },
        { 1, 4, 2, 37, 37, 40, 4, true, true, true, 0 },     /* GQA, causal, ragged tiles, strided q */
        { 2, 2, 1, 5, 23, 64, 4, true, false, false, 0.3 },  /* fewer queries than keys (a KV cache) */
        { 1, 3, 1, 18, 18, 80, 3, true, true, false, 0 },    /* two head-dim chunks, rank 3 */
        { 1, 2, 2, 24, 9, 8, 4, true, true, false, 0 },      /* more queries than keys: rows see none */
        { 1, 4, 2, 100, 100, 64, 4, true, true, false, 0 },  /* four 32-row tiles each way, GQA, causal */
        { 1, 1, 1, 40, 40, 256, 4, true, false, false, 0 },  /* eight head-dim chunks (the most) */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        attn_case_run(&cases[i]);
    wt_tensor *q = wt_zeros(ctx, WT_F32, 3, (const int64_t[]){ 3, 4, 8 });
    wt_tensor *k = wt_zeros(ctx, WT_F32, 3, (const int64_t[]){ 2, 4, 8 });
    wt_tensor *gq = (wt_tensor *)1;
    CHECK(wt__attention_backward(ctx, q, k, k, NULL, q, NULL, &gq, NULL, NULL) == WT_STATUS_SHAPE && !gq);
    wt_release(q);
    wt_release(k);
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    test_conv();
    test_pool();
    test_act();
    test_softmax();
    test_norm();
    test_rope();
    test_attention();
    tt_end(&f);
    return test_end();
}
