/* resolve.c - name resolution and the module's dependency graph (the first half of wgsl_check).
 *
 * One walk over the AST binds every identifier that names a declaration: locals through a scope
 * stack (shadowing allowed across scopes, redeclaration in one scope is an error; function
 * parameters share the body's scope), then module-scope declarations (declared in any order).
 * Identifiers that resolve to nothing keep decl = 0: they are predeclared names (types, builtin
 * functions, enumerants) or errors the checker reports.  Context-dependent names (builtin value
 * names, diagnostic rules) are skipped; address spaces and access modes in `var<...>`/`ptr<...>`
 * are bound only when a declaration shadows them (then Tint reports a cycle or a misuse).
 *
 * References between module-scope declarations form the dependency graph.  A depth-first search
 * in source order finds cycles ("cyclic dependency found: 'a' -> 'b' -> 'a'", with a note per
 * edge, as Tint words it; a recursive function is such a cycle) and, as its post-order, the order
 * in which the checker visits declarations: every declaration after those it uses.  Both the
 * scope walk and the search use explicit stacks or bounded recursion (the parser bounds nesting).
 *
 * Scopes use one slot per interned name (`local_of[name]`), saved and restored on a stack, so a
 * lookup is O(1) however deep the scopes. */
#include <stdio.h>
#include <string.h>

#include "wgsl/cc.h"
#include "wgsl/sema.h"

typedef struct rs_edge {
    uint32_t to;                /* index into globals */
    uint32_t at;                /* referencing IDENT node */
} rs_edge;

typedef struct rs_saved {
    uint32_t name, prev_node, prev_depth;
} rs_saved;

typedef struct resolver {
    wgsl_cc *cc;
    sema_module *sm;
    const ast_module *m;
    uint32_t nnames;
    uint32_t *global_of;        /* name id -> global index + 1 */
    uint32_t *local_of;         /* name id -> local declaration node */
    uint32_t *local_depth;      /* name id -> scope depth of that declaration */
    ARR(rs_saved) saved;
    uint32_t depth;
    /* globals */
    uint32_t *globals;          /* module-scope declaration nodes, source order */
    uint32_t nglobals;
    uint32_t cur;               /* global being walked (index + 1) */
    ARR(rs_edge) edges;
    uint32_t *edge_start, *edge_count;
    int errors;
} resolver;

static uint32_t decl_name(const ast_node *n, uint32_t *off) {
    switch ((ast_kind)n->kind) {
    case AST_VAR: case AST_LET: case AST_CONST: case AST_OVERRIDE:
        *off = n->u.var.name_off; return n->u.var.name;
    case AST_ALIAS: *off = n->u.alias.name_off; return n->u.alias.name;
    case AST_STRUCT: *off = n->u.struct_.name_off; return n->u.struct_.name;
    case AST_FN: *off = n->u.fn.name_off; return n->u.fn.name;
    case AST_PARAM: case AST_MEMBER_DECL: *off = n->u.param.name_off; return n->u.param.name;
    default: *off = n->sp.off; return 0;
    }
}

/* "const", "function", ... as Tint names declarations in dependency notes. */
const char *sema_decl_kind_name(const ast_module *m, uint32_t node) {
    switch ((ast_kind)ast_get(m, node)->kind) {
    case AST_VAR: return "var";
    case AST_LET: return "let";
    case AST_CONST: return "const";
    case AST_OVERRIDE: return "override";
    case AST_ALIAS: return "alias";
    case AST_STRUCT: return "struct";
    case AST_FN: return "function";
    case AST_PARAM: return "parameter";
    default: return "declaration";
    }
}

span sema_decl_span(struct wgsl_cc *cc, uint32_t h, bool local) {
    const ast_module *m = &cc->ast;
    const ast_node *n = ast_get(m, h);
    uint32_t off;
    uint32_t name = decl_name(n, &off);
    if (n->kind == AST_PARAM || n->kind == AST_MEMBER_DECL || (local && (n->kind == AST_LET || n->kind == AST_CONST)))
        return span_make(off, arena_strlen(&cc->arena, name));
    uint32_t start = n->sp.off, end = n->sp.off + n->sp.len;
    if (n->attrs.count) {
        const ast_node *last = ast_get(m, ast_item(m, n->attrs, n->attrs.count - 1));
        uint32_t p = last->sp.off + last->sp.len;
        while (p < end && (cc->src[p] == ' ' || cc->src[p] == '\t' || cc->src[p] == '\n' || cc->src[p] == '\r')) p++;
        if (p > start && p < end) start = p;
    }
    return span_make(start, end - start);
}

