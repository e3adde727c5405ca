/* nn_backward.c - the gradients of the activations (backward.h): silu and gelu, one elementwise
 * kernel each (act_bw.wgsl, through ops.c's wt_elementwise: broadcasting, vec4 loads). */
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

