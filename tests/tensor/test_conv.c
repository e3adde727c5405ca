/* test_conv.c - conv2d, maxpool2d and avgpool2d against plain C references in double precision:
 * every conv kernel (implicit GEMM with 128- and 256-pixel tiles, direct) on odd sizes, strides, padding, dilation, groups
 * (depthwise too), with and without bias, more than one 64-channel tile and pixel tile,
 * non-contiguous inputs (an NHWC buffer permuted to NCHW, a sliced view), f16 where the device
 * has it; max pooling values and PyTorch's flat indices (padding, dilation, non-contiguous
 * input), average pooling with and without count_include_pad; errors for bad calls. */
#include "tensor/tensor_test.h"

static wt_context *ctx;
static bool light;   /* under valgrind: fewer cases, f32 only (each kernel build takes seconds) */
static uint64_t seed = 0x9e3779b97f4a7c15ull;

static double round_to(wt_dtype dt, double x) {
    return dt == WT_F16 ? wt_f16_to_f32(wt_f32_to_f16((float)x)) : (float)x;
}

static double *rand_vals(wt_dtype dt, int64_t n) {
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = round_to(dt, tt_rand(&seed, -1, 1));
    return v;
}

/* x [N, C, H, W] values v as a tensor: layout 0 contiguous, 1 an NHWC buffer permuted to NCHW,
 * 2 every other column of a twice-as-wide tensor */
static wt_tensor *make_x(wt_dtype dt, const int64_t s[4], const double *v, int layout) {
    int64_t N = s[0], C = s[1], H = s[2], W = s[3], n = N * C * H * W;
    if (layout == 0)
        return tt_upload(ctx, dt, 4, s, v);
    if (layout == 1) {
        double *t = malloc((size_t)n * sizeof *t);
        for (int64_t a = 0; a < N; a++)
            for (int64_t c = 0; c < C; c++)
                for (int64_t h = 0; h < H; h++)
                    for (int64_t w = 0; w < W; w++)
                        t[((a * H + h) * W + w) * C + c] = v[((a * C + c) * H + h) * W + w];
        wt_tensor *b = tt_upload(ctx, dt, 4, (const int64_t[]){ N, H, W, C }, t);
        free(t);
        wt_tensor *view = wt_permute(ctx, b, (const int[]){ 0, 3, 1, 2 });
        wt_release(b);
        return view;
    }
    double *t = calloc((size_t)(2 * n + 1), sizeof *t);
    for (int64_t i = 0; i < n; i++)
        t[2 * i + 1] = v[i];
    wt_tensor *b = tt_upload(ctx, dt, 4, (const int64_t[]){ N, C, H, 2 * W }, t);
    free(t);
    wt_tensor *view = wt_slice(ctx, b, 3, 1, 2 * W, 2);
    wt_release(b);
    return view;
}

typedef struct conv_case {
    int64_t N, C, H, W, K, KH, KW, sh, sw, ph, pw, dh, dw, groups;
    bool bias;
    int layout;
} conv_case;

static void conv_ref(const conv_case *c, const double *x, const double *w, const double *b, int64_t OH, int64_t OW,
                     double *out, double *mag) {
    int64_t Cg = c->C / c->groups, Kg = c->K / c->groups;
    for (int64_t n = 0; n < c->N; n++)
        for (int64_t k = 0; k < c->K; k++)
            for (int64_t oh = 0; oh < OH; oh++)
                for (int64_t ow = 0; ow < OW; ow++) {
                    double s = b ? b[k] : 0, m = b ? fabs(b[k]) : 0;
                    int64_t g = k / Kg;
                    for (int64_t ci = 0; ci < Cg; ci++)
                        for (int64_t kh = 0; kh < c->KH; kh++)
                            for (int64_t kw = 0; kw < c->KW; kw++) {
                                int64_t ih = oh * c->sh - c->ph + kh * c->dh, iw = ow * c->sw - c->pw + kw * c->dw;
                                if (ih < 0 || ih >= c->H || iw < 0 || iw >= c->W)
                                    continue;
                                double t = x[((n * c->C + g * Cg + ci) * c->H + ih) * c->W + iw] *
                                           w[((k * Cg + ci) * c->KH + kh) * c->KW + kw];
                                s += t;
                                m += fabs(t);
                            }
                    int64_t i = ((n * c->K + k) * OH + oh) * OW + ow;
                    out[i] = s;
                    mag[i] = m;
                }
}

