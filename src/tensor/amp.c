/* amp.c - mixed precision: torch.autocast(float16) and torch.cuda.amp.GradScaler.
 *
 * Autocast is a context setting (wt_set_autocast, scoped like grad mode).  The ops of the f16
 * list (matmul.c, conv.c, attention.c) and of the f32 list (nn.c's softmax, log_softmax and
 * norms) call wt__autocast at their entry: when it is on and an input has the other float
 * dtype, the inputs are cast with wt_cast (an op like any other: recorded on the tape, so the
 * backward casts the gradient back and f32 parameters receive f32 gradients) and the op calls
 * itself again on the casts, which then need none.  While autocast is on or a GradScaler lives
 * (so in the backward of an autocast forward too), f16 products and f16 attention in the DEFAULT
 * precision take the tensor-core kernels where they can (matmul.c, attention.c: torch's f16
 * products are cuBLAS's tensor-core ones).  No weight cast cache: a weight used by two
 * ops in one forward is cast twice (torch caches leaf casts inside an autocast region).
 *
 * The GradScaler keeps its scale, its inf/NaN flag and its growth tracker in one f32 tensor [4]
 * on the GPU, so a training step reads nothing back: scale() is loss * state[0] (a view: the
 * backward reads the scale in force when it runs); unscale() runs kernels/amp.wgsl's OP 0 on
 * every gradient of the optimizer (multiply by 1 / scale in place, set state[1] on inf or NaN);
 * step() records the optimizer's step with state[1] bound (optim.c's FL_FOUND_INF: each update
 * kernel returns at once when it is set, and takes state[3], the skipped steps, off its step
 * count); update() runs OP 1, one invocation, which backs the scale off (counting a skipped
 * step) or grows it and clears the flag. */
#include <math.h>
#include <string.h>

#include "tensor/optim.h"

#define AMP_MAX_OPT 8   /* optimizers unscaled between two updates */

struct wt_grad_scaler {
    wt_context *ctx;
    wt_tensor *state;             /* f32 [4]: scale, found_inf, growth tracker, skipped steps */
    double growth, backoff;
    int64_t interval;
    wt_optimizer *unscaled[AMP_MAX_OPT];
    int nunscaled;
};

enum { AMP_UNSCALE = 0, AMP_UPDATE = 1 };

static uint32_t f32_bits(double v) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* ---- autocast ---- */

wt_dtype wt_set_autocast(wt_context *ctx, wt_dtype dt) {
    if (!ctx)
        return WT_DTYPE_DEFAULT;
    wt_dtype was = ctx->autocast;
    if (dt != WT_DTYPE_DEFAULT && dt != WT_F16)
        wt_fail(ctx, WT_STATUS_DTYPE, "wt_set_autocast", "autocast to %s: f16 (or 0, off) only", wt_dtype_name(dt));
    else if (dt == WT_F16 && !ctx->f16)
        wt_fail(ctx, WT_STATUS_DTYPE, "wt_set_autocast", "the device has no shader-f16");
    else
        ctx->autocast = dt;
    return was;
}

wt_dtype wt_autocast_dtype(const wt_context *ctx) {
    return ctx ? ctx->autocast : WT_DTYPE_DEFAULT;
}

static bool castable(const wt_tensor *t, wt_dtype to) {
    return t && t->refs && wt_is_float(t->dtype) && t->dtype != to;
}

bool wt__autocast(wt_context *ctx, wt__amp_list list, int n, wt_tensor *const *in, wt_tensor **out) {
    if (!ctx || ctx->autocast != WT_F16)
        return false;
    wt_dtype to = list == WT__AMP_F16 ? WT_F16 : WT_F32;
    bool any = false;
    for (int i = 0; i < n; i++)
        any = any || castable(in[i], to);
    if (!any)
        return false;
    for (int i = 0; i < n; i++) {
        out[i] = NULL;
        if (castable(in[i], to)) {
            out[i] = wt_cast(ctx, in[i], to);
        } else if (in[i]) {
            wt_retain(in[i]);
            out[i] = in[i];
        }
    }
    return true;
}

bool wt__amp_tensor_cores(const wt_context *ctx) {
    return ctx->autocast == WT_F16 || ctx->amp_scalers > 0;
}

