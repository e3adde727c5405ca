/* test_wgsl.c - shader modules from WGSL source through wgc's own compiler: a kernel with an
 * automatic layout runs and matches the CPU; a compile error is WG_ERR_WGSL_COMPILE with the
 * compiler's file:line:col diagnostic in the message.  A module with three entry points, as
 * WGSL and as SPIR-V 1.3 and 1.6 words: each entry point reflects only the bindings its call
 * tree uses, and one of them runs with an explicit layout holding just its own binding.
 * Workgroup storage, in the same three forms: each entry point's size as WebGPU counts it (by
 * hand below, and the compiler's own reflection agrees), and a pipeline one element past
 * maxComputeWorkgroupStorageSize is WG_ERR_WORKGROUP_STORAGE_LIMIT while one at the limit builds. */
#include "gpu/internal.h"
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

/* Workgroup storage, by WebGPU's rules (each variable roundUp(16, SizeOf)): S is a vec3f (12) and
 * an f32 at 12, array<vec3f, 3> at 16 (stride 16, 48 bytes), a bool at 64, mat3x3f at 80 (three
 * 16-byte columns): 128 bytes; t: 7 atomics, 28 -> 32; v: one vec2<u32>, 8 -> 16; big: 5 f32, 20
 * -> 32.  `one` uses s and t, `two` t and v through a helper, `three` none, `four` big. */
static const char *wg_src =
    "struct S { a: vec3f, b: f32, c: array<vec3f, 3>, d: bool, m: mat3x3f }\n"
    "var<workgroup> s: S;\n"
    "var<workgroup> t: array<atomic<u32>, 7>;\n"
    "var<workgroup> v: vec2<u32>;\n"
    "var<workgroup> big: array<f32, 5>;\n"
    "@group(0) @binding(0) var<storage, read_write> o: array<u32, 4>;\n"
    "fn helper() -> u32 { v.x = 3u; return atomicAdd(&t[6], v.x); }\n"
    "@compute @workgroup_size(1) fn one() { s.b = 1.0; atomicStore(&t[0], u32(s.b)); s.d = true; }\n"
    "@compute @workgroup_size(1) fn two() { o[0] = helper(); }\n"
    "@compute @workgroup_size(1) fn three() { o[1] = 7u; }\n"
    "@compute @workgroup_size(1) fn four() { big[4] = 2.0; o[2] = u32(big[0]); }\n";

/* target as in multi_entry: the module from wg_src as WGSL or SPIR-V words; n f32 of workgroup
 * storage in a module of its own (the Vulkan validation layers of Debian 12 count every
 * workgroup variable of a module against each entry point), which builds when `fits` and is
 * WG_ERR_WORKGROUP_STORAGE_LIMIT otherwise. */
static wgsl_result *wg_compile(const char *src, int target) {
    wgsl_result *r = wgsl_compile(src, strlen(src), &(wgsl_options){ .filename = "wg.wgsl",
        .target_env = target == 2 ? WGSL_TARGET_VULKAN_1_3 : WGSL_TARGET_VULKAN_1_1 });
    CHECK(r && r->ok && r->spirv);
    return r;
}

