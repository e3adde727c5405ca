/* types.c - the interning table for WGSL types, their names, predicates, conversion ranks and
 * memory layout.
 *
 * Every structural constructor builds a candidate ty_info, hashes its key fields (kind, widths,
 * address space, access, array kind, element, count) and returns the existing handle when an equal
 * row exists; otherwise it appends the row, computing its layout and predicate flags once from its
 * (already interned) operands.  Structs skip the hash (they are nominal), except the built-in result
 * structs of frexp/modf/atomicCompareExchangeWeak, which are keyed by their element type. */
#include "wgsl/types.h"
#include "wgsl/arena.h"

#include <stdio.h>
#include <string.h>

/* ---- table storage ---------------------------------------------------------------------------- */

static void *tt_alloc(ty_table *tt, size_t size) {
    if (tt->oom) return NULL;
    void *p = tt->alloc(tt->ud, size ? size : 1);
    if (!p) { tt->oom = true; return NULL; }
    memset(p, 0, size);
    return p;
}

static const char *tt_strdup(ty_table *tt, const char *s, size_t n) {
    char *p = tt_alloc(tt, n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static uint32_t key_hash(const ty_info *r) {
    uint32_t h = 2166136261u;
    uint32_t parts[9] = { r->kind, r->n, r->rows, r->as, r->access, r->array_kind, r->builtin_struct,
                          r->elem, r->count };
    for (int i = 0; i < 9; i++) { h ^= parts[i]; h *= 16777619u; h ^= h >> 13; }
    return h;
}

static bool key_eq(const ty_info *a, const ty_info *b) {
    return a->kind == b->kind && a->n == b->n && a->rows == b->rows && a->as == b->as &&
           a->access == b->access && a->array_kind == b->array_kind &&
           a->builtin_struct == b->builtin_struct && a->elem == b->elem && a->count == b->count;
}

static int grow_hash(ty_table *tt) {
    uint32_t ncap = tt->hashcap ? tt->hashcap * 2 : 256;
    uint32_t *nh = tt_alloc(tt, ncap * sizeof *nh);
    if (!nh) return -1;
    for (uint32_t i = 0; i < tt->hashcap; i++) {
        uint32_t t = tt->hash[i];
        if (!t) continue;
        uint32_t j = key_hash(&tt->rows[t]) & (ncap - 1);
        while (nh[j]) j = (j + 1) & (ncap - 1);
        nh[j] = t;
    }
    tt->hash = nh;
    tt->hashcap = ncap;
    return 0;
}

static ty_t append_row(ty_table *tt, const ty_info *r) {
    if (tt->nrows == tt->caprows) {
        uint32_t ncap = tt->caprows ? tt->caprows * 2 : 64;
        ty_info *nr = tt_alloc(tt, ncap * sizeof *nr);
        if (!nr) return 0;
        if (tt->nrows) memcpy(nr, tt->rows, tt->nrows * sizeof *nr);
        tt->rows = nr;
        tt->caprows = ncap;
    }
    tt->rows[tt->nrows] = *r;
    return tt->nrows++;
}

static void compute_derived(ty_table *tt, ty_info *r);

/* Looks `r` up; appends it (after computing layout and flags) when absent. */
static ty_t intern(ty_table *tt, ty_info *r) {
    if (tt->oom) return 0;
    if ((tt->nrows + 1) * 2 > tt->hashcap && grow_hash(tt)) return 0;
    uint32_t j = key_hash(r) & (tt->hashcap - 1);
    while (tt->hash[j]) {
        if (key_eq(&tt->rows[tt->hash[j]], r)) return tt->hash[j];
        j = (j + 1) & (tt->hashcap - 1);
    }
    compute_derived(tt, r);
    ty_t t = append_row(tt, r);
    if (t) tt->hash[j] = t;
    return t;
}

int ty_table_init(ty_table *tt, ty_alloc_fn alloc, void *ud) {
    memset(tt, 0, sizeof *tt);
    tt->alloc = alloc;
    tt->ud = ud;
    ty_info none = { 0 };
    none.align = 1;
    if (!append_row(tt, &none) && tt->oom) return -1;
    for (int k = TY_VOID; k <= TY_F16; k++) {
        ty_info r = { 0 };
        r.kind = (uint8_t)k;
        if (intern(tt, &r) != (ty_t)k) return -1;
    }
    return tt->oom ? -1 : 0;
}

static void *arena_hook(void *ud, size_t size) { return arena_alloc((arena *)ud, size); }

int ty_table_init_arena(ty_table *tt, struct arena *a) { return ty_table_init(tt, arena_hook, a); }

/* ---- layout and flags ------------------------------------------------------------------------- */

static void scalar_layout(ty_kind k, uint32_t *align, uint64_t *size) {
    switch (k) {
    case TY_F16: *align = 2; *size = 2; break;
    case TY_AINT: case TY_AFLOAT: *align = 8; *size = 8; break;
    case TY_BOOL: case TY_I32: case TY_U32: case TY_F32: *align = 4; *size = 4; break;
    default: *align = 1; *size = 0; break;
    }
}

static uint32_t inherit_flags(uint32_t f) {
    return f & (TY_F_ABSTRACT | TY_F_CONSTRUCTIBLE | TY_F_HOST_SHAREABLE | TY_F_FIXED_FOOTPRINT |
                TY_F_CREATION_FIXED | TY_F_STORABLE | TY_F_HAS_ATOMIC | TY_F_HAS_F16 | TY_F_HAS_BOOL |
                TY_F_PLAIN);
}

static void compute_derived(ty_table *tt, ty_info *r) {
    const ty_info *e = r->elem ? &tt->rows[r->elem] : NULL;
    r->align = 1;
    r->size = 0;
    switch ((ty_kind)r->kind) {
    case TY_NONE: case TY_VOID: break;
    case TY_BOOL: case TY_AINT: case TY_AFLOAT: case TY_I32: case TY_U32: case TY_F32: case TY_F16:
        scalar_layout((ty_kind)r->kind, &r->align, &r->size);
        r->flags = TY_F_SCALAR | TY_F_CONSTRUCTIBLE | TY_F_FIXED_FOOTPRINT | TY_F_CREATION_FIXED |
                   TY_F_PLAIN;
        if (r->kind != TY_BOOL) r->flags |= TY_F_NUMERIC;
        if (r->kind == TY_AINT || r->kind == TY_AFLOAT) r->flags |= TY_F_ABSTRACT;
        else r->flags |= TY_F_STORABLE;
        if (r->kind >= TY_I32) r->flags |= TY_F_HOST_SHAREABLE;
        if (r->kind == TY_F16) r->flags |= TY_F_HAS_F16;
        if (r->kind == TY_BOOL) r->flags |= TY_F_HAS_BOOL;
        break;
    case TY_VEC: {
        uint32_t n = r->n;
        r->align = e->align * (n == 3 ? 4 : n);
        r->size = e->size * n;
        r->flags = inherit_flags(e->flags);
        break;
    }
    case TY_MAT: {
        uint32_t ca = e->align * (r->rows == 3 ? 4 : r->rows);
        uint64_t cs = e->size * r->rows;
        r->align = ca;
        r->size = r->n * ty_round_up(ca, cs);
        r->flags = inherit_flags(e->flags);
        break;
    }
    case TY_ARRAY:
        r->align = e->align;
        {
            /* sizes saturate instead of wrapping, so oversized types stay diagnosable */
            uint64_t st = e->size > UINT64_MAX - e->align ? UINT64_MAX : ty_round_up(e->align, e->size);
            r->stride = st > UINT32_MAX ? UINT32_MAX : (uint32_t)st;
            r->size = st;
            if (r->array_kind == TY_ARRAY_FIXED)
                r->size = r->count && st > UINT64_MAX / r->count ? UINT64_MAX : (uint64_t)r->count * st;
        }
        r->flags = inherit_flags(e->flags) & ~TY_F_CONSTRUCTIBLE;
        if (r->array_kind == TY_ARRAY_FIXED) {
            r->flags |= e->flags & TY_F_CONSTRUCTIBLE;
        } else if (r->array_kind == TY_ARRAY_OVERRIDE) {
            r->flags &= ~TY_F_CREATION_FIXED;
        } else {
            r->flags &= ~(TY_F_CREATION_FIXED | TY_F_FIXED_FOOTPRINT);
            r->flags |= TY_F_HAS_RUNTIME;
        }
        break;
    case TY_ATOMIC:
        r->align = 4;
        r->size = 4;
        r->flags = TY_F_HOST_SHAREABLE | TY_F_FIXED_FOOTPRINT | TY_F_CREATION_FIXED | TY_F_STORABLE |
                   TY_F_HAS_ATOMIC | TY_F_PLAIN;
        break;
    case TY_PTR: case TY_REF:
        r->flags = 0;
        break;
    case TY_SGMAT:                       /* opaque: no memory layout, lives in registers */
        r->flags = TY_F_CONSTRUCTIBLE | TY_F_FIXED_FOOTPRINT | TY_F_CREATION_FIXED | TY_F_STORABLE |
                   TY_F_PLAIN | (e->flags & TY_F_HAS_F16);
        break;
    case TY_STRUCT: {
        uint64_t off = 0;
        uint32_t al = 1;
        uint32_t f = TY_F_CONSTRUCTIBLE | TY_F_HOST_SHAREABLE | TY_F_FIXED_FOOTPRINT |
                     TY_F_CREATION_FIXED | TY_F_STORABLE | TY_F_PLAIN;
        for (uint32_t i = 0; i < r->nmembers; i++) {
            ty_member *m = &r->members[i];
            const ty_info *mt = &tt->rows[m->type];
            m->align = m->align_attr ? m->align_attr : mt->align;
            m->size = m->size_attr ? m->size_attr : mt->size;
            off = off > UINT64_MAX - m->align ? UINT64_MAX : ty_round_up(m->align, off);
            m->offset = off > UINT32_MAX ? UINT32_MAX : (uint32_t)off;
            off = m->size > UINT64_MAX - off ? UINT64_MAX : off + m->size;
            if (m->align > al) al = m->align;
            f &= mt->flags | ~(TY_F_CONSTRUCTIBLE | TY_F_HOST_SHAREABLE | TY_F_FIXED_FOOTPRINT |
                               TY_F_CREATION_FIXED | TY_F_STORABLE | TY_F_PLAIN);
            f |= mt->flags & (TY_F_ABSTRACT | TY_F_HAS_ATOMIC | TY_F_HAS_F16 | TY_F_HAS_BOOL);
            if (i + 1 == r->nmembers) f |= mt->flags & TY_F_HAS_RUNTIME;
            if (mt->flags & TY_F_HAS_RUNTIME) f &= ~TY_F_CONSTRUCTIBLE;
        }
        if (f & TY_F_HAS_ATOMIC) f &= ~TY_F_CONSTRUCTIBLE;
        if (f & TY_F_HAS_BOOL) f &= ~TY_F_HOST_SHAREABLE;
        if (f & TY_F_ABSTRACT) f &= ~(TY_F_HOST_SHAREABLE | TY_F_STORABLE);
        r->align = al;
        r->size = off > UINT64_MAX - al ? UINT64_MAX : ty_round_up(al, off);
        r->flags = f;
        break;
    }
    case TY_KIND_COUNT: break;
    }
    if (r->kind == TY_VEC || r->kind == TY_MAT || r->kind == TY_ARRAY) {
        if (r->flags & TY_F_HAS_BOOL) r->flags &= ~TY_F_HOST_SHAREABLE;
        if (r->flags & TY_F_ABSTRACT) r->flags &= ~(TY_F_HOST_SHAREABLE | TY_F_STORABLE);
        if (r->kind == TY_ARRAY && (r->flags & TY_F_HAS_ATOMIC)) r->flags &= ~TY_F_CONSTRUCTIBLE;
    }
}

/* ---- constructors ----------------------------------------------------------------------------- */

static bool is_scalar_handle(ty_t t) { return t >= TY_BOOL && t <= TY_F16; }

ty_t ty_vec(ty_table *tt, uint32_t n, ty_t elem) {
    if (n < 2 || n > 4 || !is_scalar_handle(elem)) return 0;
    ty_info r = { 0 };
    r.kind = TY_VEC;
    r.n = (uint8_t)n;
    r.elem = elem;
    return intern(tt, &r);
}

ty_t ty_mat(ty_table *tt, uint32_t cols, uint32_t rows, ty_t elem) {
    if (cols < 2 || cols > 4 || rows < 2 || rows > 4) return 0;
    if (elem != TY_AFLOAT && elem != TY_F32 && elem != TY_F16) return 0;
    ty_info r = { 0 };
    r.kind = TY_MAT;
    r.n = (uint8_t)cols;
    r.rows = (uint8_t)rows;
    r.elem = elem;
    return intern(tt, &r);
}

static ty_t make_array(ty_table *tt, ty_t elem, ty_array_kind k, uint32_t count, const char *name) {
    if (!elem || elem >= tt->nrows) return 0;
    ty_info r = { 0 };
    r.kind = TY_ARRAY;
    r.array_kind = (uint8_t)k;
    r.elem = elem;
    r.count = count;
    uint32_t before = tt->nrows;
    ty_t t = intern(tt, &r);
    if (t && t >= before && name) tt->rows[t].name = tt_strdup(tt, name, strlen(name));
    return t;
}

ty_t ty_array(ty_table *tt, ty_t elem, uint32_t count) {
    if (count == 0) return 0;
    return make_array(tt, elem, TY_ARRAY_FIXED, count, NULL);
}

ty_t ty_array_runtime(ty_table *tt, ty_t elem) { return make_array(tt, elem, TY_ARRAY_RUNTIME, 0, NULL); }

ty_t ty_array_override(ty_table *tt, ty_t elem, uint32_t key, const char *name) {
    return make_array(tt, elem, TY_ARRAY_OVERRIDE, key, name);
}

ty_t ty_atomic(ty_table *tt, ty_t t) {
    if (t != TY_I32 && t != TY_U32) return 0;
    ty_info r = { 0 };
    r.kind = TY_ATOMIC;
    r.elem = t;
    return intern(tt, &r);
}

ty_t ty_sgmat(ty_table *tt, ty_sgm_use use, ty_t elem, uint32_t cols, uint32_t rows) {
    return ty_coopmat(tt, TY_SGM_SUBGROUP, use, elem, cols, rows);
}

ty_t ty_coopmat(ty_table *tt, ty_sgm_scope scope, ty_sgm_use use, ty_t elem, uint32_t cols, uint32_t rows) {
    uint32_t max = scope == TY_SGM_WORKGROUP ? 1024u : 255u;
    if (use <= TY_SGM_NONE || use >= TY_SGM_COUNT || cols < 1 || cols > max || rows < 1 || rows > max) return 0;
    if (elem != TY_F16 && elem != TY_F32 && elem != TY_I32 && elem != TY_U32) return 0;
    if (scope != TY_SGM_SUBGROUP && scope != TY_SGM_WORKGROUP) return 0;
    ty_info r = { 0 };
    r.kind = TY_SGMAT;
    r.as = (uint8_t)scope;
    r.access = (uint8_t)use;
    r.n = (uint16_t)cols;
    r.rows = (uint16_t)rows;
    r.elem = elem;
    return intern(tt, &r);
}

static ty_t make_pointer(ty_table *tt, ty_kind k, ty_as as, ty_t store, ty_access am) {
    if (!store || store >= tt->nrows || as <= TY_AS_NONE || as >= TY_AS_COUNT) return 0;
    if (am <= TY_ACCESS_NONE || am >= TY_ACCESS_COUNT) am = ty_as_default_access(as);
    ty_info r = { 0 };
    r.kind = (uint8_t)k;
    r.as = (uint8_t)as;
    r.access = (uint8_t)am;
    r.elem = store;
    return intern(tt, &r);
}

ty_t ty_ptr(ty_table *tt, ty_as as, ty_t store, ty_access am) { return make_pointer(tt, TY_PTR, as, store, am); }
ty_t ty_ref(ty_table *tt, ty_as as, ty_t store, ty_access am) { return make_pointer(tt, TY_REF, as, store, am); }

ty_t ty_struct_new(ty_table *tt, const char *name, uint32_t name_id, const ty_member *members, uint32_t n) {
    if (tt->oom) return 0;
    ty_info r = { 0 };
    r.kind = TY_STRUCT;
    r.name = name ? tt_strdup(tt, name, strlen(name)) : NULL;
    r.name_id = name_id;
    r.nmembers = n;
    r.members = tt_alloc(tt, (n ? n : 1) * sizeof *r.members);
    if (!r.members) return 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!members[i].type || members[i].type >= tt->nrows) return 0;
        r.members[i] = members[i];
        if (members[i].name_str)
            r.members[i].name_str = tt_strdup(tt, members[i].name_str, strlen(members[i].name_str));
    }
    compute_derived(tt, &r);
    return tt->oom ? 0 : append_row(tt, &r);
}

