/* device.c - the device and its queue: feature and limit negotiation against the adapter,
 * VkDevice creation (robustness2 always on when supported), the refcount plumbing shared by
 * every object, stats, and teardown.
 *
 * Ownership: each object made from a device holds a device reference until it is freed, so the
 * device dies after its last object; its Vulkan objects that the GPU may still use go through
 * the garbage list (sync.c) instead of being destroyed on the spot. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu/internal.h"

typedef void (*wg_free_fn)(wg_obj *);
static const wg_free_fn free_fns[WG_OBJ_COUNT] = {
    [WG_OBJ_BUFFER] = wg__buffer_free,
    [WG_OBJ_SHADER_MODULE] = wg__shader_module_free,
    [WG_OBJ_BIND_GROUP_LAYOUT] = wg__bind_group_layout_free,
    [WG_OBJ_PIPELINE_LAYOUT] = wg__pipeline_layout_free,
    [WG_OBJ_COMPUTE_PIPELINE] = wg__compute_pipeline_free,
    [WG_OBJ_BIND_GROUP] = wg__bind_group_free,
    [WG_OBJ_COMMAND_ENCODER] = wg__command_encoder_free,
    [WG_OBJ_COMMAND_BUFFER] = wg__command_buffer_free,
    [WG_OBJ_QUERY_SET] = wg__query_set_free,
};

void wg__obj_retain(wg_obj *o) {
    if (o)
        o->refs++;
}

/* A released buffer keeps its memory while the device lives, marked kind NONE, so a second
 * release or a later use is reported as WG_ERR_OBJECT_RELEASED instead of touching freed memory.
 * The ring holds the last WG_RELEASED_KEEP; the one it pushes out becomes a spare that
 * wg__obj_new hands to a new buffer (from then on a stale pointer to it is not detected). */
static void keep_released(wg_device *dev, wg_obj *o) {
    o->kind = WG_OBJ_NONE;
    o->refs = 0;
    if (dev->nreleased < WG_RELEASED_KEEP) {
        dev->released[(dev->released_head + dev->nreleased++) % WG_RELEASED_KEEP] = o;
        return;
    }
    void *old = dev->released[dev->released_head];
    dev->released[dev->released_head] = o;
    dev->released_head = (dev->released_head + 1) % WG_RELEASED_KEEP;
    if (wg__grow(&dev->alloc, (void **)&dev->buf_spare, &dev->capbuf_spare, dev->nbuf_spare + 1,
                 sizeof *dev->buf_spare))
        dev->buf_spare[dev->nbuf_spare++] = old;
    else
        wg__free(&dev->alloc, old);
}

/* wg_buffer_release: a released buffer (kind NONE, see keep_released) is an error, not a double free */
static bool buffer_live(wg_buffer *b, const char *op) {
    if (b->o.kind == WG_OBJ_BUFFER)
        return true;
    wg__err(b->o.dev, WG_ERR_OBJECT_RELEASED, "%s: buffer '%s' was already released", op, wg__label(b));
    return false;
}

void wg__obj_release(wg_obj *o) {
    if (!o || o->kind == WG_OBJ_NONE || --o->refs > 0)  /* NONE: a released buffer */
        return;
    wg_device *dev = o->dev;
    if ((unsigned)o->kind < WG_OBJ_COUNT && free_fns[o->kind])
        free_fns[o->kind](o);
    bool internal = o->internal;
    if (o->kind == WG_OBJ_BUFFER)
        keep_released(dev, o);
    /* bind groups are made per dispatch by the tensor layer: keep a few for reuse (freed with
     * the device) instead of a malloc/free pair each */
    else if (o->kind == WG_OBJ_BIND_GROUP && dev->nbg_pool < 4096 &&
             wg__grow(&dev->alloc, (void **)&dev->bg_pool, &dev->capbg_pool, dev->nbg_pool + 1, sizeof *dev->bg_pool))
        dev->bg_pool[dev->nbg_pool++] = o;
    else
        wg__free(&dev->alloc, o);
    if (!internal)
        wg__device_unref(dev);
}

