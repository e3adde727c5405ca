/* test_ops.c - every elementwise op against a plain C reference computed in double precision,
 * with a per-op error bound: f32 (and f16 where the device has it), i32 and u32 inputs; shapes
 * that are not multiples of the workgroup size, scalars, empty tensors, broadcasting, and
 * non-contiguous views (transposed, strided slices, expanded) as inputs. */
#include "tensor/tensor_test.h"

#define MAXN 4096

typedef struct input {
    int ndim;
    int64_t shape[WT_MAX_DIMS];
    double v[MAXN];      /* logical values, C order, already rounded to the dtype */
    int64_t n;
} input;

static uint64_t seed = 0x1234567;
static int failures_reported;

static double round_to(wt_dtype dt, double x) {
    switch (dt) {
    case WT_F32: return (float)x;
    case WT_F16: return wt_f16_to_f32(wt_f32_to_f16((float)x));
    case WT_I32: return (double)(int32_t)x;
    case WT_U32: return (double)(uint32_t)(int64_t)x;
    default: return x != 0;
    }
}

static void fill_input(input *in, wt_dtype dt, int ndim, const int64_t *shape, double lo, double hi, bool integral) {
    in->ndim = ndim;
    in->n = 1;
    for (int i = 0; i < ndim; i++) {
        in->shape[i] = shape[i];
        in->n *= shape[i];
    }
    for (int64_t i = 0; i < in->n; i++) {
        double x = tt_rand(&seed, lo, hi);
        if (integral || !(dt == WT_F32 || dt == WT_F16))
            x = floor(x);
        in->v[i] = round_to(dt, x);
    }
}

/* Layouts of the GPU tensor holding the logical values. */
enum { L_CONTIG, L_TRANSPOSED, L_STRIDED, L_OFFSET, L_COUNT };

static wt_tensor *make_tensor(wt_context *ctx, wt_dtype dt, const input *in, int layout) {
    if (layout == L_TRANSPOSED && in->ndim >= 2) {
        /* base holds the last two dims swapped; the view swaps them back */
        int nd = in->ndim;
        int64_t bs[WT_MAX_DIMS];
        memcpy(bs, in->shape, sizeof bs);
        bs[nd - 1] = in->shape[nd - 2];
        bs[nd - 2] = in->shape[nd - 1];
        static double tmp[MAXN];
        int64_t r = in->shape[nd - 2], c = in->shape[nd - 1], outer = r * c != 0 ? in->n / (r * c) : 0;
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < r; i++)
                for (int64_t j = 0; j < c; j++)
                    tmp[o * r * c + j * r + i] = in->v[o * r * c + i * c + j];
        wt_tensor *base = tt_upload(ctx, dt, nd, bs, tmp);
        wt_tensor *v = wt_transpose(ctx, base, -1, -2);
        wt_release(base);
        CHECK(!wt_is_contiguous(v) || r == 1 || c == 1 || in->n == 0);
        return v;
    }
    if (layout == L_STRIDED && in->ndim >= 1 && in->n * 2 <= MAXN) {
        /* base has twice the rows along dim 0; the view takes every other one from row 1 */
        int64_t bs[WT_MAX_DIMS];
        memcpy(bs, in->shape, sizeof bs);
        bs[0] = in->shape[0] * 2 + 1;
        int64_t inner = in->shape[0] ? in->n / in->shape[0] : 0;
        static double tmp[2 * MAXN + 64];
        for (int64_t i = 0; i < bs[0] * inner; i++)
            tmp[i] = -777;
        for (int64_t i = 0; i < in->shape[0]; i++)
            for (int64_t j = 0; j < inner; j++)
                tmp[(2 * i + 1) * inner + j] = in->v[i * inner + j];
        wt_tensor *base = tt_upload(ctx, dt, in->ndim, bs, tmp);
        wt_tensor *v = wt_slice(ctx, base, 0, 1, bs[0], 2);
        wt_release(base);
        return v;
    }
    if (layout == L_OFFSET && in->ndim >= 1 && in->n + 64 <= MAXN) {
        /* contiguous at an offset: the tail of a flat base (offset 4 keeps the vec4 path, 3 not) */
        static double tmp[MAXN + 64];
        int64_t off = in->n % 2 ? 3 : 4;
        for (int64_t i = 0; i < off; i++)
            tmp[i] = -555;
        memcpy(tmp + off, in->v, (size_t)in->n * sizeof(double));
        wt_tensor *base = tt_upload(ctx, dt, 1, (const int64_t[]){ in->n + off }, tmp);
        wt_tensor *flat = wt_narrow(ctx, base, 0, off, in->n);
        wt_tensor *v = wt_reshape(ctx, flat, in->ndim, in->shape);
        CHECK(v && wt_is_contiguous(v) && (in->n == 0 || (wt_offset(v) == off && wt_same_storage(v, base))));
        wt_release(base);
        wt_release(flat);
        return v;
    }
    return tt_upload(ctx, dt, in->ndim, in->shape, in->v);
}

