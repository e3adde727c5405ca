/* uniform.c - uniformity analysis (spec "Uniformity Analysis"): barriers, workgroupUniformLoad,
 * subgroup operations and derivatives must be reached in uniform control flow.
 *
 * Each function becomes a graph whose edges read "if the target may be non-uniform, so may the
 * source".  Nodes stand for control flow at a point (CF), values of expressions and the contents of
 * local variables at a point; the special node MayBeNonUniform is the target of every non-uniform
 * source (invocation-varying builtin values, reads of mutable module-scope memory, atomics, subgroup
 * results); a second special node, MayBeNonUniformAcrossSubgroups, is the target of
 * @builtin(subgroup_id), uniform within its subgroup: only requirements of full uniformity
 * (barriers, workgroupUniformLoad) fail on it, not the subgroup_uniformity ones (subgroup
 * operations, subgroup-matrix arguments).  Every call that requires uniformity adds a
 * "required" node with an edge to the CF at the call (and, for workgroupUniformLoad, to the
 * pointer).  The walk is flow-sensitive: local
 * variables map to their current value node; an `if` whose behaviour is not just {Next} (a branch
 * returns, breaks or continues) makes the control flow after it depend on its condition; loops get
 * placeholder nodes for the CF and each variable at their head, closed with back edges after the
 * body and continuing block.
 *
 * After a function is walked, each required node is searched (depth first) for MayBeNonUniform:
 * found = an error at the call (for calls to user functions, at the builtin deep inside the callee
 * that imposed the requirement), with notes naming the condition and the non-uniform source as
 * Tint does.  Otherwise reaching the function's CF start or a parameter gives the function its
 * tags (call site must be uniform, parameter i must be uniform), which callers apply; whether the
 * return value and pointer-parameter contents may be non-uniform, or depend on parameters, are
 * tags too.  Functions are analysed callees first (sm->fns order).  Only the first violation is
 * reported (Tint stops there).  The subgroup_uniformity rule (subgroup operations) and the
 * derivative_uniformity rule (dpdx, fwidth, ...) honour `diagnostic(...)` directives, function
 * attributes and statement attributes (off / info / warning / error): the innermost filter
 * enclosing the call that requires uniformity decides its severity.  Statements after one that
 * cannot fall through (return, break, continue) are unreachable and not walked, as in Tint.
 * Entry point inputs other than the uniform builtins are non-uniform sources ("user-defined
 * input" for @location parameters). */
#include <string.h>

#include "wgsl/builtins.h"
#include "wgsl/cc.h"
#include "wgsl/sema.h"

enum {                          /* node kinds, for notes */
    NK_PLAIN = 0,
    NK_MBNU,                    /* the MayBeNonUniform node */
    NK_MBNU_WG,                 /* MayBeNonUniform across the workgroup, uniform in each subgroup */
    NK_COND,                    /* control flow inside a branch: ast = the branching statement */
    NK_SRC,                     /* a non-uniform source: ast = the expression, aux = what */
    NK_PARAM,                   /* a user function's parameter value: aux = index */
    NK_ARG,                     /* a value passed to a parameter that must be uniform: ast = arg */
    NK_REQ,                     /* required to be uniform: ast = the call that requires it */
};

enum { SRC_BUILTIN = 1, SRC_STORAGE, SRC_WORKGROUP, SRC_PRIVATE, SRC_ATOMIC, SRC_SUBGROUP, SRC_CALL, SRC_INPUT };

/* The diagnostic rule a requirement falls under (0: none, always an error). */
enum { RULE_NONE = 0, RULE_SUBGROUP, RULE_DERIVATIVE };

typedef struct un_node {
    uint32_t *e;                /* edges */
    uint32_t n, cap;
    uint32_t ast;               /* see kinds */
    uint32_t aux;
    uint32_t mark;              /* visit epoch */
    uint32_t from;              /* DFS parent, for the notes */
    uint8_t kind;
    uint8_t sub;                /* NK_REQ: the rule that applies, RULE_* (subgroup_uniformity or
                                 * derivative_uniformity; RULE_NONE: an error) */
    uint8_t sev;                /* NK_REQ with a rule: its severity where it was required (wgsl_severity) */
    uint32_t cause;             /* NK_REQ: the builtin call finally responsible */
} un_node;

/* Tags of an analysed function, applied at its call sites. */
typedef struct un_tags {
    uint32_t cs_cause;          /* call site must be uniform: the responsible builtin call, 0 = no */
    uint8_t cs_sub;
    uint8_t cs_sev;             /* its subgroup_uniformity severity at the builtin (Tint: the callee's filters) */
    uint32_t *param_cause;      /* [nparams]: parameter must be uniform (cause call), 0 = no */
    uint8_t *param_sub;
    uint8_t *param_sev;
    uint8_t ret_nonuniform;     /* return value may be non-uniform: 2, only across subgroups: 1 */
    uint8_t *ret_param;         /* [nparams]: return value depends on parameter i */
    uint8_t *ptr_nonuniform;    /* [nparams]: contents of pointer param i may be non-uniform after
                                 * (2), or only across subgroups (1) */
    uint8_t *ptr_param;         /* [nparams * nparams]: contents of pointer i depend on param j */
} un_tags;

typedef struct un_jump {        /* a break/continue: CF and variable values there */
    uint32_t cf;
    uint32_t *vals;
} un_jump;

typedef struct un_target {      /* an enclosing loop or switch */
    bool is_loop;
    ARR(un_jump) breaks;
    ARR(un_jump) conts;
} un_target;

typedef struct un {
    wgsl_cc *cc;
    sema_module *sm;
    const ast_module *m;
    ARR(un_node) nodes;
    uint32_t epoch;
    un_tags *tags;              /* [nfns + 1] by sm->fn_of[FN node] (0: no function) */
    /* the function being walked */
    uint32_t fn;
    uint32_t cf_start, ret;
    uint32_t *param;            /* [nparams] */
    uint32_t *ptr_out;          /* [nparams]: contents of pointer params at returns */
    uint32_t nparams;
    bool entry;
    ARR(uint32_t) vars;         /* tracked variable decls (locals, pointer params) */
    uint32_t *slot;             /* [node_count]: decl -> index in vars + 1 */
    uint32_t *cur;              /* current value node of each tracked var (parallel to vars) */
    uint32_t curcap;
    uint32_t *letv;             /* [node_count]: value node of a let / const-less decl */
    ARR(uint32_t) reqs;         /* NK_REQ nodes of this function */
    ARR(un_target) targets;
    int der_sev, global_der_sev;    /* the same for derivative_uniformity */
    int sub_sev;                /* severity of subgroup_uniformity here (module directive, function
                                 * attribute, then enclosing statement filters): 0 off, else wgsl_severity */
    int global_sub_sev;
    bool reported;
} un;