#define WG_REFCOUNTED(X) X(shader_module) X(bind_group_layout) X(pipeline_layout) \
    X(compute_pipeline) X(bind_group) X(command_encoder) X(command_buffer) X(query_set)
#define X(name)                                                                      \
    void wg_##name##_retain(wg_##name *x) { if (x) wg__obj_retain(&x->o); }         \
    void wg_##name##_release(wg_##name *x) { if (x) wg__obj_release(&x->o); }
WG_REFCOUNTED(X)
#undef X
void wg_buffer_retain(wg_buffer *b) {
    if (b && buffer_live(b, "wg_buffer_retain"))
        wg__obj_retain(&b->o);
}
void wg_buffer_release(wg_buffer *b) {
    if (b && buffer_live(b, "wg_buffer_release"))
        wg__obj_release(&b->o);
}

void wg_compute_pass_retain(wg_compute_pass *p) {
    if (p)
        wg_command_encoder_retain(p->enc);
}
void wg_compute_pass_release(wg_compute_pass *p) {
    if (p)
        wg_command_encoder_release(p->enc);
}

static void device_destroy(wg_device *dev);

void wg__device_ref(wg_device *dev) {
    dev->refs++;
}
void wg__device_unref(wg_device *dev) {
    if (--dev->refs == 0)
        device_destroy(dev);
}
void wg_device_retain(wg_device *dev) {
    if (dev)
        dev->refs++;
}
void wg_device_release(wg_device *dev) {
    if (dev)
        wg__device_unref(dev);
}

static bool is_pow2(uint64_t v) {
    return v && !(v & (v - 1));
}

static const struct { const char *name; size_t off; bool align; } limit_table[] = {
#define X(field, name, kind) { name, offsetof(wg_limits, field), sizeof(#kind) == sizeof("ALIGN") },
    WG_LIMITS(X)
#undef X
};
#define NLIMITS (sizeof limit_table / sizeof limit_table[0])