static void scope_open(resolver *r) { r->depth++; ARR_PUSH(&r->cc->arena, r->saved, ((rs_saved){ 0, 0, 0 })); }

static void scope_close(resolver *r) {
    while (r->saved.n) {
        rs_saved s = r->saved.v[--r->saved.n];
        if (!s.name) break;     /* the scope's marker */
        r->local_of[s.name] = s.prev_node;
        r->local_depth[s.name] = s.prev_depth;
    }
    r->depth--;
}

static void declare_local(resolver *r, uint32_t node) {
    uint32_t off, name = decl_name(ast_get(r->m, node), &off);
    if (!name || name >= r->nnames) return;
    uint32_t prev = r->local_of[name];
    if (prev && r->local_depth[name] == r->depth) {
        span sp = sema_decl_span(r->cc, node, true);
        span psp = sema_decl_span(r->cc, prev, true);
        diag_error(r->cc, sp, "redeclaration of '%s'", cc_str(r->cc, name));
        diag_note(r->cc, psp, "'%s' previously declared here", cc_str(r->cc, name));
        r->errors++;
    }
    ARR_PUSH(&r->cc->arena, r->saved, ((rs_saved){ name, prev, r->local_depth[name] }));
    r->local_of[name] = node;
    r->local_depth[name] = r->depth;
}

static void add_edge(resolver *r, uint32_t to, uint32_t at) {
    if (!r->cur) return;
    uint32_t from = r->cur - 1;
    for (uint32_t i = r->edge_start[from]; i < r->edges.n; i++)
        if (r->edges.v[i].to == to) return;
    ARR_PUSH(&r->cc->arena, r->edges, ((rs_edge){ to, at }));
    r->edge_count[from]++;
}

static void walk(resolver *r, uint32_t h);

static void walk_list(resolver *r, ast_list l) {
    for (uint32_t i = 0; i < l.count; i++) walk(r, ast_item(r->m, l, i));
}

static bool attr_has_exprs(ast_attr a) {
    switch (a) {
    case AST_ATTR_builtin: case AST_ATTR_diagnostic: case AST_ATTR_interpolate: return false;
    default: return true;
    }
}

static void walk_attrs(resolver *r, ast_list attrs) {
    for (uint32_t i = 0; i < attrs.count; i++) {
        const ast_node *a = ast_get(r->m, ast_item(r->m, attrs, i));
        if (a->kind == AST_ATTR && attr_has_exprs((ast_attr)a->op)) walk_list(r, a->u.attr.args);
    }
}

static void walk_ident(resolver *r, uint32_t h) {
    const ast_node *n = ast_get(r->m, h);
    uint32_t name = n->u.ident.name;
    uint32_t d = 0;
    if (name && name < r->nnames) {
        if (r->local_of[name]) d = r->local_of[name];
        else if (r->global_of[name]) {
            d = r->globals[r->global_of[name] - 1];
            add_edge(r, r->global_of[name] - 1, h);
        }
    }
    r->sm->ex[h].decl = d;
    /* template arguments; enumerants (address spaces, access modes) stay unbound unless a
       declaration shadows them, as in Tint */
    for (uint32_t i = 0; i < n->u.ident.templ.count; i++) walk(r, ast_item(r->m, n->u.ident.templ, i));
}

/* Walks a block's statements in the current scope (the caller opened it). */
static void walk_stmts(resolver *r, uint32_t block) {
    if (!block) return;
    const ast_node *b = ast_get(r->m, block);
    if (b->kind != AST_BLOCK) { walk(r, block); return; }
    walk_list(r, b->u.block.stmts);
}

static void walk_block(resolver *r, uint32_t block) {
    scope_open(r);
    walk_stmts(r, block);
    scope_close(r);
}

