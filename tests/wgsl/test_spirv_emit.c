/* test_spirv_emit.c - the emitter through the public API: the module's header, reflection of
 * entry points / bindings / overrides (with override values applied), the Vulkan 1.3 target,
 * and allocation failure at every allocation of a compile that emits: an "out of memory" error
 * (or NULL), never a crash or a leak. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test.h"
#include "wgc/wgsl.h"

static const char *kernel =
    "enable f16;\n"
    "struct S { a: vec3f, b: f32, m: mat2x2f, tail: array<vec4<f16>> }\n"
    "@group(0) @binding(1) var<storage, read_write> s: S;\n"
    "@group(0) @binding(0) var<uniform> u: mat2x2f;\n"
    "@group(2) @binding(5) var<storage, read> idx: array<i32, 16>;\n"
    "var<workgroup> tile: array<atomic<u32>, 64>;\n"
    "override n: u32 = 4u;\n"
    "@id(3) override k: i32;\n"
    "fn f(p: ptr<function, vec2f>) -> f32 { return (*p).x + u[1].y; }\n"
    "@compute @workgroup_size(n, 1, 2)\n"
    "fn main(@builtin(local_invocation_index) li: u32, @builtin(global_invocation_id) g: vec3u) {\n"
    "  atomicAdd(&tile[li], 1u);\n"
    "  workgroupBarrier();\n"
    "  var v = vec2f(f32(idx[g.x]) / f32(k), 1.0);\n"
    "  for (var i = 0u; i < n; i++) { v += s.m[i % 2u]; }\n"
    "  s.tail[g.x] = vec4<f16>(f16(f(&v)));\n"
    "  s.b = f32(atomicLoad(&tile[li % 64u])) + f32(i32(s.a.x) % k);\n"
    "}\n";

static int live, nallocs, fail_at;
static size_t bytes;                      /* bytes requested since last reset */

static void *t_alloc(void *user, size_t size) {
    (void)user;
    nallocs++;
    bytes += size;
    if (fail_at && nallocs >= fail_at) return NULL;
    void *p = malloc(size);
    if (p) live++;
    return p;
}

static void t_free(void *user, void *p) {
    (void)user;
    if (p) live--;
    free(p);
}

