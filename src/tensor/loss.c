/* loss.c - the losses of torch.nn.functional, built from wt ops.
 *
 * mse, l1 and smooth_l1 are plain compositions: their ops record their own backward.  The others
 * run their forward with grad mode off and record one node each (derivatives.c): cross_entropy
 * runs cross_entropy.wgsl both ways, so beyond the logits and their gradient only O(N) is written:
 * the forward reads the logits once per row and writes (logsumexp, loss) per row, the node keeps
 * the logits (already held by the caller), the logsumexp and a per-row weight, and the backward
 * writes dlogits = (softmax - smoothed one-hot) w g in one pass; nll_loss keeps the targets and
 * the weights; bce_with_logits keeps its two
 * inputs and has the gradient sigmoid(x) - y everywhere (a composition of relu and abs would give
 * the wrong one at x = 0). */
#include <string.h>

#include "tensor/backward.h"
#include "tensor/internal.h"

#define SHAPE(buf, t) wt_shape_str(buf, sizeof buf, (t)->ndim, (t)->shape)

static bool loss_args(wt_context *ctx, const char *op, wt_tensor *a, wt_tensor *b, const wt_loss_desc *d) {
    if (!ctx || !wt_check_tensor(ctx, op, a) || !wt_check_tensor(ctx, op, b))
        return false;
    if (d && (unsigned)d->reduction >= WT_REDUCTION_COUNT) {
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "reduction %d is not a wt_reduction", (int)d->reduction);
        return false;
    }
    if (!wt_is_float(a->dtype)) {
        wt_fail(ctx, WT_STATUS_DTYPE, op, "input must be f32 or f16, got %s", wt_dtype_name(a->dtype));
        return false;
    }
    return true;
}

/* input and target of one shape, both float */
static bool same_shapes(wt_context *ctx, const char *op, wt_tensor *a, wt_tensor *b, const wt_loss_desc *d) {
    if (!loss_args(ctx, op, a, b, d))
        return false;
    char x[160], y[160];
    if (a->ndim != b->ndim || memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof *a->shape)) {
        wt_fail(ctx, WT_STATUS_SHAPE, op, "input %s and target %s differ in shape", SHAPE(x, a), SHAPE(y, b));
        return false;
    }
    if (!wt_is_float(b->dtype)) {
        wt_fail(ctx, WT_STATUS_DTYPE, op, "target must be f32 or f16, got %s", wt_dtype_name(b->dtype));
        return false;
    }
    return true;
}

static wt_tensor *reduce_loss(wt_context *ctx, wt_tensor *per, const wt_loss_desc *d) {
    wt_reduction r = d ? d->reduction : WT_REDUCTION_MEAN;
    wt_tensor *out = r == WT_REDUCTION_NONE ? per : r == WT_REDUCTION_SUM ? wt_sum(ctx, per, 0, NULL, false)
                                                                           : wt_mean(ctx, per, 0, NULL, false);
    if (out == per)
        wt_retain(out);
    wt_release(per);
    return out;
}

wt_tensor *wt_mse_loss(wt_context *ctx, wt_tensor *input, wt_tensor *target, const wt_loss_desc *desc) {
    wt_tensor *ac[2];   /* autocast: losses are on the f32 list (amp.c) */
    if (wt__autocast(ctx, WT__AMP_F32, 2, (wt_tensor *const[]){ input, target }, ac))
        return wt__autocast_done(2, ac, wt_mse_loss(ctx, ac[0], ac[1], desc));
    if (!same_shapes(ctx, "wt_mse_loss", input, target, desc))
        return NULL;
    wt_tensor *dd = wt_sub(ctx, input, target);
    wt_tensor *sq = wt_mul(ctx, dd, dd);
    wt_release(dd);
    return reduce_loss(ctx, sq, desc);
}