#define UN(u, i) (&(u)->nodes.v[(i)])

static uint32_t node(un *u, uint8_t kind, uint32_t ast) {
    un_node n;
    memset(&n, 0, sizeof n);
    n.kind = kind;
    n.ast = ast;
    ARR_PUSH(&u->cc->arena, u->nodes, n);
    return u->nodes.n - 1;
}

static void edge(un *u, uint32_t from, uint32_t to) {
    if (!from || !to || from == to) return;
    un_node *n = UN(u, from);
    for (uint32_t i = 0; i < n->n && i < 4; i++)
        if (n->e[i] == to) return;
    if (n->n == n->cap) {
        uint32_t cap = n->cap ? n->cap * 2 : 2;
        uint32_t *ne = arena_alloc(&u->cc->arena, cap * sizeof *ne);
        if (n->n) memcpy(ne, n->e, n->n * sizeof *ne);
        n = UN(u, from);
        n->e = ne;
        n->cap = cap;
    }
    n->e[n->n++] = to;
}

/* A new node depending on a and b. */
static uint32_t join(un *u, uint32_t a, uint32_t b) {
    if (!a) return b;
    if (!b || a == b) return a;
    uint32_t n = node(u, NK_PLAIN, 0);
    edge(u, n, a);
    edge(u, n, b);
    return n;
}

#define MBNU 1u
#define MBNU_WG 2u              /* reached from subgroup_id: fails only requirements of full uniformity */

static const ast_node *N_(const un *u, uint32_t h) { return ast_get(u->m, h); }
#define N(h) N_(u, (h))

/* ---- variables ------------------------------------------------------------------------------ */

static uint32_t *snapshot(un *u) {
    uint32_t *s = arena_alloc(&u->cc->arena, (u->vars.n + 1) * sizeof *s);
    if (u->vars.n) memcpy(s, u->cur, u->vars.n * sizeof *s);
    return s;
}

static void restore(un *u, const uint32_t *s, uint32_t n) {
    if (n) memcpy(u->cur, s, n * sizeof *s);
}

static void track(un *u, uint32_t decl, uint32_t val) {
    if (!u->slot[decl]) {
        if (u->vars.n + 1 > u->curcap) {
            uint32_t cap = u->curcap ? u->curcap * 2 : 16;
            uint32_t *nc = arena_alloc(&u->cc->arena, cap * sizeof *nc);
            if (u->vars.n) memcpy(nc, u->cur, u->vars.n * sizeof *nc);
            u->cur = nc;
            u->curcap = cap;
        }
        ARR_PUSH(&u->cc->arena, u->vars, decl);
        u->slot[decl] = u->vars.n;
    }
    u->cur[u->slot[decl] - 1] = val;
}

/* The variable (function-scope VAR or pointer PARAM) a reference / pointer expression is rooted
 * at, or 0 (module-scope memory or unknown). */
static uint32_t root_var(un *u, uint32_t h) {
    for (int guard = 0; guard < 1000 && h; guard++) {
        const ast_node *n = N(h);
        switch ((ast_kind)n->kind) {
        case AST_INDEX: h = n->u.index.base; break;
        case AST_MEMBER: h = n->u.member.base; break;
        case AST_UNARY:
            if (n->op != AST_OP_DEREF && n->op != AST_OP_ADDR) return 0;
            h = n->u.unary.operand;
            break;
        case AST_IDENT: {
            uint32_t d = sema_ex(u->sm, h)->decl;
            if (!d) return 0;
            const ast_node *dn = N(d);
            if (dn->kind == AST_VAR) return sema_dc(u->sm, d)->scope == SEMA_SCOPE_FUNCTION ? d : 0;
            if (dn->kind == AST_PARAM) return ty_is_ptr(&u->sm->tt, sema_dc(u->sm, d)->type) ? d : 0;
            if (dn->kind == AST_LET && ty_is_ptr(&u->sm->tt, sema_dc(u->sm, d)->type)) { h = dn->u.var.init; break; }
            return 0;
        }
        default: return 0;
        }
    }
    return 0;
}

/* ---- expressions ---------------------------------------------------------------------------- */

static uint32_t expr(un *u, uint32_t *cf, uint32_t h);
static uint32_t ident(un *u, uint32_t cf, uint32_t h);

/* The IDENT of the variable a pointer expression finally points into (through pointer lets). */
static uint32_t ptr_root_ident(un *u, uint32_t h) {
    for (int guard = 0; guard < 1000 && h; guard++) {
        const ast_node *n = N(h);
        switch ((ast_kind)n->kind) {
        case AST_INDEX: h = n->u.index.base; break;
        case AST_MEMBER: h = n->u.member.base; break;
        case AST_UNARY: h = n->u.unary.operand; break;
        case AST_IDENT: {
            uint32_t d = sema_ex(u->sm, h)->decl;
            if (d && N(d)->kind == AST_LET && ty_is_ptr(&u->sm->tt, sema_dc(u->sm, d)->type)) { h = N(d)->u.var.init; break; }
            return h;
        }
        default: return 0;
        }
    }
    return 0;
}

/* The contents of the memory a pointer-valued expression h points to. */
static uint32_t contents(un *u, uint32_t cf, uint32_t h) {
    uint32_t root = root_var(u, h);
    if (root) {
        if (!u->slot[root]) track(u, root, cf);
        return join(u, cf, u->cur[u->slot[root] - 1]);
    }
    uint32_t id = ptr_root_ident(u, h);
    if (!id) return cf;
    uint32_t d = sema_ex(u->sm, id)->decl;
    if (d && N(d)->kind == AST_VAR) return ident(u, cf, id);
    return cf;
}

static bool is_ptr_value(un *u, uint32_t h) {
    const sema_expr *e = sema_ex(u->sm, h);
    return e->kind == SEMA_EK_VALUE && ty_is_ptr(&u->sm->tt, e->type);
}

