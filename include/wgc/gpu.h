/* gpu.h - wg, wgc's WebGPU-shaped compute runtime on Vulkan, in plain C.
 *
 * The object model is webgpu.h's: an instance finds adapters (physical GPUs), an adapter makes a
 * device, the device makes buffers, shader modules, layouts, pipelines, bind groups and command
 * encoders; command buffers go to the device's one queue.  Handles are opaque and refcounted
 * (`_retain` / `_release`); descriptors are structs where zero means "default" and every one has
 * a `label` that error messages quote.  Vulkan is loaded with dlopen at run time, so a program
 * linked with libwgc starts (and reports a clear error) on a machine without Vulkan.
 *
 * Errors are values.  Creation of an instance, adapter or device returns NULL and fills a
 * wg_error.  Everything made from a device reports misuse through the device: the innermost
 * error scope whose filter matches catches it, else the uncaptured-error callback gets it.  The
 * offending call does nothing else; an object whose creation failed validation is an *invalid*
 * object, and objects made from invalid objects are invalid too.  Each error has a numbered id
 * from one table (WG_ERRORS below).  See doc/gpu.md for ownership and threading rules.
 *
 * Worked example (vector add; error handling shortened):
 *
 *     wg_error err;
 *     wg_instance *inst = wg_instance_create(NULL, &err);          // NULL desc = defaults
 *     if (!inst) { fprintf(stderr, "%s\n", err.message); return 1; }
 *     wg_adapter *ad = wg_instance_request_adapter(inst, NULL, &err);
 *     wg_device *dev = wg_adapter_create_device(ad, NULL, &err);
 *     wg_queue *q = wg_device_get_queue(dev);
 *     wg_buffer *a = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "a", .size = n * 4 });
 *     ... b, out likewise ...
 *     wg_queue_write_buffer(q, a, 0, host_a, n * 4);
 *     wg_shader_module *sm = wg_device_create_shader_module(dev,
 *         &(wg_shader_module_desc){ .spirv = words, .spirv_words = nwords });
 *     wg_compute_pipeline *p = wg_device_create_compute_pipeline(dev,
 *         &(wg_compute_pipeline_desc){ .module = sm });              // layout from the shader
 *     wg_bind_group *bg = wg_device_create_bind_group(dev, &(wg_bind_group_desc){
 *         .layout = wg_compute_pipeline_get_bind_group_layout(p, 0), .entry_count = 3,
 *         .entries = (wg_bind_group_entry[]){ {0, a}, {1, b}, {2, out} } });
 *     wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
 *     wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
 *     wg_compute_pass_set_pipeline(pass, p);
 *     wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
 *     wg_compute_pass_dispatch_workgroups(pass, (n + 63) / 64, 1, 1);
 *     wg_compute_pass_end(pass);
 *     wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
 *     wg_queue_submit(q, 1, &cb);
 *     wg_buffer_read(out, 0, host_out, n * 4);                       // blocking readback
 *     ... release everything, device, then instance ...
 */
#ifndef WGC_GPU_H
#define WGC_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- handles ---------------------------------------------------------------------------- */
typedef struct wg_instance wg_instance;
typedef struct wg_adapter wg_adapter;
typedef struct wg_device wg_device;
typedef struct wg_queue wg_queue;
typedef struct wg_buffer wg_buffer;
typedef struct wg_shader_module wg_shader_module;
typedef struct wg_bind_group_layout wg_bind_group_layout;
typedef struct wg_pipeline_layout wg_pipeline_layout;
typedef struct wg_compute_pipeline wg_compute_pipeline;
typedef struct wg_bind_group wg_bind_group;
typedef struct wg_command_encoder wg_command_encoder;
typedef struct wg_compute_pass wg_compute_pass;
typedef struct wg_command_buffer wg_command_buffer;
typedef struct wg_query_set wg_query_set;

/* ---- allocator hook ---------------------------------------------------------------------- */
/* Every host allocation of the library goes through this (Vulkan's own driver allocations do
 * not).  Any function may be NULL, then libc's is used.  alloc may return NULL: the library
 * turns that into an out-of-memory error and leaks nothing. */
typedef struct wg_allocator {
    void *(*alloc)(void *user, size_t size);
    void *(*realloc)(void *user, void *ptr, size_t size);
    void (*free)(void *user, void *ptr);
    void *user;
} wg_allocator;

/* ---- errors ------------------------------------------------------------------------------ */
#define WG_ERROR_TYPES(X)              \
    X(NONE, "none")                    \
    X(VALIDATION, "validation")        \
    X(OUT_OF_MEMORY, "out-of-memory")  \
    X(INTERNAL, "internal")            \
    X(DEVICE_LOST, "device-lost")

typedef enum wg_error_type {
#define X(name, str) WG_ERROR_TYPE_##name,
    WG_ERROR_TYPES(X)
#undef X
    WG_ERROR_TYPE_COUNT
} wg_error_type;

/* The error table: X(NAME, TYPE, summary).  The id is the row's position (WG_ERR_NONE = 0);
 * messages read "<summary>: <detail naming the object's label>".  Append rows at the end so
 * ids stay stable. */
