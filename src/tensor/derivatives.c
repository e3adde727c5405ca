/* derivatives.c - the backward rules: one function d_NAME per row of WT_GRAD_OPS (grad.h), in the
 * table's order, and the table wt__grad_rules built from the rows.
 *
 * Finding an op NAME: its forward is wt_NAME (the file named in grad.h's table comment), which
 * ends in wt__grad(..., WT_G_NAME, ...); its rule is d_NAME below; its kernels are those of the
 * wt ops the rule calls, or the backward.h function it calls; its gradient check is the case
 * "NAME" in tests/tensor/test_grad.c.
 *
 * A rule gets the node n (inputs' shapes and dtypes in n->in[i], the op's arguments in n->a, the
 * saved tensors S(SI0) ... S(SX1) as the row asked) and g, the gradient of the result, and sets
 * gin[i] (a new reference) for the inputs that need one (NEED(i)).  Rules are written with wt ops
 * or call the op's backward kernel (backward.h), so backward runs on the GPU, lazily, in the same
 * batches as forward.  The tape then sums a broadcast gradient down to the input's shape and
 * casts it to the input's dtype, so the elementwise rules return gradients of the result's shape.  Temporaries go through T() and are
 * released after the rule; a failing op leaves the context's error set, and NULLs propagate
 * through the wt ops (which keep the first error).
 *
 * Conventions follow PyTorch: max/min (and maximum/minimum) split the gradient evenly among ties,
 * except max/min over one dim, whose gradient goes to the index chosen (the first); abs, sign,
 * relu at 0 give 0; clamp passes the gradient where lo <= x <= hi; floor, ceil, round and sign
 * give zeros. */
#include <math.h>
#include <string.h>

#include "tensor/backward.h"
#include "tensor/internal.h"

#define NEED(i) wt__gneed(n, (i))
#define T(e) wt__gtmp(ctx, (e))
#define S(k) (n->saved[k])
enum { SI0, SI1, SI2, SOUT, SX0, SX1 };

static wt_tensor *keep(wt_tensor *t) {
    wt_retain(t);
    return t;
}

static wt_tensor *zero0(wt_context *ctx, wt_dtype dt) {   /* one per dtype and pass (grad.c) */
    return wt__gzero(ctx, wt_is_float(dt) ? dt : WT_F32);
}

/* cond ? g : 0, a new reference */
static wt_tensor *masked(wt_context *ctx, wt_tensor *g, wt_tensor *cond) {
    return g ? wt_where(ctx, cond, g, zero0(ctx, g->dtype)) : NULL;
}

static wt_tensor *fmask(wt_context *ctx, wt_tensor *cond) {
    return T(wt_cast(ctx, cond, WT_F32));
}

static wt_tensor *zeros_in(wt_context *ctx, const wt_node *n, uint32_t i) {
    return wt_zeros(ctx, n->out_dtype, n->in[i].ndim, n->in[i].shape);
}

static int ndim_in(const wt_node *n) {
    return n->in[0].ndim;
}

static int norm(int d, int nd) {
    return d < 0 ? d + nd : d;
}

/* ---- elementwise ---- */

static void d_add(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    if (NEED(0))
        gin[0] = keep(g);
    if (NEED(1))
        gin[1] = keep(g);
}

static void d_sub(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    if (NEED(0))
        gin[0] = keep(g);
    if (NEED(1))
        gin[1] = wt_neg(ctx, g);
}

static void d_mul(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    if (NEED(0))
        gin[0] = wt_mul(ctx, g, S(SI1));
    if (NEED(1))
        gin[1] = wt_mul(ctx, g, S(SI0));
}

static void d_div(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    wt_tensor *a = S(SI0), *b = S(SI1);
    wt_tensor *gb = T(wt_div(ctx, g, b));
    if (NEED(0))
        gin[0] = keep(gb);
    if (NEED(1))   /* -g a / b^2 */
        gin[1] = wt_neg(ctx, T(wt_mul(ctx, gb, T(wt_div(ctx, a, b)))));
}

static void d_pow(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    wt_tensor *a = S(SI0), *b = S(SI1), *out = S(SOUT);
    if (NEED(0)) {   /* g b a^(b-1), 0 where b == 0 */
        wt_tensor *d = T(wt_mul(ctx, b, T(wt_pow(ctx, a, T(wt_sub_scalar(ctx, b, 1))))));
        gin[0] = wt_where(ctx, T(wt_eq_scalar(ctx, b, 0)), zero0(ctx, g->dtype), T(wt_mul(ctx, g, d)));
    }
    if (NEED(1)) {   /* g out log(a), 0 where a == 0 and b >= 0 */
        wt_tensor *d = T(wt_mul(ctx, g, T(wt_mul(ctx, out, T(wt_log(ctx, a))))));
        wt_tensor *z = T(wt_logical_and(ctx, T(wt_eq_scalar(ctx, a, 0)), T(wt_ge_scalar(ctx, b, 0))));
        gin[1] = wt_where(ctx, z, zero0(ctx, g->dtype), d);
    }
}

