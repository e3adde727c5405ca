/* movement.c - shape and data movement: cat, stack, gather, index_select, embedding, scatter_add,
 * pad, flip, one_hot, masked_fill, and copy_ (in place into a view).
 *
 * Everything is one of four index maps run as one dispatch per output (per input for cat), each
 * reading its inputs through their own strides, so views never need a contiguous copy first:
 *   copy     (kernels/copy*.wgsl)   strided source -> strided destination: cat writes each input
 *                                   straight into its slice of the output; stack is cat of views;
 *   gather   (kernels/gather.wgsl)  out[i] = a[base(i) + index(i) * stride]: gather,
 *                                   index_select and embedding differ only in the strides given
 *                                   (an index broadcast along the other dims is a stride of 0);
 *   scatter  (kernels/scatter.wgsl) atomic adds into a fresh copy of the target;
 *   pad      (kernels/pad.wgsl)     per-dim coordinate mapping: constant, reflect, replicate;
 *   transpose (kernels/transpose.wgsl) 32x32 shared-memory tiles: wt_contiguous of a view whose
 *                                   last two dims are swapped (ops.c calls wt_transpose_copy).
 * flip is a copy of a view with negative strides (ops.c's strided copy handles them); one_hot
 * and masked_fill are compositions of ops.c's eq, cast and where.  Index values cannot be
 * checked without reading them back, so out-of-range indices have a defined result instead
 * (documented in tensor.h).  Every op checks shapes and dtypes first and names the op and the
 * shapes in its error. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tensor/internal.h"

#define SHAPE(b, t) wt_shape_str(b, sizeof b, (t)->ndim, (t)->shape)

static bool norm_dim(wt_context *ctx, const char *op, const wt_tensor *t, int *dim, int extra) {
    int n = t->ndim + extra;
    int d = *dim < 0 ? *dim + n : *dim;
    if (n == 0 || d < 0 || d >= n) {
        char b[160];
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dim %d out of range for shape %s", *dim, SHAPE(b, t));
        return false;
    }
    *dim = d;
    return true;
}

static bool is_index(wt_dtype dt) {
    return dt == WT_I32 || dt == WT_U32;
}

static bool check_index(wt_context *ctx, const char *op, const wt_tensor *index) {
    if (!is_index(index->dtype)) {
        char b[160];
        wt_fail(ctx, WT_STATUS_DTYPE, op, "index of shape %s has dtype %s (i32 or u32 needed)", SHAPE(b, index),
                wt_dtype_name(index->dtype));
        return false;
    }
    return true;
}

static wt_status record(wt_context *ctx, const char *op, const wt_kkey *key, wt_params *p, wt_storage *out,
                        uint32_t nin, wt_storage *const *in) {
    wt_kernel *k = wt_kernel_get(ctx, op, key);
    return k ? wt_record(ctx, op, k, p, out, nin, in) : ctx->status;
}

/* ---- cat, stack ---- */

/* Copies src into dst's storage at element offset doff with strides dstr (src's shape).  Dims
 * of size 1 are dropped and neighbours that are contiguous on both sides merged, so cat along dim
 * 0 of contiguous tensors is a 1-d copy; an innermost run divisible by 4 copies 4 per invocation,
 * as one vec4 (copy4.wgsl) when the innermost dim is contiguous on both sides and aligned. */
