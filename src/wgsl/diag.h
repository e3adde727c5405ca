/* diag.h - diagnostics of one compile: severity, byte span, message, attached notes.
 *
 * Phases report through diag_error()/diag_warning()/diag_info() and attach notes with
 * diag_note() (a note belongs to the last non-note diagnostic).  Messages are formatted into the
 * compile arena.  Line and column are computed from the source only when rendering (a line-start
 * table built once); the column counts Unicode code points, 1-based.  After max_errors errors,
 * further errors (and their notes) are counted but not recorded.
 *
 * Rendering (text, as `wgc check` prints it):
 *     file.wgsl:3:9: error: expected ';' for variable declaration
 *         let x = 1
 *                 ^
 * JSON: see wgsl_result_json() in include/wgc/wgsl.h. */
#ifndef WGSL_DIAG_H
#define WGSL_DIAG_H

#include <stdarg.h>
#include <stdint.h>

#include "wgc/wgsl.h"

typedef struct span {
    uint32_t off, len;          /* bytes into the source */
} span;

static inline span span_make(uint32_t off, uint32_t len) { span s = { off, len }; return s; }
/* The span from the start of a to the end of b. */
static inline span span_join(span a, span b) {
    uint32_t end = b.off + b.len > a.off + a.len ? b.off + b.len : a.off + a.len;
    uint32_t off = a.off < b.off ? a.off : b.off;
    return span_make(off, end - off);
}

/* span.off of a diagnostic about the whole source (reported with line 0, col 0). */
#define DIAG_NO_LOCATION UINT32_MAX

typedef struct diag {
    wgsl_severity sev;
    span sp;
    const char *msg;            /* arena string */
} diag;

struct wgsl_cc;

/* Report; each returns the diagnostic's index, or UINT32_MAX when not recorded (over the limit). */
uint32_t diag_error(struct wgsl_cc *cc, span sp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
uint32_t diag_warning(struct wgsl_cc *cc, span sp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
uint32_t diag_info(struct wgsl_cc *cc, span sp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A note attached to the last error/warning/info (dropped if that one was not recorded). */
uint32_t diag_note(struct wgsl_cc *cc, span sp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
uint32_t diag_report(struct wgsl_cc *cc, wgsl_severity sev, span sp, const char *fmt, va_list ap);

/* 1-based line and code-point column of a byte offset (offsets past the end clamp to the end). */
void diag_line_col(struct wgsl_cc *cc, uint32_t off, uint32_t *line, uint32_t *col);

/* Renders diagnostics (already converted to wgsl_diagnostic) of `src` as text / JSON into a
 * malloc-like buffer from the allocator hook; NULL when out of memory.  Used by wgsl.c. */
char *diag_render_text(const wgsl_allocator *al, const char *filename, const char *src, size_t src_len,
                       const wgsl_diagnostic *d, uint32_t n);
char *diag_render_json(const wgsl_allocator *al, const char *filename, bool ok,
                       const wgsl_diagnostic *d, uint32_t n);

#endif
