/* grad.h - the autograd tape's private part: the table of differentiable ops, the graph node and
 * the one call each op's forward makes.
 *
 * Where things live, for an op NAME (e.g. mul):
 *   forward          wt_NAME in src/tensor/{ops,reduce,movement,tensor,nn,matmul,conv,attention}.c,
 *                    whose result goes through wt__grad(ctx, out, WT_G_NAME, ...) (grep WT_G_NAME)
 *   backward rule    d_NAME in src/tensor/derivatives.c (same order as the table below)
 *   kernels          those of the wt ops the rule is written with, or the op's backward kernel
 *                    (src/tensor/backward.h: conv2d, pools, silu, gelu, softmax, norms, rope);
 *                    either way backward is lazy and batched like forward
 *   gradient check   tests/tensor/test_grad.c, the case named "NAME" (grep '"NAME')
 *
 * WT_GRAD_OPS rows: X(NAME, saves) where saves says which tensors the node keeps for the rule:
 * G_I0, G_I1, G_I2 (inputs 0-2), G_OUT (the result), G_X0, G_X1 (the extra tensors of
 * wt_gargs.save).  A kept tensor is an alias of the original (same storage, no graph), so a node
 * never holds its own output's node: no reference cycles.  doc/tensor.md ("Autograd") has the
 * design. */
#ifndef WT_GRAD_H
#define WT_GRAD_H

enum { G_I0 = 1, G_I1 = 2, G_I2 = 4, G_OUT = 8, G_X0 = 16, G_X1 = 32 };
enum { WT_GSAVED = 6 };   /* saved slots: inputs 0-2, result, two extras (the bits above) */

#define WT_GRAD_OPS(X)                                                            \
    /* elementwise, tensor operands (ops.c) */                                    \
    X(add, 0) X(sub, 0) X(mul, G_I0 | G_I1) X(div, G_I0 | G_I1)                   \
    X(pow, G_I0 | G_I1 | G_OUT) X(minimum, G_I0 | G_I1) X(maximum, G_I0 | G_I1)   \
    X(remainder, G_I0 | G_I1)                                                     \
    /* elementwise, a scalar right operand (ops.c; the scalar is gargs.f[0]) */   \
    X(add_scalar, 0) X(sub_scalar, 0) X(mul_scalar, 0) X(div_scalar, 0)           \
    X(pow_scalar, G_I0) X(minimum_scalar, G_I0) X(maximum_scalar, G_I0)           \
    X(remainder_scalar, 0)                                                        \
    /* unary (ops.c) */                                                           \
    X(neg, 0) X(abs, G_I0) X(exp, G_OUT) X(log, G_I0) X(sqrt, G_OUT)              \
    X(rsqrt, G_OUT) X(sin, G_I0) X(cos, G_I0) X(tanh, G_OUT) X(sigmoid, G_OUT)    \
    X(relu, G_OUT) X(silu, G_I0) X(gelu, G_I0) X(floor, 0) X(ceil, 0)            \
    X(round, 0) X(sign, 0) X(reciprocal, G_OUT)                                   \
    X(clamp, G_I0) X(where, G_I0) X(cast, 0) X(clone, 0) X(contiguous, 0)         \
    /* reductions (reduce.c; dims in gargs.i, keepdim f[0], correction f[1]) */   \
    X(sum, 0) X(mean, 0) X(prod, G_I0 | G_OUT) X(max, G_I0 | G_OUT)               \
    X(min, G_I0 | G_OUT) X(var, G_I0) X(std, G_I0 | G_OUT) X(cumsum, 0)           \
    X(topk, G_X0)                                                                 \
    /* views (tensor.c) */                                                        \
    X(reshape, 0) X(permute, 0) X(transpose, 0) X(expand, 0) X(slice, 0)          \
    X(select, 0)                                                                  \
    /* data movement (movement.c) */                                              \
    X(cat, 0) X(stack, 0) X(gather, G_I1) X(index_select, G_I1)                   \
    X(embedding, G_I1) X(scatter_add, G_I1) X(pad, 0) X(flip, 0)                  \
    X(masked_fill, G_I1)                                                          \
    /* matmul (matmul.c) */                                                       \
    X(matmul, G_I0 | G_I1) X(linear, G_I0 | G_I1)                                 \
    /* neural-network ops (nn.c, conv.c, attention.c) */                          \
    X(softmax, G_OUT) X(log_softmax, G_OUT) X(layer_norm, G_I0 | G_I1)            \
    X(rms_norm, G_I0 | G_I1) X(rope, 0)                                           \
    X(scaled_dot_product_attention, G_I0 | G_I1 | G_I2 | G_OUT | G_X0)                    \
    X(conv2d, G_I0 | G_I1) X(max_pool2d, G_I0) X(avg_pool2d, G_I0)                \
    /* losses (grad.c's loss section) */                                          \
    X(cross_entropy, G_I0 | G_I1 | G_X0 | G_X1) X(nll_loss, G_I1 | G_X0)         \
    X(bce_with_logits, G_I0 | G_I1)

