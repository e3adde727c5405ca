/* loader.c - finds Vulkan at run time: dlopen of the loader library and vkGetInstanceProcAddr,
 * then the global, instance and device entry points through the X-macro tables of internal.h.
 *
 * Nothing links against libvulkan: a missing loader is an ordinary error (WG_ERR_NO_LOADER),
 * reported by wg_instance_create with the package to install.  The library path comes from the
 * instance desc, then $WGC_VULKAN_LIB, then "libvulkan.so.1". */
#include <dlfcn.h>
#include <stdlib.h>

#include "gpu/internal.h"

void *wg__loader_open(const char *path, PFN_vkGetInstanceProcAddr *gipa) {
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return NULL;
    /* dlsym returns void *; copy the bits into the function pointer (ISO C forbids the cast). */
    void *sym = dlsym(lib, "vkGetInstanceProcAddr");
    if (!sym) {
        dlclose(lib);
        return NULL;
    }
    memcpy(gipa, &sym, sizeof *gipa);
    return lib;
}

void wg__loader_close(void *lib) {
    if (lib)
        dlclose(lib);
}

wg_error_id wg__load_global(wg_vk_fns *f) {
#define X(fn) f->fn = (PFN_##fn)f->vkGetInstanceProcAddr(NULL, #fn);
    WG_VK_GLOBAL_FNS(X)
#undef X
    if (!f->vkCreateInstance || !f->vkEnumerateInstanceExtensionProperties ||
        !f->vkEnumerateInstanceLayerProperties)
        return WG_ERR_LOADER_SYMBOL;
    return WG_ERR_NONE;
}

wg_error_id wg__load_instance(wg_vk_fns *f, VkInstance inst, const char **missing) {
#define X(fn) f->fn = (PFN_##fn)f->vkGetInstanceProcAddr(inst, #fn); \
    if (!f->fn) { *missing = #fn; return WG_ERR_LOADER_SYMBOL; }
    WG_VK_INSTANCE_FNS(X)
#undef X
    f->vkCreateDebugUtilsMessengerEXT =
        (PFN_vkCreateDebugUtilsMessengerEXT)f->vkGetInstanceProcAddr(inst, "vkCreateDebugUtilsMessengerEXT");
    f->vkDestroyDebugUtilsMessengerEXT =
        (PFN_vkDestroyDebugUtilsMessengerEXT)f->vkGetInstanceProcAddr(inst, "vkDestroyDebugUtilsMessengerEXT");
    f->vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR =
        (wg_PFN_coop_props)f->vkGetInstanceProcAddr(inst, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    f->vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV = (wg_PFN_coop_flex_props)f->vkGetInstanceProcAddr(
        inst, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
    return WG_ERR_NONE;
}

wg_error_id wg__load_device(const wg_vk_fns *f, VkDevice dev, wg_vk_dfns *d, const char **missing) {
#define X(fn) d->fn = (PFN_##fn)f->vkGetDeviceProcAddr(dev, #fn); \
    if (!d->fn) { *missing = #fn; return WG_ERR_LOADER_SYMBOL; }
    WG_VK_DEVICE_FNS(X)
#undef X
    d->vkCmdPushDescriptorSetKHR = (PFN_vkCmdPushDescriptorSetKHR)f->vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetKHR");
    d->vkGetPipelineExecutablePropertiesKHR = (PFN_vkGetPipelineExecutablePropertiesKHR)f->vkGetDeviceProcAddr(
        dev, "vkGetPipelineExecutablePropertiesKHR");
    d->vkGetPipelineExecutableStatisticsKHR = (PFN_vkGetPipelineExecutableStatisticsKHR)f->vkGetDeviceProcAddr(
        dev, "vkGetPipelineExecutableStatisticsKHR");
    return WG_ERR_NONE;
}
