/* tensor.c - tensor objects and views.  A tensor is (storage, dtype, shape, strides, offset);
 * strides and offset count elements.  Views (reshape/view, permute, transpose, expand, squeeze,
 * unsqueeze, slice, narrow, select, chunk, split) make a new tensor on the same storage and
 * never copy, except reshape when the layout does not allow a view.  Tensor and storage records
 * come from free lists of the context; live tensors sit on a list so the context can free them
 * all.  Readback (wt_to_host, wt_item) flushes the batch, waits and copies out. */
#include <math.h>
#include <string.h>

#include "tensor/internal.h"

/* ---- storages ---- */

wt_storage *wt_storage_new(wt_context *ctx, const char *op, uint64_t bytes) {
    wt_storage *st = ctx->free_storages;
    if (st)
        ctx->free_storages = st->next_free;
    else if (!(st = wt_alloc(ctx, sizeof *st)))
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    memset(st, 0, sizeof *st);
    st->ctx = ctx;
    st->refs = 1;
    st->bytes = bytes;
    if (bytes && wt_pool_get(ctx, op, bytes, &st->buf, &st->cls) != WT_OK) {
        st->next_free = ctx->free_storages;
        ctx->free_storages = st;
        return NULL;
    }
    return st;
}

void wt_storage_ref(wt_storage *st) {
    st->refs++;
}

void wt_storage_unref(wt_storage *st) {
    if (--st->refs)
        return;
    wt_context *ctx = st->ctx;
    if (st->buf)
        wt_pool_put(ctx, st->buf, st->cls);
    st->buf = NULL;
    st->next_free = ctx->free_storages;
    ctx->free_storages = st;
}

/* ---- tensors ---- */

bool wt_valid_dtype(wt_context *ctx, const char *op, wt_dtype dt) {
    if (dt <= WT_DTYPE_DEFAULT || dt >= WT_DTYPE_COUNT) {
        wt_fail(ctx, WT_STATUS_DTYPE, op, "dtype %d is not a wt_dtype", (int)dt);
        return false;
    }
    if (dt == WT_F16 && !ctx->f16) {
        wt_fail(ctx, WT_STATUS_DTYPE, op, "f16 needs a device with the shader-f16 feature");
        return false;
    }
    return true;
}

bool wt_check_shape(wt_context *ctx, const char *op, int ndim, const int64_t *shape, int64_t *numel) {
    if (ndim < 0 || ndim > WT_MAX_DIMS) {
        wt_fail(ctx, WT_STATUS_SHAPE, op, "%d dimensions (at most %d)", ndim, WT_MAX_DIMS);
        return false;
    }
    if (ndim && !shape) {
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "shape is NULL");
        return false;
    }
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            char b[160];
            wt_fail(ctx, WT_STATUS_SHAPE, op, "negative size in shape %s", wt_shape_str(b, sizeof b, ndim, shape));
            return false;
        }
        if (shape[i] && n > INT32_MAX / shape[i]) {
            char b[160];
            wt_fail(ctx, WT_STATUS_SHAPE, op, "shape %s has more than 2^31 - 1 elements",
                    wt_shape_str(b, sizeof b, ndim, shape));
            return false;
        }
        n *= shape[i];
    }
    *numel = n;
    return true;
}

bool wt_check_tensor(wt_context *ctx, const char *op, const wt_tensor *t) {
    if (!ctx)   /* no context to report to: the op returns its error value */
        return false;
    if (!t) {
        /* keep the root cause when an earlier call failed: chains can be checked once at the end */
        if (ctx->status == WT_OK)
            wt_fail(ctx, WT_STATUS_NULL_TENSOR, op, "NULL tensor passed");
        return false;
    }
    if (!t->refs) {
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "tensor was already released");
        return false;
    }
    if (t->ctx != ctx) {
        wt_fail(ctx, WT_STATUS_WRONG_CONTEXT, op, "tensor belongs to another context");
        return false;
    }
    return true;
}

