/* internal.h - what the files of src/gpu share: Vulkan function tables, object structs and the
 * module-internal helpers (prefix wg__).
 *
 * Every object starts with a wg_obj header (kind, refcount, validity, label, device).  Vulkan
 * objects the GPU may still use are never destroyed directly: they go to the device's garbage
 * list with the serial of the last submission that used them, and are destroyed once the
 * timeline semaphore has passed it (sync.c).  Layouts and pipelines live in device-wide caches
 * (pipeline.c) and die with the device. */
#ifndef WG_INTERNAL_H
#define WG_INTERNAL_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "wgc/gpu.h"

/* ---- Vulkan entry points ----------------------------------------------------------------- */
/* Older headers lack VK_KHR_cooperative_matrix; declare what we use of it. */
typedef struct wg_vk_coop_props {
    VkStructureType sType;
    void *pNext;
    uint32_t MSize, NSize, KSize;
    int32_t AType, BType, CType, ResultType;
    VkBool32 saturatingAccumulation;
    int32_t scope;
} wg_vk_coop_props;
typedef VkResult (VKAPI_PTR *wg_PFN_coop_props)(VkPhysicalDevice, uint32_t *, wg_vk_coop_props *);
#define WG_STYPE_COOP_PROPS ((VkStructureType)1000506001)
/* VK_NV_cooperative_matrix2 (workgroup-scope matrices, flexible dimensions) */
typedef struct wg_vk_coop2_features {
    VkStructureType sType;
    void *pNext;
    VkBool32 workgroup_scope, flexible_dimensions, reductions, conversions, per_element, tensor_addressing,
        block_loads;
} wg_vk_coop2_features;
typedef struct wg_vk_coop2_props {
    VkStructureType sType;
    void *pNext;
    uint32_t wg_max_invocations, flex_max_dimension, wg_reserved_shared_memory;
} wg_vk_coop2_props;
typedef struct wg_vk_coop_flex_props {
    VkStructureType sType;
    void *pNext;
    uint32_t MGranularity, NGranularity, KGranularity;
    int32_t AType, BType, CType, ResultType;
    VkBool32 saturatingAccumulation;
    int32_t scope;
    uint32_t workgroupInvocations;
} wg_vk_coop_flex_props;
typedef VkResult (VKAPI_PTR *wg_PFN_coop_flex_props)(VkPhysicalDevice, uint32_t *, wg_vk_coop_flex_props *);
#define WG_STYPE_COOP2_FEATURES ((VkStructureType)1000593000)
#define WG_STYPE_COOP_FLEX_PROPS ((VkStructureType)1000593001)
#define WG_STYPE_COOP2_PROPS ((VkStructureType)1000593002)
#define WG_STYPE_COOP_FEATURES ((VkStructureType)1000506000)

#define WG_VK_GLOBAL_FNS(X)                     \
    X(vkCreateInstance)                         \
    X(vkEnumerateInstanceExtensionProperties)   \
    X(vkEnumerateInstanceLayerProperties)       \
    X(vkEnumerateInstanceVersion)

#define WG_VK_INSTANCE_FNS(X)                        \
    X(vkDestroyInstance)                             \
    X(vkEnumeratePhysicalDevices)                    \
    X(vkGetPhysicalDeviceProperties)                 \
    X(vkGetPhysicalDeviceProperties2)                \
    X(vkGetPhysicalDeviceFeatures2)                  \
    X(vkGetPhysicalDeviceMemoryProperties)           \
    X(vkGetPhysicalDeviceQueueFamilyProperties)      \
    X(vkEnumerateDeviceExtensionProperties)          \
    X(vkCreateDevice)                                \
    X(vkGetDeviceProcAddr)

