/* fake_vulkan.c - a Vulkan "loader" for tests (build/tests/gpu/libwgfake.so): it forwards to the
 * real libvulkan.so.1, except that from the Nth vkQueueSubmit on ($WGC_FAKE_LOST_AFTER, 1-based)
 * every submit returns VK_ERROR_DEVICE_LOST without submitting, as a driver does after a GPU
 * reset.  test_lost points wg_instance_desc.vulkan_library at it. */
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance inst, const char *name);

static void *real_lib;
static PFN_vkGetInstanceProcAddr real_gipa;
static PFN_vkGetDeviceProcAddr real_gdpa;
static PFN_vkQueueSubmit real_submit;
static long submits;

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
