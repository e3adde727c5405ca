/* wgsl.c - the public API: wgsl_compile() runs the phases over one compile context and packs
 * what the caller keeps into a wgsl_result.
 *
 * Memory: the context and its arena (tokens, AST, checked module, SPIR-V builder) are freed before
 * wgsl_compile returns; the result owns a second arena (result box) holding the diagnostics, the
 * SPIR-V words and reflection, and, only when there are diagnostics, a copy of the source for
 * rendering.  Out of memory anywhere longjmps back here (arena.h) and becomes an error result;
 * if even the result box cannot be allocated, wgsl_compile returns NULL. */
#include <stdlib.h>
#include <string.h>

#include "wgc/wgsl.h"
#include "wgsl/cc.h"

typedef struct result_box {
    wgsl_result pub;            /* first: the caller's pointer is &box->pub */
    arena ar;                   /* everything the result points to */
    wgsl_allocator al;
    const char *filename;
    const char *src;            /* copy, only when there are diagnostics */
    size_t src_len;
    char *text, *json;          /* rendered lazily, from the allocator hook */
} result_box;

static const wgsl_diagnostic oom_diag = { WGSL_SEVERITY_ERROR, 0, 0, 0, 0, "out of memory" };

static void *hook_alloc(const wgsl_allocator *al, size_t n) {
    return al->alloc ? al->alloc(al->user, n) : malloc(n);
}

static void hook_free(const wgsl_allocator *al, void *p) {
    if (al->free) al->free(al->user, p);
    else free(p);
}

/* Runs the phases; returns normally or via longjmp on OOM (then cc->oom was hit). */
static void run_phases(wgsl_cc *cc) {
    if (wgsl_parse(cc) || cc->error_count) return;
    if (cc->opt.parse_only) return;
    if (wgsl_check(cc) || cc->error_count) return;
    if (wgsl_check_override_values(cc)) return;
    if (cc->opt.check_only) return;
    if (wgsl_emit(cc) || cc->error_count) return;
}

/* Copies the recorded diagnostics into the result arena. */
static void pack_diags(wgsl_cc *cc, result_box *box) {
    uint32_t n = cc->diags.n;
    wgsl_diagnostic *d = n ? arena_alloc(&box->ar, n * sizeof *d) : NULL;
    for (uint32_t i = 0; i < n; i++) {
        const diag *s = &cc->diags.v[i];
        d[i].severity = s->sev;
        if (s->sp.off == DIAG_NO_LOCATION) {
            d[i].line = d[i].col = d[i].offset = d[i].length = 0;
        } else {
            diag_line_col(cc, s->sp.off, &d[i].line, &d[i].col);
            d[i].offset = s->sp.off;
            d[i].length = s->sp.len;
        }
        d[i].message = arena_strndup(&box->ar, s->msg, strlen(s->msg));
    }
    box->pub.diagnostics = d;
    box->pub.diagnostic_count = n;
    box->pub.error_count = cc->error_count;
    box->pub.warning_count = cc->warning_count;
    if (n) {
        box->src = arena_strndup(&box->ar, cc->src, cc->src_len);
        box->src_len = cc->src_len;
    }
}

wgsl_result *wgsl_compile(const char *source, size_t length, const wgsl_options *opt) {
    static const wgsl_options defaults;
    if (!opt) opt = &defaults;
    const wgsl_allocator al = opt->allocator;
    result_box *box = hook_alloc(&al, sizeof *box);
    if (!box) return NULL;
    memset(box, 0, sizeof *box);
    box->al = al;
    arena_init(&box->ar, &al);
    wgsl_cc *cc = hook_alloc(&al, sizeof *cc);
    if (!cc) {
        box->pub.diagnostics = &oom_diag;
        box->pub.diagnostic_count = 1;
        box->pub.error_count = 1;
        box->filename = "input.wgsl";
        return &box->pub;
    }
    memset(cc, 0, sizeof *cc);
    cc->opt = *opt;
    cc->filename = opt->filename ? opt->filename : "input.wgsl";
    cc->src = source ? source : "";
    cc->src_len = source ? (uint32_t)(length < UINT32_MAX / 2 ? length : UINT32_MAX / 2) : 0;
    cc->res = &box->pub;
    cc->res_arena = &box->ar;
    arena_init(&cc->arena, &al);
    cc->arena.oom = &cc->oom;
    box->ar.oom = &cc->oom;

    if (setjmp(cc->oom) == 0) {
        box->filename = arena_strndup(&box->ar, cc->filename, strlen(cc->filename));
        if (source && length >= UINT32_MAX / 2)
            diag_error(cc, span_make(DIAG_NO_LOCATION, 0), "source is too large (%zu bytes)", length);
        else if (cc->opt.override_count && !cc->opt.overrides)
            diag_error(cc, span_make(DIAG_NO_LOCATION, 0), "options: override_count is %u but overrides is NULL",
                       cc->opt.override_count);
        else if (cc->src_len && memchr(cc->src, 0, cc->src_len))
            /* WebGPU (Dawn) rejects such a module before compiling it; same words, no location */
            diag_error(cc, span_make(DIAG_NO_LOCATION, 0), "The WGSL shader contains an illegal character '\\0'");
        else
            run_phases(cc);
        pack_diags(cc, box);
        box->pub.ok = cc->error_count == 0;
        box->pub.override_error = cc->override_error && cc->error_count;
    } else {
        /* out of memory: drop whatever the result had, report one error */
        arena_free(&box->ar);
        arena_init(&box->ar, &al);
        memset(&box->pub, 0, sizeof box->pub);
        box->pub.diagnostics = &oom_diag;
        box->pub.diagnostic_count = 1;
        box->pub.error_count = 1;
        box->filename = "input.wgsl";
        box->src = NULL;
    }
    box->ar.oom = NULL;
    if (!box->pub.ok) { /* no half-made outputs on failure */
        box->pub.spirv = NULL;
        box->pub.spirv_word_count = 0;
    }
    arena_free(&cc->arena);
    hook_free(&al, cc);
    return &box->pub;
}

void wgsl_result_free(wgsl_result *r) {
    if (!r) return;
    result_box *box = (result_box *)r;
    wgsl_allocator al = box->al;
    if (box->text) hook_free(&al, box->text);
    if (box->json) hook_free(&al, box->json);
    arena_free(&box->ar);
    hook_free(&al, box);
}

const char *wgsl_result_text(wgsl_result *r) {
    if (!r) return NULL;
    result_box *box = (result_box *)r;
    if (!box->text)
        box->text = diag_render_text(&box->al, box->filename, box->src, box->src_len, r->diagnostics,
                                     r->diagnostic_count);
    return box->text;
}

const char *wgsl_result_json(wgsl_result *r) {
    if (!r) return NULL;
    result_box *box = (result_box *)r;
    if (!box->json)
        box->json = diag_render_json(&box->al, box->filename, r->ok, r->diagnostics, r->diagnostic_count);
    return box->json;
}
