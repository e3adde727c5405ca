/* builtins.h - the built-in function table (builtins.def), overload resolution for built-in
 * functions and operators, and their constant evaluation.
 *
 * Resolution follows the spec's "Overload Resolution": every overload of the function and every
 * substitution of its type variables is a candidate; candidates an argument cannot convert to are
 * dropped (as are abstract parameter types when not every argument is a const-expression, or when
 * the function has no const evaluation); the candidate whose conversion rank is lowest for every
 * argument wins (ties fall back to the lowest total rank).  The checker then converts each argument
 * to bi_match.params[i] (cv_convert_implicit for constants) and types the call as bi_match.ret.
 *
 * Use:
 *     bi_fn f = bi_lookup("max", 3);
 *     bi_match m;
 *     char msg[512];
 *     if (bi_resolve(tt, f, 0, argtypes, 2, all_const, &m, msg, sizeof msg)) error(msg);
 *     ... if (all_const && bi_get(f)->eval) bi_eval(cx, &m, argvalues, 2, &value);
 *
 * The SPIR-V lowering of a resolved call is m.lower (BI_LK_* kind + number), chosen by the scalar
 * type of the first parameter; rows whose lowering is BI_LK_SPECIAL are expanded by the emitter. */
#ifndef WGSL_BUILTINS_H
#define WGSL_BUILTINS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wgsl/types.h"
#include "wgsl/value.h"

typedef enum bi_fn {
    BI_NONE = 0,
#define BI(name, flags, eval, lf, ls, lu, aux, sig) BI_##name,
#include "wgsl/builtins.def"
#undef BI
    BI_COUNT
} bi_fn;

enum {                                   /* bi_info.flags */
    BI_F_MU    = 1u << 0,                /* @must_use */
    BI_F_UNI   = 1u << 1,                /* must be called in uniform control flow */
    BI_F_SUB   = 1u << 2,                /* needs `enable subgroups;` (subgroup uniformity rules apply) */
    BI_F_ATOM  = 1u << 3,                /* atomic built-in */
    BI_F_CARG1 = 1u << 4,                /* argument 1 must be a const-expression */
    BI_F_TMPL  = 1u << 5,                /* takes a template type: bitcast<T>(e) */
    BI_F_COMP  = 1u << 6,                /* compute shader stage only */
    BI_F_SGM   = 1u << 7,                /* subgroup matrix built-in (check.c types it) */
    BI_F_FRAG  = 1u << 8                 /* fragment stage only (derivatives): an error when a compute
                                            entry point reaches it */
};

/* Subgroup and workgroup matrix built-ins: the scope (1 = workgroup) and the subgroup built-in a
 * workgroup one mirrors (the typing and the lowering are the same but for the scope). */
static inline int bi_sgm_scope(bi_fn f) {
    return f == BI_workgroupMatrixLoad || f == BI_workgroupMatrixStore || f == BI_workgroupMatrixMultiplyAccumulate;
}
static inline bi_fn bi_sgm_base(bi_fn f) {
    return f == BI_workgroupMatrixLoad ? BI_subgroupMatrixLoad : f == BI_workgroupMatrixStore ? BI_subgroupMatrixStore :
           f == BI_workgroupMatrixMultiplyAccumulate ? BI_subgroupMatrixMultiplyAccumulate : f;
}

typedef enum bi_lower_kind {
    BI_LK_NA = 0,                        /* no overload with this scalar kind */
    BI_LK_GLSL,                          /* OpExtInst GLSL.std.450 <num> */
    BI_LK_OP,                            /* core opcode <num> */
    BI_LK_ID,                            /* the value of the (only) argument */
    BI_LK_SPECIAL                        /* expanded by the emitter */
} bi_lower_kind;

typedef struct bi_lower {
    uint8_t kind;                        /* bi_lower_kind */
    uint16_t num;                        /* GLSL.std.450 instruction or SPIR-V opcode */
    const char *spv_name;                /* "FAbs", "OpBitCount" (for listings and tests) */
} bi_lower;

struct cv_ctx;
struct bi_match;
/* Const evaluation: args already converted to the matched parameter types. */
typedef int (*bi_eval_fn)(cv_ctx *cx, const struct bi_match *m, const cv_value *args, cv_value *out);

typedef struct bi_info {
    const char *name;
    uint32_t flags;                      /* BI_F_* */
    bi_eval_fn eval;                     /* NULL: not allowed in const-expressions */
    bi_lower lower[3];                   /* by scalar kind of the first parameter: float, signed, unsigned/bool */
    uint32_t aux;                        /* see builtins.def */
    const char *sig;                     /* overloads in the pattern language */
} bi_info;

const bi_info *bi_get(bi_fn f);
/* BI_NONE when the name is not a built-in function. */
bi_fn bi_lookup(const char *name, size_t len);

#define BI_MAX_ARGS 4

