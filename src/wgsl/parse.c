/* parse.c - recursive-descent parser for WGSL (spec "Grammar"), building the AST of ast.h.
 *
 * Each function quotes the grammar rule it implements.  Like Tint, a production either matches
 * (returns a node handle), does not match (returns 0 and consumes nothing) or fails; failing
 * reports one error at the offending token and longjmps out of the parse (`p->fail`), so the
 * first syntax error is the one reported, at the token where the grammar could not go on, with
 * Tint's wording ("expected ';' for variable declaration").  Lexical errors (TOK_ERROR tokens)
 * are reported when the parser reaches them.
 *
 * Expressions follow the spec's operator grammar, which is not a precedence ladder: `a & b | c`,
 * `a < b < c`, `a + b << c`, `a && b || c` need parentheses; the parser reports
 * "mixing 'X' and 'Y' requires parenthesis".  Nesting (parenthesised or unary expressions,
 * compound statements) is bounded by opt.max_nesting (default 128, Tint's limit; at most
 * WGSL_MAX_NESTING), so a deeply nested input is an error, never a stack overflow. */
#include <stdio.h>
#include <string.h>

#include "wgsl/cc.h"
#include "wgsl/lex.h"

/* ---- names for messages (declared in ast.h) ---- */

static const char *const kind_names[] = {
#define X(n, d) d,
    AST_KINDS(X)
#undef X
};
_Static_assert(sizeof kind_names / sizeof kind_names[0] == AST_KIND_COUNT, "ast kind table");

static const char *const op_names[] = {
#define X(n, s) s,
    AST_OPS(X)
#undef X
};
_Static_assert(sizeof op_names / sizeof op_names[0] == AST_OP_COUNT, "ast op table");

static const struct { const char *name; uint8_t lo, hi; } attr_info[] = {
    { "", 0, 0 },
#define X(n, lo, hi) { #n, lo, hi },
    AST_ATTRS(X)
#undef X
};
_Static_assert(sizeof attr_info / sizeof attr_info[0] == AST_ATTR_COUNT, "ast attr table");

const char *ast_kind_name(ast_kind k) { return k < AST_KIND_COUNT ? kind_names[k] : "?"; }
const char *ast_op_name(ast_op op) { return op < AST_OP_COUNT ? op_names[op] : "?"; }
const char *ast_attr_name(ast_attr a) { return a < AST_ATTR_COUNT ? attr_info[a].name : "?"; }

uint32_t ast_find_attr(const ast_module *m, ast_list attrs, ast_attr a) {
    for (uint32_t i = 0; i < attrs.count; i++) {
        uint32_t h = ast_item(m, attrs, i);
        if (m->nodes[h].op == a) return h;
    }
    return 0;
}

/* ---- parser state ---- */

typedef struct walk_item { uint32_t node, depth; } walk_item;

typedef struct parser {
    wgsl_cc *cc;
    ast_module *m;
    token *t;                   /* tokens, ending with TOK_EOF */
    uint32_t n, pos;
    uint32_t prev_end;          /* end offset of the last consumed token */
    uint32_t sync, lhs_depth, max_depth; /* nesting counters, see sync_enter() */
    const char *block_use;      /* the innermost brace block, for "expected '}' for <use>" */
    token *first_op;            /* first binary operator of the expression being parsed */
    ARR(uint32_t) tmp;          /* scratch stack for building lists */
    ARR(walk_item) walk;        /* scratch stack of the expression-depth walk */
    jmp_buf fail;
} parser;