static void workgroup_storage(gpu_fixture *f, int target, uint32_t n, bool fits) {
    wg_device *dev = f->dev;
    wgsl_result *r = wg_compile(wg_src, target);
    char src[256];
    snprintf(src, sizeof src, "var<workgroup> w: array<f32, %u>;\n"
             "@group(0) @binding(0) var<storage, read_write> o: array<f32, 4>;\n"
             "@compute @workgroup_size(1) fn edge() { w[%u] = 2.0; o[0] = w[0]; }\n", n, n - 1);
    wgsl_result *r2 = wg_compile(src, target);
    if (!r || !r->ok || !r->spirv || !r2 || !r2->ok || !r2->spirv) {
        wgsl_result_free(r);
        wgsl_result_free(r2);
        return;
    }
    wg_shader_module_desc md = { .label = "wg.wgsl", .wgsl = wg_src }, md2 = { .label = "edge.wgsl", .wgsl = src };
    if (target) {
        md = (wg_shader_module_desc){ .label = "wg.spv", .spirv = r->spirv, .spirv_words = r->spirv_word_count };
        md2 = (wg_shader_module_desc){ .label = "edge.spv", .spirv = r2->spirv, .spirv_words = r2->spirv_word_count };
    }
    static const char *names[4] = { "one", "two", "three", "four" };
    static const uint32_t want[4] = { 128 + 32, 32 + 16, 0, 32 };
    wg_shader_module *m = NULL, *m2 = NULL;
    EXPECT_NO_ERROR(dev, m = wg_device_create_shader_module(dev, &md); m2 = wg_device_create_shader_module(dev, &md2));
    for (int i = 0; i < 4; i++) {
        const wg_shader_entry_info *ep = find_ep(m, names[i]);
        uint32_t compiler = 0;
        for (uint32_t k = 0; k < r->entry_point_count; k++)
            if (!strcmp(r->entry_points[k].name, names[i]))
                compiler = r->entry_points[k].workgroup_memory_bytes;
        CHECKF(ep && ep->workgroup_storage_size == want[i] && compiler == want[i],
               "target %d, %s: reflected %u, compiler %u, expected %u", target, names[i],
               ep ? ep->workgroup_storage_size : 0, compiler, want[i]);
    }
    const wg_shader_entry_info *ep = find_ep(m2, "edge");
    CHECKF(ep && ep->workgroup_storage_size == (n * 4 + 15) / 16 * 16, "target %d, edge: %u bytes for %u f32",
           target, ep ? ep->workgroup_storage_size : 0, n);
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
    wg_compute_pipeline *p = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){
        .label = "edge", .module = m2 });
    wg_error e;
    wg_error_id id = wg_device_pop_error_scope(dev, &e);
    if (fits)
        CHECKF(id == WG_ERR_NONE, "target %d, %u f32: %s", target, n, wg_error_id_name(id));
    else
        CHECKF(id == WG_ERR_WORKGROUP_STORAGE_LIMIT && strstr(e.message, "'edge' uses") != NULL,
               "target %d, %u f32: %s (%s)", target, n, wg_error_id_name(id), id ? e.message : "");
    wg_compute_pipeline_release(p);
    if (target == 1 && !fits) {
        /* the array's length constant made 2^30 + n: 4 GiB and more, past uint32_t, saturates */
        uint32_t *words = malloc(r2->spirv_word_count * 4);
        memcpy(words, r2->spirv, r2->spirv_word_count * 4);
        int patched = 0;
        for (size_t i = 5; i < r2->spirv_word_count; i += words[i] >> 16)
            if ((words[i] & 0xffff) == 43 && (words[i] >> 16) == 4 && words[i + 3] == n)
                words[i + 3] = (1u << 30) + n, patched++;
        CHECK_EQ_INT(patched, 1);
        wg_shader_module *m3 = NULL;
        EXPECT_NO_ERROR(dev, m3 = wg_device_create_shader_module(dev, &(wg_shader_module_desc){
            .label = "huge.spv", .spirv = words, .spirv_words = r2->spirv_word_count }));
        ep = find_ep(m3, "edge");
        CHECKF(ep && ep->workgroup_storage_size == UINT32_MAX, "2^30 + %u f32: %u bytes", n,
               ep ? ep->workgroup_storage_size : 0);
        wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
        p = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){ .label = "huge", .module = m3 });
        CHECK_EQ_INT(wg_device_pop_error_scope(dev, &e), WG_ERR_WORKGROUP_STORAGE_LIMIT);
        wg_compute_pipeline_release(p);
        wg_shader_module_release(m3);
        free(words);
    }
    wg_shader_module_release(m);
    wg_shader_module_release(m2);
    wgsl_result_free(r);
    wgsl_result_free(r2);
}

/* Which entry points use workgroup matrices (the driver then keeps wgm_reserved_shared_memory of
 * the workgroup storage limit: pipeline.c): `mm` through a helper, `plain` not, `sub` a subgroup
 * matrix only.  Reflected from the words (wg__reflect) for SPIR-V 1.3 and 1.6: lavapipe has no
 * cooperative matrices, so no module is made there.  Where the adapter has workgroup matrices
 * (H200: 8192 of 49152 reserved), a kernel with them and limit - reserve bytes of its own builds
 * and 16 more are WG_ERR_WORKGROUP_STORAGE_LIMIT; elsewhere a visible SKIP. */