static wt_tensor *tensor_alloc(wt_context *ctx, const char *op) {
    wt_tensor *t = ctx->free_tensors;
    if (t)
        ctx->free_tensors = t->next;
    else if (!(t = wt_alloc(ctx, sizeof *t)))
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    t->refs = 1;
    t->next = ctx->live_tensors;
    if (ctx->live_tensors)
        ctx->live_tensors->prev = t;
    ctx->live_tensors = t;
    ctx->stats.live_tensors++;
    return t;
}

static void contiguous_strides(int ndim, const int64_t *shape, int64_t *strides) {
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s *= shape[i] ? shape[i] : 1;
    }
}

wt_tensor *wt_tensor_new(wt_context *ctx, const char *op, wt_dtype dt, int ndim, const int64_t *shape) {
    int64_t numel;
    if (dt == WT_DTYPE_DEFAULT)
        dt = WT_F32;
    if (!wt_valid_dtype(ctx, op, dt) || !wt_check_shape(ctx, op, ndim, shape, &numel))
        return NULL;
    wt_storage *st = wt_storage_new(ctx, op, (uint64_t)numel * wt_gpu_size(dt));
    if (!st)
        return NULL;
    wt_tensor *t = tensor_alloc(ctx, op);
    if (!t) {
        wt_storage_unref(st);
        return NULL;
    }
    t->dtype = dt;
    t->ndim = ndim;
    if (ndim)
        memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
    contiguous_strides(ndim, t->shape, t->strides);
    t->numel = numel;
    t->st = st;
    return t;
}

wt_tensor *wt_tensor_view(wt_context *ctx, const char *op, wt_tensor *base, int ndim, const int64_t *shape,
                          const int64_t *strides, int64_t offset) {
    wt_tensor *t = tensor_alloc(ctx, op);
    if (!t)
        return NULL;
    t->dtype = base->dtype;
    t->ndim = ndim;
    t->numel = 1;
    for (int i = 0; i < ndim; i++) {
        t->shape[i] = shape[i];
        t->strides[i] = strides[i];
        t->numel *= shape[i];
    }
    t->offset = offset;
    t->st = base->st;
    wt_storage_ref(t->st);
    return t;
}

/* A released tensor (refs 0) sits on the context's free list, so releasing or retaining it again
 * is reported instead of corrupting the lists.  After wt_context_destroy the tensors the caller
 * still holds have no storage and keep the context's shell alive; releasing the last of them
 * frees the shell (see wt_context_destroy). */
static bool tensor_live(wt_tensor *t, const char *op) {
    if (t->refs)
        return true;
    wt_fail(t->ctx, WT_STATUS_INVALID_ARGUMENT, op, "tensor was already released");
    return false;
}

void wt_retain(wt_tensor *t) {
    if (t && tensor_live(t, "wt_retain"))
        t->refs++;
}

void wt_release(wt_tensor *t) {
    if (!t || !tensor_live(t, "wt_release") || --t->refs)
        return;
    wt_context *ctx = t->ctx;
    wt__grad_release(t);   /* its node, its gradient */
    if (t->st)
        wt_storage_unref(t->st);
    t->st = NULL;
    if (t->prev)
        t->prev->next = t->next;
    else
        ctx->live_tensors = t->next;
    if (t->next)
        t->next->prev = t->prev;
    ctx->stats.live_tensors--;
    if (ctx->destroyed) {
        wt_free(ctx, t);
        if (!ctx->live_tensors)
            wt_free(ctx, ctx);
        return;
    }
    t->next = ctx->free_tensors;
    t->prev = NULL;
    ctx->free_tensors = t;
}