static uint32_t src_to(un *u, uint32_t h, uint32_t what, uint32_t sink) {
    uint32_t n = node(u, NK_SRC, h);
    UN(u, n)->aux = what;
    edge(u, n, sink);
    return n;
}

static uint32_t src(un *u, uint32_t h, uint32_t what) {
    return src_to(u, h, what, MBNU);
}

static bool builtin_value_uniform(sema_builtin b) {
    return b == SEMA_BV_workgroup_id || b == SEMA_BV_num_workgroups || b == SEMA_BV_subgroup_size ||
           b == SEMA_BV_num_subgroups;
}

static uint32_t ident(un *u, uint32_t cf, uint32_t h) {
    const sema_expr *e = sema_ex(u->sm, h);
    uint32_t d = e->decl;
    if (!d) return cf;
    const ast_node *dn = N(d);
    const sema_decl *dd = sema_dc(u->sm, d);
    switch ((ast_kind)dn->kind) {
    case AST_CONST: case AST_OVERRIDE: return cf;
    case AST_LET: return join(u, cf, u->letv[d]);
    case AST_PARAM: {
        if (u->entry) {
            if (dd->builtin && builtin_value_uniform((sema_builtin)dd->builtin)) return cf;
            if (dd->builtin == SEMA_BV_subgroup_id) return join(u, cf, src_to(u, h, SRC_BUILTIN, MBNU_WG));
            if (!dd->builtin && ty_kind_of(&u->sm->tt, dd->type) == TY_STRUCT) {
                /* struct of builtins: uniform only if every member is */
                const ty_info *si = ty_get(&u->sm->tt, dd->type);
                (void)si;
            }
            return src(u, h, dd->builtin || ty_kind_of(&u->sm->tt, dd->type) == TY_STRUCT ? SRC_BUILTIN : SRC_INPUT);
        }
        if (u->slot[d] && ty_is_ptr(&u->sm->tt, dd->type)) return join(u, cf, u->param[dd->index]);
        return join(u, cf, u->param[dd->index]);
    }
    case AST_VAR:
        if (dd->scope == SEMA_SCOPE_FUNCTION) {
            if (!u->slot[d]) track(u, d, cf);
            return join(u, cf, u->cur[u->slot[d] - 1]);
        }
        switch ((ty_as)dd->as) {
        case TY_AS_UNIFORM: return cf;
        case TY_AS_STORAGE: return dd->access == TY_ACCESS_READ ? cf : src(u, h, SRC_STORAGE);
        case TY_AS_WORKGROUP: return src(u, h, SRC_WORKGROUP);
        case TY_AS_PRIVATE: return src(u, h, SRC_PRIVATE);
        default: return src(u, h, SRC_PRIVATE);
        }
    default: return cf;
    }
}

/* A required-to-be-uniform node at call `h`, caused by builtin call `cause`; `sev`: the
 * subgroup_uniformity severity where that builtin is called (when `sub`). */
static uint32_t require(un *u, uint32_t h, uint32_t cause, int sub, int sev) {
    uint32_t r = node(u, NK_REQ, h);
    UN(u, r)->cause = cause;
    UN(u, r)->sub = sub;
    UN(u, r)->sev = (uint8_t)sev;
    if (sub && sev == 0) return 0;  /* rule off: nothing required */
    ARR_PUSH(&u->cc->arena, u->reqs, r);
    return r;
}