/* Value of input `in` at output multi-index idx (broadcast). */
static double at(const input *in, int out_nd, const int64_t *idx) {
    int64_t li = 0;
    for (int d = 0; d < in->ndim; d++) {
        int od = d + out_nd - in->ndim;
        int64_t k = in->shape[d] == 1 ? 0 : idx[od];
        li = li * in->shape[d] + k;
    }
    return in->v[li];
}

typedef double (*ref1)(double);
typedef double (*ref2)(double, double);

typedef struct tol {
    double atol, rtol;
} tol;

static bool close_enough(double got, double want, tol t) {
    if (isnan(want))
        return isnan(got);
    if (isinf(want))
        return got == want;
    return fabs(got - want) <= t.atol + t.rtol * fabs(want);
}

/* Compares out (shape from broadcasting ins) against ref over all elements. */
static void compare(wt_context *ctx, const char *what, wt_tensor *out, int nin, const input *const *ins, ref1 r1,
                    ref2 r2, double (*r3)(double, double, double), tol t, wt_dtype out_dt, double wrap) {
    CHECKF(out != NULL, "%s: %s", what, wt_last_error(ctx));
    if (!out)
        return;
    CHECKF(wt_dtype_of(out) == out_dt, "%s: dtype %s, want %s", what, wt_dtype_name(wt_dtype_of(out)), wt_dtype_name(out_dt));
    int nd = wt_ndim(out);
    const int64_t *shape = wt_shape(out);
    double *got = tt_read(ctx, out);
    int64_t n = wt_numel(out), bad = 0;
    int64_t idx[WT_MAX_DIMS] = { 0 };
    for (int64_t i = 0; i < n; i++) {
        double a = at(ins[0], nd, idx), b = nin > 1 ? at(ins[1], nd, idx) : 0, c = nin > 2 ? at(ins[2], nd, idx) : 0;
        double want = r3 ? r3(a, b, c) : r2 ? r2(a, b) : r1(a);
        if (out_dt != WT_F32 && out_dt != WT_F16 && !isnan(want))
            want = round_to(out_dt, want);
        bool ok = close_enough(got[i], want, t);
        if (!ok && wrap != 0)
            ok = close_enough(got[i], want + wrap * b, t) || close_enough(got[i], want - wrap * b, t);
        if (!ok) {
            if (bad++ < 3 && failures_reported++ < 40)
                fprintf(stderr, "%s: element %lld: got %.9g want %.9g (a=%.9g b=%.9g)\n", what, (long long)i, got[i],
                        want, a, b);
        }
        for (int d = nd - 1; d >= 0; d--) {
            if (++idx[d] < shape[d])
                break;
            idx[d] = 0;
        }
    }
    CHECKF(bad == 0, "%s: %lld of %lld elements out of bounds", what, (long long)bad, (long long)n);
    free(got);
}

