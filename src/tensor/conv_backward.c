/* conv_backward.c - the gradients of conv2d, max_pool2d and avg_pool2d (backward.h).
 *
 * conv2d's input gradient is a transposed convolution.  With stride 1 and padding at most the
 * dilated filter's reach it is itself a convolution, which wt_conv2d runs with every one of its
 * kernels (implicit GEMM, Winograd, direct): dx = conv2d(dy, w'), w'[c, k] = w[k, c] flipped in
 * (KH, KW) per group, padding dil (k - 1) - pad, the same dilation; taken for large problems
 * (at least 16 input channels per group and 2^26 multiply-adds).  Otherwise (small problems,
 * stride > 1) conv_bw.wgsl gathers each input element's contributions directly.  The weight gradient is a
 * reduction over the N OH OW output pixels: chunks of pixels give partial sums [S, K, R] that
 * wt_sum adds up, from conv_bw_dw.wgsl's 64 x 64 tiles where the group has at least 32 output
 * channels and 32 filter taps (R = Cg KH KW), else from conv_bw.wgsl's one invocation per
 * partial sum.  The chunk count keeps the GPU busy (about 2^18 invocations or 4096 tiles) and
 * every chunk under 65,535 pixels (lavapipe's loop limit).  The bias gradient is wt_sum of dy
 * over (N, OH, OW).
 *
 * The pools' input gradients gather (pool_bw.wgsl): each input element sums what the windows
 * holding it send back, so overlapping windows need no atomics. */
#include <string.h>

#include "tensor/backward.h"
#include "tensor/internal.h"

static int64_t cdiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

/* The validated geometry of one conv2d. */
typedef struct cv_plan {
    int64_t N, C, H, W, K, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw, G;
} cv_plan;

static bool conv_plan(wt_context *ctx, const char *op, wt_tensor *x, wt_tensor *w, wt_tensor *dy,
                      const wt_conv2d_desc *desc, cv_plan *c) {
    if (!ctx || !wt_check_tensor(ctx, op, x) || !wt_check_tensor(ctx, op, w) || !wt_check_tensor(ctx, op, dy))
        return false;
    wt_conv2d_desc d = desc ? *desc : (wt_conv2d_desc){ 0 };
    char sx[160], sw[160], sy[160];
    wt_shape_str(sx, sizeof sx, x->ndim, x->shape);
    wt_shape_str(sw, sizeof sw, w->ndim, w->shape);
    wt_shape_str(sy, sizeof sy, dy->ndim, dy->shape);
    if (!wt_is_float(x->dtype) || w->dtype != x->dtype || dy->dtype != x->dtype) {
        wt_fail(ctx, WT_STATUS_DTYPE, op, "input %s %s, weight %s %s, grad %s %s: one float dtype expected",
                wt_dtype_name(x->dtype), sx, wt_dtype_name(w->dtype), sw, wt_dtype_name(dy->dtype), sy);
        return false;
    }
    memset(c, 0, sizeof *c);
    c->sh = d.stride[0] ? d.stride[0] : 1, c->sw = d.stride[1] ? d.stride[1] : 1;
    c->dh = d.dilation[0] ? d.dilation[0] : 1, c->dw = d.dilation[1] ? d.dilation[1] : 1;
    c->ph = d.padding[0], c->pw = d.padding[1];
    c->G = d.groups ? d.groups : 1;
    bool ok = x->ndim == 4 && w->ndim == 4 && dy->ndim == 4 && c->sh >= 1 && c->sw >= 1 && c->dh >= 1 &&
              c->dw >= 1 && c->ph >= 0 && c->pw >= 0 && c->G >= 1 && c->sh <= 65535 && c->sw <= 65535 &&
              c->dh <= 65535 && c->dw <= 65535 && c->ph <= 65535 && c->pw <= 65535;
    if (ok) {
        c->N = x->shape[0], c->C = x->shape[1], c->H = x->shape[2], c->W = x->shape[3];
        c->K = w->shape[0], c->KH = w->shape[2], c->KW = w->shape[3];
        ok = c->C % c->G == 0 && c->K % c->G == 0 && w->shape[1] * c->G == c->C && c->KH >= 1 && c->KW >= 1;
    }
    if (ok) {
        int64_t eh = c->H + 2 * c->ph - c->dh * (c->KH - 1) - 1, ew = c->W + 2 * c->pw - c->dw * (c->KW - 1) - 1;
        c->OH = eh < 0 ? -1 : eh / c->sh + 1;
        c->OW = ew < 0 ? -1 : ew / c->sw + 1;
        ok = c->OH >= 0 && c->OW >= 0 && dy->shape[0] == c->N && dy->shape[1] == c->K && dy->shape[2] == c->OH &&
             dy->shape[3] == c->OW;
    }
    if (!ok) {
        wt_fail(ctx, WT_STATUS_SHAPE, op,
                "input %s, weight %s, grad %s, stride (%lld, %lld), padding (%lld, %lld), dilation (%lld, %lld), "
                "groups %lld: not the gradient of a conv2d (grad should be [N, K, OH, OW] of the forward)", sx, sw,
                sy, (long long)c->sh, (long long)c->sw, (long long)c->ph, (long long)c->pw, (long long)c->dh,
                (long long)c->dw, (long long)c->G);
        return false;
    }
    if (x->numel > INT32_MAX || dy->numel > INT32_MAX || w->numel > INT32_MAX || c->H + 2 * c->ph > INT32_MAX ||
        c->W + 2 * c->pw > INT32_MAX) {
        wt_fail(ctx, WT_STATUS_SHAPE, op, "input %s, weight %s: too large for 32-bit indexing", sx, sw);
        return false;
    }
    return true;
}

