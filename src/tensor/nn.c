/* nn.c - the row-wise neural-network ops: softmax, log_softmax, layernorm, rmsnorm, and rope.
 *
 * softmax and the norms see their input as M rows of K elements: the op's dim (the last dim for
 * the norms) is the row, the other dims are kept and addressed through their own strides, so a
 * strided or transposed input is read in place, never copied.  The output is a fresh contiguous
 * tensor of the input's shape.  Three kernels per family, picked by layout:
 *   softmax4/norm4  rows contiguous in the input and the output (dim innermost, K % 4 == 0,
 *                   K <= 16384): each lane holds its share of the row in registers as vec4s,
 *                   so memory is read once and written once; 32 lanes per row for short rows
 *                   (8 rows per workgroup), 256 for long ones;
 *   softmax/norm    any layout, one workgroup per row: an online (max, sum) pass (softmax) or
 *                   statistic passes (norms), shared-memory trees, then a write pass;
 *   softmax COL     one invocation per row when neighbouring rows are neighbours in memory
 *                   (softmax over a leading dim): coalesced reads without a transpose.
 * Statistics accumulate in f32 (f16 storage is widened on load and rounded once on store).
 * rope is elementwise: one invocation per output element reads its partner through the input's
 * strides; the inverse frequencies are computed in double on the host (one small upload), negated
 * for the inverse rotation (rope's gradient, backward.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tensor/backward.h"
#include "tensor/internal.h"

enum { SM_LOG = 1, SM_ZERO_EMPTY = 2 };          /* softmax OP bits */
enum { NM_RMS = 1, NM_WEIGHT = 2, NM_BIAS = 4 };  /* norm OP bits */
enum { SM_ROW = 0, SM_COL = 1 };                  /* softmax.wgsl MA */

/* The row view of t along dim: kept dims (size-1 dims dropped) with their input strides and
 * the contiguous output's strides, K, and the strides along dim. */
typedef struct rowview {
    int nk;
    int64_t shape[WT_MAX_DIMS], ist[WT_MAX_DIMS], ost[WT_MAX_DIMS];
    int64_t M, K, sa, so;
} rowview;

static void row_view(const wt_tensor *t, int dim, rowview *v) {
    memset(v, 0, sizeof *v);
    int64_t ost[WT_MAX_DIMS], s = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        ost[d] = s;
        s *= t->shape[d];
    }
    v->M = 1;
    for (int d = 0; d < t->ndim; d++) {
        if (d == dim)
            continue;
        v->M *= t->shape[d];
        if (t->shape[d] == 1)
            continue;
        v->shape[v->nk] = t->shape[d];
        v->ist[v->nk] = t->strides[d];
        v->ost[v->nk] = ost[d];
        v->nk++;
    }
    v->K = t->ndim ? t->shape[dim] : 1;
    v->sa = t->ndim ? t->strides[dim] : 1;
    v->so = t->ndim ? ost[dim] : 1;
}

static void fill_rows(wt_params *p, const rowview *v, int64_t in_off) {
    p->ndim = (uint32_t)v->nk;
    for (int d = 0; d < v->nk; d++) {
        p->shape[d] = (uint32_t)v->shape[d];
        p->st[0][d] = (int32_t)v->ist[d];
        p->st[1][d] = (int32_t)v->ost[d];
    }
    p->off[0] = (uint32_t)in_off;
    p->aux[0] = (uint32_t)v->M;
    p->aux[1] = (uint32_t)v->K;
    p->aux[2] = (uint32_t)v->sa;
    p->aux[3] = (uint32_t)v->so;
}

/* Whether the rows can take the vec4 register path: unit stride in input and output, K % 4,
 * 4-aligned row starts, and K small enough for 16 vec4 slots of 256 lanes. */
static bool rows_vec4(const rowview *v, int64_t in_off) {
    if (v->K % 4 || v->K > 16384 || v->sa != 1 || v->so != 1 || in_off % 4)
        return false;
    for (int d = 0; d < v->nk; d++)
        if (v->ist[d] % 4)
            return false;
    return true;
}

/* lanes-per-row code (MB) and vec4 slots per lane (MC) for a row of K elements */
static void vec4_shape(int64_t K, uint8_t *mb, uint8_t *mc, int64_t *rows_per_wg) {
    int64_t k4 = K / 4;
    int64_t lanes = k4 <= 128 ? 32 : 256;
    int64_t nv = 1;
    while (lanes * nv < k4)
        nv *= 2;
    *mb = lanes == 32 ? 1 : 0;
    *mc = (uint8_t)nv;
    *rows_per_wg = 256 / lanes;
}