#define WG_ERRORS(X) \
    X(NONE, NONE, "no error") \
    /* instance, loader, adapters */ \
    X(NO_LOADER, INTERNAL, "Vulkan loader not found (install it: apt-get install libvulkan1 mesa-vulkan-drivers)") \
    X(LOADER_SYMBOL, INTERNAL, "Vulkan loader lacks an entry point") \
    X(NO_DRIVER, INTERNAL, "no Vulkan driver found (install one: apt-get install libvulkan1 mesa-vulkan-drivers)") \
    X(INSTANCE_CREATE, INTERNAL, "vkCreateInstance failed") \
    X(NO_ADAPTER, INTERNAL, "no Vulkan adapter matches") \
    X(ADAPTER_TOO_OLD, INTERNAL, "adapter does not support Vulkan 1.2 with timeline semaphores") \
    X(FEATURE_UNSUPPORTED, VALIDATION, "requested feature not supported by the adapter") \
    X(LIMIT_EXCEEDS_ADAPTER, VALIDATION, "requested limit is better than the adapter's") \
    X(DEVICE_CREATE, INTERNAL, "vkCreateDevice failed") \
    X(HOST_OOM, OUT_OF_MEMORY, "host allocation failed") \
    X(NULL_OBJECT, VALIDATION, "NULL object passed") \
    X(INVALID_OBJECT, VALIDATION, "object is invalid") \
    X(WRONG_DEVICE, VALIDATION, "object belongs to another device") \
    X(DEVICE_LOST, DEVICE_LOST, "device is lost") \
    X(SCOPE_EMPTY, VALIDATION, "pop_error_scope with no scope pushed") \
    X(SCOPE_OVERFLOW, VALIDATION, "too many error scopes pushed") \
    X(BAD_ENUM, VALIDATION, "enum value out of range") \
    /* buffers */ \
    X(MAPPED_SIZE_ALIGN, VALIDATION, "mapped_at_creation needs a size multiple of 4") \
    X(BUFFER_TOO_LARGE, VALIDATION, "buffer size exceeds maxBufferSize") \
    X(BUFFER_USAGE_INVALID, VALIDATION, "invalid buffer usage flags") \
    X(BUFFER_MAP_USAGE_MIX, VALIDATION, "MAP_READ may only be combined with COPY_DST, MAP_WRITE only with COPY_SRC") \
    X(DEVICE_OOM, OUT_OF_MEMORY, "GPU memory exhausted") \
    X(BUFFER_DESTROYED, VALIDATION, "buffer is destroyed") \
    X(BUFFER_USAGE_MISSING, VALIDATION, "buffer lacks a required usage") \
    X(UNALIGNED_OFFSET, VALIDATION, "offset is not aligned") \
    X(UNALIGNED_SIZE, VALIDATION, "size is not aligned") \
    X(RANGE_OUT_OF_BOUNDS, VALIDATION, "range exceeds the buffer") \
    X(BUFFER_MAPPED, VALIDATION, "buffer is mapped or has a map pending") \
    X(BUFFER_NOT_MAPPED, VALIDATION, "buffer is not mapped") \
    X(MAP_MODE_INVALID, VALIDATION, "map mode does not match the buffer's usage") \
    X(MAPPED_RANGE_INVALID, VALIDATION, "requested range is outside the mapped range") \
    X(COPY_SAME_BUFFER, VALIDATION, "copy source and destination are the same buffer") \
    X(WRITE_NULL_DATA, VALIDATION, "data pointer is NULL") \
    /* shaders, layouts, pipelines */ \
    X(SPIRV_EMPTY, VALIDATION, "shader module has no code") \
    X(SPIRV_MAGIC, VALIDATION, "SPIR-V magic number is wrong") \
    X(SPIRV_MALFORMED, VALIDATION, "SPIR-V is malformed") \
    X(SPIRV_NO_COMPUTE_ENTRY, VALIDATION, "SPIR-V has no GLCompute entry point") \
    X(SHADER_CREATE, INTERNAL, "vkCreateShaderModule failed") \
    X(WGSL_UNAVAILABLE, VALIDATION, "WGSL compiler not available in this build") \
    X(WGSL_COMPILE, VALIDATION, "WGSL compilation failed") \
    X(LAYOUT_DUPLICATE_BINDING, VALIDATION, "bind group layout has a binding twice") \
    X(LAYOUT_TOO_MANY_BINDINGS, VALIDATION, "too many bindings for the limits") \
    X(LAYOUT_BINDING_TYPE, VALIDATION, "invalid binding type") \
    X(TOO_MANY_BIND_GROUPS, VALIDATION, "more bind group layouts than maxBindGroups") \
    X(ENTRY_POINT_NOT_FOUND, VALIDATION, "entry point not found in the shader") \
    X(ENTRY_POINT_AMBIGUOUS, VALIDATION, "shader has several entry points; name one") \
    X(LAYOUT_MISMATCH, VALIDATION, "pipeline layout does not match the shader's bindings") \
    X(WORKGROUP_SIZE_LIMIT, VALIDATION, "workgroup size exceeds the limits") \
    X(PIPELINE_CREATE, INTERNAL, "vkCreateComputePipelines failed") \
    X(BIND_GROUP_INDEX, VALIDATION, "bind group index out of range") \
    /* bind groups */ \
    X(BIND_ENTRY_COUNT, VALIDATION, "bind group entries do not match the layout") \
    X(BIND_ENTRY_MISSING, VALIDATION, "layout binding has no entry") \
    X(BIND_ENTRY_EXTRA, VALIDATION, "entry binding is not in the layout") \
    X(BIND_ENTRY_DUPLICATE, VALIDATION, "entry binding given twice") \
    X(BIND_SIZE_ZERO, VALIDATION, "binding size is zero") \
    X(BIND_SIZE_LIMIT, VALIDATION, "binding size exceeds the binding-size limit") \
    X(BIND_SIZE_MIN, VALIDATION, "binding size below the layout's min_binding_size") \
    X(BIND_SIZE_ALIGN, VALIDATION, "storage binding size is not a multiple of 4") \
    /* encoding */ \
    X(ENCODER_LOCKED, VALIDATION, "encoder is locked by an open compute pass") \
    X(ENCODER_FINISHED, VALIDATION, "encoder is already finished") \
    X(ENCODER_INVALID, VALIDATION, "encoder had an earlier error") \
    X(PASS_ENDED, VALIDATION, "compute pass already ended") \
    X(PASS_OPEN_AT_FINISH, VALIDATION, "finish called with a compute pass open") \
    X(NO_PIPELINE, VALIDATION, "dispatch with no pipeline set") \
    X(BIND_GROUP_MISSING, VALIDATION, "dispatch with a bind group slot unset") \
    X(BIND_GROUP_INCOMPATIBLE, VALIDATION, "bind group layout incompatible with the pipeline") \
    X(DYNAMIC_OFFSET_COUNT, VALIDATION, "dynamic offset count does not match the layout") \
    X(DYNAMIC_OFFSET_ALIGN, VALIDATION, "dynamic offset is not aligned") \
    X(DYNAMIC_OFFSET_RANGE, VALIDATION, "dynamic offset puts the binding out of the buffer") \
    X(DISPATCH_TOO_LARGE, VALIDATION, "workgroup count exceeds maxComputeWorkgroupsPerDimension") \
    X(INDIRECT_OFFSET, VALIDATION, "indirect offset unaligned or out of range") \
    X(QUERY_INDEX, VALIDATION, "query index out of range") \
    X(QUERY_TYPE, VALIDATION, "query set has the wrong type") \
    X(FEATURE_NOT_ENABLED, VALIDATION, "feature not enabled on the device") \
    X(TIMESTAMP_SAME_INDEX, VALIDATION, "beginning and end timestamps use the same index") \
    /* submission, sync */ \
    X(CMDBUF_SUBMITTED, VALIDATION, "command buffer already submitted") \
    X(CMDBUF_INVALID, VALIDATION, "command buffer is invalid") \
    X(SUBMIT_MAPPED_BUFFER, VALIDATION, "submitted work uses a mapped buffer") \
    X(SUBMIT_DESTROYED_BUFFER, VALIDATION, "submitted work uses a destroyed buffer") \
    X(SUBMIT_DESTROYED_QUERY, VALIDATION, "submitted work uses a destroyed query set") \
    X(VK_CALL, INTERNAL, "Vulkan call failed") \
    X(WAIT_TIMEOUT, DEVICE_LOST, "GPU work did not finish within the timeout") \
    X(VK_DEVICE_LOST, DEVICE_LOST, "driver reported VK_ERROR_DEVICE_LOST") \
    X(DEVICE_DESTROYED, DEVICE_LOST, "device was destroyed") \
    X(MAP_ABORTED, VALIDATION, "map request aborted by unmap or destroy") \
    X(QUERY_SET_DESTROYED, VALIDATION, "query set is destroyed") \
    X(QUERY_COUNT, VALIDATION, "query count is zero or exceeds 4096") \
    X(SUBMIT_TOO_MANY, VALIDATION, "more than 64 command buffers in one submit") \
    X(WORKGROUP_STORAGE_LIMIT, VALIDATION, "workgroup storage exceeds maxComputeWorkgroupStorageSize") \
    X(ENV_VALUE, VALIDATION, "a WGC_* environment variable has a value wg cannot use") \
    X(OBJECT_RELEASED, VALIDATION, "object used or released after its last reference was released")

