/* optim.c - optimizers as torch.optim (SGD, Adam, AdamW), clip_grad_norm, learning-rate
 * schedules and in-place copies.
 *
 * An optimizer holds its parameters (retained), per group the hyperparameters with defaults
 * filled in, and per parameter its state tensor and step count.  A step validates everything
 * first (the gradient count, each gradient's presence, context, dtype and shape, the parameter
 * still contiguous f32) and records nothing when something is wrong; then it makes contiguous
 * copies of strided gradients and the missing state tensors (zeros [rows, numel]: a parameter's
 * momentum buffer, or Adam's m, v and vmax rows, in one tensor so that one dispatch binds them
 * all), and finally records one dispatch per parameter: kernels/optim.wgsl (parameter and state
 * read_write, the catalogue's NEEDS_W2) with state, kernels/optim1.wgsl (OP 0) for plain SGD.
 * Host-side scalars follow torch: bias corrections in double from the parameter's own step count,
 * handed to the kernel as f32 (lr / (1 - beta1^t), sqrt(1 - beta2^t)).
 *
 * A GradScaler's step (amp.c) binds the scaler's inf/NaN flag as one more input (the kernels'
 * FL_FOUND_INF: each update returns without writing when it is set); other steps bind the
 * dummy buffer there and never read it.
 *
 * With autograd, wt_optimizer_step_grads reads each parameter's .grad (wt_grad) and skips those
 * without one, as torch.optim does; steps and clipping run with grad mode off (torch.no_grad).
 *
 * clip_grad_norm composes the norms from wt ops (lazy) and scales every gradient in place with
 * optim1.wgsl's OP 1, reading the coefficient from a one-element tensor: no readback.  The
 * schedules are plain functions of the step. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tensor/optim.h"

#define SHAPE(b, t) wt_shape_str(b, sizeof b, (t)->ndim, (t)->shape)

enum { FL_NESTEROV = 1, FL_MAXIMIZE = 2, FL_AMSGRAD = 4, FL_FIRST = 8, FL_DECAY = 16, FL_FOUND_INF = 32 };

static uint32_t f32_bits(double v) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

const char *wt__optim_kind_name(wt_optimizer_kind k) {
    static const char *const names[] = { "sgd", "adam", "adamw" };
    return (unsigned)k < WT_OPTIM_KIND_COUNT ? names[k] : "?";
}

int wt__optim_state_rows(const wt_optimizer *opt, int i) {
    const wt_optim_hparams *h = &opt->h[opt->ps[i].group];
    if (opt->kind == WT_OPTIM_SGD)
        return h->momentum != 0 ? 1 : 0;
    return h->amsgrad ? 3 : 2;
}

const char *wt__optim_state_name(const wt_optimizer *opt, int r) {
    static const char *const adam[] = { "exp_avg", "exp_avg_sq", "max_exp_avg_sq" };
    if (opt->kind == WT_OPTIM_SGD)
        return r == 0 ? "momentum_buffer" : NULL;
    return r >= 0 && r < 3 ? adam[r] : NULL;
}

/* A parameter the optimizer can update in place: contiguous f32 of this context, 32-bit sized. */
static bool check_param(wt_context *ctx, const char *op, const wt_tensor *p, int g, int i) {
    char b[160];
    if (!p) {   /* an earlier failure keeps its message (the root cause) */
        if (ctx->status == WT_OK)
            wt_fail(ctx, WT_STATUS_NULL_TENSOR, op, "group %d parameter %d is NULL", g, i);
        return false;
    }
    if (!wt_check_tensor(ctx, op, p))
        return false;
    if (p->dtype != WT_F32) {
        wt_fail(ctx, WT_STATUS_DTYPE, op, "group %d parameter %d %s is %s (f32 parameters only)", g, i, SHAPE(b, p),
                wt_dtype_name(p->dtype));
        return false;
    }
    if (!wt_is_leaf(p)) {
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "group %d parameter %d %s is not a leaf (a result of %s): "
                "optimizers update leaves in place", g, i, SHAPE(b, p), wt_grad_fn_name(p));
        return false;
    }
    if (!wt_is_contiguous(p) || p->offset + p->numel > (int64_t)UINT32_MAX) {
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op,
                "group %d parameter %d %s is not a contiguous leaf (updates are in place) or too large", g, i,
                SHAPE(b, p));
        return false;
    }
    return true;
}