static int64_t cdiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

static wt_kkey nn_key(wt_kfile file, uint32_t op, wt_dtype out, wt_dtype in) {
    wt_kkey key = wt_key(file, op, out, in, in, WT_F32);
    key.in[2] = (uint8_t)in;
    return key;
}

static bool float_input(wt_context *ctx, const char *op, const wt_tensor *x) {
    if (wt_is_float(x->dtype))
        return true;
    char b[160];
    wt_fail(ctx, WT_STATUS_DTYPE, op, "needs a float tensor (f32 or f16), got %s %s", wt_dtype_name(x->dtype),
            wt_shape_str(b, sizeof b, x->ndim, x->shape));
    return false;
}

/* softmax.wgsl and norm.wgsl stride through a row in steps of 256 lanes, at most 65,535 steps
 * (lavapipe stops longer loops): longer rows are refused. */
#define NN_MAX_ROW (65535 * 256)

static bool row_fits(wt_context *ctx, const char *op, const wt_tensor *x, int64_t K) {
    if (K <= NN_MAX_ROW)
        return true;
    char b[160];
    wt_fail(ctx, WT_STATUS_SHAPE, op, "rows of %lld elements (shape %s) exceed the kernels' %d", (long long)K,
            wt_shape_str(b, sizeof b, x->ndim, x->shape), NN_MAX_ROW);
    return false;
}

