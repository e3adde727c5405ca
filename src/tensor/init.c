/* init.c - weight initialisation as torch.nn.init: kaiming and xavier, uniform and normal, and
 * the default of nn.Linear and nn.Conv2d.  Each is a bound or a standard deviation computed on
 * the host in double from the fans and the gain (torch's formulas, _calculate_fan_in_and_fan_out
 * and calculate_gain), then one draw from the context's generator (wt_uniform / wt_normal): the
 * same seed and calls give the same numbers on every adapter. */
#include <math.h>
#include <stdio.h>

#include "tensor/optim.h"

double wt_init_gain(wt_nonlinearity nl, double a) {
    switch (nl) {
    case WT_NL_LEAKY_RELU: return sqrt(2.0 / (1 + a * a));
    case WT_NL_RELU: return sqrt(2.0);
    case WT_NL_TANH: return 5.0 / 3;
    case WT_NL_SELU: return 3.0 / 4;
    default: return 1;   /* linear, conv, sigmoid */
    }
}

wt_status wt_init_fans(wt_context *ctx, int ndim, const int64_t *shape, int64_t *fan_in, int64_t *fan_out) {
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    int64_t numel;
    if (!wt_check_shape(ctx, "wt_init_fans", ndim, shape, &numel))
        return ctx->status;
    if (ndim < 2) {
        char b[160];
        return wt_failst(ctx, WT_STATUS_SHAPE, "wt_init_fans", "fans of a tensor %s: at least 2 dims needed",
                         wt_shape_str(b, sizeof b, ndim, shape));
    }
    int64_t field = 1;
    for (int d = 2; d < ndim; d++)
        field *= shape[d];
    if (fan_in)
        *fan_in = shape[1] * field;
    if (fan_out)
        *fan_out = shape[0] * field;
    return WT_OK;
}

/* U(-bound, bound) or N(0, std) of the shape; zero elements: an empty tensor. */
static wt_tensor *draw(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, bool uniform, double sd) {
    if (uniform) {
        double bound = sqrt(3.0) * sd;
        return wt_uniform(ctx, dt, ndim, shape, -bound, bound);
    }
    return wt_normal(ctx, dt, ndim, shape, 0, sd);
}

static wt_tensor *kaiming(wt_context *ctx, const char *op, wt_dtype dt, int ndim, const int64_t *shape, double a,
                          wt_fan_mode mode, wt_nonlinearity nl, bool uniform) {
    if (!ctx)
        return NULL;
    if ((unsigned)mode >= WT_FAN_MODE_COUNT || (unsigned)nl >= WT_NONLINEARITY_COUNT)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "fan mode %d or nonlinearity %d out of range", (int)mode,
                       (int)nl);
    int64_t fi, fo;
    if (wt_init_fans(ctx, ndim, shape, &fi, &fo) != WT_OK)
        return NULL;
    int64_t fan = mode == WT_FAN_IN ? fi : fo;
    if (!fan)
        return wt_empty(ctx, dt, ndim, shape);   /* torch: a no-op on zero elements */
    return draw(ctx, dt, ndim, shape, uniform, wt_init_gain(nl, a) / sqrt((double)fan));
}

wt_tensor *wt_kaiming_uniform(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double a,
                              wt_fan_mode mode, wt_nonlinearity nl) {
    return kaiming(ctx, "wt_kaiming_uniform", dt, ndim, shape, a, mode, nl, true);
}

wt_tensor *wt_kaiming_normal(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double a,
                             wt_fan_mode mode, wt_nonlinearity nl) {
    return kaiming(ctx, "wt_kaiming_normal", dt, ndim, shape, a, mode, nl, false);
}

static wt_tensor *xavier(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double gain, bool uniform) {
    if (!ctx)
        return NULL;
    int64_t fi, fo;
    if (wt_init_fans(ctx, ndim, shape, &fi, &fo) != WT_OK)
        return NULL;
    if (!fi || !fo)
        return wt_empty(ctx, dt, ndim, shape);
    return draw(ctx, dt, ndim, shape, uniform, (gain != 0 ? gain : 1) * sqrt(2.0 / (double)(fi + fo)));
}

wt_tensor *wt_xavier_uniform(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double gain) {
    return xavier(ctx, dt, ndim, shape, gain, true);
}

wt_tensor *wt_xavier_normal(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double gain) {
    return xavier(ctx, dt, ndim, shape, gain, false);
}

wt_status wt_init_default(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, wt_tensor **weight,
                          wt_tensor **bias) {
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!weight)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, "wt_init_default", "weight must not be NULL");
    *weight = NULL;
    if (bias)
        *bias = NULL;
    int64_t fi;
    if (wt_init_fans(ctx, ndim, shape, &fi, NULL) != WT_OK)
        return ctx->status;
    wt_tensor *w = wt_kaiming_uniform(ctx, dt, ndim, shape, sqrt(5.0), WT_FAN_IN, WT_NL_LEAKY_RELU);
    if (!w)
        return ctx->status;
    if (bias) {
        double bound = fi > 0 ? 1 / sqrt((double)fi) : 0;
        wt_tensor *b = bound > 0 ? wt_uniform(ctx, dt, WT_SHAPE(shape[0]), -bound, bound)
                                 : wt_zeros(ctx, dt, WT_SHAPE(shape[0]));
        if (!b) {
            wt_release(w);
            return ctx->status;
        }
        *bias = b;
    }
    *weight = w;
    return WT_OK;
}
