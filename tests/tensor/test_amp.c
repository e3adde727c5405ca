/* test_amp.c - mixed precision (amp.c): autocast's forward of linear, conv2d and attention against
 * an f64 reference of the same math on f16-rounded inputs (f16 tolerances), the f32 list
 * (softmax, layer_norm) giving f32, the setting's scoping and errors; gradients of an autocast
 * model reaching the f32 parameters as f32 against f64; the GradScaler: the scaled loss, a clean
 * step equal bit for bit to a plain step on the unscaled gradients, an injected inf skipping the
 * step on the GPU (parameters and optimizer state bit-identical, for a stateful and a plain
 * optimizer) and halving the scale, growth after growth_interval clean steps, clip_grad_norm
 * after unscale, and the errors.  The digits MLP trained under autocast + scaler to 97% is
 * tests/tensor/test_train_digits.sh's amp run. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "tensor/tensor_test.h"

static wt_context *ctx;
static uint64_t seed = 0x243f6a8885a308d3ull;

static double h16(double v) {   /* v rounded to f16, as autocast's casts round */
    return wt_f16_to_f32(wt_f32_to_f16((float)v));
}

static double *rnd(int64_t n, double lo, double hi, bool round16) {
    double *v = malloc((size_t)n * sizeof *v + 8);
    for (int64_t i = 0; i < n; i++) {
        v[i] = tt_rand(&seed, lo, hi);
        if (round16)
            v[i] = h16(v[i]);
    }
    return v;
}

/* |got - want| <= atol + rtol |want| everywhere; reports the worst */
static void check_close(const char *what, const double *got, const double *want, int64_t n, double atol, double rtol) {
    int bad = 0;
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double e = fabs(got[i] - want[i]), lim = atol + rtol * fabs(want[i]);
        if (!(e <= lim) && bad++ < 4)
            fprintf(stderr, "  %s[%lld]: got %.7g want %.7g\n", what, (long long)i, got[i], want[i]);
        if (e > worst)
            worst = e;
    }
    CHECKF(bad == 0, "%s: %d of %lld outside tolerance (worst %.3g)", what, bad, (long long)n, worst);
}

static uint32_t *bits(wt_tensor *t) {   /* raw f32 words */
    int64_t n = wt_numel(t);
    uint32_t *b = malloc((size_t)n * 4 + 8);
    CHECKF(wt_to_host(ctx, t, b, (size_t)n * 4) == WT_OK, "%s", wt_last_error(ctx));
    return b;
}

static double item(wt_tensor *t) {
    double v = NAN;
    CHECKF(t && wt_item(ctx, t, &v) == WT_OK, "%s", wt_last_error(ctx));
    return v;
}

/* ---- forward under autocast ---- */

/* linear x [M, K] . w [N, K]^T + b and matmul with w's transposed view, under autocast: f16
 * results against f64 on the f16-rounded inputs (sizes from 64 fit the tensor-core kernels,
 * taken where the device has them) */