/* softmax along dim; flags SM_* (internal.h: attention.c uses SM_ZERO_EMPTY). */
wt_tensor *wt_softmax_flags(wt_context *ctx, const char *op, wt_tensor *x, int dim, uint32_t flags) {
    if (!ctx || !wt_check_tensor(ctx, op, x) || !float_input(ctx, op, x))
        return NULL;
    int n = x->ndim ? x->ndim : 1;
    if (dim < -n || dim >= n) {
        char b[160];
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dim %d out of range for shape %s", dim,
                       wt_shape_str(b, sizeof b, x->ndim, x->shape));
    }
    if (dim < 0)
        dim += n;
    if (!row_fits(ctx, op, x, x->ndim ? x->shape[dim] : 1))
        return NULL;
    wt_tensor *out = wt_tensor_new(ctx, op, x->dtype, x->ndim, x->shape);
    if (!out)
        return NULL;
    if (!out->numel) {
        ctx->stats.ops++;
        return out;
    }
    rowview v;
    row_view(x, dim, &v);
    wt_params p;
    memset(&p, 0, sizeof p);
    fill_rows(&p, &v, x->offset);
    wt_kkey key;
    if (rows_vec4(&v, x->offset)) {
        key = nn_key(WT_K_softmax4, flags, out->dtype, x->dtype);
        int64_t rpw;
        vec4_shape(v.K, &key.mode[1], &key.mode[2], &rpw);
        p.n = (uint32_t)(cdiv(v.M, rpw) * 256);
    } else {
        key = nn_key(WT_K_softmax, flags, out->dtype, x->dtype);
        /* COL when the innermost kept dim is unit-stride (neighbouring rows adjacent) and the
         * row is not contiguous; ROW otherwise (or when a row is too long for one loop) */
        bool col = v.nk >= 1 && v.ist[v.nk - 1] == 1 && v.sa != 1 && v.K <= 65535 && v.M >= 64;
        key.mode[0] = col ? SM_COL : SM_ROW;
        p.n = (uint32_t)(col ? v.M : v.M * 256);
        if (!col && v.M * 256 > 0xffffffffll) {
            wt_release(out);
            return wt_fail(ctx, WT_STATUS_SHAPE, op, "too many rows (%lld)", (long long)v.M);
        }
    }
    wt_storage *in = x->st;
    if (wt_record_key(ctx, op, &key, &p, out->st, 1, &in) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

wt_tensor *wt_softmax(wt_context *ctx, wt_tensor *x, int dim) {
    wt_tensor *c[1];   /* autocast (amp.c): the f32 list */
    if (wt__autocast(ctx, WT__AMP_F32, 1, &x, c))
        return wt__autocast_done(1, c, wt_softmax(ctx, c[0], dim));
    return wt__grad(ctx, wt_softmax_flags(ctx, "wt_softmax", x, dim, 0), WT_G_softmax, 1, &x, &(wt_gargs){ .i = { dim } });
}

wt_tensor *wt_log_softmax(wt_context *ctx, wt_tensor *x, int dim) {
    wt_tensor *c[1];
    if (wt__autocast(ctx, WT__AMP_F32, 1, &x, c))
        return wt__autocast_done(1, c, wt_log_softmax(ctx, c[0], dim));
    return wt__grad(ctx, wt_softmax_flags(ctx, "wt_log_softmax", x, dim, SM_LOG), WT_G_log_softmax, 1, &x,
                    &(wt_gargs){ .i = { dim } });
}

/* A contiguous, 4-aligned copy of a 1-d parameter of K elements (or NULL when absent). */
static bool norm_param(wt_context *ctx, const char *op, const char *what, wt_tensor *w, const wt_tensor *x, int64_t K,
                       wt_tensor **out) {
    *out = NULL;
    if (!w)
        return true;
    if (!wt_check_tensor(ctx, op, w))
        return false;
    if (w->ndim != 1 || w->shape[0] != K || w->dtype != x->dtype) {
        char b[160], c[160];
        wt_fail(ctx, w->dtype != x->dtype ? WT_STATUS_DTYPE : WT_STATUS_SHAPE, op,
                "%s %s %s does not match the last dim of %s %s", what, wt_dtype_name(w->dtype),
                wt_shape_str(b, sizeof b, w->ndim, w->shape), wt_dtype_name(x->dtype),
                wt_shape_str(c, sizeof c, x->ndim, x->shape));
        return false;
    }
    *out = wt_is_contiguous(w) && w->offset % 4 == 0 ? (wt_retain(w), w) : wt_clone(ctx, w);
    return *out != NULL;
}

static wt_tensor *norm(wt_context *ctx, const char *op, wt_tensor *x, wt_tensor *weight, wt_tensor *bias, double eps,
                       bool rms) {
    if (!ctx || !wt_check_tensor(ctx, op, x) || !float_input(ctx, op, x))
        return NULL;
    if (x->ndim < 1) {
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "needs at least one dim");
    }
    if (!(eps >= 0)) {
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "eps %g must be >= 0", eps);
    }
    int64_t K = x->shape[x->ndim - 1];
    if (!row_fits(ctx, op, x, K))
        return NULL;
    wt_tensor *w, *b = NULL;
    if (!norm_param(ctx, op, "weight", weight, x, K, &w))
        return NULL;
    if (!norm_param(ctx, op, "bias", bias, x, K, &b)) {
        wt_release(w);
        return NULL;
    }
    wt_tensor *out = wt_tensor_new(ctx, op, x->dtype, x->ndim, x->shape);
    if (!out || !out->numel) {
        if (out)
            ctx->stats.ops++;
        wt_release(w);
        wt_release(b);
        return out;
    }
    rowview v;
    row_view(x, x->ndim - 1, &v);
    wt_params p;
    memset(&p, 0, sizeof p);
    fill_rows(&p, &v, x->offset);
    p.off[1] = w ? (uint32_t)w->offset : 0;
    p.off[2] = b ? (uint32_t)b->offset : 0;
    float e = (float)eps;
    memcpy(&p.sv[0], &e, 4);
    uint32_t flags = (rms ? NM_RMS : 0) | (w ? NM_WEIGHT : 0) | (b ? NM_BIAS : 0);
    wt_kkey key;
    if (rows_vec4(&v, x->offset)) {
        key = nn_key(WT_K_norm4, flags, out->dtype, x->dtype);
        int64_t rpw;
        vec4_shape(v.K, &key.mode[1], &key.mode[2], &rpw);
        p.n = (uint32_t)(cdiv(v.M, rpw) * 256);
    } else {
        key = nn_key(WT_K_norm, flags, out->dtype, x->dtype);
        p.n = (uint32_t)(v.M * 256);
    }
    wt_storage *in[3] = { x->st, w ? w->st : NULL, b ? b->st : NULL };
    wt_status s = wt_record_key(ctx, op, &key, &p, out->st, 3, in);
    wt_release(w);
    wt_release(b);
    if (s != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

wt_tensor *wt_layer_norm(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *bias, double eps) {
    wt_tensor *c[3];
    if (wt__autocast(ctx, WT__AMP_F32, 3, (wt_tensor *const[]){ x, weight, bias }, c))
        return wt__autocast_done(3, c, wt_layer_norm(ctx, c[0], c[1], c[2], eps));
    return wt__grad(ctx, norm(ctx, "wt_layer_norm", x, weight, bias, eps, false), WT_G_layer_norm, 3,
                    (wt_tensor *const[]){ x, weight, bias }, &(wt_gargs){ .f = { eps } });
}

wt_tensor *wt_rms_norm(wt_context *ctx, wt_tensor *x, wt_tensor *weight, double eps) {
    wt_tensor *c[2];
    if (wt__autocast(ctx, WT__AMP_F32, 2, (wt_tensor *const[]){ x, weight }, c))
        return wt__autocast_done(2, c, wt_rms_norm(ctx, c[0], c[1], eps));
    return wt__grad(ctx, norm(ctx, "wt_rms_norm", x, weight, NULL, eps, true), WT_G_rms_norm, 2,
                    (wt_tensor *const[]){ x, weight }, &(wt_gargs){ .f = { eps } });
}

wt_tensor *wt_rope(wt_context *ctx, wt_tensor *x, const wt_rope_desc *desc) {
    return wt__rope_ex(ctx, "wt_rope", x, desc, false);
}

/* rope, or with inverse the inverse rotation (backward.h: the angles negated) */
wt_tensor *wt__rope_ex(wt_context *ctx, const char *op, wt_tensor *x, const wt_rope_desc *desc, bool inverse) {
    if (!ctx || !wt_check_tensor(ctx, op, x) || !float_input(ctx, op, x))
        return NULL;
    wt_rope_desc d = desc ? *desc : (wt_rope_desc){ 0 };
    char b[160];
    wt_shape_str(b, sizeof b, x->ndim, x->shape);
    if (x->ndim < 2)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "needs [..., seq, ..., dim], got %s", b);
    if ((unsigned)d.layout >= WT_ROPE_LAYOUT_COUNT)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "unknown layout %d", (int)d.layout);
    int64_t D = x->shape[x->ndim - 1];
    int64_t rd = d.rotary_dims ? d.rotary_dims : D;
    if (rd < 2 || rd > D || rd % 2)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "rotary dims %lld must be even and in [2, %lld] for %s",
                       (long long)rd, (long long)D, b);
    int sd = d.seq_dim ? d.seq_dim : -2;
    if (sd < 0)
        sd += x->ndim;
    if (sd < 0 || sd >= x->ndim - 1)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "sequence dim %d out of range for %s (not the last)",
                       d.seq_dim, b);
    if (d.position_offset < 0 || d.position_offset > 0x7fffffff)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "position offset %lld out of range",
                       (long long)d.position_offset);
    double theta = d.theta > 0 ? d.theta : 10000.0;
    float fr[2048];
    int64_t nf = rd / 2;
    if (nf > (int64_t)(sizeof fr / sizeof *fr))
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "rotary dims %lld above 4096", (long long)rd);
    for (int64_t i = 0; i < nf; i++)
        fr[i] = (float)((inverse ? -1 : 1) * pow(theta, -2.0 * (double)i / (double)rd));
    wt_tensor *out = wt_tensor_new(ctx, op, x->dtype, x->ndim, x->shape);
    if (!out || !out->numel) {
        if (out)
            ctx->stats.ops++;
        return out;
    }
    wt_tensor *ft = wt_from_host(ctx, WT_F32, 1, &nf, fr);
    if (!ft) {
        wt_release(out);
        return NULL;
    }
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = (uint32_t)out->numel;
    p.ndim = (uint32_t)x->ndim;
    int64_t inner = 1;
    for (int i = x->ndim - 1; i > sd; i--)
        inner *= x->shape[i];
    for (int i = 0; i < x->ndim; i++) {
        p.shape[i] = (uint32_t)x->shape[i];
        p.st[0][i] = (int32_t)x->strides[i];
    }
    int32_t sl = (int32_t)x->strides[x->ndim - 1];
    p.off[0] = (uint32_t)x->offset;
    p.off[1] = (uint32_t)d.position_offset;
    memcpy(&p.off[2], &sl, 4);
    p.off[3] = (uint32_t)ft->offset;
    p.aux[0] = (uint32_t)D;
    p.aux[1] = (uint32_t)rd;
    p.aux[2] = (uint32_t)inner;
    p.aux[3] = (uint32_t)x->shape[sd];
    wt_kkey key = nn_key(WT_K_rope, d.layout == WT_ROPE_HALF ? 1u : 0u, out->dtype, x->dtype);
    key.in[1] = WT_F32;
    wt_storage *in[2] = { x->st, ft->st };
    wt_status s = wt_record_key(ctx, op, &key, &p, out->st, 2, in);
    wt_release(ft);
    if (s != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return wt__grad(ctx, out, WT_G_rope, 1, &x,
                    &(wt_gargs){ .i = { d.layout, d.position_offset, d.seq_dim, d.rotary_dims }, .f = { d.theta } });
}
