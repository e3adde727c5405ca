/* bench_runtime.c - the runtime's microbenchmarks, one run (`make gpu-bench`):
 *   dependent tiny dispatches (1024 elements) x1000 in one submit: us/op end to end, CPU us/op to
 *   record, GPU us/op from timestamps; submit+wait round trip; upload and readback GB/s; shader
 *   copy and vkCmdCopyBuffer GB/s and vec4 add GB/s on 2^26 floats (GPU time from timestamps,
 *   bytes read + written, best of 5); pipeline creation cold, warm (disk cache), in memory.
 * On a CPU adapter (lavapipe) the sizes shrink 64x so it finishes quickly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpu_add.spv.h"
#include "test_add4.spv.h"
#include "test_inc.spv.h"
#include "wgc/gpu.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static wg_compute_pipeline *mkpipeline(wg_device *d, const uint32_t *w, size_t n) {
    wg_shader_module *m = wg_device_create_shader_module(d, &(wg_shader_module_desc){ .spirv = w, .spirv_words = n });
    wg_compute_pipeline *p = wg_device_create_compute_pipeline(d, &(wg_compute_pipeline_desc){ .module = m });
    wg_shader_module_release(m);
    return p;
}
static wg_bind_group *group(wg_device *d, wg_compute_pipeline *p, int n, wg_buffer **b) {
    wg_bind_group_entry e[3];
    for (int i = 0; i < n; i++)
        e[i] = (wg_bind_group_entry){ .binding = (uint32_t)i, .buffer = b[i] };
    return wg_device_create_bind_group(d, &(wg_bind_group_desc){
        .layout = wg_compute_pipeline_get_bind_group_layout(p, 0), .entry_count = (size_t)n, .entries = e });
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    wg_error err;
    wg_instance *inst = wg_instance_create(&(wg_instance_desc){ .validation = -1 }, &err);
    if (!inst) {
        fprintf(stderr, "bench: %s\n", err.message);
        return 1;
    }
    wg_adapter *ad = wg_instance_request_adapter(inst, NULL, &err);
    wg_device *dev = ad ? wg_adapter_create_device(ad, &(wg_device_desc){ .cache_dir = "" }, &err) : NULL;
    if (!dev) {
        fprintf(stderr, "bench: %s\n", err.message);
        wg_instance_release(inst);
        return 1;
    }
    const wg_adapter_info *info = wg_adapter_get_info(ad);
    bool cpu = info->type == WG_ADAPTER_TYPE_CPU;
    printf("bench: adapter %s (%s, %s)\n", info->name, wg_adapter_type_name(info->type), info->driver_info);
    wg_queue *q = wg_device_get_queue(dev);
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
    wg_query_set *qs = wg_device_create_query_set(dev, &(wg_query_set_desc){ .count = 4 });
    uint64_t ns[4];

    /* 1. dependent tiny dispatches */
    {
        wg_buffer *b = wg_device_create_buffer(dev, &(wg_buffer_desc){ .size = 4096 });
        wg_compute_pipeline *p = mkpipeline(dev, test_inc_spv, test_inc_spv_words);
        wg_bind_group *g = group(dev, p, 1, &b);
        double best_e2e = 1e9, best_rec = 1e9, best_gpu = 1e9;
        const int N = 1000;
        for (int rep = 0; rep < 4; rep++) {
            double t0 = now();
            wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
            wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, &(wg_compute_pass_desc){
                .timestamp_query_set = qs, .beginning_index = 0, .end_index = 1, .write_beginning = true, .write_end = true });
            wg_compute_pass_set_pipeline(pass, p);
            wg_compute_pass_set_bind_group(pass, 0, g, 0, NULL);
            for (int i = 0; i < N; i++)
                wg_compute_pass_dispatch_workgroups(pass, 16, 1, 1);
            wg_compute_pass_end(pass);
            wg_compute_pass_release(pass);
            wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
            wg_command_encoder_release(e);
            double t1 = now();
            wg_queue_submit(q, 1, &cb);
            wg_queue_wait(q, UINT64_MAX);
            double t2 = now();
            wg_query_set_read_ns(qs, 0, 2, ns);
            if (rep == 0)
                continue; /* warm-up */
            if ((t2 - t0) * 1e6 / N < best_e2e)
                best_e2e = (t2 - t0) * 1e6 / N;
            if ((t1 - t0) * 1e6 / N < best_rec)
                best_rec = (t1 - t0) * 1e6 / N;
            if ((double)(ns[1] - ns[0]) / 1e3 / N < best_gpu)
                best_gpu = (double)(ns[1] - ns[0]) / 1e3 / N;
        }
        uint32_t v0;
        wg_buffer_read(b, 0, &v0, 4);
        printf("bench: dependent tiny dispatch (1024 elems) x%d, one submit: %.2f us/op end to end, %.2f us/op CPU "
               "record, %.2f us/op GPU (check %u)\n", N, best_e2e, best_rec, best_gpu, v0);
        /* 2. submit + wait */
        double sum = 0, mn = 1e9;
        const int R = 200;
        for (int i = 0; i < R + 10; i++) {
            double t0 = now();
            wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
            wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
            wg_compute_pass_set_pipeline(pass, p);
            wg_compute_pass_set_bind_group(pass, 0, g, 0, NULL);
            wg_compute_pass_dispatch_workgroups(pass, 16, 1, 1);
            wg_compute_pass_end(pass);
            wg_compute_pass_release(pass);
            wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
            wg_command_encoder_release(e);
            wg_queue_submit(q, 1, &cb);
            wg_queue_wait(q, UINT64_MAX);
            double us = (now() - t0) * 1e6;
            if (i >= 10) {
                sum += us;
                if (us < mn)
                    mn = us;
            }
        }
        printf("bench: submit+wait round trip (1 tiny dispatch): %.1f us mean, %.1f us min\n", sum / R, mn);
        wg_bind_group_release(g);
        wg_compute_pipeline_release(p);
        wg_buffer_release(b);
    }

    /* 3. upload / readback, 4. copies, 5. add, on 2^26 floats (2^20 on a CPU adapter) */
    uint64_t n = cpu ? 1u << 20 : 1u << 26, bytes = n * 4;
    float *host = malloc(bytes);
    for (uint64_t i = 0; i < n; i++)
        host[i] = (float)(i & 1023);
    wg_buffer *a = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "a", .size = bytes });
    wg_buffer *b = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "b", .size = bytes });
    wg_buffer *o = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "o", .size = bytes });
    wg_queue_wait(q, UINT64_MAX);
    double best_up = 0, best_down = 0;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now();
        wg_queue_write_buffer(q, a, 0, host, bytes);
        wg_queue_wait(q, UINT64_MAX);
        double t1 = now();
        wg_buffer_read(a, 0, host, bytes);
        double t2 = now();
        if (bytes / (t1 - t0) / 1e9 > best_up)
            best_up = (double)bytes / (t1 - t0) / 1e9;
        if (bytes / (t2 - t1) / 1e9 > best_down)
            best_down = (double)bytes / (t2 - t1) / 1e9;
    }
    wg_queue_write_buffer(q, b, 0, host, bytes);
    printf("bench: upload %.1f GB/s, readback %.1f GB/s (%llu MiB, write_buffer / buffer_read)\n", best_up, best_down,
           (unsigned long long)(bytes >> 20));
    for (int kind = 0; kind < 2; kind++) {
        uint64_t size = kind == 0 ? bytes : bytes - 4; /* unaligned size: vkCmdCopyBuffer path */
        double best = 0;
        wg_device_stats st0, st1;
        wg_device_get_stats(dev, &st0);
        for (int rep = 0; rep < 6; rep++) {
            wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
            wg_command_encoder_write_timestamp(e, qs, 0);
            wg_command_encoder_copy_buffer_to_buffer(e, a, 0, o, 0, size);
            wg_command_encoder_write_timestamp(e, qs, 1);
            wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
            wg_command_encoder_release(e);
            wg_queue_submit(q, 1, &cb);
            wg_query_set_read_ns(qs, 0, 2, ns);
            double gbs = 2.0 * (double)size / (double)(ns[1] - ns[0]);
            if (rep && gbs > best)
                best = gbs;
        }
        wg_device_get_stats(dev, &st1);
        printf("bench: %s copy %llu MiB%s: %.0f GB/s (read+write bytes / GPU time)\n",
               st1.shader_copies > st0.shader_copies ? "shader" : "vkCmdCopyBuffer", (unsigned long long)(size >> 20),
               kind == 0 ? "" : " (unaligned size)", best);
    }
    {
        wg_compute_pipeline *p = mkpipeline(dev, test_add4_spv, test_add4_spv_words);
        wg_bind_group *g = group(dev, p, 3, (wg_buffer *[]){ a, b, o });
        double best = 0;
        uint32_t groups = (uint32_t)(n / 4 / 256 < 65535 ? n / 4 / 256 : 65535);
        for (int rep = 0; rep < 6; rep++) {
            wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
            wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, &(wg_compute_pass_desc){
                .timestamp_query_set = qs, .beginning_index = 2, .end_index = 3, .write_beginning = true, .write_end = true });
            wg_compute_pass_set_pipeline(pass, p);
            wg_compute_pass_set_bind_group(pass, 0, g, 0, NULL);
            wg_compute_pass_dispatch_workgroups(pass, groups, 1, 1);
            wg_compute_pass_end(pass);
            wg_compute_pass_release(pass);
            wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
            wg_command_encoder_release(e);
            wg_queue_submit(q, 1, &cb);
            wg_query_set_read_ns(qs, 2, 2, ns + 2);
            double gbs = 3.0 * (double)bytes / (double)(ns[3] - ns[2]);
            if (getenv("WGC_BENCH_VERBOSE"))
                printf("  add: %.3f ms\n", (double)(ns[3] - ns[2]) / 1e6);
            if (rep && gbs > best)
                best = gbs;
        }
        float check[4];
        wg_buffer_read(o, 4 * 1000, check, 16);
        printf("bench: vec4 add %llu floats: %.0f GB/s (3 x %llu MiB / GPU time; o[1000] = %g, want %g)\n",
               (unsigned long long)n, best, (unsigned long long)(bytes >> 20), check[0], 2.0 * (1000 & 1023));
        wg_bind_group_release(g);
        wg_compute_pipeline_release(p);
    }
    wg_buffer_release(a);
    wg_buffer_release(b);
    wg_buffer_release(o);
    free(host);
    wg_error e1;
    if (wg_device_pop_error_scope(dev, &e1))
        printf("bench: error: %s\n", e1.message);
    wg_query_set_release(qs);
    wg_device_release(dev);

    /* 6. pipeline creation: cold (empty disk cache), warm (disk cache from a previous device), in memory */
    char dir[] = "/tmp/wgc-bench-XXXXXX";
    if (mkdtemp(dir)) {
        double t[3];
        for (int k = 0; k < 2; k++) {
            wg_device *d = wg_adapter_create_device(ad, &(wg_device_desc){ .cache_dir = dir }, NULL);
            double t0 = now();
            wg_compute_pipeline *p = mkpipeline(d, gpu_add_spv, gpu_add_spv_words);
            t[k] = now() - t0;
            if (k == 1) {
                t0 = now();
                wg_compute_pipeline *p2 = mkpipeline(d, gpu_add_spv, gpu_add_spv_words);
                t[2] = now() - t0;
                wg_compute_pipeline_release(p2);
            }
            wg_compute_pipeline_release(p);
            wg_device_release(d);
        }
        printf("bench: pipeline creation: cold %.3f ms, warm (disk cache) %.3f ms, in memory %.1f us\n", t[0] * 1e3,
               t[1] * 1e3, t[2] * 1e6);
        char cmd[64];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "bench: could not remove %s\n", dir);
    }
    wg_instance_release(inst);
    return 0;
}
