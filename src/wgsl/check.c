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
 * message.  Messages follow Tint's wording.
 *
 * The phase is split by concern: this file holds the driver, directives and module-scope
 * declarations; check_expr.c the types, expressions and calls; check_stmt.c the statements and
 * behaviour analysis; check.h the checker context and the chk_ functions they share. */
#include <stdio.h>
#include <string.h>

#include "wgsl/check.h"

/* ---- module-scope declarations ------------------------------------------------------------------ */

/* A const-expression attribute argument that must be an integer; returns false on error. */
static bool attr_int(checker *c, uint32_t attr, uint32_t i, int64_t *out, const char *what) {
    const ast_node *a = N(attr);
    if (i >= a->u.attr.args.count) return false;
    uint32_t h = ast_item(c->m, a->u.attr.args, i);
    ty_t t = chk_rval(c, h);
    if (!t) return false;
    if (t == TY_AFLOAT && !chk_materialize(c, h, TY_F32)) return false;
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
    if (t == TY_AINT) chk_materialize(c, h, TY_I32);
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
        ty_t t = chk_type_expr(c, mn->u.param.type);
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
                ERR(attr_span(a), "'@%s' is not valid for 'struct' members", ast_attr_name((ast_attr)a->op));
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
    DC(c, h)->type = chk_type_expr(c, n->u.alias.type);
}