wt_tensor *wt__autocast_done(int n, wt_tensor **held, wt_tensor *result) {
    for (int i = 0; i < n; i++)
        wt_release(held[i]);
    return result;
}

/* ---- GradScaler ---- */

wt_grad_scaler *wt_grad_scaler_create(wt_context *ctx, const wt_grad_scaler_desc *desc) {
    const char *op = "wt_grad_scaler_create";
    if (!ctx)
        return NULL;
    wt_grad_scaler_desc d = desc ? *desc : (wt_grad_scaler_desc){ 0 };
    if (d.init_scale == 0)
        d.init_scale = 65536.0;
    if (d.growth_factor == 0)
        d.growth_factor = 2.0;
    if (d.backoff_factor == 0)
        d.backoff_factor = 0.5;
    if (d.growth_interval == 0)
        d.growth_interval = 2000;
    const char *bad = NULL;
    if (!(d.init_scale > 0) || !isfinite((float)d.init_scale))
        bad = "init_scale must be > 0 and finite in f32";
    else if (!(d.growth_factor > 1) || !isfinite((float)d.growth_factor))
        bad = "growth_factor must be > 1";
    else if (!(d.backoff_factor > 0 && d.backoff_factor < 1))
        bad = "backoff_factor must be in (0, 1)";
    else if (d.growth_interval < 1 || d.growth_interval > (1 << 24))
        bad = "growth_interval must be in [1, 2^24]";
    if (bad)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%s", bad);
    wt_grad_scaler *s = wt_alloc(ctx, sizeof *s);
    if (!s)
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    memset(s, 0, sizeof *s);
    float init[4] = { (float)d.init_scale, 0, 0, 0 };
    s->state = wt_from_host(ctx, WT_F32, WT_SHAPE(4), init);
    if (!s->state) {
        wt_free(ctx, s);
        return NULL;
    }
    s->ctx = ctx;
    ctx->amp_scalers++;
    s->growth = d.growth_factor;
    s->backoff = d.backoff_factor;
    s->interval = d.growth_interval;
    return s;
}

void wt_grad_scaler_destroy(wt_grad_scaler *s) {
    if (!s)
        return;
    wt_context *ctx = s->ctx;
    wt_tensor *state = s->state;
    ctx->amp_scalers--;
    wt_free(ctx, s);
    wt_release(state);   /* last: it may hold a destroyed context's shell */
}

static wt_tensor *element(wt_grad_scaler *s, int64_t i) {
    bool was = wt_set_grad_enabled(s->ctx, false);
    wt_tensor *e = wt_select(s->ctx, s->state, 0, i);
    wt_set_grad_enabled(s->ctx, was);
    return e;
}

wt_tensor *wt_grad_scaler_get_scale(wt_grad_scaler *s) {
    return s ? element(s, 0) : NULL;
}

wt_tensor *wt_grad_scaler_found_inf(wt_grad_scaler *s) {
    return s ? element(s, 1) : NULL;
}

wt_tensor *wt_grad_scaler_scale(wt_grad_scaler *s, wt_tensor *loss) {
    const char *op = "wt_grad_scaler_scale";
    if (!s)
        return NULL;
    wt_context *ctx = s->ctx;
    if (!loss)
        return ctx->status != WT_OK ? NULL : wt_fail(ctx, WT_STATUS_NULL_TENSOR, op, "loss is NULL");
    if (!wt_check_tensor(ctx, op, loss))
        return NULL;
    if (!wt_is_float(loss->dtype))
        return wt_fail(ctx, WT_STATUS_DTYPE, op, "loss is %s (f32 or f16 needed)", wt_dtype_name(loss->dtype));
    wt_tensor *l = loss->dtype == WT_F32 ? (wt_retain(loss), loss) : wt_cast(ctx, loss, WT_F32);
    wt_tensor *sc = l ? element(s, 0) : NULL;
    wt_tensor *r = sc ? wt_mul(ctx, l, sc) : NULL;
    wt_release(l);
    wt_release(sc);
    return r;
}

static int unscaled_index(const wt_grad_scaler *s, const wt_optimizer *opt) {
    for (int i = 0; i < s->nunscaled; i++)
        if (s->unscaled[i] == opt)
            return i;
    return -1;
}

