/* test_spirv_pipelines.c - every module the emitter's tests cover must also be accepted by a
 * Vulkan driver: each SPIR-V golden (tests/wgsl/golden/NAME.spvasm beside NAME.wgsl) and each
 * parity kernel (tests/parity) is compiled for Vulkan 1.1 and 1.3, turned into a shader module
 * and one compute pipeline per entry point (automatic layout) by the wg runtime, with the Vulkan
 * validation layers on: no error from the runtime or the driver, no validation message.
 * Modules that need an adapter feature the adapter lacks (f16, subgroups) are listed as skipped
 * on stdout; the test fails when fewer than 150 modules were checked.  known[] lists the modules
 * whose messages come from device features the runtime does not enable, with the reason.
 * Env: WGC_PIPELINES_FILTER (substring of file names), WGC_TEST_VALIDATION=0 (no layers). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wgc/gpu.h"
#include "wgc/wgsl.h"

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Modules whose validation messages come from a device feature the runtime does not enable
 * (not from the emitter).  A listed module that validates cleanly fails the test: drop its line. */
static const struct { const char *file, *reason; } known[] = {
    { NULL, NULL },   /* empty: the list ends here */
};

static const char *known_reason(const char *path) {
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].file && !strcmp(known[i].file, path)) return known[i].reason;
    return NULL;
}

static wg_instance *inst;
static wg_device *dev;
static int has_f16, has_subgroups, checked, skipped, use_layers;

static void check_module(const char *path) {
    size_t len = 0;
    char *src = test_read_file(path, &len);
    CHECKF(src != NULL, "cannot read %s", path);
    if (!src) return;
    if ((strstr(src, "enable f16") && !has_f16) || (strstr(src, "enable subgroups") && !has_subgroups)) {
        printf("SKIP %s: the adapter lacks %s\n", path, strstr(src, "enable f16") ? "shader-f16" : "subgroups");
        skipped++;
        free(src);
        return;
    }
    for (int t = 0; t < 2; t++) {
        wgsl_target_env env = t ? WGSL_TARGET_VULKAN_1_3 : WGSL_TARGET_VULKAN_1_1;
        wgsl_result *r = wgsl_compile(src, len, &(wgsl_options){ .filename = path, .target_env = env });
        CHECKF(r && r->ok && r->spirv, "%s: %s", path, r ? wgsl_result_text(r) : "out of memory");
        if (!r || !r->ok || !r->spirv) { wgsl_result_free(r); continue; }
        uint64_t msgs = wg_instance_validation_message_count(inst);
        wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
        wg_device_push_error_scope(dev, WG_ERROR_TYPE_INTERNAL);
        wg_shader_module *m = wg_device_create_shader_module(dev, &(wg_shader_module_desc){
            .label = path, .spirv = r->spirv, .spirv_words = r->spirv_word_count });
        for (uint32_t i = 0; m && i < r->entry_point_count; i++) {
            wg_compute_pipeline *p = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){
                .label = path, .module = m, .entry_point = r->entry_points[i].name });
            CHECKF(p && wg_compute_pipeline_is_valid(p), "%s (%s): pipeline '%s' not created", path,
                   t ? "vulkan1.3" : "vulkan1.1", r->entry_points[i].name);
            if (p) wg_compute_pipeline_release(p);
        }
        if (m) wg_shader_module_release(m);
        wg_error e1, e2;
        wg_error_id internal = wg_device_pop_error_scope(dev, &e1);
        wg_error_id validation = wg_device_pop_error_scope(dev, &e2);
        CHECKF(internal == WG_ERR_NONE, "%s (%s): %s", path, t ? "vulkan1.3" : "vulkan1.1", e1.message);
        CHECKF(validation == WG_ERR_NONE, "%s (%s): %s", path, t ? "vulkan1.3" : "vulkan1.1", e2.message);
        uint64_t extra = wg_instance_validation_message_count(inst) - msgs;
        const char *why = known_reason(path);
        if (why && use_layers > 0) {
            CHECKF(extra > 0, "%s: listed as known but validates cleanly now: remove it from known[]", path);
            printf("KNOWN %s (%s): %llu validation messages: %s\n", path, t ? "vulkan1.3" : "vulkan1.1",
                   (unsigned long long)extra, why);
        } else {
            CHECKF(extra == 0, "%s (%s): %llu Vulkan validation messages", path, t ? "vulkan1.3" : "vulkan1.1",
                   (unsigned long long)extra);
        }
        checked++;
        wgsl_result_free(r);
    }
    free(src);
}