static void override_decl(checker *c, uint32_t h) {
    const ast_node *n = N(h);
    sema_decl *d = DC(c, h);
    if (!no_dup_attrs(c, n->attrs)) return;
    for (uint32_t k = 0; k < n->attrs.count; k++) {
        const ast_node *a = N(ast_item(c->m, n->attrs, k));
        if (a->op != AST_ATTR_id) {
            ERR(attr_span(a), "'@%s' is not valid for 'override' declaration", ast_attr_name((ast_attr)a->op));
            return;
        }
    }
    chk_value_decl(c, h, true);
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
    chk_value_decl(c, h, true);
    if (!d->type) return;
    ty_t t = d->type;
    /* 2. address space and access mode names */
    ty_as as = TY_AS_NONE;
    ty_access am = TY_ACCESS_NONE;
    if (n->u.var.templ.count) {
        uint32_t a0 = ast_item(c->m, n->u.var.templ, 0);
        const char *s = ident_text(c, a0);
        if (EX(c, a0)->decl) {
            ERR(nsp(c, a0), "cannot use %s '%s' as address space", chk_decl_kind_word(c, EX(c, a0)->decl), s);
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
    if ((as == TY_AS_PRIVATE || as == TY_AS_WORKGROUP) && !chk_big_array_check(c, n->u.var.type, t, decl_span(c, h))) {
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
        if (N(ah)->op != AST_ATTR_group && N(ah)->op != AST_ATTR_binding) {
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
    if ((b == SEMA_BV_subgroup_id || b == SEMA_BV_num_subgroups) && stage != WGSL_STAGE_COMPUTE) {
        ERR(attr_span(a), "'@builtin(%s)' is only valid as a compute shader input", bn);
        return false;
    }
    if (!stage_ok || (bv[b].io != 'i' && !(b == SEMA_BV_position && stage == WGSL_STAGE_FRAGMENT))) {
        static const char *sn[] = { "", "compute", "vertex", "fragment" };
        ERR(attr_span(a), "'@builtin(%s)' cannot be used for %s shader input", bn, sn[stage < 4 ? stage : 0]);
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
        ty_t t = chk_rval(c, e);
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
        if (!chk_materialize(c, e, common)) return;
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

/* @subgroup_size(n) (`enable subgroup_size_control;`): a compute entry point's required subgroup
 * size, a const- or override-expression of integer type, a power of 2 when constant.  Tint's
 * messages, all at the attribute. */
static bool subgroup_size(checker *c, sema_fn *fi) {
    const ast_node *a = N(fi->subgroup_size_attr);
    if (!c->sm->enable_subgroup_size_control) {
        ERR(attr_span(a), "use of '@subgroup_size' requires enabling extension 'subgroup_size_control'");
        return false;
    }
    if (fi->stage != WGSL_STAGE_COMPUTE) {
        ERR(attr_span(a), "'@subgroup_size' is only valid for compute stages");
        return false;
    }
    uint32_t e = ast_item(c->m, a->u.attr.args, 0);
    ty_t t = chk_rval(c, e);
    if (!t) return false;
    if (!is_int_scalar(t) || EX(c, e)->stage == SEMA_STAGE_RUNTIME) {
        ERR(attr_span(a), "'@subgroup_size' argument must be a constant or override-expression of type "
            "'abstract-integer', 'i32' or 'u32'");
        return false;
    }
    if (!chk_materialize(c, e, t == TY_AINT ? TY_I32 : t)) return false;
    if (EX(c, e)->cval) {
        int64_t v = val(c, e)->u.i;
        if (v < 1) {
            ERR(attr_span(a), "'@subgroup_size' argument must be at least 1");
            return false;
        }
        if (v & (v - 1)) {
            ERR(attr_span(a), "'@subgroup_size' argument must be a power of 2");
            return false;
        }
    }
    return true;
}

/* An entry point output @builtin (on the return type or a member of the returned struct): one the
 * stage writes, of its type. */
static bool builtin_output(checker *c, uint32_t battr, ty_t t, wgsl_stage stage) {
    static const char *sn[] = { "", "compute", "vertex", "fragment" };
    const ast_node *a = N(battr);
    const ast_node *arg = a->u.attr.args.count ? N(ast_item(c->m, a->u.attr.args, 0)) : NULL;
    const char *bn = arg && arg->kind == AST_IDENT ? str(c, arg->u.ident.name) : "";
    const char *want = NULL;
    if (stage == WGSL_STAGE_VERTEX && !strcmp(bn, "position")) want = "vec4<f32>";
    else if (stage == WGSL_STAGE_VERTEX && !strcmp(bn, "clip_distances")) return true;
    else if (stage == WGSL_STAGE_FRAGMENT && !strcmp(bn, "frag_depth")) want = "f32";
    else if (stage == WGSL_STAGE_FRAGMENT && !strcmp(bn, "sample_mask")) want = "u32";
    if (!want) {
        ERR(attr_span(a), "'@builtin(%s)' cannot be used for %s shader output", bn, sn[stage < 4 ? stage : 0]);
        return false;
    }
    if (strcmp(TN(t), want) != 0) {
        ERR(attr_span(a), "store type of '@builtin(%s)' must be '%s'", bn, want);
        return false;
    }
    return true;
}

static bool vertex_position(checker *c, uint32_t fn, const sema_fn *fi, bool position);

/* An entry point's return type: Tint's checks of outputs (after the body, as for the inputs). */
static bool ret_io_ok(checker *c, uint32_t fn, const sema_fn *fi) {
    const ast_node *n = N(fn);
    uint32_t battr = ast_find_attr(c->m, n->u.fn.ret_attrs, AST_ATTR_builtin);
    uint32_t lattr = ast_find_attr(c->m, n->u.fn.ret_attrs, AST_ATTR_location);
    if (fi->stage == WGSL_STAGE_COMPUTE) {
        if (battr) return builtin_output(c, battr, fi->ret, fi->stage);
        if (lattr) {
            ERR(attr_span(N(lattr)), "'@location' cannot be used by compute shaders");
            return false;
        }
        return true;
    }
    bool position = false;
    if (battr) {
        if (!builtin_output(c, battr, fi->ret, fi->stage)) return false;
        position = true;   /* the only vertex output builtin besides clip_distances */
    } else if (lattr) {
    } else if (ty_kind_of(c->tt, fi->ret) == TY_STRUCT) {
        uint32_t sn = 0;
        for (uint32_t k = 0; k < c->structs.n; k++)
            if (DC(c, c->structs.v[k])->type == fi->ret) sn = c->structs.v[k];
        for (uint32_t k = 0; sn && k < N(sn)->u.struct_.members.count; k++) {
            uint32_t mh = ast_item(c->m, N(sn)->u.struct_.members, k);
            uint32_t mb = ast_find_attr(c->m, N(mh)->attrs, AST_ATTR_builtin);
            if (mb && !builtin_output(c, mb, DC(c, mh)->type, fi->stage)) return false;
            if (!mb && !ast_find_attr(c->m, N(mh)->attrs, AST_ATTR_location)) {
                ERR(name_span(c, N(mh)->u.param.name_off, N(mh)->u.param.name), "missing entry point IO attribute");
                return false;
            }
            position |= mb && DC(c, mh)->builtin == SEMA_BV_position;
        }
    } else {
        ERR(sema_decl_span(c->cc, fn, false), "missing entry point IO attribute on return type");
        return false;
    }
    return vertex_position(c, fn, fi, position);
}

/* A vertex entry point writes @builtin(position). */
static bool vertex_position(checker *c, uint32_t fn, const sema_fn *fi, bool position) {
    if (fi->stage != WGSL_STAGE_VERTEX || position) return true;
    ERR(sema_decl_span(c->cc, fn, false), "a vertex shader must include the 'position' builtin in its return type");
    return false;
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
                bool sg_id = !strcmp(bn, "subgroup_id") || !strcmp(bn, "num_subgroups");   /* also with subgroup matrices */
                if ((((!strcmp(bn, "subgroup_invocation_id") || !strcmp(bn, "subgroup_size")) && !c->sm->enable_subgroups &&
                      !c->sm->enable_subgroup_size_control)) ||
                    (sg_id && !c->sm->enable_subgroups && !c->sm->enable_subgroup_matrix)) {
                    ERR(attr_span(a), "use of '@builtin(%s)' attribute requires enabling extension 'subgroups'", bn);
                    return false;
                }
            }
            break;
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
    chk_diag_filters_ok(c, n->attrs, "attribute");
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
        case AST_ATTR_subgroup_size: fi->subgroup_size_attr = ah; break;
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
    if (fi->subgroup_size_attr && !subgroup_size(c, fi)) return;
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
        ty_t t = chk_type_expr(c, pn->u.param.type);
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
            uint32_t tn = pn->u.param.type, sn = N(tn)->u.ident.templ.count > 1 ? chk_templ_arg(c, tn, 1) : 0;
            if (pi->as != TY_AS_STORAGE && pi->as != TY_AS_UNIFORM && !chk_big_array_check(c, sn, pi->elem, nsp(c, tn)))
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
        if (!fi->stage) {
            ERR(attr_span(a), "'@%s' is not valid for non-entry point function return types", ast_attr_name((ast_attr)a->op));
            return;
        }
    }
    /* return type */
    if (n->u.fn.ret_type) {
        ty_t rt = chk_type_expr(c, n->u.fn.ret_type);
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
    c->first_frag = 0;
    c->fn_bytes = 0;
    c->fn_bytes_reported = false;
    for (uint32_t i = 0; i < c->globals.n; i++) c->gseen[c->globals.v[i]] = 0;
    c->globals.n = 0;
    chk_alias_begin(c);
    int b = chk_block_stmts(c, n->u.fn.body);
    chk_alias_end(c, fi);
    fi->may_fall_through = (b & B_NEXT) != 0;
    for (uint32_t i = 0; i < c->callees.n && !c->first_frag; i++)
        c->first_frag = c->frag_of[c->callees.v[i]];
    c->frag_of[h] = c->first_frag;
    if (fi->stage == WGSL_STAGE_COMPUTE && c->first_frag && N(c->first_frag)->kind == AST_CALL) {
        /* a derivative: Tint names the call chain, innermost function first */
        ERR(nsp(c, c->first_frag), "built-in cannot be used by compute pipeline stage");
        uint32_t chain[64], nchain = 0, x = c->first_frag;
        for (uint32_t f = h; f && nchain < 64;) {
            const ast_node *fn = N(f);
            chain[nchain++] = f;
            if (N(x)->sp.off >= fn->sp.off && N(x)->sp.off < fn->sp.off + fn->sp.len) break;
            const sema_fn *ff = f == h ? NULL : sema_fn_of(c->sm, f);
            const uint32_t *cs = ff ? ff->callees : c->callees.v;
            uint32_t ncs = ff ? ff->ncallees : c->callees.n, next = 0;
            for (uint32_t i = 0; i < ncs && !next; i++)
                if (c->frag_of[cs[i]] == x) next = cs[i];
            f = next;
        }
        for (uint32_t i = nchain; nchain > 1 && i-- > 0;)
            NOTE(sema_decl_span(c->cc, chain[i], false), i ? "called by function '%s'" : "called by entry point '%s'",
                 str(c, N(chain[i])->u.fn.name));
        return;
    }
    if (fi->stage == WGSL_STAGE_COMPUTE && c->first_frag) {
        ERR(nsp(c, c->first_frag), "discard statement cannot be used in compute pipeline stage");
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
    /* entry point interface: the return type (a builtin or location, or a struct of them) */
    if (fi->stage && (fi->ret ? !ret_io_ok(c, h, fi) : !vertex_position(c, h, fi, false))) return;
    /* entry point interface: resources */
    if (fi->stage) {
        uint64_t wg = 0, priv = 0;
        for (uint32_t i = 0; i < fi->nglobals; i++) {
            uint32_t g = fi->globals[i];
            sema_decl *gd = DC(c, g);
            if (N(g)->kind == AST_VAR && gd->as == TY_AS_WORKGROUP && gd->type)
                wg += ty_round_up(16, ty_size_of(c->tt, gd->type));
            if (N(g)->kind == AST_VAR && gd->as == TY_AS_PRIVATE && gd->type && priv <= WGSL_MAX_PRIVATE_BYTES) {
                /* WGSL's limit on the private memory of a shader (wgsl.h) */
                uint64_t sz = ty_size_of(c->tt, gd->type);
                priv += sz;
                if (priv > WGSL_MAX_PRIVATE_BYTES) {
                    ERR(sema_decl_span(c->cc, g, false),
                        "'%s' (%llu bytes) brings the private variables used by entry point '%s' to %llu bytes, "
                        "more than the limit of %u bytes", str(c, N(g)->u.var.name), (unsigned long long)sz,
                        str(c, n->u.fn.name), (unsigned long long)priv, (unsigned)WGSL_MAX_PRIVATE_BYTES);
                    NOTE(name_span(c, n->u.fn.name_off, n->u.fn.name), "entry point '%s' declared here", str(c, n->u.fn.name));
                }
            }
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
    chk_diag_filters_ok(c, m->directives, "directive");
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
                } else if (!strcmp(s, "wgc_workgroup_matrix")) {
                    if (c->cc->opt.no_workgroup_matrix)
                        ERR(nm->sp, "'wgc_workgroup_matrix' extension is not supported by the device");
                    c->sm->enable_workgroup_matrix = true;
                } else if (!strcmp(s, "subgroup_size_control")) {   /* implies the subgroup built-in values */
                    if (c->cc->opt.no_subgroups)
                        ERR(nm->sp, "'subgroup_size_control' extension is not supported by the device");
                    c->sm->enable_subgroup_size_control = true;
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
    c->frag_of = arena_alloc(&cc->arena, sm->node_count * sizeof *c->frag_of);
    if (arena_lookup(&cc->arena, "ptr", 3))     /* alias analysis only where pointers can be written */
        c->acc_slot = arena_alloc(&cc->arena, sm->node_count * sizeof *c->acc_slot);

    directives(c);
    if (c->errors) return 1;
    if (sema_resolve(cc, sm)) return 1;
    chk_alias_prepare(c);
    for (uint32_t i = 0; i < sm->ndecl_order; i++) {
        uint32_t h = sm->decl_order[i];
        switch ((ast_kind)N(h)->kind) {
        case AST_VAR: global_var_decl(c, h); break;
        case AST_CONST:
            if (N(h)->attrs.count) ERR(sema_decl_span(cc, h, false), "'const' declaration does not accept attributes");
            else chk_value_decl(c, h, true);
            break;
        case AST_OVERRIDE: override_decl(c, h); break;
        case AST_ALIAS: alias_decl(c, h); break;
        case AST_STRUCT: struct_decl(c, h); break;
        case AST_FN: fn_decl(c, h); break;
        case AST_CONST_ASSERT: chk_stmt(c, h); break;
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
