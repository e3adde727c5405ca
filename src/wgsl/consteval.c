/* consteval.c - evaluation of constant values: rounding into f32/f16, range-checked integers,
 * conversions, bitcasts, every unary and binary operator (component-wise over vectors, the matrix
 * products), indexing, swizzles and members.
 *
 * Scalars are computed exactly in wider C types and then checked: integer results in int64 (32-bit
 * operands cannot overflow it; abstract-int uses the compiler's overflow builtins), float results in
 * double and then rounded to the target with round-to-nearest-even (a double result of one f32/f16
 * operation rounds to the same value as the exact result would, since double has more than twice the
 * precision).  A non-finite result or one outside the integer range is the spec's shader-creation
 * error for const-expressions; the message names the operation as Tint does. */
#include "wgsl/value.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const unop_strs[CV_UNOP_COUNT] = {
#define X(n, s) s,
    CV_UNOPS(X)
#undef X
};
static const char *const binop_strs[CV_BINOP_COUNT] = {
#define X(n, s) s,
    CV_BINOPS(X)
#undef X
};
_Static_assert(sizeof unop_strs / sizeof unop_strs[0] == CV_UNOP_COUNT, "unop table");
_Static_assert(sizeof binop_strs / sizeof binop_strs[0] == CV_BINOP_COUNT, "binop table");

const char *cv_unop_str(cv_unop op) { return op < CV_UNOP_COUNT ? unop_strs[op] : "?"; }
const char *cv_binop_str(cv_binop op) { return op < CV_BINOP_COUNT ? binop_strs[op] : "?"; }

static int fail(cv_ctx *cx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
#include <stdarg.h>
static int fail(cv_ctx *cx, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cx->msg, sizeof cx->msg, fmt, ap);
    va_end(ap);
    return CV_ERROR;
}

static cv_value *alloc_elems(cv_ctx *cx, uint32_t n) {
    if (cx->tt->oom) return NULL;
    cv_value *p = cx->tt->alloc(cx->tt->ud, (n ? n : 1) * sizeof *p);
    if (!p) { cx->tt->oom = true; return NULL; }
    memset(p, 0, (n ? n : 1) * sizeof *p);
    return p;
}
#define OOM(cx) fail((cx), "out of memory")

/* ---- float formats ---------------------------------------------------------------------------- */

/* Rounds |a| to `mant` significant bits with quantum at least 2^minq; inf when above `max`. */
static double round_fmt(double v, int mant, int minq, double max) {
    if (isnan(v) || isinf(v) || v == 0) return v;
    double a = fabs(v);
    int e;
    (void)frexp(a, &e);
    int q = e - mant;
    if (q < minq) q = minq;
    double r = ldexp(nearbyint(ldexp(a, -q)), q);
    if (r > max) r = INFINITY;
    return copysign(r, v);
}

/* Rounds |v| toward zero to `mant` significant bits with quantum at least 2^minq. */
static double trunc_fmt(double v, int mant, int minq) {
    if (isnan(v) || isinf(v) || v == 0) return v;
    double a = fabs(v);
    int e;
    (void)frexp(a, &e);
    int q = e - mant;
    if (q < minq) q = minq;
    return copysign(ldexp(floor(ldexp(a, -q)), q), v);
}

double cv_quantize_f16(double v) { return fabs(v) > 65504.0 ? copysign(INFINITY, v) : trunc_fmt(v, 11, -24); }

double cv_round_f32(double v) { return round_fmt(v, 24, -149, (double)FLT_MAX); }
double cv_round_f16(double v) { return round_fmt(v, 11, -24, 65504.0); }

double cv_round_result(ty_t t, double r) {
    if (t == TY_F32) return cv_round_f32(r);
    if (t == TY_F16) {
        double x = cv_round_f32(r);                  /* f16 arithmetic happens in f32, then converts */
        return cv_quantize_f16(x);
    }
    return r;
}

double cv_round_convert(ty_t t, double v) {
    if (t == TY_F32) return fabs(v) > (double)FLT_MAX ? copysign(INFINITY, v) : cv_round_f32(v);
    if (t == TY_F16) return cv_quantize_f16(v);
    return v;
}

uint16_t cv_f16_bits(double v) {
    uint16_t s = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isnan(v)) return 0x7e00;
    if (isinf(v)) return s | 0x7c00;
    if (a == 0) return s;
    if (a < ldexp(1.0, -14)) return s | (uint16_t)ldexp(a, 24);
    int e;
    double m = frexp(a, &e);                      /* a = m * 2^e, m in [0.5, 1) */
    uint16_t exp = (uint16_t)(e - 1 + 15);
    uint16_t frac = (uint16_t)ldexp(m * 2 - 1, 10);
    return s | (uint16_t)(exp << 10) | frac;
}

double cv_f16_from_bits(uint16_t h) {
    int s = h >> 15, e = (h >> 10) & 31, f = h & 1023;
    double v;
    if (e == 31) v = f ? NAN : INFINITY;
    else if (e == 0) v = ldexp(f, -24);
    else v = ldexp(1024 + f, e - 25);
    return s ? -v : v;
}

