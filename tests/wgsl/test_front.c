/* test_front.c - the compiler front end: lexer tokens and literal values, template-list
 * discovery, AST shapes and precedence, nesting limits on 10^6-deep inputs, the public API
 * (diagnostic line/col in code points, text and JSON rendering, notes, max_errors) and
 * out-of-memory handling through the allocator hook (every allocation failing in turn). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wgc/wgsl.h"
#include "wgsl/cc.h"
#include "wgsl/lex.h"

/* ---- lexer ---- */

static wgsl_cc *cc_new(const char *src) {
    wgsl_cc *cc = calloc(1, sizeof *cc);
    cc->src = src;
    cc->src_len = (uint32_t)strlen(src);
    cc->filename = "t.wgsl";
    arena_init(&cc->arena, NULL);
    return cc;
}

static void cc_del(wgsl_cc *cc) {
    arena_free(&cc->arena);
    free(cc);
}

/* Lexes src and compares the kinds with `want` (terminated by TOK_EOF). */
static int kinds_are(const char *src, const tok_kind *want) {
    wgsl_cc *cc = cc_new(src);
    token_list tl = { 0 };
    lex_source(cc, &tl);
    int ok = 1;
    uint32_t i = 0;
    for (; want[i] != TOK_EOF; i++)
        if (i >= tl.n || tl.v[i].kind != want[i]) {
            fprintf(stderr, "  '%s': token %u is %s, want %s\n", src, i,
                    i < tl.n ? lex_tok_name((tok_kind)tl.v[i].kind) : "(none)", lex_tok_name(want[i]));
            ok = 0;
            break;
        }
    if (ok && (i >= tl.n || tl.v[i].kind != TOK_EOF)) { fprintf(stderr, "  '%s': extra tokens\n", src); ok = 0; }
    cc_del(cc);
    return ok;
}

static token lex1(const char *src) {
    wgsl_cc *cc = cc_new(src);
    token_list tl = { 0 };
    lex_source(cc, &tl);
    token t = tl.v[0];
    static char msg[256];
    if (t.kind == TOK_ERROR) {
        snprintf(msg, sizeof msg, "%s", t.msg);
        t.msg = msg;
    }
    cc_del(cc);
    return t;
}

