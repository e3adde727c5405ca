/* test_nn.c - softmax, log_softmax, layernorm, rmsnorm and rope against plain C references in
 * double precision: every kernel path (vec4 rows held in registers with 32 and 256 lanes per
 * row, strided rows, COL rows over a leading dim, rows longer than the register path), odd
 * sizes, non-contiguous inputs (transposed and sliced views), rows of -inf, f16 where the
 * device has it, rope's two layouts with a position offset, partial rotary dims and a strided
 * input, and errors for bad calls. */
#include "tensor/tensor_test.h"
#include "tensor/internal.h"   /* wt_softmax_flags */

static wt_context *ctx;
static uint64_t seed = 0x2545f4914f6cdd1dull;

static double round_to(wt_dtype dt, double x) {
    return dt == WT_F16 ? wt_f16_to_f32(wt_f32_to_f16((float)x)) : (float)x;
}

/* logical values v (C order of shape) as a tensor: contiguous, or (layout 1) a transposed view
 * of the last two dims, or (layout 2) every other element of a wider last dim */
static wt_tensor *make(wt_dtype dt, int nd, const int64_t *shape, const double *v, int layout) {
    int64_t n = 1;
    for (int i = 0; i < nd; i++)
        n *= shape[i];
    if (layout == 0 || nd < 2)
        return tt_upload(ctx, dt, nd, shape, v);
    int64_t r = shape[nd - 2], k = shape[nd - 1], outer = n / (r * k);
    if (layout == 1) {
        double *t = malloc((size_t)n * sizeof *t);
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < r; i++)
                for (int64_t j = 0; j < k; j++)
                    t[o * r * k + j * r + i] = v[o * r * k + i * k + j];
        int64_t bs[WT_MAX_DIMS];
        memcpy(bs, shape, (size_t)nd * sizeof *bs);
        bs[nd - 2] = k;
        bs[nd - 1] = r;
        wt_tensor *b = tt_upload(ctx, dt, nd, bs, t);
        free(t);
        wt_tensor *view = wt_transpose(ctx, b, -1, -2);
        wt_release(b);
        return view;
    }
    double *t = calloc((size_t)(2 * n + 1), sizeof *t);
    for (int64_t i = 0; i < n; i++)
        t[2 * i] = v[i];
    int64_t bs[WT_MAX_DIMS];
    memcpy(bs, shape, (size_t)nd * sizeof *bs);
    bs[nd - 1] = 2 * k;
    wt_tensor *b = tt_upload(ctx, dt, nd, bs, t);
    free(t);
    wt_tensor *view = wt_slice(ctx, b, -1, 0, 2 * k, 2);
    wt_release(b);
    return view;
}

static double *rand_vals(wt_dtype dt, int64_t n, double lo, double hi) {
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = round_to(dt, tt_rand(&seed, lo, hi));
    return v;
}

static int64_t numel_of(int nd, const int64_t *shape) {
    int64_t n = 1;
    for (int i = 0; i < nd; i++)
        n *= shape[i];
    return n;
}

/* compares y (read back) with ref; abs + rel bound */
static void compare(const char *what, wt_tensor *y, const double *ref, int64_t n, double atol, double rtol) {
    CHECKF(y != NULL, "%s: %s", what, wt_last_error(ctx));
    if (!y)
        return;
    CHECK_EQ_INT(wt_numel(y), n);
    double *g = tt_read(ctx, y);
    int bad = 0;
    for (int64_t i = 0; i < n && bad < 3; i++) {
        double err = fabs(g[i] - ref[i]);
        bool ok = (isnan(ref[i]) && isnan(g[i])) || err <= atol + rtol * fabs(ref[i]);
        if (!ok)
            bad++;
        CHECKF(ok, "%s: element %lld: got %.9g want %.9g", what, (long long)i, g[i], ref[i]);
    }
    free(g);
}

/* ---- softmax ---- */
static void ref_softmax(int nd, const int64_t *shape, int dim, const double *x, double *y, bool logsm) {
    int64_t K = shape[dim], inner = 1, outer = 1;
    for (int d = dim + 1; d < nd; d++)
        inner *= shape[d];
    for (int d = 0; d < dim; d++)
        outer *= shape[d];
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            const double *xr = x + o * K * inner + i;
            double *yr = y + o * K * inner + i;
            double m = -INFINITY, s = 0;
            for (int64_t r = 0; r < K; r++)
                m = fmax(m, xr[r * inner]);
            for (int64_t r = 0; r < K; r++)
                s += exp(xr[r * inner] - m);
            for (int64_t r = 0; r < K; r++)
                yr[r * inner] = logsm ? xr[r * inner] - m - log(s) : exp(xr[r * inner] - m) / s;
        }
}