static bool check_hparams(wt_context *ctx, const char *op, wt_optimizer_kind kind, int g, wt_optim_hparams *h) {
    if (h->lr == 0)
        h->lr = 1e-3;
    if (h->beta1 == 0)
        h->beta1 = 0.9;
    if (h->beta2 == 0)
        h->beta2 = 0.999;
    if (h->eps == 0)
        h->eps = 1e-8;
    const char *bad = NULL;
    if (!(h->lr > 0) || !isfinite(h->lr))
        bad = "lr must be > 0";
    else if (!(h->weight_decay >= 0) || !isfinite(h->weight_decay))
        bad = "weight_decay must be >= 0";
    else if (!(h->momentum >= 0) || !isfinite(h->momentum))
        bad = "momentum must be >= 0";
    else if (!isfinite(h->dampening))
        bad = "dampening must be finite";
    else if (h->nesterov && (h->momentum <= 0 || h->dampening != 0))
        bad = "nesterov needs momentum > 0 and dampening 0";
    else if (!(h->beta1 >= 0 && h->beta1 < 1) || !(h->beta2 >= 0 && h->beta2 < 1))
        bad = "betas must be in [0, 1)";
    else if (!(h->eps >= 0) || !isfinite(h->eps))
        bad = "eps must be >= 0";
    else if (kind == WT_OPTIM_SGD && h->amsgrad)
        bad = "amsgrad is an Adam option";
    else if (kind != WT_OPTIM_SGD && (h->momentum != 0 || h->dampening != 0 || h->nesterov))
        bad = "momentum, dampening and nesterov are SGD options";
    if (bad)
        wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "group %d: %s", g, bad);
    return !bad;
}

wt_optimizer *wt_optimizer_create(wt_context *ctx, const wt_optimizer_desc *desc) {
    const char *op = "wt_optimizer_create";
    if (!ctx)
        return NULL;
    if (!desc || (unsigned)desc->kind >= WT_OPTIM_KIND_COUNT || desc->group_count < 1 || !desc->groups)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "a desc with a valid kind and at least one group needed");
    int n = 0;
    for (int g = 0; g < desc->group_count; g++) {
        const wt_param_group *pg = &desc->groups[g];
        if (pg->count < 0 || (pg->count && !pg->params))
            return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "group %d: %d parameters and params %s", g, pg->count,
                           pg->params ? "given" : "NULL");
        wt_optim_hparams h = pg->h;
        if (!check_hparams(ctx, op, desc->kind, g, &h))
            return NULL;
        for (int i = 0; i < pg->count; i++) {
            if (!check_param(ctx, op, pg->params[i], g, i))
                return NULL;
            /* torch: "some parameters appear in more than one parameter group" */
            for (int g2 = 0; g2 <= g; g2++)
                for (int j = 0; j < (g2 == g ? i : desc->groups[g2].count); j++)
                    if (desc->groups[g2].params[j] == pg->params[i])
                        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op,
                                       "group %d parameter %d is also group %d parameter %d", g, i, g2, j);
        }
        n += pg->count;
    }
    wt_optimizer *o = wt_alloc(ctx, sizeof *o);
    wt_optim_hparams *hs = wt_alloc(ctx, (size_t)desc->group_count * sizeof *hs);
    wt__opt_param *ps = wt_alloc(ctx, (size_t)(n ? n : 1) * sizeof *ps);
    if (!o || !hs || !ps) {
        wt_free(ctx, o);
        wt_free(ctx, hs);
        wt_free(ctx, ps);
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    }
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->kind = desc->kind;
    snprintf(o->label, sizeof o->label, "%s", desc->label ? desc->label : "");
    o->ngroups = desc->group_count;
    o->nparams = n;
    o->h = hs;
    o->ps = ps;
    for (int g = 0, k = 0; g < desc->group_count; g++) {
        hs[g] = desc->groups[g].h;
        check_hparams(ctx, op, desc->kind, g, &hs[g]);   /* fills the defaults (checked above) */
        for (int i = 0; i < desc->groups[g].count; i++, k++) {
            ps[k] = (wt__opt_param){ desc->groups[g].params[i], NULL, g, 0 };
            wt_retain(ps[k].p);
        }
    }
    return o;
}

