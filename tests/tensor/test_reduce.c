/* test_reduce.c - the reductions (sum, mean, prod, max, min, argmax, argmin, var, std) and cumsum
 * against a plain C reference in double precision with per-op error bounds: f32, i32 (and f16
 * where the device has it), random shapes with sizes that are not multiples of the workgroup
 * size, 0-d tensors, empty tensors and empty reductions, non-contiguous inputs (transposed views,
 * strided slices), several dims, negative dims,
 * keepdim; long reductions that take the segmented two-pass path in both layouts (ROW and COL);
 * NaN propagation and first-index ties; and errors for bad calls. */
#include "tensor/tensor_test.h"

static wt_context *ctx;
static uint64_t seed = 0x9e3779b97f4a7c15ull;
static int reported;
static bool light;   /* under valgrind: f32, fewer shapes and ops (each kernel compile takes seconds) */

enum { OP_SUM, OP_MEAN, OP_PROD, OP_MAX, OP_MIN, OP_ARGMAX, OP_ARGMIN, OP_VAR, OP_STD, OP_COUNT };
static const char *op_names[OP_COUNT] = { "sum", "mean", "prod", "max", "min", "argmax", "argmin", "var", "std" };

typedef struct case_ {
    int ndim;
    int64_t shape[WT_MAX_DIMS];
    int64_t n;
    double *v;            /* logical values, C order, rounded to the dtype */
} case_;

static double round_to(wt_dtype dt, double x) {
    switch (dt) {
    case WT_F32: return (float)x;
    case WT_F16: return wt_f16_to_f32(wt_f32_to_f16((float)x));
    case WT_I32: return (double)(int32_t)x;
    default: return x;
    }
}

static wt_tensor *make(wt_dtype dt, const case_ *c, int layout) {
    return tt_make(ctx, dt, c->ndim, c->shape, c->v, layout);
}

/* Reference of op over the dims in red[] for every output; out[o], also |x| sums in mag[o]. */
static void reference(int op, const case_ *c, const bool *red, double correction, double *out, double *mag,
                      int64_t *mcount, int64_t *kcount) {
    int64_t M = 1, K = 1;
    for (int d = 0; d < c->ndim; d++) {
        if (red[d])
            K *= c->shape[d];
        else
            M *= c->shape[d];
    }
    *mcount = M;
    *kcount = K;
    for (int64_t o = 0; o < M; o++) {
        /* multi-index of output o over kept dims, then walk the reduced dims in C order */
        int64_t kidx[WT_MAX_DIMS] = { 0 }, rem = o;
        for (int d = c->ndim - 1; d >= 0; d--)
            if (!red[d]) {
                kidx[d] = rem % c->shape[d];
                rem /= c->shape[d];
            }
        double acc = op == OP_PROD ? 1 : 0, m = 0, best = 0, s = 0;
        int64_t bi = -1;
        double *vals = malloc((size_t)(K ? K : 1) * sizeof *vals);
        for (int64_t r = 0; r < K; r++) {
            int64_t idx[WT_MAX_DIMS], rr = r;
            for (int d = c->ndim - 1; d >= 0; d--) {
                if (red[d]) {
                    idx[d] = rr % c->shape[d];
                    rr /= c->shape[d];
                } else {
                    idx[d] = kidx[d];
                }
            }
            int64_t li = 0;
            for (int d = 0; d < c->ndim; d++)
                li = li * c->shape[d] + idx[d];
            double x = c->v[li];
            vals[r] = x;
            s += x;
            m += fabs(x);
            acc = op == OP_PROD ? acc * x : acc + x;
            bool pick = bi < 0;
            if (!pick) {
                if (isnan(best))
                    pick = false;
                else if (isnan(x))
                    pick = true;
                else if (op == OP_MAX || op == OP_ARGMAX)
                    pick = x > best;
                else
                    pick = x < best;
            }
            if (pick) {
                best = x;
                bi = r;
            }
        }
        double v;
        switch (op) {
        case OP_SUM: case OP_PROD: v = acc; break;
        case OP_MEAN: v = K ? s / (double)K : NAN; break;
        case OP_MAX: case OP_MIN: v = best; break;
        case OP_ARGMAX: case OP_ARGMIN: v = (double)bi; break;
        default: {
            double mu = K ? s / (double)K : NAN, ss = 0;
            for (int64_t r = 0; r < K; r++)
                ss += (vals[r] - mu) * (vals[r] - mu);
            double den = (double)K - correction;
            v = den > 0 ? ss / den : ss == 0 ? NAN : INFINITY;
            if (op == OP_STD)
                v = sqrt(v);
            m = ss;
        }
        }
        free(vals);
        out[o] = v;
        mag[o] = m;
    }
}