/* the weight of the first operand of maximum (more = gt) or minimum (more = lt): 1 where it wins,
 * 1/2 on ties */
static wt_tensor *win(wt_context *ctx, wt_tensor *more, wt_tensor *tie) {
    return T(wt_add(ctx, fmask(ctx, more), T(wt_mul_scalar(ctx, fmask(ctx, tie), 0.5))));
}

static void minmax2(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin, bool is_max) {
    wt_tensor *a = S(SI0), *b = S(SI1), *tie = T(wt_eq(ctx, a, b));
    if (NEED(0))
        gin[0] = wt_mul(ctx, g, win(ctx, T(is_max ? wt_gt(ctx, a, b) : wt_lt(ctx, a, b)), tie));
    if (NEED(1))
        gin[1] = wt_mul(ctx, g, win(ctx, T(is_max ? wt_gt(ctx, b, a) : wt_lt(ctx, b, a)), tie));
}

static void d_minimum(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    minmax2(ctx, n, g, gin, false);
}

static void d_maximum(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    minmax2(ctx, n, g, gin, true);
}

static void d_remainder(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    if (NEED(0))
        gin[0] = keep(g);
    if (NEED(1))   /* a - b floor(a / b) */
        gin[1] = wt_neg(ctx, T(wt_mul(ctx, g, T(wt_floor(ctx, T(wt_div(ctx, S(SI0), S(SI1))))))));
}

static void d_add_scalar(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = keep(g);
}

static void d_sub_scalar(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = keep(g);
}

static void d_mul_scalar(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_mul_scalar(ctx, g, n->a.f[0]);
}

static void d_div_scalar(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_div_scalar(ctx, g, n->a.f[0]);
}

static void d_pow_scalar(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    double s = n->a.f[0];
    if (s == 0)
        gin[0] = wt_mul_scalar(ctx, g, 0);
    else
        gin[0] = wt_mul(ctx, g, T(wt_mul_scalar(ctx, T(wt_pow_scalar(ctx, S(SI0), s - 1)), s)));
}

static void minmax1(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin, bool is_max) {
    wt_tensor *a = S(SI0);
    double s = n->a.f[0];
    wt_tensor *more = T(is_max ? wt_gt_scalar(ctx, a, s) : wt_lt_scalar(ctx, a, s));
    gin[0] = wt_mul(ctx, g, win(ctx, more, T(wt_eq_scalar(ctx, a, s))));
}

static void d_minimum_scalar(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    minmax1(ctx, n, g, gin, false);
}

static void d_maximum_scalar(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    minmax1(ctx, n, g, gin, true);
}

static void d_remainder_scalar(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = keep(g);
}

static void d_neg(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_neg(ctx, g);
}

static void d_abs(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_mul(ctx, g, T(wt_sign(ctx, S(SI0))));
}

static void d_exp(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_mul(ctx, g, S(SOUT));
}

static void d_log(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_div(ctx, g, S(SI0));
}

static void d_sqrt(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_div(ctx, g, T(wt_mul_scalar(ctx, S(SOUT), 2)));
}

static void d_rsqrt(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* -y^3 / 2 */
    gin[0] = wt_mul(ctx, g, T(wt_mul_scalar(ctx, T(wt_pow_scalar(ctx, S(SOUT), 3)), -0.5)));
}

static void d_sin(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_mul(ctx, g, T(wt_cos(ctx, S(SI0))));
}

static void d_cos(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_neg(ctx, T(wt_mul(ctx, g, T(wt_sin(ctx, S(SI0))))));
}

static void d_tanh(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* 1 - y^2 */
    wt_tensor *y = S(SOUT);
    gin[0] = wt_mul(ctx, g, T(wt_add_scalar(ctx, T(wt_neg(ctx, T(wt_mul(ctx, y, y)))), 1)));
}

static void d_sigmoid(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* y (1 - y) */
    wt_tensor *y = S(SOUT);
    gin[0] = wt_mul(ctx, T(wt_mul(ctx, g, y)), T(wt_add_scalar(ctx, T(wt_neg(ctx, y)), 1)));
}

static void d_relu(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = masked(ctx, g, T(wt_gt_scalar(ctx, S(SOUT), 0)));
}

static void d_silu(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* backward.h's kernel */
    gin[0] = wt__silu_backward(ctx, S(SI0), g);
}