void wt_optimizer_destroy(wt_optimizer *opt) {
    if (!opt)
        return;
    wt_context *ctx = opt->ctx;
    for (int i = 0; i < opt->nparams; i++) {
        wt_release(opt->ps[i].p);
        wt_release(opt->ps[i].state);
    }
    wt_free(ctx, opt->ps);
    wt_free(ctx, opt->h);
    wt_free(ctx, opt);
}

int wt_optimizer_param_count(const wt_optimizer *opt) {
    return opt ? opt->nparams : 0;
}

wt_tensor *wt_optimizer_param(const wt_optimizer *opt, int i) {
    return opt && i >= 0 && i < opt->nparams ? opt->ps[i].p : NULL;
}

int64_t wt_optimizer_steps(const wt_optimizer *opt) {
    return opt ? opt->steps : 0;
}

wt_status wt_optimizer_set_lr(wt_optimizer *opt, int group, double lr) {
    if (!opt)
        return WT_STATUS_INVALID_ARGUMENT;
    if (group < 0 || group >= opt->ngroups || !(lr > 0) || !isfinite(lr))
        return wt_failst(opt->ctx, WT_STATUS_INVALID_ARGUMENT, "wt_optimizer_set_lr",
                         "group %d of %d, lr %g (> 0 needed)", group, opt->ngroups, lr);
    opt->h[group].lr = lr;
    return WT_OK;
}

double wt_optimizer_get_lr(const wt_optimizer *opt, int group) {
    return opt && group >= 0 && group < opt->ngroups ? opt->h[group].lr : 0;
}

wt_tensor *wt_optimizer_state(wt_optimizer *opt, int i, const char *which) {
    if (!opt || i < 0 || i >= opt->nparams || !which || !opt->ps[i].state)
        return NULL;
    int rows = wt__optim_state_rows(opt, i);
    for (int r = 0; r < rows; r++)
        if (!strcmp(which, wt__optim_state_name(opt, r))) {
            const wt_tensor *p = opt->ps[i].p;
            wt_tensor *row = wt_select(opt->ctx, opt->ps[i].state, 0, r);
            wt_tensor *v = row ? wt_view(opt->ctx, row, p->ndim, p->shape) : NULL;
            wt_release(row);
            return v;
        }
    return NULL;
}

/* Records optim1.wgsl's op into dst (contiguous) from src (contiguous; NULL: none). */
static wt_status inplace(wt_context *ctx, const char *op, uint32_t code, wt_tensor *dst, const wt_tensor *src,
                         const uint32_t sv[4], uint32_t flags) {
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = (uint32_t)dst->numel;
    p.off[0] = (uint32_t)dst->offset;
    p.off[1] = src ? (uint32_t)src->offset : 0;
    if (sv)
        memcpy(p.sv, sv, sizeof p.sv);
    p.aux[0] = flags;
    wt_dtype sd = src ? src->dtype : WT_F32;
    wt_kkey key = wt_key(WT_K_optim1, code, dst->dtype, sd, WT_DTYPE_DEFAULT, WT_F32);
    wt_storage *in[2] = { src ? src->st : NULL, NULL };
    return wt_record_key(ctx, op, &key, &p, dst->st, 2, in);
}

