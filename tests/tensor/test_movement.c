/* test_movement.c - cat, stack, gather, index_select, embedding, scatter_add, pad (constant,
 * reflect, replicate), flip, one_hot, masked_fill and copy_ (in place) against plain C references: f32, i32 (and
 * f16 where the device has it; bool for the pure copies), random shapes that are not multiples
 * of the workgroup size, non-contiguous inputs and indices (transposed views, strided slices),
 * negative dims and negative indices, out-of-range indices (defined results), empty tensors and
 * 0-d tensors; wt_contiguous of transposed views (the tiled transpose, batch dims strided too);
 * and an error naming the op for every kind of bad call. */
#include "tensor/tensor_test.h"

static wt_context *ctx;
static uint64_t seed = 0x2545f4914f6cdd1dull;
static int reported;
static bool has_f16;

typedef struct arr {
    int ndim;
    int64_t shape[WT_MAX_DIMS];
    int64_t n;
    double *v;
} arr;

static void arr_init(arr *a, int ndim, const int64_t *shape) {
    a->ndim = ndim;
    a->n = 1;
    for (int d = 0; d < ndim; d++) {
        a->shape[d] = shape[d];
        a->n *= shape[d];
    }
    a->v = calloc((size_t)a->n + 1, sizeof *a->v);
}

static double round_to(wt_dtype dt, double x) {
    switch (dt) {
    case WT_F32: return (float)x;
    case WT_F16: return wt_f16_to_f32(wt_f32_to_f16((float)x));
    case WT_BOOL: return x != 0;
    default: return floor(x);
    }
}

static void arr_rand(arr *a, int ndim, const int64_t *shape, wt_dtype dt, double lo, double hi) {
    arr_init(a, ndim, shape);
    for (int64_t i = 0; i < a->n; i++)
        a->v[i] = round_to(dt, tt_rand(&seed, lo, hi));
}

static void unravel(int64_t i, int nd, const int64_t *shape, int64_t *idx) {
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = shape[d] ? i % shape[d] : 0;
        i = shape[d] ? i / shape[d] : 0;
    }
}

static int64_t ravel(int nd, const int64_t *shape, const int64_t *idx) {
    int64_t li = 0;
    for (int d = 0; d < nd; d++)
        li = li * shape[d] + idx[d];
    return li;
}

static wt_tensor *make(wt_dtype dt, const arr *c, int layout) {
    return tt_make(ctx, dt, c->ndim, c->shape, c->v, layout);
}

/* Compares t (shape, dtype) with want (C order) within tol. */
static void expect(const char *what, wt_tensor *t, wt_dtype dt, const arr *want, double tol) {
    CHECKF(t != NULL, "%s: %s", what, wt_last_error(ctx));
    if (!t)
        return;
    CHECKF(wt_dtype_of(t) == dt, "%s: dtype %s, want %s", what, wt_dtype_name(wt_dtype_of(t)), wt_dtype_name(dt));
    CHECKF(wt_ndim(t) == want->ndim && (!want->ndim || !memcmp(wt_shape(t), want->shape, (size_t)want->ndim * 8)),
           "%s: shape differs (ndim %d vs %d)", what, wt_ndim(t), want->ndim);
    if (wt_numel(t) != want->n)
        return;
    double *got = tt_read(ctx, t);
    int64_t bad = 0;
    for (int64_t i = 0; i < want->n; i++) {
        double w = want->v[i];
        bool ok = isnan(w) ? isnan(got[i]) : fabs(got[i] - w) <= tol * (1 + fabs(w));
        if (!ok && bad++ < 3 && reported++ < 40)
            fprintf(stderr, "%s: element %lld: got %.9g want %.9g\n", what, (long long)i, got[i], w);
    }
    CHECKF(bad == 0, "%s: %lld of %lld elements wrong", what, (long long)bad, (long long)want->n);
    free(got);
}

static wt_dtype dtypes[4] = { WT_F32, WT_I32, WT_F16, WT_BOOL };
static bool light;   /* under valgrind: f32 only (each kernel compile takes seconds) */
static bool skip(wt_dtype dt) {
    return (dt == WT_F16 && !has_f16) || (light && dt != WT_F32);
}

/* ---- cat, stack ---- */