static wt_tensor *run_op(int op, wt_tensor *t, int nd, const int *dims, bool keep, double corr) {
    switch (op) {
    case OP_SUM: return wt_sum(ctx, t, nd, dims, keep);
    case OP_MEAN: return wt_mean(ctx, t, nd, dims, keep);
    case OP_PROD: return wt_prod(ctx, t, nd, dims, keep);
    case OP_MAX: return wt_max(ctx, t, nd, dims, keep);
    case OP_MIN: return wt_min(ctx, t, nd, dims, keep);
    case OP_ARGMAX: return wt_argmax(ctx, t, nd, dims, keep);
    case OP_ARGMIN: return wt_argmin(ctx, t, nd, dims, keep);
    case OP_VAR: return wt_var(ctx, t, nd, dims, corr, keep);
    default: return wt_std(ctx, t, nd, dims, corr, keep);
    }
}

static wt_dtype out_dtype(int op, wt_dtype in) {
    switch (op) {
    case OP_SUM: case OP_PROD: return in == WT_BOOL ? WT_I32 : in;
    case OP_MAX: case OP_MIN: return in;
    case OP_ARGMAX: case OP_ARGMIN: return WT_I32;
    default: return (in == WT_F32 || in == WT_F16) ? in : WT_F32;
    }
}