ty_t ty_builtin_struct_of(ty_table *tt, ty_builtin_struct which, ty_t t) {
    ty_t s = ty_scalar_of(tt, t);
    ty_info key = { 0 };
    key.kind = TY_STRUCT;
    key.builtin_struct = (uint8_t)which;
    key.elem = t;
    if (tt->oom || tt->nrows * 2 + 2 > tt->hashcap) { if (grow_hash(tt)) return 0; }
    uint32_t j = key_hash(&key) & (tt->hashcap - 1);
    while (tt->hash[j]) {
        if (key_eq(&tt->rows[tt->hash[j]], &key)) return tt->hash[j];
        j = (j + 1) & (tt->hashcap - 1);
    }
    ty_member m[2];
    memset(m, 0, sizeof m);
    char name[64];
    const char *sn = s == TY_AFLOAT ? "abstract" : s == TY_F16 ? "f16" : s == TY_F32 ? "f32" :
                     s == TY_I32 ? "i32" : "u32";
    char vec[8] = "";
    if (ty_is_vec(tt, t)) snprintf(vec, sizeof vec, "vec%u_", (unsigned)ty_width(tt, t));
    switch (which) {
    case TY_BS_FREXP:
        if (s != TY_AFLOAT && s != TY_F32 && s != TY_F16) return 0;
        m[0].name_str = "fract"; m[0].type = t;
        m[1].name_str = "exp";
        m[1].type = ty_with_scalar(tt, t, s == TY_AFLOAT ? TY_AINT : TY_I32);
        snprintf(name, sizeof name, "__frexp_result_%s%s", vec, sn);
        break;
    case TY_BS_MODF:
        if (s != TY_AFLOAT && s != TY_F32 && s != TY_F16) return 0;
        m[0].name_str = "fract"; m[0].type = t;
        m[1].name_str = "whole"; m[1].type = t;
        snprintf(name, sizeof name, "__modf_result_%s%s", vec, sn);
        break;
    case TY_BS_ATOMIC_CMPXCHG:
        if (t != TY_I32 && t != TY_U32) return 0;
        m[0].name_str = "old_value"; m[0].type = t;
        m[1].name_str = "exchanged"; m[1].type = TY_BOOL;
        snprintf(name, sizeof name, "__atomic_compare_exchange_result_%s", sn);
        break;
    default:
        return 0;
    }
    ty_t st = ty_struct_new(tt, name, 0, m, 2);
    if (!st) return 0;
    tt->rows[st].builtin_struct = (uint8_t)which;
    tt->rows[st].elem = t;
    /* re-probe: the struct creation may have grown nothing in the hash, but be safe */
    j = key_hash(&key) & (tt->hashcap - 1);
    while (tt->hash[j]) j = (j + 1) & (tt->hashcap - 1);
    tt->hash[j] = st;
    return st;
}