void wt_tensors_destroy(wt_context *ctx) {
    for (wt_tensor *t = ctx->live_tensors; t; t = t->next) {  /* they stay, without storage */
        if (t->st)
            wt_storage_unref(t->st);
        t->st = NULL;
    }
    for (wt_tensor *t = ctx->free_tensors, *n; t; t = n) {
        n = t->next;
        wt_free(ctx, t);
    }
    ctx->free_tensors = NULL;
    for (wt_storage *s = ctx->free_storages, *n; s; s = n) {
        n = s->next_free;
        wt_free(ctx, s);
    }
    ctx->free_storages = NULL;
}

wt_dtype wt_dtype_of(const wt_tensor *t) { return t ? t->dtype : WT_DTYPE_DEFAULT; }
int wt_ndim(const wt_tensor *t) { return t ? t->ndim : 0; }
const int64_t *wt_shape(const wt_tensor *t) { return t ? t->shape : NULL; }
const int64_t *wt_strides(const wt_tensor *t) { return t ? t->strides : NULL; }
int64_t wt_offset(const wt_tensor *t) { return t ? t->offset : 0; }
int64_t wt_numel(const wt_tensor *t) { return t ? t->numel : 0; }
bool wt_same_storage(const wt_tensor *a, const wt_tensor *b) { return a && b && a->st == b->st; }

int64_t wt_size(const wt_tensor *t, int dim) {
    if (!t)
        return -1;
    if (dim < 0)
        dim += t->ndim;
    return dim >= 0 && dim < t->ndim ? t->shape[dim] : -1;
}

bool wt_is_contiguous(const wt_tensor *t) {
    if (!t)
        return false;
    if (t->numel == 0)
        return true;
    int64_t s = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] != 1 && t->strides[i] != s)
            return false;
        s *= t->shape[i];
    }
    return true;
}

/* ---- views ---- */

static bool norm_dim(wt_context *ctx, const char *op, const wt_tensor *t, int *dim, int extra) {
    int n = t->ndim + extra;
    int d = *dim < 0 ? *dim + n : *dim;
    if (n == 0 || d < 0 || d >= n) {
        char b[160];
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dim %d out of range for shape %s", *dim,
                wt_shape_str(b, sizeof b, t->ndim, t->shape));
        return false;
    }
    *dim = d;
    return true;
}

/* Strides for viewing t with new shape (same numel) without a copy; false when impossible. */
static bool view_strides(const wt_tensor *t, int ndim, const int64_t *shape, int64_t *strides) {
    if (wt_is_contiguous(t)) {
        contiguous_strides(ndim, shape, strides);
        return true;
    }
    /* Walk the old dims from the right in runs that are contiguous among themselves; each run
     * must be covered exactly by a run of new dims, which then get strides within the run. */
    int vd = ndim - 1;
    int64_t base = t->strides[t->ndim - 1], tn = 1, vn = 1;
    for (int td = t->ndim - 1; td >= 0; td--) {
        tn *= t->shape[td];
        if (td == 0 || (t->shape[td - 1] != 1 && t->strides[td - 1] != tn * base)) {
            while (vd >= 0 && (vn < tn || shape[vd] == 1)) {
                strides[vd] = vn * base;
                vn *= shape[vd];
                vd--;
            }
            if (vn != tn)
                return false;
            if (td > 0) {
                base = t->strides[td - 1];
                tn = vn = 1;
            }
        }
    }
    return vd == -1;
}