static void conv_check(const char *name, const conv_case *c, wt_dtype dt, wt_conv_impl impl) {
    int64_t Cg = c->C / c->groups;
    int64_t xs[4] = { c->N, c->C, c->H, c->W }, ws[4] = { c->K, Cg, c->KH, c->KW };
    int64_t nx = xs[0] * xs[1] * xs[2] * xs[3], nw = ws[0] * ws[1] * ws[2] * ws[3];
    double *xv = rand_vals(dt, nx), *wv = rand_vals(dt, nw), *bv = rand_vals(dt, c->K);
    wt_tensor *x = make_x(dt, xs, xv, c->layout);
    wt_tensor *w = tt_upload(ctx, dt, 4, ws, wv);
    wt_tensor *b = c->bias ? tt_upload(ctx, dt, 1, &c->K, bv) : NULL;
    wt_tensor *y = wt_conv2d(ctx, x, w, b, &(wt_conv2d_desc){ .stride = { c->sh, c->sw }, .padding = { c->ph, c->pw },
                                                               .dilation = { c->dh, c->dw }, .groups = c->groups,
                                                               .impl = impl });
    CHECKF(y != NULL, "%s: %s", name, wt_last_error(ctx));
    if (y) {
        int64_t OH = (c->H + 2 * c->ph - c->dh * (c->KH - 1) - 1) / c->sh + 1;
        int64_t OW = (c->W + 2 * c->pw - c->dw * (c->KW - 1) - 1) / c->sw + 1;
        CHECK_EQ_INT(wt_ndim(y), 4);
        CHECKF(wt_size(y, 0) == c->N && wt_size(y, 1) == c->K && wt_size(y, 2) == OH && wt_size(y, 3) == OW,
               "%s: output shape", name);
        CHECK(wt_dtype_of(y) == dt);
        int64_t no = c->N * c->K * OH * OW;
        double *ref = malloc((size_t)no * sizeof *ref), *mag = malloc((size_t)no * sizeof *mag);
        conv_ref(c, xv, wv, c->bias ? bv : NULL, OH, OW, ref, mag);
        double *got = tt_read(ctx, y);
        double tol = dt == WT_F16 ? 2e-3 : 2e-6;
        int bad = 0;
        double worst = 0;
        for (int64_t i = 0; i < no; i++) {
            double err = fabs(got[i] - ref[i]), lim = tol * (mag[i] + 1) + (dt == WT_F16 ? fabs(ref[i]) * 1e-3 : 0);
            if (err / (mag[i] + 1) > worst)
                worst = err / (mag[i] + 1);
            if (!(err <= lim) && bad++ < 3)
                fprintf(stderr, "%s: out[%lld] = %.9g, expected %.9g\n", name, (long long)i, got[i], ref[i]);
        }
        CHECKF(bad == 0, "%s: %d of %lld outputs wrong (worst relative error %.3g)", name, bad, (long long)no, worst);
        if (getenv("WGC_TEST_WORST"))
            printf("%s: worst relative error %.3g\n", name, worst);
        free(ref);
        free(mag);
        free(got);
    }
    wt_release(x);
    wt_release(w);
    wt_release(b);
    wt_release(y);
    free(xv);
    free(wv);
    free(bv);
}

