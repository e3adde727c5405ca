/* test_run_engine.c - what `wgc run`, `wgc profile` and python/wgc stand on: wg_instance_adapters_json
 * keeps snprintf's rules; wg_device_run_kernel (src/gpu/runner.c), on a device with every feature
 * the adapter has, runs gpu.h's worked example as written, computes the right numbers, times them,
 * and turns every misuse into an error value (compile errors with diagnostics, missing / extra /
 * duplicate / short bindings, unknown or ambiguous entry points, NULL arguments); and with each of
 * its host allocations failing in turn it ends with an error or the right result and frees
 * everything. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wgc/gpu.h"

typedef struct counting {
    long live, count, fail_at;  /* fail_at: 1-based allocation to fail, 0 never */
} counting;

static void *c_alloc(void *u, size_t n) {
    counting *c = u;
    if (++c->count == c->fail_at)
        return NULL;
    void *p = malloc(n);
    c->live += p != NULL;
    return p;
}
static void *c_realloc(void *u, void *p, size_t n) {
    counting *c = u;
    if (++c->count == c->fail_at)
        return NULL;
    void *q = realloc(p, n);
    c->live += q && !p;
    return q;
}
static void c_free(void *u, void *p) {
    counting *c = u;
    c->live -= p != NULL;
    free(p);
}

static const char *scale_wgsl =
    "@group(0) @binding(0) var<storage, read> x: array<f32>;\n"
    "@group(0) @binding(1) var<storage, read_write> y: array<f32>;\n"
    "override scale: f32 = 2.0;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    if (id.x < arrayLength(&x)) { y[id.x] = x[id.x] * scale + 1.0; }\n"
    "}\n"
    "@compute @workgroup_size(1) fn other() { y[0] = 5.0; }\n";

enum { N = 300 };

/* An instance (no validation layers; the WGC_* settings mapped onto the rest). */
static wg_instance *make_instance(wg_allocator al, wg_error *err) {
    wg_env_strings env;
    wg_instance_desc d = { .validation = -1, .allocator = al };
    return wg_config_from_env(&env, &d, NULL, NULL, err) ? wg_instance_create(&d, err) : NULL;
}

/* A device with every feature the adapter has, as `wgc run` and python/wgc make it (the WGC_*
 * settings mapped onto what is not set here). */
static wg_device *all_features_device(wg_instance *inst, const char *select, wg_error *err) {
    wg_env_strings env;
    wg_adapter_options opt = { .select = select };
    wg_device_desc d = { .cache_dir = "" };
    if (!wg_config_from_env(&env, NULL, &opt, &d, err))
        return NULL;
    wg_adapter *ad = wg_instance_request_adapter(inst, &opt, err);
    if (ad)
        d.required_features = wg_adapter_get_info(ad)->features;
    return ad ? wg_adapter_create_device(ad, &d, err) : NULL;
}

/* gpu.h's example of wg_device_run_kernel, as written there. */
static void header_example(wg_device *dev) {
    float x[1024], y[1024];
    for (int i = 0; i < 1024; i++)
        x[i] = (float)i;
    wg_kernel_run_result *r = calloc(1, sizeof *r);                // ~14 KB: keep it off the stack
    wg_status st = wg_device_run_kernel(dev, &(wg_kernel_run_desc){
        .wgsl = "@group(0) @binding(0) var<storage, read> x: array<f32>;\n"
                "@group(0) @binding(1) var<storage, read_write> y: array<f32>;\n"
                "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) i: vec3u) {\n"
                "    y[i.x] = 2.0 * x[i.x];\n}\n",
        .dispatch = { 1024 / 64 },
        .bindings = (wg_kernel_binding[]){ { 0, 0, sizeof x, x, NULL }, { 0, 1, sizeof y, NULL, y } },
        .binding_count = 2, .warmup = 10, .repeat = 100 }, r);
    CHECKF(st == WG_STATUS_OK, "%s\n%s", r->error.message, r->diagnostics);
    CHECK(r->runs == 100 && r->median_ns > 0);
    int bad = 0;
    for (int i = 0; i < 1024; i++)
        bad += y[i] != 2.0f * (float)i;
    CHECK_EQ_INT(bad, 0);
    free(r);
}

/* Runs scale_wgsl's main with overrides scale=3; returns the status and checks y when OK. */
static wg_status run_scale(wg_device *dev, uint32_t repeat, wg_kernel_run_result *res, uint64_t *ns, bool *right) {
    static float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i;
    memset(y, 0, sizeof y);
    wg_kernel_binding b[2] = { { .group = 0, .binding = 0, .size = sizeof x, .data = x },
                               { .group = 0, .binding = 1, .size = sizeof y, .readback = y } };
    wg_kernel_override ov = { "scale", 3 };
    wg_status st = wg_device_run_kernel(dev, &(wg_kernel_run_desc){ .wgsl = scale_wgsl, .entry_point = "main",
        .dispatch = { (N + 63) / 64 }, .overrides = &ov, .override_count = 1, .bindings = b, .binding_count = 2,
        .warmup = 1, .repeat = repeat, .gpu_ns = ns }, res);
    *right = true;
    for (int i = 0; i < N; i++)
        *right &= y[i] == 3.0f * (float)i + 1.0f;
    return st;
}