static void test_cat(void) {
    static const int64_t base[][4] = { { 1, 300 }, { 2, 37, 5 }, { 3, 3, 4, 5 }, { 2, 0, 3 }, { 3, 2, 1, 70 } };
    for (size_t s = 0; s < sizeof base / sizeof *base; s++) {
        int nd = (int)base[s][0];
        for (int k = 0; k < 4; k++) {
            wt_dtype dt = dtypes[k];
            if (skip(dt))
                continue;
            int dim = (int)((s + (size_t)k) % (size_t)nd);
            int pdim = k % 2 ? dim - nd : dim;
            arr in[3];
            wt_tensor *ts[3];
            int64_t total = 0;
            for (int i = 0; i < 3; i++) {
                int64_t sh[WT_MAX_DIMS];
                memcpy(sh, base[s] + 1, (size_t)nd * 8);
                sh[dim] = (int64_t)(i == 1 ? 0 : 1 + (int)tt_rand(&seed, 0, 5)) * (s == 0 ? 50 : 1);
                if (i == 1 && s % 2)
                    sh[dim] = 3;
                arr_rand(&in[i], nd, sh, dt, -50, 50);
                ts[i] = make(dt, &in[i], (int)(i + s) % TT_LAYOUT_COUNT);
                total += sh[dim];
            }
            arr want;
            int64_t ws[WT_MAX_DIMS];
            memcpy(ws, base[s] + 1, (size_t)nd * 8);
            ws[dim] = total;
            arr_init(&want, nd, ws);
            int64_t at = 0;
            for (int i = 0; i < 3; i++) {
                int64_t idx[WT_MAX_DIMS];
                for (int64_t e = 0; e < in[i].n; e++) {
                    unravel(e, nd, in[i].shape, idx);
                    idx[dim] += at;
                    want.v[ravel(nd, ws, idx)] = in[i].v[e];
                }
                at += in[i].shape[dim];
            }
            char what[80];
            snprintf(what, sizeof what, "cat %s case %zu dim %d", wt_dtype_name(dt), s, pdim);
            wt_tensor *r = wt_cat(ctx, ts, 3, pdim);
            expect(what, r, dt, &want, 0);
            wt_release(r);
            free(want.v);
            /* stack of three equal shapes: new dim */
            if (s < 3) {
                arr st[3];
                wt_tensor *ss[3];
                for (int i = 0; i < 3; i++) {
                    arr_rand(&st[i], nd, base[s] + 1, dt, -50, 50);
                    ss[i] = make(dt, &st[i], i % TT_LAYOUT_COUNT);
                }
                int sd = k % (nd + 1);
                int64_t sh[WT_MAX_DIMS];
                for (int d = 0, j = 0; d <= nd; d++)
                    sh[d] = d == sd ? 3 : base[s][1 + j++];
                arr_init(&want, nd + 1, sh);
                for (int i = 0; i < 3; i++) {
                    int64_t idx[WT_MAX_DIMS], o[WT_MAX_DIMS];
                    for (int64_t e = 0; e < st[i].n; e++) {
                        unravel(e, nd, st[i].shape, idx);
                        for (int d = 0, j = 0; d <= nd; d++)
                            o[d] = d == sd ? i : idx[j++];
                        want.v[ravel(nd + 1, sh, o)] = st[i].v[e];
                    }
                }
                snprintf(what, sizeof what, "stack %s case %zu dim %d", wt_dtype_name(dt), s, sd);
                r = wt_stack(ctx, ss, 3, k % 2 ? sd - nd - 1 : sd);
                expect(what, r, dt, &want, 0);
                wt_release(r);
                free(want.v);
                for (int i = 0; i < 3; i++) {
                    wt_release(ss[i]);
                    free(st[i].v);
                }
            }
            for (int i = 0; i < 3; i++) {
                wt_release(ts[i]);
                free(in[i].v);
            }
        }
    }
}

/* ---- gather, index_select, embedding ---- */

static double idx_value(double k, int64_t n) {
    return k < 0 ? k + (double)n : k;
}

