/* test_check.c - the checked module (sema.h) that the emitter consumes: expression types and
 * kinds, the load rule, materialized constants (no abstract type left in runtime code),
 * resolved identifiers and shadowing, function order (callees first), globals used, entry point
 * workgroup sizes (const and override), resources sorted by (group, binding), override ids,
 * statement behaviours, uniformity verdicts, and out-of-memory through the allocator hook while
 * checking (every allocation failing in turn, no crash, no leak). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wgc/wgsl.h"
#include "wgsl/cc.h"
#include "wgsl/sema.h"

typedef struct checked {
    wgsl_cc *cc;
    sema_module *sm;
    int rc;
} checked;

static checked run(const char *src) {
    checked r = { 0 };
    r.cc = calloc(1, sizeof *r.cc);
    r.cc->src = src;
    r.cc->src_len = (uint32_t)strlen(src);
    r.cc->filename = "t.wgsl";
    arena_init(&r.cc->arena, NULL);
    r.cc->arena.oom = &r.cc->oom;
    if (setjmp(r.cc->oom) == 0) {
        r.rc = wgsl_parse(r.cc);
        if (!r.rc) r.rc = wgsl_check(r.cc);
    } else {
        r.rc = -1;
    }
    r.sm = r.cc->sema;
    return r;
}

static void done(checked *r) {
    arena_free(&r->cc->arena);
    free(r->cc);
}

/* The first node of kind k whose source text starts with `text` (at its span start). */
static uint32_t find(const checked *r, ast_kind k, const char *text) {
    const ast_module *m = &r->cc->ast;
    size_t n = strlen(text);
    for (uint32_t h = 1; h < m->node_count; h++) {
        const ast_node *a = ast_get(m, h);
        if (a->kind == k && a->sp.len >= n && !strncmp(r->cc->src + a->sp.off, text, n)) return h;
    }
    return 0;
}

/* The first error message, or "". */
static const char *first_error(const checked *r) {
    for (uint32_t i = 0; i < r->cc->diags.n; i++)
        if (r->cc->diags.v[i].sev == WGSL_SEVERITY_ERROR) return r->cc->diags.v[i].msg;
    return "";
}

static void test_types_and_load_rule(void) {
    checked r = run("fn f() {\n"
                    "  var x: i32 = 1;\n"
                    "  let y = x + 2;\n"
                    "  let z: f32 = 1;\n"
                    "  let w = vec3(1.0, 2.0, 3.0).zy;\n"
                    "}\n");
    CHECK_EQ_INT(r.rc, 0);
    if (r.rc) { done(&r); return; }
    sema_module *sm = r.sm;
    uint32_t add = find(&r, AST_BINARY, "x + 2");
    CHECK(add != 0);
    const ast_node *b = ast_get(&r.cc->ast, add);
    const sema_expr *lx = sema_ex(sm, b->u.binary.lhs), *l2 = sema_ex(sm, b->u.binary.rhs);
    /* x is a reference loaded here; 2 was materialized to i32 with its value */
    CHECK_EQ_INT(lx->kind, SEMA_EK_REF);
    CHECK_EQ_INT(lx->load, 1);
    CHECK(ty_is_ref(&sm->tt, lx->type));
    CHECK_EQ_INT(sema_value_type(sm, b->u.binary.lhs), TY_I32);
    CHECK_EQ_INT(l2->type, TY_I32);
    CHECK(l2->cval != 0);
    if (l2->cval) CHECK_EQ_INT(sema_value(sm, l2->cval)->u.i, 2);
    CHECK_EQ_INT(sema_ex(sm, add)->type, TY_I32);
    CHECK_EQ_INT(sema_ex(sm, add)->stage, SEMA_STAGE_RUNTIME);
    /* the identifier resolves to the var declaration */
    uint32_t xdecl = find(&r, AST_VAR, "var x");
    CHECK_EQ_INT(lx->decl, xdecl);
    CHECK_EQ_INT(sema_dc(sm, xdecl)->type, TY_I32);
    CHECK_EQ_INT(sema_dc(sm, xdecl)->as, TY_AS_FUNCTION);
    /* let z: f32 = 1 -> the literal became an f32 constant */
    uint32_t zl = find(&r, AST_LET, "let z");
    const ast_node *zn = ast_get(&r.cc->ast, zl);
    CHECK_EQ_INT(sema_ex(sm, zn->u.var.init)->type, TY_F32);
    CHECK_EQ_INT(sema_value(sm, sema_ex(sm, zn->u.var.init)->cval)->type, TY_F32);
    /* a swizzle of a const vector is a constant vec2<f32> (concretized for the let) */
    uint32_t wl = find(&r, AST_LET, "let w");
    const ast_node *wn = ast_get(&r.cc->ast, wl);
    const sema_expr *we = sema_ex(sm, wn->u.var.init);
    CHECK_EQ_INT(we->type, ty_vec(&sm->tt, 2, TY_F32));
    CHECK(we->cval != 0);
    if (we->cval) CHECK(sema_value(sm, we->cval)->u.elems[0].u.f == 3.0);
    CHECK_EQ_INT(sema_dc(sm, wl)->type, ty_vec(&sm->tt, 2, TY_F32));
    done(&r);
}

