/* arena.c - bump allocation over chunks from the allocator hook, string interning with an
 * open-addressing hash table (FNV-1a), and the growth helper behind ARR_PUSH.
 *
 * Chunks are 64 KiB or the request rounded up, whichever is larger; big requests get their own
 * chunk so a large array never wastes the current bump region. */
#include "wgsl/arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arena_chunk {
    arena_chunk *next;
    size_t size;
    /* data follows, 16-aligned */
};

#define CHUNK_HDR ((sizeof(arena_chunk) + 15) & ~(size_t)15)
#define CHUNK_MIN ((size_t)64 << 10)

void arena_init(arena *a, const wgsl_allocator *al) {
    memset(a, 0, sizeof *a);
    if (al) a->al = *al;
}

static void *hook_alloc(arena *a, size_t n) {
    return a->al.alloc ? a->al.alloc(a->al.user, n) : malloc(n);
}

static void hook_free(arena *a, void *p) {
    if (a->al.free) a->al.free(a->al.user, p);
    else free(p);
}

void arena_free(arena *a) {
    arena_chunk *c = a->chunks;
    while (c) {
        arena_chunk *next = c->next;
        hook_free(a, c);
        c = next;
    }
    a->chunks = NULL;
    a->cur = a->end = NULL;
    a->ht = NULL; a->ht_cap = 0;
    a->strs = NULL; a->lens = NULL; a->nstrs = a->strs_cap = 0;
}

static void *fail(arena *a) {
    if (a->oom) longjmp(*a->oom, 1);
    return NULL;
}

/* n bytes aligned to 16, not zeroed. */
static void *alloc_raw(arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (n == 0) n = 16;
    if ((size_t)(a->end - a->cur) < n || !a->cur) {
        if (n > ((size_t)1 << 40)) return fail(a);
        size_t size = n > CHUNK_MIN / 4 ? n : CHUNK_MIN;
        arena_chunk *c = hook_alloc(a, CHUNK_HDR + size);
        if (!c) return fail(a);
        a->bytes += CHUNK_HDR + size;
        c->size = size;
        char *data = (char *)c + CHUNK_HDR;
        if (size > CHUNK_MIN && a->chunks) {
            /* a big block: keep the current bump region, put the chunk second in the list */
            c->next = a->chunks->next;
            a->chunks->next = c;
            return data;
        }
        c->next = a->chunks;
        a->chunks = c;
        a->cur = data;
        a->end = data + size;
    }
    void *p = a->cur;
    a->cur += n;
    return p;
}

void *arena_alloc(arena *a, size_t n) {
    void *p = alloc_raw(a, n);
    if (p) memset(p, 0, n);
    return p;
}

void *arena_dup(arena *a, const void *p, size_t n) {
    void *q = arena_alloc(a, n);
    if (q && n) memcpy(q, p, n);
    return q;
}

char *arena_strndup(arena *a, const char *s, size_t n) {
    char *q = arena_alloc(a, n + 1);
    if (q) {
        if (n) memcpy(q, s, n);
        q[n] = 0;
    }
    return q;
}

char *arena_printf(arena *a, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if ((size_t)n < sizeof buf) return arena_strndup(a, buf, (size_t)n);
    char *q = arena_alloc(a, (size_t)n + 1);
    if (!q) return NULL;
    va_start(ap, fmt);
    vsnprintf(q, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return q;
}

void arena_grow(arena *a, void **v, uint32_t *cap, size_t elem, uint32_t need) {
    uint32_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > UINT32_MAX / 2) { ncap = need; break; }
        ncap *= 2;
    }
    char *nv = alloc_raw(a, (size_t)ncap * elem); /* grown part uninitialised: ARR_PUSH writes it */
    if (!nv) return;
    if (*v && *cap) memcpy(nv, *v, (size_t)*cap * elem);
    *v = nv;
    *cap = ncap;
}

static uint32_t hash(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

uint32_t arena_lookup(const arena *a, const char *s, size_t n) {
    if (!a->ht_cap) return 0;
    uint32_t mask = a->ht_cap - 1;
    for (uint32_t i = hash(s, n) & mask;; i = (i + 1) & mask) {
        uint32_t id = a->ht[i];
        if (!id) return 0;
        if (a->lens[id] == n && memcmp(a->strs[id], s, n) == 0) return id;
    }
}

uint32_t arena_intern(arena *a, const char *s, size_t n) {
    if (n == 0) return 0;
    uint32_t id = arena_lookup(a, s, n);
    if (id) return id;
    if (!a->strs) {
        a->strs_cap = 256;
        a->strs = arena_alloc(a, a->strs_cap * sizeof *a->strs);
        a->lens = arena_alloc(a, a->strs_cap * sizeof *a->lens);
        if (!a->strs || !a->lens) return 0;
        a->strs[0] = "";
        a->nstrs = 1;
    }
    if ((a->nstrs + 1) * 2 > a->ht_cap) {
        uint32_t ncap = a->ht_cap ? a->ht_cap * 2 : 512;
        uint32_t *nht = arena_alloc(a, ncap * sizeof *nht);
        if (!nht) return 0;
        for (uint32_t k = 1; k < a->nstrs; k++) {
            uint32_t j = hash(a->strs[k], a->lens[k]) & (ncap - 1);
            while (nht[j]) j = (j + 1) & (ncap - 1);
            nht[j] = k;
        }
        a->ht = nht;
        a->ht_cap = ncap;
    }
    if (a->nstrs == a->strs_cap) {
        uint32_t cap = a->strs_cap;
        void *ps = (void *)a->strs, *pl = a->lens;
        arena_grow(a, &ps, &cap, sizeof *a->strs, a->nstrs + 1);
        uint32_t cap2 = a->strs_cap;
        arena_grow(a, &pl, &cap2, sizeof *a->lens, a->nstrs + 1);
        a->strs = ps;
        a->lens = pl;
        a->strs_cap = cap;
    }
    char *copy = arena_strndup(a, s, n);
    if (!copy) return 0;
    id = a->nstrs++;
    a->strs[id] = copy;
    a->lens[id] = (uint32_t)n;
    uint32_t mask = a->ht_cap - 1;
    uint32_t i = hash(s, n) & mask;
    while (a->ht[i]) i = (i + 1) & mask;
    a->ht[i] = id;
    return id;
}

uint32_t arena_intern_cstr(arena *a, const char *s) {
    return arena_intern(a, s, strlen(s));
}