static void test_gather(void) {
    static const int64_t shapes[][4] = { { 1, 300 }, { 2, 37, 9 }, { 3, 4, 5, 6 }, { 2, 3, 0 } };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        int nd = (int)shapes[s][0];
        for (int k = 0; k < 3; k++) {
            wt_dtype dt = dtypes[k];
            if (skip(dt))
                continue;
            arr a;
            arr_rand(&a, nd, shapes[s] + 1, dt, -100, 100);
            wt_tensor *t = make(dt, &a, (int)(s + (size_t)k) % TT_LAYOUT_COUNT);
            for (int dim = 0; dim < nd; dim++) {
                /* gather: index shape <= t's (larger along dim allowed), values in [-n, n] + a few out of range */
                int64_t is[WT_MAX_DIMS];
                for (int d = 0; d < nd; d++)
                    is[d] = d == dim ? 1 + (int64_t)tt_rand(&seed, 0, 2 * (double)a.shape[d] + 3)
                                     : (int64_t)tt_rand(&seed, 0, (double)a.shape[d] + 1);
                int64_t n = a.shape[dim];
                arr ix;
                arr_rand(&ix, nd, is, WT_I32, -(double)n, (double)n + (k == 2 ? 2 : 0));
                wt_tensor *it = make(WT_I32, &ix, (int)(dim + k) % TT_LAYOUT_COUNT);
                arr want;
                arr_init(&want, nd, is);
                for (int64_t e = 0; e < ix.n; e++) {
                    int64_t idx[WT_MAX_DIMS];
                    unravel(e, nd, is, idx);
                    double kk = idx_value(ix.v[e], n);
                    if (kk < 0 || kk >= (double)n) {
                        want.v[e] = 0;
                        continue;
                    }
                    idx[dim] = (int64_t)kk;
                    want.v[e] = a.v[ravel(nd, a.shape, idx)];
                }
                char what[80];
                snprintf(what, sizeof what, "gather %s case %zu dim %d", wt_dtype_name(dt), s, dim);
                wt_tensor *r = wt_gather(ctx, t, dim - (k == 1 ? nd : 0), it);
                expect(what, r, dt, &want, 0);
                wt_release(r);
                wt_release(it);
                free(ix.v);
                free(want.v);

                /* index_select: a strided 1-d index (every other element of a base) */
                int64_t m = 1 + (int64_t)tt_rand(&seed, 0, 40);
                arr ib;
                arr_rand(&ib, 1, (const int64_t[]){ 2 * m }, WT_I32, -(double)n, (double)n);
                wt_tensor *ibt = tt_upload(ctx, k == 0 ? WT_U32 : WT_I32, 1, ib.shape, ib.v);
                if (k == 0)   /* u32 index: negatives are huge numbers: out of range */
                    for (int64_t e = 0; e < ib.n; e++)
                        ib.v[e] = ib.v[e] < 0 ? 1e12 : ib.v[e];
                wt_tensor *iv = wt_slice(ctx, ibt, 0, 1, 2 * m, 2);
                int64_t os[WT_MAX_DIMS];
                memcpy(os, a.shape, sizeof os);
                os[dim] = m;
                arr_init(&want, nd, os);
                for (int64_t e = 0; e < want.n; e++) {
                    int64_t idx[WT_MAX_DIMS];
                    unravel(e, nd, os, idx);
                    double kk = idx_value(ib.v[2 * idx[dim] + 1], n);
                    if (kk < 0 || kk >= (double)n) {
                        want.v[e] = 0;
                        continue;
                    }
                    idx[dim] = (int64_t)kk;
                    want.v[e] = a.v[ravel(nd, a.shape, idx)];
                }
                snprintf(what, sizeof what, "index_select %s case %zu dim %d", wt_dtype_name(dt), s, dim);
                r = wt_index_select(ctx, t, dim, iv);
                expect(what, r, dt, &want, 0);
                wt_release(r);
                wt_release(iv);
                wt_release(ibt);
                free(ib.v);
                free(want.v);
            }
            wt_release(t);
            free(a.v);
        }
    }
    /* embedding: [V, D] weight (transposed view) by [3, 4] indices */
    for (int k = 0; k < 3; k++) {
        wt_dtype dt = dtypes[k];
        if (skip(dt))
            continue;
        arr w, ix, want;
        arr_rand(&w, 2, (const int64_t[]){ 10, 300 }, dt, -5, 5);
        arr_rand(&ix, 2, (const int64_t[]){ 3, 4 }, WT_I32, -10, 10);
        wt_tensor *wt = make(dt, &w, k == 1 ? TT_TRANSPOSED : TT_CONTIG);
        wt_tensor *it = make(WT_I32, &ix, k == 2 ? TT_TRANSPOSED : TT_CONTIG);
        arr_init(&want, 3, (const int64_t[]){ 3, 4, 300 });
        for (int64_t e = 0; e < want.n; e++) {
            int64_t row = (int64_t)idx_value(ix.v[e / 300], 10);
            want.v[e] = w.v[row * 300 + e % 300];
        }
        wt_tensor *r = wt_embedding(ctx, wt, it);
        expect("embedding", r, dt, &want, 0);
        wt_release(r);
        wt_release(wt);
        wt_release(it);
        free(w.v);
        free(ix.v);
        free(want.v);
    }
}