#define WG_VK_DEVICE_FNS(X)                \
    X(vkDestroyDevice)                     \
    X(vkGetDeviceQueue)                    \
    X(vkDeviceWaitIdle)                    \
    X(vkAllocateMemory)                    \
    X(vkFreeMemory)                        \
    X(vkMapMemory)                         \
    X(vkUnmapMemory)                       \
    X(vkInvalidateMappedMemoryRanges)      \
    X(vkFlushMappedMemoryRanges)           \
    X(vkCreateBuffer)                      \
    X(vkDestroyBuffer)                     \
    X(vkGetBufferMemoryRequirements)       \
    X(vkBindBufferMemory)                  \
    X(vkCreateShaderModule)                \
    X(vkDestroyShaderModule)               \
    X(vkCreateDescriptorSetLayout)         \
    X(vkDestroyDescriptorSetLayout)        \
    X(vkCreatePipelineLayout)              \
    X(vkDestroyPipelineLayout)             \
    X(vkCreatePipelineCache)               \
    X(vkDestroyPipelineCache)              \
    X(vkGetPipelineCacheData)              \
    X(vkCreateComputePipelines)            \
    X(vkDestroyPipeline)                   \
    X(vkCreateDescriptorPool)              \
    X(vkDestroyDescriptorPool)             \
    X(vkAllocateDescriptorSets)            \
    X(vkFreeDescriptorSets)                \
    X(vkUpdateDescriptorSets)              \
    X(vkCreateCommandPool)                 \
    X(vkDestroyCommandPool)                \
    X(vkAllocateCommandBuffers)            \
    X(vkFreeCommandBuffers)                \
    X(vkBeginCommandBuffer)                \
    X(vkEndCommandBuffer)                  \
    X(vkCmdBindPipeline)                   \
    X(vkCmdBindDescriptorSets)             \
    X(vkCmdDispatch)                       \
    X(vkCmdDispatchIndirect)               \
    X(vkCmdPipelineBarrier)                \
    X(vkCmdCopyBuffer)                     \
    X(vkCmdFillBuffer)                     \
    X(vkCmdPushConstants)                  \
    X(vkCmdWriteTimestamp)                 \
    X(vkCmdResetQueryPool)                 \
    X(vkCmdCopyQueryPoolResults)           \
    X(vkCreateQueryPool)                   \
    X(vkDestroyQueryPool)                  \
    X(vkGetQueryPoolResults)               \
    X(vkResetQueryPool)                    \
    X(vkQueueSubmit)                       \
    X(vkCreateSemaphore)                   \
    X(vkDestroySemaphore)                  \
    X(vkWaitSemaphores)                    \
    X(vkGetSemaphoreCounterValue)

typedef struct wg_vk_fns {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
#define X(f) PFN_##f f;
    WG_VK_GLOBAL_FNS(X)
    WG_VK_INSTANCE_FNS(X)
#undef X
    PFN_vkCreateDebugUtilsMessengerEXT vkCreateDebugUtilsMessengerEXT;    /* optional */
    PFN_vkDestroyDebugUtilsMessengerEXT vkDestroyDebugUtilsMessengerEXT;  /* optional */
    wg_PFN_coop_props vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR;  /* optional */
    wg_PFN_coop_flex_props vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV;  /* optional */
} wg_vk_fns;

typedef struct wg_vk_dfns {
#define X(f) PFN_##f f;
    WG_VK_DEVICE_FNS(X)
#undef X
    PFN_vkCmdPushDescriptorSetKHR vkCmdPushDescriptorSetKHR;  /* optional */
    PFN_vkGetPipelineExecutablePropertiesKHR vkGetPipelineExecutablePropertiesKHR;  /* optional */
    PFN_vkGetPipelineExecutableStatisticsKHR vkGetPipelineExecutableStatisticsKHR;  /* optional */
} wg_vk_dfns;

/* loader.c */
void *wg__loader_open(const char *path, PFN_vkGetInstanceProcAddr *gipa);
void wg__loader_close(void *lib);
wg_error_id wg__load_global(wg_vk_fns *f);
wg_error_id wg__load_instance(wg_vk_fns *f, VkInstance inst, const char **missing);
wg_error_id wg__load_device(const wg_vk_fns *f, VkDevice dev, wg_vk_dfns *d, const char **missing);

/* ---- object header ----------------------------------------------------------------------- */
typedef enum wg_obj_kind {
    WG_OBJ_NONE = 0,
    WG_OBJ_BUFFER,
    WG_OBJ_SHADER_MODULE,
    WG_OBJ_BIND_GROUP_LAYOUT,
    WG_OBJ_PIPELINE_LAYOUT,
    WG_OBJ_COMPUTE_PIPELINE,
    WG_OBJ_BIND_GROUP,
    WG_OBJ_COMMAND_ENCODER,
    WG_OBJ_COMMAND_BUFFER,
    WG_OBJ_QUERY_SET,
    WG_OBJ_COUNT
} wg_obj_kind;

#define WG_LABEL_MAX 64
#define WG_RELEASED_KEEP 256  /* released buffers kept unreused (see wg_device.released) */
typedef struct wg_obj {
    wg_obj_kind kind;
    int32_t refs;
    bool invalid;         /* creation failed validation: every use is an error */
    bool internal;        /* made by the runtime itself: holds no device reference */
    wg_device *dev;
    uint64_t last_use;    /* serial of the last submission using it */
    uint64_t track_stamp; /* encoder stamp that last tracked it */
    char label[WG_LABEL_MAX];
} wg_obj;