wt_tensor *wt_l1_loss(wt_context *ctx, wt_tensor *input, wt_tensor *target, const wt_loss_desc *desc) {
    wt_tensor *ac[2];   /* autocast: losses are on the f32 list (amp.c) */
    if (wt__autocast(ctx, WT__AMP_F32, 2, (wt_tensor *const[]){ input, target }, ac))
        return wt__autocast_done(2, ac, wt_l1_loss(ctx, ac[0], ac[1], desc));
    if (!same_shapes(ctx, "wt_l1_loss", input, target, desc))
        return NULL;
    wt_tensor *dd = wt_sub(ctx, input, target);
    wt_tensor *ad = wt_abs(ctx, dd);
    wt_release(dd);
    return reduce_loss(ctx, ad, desc);
}

wt_tensor *wt_smooth_l1_loss(wt_context *ctx, wt_tensor *input, wt_tensor *target, const wt_loss_desc *desc) {
    wt_tensor *ac[2];   /* autocast: losses are on the f32 list (amp.c) */
    if (wt__autocast(ctx, WT__AMP_F32, 2, (wt_tensor *const[]){ input, target }, ac))
        return wt__autocast_done(2, ac, wt_smooth_l1_loss(ctx, ac[0], ac[1], desc));
    const char *op = "wt_smooth_l1_loss";
    if (!same_shapes(ctx, op, input, target, desc))
        return NULL;
    double beta = desc && desc->beta ? desc->beta : 1.0;
    if (!(beta > 0))
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "beta %g must be > 0", beta);
    wt_tensor *dd = wt_sub(ctx, input, target);
    wt_tensor *ad = wt_abs(ctx, dd);
    wt_tensor *sq = wt_mul(ctx, dd, dd);
    wt_tensor *quad = wt_mul_scalar(ctx, sq, 0.5 / beta);
    wt_tensor *lin = wt_sub_scalar(ctx, ad, 0.5 * beta);
    wt_tensor *in = wt_lt_scalar(ctx, ad, beta);
    wt_tensor *per = wt_where(ctx, in, quad, lin);
    wt_release(dd);
    wt_release(ad);
    wt_release(sq);
    wt_release(quad);
    wt_release(lin);
    wt_release(in);
    return reduce_loss(ctx, per, desc);
}

wt_tensor *wt_binary_cross_entropy_with_logits(wt_context *ctx, wt_tensor *x, wt_tensor *y, const wt_loss_desc *desc) {
    wt_tensor *ac[2];   /* autocast: losses are on the f32 list (amp.c) */
    if (wt__autocast(ctx, WT__AMP_F32, 2, (wt_tensor *const[]){ x, y }, ac))
        return wt__autocast_done(2, ac, wt_binary_cross_entropy_with_logits(ctx, ac[0], ac[1], desc));
    const char *op = "wt_binary_cross_entropy_with_logits";
    if (!same_shapes(ctx, op, x, y, desc))
        return NULL;
    wt_reduction r = desc ? desc->reduction : WT_REDUCTION_MEAN;
    bool was = wt_set_grad_enabled(ctx, false);
    wt_tensor *ax = wt_abs(ctx, x);
    wt_tensor *nx = wt_neg(ctx, ax);
    wt_tensor *ex = wt_exp(ctx, nx);
    wt_tensor *e1 = wt_add_scalar(ctx, ex, 1);
    wt_tensor *sp = wt_log(ctx, e1);                      /* log(1 + exp(-|x|)) */
    wt_tensor *rx = wt_relu(ctx, x);
    wt_tensor *xy = wt_mul(ctx, x, y);
    wt_tensor *a = wt_sub(ctx, rx, xy);
    wt_tensor *per = wt_add(ctx, a, sp);
    wt_tensor *out = reduce_loss(ctx, per, desc);
    wt_release(ax);
    wt_release(nx);
    wt_release(ex);
    wt_release(e1);
    wt_release(sp);
    wt_release(rx);
    wt_release(xy);
    wt_release(a);
    wt_set_grad_enabled(ctx, was);
    double scale = r == WT_REDUCTION_MEAN && x->numel ? 1.0 / (double)x->numel : 1.0;
    return wt__grad(ctx, out, WT_G_bce_with_logits, 2, (wt_tensor *const[]){ x, y }, &(wt_gargs){ .f = { scale } });
}