static void workgroup_matrix_use(void) {
    static const char *src =
        "enable f16;\nenable chromium_experimental_subgroup_matrix;\nenable wgc_workgroup_matrix;\n"
        "@group(0) @binding(0) var<storage, read_write> o: array<f32>;\n"
        "@group(0) @binding(1) var<storage, read> x: array<f16>;\n"
        "var<workgroup> w: array<f32, 64>;\n"
        "fn load() -> workgroup_matrix_left<f16, 64, 128> {\n"
        "  return workgroupMatrixLoad<workgroup_matrix_left<f16, 64, 128>>(&x, 0u, false, 64u);\n}\n"
        "@compute @workgroup_size(256) fn mm() {\n"
        "  let a = load();\n"
        "  let r = workgroupMatrixMultiplyAccumulate(a, workgroup_matrix_right<f16, 64, 64>(),\n"
        "                                            workgroup_matrix_result<f32, 64, 128>());\n"
        "  workgroupMatrixStore(&o, 0u, r, false, 64u);\n}\n"
        "@compute @workgroup_size(64) fn plain(@builtin(local_invocation_index) i: u32) {\n"
        "  w[i] = 1.0; o[i] = w[63u - i];\n}\n"
        "@compute @workgroup_size(32) fn sub() {\n"
        "  let s = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&x, 0u, false, 16u);\n"
        "  let m = subgroupMatrixMultiply<f32>(s, subgroup_matrix_right<f16, 16, 16>());\n"
        "  subgroupMatrixStore(&o, 0u, m, false, 16u);\n}\n";
    for (int target = 1; target <= 2; target++) {
        wgsl_result *r = wgsl_compile(src, strlen(src), &(wgsl_options){ .filename = "wgm.wgsl",
            .target_env = target == 2 ? WGSL_TARGET_VULKAN_1_3 : WGSL_TARGET_VULKAN_1_1 });
        CHECKF(r && r->ok && r->spirv, "%s", r ? wgsl_result_text(r) : "no result");
        if (!r || !r->ok || !r->spirv) {
            wgsl_result_free(r);
            continue;
        }
        wg_shader_entry_info eps[4];
        uint32_t n = 0;
        char detail[160];
        CHECK_EQ_INT(wg__reflect(NULL, r->spirv, r->spirv_word_count, eps, 4, &n, detail, sizeof detail), WG_ERR_NONE);
        CHECK_EQ_INT(n, 3);
        for (uint32_t i = 0; i < n && i < 4; i++) {
            bool want = !strcmp(eps[i].name, "mm");
            CHECKF(eps[i].workgroup_matrices == want, "target %d, %s: workgroup_matrices %d", target, eps[i].name,
                   eps[i].workgroup_matrices);
            CHECKF(eps[i].workgroup_storage_size == (strcmp(eps[i].name, "plain") ? 0u : 256u),
                   "target %d, %s: %u bytes", target, eps[i].name, eps[i].workgroup_storage_size);
        }
        wgsl_result_free(r);
    }
}

/* Reflection of damaged words: wg_src's module (SPIR-V 1.3 and 1.6) with 1 to 3 words replaced by
 * random ones or by neighbouring ids, 3000 times; wg__reflect returns every time (any verdict),
 * and an accepted module's workgroup storage is whole 16-byte units (WebGPU's roundUp(16, size)
 * per variable) or saturated.  Run under ASan and valgrind by `make asan` / `make valgrind`: no
 * read outside the words, no runaway recursion through the type sizes. */
static void reflect_damaged(void) {
    uint32_t seed = 12345;
    for (int target = 1; target <= 2; target++) {
        wgsl_result *r = wg_compile(wg_src, target);
        if (!r || !r->ok || !r->spirv) {
            wgsl_result_free(r);
            continue;
        }
        size_t n = r->spirv_word_count;
        uint32_t *w = malloc(n * 4);
        int accepted = 0;
        for (int it = 0; it < 3000 && w; it++) {
            memcpy(w, r->spirv, n * 4);
            int k = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 3;
            for (int j = 0; j < k; j++) {
                seed = seed * 1103515245u + 12345u;
                size_t at = 5 + (seed >> 8) % (n - 5);
                seed = seed * 1103515245u + 12345u;
                w[at] = (seed & 1) ? seed : w[at] + (seed >> 28) - 8;   /* anything, or a near id / count */
            }
            wg_shader_entry_info eps[8];
            uint32_t count = 0;
            char detail[160];
            if (wg__reflect(NULL, w, n, eps, 8, &count, detail, sizeof detail) == WG_ERR_NONE) {
                accepted++;
                for (uint32_t e = 0; e < count && e < 8; e++) {
                    uint32_t s = eps[e].workgroup_storage_size;
                    if (s % 16 && s != UINT32_MAX)
                        CHECKF(false, "target %d, iteration %d, %s: %u bytes of workgroup storage", target, it,
                               eps[e].name, s);
                }
            }
        }
        CHECKF(accepted > 0 && accepted < 3000, "target %d: %d of 3000 damaged modules accepted", target, accepted);
        free(w);
        wgsl_result_free(r);
    }
}

