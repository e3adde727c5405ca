/* arena.h - memory for one compile: a bump arena over big chunks taken from the allocator hook
 * (one arena_free() releases everything), string interning (identifier text -> uint32_t id) and
 * growable arrays living in the arena.
 *
 * Out of memory never returns NULL to callers: arena_alloc() longjmps to the arena's `oom` jump
 * buffer (set by wgsl_compile() around the phases), which reports "out of memory" and frees the
 * arena.  So phase code never checks allocation results.  Memory is zero-initialised. */
#ifndef WGSL_ARENA_H
#define WGSL_ARENA_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "wgc/wgsl.h"

typedef struct arena_chunk arena_chunk;

typedef struct arena {
    wgsl_allocator al;          /* the hook (NULL members = malloc/free) */
    arena_chunk *chunks;        /* newest first */
    char *cur, *end;            /* bump region of the newest chunk */
    jmp_buf *oom;               /* where to go when the hook fails; NULL = return NULL (careful) */
    size_t bytes;               /* total bytes taken from the hook */
    /* string interning: open addressing, ids index `strs` (id 0 = the empty/none string) */
    uint32_t *ht;               /* hash slots holding ids, 0 = empty */
    uint32_t ht_cap;            /* power of two */
    const char **strs;          /* id -> NUL-terminated text */
    uint32_t *lens;             /* id -> length in bytes */
    uint32_t nstrs, strs_cap;
} arena;

/* Initialises an empty arena (allocates nothing yet). */
void arena_init(arena *a, const wgsl_allocator *al);
/* Releases every chunk; the arena can be reused after arena_init(). */
void arena_free(arena *a);

/* n zeroed bytes aligned to 16.  On failure longjmps to *a->oom (or returns NULL if oom is NULL). */
void *arena_alloc(arena *a, size_t n);
void *arena_dup(arena *a, const void *p, size_t n);
char *arena_strndup(arena *a, const char *s, size_t n);
/* printf into the arena. */
char *arena_printf(arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Interns s[0..n): equal text -> equal id (>= 1).  arena_str(a, 0) is "". */
uint32_t arena_intern(arena *a, const char *s, size_t n);
uint32_t arena_intern_cstr(arena *a, const char *s);
/* Id of already-interned text, or 0 when the text was never interned (never allocates). */
uint32_t arena_lookup(const arena *a, const char *s, size_t n);
static inline const char *arena_str(const arena *a, uint32_t id) { return a->strs ? a->strs[id] : ""; }
static inline uint32_t arena_strlen(const arena *a, uint32_t id) { return a->lens ? a->lens[id] : 0; }

/* Growable arrays in the arena: declare `ARR(T) xs;` (zero-initialised = empty), append with
 * ARR_PUSH(arena, xs, value).  Growing copies into a new arena block (the old one is wasted,
 * at most as much again as the final size); the space past the old capacity is NOT zeroed. */
#define ARR(T) struct { T *v; uint32_t n, cap; }
void arena_grow(arena *a, void **v, uint32_t *cap, size_t elem, uint32_t need);
#define ARR_RESERVE(ar, xs, need) \
    ((need) > (xs).cap ? arena_grow((ar), (void **)&(xs).v, &(xs).cap, sizeof *(xs).v, (need)) : (void)0)
#define ARR_PUSH(ar, xs, val) \
    do { ARR_RESERVE((ar), (xs), (xs).n + 1); (xs).v[(xs).n++] = (val); } while (0)

#endif
