/* test_faults.c - allocation-failure injection: a small complete workload (instance, adapter,
 * device, buffers, queue writes, shader module, pipeline, bind group, encoder, pass, dispatch,
 * timestamps, submit, map, readback, release) runs once per host allocation site with exactly
 * that allocation failing.  Every run must end without a crash, with an error or a correct
 * result, and with every allocation freed. */
#include "gpu_test.h"
#include "gpu_add.spv.h"

static int errors;
static test_alloc *current;
static void on_error(void *u, const wg_error *e) {
    (void)u;
    errors++;
    if (current && !current->failed)
        fprintf(stderr, "unexpected error: %s\n", e->message);
}
static void on_map(void *u, wg_map_status s) {
    *(wg_map_status *)u = s;
}

/* Returns 1 when the whole workload ran and the result was right. */
static int workload(test_alloc *ta) {
    enum { N = 333 };
    int ok = 0;
    current = ta;
    wg_error err;
    wg_env_strings env;
    wg_instance_desc idesc = { .allocator = test_allocator(ta), .validation = -1 };
    wg_adapter_options opt = { 0 };
    wg_device_desc ddesc = { .uncaptured_error = on_error, .cache_dir = "", .staging_size = 4096 };
    fixture_env(&env, &idesc, &opt, &ddesc);
    wg_instance *inst = wg_instance_create(&idesc, &err);
    if (!inst) {
        if (!ta->failed)
            fprintf(stderr, "instance: %s\n", err.message);
        return 0;
    }
    wg_adapter *ad = wg_instance_request_adapter(inst, &opt, NULL);
    wg_device *dev = wg_adapter_create_device(ad, &ddesc, &err);
    if (!dev) {
        if (!ta->failed)
            fprintf(stderr, "device: %s\n", err.message);
        wg_instance_release(inst);
        return 0;
    }
    wg_queue *q = wg_device_get_queue(dev);
    float a[N], b[N], o[N];
    for (int i = 0; i < N; i++)
        a[i] = (float)i, b[i] = 2.0f;
    wg_buffer *ba = mkbuf(dev, "a", sizeof a, 0), *bb = mkbuf(dev, "b", sizeof b, 0), *bo = mkbuf(dev, "o", sizeof o, 0);
    wg_buffer *rb = mkbuf(dev, "rb", sizeof o, WG_BUFFER_USAGE_MAP_READ | WG_BUFFER_USAGE_COPY_DST);
    wg_queue_write_buffer(q, ba, 0, a, sizeof a);
    wg_queue_write_buffer(q, bb, 0, b, sizeof b);
    wg_compute_pipeline *p = mkpipe(dev, "add", gpu_add_spv, gpu_add_spv_words);
    wg_bind_group *g = mkgroup(dev, p, 3, (wg_buffer *[]){ ba, bb, bo });
    wg_query_set *qs = wg_device_create_query_set(dev, &(wg_query_set_desc){ .count = 2 });
    wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(
        e, &(wg_compute_pass_desc){ .timestamp_query_set = qs, .end_index = 1, .write_beginning = true,
                                    .write_end = true });
    wg_compute_pass_set_pipeline(pass, p);
    wg_compute_pass_set_bind_group(pass, 0, g, 0, NULL);
    wg_compute_pass_dispatch_workgroups(pass, (N + 63) / 64, 1, 1);
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    wg_command_encoder_copy_buffer_to_buffer(e, bo, 0, rb, 0, sizeof o);
    wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
    wg_command_encoder_release(e);
    wg_queue_submit(q, 1, &cb);
    /* a second write while the first is in flight goes through the staging ring */
    wg_queue_write_buffer(q, ba, 0, a, sizeof a);
    wg_map_status st = WG_MAP_STATUS_NONE;
    wg_buffer_map_async(rb, WG_MAP_MODE_READ, 0, sizeof o, on_map, &st);
    wg_device_poll(dev, true);
    if (st != WG_MAP_STATUS_SUCCESS && !ta->failed)
        fprintf(stderr, "map status %d\n", (int)st);
    if (st == WG_MAP_STATUS_SUCCESS) {
        const float *m = wg_buffer_get_const_mapped_range(rb, 0, sizeof o);
        if (m) {
            ok = 1;
            for (int i = 0; i < N; i++)
                ok &= m[i] == a[i] + b[i];
        }
        wg_buffer_unmap(rb);
    }
    uint64_t ns[2];
    wg_query_set_read_ns(qs, 0, 2, ns);
    if (wg_buffer_read(bo, 0, o, sizeof o) != WG_STATUS_OK)
        ok = 0;
    wg_query_set_release(qs);
    wg_bind_group_release(g);
    wg_compute_pipeline_release(p);
    wg_buffer_release(ba);
    wg_buffer_release(bb);
    wg_buffer_release(bo);
    wg_buffer_release(rb);
    wg_device_release(dev);
    wg_instance_release(inst);
    return ok;
}

int main(void) {
    /* One instance alive throughout keeps the driver loaded: NVIDIA's driver stops loading after
     * about 30 load/unload cycles in one process (seen on the H200), and this test makes 40. */
    wg_env_strings env;
    wg_instance_desc kdesc = { .label = "keeper", .validation = -1 };
    fixture_env(&env, &kdesc, NULL, NULL);
    wg_instance *keeper = wg_instance_create(&kdesc, NULL);
    CHECK(keeper != NULL);
    test_alloc ta = { 0 };
    CHECK(workload(&ta) == 1);
    CHECK_EQ_INT(ta.live, 0);
    long sites = ta.total;
    printf("workload: %ld host allocations\n", sites);
    CHECK(sites > 20);
    int completed = 0, leaks = 0;
    for (long n = 1; n <= sites + 5; n++) {
        test_alloc t = { .fail_at = n };
        int ok = workload(&t);
        if (t.live != 0) {
            leaks++;
            fprintf(stderr, "fail_at %ld: %ld allocations leaked\n", n, t.live);
        }
        if (!t.failed) {
            CHECKF(ok, "fail_at %ld beyond the last allocation, but the result is wrong", n);
            completed++;
        }
    }
    CHECK_EQ_INT(leaks, 0);
    CHECK(completed >= 1);
    printf("%ld injected failures: no crash, no leak; %d errors reported\n", sites, errors);
    wg_instance_release(keeper);
    return test_end();
}