static void conv_params(wt_params *p, const cv_plan *c, const wt_tensor *dy) {
    memset(p, 0, sizeof *p);
    const int64_t sh[8] = { c->N, c->C, c->H, c->W, c->OH, c->OW, c->KH, c->KW };
    for (int i = 0; i < 8; i++)
        p->shape[i] = (uint32_t)sh[i];
    p->sv[0] = (uint32_t)c->sh;
    p->sv[1] = (uint32_t)c->sw;
    p->sv[2] = (uint32_t)c->ph;
    p->sv[3] = (uint32_t)c->pw;
    p->aux[0] = (uint32_t)c->dh;
    p->aux[1] = (uint32_t)c->dw;
    p->aux[2] = (uint32_t)(c->K / c->G);
    p->aux[3] = (uint32_t)(c->C / c->G);
    for (int d = 0; d < 4; d++)
        p->st[0][d] = (int32_t)dy->strides[d];
    p->off[0] = (uint32_t)dy->offset;
}

/* dx by wt_conv2d: w' = w as [G, Kg, Cg, KH, KW] -> [G, Cg, Kg, KH, KW], flipped in (KH, KW). */
static wt_tensor *dx_by_conv(wt_context *ctx, const cv_plan *c, wt_tensor *w, wt_tensor *dy) {
    int64_t Kg = c->K / c->G, Cg = c->C / c->G;
    wt_tensor *v = wt_reshape(ctx, w, 5, (const int64_t[]){ c->G, Kg, Cg, c->KH, c->KW });
    wt_tensor *pm = v ? wt_permute(ctx, v, (const int[]){ 0, 2, 1, 3, 4 }) : NULL;
    wt_tensor *fl = pm ? wt_flip(ctx, pm, 2, (const int[]){ 3, 4 }) : NULL;
    wt_tensor *wt = fl ? wt_reshape(ctx, fl, 4, (const int64_t[]){ c->C, Kg, c->KH, c->KW }) : NULL;
    wt_tensor *dx = wt ? wt_conv2d(ctx, dy, wt, NULL, &(wt_conv2d_desc){
                                       .padding = { c->dh * (c->KH - 1) - c->ph, c->dw * (c->KW - 1) - c->pw },
                                       .dilation = { c->dh, c->dw }, .groups = c->G }) : NULL;
    wt_release(v);
    wt_release(pm);
    wt_release(fl);
    wt_release(wt);
    return dx;
}

static wt_tensor *dx_direct(wt_context *ctx, const char *op, const cv_plan *c, wt_tensor *w, wt_tensor *dy,
                            wt_dtype dt) {
    if (c->K / c->G > 65535) /* conv_bw.wgsl's channel loop */
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "%lld output channels per group: at most 65535",
                       (long long)(c->K / c->G));
    wt_tensor *wc = wt_contiguous(ctx, w);
    wt_tensor *dx = wc ? wt_tensor_new(ctx, op, dt, 4, (const int64_t[]){ c->N, c->C, c->H, c->W }) : NULL;
    if (!dx || !dx->numel) {
        wt_release(wc);
        return dx;
    }
    wt_params p;
    conv_params(&p, c, dy);
    p.off[1] = (uint32_t)wc->offset;
    p.n = (uint32_t)dx->numel;
    wt_kkey key = wt_key(WT_K_conv_bw, 0, dt, dy->dtype, wc->dtype, WT_F32);
    wt_storage *in[2] = { dy->st, wc->st };
    wt_status s = wt_record_key(ctx, op, &key, &p, dx->st, 2, in);
    wt_release(wc);
    if (s != WT_OK) {
        wt_release(dx);
        return NULL;
    }
    return dx;
}