const char *wg__kind_name(wg_obj_kind k);
void *wg__obj_new(wg_device *dev, wg_obj_kind kind, size_t size, const char *label);
void wg__obj_retain(wg_obj *o);
void wg__obj_release(wg_obj *o);
/* Validates an object argument: non-NULL, right device, valid.  Reports and returns false. */
bool wg__check_obj(wg_device *dev, const void *o, const char *what);
/* Per-kind teardown (frees Vulkan resources through the garbage list and child references;
 * the header's memory and device reference are handled by wg__obj_release). */
void wg__buffer_free(wg_obj *o);
void wg__shader_module_free(wg_obj *o);
void wg__bind_group_layout_free(wg_obj *o);
void wg__pipeline_layout_free(wg_obj *o);
void wg__compute_pipeline_free(wg_obj *o);
void wg__bind_group_free(wg_obj *o);
void wg__command_encoder_free(wg_obj *o);
void wg__command_buffer_free(wg_obj *o);
void wg__query_set_free(wg_obj *o);

/* ---- allocation -------------------------------------------------------------------------- */
void *wg__alloc(const wg_allocator *a, size_t size);
void *wg__calloc(const wg_allocator *a, size_t size);
void *wg__realloc(const wg_allocator *a, void *p, size_t size);
void wg__free(const wg_allocator *a, void *p);
/* Grows *arr (element size elem) to hold at least n; false on OOM (array unchanged). */
bool wg__grow(const wg_allocator *a, void **arr, size_t *cap, size_t n, size_t elem);

/* ---- instance, adapters ------------------------------------------------------------------ */
struct wg_adapter {
    wg_instance *inst;
    VkPhysicalDevice pd;
    wg_adapter_info info;
    wg_limits limits;
    uint32_t queue_family;
    uint32_t vk_api;
    VkPhysicalDeviceMemoryProperties mem;
    bool ext_robustness2, ext_push_descriptor, ext_coop, ext_subgroup_size_control, ext_exec_props;
    bool ext_coop2;                      /* VK_NV_cooperative_matrix2 */
    bool host_query_reset, timeline, f16_arith, storage16, uniform16, int64, sg_size_control, full_subgroups;
    bool creation_feedback;
    uint32_t timestamp_valid_bits;
};

struct wg_instance {
    int32_t refs;
    wg_allocator alloc;
    char label[WG_LABEL_MAX];
    void *lib;
    wg_vk_fns vk;
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    bool validation;
    uint64_t validation_messages;
    wg_adapter *adapters;
    size_t adapter_count;
    uint32_t abandoned_devices;   /* devices released after a timeout loss: the driver stays loaded */
};

/* ---- memory ------------------------------------------------------------------------------ */
typedef struct wg_range { uint64_t offset, size; } wg_range;

typedef enum wg_mem_kind { WG_MEM_DEVICE = 0, WG_MEM_UPLOAD, WG_MEM_READBACK } wg_mem_kind;

typedef struct wg_mem_block {
    VkDeviceMemory mem;
    uint64_t size, used;
    uint32_t type;
    wg_mem_kind kind;
    bool dedicated;
    uint8_t *map;            /* persistently mapped when host visible */
    wg_range *free;          /* sorted by offset, coalesced */
    size_t nfree, capfree;
} wg_mem_block;

typedef struct wg_alloc_ {
    wg_mem_block *block;
    uint64_t offset, size;
} wg_mem;

/* memory.c */
wg_error_id wg__mem_alloc(wg_device *dev, const VkMemoryRequirements *req, wg_mem_kind kind, wg_mem *out);
void wg__mem_free(wg_device *dev, wg_mem *m);
void wg__mem_destroy_all(wg_device *dev);
bool wg__mem_host_coherent(wg_device *dev, const wg_mem *m);

/* ---- device ------------------------------------------------------------------------------ */
typedef struct wg_scope { wg_error_type filter; bool caught; wg_error err; } wg_scope;
#define WG_MAX_SCOPES 64

