/* check.c - semantic analysis: wgsl_check() turns the parsed module into the checked module of
 * sema.h (types, kinds, constant values, resolved declarations, function and resource facts).
 *
 * Order of work, chosen so that the first error is the one Tint reports first:
 *   1. directives (enable / requires / diagnostic);
 *   2. resolve.c: identifiers bound to declarations, redeclarations, dependency cycles, and the
 *      order in which to visit module-scope declarations (dependencies first);
 *   3. each declaration in that order: types, const/override evaluation (consteval.c), function
 *      bodies with statement behaviour analysis, entry point and resource interface rules;
 *   4. uniformity analysis (uniform.c) over the functions in call-graph order.
 *
 * Expressions are checked bottom-up by expr(); rval() applies the load rule where a reference is
 * used as a value; materialize() converts an abstract expression to the concrete type its context
 * wants, rewriting its constant value in place, so abstract types never reach the emitter.  A type
 * of 0 means an error was already reported: every rule stays quiet on 0 so one mistake gives one
 * message.  Messages follow Tint's wording. */
#include <stdio.h>
#include <string.h>

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
    ARR(uint32_t) callees;
    ARR(uint32_t) globals;
    uint8_t *gseen;             /* [node_count]: global already in `globals` of this function */
    bool in_const;              /* checking a const-expression context (const decl init) */
    uint32_t override_key;      /* unique keys for unnamed override-sized arrays */
    ARR(uint32_t) structs;      /* STRUCT nodes checked so far (to find a struct type's members) */
    uint32_t first_discard;     /* first discard statement of the function (or of a callee) */
    uint32_t *discard_of;       /* [node_count]: FN node -> its first_discard */
    uint32_t errors;
} checker;

/* ---- small helpers ------------------------------------------------------------------------------ */

#define N(h) ast_get(c->m, (h))
#define ERR(sp, ...) (diag_error(c->cc, (sp), __VA_ARGS__), c->errors++)
#define NOTE(sp, ...) diag_note(c->cc, (sp), __VA_ARGS__)
#define TN(t) ty_name(c->tt, (t))

static span nsp(const checker *c, uint32_t h) { return ast_get(c->m, h)->sp; }
/* An attribute's span without the '@' (where Tint points). */
static span attr_span(const ast_node *a) { return span_make(a->sp.off + 1, a->sp.len ? a->sp.len - 1 : 0); }

static span decl_span(const checker *c, uint32_t h) { return sema_decl_span(c->cc, h, c->fn != 0); }

static const char *str(const checker *c, uint32_t id) { return cc_str(c->cc, id); }
static sema_expr *EX(const checker *c, uint32_t h) { return &c->sm->ex[h]; }
static sema_decl *DC(const checker *c, uint32_t h) { return &c->sm->dc[h]; }

static span name_span(const checker *c, uint32_t off, uint32_t name) {
    return span_make(off, arena_strlen(&c->cc->arena, name));
}

