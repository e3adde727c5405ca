/* spirv.c - the emitter: the checked module (sema.h) to a SPIR-V module for Vulkan 1.1 (SPIR-V
 * 1.3) or 1.3 (SPIR-V 1.6), built with spvbuild.c.
 *
 * Design.  One SPIR-V type per WGSL type (types.h handles are cached in `tyid`); host-shareable
 * types always carry their layout (ArrayStride, Offset, MatrixStride/ColMajor), types holding bool
 * never do.  Every uniform/storage variable is a Block: its store type is wrapped in a one-member
 * struct, except a struct ending in a runtime-sized array, which is decorated Block itself (Vulkan
 * wants the runtime array as the last member of the Block struct, and OpArrayLength needs it).
 * Expressions are emitted by walking the AST with sema's facts: a node with a constant value is an
 * OpConstant*; a reference node yields a pointer (OpVariable / OpAccessChain) and is loaded where
 * sema applied the load rule; everything else yields a value id.
 *
 * Runtime semantics the spec defines and SPIR-V does not: integer `/` and `%` use a divisor of 1
 * when it is 0 or when dividing the most negative value by -1 (so x/0 == x, x%0 == 0); shift counts
 * are masked to the bit width; float->int conversions clamp to the target range first; every index
 * that is not a constant is clamped to the bounds (runtime arrays through OpArrayLength), and values
 * indexed dynamically go through a function variable.  Workgroup variables are zeroed at the start
 * of each entry point by a strided loop over the invocations followed by a workgroup barrier.
 *
 * Overrides are re-emitted as constants: their values come from the options (or the defaults);
 * an override that has neither becomes an OpSpecConstant with its SpecId (value 0) so a Vulkan
 * specialisation can still supply it.
 *
 * Pointers passed to functions: SPIR-V's logical addressing only passes whole variables (and
 * Vulkan no storage/uniform pointers at all) without the variable-pointers features, so a call
 * whose pointer argument points into a sub-object, or into a buffer, calls a specialised copy of
 * the callee that uses the module-scope variable directly (or takes the local root variable) and
 * receives the runtime indices as u32 parameters ("direct variable access"); pointers are kept
 * taken apart (pdec) through lets and parameters so nested calls specialise the same way.
 * Storage pointers to runtime-sized arrays also carry a hidden length parameter. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wgsl/builtins.h"
#include "wgsl/cc.h"
#include "wgsl/sema.h"
#include "wgsl/spirv.h"

typedef struct loop_ctx {
    uint32_t brk;               /* merge label (break target) */
    uint32_t cont;              /* continue target, 0 for a switch */
    uint32_t header;            /* loop header (break-if goes back here) */
    uint32_t nbreak, ncont;     /* branches taken to brk / cont */
    bool in_continuing;         /* its continuing block (or for-update) is being emitted */
} loop_ctx;

typedef enum ov_state { OV_PENDING = 0, OV_BUSY, OV_CONST, OV_SPEC, OV_FAILED } ov_state;

/* A pointer taken apart: the memory object it points into (an OpVariable or OpFunctionParameter:
 * what SPIR-V's logical addressing lets us pass to a function), that object's pointer type and
 * storage class, and the OpAccessChain indices from there to the pointee. */
typedef struct pdec {
    uint32_t root, root_type, sc;
    bool global;                 /* root is a module-scope variable */
    uint32_t n, cap;
    uint32_t *ids;
    uint8_t *dyn;                /* ids[k] is a runtime value (else a constant) */
} pdec;

/* A function specialised for pointer arguments into a sub-object (or into a differently typed
 * object, like a uniform variable's Private shadow): such a parameter becomes the root object
 * plus one u32 parameter per runtime index (Tint calls this direct variable access). */
typedef struct pshape {
    uint32_t root_type, sc, n;   /* root_type 0: an ordinary parameter */
    uint32_t root_var;           /* a module-scope root: used directly, not passed */
    uint32_t *ids;               /* constant index ids; 0 = a runtime index parameter */
} pshape;

typedef struct fn_clone {
    uint32_t fn_node, id, serial;
    pshape *shape;               /* one per parameter */
    struct fn_clone *next;
} fn_clone;

typedef struct emitter {
    wgsl_cc *cc;
    sema_module *sm;
    const ast_module *m;
    ty_table *tt;
    spv_builder b;
    bool bounds;                 /* clamp indices */
    uint32_t *tyid;              /* ty_t -> SPIR-V type id */
    uint32_t ntyid;
    bool fork;                   /* SPIR-V 1.6: explicit layout only on buffer types (tidl) */
    uint32_t *tyidl;             /* ty_t -> laid-out type id when fork */
    uint32_t ntyidl;
    uint32_t *id;                /* [node_count] declaration -> id (var: pointer; let/param: value; fn) */
    uint8_t *wrapped;            /* [node_count] resource var wrapped in a Block struct */
    uint32_t *plen;              /* [node_count] PARAM -> hidden runtime-array length parameter */
    pdec **pd;                   /* [node_count] LET/PARAM holding a pointer: its decomposition */
    uint32_t *vty, *vsc;         /* [node_count] VAR -> pointer type id and storage class */
    fn_clone *clones, *clones_tail;
    bool dec_for_call;           /* dec_ptr: take let/parameter pointers apart (else reuse them) */
    uint32_t nclones;
    bool rhs_safe;               /* the next binary_vals' rhs is a constant needing no guard */
    ty_t ovarr_t[64];            /* override-sized array types ... */
    uint32_t ovarr_n[64];        /* ... and their element counts with the override values */
    uint32_t novarr;
    uint8_t *ovst;               /* [node_count] override state (ov_state) */
    uint32_t *ubo;               /* [node_count] uniform var laid out std140-style (shadowed) */
    cv_value *ovval;             /* [noverrides] computed override values */
    uint32_t bv_var[SEMA_BV_COUNT]; /* builtin Input variables */
    uint32_t bv_ty[SEMA_BV_COUNT];
    uint32_t bv_val[SEMA_BV_COUNT]; /* builtin values loaded in the current entry point */
    /* the function being emitted */
    const sema_fn *fn;
    loop_ctx loops[256];
    uint32_t nloops;
    int dead;                    /* the current block is unreachable: skip statements */
    uint32_t *iface;             /* entry point interface ids */
    uint32_t niface, capiface;
} emitter;

#define N(h) ast_get(e->m, (h))
#define EX(h) sema_ex(e->sm, (h))
#define DC(h) sema_dc(e->sm, (h))
#define TI(t) ty_get(e->tt, (t))

/* n words of scratch memory from the compile arena (freed with it). */
static uint32_t *words(emitter *e, uint32_t n) { return arena_alloc(&e->cc->arena, (size_t)(n ? n : 1) * sizeof(uint32_t)); }

/* ---- memory: the builder allocates from the compile arena (freed with it, survives longjmp) ---- */

static void *arena_realloc(void *user, void *ptr, size_t old_size, size_t new_size) {
    arena *a = user;
    if (!new_size) return NULL;     /* arena memory is freed with the arena */
    void *p = arena_alloc(a, new_size);
    if (p && ptr && old_size) memcpy(p, ptr, old_size < new_size ? old_size : new_size);
    return p;
}

/* ---- types ---- */

static uint32_t sc_of(ty_as as) {
    switch (as) {
    case TY_AS_FUNCTION: return SPV_SC_Function;
    case TY_AS_PRIVATE: return SPV_SC_Private;
    case TY_AS_WORKGROUP: return SPV_SC_Workgroup;
    case TY_AS_UNIFORM: return SPV_SC_Uniform;
    case TY_AS_STORAGE: return SPV_SC_StorageBuffer;
    default: return SPV_SC_UniformConstant;
    }
}

static uint32_t tid(emitter *e, ty_t t);
static uint32_t tidl(emitter *e, ty_t t);

/* Storage classes whose types carry an explicit layout. */
static bool layout_sc(uint32_t sc) { return sc == SPV_SC_StorageBuffer || sc == SPV_SC_Uniform || sc == SPV_SC_PushConstant; }

static uint32_t t_bool(emitter *e) { return spv_type_bool(&e->b); }
static uint32_t t_u32(emitter *e) { return spv_type_int(&e->b, 32, 0); }
static uint32_t t_i32(emitter *e) { return spv_type_int(&e->b, 32, 1); }
static uint32_t c_u32(emitter *e, uint32_t v) { return spv_const_u32(&e->b, v); }

/* Layout decorations of a member whose type is (or holds arrays of) matrices. */
static void member_layout(emitter *e, uint32_t sid, uint32_t k, ty_t t) {
    while (TI(t)->kind == TY_ARRAY) t = TI(t)->elem;
    if (TI(t)->kind != TY_MAT) return;
    uint32_t col = ty_align_of(e->tt, ty_mat_column(e->tt, t));
    spv_member_decorate(&e->b, sid, k, SPV_DEC_ColMajor, 0, NULL);
    spv_member_decorate(&e->b, sid, k, SPV_DEC_MatrixStride, 1, &col);
}

static uint32_t array_len_id(emitter *e, const ty_info *ti);

/* The SPIR-V type of t; lay: with its explicit layout (buffer memory).  Before SPIR-V 1.5 one
 * laid-out type serves everywhere; from 1.5 on Function/Private/Workgroup memory and values must
 * not carry layout decorations, so the two variants differ (loads and stores of buffer memory
 * convert with OpCopyLogical). */
static uint32_t make_type(emitter *e, ty_t t, bool lay) {
    const ty_info *ti = TI(t);
    spv_builder *b = &e->b;
    bool layout = lay && !(ti->flags & TY_F_HAS_BOOL);
    uint32_t (*sub)(emitter *, ty_t) = lay ? tidl : tid;
    switch ((ty_kind)ti->kind) {
    case TY_VOID: return spv_type_void(b);
    case TY_BOOL: return t_bool(e);
    case TY_I32: case TY_AINT: return t_i32(e);
    case TY_U32: return t_u32(e);
    case TY_F32: case TY_AFLOAT: return spv_type_float(b, 32);
    case TY_F16:
        spv_capability(b, SPV_CAP_Float16);
        return spv_type_float(b, 16);
    case TY_VEC: return spv_type_vector(b, tid(e, ti->elem), ti->n);
    case TY_MAT: return spv_type_matrix(b, tid(e, ty_mat_column(e->tt, t)), ti->n);
    case TY_ATOMIC: return tid(e, ti->elem);
    case TY_ARRAY: {
        uint32_t el = sub(e, ti->elem);
        if (ti->array_kind == TY_ARRAY_RUNTIME) return spv_type_runtime_array(b, el, ti->stride);
        return spv_type_array(b, el, array_len_id(e, ti), layout ? ti->stride : 0);
    }
    case TY_STRUCT: {
        uint32_t n = ti->nmembers, *mem = words(e, n);
        for (uint32_t i = 0; i < n; i++) mem[i] = sub(e, ti->members[i].type);
        uint32_t sid = spv_type_struct(b, n, mem);
        char buf[96];
        const char *name = ti->name;
        if (ti->builtin_struct) {
            snprintf(buf, sizeof buf, "%s", ty_name(e->tt, t));
            name = buf;
        }
        if (name) spv_name(b, sid, name);
        for (uint32_t i = 0; i < n; i++) {
            if (ti->members[i].name_str) spv_member_name(b, sid, i, ti->members[i].name_str);
            if (layout) {
                uint32_t off = ti->members[i].offset;
                spv_member_decorate(b, sid, i, SPV_DEC_Offset, 1, &off);
                member_layout(e, sid, i, ti->members[i].type);
            }
        }
        return sid;
    }
    case TY_PTR: case TY_REF: {
        uint32_t sc = sc_of((ty_as)ti->as);
        return spv_type_pointer(b, sc, layout_sc(sc) ? tidl(e, ti->elem) : tid(e, ti->elem));
    }
    case TY_SGMAT: {                     /* OpTypeCooperativeMatrixKHR, scope Subgroup (Workgroup) */
        spv_capability(b, SPV_CAP_CooperativeMatrixKHR);
        spv_extension(b, "SPV_KHR_cooperative_matrix");
        bool wg = ti->as == TY_SGM_WORKGROUP;
        if (wg) spv_extension(b, "SPV_NV_cooperative_matrix2");   /* workgroup scope, flexible sizes */
        uint32_t ops[5] = { tid(e, ti->elem), c_u32(e, wg ? SPV_SCOPE_WORKGROUP : SPV_SCOPE_SUBGROUP), c_u32(e, ti->rows), c_u32(e, ti->n),
                            c_u32(e, (uint32_t)ti->access - 1u) };  /* MatrixAKHR 0, MatrixBKHR 1, MatrixAccumulatorKHR 2 */
        return spv_global_dedup(b, SPV_OP_TypeCooperativeMatrixKHR, 0, 0, 5, ops, 0, NULL);
    }
    default:
        return spv_type_void(b);
    }
}

static uint32_t *tid_slot(emitter *e, ty_t t) {
    if (t >= e->ntyid) {
        uint32_t n = e->ntyid ? e->ntyid : 64;
        while (n <= t) n *= 2;
        uint32_t *nt = arena_alloc(&e->cc->arena, n * sizeof *nt);
        if (e->ntyid) memcpy(nt, e->tyid, e->ntyid * sizeof *nt);
        e->tyid = nt;
        e->ntyid = n;
    }
    return &e->tyid[t];
}

static uint32_t tid(emitter *e, ty_t t) {
    uint32_t id = *tid_slot(e, t);
    if (!id) {
        id = make_type(e, t, !e->fork);
        *tid_slot(e, t) = id;
    }
    return id;
}

static uint32_t tidl(emitter *e, ty_t t) {
    if (!e->fork) return tid(e, t);
    if (t >= e->ntyidl) {
        uint32_t n = e->ntyidl ? e->ntyidl : 64;
        while (n <= t) n *= 2;
        uint32_t *nt = arena_alloc(&e->cc->arena, n * sizeof *nt);
        if (e->ntyidl) memcpy(nt, e->tyidl, e->ntyidl * sizeof *nt);
        e->tyidl = nt;
        e->ntyidl = n;
    }
    if (!e->tyidl[t]) e->tyidl[t] = make_type(e, t, true);
    return e->tyidl[t];
}

/* The type of t in memory of storage class sc. */
static uint32_t tid_sc(emitter *e, ty_t t, uint32_t sc) { return layout_sc(sc) ? tidl(e, t) : tid(e, t); }

static uint32_t ptr_to(emitter *e, uint32_t sc, ty_t t) { return spv_type_pointer(&e->b, sc, tid_sc(e, t, sc)); }

/* ---- std140: uniform buffers whose WGSL layout Vulkan 1.1 uniform blocks cannot express ----
 * Vulkan 1.1 uniform blocks want matrix and array strides that are multiples of 16 and round
 * nested structs up to 16 bytes, while WGSL packs mat2x2<f32> columns 8 bytes apart, allows
 * small array strides and members right after a struct.  Such a variable is declared as a Block
 * of its leaves (scalars, vectors, and matrices/arrays that are fine as they are) at their
 * absolute offsets, and gets a Private shadow of its WGSL type that each entry point fills at its
 * start; every access reads the shadow (uniform memory is read-only, so the copy is exact). */

static bool bad_matrix(emitter *e, ty_t t) {
    const ty_info *ti = TI(t);
    return ti->kind == TY_MAT && ty_align_of(e->tt, ty_mat_column(e->tt, t)) % 16 != 0;
}

static bool needs_std140(emitter *e, ty_t t) {
    const ty_info *ti = TI(t);
    if (ti->kind == TY_MAT) return bad_matrix(e, t);
    if (ti->kind == TY_ARRAY) return ti->stride % 16 != 0 || needs_std140(e, ti->elem);
    if (ti->kind == TY_STRUCT)
        for (uint32_t i = 0; i < ti->nmembers; i++) {
            const ty_member *m = &ti->members[i];
            if (needs_std140(e, m->type)) return true;
            if ((TI(m->type)->kind == TY_STRUCT || TI(m->type)->kind == TY_ARRAY) && m->offset % 16) return true;
            if (TI(m->type)->kind == TY_STRUCT && i + 1 < ti->nmembers &&
                ti->members[i + 1].offset < ty_round_up(16, m->offset + ty_size_of(e->tt, m->type)))
                return true;
        }
    return false;
}

typedef struct flat_block {
    uint32_t n, cap;
    uint32_t *mem, *off;
    ty_t *ty;
} flat_block;

static void flat_leaf(emitter *e, flat_block *f, ty_t t, uint32_t off) {
    if (f->n == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 64;
        uint32_t *m = arena_alloc(&e->cc->arena, cap * 4), *o = arena_alloc(&e->cc->arena, cap * 4);
        ty_t *ty = arena_alloc(&e->cc->arena, cap * sizeof *ty);
        if (f->n) {
            memcpy(m, f->mem, f->n * 4);
            memcpy(o, f->off, f->n * 4);
            memcpy(ty, f->ty, f->n * sizeof *ty);
        }
        f->mem = m, f->off = o, f->ty = ty, f->cap = cap;
    }
    f->mem[f->n] = tidl(e, t);
    f->off[f->n] = off;
    f->ty[f->n++] = t;
}

