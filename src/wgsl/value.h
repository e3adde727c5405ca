/* value.h - constant values and their evaluation (consteval.c): the numbers of const- and
 * override-expressions, every WGSL operator and conversion applied to them with the spec's errors.
 *
 * A cv_value is a type handle plus a payload.  Scalars are stored widened: abstract-int, i32 and u32
 * in `i` (int64, i32 sign-extended, u32 zero-extended), abstract-float, f32 and f16 in `f` (a double
 * holding a value exactly representable in the type), bool in `b`.  Composites (vectors, matrices as
 * columns, arrays, structs) hold `n` element values in arena memory; values are immutable, so
 * elements may be shared between values.  One exception keeps compile time and memory independent
 * of an array's length: the zero value of an array longer than CV_ZERO_BUILT_MAX elements is kept
 * unbuilt, as `n` with `elems == NULL` ("zero of type T"); cv_elem, cv_index, cv_equal, cv_format
 * and the emitter (OpConstantNull) understand it.  Arrays are the only composites that can be long:
 * vectors and matrices have at most 4 elements, and an array built from arguments is as long as
 * its source text (WGSL has no array splat, spec 9.6 "Value Constructor Built-in Functions").
 *
 * Operations take a cv_ctx (the type table, whose allocation hook also provides value memory) and
 * return CV_OK or CV_ERROR; on error ctx->msg holds the message in Tint's wording
 * ("'2147483647 + 1' cannot be represented as 'i32'", "integer division by zero is invalid", ...)
 * and the caller attaches it to the expression's span.  Operands must already have the operator's
 * types (the checker converts abstract operands first, see bi_resolve_binary in builtins.h); only
 * vector/scalar mixing for arithmetic is accepted and splatted here. */
#ifndef WGSL_VALUE_H
#define WGSL_VALUE_H
#include <stdbool.h>
#include <stdint.h>

#include "wgsl/types.h"

typedef struct cv_value {
    ty_t type;                           /* 0 = no value */
    uint32_t n;                          /* composites: element count */
    union {
        int64_t i;                       /* abstract-int, i32, u32 */
        double f;                        /* abstract-float, f32, f16 */
        bool b;                          /* bool */
        struct cv_value *elems;          /* vec components, mat columns, array elements, struct members */
    } u;
} cv_value;

typedef enum cv_status { CV_OK = 0, CV_ERROR = 1 } cv_status;

typedef struct cv_ctx {
    ty_table *tt;
    char msg[256];                       /* the last error */
} cv_ctx;

/* Unary operators. */
#define CV_UNOPS(X) X(NEG, "-") X(NOT, "!") X(COMPL, "~")
/* Binary operators (LAND/LOR are the short-circuit forms, evaluated eagerly here). */
#define CV_BINOPS(X) \
    X(ADD, "+") X(SUB, "-") X(MUL, "*") X(DIV, "/") X(MOD, "%") \
    X(AND, "&") X(OR, "|") X(XOR, "^") X(SHL, "<<") X(SHR, ">>") \
    X(LAND, "&&") X(LOR, "||") \
    X(EQ, "==") X(NE, "!=") X(LT, "<") X(LE, "<=") X(GT, ">") X(GE, ">=")
typedef enum cv_unop {
#define X(n, s) CV_##n,
    CV_UNOPS(X)
#undef X
    CV_UNOP_COUNT
} cv_unop;
typedef enum cv_binop {
#define X(n, s) CV_##n,
    CV_BINOPS(X)
#undef X
    CV_BINOP_COUNT
} cv_binop;
const char *cv_unop_str(cv_unop op);
const char *cv_binop_str(cv_binop op);

/* Scalar makers (no checks). */
static inline cv_value cv_int(ty_t t, int64_t v) { cv_value r = { t, 0, { .i = v } }; return r; }
static inline cv_value cv_float(ty_t t, double v) { cv_value r = { t, 0, { .f = v } }; return r; }
static inline cv_value cv_bool(bool v) { cv_value r = { TY_BOOL, 0, { .b = v } }; return r; }

/* Scalar makers with the range checks of type t (integers: range; floats: rounding to t and
 * finiteness).  `what` (may be NULL) names the expression for the message:
 * "'<what>' cannot be represented as '<t>'"; NULL prints the value itself. */
int cv_make_int(cv_ctx *cx, ty_t t, int64_t v, const char *what, cv_value *out);
int cv_make_float(cv_ctx *cx, ty_t t, double v, const char *what, cv_value *out);