/* ---- names ------------------------------------------------------------------------------------ */

static const char *const as_names[TY_AS_COUNT] = {
    "", "function", "private", "workgroup", "uniform", "storage", "handle"
};
static const char *const access_names[TY_ACCESS_COUNT] = { "", "read", "write", "read_write" };

const char *ty_as_name(ty_as as) { return as < TY_AS_COUNT ? as_names[as] : ""; }
const char *ty_access_name(ty_access am) { return am < TY_ACCESS_COUNT ? access_names[am] : ""; }

ty_as ty_as_by_name(const char *name, size_t len) {
    for (int i = 1; i < TY_AS_COUNT; i++)
        if (strlen(as_names[i]) == len && memcmp(as_names[i], name, len) == 0) return (ty_as)i;
    return TY_AS_NONE;
}

ty_access ty_access_by_name(const char *name, size_t len) {
    for (int i = 1; i < TY_ACCESS_COUNT; i++)
        if (strlen(access_names[i]) == len && memcmp(access_names[i], name, len) == 0) return (ty_access)i;
    return TY_ACCESS_NONE;
}

ty_access ty_as_default_access(ty_as as) {
    return as == TY_AS_STORAGE || as == TY_AS_UNIFORM || as == TY_AS_HANDLE ? TY_ACCESS_READ
                                                                             : TY_ACCESS_READ_WRITE;
}