static void flatten(emitter *e, flat_block *f, ty_t t, uint32_t base) {
    const ty_info *ti = TI(t);
    if (ti->kind == TY_MAT && bad_matrix(e, t)) {
        ty_t ct = ty_mat_column(e->tt, t);
        for (uint32_t c = 0; c < ti->n; c++) flat_leaf(e, f, ct, base + c * ty_align_of(e->tt, ct));
    } else if (ti->kind == TY_ARRAY && needs_std140(e, t)) {
        for (uint32_t i = 0; i < ti->count; i++) flatten(e, f, ti->elem, base + i * ti->stride);
    } else if (ti->kind == TY_STRUCT) {
        for (uint32_t i = 0; i < ti->nmembers; i++) flatten(e, f, ti->members[i].type, base + ti->members[i].offset);
    } else {
        flat_leaf(e, f, t, base);
    }
}

static uint32_t load_sc(emitter *e, ty_t t, uint32_t ptr, uint32_t sc);

/* Loads the value of WGSL type t from leaves *k.. of the flat Block variable blk. */
static uint32_t uload(emitter *e, uint32_t blk, ty_t t, uint32_t *k) {
    spv_builder *b = &e->b;
    const ty_info *ti = TI(t);
    uint32_t n = 0, *parts;
    if (ti->kind == TY_MAT && bad_matrix(e, t)) {
        ty_t ct = ty_mat_column(e->tt, t);
        n = ti->n;
        parts = arena_alloc(&e->cc->arena, n * 4);
        for (uint32_t c = 0; c < n; c++) parts[c] = uload(e, blk, ct, k);
    } else if (ti->kind == TY_ARRAY && needs_std140(e, t)) {
        n = ti->count;
        parts = arena_alloc(&e->cc->arena, n * 4);
        for (uint32_t i = 0; i < n; i++) parts[i] = uload(e, blk, ti->elem, k);
    } else if (ti->kind == TY_STRUCT) {
        n = ti->nmembers;
        parts = arena_alloc(&e->cc->arena, n * 4);
        for (uint32_t i = 0; i < n; i++) parts[i] = uload(e, blk, ti->members[i].type, k);
    } else {
        uint32_t p = SPV_VAL(b, SPV_OP_AccessChain, ptr_to(e, SPV_SC_Uniform, t), blk, c_u32(e, (*k)++));
        return load_sc(e, t, p, SPV_SC_Uniform);
    }
    return spv_val(b, SPV_OP_CompositeConstruct, tid(e, t), n, parts);
}

/* Declares the flat Block variable for uniform variable h of type t. */
static uint32_t std140_var(emitter *e, ty_t t, const char *name) {
    spv_builder *b = &e->b;
    flat_block f;
    memset(&f, 0, sizeof f);
    flatten(e, &f, t, 0);
    uint32_t st = spv_type_struct(b, f.n, f.mem);
    char buf[256];
    snprintf(buf, sizeof buf, "%s_block_std140", name);
    spv_name(b, st, buf);
    SPV_DECORATE0(b, st, SPV_DEC_Block);
    for (uint32_t i = 0; i < f.n; i++) {
        spv_member_decorate(b, st, i, SPV_DEC_Offset, 1, &f.off[i]);
        member_layout(e, st, i, f.ty[i]);
    }
    return spv_global_var(b, spv_type_pointer(b, SPV_SC_Uniform, st), SPV_SC_Uniform, 0);
}

/* ---- constants ---- */

static uint32_t const_of(emitter *e, const cv_value *v) {
    ty_t t = v->type;
    const ty_info *ti = TI(t);
    spv_builder *b = &e->b;
    switch ((ty_kind)ti->kind) {
    case TY_BOOL: return spv_const_bool(b, v->u.b);
    case TY_I32: case TY_AINT: return spv_const_i32(b, (int32_t)v->u.i);
    case TY_U32: return spv_const_u32(b, (uint32_t)v->u.i);
    case TY_F32: case TY_AFLOAT: return spv_const_scalar(b, tid(e, TY_F32), 32, cv_f32_bits(cv_round_f32(v->u.f)));
    case TY_F16: return spv_const_scalar(b, tid(e, TY_F16), 16, cv_f16_bits(v->u.f));
    case TY_VEC: case TY_MAT: case TY_ARRAY: case TY_STRUCT: {
        uint32_t n = v->n, *parts = words(e, n);
        if (!v->u.elems) return spv_const_null(b, tid(e, t));
        for (uint32_t i = 0; i < n; i++) parts[i] = const_of(e, &v->u.elems[i]);
        ty_t ct = t;
        if (ti->flags & TY_F_ABSTRACT) ct = ty_concretize(e->tt, t);
        return spv_const_composite(b, tid(e, ct), n, parts);
    }
    default:
        return spv_const_null(b, tid(e, t));
    }
}

/* The zero value of t: OpConstantNull, except for subgroup matrices (and arrays of them), whose
 * constant is an OpConstantComposite of one scalar (SPV_KHR_cooperative_matrix). */
static uint32_t zero_of(emitter *e, ty_t t) {
    const ty_info *ti = TI(t);
    if (ti->kind == TY_SGMAT) {
        ty_t el = ti->elem;
        uint32_t z = el == TY_F16 ? spv_const_scalar(&e->b, tid(e, TY_F16), 16, 0) :
                     el == TY_F32 ? spv_const_scalar(&e->b, tid(e, TY_F32), 32, 0) :
                     el == TY_I32 ? spv_const_i32(&e->b, 0) : spv_const_u32(&e->b, 0);
        return spv_const_composite(&e->b, tid(e, t), 1, &z);
    }
    if (ti->kind == TY_ARRAY && ti->array_kind == TY_ARRAY_FIXED && TI(ti->elem)->kind == TY_SGMAT) {
        uint32_t z = zero_of(e, ti->elem), *parts = words(e, ti->count);
        for (uint32_t i = 0; i < ti->count; i++) parts[i] = z;
        return spv_const_composite(&e->b, tid(e, t), ti->count, parts);
    }
    return spv_const_null(&e->b, tid(e, t));
}

static uint32_t const_scalar_like(emitter *e, ty_t t, double fv, int64_t iv) {
    /* scalar or splatted vector constant of t's shape */
    ty_t s = ty_scalar_of(e->tt, t);
    cv_value sv;
    if (s == TY_F32 || s == TY_F16 || s == TY_AFLOAT) sv = cv_float(s, fv);
    else if (s == TY_BOOL) sv = cv_bool(iv != 0);
    else sv = cv_int(s, iv);
    uint32_t c = const_of(e, &sv);
    if (TI(t)->kind != TY_VEC) return c;
    uint32_t parts[4] = { c, c, c, c };
    return spv_const_composite(&e->b, tid(e, t), TI(t)->n, parts);
}

/* ---- overrides ---- */

static int ov_eval(emitter *e, uint32_t h, cv_value *out);

static cv_binop binop_of(ast_op op) {
    switch (op) {
    case AST_OP_ADD: return CV_ADD; case AST_OP_SUB: return CV_SUB; case AST_OP_MUL: return CV_MUL;
    case AST_OP_DIV: return CV_DIV; case AST_OP_MOD: return CV_MOD; case AST_OP_AND: return CV_AND;
    case AST_OP_OR: return CV_OR; case AST_OP_XOR: return CV_XOR; case AST_OP_SHL: return CV_SHL;
    case AST_OP_SHR: return CV_SHR; case AST_OP_LAND: return CV_LAND; case AST_OP_LOR: return CV_LOR;
    case AST_OP_EQ: return CV_EQ; case AST_OP_NE: return CV_NE; case AST_OP_LT: return CV_LT;
    case AST_OP_LE: return CV_LE; case AST_OP_GT: return CV_GT; default: return CV_GE;
    }
}

/* WebGPU's conversion of a pipeline constant (a WebIDL double) to the override's type: finite;
 * i32/u32 the integer part ([EnforceRange] long / unsigned long), f32/f16 rounded to nearest even
 * without overflow (WebIDL float; half alike).  NULL when it converts, else why not. */
static const char *ov_value_problem(ty_t t, double v) {
    if (!isfinite(v)) return "is not finite";
    double i = trunc(v);
    switch (t) {
    case TY_I32: return i < -2147483648.0 || i > 2147483647.0 ? "is not representable in type 'i32'" : NULL;
    case TY_U32: return i < 0 || i > 4294967295.0 ? "is not representable in type 'u32'" : NULL;
    case TY_F32: return isinf((float)v) ? "is not representable in type 'f32'" : NULL;
    case TY_F16: return isinf(cv_round_f16(v)) ? "is not representable in type 'f16'" : NULL;
    default: return NULL;   /* bool: value != 0 */
    }
}

/* Checks opt.overrides against the checked module (WebGPU's pipeline-constant rules: each key an
 * override's identifier, each value finite and representable in the override's type); errors
 * have no location and set cc->override_error.  Non-zero when it reported any. */
int wgsl_check_override_values(wgsl_cc *cc) {
    const sema_module *sm = cc->sema;
    const wgsl_options *o = &cc->opt;
    uint32_t before = cc->error_count;
    span nowhere = span_make(DIAG_NO_LOCATION, 0);
    for (uint32_t i = 0; i < o->override_count; i++) {
        const wgsl_override_value *ov = &o->overrides[i];
        char key[32];
        if (!ov->name) snprintf(key, sizeof key, "%u", ov->id);
        const char *k = ov->name ? ov->name : key;
        uint32_t found = 0, near = 0;
        for (uint32_t j = 0; j < sm->noverrides && !found; j++) {
            uint32_t h = sm->overrides[j];
            const sema_decl *d = &sm->dc[h];
            bool same_name = ov->name && !strcmp(ov->name, cc_str(cc, ast_get(&cc->ast, h)->u.var.name));
            bool same_id = !ov->name && d->override_id == ov->id;
            if ((same_name && !d->has_id) || (same_id && d->has_id)) found = h;
            else if (same_name || same_id) near = h;
        }
        if (!found) {
            if (near && ov->name)
                diag_error(cc, nowhere, "pipeline constant '%s': override '%s' has @id(%u), so its key is '%u'", k, k,
                           sm->dc[near].override_id, sm->dc[near].override_id);
            else if (near)
                diag_error(cc, nowhere, "pipeline constant '%s': the module declares no override with @id(%s) "
                           "('%s' has no @id: its key is its name)", k, k,
                           cc_str(cc, ast_get(&cc->ast, near)->u.var.name));
            else if (ov->name)
                diag_error(cc, nowhere, "pipeline constant '%s': the module declares no override '%s'", k, k);
            else
                diag_error(cc, nowhere, "pipeline constant '%s': the module declares no override with @id(%s)", k, k);
            continue;
        }
        ty_t t = sm->dc[found].type;
        const char *why = ov_value_problem(t, ov->value);
        if (why)
            diag_error(cc, nowhere, "pipeline constant '%s': value %.17g %s", k, ov->value, why);
    }
    cc->override_error |= cc->error_count > before;
    return cc->error_count > before;
}

/* Value of an override declaration: given in the options, else its default.  0 = known. */
static int ov_decl_value(emitter *e, uint32_t d, cv_value *out) {
    if (e->ovst[d] == OV_CONST) { *out = e->ovval[DC(d)->override_index]; return 0; }
    if (e->ovst[d] != OV_PENDING) return 1;
    e->ovst[d] = OV_BUSY;
    const sema_decl *sd = DC(d);
    const ast_node *n = N(d);
    const char *name = cc_str(e->cc, n->u.var.name);
    const wgsl_options *o = &e->cc->opt;
    int found = 0;
    double given = 0;
    for (uint32_t i = 0; i < o->override_count; i++) {
        const wgsl_override_value *ov = &o->overrides[i];
        if ((ov->name && !strcmp(ov->name, name)) || (!ov->name && ov->id == sd->override_id)) {
            found = 1;
            given = ov->value;
        }
    }
    cv_value v;
    int rc = 0;
    if (found) {
        switch (sd->type) {
        case TY_BOOL: v = cv_bool(given != 0); break;
        case TY_I32: v = cv_int(TY_I32, (int64_t)given); break;
        case TY_U32: v = cv_int(TY_U32, given < 0 ? 0 : (int64_t)given); break;
        case TY_F16: v = cv_float(TY_F16, cv_round_f16(given)); break;
        default: v = cv_float(TY_F32, cv_round_f32(given)); break;
        }
    } else if (n->u.var.init) {
        rc = ov_eval(e, n->u.var.init, &v);
    } else {
        rc = 1;
    }
    if (rc) { e->ovst[d] = OV_FAILED; return 1; }
    e->ovval[sd->override_index] = v;
    e->ovst[d] = OV_CONST;
    *out = v;
    return 0;
}

/* An override-expression whose evaluation fails with the override values (overflow, division by
 * zero, ...): a pipeline-creation error in WebGPU, reported once at the failing node.  Returns 2. */
static int ov_error(emitter *e, uint32_t h) {
    if (e->ovst[h] != OV_FAILED) {
        e->ovst[h] = OV_FAILED;
        diag_error(e->cc, N(h)->sp, "%s (override-expression, with the override values)", e->sm->cv.msg);
        e->cc->override_error = true;
    }
    return 2;
}

/* Evaluates a const- or override-expression with the override values; 0 = ok, 1 = not evaluable
 * here (left to a SpecConstant), 2 = an evaluation error (reported). */
static int ov_eval(emitter *e, uint32_t h, cv_value *out) {
    const sema_expr *x = EX(h);
    const ast_node *n = N(h);
    if (x->cval) { *out = *sema_value(e->sm, x->cval); return 0; }
    cv_ctx *cx = &e->sm->cv;
    switch ((ast_kind)n->kind) {
    case AST_IDENT: {
        uint32_t d = x->decl;
        if (d && N(d)->kind == AST_OVERRIDE) return ov_decl_value(e, d, out);
        if (d && N(d)->kind == AST_CONST && DC(d)->cval) { *out = *sema_value(e->sm, DC(d)->cval); return 0; }
        return 1;
    }
    case AST_UNARY: {
        cv_value a;
        int rc = ov_eval(e, n->u.unary.operand, &a);
        if (rc) return rc;
        cv_unop op = n->op == AST_OP_NEG ? CV_NEG : n->op == AST_OP_NOT ? CV_NOT : CV_COMPL;
        return cv_unary(cx, op, &a, out) != CV_OK ? ov_error(e, h) : 0;
    }
    case AST_BINARY: {
        cv_value a, c;
        int rc = ov_eval(e, n->u.binary.lhs, &a);
        if (!rc) rc = ov_eval(e, n->u.binary.rhs, &c);
        if (rc) return rc;
        return cv_binary(cx, binop_of((ast_op)n->op), &a, &c, out) != CV_OK ? ov_error(e, h) : 0;
    }
    case AST_CALL: {
        if (x->call == SEMA_CALL_CONVERT && n->u.call.args.count == 1) {
            cv_value a;
            int rc = ov_eval(e, ast_item(e->m, n->u.call.args, 0), &a);
            if (rc) return rc;
            if (a.type == x->type) { *out = a; return 0; }
            return cv_convert_explicit(cx, &a, x->type, out) != CV_OK ? ov_error(e, h) : 0;
        }
        return 1;
    }
    default:
        return 1;
    }
}

/* The id of an override: a constant when its value is known, else a SpecConstant. */
static uint32_t override_id(emitter *e, uint32_t d) {
    if (e->id[d]) return e->id[d];
    cv_value v;
    const sema_decl *sd = DC(d);
    uint32_t id;
    if (!ov_decl_value(e, d, &v)) {
        id = const_of(e, &v);
    } else {
        uint32_t ty = tid(e, sd->type);
        id = spv_id(&e->b);
        if (sd->type == TY_BOOL)
            SPV_SEC(&e->b, SPV_SEC_GLOBAL, SPV_OP_SpecConstantFalse, ty, id);
        else
            SPV_SEC(&e->b, SPV_SEC_GLOBAL, SPV_OP_SpecConstant, ty, id, 0);
        SPV_DECORATE(&e->b, id, SPV_DEC_SpecId, sd->override_id);
        spv_name(&e->b, id, cc_str(e->cc, N(d)->u.var.name));
        e->ovst[d] = OV_SPEC;
    }
    e->id[d] = id;
    return id;
}

static uint32_t array_len_id(emitter *e, const ty_info *ti) {
    if (ti->array_kind == TY_ARRAY_FIXED) return c_u32(e, ti->count);
    /* override-sized: the key is the override declaration (or an expression key) */
    uint32_t key = ti->count;
    if (!(key & 0x80000000u) && key < e->sm->node_count && N(key)->kind == AST_OVERRIDE) {
        cv_value v;
        if (!ov_decl_value(e, key, &v)) {
            int64_t k = v.u.i;
            return c_u32(e, k > 0 ? (uint32_t)k : 1);
        }
        return override_id(e, key);
    }
    return 0; /* filled by the workgroup variable that owns the type (see global_var) */
}