static wt_status unscale(wt_grad_scaler *s, wt_optimizer *opt, const char *op) {
    wt_context *ctx = s->ctx;
    if (!opt)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "optimizer is NULL");
    if (opt->ctx != ctx)
        return wt_failst(ctx, WT_STATUS_WRONG_CONTEXT, op, "the optimizer belongs to another context");
    if (unscaled_index(s, opt) >= 0)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op,
                         "unscale was already called on this optimizer since the last update");
    if (s->nunscaled == AMP_MAX_OPT)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "more than %d optimizers between two updates",
                         AMP_MAX_OPT);
    int n = opt->nparams;
    wt_tensor **g = wt_alloc(ctx, (size_t)(n ? n : 1) * sizeof *g);
    if (!g)
        return wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    for (int i = 0; i < n; i++)
        g[i] = wt_grad(ctx, opt->ps[i].p);
    wt_status st = WT_OK;
    for (int i = 0; i < n && st == WT_OK; i++) {   /* checked before anything is recorded */
        char b[160];
        if (g[i] && (g[i]->dtype != WT_F32 || !wt_is_contiguous(g[i]) || g[i]->offset + g[i]->numel > (int64_t)UINT32_MAX))
            st = wt_failst(ctx, WT_STATUS_DTYPE, op, "gradient of parameter %d %s is %s: contiguous f32 needed", i,
                           wt_shape_str(b, sizeof b, g[i]->ndim, g[i]->shape), wt_dtype_name(g[i]->dtype));
    }
    wt_kkey key = wt_key(WT_K_amp, AMP_UNSCALE, WT_F32, WT_F32, WT_DTYPE_DEFAULT, WT_F32);
    wt_kernel *k = st == WT_OK ? wt_kernel_get(ctx, op, &key) : NULL;
    if (st == WT_OK && !k)
        st = ctx->status;
    for (int i = 0; i < n && st == WT_OK; i++) {
        if (!g[i] || !g[i]->numel)
            continue;
        wt_params p;
        memset(&p, 0, sizeof p);
        p.n = (uint32_t)g[i]->numel;
        p.off[0] = (uint32_t)g[i]->offset;
        p.off[1] = (uint32_t)s->state->offset;
        wt_storage *in[1] = { s->state->st };
        st = wt_record(ctx, op, k, &p, g[i]->st, 1, in);
    }
    for (int i = 0; i < n; i++)
        wt_release(g[i]);
    wt_free(ctx, g);
    if (st == WT_OK)
        s->unscaled[s->nunscaled++] = opt;
    return st;
}

wt_status wt_grad_scaler_unscale(wt_grad_scaler *s, wt_optimizer *opt) {
    return s ? unscale(s, opt, "wt_grad_scaler_unscale") : WT_STATUS_INVALID_ARGUMENT;
}

wt_status wt_grad_scaler_step(wt_grad_scaler *s, wt_optimizer *opt) {
    const char *op = "wt_grad_scaler_step";
    if (!s)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!opt || unscaled_index(s, opt) < 0) {
        wt_status st = unscale(s, opt, op);
        if (st != WT_OK)
            return st;
    }
    wt_tensor *fi = element(s, 1);
    if (!fi)
        return s->ctx->status;
    wt_status st = wt__optimizer_step_unless(opt, op, fi);
    wt_release(fi);
    return st;
}

wt_status wt_grad_scaler_update(wt_grad_scaler *s) {
    const char *op = "wt_grad_scaler_update";
    if (!s)
        return WT_STATUS_INVALID_ARGUMENT;
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = 1;
    p.off[0] = (uint32_t)s->state->offset;
    p.sv[0] = f32_bits(s->growth);
    p.sv[1] = f32_bits(s->backoff);
    p.sv[2] = f32_bits((double)s->interval);
    wt_kkey key = wt_key(WT_K_amp, AMP_UPDATE, WT_F32, WT_F32, WT_DTYPE_DEFAULT, WT_F32);
    wt_storage *in[1] = { NULL };
    wt_status st = wt_record_key(s->ctx, op, &key, &p, s->state->st, 1, in);
    if (st == WT_OK)
        s->nunscaled = 0;
    return st;
}
