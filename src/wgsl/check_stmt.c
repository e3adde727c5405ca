/* check_stmt.c - the checker's statements (see check.c for the phase as a whole): assignments
 * and increments with their left-hand-side rules, local and module-scope value declarations,
 * control flow, statement-level diagnostic filters, and behaviour analysis (spec "Behavior
 * Analysis"): every statement returns its set of behaviours (B_NEXT, B_RETURN, B_BREAK,
 * B_CONTINUE), from which unreachable code, missing returns and misplaced break/continue follow. */
#include <stdio.h>
#include <string.h>

#include "wgsl/check.h"

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
static uint32_t swizzle_chain(checker *c, uint32_t lh, uint8_t comps[4], uint32_t *n) {
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

/* swizzle_chain, or one element of such a swizzle (`v.zyx[i]`, *n = 1, comps[0] = the component
 * for a constant index, else 0). */
static uint32_t swizzle_target(checker *c, uint32_t lh, uint8_t comps[4], uint32_t *n) {
    const sema_expr *l = EX(c, lh);
    if (!lh || N(lh)->kind != AST_INDEX) return swizzle_chain(c, lh, comps, n);
    uint32_t b = N(lh)->u.index.base;
    const sema_expr *be = EX(c, b);
    if (l->kind != SEMA_EK_VALUE || !l->type || N(b)->kind != AST_MEMBER || be->kind != SEMA_EK_VALUE || be->swz_n < 2)
        return 0;
    uint32_t r = swizzle_chain(c, b, comps, n);
    const cv_value *iv = val(c, N(lh)->u.index.index);
    comps[0] = iv && iv->u.i >= 0 && iv->u.i < *n ? comps[iv->u.i] : 0;
    *n = 1;
    return r;
}

/* Tint's name for a swizzle of a vector reference, "swizzle<function, vec2<f32>, read_write, 4, 2>"
 * (an element of one: "swizzle<function, f32, read_write, 3, 1>"), or NULL when `lh` is not one. */
const char *chk_swizzle_ref_name(checker *c, uint32_t lh, char *buf, size_t size) {
    const sema_expr *l = EX(c, lh);
    uint8_t comps[4];
    uint32_t n;
    uint32_t root = swizzle_target(c, lh, comps, &n);
    if (!root) return NULL;
    const ty_info *ri = ty_get(c->tt, EX(c, root)->type);
    uint32_t bh = N(lh)->kind == AST_INDEX ? N(lh)->u.index.base : N(lh)->u.member.base;
    ty_t bt = sema_value_type(c->sm, bh);                       /* the vector swizzled last */
    if (ty_is_ptr(c->tt, bt) || ty_is_ref(c->tt, bt)) bt = ty_get(c->tt, bt)->elem;
    snprintf(buf, size, "swizzle<%s, %s, %s, %u, %u>", ty_as_name((ty_as)ri->as), TN(l->type),
             ty_access_name((ty_access)ri->access), (unsigned)ty_get(c->tt, bt)->n, l->swz_n ? (unsigned)l->swz_n : 1u);
    return buf;
}

/* The lhs of an assignment / increment: a writable reference.  Returns the store type. */
static ty_t lhs_ref(checker *c, uint32_t lh, bool incdec, span ro_sp) {
    sema_expr *l = chk_expr(c, lh);
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
            ERR(ro_sp, "cannot store into a read-only type '%s'", chk_swizzle_ref_name(c, lh, nb, sizeof nb));
            return 0;
        }
        chk_access(c, lh, SEMA_ACC_WRITE);
        return l->type;
    }
    if (l->kind != SEMA_EK_REF) {
        uint32_t d = root_decl(c, lh);
        char nb[128];
        const char *sw = l->kind == SEMA_EK_VALUE ? chk_swizzle_ref_name(c, lh, nb, sizeof nb) : NULL;
        if (sw) {
            ERR(nsp(c, lh), "cannot %s value of type '%s'", incdec ? "modify" : "assign to", sw);
        } else if (d && (N(d)->kind == AST_LET || N(d)->kind == AST_PARAM || N(d)->kind == AST_CONST ||
                  N(d)->kind == AST_OVERRIDE)) {
            const char *w = chk_decl_kind_word(c, d);
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
            ERR(nsp(c, lh), "cannot %s value of type '%s'", incdec ? "modify" : "assign to", TN(l->type));
        } else {
            chk_rval(c, lh);
        }
        return 0;
    }
    const ty_info *ri = ty_get(c->tt, l->type);
    if (ri->access == TY_ACCESS_READ) {
        ERR(ro_sp, "cannot store into a read-only type '%s'", TN(l->type));
        return 0;
    }
    chk_access(c, lh, SEMA_ACC_WRITE);
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
        ty_t t = chk_rval(c, rh);
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
    ty_t rt = chk_rval(c, rh);
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
        const char *sw = chk_swizzle_ref_name(c, lh, nb, sizeof nb);
        if (!chk_convert_or_report(c, rh, st, &rep) && !rep)
            ERR(assign_op_span(c, h), "cannot assign '%s' to '%s'", TN(rt), sw ? sw : TN(st));
        return B_NEXT;
    }
    /* compound: lhs op= rhs behaves as lhs = lhs op rhs: the operator's overload on (st, rt), whose
       result must be the store type (`v *= m` with v a vector and m a square matrix) */
    ast_op op = (ast_op)n->op;
    ty_t lt = 0, want = 0;
    ty_t res = chk_binop_types(c, op, st, rt, false, &lt, &want);
    if (!res || !chk_materialize(c, rh, want)) {
        if (EX(c, rh)->type)
            ERR(assign_op_span(c, h), "no matching overload for 'operator %s= (%s, %s)'", ast_op_name(op), TN(st), TN(rt));
        return B_NEXT;
    }
    if (res != st) {
        ERR(assign_op_span(c, h), "cannot assign '%s' to '%s'", TN(res), TN(st));
        return B_NEXT;
    }
    /* a constant rhs: integer division by zero, shift count not below the bit width */
    const sema_expr *re = EX(c, rh);
    if (re->stage == SEMA_STAGE_CONST && re->cval &&
        cv_check_partial_binary(&c->sm->cv, chk_cv_binop(op), lt, NULL, &c->sm->values[re->cval]))
        ERR(assign_op_span(c, h), "%s", c->sm->cv.msg);
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

