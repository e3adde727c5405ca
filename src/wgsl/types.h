/* types.h - interned WGSL types: bool, the abstract numerics, i32 u32 f32 f16, vectors, matrices,
 * arrays (fixed, override-sized, runtime-sized), structs, atomics, pointers and references.
 *
 * A type is a ty_t handle into the compile's ty_table; equal types have equal handles, because every
 * constructor (ty_vec, ty_array, ty_ptr, ...) looks its structure up in a hash table before adding a
 * row.  Structs are nominal: ty_struct_new always makes a fresh type.  The scalar handles are fixed:
 * the handle of a scalar equals its kind (TY_BOOL, TY_I32, ...), so `t == TY_F32` is a valid test.
 * Handle 0 means "no type" (an error was already reported).  Rows live in memory taken from the
 * allocation hook given to ty_table_init (the compile arena); nothing is freed individually.
 *
 * Layout follows WGSL's "Memory Layout" section: one AlignOf/SizeOf per type for every address space
 * (WGSL does not change layout per address space); the uniform address space only adds constraints,
 * which ty_layout_check reports in Tint's wording.  Sizes are 64-bit so that oversized arrays and
 * structs can be diagnosed instead of wrapping.
 *
 * Names for messages are spelled as Tint prints them: "vec3<f32>", "mat2x3<f16>", "array<u32, 4>",
 * "array<f32>", "ptr<storage, f32, read_write>", "atomic<u32>", "abstract-int". */
#ifndef WGSL_TYPES_H
#define WGSL_TYPES_H
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef uint32_t ty_t;                   /* type handle; 0 = none */

/* Kinds.  For the scalar kinds (TY_VOID..TY_F16) the handle equals the kind. */
#define TY_KINDS(X) \
    X(NONE)   X(VOID)  X(BOOL) X(AINT) X(AFLOAT) X(I32) X(U32) X(F32) X(F16) \
    X(VEC)    X(MAT)   X(ARRAY) X(STRUCT) X(ATOMIC) X(PTR) X(REF) X(SGMAT)
typedef enum ty_kind {
#define X(k) TY_##k,
    TY_KINDS(X)
#undef X
    TY_KIND_COUNT
} ty_kind;

typedef enum ty_as {                     /* address spaces */
    TY_AS_NONE = 0, TY_AS_FUNCTION, TY_AS_PRIVATE, TY_AS_WORKGROUP, TY_AS_UNIFORM, TY_AS_STORAGE,
    TY_AS_HANDLE, TY_AS_COUNT
} ty_as;

typedef enum ty_access {                 /* access modes */
    TY_ACCESS_NONE = 0, TY_ACCESS_READ, TY_ACCESS_WRITE, TY_ACCESS_READ_WRITE, TY_ACCESS_COUNT
} ty_access;

typedef enum ty_array_kind {
    TY_ARRAY_FIXED = 0,                  /* array<E, N> with a const N */
    TY_ARRAY_OVERRIDE,                   /* array<E, N> with N an override-expression */
    TY_ARRAY_RUNTIME                     /* array<E> */
} ty_array_kind;

/* Special structs the built-ins return; interned per element type. */
typedef enum ty_builtin_struct {
    TY_BS_NONE = 0, TY_BS_FREXP, TY_BS_MODF, TY_BS_ATOMIC_CMPXCHG, TY_BS_COUNT
} ty_builtin_struct;

/* Cached predicates (ty_info.flags), computed when the type is made. */
enum {
    TY_F_SCALAR        = 1u << 0,        /* bool or numeric scalar (abstract included) */
    TY_F_NUMERIC       = 1u << 1,        /* numeric scalar */
    TY_F_ABSTRACT      = 1u << 2,        /* contains abstract-int / abstract-float */
    TY_F_CONSTRUCTIBLE = 1u << 3,        /* spec "constructible" */
    TY_F_HOST_SHAREABLE= 1u << 4,
    TY_F_FIXED_FOOTPRINT = 1u << 5,      /* size known at pipeline creation */
    TY_F_CREATION_FIXED = 1u << 6,       /* size known at shader creation (no override-sized array) */
    TY_F_STORABLE      = 1u << 7,        /* spec "storable" */
    TY_F_HAS_ATOMIC    = 1u << 8,
    TY_F_HAS_RUNTIME   = 1u << 9,        /* is or ends in a runtime-sized array */
    TY_F_HAS_F16       = 1u << 10,
    TY_F_HAS_BOOL      = 1u << 11,
    TY_F_PLAIN         = 1u << 12        /* spec "plain type" */
};

