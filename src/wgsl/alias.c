/* alias.c - the checker's alias analysis (spec "Alias Analysis"; see check.c for the phase as a
 * whole): a call may not pass two pointers to the same variable, or a pointer to a module-scope
 * variable that the callee also uses, when one of the two accesses is a write.
 *
 * Design.  Each memory access is charged to its root identifier: the variable or pointer parameter
 * that the reference expression starts from, found by walking down through `&`, `*`, member and
 * index nodes (a `let` of pointer type stands for its initializer's root, kept in sema_decl.root).
 * The analysis runs only when the module spells `ptr` somewhere (without pointer types there are
 * no pointer parameters, hence nothing to check): `c->acc_slot` is then allocated, else every
 * function here returns at once.  While a function body is checked, `c->accs` collects what it
 * reads and writes of module-scope variables and of the memory of its pointer parameters
 * (function-scope variables are never charged: no callee can see them except through a
 * parameter, nor are module-scope variables whose address is never taken, found by one pass over
 * the AST before checking: only those can reach a callee as pointers); `c->acc_slot` maps a root
 * node to its entry.  Reads are the loads of the load rule,
 * atomicLoad, workgroupUniformLoad and the read-modify-write atomics; writes are assignments (also
 * compound ones), increments, atomicStore and the read-modify-write atomics.  At the end of the
 * body the entries become the function's summary (sema_fn.accs, in order of first access).
 * Functions are checked callees first, so at a call the callee's summary is complete: each pointer
 * argument is checked against the earlier arguments and against the callee's module-scope
 * accesses, then the caller takes over what the callee does to its module-scope variables and,
 * through the arguments, to the caller's own roots.  Lookups go through marks by root node (the
 * earlier arguments in `c->arg_w` / `c->arg_r`, the callee's summary in `c->callee_slot`, set and
 * cleared around each call with pointer parameters), so the work is linear in the size of the
 * program: each call costs its arguments plus the callee's summary, as the call graph's global
 * lists (sema_fn.globals) already do.
 *
 * Messages and their order are Tint's: the error is at the later of the two arguments (or at the
 * argument, for a module-scope variable), a write parameter is checked against earlier writes,
 * then earlier reads, then the callee's module-scope reads, then its writes; a read parameter
 * against earlier writes and the callee's module-scope writes. */
#include <string.h>

#include "wgsl/check.h"

/* The root identifier of a reference or pointer expression: a VAR node (any scope) or a PARAM node
 * of pointer type; 0 when there is none. */
uint32_t chk_root_ident(const checker *c, uint32_t h) {
    while (h) {
        const ast_node *n = N(h);
        switch ((ast_kind)n->kind) {
        case AST_IDENT: {
            uint32_t d = c->sm->ex[h].decl;
            if (!d) return 0;
            switch ((ast_kind)N(d)->kind) {
            case AST_VAR: return d;
            case AST_PARAM: return ty_is_ptr(c->tt, c->sm->dc[d].type) ? d : 0;
            case AST_LET: return c->sm->dc[d].root;
            default: return 0;
            }
        }
        case AST_INDEX: h = n->u.index.base; break;
        case AST_MEMBER: h = n->u.member.base; break;
        case AST_UNARY:
            if (n->op != AST_OP_DEREF && n->op != AST_OP_ADDR) return 0;
            h = n->u.unary.operand;
            break;
        default: return 0;
        }
    }
    return 0;
}

/* A root whose accesses a function's summary keeps: a parameter, or a module-scope variable whose
 * address is taken somewhere (only those can be pointer arguments). */
static bool tracked(const checker *c, uint32_t root) {
    return root && (N(root)->kind == AST_PARAM ||
                    (c->sm->dc[root].scope == SEMA_SCOPE_MODULE && c->sm->dc[root].addressed));
}

void chk_alias_prepare(checker *c) {
    if (!c->acc_slot) return;
    for (uint32_t h = 1; h < c->sm->node_count; h++) {
        const ast_node *n = N(h);
        if (n->kind != AST_UNARY || n->op != AST_OP_ADDR) continue;
        uint32_t x = n->u.unary.operand;
        while (x && (N(x)->kind == AST_MEMBER || N(x)->kind == AST_INDEX))
            x = N(x)->kind == AST_MEMBER ? N(x)->u.member.base : N(x)->u.index.base;
        uint32_t d = x && N(x)->kind == AST_IDENT ? c->sm->ex[x].decl : 0;
        if (d && N(d)->kind == AST_VAR) c->sm->dc[d].addressed = 1;
    }
}

static void charge(checker *c, uint32_t root, uint32_t bits, uint32_t read_at, uint32_t write_at) {
    uint32_t i = c->acc_slot[root];
    if (!i) {
        sema_access a = { root, 0, 0, 0 };
        ARR_PUSH(&c->cc->arena, c->accs, a);
        i = c->acc_slot[root] = c->accs.n;
    }
    sema_access *a = &c->accs.v[i - 1];
    a->bits |= bits;
    if ((bits & SEMA_ACC_READ) && !a->read_at) a->read_at = read_at;
    if ((bits & SEMA_ACC_WRITE) && !a->write_at) a->write_at = write_at;
}

void chk_access(checker *c, uint32_t h, uint32_t bits) {
    if (!c->fn || !c->acc_slot) return;
    uint32_t r = chk_root_ident(c, h);
    if (tracked(c, r)) charge(c, r, bits, h, h);
}