bool chk_big_array_check(checker *c, uint32_t tn, ty_t t, span fallback) {
    uint32_t k = big_array_count(c, t);
    if (!k) return true;
    ERR(big_array_span(c, tn, t, fallback), "array count (%u) must be less than 65536", (unsigned)k);
    return false;
}

/* WGSL's limit on the function-address-space memory of a function (wgsl.h): var declarations and
 * let declarations of array or structure type add up; the first one past WGSL_MAX_FUNCTION_BYTES
 * is an error. */
static void fn_memory(checker *c, uint32_t h, ty_t t) {
    uint64_t sz = ty_size_of(c->tt, t);
    c->fn_bytes += sz;
    if (c->fn_bytes <= WGSL_MAX_FUNCTION_BYTES || c->fn_bytes_reported) return;
    c->fn_bytes_reported = true;
    ERR(decl_span(c, h), "'%s' (%llu bytes) brings the function-scope variables of '%s' to %llu bytes, more than "
        "the limit of %u bytes", str(c, N(h)->u.var.name), (unsigned long long)sz, str(c, N(c->fn)->u.fn.name),
        (unsigned long long)c->fn_bytes, (unsigned)WGSL_MAX_FUNCTION_BYTES);
}

/* var/let/const in a function or at module scope (without the module-only rules). */
void chk_value_decl(checker *c, uint32_t h, bool module) {
    const ast_node *n = N(h);
    sema_decl *d = DC(c, h);
    d->scope = module ? SEMA_SCOPE_MODULE : SEMA_SCOPE_FUNCTION;
    d->fn = c->fn;
    ty_t t = 0;
    if (n->u.var.type) {
        t = chk_type_expr(c, n->u.var.type);
        if (!t) return;
    }
    ast_kind k = (ast_kind)n->kind;
    const char *kw = k == AST_LET ? "let" : k == AST_CONST ? "const" : k == AST_OVERRIDE ? "override" : "var";
    uint32_t ih = n->u.var.init;
    if (ih) {
        ty_t it = chk_rval(c, ih);
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
            if (!chk_convert_or_report(c, ih, t, &rep)) {
                if (!rep)
                    ERR(decl_span(c, h), "cannot initialize '%s' of type '%s' with value of type '%s'", kw, TN(t), TN(it));
                return;
            }
        } else {
            t = k == AST_CONST ? it : chk_concretize(c, ih);
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
        !chk_big_array_check(c, n->u.var.type, t, decl_span(c, h)))
        return;
    if (k == AST_LET && ty_is_ptr(c->tt, t)) d->root = chk_root_ident(c, ih);
    d->type = t;
    if (!module && k == AST_LET && (ty_kind_of(c->tt, t) == TY_ARRAY || ty_kind_of(c->tt, t) == TY_STRUCT))
        fn_memory(c, h, t);
}