static void check_linear(int M, int K, int N) {
    double *x = rnd(M * K, -2, 2, false), *w = rnd(N * K, -1, 1, false), *b = rnd(N, -1, 1, false);
    wt_tensor *tx = tt_upload(ctx, WT_F32, WT_SHAPE(M, K), x), *tw = tt_upload(ctx, WT_F32, WT_SHAPE(N, K), w),
              *tb = tt_upload(ctx, WT_F32, WT_SHAPE(N), b);
    CHECK(wt_autocast_dtype(ctx) == WT_DTYPE_DEFAULT);
    wt_dtype was = wt_set_autocast(ctx, WT_F16);
    CHECK(was == WT_DTYPE_DEFAULT && wt_autocast_dtype(ctx) == WT_F16);
    wt_tensor *y = wt_linear(ctx, tx, tw, tb);
    wt_tensor *twt = wt_transpose(ctx, tw, 0, 1);
    wt_tensor *ym = wt_matmul(ctx, tx, twt);   /* a transposed view, read in place */
    wt_set_autocast(ctx, was);
    CHECK(wt_autocast_dtype(ctx) == WT_DTYPE_DEFAULT);
    CHECKF(y && wt_dtype_of(y) == WT_F16, "linear under autocast: %s", y ? wt_dtype_name(wt_dtype_of(y)) : "NULL");
    CHECKF(ym && wt_dtype_of(ym) == WT_F16, "matmul under autocast");
    double *ref = malloc((size_t)(M * N) * sizeof *ref), *refm = malloc((size_t)(M * N) * sizeof *refm);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0;
            for (int k = 0; k < K; k++)
                acc += h16(x[i * K + k]) * h16(w[j * K + k]);
            refm[i * N + j] = acc;
            ref[i * N + j] = acc + h16(b[j]);
        }
    double *gy = tt_read(ctx, y), *gm = tt_read(ctx, ym);
    char what[64];
    snprintf(what, sizeof what, "autocast linear %dx%dx%d", M, K, N);
    check_close(what, gy, ref, M * N, 2e-3, 1e-3);   /* f32 accumulation, f16 result */
    snprintf(what, sizeof what, "autocast matmul %dx%dx%d", M, K, N);
    check_close(what, gm, refm, M * N, 2e-3, 1e-3);
    free(gy), free(gm), free(ref), free(refm);
    wt_tensor *y32 = wt_linear(ctx, tx, tw, tb);   /* off again: f32 */
    CHECK(y32 && wt_dtype_of(y32) == WT_F32);
    wt_release(y), wt_release(ym), wt_release(y32), wt_release(twt);
    free(x), free(w), free(b);
    wt_release(tx), wt_release(tw), wt_release(tb);
}

/* causal attention over q, k, v [1, H, L, D] under autocast against f64 (D 64: the tensor-core
 * flash kernel where the device has one) */
static void check_attention(int H, int L, int D) {
    int n = H * L * D;
    double *q = rnd(n, -1, 1, false), *k = rnd(n, -1, 1, false), *v = rnd(n, -1, 1, false);
    wt_tensor *tq = tt_upload(ctx, WT_F32, WT_SHAPE(1, H, L, D), q), *tk = tt_upload(ctx, WT_F32, WT_SHAPE(1, H, L, D), k),
              *tv = tt_upload(ctx, WT_F32, WT_SHAPE(1, H, L, D), v);
    wt_dtype was = wt_set_autocast(ctx, WT_F16);
    wt_tensor *ay = wt_scaled_dot_product_attention(ctx, tq, tk, tv, &(wt_attention_desc){ .causal = true });
    wt_set_autocast(ctx, was);
    CHECKF(ay && wt_dtype_of(ay) == WT_F16, "attention under autocast: %s", wt_last_error(ctx));
    double *aref = malloc((size_t)n * sizeof *aref), *sc = malloc((size_t)L * sizeof *sc);
    for (int h = 0; h < H; h++)
        for (int i = 0; i < L; i++) {
            double mx = -INFINITY, sum = 0;
            for (int j = 0; j <= i; j++) {
                sc[j] = 0;
                for (int d = 0; d < D; d++)
                    sc[j] += h16(q[(h * L + i) * D + d]) * h16(k[(h * L + j) * D + d]);
                sc[j] /= sqrt((double)D);
                mx = fmax(mx, sc[j]);
            }
            for (int j = 0; j <= i; j++)
                sum += (sc[j] = exp(sc[j] - mx));
            for (int d = 0; d < D; d++) {
                double o = 0;
                for (int j = 0; j <= i; j++)
                    o += sc[j] / sum * h16(v[(h * L + j) * D + d]);
                aref[(h * L + i) * D + d] = o;
            }
        }
    double *ga = tt_read(ctx, ay);
    char what[64];
    snprintf(what, sizeof what, "autocast attention H%d L%d D%d", H, L, D);
    check_close(what, ga, aref, n, 3e-3, 3e-3);   /* probabilities may be f16 */
    free(ga), free(aref), free(sc), free(q), free(k), free(v);
    wt_release(ay), wt_release(tq), wt_release(tk), wt_release(tv);
}