static void d_gelu(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* backward.h's kernel */
    gin[0] = wt__gelu_backward(ctx, S(SI0), g);
}

static void d_zero(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = zeros_in(ctx, n, 0);
}
#define d_floor d_zero
#define d_ceil d_zero
#define d_round d_zero
#define d_sign d_zero

static void d_reciprocal(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* -y^2 */
    wt_tensor *y = S(SOUT);
    gin[0] = wt_neg(ctx, T(wt_mul(ctx, g, T(wt_mul(ctx, y, y)))));
}

static void d_clamp(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    wt_tensor *x = S(SI0);
    wt_tensor *in = T(wt_logical_and(ctx, T(wt_ge_scalar(ctx, x, n->a.f[0])), T(wt_le_scalar(ctx, x, n->a.f[1]))));
    gin[0] = masked(ctx, g, in);
}

static void d_where(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* inputs cond, a, b */
    if (NEED(1))
        gin[1] = masked(ctx, g, S(SI0));
    if (NEED(2))
        gin[2] = wt_where(ctx, S(SI0), zero0(ctx, g->dtype), g);
}

static void d_cast(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = keep(g);   /* the tape casts it back to the input's dtype */
}
#define d_clone d_cast
#define d_contiguous d_cast

/* ---- reductions: gargs i[0 .. ni) the dims (ni 0: all), f[0] keepdim, f[1] correction ---- */

static void reduced(const wt_node *n, bool *red, int64_t *count) {
    int nd = ndim_in(n);
    memset(red, 0, WT_MAX_DIMS * sizeof *red);
    for (int k = 0; k < n->a.ni; k++)
        red[norm((int)n->a.i[k], nd)] = true;
    int64_t c = 1;
    for (int d = 0; d < nd; d++) {
        if (!n->a.ni)
            red[d] = true;
        if (red[d])
            c *= n->in[0].shape[d];
    }
    if (count)
        *count = c;
}

/* t (of the result's shape) with the reduced dims back as size 1: broadcastable to the input */
static wt_tensor *kept(wt_context *ctx, const wt_node *n, wt_tensor *t) {
    bool red[WT_MAX_DIMS];
    reduced(n, red, NULL);
    int64_t shape[WT_MAX_DIMS];
    int nd = ndim_in(n);
    for (int d = 0; d < nd; d++)
        shape[d] = red[d] ? 1 : n->in[0].shape[d];
    return T(wt_reshape(ctx, t, nd, shape));
}

static int dims_of(const wt_node *n, int *dims) {
    bool red[WT_MAX_DIMS];
    reduced(n, red, NULL);
    int k = 0;
    for (int d = 0; d < ndim_in(n); d++)
        if (red[d])
            dims[k++] = d;
    return k;
}

static void d_sum(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_expand(ctx, kept(ctx, n, g), n->in[0].ndim, n->in[0].shape);
}

static void d_mean(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    bool red[WT_MAX_DIMS];
    int64_t c;
    reduced(n, red, &c);
    wt_tensor *e = T(wt_expand(ctx, kept(ctx, n, g), n->in[0].ndim, n->in[0].shape));
    gin[0] = wt_div_scalar(ctx, e, (double)c);
}

static void d_prod(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    /* the product of the others: out / x where x != 0; where x == 0, the product of the nonzero
     * others if x is the only zero, else 0 */
    wt_tensor *x = S(SI0), *out = kept(ctx, n, S(SOUT)), *gk = kept(ctx, n, g);
    int dims[WT_MAX_DIMS], k = dims_of(n, dims);
    wt_tensor *z = T(wt_eq_scalar(ctx, x, 0));
    wt_tensor *nz = T(wt_sum(ctx, fmask(ctx, z), k, dims, true));
    wt_tensor *pnz = T(wt_prod(ctx, T(wt_where(ctx, z, T(wt_ones(ctx, x->dtype, 0, NULL)), x)), k, dims, true));
    wt_tensor *at0 = T(wt_mul(ctx, pnz, fmask(ctx, T(wt_eq_scalar(ctx, nz, 1)))));
    gin[0] = wt_mul(ctx, gk, T(wt_where(ctx, z, at0, T(wt_div(ctx, out, x)))));
}