static wt_status copy_into(wt_context *ctx, const char *op, const wt_tensor *src, const wt_tensor *dst, int64_t doff,
                           const int64_t *dstr) {
    if (!src->numel)
        return WT_OK;
    int64_t shape[WT_MAX_DIMS], ss[WT_MAX_DIMS], ds[WT_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < src->ndim; d++) {
        if (src->shape[d] == 1)
            continue;
        if (nd && ss[nd - 1] == src->strides[d] * src->shape[d] && ds[nd - 1] == dstr[d] * src->shape[d]) {
            shape[nd - 1] *= src->shape[d];
            ss[nd - 1] = src->strides[d];
            ds[nd - 1] = dstr[d];
            continue;
        }
        shape[nd] = src->shape[d];
        ss[nd] = src->strides[d];
        ds[nd] = dstr[d];
        nd++;
    }
    if (!nd) {   /* one element */
        shape[0] = 1;
        ss[0] = ds[0] = 1;
        nd = 1;
    }
    bool four = shape[nd - 1] % 4 == 0;
    /* vec4 elements when everything is in steps of 4 with a contiguous innermost dim */
    bool v4 = four && ss[nd - 1] == 1 && ds[nd - 1] == 1 && src->offset % 4 == 0 && doff % 4 == 0;
    for (int d = 0; d < nd - 1; d++)
        v4 = v4 && ss[d] % 4 == 0 && ds[d] % 4 == 0;
    int q = v4 ? 4 : 1;
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = (uint32_t)(four ? src->numel / 4 : src->numel);
    p.ndim = (uint32_t)nd;
    for (int d = 0; d < nd; d++) {
        p.shape[d] = (uint32_t)(d == nd - 1 ? shape[d] / q : shape[d]);
        p.st[0][d] = (int32_t)(d == nd - 1 ? ss[d] : ss[d] / q);
        p.st[1][d] = (int32_t)(d == nd - 1 ? ds[d] : ds[d] / q);
    }
    p.off[0] = (uint32_t)(src->offset / q);
    p.off[1] = (uint32_t)(doff / q);
    wt_kkey key = wt_key(v4 ? WT_K_copy4 : WT_K_copy, 0, dst->dtype, src->dtype, 0, wt_compute_dtype(dst->dtype));
    key.mode[1] = four && !v4;
    wt_storage *in = src->st;
    return record(ctx, op, &key, &p, dst->st, 1, &in);
}

static wt_tensor *cat_impl(wt_context *ctx, const char *op, wt_tensor *const *ts, int n, int dim) {
    if (!ctx)
        return NULL;
    if (n < 1 || !ts)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "needs at least one tensor (got %d)", n);
    for (int i = 0; i < n; i++)
        if (!wt_check_tensor(ctx, op, ts[i]))
            return NULL;
    const wt_tensor *t0 = ts[0];
    char b[160], c[160];
    if (t0->ndim == 0)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "0-d tensors cannot be concatenated");
    if (!norm_dim(ctx, op, t0, &dim, 0))
        return NULL;
    int64_t shape[WT_MAX_DIMS];
    memcpy(shape, t0->shape, sizeof shape);
    shape[dim] = 0;
    for (int i = 0; i < n; i++) {
        const wt_tensor *t = ts[i];
        if (t->dtype != t0->dtype)
            return wt_fail(ctx, WT_STATUS_DTYPE, op, "tensor %d is %s, tensor 0 is %s (cast first)", i,
                           wt_dtype_name(t->dtype), wt_dtype_name(t0->dtype));
        bool ok = t->ndim == t0->ndim;
        for (int d = 0; ok && d < t->ndim; d++)
            ok = d == dim || t->shape[d] == t0->shape[d];
        if (!ok)
            return wt_fail(ctx, WT_STATUS_SHAPE, op, "tensor %d has shape %s, tensor 0 %s: sizes must match except in dim %d",
                           i, SHAPE(b, t), SHAPE(c, t0), dim);
        shape[dim] += t->shape[dim];
    }
    int64_t numel;
    if (!wt_check_shape(ctx, op, t0->ndim, shape, &numel))
        return NULL;
    wt_tensor *out = wt_tensor_new(ctx, op, t0->dtype, t0->ndim, shape);
    if (!out)
        return NULL;
    int64_t at = 0;
    for (int i = 0; i < n; i++) {
        if (copy_into(ctx, op, ts[i], out, at * out->strides[dim], out->strides) != WT_OK) {
            wt_release(out);
            return NULL;
        }
        at += ts[i]->shape[dim];
    }
    return out;
}

wt_tensor *wt_cat(wt_context *ctx, wt_tensor *const *ts, int n, int dim) {
    return wt__grad(ctx, cat_impl(ctx, "wt_cat", ts, n, dim), WT_G_cat, n, ts, &(wt_gargs){ .i = { dim }, .ni = 1 });
}

