/* wgsl.h - wgc's WGSL compiler: WGSL source text in, checked module out as SPIR-V words,
 * reflection and diagnostics.  Pure C, no global state, thread-safe per call.
 *
 * Worked example: compile a kernel, print its diagnostics, use the SPIR-V.
 *
 *     #include <wgc/wgsl.h>
 *
 *     const char *src =
 *         "@group(0) @binding(0) var<storage, read_write> data: array<f32>;\n"
 *         "@compute @workgroup_size(64)\n"
 *         "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
 *         "    data[id.x] = data[id.x] * 2.0;\n"
 *         "}\n";
 *     wgsl_result *r = wgsl_compile(src, strlen(src), &(wgsl_options){ .filename = "double.wgsl" });
 *     if (!r) return -1;                              // only when even the result could not be allocated
 *     fputs(wgsl_result_text(r), stderr);             // "double.wgsl:4:5: error: ..." + source line + caret
 *     if (r->ok) {
 *         // r->spirv / r->spirv_word_count: the module; r->entry_points[0].workgroup_size = {64,1,1};
 *         // r->bindings[0] = {.group=0,.binding=0,.kind=WGSL_BINDING_STORAGE_READ_WRITE,.array_stride=4}
 *     }
 *     wgsl_result_free(r);                            // frees everything the result points to
 *
 * Options are a desc struct where zero means default (bounds checks on, target Vulkan 1.1).  The result
 * owns all its memory; everything it points to lives until wgsl_result_free().  Diagnostics carry a
 * 1-based line and column (the column counts Unicode code points, not bytes or UTF-16 units) and the
 * byte offset/length of the span; notes follow the diagnostic they belong to. */
#ifndef WGC_WGSL_H
#define WGC_WGSL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Allocator hook: every byte the compiler allocates goes through it.  Both NULL = malloc/free.
 * alloc returning NULL makes the compile end with an "out of memory" error (never a crash). */
typedef struct wgsl_allocator {
    void *(*alloc)(void *user, size_t size);  /* NULL = malloc */
    void (*free)(void *user, void *ptr);      /* NULL = free; ptr may be NULL */
    void *user;                               /* passed through */
} wgsl_allocator;

typedef enum wgsl_target_env {
    WGSL_TARGET_DEFAULT = 0,     /* = WGSL_TARGET_VULKAN_1_1 */
    WGSL_TARGET_VULKAN_1_1,      /* SPIR-V 1.3 */
    WGSL_TARGET_VULKAN_1_3,      /* SPIR-V 1.6 */
    WGSL_TARGET_COUNT
} wgsl_target_env;

/* A pipeline-creation override value, keyed as WebGPU's GPUProgrammableStage.constants: an
 * override declared with @id(n) by that id (name == NULL, id = n), any other by its name.  The
 * value is converted as WebGPU converts a GPUPipelineConstantValue (WebIDL): it must be finite;
 * i32 / u32 take its integer part (toward zero), which must fit the type; f32 / f16 round to
 * nearest even and must not overflow; bool is value != 0.  A key naming no override, or a value
 * that does not convert, is a compile error (wgsl_result.override_error), never a silent wrap. */
typedef struct wgsl_override_value {
    const char *name;            /* override's name, or NULL to select by id */
    uint32_t id;                 /* used when name == NULL */
    double value;                /* converted to the override's type, as above */
} wgsl_override_value;

/* The largest max_nesting honoured: a larger value is read as this one.  Each level of the
 * parser's recursion takes about 100 bytes of stack (-O2), so 1024 levels fit a 256 KB thread
 * stack with room to spare; without the cap a 4000-deep input overflows one. */
#define WGSL_MAX_NESTING 1024

/* Memory an invocation holds, checked at compile time (WGSL's "Limits": the minimum every
 * implementation must support, so any portable shader fits): the private variables an entry point
 * uses (directly or through its callees) and, per function, its `var` declarations and its `let`
 * declarations of array or structure type (a let array indexed at runtime becomes a Function
 * variable in SPIR-V).
 * Beyond them the module is invalid ("... more than the limit of 8192 bytes").  Dawn accepts more
 * (64 KiB per variable, later 10 MiB), but Vulkan drivers may take very long to build the pipeline:
 * lavapipe's pipeline creation grows quadratically with a runtime-indexed array (doc/wgsl.md). */
#define WGSL_MAX_PRIVATE_BYTES 8192
#define WGSL_MAX_FUNCTION_BYTES 8192

typedef struct wgsl_options {
    const char *label;                       /* for debugging; unused by the compiler */
    const char *filename;                    /* shown in messages; NULL = "input.wgsl" */
    wgsl_allocator allocator;                /* zero = malloc/free */
    wgsl_target_env target_env;              /* zero = Vulkan 1.1 */
    bool no_bounds_checks;                   /* zero = every index clamped (the safe default) */
    bool check_only;                         /* parse + check, no SPIR-V, no reflection */
    bool parse_only;                         /* stop after parsing (syntax check only; fuzzing, tools) */
    const wgsl_override_value *overrides;    /* values for `override` declarations */
    uint32_t override_count;
    uint32_t max_errors;                     /* stop recording after this many errors; 0 = 64 */
    uint32_t max_nesting;                    /* parser nesting limit (brackets, blocks, unary ops); 0 = 128, Tint's;
                                                capped at WGSL_MAX_NESTING */
    bool no_f16;                             /* reject `enable f16;` (adapter lacks shader-f16) */
    bool no_subgroups;                       /* reject `enable subgroups;` */
    bool no_subgroup_matrix;                 /* reject `enable chromium_experimental_subgroup_matrix;`
                                                (adapter lacks VK_KHR_cooperative_matrix) */
    bool no_workgroup_matrix;                /* reject `enable wgc_workgroup_matrix;` (adapter lacks
                                                VK_NV_cooperative_matrix2's workgroup scope) */
} wgsl_options;