static const char *const scalar_names[] = {
    "<none>", "void", "bool", "abstract-int", "abstract-float", "i32", "u32", "f32", "f16"
};

ty_t ty_scalar_by_name(const char *name, size_t len) {
    for (int k = TY_BOOL; k <= TY_F16; k++) {
        if (k == TY_AINT || k == TY_AFLOAT) continue;
        if (strlen(scalar_names[k]) == len && memcmp(scalar_names[k], name, len) == 0) return (ty_t)k;
    }
    return 0;
}

ty_t ty_predeclared_alias(ty_table *tt, const char *name, size_t len) {
    ty_t s;
    if (len < 5) return 0;
    switch (name[len - 1]) {
    case 'f': s = TY_F32; break;
    case 'h': s = TY_F16; break;
    case 'i': s = TY_I32; break;
    case 'u': s = TY_U32; break;
    default: return 0;
    }
    if (len == 5 && memcmp(name, "vec", 3) == 0 && name[3] >= '2' && name[3] <= '4')
        return ty_vec(tt, (uint32_t)(name[3] - '0'), s);
    if (len == 7 && memcmp(name, "mat", 3) == 0 && name[4] == 'x' && name[3] >= '2' && name[3] <= '4' &&
        name[5] >= '2' && name[5] <= '4' && (s == TY_F32 || s == TY_F16))
        return ty_mat(tt, (uint32_t)(name[3] - '0'), (uint32_t)(name[5] - '0'), s);
    return 0;
}