int main(void) {
    wgsl_override_value ov[] = { { .name = "n", .value = 16 }, { .name = NULL, .id = 3, .value = -2 } };
    wgsl_options opt = { .filename = "k.wgsl", .overrides = ov, .override_count = 2 };
    wgsl_result *r = wgsl_compile(kernel, strlen(kernel), &opt);
    CHECK(r != NULL);
    CHECKF(r->ok, "%s", wgsl_result_text(r));
    CHECK(r->spirv && r->spirv_word_count > 100);
    if (r->spirv) {
        CHECK_EQ_INT(r->spirv[0], 0x07230203u);
        CHECK_EQ_INT(r->spirv[1], 0x00010300u);
    }
    CHECK_EQ_INT(r->entry_point_count, 1);
    if (r->entry_point_count == 1) {
        CHECK_STR(r->entry_points[0].name, "main");
        CHECK_EQ_INT(r->entry_points[0].stage, WGSL_STAGE_COMPUTE);
        CHECK_EQ_INT(r->entry_points[0].workgroup_size[0], 16);
        CHECK_EQ_INT(r->entry_points[0].workgroup_size[1], 1);
        CHECK_EQ_INT(r->entry_points[0].workgroup_size[2], 2);
        CHECK_EQ_INT(r->entry_points[0].workgroup_size_override[0], 0);
        CHECK_EQ_INT(r->entry_points[0].workgroup_size_override[2], -1);
        CHECK_EQ_INT(r->entry_points[0].workgroup_memory_bytes, 256);
    }
    CHECK_EQ_INT(r->binding_count, 3);
    if (r->binding_count == 3) {
        const wgsl_binding *b = r->bindings;
        CHECK_STR(b[0].name, "u");
        CHECK_EQ_INT(b[0].kind, WGSL_BINDING_UNIFORM);
        CHECK_EQ_INT(b[0].min_size, 16);
        CHECK_STR(b[1].name, "s");
        CHECK_EQ_INT(b[1].kind, WGSL_BINDING_STORAGE_READ_WRITE);
        CHECK_EQ_INT(b[1].min_size, 32);
        CHECK_EQ_INT(b[1].array_stride, 8);
        CHECK_EQ_INT(b[1].entry_point_mask, 1);
        CHECK_EQ_INT(b[2].group, 2);
        CHECK_EQ_INT(b[2].binding, 5);
        CHECK_EQ_INT(b[2].kind, WGSL_BINDING_STORAGE_READ);
        CHECK_EQ_INT(b[2].min_size, 64);
        CHECK_EQ_INT(b[2].array_stride, 0);
    }
    CHECK_EQ_INT(r->override_count, 2);
    if (r->override_count == 2) {
        CHECK_STR(r->overrides[0].name, "n");
        CHECK_EQ_INT(r->overrides[0].type, WGSL_SCALAR_U32);
        CHECK(r->overrides[0].has_default && r->overrides[0].default_value == 4);
        CHECK_STR(r->overrides[1].name, "k");
        CHECK_EQ_INT(r->overrides[1].id, 3);
        CHECK(r->overrides[1].has_explicit_id);
        CHECK(!r->overrides[1].has_default);
    }
    wgsl_result_free(r);

    /* Vulkan 1.3 target: SPIR-V 1.6 */
    opt.target_env = WGSL_TARGET_VULKAN_1_3;
    r = wgsl_compile(kernel, strlen(kernel), &opt);
    CHECK(r && r->ok && r->spirv && r->spirv[1] == 0x00010600u);
    wgsl_result_free(r);

    /* check_only: no module, no reflection */
    opt.target_env = WGSL_TARGET_DEFAULT;
    opt.check_only = true;
    r = wgsl_compile(kernel, strlen(kernel), &opt);
    CHECK(r && r->ok && !r->spirv && !r->entry_point_count);
    wgsl_result_free(r);
    opt.check_only = false;

    /* zero values of long arrays are never built (issue 21 item 2): the compile of a 636M-element
     * zero array, indexed, costs what a short one does */
    {
        static const char *huge =
            "fn f(i: i32) -> i32 {\n"
            "  const c = array<array<u32, 636109182>, 1>()[0][636109181];\n"
            "  let a = array<array<i32, 40>, 50>();\n"   /* 8000 bytes: within the function memory limit */
            "  return a[i][i] + i32(c) + array<i32, 636109182>()[0];\n"
            "}\n"
            "@compute @workgroup_size(1) fn main() { _ = f(1); }\n";
        wgsl_options ho = { .filename = "huge.wgsl", .allocator = { .alloc = t_alloc, .free = t_free } };
        struct timespec t0, t1;
        bytes = 0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        r = wgsl_compile(huge, strlen(huge), &ho);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        CHECKF(r && r->ok, "%s", r ? wgsl_result_text(r) : "NULL");
        CHECKF(s < 0.5, "huge zero array: %.3f s", s);
        CHECKF(bytes < (size_t)4 << 20, "huge zero array: %zu bytes allocated", bytes);
        wgsl_result_free(r);
    }

    /* allocation failure at every allocation */
    opt.allocator = (wgsl_allocator){ .alloc = t_alloc, .free = t_free };
    int total = 0, failures_seen = 0;
    for (fail_at = 1; fail_at < 100000; fail_at++) {
        nallocs = 0;
        live = 0;
        r = wgsl_compile(kernel, strlen(kernel), &opt);
        if (r && r->ok) {
            CHECK(r->spirv != NULL);
            wgsl_result_free(r);
            CHECKF(live == 0, "leak with no failure: %d", live);
            total = nallocs;
            break;
        }
        if (r) {
            failures_seen++;
            CHECK(r->diagnostic_count >= 1);
            if (r->diagnostic_count) CHECKF(strstr(r->diagnostics[0].message, "out of memory") != NULL, "at %d: %s", fail_at, r->diagnostics[0].message);
        }
        wgsl_result_free(r);
        CHECKF(live == 0, "leak of %d blocks when allocation %d fails", live, fail_at);
    }
    CHECK(total > 0);
    CHECK(failures_seen > 0);
    printf("%d allocations, each failed once\n", total);
    return test_end();
}