static _Noreturn void fail_at(parser *p, span sp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static _Noreturn void fail_raw(parser *p, span sp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Reports exactly this error and stops the parse. */
static _Noreturn void fail_raw(parser *p, span sp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_report(p->cc, WGSL_SEVERITY_ERROR, sp, fmt, ap);
    va_end(ap);
    longjmp(p->fail, 1);
}

/* Reports a syntax error and stops the parse.  When the parser fails right at a lexical error
 * token (TOK_ERROR), the lexical error is what gets reported, as Tint does. */
static _Noreturn void fail_at(parser *p, span sp, const char *fmt, ...) {
    token *cur = &p->t[p->pos < p->n ? p->pos : p->n - 1];
    if (cur->kind == TOK_ERROR && sp.off == cur->sp.off) fail_raw(p, cur->sp, "%s", cur->msg);
    va_list ap;
    va_start(ap, fmt);
    diag_report(p->cc, WGSL_SEVERITY_ERROR, sp, fmt, ap);
    va_end(ap);
    longjmp(p->fail, 1);
}

static token *peek_n(parser *p, uint32_t k) {
    uint32_t i = p->pos + k;
    if (i >= p->n) i = p->n - 1;
    return &p->t[i];
}
static token *peek(parser *p) { return peek_n(p, 0); }
static int is(parser *p, tok_kind k) { return peek(p)->kind == k; }

static token *advance(parser *p) {
    token *t = peek(p);
    if (t->kind != TOK_EOF) p->pos++;
    p->prev_end = t->sp.off + t->sp.len;
    return t;
}

static int match(parser *p, tok_kind k) {
    if (!is(p, k)) return 0;
    advance(p);
    return 1;
}

/* "expected ';' for variable declaration" at the current token. */
static _Noreturn void fail_expected(parser *p, const char *what, const char *use) {
    token *t = peek(p);
    span at = t->sp;
    if (use && *use) fail_at(p, at, "expected %s for %s", what, use);
    fail_at(p, at, "expected %s", what);
}

static token *expect(parser *p, tok_kind k, const char *use) {
    if (!is(p, k)) { /* use NULL or "": plain "expected 'x'" */
        char what[32];
        snprintf(what, sizeof what, "'%s'", lex_tok_spelling(k));
        fail_expected(p, what, use);
    }
    return advance(p);
}

/* An identifier being declared: reserved words are errors here. */
static token *expect_ident(parser *p, const char *use) {
    token *t = peek(p);
    if (t->kind != TOK_IDENT) fail_expected(p, "identifier", use);
    if (t->reserved == 1) fail_at(p, t->sp, "'%s' is a reserved keyword", cc_str(p->cc, t->ident));
    return advance(p);
}

static span from(parser *p, uint32_t start) {
    uint32_t end = p->prev_end > start ? p->prev_end : start;
    return span_make(start, end - start);
}

static uint32_t node(parser *p, ast_kind k, span sp) {
    ast_module *m = p->m;
    if (m->node_count == m->node_cap)
        arena_grow(&p->cc->arena, (void **)&m->nodes, &m->node_cap, sizeof *m->nodes, m->node_count + 1);
    uint32_t h = m->node_count++;
    memset(&m->nodes[h], 0, sizeof m->nodes[h]);
    m->nodes[h].kind = (uint8_t)k;
    m->nodes[h].sp = sp;
    return h;
}
#define N(h) (&p->m->nodes[(h)])

/* List building: mark = list_begin(); push items; list_end(mark) copies them into module items. */
static uint32_t list_begin(parser *p) { return p->tmp.n; }
static void list_push(parser *p, uint32_t h) { ARR_PUSH(&p->cc->arena, p->tmp, h); }
static ast_list list_end(parser *p, uint32_t mark) {
    ast_module *m = p->m;
    ast_list l = { m->item_count, p->tmp.n - mark };
    if (m->item_count + l.count > m->item_cap)
        arena_grow(&p->cc->arena, (void **)&m->items, &m->item_cap, sizeof *m->items, m->item_count + l.count);
    if (l.count) memcpy(m->items + m->item_count, p->tmp.v + mark, l.count * sizeof(uint32_t));
    m->item_count += l.count;
    p->tmp.n = mark;
    return l;
}

/* Nesting limit, counted as Tint counts it so the error lands on the same token: one counter;
 * a global declaration is level 1; every brace block, parenthesised expression, argument list,
 * index, template list and unary operator adds one.  Entering one at the limit is an error at the
 * token after its opening bracket / operator.  Every recursive path of the parser passes through
 * it (or, for `*`/`&` on the left of an assignment, through a generous separate bound), so the
 * recursion depth is bounded. */
static void sync_enter(parser *p) {
    if (p->sync >= p->max_depth) fail_at(p, peek(p)->sp, "maximum parser recursive depth reached");
    p->sync++;
}
static void sync_leave(parser *p) { p->sync--; }
static void unary_enter(parser *p, span at) {
    if (p->sync >= p->max_depth) fail_at(p, at, "maximum parser recursive depth reached");
    p->sync++;
}

static uint32_t expression(parser *p);
static uint32_t unary_expression(parser *p);
static void check_parsed_as_template(parser *p, uint32_t e);
static uint32_t compound_statement(parser *p, ast_list attrs, const char *use);
static ast_list attributes(parser *p);


/* ---- types and template lists ---- */

/* template_list : _template_args_start template_arg_comma_list _template_args_end
 * template_arg_comma_list : template_arg_expression ( ',' template_arg_expression )* ','? */
static ast_list template_list(parser *p, int in_type) {
    ast_list none = { 0, 0 };
    if (!match(p, TOK_TEMPLATE_START)) return none;
    sync_enter(p);
    uint32_t mark = list_begin(p);
    const char *use = in_type ? "type template argument list" : "template argument list";
    for (;;) {
        uint32_t e = expression(p);
        if (!e) {
            if (p->tmp.n == mark || !is(p, TOK_TEMPLATE_END)) fail_expected(p, "expression", use);
            break;
        }
        list_push(p, e);
        if (is(p, TOK_TEMPLATE_END)) break;
        if (!is(p, TOK_COMMA)) {
            check_parsed_as_template(p, e);
            fail_expected(p, "','", use);
        }
        advance(p);
    }
    if (!is(p, TOK_TEMPLATE_END)) fail_expected(p, "'>'", "template argument list");
    advance(p);
    sync_leave(p);
    return list_end(p, mark);
}

/* variable_decl's template list: 'var' _disambiguate_template template_list?
 * (address space [, access mode], as Tint parses and words it) */
static ast_list var_template_list(parser *p) {
    ast_list none = { 0, 0 };
    if (is(p, TOK_LT)) fail_at(p, peek(p)->sp, "missing closing '>' for variable declaration");
    if (!match(p, TOK_TEMPLATE_START)) return none;
    sync_enter(p);
    uint32_t mark = list_begin(p);
    uint32_t as = expression(p);
    if (!as) fail_expected(p, "expression", "'var' address space");
    list_push(p, as);
    if (match(p, TOK_COMMA) && !is(p, TOK_TEMPLATE_END)) {
        uint32_t am = expression(p);
        if (!am) fail_expected(p, "expression", "'var' access mode");
        list_push(p, am);
        match(p, TOK_COMMA);
    }
    if (!is(p, TOK_TEMPLATE_END)) fail_expected(p, "'template_arg_right'", "variable declaration");
    advance(p);
    sync_leave(p);
    return list_end(p, mark);
}

/* template_elaborated_ident : ident _disambiguate_template template_list? */
static uint32_t template_elaborated_ident_in(parser *p, int in_type) {
    if (!is(p, TOK_IDENT)) return 0;
    token *t = advance(p);
    uint32_t start = t->sp.off, name = t->ident;
    ast_list templ = template_list(p, in_type);
    uint32_t h = node(p, AST_IDENT, from(p, start));
    N(h)->u.ident.name = name;
    N(h)->u.ident.templ = templ;
    return h;
}

static uint32_t template_elaborated_ident(parser *p) { return template_elaborated_ident_in(p, 0); }

/* type_specifier : template_elaborated_ident */
static uint32_t type_specifier(parser *p, const char *use) {
    token *raw = &p->t[p->pos < p->n ? p->pos : p->n - 1];
    if (raw->kind == TOK_ERROR) fail_raw(p, raw->sp, "invalid type for %s", use); /* as Tint: the type fails first */
    uint32_t ty = template_elaborated_ident_in(p, 1);
    if (!ty) {
        token *t = peek(p);
        fail_at(p, t->sp, "invalid type for %s", use);
    }
    return ty;
}

/* ---- expressions ---- */

/* A list element `e` is followed by something other than ',' or the closing bracket: when `e` is
 * an identifier with a template list, the template discovery took `<...>` for one
 * (`f(a < b, c > d)`); say so, as Tint does. */
static void check_parsed_as_template(parser *p, uint32_t e) {
    ast_node *en = N(e);
    if (en->kind != AST_IDENT || !en->u.ident.templ.count) return;
    diag_error(p->cc, en->sp, "parsed as template list");
    diag_note(p->cc, span_join(N(ast_item(p->m, en->u.ident.templ, en->u.ident.templ.count - 1))->sp, peek(p)->sp),
              "if this is intended to be a greater-than expression then wrap in parentheses");
    longjmp(p->fail, 1);
}

/* argument_expression_list : '(' expression_comma_list? ')'
 * expression_comma_list : expression ( ',' expression )* ','? */
static ast_list argument_list(parser *p, const char *use) {
    expect(p, TOK_LPAREN, use);
    sync_enter(p);
    uint32_t mark = list_begin(p);
    while (!is(p, TOK_RPAREN)) {
        uint32_t e = expression(p);
        if (!e) fail_expected(p, "expression", use);
        list_push(p, e);
        if (is(p, TOK_RPAREN)) break;
        if (!is(p, TOK_COMMA)) {
            check_parsed_as_template(p, e);
            fail_expected(p, "','", use);
        }
        advance(p);
    }
    expect(p, TOK_RPAREN, use);
    sync_leave(p);
    return list_end(p, mark);
}

/* primary_expression :
 *   template_elaborated_ident | call_expression | literal | paren_expression
 * call_expression : call_phrase
 * call_phrase : template_elaborated_ident argument_expression_list
 * paren_expression : '(' expression ')' */
static uint32_t primary_expression(parser *p) {
    token *t = peek(p);
    uint32_t start = t->sp.off;
    switch (t->kind) {
    case TOK_IDENT: {
        uint32_t id = template_elaborated_ident(p);
        if (!is(p, TOK_LPAREN)) return id;
        ast_list args = argument_list(p, "function call");
        uint32_t h = node(p, AST_CALL, from(p, start));
        N(h)->u.call.callee = id;
        N(h)->u.call.args = args;
        return h;
    }
    case TOK_INT_LIT: case TOK_FLOAT_LIT: {
        advance(p);
        uint32_t h = node(p, t->kind == TOK_INT_LIT ? AST_LIT_INT : AST_LIT_FLOAT, t->sp);
        N(h)->op = t->suffix;
        if (t->kind == TOK_INT_LIT) N(h)->u.lit.i = t->val.i;
        else N(h)->u.lit.f = t->val.f;
        return h;
    }
    case TOK_KW_true: case TOK_KW_false: {
        advance(p);
        uint32_t h = node(p, AST_LIT_BOOL, t->sp);
        N(h)->u.lit.i = t->kind == TOK_KW_true;
        return h;
    }
    case TOK_LPAREN: {
        advance(p);
        sync_enter(p);
        uint32_t e = expression(p);
        if (!e) fail_at(p, peek(p)->sp, "unable to parse expression");
        expect(p, TOK_RPAREN, NULL);
        sync_leave(p);
        return e;
    }
    default:
        return 0;
    }
}

/* component_or_swizzle_specifier :
 *   '[' expression ']' component_or_swizzle_specifier?
 * | '.' member_ident component_or_swizzle_specifier?
 * | '.' swizzle_name component_or_swizzle_specifier? */
static uint32_t postfix(parser *p, uint32_t e, uint32_t start) {
    for (;;) {
        if (match(p, TOK_LBRACKET)) {
            sync_enter(p);
            uint32_t idx = expression(p);
            if (!idx) fail_at(p, peek(p)->sp, "unable to parse expression inside []");
            expect(p, TOK_RBRACKET, "index accessor");
            sync_leave(p);
            uint32_t h = node(p, AST_INDEX, from(p, start));
            N(h)->u.index.base = e;
            N(h)->u.index.index = idx;
            e = h;
        } else if (match(p, TOK_PERIOD)) {
            token *t = peek(p);
            if (t->kind != TOK_IDENT) fail_expected(p, "identifier", "member accessor");
            advance(p);
            uint32_t h = node(p, AST_MEMBER, from(p, start));
            N(h)->u.member.base = e;
            N(h)->u.member.name = t->ident;
            N(h)->u.member.name_off = t->sp.off;
            e = h;
        } else {
            return e;
        }
    }
}

/* singular_expression : primary_expression component_or_swizzle_specifier? */
static uint32_t singular_expression(parser *p) {
    uint32_t start = peek(p)->sp.off;
    uint32_t e = primary_expression(p);
    if (!e) return 0;
    return postfix(p, e, start);
}

/* unary_expression : singular_expression | '-' unary_expression | '!' unary_expression
 *   | '~' unary_expression | '*' unary_expression | '&' unary_expression */
static uint32_t unary_expression(parser *p) {
    token *t = peek(p);
    ast_op op;
    switch (t->kind) {
    case TOK_MINUS: op = AST_OP_NEG; break;
    case TOK_BANG: op = AST_OP_NOT; break;
    case TOK_TILDE: op = AST_OP_BITNOT; break;
    case TOK_STAR: op = AST_OP_DEREF; break;
    case TOK_AND: op = AST_OP_ADDR; break;
    case TOK_PLUS_PLUS:
        fail_at(p, t->sp, "prefix increment and decrement operators are not supported");
    case TOK_MINUS_MINUS: {
        /* `--x` is `- -x` (Tint splits the token here; `&&x` it does not split in expressions) */
        ast_op dop = AST_OP_NEG;
        const char *sp1 = "-";
        advance(p);
        unary_enter(p, span_make(t->sp.off + 1, 1));
        unary_enter(p, peek(p)->sp);
        uint32_t inner_start = t->sp.off + 1;
        uint32_t operand = unary_expression(p);
        if (!operand) fail_at(p, peek(p)->sp, "unable to parse right side of %s expression", sp1);
        uint32_t in = node(p, AST_UNARY, from(p, inner_start));
        N(in)->op = (uint8_t)dop;
        N(in)->u.unary.operand = operand;
        uint32_t h = node(p, AST_UNARY, from(p, t->sp.off));
        N(h)->op = (uint8_t)dop;
        N(h)->u.unary.operand = in;
        p->sync -= 2;
        return h;
    }
    default:
        return singular_expression(p);
    }
    uint32_t start = t->sp.off;
    advance(p);
    unary_enter(p, peek(p)->sp);
    uint32_t operand = unary_expression(p);
    if (!operand) fail_at(p, peek(p)->sp, "unable to parse right side of %s expression", lex_tok_spelling(t->kind));
    uint32_t h = node(p, AST_UNARY, from(p, start));
    N(h)->op = (uint8_t)op;
    N(h)->u.unary.operand = operand;
    p->sync--;
    return h;
}

static uint32_t binary(parser *p, ast_op op, uint32_t lhs, uint32_t rhs) {
    span sp = span_join(N(lhs)->sp, N(rhs)->sp);
    uint32_t h = node(p, AST_BINARY, sp);
    N(h)->op = (uint8_t)op;
    N(h)->u.binary.lhs = lhs;
    N(h)->u.binary.rhs = rhs;
    return h;
}

/* Binary operator of a token kind (AST_OP_NONE if it is none). */
static ast_op tok_binop(tok_kind k) {
    switch (k) {
    case TOK_PLUS: return AST_OP_ADD;
    case TOK_MINUS: return AST_OP_SUB;
    case TOK_STAR: return AST_OP_MUL;
    case TOK_SLASH: return AST_OP_DIV;
    case TOK_PERCENT: return AST_OP_MOD;
    case TOK_AND: return AST_OP_AND;
    case TOK_OR: return AST_OP_OR;
    case TOK_XOR: return AST_OP_XOR;
    case TOK_SHL: return AST_OP_SHL;
    case TOK_SHR: return AST_OP_SHR;
    case TOK_AND_AND: return AST_OP_LAND;
    case TOK_OR_OR: return AST_OP_LOR;
    case TOK_EQ_EQ: return AST_OP_EQ;
    case TOK_NOT_EQ: return AST_OP_NE;
    case TOK_LT: return AST_OP_LT;
    case TOK_LE: return AST_OP_LE;
    case TOK_GT: return AST_OP_GT;
    case TOK_GE: return AST_OP_GE;
    default: return AST_OP_NONE;
    }
}

/* Consumes a binary operator token; the first one of the current expression is remembered for
 * the "mixing" error. */
static token *take_op(parser *p) {
    token *op = advance(p);
    if (!p->first_op) p->first_op = op;
    return op;
}

/* Right operand of a binary operator `op_tok`. */
static uint32_t rhs_unary(parser *p, token *op_tok) {
    uint32_t r = unary_expression(p);
    if (!r) fail_at(p, peek(p)->sp, "unable to parse right side of %s expression", lex_tok_spelling(op_tok->kind));
    return r;
}

/* multiplicative_expression : unary_expression | multiplicative_expression multiplicative_operator unary_expression
 * additive_expression : multiplicative_expression | additive_expression additive_operator multiplicative_expression
 * (post-unary forms: `lhs` is the already parsed first unary_expression) */
static uint32_t multiplicative_post_unary(parser *p, uint32_t lhs) {
    for (;;) {
        tok_kind k = (tok_kind)peek(p)->kind;
        if (k != TOK_STAR && k != TOK_SLASH && k != TOK_PERCENT) return lhs;
        token *op = take_op(p);
        lhs = binary(p, tok_binop(k), lhs, rhs_unary(p, op));
    }
}

static uint32_t additive_post_unary(parser *p, uint32_t lhs) {
    lhs = multiplicative_post_unary(p, lhs);
    for (;;) {
        tok_kind k = (tok_kind)peek(p)->kind;
        if (k != TOK_PLUS && k != TOK_MINUS && k != TOK_MINUS_MINUS) return lhs;
        token *op = take_op(p);
        uint32_t r;
        if (k == TOK_MINUS_MINUS) {
            /* `a--b` in an expression is `a - -b` (Tint splits the token) */
            k = TOK_MINUS;
            unary_enter(p, peek(p)->sp);
            uint32_t operand = unary_expression(p);
            if (!operand) fail_at(p, peek(p)->sp, "unable to parse right side of - expression");
            p->sync--;
            r = node(p, AST_UNARY, from(p, op->sp.off + 1));
            N(r)->op = AST_OP_NEG;
            N(r)->u.unary.operand = operand;
        } else {
            r = rhs_unary(p, op);
        }
        r = multiplicative_post_unary(p, r);
        lhs = binary(p, tok_binop(k), lhs, r);
    }
}

/* shift_expression : additive_expression | unary_expression _shift_left unary_expression
 *                  | unary_expression _shift_right unary_expression */
static uint32_t shift_post_unary(parser *p, uint32_t lhs) {
    tok_kind k = (tok_kind)peek(p)->kind;
    if (k == TOK_SHL || k == TOK_SHR) {
        token *op = take_op(p);
        return binary(p, tok_binop(k), lhs, rhs_unary(p, op));
    }
    return additive_post_unary(p, lhs);
}

static int is_relational(tok_kind k) {
    return k == TOK_LT || k == TOK_GT || k == TOK_LE || k == TOK_GE || k == TOK_EQ_EQ || k == TOK_NOT_EQ;
}

/* relational_expression : shift_expression | shift_expression _less_than shift_expression | ...
 * (one comparison at most) */
static uint32_t relational_post_unary(parser *p, uint32_t lhs) {
    uint32_t e = shift_post_unary(p, lhs);
    tok_kind k = (tok_kind)peek(p)->kind;
    if (!is_relational(k)) return e;
    token *op = take_op(p);
    uint32_t r = shift_post_unary(p, rhs_unary(p, op));
    return binary(p, tok_binop(k), e, r);
}

/* expression :
 *   relational_expression
 * | short_circuit_or_expression '||' relational_expression
 * | short_circuit_and_expression '&&' relational_expression
 * | bitwise_expression
 * bitwise_expression : binary_and_expression '&' unary_expression | binary_or_expression '|' ...
 *                    | binary_xor_expression '^' unary_expression
 * The grammar is not a precedence ladder: an operator left over after the longest parse needs
 * parentheses.  Tint's message names the expression's top operator and the leftover one, and
 * points from the expression's first operator to the leftover. */
static uint32_t expression(parser *p) {
    uint32_t lhs = unary_expression(p);
    if (!lhs) return 0;
    token *outer_first = p->first_op;
    p->first_op = NULL;
    uint32_t e;
    tok_kind k = (tok_kind)peek(p)->kind;
    if (k == TOK_AND || k == TOK_OR || k == TOK_XOR) {
        e = lhs;
        while (peek(p)->kind == k) {
            token *op = take_op(p);
            e = binary(p, tok_binop(k), e, rhs_unary(p, op));
        }
    } else {
        e = relational_post_unary(p, lhs);
        k = (tok_kind)peek(p)->kind;
        if (k == TOK_AND_AND || k == TOK_OR_OR) {
            while (peek(p)->kind == k) {
                token *op = take_op(p);
                uint32_t r = relational_post_unary(p, rhs_unary(p, op));
                e = binary(p, tok_binop(k), e, r);
            }
        }
    }
    token *t = peek(p);
    int leftover = tok_binop((tok_kind)t->kind) != AST_OP_NONE || t->kind == TOK_MINUS_MINUS;
    if (leftover && p->first_op && N(e)->kind == AST_BINARY) {
        uint32_t end = t->kind == TOK_MINUS_MINUS ? t->sp.off + 1 : t->sp.off + t->sp.len;
        fail_at(p, span_make(p->first_op->sp.off, end - p->first_op->sp.off),
                "mixing '%s' and '%s' requires parenthesis", ast_op_name((ast_op)N(e)->op),
                t->kind == TOK_MINUS_MINUS ? "-" : lex_tok_spelling((tok_kind)t->kind));
    }
    p->first_op = outer_first;
    return e;
}

/* ---- attributes ---- */

/* Levenshtein distance of two short strings (capped inputs: callers skip long ones). */
static size_t edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    size_t row[65];
    if (la > 64 || lb > 64) return (size_t)-1;
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = prev + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            prev = up;
        }
    }
    return row[lb];
}

