/* instance.c - the instance (loader, VkInstance, validation messenger) and its adapters: every
 * physical device with its info, WebGPU-named limits, subgroup sizes, features and cooperative
 * matrix shapes, and the default adapter choice (discrete > integrated > virtual > cpu, or the
 * options' select: an index or a name substring).
 *
 * Adapters are owned by the instance; retaining an adapter retains its instance.  Validation
 * (VK_LAYER_KHRONOS_validation, asked for by wg_instance_desc.validation) installs a debug-utils
 * messenger that counts warnings and errors, so tests can assert there were none.  The adapter
 * list also comes as one JSON document (wg_instance_adapters_json), for the CLI and Python. */
#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu/internal.h"

static const char *const adapter_type_names[] = { "unknown", "discrete", "integrated", "virtual", "cpu" };
static_assert(sizeof adapter_type_names / sizeof adapter_type_names[0] == WG_ADAPTER_TYPE_COUNT, "adapter types");

const char *wg_adapter_type_name(wg_adapter_type t) {
    return (unsigned)t < WG_ADAPTER_TYPE_COUNT ? adapter_type_names[t] : "unknown";
}

static const char *const feature_names[] = {
    "none",
#define X(name, str) str,
    WG_FEATURES(X)
#undef X
};
static_assert(sizeof feature_names / sizeof feature_names[0] == WG_FEATURE_COUNT, "features out of sync");

const char *wg_feature_name(wg_feature f) {
    return (unsigned)f < WG_FEATURE_COUNT ? feature_names[f] : "?";
}

static const char *const component_names[] = { "unknown", "f16", "f32", "f64", "bf16", "i8", "i16", "i32",
                                                "i64", "u8", "u16", "u32", "u64" };
static_assert(sizeof component_names / sizeof component_names[0] == WG_COMPONENT_COUNT, "components");

const char *wg_component_type_name(wg_component_type t) {
    return (unsigned)t < WG_COMPONENT_COUNT ? component_names[t] : "unknown";
}

bool wg_adapter_info_has_coop_shape(const wg_adapter_info *info, uint32_t m, uint32_t n, uint32_t k,
                                    wg_component_type a, wg_component_type b, wg_component_type c,
                                    wg_component_type result) {
    if (!info || !(info->features & WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX)))
        return false;
    for (uint32_t i = 0; i < info->coop_shape_count && i < WG_MAX_COOP_SHAPES; i++) {
        const wg_coop_matrix_shape *s = &info->coop_shapes[i];
        if (s->m == m && s->n == n && s->k == k && s->a == a && s->b == b && s->c == c && s->result == result &&
            s->scope == 3)
            return true;
    }
    return false;
}

bool wg_adapter_info_has_wgm_shape(const wg_adapter_info *info, uint32_t invocations, uint32_t m, uint32_t n,
                                   uint32_t k, wg_component_type a, wg_component_type b, wg_component_type c,
                                   wg_component_type result) {
    if (!info || !(info->features & WG_FEATURE_BIT(WG_FEATURE_WORKGROUP_MATRIX)) || !m || !n || !k ||
        invocations > info->wgm_max_invocations || m > info->wgm_max_dimension || n > info->wgm_max_dimension ||
        k > info->wgm_max_dimension)
        return false;
    for (uint32_t i = 0; i < info->flex_shape_count && i < WG_MAX_COOP_SHAPES; i++) {
        const wg_coop_flex_shape *s = &info->flex_shapes[i];
        if (s->scope == 2 && s->invocations == invocations && s->a == a && s->b == b && s->c == c &&
            s->result == result && s->m_granularity && s->n_granularity && s->k_granularity &&
            m % s->m_granularity == 0 && n % s->n_granularity == 0 && k % s->k_granularity == 0)
            return true;
    }
    return false;
}

