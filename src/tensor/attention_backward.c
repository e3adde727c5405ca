/* attention_backward.c - the gradients of scaled_dot_product_attention (backward.h), flash
 * style: memory O(sequence) beyond the operands, three attn_bw.wgsl dispatches.
 *
 * The kernel reads q and dO from one buffer and k and v from another (a dispatch binds at most
 * three inputs): wt_stack copies them into [2, B H, Lq, D] and [2, B Hkv, Lk, D] (reading any
 * strides; O(sequence) memory, a small fraction of the work).  Then OP 0 computes each query
 * row's logsumexp and delta = dO . O (the forward's output; recomputed when not given) into
 * [B H Lq, 2], OP 1 the query gradient by query tiles, OP 2 the key and value gradients by key
 * tiles into one [2, B Hkv, Lk, D] buffer, summing the query heads of a KV head (grouped-query
 * attention).  dk and dv are views of that buffer. */
#include <math.h>
#include <string.h>

#include "tensor/backward.h"
#include "tensor/internal.h"

static int64_t cdiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

/* dim d of t counted from the end (1: the last), 1 where t has fewer dims */
static int64_t dim_end(const wt_tensor *t, int d) {
    return t->ndim >= d ? t->shape[t->ndim - d] : 1;
}

static wt_tensor *dense(wt_context *ctx, wt_tensor *t) {
    if (wt_is_contiguous(t) && t->offset == 0) {
        wt_retain(t);
        return t;
    }
    return wt_clone(ctx, t);
}