static void minmax_red(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin, bool is_max) {
    wt_tensor *x = S(SI0), *gk = kept(ctx, n, g);
    int nd = ndim_in(n);
    if (n->a.ni == 1 && nd > 0) {   /* one dim: to the index chosen */
        int d = norm((int)n->a.i[0], nd);
        int dl[1] = { d };
        wt_tensor *idx = T(is_max ? wt_argmax(ctx, x, 1, dl, true) : wt_argmin(ctx, x, 1, dl, true));
        int64_t shape[WT_MAX_DIMS];
        for (int k = 0; k < nd; k++)
            shape[k] = k == d ? n->in[0].shape[d] : 1;
        wt_tensor *ar = T(wt_reshape(ctx, T(wt_arange(ctx, WT_I32, 0, (double)n->in[0].shape[d], 1)), nd, shape));
        gin[0] = wt_where(ctx, T(wt_eq(ctx, ar, idx)), gk, zero0(ctx, g->dtype));
        return;
    }
    /* all dims or several: shared evenly among the elements equal to the result */
    int dims[WT_MAX_DIMS], k = dims_of(n, dims);
    wt_tensor *hit = T(wt_eq(ctx, x, kept(ctx, n, S(SOUT))));
    wt_tensor *cnt = T(wt_sum(ctx, fmask(ctx, hit), k, dims, true));
    gin[0] = masked(ctx, T(wt_div(ctx, gk, cnt)), hit);
}

static void d_max(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    minmax_red(ctx, n, g, gin, true);
}

static void d_min(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    minmax_red(ctx, n, g, gin, false);
}

/* g' 2 (x - mean) / (N - correction), g' of the variance kept-shaped */
static wt_tensor *var_grad(wt_context *ctx, const wt_node *n, wt_tensor *gk) {
    bool red[WT_MAX_DIMS];
    int64_t c;
    reduced(n, red, &c);
    int dims[WT_MAX_DIMS], k = dims_of(n, dims);
    wt_tensor *x = S(SI0);
    wt_tensor *dev = T(wt_sub(ctx, x, T(wt_mean(ctx, x, k, dims, true))));
    double den = (double)c - n->a.f[1];
    return wt_mul(ctx, gk, T(wt_mul_scalar(ctx, dev, den > 0 ? 2.0 / den : INFINITY)));
}

static void d_var(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = var_grad(ctx, n, kept(ctx, n, g));
}

static void d_std(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* g / (2 std), 0 where std == 0 */
    wt_tensor *sd = kept(ctx, n, S(SOUT));
    wt_tensor *gv = T(wt_where(ctx, T(wt_eq_scalar(ctx, sd, 0)), zero0(ctx, g->dtype),
                               T(wt_div(ctx, kept(ctx, n, g), T(wt_mul_scalar(ctx, sd, 2))))));
    gin[0] = var_grad(ctx, n, gv);
}

static void d_topk(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* values back where they were */
    gin[0] = wt_scatter_add(ctx, T(zeros_in(ctx, n, 0)), (int)n->a.i[0], S(SX0), g);
}

static void d_cumsum(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* reversed cumsum */
    if (!ndim_in(n)) {
        gin[0] = keep(g);
        return;
    }
    int d[1] = { norm((int)n->a.i[0], ndim_in(n)) };
    gin[0] = wt_flip(ctx, T(wt_cumsum(ctx, T(wt_flip(ctx, g, 1, d)), d[0])), 1, d);
}

/* ---- views ---- */

static void d_reshape(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_reshape(ctx, g, n->in[0].ndim, n->in[0].shape);
}

static void d_permute(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* the inverse */
    int inv[WT_MAX_DIMS], nd = ndim_in(n);
    for (int k = 0; k < nd; k++)
        inv[norm((int)n->a.i[k], nd)] = k;
    gin[0] = wt_permute(ctx, g, inv);
}

static void d_transpose(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = wt_transpose(ctx, g, (int)n->a.i[0], (int)n->a.i[1]);
}

static void d_expand(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    gin[0] = keep(g);   /* the tape sums the expanded dims */
}

/* g with zeros around it along dim: lo before, hi after */
static wt_tensor *pad1(wt_context *ctx, wt_tensor *g, int dim, int64_t lo, int64_t hi) {
    if (!g || (!lo && !hi))
        return g ? keep(g) : NULL;
    int64_t pads[2 * WT_MAX_DIMS] = { 0 };
    pads[2 * dim] = lo;
    pads[2 * dim + 1] = hi;
    return wt_pad(ctx, g, pads, WT_PAD_CONSTANT, 0);
}