static void softmax_case(wt_dtype dt, int nd, const int64_t *shape, int dim, int layout, double spread) {
    int64_t n = numel_of(nd, shape);
    double *x = rand_vals(dt, n, -spread, spread);
    double *ref = malloc((size_t)(n ? n : 1) * sizeof *ref);
    char what[160], b[96];
    wt_shape_str(b, sizeof b, nd, shape);
    wt_tensor *t = make(dt, nd, shape, x, layout);
    int d = dim < 0 ? dim + nd : dim;
    for (int logsm = 0; logsm < 2; logsm++) {
        ref_softmax(nd, shape, d, x, ref, logsm);
        snprintf(what, sizeof what, "%s %s %s dim %d layout %d", logsm ? "log_softmax" : "softmax",
                 wt_dtype_name(dt), b, dim, layout);
        wt_tensor *y = logsm ? wt_log_softmax(ctx, t, dim) : wt_softmax(ctx, t, dim);
        double tol = dt == WT_F16 ? 2e-3 : 2e-6;
        compare(what, y, ref, n, tol, dt == WT_F16 ? 4e-3 : 2e-5);
        wt_release(y);
    }
    wt_release(t);
    free(x);
    free(ref);
}

static void test_softmax(wt_dtype dt) {
    softmax_case(dt, WT_SHAPE(3, 5), 1, 0, 4);                 /* odd K: ROW */
    softmax_case(dt, WT_SHAPE(37, 64), -1, 0, 4);              /* vec4, 32 lanes */
    softmax_case(dt, WT_SHAPE(5, 1000), -1, 0, 30);            /* vec4, 256 lanes, 1 slot */
    softmax_case(dt, WT_SHAPE(3, 8192), 1, 0, 30);             /* vec4, 8 slots */
    softmax_case(dt, WT_SHAPE(2, 3, 17), 1, 0, 4);             /* a middle dim: strided ROW */
    softmax_case(dt, WT_SHAPE(300, 70), 0, 0, 4);              /* leading dim: COL */
    softmax_case(dt, WT_SHAPE(4, 9, 12), -1, 1, 4);            /* transposed input */
    softmax_case(dt, WT_SHAPE(4, 9, 12), -1, 2, 4);            /* sliced input (stride 2) */
    softmax_case(dt, WT_SHAPE(2, 20000), -1, 0, 10);           /* past the register path */
    softmax_case(dt, WT_SHAPE(7), 0, 0, 4);                    /* 1-d */
    softmax_case(dt, WT_SHAPE(0, 8), 1, 0, 4);                 /* empty */
}

static void test_softmax_special(void) {
    /* a row with -inf entries, and huge values (the max-subtraction keeps it finite) */
    float x[8] = { 1000, 1001, -INFINITY, 999, -INFINITY, -INFINITY, -INFINITY, -INFINITY };
    wt_tensor *t = wt_from_host(ctx, WT_F32, WT_SHAPE(2, 4), x);
    wt_tensor *y = wt_softmax(ctx, t, 1);
    double s = exp(-1.0) + 1 + exp(-2.0);
    double ref[8] = { exp(-1.0) / s, 1 / s, 0, exp(-2.0) / s, NAN, NAN, NAN, NAN };
    compare("softmax -inf", y, ref, 8, 1e-6, 1e-5);
    wt_release(y);
    /* internal flag used by attention: rows of -inf only give zeros */
    y = wt_softmax_flags(ctx, "test", t, 1, 2);
    double ref2[8] = { exp(-1.0) / s, 1 / s, 0, exp(-2.0) / s, 0, 0, 0, 0 };
    compare("softmax zero-empty", y, ref2, 8, 1e-6, 1e-5);
    wt_release(y);
    wt_release(t);
    wt_tensor *i = wt_arange(ctx, WT_I32, 0, 4, 1);
    CHECK(wt_softmax(ctx, i, 0) == NULL && wt_last_status(ctx) == WT_STATUS_DTYPE);
    CHECK(strstr(wt_last_error(ctx), "wt_softmax") != NULL);
    wt_clear_error(ctx);
    wt_tensor *f = wt_zeros(ctx, WT_F32, WT_SHAPE(2, 3));
    CHECK(wt_log_softmax(ctx, f, 2) == NULL && wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);
    CHECK(wt_softmax(ctx, NULL, 0) == NULL && wt_last_status(ctx) == WT_STATUS_NULL_TENSOR);
    wt_clear_error(ctx);
    wt_release(i);
    wt_release(f);
}