static void test_conv(void) {
    static const struct { const char *name; conv_case c; } cases[] = {
        { "3x3 pad 1 bias", { 2, 5, 11, 13, 70, 3, 3, 1, 1, 1, 1, 1, 1, 1, true, 0 } },
        { "stride dilation", { 1, 3, 17, 12, 17, 3, 2, 2, 3, 2, 1, 2, 1, 1, true, 0 } },
        { "groups 2", { 2, 6, 9, 10, 34, 3, 3, 1, 1, 1, 0, 1, 1, 2, false, 0 } },
        { "depthwise", { 2, 8, 10, 9, 8, 3, 3, 1, 1, 1, 1, 1, 1, 8, true, 0 } },
        { "depthwise x2", { 1, 4, 7, 7, 8, 5, 5, 2, 2, 2, 2, 1, 1, 4, false, 0 } },
        { "1x1 no bias", { 3, 20, 5, 7, 24, 1, 1, 1, 1, 0, 0, 1, 1, 1, false, 0 } },
        { "permuted input", { 2, 7, 9, 11, 19, 3, 3, 1, 1, 1, 1, 1, 1, 1, true, 1 } },
        { "sliced input", { 1, 5, 8, 15, 9, 2, 3, 1, 2, 0, 1, 1, 2, 1, true, 2 } },
        { "many pixels", { 2, 3, 20, 19, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, true, 0 } },
        { "2x9 filter (sizes from Params)", { 1, 3, 6, 20, 17, 2, 9, 1, 1, 0, 4, 1, 1, 1, true, 2 } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (light && i != 0 && i != 3 && i != 6)
            continue;
        char nm[96];
        snprintf(nm, sizeof nm, "%s gemm", cases[i].name);
        conv_check(nm, &cases[i].c, WT_F32, WT_CONV_GEMM);
        snprintf(nm, sizeof nm, "%s direct", cases[i].name);
        conv_check(nm, &cases[i].c, WT_F32, WT_CONV_DIRECT);
        if (cases[i].c.KH == 3 && cases[i].c.KW == 3 && cases[i].c.sh == 1 && cases[i].c.sw == 1 &&
            cases[i].c.dh == 1 && cases[i].c.dw == 1 && cases[i].c.groups == 1) {
            snprintf(nm, sizeof nm, "%s winograd", cases[i].name);
            conv_check(nm, &cases[i].c, WT_F32, WT_CONV_WINOGRAD);
        }
        if (i < 2 && !light) {
            snprintf(nm, sizeof nm, "%s auto", cases[i].name);
            conv_check(nm, &cases[i].c, WT_F32, WT_CONV_AUTO);
        }
    }
    if (light) {
        printf("note: under valgrind: no f16 conv\n");
    } else if (wt_context_has_f16(ctx)) {
        conv_check("f16 gemm", &cases[0].c, WT_F16, WT_CONV_GEMM);
        conv_check("f16 gemm many pixels", &cases[8].c, WT_F16, WT_CONV_GEMM);
        conv_check("f16 direct", &cases[3].c, WT_F16, WT_CONV_DIRECT);
    } else {
        printf("SKIP: f16 conv (no shader-f16 on this adapter)\n");
    }
}

/* conv.wgsl's implicit GEMM on more shapes: strides, dilation, groups, views, many K steps and
 * two channel tiles. */
static void test_conv_variants(void) {
    static const conv_case cases[] = {
        { 2, 5, 11, 13, 70, 3, 3, 1, 1, 1, 1, 1, 1, 1, true, 0 },
        { 1, 3, 17, 12, 17, 3, 2, 2, 3, 2, 1, 2, 1, 1, true, 0 },
        { 2, 6, 9, 10, 34, 3, 3, 1, 1, 1, 0, 1, 1, 2, false, 0 },
        { 2, 7, 9, 11, 19, 3, 3, 1, 1, 1, 1, 1, 1, 1, true, 1 },
        { 1, 5, 8, 15, 9, 2, 3, 1, 2, 0, 1, 1, 2, 1, true, 2 },
        { 2, 3, 20, 19, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, true, 0 },
        { 1, 3, 6, 20, 17, 2, 9, 1, 1, 0, 4, 1, 1, 1, true, 2 },
        { 1, 40, 9, 33, 70, 3, 3, 1, 1, 1, 1, 1, 1, 1, true, 0 },     /* R 360: many K steps, 2 channel tiles */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char nm[96];
        snprintf(nm, sizeof nm, "case %zu gemm", i);
        conv_check(nm, &cases[i], WT_F32, WT_CONV_GEMM);
    }
    if (wt_context_has_f16(ctx))
        conv_check("f16 gemm case 0", &cases[0], WT_F16, WT_CONV_GEMM);
}

/* Winograd F(2x2, 3x3) (conv.c's WT_CONV_WINOGRAD) in one chunk and in chunks of one image
 * (wt_policy.winograd_chunk_bytes 1024), on odd sizes (partial 2 x 2 tiles),
 * asymmetric and zero padding, views, deep channel sums; f16; and its refusal of shapes it
 * cannot run.  The bound is the GEMM's (2e-6 of sum |x w| + 1): the transforms only add, subtract
 * and halve (B^T d B sums at most 4 inputs per value, G g G^T at most 9 quarter weights, A^T M A
 * 9 products), so rounding grows by a small constant over the direct sum's; measured worst
 * 1.7e-7 on lavapipe (WGC_TEST_WORST=1 prints it per case); the bench's H200 check uses 1e-5. */
static void test_winograd(void) {
    static const conv_case cases[] = {
        { 2, 5, 11, 13, 70, 3, 3, 1, 1, 1, 1, 1, 1, 1, true, 0 },
        { 3, 33, 9, 14, 40, 3, 3, 1, 1, 0, 2, 1, 1, 1, true, 2 },    /* pad (0, 2), sliced input */
        { 2, 64, 12, 7, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, 1 },   /* C 64: the bench's depth */
        { 1, 130, 5, 6, 9, 3, 3, 1, 1, 2, 1, 1, 1, 1, true, 0 },     /* C 130, 1 x 2 image padded */
    };
    wt_policy pol;
    wt_context_get_policy(ctx, &pol);
    for (size_t c = 0; c < 2; c++) {
        wt_policy pc = pol;
        pc.winograd_chunk_bytes = c ? 1024 : pol.winograd_chunk_bytes;
        CHECK_EQ_INT(wt_context_set_policy(ctx, &pc), WT_OK);
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            if (light && (c || i > 1))
                continue;
            char nm[112];
            snprintf(nm, sizeof nm, "winograd case %zu chunk bytes %llu", i, (unsigned long long)pc.winograd_chunk_bytes);
            conv_check(nm, &cases[i], WT_F32, WT_CONV_WINOGRAD);
        }
        if (wt_context_has_f16(ctx) && !light)
            conv_check("f16 winograd", &cases[1], WT_F16, WT_CONV_WINOGRAD);
    }
    CHECK_EQ_INT(wt_context_set_policy(ctx, &pol), WT_OK);
    static const conv_case no[] = {
        { 1, 4, 8, 8, 4, 3, 3, 2, 1, 1, 1, 1, 1, 1, false, 0 },      /* stride 2 */
        { 1, 4, 8, 8, 4, 3, 3, 1, 1, 1, 1, 1, 2, 1, false, 0 },      /* dilation 2 */
        { 1, 4, 8, 8, 4, 3, 3, 1, 1, 1, 1, 1, 1, 2, false, 0 },      /* groups 2 */
        { 1, 4, 8, 8, 4, 5, 5, 1, 1, 1, 1, 1, 1, 1, false, 0 },      /* 5 x 5 */
    };
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        const conv_case *c = &no[i];
        wt_tensor *x = wt_zeros(ctx, WT_F32, 4, (const int64_t[]){ c->N, c->C, c->H, c->W });
        wt_tensor *w = wt_zeros(ctx, WT_F32, 4, (const int64_t[]){ c->K, c->C / c->groups, c->KH, c->KW });
        wt_tensor *y = wt_conv2d(ctx, x, w, NULL, &(wt_conv2d_desc){ .stride = { c->sh, c->sw },
                                                                      .padding = { c->ph, c->pw },
                                                                      .dilation = { c->dh, c->dw }, .groups = c->groups,
                                                                      .impl = WT_CONV_WINOGRAD });
        CHECKF(y == NULL && wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT &&
                   strstr(wt_last_error(ctx), "winograd needs a 3x3 filter") != NULL,
               "winograd refusal %zu: %s", i, y ? "ran" : wt_last_error(ctx));
        wt_clear_error(ctx);
        wt_release(y);
        wt_release(x);
        wt_release(w);
    }
}