/* Runs op on c (dtype dt, layout) over dims and compares with the reference. */
static void check_case(int op, wt_dtype dt, const case_ *c, int layout, int nd, const int *dims, bool keep, double corr) {
    char what[200];
    int m = snprintf(what, sizeof what, "%s %s layout %d shape [", op_names[op], wt_dtype_name(dt), layout);
    for (int d = 0; d < c->ndim; d++)
        m += snprintf(what + m, sizeof what - (size_t)m, "%s%lld", d ? "," : "", (long long)c->shape[d]);
    m += snprintf(what + m, sizeof what - (size_t)m, "] dims (");
    for (int i = 0; i < nd; i++)
        m += snprintf(what + m, sizeof what - (size_t)m, "%s%d", i ? "," : "", dims[i]);
    snprintf(what + m, sizeof what - (size_t)m, ")%s", keep ? " keepdim" : "");

    bool red[WT_MAX_DIMS] = { 0 };
    for (int d = 0; d < c->ndim; d++)
        red[d] = nd == 0;
    for (int i = 0; i < nd; i++)
        if (c->ndim)
            red[dims[i] < 0 ? dims[i] + c->ndim : dims[i]] = true;
    int64_t M, K;
    int64_t cap = 1;
    for (int d = 0; d < c->ndim; d++)
        cap *= red[d] ? 1 : c->shape[d];
    double *want = malloc((size_t)cap * sizeof *want), *mag = malloc((size_t)cap * sizeof *mag);
    reference(op, c, red, corr, want, mag, &M, &K);

    wt_tensor *t = make(dt, c, layout);
    wt_tensor *r = run_op(op, t, nd, dims, keep, corr);
    CHECKF(r != NULL, "%s: %s", what, wt_last_error(ctx));
    if (r) {
        wt_dtype odt = out_dtype(op, dt);
        CHECKF(wt_dtype_of(r) == odt, "%s: dtype %s", what, wt_dtype_name(wt_dtype_of(r)));
        /* output shape */
        int64_t es[WT_MAX_DIMS];
        int en = 0;
        for (int d = 0; d < c->ndim; d++)
            if (!red[d])
                es[en++] = c->shape[d];
            else if (keep)
                es[en++] = 1;
        CHECKF(wt_ndim(r) == en && (en == 0 || !memcmp(wt_shape(r), es, (size_t)en * sizeof *es)), "%s: shape", what);
        CHECK_EQ_INT(wt_numel(r), M);
        double *got = tt_read(ctx, r);
        int64_t bad = 0;
        double ulp = odt == WT_F16 ? 1e-3 : 2e-6;
        for (int64_t o = 0; o < M; o++) {
            double w = want[o], g = got[o], tol;
            switch (op) {
            case OP_SUM: tol = odt == WT_I32 ? 0 : ulp * fabs(w) + 4e-6 * mag[o] + 1e-30; break;
            case OP_MEAN: tol = ulp * fabs(w) + 4e-6 * mag[o] / (double)(K ? K : 1) + 1e-30; break;
            case OP_PROD: tol = odt == WT_I32 ? 0 : (ulp + 2e-7 * (double)K) * fabs(w) + 1e-30; break;
            case OP_VAR: case OP_STD: tol = ulp * fabs(w) + 1e-4 * fabs(w) + 1e-6; break;
            default: tol = 0;
            }
            if (dt == WT_I32 && op == OP_SUM)
                w = (double)(int32_t)(int64_t)w;
            if (odt == WT_F16 && fabs(w) > 65520)
                w = w > 0 ? INFINITY : -INFINITY;   /* beyond f16's range */
            bool ok = isnan(w) ? isnan(g) : isinf(w) ? g == w : fabs(g - w) <= tol;
            if (!ok && bad++ < 3 && reported++ < 40)
                fprintf(stderr, "%s: output %lld: got %.9g want %.9g (tol %.3g)\n", what, (long long)o, g, w, tol);
        }
        CHECKF(bad == 0, "%s: %lld of %lld outputs wrong", what, (long long)bad, (long long)M);
        free(got);
    }
    wt_release(r);
    wt_release(t);
    free(want);
    free(mag);
}

static void fill(case_ *c, wt_dtype dt, int ndim, const int64_t *shape, double lo, double hi, bool integral) {
    c->ndim = ndim;
    c->n = 1;
    for (int i = 0; i < ndim; i++) {
        c->shape[i] = shape[i];
        c->n *= shape[i];
    }
    c->v = realloc(c->v, (size_t)(c->n + 1) * sizeof *c->v);
    for (int64_t i = 0; i < c->n; i++) {
        double x = tt_rand(&seed, lo, hi);
        if (integral)
            x = floor(x);
        c->v[i] = round_to(dt, x);
    }
}