/* ---- norms ---- */
static void ref_norm(int64_t M, int64_t K, const double *x, const double *w, const double *b, double eps, bool rms,
                     double *y) {
    for (int64_t o = 0; o < M; o++) {
        const double *xr = x + o * K;
        double mu = 0, v = 0;
        for (int64_t r = 0; r < K; r++)
            mu += rms ? xr[r] * xr[r] : xr[r];
        mu /= (double)K;
        if (!rms) {
            for (int64_t r = 0; r < K; r++)
                v += (xr[r] - mu) * (xr[r] - mu);
            v /= (double)K;
        }
        double inv = rms ? 1 / sqrt(mu + eps) : 1 / sqrt(v + eps);
        for (int64_t r = 0; r < K; r++) {
            double z = rms ? xr[r] * inv : (xr[r] - mu) * inv;
            y[o * K + r] = z * (w ? w[r] : 1) + (b ? b[r] : 0);
        }
    }
}

static void norm_case(wt_dtype dt, int nd, const int64_t *shape, int layout, bool with_w, bool with_b, double offset) {
    int64_t n = numel_of(nd, shape), K = shape[nd - 1], M = K ? n / K : 0;
    double *x = rand_vals(dt, n, offset - 2, offset + 2);
    double *w = rand_vals(dt, K, 0.5, 1.5), *b = rand_vals(dt, K, -1, 1);
    double *ref = malloc((size_t)(n ? n : 1) * sizeof *ref);
    wt_tensor *t = make(dt, nd, shape, x, layout);
    wt_tensor *wt = with_w ? tt_upload(ctx, dt, WT_SHAPE(K), w) : NULL;
    wt_tensor *bt = with_b ? tt_upload(ctx, dt, WT_SHAPE(K), b) : NULL;
    char what[160], sb[96];
    wt_shape_str(sb, sizeof sb, nd, shape);
    double tol = dt == WT_F16 ? 8e-3 : 1e-5;
    for (int rms = 0; rms < 2; rms++) {
        ref_norm(M, K, x, with_w ? w : NULL, with_b && !rms ? b : NULL, 1e-5, rms, ref);
        snprintf(what, sizeof what, "%s %s %s layout %d w %d b %d", rms ? "rms_norm" : "layer_norm",
                 wt_dtype_name(dt), sb, layout, with_w, with_b);
        wt_tensor *y = rms ? wt_rms_norm(ctx, t, wt, 1e-5) : wt_layer_norm(ctx, t, wt, bt, 1e-5);
        compare(what, y, ref, n, tol, dt == WT_F16 ? 4e-3 : 2e-5);
        wt_release(y);
    }
    wt_release(t);
    wt_release(wt);
    wt_release(bt);
    free(x);
    free(w);
    free(b);
    free(ref);
}

static void test_norms(wt_dtype dt) {
    norm_case(dt, WT_SHAPE(7, 1024), 0, true, true, 0);        /* vec4, 256 lanes */
    norm_case(dt, WT_SHAPE(9, 96), 0, true, false, 3);         /* vec4, 32 lanes, offset mean */
    norm_case(dt, WT_SHAPE(5, 37), 0, true, true, 0);          /* odd K: scalar rows */
    norm_case(dt, WT_SHAPE(3, 4, 40), 1, false, false, 0);     /* transposed input */
    norm_case(dt, WT_SHAPE(6, 64), 2, true, true, 1);          /* sliced input */
    norm_case(dt, WT_SHAPE(2, 8192), 0, true, false, 0);       /* 8 slots */
    norm_case(dt, WT_SHAPE(2, 20004), 0, true, true, 0);       /* past the register path */
}

