/* spvbuild.c - the SPIR-V binary builder (see spirv.h).
 *
 * Word buffers grow by doubling through the allocator hook.  Deduplication hashes the key
 * words (opcode, result type, operands, extra words) with FNV-1a into an open-addressing
 * table whose keys live back to back in one word buffer.  On allocation failure the builder
 * sets oom and ignores everything afterwards; ids keep being handed out so callers need no
 * checks in the middle of emission. */
#include <string.h>

#include "wgsl/spirv.h"

static const struct { uint32_t op; const char *name; } op_names[] = {
#define X(n, v) { v, #n },
    SPV_OPS(X)
#undef X
};
_Static_assert(sizeof op_names / sizeof op_names[0] == SPV_OP_TABLE_COUNT, "opcode table");

const char *spv_op_name(uint32_t op) {
    for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
        if (op_names[i].op == op) return op_names[i].name;
    return NULL;
}

static int grow(spv_builder *b, spv_words *w, uint32_t need) {
    if (b->oom) return 0;
    if (w->n + need <= w->cap) return 1;
    uint32_t cap = w->cap ? w->cap : 64;
    while (cap < w->n + need) {
        if (cap > 0x3fffffffu) { b->oom = 1; return 0; }
        cap *= 2;
    }
    uint32_t *p = b->alloc(b->alloc_user, w->w, (size_t)w->cap * 4, (size_t)cap * 4);
    if (!p) { b->oom = 1; return 0; }
    w->w = p;
    w->cap = cap;
    return 1;
}

static void words_free(spv_builder *b, spv_words *w) {
    if (w->w) b->alloc(b->alloc_user, w->w, (size_t)w->cap * 4, 0);
    memset(w, 0, sizeof *w);
}

static void words_append(spv_builder *b, spv_words *dst, const spv_words *src) {
    if (!src->n || !grow(b, dst, src->n)) return;
    memcpy(dst->w + dst->n, src->w, (size_t)src->n * 4);
    dst->n += src->n;
}

void spv_init(spv_builder *b, spv_alloc_fn alloc, void *user, uint32_t version) {
    memset(b, 0, sizeof *b);
    b->alloc = alloc;
    b->alloc_user = user;
    b->version = version ? version : SPV_VERSION_1_3;
    b->bound = 1;
}

void spv_free(spv_builder *b) {
    for (int i = 0; i < SPV_SEC_COUNT; i++) words_free(b, &b->sec[i]);
    words_free(b, &b->keys);
    words_free(b, &b->fn_head);
    words_free(b, &b->fn_vars);
    words_free(b, &b->fn_body);
    if (b->dedup) b->alloc(b->alloc_user, b->dedup, (size_t)b->dedup_cap * sizeof *b->dedup, 0);
    b->dedup = NULL;
    b->dedup_cap = b->dedup_n = 0;
}

uint32_t spv_id(spv_builder *b) { return b->bound++; }

void spv_inst(spv_builder *b, spv_words *w, uint32_t op, uint32_t n, const uint32_t *ops) {
    if (!grow(b, w, n + 1)) return;
    w->w[w->n++] = ((n + 1) << 16) | (op & 0xffffu);
    if (n) memcpy(w->w + w->n, ops, (size_t)n * 4);
    w->n += n;
}

void spv_inst_str(spv_builder *b, spv_words *w, uint32_t op, uint32_t npre,
                  const uint32_t *pre, const char *s, uint32_t npost, const uint32_t *post) {
    size_t len = strlen(s);
    uint32_t nstr = (uint32_t)(len / 4 + 1);
    uint32_t n = 1 + npre + nstr + npost;
    if (!grow(b, w, n)) return;
    uint32_t *p = w->w + w->n;
    p[0] = (n << 16) | (op & 0xffffu);
    for (uint32_t i = 0; i < npre; i++) p[1 + i] = pre[i];
    uint32_t *sp = p + 1 + npre;
    memset(sp, 0, (size_t)nstr * 4);
    for (size_t i = 0; i < len; i++) /* literal strings are little-endian packed bytes */
        sp[i / 4] |= (uint32_t)(unsigned char)s[i] << (8 * (i % 4));
    for (uint32_t i = 0; i < npost; i++) sp[nstr + i] = post[i];
    w->n += n;
}

