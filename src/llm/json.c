/* json.c - a strict JSON parser (RFC 8259) for safetensors headers and Hugging Face config files.
 *
 *   value  = object | array | string | number | "true" | "false" | "null"
 *   object = "{" [ string ":" value *( "," string ":" value ) ] "}"
 *   array  = "[" [ value *( "," value ) ] "]"
 *
 * Recursive descent with a depth limit (JSON_MAX_DEPTH), so hostile nesting is an error, not a
 * stack overflow.  Nodes and unescaped strings live in the model's arena; each node consumes at
 * least one byte of text, which bounds the memory.  Rejected: trailing commas, comments, leading
 * zeros, control characters in strings, invalid UTF-8 (overlong forms, surrogates, past U+10FFFF) and
 * lone surrogates in \u escapes, numbers beyond a double's range, trailing text.  Duplicate keys are
 * kept in order; the callers refuse the ones that matter (names through the model's index). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llm/llm.h"

typedef struct jp {
    wl_model *m;
    const char *s;
    size_t n, pos;
    char *msg;
    size_t msg_size;
    wl_status failed;   /* WL_OK until the first failure: FORMAT or OUT_OF_MEMORY */
} jp;

static json_node *jfail_status(jp *p, wl_status status, const char *what) {
    if (!p->failed) {
        if (p->msg_size) snprintf(p->msg, p->msg_size, "offset %zu: %s", p->pos, what);
        p->failed = status;
    }
    return NULL;
}

static json_node *jfail(jp *p, const char *what) { return jfail_status(p, WL_STATUS_FORMAT, what); }
static json_node *jnomem(jp *p) { return jfail_status(p, WL_STATUS_OUT_OF_MEMORY, "out of memory"); }

static void ws(jp *p) {
    while (p->pos < p->n && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' ||
                             p->s[p->pos] == '\r'))
        p->pos++;
}