typedef enum wg_garbage_kind { WG_GARBAGE_BUFFER = 1, WG_GARBAGE_DESCRIPTOR_SET, WG_GARBAGE_QUERY_POOL } wg_garbage_kind;
typedef struct wg_garbage {
    wg_garbage_kind kind;
    uint64_t serial;
    uint64_t handle;     /* VkBuffer / VkDescriptorSet / VkQueryPool */
    uint64_t aux;        /* descriptor pool */
    uint64_t aux2;       /* descriptor set: index + 1 of its layout in the device cache (0: none) */
    wg_mem mem;
} wg_garbage;

typedef struct wg_inflight { VkCommandBuffer cb; uint64_t serial; } wg_inflight;

typedef struct wg_set_layout_entry {   /* canonical bind group layout entry (sorted by binding) */
    uint32_t binding;
    wg_binding_type type;
    bool dynamic;
    uint64_t min_size;
} wg_set_layout_entry;

typedef struct wg_cached_set_layout {
    uint64_t hash;
    size_t n;
    wg_set_layout_entry *entries;
    VkDescriptorSetLayout vk;
    struct wg_free_set { VkDescriptorSet set; VkDescriptorPool pool; } *free_sets; /* retired sets, reused */
    size_t nfree, capfree;
} wg_cached_set_layout;

#define WG_MAX_BIND_GROUPS 8
typedef struct wg_cached_pipeline_layout {
    uint32_t nsets;
    VkDescriptorSetLayout sets[WG_MAX_BIND_GROUPS];
    VkPipelineLayout vk;
} wg_cached_pipeline_layout;

typedef struct wg_cached_pipeline {
    uint64_t module_hash;
    char entry[64];
    VkPipelineLayout layout;
    VkPipeline vk;
} wg_cached_pipeline;

typedef struct wg_internal_pipe {      /* runtime's own kernels: push descriptors + push constants */
    VkDescriptorSetLayout set;
    VkPipelineLayout layout;
    VkPipeline pipe;
} wg_internal_pipe;

struct wg_queue { wg_device *dev; };

struct wg_device {
    int32_t refs;
    char label[WG_LABEL_MAX];
    wg_adapter *adapter;
    wg_instance *inst;
    wg_allocator alloc;
    const wg_vk_fns *vki;
    wg_vk_dfns vk;
    VkDevice device;
    VkQueue vkq;
    wg_queue queue;
    wg_limits limits;
    uint64_t features;
    bool host_query_reset, creation_feedback;
    bool unmapped_device_memory;  /* desc.device_memory UNMAPPED: treat device memory as not host-visible */
    bool copy_by_shader;          /* big aligned copies by the copy kernel, else vkCmdCopyBuffer (encoder.c) */

    /* errors */
    wg_scope scopes[WG_MAX_SCOPES];
    uint32_t nscopes;
    wg_error_callback uncaptured;
    void *uncaptured_user;
    wg_device_lost_callback lost_cb;
    void *lost_user;
    wg_device_lost_reason lost;
    bool abandoned;                  /* released after a timeout loss: Vulkan objects leaked, no Vulkan call */
    char lost_message[256];
    uint64_t lost_timeout_ns;

    /* submission */
    VkSemaphore timeline;
    uint64_t next_serial;    /* serial the next submission gets */
    uint64_t completed;      /* highest serial known finished */
    VkCommandPool cmd_pool;
    VkCommandBuffer *free_cbs;
    size_t nfree_cbs, capfree_cbs;
    wg_inflight *inflight;
    size_t ninflight, capinflight;
    VkCommandBuffer pending;         /* open command buffer for write_buffer copies and clears */
    bool pending_open;
    struct wg_pending_write { const void *buf; uint64_t start, end; } pend_writes[64];
    uint32_t npend_writes;           /* ranges written in `pending` since its last barrier */
    uint64_t encoder_stamp;
    wg_obj **spare_used;             /* the largest retired `used` array, handed to the next encoder */
    size_t spare_cap;
    void **bg_pool;                  /* freed bind group objects (up to 4096), reused: a bind group */
    size_t nbg_pool, capbg_pool;     /* per dispatch lives until its command buffer retires */
    /* released buffers: their memory stays with the device (never back to libc while it lives), so
     * a second release or a use is reported (WG_ERR_OBJECT_RELEASED) instead of touching freed
     * memory.  The last WG_RELEASED_KEEP wait in a ring untouched; older ones are reused by new buffers. */
    void *released[WG_RELEASED_KEEP];
    uint32_t released_head, nreleased;
    void **buf_spare;
    size_t nbuf_spare, capbuf_spare;

    /* deferred destruction */
    wg_garbage *garbage;
    size_t ngarbage, capgarbage;
    wg_buffer *map_list;             /* buffers with a pending map */