/* The class-index losses: checks, the targets as [N, 1] with ignored ones set to 0 (*safe), and
 * each row's weight w [N, 1] f32: valid / count (MEAN) or valid (SUM, NONE). */
static bool class_args(wt_context *ctx, const char *op, wt_tensor *x, wt_tensor *target, const wt_loss_desc *d,
                       wt_tensor **safe, wt_tensor **w) {
    *safe = *w = NULL;
    if (!loss_args(ctx, op, x, target, d))
        return false;
    char a[160], b[160];
    if (x->ndim != 2 || target->ndim != 1 || target->shape[0] != x->shape[0]) {
        wt_fail(ctx, WT_STATUS_SHAPE, op, "input %s and target %s: input [N, C] and target [N] needed", SHAPE(a, x),
                SHAPE(b, target));
        return false;
    }
    if (target->dtype != WT_I32 && target->dtype != WT_U32) {
        wt_fail(ctx, WT_STATUS_DTYPE, op, "target must hold class indices (i32 or u32), got %s",
                wt_dtype_name(target->dtype));
        return false;
    }
    if (d && (d->label_smoothing < 0 || d->label_smoothing > 1)) {
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "label smoothing %g must be in [0, 1]", d->label_smoothing);
        return false;
    }
    int64_t N = x->shape[0];
    wt_reduction r = d ? d->reduction : WT_REDUCTION_MEAN;
    wt_tensor *t2 = wt_reshape(ctx, target, WT_SHAPE(N, 1));
    if (d && d->use_ignore_index) {
        wt_tensor *valid = wt_ne_scalar(ctx, t2, (double)d->ignore_index);
        wt_tensor *z = wt_zeros(ctx, target->dtype, 0, NULL);
        *safe = wt_where(ctx, valid, t2, z);
        wt_tensor *vf = wt_cast(ctx, valid, WT_F32);
        if (r == WT_REDUCTION_MEAN) {
            wt_tensor *cnt = wt_sum(ctx, vf, 0, NULL, false);
            *w = wt_div(ctx, vf, cnt);
            wt_release(cnt);
        } else {
            *w = vf;
            wt_retain(vf);
        }
        wt_release(valid);
        wt_release(z);
        wt_release(vf);
    } else {
        *safe = t2;
        wt_retain(t2);
        *w = wt_full(ctx, WT_F32, 2, (const int64_t[]){ N, 1 }, r == WT_REDUCTION_MEAN ? 1.0 / (double)N : 1.0);
    }
    wt_release(t2);
    if (!*safe || !*w) {
        wt_release(*safe);
        wt_release(*w);
        *safe = *w = NULL;
        return false;
    }
    return true;
}

/* per [N, 1] (f32) -> the reduced loss in dtype dt */
static wt_tensor *class_reduce(wt_context *ctx, wt_tensor *per, const wt_loss_desc *d, wt_dtype dt) {
    wt_reduction r = d ? d->reduction : WT_REDUCTION_MEAN;
    wt_tensor *v = r == WT_REDUCTION_NONE ? wt_reshape(ctx, per, WT_SHAPE(-1)) : wt_sum(ctx, per, 0, NULL, false);
    wt_release(per);
    wt_tensor *out = v ? wt_cast(ctx, v, dt) : NULL;
    wt_release(v);
    return out;
}

typedef wt_tensor *(*class_loss)(wt_context *, wt_tensor *, wt_tensor *, const wt_loss_desc *);

/* logits [C] with a 0-d target, or [N, C, d1, ..] with target [N, d1, ..]: the classes moved last
 * and the rest flattened to rows (recorded views and copies), per-element results shaped back */