static void test_forward(void) {
    check_linear(5, 12, 7);
    check_linear(32, 64, 48);
    wt_dtype was;
    /* conv2d: x [2, 3, 6, 6], w [4, 3, 3, 3], b [4], padding 1 */
    enum { B = 2, C = 3, H = 6, W = 6, KO = 4 };
    double *cx = rnd(B * C * H * W, -1, 1, false), *cw = rnd(KO * C * 9, -0.5, 0.5, false), *cb = rnd(KO, -1, 1, false);
    wt_tensor *tcx = tt_upload(ctx, WT_F32, WT_SHAPE(B, C, H, W), cx),
              *tcw = tt_upload(ctx, WT_F32, WT_SHAPE(KO, C, 3, 3), cw), *tcb = tt_upload(ctx, WT_F32, WT_SHAPE(KO), cb);
    was = wt_set_autocast(ctx, WT_F16);
    wt_tensor *cy = wt_conv2d(ctx, tcx, tcw, tcb, &(wt_conv2d_desc){ .padding = { 1, 1 } });
    wt_set_autocast(ctx, was);
    CHECKF(cy && wt_dtype_of(cy) == WT_F16, "conv2d under autocast: %s", wt_last_error(ctx));
    double *cref = malloc(B * KO * H * W * sizeof *cref);
    for (int n = 0; n < B; n++)
        for (int o = 0; o < KO; o++)
            for (int i = 0; i < H; i++)
                for (int j = 0; j < W; j++) {
                    double s = h16(cb[o]);
                    for (int c = 0; c < C; c++)
                        for (int u = 0; u < 3; u++)
                            for (int v = 0; v < 3; v++) {
                                int yi = i + u - 1, xj = j + v - 1;
                                if (yi >= 0 && yi < H && xj >= 0 && xj < W)
                                    s += h16(cx[((n * C + c) * H + yi) * W + xj]) * h16(cw[((o * C + c) * 3 + u) * 3 + v]);
                            }
                    cref[((n * KO + o) * H + i) * W + j] = s;
                }
    double *gc = tt_read(ctx, cy);
    check_close("autocast conv2d", gc, cref, B * KO * H * W, 2e-3, 1e-3);
    free(gc), free(cref), free(cx), free(cw), free(cb);
    wt_release(cy), wt_release(tcx), wt_release(tcw), wt_release(tcb);

    check_attention(2, 5, 8);
    check_attention(2, 16, 64);

    /* the f32 list: f16 inputs give f32 results; other ops keep their dtype */
    double sv[12];
    for (int i = 0; i < 12; i++)
        sv[i] = h16(tt_rand(&seed, -3, 3));
    wt_tensor *s16 = tt_upload(ctx, WT_F16, WT_SHAPE(3, 4), sv);
    was = wt_set_autocast(ctx, WT_F16);
    wt_tensor *sm = wt_softmax(ctx, s16, -1), *lsm = wt_log_softmax(ctx, s16, -1);
    wt_tensor *ln = wt_layer_norm(ctx, s16, NULL, NULL, 1e-5), *ex = wt_exp(ctx, s16);
    wt_set_autocast(ctx, was);
    CHECK(sm && wt_dtype_of(sm) == WT_F32 && lsm && wt_dtype_of(lsm) == WT_F32);
    CHECK(ln && wt_dtype_of(ln) == WT_F32 && ex && wt_dtype_of(ex) == WT_F16);
    double sref[12];
    for (int r = 0; r < 3; r++) {
        double mx = -INFINITY, sum = 0;
        for (int c = 0; c < 4; c++)
            mx = fmax(mx, sv[r * 4 + c]);
        for (int c = 0; c < 4; c++)
            sum += exp(sv[r * 4 + c] - mx);
        for (int c = 0; c < 4; c++)
            sref[r * 4 + c] = exp(sv[r * 4 + c] - mx) / sum;
    }
    double *gs = tt_read(ctx, sm);
    check_close("autocast softmax (f32)", gs, sref, 12, 1e-6, 1e-5);   /* f32 precision */
    free(gs);
    /* the losses are on the f32 list: an f32 loss from f16 logits, equal to the f64 reference */
    int32_t tg[3] = { 1, 3, 0 };
    wt_tensor *tt = wt_from_host(ctx, WT_I32, WT_SHAPE(3), tg);
    was = wt_set_autocast(ctx, WT_F16);
    wt_tensor *ce = wt_cross_entropy(ctx, s16, tt, NULL), *mse = wt_mse_loss(ctx, s16, s16, NULL);
    wt_set_autocast(ctx, was);
    CHECKF(ce && wt_dtype_of(ce) == WT_F32 && mse && wt_dtype_of(mse) == WT_F32, "losses under autocast: %s",
           wt_last_error(ctx));
    double cev = NAN, ceref = 0;
    for (int r = 0; r < 3; r++)
        ceref -= log(sref[r * 4 + tg[r]]) / 3;
    CHECKF(ce && wt_item(ctx, ce, &cev) == WT_OK && fabs(cev - ceref) <= 1e-5 * (1 + fabs(ceref)),
           "autocast cross_entropy %.9g, reference %.9g", cev, ceref);
    wt_release(ce), wt_release(mse), wt_release(tt);
    wt_release(s16), wt_release(sm), wt_release(lsm), wt_release(ln), wt_release(ex);

    /* errors: nothing changes */
    CHECK(wt_set_autocast(ctx, WT_F32) == WT_DTYPE_DEFAULT);
    CHECK(wt_last_status(ctx) == WT_STATUS_DTYPE && wt_autocast_dtype(ctx) == WT_DTYPE_DEFAULT);
    CHECKF(strstr(wt_last_error(ctx), "wt_set_autocast") != NULL, "%s", wt_last_error(ctx));
    wt_clear_error(ctx);
}