/* Appends `op pre[0..npre) ops[0..n)` (any length up to the 65535-word limit). */
static void inst2(spv_builder *b, spv_words *w, uint32_t op, uint32_t npre, const uint32_t *pre,
                  uint32_t n, const uint32_t *ops) {
    uint32_t len = 1 + npre + n;
    if (len > 0xffffu) { b->oom = 1; return; } /* not representable: treated as a failure */
    if (!grow(b, w, len)) return;
    uint32_t *p = w->w + w->n;
    p[0] = (len << 16) | (op & 0xffffu);
    if (npre) memcpy(p + 1, pre, (size_t)npre * 4);
    if (n) memcpy(p + 1 + npre, ops, (size_t)n * 4);
    w->n += len;
}

/* Finds (or inserts with id = *id) a key; returns 1 when it was already there. */
static uint32_t fnv(const uint32_t *k, uint32_t n) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        for (int j = 0; j < 4; j++) h = (h ^ ((k[i] >> (8 * j)) & 0xff)) * 16777619u;
    return h ? h : 1;
}

static int dedup_grow(spv_builder *b) {
    uint32_t cap = b->dedup_cap ? b->dedup_cap * 2 : 256;
    spv_dedup_entry *t = b->alloc(b->alloc_user, NULL, 0, (size_t)cap * sizeof *t);
    if (!t) { b->oom = 1; return 0; }
    memset(t, 0, (size_t)cap * sizeof *t);
    for (uint32_t i = 0; i < b->dedup_cap; i++) {
        spv_dedup_entry e = b->dedup[i];
        if (!e.len) continue;
        uint32_t j = e.hash & (cap - 1);
        while (t[j].len) j = (j + 1) & (cap - 1);
        t[j] = e;
    }
    if (b->dedup) b->alloc(b->alloc_user, b->dedup, (size_t)b->dedup_cap * sizeof *t, 0);
    b->dedup = t;
    b->dedup_cap = cap;
    return 1;
}

/* Returns the id stored for key, or 0 and reserves a slot filled by dedup_put. */
static spv_dedup_entry *dedup_find(spv_builder *b, const uint32_t *key, uint32_t n, uint32_t *hash) {
    if (b->oom) return NULL;
    if ((b->dedup_n + 1) * 2 > b->dedup_cap && !dedup_grow(b)) return NULL;
    uint32_t h = fnv(key, n);
    *hash = h;
    uint32_t j = h & (b->dedup_cap - 1);
    for (;;) {
        spv_dedup_entry *e = &b->dedup[j];
        if (!e->len) return e;
        if (e->hash == h && e->len == n && !memcmp(b->keys.w + e->key, key, (size_t)n * 4))
            return e;
        j = (j + 1) & (b->dedup_cap - 1);
    }
}

uint32_t spv_global_dedup(spv_builder *b, uint32_t op, int has_type, uint32_t type,
                          uint32_t n, const uint32_t *ops, uint32_t nextra, const uint32_t *extra) {
    uint32_t small[64];
    uint32_t kn = 2 + n + nextra;
    uint32_t *key = small;
    if (kn > 64) {
        key = b->oom ? NULL : b->alloc(b->alloc_user, NULL, 0, (size_t)kn * 4);
        if (!key) { b->oom = 1; return spv_id(b); }
    }
    kn = 0;
    key[kn++] = op | (has_type ? 0x80000000u : 0);
    if (has_type) key[kn++] = type;
    for (uint32_t i = 0; i < n; i++) key[kn++] = ops[i];
    for (uint32_t i = 0; i < nextra; i++) key[kn++] = extra[i];
    uint32_t h = 0, id = 0;
    spv_dedup_entry *e = dedup_find(b, key, kn, &h);
    if (!e) {
        id = spv_id(b);
    } else if (e->len) {
        id = e->id;
    } else {
        uint32_t off = b->keys.n;
        if (grow(b, &b->keys, kn)) {
            memcpy(b->keys.w + off, key, (size_t)kn * 4);
            b->keys.n += kn;
            id = spv_id(b);
            e->hash = h;
            e->key = off;
            e->len = kn;
            e->id = id;
            b->dedup_n++;
            uint32_t pre[2], np = 0;
            if (has_type) pre[np++] = type;
            pre[np++] = id;
            inst2(b, &b->sec[SPV_SEC_GLOBAL], op, np, pre, n, ops);
        } else {
            id = spv_id(b);
        }
    }
    if (key != small) b->alloc(b->alloc_user, key, (size_t)(2 + n + nextra) * 4, 0);
    return id;
}