/* ---- references ---- */
static double r_neg(double x) { return -x; }
static double r_abs(double x) { return fabs(x); }
static double r_exp(double x) { return exp(x); }
static double r_log(double x) { return log(x); }
static double r_sqrt(double x) { return sqrt(x); }
static double r_rsqrt(double x) { return 1 / sqrt(x); }
static double r_sin(double x) { return sin(x); }
static double r_cos(double x) { return cos(x); }
static double r_tanh(double x) { return tanh(x); }
static double r_sigmoid(double x) { return 1 / (1 + exp(-x)); }
static double r_relu(double x) { return x > 0 ? x : 0; }
static double r_silu(double x) { return x / (1 + exp(-x)); }
static double r_gelu(double x) { return 0.5 * x * (1 + erf(x / sqrt(2.0))); }
static double r_floor(double x) { return floor(x); }
static double r_ceil(double x) { return ceil(x); }
static double r_round(double x) { return nearbyint(x); }
static double r_sign(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
static double r_recip(double x) { return 1 / x; }
static double r_not(double x) { return x == 0; }
static double r_truthy(double x) { return x != 0; }
static double r_id(double x) { return x; }
static double r_clamp(double x) { return x < -2.5 ? -2.5 : x > 3.25 ? 3.25 : x; }
static double r_clamp_i(double x) { return x < -2 ? -2 : x > 3 ? 3 : x; }

static double r_add(double a, double b) { return a + b; }
static double r_sub(double a, double b) { return a - b; }
static double r_mul(double a, double b) { return a * b; }
static double r_div(double a, double b) { return a / b; }
static double r_pow(double a, double b) {
    if (a < 0 && b != floor(b))
        return NAN;
    return pow(a, b);
}
static double r_ipow(double a, double b) {
    if (b < 0)
        return a == 1 ? 1 : a == -1 ? (fmod(b, 2) != 0 ? -1 : 1) : 0;
    return pow(a, b);
}
static double r_min(double a, double b) { return a < b ? a : b; }
static double r_max(double a, double b) { return a > b ? a : b; }
static double r_rem(double a, double b) { return a - floor(a / b) * b; }
static double r_eq(double a, double b) { return a == b; }
static double r_ne(double a, double b) { return a != b; }
static double r_lt(double a, double b) { return a < b; }
static double r_le(double a, double b) { return a <= b; }
static double r_gt(double a, double b) { return a > b; }
static double r_ge(double a, double b) { return a >= b; }
static double r_and(double a, double b) { return a != 0 && b != 0; }
static double r_or(double a, double b) { return a != 0 || b != 0; }
static double r_xor(double a, double b) { return (a != 0) != (b != 0); }
static double r_where(double c, double a, double b) { return c != 0 ? a : b; }

typedef wt_tensor *(*fn1)(wt_context *, wt_tensor *);
typedef wt_tensor *(*fn2)(wt_context *, wt_tensor *, wt_tensor *);
typedef wt_tensor *(*fn2s)(wt_context *, wt_tensor *, double);

static wt_tensor *clamp_f(wt_context *ctx, wt_tensor *a) { return wt_clamp(ctx, a, -2.5, 3.25); }

static const struct unary_case {
    const char *name;
    fn1 fn;
    ref1 ref;
    double lo, hi;
    tol t32;
    bool int_keeps;     /* integer input keeps its dtype (else it becomes f32) */
    ref1 iref;          /* reference for integer inputs (NULL: same) */
} unary_cases[] = {
    { "neg", wt_neg, r_neg, -10, 10, { 0, 0 }, true, NULL },
    { "abs", wt_abs, r_abs, -10, 10, { 0, 0 }, true, NULL },
    { "exp", wt_exp, r_exp, -10, 10, { 1e-30, 4e-6 }, false, NULL },
    { "log", wt_log, r_log, 0.01, 100, { 4e-6, 4e-6 }, false, NULL },
    { "sqrt", wt_sqrt, r_sqrt, 0, 100, { 1e-30, 4e-6 }, false, NULL },
    { "rsqrt", wt_rsqrt, r_rsqrt, 0.01, 100, { 1e-30, 4e-6 }, false, NULL },
    { "sin", wt_sin, r_sin, -10, 10, { 4e-6, 4e-6 }, false, NULL },
    { "cos", wt_cos, r_cos, -10, 10, { 4e-6, 4e-6 }, false, NULL },
    { "tanh", wt_tanh, r_tanh, -12, 12, { 4e-6, 4e-6 }, false, NULL },
    { "sigmoid", wt_sigmoid, r_sigmoid, -20, 20, { 4e-6, 4e-6 }, false, NULL },
    { "relu", wt_relu, r_relu, -10, 10, { 0, 0 }, true, NULL },
    { "silu", wt_silu, r_silu, -20, 20, { 4e-6, 4e-6 }, false, NULL },
    { "gelu", wt_gelu, r_gelu, -8, 8, { 4e-6, 4e-6 }, false, NULL },
    { "floor", wt_floor, r_floor, -10, 10, { 0, 0 }, true, NULL },
    { "ceil", wt_ceil, r_ceil, -10, 10, { 0, 0 }, true, NULL },
    { "round", wt_round, r_round, -10, 10, { 0, 0 }, true, NULL },
    { "sign", wt_sign, r_sign, -10, 10, { 0, 0 }, true, NULL },
    { "reciprocal", wt_reciprocal, r_recip, 0.1, 10, { 1e-30, 4e-6 }, false, NULL },
    { "clamp", clamp_f, r_clamp, -5, 5, { 0, 0 }, true, r_clamp_i },
};

static const struct binary_case {
    const char *name;
    fn2 fn;
    fn2s fns;
    ref2 ref;
    double alo, ahi, blo, bhi;
    tol t32;
    int kind;          /* 0 arithmetic (keeps dtype), 1 true division, 2 comparison/logical -> bool */
    ref2 iref;
    double wrap;       /* remainder: accept ref +- b */
} binary_cases[] = {
    { "add", wt_add, wt_add_scalar, r_add, -100, 100, -100, 100, { 1e-30, 1.2e-7 }, 0, NULL, 0 },
    { "sub", wt_sub, wt_sub_scalar, r_sub, -100, 100, -100, 100, { 1e-30, 1.2e-7 }, 0, NULL, 0 },
    { "mul", wt_mul, wt_mul_scalar, r_mul, -100, 100, -100, 100, { 1e-30, 1.2e-7 }, 0, NULL, 0 },
    { "div", wt_div, wt_div_scalar, r_div, -100, 100, 0.5, 50, { 1e-30, 3e-7 }, 1, NULL, 0 },
    { "pow", wt_pow, wt_pow_scalar, r_pow, 0.1, 4, -3, 3, { 1e-30, 2e-6 }, 0, r_ipow, 0 },
    { "minimum", wt_minimum, wt_minimum_scalar, r_min, -100, 100, -100, 100, { 0, 0 }, 0, NULL, 0 },
    { "maximum", wt_maximum, wt_maximum_scalar, r_max, -100, 100, -100, 100, { 0, 0 }, 0, NULL, 0 },
    { "remainder", wt_remainder, wt_remainder_scalar, r_rem, -100, 100, 0.5, 9, { 2e-5, 1e-6 }, 0, NULL, 1 },
    { "eq", wt_eq, wt_eq_scalar, r_eq, -3, 3, -3, 3, { 0, 0 }, 2, NULL, 0 },
    { "ne", wt_ne, wt_ne_scalar, r_ne, -3, 3, -3, 3, { 0, 0 }, 2, NULL, 0 },
    { "lt", wt_lt, wt_lt_scalar, r_lt, -3, 3, -3, 3, { 0, 0 }, 2, NULL, 0 },
    { "le", wt_le, wt_le_scalar, r_le, -3, 3, -3, 3, { 0, 0 }, 2, NULL, 0 },
    { "gt", wt_gt, wt_gt_scalar, r_gt, -3, 3, -3, 3, { 0, 0 }, 2, NULL, 0 },
    { "ge", wt_ge, wt_ge_scalar, r_ge, -3, 3, -3, 3, { 0, 0 }, 2, NULL, 0 },
    { "logical_and", wt_logical_and, wt_logical_and_scalar, r_and, -2, 2, -2, 2, { 0, 0 }, 2, NULL, 0 },
    { "logical_or", wt_logical_or, wt_logical_or_scalar, r_or, -2, 2, -2, 2, { 0, 0 }, 2, NULL, 0 },
    { "logical_xor", wt_logical_xor, wt_logical_xor_scalar, r_xor, -2, 2, -2, 2, { 0, 0 }, 2, NULL, 0 },
};

static const int64_t shapes1[][4] = {
    /* ndim, dims... */
    { 1, 1000 }, { 3, 3, 5, 7 }, { 1, 257 }, { 0 }, { 2, 0, 3 }, { 2, 37, 29 },
};

static tol f16_tol(tol t) {
    return (tol){ t.atol > 2e-3 ? t.atol : 2e-3, t.rtol > 2e-3 ? t.rtol : 2e-3 };
}

static input A, B, C;
static bool light;   /* under valgrind: f32/i32 on fewer shapes and layouts */

static void test_unary(wt_context *ctx, wt_dtype dt) {
    for (size_t c = 0; c < sizeof unary_cases / sizeof *unary_cases; c++) {
        const struct unary_case *u = &unary_cases[c];
        bool isf = dt == WT_F32 || dt == WT_F16;
        if (!isf && (dt == WT_U32) && (u->fn == wt_neg))
            continue;   /* u32 negation wraps: checked in test_int_edges */
        for (size_t s = 0; s < sizeof shapes1 / sizeof *shapes1; s++) {
            if (light && s != 1)
                continue;
            int nd = (int)shapes1[s][0];
            double lo = u->lo, hi = u->hi;
            if (dt == WT_U32 && lo < 0)
                lo = 0;
            fill_input(&A, dt, nd, &shapes1[s][1], lo, hi, !isf);
            /* round: keep away from .5 ties in f16 where rounding the input moves them */
            for (int layout = 0; layout < L_COUNT; layout++) {
                if ((layout && nd < 1) || (light && layout == L_TRANSPOSED))
                    continue;
                wt_tensor *a = make_tensor(ctx, dt, &A, layout);
                wt_tensor *o = u->fn(ctx, a);
                char what[96];
                snprintf(what, sizeof what, "%s %s shape#%zu layout %d", u->name, wt_dtype_name(dt), s, layout);
                wt_dtype odt = isf ? dt : u->int_keeps ? dt : WT_F32;
                tol t = dt == WT_F16 ? f16_tol(u->t32) : u->t32;
                if (!isf && !u->int_keeps)
                    t = (tol){ t.atol, t.rtol > 1.2e-7 ? t.rtol : 1.2e-7 };
                const input *ins[1] = { &A };
                compare(ctx, what, o, 1, ins, !isf && u->iref ? u->iref : u->ref, NULL, NULL, t, odt, 0);
                wt_release(a);
                wt_release(o);
            }
        }
    }
}

/* Shape pairs for broadcasting: a, b. */
static const int64_t pairs[][2][5] = {
    { { 1, 1000 }, { 1, 1000 } },
    { { 3, 4, 1, 3 }, { 2, 5, 3 } },
    { { 0 }, { 2, 6, 300 } },
    { { 2, 7, 300 }, { 1, 300 } },
    { { 2, 300, 1 }, { 2, 1, 7 } },
    { { 2, 0, 5 }, { 1, 5 } },
    { { 2, 33, 65 }, { 2, 33, 65 } },
    { { 3, 2, 20, 50 }, { 0 } },          /* vec4 path with a one-element b */
    { { 2, 8, 4 }, { 3, 2, 8, 4 } },      /* vec4 path, a broadcast along dim 0 */
};

static void test_binary(wt_context *ctx, wt_dtype dt) {
    bool isf = dt == WT_F32 || dt == WT_F16;
    for (size_t c = 0; c < sizeof binary_cases / sizeof *binary_cases; c++) {
        const struct binary_case *bc = &binary_cases[c];
        for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p++) {
            if (light && p != 1)
                continue;
            double alo = bc->alo, ahi = bc->ahi, blo = bc->blo, bhi = bc->bhi;
            if (!isf && bc->ref == r_pow) {
                alo = -5, ahi = 6, blo = -2, bhi = 6;
            }
            if (dt == WT_U32) {
                alo = alo < 0 ? 0 : alo;
                blo = blo < 0 ? 0 : blo;
                if (bc->ref == r_pow)
                    blo = 0;
                if (bc->ref == r_sub)
                    alo = 200, ahi = 400;
            }
            if (!isf && bc->ref == r_rem)
                blo = 1;
            fill_input(&A, dt, (int)pairs[p][0][0], &pairs[p][0][1], alo, ahi, !isf);
            fill_input(&B, dt, (int)pairs[p][1][0], &pairs[p][1][1], blo, bhi, !isf);
            if (!isf && bc->ref == r_rem)   /* negative divisors too */
                for (int64_t i = 0; i < B.n; i++)
                    if (dt == WT_I32 && (i & 1))
                        B.v[i] = -B.v[i];
            if (bc->kind == 2)   /* make equality frequent */
                for (int64_t i = 0; i < A.n; i++)
                    A.v[i] = round_to(dt, floor(A.v[i]));
            for (int layout = 0; layout < L_COUNT; layout++) {
                if (light && layout != L_STRIDED)
                    continue;
                wt_tensor *a = make_tensor(ctx, dt, &A, layout);
                wt_tensor *b = make_tensor(ctx, dt, &B, (layout + 1) % L_COUNT);
                wt_tensor *o = bc->fn(ctx, a, b);
                char what[96];
                snprintf(what, sizeof what, "%s %s pair#%zu layout %d", bc->name, wt_dtype_name(dt), p, layout);
                wt_dtype odt = bc->kind == 2 ? WT_BOOL : bc->kind == 1 && !isf ? WT_F32 : dt;
                tol t = dt == WT_F16 && bc->kind != 2 ? f16_tol(bc->t32) : bc->t32;
                const input *ins[2] = { &A, &B };
                compare(ctx, what, o, 2, ins, NULL, !isf && bc->iref ? bc->iref : bc->ref, NULL, t, odt,
                        bc->wrap);
                wt_release(a);
                wt_release(b);
                wt_release(o);
            }
        }
        /* scalar operand */
        fill_input(&A, dt, 2, (const int64_t[]){ 17, 20 }, dt == WT_U32 && bc->alo < 0 ? 0 : bc->alo, bc->ahi, !isf);
        double s = isf ? 2.0 : 3.0;
        if (bc->ref == r_sub && dt == WT_U32)
            for (int64_t i = 0; i < A.n; i++)
                A.v[i] += 5;
        B.ndim = 0, B.n = 1, B.v[0] = s;
        wt_tensor *a = make_tensor(ctx, dt, &A, L_TRANSPOSED);
        wt_tensor *o = bc->fns(ctx, a, s);
        char what[96];
        snprintf(what, sizeof what, "%s_scalar %s", bc->name, wt_dtype_name(dt));
        wt_dtype odt = bc->kind == 2 ? WT_BOOL : bc->kind == 1 && !isf ? WT_F32 : dt;
        tol t = dt == WT_F16 && bc->kind != 2 ? f16_tol(bc->t32) : bc->t32;
        const input *ins[2] = { &A, &B };
        compare(ctx, what, o, 2, ins, NULL, !isf && bc->iref ? bc->iref : bc->ref, NULL, t, odt, bc->wrap);
        wt_release(o);
        wt_release(a);
        /* and on a contiguous input (the vec4 path with a scalar operand) */
        a = make_tensor(ctx, dt, &A, L_CONTIG);
        o = bc->fns(ctx, a, s);
        snprintf(what, sizeof what, "%s_scalar %s contiguous", bc->name, wt_dtype_name(dt));
        compare(ctx, what, o, 2, ins, NULL, !isf && bc->iref ? bc->iref : bc->ref, NULL, t, odt, bc->wrap);
        wt_release(o);
        wt_release(a);
    }
}