static void test_shadowing_and_order(void) {
    checked r = run("fn main_helper() -> i32 { return g(); }\n"
                    "const K = 2;\n"
                    "fn g() -> i32 { let K = 5; { let K = 7u; } return K; }\n"
                    "@group(1) @binding(0) var<storage, read_write> b: array<u32>;\n"
                    "@group(0) @binding(3) var<uniform> u: vec4<f32>;\n"
                    "override N: u32 = 16u;\n"
                    "@id(0) override M: i32;\n"
                    "var<workgroup> tile: array<f32, 64>;\n"
                    "@compute @workgroup_size(8, N) fn main(@builtin(local_invocation_index) i: u32) {\n"
                    "  b[i] = u32(main_helper()) + u32(u.x);\n"
                    "  tile[i] = 1.0;\n"
                    "}\n");
    CHECK_EQ_INT(r.rc, 0);
    if (r.rc) { done(&r); return; }
    sema_module *sm = r.sm;
    /* functions: callees first */
    CHECK_EQ_INT(sm->nfns, 3);
    uint32_t g = find(&r, AST_FN, "fn g"), h = find(&r, AST_FN, "fn main_helper"), m = find(&r, AST_FN, "@compute");
    if (!m) m = find(&r, AST_FN, "fn main(");
    int pos_g = -1, pos_h = -1, pos_m = -1;
    for (uint32_t i = 0; i < sm->nfns; i++) {
        if (sm->fns[i].node == g) pos_g = (int)i;
        if (sm->fns[i].node == h) pos_h = (int)i;
        if (sm->fns[i].node == m) pos_m = (int)i;
    }
    CHECK(pos_g >= 0 && pos_h > pos_g && pos_m > pos_h);
    /* return K inside g is the local let (5), not the module const */
    uint32_t ret = find(&r, AST_RETURN, "return K");
    const sema_expr *ke = sema_ex(sm, ast_get(&r.cc->ast, ret)->u.ret.value);
    CHECK_EQ_INT(ast_get(&r.cc->ast, ke->decl)->kind, AST_LET);
    CHECK_EQ_INT(ke->type, TY_I32);
    /* entry point facts */
    const sema_fn *fm = sema_fn_of(sm, m);
    CHECK(fm != NULL);
    if (fm) {
        CHECK_EQ_INT(fm->stage, WGSL_STAGE_COMPUTE);
        CHECK_EQ_INT(fm->wg_size[0], 8);
        CHECK_EQ_INT(fm->wg_size[1], 0);          /* override-dependent */
        CHECK(fm->wg_expr[1] != 0);
        CHECK_EQ_INT(fm->wg_size[2], 1);
        CHECK_EQ_INT(fm->wg_type, TY_U32);
        CHECK_EQ_INT(fm->workgroup_bytes, 256);
        CHECK_EQ_INT(fm->nglobals, 3);            /* b, u, tile (N only sizes the workgroup) */
        CHECK(fm->builtin_mask & (1u << SEMA_BV_local_invocation_index));
        CHECK(fm->may_fall_through);
    }
    /* resources sorted by (group, binding) */
    CHECK_EQ_INT(sm->nresources, 2);
    if (sm->nresources == 2) {
        CHECK_EQ_INT(sema_dc(sm, sm->resources[0])->group, 0);
        CHECK_EQ_INT(sema_dc(sm, sm->resources[0])->binding, 3);
        CHECK_EQ_INT(sema_dc(sm, sm->resources[1])->group, 1);
        CHECK_EQ_INT(sema_dc(sm, sm->resources[1])->access, TY_ACCESS_READ_WRITE);
    }
    /* overrides: source order; M keeps @id(0), N gets the lowest free id (1) */
    CHECK_EQ_INT(sm->noverrides, 2);
    if (sm->noverrides == 2) {
        const sema_decl *n0 = sema_dc(sm, sm->overrides[0]), *n1 = sema_dc(sm, sm->overrides[1]);
        CHECK_EQ_INT(n0->type, TY_U32);
        CHECK_EQ_INT(n0->override_id, 1);
        CHECK(n0->cval != 0);
        CHECK_EQ_INT(n1->override_id, 0);
        CHECK_EQ_INT(n1->has_id, 1);
        CHECK_EQ_INT(n1->override_index, 1);
    }
    done(&r);
}