/* Random shapes and dim sets, every op, every layout. */
static void test_random(wt_dtype dt) {
    static const int64_t shapes[][5] = {
        { 1, 7 }, { 1, 300 }, { 2, 37, 5 }, { 2, 5, 513 }, { 3, 3, 4, 70 }, { 3, 65, 2, 9 },
        { 4, 2, 3, 5, 7 }, { 2, 1, 257 }, { 2, 600, 3 }, { 2, 0, 5 }, { 1, 1 },
    };
    case_ c = { 0 };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        if (light && s % 3)
            continue;
        int nd = (int)shapes[s][0];
        bool integral = dt == WT_I32;
        for (int op = 0; op < OP_COUNT; op++) {
            if (dt == WT_I32 && (op == OP_VAR || op == OP_STD) && s % 2)
                continue;
            if (light && op != OP_SUM && op != OP_MAX && op != OP_ARGMIN && op != OP_VAR)
                continue;
            double lo = -8, hi = 8;
            if (op == OP_PROD) {
                lo = integral ? -1 : 0.8;
                hi = integral ? 3 : 1.25;
            }
            fill(&c, dt, nd, shapes[s] + 1, lo, hi, integral);
            bool empty = c.n == 0;
            int layout = (int)((s + (size_t)op) % TT_LAYOUT_COUNT);
            /* all dims; one dim (negative sometimes); two dims */
            if (!(empty && op >= OP_MAX && op <= OP_ARGMIN))
                check_case(op, dt, &c, layout, 0, NULL, false, 1);
            int d0 = (int)(tt_rand(&seed, 0, nd));
            if (op % 2)
                d0 -= nd;
            bool e1 = shapes[s][1 + (d0 < 0 ? d0 + nd : d0)] == 0;
            if (!(e1 && op >= OP_MAX && op <= OP_ARGMIN))
                check_case(op, dt, &c, (layout + 1) % TT_LAYOUT_COUNT, 1, &d0, op % 3 == 0, op == OP_VAR ? 0 : 1);
            if (nd >= 3 && op != OP_ARGMAX && op != OP_ARGMIN && !empty) {
                int two[2] = { 0, -1 };
                check_case(op, dt, &c, (layout + 2) % TT_LAYOUT_COUNT, 2, two, op % 2 == 0, 1);
            }
        }
    }
    free(c.v);
}

/* Long reductions: segmented ROW (whole tensor, long rows) and COL (a long leading dim). */
static void test_long(void) {
    case_ c = { 0 };
    fill(&c, WT_F32, 1, (const int64_t[]){ 300001 }, -1, 1, false);
    for (int op = 0; op < OP_COUNT; op++)
        check_case(op, WT_F32, &c, TT_CONTIG, 0, NULL, false, 1);
    fill(&c, WT_F32, 2, (const int64_t[]){ 40000, 3 }, -1, 1, false);
    for (int op = 0; op < OP_COUNT; op++) {
        int d = 0;
        check_case(op, WT_F32, &c, TT_CONTIG, 1, &d, false, 1);
    }
    check_case(OP_SUM, WT_F32, &c, TT_TRANSPOSED, 1, (const int[]){ 0 }, true, 1);
    check_case(OP_ARGMIN, WT_F32, &c, TT_STRIDED, 1, (const int[]){ 0 }, false, 1);
    fill(&c, WT_I32, 2, (const int64_t[]){ 3, 70001 }, -100, 100, true);
    check_case(OP_SUM, WT_I32, &c, TT_CONTIG, 1, (const int[]){ 1 }, false, 1);
    check_case(OP_ARGMAX, WT_I32, &c, TT_CONTIG, 1, (const int[]){ -1 }, false, 1);
    check_case(OP_MIN, WT_I32, &c, TT_TRANSPOSED, 1, (const int[]){ 1 }, false, 1);
    /* shapes the vec4 kernels take: rows of a multiple of 4 (ROW) and an innermost kept dim of
     * a multiple of 4 (COL), in one pass and segmented */
    static const int64_t v4shapes[][3] = { { 2, 64, 1000 }, { 2, 3000, 8 }, { 1, 300000, 0 }, { 2, 20000, 12 },
                                           { 2, 300, 512 }, { 2, 2000, 256 } };   /* the last two: grouped COL */
    for (int s = 0; s < 6; s++) {
        int nd = (int)v4shapes[s][0];
        for (int k = 0; k < 2; k++) {
            wt_dtype dt = k ? WT_I32 : WT_F32;
            for (int op = 0; op <= OP_MIN; op++) {
                fill(&c, dt, nd, v4shapes[s] + 1, op == OP_PROD ? (k ? -1 : 0.9) : -8, op == OP_PROD ? (k ? 3 : 1.1) : 8, k);
                int d = nd == 2 ? (s == 0 ? 1 : 0) : 0;
                check_case(op, dt, &c, TT_CONTIG, nd == 1 ? 0 : 1, &d, false, 1);
            }
        }
    }
    free(c.v);
}

