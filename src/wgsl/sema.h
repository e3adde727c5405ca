/* sema.h - the checked module: what wgsl_check (check.c) learns about the AST and what the
 * emitter (spirv.c) and reflection (reflect.c) consume.  Internal to src/wgsl.
 *
 * Design: facts are stored in arrays indexed by AST node handle, so the emitter walks the AST and
 * asks `sema_ex(sm, h)` for any expression node, `sema_dc(sm, h)` for any declaration node.
 *
 * Expressions.  Every expression node gets a sema_expr: its type and kind, its evaluation stage and,
 * for const-expressions, its value.  The contract with the emitter:
 *   - A node with `cval != 0` is a constant: emit sm->values[cval] (of type `type`) and do not look
 *     at its children.  Every const-expression that reaches runtime code has a value.
 *   - Abstract types never reach the emitter: an abstract expression used in a concrete context is
 *     materialized in place (its `type` and value are overwritten with the concrete ones), and a
 *     `let`/`var` of abstract initializer gets the concretized type.  Abstract expressions that
 *     remain (inside const declarations, const_assert, array counts) are never emitted.
 *   - Kind SEMA_EK_REF: the node denotes a memory location; `type` is ref<AS,T,AM>.  When the node's
 *     parent uses it as a value, `load` is 1 (the load rule applied here): the emitter loads, and
 *     the value has type ty_unref(type).  `&e` takes the reference of its operand (operand load = 0)
 *     and yields a ptr value; `*p` yields a REF.
 *   - Kind SEMA_EK_TYPE / SEMA_EK_FN / SEMA_EK_ENUM: identifiers that denote a type (e.g. the callee
 *     of a constructor), a function, or an enumerant (address space / access mode / builtin name).
 *   - IDENT: `decl` is the declaration node it resolves to (VAR LET CONST OVERRIDE PARAM FN STRUCT
 *     ALIAS), 0 for predeclared names.
 *   - CALL: `call` says what is called (user function in `decl`, builtin function `bi_fn`/`bi_ovl`,
 *     value constructor / conversion / bitcast to `type`).
 *   - MEMBER: `member` is the struct member index, or for a swizzle `swz_n` components in `swz`.
 *   - INDEX: `type` is the element (REF when the base is a reference, else a value).
 *
 * Declarations.  VAR LET CONST OVERRIDE PARAM nodes get a sema_decl (type, address space, access,
 * binding, override id, const value); FN nodes a sema_fn (entry point info, call graph, globals
 * used); STRUCT and ALIAS nodes get `type` in their sema_decl.  `sm->fns` lists the functions in
 * topological order (callees first), so emitting in that order never forward-references a function.
 *
 * Override-expressions: `stage` is SEMA_STAGE_OVERRIDE; the checker does not know their value (the
 * emitter evaluates them with the pipeline's override values). */
#ifndef WGSL_SEMA_H
#define WGSL_SEMA_H

#include <stdbool.h>
#include <stdint.h>

#include "wgc/wgsl.h"
#include "wgsl/ast.h"
#include "wgsl/types.h"
#include "wgsl/value.h"

struct wgsl_cc;

typedef enum sema_ek {
    SEMA_EK_NONE = 0,           /* not checked (or an error was reported) */
    SEMA_EK_VALUE,              /* a value of `type` */
    SEMA_EK_REF,                /* a reference: `type` is ref<AS,T,AM> */
    SEMA_EK_TYPE,               /* denotes the type `type` */
    SEMA_EK_FN,                 /* denotes a user function (decl) or builtin function (bi_fn) */
    SEMA_EK_ENUM,               /* an enumerant: address space, access mode, ... (`member` = value) */
    SEMA_EK_COUNT
} sema_ek;