static wg_component_type component_from_vk(int32_t v) {
    static const wg_component_type map[] = { WG_COMPONENT_F16, WG_COMPONENT_F32, WG_COMPONENT_F64, WG_COMPONENT_I8,
                                             WG_COMPONENT_I16, WG_COMPONENT_I32, WG_COMPONENT_I64, WG_COMPONENT_U8,
                                             WG_COMPONENT_U16, WG_COMPONENT_U32, WG_COMPONENT_U64 };
    if (v >= 0 && (size_t)v < sizeof map / sizeof map[0])
        return map[v];
    return v == 1000141000 ? WG_COMPONENT_BF16 : WG_COMPONENT_UNKNOWN;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL debug_cb(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                               VkDebugUtilsMessageTypeFlagsEXT types,
                                               const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
    wg_instance *inst = user;
    if (sev & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
        inst->validation_messages++;
        fprintf(stderr, "wg: vulkan validation: %s\n", data && data->pMessage ? data->pMessage : "?");
    }
    return VK_FALSE;
}

static bool has_ext(const VkExtensionProperties *e, uint32_t n, const char *name) {
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(e[i].extensionName, name))
            return true;
    return false;
}

static const char *vendor_name(uint32_t id) {
    switch (id) {
    case 0x10DE: return "nvidia";
    case 0x1002: return "amd";
    case 0x8086: return "intel";
    case 0x13B5: return "arm";
    case 0x5143: return "qualcomm";
    case 0x106B: return "apple";
    case 0x10005: return "mesa";
    default: return "unknown";
    }
}