static int hex4(jp *p, unsigned *out) {
    if (p->n - p->pos < 4) return 0;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->s[p->pos + (size_t)i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    p->pos += 4;
    *out = v;
    return 1;
}

/* The length of the UTF-8 sequence at s[0..n), 0 when it is not a valid one (RFC 3629). */
static size_t utf8_len(const unsigned char *s, size_t n) {
    unsigned c = s[0], cp, min;
    size_t len;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07, min = 0x10000;
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return len;
}

/* string = '"' chars '"' ; the unescaped text is never longer than the escaped one. */
static int parse_string(jp *p, const char **out, size_t *out_len) {
    p->pos++;   /* '"' */
    size_t end = p->pos;   /* the closing quote bounds the unescaped length */
    while (end < p->n && p->s[end] != '"') end += p->s[end] == '\\' ? 2 : 1;
    if (end > p->n) end = p->n;
    char *buf = wl__alloc(p->m, end - p->pos + 1);
    if (!buf) return jnomem(p), 0;
    size_t k = 0;
    for (;;) {
        if (p->pos >= p->n) return jfail(p, "unterminated string"), 0;
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c == '"') {
            p->pos++;
            break;
        }
        if (c < 0x20) return jfail(p, "control character in string"), 0;
        if (c >= 0x80) {
            size_t l = utf8_len((const unsigned char *)p->s + p->pos, p->n - p->pos);
            if (!l) return jfail(p, "invalid UTF-8 in string"), 0;
            memcpy(buf + k, p->s + p->pos, l);
            k += l;
            p->pos += l;
            continue;
        }
        if (c != '\\') {
            buf[k++] = (char)c;
            p->pos++;
            continue;
        }
        p->pos++;
        if (p->pos >= p->n) return jfail(p, "unterminated escape"), 0;
        char e = p->s[p->pos++];
        unsigned cp;
        switch (e) {
        case '"': buf[k++] = '"'; continue;
        case '\\': buf[k++] = '\\'; continue;
        case '/': buf[k++] = '/'; continue;
        case 'b': buf[k++] = '\b'; continue;
        case 'f': buf[k++] = '\f'; continue;
        case 'n': buf[k++] = '\n'; continue;
        case 'r': buf[k++] = '\r'; continue;
        case 't': buf[k++] = '\t'; continue;
        case 'u':
            if (!hex4(p, &cp)) return jfail(p, "bad \\u escape"), 0;
            if (cp >= 0xDC00 && cp <= 0xDFFF) return jfail(p, "lone low surrogate in \\u escape"), 0;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned lo;
                if (p->n - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
                    return jfail(p, "high surrogate without a low one"), 0;
                p->pos += 2;
                if (!hex4(p, &lo) || lo < 0xDC00 || lo > 0xDFFF) return jfail(p, "bad low surrogate"), 0;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            if (cp < 0x80) {
                buf[k++] = (char)cp;
            } else if (cp < 0x800) {
                buf[k++] = (char)(0xC0 | (cp >> 6));
                buf[k++] = (char)(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                buf[k++] = (char)(0xE0 | (cp >> 12));
                buf[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                buf[k++] = (char)(0x80 | (cp & 0x3F));
            } else {
                buf[k++] = (char)(0xF0 | (cp >> 18));
                buf[k++] = (char)(0x80 | ((cp >> 12) & 0x3F));
                buf[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                buf[k++] = (char)(0x80 | (cp & 0x3F));
            }
            continue;
        default: return jfail(p, "bad escape"), 0;
        }
    }
    buf[k] = 0;
    *out = buf;
    *out_len = k;
    return 1;
}

/* number = [ "-" ] int [ frac ] [ exp ] ; int = "0" / digit1-9 *digit */
static int parse_number(jp *p, json_node *v) {
    size_t start = p->pos;
    int is_int = 1;
    if (p->s[p->pos] == '-') p->pos++;
    if (p->pos >= p->n || p->s[p->pos] < '0' || p->s[p->pos] > '9') return jfail(p, "bad number"), 0;
    if (p->s[p->pos] == '0') {
        p->pos++;
        if (p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') return jfail(p, "leading zero"), 0;
    } else {
        while (p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') p->pos++;
    }
    if (p->pos < p->n && p->s[p->pos] == '.') {
        is_int = 0;
        p->pos++;
        if (p->pos >= p->n || p->s[p->pos] < '0' || p->s[p->pos] > '9') return jfail(p, "bad fraction"), 0;
        while (p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') p->pos++;
    }
    if (p->pos < p->n && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
        is_int = 0;
        p->pos++;
        if (p->pos < p->n && (p->s[p->pos] == '+' || p->s[p->pos] == '-')) p->pos++;
        if (p->pos >= p->n || p->s[p->pos] < '0' || p->s[p->pos] > '9') return jfail(p, "bad exponent"), 0;
        while (p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') p->pos++;
    }
    size_t len = p->pos - start;
    char tmp[64];
    char *txt = len < sizeof tmp ? tmp : wl__alloc(p->m, len + 1);
    if (!txt) return jnomem(p), 0;
    memcpy(txt, p->s + start, len);
    txt[len] = 0;
    v->type = JSON_NUMBER;
    v->num = strtod(txt, NULL);
    if (isinf(v->num)) return jfail(p, "number out of range"), 0;
    if (is_int) {
        errno = 0;
        long long ll = strtoll(txt, NULL, 10);
        v->is_int = errno == 0;
        v->i = ll;
    }
    return 1;
}

static json_node *parse_value(jp *p, int depth);

static int expect_word(jp *p, const char *w) {
    size_t l = strlen(w);
    if (p->n - p->pos < l || memcmp(p->s + p->pos, w, l)) return 0;
    p->pos += l;
    return 1;
}

static json_node *parse_value(jp *p, int depth) {
    ws(p);
    if (p->pos >= p->n) return jfail(p, "unexpected end of text");
    if (depth > JSON_MAX_DEPTH) return jfail(p, "nested too deeply");
    json_node *v = wl__alloc(p->m, sizeof *v);
    if (!v) return jnomem(p);
    v->offset = p->pos;
    char c = p->s[p->pos];
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        v->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
        p->pos++;
        ws(p);
        if (p->pos < p->n && p->s[p->pos] == close) {
            p->pos++;
            return v;
        }
        json_node **tail = &v->child;
        for (;;) {
            const char *key = NULL;
            size_t key_len = 0;
            if (v->type == JSON_OBJECT) {
                ws(p);
                if (p->pos >= p->n || p->s[p->pos] != '"') return jfail(p, "expected a string key");
                if (!parse_string(p, &key, &key_len)) return NULL;
                ws(p);
                if (p->pos >= p->n || p->s[p->pos] != ':') return jfail(p, "expected ':'");
                p->pos++;
            }
            json_node *item = parse_value(p, depth + 1);
            if (!item) return NULL;
            item->key = key;
            item->key_len = key_len;
            *tail = item;
            tail = &item->next;
            v->count++;
            ws(p);
            if (p->pos >= p->n) return jfail(p, c == '{' ? "unterminated object" : "unterminated array");
            if (p->s[p->pos] == ',') {
                p->pos++;
                continue;
            }
            if (p->s[p->pos] == close) {
                p->pos++;
                return v;
            }
            return jfail(p, c == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    if (c == '"') {
        v->type = JSON_STRING;
        return parse_string(p, &v->str, &v->len) ? v : NULL;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number(p, v) ? v : NULL;
    if (expect_word(p, "true")) v->type = JSON_TRUE;
    else if (expect_word(p, "false")) v->type = JSON_FALSE;
    else if (expect_word(p, "null")) v->type = JSON_NULL;
    else return jfail(p, "unexpected character");
    return v;
}

json_node *wl__json_parse(wl_model *m, const char *text, size_t len, char *msg, size_t msg_size,
                          wl_status *status) {
    jp p = { m, text, len, 0, msg, msg_size, WL_OK };
    if (msg_size) msg[0] = 0;
    json_node *v = parse_value(&p, 0);
    if (v) {
        ws(&p);
        if (p.pos != p.n) v = jfail(&p, "text after the value");
    }
    if (status) *status = v ? WL_OK : p.failed;
    return v;
}

const json_node *wl__json_get(const json_node *obj, const char *key) {
    if (!obj || obj->type != JSON_OBJECT) return NULL;
    size_t kl = strlen(key);
    for (const json_node *c = obj->child; c; c = c->next)
        if (c->key_len == kl && !memcmp(c->key, key, kl)) return c;
    return NULL;
}
