/* ops.c - the op table and the elementwise ops.
 *
 * Each op is one row of a table: its kernel codes and its dtype rule.  An op call (1) checks its
 * inputs, (2) computes the broadcast shape and the result dtype from the rule, (3) makes the
 * output tensor from the pool and (4) calls wt_elementwise, which picks an addressing mode per
 * input (contiguous, single element, strided with broadcast strides, or a scalar from the
 * parameter block), gets the kernel for the specialisation key and records one dispatch.
 * Adding an elementwise op: a row here and a case in the kernel file named by the row.
 *
 * Rules: ARITH (promote; bool refused; float -> *_f kernel in f32, integer -> *_i kernel in the
 * dtype), TRUEDIV (as ARITH but integers give f32), COMPARE and LOGICAL (promote, compute in the
 * promoted dtype, bool result), FLOAT (float-only math: integers give f32), KEEP (result keeps
 * the dtype: the *_f kernel for floats, the *_i kernel for integers). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tensor/internal.h"

/* dtypes: names, host and GPU bytes per element (WT_DTYPES) */
static const char *const dtype_names[] = {
    "default",
#define X(name, str, hsize, gsize) str,
    WT_DTYPES(X)
#undef X
};
static const uint8_t dtype_hsize[] = {
    4,
#define X(name, str, hsize, gsize) hsize,
    WT_DTYPES(X)
#undef X
};
static const uint8_t dtype_gsize[] = {
    4,
#define X(name, str, hsize, gsize) gsize,
    WT_DTYPES(X)
#undef X
};
_Static_assert(sizeof dtype_names / sizeof *dtype_names == WT_DTYPE_COUNT, "one name per dtype");

const char *wt_dtype_name(wt_dtype dt) {
    return (unsigned)dt < WT_DTYPE_COUNT ? dtype_names[dt] : "?";
}

size_t wt_dtype_size(wt_dtype dt) {
    return (unsigned)dt < WT_DTYPE_COUNT ? dtype_hsize[dt] : 0;
}

size_t wt_gpu_size(wt_dtype dt) {
    return (unsigned)dt < WT_DTYPE_COUNT ? dtype_gsize[dt] : 0;
}


typedef enum { R_ARITH, R_TRUEDIV, R_COMPARE, R_LOGICAL, R_FLOAT, R_KEEP } op_rule;

/* X(name, rule, code in the float (or compare) kernel, code in the integer kernel or -1) */
#define WT_BINARY_TABLE(X)                      \
    X(add, R_ARITH, 0, 0)                       \
    X(sub, R_ARITH, 1, 1)                       \
    X(mul, R_ARITH, 2, 2)                       \
    X(div, R_TRUEDIV, 3, -1)                    \
    X(pow, R_ARITH, 4, 3)                       \
    X(minimum, R_ARITH, 5, 4)                   \
    X(maximum, R_ARITH, 6, 5)                   \
    X(remainder, R_ARITH, 7, 6)                 \
    X(eq, R_COMPARE, 0, -1)                     \
    X(ne, R_COMPARE, 1, -1)                     \
    X(lt, R_COMPARE, 2, -1)                     \
    X(le, R_COMPARE, 3, -1)                     \
    X(gt, R_COMPARE, 4, -1)                     \
    X(ge, R_COMPARE, 5, -1)                     \
    X(logical_and, R_LOGICAL, 6, -1)            \
    X(logical_or, R_LOGICAL, 7, -1)             \
    X(logical_xor, R_LOGICAL, 8, -1)

#define WT_UNARY_TABLE(X)                       \
    X(neg, R_KEEP, 0, 0)                        \
    X(abs, R_KEEP, 1, 1)                        \
    X(exp, R_FLOAT, 2, -1)                      \
    X(log, R_FLOAT, 3, -1)                      \
    X(sqrt, R_FLOAT, 4, -1)                     \
    X(rsqrt, R_FLOAT, 5, -1)                    \
    X(sin, R_FLOAT, 6, -1)                      \
    X(cos, R_FLOAT, 7, -1)                      \
    X(tanh, R_FLOAT, 8, -1)                     \
    X(sigmoid, R_FLOAT, 9, -1)                  \
    X(relu, R_KEEP, 10, 3)                      \
    X(silu, R_FLOAT, 11, -1)                    \
    X(gelu, R_FLOAT, 12, -1)                    \
    X(floor, R_KEEP, 13, 5)                     \
    X(ceil, R_KEEP, 14, 5)                      \
    X(round, R_KEEP, 15, 5)                     \
    X(sign, R_KEEP, 16, 2)                      \
    X(reciprocal, R_FLOAT, 17, -1)