/* Fills one adapter; false if the host allocation for extension lists fails. */
static bool adapter_fill(wg_instance *inst, wg_adapter *ad, VkPhysicalDevice pd) {
    const wg_vk_fns *vk = &inst->vk;
    ad->inst = inst;
    ad->pd = pd;
    wg_adapter_info *info = &ad->info;

    VkPhysicalDeviceProperties base;
    vk->vkGetPhysicalDeviceProperties(pd, &base);
    ad->vk_api = base.apiVersion;

    uint32_t next = 0;
    vk->vkEnumerateDeviceExtensionProperties(pd, NULL, &next, NULL);
    VkExtensionProperties *exts = wg__alloc(&inst->alloc, (next + 1) * sizeof *exts);
    if (!exts)
        return false;
    vk->vkEnumerateDeviceExtensionProperties(pd, NULL, &next, exts);
    ad->ext_robustness2 = has_ext(exts, next, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
    ad->ext_push_descriptor = has_ext(exts, next, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    ad->ext_coop = has_ext(exts, next, "VK_KHR_cooperative_matrix");
    ad->ext_coop2 = ad->ext_coop && has_ext(exts, next, "VK_NV_cooperative_matrix2");
    ad->ext_subgroup_size_control = has_ext(exts, next, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    ad->ext_exec_props = has_ext(exts, next, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    bool maint4 = has_ext(exts, next, VK_KHR_MAINTENANCE_4_EXTENSION_NAME);
    ad->creation_feedback = base.apiVersion >= VK_API_VERSION_1_3 ||
                            has_ext(exts, next, VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME);
    wg__free(&inst->alloc, exts);

    bool v12 = base.apiVersion >= VK_API_VERSION_1_2, v13 = base.apiVersion >= VK_API_VERSION_1_3;
    VkPhysicalDeviceVulkan11Properties p11 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES };
    VkPhysicalDeviceVulkan12Properties p12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES };
    VkPhysicalDeviceSubgroupSizeControlProperties psg = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES };
    VkPhysicalDeviceMaintenance4Properties pm4 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES };
    wg_vk_coop2_props pcm2 = { .sType = WG_STYPE_COOP2_PROPS };
    VkPhysicalDeviceProperties2 p2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 };
    if (v12) {
        p2.pNext = &p11;
        p11.pNext = &p12;
        void **tail = &p12.pNext;
        if (v13 || ad->ext_subgroup_size_control) {
            *tail = &psg;
            tail = &psg.pNext;
        }
        if (v13 || maint4) {
            *tail = &pm4;
            tail = &pm4.pNext;
        }
        if (ad->ext_coop2)
            *tail = &pcm2;
        vk->vkGetPhysicalDeviceProperties2(pd, &p2);
    } else {
        p2.properties = base;
    }
    const VkPhysicalDeviceLimits *L = &base.limits;

    snprintf(info->name, sizeof info->name, "%s", base.deviceName);
    info->vendor_id = base.vendorID;
    info->device_id = base.deviceID;
    snprintf(info->vendor, sizeof info->vendor, "%s", vendor_name(base.vendorID));
    if (v12) {
        snprintf(info->driver_name, sizeof info->driver_name, "%s", p12.driverName);
        snprintf(info->driver_info, sizeof info->driver_info, "%s", p12.driverInfo);
        memcpy(info->device_uuid, p11.deviceUUID, 16);
        memcpy(info->driver_uuid, p11.driverUUID, 16);
    }
    static const wg_adapter_type types[] = { WG_ADAPTER_TYPE_UNKNOWN, WG_ADAPTER_TYPE_INTEGRATED,
                                             WG_ADAPTER_TYPE_DISCRETE, WG_ADAPTER_TYPE_VIRTUAL, WG_ADAPTER_TYPE_CPU };
    info->type = (unsigned)base.deviceType < 5 ? types[base.deviceType] : WG_ADAPTER_TYPE_UNKNOWN;
    info->api_version = base.apiVersion;
    info->driver_version = base.driverVersion;
    info->timestamp_period_ns = L->timestampPeriod;
    if (psg.minSubgroupSize) {
        info->subgroup_min_size = psg.minSubgroupSize;
        info->subgroup_max_size = psg.maxSubgroupSize;
    } else {
        info->subgroup_min_size = info->subgroup_max_size = p11.subgroupSize;
    }

    vk->vkGetPhysicalDeviceMemoryProperties(pd, &ad->mem);
    for (uint32_t i = 0; i < ad->mem.memoryHeapCount; i++)
        if ((ad->mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
            ad->mem.memoryHeaps[i].size > info->device_local_bytes)
            info->device_local_bytes = ad->mem.memoryHeaps[i].size;

    uint32_t nq = 0;
    vk->vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties qf[16];
    if (nq > 16)
        nq = 16;
    vk->vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
    ad->queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < nq; i++)
        if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            ad->queue_family = i;
            ad->timestamp_valid_bits = qf[i].timestampValidBits;
            break;
        }

    /* features */
    VkPhysicalDeviceVulkan11Features f11 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES };
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
    VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
    VkPhysicalDeviceRobustness2FeaturesEXT fr2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT };
    struct { VkStructureType sType; void *pNext; VkBool32 coop, robust; } fcoop = { WG_STYPE_COOP_FEATURES, NULL, 0, 0 };
    wg_vk_coop2_features fcm2 = { .sType = WG_STYPE_COOP2_FEATURES };
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR fexe = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 };
    bool robust2 = false, coop = false;
    if (v12) {
        f2.pNext = &f11;
        f11.pNext = &f12;
        void **tail = &f12.pNext;
        if (v13) {
            *tail = &f13;
            tail = &f13.pNext;
        }
        if (ad->ext_robustness2) {
            *tail = &fr2;
            tail = &fr2.pNext;
        }
        if (ad->ext_coop) {
            *tail = &fcoop;
            tail = &fcoop.pNext;
        }
        if (ad->ext_coop2) {
            *tail = &fcm2;
            tail = &fcm2.pNext;
        }
        if (ad->ext_exec_props)
            *tail = &fexe;
        vk->vkGetPhysicalDeviceFeatures2(pd, &f2);
        ad->timeline = f12.timelineSemaphore;
        ad->host_query_reset = f12.hostQueryReset;
        ad->f16_arith = f12.shaderFloat16;
        ad->storage16 = f11.storageBuffer16BitAccess;
        ad->uniform16 = f11.uniformAndStorageBuffer16BitAccess;
        ad->sg_size_control = f13.subgroupSizeControl;
        ad->full_subgroups = f13.computeFullSubgroups;
        robust2 = fr2.robustBufferAccess2;
        coop = fcoop.coop;
        ad->ext_exec_props = ad->ext_exec_props && fexe.pipelineExecutableInfo;
    }
    ad->int64 = f2.features.shaderInt64;

    uint64_t feat = 0;
    if (ad->f16_arith && ad->storage16)
        feat |= WG_FEATURE_BIT(WG_FEATURE_SHADER_F16);
    const VkSubgroupFeatureFlags sgops = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                         VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                         VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
    if (v12 && (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
        (p11.subgroupSupportedOperations & sgops) == sgops)
        feat |= WG_FEATURE_BIT(WG_FEATURE_SUBGROUPS);
    if (L->timestampComputeAndGraphics || ad->timestamp_valid_bits)
        if (ad->timestamp_valid_bits)
            feat |= WG_FEATURE_BIT(WG_FEATURE_TIMESTAMP_QUERY);
    if (robust2)
        feat |= WG_FEATURE_BIT(WG_FEATURE_ROBUST_BUFFER_ACCESS2);
    if (coop)
        feat |= WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX);
    bool wgm = coop && ad->ext_coop2 && fcm2.workgroup_scope && fcm2.flexible_dimensions && v13 &&
               vk->vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV;
    if (wgm)
        feat |= WG_FEATURE_BIT(WG_FEATURE_WORKGROUP_MATRIX);
    if (ad->sg_size_control)
        feat |= WG_FEATURE_BIT(WG_FEATURE_SUBGROUP_SIZE_CONTROL);
    if (ad->int64)
        feat |= WG_FEATURE_BIT(WG_FEATURE_SHADER_INT64);
    if (ad->ext_push_descriptor)
        feat |= WG_FEATURE_BIT(WG_FEATURE_PUSH_DESCRIPTORS);
    if (v12 && ad->ext_exec_props)
        feat |= WG_FEATURE_BIT(WG_FEATURE_PIPELINE_STATISTICS);
    info->features = feat;

    if (coop && vk->vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR) {
        uint32_t n = 0;
        vk->vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(pd, &n, NULL);
        wg_vk_coop_props props[WG_MAX_COOP_SHAPES];
        if (n > WG_MAX_COOP_SHAPES)
            n = WG_MAX_COOP_SHAPES;
        for (uint32_t i = 0; i < n; i++)
            props[i] = (wg_vk_coop_props){ .sType = WG_STYPE_COOP_PROPS };
        VkResult r = vk->vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(pd, &n, props);
        if (r == VK_SUCCESS || r == VK_INCOMPLETE) {
            info->coop_shape_count = n;
            for (uint32_t i = 0; i < n; i++)
                info->coop_shapes[i] = (wg_coop_matrix_shape){
                    props[i].MSize, props[i].NSize, props[i].KSize, component_from_vk(props[i].AType),
                    component_from_vk(props[i].BType), component_from_vk(props[i].CType),
                    component_from_vk(props[i].ResultType), props[i].saturatingAccumulation != 0,
                    (uint32_t)props[i].scope };
        }
    }

    if (wgm) {
        uint32_t n = 0;
        vk->vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV(pd, &n, NULL);
        wg_vk_coop_flex_props props[WG_MAX_COOP_SHAPES];
        if (n > WG_MAX_COOP_SHAPES)
            n = WG_MAX_COOP_SHAPES;
        for (uint32_t i = 0; i < n; i++)
            props[i] = (wg_vk_coop_flex_props){ .sType = WG_STYPE_COOP_FLEX_PROPS };
        VkResult r = vk->vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV(pd, &n, props);
        if (r == VK_SUCCESS || r == VK_INCOMPLETE) {
            info->flex_shape_count = n;
            for (uint32_t i = 0; i < n; i++)
                info->flex_shapes[i] = (wg_coop_flex_shape){
                    props[i].MGranularity, props[i].NGranularity, props[i].KGranularity,
                    component_from_vk(props[i].AType), component_from_vk(props[i].BType),
                    component_from_vk(props[i].CType), component_from_vk(props[i].ResultType),
                    props[i].saturatingAccumulation != 0, (uint32_t)props[i].scope, props[i].workgroupInvocations };
        }
        info->wgm_max_invocations = pcm2.wg_max_invocations;
        info->wgm_max_dimension = pcm2.flex_max_dimension;
        info->wgm_reserved_shared_memory = pcm2.wg_reserved_shared_memory;
    }

    /* limits */
    wg_limits *l = &ad->limits;
    l->max_storage_buffer_binding_size = L->maxStorageBufferRange;
    l->max_buffer_size = pm4.maxBufferSize ? pm4.maxBufferSize : L->maxStorageBufferRange;
    l->max_uniform_buffer_binding_size = L->maxUniformBufferRange;
    l->max_compute_workgroup_storage_size = L->maxComputeSharedMemorySize;
    l->max_compute_invocations_per_workgroup = L->maxComputeWorkGroupInvocations;
    l->max_compute_workgroup_size_x = L->maxComputeWorkGroupSize[0];
    l->max_compute_workgroup_size_y = L->maxComputeWorkGroupSize[1];
    l->max_compute_workgroup_size_z = L->maxComputeWorkGroupSize[2];
    uint32_t wgc = L->maxComputeWorkGroupCount[0];
    if (L->maxComputeWorkGroupCount[1] < wgc)
        wgc = L->maxComputeWorkGroupCount[1];
    if (L->maxComputeWorkGroupCount[2] < wgc)
        wgc = L->maxComputeWorkGroupCount[2];
    l->max_compute_workgroups_per_dimension = wgc;
    l->max_bind_groups = L->maxBoundDescriptorSets < WG_MAX_BIND_GROUPS ? L->maxBoundDescriptorSets : WG_MAX_BIND_GROUPS;
    l->max_bindings_per_bind_group = L->maxPerStageResources < 1000 ? L->maxPerStageResources : 1000;
    l->max_storage_buffers_per_shader_stage = L->maxPerStageDescriptorStorageBuffers;
    l->max_uniform_buffers_per_shader_stage = L->maxPerStageDescriptorUniformBuffers;
    l->max_dynamic_storage_buffers_per_pipeline_layout =
        L->maxDescriptorSetStorageBuffersDynamic < 8 ? L->maxDescriptorSetStorageBuffersDynamic : 8;
    l->max_dynamic_uniform_buffers_per_pipeline_layout =
        L->maxDescriptorSetUniformBuffersDynamic < 8 ? L->maxDescriptorSetUniformBuffersDynamic : 8;
    l->min_storage_buffer_offset_alignment = L->minStorageBufferOffsetAlignment < 4 ? 4 : L->minStorageBufferOffsetAlignment;
    l->min_uniform_buffer_offset_alignment = L->minUniformBufferOffsetAlignment < 4 ? 4 : L->minUniformBufferOffsetAlignment;
    l->max_push_constant_size = L->maxPushConstantsSize;
    return true;
}