/* ---- gradients of an autocast model ---- */

static void test_gradients(int M, int K, int N) {
    /* loss = sum(f32(linear(x, w, b))^2) / 2 + sum(f32(conv2d(img, cw))) with autocast around the
     * products: dL/dw = h^T x, dL/db = sum_rows h (h = the f16 product), dL/dcw = sum of the
     * input windows; on the f16-rounded values in f64 */
    double *x = rnd(M * K, -1, 1, true), *w = rnd(N * K, -1, 1, false), *b = rnd(N, -1, 1, false);
    double *img = rnd(2 * 2 * 5 * 5, -1, 1, true), *cw = rnd(3 * 2 * 9, -1, 1, false);
    wt_tensor *tx = tt_upload(ctx, WT_F32, WT_SHAPE(M, K), x), *tw = tt_upload(ctx, WT_F32, WT_SHAPE(N, K), w),
              *tb = tt_upload(ctx, WT_F32, WT_SHAPE(N), b), *ti = tt_upload(ctx, WT_F32, WT_SHAPE(2, 2, 5, 5), img),
              *tcw = tt_upload(ctx, WT_F32, WT_SHAPE(3, 2, 3, 3), cw);
    wt_set_requires_grad(ctx, tw, true);
    wt_set_requires_grad(ctx, tb, true);
    wt_set_requires_grad(ctx, tcw, true);
    wt_dtype was = wt_set_autocast(ctx, WT_F16);
    wt_tensor *h = wt_linear(ctx, tx, tw, tb);
    wt_tensor *c = wt_conv2d(ctx, ti, tcw, NULL, NULL);
    wt_set_autocast(ctx, was);
    wt_tensor *h32 = wt_cast(ctx, h, WT_F32), *c32 = wt_cast(ctx, c, WT_F32);
    wt_tensor *sq = wt_mul(ctx, h32, h32), *s1 = wt_sum(ctx, sq, 0, NULL, false), *half = wt_mul_scalar(ctx, s1, 0.5);
    wt_tensor *s2 = wt_sum(ctx, c32, 0, NULL, false), *loss = wt_add(ctx, half, s2);
    CHECKF(loss && wt_backward(ctx, loss, NULL, NULL) == WT_OK, "backward: %s", wt_last_error(ctx));
    wt_tensor *gw = wt_grad(ctx, tw), *gb = wt_grad(ctx, tb), *gcw = wt_grad(ctx, tcw);
    CHECK(gw && gb && gcw && wt_dtype_of(gw) == WT_F32 && wt_dtype_of(gb) == WT_F32 && wt_dtype_of(gcw) == WT_F32);
    double *hv = calloc((size_t)(M * N), sizeof *hv), *rw = calloc((size_t)(N * K), sizeof *rw);
    double *rb = calloc((size_t)N, sizeof *rb), rc[3 * 2 * 9] = { 0 };
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = h16(b[j]);
            for (int k = 0; k < K; k++)
                s += x[i * K + k] * h16(w[j * K + k]);
            hv[i * N + j] = h16(s);
        }
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            rb[j] += hv[i * N + j];
            for (int k = 0; k < K; k++)
                rw[j * K + k] += hv[i * N + j] * x[i * K + k];
        }
    for (int o = 0; o < 3; o++)
        for (int ci = 0; ci < 2; ci++)
            for (int u = 0; u < 3; u++)
                for (int v = 0; v < 3; v++)
                    for (int n = 0; n < 2; n++)
                        for (int i = 0; i < 3; i++)
                            for (int j = 0; j < 3; j++)
                                rc[((o * 2 + ci) * 3 + u) * 3 + v] += img[((n * 2 + ci) * 5 + i + u) * 5 + j + v];
    double *g1 = tt_read(ctx, gw), *g2 = tt_read(ctx, gb), *g3 = tt_read(ctx, gcw);
    check_close("autocast dL/dw", g1, rw, N * K, 1e-2, 4e-3);   /* f16 gradients through the f16 product */
    check_close("autocast dL/db", g2, rb, N, 1e-2, 4e-3);
    check_close("autocast dL/dconv_w", g3, rc, 3 * 2 * 9, 1e-2, 4e-3);
    free(g1), free(g2), free(g3);
    wt_release(gw), wt_release(gb), wt_release(gcw);
    wt_release(h), wt_release(c), wt_release(h32), wt_release(c32), wt_release(sq), wt_release(s1);
    wt_release(half), wt_release(s2), wt_release(loss);
    wt_release(tx), wt_release(tw), wt_release(tb), wt_release(ti), wt_release(tcw);
    free(x), free(w), free(b), free(img), free(cw), free(hv), free(rw), free(rb);
}

