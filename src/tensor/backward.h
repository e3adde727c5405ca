/* backward.h - the GPU backward kernels of the neural-network ops, for the autograd tape: each
 * function takes what the forward took (its inputs and descriptor; saved outputs where the rule
 * needs them) plus the gradient of the forward's output, and returns the gradients of the inputs.
 * Like the forward ops they only record dispatches into the pending batch (nothing is read
 * back), accept any input layout unless said otherwise, and leave the arguments untouched
 * (never released, never written).  Every returned gradient is a new tensor (the caller
 * releases it) of its input's shape and dtype, contiguous unless said otherwise; a gradient
 * pointer passed as NULL is not computed.  On error the status is returned (or NULL), the
 * context's error names the op and the shapes, and every output pointer is NULL.
 * Arithmetic is f32 (f16 storage widened on load, rounded once on store).
 *
 *   conv_backward.c   conv2d (input, weight, bias), max_pool2d, avg_pool2d
 *   nn_backward.c     silu, gelu, softmax, log_softmax, layer_norm, rms_norm, rope
 *   attention_backward.c  scaled_dot_product_attention (flash backward, O(sequence) memory)
 *
 * The kernels and their choices: doc/nn.md, "Backward". */
#ifndef WT_BACKWARD_H
#define WT_BACKWARD_H

#include "wgc/tensor.h"

/* conv2d: dy [N, K, OH, OW] is the gradient of wt_conv2d(x, weight, bias, desc) (desc NULL:
 * stride 1, no padding; desc->impl is ignored).  dx [N, C, H, W], dw [K, C / groups, KH, KW],
 * db [K] (the bias itself is not needed: db is the sum of dy over N, OH, OW).  f32 or f16. */
wt_status wt__conv2d_backward(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *dy,
                              const wt_conv2d_desc *desc, wt_tensor **dx, wt_tensor **dw, wt_tensor **db);

/* max_pool2d: dx (x's shape) from dy (the pooled shape): each output's gradient goes to its
 * maximum, the element `indices` names (the i32 tensor wt_max_pool2d returned for x and desc;
 * NULL: recomputed from x); a maximum shared by overlapping windows sums their gradients. */
wt_tensor *wt__max_pool2d_backward(wt_context *ctx, wt_tensor *x, wt_tensor *indices, wt_tensor *dy,
                                   const wt_pool2d_desc *desc);
/* avg_pool2d: each output's gradient spread evenly over its window, divided by the forward's
 * divisor (desc->count_include_pad as in the forward).  x supplies the shape and dtype only. */
wt_tensor *wt__avg_pool2d_backward(wt_context *ctx, wt_tensor *x, wt_tensor *dy, const wt_pool2d_desc *desc);

/* silu and gelu (the exact erf form): dx = dy * f'(x), elementwise; x and dy of one shape and
 * one float dtype. */
wt_tensor *wt__silu_backward(wt_context *ctx, wt_tensor *x, wt_tensor *dy);
wt_tensor *wt__gelu_backward(wt_context *ctx, wt_tensor *x, wt_tensor *dy);

/* softmax / log_softmax along dim from the forward's output y (not its input):
 * softmax dx = y (dy - sum(dy y)), log_softmax dx = dy - exp(y) sum(dy), sums along dim.
 * y and dy of one shape and dtype. */
wt_tensor *wt__softmax_backward(wt_context *ctx, wt_tensor *y, wt_tensor *dy, int dim);
wt_tensor *wt__log_softmax_backward(wt_context *ctx, wt_tensor *y, wt_tensor *dy, int dim);

/* layer_norm / rms_norm over the last dim, given the forward's x, weight (NULL: none) and eps;
 * the row statistics (mean and 1 / std) are recomputed from x.  dx (x's shape), dw and db
 * ([K]; db only for layer_norm, whose bias does not enter the other gradients).  dw must be
 * NULL when weight is NULL. */
wt_status wt__layer_norm_backward(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *dy, double eps,
                                  wt_tensor **dx, wt_tensor **dw, wt_tensor **db);
wt_status wt__rms_norm_backward(wt_context *ctx, wt_tensor *x, wt_tensor *weight, wt_tensor *dy, double eps,
                                wt_tensor **dx, wt_tensor **dw);

/* rope: the rotation's inverse applied to dy (the same desc as the forward): dx. */
wt_tensor *wt__rope_backward(wt_context *ctx, wt_tensor *dy, const wt_rope_desc *desc);

/* scaled_dot_product_attention: q [.., H, Lq, D], k [.., Hkv, Lk, D], v [.., Hkv, Lk, D] as the
 * forward took them (Dv == D <= 256, no mask tensor; desc->causal, desc->scale as the forward;
 * impl and precision ignored), out = its output (NULL: recomputed) and dout its gradient.
 * dq, dk, dv get q's, k's and v's shapes (grouped-query heads: dk and dv summed over the query
 * heads that share a KV head).  f32 only.  Memory O(sequence): the probabilities are recomputed
 * tile by tile from q, k and each row's logsumexp, never stored.  dk and dv are views of one
 * buffer (both contiguous). */
wt_status wt__attention_backward(wt_context *ctx, wt_tensor *q, wt_tensor *k, wt_tensor *v, wt_tensor *out,
                                 wt_tensor *dout, const wt_attention_desc *desc, wt_tensor **dq, wt_tensor **dk,
                                 wt_tensor **dv);

/* conv.c: validates a pool desc for x and fills the pool kernels' Params (pool.wgsl's header)
 * and the output shape (shared with pool_bw.wgsl). */
struct wt_params;
bool wt__pool_plan(wt_context *ctx, const char *op, wt_tensor *x, const wt_pool2d_desc *desc, bool max,
                   struct wt_params *p, int64_t oshape[4]);

/* loss.c: cross_entropy's dlogits [N, C] (logits' dtype) in one pass, from the logits [N, C],
 * the safe targets [N, 1] (ignored rows 0), the forward's logsumexp [N, 1] and wg [N, 1] (the
 * row weight times the loss's gradient); e the label smoothing. */
wt_tensor *wt__cross_entropy_backward(wt_context *ctx, wt_tensor *logits, wt_tensor *t, wt_tensor *lse, wt_tensor *wg,
                                      double e);

/* nn.c: wt_rope with the op's name for errors; inverse: the inverse rotation (angles negated). */
wt_tensor *wt__rope_ex(wt_context *ctx, const char *op, wt_tensor *x, const wt_rope_desc *desc, bool inverse);

#endif