/* Element count of an override-sized array type (recorded by global_var), 1 when unknown. */
static uint32_t ovarr_count(emitter *e, ty_t t) {
    for (uint32_t i = 0; i < e->novarr; i++)
        if (e->ovarr_t[i] == t) return e->ovarr_n[i];
    uint32_t key = TI(t)->count;
    cv_value v;
    if (!(key & 0x80000000u) && key < e->sm->node_count && N(key)->kind == AST_OVERRIDE && !ov_decl_value(e, key, &v))
        return v.u.i > 0 ? (uint32_t)v.u.i : 1;
    return 1;
}

/* ---- small emission helpers ---- */

static uint32_t op1(emitter *e, uint32_t op, uint32_t ty, uint32_t a) { return SPV_VAL(&e->b, op, ty, a); }
static uint32_t op2(emitter *e, uint32_t op, uint32_t ty, uint32_t a, uint32_t c) { return SPV_VAL(&e->b, op, ty, a, c); }

static uint32_t load(emitter *e, ty_t t, uint32_t ptr) { return SPV_VAL(&e->b, SPV_OP_Load, tid(e, t), ptr); }
static void store(emitter *e, uint32_t ptr, uint32_t v) { SPV_OP(&e->b, SPV_OP_Store, ptr, v); }

/* Load / store through a pointer into memory of storage class sc (laid-out types converted). */
static uint32_t load_sc(emitter *e, ty_t t, uint32_t ptr, uint32_t sc) {
    uint32_t lt = tid_sc(e, t, sc), ft = tid(e, t);
    uint32_t v = SPV_VAL(&e->b, SPV_OP_Load, lt, ptr);
    return lt == ft ? v : SPV_VAL(&e->b, SPV_OP_CopyLogical, ft, v);
}

static void store_sc(emitter *e, ty_t t, uint32_t ptr, uint32_t v, uint32_t sc) {
    uint32_t lt = tid_sc(e, t, sc);
    if (lt != tid(e, t)) v = SPV_VAL(&e->b, SPV_OP_CopyLogical, lt, v);
    store(e, ptr, v);
}

static uint32_t fn_temp(emitter *e, ty_t t) {
    return spv_fn_var(&e->b, ptr_to(e, SPV_SC_Function, t), 0);
}

/* Splats a scalar value to the shape of vector type vt (identity if vt is a scalar). */
static uint32_t splat(emitter *e, ty_t vt, uint32_t s) {
    if (TI(vt)->kind != TY_VEC) return s;
    uint32_t parts[4] = { s, s, s, s };
    return spv_val(&e->b, SPV_OP_CompositeConstruct, tid(e, vt), TI(vt)->n, parts);
}

static uint32_t bool_like(emitter *e, ty_t t) {
    if (TI(t)->kind == TY_VEC) return spv_type_vector(&e->b, t_bool(e), TI(t)->n);
    return t_bool(e);
}

static ty_t vt(emitter *e, uint32_t h) { return sema_value_type(e->sm, h); }

static uint32_t value(emitter *e, uint32_t h);
static uint32_t ref(emitter *e, uint32_t h);
static void block(emitter *e, uint32_t h);

/* Index as u32, clamped to [0, bound-1] (bound_id: a u32 id of the bound, or 0 with bound const). */
static uint32_t clamp_index(emitter *e, uint32_t ih, uint32_t bound, uint32_t len_id) {
    const sema_expr *ix = EX(ih);
    ty_t it = vt(e, ih);
    uint32_t i;
    if (ix->cval) {
        int64_t k = sema_value(e->sm, ix->cval)->u.i;
        if (k < 0) k = 0;
        if (bound && k >= bound) k = bound - 1;
        i = c_u32(e, (uint32_t)k);
        if (!len_id) return i;
    } else {
        i = value(e, ih);
        if (it == TY_I32) i = op1(e, SPV_OP_Bitcast, t_u32(e), i);
    }
    if (!e->bounds) return i;
    uint32_t hi;
    if (len_id) hi = op2(e, SPV_OP_ISub, t_u32(e), len_id, c_u32(e, 1));
    else hi = c_u32(e, bound ? bound - 1 : 0);
    return SPV_GLSL_CALL(&e->b, t_u32(e), SPV_GLSL_UMin, i, hi);
}

/* The element count of the runtime-sized array that a reference or pointer expression reaches
 * (the array itself, or the struct ending in it): OpArrayLength on the buffer variable, or the
 * hidden length parameter that functions taking such a pointer receive.  0 when unknown. */
static uint32_t rta_len(emitter *e, uint32_t h, int depth) {
    const ast_node *n = N(h);
    const sema_expr *x = EX(h);
    if (depth > 64) return 0;
    switch ((ast_kind)n->kind) {
    case AST_UNARY:
        if (n->op == AST_OP_ADDR || n->op == AST_OP_DEREF) return rta_len(e, n->u.unary.operand, depth + 1);
        return 0;
    case AST_MEMBER:
        return x->swz_n ? 0 : rta_len(e, n->u.member.base, depth + 1);
    case AST_IDENT: {
        uint32_t d = x->decl;
        if (!d) return 0;
        if (N(d)->kind == AST_VAR && (DC(d)->as == TY_AS_STORAGE)) {
            const ty_info *ti = TI(DC(d)->type);
            uint32_t member = e->wrapped[d] ? 0 : (ti->nmembers ? ti->nmembers - 1 : 0);
            return SPV_VAL(&e->b, SPV_OP_ArrayLength, t_u32(e), e->id[d], member);
        }
        if (N(d)->kind == AST_PARAM) return e->plen[d];
        if (N(d)->kind == AST_LET && N(d)->u.var.init) return rta_len(e, N(d)->u.var.init, depth + 1);
        return 0;
    }
    default:
        return 0;
    }
}

static uint32_t array_length(emitter *e, uint32_t h) {
    uint32_t len = rta_len(e, h, 0);
    return len ? len : c_u32(e, 0);
}

/* Does a parameter of type t need the hidden runtime-array length parameter? */
static bool needs_len_param(emitter *e, ty_t t) {
    const ty_info *ti = TI(t);
    return ti->kind == TY_PTR && ti->as == TY_AS_STORAGE && (TI(ti->elem)->flags & TY_F_HAS_RUNTIME);
}

/* ---- references ---- */

static ty_t base_store_type(emitter *e, uint32_t bh) {
    const sema_expr *bx = EX(bh);
    return TI(bx->type)->elem; /* ref<..,T,..> or ptr<..,T,..> */
}

static void pd_push(emitter *e, pdec *p, uint32_t id, uint8_t dyn) {
    if (p->n == p->cap) {
        uint32_t cap = p->cap ? p->cap * 2 : 8, *ids = words(e, cap);
        uint8_t *d = arena_alloc(&e->cc->arena, cap);
        if (p->n) {
            memcpy(ids, p->ids, p->n * sizeof *ids);
            memcpy(d, p->dyn, p->n);
        }
        p->ids = ids, p->dyn = d, p->cap = cap;
    }
    p->ids[p->n] = id;
    p->dyn[p->n++] = dyn;
}

static void pd_copy(emitter *e, pdec *dst, const pdec *src) {
    *dst = *src;
    dst->n = dst->cap = 0;
    dst->ids = NULL;
    dst->dyn = NULL;
    for (uint32_t k = 0; k < src->n; k++) pd_push(e, dst, src->ids[k], src->dyn[k]);
}

static void dec_ptr(emitter *e, uint32_t h, pdec *p);

/* Decomposes a reference expression (evaluating its indices, clamped, in order). */
static void dec_ref(emitter *e, uint32_t h, pdec *p) {
    const ast_node *n = N(h);
    const sema_expr *x = EX(h);
    switch ((ast_kind)n->kind) {
    case AST_IDENT: {
        uint32_t d = x->decl;
        if (d && N(d)->kind == AST_VAR) {
            p->root = e->id[d];
            p->root_type = e->vty[d];
            p->sc = e->vsc[d];
            p->global = p->sc != SPV_SC_Function;
            if (e->wrapped[d]) pd_push(e, p, c_u32(e, 0), 0);
            return;
        }
        break;
    }
    case AST_UNARY:
        if (n->op == AST_OP_DEREF) { dec_ptr(e, n->u.unary.operand, p); return; }
        break;
    case AST_INDEX: {
        uint32_t bh = n->u.index.base;
        if (EX(bh)->kind == SEMA_EK_REF) dec_ref(e, bh, p);
        else dec_ptr(e, bh, p); /* pointer composite access */
        const ty_info *si = TI(base_store_type(e, bh));
        uint32_t len = 0, bound = 0;
        if (si->kind == TY_ARRAY && si->array_kind == TY_ARRAY_RUNTIME) {
            if (e->bounds) len = array_length(e, bh);
        } else if (si->kind == TY_ARRAY && si->array_kind == TY_ARRAY_OVERRIDE) {
            bound = ovarr_count(e, base_store_type(e, bh));
        } else {
            bound = si->kind == TY_ARRAY ? si->count : si->n;
        }
        uint32_t ih = n->u.index.index;
        uint32_t id = clamp_index(e, ih, bound, len);
        pd_push(e, p, id, !(EX(ih)->cval && !len));
        return;
    }
    case AST_MEMBER: {
        uint32_t bh = n->u.member.base;
        if (EX(bh)->kind == SEMA_EK_REF) dec_ref(e, bh, p);
        else dec_ptr(e, bh, p);
        pd_push(e, p, c_u32(e, x->swz_n ? x->swz[0] : x->member), 0);
        return;
    }
    default:
        break;
    }
    /* anything else names memory through a pointer value we cannot take apart */
    ty_t rt = x->type;
    p->root = 0;
    p->root_type = tid(e, rt);
    p->sc = sc_of((ty_as)TI(rt)->as);
}

/* Decomposes a pointer-valued expression. */
static void dec_ptr(emitter *e, uint32_t h, pdec *p) {
    const ast_node *n = N(h);
    if (n->kind == AST_UNARY && n->op == AST_OP_ADDR) { dec_ref(e, n->u.unary.operand, p); return; }
    if (n->kind == AST_IDENT && EX(h)->decl && e->pd[EX(h)->decl]) {
        const pdec *q = e->pd[EX(h)->decl];
        if (e->dec_for_call) {
            pd_copy(e, p, q);
            return;
        }
        /* the pointer the let / parameter already holds, in the memory its root really is in
         * (a uniform variable's Private shadow, say) */
        p->root = e->id[EX(h)->decl];
        p->sc = q->sc;
        p->root_type = ptr_to(e, q->sc, TI(vt(e, h))->elem);
        return;
    }
    ty_t pt = vt(e, h);
    p->root = value(e, h);
    p->root_type = tid(e, pt);
    p->sc = sc_of((ty_as)TI(pt)->as);
}

/* The pointer a decomposition describes, to a pointee of type elem. */
static uint32_t pd_chain(emitter *e, const pdec *p, ty_t elem) {
    if (!p->n) return p->root;
    uint32_t *ops = words(e, p->n + 1);
    ops[0] = p->root;
    memcpy(ops + 1, p->ids, p->n * sizeof *ops);
    return spv_val(&e->b, SPV_OP_AccessChain, ptr_to(e, p->sc, elem), p->n + 1, ops);
}

/* The pointer a reference expression names; *sc (if given) receives its storage class. */
static uint32_t ref_in(emitter *e, uint32_t h, uint32_t *sc) {
    pdec p;
    memset(&p, 0, sizeof p);
    dec_ref(e, h, &p);
    if (sc) *sc = p.sc;
    return pd_chain(e, &p, TI(EX(h)->type)->elem);
}

static uint32_t ref(emitter *e, uint32_t h) { return ref_in(e, h, NULL); }

/* ---- values ---- */

static uint32_t binary_vals(emitter *e, ast_op op, ty_t rt, ty_t lt, uint32_t l, ty_t rtt, uint32_t r);

/* float -> int with saturation (spec: "conversion of floating point to integer") */
static uint32_t f_to_i(emitter *e, ty_t from, ty_t to, uint32_t v) {
    ty_t fs = ty_scalar_of(e->tt, from), ts = ty_scalar_of(e->tt, to);
    double lo, hi;
    if (ts == TY_I32) { lo = -2147483648.0; hi = fs == TY_F16 ? 65504.0 : 2147483520.0; }
    else { lo = 0; hi = fs == TY_F16 ? 65504.0 : 4294967040.0; }
    if (fs == TY_F16 && ts == TY_I32) lo = -65504.0;
    uint32_t clo = const_scalar_like(e, from, lo, 0), chi = const_scalar_like(e, from, hi, 0);
    uint32_t c = SPV_GLSL_CALL(&e->b, tid(e, from), SPV_GLSL_NClamp, v, clo, chi);
    return op1(e, ts == TY_I32 ? SPV_OP_ConvertFToS : SPV_OP_ConvertFToU, tid(e, to), c);
}

static uint32_t convert(emitter *e, ty_t from, ty_t to, uint32_t v) {
    if (from == to) return v;
    const ty_info *fi = TI(from), *ti = TI(to);
    if (ti->kind == TY_MAT) { /* f32 <-> f16 matrices: per column */
        uint32_t cols[4];
        ty_t fc = ty_mat_column(e->tt, from), tc = ty_mat_column(e->tt, to);
        for (uint32_t i = 0; i < ti->n; i++) {
            uint32_t c = SPV_VAL(&e->b, SPV_OP_CompositeExtract, tid(e, fc), v, i);
            cols[i] = op1(e, SPV_OP_FConvert, tid(e, tc), c);
        }
        return spv_val(&e->b, SPV_OP_CompositeConstruct, tid(e, to), ti->n, cols);
    }
    (void)fi;
    ty_t fs = ty_scalar_of(e->tt, from), ts = ty_scalar_of(e->tt, to);
    uint32_t T = tid(e, to);
    bool ff = fs == TY_F32 || fs == TY_F16, tf = ts == TY_F32 || ts == TY_F16;
    if (fs == ts) return v;
    if (ts == TY_BOOL) {
        uint32_t z = const_scalar_like(e, from, 0, 0);
        return op2(e, ff ? SPV_OP_FUnordNotEqual : SPV_OP_INotEqual, T, v, z);
    }
    if (fs == TY_BOOL) {
        uint32_t one = const_scalar_like(e, to, 1, 1), zero = const_scalar_like(e, to, 0, 0);
        if (TI(to)->kind == TY_VEC) return SPV_VAL(&e->b, SPV_OP_Select, T, v, one, zero);
        return SPV_VAL(&e->b, SPV_OP_Select, T, v, one, zero);
    }
    if (ff && tf) return op1(e, SPV_OP_FConvert, T, v);
    if (ff) return f_to_i(e, from, to, v);
    if (tf) return op1(e, fs == TY_I32 ? SPV_OP_ConvertSToF : SPV_OP_ConvertUToF, T, v);
    return op1(e, SPV_OP_Bitcast, T, v); /* i32 <-> u32 */
}

static uint32_t construct(emitter *e, uint32_t h, ty_t t) {
    const ast_node *n = N(h);
    const ty_info *ti = TI(t);
    uint32_t nargs = n->u.call.args.count, *parts = words(e, nargs);
    for (uint32_t i = 0; i < nargs; i++) parts[i] = value(e, ast_item(e->m, n->u.call.args, i));
    if (ti->kind == TY_VEC) {
        if (nargs == 1 && TI(vt(e, ast_item(e->m, n->u.call.args, 0)))->kind != TY_VEC) return splat(e, t, parts[0]);
        return spv_val(&e->b, SPV_OP_CompositeConstruct, tid(e, t), nargs, parts);
    }
    if (ti->kind == TY_SGMAT && nargs == 1) {   /* a scalar splat, or a matrix converted f16 <-> f32 */
        ty_t at = vt(e, ast_item(e->m, n->u.call.args, 0));
        if (TI(at)->kind == TY_SGMAT)
            return at == t ? parts[0] : spv_val(&e->b, SPV_OP_FConvert, tid(e, t), 1, parts);
        return spv_val(&e->b, SPV_OP_CompositeConstruct, tid(e, t), 1, parts);
    }
    if (ti->kind == TY_MAT && nargs == (uint32_t)ti->n * ti->rows && TI(vt(e, ast_item(e->m, n->u.call.args, 0)))->kind != TY_VEC) {
        ty_t ct = ty_mat_column(e->tt, t);
        uint32_t cols[4];
        for (uint32_t c = 0; c < ti->n; c++)
            cols[c] = spv_val(&e->b, SPV_OP_CompositeConstruct, tid(e, ct), ti->rows, parts + c * ti->rows);
        return spv_val(&e->b, SPV_OP_CompositeConstruct, tid(e, t), ti->n, cols);
    }
    return spv_val(&e->b, SPV_OP_CompositeConstruct, tid(e, t), nargs, parts);
}

/* Integer divisor made safe: 1 where it is 0 or where lhs is MIN and rhs is -1. */
static uint32_t safe_divisor(emitter *e, ty_t t, uint32_t l, uint32_t r) {
    ty_t s = ty_scalar_of(e->tt, t);
    uint32_t bt = bool_like(e, t);
    uint32_t zero = const_scalar_like(e, t, 0, 0), one = const_scalar_like(e, t, 1, 1);
    uint32_t bad = op2(e, SPV_OP_IEqual, bt, r, zero);
    if (s == TY_I32) {
        uint32_t mn = const_scalar_like(e, t, 0, INT32_MIN), m1 = const_scalar_like(e, t, 0, -1);
        uint32_t a = op2(e, SPV_OP_IEqual, bt, l, mn), c = op2(e, SPV_OP_IEqual, bt, r, m1);
        uint32_t both = op2(e, SPV_OP_LogicalAnd, bt, a, c);
        bad = op2(e, SPV_OP_LogicalOr, bt, bad, both);
    }
    return SPV_VAL(&e->b, SPV_OP_Select, tid(e, t), bad, one, r);
}

