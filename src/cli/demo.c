/* demo.c - `wgc demo`: shows the default adapter, adds two vectors of an odd length on the GPU
 * with the runtime's embedded add kernel, checks the result against the CPU and prints
 * "demo: ok".  Exit 1 on a wrong result or when there is no usable Vulkan. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gpu_add.spv.h"
#include "wgc/gpu.h"

int cli_demo(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: wgc demo\n  adds two vectors on the default GPU ($WGC_ADAPTER picks another), checks the\n"
                 "  result on the CPU and prints \"demo: ok\"; exit 1 on a wrong result or no usable Vulkan");
            return 0;
        }
        return cli_fail("demo: unknown option '%s' (try wgc demo --help)", argv[i]);
    }
    const uint32_t n = 100003;
    wg_error err;
    wg_instance *inst = wg_instance_create(NULL, &err);
    if (!inst) {
        fprintf(stderr, "wgc: %s\nwgc: install: apt-get install libvulkan1 mesa-vulkan-drivers\n", err.message);
        return 1;
    }
    wg_adapter *ad = wg_instance_request_adapter(inst, NULL, &err);
    wg_device *dev = ad ? wg_adapter_create_device(ad, &(wg_device_desc){ .label = "demo" }, &err) : NULL;
    if (!dev) {
        fprintf(stderr, "wgc: %s\n", err.message);
        wg_instance_release(inst);
        return 1;
    }
    const wg_adapter_info *info = wg_adapter_get_info(ad);
    printf("adapter: %s (%s, %s %s)\n", info->name, wg_adapter_type_name(info->type), info->driver_name,
           info->driver_info);
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *out = malloc(n * sizeof *out);
    int rc = 1;
    if (!a || !b || !out)
        goto done;
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 1000.0f - (float)i;
    }
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    wg_queue *q = wg_device_get_queue(dev);
    wg_buffer *ba = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "a", .size = n * 4 });
    wg_buffer *bb = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "b", .size = n * 4 });
    wg_buffer *bo = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "out", .size = n * 4 });
    wg_queue_write_buffer(q, ba, 0, a, n * 4);
    wg_queue_write_buffer(q, bb, 0, b, n * 4);
    wg_shader_module *sm = wg_device_create_shader_module(
        dev, &(wg_shader_module_desc){ .label = "add", .spirv = gpu_add_spv, .spirv_words = gpu_add_spv_words });
    wg_compute_pipeline *p = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){ .label = "add",
                                                                                                 .module = sm });
    wg_bind_group *bg = wg_device_create_bind_group(
        dev, &(wg_bind_group_desc){ .layout = wg_compute_pipeline_get_bind_group_layout(p, 0), .entry_count = 3,
                                    .entries = (wg_bind_group_entry[]){ { .binding = 0, .buffer = ba },
                                                                        { .binding = 1, .buffer = bb },
                                                                        { .binding = 2, .buffer = bo } } });
    wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
    wg_compute_pass_set_pipeline(pass, p);
    wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
    wg_compute_pass_dispatch_workgroups(pass, (n + 63) / 64, 1, 1);
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
    wg_command_encoder_release(enc);
    wg_queue_submit(q, 1, &cb);
    wg_status st = wg_buffer_read(bo, 0, out, n * 4);
    wg_error e1, e2;
    wg_error_id oom = wg_device_pop_error_scope(dev, &e1), val = wg_device_pop_error_scope(dev, &e2);
    if (st != WG_STATUS_OK || oom || val) {
        fprintf(stderr, "wgc: demo failed: status %d; %s; %s\n", (int)st, oom ? e1.message : "",
                val ? e2.message : "");
    } else {
        uint32_t bad = 0;
        for (uint32_t i = 0; i < n; i++)
            if (out[i] != a[i] + b[i] && bad++ < 5)
                fprintf(stderr, "wgc: demo: out[%u] = %g, expected %g\n", i, out[i], a[i] + b[i]);
        if (bad)
            fprintf(stderr, "wgc: demo: %u of %u wrong\n", bad, n);
        else {
            printf("vector add of %u floats on the GPU matches the CPU\ndemo: ok\n", n);
            rc = 0;
        }
    }
    wg_bind_group_release(bg);
    wg_compute_pipeline_release(p);
    wg_shader_module_release(sm);
    wg_buffer_release(ba);
    wg_buffer_release(bb);
    wg_buffer_release(bo);
done:
    free(a);
    free(b);
    free(out);
    wg_device_release(dev);
    wg_instance_release(inst);
    return rc;
}