static void workgroup_matrix_limit(gpu_fixture *f) {
    const wg_adapter_info *in = wg_adapter_get_info(f->ad);
    if (!(in->features & WG_FEATURE_BIT(WG_FEATURE_WORKGROUP_MATRIX))) {
        printf("SKIP: no workgroup matrices on %s (the reserve's limit)\n", in->name);
        return;
    }
    uint64_t feats = WG_FEATURE_BIT(WG_FEATURE_SHADER_F16) | WG_FEATURE_BIT(WG_FEATURE_WORKGROUP_MATRIX);
    wg_device *dev = fixture_device(f, &(wg_device_desc){ .required_features = feats });
    if (!dev)
        return;
    uint32_t lim = (uint32_t)wg_device_get_limits(dev)->max_compute_workgroup_storage_size;
    uint32_t room = lim - in->wgm_reserved_shared_memory;
    printf("workgroup matrices: %u of %u bytes reserved\n", in->wgm_reserved_shared_memory, lim);
    for (int over = 0; over < 2; over++) {
        uint32_t n = room / 4 + (over ? 4 : 0);
        char src[1024];
        snprintf(src, sizeof src,
                 "enable f16;\nenable wgc_workgroup_matrix;\n"
                 "@group(0) @binding(0) var<storage, read_write> o: array<f32>;\n"
                 "@group(0) @binding(1) var<storage, read> x: array<f16>;\n"
                 "var<workgroup> w: array<f32, %u>;\n"
                 "@compute @workgroup_size(256) fn main(@builtin(local_invocation_index) i: u32) {\n"
                 "  let a = workgroupMatrixLoad<workgroup_matrix_left<f16, 64, 128>>(&x, 0u, false, 64u);\n"
                 "  let r = workgroupMatrixMultiplyAccumulate(a, workgroup_matrix_right<f16, 64, 64>(),\n"
                 "                                            workgroup_matrix_result<f32, 64, 128>());\n"
                 "  workgroupMatrixStore(&o, 0u, r, false, 64u);\n"
                 "  w[i] = 1.0;\n  workgroupBarrier();\n  o[i] += w[%uu - i];\n}\n", n, n - 1);
        wg_shader_module *m = NULL;
        EXPECT_NO_ERROR(dev, m = wg_device_create_shader_module(dev, &(wg_shader_module_desc){ .label = "wgm",
                                                                                               .wgsl = src }));
        const wg_shader_entry_info *ep = wg_shader_module_get_entry_point(m, 0);
        CHECK(ep && ep->workgroup_matrices && ep->workgroup_storage_size == n * 4);
        wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
        wg_compute_pipeline *p = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){ .module = m });
        wg_error e;
        wg_error_id id = wg_device_pop_error_scope(dev, &e);
        CHECKF(id == (over ? WG_ERR_WORKGROUP_STORAGE_LIMIT : WG_ERR_NONE),
               "%u bytes beside workgroup matrices: %s (%s)", n * 4, wg_error_id_name(id), id ? e.message : "");
        wg_compute_pipeline_release(p);
        wg_shader_module_release(m);
    }
    wg_device_release(dev);
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
    workgroup_matrix_use();
    reflect_damaged();
    workgroup_matrix_limit(&f);
    uint32_t lim = (uint32_t)wg_device_get_limits(dev)->max_compute_workgroup_storage_size;
    for (int t = 0; t < 3; t++) {
        workgroup_storage(&f, t, lim / 4, true);
        workgroup_storage(&f, t, lim / 4 + 1, false);
    }
    free(x);
    free(y);
    free(out);
    fixture_end(&f);
    return test_end();
}