static bool infer_shape(wt_context *ctx, const char *op, const wt_tensor *t, int ndim, const int64_t *in, int64_t *out) {
    char b1[160], b2[160];
    if (ndim < 0 || ndim > WT_MAX_DIMS || (ndim && !in)) {
        wt_fail(ctx, WT_STATUS_SHAPE, op, "bad target rank %d", ndim);
        return false;
    }
    int infer = -1;
    int64_t known = 1;
    for (int i = 0; i < ndim; i++) {
        out[i] = in[i];
        if (in[i] == -1) {
            if (infer >= 0) {
                wt_fail(ctx, WT_STATUS_SHAPE, op, "only one -1 allowed in %s", wt_shape_str(b1, sizeof b1, ndim, in));
                return false;
            }
            infer = i;
        } else if (in[i] < 0) {
            wt_fail(ctx, WT_STATUS_SHAPE, op, "negative size in %s", wt_shape_str(b1, sizeof b1, ndim, in));
            return false;
        } else {
            known *= in[i];
        }
    }
    if (infer >= 0) {
        if (known == 0 || t->numel % known) {
            wt_fail(ctx, WT_STATUS_SHAPE, op, "cannot infer -1 in %s for %lld elements",
                    wt_shape_str(b1, sizeof b1, ndim, in), (long long)t->numel);
            return false;
        }
        out[infer] = t->numel / known;
        known *= out[infer];
    }
    if (known != t->numel) {
        wt_fail(ctx, WT_STATUS_SHAPE, op, "shape %s is invalid for a tensor of shape %s (%lld elements)",
                wt_shape_str(b1, sizeof b1, ndim, in), wt_shape_str(b2, sizeof b2, t->ndim, t->shape),
                (long long)t->numel);
        return false;
    }
    return true;
}

static wt_tensor *reshape_impl(wt_context *ctx, const char *op, wt_tensor *t, int ndim, const int64_t *shape, bool copy) {
    if (!wt_check_tensor(ctx, op, t))
        return NULL;
    int64_t ns[WT_MAX_DIMS], st[WT_MAX_DIMS];
    if (!infer_shape(ctx, op, t, ndim, shape, ns))
        return NULL;
    if (view_strides(t, ndim, ns, st))
        return wt_tensor_view(ctx, op, t, ndim, ns, st, t->offset);
    if (!copy) {
        char b1[160], b2[160];
        return wt_fail(ctx, WT_STATUS_NOT_VIEWABLE, op, "cannot view shape %s (non-contiguous) as %s; use reshape",
                       wt_shape_str(b1, sizeof b1, t->ndim, t->shape), wt_shape_str(b2, sizeof b2, ndim, ns));
    }
    wt_tensor *c = wt_contiguous(ctx, t);
    if (!c)
        return NULL;
    contiguous_strides(ndim, ns, st);
    wt_tensor *r = wt_tensor_view(ctx, op, c, ndim, ns, st, c->offset);
    wt_release(c);
    return r;
}

wt_tensor *wt_reshape(wt_context *ctx, wt_tensor *t, int ndim, const int64_t *shape) {
    return wt__grad(ctx, reshape_impl(ctx, "wt_reshape", t, ndim, shape, true), WT_G_reshape, 1, &t, NULL);
}

wt_tensor *wt_view(wt_context *ctx, wt_tensor *t, int ndim, const int64_t *shape) {
    return wt__grad(ctx, reshape_impl(ctx, "wt_view", t, ndim, shape, false), WT_G_reshape, 1, &t, NULL);
}

wt_tensor *wt_flatten(wt_context *ctx, wt_tensor *t) {
    return wt__grad(ctx, reshape_impl(ctx, "wt_flatten", t, 1, (const int64_t[]){ -1 }, true), WT_G_reshape, 1, &t, NULL);
}

wt_tensor *wt_permute(wt_context *ctx, wt_tensor *t, const int *dims) {
    const char *op = "wt_permute";
    if (!wt_check_tensor(ctx, op, t))
        return NULL;
    if (t->ndim && !dims)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dims is NULL");
    int64_t ns[WT_MAX_DIMS], st[WT_MAX_DIMS];
    bool seen[WT_MAX_DIMS] = { 0 };
    for (int i = 0; i < t->ndim; i++) {
        int d = dims[i] < 0 ? dims[i] + t->ndim : dims[i];
        if (d < 0 || d >= t->ndim || seen[d]) {
            char b[160];
            return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dims are not a permutation of 0..%d for shape %s",
                           t->ndim - 1, wt_shape_str(b, sizeof b, t->ndim, t->shape));
        }
        seen[d] = true;
        ns[i] = t->shape[d];
        st[i] = t->strides[d];
    }
    wt_gargs ga = { .ni = t->ndim };
    for (int i = 0; i < t->ndim; i++)
        ga.i[i] = dims[i];
    return wt__grad(ctx, wt_tensor_view(ctx, op, t, t->ndim, ns, st, t->offset), WT_G_permute, 1, &t, &ga);
}