uint32_t cv_f32_bits(double v) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static double f32_from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint32_t cv_bits32(const cv_value *v) {
    switch (v->type) {
    case TY_BOOL: return v->u.b ? 1 : 0;
    case TY_I32: case TY_U32: case TY_AINT: return (uint32_t)v->u.i;
    case TY_F32: case TY_AFLOAT: return cv_f32_bits(v->u.f);
    case TY_F16: return cv_f16_bits(v->u.f);
    default: return 0;
    }
}

/* ---- formatting ------------------------------------------------------------------------------- */

/* Floats print as Tint prints them: fixed notation with up to 20 decimals (trailing zeros dropped,
 * at least one kept) when that text is at most 63 characters and reads back as the same value of the
 * type; otherwise the shortest-enough scientific form (%.17g, %.9g for f32, %.5g for f16). */
static void fmt_float(double v, ty_t t, char *buf, unsigned size) {
    if (isnan(v)) { snprintf(buf, size, "nan"); return; }
    if (isinf(v)) { snprintf(buf, size, v < 0 ? "-inf" : "inf"); return; }
    char fx[400];
    int n = snprintf(fx, sizeof fx, "%.20f", v);
    bool ok = n > 0 && n <= 63;
    if (ok) {
        double back = strtod(fx, NULL);
        if (t == TY_F32) back = cv_round_f32(back);
        else if (t == TY_F16) back = cv_round_f16(back);
        ok = back == v;
    }
    if (ok) {
        size_t l = strlen(fx);
        while (l > 0 && fx[l - 1] == '0') l--;
        if (l > 0 && fx[l - 1] == '.') l++;          /* keep one zero: "10.0" */
        fx[l] = 0;
        snprintf(buf, size, "%s", fx);
        return;
    }
    snprintf(buf, size, "%.*g", t == TY_F32 ? 9 : t == TY_F16 ? 5 : 17, v);
}

const char *cv_format(const ty_table *tt, const cv_value *v, char *buf, unsigned size) {
    if (!size) return buf;
    buf[0] = 0;
    switch (v->type) {
    case TY_BOOL: snprintf(buf, size, "%s", v->u.b ? "true" : "false"); return buf;
    case TY_AINT: case TY_I32: case TY_U32: snprintf(buf, size, "%" PRId64, v->u.i); return buf;
    case TY_AFLOAT: case TY_F32: case TY_F16: fmt_float(v->u.f, v->type, buf, size); return buf;
    default: break;
    }
    unsigned pos = 0;
    const ty_info *r = ty_get(tt, v->type);
    const char *head = r->kind == TY_VEC ? "vec" : r->kind == TY_MAT ? "mat" : r->kind == TY_ARRAY ? "array" :
                       r->kind == TY_STRUCT && r->name ? r->name : "?";
    pos += (unsigned)snprintf(buf + pos, size - pos, "%s(", head);
    if (!v->u.elems) {                    /* an unbuilt zero array: its constructor */
        snprintf(buf, size, "array()");
        return buf;
    }
    for (uint32_t i = 0; i < v->n && pos + 1 < size; i++) {
        if (i) pos += (unsigned)snprintf(buf + pos, size - pos, ", ");
        if (pos + 1 >= size) break;
        cv_format(tt, &v->u.elems[i], buf + pos, size - pos);
        pos += (unsigned)strlen(buf + pos);
    }
    if (pos + 1 < size) snprintf(buf + pos, size - pos, ")");
    return buf;
}

/* ---- scalar makers ---------------------------------------------------------------------------- */

static bool int_in_range(ty_t t, int64_t v) {
    if (t == TY_I32) return v >= INT32_MIN && v <= INT32_MAX;
    if (t == TY_U32) return v >= 0 && v <= (int64_t)UINT32_MAX;
    return true;
}

int cv_make_int(cv_ctx *cx, ty_t t, int64_t v, const char *what, cv_value *out) {
    if (!int_in_range(t, v)) {
        if (what) return fail(cx, "'%s' cannot be represented as '%s'", what, ty_name(cx->tt, t));
        return fail(cx, "value %" PRId64 " cannot be represented as '%s'", v, ty_name(cx->tt, t));
    }
    *out = cv_int(t, v);
    return CV_OK;
}

int cv_make_float(cv_ctx *cx, ty_t t, double v, const char *what, cv_value *out) {
    double r = cv_round_convert(t, v);
    if (!isfinite(r)) {
        if (what) return fail(cx, "'%s' cannot be represented as '%s'", what, ty_name(cx->tt, t));
        char b[64];
        fmt_float(v, TY_AFLOAT, b, sizeof b);
        return fail(cx, "value %s cannot be represented as '%s'", b, ty_name(cx->tt, t));
    }
    *out = cv_float(t, r == 0 ? copysign(0.0, v) : r);
    return CV_OK;
}

/* ---- composites ------------------------------------------------------------------------------- */

static uint32_t elem_count(const ty_table *tt, ty_t t) {
    const ty_info *r = ty_get(tt, t);
    switch ((ty_kind)r->kind) {
    case TY_VEC: case TY_MAT: return r->n;
    case TY_ARRAY: return r->array_kind == TY_ARRAY_FIXED ? r->count : 0;
    case TY_STRUCT: return r->nmembers;
    default: return 0;
    }
}