typedef enum wgsl_severity {
    WGSL_SEVERITY_UNDEFINED = 0,
    WGSL_SEVERITY_ERROR,
    WGSL_SEVERITY_WARNING,
    WGSL_SEVERITY_INFO,
    WGSL_SEVERITY_NOTE,          /* attached to the preceding error/warning/info */
    WGSL_SEVERITY_COUNT
} wgsl_severity;

typedef struct wgsl_diagnostic {
    wgsl_severity severity;
    uint32_t line, col;          /* 1-based; col counts code points; 0,0 when there is no location */
    uint32_t offset, length;     /* byte span in the source */
    const char *message;         /* without the "error: " prefix */
} wgsl_diagnostic;

typedef enum wgsl_stage {
    WGSL_STAGE_UNDEFINED = 0,
    WGSL_STAGE_COMPUTE,
    WGSL_STAGE_VERTEX,
    WGSL_STAGE_FRAGMENT,
    WGSL_STAGE_COUNT
} wgsl_stage;

typedef struct wgsl_entry_point {
    const char *name;
    wgsl_stage stage;
    uint32_t workgroup_size[3];          /* with override values applied; 1 for omitted dimensions */
    int32_t workgroup_size_override[3];  /* index into wgsl_result.overrides of the override a dimension
                                            depends on, or -1 when it is a constant */
    uint32_t workgroup_memory_bytes;     /* var<workgroup> bytes the entry point uses */
} wgsl_entry_point;

typedef enum wgsl_binding_kind {
    WGSL_BINDING_UNDEFINED = 0,
    WGSL_BINDING_STORAGE_READ,
    WGSL_BINDING_STORAGE_READ_WRITE,
    WGSL_BINDING_UNIFORM,
    WGSL_BINDING_COUNT
} wgsl_binding_kind;

typedef struct wgsl_binding {
    const char *name;            /* the variable's name */
    uint32_t group, binding;
    wgsl_binding_kind kind;
    uint64_t min_size;           /* bytes; with a runtime-sized array: the size with zero elements */
    uint32_t array_stride;       /* stride of the trailing runtime-sized array, 0 when there is none */
    uint64_t entry_point_mask;   /* bit i: used by entry_points[i] (first 64 entry points) */
} wgsl_binding;

typedef enum wgsl_scalar {
    WGSL_SCALAR_UNDEFINED = 0,
    WGSL_SCALAR_BOOL,
    WGSL_SCALAR_I32,
    WGSL_SCALAR_U32,
    WGSL_SCALAR_F32,
    WGSL_SCALAR_F16,
    WGSL_SCALAR_COUNT
} wgsl_scalar;

typedef struct wgsl_override {
    const char *name;
    uint32_t id;                 /* @id(n), or the id assigned by the compiler */
    bool has_explicit_id;
    wgsl_scalar type;
    bool has_default;
    double default_value;        /* when has_default and the default is a constant expression */
} wgsl_override;

typedef struct wgsl_result {
    bool ok;                                 /* no errors */
    const wgsl_diagnostic *diagnostics;      /* in source order of reporting, notes after their parent */
    uint32_t diagnostic_count;
    uint32_t error_count, warning_count;     /* error_count may exceed the recorded ones (max_errors) */
    const uint32_t *spirv;                   /* NULL when !ok or check_only */
    size_t spirv_word_count;
    const wgsl_entry_point *entry_points;
    uint32_t entry_point_count;
    const wgsl_binding *bindings;            /* sorted by (group, binding) */
    uint32_t binding_count;
    const wgsl_override *overrides;
    uint32_t override_count;
    bool override_error;                     /* the errors are about options.overrides (a key that names no
                                                override, a value its type cannot hold, a workgroup size
                                                below 1 with the values): the source itself is valid */
} wgsl_result;

/* Compiles `length` bytes of WGSL (need not be NUL-terminated; a NUL byte is an error).
 * opt may be NULL (all defaults).  Returns NULL only when the result itself cannot be allocated. */
wgsl_result *wgsl_compile(const char *source, size_t length, const wgsl_options *opt);

/* Frees the result and everything it points to.  NULL is fine. */
void wgsl_result_free(wgsl_result *r);

/* All diagnostics rendered as text: "file:line:col: error: message\n" + source line + caret line,
 * notes as "file:line:col: note: ...".  "" when there are none; NULL only when out of memory.
 * The string is owned by the result. */
const char *wgsl_result_text(wgsl_result *r);

/* All diagnostics as one JSON document:
 * {"file":"..","ok":true|false,"diagnostics":[{"severity":"error","line":1,"col":2,"offset":1,
 *  "length":3,"message":".."},...]}.  Owned by the result; NULL only when out of memory. */
const char *wgsl_result_json(wgsl_result *r);

/* "error", "warning", "info", "note" ("" for others). */
const char *wgsl_severity_name(wgsl_severity s);

#ifdef __cplusplus
}
#endif
#endif