void chk_alias_begin(checker *c) {
    if (!c->acc_slot) return;
    for (uint32_t i = 0; i < c->accs.n; i++) c->acc_slot[c->accs.v[i].root] = 0;
    c->accs.n = 0;
}

void chk_alias_end(checker *c, sema_fn *fi) {
    fi->naccs = c->accs.n;
    if (!c->accs.n) return;
    fi->accs = arena_dup(&c->cc->arena, c->accs.v, c->accs.n * sizeof *fi->accs);
}

/* The callee's entry for `root` (through the marks chk_alias_call sets), or NULL. */
static const sema_access *find_access(const checker *c, const sema_fn *fi, uint32_t root) {
    uint32_t i = c->callee_slot[root];
    return i ? &fi->accs[i - 1] : NULL;
}

/* The name of the function whose body holds expression node h (for messages). */
static const char *fn_name_at(const checker *c, uint32_t h) {
    uint32_t off = N(h)->sp.off;
    for (uint32_t i = 0; i < c->sm->nfns; i++) {
        const ast_node *f = N(c->sm->fns[i].node);
        if (off >= f->sp.off && off < f->sp.off + f->sp.len) return str(c, f->u.fn.name);
    }
    return "";
}

static bool module_alias(checker *c, uint32_t arg, const sema_access *a, bool read) {
    ERR(nsp(c, arg), "invalid aliased pointer argument");
    uint32_t at = read ? a->read_at : a->write_at;
    NOTE(nsp(c, at), "aliases with module-scope variable %s in '%s'", read ? "read" : "write", fn_name_at(c, at));
    return false;
}

/* The pointer arguments of a call to fi (which has pointer parameters) against each other and
 * against fi's module-scope accesses; each accessed one is charged to the caller.  False after an
 * error. */
static bool check_args(checker *c, uint32_t call, uint32_t fn, const sema_fn *fi) {
    const ast_list args = N(call)->u.call.args, params = N(fn)->u.fn.params;
    if (!c->arg_w) {
        c->arg_w = arena_alloc(&c->cc->arena, 3 * (size_t)c->sm->node_count * sizeof *c->arg_w);
        c->arg_r = c->arg_w + c->sm->node_count;
        c->callee_slot = c->arg_r + c->sm->node_count;
    }
    for (uint32_t k = 0; k < fi->naccs; k++) c->callee_slot[fi->accs[k].root] = k + 1;
    bool ok = true;
    uint32_t i = 0;
    for (; i < args.count && i < params.count && ok; i++) {
        uint32_t p = ast_item(c->m, params, i);
        if (!ty_is_ptr(c->tt, c->sm->dc[p].type)) continue;
        const sema_access *pa = find_access(c, fi, p);
        uint32_t ah = ast_item(c->m, args, i), r = pa ? chk_root_ident(c, ah) : 0;
        if (!r) continue;
        bool write = pa->bits & SEMA_ACC_WRITE;
        uint32_t other = c->arg_w[r] ? c->arg_w[r] : write ? c->arg_r[r] : 0;
        const sema_access *ga = !other && N(r)->kind == AST_VAR && c->sm->dc[r].scope == SEMA_SCOPE_MODULE ? find_access(c, fi, r) : NULL;
        if (other) {
            ERR(nsp(c, ah), "invalid aliased pointer argument");
            NOTE(nsp(c, other), "aliases with another argument passed here");
            ok = false;
        } else if (ga && write && (ga->bits & SEMA_ACC_READ)) {
            ok = module_alias(c, ah, ga, true);
        } else if (ga && (ga->bits & SEMA_ACC_WRITE)) {
            ok = module_alias(c, ah, ga, false);
        } else {
            uint32_t *seen = write ? &c->arg_w[r] : &c->arg_r[r];
            if (!*seen) *seen = ah;
            if (tracked(c, r)) charge(c, r, write ? SEMA_ACC_WRITE : SEMA_ACC_READ, ah, ah);
        }
    }
    while (i--) {   /* reset the marks */
        uint32_t r = i < args.count ? chk_root_ident(c, ast_item(c->m, args, i)) : 0;
        if (r) c->arg_w[r] = c->arg_r[r] = 0;
    }
    for (uint32_t k = 0; k < fi->naccs; k++) c->callee_slot[fi->accs[k].root] = 0;
    return ok;
}

bool chk_alias_call(checker *c, uint32_t call, uint32_t fn) {
    const sema_fn *fi = sema_fn_of(c->sm, fn);
    if (!fi || !c->fn || !c->acc_slot) return true;
    const ast_list params = N(fn)->u.fn.params;
    bool any_ptr = false;
    for (uint32_t i = 0; i < params.count && !any_ptr; i++)
        any_ptr = ty_is_ptr(c->tt, c->sm->dc[ast_item(c->m, params, i)].type);
    if (any_ptr && !check_args(c, call, fn, fi)) return false;
    /* the callee's module-scope accesses are the caller's too */
    for (uint32_t k = 0; k < fi->naccs; k++) {
        const sema_access *a = &fi->accs[k];
        if (N(a->root)->kind == AST_VAR) charge(c, a->root, a->bits, a->read_at, a->write_at);
    }
    return true;
}