wt_tensor *wt_transpose(wt_context *ctx, wt_tensor *t, int d0, int d1) {
    const char *op = "wt_transpose";
    if (!wt_check_tensor(ctx, op, t))
        return NULL;
    if (t->ndim == 0 && (d0 == 0 || d0 == -1) && (d1 == 0 || d1 == -1))
        return wt__grad(ctx, wt_tensor_view(ctx, op, t, 0, t->shape, t->strides, t->offset), WT_G_reshape, 1, &t, NULL);
    if (!norm_dim(ctx, op, t, &d0, 0) || !norm_dim(ctx, op, t, &d1, 0))
        return NULL;
    int64_t ns[WT_MAX_DIMS], st[WT_MAX_DIMS];
    memcpy(ns, t->shape, sizeof ns);
    memcpy(st, t->strides, sizeof st);
    ns[d0] = t->shape[d1], ns[d1] = t->shape[d0];
    st[d0] = t->strides[d1], st[d1] = t->strides[d0];
    return wt__grad(ctx, wt_tensor_view(ctx, op, t, t->ndim, ns, st, t->offset), WT_G_transpose, 1, &t,
                    &(wt_gargs){ .i = { d0, d1 }, .ni = 2 });
}

wt_tensor *wt_expand(wt_context *ctx, wt_tensor *t, int ndim, const int64_t *shape) {
    const char *op = "wt_expand";
    if (!wt_check_tensor(ctx, op, t))
        return NULL;
    char b1[160], b2[160];
    if (ndim < t->ndim || ndim > WT_MAX_DIMS || (ndim && !shape))
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "cannot expand shape %s to rank %d",
                       wt_shape_str(b1, sizeof b1, t->ndim, t->shape), ndim);
    int64_t ns[WT_MAX_DIMS], st[WT_MAX_DIMS];
    int lead = ndim - t->ndim;
    for (int i = 0; i < ndim; i++) {
        int64_t want = shape[i];
        if (i < lead) {
            if (want < 0)
                goto bad;
            ns[i] = want, st[i] = 0;
            continue;
        }
        int64_t have = t->shape[i - lead];
        if (want == -1 || want == have)
            ns[i] = have, st[i] = t->strides[i - lead];
        else if (have == 1 && want >= 0)
            ns[i] = want, st[i] = 0;
        else
            goto bad;
    }
    return wt__grad(ctx, wt_tensor_view(ctx, op, t, ndim, ns, st, t->offset), WT_G_expand, 1, &t, NULL);
bad:
    return wt_fail(ctx, WT_STATUS_SHAPE, op, "cannot expand shape %s to %s",
                   wt_shape_str(b1, sizeof b1, t->ndim, t->shape), wt_shape_str(b2, sizeof b2, ndim, shape));
}

static wt_tensor *drop_dims(wt_context *ctx, const char *op, wt_tensor *t, int only) {
    int64_t ns[WT_MAX_DIMS], st[WT_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->ndim; i++)
        if (!(t->shape[i] == 1 && (only < 0 || only == i)))
            ns[n] = t->shape[i], st[n++] = t->strides[i];
    return wt_tensor_view(ctx, op, t, n, ns, st, t->offset);
}

wt_tensor *wt_squeeze(wt_context *ctx, wt_tensor *t, int dim) {
    const char *op = "wt_squeeze";
    if (!wt_check_tensor(ctx, op, t))
        return NULL;
    if (t->ndim == 0 && (dim == 0 || dim == -1))
        return wt__grad(ctx, drop_dims(ctx, op, t, 0), WT_G_reshape, 1, &t, NULL);
    if (!norm_dim(ctx, op, t, &dim, 0))
        return NULL;
    return wt__grad(ctx, drop_dims(ctx, op, t, dim), WT_G_reshape, 1, &t, NULL);
}

