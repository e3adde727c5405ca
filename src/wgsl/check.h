/* check.h - the semantic checker's internal interface, shared by check.c (module-scope
 * declarations, directives and the wgsl_check() driver), check_expr.c (types, expressions, calls,
 * conversions, builtin functions) and check_stmt.c (statements, assignments, local declarations,
 * behaviour analysis).  Not a public header.
 *
 * It holds the checker context (one per wgsl_check() call), the reporting macros, small static
 * inline helpers, and the chk_-prefixed functions that one file defines and another calls; all
 * else stays static in its file.  The design of the checker is described in check.c. */
#ifndef WGSL_CHECK_H
#define WGSL_CHECK_H

#include "wgsl/builtins.h"
#include "wgsl/cc.h"
#include "wgsl/sema.h"

/* Behaviours of statements (spec "Behavior Analysis"). */
enum { B_NEXT = SEMA_B_NEXT, B_RETURN = SEMA_B_RETURN, B_BREAK = SEMA_B_BREAK, B_CONTINUE = SEMA_B_CONTINUE };

typedef struct checker {
    wgsl_cc *cc;
    sema_module *sm;
    const ast_module *m;
    ty_table *tt;
    /* the function being checked */
    uint32_t fn;                /* FN node, 0 at module scope */
    ty_t ret;                   /* its return type (0 = none) */
    uint32_t loops;             /* enclosing loops */
    uint32_t breakables;        /* enclosing loops + switches */
    uint32_t in_continuing;     /* inside a continuing block (loops since then in `cont_loops`) */
    uint32_t cont_loops;
    uint32_t continuing;        /* the innermost continuing block being checked (0 = none) */
    ARR(uint32_t) callees;
    ARR(uint32_t) globals;
    uint8_t *gseen;             /* [node_count]: global already in `globals` of this function */
    bool in_const;              /* checking a const-expression context (const decl init) */
    uint32_t no_eval;           /* inside the operand a short-circuit skips: no const-evaluation errors */
    uint32_t override_key;      /* unique keys for unnamed override-sized arrays */
    ARR(uint32_t) structs;      /* STRUCT nodes checked so far (to find a struct type's members) */
    uint32_t first_frag;        /* first fragment-only construct (discard statement, derivative
                                   call) of the function, else of a callee */
    uint32_t *frag_of;          /* [node_count]: FN node -> its first_frag */
    ARR(sema_access) accs;      /* alias analysis: this function's accesses (alias.c) */
    uint32_t *acc_slot;         /* [node_count]: root node -> index + 1 in `accs`; NULL: the module
                                   has no pointer type, alias analysis is off */
    uint32_t *arg_w, *arg_r;    /* [node_count] each, allocated at the first call (alias.c) */
    uint32_t *callee_slot;      /* [node_count]: root -> index + 1 in the callee's summary */
    uint64_t fn_bytes;          /* bytes of the function's var and let declarations so far */
    bool fn_bytes_reported;     /* the function's WGSL_MAX_FUNCTION_BYTES error is out */
    uint32_t errors;
} checker;

/* ---- small helpers ------------------------------------------------------------------------------ */

#define N(h) ast_get(c->m, (h))
#define ERR(sp, ...) (diag_error(c->cc, (sp), __VA_ARGS__), c->errors++)
#define NOTE(sp, ...) diag_note(c->cc, (sp), __VA_ARGS__)
#define TN(t) ty_name(c->tt, (t))

static inline span nsp(const checker *c, uint32_t h) { return ast_get(c->m, h)->sp; }
/* An attribute's span without the '@' (where Tint points). */
static inline span attr_span(const ast_node *a) { return span_make(a->sp.off + 1, a->sp.len ? a->sp.len - 1 : 0); }

static inline span decl_span(const checker *c, uint32_t h) { return sema_decl_span(c->cc, h, c->fn != 0); }

static inline const char *str(const checker *c, uint32_t id) { return cc_str(c->cc, id); }
static inline sema_expr *EX(const checker *c, uint32_t h) { return &c->sm->ex[h]; }
static inline sema_decl *DC(const checker *c, uint32_t h) { return &c->sm->dc[h]; }

static inline span name_span(const checker *c, uint32_t off, uint32_t name) {
    return span_make(off, arena_strlen(&c->cc->arena, name));
}