static uint32_t put_value(checker *c, const cv_value *v) {
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

static const cv_value *val(const checker *c, uint32_t h) {
    uint32_t i = c->sm->ex[h].cval;
    return i ? &c->sm->values[i] : NULL;
}

static const char *ident_text(const checker *c, uint32_t h) {
    const ast_node *n = N(h);
    return n->kind == AST_IDENT ? str(c, n->u.ident.name) : "";
}


/* "let x", "var x", ... for messages. */
static const char *decl_desc(checker *c, uint32_t d) {
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

static uint32_t decl_name_of(const checker *c, uint32_t d) {
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

static void use_global(checker *c, uint32_t d) {
    if (!c->fn || c->gseen[d]) return;
    c->gseen[d] = 1;
    ARR_PUSH(&c->cc->arena, c->globals, d);
}

static int stage_max(int a, int b) { return a > b ? a : b; }

static bool is_int_scalar(ty_t t) { return t == TY_AINT || t == TY_I32 || t == TY_U32; }
static bool is_float_scalar(ty_t t) { return t == TY_AFLOAT || t == TY_F32 || t == TY_F16; }

/* ---- forward declarations ---------------------------------------------------------------------- */

static sema_expr *expr(checker *c, uint32_t h);
static ty_t rval(checker *c, uint32_t h);
static ty_t type_expr(checker *c, uint32_t h);
static int stmt(checker *c, uint32_t h);
static int block_stmts(checker *c, uint32_t h);

/* ---- values and conversions -------------------------------------------------------------------- */

static void set_value(checker *c, uint32_t h, const cv_value *v) {
    EX(c, h)->cval = put_value(c, v);
    EX(c, h)->stage = SEMA_STAGE_CONST;
}

/* Converts the (already checked) expression h to type `to` when it is abstract and converts
 * automatically; returns true when h now has type `to`. */
static bool materialize(checker *c, uint32_t h, ty_t to) {
    sema_expr *e = EX(c, h);
    ty_t from = sema_value_type(c->sm, h);
    if (!from || !to) return false;
    if (from == to) return true;
    if (!ty_is_abstract(c->tt, from)) return false;
    if (ty_conversion_rank(c->tt, from, to) == TY_RANK_INF) return false;
    if (e->cval) {
        cv_value out;
        if (cv_convert_implicit(&c->sm->cv, &c->sm->values[e->cval], to, &out)) {
            ERR(nsp(c, h), "%s", c->sm->cv.msg);
            e->type = 0;
            return false;
        }
        e->cval = put_value(c, &out);
    }
    e->type = to;
    return true;
}

/* Materializes h to `to`; on failure reports Tint's message for an abstract source ("cannot
 * convert value of type ...") and returns false with *reported set, or returns false quietly when
 * the source is concrete (the caller words that error). */
static bool convert_or_report(checker *c, uint32_t h, ty_t to, bool *reported) {
    *reported = false;
    ty_t from = sema_value_type(c->sm, h);
    if (materialize(c, h, to)) return true;
    if (!EX(c, h)->type || !from || !to) { *reported = true; return false; }
    if (ty_is_abstract(c->tt, from)) {
        ERR(nsp(c, h), "cannot convert value of type '%s' to type '%s'", TN(from), TN(to));
        *reported = true;
    }
    return false;
}

/* Concretizes h (abstract -> i32 / f32); returns the resulting value type. */
static ty_t concretize(checker *c, uint32_t h) {
    ty_t t = sema_value_type(c->sm, h);
    if (!t || !ty_is_abstract(c->tt, t)) return t;
    ty_t ct = ty_concretize(c->tt, t);
    return materialize(c, h, ct) ? ct : 0;
}

/* ---- identifiers -------------------------------------------------------------------------------- */

static const char *decl_kind_word(checker *c, uint32_t d) { return sema_decl_kind_name(c->m, d); }

/* An identifier used as an expression. */
static void ident_expr(checker *c, uint32_t h, sema_expr *e) {
    const ast_node *n = N(h);
    uint32_t d = e->decl;
    if (d) {
        const ast_node *dn = N(d);
        sema_decl *dd = DC(c, d);
        if (n->u.ident.templ.count && dn->kind != AST_STRUCT && dn->kind != AST_ALIAS) {
            ERR(nsp(c, h), "%s '%s' does not take template arguments", decl_kind_word(c, d), str(c, n->u.ident.name));
            return;
        }
        dd->used = 1;
        switch ((ast_kind)dn->kind) {
        case AST_VAR:
            if (!dd->type) return;
            e->kind = SEMA_EK_REF;
            e->type = ty_ref(c->tt, (ty_as)dd->as, dd->type, (ty_access)dd->access);
            e->stage = SEMA_STAGE_RUNTIME;
            if (dd->scope == SEMA_SCOPE_MODULE) use_global(c, d);
            return;
        case AST_LET: case AST_PARAM:
            if (!dd->type) return;
            e->kind = SEMA_EK_VALUE;
            e->type = dd->type;
            e->stage = SEMA_STAGE_RUNTIME;
            return;
        case AST_CONST:
            if (!dd->type) return;
            e->kind = SEMA_EK_VALUE;
            e->type = dd->type;
            e->stage = SEMA_STAGE_CONST;
            e->cval = dd->cval;
            return;
        case AST_OVERRIDE:
            if (!dd->type) return;
            e->kind = SEMA_EK_VALUE;
            e->type = dd->type;
            e->stage = SEMA_STAGE_OVERRIDE;
            use_global(c, d);
            return;
        case AST_FN:
            e->kind = SEMA_EK_FN;
            e->type = TY_VOID;
            return;
        case AST_STRUCT: case AST_ALIAS:
            e->type = type_expr(c, h);
            if (e->type) e->kind = SEMA_EK_TYPE;
            return;
        default:
            return;
        }
    }
    /* predeclared: a type? */
    const char *s = str(c, n->u.ident.name);
    size_t len = arena_strlen(&c->cc->arena, n->u.ident.name);
    if (ty_scalar_by_name(s, len) || ty_predeclared_alias(c->tt, s, len) ||
        !strcmp(s, "vec2") || !strcmp(s, "vec3") || !strcmp(s, "vec4") || !strcmp(s, "array") ||
        !strcmp(s, "atomic") || !strcmp(s, "ptr") ||
        (len == 6 && !strncmp(s, "mat", 3) && s[4] == 'x')) {
        e->type = type_expr(c, h);
        if (e->type) e->kind = SEMA_EK_TYPE;
        return;
    }
    if (bi_lookup(s, len)) {
        e->kind = SEMA_EK_FN;
        e->type = TY_VOID;
        return;
    }
    ERR(nsp(c, h), "unresolved value '%s'", s);
}

/* ---- types -------------------------------------------------------------------------------------- */

static uint32_t templ_arg(const checker *c, uint32_t h, uint32_t i) {
    return ast_item(c->m, N(h)->u.ident.templ, i);
}

static bool enable_f16_check(checker *c, span sp) {
    if (!c->sm->enable_f16) {
        ERR(sp, "f16 type used without 'f16' extension enabled");
        return false;
    }
    return true;
}

/* The element count of array<T, N>: a const or override expression; returns the ty_t. */
static ty_t array_type(checker *c, uint32_t h, ty_t elem, uint32_t cnt) {
    sema_expr *ce = expr(c, cnt);
    if (!ce->type && ce->kind != SEMA_EK_TYPE) return 0;
    if (ce->kind == SEMA_EK_TYPE) {
        ERR(nsp(c, cnt), "array count must evaluate to a constant integer expression or override variable");
        return 0;
    }
    ty_t t = rval(c, cnt);
    if (!t) return 0;
    if (!is_int_scalar(t)) {
        ERR(nsp(c, cnt), "array count must evaluate to a constant integer expression or override variable");
        return 0;
    }
    if (ce->stage == SEMA_STAGE_CONST && ce->cval) {
        int64_t n = c->sm->values[ce->cval].u.i;
        if (n < 1) {
            ERR(nsp(c, cnt), "array count (%lld) must be greater than 0", (long long)n);
            return 0;
        }
        if (n > 0xffffffffll) {
            ERR(nsp(c, cnt), "array count (%lld) must be less than 4294967296", (long long)n);
            return 0;
        }
        if (t == TY_AINT) materialize(c, cnt, TY_I32);
        ty_t at = ty_array(c->tt, elem, (uint32_t)n);
        char lim[128];
        if (ty_size_limit_check(c->tt, at, lim, sizeof lim)) {   /* Tint: at the count */
            ERR(nsp(c, cnt), "%s", lim);
            return 0;
        }
        return at;
    }
    if (ce->stage == SEMA_STAGE_OVERRIDE) {
        const ast_node *cn = N(cnt);
        if (cn->kind == AST_IDENT && ce->decl && N(ce->decl)->kind == AST_OVERRIDE)
            return ty_array_override(c->tt, elem, ce->decl, str(c, cn->u.ident.name));
        return ty_array_override(c->tt, elem, 0x80000000u | ++c->override_key, NULL);
    }
    ERR(nsp(c, cnt), "array count must evaluate to a constant integer expression or override variable");
    (void)h;
    return 0;
}

/* ---- subgroup matrices (enable chromium_experimental_subgroup_matrix) ---- */

static ty_sgm_use sgm_use_of(const char *s) {
    if (strncmp(s, "subgroup_matrix_", 16)) return TY_SGM_NONE;
    s += 16;
    return !strcmp(s, "left") ? TY_SGM_LEFT : !strcmp(s, "right") ? TY_SGM_RIGHT :
           !strcmp(s, "result") ? TY_SGM_RESULT : TY_SGM_NONE;
}

/* Template argument i of a subgroup matrix type: a const-expression integer in 1..255. */
static uint32_t sgm_dim(checker *c, uint32_t h, uint32_t i) {
    const char *what = i == 1 ? "column" : "row";
    uint32_t a = templ_arg(c, h, i);
    sema_expr *ae = expr(c, a);
    if (!ae->type && ae->kind != SEMA_EK_TYPE) return 0;
    ty_t t = ae->kind == SEMA_EK_TYPE ? 0 : rval(c, a);
    if (!t || !is_int_scalar(t) || ae->stage != SEMA_STAGE_CONST || !ae->cval) {
        ERR(nsp(c, a), "subgroup matrix %s count must be a constant positive integer", what);
        return 0;
    }
    int64_t v = c->sm->values[ae->cval].u.i;
    if (v < 1 || v > 255) {
        ERR(nsp(c, a), v < 1 ? "subgroup matrix %s count must be a constant positive integer" :
                       "subgroup matrix %s count must be at most 255", what);
        return 0;
    }
    if (t == TY_AINT) materialize(c, a, TY_I32);
    return (uint32_t)v;
}

static ty_t type_expr(checker *c, uint32_t h);

/* subgroup_matrix_left<T, K, M>, subgroup_matrix_right<T, N, K>, subgroup_matrix_result<T, N, M>:
 * T then columns then rows. */
static ty_t sgm_type(checker *c, uint32_t h, ty_sgm_use use, const char *s, uint32_t nt) {
    if (!c->sm->enable_subgroup_matrix) {
        ERR(nsp(c, h), "use of 'subgroup_matrix_*' requires enabling extension 'chromium_experimental_subgroup_matrix'");
        return 0;
    }
    if (nt != 3) {
        ERR(nsp(c, h), nt ? "'%s' requires 3 template arguments" : "expected '<' for '%s'", s);
        return 0;
    }
    ty_t el = type_expr(c, templ_arg(c, h, 0));
    if (!el) return 0;
    if (el != TY_F16 && el != TY_F32 && el != TY_I32 && el != TY_U32) {
        ERR(nsp(c, h), "subgroup_matrix element type must be f32, f16, i32 or u32");
        return 0;
    }
    uint32_t cols = sgm_dim(c, h, 1);
    uint32_t rows = cols ? sgm_dim(c, h, 2) : 0;
    return rows ? ty_sgmat(c->tt, use, el, cols, rows) : 0;
}

/* Resolves an identifier (with template list) in type position. */
static ty_t type_expr(checker *c, uint32_t h) {
    if (!h) return 0;
    const ast_node *n = N(h);
    if (n->kind != AST_IDENT) {
        ERR(nsp(c, h), "expected a type");
        return 0;
    }
    sema_expr *e = EX(c, h);
    uint32_t name = n->u.ident.name;
    uint32_t nt = n->u.ident.templ.count;
    const char *s = str(c, name);
    size_t len = arena_strlen(&c->cc->arena, name);
    if (e->decl) {
        const ast_node *dn = N(e->decl);
        if (dn->kind == AST_STRUCT || dn->kind == AST_ALIAS) {
            if (nt) {
                ERR(nsp(c, h), "type '%s' does not take template arguments", s);
                return 0;
            }
            e->kind = SEMA_EK_TYPE;
            e->type = DC(c, e->decl)->type;
            return e->type;
        }
        ERR(nsp(c, h), "cannot use %s '%s' as type", decl_kind_word(c, e->decl), s);
        NOTE(name_span(c, dn->kind == AST_FN ? dn->u.fn.name_off : dn->u.var.name_off, name),
             "%s '%s' declared here", decl_kind_word(c, e->decl), s);
        return 0;
    }
    ty_t t = 0;
    if ((t = ty_scalar_by_name(s, len)) != 0 || (t = ty_predeclared_alias(c->tt, s, len)) != 0) {
        if (nt) {
            ERR(nsp(c, h), "type '%s' does not take template arguments", s);
            return 0;
        }
        if (ty_scalar_of(c->tt, t) == TY_F16 && !enable_f16_check(c, nsp(c, h))) return 0;
    } else if (len == 4 && !strncmp(s, "vec", 3) && s[3] >= '2' && s[3] <= '4') {
        if (nt != 1) {
            ERR(nsp(c, h), nt ? "'%s' requires 1 template argument" : "expected '<' for '%s'", s);
            return 0;
        }
        ty_t el = type_expr(c, templ_arg(c, h, 0));
        if (!el) return 0;
        if (!ty_is_concrete_scalar(c->tt, el)) {
            ERR(nsp(c, h), "vector element type must be 'bool', 'f32', 'f16', 'i32' or 'u32'");
            return 0;
        }
        t = ty_vec(c->tt, (uint32_t)(s[3] - '0'), el);
    } else if (len == 6 && !strncmp(s, "mat", 3) && s[3] >= '2' && s[3] <= '4' && s[4] == 'x' &&
               s[5] >= '2' && s[5] <= '4') {
        if (nt != 1) {
            ERR(nsp(c, h), nt ? "'%s' requires 1 template argument" : "expected '<' for '%s'", s);
            return 0;
        }
        ty_t el = type_expr(c, templ_arg(c, h, 0));
        if (!el) return 0;
        if (el != TY_F32 && el != TY_F16) {
            ERR(nsp(c, h), "matrix element type must be 'f32' or 'f16'");
            return 0;
        }
        t = ty_mat(c->tt, (uint32_t)(s[3] - '0'), (uint32_t)(s[5] - '0'), el);
    } else if (!strcmp(s, "array")) {
        if (nt < 1 || nt > 2) {
            ERR(nsp(c, h), nt ? "'array' requires 1 or 2 template arguments" : "expected '<' for 'array'");
            return 0;
        }
        ty_t el = type_expr(c, templ_arg(c, h, 0));
        if (!el) return 0;
        /* Tint evaluates the count before validating the element type */
        t = nt == 1 ? ty_array_runtime(c->tt, el) : array_type(c, h, el, templ_arg(c, h, 1));
        if (!t) return 0;
        if (!ty_is_plain(c->tt, el) || ty_has(c->tt, el, TY_F_HAS_RUNTIME)) {
            ERR(nsp(c, templ_arg(c, h, 0)), "'%s' cannot be used as an element type of an array", TN(el));
            return 0;
        }
        if (!ty_is_creation_fixed_footprint(c->tt, el)) {
            ERR(nsp(c, templ_arg(c, h, 0)), "an array element type cannot contain a runtime-sized array");
            return 0;
        }
    } else if (sgm_use_of(s)) {
        if (!(t = sgm_type(c, h, sgm_use_of(s), s, nt))) return 0;
    } else if (!strcmp(s, "atomic")) {
        if (nt != 1) {
            ERR(nsp(c, h), nt ? "'atomic' requires 1 template argument" : "expected '<' for 'atomic'");
            return 0;
        }
        ty_t el = type_expr(c, templ_arg(c, h, 0));
        if (!el) return 0;
        if (el != TY_I32 && el != TY_U32) {
            ERR(nsp(c, templ_arg(c, h, 0)), "'atomic' only supports 'i32', 'u32' or 'vec2u' types");
            return 0;
        }
        t = ty_atomic(c->tt, el);
    } else if (!strcmp(s, "ptr")) {
        if (nt < 2 || nt > 3) {
            ERR(nsp(c, h), nt ? "'ptr' requires 2 or 3 template arguments" : "expected '<' for 'ptr'");
            return 0;
        }
        uint32_t a0 = templ_arg(c, h, 0);
        const char *as_s = ident_text(c, a0);
        if (EX(c, a0)->decl) {
            ERR(nsp(c, a0), "cannot use %s '%s' as address space", decl_kind_word(c, EX(c, a0)->decl), as_s);
            return 0;
        }
        ty_as as = ty_as_by_name(as_s, strlen(as_s));
        if (!as || as == TY_AS_HANDLE) {
            ERR(nsp(c, a0), "unresolved address space '%s'", as_s);
            return 0;
        }
        ty_t st = type_expr(c, templ_arg(c, h, 1));
        if (!st) return 0;
        if ((as == TY_AS_STORAGE || as == TY_AS_UNIFORM) && !ty_is_host_shareable(c->tt, st)) {
            ERR(nsp(c, templ_arg(c, h, 1)), "type '%s' cannot be used in address space '%s' as it is non-host-shareable",
                TN(st), ty_as_name(as));
            return 0;
        }
        ty_access am = ty_as_default_access(as);
        if (nt == 3) {
            uint32_t a2 = templ_arg(c, h, 2);
            const char *am_s = ident_text(c, a2);
            am = ty_access_by_name(am_s, strlen(am_s));
            if (!am) {
                ERR(nsp(c, a2), "unresolved access '%s'", am_s);
                return 0;
            }
            if (as != TY_AS_STORAGE) {
                ERR(nsp(c, h), "only pointers in <storage> address space may specify an access mode");
                return 0;
            }
        }
        t = ty_ptr(c->tt, as, st, am);
    } else {
        ERR(nsp(c, h), "unresolved type '%s'", s);
        return 0;
    }
    e->kind = SEMA_EK_TYPE;
    e->type = t;
    return t;
}

/* ---- operators ---------------------------------------------------------------------------------- */

static const cv_binop binop_of[AST_OP_COUNT] = {
    [AST_OP_ADD] = CV_ADD, [AST_OP_SUB] = CV_SUB, [AST_OP_MUL] = CV_MUL, [AST_OP_DIV] = CV_DIV,
    [AST_OP_MOD] = CV_MOD, [AST_OP_AND] = CV_AND, [AST_OP_OR] = CV_OR, [AST_OP_XOR] = CV_XOR,
    [AST_OP_SHL] = CV_SHL, [AST_OP_SHR] = CV_SHR, [AST_OP_LAND] = CV_LAND, [AST_OP_LOR] = CV_LOR,
    [AST_OP_EQ] = CV_EQ, [AST_OP_NE] = CV_NE, [AST_OP_LT] = CV_LT, [AST_OP_LE] = CV_LE,
    [AST_OP_GT] = CV_GT, [AST_OP_GE] = CV_GE,
};

/* The common scalar of two scalar types under automatic conversion, or 0. */
static ty_t common_scalar(ty_t a, ty_t b) {
    if (a == b) return a;
    if (a == TY_AINT && (b == TY_AFLOAT || b == TY_I32 || b == TY_U32 || b == TY_F32 || b == TY_F16)) return b;
    if (b == TY_AINT && (a == TY_AFLOAT || a == TY_I32 || a == TY_U32 || a == TY_F32 || a == TY_F16)) return a;
    if (a == TY_AFLOAT && (b == TY_F32 || b == TY_F16)) return b;
    if (b == TY_AFLOAT && (a == TY_F32 || a == TY_F16)) return a;
    return 0;
}

static void no_overload(checker *c, uint32_t h, ast_op op, ty_t l, ty_t r) {
    if (r) ERR(nsp(c, h), "no matching overload for 'operator %s (%s, %s)'", ast_op_name(op), TN(l), TN(r));
    else ERR(nsp(c, h), "no matching overload for 'operator %s (%s)'", ast_op_name(op), TN(l));
}

static void binary_expr(checker *c, uint32_t h, sema_expr *e) {
    const ast_node *n = N(h);
    ast_op op = (ast_op)n->op;
    uint32_t lh = n->u.binary.lhs, rh = n->u.binary.rhs;
    ty_t l = rval(c, lh);
    ty_t r = rval(c, rh);
    if (!l || !r) return;
    const ty_info *li = ty_get(c->tt, l), *ri = ty_get(c->tt, r);
    ty_t ls = ty_scalar_of(c->tt, l), rs = ty_scalar_of(c->tt, r);
    ty_t res = 0, lt = 0, rt = 0;       /* result and operand types after conversion */
    bool lvec = li->kind == TY_VEC, rvec = ri->kind == TY_VEC;
    bool lmat = li->kind == TY_MAT, rmat = ri->kind == TY_MAT;
    bool lsc = ty_is_scalar(c->tt, l), rsc = ty_is_scalar(c->tt, r);
    switch (op) {
    case AST_OP_ADD: case AST_OP_SUB: case AST_OP_MUL: case AST_OP_DIV: case AST_OP_MOD: {
        if ((lmat || rmat) && op != AST_OP_DIV && op != AST_OP_MOD) {
            ty_t s = common_scalar(ls, rs);
            if (!s || !is_float_scalar(s)) break;
            if (lmat && rmat) {
                if (op == AST_OP_MUL) {
                    if (li->n != ri->rows) break;
                    lt = ty_with_scalar(c->tt, l, s); rt = ty_with_scalar(c->tt, r, s);
                    res = ty_mat(c->tt, ri->n, li->rows, s);
                } else {
                    if (li->n != ri->n || li->rows != ri->rows) break;
                    lt = rt = res = ty_with_scalar(c->tt, l, s);
                }
            } else if (op == AST_OP_MUL) {
                if (lmat && rsc) { lt = res = ty_with_scalar(c->tt, l, s); rt = s; }
                else if (rmat && lsc) { rt = res = ty_with_scalar(c->tt, r, s); lt = s; }
                else if (lmat && rvec && ri->n == li->n) {
                    lt = ty_with_scalar(c->tt, l, s); rt = ty_with_scalar(c->tt, r, s);
                    res = ty_vec(c->tt, li->rows, s);
                } else if (rmat && lvec && li->n == ri->rows) {
                    lt = ty_with_scalar(c->tt, l, s); rt = ty_with_scalar(c->tt, r, s);
                    res = ty_vec(c->tt, ri->n, s);
                }
            }
            break;
        }
        if (!ls || !rs || ls == TY_BOOL || rs == TY_BOOL || lmat || rmat) break;
        ty_t s = common_scalar(ls, rs);
        if (!s) break;
        if (lvec && rvec) {
            if (li->n != ri->n) break;
            lt = rt = res = ty_vec(c->tt, li->n, s);
        } else if (lvec) { lt = res = ty_vec(c->tt, li->n, s); rt = s; }
        else if (rvec) { rt = res = ty_vec(c->tt, ri->n, s); lt = s; }
        else lt = rt = res = s;
        break;
    }
    case AST_OP_AND: case AST_OP_OR: case AST_OP_XOR: {
        if (!ls || !rs || lmat || rmat || lvec != rvec || (lvec && li->n != ri->n)) break;
        ty_t s = common_scalar(ls, rs);
        if (!s || is_float_scalar(s) || (s == TY_BOOL && op == AST_OP_XOR)) break;
        lt = rt = res = lvec ? ty_vec(c->tt, li->n, s) : s;
        break;
    }
    case AST_OP_LAND: case AST_OP_LOR:
        if (l == TY_BOOL && r == TY_BOOL) lt = rt = res = TY_BOOL;
        break;
    case AST_OP_SHL: case AST_OP_SHR: {
        if (!ls || !rs || lmat || rmat || lvec != rvec || (lvec && li->n != ri->n)) break;
        if (!is_int_scalar(ls) || !is_int_scalar(rs) || rs == TY_I32) break;
        lt = res = l;
        rt = lvec ? ty_vec(c->tt, li->n, TY_U32) : TY_U32;
        if (ls == TY_AINT && EX(c, lh)->stage != SEMA_STAGE_CONST) lt = res = ty_with_scalar(c->tt, l, TY_I32);
        break;
    }
    case AST_OP_EQ: case AST_OP_NE: case AST_OP_LT: case AST_OP_LE: case AST_OP_GT: case AST_OP_GE: {
        if (!ls || !rs || lmat || rmat || lvec != rvec || (lvec && li->n != ri->n)) break;
        ty_t s = common_scalar(ls, rs);
        if (!s || (s == TY_BOOL && op != AST_OP_EQ && op != AST_OP_NE)) break;
        lt = rt = lvec ? ty_vec(c->tt, li->n, s) : s;
        res = lvec ? ty_vec(c->tt, li->n, TY_BOOL) : TY_BOOL;
        break;
    }
    default: break;
    }
    if (!res) {
        no_overload(c, h, op, l, r);
        return;
    }
    if (!materialize(c, lh, lt) || !materialize(c, rh, rt)) {
        if (EX(c, lh)->type && EX(c, rh)->type) no_overload(c, h, op, l, r);
        return;
    }
    e->kind = SEMA_EK_VALUE;
    e->type = res;
    e->stage = (uint8_t)stage_max(EX(c, lh)->stage, EX(c, rh)->stage);
    if (e->stage != SEMA_STAGE_CONST && (EX(c, lh)->cval || EX(c, rh)->cval) && op < AST_OP_COUNT) {
        /* one constant operand: division by zero, shift count not below the bit width */
        const cv_value *lv = EX(c, lh)->stage == SEMA_STAGE_CONST ? val(c, lh) : NULL;
        const cv_value *rv = EX(c, rh)->stage == SEMA_STAGE_CONST ? val(c, rh) : NULL;
        if (cv_check_partial_binary(&c->sm->cv, binop_of[op], lt, lv, rv)) {
            ERR(nsp(c, h), "%s", c->sm->cv.msg);
            e->type = 0;
            return;
        }
    }
    if (e->stage == SEMA_STAGE_CONST && val(c, lh) && val(c, rh)) {
        cv_value out;
        if (cv_binary(&c->sm->cv, binop_of[op], val(c, lh), val(c, rh), &out)) {
            ERR(nsp(c, h), "%s", c->sm->cv.msg);
            e->type = 0;
            return;
        }
        set_value(c, h, &out);
    } else if (e->stage == SEMA_STAGE_CONST) {
        e->stage = SEMA_STAGE_RUNTIME;
    }
}

static void unary_expr(checker *c, uint32_t h, sema_expr *e) {
    const ast_node *n = N(h);
    ast_op op = (ast_op)n->op;
    uint32_t oh = n->u.unary.operand;
    if (op == AST_OP_ADDR) {
        sema_expr *o = expr(c, oh);
        if (!o->type) return;
        if (o->kind != SEMA_EK_REF) {
            uint32_t d = N(oh)->kind == AST_IDENT ? o->decl : 0;
            if (d) ERR(nsp(c, oh), "cannot take the address of '%s'", decl_desc(c, d));
            else ERR(nsp(c, oh), "cannot take the address of a value of type '%s'", TN(o->type));
            return;
        }
        const ty_info *ri = ty_get(c->tt, o->type);
        if (N(oh)->kind == AST_MEMBER && EX(c, oh)->swz_n) {
            ERR(nsp(c, h), "cannot take the address of a vector component");
            return;
        }
        if (N(oh)->kind == AST_INDEX && ty_is_vec(c->tt, ty_unref(c->tt, EX(c, N(oh)->u.index.base)->type))) {
            ERR(nsp(c, h), "cannot take the address of a vector component");
            return;
        }
        if (ri->as == TY_AS_HANDLE) {
            ERR(nsp(c, h), "cannot take the address of expression in handle address space");
            return;
        }
        e->kind = SEMA_EK_VALUE;
        e->type = ty_ptr(c->tt, (ty_as)ri->as, ri->elem, (ty_access)ri->access);
        e->stage = SEMA_STAGE_RUNTIME;
        return;
    }
    if (op == AST_OP_DEREF) {
        ty_t t = rval(c, oh);
        if (!t) return;
        if (!ty_is_ptr(c->tt, t)) {
            ERR(nsp(c, oh), "cannot dereference expression of type '%s'", TN(t));
            return;
        }
        const ty_info *pi = ty_get(c->tt, t);
        e->kind = SEMA_EK_REF;
        e->type = ty_ref(c->tt, (ty_as)pi->as, pi->elem, (ty_access)pi->access);
        e->stage = SEMA_STAGE_RUNTIME;
        return;
    }
    ty_t t = rval(c, oh);
    if (!t) return;
    ty_t s = ty_scalar_of(c->tt, t);
    bool ok = false;
    cv_unop cop = CV_NEG;
    switch (op) {
    case AST_OP_NEG: ok = s && s != TY_BOOL && s != TY_U32 && !ty_is_mat(c->tt, t); cop = CV_NEG; break;
    case AST_OP_NOT: ok = s == TY_BOOL; cop = CV_NOT; break;
    case AST_OP_BITNOT: ok = is_int_scalar(s) && !ty_is_mat(c->tt, t); cop = CV_COMPL; break;
    default: break;
    }
    if (!ok) {
        no_overload(c, h, op, t, 0);
        return;
    }
    e->kind = SEMA_EK_VALUE;
    e->type = t;
    e->stage = EX(c, oh)->stage;
    if (e->stage == SEMA_STAGE_CONST && val(c, oh)) {
        cv_value out;
        if (cv_unary(&c->sm->cv, cop, val(c, oh), &out)) {
            ERR(nsp(c, h), "%s", c->sm->cv.msg);
            e->type = 0;
            return;
        }
        set_value(c, h, &out);
    }
}

/* ---- access: index, member, swizzle ------------------------------------------------------------- */

/* The base of an access: reference (possibly through a pointer) or value.  Returns the type of the
 * composite (store type for references) and whether it is a reference. */
static ty_t access_base(checker *c, uint32_t bh, bool *is_ref, ty_t *ref_t) {
    sema_expr *b = expr(c, bh);
    if (!b->type) return 0;
    if (b->kind == SEMA_EK_TYPE || b->kind == SEMA_EK_FN) {
        rval(c, bh);
        return 0;
    }
    if (b->kind == SEMA_EK_REF) {
        *is_ref = true;
        *ref_t = b->type;
        return ty_unref(c->tt, b->type);
    }
    if (ty_is_ptr(c->tt, b->type)) {   /* pointer composite access */
        const ty_info *pi = ty_get(c->tt, b->type);
        *is_ref = true;
        *ref_t = ty_ref(c->tt, (ty_as)pi->as, pi->elem, (ty_access)pi->access);
        return pi->elem;
    }
    *is_ref = false;
    return b->type;
}

static void index_expr(checker *c, uint32_t h, sema_expr *e) {
    const ast_node *n = N(h);
    bool is_ref = false;
    ty_t rt = 0;
    ty_t bt = access_base(c, n->u.index.base, &is_ref, &rt);
    ty_t it = rval(c, n->u.index.index);
    if (!bt || !it) return;
    const ty_info *bi = ty_get(c->tt, bt);
    ty_t el = 0;
    uint32_t bound = 0;
    if (bi->kind == TY_VEC) { el = bi->elem; bound = bi->n; }
    else if (bi->kind == TY_MAT) { el = ty_mat_column(c->tt, bt); bound = bi->n; }
    else if (bi->kind == TY_ARRAY) { el = bi->elem; bound = bi->array_kind == TY_ARRAY_FIXED ? bi->count : 0; }
    else {
        ERR(nsp(c, n->u.index.base), "cannot index into expression of type '%s'", TN(bt));
        return;
    }
    if (it != TY_I32 && it != TY_U32 && it != TY_AINT) {
        ERR(nsp(c, n->u.index.index), "index must be of type 'i32' or 'u32', found: '%s'", TN(it));
        return;
    }
    sema_expr *ie = EX(c, n->u.index.index);
    if (ie->cval) {
        int64_t k = val(c, n->u.index.index)->u.i;
        if (k < 0 || (bound && k >= bound)) {
            ERR(nsp(c, n->u.index.index), "index %lld out of bounds [0..%u]", (long long)k, bound ? bound - 1 : 0);
            return;
        }
    }
    sema_expr *be = EX(c, n->u.index.base);
    if (is_ref) {
        if (be->kind != SEMA_EK_REF) be->load = 0;
        const ty_info *ri = ty_get(c->tt, rt);
        e->kind = SEMA_EK_REF;
        e->type = ty_ref(c->tt, (ty_as)ri->as, el, (ty_access)ri->access);
        e->stage = SEMA_STAGE_RUNTIME;
        if (it == TY_AINT) materialize(c, n->u.index.index, TY_I32);
        return;
    }
    e->kind = SEMA_EK_VALUE;
    e->type = el;
    e->stage = (uint8_t)stage_max(be->stage, ie->stage);
    if (e->stage == SEMA_STAGE_CONST && be->cval && ie->cval) {
        cv_value out;
        if (cv_index(&c->sm->cv, val(c, n->u.index.base), val(c, n->u.index.index)->u.i, &out)) {
            ERR(nsp(c, h), "%s", c->sm->cv.msg);
            e->type = 0;
            return;
        }
        set_value(c, h, &out);
    } else {
        if (e->stage == SEMA_STAGE_CONST) e->stage = SEMA_STAGE_RUNTIME;
        if (ty_is_abstract(c->tt, bt)) {   /* runtime index into an abstract value: concretize */
            ty_t cbt = ty_concretize(c->tt, bt);
            materialize(c, n->u.index.base, cbt);
            e->type = ty_concretize(c->tt, el);
        }
        if (it == TY_AINT) materialize(c, n->u.index.index, TY_I32);
    }
}

static int swz_index(char ch, int *set) {
    switch (ch) {
    case 'x': *set |= 1; return 0;
    case 'y': *set |= 1; return 1;
    case 'z': *set |= 1; return 2;
    case 'w': *set |= 1; return 3;
    case 'r': *set |= 2; return 0;
    case 'g': *set |= 2; return 1;
    case 'b': *set |= 2; return 2;
    case 'a': *set |= 2; return 3;
    default: return -1;
    }
}

static void member_expr(checker *c, uint32_t h, sema_expr *e) {
    const ast_node *n = N(h);
    bool is_ref = false;
    ty_t rt = 0;
    ty_t bt = access_base(c, n->u.member.base, &is_ref, &rt);
    if (!bt) return;
    const ty_info *bi = ty_get(c->tt, bt);
    sema_expr *be = EX(c, n->u.member.base);
    const char *mname = str(c, n->u.member.name);
    span msp = name_span(c, n->u.member.name_off, n->u.member.name);
    ty_t mt = 0;
    if (bi->kind == TY_STRUCT) {
        int idx = ty_member_index_str(c->tt, bt, mname, strlen(mname));
        if (idx < 0) {
            ERR(nsp(c, h), "struct member %s not found", mname);
            return;
        }
        e->member = (uint32_t)idx;
        mt = bi->members[idx].type;
        if (is_ref) {
            const ty_info *ri = ty_get(c->tt, rt);
            e->kind = SEMA_EK_REF;
            e->type = ty_ref(c->tt, (ty_as)ri->as, mt, (ty_access)ri->access);
            e->stage = SEMA_STAGE_RUNTIME;
            return;
        }
        e->kind = SEMA_EK_VALUE;
        e->type = mt;
        e->stage = be->stage;
        if (be->cval) {
            cv_value out;
            if (!cv_member(&c->sm->cv, val(c, n->u.member.base), (uint32_t)idx, &out)) set_value(c, h, &out);
        }
        return;
    }
    if (bi->kind == TY_VEC) {
        size_t len = strlen(mname);
        int set = 0;
        for (size_t i = 0; i < len; i++) {
            int dummy = 0;
            if (swz_index(mname[i], &dummy) < 0) {
                ERR(span_make(msp.off + (uint32_t)i, 1), "invalid vector swizzle character");
                return;
            }
        }
        if (len > 4) {
            ERR(msp, "invalid vector swizzle size");
            return;
        }
        for (size_t i = 0; i < len; i++) {
            int k = swz_index(mname[i], &set);
            if (k < 0) {
                ERR(span_make(msp.off + (uint32_t)i, 1), "invalid vector swizzle character");
                return;
            }
            if (k >= bi->n) {
                ERR(msp, "invalid vector swizzle member");
                return;
            }
            e->swz[i] = (uint8_t)k;
        }
        if (set == 3) {
            ERR(msp, "invalid mixing of vector swizzle characters rgba with xyzw");
            return;
        }
        e->swz_n = (uint8_t)len;
        if (len == 1 && is_ref) {
            const ty_info *ri = ty_get(c->tt, rt);
            e->kind = SEMA_EK_REF;
            e->type = ty_ref(c->tt, (ty_as)ri->as, bi->elem, (ty_access)ri->access);
            e->stage = SEMA_STAGE_RUNTIME;
            return;
        }
        if (is_ref && be->kind == SEMA_EK_REF) be->load = 1;
        e->kind = SEMA_EK_VALUE;
        e->type = len == 1 ? bi->elem : ty_vec(c->tt, (uint32_t)len, bi->elem);
        e->stage = is_ref ? SEMA_STAGE_RUNTIME : be->stage;
        if (!is_ref && be->cval) {
            cv_value out;
            if (!cv_swizzle(&c->sm->cv, val(c, n->u.member.base), e->swz, (uint32_t)len, &out)) set_value(c, h, &out);
        }
        return;
    }
    ERR(nsp(c, n->u.member.base), "cannot index into expression of type '%s'", TN(bt));
}

/* ---- calls -------------------------------------------------------------------------------------- */

static uint32_t arg_at(const checker *c, uint32_t h, uint32_t i) { return ast_item(c->m, N(h)->u.call.args, i); }

/* Evaluates a construction whose args are all const. */
static void const_construct(checker *c, uint32_t h, sema_expr *e, ty_t t, uint32_t nargs) {
    const ty_info *ti = ty_get(c->tt, t);
    cv_value out;
    cv_ctx *cx = &c->sm->cv;
    for (uint32_t i = 0; i < nargs; i++)
        if (!EX(c, arg_at(c, h, i))->cval) return;
    int rc = 0;
    if (nargs == 0) rc = cv_zero(cx, t, &out);
    else if (e->call == SEMA_CALL_CONVERT) rc = cv_convert_explicit(cx, val(c, arg_at(c, h, 0)), t, &out);
    else if (ti->kind == TY_VEC) {
        cv_value comps[4];
        uint32_t k = 0;
        if (nargs == 1 && ty_is_scalar(c->tt, val(c, arg_at(c, h, 0))->type))
            rc = cv_splat(cx, t, val(c, arg_at(c, h, 0)), &out);
        else {
            for (uint32_t i = 0; i < nargs && k < 4; i++) {
                const cv_value *a = val(c, arg_at(c, h, i));
                if (ty_is_vec(c->tt, a->type))
                    for (uint32_t j = 0; j < a->n && k < 4; j++) comps[k++] = a->u.elems[j];
                else comps[k++] = *a;
            }
            rc = cv_composite(cx, t, comps, k, &out);
        }
    } else if (ti->kind == TY_MAT && nargs == (uint32_t)ti->n * ti->rows && nargs > ti->n) {
        cv_value cols[4];
        ty_t ct = ty_mat_column(c->tt, t);
        for (uint32_t i = 0; i < ti->n && !rc; i++) {
            cv_value comps[4];
            for (uint32_t j = 0; j < ti->rows; j++) comps[j] = *val(c, arg_at(c, h, i * ti->rows + j));
            rc = cv_composite(cx, ct, comps, ti->rows, &cols[i]);
        }
        if (!rc) rc = cv_composite(cx, t, cols, ti->n, &out);
    } else {
        cv_value *elems = arena_alloc(&c->cc->arena, (nargs + 1) * sizeof *elems);
        for (uint32_t i = 0; i < nargs; i++) elems[i] = *val(c, arg_at(c, h, i));
        rc = cv_composite(cx, t, elems, nargs, &out);
    }
    if (rc) {
        ERR(nsp(c, h), "%s", cx->msg);
        e->type = 0;
        return;
    }
    set_value(c, h, &out);
}

static void ctor_mismatch(checker *c, uint32_t h, ty_t t, uint32_t nargs, const ty_t *orig) {
    char buf[512];
    size_t p = 0;
    p += (size_t)snprintf(buf + p, sizeof buf - p, "no matching constructor for '%s(", TN(t));
    for (uint32_t i = 0; i < nargs && p < sizeof buf - 64; i++)
        p += (size_t)snprintf(buf + p, sizeof buf - p, "%s%s", i ? ", " : "", TN(orig[i]));
    snprintf(buf + p, sizeof buf - p, ")'");
    ERR(nsp(c, h), "%s", buf);
}

/* Common type of the args' scalar components (for inferred vecN(...), matCxR(...)), or 0. */
static ty_t infer_scalar(checker *c, uint32_t h, uint32_t nargs) {
    ty_t s = 0;
    for (uint32_t i = 0; i < nargs; i++) {
        ty_t a = ty_scalar_of(c->tt, sema_value_type(c->sm, arg_at(c, h, i)));
        if (!a) return 0;
        s = s ? common_scalar(s, a) : a;
        if (!s) return 0;
    }
    return s;
}

/* T(args) for a constructible type T (or an inferred template: `partial` names vecN/matCxR/array). */
static void construct(checker *c, uint32_t h, sema_expr *e, ty_t t, const char *partial) {
    const ast_node *n = N(h);
    uint32_t nargs = n->u.call.args.count;
    for (uint32_t i = 0; i < nargs; i++)
        if (!rval(c, arg_at(c, h, i))) return;
    int st = SEMA_STAGE_CONST;
    ty_t *orig = arena_alloc(&c->cc->arena, (nargs + 1) * sizeof *orig);
    for (uint32_t i = 0; i < nargs; i++) {
        st = stage_max(st, EX(c, arg_at(c, h, i))->stage);
        orig[i] = sema_value_type(c->sm, arg_at(c, h, i));
    }
    if (partial) {          /* infer the template arguments */
        if (!nargs && partial[0] == 'v') { t = ty_vec(c->tt, (uint32_t)(partial[3] - '0'), TY_AINT); }
        else if (!nargs) {
            ERR(nsp(c, h), "cannot infer template arguments of '%s' with no arguments", partial);
            return;
        } else if (partial[0] == 'v') {
            uint32_t w = (uint32_t)(partial[3] - '0');
            ty_t s = infer_scalar(c, h, nargs);
            ty_t a0 = sema_value_type(c->sm, arg_at(c, h, 0));
            if (s && nargs == 1 && ty_is_vec(c->tt, a0) && ty_width(c->tt, a0) == w) s = ty_scalar_of(c->tt, a0);
            if (!s) {
                ERR(nsp(c, h), "cannot infer vector element type, as constructor arguments have different types");
                return;
            }
            t = ty_vec(c->tt, w, s);
        } else if (partial[0] == 'm') {
            ty_t s = infer_scalar(c, h, nargs);
            if (s == TY_AINT) s = TY_AFLOAT;
            if (!s || !is_float_scalar(s)) {
                ERR(nsp(c, h), "cannot infer matrix element type, as constructor arguments have different types");
                return;
            }
            t = ty_mat(c->tt, (uint32_t)(partial[3] - '0'), (uint32_t)(partial[5] - '0'), s);
        } else {            /* array */
            ty_t el = sema_value_type(c->sm, arg_at(c, h, 0));
            for (uint32_t i = 1; i < nargs && el; i++) {
                ty_t a = sema_value_type(c->sm, arg_at(c, h, i));
                if (a == el) continue;
                if (ty_conversion_rank(c->tt, a, el) != TY_RANK_INF) continue;
                if (ty_conversion_rank(c->tt, el, a) != TY_RANK_INF) { el = a; continue; }
                if (ty_is_scalar(c->tt, a) && ty_is_scalar(c->tt, el)) { el = common_scalar(a, el); continue; }
                el = 0;
            }
            if (!el) {
                ERR(nsp(c, h), "cannot infer common array element type from constructor arguments");
                return;
            }
            t = ty_array(c->tt, el, nargs);
        }
    }
    if (!t) return;
    const ty_info *ti = ty_get(c->tt, t);
    e->kind = SEMA_EK_VALUE;
    e->type = t;
    e->stage = (uint8_t)st;
    e->call = nargs ? SEMA_CALL_CONSTRUCT : SEMA_CALL_ZERO;
    if (!ty_is_constructible(c->tt, t)) {
        /* Tint converts the arguments first */
        for (uint32_t i = 0; ti->kind == TY_STRUCT && i < nargs && i < ti->nmembers; i++) {
            bool rep;
            if (!convert_or_report(c, arg_at(c, h, i), ti->members[i].type, &rep) && rep) {
                e->type = 0;
                return;
            }
        }
        ERR(nsp(c, h), "type '%s' is not constructible", TN(t));
        e->type = 0;
        return;
    }
    bool ok = true;
    if (nargs == 0) {
        /* zero value */
    } else if (ty_is_scalar(c->tt, t)) {
        ty_t a = sema_value_type(c->sm, arg_at(c, h, 0));
        ok = nargs == 1 && ty_is_scalar(c->tt, a);
        e->call = SEMA_CALL_CONVERT;
        if (ok && ty_is_abstract(c->tt, a) && ty_conversion_rank(c->tt, a, t) != TY_RANK_INF) {
            materialize(c, arg_at(c, h, 0), t);
        }
    } else if (ti->kind == TY_VEC) {
        ty_t a0 = sema_value_type(c->sm, arg_at(c, h, 0));
        if (nargs == 1 && ty_is_vec(c->tt, a0) && ty_width(c->tt, a0) == ti->n) {
            e->call = SEMA_CALL_CONVERT;
            if (ty_is_abstract(c->tt, a0) && ty_conversion_rank(c->tt, a0, t) != TY_RANK_INF)
                materialize(c, arg_at(c, h, 0), t);
        } else if (nargs == 1 && ty_is_scalar(c->tt, a0)) {
            ok = materialize(c, arg_at(c, h, 0), ti->elem);
        } else {
            uint32_t total = 0;
            for (uint32_t i = 0; i < nargs && ok; i++) {
                uint32_t ah = arg_at(c, h, i);
                ty_t a = sema_value_type(c->sm, ah);
                if (ty_is_vec(c->tt, a)) {
                    total += ty_width(c->tt, a);
                    ok = materialize(c, ah, ty_vec(c->tt, ty_width(c->tt, a), ti->elem));
                } else if (ty_is_scalar(c->tt, a)) {
                    total++;
                    ok = materialize(c, ah, ti->elem);
                } else ok = false;
            }
            ok = ok && total == ti->n;
        }
    } else if (ti->kind == TY_MAT) {
        ty_t a0 = sema_value_type(c->sm, arg_at(c, h, 0));
        ty_t col = ty_mat_column(c->tt, t);
        if (nargs == 1 && ty_is_mat(c->tt, a0)) {
            const ty_info *ai = ty_get(c->tt, a0);
            ok = ai->n == ti->n && ai->rows == ti->rows;
            e->call = SEMA_CALL_CONVERT;
            if (ok && ty_is_abstract(c->tt, a0)) materialize(c, arg_at(c, h, 0), t);
        } else if (nargs == ti->n) {
            for (uint32_t i = 0; i < nargs && ok; i++) ok = materialize(c, arg_at(c, h, i), col);
        } else if (nargs == (uint32_t)ti->n * ti->rows) {
            for (uint32_t i = 0; i < nargs && ok; i++) ok = materialize(c, arg_at(c, h, i), ti->elem);
        } else ok = false;
    } else if (ti->kind == TY_ARRAY) {
        for (uint32_t i = 0; i < nargs && ok; i++) {
            ok = materialize(c, arg_at(c, h, i), ti->elem);
            if (!ok && EX(c, arg_at(c, h, i))->type) {
                ERR(nsp(c, arg_at(c, h, i)), "'%s' cannot be used to construct an array of '%s'",
                    TN(sema_value_type(c->sm, arg_at(c, h, i))), TN(ti->elem));
                e->type = 0;
                return;
            }
        }
        if (ok && ti->array_kind == TY_ARRAY_FIXED && nargs != ti->count) {
            ERR(nsp(c, h), "array constructor has too %s elements: expected %u, found %u",
                nargs < ti->count ? "few" : "many", ti->count, nargs);
            e->type = 0;
            return;
        }
        ok = ok && ti->array_kind == TY_ARRAY_FIXED;
    } else if (ti->kind == TY_STRUCT) {
        if (nargs != ti->nmembers) {
            ERR(nsp(c, h), "structure constructor has too %s inputs: expected %u, found %u",
                nargs < ti->nmembers ? "few" : "many", ti->nmembers, nargs);
            e->type = 0;
            return;
        }
        for (uint32_t i = 0; i < nargs && ok; i++) {
            ok = materialize(c, arg_at(c, h, i), ti->members[i].type);
            if (!ok && EX(c, arg_at(c, h, i))->type) {
                ERR(nsp(c, arg_at(c, h, i)), "type in structure constructor does not match struct member type: expected '%s', found '%s'",
                    TN(ti->members[i].type), TN(sema_value_type(c->sm, arg_at(c, h, i))));
                e->type = 0;
                return;
            }
        }
    } else ok = false;
    if (!ok) {
        for (uint32_t i = 0; i < nargs; i++)
            if (!EX(c, arg_at(c, h, i))->type) { e->type = 0; return; }
        ctor_mismatch(c, h, t, nargs, orig);
        e->type = 0;
        return;
    }
    if (e->call == SEMA_CALL_CONVERT && ty_is_abstract(c->tt, sema_value_type(c->sm, arg_at(c, h, 0))) &&
        !EX(c, arg_at(c, h, 0))->cval) {
        concretize(c, arg_at(c, h, 0));
    }
    if (e->stage == SEMA_STAGE_CONST) const_construct(c, h, e, t, nargs);
}

static void bitcast_expr(checker *c, uint32_t h, sema_expr *e) {
    const ast_node *n = N(h);
    const ast_node *cal = N(n->u.call.callee);
    if (cal->u.ident.templ.count != 1) {
        ERR(nsp(c, h), "missing template argument for 'bitcast'");
        return;
    }
    ty_t t = type_expr(c, templ_arg(c, n->u.call.callee, 0));
    if (n->u.call.args.count != 1) {
        ERR(nsp(c, h), "bitcast expects 1 argument");
        return;
    }
    ty_t a = rval(c, arg_at(c, h, 0));
    if (!t || !a) return;
    if (ty_is_abstract(c->tt, a)) a = concretize(c, arg_at(c, h, 0));
    if (!a) return;
    uint64_t sa = ty_size_of(c->tt, a), st = ty_size_of(c->tt, t);
    ty_t ss = ty_scalar_of(c->tt, a), ts = ty_scalar_of(c->tt, t);
    bool ok = ss && ts && ss != TY_BOOL && ts != TY_BOOL && !ty_is_mat(c->tt, a) && !ty_is_mat(c->tt, t) && sa == st &&
              (ty_width(c->tt, a) == ty_width(c->tt, t) || ss == TY_F16 || ts == TY_F16);
    if (!ok) {
        ERR(nsp(c, h), "cannot bitcast from '%s' to '%s'", TN(a), TN(t));
        return;
    }
    e->kind = SEMA_EK_VALUE;
    e->type = t;
    e->call = SEMA_CALL_BITCAST;
    e->stage = EX(c, arg_at(c, h, 0))->stage;
    if (e->stage == SEMA_STAGE_CONST && EX(c, arg_at(c, h, 0))->cval) {
        cv_value out;
        if (cv_bitcast(&c->sm->cv, val(c, arg_at(c, h, 0)), t, &out)) {
            ERR(nsp(c, h), "%s", c->sm->cv.msg);
            e->type = 0;
            return;
        }
        set_value(c, h, &out);
    }
}

static void user_call(checker *c, uint32_t h, sema_expr *e, uint32_t fn) {
    const ast_node *n = N(h);
    const ast_node *f = N(fn);
    sema_fn *fi = sema_fn_of(c->sm, fn);
    uint32_t nargs = n->u.call.args.count, nparams = f->u.fn.params.count;
    for (uint32_t i = 0; i < nargs; i++)
        if (!rval(c, arg_at(c, h, i))) return;
    if (fi && fi->stage) {
        ERR(nsp(c, h), "entry point functions cannot be the target of a function call");
        return;
    }
    if (nargs != nparams) {
        ERR(nsp(c, h), "too %s arguments in call to '%s', expected %u, got %u",
            nargs < nparams ? "few" : "many", str(c, f->u.fn.name), nparams, nargs);
        return;
    }
    for (uint32_t i = 0; i < nargs; i++) {
        uint32_t p = ast_item(c->m, f->u.fn.params, i);
        ty_t pt = DC(c, p)->type;
        uint32_t ah = arg_at(c, h, i);
        if (!pt) return;
        bool rep;
        if (!convert_or_report(c, ah, pt, &rep)) {
            if (rep) return;
            ERR(nsp(c, ah), "type mismatch for argument %u in call to '%s', expected '%s', got '%s'",
                i + 1, str(c, f->u.fn.name), TN(pt), TN(sema_value_type(c->sm, ah)));
            return;
        }
    }
    e->kind = SEMA_EK_VALUE;
    e->type = fi ? fi->ret : 0;
    e->call = SEMA_CALL_FN;
    e->decl = fn;
    e->stage = SEMA_STAGE_RUNTIME;
    bool seen = false;
    for (uint32_t i = 0; i < c->callees.n; i++) seen |= c->callees.v[i] == fn;
    if (!seen) ARR_PUSH(&c->cc->arena, c->callees, fn);
    if (fi)
        for (uint32_t i = 0; i < fi->nglobals; i++) use_global(c, fi->globals[i]);
    if (!e->type) e->type = TY_VOID;
}

static void builtin_call(checker *c, uint32_t h, sema_expr *e, const char *name);

/* M() is the zero matrix, M(s) a matrix of s (converted to the element type). */
static void sgm_construct(checker *c, uint32_t h, sema_expr *e, ty_t t) {
    uint32_t nargs = N(h)->u.call.args.count;
    ty_t el = ty_get(c->tt, t)->elem;
    if (nargs > 1) {
        ERR(nsp(c, h), "'%s' constructor takes at most 1 argument, found %u", TN(t), nargs);
        return;
    }
    if (nargs == 1) {
        uint32_t a = arg_at(c, h, 0);
        ty_t at = rval(c, a);
        if (!at) return;
        if (!materialize(c, a, el)) {
            if (EX(c, a)->type) ERR(nsp(c, a), "cannot convert value of type '%s' to type '%s'", TN(at), TN(el));
            return;
        }
    }
    e->kind = SEMA_EK_VALUE;
    e->type = t;
    e->call = (uint8_t)(nargs ? SEMA_CALL_CONSTRUCT : SEMA_CALL_ZERO);
    e->stage = SEMA_STAGE_RUNTIME;
}

static void call_expr(checker *c, uint32_t h, sema_expr *e) {
    const ast_node *n = N(h);
    uint32_t ch = n->u.call.callee;
    const ast_node *cn = N(ch);
    sema_expr *ce = EX(c, ch);
    const char *name = str(c, cn->u.ident.name);
    if (ce->decl) {
        const ast_node *dn = N(ce->decl);
        if (dn->kind == AST_FN) {
            ce->kind = SEMA_EK_FN;
            user_call(c, h, e, ce->decl);
            return;
        }
        if (dn->kind == AST_STRUCT || dn->kind == AST_ALIAS) {
            ty_t t = type_expr(c, ch);
            if (t && ty_kind_of(c->tt, t) == TY_SGMAT) sgm_construct(c, h, e, t);
            else if (t) construct(c, h, e, t, NULL);
            return;
        }
        ERR(nsp(c, ch), "cannot use '%s' as call target", decl_desc(c, ce->decl));
        NOTE(sema_decl_span(c->cc, ce->decl, DC(c, ce->decl)->scope == SEMA_SCOPE_FUNCTION), "'%s' declared here", decl_desc(c, ce->decl));
        return;
    }
    size_t len = strlen(name);
    bool vecn = len == 4 && !strncmp(name, "vec", 3) && name[3] >= '2' && name[3] <= '4';
    bool matn = len == 6 && !strncmp(name, "mat", 3) && name[3] >= '2' && name[3] <= '4' && name[4] == 'x' &&
                name[5] >= '2' && name[5] <= '4';
    if ((vecn || matn || !strcmp(name, "array")) && !cn->u.ident.templ.count) {
        construct(c, h, e, 0, name);
        return;
    }
    if (vecn || matn || !strcmp(name, "array") || ty_scalar_by_name(name, len) ||
        ty_predeclared_alias(c->tt, name, len)) {
        ty_t t = type_expr(c, ch);
        if (t) construct(c, h, e, t, NULL);
        return;
    }
    if (!strcmp(name, "bitcast")) {
        bitcast_expr(c, h, e);
        return;
    }
    if (sgm_use_of(name)) {
        ty_t t = type_expr(c, ch);
        if (t) sgm_construct(c, h, e, t);
        return;
    }
    if (!strcmp(name, "atomic") || !strcmp(name, "ptr")) {
        ty_t t = type_expr(c, ch);
        if (t) ERR(nsp(c, h), "type '%s' is not constructible", TN(t));
        return;
    }
    builtin_call(c, h, e, name);
}

/* ---- expressions -------------------------------------------------------------------------------- */

static sema_expr *expr(checker *c, uint32_t h) {
    sema_expr *e = EX(c, h);
    if (!h) return e;
    const ast_node *n = N(h);
    e->stage = SEMA_STAGE_CONST;
    switch ((ast_kind)n->kind) {
    case AST_LIT_INT: {
        static const ty_t ts[] = { TY_AINT, TY_I32, TY_U32, TY_F32, TY_F16 };
        e->kind = SEMA_EK_VALUE;
        e->type = ts[n->op < 5 ? n->op : 0];
        cv_value v = cv_int(e->type, (int64_t)n->u.lit.i);
        e->cval = put_value(c, &v);
        break;
    }
    case AST_LIT_FLOAT: {
        ty_t t = n->op == AST_SUFFIX_F ? TY_F32 : n->op == AST_SUFFIX_H ? TY_F16 : TY_AFLOAT;
        if (t == TY_F16 && !enable_f16_check(c, n->sp)) break;
        e->kind = SEMA_EK_VALUE;
        e->type = t;
        cv_value v = cv_float(t, n->u.lit.f);
        e->cval = put_value(c, &v);
        break;
    }
    case AST_LIT_BOOL: {
        e->kind = SEMA_EK_VALUE;
        e->type = TY_BOOL;
        cv_value v = cv_bool(n->u.lit.i != 0);
        e->cval = put_value(c, &v);
        break;
    }
    case AST_IDENT: ident_expr(c, h, e); break;
    case AST_CALL: call_expr(c, h, e); break;
    case AST_INDEX: index_expr(c, h, e); break;
    case AST_MEMBER: member_expr(c, h, e); break;
    case AST_UNARY: unary_expr(c, h, e); break;
    case AST_BINARY: binary_expr(c, h, e); break;
    default:
        ERR(n->sp, "expected an expression");
        break;
    }
    return e;
}

/* Checks h and applies the load rule: the value type, or 0 (error reported). */
static ty_t rval(checker *c, uint32_t h) {
    sema_expr *e = expr(c, h);
    switch ((sema_ek)e->kind) {
    case SEMA_EK_VALUE:
        if (e->type == TY_VOID) {
            const ast_node *n = N(h);
            const char *fname = n->kind == AST_CALL ? ident_text(c, n->u.call.callee) : "";
            ERR(nsp(c, h), "function '%s' does not return a value", fname);
            e->type = 0;
            return 0;
        }
        return e->type;
    case SEMA_EK_REF: {
        const ty_info *ri = ty_get(c->tt, e->type);
        if (ri->access == TY_ACCESS_WRITE) {
            ERR(nsp(c, h), "cannot read from a write-only reference");
            return 0;
        }
        e->load = 1;
        return ri->elem;
    }
    case SEMA_EK_TYPE: {
        const ast_node *n = N(h);
        span sp = nsp(c, h);
        ERR(sp, "cannot use type '%s' as value", n->kind == AST_IDENT && !n->u.ident.templ.count ? str(c, n->u.ident.name) : TN(e->type));
        NOTE(span_make(sp.off + sp.len, 0), "are you missing '()'?");
        e->type = 0;
        return 0;
    }
    case SEMA_EK_FN: {
        span sp = nsp(c, h);
        const ast_node *n = N(h);
        if (e->decl) {
            const ast_node *f = N(e->decl);
            ERR(sp, "cannot use function '%s' as value", str(c, f->u.fn.name));
            NOTE(sema_decl_span(c->cc, e->decl, false), "function '%s' declared here", str(c, f->u.fn.name));
        } else {
            ERR(sp, "cannot use builtin function '%s' as value", n->kind == AST_IDENT ? str(c, n->u.ident.name) : "");
        }
        NOTE(span_make(sp.off + sp.len, 0), "are you missing '()'?");
        e->type = 0;
        return 0;
    }
    default:
        return 0;
    }
}

/* ---- statements --------------------------------------------------------------------------------- */

static bool is_phony_storable(checker *c, ty_t t) {
    return ty_is_constructible(c->tt, t) || ty_is_ptr(c->tt, t);
}

/* The root identifier's declaration of a reference expression, for messages. */
static uint32_t root_decl(checker *c, uint32_t h) {
    for (;;) {
        const ast_node *n = N(h);
        if (n->kind == AST_IDENT) return EX(c, h)->decl;
        if (n->kind == AST_INDEX) h = n->u.index.base;
        else if (n->kind == AST_MEMBER) h = n->u.member.base;
        else if (n->kind == AST_UNARY && (n->op == AST_OP_DEREF || n->op == AST_OP_ADDR)) h = n->u.unary.operand;
        else return 0;
    }
}

/* For an assignment lhs that is a swizzle (or a swizzle of swizzles) of a vector reference or
 * pointer: the reference / pointer node, with the vector components written in comps[0..*n);
 * else 0. */
static uint32_t swizzle_target(checker *c, uint32_t lh, uint8_t comps[4], uint32_t *n) {
    const sema_expr *l = EX(c, lh);
    if (!lh || N(lh)->kind != AST_MEMBER || l->kind != SEMA_EK_VALUE || !l->swz_n) return 0;
    *n = l->swz_n;
    memcpy(comps, l->swz, 4);
    uint32_t b = N(lh)->u.member.base;
    for (;;) {
        const sema_expr *be = EX(c, b);
        if (!be->type) return 0;
        if (be->kind == SEMA_EK_REF || ty_is_ptr(c->tt, be->type)) return *n > 1 || b != N(lh)->u.member.base ? b : 0;
        if (N(b)->kind != AST_MEMBER || be->kind != SEMA_EK_VALUE || !be->swz_n) return 0;
        for (uint32_t k = 0; k < *n; k++) comps[k] = be->swz[comps[k]];
        b = N(b)->u.member.base;
    }
}

/* Tint's name for a swizzle of a vector reference, "swizzle<function, vec2<f32>, read_write, 4, 2>",
 * or NULL when the assignment's lhs `lh` is not one. */
static const char *swizzle_ref_name(checker *c, uint32_t lh, char *buf, size_t size) {
    const sema_expr *l = EX(c, lh);
    uint8_t comps[4];
    uint32_t n;
    uint32_t root = swizzle_target(c, lh, comps, &n);
    if (!root) return NULL;
    const ty_info *ri = ty_get(c->tt, EX(c, root)->type);
    ty_t bt = sema_value_type(c->sm, N(lh)->u.member.base);     /* the vector swizzled last */
    if (ty_is_ptr(c->tt, bt) || ty_is_ref(c->tt, bt)) bt = ty_get(c->tt, bt)->elem;
    snprintf(buf, size, "swizzle<%s, %s, %s, %u, %u>", ty_as_name((ty_as)ri->as), TN(l->type),
             ty_access_name((ty_access)ri->access), (unsigned)ty_get(c->tt, bt)->n, (unsigned)l->swz_n);
    return buf;
}

/* The lhs of an assignment / increment: a writable reference.  Returns the store type. */
static ty_t lhs_ref(checker *c, uint32_t lh, bool incdec, span ro_sp) {
    sema_expr *l = expr(c, lh);
    if (!l->type) return 0;
    uint8_t comps[4];
    uint32_t ncomp = 0, root = incdec ? 0 : swizzle_target(c, lh, comps, &ncomp);
    if (root) {
        /* swizzle assignment `v.xy = e`, `v.xy.x = e` on a vector reference (or pointer): the
         * emitter stores each named component */
        for (uint32_t i = 0; i < ncomp; i++)
            for (uint32_t j = 0; j < i; j++)
                if (comps[i] == comps[j]) {
                    ERR(nsp(c, lh), "cannot assign to vector swizzle with duplicate target components");
                    return 0;
                }
        if (ty_get(c->tt, EX(c, root)->type)->access == TY_ACCESS_READ) {
            char nb[128];
            ERR(ro_sp, "cannot store into a read-only type '%s'", swizzle_ref_name(c, lh, nb, sizeof nb));
            return 0;
        }
        return l->type;
    }
    if (l->kind != SEMA_EK_REF) {
        uint32_t d = root_decl(c, lh);
        if (d && (N(d)->kind == AST_LET || N(d)->kind == AST_PARAM || N(d)->kind == AST_CONST ||
                  N(d)->kind == AST_OVERRIDE)) {
            const char *w = decl_kind_word(c, d);
            bool param = N(d)->kind == AST_PARAM;
            const char *nm = str(c, decl_name_of(c, d));
            if (incdec) ERR(nsp(c, lh), "cannot modify '%s'", w);
            else if (param) ERR(nsp(c, lh), "cannot assign to parameter '%s'", nm);
            else ERR(nsp(c, lh), "cannot assign to '%s %s'", w, nm);
            if (!incdec) {
                if (param) NOTE(nsp(c, lh), "parameters are immutable");
                else NOTE(nsp(c, lh), "'%s' variables are immutable", w);
            }
            span dsp = sema_decl_span(c->cc, d, DC(c, d)->scope == SEMA_SCOPE_FUNCTION);
            if (param) NOTE(dsp, "parameter '%s' declared here", nm);
            else NOTE(dsp, "'%s' declared here", decl_desc(c, d));
        } else if (l->kind == SEMA_EK_VALUE) {
            char nb[128];
            const char *sw = swizzle_ref_name(c, lh, nb, sizeof nb);
            ERR(nsp(c, lh), "cannot %s value of type '%s'", incdec ? "modify" : "assign to", sw ? sw : TN(l->type));
        } else {
            rval(c, lh);
        }
        return 0;
    }
    const ty_info *ri = ty_get(c->tt, l->type);
    if (ri->access == TY_ACCESS_READ) {
        ERR(ro_sp, "cannot store into a read-only type '%s'", TN(l->type));
        return 0;
    }
    return ri->elem;
}

/* The span of an assignment's operator token ("=", "+=", "<<=") after the lhs. */
static span assign_op_span(const checker *c, uint32_t h) {
    const ast_node *n = N(h);
    uint32_t lh = n->u.assign.lhs;
    uint32_t p = lh ? N(lh)->sp.off + N(lh)->sp.len : n->sp.off + 1;
    const char *src = c->cc->src;
    while (p < c->cc->src_len && (src[p] == ' ' || src[p] == '\t' || src[p] == '\n' || src[p] == '\r')) p++;
    uint32_t len = 1;
    while (p + len < c->cc->src_len && len < 3 && src[p + len - 1] != '=') len++;
    return span_make(p, len);
}

static int assign_stmt(checker *c, uint32_t h) {
    const ast_node *n = N(h);
    uint32_t lh = n->u.assign.lhs, rh = n->u.assign.rhs;
    if (!lh) {                                      /* _ = e */
        ty_t t = rval(c, rh);
        if (t && !is_phony_storable(c, t) && !ty_is_abstract(c->tt, t)) {
            ERR(nsp(c, rh), "cannot assign '%s' to '_'. '_' can only be assigned a constructible, pointer, texture or sampler type", TN(t));
        }
        return B_NEXT;
    }
    if (n->kind == AST_INCR || n->kind == AST_DECR) {
        ty_t t = lhs_ref(c, lh, true, nsp(c, lh));
        if (t && t != TY_I32 && t != TY_U32) {
            ERR(nsp(c, h), "%s statement can only be applied to an integer scalar",
                n->kind == AST_INCR ? "increment" : "decrement");
        }
        return B_NEXT;
    }
    ty_t st = lhs_ref(c, lh, false, assign_op_span(c, h));
    ty_t rt = rval(c, rh);
    if (!st || !rt) return B_NEXT;
    if (n->op == AST_OP_NONE) {
        if (!ty_is_constructible(c->tt, st) && !ty_is_ptr(c->tt, st) && ty_conversion_rank(c->tt, rt, st) == TY_RANK_INF) {
            if (ty_is_abstract(c->tt, rt)) ERR(nsp(c, rh), "cannot convert value of type '%s' to type '%s'", TN(rt), TN(st));
            else ERR(assign_op_span(c, h), "cannot assign '%s' to '%s'", TN(rt), TN(st));
            return B_NEXT;
        }
        if (!ty_is_constructible(c->tt, st) && !ty_is_ptr(c->tt, st)) {
            ERR(nsp(c, lh), "storage type of assignment must be constructible");
            return B_NEXT;
        }
        bool rep;
        char nb[128];
        const char *sw = swizzle_ref_name(c, lh, nb, sizeof nb);
        if (!convert_or_report(c, rh, st, &rep) && !rep)
            ERR(assign_op_span(c, h), "cannot assign '%s' to '%s'", TN(rt), sw ? sw : TN(st));
        return B_NEXT;
    }
    /* compound: lhs op= rhs behaves as lhs = lhs op rhs; type the operator on (st, rt) */
    ast_op op = (ast_op)n->op;
    ty_t ss = ty_scalar_of(c->tt, st), rs = ty_scalar_of(c->tt, rt);
    ty_t s = common_scalar(ss, rs);
    bool ok = false;
    ty_t want = 0;
    if (op == AST_OP_SHL || op == AST_OP_SHR) {
        ok = is_int_scalar(ss) && (rs == TY_U32 || rs == TY_AINT) && ty_width(c->tt, st) == ty_width(c->tt, rt) &&
             ty_is_vec(c->tt, st) == ty_is_vec(c->tt, rt);
        want = ty_with_scalar(c->tt, rt, TY_U32);
    } else if (s && s == ss) {
        if (ty_is_mat(c->tt, st)) {
            ok = (op == AST_OP_ADD || op == AST_OP_SUB) ? ty_with_scalar(c->tt, rt, s) == st
                 : op == AST_OP_MUL && (ty_is_scalar(c->tt, rt) || ty_with_scalar(c->tt, rt, s) == st ||
                                        (ty_is_mat(c->tt, rt) && ty_get(c->tt, rt)->n == ty_get(c->tt, st)->n &&
                                         ty_get(c->tt, rt)->rows == ty_get(c->tt, rt)->n));
            want = ty_with_scalar(c->tt, rt, s);
        } else {
            bool same_shape = ty_with_scalar(c->tt, rt, s) == st;
            bool scal_rhs = ty_is_scalar(c->tt, rt) && ty_is_vec(c->tt, st);
            if (op == AST_OP_AND || op == AST_OP_OR || op == AST_OP_XOR)
                ok = same_shape && !is_float_scalar(s) && !(s == TY_BOOL && op == AST_OP_XOR);
            else
                ok = (same_shape || scal_rhs) && s != TY_BOOL;
            want = same_shape ? st : s;
        }
    }
    if (!ok || !materialize(c, rh, want)) {
        if (EX(c, rh)->type)
            ERR(assign_op_span(c, h), "no matching overload for 'operator %s= (%s, %s)'", ast_op_name(op), TN(st), TN(rt));
        return B_NEXT;
    }
    return B_NEXT;
}

/* Tint's limit on arrays in function, private and workgroup variables and in let / const values:
 * every fixed array count (through arrays and struct members) must be below 65536.  Returns the
 * offending count, or 0. */
static uint32_t big_array_count(checker *c, ty_t t) {
    const ty_info *r = ty_get(c->tt, t);
    if (r->kind == TY_ARRAY) {
        if (r->array_kind == TY_ARRAY_FIXED && r->count >= 65536) return r->count;
        return big_array_count(c, r->elem);
    }
    if (r->kind == TY_STRUCT)
        for (uint32_t i = 0; i < r->nmembers; i++) {
            uint32_t k = big_array_count(c, r->members[i].type);
            if (k) return k;
        }
    return 0;
}

/* Where Tint blames a too-big array: the member type inside a struct that holds it, else the
 * declaration's type expression `tn` (or `fallback` when the type was inferred). */
static span big_array_span(checker *c, uint32_t tn, ty_t t, span fallback) {
    ty_t u = t;
    while (ty_kind_of(c->tt, u) == TY_ARRAY &&
           (ty_get(c->tt, u)->array_kind != TY_ARRAY_FIXED || ty_get(c->tt, u)->count < 65536))
        u = ty_get(c->tt, u)->elem;
    if (ty_kind_of(c->tt, u) == TY_STRUCT) {
        for (uint32_t i = 0; i < c->structs.n; i++) {
            uint32_t sh = c->structs.v[i];
            if (DC(c, sh)->type != u) continue;
            const ast_node *sn = N(sh);
            const ty_info *r = ty_get(c->tt, u);
            for (uint32_t k = 0; k < r->nmembers && k < sn->u.struct_.members.count; k++) {
                if (!big_array_count(c, r->members[k].type)) continue;
                uint32_t mh = ast_item(c->m, sn->u.struct_.members, k);
                return big_array_span(c, N(mh)->u.param.type, r->members[k].type, nsp(c, N(mh)->u.param.type));
            }
        }
    }
    return tn ? nsp(c, tn) : fallback;
}

static bool big_array_check(checker *c, uint32_t tn, ty_t t, span fallback) {
    uint32_t k = big_array_count(c, t);
    if (!k) return true;
    ERR(big_array_span(c, tn, t, fallback), "array count (%u) must be less than 65536", (unsigned)k);
    return false;
}

/* var/let/const in a function or at module scope (without the module-only rules). */
static void value_decl(checker *c, uint32_t h, bool module) {
    const ast_node *n = N(h);
    sema_decl *d = DC(c, h);
    d->scope = module ? SEMA_SCOPE_MODULE : SEMA_SCOPE_FUNCTION;
    d->fn = c->fn;
    ty_t t = 0;
    if (n->u.var.type) {
        t = type_expr(c, n->u.var.type);
        if (!t) return;
    }
    ast_kind k = (ast_kind)n->kind;
    const char *kw = k == AST_LET ? "let" : k == AST_CONST ? "const" : k == AST_OVERRIDE ? "override" : "var";
    uint32_t ih = n->u.var.init;
    if (ih) {
        ty_t it = rval(c, ih);
        if (!it) return;
        sema_expr *ie = EX(c, ih);
        if (k == AST_CONST && ie->stage != SEMA_STAGE_CONST) {
            ERR(nsp(c, ih), "'const' initializer must be a const-expression");
            return;
        }
        if (k == AST_OVERRIDE && ie->stage == SEMA_STAGE_RUNTIME) {
            ERR(nsp(c, ih), "'override' initializer must be an override-expression");
            return;
        }
        if (k == AST_VAR && module && ie->stage == SEMA_STAGE_RUNTIME) {
            ERR(nsp(c, ih), "module-scope 'var' initializer must be a const-expression or override-expression");
            return;
        }
        if (t) {
            bool rep;
            if (!convert_or_report(c, ih, t, &rep)) {
                if (!rep)
                    ERR(decl_span(c, h), "cannot initialize '%s' of type '%s' with value of type '%s'", kw, TN(t), TN(it));
                return;
            }
        } else {
            t = k == AST_CONST ? it : concretize(c, ih);
            if (!t) return;
        }
    }
    if (!t) {
        ERR(nsp(c, h), "%s declaration requires a type or initializer", kw);
        return;
    }
    if (k == AST_LET) {
        if (!ty_is_constructible(c->tt, t) && !ty_is_ptr(c->tt, t)) {
            ERR(decl_span(c, h), "%s cannot be used as the type of a 'let'", TN(t));
            return;
        }
    }
    if (k == AST_CONST) {
        if (!ty_is_constructible(c->tt, t)) {
            ERR(nsp(c, h), "'const' declaration must have a constructible type");
            return;
        }
        d->cval = EX(c, ih)->cval;
    }
    if (!module && (k == AST_LET || k == AST_CONST || k == AST_VAR) &&
        !big_array_check(c, n->u.var.type, t, decl_span(c, h)))
        return;
    d->type = t;
}

static int var_stmt(checker *c, uint32_t h) {
    const ast_node *n = N(h);
    if (n->kind != AST_VAR) {
        value_decl(c, h, false);
        return B_NEXT;
    }
    sema_decl *d = DC(c, h);
    value_decl(c, h, false);        /* the type first, as Tint */
    if (!d->type) return B_NEXT;
    if (n->u.var.templ.count) {
        uint32_t a0 = ast_item(c->m, n->u.var.templ, 0);
        const char *as = ident_text(c, a0);
        if (strcmp(as, "function") != 0) {
            ERR(nsp(c, h), "function-scope 'var' declaration must use 'function' address space");
            d->type = 0;
            return B_NEXT;
        }
        if (n->u.var.templ.count > 1) {
            ERR(nsp(c, h), "only variables in <storage> address space may specify an access mode");
            d->type = 0;
            return B_NEXT;
        }
    }
    d->as = TY_AS_FUNCTION;
    d->access = TY_ACCESS_READ_WRITE;
    if (d->type && ty_has(c->tt, d->type, TY_F_HAS_RUNTIME)) {
        ERR(nsp(c, n->u.var.type), "runtime-sized arrays cannot be used in the <function> address space");
        d->type = 0;
    } else if (d->type && (!ty_is_constructible(c->tt, d->type))) {
        ERR(n->u.var.type ? nsp(c, n->u.var.type) : decl_span(c, h), "function-scope 'var' must have a constructible type");
        d->type = 0;
    }
    return B_NEXT;
}

static bool cond_bool(checker *c, uint32_t h, const char *what) {
    ty_t t = rval(c, h);
    if (!t) return false;
    if (t != TY_BOOL) {
        ERR(nsp(c, h), "%s condition must be bool, got %s", what, TN(t));
        return false;
    }
    return true;
}

static void must_use_check(checker *c, uint32_t call) {
    const sema_expr *e = EX(c, call);
    if (e->call == SEMA_CALL_FN) {
        sema_fn *fi = sema_fn_of(c->sm, e->decl);
        if (fi && fi->must_use) {
            const ast_node *f = N(e->decl);
            ERR(nsp(c, call), "ignoring return value of function '%s' annotated with '@must_use'", str(c, f->u.fn.name));
            NOTE(name_span(c, f->u.fn.name_off, f->u.fn.name), "function '%s' declared here", str(c, f->u.fn.name));
        }
    } else if (e->call == SEMA_CALL_CONSTRUCT || e->call == SEMA_CALL_CONVERT || e->call == SEMA_CALL_ZERO ||
               e->call == SEMA_CALL_BITCAST) {
        ERR(nsp(c, call), "value constructor evaluated but not used");
    }
}

static bool builtin_must_use(checker *c, uint32_t call);

static int loop_body(checker *c, uint32_t body, uint32_t continuing, int *bc) {
    c->loops++;
    c->breakables++;
    int b = block_stmts(c, body);
    *bc = 0;
    if (continuing) {
        c->in_continuing++;
        uint32_t save = c->cont_loops;
        c->cont_loops = 0;
        *bc = block_stmts(c, continuing);
        c->cont_loops = save;
        c->in_continuing--;
    }
    c->loops--;
    c->breakables--;
    return b;
}

/* Diagnostic filters on one construct (statement / function attributes, or the module's directives
 * when `use` is "directive"): two for the same rule are an error, "duplicate" when the severities
 * agree (directives may repeat) and "conflicting" when not, as Tint reports them. */
static void diag_filters_ok(checker *c, ast_list list, const char *use) {
    bool dir = !strcmp(use, "directive");
    for (uint32_t i = 1; i < list.count; i++) {
        const ast_node *a = N(ast_item(c->m, list, i));
        if (!dir && (a->kind != AST_ATTR || a->op != AST_ATTR_diagnostic || !a->u.attr.args.count)) continue;
        const ast_node *da = dir ? a : N(ast_item(c->m, a->u.attr.args, 0));
        if (da->kind != AST_DIAGNOSTIC) continue;
        for (uint32_t j = 0; j < i; j++) {
            const ast_node *b = N(ast_item(c->m, list, j));
            if (!dir && (b->kind != AST_ATTR || b->op != AST_ATTR_diagnostic || !b->u.attr.args.count)) continue;
            const ast_node *db = dir ? b : N(ast_item(c->m, b->u.attr.args, 0));
            if (db->kind != AST_DIAGNOSTIC || db->u.diag.rule != da->u.diag.rule || db->u.diag.rule2 != da->u.diag.rule2)
                continue;
            bool same = db->u.diag.severity == da->u.diag.severity;
            if (same && dir) continue;
            char rule[256];
            if (da->u.diag.rule2)
                snprintf(rule, sizeof rule, "%s.%s", str(c, da->u.diag.rule), str(c, da->u.diag.rule2));
            else
                snprintf(rule, sizeof rule, "%s", str(c, da->u.diag.rule));
            uint32_t len = (uint32_t)strlen(rule);
            span sa = span_make(da->u.diag.rule_off, len), sb = span_make(db->u.diag.rule_off, len);
            if (same) {
                ERR(sa, "duplicate diagnostic %s", use);
                NOTE(sb, "first attribute declared here");
            } else {
                ERR(sa, "conflicting diagnostic %s", use);
                NOTE(sb, "severity of '%s' set to '%s' here", rule, str(c, da->u.diag.severity));
            }
            return;
        }
    }
}

static int stmt_inner(checker *c, uint32_t h);

static int stmt(checker *c, uint32_t h) {
    if (!h) return B_NEXT;
    const ast_node *n = N(h);
    if (n->kind != AST_BLOCK) diag_filters_ok(c, n->attrs, "attribute");     /* blocks: in block_stmts */
    if (n->kind == AST_LOOP) diag_filters_ok(c, n->u.loop.body_attrs, "attribute");
    if (n->kind == AST_SWITCH) diag_filters_ok(c, n->u.switch_.body_attrs, "attribute");
    int b = stmt_inner(c, h);
    c->sm->behav[h] = (uint8_t)b;
    return b;
}

static int stmt_inner(checker *c, uint32_t h) {
    const ast_node *n = N(h);
    switch ((ast_kind)n->kind) {
    case AST_BLOCK: return block_stmts(c, h);
    case AST_RETURN: {
        if (c->in_continuing) {
            ERR(n->sp, "continuing blocks must not contain a return statement");
            return B_RETURN;
        }
        uint32_t v = n->u.ret.value;
        if (v) {
            ty_t t = rval(c, v);
            if (!t) return B_RETURN;
            bool rep = false;
            if (!c->ret || !convert_or_report(c, v, c->ret, &rep)) {
                if (!rep)
                    ERR(n->sp, "return statement type must match its function return type, returned '%s', expected '%s'",
                        TN(t), c->ret ? TN(c->ret) : "void");
            }
        } else if (c->ret) {
            ERR(n->sp, "return statement type must match its function return type, returned 'void', expected '%s'", TN(c->ret));
        }
        return B_RETURN;
    }
    case AST_IF: {
        cond_bool(c, n->u.if_.cond, "if statement");
        int b = block_stmts(c, n->u.if_.then);
        int e = n->u.if_.else_ ? stmt(c, n->u.if_.else_) : B_NEXT;
        return b | e;
    }
    case AST_SWITCH: {
        uint32_t sel = n->u.switch_.expr;
        ty_t st = rval(c, sel);
        uint32_t ndefault = 0;
        bool sel_ok = true;
        /* Tint resolves each clause (selectors, then body) before validating the switch */
        c->breakables++;
        int b = 0;
        for (uint32_t i = 0; i < n->u.switch_.clauses.count; i++) {
            const ast_node *cl = N(ast_item(c->m, n->u.switch_.clauses, i));
            for (uint32_t j = 0; j < cl->u.case_.selectors.count; j++) {
                uint32_t s = ast_item(c->m, cl->u.case_.selectors, j);
                if (N(s)->kind == AST_DEFAULT) continue;
                if (!rval(c, s)) { sel_ok = false; continue; }
                if (EX(c, s)->stage != SEMA_STAGE_CONST) {
                    ERR(N(s)->sp, "case selector must be a const-expression");
                    sel_ok = false;
                }
            }
            b |= block_stmts(c, cl->u.case_.body);
        }
        c->breakables--;
        if (b & B_BREAK) b = (b & ~B_BREAK) | B_NEXT;
        if (!st || !sel_ok) return b;
        if (!is_int_scalar(st)) {
            ERR(nsp(c, sel), "switch statement selector expression must be of a scalar integer type");
            return b;
        }
        /* the selector and the case values convert to one common integer type */
        ty_t common = st;
        for (uint32_t i = 0; i < n->u.switch_.clauses.count && common; i++) {
            const ast_node *cl = N(ast_item(c->m, n->u.switch_.clauses, i));
            for (uint32_t j = 0; j < cl->u.case_.selectors.count && common; j++) {
                uint32_t s = ast_item(c->m, cl->u.case_.selectors, j);
                if (N(s)->kind == AST_DEFAULT) {
                    if (++ndefault > 1) {
                        ERR(N(s)->sp, "multiple default clauses in switch statement");
                        common = 0;
                    }
                    continue;
                }
                ty_t t = sema_value_type(c->sm, s);
                if (t != common) {
                    ty_t cs = common_scalar(common, t);
                    if (!cs || !is_int_scalar(cs)) {
                        ERR(N(s)->sp, "the case selector values must have the same type as the selector expression.");
                        common = 0;
                    } else common = cs;
                }
            }
        }
        if (!common) return b;
        if (common == TY_AINT) common = TY_I32;
        materialize(c, sel, common);
        ARR(uint32_t) seen = { 0 };
        for (uint32_t i = 0; i < n->u.switch_.clauses.count; i++) {
            const ast_node *cl = N(ast_item(c->m, n->u.switch_.clauses, i));
            for (uint32_t j = 0; j < cl->u.case_.selectors.count; j++) {
                uint32_t s = ast_item(c->m, cl->u.case_.selectors, j);
                if (N(s)->kind == AST_DEFAULT) continue;
                if (!materialize(c, s, common) || !EX(c, s)->cval) return b;
                for (uint32_t k = 0; k < seen.n; k++) {
                    if (val(c, seen.v[k])->u.i == val(c, s)->u.i) {
                        ERR(N(s)->sp, "duplicate switch case '%lld'", (long long)val(c, s)->u.i);
                        NOTE(N(seen.v[k])->sp, "previous case declared here");
                        return b;
                    }
                }
                ARR_PUSH(&c->cc->arena, seen, s);
            }
        }
        if (!ndefault) ERR(n->sp, "switch statement must have a default clause");
        return b;
    }
    case AST_LOOP: {
        int bc;
        uint32_t save_cont = c->in_continuing;
        if (c->in_continuing) c->cont_loops++;
        int b = loop_body(c, n->u.loop.body, n->u.loop.continuing, &bc);
        if (save_cont) c->cont_loops--;
        b |= bc;
        if (!(b & (B_BREAK | B_RETURN))) {
            ERR(n->sp, "loop does not exit");
        }
        if (b & B_BREAK) return (b & ~(B_BREAK | B_CONTINUE)) | B_NEXT;
        return b & ~(B_NEXT | B_CONTINUE);
    }
    case AST_FOR: {
        if (c->in_continuing) c->cont_loops++;
        if (n->u.for_.init) stmt(c, n->u.for_.init);
        ty_t ct = n->u.for_.cond ? rval(c, n->u.for_.cond) : 0;
        c->loops++;
        c->breakables++;
        if (n->u.for_.update) stmt(c, n->u.for_.update);
        int b = block_stmts(c, n->u.for_.body);
        /* Tint validates the condition's type after the whole statement */
        if (ct && ct != TY_BOOL) ERR(nsp(c, n->u.for_.cond), "for-loop condition must be bool, got %s", TN(ct));
        c->loops--;
        c->breakables--;
        if (c->in_continuing) c->cont_loops--;
        if (n->u.for_.cond) b |= B_BREAK;
        if (!(b & (B_BREAK | B_RETURN))) ERR(n->sp, "for-loop does not exit");
        if (b & B_BREAK) return (b & ~(B_BREAK | B_CONTINUE)) | B_NEXT;
        return b & ~(B_NEXT | B_CONTINUE);
    }
    case AST_WHILE: {
        if (c->in_continuing) c->cont_loops++;
        cond_bool(c, n->u.while_.cond, "while statement");
        c->loops++;
        c->breakables++;
        int b = block_stmts(c, n->u.while_.body) | B_BREAK;
        c->loops--;
        c->breakables--;
        if (c->in_continuing) c->cont_loops--;
        return (b & ~(B_BREAK | B_CONTINUE)) | B_NEXT;
    }
    case AST_BREAK:
        if (!c->breakables) {
            ERR(n->sp, "break statement must be in a loop or switch case");
            return B_NEXT;
        }
        if (c->in_continuing && !c->cont_loops) {
            ERR(n->sp, "`break` must not be used to exit from a continuing block. Use `break if` instead.");
        }
        return B_BREAK;
    case AST_BREAK_IF:
        if (!c->in_continuing) {
            ERR(n->sp, "break-if must be the last statement in a continuing block");
            return B_NEXT;
        }
        cond_bool(c, n->u.ret.value, "break-if");
        return B_BREAK | B_NEXT;
    case AST_CONTINUE:
        if (!c->loops) {
            ERR(n->sp, "continue statement must be in a loop");
            return B_NEXT;
        }
        if (c->in_continuing && !c->cont_loops) {
            ERR(n->sp, "continuing blocks must not contain a continue statement");
        }
        return B_CONTINUE;
    case AST_DISCARD:
        if (!c->first_discard) c->first_discard = h;
        return B_NEXT;
    case AST_CALL_STMT: {
        uint32_t call = n->u.call_stmt.call;
        sema_expr *e = expr(c, call);
        if (e->type && e->type != TY_VOID) {
            if (e->call == SEMA_CALL_BUILTIN) builtin_must_use(c, call);
            else must_use_check(c, call);
        }
        return B_NEXT;
    }
    case AST_ASSIGN: case AST_INCR: case AST_DECR:
        return assign_stmt(c, h);
    case AST_VAR: case AST_LET: case AST_CONST:
        return var_stmt(c, h);
    case AST_CONST_ASSERT: {
        uint32_t v = n->u.ret.value;
        ty_t t = rval(c, v);
        if (!t) return B_NEXT;
        if (t != TY_BOOL) {
            ERR(nsp(c, v), "const assertion condition must be a bool, got '%s'", TN(t));
            return B_NEXT;
        }
        if (EX(c, v)->stage != SEMA_STAGE_CONST || !EX(c, v)->cval) {
            ERR(nsp(c, v), "const assertion requires a const-expression");
            return B_NEXT;
        }
        if (!val(c, v)->u.b) ERR(n->sp, "const assertion failed");
        return B_NEXT;
    }
    default:
        ERR(n->sp, "unexpected %s", ast_kind_name((ast_kind)n->kind));
        return B_NEXT;
    }
}

/* A block's statements in sequence; warns once about unreachable code. */
static int block_stmts(checker *c, uint32_t h) {
    if (!h) return B_NEXT;
    const ast_node *n = N(h);
    if (n->kind != AST_BLOCK) return stmt(c, h);
    diag_filters_ok(c, n->attrs, "attribute");
    int b = B_NEXT;
    bool warned = false;
    for (uint32_t i = 0; i < n->u.block.stmts.count; i++) {
        uint32_t s = ast_item(c->m, n->u.block.stmts, i);
        if (!(b & B_NEXT) && !warned) {
            diag_warning(c->cc, nsp(c, s), "code is unreachable");
            warned = true;
        }
        int sb = stmt(c, s);
        if (b & B_NEXT) b = (b & ~B_NEXT) | sb;
    }
    c->sm->behav[h] = (uint8_t)b;
    return b;
}

/* ---- module-scope declarations ------------------------------------------------------------------ */

/* A const-expression attribute argument that must be an integer; returns false on error. */
static bool attr_int(checker *c, uint32_t attr, uint32_t i, int64_t *out, const char *what) {
    const ast_node *a = N(attr);
    if (i >= a->u.attr.args.count) return false;
    uint32_t h = ast_item(c->m, a->u.attr.args, i);
    ty_t t = rval(c, h);
    if (!t) return false;
    if (t == TY_AFLOAT && !materialize(c, h, TY_F32)) return false;
    if (!is_int_scalar(t) && strcmp(what, "workgroup_size")) {
        ERR(attr_span(a), "'@%s' must be an 'i32' or 'u32' value", what);
        return false;
    }
    if (!is_int_scalar(t) || EX(c, h)->stage != SEMA_STAGE_CONST || !EX(c, h)->cval) {
        ERR(nsp(c, h), "'@%s' %s must be a const-expression that resolves to an 'i32' or 'u32' value", what,
            strcmp(what, "workgroup_size") ? "value" : "argument");
        return false;
    }
    *out = val(c, h)->u.i;
    if (t == TY_AINT) materialize(c, h, TY_I32);
    return true;
}

/* Each attribute at most once (except @diagnostic); false after reporting a duplicate. */
static bool no_dup_attrs(checker *c, ast_list attrs) {
    for (uint32_t i = 1; i < attrs.count; i++) {
        const ast_node *a = N(ast_item(c->m, attrs, i));
        if (a->kind != AST_ATTR || a->op == AST_ATTR_diagnostic) continue;
        for (uint32_t j = 0; j < i; j++) {
            const ast_node *b = N(ast_item(c->m, attrs, j));
            if (b->kind == AST_ATTR && b->op == a->op) {
                ERR(attr_span(a), "duplicate %s attribute", ast_attr_name((ast_attr)a->op));
                NOTE(attr_span(b), "first attribute declared here");
                return false;
            }
        }
    }
    return true;
}

static void struct_decl(checker *c, uint32_t h) {
    const ast_node *n = N(h);
    uint32_t nm = n->u.struct_.members.count;
    if (nm > 16383) {
        ERR(n->sp, "struct '%s' has %u members, maximum is 16383", str(c, n->u.struct_.name), nm);
        return;
    }
    ty_member *mem = arena_alloc(&c->cc->arena, (nm + 1) * sizeof *mem);
    for (uint32_t i = 0; i < nm; i++) {
        uint32_t mh = ast_item(c->m, n->u.struct_.members, i);
        const ast_node *mn = N(mh);
        for (uint32_t j = 0; j < i; j++) {
            const ast_node *pn = N(ast_item(c->m, n->u.struct_.members, j));
            if (pn->u.param.name == mn->u.param.name) {
                ERR(name_span(c, mn->u.param.name_off, mn->u.param.name), "redefinition of '%s'", str(c, mn->u.param.name));
                NOTE(name_span(c, pn->u.param.name_off, pn->u.param.name), "previous definition is here");
                return;
            }
        }
        if (!no_dup_attrs(c, mn->attrs)) return;
        ty_t t = type_expr(c, mn->u.param.type);
        if (!t) return;
        if (ty_is_ptr(c->tt, t) || (!ty_is_plain(c->tt, t) && !ty_has(c->tt, t, TY_F_HAS_RUNTIME))) {
            ERR(name_span(c, mn->u.param.name_off, mn->u.param.name), "%s cannot be used as the type of a structure member", TN(t));
            return;
        }
        if (ty_has(c->tt, t, TY_F_HAS_RUNTIME) && i + 1 != nm) {
            ERR(name_span(c, mn->u.param.name_off, mn->u.param.name), "runtime arrays may only appear as the last member of a struct");
            return;
        }
        if (!ty_has(c->tt, t, TY_F_HAS_RUNTIME) && !ty_is_creation_fixed_footprint(c->tt, t)) {
            ERR(nsp(c, mn->u.param.type), "a struct that contains an override-sized array cannot be used as a member");
            return;
        }
        mem[i].name = mn->u.param.name;
        mem[i].name_str = str(c, mn->u.param.name);
        mem[i].type = t;
        DC(c, mh)->type = t;
        DC(c, mh)->index = i;
        for (uint32_t k = 0; k < mn->attrs.count; k++) {
            uint32_t ah = ast_item(c->m, mn->attrs, k);
            const ast_node *a = N(ah);
            int64_t v = 0;
            switch ((ast_attr)a->op) {
            case AST_ATTR_align:
                if (!attr_int(c, ah, 0, &v, "align")) return;
                if (v < 1 || (v & (v - 1))) {
                    ERR(attr_span(a), "'@align' value must be a positive, power-of-two integer");
                    return;
                }
                mem[i].align_attr = (uint32_t)v;
                break;
            case AST_ATTR_size:
                if (!attr_int(c, ah, 0, &v, "size")) return;
                if (v < 1) {
                    ERR(attr_span(a), "'@size' must be a positive integer");
                    return;
                }
                if ((uint64_t)v < ty_size_of(c->tt, t)) {
                    ERR(attr_span(a), "'@size' must be at least as big as the type's size (%llu)",
                        (unsigned long long)ty_size_of(c->tt, t));
                    return;
                }
                mem[i].size_attr = (uint32_t)v;
                break;
            case AST_ATTR_builtin: {
                const ast_node *arg = N(ast_item(c->m, a->u.attr.args, 0));
                const char *bn = arg->kind == AST_IDENT ? str(c, arg->u.ident.name) : "";
                int b = 0;
#define X(nm_, ty_, st_, io_) if (!strcmp(bn, #nm_)) b = SEMA_BV_##nm_;
                SEMA_BUILTIN_VALUES(X)
#undef X
                if (!b) {
                    ERR(arg->sp, "unresolved builtin value '%s'", bn);
                    return;
                }
                DC(c, mh)->builtin = (uint8_t)b;
                break;
            }
            case AST_ATTR_location: {
                if (!attr_int(c, ah, 0, &v, "location")) return;
                DC(c, mh)->location = (uint32_t)v + 1;
                break;
            }
            case AST_ATTR_interpolate: case AST_ATTR_invariant: case AST_ATTR_blend_src:
                break;
            default:
                ERR(attr_span(a), "attribute is not valid for structure members");
                return;
            }
        }
        char msg[256];
        if (ty_member_attr_check(c->tt, t, mem[i].align_attr, mem[i].size_attr, msg, sizeof msg)) {
            ERR(mn->sp, "%s", msg);
            return;
        }
    }
    ty_t st = ty_struct_new(c->tt, str(c, n->u.struct_.name), n->u.struct_.name, mem, nm);
    char lim[128];
    if (ty_size_limit_check(c->tt, st, lim, sizeof lim)) {    /* Tint: at the struct declaration */
        ERR(n->sp, "%s", lim);
        return;
    }
    DC(c, h)->type = st;
    ARR_PUSH(&c->cc->arena, c->structs, h);
}

static void alias_decl(checker *c, uint32_t h) {
    const ast_node *n = N(h);
    DC(c, h)->type = type_expr(c, n->u.alias.type);
}

static void override_decl(checker *c, uint32_t h) {
    const ast_node *n = N(h);
    sema_decl *d = DC(c, h);
    if (!no_dup_attrs(c, n->attrs)) return;
    value_decl(c, h, true);
    if (!d->type) return;
    if (!ty_is_concrete_scalar(c->tt, d->type)) {
        ERR(n->sp, "override declaration type must be a concrete scalar type, got '%s'", TN(d->type));
        d->type = 0;
        return;
    }
    if (n->u.var.init && EX(c, n->u.var.init)->cval) d->cval = EX(c, n->u.var.init)->cval;
    uint32_t idattr = ast_find_attr(c->m, n->attrs, AST_ATTR_id);
    if (idattr) {
        int64_t v;
        if (!attr_int(c, idattr, 0, &v, "id")) return;
        if (v < 0 || v > 65535) {
            ERR(attr_span(N(idattr)), "'@id' value must be between 0 and 65535");
            return;
        }
        for (uint32_t i = 0; i < c->sm->noverrides; i++) {
            sema_decl *o = DC(c, c->sm->overrides[i]);
            if (o->has_id && o->override_id == (uint32_t)v) {
                ERR(attr_span(N(idattr)), "'@id' values must be unique");
                NOTE(attr_span(N(ast_find_attr(c->m, N(c->sm->overrides[i])->attrs, AST_ATTR_id))), "a override with an ID of %lld was previously declared here:", (long long)v);
                return;
            }
        }
        d->has_id = 1;
        d->override_id = (uint32_t)v;
    }
    d->override_index = c->sm->noverrides;
    c->sm->overrides[c->sm->noverrides++] = h;
}

/* The innermost written type (AST node, and its type in *bt) that makes `t` non-host-shareable,
 * following struct members, array elements and aliases, as Tint reports it. */
static uint32_t bad_share_node(checker *c, uint32_t tn, ty_t t, ty_t *bt) {
    for (int guard = 0; guard < 64 && tn; guard++) {
        const ast_node *n = N(tn);
        *bt = t;
        if (n->kind != AST_IDENT) return tn;
        uint32_t d = EX(c, tn)->decl;
        if (d && N(d)->kind == AST_ALIAS) { tn = N(d)->u.alias.type; continue; }
        if (d && N(d)->kind == AST_STRUCT) {
            const ast_node *sn = N(d);
            uint32_t next = 0;
            for (uint32_t k = 0; k < sn->u.struct_.members.count && !next; k++) {
                uint32_t mh = ast_item(c->m, sn->u.struct_.members, k);
                if (!ty_is_host_shareable(c->tt, DC(c, mh)->type)) { next = N(mh)->u.param.type; t = DC(c, mh)->type; }
            }
            if (!next) return tn;
            tn = next;
            continue;
        }
        if (ty_kind_of(c->tt, t) == TY_ARRAY) {
            /* Tint points at the array but names the element type */
            while (ty_kind_of(c->tt, t) == TY_ARRAY) t = ty_elem(c->tt, t);
            *bt = t;
            if (ty_kind_of(c->tt, t) != TY_STRUCT) return tn;
            uint32_t sd = 0;
            for (uint32_t k = 0; k < c->structs.n; k++)
                if (DC(c, c->structs.v[k])->type == t) sd = c->structs.v[k];
            if (!sd) return tn;
            uint32_t next = 0;
            for (uint32_t k = 0; k < N(sd)->u.struct_.members.count && !next; k++) {
                uint32_t mh = ast_item(c->m, N(sd)->u.struct_.members, k);
                if (!ty_is_host_shareable(c->tt, DC(c, mh)->type)) { next = N(mh)->u.param.type; t = DC(c, mh)->type; }
            }
            if (!next) return tn;
            tn = next;
            continue;
        }
        return tn;
    }
    return tn;
}

static void global_var_decl(checker *c, uint32_t h) {
    const ast_node *n = N(h);
    sema_decl *d = DC(c, h);
    if (!no_dup_attrs(c, n->attrs)) return;
    /* 1. the type (and initializer): Tint resolves it before the address space */
    value_decl(c, h, true);
    if (!d->type) return;
    ty_t t = d->type;
    /* 2. address space and access mode names */
    ty_as as = TY_AS_NONE;
    ty_access am = TY_ACCESS_NONE;
    if (n->u.var.templ.count) {
        uint32_t a0 = ast_item(c->m, n->u.var.templ, 0);
        const char *s = ident_text(c, a0);
        if (EX(c, a0)->decl) {
            ERR(nsp(c, a0), "cannot use %s '%s' as address space", decl_kind_word(c, EX(c, a0)->decl), s);
            return;
        }
        as = ty_as_by_name(s, strlen(s));
        if (!as || as == TY_AS_HANDLE) {
            ERR(nsp(c, a0), "unresolved address space '%s'", s);
            return;
        }
        if (n->u.var.templ.count > 1) {
            uint32_t a1 = ast_item(c->m, n->u.var.templ, 1);
            const char *s1 = ident_text(c, a1);
            am = ty_access_by_name(s1, strlen(s1));
            if (!am) {
                ERR(nsp(c, a1), "unresolved access '%s'", s1);
                return;
            }
        }
    }
    d->as = (uint8_t)as;
    d->access = (uint8_t)(am ? am : ty_as_default_access(as));
    if ((as == TY_AS_PRIVATE || as == TY_AS_WORKGROUP) && !big_array_check(c, n->u.var.type, t, decl_span(c, h))) {
        d->type = 0;
        return;
    }
    /* 3. the store type in its address space */
    const char *asn = ty_as_name(as);
    if (as == TY_AS_PRIVATE && ty_has(c->tt, t, TY_F_HAS_RUNTIME)) {
        ERR(nsp(c, n->u.var.type), "runtime-sized arrays cannot be used in the <private> address space");
        d->type = 0;
        return;
    }
    if (as && ty_has(c->tt, t, TY_F_HAS_ATOMIC) && as != TY_AS_STORAGE && as != TY_AS_WORKGROUP) {
        ERR(decl_span(c, h), "'atomic' variables must have 'storage' or 'workgroup' address space");
        d->type = 0;
        return;
    }
    switch (as) {
    case TY_AS_STORAGE:
    case TY_AS_UNIFORM:
        if (as == TY_AS_UNIFORM && ty_has(c->tt, t, TY_F_HAS_RUNTIME)) {
            ERR(decl_span(c, h), "variables in 'uniform' address space must have a fixed footprint");
            d->type = 0;
            return;
        }
        if (!ty_is_host_shareable(c->tt, t) || (as == TY_AS_UNIFORM && !ty_is_constructible(c->tt, t))) {
            ty_t bt = t;
            uint32_t bn = ty_is_host_shareable(c->tt, t) ? n->u.var.type : bad_share_node(c, n->u.var.type, t, &bt);
            ERR(nsp(c, bn ? bn : n->u.var.type), "type '%s' cannot be used in address space '%s' as it is non-host-shareable", TN(bt), asn);
            d->type = 0;
            return;
        }
        break;
    case TY_AS_WORKGROUP:
        if (!ty_is_plain(c->tt, t) || !ty_is_fixed_footprint(c->tt, t)) {
            ERR(decl_span(c, h), "variables in 'workgroup' address space must have a fixed footprint");
            d->type = 0;
            return;
        }
        break;
    case TY_AS_PRIVATE:
        if (ty_is_ptr(c->tt, t)) {
            ERR(decl_span(c, h), "%s cannot be used as the type of a var", TN(t));
            d->type = 0;
            return;
        }
        if (!ty_is_constructible(c->tt, t)) {
            ERR(nsp(c, n->u.var.type), "type '%s' cannot be used in address space 'private' as it is not constructible", TN(t));
            d->type = 0;
            return;
        }
        break;
    default: break;
    }
    /* 4. attribute values */
    uint32_t gattr = ast_find_attr(c->m, n->attrs, AST_ATTR_group);
    uint32_t battr = ast_find_attr(c->m, n->attrs, AST_ATTR_binding);
    int64_t g = 0, b = 0;
    for (uint32_t k = 0; k < n->attrs.count; k++) {
        uint32_t ah = ast_item(c->m, n->attrs, k);
        if (ah == gattr && !attr_int(c, ah, 0, &g, "group")) { d->type = 0; return; }
        if (ah == battr && !attr_int(c, ah, 0, &b, "binding")) { d->type = 0; return; }
        if (N(ah)->op != AST_ATTR_group && N(ah)->op != AST_ATTR_binding && N(ah)->op != AST_ATTR_diagnostic) {
            ERR(attr_span(N(ah)), "'@%s' is not valid for module-scope 'var'", ast_attr_name((ast_attr)N(ah)->op));
            d->type = 0;
            return;
        }
    }
    /* 5. the variable's rules */
    if (as == TY_AS_NONE) {
        ERR(decl_span(c, h), "module-scope 'var' declarations that are not of texture or sampler types must provide an address space");
        d->type = 0;
        return;
    }
    if (as == TY_AS_FUNCTION) {
        ERR(decl_span(c, h), "module-scope 'var' must not use address space 'function'");
        d->type = 0;
        return;
    }
    if (am && as != TY_AS_STORAGE) {
        ERR(decl_span(c, h), "only variables in <storage> address space may specify an access mode");
        d->type = 0;
        return;
    }
    if (as == TY_AS_STORAGE && am == TY_ACCESS_WRITE) {
        ERR(decl_span(c, h), "access mode 'write' is not valid for the 'storage' address space");
        d->type = 0;
        return;
    }
    if (ty_has(c->tt, t, TY_F_HAS_ATOMIC) && as == TY_AS_STORAGE && d->access == TY_ACCESS_READ) {
        ERR(decl_span(c, h), "atomic variables in 'storage' address space must have 'read_write' access mode");
        d->type = 0;
        return;
    }
    if (n->u.var.init && as != TY_AS_PRIVATE) {
        ERR(decl_span(c, h), "var of address space '%s' cannot have an initializer. var initializers are only supported for the address spaces 'private' and 'function'", asn);
        d->type = 0;
        return;
    }
    bool resource = as == TY_AS_UNIFORM || as == TY_AS_STORAGE;
    if (resource && (!gattr || !battr)) {
        ERR(decl_span(c, h), "resource variables require '@group' and '@binding' attributes");
        d->type = 0;
        return;
    }
    if (!resource && (gattr || battr)) {
        ERR(decl_span(c, h), "non-resource variables must not have '@group' or '@binding' attributes");
        d->type = 0;
        return;
    }
    if (resource) {
        /* uniform layout: Tint accepts the standard (storage-like) layout
           (uniform_buffer_standard_layout), so no extra constraint here */
        if (g < 0) { ERR(attr_span(N(gattr)), "'@group' value must be non-negative"); d->type = 0; return; }
        if (b < 0) { ERR(attr_span(N(battr)), "'@binding' value must be non-negative"); d->type = 0; return; }
        d->has_binding = 1;
        d->group = (uint32_t)g;
        d->binding = (uint32_t)b;
        c->sm->resources[c->sm->nresources++] = h;
    }
}

/* Entry point parameters: builtins only (compute); checks types and stage. */
static bool builtin_param(checker *c, uint32_t fn, uint32_t p, ty_t t, wgsl_stage stage, uint32_t *mask, uint32_t battr) {
    const ast_node *a = N(battr);
    const ast_node *arg = N(ast_item(c->m, a->u.attr.args, 0));
    const char *bn = arg->kind == AST_IDENT ? str(c, arg->u.ident.name) : "";
    static const struct { const char *name, *type; wgsl_stage stage; char io; } bv[] = {
        { "", "", WGSL_STAGE_UNDEFINED, 0 },
#define X(n_, t_, s_, io_) { #n_, t_, s_, io_ },
        SEMA_BUILTIN_VALUES(X)
#undef X
    };
    uint32_t b = 0;
    for (uint32_t i = 1; i < SEMA_BV_COUNT; i++)
        if (!strcmp(bv[i].name, bn)) b = i;
    if (!b) {
        ERR(arg->sp, "unresolved builtin value '%s'", bn);
        return false;
    }
    bool stage_ok = bv[b].stage == stage || (b == SEMA_BV_position && stage == WGSL_STAGE_FRAGMENT) ||
                    ((b == SEMA_BV_subgroup_invocation_id || b == SEMA_BV_subgroup_size) && stage == WGSL_STAGE_FRAGMENT) ||
                    (b == SEMA_BV_sample_mask && stage == WGSL_STAGE_FRAGMENT);
    if (!stage_ok || bv[b].io != 'i') {
        static const char *sn[] = { "", "compute", "vertex", "fragment" };
        ERR(attr_span(a), "@builtin(%s) cannot be used for %s shader input", bn, sn[stage < 4 ? stage : 0]);
        return false;
    }
    if (strcmp(TN(t), bv[b].type) != 0) {
        ERR(attr_span(a), "store type of '@builtin(%s)' must be '%s'", bn, bv[b].type);
        (void)p;
        return false;
    }
    if (*mask & (1u << b)) {
        ERR(sema_decl_span(c->cc, fn, false), "'@builtin(%s)' appears multiple times as pipeline input", bn);
        return false;
    }
    *mask |= 1u << b;
    DC(c, p)->builtin = (uint8_t)b;
    return true;
}

static void workgroup_size(checker *c, uint32_t h, sema_fn *fi, uint32_t wattr) {
    const ast_node *a = N(wattr);
    ty_t common = 0;
    bool any_abstract_only = true;
    for (uint32_t i = 0; i < 3; i++) { fi->wg_size[i] = 1; fi->wg_expr[i] = 0; }
    for (uint32_t i = 0; i < a->u.attr.args.count && i < 3; i++) {
        uint32_t e = ast_item(c->m, a->u.attr.args, i);
        ty_t t = rval(c, e);
        if (!t) return;
        if (!is_int_scalar(t) || EX(c, e)->stage == SEMA_STAGE_RUNTIME) {
            ERR(nsp(c, e), "'@workgroup_size' argument must be a constant or override-expression of type 'abstract-integer', 'i32' or 'u32'");
            return;
        }
        if (t != TY_AINT) {
            any_abstract_only = false;
            if (common && common != t) {
                ERR(attr_span(a), "'@workgroup_size' arguments must be of the same type, either 'i32' or 'u32'");
                return;
            }
            common = t;
        }
    }
    if (any_abstract_only) common = TY_I32;
    fi->wg_type = common;
    for (uint32_t i = 0; i < a->u.attr.args.count && i < 3; i++) {
        uint32_t e = ast_item(c->m, a->u.attr.args, i);
        if (!materialize(c, e, common)) return;
        fi->wg_expr[i] = e;
        if (EX(c, e)->cval) {
            int64_t v = val(c, e)->u.i;
            if (v < 1) {
                ERR(nsp(c, e), "'@workgroup_size' argument must be at least 1");
                return;
            }
            fi->wg_size[i] = (uint32_t)v;
        } else fi->wg_size[i] = 0;
    }
    (void)h;
}

static void sort_u32(uint32_t *v, uint32_t n, const checker *c) {
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = v[i], j = i;
        while (j && v[j - 1] > x) { v[j] = v[j - 1]; j--; }
        v[j] = x;
    }
    (void)c;
}

/* A parameter's attributes (before its type, as Tint checks them). */
static bool param_attrs_ok(checker *c, const sema_fn *fi, const ast_node *pn) {
    for (uint32_t k = 0; k < pn->attrs.count; k++) {
        const ast_node *a = N(ast_item(c->m, pn->attrs, k));
        if (a->kind != AST_ATTR) continue;
        switch ((ast_attr)a->op) {
        case AST_ATTR_builtin: case AST_ATTR_location: case AST_ATTR_interpolate: case AST_ATTR_invariant:
            if (!fi->stage) {
                ERR(attr_span(a), "'@%s' is not valid for non-entry point function parameters", ast_attr_name((ast_attr)a->op));
                return false;
            }
            if (a->op == AST_ATTR_builtin && a->u.attr.args.count) {
                const ast_node *arg = N(ast_item(c->m, a->u.attr.args, 0));
                const char *bn = arg->kind == AST_IDENT ? str(c, arg->u.ident.name) : "";
                if ((!strcmp(bn, "subgroup_invocation_id") || !strcmp(bn, "subgroup_size")) && !c->sm->enable_subgroups) {
                    ERR(attr_span(a), "use of '@builtin(%s)' attribute requires enabling extension 'subgroups'", bn);
                    return false;
                }
            }
            break;
        case AST_ATTR_diagnostic: break;
        default:
            ERR(attr_span(a), "'@%s' is not valid for function parameters", ast_attr_name((ast_attr)a->op));
            return false;
        }
    }
    return true;
}

static void fn_decl(checker *c, uint32_t h) {
    const ast_node *n = N(h);
    sema_module *sm = c->sm;
    sema_fn *fi = &sm->fns[sm->nfns];
    memset(fi, 0, sizeof *fi);
    fi->node = h;
    sm->fn_of[h] = ++sm->nfns;
    /* attributes */
    if (!no_dup_attrs(c, n->attrs)) return;
    diag_filters_ok(c, n->attrs, "attribute");
    uint32_t wattr = 0;
    for (uint32_t i = 0; i < n->attrs.count; i++) {
        uint32_t ah = ast_item(c->m, n->attrs, i);
        const ast_node *a = N(ah);
        switch ((ast_attr)a->op) {
        case AST_ATTR_compute: fi->stage = WGSL_STAGE_COMPUTE; break;
        case AST_ATTR_vertex: fi->stage = WGSL_STAGE_VERTEX; break;
        case AST_ATTR_fragment: fi->stage = WGSL_STAGE_FRAGMENT; break;
        case AST_ATTR_must_use: fi->must_use = true; break;
        case AST_ATTR_workgroup_size: wattr = ah; break;
        case AST_ATTR_diagnostic: break;
        default:
            ERR(attr_span(a), "attribute is not valid for functions");
            return;
        }
    }
    if (fi->must_use && !n->u.fn.ret_type) {
        ERR(attr_span(N(ast_find_attr(c->m, n->attrs, AST_ATTR_must_use))), "@must_use can only be applied to functions that return a value");
        return;
    }
    if (wattr) {
        uint32_t errs = c->errors;
        workgroup_size(c, h, fi, wattr);
        if (c->errors != errs) return;
    }
    if (wattr && fi->stage != WGSL_STAGE_COMPUTE) {
        ERR(attr_span(N(wattr)), "@workgroup_size is only valid for compute stages");
        return;
    }
    if (fi->stage == WGSL_STAGE_COMPUTE && !wattr) {
        ERR(sema_decl_span(c->cc, h, false), "a compute shader must include '@workgroup_size' in its attributes");
        return;
    }
    /* parameters */
    if (n->u.fn.params.count > 255) {
        ERR(n->sp, "function declares %u parameters, maximum is 255", n->u.fn.params.count);
        return;
    }
    for (uint32_t i = 0; i < n->u.fn.params.count; i++) {
        uint32_t p = ast_item(c->m, n->u.fn.params, i);
        const ast_node *pn = N(p);
        if (!no_dup_attrs(c, pn->attrs)) return;
        if (!param_attrs_ok(c, fi, pn)) return;
        ty_t t = type_expr(c, pn->u.param.type);
        if (!t) return;
        sema_decl *pd = DC(c, p);
        pd->scope = SEMA_SCOPE_FUNCTION;
        pd->fn = h;
        pd->index = i;
        if (ty_is_ptr(c->tt, t)) {
            const ty_info *pi = ty_get(c->tt, t);
            if (pi->as != TY_AS_FUNCTION && pi->as != TY_AS_PRIVATE && pi->as != TY_AS_WORKGROUP &&
                pi->as != TY_AS_STORAGE && pi->as != TY_AS_UNIFORM) {
                ERR(nsp(c, pn->u.param.type), "function parameter of pointer type cannot be in '%s' address space", ty_as_name((ty_as)pi->as));
                return;
            }
            uint32_t tn = pn->u.param.type, sn = N(tn)->u.ident.templ.count > 1 ? templ_arg(c, tn, 1) : 0;
            if (pi->as != TY_AS_STORAGE && pi->as != TY_AS_UNIFORM && !big_array_check(c, sn, pi->elem, nsp(c, tn)))
                return;
        } else if (!ty_is_constructible(c->tt, t)) {
            ERR(nsp(c, pn->u.param.type), "type of function parameter must be constructible");
            return;
        }
        pd->type = t;
    }
    /* return attributes */
    if (!no_dup_attrs(c, n->u.fn.ret_attrs)) return;
    for (uint32_t k = 0; k < n->u.fn.ret_attrs.count; k++) {
        uint32_t ah = ast_item(c->m, n->u.fn.ret_attrs, k);
        const ast_node *a = N(ah);
        int64_t v;
        if (a->op == AST_ATTR_location && !attr_int(c, ah, 0, &v, "location")) return;
        if (a->op != AST_ATTR_location && a->op != AST_ATTR_builtin && a->op != AST_ATTR_invariant &&
            a->op != AST_ATTR_interpolate && a->op != AST_ATTR_blend_src) {
            ERR(attr_span(a), "'@%s' is not valid for function return types", ast_attr_name((ast_attr)a->op));
            return;
        }
    }
    /* return type */
    if (n->u.fn.ret_type) {
        ty_t rt = type_expr(c, n->u.fn.ret_type);
        if (!rt) return;
        if (fi->stage == WGSL_STAGE_COMPUTE && !n->u.fn.ret_attrs.count) {
            ERR(sema_decl_span(c->cc, h, false), "missing entry point IO attribute on return type");
            return;
        }
        fi->ret = rt;
    }
    /* body */
    c->fn = h;
    c->ret = fi->ret;
    c->loops = c->breakables = c->in_continuing = c->cont_loops = 0;
    c->callees.n = 0;
    c->first_discard = 0;
    for (uint32_t i = 0; i < c->globals.n; i++) c->gseen[c->globals.v[i]] = 0;
    c->globals.n = 0;
    int b = block_stmts(c, n->u.fn.body);
    fi->may_fall_through = (b & B_NEXT) != 0;
    for (uint32_t i = 0; i < c->callees.n && !c->first_discard; i++)
        c->first_discard = c->discard_of[c->callees.v[i]];
    c->discard_of[h] = c->first_discard;
    if (fi->stage == WGSL_STAGE_COMPUTE && c->first_discard) {
        ERR(nsp(c, c->first_discard), "discard statement cannot be used in compute pipeline stage");
        return;
    }
    if (fi->ret && !ty_is_constructible(c->tt, fi->ret)) {
        ERR(nsp(c, n->u.fn.ret_type), "function return type must be a constructible type");
        return;
    }
    if (fi->ret && (b & B_NEXT)) {
        const ast_node *body = N(n->u.fn.body);
        ERR(span_make(body->sp.off + (body->sp.len ? body->sp.len - 1 : 0), 1), "missing return at end of function");
    }
    fi->ncallees = c->callees.n;
    fi->callees = c->callees.n ? arena_dup(&c->cc->arena, c->callees.v, c->callees.n * sizeof(uint32_t)) : NULL;
    sort_u32(c->globals.v, c->globals.n, c);
    fi->nglobals = c->globals.n;
    fi->globals = c->globals.n ? arena_dup(&c->cc->arena, c->globals.v, c->globals.n * sizeof(uint32_t)) : NULL;
    c->fn = 0;
    c->ret = 0;
    /* entry point interface: parameters (Tint checks them after the body) */
    for (uint32_t i = 0; fi->stage && i < n->u.fn.params.count; i++) {
        uint32_t p = ast_item(c->m, n->u.fn.params, i);
        const ast_node *pn = N(p);
        sema_decl *pd = DC(c, p);
        ty_t t = pd->type;
        uint32_t battr = ast_find_attr(c->m, pn->attrs, AST_ATTR_builtin);
        uint32_t lattr = ast_find_attr(c->m, pn->attrs, AST_ATTR_location);
        if (battr) {
            if (!builtin_param(c, h, p, t, fi->stage, &fi->builtin_mask, battr)) return;
        } else if (lattr && fi->stage != WGSL_STAGE_COMPUTE) {
            int64_t v;
            if (!attr_int(c, lattr, 0, &v, "location")) return;
            pd->location = (uint32_t)v + 1;
        } else if (ty_kind_of(c->tt, t) == TY_STRUCT) {
            /* members carry the IO attributes */
            uint32_t sn = 0;
            for (uint32_t k = 0; k < c->structs.n; k++)
                if (DC(c, c->structs.v[k])->type == t) sn = c->structs.v[k];
            for (uint32_t k = 0; sn && k < N(sn)->u.struct_.members.count; k++) {
                uint32_t mh = ast_item(c->m, N(sn)->u.struct_.members, k);
                uint32_t mb = ast_find_attr(c->m, N(mh)->attrs, AST_ATTR_builtin);
                if (mb && !builtin_param(c, h, mh, DC(c, mh)->type, fi->stage, &fi->builtin_mask, mb)) return;
                if (!mb && !ast_find_attr(c->m, N(mh)->attrs, AST_ATTR_location)) {
                    ERR(name_span(c, N(mh)->u.param.name_off, N(mh)->u.param.name), "missing entry point IO attribute");
                    return;
                }
            }
        } else {
            ERR(name_span(c, pn->u.param.name_off, pn->u.param.name), "missing entry point IO attribute on parameter");
            return;
        }
    }
    /* entry point interface: resources */
    if (fi->stage) {
        uint64_t wg = 0;
        for (uint32_t i = 0; i < fi->nglobals; i++) {
            uint32_t g = fi->globals[i];
            sema_decl *gd = DC(c, g);
            if (N(g)->kind == AST_VAR && gd->as == TY_AS_WORKGROUP && gd->type)
                wg += ty_round_up(16, ty_size_of(c->tt, gd->type));
            if (!gd->has_binding) continue;
            for (uint32_t j = 0; j < i; j++) {
                sema_decl *od = DC(c, fi->globals[j]);
                if (od->has_binding && od->group == gd->group && od->binding == gd->binding) {
                    ERR(sema_decl_span(c->cc, g, false),
                        "entry point '%s' references multiple variables that use the same resource binding '@group(%u)', '@binding(%u)'",
                        str(c, n->u.fn.name), gd->group, gd->binding);
                    NOTE(sema_decl_span(c->cc, fi->globals[j], false), "first resource binding usage declared here");
                    return;
                }
            }
        }
        fi->workgroup_bytes = wg;
    }
}

/* ---- directives --------------------------------------------------------------------------------- */

static void directives(checker *c) {
    const ast_module *m = c->m;
    diag_filters_ok(c, m->directives, "directive");
    for (uint32_t i = 0; i < m->directives.count; i++) {
        uint32_t h = ast_item(m, m->directives, i);
        const ast_node *n = N(h);
        if (n->kind == AST_ENABLE) {
            for (uint32_t j = 0; j < n->u.names.names.count; j++) {
                const ast_node *nm = N(ast_item(m, n->u.names.names, j));
                const char *s = str(c, nm->u.name.name);
                if (!strcmp(s, "f16")) {
                    if (c->cc->opt.no_f16) ERR(nm->sp, "'f16' extension is not supported by the device");
                    c->sm->enable_f16 = true;
                } else if (!strcmp(s, "subgroups")) {
                    if (c->cc->opt.no_subgroups) ERR(nm->sp, "'subgroups' extension is not supported by the device");
                    c->sm->enable_subgroups = true;
                } else if (!strcmp(s, "chromium_experimental_subgroup_matrix")) {
                    if (c->cc->opt.no_subgroup_matrix)
                        ERR(nm->sp, "'chromium_experimental_subgroup_matrix' extension is not supported by the device");
                    c->sm->enable_subgroup_matrix = true;
                } else if (!strcmp(s, "subgroups_f16") || !strcmp(s, "clip_distances") ||
                           !strcmp(s, "dual_source_blending") || !strcmp(s, "primitive_index")) {
                    /* accepted, unused by compute */
                } else {
                    ERR(nm->sp, "unrecognized extension '%s'", s);
                }
            }
        } else if (n->kind == AST_REQUIRES) {
            static const char *feats[] = {
                "readonly_and_readwrite_storage_textures", "packed_4x8_integer_dot_product",
                "unrestricted_pointer_parameters", "pointer_composite_access",
                "uniform_buffer_standard_layout", "subgroup_id", "subgroup_uniformity", NULL };
            for (uint32_t j = 0; j < n->u.names.names.count; j++) {
                const ast_node *nm = N(ast_item(m, n->u.names.names, j));
                const char *s = str(c, nm->u.name.name);
                bool ok = false;
                for (uint32_t k = 0; feats[k]; k++) ok |= !strcmp(feats[k], s);
                if (!ok) ERR(nm->sp, "unrecognized language feature '%s'", s);
            }
        } else if (n->kind == AST_DIAGNOSTIC) {
            const char *sev = str(c, n->u.diag.severity);
            if (strcmp(sev, "error") && strcmp(sev, "warning") && strcmp(sev, "info") && strcmp(sev, "off"))
                ERR(span_make(n->u.diag.sev_off, (uint32_t)strlen(sev)), "unrecognized diagnostic severity '%s'", sev);
            if (!n->u.diag.rule2) {
                const char *rule = str(c, n->u.diag.rule);
                if (strcmp(rule, "derivative_uniformity") && strcmp(rule, "subgroup_uniformity"))
                    diag_warning(c->cc, span_make(n->u.diag.rule_off, (uint32_t)strlen(rule)),
                                 "unrecognized diagnostic rule '%s'", rule);
            }
        }
    }
}

/* ---- builtin functions (the table in builtins.def) ---------------------------------------------- */

/* Argument i converted to `to` (u32 offsets and strides, the bool layout flag); false after an error. */
static bool sgm_arg(checker *c, uint32_t h, uint32_t i, ty_t to) {
    uint32_t a = arg_at(c, h, i);
    if (materialize(c, a, to)) return true;
    if (EX(c, a)->type) ERR(nsp(c, a), "cannot convert value of type '%s' to type '%s'", TN(sema_value_type(c->sm, a)), TN(to));
    return false;
}

/* Tint's "no matching call to 'subgroupMatrixLoad<T>(arg types)'" for a call of the wrong shape. */
static void sgm_no_match(checker *c, uint32_t h, const char *name, ty_t tmpl, const ty_t *a, uint32_t nargs) {
    char buf[1024];
    size_t k = (size_t)snprintf(buf, sizeof buf, "%s", name);
    if (tmpl && k < sizeof buf) k += (size_t)snprintf(buf + k, sizeof buf - k, "<%s>", TN(tmpl));
    for (uint32_t i = 0; i < nargs && k < sizeof buf; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", i ? ", " : "(", TN(a[i]));
    if (k < sizeof buf) snprintf(buf + k, sizeof buf - k, "%s)", nargs ? "" : "(");
    ERR(nsp(c, h), "no matching call to '%s'", buf);
}

/* The subgroup matrix built-ins (builtins.def lists their signatures). */
static void sgm_call(checker *c, uint32_t h, sema_expr *e, bi_fn f, ty_t tmpl, const char *name) {
    uint32_t nargs = N(h)->u.call.args.count;
    if (!c->sm->enable_subgroup_matrix) {
        ERR(nsp(c, h), "cannot call built-in function '%s' without extension 'chromium_experimental_subgroup_matrix'", name);
        return;
    }
    uint32_t want = f == BI_subgroupMatrixLoad ? 4 : f == BI_subgroupMatrixStore ? 5 :
                    f == BI_subgroupMatrixMultiply ? 2 : 3;
    ty_t a[BI_MAX_ARGS + 1] = { 0 };
    for (uint32_t i = 0; i < nargs && i <= BI_MAX_ARGS; i++)
        if (!(a[i] = rval(c, arg_at(c, h, i)))) return;
    if (nargs != want) {
        sgm_no_match(c, h, name, tmpl, a, nargs <= BI_MAX_ARGS ? nargs : BI_MAX_ARGS + 1);
        return;
    }
    ty_t ret = 0;
    if (f == BI_subgroupMatrixLoad || f == BI_subgroupMatrixStore) {
        bool ld = f == BI_subgroupMatrixLoad;
        ty_t m = ld ? tmpl : a[2];
        if (!m || ty_kind_of(c->tt, m) != TY_SGMAT) {
            sgm_no_match(c, h, name, tmpl, a, nargs);
            return;
        }
        ty_t el = ty_get(c->tt, m)->elem;
        const ty_info *pi = ty_get(c->tt, a[0]);
        const ty_info *ai = pi->kind == TY_PTR ? ty_get(c->tt, pi->elem) : NULL;
        if (!ai || ai->kind != TY_ARRAY || ai->elem != el || (pi->as != TY_AS_STORAGE && pi->as != TY_AS_WORKGROUP)) {
            sgm_no_match(c, h, name, tmpl, a, nargs);
            return;
        }
        if (!ld && pi->access == TY_ACCESS_READ) {
            sgm_no_match(c, h, name, tmpl, a, nargs);
            return;
        }
        uint32_t cm = ld ? 2 : 3;
        if (!sgm_arg(c, h, 1, TY_U32) || !sgm_arg(c, h, cm, TY_BOOL) || !sgm_arg(c, h, cm + 1, TY_U32)) return;
        if (EX(c, arg_at(c, h, cm))->stage != SEMA_STAGE_CONST) {
            ERR(nsp(c, arg_at(c, h, cm)), "the 'col_major' argument of '%s' must be a const-expression", name);
            return;
        }
        ret = ld ? m : 0;
    } else {
        const ty_info *l = ty_get(c->tt, a[0]), *r = ty_get(c->tt, a[1]);
        if (l->kind != TY_SGMAT || l->access != TY_SGM_LEFT || r->kind != TY_SGMAT || r->access != TY_SGM_RIGHT ||
            l->elem != r->elem || l->n != r->rows) {
            sgm_no_match(c, h, name, tmpl, a, nargs);
            return;
        }
        ty_t rel = tmpl;
        if (f == BI_subgroupMatrixMultiplyAccumulate) {
            const ty_info *acc = ty_get(c->tt, a[2]);
            if (acc->kind != TY_SGMAT || acc->access != TY_SGM_RESULT || acc->n != r->n || acc->rows != l->rows) {
                sgm_no_match(c, h, name, tmpl, a, nargs);
                return;
            }
            rel = acc->elem;
        } else if (rel != TY_F16 && rel != TY_F32 && rel != TY_I32 && rel != TY_U32) {
            sgm_no_match(c, h, name, tmpl, a, nargs);
            return;
        }
        ret = ty_sgmat(c->tt, TY_SGM_RESULT, rel, r->n, l->rows);
    }
    e->kind = SEMA_EK_VALUE;
    e->type = ret ? ret : TY_VOID;
    e->call = SEMA_CALL_BUILTIN;
    e->bi_fn = (uint16_t)f;
    e->bi_ovl = 0;
    e->stage = SEMA_STAGE_RUNTIME;
}

static void builtin_call(checker *c, uint32_t h, sema_expr *e, const char *name) {
    const ast_node *n = N(h);
    uint32_t ch = n->u.call.callee;
    bi_fn f = bi_lookup(name, strlen(name));
    if (!f) {
        ERR(nsp(c, ch), "unresolved call target '%s'", name);
        return;
    }
    const bi_info *bi = bi_get(f);
    uint32_t nargs = n->u.call.args.count;
    ty_t tmpl = 0;
    if (N(ch)->u.ident.templ.count) {
        if (!(bi->flags & BI_F_TMPL)) {
            ERR(nsp(c, ch), "builtin '%s' does not take template arguments", name);
            return;
        }
        tmpl = type_expr(c, templ_arg(c, ch, 0));
        if (!tmpl) return;
    }
    if ((bi->flags & BI_F_SUB) && !c->sm->enable_subgroups) {
        ERR(nsp(c, h), "cannot call built-in function '%s' without extension 'subgroups'", name);
        return;
    }
    if (bi->flags & BI_F_SGM) {
        sgm_call(c, h, e, f, tmpl, name);
        return;
    }
    ty_t args[BI_MAX_ARGS + 1] = { 0 };
    bool all_const = true;
    int st = SEMA_STAGE_CONST;
    for (uint32_t i = 0; i < nargs; i++) {
        uint32_t ah = arg_at(c, h, i);
        ty_t t = rval(c, ah);
        if (!t) return;
        if (i < BI_MAX_ARGS) args[i] = t;
        all_const &= EX(c, ah)->stage == SEMA_STAGE_CONST && EX(c, ah)->cval != 0;
        st = stage_max(st, EX(c, ah)->stage);
    }
    bi_match m;
    char msg[2048];
    if (nargs > BI_MAX_ARGS ||
        bi_resolve(c->tt, f, tmpl, args, nargs, all_const, &m, msg, sizeof msg)) {
        if (nargs > BI_MAX_ARGS) snprintf(msg, sizeof msg, "no matching call to '%s' with %u arguments", name, nargs);
        ERR(nsp(c, h), "%s", msg);
        return;
    }
    for (uint32_t i = 0; i < nargs && i < m.nparams; i++) {
        uint32_t ah = arg_at(c, h, i);
        if (!materialize(c, ah, m.params[i])) {
            if (EX(c, ah)->type)
                ERR(nsp(c, ah), "cannot convert value of type '%s' to type '%s'", TN(sema_value_type(c->sm, ah)), TN(m.params[i]));
            return;
        }
    }
    if ((bi->flags & BI_F_CARG1) && nargs > 1 && EX(c, arg_at(c, h, 1))->stage != SEMA_STAGE_CONST) {
        ERR(nsp(c, arg_at(c, h, 1)), "the %s argument of '%s' must be a const-expression", "second", name);
        return;
    }
    e->kind = SEMA_EK_VALUE;
    e->type = m.ret ? m.ret : TY_VOID;
    e->call = SEMA_CALL_BUILTIN;
    e->bi_fn = (uint16_t)f;
    e->bi_ovl = m.ovl;
    if (bi->eval && all_const) {
        cv_value vals[BI_MAX_ARGS];
        for (uint32_t i = 0; i < nargs; i++) vals[i] = *val(c, arg_at(c, h, i));
        cv_value out;
        if (bi_eval(&c->sm->cv, &m, vals, nargs, &out)) {
            ERR(nsp(c, h), "%s", c->sm->cv.msg);
            e->type = 0;
            return;
        }
        set_value(c, h, &out);
        return;
    }
    {   /* constant arguments of a call that is not all constant (subgroupShuffle lane < 128, ...) */
        const cv_value *cvals[BI_MAX_ARGS] = { 0 };
        for (uint32_t i = 0; i < nargs; i++) {
            uint32_t ah = arg_at(c, h, i);
            if (EX(c, ah)->stage == SEMA_STAGE_CONST && EX(c, ah)->cval) cvals[i] = val(c, ah);
        }
        int bad = bi_check_const_args(c->tt, &m, cvals, nargs, msg, sizeof msg);
        if (bad >= 0) {
            /* Tint blames the argument for the subgroup lane/mask/delta limits, else the call */
            ERR(nsp(c, (bi->flags & BI_F_SUB) ? arg_at(c, h, (uint32_t)bad) : h), "%s", msg);
            e->type = 0;
            return;
        }
    }
    e->stage = (uint8_t)(bi->eval && st <= SEMA_STAGE_OVERRIDE ? SEMA_STAGE_OVERRIDE : SEMA_STAGE_RUNTIME);
    if (nargs == 0 && bi->eval == NULL) e->stage = SEMA_STAGE_RUNTIME;
}

static bool builtin_must_use(checker *c, uint32_t call) {
    const sema_expr *e = EX(c, call);
    const bi_info *bi = bi_get((bi_fn)e->bi_fn);
    if (bi && (bi->flags & BI_F_MU)) {
        ERR(nsp(c, call), "ignoring return value of builtin '%s'", bi->name);
        return true;
    }
    return false;
}

/* ---- the phase ---------------------------------------------------------------------------------- */

const char *sema_builtin_name(sema_builtin b) {
    static const char *names[] = { "",
#define X(n, t, s, io) #n,
        SEMA_BUILTIN_VALUES(X)
#undef X
    };
    return b < SEMA_BV_COUNT ? names[b] : "";
}

static int cmp_binding(const sema_module *sm, uint32_t a, uint32_t b) {
    const sema_decl *x = &sm->dc[a], *y = &sm->dc[b];
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    if (x->binding != y->binding) return x->binding < y->binding ? -1 : 1;
    return a < b ? -1 : a > b;
}

int wgsl_check(wgsl_cc *cc) {
    const ast_module *m = &cc->ast;
    sema_module *sm = arena_alloc(&cc->arena, sizeof *sm);
    cc->sema = sm;
    ty_table_init_arena(&sm->tt, &cc->arena);
    sm->cv.tt = &sm->tt;
    sm->node_count = m->node_count ? m->node_count : 1;
    sm->ex = arena_alloc(&cc->arena, sm->node_count * sizeof *sm->ex);
    sm->dc = arena_alloc(&cc->arena, sm->node_count * sizeof *sm->dc);
    sm->fn_of = arena_alloc(&cc->arena, sm->node_count * sizeof *sm->fn_of);
    sm->behav = arena_alloc(&cc->arena, sm->node_count);
    uint32_t nd = m->decls.count;
    sm->fns = arena_alloc(&cc->arena, (nd + 1) * sizeof *sm->fns);
    sm->resources = arena_alloc(&cc->arena, (nd + 1) * sizeof *sm->resources);
    sm->overrides = arena_alloc(&cc->arena, (nd + 1) * sizeof *sm->overrides);

    checker ck;
    memset(&ck, 0, sizeof ck);
    checker *c = &ck;
    c->cc = cc;
    c->sm = sm;
    c->m = m;
    c->tt = &sm->tt;
    c->gseen = arena_alloc(&cc->arena, sm->node_count);
    c->discard_of = arena_alloc(&cc->arena, sm->node_count * sizeof *c->discard_of);

    directives(c);
    if (c->errors) return 1;
    if (sema_resolve(cc, sm)) return 1;
    for (uint32_t i = 0; i < sm->ndecl_order; i++) {
        uint32_t h = sm->decl_order[i];
        switch ((ast_kind)N(h)->kind) {
        case AST_VAR: global_var_decl(c, h); break;
        case AST_CONST: value_decl(c, h, true); break;
        case AST_OVERRIDE: override_decl(c, h); break;
        case AST_ALIAS: alias_decl(c, h); break;
        case AST_STRUCT: struct_decl(c, h); break;
        case AST_FN: fn_decl(c, h); break;
        case AST_CONST_ASSERT: stmt(c, h); break;
        default:
            ERR(N(h)->sp, "unexpected %s at module scope", ast_kind_name((ast_kind)N(h)->kind));
            break;
        }
        if (c->errors) break;   /* like Tint: later declarations may depend on this one */
    }
    if (c->errors) return 1;
    /* assign override ids: the lowest unused, in source order */
    {
        uint32_t next = 0;
        for (uint32_t i = 0; i < sm->noverrides; i++) {
            sema_decl *d = &sm->dc[sm->overrides[i]];
            if (d->has_id) continue;
            for (;;) {
                bool used = false;
                for (uint32_t j = 0; j < sm->noverrides; j++)
                    used |= sm->dc[sm->overrides[j]].has_id && sm->dc[sm->overrides[j]].override_id == next;
                if (!used) break;
                next++;
            }
            d->override_id = next++;
        }
        /* overrides in source order */
        sort_u32(sm->overrides, sm->noverrides, c);
        for (uint32_t i = 0; i < sm->noverrides; i++) sm->dc[sm->overrides[i]].override_index = i;
    }
    /* resources sorted by (group, binding) */
    for (uint32_t i = 1; i < sm->nresources; i++) {
        uint32_t x = sm->resources[i], j = i;
        while (j && cmp_binding(sm, sm->resources[j - 1], x) > 0) { sm->resources[j] = sm->resources[j - 1]; j--; }
        sm->resources[j] = x;
    }
    if (c->errors) return 1;
    return sema_uniformity(cc, sm);
}