typedef enum sema_stage {       /* evaluation stage of an expression */
    SEMA_STAGE_CONST = 0,       /* shader creation: value in cval */
    SEMA_STAGE_OVERRIDE,        /* pipeline creation */
    SEMA_STAGE_RUNTIME,
    SEMA_STAGE_COUNT
} sema_stage;

typedef enum sema_call {        /* what a CALL node calls */
    SEMA_CALL_NONE = 0,
    SEMA_CALL_FN,               /* user function: decl = FN node */
    SEMA_CALL_BUILTIN,          /* builtin function: bi_fn, bi_ovl (builtins.h) */
    SEMA_CALL_ZERO,             /* T(): zero value of `type` */
    SEMA_CALL_CONSTRUCT,        /* T(args...) composite construction of `type` (vec/mat/array/struct),
                                   args already of the component / column / element / member types;
                                   vecN(scalar) is a splat; vecN(v2, s) etc. flatten vectors */
    SEMA_CALL_CONVERT,          /* T(e) value conversion (scalar/vector/matrix, component-wise) or
                                   identity T(e) where e already has type T */
    SEMA_CALL_BITCAST,          /* bitcast<T>(e) */
    SEMA_CALL_COUNT
} sema_call;

typedef struct sema_expr {
    ty_t type;                  /* see the file comment; 0 when unchecked/erroneous */
    uint8_t kind;               /* sema_ek */
    uint8_t stage;              /* sema_stage */
    uint8_t load;               /* 1: the load rule applies at this node (REF used as value) */
    uint8_t call;               /* CALL: sema_call */
    uint32_t decl;              /* IDENT: declaration node; CALL of SEMA_CALL_FN: the FN node */
    uint32_t cval;              /* index into sema_module.values; 0 = no constant value */
    uint16_t bi_fn;             /* CALL of SEMA_CALL_BUILTIN: builtin function id (builtins.h) */
    uint16_t bi_ovl;            /* ... and the overload's index */
    uint32_t member;            /* MEMBER: struct member index; ENUM: the enumerant value */
    uint8_t swz_n;              /* MEMBER swizzle: component count 1..4 (0 = not a swizzle) */
    uint8_t swz[4];             /* MEMBER swizzle: component indices 0..3 */
} sema_expr;

/* Compute-stage (and other stage) builtin values: X(name, type-name-for-messages, stage, io)
 * io: 'i' input, 'o' output. */
#define SEMA_BUILTIN_VALUES(X)                                              \
    X(local_invocation_id, "vec3<u32>", WGSL_STAGE_COMPUTE, 'i')            \
    X(local_invocation_index, "u32", WGSL_STAGE_COMPUTE, 'i')               \
    X(global_invocation_id, "vec3<u32>", WGSL_STAGE_COMPUTE, 'i')           \
    X(workgroup_id, "vec3<u32>", WGSL_STAGE_COMPUTE, 'i')                   \
    X(num_workgroups, "vec3<u32>", WGSL_STAGE_COMPUTE, 'i')                 \
    X(subgroup_invocation_id, "u32", WGSL_STAGE_COMPUTE, 'i')               \
    X(subgroup_size, "u32", WGSL_STAGE_COMPUTE, 'i')                        \
    X(subgroup_id, "u32", WGSL_STAGE_COMPUTE, 'i')                          \
    X(num_subgroups, "u32", WGSL_STAGE_COMPUTE, 'i')                        \
    X(vertex_index, "u32", WGSL_STAGE_VERTEX, 'i')                          \
    X(instance_index, "u32", WGSL_STAGE_VERTEX, 'i')                        \
    X(position, "vec4<f32>", WGSL_STAGE_VERTEX, 'o')                        \
    X(front_facing, "bool", WGSL_STAGE_FRAGMENT, 'i')                       \
    X(frag_depth, "f32", WGSL_STAGE_FRAGMENT, 'o')                          \
    X(sample_index, "u32", WGSL_STAGE_FRAGMENT, 'i')                        \
    X(sample_mask, "u32", WGSL_STAGE_FRAGMENT, 'i')