typedef struct pool_case {
    int64_t N, C, H, W, kh, kw, sh, sw, ph, pw, dh, dw;
    int layout;
} pool_case;

static void pool_check(const char *name, const pool_case *c, wt_dtype dt) {
    int64_t xs[4] = { c->N, c->C, c->H, c->W }, nx = c->N * c->C * c->H * c->W;
    double *xv = rand_vals(dt, nx);
    wt_tensor *x = make_x(dt, xs, xv, c->layout);
    wt_pool2d_desc d = { .kernel = { c->kh, c->kw }, .stride = { c->sh, c->sw }, .padding = { c->ph, c->pw },
                         .dilation = { c->dh, c->dw } };
    wt_tensor *idx = NULL;
    wt_tensor *mx = wt_max_pool2d(ctx, x, &d, &idx);
    CHECKF(mx && idx, "%s max: %s", name, wt_last_error(ctx));
    d.dilation[0] = d.dilation[1] = 0;
    wt_tensor *av = c->dh == 1 && c->dw == 1 ? wt_avg_pool2d(ctx, x, &d) : NULL;
    d.count_include_pad = true;
    wt_tensor *ap = c->dh == 1 && c->dw == 1 ? wt_avg_pool2d(ctx, x, &d) : NULL;
    int64_t sh = c->sh ? c->sh : c->kh, sw = c->sw ? c->sw : c->kw;
    int64_t OH = (c->H + 2 * c->ph - c->dh * (c->kh - 1) - 1) / sh + 1;
    int64_t OW = (c->W + 2 * c->pw - c->dw * (c->kw - 1) - 1) / sw + 1;
    if (mx && idx) {
        CHECKF(wt_size(mx, 2) == OH && wt_size(mx, 3) == OW, "%s: output shape", name);
        CHECK(wt_dtype_of(idx) == WT_I32);
        double *gm = tt_read(ctx, mx), *gi = tt_read(ctx, idx);
        double *ga = av ? tt_read(ctx, av) : NULL, *gp = ap ? tt_read(ctx, ap) : NULL;
        int bad = 0;
        double tol = dt == WT_F16 ? 2e-3 : 1e-6;
        for (int64_t p = 0; p < c->N * c->C; p++)
            for (int64_t oh = 0; oh < OH; oh++)
                for (int64_t ow = 0; ow < OW; ow++) {
                    double best = -INFINITY, s = 0;
                    int64_t at = -1, cnt = 0;
                    for (int64_t kh = 0; kh < c->kh; kh++)
                        for (int64_t kw = 0; kw < c->kw; kw++) {
                            int64_t h = oh * sh - c->ph + kh * c->dh, w = ow * sw - c->pw + kw * c->dw;
                            if (h < 0 || h >= c->H || w < 0 || w >= c->W)
                                continue;
                            double v = xv[(p * c->H + h) * c->W + w];
                            if (at < 0 || v > best) {
                                best = v;
                                at = h * c->W + w;
                            }
                            s += v;
                            cnt++;
                        }
                    int64_t o = (p * OH + oh) * OW + ow;
                    if (gm[o] != best || gi[o] != (double)at) {
                        if (bad++ < 3)
                            fprintf(stderr, "%s: max[%lld] = %g at %g, expected %g at %lld\n", name, (long long)o,
                                    gm[o], gi[o], best, (long long)at);
                    }
                    if (ga && !(fabs(ga[o] - s / (double)cnt) <= tol) && bad++ < 3)
                        fprintf(stderr, "%s: avg[%lld] = %g, expected %g\n", name, (long long)o, ga[o], s / (double)cnt);
                    if (gp && !(fabs(gp[o] - s / (double)(c->kh * c->kw)) <= tol) && bad++ < 3)
                        fprintf(stderr, "%s: avg incl pad[%lld] = %g, expected %g\n", name, (long long)o, gp[o],
                                s / (double)(c->kh * c->kw));
                }
        CHECKF(bad == 0, "%s: %d wrong", name, bad);
        free(gm);
        free(gi);
        free(ga);
        free(gp);
    }
    wt_release(x);
    wt_release(mx);
    wt_release(idx);
    wt_release(av);
    wt_release(ap);
    free(xv);
}