typedef struct ty_member {
    uint32_t name;                       /* interned identifier id (caller's numbering), 0 if none */
    const char *name_str;                /* member name, copied into the arena */
    ty_t type;
    uint32_t align_attr;                 /* @align(n), 0 = none */
    uint32_t size_attr;                  /* @size(n), 0 = none */
    uint32_t offset;                     /* computed: byte offset */
    uint32_t align;                      /* computed: AlignOfMember */
    uint64_t size;                       /* computed: SizeOfMember */
} ty_member;

typedef struct ty_info {
    uint8_t kind;                        /* ty_kind */
    uint16_t n;                          /* vec: width 2..4; mat: columns 2..4; sgmat: columns */
    uint16_t rows;                       /* mat: rows 2..4; sgmat: rows */
    uint8_t as;                          /* ptr/ref: ty_as; sgmat: ty_sgm_scope */
    uint8_t access;                      /* ptr/ref: ty_access; sgmat: ty_sgm_use */
    uint8_t array_kind;                  /* array: ty_array_kind */
    uint8_t builtin_struct;              /* struct: ty_builtin_struct, 0 for user structs */
    ty_t elem;                           /* vec/mat: component; array: element; atomic: T; ptr/ref: store type */
    uint32_t count;                      /* fixed array: N; override array: the caller's key */
    uint32_t align;                      /* AlignOf (1 for types without a layout) */
    uint64_t size;                       /* SizeOf (runtime array: one element stride) */
    uint32_t stride;                     /* array: element stride */
    uint32_t flags;                      /* TY_F_* */
    uint32_t nmembers;                   /* struct */
    ty_member *members;                  /* struct */
    const char *name;                    /* struct name / override count name; NULL otherwise */
    uint32_t name_id;                    /* struct: interned name id (caller's numbering) */
    const char *cached_name;             /* lazily built by ty_name */
} ty_info;

/* Allocation hook: returns `size` zeroed bytes aligned for any type, or NULL when out of memory.
 * Memory is never freed individually (it belongs to the compile arena). */
typedef void *(*ty_alloc_fn)(void *ud, size_t size);

typedef struct ty_table {
    ty_alloc_fn alloc;
    void *ud;
    ty_info *rows;                       /* rows[handle] */
    uint32_t nrows, caprows;
    uint32_t *hash;                      /* open addressing: handles, 0 = empty */
    uint32_t hashcap;                    /* power of two */
    bool oom;                            /* an allocation failed; constructors then return 0 */
    void *bi_cache;                      /* builtins.c: parsed overload signatures (lazily) */
} ty_table;

/* Returns 0 on success, -1 when out of memory. */
int ty_table_init(ty_table *tt, ty_alloc_fn alloc, void *ud);
/* The same, taking memory from the compile arena (arena.h; OOM longjmps as arena_alloc does). */
struct arena;
int ty_table_init_arena(ty_table *tt, struct arena *a);

static inline const ty_info *ty_get(const ty_table *tt, ty_t t) { return &tt->rows[t < tt->nrows ? t : 0]; }
static inline ty_kind ty_kind_of(const ty_table *tt, ty_t t) { return (ty_kind)ty_get(tt, t)->kind; }
static inline bool ty_has(const ty_table *tt, ty_t t, uint32_t f) { return (ty_get(tt, t)->flags & f) != 0; }

/* Constructors; each returns 0 if its operands are invalid (a 0 operand, a bad width) or on OOM. */
ty_t ty_vec(ty_table *tt, uint32_t n, ty_t elem);                     /* elem: a scalar */
ty_t ty_mat(ty_table *tt, uint32_t cols, uint32_t rows, ty_t elem);   /* elem: abstract-float, f32, f16 */
ty_t ty_array(ty_table *tt, ty_t elem, uint32_t count);               /* count >= 1 */
ty_t ty_array_runtime(ty_table *tt, ty_t elem);
/* Override-sized array: `key` identifies the count expression (same key = same type: e.g. the
 * override's declaration handle; a unique number for a non-identifier expression); `name` is what
 * messages print for the count ("N", or NULL for "[unnamed override-expression]"). */
