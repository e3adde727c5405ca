/* nn_backward.c - the gradients of the activations and of the row-wise ops of nn.c
 * (backward.h): silu, gelu, softmax, log_softmax, layer_norm, rms_norm and rope.
 *
 * silu and gelu are one elementwise kernel each (act_bw.wgsl, through ops.c's wt_elementwise:
 * broadcasting, vec4 loads).  The row ops' backward kernels are in nn_bw.wgsl and are described
 * there; rope's gradient is the inverse rotation, which is rope.wgsl itself with the angles
 * negated (nn.c's wt__rope_inverse). */
#include <string.h>

#include "tensor/backward.h"
#include "tensor/internal.h"

static wt_tensor *act_backward(wt_context *ctx, const char *op, wt_tensor *x, wt_tensor *dy, uint32_t code) {
    if (!ctx || !wt_check_tensor(ctx, op, x) || !wt_check_tensor(ctx, op, dy))
        return NULL;
    bool same = x->ndim == dy->ndim && x->dtype == dy->dtype && wt_is_float(x->dtype);
    for (int d = 0; same && d < x->ndim; d++)
        same = x->shape[d] == dy->shape[d];
    if (!same) {
        char a[160], b[160];
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "input %s %s and grad %s %s: one shape and float dtype expected",
                       wt_dtype_name(x->dtype), wt_shape_str(a, sizeof a, x->ndim, x->shape), wt_dtype_name(dy->dtype),
                       wt_shape_str(b, sizeof b, dy->ndim, dy->shape));
    }
    wt_tensor *dx = wt_tensor_new(ctx, op, x->dtype, x->ndim, x->shape);
    wt_tensor *in[2] = { x, dy };
    if (dx && wt_elementwise(ctx, op, WT_K_act_bw, code, WT_F32, dx, 2, in, NULL, NULL) != WT_OK) {
        wt_release(dx);
        return NULL;
    }
    return dx;
}

wt_tensor *wt__silu_backward(wt_context *ctx, wt_tensor *x, wt_tensor *dy) {
    return act_backward(ctx, "wt_silu backward", x, dy, 0);
}

wt_tensor *wt__gelu_backward(wt_context *ctx, wt_tensor *x, wt_tensor *dy) {
    return act_backward(ctx, "wt_gelu backward", x, dy, 1);
}

static int64_t cdiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

/* Checks that a and b have one shape and one float dtype; a, b name them in the error. */
static bool same_float(wt_context *ctx, const char *op, const char *an, const wt_tensor *a, const char *bn,
                       const wt_tensor *b) {
    bool ok = a->ndim == b->ndim && a->dtype == b->dtype && wt_is_float(a->dtype);
    for (int d = 0; ok && d < a->ndim; d++)
        ok = a->shape[d] == b->shape[d];
    if (!ok) {
        char sa[160], sb[160];
        wt_fail(ctx, WT_STATUS_SHAPE, op, "%s %s %s and %s %s %s: one shape and float dtype expected", an,
                wt_dtype_name(a->dtype), wt_shape_str(sa, sizeof sa, a->ndim, a->shape), bn, wt_dtype_name(b->dtype),
                wt_shape_str(sb, sizeof sb, b->ndim, b->shape));
    }
    return ok;
}

static wt_tensor *dense(wt_context *ctx, wt_tensor *t);

/* One nn_bw.wgsl dispatch over M rows of K (inner stride I) of contiguous inputs: one invocation
 * per row for rows up to 64, else a workgroup per row. */
static wt_status rows_record(wt_context *ctx, const char *op, uint32_t code, uint32_t mb, wt_tensor *out,
                             wt_tensor *a, wt_tensor *b, wt_tensor *c, int64_t M, int64_t K, int64_t I, float eps) {
    if (M * 256 > UINT32_MAX || M * K * I > INT32_MAX)
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "%lld rows of %lld: too many", (long long)M, (long long)K);
    bool thread = K <= 64;
    wt_kkey key = wt_key(WT_K_nn_bw, code, out->dtype, a->dtype, b ? b->dtype : a->dtype, WT_F32);
    key.in[2] = (uint8_t)(c ? c->dtype : a->dtype);
    key.mode[0] = thread ? 1 : 0;
    key.mode[1] = (uint8_t)mb;
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = (uint32_t)(thread ? M : M * 256);
    p.aux[0] = (uint32_t)M;
    p.aux[1] = (uint32_t)K;
    p.aux[2] = (uint32_t)I;
    memcpy(&p.sv[0], &eps, 4);
    /* every input contiguous at offset 0 (dense() below, or fresh tensors) */
    wt_storage *in[3] = { a->st, b ? b->st : NULL, c ? c->st : NULL };
    return wt_record_key(ctx, op, &key, &p, out->st, 3, in);
}