static void walk(resolver *r, uint32_t h) {
    if (!h) return;
    const ast_node *n = ast_get(r->m, h);
    switch ((ast_kind)n->kind) {
    case AST_IDENT: walk_ident(r, h); break;
    case AST_CALL: walk(r, n->u.call.callee); walk_list(r, n->u.call.args); break;
    case AST_INDEX: walk(r, n->u.index.base); walk(r, n->u.index.index); break;
    case AST_MEMBER: walk(r, n->u.member.base); break;
    case AST_UNARY: walk(r, n->u.unary.operand); break;
    case AST_BINARY: walk(r, n->u.binary.lhs); walk(r, n->u.binary.rhs); break;
    case AST_BLOCK: walk_block(r, h); break;
    case AST_RETURN: case AST_BREAK_IF: case AST_CONST_ASSERT: walk(r, n->u.ret.value); break;
    case AST_IF:
        walk(r, n->u.if_.cond);
        walk_block(r, n->u.if_.then);
        walk(r, n->u.if_.else_);
        break;
    case AST_SWITCH:
        walk(r, n->u.switch_.expr);
        walk_list(r, n->u.switch_.clauses);
        break;
    case AST_CASE:
        walk_list(r, n->u.case_.selectors);
        walk_block(r, n->u.case_.body);
        break;
    case AST_LOOP:
        scope_open(r);
        walk_stmts(r, n->u.loop.body);
        if (n->u.loop.continuing) walk_block(r, n->u.loop.continuing);
        scope_close(r);
        break;
    case AST_FOR:
        scope_open(r);
        walk(r, n->u.for_.init);
        walk(r, n->u.for_.cond);
        walk(r, n->u.for_.update);
        walk_block(r, n->u.for_.body);
        scope_close(r);
        break;
    case AST_WHILE: walk(r, n->u.while_.cond); walk_block(r, n->u.while_.body); break;
    case AST_CALL_STMT: walk(r, n->u.call_stmt.call); break;
    case AST_ASSIGN: case AST_INCR: case AST_DECR:
        walk(r, n->u.assign.lhs);
        walk(r, n->u.assign.rhs);
        break;
    case AST_VAR: case AST_LET: case AST_CONST: case AST_OVERRIDE:
        walk_attrs(r, n->attrs);
        walk_list(r, n->u.var.templ);
        walk(r, n->u.var.type);
        walk(r, n->u.var.init);
        if (r->depth) declare_local(r, h);
        break;
    case AST_ALIAS: walk(r, n->u.alias.type); break;
    case AST_STRUCT:
        for (uint32_t i = 0; i < n->u.struct_.members.count; i++) {
            const ast_node *mem = ast_get(r->m, ast_item(r->m, n->u.struct_.members, i));
            walk_attrs(r, mem->attrs);
            walk(r, mem->u.param.type);
        }
        break;
    case AST_FN:
        walk_attrs(r, n->attrs);
        scope_open(r);
        /* parameter and return types see the module scope only (Tint) */
        for (uint32_t i = 0; i < n->u.fn.params.count; i++) {
            uint32_t p = ast_item(r->m, n->u.fn.params, i);
            walk_attrs(r, ast_get(r->m, p)->attrs);
            walk(r, ast_get(r->m, p)->u.param.type);
        }
        walk_attrs(r, n->u.fn.ret_attrs);
        walk(r, n->u.fn.ret_type);
        for (uint32_t i = 0; i < n->u.fn.params.count; i++) declare_local(r, ast_item(r->m, n->u.fn.params, i));
        walk_stmts(r, n->u.fn.body);
        scope_close(r);
        break;
    default: break;             /* literals, break, continue, discard, directives */
    }
}

/* Reports the cycle path[k..n) + path[k] (global indices; via[i] = the edge taken from path[i]). */
static void report_cycle(resolver *r, const uint32_t *path, const uint32_t *via, uint32_t k, uint32_t n) {
    wgsl_cc *cc = r->cc;
    uint32_t first = r->globals[path[k]];
    size_t cap = 64;
    for (uint32_t i = k; i < n; i++) {
        uint32_t off;
        cap += arena_strlen(&cc->arena, decl_name(ast_get(r->m, r->globals[path[i]]), &off)) + 8;
    }
    char *buf = arena_alloc(&cc->arena, cap), *p = buf;
    for (uint32_t i = k; i <= n; i++) {
        uint32_t off, g = r->globals[path[i < n ? i : k]];
        p += sprintf(p, "%s'%s'", i > k ? " -> " : "", cc_str(cc, decl_name(ast_get(r->m, g), &off)));
    }
    diag_error(cc, sema_decl_span(cc, first, false), "cyclic dependency found: %s", buf);
    for (uint32_t i = k; i < n; i++) {
        uint32_t off, from = r->globals[path[i]], to = r->globals[path[i + 1 < n ? i + 1 : k]];
        const rs_edge *e = &r->edges.v[via[i]];
        diag_note(cc, ast_get(r->m, e->at)->sp, "%s '%s' references %s '%s' here",
                  sema_decl_kind_name(r->m, from), cc_str(cc, decl_name(ast_get(r->m, from), &off)),
                  sema_decl_kind_name(r->m, to), cc_str(cc, decl_name(ast_get(r->m, to), &off)));
    }
    r->errors++;
}