wg_device *wg_adapter_create_device(wg_adapter *ad, const wg_device_desc *desc, wg_error *err) {
    static const wg_device_desc zero;
    if (!desc)
        desc = &zero;
    if (err)
        wg__error_fill(err, WG_ERR_NONE, NULL), err->type = WG_ERROR_TYPE_NONE;
    if (!ad) {
        wg__error_fill(err, WG_ERR_NULL_OBJECT, "adapter is NULL");
        return NULL;
    }
    wg_instance *inst = ad->inst;
    if (ad->vk_api < VK_API_VERSION_1_2 || !ad->timeline || ad->queue_family == UINT32_MAX) {
        wg__error_fill(err, WG_ERR_ADAPTER_TOO_OLD, "adapter '%s'", ad->info.name);
        return NULL;
    }
    uint64_t want = desc->required_features;
    for (int f = 1; f < WG_FEATURE_COUNT; f++)
        if ((want & WG_FEATURE_BIT(f)) && !(ad->info.features & WG_FEATURE_BIT(f))) {
            wg__error_fill(err, WG_ERR_FEATURE_UNSUPPORTED, "'%s' on adapter '%s'", wg_feature_name((wg_feature)f),
                           ad->info.name);
            return NULL;
        }
    if (want & ~(uint64_t)((WG_FEATURE_BIT(WG_FEATURE_COUNT) - 1) & ~1ull)) {
        wg__error_fill(err, WG_ERR_FEATURE_UNSUPPORTED, "unknown feature bits 0x%llx", (unsigned long long)want);
        return NULL;
    }
    if ((unsigned)desc->copy_engine >= WG_COPY_ENGINE_COUNT ||
        (unsigned)desc->device_memory >= WG_DEVICE_MEMORY_COUNT) {
        wg__error_fill(err, WG_ERR_BAD_ENUM, "device '%s': copy_engine %d, device_memory %d",
                       desc->label ? desc->label : "", (int)desc->copy_engine, (int)desc->device_memory);
        return NULL;
    }
    wg_limits limits = ad->limits;
    if (desc->required_limits) {
        for (size_t i = 0; i < NLIMITS; i++) {
            uint64_t req, have;
            memcpy(&req, (const char *)desc->required_limits + limit_table[i].off, 8);
            memcpy(&have, (const char *)&ad->limits + limit_table[i].off, 8);
            if (!req)
                continue;
            bool bad = limit_table[i].align ? (req < have || !is_pow2(req)) : req > have;
            if (bad) {
                wg__error_fill(err, WG_ERR_LIMIT_EXCEEDS_ADAPTER, "%s = %llu, adapter '%s' has %llu",
                               limit_table[i].name, (unsigned long long)req, ad->info.name, (unsigned long long)have);
                return NULL;
            }
            memcpy((char *)&limits + limit_table[i].off, &req, 8);
        }
    }

    wg_device *dev = wg__calloc(&inst->alloc, sizeof *dev);
    if (!dev) {
        wg__error_fill(err, WG_ERR_HOST_OOM, "creating the device");
        return NULL;
    }
    dev->refs = 1;
    dev->adapter = ad;
    dev->inst = inst;
    dev->alloc = inst->alloc;
    dev->vki = &inst->vk;
    dev->limits = limits;
    dev->queue.dev = dev;
    dev->next_serial = 1;
    dev->uncaptured = desc->uncaptured_error;
    dev->uncaptured_user = desc->uncaptured_error_user;
    dev->lost_cb = desc->device_lost;
    dev->lost_user = desc->device_lost_user;
    if (desc->label)
        snprintf(dev->label, sizeof dev->label, "%s", desc->label);
    dev->lost_timeout_ns = (desc->lost_timeout_ms ? desc->lost_timeout_ms : 30000) * 1000000ull;
    /* blocks of 1/64 of the device memory, between 64 and 256 MiB */
    uint64_t auto_block = ad->info.device_local_bytes / 64;
    auto_block = auto_block < (64ull << 20) ? 64ull << 20 : auto_block > (256ull << 20) ? 256ull << 20 : auto_block;
    dev->block_size = desc->memory_block_size ? desc->memory_block_size : auto_block;
    dev->unmapped_device_memory = desc->device_memory == WG_DEVICE_MEMORY_UNMAPPED;
    /* the copy kernel on GPUs, vkCmdCopyBuffer on CPU adapters: each is the faster one there (gpu.h) */
    dev->copy_by_shader = desc->copy_engine == WG_COPY_ENGINE_SHADER ||
                          (desc->copy_engine == WG_COPY_ENGINE_DEFAULT && ad->info.type != WG_ADAPTER_TYPE_CPU);
    dev->ring_size = desc->staging_size ? desc->staging_size : 32ull << 20;
    dev->ring_size = (dev->ring_size + 255) & ~255ull;
    wg_instance_retain(inst);

    /* features and extensions */
    uint64_t feat = want;
    const char *exts[10];
    uint32_t nexts = 0;
    bool f16 = want & WG_FEATURE_BIT(WG_FEATURE_SHADER_F16);
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 };
    VkPhysicalDeviceVulkan11Features f11 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES };
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
    VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
    VkPhysicalDeviceRobustness2FeaturesEXT fr2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT };
    struct { VkStructureType sType; void *pNext; VkBool32 coop, robust; } fcoop = { WG_STYPE_COOP_FEATURES, NULL, 1, 0 };
    wg_vk_coop2_features fcm2 = { .sType = WG_STYPE_COOP2_FEATURES, .workgroup_scope = VK_TRUE,
                                  .flexible_dimensions = VK_TRUE };
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR fexe = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pipelineExecutableInfo = VK_TRUE };
    f2.pNext = &f11;
    f11.pNext = &f12;
    void **tail = &f12.pNext;
    f11.storageBuffer16BitAccess = f16;
    /* f16 in uniform buffers (WGSL allows it with shader-f16; Dawn requires it for the feature) */
    f11.uniformAndStorageBuffer16BitAccess = f16 && ad->uniform16;
    f12.shaderFloat16 = f16;
    f12.timelineSemaphore = VK_TRUE;
    f12.hostQueryReset = ad->host_query_reset;
    dev->host_query_reset = ad->host_query_reset;
    f2.features.shaderInt64 = (want & WG_FEATURE_BIT(WG_FEATURE_SHADER_INT64)) != 0;
    if (ad->vk_api >= VK_API_VERSION_1_3) {
        *tail = &f13;
        tail = &f13.pNext;
        f13.subgroupSizeControl = ad->sg_size_control;
        f13.computeFullSubgroups = ad->full_subgroups;
        if (ad->sg_size_control)
            feat |= WG_FEATURE_BIT(WG_FEATURE_SUBGROUP_SIZE_CONTROL);
    }
    if (ad->info.features & WG_FEATURE_BIT(WG_FEATURE_ROBUST_BUFFER_ACCESS2)) {
        exts[nexts++] = VK_EXT_ROBUSTNESS_2_EXTENSION_NAME;
        fr2.robustBufferAccess2 = VK_TRUE;
        f2.features.robustBufferAccess = VK_TRUE;
        *tail = &fr2;
        tail = &fr2.pNext;
        feat |= WG_FEATURE_BIT(WG_FEATURE_ROBUST_BUFFER_ACCESS2);
    }
    if (ad->ext_push_descriptor) {
        exts[nexts++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
        feat |= WG_FEATURE_BIT(WG_FEATURE_PUSH_DESCRIPTORS);
    }
    if (want & WG_FEATURE_BIT(WG_FEATURE_WORKGROUP_MATRIX))   /* built on VK_KHR_cooperative_matrix */
        want |= WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX);
    if (want & WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX)) {
        exts[nexts++] = "VK_KHR_cooperative_matrix";
        *tail = &fcoop;
        tail = &fcoop.pNext;
        feat |= WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX);
    }
    if (want & WG_FEATURE_BIT(WG_FEATURE_WORKGROUP_MATRIX)) {
        exts[nexts++] = "VK_NV_cooperative_matrix2";
        *tail = &fcm2;
        tail = &fcm2.pNext;
    }
    if (want & WG_FEATURE_BIT(WG_FEATURE_PIPELINE_STATISTICS)) {
        exts[nexts++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
        *tail = &fexe;
        tail = &fexe.pNext;
    }
    if (ad->info.features & WG_FEATURE_BIT(WG_FEATURE_TIMESTAMP_QUERY))
        feat |= WG_FEATURE_BIT(WG_FEATURE_TIMESTAMP_QUERY);
    dev->features = feat;
    dev->creation_feedback = ad->creation_feedback;

    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                    .queueFamilyIndex = ad->queue_family, .queueCount = 1, .pQueuePriorities = &prio };
    VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2, .queueCreateInfoCount = 1,
                               .pQueueCreateInfos = &qci, .enabledExtensionCount = nexts,
                               .ppEnabledExtensionNames = exts };
    VkResult r = inst->vk.vkCreateDevice(ad->pd, &dci, NULL, &dev->device);
    if (r != VK_SUCCESS) {
        wg__error_fill(err, r == VK_ERROR_OUT_OF_HOST_MEMORY ? WG_ERR_HOST_OOM : WG_ERR_DEVICE_CREATE,
                       "VkResult %d on '%s'", (int)r, ad->info.name);
        dev->device = VK_NULL_HANDLE;
        goto fail;
    }
    const char *missing = "";
    if (wg__load_device(&inst->vk, dev->device, &dev->vk, &missing) != WG_ERR_NONE) {
        wg__error_fill(err, WG_ERR_LOADER_SYMBOL, "%s", missing);
        goto fail;
    }
    dev->vk.vkGetDeviceQueue(dev->device, ad->queue_family, 0, &dev->vkq);

    VkSemaphoreTypeCreateInfo sti = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE, .initialValue = 0 };
    VkSemaphoreCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &sti };
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = ad->queue_family };
    if (dev->vk.vkCreateSemaphore(dev->device, &sci, NULL, &dev->timeline) != VK_SUCCESS ||
        dev->vk.vkCreateCommandPool(dev->device, &pci, NULL, &dev->cmd_pool) != VK_SUCCESS) {
        wg__error_fill(err, WG_ERR_DEVICE_CREATE, "semaphore or command pool creation failed");
        goto fail;
    }
    const char *dir = desc->cache_dir;
    wg__pipeline_cache_open(dev, dir);
    return dev;