/* t contiguous at offset 0: t itself (retained) or a copy. */
static wt_tensor *dense(wt_context *ctx, wt_tensor *t) {
    if (wt_is_contiguous(t) && t->offset == 0) {
        wt_retain(t);
        return t;
    }
    return wt_clone(ctx, t);
}

static wt_tensor *softmax_backward(wt_context *ctx, const char *op, wt_tensor *y, wt_tensor *dy, int dim,
                                   uint32_t code) {
    if (!ctx || !wt_check_tensor(ctx, op, y) || !wt_check_tensor(ctx, op, dy) ||
        !same_float(ctx, op, "output", y, "grad", dy))
        return NULL;
    int n = y->ndim ? y->ndim : 1;
    if (dim < -n || dim >= n) {
        char b[160];
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "dim %d out of range for shape %s", dim,
                       wt_shape_str(b, sizeof b, y->ndim, y->shape));
    }
    if (dim < 0)
        dim += n;
    int64_t K = y->ndim ? y->shape[dim] : 1, I = 1, O = 1;
    for (int d = 0; d < y->ndim; d++) {
        if (d < dim)
            O *= y->shape[d];
        if (d > dim)
            I *= y->shape[d];
    }
    wt_tensor *dx = wt_tensor_new(ctx, op, y->dtype, y->ndim, y->shape);
    if (!dx || !dx->numel)
        return dx;
    wt_tensor *yc = dense(ctx, y), *gc = yc ? dense(ctx, dy) : NULL;
    wt_status s = gc ? rows_record(ctx, op, code, 0, dx, yc, gc, NULL, O * I, K, I, 0) : ctx->status;
    wt_release(yc);
    wt_release(gc);
    if (s != WT_OK) {
        wt_release(dx);
        return NULL;
    }
    return dx;
}

wt_tensor *wt__softmax_backward(wt_context *ctx, wt_tensor *y, wt_tensor *dy, int dim) {
    return softmax_backward(ctx, "wt_softmax backward", y, dy, dim, 0);
}

wt_tensor *wt__log_softmax_backward(wt_context *ctx, wt_tensor *y, wt_tensor *dy, int dim) {
    return softmax_backward(ctx, "wt_log_softmax backward", y, dy, dim, 1);
}

/* The column sums over the M rows of [M, K] partial products: nn_bw.wgsl OP 4 gives chunk sums
 * [S, K] (chunks of L rows: about 2^16 invocations, L <= 65535), wt_sum adds them. */
static wt_tensor *norm_dw(wt_context *ctx, const char *op, wt_tensor *xc, wt_tensor *gc, wt_tensor *stats,
                          int64_t M, int64_t K, wt_dtype dt) {
    int64_t S = cdiv(1 << 16, K), smax = cdiv(M, 16), smin = cdiv(M, 65535);
    S = S > smax ? smax : S;
    S = S < smin ? smin : S;
    S = S < 1 ? 1 : S;
    int64_t L = cdiv(M, S);
    S = cdiv(M, L);
    wt_tensor *part = wt_tensor_new(ctx, op, WT_F32, 2, (const int64_t[]){ S, K });
    if (!part)
        return NULL;
    wt_kkey key = wt_key(WT_K_nn_bw, 4, WT_F32, xc->dtype, gc->dtype, WT_F32);
    key.in[2] = WT_F32;
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = (uint32_t)(S * K);
    p.aux[0] = (uint32_t)M;
    p.aux[1] = (uint32_t)K;
    p.aux[2] = 1;
    p.aux[3] = (uint32_t)L;
    wt_storage *in[3] = { xc->st, gc->st, stats->st };
    if (wt_record_key(ctx, op, &key, &p, part->st, 3, in) != WT_OK) {
        wt_release(part);
        return NULL;
    }
    wt_tensor *sum = wt_sum(ctx, part, 1, (const int[]){ 0 }, false);
    wt_release(part);
    wt_tensor *r = sum && dt != WT_F32 ? wt_cast(ctx, sum, dt) : sum;
    if (r != sum)
        wt_release(sum);
    return r;
}