static inline uint32_t put_value(checker *c, const cv_value *v) {
    sema_module *sm = c->sm;
    if (sm->nvalues + 1 >= sm->capvalues) {
        uint32_t cap = sm->capvalues ? sm->capvalues * 2 : 256;
        cv_value *nv = arena_alloc(&c->cc->arena, cap * sizeof *nv);
        if (sm->nvalues) memcpy(nv, sm->values, sm->nvalues * sizeof *nv);
        sm->values = nv;
        sm->capvalues = cap;
    }
    if (!sm->nvalues) sm->nvalues = 1;
    sm->values[sm->nvalues] = *v;
    return sm->nvalues++;
}

static inline const cv_value *val(const checker *c, uint32_t h) {
    uint32_t i = c->sm->ex[h].cval;
    return i ? &c->sm->values[i] : NULL;
}

static inline const char *ident_text(const checker *c, uint32_t h) {
    const ast_node *n = N(h);
    return n->kind == AST_IDENT ? str(c, n->u.ident.name) : "";
}


/* "let x", "var x", ... for messages. */
static inline const char *decl_desc(checker *c, uint32_t d) {
    const ast_node *n = N(d);
    uint32_t name = 0;
    switch ((ast_kind)n->kind) {
    case AST_VAR: case AST_LET: case AST_CONST: case AST_OVERRIDE: name = n->u.var.name; break;
    case AST_PARAM: name = n->u.param.name; break;
    case AST_FN: name = n->u.fn.name; break;
    case AST_STRUCT: name = n->u.struct_.name; break;
    case AST_ALIAS: name = n->u.alias.name; break;
    default: break;
    }
    return arena_printf(&c->cc->arena, "%s %s", sema_decl_kind_name(c->m, d), str(c, name));
}

static inline uint32_t decl_name_of(const checker *c, uint32_t d) {
    const ast_node *n = N(d);
    switch ((ast_kind)n->kind) {
    case AST_VAR: case AST_LET: case AST_CONST: case AST_OVERRIDE: return n->u.var.name;
    case AST_PARAM: return n->u.param.name;
    case AST_FN: return n->u.fn.name;
    case AST_STRUCT: return n->u.struct_.name;
    case AST_ALIAS: return n->u.alias.name;
    default: return 0;
    }
}

static inline void use_global(checker *c, uint32_t d) {
    if (!c->fn || c->gseen[d]) return;
    c->gseen[d] = 1;
    ARR_PUSH(&c->cc->arena, c->globals, d);
}

static inline int stage_max(int a, int b) { return a > b ? a : b; }

static inline bool is_int_scalar(ty_t t) { return t == TY_AINT || t == TY_I32 || t == TY_U32; }
static inline bool is_float_scalar(ty_t t) { return t == TY_AFLOAT || t == TY_F32 || t == TY_F16; }

/* ---- shared between the checker files ---------------------------------------------------------- */

/* check_expr.c */
bool chk_materialize(checker *c, uint32_t h, ty_t to);
bool chk_convert_or_report(checker *c, uint32_t h, ty_t to, bool *reported);
ty_t chk_concretize(checker *c, uint32_t h);
const char *chk_decl_kind_word(checker *c, uint32_t d);
uint32_t chk_templ_arg(const checker *c, uint32_t h, uint32_t i);
ty_t chk_type_expr(checker *c, uint32_t h);
ty_t chk_common_scalar(ty_t a, ty_t b);
ty_t chk_binop_types(checker *c, ast_op op, ty_t l, ty_t r, bool lconst, ty_t *lt, ty_t *rt);
cv_binop chk_cv_binop(ast_op op);
sema_expr *chk_expr(checker *c, uint32_t h);
ty_t chk_rval(checker *c, uint32_t h);
bool chk_builtin_must_use(checker *c, uint32_t call);

/* alias.c: alias analysis (spec "Alias Analysis") */
uint32_t chk_root_ident(const checker *c, uint32_t h);
void chk_access(checker *c, uint32_t h, uint32_t bits);    /* h reads / writes (SEMA_ACC_*) its root */
void chk_alias_prepare(checker *c);                         /* after resolve: addressed variables */
void chk_alias_begin(checker *c);                           /* before a function body */
void chk_alias_end(checker *c, sema_fn *fi);                /* after it: fi's summary */
bool chk_alias_call(checker *c, uint32_t call, uint32_t fn); /* false after an error */

/* check_stmt.c */
const char *chk_swizzle_ref_name(checker *c, uint32_t lh, char *buf, size_t size);
bool chk_big_array_check(checker *c, uint32_t tn, ty_t t, span fallback);
void chk_value_decl(checker *c, uint32_t h, bool module);
void chk_diag_filters_ok(checker *c, ast_list list, const char *use);
int chk_stmt(checker *c, uint32_t h);
int chk_block_stmts(checker *c, uint32_t h);

#endif