fail:
    device_destroy(dev);
    return NULL;
}

/* Handles leaked on purpose (libc memory: it outlives every allocator it could come from). */
static struct { pthread_mutex_t mu; const void **h; size_t n, cap; } kept = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };

void wg__keep_forever(const void *handle) {
    if (!handle)
        return;
    pthread_mutex_lock(&kept.mu);
    if (kept.n == kept.cap) {
        size_t cap = kept.cap ? 2 * kept.cap : 256;
        const void **h = realloc(kept.h, cap * sizeof *h);
        if (h)
            kept.h = h, kept.cap = cap;
    }
    if (kept.n < kept.cap)
        kept.h[kept.n++] = handle;
    pthread_mutex_unlock(&kept.mu);
}

#define KEEP(h) wg__keep_forever((const void *)(uintptr_t)(h))
/* Every Vulkan handle an abandoned device still names, kept (the VkDevice reaches the rest). */
static void keep_vulkan_objects(wg_device *dev) {
    KEEP(dev->device);
    KEEP(dev->timeline);
    KEEP(dev->cmd_pool);
    KEEP(dev->vk_cache);
    KEEP(dev->ring_buf);
    KEEP(dev->rb_buf);
    KEEP(dev->indirect_buf);
    KEEP(dev->pending);
    for (size_t i = 0; i < dev->npools; i++)
        KEEP(dev->pools[i]);
    for (size_t i = 0; i < dev->nblocks; i++)
        KEEP(dev->blocks[i]->mem);
    for (size_t i = 0; i < dev->ngarbage; i++)
        KEEP(dev->garbage[i].handle);
    for (size_t i = 0; i < dev->ninflight; i++)
        KEEP(dev->inflight[i].cb);
    for (size_t i = 0; i < dev->nfree_cbs; i++)
        KEEP(dev->free_cbs[i]);
    for (size_t i = 0; i < dev->npipes; i++)
        KEEP(dev->pipes[i].vk);
    for (size_t i = 0; i < dev->npipe_layouts; i++)
        KEEP(dev->pipe_layouts[i].vk);
    for (size_t i = 0; i < dev->nset_layouts; i++)
        KEEP(dev->set_layouts[i].vk);
    wg_internal_pipe *ip[] = { &dev->copy_pipe, &dev->indirect_pipe };
    for (size_t i = 0; i < 2; i++) {
        KEEP(ip[i]->pipe);
        KEEP(ip[i]->layout);
        KEEP(ip[i]->set);
    }
}