static uint32_t call(un *u, uint32_t *cf, uint32_t h) {
    const ast_node *n = N(h);
    const sema_expr *e = sema_ex(u->sm, h);
    uint32_t nargs = n->u.call.args.count;
    uint32_t argv[64];
    uint32_t result = *cf;
    for (uint32_t i = 0; i < nargs; i++) {
        uint32_t a = expr(u, cf, ast_item(u->m, n->u.call.args, i));
        if (i < 64) argv[i] = a;
        result = join(u, result, a);
    }
    if (e->call == SEMA_CALL_BUILTIN) {
        const bi_info *bi = bi_get((bi_fn)e->bi_fn);
        if (!bi) return result;
        if (bi->flags & BI_F_UNI) {
            uint32_t r = require(u, h, h, false, WGSL_SEVERITY_ERROR);
            edge(u, r, *cf);
            if (e->bi_fn == BI_workgroupUniformLoad) {
                if (nargs) {
                    uint32_t ra = require(u, ast_item(u->m, n->u.call.args, 0), h, false, WGSL_SEVERITY_ERROR);
                    UN(u, ra)->aux = 1;     /* argument 0 must be uniform */
                    edge(u, ra, argv[0]);
                }
                return *cf;
            }
            return result;
        }
        if (bi->flags & BI_F_SUB) {
            uint32_t r = require(u, h, h, RULE_SUBGROUP, u->sub_sev);
            edge(u, r, *cf);
            return src(u, h, SRC_SUBGROUP);
        }
        if (bi->flags & BI_F_SGM) {  /* subgroup (workgroup) matrices: subgroup (workgroup) uniform control
                                      * flow, offset and stride */
            bool sg = !bi_sgm_scope((bi_fn)e->bi_fn);
            int sev = sg ? u->sub_sev : WGSL_SEVERITY_ERROR;
            bi_fn bf = bi_sgm_base((bi_fn)e->bi_fn);
            uint32_t r = require(u, h, h, sg, sev);
            edge(u, r, *cf);
            uint32_t idx[3] = { 0, 1, bf == BI_subgroupMatrixLoad ? 3u : 4u };   /* pointer, offset, stride */
            for (int k = 0; k < 3 && (bf == BI_subgroupMatrixLoad || bf == BI_subgroupMatrixStore); k++) {
                if (idx[k] >= nargs || idx[k] >= 64) continue;
                uint32_t ra = require(u, ast_item(u->m, n->u.call.args, idx[k]), h, sg, sev);
                if (!ra) continue;
                UN(u, ra)->aux = idx[k] + 1;
                edge(u, ra, argv[idx[k]]);
            }
            return *cf;
        }
        if (bi->flags & BI_F_FRAG) {    /* derivatives: uniform control flow (derivative_uniformity) */
            uint32_t r = require(u, h, h, RULE_DERIVATIVE, u->der_sev);
            edge(u, r, *cf);
            return result;
        }
        if (bi->flags & BI_F_ATOM) return src(u, h, SRC_ATOMIC);
        /* builtins writing through pointers (modf/frexp have none): nothing to track */
        return result;
    }
    if (e->call == SEMA_CALL_CONSTRUCT && nargs == 1 && ty_kind_of(&u->sm->tt, e->type) == TY_SGMAT) {
        bool sg = ty_get(&u->sm->tt, e->type)->as != TY_SGM_WORKGROUP;
        uint32_t ra = require(u, ast_item(u->m, n->u.call.args, 0), h, sg, sg ? u->sub_sev : WGSL_SEVERITY_ERROR);   /* M(s): s uniform */
        if (ra) {
            UN(u, ra)->aux = 1;
            edge(u, ra, argv[0]);
        }
        return *cf;
    }
    if (e->call != SEMA_CALL_FN) return result;
    const un_tags *t = &u->tags[e->decl < u->sm->node_count ? u->sm->fn_of[e->decl] : 0];
    const ast_node *f = N(e->decl);
    uint32_t np = f->u.fn.params.count;
    if (t->cs_cause) {
        uint32_t r = require(u, h, t->cs_cause, t->cs_sub, t->cs_sev);
        edge(u, r, *cf);
    }
    uint32_t res = *cf;
    for (uint32_t i = 0; i < nargs && i < np && i < 64; i++) {
        uint32_t ah = ast_item(u->m, n->u.call.args, i);
        if (t->param_cause && t->param_cause[i]) {
            uint32_t r = require(u, h, t->param_cause[i], t->param_sub[i], t->param_sev[i]);
            uint32_t an = node(u, NK_ARG, ah);
            UN(u, an)->aux = i;
            edge(u, an, argv[i]);
            edge(u, r, an);
        }
        if (t->ret_param && t->ret_param[i]) res = join(u, res, argv[i]);
    }
    if (t->ret_nonuniform) res = join(u, res, src_to(u, h, SRC_CALL, t->ret_nonuniform == 2 ? MBNU : MBNU_WG));
    /* pointer arguments: the caller's variables may have changed */
    for (uint32_t i = 0; i < nargs && i < np && i < 64; i++) {
        if (!t->ptr_nonuniform) break;
        uint32_t ah = ast_item(u->m, n->u.call.args, i);
        uint32_t root = root_var(u, ah);
        if (!root || !ty_is_ptr(&u->sm->tt, sema_value_type(u->sm, ah))) continue;
        uint32_t v = node(u, NK_PLAIN, 0);
        edge(u, v, *cf);
        if (t->ptr_nonuniform[i]) edge(u, v, src_to(u, h, SRC_CALL, t->ptr_nonuniform[i] == 2 ? MBNU : MBNU_WG));
        for (uint32_t j = 0; j < nargs && j < np && j < 64; j++)
            if (t->ptr_param[i * np + j]) edge(u, v, argv[j]);
        if (u->slot[root]) edge(u, v, u->cur[u->slot[root] - 1]);
        track(u, root, v);
    }
    return res;
}

static uint32_t expr(un *u, uint32_t *cf, uint32_t h) {
    if (!h) return *cf;
    const sema_expr *e = sema_ex(u->sm, h);
    if (e->cval || e->stage != SEMA_STAGE_RUNTIME) return *cf;   /* const / override: uniform */
    const ast_node *n = N(h);
    switch ((ast_kind)n->kind) {
    case AST_IDENT: return ident(u, *cf, h);
    case AST_CALL: return call(u, cf, h);
    case AST_INDEX: {
        uint32_t b = expr(u, cf, n->u.index.base);
        uint32_t i = expr(u, cf, n->u.index.index);
        if (is_ptr_value(u, n->u.index.base)) b = join(u, b, contents(u, *cf, n->u.index.base));
        return join(u, b, i);
    }
    case AST_MEMBER: {
        uint32_t b = expr(u, cf, n->u.member.base);
        if (is_ptr_value(u, n->u.member.base)) b = join(u, b, contents(u, *cf, n->u.member.base));
        return b;
    }
    case AST_UNARY: {
        if (n->op == AST_OP_ADDR) {
            /* the pointer's value (not the memory): uniform when its indices are */
            uint32_t v = *cf;
            for (uint32_t k = n->u.unary.operand; k;) {
                const ast_node *kn = N(k);
                if (kn->kind == AST_INDEX) { v = join(u, v, expr(u, cf, kn->u.index.index)); k = kn->u.index.base; }
                else if (kn->kind == AST_MEMBER) k = kn->u.member.base;
                else if (kn->kind == AST_UNARY && kn->op == AST_OP_DEREF) { v = join(u, v, expr(u, cf, kn->u.unary.operand)); break; }
                else break;
            }
            return v;
        }
        if (n->op == AST_OP_DEREF) {
            uint32_t p = expr(u, cf, n->u.unary.operand);
            return join(u, p, contents(u, *cf, n->u.unary.operand));
        }
        return expr(u, cf, n->u.unary.operand);
    }
    case AST_BINARY: {
        uint32_t l = expr(u, cf, n->u.binary.lhs);
        if (n->op == AST_OP_LAND || n->op == AST_OP_LOR) {
            /* the rhs runs only for some invocations when the lhs varies */
            uint32_t rcf = join(u, *cf, l);
            uint32_t r = expr(u, &rcf, n->u.binary.rhs);
            return join(u, l, r);
        }
        uint32_t r = expr(u, cf, n->u.binary.rhs);
        return join(u, l, r);
    }
    default: return *cf;
    }
}

/* Severity of `rule` from a diagnostic directive/attribute node; -1 if not that rule. */
static int diag_sev(un *u, const ast_node *d, const char *rule) {
    if (d->kind != AST_DIAGNOSTIC || d->u.diag.rule2) return -1;
    if (strcmp(cc_str(u->cc, d->u.diag.rule), rule)) return -1;
    const char *s = cc_str(u->cc, d->u.diag.severity);
    if (!strcmp(s, "off")) return 0;
    if (!strcmp(s, "info")) return WGSL_SEVERITY_INFO;
    if (!strcmp(s, "warning")) return WGSL_SEVERITY_WARNING;
    return WGSL_SEVERITY_ERROR;
}