static ty_t elem_type(ty_table *tt, ty_t t, uint32_t i) {
    const ty_info *r = ty_get(tt, t);
    switch ((ty_kind)r->kind) {
    case TY_VEC: case TY_ARRAY: return r->elem;
    case TY_MAT: return ty_mat_column(tt, t);
    case TY_STRUCT: return i < r->nmembers ? r->members[i].type : 0;
    default: return 0;
    }
}

static bool is_composite(const ty_table *tt, ty_t t) {
    ty_kind k = ty_kind_of(tt, t);
    return k == TY_VEC || k == TY_MAT || k == TY_ARRAY || k == TY_STRUCT;
}

int cv_composite(cv_ctx *cx, ty_t t, const cv_value *elems, uint32_t n, cv_value *out) {
    if (n != elem_count(cx->tt, t)) return fail(cx, "wrong number of components for '%s'", ty_name(cx->tt, t));
    cv_value *e = alloc_elems(cx, n);
    if (!e) return OOM(cx);
    memcpy(e, elems, n * sizeof *e);
    out->type = t;
    out->n = n;
    out->u.elems = e;
    return CV_OK;
}

int cv_splat(cv_ctx *cx, ty_t vec_t, const cv_value *s, cv_value *out) {
    uint32_t n = elem_count(cx->tt, vec_t);
    cv_value *e = alloc_elems(cx, n);
    if (!e) return OOM(cx);
    for (uint32_t i = 0; i < n; i++) e[i] = *s;
    out->type = vec_t;
    out->n = n;
    out->u.elems = e;
    return CV_OK;
}

int cv_zero(cv_ctx *cx, ty_t t, cv_value *out) {
    if (ty_is_scalar(cx->tt, t)) {
        if (t == TY_BOOL) *out = cv_bool(false);
        else if (ty_is_float_scalar(cx->tt, t)) *out = cv_float(t, 0.0);
        else *out = cv_int(t, 0);
        return CV_OK;
    }
    if (ty_kind_of(cx->tt, t) == TY_ATOMIC) { *out = cv_int(ty_elem(cx->tt, t), 0); out->type = t; return CV_OK; }
    if (!is_composite(cx->tt, t) || !ty_is_constructible(cx->tt, t))
        return fail(cx, "type '%s' has no zero value", ty_name(cx->tt, t));
    uint32_t n = elem_count(cx->tt, t);
    if (ty_kind_of(cx->tt, t) == TY_ARRAY && n > CV_ZERO_BUILT_MAX) {
        out->type = t;                    /* unbuilt: cost independent of n (see value.h) */
        out->n = n;
        out->u.elems = NULL;
        return CV_OK;
    }
    cv_value *e = alloc_elems(cx, n);
    if (!e) return OOM(cx);
    /* values are immutable, so vector/matrix/array elements share one zero value (an array of
     * arrays costs one element per level, not the product of the counts) */
    bool same = ty_kind_of(cx->tt, t) != TY_STRUCT;
    for (uint32_t i = 0; i < n; i++) {
        if (same && i > 0) { e[i] = e[0]; continue; }
        if (cv_zero(cx, elem_type(cx->tt, t, i), &e[i])) return CV_ERROR;
    }
    out->type = t;
    out->n = n;
    out->u.elems = e;
    return CV_OK;
}

const cv_value *cv_elem(cv_ctx *cx, const cv_value *v, uint32_t i, cv_value *tmp) {
    if (v->u.elems) return &v->u.elems[i];
    if (cv_zero(cx, elem_type(cx->tt, v->type, i), tmp)) return NULL;
    return tmp;
}

/* Applies f to each element pair, building a composite of type rt. */
typedef int (*map_fn)(cv_ctx *cx, const cv_value *a, const cv_value *b, ty_t rt, void *ud, cv_value *out);

static int map2(cv_ctx *cx, ty_t rt, const cv_value *a, const cv_value *b, map_fn f, void *ud, cv_value *out) {
    uint32_t n = a->n;
    cv_value *e = alloc_elems(cx, n);
    if (!e) return OOM(cx);
    for (uint32_t i = 0; i < n; i++) {
        if (f(cx, &a->u.elems[i], b ? &b->u.elems[i] : NULL, elem_type(cx->tt, rt, i), ud, &e[i]))
            return CV_ERROR;
    }
    out->type = rt;
    out->n = n;
    out->u.elems = e;
    return CV_OK;
}

/* ---- conversions ------------------------------------------------------------------------------ */