static void test_pool(void) {
    static const struct { const char *name; pool_case c; } cases[] = {
        { "3x3 s2 p1", { 2, 3, 11, 12, 3, 3, 2, 2, 1, 1, 1, 1, 0 } },
        { "2x2 default stride", { 1, 4, 9, 8, 2, 2, 0, 0, 0, 0, 1, 1, 0 } },
        { "3x2 s1 p(1,1)", { 2, 2, 7, 6, 3, 2, 1, 1, 1, 1, 1, 1, 1 } },
        { "dilated", { 1, 3, 12, 13, 3, 3, 2, 1, 1, 0, 2, 3, 2 } },
        { "5x5 s3 p2", { 1, 2, 17, 16, 5, 5, 3, 3, 2, 2, 1, 1, 0 } },
    };
    for (size_t i = 0; i < (light ? 1 : sizeof cases / sizeof *cases); i++)
        pool_check(cases[i].name, &cases[i].c, WT_F32);
    if (wt_context_has_f16(ctx) && !light)
        pool_check("f16 3x3 s2 p1", &cases[0].c, WT_F16);
    /* ties: the first maximum in window order; all -inf: the first element */
    double v[16] = { 1, 5, 5, 0, 5, 2, 0, 5, -INFINITY, -INFINITY, 3, 3, -INFINITY, -INFINITY, 3, 3 };
    wt_tensor *x = tt_upload(ctx, WT_F32, 4, (const int64_t[]){ 1, 1, 4, 4 }, v);
    wt_tensor *idx = NULL;
    wt_tensor *m = wt_max_pool2d(ctx, x, &(wt_pool2d_desc){ .kernel = { 2, 2 } }, &idx);
    CHECKF(m && idx, "ties: %s", wt_last_error(ctx));
    if (m && idx) {
        double *gm = tt_read(ctx, m), *gi = tt_read(ctx, idx);
        CHECKF(gm[0] == 5 && gi[0] == 1 && gm[1] == 5 && gi[1] == 2 && isinf(gm[2]) && gm[2] < 0 && gi[2] == 8 &&
                   gm[3] == 3 && gi[3] == 10,
               "ties: %g@%g %g@%g %g@%g %g@%g", gm[0], gi[0], gm[1], gi[1], gm[2], gi[2], gm[3], gi[3]);
        free(gm);
        free(gi);
    }
    wt_release(m);
    wt_release(idx);
    wt_release(x);
}