static void d_slice(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    /* gargs: dim, start, end, step as given to wt_slice (python clamping redone here) */
    int nd = ndim_in(n), dim = norm((int)n->a.i[0], nd);
    int64_t len = n->in[0].shape[dim], start = n->a.i[1], step = n->a.i[3];
    int64_t k = n->out_shape[dim];
    if (start < 0)
        start += len;
    start = start < 0 ? 0 : start > len ? len : start;
    if (!k) {
        gin[0] = zeros_in(ctx, n, 0);
        return;
    }
    wt_tensor *s = g;
    if (step > 1) {   /* interleave step - 1 zeros after each element: [.., k, step, ..] -> [.., k step, ..] */
        int64_t shape[WT_MAX_DIMS];
        memcpy(shape, g->shape, sizeof shape);
        shape[dim] = k * step;
        wt_tensor *u = T(pad1(ctx, T(wt_unsqueeze(ctx, g, dim + 1)), dim + 1, 0, step - 1));
        s = T(wt_reshape(ctx, u, nd, shape));
        if (k * step > len - start)
            s = T(wt_narrow(ctx, s, dim, 0, len - start));
    }
    int64_t have = s ? s->shape[dim] : 0;
    gin[0] = pad1(ctx, s, dim, start, len - start - have);
}

static void d_select(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* gargs: dim, index */
    int nd = ndim_in(n), dim = norm((int)n->a.i[0], nd);
    int64_t len = n->in[0].shape[dim], idx = n->a.i[1] < 0 ? n->a.i[1] + len : n->a.i[1];
    gin[0] = pad1(ctx, T(wt_unsqueeze(ctx, g, dim)), dim, idx, len - idx - 1);
}

/* ---- data movement ---- */

static void d_cat(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    int dim = norm((int)n->a.i[0], ndim_in(n));
    int64_t at = 0;
    for (uint32_t i = 0; i < n->nin; i++) {
        int64_t len = n->in[i].shape[dim];
        if (NEED(i))
            gin[i] = wt_narrow(ctx, g, dim, at, len);
        at += len;
    }
}

static void d_stack(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    int dim = norm((int)n->a.i[0], ndim_in(n) + 1);
    for (uint32_t i = 0; i < n->nin; i++)
        if (NEED(i))
            gin[i] = wt_select(ctx, g, dim, i);
}

static void d_gather(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* inputs t, index */
    gin[0] = wt_scatter_add(ctx, T(zeros_in(ctx, n, 0)), (int)n->a.i[0], S(SI1), g);
}

/* index (1-d or 0-d) as [1, .., k, .., 1] at dim, expanded to shape */
static wt_tensor *spread(wt_context *ctx, wt_tensor *index, int nd, int dim, const int64_t *shape) {
    int64_t s[WT_MAX_DIMS];
    for (int d = 0; d < nd; d++)
        s[d] = d == dim ? shape[d] : 1;
    return T(wt_expand(ctx, T(wt_reshape(ctx, index, nd, s)), nd, shape));
}

static void d_index_select(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* t, index */
    int nd = ndim_in(n), dim = norm((int)n->a.i[0], nd);
    gin[0] = wt_scatter_add(ctx, T(zeros_in(ctx, n, 0)), dim, spread(ctx, S(SI1), nd, dim, g->shape), g);
}

static void d_embedding(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* weight, indices */
    int64_t D = n->in[0].shape[1], N = S(SI1)->numel;
    wt_tensor *idx = T(wt_expand(ctx, T(wt_reshape(ctx, S(SI1), WT_SHAPE(N, 1))), WT_SHAPE(N, D)));
    gin[0] = wt_scatter_add(ctx, T(zeros_in(ctx, n, 0)), 0, idx, T(wt_reshape(ctx, g, WT_SHAPE(N, D))));
}

static void d_scatter_add(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* t, index, src */
    if (NEED(0))
        gin[0] = keep(g);
    if (NEED(2)) {   /* gather, then zeros where src is larger than index */
        wt_tensor *s = T(wt_gather(ctx, g, (int)n->a.i[0], S(SI1)));
        for (int d = 0; s && d < n->in[2].ndim; d++)
            if (s->shape[d] != n->in[2].shape[d])
                s = T(pad1(ctx, s, d, 0, n->in[2].shape[d] - s->shape[d]));
        gin[2] = s ? keep(s) : NULL;
    }
}

static void d_pad(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* pads in i[], mode f[0] */
    int nd = ndim_in(n);
    wt_pad_mode mode = (wt_pad_mode)n->a.f[0];
    wt_tensor *s = g;
    for (int d = 0; d < nd && s; d++) {
        int64_t lo = n->a.i[2 * d], hi = n->a.i[2 * d + 1], len = n->in[0].shape[d];
        if (!lo && !hi)
            continue;
        if (mode == WT_PAD_CONSTANT) {
            s = T(wt_narrow(ctx, s, d, lo, len));
            continue;
        }
        /* reflect, replicate: each output position adds into the input position it copies */
        int64_t P = len + lo + hi;
        int32_t *map = wt_alloc(ctx, (size_t)P * sizeof *map);
        if (!map) {
            wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, "wt_backward", "out of host memory");
            return;
        }
        for (int64_t p = 0; p < P; p++) {
            int64_t q = p - lo;
            if (mode == WT_PAD_REPLICATE)
                q = q < 0 ? 0 : q >= len ? len - 1 : q;
            else
                q = q < 0 ? -q : q >= len ? 2 * (len - 1) - q : q;
            map[p] = (int32_t)q;
        }
        wt_tensor *idx = T(wt_from_host(ctx, WT_I32, 1, &P, map));
        wt_free(ctx, map);
        int64_t shape[WT_MAX_DIMS];
        memcpy(shape, s->shape, sizeof shape);
        shape[d] = len;
        wt_tensor *z = T(wt_zeros(ctx, s->dtype, nd, shape));
        s = T(wt_scatter_add(ctx, z, d, spread(ctx, idx, nd, d, s->shape), s));
    }
    gin[0] = s ? keep(s) : NULL;
}