static wt_tensor *class_nd(wt_context *ctx, const char *op, wt_tensor *x, wt_tensor *t, const wt_loss_desc *d,
                           class_loss f) {
    char a[160], b[160];
    bool ok = x->ndim >= 1 && t->ndim == (x->ndim == 1 ? 0 : x->ndim - 1);
    for (int i = 0; ok && i < t->ndim; i++)
        ok = t->shape[i] == x->shape[i ? i + 1 : 0];
    if (!ok)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "input %s and target %s: input [N, C, d...] and target [N, d...] (or "
                       "[C] and []) needed", SHAPE(a, x), SHAPE(b, t));
    int perm[WT_MAX_DIMS], nd = x->ndim;
    for (int i = 0; i < nd; i++)
        perm[i] = i == 0 ? 0 : i == nd - 1 ? 1 : i + 1;
    int64_t C = x->shape[nd == 1 ? 0 : 1];
    wt_tensor *xp = nd == 1 ? x : wt_permute(ctx, x, perm);
    if (nd == 1)
        wt_retain(xp);
    wt_tensor *x2 = xp ? wt_reshape(ctx, xp, WT_SHAPE(-1, C)) : NULL;
    wt_tensor *t2 = x2 ? wt_reshape(ctx, t, WT_SHAPE(-1)) : NULL;
    wt_tensor *l = t2 ? f(ctx, x2, t2, d) : NULL;
    wt_tensor *out = l;
    if (l && d && d->reduction == WT_REDUCTION_NONE) {
        out = wt_reshape(ctx, l, t->ndim, t->shape);
        wt_release(l);
    }
    wt_release(xp);
    wt_release(x2);
    wt_release(t2);
    return out;
}

/* t contiguous at offset 0: t itself (retained) or a copy. */
static wt_tensor *dense(wt_context *ctx, wt_tensor *t) {
    if (wt_is_contiguous(t) && t->offset == 0) {
        wt_retain(t);
        return t;
    }
    return wt_clone(ctx, t);
}

/* One cross_entropy.wgsl dispatch (op 0 forward, 1 backward) over x [N, C] and targets t. */
static wt_status ce_record(wt_context *ctx, const char *op, uint32_t code, wt_tensor *out, wt_tensor *x, wt_tensor *t,
                           wt_tensor *c, double e) {
    int64_t N = x->shape[0], C = x->shape[1];
    if (code == 0 && N * 256 > UINT32_MAX)
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "%lld rows: too many (at most %lld)", (long long)N,
                         (long long)(UINT32_MAX / 256));
    wt_kkey key = wt_key(WT_K_cross_entropy, code, out->dtype, x->dtype, t->dtype, WT_F32);
    key.in[2] = WT_F32;
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = (uint32_t)(code == 0 ? N * 256 : N * C);
    p.aux[0] = (uint32_t)N;
    p.aux[1] = (uint32_t)C;
    float ef = (float)e;
    memcpy(&p.sv[0], &ef, 4);
    wt_storage *in[3] = { x->st, t->st, c ? c->st : NULL };
    return wt_record_key(ctx, op, &key, &p, out->st, 3, in);
}

/* The forward: one dispatch writes each row's (logsumexp, loss) [N, 2] f32 from the logits as
 * they are (f16 read as such); the rest is O(N).  The node keeps the logits (the caller holds
 * them), the safe targets, the logsumexp and the row weights. */