typedef enum wg_error_id {
#define X(name, type, summary) WG_ERR_##name,
    WG_ERRORS(X)
#undef X
    WG_ERR_COUNT
} wg_error_id;

typedef struct wg_error {
    wg_error_type type;     /* WG_ERROR_TYPE_NONE when there was no error */
    wg_error_id id;         /* row of WG_ERRORS */
    char message[512];      /* "<summary>: <detail>" */
} wg_error;

const char *wg_error_id_name(wg_error_id id);           /* "WG_ERR_BUFFER_TOO_LARGE" */
const char *wg_error_id_summary(wg_error_id id);
wg_error_type wg_error_id_type(wg_error_id id);
const char *wg_error_type_name(wg_error_type type);     /* "validation" */

/* ---- enums ------------------------------------------------------------------------------- */
typedef enum wg_adapter_type {
    WG_ADAPTER_TYPE_UNKNOWN = 0,
    WG_ADAPTER_TYPE_DISCRETE,
    WG_ADAPTER_TYPE_INTEGRATED,
    WG_ADAPTER_TYPE_VIRTUAL,
    WG_ADAPTER_TYPE_CPU,
    WG_ADAPTER_TYPE_COUNT
} wg_adapter_type;
const char *wg_adapter_type_name(wg_adapter_type t);    /* "discrete", "cpu", ... */

/* Features: X(NAME, "webgpu-style-name").  A device has a bit per enabled feature. */
#define WG_FEATURES(X)                                   \
    X(SHADER_F16, "shader-f16")                          \
    X(SUBGROUPS, "subgroups")                            \
    X(TIMESTAMP_QUERY, "timestamp-query")                \
    X(ROBUST_BUFFER_ACCESS2, "robust-buffer-access2")    \
    X(COOPERATIVE_MATRIX, "cooperative-matrix")          \
    X(SUBGROUP_SIZE_CONTROL, "subgroup-size-control")    \
    X(SHADER_INT64, "shader-int64")                      \
    X(PUSH_DESCRIPTORS, "push-descriptors")             \
    X(PIPELINE_STATISTICS, "pipeline-statistics")  \
    X(WORKGROUP_MATRIX, "workgroup-matrix")

typedef enum wg_feature {
    WG_FEATURE_NONE = 0,
#define X(name, str) WG_FEATURE_##name,
    WG_FEATURES(X)
#undef X
    WG_FEATURE_COUNT
} wg_feature;
#define WG_FEATURE_BIT(f) (1ull << (unsigned)(f))
const char *wg_feature_name(wg_feature f);

/* Limits: X(field, "webgpuName", kind) with kind MAX (bigger is better) or ALIGN (smaller is
 * better, a power of two).  All fields are uint64_t. */
#define WG_LIMITS(X)                                                                     \
    X(max_buffer_size, "maxBufferSize", MAX)                                             \
    X(max_storage_buffer_binding_size, "maxStorageBufferBindingSize", MAX)               \
    X(max_uniform_buffer_binding_size, "maxUniformBufferBindingSize", MAX)               \
    X(max_compute_workgroup_storage_size, "maxComputeWorkgroupStorageSize", MAX)         \
    X(max_compute_invocations_per_workgroup, "maxComputeInvocationsPerWorkgroup", MAX)   \
    X(max_compute_workgroup_size_x, "maxComputeWorkgroupSizeX", MAX)                     \
    X(max_compute_workgroup_size_y, "maxComputeWorkgroupSizeY", MAX)                     \
    X(max_compute_workgroup_size_z, "maxComputeWorkgroupSizeZ", MAX)                     \
    X(max_compute_workgroups_per_dimension, "maxComputeWorkgroupsPerDimension", MAX)     \
    X(max_bind_groups, "maxBindGroups", MAX)                                             \
    X(max_bindings_per_bind_group, "maxBindingsPerBindGroup", MAX)                       \
    X(max_storage_buffers_per_shader_stage, "maxStorageBuffersPerShaderStage", MAX)      \
    X(max_uniform_buffers_per_shader_stage, "maxUniformBuffersPerShaderStage", MAX)      \
    X(max_dynamic_storage_buffers_per_pipeline_layout, "maxDynamicStorageBuffersPerPipelineLayout", MAX) \
    X(max_dynamic_uniform_buffers_per_pipeline_layout, "maxDynamicUniformBuffersPerPipelineLayout", MAX) \
    X(min_storage_buffer_offset_alignment, "minStorageBufferOffsetAlignment", ALIGN)     \
    X(min_uniform_buffer_offset_alignment, "minUniformBufferOffsetAlignment", ALIGN)     \
    X(max_push_constant_size, "maxImmediateSize", MAX)

typedef struct wg_limits {
#define X(field, name, kind) uint64_t field;
    WG_LIMITS(X)
#undef X
} wg_limits;

typedef enum wg_component_type {
    WG_COMPONENT_UNKNOWN = 0,
    WG_COMPONENT_F16, WG_COMPONENT_F32, WG_COMPONENT_F64, WG_COMPONENT_BF16,
    WG_COMPONENT_I8, WG_COMPONENT_I16, WG_COMPONENT_I32, WG_COMPONENT_I64,
    WG_COMPONENT_U8, WG_COMPONENT_U16, WG_COMPONENT_U32, WG_COMPONENT_U64,
    WG_COMPONENT_COUNT
} wg_component_type;
const char *wg_component_type_name(wg_component_type t);  /* "f16", "bf16", "i8", ... */

typedef struct wg_coop_matrix_shape {      /* one row of vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR */
    uint32_t m, n, k;
    wg_component_type a, b, c, result;
    bool saturating;
    uint32_t scope;                        /* 3 = subgroup (VkScopeKHR) */
} wg_coop_matrix_shape;

/* One row of vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV
 * (VK_NV_cooperative_matrix2): any M x N x K that are multiples of these granularities, for a
 * workgroup of `invocations` (scope 2, workgroup) or a subgroup (scope 3, invocations 0). */
