/* diag.c - recording diagnostics on the compile context, line/column computation, and rendering
 * to text (file:line:col: severity: message, source line, caret) and JSON.
 *
 * Line breaks are the spec's: LF, VT, FF, CR, CR LF (one break), NEL (U+0085), LS (U+2028),
 * PS (U+2029).  Columns count code points (a UTF-8 lead byte starts one).  Rendering writes into
 * a buffer from the allocator hook because the text outlives the compile arena. */
#include "wgsl/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgsl/cc.h"
#include "wgsl/lex.h"

/* Code points in s[from..to): UTF-8 decoded, each invalid byte one code point (as Tint counts). */
static uint32_t count_cps(const char *s, size_t len, size_t from, size_t to) {
    uint32_t c = 0;
    for (size_t i = from; i < to;) {
        uint32_t cp;
        i += lex_utf8_decode(s + i, (uint32_t)(len - i), &cp);
        c++;
    }
    return c;
}

uint32_t diag_report(wgsl_cc *cc, wgsl_severity sev, span sp, const char *fmt, va_list ap) {
    if (sev == WGSL_SEVERITY_NOTE) {
        if (!cc->last_recorded) return UINT32_MAX;
    } else if (sev == WGSL_SEVERITY_ERROR) {
        cc->error_count++;
        uint32_t max = cc->opt.max_errors ? cc->opt.max_errors : 64;
        if (cc->error_count > max) {
            cc->dropped_errors++;
            cc->last_recorded = 0;
            return UINT32_MAX;
        }
    } else if (sev == WGSL_SEVERITY_WARNING) {
        cc->warning_count++;
    }
    if (sev != WGSL_SEVERITY_NOTE) cc->last_recorded = 1;
    char buf[1024];
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(buf, sizeof buf, fmt, aq);
    va_end(aq);
    if (n < 0) n = 0;
    if ((size_t)n >= sizeof buf) n = sizeof buf - 1;
    if (sp.off == DIAG_NO_LOCATION) sp.len = 0;
    else {
        if (sp.off > cc->src_len) sp.off = cc->src_len;
        if (sp.len > cc->src_len - sp.off) sp.len = cc->src_len - sp.off;
    }
    diag d = { sev, sp, arena_strndup(&cc->arena, buf, (size_t)n) };
    ARR_PUSH(&cc->arena, cc->diags, d);
    return cc->diags.n - 1;
}

#define DIAG_FN(fname, sev)                                         \
    uint32_t fname(wgsl_cc *cc, span sp, const char *fmt, ...) {    \
        va_list ap;                                                 \
        va_start(ap, fmt);                                          \
        uint32_t r = diag_report(cc, sev, sp, fmt, ap);             \
        va_end(ap);                                                 \
        return r;                                                   \
    }
DIAG_FN(diag_error, WGSL_SEVERITY_ERROR)
DIAG_FN(diag_warning, WGSL_SEVERITY_WARNING)
DIAG_FN(diag_info, WGSL_SEVERITY_INFO)
DIAG_FN(diag_note, WGSL_SEVERITY_NOTE)

/* Length of the line break starting at s[i], 0 if none. */
static uint32_t line_break_len(const char *s, uint32_t n, uint32_t i) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n' || c == 0x0B || c == 0x0C) return 1;
    if (c == '\r') return (i + 1 < n && s[i + 1] == '\n') ? 2 : 1;
    if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] == 0x85) return 2;
    if (c == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
        ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9))
        return 3;
    return 0;
}

static void build_lines(wgsl_cc *cc) {
    ARR(uint32_t) ls = { 0 };
    ARR_PUSH(&cc->arena, ls, 0u);
    for (uint32_t i = 0; i < cc->src_len;) {
        uint32_t b = line_break_len(cc->src, cc->src_len, i);
        if (b) {
            i += b;
            ARR_PUSH(&cc->arena, ls, i);
        } else {
            i++;
        }
    }
    cc->line_starts = ls.v;
    cc->line_count = ls.n;
}

void diag_line_col(wgsl_cc *cc, uint32_t off, uint32_t *line, uint32_t *col) {
    if (!cc->line_starts) build_lines(cc);
    if (off > cc->src_len) off = cc->src_len;
    uint32_t lo = 0, hi = cc->line_count; /* last start <= off */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cc->line_starts[mid] <= off) lo = mid;
        else hi = mid;
    }
    *line = lo + 1;
    *col = 1 + count_cps(cc->src, cc->src_len, cc->line_starts[lo], off);
}

/* ---- rendering ---- */

typedef struct sbuf {
    const wgsl_allocator *al;
    char *p;
    size_t n, cap;
    int failed;
} sbuf;

static void *al_alloc(const wgsl_allocator *al, size_t n) {
    return al && al->alloc ? al->alloc(al->user, n) : malloc(n);
}

static void al_free(const wgsl_allocator *al, void *p) {
    if (al && al->free) al->free(al->user, p);
    else free(p);
}