/* 0-d tensors, NaN, ties, bool and u32 inputs, numbers of the result. */
static void test_special(void) {
    wt_tensor *s = wt_scalar(ctx, WT_F32, 2.5);
    double v = 0;
    wt_tensor *r = wt_sum(ctx, s, 0, NULL, false);
    CHECK(r && wt_ndim(r) == 0 && wt_item(ctx, r, &v) == WT_OK && v == 2.5);
    wt_release(r);
    r = wt_argmax(ctx, s, 1, (const int[]){ 0 }, true);
    CHECK(r && wt_ndim(r) == 0 && wt_item(ctx, r, &v) == WT_OK && v == 0);
    wt_release(r);
    wt_release(s);

    double x[8] = { 1, 5, 5, -2, NAN, 3, NAN, 5 };
    wt_tensor *t = tt_upload(ctx, WT_F32, 1, (const int64_t[]){ 8 }, x);
    r = wt_max(ctx, t, 0, NULL, false);
    CHECK(r && wt_item(ctx, r, &v) == WT_OK && isnan(v));
    wt_release(r);
    r = wt_argmax(ctx, t, 0, NULL, false);
    CHECK(r && wt_item(ctx, r, &v) == WT_OK && v == 4);
    wt_release(r);
    r = wt_argmin(ctx, t, 0, NULL, false);
    CHECK(r && wt_item(ctx, r, &v) == WT_OK && v == 4);
    wt_release(r);
    wt_release(t);
    /* NaN through the vec4 kernels: rows of 8 (ROW) and columns of 4 (COL) */
    double z[32];
    for (int i = 0; i < 32; i++)
        z[i] = i == 13 ? NAN : i;
    t = tt_upload(ctx, WT_F32, 2, (const int64_t[]){ 4, 8 }, z);
    for (int d = 0; d < 2; d++) {
        for (int op = 0; op < 2; op++) {
            r = op ? wt_min(ctx, t, 1, &d, false) : wt_max(ctx, t, 1, &d, false);
            double *g = r ? tt_read(ctx, r) : NULL;
            CHECK(g != NULL);
            for (int64_t i = 0; g && i < wt_numel(r); i++)
                CHECKF(isnan(g[i]) == (d == 1 ? i == 1 : i == 5), "NaN max/min dim %d op %d out %lld: %g", d, op, (long long)i, g[i]);
            free(g);
            wt_release(r);
        }
    }
    wt_release(t);
    double y[6] = { 5, 1, 5, 1, 5, 1 };
    t = tt_upload(ctx, WT_F32, 1, (const int64_t[]){ 6 }, y);
    r = wt_argmax(ctx, t, 0, NULL, false);
    CHECK(r && wt_item(ctx, r, &v) == WT_OK && v == 0);
    wt_release(r);
    r = wt_argmin(ctx, t, 0, NULL, false);
    CHECK(r && wt_item(ctx, r, &v) == WT_OK && v == 1);
    wt_release(r);
    wt_release(t);

    /* bool sums count; u32 max */
    double bv[5] = { 1, 0, 1, 1, 0 };
    t = tt_upload(ctx, WT_BOOL, 1, (const int64_t[]){ 5 }, bv);
    r = wt_sum(ctx, t, 0, NULL, false);
    CHECK(r && wt_dtype_of(r) == WT_I32 && wt_item(ctx, r, &v) == WT_OK && v == 3);
    wt_release(r);
    wt_release(t);
    double bv8[8] = { 1, 0, 1, 1, 0, 1, 1, 1 };   /* 8 elements: the vec4 kernel */
    t = tt_upload(ctx, WT_BOOL, 1, (const int64_t[]){ 8 }, bv8);
    r = wt_sum(ctx, t, 0, NULL, false);
    CHECK(r && wt_dtype_of(r) == WT_I32 && wt_item(ctx, r, &v) == WT_OK && v == 6);
    wt_release(r);
    r = wt_min(ctx, t, 0, NULL, false);
    CHECK(r && wt_dtype_of(r) == WT_BOOL && wt_item(ctx, r, &v) == WT_OK && v == 0);
    wt_release(r);
    r = wt_max(ctx, t, 0, NULL, false);
    CHECK(r && wt_dtype_of(r) == WT_BOOL && wt_item(ctx, r, &v) == WT_OK && v == 1);
    wt_release(r);
    wt_release(t);
    double uv[4] = { 3, 4000000000.0, 7, 1 };
    t = tt_upload(ctx, WT_U32, 1, (const int64_t[]){ 4 }, uv);
    r = wt_max(ctx, t, 0, NULL, false);
    CHECK(r && wt_dtype_of(r) == WT_U32 && wt_item(ctx, r, &v) == WT_OK && v == 4000000000.0);
    wt_release(r);
    wt_release(t);

    /* empty reductions: sum 0, prod 1, mean NaN; max is an error */
    wt_tensor *e = wt_zeros(ctx, WT_F32, 2, (const int64_t[]){ 3, 0 });
    r = wt_sum(ctx, e, 1, (const int[]){ 1 }, false);
    double *g = r ? tt_read(ctx, r) : NULL;
    CHECK(g && wt_numel(r) == 3 && g[0] == 0 && g[2] == 0);
    free(g);
    wt_release(r);
    r = wt_prod(ctx, e, 1, (const int[]){ 1 }, false);
    g = r ? tt_read(ctx, r) : NULL;
    CHECK(g && g[1] == 1);
    free(g);
    wt_release(r);
    r = wt_mean(ctx, e, 0, NULL, false);
    CHECK(r && wt_item(ctx, r, &v) == WT_OK && isnan(v));
    wt_release(r);
    r = wt_max(ctx, e, 1, (const int[]){ -1 }, false);
    CHECK(!r && wt_last_status(ctx) == WT_STATUS_SHAPE && strstr(wt_last_error(ctx), "wt_max"));
    wt_clear_error(ctx);
    r = wt_max(ctx, e, 1, (const int[]){ 0 }, false);   /* 0 outputs along the kept dim: fine */
    CHECK(r && wt_numel(r) == 0);
    wt_release(r);
    wt_release(e);
}