typedef struct wg_coop_flex_shape {
    uint32_t m_granularity, n_granularity, k_granularity;
    wg_component_type a, b, c, result;
    bool saturating;
    uint32_t scope;
    uint32_t invocations;
} wg_coop_flex_shape;

#define WG_MAX_COOP_SHAPES 64
typedef struct wg_adapter_info {
    char name[256];
    uint32_t vendor_id, device_id;
    char vendor[32];                       /* "nvidia", "amd", "intel", "mesa", ... */
    char driver_name[256];
    char driver_info[256];
    wg_adapter_type type;
    uint32_t api_version;                  /* VK_MAKE_API_VERSION encoding */
    uint32_t driver_version;
    uint8_t device_uuid[16];
    uint8_t driver_uuid[16];
    uint32_t subgroup_min_size, subgroup_max_size;
    double timestamp_period_ns;            /* nanoseconds per timestamp tick */
    uint64_t device_local_bytes;           /* largest device-local heap */
    uint64_t features;                     /* WG_FEATURE_BIT()s the adapter supports */
    uint32_t coop_shape_count;
    wg_coop_matrix_shape coop_shapes[WG_MAX_COOP_SHAPES];
    /* WG_FEATURE_WORKGROUP_MATRIX (VK_NV_cooperative_matrix2 with workgroup scope and flexible
     * dimensions): WGSL's workgroup_matrix types (enable wgc_workgroup_matrix) */
    uint32_t wgm_max_invocations;          /* largest workgroup using workgroup-scope matrices */
    uint32_t wgm_max_dimension;            /* largest M, N or K */
    uint32_t wgm_reserved_shared_memory;   /* bytes of workgroup memory the driver reserves for them */
    uint32_t flex_shape_count;
    wg_coop_flex_shape flex_shapes[WG_MAX_COOP_SHAPES];
} wg_adapter_info;
/* The adapter has WG_FEATURE_WORKGROUP_MATRIX and a flexible-dimension row for workgroup scope
 * with `invocations` invocations and these component types whose granularities divide m, n, k. */
bool wg_adapter_info_has_wgm_shape(const wg_adapter_info *info, uint32_t invocations, uint32_t m, uint32_t n,
                                   uint32_t k, wg_component_type a, wg_component_type b, wg_component_type c,
                                   wg_component_type result);
/* The adapter lists the subgroup-scope cooperative-matrix shape m x n x k with these component types
 * (A, B, C, result) and has the cooperative-matrix feature: e.g. 16 x 16 x 16 f16, f16, f32, f32, which
 * WGSL's subgroup_matrix f16 types with f32 results lower to. */
bool wg_adapter_info_has_coop_shape(const wg_adapter_info *info, uint32_t m, uint32_t n, uint32_t k,
                                    wg_component_type a, wg_component_type b, wg_component_type c,
                                    wg_component_type result);

/* ---- instance ----------------------------------------------------------------------------- */
typedef struct wg_instance_desc {
    const char *label;
    wg_allocator allocator;
    const char *vulkan_library;  /* NULL or "": "libvulkan.so.1" */
    int validation;              /* 0 or -1: off; 1: VK_LAYER_KHRONOS_validation (needs vulkan-validationlayers) */
} wg_instance_desc;

wg_instance *wg_instance_create(const wg_instance_desc *desc, wg_error *err);
void wg_instance_retain(wg_instance *inst);
void wg_instance_release(wg_instance *inst);
/* Messages of severity warning or error the validation layers reported so far (0 if off). */
uint64_t wg_instance_validation_message_count(const wg_instance *inst);
bool wg_instance_validation_enabled(const wg_instance *inst);

size_t wg_instance_adapter_count(const wg_instance *inst);
/* Borrowed: valid while the instance lives; retain to keep it longer. */
wg_adapter *wg_instance_get_adapter(wg_instance *inst, size_t index);

typedef enum wg_power_preference {
    WG_POWER_PREFERENCE_UNDEFINED = 0,     /* discrete > integrated > virtual > cpu */
    WG_POWER_PREFERENCE_LOW_POWER,         /* integrated > discrete > ... */
    WG_POWER_PREFERENCE_HIGH_PERFORMANCE,  /* like UNDEFINED */
    WG_POWER_PREFERENCE_COUNT
} wg_power_preference;

typedef struct wg_adapter_options {
    const char *label;
    wg_power_preference power_preference;
    const char *select;          /* adapter index or name substring; NULL or "": by power_preference */
} wg_adapter_options;
/* Borrowed, as wg_instance_get_adapter. */
wg_adapter *wg_instance_request_adapter(wg_instance *inst, const wg_adapter_options *opt, wg_error *err);

/* The adapters as one JSON document, the one `wgc info --json` prints and python/wgc's
 * list_adapters() reads: {"adapters":[{"index","default","name","type","vendor",...,
 * "subgroupMinSize","subgroupMaxSize","features":[..],"limits":{"maxBufferSize":..},
 * "cooperativeMatrixShapes":[..]}]}; "default" is the adapter wg_instance_request_adapter(inst,
 * opt) picks (opt may be NULL).  snprintf rules: writes at most cap bytes (NUL included; buf may be
 * NULL when cap is 0) and returns the full length. */
size_t wg_instance_adapters_json(wg_instance *inst, const wg_adapter_options *opt, char *buf, size_t cap);

void wg_adapter_retain(wg_adapter *ad);
void wg_adapter_release(wg_adapter *ad);
const wg_adapter_info *wg_adapter_get_info(const wg_adapter *ad);
const wg_limits *wg_adapter_get_limits(const wg_adapter *ad);
bool wg_adapter_has_feature(const wg_adapter *ad, wg_feature f);

/* ---- device ------------------------------------------------------------------------------- */
typedef enum wg_device_lost_reason {
    WG_DEVICE_LOST_NONE = 0,
    WG_DEVICE_LOST_UNKNOWN,
    WG_DEVICE_LOST_DESTROYED,   /* wg_device_release dropped the last reference */
    WG_DEVICE_LOST_TIMEOUT,     /* no submission finished for lost_timeout_ms, or pipeline creation outlived it */
    WG_DEVICE_LOST_DRIVER,      /* VK_ERROR_DEVICE_LOST */
    WG_DEVICE_LOST_COUNT
} wg_device_lost_reason;

/* What copies big (>= 1 MiB), 16-byte-aligned buffer ranges.  On the H200 vkCmdCopyBuffer reaches
 * about 5% of the copy kernel's bandwidth (213 against 3880 GB/s); on lavapipe the kernel reaches
 * 1-2 GB/s against vkCmdCopyBuffer's 27. */