static void sb_put(sbuf *b, const char *s, size_t n) {
    if (b->failed) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *q = al_alloc(b->al, cap);
        if (!q) { b->failed = 1; return; }
        if (b->p) { memcpy(q, b->p, b->n); al_free(b->al, b->p); }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void sb_str(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

static void sb_fmt(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void sb_fmt(sbuf *b, const char *fmt, ...) {
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) sb_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static char *sb_finish(sbuf *b) {
    if (!b->failed && !b->p) sb_put(b, "", 0);
    if (b->failed) {
        if (b->p) al_free(b->al, b->p);
        return NULL;
    }
    return b->p;
}

const char *wgsl_severity_name(wgsl_severity s) {
    switch (s) {
    case WGSL_SEVERITY_ERROR: return "error";
    case WGSL_SEVERITY_WARNING: return "warning";
    case WGSL_SEVERITY_INFO: return "info";
    case WGSL_SEVERITY_NOTE: return "note";
    default: return "";
    }
}

char *diag_render_text(const wgsl_allocator *al, const char *filename, const char *src, size_t src_len,
                       const wgsl_diagnostic *d, uint32_t n) {
    sbuf b = { al, NULL, 0, 0, 0 };
    for (uint32_t k = 0; k < n; k++) {
        const wgsl_diagnostic *e = &d[k];
        if (e->line)
            sb_fmt(&b, "%s:%u:%u: ", filename, e->line, e->col);
        else
            sb_fmt(&b, "%s: ", filename);
        sb_str(&b, wgsl_severity_name(e->severity));
        sb_str(&b, ": ");
        sb_str(&b, e->message);
        sb_str(&b, "\n");
        if (!e->line || !src) continue;
        /* the source line containing the offset */
        size_t off = e->offset <= src_len ? e->offset : src_len;
        size_t start = off;
        while (start > 0) {
            unsigned char c = (unsigned char)src[start - 1];
            if (c == '\n' || c == '\r' || c == 0x0B || c == 0x0C) break;
            if (start >= 2 && (unsigned char)src[start - 2] == 0xC2 && c == 0x85) break;
            if (start >= 3 && (unsigned char)src[start - 3] == 0xE2 && (unsigned char)src[start - 2] == 0x80 &&
                (c == 0xA8 || c == 0xA9))
                break;
            start--;
        }
        size_t end = start;
        while (end < src_len && !line_break_len(src, (uint32_t)src_len, (uint32_t)end)) end++;
        for (size_t i = start; i < end; i++) { /* NULs and other control bytes shown as spaces */
            char c = src[i];
            sb_put(&b, (c == '\t' || (unsigned char)c >= 0x20) ? &c : " ", 1);
        }
        sb_str(&b, "\n");
        for (size_t i = start; i < off;) { /* tabs kept so the caret lines up */
            uint32_t cp;
            uint32_t l = lex_utf8_decode(src + i, (uint32_t)(src_len - i), &cp);
            sb_put(&b, src[i] == '\t' ? "\t" : " ", 1);
            i += l;
        }
        size_t stop = off + e->length < end ? off + e->length : end;
        size_t carets = stop > off ? count_cps(src, src_len, off, stop) : 0;
        if (carets == 0) carets = 1;
        for (size_t i = 0; i < carets; i++) sb_put(&b, "^", 1);
        sb_str(&b, "\n");
    }
    return sb_finish(&b);
}

static void json_str(sbuf *b, const char *s) {
    sb_put(b, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            sb_put(b, e, 2);
        } else if (c == '\n') {
            sb_str(b, "\\n");
        } else if (c == '\t') {
            sb_str(b, "\\t");
        } else if (c < 0x20) {
            sb_fmt(b, "\\u%04x", c);
        } else {
            sb_put(b, (const char *)&c, 1);
        }
    }
    sb_put(b, "\"", 1);
}

char *diag_render_json(const wgsl_allocator *al, const char *filename, bool ok,
                       const wgsl_diagnostic *d, uint32_t n) {
    sbuf b = { al, NULL, 0, 0, 0 };
    sb_str(&b, "{\"file\":");
    json_str(&b, filename);
    sb_str(&b, ok ? ",\"ok\":true" : ",\"ok\":false");
    sb_str(&b, ",\"diagnostics\":[");
    for (uint32_t k = 0; k < n; k++) {
        const wgsl_diagnostic *e = &d[k];
        sb_str(&b, k ? ",{\"severity\":" : "{\"severity\":");
        json_str(&b, wgsl_severity_name(e->severity));
        sb_fmt(&b, ",\"line\":%u,\"col\":%u,\"offset\":%u,\"length\":%u,\"message\":", e->line, e->col,
               e->offset, e->length);
        json_str(&b, e->message);
        sb_str(&b, "}");
    }
    sb_str(&b, "]}");
    return sb_finish(&b);
}