/* Teardown.  A live device (or one the driver reported lost) waits for its work and destroys
 * every Vulkan object.  A device lost by timeout is abandoned instead: its work may never end
 * (lavapipe cannot stop a kernel; vkDeviceWaitIdle and vkDestroyDevice would wait for it) or a
 * driver thread may still be compiling one of its pipelines, so release makes no Vulkan call at
 * all: the VkDevice and everything in it are leaked on purpose (wg__keep_forever), the host
 * memory of the wg objects is freed, and the instance, when released, leaks its VkInstance and
 * keeps the driver loaded, since the driver's threads may still run its code. */
static void device_destroy(wg_device *dev) {
    if (dev->device && dev->lost == WG_DEVICE_LOST_TIMEOUT) {
        dev->abandoned = true;
        keep_vulkan_objects(dev);
        dev->inst->abandoned_devices++;
    }
    if (dev->device) {
        if (!dev->lost) {
            wg__flush_pending(dev);
            wg__wait_serial(dev, dev->next_serial - 1, UINT64_MAX);
        }
        /* After a driver-reported loss the driver returns at once. */
        if (!dev->abandoned)
            dev->vk.vkDeviceWaitIdle(dev->device);
        dev->completed = dev->next_serial;
        wg__retire(dev);
        wg__garbage_collect(dev, true);
        wg__pipeline_cache_close(dev);
        wg__caches_destroy(dev);
        wg__staging_destroy(dev);
        wg__mem_destroy_all(dev);
        if (!dev->abandoned) {
            for (size_t i = 0; i < dev->npools; i++)
                dev->vk.vkDestroyDescriptorPool(dev->device, dev->pools[i], NULL);
            if (dev->cmd_pool)
                dev->vk.vkDestroyCommandPool(dev->device, dev->cmd_pool, NULL);
            if (dev->timeline)
                dev->vk.vkDestroySemaphore(dev->device, dev->timeline, NULL);
            dev->vk.vkDestroyDevice(dev->device, NULL);
        }
    }
    if (!dev->lost && dev->lost_cb && dev->device)
        dev->lost_cb(dev->lost_user, WG_DEVICE_LOST_DESTROYED, "device destroyed");
    wg__free(&dev->alloc, dev->pools);
    wg__free(&dev->alloc, dev->free_cbs);
    wg__free(&dev->alloc, dev->inflight);
    wg__free(&dev->alloc, dev->garbage);
    wg__free(&dev->alloc, dev->blocks);
    wg__free(&dev->alloc, dev->spare_used);
    for (size_t i = 0; i < dev->nbg_pool; i++)
        wg__free(&dev->alloc, dev->bg_pool[i]);
    wg__free(&dev->alloc, dev->bg_pool);
    for (uint32_t i = 0; i < dev->nreleased; i++)
        wg__free(&dev->alloc, dev->released[i]);
    for (size_t i = 0; i < dev->nbuf_spare; i++)
        wg__free(&dev->alloc, dev->buf_spare[i]);
    wg__free(&dev->alloc, dev->buf_spare);
    wg_instance *inst = dev->inst;
    wg__free(&dev->alloc, dev);
    wg_instance_release(inst);
}