typedef enum wg_copy_engine {
    WG_COPY_ENGINE_DEFAULT = 0,     /* SHADER on GPUs, TRANSFER on CPU adapters */
    WG_COPY_ENGINE_SHADER,          /* the runtime's copy kernel (a compute dispatch) */
    WG_COPY_ENGINE_TRANSFER,        /* vkCmdCopyBuffer */
    WG_COPY_ENGINE_COUNT
} wg_copy_engine;

/* How buffers use device-local memory the driver also makes host-visible (CPU adapters, ReBAR). */
typedef enum wg_device_memory {
    WG_DEVICE_MEMORY_DEFAULT = 0,   /* map it: writes and reads are memcpy, zero-fill on the host */
    WG_DEVICE_MEMORY_UNMAPPED,      /* debug: never map it, as on a discrete GPU (staging ring, readback
                                     * buffer, GPU zero-fill, host shadows): tests cover those paths on lavapipe */
    WG_DEVICE_MEMORY_COUNT
} wg_device_memory;

typedef void (*wg_error_callback)(void *user, const wg_error *err);
typedef void (*wg_device_lost_callback)(void *user, wg_device_lost_reason reason, const char *message);

typedef struct wg_device_desc {
    const char *label;
    uint64_t required_features;          /* WG_FEATURE_BIT()s; robust-buffer-access2 is always on when supported */
    const wg_limits *required_limits;    /* NULL or zero fields: the adapter's values */
    wg_error_callback uncaptured_error;  /* NULL: print to stderr */
    void *uncaptured_error_user;
    wg_device_lost_callback device_lost;
    void *device_lost_user;
    uint32_t lost_timeout_ms;            /* 0: 30000; a wait in which no submission finishes for this long (or a
                                          * pipeline the driver takes this long to create) loses the device */
    uint64_t memory_block_size;          /* 0: device memory / 64, within 64..256 MiB; suballocation block */
    uint64_t staging_size;               /* 0: 32 MiB; the write_buffer ring */
    const char *cache_dir;               /* pipeline cache directory; NULL or "": none (wg_config_from_env
                                            fills $WGC_CACHE_DIR, else $XDG_CACHE_HOME/wgc, else
                                            ~/.cache/wgc) */
    wg_copy_engine copy_engine;          /* 0: shader on GPUs, transfer on CPU adapters */
    wg_device_memory device_memory;      /* 0: map device memory where the driver makes it host-visible */
} wg_device_desc;

wg_device *wg_adapter_create_device(wg_adapter *ad, const wg_device_desc *desc, wg_error *err);
void wg_device_retain(wg_device *dev);
void wg_device_release(wg_device *dev);       /* last reference: waits for the GPU, frees all */
const wg_limits *wg_device_get_limits(const wg_device *dev);
bool wg_device_has_feature(const wg_device *dev, wg_feature f);
wg_adapter *wg_device_get_adapter(wg_device *dev);
wg_queue *wg_device_get_queue(wg_device *dev);  /* borrowed; lives as long as the device */

void wg_device_push_error_scope(wg_device *dev, wg_error_type filter);
/* Pops the innermost scope: returns the id of the first error it caught (WG_ERR_NONE if none)
 * and copies it to *out when out is not NULL. */
wg_error_id wg_device_pop_error_scope(wg_device *dev, wg_error *out);

bool wg_device_is_lost(const wg_device *dev);
wg_device_lost_reason wg_device_lost_reason_get(const wg_device *dev, const char **message);
/* Checks finished GPU work: retires submissions, frees deferred objects, runs map callbacks.
 * wait = true blocks until all submitted work is done (or the lost timeout passes). */
void wg_device_poll(wg_device *dev, bool wait);

typedef struct wg_device_stats {
    uint64_t submits, dispatches, barriers;      /* barriers = memory barriers recorded by hazards */
    uint64_t memory_blocks, memory_block_bytes;  /* VkDeviceMemory objects alive and their bytes */
    uint64_t buffer_bytes;                       /* bytes suballocated to live buffers */
    uint64_t pipelines_created;                  /* VkPipelines created (a device keeps them until it dies) */
    uint64_t pipeline_memory_hits;               /* pipelines served from the in-memory cache */
    uint64_t pipeline_disk_cache_hits;           /* creation feedback said "cache hit" */
    uint64_t pipeline_cache_loaded_bytes;        /* VkPipelineCache bytes read from disk at creation */
    uint64_t shader_copies, transfer_copies;     /* buffer copies by compute shader / vkCmdCopyBuffer */
    uint64_t validation_messages;                /* = wg_instance_validation_message_count */
    uint64_t bind_group_binds;                   /* descriptor sets bound (setting the bound group again binds nothing) */
    uint64_t slow_waits;                         /* lost-timeout windows a wait outlived because submissions kept finishing */
} wg_device_stats;
void wg_device_get_stats(const wg_device *dev, wg_device_stats *out);
/* The on-disk pipeline cache file in use ("" if none). */
const char *wg_device_pipeline_cache_path(const wg_device *dev);

/* ---- settings from the environment -------------------------------------------------------- */
/* The library reads no environment variable: every setting is a descriptor field (the per-user
 * cache directory, $XDG_CACHE_HOME/wgc else ~/.cache/wgc, is this function's default for
 * wg_device_desc.cache_dir).  Programs that want the WGC_* variables (the
 * wgc CLI, its benchmarks, the tests, python/wgc) map them with this one call before creating the
 * instance, adapter and device:
 *
 *     variable              field                                  values
 *     WGC_VULKAN_LIB        wg_instance_desc.vulkan_library        a path or library name
 *     WGC_VALIDATION        wg_instance_desc.validation            1 on, 0 off
 *     WGC_ADAPTER           wg_adapter_options.select              an index or a name substring
 *     WGC_LOST_TIMEOUT_MS   wg_device_desc.lost_timeout_ms         milliseconds, 0 the default
 *     WGC_CACHE_DIR         wg_device_desc.cache_dir               a directory
 *     WGC_COPY              wg_device_desc.copy_engine             shader, transfer
 *     WGC_DEBUG_UNMAPPED    wg_device_desc.device_memory           1 unmapped, 0 the default
 *
 *     wg_env_strings env;                                             // the strings live here
 *     wg_instance_desc idesc = { .label = "tool" };
 *     wg_adapter_options opt = { .select = argv_adapter };            // NULL: $WGC_ADAPTER
 *     wg_device_desc ddesc = { .label = "tool" };
 *     if (!wg_config_from_env(&env, &idesc, &opt, &ddesc, &err)) {    // e.g. WGC_COPY=fast
 *         fprintf(stderr, "%s\n", err.message);
 *         return 2;
 *     }
 *     wg_instance *inst = wg_instance_create(&idesc, &err);           // then request_adapter(&opt),
 *     ...                                                             // create_device(&ddesc)
 *
 * Only fields still at their zero default are filled (NULL or "" for vulkan_library and select,
 * NULL for cache_dir), so what the program set wins.  An unset or empty variable leaves its field
 * alone.  inst, adapter and dev may each be NULL (not wanted).  Strings are copied into *strings,
 * which must outlive the creation calls (they copy what they keep); nothing points into the
 * environment.  A value that cannot be honoured (WGC_COPY=fast, WGC_LOST_TIMEOUT_MS=10s, a string
 * longer than its buffer) fills *err with WG_ERR_ENV_VALUE naming the variable and returns false;
 * the other variables are still mapped. */