/* "expected <what>" with Tint's hints: "Did you mean '<closest>'?" (edit distance below 5) and
 * "Possible values: '...', ..." (values NULL-terminated; got "" when the token is no name). */
static _Noreturn void fail_enum(parser *p, span sp, const char *what, const char *got, const char *const *values) {
    char buf[1024];
    size_t n = (size_t)snprintf(buf, sizeof buf, "expected %s", what);
    const char *best = NULL;
    size_t best_d = 5;
    if (*got && strlen(got) < 64)
        for (const char *const *v = values; *v; v++) {
            size_t d = edit_distance(got, *v);
            if (d < best_d) { best = *v; best_d = d; }
        }
    if (best && n < sizeof buf) n += (size_t)snprintf(buf + n, sizeof buf - n, "\nDid you mean '%s'?", best);
    if (n < sizeof buf) n += (size_t)snprintf(buf + n, sizeof buf - n, "\nPossible values: ");
    for (const char *const *v = values; *v && n < sizeof buf; v++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s'%s'", v == values ? "" : ", ", *v);
    fail_at(p, sp, "%s", buf);
}

static const char *const severity_names[] = { "error", "info", "off", "warning", NULL };
static const char *const attribute_names[] = {
    "align", "binding", "blend_src", "builtin", "color", "compute", "diagnostic", "fragment", "group", "id",
    "input_attachment_index", "interpolate", "invariant", "location", "must_use", "size", "subgroup_size",
    "vertex", "workgroup_size", NULL,
};

/* diagnostic_control : '(' severity_control_name ',' diagnostic_rule_name ','? ')'
 * diagnostic_rule_name : diagnostic_name_token | diagnostic_name_token '.' diagnostic_name_token */
static uint32_t diagnostic_control(parser *p, uint32_t start) {
    expect(p, TOK_LPAREN, "diagnostic control");
    token *sev = peek(p);
    if (sev->kind != TOK_IDENT) fail_expected(p, "severity control", NULL);
    const char *sn = cc_str(p->cc, sev->ident);
    if (strcmp(sn, "error") && strcmp(sn, "warning") && strcmp(sn, "info") && strcmp(sn, "off"))
        fail_enum(p, sev->sp, "severity control", sn, severity_names);
    advance(p);
    expect(p, TOK_COMMA, "diagnostic control");
    token *r1 = peek(p);
    if (r1->kind != TOK_IDENT) fail_expected(p, "diagnostic rule name", NULL);
    advance(p);
    uint32_t rule2 = 0;
    if (match(p, TOK_PERIOD)) {
        token *r2 = peek(p);
        if (r2->kind != TOK_IDENT) fail_expected(p, "diagnostic rule name", NULL);
        advance(p);
        rule2 = r2->ident;
    }
    match(p, TOK_COMMA);
    expect(p, TOK_RPAREN, "diagnostic control");
    uint32_t h = node(p, AST_DIAGNOSTIC, from(p, start));
    N(h)->u.diag.severity = sev->ident;
    N(h)->u.diag.sev_off = sev->sp.off;
    N(h)->u.diag.rule = r1->ident;
    N(h)->u.diag.rule2 = rule2;
    N(h)->u.diag.rule_off = r1->sp.off;
    return h;
}

/* '(' expression ( ',' expression )* ','? ')' of an attribute */
static ast_list attr_args(parser *p, const char *name, const char *use) {
    expect(p, TOK_LPAREN, use);
    sync_enter(p);
    uint32_t mark = list_begin(p);
    while (!is(p, TOK_RPAREN)) {
        uint32_t e = expression(p);
        if (!e) fail_expected(p, "expression", name);
        list_push(p, e);
        if (!match(p, TOK_COMMA)) break;
    }
    expect(p, TOK_RPAREN, use);
    sync_leave(p);
    return list_end(p, mark);
}

static int in_list(const char *s, const char *const *list) {
    for (; *list; list++)
        if (!strcmp(s, *list)) return 1;
    return 0;
}

static const char *const builtin_names[] = {
    "barycentric_coord", "clip_distances", "frag_depth", "front_facing", "global_invocation_id",
    "global_invocation_index", "instance_index", "local_invocation_id", "local_invocation_index",
    "num_subgroups", "num_workgroups", "position", "primitive_index", "sample_index", "sample_mask",
    "subgroup_id", "subgroup_invocation_id", "subgroup_size", "vertex_index", "view_index", "workgroup_id",
    "workgroup_index", NULL,
};
static const char *const depth_modes[] = { "greater", "less", NULL };
static const char *const interp_types[] = { "flat", "linear", "perspective", NULL };
static const char *const interp_samplings[] = { "center", "centroid", "either", "first", "sample", NULL };

/* builtin_attr : '@' 'builtin' '(' builtin_value_name ( ',' depth_mode )? ','? ')'
 * interpolate_attr : '@' 'interpolate' '(' interpolate_type_name ( ',' interpolate_sampling_name )? ','? ')'
 * The names are checked here (as Tint's parser does); they become IDENT nodes. */
static ast_list enum_args(parser *p, ast_attr a, const char *use) {
    expect(p, TOK_LPAREN, use);
    uint32_t mark = list_begin(p);
    for (int i = 0; i < 2; i++) {
        token *t = peek(p);
        if (i == 1 && t->kind == TOK_RPAREN) break;
        const char *const *names = a == AST_ATTR_builtin ? (i ? depth_modes : builtin_names)
                                                          : (i ? interp_samplings : interp_types);
        const char *what = a == AST_ATTR_builtin ? (i ? "builtin depth mode name" : "builtin value name")
                                                 : (i ? "interpolation sampling name" : "interpolation type name");
        if (t->kind != TOK_IDENT || !in_list(cc_str(p->cc, t->ident), names))
            fail_enum(p, t->sp, what, t->kind == TOK_IDENT ? cc_str(p->cc, t->ident) : "", names);
        advance(p);
        uint32_t h = node(p, AST_IDENT, t->sp);
        N(h)->u.ident.name = t->ident;
        list_push(p, h);
        if (!match(p, TOK_COMMA)) break;
    }
    expect(p, TOK_RPAREN, use);
    return list_end(p, mark);
}

/* attribute : '@' ident_pattern_token argument_expression_list? | align_attr | binding_attr | ...
 *   (every attribute of the spec; arity checked against AST_ATTRS) */
static uint32_t attribute(parser *p) {
    token *at = peek(p);
    if (at->kind != TOK_ATTR) return 0;
    advance(p);
    token *nt = peek(p);
    const char *name = NULL;
    if (nt->kind == TOK_IDENT) name = cc_str(p->cc, nt->ident);
    else if (nt->kind == TOK_KW_const) name = "const";
    else if (nt->kind == TOK_KW_diagnostic) name = "diagnostic";
    ast_attr a = AST_ATTR_NONE;
    for (uint32_t i = 1; name && i < AST_ATTR_COUNT; i++)
        if (!strcmp(attr_info[i].name, name)) a = (ast_attr)i;
    if (a == AST_ATTR_NONE) fail_enum(p, nt->sp, "attribute", nt->kind == TOK_IDENT ? name : "", attribute_names);
    advance(p);
    if (a == AST_ATTR_diagnostic) {
        uint32_t ctl = diagnostic_control(p, at->sp.off);
        uint32_t mark = list_begin(p);
        list_push(p, ctl);
        ast_list args = list_end(p, mark);
        uint32_t h = node(p, AST_ATTR, from(p, at->sp.off));
        N(h)->op = (uint8_t)a;
        N(h)->u.attr.args = args;
        return h;
    }
    ast_list args = { 0, 0 };
    char use[48];
    snprintf(use, sizeof use, "%s attribute", name);
    if (a == AST_ATTR_const) fail_at(p, nt->sp, "const attribute may not appear in shaders");
    if (attr_info[a].hi > 0) {
        if (!is(p, TOK_LPAREN)) fail_expected(p, "'('", use);
        if (a == AST_ATTR_builtin || a == AST_ATTR_interpolate) args = enum_args(p, a, use);
        else args = attr_args(p, name, use);
    } else if (is(p, TOK_LPAREN)) {
        fail_at(p, peek(p)->sp, "%s attribute doesn't take parenthesis", name);
    }
    if (args.count < attr_info[a].lo)
        fail_at(p, nt->sp, "%s expects %s%u argument%s", name, attr_info[a].lo == attr_info[a].hi ? "" : "at least ",
                attr_info[a].lo, attr_info[a].lo == 1 ? "" : "s");
    if (args.count > attr_info[a].hi)
        fail_at(p, nt->sp, "%s expects %s%u argument%s, got %u", name,
                attr_info[a].lo == attr_info[a].hi ? "" : "at most ", attr_info[a].hi,
                attr_info[a].hi == 1 ? "" : "s", args.count);
    uint32_t h = node(p, AST_ATTR, from(p, at->sp.off));
    N(h)->op = (uint8_t)a;
    N(h)->u.attr.args = args;
    return h;
}

/* attribute* */
static ast_list attributes(parser *p) {
    uint32_t mark = list_begin(p);
    for (;;) {
        uint32_t a = attribute(p);
        if (!a) break;
        list_push(p, a);
    }
    return list_end(p, mark);
}

/* ---- statements ---- */

static uint32_t statement(parser *p);
static uint32_t update_rest(parser *p, uint32_t lhs, uint32_t start);
static uint32_t statement_no_attrs(parser *p, token *t, uint32_t start);

/* optionally_typed_ident : ident ( ':' type_specifier )? */
static void optionally_typed_ident(parser *p, uint32_t h, const char *use) {
    token *id = expect_ident(p, use);
    uint32_t ty = 0;
    if (match(p, TOK_COLON)) ty = type_specifier(p, use);
    N(h)->u.var.name = id->ident;
    N(h)->u.var.name_off = id->sp.off;
    N(h)->u.var.type = ty;
}

/* variable_decl : 'var' _disambiguate_template template_list? optionally_typed_ident
 * variable_or_value_statement : variable_decl | variable_decl '=' expression
 *   | 'let' optionally_typed_ident '=' expression | 'const' optionally_typed_ident '=' expression */
static uint32_t variable_or_value_statement(parser *p, ast_list attrs) {
    token *t = peek(p);
    uint32_t start = attrs.count ? N(ast_item(p->m, attrs, 0))->sp.off : t->sp.off;
    ast_kind k;
    const char *word;
    if (t->kind == TOK_KW_var) { k = AST_VAR; word = "var"; }
    else if (t->kind == TOK_KW_let) { k = AST_LET; word = "let"; }
    else if (t->kind == TOK_KW_const) { k = AST_CONST; word = "const"; }
    else return 0;
    advance(p);
    uint32_t h = node(p, k, span_make(start, 0));
    ast_list templ = { 0, 0 };
    if (k == AST_VAR) templ = var_template_list(p);
    N(h)->u.var.templ = templ;
    N(h)->attrs = attrs;
    optionally_typed_ident(p, h, k == AST_VAR ? "variable declaration" : k == AST_LET ? "'let' declaration"
                                                                          : "'const' declaration");
    uint32_t init = 0;
    if (match(p, TOK_EQUAL)) {
        init = expression(p);
        if (!init) fail_at(p, peek(p)->sp, "missing initializer for '%s' declaration", word);
    } else if (k != AST_VAR) {
        fail_expected(p, "'='", k == AST_LET ? "'let' declaration" : "'const' declaration");
    }
    N(h)->u.var.init = init;
    N(h)->sp = from(p, start);
    return h;
}

/* lhs_expression : core_lhs_expression component_or_swizzle_specifier? | '*' lhs_expression
 *   | '&' lhs_expression
 * core_lhs_expression : ident | '(' lhs_expression ')' */
static uint32_t lhs_expression(parser *p) {
    token *t = peek(p);
    uint32_t start = t->sp.off;
    if (t->kind == TOK_STAR || t->kind == TOK_AND || t->kind == TOK_AND_AND) {
        /* Tint has no limit here; ours is generous but keeps recursion bounded */
        if (++p->lhs_depth > p->max_depth * 32) fail_at(p, t->sp, "maximum parser recursive depth reached");
        advance(p);
        uint32_t operand = lhs_expression(p);
        if (!operand) fail_at(p, peek(p)->sp, "missing expression");
        if (t->kind == TOK_AND_AND) { /* `&&x` is `& &x` */
            uint32_t in = node(p, AST_UNARY, from(p, start + 1));
            N(in)->op = AST_OP_ADDR;
            N(in)->u.unary.operand = operand;
            operand = in;
        }
        uint32_t h = node(p, AST_UNARY, from(p, start));
        N(h)->op = (uint8_t)(t->kind == TOK_STAR ? AST_OP_DEREF : AST_OP_ADDR);
        N(h)->u.unary.operand = operand;
        p->lhs_depth--;
        return h;
    }
    uint32_t e;
    if (t->kind == TOK_LPAREN) {
        advance(p);
        sync_enter(p);
        e = lhs_expression(p);
        if (!e) fail_at(p, t->sp, "invalid expression");
        expect(p, TOK_RPAREN, NULL);
        sync_leave(p);
    } else if (t->kind == TOK_IDENT) {
        /* as Tint: the identifier may carry a template list and call arguments (the checker
         * rejects a call as an assignment target) */
        e = template_elaborated_ident(p);
        if (is(p, TOK_LPAREN)) {
            ast_list args = argument_list(p, "function call");
            uint32_t c = node(p, AST_CALL, from(p, start));
            N(c)->u.call.callee = e;
            N(c)->u.call.args = args;
            e = c;
        }
    } else {
        return 0;
    }
    return postfix(p, e, start);
}

/* variable_updating_statement : assignment_statement | increment_statement | decrement_statement
 * assignment_statement : lhs_expression ( '=' | compound_assignment_operator ) expression
 *   | '_' '=' expression
 * increment_statement : lhs_expression '++'     decrement_statement : lhs_expression '--' */
static uint32_t variable_updating_statement(parser *p) {
    token *t = peek(p);
    uint32_t start = t->sp.off;
    if (t->kind == TOK_UNDERSCORE) {
        advance(p);
        expect(p, TOK_EQUAL, "assignment");
        uint32_t rhs = expression(p);
        if (!rhs) fail_at(p, peek(p)->sp, "unable to parse right side of assignment");
        uint32_t h = node(p, AST_ASSIGN, from(p, start));
        N(h)->u.assign.rhs = rhs;
        return h;
    }
    uint32_t lhs = lhs_expression(p);
    if (!lhs) return 0;
    return update_rest(p, lhs, start);
}

/* The rest of a variable_updating_statement after its lhs_expression. */
static uint32_t update_rest(parser *p, uint32_t lhs, uint32_t start) {
    token *op = peek(p);
    if (op->kind == TOK_PLUS_PLUS || op->kind == TOK_MINUS_MINUS) {
        advance(p);
        uint32_t h = node(p, op->kind == TOK_PLUS_PLUS ? AST_INCR : AST_DECR, from(p, start));
        N(h)->u.assign.lhs = lhs;
        return h;
    }
    ast_op aop;
    switch (op->kind) {
    case TOK_EQUAL: aop = AST_OP_NONE; break;
    case TOK_PLUS_EQ: aop = AST_OP_ADD; break;
    case TOK_MINUS_EQ: aop = AST_OP_SUB; break;
    case TOK_STAR_EQ: aop = AST_OP_MUL; break;
    case TOK_SLASH_EQ: aop = AST_OP_DIV; break;
    case TOK_PERCENT_EQ: aop = AST_OP_MOD; break;
    case TOK_AND_EQ: aop = AST_OP_AND; break;
    case TOK_OR_EQ: aop = AST_OP_OR; break;
    case TOK_XOR_EQ: aop = AST_OP_XOR; break;
    case TOK_SHR_EQ: aop = AST_OP_SHR; break;
    case TOK_SHL_EQ: aop = AST_OP_SHL; break;
    default: fail_expected(p, "'='", "assignment");
    }
    advance(p);
    uint32_t rhs = expression(p);
    if (!rhs) fail_at(p, peek(p)->sp, "unable to parse right side of assignment");
    uint32_t h = node(p, AST_ASSIGN, from(p, start));
    N(h)->op = (uint8_t)aop;
    N(h)->u.assign.lhs = lhs;
    N(h)->u.assign.rhs = rhs;
    return h;
}

/* func_call_statement : call_phrase  (only when an identifier is followed by '(' or a template list) */
static uint32_t func_call_statement(parser *p) {
    token *t = peek(p);
    if (t->kind != TOK_IDENT) return 0;
    tok_kind nk = (tok_kind)peek_n(p, 1)->kind;
    if (nk != TOK_LPAREN && nk != TOK_TEMPLATE_START) return 0;
    uint32_t start = t->sp.off;
    /* Tint reads the call as the start of an lhs_expression: `f(x)++;` is an increment (the
     * checker rejects it), `f(x);` a call statement */
    uint32_t e;
    if (nk == TOK_TEMPLATE_START) { /* `f<T>` must be called here */
        uint32_t callee = template_elaborated_ident(p);
        if (!is(p, TOK_LPAREN)) fail_expected(p, "'('", "function call");
        ast_list args = argument_list(p, "function call");
        e = node(p, AST_CALL, from(p, start));
        N(e)->u.call.callee = callee;
        N(e)->u.call.args = args;
        e = postfix(p, e, start);
    } else {
        e = lhs_expression(p);
    }
    tok_kind k = (tok_kind)peek(p)->kind;
    if (N(e)->kind != AST_CALL || k == TOK_PLUS_PLUS || k == TOK_MINUS_MINUS || k == TOK_EQUAL ||
        k == TOK_PLUS_EQ || k == TOK_MINUS_EQ || k == TOK_STAR_EQ || k == TOK_SLASH_EQ || k == TOK_PERCENT_EQ ||
        k == TOK_AND_EQ || k == TOK_OR_EQ || k == TOK_XOR_EQ || k == TOK_SHR_EQ || k == TOK_SHL_EQ)
        return update_rest(p, e, start);
    uint32_t h = node(p, AST_CALL_STMT, from(p, start));
    N(h)->u.call_stmt.call = e;
    return h;
}

/* compound_statement : attribute* '{' statement* '}' */
static uint32_t compound_statement(parser *p, ast_list attrs, const char *use) {
    token *lb = peek(p);
    if (lb->kind != TOK_LBRACE) fail_expected(p, "'{'", use);
    uint32_t start = attrs.count ? N(ast_item(p->m, attrs, 0))->sp.off : lb->sp.off;
    advance(p);
    sync_enter(p);
    const char *outer_use = p->block_use;
    p->block_use = use;
    uint32_t mark = list_begin(p);
    while (!is(p, TOK_RBRACE) && !is(p, TOK_EOF)) {
        uint32_t s = statement(p);
        if (s) list_push(p, s);
    }
    ast_list stmts = list_end(p, mark);
    expect(p, TOK_RBRACE, use);
    p->block_use = outer_use;
    sync_leave(p);
    uint32_t h = node(p, AST_BLOCK, from(p, start));
    N(h)->attrs = attrs;
    N(h)->u.block.stmts = stmts;
    return h;
}

/* if_statement : attribute* if_clause else_if_clause* else_clause?
 * if_clause : 'if' expression compound_statement
 * else_if_clause : 'else' 'if' expression compound_statement
 * else_clause : 'else' compound_statement */
static uint32_t if_statement(parser *p, ast_list attrs, uint32_t start) {
    /* an else-if chain is parsed iteratively (no nesting limit here; the checker limits chains) */
    uint32_t mark = list_begin(p);
    uint32_t els = 0;
    for (;;) {
        expect(p, TOK_KW_if, NULL);
        uint32_t cond = expression(p);
        if (!cond) fail_at(p, peek(p)->sp, "unable to parse condition expression");
        uint32_t then = compound_statement(p, attributes(p), "if statement");
        list_push(p, start);
        list_push(p, cond);
        list_push(p, then);
        if (!is(p, TOK_KW_else)) break;
        advance(p);
        if (is(p, TOK_KW_if)) {
            start = peek(p)->sp.off;
            continue;
        }
        els = compound_statement(p, attributes(p), "else statement");
        break;
    }
    uint32_t n = p->tmp.n;
    for (uint32_t i = n; i > mark; i -= 3) {
        uint32_t h = node(p, AST_IF, from(p, p->tmp.v[i - 3]));
        N(h)->u.if_.cond = p->tmp.v[i - 2];
        N(h)->u.if_.then = p->tmp.v[i - 1];
        N(h)->u.if_.else_ = els;
        els = h;
    }
    p->tmp.n = mark;
    N(els)->attrs = attrs;
    return els;
}

/* switch_statement : attribute* 'switch' expression switch_body
 * switch_body : attribute* '{' switch_clause+ '}'
 * switch_clause : case_clause | default_alone_clause
 * case_clause : 'case' case_selectors ':'? compound_statement
 * default_alone_clause : 'default' ':'? compound_statement
 * case_selectors : case_selector ( ',' case_selector )* ','?
 * case_selector : 'default' | expression */
static uint32_t switch_statement(parser *p, ast_list attrs, uint32_t start) {
    expect(p, TOK_KW_switch, NULL);
    uint32_t e = expression(p);
    if (!e) fail_at(p, peek(p)->sp, "unable to parse selector expression");
    ast_list body_attrs = attributes(p);
    expect(p, TOK_LBRACE, "switch statement");
    sync_enter(p);
    uint32_t mark = list_begin(p);
    for (;;) {
        token *t = peek(p);
        uint32_t cstart = t->sp.off;
        uint32_t smark;
        if (t->kind == TOK_KW_case) {
            advance(p);
            smark = list_begin(p);
            for (;;) {
                token *s = peek(p);
                if (s->kind == TOK_KW_default) {
                    advance(p);
                    list_push(p, node(p, AST_DEFAULT, s->sp));
                } else {
                    uint32_t se = expression(p);
                    if (!se) {
                        if (p->tmp.n == smark) fail_at(p, s->sp, "expected case selector expression or `default`");
                        break;
                    }
                    list_push(p, se);
                }
                if (!match(p, TOK_COMMA)) break;
            }
        } else if (t->kind == TOK_KW_default) {
            advance(p);
            smark = list_begin(p);
            list_push(p, node(p, AST_DEFAULT, t->sp));
        } else {
            break;
        }
        ast_list sels = list_end(p, smark);
        match(p, TOK_COLON);
        uint32_t body = compound_statement(p, attributes(p), "case statement");
        uint32_t c = node(p, AST_CASE, from(p, cstart));
        N(c)->u.case_.selectors = sels;
        N(c)->u.case_.body = body;
        list_push(p, c);
    }
    ast_list clauses = list_end(p, mark);
    if (!is(p, TOK_RBRACE)) fail_expected(p, "'}'", "switch statement");
    advance(p);
    sync_leave(p);
    uint32_t h = node(p, AST_SWITCH, from(p, start));
    N(h)->attrs = attrs;
    N(h)->u.switch_.expr = e;
    N(h)->u.switch_.clauses = clauses;
    N(h)->u.switch_.body_attrs = body_attrs;
    return h;
}

/* loop_statement : attribute* 'loop' attribute* '{' statement* continuing_statement? '}'
 * continuing_statement : 'continuing' continuing_compound_statement
 * continuing_compound_statement : attribute* '{' statement* break_if_statement? '}'
 * break_if_statement : 'break' 'if' expression ';' */
static uint32_t loop_statement(parser *p, ast_list attrs, uint32_t start) {
    expect(p, TOK_KW_loop, NULL);
    ast_list body_attrs = attributes(p);
    token *lb = peek(p);
    if (lb->kind != TOK_LBRACE) fail_expected(p, "'{'", "loop");
    advance(p);
    sync_enter(p);
    const char *outer_use = p->block_use;
    p->block_use = "loop";
    uint32_t mark = list_begin(p);
    uint32_t cont = 0;
    while (!is(p, TOK_RBRACE) && !is(p, TOK_EOF)) {
        if (is(p, TOK_KW_continuing)) {
            token *ct = advance(p);
            ast_list cattrs = attributes(p);
            token *clb = peek(p);
            if (clb->kind != TOK_LBRACE) fail_expected(p, "'{'", "");
            advance(p);
            sync_enter(p);
            p->block_use = "";
            uint32_t cmark = list_begin(p);
            while (!is(p, TOK_RBRACE) && !is(p, TOK_EOF)) {
                if (match(p, TOK_SEMICOLON)) continue;
                if (is(p, TOK_KW_break) && peek_n(p, 1)->kind == TOK_KW_if) {
                    token *bt = advance(p);
                    advance(p);
                    uint32_t c = expression(p);
                    if (!c) fail_at(p, bt->sp, "expected expression for `break-if`");   /* Tint: at `break` */
                    expect(p, TOK_SEMICOLON, "`break-if` statement");
                    uint32_t b = node(p, AST_BREAK_IF, from(p, bt->sp.off));
                    N(b)->u.ret.value = c;
                    list_push(p, b);
                    continue; /* "break-if must be the last statement" is the checker's */
                }
                uint32_t s = statement(p);
                if (s) list_push(p, s);
            }
            ast_list cst = list_end(p, cmark);
            expect(p, TOK_RBRACE, "");
            p->block_use = "loop";
            sync_leave(p);
            cont = node(p, AST_BLOCK, from(p, ct->sp.off));
            N(cont)->flags = AST_F_CONTINUING;
            N(cont)->attrs = cattrs;
            N(cont)->u.block.stmts = cst;
            break;
        }
        uint32_t s = statement(p);
        if (s) list_push(p, s);
    }
    ast_list stmts = list_end(p, mark);
    expect(p, TOK_RBRACE, "loop");
    p->block_use = outer_use;
    sync_leave(p);
    uint32_t body = node(p, AST_BLOCK, from(p, lb->sp.off));
    N(body)->u.block.stmts = stmts;
    uint32_t h = node(p, AST_LOOP, from(p, start));
    N(h)->attrs = attrs;
    N(h)->u.loop.body = body;
    N(h)->u.loop.continuing = cont;
    N(h)->u.loop.body_attrs = body_attrs;
    return h;
}

/* `++x` / `--x` where a statement could start */
static void no_prefix_incdec(parser *p) {
    token *t = peek(p);
    if (t->kind == TOK_PLUS_PLUS || t->kind == TOK_MINUS_MINUS)
        fail_at(p, t->sp, "prefix increment and decrement operators are not supported");
}

/* for_statement : attribute* 'for' '(' for_header ')' compound_statement
 * for_header : for_init? ';' expression? ';' for_update?
 * for_init : variable_or_value_statement | variable_updating_statement | func_call_statement
 * for_update : variable_updating_statement | func_call_statement */
static uint32_t for_statement(parser *p, ast_list attrs, uint32_t start) {
    expect(p, TOK_KW_for, NULL);
    expect(p, TOK_LPAREN, "for loop");
    ast_list none = { 0, 0 };
    no_prefix_incdec(p);
    uint32_t init = variable_or_value_statement(p, none);
    if (!init) init = func_call_statement(p);
    if (!init) init = variable_updating_statement(p);
    expect(p, TOK_SEMICOLON, "initializer in for loop");
    uint32_t cond = expression(p);
    expect(p, TOK_SEMICOLON, "condition in for loop");
    no_prefix_incdec(p);
    uint32_t update = func_call_statement(p);
    if (!update) update = variable_updating_statement(p);
    expect(p, TOK_RPAREN, "for loop");
    uint32_t body = compound_statement(p, attributes(p), "for loop");
    uint32_t h = node(p, AST_FOR, from(p, start));
    N(h)->attrs = attrs;
    N(h)->u.for_.init = init;
    N(h)->u.for_.cond = cond;
    N(h)->u.for_.update = update;
    N(h)->u.for_.body = body;
    return h;
}

/* while_statement : attribute* 'while' expression compound_statement */
static uint32_t while_statement(parser *p, ast_list attrs, uint32_t start) {
    expect(p, TOK_KW_while, NULL);
    uint32_t cond = expression(p);
    if (!cond) fail_at(p, peek(p)->sp, "unable to parse while condition expression");
    uint32_t body = compound_statement(p, attributes(p), "while loop");
    uint32_t h = node(p, AST_WHILE, from(p, start));
    N(h)->attrs = attrs;
    N(h)->u.while_.cond = cond;
    N(h)->u.while_.body = body;
    return h;
}

/* statement :
 *   ';' | return_statement ';' | if_statement | switch_statement | loop_statement
 * | for_statement | while_statement | func_call_statement ';' | variable_or_value_statement ';'
 * | break_statement ';' | continue_statement ';' | 'discard' ';'
 * | variable_updating_statement ';' | compound_statement | const_assert_statement ';'
 * Returns 0 for the empty statement. */
static uint32_t statement(parser *p) {
    while (match(p, TOK_SEMICOLON)) {
    }
    token *t = peek(p);
    uint32_t start = t->sp.off;
    ast_list attrs = attributes(p);
    t = peek(p);
    switch (t->kind) {
    case TOK_LBRACE: return compound_statement(p, attrs, "block statement");
    case TOK_KW_if: return if_statement(p, attrs, start);
    case TOK_KW_switch: return switch_statement(p, attrs, start);
    case TOK_KW_loop: return loop_statement(p, attrs, start);
    case TOK_KW_for: return for_statement(p, attrs, start);
    case TOK_KW_while: return while_statement(p, attrs, start);
    default: break;
    }
    uint32_t h = statement_no_attrs(p, t, attrs.count ? t->sp.off : start);
    if (attrs.count) {
        /* Tint parses the statement first, then rejects the attributes (at the first one's name) */
        ast_node *a0 = N(ast_item(p->m, attrs, 0));
        fail_at(p, span_make(a0->sp.off + 1, 0), "unexpected attributes");
    }
    if (!h && !is(p, TOK_RBRACE) && !is(p, TOK_EOF)) fail_expected(p, "'}'", p->block_use);
    return h;
}

/* The statements that take no attributes; 0 when none matches (the caller reports). */
static uint32_t statement_no_attrs(parser *p, token *t, uint32_t start) {
    uint32_t h = 0;
    no_prefix_incdec(p);
    if (t->kind == TOK_IDENT && peek_n(p, 1)->kind == TOK_COLON)
        fail_at(p, t->sp, "expected 'var' for variable declaration");
    switch (t->kind) {
    case TOK_RBRACE: case TOK_EOF:
        return 0;
    case TOK_KW_return: {
        advance(p);
        uint32_t v = expression(p);
        expect(p, TOK_SEMICOLON, "return statement");
        h = node(p, AST_RETURN, from(p, start));
        N(h)->u.ret.value = v;
        return h;
    }
    case TOK_KW_break:
        advance(p);
        expect(p, TOK_SEMICOLON, "break statement");
        return node(p, AST_BREAK, from(p, start));
    case TOK_KW_continue:
        advance(p);
        expect(p, TOK_SEMICOLON, "continue statement");
        return node(p, AST_CONTINUE, from(p, start));
    case TOK_KW_discard:
        advance(p);
        expect(p, TOK_SEMICOLON, "discard statement");
        return node(p, AST_DISCARD, from(p, start));
    case TOK_KW_const_assert: {
        advance(p);
        uint32_t v = expression(p);
        if (!v) fail_at(p, peek(p)->sp, "unable to parse condition expression");
        expect(p, TOK_SEMICOLON, "statement");
        h = node(p, AST_CONST_ASSERT, from(p, start));
        N(h)->u.ret.value = v;
        return h;
    }
    case TOK_KW_var: case TOK_KW_let: case TOK_KW_const: {
        ast_list none = { 0, 0 };
        h = variable_or_value_statement(p, none);
        expect(p, TOK_SEMICOLON, "variable declaration");
        return h;
    }
    default:
        break;
    }
    h = func_call_statement(p);
    if (!h) h = variable_updating_statement(p);
    if (h && N(h)->kind == AST_CALL_STMT) {
        expect(p, TOK_SEMICOLON, "function call");
        return h;
    }
    if (h) {
        ast_kind k = (ast_kind)N(h)->kind;
        expect(p, TOK_SEMICOLON, k == AST_ASSIGN && N(h)->op == AST_OP_NONE ? "assignment statement" : "statement");
        return h;
    }
    return 0;
}

/* ---- global declarations ---- */

/* struct_decl : 'struct' ident struct_body_decl
 * struct_body_decl : '{' struct_member ( ',' struct_member )* ','? '}'
 * struct_member : attribute* member_ident ':' type_specifier */
/* attribute* ident ':' type_specifier, the attributes already read: a struct member or a function
 * parameter (kind), its span from the first attribute or the name. */
static uint32_t typed_name(parser *p, ast_list attrs, ast_kind kind, const char *what) {
    uint32_t start = attrs.count ? N(ast_item(p->m, attrs, 0))->sp.off : peek(p)->sp.off;
    token *id = expect_ident(p, what);
    expect(p, TOK_COLON, what);
    uint32_t ty = type_specifier(p, what);
    uint32_t n = node(p, kind, from(p, start));
    N(n)->attrs = attrs;
    N(n)->u.param.name = id->ident;
    N(n)->u.param.name_off = id->sp.off;
    N(n)->u.param.type = ty;
    return n;
}

static uint32_t struct_decl(parser *p, uint32_t start) {
    expect(p, TOK_KW_struct, NULL);
    token *id = expect_ident(p, "struct declaration");
    expect(p, TOK_LBRACE, "struct declaration");
    uint32_t mark = list_begin(p);
    while (is(p, TOK_IDENT) || is(p, TOK_ATTR)) {
        ast_list attrs = attributes(p);
        list_push(p, typed_name(p, attrs, AST_MEMBER_DECL, "struct member"));
        if (!match(p, TOK_COMMA)) break;
    }
    ast_list members = list_end(p, mark);
    expect(p, TOK_RBRACE, "struct declaration");
    /* an empty struct is reported after the whole parse (check_limits), as Tint does */
    uint32_t h = node(p, AST_STRUCT, from(p, start));
    N(h)->u.struct_.name = id->ident;
    N(h)->u.struct_.name_off = id->sp.off;
    N(h)->u.struct_.members = members;
    return h;
}

/* function_decl : attribute* function_header compound_statement
 * function_header : 'fn' ident '(' param_list? ')' ( '->' attribute* template_elaborated_ident )?
 * param_list : param ( ',' param )* ','?
 * param : attribute* ident ':' type_specifier */
static uint32_t function_decl(parser *p, ast_list attrs, uint32_t start) {
    expect(p, TOK_KW_fn, NULL);
    token *id = expect_ident(p, "function declaration");
    expect(p, TOK_LPAREN, "function declaration");
    uint32_t mark = list_begin(p);
    while (!is(p, TOK_RPAREN)) {
        ast_list pattrs = attributes(p);
        token *pt = peek(p);
        if (pt->kind != TOK_IDENT) {
            if (pattrs.count) fail_expected(p, "identifier", "parameter");
            break;
        }
        list_push(p, typed_name(p, pattrs, AST_PARAM, "parameter"));
        if (!match(p, TOK_COMMA)) break;
    }
    ast_list params = list_end(p, mark);
    expect(p, TOK_RPAREN, "function declaration");
    uint32_t ret = 0;
    ast_list rattrs = { 0, 0 };
    if (match(p, TOK_ARROW)) {
        rattrs = attributes(p);
        ret = template_elaborated_ident_in(p, 1);
        if (!ret) fail_raw(p, peek(p)->sp, "unable to determine function return type"); /* even at a bad token */
    }
    uint32_t body = compound_statement(p, attributes(p), "function body");
    uint32_t h = node(p, AST_FN, from(p, start));
    N(h)->attrs = attrs;
    N(h)->u.fn.name = id->ident;
    N(h)->u.fn.name_off = id->sp.off;
    N(h)->u.fn.params = params;
    N(h)->u.fn.ret_type = ret;
    N(h)->u.fn.ret_attrs = rattrs;
    N(h)->u.fn.body = body;
    return h;
}

/* Does a statement parse at the current token?  (For Tint's "statement found outside of function
 * body".)  Everything the attempt did is undone: position, nodes, lists, diagnostics. */
static int parses_as_statement(parser *p) {
    jmp_buf saved;
    memcpy(&saved, &p->fail, sizeof saved);
    uint32_t pos = p->pos, prev_end = p->prev_end, tmp_n = p->tmp.n, nodes = p->m->node_count;
    uint32_t items = p->m->item_count, ndiags = p->cc->diags.n, nerr = p->cc->error_count;
    uint32_t sync = p->sync, ld = p->lhs_depth;
    int last_recorded = p->cc->last_recorded;
    volatile int ok = 0;
    if (setjmp(p->fail) == 0) {
        p->sync = 2;
        ok = statement(p) != 0;
    }
    memcpy(&p->fail, &saved, sizeof saved);
    p->pos = pos; p->prev_end = prev_end; p->tmp.n = tmp_n; p->m->node_count = nodes;
    p->m->item_count = items; p->cc->diags.n = ndiags; p->cc->error_count = nerr;
    p->sync = sync; p->lhs_depth = ld;
    p->cc->last_recorded = last_recorded;
    return ok;
}

static uint32_t global_directive(parser *p);

/* global_decl : global_variable_decl ';' | global_value_decl ';' | type_alias_decl ';'
 *   | struct_decl | function_decl
 * global_variable_decl : attribute* variable_decl ( '=' expression )?
 * global_value_decl : 'const' optionally_typed_ident '=' expression
 *   | attribute* 'override' optionally_typed_ident ( '=' expression )?
 * type_alias_decl : 'alias' ident '=' type_specifier
 * global_assert : const_assert ';' */
/* A declaration that takes no attributes: Tint parses it, then rejects them at the first one's name. */
static void no_attrs(parser *p, ast_list attrs) {
    if (attrs.count) fail_at(p, span_make(N(ast_item(p->m, attrs, 0))->sp.off + 1, 0), "unexpected attributes");
}

static uint32_t global_decl(parser *p) {
    p->sync = 1;
    token *t0 = peek(p);
    uint32_t start = t0->sp.off;
    ast_list attrs = attributes(p);
    token *t = peek(p);
    uint32_t h;
    switch (t->kind) {
    case TOK_KW_fn:
        return function_decl(p, attrs, start);
    case TOK_KW_var: {
        advance(p);
        h = node(p, AST_VAR, span_make(start, 0));
        ast_list templ = var_template_list(p);
        N(h)->u.var.templ = templ;
        N(h)->attrs = attrs;
        optionally_typed_ident(p, h, "variable declaration");
        if (match(p, TOK_EQUAL)) {
            uint32_t init = expression(p);
            if (!init) fail_at(p, peek(p)->sp, "missing initializer for 'var' declaration");
            N(h)->u.var.init = init;
        }
        expect(p, TOK_SEMICOLON, "variable declaration");
        N(h)->sp = from(p, start);
        return h;
    }
    case TOK_KW_override: case TOK_KW_const: {
        int is_const = t->kind == TOK_KW_const;
        advance(p);
        h = node(p, is_const ? AST_CONST : AST_OVERRIDE, span_make(start, 0));
        N(h)->attrs = attrs;
        const char *use = is_const ? "'const' declaration" : "'override' declaration";
        optionally_typed_ident(p, h, use);
        if (match(p, TOK_EQUAL)) {
            uint32_t init = expression(p);
            if (!init) fail_at(p, peek(p)->sp, "missing initializer for %s", use);
            N(h)->u.var.init = init;
        } else if (is_const) {
            fail_expected(p, "'='", use);
        }
        expect(p, TOK_SEMICOLON, use);
        N(h)->sp = from(p, start);
        return h;
    }
    case TOK_KW_let:
        fail_at(p, t->sp, "module-scope 'let' is invalid, use 'const'");
    case TOK_KW_alias: {
        advance(p);
        token *id = expect_ident(p, "type alias");
        expect(p, TOK_EQUAL, "type alias");
        uint32_t ty = template_elaborated_ident_in(p, 1);
        if (!ty) fail_at(p, peek(p)->sp, "invalid type alias");
        expect(p, TOK_SEMICOLON, "type alias");
        h = node(p, AST_ALIAS, from(p, start));
        N(h)->attrs = attrs;
        N(h)->u.alias.name = id->ident;
        N(h)->u.alias.name_off = id->sp.off;
        N(h)->u.alias.type = ty;
        no_attrs(p, attrs);
        return h;
    }
    case TOK_KW_struct:
        h = struct_decl(p, start);
        N(h)->attrs = attrs;
        no_attrs(p, attrs);
        return h;
    case TOK_KW_const_assert: {
        advance(p);
        uint32_t v = expression(p);
        if (!v) fail_at(p, peek(p)->sp, "unable to parse condition expression");
        expect(p, TOK_SEMICOLON, "const assertion declaration");
        h = node(p, AST_CONST_ASSERT, from(p, start));
        N(h)->attrs = attrs;
        N(h)->u.ret.value = v;
        no_attrs(p, attrs);
        return h;
    }
    case TOK_KW_enable: case TOK_KW_requires: case TOK_KW_diagnostic:
        if (!attrs.count) {
            global_directive(p); /* its own errors (unknown extension, ...) come first, as in Tint */
            fail_at(p, t->sp, "directives must come before all global declarations");
        }
        break;
    default:
        break;
    }
    if (attrs.count) fail_raw(p, t->sp, "expected declaration after attributes");
    if (parses_as_statement(p)) fail_at(p, t->sp, "statement found outside of function body");
    fail_at(p, t->sp, "unexpected token");
}

/* Extensions `enable` accepts (those of Tint's list a browser allows) and language features
 * `requires` accepts (spec "Language Extensions"). */
static const char *const extensions[] = {
    "atomic_vec2u_min_max", "clip_distances", "dual_source_blending", "f16", "primitive_index",
    "subgroup_size_control", "subgroups", "view_instancing", NULL,
};
/* Accepted though Tint allows them only with allow_unsafe_apis: wgc is not a browser, and the
 * runtime rejects a module whose device lacks the feature (check.c, opt.no_subgroup_matrix). */
static const char *const extensions_unsafe[] = { "chromium_experimental_subgroup_matrix", "wgc_workgroup_matrix", NULL };
static const char *const all_extensions[] = { /* listed when the name looks like a chromium one */
    "atomic_vec2u_min_max", "chromium_disable_uniformity_analysis", "chromium_experimental_barycentric_coord",
    "chromium_experimental_framebuffer_fetch", "chromium_experimental_pixel_local",
    "chromium_experimental_resource_table", "chromium_experimental_subgroup_matrix",
    "chromium_internal_input_attachments", "clip_distances", "dual_source_blending", "f16", "primitive_index",
    "subgroup_size_control", "subgroups", "view_instancing", NULL,
};
static const char *const extensions_not_allowed[] = {
    "chromium_disable_uniformity_analysis", "chromium_experimental_barycentric_coord",
    "chromium_experimental_framebuffer_fetch", "chromium_experimental_pixel_local",
    "chromium_experimental_resource_table", "chromium_experimental_subgroup_matrix",
    "chromium_internal_input_attachments", NULL,
};
static const char *const language_features[] = {
    "linear_indexing", "packed_4x8_integer_dot_product", "pointer_composite_access",
    "readonly_and_readwrite_storage_textures", "subgroup_id", "swizzle_assignment",
    "uniform_buffer_standard_layout", "unrestricted_pointer_parameters", NULL,
};
static const char *const language_features_not_allowed[] = { "texel_buffers", NULL };

/* global_directive : diagnostic_directive | enable_directive | requires_directive
 * enable_directive : 'enable' enable_extension_list ';'
 * requires_directive : 'requires' software_extension_list ';'
 * diagnostic_directive : 'diagnostic' diagnostic_control ';' */
static uint32_t global_directive(parser *p) {
    p->sync = 1;
    token *t = peek(p);
    uint32_t start = t->sp.off;
    if (t->kind == TOK_KW_diagnostic) {
        advance(p);
        uint32_t h = diagnostic_control(p, start);
        expect(p, TOK_SEMICOLON, "diagnostic directive");
        N(h)->sp = from(p, start);
        return h;
    }
    if (t->kind != TOK_KW_enable && t->kind != TOK_KW_requires) return 0;
    int en = t->kind == TOK_KW_enable;
    advance(p);
    uint32_t mark = list_begin(p);
    for (;;) {
        token *n = peek(p);
        if (n->kind != TOK_IDENT) {
            if (p->tmp.n == mark || !is(p, TOK_SEMICOLON)) {
                if (en) fail_enum(p, n->sp, "extension", "", extensions);
                fail_at(p, n->sp, "invalid feature name for requires");
            }
            break;
        }
        const char *nm_s = cc_str(p->cc, n->ident);
        if (en && !in_list(nm_s, extensions) && !in_list(nm_s, extensions_unsafe)) {
            if (in_list(nm_s, extensions_not_allowed))
                fail_at(p, n->sp, "extension '%s' is not allowed in the current environment", nm_s);
            fail_enum(p, n->sp, "extension", nm_s, strncmp(nm_s, "chromium", 8) ? extensions : all_extensions);
        }
        if (!en && !in_list(nm_s, language_features)) {
            if (in_list(nm_s, language_features_not_allowed))
                fail_at(p, span_make(start, 0), "language feature '%s' is not allowed in the current environment", nm_s);
            fail_at(p, n->sp, "feature '%s' is not supported", nm_s);
        }
        advance(p);
        uint32_t nm = node(p, AST_NAME, n->sp);
        N(nm)->u.name.name = n->ident;
        list_push(p, nm);
        if (!match(p, TOK_COMMA)) break;
    }
    ast_list names = list_end(p, mark);
    expect(p, TOK_SEMICOLON, en ? "enable directive" : "requires directive");
    uint32_t h = node(p, en ? AST_ENABLE : AST_REQUIRES, from(p, start));
    N(h)->u.names.names = names;
    return h;
}

/* translation_unit : global_directive* ( global_decl | global_assert | ';' ) * */
static int starts_global_decl(tok_kind k) {
    return k == TOK_KW_fn || k == TOK_KW_var || k == TOK_KW_const || k == TOK_KW_override || k == TOK_KW_struct ||
           k == TOK_KW_alias || k == TOK_KW_const_assert || k == TOK_ATTR || k == TOK_KW_enable ||
           k == TOK_KW_requires || k == TOK_KW_diagnostic;
}

/* After a syntax error in the global declaration that started at token `from`: skip to the next
 * token that can start a global declaration outside any brackets (counting them from the
 * declaration's start), so that the errors of later declarations are reported too, as Tint does. */
static void resync(parser *p, uint32_t from) {
    int depth = 0;
    uint32_t i = from;
    for (; i < p->pos && i < p->n; i++) {
        tok_kind k = (tok_kind)p->t[i].kind;
        if (k == TOK_LBRACE || k == TOK_LPAREN || k == TOK_LBRACKET) depth++;
        else if (k == TOK_RBRACE || k == TOK_RPAREN || k == TOK_RBRACKET) depth--;
    }
    if (i == from) i++; /* always make progress */
    for (; i < p->n; i++) {
        tok_kind k = (tok_kind)p->t[i].kind;
        if (k == TOK_EOF || k == TOK_ERROR) break;
        if (depth <= 0 && starts_global_decl(k) && i > from) break;
        if (k == TOK_LBRACE || k == TOK_LPAREN || k == TOK_LBRACKET) depth++;
        else if (k == TOK_RBRACE || k == TOK_RPAREN || k == TOK_RBRACKET) depth--;
    }
    p->pos = i < p->n ? i : p->n - 1;
}

/* translation_unit : global_directive* ( global_decl | global_assert | ';' ) *
 * A syntax error ends its declaration; parsing resumes at the next declaration (resync), so one
 * run reports the first error of each broken declaration.  The AST is then incomplete and only
 * the errors count. */
static void translation_unit(parser *p) {
    uint32_t mark = list_begin(p);
    for (;;) {
        uint32_t d = global_directive(p);
        if (!d) break;
        list_push(p, d);
    }
    p->m->directives = list_end(p, mark);
    volatile uint32_t decl_mark = list_begin(p); /* lives across the setjmp below */
    uint32_t max_errors = p->cc->opt.max_errors ? p->cc->opt.max_errors : 64;
    jmp_buf outer;
    memcpy(&outer, &p->fail, sizeof outer);
    while (!is(p, TOK_EOF)) {
        if (match(p, TOK_SEMICOLON)) continue;
        uint32_t from = p->pos, tmp_n = p->tmp.n;
        if (setjmp(p->fail) == 0) {
            uint32_t d = global_decl(p);
            list_push(p, d);
            continue;
        }
        /* a syntax error in this declaration (already reported) */
        p->tmp.n = tmp_n;
        p->sync = 1;
        p->lhs_depth = 0;
        p->block_use = NULL;
        p->first_op = NULL;
        if (p->cc->error_count >= max_errors || p->t[p->pos < p->n ? p->pos : p->n - 1].kind == TOK_ERROR) break;
        resync(p, from);
    }
    memcpy(&p->fail, &outer, sizeof outer);
    p->m->decls = list_end(p, decl_mark);
}

/* ---- limits Tint checks after parsing (its resolver), checked here on the finished AST so that
 * later phases can recurse without overflowing the stack ----
 * - expression depth: an expression tree is walked right-to-left, the root at depth 0; the first
 *   node deeper than 512 is "reached max expression depth of 512".
 * - statement nesting: a function body is level 1, a statement one more than its block, a block
 *   one more than its statement (two for a case body), an else-if one more than the if it follows,
 *   a continuing block two more than its loop; the first beyond 127
 *   is "statement nesting depth / chaining length exceeds limit of 127".
 * Both walks use explicit stacks (else-if chains and expression chains can be 10^6 long). */
#define MAX_EXPR_DEPTH 512
#define MAX_STMT_DEPTH 127


static void check_expr_depth(parser *p, uint32_t root) {
    if (!root) return;
    ast_node *r = N(root);
    if (r->kind == AST_IDENT && !r->u.ident.templ.count) return; /* the common leaf cases */
    if (r->kind == AST_LIT_INT || r->kind == AST_LIT_FLOAT || r->kind == AST_LIT_BOOL) return;
    p->walk.n = 0; /* one stack for the whole walk */
    walk_item w0 = { root, 0 };
    ARR_PUSH(&p->cc->arena, p->walk, w0);
    while (p->walk.n) {
        walk_item w = p->walk.v[--p->walk.n];
        ast_node *e = N(w.node);
        if (w.depth > MAX_EXPR_DEPTH) fail_at(p, e->sp, "reached max expression depth of %d", MAX_EXPR_DEPTH);
        uint32_t kids[2] = { 0, 0 };
        ast_list more = { 0, 0 };
        switch (e->kind) {
        case AST_BINARY: kids[0] = e->u.binary.lhs; kids[1] = e->u.binary.rhs; break;
        case AST_INDEX: kids[0] = e->u.index.base; kids[1] = e->u.index.index; break;
        case AST_MEMBER: kids[0] = e->u.member.base; break;
        case AST_UNARY: kids[0] = e->u.unary.operand; break;
        case AST_CALL: kids[0] = e->u.call.callee; more = e->u.call.args; break;
        case AST_IDENT: more = e->u.ident.templ; break;
        default: break;
        }
        /* pushed left to right, so the rightmost is visited first */
        for (int k = 0; k < 2; k++)
            if (kids[k]) { walk_item c = { kids[k], w.depth + 1 }; ARR_PUSH(&p->cc->arena, p->walk, c); }
        for (uint32_t k = 0; k < more.count; k++) {
            walk_item c = { ast_item(p->m, more, k), w.depth + 1 };
            ARR_PUSH(&p->cc->arena, p->walk, c);
        }
    }
}

static void check_attr_exprs(parser *p, ast_list attrs) {
    for (uint32_t i = 0; i < attrs.count; i++) {
        ast_node *a = N(ast_item(p->m, attrs, i));
        if (a->op == AST_ATTR_diagnostic) continue;
        for (uint32_t k = 0; k < a->u.attr.args.count; k++) check_expr_depth(p, ast_item(p->m, a->u.attr.args, k));
    }
}

static void stmt_too_deep(parser *p, uint32_t h) {
    ast_node *n = N(h);
    span sp = n->sp;
    if (n->kind == AST_IF) sp.len = 2; /* the keyword, as Tint */
    if (n->kind == AST_SWITCH) sp.len = 6;
    fail_at(p, sp, "statement nesting depth / chaining length exceeds limit of %d", MAX_STMT_DEPTH);
}

static void walk_block(parser *p, uint32_t b, uint32_t depth);

/* A statement at nesting level `depth` (recursion is bounded by the parser's block limit; else-if
 * chains are followed iteratively). */
static void walk_stmt(parser *p, uint32_t h, uint32_t depth) {
    for (;;) {
        if (!h) return;
        ast_node *n = N(h);
        if (depth > MAX_STMT_DEPTH) stmt_too_deep(p, h);
        check_attr_exprs(p, n->attrs);
        switch (n->kind) {
        case AST_BLOCK: {
            ast_list l = n->u.block.stmts;
            for (uint32_t i = 0; i < l.count; i++) walk_stmt(p, ast_item(p->m, l, i), depth + 1);
            return;
        }
        case AST_IF: {
            check_expr_depth(p, n->u.if_.cond);
            walk_block(p, n->u.if_.then, depth + 1);
            uint32_t e = n->u.if_.else_;
            if (e && N(e)->kind == AST_IF) { h = e; depth++; continue; }
            walk_block(p, e, depth + 1);
            return;
        }
        case AST_SWITCH: {
            check_expr_depth(p, n->u.switch_.expr);
            ast_list cl = n->u.switch_.clauses;
            for (uint32_t i = 0; i < cl.count; i++) {
                ast_node *c = N(ast_item(p->m, cl, i));
                for (uint32_t k = 0; k < c->u.case_.selectors.count; k++)
                    check_expr_depth(p, ast_item(p->m, c->u.case_.selectors, k));
                walk_block(p, c->u.case_.body, depth + 2); /* the case clause is a level too */
            }
            return;
        }
        case AST_LOOP:
            walk_block(p, n->u.loop.body, depth + 1);
            walk_block(p, n->u.loop.continuing, depth + 2);
            return;
        case AST_FOR:
            walk_stmt(p, n->u.for_.init, depth + 1);
            check_expr_depth(p, n->u.for_.cond);
            walk_stmt(p, n->u.for_.update, depth + 1);
            walk_block(p, n->u.for_.body, depth + 1);
            return;
        case AST_WHILE:
            check_expr_depth(p, n->u.while_.cond);
            walk_block(p, n->u.while_.body, depth + 1);
            return;
        case AST_RETURN: case AST_BREAK_IF: case AST_CONST_ASSERT:
            check_expr_depth(p, n->u.ret.value);
            return;
        case AST_CALL_STMT:
            check_expr_depth(p, n->u.call_stmt.call);
            return;
        case AST_ASSIGN: case AST_INCR: case AST_DECR:
            check_expr_depth(p, n->u.assign.lhs);
            check_expr_depth(p, n->u.assign.rhs);
            return;
        case AST_VAR: case AST_LET: case AST_CONST: case AST_OVERRIDE:
            for (uint32_t k = 0; k < n->u.var.templ.count; k++) check_expr_depth(p, ast_item(p->m, n->u.var.templ, k));
            check_expr_depth(p, n->u.var.type);
            check_expr_depth(p, n->u.var.init);
            return;
        default:
            return;
        }
    }
}

static void walk_block(parser *p, uint32_t b, uint32_t depth) {
    if (!b) return;
    if (depth > MAX_STMT_DEPTH) stmt_too_deep(p, b);
    walk_stmt(p, b, depth);
}

static void check_limits(parser *p) {
    ast_list decls = p->m->decls;
    for (uint32_t i = 0; i < decls.count; i++) {
        uint32_t h = ast_item(p->m, decls, i);
        ast_node *d = N(h);
        check_attr_exprs(p, d->attrs);
        switch (d->kind) {
        case AST_FN: {
            for (uint32_t k = 0; k < d->u.fn.params.count; k++) {
                ast_node *prm = N(ast_item(p->m, d->u.fn.params, k));
                check_attr_exprs(p, prm->attrs);
                check_expr_depth(p, prm->u.param.type);
            }
            check_attr_exprs(p, d->u.fn.ret_attrs);
            check_expr_depth(p, d->u.fn.ret_type);
            /* the body block is level 1, its statements level 2 */
            ast_node *body = N(d->u.fn.body);
            check_attr_exprs(p, body->attrs);
            for (uint32_t k = 0; k < body->u.block.stmts.count; k++)
                walk_stmt(p, ast_item(p->m, body->u.block.stmts, k), 2);
            break;
        }
        case AST_STRUCT:
            if (!d->u.struct_.members.count)
                fail_at(p, span_make(d->u.struct_.name_off, arena_strlen(&p->cc->arena, d->u.struct_.name)),
                        "structures must have at least one member");
            for (uint32_t k = 0; k < d->u.struct_.members.count; k++) {
                ast_node *m = N(ast_item(p->m, d->u.struct_.members, k));
                check_attr_exprs(p, m->attrs);
                check_expr_depth(p, m->u.param.type);
            }
            break;
        case AST_ALIAS:
            check_expr_depth(p, d->u.alias.type);
            break;
        default:
            walk_stmt(p, h, 1); /* var / const / override / const_assert: expressions only */
            break;
        }
    }
}

int wgsl_parse(wgsl_cc *cc) {
    token_list toks;
    memset(&toks, 0, sizeof toks);
    lex_source(cc, &toks);
    parser *p = arena_alloc(&cc->arena, sizeof *p);
    p->cc = cc;
    p->m = &cc->ast;
    p->t = toks.v;
    p->n = toks.n;
    p->max_depth = cc->opt.max_nesting ? cc->opt.max_nesting : 128;
    if (p->max_depth > WGSL_MAX_NESTING) p->max_depth = WGSL_MAX_NESTING; /* a larger one would overflow the stack */
    memset(p->m, 0, sizeof *p->m);
    /* nodes and list items never outnumber tokens by much: reserve once instead of growing */
    arena_grow(&cc->arena, (void **)&p->m->nodes, &p->m->node_cap, sizeof *p->m->nodes, toks.n + 16);
    arena_grow(&cc->arena, (void **)&p->m->items, &p->m->item_cap, sizeof *p->m->items, toks.n / 2 + 16);
    ARR_RESERVE(&cc->arena, p->tmp, 256);
    node(p, AST_NONE, span_make(0, 0)); /* handle 0 */
    uint32_t errs = cc->error_count;
    if (setjmp(p->fail) == 0) {
        translation_unit(p);
        if (cc->error_count == errs) check_limits(p);
    }
    return cc->error_count != errs;
}