enum { UNARY_I_CLAMP = 4 };   /* WT_UNARY_F_CLAMP: internal.h */

typedef struct op_row {
    const char *name;
    op_rule rule;
    int fcode, icode;
} op_row;

static const op_row binary_ops[] = {
#define X(name, rule, f, i) { "wt_" #name, rule, f, i },
    WT_BINARY_TABLE(X)
#undef X
};
static const op_row unary_ops[] = {
#define X(name, rule, f, i) { "wt_" #name, rule, f, i },
    WT_UNARY_TABLE(X)
#undef X
};
enum {
#define X(name) N_BIN_##name,
    WT_BINARY_OPS(X)
#undef X
    N_BIN_COUNT
};
enum {
#define X(name) N_UN_##name,
    WT_UNARY_OPS(X)
#undef X
    N_UN_COUNT
};
/* the public lists and the tables name the same ops (logical_not is built from eq) */
_Static_assert(sizeof binary_ops / sizeof *binary_ops == N_BIN_COUNT, "one table row per binary op");
_Static_assert(sizeof unary_ops / sizeof *unary_ops == N_UN_COUNT - 1, "one table row per unary op");
/* the backward rows (grad.h) of the differentiable binary ops: tensor operand, scalar operand */
static const wt_gop binary_grad[N_BIN_COUNT][2] = {
    [N_BIN_add] = { WT_G_add, WT_G_add_scalar }, [N_BIN_sub] = { WT_G_sub, WT_G_sub_scalar },
    [N_BIN_mul] = { WT_G_mul, WT_G_mul_scalar }, [N_BIN_div] = { WT_G_div, WT_G_div_scalar },
    [N_BIN_pow] = { WT_G_pow, WT_G_pow_scalar }, [N_BIN_minimum] = { WT_G_minimum, WT_G_minimum_scalar },
    [N_BIN_maximum] = { WT_G_maximum, WT_G_maximum_scalar },
    [N_BIN_remainder] = { WT_G_remainder, WT_G_remainder_scalar },
};

bool wt_is_float(wt_dtype dt) {
    return dt == WT_F32 || dt == WT_F16;
}

wt_dtype wt_promote(wt_dtype a, wt_dtype b) {
    if (a == b)
        return a;
    if (a == WT_BOOL)
        return b;
    if (b == WT_BOOL)
        return a;
    if (wt_is_float(a) && wt_is_float(b))
        return WT_F32;
    if (wt_is_float(a))
        return a;
    if (wt_is_float(b))
        return b;
    return WT_I32;
}

wt_dtype wt_compute_dtype(wt_dtype dt) {
    return wt_is_float(dt) ? WT_F32 : dt == WT_BOOL ? WT_U32 : dt;
}

uint32_t wt_scalar_bits(wt_dtype compute, double v) {
    uint32_t bits;
    switch (compute) {
    case WT_I32: {
        double c = v < -2147483648.0 ? -2147483648.0 : v > 2147483647.0 ? 2147483647.0 : v;
        int32_t i = isnan(c) ? 0 : (int32_t)c;
        memcpy(&bits, &i, 4);
        return bits;
    }
    case WT_U32:
    case WT_BOOL: {
        if (isnan(v))
            return 0;
        if (v < 0) {
            double c = v < -2147483648.0 ? -2147483648.0 : v;
            return (uint32_t)(int32_t)c;
        }
        return v > 4294967295.0 ? 0xffffffffu : (uint32_t)v;
    }
    default: {
        float f = (float)v;
        memcpy(&bits, &f, 4);
        return bits;
    }
    }
}