static int conv_scalar(cv_ctx *cx, const cv_value *v, ty_t to, bool explicit_, cv_value *out) {
    ty_t from = v->type;
    ty_table *tt = cx->tt;
    if (from == to) { *out = *v; return CV_OK; }
    if (to == TY_BOOL) {
        if (!explicit_) goto bad;
        *out = cv_bool(ty_is_float_scalar(tt, from) ? v->u.f != 0 : v->u.i != 0);
        return CV_OK;
    }
    if (from == TY_BOOL) {
        if (!explicit_) goto bad;
        if (ty_is_float_scalar(tt, to)) *out = cv_float(to, v->u.b ? 1.0 : 0.0);
        else *out = cv_int(to, v->u.b ? 1 : 0);
        return CV_OK;
    }
    if (ty_is_integer_scalar(tt, to)) {
        if (ty_is_integer_scalar(tt, from)) {
            if (from == TY_AINT) return cv_make_int(cx, to, v->u.i, NULL, out);
            if (!explicit_) goto bad;
            if (to == TY_AINT) goto bad;
            /* i32 <-> u32: bit reinterpretation */
            *out = cv_int(to, to == TY_I32 ? (int64_t)(int32_t)(uint32_t)v->u.i : (int64_t)(uint32_t)v->u.i);
            return CV_OK;
        }
        if (!explicit_ || to == TY_AINT) goto bad;
        /* float -> int: truncate toward zero, saturate to the destination range */
        double t = trunc(v->u.f);
        double lo = to == TY_I32 ? -2147483648.0 : 0.0;
        double hi = to == TY_I32 ? 2147483647.0 : 4294967295.0;
        if (from == TY_F32) hi = to == TY_I32 ? 2147483520.0 : 4294967040.0;  /* largest f32 below */
        if (from == TY_F16) hi = 65504.0;
        if (t < lo) t = lo;
        if (t > hi) t = hi;
        *out = cv_int(to, (int64_t)t);
        return CV_OK;
    }
    if (ty_is_float_scalar(tt, to)) {
        if (ty_is_integer_scalar(tt, from)) {
            if (from != TY_AINT && !explicit_) goto bad;
            if (!isfinite(cv_round_convert(to, (double)v->u.i)))
                return fail(cx, "value %" PRId64 " cannot be represented as '%s'", v->u.i, ty_name(tt, to));
            return cv_make_float(cx, to, (double)v->u.i, NULL, out);
        }
        if (from != TY_AFLOAT && !explicit_) goto bad;
        if (to == TY_AFLOAT) goto bad;
        return cv_make_float(cx, to, v->u.f, NULL, out);
    }
bad:
    return fail(cx, "cannot convert value of type '%s' to type '%s'", ty_name(tt, from), ty_name(tt, to));
}

static int conv_any(cv_ctx *cx, const cv_value *v, ty_t to, bool explicit_, cv_value *out);


static int conv_any(cv_ctx *cx, const cv_value *v, ty_t to, bool explicit_, cv_value *out) {
    if (v->type == to) { *out = *v; return CV_OK; }
    if (ty_is_scalar(cx->tt, v->type) && ty_is_scalar(cx->tt, to)) return conv_scalar(cx, v, to, explicit_, out);
    const ty_info *a = ty_get(cx->tt, v->type), *b = ty_get(cx->tt, to);
    bool shape_ok = a->kind == b->kind && elem_count(cx->tt, v->type) == elem_count(cx->tt, to) &&
                    (a->kind != TY_MAT || a->rows == b->rows) &&
                    (a->kind == TY_VEC || a->kind == TY_MAT || a->kind == TY_ARRAY ||
                     (a->kind == TY_STRUCT && a->builtin_struct && a->builtin_struct == b->builtin_struct));
    if (!shape_ok)
        return fail(cx, "cannot convert value of type '%s' to type '%s'", ty_name(cx->tt, v->type),
                    ty_name(cx->tt, to));
    /* convert every component; like Tint, the last failure is the one reported */
    uint32_t n = v->n;
    cv_value *e = alloc_elems(cx, n);
    if (!e) return OOM(cx);
    int st = CV_OK;
    char last[sizeof cx->msg];
    for (uint32_t i = 0; i < n; i++) {
        if (conv_any(cx, &v->u.elems[i], elem_type(cx->tt, to, i), explicit_, &e[i])) {
            st = CV_ERROR;
            memcpy(last, cx->msg, sizeof last);
        }
    }
    if (st) {
        memcpy(cx->msg, last, sizeof last);
        return CV_ERROR;
    }
    out->type = to;
    out->n = n;
    out->u.elems = e;
    return CV_OK;
}

int cv_convert_implicit(cv_ctx *cx, const cv_value *v, ty_t to, cv_value *out) {
    return conv_any(cx, v, to, false, out);
}

int cv_convert_explicit(cv_ctx *cx, const cv_value *v, ty_t to, cv_value *out) {
    return conv_any(cx, v, to, true, out);
}

/* Flattens a scalar/vector value into 16-bit units (little-endian order). */
static uint32_t to_halves(const cv_value *v, uint16_t *h) {
    const cv_value *c = v->n ? v->u.elems : v;
    uint32_t n = v->n ? v->n : 1, k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (c[i].type == TY_F16) h[k++] = cv_f16_bits(c[i].u.f);
        else { uint32_t b = cv_bits32(&c[i]); h[k++] = (uint16_t)b; h[k++] = (uint16_t)(b >> 16); }
    }
    return k;
}