/* Paths of dir/<name>.wgsl, only those with a sibling <name>.<need> when need is given. */
static int list(const char *dir, const char *need, char **out, int max) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    const char *filter = getenv("WGC_PIPELINES_FILTER");
    for (struct dirent *de; (de = readdir(d)) && n < max;) {
        size_t l = strlen(de->d_name);
        if (l < 6 || strcmp(de->d_name + l - 5, ".wgsl")) continue;
        if (filter && !strstr(de->d_name, filter)) continue;
        char path[1024];
        if (need) {
            snprintf(path, sizeof path, "%s/%.*s.%s", dir, (int)(l - 5), de->d_name, need);
            FILE *f = fopen(path, "rb");
            if (!f) continue;
            fclose(f);
        }
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        out[n++] = strdup(path);
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof *out, cmp_str);
    return n;
}

int main(void) {
    wg_error err;
    const char *v = getenv("WGC_TEST_VALIDATION"); /* "0": no validation layers (machines without them) */
    use_layers = v && !strcmp(v, "0") ? -1 : 1;
    wg_env_strings env;   /* the WGC_* settings, under what the test sets */
    wg_instance_desc idesc = { .label = "pipelines", .validation = use_layers };
    wg_adapter_options opt = { .label = "pipelines" };
    /* the default lost timeout (or WGC_LOST_TIMEOUT_MS) bounds each pipeline creation: the compiler
     * refuses private and function memory beyond WGSL's 8192-byte limits (wgsl.h), so no golden
     * holds the large runtime-indexed arrays that make lavapipe's pipeline creation slow */
    wg_device_desc ddesc = { .label = "pipelines", .cache_dir = "" };
    if (!wg_config_from_env(&env, &idesc, &opt, &ddesc, &err)) { printf("FAIL: %s\n", err.message); return 1; }
    inst = wg_instance_create(&idesc, &err);
    if (!inst) { printf("FAIL: no instance: %s\n", err.message); return 1; }
    wg_adapter *ad = wg_instance_request_adapter(inst, &opt, &err);
    if (!ad) { printf("FAIL: no adapter: %s\n", err.message); return 1; }
    has_f16 = wg_adapter_has_feature(ad, WG_FEATURE_SHADER_F16);
    has_subgroups = wg_adapter_has_feature(ad, WG_FEATURE_SUBGROUPS);
    uint64_t feats = (has_f16 ? WG_FEATURE_BIT(WG_FEATURE_SHADER_F16) : 0) |
                     (has_subgroups ? WG_FEATURE_BIT(WG_FEATURE_SUBGROUPS) : 0);
    ddesc.required_features = feats;
    dev = wg_adapter_create_device(ad, &ddesc, &err);
    if (!dev) { printf("FAIL: no device: %s\n", err.message); return 1; }
    static char *files[4096];
    int n = list("tests/wgsl/golden", "spvasm", files, 2048);
    n += list("tests/parity", NULL, files + n, 2048);
    for (int i = 0; i < n; i++) {
        test_progress(i, n, files[i]);   /* minutes on lavapipe: a line every 30 s, naming the next */
        check_module(files[i]);
        free(files[i]);
    }
    printf("%d modules through driver pipelines, %d files skipped\n", checked, skipped);
    if (!getenv("WGC_PIPELINES_FILTER")) CHECKF(checked >= 150, "only %d modules checked", checked);
    wg_device_release(dev);
    wg_instance_release(inst);
    return test_end();
}