/* Appends the name of t to buf (bounded); returns the would-be length. */
static size_t name_into(ty_table *tt, ty_t t, char *buf, size_t cap, size_t pos) {
#define PUT(s) do { const char *s_ = (s); size_t l_ = strlen(s_); \
        for (size_t i_ = 0; i_ < l_; i_++) { if (pos + 1 < cap) buf[pos] = s_[i_]; pos++; } } while (0)
    const ty_info *r = ty_get(tt, t);
    char num[32];
    switch ((ty_kind)r->kind) {
    case TY_NONE: case TY_VOID: case TY_BOOL: case TY_AINT: case TY_AFLOAT:
    case TY_I32: case TY_U32: case TY_F32: case TY_F16:
        PUT(scalar_names[r->kind]);
        break;
    case TY_VEC:
        snprintf(num, sizeof num, "vec%u<", (unsigned)r->n);
        PUT(num); pos = name_into(tt, r->elem, buf, cap, pos); PUT(">");
        break;
    case TY_MAT:
        snprintf(num, sizeof num, "mat%ux%u<", (unsigned)r->n, (unsigned)r->rows);
        PUT(num); pos = name_into(tt, r->elem, buf, cap, pos); PUT(">");
        break;
    case TY_ARRAY:
        PUT("array<"); pos = name_into(tt, r->elem, buf, cap, pos);
        if (r->array_kind == TY_ARRAY_FIXED) { snprintf(num, sizeof num, ", %u", (unsigned)r->count); PUT(num); }
        else if (r->array_kind == TY_ARRAY_OVERRIDE) { PUT(", "); PUT(r->name ? r->name : "[unnamed override-expression]"); }
        PUT(">");
        break;
    case TY_ATOMIC:
        PUT("atomic<"); pos = name_into(tt, r->elem, buf, cap, pos); PUT(">");
        break;
    case TY_PTR: case TY_REF:
        PUT(r->kind == TY_PTR ? "ptr<" : "ref<"); PUT(ty_as_name((ty_as)r->as)); PUT(", ");
        pos = name_into(tt, r->elem, buf, cap, pos);
        PUT(", "); PUT(ty_access_name((ty_access)r->access)); PUT(">");
        break;
    case TY_STRUCT:
        PUT(r->name ? r->name : "<struct>");
        break;
    case TY_SGMAT:
        PUT(r->as == TY_SGM_WORKGROUP ? "workgroup_matrix_" : "subgroup_matrix_");
        PUT(r->access == TY_SGM_LEFT ? "left<" : r->access == TY_SGM_RIGHT ? "right<" : "result<");
        pos = name_into(tt, r->elem, buf, cap, pos);
        snprintf(num, sizeof num, ", %u, %u>", (unsigned)r->n, (unsigned)r->rows);
        PUT(num);
        break;
    case TY_KIND_COUNT: break;
    }
    return pos;
#undef PUT
}