/* Is the rhs node of `op` a constant for which / % need no zero/overflow guard and shifts no mask? */
static bool const_rhs_safe(emitter *e, uint32_t rh, ast_op op) {
    const sema_expr *x = EX(rh);
    if (!x->cval) return false;
    const cv_value *v = sema_value(e->sm, x->cval);
    uint32_t n = v->n ? v->n : 1;
    for (uint32_t i = 0; i < n; i++) {
        const cv_value *c = v->n ? &v->u.elems[i] : v;
        if (c->type != TY_I32 && c->type != TY_U32) return false;
        if (op == AST_OP_SHL || op == AST_OP_SHR) {
            if (c->u.i < 0 || c->u.i >= 32) return false;
        } else if (c->u.i == 0 || (c->type == TY_I32 && c->u.i == -1)) {
            return false;
        }
    }
    return op == AST_OP_DIV || op == AST_OP_MOD || op == AST_OP_SHL || op == AST_OP_SHR;
}

static uint32_t binary_vals(emitter *e, ast_op op, ty_t rt, ty_t lt, uint32_t l, ty_t rtt, uint32_t r) {
    spv_builder *b = &e->b;
    const ty_info *li = TI(lt), *ri = TI(rtt);
    ty_t s = ty_scalar_of(e->tt, lt);
    bool safe = e->rhs_safe;
    e->rhs_safe = false;
    bool fl = s == TY_F32 || s == TY_F16, sg = s == TY_I32;
    uint32_t R = tid(e, rt);
    /* matrices */
    if (li->kind == TY_MAT || ri->kind == TY_MAT) {
        if (op == AST_OP_MUL) {
            if (li->kind == TY_MAT && ri->kind == TY_MAT) return op2(e, SPV_OP_MatrixTimesMatrix, R, l, r);
            if (li->kind == TY_MAT && ri->kind == TY_VEC) return op2(e, SPV_OP_MatrixTimesVector, R, l, r);
            if (li->kind == TY_VEC) return op2(e, SPV_OP_VectorTimesMatrix, R, l, r);
            if (li->kind == TY_MAT) return op2(e, SPV_OP_MatrixTimesScalar, R, l, r);
            return op2(e, SPV_OP_MatrixTimesScalar, R, r, l);
        }
        /* + - component-wise per column */
        ty_t ct = ty_mat_column(e->tt, lt);
        uint32_t cols[4];
        for (uint32_t i = 0; i < li->n; i++) {
            uint32_t a = SPV_VAL(b, SPV_OP_CompositeExtract, tid(e, ct), l, i);
            uint32_t c = SPV_VAL(b, SPV_OP_CompositeExtract, tid(e, ct), r, i);
            cols[i] = op2(e, op == AST_OP_ADD ? SPV_OP_FAdd : SPV_OP_FSub, tid(e, ct), a, c);
        }
        return spv_val(b, SPV_OP_CompositeConstruct, R, li->n, cols);
    }
    /* vector-scalar mixing */
    if (li->kind == TY_VEC && ri->kind != TY_VEC && op != AST_OP_SHL && op != AST_OP_SHR) {
        if (op == AST_OP_MUL && fl) return op2(e, SPV_OP_VectorTimesScalar, R, l, r);
        r = splat(e, lt, r);
        rtt = lt;
    } else if (ri->kind == TY_VEC && li->kind != TY_VEC) {
        if (op == AST_OP_MUL && fl) return op2(e, SPV_OP_VectorTimesScalar, R, r, l);
        l = splat(e, rtt, l);
        lt = rtt;
    }
    switch (op) {
    case AST_OP_ADD: return op2(e, fl ? SPV_OP_FAdd : SPV_OP_IAdd, R, l, r);
    case AST_OP_SUB: return op2(e, fl ? SPV_OP_FSub : SPV_OP_ISub, R, l, r);
    case AST_OP_MUL: return op2(e, fl ? SPV_OP_FMul : SPV_OP_IMul, R, l, r);
    case AST_OP_DIV:
        if (fl) return op2(e, SPV_OP_FDiv, R, l, r);
        return op2(e, sg ? SPV_OP_SDiv : SPV_OP_UDiv, R, l, safe ? r : safe_divisor(e, lt, l, r));
    case AST_OP_MOD: {
        if (fl) return op2(e, SPV_OP_FRem, R, l, r);
        uint32_t d = safe ? r : safe_divisor(e, lt, l, r);
        if (!sg) return op2(e, SPV_OP_UMod, R, l, d);
        /* l - trunc(l / d) * d: NVIDIA's driver (580) gets OpSRem wrong for negative operands */
        uint32_t q = op2(e, SPV_OP_SDiv, R, l, d);
        return op2(e, SPV_OP_ISub, R, l, op2(e, SPV_OP_IMul, R, q, d));
    }
    case AST_OP_AND: return op2(e, s == TY_BOOL ? SPV_OP_LogicalAnd : SPV_OP_BitwiseAnd, R, l, r);
    case AST_OP_OR: return op2(e, s == TY_BOOL ? SPV_OP_LogicalOr : SPV_OP_BitwiseOr, R, l, r);
    case AST_OP_XOR: return op2(e, SPV_OP_BitwiseXor, R, l, r);
    case AST_OP_SHL: case AST_OP_SHR: {
        /* count masked to the bit width */
        if (ri->kind != TY_VEC && li->kind == TY_VEC) { r = splat(e, ty_vec(e->tt, li->n, TY_U32), r); }
        ty_t ct = li->kind == TY_VEC ? ty_vec(e->tt, li->n, TY_U32) : TY_U32;
        if (!safe) r = op2(e, SPV_OP_BitwiseAnd, tid(e, ct), r, const_scalar_like(e, ct, 0, 31));
        if (op == AST_OP_SHL) return op2(e, SPV_OP_ShiftLeftLogical, R, l, r);
        return op2(e, sg ? SPV_OP_ShiftRightArithmetic : SPV_OP_ShiftRightLogical, R, l, r);
    }
    case AST_OP_EQ: case AST_OP_NE: case AST_OP_LT: case AST_OP_LE: case AST_OP_GT: case AST_OP_GE: {
        static const uint32_t fo[] = { SPV_OP_FOrdEqual, SPV_OP_FUnordNotEqual, SPV_OP_FOrdLessThan,
                                       SPV_OP_FOrdLessThanEqual, SPV_OP_FOrdGreaterThan, SPV_OP_FOrdGreaterThanEqual };
        static const uint32_t so[] = { SPV_OP_IEqual, SPV_OP_INotEqual, SPV_OP_SLessThan,
                                       SPV_OP_SLessThanEqual, SPV_OP_SGreaterThan, SPV_OP_SGreaterThanEqual };
        static const uint32_t uo[] = { SPV_OP_IEqual, SPV_OP_INotEqual, SPV_OP_ULessThan,
                                       SPV_OP_ULessThanEqual, SPV_OP_UGreaterThan, SPV_OP_UGreaterThanEqual };
        int k = op == AST_OP_EQ ? 0 : op == AST_OP_NE ? 1 : op == AST_OP_LT ? 2 : op == AST_OP_LE ? 3 : op == AST_OP_GT ? 4 : 5;
        uint32_t o = fl ? fo[k] : sg ? so[k] : uo[k];
        if (s == TY_BOOL) o = k == 0 ? SPV_OP_LogicalEqual : SPV_OP_LogicalNotEqual;
        return op2(e, o, R, l, r);
    }
    default:
        return op2(e, SPV_OP_IAdd, R, l, r);
    }
}

static uint32_t short_circuit(emitter *e, uint32_t h) {
    const ast_node *n = N(h);
    spv_builder *b = &e->b;
    uint32_t l = value(e, n->u.binary.lhs);
    uint32_t lbl_l = b->cur_label, rhs = spv_id(b), merge = spv_id(b);
    SPV_OP(b, SPV_OP_SelectionMerge, merge, SPV_SELECTION_CONTROL_NONE);
    if (n->op == AST_OP_LAND) SPV_OP(b, SPV_OP_BranchConditional, l, rhs, merge);
    else SPV_OP(b, SPV_OP_BranchConditional, l, merge, rhs);
    spv_label(b, rhs);
    uint32_t r = value(e, n->u.binary.rhs);
    uint32_t lbl_r = b->cur_label;
    SPV_OP(b, SPV_OP_Branch, merge);
    spv_label(b, merge);
    return SPV_VAL(b, SPV_OP_Phi, t_bool(e), l, lbl_l, r, lbl_r);
}

static uint32_t builtin_call(emitter *e, uint32_t h);

static uint32_t index_value(emitter *e, uint32_t h) {
    const ast_node *n = N(h);
    uint32_t bh = n->u.index.base, ih = n->u.index.index;
    ty_t bt = vt(e, bh);
    const ty_info *bi = TI(bt);
    const sema_expr *ix = EX(ih);
    uint32_t base = value(e, bh);
    ty_t et = EX(h)->type;
    if (ix->cval) {
        int64_t k = sema_value(e->sm, ix->cval)->u.i;
        return SPV_VAL(&e->b, SPV_OP_CompositeExtract, tid(e, et), base, (uint32_t)k);
    }
    uint32_t bound = bi->kind == TY_ARRAY ? bi->count : bi->n;
    uint32_t i = clamp_index(e, ih, bound, 0);
    if (bi->kind == TY_VEC) return op2(e, SPV_OP_VectorExtractDynamic, tid(e, et), base, i);
    uint32_t tmp = fn_temp(e, bt);
    store(e, tmp, base);
    uint32_t p = SPV_VAL(&e->b, SPV_OP_AccessChain, ptr_to(e, SPV_SC_Function, et), tmp, i);
    return load(e, et, p);
}

static uint32_t value_of_decl(emitter *e, uint32_t h, uint32_t d) {
    switch ((ast_kind)N(d)->kind) {
    case AST_OVERRIDE: return override_id(e, d);
    case AST_CONST: return DC(d)->cval ? const_of(e, sema_value(e->sm, DC(d)->cval)) : 0;
    default: return e->id[d];
    }
}

/* The specialisation of function fn for the given pointer arguments (created when new). */
static fn_clone *clone_for(emitter *e, uint32_t fn, const pshape *shape, uint32_t np) {
    for (fn_clone *c = e->clones; c; c = c->next) {
        if (c->fn_node != fn) continue;
        bool same = true;
        for (uint32_t i = 0; i < np && same; i++) {
            const pshape *a = &c->shape[i], *b = &shape[i];
            same = a->root_type == b->root_type && a->sc == b->sc && a->n == b->n && a->root_var == b->root_var &&
                   (!a->n || !memcmp(a->ids, b->ids, a->n * sizeof *a->ids));
        }
        if (same) return c;
    }
    fn_clone *c = arena_alloc(&e->cc->arena, sizeof *c);
    c->fn_node = fn;
    c->id = spv_id(&e->b);
    c->serial = ++e->nclones;
    c->shape = arena_alloc(&e->cc->arena, (np ? np : 1) * sizeof *c->shape);
    memcpy(c->shape, shape, np * sizeof *shape);
    if (e->clones_tail) e->clones_tail->next = c;
    else e->clones = c;
    e->clones_tail = c;
    return c;
}

/* A call of a user function.  A pointer argument that is not a whole variable (or a parameter)
 * cannot be passed in SPIR-V without the variable-pointers features, so the callee is
 * specialised: it receives the root object and the runtime indices instead. */
static uint32_t user_call(emitter *e, uint32_t h) {
    const ast_node *n = N(h);
    const sema_expr *x = EX(h);
    const ast_node *fnode = N(x->decl);
    uint32_t na = n->u.call.args.count;
    if (na > fnode->u.fn.params.count) na = fnode->u.fn.params.count;
    pdec *pa = arena_alloc(&e->cc->arena, (na ? na : 1) * sizeof *pa);
    pshape *shape = arena_alloc(&e->cc->arena, (na ? na : 1) * sizeof *shape);
    uint32_t *vals = words(e, na), ndyn = 0;
    bool spec = false;
    for (uint32_t i = 0; i < na; i++) {
        uint32_t ah = ast_item(e->m, n->u.call.args, i);
        ty_t pt = DC(ast_item(e->m, fnode->u.fn.params, i))->type;
        if (TI(pt)->kind != TY_PTR) {
            vals[i] = value(e, ah);
            continue;
        }
        bool saved = e->dec_for_call;
        e->dec_for_call = true;
        dec_ptr(e, ah, &pa[i]);
        e->dec_for_call = saved;
        if (pa[i].n || pa[i].root_type != tid(e, pt) ||
            (pa[i].global && (pa[i].sc == SPV_SC_StorageBuffer || pa[i].sc == SPV_SC_Uniform))) {
            spec = true;
            pshape *sh = &shape[i];
            sh->root_type = pa[i].root_type;
            sh->root_var = pa[i].global ? pa[i].root : 0;
            sh->sc = pa[i].sc;
            sh->n = pa[i].n;
            sh->ids = words(e, pa[i].n);
            for (uint32_t k = 0; k < pa[i].n; k++) {
                sh->ids[k] = pa[i].dyn[k] ? 0 : pa[i].ids[k];
                ndyn += pa[i].dyn[k];
            }
        }
    }
    uint32_t *args = words(e, 2 * na + ndyn + 1), nargs = 1;
    fn_clone *c = spec ? clone_for(e, x->decl, shape, na) : NULL;
    args[0] = c ? c->id : e->id[x->decl];
    for (uint32_t i = 0; i < na; i++) {
        ty_t pt = DC(ast_item(e->m, fnode->u.fn.params, i))->type;
        if (TI(pt)->kind != TY_PTR) { args[nargs++] = vals[i]; continue; }
        if (c && c->shape[i].root_type) {
            if (!c->shape[i].root_var) args[nargs++] = pa[i].root;
            for (uint32_t k = 0; k < pa[i].n; k++)
                if (pa[i].dyn[k]) args[nargs++] = pa[i].ids[k];
        } else {
            args[nargs++] = pd_chain(e, &pa[i], TI(pt)->elem);
        }
    }
    for (uint32_t i = 0; i < na; i++) {
        uint32_t p = ast_item(e->m, fnode->u.fn.params, i);
        if (needs_len_param(e, DC(p)->type)) args[nargs++] = array_length(e, ast_item(e->m, n->u.call.args, i));
    }
    const sema_fn *f = sema_fn_of(e->sm, x->decl);
    ty_t rt = f && f->ret ? f->ret : TY_VOID;
    return spv_val(&e->b, SPV_OP_FunctionCall, tid(e, rt), nargs, args);
}

static uint32_t value(emitter *e, uint32_t h) {
    const sema_expr *x = EX(h);
    const ast_node *n = N(h);
    if (x->cval) {
        const cv_value *v = sema_value(e->sm, x->cval);
        return const_of(e, v);
    }
    if (x->kind == SEMA_EK_REF) {
        uint32_t sc;
        uint32_t p = ref_in(e, h, &sc);
        return load_sc(e, ty_unref(e->tt, x->type), p, sc);
    }
    switch ((ast_kind)n->kind) {
    case AST_IDENT:
        return value_of_decl(e, h, x->decl);
    case AST_UNARY: {
        uint32_t o = n->u.unary.operand;
        if (n->op == AST_OP_ADDR) return ref(e, o);
        uint32_t v = value(e, o);
        ty_t t = x->type;
        ty_t s = ty_scalar_of(e->tt, t);
        if (n->op == AST_OP_NEG) return op1(e, (s == TY_F32 || s == TY_F16) ? SPV_OP_FNegate : SPV_OP_SNegate, tid(e, t), v);
        if (n->op == AST_OP_NOT) return op1(e, SPV_OP_LogicalNot, tid(e, t), v);
        return op1(e, SPV_OP_Not, tid(e, t), v);
    }
    case AST_BINARY:
        if (n->op == AST_OP_LAND || n->op == AST_OP_LOR) {
            if (TI(x->type)->kind == TY_BOOL) return short_circuit(e, h);
        }
        {
            uint32_t l = value(e, n->u.binary.lhs), r = value(e, n->u.binary.rhs);
            e->rhs_safe = const_rhs_safe(e, n->u.binary.rhs, (ast_op)n->op);
            return binary_vals(e, (ast_op)n->op, x->type, vt(e, n->u.binary.lhs), l, vt(e, n->u.binary.rhs), r);
        }
    case AST_INDEX:
        return index_value(e, h);
    case AST_MEMBER: {
        uint32_t bh = n->u.member.base;
        uint32_t base;
        ty_t bt = EX(bh)->type;
        if (TI(bt)->kind == TY_PTR) {
            /* p.wzyx through a pointer is a value of the pointee (spec 8.5.1.3 "Vector Multiple
             * Component Selection" via 6.4.3 pointer-to-composite access): load, then shuffle */
            pdec pd;
            memset(&pd, 0, sizeof pd);
            dec_ptr(e, bh, &pd);
            base = load_sc(e, TI(bt)->elem, pd_chain(e, &pd, TI(bt)->elem), pd.sc);
        } else {
            base = value(e, bh);
        }
        if (x->swz_n == 1) return SPV_VAL(&e->b, SPV_OP_CompositeExtract, tid(e, x->type), base, x->swz[0]);
        if (x->swz_n) {
            uint32_t ops[6] = { base, base, x->swz[0], x->swz[1], x->swz[2], x->swz[3] };
            return spv_val(&e->b, SPV_OP_VectorShuffle, tid(e, x->type), 2u + x->swz_n, ops);
        }
        return SPV_VAL(&e->b, SPV_OP_CompositeExtract, tid(e, x->type), base, x->member);
    }
    case AST_CALL:
        switch ((sema_call)x->call) {
        case SEMA_CALL_FN: return user_call(e, h);
        case SEMA_CALL_BUILTIN: return builtin_call(e, h);
        case SEMA_CALL_ZERO: return zero_of(e, x->type);
        case SEMA_CALL_CONSTRUCT: return construct(e, h, x->type);
        case SEMA_CALL_CONVERT: {
            uint32_t a = ast_item(e->m, n->u.call.args, 0);
            return convert(e, vt(e, a), x->type, value(e, a));
        }
        case SEMA_CALL_BITCAST: {
            uint32_t a = ast_item(e->m, n->u.call.args, 0);
            uint32_t v = value(e, a);
            if (vt(e, a) == x->type) return v;
            return op1(e, SPV_OP_Bitcast, tid(e, x->type), v);
        }
        default: return 0;
        }
    default:
        return 0;
    }
}

