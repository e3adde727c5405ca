/* test_lost.c - device loss: a kernel that runs far past the device's lost timeout makes the
 * wait lose the device (reason TIMEOUT, callback once), pending maps are rejected, later calls
 * fail cleanly (invalid objects, DEVICE_LOST statuses, no submissions), releasing the lost device
 * returns at once although its kernel still runs, and a new device made afterwards in the same
 * process works.  A short explicit wait timeout is not a loss, and neither is slow work: a chain
 * of submissions four times the lost timeout long, with two threads burning the CPU, finishes.
 * A pipeline the driver takes longer than the lost timeout to create loses the device too. */
#include <pthread.h>
#include <time.h>

/* A device lost by timeout is abandoned: the driver's objects behind it are leaked on purpose
 * (doc/gpu.md).  Lavapipe's pipelines hold a ralloc context that only a one-past-the-end pointer
 * reaches, so leak checkers call those 48 bytes lost: LeakSanitizer ignores the driver's
 * allocations in this test (tests/valgrind.supp names the frame for valgrind); the runtime's own
 * host memory is still counted by the fixture's allocator (live allocations end at zero). */
#define GPU_TEST_LSAN_EXTRA "leak:libvulkan_lvp.so\n"
#include "gpu_test.h"
#include "gpu_add.spv.h"
#include "test_spin.spv.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int map_calls;
static wg_map_status map_st;
static void on_map(void *u, wg_map_status s) {
    (void)u;
    map_calls++;
    map_st = s;
}

/* Threads that burn the CPU: the load of a busy machine. */
static volatile int burning;
static void *burn(void *arg) {
    volatile uint64_t x = (uint64_t)(uintptr_t)arg;
    while (burning)
        x = x * 6364136223846793005ull + 1;
    return NULL;
}

static int uncaptured;
static void on_error(void *u, const wg_error *e) {
    (void)u;
    (void)e;
    uncaptured++;
}

/* Runs the spin kernel: `groups` workgroups of one invocation, each `outer` x 60000 serial
 * iterations; returns the serial.  A GPU runs the workgroups side by side, so there `outer` sets
 * the length; lavapipe caps a loop nest at 65535 iterations and runs workgroups on a couple of
 * threads, so there `groups` does. */
static uint64_t spin(gpu_fixture *f, wg_compute_pipeline *p, wg_buffer *params, wg_buffer *rb, uint32_t outer,
                     uint32_t groups) {
    uint32_t v[3] = { 60000, 0, outer };
    wg_queue_write_buffer(f->q, params, 0, v, 12);
    wg_bind_group *bg = mkgroup(f->dev, p, 1, &params);
    wg_command_encoder *e = wg_device_create_command_encoder(f->dev, NULL);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
    wg_compute_pass_set_pipeline(pass, p);
    wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
    wg_compute_pass_dispatch_workgroups(pass, groups % 65535 + 1, groups / 65535 + 1, 1);
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    if (rb)
        wg_command_encoder_copy_buffer_to_buffer(e, params, 0, rb, 0, 8);
    wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
    wg_command_encoder_release(e);
    wg_bind_group_release(bg);
    return wg_queue_submit(f->q, 1, &cb);
}

/* VK_ERROR_DEVICE_LOST from the driver: through a forwarding fake loader that fails the
 * second vkQueueSubmit. */