static wt_tensor *dw_partial(wt_context *ctx, const char *op, const cv_plan *c, wt_tensor *x, wt_tensor *dy,
                             wt_dtype dt) {
    int64_t Kg = c->K / c->G, Cg = c->C / c->G, R = Cg * c->KH * c->KW, P = c->N * c->OH * c->OW;
    bool tiled = Kg >= 32 && R >= 32;
    int64_t tk = cdiv(Kg, 64), tr = cdiv(R, 64), S;
    /* chunks: enough work items for the GPU (4096 tiles, or 2^18 invocations), at least 64
     * pixels per chunk, at most 65535 (tiled: 65520, a multiple of 16).  H200, the digits CNN's
     * conv2 dw ([512, 16, 4, 4], 32 filters): chunks of 64 pixels 0.025 ms, of 256 0.036 */
    if (tiled)
        S = cdiv(4096, c->G * tk * tr);
    else
        S = cdiv(1 << 18, c->K * R);
    int64_t smax = cdiv(P, 64), smin = cdiv(P, tiled ? 65520 : 65535);
    S = S > smax ? smax : S;
    S = S < smin ? smin : S;
    S = S < 1 ? 1 : S;
    int64_t L = cdiv(P, S);
    if (tiled)
        L = cdiv(L, 16) * 16;
    S = cdiv(P, L);
    if (S * c->K * R > INT32_MAX || (tiled && S * c->G * tk * tr * 256 > UINT32_MAX))
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "weight gradient too large (%lld partial sums)",
                       (long long)(S * c->K * R));
    wt_tensor *part = wt_tensor_new(ctx, op, dt == WT_F16 && S == 1 ? WT_F16 : WT_F32, 3,
                                    (const int64_t[]){ S, c->K, R });
    if (!part)
        return NULL;
    wt_params p;
    conv_params(&p, c, dy);
    for (int d = 0; d < 4; d++)
        p.st[1][d] = (int32_t)x->strides[d];
    p.off[1] = (uint32_t)x->offset;
    p.st[0][4] = (int32_t)c->K;
    p.st[0][5] = (int32_t)L;
    wt_kkey key = wt_key(tiled ? WT_K_conv_bw_dw : WT_K_conv_bw, 1, part->dtype, dy->dtype, x->dtype, WT_F32);
    if (tiled) {
        p.st[0][6] = (int32_t)tk;
        p.st[0][7] = (int32_t)tr;
        p.st[1][4] = (int32_t)c->G;
        p.n = (uint32_t)(S * c->G * tk * tr * 256);
    } else {
        p.n = (uint32_t)part->numel;
    }
    wt_storage *in[2] = { dy->st, x->st };
    if (wt_record_key(ctx, op, &key, &p, part->st, 2, in) != WT_OK) {
        wt_release(part);
        return NULL;
    }
    wt_tensor *sum = S == 1 ? (wt_retain(part), part) : wt_sum(ctx, part, 1, (const int[]){ 0 }, false);
    wt_release(part);
    wt_tensor *cast = sum && sum->dtype != dt ? wt_cast(ctx, sum, dt) : sum;
    if (cast != sum)
        wt_release(sum);
    wt_tensor *dw = cast ? wt_reshape(ctx, cast, 4, (const int64_t[]){ c->K, Cg, c->KH, c->KW }) : NULL;
    wt_release(cast);
    return dw;
}