/* Iterative DFS in source order: post-order into sm->decl_order; stops at the first cycle. */
static void order_globals(resolver *r, const uint32_t *all, uint32_t nall) {
    sema_module *sm = r->sm;
    uint32_t ng = r->nglobals;
    uint8_t *state = arena_alloc(&r->cc->arena, ng + 1);  /* 0 new, 1 on stack, 2 done */
    uint32_t *path = arena_alloc(&r->cc->arena, (ng + 1) * sizeof *path);
    uint32_t *next = arena_alloc(&r->cc->arena, (ng + 1) * sizeof *next);  /* next edge to try */
    uint32_t *via = arena_alloc(&r->cc->arena, (ng + 1) * sizeof *via);
    uint32_t *gidx = arena_alloc(&r->cc->arena, (r->m->node_count + 1) * sizeof *gidx);
    for (uint32_t i = 0; i < ng; i++) gidx[r->globals[i]] = i + 1;
    sm->decl_order = arena_alloc(&r->cc->arena, (nall + 1) * sizeof *sm->decl_order);
    sm->ndecl_order = 0;
    for (uint32_t d = 0; d < nall; d++) {
        uint32_t g0 = gidx[all[d]];
        if (!g0 || state[g0 - 1]) continue;
        uint32_t n = 0;
        path[n] = g0 - 1; next[n] = 0; state[g0 - 1] = 1; n++;
        while (n) {
            uint32_t g = path[n - 1];
            if (next[n - 1] < r->edge_count[g]) {
                uint32_t ei = r->edge_start[g] + next[n - 1]++;
                uint32_t to = r->edges.v[ei].to;
                via[n - 1] = ei;
                if (state[to] == 1) {
                    uint32_t k = 0;
                    while (path[k] != to) k++;
                    report_cycle(r, path, via, k, n);
                    return;
                }
                if (state[to] == 0) {
                    state[to] = 1;
                    path[n] = to; next[n] = 0; n++;
                }
            } else {
                state[g] = 2;
                sm->decl_order[sm->ndecl_order++] = r->globals[g];
                n--;
            }
        }
    }
}

int sema_resolve(wgsl_cc *cc, sema_module *sm) {
    const ast_module *m = &cc->ast;
    resolver r;
    memset(&r, 0, sizeof r);
    r.cc = cc;
    r.sm = sm;
    r.m = m;
    r.nnames = cc->arena.nstrs + 1;
    r.global_of = arena_alloc(&cc->arena, r.nnames * sizeof *r.global_of);
    r.local_of = arena_alloc(&cc->arena, r.nnames * sizeof *r.local_of);
    r.local_depth = arena_alloc(&cc->arena, r.nnames * sizeof *r.local_depth);
    uint32_t nall = m->decls.count;
    const uint32_t *all = ast_items(m, m->decls);
    r.globals = arena_alloc(&cc->arena, (nall + 1) * sizeof *r.globals);
    r.nglobals = nall;
    /* 1. collect module-scope names; redeclarations are errors */
    for (uint32_t i = 0; i < nall; i++) {
        const ast_node *n = ast_get(m, all[i]);
        uint32_t off, name = decl_name(n, &off);
        r.globals[i] = all[i];
        if (!name || name >= r.nnames) continue;
        if (r.global_of[name]) {
            uint32_t prev = r.globals[r.global_of[name] - 1];
            diag_error(cc, sema_decl_span(cc, all[i], false), "redeclaration of '%s'", cc_str(cc, name));
            diag_note(cc, sema_decl_span(cc, prev, false), "'%s' previously declared here", cc_str(cc, name));
            r.errors++;
            continue;
        }
        r.global_of[name] = i + 1;
    }
    if (r.errors) return 1;
    /* 2. walk every declaration, binding identifiers and recording edges */
    r.edge_start = arena_alloc(&cc->arena, (nall + 1) * sizeof *r.edge_start);
    r.edge_count = arena_alloc(&cc->arena, (nall + 1) * sizeof *r.edge_count);
    for (uint32_t i = 0; i < nall; i++) {
        r.cur = i + 1;
        r.edge_start[i] = r.edges.n;
        walk(&r, all[i]);
    }
    if (r.errors) return 1;
    /* 3. cycles and the checking order */
    order_globals(&r, all, nall);
    return r.errors ? 1 : 0;
}