wt_tensor *wt_cross_entropy(wt_context *ctx, wt_tensor *logits, wt_tensor *target, const wt_loss_desc *desc) {
    wt_tensor *ac[2];   /* autocast: losses are on the f32 list (amp.c) */
    if (wt__autocast(ctx, WT__AMP_F32, 1, (wt_tensor *const[]){ logits }, ac))
        return wt__autocast_done(1, ac, wt_cross_entropy(ctx, ac[0], target, desc));
    const char *op = "wt_cross_entropy";
    if (ctx && logits && target && logits->refs && target->refs && logits->ndim != 2)
        return class_nd(ctx, op, logits, target, desc, wt_cross_entropy);
    wt_tensor *safe, *w;
    bool was = ctx ? wt_set_grad_enabled(ctx, false) : false;
    if (!class_args(ctx, op, logits, target, desc, &safe, &w)) {
        wt_set_grad_enabled(ctx, was);
        return NULL;
    }
    double e = desc ? desc->label_smoothing : 0;
    int64_t N = logits->shape[0];
    wt_tensor *x = dense(ctx, logits), *t = dense(ctx, safe);
    wt_tensor *rs = x && t ? wt_tensor_new(ctx, op, WT_F32, 2, (const int64_t[]){ N, 2 }) : NULL;
    if (rs && ce_record(ctx, op, 0, rs, x, t, NULL, e) != WT_OK) {
        wt_release(rs);
        rs = NULL;
    }
    wt_tensor *lse = rs ? wt_narrow(ctx, rs, 1, 0, 1) : NULL;    /* [N, 1] */
    wt_tensor *raw = rs ? wt_narrow(ctx, rs, 1, 1, 1) : NULL;
    wt_tensor *out = raw ? class_reduce(ctx, wt_mul(ctx, raw, w), desc, logits->dtype) : NULL;
    wt_release(x);
    wt_release(t);
    wt_release(rs);
    wt_release(raw);
    wt_set_grad_enabled(ctx, was);
    out = out ? wt__grad(ctx, out, WT_G_cross_entropy, 2, (wt_tensor *const[]){ logits, safe },
                         &(wt_gargs){ .f = { e }, .save = { lse, w } })
              : NULL;
    wt_release(lse);
    wt_release(safe);
    wt_release(w);
    return out;
}

wt_tensor *wt__cross_entropy_backward(wt_context *ctx, wt_tensor *logits, wt_tensor *t, wt_tensor *lse, wt_tensor *wg,
                                      double e) {
    const char *op = "wt_cross_entropy backward";
    int64_t N = logits->shape[0];
    wt_tensor *x = dense(ctx, logits), *tt = dense(ctx, t);
    wt_tensor *l32 = wt_cast(ctx, lse, WT_F32), *w32 = wt_cast(ctx, wg, WT_F32);
    wt_tensor *w2 = w32 ? wt_reshape(ctx, w32, WT_SHAPE(N, 1)) : NULL;
    wt_tensor *rs = l32 && w2 ? wt_cat(ctx, (wt_tensor *const[]){ l32, w2 }, 2, 1) : NULL;   /* [N, 2] */
    wt_tensor *dx = x && tt && rs ? wt_tensor_new(ctx, op, logits->dtype, 2, logits->shape) : NULL;
    if (dx && ce_record(ctx, op, 1, dx, x, tt, rs, e) != WT_OK) {
        wt_release(dx);
        dx = NULL;
    }
    wt_release(x);
    wt_release(tt);
    wt_release(l32);
    wt_release(w32);
    wt_release(w2);
    wt_release(rs);
    return dx;
}

wt_tensor *wt_nll_loss(wt_context *ctx, wt_tensor *logp, wt_tensor *target, const wt_loss_desc *desc) {
    wt_tensor *ac[2];   /* autocast: losses are on the f32 list (amp.c) */
    if (wt__autocast(ctx, WT__AMP_F32, 1, (wt_tensor *const[]){ logp }, ac))
        return wt__autocast_done(1, ac, wt_nll_loss(ctx, ac[0], target, desc));
    const char *op = "wt_nll_loss";
    if (ctx && logp && target && logp->refs && target->refs && logp->ndim != 2)
        return class_nd(ctx, op, logp, target, desc, wt_nll_loss);
    wt_tensor *safe, *w;
    bool was = ctx ? wt_set_grad_enabled(ctx, false) : false;
    if (!class_args(ctx, op, logp, target, desc, &safe, &w)) {
        wt_set_grad_enabled(ctx, was);
        return NULL;
    }
    wt_tensor *pick = wt_gather(ctx, logp, 1, safe);
    wt_tensor *neg = wt_neg(ctx, pick);
    wt_tensor *out = class_reduce(ctx, wt_mul(ctx, neg, w), desc, logp->dtype);
    wt_release(pick);
    wt_release(neg);
    wt_set_grad_enabled(ctx, was);
    out = wt__grad(ctx, out, WT_G_nll_loss, 2, (wt_tensor *const[]){ logp, safe }, &(wt_gargs){ .save = { w } });
    wt_release(safe);
    wt_release(w);
    return out;
}