/* Applies the @diagnostic attributes in `attrs` (a statement's filters, innermost last) to the
 * current severities of the two rules; returns the severities before (subgroup | derivative << 8),
 * for restore_filters. */
static int apply_filters(un *u, ast_list attrs) {
    int old = u->sub_sev | u->der_sev << 8;
    for (uint32_t i = 0; i < attrs.count; i++) {
        const ast_node *a = N(ast_item(u->m, attrs, i));
        if (a->kind == AST_ATTR && a->op == AST_ATTR_diagnostic && a->u.attr.args.count) {
            const ast_node *d = N(ast_item(u->m, a->u.attr.args, 0));
            int s = diag_sev(u, d, "subgroup_uniformity");
            if (s >= 0) u->sub_sev = s;
            s = diag_sev(u, d, "derivative_uniformity");
            if (s >= 0) u->der_sev = s;
        }
    }
    return old;
}

static void restore_filters(un *u, int old) {
    u->sub_sev = old & 0xff;
    u->der_sev = old >> 8;
}

/* ---- statements ----------------------------------------------------------------------------- */

static uint32_t stmt(un *u, uint32_t cf, uint32_t h);

static uint32_t block(un *u, uint32_t cf, uint32_t h) {
    if (!h) return cf;
    const ast_node *n = N(h);
    if (n->kind != AST_BLOCK) return stmt(u, cf, h);
    int old = apply_filters(u, n->attrs);   /* `@diagnostic(...) { ... }`: the filter covers the block */
    for (uint32_t i = 0; i < n->u.block.stmts.count; i++) {
        uint32_t s = ast_item(u->m, n->u.block.stmts, i);
        cf = stmt(u, cf, s);
        if (!(u->sm->behav[s] & SEMA_B_NEXT)) break;   /* the rest is unreachable: not analysed (Tint) */
    }
    restore_filters(u, old);
    return cf;
}

/* Merges variable values of several paths into the current state. */
static void merge(un *u, uint32_t **vals, uint32_t npaths, uint32_t nvars) {
    for (uint32_t v = 0; v < nvars; v++) {
        uint32_t first = vals[0][v];
        bool same = true;
        for (uint32_t p = 1; p < npaths; p++) same &= vals[p][v] == first;
        if (same) { u->cur[v] = first; continue; }
        uint32_t j = node(u, NK_PLAIN, 0);
        for (uint32_t p = 0; p < npaths; p++) edge(u, j, vals[p][v]);
        u->cur[v] = j;
    }
}

static void assign_to(un *u, uint32_t cf, uint32_t lhs, uint32_t val, bool partial) {
    uint32_t root = root_var(u, lhs);
    if (!root) return;
    uint32_t v = node(u, NK_PLAIN, 0);
    edge(u, v, cf);
    edge(u, v, val);
    if (partial && u->slot[root]) edge(u, v, u->cur[u->slot[root] - 1]);
    track(u, root, v);
}

/* The loop skeleton shared by loop / for / while: `pre_cond` (for/while condition) is evaluated at
 * the head and breaks out when false. */
static uint32_t loop_stmt(un *u, uint32_t cf, uint32_t h, uint32_t cond, uint32_t body, uint32_t continuing,
                          uint32_t update) {
    uint32_t nv0 = u->vars.n;
    uint32_t head = node(u, NK_PLAIN, 0);
    edge(u, head, cf);
    uint32_t *entry_vals = snapshot(u);
    uint32_t *head_vals = arena_alloc(&u->cc->arena, (nv0 + 1) * sizeof *head_vals);
    for (uint32_t v = 0; v < nv0; v++) {
        head_vals[v] = node(u, NK_PLAIN, 0);
        edge(u, head_vals[v], entry_vals[v]);
        u->cur[v] = head_vals[v];
    }
    un_target t;
    memset(&t, 0, sizeof t);
    t.is_loop = true;
    ARR_PUSH(&u->cc->arena, u->targets, t);
    uint32_t ti = u->targets.n - 1;
    uint32_t bcf = head;
    if (cond) {
        uint32_t c = expr(u, &bcf, cond);
        uint32_t exit_cf = node(u, NK_COND, h);
        edge(u, exit_cf, bcf);
        edge(u, exit_cf, c);
        un_jump j = { exit_cf, snapshot(u) };
        ARR_PUSH(&u->cc->arena, u->targets.v[ti].breaks, j);
        bcf = exit_cf;
    }
    bcf = block(u, bcf, body);
    /* continuing: from the end of the body and every continue */
    un_target *tp = &u->targets.v[ti];
    uint32_t ccf = bcf;
    if (tp->conts.n) {
        uint32_t npaths = tp->conts.n + 1;
        uint32_t **vals = arena_alloc(&u->cc->arena, npaths * sizeof *vals);
        ccf = node(u, NK_PLAIN, 0);
        edge(u, ccf, bcf);
        vals[0] = snapshot(u);
        for (uint32_t i = 0; i < tp->conts.n; i++) {
            edge(u, ccf, tp->conts.v[i].cf);
            vals[i + 1] = tp->conts.v[i].vals;
        }
        merge(u, vals, npaths, nv0);
    }
    if (continuing) ccf = block(u, ccf, continuing);
    if (update) ccf = stmt(u, ccf, update);
    /* back edges */
    edge(u, head, ccf);
    for (uint32_t v = 0; v < nv0; v++) edge(u, head_vals[v], u->cur[v]);
    /* after the loop: from every break */
    tp = &u->targets.v[ti];
    uint32_t out = 0;
    if (tp->breaks.n) {
        uint32_t **vals = arena_alloc(&u->cc->arena, tp->breaks.n * sizeof *vals);
        out = node(u, NK_PLAIN, 0);
        for (uint32_t i = 0; i < tp->breaks.n; i++) {
            edge(u, out, tp->breaks.v[i].cf);
            vals[i] = tp->breaks.v[i].vals;
        }
        merge(u, vals, tp->breaks.n, nv0);
    } else {
        out = ccf;
    }
    u->targets.n--;
    /* a loop that only ever completes normally reconverges: the CF after it is the CF before */
    if (u->sm->behav[h] == SEMA_B_NEXT) out = cf;
    /* variables declared inside the loop go out of scope */
    for (uint32_t v = nv0; v < u->vars.n; v++) u->slot[u->vars.v[v]] = 0;
    u->vars.n = nv0;
    /* when every exit is uniform (or the loop only returns), the CF after is the CF before */
    return out;
}