wt_tensor *wt_squeeze_all(wt_context *ctx, wt_tensor *t) {
    if (!wt_check_tensor(ctx, "wt_squeeze_all", t))
        return NULL;
    return wt__grad(ctx, drop_dims(ctx, "wt_squeeze_all", t, -1), WT_G_reshape, 1, &t, NULL);
}

wt_tensor *wt_unsqueeze(wt_context *ctx, wt_tensor *t, int dim) {
    const char *op = "wt_unsqueeze";
    if (!wt_check_tensor(ctx, op, t))
        return NULL;
    if (t->ndim >= WT_MAX_DIMS)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "already %d dimensions", WT_MAX_DIMS);
    if (!norm_dim(ctx, op, t, &dim, 1))
        return NULL;
    int64_t ns[WT_MAX_DIMS], st[WT_MAX_DIMS];
    for (int i = 0, j = 0; i <= t->ndim; i++) {
        if (i == dim) {
            ns[i] = 1;
            st[i] = dim < t->ndim ? t->shape[dim] * t->strides[dim] : 1;
        } else {
            ns[i] = t->shape[j], st[i] = t->strides[j], j++;
        }
    }
    return wt__grad(ctx, wt_tensor_view(ctx, op, t, t->ndim + 1, ns, st, t->offset), WT_G_reshape, 1, &t, NULL);
}

wt_tensor *wt_slice(wt_context *ctx, wt_tensor *t, int dim, int64_t start, int64_t end, int64_t step) {
    const char *op = "wt_slice";
    if (!wt_check_tensor(ctx, op, t) || !norm_dim(ctx, op, t, &dim, 0))
        return NULL;
    if (step < 1)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "step %lld must be >= 1", (long long)step);
    int64_t n = t->shape[dim];
    if (start < 0)
        start += n;
    if (end < 0)
        end += n;
    start = start < 0 ? 0 : start > n ? n : start;
    end = end < start ? start : end > n ? n : end;
    int64_t ns[WT_MAX_DIMS], st[WT_MAX_DIMS];
    memcpy(ns, t->shape, sizeof ns);
    memcpy(st, t->strides, sizeof st);
    ns[dim] = end == start ? 0 : 1 + (end - start - 1) / step;   /* no end - start + step: it overflows */
    st[dim] = ns[dim] > 1 ? t->strides[dim] * step : t->strides[dim];   /* step < n there: no overflow */
    return wt__grad(ctx, wt_tensor_view(ctx, op, t, t->ndim, ns, st, t->offset + (ns[dim] ? start * t->strides[dim] : 0)),
                    WT_G_slice, 1, &t, &(wt_gargs){ .i = { dim, start, end, step }, .ni = 4 });
}

wt_tensor *wt_narrow(wt_context *ctx, wt_tensor *t, int dim, int64_t start, int64_t length) {
    const char *op = "wt_narrow";
    if (!wt_check_tensor(ctx, op, t) || !norm_dim(ctx, op, t, &dim, 0))
        return NULL;
    int64_t n = t->shape[dim];
    if (start < 0)
        start += n;
    if (start < 0 || length < 0 || start > n || length > n - start) {   /* not start + length: overflow */
        char b[160];
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "start %lld + length %lld out of range for dim %d of shape %s",
                       (long long)start, (long long)length, dim, wt_shape_str(b, sizeof b, t->ndim, t->shape));
    }
    return wt_slice(ctx, t, dim, start, start + length, 1);
}