ty_t ty_array_override(ty_table *tt, ty_t elem, uint32_t key, const char *name);
ty_t ty_atomic(ty_table *tt, ty_t t);                                 /* t: i32 or u32 */
/* Subgroup matrices (enable chromium_experimental_subgroup_matrix): subgroup_matrix_left<T, K, M>
 * (M rows, K columns), subgroup_matrix_right<T, N, K> (K rows, N columns), subgroup_matrix_result<T,
 * N, M> (M rows, N columns).  n = columns, rows = rows, access = the use, elem = T (f16 f32 i32 u32).
 * Constructible and storable (function/private variables), not host-shareable.  0 for a bad T or a
 * size outside 1..255. */
typedef enum ty_sgm_use { TY_SGM_NONE = 0, TY_SGM_LEFT, TY_SGM_RIGHT, TY_SGM_RESULT, TY_SGM_COUNT } ty_sgm_use;
ty_t ty_sgmat(ty_table *tt, ty_sgm_use use, ty_t elem, uint32_t cols, uint32_t rows);
/* Workgroup matrices (enable wgc_workgroup_matrix, wgc's own extension, lowered to
 * VK_NV_cooperative_matrix2's workgroup-scope cooperative matrices): workgroup_matrix_left<T, K, M>,
 * _right<T, N, K>, _result<T, N, M>, the same kinds as subgroup matrices with scope
 * TY_SGM_WORKGROUP in `as` and sizes 1..1024.  ty_coopmat makes either. */
typedef enum ty_sgm_scope { TY_SGM_SUBGROUP = 0, TY_SGM_WORKGROUP = 1 } ty_sgm_scope;
ty_t ty_coopmat(ty_table *tt, ty_sgm_scope scope, ty_sgm_use use, ty_t elem, uint32_t cols, uint32_t rows);
ty_t ty_ptr(ty_table *tt, ty_as as, ty_t store, ty_access am);
ty_t ty_ref(ty_table *tt, ty_as as, ty_t store, ty_access am);
/* A new (nominal) struct; members are copied and laid out.  Validity of @align/@size values is the
 * caller's check (ty_member_attr_check helps). */
ty_t ty_struct_new(ty_table *tt, const char *name, uint32_t name_id, const ty_member *members, uint32_t n);
/* __frexp_result_f32, __modf_result_vec3_f16, __atomic_compare_exchange_result_u32, ... interned by T
 * (T: the fract/old_value type; abstract-float allowed for frexp/modf). */
ty_t ty_builtin_struct_of(ty_table *tt, ty_builtin_struct which, ty_t t);

/* The predeclared aliases: "vec3f", "vec4i", "vec2u", "vec3h", "mat4x4f", "mat2x3h"; 0 if `name`
 * (len bytes) is not one of them. */
ty_t ty_predeclared_alias(ty_table *tt, const char *name, size_t len);
/* "bool", "i32", "u32", "f32", "f16" -> the scalar; 0 otherwise. */
ty_t ty_scalar_by_name(const char *name, size_t len);
ty_as ty_as_by_name(const char *name, size_t len);
ty_access ty_access_by_name(const char *name, size_t len);
const char *ty_as_name(ty_as as);
const char *ty_access_name(ty_access am);
/* Default access mode of an address space (storage: read, others read_write). */
ty_access ty_as_default_access(ty_as as);

/* The type's name as Tint prints it; stored in the arena ("<oom>" on failure). */
const char *ty_name(ty_table *tt, ty_t t);

/* Predicates. */
bool ty_is_scalar(const ty_table *tt, ty_t t);           /* bool, numeric scalars */
bool ty_is_numeric_scalar(const ty_table *tt, ty_t t);   /* ai af i32 u32 f32 f16 */
bool ty_is_integer_scalar(const ty_table *tt, ty_t t);   /* ai i32 u32 */
bool ty_is_float_scalar(const ty_table *tt, ty_t t);     /* af f32 f16 */
bool ty_is_signed_scalar(const ty_table *tt, ty_t t);    /* ai i32 af f32 f16 */
bool ty_is_abstract(const ty_table *tt, ty_t t);         /* contains an abstract type */
bool ty_is_concrete_scalar(const ty_table *tt, ty_t t);  /* bool i32 u32 f32 f16 */
bool ty_is_vec(const ty_table *tt, ty_t t);
bool ty_is_mat(const ty_table *tt, ty_t t);
bool ty_is_numeric_vec(const ty_table *tt, ty_t t);
bool ty_is_constructible(const ty_table *tt, ty_t t);
bool ty_is_host_shareable(const ty_table *tt, ty_t t);
bool ty_is_storable(const ty_table *tt, ty_t t);
bool ty_is_plain(const ty_table *tt, ty_t t);
bool ty_is_fixed_footprint(const ty_table *tt, ty_t t);
bool ty_is_creation_fixed_footprint(const ty_table *tt, ty_t t);
bool ty_is_ptr(const ty_table *tt, ty_t t);
bool ty_is_ref(const ty_table *tt, ty_t t);

