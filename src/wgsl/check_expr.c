/* check_expr.c - the checker's expressions (see check.c for the phase as a whole): type
 * expressions, operators, indexing and member access, value constructors, bitcasts, calls of user
 * and builtin functions (the table in builtins.def), identifiers, and the conversions between them.
 *
 * chk_expr() checks an expression bottom-up and records its type, kind and constant value in
 * sema_expr; chk_rval() applies the load rule; chk_materialize() converts an abstract expression to
 * the concrete type its context wants, rewriting its constant value in place.  A type of 0 means an
 * error was already reported. */
#include <stdio.h>
#include <string.h>

#include "wgsl/check.h"

/* ---- values and conversions -------------------------------------------------------------------- */

static void set_value(checker *c, uint32_t h, const cv_value *v) {
    EX(c, h)->cval = put_value(c, v);
    EX(c, h)->stage = SEMA_STAGE_CONST;
}

/* A const-evaluation error at node h, message `msg`: reported (h becomes erroneous, true), except
 * inside the operand that a short-circuit skips (`false && e`, `true || e`: c->no_eval), which is
 * not evaluated: there h just has no value and runtime stage (false). */
static bool eval_failed(checker *c, uint32_t h, const char *msg) {
    sema_expr *e = EX(c, h);
    if (c->no_eval) {
        e->cval = 0;
        e->stage = SEMA_STAGE_RUNTIME;
        return false;
    }
    ERR(nsp(c, h), "%s", msg);
    e->type = 0;
    return true;
}

/* Converts the (already checked) expression h to type `to` when it is abstract and converts
 * automatically; returns true when h now has type `to`. */
bool chk_materialize(checker *c, uint32_t h, ty_t to) {
    sema_expr *e = EX(c, h);
    ty_t from = sema_value_type(c->sm, h);
    if (!from || !to) return false;
    if (from == to) return true;
    if (!ty_is_abstract(c->tt, from)) return false;
    if (ty_conversion_rank(c->tt, from, to) == TY_RANK_INF) return false;
    if (e->cval) {
        cv_value out;
        if (cv_convert_implicit(&c->sm->cv, &c->sm->values[e->cval], to, &out)) {
            if (eval_failed(c, h, c->sm->cv.msg)) return false;
        } else {
            e->cval = put_value(c, &out);
        }
    }
    e->type = to;
    return true;
}

/* Materializes h to `to`; on failure reports Tint's message for an abstract source ("cannot
 * convert value of type ...") and returns false with *reported set, or returns false quietly when
 * the source is concrete (the caller words that error). */
bool chk_convert_or_report(checker *c, uint32_t h, ty_t to, bool *reported) {
    *reported = false;
    ty_t from = sema_value_type(c->sm, h);
    if (chk_materialize(c, h, to)) return true;
    if (!EX(c, h)->type || !from || !to) { *reported = true; return false; }
    if (ty_is_abstract(c->tt, from)) {
        ERR(nsp(c, h), "cannot convert value of type '%s' to type '%s'", TN(from), TN(to));
        *reported = true;
    }
    return false;
}

/* Concretizes h (abstract -> i32 / f32); returns the resulting value type. */
ty_t chk_concretize(checker *c, uint32_t h) {
    ty_t t = sema_value_type(c->sm, h);
    if (!t || !ty_is_abstract(c->tt, t)) return t;
    ty_t ct = ty_concretize(c->tt, t);
    return chk_materialize(c, h, ct) ? ct : 0;
}

/* ---- identifiers -------------------------------------------------------------------------------- */

const char *chk_decl_kind_word(checker *c, uint32_t d) { return sema_decl_kind_name(c->m, d); }