static void test_errors(void) {
    wt_tensor *t = wt_zeros(ctx, WT_F32, 2, (const int64_t[]){ 2, 3 });
    CHECK(!wt_sum(ctx, t, 1, (const int[]){ 2 }, false));
    CHECK(wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT && strstr(wt_last_error(ctx), "wt_sum: dim 2 out of range for shape [2, 3]"));
    wt_clear_error(ctx);
    CHECK(!wt_mean(ctx, t, 2, (const int[]){ 1, -1 }, false));
    CHECK(strstr(wt_last_error(ctx), "wt_mean: dim -1 repeated"));
    wt_clear_error(ctx);
    CHECK(!wt_argmax(ctx, t, 2, (const int[]){ 0, 1 }, false));
    CHECK(strstr(wt_last_error(ctx), "wt_argmax"));
    wt_clear_error(ctx);
    CHECK(!wt_var(ctx, t, 0, NULL, -1, false));
    CHECK(strstr(wt_last_error(ctx), "wt_var: correction"));
    wt_clear_error(ctx);
    CHECK(!wt_cumsum(ctx, t, -3));
    CHECK(strstr(wt_last_error(ctx), "wt_cumsum: dim -3"));
    wt_clear_error(ctx);
    CHECK(!wt_sum(ctx, NULL, 0, NULL, false));
    CHECK(wt_last_status(ctx) == WT_STATUS_NULL_TENSOR);
    wt_clear_error(ctx);
    CHECK(!wt_prod(ctx, t, 1, NULL, false));
    CHECK(wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);
    wt_release(t);
}