static void test_norm_errors(void) {
    wt_tensor *x = wt_zeros(ctx, WT_F32, WT_SHAPE(2, 8));
    wt_tensor *w = wt_ones(ctx, WT_F32, WT_SHAPE(7));
    CHECK(wt_layer_norm(ctx, x, w, NULL, 1e-5) == NULL && wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(strstr(wt_last_error(ctx), "wt_layer_norm: weight") != NULL);
    wt_clear_error(ctx);
    CHECK(wt_rms_norm(ctx, x, NULL, -1) == NULL && wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);
    wt_tensor *s = wt_scalar(ctx, WT_F32, 1);
    CHECK(wt_rms_norm(ctx, s, NULL, 1e-5) == NULL && wt_last_status(ctx) == WT_STATUS_SHAPE);
    wt_clear_error(ctx);
    wt_release(x);
    wt_release(w);
    wt_release(s);
}

/* ---- rope ---- */
static void ref_rope(int nd, const int64_t *shape, const double *x, const wt_rope_desc *d, double *y) {
    int64_t n = numel_of(nd, shape), D = shape[nd - 1], rd = d->rotary_dims ? d->rotary_dims : D;
    int sd = d->seq_dim ? d->seq_dim : -2;
    if (sd < 0)
        sd += nd;
    int64_t inner = 1;
    for (int i = nd - 1; i > sd; i--)
        inner *= shape[i];
    double theta = d->theta > 0 ? d->theta : 10000;
    for (int64_t i = 0; i < n; i++) {
        int64_t dd = i % D, row = i - dd;
        if (dd >= rd) {
            y[i] = x[i];
            continue;
        }
        int64_t p, partner;
        bool first;
        if (d->layout == WT_ROPE_HALF) {
            first = dd < rd / 2;
            p = first ? dd : dd - rd / 2;
            partner = first ? dd + rd / 2 : dd - rd / 2;
        } else {
            first = dd % 2 == 0;
            p = dd / 2;
            partner = dd ^ 1;
        }
        double pos = (double)((i / inner) % shape[sd] + d->position_offset);
        double ang = pos * (double)(float)pow(theta, -2.0 * (double)p / (double)rd);
        double c = cos(ang), s = sin(ang), a = x[i], b = x[row + partner];
        y[i] = first ? a * c - b * s : a * c + b * s;
    }
}

static void rope_case(wt_dtype dt, int nd, const int64_t *shape, int layout, wt_rope_desc d) {
    int64_t n = numel_of(nd, shape);
    double *x = rand_vals(dt, n, -1, 1), *ref = malloc((size_t)n * sizeof *ref);
    wt_tensor *t = make(dt, nd, shape, x, layout);
    ref_rope(nd, shape, x, &d, ref);
    wt_tensor *y = wt_rope(ctx, t, &d);
    char what[160], sb[96];
    snprintf(what, sizeof what, "rope %s %s layout %d %s offset %lld rd %lld", wt_dtype_name(dt),
             wt_shape_str(sb, sizeof sb, nd, shape), layout, d.layout == WT_ROPE_HALF ? "half" : "interleaved",
             (long long)d.position_offset, (long long)d.rotary_dims);
    /* the angle pos * inv_freq is rounded to f32 on the GPU: error ~ pos * 2^-24 */
    double tol = dt == WT_F16 ? 4e-3 : 2e-6 + 1e-7 * (double)(d.position_offset + shape[nd - 2]);
    compare(what, y, ref, n, tol, dt == WT_F16 ? 4e-3 : 1e-5);
    wt_release(y);
    wt_release(t);
    free(x);
    free(ref);
}

static void test_rope(wt_dtype dt) {
    for (int lay = 0; lay < 2; lay++) {
        wt_rope_layout L = lay ? WT_ROPE_HALF : WT_ROPE_INTERLEAVED;
        rope_case(dt, WT_SHAPE(2, 3, 5, 8), 0, (wt_rope_desc){ .layout = L });
        rope_case(dt, WT_SHAPE(2, 3, 5, 16), 0, (wt_rope_desc){ .layout = L, .position_offset = 37, .theta = 500 });
        rope_case(dt, WT_SHAPE(1, 2, 7, 12), 0, (wt_rope_desc){ .layout = L, .rotary_dims = 4 });
        rope_case(dt, WT_SHAPE(3, 6, 2), 1, (wt_rope_desc){ .layout = L, .position_offset = 1000 }); /* transposed */
        rope_case(dt, WT_SHAPE(4, 3, 8), 0, (wt_rope_desc){ .layout = L, .seq_dim = -3 });       /* [S, H, D] */
        rope_case(dt, WT_SHAPE(5, 64), 2, (wt_rope_desc){ .layout = L, .position_offset = 4000 });
    }
    wt_tensor *x = wt_zeros(ctx, WT_F32, WT_SHAPE(2, 5));
    CHECK(wt_rope(ctx, x, NULL) == NULL && wt_last_status(ctx) == WT_STATUS_SHAPE);
    wt_clear_error(ctx);
    wt_tensor *x2 = wt_zeros(ctx, WT_F32, WT_SHAPE(2, 4));
    CHECK(wt_rope(ctx, x2, &(wt_rope_desc){ .seq_dim = -1 }) == NULL && wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);
    wt_release(x);
    wt_release(x2);
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    test_softmax(WT_F32);
    test_softmax_special();
    test_norms(WT_F32);
    test_norm_errors();
    test_rope(WT_F32);
    if (test_under_valgrind()) {   /* every kernel compile takes seconds there */
        printf("valgrind: the f32 cases only\n");
    } else if (wt_context_has_f16(ctx)) {
        test_softmax(WT_F16);
        test_norms(WT_F16);
        test_rope(WT_F16);
    } else {
        printf("SKIP: f16 cases (the adapter has no shader-f16)\n");
    }
    tt_end(&f);
    return test_end();
}