/* ---- built-in functions ---- */

static uint32_t scope_id(emitter *e, uint32_t s) { return c_u32(e, s); }

static uint32_t atomic_scope(emitter *e, uint32_t ptr_arg) {
    ty_t pt = vt(e, ptr_arg);
    return scope_id(e, TI(pt)->as == TY_AS_WORKGROUP ? SPV_SCOPE_WORKGROUP : SPV_SCOPE_DEVICE);
}

static void barrier(emitter *e, uint32_t sem) {
    SPV_OP(&e->b, SPV_OP_ControlBarrier, scope_id(e, SPV_SCOPE_WORKGROUP), scope_id(e, SPV_SCOPE_WORKGROUP),
           c_u32(e, SPV_SEM_ACQUIRE_RELEASE | sem));
}

static void subgroup_caps(emitter *e, uint32_t op) {
    spv_builder *b = &e->b;
    spv_capability(b, SPV_CAP_GroupNonUniform);
    if (op >= SPV_OP_GroupNonUniformIAdd && op <= SPV_OP_GroupNonUniformLogicalXor)
        spv_capability(b, SPV_CAP_GroupNonUniformArithmetic);
    else if (op == SPV_OP_GroupNonUniformAll || op == SPV_OP_GroupNonUniformAny || op == SPV_OP_GroupNonUniformAllEqual)
        spv_capability(b, SPV_CAP_GroupNonUniformVote);
    else if (op >= SPV_OP_GroupNonUniformBroadcast && op <= SPV_OP_GroupNonUniformBallotFindMSB)
        spv_capability(b, SPV_CAP_GroupNonUniformBallot);
    else if (op == SPV_OP_GroupNonUniformShuffle || op == SPV_OP_GroupNonUniformShuffleXor)
        spv_capability(b, SPV_CAP_GroupNonUniformShuffle);
    else if (op == SPV_OP_GroupNonUniformShuffleUp || op == SPV_OP_GroupNonUniformShuffleDown)
        spv_capability(b, SPV_CAP_GroupNonUniformShuffleRelative);
    else if (op == SPV_OP_GroupNonUniformQuadBroadcast || op == SPV_OP_GroupNonUniformQuadSwap)
        spv_capability(b, SPV_CAP_GroupNonUniformQuad);
}

/* 4 lanes of 8 bits: unpack x as vec4 (signed: sign-extended). */
static uint32_t unpack4x8(emitter *e, uint32_t x, int sgn) {
    ty_t vt4 = ty_vec(e->tt, 4, sgn ? TY_I32 : TY_U32);
    uint32_t S = sgn ? t_i32(e) : t_u32(e);
    uint32_t v = sgn ? op1(e, SPV_OP_Bitcast, t_i32(e), x) : x;
    uint32_t parts[4];
    for (uint32_t i = 0; i < 4; i++)
        parts[i] = SPV_VAL(&e->b, sgn ? SPV_OP_BitFieldSExtract : SPV_OP_BitFieldUExtract, S, v, c_u32(e, 8 * i), c_u32(e, 8));
    return spv_val(&e->b, SPV_OP_CompositeConstruct, tid(e, vt4), 4, parts);
}

static uint32_t pack4x8(emitter *e, uint32_t v, int sgn, int clampit) {
    ty_t st = sgn ? TY_I32 : TY_U32;
    ty_t v4 = ty_vec(e->tt, 4, st);
    if (clampit) {
        uint32_t lo = const_scalar_like(e, v4, 0, sgn ? -128 : 0), hi = const_scalar_like(e, v4, 0, sgn ? 127 : 255);
        v = SPV_GLSL_CALL(&e->b, tid(e, v4), sgn ? SPV_GLSL_SClamp : SPV_GLSL_UClamp, v, lo, hi);
    }
    uint32_t r = c_u32(e, 0);
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t c = SPV_VAL(&e->b, SPV_OP_CompositeExtract, tid(e, st), v, i);
        if (sgn) c = op1(e, SPV_OP_Bitcast, t_u32(e), c);
        c = SPV_VAL(&e->b, SPV_OP_BitFieldInsert, t_u32(e), r, c, c_u32(e, 8 * i), c_u32(e, 8));
        r = c;
    }
    return r;
}

/* Subgroup matrix built-ins -> SPV_KHR_cooperative_matrix.  Load/Store take a pointer to element
 * `offset` of the array (OpAccessChain), the layout (RowMajorKHR 0 / ColumnMajorKHR 1, from the
 * const col_major flag) and the stride in elements.  Multiply is MulAdd with a zero accumulator;
 * integer components are flagged signed for i32.  With bounds checks on, a load from a fixed-size
 * array with a constant stride has its offset clamped so that the matrix lies inside (no branch:
 * the common workgroup-memory load, in an unrolled multiply loop, stays straight-line code); any
 * other load or store whose matrix does not lie inside the array is skipped (the load gives the
 * zero matrix). */
static uint32_t sgm_call(emitter *e, uint32_t h, bi_fn f, ty_t rt, uint32_t R) {
    spv_builder *b = &e->b;
    f = bi_sgm_base(f);                     /* workgroup matrices: the same lowering, their types' scope */
    uint32_t na = N(h)->u.call.args.count, ah[5] = { 0 };   /* Store has 5 arguments (> BI_MAX_ARGS) */
    for (uint32_t i = 0; i < na && i < 5; i++) ah[i] = ast_item(e->m, N(h)->u.call.args, i);
    if (f == BI_subgroupMatrixLoad || f == BI_subgroupMatrixStore) {
        bool ld = f == BI_subgroupMatrixLoad;
        ty_t pt = vt(e, ah[0]);
        const ty_info *ai = TI(TI(pt)->elem);
        ty_t el = ai->elem;
        uint32_t sc = sc_of((ty_as)TI(pt)->as);
        uint32_t p = value(e, ah[0]);
        uint32_t off = value(e, ah[1]);
        uint32_t v = ld ? 0 : value(e, ah[2]);
        uint32_t cm = ld ? 2 : 3;
        const sema_expr *cx = EX(ah[cm]);
        bool col = cx->cval && sema_value(e->sm, cx->cval)->u.b;
        uint32_t layout = c_u32(e, col ? 1u : 0u);
        uint32_t stride = value(e, ah[cm + 1]);
        const ty_info *mi = TI(ld ? rt : vt(e, ah[2]));
        /* the matrix in the array: `lines` rows (row-major) or columns of `width` elements */
        uint32_t lines = col ? mi->n : mi->rows, width = col ? mi->rows : mi->n;
        uint32_t ok = 0, lbl0 = 0, body = 0, merge = 0;
        const sema_expr *sx = EX(ah[cm + 1]);
        if (e->bounds && ld && ai->array_kind == TY_ARRAY_FIXED && sx->cval) {
            /* a fixed array and a constant stride: the matrix needs `need` elements from its offset,
             * so the offset is clamped to count - need (an out-of-bounds load reads matrix-sized data
             * inside the array), no branch; a matrix larger than the array loads as zeros */
            uint64_t st = (uint64_t)sema_value(e->sm, sx->cval)->u.i;
            uint64_t need = (uint64_t)(lines - 1u) * st + width;
            if (need > ai->count) return zero_of(e, rt);
            off = SPV_GLSL_CALL(b, t_u32(e), SPV_GLSL_UMin, off, c_u32(e, (uint32_t)(ai->count - need)));
            uint32_t ep = SPV_VAL(b, SPV_OP_AccessChain, ptr_to(e, sc, el), p, off);
            return SPV_VAL(b, SPV_OP_CooperativeMatrixLoadKHR, R, ep, layout, stride);
        }
        if (e->bounds) {
            /* the matrix must lie inside the array: lines = rows (row-major) or columns, each of
             * `width` elements, `stride` apart: width <= len, off <= len - width, and
             * (lines - 1) <= (len - width - off) / stride (division: no overflow); else the load
             * gives zeros and the store writes nothing.  The branch is uniform (offset and stride
             * are, by the uniformity rules). */
            uint32_t u = t_u32(e), bt = t_bool(e);
            uint32_t len = ai->array_kind == TY_ARRAY_FIXED ? c_u32(e, ai->count) : array_length(e, ah[0]);
            uint32_t w = c_u32(e, width);
            uint32_t c1 = SPV_VAL(b, SPV_OP_UGreaterThanEqual, bt, len, w);
            uint32_t room = SPV_VAL(b, SPV_OP_ISub, u, len, w);
            uint32_t c2 = SPV_VAL(b, SPV_OP_ULessThanEqual, bt, off, room);
            uint32_t rest = SPV_VAL(b, SPV_OP_ISub, u, room, off);
            uint32_t zero = c_u32(e, 0);
            uint32_t sd = SPV_VAL(b, SPV_OP_Select, u, SPV_VAL(b, SPV_OP_IEqual, bt, stride, zero), c_u32(e, 1), stride);
            uint32_t c3 = SPV_VAL(b, SPV_OP_ULessThanEqual, bt, c_u32(e, lines - 1u), SPV_VAL(b, SPV_OP_UDiv, u, rest, sd));
            ok = SPV_VAL(b, SPV_OP_LogicalAnd, bt, SPV_VAL(b, SPV_OP_LogicalAnd, bt, c1, c2), c3);
            lbl0 = b->cur_label;
            body = spv_id(b);
            merge = spv_id(b);
            SPV_OP(b, SPV_OP_SelectionMerge, merge, SPV_SELECTION_CONTROL_NONE);
            SPV_OP(b, SPV_OP_BranchConditional, ok, body, merge);
            spv_label(b, body);
        }
        uint32_t ep = SPV_VAL(b, SPV_OP_AccessChain, ptr_to(e, sc, el), p, off);
        uint32_t r = 0;
        if (ld) r = SPV_VAL(b, SPV_OP_CooperativeMatrixLoadKHR, R, ep, layout, stride);
        else SPV_OP(b, SPV_OP_CooperativeMatrixStoreKHR, ep, v, layout, stride);
        if (e->bounds) {
            uint32_t lbl1 = b->cur_label;
            SPV_OP(b, SPV_OP_Branch, merge);
            spv_label(b, merge);
            if (ld) r = SPV_VAL(b, SPV_OP_Phi, R, r, lbl1, zero_of(e, rt), lbl0);
        }
        return r;
    }
    uint32_t A = value(e, ah[0]), B = value(e, ah[1]);
    uint32_t C = na == 3 ? value(e, ah[2]) : zero_of(e, rt);   /* Multiply: a zero accumulator */
    ty_t at = vt(e, ah[0]);
    uint32_t mask = 0;                      /* MatrixA/B/C/Result SignedComponentsKHR */
    if (TI(at)->elem == TY_I32) mask |= 0x2u | 0x4u;
    if (TI(rt)->elem == TY_I32) mask |= 0x8u | 0x10u;
    if (mask) return SPV_VAL(b, SPV_OP_CooperativeMatrixMulAddKHR, R, A, B, C, mask);
    return SPV_VAL(b, SPV_OP_CooperativeMatrixMulAddKHR, R, A, B, C);
}