/* Structure access helpers. */
ty_t ty_scalar_of(const ty_table *tt, ty_t t);  /* scalar -> itself, vec/mat -> component, else 0 */
ty_t ty_elem(const ty_table *tt, ty_t t);       /* vec/mat/array/atomic/ptr/ref inner type */
ty_t ty_unref(const ty_table *tt, ty_t t);      /* ref<AS,T,AM> -> T (load rule); others unchanged */
uint32_t ty_width(const ty_table *tt, ty_t t);  /* vec N, mat columns, 1 for scalars */
/* The type of `t` with the scalar component replaced by `s` (vec3<ai> + f32 -> vec3<f32>). */
ty_t ty_with_scalar(ty_table *tt, ty_t t, ty_t s);
/* Column type of a matrix (vecR<T>). */
ty_t ty_mat_column(ty_table *tt, ty_t m);

/* Conversion rank (spec "Conversion Rank"); TY_RANK_INF when there is no automatic conversion. */
#define TY_RANK_INF 0x7fffffff
int ty_conversion_rank(const ty_table *tt, ty_t from, ty_t to);
/* ConcretizationOf(t): abstract-int -> i32, abstract-float -> f32, recursively. */
ty_t ty_concretize(ty_table *tt, ty_t t);

/* Layout. */
static inline uint64_t ty_round_up(uint64_t k, uint64_t n) { return k ? (n + k - 1) / k * k : n; }
uint32_t ty_align_of(const ty_table *tt, ty_t t);
uint64_t ty_size_of(const ty_table *tt, ty_t t);
uint32_t ty_stride_of(const ty_table *tt, ty_t t);      /* arrays only, else 0 */
/* RequiredAlignOf(t, as): uniform rounds structs and arrays up to 16. */
uint32_t ty_required_align(const ty_table *tt, ty_t t, ty_as as);

/* Checks the memory-layout constraints of `t` used in address space `as`: the 4 GiB size limit, and
 * for uniform the legacy 16-byte array-stride and struct-offset rules (WGSL before the
 * uniform_buffer_standard_layout language feature; the Tint we compare with has that feature, so the
 * checker applies only ty_size_limit_check).  Returns 0 when fine, else 1 with a Tint-worded message;
 * struct_out and member_out (if given) receive the struct and member index that is wrong. */
int ty_layout_check(ty_table *tt, ty_t t, ty_as as, char *msg, size_t msgsize,
                    ty_t *struct_out, uint32_t *member_out);

/* Checks an @align / @size attribute value for a member of type `t` (power of two, a multiple of
 * AlignOf(t), @size only on creation-fixed types and not below SizeOf(t)): 0, or 1 with Tint's message. */
int ty_member_attr_check(ty_table *tt, ty_t t, uint32_t align_attr, uint32_t size_attr,
                         char *msg, size_t msgsize);

/* The 2^32 byte limit on array and struct sizes, checked where the type is declared (Tint:
 * "array byte size (0x100000000) must not exceed 0xffffffff bytes", "struct size (...) ...").
 * ty_layout_check also applies it.  0, or 1 with the message. */
int ty_size_limit_check(const ty_table *tt, ty_t t, char *msg, size_t msgsize);

/* The innermost type that makes `t` not host-shareable (bool, an abstract type, ...), for
 * "type 'bool' cannot be used in address space 'storage' as it is non-host-shareable"; 0 if t is
 * host-shareable. */
ty_t ty_first_non_host_shareable(const ty_table *tt, ty_t t);

/* Member lookup by interned name id or string; returns the index or -1. */
int ty_member_index(const ty_table *tt, ty_t s, uint32_t name_id);
int ty_member_index_str(const ty_table *tt, ty_t s, const char *name, size_t len);

#endif