wg_instance *wg_instance_create(const wg_instance_desc *desc, wg_error *err) {
    static const wg_instance_desc zero;
    if (!desc)
        desc = &zero;
    if (err)
        wg__error_fill(err, WG_ERR_NONE, NULL), err->type = WG_ERROR_TYPE_NONE;
    wg_instance *inst = wg__calloc(&desc->allocator, sizeof *inst);
    if (!inst) {
        wg__error_fill(err, WG_ERR_HOST_OOM, "creating the instance");
        return NULL;
    }
    inst->refs = 1;
    inst->alloc = desc->allocator;
    if (desc->label)
        snprintf(inst->label, sizeof inst->label, "%s", desc->label);

    const char *path = desc->vulkan_library;
    if (!path || !*path)
        path = "libvulkan.so.1";
    inst->lib = wg__loader_open(path, &inst->vk.vkGetInstanceProcAddr);
    if (!inst->lib) {
        wg__error_fill(err, WG_ERR_NO_LOADER, "cannot load '%s'", path);
        goto fail;
    }
    if (wg__load_global(&inst->vk) != WG_ERR_NONE) {
        wg__error_fill(err, WG_ERR_LOADER_SYMBOL, "'%s' lacks vkCreateInstance", path);
        goto fail;
    }

    bool validation = desc->validation > 0;
    const char *layers[1], *exts[3];
    uint32_t nlayers = 0, nexts = 0;
    if (validation) {
        uint32_t n = 0;
        inst->vk.vkEnumerateInstanceLayerProperties(&n, NULL);
        VkLayerProperties *lp = wg__alloc(&inst->alloc, (n + 1) * sizeof *lp);
        if (!lp) {
            wg__error_fill(err, WG_ERR_HOST_OOM, "layer list");
            goto fail;
        }
        inst->vk.vkEnumerateInstanceLayerProperties(&n, lp);
        bool found = false;
        for (uint32_t i = 0; i < n; i++)
            found |= !strcmp(lp[i].layerName, "VK_LAYER_KHRONOS_validation");
        wg__free(&inst->alloc, lp);
        if (!found) {
            wg__error_fill(err, WG_ERR_INSTANCE_CREATE,
                           "validation requested but VK_LAYER_KHRONOS_validation is missing "
                           "(apt-get install vulkan-validationlayers)");
            goto fail;
        }
        layers[nlayers++] = "VK_LAYER_KHRONOS_validation";
        exts[nexts++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        exts[nexts++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
    }
    /* Synchronization validation checks our hazard tracking: a missing barrier is a message. */
    VkValidationFeatureEnableEXT vfe[] = { VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT };
    VkValidationFeaturesEXT vf = { .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                   .enabledValidationFeatureCount = 1, .pEnabledValidationFeatures = vfe };
    uint32_t api = VK_API_VERSION_1_2;
    if (inst->vk.vkEnumerateInstanceVersion) {
        uint32_t v = 0;
        inst->vk.vkEnumerateInstanceVersion(&v);
        api = v >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : v >= VK_API_VERSION_1_2 ? VK_API_VERSION_1_2 : v;
    }
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "wgc",
                              .pEngineName = "wgc", .apiVersion = api };
    VkInstanceCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pNext = validation ? &vf : NULL,
                                .pApplicationInfo = &app,
                                .enabledLayerCount = nlayers, .ppEnabledLayerNames = layers,
                                .enabledExtensionCount = nexts, .ppEnabledExtensionNames = exts };
    VkResult r = inst->vk.vkCreateInstance(&ci, NULL, &inst->instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER) {
        wg__error_fill(err, WG_ERR_NO_DRIVER, "the loader found no usable driver (VK_ERROR_INCOMPATIBLE_DRIVER)");
        goto fail;
    }
    if (r != VK_SUCCESS) {
        wg__error_fill(err, r == VK_ERROR_OUT_OF_HOST_MEMORY ? WG_ERR_HOST_OOM : WG_ERR_INSTANCE_CREATE,
                       "VkResult %d", (int)r);
        goto fail;
    }
    const char *missing = "";
    if (wg__load_instance(&inst->vk, inst->instance, &missing) != WG_ERR_NONE) {
        wg__error_fill(err, WG_ERR_LOADER_SYMBOL, "%s", missing);
        goto fail;
    }
    if (validation && inst->vk.vkCreateDebugUtilsMessengerEXT) {
        VkDebugUtilsMessengerCreateInfoEXT mci = {
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
            .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
            .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
            .pfnUserCallback = debug_cb, .pUserData = inst };
        if (inst->vk.vkCreateDebugUtilsMessengerEXT(inst->instance, &mci, NULL, &inst->messenger) == VK_SUCCESS)
            inst->validation = true;
    }

    uint32_t npd = 0;
    r = inst->vk.vkEnumeratePhysicalDevices(inst->instance, &npd, NULL);
    if (r != VK_SUCCESS || npd == 0) {
        wg__error_fill(err, WG_ERR_NO_DRIVER, "no physical device (VkResult %d)", (int)r);
        goto fail;
    }
    VkPhysicalDevice pds[32];
    if (npd > 32)
        npd = 32;
    inst->vk.vkEnumeratePhysicalDevices(inst->instance, &npd, pds);
    inst->adapters = wg__calloc(&inst->alloc, npd * sizeof *inst->adapters);
    if (!inst->adapters) {
        wg__error_fill(err, WG_ERR_HOST_OOM, "adapter list");
        goto fail;
    }
    for (uint32_t i = 0; i < npd; i++) {
        if (!adapter_fill(inst, &inst->adapters[i], pds[i])) {
            wg__error_fill(err, WG_ERR_HOST_OOM, "adapter info");
            goto fail;
        }
        inst->adapter_count = i + 1;
    }
    return inst;
fail:
    inst->refs = 1;
    wg_instance_release(inst);
    return NULL;
}

