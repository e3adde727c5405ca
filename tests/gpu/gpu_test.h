/* gpu_test.h - shared fixture of the runtime tests: a counting allocator (live allocations,
 * fail-the-Nth), an instance with the Vulkan validation layers on, the default adapter and a
 * device, and helpers to run the embedded kernels and to expect an error id from a scope.
 *
 * Settings come from descriptor fields; the fixture maps the WGC_* variables onto the fields a
 * test left at zero (wg_config_from_env), so `WGC_ADAPTER=1 build/tests/gpu/test_x` or the
 * valgrind target's WGC_LOST_TIMEOUT_MS reach every fixture device.  An unusable value fails. */
#ifndef WGC_GPU_TEST_H
#define WGC_GPU_TEST_H
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wgc/gpu.h"

typedef struct test_alloc {
    long live, total, fail_at; /* fail_at: 1-based index of the allocation to fail; 0 never */
    int failed;
} test_alloc;

static void *ta_alloc(void *user, size_t n) {
    test_alloc *t = user;
    if (t->fail_at && ++t->total == t->fail_at) {
        t->failed = 1;
        return NULL;
    }
    if (!t->fail_at)
        t->total++;
    void *p = malloc(n);
    if (p)
        t->live++;
    return p;
}
static void *ta_realloc(void *user, void *p, size_t n) {
    test_alloc *t = user;
    if (t->fail_at && ++t->total == t->fail_at) {
        t->failed = 1;
        return NULL;
    }
    if (!t->fail_at)
        t->total++;
    void *q = realloc(p, n);
    if (q && !p)
        t->live++;
    return q;
}
static void ta_free(void *user, void *p) {
    test_alloc *t = user;
    if (p)
        t->live--;
    free(p);
}
static inline wg_allocator test_allocator(test_alloc *t) {
    return (wg_allocator){ ta_alloc, ta_realloc, ta_free, t };
}

typedef struct gpu_fixture {
    test_alloc ta;
    wg_instance *inst;
    wg_adapter *ad;
    wg_device *dev;
    wg_queue *q;
    int lost_calls;
    wg_device_lost_reason lost_reason;
} gpu_fixture;

static void fixture_lost(void *user, wg_device_lost_reason r, const char *msg) {
    gpu_fixture *f = user;
    (void)msg;
    if (r != WG_DEVICE_LOST_DESTROYED) {
        f->lost_calls++;
        f->lost_reason = r;
    }
}

/* wg_config_from_env for a test: exits on an unusable value. */
static inline void fixture_env(wg_env_strings *env, wg_instance_desc *inst, wg_adapter_options *opt,
                               wg_device_desc *dev) {
    wg_error err;
    if (!wg_config_from_env(env, inst, opt, dev, &err)) {
        fprintf(stderr, "FAIL: %s\n", err.message);
        exit(1);
    }
}

static inline wg_device *fixture_device(gpu_fixture *f, const wg_device_desc *extra) {
    wg_device_desc d = extra ? *extra : (wg_device_desc){ 0 };
    if (!d.label)
        d.label = "test";
    d.device_lost = fixture_lost;
    d.device_lost_user = f;
    if (!d.cache_dir)
        d.cache_dir = "";      /* no disk cache unless a test asks (WGC_CACHE_DIR does not apply) */
    wg_env_strings env;
    fixture_env(&env, NULL, NULL, &d);
    if (!d.lost_timeout_ms && test_under_valgrind())
        d.lost_timeout_ms = 1200000;   /* lavapipe builds kernels at their first dispatch: minutes there */
    wg_error err;
    wg_device *dev = wg_adapter_create_device(f->ad, &d, &err);
    CHECKF(dev != NULL, "device: %s", err.message);
    return dev;
}

/* The Vulkan validation layer leaks a little at exit (its own C++ singletons), and lavapipe keeps
 * a 128-byte allocation in a global that the loader's unloading of the driver makes unreachable.
 * Keep both resident (RTLD_NODELETE) so leak checkers can name them, and tell LeakSanitizer to
 * ignore them (the same list as tests/lsan.supp, which `make asan` gives every process); valgrind
 * gets the same from tests/valgrind.supp. */
#define GPU_TEST_LSAN_BASE "leak:libVkLayer_khronos_validation\nleak:libvulkan_lvp.so\n"
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
#ifdef GPU_TEST_LSAN_EXTRA   /* a test's own additions (test_lost: the driver objects it abandons) */
    return GPU_TEST_LSAN_BASE GPU_TEST_LSAN_EXTRA;
#else
    return GPU_TEST_LSAN_BASE;
#endif
}
/* The driver the loader picked, once it is loaded: lavapipe stays resident (RTLD_NOLOAD: nothing
 * is loaded on a machine that does not use it). */