static int var_stmt(checker *c, uint32_t h) {
    const ast_node *n = N(h);
    if (n->kind != AST_VAR) {
        chk_value_decl(c, h, false);
        return B_NEXT;
    }
    sema_decl *d = DC(c, h);
    chk_value_decl(c, h, false);        /* the type first, as Tint */
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
    } else if (d->type) {
        fn_memory(c, h, d->type);
    }
    return B_NEXT;
}

static bool cond_bool(checker *c, uint32_t h, const char *what) {
    ty_t t = chk_rval(c, h);
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


static int loop_body(checker *c, uint32_t body, uint32_t continuing, int *bc) {
    c->loops++;
    c->breakables++;
    int b = chk_block_stmts(c, body);
    *bc = 0;
    if (continuing) {
        c->in_continuing++;
        uint32_t save = c->cont_loops, save_cont = c->continuing;
        c->cont_loops = 0;
        c->continuing = continuing;
        *bc = chk_block_stmts(c, continuing);
        c->cont_loops = save;
        c->continuing = save_cont;
        c->in_continuing--;
    }
    c->loops--;
    c->breakables--;
    return b;
}

/* Diagnostic filters on one construct (statement / function attributes, or the module's directives
 * when `use` is "directive"): two for the same rule are an error, "duplicate" when the severities
 * agree (directives may repeat) and "conflicting" when not, as Tint reports them. */
void chk_diag_filters_ok(checker *c, ast_list list, const char *use) {
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

int chk_stmt(checker *c, uint32_t h) {
    if (!h) return B_NEXT;
    const ast_node *n = N(h);
    if (n->kind != AST_BLOCK) chk_diag_filters_ok(c, n->attrs, "attribute");     /* blocks: in block_stmts */
    if (n->kind == AST_LOOP) chk_diag_filters_ok(c, n->u.loop.body_attrs, "attribute");
    if (n->kind == AST_SWITCH) chk_diag_filters_ok(c, n->u.switch_.body_attrs, "attribute");
    int b = stmt_inner(c, h);
    c->sm->behav[h] = (uint8_t)b;
    return b;
}

static int stmt_inner(checker *c, uint32_t h) {
    const ast_node *n = N(h);
    switch ((ast_kind)n->kind) {
    case AST_BLOCK: return chk_block_stmts(c, h);
    case AST_RETURN: {
        if (c->in_continuing) {
            ERR(n->sp, "continuing blocks must not contain a return statement");
            return B_RETURN;
        }
        uint32_t v = n->u.ret.value;
        if (v) {
            ty_t t = chk_rval(c, v);
            if (!t) return B_RETURN;
            bool rep = false;
            if (!c->ret || !chk_convert_or_report(c, v, c->ret, &rep)) {
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
        int b = chk_block_stmts(c, n->u.if_.then);
        int e = n->u.if_.else_ ? chk_stmt(c, n->u.if_.else_) : B_NEXT;
        return b | e;
    }
    case AST_SWITCH: {
        uint32_t sel = n->u.switch_.expr;
        ty_t st = chk_rval(c, sel);
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
                if (!chk_rval(c, s)) { sel_ok = false; continue; }
                if (EX(c, s)->stage != SEMA_STAGE_CONST) {
                    ERR(N(s)->sp, "case selector must be a const-expression");
                    sel_ok = false;
                }
            }
            b |= chk_block_stmts(c, cl->u.case_.body);
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
                    ty_t cs = chk_common_scalar(common, t);
                    if (!cs || !is_int_scalar(cs)) {
                        ERR(N(s)->sp, "the case selector values must have the same type as the selector expression.");
                        common = 0;
                    } else common = cs;
                }
            }
        }
        if (!common) return b;
        if (common == TY_AINT) common = TY_I32;
        chk_materialize(c, sel, common);
        ARR(uint32_t) seen = { 0 };
        for (uint32_t i = 0; i < n->u.switch_.clauses.count; i++) {
            const ast_node *cl = N(ast_item(c->m, n->u.switch_.clauses, i));
            for (uint32_t j = 0; j < cl->u.case_.selectors.count; j++) {
                uint32_t s = ast_item(c->m, cl->u.case_.selectors, j);
                if (N(s)->kind == AST_DEFAULT) continue;
                if (!chk_materialize(c, s, common) || !EX(c, s)->cval) return b;
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
        if (n->u.for_.init) chk_stmt(c, n->u.for_.init);
        ty_t ct = n->u.for_.cond ? chk_rval(c, n->u.for_.cond) : 0;
        c->loops++;
        c->breakables++;
        if (n->u.for_.update) chk_stmt(c, n->u.for_.update);
        int b = chk_block_stmts(c, n->u.for_.body);
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
        int b = chk_block_stmts(c, n->u.while_.body) | B_BREAK;
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
    case AST_BREAK_IF: {
        const ast_node *cb = c->continuing && !c->cont_loops ? N(c->continuing) : NULL;
        if (!cb || !cb->u.block.stmts.count || ast_item(c->m, cb->u.block.stmts, cb->u.block.stmts.count - 1) != h) {
            ERR(n->sp, "break-if must be the last statement in a continuing block");
            if (cb) {   /* Tint points at the block's '{' */
                uint32_t o = cb->sp.off;
                while (o < cb->sp.off + cb->sp.len && c->cc->src[o] != '{') o++;
                NOTE(span_make(o, cb->sp.off + cb->sp.len - o), "see continuing block here");
            }
            return B_NEXT;
        }
        cond_bool(c, n->u.ret.value, "break-if");
        return B_BREAK | B_NEXT;
    }
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
        if (!c->first_frag) c->first_frag = h;
        return B_NEXT;
    case AST_CALL_STMT: {
        uint32_t call = n->u.call_stmt.call;
        sema_expr *e = chk_expr(c, call);
        if (e->type && e->type != TY_VOID) {
            if (e->call == SEMA_CALL_BUILTIN) chk_builtin_must_use(c, call);
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
        ty_t t = chk_rval(c, v);
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
int chk_block_stmts(checker *c, uint32_t h) {
    if (!h) return B_NEXT;
    const ast_node *n = N(h);
    if (n->kind != AST_BLOCK) return chk_stmt(c, h);
    chk_diag_filters_ok(c, n->attrs, "attribute");
    int b = B_NEXT;
    bool warned = false;
    for (uint32_t i = 0; i < n->u.block.stmts.count; i++) {
        uint32_t s = ast_item(c->m, n->u.block.stmts, i);
        if (!(b & B_NEXT) && !warned) {
            diag_warning(c->cc, nsp(c, s), "code is unreachable");
            warned = true;
        }
        int sb = chk_stmt(c, s);
        if (b & B_NEXT) b = (b & ~B_NEXT) | sb;
    }
    c->sm->behav[h] = (uint8_t)b;
    return b;
}