static uint32_t builtin_call(emitter *e, uint32_t h) {
    const ast_node *n = N(h);
    const sema_expr *x = EX(h);
    spv_builder *b = &e->b;
    bi_fn f = (bi_fn)x->bi_fn;
    const bi_info *bi = bi_get(f);
    uint32_t na = n->u.call.args.count < BI_MAX_ARGS ? n->u.call.args.count : BI_MAX_ARGS;
    uint32_t ah[BI_MAX_ARGS] = { 0 };
    for (uint32_t i = 0; i < na; i++) ah[i] = ast_item(e->m, n->u.call.args, i);
    ty_t rt = x->type ? x->type : TY_VOID;
    uint32_t R = tid(e, rt);
    ty_t a0t = na ? vt(e, ah[0]) : 0;
    ty_t s0 = a0t ? ty_scalar_of(e->tt, TI(a0t)->kind == TY_PTR ? TI(TI(a0t)->elem)->elem : a0t) : 0;
    int k = (s0 == TY_F32 || s0 == TY_F16) ? 0 : s0 == TY_I32 ? 1 : 2;
    bi_lower lw = bi->lower[k];
    uint32_t a[BI_MAX_ARGS] = { 0 };

    if (bi->flags & BI_F_SGM) return sgm_call(e, h, f, rt, R);
    /* functions that need their pointer argument or special shapes first */
    switch (f) {
    case BI_arrayLength: {
        uint32_t p = ah[0];
        return array_length(e, p);
    }
    case BI_workgroupBarrier: barrier(e, SPV_SEM_WORKGROUP_MEMORY); return 0;
    case BI_storageBarrier: barrier(e, SPV_SEM_UNIFORM_MEMORY); return 0;
    case BI_workgroupUniformLoad: {
        uint32_t p = value(e, ah[0]);
        barrier(e, SPV_SEM_WORKGROUP_MEMORY);
        uint32_t v;
        if (TI(TI(a0t)->elem)->kind == TY_ATOMIC)
            v = SPV_VAL(b, SPV_OP_AtomicLoad, R, p, scope_id(e, SPV_SCOPE_WORKGROUP), c_u32(e, 0));
        else
            v = SPV_VAL(b, SPV_OP_Load, R, p);
        barrier(e, SPV_SEM_WORKGROUP_MEMORY);
        return v;
    }
    default: break;
    }
    for (uint32_t i = 0; i < na; i++) a[i] = value(e, ah[i]);
    if (bi->flags & BI_F_ATOM) {
        uint32_t sc = atomic_scope(e, ah[0]), sem = c_u32(e, 0);
        switch (f) {
        case BI_atomicLoad: return SPV_VAL(b, SPV_OP_AtomicLoad, R, a[0], sc, sem);
        case BI_atomicStore: SPV_OP(b, SPV_OP_AtomicStore, a[0], sc, sem, a[1]); return 0;
        case BI_atomicCompareExchangeWeak: {
            ty_t vt0 = TI(TI(a0t)->elem)->elem;
            uint32_t old = SPV_VAL(b, SPV_OP_AtomicCompareExchange, tid(e, vt0), a[0], sc, sem, sem, a[2], a[1]);
            uint32_t eq = op2(e, SPV_OP_IEqual, t_bool(e), old, a[1]);
            return SPV_VAL(b, SPV_OP_CompositeConstruct, R, old, eq);
        }
        default:
            return SPV_VAL(b, lw.num, R, a[0], sc, sem, a[1]);
        }
    }
    if (bi->flags & BI_F_SUB) {
        uint32_t sg = scope_id(e, SPV_SCOPE_SUBGROUP);
        uint32_t op = lw.num;
        subgroup_caps(e, op);
        switch (op) {
        case SPV_OP_GroupNonUniformElect: return SPV_VAL(b, op, R, sg);
        case SPV_OP_GroupNonUniformAll: case SPV_OP_GroupNonUniformAny:
        case SPV_OP_GroupNonUniformBallot: case SPV_OP_GroupNonUniformBroadcastFirst:
            return SPV_VAL(b, op, R, sg, a[0]);
        case SPV_OP_GroupNonUniformQuadSwap: return SPV_VAL(b, op, R, sg, a[0], c_u32(e, bi->aux));
        case SPV_OP_GroupNonUniformBroadcast: case SPV_OP_GroupNonUniformQuadBroadcast:
        case SPV_OP_GroupNonUniformShuffle: case SPV_OP_GroupNonUniformShuffleXor:
        case SPV_OP_GroupNonUniformShuffleUp: case SPV_OP_GroupNonUniformShuffleDown: {
            uint32_t i1 = a[1];
            if (vt(e, ah[1]) == TY_I32) i1 = op1(e, SPV_OP_Bitcast, t_u32(e), i1);
            if (op == SPV_OP_GroupNonUniformBroadcast || op == SPV_OP_GroupNonUniformQuadBroadcast) {
                const sema_expr *ix = EX(ah[1]);
                if (ix->cval) i1 = c_u32(e, (uint32_t)sema_value(e->sm, ix->cval)->u.i);
            }
            return SPV_VAL(b, op, R, sg, a[0], i1);
        }
        default: /* arithmetic with a group operation */
            return SPV_VAL(b, op, R, sg, bi->aux, a[0]);
        }
    }
    switch (f) {
    case BI_saturate:
        return SPV_GLSL_CALL(b, R, SPV_GLSL_FClamp, a[0], const_scalar_like(e, rt, 0, 0), const_scalar_like(e, rt, 1, 1));
    case BI_mix:
        if (TI(vt(e, ah[2]))->kind != TY_VEC && TI(rt)->kind == TY_VEC) a[2] = splat(e, rt, a[2]);
        return SPV_GLSL_CALL(b, R, SPV_GLSL_FMix, a[0], a[1], a[2]);
    case BI_select: {
        uint32_t c = a[2];
        if (TI(vt(e, ah[2]))->kind != TY_VEC && TI(rt)->kind == TY_VEC) c = splat(e, ty_vec(e->tt, TI(rt)->n, TY_BOOL), c);
        return SPV_VAL(b, SPV_OP_Select, R, c, a[1], a[0]);
    }
    case BI_all: case BI_any:
        if (TI(a0t)->kind != TY_VEC) return a[0];
        return op1(e, f == BI_all ? SPV_OP_All : SPV_OP_Any, R, a[0]);
    case BI_abs:
        if (k == 2) return a[0];
        break;
    case BI_dot:
        if (k != 0) {
            ty_t es = ty_scalar_of(e->tt, a0t);
            uint32_t prod = op2(e, SPV_OP_IMul, tid(e, a0t), a[0], a[1]);
            uint32_t sum = 0;
            for (uint32_t i = 0; i < TI(a0t)->n; i++) {
                uint32_t c = SPV_VAL(b, SPV_OP_CompositeExtract, tid(e, es), prod, i);
                sum = i ? op2(e, SPV_OP_IAdd, tid(e, es), sum, c) : c;
            }
            return sum;
        }
        break;
    case BI_dot4U8Packed: case BI_dot4I8Packed: {
        int sgn = f == BI_dot4I8Packed;
        /* expanded: OpSDot/OpUDot (SPIR-V 1.6) would need shaderIntegerDotProduct enabled */
        ty_t st = sgn ? TY_I32 : TY_U32;
        ty_t v4 = ty_vec(e->tt, 4, st);
        uint32_t p = op2(e, SPV_OP_IMul, tid(e, v4), unpack4x8(e, a[0], sgn), unpack4x8(e, a[1], sgn));
        uint32_t sum = 0;
        for (uint32_t i = 0; i < 4; i++) {
            uint32_t c = SPV_VAL(b, SPV_OP_CompositeExtract, tid(e, st), p, i);
            sum = i ? op2(e, SPV_OP_IAdd, tid(e, st), sum, c) : c;
        }
        return sum;
    }
    case BI_countLeadingZeros: case BI_countTrailingZeros: {
        /* clz: x == 0 ? 32 : 31 - FindUMsb(x); ctz: min(FindILsb(x) as u32, 32) */
        ty_t ut = TI(a0t)->kind == TY_VEC ? ty_vec(e->tt, TI(a0t)->n, TY_U32) : TY_U32;
        uint32_t U = tid(e, ut);
        uint32_t xv = k == 1 ? op1(e, SPV_OP_Bitcast, U, a[0]) : a[0];
        uint32_t r;
        if (f == BI_countTrailingZeros) {
            uint32_t l = SPV_GLSL_CALL(b, U, SPV_GLSL_FindILsb, xv);
            r = SPV_GLSL_CALL(b, U, SPV_GLSL_UMin, l, const_scalar_like(e, ut, 0, 32));
        } else {
            uint32_t m = SPV_GLSL_CALL(b, U, SPV_GLSL_FindUMsb, xv);
            uint32_t d = op2(e, SPV_OP_ISub, U, const_scalar_like(e, ut, 0, 31), m);
            uint32_t z = op2(e, SPV_OP_IEqual, bool_like(e, ut), xv, const_scalar_like(e, ut, 0, 0));
            r = SPV_VAL(b, SPV_OP_Select, U, z, const_scalar_like(e, ut, 0, 32), d);
        }
        return k == 1 ? op1(e, SPV_OP_Bitcast, R, r) : r;
    }
    case BI_extractBits: case BI_insertBits: {
        /* o = min(offset, 32); c = min(count, 32 - o) */
        uint32_t oi = f == BI_extractBits ? 1 : 2;
        uint32_t o = SPV_GLSL_CALL(b, t_u32(e), SPV_GLSL_UMin, a[oi], c_u32(e, 32));
        uint32_t rest = op2(e, SPV_OP_ISub, t_u32(e), c_u32(e, 32), o);
        uint32_t c = SPV_GLSL_CALL(b, t_u32(e), SPV_GLSL_UMin, a[oi + 1], rest);
        if (f == BI_extractBits) return SPV_VAL(b, lw.num, R, a[0], o, c);
        return SPV_VAL(b, lw.num, R, a[0], a[1], o, c);
    }
    case BI_pack4xI8: case BI_pack4xU8: case BI_pack4xI8Clamp: case BI_pack4xU8Clamp:
        return pack4x8(e, a[0], f == BI_pack4xI8 || f == BI_pack4xI8Clamp, f == BI_pack4xI8Clamp || f == BI_pack4xU8Clamp);
    case BI_unpack4xI8: case BI_unpack4xU8:
        return unpack4x8(e, a[0], f == BI_unpack4xI8);
    case BI_dpdxFine: case BI_dpdyFine: case BI_fwidthFine: case BI_dpdxCoarse: case BI_dpdyCoarse: case BI_fwidthCoarse:
        spv_capability(b, SPV_CAP_DerivativeControl);
        break;
    default: break;
    }
    switch (lw.kind) {
    case BI_LK_GLSL: return spv_glsl_call(b, R, lw.num, na, a);
    case BI_LK_OP: return spv_val(b, lw.num, R, na, a);
    case BI_LK_ID: return a[0];
    default:
        diag_error(e->cc, n->sp, "internal compiler error: no SPIR-V lowering for '%s'", bi->name);
        return spv_const_null(b, R);
    }
}

/* ---- statements ---- */

static void stmt(emitter *e, uint32_t h);

static void branch(emitter *e, uint32_t target) {
    if (e->b.block_open) SPV_OP(&e->b, SPV_OP_Branch, target);
}

/* Starts the block after a construct; when nothing branches there it holds only OpUnreachable
 * and the statements after it are skipped. */
static void merge_block(emitter *e, uint32_t label, bool reached) {
    spv_label(&e->b, label);
    if (!reached) {
        /* Inside a construct nested in a continuing block (a loop whose body always breaks,
         * `loop { if c { break; } else { break; } }`), OpUnreachable would be a way out of the
         * continue construct that misses its back-edge block, which must structurally
         * post-dominate it (SPIR-V 2.11 "Structured Control Flow").  There the dead block
         * branches to the innermost construct's merge instead: a break, which is where control
         * would go on, and leads on to the back edge. */
        uint32_t k = e->nloops;
        while (k && !e->loops[k - 1].in_continuing) k--;
        if (k && k < e->nloops) {
            loop_ctx *in = &e->loops[e->nloops - 1];
            in->nbreak++;
            SPV_OP(&e->b, SPV_OP_Branch, in->brk);
        } else {
            SPV_OP0(&e->b, SPV_OP_Unreachable);
        }
        e->dead = 1;
    }
}

static void block(emitter *e, uint32_t h) {
    if (!h) return;
    const ast_node *n = N(h);
    if (n->kind != AST_BLOCK) { stmt(e, h); return; }
    for (uint32_t i = 0; i < n->u.block.stmts.count; i++) {
        if (e->dead || !e->b.block_open) return;
        stmt(e, ast_item(e->m, n->u.block.stmts, i));
    }
}

static void var_stmt(emitter *e, uint32_t h) {
    const ast_node *n = N(h);
    const sema_decl *d = DC(h);
    uint32_t pt = ptr_to(e, SPV_SC_Function, d->type);
    uint32_t p = spv_fn_var(&e->b, pt, 0);
    spv_name(&e->b, p, cc_str(e->cc, n->u.var.name));
    e->id[h] = p;
    e->vty[h] = pt;
    e->vsc[h] = SPV_SC_Function;
    uint32_t v = n->u.var.init ? value(e, n->u.var.init) : zero_of(e, d->type);
    store(e, p, v);
}

static void if_stmt(emitter *e, uint32_t h) {
    const ast_node *n = N(h);
    spv_builder *b = &e->b;
    uint32_t c = value(e, n->u.if_.cond);
    uint32_t lt = spv_id(b), merge = spv_id(b), le = n->u.if_.else_ ? spv_id(b) : merge;
    SPV_OP(b, SPV_OP_SelectionMerge, merge, SPV_SELECTION_CONTROL_NONE);
    SPV_OP(b, SPV_OP_BranchConditional, c, lt, le);
    bool reached = !n->u.if_.else_;
    spv_label(b, lt);
    block(e, n->u.if_.then);
    e->dead = 0;
    if (b->block_open) { reached = true; branch(e, merge); }
    if (n->u.if_.else_) {
        spv_label(b, le);
        block(e, n->u.if_.else_);
        e->dead = 0;
        if (b->block_open) { reached = true; branch(e, merge); }
    }
    merge_block(e, merge, reached);
}

static void switch_stmt(emitter *e, uint32_t h) {
    const ast_node *n = N(h);
    spv_builder *b = &e->b;
    uint32_t sel = value(e, n->u.switch_.expr);
    uint32_t merge = spv_id(b);
    uint32_t nc = n->u.switch_.clauses.count;
    uint32_t nsel = 0;
    for (uint32_t i = 0; i < nc; i++) nsel += N(ast_item(e->m, n->u.switch_.clauses, i))->u.case_.selectors.count;
    uint32_t *labels = words(e, nc), *ops = words(e, 2 + 2 * nsel);
    uint32_t nops = 2, dflt = merge;
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t ch = ast_item(e->m, n->u.switch_.clauses, i);
        labels[i] = spv_id(b);
        const ast_node *cn = N(ch);
        for (uint32_t j = 0; j < cn->u.case_.selectors.count; j++) {
            uint32_t s = ast_item(e->m, cn->u.case_.selectors, j);
            if (N(s)->kind == AST_DEFAULT) { dflt = labels[i]; continue; }
            const sema_expr *sx = EX(s);
            if (sx->cval) {
                ops[nops++] = (uint32_t)sema_value(e->sm, sx->cval)->u.i;
                ops[nops++] = labels[i];
            }
        }
    }
    ops[0] = sel;
    ops[1] = dflt;
    SPV_OP(b, SPV_OP_SelectionMerge, merge, SPV_SELECTION_CONTROL_NONE);
    spv_op(b, SPV_OP_Switch, nops, ops);
    if (e->nloops == sizeof e->loops / sizeof e->loops[0]) {
        diag_error(e->cc, n->sp, "statements nested too deeply for the SPIR-V emitter");
        return;
    }
    loop_ctx *lc = &e->loops[e->nloops++];
    memset(lc, 0, sizeof *lc);
    lc->brk = merge;
    bool reached = dflt == merge;
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t ch = ast_item(e->m, n->u.switch_.clauses, i);
        spv_label(b, labels[i]);
        block(e, N(ch)->u.case_.body);
        e->dead = 0;
        if (b->block_open) { reached = true; branch(e, merge); }
    }
    if (e->loops[e->nloops - 1].nbreak) reached = true;
    e->nloops--;
    merge_block(e, merge, reached);
}

/* loop / for / while: header -> [cond] -> body -> continue -> header; merge after. */
static void loop_stmt(emitter *e, uint32_t h) {
    const ast_node *n = N(h);
    spv_builder *b = &e->b;
    uint32_t cond = 0, body = 0, cont_stmt = 0, update = 0;
    if (n->kind == AST_LOOP) { body = n->u.loop.body; cont_stmt = n->u.loop.continuing; }
    else if (n->kind == AST_FOR) {
        if (n->u.for_.init) stmt(e, n->u.for_.init);
        cond = n->u.for_.cond;
        body = n->u.for_.body;
        update = n->u.for_.update;
    } else { cond = n->u.while_.cond; body = n->u.while_.body; }
    uint32_t header = spv_id(b), lbody = spv_id(b), lcont = spv_id(b), merge = spv_id(b);
    branch(e, header);
    spv_label(b, header);
    SPV_OP(b, SPV_OP_LoopMerge, merge, lcont, SPV_LOOP_CONTROL_NONE);
    uint32_t nbreak0 = 0;
    if (cond) {
        uint32_t lcond = spv_id(b);
        SPV_OP(b, SPV_OP_Branch, lcond);
        spv_label(b, lcond);
        uint32_t c = value(e, cond);
        SPV_OP(b, SPV_OP_BranchConditional, c, lbody, merge);
        nbreak0 = 1;
    } else {
        SPV_OP(b, SPV_OP_Branch, lbody);
    }
    if (e->nloops == sizeof e->loops / sizeof e->loops[0]) {
        diag_error(e->cc, n->sp, "statements nested too deeply for the SPIR-V emitter");
        return;
    }
    loop_ctx *lc = &e->loops[e->nloops++];
    memset(lc, 0, sizeof *lc);
    lc->brk = merge;
    lc->cont = lcont;
    lc->header = header;
    lc->nbreak = nbreak0;
    spv_label(b, lbody);
    block(e, body);
    e->dead = 0;
    if (b->block_open) { lc = &e->loops[e->nloops - 1]; lc->ncont++; branch(e, lcont); }
    spv_label(b, lcont);
    lc = &e->loops[e->nloops - 1];
    if (!lc->ncont) {
        SPV_OP(b, SPV_OP_Branch, header); /* unreachable continue target: trivial */
    } else {
        lc->in_continuing = true;
        if (update) stmt(e, update);
        if (cont_stmt) block(e, cont_stmt);
        e->loops[e->nloops - 1].in_continuing = false;
        e->dead = 0;
        if (b->block_open) SPV_OP(b, SPV_OP_Branch, header);
    }
    lc = &e->loops[e->nloops - 1];
    bool reached = lc->nbreak != 0;
    e->nloops--;
    merge_block(e, merge, reached);
}

/* `v.zx = e` / `v.zx op= e` on a vector reference or pointer: one store per named component
 * (an OpAccessChain to each), so the other components are never rewritten. */
/* The vector reference / pointer under a chain of swizzles (`v.zyx.yx`), with the components of
 * v the chain names in comps; 0 when the lhs is not such a chain. */
static uint32_t swizzle_root(emitter *e, uint32_t lhs, uint8_t comps[4]) {
    const sema_expr *x = EX(lhs);
    if (N(lhs)->kind != AST_MEMBER || x->kind == SEMA_EK_REF || !x->swz_n) return 0;
    memcpy(comps, x->swz, 4);
    for (uint32_t b = N(lhs)->u.member.base;;) {
        const sema_expr *be = EX(b);
        if (be->kind == SEMA_EK_REF || TI(be->type)->kind == TY_PTR) return b;
        if (N(b)->kind != AST_MEMBER || !be->swz_n) return 0;
        for (uint32_t k = 0; k < x->swz_n; k++) comps[k] = be->swz[comps[k]];
        b = N(b)->u.member.base;
    }
}

static void swizzle_assign(emitter *e, uint32_t h) {
    const ast_node *n = N(h);
    uint32_t lhs = n->u.assign.lhs;
    uint8_t comps[4] = { 0 };
    uint32_t bh = swizzle_root(e, lhs, comps);
    const sema_expr *x = EX(lhs);
    pdec p;
    memset(&p, 0, sizeof p);
    if (EX(bh)->kind == SEMA_EK_REF) dec_ref(e, bh, &p);
    else dec_ptr(e, bh, &p);
    ty_t lt = x->type, st = ty_scalar_of(e->tt, lt);
    uint32_t r;
    if (n->op == AST_OP_NONE) {
        r = value(e, n->u.assign.rhs);
    } else {
        ty_t vty = TI(EX(bh)->type)->elem;
        uint32_t cur = load_sc(e, vty, pd_chain(e, &p, vty), p.sc);
        uint32_t part;
        if (x->swz_n == 1) part = SPV_VAL(&e->b, SPV_OP_CompositeExtract, tid(e, lt), cur, comps[0]);
        else {
            uint32_t ops[6] = { cur, cur, comps[0], comps[1], comps[2], comps[3] };
            part = spv_val(&e->b, SPV_OP_VectorShuffle, tid(e, lt), 2u + x->swz_n, ops);
        }
        uint32_t rv = value(e, n->u.assign.rhs);
        e->rhs_safe = const_rhs_safe(e, n->u.assign.rhs, (ast_op)n->op);
        r = binary_vals(e, (ast_op)n->op, lt, lt, part, vt(e, n->u.assign.rhs), rv);
    }
    for (uint32_t k = 0; k < x->swz_n; k++) {
        pdec q;
        pd_copy(e, &q, &p);
        pd_push(e, &q, c_u32(e, comps[k]), 0);
        uint32_t cp = pd_chain(e, &q, st);
        uint32_t cv = x->swz_n == 1 ? r : SPV_VAL(&e->b, SPV_OP_CompositeExtract, tid(e, st), r, k);
        store_sc(e, st, cp, cv, q.sc);
    }
}