static void test_templates(void) {
    {
        const tok_kind w[] = { TOK_KW_var, TOK_TEMPLATE_START, TOK_IDENT, TOK_COMMA, TOK_IDENT, TOK_TEMPLATE_END,
                               TOK_IDENT, TOK_COLON, TOK_IDENT, TOK_TEMPLATE_START, TOK_IDENT, TOK_TEMPLATE_START,
                               TOK_IDENT, TOK_TEMPLATE_END, TOK_TEMPLATE_END, TOK_SEMICOLON, TOK_EOF };
        CHECK(kinds_are("var<storage, read_write> x: array<vec3<f32>>;", w));
    }
    {
        const tok_kind w[] = { TOK_IDENT, TOK_LT, TOK_IDENT, TOK_OR_OR, TOK_IDENT, TOK_GT, TOK_IDENT, TOK_EOF };
        CHECK(kinds_are("a < b || c > d", w));
    }
    {
        const tok_kind w[] = { TOK_IDENT, TOK_TEMPLATE_START, TOK_IDENT, TOK_TEMPLATE_END, TOK_EQUAL, TOK_IDENT, TOK_EOF };
        CHECK(kinds_are("a<b>=c", w));
    }
    {
        const tok_kind w[] = { TOK_IDENT, TOK_LE, TOK_IDENT, TOK_GT, TOK_IDENT, TOK_EOF };
        CHECK(kinds_are("a<=b>c", w));
    }
    {
        const tok_kind w[] = { TOK_IDENT, TOK_SHL, TOK_IDENT, TOK_SHR, TOK_IDENT, TOK_SHR_EQ, TOK_IDENT, TOK_EOF };
        CHECK(kinds_are("a<<b>>c>>=d", w));
    }
    {   /* `(a<b, c>d)` in parentheses: the comma does not end the candidate, `>` closes it */
        const tok_kind w[] = { TOK_IDENT, TOK_LPAREN, TOK_IDENT, TOK_TEMPLATE_START, TOK_IDENT, TOK_COMMA, TOK_IDENT,
                               TOK_TEMPLATE_END, TOK_IDENT, TOK_RPAREN, TOK_EOF };
        CHECK(kinds_are("f(a<b, c>d)", w));
    }
    {   /* `[` resets: `a[b<c]>d` has no template */
        const tok_kind w[] = { TOK_IDENT, TOK_LBRACKET, TOK_IDENT, TOK_LT, TOK_IDENT, TOK_RBRACKET, TOK_GT,
                               TOK_IDENT, TOK_EOF };
        CHECK(kinds_are("a[b<c]>d", w));
    }
    {   /* nested: array<array<f32, 2>, 3> */
        const tok_kind w[] = { TOK_IDENT, TOK_TEMPLATE_START, TOK_IDENT, TOK_TEMPLATE_START, TOK_IDENT, TOK_COMMA,
                               TOK_INT_LIT, TOK_TEMPLATE_END, TOK_COMMA, TOK_INT_LIT, TOK_TEMPLATE_END, TOK_EOF };
        CHECK(kinds_are("array<array<f32, 2>, 3>", w));
    }
    {   /* blankspace, comments and the spec's line breaks between tokens */
        const tok_kind w[] = { TOK_KW_const, TOK_IDENT, TOK_EQUAL, TOK_INT_LIT, TOK_SEMICOLON, TOK_EOF };
        CHECK(kinds_are("/* a /* nested */ b */ const\xc2\x85x\xe2\x80\xa8=\xe2\x80\x8e 1 // c\n;", w));
    }
    {
        const tok_kind w[] = { TOK_PLUS_PLUS, TOK_MINUS_MINUS, TOK_ARROW, TOK_AND_AND, TOK_OR_OR, TOK_UNDERSCORE,
                               TOK_ATTR, TOK_PERCENT_EQ, TOK_XOR_EQ, TOK_EOF };
        CHECK(kinds_are("++ -- -> && || _ @ %= ^=", w));
    }
}

static void test_literals(void) {
    token t = lex1("0x1p4");
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == 16.0 && t.suffix == AST_SUFFIX_NONE);
    t = lex1("1.5e3f");
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == 1500.0 && t.suffix == AST_SUFFIX_F);
    t = lex1("0x7FFFFFFFFFFFFFFF");
    CHECK(t.kind == TOK_INT_LIT && t.val.i == (uint64_t)INT64_MAX);
    t = lex1("4294967295u");
    CHECK(t.kind == TOK_INT_LIT && t.val.i == 4294967295u && t.suffix == AST_SUFFIX_U);
    t = lex1("2147483647i");
    CHECK(t.kind == TOK_INT_LIT && t.val.i == 2147483647u && t.suffix == AST_SUFFIX_I);
    t = lex1("65504.0h");
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == 65504.0 && t.suffix == AST_SUFFIX_H);
    t = lex1("0.1h"); /* rounded to the nearest f16: 0.0999755859375 */
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == 0.0999755859375);
    t = lex1("0.1f");
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == (double)0.1f);
    t = lex1(".5");
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == 0.5);
    t = lex1("1.");
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == 1.0);
    t = lex1("1e-400");
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == 0.0);
    t = lex1("0x1.8p1");
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == 3.0);
    t = lex1("0X.8");
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == 0.5);
    t = lex1("1h");
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == 1.0 && t.suffix == AST_SUFFIX_H);
    t = lex1("0");
    CHECK(t.kind == TOK_INT_LIT && t.val.i == 0);
    t = lex1("0x1p-24h"); /* smallest f16 subnormal */
    CHECK(t.kind == TOK_FLOAT_LIT && t.val.f == ldexp(1.0, -24));
    /* errors */
    t = lex1("9223372036854775808");
    CHECK(t.kind == TOK_ERROR && t.msg && strstr(t.msg, "abstract-int"));
    t = lex1("2147483648i");
    CHECK(t.kind == TOK_ERROR && strstr(t.msg, "'i32'"));
    t = lex1("1e39f");
    CHECK(t.kind == TOK_ERROR && strstr(t.msg, "'f32'"));
    t = lex1("65520.0h");
    CHECK(t.kind == TOK_ERROR && strstr(t.msg, "'f16'"));
    t = lex1("0x1.000001p0f");
    CHECK(t.kind == TOK_ERROR && strstr(t.msg, "exactly"));
    t = lex1("0123");
    CHECK(t.kind == TOK_ERROR && strstr(t.msg, "leading 0s"));
    t = lex1("__x");
    CHECK(t.kind == TOK_ERROR && strstr(t.msg, "underscores"));
    t = lex1("asm");
    CHECK(t.kind == TOK_IDENT && t.reserved == 1);
    t = lex1("loop");
    CHECK(t.kind == TOK_KW_loop);
    CHECK(lex_is_xid_start(0xE9) && lex_is_xid_start(0x65E5) && !lex_is_xid_start(0x301) && lex_is_xid_continue(0x301));
    CHECK(!lex_is_xid_start('_') && lex_is_xid_continue('_') && !lex_is_xid_start('1') && lex_is_xid_continue('1'));
    uint32_t cp;
    CHECK(lex_utf8_decode("\xe6\x97\xa5", 3, &cp) == 3 && cp == 0x65E5);
    CHECK(lex_utf8_decode("\xc0\x80", 2, &cp) == 1 && cp == 0xFFFD); /* overlong */
    CHECK(lex_utf8_decode("\xed\xa0\x80", 3, &cp) == 1 && cp == 0xFFFD); /* surrogate */
}

