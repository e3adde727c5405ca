/* run_kernel.c - the smallest complete wgc program: compile a WGSL kernel (y = a*x + y) through
 * the runtime, run it on the default GPU (lavapipe on a machine without one), read back, check.
 *
 *   cc run_kernel.c $(pkg-config --cflags --libs wgc) -o run_kernel && ./run_kernel
 *
 * Errors: creation calls fill a wg_error; everything later reports through the device's error
 * scopes (one VALIDATION scope around the whole run here).  Exit 0 and "run_kernel: ok" on
 * success. */
#include <stdio.h>
#include <stdlib.h>

#include <wgc/gpu.h>

static const char *saxpy_wgsl =
    "struct Params { a: f32, n: u32 }\n"
    "@group(0) @binding(0) var<uniform> p: Params;\n"
    "@group(0) @binding(1) var<storage, read> x: array<f32>;\n"
    "@group(0) @binding(2) var<storage, read_write> y: array<f32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    if (id.x < p.n) { y[id.x] = p.a * x[id.x] + y[id.x]; }\n"
    "}\n";

int main(void) {
    enum { N = 1000 };
    wg_error err;
    wg_instance *inst = wg_instance_create(NULL, &err);
    if (!inst) {
        fprintf(stderr, "run_kernel: %s\n", err.message);
        return 1;
    }
    wg_adapter *ad = wg_instance_request_adapter(inst, NULL, &err);
    wg_device *dev = ad ? wg_adapter_create_device(ad, &(wg_device_desc){ .label = "example" }, &err) : NULL;
    if (!dev) {
        fprintf(stderr, "run_kernel: %s\n", err.message);
        wg_instance_release(inst);
        return 1;
    }
    printf("adapter: %s\n", wg_adapter_get_info(ad)->name);

    static float x[N], y[N], out[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    struct { float a; unsigned n; float pad[2]; } params = { 2.0f, N, { 0, 0 } };

    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
    wg_queue *q = wg_device_get_queue(dev);
    wg_buffer *pb = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "params", .size = sizeof params,
        .usage = WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_COPY_DST });
    wg_buffer *xb = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "x", .size = sizeof x });
    wg_buffer *yb = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "y", .size = sizeof y });
    wg_queue_write_buffer(q, pb, 0, &params, sizeof params);
    wg_queue_write_buffer(q, xb, 0, x, sizeof x);
    wg_queue_write_buffer(q, yb, 0, y, sizeof y);

    wg_shader_module *sm = wg_device_create_shader_module(dev, &(wg_shader_module_desc){ .label = "saxpy.wgsl",
        .wgsl = saxpy_wgsl });
    wg_compute_pipeline *pipe = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){
        .label = "saxpy", .module = sm });
    wg_bind_group *bg = wg_device_create_bind_group(dev, &(wg_bind_group_desc){ .label = "saxpy",
        .layout = wg_compute_pipeline_get_bind_group_layout(pipe, 0), .entry_count = 3,
        .entries = (wg_bind_group_entry[]){ { .binding = 0, .buffer = pb }, { .binding = 1, .buffer = xb },
                                            { .binding = 2, .buffer = yb } } });
    wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
    wg_compute_pass_set_pipeline(pass, pipe);
    wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
    wg_compute_pass_dispatch_workgroups(pass, (N + 63) / 64, 1, 1);
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
    wg_command_encoder_release(enc);
    wg_queue_submit(q, 1, &cb);
    wg_status st = wg_buffer_read(yb, 0, out, sizeof out);

    wg_error scope;
    int bad = 0;
    if (wg_device_pop_error_scope(dev, &scope) != WG_ERR_NONE) {
        fprintf(stderr, "run_kernel: %s\n", scope.message);
        bad = 1;
    }
    for (int i = 0; !bad && i < N; i++)
        if (st != WG_STATUS_OK || out[i] != 2.0f * (float)i + 1.0f) {
            fprintf(stderr, "run_kernel: y[%d] = %g, want %g\n", i, out[i], 2.0 * i + 1);
            bad = 1;
        }
    wg_bind_group_release(bg);
    wg_compute_pipeline_release(pipe);
    wg_shader_module_release(sm);
    wg_buffer_release(pb);
    wg_buffer_release(xb);
    wg_buffer_release(yb);
    wg_device_release(dev);
    wg_instance_release(inst);
    if (!bad)
        printf("run_kernel: ok (y[999] = %g)\n", out[N - 1]);
    return bad;
}