/* ---- GradScaler ---- */

enum { NP = 6 };

static wt_tensor *param(const double *v) {
    wt_tensor *p = tt_upload(ctx, WT_F32, WT_SHAPE(NP), v);
    wt_set_requires_grad(ctx, p, true);
    return p;
}

static wt_optimizer *make_opt(wt_optimizer_kind kind, wt_tensor *p, double momentum) {
    wt_tensor *ps[1] = { p };
    wt_param_group g = { ps, 1, { .lr = 0.1, .momentum = momentum, .weight_decay = 0.01 } };
    wt_optimizer *o = wt_optimizer_create(ctx, &(wt_optimizer_desc){ .kind = kind, .groups = &g, .group_count = 1 });
    CHECKF(o != NULL, "%s", wt_last_error(ctx));
    return o;
}

/* Sets p's .grad to g (host values) times s. */
static void set_grad(wt_tensor *p, const double *g, double s) {
    double v[NP];
    for (int i = 0; i < NP; i++)
        v[i] = g[i] * s;
    wt_tensor *t = tt_upload(ctx, WT_F32, WT_SHAPE(NP), v);
    CHECKF(wt_set_grad(ctx, p, t) == WT_OK, "%s", wt_last_error(ctx));
    wt_release(t);
}

static bool same_bits(wt_tensor *a, wt_tensor *b) {
    uint32_t *x = bits(a), *y = bits(b);
    bool same = !memcmp(x, y, (size_t)wt_numel(a) * 4);
    free(x), free(y);
    return same;
}