void wg_instance_retain(wg_instance *inst) {
    if (inst)
        inst->refs++;
}

void wg_instance_release(wg_instance *inst) {
    if (!inst || --inst->refs > 0)
        return;
    if (inst->abandoned_devices) {
        /* a device of it was abandoned (device.c): its work may still run in the driver's
         * threads, so neither the VkInstance nor the driver's code may go */
        wg__keep_forever(inst->instance);
        wg__free(&inst->alloc, inst->adapters);
        wg_allocator a = inst->alloc;
        wg__free(&a, inst);
        return;
    }
    if (inst->messenger && inst->vk.vkDestroyDebugUtilsMessengerEXT)
        inst->vk.vkDestroyDebugUtilsMessengerEXT(inst->instance, inst->messenger, NULL);
    if (inst->instance && inst->vk.vkDestroyInstance)
        inst->vk.vkDestroyInstance(inst->instance, NULL);
    wg__loader_close(inst->lib);
    wg__free(&inst->alloc, inst->adapters);
    wg_allocator a = inst->alloc;
    wg__free(&a, inst);
}

uint64_t wg_instance_validation_message_count(const wg_instance *inst) {
    return inst ? inst->validation_messages : 0;
}
bool wg_instance_validation_enabled(const wg_instance *inst) {
    return inst && inst->validation;
}