static void d_flip(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    int dims[WT_MAX_DIMS];
    for (int k = 0; k < n->a.ni; k++)
        dims[k] = (int)n->a.i[k];
    gin[0] = wt_flip(ctx, g, n->a.ni, dims);
}

static void d_masked_fill(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* t, mask */
    gin[0] = wt_where(ctx, S(SI1), zero0(ctx, g->dtype), g);
}

/* ---- matmul ---- */

static void d_matmul(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* a, b[, bias] */
    wt_tensor *a = S(SI0), *b = S(SI1);
    bool a1 = a->ndim == 1, b1 = b->ndim == 1;
    if (a1 && b1) {   /* a dot product */
        if (NEED(0))
            gin[0] = wt_mul(ctx, g, b);
        if (NEED(1))
            gin[1] = wt_mul(ctx, g, a);
        return;
    }
    wt_tensor *gg = g;
    if (a1)
        gg = T(wt_unsqueeze(ctx, gg, -2));
    if (b1)
        gg = T(wt_unsqueeze(ctx, gg, -1));
    wt_tensor *A = a1 ? T(wt_unsqueeze(ctx, a, 0)) : a, *B = b1 ? T(wt_unsqueeze(ctx, b, -1)) : b;
    if (NEED(0))   /* g b^T (the tape sums broadcast batch dims and drops a 1-d a's row) */
        gin[0] = wt_matmul(ctx, gg, T(wt_transpose(ctx, B, -1, -2)));
    if (NEED(1)) {   /* a^T g */
        wt_tensor *r = T(wt_matmul(ctx, T(wt_transpose(ctx, A, -1, -2)), gg));
        gin[1] = b1 ? wt_squeeze(ctx, r, -1) : keep(r);
    }
    if (n->nin > 2 && NEED(2))
        gin[2] = keep(g);
}

static void d_linear(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* x, w [N, K], bias */
    wt_tensor *x = S(SI0), *w = S(SI1);
    int64_t N = w->shape[0], K = w->shape[1];
    if (NEED(0))
        gin[0] = wt_matmul(ctx, g, w);
    if (NEED(1)) {   /* g^T x over all rows */
        wt_tensor *g2 = T(wt_reshape(ctx, g, WT_SHAPE(-1, N))), *x2 = T(wt_reshape(ctx, x, WT_SHAPE(-1, K)));
        gin[1] = wt_matmul(ctx, T(wt_transpose(ctx, g2, 0, 1)), x2);
    }
    if (NEED(2))
        gin[2] = keep(g);
}

/* ---- neural-network ops ---- */

static void d_softmax(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* y (g - sum(g y)) */
    gin[0] = wt__softmax_backward(ctx, S(SOUT), g, (int)n->a.i[0]);
}

static void d_log_softmax(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* g - e^y sum(g) */
    gin[0] = wt__log_softmax_backward(ctx, S(SOUT), g, (int)n->a.i[0]);
}

static void d_layer_norm(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* x, weight, bias */
    wt__layer_norm_backward(ctx, S(SI0), S(SI1), g, n->a.f[0], NEED(0) ? &gin[0] : NULL,
                            NEED(1) ? &gin[1] : NULL, n->nin > 2 && NEED(2) ? &gin[2] : NULL);
}

static void d_rms_norm(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* x, weight */
    wt__rms_norm_backward(ctx, S(SI0), S(SI1), g, n->a.f[0], NEED(0) ? &gin[0] : NULL, NEED(1) ? &gin[1] : NULL);
}

static void d_rope(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    /* the inverse rotation (gargs: layout, position_offset, seq_dim, rotary_dims; f[0] theta) */
    wt_rope_desc d = { .layout = (wt_rope_layout)n->a.i[0], .theta = n->a.f[0], .position_offset = n->a.i[1],
                       .seq_dim = (int)n->a.i[2], .rotary_dims = n->a.i[3] };
    gin[0] = wt__rope_backward(ctx, g, &d);
}