static void test_calls_and_behaviour(void) {
    checked r = run("fn f(c: bool) -> i32 {\n"
                    "  if c { return 1; } else { return 2; }\n"
                    "}\n"
                    "fn g() -> f32 { let m = max(1, 2.5); return clamp(m, 0.0, 1.0); }\n"
                    "fn h() -> vec2<u32> { return bitcast<vec2<u32>>(vec2<f32>(1.0)); }\n");
    CHECK_EQ_INT(r.rc, 0);
    if (r.rc) { done(&r); return; }
    sema_module *sm = r.sm;
    uint32_t iff = find(&r, AST_IF, "if c");
    CHECK_EQ_INT(sm->behav[iff], SEMA_B_RETURN);
    const sema_fn *ff = sema_fn_of(sm, find(&r, AST_FN, "fn f"));
    CHECK(ff && !ff->may_fall_through && ff->ret == TY_I32);
    uint32_t mx = find(&r, AST_CALL, "max(");
    const sema_expr *me = sema_ex(sm, mx);
    CHECK_EQ_INT(me->call, SEMA_CALL_BUILTIN);
    CHECK_EQ_INT(me->type, TY_F32);       /* materialized for the let */
    CHECK(me->cval != 0);
    uint32_t cl = find(&r, AST_CALL, "clamp(");
    CHECK_EQ_INT(sema_ex(sm, cl)->call, SEMA_CALL_BUILTIN);
    CHECK_EQ_INT(sema_ex(sm, cl)->stage, SEMA_STAGE_RUNTIME);
    uint32_t bc = find(&r, AST_CALL, "bitcast");
    CHECK_EQ_INT(sema_ex(sm, bc)->call, SEMA_CALL_BITCAST);
    CHECK_EQ_INT(sema_ex(sm, bc)->type, ty_vec(&sm->tt, 2, TY_U32));
    done(&r);
}

static void test_errors(void) {
    static const struct { const char *src, *msg; } cases[] = {
        { "fn f() -> i32 { }", "missing return at end of function" },
        { "fn f() { loop { } }", "loop does not exit" },
        { "const a = b;\nconst b = a;", "cyclic dependency found: 'a' -> 'b' -> 'a'" },
        { "fn f() { let x = 1; x = 2; }", "cannot assign to 'let x'" },
        { "fn f() { let x: u32 = -1; }", "value -1 cannot be represented as 'u32'" },
        { "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {\n"
          "  if (i == 0u) { workgroupBarrier(); }\n}", "'workgroupBarrier' must only be called from uniform control flow" },
        { "@group(0) @binding(0) var<storage> a: i32;\n@group(0) @binding(0) var<storage> b: i32;\n"
          "@compute @workgroup_size(1) fn main() { _ = a; _ = b; }",
          "entry point 'main' references multiple variables that use the same resource binding '@group(0)', '@binding(0)'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        checked r = run(cases[i].src);
        CHECKF(r.rc != 0, "case %zu accepted", i);
        CHECK_STR(first_error(&r), cases[i].msg);
        done(&r);
    }
}

/* Every allocation failing in turn while checking a real kernel: an "out of memory" error, never
 * a crash (run under ASan/valgrind by `make asan` / `make valgrind`). */
typedef struct failing { int countdown; int live; } failing;
static void *fail_alloc(void *u, size_t n) {
    failing *f = u;
    if (f->countdown-- == 0) return NULL;
    f->live++;
    return malloc(n);
}
static void fail_free(void *u, void *p) {
    failing *f = u;
    if (p) f->live--;
    free(p);
}

static void test_oom(void) {
    const char *src = "struct S { a: vec4<f32>, n: u32 }\n"
                      "@group(0) @binding(0) var<storage, read_write> s: array<S>;\n"
                      "var<workgroup> t: array<f32, 64>;\n"
                      "fn k(x: f32) -> f32 { var a = x; for (var i = 0; i < 4; i++) { a += sin(a); } return a; }\n"
                      "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {\n"
                      "  t[i] = k(s[i].a.x);\n  workgroupBarrier();\n  s[i].n = u32(t[63u - i]);\n}\n";
    int ok_seen = 0, oom_seen = 0;
    for (int n = 0; n < 400 && !ok_seen; n++) {
        failing f = { n, 0 };
        wgsl_options o = { .check_only = true };
        o.allocator.alloc = fail_alloc;
        o.allocator.free = fail_free;
        o.allocator.user = &f;
        wgsl_result *res = wgsl_compile(src, strlen(src), &o);
        if (res) {
            if (res->ok) ok_seen = 1;
            else oom_seen++;
            wgsl_result_free(res);
        }
        CHECKF(f.live == 0, "allocation %d: %d blocks leaked", n, f.live);
    }
    CHECK(ok_seen);
    CHECK(oom_seen > 0);
}

int main(void) {
    test_types_and_load_rule();
    test_shadowing_and_order();
    test_calls_and_behaviour();
    test_errors();
    test_oom();
    return test_end();
}