/* more than 65535 workgroups: the 2-D grid must cover every element exactly once */
static void test_big_grid(wt_context *ctx) {
    int64_t n = 65537 * 256 - 3;
    wt_tensor *x = wt_arange(ctx, WT_I32, 0, (double)n, 1);
    wt_tensor *y = wt_neg(ctx, x);
    int32_t *h = malloc((size_t)n * 4);
    CHECK(y && wt_to_host(ctx, y, h, (size_t)n * 4) == WT_OK);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++)
        bad += h[i] != -(int32_t)i;
    CHECK_EQ_INT(bad, 0);
    free(h);
    wt_release(x);
    wt_release(y);
}

static void test_mixed(wt_context *ctx) {
    /* promotion: i32 + f32 -> f32, u32 + i32 -> i32, bool + f32 -> f32 via where, f16 + f32 -> f32 */
    fill_input(&A, WT_I32, 1, (const int64_t[]){ 300 }, -50, 50, true);
    fill_input(&B, WT_F32, 2, (const int64_t[]){ 2, 300 }, -5, 5, false);
    wt_tensor *a = make_tensor(ctx, WT_I32, &A, 0), *b = make_tensor(ctx, WT_F32, &B, 0);
    wt_tensor *o = wt_mul(ctx, a, b);
    const input *ins[3] = { &A, &B, &C };
    compare(ctx, "i32*f32", o, 2, ins, NULL, r_mul, NULL, (tol){ 1e-30, 1.2e-7 }, WT_F32, 0);
    wt_release(o);
    o = wt_add_scalar(ctx, a, 0.5);   /* non-integral scalar: f32 */
    B.ndim = 0, B.n = 1, B.v[0] = 0.5;
    compare(ctx, "i32+0.5", o, 2, ins, NULL, r_add, NULL, (tol){ 0, 0 }, WT_F32, 0);
    wt_release(o);
    o = wt_add_scalar(ctx, a, 2);     /* integral scalar: stays i32 */
    B.v[0] = 2;
    compare(ctx, "i32+2", o, 2, ins, NULL, r_add, NULL, (tol){ 0, 0 }, WT_I32, 0);
    wt_release(o);
    wt_release(b);
    /* where with broadcasting of all three and a non-bool condition */
    fill_input(&C, WT_F32, 2, (const int64_t[]){ 4, 1 }, -1, 1, true);   /* cond: -1, 0 */
    fill_input(&B, WT_F32, 1, (const int64_t[]){ 300 }, -5, 5, false);
    wt_tensor *c = make_tensor(ctx, WT_F32, &C, 0);
    b = make_tensor(ctx, WT_F32, &B, L_STRIDED);
    o = wt_where(ctx, c, a, b);
    const input *wins[3] = { &C, &A, &B };
    compare(ctx, "where", o, 3, wins, NULL, NULL, r_where, (tol){ 0, 0 }, WT_F32, 0);
    wt_release(o);
    /* logical_not on f32 and i32; cast both ways */
    o = wt_logical_not(ctx, c);
    const input *cins[1] = { &C };
    compare(ctx, "logical_not f32", o, 1, cins, r_not, NULL, NULL, (tol){ 0, 0 }, WT_BOOL, 0);
    wt_tensor *ob = o;
    o = wt_cast(ctx, ob, WT_F32);   /* bool -> f32 */
    for (int64_t i = 0; i < C.n; i++)
        C.v[i] = C.v[i] == 0;
    compare(ctx, "cast bool->f32", o, 1, cins, r_id, NULL, NULL, (tol){ 0, 0 }, WT_F32, 0);
    wt_release(o);
    wt_release(ob);
    o = wt_logical_not(ctx, a);
    const input *ains[1] = { &A };
    compare(ctx, "logical_not i32", o, 1, ains, r_not, NULL, NULL, (tol){ 0, 0 }, WT_BOOL, 0);
    wt_release(o);
    fill_input(&B, WT_F32, 2, (const int64_t[]){ 20, 30 }, -300, 300, false);
    wt_release(b);
    b = make_tensor(ctx, WT_F32, &B, L_TRANSPOSED);
    o = wt_cast(ctx, b, WT_I32);
    const input *bins[1] = { &B };
    compare(ctx, "cast f32->i32", o, 1, bins, trunc, NULL, NULL, (tol){ 0, 0 }, WT_I32, 0);
    wt_release(o);
    o = wt_cast(ctx, b, WT_BOOL);
    compare(ctx, "cast f32->bool", o, 1, bins, r_truthy, NULL, NULL, (tol){ 0, 0 }, WT_BOOL, 0);
    wt_release(o);
    wt_release(a);
    wt_release(b);
    wt_release(c);
}