static void expect_error(const char *what, wt_tensor *t, wt_status st, const char *needle) {
    CHECKF(t == NULL, "%s: succeeded", what);
    wt_release(t);
    CHECKF(wt_last_status(ctx) == st, "%s: status %s (%s)", what, wt_status_name(wt_last_status(ctx)),
           wt_last_error(ctx));
    CHECKF(strstr(wt_last_error(ctx), needle) != NULL, "%s: message '%s' lacks '%s'", what, wt_last_error(ctx),
           needle);
    wt_clear_error(ctx);
}

static void test_errors(void) {
    wt_tensor *x = wt_zeros(ctx, WT_F32, 4, (const int64_t[]){ 1, 4, 5, 5 });
    wt_tensor *x3 = wt_zeros(ctx, WT_F32, 3, (const int64_t[]){ 4, 5, 5 });
    wt_tensor *xi = wt_zeros(ctx, WT_I32, 4, (const int64_t[]){ 1, 4, 5, 5 });
    wt_tensor *w = wt_zeros(ctx, WT_F32, 4, (const int64_t[]){ 6, 4, 3, 3 });
    wt_tensor *w2 = wt_zeros(ctx, WT_F32, 4, (const int64_t[]){ 6, 3, 3, 3 });
    wt_tensor *big = wt_zeros(ctx, WT_F32, 4, (const int64_t[]){ 6, 4, 7, 7 });
    wt_tensor *b = wt_zeros(ctx, WT_F32, 1, (const int64_t[]){ 5 });
    expect_error("3-d input", wt_conv2d(ctx, x3, w, NULL, NULL), WT_STATUS_SHAPE, "wt_conv2d: input [4, 5, 5]");
    expect_error("int input", wt_conv2d(ctx, xi, w, NULL, NULL), WT_STATUS_DTYPE, "wt_conv2d");
    expect_error("channels", wt_conv2d(ctx, x, w2, NULL, NULL), WT_STATUS_SHAPE, "weight [6, 3, 3, 3]");
    expect_error("groups", wt_conv2d(ctx, x, w, NULL, &(wt_conv2d_desc){ .groups = 3 }), WT_STATUS_SHAPE, "groups 3");
    expect_error("bias", wt_conv2d(ctx, x, w, b, NULL), WT_STATUS_SHAPE, "bias [5]");
    expect_error("kernel too big", wt_conv2d(ctx, x, big, NULL, NULL), WT_STATUS_SHAPE, "larger");
    expect_error("stride", wt_conv2d(ctx, x, w, NULL, &(wt_conv2d_desc){ .stride = { -1, 1 } }),
                 WT_STATUS_INVALID_ARGUMENT, "stride");
    expect_error("NULL x", wt_conv2d(ctx, NULL, w, NULL, NULL), WT_STATUS_NULL_TENSOR, "");
    expect_error("pool no desc", wt_max_pool2d(ctx, x, NULL, NULL), WT_STATUS_INVALID_ARGUMENT, "wt_max_pool2d");
    expect_error("pool pad", wt_avg_pool2d(ctx, x, &(wt_pool2d_desc){ .kernel = { 2, 2 }, .padding = { 2, 0 } }),
                 WT_STATUS_INVALID_ARGUMENT, "wt_avg_pool2d: input [1, 4, 5, 5]");
    expect_error("pool 3-d", wt_max_pool2d(ctx, x3, &(wt_pool2d_desc){ .kernel = { 2, 2 } }, NULL), WT_STATUS_SHAPE,
                 "expected 4 dims");
    wt_release(x);
    wt_release(x3);
    wt_release(xi);
    wt_release(w);
    wt_release(w2);
    wt_release(big);
    wt_release(b);
}

int main(void) {
    light = test_under_valgrind();
    if (light)   /* the fixture's lost timeout is 20 minutes there */
        printf("note: under valgrind: three conv shapes, one pool shape, f32 only\n");
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    test_conv();
    if (!light)
        test_conv_variants();
    test_winograd();
    test_pool();
    test_errors();
    tt_end(&f);
    return test_end();
}