static void expect_error(wg_device *dev, const wg_kernel_run_desc *d, wg_error_id id, const char *needle) {
    wg_kernel_run_result *r = calloc(1, sizeof *r);
    wg_status st = wg_device_run_kernel(dev, d, r);
    CHECKF(st == WG_STATUS_ERROR && r->error.id == id, "want %s, got status %d %s: %s", wg_error_id_name(id), st,
           wg_error_id_name(r->error.id), r->error.message);
    if (needle)
        CHECKF(strstr(r->error.message, needle) || strstr(r->diagnostics, needle), "'%s' not in '%s' / '%s'", needle,
               r->error.message, r->diagnostics);
    free(r);
}

int main(void) {
    wg_error err;
    wg_instance *inst = make_instance((wg_allocator){ 0 }, &err);
    CHECKF(inst != NULL, "%s", err.message);
    if (!inst)
        return test_end();

    /* adapters as JSON, snprintf rules */
    size_t need = wg_instance_adapters_json(inst, NULL, NULL, 0);
    CHECK(need > 20);
    char *full = malloc(need + 1), small[16];
    CHECK_EQ_INT(wg_instance_adapters_json(inst, NULL, full, need + 1), need);
    CHECK_EQ_INT(strlen(full), need);
    CHECK(!strncmp(full, "{\"adapters\":[{\"index\":0", 23) && full[need - 1] == '}');
    CHECK(strstr(full, "\"subgroupMinSize\":") && strstr(full, "\"maxComputeWorkgroupStorageSize\":"));
    CHECK_EQ_INT(wg_instance_adapters_json(inst, NULL, small, sizeof small), need);
    CHECK(strlen(small) == sizeof small - 1 && !strncmp(small, full, sizeof small - 1));
    /* "default" is the adapter the options pick: the last one when selected by index */
    char last[16];
    snprintf(last, sizeof last, "%zu", wg_instance_adapter_count(inst) - 1);
    CHECK_EQ_INT(wg_instance_adapters_json(inst, &(wg_adapter_options){ .select = last }, full, need + 1), need);
    const char *def = strstr(full, "\"default\":true"), *idx = full;
    for (const char *p = full; (p = strstr(p, "{\"index\":")) != NULL && p < def; p++)
        idx = p;
    CHECKF(def && !strncmp(idx + 9, last, strlen(last)), "default of select='%s' in %s", last, full);
    free(full);

    /* a device with every feature the adapter has */
    CHECK(all_features_device(inst, "no adapter is called this", &err) == NULL);
    CHECK_EQ_INT(err.id, WG_ERR_NO_ADAPTER);
    wg_device *dev = all_features_device(inst, NULL, &err);
    CHECKF(dev != NULL, "%s", err.message);
    if (!dev) {
        wg_instance_release(inst);
        return test_end();
    }
    const wg_adapter_info *info = wg_adapter_get_info(wg_device_get_adapter(dev));
    for (int f = 1; f < WG_FEATURE_COUNT; f++)
        if (info->features & WG_FEATURE_BIT(f))
            CHECKF(wg_device_has_feature(dev, (wg_feature)f), "feature %s not enabled", wg_feature_name((wg_feature)f));

    header_example(dev);

    /* a good run: values, times, statistics */
    wg_kernel_run_result *res = calloc(1, sizeof *res);
    uint64_t ns[9];
    bool right;
    wg_status st = run_scale(dev, 9, res, ns, &right);
    CHECKF(st == WG_STATUS_OK, "%s", res->error.message);
    CHECK(right);
    CHECK_STR(res->entry_point, "main");
    CHECK(res->workgroup_size[0] == 64 && res->workgroup_size[1] == 1 && res->workgroup_size[2] == 1);
    CHECK_EQ_INT(res->runs, 9);
    CHECK(res->compile_ms > 0 && res->pipeline_ms > 0 && res->wall_ms > 0);
    CHECK(res->min_ns > 0 && res->min_ns <= res->median_ns && res->median_ns <= res->max_ns);
    CHECK(res->mean_ns >= res->min_ns && res->mean_ns <= res->max_ns && res->stddev_ns >= 0);
    uint64_t mn = ns[0];
    for (int i = 1; i < 9; i++)
        mn = ns[i] < mn ? ns[i] : mn;
    CHECK(fabs((double)mn - res->min_ns) < 0.5);
    CHECK(res->timestamps == wg_device_has_feature(dev, WG_FEATURE_TIMESTAMP_QUERY));
    CHECK_STR(res->error.message, "");

    /* errors as values */
    static float buf[64];
    wg_kernel_binding two[3] = { { 0, 0, sizeof buf, buf, NULL }, { 0, 1, sizeof buf, NULL, NULL },
                                 { 0, 7, sizeof buf, NULL, NULL } };
    wg_kernel_run_desc d = { .wgsl = scale_wgsl, .entry_point = "main", .dispatch = { 1 }, .bindings = two,
                             .binding_count = 2 };
    wg_kernel_run_desc e = d;
    e.wgsl = "@compute @workgroup_size(1)\nfn main() { let a: u32 = 1.5; }\n";
    e.filename = "bad.wgsl";
    expect_error(dev, &e, WG_ERR_WGSL_COMPILE, "bad.wgsl:2:");
    e = d;
    e.binding_count = 1;
    expect_error(dev, &e, WG_ERR_BIND_ENTRY_MISSING, "@binding(1)");
    e = d;
    e.binding_count = 3;
    expect_error(dev, &e, WG_ERR_BIND_ENTRY_EXTRA, "@binding(7)");
    wg_kernel_binding dup[3] = { two[0], two[1], two[1] };
    e = d;
    e.bindings = dup;
    e.binding_count = 3;
    expect_error(dev, &e, WG_ERR_BIND_ENTRY_DUPLICATE, NULL);
    wg_kernel_binding tiny[2] = { { 0, 0, 0, NULL, NULL }, two[1] };
    e = d;
    e.bindings = tiny;
    expect_error(dev, &e, WG_ERR_BIND_SIZE_MIN, "'x'");
    e = d;
    e.entry_point = "nosuch";
    expect_error(dev, &e, WG_ERR_ENTRY_POINT_NOT_FOUND, "nosuch");
    e = d;
    e.entry_point = NULL;
    expect_error(dev, &e, WG_ERR_ENTRY_POINT_AMBIGUOUS, NULL);
    e = d;
    e.overrides = &(wg_kernel_override){ "no_such_override", 1 };
    e.override_count = 1;
    expect_error(dev, &e, WG_ERR_WGSL_COMPILE, NULL);
    expect_error(dev, &(wg_kernel_run_desc){ .wgsl = NULL }, WG_ERR_NULL_OBJECT, NULL);
    CHECK(wg_device_run_kernel(NULL, &d, res) == WG_STATUS_ERROR && res->error.id == WG_ERR_NULL_OBJECT);
    CHECK(wg_device_run_kernel(dev, &d, NULL) == WG_STATUS_ERROR);
    /* an entry point using only y: x's binding gets a placeholder in the runtime's layout if needed */
    e = d;
    e.entry_point = "other";
    e.bindings = &two[1];
    e.binding_count = 1;
    e.bindings = (wg_kernel_binding[]){ { 0, 1, sizeof buf, NULL, buf } };
    st = wg_device_run_kernel(dev, &e, res);
    CHECKF(st == WG_STATUS_OK && buf[0] == 5.0f, "other: %s, y[0] = %g", res->error.message, buf[0]);
    /* the device is still fine after all that */
    CHECK(run_scale(dev, 2, res, ns, &right) == WG_STATUS_OK && right);
    wg_device_release(dev);
    wg_instance_release(inst);

    /* every host allocation failing in turn: an error or the right result, nothing leaked */
    long sites = 0, failures = 0;
    for (long k = 1; k < 100000; k++) {
        counting c = { .fail_at = k };
        wg_instance *fi = make_instance((wg_allocator){ c_alloc, c_realloc, c_free, &c }, &err);
        wg_device *fd = fi ? all_features_device(fi, NULL, &err) : NULL;
        bool done = false;
        if (fd) {
            long before = c.count;
            st = run_scale(fd, 3, res, ns, &right);
            CHECKF(st == WG_STATUS_OK ? right : res->error.type != WG_ERROR_TYPE_NONE,
                   "fail_at %ld: status %d, right %d, error '%s'", k, st, right, res->error.message);
            failures += st != WG_STATUS_OK;
            done = c.count < k && c.count > before;   /* the whole run happened without reaching k */
        }
        wg_device_release(fd);
        wg_instance_release(fi);
        CHECKF(c.live == 0, "fail_at %ld: %ld allocations leaked", k, c.live);
        if (done || c.count < k) {
            sites = k;
            break;
        }
    }
    printf("allocation sites through one run: %ld, runs that failed cleanly: %ld\n", sites, failures);
    CHECK(sites > 10 && failures > 0);
    free(res);
    return test_end();
}