int cv_bitcast(cv_ctx *cx, const cv_value *v, ty_t to, cv_value *out) {
    ty_table *tt = cx->tt;
    cv_value src = *v;
    if (ty_is_abstract(tt, v->type)) {
        if (conv_any(cx, v, ty_concretize(tt, v->type), false, &src)) return CV_ERROR;
    }
    uint16_t h[8];
    uint32_t nh = to_halves(&src, h);
    ty_t ts = ty_scalar_of(tt, to);
    uint32_t n = ty_width(tt, to);
    uint32_t need = ts == TY_F16 ? n : 2 * n;
    if (need != nh || !ts || ts == TY_BOOL || ty_is_abstract(tt, ts))
        return fail(cx, "no matching call to 'bitcast<%s>(%s)'", ty_name(tt, to), ty_name(tt, v->type));
    cv_value comps[4];
    for (uint32_t i = 0, k = 0; i < n; i++) {
        if (ts == TY_F16) {
            double d = cv_f16_from_bits(h[k++]);
            if (!isfinite(d)) return fail(cx, "value %s cannot be represented as 'f16'", isnan(d) ? "nan" : "inf");
            comps[i] = cv_float(TY_F16, d);
        } else {
            uint32_t b = (uint32_t)h[k] | (uint32_t)h[k + 1] << 16;
            k += 2;
            if (ts == TY_F32) {
                double d = f32_from_bits(b);
                if (!isfinite(d)) return fail(cx, "value %s cannot be represented as 'f32'", isnan(d) ? "nan" : "inf");
                comps[i] = cv_float(TY_F32, d);
            } else {
                comps[i] = cv_int(ts, ts == TY_I32 ? (int64_t)(int32_t)b : (int64_t)b);
            }
        }
    }
    if (n == 1) { *out = comps[0]; return CV_OK; }
    return cv_composite(cx, to, comps, n, out);
}

/* ---- scalar operators ------------------------------------------------------------------------- */

static const char *opexpr(cv_ctx *cx, const cv_value *a, const char *op, const cv_value *b, char *buf, unsigned n) {
    char x[64], y[64];
    cv_format(cx->tt, a, x, sizeof x);
    cv_format(cx->tt, b, y, sizeof y);
    snprintf(buf, n, "%s %s %s", x, op, y);
    return buf;
}

static int overflow(cv_ctx *cx, const cv_value *a, cv_binop op, const cv_value *b, ty_t t) {
    char e[160];
    return fail(cx, "'%s' cannot be represented as '%s'", opexpr(cx, a, cv_binop_str(op), b, e, sizeof e),
                ty_name(cx->tt, t));
}

static int64_t wrap32(ty_t t, int64_t v) {
    return t == TY_I32 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)(uint32_t)v;
}

static int int_binop(cv_ctx *cx, cv_binop op, const cv_value *a, const cv_value *b, cv_value *out) {
    ty_t t = a->type;
    int64_t x = a->u.i, y = b->u.i, r = 0;
    bool ab = t == TY_AINT;
    unsigned bits = ab ? 64 : 32;
    int64_t minv = t == TY_AINT ? INT64_MIN : t == TY_I32 ? INT32_MIN : 0;
    switch (op) {
    /* i32/u32 +, -, * wrap (two's complement) even in const-expressions; abstract-int overflows */
    case CV_ADD:
        if (!ab) { r = wrap32(t, (int64_t)((uint64_t)x + (uint64_t)y)); break; }
        if (__builtin_add_overflow(x, y, &r)) return overflow(cx, a, op, b, t);
        break;
    case CV_SUB:
        if (!ab) { r = wrap32(t, (int64_t)((uint64_t)x - (uint64_t)y)); break; }
        if (__builtin_sub_overflow(x, y, &r)) return overflow(cx, a, op, b, t);
        break;
    case CV_MUL:
        if (!ab) { r = wrap32(t, (int64_t)((uint64_t)x * (uint64_t)y)); break; }
        if (__builtin_mul_overflow(x, y, &r)) return overflow(cx, a, op, b, t);
        break;
    case CV_DIV: case CV_MOD:
        if (y == 0) return fail(cx, "integer division by zero is invalid");
        if (t != TY_U32 && x == minv && y == -1) return overflow(cx, a, op, b, t);
        r = op == CV_DIV ? x / y : x % y;
        break;
    case CV_AND: r = x & y; break;
    case CV_OR: r = x | y; break;
    case CV_XOR: r = x ^ y; break;
    case CV_SHL: case CV_SHR: {
        /* the count is a u32: a negative (abstract) count cannot convert to it */
        if (y < 0) return fail(cx, "value %" PRId64 " cannot be represented as 'u32'", y);
        uint64_t c = (uint64_t)y;
        if (ab) {
            /* abstract-int: >> of 64 or more is the sign; << must not lose bits */
            if (op == CV_SHR) { r = c >= 64 ? (x < 0 ? -1 : 0) : (x < 0 ? ~(~x >> c) : x >> c); break; }
            if (x == 0) { r = 0; break; }
            if (c >= 64) return overflow(cx, a, op, b, t);
            if (c == 0) { r = x; break; }
            int64_t top = x < 0 ? ~(~x >> (63 - c)) : x >> (63 - c);   /* the c+1 top bits */
            if (top != 0 && top != -1) return fail(cx, "shift left operation results in sign change");
            r = (int64_t)((uint64_t)x << c);
            break;
        }
        if (y < 0 || c >= bits)
            return fail(cx, "shift %s value must be less than the bit width of the lhs, which is %u",
                        op == CV_SHL ? "left" : "right", bits);
        if (op == CV_SHR) {
            r = t == TY_U32 ? (int64_t)((uint64_t)x >> c) : (x < 0 ? ~(~x >> c) : x >> c);
            break;
        }
        r = (int64_t)((uint64_t)x << c);
        if (t == TY_I32 && (r < INT32_MIN || r > INT32_MAX))
            return fail(cx, "shift left operation results in sign change");
        if (t == TY_U32 && r > (int64_t)UINT32_MAX) return overflow(cx, a, op, b, t);
        break;
    }
    case CV_EQ: *out = cv_bool(x == y); return CV_OK;
    case CV_NE: *out = cv_bool(x != y); return CV_OK;
    case CV_LT: *out = cv_bool(x < y); return CV_OK;
    case CV_LE: *out = cv_bool(x <= y); return CV_OK;
    case CV_GT: *out = cv_bool(x > y); return CV_OK;
    case CV_GE: *out = cv_bool(x >= y); return CV_OK;
    default:
        return fail(cx, "no operator '%s' for '%s'", cv_binop_str(op), ty_name(cx->tt, t));
    }
    if (!int_in_range(t, r)) return overflow(cx, a, op, b, t);
    *out = cv_int(t, r);
    return CV_OK;
}