typedef struct wg_env_strings {
    char vulkan_library[1024];      /* $WGC_VULKAN_LIB */
    char adapter[256];              /* $WGC_ADAPTER */
    char cache_dir[1024];           /* $WGC_CACHE_DIR */
} wg_env_strings;
bool wg_config_from_env(wg_env_strings *strings, wg_instance_desc *inst, wg_adapter_options *adapter,
                        wg_device_desc *dev, wg_error *err);

/* ---- buffers ------------------------------------------------------------------------------ */
typedef enum wg_buffer_usage {           /* webgpu.h values */
    WG_BUFFER_USAGE_MAP_READ = 0x0001,
    WG_BUFFER_USAGE_MAP_WRITE = 0x0002,
    WG_BUFFER_USAGE_COPY_SRC = 0x0004,
    WG_BUFFER_USAGE_COPY_DST = 0x0008,
    WG_BUFFER_USAGE_UNIFORM = 0x0040,
    WG_BUFFER_USAGE_STORAGE = 0x0080,
    WG_BUFFER_USAGE_INDIRECT = 0x0100,
    WG_BUFFER_USAGE_QUERY_RESOLVE = 0x0200
} wg_buffer_usage;
#define WG_BUFFER_USAGE_DEFAULT (WG_BUFFER_USAGE_STORAGE | WG_BUFFER_USAGE_COPY_SRC | WG_BUFFER_USAGE_COPY_DST)
#define WG_WHOLE_SIZE UINT64_MAX

typedef struct wg_buffer_desc {
    const char *label;
    uint64_t size;
    uint32_t usage;               /* wg_buffer_usage bits; 0: WG_BUFFER_USAGE_DEFAULT */
    bool mapped_at_creation;      /* writable through wg_buffer_get_mapped_range until unmap */
} wg_buffer_desc;

wg_buffer *wg_device_create_buffer(wg_device *dev, const wg_buffer_desc *desc);
void wg_buffer_retain(wg_buffer *buf);
void wg_buffer_release(wg_buffer *buf);
void wg_buffer_destroy(wg_buffer *buf);   /* frees the memory now (after the GPU is done); handle stays */
uint64_t wg_buffer_get_size(const wg_buffer *buf);
uint32_t wg_buffer_get_usage(const wg_buffer *buf);
bool wg_buffer_is_valid(const wg_buffer *buf);

typedef enum wg_map_mode { WG_MAP_MODE_NONE = 0, WG_MAP_MODE_READ = 1, WG_MAP_MODE_WRITE = 2 } wg_map_mode;
typedef enum wg_map_status {
    WG_MAP_STATUS_NONE = 0,
    WG_MAP_STATUS_SUCCESS,
    WG_MAP_STATUS_VALIDATION_ERROR,
    WG_MAP_STATUS_ABORTED,          /* unmapped or destroyed before it completed */
    WG_MAP_STATUS_DEVICE_LOST,
    WG_MAP_STATUS_COUNT
} wg_map_status;
typedef void (*wg_buffer_map_callback)(void *user, wg_map_status status);

/* The callback runs from wg_device_poll (or a blocking call) once the GPU is done with the buffer. */
void wg_buffer_map_async(wg_buffer *buf, wg_map_mode mode, uint64_t offset, uint64_t size,
                         wg_buffer_map_callback cb, void *user);
void *wg_buffer_get_mapped_range(wg_buffer *buf, uint64_t offset, uint64_t size);
const void *wg_buffer_get_const_mapped_range(wg_buffer *buf, uint64_t offset, uint64_t size);
void wg_buffer_unmap(wg_buffer *buf);

/* Status of blocking helpers. */
typedef enum wg_status {
    WG_STATUS_OK = 0,
    WG_STATUS_ERROR,        /* the error went to the device's scopes / callback */
    WG_STATUS_TIMEOUT,
    WG_STATUS_DEVICE_LOST,
    WG_STATUS_COUNT
} wg_status;

/* Blocking convenience: copies [offset, offset+size) of a COPY_SRC (or MAP_READ) buffer into dst
 * after all submitted work; uses an internal readback buffer. */
wg_status wg_buffer_read(wg_buffer *buf, uint64_t offset, void *dst, uint64_t size);

/* ---- queue -------------------------------------------------------------------------------- */
/* Copies data now into the staging ring; the GPU copy runs before the next submitted work. */
void wg_queue_write_buffer(wg_queue *q, wg_buffer *buf, uint64_t offset, const void *data, uint64_t size);
/* Consumes (releases) each command buffer (at most 64); returns the submission's serial, 0 on error. */
uint64_t wg_queue_submit(wg_queue *q, size_t count, wg_command_buffer *const *cbs);
/* Waits for all submitted work.  timeout_ns UINT64_MAX: the device's lost timeout applies, and
 * passing it loses the device; a smaller timeout just returns WG_STATUS_TIMEOUT. */
wg_status wg_queue_wait(wg_queue *q, uint64_t timeout_ns);

/* ---- shader modules ----------------------------------------------------------------------- */
typedef struct wg_shader_module_desc {
    const char *label;
    const uint32_t *spirv;        /* SPIR-V words */
    size_t spirv_words;
    const char *wgsl;             /* WGSL source, compiled by wgc's wgsl compiler; spirv wins if both */
} wg_shader_module_desc;

typedef enum wg_binding_type {
    WG_BINDING_TYPE_UNDEFINED = 0,      /* in a layout entry: storage */
    WG_BINDING_TYPE_STORAGE,
    WG_BINDING_TYPE_READ_ONLY_STORAGE,
    WG_BINDING_TYPE_UNIFORM,
    WG_BINDING_TYPE_COUNT
} wg_binding_type;

typedef struct wg_shader_binding {     /* one reflected resource */
    uint32_t group, binding;
    wg_binding_type type;
    uint64_t min_size;                 /* fixed part of the block's size */
} wg_shader_binding;

#define WG_MAX_SHADER_BINDINGS 64
#define WG_MAX_ENTRY_POINTS 16
typedef struct wg_shader_entry_info {
    char name[64];
    uint32_t workgroup_size[3];
    uint32_t binding_count;
    wg_shader_binding bindings[WG_MAX_SHADER_BINDINGS];
    /* bytes of workgroup storage the entry point uses, as WebGPU counts them (each variable
     * roundUp(16, size)); pipeline creation checks it against maxComputeWorkgroupStorageSize, less
     * the adapter's wgm_reserved_shared_memory where the entry point uses workgroup matrices */
    uint32_t workgroup_storage_size;
    bool workgroup_matrices;             /* its code names a workgroup-scope cooperative matrix type */
} wg_shader_entry_info;