size_t wg_instance_adapter_count(const wg_instance *inst) {
    return inst ? inst->adapter_count : 0;
}

wg_adapter *wg_instance_get_adapter(wg_instance *inst, size_t index) {
    return inst && index < inst->adapter_count ? &inst->adapters[index] : NULL;
}

static bool usable(const wg_adapter *ad) {
    return ad->vk_api >= VK_API_VERSION_1_2 && ad->timeline && ad->queue_family != UINT32_MAX;
}

static bool contains_nocase(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return n == 0;
}

wg_adapter *wg_instance_request_adapter(wg_instance *inst, const wg_adapter_options *opt, wg_error *err) {
    static const wg_adapter_options zero;
    if (!opt)
        opt = &zero;
    if (err)
        wg__error_fill(err, WG_ERR_NONE, NULL), err->type = WG_ERROR_TYPE_NONE;
    if (!inst) {
        wg__error_fill(err, WG_ERR_NULL_OBJECT, "instance is NULL");
        return NULL;
    }
    const char *sel = opt->select;
    if (sel && *sel) {
        char *end;
        unsigned long idx = strtoul(sel, &end, 10);
        if (*end == 0) {
            if (idx < inst->adapter_count)
                return &inst->adapters[idx];
            wg__error_fill(err, WG_ERR_NO_ADAPTER, "adapter index %lu, only %zu adapters", idx, inst->adapter_count);
            return NULL;
        }
        for (size_t i = 0; i < inst->adapter_count; i++)
            if (contains_nocase(inst->adapters[i].info.name, sel))
                return &inst->adapters[i];
        wg__error_fill(err, WG_ERR_NO_ADAPTER, "no adapter name contains '%s'", sel);
        return NULL;
    }
    static const int rank_perf[] = { 4, 0, 1, 2, 3 }, rank_low[] = { 4, 1, 0, 2, 3 };
    const int *rank = opt->power_preference == WG_POWER_PREFERENCE_LOW_POWER ? rank_low : rank_perf;
    wg_adapter *best = NULL;
    for (size_t i = 0; i < inst->adapter_count; i++) {
        wg_adapter *ad = &inst->adapters[i];
        if (!usable(ad))
            continue;
        if (!best || rank[ad->info.type] < rank[best->info.type])
            best = ad;
    }
    if (!best)
        wg__error_fill(err, WG_ERR_NO_ADAPTER, "none of %zu adapters supports Vulkan 1.2 compute", inst->adapter_count);
    return best;
}