/* Broadcast shape of n tensors (numpy rules); false with an error naming all shapes. */
static bool broadcast(wt_context *ctx, const char *op, uint32_t n, wt_tensor *const *in, int *ndim, int64_t *shape) {
    int nd = 0;
    for (uint32_t i = 0; i < n; i++)
        if (in[i] && in[i]->ndim > nd)
            nd = in[i]->ndim;
    for (int d = 0; d < nd; d++) {
        int64_t s = 1;
        for (uint32_t i = 0; i < n; i++) {
            if (!in[i])
                continue;
            int j = d - (nd - in[i]->ndim);
            if (j < 0)
                continue;
            int64_t si = in[i]->shape[j];
            if (si == s || si == 1)
                continue;
            if (s == 1) {
                s = si;
                continue;
            }
            char msg[400];
            size_t m = 0;
            m += (size_t)snprintf(msg + m, sizeof msg - m, "shapes");
            for (uint32_t k = 0; k < n && m < sizeof msg; k++) {
                char b[160];
                if (in[k])
                    m += (size_t)snprintf(msg + m, sizeof msg - m, "%s %s", k ? (k + 1 == n ? " and" : ",") : "",
                                          wt_shape_str(b, sizeof b, in[k]->ndim, in[k]->shape));
            }
            wt_fail(ctx, WT_STATUS_SHAPE, op, "%s are not broadcastable", msg);
            return false;
        }
        shape[d] = s;
    }
    *ndim = nd;
    return true;
}

wt_status wt_elementwise(wt_context *ctx, const char *op, wt_kfile file, uint32_t code, wt_dtype compute,
                         wt_tensor *out, uint32_t nin, wt_tensor *const *in, const uint32_t sv[4],
                         const uint32_t aux[4]) {
    if (!out->numel) {
        ctx->stats.ops++;
        return WT_OK;
    }
    wt_kkey key = wt_key(file, code, out->dtype, WT_DTYPE_DEFAULT, WT_DTYPE_DEFAULT, compute);
    wt_params p;
    memset(&p, 0, sizeof p);
    p.n = (uint32_t)out->numel;
    p.ndim = (uint32_t)out->ndim;
    for (int d = 0; d < out->ndim; d++)
        p.shape[d] = (uint32_t)out->shape[d];
    wt_storage *st[WT_MAX_IN] = { 0 };
    for (uint32_t i = 0; i < nin; i++) {
        const wt_tensor *t = in[i];
        if (!t) {
            key.mode[i] = WT_MODE_PARAM;
            key.in[i] = (uint8_t)compute;
            continue;
        }
        key.in[i] = (uint8_t)t->dtype;
        st[i] = t->st;
        p.off[i] = (uint32_t)t->offset;
        if (t->numel == 1) {
            key.mode[i] = WT_MODE_ONE;
        } else if (t->numel == out->numel && wt_is_contiguous(t)) {
            key.mode[i] = WT_MODE_CONTIG;
        } else {
            key.mode[i] = WT_MODE_STRIDED;
            for (int d = 0; d < out->ndim; d++) {
                int j = d - (out->ndim - t->ndim);
                p.st[i][d] = j >= 0 && t->shape[j] != 1 ? (int32_t)t->strides[j] : 0;
            }
        }
    }
    if (sv)
        memcpy(p.sv, sv, sizeof p.sv);
    if (aux)
        memcpy(p.aux, aux, sizeof p.aux);
    /* the vec4 path: every input contiguous at a multiple of 4, a single element or a scalar */
    bool v4 = wt_kernel_vec4_ok(file) && out->numel % 4 == 0;
    for (uint32_t i = 0; i < nin && v4; i++)
        v4 = key.mode[i] == WT_MODE_PARAM || key.mode[i] == WT_MODE_ONE ||
             (key.mode[i] == WT_MODE_CONTIG && p.off[i] % 4 == 0);
    if (v4) {
        key.v4 = 1;
        p.n /= 4;
    }
    return wt_record_key(ctx, op, &key, &p, out->st, nin, st);
}

/* Makes the output (shape = broadcast of the inputs) and runs the kernel; NULL on error. */
static wt_tensor *run(wt_context *ctx, const char *op, wt_kfile file, uint32_t code, wt_dtype compute, wt_dtype out_dt,
                      uint32_t nin, wt_tensor *const *in, const uint32_t sv[4]) {
    int nd;
    int64_t shape[WT_MAX_DIMS];
    if (!broadcast(ctx, op, nin, in, &nd, shape))
        return NULL;
    wt_tensor *out = wt_tensor_new(ctx, op, out_dt, nd, shape);
    if (!out)
        return NULL;
    if (wt_elementwise(ctx, op, file, code, compute, out, nin, in, sv, NULL) != WT_OK) {
        wt_release(out);
        return NULL;
    }
    return out;
}