static void test_scaler_steps(wt_optimizer_kind kind, double momentum) {
    const char *name = kind == WT_OPTIM_SGD ? (momentum ? "sgd momentum" : "sgd") : "adamw";
    double p0[NP], g[NP];
    for (int i = 0; i < NP; i++)
        p0[i] = tt_rand(&seed, -1, 1), g[i] = tt_rand(&seed, -1, 1);
    wt_tensor *p = param(p0), *q = param(p0);   /* p: through the scaler; q: plain steps */
    wt_optimizer *op = make_opt(kind, p, momentum), *oq = make_opt(kind, q, momentum);
    wt_grad_scaler *sc = wt_grad_scaler_create(ctx, NULL);
    CHECKF(sc != NULL, "%s", wt_last_error(ctx));
    wt_tensor *s = wt_grad_scaler_get_scale(sc);
    CHECK(item(s) == 65536);
    wt_release(s);

    /* two clean steps: the same bits as plain steps on the unscaled gradients (1 / 2^k is exact) */
    for (int step = 0; step < 2; step++) {
        set_grad(p, g, 65536);
        set_grad(q, g, 1);
        CHECKF(wt_grad_scaler_step(sc, op) == WT_OK && wt_grad_scaler_update(sc) == WT_OK, "%s", wt_last_error(ctx));
        CHECKF(wt_optimizer_step_grads(oq) == WT_OK, "%s", wt_last_error(ctx));
    }
    CHECKF(same_bits(p, q), "%s: scaler steps differ from plain steps", name);
    wt_tensor *fi = wt_grad_scaler_found_inf(sc);
    CHECK(item(fi) == 0);
    wt_release(fi);

    /* an inf in the gradient: the step is skipped on the GPU, the scale halves */
    uint32_t *pb = bits(p);
    wt_tensor *st = momentum || kind != WT_OPTIM_SGD
                        ? wt_optimizer_state(op, 0, kind == WT_OPTIM_SGD ? "momentum_buffer" : "exp_avg")
                        : NULL;
    uint32_t *sb = st ? bits(st) : NULL;
    g[2] = INFINITY;
    set_grad(p, g, 65536);
    g[2] = 0.25;
    CHECKF(wt_grad_scaler_unscale(sc, op) == WT_OK, "%s", wt_last_error(ctx));
    CHECK(wt_grad_scaler_unscale(sc, op) == WT_STATUS_INVALID_ARGUMENT);   /* twice before an update */
    CHECKF(strstr(wt_last_error(ctx), "already") != NULL, "%s", wt_last_error(ctx));
    wt_clear_error(ctx);
    fi = wt_grad_scaler_found_inf(sc);
    CHECK(item(fi) == 1);
    CHECKF(wt_grad_scaler_step(sc, op) == WT_OK && wt_grad_scaler_update(sc) == WT_OK, "%s", wt_last_error(ctx));
    uint32_t *pa = bits(p);
    CHECKF(!memcmp(pa, pb, NP * 4), "%s: a step with an inf gradient changed the parameter", name);
    if (st) {
        uint32_t *sa = bits(st);
        CHECKF(!memcmp(sa, sb, NP * 4), "%s: a step with an inf gradient changed the state", name);
        free(sa);
    }
    CHECK(item(fi) == 0);   /* cleared by the update */
    s = wt_grad_scaler_get_scale(sc);
    CHECKF(item(s) == 32768, "%s: scale %g after an overflow (32768 expected)", name, item(s));
    wt_release(s), wt_release(fi), wt_release(st);
    free(pa), free(pb), free(sb);

    /* a NaN likewise */
    pb = bits(p);
    g[0] = NAN;
    set_grad(p, g, 32768);
    g[0] = 0.5;
    CHECKF(wt_grad_scaler_step(sc, op) == WT_OK && wt_grad_scaler_update(sc) == WT_OK, "%s", wt_last_error(ctx));
    pa = bits(p);
    CHECKF(!memcmp(pa, pb, NP * 4), "%s: a step with a NaN gradient changed the parameter", name);
    s = wt_grad_scaler_get_scale(sc);
    CHECK(item(s) == 16384);
    wt_release(s);
    free(pa), free(pb);

    /* a clean step after the two skipped ones: as a plain optimizer that never saw them (torch
     * does not count a skipped step: Adam's bias corrections use t = 3, here computed on the GPU
     * in f32, hence a tolerance) */
    set_grad(p, g, 16384);
    set_grad(q, g, 1);
    CHECKF(wt_grad_scaler_step(sc, op) == WT_OK && wt_grad_scaler_update(sc) == WT_OK, "%s", wt_last_error(ctx));
    CHECKF(wt_optimizer_step_grads(oq) == WT_OK, "%s", wt_last_error(ctx));
    double *vp = tt_read(ctx, p), *vq = tt_read(ctx, q);
    char what[64];
    snprintf(what, sizeof what, "%s: the step after two skipped ones", name);
    check_close(what, vp, vq, NP, 1e-7, 1e-7);
    free(vp), free(vq);
    wt_grad_scaler_destroy(sc);
    wt_optimizer_destroy(op), wt_optimizer_destroy(oq);
    wt_release(p), wt_release(q);
}