wt_tensor *wt_stack(wt_context *ctx, wt_tensor *const *ts, int n, int dim) {
    const char *op = "wt_stack";
    if (!ctx)
        return NULL;
    if (n < 1 || !ts)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "needs at least one tensor (got %d)", n);
    if (n > 4096)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%d tensors (at most 4096)", n);
    for (int i = 0; i < n; i++)
        if (!wt_check_tensor(ctx, op, ts[i]))
            return NULL;
    char b[160], c[160];
    for (int i = 1; i < n; i++)
        if (ts[i]->ndim != ts[0]->ndim || memcmp(ts[i]->shape, ts[0]->shape, (size_t)ts[0]->ndim * sizeof(int64_t)))
            return wt_fail(ctx, WT_STATUS_SHAPE, op, "tensor %d has shape %s, tensor 0 %s: shapes must be equal", i,
                           SHAPE(b, ts[i]), SHAPE(c, ts[0]));
    if (ts[0]->ndim >= WT_MAX_DIMS)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "stacking %d-d tensors gives more than %d dims", ts[0]->ndim, WT_MAX_DIMS);
    if (!norm_dim(ctx, op, ts[0], &dim, 1))
        return NULL;
    wt_tensor **views = wt_alloc(ctx, (size_t)n * sizeof *views);
    if (!views)
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    int made = 0;
    for (; made < n; made++)
        if (!(views[made] = wt_unsqueeze(ctx, ts[made], dim)))
            break;
    wt_tensor *out = made == n ? cat_impl(ctx, op, views, n, dim) : NULL;
    for (int i = 0; i < made; i++)
        wt_release(views[i]);
    wt_free(ctx, views);
    return wt__grad(ctx, out, WT_G_stack, n, ts, &(wt_gargs){ .i = { dim }, .ni = 1 });
}

/* ---- transposed copies (wt_contiguous of a transposed view) ---- */

wt_status wt_transpose_copy(wt_context *ctx, const char *op, wt_tensor *t, wt_tensor **out) {
    *out = NULL;
    int nd = t->ndim;
    if (nd < 2 || !t->numel)
        return WT_OK;
    int64_t R = t->shape[nd - 2], C = t->shape[nd - 1];
    if (R < 8 || C < 8 || t->strides[nd - 2] != 1 || t->strides[nd - 1] < R)
        return WT_OK;   /* not a transposed view worth tiling */
    int64_t tiles = ((R + 31) / 32) * ((C + 31) / 32), groups = t->numel / (R * C) * tiles;
    if (groups * 256 > UINT32_MAX)
        return WT_OK;
    wt_tensor *o = wt_tensor_new(ctx, op, t->dtype, nd, t->shape);
    if (!o)
        return ctx->status;
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = (uint32_t)(groups * 256);
    p.ndim = (uint32_t)(nd - 2);
    for (int d = 0; d < nd - 2; d++) {
        p.shape[d] = (uint32_t)t->shape[d];
        p.st[0][d] = (int32_t)t->strides[d];
    }
    p.off[0] = (uint32_t)t->offset;
    p.aux[0] = (uint32_t)R;
    p.aux[1] = (uint32_t)C;
    p.aux[2] = (uint32_t)t->strides[nd - 1];
    p.aux[3] = (uint32_t)tiles;
    wt_kkey key = wt_key(WT_K_transpose, 0, t->dtype, t->dtype, 0, wt_compute_dtype(t->dtype));
    wt_storage *in = t->st;
    wt_status s = record(ctx, op, &key, &p, o->st, 1, &in);
    if (s != WT_OK) {
        wt_release(o);
        return s;
    }
    *out = o;
    return WT_OK;
}

/* ---- gather, index_select, embedding ---- */