static bool no_bool(wt_context *ctx, const char *op, wt_dtype a, wt_dtype b) {
    if (a == WT_BOOL || b == WT_BOOL) {
        wt_fail(ctx, WT_STATUS_DTYPE, op, "arithmetic on bool (%s, %s) is not supported; cast first",
                wt_dtype_name(a), wt_dtype_name(b));
        return false;
    }
    return true;
}

/* b == NULL: the scalar s is the second operand. */
static wt_tensor *binary(wt_context *ctx, int which, wt_tensor *a, wt_tensor *b, double s) {
    const op_row *r = &binary_ops[which];
    if (!ctx)
        return NULL;
    if (!wt_check_tensor(ctx, r->name, a) || (b && !wt_check_tensor(ctx, r->name, b)))
        return NULL;
    wt_dtype bt;
    if (b) {
        bt = b->dtype;
    } else if (wt_is_float(a->dtype)) {
        bt = a->dtype;
    } else {
        bool integral = isfinite(s) && s == floor(s);
        bt = !integral ? WT_F32 : a->dtype == WT_BOOL ? WT_I32 : a->dtype;
    }
    wt_dtype dt = wt_promote(a->dtype, bt);
    wt_kfile file;
    wt_dtype compute, out;
    uint32_t code;
    switch (r->rule) {
    case R_ARITH:
    case R_TRUEDIV:
        if (!no_bool(ctx, r->name, a->dtype, bt))
            return NULL;
        if (wt_is_float(dt) || r->icode < 0) {
            file = WT_K_binary_f, compute = WT_F32, code = (uint32_t)r->fcode;
            out = wt_is_float(dt) ? dt : WT_F32;
        } else {
            file = WT_K_binary_i, compute = dt, code = (uint32_t)r->icode, out = dt;
        }
        break;
    default:   /* R_COMPARE, R_LOGICAL */
        file = WT_K_compare, compute = wt_compute_dtype(dt), code = (uint32_t)r->fcode, out = WT_BOOL;
        break;
    }
    uint32_t sv[4] = { 0, b ? 0 : wt_scalar_bits(compute, s), 0, 0 };
    wt_tensor *in[2] = { a, b };
    return run(ctx, r->name, file, code, compute, out, 2, in, sv);
}

static wt_tensor *unary(wt_context *ctx, const op_row *r, int fcode, int icode, wt_tensor *a, double lo, double hi) {
    if (!ctx || !wt_check_tensor(ctx, r->name, a))
        return NULL;
    if (a->dtype == WT_BOOL)
        return wt_fail(ctx, WT_STATUS_DTYPE, r->name, "not supported for bool tensors; cast first");
    wt_tensor *in[1] = { a };
    if (wt_is_float(a->dtype) || icode < 0) {
        uint32_t sv[4] = { wt_scalar_bits(WT_F32, lo), wt_scalar_bits(WT_F32, hi), 0, 0 };
        return run(ctx, r->name, WT_K_unary_f, (uint32_t)fcode, WT_F32, wt_is_float(a->dtype) ? a->dtype : WT_F32, 1, in, sv);
    }
    double l = ceil(lo), h = floor(hi);
    uint32_t sv[4] = { wt_scalar_bits(a->dtype, l), wt_scalar_bits(a->dtype, h), 0, 0 };
    return run(ctx, r->name, WT_K_unary_i, (uint32_t)icode, a->dtype, a->dtype, 1, in, sv);
}