wt_status wt__attention_backward(wt_context *ctx, wt_tensor *q, wt_tensor *k, wt_tensor *v, wt_tensor *out,
                                 wt_tensor *dout, const wt_attention_desc *desc, wt_tensor **dq, wt_tensor **dk,
                                 wt_tensor **dv) {
    const char *op = "wt_scaled_dot_product_attention backward";
    if (dq)
        *dq = NULL;
    if (dk)
        *dk = NULL;
    if (dv)
        *dv = NULL;
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!wt_check_tensor(ctx, op, q) || !wt_check_tensor(ctx, op, k) || !wt_check_tensor(ctx, op, v) ||
        !wt_check_tensor(ctx, op, dout) || (out && !wt_check_tensor(ctx, op, out)))
        return ctx->status;
    wt_attention_desc d = desc ? *desc : (wt_attention_desc){ 0 };
    char bq[96], bk[96], bv[96], bo[96];
    wt_shape_str(bq, sizeof bq, q->ndim, q->shape);
    wt_shape_str(bk, sizeof bk, k->ndim, k->shape);
    wt_shape_str(bv, sizeof bv, v->ndim, v->shape);
    wt_shape_str(bo, sizeof bo, dout->ndim, dout->shape);
    if (q->dtype != WT_F32 || k->dtype != WT_F32 || v->dtype != WT_F32 || dout->dtype != WT_F32 ||
        (out && out->dtype != WT_F32))
        return wt_failst(ctx, WT_STATUS_DTYPE, op, "q %s, k %s, v %s, grad %s: f32 only", bq, bk, bv, bo);
    if (d.mask)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "q %s: no mask tensor (causal only)", bq);
    int64_t B = dim_end(q, 4), H = dim_end(q, 3), Lq = dim_end(q, 2), D = dim_end(q, 1);
    int64_t Hkv = dim_end(k, 3), Lk = dim_end(k, 2);
    bool ok = q->ndim >= 2 && q->ndim <= 4 && k->ndim == q->ndim && v->ndim == q->ndim && dout->ndim == q->ndim &&
              dim_end(k, 4) == B && dim_end(v, 4) == B && dim_end(v, 3) == Hkv && dim_end(v, 2) == Lk &&
              dim_end(k, 1) == D && dim_end(v, 1) == D && Hkv >= 1 && H % Hkv == 0 && D >= 1 && D <= 256;
    for (int i = 0; ok && i < q->ndim; i++)
        ok = dout->shape[i] == q->shape[i] && (!out || (out->ndim == q->ndim && out->shape[i] == q->shape[i]));
    if (!ok)
        return wt_failst(ctx, WT_STATUS_SHAPE, op,
                         "q %s, k %s, v %s, grad %s: need [..., H, Lq, D], [..., Hkv, Lk, D] twice (H a multiple of "
                         "Hkv, 1 <= D <= 256) and the grad (and output) of q's shape", bq, bk, bv, bo);
    int64_t G = H / Hkv, nqt = cdiv(Lq, 16), nkt = cdiv(Lk, 16), nch = cdiv(D, 64);
    if (2 * B * H * Lq * D > INT32_MAX || 2 * B * Hkv * Lk * D > INT32_MAX || B * H * nqt * 256 > UINT32_MAX ||
        B * Hkv * nkt * 256 > UINT32_MAX)
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "q %s, k %s: too large", bq, bk);
    float scale = (float)(d.scale != 0 ? d.scale : 1.0 / sqrt((double)D));
    wt_tensor *gq = NULL, *gkv = NULL, *qd = NULL, *kvt = NULL, *o = NULL, *oc = NULL, *stats = NULL;
    wt_status s = WT_OK;
    if (!q->numel || !k->numel) {   /* nothing attends, or no key: zero gradients */
        gq = wt_zeros(ctx, WT_F32, q->ndim, q->shape);
        gkv = gq ? wt_zeros(ctx, WT_F32, 4, (const int64_t[]){ 2, B * Hkv, Lk, D }) : NULL;
        s = gkv ? WT_OK : ctx->status;
        goto done;
    }
    o = out ? (wt_retain(out), out)
            : wt_scaled_dot_product_attention(ctx, q, k, v, &(wt_attention_desc){ .causal = d.causal,
                                                                                 .scale = scale });
    oc = o ? dense(ctx, o) : NULL;
    qd = oc ? wt_stack(ctx, (wt_tensor *[]){ q, dout }, 2, 0) : NULL;
    kvt = qd ? wt_stack(ctx, (wt_tensor *[]){ k, v }, 2, 0) : NULL;
    stats = kvt ? wt_tensor_new(ctx, op, WT_F32, 2, (const int64_t[]){ B * H * Lq, 2 }) : NULL;
    gq = stats ? wt_tensor_new(ctx, op, WT_F32, q->ndim, q->shape) : NULL;
    gkv = gq ? wt_tensor_new(ctx, op, WT_F32, 4, (const int64_t[]){ 2, B * Hkv, Lk, D }) : NULL;
    if (!gkv) {
        s = ctx->status;
        goto done;
    }
    wt_params p;
    memset(&p, 0, sizeof p);
    const int64_t sh[8] = { B, H, Lq, Lk, D, G, nqt, nch };
    for (int i = 0; i < 8; i++)
        p.shape[i] = (uint32_t)sh[i];
    memcpy(&p.sv[0], &scale, 4);
    wt_kkey key = wt_key(WT_K_attn_bw, 0, WT_F32, WT_F32, WT_F32, WT_F32);
    key.in[2] = WT_F32;
    key.mode[2] = d.causal ? 1 : 0;
    p.n = (uint32_t)(B * H * nqt * 256);
    s = wt_record_key(ctx, op, &key, &p, stats->st, 3, (wt_storage *[]){ qd->st, kvt->st, oc->st });
    key.op = 1;
    if (s == WT_OK)
        s = wt_record_key(ctx, op, &key, &p, gq->st, 3, (wt_storage *[]){ qd->st, kvt->st, stats->st });
    key.op = 2;
    p.shape[6] = (uint32_t)nkt;
    p.n = (uint32_t)(B * Hkv * nkt * 256);
    if (s == WT_OK)
        s = wt_record_key(ctx, op, &key, &p, gkv->st, 3, (wt_storage *[]){ qd->st, kvt->st, stats->st });
done:
    wt_release(o);
    wt_release(oc);
    wt_release(qd);
    wt_release(kvt);
    wt_release(stats);
    wt_tensor *rk = NULL, *rv = NULL;
    if (s == WT_OK) {
        wt_tensor *sk = wt_select(ctx, gkv, 0, 0), *sv = sk ? wt_select(ctx, gkv, 0, 1) : NULL;
        rk = sv ? wt_reshape(ctx, sk, k->ndim, k->shape) : NULL;
        rv = rk ? wt_reshape(ctx, sv, v->ndim, v->shape) : NULL;
        wt_release(sk);
        wt_release(sv);
        s = rv ? WT_OK : ctx->status;
    }
    wt_release(gkv);
    if (s != WT_OK) {
        wt_release(gq);
        wt_release(rk);
        wt_release(rv);
        return s;
    }
    if (dq)
        *dq = gq;
    else
        wt_release(gq);
    if (dk)
        *dk = rk;
    else
        wt_release(rk);
    if (dv)
        *dv = rv;
    else
        wt_release(rv);
    return WT_OK;
}