/* ---- scatter_add ---- */

static void test_scatter(void) {
    static const int64_t shapes[][4] = { { 1, 50 }, { 2, 7, 300 }, { 3, 4, 5, 6 } };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        int nd = (int)shapes[s][0];
        for (int k = 0; k < 3; k++) {
            wt_dtype dt = dtypes[k];
            if (skip(dt))
                continue;
            for (int dim = 0; dim < nd; dim++) {
                arr a, src, ix, want;
                arr_rand(&a, nd, shapes[s] + 1, dt, -10, 10);
                int64_t ss[WT_MAX_DIMS], is[WT_MAX_DIMS];
                for (int d = 0; d < nd; d++) {
                    ss[d] = d == dim ? 2 * a.shape[d] + 1 : a.shape[d];
                    is[d] = d == dim ? ss[d] : 1 + (int64_t)tt_rand(&seed, 0, (double)a.shape[d]);
                }
                arr_rand(&src, nd, ss, dt, -4, 4);
                int64_t n = a.shape[dim];
                arr_rand(&ix, nd, is, WT_I32, -(double)n, (double)n + 1);   /* n: out of range, skipped */
                wt_tensor *t = make(dt, &a, k % TT_LAYOUT_COUNT);
                wt_tensor *st = make(dt, &src, (k + 1) % TT_LAYOUT_COUNT);
                wt_tensor *it = make(WT_I32, &ix, (k + 2) % TT_LAYOUT_COUNT);
                arr_init(&want, nd, a.shape);
                memcpy(want.v, a.v, (size_t)a.n * sizeof *a.v);
                for (int64_t e = 0; e < ix.n; e++) {
                    int64_t idx[WT_MAX_DIMS];
                    unravel(e, nd, is, idx);
                    double sv = src.v[ravel(nd, ss, idx)];
                    double kk = idx_value(ix.v[e], n);
                    if (kk < 0 || kk >= (double)n)
                        continue;
                    idx[dim] = (int64_t)kk;
                    want.v[ravel(nd, a.shape, idx)] += sv;
                }
                char what[80];
                snprintf(what, sizeof what, "scatter_add %s case %zu dim %d", wt_dtype_name(dt), s, dim);
                wt_tensor *r = wt_scatter_add(ctx, t, dim, it, st);
                expect(what, r, dt, &want, dt == WT_F16 ? 4e-3 : dt == WT_F32 ? 1e-5 : 0);
                wt_release(r);
                wt_release(t);
                wt_release(st);
                wt_release(it);
                free(a.v);
                free(src.v);
                free(ix.v);
                free(want.v);
            }
        }
    }
}

/* ---- pad, flip ---- */

