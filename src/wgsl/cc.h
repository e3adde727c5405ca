/* cc.h - the compile context: everything one wgsl_compile() call owns, passed to every phase.
 *
 * Phases: wgsl_parse (parse.c) fills `ast`; wgsl_check (check.c) fills `sema`; wgsl_emit
 * (spirv.c) fills `spv` and, through `res`/`res_arena`, the SPIR-V words and reflection of the
 * public result.  Each returns 0 on success, non-zero when it reported errors.  All phase memory
 * comes from `arena` (freed by wgsl_compile when it returns); memory that the caller keeps (the
 * result's arrays and strings) comes from `res_arena`, freed by wgsl_result_free(). */
#ifndef WGSL_CC_H
#define WGSL_CC_H

#include <stdint.h>

#include "wgc/wgsl.h"
#include "wgsl/arena.h"
#include "wgsl/ast.h"
#include "wgsl/diag.h"

struct sema_module;             /* sema.h (B2) */
struct spv_out;                 /* spirv.h (B3) */

typedef struct wgsl_cc {
    wgsl_options opt;           /* copy of the caller's options, defaults filled in */
    const char *filename;       /* opt.filename or "input.wgsl" */
    const char *src;            /* the source (not NUL-terminated in general) */
    uint32_t src_len;
    arena arena;                /* phase memory, freed at the end of wgsl_compile */
    jmp_buf oom;                /* arena_alloc failure lands here */

    /* diagnostics */
    ARR(diag) diags;
    uint32_t error_count, warning_count;
    uint32_t dropped_errors;    /* errors over opt.max_errors, counted but not recorded */
    bool override_error;        /* an error is about opt.overrides' keys or values (wgsl_result.override_error) */
    int last_recorded;          /* was the last non-note diagnostic recorded (notes follow it) */
    uint32_t *line_starts;      /* byte offset of each line start, built lazily by diag_line_col */
    uint32_t line_count;

    /* phase outputs */
    ast_module ast;             /* parse.c */
    struct sema_module *sema;   /* check.c */
    struct spv_out *spv;        /* spirv.c */

    /* the public result being built (wgsl.c creates it before the phases run) */
    wgsl_result *res;
    arena *res_arena;           /* allocate result data (SPIR-V words, reflection, strings) here */
} wgsl_cc;

/* Phase entry points: 0 = success, non-zero = errors were reported. */
int wgsl_parse(wgsl_cc *cc);    /* parse.c */
int wgsl_check(wgsl_cc *cc);    /* check.c */
int wgsl_emit(wgsl_cc *cc);     /* spirv.c */
int wgsl_check_override_values(wgsl_cc *cc);   /* spirv.c: opt.overrides against the module */

/* Convenience for phases. */
static inline const char *cc_str(const wgsl_cc *cc, uint32_t id) { return arena_str(&cc->arena, id); }

#endif
