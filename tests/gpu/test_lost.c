/* test_lost.c - device loss: a kernel that runs far past the device's lost timeout makes the
 * wait lose the device (reason TIMEOUT, callback once), pending maps are rejected, later calls
 * fail cleanly (invalid objects, DEVICE_LOST statuses, no submissions), and a new device made
 * afterwards in the same process works.  A short explicit wait timeout is not a loss. */
#include <time.h>

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

static int uncaptured;
static void on_error(void *u, const wg_error *e) {
    (void)u;
    (void)e;
    uncaptured++;
}

/* Runs the spin kernel in `groups` workgroups of 60000 iterations each (lavapipe caps a loop at
 * 65535 iterations, so the length comes from the workgroup count); returns the serial. */
static uint64_t spin(gpu_fixture *f, wg_compute_pipeline *p, wg_buffer *params, wg_buffer *rb, uint32_t groups) {
    uint32_t v[2] = { 60000, 0 };
    wg_queue_write_buffer(f->q, params, 0, v, 8);
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

int main(void) {
    gpu_fixture f;
    fixture_init(&f, &(wg_device_desc){ .lost_timeout_ms = 200, .uncaptured_error = on_error });
    wg_compute_pipeline *p = mkpipe(f.dev, "spin", test_spin_spv, test_spin_spv_words);
    wg_buffer *params = mkbuf(f.dev, "params", 64, 0);

    /* calibrate: seconds per workgroup */
    spin(&f, p, params, NULL, 1); /* warm-up */
    CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_OK);
    uint32_t g0 = 64;
    double t0 = now();
    spin(&f, p, params, NULL, g0);
    CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_OK);
    double per_group = (now() - t0) / g0;
    double want = 1.2; /* seconds: 6x the lost timeout */
    double nd = want / (per_group > 1e-7 ? per_group : 1e-7);
    uint32_t n = nd > 4e9 ? 4000000000u : (uint32_t)nd;
    printf("spin: %.1f us/workgroup, %u workgroups for ~%.1f s\n", per_group * 1e6, n, want);

    /* a short explicit timeout is just a timeout */
    spin(&f, p, params, NULL, n / 20);
    CHECK_EQ_INT(wg_queue_wait(f.q, 1000), WG_STATUS_TIMEOUT);
    CHECK(!wg_device_is_lost(f.dev));
    CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_OK);

    /* the runaway kernel: the wait passes the 200 ms lost timeout */
    wg_buffer *rb = mkbuf(f.dev, "readback", 8, WG_BUFFER_USAGE_MAP_READ | WG_BUFFER_USAGE_COPY_DST);
    CHECK(spin(&f, p, params, rb, n) != 0);
    wg_buffer_map_async(rb, WG_MAP_MODE_READ, 0, 8, on_map, NULL);
    t0 = now();
    CHECK_EQ_INT(wg_queue_wait(f.q, UINT64_MAX), WG_STATUS_DEVICE_LOST);
    double waited = now() - t0;
    CHECKF(waited > 0.15 && waited < 1.0, "waited %.3f s", waited);
    CHECK(wg_device_is_lost(f.dev));
    const char *why = NULL;
    CHECK_EQ_INT(wg_device_lost_reason_get(f.dev, &why), WG_DEVICE_LOST_TIMEOUT);
    CHECKF(why && strstr(why, "did not finish"), "reason: %s", why ? why : "(null)");
    CHECK_EQ_INT(f.lost_calls, 1);
    CHECK_EQ_INT(f.lost_reason, WG_DEVICE_LOST_TIMEOUT);
    CHECK_EQ_INT(map_calls, 1);
    CHECK_EQ_INT(map_st, WG_MAP_STATUS_DEVICE_LOST);

    /* later calls fail cleanly */
    wg_buffer *b = mkbuf(f.dev, "after", 64, 0);
    CHECK(b != NULL && !wg_buffer_is_valid(b));
    uint32_t out[2];
    CHECK_EQ_INT(wg_buffer_read(params, 0, out, 8), WG_STATUS_DEVICE_LOST);
    CHECK_EQ_INT(spin(&f, p, params, NULL, 1), 0);
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
    wg_device_release(f.dev); /* waits for the runaway kernel to end on lavapipe */

    /* a new device in the same process works */
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
    return test_end();
}
