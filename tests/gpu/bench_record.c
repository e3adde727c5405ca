/* bench_record.c - host cost of recording, for callgrind (instruction counts, not seconds):
 * 1000 dependent dispatches of a one-binding kernel recorded into one encoder, in two patterns,
 * each in its own function so callgrind can count just it:
 *   record_one_group   one bind group set once, 1000 dispatches
 *   record_state_each  pipeline and the same bind group set before each dispatch (wgc bench runtime's
 *                      dependent row)
 *   record_group_each  a bind group created, set and released per dispatch (the tensor layer)
 * Each runs REPS times (argv[1], default 3), submitted and waited; the result is checked.
 *   make gpu-record-callgrind   (valgrind --tool=callgrind --toggle-collect=<function>) */
#include <stdio.h>
#include <stdlib.h>

#include "wgc/gpu.h"

static const char *inc =
    "@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) i: vec3u) { x[i.x] += 1u; }\n";

enum { N = 1000 };
static wg_device *dev;
static wg_compute_pipeline *pipe;
static wg_buffer *buf;

static void finish(wg_command_encoder *e, wg_compute_pass *pass) {
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
    wg_command_encoder_release(e);
    wg_queue_submit(wg_device_get_queue(dev), 1, &cb);
}

__attribute__((noinline)) void record_one_group(wg_bind_group *g);
__attribute__((noinline)) void record_one_group(wg_bind_group *g) {
    wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
    wg_compute_pass_set_pipeline(pass, pipe);
    wg_compute_pass_set_bind_group(pass, 0, g, 0, NULL);
    for (int i = 0; i < N; i++)
        wg_compute_pass_dispatch_workgroups(pass, 16, 1, 1);
    finish(e, pass);
}

__attribute__((noinline)) void record_state_each(wg_bind_group *g);
__attribute__((noinline)) void record_state_each(wg_bind_group *g) {
    wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
    for (int i = 0; i < N; i++) {
        wg_compute_pass_set_pipeline(pass, pipe);
        wg_compute_pass_set_bind_group(pass, 0, g, 0, NULL);
        wg_compute_pass_dispatch_workgroups(pass, 16, 1, 1);
    }
    finish(e, pass);
}

__attribute__((noinline)) void record_group_each(void);
__attribute__((noinline)) void record_group_each(void) {
    wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(e, NULL);
    wg_compute_pass_set_pipeline(pass, pipe);
    wg_bind_group_layout *l = wg_compute_pipeline_get_bind_group_layout(pipe, 0);
    for (int i = 0; i < N; i++) {
        wg_bind_group *g = wg_device_create_bind_group(dev, &(wg_bind_group_desc){ .label = "per-op", .layout = l,
            .entry_count = 1, .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = buf } });
        wg_compute_pass_set_bind_group(pass, 0, g, 0, NULL);
        wg_compute_pass_dispatch_workgroups(pass, 16, 1, 1);
        wg_bind_group_release(g);
    }
    finish(e, pass);
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    wg_error err;
    wg_env_strings env;
    wg_instance_desc idesc = { .label = "bench_record", .validation = -1 };
    wg_adapter_options opt = { .label = "bench_record" };
    wg_device_desc ddesc = { .label = "bench_record" };
    bool ok = wg_config_from_env(&env, &idesc, &opt, &ddesc, &err);
    wg_instance *inst = ok ? wg_instance_create(&idesc, &err) : NULL;
    wg_adapter *ad = inst ? wg_instance_request_adapter(inst, &opt, &err) : NULL;
    dev = ad ? wg_adapter_create_device(ad, &ddesc, &err) : NULL;
    if (!dev) {
        fprintf(stderr, "bench_record: %s\n", err.message);
        wg_instance_release(inst);
        return 1;
    }
    wg_shader_module *m = wg_device_create_shader_module(dev, &(wg_shader_module_desc){ .label = "inc", .wgsl = inc });
    pipe = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){ .label = "inc", .module = m });
    buf = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "x", .size = 4096 });
    wg_bind_group *g = wg_device_create_bind_group(dev, &(wg_bind_group_desc){
        .label = "x", .layout = wg_compute_pipeline_get_bind_group_layout(pipe, 0), .entry_count = 1,
        .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = buf } });
    for (int r = 0; r < reps; r++) {
        record_one_group(g);
        wg_queue_wait(wg_device_get_queue(dev), UINT64_MAX);
    }
    for (int r = 0; r < reps; r++) {
        record_state_each(g);
        wg_queue_wait(wg_device_get_queue(dev), UINT64_MAX);
    }
    for (int r = 0; r < reps; r++) {
        record_group_each();
        wg_queue_wait(wg_device_get_queue(dev), UINT64_MAX);
    }
    uint32_t v = 0;
    wg_buffer_read(buf, 4092, &v, 4);
    printf("bench_record: x[1023] = %u (want %d)\n", v, 3 * reps * N);
    wg_bind_group_release(g);
    wg_buffer_release(buf);
    wg_compute_pipeline_release(pipe);
    wg_shader_module_release(m);
    wg_device_release(dev);
    wg_instance_release(inst);
    return v != (uint32_t)(3 * reps * N);
}