void wg_adapter_retain(wg_adapter *ad) {
    if (ad)
        wg_instance_retain(ad->inst);
}
void wg_adapter_release(wg_adapter *ad) {
    if (ad)
        wg_instance_release(ad->inst);
}
const wg_adapter_info *wg_adapter_get_info(const wg_adapter *ad) {
    return ad ? &ad->info : NULL;
}
const wg_limits *wg_adapter_get_limits(const wg_adapter *ad) {
    return ad ? &ad->limits : NULL;
}
bool wg_adapter_has_feature(const wg_adapter *ad, wg_feature f) {
    return ad && f > WG_FEATURE_NONE && f < WG_FEATURE_COUNT && (ad->info.features & WG_FEATURE_BIT(f));
}

/* ---- the adapters as JSON (`wgc info --json`, python/wgc's list_adapters) ------------------ */
typedef struct jbuf {
    char *buf;
    size_t cap, len;   /* len counts every byte asked for, written or not */
} jbuf;

static void jputs(jbuf *j, const char *s) {
    size_t n = strlen(s);
    if (j->len < j->cap) {
        size_t room = j->cap - j->len - 1, k = n < room ? n : room;
        memcpy(j->buf + j->len, s, k);
        j->buf[j->len + k] = 0;
    }
    j->len += n;
}