wg_shader_module *wg_device_create_shader_module(wg_device *dev, const wg_shader_module_desc *desc);
void wg_shader_module_retain(wg_shader_module *m);
void wg_shader_module_release(wg_shader_module *m);
uint32_t wg_shader_module_entry_point_count(const wg_shader_module *m);
/* NULL if index is out of range or the module is invalid. */
const wg_shader_entry_info *wg_shader_module_get_entry_point(const wg_shader_module *m, uint32_t index);

/* ---- layouts ------------------------------------------------------------------------------ */
typedef struct wg_bind_group_layout_entry {
    uint32_t binding;
    wg_binding_type type;
    bool has_dynamic_offset;
    uint64_t min_binding_size;
} wg_bind_group_layout_entry;

typedef struct wg_bind_group_layout_desc {
    const char *label;
    size_t entry_count;
    const wg_bind_group_layout_entry *entries;
} wg_bind_group_layout_desc;

wg_bind_group_layout *wg_device_create_bind_group_layout(wg_device *dev, const wg_bind_group_layout_desc *desc);
void wg_bind_group_layout_retain(wg_bind_group_layout *l);
void wg_bind_group_layout_release(wg_bind_group_layout *l);

typedef struct wg_pipeline_layout_desc {
    const char *label;
    size_t bind_group_layout_count;
    wg_bind_group_layout *const *bind_group_layouts;
} wg_pipeline_layout_desc;

wg_pipeline_layout *wg_device_create_pipeline_layout(wg_device *dev, const wg_pipeline_layout_desc *desc);
void wg_pipeline_layout_retain(wg_pipeline_layout *l);
void wg_pipeline_layout_release(wg_pipeline_layout *l);

/* ---- compute pipelines -------------------------------------------------------------------- */
typedef struct wg_compute_pipeline_desc {
    const char *label;
    wg_pipeline_layout *layout;     /* NULL: automatic, from the shader's reflection */
    wg_shader_module *module;
    const char *entry_point;        /* NULL: the module's only compute entry point */
} wg_compute_pipeline_desc;

wg_compute_pipeline *wg_device_create_compute_pipeline(wg_device *dev, const wg_compute_pipeline_desc *desc);
void wg_compute_pipeline_retain(wg_compute_pipeline *p);
void wg_compute_pipeline_release(wg_compute_pipeline *p);
/* Borrowed (lives as long as the pipeline); NULL and WG_ERR_BIND_GROUP_INDEX if out of range. */
wg_bind_group_layout *wg_compute_pipeline_get_bind_group_layout(wg_compute_pipeline *p, uint32_t index);
bool wg_compute_pipeline_is_valid(const wg_compute_pipeline *p);

/* The driver's own figures for a compiled pipeline (VK_KHR_pipeline_executable_properties):
 * registers per invocation, spilled or local memory, workgroup memory, ... named as the driver
 * names them (NVIDIA: "Register Count", "Local Memory Size", ...).  Needs the device feature
 * WG_FEATURE_PIPELINE_STATISTICS (its pipelines are then compiled with the figures captured).
 * Fills up to cap entries of out (out may be NULL when cap is 0) and returns how many the driver
 * has; 0 with an error in the device's scopes (WG_ERR_FEATURE_NOT_ENABLED, an invalid pipeline,
 * WG_ERR_VK_CALL) when there are none. */
typedef struct wg_pipeline_statistic {
    char name[64];
    char description[256];
    bool integer;                   /* value is a count (else a real number); booleans are 0 / 1 */
    double value;
} wg_pipeline_statistic;
uint32_t wg_compute_pipeline_get_statistics(wg_compute_pipeline *p, wg_pipeline_statistic *out, uint32_t cap);

/* ---- bind groups -------------------------------------------------------------------------- */
typedef struct wg_bind_group_entry {
    uint32_t binding;
    wg_buffer *buffer;
    uint64_t offset;
    uint64_t size;                  /* 0 or WG_WHOLE_SIZE: to the end of the buffer */
} wg_bind_group_entry;

typedef struct wg_bind_group_desc {
    const char *label;
    wg_bind_group_layout *layout;
    size_t entry_count;
    const wg_bind_group_entry *entries;
} wg_bind_group_desc;

wg_bind_group *wg_device_create_bind_group(wg_device *dev, const wg_bind_group_desc *desc);
void wg_bind_group_retain(wg_bind_group *g);
void wg_bind_group_release(wg_bind_group *g);

/* ---- query sets --------------------------------------------------------------------------- */
typedef enum wg_query_type { WG_QUERY_TYPE_TIMESTAMP = 0, WG_QUERY_TYPE_COUNT } wg_query_type;
typedef struct wg_query_set_desc {
    const char *label;
    wg_query_type type;
    uint32_t count;
} wg_query_set_desc;

wg_query_set *wg_device_create_query_set(wg_device *dev, const wg_query_set_desc *desc);
void wg_query_set_retain(wg_query_set *qs);
void wg_query_set_release(wg_query_set *qs);
void wg_query_set_destroy(wg_query_set *qs);
/* Blocking: waits for submitted work, then stores timestamps [first, first+count) in ns
 * (ticks x timestampPeriod, from the adapter's first reading).  Unwritten queries read 0. */
wg_status wg_query_set_read_ns(wg_query_set *qs, uint32_t first, uint32_t count, uint64_t *ns);

/* ---- encoding ----------------------------------------------------------------------------- */
typedef struct wg_command_encoder_desc { const char *label; } wg_command_encoder_desc;
typedef struct wg_command_buffer_desc { const char *label; } wg_command_buffer_desc;

typedef struct wg_compute_pass_desc {
    const char *label;
    wg_query_set *timestamp_query_set;   /* NULL: no timestamps */
    uint32_t beginning_index, end_index;
    bool write_beginning, write_end;
} wg_compute_pass_desc;

wg_command_encoder *wg_device_create_command_encoder(wg_device *dev, const wg_command_encoder_desc *desc);
void wg_command_encoder_retain(wg_command_encoder *e);
void wg_command_encoder_release(wg_command_encoder *e);
wg_compute_pass *wg_command_encoder_begin_compute_pass(wg_command_encoder *e, const wg_compute_pass_desc *desc);
void wg_command_encoder_copy_buffer_to_buffer(wg_command_encoder *e, wg_buffer *src, uint64_t src_offset,
                                              wg_buffer *dst, uint64_t dst_offset, uint64_t size);