static int float_binop(cv_ctx *cx, cv_binop op, const cv_value *a, const cv_value *b, cv_value *out) {
    ty_t t = a->type;
    double x = a->u.f, y = b->u.f, r;
    switch (op) {
    case CV_ADD: r = x + y; break;
    case CV_SUB: r = x - y; break;
    case CV_MUL: r = x * y; break;
    case CV_DIV: r = x / y; break;
    case CV_MOD: {
        /* e1 - e2 * trunc(e1 / e2), each step in the type's precision (as Tint; not fmod) */
        double q = cv_round_result(t, x / y);
        double p = cv_round_result(t, y * trunc(q));
        r = x - p;
        break;
    }
    case CV_EQ: *out = cv_bool(x == y); return CV_OK;
    case CV_NE: *out = cv_bool(x != y); return CV_OK;
    case CV_LT: *out = cv_bool(x < y); return CV_OK;
    case CV_LE: *out = cv_bool(x <= y); return CV_OK;
    case CV_GT: *out = cv_bool(x > y); return CV_OK;
    case CV_GE: *out = cv_bool(x >= y); return CV_OK;
    default:
        return fail(cx, "no operator '%s' for '%s'", cv_binop_str(op), ty_name(cx->tt, t));
    }
    double rr = cv_round_result(t, r);
    if (!isfinite(rr)) return overflow(cx, a, op, b, t);
    *out = cv_float(t, rr);
    return CV_OK;
}

static int bool_binop(cv_ctx *cx, cv_binop op, const cv_value *a, const cv_value *b, cv_value *out) {
    bool x = a->u.b, y = b->u.b;
    switch (op) {
    case CV_AND: case CV_LAND: *out = cv_bool(x && y); return CV_OK;
    case CV_OR: case CV_LOR: *out = cv_bool(x || y); return CV_OK;
    case CV_XOR: case CV_NE: *out = cv_bool(x != y); return CV_OK;
    case CV_EQ: *out = cv_bool(x == y); return CV_OK;
    default: return fail(cx, "no operator '%s' for 'bool'", cv_binop_str(op));
    }
}

static int scalar_binop(cv_ctx *cx, cv_binop op, const cv_value *a, const cv_value *b, cv_value *out) {
    ty_t t = a->type;
    bool shift = op == CV_SHL || op == CV_SHR;
    if (!shift && a->type != b->type)
        return fail(cx, "no operator '%s' for '%s' and '%s'", cv_binop_str(op), ty_name(cx->tt, a->type),
                    ty_name(cx->tt, b->type));
    if (t == TY_BOOL) return bool_binop(cx, op, a, b, out);
    if (ty_is_float_scalar(cx->tt, t)) return float_binop(cx, op, a, b, out);
    if (ty_is_integer_scalar(cx->tt, t)) {
        if (shift && !ty_is_integer_scalar(cx->tt, b->type))
            return fail(cx, "shift count must be an integer");
        return int_binop(cx, op, a, b, out);
    }
    return fail(cx, "no operator '%s' for '%s'", cv_binop_str(op), ty_name(cx->tt, t));
}

/* ---- composite operators ---------------------------------------------------------------------- */

static bool is_cmp(cv_binop op) { return op >= CV_EQ && op <= CV_GE; }

static int binop_map(cv_ctx *cx, const cv_value *a, const cv_value *b, ty_t rt, void *ud, cv_value *out) {
    (void)rt;
    return cv_binary(cx, *(cv_binop *)ud, a, b, out);
}

/* dot(a, b) with per-step rounding and overflow checks. */
static int dot(cv_ctx *cx, const cv_value *a, const cv_value *b, cv_value *out) {
    cv_value acc, p;
    for (uint32_t i = 0; i < a->n; i++) {
        if (scalar_binop(cx, CV_MUL, &a->u.elems[i], &b->u.elems[i], &p)) return CV_ERROR;
        if (i == 0) acc = p;
        else if (scalar_binop(cx, CV_ADD, &acc, &p, &acc)) return CV_ERROR;
    }
    *out = acc;
    return CV_OK;
}

/* Row r of matrix m as a vector value (temporary elements on the arena). */
static int mat_row(cv_ctx *cx, const cv_value *m, uint32_t r, cv_value *out) {
    cv_value *e = alloc_elems(cx, m->n);
    if (!e) return OOM(cx);
    for (uint32_t c = 0; c < m->n; c++) e[c] = m->u.elems[c].u.elems[r];
    out->type = 0;
    out->n = m->n;
    out->u.elems = e;
    return CV_OK;
}