wt_status wt__conv2d_backward(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *dy,
                              const wt_conv2d_desc *desc, wt_tensor **dx, wt_tensor **dw, wt_tensor **db) {
    const char *op = "wt_conv2d backward";
    if (dx)
        *dx = NULL;
    if (dw)
        *dw = NULL;
    if (db)
        *db = NULL;
    cv_plan c;
    if (!conv_plan(ctx, op, x, weight, dy, desc, &c))
        return ctx ? ctx->status : WT_STATUS_INVALID_ARGUMENT;
    wt_tensor *gx = NULL, *gw = NULL, *gb = NULL;
    bool fail = false;
    if (dx) {
        /* through wt_conv2d where its GEMM tiles fill and the work is large (H200: the digits
         * CNN's conv2 dx, [512, 16, 4, 4] from 32 channels, 38 M multiply-adds, ran 0.020 ms
         * direct against 0.041 through wt_conv2d; N32 C64 K64 128^2 1.25 ms through Winograd) */
        int64_t macs = c.N * c.C * c.H * c.W * (c.K / c.G) * c.KH * c.KW;
        bool by_conv = c.sh == 1 && c.sw == 1 && c.ph <= c.dh * (c.KH - 1) && c.pw <= c.dw * (c.KW - 1) &&
                       c.N * c.K * c.OH * c.OW > 0 && c.C / c.G >= 16 && macs >= (1 << 26);
        gx = by_conv ? dx_by_conv(ctx, &c, weight, dy) : dx_direct(ctx, op, &c, weight, dy, x->dtype);
        fail = !gx;
    }
    if (dw && !fail) {
        if (c.N * c.OH * c.OW == 0 || c.C == 0)
            gw = wt_zeros(ctx, x->dtype, 4, weight->shape);
        else
            gw = dw_partial(ctx, op, &c, x, dy, x->dtype);
        fail = !gw;
    }
    if (db && !fail) {
        gb = wt_sum(ctx, dy, 3, (const int[]){ 0, 2, 3 }, false);
        fail = !gb;
    }
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

/* dx of a pool: pool_bw.wgsl with OP mode, indices (max) or NULL (avg). */
static wt_tensor *pool_backward(wt_context *ctx, const char *op, wt_tensor *x, wt_tensor *indices, wt_tensor *dy,
                                const wt_pool2d_desc *desc, uint32_t mode) {
    wt_params p;
    int64_t os[4];
    if (!wt__pool_plan(ctx, op, x, desc, mode == 0, &p, os) || !wt_check_tensor(ctx, op, dy) ||
        (indices && !wt_check_tensor(ctx, op, indices)))
        return NULL;
    char sx[160], sy[160];
    wt_shape_str(sx, sizeof sx, x->ndim, x->shape);
    wt_shape_str(sy, sizeof sy, dy->ndim, dy->shape);
    bool ok = dy->ndim == 4 && dy->dtype == x->dtype;
    for (int d = 0; ok && d < 4; d++)
        ok = dy->shape[d] == os[d] && (!indices || (indices->ndim == 4 && indices->shape[d] == os[d]));
    if (!ok || (indices && indices->dtype != WT_I32) || dy->numel > INT32_MAX)
        return wt_fail(ctx, WT_STATUS_SHAPE, op,
                       "input %s %s, grad %s %s%s: the grad should be the pool's output [%lld, %lld, %lld, %lld]%s",
                       wt_dtype_name(x->dtype), sx, wt_dtype_name(dy->dtype), sy, indices ? " and i32 indices" : "",
                       (long long)os[0], (long long)os[1], (long long)os[2], (long long)os[3],
                       indices ? " of the same shape" : "");
    wt_tensor *dx = wt_tensor_new(ctx, op, x->dtype, 4, x->shape);
    if (!dx || !dx->numel)
        return dx;
    for (int d = 0; d < 4; d++) {
        p.st[0][d] = (int32_t)dy->strides[d];
        p.st[1][d] = indices ? (int32_t)indices->strides[d] : 0;
    }
    p.off[0] = (uint32_t)dy->offset;
    p.off[1] = indices ? (uint32_t)indices->offset : 0;
    p.n = (uint32_t)dx->numel;
    wt_kkey key = wt_key(WT_K_pool_bw, mode, dx->dtype, dy->dtype, indices ? WT_I32 : dy->dtype, WT_F32);
    wt_storage *in[2] = { dy->st, indices ? indices->st : NULL };
    if (wt_record_key(ctx, op, &key, &p, dx->st, 2, in) != WT_OK) {
        wt_release(dx);
        return NULL;
    }
    return dx;
}

wt_tensor *wt__max_pool2d_backward(wt_context *ctx, wt_tensor *x, wt_tensor *indices, wt_tensor *dy,
                                   const wt_pool2d_desc *desc) {
    const char *op = "wt_max_pool2d backward";
    wt_tensor *own = NULL;
    if (!indices) {
        wt_tensor *y = wt_max_pool2d(ctx, x, desc, &own);
        if (!y)
            return NULL;
        wt_release(y);
        indices = own;
    }
    wt_tensor *dx = pool_backward(ctx, op, x, indices, dy, desc, 0);
    wt_release(own);
    return dx;
}

wt_tensor *wt__avg_pool2d_backward(wt_context *ctx, wt_tensor *x, wt_tensor *dy, const wt_pool2d_desc *desc) {
    return pool_backward(ctx, "wt_avg_pool2d backward", x, NULL, dy, desc,
                         desc && desc->count_include_pad ? 1 : 2);
}