/* out (fresh, contiguous) = a[aoff + i . astr + index[ioff + i . istr] * sdim] over out's shape. */
static wt_tensor *gather_run(wt_context *ctx, const char *op, wt_tensor *a, int64_t n, int64_t sdim, const int64_t *astr,
                             int64_t aoff, wt_tensor *index, const int64_t *istr, int ndim, const int64_t *shape) {
    wt_tensor *out = wt_tensor_new(ctx, op, a->dtype, ndim, shape);
    if (!out)
        return NULL;
    if (!out->numel) {
        ctx->stats.ops++;
        return out;
    }
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = (uint32_t)out->numel;
    p.ndim = (uint32_t)ndim;
    for (int d = 0; d < ndim; d++) {
        p.shape[d] = (uint32_t)shape[d];
        p.st[0][d] = (int32_t)astr[d];
        p.st[1][d] = (int32_t)istr[d];
    }
    p.off[0] = (uint32_t)aoff;
    p.off[1] = (uint32_t)index->offset;
    p.aux[0] = (uint32_t)n;
    int32_t s = (int32_t)sdim;
    memcpy(&p.aux[1], &s, 4);
    wt_kkey key = wt_key(WT_K_gather, 0, a->dtype, a->dtype, index->dtype, wt_compute_dtype(a->dtype));
    key.mode[1] = index->dtype == WT_U32;
    /* n == 0 (nothing to read): every index is out of range and a's buffer may be NULL */
    wt_storage *in[2] = { a->numel ? a->st : NULL, index->st };
    if (record(ctx, op, &key, &p, out->st, 2, in) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

wt_tensor *wt_gather(wt_context *ctx, wt_tensor *t, int dim, wt_tensor *index) {
    const char *op = "wt_gather";
    if (!ctx || !wt_check_tensor(ctx, op, t) || !wt_check_tensor(ctx, op, index) || !check_index(ctx, op, index))
        return NULL;
    char b[160], c[160];
    if (index->ndim != t->ndim)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "index of shape %s and input of shape %s differ in rank", SHAPE(b, index),
                       SHAPE(c, t));
    if (t->ndim == 0) {
        int64_t z = 0;
        if (dim != 0 && dim != -1)
            return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dim %d out of range for shape []", dim);
        return wt__grad(ctx, gather_run(ctx, op, t, 1, 0, &z, t->offset, index, &z, 0, NULL), WT_G_gather, 2,
                        (wt_tensor *const[]){ t, index }, &(wt_gargs){ .ni = 1 });
    }
    if (!norm_dim(ctx, op, t, &dim, 0))
        return NULL;
    int64_t astr[WT_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) {
        if (d != dim && index->shape[d] > t->shape[d])
            return wt_fail(ctx, WT_STATUS_SHAPE, op, "index of shape %s is larger than input of shape %s in dim %d",
                           SHAPE(b, index), SHAPE(c, t), d);
        astr[d] = d == dim ? 0 : t->strides[d];
    }
    return wt__grad(ctx, gather_run(ctx, op, t, t->shape[dim], t->strides[dim], astr, t->offset, index, index->strides,
                                    t->ndim, index->shape),
                    WT_G_gather, 2, (wt_tensor *const[]){ t, index }, &(wt_gargs){ .i = { dim }, .ni = 1 });
}

wt_tensor *wt_index_select(wt_context *ctx, wt_tensor *t, int dim, wt_tensor *index) {
    const char *op = "wt_index_select";
    if (!ctx || !wt_check_tensor(ctx, op, t) || !wt_check_tensor(ctx, op, index) || !check_index(ctx, op, index))
        return NULL;
    char b[160];
    if (index->ndim > 1)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "index must be 1-d, got shape %s", SHAPE(b, index));
    if (!norm_dim(ctx, op, t, &dim, 0))
        return NULL;
    int64_t astr[WT_MAX_DIMS], istr[WT_MAX_DIMS], shape[WT_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) {
        astr[d] = d == dim ? 0 : t->strides[d];
        istr[d] = d == dim && index->ndim ? index->strides[0] : 0;
        shape[d] = d == dim ? index->numel : t->shape[d];
    }
    return wt__grad(ctx, gather_run(ctx, op, t, t->shape[dim], t->strides[dim], astr, t->offset, index, istr, t->ndim, shape),
                    WT_G_index_select, 2, (wt_tensor *const[]){ t, index }, &(wt_gargs){ .i = { dim }, .ni = 1 });
}