static uint32_t stmt_inner(un *u, uint32_t cf, uint32_t h);

/* A statement under its own diagnostic filters (spec "Diagnostic Filtering": an attribute on an if,
 * switch, loop, for or while statement covers the whole statement, a loop body's covers the body
 * with its continuing block); blocks apply theirs in block(). */
static uint32_t stmt(un *u, uint32_t cf, uint32_t h) {
    if (!h) return cf;
    const ast_node *n = N(h);
    if (n->kind == AST_BLOCK) return stmt_inner(u, cf, h);
    int old = apply_filters(u, n->attrs);
    if (n->kind == AST_LOOP) apply_filters(u, n->u.loop.body_attrs);
    cf = stmt_inner(u, cf, h);
    restore_filters(u, old);
    return cf;
}

static uint32_t stmt_inner(un *u, uint32_t cf, uint32_t h) {
    if (!h) return cf;
    const ast_node *n = N(h);
    uint8_t behav = u->sm->behav[h];
    switch ((ast_kind)n->kind) {
    case AST_BLOCK: {
        uint32_t nv0 = u->vars.n;
        cf = block(u, cf, h);
        for (uint32_t v = nv0; v < u->vars.n; v++) u->slot[u->vars.v[v]] = 0;
        u->vars.n = nv0;
        return cf;
    }
    case AST_VAR: case AST_LET: {
        uint32_t v = n->u.var.init ? expr(u, &cf, n->u.var.init) : cf;
        if (n->kind == AST_LET) u->letv[h] = v;
        else track(u, h, join(u, cf, v));
        return cf;
    }
    case AST_CONST: case AST_CONST_ASSERT: return cf;
    case AST_ASSIGN: {
        uint32_t v = expr(u, &cf, n->u.assign.rhs);
        if (!n->u.assign.lhs) return cf;
        /* index expressions on the lhs */
        uint32_t lh = n->u.assign.lhs;
        uint32_t idx = cf;
        for (uint32_t k = lh; k && N(k)->kind != AST_IDENT;) {
            const ast_node *kn = N(k);
            if (kn->kind == AST_INDEX) { idx = join(u, idx, expr(u, &cf, kn->u.index.index)); k = kn->u.index.base; }
            else if (kn->kind == AST_MEMBER) k = kn->u.member.base;
            else if (kn->kind == AST_UNARY) k = kn->u.unary.operand;
            else { expr(u, &cf, k); break; }
        }
        bool partial = N(lh)->kind != AST_IDENT || n->op != AST_OP_NONE;
        uint32_t val = join(u, v, idx);
        if (n->op != AST_OP_NONE) val = join(u, val, expr(u, &cf, lh));
        assign_to(u, cf, lh, val, partial);
        return cf;
    }
    case AST_INCR: case AST_DECR: {
        uint32_t v = expr(u, &cf, n->u.assign.lhs);
        assign_to(u, cf, n->u.assign.lhs, v, true);
        return cf;
    }
    case AST_CALL_STMT: expr(u, &cf, n->u.call_stmt.call); return cf;
    case AST_RETURN: {
        uint32_t v = n->u.ret.value ? expr(u, &cf, n->u.ret.value) : cf;
        edge(u, u->ret, v);
        edge(u, u->ret, cf);
        for (uint32_t i = 0; i < u->nparams; i++) {
            uint32_t p = ast_item(u->m, N(u->fn)->u.fn.params, i);
            if (u->slot[p]) edge(u, u->ptr_out[i], u->cur[u->slot[p] - 1]);
        }
        return cf;
    }
    case AST_IF: {
        uint32_t c = expr(u, &cf, n->u.if_.cond);
        uint32_t bcf = node(u, NK_COND, h);
        edge(u, bcf, cf);
        edge(u, bcf, c);
        uint32_t nv0 = u->vars.n;
        uint32_t *before = snapshot(u);
        uint32_t cf1 = stmt(u, bcf, n->u.if_.then);
        uint32_t *v1 = snapshot(u);
        restore(u, before, nv0);
        uint32_t cf2 = n->u.if_.else_ ? stmt(u, bcf, n->u.if_.else_) : bcf;
        uint32_t *v2 = snapshot(u);
        uint32_t *vals[2] = { v1, v2 };
        merge(u, vals, 2, nv0);
        if (behav == SEMA_B_NEXT) return cf;
        return join(u, cf1, cf2);
    }
    case AST_SWITCH: {
        uint32_t sel = expr(u, &cf, n->u.switch_.expr);
        uint32_t bcf = node(u, NK_COND, h);
        edge(u, bcf, cf);
        edge(u, bcf, sel);
        un_target t;
        memset(&t, 0, sizeof t);
        ARR_PUSH(&u->cc->arena, u->targets, t);
        uint32_t ti = u->targets.n - 1;
        uint32_t nv0 = u->vars.n;
        uint32_t *before = snapshot(u);
        uint32_t ncl = n->u.switch_.clauses.count;
        uint32_t **vals = arena_alloc(&u->cc->arena, (ncl + 1) * sizeof *vals);
        uint32_t out = node(u, NK_PLAIN, 0);
        int old = apply_filters(u, n->u.switch_.body_attrs);
        for (uint32_t i = 0; i < ncl; i++) {
            restore(u, before, nv0);
            const ast_node *cl = N(ast_item(u->m, n->u.switch_.clauses, i));
            uint32_t e = stmt(u, bcf, cl->u.case_.body);
            edge(u, out, e);
            vals[i] = snapshot(u);
        }
        restore_filters(u, old);
        un_target *tp = &u->targets.v[ti];
        uint32_t npaths = ncl;
        uint32_t **all = arena_alloc(&u->cc->arena, (ncl + tp->breaks.n + 1) * sizeof *all);
        for (uint32_t i = 0; i < ncl; i++) all[i] = vals[i];
        for (uint32_t i = 0; i < tp->breaks.n; i++) {
            edge(u, out, tp->breaks.v[i].cf);
            all[npaths++] = tp->breaks.v[i].vals;
        }
        if (npaths) merge(u, all, npaths, nv0);
        u->targets.n--;
        if (behav == SEMA_B_NEXT) return cf;
        return out;
    }
    case AST_LOOP: return loop_stmt(u, cf, h, 0, n->u.loop.body, n->u.loop.continuing, 0);
    case AST_FOR: {
        uint32_t nv0 = u->vars.n;
        if (n->u.for_.init) cf = stmt(u, cf, n->u.for_.init);
        cf = loop_stmt(u, cf, h, n->u.for_.cond, n->u.for_.body, 0, n->u.for_.update);
        for (uint32_t v = nv0; v < u->vars.n; v++) u->slot[u->vars.v[v]] = 0;
        if (u->vars.n > nv0) u->vars.n = nv0;
        return cf;
    }
    case AST_WHILE: return loop_stmt(u, cf, h, n->u.while_.cond, n->u.while_.body, 0, 0);
    case AST_BREAK: case AST_CONTINUE: {
        bool brk = n->kind == AST_BREAK;
        for (uint32_t i = u->targets.n; i-- > 0;) {
            un_target *t = &u->targets.v[i];
            if (!brk && !t->is_loop) continue;
            un_jump j = { cf, snapshot(u) };
            if (brk) ARR_PUSH(&u->cc->arena, t->breaks, j);
            else ARR_PUSH(&u->cc->arena, t->conts, j);
            break;
        }
        return cf;
    }
    case AST_BREAK_IF: {
        uint32_t c = expr(u, &cf, n->u.ret.value);
        uint32_t bcf = node(u, NK_COND, h);
        edge(u, bcf, cf);
        edge(u, bcf, c);
        for (uint32_t i = u->targets.n; i-- > 0;) {
            un_target *t = &u->targets.v[i];
            if (!t->is_loop) continue;
            un_jump j = { bcf, snapshot(u) };
            ARR_PUSH(&u->cc->arena, t->breaks, j);
            break;
        }
        return bcf;
    }
    default: return cf;
    }
}