/* Float rounding helpers: round-to-nearest-even into the format; the result is +-inf on overflow. */
double cv_round_f32(double v);
double cv_round_f16(double v);
/* Tint's rounding of an arithmetic result of type t (f16 results are computed in f32 first, then
 * anything beyond 65504 is out of range) and of a value converted to t (out of range when beyond
 * the largest finite value, before rounding); +-inf when not representable.  Note: Tint (and so
 * wgc) quantizes to f16 by truncating toward zero (cv_quantize_f16), while f32 rounds to nearest
 * even; the spec lets either neighbour be chosen. */
double cv_quantize_f16(double v);
double cv_round_result(ty_t t, double r);
double cv_round_convert(ty_t t, double v);
uint16_t cv_f16_bits(double v);          /* v must be a representable f16 (or inf/nan) */
double cv_f16_from_bits(uint16_t h);
uint32_t cv_f32_bits(double v);
/* The 32-bit pattern of a scalar for the emitter: i32/u32 as is, f32 bits, f16 in the low 16,
 * bool 0/1. */
uint32_t cv_bits32(const cv_value *v);

/* Composite construction: copies elems (n must match the type's element count). */
int cv_composite(cv_ctx *cx, ty_t t, const cv_value *elems, uint32_t n, cv_value *out);
/* vecN<T> with every component = s. */
int cv_splat(cv_ctx *cx, ty_t vec_t, const cv_value *s, cv_value *out);
/* The zero value of a constructible type (an array longer than CV_ZERO_BUILT_MAX: unbuilt). */
#define CV_ZERO_BUILT_MAX 64u
int cv_zero(cv_ctx *cx, ty_t t, cv_value *out);
/* Element i of composite v: &v->u.elems[i], or, for an unbuilt zero array, the element zero value
 * written to *tmp.  NULL only when out of memory (cx->msg set). */
const cv_value *cv_elem(cv_ctx *cx, const cv_value *v, uint32_t i, cv_value *tmp);

/* Conversions.  Implicit: an abstract value to a type it converts to automatically (ranks), with
 * range errors.  Explicit: a value constructor/conversion T(e) between scalars (and component-wise
 * for vectors/matrices): float->int truncates (error when out of range), int->float rounds,
 * bool<->numeric, f32<->f16 rounding (error on overflow). */
int cv_convert_implicit(cv_ctx *cx, const cv_value *v, ty_t to, cv_value *out);
int cv_convert_explicit(cv_ctx *cx, const cv_value *v, ty_t to, cv_value *out);
/* bitcast<T>(e) between 32-bit (or 2x16 <-> 32) representations; abstract e is concretized first. */
int cv_bitcast(cv_ctx *cx, const cv_value *v, ty_t to, cv_value *out);

/* Operators (operand types: see the file comment). */
int cv_unary(cv_ctx *cx, cv_unop op, const cv_value *a, cv_value *out);
int cv_binary(cv_ctx *cx, cv_binop op, const cv_value *a, const cv_value *b, cv_value *out);

/* Tint's checks on a binary operator whose one operand is constant and the other is not (when
 * both are, cv_binary reports the same errors): integer / and % by a constant with a zero component
 * ("integer division by zero is invalid"), << and >> of a concrete integer by a constant count not
 * below the bit width.  lhs/rhs are the constant operand values or NULL; lhs_type is the (converted)
 * left operand type.  CV_OK or CV_ERROR with cx->msg. */
int cv_check_partial_binary(cv_ctx *cx, cv_binop op, ty_t lhs_type, const cv_value *lhs, const cv_value *rhs);

/* Access: e[i] (vector component, matrix column, array element) with the bounds error
 * "index 5 out of bounds [0..3]"; swizzles; struct members. */
int cv_index(cv_ctx *cx, const cv_value *v, int64_t i, cv_value *out);
int cv_swizzle(cv_ctx *cx, const cv_value *v, const uint8_t *comps, uint32_t n, cv_value *out);
int cv_member(cv_ctx *cx, const cv_value *v, uint32_t i, cv_value *out);

/* Equality of two values of the same type (component-wise, exact). */
bool cv_equal(const cv_value *a, const cv_value *b);
/* All components true (bool / vecN<bool>). */
bool cv_all_true(const cv_value *v);

/* Formats a value as WGSL-ish text ("1", "2.5", "vec2(1, 2)") for messages; returns buf. */
const char *cv_format(const ty_table *tt, const cv_value *v, char *buf, unsigned size);

#endif