/* ---- parser ---- */

typedef struct parsed {
    wgsl_cc *cc;
    int rc;
} parsed;

static parsed parse_src(const char *src) {
    parsed r;
    r.cc = cc_new(src);
    r.cc->arena.oom = &r.cc->oom;
    if (setjmp(r.cc->oom) == 0) r.rc = wgsl_parse(r.cc);
    else r.rc = -1;
    return r;
}

static ast_node *nd(parsed *p, uint32_t h) { return ast_get(&p->cc->ast, h); }

static void test_ast(void) {
    parsed p = parse_src("fn f(a: i32) -> i32 { return -a + 2 * 3; }");
    CHECK_EQ_INT(p.rc, 0);
    CHECK_EQ_INT(p.cc->ast.decls.count, 1);
    ast_node *fn = nd(&p, ast_item(&p.cc->ast, p.cc->ast.decls, 0));
    CHECK(fn->kind == AST_FN);
    CHECK_STR(cc_str(p.cc, fn->u.fn.name), "f");
    CHECK_EQ_INT(fn->u.fn.params.count, 1);
    ast_node *body = nd(&p, fn->u.fn.body);
    CHECK(body->kind == AST_BLOCK && body->u.block.stmts.count == 1);
    ast_node *ret = nd(&p, ast_item(&p.cc->ast, body->u.block.stmts, 0));
    CHECK(ret->kind == AST_RETURN);
    ast_node *add = nd(&p, ret->u.ret.value);
    CHECK(add->kind == AST_BINARY && add->op == AST_OP_ADD);
    CHECK(nd(&p, add->u.binary.lhs)->kind == AST_UNARY && nd(&p, add->u.binary.lhs)->op == AST_OP_NEG);
    CHECK(nd(&p, add->u.binary.rhs)->kind == AST_BINARY && nd(&p, add->u.binary.rhs)->op == AST_OP_MUL);
    /* spans: the return statement covers "return -a + 2 * 3;" */
    CHECK_EQ_INT(ret->sp.off, 22);
    CHECK_EQ_INT(ret->sp.len, 18);
    cc_del(p.cc);

    p = parse_src("var<storage, read_write> x: array<vec3<f32>, 4>;");
    CHECK_EQ_INT(p.rc, 0);
    ast_node *v = nd(&p, ast_item(&p.cc->ast, p.cc->ast.decls, 0));
    CHECK(v->kind == AST_VAR && v->u.var.templ.count == 2);
    ast_node *ty = nd(&p, v->u.var.type);
    CHECK(ty->kind == AST_IDENT && ty->u.ident.templ.count == 2);
    CHECK_STR(cc_str(p.cc, ty->u.ident.name), "array");
    cc_del(p.cc);

    /* left associativity of && and of - */
    p = parse_src("const x = a && b && c; const y = 1 - 2 - 3;");
    CHECK_EQ_INT(p.rc, 0);
    ast_node *c = nd(&p, ast_item(&p.cc->ast, p.cc->ast.decls, 0));
    ast_node *e = nd(&p, c->u.var.init);
    CHECK(e->op == AST_OP_LAND && nd(&p, e->u.binary.lhs)->op == AST_OP_LAND);
    c = nd(&p, ast_item(&p.cc->ast, p.cc->ast.decls, 1));
    e = nd(&p, c->u.var.init);
    CHECK(e->op == AST_OP_SUB && nd(&p, e->u.binary.lhs)->op == AST_OP_SUB);
    cc_del(p.cc);

    /* statements: loop/continuing/break-if, switch with default selector, else-if chain, phony */
    p = parse_src("fn f() { loop { continuing { break if true; } } switch 1 { case 1, default: {} } "
                  "if a {} else if b {} else {} _ = 1; x += 1; y++; }");
    CHECK_EQ_INT(p.rc, 0);
    fn = nd(&p, ast_item(&p.cc->ast, p.cc->ast.decls, 0));
    body = nd(&p, fn->u.fn.body);
    CHECK_EQ_INT(body->u.block.stmts.count, 6);
    ast_node *loop = nd(&p, ast_item(&p.cc->ast, body->u.block.stmts, 0));
    CHECK(loop->kind == AST_LOOP && loop->u.loop.continuing);
    ast_node *cont = nd(&p, loop->u.loop.continuing);
    CHECK((cont->flags & AST_F_CONTINUING) && cont->u.block.stmts.count == 1);
    CHECK(nd(&p, ast_item(&p.cc->ast, cont->u.block.stmts, 0))->kind == AST_BREAK_IF);
    ast_node *sw = nd(&p, ast_item(&p.cc->ast, body->u.block.stmts, 1));
    CHECK(sw->kind == AST_SWITCH && sw->u.switch_.clauses.count == 1);
    ast_node *cl = nd(&p, ast_item(&p.cc->ast, sw->u.switch_.clauses, 0));
    CHECK(cl->u.case_.selectors.count == 2 && nd(&p, ast_item(&p.cc->ast, cl->u.case_.selectors, 1))->kind == AST_DEFAULT);
    ast_node *iff = nd(&p, ast_item(&p.cc->ast, body->u.block.stmts, 2));
    CHECK(iff->kind == AST_IF && nd(&p, iff->u.if_.else_)->kind == AST_IF);
    CHECK(nd(&p, nd(&p, iff->u.if_.else_)->u.if_.else_)->kind == AST_BLOCK);
    ast_node *ph = nd(&p, ast_item(&p.cc->ast, body->u.block.stmts, 3));
    CHECK(ph->kind == AST_ASSIGN && ph->u.assign.lhs == 0 && ph->op == AST_OP_NONE);
    ast_node *ca = nd(&p, ast_item(&p.cc->ast, body->u.block.stmts, 4));
    CHECK(ca->kind == AST_ASSIGN && ca->op == AST_OP_ADD);
    CHECK(nd(&p, ast_item(&p.cc->ast, body->u.block.stmts, 5))->kind == AST_INCR);
    cc_del(p.cc);

    /* attributes, directives */
    p = parse_src("enable f16; diagnostic(off, derivative_uniformity); @compute @workgroup_size(8, 4) fn main() {}");
    CHECK_EQ_INT(p.rc, 0);
    CHECK_EQ_INT(p.cc->ast.directives.count, 2);
    fn = nd(&p, ast_item(&p.cc->ast, p.cc->ast.decls, 0));
    CHECK_EQ_INT(fn->attrs.count, 2);
    uint32_t wg = ast_find_attr(&p.cc->ast, fn->attrs, AST_ATTR_workgroup_size);
    CHECK(wg && nd(&p, wg)->u.attr.args.count == 2);
    CHECK(ast_find_attr(&p.cc->ast, fn->attrs, AST_ATTR_compute));
    cc_del(p.cc);
}

