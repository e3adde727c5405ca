/* coop_pipestats.c - scratch tool (not built by make, not a test): the driver's statistics of compute
 * pipelines (VK_KHR_pipeline_executable_properties: registers, spills, shared memory, whatever
 * the driver reports) and its internal representations where it gives them (written to files).
 * Usage: coop_pipestats OUTDIR LAYOUT FILE.spv [LAYOUT FILE.spv ...]; LAYOUT names each set's
 * bindings by kind, sets separated by '/': "ssss/u" = set 0 bindings 0..3 storage buffers, set 1
 * binding 0 a uniform buffer (matmul_coop.wgsl).  Every feature the device has is enabled.
 * Build: cc -std=c11 -O1 -I<vulkan headers> coop_pipestats.c -o coop_pipestats -ldl */
#define VK_NO_PROTOTYPES
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

typedef struct {   /* VkPhysicalDeviceCooperativeMatrixFeaturesKHR, spelled out for older headers */
    VkStructureType sType;
    void *pNext;
    VkBool32 cooperativeMatrix, cooperativeMatrixRobustBufferAccess;
} coop_features;

static PFN_vkGetInstanceProcAddr gipa;
#define F(inst, name) ((PFN_##name)gipa(inst, #name))

static unsigned char *read_file(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long l = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc((size_t)l);
    if (p && fread(p, 1, (size_t)l, f) != (size_t)l) { free(p); p = NULL; }
    fclose(f);
    *n = (size_t)l;
    return p;
}

int main(int argc, char **argv) {
    if (argc < 4 || argc % 2) {
        fprintf(stderr, "usage: coop_pipestats OUTDIR LAYOUT FILE.spv [LAYOUT FILE.spv ...]\n");
        return 2;
    }
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW);
    if (!lib) { fprintf(stderr, "no libvulkan.so.1\n"); return 1; }
    void *sym = dlsym(lib, "vkGetInstanceProcAddr");
    memcpy(&gipa, &sym, sizeof gipa);
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3 };
    VkInstance inst;
    if (F(NULL, vkCreateInstance)(&(VkInstanceCreateInfo){ .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                                           .pApplicationInfo = &app }, NULL, &inst)) {
        fprintf(stderr, "vkCreateInstance failed\n");
        return 1;
    }
    uint32_t np = 1;
    VkPhysicalDevice pd;
    F(inst, vkEnumeratePhysicalDevices)(inst, &np, &pd);
    if (!np) { fprintf(stderr, "no device\n"); return 1; }
    VkPhysicalDeviceProperties props;
    F(inst, vkGetPhysicalDeviceProperties)(pd, &props);
    printf("device %s, maxComputeSharedMemorySize %u\n", props.deviceName, props.limits.maxComputeSharedMemorySize);
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pe = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR };
    coop_features cm = { .sType = (VkStructureType)1000506000, .pNext = &pe };
    VkPhysicalDeviceVulkan13Features v13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .pNext = &cm };
    VkPhysicalDeviceVulkan12Features v12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &v13 };
    VkPhysicalDeviceVulkan11Features v11 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &v12 };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &v11 };
    F(inst, vkGetPhysicalDeviceFeatures2)(pd, &f2);
    f2.features.robustBufferAccess = VK_FALSE;
    v13.robustImageAccess = VK_FALSE;
    printf("pipelineExecutableInfo %u, cooperativeMatrix %u\n", pe.pipelineExecutableInfo, cm.cooperativeMatrix);
    const char *want[] = { "VK_KHR_pipeline_executable_properties", "VK_KHR_cooperative_matrix" }, *exts[2];
    uint32_t nx = 0, nav = 0;
    F(inst, vkEnumerateDeviceExtensionProperties)(pd, NULL, &nav, NULL);
    VkExtensionProperties *av = calloc(nav + 1, sizeof *av);
    F(inst, vkEnumerateDeviceExtensionProperties)(pd, NULL, &nav, av);
    for (int w = 0; w < 2; w++)
        for (uint32_t i = 0; i < nav; i++)
            if (!strcmp(av[i].extensionName, want[w])) exts[nx++] = want[w];
    free(av);
    if (!pe.pipelineExecutableInfo) printf("no pipeline executable statistics on this device\n");
    float prio = 1;
    VkDeviceQueueCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueCount = 1,
                                   .pQueuePriorities = &prio };
    VkDevice dev;
    VkResult vr = F(inst, vkCreateDevice)(pd, &(VkDeviceCreateInfo){ .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &f2, .queueCreateInfoCount = 1, .pQueueCreateInfos = &qi, .enabledExtensionCount = nx,
        .ppEnabledExtensionNames = exts }, NULL, &dev);
    if (vr) { fprintf(stderr, "vkCreateDevice failed: %d\n", vr); return 1; }
    PFN_vkGetDeviceProcAddr gdpa = F(inst, vkGetDeviceProcAddr);
