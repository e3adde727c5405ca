/* ast.h - the syntax tree the parser builds and the checker reads.
 *
 * All nodes live in one array (ast_module.nodes) and refer to each other by uint32_t handles;
 * handle 0 is "none" (nodes[0] is a dummy).  Every node has a kind, a span covering its source
 * text and a list of attributes (empty for most).  Lists of handles (arguments, statements,
 * members, ...) are slices of ast_module.items: ast_list {start, count}.  Identifiers are
 * interned ids (arena_str(&cc->arena, id) gives the text); named nodes also keep the byte
 * offset of the name (its length is arena_strlen) so messages can point at it.
 *
 * Types are expressions: `array<f32, 4>`, `vec3<f32>`, `ptr<storage, u32, read>` all parse as
 * AST_IDENT with a template list of expressions (spec: type_specifier = template_elaborated_ident);
 * the checker decides what an identifier denotes (value, type, enumerant like `storage`/`read`).
 * A call `vec3<f32>(1.0)` / `f(x)` is AST_CALL whose callee is such an AST_IDENT.  Parentheses
 * leave no node.  The module keeps directives and global declarations in source order. */
#ifndef WGSL_AST_H
#define WGSL_AST_H

#include <stdint.h>

#include "wgsl/diag.h"

/* Node kinds: X(name, description-for-messages) */
#define AST_KINDS(X)                                              \
    X(NONE, "nothing")                                            \
    /* expressions */                                             \
    X(IDENT, "identifier")       /* ident: name [templ] */        \
    X(LIT_INT, "integer literal")  /* lit.i, op = ast_suffix */   \
    X(LIT_FLOAT, "float literal")  /* lit.f, op = ast_suffix */   \
    X(LIT_BOOL, "bool literal")    /* lit.i = 0/1 */              \
    X(CALL, "call")              /* call: callee (IDENT), args */ \
    X(INDEX, "index")            /* index: base, index */         \
    X(MEMBER, "member access")   /* member: base, name, name_off (field or swizzle) */ \
    X(UNARY, "unary expression") /* unary: operand; op = ast_op */ \
    X(BINARY, "binary expression") /* binary: lhs, rhs; op = ast_op */ \
    /* statements */                                              \
    X(BLOCK, "compound statement") /* block: stmts; attrs */      \
    X(RETURN, "return statement")  /* ret: value (0 = none) */    \
    X(IF, "if statement")        /* if_: cond, then (BLOCK), else_ (BLOCK or IF or 0); attrs */ \
    X(SWITCH, "switch statement") /* switch_: expr, clauses (CASE), body_attrs; attrs */ \
    X(CASE, "case clause")       /* case_: selectors (exprs / AST_DEFAULT), body (BLOCK) */ \
    X(DEFAULT, "default selector") /* no payload: `default` in a case selector list */ \
    X(LOOP, "loop statement")    /* loop: body (BLOCK), continuing (BLOCK, flags AST_F_CONTINUING, or 0), body_attrs; attrs */ \
    X(FOR, "for statement")      /* for_: init, cond, update, body; attrs */ \
    X(WHILE, "while statement")  /* while_: cond, body; attrs */  \
    X(BREAK, "break statement")                                   \
    X(BREAK_IF, "break-if statement") /* ret.value = condition; parsed anywhere directly in a continuing block (the checker requires it last) */ \
    X(CONTINUE, "continue statement")                             \
    X(DISCARD, "discard statement")                               \
    X(CALL_STMT, "function call statement") /* call_stmt: call (CALL) */ \
    X(ASSIGN, "assignment")      /* assign: lhs (0 = phony `_`), rhs; op = AST_OP_NONE for `=`, else the compound op */ \
    X(INCR, "increment statement") /* assign.lhs */              \
    X(DECR, "decrement statement") /* assign.lhs */              \
    /* declarations (also statements: VAR, LET, CONST, CONST_ASSERT) */ \
    X(VAR, "variable declaration") /* var: name, name_off, templ (address space, access), type, init; attrs */ \
    X(LET, "let declaration")    /* var: name, name_off, type, init */ \
    X(CONST, "const declaration") /* var: name, name_off, type, init */ \
    X(OVERRIDE, "override declaration") /* var: name, name_off, type, init; attrs */ \
    X(CONST_ASSERT, "const assertion") /* ret.value = the condition */ \
    X(ALIAS, "type alias")       /* alias: name, name_off, type */ \
    X(STRUCT, "struct declaration") /* struct_: name, name_off, members (MEMBER_DECL) */ \
    X(MEMBER_DECL, "struct member") /* param: name, name_off, type; attrs */ \
    X(FN, "function declaration") /* fn: name, name_off, params (PARAM), ret_type, ret_attrs, body; attrs */ \
    X(PARAM, "parameter")        /* param: name, name_off, type; attrs */ \
    /* directives */                                              \
    X(ENABLE, "enable directive") /* names: list of NAME */        \
    X(REQUIRES, "requires directive") /* names: list of NAME */   \
    X(DIAGNOSTIC, "diagnostic directive") /* diag: severity, rule, rule2 (offsets) */ \
    X(NAME, "name")              /* name: name (a bare name: extension, ...) */ \
    /* attributes */                                              \
    X(ATTR, "attribute")         /* attr: kind (ast_attr), args (exprs; for @diagnostic one DIAGNOSTIC node) */