    /* memory */
    wg_mem_block **blocks;
    size_t nblocks, capblocks;
    uint64_t block_size;

    /* staging ring */
    VkBuffer ring_buf;
    wg_mem ring_mem;
    uint64_t ring_size, ring_head, ring_tail;
    struct wg_ring_span { uint64_t end, serial; } ring_spans[256];
    uint32_t ring_first, ring_count;

    /* worker threads for big host copies (buffer.c) */
    struct wg_copy_pool *copy_pool;
    void *copy_pool_args[8];
    bool copy_pool_failed;

    /* readback buffer for wg_buffer_read on device-only memory */
    VkBuffer rb_buf;
    wg_mem rb_mem;
    uint64_t rb_size;

    /* descriptor pools */
    VkDescriptorPool *pools;
    size_t npools, cappools;

    /* caches */
    wg_cached_set_layout *set_layouts;
    size_t nset_layouts, capset_layouts;
    wg_cached_pipeline_layout *pipe_layouts;
    size_t npipe_layouts, cappipe_layouts;
    wg_cached_pipeline *pipes;
    size_t npipes, cappipes;
    VkPipelineCache vk_cache;
    char cache_path[1024];
    bool cache_dirty;
    wg_internal_pipe copy_pipe, indirect_pipe;
    VkBuffer indirect_buf;           /* validated indirect arguments */
    wg_mem indirect_mem;
    wg_buffer *indirect_obj;         /* tracked for hazards */

    wg_device_stats stats;
};