static inline void pin_driver(void) {
    static void *pinned;
    if (!pinned)
        pinned = dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}
static inline void pin_validation_layer(void) {
    static void *pinned;
    if (!pinned)
        pinned = dlopen("libVkLayer_khronos_validation.so", RTLD_NOW | RTLD_NODELETE);
}

/* The adapter has cooperative matrices with the 16 x 16 x 16 f16 x f16 -> f32 subgroup shape
 * (what WGSL's subgroup_matrix f16 types with f32 results lower to). */
static inline bool adapter_has_coop_f16(const wg_adapter_info *in) {
    return wg_adapter_info_has_coop_shape(in, 16, 16, 16, WG_COMPONENT_F16, WG_COMPONENT_F16, WG_COMPONENT_F32,
                                          WG_COMPONENT_F32);
}

/* Instance (validation on unless $WGC_TEST_VALIDATION=0), default adapter, device; exits if impossible. */
static inline void fixture_init(gpu_fixture *f, const wg_device_desc *dd) {
    memset(f, 0, sizeof *f);
    const char *v = getenv("WGC_TEST_VALIDATION");
    int validation = v && !strcmp(v, "0") ? -1 : 1;
    if (validation > 0)
        pin_validation_layer();
    wg_error err;
    wg_env_strings env;
    wg_instance_desc idesc = { .label = "test", .allocator = test_allocator(&f->ta), .validation = validation };
    wg_adapter_options opt = { .label = "test" };
    fixture_env(&env, &idesc, &opt, NULL);
    f->inst = wg_instance_create(&idesc, &err);
    if (!f->inst) {
        fprintf(stderr, "FAIL: no instance: %s\n", err.message);
        exit(1);
    }
    pin_driver();
    CHECK(validation < 0 || wg_instance_validation_enabled(f->inst));
    f->ad = wg_instance_request_adapter(f->inst, &opt, &err);
    if (!f->ad) {
        fprintf(stderr, "FAIL: no adapter: %s\n", err.message);
        exit(1);
    }
    f->dev = fixture_device(f, dd);
    if (!f->dev)
        exit(1);
    f->q = wg_device_get_queue(f->dev);
}

/* Releases device and instance; checks no validation message and no leaked host allocation. */
static inline void fixture_end(gpu_fixture *f) {
    uint64_t msgs = wg_instance_validation_message_count(f->inst);
    CHECK_EQ_INT(msgs, 0);
    wg_device_release(f->dev);
    wg_instance_release(f->inst);
    CHECK_EQ_INT(f->ta.live, 0);
}

static inline wg_buffer *mkbuf(wg_device *dev, const char *label, uint64_t size, uint32_t usage) {
    return wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = label, .size = size, .usage = usage });
}

static inline wg_compute_pipeline *mkpipe(wg_device *dev, const char *label, const uint32_t *spv, size_t words) {
    wg_shader_module *m = wg_device_create_shader_module(
        dev, &(wg_shader_module_desc){ .label = label, .spirv = spv, .spirv_words = words });
    wg_compute_pipeline *p = wg_device_create_compute_pipeline(
        dev, &(wg_compute_pipeline_desc){ .label = label, .module = m });
    wg_shader_module_release(m);
    return p;
}

static inline wg_bind_group *mkgroup(wg_device *dev, wg_compute_pipeline *p, uint32_t n, wg_buffer *const *bufs) {
    wg_bind_group_entry e[8];
    for (uint32_t i = 0; i < n; i++)
        e[i] = (wg_bind_group_entry){ .binding = i, .buffer = bufs[i] };
    return wg_device_create_bind_group(dev, &(wg_bind_group_desc){
        .label = "group", .layout = wg_compute_pipeline_get_bind_group_layout(p, 0), .entry_count = n, .entries = e });
}

/* One pass dispatching p with group bg x workgroups, submitted. */
static inline void run1(wg_device *dev, wg_compute_pipeline *p, wg_bind_group *bg, uint32_t x) {
    wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
    wg_compute_pass_set_pipeline(pass, p);
    wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
    wg_compute_pass_dispatch_workgroups(pass, x, 1, 1);
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
    wg_command_encoder_release(enc);
    wg_queue_submit(wg_device_get_queue(dev), 1, &cb);
}

#define EXPECT_NO_ERROR(dev, ...) do { \
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION); \
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_OUT_OF_MEMORY); \
    __VA_ARGS__; \
    wg_error e1_, e2_; \
    wg_error_id o_ = wg_device_pop_error_scope(dev, &e1_), v_ = wg_device_pop_error_scope(dev, &e2_); \
    CHECKF(o_ == WG_ERR_NONE, "%s", e1_.message); \
    CHECKF(v_ == WG_ERR_NONE, "%s", e2_.message); \
} while (0)

#endif