typedef enum wt_gop {
    WT_G_NONE = 0,
#define X(name, saves) WT_G_##name,
    WT_GRAD_OPS(X)
#undef X
    WT_G_COUNT
} wt_gop;

/* An op's non-tensor arguments, kept on its node: scalars, dims, and up to two extra tensors to
 * keep for backward (aliased). */
typedef struct wt_gargs {
    double f[4];
    int64_t i[2 * WT_MAX_DIMS];
    int ni;
    wt_tensor *save[2];
} wt_gargs;

/* One input of a node: where its gradient goes, and its shape and dtype. */
typedef struct wt_gedge {
    struct wt_node *fn;           /* the input's node (one reference), or NULL */
    wt_tensor *leaf;              /* the input itself when a leaf that requires grad (one reference) */
    wt_dtype dtype;
    int ndim;
    int64_t shape[WT_MAX_DIMS];
} wt_gedge;

typedef struct wt_node {
    uint32_t refs;                /* the result tensor(s) and the nodes of later ops */
    wt_gop op;
    bool freed;                   /* a backward without retain_graph dropped the saved tensors */
    uint32_t nin;
    wt_gedge *in;                 /* nin edges: inl, or an allocation for more than 3 (cat, stack) */
    wt_gedge inl[3];
    wt_tensor *saved[WT_GSAVED];  /* aliases, by the G_* bit order */
    wt_dtype out_dtype;
    int out_ndim;
    int64_t out_shape[WT_MAX_DIMS];
    wt_gargs a;                   /* save[] is not used here (it went to saved[4..5]) */
    /* one backward pass */
    uint64_t epoch;               /* the pass that last visited it */
    uint32_t deps;                /* edges from nodes of this pass not processed yet */
    wt_tensor *g;                 /* gradient of the result accumulated so far */
    struct wt_node *next_free;
} wt_node;

/* The record call of every differentiable op: out is the op's result (NULL when it failed: then
 * nothing happens).  When grad mode is on, out is a float tensor and some input requires grad, a
 * node (op, inputs, args and the tensors its row saves) becomes out's grad_fn.  Returns out, or
 * NULL (out released, the error set) when the node cannot be made.  Cheap when no input requires
 * grad: one flag and nin pointers are read. */
wt_tensor *wt__grad(wt_context *ctx, wt_tensor *out, wt_gop op, int nin, wt_tensor *const *in, const wt_gargs *a);
/* The backward rules (derivatives.c): fill gin[i] (a new reference) for each input i the pass
 * needs (wt__gneed), from g, the gradient of the node's result; the tape reduces a broadcast
 * gradient to the input's shape and casts it to the input's dtype.  Temporaries go through
 * wt__gtmp (released after the rule).  A rule reports failure by leaving the context's error set. */
typedef void (*wt_grule)(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin);
extern const wt_grule wt__grad_rules[WT_G_COUNT];
extern const char *const wt__grad_names[WT_G_COUNT];
bool wt__gneed(const wt_node *n, uint32_t i);
wt_tensor *wt__gtmp(wt_context *ctx, wt_tensor *t);
wt_tensor *wt__gzero(wt_context *ctx, wt_dtype dt);   /* a 0-d zero of dt, borrowed, made once per pass */
/* a pool desc as a node's arguments: i[] kernel, stride, padding, dilation (h, w each); f[0]
 * count_include_pad (derivatives.c) */
wt_gargs wt__pool_args(const wt_pool2d_desc *d);
/* grad.c: a tensor's node goes with its last reference */
void wt__grad_release(wt_tensor *t);
void wt__grad_destroy(wt_context *ctx);

#endif
