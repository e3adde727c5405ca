/* fake_vulkan.c - a Vulkan "loader" for tests (build/tests/gpu/libwgfake.so): it forwards to the
 * real libvulkan.so.1, except that from the Nth vkQueueSubmit on ($WGC_FAKE_LOST_AFTER, 1-based)
 * every submit returns VK_ERROR_DEVICE_LOST without submitting, as a driver does after a GPU
 * reset, and that vkCreateComputePipelines first sleeps $WGC_FAKE_SLOW_PIPELINE_MS milliseconds,
 * as a driver compiling a huge kernel does.  test_lost points wg_instance_desc.vulkan_library at
 * it. */
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance inst, const char *name);

static void *real_lib;
static PFN_vkGetInstanceProcAddr real_gipa;
static PFN_vkGetDeviceProcAddr real_gdpa;
static PFN_vkQueueSubmit real_submit;
static PFN_vkCreateComputePipelines real_create;
static long submits;

static VKAPI_ATTR VkResult VKAPI_CALL fake_create(VkDevice dev, VkPipelineCache cache, uint32_t n,
                                                  const VkComputePipelineCreateInfo *info,
                                                  const VkAllocationCallbacks *alloc, VkPipeline *out) {
    const char *ms = getenv("WGC_FAKE_SLOW_PIPELINE_MS");
    long t = ms ? atol(ms) : 0;
    if (t > 0) {
        struct timespec d = { t / 1000, (t % 1000) * 1000000L };
        while (nanosleep(&d, &d) != 0) {
        }
    }
    return real_create(dev, cache, n, info, alloc, out);
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_submit(VkQueue q, uint32_t n, const VkSubmitInfo *s, VkFence f) {
    const char *after = getenv("WGC_FAKE_LOST_AFTER");
    if (after && ++submits >= atol(after))
        return VK_ERROR_DEVICE_LOST;
    return real_submit(q, n, s, f);
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL fake_gdpa(VkDevice dev, const char *name) {
    PFN_vkVoidFunction f = real_gdpa(dev, name);
    if (f && !strcmp(name, "vkQueueSubmit")) {
        real_submit = (PFN_vkQueueSubmit)f;
        return (PFN_vkVoidFunction)fake_submit;
    }
    if (f && !strcmp(name, "vkCreateComputePipelines")) {
        real_create = (PFN_vkCreateComputePipelines)f;
        return (PFN_vkVoidFunction)fake_create;
    }
    return f;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance inst, const char *name) {
    if (!real_lib) {
        real_lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
        void *sym = real_lib ? dlsym(real_lib, "vkGetInstanceProcAddr") : NULL;
        if (!sym)
            return NULL;
        memcpy(&real_gipa, &sym, sizeof real_gipa);
    }
    PFN_vkVoidFunction f = real_gipa(inst, name);
    if (f && !strcmp(name, "vkGetDeviceProcAddr")) {
        real_gdpa = (PFN_vkGetDeviceProcAddr)f;
        return (PFN_vkVoidFunction)fake_gdpa;
    }
    return f;
}