wt_tensor *wt_embedding(wt_context *ctx, wt_tensor *weight, wt_tensor *indices) {
    const char *op = "wt_embedding";
    if (!ctx || !wt_check_tensor(ctx, op, weight) || !wt_check_tensor(ctx, op, indices) || !check_index(ctx, op, indices))
        return NULL;
    char b[160], c[160];
    if (weight->ndim != 2)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "weight must be 2-d [num, dim], got shape %s", SHAPE(b, weight));
    if (indices->ndim >= WT_MAX_DIMS)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "indices of shape %s give more than %d dims", SHAPE(b, indices),
                       WT_MAX_DIMS);
    int nd = indices->ndim + 1;
    int64_t astr[WT_MAX_DIMS] = { 0 }, istr[WT_MAX_DIMS] = { 0 }, shape[WT_MAX_DIMS];
    for (int d = 0; d < indices->ndim; d++) {
        istr[d] = indices->strides[d];
        shape[d] = indices->shape[d];
    }
    astr[nd - 1] = weight->strides[1];
    shape[nd - 1] = weight->shape[1];
    int64_t numel;
    if (!wt_check_shape(ctx, op, nd, shape, &numel))
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "indices %s with weight %s: output too large", SHAPE(b, indices),
                       SHAPE(c, weight));
    return wt__grad(ctx, gather_run(ctx, op, weight, weight->shape[0], weight->strides[0], astr, weight->offset, indices,
                                    istr, nd, shape),
                    WT_G_embedding, 2, (wt_tensor *const[]){ weight, indices }, NULL);
}

/* ---- scatter_add ---- */

wt_tensor *wt_scatter_add(wt_context *ctx, wt_tensor *t, int dim, wt_tensor *index, wt_tensor *src) {
    const char *op = "wt_scatter_add";
    if (!ctx || !wt_check_tensor(ctx, op, t) || !wt_check_tensor(ctx, op, index) || !wt_check_tensor(ctx, op, src) ||
        !check_index(ctx, op, index))
        return NULL;
    char b[160], c[160], e[160];
    if (t->dtype == WT_BOOL || src->dtype != t->dtype)
        return wt_fail(ctx, WT_STATUS_DTYPE, op, "input %s and src %s: equal dtypes needed, bool not supported",
                       wt_dtype_name(t->dtype), wt_dtype_name(src->dtype));
    if (index->ndim != t->ndim || src->ndim != t->ndim)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "input %s, index %s and src %s must have the same rank", SHAPE(b, t),
                       SHAPE(c, index), SHAPE(e, src));
    int nd = t->ndim;
    if (nd == 0) {
        if (dim != 0 && dim != -1)
            return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dim %d out of range for shape []", dim);
    } else if (!norm_dim(ctx, op, t, &dim, 0)) {
        return NULL;
    }
    for (int d = 0; d < nd; d++)
        if (index->shape[d] > src->shape[d] || (d != dim && index->shape[d] > t->shape[d]))
            return wt_fail(ctx, WT_STATUS_SHAPE, op, "index %s must fit in src %s (every dim) and input %s (dims but %d)",
                           SHAPE(b, index), SHAPE(c, src), SHAPE(e, t), dim);
    bool half = t->dtype == WT_F16;
    wt_dtype work = half ? WT_F32 : t->dtype;
    wt_tensor *out = half ? wt_cast(ctx, t, WT_F32) : wt_clone(ctx, t);
    wt_tensor *s = half ? wt_cast(ctx, src, WT_F32) : src;
    if (!out || !s) {
        wt_release(out);
        return NULL;
    }
    if (!half)
        wt_retain(s);
    wt_status st = WT_OK;
    if (index->numel && out->numel) {   /* an empty input takes nothing (every index is out of range) */
        wt_params p;
        memset(&p, 0, sizeof p);
        p.n = (uint32_t)index->numel;
        p.ndim = (uint32_t)nd;
        for (int d = 0; d < nd; d++) {
            p.shape[d] = (uint32_t)index->shape[d];
            p.st[0][d] = (int32_t)s->strides[d];
            p.st[1][d] = (int32_t)index->strides[d];
            p.st[2][d] = d == dim ? 0 : (int32_t)out->strides[d];
        }
        p.off[0] = (uint32_t)s->offset;
        p.off[1] = (uint32_t)index->offset;
        p.aux[0] = (uint32_t)(nd ? t->shape[dim] : 1);
        int32_t sd = nd ? (int32_t)out->strides[dim] : 0;
        memcpy(&p.aux[1], &sd, 4);
        wt_kkey key = wt_key(WT_K_scatter, work == WT_F32 ? 1 : 0, work, work, index->dtype, wt_compute_dtype(work));
        key.mode[1] = index->dtype == WT_U32;
        wt_storage *in[2] = { s->st, index->st };
        st = record(ctx, op, &key, &p, out->st, 2, in);
    }
    wt_release(s);
    if (st != WT_OK) {
        wt_release(out);
        return NULL;
    }
    if (half) {
        wt_tensor *h = wt_cast(ctx, out, WT_F16);
        wt_release(out);
        out = h;
    }
    return wt__grad(ctx, out, WT_G_scatter_add, 3, (wt_tensor *const[]){ t, index, src }, &(wt_gargs){ .i = { dim }, .ni = 1 });
}