/* A once-only marker (capabilities, extensions, decorations of deduplicated types). */
static int once(spv_builder *b, uint32_t tag, uint32_t n, const uint32_t *k) {
    uint32_t key[40];
    if (n + 1 > 40) return 1;
    key[0] = 0x40000000u | tag;
    memcpy(key + 1, k, (size_t)n * 4);
    uint32_t h = 0;
    spv_dedup_entry *e = dedup_find(b, key, n + 1, &h);
    if (!e || e->len) return 0;
    uint32_t off = b->keys.n;
    if (!grow(b, &b->keys, n + 1)) return 0;
    memcpy(b->keys.w + off, key, (size_t)(n + 1) * 4);
    b->keys.n += n + 1;
    e->hash = h;
    e->key = off;
    e->len = n + 1;
    e->id = 0;
    b->dedup_n++;
    return 1;
}

int spv_once(spv_builder *b, uint32_t tag, uint32_t key) { return once(b, 0x100u + tag, 1, &key); }

void spv_capability(spv_builder *b, uint32_t cap) {
    if (once(b, 1, 1, &cap)) SPV_SEC(b, SPV_SEC_CAPABILITY, SPV_OP_Capability, cap);
}

void spv_extension(spv_builder *b, const char *name) {
    uint32_t k[32] = { 0 };
    size_t len = strlen(name);
    if (len >= sizeof k) len = sizeof k - 1;
    memcpy(k, name, len);
    if (once(b, 2, (uint32_t)(len / 4 + 1), k))
        spv_inst_str(b, &b->sec[SPV_SEC_EXTENSION], SPV_OP_Extension, 0, NULL, name, 0, NULL);
}

uint32_t spv_glsl_import(spv_builder *b) {
    if (!b->glsl_id) {
        b->glsl_id = spv_id(b);
        spv_inst_str(b, &b->sec[SPV_SEC_EXT_INST_IMPORT], SPV_OP_ExtInstImport, 1, &b->glsl_id,
                     "GLSL.std.450", 0, NULL);
    }
    return b->glsl_id;
}

void spv_memory_model(spv_builder *b, uint32_t addressing, uint32_t model) {
    SPV_SEC(b, SPV_SEC_MEMORY_MODEL, SPV_OP_MemoryModel, addressing, model);
}

void spv_entry_point(spv_builder *b, uint32_t model, uint32_t fn, const char *name,
                     uint32_t n_iface, const uint32_t *iface) {
    spv_inst_str(b, &b->sec[SPV_SEC_ENTRY_POINT], SPV_OP_EntryPoint, 2,
                 SPV_ARR_(model, fn), name, n_iface, iface);
}

void spv_name(spv_builder *b, uint32_t id, const char *name) {
    spv_inst_str(b, &b->sec[SPV_SEC_DEBUG_NAME], SPV_OP_Name, 1, &id, name, 0, NULL);
}

void spv_member_name(spv_builder *b, uint32_t id, uint32_t member, const char *name) {
    spv_inst_str(b, &b->sec[SPV_SEC_DEBUG_NAME], SPV_OP_MemberName, 2, SPV_ARR_(id, member),
                 name, 0, NULL);
}

void spv_decorate(spv_builder *b, uint32_t id, uint32_t dec, uint32_t n, const uint32_t *args) {
    inst2(b, &b->sec[SPV_SEC_ANNOTATION], SPV_OP_Decorate, 2, SPV_ARR_(id, dec), n, args);
}

void spv_member_decorate(spv_builder *b, uint32_t id, uint32_t member, uint32_t dec,
                         uint32_t n, const uint32_t *args) {
    inst2(b, &b->sec[SPV_SEC_ANNOTATION], SPV_OP_MemberDecorate, 3, SPV_ARR_(id, member, dec), n, args);
}

/* ---- types and constants ---- */