wt_status wt_copy_into(wt_context *ctx, wt_tensor *dst, wt_tensor *src) {
    const char *op = "wt_copy_into";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!wt_check_tensor(ctx, op, dst) || !wt_check_tensor(ctx, op, src))
        return ctx->status;
    char b[160], c[160];
    if (dst->dtype != src->dtype || dst->ndim != src->ndim ||
        memcmp(dst->shape, src->shape, (size_t)dst->ndim * sizeof *dst->shape))
        return wt_failst(ctx, WT_STATUS_SHAPE, op, "destination %s %s and source %s %s differ", SHAPE(b, dst),
                         wt_dtype_name(dst->dtype), SHAPE(c, src), wt_dtype_name(src->dtype));
    if (!wt_is_contiguous(dst) || dst->offset + dst->numel > (int64_t)UINT32_MAX)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "destination %s must be contiguous", SHAPE(b, dst));
    if (!dst->numel)
        return WT_OK;
    /* a source sharing the destination's storage is copied first (the copy must not race itself) */
    wt_tensor *s = wt_same_storage(dst, src) ? wt_clone(ctx, src) : wt_contiguous(ctx, src);
    if (!s)
        return ctx->status;
    wt_status st = inplace(ctx, op, WT__INPLACE_COPY, dst, s, NULL, 0);
    wt_release(s);
    return st;
}

/* One step; skip: a NULL gradient leaves its parameter out (autograd's parameters without .grad);
 * fi: NULL, or a one-element f32 view whose nonzero value makes every update a no-op (amp.c). */