static void test_pad_flip(void) {
    static const int64_t shapes[][4] = { { 1, 5 }, { 2, 3, 300 }, { 3, 4, 5, 6 }, { 2, 2, 0 }, { 0, 0 } };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        int nd = (int)shapes[s][0];
        for (int k = 0; k < 4; k++) {
            wt_dtype dt = dtypes[k];
            if (skip(dt))
                continue;
            arr a;
            arr_rand(&a, nd, shapes[s] + 1, dt, -100, 100);
            wt_tensor *t = make(dt, &a, (int)(s + (size_t)k) % TT_LAYOUT_COUNT);
            for (int mode = 0; mode < WT_PAD_MODE_COUNT; mode++) {
                int64_t pads[2 * WT_MAX_DIMS], os[WT_MAX_DIMS];
                bool empty = false;
                for (int d = 0; d < nd; d++) {
                    int64_t lim = mode == WT_PAD_REFLECT ? a.shape[d] - 1 : 3;
                    empty |= a.shape[d] == 0;
                    pads[2 * d] = lim > 0 ? (int64_t)tt_rand(&seed, 0, (double)lim + 1) : 0;
                    pads[2 * d + 1] = lim > 0 ? (int64_t)tt_rand(&seed, 0, (double)lim + 1) : 0;
                    if (mode == WT_PAD_REPLICATE && empty)
                        pads[2 * d] = pads[2 * d + 1] = 0;
                    os[d] = a.shape[d] + pads[2 * d] + pads[2 * d + 1];
                }
                double value = dt == WT_BOOL ? 1 : 7.5;
                arr want;
                arr_init(&want, nd, os);
                for (int64_t e = 0; e < want.n; e++) {
                    int64_t idx[WT_MAX_DIMS];
                    unravel(e, nd, os, idx);
                    bool inside = true;
                    for (int d = 0; d < nd; d++) {
                        int64_t x = idx[d] - pads[2 * d], n = a.shape[d];
                        if (x < 0 || x >= n) {
                            if (mode == WT_PAD_CONSTANT)
                                inside = false;
                            else if (mode == WT_PAD_REFLECT)
                                x = x < 0 ? -x : 2 * (n - 1) - x;
                            else
                                x = x < 0 ? 0 : n - 1;
                        }
                        idx[d] = x;
                    }
                    want.v[e] = inside ? a.v[ravel(nd, a.shape, idx)] : round_to(dt, value);
                }
                char what[80];
                snprintf(what, sizeof what, "pad %s case %zu mode %d", wt_dtype_name(dt), s, mode);
                wt_tensor *r = wt_pad(ctx, t, pads, (wt_pad_mode)mode, dt == WT_I32 ? 7 : value);
                if (dt == WT_I32)
                    for (int64_t e = 0; e < want.n; e++)
                        want.v[e] = want.v[e] == 7.5 ? 7 : want.v[e];
                expect(what, r, dt, &want, 0);
                wt_release(r);
                free(want.v);
            }
            /* flip the first and last dims */
            int dims[2] = { 0, -1 };
            int nf = nd >= 2 ? 2 : nd;
            arr want;
            arr_init(&want, nd, a.shape);
            for (int64_t e = 0; e < a.n; e++) {
                int64_t idx[WT_MAX_DIMS];
                unravel(e, nd, a.shape, idx);
                if (nd) {
                    idx[0] = a.shape[0] - 1 - idx[0];
                    if (nf == 2)
                        idx[nd - 1] = a.shape[nd - 1] - 1 - idx[nd - 1];
                }
                want.v[e] = a.v[ravel(nd, a.shape, idx)];
            }
            char what[80];
            snprintf(what, sizeof what, "flip %s case %zu", wt_dtype_name(dt), s);
            wt_tensor *r = wt_flip(ctx, t, nf, dims);
            expect(what, r, dt, &want, 0);
            wt_release(r);
            free(want.v);
            wt_release(t);
            free(a.v);
        }
    }
}

/* ---- one_hot, masked_fill ---- */

static void test_one_hot_mask(void) {
    arr ix;
    arr_rand(&ix, 2, (const int64_t[]){ 7, 40 }, WT_I32, 0, 13);
    ix.v[5] = 12;   /* the inferred class count is 13 */
    for (int inferred = 0; inferred < 2; inferred++) {
        wt_tensor *it = make(WT_I32, &ix, inferred ? TT_TRANSPOSED : TT_CONTIG);
        int64_t C = inferred ? 13 : 20;
        arr want;
        arr_init(&want, 3, (const int64_t[]){ 7, 40, C });
        for (int64_t e = 0; e < want.n; e++)
            want.v[e] = ix.v[e / C] == (double)(e % C);
        wt_tensor *r = wt_one_hot(ctx, it, inferred ? -1 : C);
        expect(inferred ? "one_hot inferred" : "one_hot", r, WT_I32, &want, 0);
        wt_release(r);
        wt_release(it);
        free(want.v);
    }
    free(ix.v);

    for (int k = 0; k < 4; k++) {
        wt_dtype dt = dtypes[k];
        if (skip(dt))
            continue;
        arr a, m, want;
        arr_rand(&a, 3, (const int64_t[]){ 3, 5, 300 }, dt, -9, 9);
        arr_rand(&m, 2, (const int64_t[]){ 1, 300 }, WT_BOOL, 0, 2);
        wt_tensor *t = make(dt, &a, k % TT_LAYOUT_COUNT);
        wt_tensor *mt = make(WT_BOOL, &m, TT_CONTIG);
        arr_init(&want, 3, a.shape);
        double value = dt == WT_BOOL ? 0 : -2;
        for (int64_t e = 0; e < a.n; e++)
            want.v[e] = m.v[e % 300] != 0 ? value : a.v[e];
        wt_tensor *r = wt_masked_fill(ctx, t, mt, value);
        expect("masked_fill", r, dt, &want, 0);
        wt_release(r);
        wt_release(t);
        wt_release(mt);
        free(a.v);
        free(m.v);
        free(want.v);
    }
}

/* ---- wt_copy_: in place into a view ---- */