#include <time.h>
static double now_s(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
#define PHASE(x) do { double t0_ = now_s(); x; printf("%-28s %.2f s\n", #x, now_s() - t0_); } while (0)
int main(void) {
    tt_fixture f;
    wt_context *ctx = tt_init(&f, NULL);
    light = test_under_valgrind();
    if (light)
        printf("note: under valgrind: f32 and i32 on fewer shapes and layouts\n");
    PHASE(test_unary(ctx, WT_F32));
    PHASE(test_unary(ctx, WT_I32));
    PHASE(test_binary(ctx, WT_F32));
    if (!light) {
        PHASE(test_binary(ctx, WT_I32));
        PHASE(test_binary(ctx, WT_U32));
        if (wt_context_has_f16(ctx)) {
            PHASE(test_unary(ctx, WT_F16));
            PHASE(test_binary(ctx, WT_F16));
        } else {
            printf("note: no shader-f16 on this adapter; f16 cases not run\n");
        }
    }
    PHASE(test_mixed(ctx));
    if (!light)
        PHASE(test_big_grid(ctx));
    wt_stats st;
    wt_get_stats(ctx, &st);
    printf("kernels compiled %llu, ops %llu, flushes %llu\n", (unsigned long long)st.kernels_compiled,
           (unsigned long long)st.ops, (unsigned long long)st.flushes);
    tt_end(&f);
    return test_end();
}