typedef enum ast_kind {
#define X(n, d) AST_##n,
    AST_KINDS(X)
#undef X
    AST_KIND_COUNT
} ast_kind;

/* Operators (node.op of UNARY, BINARY, ASSIGN): X(name, spelling, binary precedence class) */
#define AST_OPS(X)              \
    X(NONE, "=")                \
    X(ADD, "+")                 \
    X(SUB, "-")                 \
    X(MUL, "*")                 \
    X(DIV, "/")                 \
    X(MOD, "%")                 \
    X(AND, "&")                 \
    X(OR, "|")                  \
    X(XOR, "^")                 \
    X(SHL, "<<")                \
    X(SHR, ">>")                \
    X(LAND, "&&")               \
    X(LOR, "||")                \
    X(EQ, "==")                 \
    X(NE, "!=")                 \
    X(LT, "<")                  \
    X(LE, "<=")                 \
    X(GT, ">")                  \
    X(GE, ">=")                 \
    X(NEG, "-")    /* unary */  \
    X(NOT, "!")    /* unary */  \
    X(BITNOT, "~") /* unary */  \
    X(ADDR, "&")   /* unary */  \
    X(DEREF, "*")  /* unary */

typedef enum ast_op {
#define X(n, s) AST_OP_##n,
    AST_OPS(X)
#undef X
    AST_OP_COUNT
} ast_op;

/* Literal suffixes (node.op of LIT_INT / LIT_FLOAT). */
typedef enum ast_suffix {
    AST_SUFFIX_NONE = 0,        /* abstract-int / abstract-float */
    AST_SUFFIX_I,               /* i32 */
    AST_SUFFIX_U,               /* u32 */
    AST_SUFFIX_F,               /* f32 */
    AST_SUFFIX_H,               /* f16 */
    AST_SUFFIX_COUNT
} ast_suffix;

/* Attributes: X(name, min args, max args).  The parser checks the argument count. */
#define AST_ATTRS(X)            \
    X(align, 1, 1)              \
    X(binding, 1, 1)            \
    X(blend_src, 1, 1)          \
    X(builtin, 1, 2)            /* value name [, depth mode] */ \
    X(compute, 0, 0)            \
    X(const, 0, 0)              \
    X(diagnostic, 2, 2)         \
    X(fragment, 0, 0)           \
    X(group, 1, 1)              \
    X(id, 1, 1)                 \
    X(interpolate, 1, 2)        \
    X(invariant, 0, 0)          \
    X(location, 1, 1)           \
    X(must_use, 0, 0)           \
    X(size, 1, 1)               \
    X(vertex, 0, 0)             \
    X(workgroup_size, 1, 3)     \
    /* extension attributes Tint parses (the checker decides) */ \
    X(color, 1, 1)              \
    X(input_attachment_index, 1, 1) \
    X(subgroup_size, 1, 1)

typedef enum ast_attr {
    AST_ATTR_NONE = 0,
#define X(n, lo, hi) AST_ATTR_##n,
    AST_ATTRS(X)
#undef X
    AST_ATTR_COUNT
} ast_attr;