static wt_status norm_backward(wt_context *ctx, const char *op, wt_tensor *x, wt_tensor *weight, wt_tensor *dy,
                               double eps, bool rms, wt_tensor **dx, wt_tensor **dw, wt_tensor **db) {
    if (dx)
        *dx = NULL;
    if (dw)
        *dw = NULL;
    if (db)
        *db = NULL;
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!wt_check_tensor(ctx, op, x) || !wt_check_tensor(ctx, op, dy) || (weight && !wt_check_tensor(ctx, op, weight)) ||
        !same_float(ctx, op, "input", x, "grad", dy))
        return ctx->status;
    if (x->ndim < 1 || !(eps >= 0) || (dw && !weight))
        return wt_failst(ctx, x->ndim < 1 ? WT_STATUS_SHAPE : WT_STATUS_INVALID_ARGUMENT, op,
                         "%s", x->ndim < 1 ? "needs at least one dim" : !(eps >= 0) ? "eps must be >= 0"
                                                                                   : "dw asked without a weight");
    int64_t K = x->shape[x->ndim - 1], M = K ? x->numel / K : 0;
    if (weight && (weight->ndim != 1 || weight->shape[0] != K || weight->dtype != x->dtype)) {
        char a[160], b[160];
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "weight %s %s does not match the last dim of %s %s",
                         wt_dtype_name(weight->dtype), wt_shape_str(a, sizeof a, weight->ndim, weight->shape),
                         wt_dtype_name(x->dtype), wt_shape_str(b, sizeof b, x->ndim, x->shape));
    }
    wt_tensor *gx = NULL, *gw = NULL, *gb = NULL, *stats = NULL;
    wt_tensor *xc = dense(ctx, x), *gc = xc ? dense(ctx, dy) : NULL, *wc = gc && weight ? dense(ctx, weight) : NULL;
    bool fail = !gc || (weight && !wc);
    uint32_t mb = (rms ? 1u : 0u) | (weight ? 2u : 0u);
    if (!fail && dx) {
        gx = wt_tensor_new(ctx, op, x->dtype, x->ndim, x->shape);
        fail = !gx || (gx->numel && rows_record(ctx, op, 2, mb, gx, xc, gc, wc, M, K, 1, (float)eps) != WT_OK);
    }
    if (!fail && dw) {
        if (!M) {
            gw = wt_zeros(ctx, x->dtype, 1, &K);
        } else {
            stats = wt_tensor_new(ctx, op, WT_F32, 2, (const int64_t[]){ M, 2 });
            fail = !stats || rows_record(ctx, op, 3, mb, stats, xc, NULL, NULL, M, K, 1, (float)eps) != WT_OK;
            gw = fail ? NULL : norm_dw(ctx, op, xc, gc, stats, M, K, x->dtype);
        }
        fail = !gw;
    }
    if (!fail && db && !rms) {
        wt_tensor *g2 = wt_reshape(ctx, gc, 2, (const int64_t[]){ M, K });
        gb = g2 ? wt_sum(ctx, g2, 1, (const int[]){ 0 }, false) : NULL;
        wt_release(g2);
        fail = !gb;
    }
    wt_release(xc);
    wt_release(gc);
    wt_release(wc);
    wt_release(stats);
    if (fail) {
        wt_release(gx);
        wt_release(gw);
        wt_release(gb);
        return ctx->status;
    }
    if (dx)
        *dx = gx;
    if (dw)
        *dw = gw;
    if (db)
        *db = gb;
    return WT_OK;
}

wt_status wt__layer_norm_backward(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *dy, double eps,
                                  wt_tensor **dx, wt_tensor **dw, wt_tensor **db) {
    return norm_backward(ctx, "wt_layer_norm backward", x, weight, dy, eps, false, dx, dw, db);
}

wt_status wt__rms_norm_backward(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *dy, double eps,
                                wt_tensor **dx, wt_tensor **dw) {
    return norm_backward(ctx, "wt_rms_norm backward", x, weight, dy, eps, true, dx, dw, NULL);
}

wt_tensor *wt__rope_backward(wt_context *ctx, wt_tensor *dy, const wt_rope_desc *desc) {
    return wt__rope_ex(ctx, "wt_rope backward", dy, desc, true);
}