uint32_t spv_type_void(spv_builder *b) {
    return spv_global_dedup(b, SPV_OP_TypeVoid, 0, 0, 0, NULL, 0, NULL);
}
uint32_t spv_type_bool(spv_builder *b) {
    return spv_global_dedup(b, SPV_OP_TypeBool, 0, 0, 0, NULL, 0, NULL);
}
uint32_t spv_type_int(spv_builder *b, uint32_t width, int is_signed) {
    return spv_global_dedup(b, SPV_OP_TypeInt, 0, 0, 2, SPV_ARR_(width, is_signed ? 1u : 0u), 0, NULL);
}
uint32_t spv_type_float(spv_builder *b, uint32_t width) {
    return spv_global_dedup(b, SPV_OP_TypeFloat, 0, 0, 1, &width, 0, NULL);
}
uint32_t spv_type_vector(spv_builder *b, uint32_t comp, uint32_t n) {
    return spv_global_dedup(b, SPV_OP_TypeVector, 0, 0, 2, SPV_ARR_(comp, n), 0, NULL);
}
uint32_t spv_type_matrix(spv_builder *b, uint32_t column, uint32_t ncols) {
    return spv_global_dedup(b, SPV_OP_TypeMatrix, 0, 0, 2, SPV_ARR_(column, ncols), 0, NULL);
}
uint32_t spv_type_array(spv_builder *b, uint32_t elem, uint32_t length_id, uint32_t stride) {
    uint32_t id = spv_global_dedup(b, SPV_OP_TypeArray, 0, 0, 2, SPV_ARR_(elem, length_id), 1, &stride);
    if (stride && once(b, 3, 1, &id)) SPV_DECORATE(b, id, SPV_DEC_ArrayStride, stride);
    return id;
}
uint32_t spv_type_runtime_array(spv_builder *b, uint32_t elem, uint32_t stride) {
    uint32_t id = spv_global_dedup(b, SPV_OP_TypeRuntimeArray, 0, 0, 1, &elem, 1, &stride);
    if (stride && once(b, 3, 1, &id)) SPV_DECORATE(b, id, SPV_DEC_ArrayStride, stride);
    return id;
}
uint32_t spv_type_struct(spv_builder *b, uint32_t n, const uint32_t *members) {
    uint32_t id = spv_id(b);
    inst2(b, &b->sec[SPV_SEC_GLOBAL], SPV_OP_TypeStruct, 1, &id, n, members);
    return id;
}
uint32_t spv_type_pointer(spv_builder *b, uint32_t storage_class, uint32_t type) {
    return spv_global_dedup(b, SPV_OP_TypePointer, 0, 0, 2, SPV_ARR_(storage_class, type), 0, NULL);
}
uint32_t spv_type_function(spv_builder *b, uint32_t ret, uint32_t n, const uint32_t *params) {
    uint32_t small[64], *ops = small;
    if (n + 1 > 64) {
        ops = b->oom ? NULL : b->alloc(b->alloc_user, NULL, 0, (size_t)(n + 1) * 4);
        if (!ops) { b->oom = 1; return spv_id(b); }
    }
    ops[0] = ret;
    if (n) memcpy(ops + 1, params, (size_t)n * 4);
    uint32_t id = spv_global_dedup(b, SPV_OP_TypeFunction, 0, 0, n + 1, ops, 0, NULL);
    if (ops != small) b->alloc(b->alloc_user, ops, (size_t)(n + 1) * 4, 0);
    return id;
}

uint32_t spv_const_bool(spv_builder *b, int v) {
    return spv_global_dedup(b, v ? SPV_OP_ConstantTrue : SPV_OP_ConstantFalse, 1,
                            spv_type_bool(b), 0, NULL, 0, NULL);
}
uint32_t spv_const_scalar(spv_builder *b, uint32_t type, uint32_t width, uint64_t bits) {
    if (width > 32)
        return spv_global_dedup(b, SPV_OP_Constant, 1, type, 2,
                                SPV_ARR_((uint32_t)bits, (uint32_t)(bits >> 32)), 0, NULL);
    uint32_t w = (uint32_t)bits;
    if (width < 32) w &= (1u << width) - 1; /* 16-bit literals: high bits zero (unsigned view) */
    return spv_global_dedup(b, SPV_OP_Constant, 1, type, 1, &w, 0, NULL);
}
uint32_t spv_const_u32(spv_builder *b, uint32_t v) {
    return spv_const_scalar(b, spv_type_int(b, 32, 0), 32, v);
}
uint32_t spv_const_i32(spv_builder *b, int32_t v) {
    return spv_const_scalar(b, spv_type_int(b, 32, 1), 32, (uint32_t)v);
}
uint32_t spv_const_f32(spv_builder *b, float v) {
    uint32_t bits;
    memcpy(&bits, &v, 4);
    return spv_const_scalar(b, spv_type_float(b, 32), 32, bits);
}
uint32_t spv_const_composite(spv_builder *b, uint32_t type, uint32_t n, const uint32_t *parts) {
    return spv_global_dedup(b, SPV_OP_ConstantComposite, 1, type, n, parts, 0, NULL);
}
uint32_t spv_const_null(spv_builder *b, uint32_t type) {
    return spv_global_dedup(b, SPV_OP_ConstantNull, 1, type, 0, NULL, 0, NULL);
}