/* ---- search and reports --------------------------------------------------------------------- */

/* Depth-first search from `from` for `to`; fills `from` links; iterative. */
static bool reach(un *u, uint32_t from, uint32_t to) {
    u->epoch++;
    ARR(uint32_t) st = { 0 };
    ARR_PUSH(&u->cc->arena, st, from);
    UN(u, from)->mark = u->epoch;
    UN(u, from)->from = 0;
    while (st.n) {
        uint32_t x = st.v[--st.n];
        if (x == to) return true;
        un_node *nx = UN(u, x);
        for (uint32_t i = 0; i < nx->n; i++) {
            uint32_t y = nx->e[i];
            if (UN(u, y)->mark == u->epoch) continue;
            UN(u, y)->mark = u->epoch;
            UN(u, y)->from = x;
            ARR_PUSH(&u->cc->arena, st, y);
        }
    }
    return false;
}

static const char *ident_name(un *u, uint32_t h) {
    const ast_node *n = N(h);
    if (n->kind == AST_IDENT) return cc_str(u->cc, n->u.ident.name);
    if (n->kind == AST_CALL) return cc_str(u->cc, N(n->u.call.callee)->u.ident.name);
    return "";
}

static void report(un *u, uint32_t r, uint32_t sink) {
    un_node *rn = UN(u, r);
    uint32_t cause = rn->cause ? rn->cause : rn->ast;
    const ast_node *cn = N(cause);
    const char *fname = cn->kind == AST_CALL ? cc_str(u->cc, N(cn->u.call.callee)->u.ident.name) : "";
    int sev = rn->sub ? rn->sev : WGSL_SEVERITY_ERROR;
    if (sev == 0) return;
    if (rn->aux && cn->kind == AST_CALL && sema_ex(u->sm, cause)->call == SEMA_CALL_CONSTRUCT) {
        diag_error(u->cc, N(rn->ast)->sp, "%s constructor requires argument %u to be uniform",
                   ty_name(&u->sm->tt, sema_ex(u->sm, cause)->type), rn->aux - 1);
        u->reported = true;
        return;
    }
    if (rn->aux) {              /* an argument that must be uniform */
        diag_error(u->cc, N(rn->ast)->sp, "'%s' requires argument %u to be uniform", fname, rn->aux - 1);
        u->reported = true;
        return;
    }
    const char *what = rn->sub == RULE_SUBGROUP ? "subgroup uniform" : "uniform";
    if (sev == WGSL_SEVERITY_ERROR)
        diag_error(u->cc, cn->sp, "'%s' must only be called from %s control flow", fname, what);
    else if (sev == WGSL_SEVERITY_WARNING)
        diag_warning(u->cc, cn->sp, "'%s' must only be called from %s control flow", fname, what);
    else
        diag_info(u->cc, cn->sp, "'%s' must only be called from %s control flow", fname, what);
    /* notes along the path sink <- ... <- r: the last condition, then the source */
    uint32_t cond = 0, source = 0, arg = 0;
    for (uint32_t x = sink; x && x != r; x = UN(u, x)->from) {
        un_node *nx = UN(u, x);
        if (nx->kind == NK_SRC && !source) source = x;
        if (nx->kind == NK_COND && !cond) cond = x;
        if (nx->kind == NK_ARG && !arg) arg = x;
    }
    if (cond) diag_note(u->cc, N(UN(u, cond)->ast)->sp, "control flow depends on possibly non-uniform value");
    if (arg) diag_note(u->cc, N(UN(u, arg)->ast)->sp, "possibly non-uniform value passed here");
    if (source) {
        un_node *s = UN(u, source);
        span sp = N(s->ast)->sp;
        const char *nm = ident_name(u, s->ast);
        switch (s->aux) {
        case SRC_BUILTIN:
            diag_note(u->cc, sp, "builtin '%s' of '%s' may be non-uniform", nm, cc_str(u->cc, N(u->fn)->u.fn.name));
            break;
        case SRC_INPUT:
            diag_note(u->cc, sp, "user-defined input '%s' of '%s' may be non-uniform", nm, cc_str(u->cc, N(u->fn)->u.fn.name));
            break;
        case SRC_STORAGE:
            diag_note(u->cc, sp, "reading from read_write storage buffer '%s' may result in a non-uniform value", nm);
            break;
        case SRC_WORKGROUP:
            diag_note(u->cc, sp, "reading from workgroup storage variable '%s' may result in a non-uniform value", nm);
            break;
        case SRC_PRIVATE:
            diag_note(u->cc, sp, "reading from module-scope private variable '%s' may result in a non-uniform value", nm);
            break;
        case SRC_CALL:
            diag_note(u->cc, sp, "return value of '%s' may be non-uniform", nm);
            break;
        default:
            diag_note(u->cc, sp, "'%s' may return a non-uniform value", nm);
            break;
        }
    }
    if (sev == WGSL_SEVERITY_ERROR) u->reported = true;
}