wt_tensor *wt_select(wt_context *ctx, wt_tensor *t, int dim, int64_t index) {
    const char *op = "wt_select";
    if (!wt_check_tensor(ctx, op, t) || !norm_dim(ctx, op, t, &dim, 0))
        return NULL;
    int64_t n = t->shape[dim];
    if (index < 0)
        index += n;
    if (index < 0 || index >= n) {
        char b[160];
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "index %lld out of range for dim %d of shape %s",
                       (long long)index, dim, wt_shape_str(b, sizeof b, t->ndim, t->shape));
    }
    int64_t ns[WT_MAX_DIMS], st[WT_MAX_DIMS];
    for (int i = 0, j = 0; i < t->ndim; i++)
        if (i != dim)
            ns[j] = t->shape[i], st[j++] = t->strides[i];
    return wt__grad(ctx, wt_tensor_view(ctx, op, t, t->ndim - 1, ns, st, t->offset + index * t->strides[dim]), WT_G_select,
                    1, &t, &(wt_gargs){ .i = { dim, index }, .ni = 2 });
}

static wt_status pieces(wt_context *ctx, const char *op, wt_tensor *t, int64_t each, int dim, wt_tensor **out,
                        int max, int *count) {
    int64_t n = t->shape[dim];
    int64_t k = n ? (n + each - 1) / each : 1;
    if (k > max)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%lld pieces do not fit in %d outputs", (long long)k, max);
    for (int64_t i = 0; i < k; i++) {
        int64_t s = i * each, e = s + each < n ? s + each : n;
        out[i] = wt_slice(ctx, t, dim, s, e, 1);
        if (!out[i]) {
            for (int64_t j = 0; j < i; j++) {
                wt_release(out[j]);
                out[j] = NULL;
            }
            return ctx->status;
        }
    }
    *count = (int)k;
    return WT_OK;
}

wt_status wt_chunk(wt_context *ctx, wt_tensor *t, int chunks, int dim, wt_tensor **out, int max, int *count) {
    const char *op = "wt_chunk";
    if (!wt_check_tensor(ctx, op, t) || !norm_dim(ctx, op, t, &dim, 0))
        return ctx ? ctx->status : WT_STATUS_INVALID_ARGUMENT;
    if (chunks < 1 || !out || !count)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "chunks %d must be >= 1 (and out, count non-NULL)", chunks);
    int64_t n = t->shape[dim];
    int64_t each = n ? (n + chunks - 1) / chunks : 1;
    return pieces(ctx, op, t, each, dim, out, max, count);
}

wt_status wt_split(wt_context *ctx, wt_tensor *t, int64_t split_size, int dim, wt_tensor **out, int max, int *count) {
    const char *op = "wt_split";
    if (!wt_check_tensor(ctx, op, t) || !norm_dim(ctx, op, t, &dim, 0))
        return ctx ? ctx->status : WT_STATUS_INVALID_ARGUMENT;
    if (split_size < 1 || !out || !count)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "split_size %lld must be >= 1 (and out, count non-NULL)",
                         (long long)split_size);
    return pieces(ctx, op, t, split_size, dim, out, max, count);
}

/* ---- readback ---- */

uint16_t wt_f32_to_f16(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
    if (e == 0xff)
        return (uint16_t)(sign | 0x7c00u | (m ? 0x200u | (m >> 13) : 0));
    int32_t he = (int32_t)e - 127 + 15;
    if (he >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (he <= 0) {
        if (he < -10)
            return (uint16_t)sign;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - he);
        uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)he << 10) | (m >> 13), rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++;   /* may carry into the exponent, up to infinity: correct */
    return (uint16_t)(sign | h);
}