const char *ty_name(ty_table *tt, ty_t t) {
    if (t >= tt->nrows) t = 0;
    ty_info *r = &tt->rows[t];
    if (r->cached_name) return r->cached_name;
    if (t <= TY_F16) return scalar_names[t];
    if (r->kind == TY_STRUCT && r->name) return r->name;
    char small[256];
    size_t n = name_into(tt, t, small, sizeof small, 0);
    char *p = tt_alloc(tt, n + 1);
    if (!p) return "<oom>";
    if (n < sizeof small) memcpy(p, small, n + 1);
    else name_into(tt, t, p, n + 1, 0);
    p[n] = 0;
    tt->rows[t].cached_name = p;
    return p;
}

/* ---- predicates and helpers ------------------------------------------------------------------- */

bool ty_is_scalar(const ty_table *tt, ty_t t) { return t >= TY_BOOL && t <= TY_F16 && t < tt->nrows; }
bool ty_is_numeric_scalar(const ty_table *tt, ty_t t) { (void)tt; return t >= TY_AINT && t <= TY_F16; }
bool ty_is_integer_scalar(const ty_table *tt, ty_t t) { (void)tt; return t == TY_AINT || t == TY_I32 || t == TY_U32; }
bool ty_is_float_scalar(const ty_table *tt, ty_t t) { (void)tt; return t == TY_AFLOAT || t == TY_F32 || t == TY_F16; }
bool ty_is_signed_scalar(const ty_table *tt, ty_t t) { return ty_is_numeric_scalar(tt, t) && t != TY_U32; }
bool ty_is_concrete_scalar(const ty_table *tt, ty_t t) { (void)tt; return t == TY_BOOL || (t >= TY_I32 && t <= TY_F16); }
bool ty_is_abstract(const ty_table *tt, ty_t t) { return ty_has(tt, t, TY_F_ABSTRACT); }
bool ty_is_vec(const ty_table *tt, ty_t t) { return ty_kind_of(tt, t) == TY_VEC; }
bool ty_is_mat(const ty_table *tt, ty_t t) { return ty_kind_of(tt, t) == TY_MAT; }
bool ty_is_numeric_vec(const ty_table *tt, ty_t t) { return ty_is_vec(tt, t) && ty_get(tt, t)->elem != TY_BOOL; }
bool ty_is_constructible(const ty_table *tt, ty_t t) { return ty_has(tt, t, TY_F_CONSTRUCTIBLE); }
bool ty_is_host_shareable(const ty_table *tt, ty_t t) { return ty_has(tt, t, TY_F_HOST_SHAREABLE); }
bool ty_is_storable(const ty_table *tt, ty_t t) { return ty_has(tt, t, TY_F_STORABLE); }
bool ty_is_plain(const ty_table *tt, ty_t t) { return ty_has(tt, t, TY_F_PLAIN); }
bool ty_is_fixed_footprint(const ty_table *tt, ty_t t) { return ty_has(tt, t, TY_F_FIXED_FOOTPRINT); }
bool ty_is_creation_fixed_footprint(const ty_table *tt, ty_t t) { return ty_has(tt, t, TY_F_CREATION_FIXED); }
bool ty_is_ptr(const ty_table *tt, ty_t t) { return ty_kind_of(tt, t) == TY_PTR; }
bool ty_is_ref(const ty_table *tt, ty_t t) { return ty_kind_of(tt, t) == TY_REF; }

ty_t ty_scalar_of(const ty_table *tt, ty_t t) {
    if (ty_is_scalar(tt, t)) return t;
    const ty_info *r = ty_get(tt, t);
    return r->kind == TY_VEC || r->kind == TY_MAT ? r->elem : 0;
}

ty_t ty_elem(const ty_table *tt, ty_t t) {
    const ty_info *r = ty_get(tt, t);
    return r->kind == TY_STRUCT ? 0 : r->elem;
}

ty_t ty_unref(const ty_table *tt, ty_t t) {
    const ty_info *r = ty_get(tt, t);
    return r->kind == TY_REF ? r->elem : t;
}

uint32_t ty_width(const ty_table *tt, ty_t t) {
    const ty_info *r = ty_get(tt, t);
    return r->kind == TY_VEC || r->kind == TY_MAT ? r->n : 1;
}

ty_t ty_with_scalar(ty_table *tt, ty_t t, ty_t s) {
    const ty_info *r = ty_get(tt, t);
    switch ((ty_kind)r->kind) {
    case TY_VEC: return ty_vec(tt, r->n, s);
    case TY_MAT: return ty_mat(tt, r->n, r->rows, s);
    case TY_ARRAY: {
        ty_t e = ty_with_scalar(tt, r->elem, s);
        if (!e) return 0;
        if (r->array_kind == TY_ARRAY_FIXED) return ty_array(tt, e, r->count);
        if (r->array_kind == TY_ARRAY_RUNTIME) return ty_array_runtime(tt, e);
        return ty_array_override(tt, e, r->count, r->name);
    }
    default: return ty_is_scalar(tt, t) ? s : 0;
    }
}

ty_t ty_mat_column(ty_table *tt, ty_t m) {
    const ty_info *r = ty_get(tt, m);
    return r->kind == TY_MAT ? ty_vec(tt, r->rows, r->elem) : 0;
}