uint32_t spv_global_var(spv_builder *b, uint32_t ptr_type, uint32_t storage_class, uint32_t init) {
    uint32_t id = spv_id(b);
    if (init)
        SPV_SEC(b, SPV_SEC_GLOBAL, SPV_OP_Variable, ptr_type, id, storage_class, init);
    else
        SPV_SEC(b, SPV_SEC_GLOBAL, SPV_OP_Variable, ptr_type, id, storage_class);
    return id;
}

/* ---- functions ---- */

void spv_fn_begin(spv_builder *b, uint32_t fn, uint32_t ret_type, uint32_t fn_type) {
    b->fn_head.n = b->fn_vars.n = b->fn_body.n = 0;
    b->in_fn = 1;
    b->block_open = 0;
    SPV_INST(b, &b->fn_head, SPV_OP_Function, ret_type, fn, SPV_FUNCTION_CONTROL_NONE, fn_type);
}

uint32_t spv_fn_param(spv_builder *b, uint32_t type) {
    uint32_t id = spv_id(b);
    SPV_INST(b, &b->fn_head, SPV_OP_FunctionParameter, type, id);
    return id;
}

void spv_fn_entry(spv_builder *b, uint32_t label) {
    SPV_INST(b, &b->fn_head, SPV_OP_Label, label);
    b->block_open = 1;
    b->cur_label = label;
}

uint32_t spv_fn_var(spv_builder *b, uint32_t ptr_type, uint32_t init) {
    uint32_t id = spv_id(b);
    if (init)
        SPV_INST(b, &b->fn_vars, SPV_OP_Variable, ptr_type, id, SPV_SC_Function, init);
    else
        SPV_INST(b, &b->fn_vars, SPV_OP_Variable, ptr_type, id, SPV_SC_Function);
    return id;
}

void spv_fn_end(spv_builder *b) {
    spv_words *f = &b->sec[SPV_SEC_FUNCTION];
    words_append(b, f, &b->fn_head);
    words_append(b, f, &b->fn_vars);
    words_append(b, f, &b->fn_body);
    spv_inst(b, f, SPV_OP_FunctionEnd, 0, NULL);
    b->in_fn = 0;
    b->block_open = 0;
}

void spv_label(spv_builder *b, uint32_t id) {
    SPV_INST(b, &b->fn_body, SPV_OP_Label, id);
    b->block_open = 1;
    b->cur_label = id;
}

static int is_terminator(uint32_t op) {
    switch (op) {
    case SPV_OP_Branch: case SPV_OP_BranchConditional: case SPV_OP_Switch: case SPV_OP_Kill:
    case SPV_OP_Return: case SPV_OP_ReturnValue: case SPV_OP_Unreachable:
        return 1;
    default:
        return 0;
    }
}

void spv_op(spv_builder *b, uint32_t op, uint32_t n, const uint32_t *ops) {
    spv_inst(b, &b->fn_body, op, n, ops);
    if (is_terminator(op)) b->block_open = 0;
}

uint32_t spv_val(spv_builder *b, uint32_t op, uint32_t type, uint32_t n, const uint32_t *ops) {
    uint32_t id = spv_id(b);
    inst2(b, &b->fn_body, op, 2, SPV_ARR_(type, id), n, ops);
    return id;
}

uint32_t spv_glsl_call(spv_builder *b, uint32_t type, uint32_t inst, uint32_t n, const uint32_t *args) {
    uint32_t set = spv_glsl_import(b), id = spv_id(b);
    inst2(b, &b->fn_body, SPV_OP_ExtInst, 4, SPV_ARR_(type, id, set, inst), n, args);
    return id;
}

int spv_finish(spv_builder *b, uint32_t **words, size_t *nwords) {
    *words = NULL;
    *nwords = 0;
    if (b->oom) return -1;
    size_t n = 5;
    for (int i = 0; i < SPV_SEC_COUNT; i++) n += b->sec[i].n;
    uint32_t *w = b->alloc(b->alloc_user, NULL, 0, n * 4);
    if (!w) { b->oom = 1; return -1; }
    w[0] = SPV_MAGIC;
    w[1] = b->version;
    w[2] = 0; /* generator: not registered */
    w[3] = b->bound;
    w[4] = 0;
    size_t at = 5;
    for (int i = 0; i < SPV_SEC_COUNT; i++) {
        if (b->sec[i].n) memcpy(w + at, b->sec[i].w, (size_t)b->sec[i].n * 4);
        at += b->sec[i].n;
    }
    *words = w;
    *nwords = n;
    return 0;
}
