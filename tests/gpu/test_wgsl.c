/* test_wgsl.c - shader modules from WGSL source through wgc's own compiler: a kernel with an
 * automatic layout runs and matches the CPU; a compile error is WG_ERR_WGSL_COMPILE with the
 * compiler's file:line:col diagnostic in the message. */
#include "gpu_test.h"

static const char *saxpy =
    "struct P { a: f32, n: u32 }\n"
    "@group(0) @binding(0) var<storage, read> x: array<f32>;\n"
    "@group(0) @binding(1) var<storage, read_write> y: array<f32>;\n"
    "@group(0) @binding(2) var<uniform> p: P;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    if (id.x < p.n) { y[id.x] = p.a * x[id.x] + y[id.x]; }\n"
    "}\n";

int main(void) {
    gpu_fixture f;
    fixture_init(&f, NULL);
    wg_device *dev = f.dev;
    const uint32_t n = 1001;
    float *x = malloc(n * 4), *y = malloc(n * 4), *out = malloc(n * 4);
    for (uint32_t i = 0; i < n; i++)
        x[i] = (float)i, y[i] = 1.0f;
    struct { float a; uint32_t n; uint32_t pad[2]; } prm = { 3.0f, n, { 0, 0 } };
    EXPECT_NO_ERROR(dev, {
        wg_shader_module *m = wg_device_create_shader_module(dev, &(wg_shader_module_desc){ .label = "saxpy.wgsl",
                                                                                             .wgsl = saxpy });
        const wg_shader_entry_info *ep = wg_shader_module_get_entry_point(m, 0);
        CHECK(ep && ep->workgroup_size[0] == 64 && ep->binding_count == 3);
        wg_compute_pipeline *p = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){ .module = m });
        wg_buffer *bx = mkbuf(dev, "x", n * 4, 0), *by = mkbuf(dev, "y", n * 4, 0);
        wg_buffer *bp = mkbuf(dev, "p", sizeof prm, WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_COPY_DST);
        wg_queue_write_buffer(f.q, bx, 0, x, n * 4);
        wg_queue_write_buffer(f.q, by, 0, y, n * 4);
        wg_queue_write_buffer(f.q, bp, 0, &prm, sizeof prm);
        wg_bind_group *g = mkgroup(dev, p, 3, (wg_buffer *[]){ bx, by, bp });
        run1(dev, p, g, (n + 63) / 64);
        CHECK_EQ_INT(wg_buffer_read(by, 0, out, n * 4), WG_STATUS_OK);
        wg_bind_group_release(g);
        wg_buffer_release(bx);
        wg_buffer_release(by);
        wg_buffer_release(bp);
        wg_compute_pipeline_release(p);
        wg_shader_module_release(m);
    });
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += out[i] != 3.0f * (float)i + 1.0f;
    CHECKF(bad == 0, "%u wrong", bad);

    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
    wg_shader_module *bad_m = wg_device_create_shader_module(
        dev, &(wg_shader_module_desc){ .label = "bad.wgsl", .wgsl = "@compute @workgroup_size(1)\nfn main() { let x: u32 = 1.5; }\n" });
    wg_error e;
    CHECK_EQ_INT(wg_device_pop_error_scope(dev, &e), WG_ERR_WGSL_COMPILE);
    CHECKF(strstr(e.message, "bad.wgsl:2:") != NULL, "message: %s", e.message);
    wg_shader_module_release(bad_m);
    free(x);
    free(y);
    free(out);
    fixture_end(&f);
    return test_end();
}