static void driver_lost(const char *argv0) {
    char lib[512];
    const char *slash = strrchr(argv0, '/');
    snprintf(lib, sizeof lib, "%.*s/libwgfake.so", slash ? (int)(slash - argv0) : 1, slash ? argv0 : ".");
    setenv("WGC_FAKE_LOST_AFTER", "2", 1);
    test_alloc ta = { 0 };
    wg_error err;
    wg_instance *inst = wg_instance_create(&(wg_instance_desc){ .vulkan_library = lib, .validation = -1,
                                                                .allocator = test_allocator(&ta) }, &err);
    CHECKF(inst != NULL, "fake loader %s: %s", lib, err.message);
    if (!inst)
        return;
    gpu_fixture g = { .inst = inst };
    g.ad = wg_instance_request_adapter(inst, NULL, &err);
    wg_device *dev = fixture_device(&g, NULL);
    wg_queue *q = wg_device_get_queue(dev);
    wg_compute_pipeline *p = mkpipe(dev, "add", gpu_add_spv, gpu_add_spv_words);
    wg_buffer *x = mkbuf(dev, "x", 64, 0);
    wg_bind_group *bg = mkgroup(dev, p, 3, (wg_buffer *[]){ x, x, x });
    wg_buffer *rb = mkbuf(dev, "rb", 64, WG_BUFFER_USAGE_MAP_READ | WG_BUFFER_USAGE_COPY_DST);
    run1(dev, p, bg, 1); /* first submit: fine */
    CHECK_EQ_INT(wg_queue_wait(q, UINT64_MAX), WG_STATUS_OK);
    map_calls = 0;
    wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
    wg_command_encoder_copy_buffer_to_buffer(e, x, 0, rb, 0, 64);
    wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
    wg_command_encoder_release(e);
    CHECK_EQ_INT(wg_queue_submit(q, 1, &cb), 0); /* second: VK_ERROR_DEVICE_LOST */
    CHECK(wg_device_is_lost(dev));
    const char *why = NULL;
    CHECK_EQ_INT(wg_device_lost_reason_get(dev, &why), WG_DEVICE_LOST_DRIVER);
    CHECKF(why && strstr(why, "VK_ERROR_DEVICE_LOST"), "reason: %s", why ? why : "(null)");
    CHECK_EQ_INT(g.lost_calls, 1);
    CHECK_EQ_INT(g.lost_reason, WG_DEVICE_LOST_DRIVER);
    wg_buffer_map_async(rb, WG_MAP_MODE_READ, 0, 64, on_map, NULL);
    CHECK_EQ_INT(map_st, WG_MAP_STATUS_DEVICE_LOST);
    uint8_t out[64];
    CHECK_EQ_INT(wg_buffer_read(x, 0, out, 64), WG_STATUS_DEVICE_LOST);
    CHECK_EQ_INT(wg_queue_wait(q, UINT64_MAX), WG_STATUS_DEVICE_LOST);
    wg_bind_group_release(bg);
    wg_buffer_release(rb);
    wg_buffer_release(x);
    wg_compute_pipeline_release(p);
    wg_device_release(dev);
    wg_instance_release(inst);
    CHECK_EQ_INT(ta.live, 0);
    unsetenv("WGC_FAKE_LOST_AFTER");
}

/* Pipeline creation the driver takes minutes over (the fake loader's vkCreateComputePipelines
 * sleeps 60 s, as lavapipe's LLVM did on large private arrays): creation is bounded by the lost
 * timeout, the device is lost with the reason, and releasing the device and instance returns (the
 * driver thread is left in the call until the process exits).  On any adapter. */
static void pipeline_hang(const char *argv0) {
    char lib[512];
    const char *slash = strrchr(argv0, '/');
    snprintf(lib, sizeof lib, "%.*s/libwgfake.so", slash ? (int)(slash - argv0) : 1, slash ? argv0 : ".");
    setenv("WGC_FAKE_SLOW_PIPELINE_MS", "60000", 1);
    wg_error err;
    wg_instance *inst = wg_instance_create(&(wg_instance_desc){ .vulkan_library = lib, .validation = -1 }, &err);
    CHECKF(inst != NULL, "fake loader %s: %s", lib, err.message);
    if (!inst)
        return;
    gpu_fixture g = { .inst = inst };
    g.ad = wg_instance_request_adapter(inst, NULL, &err);
    g.dev = fixture_device(&g, &(wg_device_desc){ .lost_timeout_ms = 500, .uncaptured_error = on_error });
    static const char *src =
        "@group(0) @binding(0) var<storage, read_write> x: array<f32>;\n"
        "@compute @workgroup_size(1) fn main() { x[0] = x[0] + 1.0; }\n";
    wg_shader_module *m = wg_device_create_shader_module(g.dev, &(wg_shader_module_desc){ .label = "slow", .wgsl = src });
    CHECK(wg_shader_module_entry_point_count(m) == 1);
    double t0 = now();
    wg_compute_pipeline *p = wg_device_create_compute_pipeline(g.dev, &(wg_compute_pipeline_desc){ .label = "slow",
                                                                                                   .module = m });
    double took = now() - t0;
    printf("pipeline creation given up after %.2f s (lost timeout 0.5 s, the driver takes 60 s)\n", took);
    CHECK(!wg_compute_pipeline_is_valid(p));
    CHECK(wg_device_is_lost(g.dev));
    const char *why = NULL;
    CHECK_EQ_INT(wg_device_lost_reason_get(g.dev, &why), WG_DEVICE_LOST_TIMEOUT);
    CHECKF(why && strstr(why, "did not create it within 500 ms"), "reason: %s", why ? why : "(null)");
    CHECKF(took >= 0.45 && took < 5.0, "pipeline creation returned after %.3f s", took);
    wg_compute_pipeline_release(p);
    wg_shader_module_release(m);
    t0 = now();
    fixture_end(&g);
    CHECKF(now() - t0 < 0.5, "release after the abandoned pipeline took %.3f s", now() - t0);
    unsetenv("WGC_FAKE_SLOW_PIPELINE_MS");
}