static int matmul(cv_ctx *cx, const cv_value *a, const cv_value *b, cv_value *out) {
    ty_table *tt = cx->tt;
    const ty_info *ia = ty_get(tt, a->type), *ib = ty_get(tt, b->type);
    if (ia->kind == TY_MAT && ib->kind == TY_VEC) {          /* matCxR * vecC -> vecR */
        if (ia->n != ib->n) goto bad;
        cv_value comps[4], row;
        for (uint32_t r = 0; r < ia->rows; r++) {
            if (mat_row(cx, a, r, &row) || dot(cx, &row, b, &comps[r])) return CV_ERROR;
        }
        return cv_composite(cx, ty_vec(tt, ia->rows, ia->elem), comps, ia->rows, out);
    }
    if (ia->kind == TY_VEC && ib->kind == TY_MAT) {          /* vecR * matCxR -> vecC */
        if (ia->n != ib->rows) goto bad;
        cv_value comps[4];
        for (uint32_t c = 0; c < ib->n; c++)
            if (dot(cx, a, &b->u.elems[c], &comps[c])) return CV_ERROR;
        return cv_composite(cx, ty_vec(tt, ib->n, ib->elem), comps, ib->n, out);
    }
    if (ia->kind == TY_MAT && ib->kind == TY_MAT) {          /* matKxR * matCxK -> matCxR */
        if (ia->n != ib->rows) goto bad;
        cv_value cols[4];
        ty_t colt = ty_vec(tt, ia->rows, ia->elem);
        for (uint32_t c = 0; c < ib->n; c++) {
            cv_value comps[4], row;
            for (uint32_t r = 0; r < ia->rows; r++)
                if (mat_row(cx, a, r, &row) || dot(cx, &row, &b->u.elems[c], &comps[r])) return CV_ERROR;
            if (cv_composite(cx, colt, comps, ia->rows, &cols[c])) return CV_ERROR;
        }
        return cv_composite(cx, ty_mat(tt, ib->n, ia->rows, ia->elem), cols, ib->n, out);
    }
bad:
    return fail(cx, "no matching overload for operator * (%s, %s)", ty_name(tt, a->type), ty_name(tt, b->type));
}

int cv_binary(cv_ctx *cx, cv_binop op, const cv_value *a, const cv_value *b, cv_value *out) {
    ty_table *tt = cx->tt;
    ty_kind ka = ty_kind_of(tt, a->type), kb = ty_kind_of(tt, b->type);
    bool sa = ty_is_scalar(tt, a->type), sb = ty_is_scalar(tt, b->type);
    if (sa && sb) return scalar_binop(cx, op, a, b, out);
    if (op == CV_MUL && (ka == TY_MAT || kb == TY_MAT) && !sa && !sb) return matmul(cx, a, b, out);
    /* vector/matrix with scalar: splat the scalar (arithmetic and shifts by vectors only) */
    cv_value tmp;
    if (sa != sb) {
        const cv_value *s = sa ? a : b, *v = sa ? b : a;
        ty_t vt = v->type;
        if (ty_kind_of(tt, vt) == TY_MAT) {
            if (op != CV_MUL) goto bad;
            cv_value cs;
            if (cv_splat(cx, ty_mat_column(tt, vt), s, &cs)) return CV_ERROR;
            if (cv_splat(cx, vt, &cs, &tmp)) return CV_ERROR;
        } else {
            if (ty_kind_of(tt, vt) != TY_VEC || op > CV_MOD) goto bad;
            if (cv_splat(cx, ty_vec(tt, ty_width(tt, vt), s->type), s, &tmp)) return CV_ERROR;
        }
        if (sa) a = &tmp; else b = &tmp;
        ka = kb = ty_kind_of(tt, vt);
    }
    if (ka != kb || a->n != b->n) goto bad;
    if (ka == TY_MAT && op != CV_ADD && op != CV_SUB && op != CV_MUL) goto bad;
    if (ka != TY_VEC && ka != TY_MAT) goto bad;
    ty_t rt = a->type;
    if (is_cmp(op)) {
        if (ka != TY_VEC) goto bad;
        rt = ty_vec(tt, a->n, TY_BOOL);
    }
    return map2(cx, rt, a, b, binop_map, &op, out);
bad:
    return fail(cx, "no matching overload for operator %s (%s, %s)", cv_binop_str(op), ty_name(tt, a->type),
                ty_name(tt, b->type));
}

static int unop_map(cv_ctx *cx, const cv_value *a, const cv_value *b, ty_t rt, void *ud, cv_value *out) {
    (void)b; (void)rt;
    return cv_unary(cx, *(cv_unop *)ud, a, out);
}