/* k or v [.., Hkv, L, D] as H heads (each shared by H / Hkv query heads, in order), and back
 * (the sum over each group) */
static wt_tensor *kv_expand(wt_context *ctx, wt_tensor *t, int64_t H) {
    int nd = t->ndim;
    if (nd < 3 || t->shape[nd - 3] == H)
        return t;
    int64_t r = H / t->shape[nd - 3], s[WT_MAX_DIMS];
    wt_tensor *u = T(wt_unsqueeze(ctx, t, nd - 2));
    memcpy(s, u->shape, sizeof s);
    s[nd - 2] = r;
    wt_tensor *e = T(wt_expand(ctx, u, nd + 1, s));
    memcpy(s, t->shape, sizeof s);
    s[nd - 3] = H;
    return T(wt_reshape(ctx, e, nd, s));
}

static wt_tensor *kv_reduce(wt_context *ctx, wt_tensor *g, const wt_gedge *e) {
    int nd = e->ndim;
    if (!g || nd < 3 || g->shape[nd - 3] == e->shape[nd - 3])
        return g ? keep(g) : NULL;
    int64_t s[WT_MAX_DIMS];
    memcpy(s, e->shape, sizeof s);
    memmove(s + nd - 1, s + nd - 2, 2 * sizeof *s);
    s[nd - 2] = g->shape[nd - 3] / e->shape[nd - 3];
    int d[1] = { nd - 2 };
    return wt_sum(ctx, T(wt_reshape(ctx, g, nd + 1, s)), 1, d, false);
}

static void d_scaled_dot_product_attention(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    /* backward.h's flash backward (O(sequence) memory) where it applies: f32, no mask tensor,
     * Dv == D <= 256 (gargs: f[0] scale, i[0] causal; X0 the mask) */
    wt_tensor *q = S(SI0), *k = S(SI1), *v = S(SI2), *mask = S(SX0);
    int nd = q->ndim;
    if (!mask && nd >= 2 && nd <= 4 && q->dtype == WT_F32 && k->dtype == WT_F32 && v->dtype == WT_F32 &&
        g->dtype == WT_F32 && v->shape[nd - 1] == q->shape[nd - 1] && q->shape[nd - 1] <= 256) {
        wt_attention_desc d = { .causal = n->a.i[0] != 0, .scale = n->a.f[0] };
        wt__attention_backward(ctx, q, k, v, S(SOUT), g, &d, NEED(0) ? &gin[0] : NULL, NEED(1) ? &gin[1] : NULL,
                               NEED(2) ? &gin[2] : NULL);
        return;
    }
    /* else composite, the scores in memory: P = softmax(s q k^T + mask), dV = P^T dO, dP = dO V^T,
     * dS = P (dP - rowsum(dP P)), dQ = s dS K, dK = s dS^T Q */
    int64_t Lq = q->shape[nd - 2], Lk = k->shape[nd - 2], D = q->shape[nd - 1];
    double scale = n->a.f[0] ? n->a.f[0] : 1.0 / sqrt((double)D);
    if (nd >= 3) {
        k = kv_expand(ctx, k, q->shape[nd - 3]);
        v = kv_expand(ctx, v, q->shape[nd - 3]);
    }
    wt_tensor *sc = T(wt_mul_scalar(ctx, T(wt_matmul(ctx, q, T(wt_transpose(ctx, k, -1, -2)))), scale));
    if (mask && wt_is_float(mask->dtype))
        sc = T(wt_add(ctx, sc, mask));
    else if (mask)
        sc = T(wt_masked_fill(ctx, sc, T(wt_logical_not(ctx, mask)), -INFINITY));
    if (n->a.i[0]) {   /* key j is hidden from query i when j > i + Lk - Lq */
        wt_tensor *i = T(wt_reshape(ctx, T(wt_arange(ctx, WT_I32, 0, (double)Lq, 1)), WT_SHAPE(Lq, 1)));
        wt_tensor *j = T(wt_arange(ctx, WT_I32, 0, (double)Lk, 1));
        sc = T(wt_masked_fill(ctx, sc, T(wt_gt_scalar(ctx, T(wt_sub(ctx, j, i)), (double)(Lk - Lq))), -INFINITY));
    }
    wt_tensor *p = T(wt_softmax_flags(ctx, "wt_backward", sc, -1, 2));   /* rows seeing no key: zeros */
    if (NEED(2))
        gin[2] = kv_reduce(ctx, T(wt_matmul(ctx, T(wt_transpose(ctx, p, -1, -2)), g)), &n->in[2]);
    if (!NEED(0) && !NEED(1))
        return;
    wt_tensor *dp = T(wt_matmul(ctx, g, T(wt_transpose(ctx, v, -1, -2))));
    int last[1] = { -1 };
    wt_tensor *ds = T(wt_mul(ctx, p, T(wt_sub(ctx, dp, T(wt_sum(ctx, T(wt_mul(ctx, dp, p)), 1, last, true))))));
    ds = T(wt_mul_scalar(ctx, ds, scale));
    if (NEED(0))
        gin[0] = wt_matmul(ctx, ds, k);
    if (NEED(1))
        gin[1] = kv_reduce(ctx, T(wt_matmul(ctx, T(wt_transpose(ctx, ds, -1, -2)), q)), &n->in[1]);
}

