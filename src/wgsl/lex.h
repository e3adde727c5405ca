/* lex.h - WGSL tokens (spec "Textual Structure") from ONE X-macro table, and the lexer.
 *
 * lex_source() turns the whole source into a token array (ending with TOK_EOF), skipping
 * blankspace and comments (line comments, nested block comments), decoding UTF-8 identifiers
 * (XID_Start XID_Continue*), and converting numeric literals with the spec's rules and errors.
 * The spec's template-list discovery runs as the tokens are produced and turns the `<` / `>`
 * that delimit template lists into TOK_TEMPLATE_START / TOK_TEMPLATE_END (splitting `>>`, `>=`,
 * `>>=` when their first `>` closes a list).  Keywords are their own tokens.  The lexer reports
 * nothing itself: a lexical error becomes a TOK_ERROR token (with its message) and lexing stops
 * there, so the parser reports it when it reaches it (an earlier syntax error comes first, as in
 * Tint).  Reserved words lex as TOK_IDENT with `reserved` = 1; the parser rejects them where a
 * name is declared.  `__`-prefixed names are lexical errors. */
#ifndef WGSL_LEX_H
#define WGSL_LEX_H

#include <stdint.h>

#include "wgsl/diag.h"

struct wgsl_cc;

/* X(name, spelling).  Keywords first (spelling = the word), then punctuation. */
#define TOKENS(X)                                   \
    X(EOF, "end of file")                           \
    X(IDENT, "identifier")                          \
    X(INT_LIT, "integer literal")                   \
    X(FLOAT_LIT, "float literal")                   \
    X(ERROR, "invalid token") /* lexical error; token.msg says why */ \
    X(TEMPLATE_START, "<")                          \
    X(TEMPLATE_END, ">")                            \
    /* keywords */                                  \
    X(KW_alias, "alias")                            \
    X(KW_break, "break")                            \
    X(KW_case, "case")                              \
    X(KW_const, "const")                            \
    X(KW_const_assert, "const_assert")              \
    X(KW_continue, "continue")                      \
    X(KW_continuing, "continuing")                  \
    X(KW_default, "default")                        \
    X(KW_diagnostic, "diagnostic")                  \
    X(KW_discard, "discard")                        \
    X(KW_else, "else")                              \
    X(KW_enable, "enable")                          \
    X(KW_false, "false")                            \
    X(KW_fn, "fn")                                  \
    X(KW_for, "for")                                \
    X(KW_if, "if")                                  \
    X(KW_let, "let")                                \
    X(KW_loop, "loop")                              \
    X(KW_override, "override")                      \
    X(KW_requires, "requires")                      \
    X(KW_return, "return")                          \
    X(KW_struct, "struct")                          \
    X(KW_switch, "switch")                          \
    X(KW_true, "true")                              \
    X(KW_var, "var")                                \
    X(KW_while, "while")                            \
    /* punctuation (longest first within a family does not matter: the lexer munches) */ \
    X(AND, "&")                                     \
    X(AND_AND, "&&")                                \
    X(ARROW, "->")                                  \
    X(ATTR, "@")                                    \
    X(SLASH, "/")                                   \
    X(BANG, "!")                                    \
    X(LBRACKET, "[")                                \
    X(RBRACKET, "]")                                \
    X(LBRACE, "{")                                  \
    X(RBRACE, "}")                                  \
    X(COLON, ":")                                   \
    X(COMMA, ",")                                   \
    X(EQUAL, "=")                                   \
    X(EQ_EQ, "==")                                  \
    X(NOT_EQ, "!=")                                 \
    X(GT, ">")                                      \
    X(GE, ">=")                                     \
    X(SHR, ">>")                                    \
    X(LT, "<")                                      \
    X(LE, "<=")                                     \
    X(SHL, "<<")                                    \
    X(PERCENT, "%")                                 \
    X(MINUS, "-")                                   \
    X(MINUS_MINUS, "--")                            \
    X(PERIOD, ".")                                  \
    X(PLUS, "+")                                    \
    X(PLUS_PLUS, "++")                              \
    X(OR, "|")                                      \
    X(OR_OR, "||")                                  \
    X(LPAREN, "(")                                  \
    X(RPAREN, ")")                                  \
    X(SEMICOLON, ";")                               \
    X(STAR, "*")                                    \
    X(TILDE, "~")                                   \
    X(UNDERSCORE, "_")                              \
    X(XOR, "^")                                     \
    X(PLUS_EQ, "+=")                                \
    X(MINUS_EQ, "-=")                               \
    X(STAR_EQ, "*=")                                \
    X(SLASH_EQ, "/=")                               \
    X(PERCENT_EQ, "%=")                             \
    X(AND_EQ, "&=")                                 \
    X(OR_EQ, "|=")                                  \
    X(XOR_EQ, "^=")                                 \
    X(SHR_EQ, ">>=")                                \
    X(SHL_EQ, "<<=")

typedef enum tok_kind {
#define X(n, s) TOK_##n,
    TOKENS(X)
#undef X
    TOK_COUNT
} tok_kind;

#define TOK_FIRST_KEYWORD TOK_KW_alias
#define TOK_LAST_KEYWORD TOK_KW_while

typedef struct token {
    uint8_t kind;               /* tok_kind */
    uint8_t suffix;             /* literals: ast_suffix */
    uint8_t reserved;           /* IDENT: 1 = reserved word (the parser rejects it as a declared name) */
    uint8_t pad_;
    span sp;
    union {
        uint32_t ident;                       /* IDENT: interned name */
        union { uint64_t i; double f; } val;  /* INT_LIT: value bits (i64 or u32/i32); FLOAT_LIT: value */
        const char *msg;                      /* ERROR: the message (arena) */
    };
} token;

typedef struct token_list {
    token *v;
    uint32_t n, cap;
} token_list;

/* Lexes cc->src into *out (arena memory), ending with TOK_EOF (or TOK_ERROR then TOK_EOF).
 * Returns 1 when a TOK_ERROR was produced, else 0. */
uint32_t lex_source(struct wgsl_cc *cc, token_list *out);

/* "identifier", "';'", "'fn'": how a token kind is named in messages. */
const char *lex_tok_name(tok_kind k);
/* The spelling ("fn", ";", ">>=") or the description for IDENT/literals/EOF. */
const char *lex_tok_spelling(tok_kind k);

/* Unicode XID properties (tables generated into lex.c). */
int lex_is_xid_start(uint32_t cp);
int lex_is_xid_continue(uint32_t cp);
/* Decodes one UTF-8 code point at s[0..n); returns its byte length (>= 1).  Malformed input
 * gives *cp = 0xFFFD and the length of the maximal ill-formed subpart (>= 1). */
uint32_t lex_utf8_decode(const char *s, uint32_t n, uint32_t *cp);

#endif