float wt_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
    if (e == 0) {
        if (!m) {
            x = sign;
        } else {
            e = 113;
            while (!(m & 0x400u)) {
                m <<= 1;
                e--;
            }
            x = sign | (e << 23) | ((m & 0x3ffu) << 13);
        }
    } else if (e == 31) {
        x = sign | 0x7f800000u | (m << 13);
    } else {
        x = sign | ((e + 112) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

wt_status wt_to_host(wt_context *ctx, wt_tensor *t, void *dst, size_t size) {
    const char *op = "wt_to_host";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!wt_check_tensor(ctx, op, t))
        return ctx->status;
    size_t hs = wt_dtype_size(t->dtype), gs = wt_gpu_size(t->dtype);
    if (size && !dst)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "the destination pointer is NULL (%zu bytes given)", size);
    if (size != (size_t)t->numel * hs) {
        char b[160];
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%zu bytes given for a %s tensor of shape %s (%zu bytes)",
                         size, wt_dtype_name(t->dtype), wt_shape_str(b, sizeof b, t->ndim, t->shape),
                         (size_t)t->numel * hs);
    }
    if (!t->numel) {
        wt_status s = wt_batch_flush(ctx, op);
        return s != WT_OK ? s : wt_batch_wait(ctx, op);
    }
    wt_tensor *c = wt_contiguous(ctx, t);
    if (!c)
        return ctx->status;
    wt_status s = wt_batch_flush(ctx, op);
    if (s == WT_OK)
        s = wt_batch_wait(ctx, op);
    if (s != WT_OK) {
        wt_release(c);
        return s;
    }
    uint64_t off = (uint64_t)c->offset * gs, len = (uint64_t)c->numel * gs;
    uint64_t a0 = off & ~3ull, a1 = (off + len + 3) & ~3ull;
    bool direct = a0 == off && a1 == off + len && gs == hs;
    uint8_t *tmp = direct ? dst : wt_alloc(ctx, (size_t)(a1 - a0));
    if (!tmp) {
        wt_release(c);
        return wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    }
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_VALIDATION);
    wg_status ws = wg_buffer_read(c->st->buf, a0, tmp, a1 - a0);
    wg_error e;
    wg_error_id v = wg_device_pop_error_scope(ctx->dev, &e);
    if (ws == WG_STATUS_OK && v == WG_ERR_NONE && !direct) {
        const uint8_t *src = tmp + (off - a0);
        if (t->dtype == WT_BOOL) {
            uint8_t *d = dst;
            for (int64_t i = 0; i < c->numel; i++) {
                uint32_t w;
                memcpy(&w, src + 4 * i, 4);
                d[i] = w != 0;
            }
        } else {
            memcpy(dst, src, (size_t)len);
        }
    }
    if (!direct)
        wt_free(ctx, tmp);
    wt_release(c);
    if (ws == WG_STATUS_DEVICE_LOST || ws == WG_STATUS_TIMEOUT)
        return wt_failst(ctx, WT_STATUS_DEVICE_LOST, op, "device lost during readback");
    if (ws != WG_STATUS_OK || v != WG_ERR_NONE)
        return wt_failst(ctx, WT_STATUS_GPU, op, "readback failed: %s", v != WG_ERR_NONE ? e.message : "wg_buffer_read");
    return WT_OK;
}

wt_status wt_item(wt_context *ctx, wt_tensor *t, double *out) {
    const char *op = "wt_item";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!wt_check_tensor(ctx, op, t))
        return ctx->status;
    if (!out)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "the output pointer is NULL");
    if (t->numel != 1) {
        char b[160];
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "needs a one-element tensor, got shape %s",
                         wt_shape_str(b, sizeof b, t->ndim, t->shape));
    }
    uint8_t v[8] = { 0 };
    wt_status s = wt_to_host(ctx, t, v, wt_dtype_size(t->dtype));
    if (s != WT_OK)
        return s;
    switch (t->dtype) {
    case WT_F32: { float f; memcpy(&f, v, 4); *out = f; break; }
    case WT_F16: { uint16_t h; memcpy(&h, v, 2); *out = wt_f16_to_f32(h); break; }
    case WT_I32: { int32_t i; memcpy(&i, v, 4); *out = i; break; }
    case WT_U32: { uint32_t u; memcpy(&u, v, 4); *out = u; break; }
    default: *out = v[0]; break;
    }
    return WT_OK;
}