static wt_status step(wt_optimizer *opt, const char *op, wt_tensor *const *grads, int n, bool skip,
                      const wt_tensor *fi) {
    wt_context *ctx = opt->ctx;
    if (n != opt->nparams || (n && !grads))
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%d gradients for %d parameters", grads ? n : 0,
                         opt->nparams);
    /* 1. check everything: nothing is recorded when one is wrong */
    for (int i = 0; i < n; i++) {
        const wt__opt_param *q = &opt->ps[i];
        const wt_tensor *g = grads[i];
        char b[160], c[160];
        if (!check_param(ctx, op, q->p, q->group, i))
            return ctx->status;
        if (!g && skip)
            continue;
        if (!g)
            return ctx->status != WT_OK ? ctx->status
                                        : wt_failst(ctx, WT_STATUS_NULL_TENSOR, op, "parameter %d %s (group %d) has no "
                                                    "gradient", i, SHAPE(b, q->p), q->group);
        if (!wt_check_tensor(ctx, op, g))
            return ctx->status;
        if (g->dtype != WT_F32)
            return wt_failst(ctx, WT_STATUS_DTYPE, op, "gradient %d %s is %s (f32 needed)", i, SHAPE(b, g),
                             wt_dtype_name(g->dtype));
        if (g->ndim != q->p->ndim || memcmp(g->shape, q->p->shape, (size_t)g->ndim * sizeof *g->shape))
            return wt_failst(ctx, WT_STATUS_SHAPE, op, "gradient %d %s does not match parameter %s", i, SHAPE(b, g),
                             SHAPE(c, q->p));
        if (wt_same_storage(g, q->p))
            return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "gradient %d shares the parameter's storage", i);
    }
    wt_kernel *kstate = NULL, *kplain = NULL;
    wt_kkey key = wt_key(WT_K_optim, opt->kind == WT_OPTIM_SGD ? 0u : opt->kind == WT_OPTIM_ADAM ? 1u : 2u, WT_F32,
                         WT_F32, WT_F32, WT_F32);
    wt_kkey key1 = wt_key(WT_K_optim1, WT__INPLACE_SGD, WT_F32, WT_F32, WT_DTYPE_DEFAULT, WT_F32);
    for (int i = 0; i < n; i++) {   /* the kernels built before anything is recorded */
        if (!grads[i])
            continue;
        bool stateful = wt__optim_state_rows(opt, i) > 0;
        if (stateful && !kstate && !(kstate = wt_kernel_get(ctx, op, &key)))
            return ctx->status;
        if (!stateful && !kplain && !(kplain = wt_kernel_get(ctx, op, &key1)))
            return ctx->status;
    }
    /* 2. contiguous gradients and missing state; failing here leaves the parameters untouched */
    wt_tensor *gc_small[16], **gc = n <= 16 ? gc_small : wt_alloc(ctx, (size_t)n * sizeof *gc);
    wt_tensor *made_small[16], **made = n <= 16 ? made_small : wt_alloc(ctx, (size_t)n * sizeof *made);
    if (!gc || !made) {
        if (gc != gc_small)
            wt_free(ctx, gc);
        if (made != made_small)
            wt_free(ctx, made);
        return wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    }
    wt_status st = WT_OK;
    for (int i = 0; i < n; i++)
        gc[i] = made[i] = NULL;
    for (int i = 0; i < n && st == WT_OK; i++) {
        wt__opt_param *q = &opt->ps[i];
        if (!grads[i])
            continue;
        if (!(gc[i] = wt_contiguous(ctx, grads[i])))
            st = ctx->status;
        int rows = wt__optim_state_rows(opt, i);
        if (st == WT_OK && rows && !q->state &&
            !(made[i] = wt_zeros(ctx, WT_F32, WT_SHAPE(rows, q->p->numel))))
            st = ctx->status;
    }
    /* 3. one dispatch per parameter */
    for (int i = 0; i < n && st == WT_OK; i++) {
        wt__opt_param *q = &opt->ps[i];
        const wt_optim_hparams *h = &opt->h[q->group];
        if (!gc[i])
            continue;
        if (made[i]) {
            q->state = made[i];
            made[i] = NULL;
        }
        int64_t t = q->step + 1;
        uint32_t flags = (h->nesterov ? FL_NESTEROV : 0) | (h->maximize ? FL_MAXIMIZE : 0) |
                         (h->amsgrad ? FL_AMSGRAD : 0) | (t == 1 ? FL_FIRST : 0) | (h->weight_decay != 0 ? FL_DECAY : 0) |
                         (fi ? FL_FOUND_INF : 0);
        wt_params p;
        memset(&p, 0, sizeof p);
        p.n = (uint32_t)q->p->numel;
        if (!p.n) {
            q->step = t;
            continue;
        }
        p.off[0] = (uint32_t)q->p->offset;
        p.aux[0] = flags;
        if (!q->state) {   /* plain SGD: optim1.wgsl */
            p.off[1] = (uint32_t)gc[i]->offset;
            p.sv[0] = f32_bits(h->lr);
            p.sv[1] = f32_bits(h->weight_decay);
            p.off[2] = fi ? (uint32_t)fi->offset : 0;
            wt_storage *in[2] = { gc[i]->st, fi ? fi->st : NULL };
            st = wt_record(ctx, op, kplain, &p, q->p->st, 2, in);
        } else {
            p.off[2] = (uint32_t)gc[i]->offset;
            if (opt->kind == WT_OPTIM_SGD) {
                p.sv[0] = f32_bits(h->lr);
                p.sv[1] = f32_bits(h->momentum);
                p.sv[2] = f32_bits(1 - h->dampening);
                p.sv[3] = f32_bits(h->weight_decay);
            } else {
                double bc1 = 1 - pow(h->beta1, (double)t), bc2 = 1 - pow(h->beta2, (double)t);
                p.sv[0] = f32_bits(1 - h->beta1);
                p.sv[1] = f32_bits(h->beta2);
                p.sv[2] = f32_bits(1 - h->beta2);
                p.sv[3] = f32_bits(h->eps);
                p.aux[1] = f32_bits(sqrt(bc2));
                p.aux[2] = f32_bits(-(h->lr / bc1));
                p.aux[3] = f32_bits(opt->kind == WT_OPTIM_ADAMW ? 1 - h->lr * h->weight_decay : h->weight_decay);
            }
            p.off[3] = fi ? (uint32_t)fi->offset : 0;
            p.shape[0] = (uint32_t)t;   /* with fi: the kernel takes the scaler's skipped steps off */
            p.shape[1] = f32_bits(h->lr);
            wt_storage *in[3] = { q->state->st, gc[i]->st, fi ? fi->st : NULL };
            st = wt_record(ctx, op, kstate, &p, q->p->st, 3, in);
        }
        if (st == WT_OK)
            q->step = t;
    }
    for (int i = 0; i < n; i++) {
        wt_release(gc[i]);
        wt_release(made[i]);
    }
    if (gc != gc_small)
        wt_free(ctx, gc);
    if (made != made_small)
        wt_free(ctx, made);
    if (st == WT_OK)
        opt->steps++;
    return st;
}