/* `v.zyx[i] = e` / `v.zyx[i] op= e`: one component of a swizzle of a vector reference or pointer
 * (bh, with the swizzle's components of v in comps).  A runtime index is clamped to the swizzle
 * and mapped to v's component through a constant vector of the components. */
static void swizzle_elem_assign(emitter *e, uint32_t h, uint32_t bh, const uint8_t comps[4]) {
    const ast_node *n = N(h);
    uint32_t lhs = n->u.assign.lhs, sh = N(lhs)->u.index.base, ih = N(lhs)->u.index.index;
    uint32_t nc = EX(sh)->swz_n;
    pdec p;
    memset(&p, 0, sizeof p);
    if (EX(bh)->kind == SEMA_EK_REF) dec_ref(e, bh, &p);
    else dec_ptr(e, bh, &p);
    const cv_value *iv = EX(ih)->cval ? sema_value(e->sm, EX(ih)->cval) : NULL;
    if (iv) {
        pd_push(e, &p, c_u32(e, comps[iv->u.i >= 0 && iv->u.i < nc ? iv->u.i : 0]), 0);
    } else {
        uint32_t i = value(e, ih);
        if (vt(e, ih) == TY_I32) i = op1(e, SPV_OP_Bitcast, t_u32(e), i);
        i = SPV_GLSL_CALL(&e->b, t_u32(e), SPV_GLSL_UMin, i, c_u32(e, nc - 1));
        bool identity = true;
        for (uint32_t k = 0; k < nc; k++) identity &= comps[k] == k;
        if (!identity) {
            cv_value el[4], cv;
            for (uint32_t k = 0; k < nc; k++) el[k] = cv_int(TY_U32, comps[k]);
            cv.type = ty_vec(e->tt, nc, TY_U32);
            cv.n = nc;
            cv.u.elems = el;
            i = op2(e, SPV_OP_VectorExtractDynamic, t_u32(e), const_of(e, &cv), i);
        }
        pd_push(e, &p, i, 1);
    }
    ty_t st = EX(lhs)->type;
    uint32_t cp = pd_chain(e, &p, st), r;
    if (n->op == AST_OP_NONE) {
        r = value(e, n->u.assign.rhs);
    } else {
        uint32_t cur = load_sc(e, st, cp, p.sc);
        uint32_t rv = value(e, n->u.assign.rhs);
        e->rhs_safe = const_rhs_safe(e, n->u.assign.rhs, (ast_op)n->op);
        r = binary_vals(e, (ast_op)n->op, st, st, cur, vt(e, n->u.assign.rhs), rv);
    }
    store_sc(e, st, cp, r, p.sc);
}

static void assign_stmt(emitter *e, uint32_t h) {
    const ast_node *n = N(h);
    uint32_t lhs = n->u.assign.lhs;
    if (n->kind == AST_ASSIGN && !lhs) { /* phony: evaluate for side effects */
        value(e, n->u.assign.rhs);
        return;
    }
    uint8_t comps[4];
    if (n->kind == AST_ASSIGN && swizzle_root(e, lhs, comps)) {
        swizzle_assign(e, h);
        return;
    }
    if (n->kind == AST_ASSIGN && N(lhs)->kind == AST_INDEX && EX(lhs)->kind != SEMA_EK_REF) {
        uint32_t bh = swizzle_root(e, N(lhs)->u.index.base, comps);
        if (bh) {
            swizzle_elem_assign(e, h, bh, comps);
            return;
        }
    }
    ty_t lt = ty_unref(e->tt, EX(lhs)->type);
    uint32_t sc;
    uint32_t p = ref_in(e, lhs, &sc);
    if (n->kind == AST_ASSIGN && n->op == AST_OP_NONE) {
        store_sc(e, lt, p, value(e, n->u.assign.rhs), sc);
        return;
    }
    uint32_t cur = load_sc(e, lt, p, sc);
    uint32_t r;
    ty_t rt;
    ast_op op;
    if (n->kind == AST_ASSIGN) {
        r = value(e, n->u.assign.rhs);
        rt = vt(e, n->u.assign.rhs);
        op = (ast_op)n->op;
        e->rhs_safe = const_rhs_safe(e, n->u.assign.rhs, op);
    } else {
        r = const_scalar_like(e, lt, 1, 1);
        rt = lt;
        op = n->kind == AST_INCR ? AST_OP_ADD : AST_OP_SUB;
    }
    store_sc(e, lt, p, binary_vals(e, op, lt, lt, cur, rt, r), sc);
}

static void stmt(emitter *e, uint32_t h) {
    if (!h) return;
    const ast_node *n = N(h);
    spv_builder *b = &e->b;
    switch ((ast_kind)n->kind) {
    case AST_BLOCK: block(e, h); break;
    case AST_VAR: var_stmt(e, h); break;
    case AST_LET:
        if (TI(DC(h)->type)->kind == TY_PTR) { /* keep the pointer taken apart for calls */
            pdec *p = arena_alloc(&e->cc->arena, sizeof *p);
            dec_ptr(e, n->u.var.init, p);
            e->id[h] = pd_chain(e, p, TI(DC(h)->type)->elem);
            if (p->root) e->pd[h] = p;
        } else {
            e->id[h] = value(e, n->u.var.init);
        }
        break;
    case AST_CONST: case AST_CONST_ASSERT: break;
    case AST_RETURN:
        if (n->u.ret.value) {
            uint32_t v = value(e, n->u.ret.value);
            SPV_OP(b, SPV_OP_ReturnValue, v);
        } else {
            SPV_OP0(b, SPV_OP_Return);
        }
        break;
    case AST_IF: if_stmt(e, h); break;
    case AST_SWITCH: switch_stmt(e, h); break;
    case AST_LOOP: case AST_FOR: case AST_WHILE: loop_stmt(e, h); break;
    case AST_BREAK:
        if (e->nloops) { e->loops[e->nloops - 1].nbreak++; SPV_OP(b, SPV_OP_Branch, e->loops[e->nloops - 1].brk); }
        break;
    case AST_BREAK_IF: {
        uint32_t c = value(e, n->u.ret.value);
        /* innermost loop (continuing blocks are never inside a switch) */
        uint32_t i = e->nloops;
        while (i && !e->loops[i - 1].cont) i--;
        if (i) {
            e->loops[i - 1].nbreak++;
            SPV_OP(b, SPV_OP_BranchConditional, c, e->loops[i - 1].brk, e->loops[i - 1].header);
        }
        break;
    }
    case AST_CONTINUE: {
        uint32_t i = e->nloops;
        while (i && !e->loops[i - 1].cont) i--;
        if (i) { e->loops[i - 1].ncont++; SPV_OP(b, SPV_OP_Branch, e->loops[i - 1].cont); }
        break;
    }
    case AST_CALL_STMT: value(e, n->u.call_stmt.call); break;
    case AST_ASSIGN: case AST_INCR: case AST_DECR: assign_stmt(e, h); break;
    case AST_DISCARD: SPV_OP0(b, SPV_OP_Kill); break;
    default: break;
    }
}

/* ---- module level ---- */

static uint32_t builtin_var(emitter *e, sema_builtin bv) {
    if (e->bv_var[bv]) return e->bv_var[bv];
    static const uint32_t spv_bv[SEMA_BV_COUNT] = {
        [SEMA_BV_local_invocation_id] = SPV_BUILTIN_LocalInvocationId,
        [SEMA_BV_local_invocation_index] = SPV_BUILTIN_LocalInvocationIndex,
        [SEMA_BV_global_invocation_id] = SPV_BUILTIN_GlobalInvocationId,
        [SEMA_BV_workgroup_id] = SPV_BUILTIN_WorkgroupId,
        [SEMA_BV_num_workgroups] = SPV_BUILTIN_NumWorkgroups,
        [SEMA_BV_subgroup_invocation_id] = SPV_BUILTIN_SubgroupLocalInvocationId,
        [SEMA_BV_subgroup_size] = SPV_BUILTIN_SubgroupSize,
        [SEMA_BV_subgroup_id] = SPV_BUILTIN_SubgroupId,
        [SEMA_BV_num_subgroups] = SPV_BUILTIN_NumSubgroups,
    };
    bool sg = bv == SEMA_BV_subgroup_invocation_id || bv == SEMA_BV_subgroup_size || bv == SEMA_BV_subgroup_id ||
              bv == SEMA_BV_num_subgroups;
    ty_t t = (bv == SEMA_BV_local_invocation_index || sg) ? TY_U32 : ty_vec(e->tt, 3, TY_U32);
    uint32_t v = spv_global_var(&e->b, ptr_to(e, SPV_SC_Input, t), SPV_SC_Input, 0);
    SPV_DECORATE(&e->b, v, SPV_DEC_BuiltIn, spv_bv[bv]);
    if (sg)
        spv_capability(&e->b, SPV_CAP_GroupNonUniform);
    spv_name(&e->b, v, sema_builtin_name(bv));
    e->bv_var[bv] = v;
    e->bv_ty[bv] = t;
    return v;
}

static void add_iface(emitter *e, uint32_t id) {
    for (uint32_t i = 0; i < e->niface; i++) if (e->iface[i] == id) return;
    if (e->niface == e->capiface) {
        uint32_t cap = e->capiface ? e->capiface * 2 : 32, *n = words(e, cap);
        if (e->niface) memcpy(n, e->iface, e->niface * sizeof *n);
        e->iface = n;
        e->capiface = cap;
    }
    e->iface[e->niface++] = id;
}

/* Loads a builtin input (once per entry point, in its first block). */
static uint32_t load_builtin(emitter *e, sema_builtin bv) {
    if (e->bv_val[bv]) return e->bv_val[bv];
    uint32_t v = builtin_var(e, bv);
    add_iface(e, v);
    return e->bv_val[bv] = load(e, e->bv_ty[bv], v);
}

/* The builtin value of a parameter or member: sema's, else read from its @builtin attribute. */
static sema_builtin decl_builtin(emitter *e, uint32_t h) {
    if (DC(h)->builtin) return (sema_builtin)DC(h)->builtin;
    uint32_t a = ast_find_attr(e->m, N(h)->attrs, AST_ATTR_builtin);
    if (!a || !N(a)->u.attr.args.count) return SEMA_BV_NONE;
    const ast_node *arg = N(ast_item(e->m, N(a)->u.attr.args, 0));
    if (arg->kind != AST_IDENT) return SEMA_BV_NONE;
    const char *name = cc_str(e->cc, arg->u.ident.name);
    for (int b = 1; b < SEMA_BV_COUNT; b++)
        if (!strcmp(name, sema_builtin_name((sema_builtin)b))) return (sema_builtin)b;
    return SEMA_BV_NONE;
}

/* The STRUCT declaration node of a struct type. */
static uint32_t struct_decl_of(emitter *e, ty_t t) {
    for (uint32_t i = 0; i < e->m->decls.count; i++) {
        uint32_t d = ast_item(e->m, e->m->decls, i);
        if (N(d)->kind == AST_STRUCT && DC(d)->type == t) return d;
    }
    return 0;
}

static void global_var(emitter *e, uint32_t h) {
    const ast_node *n = N(h);
    const sema_decl *d = DC(h);
    spv_builder *b = &e->b;
    const char *name = cc_str(e->cc, n->u.var.name);
    ty_t t = d->type;
    const ty_info *ti = TI(t);
    if (d->as == TY_AS_UNIFORM && needs_std140(e, t)) {
        if (ti->flags & TY_F_HAS_F16) {
            spv_capability(b, SPV_CAP_StorageBuffer16BitAccess);
            spv_capability(b, SPV_CAP_UniformAndStorageBuffer16BitAccess);
        }
        uint32_t u = std140_var(e, t, name);
        SPV_DECORATE(b, u, SPV_DEC_DescriptorSet, d->group);
        SPV_DECORATE(b, u, SPV_DEC_Binding, d->binding);
        spv_name(b, u, name);
        uint32_t sh = spv_global_var(b, ptr_to(e, SPV_SC_Private, t), SPV_SC_Private, 0);
        char buf[256];
        snprintf(buf, sizeof buf, "%s_shadow", name);
        spv_name(b, sh, buf);
        e->ubo[h] = u;
        e->id[h] = sh;
        e->vty[h] = ptr_to(e, SPV_SC_Private, t);
        e->vsc[h] = SPV_SC_Private;
        return;
    }
    if (d->as == TY_AS_UNIFORM || d->as == TY_AS_STORAGE) {
        uint32_t sc = sc_of((ty_as)d->as);
        uint32_t st;
        bool self_block = ti->kind == TY_STRUCT && ti->nmembers && (ti->flags & TY_F_HAS_RUNTIME);
        if (self_block) {
            st = tidl(e, t);
            if (spv_once(b, 10, st)) SPV_DECORATE0(b, st, SPV_DEC_Block);
        } else {
            uint32_t inner = tidl(e, t);
            st = spv_type_struct(b, 1, &inner);
            char buf[256];
            snprintf(buf, sizeof buf, "%s_block", name);
            spv_name(b, st, buf);
            spv_member_name(b, st, 0, "inner");
            SPV_DECORATE0(b, st, SPV_DEC_Block);
            uint32_t zero = 0;
            spv_member_decorate(b, st, 0, SPV_DEC_Offset, 1, &zero);
            member_layout(e, st, 0, t);
            e->wrapped[h] = 1;
        }
        if (ti->flags & TY_F_HAS_F16) {
            spv_capability(b, SPV_CAP_StorageBuffer16BitAccess);
            if (d->as == TY_AS_UNIFORM) spv_capability(b, SPV_CAP_UniformAndStorageBuffer16BitAccess);
        }
        uint32_t v = spv_global_var(b, spv_type_pointer(b, sc, st), sc, 0);
        e->vty[h] = spv_type_pointer(b, sc, st);
        e->vsc[h] = sc;
        if (d->as == TY_AS_STORAGE && d->access == TY_ACCESS_READ) SPV_DECORATE0(b, v, SPV_DEC_NonWritable);
        SPV_DECORATE(b, v, SPV_DEC_DescriptorSet, d->group);
        SPV_DECORATE(b, v, SPV_DEC_Binding, d->binding);
        spv_name(b, v, name);
        e->id[h] = v;
        return;
    }
    uint32_t init = 0;
    if (ti->kind == TY_ARRAY && ti->array_kind == TY_ARRAY_OVERRIDE && !*tid_slot(e, t)) {
        /* override-sized by an expression: take the count from the declaration's type */
        uint32_t te = n->u.var.type;
        while (te && N(te)->kind == AST_IDENT && !N(te)->u.ident.templ.count && EX(te)->decl &&
               N(EX(te)->decl)->kind == AST_ALIAS)
            te = N(EX(te)->decl)->u.alias.type;
        uint32_t len = 0;
        if (te && N(te)->kind == AST_IDENT && N(te)->u.ident.templ.count == 2) {
            cv_value cv;
            if (!ov_eval(e, ast_item(e->m, N(te)->u.ident.templ, 1), &cv)) len = cv.u.i > 0 ? (uint32_t)cv.u.i : 1;
        }
        if (!len) {
            diag_error(e->cc, n->sp, "the size of '%s' depends on an override without a value", name);
            len = 1;
        }
        uint32_t arr = spv_type_array(b, tid(e, ti->elem), c_u32(e, len), 0);
        *tid_slot(e, t) = arr;
        if (e->novarr < 64) {
            e->ovarr_t[e->novarr] = t;
            e->ovarr_n[e->novarr++] = len;
        }
    }
    uint32_t sc = sc_of((ty_as)d->as);
    if (d->as == TY_AS_PRIVATE) {
        cv_value cv;
        if (n->u.var.init && !ov_eval(e, n->u.var.init, &cv)) init = const_of(e, &cv);
        else init = spv_const_null(b, tid(e, t));
    }
    uint32_t v = spv_global_var(b, ptr_to(e, sc, t), sc, init);
    spv_name(b, v, name);
    e->id[h] = v;
    e->vty[h] = ptr_to(e, sc, t);
    e->vsc[h] = sc;
}

/* The workgroup size of an entry point, with override values; ok = all known. */
static void wg_size(emitter *e, const sema_fn *f, uint32_t out[3], int *ok) {
    *ok = 1;
    for (int i = 0; i < 3; i++) {
        out[i] = f->wg_size[i] ? f->wg_size[i] : 1;
        if (!f->wg_size[i] && f->wg_expr[i]) {
            cv_value v;
            if (!ov_eval(e, f->wg_expr[i], &v) && v.u.i > 0) out[i] = (uint32_t)v.u.i;
            else *ok = 0;
        }
    }
}