/* size 0 or WG_WHOLE_SIZE: to the end. */
void wg_command_encoder_clear_buffer(wg_command_encoder *e, wg_buffer *buf, uint64_t offset, uint64_t size);
void wg_command_encoder_write_timestamp(wg_command_encoder *e, wg_query_set *qs, uint32_t index);
/* Writes count uint64 tick values (ticks x timestamp_period_ns = ns; 1:1 on lavapipe and NVIDIA). */
void wg_command_encoder_resolve_query_set(wg_command_encoder *e, wg_query_set *qs, uint32_t first, uint32_t count,
                                          wg_buffer *dst, uint64_t dst_offset);
wg_command_buffer *wg_command_encoder_finish(wg_command_encoder *e, const wg_command_buffer_desc *desc);
void wg_command_buffer_retain(wg_command_buffer *cb);
void wg_command_buffer_release(wg_command_buffer *cb);

void wg_compute_pass_set_pipeline(wg_compute_pass *p, wg_compute_pipeline *pipe);
void wg_compute_pass_set_bind_group(wg_compute_pass *p, uint32_t index, wg_bind_group *g,
                                    size_t dynamic_offset_count, const uint32_t *dynamic_offsets);
void wg_compute_pass_dispatch_workgroups(wg_compute_pass *p, uint32_t x, uint32_t y, uint32_t z);
/* Reads 3 uint32 counts at offset; counts over the limit make the dispatch a no-op (checked on the GPU). */
void wg_compute_pass_dispatch_workgroups_indirect(wg_compute_pass *p, wg_buffer *buf, uint64_t offset);
void wg_compute_pass_end(wg_compute_pass *p);
void wg_compute_pass_retain(wg_compute_pass *p);
void wg_compute_pass_release(wg_compute_pass *p);

/* ---- one-call kernel runs ---------------------------------------------------------------- */
/* wg_device_run_kernel compiles a WGSL kernel, creates its pipeline and buffers, runs it and
 * times it, in one call on plain structs that the caller owns: the engine of `wgc run` and
 * `wgc profile`, and what the Python package (python/wgc) calls through ctypes.  Example, y = 2x
 * over 1024 floats, timed over 100 runs after 10 warm-up runs:
 *
 *     float x[1024] = { ... }, y[1024];
 *     wg_kernel_run_result *r = calloc(1, sizeof *r);                // ~14 KB: keep it off the stack
 *     wg_status st = wg_device_run_kernel(dev, &(wg_kernel_run_desc){
 *         .wgsl = "@group(0) @binding(0) var<storage, read> x: array<f32>;\n"
 *                 "@group(0) @binding(1) var<storage, read_write> y: array<f32>;\n"
 *                 "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) i: vec3u) {\n"
 *                 "    y[i.x] = 2.0 * x[i.x];\n}\n",
 *         .dispatch = { 1024 / 64 },
 *         .bindings = (wg_kernel_binding[]){ { 0, 0, sizeof x, x, NULL }, { 0, 1, sizeof y, NULL, y } },
 *         .binding_count = 2, .warmup = 10, .repeat = 100 }, r);
 *     if (st != WG_STATUS_OK)
 *         fprintf(stderr, "%s\n%s", r->error.message, r->diagnostics);   // file:line:col diagnostics
 *     else
 *         printf("median %.0f ns (%s)\n", r->median_ns, r->timestamps ? "GPU timestamps" : "wall clock");
 *
 * Any device works; one with WG_FEATURE_TIMESTAMP_QUERY gives GPU times, one with
 * WG_FEATURE_PIPELINE_STATISTICS the driver's register and spill figures (a device created with
 * `.required_features = wg_adapter_get_info(ad)->features` has every feature the adapter has). */
typedef struct wg_kernel_binding {
    uint32_t group, binding;
    uint64_t size;                 /* bytes (rounded up to 4 on the GPU) */
    const void *data;              /* initial contents, size bytes; NULL: zeros */
    void *readback;                /* NULL: not read; else receives size bytes after the last run */
} wg_kernel_binding;

typedef struct wg_kernel_override {
    const char *name;              /* the override's @id in decimal when it has one, else its name */
    double value;
} wg_kernel_override;

typedef struct wg_kernel_run_desc {
    const char *label;
    const char *wgsl;              /* WGSL source */
    size_t wgsl_length;            /* 0: strlen(wgsl) */
    const char *filename;          /* in diagnostics; NULL: "kernel.wgsl" */
    const char *entry_point;       /* NULL: the module's only compute entry point */
    uint32_t dispatch[3];          /* workgroup counts; 0 in y or z: 1 */
    const wg_kernel_override *overrides;
    uint32_t override_count;
    const wg_kernel_binding *bindings;   /* one per binding the entry point uses */
    uint32_t binding_count;
    uint32_t warmup;               /* untimed runs first */
    uint32_t repeat;               /* timed runs; 0: 1 */
    uint64_t *gpu_ns;              /* NULL, or repeat entries: each timed run's time in ns */
    bool wall_clock;               /* time each run by submit+wait on the host even with timestamps */
    bool no_bounds_checks;         /* compile without index clamping (unsafe: measures what the checks cost) */
} wg_kernel_run_desc;

typedef struct wg_kernel_run_result {
    wg_error error;                /* type NONE on success */
    char diagnostics[8192];        /* compiler diagnostics (text, truncated), "" when none */
    uint32_t workgroup_size[3];    /* of the entry point */
    char entry_point[64];
    double compile_ms;             /* WGSL -> SPIR-V on the host */
    double pipeline_ms;            /* shader module + compute pipeline creation */
    bool pipeline_cache_hit;       /* in-memory or on-disk pipeline cache served it */
    bool timestamps;               /* times are from GPU timestamp queries (else host wall clock) */
    uint32_t runs;                 /* timed runs measured */
    double min_ns, median_ns, max_ns, mean_ns, stddev_ns;  /* per timed run */
    double wall_ms;                /* host time of all timed runs, submit to finished */
    /* the driver's figures for the pipeline (registers, spills, ...: wg_compute_pipeline_get_statistics)
     * where the device has WG_FEATURE_PIPELINE_STATISTICS, else none */
    uint32_t statistic_count;
    wg_pipeline_statistic statistics[16];
} wg_kernel_run_result;

/* Compiles desc->wgsl (overrides applied), creates the pipeline, uploads the bindings, runs the
 * entry point warmup + repeat times (one submit each for warmup and the timed batch; with
 * timestamps every run is its own timed compute pass, with the runtime's barriers between runs),
 * reads back, and fills *out.  WG_STATUS_OK, or WG_STATUS_ERROR with out->error (WG_ERR_WGSL_COMPILE
 * with out->diagnostics, a binding problem, any device error the calls raised), or
 * WG_STATUS_DEVICE_LOST.  Readback buffers hold the contents after all warmup + repeat runs. */
wg_status wg_device_run_kernel(wg_device *dev, const wg_kernel_run_desc *desc, wg_kernel_run_result *out);

#ifdef __cplusplus
}
#endif
#endif