int cv_unary(cv_ctx *cx, cv_unop op, const cv_value *a, cv_value *out) {
    ty_table *tt = cx->tt;
    ty_t t = a->type;
    if (ty_is_vec(tt, t) || (ty_is_mat(tt, t) && op == CV_NEG)) return map2(cx, t, a, NULL, unop_map, &op, out);
    switch (op) {
    case CV_NEG:
        if (ty_is_float_scalar(tt, t)) {
            /* Tint interns constants by value (+0 == -0), so negating a zero yields the operand */
            *out = cv_float(t, a->u.f == 0 ? a->u.f : -a->u.f);
            return CV_OK;
        }
        if (t == TY_AINT || t == TY_I32) {
            /* the most negative value negates to itself (two's complement) */
            int64_t minv = t == TY_AINT ? INT64_MIN : INT32_MIN;
            *out = cv_int(t, a->u.i == minv ? minv : -a->u.i);
            return CV_OK;
        }
        break;
    case CV_NOT:
        if (t == TY_BOOL) { *out = cv_bool(!a->u.b); return CV_OK; }
        break;
    case CV_COMPL:
        if (t == TY_AINT || t == TY_I32) { *out = cv_int(t, ~a->u.i); return CV_OK; }
        if (t == TY_U32) { *out = cv_int(t, (int64_t)(~(uint32_t)a->u.i)); return CV_OK; }
        break;
    default: break;
    }
    return fail(cx, "no matching overload for operator %s (%s)", cv_unop_str(op), ty_name(tt, t));
}

int cv_check_partial_binary(cv_ctx *cx, cv_binop op, ty_t lhs_type, const cv_value *lhs, const cv_value *rhs) {
    (void)lhs;
    if (!rhs) return CV_OK;
    ty_t s = ty_scalar_of(cx->tt, lhs_type);
    uint32_t n = rhs->n ? rhs->n : 1;
    for (uint32_t i = 0; i < n; i++) {
        const cv_value *c = rhs->n ? &rhs->u.elems[i] : rhs;
        if ((op == CV_DIV || op == CV_MOD) && ty_is_integer_scalar(cx->tt, s) && c->u.i == 0)
            return fail(cx, "integer division by zero is invalid");
        if ((op == CV_SHL || op == CV_SHR) && (s == TY_I32 || s == TY_U32) && (c->u.i < 0 || c->u.i >= 32))
            return fail(cx, "shift %s value must be less than the bit width of the lhs, which is 32",
                        op == CV_SHL ? "left" : "right");
    }
    return CV_OK;
}

/* ---- access ----------------------------------------------------------------------------------- */

int cv_index(cv_ctx *cx, const cv_value *v, int64_t i, cv_value *out) {
    if (!is_composite(cx->tt, v->type) || ty_kind_of(cx->tt, v->type) == TY_STRUCT)
        return fail(cx, "cannot index type '%s'", ty_name(cx->tt, v->type));
    if (i < 0 || (uint64_t)i >= v->n)
        return fail(cx, "index %" PRId64 " out of bounds [0..%u]", i, v->n ? v->n - 1 : 0);
    if (!v->u.elems) return cv_zero(cx, elem_type(cx->tt, v->type, (uint32_t)i), out);
    *out = v->u.elems[i];
    return CV_OK;
}

int cv_swizzle(cv_ctx *cx, const cv_value *v, const uint8_t *comps, uint32_t n, cv_value *out) {
    if (!ty_is_vec(cx->tt, v->type)) return fail(cx, "cannot swizzle '%s'", ty_name(cx->tt, v->type));
    cv_value e[4];
    if (n < 1 || n > 4) return fail(cx, "invalid vector swizzle size");
    for (uint32_t k = 0; k < n; k++) {
        if (comps[k] >= v->n) return fail(cx, "invalid vector swizzle member");
        e[k] = v->u.elems[comps[k]];
    }
    if (n == 1) { *out = e[0]; return CV_OK; }
    return cv_composite(cx, ty_vec(cx->tt, n, ty_elem(cx->tt, v->type)), e, n, out);
}

int cv_member(cv_ctx *cx, const cv_value *v, uint32_t i, cv_value *out) {
    if (ty_kind_of(cx->tt, v->type) != TY_STRUCT || i >= v->n)
        return fail(cx, "invalid member access on '%s'", ty_name(cx->tt, v->type));
    *out = v->u.elems[i];
    return CV_OK;
}

static bool is_zero(const cv_value *v) {
    if (v->n) {
        for (uint32_t i = 0; v->u.elems && i < v->n; i++)
            if (!is_zero(&v->u.elems[i])) return false;
        return true;
    }
    switch (v->type) {
    case TY_BOOL: return !v->u.b;
    case TY_AFLOAT: case TY_F32: case TY_F16: return v->u.f == 0;
    default: return v->u.i == 0;
    }
}

bool cv_equal(const cv_value *a, const cv_value *b) {
    if (a->type != b->type || a->n != b->n) return false;
    if (a->n && !a->u.elems) return is_zero(b);    /* an unbuilt zero array */
    if (a->n && !b->u.elems) return is_zero(a);
    if (a->n) {
        for (uint32_t i = 0; i < a->n; i++)
            if (!cv_equal(&a->u.elems[i], &b->u.elems[i])) return false;
        return true;
    }
    switch (a->type) {
    case TY_BOOL: return a->u.b == b->u.b;
    case TY_AFLOAT: case TY_F32: case TY_F16: return a->u.f == b->u.f;
    default: return a->u.i == b->u.i;
    }
}

bool cv_all_true(const cv_value *v) {
    if (v->n) {
        for (uint32_t i = 0; i < v->n; i++)
            if (!cv_all_true(&v->u.elems[i])) return false;
        return true;
    }
    return v->type == TY_BOOL && v->u.b;
}