/* ---- pad, flip ---- */

wt_tensor *wt_pad(wt_context *ctx, wt_tensor *t, const int64_t *pads, wt_pad_mode mode, double value) {
    const char *op = "wt_pad";
    if (!ctx || !wt_check_tensor(ctx, op, t))
        return NULL;
    char b[160];
    if (mode < WT_PAD_CONSTANT || mode >= WT_PAD_MODE_COUNT)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "pad mode %d is not a wt_pad_mode", (int)mode);
    if (t->ndim && !pads)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "pads is NULL for shape %s", SHAPE(b, t));
    int64_t shape[WT_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) {
        int64_t lo = pads[2 * d], hi = pads[2 * d + 1], n = t->shape[d];
        if (lo < 0 || hi < 0 || lo > INT32_MAX || hi > INT32_MAX)
            return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "pads (%lld, %lld) of dim %d must be >= 0", (long long)lo,
                           (long long)hi, d);
        if (mode == WT_PAD_REFLECT && (lo || hi) && (lo >= n || hi >= n))
            return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "reflect pads (%lld, %lld) of dim %d must be < its size in shape %s",
                           (long long)lo, (long long)hi, d, SHAPE(b, t));
        if (mode == WT_PAD_REPLICATE && (lo || hi) && n == 0)
            return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "replicate padding of empty dim %d of shape %s", d,
                           SHAPE(b, t));
        shape[d] = n + lo + hi;
    }
    wt_tensor *out = wt_tensor_new(ctx, op, t->dtype, t->ndim, shape);
    if (!out)
        return NULL;
    if (!out->numel) {
        ctx->stats.ops++;
        return out;
    }
    wt_dtype cdt = wt_compute_dtype(t->dtype);
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = (uint32_t)out->numel;
    p.ndim = (uint32_t)t->ndim;
    for (int d = 0; d < t->ndim; d++) {
        p.shape[d] = (uint32_t)shape[d];
        p.st[0][d] = (int32_t)t->strides[d];
        p.st[1][d] = (int32_t)pads[2 * d];
        p.st[2][d] = (int32_t)t->shape[d];
    }
    p.off[0] = (uint32_t)t->offset;
    p.sv[0] = wt_scalar_bits(cdt, t->dtype == WT_BOOL ? (value != 0) : value);
    wt_kkey key = wt_key(WT_K_pad, (uint32_t)mode, t->dtype, t->dtype, 0, cdt);
    wt_storage *in = t->numel ? t->st : NULL;
    if (record(ctx, op, &key, &p, out->st, 1, &in) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    wt_gargs ga = { .f = { mode }, .ni = 2 * t->ndim };
    if (ga.ni)   /* a 0-d tensor's pads may be NULL */
        memcpy(ga.i, pads, (size_t)ga.ni * sizeof *pads);
    return wt__grad(ctx, out, WT_G_pad, 1, &t, &ga);
}

wt_tensor *wt_flip(wt_context *ctx, wt_tensor *t, int ndims, const int *dims) {
    const char *op = "wt_flip";
    if (!ctx || !wt_check_tensor(ctx, op, t))
        return NULL;
    char b[160];
    if (ndims < 0 || ndims > WT_MAX_DIMS || (ndims && !dims))
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%d dims given for shape %s", ndims, SHAPE(b, t));
    int64_t strides[WT_MAX_DIMS], off = t->offset;
    bool seen[WT_MAX_DIMS] = { 0 };
    memcpy(strides, t->strides, sizeof strides);
    for (int i = 0; i < ndims; i++) {
        int d = dims[i];
        if (!norm_dim(ctx, op, t, &d, 0))
            return NULL;
        if (seen[d])
            return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dim %d repeated for shape %s", dims[i], SHAPE(b, t));
        seen[d] = true;
        if (t->shape[d] > 1) {
            off += (t->shape[d] - 1) * strides[d];
            strides[d] = -strides[d];
        }
    }
    wt_tensor *v = wt_tensor_view(ctx, op, t, t->ndim, t->shape, strides, off);
    wt_tensor *out = v ? wt_clone(ctx, v) : NULL;
    wt_release(v);
    wt_gargs ga = { .ni = ndims };
    for (int i = 0; i < ndims; i++)
        ga.i[i] = dims[i];
    return wt__grad(ctx, out, WT_G_flip, 1, &t, &ga);
}