int ty_member_index(const ty_table *tt, ty_t s, uint32_t name_id) {
    const ty_info *r = ty_get(tt, s);
    if (r->kind != TY_STRUCT) return -1;
    for (uint32_t i = 0; i < r->nmembers; i++)
        if (r->members[i].name == name_id && name_id) return (int)i;
    return -1;
}

int ty_member_index_str(const ty_table *tt, ty_t s, const char *name, size_t len) {
    const ty_info *r = ty_get(tt, s);
    if (r->kind != TY_STRUCT) return -1;
    for (uint32_t i = 0; i < r->nmembers; i++) {
        const char *n = r->members[i].name_str;
        if (n && strlen(n) == len && memcmp(n, name, len) == 0) return (int)i;
    }
    return -1;
}

/* ---- conversion rank and concretization --------------------------------------------------------- */

static int scalar_rank(ty_t from, ty_t to) {
    if (from == to) return 0;
    if (from == TY_AFLOAT) return to == TY_F32 ? 1 : to == TY_F16 ? 2 : TY_RANK_INF;
    if (from == TY_AINT) {
        switch (to) {
        case TY_I32: return 3;
        case TY_U32: return 4;
        case TY_AFLOAT: return 5;
        case TY_F32: return 6;
        case TY_F16: return 7;
        default: return TY_RANK_INF;
        }
    }
    return TY_RANK_INF;
}

int ty_conversion_rank(const ty_table *tt, ty_t from, ty_t to) {
    if (from == to) return 0;
    if (!from || !to) return TY_RANK_INF;
    const ty_info *a = ty_get(tt, from), *b = ty_get(tt, to);
    if (a->kind == TY_REF) {
        /* load rule: ref<AS,T,AM> -> T when readable */
        if (a->access == TY_ACCESS_WRITE) return TY_RANK_INF;
        return a->elem == to ? 0 : TY_RANK_INF;
    }
    if (ty_is_scalar(tt, from)) return ty_is_scalar(tt, to) ? scalar_rank(from, to) : TY_RANK_INF;
    if (a->kind != b->kind) return TY_RANK_INF;
    switch ((ty_kind)a->kind) {
    case TY_VEC:
        return a->n == b->n ? scalar_rank(a->elem, b->elem) : TY_RANK_INF;
    case TY_MAT:
        return a->n == b->n && a->rows == b->rows ? scalar_rank(a->elem, b->elem) : TY_RANK_INF;
    case TY_ARRAY:
        if (a->array_kind != TY_ARRAY_FIXED || b->array_kind != TY_ARRAY_FIXED || a->count != b->count)
            return TY_RANK_INF;
        if (!(a->flags & TY_F_ABSTRACT)) return TY_RANK_INF;
        return ty_conversion_rank(tt, a->elem, b->elem);
    case TY_STRUCT:
        if (a->builtin_struct && a->builtin_struct == b->builtin_struct &&
            a->builtin_struct != TY_BS_ATOMIC_CMPXCHG)
            return ty_conversion_rank(tt, a->elem, b->elem);
        return TY_RANK_INF;
    default:
        return TY_RANK_INF;
    }
}

ty_t ty_concretize(ty_table *tt, ty_t t) {
    if (!ty_is_abstract(tt, t)) return t;
    if (t == TY_AINT) return TY_I32;
    if (t == TY_AFLOAT) return TY_F32;
    const ty_info *r = ty_get(tt, t);
    switch ((ty_kind)r->kind) {
    case TY_VEC: case TY_MAT: return ty_with_scalar(tt, t, ty_concretize(tt, r->elem));
    case TY_ARRAY: {
        ty_t e = ty_concretize(tt, r->elem);
        if (r->array_kind == TY_ARRAY_FIXED) return ty_array(tt, e, r->count);
        if (r->array_kind == TY_ARRAY_RUNTIME) return ty_array_runtime(tt, e);
        return ty_array_override(tt, e, r->count, r->name);
    }
    case TY_STRUCT:
        if (r->builtin_struct) return ty_builtin_struct_of(tt, (ty_builtin_struct)r->builtin_struct,
                                                           ty_concretize(tt, r->elem));
        return t;
    default: return t;
    }
}

/* ---- layout ----------------------------------------------------------------------------------- */

uint32_t ty_align_of(const ty_table *tt, ty_t t) { return ty_get(tt, t)->align; }
uint64_t ty_size_of(const ty_table *tt, ty_t t) { return ty_get(tt, t)->size; }
uint32_t ty_stride_of(const ty_table *tt, ty_t t) { return ty_get(tt, t)->stride; }

uint32_t ty_required_align(const ty_table *tt, ty_t t, ty_as as) {
    const ty_info *r = ty_get(tt, t);
    if (as == TY_AS_UNIFORM && (r->kind == TY_STRUCT || r->kind == TY_ARRAY))
        return (uint32_t)ty_round_up(16, r->align);
    return r->align;
}