typedef enum sema_builtin {
    SEMA_BV_NONE = 0,
#define X(n, t, s, io) SEMA_BV_##n,
    SEMA_BUILTIN_VALUES(X)
#undef X
    SEMA_BV_COUNT
} sema_builtin;

/* Statement behaviours (spec "Behavior Analysis"), sema_module.behav bits. */
enum { SEMA_B_NEXT = 1, SEMA_B_RETURN = 2, SEMA_B_BREAK = 4, SEMA_B_CONTINUE = 8 };

typedef enum sema_scope {
    SEMA_SCOPE_MODULE = 0,
    SEMA_SCOPE_FUNCTION,
    SEMA_SCOPE_COUNT
} sema_scope;

/* One per declaration node (VAR LET CONST OVERRIDE PARAM STRUCT ALIAS MEMBER_DECL; FN: see fn). */
typedef struct sema_decl {
    ty_t type;                  /* var: store type; let/const/override/param: value type;
                                   struct/alias: the type; member: the member's type */
    uint8_t as;                 /* var: ty_as */
    uint8_t access;             /* var: ty_access (defaults filled in) */
    uint8_t scope;              /* sema_scope */
    uint8_t builtin;            /* PARAM / MEMBER_DECL with @builtin: sema_builtin */
    uint8_t has_binding;        /* VAR with @group and @binding */
    uint8_t has_id;             /* OVERRIDE with @id */
    uint8_t used;               /* referenced at least once */
    uint8_t addressed;          /* VAR whose address is taken somewhere (`&v`, `&v.m[i]`) */
    uint32_t group, binding;    /* resource VAR */
    uint32_t override_id;       /* OVERRIDE: @id or the id assigned (lowest free, in source order) */
    uint32_t override_index;    /* OVERRIDE: index in sema_module.overrides */
    uint32_t cval;              /* CONST: value; OVERRIDE: default value when const (else 0) */
    uint32_t fn;                /* owning FN node, 0 at module scope */
    uint32_t index;             /* PARAM: parameter index; MEMBER_DECL: member index */
    uint32_t location;          /* @location value + 1, 0 = none (vertex/fragment IO) */
    uint32_t root;              /* LET of pointer type: its root identifier (VAR or PARAM node) */
} sema_decl;

/* Alias analysis (spec "Alias Analysis", alias.c): what a function reads and writes
 * of a module-scope variable or of a pointer parameter's memory, directly or through callees. */
enum { SEMA_ACC_READ = 1, SEMA_ACC_WRITE = 2 };
typedef struct sema_access {
    uint32_t root;              /* module-scope VAR node, or a PARAM node of the function */
    uint32_t bits;              /* SEMA_ACC_* */
    uint32_t read_at, write_at; /* first expression that reads / writes it (in this function or a
                                   callee; for messages), 0 = none */
} sema_access;

/* One per function (FN node). */
typedef struct sema_fn {
    uint32_t node;              /* FN node */
    ty_t ret;                   /* return type, 0 = none */
    wgsl_stage stage;           /* entry point stage or WGSL_STAGE_UNDEFINED */
    bool must_use;
    bool may_fall_through;      /* the body's behaviour includes Next (only void functions) */
    /* @workgroup_size: per dimension the value when const, else 0 with wg_expr the override-
       expression node; omitted dimensions are 1 with wg_expr 0. */
    uint32_t wg_size[3];
    uint32_t wg_expr[3];        /* expression node of each given dimension (0 = omitted) */
    ty_t wg_type;               /* i32 or u32: the common type of the dimensions */
    uint32_t *callees;          /* FN nodes called directly, each once */
    uint32_t ncallees;
    uint32_t *globals;          /* module-scope VAR and OVERRIDE nodes used, directly or through
                                   callees (transitive), each once, in source order */
    uint32_t nglobals;
    sema_access *accs;          /* alias analysis: accesses, in order of first access */
    uint32_t naccs;
    uint32_t builtin_mask;      /* bit sema_builtin: builtin values of the entry point's params */
    uint64_t workgroup_bytes;   /* entry points: total size of var<workgroup> used (const-sized) */
    uint32_t subgroup_size_attr; /* the @subgroup_size attribute node, 0 = none */
} sema_fn;