int main(int argc, char **argv) {
    (void)argc;
    gpu_fixture f;
    fixture_init(&f, &(wg_device_desc){ .uncaptured_error = on_error }); /* default 30 s timeout to calibrate */
    wg_compute_pipeline *p = mkpipe(f.dev, "spin", test_spin_spv, test_spin_spv_words);
    wg_buffer *params = mkbuf(f.dev, "params", 64, 0);

    /* calibrate: does `outer` lengthen the kernel (a GPU), or only `groups` (lavapipe)? */
    spin(&f, p, params, NULL, 1, 0); /* warm-up (lavapipe compiles on first use) */
    CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_OK);
    double t0 = now();
    spin(&f, p, params, NULL, 1, 0);
    CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_OK);
    double t4 = now() - t0;
    t0 = now();
    spin(&f, p, params, NULL, 64, 0);
    CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_OK);
    double t64 = now() - t0;
    /* the kernel's own result says whether all 64 x 60000 iterations ran (no loop cap) */
    uint32_t got[2] = { 0, 0 }, want_x = 1;
    CHECK_EQ_INT(wg_buffer_read(params, 0, got, 8), WG_STATUS_OK);
    for (uint32_t i = 0; i < 64u * 60000u; i++)
        want_x = want_x * 1664525u + 1013904223u;
    bool by_outer = got[1] == want_x;
    (void)t4;
    uint32_t outer = 64, groups = 0;
    if (!by_outer) {
        t0 = now();
        spin(&f, p, params, NULL, 1, 63);
        CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_OK);
        t64 = now() - t0;
        outer = 1;
    }
    /* The lost timeout: 200 ms, or longer where everything is slow (valgrind); the runaway
     * kernel is made 12 times that, robust to a loaded machine. */
    double T = 4 * t64 > 0.2 ? 4 * t64 : 0.2;
    double want = 12 * T;
    double k = want / (t64 > 1e-6 ? t64 : 1e-6);
    if (k > 1e6)
        k = 1e6;
    if (by_outer)
        outer = (uint32_t)(64 * k);
    else
        groups = (uint32_t)(64 * k);
    printf("spin: 64 units in %.2f ms (by %s): %u outer x %u groups for ~%.1f s; lost timeout %.0f ms\n",
           t64 * 1e3, by_outer ? "outer loop" : "workgroups", outer, groups + 1, want, T * 1e3);
    uint32_t n_outer = outer, n_groups = groups;
    /* the device under test, with the short lost timeout */
    wg_buffer_release(params);
    wg_compute_pipeline_release(p);
    wg_device_release(f.dev);
    f.dev = fixture_device(&f, &(wg_device_desc){ .lost_timeout_ms = (uint32_t)(T * 1000), .uncaptured_error = on_error });
    f.q = wg_device_get_queue(f.dev);
    p = mkpipe(f.dev, "spin", test_spin_spv, test_spin_spv_words);
    params = mkbuf(f.dev, "params", 64, 0);
    /* a short explicit timeout (1 us) is just a timeout; the kernel runs ~0.3 T (well within
     * the lost timeout), long enough that a loaded machine cannot deschedule this thread
     * between submit and wait for all of it */
    spin(&f, p, params, NULL, by_outer ? n_outer / 40 : 1, by_outer ? 0 : n_groups / 40);
    CHECK_EQ_INT(wg_queue_wait(f.q, 1000), WG_STATUS_TIMEOUT);
    CHECK(!wg_device_is_lost(f.dev));
    CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_OK);

    /* slow is not hung: 128 submissions of ~T/32 each (4 T in all), waited for at once while two
     * threads burn the CPU; each finishes within T (a 32x margin for a loaded machine's CPU
     * adapter), so the device is not lost */
    wg_device_stats st0, st1;
    wg_device_get_stats(f.dev, &st0);
    pthread_t burners[2];
    burning = 1;
    int nburn = 0;
    for (int i = 0; i < 2; i++)
        nburn += pthread_create(&burners[i], NULL, burn, (void *)(uintptr_t)(i + 1)) == 0;
    for (int i = 0; i < 128; i++)
        spin(&f, p, params, NULL, by_outer ? (n_outer / 384 ? n_outer / 384 : 1) : 1, by_outer ? 0 : n_groups / 384);
    t0 = now();
    CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_OK);
    double chain = now() - t0;
    burning = 0;
    for (int i = 0; i < nburn; i++)
        pthread_join(burners[i], NULL);
    wg_device_get_stats(f.dev, &st1);
    printf("slow chain: 128 submissions in %.2f s under load, lost timeout %.2f s: %llu timeout windows outlived\n",
           chain, T, (unsigned long long)(st1.slow_waits - st0.slow_waits));
    CHECK(!wg_device_is_lost(f.dev));
    CHECKF(chain > T, "the chain (%.3f s) must outlast the lost timeout (%.3f s) to show anything", chain, T);
    CHECK(st1.slow_waits > st0.slow_waits);

    /* the runaway kernel: the wait passes the lost timeout */
    wg_buffer *rb = mkbuf(f.dev, "readback", 8, WG_BUFFER_USAGE_MAP_READ | WG_BUFFER_USAGE_COPY_DST);
    CHECK(spin(&f, p, params, rb, n_outer, n_groups) != 0);
    wg_buffer_map_async(rb, WG_MAP_MODE_READ, 0, 8, on_map, NULL);
    t0 = now();
    CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_DEVICE_LOST);
    double waited = now() - t0;
    /* Under valgrind, which runs one thread at a time while lavapipe's workers spin, the waiting
     * thread wakes late (1.6 to 5.3 s for T = 0.5 s), so there the bound is the runaway kernel's
     * length (12 T): the wait did not last until the kernel's end, as the status says too. */
    bool vg = test_under_valgrind();
    double hi = vg ? 12 * T : T + (T > 0.5 ? 2 * T : 1.0);
    if (vg)
        printf("under valgrind: the lost wait's upper bound is the kernel's length, %.1f s\n", hi);
    CHECKF(waited > 0.75 * T && waited < hi, "waited %.3f s for a %.3f s timeout (bound %.3f s)", waited, T, hi);
    CHECK(wg_device_is_lost(f.dev));
    const char *why = NULL;
    CHECK_EQ_INT(wg_device_lost_reason_get(f.dev, &why), WG_DEVICE_LOST_TIMEOUT);
    CHECKF(why && strstr(why, "no submission finished"), "reason: %s", why ? why : "(null)");
    CHECK_EQ_INT(f.lost_calls, 1);
    CHECK_EQ_INT(f.lost_reason, WG_DEVICE_LOST_TIMEOUT);
    CHECK_EQ_INT(map_calls, 1);
    CHECK_EQ_INT(map_st, WG_MAP_STATUS_DEVICE_LOST);

    /* later calls fail cleanly */
    wg_buffer *b = mkbuf(f.dev, "after", 64, 0);
    CHECK(b != NULL && !wg_buffer_is_valid(b));
    uint32_t out[2];
    CHECK_EQ_INT(wg_buffer_read(params, 0, out, 8), WG_STATUS_DEVICE_LOST);
    CHECK_EQ_INT(spin(&f, p, params, NULL, 1, 0), 0);
    CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_DEVICE_LOST);
    map_calls = 0;
    wg_buffer_map_async(rb, WG_MAP_MODE_READ, 0, 8, on_map, NULL);
    CHECK_EQ_INT(map_calls, 1);
    CHECK_EQ_INT(map_st, WG_MAP_STATUS_DEVICE_LOST);
    wg_compute_pipeline *p2 = mkpipe(f.dev, "after", gpu_add_spv, gpu_add_spv_words);
    CHECK(!wg_compute_pipeline_is_valid(p2));
    CHECK_EQ_INT(uncaptured, 0); /* errors on a lost device are not reported */
    wg_device_poll(f.dev, true);
    CHECK_EQ_INT(f.lost_calls, 1);
    wg_compute_pipeline_release(p2);
    wg_buffer_release(b);
    wg_buffer_release(rb);
    wg_buffer_release(params);
    wg_compute_pipeline_release(p);
    /* release does not wait for the runaway kernel (still running: it is 12 T long) */
    t0 = now();
    wg_device_release(f.dev);
    double rel = now() - t0;
    printf("release of the lost device: %.1f ms\n", rel * 1e3);
    CHECKF(rel < T, "released in %.3f s, lost timeout %.3f s", rel, T);

    /* a new device on a new instance works at once, beside the runaway kernel */
    gpu_fixture g2;
    t0 = now();
    fixture_init(&g2, NULL);
    {
        wg_compute_pipeline *add = mkpipe(g2.dev, "add", gpu_add_spv, gpu_add_spv_words);
        wg_buffer *x = mkbuf(g2.dev, "x", 16, 0), *z = mkbuf(g2.dev, "z", 16, 0);
        float a[4] = { 1, 2, 3, 4 }, r[4] = { 0 };
        wg_queue_write_buffer(g2.q, x, 0, a, 16);
        wg_bind_group *g = mkgroup(g2.dev, add, 3, (wg_buffer *[]){ x, x, z });
        run1(g2.dev, add, g, 1);
        wg_bind_group_release(g);
        CHECK_EQ_INT(wg_buffer_read(z, 0, r, 16), WG_STATUS_OK);
        CHECK(r[0] == 2.0f && r[3] == 8.0f);
        CHECK(!wg_device_is_lost(g2.dev));
        wg_buffer_release(x);
        wg_buffer_release(z);
        wg_compute_pipeline_release(add);
    }
    fixture_end(&g2);
    printf("a new instance and device ran a 4-element add in %.2f s beside the runaway kernel\n", now() - t0);

    /* a new device of the same instance works too; on lavapipe its work queues behind the
     * runaway kernel in the instance's thread pool, so it finishes once that kernel has */
    f.dev = fixture_device(&f, NULL);
    f.q = wg_device_get_queue(f.dev);
    CHECK(!wg_device_is_lost(f.dev));
    wg_compute_pipeline *add = mkpipe(f.dev, "add", gpu_add_spv, gpu_add_spv_words);
    wg_buffer *x = mkbuf(f.dev, "x", 400, 0), *y = mkbuf(f.dev, "y", 400, 0), *z = mkbuf(f.dev, "z", 400, 0);
    float a[100], r[100];
    for (int i = 0; i < 100; i++)
        a[i] = (float)i;
    EXPECT_NO_ERROR(f.dev, {
        wg_queue_write_buffer(f.q, x, 0, a, 400);
        wg_queue_write_buffer(f.q, y, 0, a, 400);
        wg_bind_group *g = mkgroup(f.dev, add, 3, (wg_buffer *[]){ x, y, z });
        run1(f.dev, add, g, 2);
        wg_bind_group_release(g);
        CHECK_EQ_INT(wg_buffer_read(z, 0, r, 400), WG_STATUS_OK);
    });
    CHECK(r[99] == 198.0f && r[1] == 2.0f);
    wg_buffer_release(x);
    wg_buffer_release(y);
    wg_buffer_release(z);
    wg_compute_pipeline_release(add);
    fixture_end(&f);
    driver_lost(argv[0]);
    pipeline_hang(argv[0]);
    return test_end();
}