#define X(name)                                                                  \
    wt_tensor *wt_##name(wt_context *ctx, wt_tensor *a, wt_tensor *b) {          \
        if (ctx && !b) {                                                         \
            wt_check_tensor(ctx, "wt_" #name, b);                                \
            return NULL;                                                         \
        }                                                                        \
        return wt__grad(ctx, binary(ctx, N_BIN_##name, a, b, 0), binary_grad[N_BIN_##name][0], 2, \
                        (wt_tensor *const[]){ a, b }, NULL);                     \
    }                                                                            \
    wt_tensor *wt_##name##_scalar(wt_context *ctx, wt_tensor *a, double s) {     \
        return wt__grad(ctx, binary(ctx, N_BIN_##name, a, NULL, s), binary_grad[N_BIN_##name][1], 1, \
                        &a, &(wt_gargs){ .f = { s } });                          \
    }
WT_BINARY_OPS(X)
#undef X

#define X(name, rule, f, i)                                                      \
    wt_tensor *wt_##name(wt_context *ctx, wt_tensor *a) {                        \
        const op_row *r = &unary_ops[N_UN_##name];                               \
        return wt__grad(ctx, unary(ctx, r, r->fcode, r->icode, a, 0, 0), WT_G_##name, 1, &a, NULL); \
    }
WT_UNARY_TABLE(X)
#undef X

wt_tensor *wt_logical_not(wt_context *ctx, wt_tensor *a) {
    if (!ctx || !wt_check_tensor(ctx, "wt_logical_not", a))
        return NULL;
    wt_tensor *in[2] = { a, NULL };
    wt_dtype compute = wt_compute_dtype(wt_promote(a->dtype, WT_I32));
    uint32_t sv[4] = { 0, 0, 0, 0 };
    return run(ctx, "wt_logical_not", WT_K_compare, 0, compute, WT_BOOL, 2, in, sv);
}

wt_tensor *wt_clamp(wt_context *ctx, wt_tensor *a, double lo, double hi) {
    static const op_row r = { "wt_clamp", R_KEEP, WT_UNARY_F_CLAMP, UNARY_I_CLAMP };
    if (ctx && (isnan(lo) || isnan(hi) || lo > hi))
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, "wt_clamp", "bounds [%g, %g] are not ordered", lo, hi);
    return wt__grad(ctx, unary(ctx, &r, r.fcode, r.icode, a, lo, hi), WT_G_clamp, 1, &a, &(wt_gargs){ .f = { lo, hi } });
}

wt_tensor *wt_where(wt_context *ctx, wt_tensor *cond, wt_tensor *a, wt_tensor *b) {
    const char *op = "wt_where";
    if (!ctx || !wt_check_tensor(ctx, op, cond) || !wt_check_tensor(ctx, op, a) || !wt_check_tensor(ctx, op, b))
        return NULL;
    wt_dtype dt = wt_promote(a->dtype, b->dtype);
    wt_tensor *in[3] = { cond, a, b };
    return wt__grad(ctx, run(ctx, op, WT_K_where, 0, dt, dt, 3, in, NULL), WT_G_where, 3, in, NULL);
}

wt_tensor *wt_cast(wt_context *ctx, wt_tensor *t, wt_dtype dt) {
    const char *op = "wt_cast";
    if (!ctx || !wt_check_tensor(ctx, op, t))
        return NULL;
    if (dt == WT_DTYPE_DEFAULT)
        dt = WT_F32;
    if (!wt_valid_dtype(ctx, op, dt))
        return NULL;
    if (dt == t->dtype) {
        wt_retain(t);
        return t;
    }
    wt_tensor *in[1] = { t };
    /* to bool: test x != 0 in the source's compute type; else convert through the target's */
    if (dt == WT_BOOL)
        return run(ctx, op, WT_K_cast, 1, wt_compute_dtype(t->dtype), dt, 1, in, NULL);
    return wt__grad(ctx, run(ctx, op, WT_K_cast, 0, wt_compute_dtype(dt), dt, 1, in, NULL), WT_G_cast, 1, in, NULL);
}

wt_tensor *wt_clone(wt_context *ctx, wt_tensor *t) {
    const char *op = "wt_clone";
    if (!ctx || !wt_check_tensor(ctx, op, t))
        return NULL;
    wt_tensor *in[1] = { t };
    return wt__grad(ctx, run(ctx, op, WT_K_cast, 0, wt_compute_dtype(t->dtype), t->dtype, 1, in, NULL), WT_G_clone, 1, in,
                    NULL);
}

wt_tensor *wt_contiguous(wt_context *ctx, wt_tensor *t) {
    if (!ctx || !wt_check_tensor(ctx, "wt_contiguous", t))
        return NULL;
    if (wt_is_contiguous(t)) {
        wt_retain(t);
        return t;
    }
    wt_tensor *c;   /* a transposed view: tiled copy (movement.c) */
    if (wt_transpose_copy(ctx, "wt_contiguous", t, &c) != WT_OK || c)
        return wt__grad(ctx, c, WT_G_contiguous, 1, &t, NULL);
    return wt_clone(ctx, t);
}