/* Zeroes the entry point's workgroup variables: invocation i stores zero to elements
 * i, i + S, ... (S = invocations per workgroup) of arrays, invocation 0 does the rest. */
static void zero_workgroup(emitter *e, const sema_fn *f, uint32_t wg_total) {
    spv_builder *b = &e->b;
    uint32_t idx = 0;
    int any = 0;
    for (uint32_t i = 0; i < f->nglobals; i++) {
        uint32_t g = f->globals[i];
        if (N(g)->kind != AST_VAR || DC(g)->as != TY_AS_WORKGROUP) continue;
        any = 1;
        if (!idx) idx = load_builtin(e, SEMA_BV_local_invocation_index);
        ty_t t = DC(g)->type;
        const ty_info *ti = TI(t);
        uint32_t var = e->id[g];
        if (ti->kind == TY_ARRAY) {
            /* for (j = idx; j < len; j += wg_total) var[j] = 0 */
            uint32_t len;
            if (ti->array_kind == TY_ARRAY_FIXED) len = c_u32(e, ti->count);
            else len = 0;
            if (!len) len = c_u32(e, ovarr_count(e, t));
            uint32_t pj = spv_fn_var(b, ptr_to(e, SPV_SC_Function, TY_U32), 0);
            store(e, pj, idx);
            uint32_t header = spv_id(b), lb = spv_id(b), lc = spv_id(b), merge = spv_id(b), lcond = spv_id(b);
            SPV_OP(b, SPV_OP_Branch, header);
            spv_label(b, header);
            SPV_OP(b, SPV_OP_LoopMerge, merge, lc, SPV_LOOP_CONTROL_NONE);
            SPV_OP(b, SPV_OP_Branch, lcond);
            spv_label(b, lcond);
            uint32_t j = load(e, TY_U32, pj);
            uint32_t c = op2(e, SPV_OP_ULessThan, t_bool(e), j, len);
            SPV_OP(b, SPV_OP_BranchConditional, c, lb, merge);
            spv_label(b, lb);
            uint32_t p = SPV_VAL(b, SPV_OP_AccessChain, ptr_to(e, SPV_SC_Workgroup, ti->elem), var, j);
            store(e, p, spv_const_null(b, tid(e, ti->elem)));
            SPV_OP(b, SPV_OP_Branch, lc);
            spv_label(b, lc);
            uint32_t nj = op2(e, SPV_OP_IAdd, t_u32(e), j, c_u32(e, wg_total));
            store(e, pj, nj);
            SPV_OP(b, SPV_OP_Branch, header);
            spv_label(b, merge);
        } else {
            uint32_t lz = spv_id(b), merge = spv_id(b);
            uint32_t c = op2(e, SPV_OP_IEqual, t_bool(e), idx, c_u32(e, 0));
            SPV_OP(b, SPV_OP_SelectionMerge, merge, SPV_SELECTION_CONTROL_NONE);
            SPV_OP(b, SPV_OP_BranchConditional, c, lz, merge);
            spv_label(b, lz);
            store(e, var, spv_const_null(b, tid(e, t)));
            SPV_OP(b, SPV_OP_Branch, merge);
            spv_label(b, merge);
        }
    }
    if (any) barrier(e, SPV_SEM_WORKGROUP_MEMORY);
}

/* A workgroup size depending on overrides that have no value: when the module has one entry
 * point and each such dimension is a u32/i32 override, a WorkgroupSize spec-constant composite
 * lets a Vulkan specialisation supply it (the SpecIds are the overrides' ids). */
static void spec_workgroup_size(emitter *e, const sema_fn *f, const uint32_t wg[3]) {
    uint32_t nep = 0;
    for (uint32_t i = 0; i < e->sm->nfns; i++) nep += e->sm->fns[i].stage == WGSL_STAGE_COMPUTE;
    if (nep != 1) return;
    uint32_t parts[3];
    for (int i = 0; i < 3; i++) {
        parts[i] = c_u32(e, wg[i]);
        uint32_t x = f->wg_expr[i];
        if (f->wg_size[i] || !x) continue;
        cv_value v;
        if (!ov_eval(e, x, &v)) continue;
        uint32_t d = EX(x)->decl;
        if (N(x)->kind != AST_IDENT || !d || N(d)->kind != AST_OVERRIDE || DC(d)->type != TY_U32) return;
        parts[i] = override_id(e, d);
    }
    uint32_t id = spv_id(&e->b);
    SPV_SEC(&e->b, SPV_SEC_GLOBAL, SPV_OP_SpecConstantComposite, spv_type_vector(&e->b, t_u32(e), 3), id,
            parts[0], parts[1], parts[2]);
    SPV_DECORATE(&e->b, id, SPV_DEC_BuiltIn, SPV_BUILTIN_WorkgroupSize);
}

/* Emits function f, or its specialisation c (see user_call). */
static void function(emitter *e, const sema_fn *f, const fn_clone *c) {
    spv_builder *b = &e->b;
    const ast_node *n = N(f->node);
    bool entry = f->stage == WGSL_STAGE_COMPUTE;
    uint32_t np = n->u.fn.params.count, nt = 0;
    uint32_t ndyn = 0;
    for (uint32_t i = 0; c && i < np; i++) ndyn += c->shape[i].n;
    uint32_t *ptys = words(e, 2 * np + ndyn);
    ty_t ret = f->ret ? f->ret : TY_VOID;
    if (!entry) {
        for (uint32_t i = 0; i < np; i++) {
            ty_t pt = DC(ast_item(e->m, n->u.fn.params, i))->type;
            const pshape *sh = c ? &c->shape[i] : NULL;
            if (sh && sh->root_type) {
                if (!sh->root_var) ptys[nt++] = sh->root_type;
                for (uint32_t k = 0; k < sh->n; k++)
                    if (!sh->ids[k]) ptys[nt++] = t_u32(e);
            } else {
                ptys[nt++] = tid(e, pt);
            }
        }
        for (uint32_t i = 0; i < np; i++)
            if (needs_len_param(e, DC(ast_item(e->m, n->u.fn.params, i))->type)) ptys[nt++] = t_u32(e);
    }
    uint32_t rty = tid(e, entry ? TY_VOID : ret);
    uint32_t fty = spv_type_function(b, rty, nt, ptys);
    uint32_t fid = c ? c->id : e->id[f->node];
    const char *name = cc_str(e->cc, n->u.fn.name);
    char cname[300];
    if (c) {
        snprintf(cname, sizeof cname, "%s_%u", name, c->serial);
        spv_name(b, fid, cname);
    } else {
        spv_name(b, fid, name);
    }
    spv_fn_begin(b, fid, rty, fty);
    pdec *rooted = arena_alloc(&e->cc->arena, (np ? np : 1) * sizeof(pdec));
    if (!entry) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < np; i++) {
            uint32_t p = ast_item(e->m, n->u.fn.params, i);
            const pshape *sh = c ? &c->shape[i] : NULL;
            e->pd[p] = NULL;
            uint32_t id = sh && sh->root_var ? sh->root_var : spv_fn_param(b, ptys[k++]);
            if (!(sh && sh->root_var)) spv_name(b, id, cc_str(e->cc, N(p)->u.param.name));
            e->id[p] = id;
            if (sh && sh->root_type) {
                pdec *pd = &rooted[i];
                pd->root = id;
                pd->root_type = sh->root_type;
                pd->sc = sh->sc;
                pd->global = sh->root_var != 0;
                for (uint32_t j = 0; j < sh->n; j++) {
                    if (sh->ids[j]) pd_push(e, pd, sh->ids[j], 0);
                    else pd_push(e, pd, spv_fn_param(b, ptys[k++]), 1);
                }
                e->pd[p] = pd;
            }
        }
        for (uint32_t i = 0; i < np; i++) {
            uint32_t p = ast_item(e->m, n->u.fn.params, i);
            if (!needs_len_param(e, DC(p)->type)) continue;
            e->plen[p] = spv_fn_param(b, t_u32(e));
            char buf[256];
            snprintf(buf, sizeof buf, "%s_length", cc_str(e->cc, N(p)->u.param.name));
            spv_name(b, e->plen[p], buf);
        }
    }
    spv_fn_entry(b, spv_id(b));
    for (uint32_t i = 0; !entry && i < np; i++) { /* rooted parameters: the pointer they stand for */
        uint32_t p = ast_item(e->m, n->u.fn.params, i);
        if (e->pd[p]) e->id[p] = pd_chain(e, e->pd[p], TI(DC(p)->type)->elem);
    }
    e->fn = f;
    e->nloops = 0;
    e->dead = 0;
    e->niface = 0;
    memset(e->bv_val, 0, sizeof e->bv_val);
    uint32_t wg[3] = { 1, 1, 1 };
    int wg_known = 1;
    if (entry) {
        wg_size(e, f, wg, &wg_known);
        for (uint32_t i = 0; i < np; i++) {
            uint32_t p = ast_item(e->m, n->u.fn.params, i);
            const sema_decl *pd = DC(p);
            if (decl_builtin(e, p)) {
                e->id[p] = load_builtin(e, decl_builtin(e, p));
            } else if (TI(pd->type)->kind == TY_STRUCT) {
                uint32_t sd = struct_decl_of(e, pd->type);
                const ty_info *si = TI(pd->type);
                uint32_t nm = si->nmembers, *parts = words(e, nm);
                for (uint32_t k = 0; k < nm; k++) {
                    uint32_t md = sd ? ast_item(e->m, N(sd)->u.struct_.members, k) : 0;
                    sema_builtin bv = md ? decl_builtin(e, md) : SEMA_BV_NONE;
                    parts[k] = bv ? load_builtin(e, bv) : spv_const_null(b, tid(e, si->members[k].type));
                }
                e->id[p] = spv_val(b, SPV_OP_CompositeConstruct, tid(e, pd->type), nm, parts);
            }
        }
        for (uint32_t i = 0; i < f->nglobals; i++) {
            uint32_t g = f->globals[i];
            if (!e->ubo[g]) continue;
            uint32_t k = 0;
            store(e, e->id[g], uload(e, e->ubo[g], DC(g)->type, &k));
        }
        /* with a size left to specialisation, every invocation zeroes from its index on */
        zero_workgroup(e, f, wg_known ? wg[0] * wg[1] * wg[2] : 1);
    }
    block(e, n->u.fn.body);
    if (b->block_open) {
        if (ret == TY_VOID || entry) SPV_OP0(b, SPV_OP_Return);
        else SPV_OP0(b, SPV_OP_Unreachable);
    }
    spv_fn_end(b);
    if (entry) {
        if (b->version >= SPV_VERSION_1_6)
            for (uint32_t i = 0; i < f->nglobals; i++) {
                uint32_t g = f->globals[i];
                if (N(g)->kind == AST_VAR && e->id[g]) add_iface(e, e->id[g]);
                if (N(g)->kind == AST_VAR && e->ubo[g]) add_iface(e, e->ubo[g]);
            }
        spv_entry_point(b, SPV_EXEC_MODEL_GLCOMPUTE, fid, name, e->niface, e->iface);
        SPV_SEC(b, SPV_SEC_EXECUTION_MODE, SPV_OP_ExecutionMode, fid, SPV_EXEC_MODE_LOCAL_SIZE, wg[0], wg[1], wg[2]);
        if (!wg_known) spec_workgroup_size(e, f, wg);
    }
}

int wgsl_emit(wgsl_cc *cc) {
    sema_module *sm = cc->sema;
    if (!sm) return 1;
    emitter em;
    emitter *e = &em;
    memset(e, 0, sizeof *e);
    e->cc = cc;
    e->sm = sm;
    e->m = &cc->ast;
    e->tt = &sm->tt;
    e->bounds = !cc->opt.no_bounds_checks;
    uint32_t version = cc->opt.target_env == WGSL_TARGET_VULKAN_1_3 ? SPV_VERSION_1_6 : SPV_VERSION_1_3;
    if (sm->enable_subgroup_matrix || sm->enable_workgroup_matrix)
        version = SPV_VERSION_1_6;   /* SPV_KHR_cooperative_matrix needs SPIR-V 1.6 */
    spv_init(&e->b, arena_realloc, &cc->arena, version);
    e->fork = version >= 0x00010500u;
    e->id = arena_alloc(&cc->arena, sm->node_count * sizeof *e->id);
    e->wrapped = arena_alloc(&cc->arena, sm->node_count);
    e->plen = arena_alloc(&cc->arena, sm->node_count * sizeof *e->plen);
    e->pd = arena_alloc(&cc->arena, sm->node_count * sizeof *e->pd);
    e->vty = arena_alloc(&cc->arena, sm->node_count * sizeof *e->vty);
    e->vsc = arena_alloc(&cc->arena, sm->node_count * sizeof *e->vsc);
    e->ovst = arena_alloc(&cc->arena, sm->node_count);
    e->ubo = arena_alloc(&cc->arena, sm->node_count * sizeof *e->ubo);
    e->ovval = arena_alloc(&cc->arena, (sm->noverrides + 1) * sizeof *e->ovval);
    spv_builder *b = &e->b;
    spv_capability(b, SPV_CAP_Shader);
    spv_memory_model(b, SPV_ADDRESSING_LOGICAL, SPV_MEMORY_MODEL_GLSL450);
    for (uint32_t i = 0; i < sm->nfns; i++) {
        if (!sm->fns[i].subgroup_size_attr) continue;
        const ast_node *a = N(sm->fns[i].subgroup_size_attr);
        diag_error(cc, span_make(a->sp.off + 1, a->sp.len ? a->sp.len - 1 : 0), "'@subgroup_size' cannot be compiled "
                   "to SPIR-V by wgc yet: Vulkan takes a required subgroup size at pipeline creation "
                   "(VkPipelineShaderStageRequiredSubgroupSizeCreateInfo), which the wg runtime does not set");
    }
    if (cc->error_count) return 1;
    /* overrides first: values (or spec constants) */
    for (uint32_t i = 0; i < sm->noverrides; i++) override_id(e, sm->overrides[i]);
    /* module-scope variables in dependency order */
    for (uint32_t i = 0; i < sm->ndecl_order; i++) {
        uint32_t h = sm->decl_order[i];
        if (N(h)->kind == AST_VAR) global_var(e, h);
    }
    for (uint32_t i = 0; i < sm->nfns; i++) e->id[sm->fns[i].node] = spv_id(b);
    for (uint32_t i = 0; i < sm->nfns; i++) {
        /* a function taking a storage/uniform pointer is only ever called specialised */
        const ast_node *fn = N(sm->fns[i].node);
        bool buffer_ptr = false;
        for (uint32_t k = 0; k < fn->u.fn.params.count; k++) {
            const ty_info *pi = TI(DC(ast_item(e->m, fn->u.fn.params, k))->type);
            buffer_ptr |= pi->kind == TY_PTR && (pi->as == TY_AS_STORAGE || pi->as == TY_AS_UNIFORM);
        }
        if (!buffer_ptr) function(e, &sm->fns[i], NULL);
    }
    for (fn_clone *c = e->clones; c; c = c->next) function(e, sema_fn_of(sm, c->fn_node), c);
    if (cc->error_count) return 1;
    uint32_t (*wg)[3] = arena_alloc(&cc->arena, (sm->nfns + 1) * sizeof *wg);
    uint64_t *wg_bytes = arena_alloc(&cc->arena, (sm->nfns + 1) * sizeof *wg_bytes);
    for (uint32_t i = 0; i < sm->nfns; i++) {
        const sema_fn *f = &sm->fns[i];
        int ok;
        wg_size(e, f, wg[i], &ok);
        for (int k = 0; k < 3 && f->stage; k++) {   /* a dimension from overrides must be at least 1 */
            cv_value v;
            if (f->wg_size[k] || !f->wg_expr[k] || ov_eval(e, f->wg_expr[k], &v) || v.u.i > 0) continue;
            diag_error(cc, N(f->wg_expr[k])->sp, "'@workgroup_size' argument must be at least 1, is %lld with "
                       "the override values", (long long)v.u.i);
            cc->override_error = true;
        }
        for (uint32_t k = 0; k < f->nglobals; k++) {
            uint32_t g = f->globals[k];
            if (N(g)->kind != AST_VAR || DC(g)->as != TY_AS_WORKGROUP) continue;
            ty_t t = DC(g)->type;
            const ty_info *ti = TI(t);
            uint64_t size = ti->kind == TY_ARRAY && ti->array_kind == TY_ARRAY_OVERRIDE
                          ? (uint64_t)ovarr_count(e, t) * ti->stride : ty_size_of(e->tt, t);
            wg_bytes[i] += ty_round_up(16, size);
        }
    }
    if (cc->error_count) return 1;
    spv_reflect(cc, (const uint32_t (*)[3])wg, wg_bytes);
    uint32_t *words;
    size_t nwords;
    if (spv_finish(b, &words, &nwords)) {
        diag_error(cc, span_make(0, 0), "out of memory");
        return 1;
    }
    if (cc->res) {
        uint32_t *w = arena_alloc(cc->res_arena, nwords * 4);
        memcpy(w, words, nwords * 4);
        cc->res->spirv = w;
        cc->res->spirv_word_count = nwords;
    }
    return 0;
}