typedef struct sema_module {
    ty_table tt;                /* every type of the module */
    cv_ctx cv;                  /* for const evaluation; cv.tt = &tt */
    sema_expr *ex;              /* [ast.node_count], indexed by node handle */
    sema_decl *dc;              /* [ast.node_count], indexed by node handle */
    uint32_t *fn_of;            /* [ast.node_count]: FN node -> index in fns + 1 (0 = none) */
    uint32_t node_count;
    cv_value *values;           /* constant values; values[0] unused */
    uint32_t nvalues, capvalues;
    sema_fn *fns;               /* every function, callees before callers */
    uint32_t nfns;
    uint32_t *resources;        /* resource VAR nodes (uniform/storage) sorted by (group, binding) */
    uint32_t nresources;
    uint32_t *overrides;        /* OVERRIDE nodes in source order */
    uint32_t noverrides;
    uint8_t *behav;             /* [node_count]: statement behaviours, SEMA_B_* bits (check.c) */
    uint32_t *decl_order;       /* module-scope declaration nodes in dependency order (every node
                                   after all the declarations it uses) */
    uint32_t ndecl_order;
    /* enabled extensions */
    bool enable_f16, enable_subgroups;
    bool enable_subgroup_size_control;   /* `enable subgroup_size_control;`: @subgroup_size on compute entry points */
    bool enable_subgroup_matrix;  /* enable chromium_experimental_subgroup_matrix */
    bool enable_workgroup_matrix; /* enable wgc_workgroup_matrix */
} sema_module;

static inline sema_expr *sema_ex(const sema_module *sm, uint32_t node) { return &sm->ex[node < sm->node_count ? node : 0]; }
static inline sema_decl *sema_dc(const sema_module *sm, uint32_t node) { return &sm->dc[node < sm->node_count ? node : 0]; }
static inline const cv_value *sema_value(const sema_module *sm, uint32_t cval) { return cval ? &sm->values[cval] : 0; }
static inline sema_fn *sema_fn_of(const sema_module *sm, uint32_t fn_node) {
    uint32_t i = fn_node < sm->node_count ? sm->fn_of[fn_node] : 0;
    return i ? &sm->fns[i - 1] : 0;
}
/* The value type of an expression as its parent sees it (load rule applied). */
static inline ty_t sema_value_type(const sema_module *sm, uint32_t node) {
    const sema_expr *e = sema_ex(sm, node);
    return e->load ? ty_unref(&sm->tt, e->type) : e->type;
}

/* resolve.c: binds identifiers (ex[].decl), reports redeclarations and dependency cycles, fills
 * decl_order.  0 on success. */
int sema_resolve(struct wgsl_cc *cc, sema_module *sm);
/* Where Tint points for a declaration: the name for parameters, members and function-scope
 * let/const; otherwise the declaration from its keyword (attributes skipped). */
span sema_decl_span(struct wgsl_cc *cc, uint32_t node, bool local);
/* "const", "function", "struct", ... (for messages). */
const char *sema_decl_kind_name(const ast_module *m, uint32_t node);

/* uniform.c: uniformity analysis of every function (spec "Uniformity Analysis"); reports the first
 * violation (barriers, workgroupUniformLoad, subgroup operations in non-uniform control flow) as
 * Tint does.  0 when fine. */
int sema_uniformity(struct wgsl_cc *cc, sema_module *sm);

/* Name of a builtin value ("global_invocation_id"). */
const char *sema_builtin_name(sema_builtin b);

#endif