typedef struct bi_match {
    bi_fn fn;
    uint16_t ovl;                        /* overload index within the row's signature list */
    uint16_t nparams;
    ty_t ret;                            /* 0 for functions without a result */
    ty_t params[BI_MAX_ARGS];            /* the types the arguments convert to */
    bi_lower lower;                      /* the lowering for this overload's scalar kind */
    uint32_t aux;
} bi_match;

/* Resolves a call.  `tmpl` is the explicit template type (bitcast<T>) or 0; `args` are the argument
 * types (references are loaded: ref<..,T,..> counts as T); `all_const` says every argument is a
 * const-expression.  Returns 0 with *out filled, or 1 with a Tint-style message:
 * "no matching call to 'max(f32, i32)'" followed by the candidate list. */
int bi_resolve(ty_table *tt, bi_fn fn, ty_t tmpl, const ty_t *args, uint32_t nargs, bool all_const,
               bi_match *out, char *msg, size_t msgsize);

/* Constant evaluation of a resolved call (the function must have eval).  Converts the arguments
 * to m->params first (abstract -> concrete with range errors), then evaluates with the spec's
 * domain errors ("sqrt must be called with a value >= 0", ...).  CV_OK / CV_ERROR (cx->msg). */
int bi_eval(cv_ctx *cx, const bi_match *m, const cv_value *args, uint32_t nargs, cv_value *out);

/* The checks Tint applies to the constant arguments of a call whose other arguments are not
 * constant (when all are, bi_eval reports the same errors): subgroupBroadcast/subgroupShuffle
 * sourceLaneIndex in [0, 128), subgroupShuffleXor mask < 128, subgroupShuffleUp/Down delta < 128,
 * quadBroadcast id in [0, 4), extractBits/insertBits offset + count <= 32, ldexp e2 <= bias + 1,
 * clamp low <= high, smoothstep low != high (component-wise).  vals[i] is argument i's value
 * (converted to m->params[i]) when it is a const-expression, else NULL.  Returns -1 when fine, else
 * the index of the argument to blame, with Tint's message. */
int bi_check_const_args(ty_table *tt, const bi_match *m, const cv_value *const *vals, uint32_t nargs,
                        char *msg, size_t msgsize);

/* ---- operators ---- */
typedef struct bi_opmatch {
    ty_t lhs, rhs;                       /* operand types after conversion (rhs 0 for unary) */
    ty_t ret;
} bi_opmatch;

/* Types a binary / unary operator (spec "Expressions" tables): e.g. vec3<f32> * f32 -> vec3<f32>,
 * abstract 1 + 2.0 -> abstract-float, a < b -> vecN<bool>, x << 2 with x: i32 -> (i32, u32) -> i32.
 * Returns 0 or 1 with "no matching overload for 'operator + (f32, i32)'". */
int bi_resolve_binary(ty_table *tt, cv_binop op, ty_t lhs, ty_t rhs, bool all_const, bi_opmatch *out,
                      char *msg, size_t msgsize);
int bi_resolve_unary(ty_table *tt, cv_unop op, ty_t operand, bool all_const, bi_opmatch *out,
                     char *msg, size_t msgsize);

/* ---- value constructors ---- */
/* Types T(args...) for a constructible T given in full (vec3<f32>, array<i32, 4>, S) or partially
 * (`vec3`, `mat2x2`, `array` with the element type/count inferred: pass ty_vec(tt, 3, 0)-like
 * "partial" handles from bi_partial_type).  On success *ret is the constructed type and params[i]
 * the type argument i converts to; *nparams receives how many (== nargs).  Handles zero-value
 * (no args), conversion (one scalar/vector/matrix arg of another scalar type), splat, component
 * lists of scalars and vectors, matrix from columns or scalars, arrays and structs. */
typedef enum bi_partial {
    BI_PARTIAL_NONE = 0, BI_PARTIAL_VEC2, BI_PARTIAL_VEC3, BI_PARTIAL_VEC4,
    BI_PARTIAL_MAT2X2, BI_PARTIAL_MAT2X3, BI_PARTIAL_MAT2X4,
    BI_PARTIAL_MAT3X2, BI_PARTIAL_MAT3X3, BI_PARTIAL_MAT3X4,
    BI_PARTIAL_MAT4X2, BI_PARTIAL_MAT4X3, BI_PARTIAL_MAT4X4,
    BI_PARTIAL_ARRAY, BI_PARTIAL_COUNT
} bi_partial;
int bi_resolve_ctor(ty_table *tt, ty_t type, bi_partial partial, const ty_t *args, uint32_t nargs,
                    bool all_const, ty_t *ret, ty_t *params, char *msg, size_t msgsize);
/* Evaluates a constructor whose arguments were converted to the params from bi_resolve_ctor. */
int bi_eval_ctor(cv_ctx *cx, ty_t type, const cv_value *args, uint32_t nargs, cv_value *out);

#endif