wt_status wt_optimizer_step(wt_optimizer *opt, wt_tensor *const *grads, int n) {
    if (!opt)
        return WT_STATUS_INVALID_ARGUMENT;
    bool was = wt_set_grad_enabled(opt->ctx, false);   /* the updates are not part of any graph */
    wt_status st = step(opt, "wt_optimizer_step", grads, n, false, NULL);
    wt_set_grad_enabled(opt->ctx, was);
    return st;
}

/* Each parameter's .grad (new references; NULL where none) into g[0 .. nparams). */
static wt_tensor **grads_of(wt_optimizer *opt, const char *op) {
    int n = opt->nparams;
    wt_tensor **g = wt_alloc(opt->ctx, (size_t)(n ? n : 1) * sizeof *g);
    if (!g)
        return wt_fail(opt->ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    for (int i = 0; i < n; i++)
        g[i] = wt_grad(opt->ctx, opt->ps[i].p);
    return g;
}

static void grads_free(wt_optimizer *opt, wt_tensor **g) {
    for (int i = 0; i < opt->nparams; i++)
        wt_release(g[i]);
    wt_free(opt->ctx, g);
}

static wt_status step_grads(wt_optimizer *opt, const char *op, const wt_tensor *fi) {
    wt_tensor **g = grads_of(opt, op);
    if (!g)
        return opt->ctx->status;
    bool was = wt_set_grad_enabled(opt->ctx, false);
    wt_status st = step(opt, op, g, opt->nparams, true, fi);
    wt_set_grad_enabled(opt->ctx, was);
    grads_free(opt, g);
    return st;
}

wt_status wt_optimizer_step_grads(wt_optimizer *opt) {
    return opt ? step_grads(opt, "wt_optimizer_step_grads", NULL) : WT_STATUS_INVALID_ARGUMENT;
}

wt_status wt__optimizer_step_unless(wt_optimizer *opt, const char *op, const wt_tensor *fi) {
    return step_grads(opt, op, fi);
}

void wt_optimizer_zero_grad(wt_optimizer *opt) {
    for (int i = 0; opt && i < opt->nparams; i++)
        wt_zero_grad(opt->ctx, opt->ps[i].p);
}

wt_tensor *wt_optimizer_clip_grad_norm(wt_optimizer *opt, double max_norm, double norm_type) {
    const char *op = "wt_optimizer_clip_grad_norm";
    if (!opt)
        return NULL;
    wt_tensor **g = grads_of(opt, op);
    if (!g)
        return NULL;
    int k = 0;
    for (int i = 0; i < opt->nparams; i++)   /* the parameters that have a gradient, in order */
        if (g[i])
            g[k++] = g[i];
    for (int i = k; i < opt->nparams; i++)
        g[i] = NULL;
    wt_tensor *t = k ? wt_clip_grad_norm(opt->ctx, g, k, max_norm, norm_type)
                     : wt_fail(opt->ctx, WT_STATUS_INVALID_ARGUMENT, op, "no parameter has a gradient");
    grads_free(opt, g);
    return t;
}

/* ---- clip_grad_norm ---- */

/* The norm_type norm of t's elements as a 0-d f32 tensor. */
static wt_tensor *norm_of(wt_context *ctx, wt_tensor *t, double p) {
    wt_tensor *a = NULL, *s = NULL, *r = NULL;
    if (isinf(p)) {
        a = wt_abs(ctx, t);
        r = wt_max(ctx, a, 0, NULL, false);
    } else if (p == 2) {
        a = wt_mul(ctx, t, t);
        s = wt_sum(ctx, a, 0, NULL, false);
        r = wt_sqrt(ctx, s);
    } else if (p == 1) {
        a = wt_abs(ctx, t);
        r = wt_sum(ctx, a, 0, NULL, false);
    } else {
        wt_tensor *b = wt_abs(ctx, t);
        a = wt_pow_scalar(ctx, b, p);
        wt_release(b);
        s = wt_sum(ctx, a, 0, NULL, false);
        r = wt_pow_scalar(ctx, s, 1 / p);
    }
    wt_release(a);
    wt_release(s);
    return r;
}

wt_tensor *wt_clip_grad_norm(wt_context *ctx, wt_tensor *const *grads, int n, double max_norm, double norm_type) {
    const char *op = "wt_clip_grad_norm";
    if (!ctx)
        return NULL;
    if (n < 1 || !grads || !(norm_type > 0) || isnan(max_norm))
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%d gradients, norm_type %g (> 0 needed), max_norm %g", n,
                       norm_type, max_norm);
    for (int i = 0; i < n; i++) {
        char b[160];
        if (!grads[i])
            return ctx->status != WT_OK ? NULL : wt_fail(ctx, WT_STATUS_NULL_TENSOR, op, "gradient %d is NULL", i);
        if (!wt_check_tensor(ctx, op, grads[i]))
            return NULL;
        if (grads[i]->dtype != WT_F32 || !wt_is_contiguous(grads[i]) ||
            grads[i]->offset + grads[i]->numel > (int64_t)UINT32_MAX)
            return wt_fail(ctx, WT_STATUS_DTYPE, op, "gradient %d %s %s: contiguous f32 needed (scaled in place)", i,
                           SHAPE(b, grads[i]), wt_dtype_name(grads[i]->dtype));
    }
    wt_tensor *norms_small[16], **norms = n <= 16 ? norms_small : wt_alloc(ctx, (size_t)n * sizeof *norms);
    if (!norms)
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    bool was = wt_set_grad_enabled(ctx, false);   /* torch.no_grad, as clip_grad_norm_ */
    int made = 0;
    for (; made < n; made++)
        if (!(norms[made] = norm_of(ctx, grads[made], norm_type)))
            break;
    wt_tensor *stacked = made == n ? wt_stack(ctx, norms, n, 0) : NULL;
    for (int i = 0; i < made; i++)
        wt_release(norms[i]);
    if (norms != norms_small)
        wt_free(ctx, norms);
    wt_tensor *total = stacked ? norm_of(ctx, stacked, norm_type) : NULL;
    wt_release(stacked);
    /* coef = min(max_norm / (total + 1e-6), 1) */
    wt_tensor *den = total ? wt_add_scalar(ctx, total, 1e-6) : NULL;
    wt_tensor *num = den ? wt_scalar(ctx, WT_F32, max_norm) : NULL;
    wt_tensor *q = num ? wt_div(ctx, num, den) : NULL;
    wt_tensor *coef = q ? wt_minimum_scalar(ctx, q, 1.0) : NULL;
    wt_release(den);
    wt_release(num);
    wt_release(q);
    wt_status st = coef ? WT_OK : ctx->status;
    for (int i = 0; i < n && st == WT_OK; i++)
        if (grads[i]->numel)
            st = inplace(ctx, op, WT__INPLACE_SCALE, grads[i], coef, NULL, 0);
    wt_release(coef);
    wt_set_grad_enabled(ctx, was);
    if (st != WT_OK) {
        wt_release(total);
        return NULL;
    }
    return total;
}

/* ---- learning-rate schedules ---- */

double wt_lr_at(const wt_lr_schedule *s, int64_t step) {
    if (!s)
        return 0;
    if (step < 0)
        step = 0;
    if (s->warmup_steps > 0 && step < s->warmup_steps)
        return s->base_lr * (double)(step + 1) / (double)s->warmup_steps;
    switch (s->kind) {
    case WT_LR_STEP: {
        int64_t size = s->step_size > 0 ? s->step_size : 1;
        double gamma = s->gamma != 0 ? s->gamma : 0.1;
        return s->base_lr * pow(gamma, (double)(step / size));
    }
    case WT_LR_COSINE: {
        int64_t w = s->warmup_steps > 0 ? s->warmup_steps : 0, span = s->total_steps - w;
        if (span <= 0 || step >= s->total_steps)
            return s->min_lr;
        const double pi = 3.14159265358979323846;
        return s->min_lr + (s->base_lr - s->min_lr) * (1 + cos(pi * (double)(step - w) / (double)span)) / 2;
    }
    default:
        return s->base_lr;
    }
}