/* ---- one_hot, masked_fill ---- */

wt_tensor *wt_one_hot(wt_context *ctx, wt_tensor *indices, int64_t num_classes) {
    const char *op = "wt_one_hot";
    if (!ctx || !wt_check_tensor(ctx, op, indices) || !check_index(ctx, op, indices))
        return NULL;
    char b[160];
    if (indices->ndim >= WT_MAX_DIMS)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "indices of shape %s give more than %d dims", SHAPE(b, indices), WT_MAX_DIMS);
    if (num_classes <= 0) {
        if (!indices->numel)
            return wt_fail(ctx, WT_STATUS_SHAPE, op, "cannot infer the number of classes of empty indices %s",
                           SHAPE(b, indices));
        wt_tensor *m = wt_max(ctx, indices, 0, NULL, false);
        double v = 0;
        wt_status s = m ? wt_item(ctx, m, &v) : ctx->status;
        wt_release(m);
        if (s != WT_OK)
            return NULL;
        if (v < 0)
            return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "indices are all negative (max %g): no class count", v);
        num_classes = (int64_t)v + 1;
    }
    if (num_classes > INT32_MAX)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%lld classes (at most 2^31 - 1)", (long long)num_classes);
    wt_tensor *ar = wt_arange(ctx, indices->dtype, 0, (double)num_classes, 1);
    wt_tensor *u = ar ? wt_unsqueeze(ctx, indices, -1) : NULL;
    wt_tensor *eq = u ? wt_eq(ctx, u, ar) : NULL;
    wt_tensor *out = eq ? wt_cast(ctx, eq, WT_I32) : NULL;
    wt_release(ar);
    wt_release(u);
    wt_release(eq);
    return out;
}

wt_tensor *wt_masked_fill(wt_context *ctx, wt_tensor *t, wt_tensor *mask, double value) {
    const char *op = "wt_masked_fill";
    if (!ctx || !wt_check_tensor(ctx, op, t) || !wt_check_tensor(ctx, op, mask))
        return NULL;
    char b[160], c[160];
    bool ok = mask->ndim <= t->ndim;
    for (int d = 0; ok && d < mask->ndim; d++) {
        int64_t m = mask->shape[d], s = t->shape[d + t->ndim - mask->ndim];
        ok = m == s || m == 1;
    }
    if (!ok)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "mask of shape %s does not broadcast to input shape %s", SHAPE(b, mask),
                       SHAPE(c, t));
    wt_tensor *s = wt_full(ctx, t->dtype, 0, NULL, t->dtype == WT_BOOL ? (value != 0) : value);
    wt_tensor *out = s ? wt_where(ctx, mask, s, t) : NULL;
    wt_release(s);
    return wt__grad(ctx, out, WT_G_masked_fill, 2, (wt_tensor *const[]){ t, mask }, NULL);
}

/* ---- in-place copy ---- */

wt_status wt_copy_(wt_context *ctx, wt_tensor *dst, wt_tensor *src) {
    const char *op = "wt_copy_";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!wt_check_tensor(ctx, op, dst) || !wt_check_tensor(ctx, op, src))
        return ctx->status;
    char b[160], c[160];
    bool same = dst->ndim == src->ndim;
    for (int d = 0; same && d < dst->ndim; d++)
        same = dst->shape[d] == src->shape[d];
    if (!same)
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "destination %s and source %s differ in shape", SHAPE(b, dst),
                         SHAPE(c, src));
    if (dst->st == src->st && dst->numel)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "destination %s and source %s share storage",
                         SHAPE(b, dst), SHAPE(c, src));
    return copy_into(ctx, op, src, dst, dst->offset, dst->strides);
}
