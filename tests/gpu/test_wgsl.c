/* test_wgsl.c - shader modules from WGSL source through wgc's own compiler: a kernel with an
 * automatic layout runs and matches the CPU; a compile error is WG_ERR_WGSL_COMPILE with the
 * compiler's file:line:col diagnostic in the message.  A module with three entry points, as
 * WGSL and as SPIR-V 1.3 and 1.6 words: each entry point reflects only the bindings its call
 * tree uses, and one of them runs with an explicit layout holding just its own binding. */
#include "gpu_test.h"
#include "wgc/wgsl.h"

static const char *multi =
    "@group(0) @binding(0) var<storage, read_write> a: array<u32, 16>;\n"
    "@group(0) @binding(1) var<storage, read_write> b: array<u32, 16>;\n"
    "@group(1) @binding(0) var<uniform> u: vec4u;\n"
    "@compute @workgroup_size(1) fn first() { a[0] = 99u; }\n"
    "fn sq(x: u32) -> u32 { return x * x + u.x; }\n"
    "fn store(i: u32) { b[i] = sq(i) + 1u; }\n"
    "@compute @workgroup_size(16) fn second(@builtin(local_invocation_index) l: u32) { store(l); }\n"
    "@compute @workgroup_size(8, 2) fn third(@builtin(local_invocation_id) l: vec3u) { a[l.x] = b[l.y]; }\n";

static const wg_shader_entry_info *find_ep(wg_shader_module *m, const char *name) {
    for (uint32_t i = 0; i < wg_shader_module_entry_point_count(m); i++)
        if (!strcmp(wg_shader_module_get_entry_point(m, i)->name, name))
            return wg_shader_module_get_entry_point(m, i);
    return NULL;
}

static bool uses(const wg_shader_entry_info *ep, uint32_t group, uint32_t binding) {
    for (uint32_t i = 0; ep && i < ep->binding_count; i++)
        if (ep->bindings[i].group == group && ep->bindings[i].binding == binding)
            return true;
    return false;
}

/* target: 0 WGSL source, 1 SPIR-V 1.3 words, 2 SPIR-V 1.6 words */
static void multi_entry(gpu_fixture *f, int target) {
    wg_device *dev = f->dev;
    wgsl_result *r = NULL;
    wg_shader_module_desc md = { .label = "multi.wgsl", .wgsl = multi };
    if (target) {
        r = wgsl_compile(multi, strlen(multi), &(wgsl_options){ .filename = "multi.wgsl",
            .target_env = target == 1 ? WGSL_TARGET_VULKAN_1_1 : WGSL_TARGET_VULKAN_1_3 });
        CHECK(r && r->ok && r->spirv);
        if (!r || !r->ok || !r->spirv) {
            wgsl_result_free(r);
            return;
        }
        CHECK_EQ_INT(r->spirv[1], target == 1 ? 0x00010300 : 0x00010600);
        md = (wg_shader_module_desc){ .label = "multi.spv", .spirv = r->spirv, .spirv_words = r->spirv_word_count };
    }
    uint32_t out[16] = { 0 };
    EXPECT_NO_ERROR(dev, {
        wg_shader_module *m = wg_device_create_shader_module(dev, &md);
        const wg_shader_entry_info *e1 = find_ep(m, "first"), *e2 = find_ep(m, "second"), *e3 = find_ep(m, "third");
        CHECK(e1 && e2 && e3);
        CHECKF(e1 && e1->binding_count == 1 && uses(e1, 0, 0), "target %d: first has %u bindings", target,
               e1 ? e1->binding_count : 0);
        CHECKF(e2 && e2->binding_count == 2 && uses(e2, 0, 1) && uses(e2, 1, 0), "target %d: second has %u", target,
               e2 ? e2->binding_count : 0);
        CHECKF(e3 && e3->binding_count == 2 && uses(e3, 0, 0) && uses(e3, 0, 1), "target %d: third has %u", target,
               e3 ? e3->binding_count : 0);
        /* explicit layout with only what `second` uses: group 0 {1}, group 1 {0} */
        wg_bind_group_layout *l0 = wg_device_create_bind_group_layout(dev, &(wg_bind_group_layout_desc){
            .label = "g0", .entry_count = 1,
            .entries = &(wg_bind_group_layout_entry){ .binding = 1, .type = WG_BINDING_TYPE_STORAGE } });
        wg_bind_group_layout *l1 = wg_device_create_bind_group_layout(dev, &(wg_bind_group_layout_desc){
            .label = "g1", .entry_count = 1,
            .entries = &(wg_bind_group_layout_entry){ .binding = 0, .type = WG_BINDING_TYPE_UNIFORM } });
        wg_pipeline_layout *pl = wg_device_create_pipeline_layout(dev, &(wg_pipeline_layout_desc){
            .label = "second", .bind_group_layout_count = 2, .bind_group_layouts = (wg_bind_group_layout *[]){ l0, l1 } });
        wg_compute_pipeline *p = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){
            .label = "second", .layout = pl, .module = m, .entry_point = "second" });
        wg_buffer *bb = mkbuf(dev, "b", 64, 0);
        wg_buffer *bu = mkbuf(dev, "u", 16, WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_COPY_DST);
        wg_queue_write_buffer(f->q, bu, 0, (uint32_t[4]){ 5, 0, 0, 0 }, 16);
        wg_bind_group *g0 = wg_device_create_bind_group(dev, &(wg_bind_group_desc){ .label = "g0", .layout = l0,
            .entry_count = 1, .entries = &(wg_bind_group_entry){ .binding = 1, .buffer = bb } });
        wg_bind_group *g1 = wg_device_create_bind_group(dev, &(wg_bind_group_desc){ .label = "g1", .layout = l1,
            .entry_count = 1, .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = bu } });
        wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
        wg_compute_pass_set_pipeline(pass, p);
        wg_compute_pass_set_bind_group(pass, 0, g0, 0, NULL);
        wg_compute_pass_set_bind_group(pass, 1, g1, 0, NULL);
        wg_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
        wg_command_encoder_release(enc);
        wg_queue_submit(f->q, 1, &cb);
        CHECK_EQ_INT(wg_buffer_read(bb, 0, out, sizeof out), WG_STATUS_OK);
        wg_bind_group_release(g0);
        wg_bind_group_release(g1);
        wg_buffer_release(bb);
        wg_buffer_release(bu);
        wg_compute_pipeline_release(p);
        wg_pipeline_layout_release(pl);
        wg_bind_group_layout_release(l0);
        wg_bind_group_layout_release(l1);
        wg_shader_module_release(m);
    });
    uint32_t bad = 0;
    for (uint32_t k = 0; k < 16; k++)
        bad += out[k] != k * k + 6;
    CHECKF(bad == 0, "target %d: %u wrong (out[3] = %u)", target, bad, out[3]);
    wgsl_result_free(r);
}

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
    for (int t = 0; t < 3; t++)
        multi_entry(&f, t);
    free(x);
    free(y);
    free(out);
    fixture_end(&f);
    return test_end();
}