/* An identifier used as an expression. */
static void ident_expr(checker *c, uint32_t h, sema_expr *e) {
    const ast_node *n = N(h);
    uint32_t d = e->decl;
    if (d) {
        const ast_node *dn = N(d);
        sema_decl *dd = DC(c, d);
        if (n->u.ident.templ.count && dn->kind != AST_STRUCT && dn->kind != AST_ALIAS) {
            ERR(nsp(c, h), "%s '%s' does not take template arguments", chk_decl_kind_word(c, d), str(c, n->u.ident.name));
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
            e->type = chk_type_expr(c, h);
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
        e->type = chk_type_expr(c, h);
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

uint32_t chk_templ_arg(const checker *c, uint32_t h, uint32_t i) {
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
    sema_expr *ce = chk_expr(c, cnt);
    if (!ce->type && ce->kind != SEMA_EK_TYPE) return 0;
    if (ce->kind == SEMA_EK_TYPE) {
        ERR(nsp(c, cnt), "array count must evaluate to a constant integer expression or override variable");
        return 0;
    }
    ty_t t = chk_rval(c, cnt);
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
        if (t == TY_AINT) chk_materialize(c, cnt, TY_I32);
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
    if (!strncmp(s, "subgroup_matrix_", 16)) s += 16;
    else if (!strncmp(s, "workgroup_matrix_", 17)) s += 17;
    else return TY_SGM_NONE;
    return !strcmp(s, "left") ? TY_SGM_LEFT : !strcmp(s, "right") ? TY_SGM_RIGHT :
           !strcmp(s, "result") ? TY_SGM_RESULT : TY_SGM_NONE;
}

/* Template argument i of a subgroup (workgroup) matrix type: a const-expression integer in 1..255
 * (1..1024, a multiple of 16: the granularity every NVIDIA device lists for workgroup scope). */
static uint32_t sgm_dim(checker *c, uint32_t h, uint32_t i, bool wg) {
    const char *what = i == 1 ? "column" : "row", *kind = wg ? "workgroup" : "subgroup";
    uint32_t a = chk_templ_arg(c, h, i);
    sema_expr *ae = chk_expr(c, a);
    if (!ae->type && ae->kind != SEMA_EK_TYPE) return 0;
    ty_t t = ae->kind == SEMA_EK_TYPE ? 0 : chk_rval(c, a);
    if (!t || !is_int_scalar(t) || ae->stage != SEMA_STAGE_CONST || !ae->cval) {
        ERR(nsp(c, a), "%s matrix %s count must be a constant positive integer", kind, what);
        return 0;
    }
    int64_t v = c->sm->values[ae->cval].u.i;
    int64_t max = wg ? 1024 : 255;
    if (v < 1 || v > max) {
        ERR(nsp(c, a), v < 1 ? "%s matrix %s count must be a constant positive integer" :
                       "%s matrix %s count must be at most %d", kind, what, (int)max);
        return 0;
    }
    if (wg && v % 16) {
        ERR(nsp(c, a), "workgroup matrix %s count must be a multiple of 16", what);
        return 0;
    }
    if (t == TY_AINT) chk_materialize(c, a, TY_I32);
    return (uint32_t)v;
}


/* subgroup_matrix_left<T, K, M>, subgroup_matrix_right<T, N, K>, subgroup_matrix_result<T, N, M>
 * (and the workgroup_matrix_ ones): T then columns then rows. */
static ty_t sgm_type(checker *c, uint32_t h, ty_sgm_use use, const char *s, uint32_t nt) {
    bool wg = s[0] == 'w';
    if (!wg && !c->sm->enable_subgroup_matrix) {
        ERR(nsp(c, h), "use of 'subgroup_matrix_*' requires enabling extension 'chromium_experimental_subgroup_matrix'");
        return 0;
    }
    if (wg && !c->sm->enable_workgroup_matrix) {
        ERR(nsp(c, h), "use of 'workgroup_matrix_*' requires enabling extension 'wgc_workgroup_matrix'");
        return 0;
    }
    if (nt != 3) {
        ERR(nsp(c, h), nt ? "'%s' requires 3 template arguments" : "expected '<' for '%s'", s);
        return 0;
    }
    ty_t el = chk_type_expr(c, chk_templ_arg(c, h, 0));
    if (!el) return 0;
    if (el != TY_F16 && el != TY_F32 && el != TY_I32 && el != TY_U32) {
        ERR(nsp(c, h), "%s element type must be f32, f16, i32 or u32", wg ? "workgroup_matrix" : "subgroup_matrix");
        return 0;
    }
    uint32_t cols = sgm_dim(c, h, 1, wg);
    uint32_t rows = cols ? sgm_dim(c, h, 2, wg) : 0;
    return rows ? ty_coopmat(c->tt, wg ? TY_SGM_WORKGROUP : TY_SGM_SUBGROUP, use, el, cols, rows) : 0;
}

/* Resolves an identifier (with template list) in type position. */
static ty_t type_expr(checker *c, uint32_t h);

/* A type expression; its template arguments (array counts) are evaluated even inside an operand
 * that a short-circuit skips. */
ty_t chk_type_expr(checker *c, uint32_t h) {
    uint32_t save = c->no_eval;
    c->no_eval = 0;
    ty_t t = type_expr(c, h);
    c->no_eval = save;
    return t;
}

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
        ERR(nsp(c, h), "cannot use %s '%s' as type", chk_decl_kind_word(c, e->decl), s);
        NOTE(name_span(c, dn->kind == AST_FN ? dn->u.fn.name_off : dn->u.var.name_off, name),
             "%s '%s' declared here", chk_decl_kind_word(c, e->decl), s);
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
        ty_t el = chk_type_expr(c, chk_templ_arg(c, h, 0));
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
        ty_t el = chk_type_expr(c, chk_templ_arg(c, h, 0));
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
        ty_t el = chk_type_expr(c, chk_templ_arg(c, h, 0));
        if (!el) return 0;
        /* Tint evaluates the count before validating the element type */
        t = nt == 1 ? ty_array_runtime(c->tt, el) : array_type(c, h, el, chk_templ_arg(c, h, 1));
        if (!t) return 0;
        if (!ty_is_plain(c->tt, el) || ty_has(c->tt, el, TY_F_HAS_RUNTIME)) {
            ERR(nsp(c, chk_templ_arg(c, h, 0)), "'%s' cannot be used as an element type of an array", TN(el));
            return 0;
        }
        if (!ty_is_creation_fixed_footprint(c->tt, el)) {
            ERR(nsp(c, chk_templ_arg(c, h, 0)), "an array element type cannot contain a runtime-sized array");
            return 0;
        }
    } else if (sgm_use_of(s)) {
        if (!(t = sgm_type(c, h, sgm_use_of(s), s, nt))) return 0;
    } else if (!strcmp(s, "atomic")) {
        if (nt != 1) {
            ERR(nsp(c, h), nt ? "'atomic' requires 1 template argument" : "expected '<' for 'atomic'");
            return 0;
        }
        ty_t el = chk_type_expr(c, chk_templ_arg(c, h, 0));
        if (!el) return 0;
        if (el != TY_I32 && el != TY_U32) {
            ERR(nsp(c, chk_templ_arg(c, h, 0)), "'atomic' only supports 'i32', 'u32' or 'vec2u' types");
            return 0;
        }
        t = ty_atomic(c->tt, el);
    } else if (!strcmp(s, "ptr")) {
        if (nt < 2 || nt > 3) {
            ERR(nsp(c, h), nt ? "'ptr' requires 2 or 3 template arguments" : "expected '<' for 'ptr'");
            return 0;
        }
        uint32_t a0 = chk_templ_arg(c, h, 0);
        const char *as_s = ident_text(c, a0);
        if (EX(c, a0)->decl) {
            ERR(nsp(c, a0), "cannot use %s '%s' as address space", chk_decl_kind_word(c, EX(c, a0)->decl), as_s);
            return 0;
        }
        ty_as as = ty_as_by_name(as_s, strlen(as_s));
        if (!as || as == TY_AS_HANDLE) {
            ERR(nsp(c, a0), "unresolved address space '%s'", as_s);
            return 0;
        }
        ty_t st = chk_type_expr(c, chk_templ_arg(c, h, 1));
        if (!st) return 0;
        if ((as == TY_AS_STORAGE || as == TY_AS_UNIFORM) && !ty_is_host_shareable(c->tt, st)) {
            ERR(nsp(c, chk_templ_arg(c, h, 1)), "type '%s' cannot be used in address space '%s' as it is non-host-shareable",
                TN(st), ty_as_name(as));
            return 0;
        }
        ty_access am = ty_as_default_access(as);
        if (nt == 3) {
            uint32_t a2 = chk_templ_arg(c, h, 2);
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
        /* the store type in its address space, wherever the pointer type is written (an alias too) */
        uint32_t sn = chk_templ_arg(c, h, 1);
        if (ty_is_ptr(c->tt, st)) {
            ERR(nsp(c, sn), "%s cannot be used as the store type of a pointer", TN(st));
            return 0;
        }
        bool local = as == TY_AS_FUNCTION || as == TY_AS_PRIVATE || as == TY_AS_WORKGROUP;
        if ((as == TY_AS_FUNCTION || as == TY_AS_PRIVATE) && ty_has(c->tt, st, TY_F_HAS_RUNTIME)) {   /* Tint: not workgroup */
            ERR(nsp(c, sn), "runtime-sized arrays cannot be used in the <%s> address space", ty_as_name(as));
            return 0;
        }
        if (local && !chk_big_array_check(c, sn, st, nsp(c, sn))) return 0;
        if (as == TY_AS_STORAGE && am == TY_ACCESS_WRITE) {
            ERR(nsp(c, h), "access mode 'write' is not valid for the 'storage' address space");
            return 0;
        }
        if (ty_has(c->tt, st, TY_F_HAS_ATOMIC) && as != TY_AS_STORAGE && as != TY_AS_WORKGROUP) {
            ERR(nsp(c, h), "'atomic' variables must have 'storage' or 'workgroup' address space");
            return 0;
        }
        if (ty_has(c->tt, st, TY_F_HAS_ATOMIC) && as == TY_AS_STORAGE && am == TY_ACCESS_READ) {
            ERR(nsp(c, h), "atomic variables in 'storage' address space must have 'read_write' access mode");
            return 0;
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
ty_t chk_common_scalar(ty_t a, ty_t b) {
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

cv_binop chk_cv_binop(ast_op op) { return binop_of[op < AST_OP_COUNT ? op : 0]; }

/* The result type of `l op r` (0 when no overload matches) and the types the operands convert to
 * (*lt, *rt).  `lconst`: the lhs is a const-expression (an abstract-int shifted stays abstract). */
static ty_t binop_types(checker *c, ast_op op, ty_t l, ty_t r, bool lconst, ty_t *ltp, ty_t *rtp) {
    const ty_info *li = ty_get(c->tt, l), *ri = ty_get(c->tt, r);
    ty_t ls = ty_scalar_of(c->tt, l), rs = ty_scalar_of(c->tt, r);
    ty_t res = 0, lt = 0, rt = 0;       /* result and operand types after conversion */
    bool lvec = li->kind == TY_VEC, rvec = ri->kind == TY_VEC;
    bool lmat = li->kind == TY_MAT, rmat = ri->kind == TY_MAT;
    bool lsc = ty_is_scalar(c->tt, l), rsc = ty_is_scalar(c->tt, r);
    switch (op) {
    case AST_OP_ADD: case AST_OP_SUB: case AST_OP_MUL: case AST_OP_DIV: case AST_OP_MOD: {
        if ((lmat || rmat) && op != AST_OP_DIV && op != AST_OP_MOD) {
            ty_t s = chk_common_scalar(ls, rs);
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
        ty_t s = chk_common_scalar(ls, rs);
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
        ty_t s = chk_common_scalar(ls, rs);
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
        if (ls == TY_AINT && !lconst) lt = res = ty_with_scalar(c->tt, l, TY_I32);
        break;
    }
    case AST_OP_EQ: case AST_OP_NE: case AST_OP_LT: case AST_OP_LE: case AST_OP_GT: case AST_OP_GE: {
        if (!ls || !rs || lmat || rmat || lvec != rvec || (lvec && li->n != ri->n)) break;
        ty_t s = chk_common_scalar(ls, rs);
        if (!s || (s == TY_BOOL && op != AST_OP_EQ && op != AST_OP_NE)) break;
        lt = rt = lvec ? ty_vec(c->tt, li->n, s) : s;
        res = lvec ? ty_vec(c->tt, li->n, TY_BOOL) : TY_BOOL;
        break;
    }
    default: break;
    }
    *ltp = lt;
    *rtp = rt;
    return res;
}

ty_t chk_binop_types(checker *c, ast_op op, ty_t l, ty_t r, bool lconst, ty_t *lt, ty_t *rt) {
    return binop_types(c, op, l, r, lconst, lt, rt);
}

static void binary_expr(checker *c, uint32_t h, sema_expr *e) {
    const ast_node *n = N(h);
    ast_op op = (ast_op)n->op;
    uint32_t lh = n->u.binary.lhs, rh = n->u.binary.rhs;
    ty_t l = chk_rval(c, lh);
    /* `false && e` / `true || e` with a constant lhs: e is checked but not evaluated, and the
       expression is the constant lhs */
    const cv_value *lv0 = l == TY_BOOL && EX(c, lh)->stage == SEMA_STAGE_CONST ? val(c, lh) : NULL;
    bool skip = lv0 && ((op == AST_OP_LAND && !lv0->u.b) || (op == AST_OP_LOR && lv0->u.b));
    c->no_eval += skip;
    ty_t r = chk_rval(c, rh);
    c->no_eval -= skip;
    if (!l || !r) return;
    ty_t lt = 0, rt = 0;
    ty_t res = binop_types(c, op, l, r, EX(c, lh)->stage == SEMA_STAGE_CONST, &lt, &rt);
    if (!res) {
        no_overload(c, h, op, l, r);
        return;
    }
    if (!chk_materialize(c, lh, lt) || !chk_materialize(c, rh, rt)) {
        if (EX(c, lh)->type && EX(c, rh)->type) no_overload(c, h, op, l, r);
        return;
    }
    e->kind = SEMA_EK_VALUE;
    e->type = res;
    if (skip) {
        set_value(c, h, val(c, lh));
        return;
    }
    e->stage = (uint8_t)stage_max(EX(c, lh)->stage, EX(c, rh)->stage);
    if (!c->no_eval && e->stage != SEMA_STAGE_CONST && (EX(c, lh)->cval || EX(c, rh)->cval) && op < AST_OP_COUNT) {
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
            eval_failed(c, h, c->sm->cv.msg);
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
        sema_expr *o = chk_expr(c, oh);
        if (!o->type) return;
        if (o->kind != SEMA_EK_REF) {
            uint32_t d = N(oh)->kind == AST_IDENT ? o->decl : 0;
            char nb[128];
            const char *sw = o->kind == SEMA_EK_VALUE ? chk_swizzle_ref_name(c, oh, nb, sizeof nb) : NULL;
            if (d) ERR(nsp(c, oh), "cannot take the address of '%s'", decl_desc(c, d));
            else if (sw) ERR(nsp(c, oh), "cannot take the address of value of type '%s'", sw);
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
        ty_t t = chk_rval(c, oh);
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
    ty_t t = chk_rval(c, oh);
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
            eval_failed(c, h, c->sm->cv.msg);
            return;
        }
        set_value(c, h, &out);
    }
}

/* ---- access: index, member, swizzle ------------------------------------------------------------- */

/* The base of an access: reference (possibly through a pointer) or value.  Returns the type of the
 * composite (store type for references) and whether it is a reference. */
static ty_t access_base(checker *c, uint32_t bh, bool *is_ref, ty_t *ref_t) {
    sema_expr *b = chk_expr(c, bh);
    if (!b->type) return 0;
    if (b->kind == SEMA_EK_TYPE || b->kind == SEMA_EK_FN) {
        chk_rval(c, bh);
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
    ty_t it = chk_rval(c, n->u.index.index);
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
    if (ie->cval && !c->no_eval) {
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
        if (it == TY_AINT) chk_materialize(c, n->u.index.index, TY_I32);
        return;
    }
    e->kind = SEMA_EK_VALUE;
    e->type = el;
    e->stage = (uint8_t)stage_max(be->stage, ie->stage);
    if (e->stage == SEMA_STAGE_CONST && be->cval && ie->cval) {
        cv_value out;
        if (cv_index(&c->sm->cv, val(c, n->u.index.base), val(c, n->u.index.index)->u.i, &out)) {
            eval_failed(c, h, c->sm->cv.msg);
            return;
        }
        set_value(c, h, &out);
    } else {
        if (e->stage == SEMA_STAGE_CONST) e->stage = SEMA_STAGE_RUNTIME;
        if (ty_is_abstract(c->tt, bt)) {   /* runtime index into an abstract value: concretize */
            ty_t cbt = ty_concretize(c->tt, bt);
            chk_materialize(c, n->u.index.base, cbt);
            e->type = ty_concretize(c->tt, el);
        }
        if (it == TY_AINT) chk_materialize(c, n->u.index.index, TY_I32);
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
        if (is_ref) {   /* the whole vector is loaded (also through a pointer) */
            if (be->kind == SEMA_EK_REF) be->load = 1;
            chk_access(c, n->u.member.base, SEMA_ACC_READ);
        }
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
        eval_failed(c, h, cx->msg);
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
        s = s ? chk_common_scalar(s, a) : a;
        if (!s) return 0;
    }
    return s;
}

/* T(args) for a constructible type T (or an inferred template: `partial` names vecN/matCxR/array). */
static void construct(checker *c, uint32_t h, sema_expr *e, ty_t t, const char *partial) {
    const ast_node *n = N(h);
    uint32_t nargs = n->u.call.args.count;
    for (uint32_t i = 0; i < nargs; i++)
        if (!chk_rval(c, arg_at(c, h, i))) return;
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
                if (ty_is_scalar(c->tt, a) && ty_is_scalar(c->tt, el)) { el = chk_common_scalar(a, el); continue; }
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
            if (!chk_convert_or_report(c, arg_at(c, h, i), ti->members[i].type, &rep) && rep) {
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
            chk_materialize(c, arg_at(c, h, 0), t);
        }
    } else if (ti->kind == TY_VEC) {
        ty_t a0 = sema_value_type(c->sm, arg_at(c, h, 0));
        if (nargs == 1 && ty_is_vec(c->tt, a0) && ty_width(c->tt, a0) == ti->n) {
            e->call = SEMA_CALL_CONVERT;
            if (ty_is_abstract(c->tt, a0) && ty_conversion_rank(c->tt, a0, t) != TY_RANK_INF)
                chk_materialize(c, arg_at(c, h, 0), t);
        } else if (nargs == 1 && ty_is_scalar(c->tt, a0)) {
            ok = chk_materialize(c, arg_at(c, h, 0), ti->elem);
        } else {
            uint32_t total = 0;
            for (uint32_t i = 0; i < nargs && ok; i++) {
                uint32_t ah = arg_at(c, h, i);
                ty_t a = sema_value_type(c->sm, ah);
                if (ty_is_vec(c->tt, a)) {
                    total += ty_width(c->tt, a);
                    ok = chk_materialize(c, ah, ty_vec(c->tt, ty_width(c->tt, a), ti->elem));
                } else if (ty_is_scalar(c->tt, a)) {
                    total++;
                    ok = chk_materialize(c, ah, ti->elem);
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
            if (ok && ty_is_abstract(c->tt, a0)) chk_materialize(c, arg_at(c, h, 0), t);
        } else if (nargs == ti->n) {
            for (uint32_t i = 0; i < nargs && ok; i++) ok = chk_materialize(c, arg_at(c, h, i), col);
        } else if (nargs == (uint32_t)ti->n * ti->rows) {
            for (uint32_t i = 0; i < nargs && ok; i++) ok = chk_materialize(c, arg_at(c, h, i), ti->elem);
        } else ok = false;
    } else if (ti->kind == TY_ARRAY) {
        for (uint32_t i = 0; i < nargs && ok; i++) {
            ok = chk_materialize(c, arg_at(c, h, i), ti->elem);
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
            ok = chk_materialize(c, arg_at(c, h, i), ti->members[i].type);
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
        chk_concretize(c, arg_at(c, h, 0));
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
    ty_t t = chk_type_expr(c, chk_templ_arg(c, n->u.call.callee, 0));
    if (n->u.call.args.count != 1) {
        ERR(nsp(c, h), "bitcast expects 1 argument");
        return;
    }
    ty_t a = chk_rval(c, arg_at(c, h, 0));
    if (!t || !a) return;
    if (ty_is_abstract(c->tt, a)) a = chk_concretize(c, arg_at(c, h, 0));
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
            eval_failed(c, h, c->sm->cv.msg);
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
        if (!chk_rval(c, arg_at(c, h, i))) return;
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
        if (!chk_convert_or_report(c, ah, pt, &rep)) {
            if (rep) return;
            ERR(nsp(c, ah), "type mismatch for argument %u in call to '%s', expected '%s', got '%s'",
                i + 1, str(c, f->u.fn.name), TN(pt), TN(sema_value_type(c->sm, ah)));
            return;
        }
    }
    if (!chk_alias_call(c, h, fn)) return;
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
        ty_t at = chk_rval(c, a);
        if (!at) return;
        const ty_info *ai = ty_get(c->tt, at), *ti = ty_get(c->tt, t);
        if (ai->kind == TY_SGMAT) {   /* conversion: same kind, scope and size, f16 <-> f32 */
            if (ai->access != ti->access || ai->as != ti->as || ai->n != ti->n || ai->rows != ti->rows ||
                (ai->elem != TY_F16 && ai->elem != TY_F32) || (el != TY_F16 && el != TY_F32)) {
                ERR(nsp(c, a), "cannot convert value of type '%s' to type '%s'", TN(at), TN(t));
                return;
            }
            e->kind = SEMA_EK_VALUE;
            e->type = t;
            e->call = SEMA_CALL_CONSTRUCT;
            e->stage = SEMA_STAGE_RUNTIME;
            return;
        }
        if (!chk_materialize(c, a, el)) {
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
            ty_t t = chk_type_expr(c, ch);
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
        ty_t t = chk_type_expr(c, ch);
        if (t) construct(c, h, e, t, NULL);
        return;
    }
    if (!strcmp(name, "bitcast")) {
        bitcast_expr(c, h, e);
        return;
    }
    if (sgm_use_of(name)) {
        ty_t t = chk_type_expr(c, ch);
        if (t) sgm_construct(c, h, e, t);
        return;
    }
    if (!strcmp(name, "atomic") || !strcmp(name, "ptr")) {
        ty_t t = chk_type_expr(c, ch);
        if (t) ERR(nsp(c, h), "type '%s' is not constructible", TN(t));
        return;
    }
    builtin_call(c, h, e, name);
}

/* ---- expressions -------------------------------------------------------------------------------- */

sema_expr *chk_expr(checker *c, uint32_t h) {
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
ty_t chk_rval(checker *c, uint32_t h) {
    sema_expr *e = chk_expr(c, h);
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
        chk_access(c, h, SEMA_ACC_READ);
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


/* ---- builtin functions (the table in builtins.def) ---------------------------------------------- */

/* Argument i converted to `to` (u32 offsets and strides, the bool layout flag); false after an error. */
static bool sgm_arg(checker *c, uint32_t h, uint32_t i, ty_t to) {
    uint32_t a = arg_at(c, h, i);
    if (chk_materialize(c, a, to)) return true;
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
    bool wg = bi_sgm_scope(f) == TY_SGM_WORKGROUP;
    if (!wg && !c->sm->enable_subgroup_matrix) {
        ERR(nsp(c, h), "cannot call built-in function '%s' without extension 'chromium_experimental_subgroup_matrix'", name);
        return;
    }
    if (wg && !c->sm->enable_workgroup_matrix) {
        ERR(nsp(c, h), "cannot call built-in function '%s' without extension 'wgc_workgroup_matrix'", name);
        return;
    }
    uint8_t scope = wg ? TY_SGM_WORKGROUP : TY_SGM_SUBGROUP;
    bi_fn f0 = f;
    f = bi_sgm_base(f);
    uint32_t want = f == BI_subgroupMatrixLoad ? 4 : f == BI_subgroupMatrixStore ? 5 :
                    f == BI_subgroupMatrixMultiply ? 2 : 3;
    ty_t a[BI_MAX_ARGS + 1] = { 0 };
    for (uint32_t i = 0; i < nargs && i <= BI_MAX_ARGS; i++)
        if (!(a[i] = chk_rval(c, arg_at(c, h, i)))) return;
    if (nargs != want) {
        sgm_no_match(c, h, name, tmpl, a, nargs <= BI_MAX_ARGS ? nargs : BI_MAX_ARGS + 1);
        return;
    }
    ty_t ret = 0;
    if (f == BI_subgroupMatrixLoad || f == BI_subgroupMatrixStore) {
        bool ld = f == BI_subgroupMatrixLoad;
        ty_t m = ld ? tmpl : a[2];
        if (!m || ty_kind_of(c->tt, m) != TY_SGMAT || ty_get(c->tt, m)->as != scope) {
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
            l->elem != r->elem || l->n != r->rows || l->as != scope || r->as != scope) {
            sgm_no_match(c, h, name, tmpl, a, nargs);
            return;
        }
        ty_t rel = tmpl;
        if (f == BI_subgroupMatrixMultiplyAccumulate) {
            const ty_info *acc = ty_get(c->tt, a[2]);
            if (acc->kind != TY_SGMAT || acc->access != TY_SGM_RESULT || acc->n != r->n || acc->rows != l->rows ||
                acc->as != scope) {
                sgm_no_match(c, h, name, tmpl, a, nargs);
                return;
            }
            rel = acc->elem;
        } else if (rel != TY_F16 && rel != TY_F32 && rel != TY_I32 && rel != TY_U32) {
            sgm_no_match(c, h, name, tmpl, a, nargs);
            return;
        }
        ret = ty_coopmat(c->tt, (ty_sgm_scope)scope, TY_SGM_RESULT, rel, r->n, l->rows);
    }
    chk_access(c, arg_at(c, h, 0), f == BI_subgroupMatrixLoad ? SEMA_ACC_READ : f == BI_subgroupMatrixStore ? SEMA_ACC_WRITE : 0);
    e->kind = SEMA_EK_VALUE;
    e->type = ret ? ret : TY_VOID;
    e->call = SEMA_CALL_BUILTIN;
    e->bi_fn = (uint16_t)f0;
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
        tmpl = chk_type_expr(c, chk_templ_arg(c, ch, 0));
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
        ty_t t = chk_rval(c, ah);
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
        if (!chk_materialize(c, ah, m.params[i])) {
            if (EX(c, ah)->type)
                ERR(nsp(c, ah), "cannot convert value of type '%s' to type '%s'", TN(sema_value_type(c->sm, ah)), TN(m.params[i]));
            return;
        }
    }
    if ((bi->flags & BI_F_CARG1) && nargs > 1 && EX(c, arg_at(c, h, 1))->stage != SEMA_STAGE_CONST) {
        ERR(nsp(c, arg_at(c, h, 1)), "the %s argument of '%s' must be a const-expression", "second", name);
        return;
    }
    if ((bi->flags & BI_F_FRAG) && !c->first_frag) c->first_frag = h;
    if (f == BI_atomicLoad || f == BI_workgroupUniformLoad) chk_access(c, arg_at(c, h, 0), SEMA_ACC_READ);
    else if (f == BI_atomicStore) chk_access(c, arg_at(c, h, 0), SEMA_ACC_WRITE);
    else if (bi->flags & BI_F_ATOM) chk_access(c, arg_at(c, h, 0), SEMA_ACC_READ | SEMA_ACC_WRITE);
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
            eval_failed(c, h, c->sm->cv.msg);
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
        int bad = c->no_eval ? -1 : bi_check_const_args(c->tt, &m, cvals, nargs, msg, sizeof msg);
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

bool chk_builtin_must_use(checker *c, uint32_t call) {
    const sema_expr *e = EX(c, call);
    const bi_info *bi = bi_get((bi_fn)e->bi_fn);
    if (bi && (bi->flags & BI_F_MU)) {
        ERR(nsp(c, call), "ignoring return value of builtin '%s'", bi->name);
        return true;
    }
    return false;
}