/* A 10^6-deep input must give an error, never a crash (the parser's recursion is bounded). */
static void test_deep(void) {
    const size_t n = 1000000;
    static const struct { const char *pre, *open, *mid, *close, *post; } cases[] = {
        { "const x = ", "(", "1", ")", ";" },
        { "fn f() { ", "{", "", "}", "}" },
        { "const x = ", "-", "1", "", ";" },
        { "const x = ", "a[", "0", "]", ";" },
        { "const x = ", "f(", "0", ")", ";" },
        { "const x = ", "array<", "i32", ">", "();" },
        { "fn f() { ", "*", "p = 1;", "", "}" },
        { "fn f() { ", "if true {", "", "}", "}" },
        { "fn f() { ", "loop {", "", "}", "}" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t ol = strlen(cases[k].open), cl = strlen(cases[k].close);
        char *s = malloc(64 + n * (ol + cl));
        size_t m = 0;
        m += (size_t)sprintf(s + m, "%s", cases[k].pre);
        for (size_t i = 0; i < n; i++) { memcpy(s + m, cases[k].open, ol); m += ol; }
        m += (size_t)sprintf(s + m, "%s", cases[k].mid);
        for (size_t i = 0; i < n; i++) { memcpy(s + m, cases[k].close, cl); m += cl; }
        m += (size_t)sprintf(s + m, "%s", cases[k].post);
        /* a huge max_nesting is capped at WGSL_MAX_NESTING, so it cannot lift the bound either */
        static const uint32_t limits[] = { 0, 1u << 31, UINT32_MAX };
        for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++) {
            wgsl_result *r = wgsl_compile(s, m, &(wgsl_options){ .parse_only = true, .max_nesting = limits[l] });
            CHECKF(r && !r->ok && r->diagnostic_count >= 1 &&
                       strstr(r->diagnostics[0].message, "maximum parser recursive depth reached"),
                   "deep '%s' (max_nesting %u): %s", cases[k].open, limits[l],
                   r && r->diagnostic_count ? r->diagnostics[0].message : "(none)");
            wgsl_result_free(r);
        }
        free(s);
    }
    /* long flat inputs parse iteratively; the limits Tint checks after parsing (expression depth
     * 512, statement nesting / else-if chaining 127) turn them into errors before any later phase
     * could recurse on them: a 10^6-clause else-if chain, a 10^6-term sum, a 10^6-long index chain */
    {
        size_t cnt = 1000000;
        char *s = malloc(64 + cnt * 24);
        static const char *const msgs[] = { "statement nesting depth / chaining length exceeds limit of 127",
                                            "reached max expression depth of 512", "reached max expression depth of 512" };
        for (int k = 0; k < 3; k++) {
            size_t m;
            if (k == 0) {
                m = (size_t)sprintf(s, "fn f() { if true {}");
                for (size_t i = 0; i < cnt; i++) { memcpy(s + m, " else if false {}", 17); m += 17; }
                m += (size_t)sprintf(s + m, " }");
            } else if (k == 1) {
                m = (size_t)sprintf(s, "fn f(a: i32) -> i32 { return a");
                for (size_t i = 0; i < cnt; i++) { memcpy(s + m, "+a", 2); m += 2; }
                m += (size_t)sprintf(s + m, "; }");
            } else {
                m = (size_t)sprintf(s, "fn f() { var a: array<i32, 1>; let x = a");
                for (size_t i = 0; i < cnt; i++) { memcpy(s + m, "[0]", 3); m += 3; }
                m += (size_t)sprintf(s + m, "; }");
            }
            wgsl_result *r = wgsl_compile(s, m, NULL); /* the whole compiler, not just the parser */
            CHECKF(r && !r->ok && r->diagnostic_count && !strcmp(r->diagnostics[0].message, msgs[k]),
                   "flat input %d: %s", k, r && r->diagnostic_count ? r->diagnostics[0].message : "(none)");
            wgsl_result_free(r);
        }
        /* just under the limits is fine */
        size_t m = (size_t)sprintf(s, "fn f(a: i32) -> i32 { if a == 0 { return 0; }");
        for (int i = 1; i < 120; i++) m += (size_t)sprintf(s + m, " else if a == %d { return %d; }", i, i);
        m += (size_t)sprintf(s + m, " return a");
        for (int i = 0; i < 500; i++) m += (size_t)sprintf(s + m, "+a");
        m += (size_t)sprintf(s + m, "; }");
        wgsl_result *r = wgsl_compile(s, m, &(wgsl_options){ .check_only = true });
        CHECKF(r && r->ok, "under the limits: %s", r && r->diagnostic_count ? r->diagnostics[0].message : "");
        wgsl_result_free(r);
        free(s);
    }
}