static void jprintf(jbuf *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jprintf(jbuf *j, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    jputs(j, tmp);
}

static void jstr(jbuf *j, const char *s) {
    jputs(j, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char e[8] = { (char)c, 0 };
        if (c == '"' || c == '\\')
            e[0] = '\\', e[1] = (char)c, e[2] = 0;
        else if (c < 0x20)
            snprintf(e, sizeof e, "\\u%04x", c);
        jputs(j, e);
    }
    jputs(j, "\"");
}

size_t wg_instance_adapters_json(wg_instance *inst, const wg_adapter_options *opt, char *buf, size_t cap) {
    jbuf j = { buf, cap, 0 };
    if (buf && cap)
        buf[0] = 0;
    wg_error err;
    const wg_adapter *def = inst ? wg_instance_request_adapter(inst, opt, &err) : NULL;
    size_t n = inst ? wg_instance_adapter_count(inst) : 0;
    jputs(&j, "{\"adapters\":[");
    for (size_t i = 0; i < n; i++) {
        const wg_adapter *ad = wg_instance_get_adapter(inst, i);
        const wg_adapter_info *in = wg_adapter_get_info(ad);
        const wg_limits *l = wg_adapter_get_limits(ad);
        jprintf(&j, "%s{\"index\":%zu,\"default\":%s,\"name\":", i ? "," : "", i, ad == def ? "true" : "false");
        jstr(&j, in->name);
        jprintf(&j, ",\"type\":\"%s\",\"vendor\":", wg_adapter_type_name(in->type));
        jstr(&j, in->vendor);
        jprintf(&j, ",\"vendorId\":%u,\"deviceId\":%u,\"driverName\":", in->vendor_id, in->device_id);
        jstr(&j, in->driver_name);
        jputs(&j, ",\"driverInfo\":");
        jstr(&j, in->driver_info);
        char uuid[40], *u = uuid;
        for (int b = 0; b < 16; b++) {
            u += snprintf(u, 3, "%02x", in->device_uuid[b]);
            if (b == 3 || b == 5 || b == 7 || b == 9)
                *u++ = '-';
        }
        *u = 0;
        jprintf(&j, ",\"driverVersion\":%u,\"apiVersion\":\"%u.%u.%u\",\"deviceUuid\":\"%s\"", in->driver_version,
                in->api_version >> 22, (in->api_version >> 12) & 0x3ff, in->api_version & 0xfff, uuid);
        jprintf(&j, ",\"subgroupMinSize\":%u,\"subgroupMaxSize\":%u,\"timestampPeriodNs\":%g,\"deviceLocalBytes\":%llu",
                in->subgroup_min_size, in->subgroup_max_size, in->timestamp_period_ns,
                (unsigned long long)in->device_local_bytes);
        jputs(&j, ",\"features\":[");
        int first = 1;
        for (int f = 1; f < WG_FEATURE_COUNT; f++)
            if (in->features & WG_FEATURE_BIT(f)) {
                jprintf(&j, "%s\"%s\"", first ? "" : ",", wg_feature_name((wg_feature)f));
                first = 0;
            }
        jputs(&j, "],\"limits\":{");
        first = 1;
#define X(field, name, kind) jprintf(&j, "%s\"%s\":%llu", first ? "" : ",", name, (unsigned long long)l->field), first = 0;
        WG_LIMITS(X)
#undef X
        jputs(&j, "},\"cooperativeMatrixShapes\":[");
        for (uint32_t k = 0; k < in->coop_shape_count; k++) {
            const wg_coop_matrix_shape *s = &in->coop_shapes[k];
            jprintf(&j, "%s{\"m\":%u,\"n\":%u,\"k\":%u,\"a\":\"%s\",\"b\":\"%s\",\"c\":\"%s\",\"result\":\"%s\",\"scope\":%u}",
                    k ? "," : "", s->m, s->n, s->k, wg_component_type_name(s->a), wg_component_type_name(s->b),
                    wg_component_type_name(s->c), wg_component_type_name(s->result), s->scope);
        }
        jputs(&j, "]}");
    }
    jputs(&j, "]}");
    return j.len;
}