static void check_cumsum(wt_dtype dt, const case_ *c, int layout, int dim) {
    wt_tensor *t = make(dt, c, layout);
    wt_tensor *r = wt_cumsum(ctx, t, dim);
    CHECKF(r != NULL, "cumsum: %s", wt_last_error(ctx));
    if (!r) {
        wt_release(t);
        return;
    }
    int nd = c->ndim;
    int d = nd ? (dim < 0 ? dim + nd : dim) : 0;
    CHECK(wt_ndim(r) == nd && wt_dtype_of(r) == (dt == WT_BOOL ? WT_I32 : dt));
    double *got = tt_read(ctx, r);
    int64_t L = nd ? c->shape[d] : 1, inner = 1;
    for (int k = d + 1; k < nd; k++)
        inner *= c->shape[k];
    int64_t bad = 0;
    for (int64_t i = 0; i < c->n; i++) {
        int64_t j = (i / inner) % L;
        double s = 0, m = 0;
        for (int64_t q = 0; q <= j; q++) {
            double x = c->v[i - (j - q) * inner];
            s += x;
            m += fabs(x);
        }
        double tol = dt == WT_I32 ? 0 : dt == WT_F16 ? 1e-3 * fabs(s) + 2e-6 * m : 2e-6 * fabs(s) + 2e-6 * m;
        if (dt == WT_I32)
            s = (double)(int32_t)(int64_t)s;
        if (!(fabs(got[i] - s) <= tol) && bad++ < 3 && reported++ < 40)
            fprintf(stderr, "cumsum %s L %lld dim %d layout %d: element %lld got %.9g want %.9g\n", wt_dtype_name(dt),
                    (long long)L, dim, layout, (long long)i, got[i], s);
    }
    CHECKF(bad == 0, "cumsum %s dim %d layout %d: %lld wrong", wt_dtype_name(dt), dim, layout, (long long)bad);
    free(got);
    wt_release(r);
    wt_release(t);
}

static void test_cumsum(bool f16) {
    case_ c = { 0 };
    static const int64_t shapes[][4] = { { 1, 5 }, { 2, 3, 300 }, { 2, 700, 3 }, { 3, 2, 3, 4 }, { 1, 70000 },
                                         { 2, 2, 0 }, { 0, 0 } };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        if (light && s % 2)
            continue;
        int nd = (int)shapes[s][0];
        for (int k = 0; k < (light ? 1 : 3); k++) {
            wt_dtype dt = k == 0 ? WT_F32 : k == 1 ? WT_I32 : WT_F16;
            if (dt == WT_F16 && (!f16 || (nd && shapes[s][nd] > 1000)))
                continue;
            fill(&c, dt, nd, shapes[s] + 1, -4, 4, dt == WT_I32);
            for (int d = 0; d < (nd ? nd : 1); d++)
                check_cumsum(dt, &c, (int)(s + (size_t)d) % TT_LAYOUT_COUNT, (d + k) % 2 ? d - (nd ? nd : 1) : d);
        }
    }
    free(c.v);
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    light = test_under_valgrind();
    if (light)
        printf("note: under valgrind: f32 on fewer shapes, no long reductions\n");
    test_random(WT_F32);
    if (!light)
        test_random(WT_I32);
    if (wt_context_has_f16(ctx) && !light)
        test_random(WT_F16);
    else if (!light)
        printf("note: no shader-f16 on this adapter: f16 reductions not run\n");
    if (!light)
        test_long();
    test_special();
    test_cumsum(wt_context_has_f16(ctx) && !light);
    test_errors();
    CHECKF(wt_last_status(ctx) == WT_OK, "left over error: %s", wt_last_error(ctx));
    tt_end(&f);
    return test_end();
}