/* ---- public API ---- */

static void test_api(void) {
    /* line/col in code points, span in bytes, text rendering with caret, JSON */
    const char *src = "// \xc3\xa9\xc3\xa9\nconst \xc3\xa9 = 1\n";
    wgsl_result *r = wgsl_compile(src, strlen(src), &(wgsl_options){ .filename = "x.wgsl", .parse_only = true });
    CHECK(r && !r->ok);
    CHECK_EQ_INT(r->error_count, 1);
    CHECK_EQ_INT(r->diagnostic_count, 1);
    CHECK_EQ_INT(r->diagnostics[0].severity, WGSL_SEVERITY_ERROR);
    CHECK_EQ_INT(r->diagnostics[0].line, 2);
    CHECK_EQ_INT(r->diagnostics[0].col, 12); /* after "1": `const é = 1` is 11 code points */
    CHECK_EQ_INT(r->diagnostics[0].offset, (uint32_t)strlen(src) - 1);
    CHECK_STR(r->diagnostics[0].message, "expected ';' for 'const' declaration");
    CHECK_STR(wgsl_result_text(r),
              "x.wgsl:2:12: error: expected ';' for 'const' declaration\nconst \xc3\xa9 = 1\n           ^\n");
    CHECK_STR(wgsl_result_json(r),
              "{\"file\":\"x.wgsl\",\"ok\":false,\"diagnostics\":[{\"severity\":\"error\",\"line\":2,\"col\":12,"
              "\"offset\":20,\"length\":0,\"message\":\"expected ';' for 'const' declaration\"}]}");
    CHECK(r->spirv == NULL);
    wgsl_result_free(r);

    /* valid input: no diagnostics, empty text, NULL options fine */
    r = wgsl_compile("const x = 1;", 12, &(wgsl_options){ .parse_only = true });
    CHECK(r && r->ok && r->diagnostic_count == 0);
    CHECK_STR(wgsl_result_text(r), "");
    CHECK_STR(wgsl_result_json(r), "{\"file\":\"input.wgsl\",\"ok\":true,\"diagnostics\":[]}");
    wgsl_result_free(r);
    wgsl_result_free(NULL);

    /* not NUL-terminated: only `length` bytes are read; a NUL byte inside is an error */
    r = wgsl_compile("const x = 1;garbage", 12, &(wgsl_options){ .parse_only = true });
    CHECK(r && r->ok);
    wgsl_result_free(r);
    r = wgsl_compile("const x = 1;\0", 13, &(wgsl_options){ .parse_only = true });
    CHECK(r && !r->ok && r->diagnostic_count == 1 && r->diagnostics[0].line == 0 &&
          !strcmp(r->diagnostics[0].message, "The WGSL shader contains an illegal character '\\0'"));
    CHECK(r && !strcmp(wgsl_result_text(r), "input.wgsl: error: The WGSL shader contains an illegal character '\\0'\n"));
    wgsl_result_free(r);

    /* options that promise an array and give none are an error, not a NULL dereference */
    src = "override n: u32 = 1u;\n@compute @workgroup_size(1) fn main() { _ = n; }\n";
    r = wgsl_compile(src, strlen(src), &(wgsl_options){ .override_count = 3 });
    CHECK(r && !r->ok && r->diagnostic_count == 1 &&
          !strcmp(r->diagnostics[0].message, "options: override_count is 3 but overrides is NULL"));
    wgsl_result_free(r);

    /* a note follows its error */
    src = "fn g(a: bool, b: bool) {}\nfn f() { g(a < b, c > d); }\n";
    r = wgsl_compile(src, strlen(src), &(wgsl_options){ .parse_only = true });
    CHECK(r && r->diagnostic_count == 2 && r->diagnostics[1].severity == WGSL_SEVERITY_NOTE);
    CHECK(r && strstr(wgsl_result_text(r), "input.wgsl:2:19: note: if this is intended"));
    wgsl_result_free(r);
    CHECK_STR(wgsl_severity_name(WGSL_SEVERITY_WARNING), "warning");

    CHECK_STR(wgsl_severity_name(WGSL_SEVERITY_UNDEFINED), "");
}