const wg_limits *wg_device_get_limits(const wg_device *dev) {
    return dev ? &dev->limits : NULL;
}
bool wg_device_has_feature(const wg_device *dev, wg_feature f) {
    return dev && f > WG_FEATURE_NONE && f < WG_FEATURE_COUNT && (dev->features & WG_FEATURE_BIT(f));
}
wg_adapter *wg_device_get_adapter(wg_device *dev) {
    return dev ? dev->adapter : NULL;
}
wg_queue *wg_device_get_queue(wg_device *dev) {
    return dev ? &dev->queue : NULL;
}
bool wg_device_is_lost(const wg_device *dev) {
    return !dev || dev->lost != WG_DEVICE_LOST_NONE;
}
wg_device_lost_reason wg_device_lost_reason_get(const wg_device *dev, const char **message) {
    if (message)
        *message = dev ? dev->lost_message : "";
    return dev ? dev->lost : WG_DEVICE_LOST_UNKNOWN;
}
void wg_device_get_stats(const wg_device *dev, wg_device_stats *out) {
    if (!dev || !out)
        return;
    *out = dev->stats;
    out->validation_messages = dev->inst->validation_messages;
}
const char *wg_device_pipeline_cache_path(const wg_device *dev) {
    return dev ? dev->cache_path : "";
}