int ty_layout_check(ty_table *tt, ty_t t, ty_as as, char *msg, size_t msgsize,
                    ty_t *struct_out, uint32_t *member_out) {
    const ty_info *r = ty_get(tt, t);
    if (struct_out) *struct_out = 0;
    if (member_out) *member_out = ~0u;
    if (ty_size_limit_check(tt, t, msg, msgsize)) return 1;
    if (as != TY_AS_UNIFORM && as != TY_AS_STORAGE) return 0;
    if (r->kind == TY_STRUCT) {
        for (uint32_t i = 0; i < r->nmembers; i++) {
            const ty_member *m = &r->members[i];
            uint32_t req = ty_required_align(tt, m->type, as);
            if (req && m->offset % req != 0) {
                snprintf(msg, msgsize,
                         "the offset of a struct member of type '%s' in address space '%s' must be a "
                         "multiple of %u bytes, but '%s' is currently at offset %u. Consider setting "
                         "@align(%u) on this member",
                         ty_name(tt, m->type), ty_as_name(as), (unsigned)req,
                         m->name_str ? m->name_str : "", (unsigned)m->offset, (unsigned)req);
                if (struct_out) *struct_out = t;
                if (member_out) *member_out = i;
                return 1;
            }
            if (as == TY_AS_UNIFORM && i > 0 && ty_kind_of(tt, r->members[i - 1].type) == TY_STRUCT) {
                const ty_member *p = &r->members[i - 1];
                uint32_t gap = m->offset - p->offset;
                uint64_t need = ty_round_up(16, ty_size_of(tt, p->type));
                if (gap < need) {
                    snprintf(msg, msgsize,
                             "uniform storage requires that the number of bytes between the start of "
                             "the previous member of type struct and the current member be a multiple "
                             "of 16 bytes, but there are currently %u bytes between '%s' and '%s'. "
                             "Consider setting @align(16) on this member",
                             (unsigned)gap, p->name_str ? p->name_str : "", m->name_str ? m->name_str : "");
                    if (struct_out) *struct_out = t;
                    if (member_out) *member_out = i;
                    return 1;
                }
            }
            ty_t inner_s = 0;
            uint32_t inner_m = ~0u;
            if (ty_layout_check(tt, m->type, as, msg, msgsize, &inner_s, &inner_m)) {
                if (struct_out) *struct_out = inner_s ? inner_s : t;
                if (member_out) *member_out = inner_s ? inner_m : i;
                return 1;
            }
        }
        return 0;
    }
    if (r->kind == TY_ARRAY) {
        if (as == TY_AS_UNIFORM && r->stride % 16 != 0) {
            snprintf(msg, msgsize,
                     "uniform storage requires that array elements are aligned to 16 bytes, but array "
                     "element of type '%s' has a stride of %u bytes. Consider using a vector or struct "
                     "as the element type instead.",
                     ty_name(tt, r->elem), (unsigned)r->stride);
            return 1;
        }
        return ty_layout_check(tt, r->elem, as, msg, msgsize, struct_out, member_out);
    }
    return 0;
}

int ty_member_attr_check(ty_table *tt, ty_t t, uint32_t align_attr, uint32_t size_attr,
                         char *msg, size_t msgsize) {
    if (align_attr) {
        if (align_attr & (align_attr - 1)) {
            snprintf(msg, msgsize, "'@align' value must be a positive, power-of-two integer");
            return 1;
        }
        uint32_t need = ty_align_of(tt, t);
        if (need && align_attr % need) {
            snprintf(msg, msgsize, "alignment must be a multiple of '%u' bytes", (unsigned)need);
            return 1;
        }
    }
    if (size_attr) {
        if (!ty_is_creation_fixed_footprint(tt, t)) {
            snprintf(msg, msgsize, "'@size' can only be applied to members where the member's type size "
                                   "can be fully determined at shader creation time");
            return 1;
        }
        if (size_attr < ty_size_of(tt, t)) {
            snprintf(msg, msgsize, "'@size' must be at least as big as the type's size (%llu)",
                     (unsigned long long)ty_size_of(tt, t));
            return 1;
        }
    }
    return 0;
}

int ty_size_limit_check(const ty_table *tt, ty_t t, char *msg, size_t msgsize) {
    const ty_info *r = ty_get(tt, t);
    if (r->size <= 0xffffffffull) return 0;
    if (r->kind == TY_ARRAY)
        snprintf(msg, msgsize, "array byte size (0x%llx) must not exceed 0xffffffff bytes", (unsigned long long)r->size);
    else
        snprintf(msg, msgsize, "struct size (0x%llx) must not exceed 0xffffffff bytes", (unsigned long long)r->size);
    return 1;
}

ty_t ty_first_non_host_shareable(const ty_table *tt, ty_t t) {
    const ty_info *r = ty_get(tt, t);
    if (r->flags & TY_F_HOST_SHAREABLE) return 0;
    switch ((ty_kind)r->kind) {
    case TY_VEC: case TY_MAT: case TY_ARRAY: {
        ty_t e = ty_first_non_host_shareable(tt, r->elem);
        return e ? e : t;
    }
    case TY_STRUCT:
        for (uint32_t i = 0; i < r->nmembers; i++) {
            ty_t e = ty_first_non_host_shareable(tt, r->members[i].type);
            if (e) return e;
        }
        return t;
    default:
        return t;
    }
}