static void test_copy_(void) {
    for (int k = 0; k < 3; k++) {
        wt_dtype dt = dtypes[k], sdt = k == 1 ? WT_F32 : dt;   /* i32 <- f32: a converting copy */
        if (skip(dt) || skip(sdt))
            continue;
        arr base, src;
        arr_rand(&base, 3, (const int64_t[]){ 4, 9, 10 }, dt, -9, 9);
        arr_rand(&src, 3, (const int64_t[]){ 4, 3, 10 }, sdt, -9, 9);
        for (int64_t e = 0; e < src.n; e++)
            src.v[e] = round_to(dt, src.v[e]);   /* integral where dt is i32 */
        wt_tensor *d = make(dt, &base, TT_CONTIG);
        wt_tensor *s = make(sdt, &src, k % TT_LAYOUT_COUNT);   /* contiguous, transposed, ... */
        wt_tensor *view = wt_narrow(ctx, d, 1, 5, 3);
        wt_tensor *before = wt_sum(ctx, d, 0, NULL, false);   /* recorded before the copy: old values */
        CHECKF(wt_copy_(ctx, view, s) == WT_OK, "copy_: %s", wt_last_error(ctx));
        double old = 0;
        for (int64_t e = 0; e < base.n; e++)
            old += base.v[e];
        for (int64_t i = 0; i < 4; i++)
            for (int64_t j = 0; j < 3; j++)
                for (int64_t l = 0; l < 10; l++)
                    base.v[(i * 9 + 5 + j) * 10 + l] = round_to(dt, src.v[(i * 3 + j) * 10 + l]);
        expect("copy_", d, dt, &base, 0);
        double v = 0;
        CHECKF(before && wt_item(ctx, before, &v) == WT_OK && fabs(v - old) <= 1e-3 * (1 + fabs(old)),
               "copy_: a sum recorded before the copy gave %g, want %g", v, old);
        wt_release(before);
        wt_release(view);
        wt_release(s);
        wt_release(d);
        free(base.v);
        free(src.v);
    }
    wt_tensor *d = wt_zeros(ctx, WT_F32, 2, (const int64_t[]){ 3, 4 });
    wt_tensor *row = wt_select(ctx, d, 0, 1);
    wt_tensor *s = wt_ones(ctx, WT_F32, 1, (const int64_t[]){ 3 });
    CHECK(wt_copy_(ctx, row, s) == WT_STATUS_SHAPE &&
          strstr(wt_last_error(ctx), "wt_copy_: destination [4] and source [3] differ in shape"));
    wt_clear_error(ctx);
    wt_tensor *row0 = wt_select(ctx, d, 0, 0);
    CHECK(wt_copy_(ctx, row, row0) == WT_STATUS_INVALID_ARGUMENT && strstr(wt_last_error(ctx), "share storage"));
    wt_clear_error(ctx);
    CHECK(wt_copy_(ctx, row, NULL) == WT_STATUS_NULL_TENSOR);
    wt_clear_error(ctx);
    wt_release(row0);
    wt_release(s);
    wt_release(row);
    wt_release(d);
}

/* ---- wt_contiguous of transposed views (the tiled transpose) ---- */

static void test_transpose(void) {
    static const int64_t shapes[][4] = { { 2, 8, 8 }, { 2, 33, 70 }, { 3, 3, 40, 31 }, { 2, 300, 9 }, { 2, 7, 100 } };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        int nd = (int)shapes[s][0];
        for (int k = 0; k < 4; k++) {
            wt_dtype dt = dtypes[k];
            if (skip(dt))
                continue;
            arr a;   /* the transposed logical values */
            arr_rand(&a, nd, shapes[s] + 1, dt, -100, 100);
            wt_tensor *v = make(dt, &a, TT_TRANSPOSED);
            if (s == 2 && k == 0) {   /* a strided batch dim too: every other batch of a bigger base */
                wt_tensor *big = wt_cat(ctx, (wt_tensor *const[]){ v, v }, 2, 0);
                wt_tensor *bt = big ? wt_transpose(ctx, big, -1, -2) : NULL;   /* contiguous copy, swapped */
                wt_tensor *bc = bt ? wt_contiguous(ctx, bt) : NULL;
                wt_tensor *bv = bc ? wt_transpose(ctx, bc, -1, -2) : NULL;
                wt_tensor *sl = bv ? wt_slice(ctx, bv, 0, 0, 6, 2) : NULL;
                arr want;
                arr_init(&want, nd, (const int64_t[]){ 3, 40, 31 });
                for (int64_t e = 0; e < want.n; e++) {   /* batches 0, 2, 4 of [v; v] = v[0], v[2], v[1] */
                    int64_t b = e / (40 * 31), src = (2 * b) % 3;
                    want.v[e] = a.v[src * 40 * 31 + e % (40 * 31)];
                }
                wt_tensor *c = sl ? wt_contiguous(ctx, sl) : NULL;
                expect("contiguous of a strided-batch transposed view", c, dt, &want, 0);
                wt_release(c);
                wt_release(sl);
                wt_release(bv);
                wt_release(bc);
                wt_release(bt);
                wt_release(big);
                free(want.v);
            }
            char what[80];
            snprintf(what, sizeof what, "contiguous transposed %s case %zu", wt_dtype_name(dt), s);
            wt_tensor *c = wt_contiguous(ctx, v);
            CHECK(c && wt_is_contiguous(c));
            expect(what, c, dt, &a, 0);
            wt_release(c);
            wt_release(v);
            free(a.v);
        }
    }
}