static void test_scaler(void) {
    test_scaler_steps(WT_OPTIM_ADAMW, 0);
    test_scaler_steps(WT_OPTIM_SGD, 0.9);
    test_scaler_steps(WT_OPTIM_SGD, 0);

    /* growth: interval 3, init 4, growth 4: x4 after the third clean step, tracker reset; an
     * overflow resets the tracker too */
    double p0[NP] = { 1, 2, 3, 4, 5, 6 }, g[NP] = { 0.5, -0.5, 1, -1, 2, -2 };
    wt_tensor *p = param(p0);
    wt_optimizer *o = make_opt(WT_OPTIM_SGD, p, 0);
    wt_grad_scaler *sc = wt_grad_scaler_create(ctx, &(wt_grad_scaler_desc){ .init_scale = 4, .growth_factor = 4,
                                                                            .growth_interval = 3 });
    double want[] = { 4, 4, 16, 8, 8, 8, 32 };   /* after each update; step 3 overflows */
    for (int k = 0; k < 7; k++) {
        wt_tensor *s = wt_grad_scaler_get_scale(sc);
        double cur = item(s);
        wt_release(s);
        double gg[NP];
        memcpy(gg, g, sizeof gg);
        if (k == 3)
            gg[1] = INFINITY;
        set_grad(p, gg, cur);
        CHECKF(wt_grad_scaler_step(sc, o) == WT_OK && wt_grad_scaler_update(sc) == WT_OK, "%s", wt_last_error(ctx));
        s = wt_grad_scaler_get_scale(sc);
        CHECKF(item(s) == want[k], "growth: scale %g after update %d, want %g", item(s), k + 1, want[k]);
        wt_release(s);
    }

    /* the scaled loss: loss * scale, its gradient through the scale */
    wt_tensor *w = param(p0);
    wt_tensor *l = wt_sum(ctx, w, 0, NULL, false), *ls = wt_grad_scaler_scale(sc, l);
    CHECK(ls && wt_dtype_of(ls) == WT_F32 && item(ls) == 21 * 32.0);
    CHECKF(wt_backward(ctx, ls, NULL, NULL) == WT_OK, "%s", wt_last_error(ctx));
    wt_tensor *gw = wt_grad(ctx, w);
    double *gv = tt_read(ctx, gw);
    CHECK(gv[0] == 32 && gv[5] == 32);
    free(gv);
    wt_release(gw), wt_release(l), wt_release(ls), wt_release(w);

    /* clip_grad_norm after unscale sees the true gradients */
    set_grad(p, g, 32);
    CHECKF(wt_grad_scaler_unscale(sc, o) == WT_OK, "%s", wt_last_error(ctx));
    wt_tensor *norm = wt_optimizer_clip_grad_norm(o, 1.0, 2);
    double n2 = 0;
    for (int i = 0; i < NP; i++)
        n2 += g[i] * g[i];
    CHECKF(fabs(item(norm) - sqrt(n2)) < 1e-5, "clip after unscale: norm %g, want %g", item(norm), sqrt(n2));
    wt_release(norm);
    wt_tensor *gp = wt_grad(ctx, p);
    double *gpv = tt_read(ctx, gp), want_g[NP];
    for (int i = 0; i < NP; i++)
        want_g[i] = g[i] / (sqrt(n2) + 1e-6);
    check_close("clipped after unscale", gpv, want_g, NP, 1e-6, 1e-5);
    free(gpv);
    wt_release(gp);
    uint32_t *before = bits(p);
    CHECKF(wt_grad_scaler_step(sc, o) == WT_OK && wt_grad_scaler_update(sc) == WT_OK, "%s", wt_last_error(ctx));
    uint32_t *after = bits(p);
    CHECK(memcmp(before, after, NP * 4) != 0);   /* stepped: no second unscale, no skip */
    free(before), free(after);

    /* errors */
    CHECK(!wt_grad_scaler_create(ctx, &(wt_grad_scaler_desc){ .backoff_factor = 1.5 }));
    CHECKF(strstr(wt_last_error(ctx), "backoff_factor") != NULL, "%s", wt_last_error(ctx));
    wt_clear_error(ctx);
    wt_tensor *iv = wt_arange(ctx, WT_I32, 0, 3, 1);
    CHECK(!wt_grad_scaler_scale(sc, iv) && wt_last_status(ctx) == WT_STATUS_DTYPE);
    wt_clear_error(ctx);
    wt_release(iv);
    wt_grad_scaler_destroy(sc);
    wt_optimizer_destroy(o);
    wt_release(p);
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    if (!wt_context_has_f16(ctx)) {
        fprintf(stderr, "FAIL: the device has no shader-f16: autocast cannot be tested\n");
        tt_end(&f);
        return 1;
    }
    test_forward();
    test_gradients(6, 10, 4);
    /* with a GradScaler alive the backward's f16 products take the tensor cores where the device
     * has them (sizes that fit: K, M, N multiples of 16) */
    wt_grad_scaler *live = wt_grad_scaler_create(ctx, NULL);
    test_gradients(32, 64, 48);
    wt_grad_scaler_destroy(live);
    test_scaler();
    /* a scaler outliving its context: destroyed after it, with no crash or leak */
    wt_context *c2 = wt_context_create(f.g.dev, &(wt_context_desc){ .allocator = test_allocator(&f.ta) });
    wt_grad_scaler *orphan = c2 ? wt_grad_scaler_create(c2, NULL) : NULL;
    CHECK(orphan != NULL);
    wt_context_destroy(c2);
    wt_grad_scaler_destroy(orphan);
    CHECKF(wt_last_status(ctx) == WT_OK, "%s", wt_last_error(ctx));
    CHECK_EQ_INT(wt_grad_node_count(ctx), 0);
    tt_end(&f);
    return test_end();
}