static void analyse_fn(un *u, const sema_fn *fi) {
    uint32_t h = fi->node;
    const ast_node *f = N(h);
    u->fn = h;
    u->entry = fi->stage != WGSL_STAGE_UNDEFINED;
    u->vars.n = 0;
    u->reqs.n = 0;
    u->targets.n = 0;
    u->sub_sev = u->global_sub_sev;
    u->der_sev = u->global_der_sev;
    apply_filters(u, f->attrs);
    u->cf_start = node(u, NK_PLAIN, 0);
    u->ret = node(u, NK_PLAIN, 0);
    uint32_t np = f->u.fn.params.count;
    u->nparams = np;
    u->param = arena_alloc(&u->cc->arena, (np + 1) * sizeof *u->param);
    u->ptr_out = arena_alloc(&u->cc->arena, (np + 1) * sizeof *u->ptr_out);
    for (uint32_t i = 0; i < np; i++) {
        uint32_t p = ast_item(u->m, f->u.fn.params, i);
        u->param[i] = node(u, NK_PARAM, p);
        UN(u, u->param[i])->aux = i;
        u->ptr_out[i] = node(u, NK_PLAIN, 0);
        if (ty_is_ptr(&u->sm->tt, sema_dc(u->sm, p)->type)) track(u, p, u->param[i]);
    }
    uint32_t cf = block(u, u->cf_start, f->u.fn.body);
    /* falling off the end is a return */
    edge(u, u->ret, cf);
    for (uint32_t i = 0; i < np; i++) {
        uint32_t p = ast_item(u->m, f->u.fn.params, i);
        if (u->slot[p]) edge(u, u->ptr_out[i], u->cur[u->slot[p] - 1]);
    }
    /* requirements */
    un_tags *t = &u->tags[u->sm->fn_of[h]];
    t->param_cause = arena_alloc(&u->cc->arena, (np + 1) * sizeof *t->param_cause);
    t->param_sub = arena_alloc(&u->cc->arena, np + 1);
    t->param_sev = arena_alloc(&u->cc->arena, np + 1);
    t->ret_param = arena_alloc(&u->cc->arena, np + 1);
    t->ptr_nonuniform = arena_alloc(&u->cc->arena, np + 1);
    t->ptr_param = arena_alloc(&u->cc->arena, (size_t)np * np + 1);
    for (uint32_t k = 0; k < u->reqs.n && !u->reported; k++) {
        uint32_t r = u->reqs.v[k];
        uint8_t sub = UN(u, r)->sub;
        if (reach(u, r, MBNU)) {
            report(u, r, MBNU);
            continue;
        }
        if (sub != RULE_SUBGROUP && reach(u, r, MBNU_WG)) {   /* subgroup_id: uniform enough for subgroup operations only */
            report(u, r, MBNU_WG);
            continue;
        }
        uint32_t cause = UN(u, r)->cause;
        uint8_t sev = UN(u, r)->sev;
        if (!u->entry) {
            /* the first requirement found, replaced by a later more severe one (error < warning < info) */
            if ((!t->cs_cause || (t->cs_sub && (!sub || sev < t->cs_sev))) && reach(u, r, u->cf_start)) {
                t->cs_cause = cause; t->cs_sub = sub; t->cs_sev = sev;
            }
            for (uint32_t i = 0; i < np; i++)
                if ((!t->param_cause[i] || (t->param_sub[i] && (!sub || sev < t->param_sev[i]))) && reach(u, r, u->param[i])) {
                    t->param_cause[i] = cause; t->param_sub[i] = sub; t->param_sev[i] = sev;
                }
        }
    }
    if (!u->entry) {
        t->ret_nonuniform = reach(u, u->ret, MBNU) ? 2 : reach(u, u->ret, MBNU_WG) ? 1 : 0;
        for (uint32_t i = 0; i < np; i++) t->ret_param[i] = reach(u, u->ret, u->param[i]);
        for (uint32_t i = 0; i < np; i++) {
            t->ptr_nonuniform[i] = reach(u, u->ptr_out[i], MBNU) ? 2 : reach(u, u->ptr_out[i], MBNU_WG) ? 1 : 0;
            for (uint32_t j = 0; j < np; j++) t->ptr_param[i * np + j] = reach(u, u->ptr_out[i], u->param[j]);
        }
    }
    for (uint32_t v = 0; v < u->vars.n; v++) u->slot[u->vars.v[v]] = 0;
    u->vars.n = 0;
}

int sema_uniformity(wgsl_cc *cc, sema_module *sm) {
    un uu;
    un *u = &uu;
    memset(u, 0, sizeof *u);
    u->cc = cc;
    u->sm = sm;
    u->m = &cc->ast;
    u->tags = arena_alloc(&cc->arena, (sm->nfns + 1) * sizeof *u->tags);   /* by fn_of index; 0 = none */
    u->slot = arena_alloc(&cc->arena, sm->node_count * sizeof *u->slot);
    u->letv = arena_alloc(&cc->arena, sm->node_count * sizeof *u->letv);
    node(u, NK_PLAIN, 0);       /* node 0: none */
    node(u, NK_MBNU, 0);        /* node 1: MayBeNonUniform */
    node(u, NK_MBNU_WG, 0);     /* node 2: non-uniform only across subgroups (subgroup_id) */
    u->global_sub_sev = u->global_der_sev = WGSL_SEVERITY_ERROR;
    for (uint32_t i = 0; i < u->m->directives.count; i++) {
        int s = diag_sev(u, N(ast_item(u->m, u->m->directives, i)), "subgroup_uniformity");
        if (s >= 0) u->global_sub_sev = s;
        s = diag_sev(u, N(ast_item(u->m, u->m->directives, i)), "derivative_uniformity");
        if (s >= 0) u->global_der_sev = s;
    }
    for (uint32_t i = 0; i < sm->nfns && !u->reported; i++) analyse_fn(u, &sm->fns[i]);
    return u->reported ? 1 : 0;
}