/* ---- 0-d, empty, errors ---- */

static void test_edges(void) {
    /* 0-d gather and pad */
    wt_tensor *s = wt_scalar(ctx, WT_F32, 4.5);
    wt_tensor *z = wt_scalar(ctx, WT_I32, 0);
    wt_tensor *r = wt_gather(ctx, s, 0, z);
    double v = 0;
    CHECK(r && wt_ndim(r) == 0 && wt_item(ctx, r, &v) == WT_OK && v == 4.5);
    wt_release(r);
    r = wt_pad(ctx, s, NULL, WT_PAD_CONSTANT, 0);
    CHECK(r && wt_ndim(r) == 0 && wt_item(ctx, r, &v) == WT_OK && v == 4.5);
    wt_release(r);
    r = wt_flip(ctx, s, 0, NULL);
    CHECK(r && wt_item(ctx, r, &v) == WT_OK && v == 4.5);
    wt_release(r);
    /* empty index */
    wt_tensor *t = wt_ones(ctx, WT_F32, 2, (const int64_t[]){ 3, 4 });
    wt_tensor *e = wt_zeros(ctx, WT_I32, 1, (const int64_t[]){ 0 });
    r = wt_index_select(ctx, t, 1, e);
    CHECK(r && wt_numel(r) == 0 && wt_size(r, 1) == 0);
    wt_release(r);
    /* scatter with an empty index is a copy */
    wt_tensor *e2 = wt_zeros(ctx, WT_I32, 2, (const int64_t[]){ 0, 4 });
    r = wt_scatter_add(ctx, t, 0, e2, t);
    double *g = r ? tt_read(ctx, r) : NULL;
    CHECK(g && g[0] == 1 && g[11] == 1);
    free(g);
    wt_release(r);

    /* an empty input: every index is out of range, the result is empty */
    wt_tensor *e03 = wt_zeros(ctx, WT_F32, 2, (const int64_t[]){ 0, 3 });
    wt_tensor *i23 = wt_zeros(ctx, WT_I32, 2, (const int64_t[]){ 2, 3 });
    wt_tensor *s23 = wt_ones(ctx, WT_F32, 2, (const int64_t[]){ 2, 3 });
    r = wt_scatter_add(ctx, e03, 0, i23, s23);
    CHECKF(r && wt_numel(r) == 0, "scatter into an empty input: %s", wt_last_error(ctx));
    wt_release(r);
    r = wt_gather(ctx, e03, 0, i23);
    g = r ? tt_read(ctx, r) : NULL;
    CHECKF(g && wt_numel(r) == 6 && g[0] == 0 && g[5] == 0, "gather from an empty input: %s", wt_last_error(ctx));
    free(g);
    wt_release(r);
    wt_release(e03);
    wt_release(i23);
    wt_release(s23);

    /* errors */
    wt_tensor *i3 = wt_zeros(ctx, WT_I32, 1, (const int64_t[]){ 3 });
    wt_tensor *fi = wt_zeros(ctx, WT_F32, 2, (const int64_t[]){ 3, 4 });
    wt_tensor *u = wt_zeros(ctx, WT_I32, 2, (const int64_t[]){ 3, 5 });
    wt_tensor *cats[2] = { t, u };
#define ERR(call, st, text)                                                                         \
    do {                                                                                            \
        wt_tensor *x_ = (call);                                                                     \
        CHECKF(!x_ && wt_last_status(ctx) == (st) && strstr(wt_last_error(ctx), text), "%s: '%s'", \
               #call, wt_last_error(ctx));                                                          \
        wt_release(x_);                                                                             \
        wt_clear_error(ctx);                                                                        \
    } while (0)
    ERR(wt_cat(ctx, cats, 2, 0), WT_STATUS_DTYPE, "wt_cat: tensor 1 is i32");
    wt_tensor *f35 = wt_zeros(ctx, WT_F32, 2, (const int64_t[]){ 3, 5 });
    cats[1] = f35;
    ERR(wt_cat(ctx, cats, 2, 0), WT_STATUS_SHAPE, "wt_cat: tensor 1 has shape [3, 5], tensor 0 [3, 4]");
    ERR(wt_cat(ctx, cats, 2, 2), WT_STATUS_INVALID_ARGUMENT, "wt_cat: dim 2 out of range");
    ERR(wt_cat(ctx, cats, 0, 0), WT_STATUS_INVALID_ARGUMENT, "wt_cat: needs at least one tensor");
    ERR(wt_stack(ctx, cats, 2, 0), WT_STATUS_SHAPE, "wt_stack: tensor 1 has shape [3, 5]");
    ERR(wt_gather(ctx, t, 0, fi), WT_STATUS_DTYPE, "wt_gather: index of shape [3, 4] has dtype f32");
    ERR(wt_gather(ctx, t, 0, i3), WT_STATUS_SHAPE, "wt_gather: index of shape [3] and input of shape [3, 4]");
    ERR(wt_gather(ctx, t, 0, u), WT_STATUS_SHAPE, "larger than input of shape [3, 4] in dim 1");
    ERR(wt_index_select(ctx, t, 0, u), WT_STATUS_SHAPE, "wt_index_select: index must be 1-d");
    ERR(wt_index_select(ctx, t, -3, i3), WT_STATUS_INVALID_ARGUMENT, "wt_index_select: dim -3 out of range");
    ERR(wt_embedding(ctx, i3, i3), WT_STATUS_SHAPE, "wt_embedding: weight must be 2-d");
    ERR(wt_scatter_add(ctx, t, 0, u, t), WT_STATUS_SHAPE, "wt_scatter_add: index [3, 5] must fit");
    ERR(wt_scatter_add(ctx, t, 0, u, u), WT_STATUS_DTYPE, "wt_scatter_add: input f32 and src i32");
    ERR(wt_pad(ctx, t, (const int64_t[]){ 0, 0, -1, 0 }, WT_PAD_CONSTANT, 0), WT_STATUS_INVALID_ARGUMENT, "wt_pad: pads");
    ERR(wt_pad(ctx, t, (const int64_t[]){ 3, 0, 0, 0 }, WT_PAD_REFLECT, 0), WT_STATUS_INVALID_ARGUMENT,
        "wt_pad: reflect pads (3, 0) of dim 0 must be < its size in shape [3, 4]");
    ERR(wt_pad(ctx, t, NULL, WT_PAD_CONSTANT, 0), WT_STATUS_INVALID_ARGUMENT, "wt_pad: pads is NULL");
    ERR(wt_flip(ctx, t, 2, (const int[]){ 1, -1 }), WT_STATUS_INVALID_ARGUMENT, "wt_flip: dim -1 repeated");
    ERR(wt_one_hot(ctx, fi, 3), WT_STATUS_DTYPE, "wt_one_hot: index");
    ERR(wt_one_hot(ctx, e, 0), WT_STATUS_SHAPE, "wt_one_hot: cannot infer");
    ERR(wt_masked_fill(ctx, t, u, 1), WT_STATUS_SHAPE, "wt_masked_fill: mask of shape [3, 5] does not broadcast to input shape [3, 4]");
    ERR(wt_gather(ctx, t, 0, NULL), WT_STATUS_NULL_TENSOR, "NULL");
#undef ERR
    wt_release(s);
    wt_release(z);
    wt_release(t);
    wt_release(e);
    wt_release(e2);
    wt_release(i3);
    wt_release(fi);
    wt_release(u);
    wt_release(f35);
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    has_f16 = wt_context_has_f16(ctx);
    light = test_under_valgrind();
    if (light)
        printf("note: under valgrind: f32 cases only\n");
    if (!has_f16)
        printf("note: no shader-f16 on this adapter: f16 cases not run\n");
    test_cat();
    test_gather();
    test_scatter();
    test_pad_flip();
    test_one_hot_mask();
    test_copy_();
    test_transpose();
    test_edges();
    CHECKF(wt_last_status(ctx) == WT_OK, "left over error: %s", wt_last_error(ctx));
    tt_end(&f);
    return test_end();
}