/* node.flags */
enum {
    AST_F_CONTINUING = 1u << 0, /* BLOCK: the continuing block of a loop */
    AST_F_TRAILING_COMMA = 1u << 1,
};

typedef struct ast_list {
    uint32_t start, count;      /* slice of ast_module.items */
} ast_list;

typedef struct ast_node {
    uint8_t kind;               /* ast_kind */
    uint8_t op;                 /* ast_op / ast_suffix / ast_attr (ATTR) */
    uint16_t flags;             /* AST_F_* */
    span sp;                    /* whole construct */
    ast_list attrs;             /* ATTR nodes written before the construct */
    union {
        struct { uint32_t name; ast_list templ; } ident;                       /* IDENT */
        union { uint64_t i; double f; } lit;                                   /* LIT_* (i: bits of the value) */
        struct { uint32_t callee; ast_list args; } call;                       /* CALL */
        struct { uint32_t base, index; } index;                                /* INDEX */
        struct { uint32_t base, name, name_off; } member;                      /* MEMBER */
        struct { uint32_t operand; } unary;                                    /* UNARY */
        struct { uint32_t lhs, rhs; } binary;                                  /* BINARY */
        struct { ast_list stmts; } block;                                      /* BLOCK */
        struct { uint32_t value; } ret;                                        /* RETURN, BREAK_IF, CONST_ASSERT */
        struct { uint32_t cond, then, else_; } if_;                            /* IF */
        struct { uint32_t expr; ast_list clauses; ast_list body_attrs; } switch_; /* SWITCH */
        struct { ast_list selectors; uint32_t body; } case_;                   /* CASE */
        struct { uint32_t body, continuing; ast_list body_attrs; } loop;       /* LOOP */
        struct { uint32_t init, cond, update, body; } for_;                    /* FOR */
        struct { uint32_t cond, body; } while_;                                /* WHILE */
        struct { uint32_t call; } call_stmt;                                   /* CALL_STMT */
        struct { uint32_t lhs, rhs; } assign;                                  /* ASSIGN, INCR, DECR */
        struct { uint32_t name, name_off; ast_list templ; uint32_t type, init; } var; /* VAR LET CONST OVERRIDE */
        struct { uint32_t name, name_off, type; } alias;                       /* ALIAS */
        struct { uint32_t name, name_off; ast_list members; } struct_;         /* STRUCT */
        struct { uint32_t name, name_off, type; } param;                       /* PARAM, MEMBER_DECL */
        struct { uint32_t name, name_off; ast_list params; uint32_t ret_type; ast_list ret_attrs; uint32_t body; } fn; /* FN */
        struct { ast_list names; } names;                                      /* ENABLE, REQUIRES */
        struct { uint32_t severity, sev_off, rule, rule2, rule_off; } diag;    /* DIAGNOSTIC: rule2 = 0 unless `a.b` */
        struct { uint32_t name; } name;                                        /* NAME */
        struct { ast_list args; } attr;                                        /* ATTR (op = ast_attr) */
    } u;
} ast_node;

typedef struct ast_module {
    ast_node *nodes;            /* nodes[0] is the "none" dummy */
    uint32_t node_count, node_cap;
    uint32_t *items;            /* list storage */
    uint32_t item_count, item_cap;
    ast_list directives;        /* ENABLE / REQUIRES / DIAGNOSTIC, in source order */
    ast_list decls;             /* VAR LET? CONST OVERRIDE ALIAS STRUCT FN CONST_ASSERT, in source order */
} ast_module;

static inline ast_node *ast_get(const ast_module *m, uint32_t h) { return &m->nodes[h]; }
static inline const uint32_t *ast_items(const ast_module *m, ast_list l) { return m->items + l.start; }
static inline uint32_t ast_item(const ast_module *m, ast_list l, uint32_t i) { return m->items[l.start + i]; }

/* Names for messages (ast.c lives in parse.c): "identifier", "+", "workgroup_size". */
const char *ast_kind_name(ast_kind k);
const char *ast_op_name(ast_op op);
const char *ast_attr_name(ast_attr a);
/* Finds the first attribute of kind `a` in a list, or 0. */
uint32_t ast_find_attr(const ast_module *m, ast_list attrs, ast_attr a);

#endif