/* Diagnostic limit, through the context directly (the parser stops at its first error). */
static void test_max_errors(void) {
    wgsl_cc *cc = cc_new("abc");
    cc->opt.max_errors = 2;
    for (int i = 0; i < 5; i++) {
        diag_error(cc, span_make(0, 1), "e%d", i);
        diag_note(cc, span_make(1, 1), "n%d", i);
    }
    diag_warning(cc, span_make(2, 1), "w");
    CHECK_EQ_INT(cc->error_count, 5);
    CHECK_EQ_INT(cc->dropped_errors, 3);
    CHECK_EQ_INT(cc->diags.n, 5); /* e0 n0 e1 n1 w */
    CHECK_STR(cc->diags.v[4].msg, "w");
    uint32_t line, col;
    diag_line_col(cc, 3, &line, &col);
    CHECK(line == 1 && col == 4);
    cc_del(cc);
}

/* ---- allocator hook: fail the Nth allocation, for every N; no leaks, no crash ---- */

typedef struct counting {
    long allocs, frees, fail_at;
} counting;

static void *c_alloc(void *user, size_t n) {
    counting *c = user;
    if (c->fail_at >= 0 && c->allocs >= c->fail_at) return NULL;
    c->allocs++;
    return malloc(n);
}

static void c_free(void *user, void *p) {
    counting *c = user;
    if (p) c->frees++;
    free(p);
}