/* device.c / error.c */
void wg__err(wg_device *dev, wg_error_id id, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void wg__verr(wg_device *dev, wg_error_id id, const char *fmt, va_list ap);
void wg__error_fill(wg_error *e, wg_error_id id, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void wg__device_ref(wg_device *dev);
/* Keeps a Vulkan handle the runtime abandons (a device lost by timeout, its instance) reachable
 * for the process's life, so leak checkers count the driver's memory behind it as kept. */
void wg__keep_forever(const void *handle);
void wg__device_unref(wg_device *dev);
const char *wg__label(const void *obj);   /* "'label'" form not included; returns label or "(unnamed)" */

/* sync.c */
void wg__lose(wg_device *dev, wg_device_lost_reason reason, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void wg__retire(wg_device *dev);
wg_status wg__wait_serial(wg_device *dev, uint64_t serial, uint64_t timeout_ns);
VkCommandBuffer wg__cmd_acquire(wg_device *dev);
void wg__cmd_recycle(wg_device *dev, VkCommandBuffer cb);
VkCommandBuffer wg__pending_cb(wg_device *dev);     /* opens it if needed; NULL on failure */
uint64_t wg__submit(wg_device *dev, VkCommandBuffer *cbs, uint32_t n);  /* 0 on failure */
uint64_t wg__flush_pending(wg_device *dev);         /* submits the pending cb alone (0: nothing) */
/* Before a write of [start, end) of buf into the pending cb: a barrier if it overlaps an earlier one. */
void wg__pending_write(wg_device *dev, const void *buf, uint64_t start, uint64_t end);
void wg__defer(wg_device *dev, const wg_garbage *g);
void wg__garbage_collect(wg_device *dev, bool all);
void wg__barrier(wg_device *dev, VkCommandBuffer cb, bool to_host);
/* A memory barrier between the given WG_STAGE_* sets (writes before, accesses after). */
void wg__barrier_stages(wg_device *dev, VkCommandBuffer cb, uint32_t src, uint32_t dst);
void wg__check_vk(wg_device *dev, VkResult r, const char *what);

/* buffer.c */
typedef enum wg_map_state { WG_MAP_UNMAPPED = 0, WG_MAP_PENDING, WG_MAP_MAPPED } wg_map_state;
struct wg_buffer {
    wg_obj o;
    uint64_t size;
    uint32_t usage;
    bool destroyed;
    VkBuffer vk;
    wg_mem mem;
    wg_map_state map_state;
    wg_map_mode map_mode;
    uint64_t map_offset, map_size, map_serial;
    wg_buffer_map_callback map_cb;
    void *map_user;
    wg_buffer *map_next;
    uint8_t *shadow;              /* mapped_at_creation on memory the host cannot see */
};
void wg__buffer_complete_maps(wg_device *dev);
void wg__buffer_reject_maps(wg_device *dev, wg_map_status status);
void wg__staging_destroy(wg_device *dev);
bool wg__buffer_usable(wg_device *dev, wg_buffer *b, uint32_t usage, const char *what);

/* shader.c */
struct wg_shader_module {
    wg_obj o;
    VkShaderModule vk;
    uint64_t hash;
    uint32_t nentries;
    wg_shader_entry_info *entries;
};
wg_error_id wg__reflect(const wg_allocator *a, const uint32_t *w, size_t n, wg_shader_entry_info *out, uint32_t max,
                        uint32_t *count, char *detail, size_t detail_size);
uint64_t wg__hash(uint64_t h, const void *data, size_t n);
#define WG_HASH_INIT 1469598103934665603ull
/* The compiler options a device implies (include/wgc/wgsl.h): its host allocator, and the
 * extensions it lacks rejected (f16, subgroups, subgroup and workgroup matrices); shader modules
 * and wg_device_run_kernel compile with them. */
struct wgsl_options;
void wg__wgsl_options(const wg_device *dev, struct wgsl_options *opt);

/* pipeline.c */
struct wg_bind_group_layout {
    wg_obj o;
    size_t n;
    wg_set_layout_entry *entries;   /* sorted by binding */
    uint64_t hash;
    VkDescriptorSetLayout vk;       /* owned by the device cache */
    uint32_t cache_index;           /* its entry in dev->set_layouts */
    uint32_t ndynamic;
};
struct wg_pipeline_layout {
    wg_obj o;
    uint32_t nsets;
    wg_bind_group_layout *sets[WG_MAX_BIND_GROUPS];
    VkPipelineLayout vk;            /* owned by the device cache */
};
struct wg_compute_pipeline {
    wg_obj o;
    wg_pipeline_layout *layout;
    VkPipeline vk;                  /* owned by the device cache */
    uint32_t workgroup_size[3];
};
void wg__pipeline_cache_open(wg_device *dev, const char *dir);
void wg__pipeline_cache_close(wg_device *dev);
void wg__caches_destroy(wg_device *dev);
wg_bind_group_layout *wg__bind_group_layout_make(wg_device *dev, const char *label, const wg_set_layout_entry *e,
                                                 size_t n, bool internal);
bool wg__internal_pipe(wg_device *dev, wg_internal_pipe *p, const uint32_t *spirv, size_t words,
                       uint32_t nbindings, uint32_t push_size);

/* bindgroup.c */
struct wg_bind_group {
    wg_obj o;
    wg_bind_group_layout *layout;
    VkDescriptorSet set;
    VkDescriptorPool pool;
    size_t n;
    struct wg_bg_entry { uint32_t binding; wg_binding_type type; bool dynamic; wg_buffer *buffer; uint64_t offset, size; } *entries;
    struct wg_bg_entry inline_entries[4];   /* `entries` for groups of up to 4 bindings: one host allocation */
};

/* query.c */
struct wg_query_set {
    wg_obj o;
    wg_query_type type;
    uint32_t count;
    VkQueryPool pool;
    bool destroyed;
};

/* encoder.c */
#define WG_HAZARD_MAX 64
enum { WG_STAGE_COMPUTE = 1, WG_STAGE_TRANSFER = 2, WG_STAGE_INDIRECT = 4 };
typedef struct wg_hazard { const wg_buffer *buf; uint64_t start, end; uint32_t stage; } wg_hazard;

struct wg_compute_pass {
    wg_command_encoder *enc;
    bool open;
    wg_compute_pipeline *pipeline;
    bool pipeline_dirty;
    wg_bind_group *groups[WG_MAX_BIND_GROUPS];
    uint32_t dyn[WG_MAX_BIND_GROUPS][16];
    uint32_t ndyn[WG_MAX_BIND_GROUPS];
    uint32_t groups_dirty;
    wg_query_set *ts_set;
    uint32_t ts_end;
    bool ts_write_end;
};

struct wg_command_encoder {
    wg_obj o;
    VkCommandBuffer cb;
    bool finished, pass_open;
    uint64_t stamp;
    wg_obj **used;
    size_t nused, capused;
    wg_hazard reads[WG_HAZARD_MAX], writes[WG_HAZARD_MAX];
    uint32_t nreads, nwrites;
    bool untracked;                   /* a command too big to track ran since the last barrier */
    uint32_t indirect_slot;
    wg_compute_pass pass;
};

struct wg_command_buffer {
    wg_obj o;
    VkCommandBuffer cb;
    bool submitted;
    wg_obj **used;
    size_t nused, capused;
};

#endif