#define D(name) ((PFN_##name)gdpa(dev, #name))
    for (int a = 2; a + 1 < argc; a += 2) {
        const char *lay = argv[a], *path = argv[a + 1];
        size_t n;
        unsigned char *code = read_file(path, &n);
        if (!code) { fprintf(stderr, "%s: unreadable\n", path); continue; }
        VkShaderModule sm;
        vr = D(vkCreateShaderModule)(dev, &(VkShaderModuleCreateInfo){ .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
            .codeSize = n, .pCode = (const uint32_t *)(void *)code }, NULL, &sm);
        free(code);
        if (vr) { printf("%s: vkCreateShaderModule %d\n", path, vr); continue; }
        VkDescriptorSetLayout sl[4];
        uint32_t ns = 0;
        for (const char *p = lay; ns < 4;) {
            VkDescriptorSetLayoutBinding b[16];
            uint32_t nb = 0;
            for (; *p && *p != '/' && nb < 16; p++, nb++)
                b[nb] = (VkDescriptorSetLayoutBinding){ .binding = nb, .descriptorCount = 1,
                    .descriptorType = *p == 'u' ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                    .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT };
            D(vkCreateDescriptorSetLayout)(dev, &(VkDescriptorSetLayoutCreateInfo){
                .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = nb, .pBindings = b }, NULL, &sl[ns++]);
            if (*p != '/') break;
            p++;
        }
        VkPipelineLayout pl;
        D(vkCreatePipelineLayout)(dev, &(VkPipelineLayoutCreateInfo){ .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
            .setLayoutCount = ns, .pSetLayouts = sl }, NULL, &pl);
        VkPipeline pipe;
        vr = D(vkCreateComputePipelines)(dev, VK_NULL_HANDLE, 1, &(VkComputePipelineCreateInfo){
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .flags = pe.pipelineExecutableInfo ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR |
                                                 VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR : 0,
            .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                       .module = sm, .pName = "main" },
            .layout = pl }, NULL, &pipe);
        if (vr) { printf("%s: vkCreateComputePipelines %d\n", path, vr); continue; }
        VkPipelineInfoKHR pi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = pipe };
        uint32_t ne = 0;
        if (!pe.pipelineExecutableInfo) {
            printf("%s: pipeline created\n", path);
            D(vkDestroyPipeline)(dev, pipe, NULL);
            continue;
        }
        D(vkGetPipelineExecutablePropertiesKHR)(dev, &pi, &ne, NULL);
        VkPipelineExecutablePropertiesKHR ep[8];
        for (uint32_t i = 0; i < 8; i++) ep[i] = (VkPipelineExecutablePropertiesKHR){ .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR };
        if (ne > 8) ne = 8;
        D(vkGetPipelineExecutablePropertiesKHR)(dev, &pi, &ne, ep);
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        printf("%s:", base);
        for (uint32_t e = 0; e < ne; e++) {
            VkPipelineExecutableInfoKHR xi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, .pipeline = pipe, .executableIndex = e };
            uint32_t nst = 0;
            D(vkGetPipelineExecutableStatisticsKHR)(dev, &xi, &nst, NULL);
            VkPipelineExecutableStatisticKHR st[64];
            if (nst > 64) nst = 64;
            for (uint32_t i = 0; i < nst; i++) st[i] = (VkPipelineExecutableStatisticKHR){ .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR };
            D(vkGetPipelineExecutableStatisticsKHR)(dev, &xi, &nst, st);
            for (uint32_t i = 0; i < nst; i++) {
                printf(" %s=", st[i].name);
                switch (st[i].format) {
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: printf("%u", st[i].value.b32); break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: printf("%lld", (long long)st[i].value.i64); break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: printf("%llu", (unsigned long long)st[i].value.u64); break;
                default: printf("%g", st[i].value.f64); break;
                }
            }
            uint32_t nr = 0;
            D(vkGetPipelineExecutableInternalRepresentationsKHR)(dev, &xi, &nr, NULL);
            VkPipelineExecutableInternalRepresentationKHR ir[8];
            if (nr > 8) nr = 8;
            for (uint32_t i = 0; i < nr; i++) ir[i] = (VkPipelineExecutableInternalRepresentationKHR){ .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR };
            D(vkGetPipelineExecutableInternalRepresentationsKHR)(dev, &xi, &nr, ir);
            for (uint32_t i = 0; i < nr; i++) {
                ir[i].pData = malloc(ir[i].dataSize + 1);
            }
            D(vkGetPipelineExecutableInternalRepresentationsKHR)(dev, &xi, &nr, ir);
            for (uint32_t i = 0; i < nr; i++) {
                char out[512];
                snprintf(out, sizeof out, "%s/%s.ir%u.txt", argv[1], base, i);
                FILE *f = fopen(out, "wb");
                if (f) {
                    fprintf(f, "# %s: %s\n", ir[i].name, ir[i].description);
                    fwrite(ir[i].pData, 1, ir[i].dataSize, f);
                    fclose(f);
                }
                printf(" [IR %s: %zu bytes]", ir[i].name, ir[i].dataSize);
                free(ir[i].pData);
            }
        }
        printf("\n");
        D(vkDestroyPipeline)(dev, pipe, NULL);
        D(vkDestroyPipelineLayout)(dev, pl, NULL);
        for (uint32_t i = 0; i < ns; i++) D(vkDestroyDescriptorSetLayout)(dev, sl[i], NULL);
        D(vkDestroyShaderModule)(dev, sm, NULL);
    }
    D(vkDestroyDevice)(dev, NULL);
    F(inst, vkDestroyInstance)(inst, NULL);
    return 0;
}