static void test_oom(void) {
    const char *src = "enable f16;\nstruct S { a: array<vec3<f32>, 4>, }\n"
                      "@group(0) @binding(0) var<storage, read_write> d: array<f32>;\n"
                      "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
                      "  for (var i = 0u; i < 4u; i++) { d[id.x] += f32(i); }\n"
                      "  if (d[0] > 1.0) { d[1] = 2.0; } else { d[2] = 3.0; }\n"
                      "}\n";
    int saw_ok = 0, saw_oom = 0, leaks = 0;
    for (int pass = 0; pass < 2; pass++) /* parser only, then the whole compiler */
    for (long n = 0; n < 200 && !(saw_ok & (1 << pass)); n++) {
        counting c = { 0, 0, n };
        wgsl_options o = { .allocator = { c_alloc, c_free, &c }, .parse_only = (pass == 0) };
        wgsl_result *r = wgsl_compile(src, strlen(src), &o);
        if (r) {
            const char *t = wgsl_result_text(r);
            (void)t;
            if (r->diagnostic_count && !strcmp(r->diagnostics[0].message, "out of memory")) saw_oom = 1;
            else { /* enough memory: the real verdict, valid, with SPIR-V from the whole compiler */
                saw_ok |= 1 << pass;
                CHECKF(r->ok && (pass == 0 || r->spirv_word_count > 5), "OOM test kernel: %s",
                       r->diagnostic_count ? r->diagnostics[0].message : "no SPIR-V");
            }
            wgsl_result_free(r);
        }
        if (c.allocs != c.frees) leaks++;
    }
    CHECK(saw_oom);
    CHECK(saw_ok == 3);
    CHECK_EQ_INT(leaks, 0);
}

int main(void) {
    test_templates();
    test_literals();
    test_ast();
    test_deep();
    test_api();
    test_max_errors();
    test_oom();
    return test_end();
}