/* conv2d and the pools: backward.h's kernels (gargs: conv stride, padding, dilation, groups;
 * pools wt__pool_args) */
static void d_conv2d(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* x, weight, bias */
    const int64_t *a = n->a.i;
    wt_conv2d_desc d = { .stride = { a[0], a[1] }, .padding = { a[2], a[3] }, .dilation = { a[4], a[5] },
                         .groups = a[6] };
    wt__conv2d_backward(ctx, S(SI0), S(SI1), g, &d, NEED(0) ? &gin[0] : NULL, NEED(1) ? &gin[1] : NULL,
                        n->nin > 2 && NEED(2) ? &gin[2] : NULL);
}

static wt_pool2d_desc pool_desc(const wt_node *n) {
    const int64_t *a = n->a.i;
    return (wt_pool2d_desc){ .kernel = { a[0], a[1] }, .stride = { a[2], a[3] }, .padding = { a[4], a[5] },
                             .dilation = { a[6], a[7] }, .count_include_pad = n->a.f[0] != 0 };
}

static void d_max_pool2d(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    wt_pool2d_desc d = pool_desc(n);
    gin[0] = wt__max_pool2d_backward(ctx, S(SI0), NULL, g, &d);
}

static void d_avg_pool2d(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    wt_pool2d_desc d = pool_desc(n);
    gin[0] = wt__avg_pool2d_backward(ctx, S(SI0), g, &d);
}

wt_gargs wt__pool_args(const wt_pool2d_desc *d) {
    wt_gargs a = { .ni = 8 };
    if (d) {
        int64_t v[8] = { d->kernel[0], d->kernel[1], d->stride[0], d->stride[1], d->padding[0], d->padding[1],
                         d->dilation[0], d->dilation[1] };
        memcpy(a.i, v, sizeof v);
        a.f[0] = d->count_include_pad;
    }
    return a;
}

/* ---- losses (loss.c) ---- */

static void d_cross_entropy(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {
    /* logits x [N, C], safe targets t [N, 1]; saved lse [N, 1] and w [N, 1] (valid / count);
     * f[0] label smoothing e: dx = (softmax(x) - e / C) w g, minus (1 - e) w g at the targets,
     * in one pass (loss.c, cross_entropy.wgsl) */
    wt_tensor *wg = T(wt_mul(ctx, S(SX1), g->ndim ? T(wt_reshape(ctx, g, WT_SHAPE(-1, 1))) : g));
    gin[0] = wg ? wt__cross_entropy_backward(ctx, S(SI0), S(SI1), S(SX0), wg, n->a.f[0]) : NULL;
}

static void d_nll_loss(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* logp, t; w */
    wt_tensor *wg = T(wt_mul(ctx, S(SX0), g->ndim ? T(wt_reshape(ctx, g, WT_SHAPE(-1, 1))) : g));
    gin[0] = wt_scatter_add(ctx, T(wt_zeros(ctx, wg ? wg->dtype : WT_F32, n->in[0].ndim, n->in[0].shape)), 1, S(SI1),
                            T(wt_neg(ctx, wg)));
}

static void d_bce_with_logits(wt_context *ctx, const wt_node *n, wt_tensor *g, wt_tensor **gin) {   /* x, y; f[0] scale */
    wt_tensor *x = S(SI0), *y = S(SI1), *gs = T(wt_mul_scalar(ctx, g, n->a.f[0]));
    if (NEED(0))
        gin[0] = wt_mul(ctx, gs, T(wt_sub(ctx, T(wt_sigmoid(ctx, x)), y)));
    if (NEED(1))
        gin[1] = wt_neg(ctx, T(wt_mul(ctx, gs, x)));
}

/* ---- the table ---- */

const wt_grule wt__grad_rules[WT_G_COUNT] = {
    NULL,
#define X(name, saves) d_##name,
    WT_GRAD_OPS(X)
#undef X
};

const char *const wt__grad_names[WT_G_COUNT] = {
    "?",
#define X(name, saves) "wt_" #name,
    WT_GRAD_OPS(X)
#undef X
};
