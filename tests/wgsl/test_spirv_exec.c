/* test_spirv_exec.c - the emitter's own lowerings, run on the default adapter through the wg
 * runtime (validation layers on) for both targets, with the results checked against values
 * worked out by hand: pointer arguments into sub-objects of storage, workgroup, function and
 * private memory (specialised calls), a storage pointer forwarded through two functions, a
 * pointer to a runtime-sized array (hidden length), a uniform matrix read through a pointer
 * (std140 shadow), signed / and % with negative operands and zero divisors, and workgroup
 * memory zeroed before use, swizzles through pointers, a loop nested in a continuing block,
 * assignments to one element of a swizzle (`v.zyx[i] = e`), a vector times a matrix in place. */
#include "gpu/gpu_test.h"
#include "wgc/wgsl.h"

static const char *kernel =
    "struct S { a: array<i32, 4>, b: array<i32, 4> }\n"
    "struct U { v: vec2f, m: mat2x2f, k: i32 }\n"
    "@group(0) @binding(0) var<storage, read_write> out: array<i32>;\n"
    "@group(0) @binding(1) var<storage, read_write> s: S;\n"
    "@group(0) @binding(2) var<uniform> u: U;\n"
    "var<workgroup> w: array<i32, 4>;\n"
    "var<workgroup> z: array<i32, 64>;\n"
    "var<private> pv: array<i32, 4>;\n"
    "fn inc(p: ptr<storage, i32, read_write>, by: i32) { *p += by; }\n"
    "fn fwd(p: ptr<storage, i32, read_write>) { inc(p, 5); }\n"
    "fn incw(p: ptr<workgroup, i32>) { *p += 10; }\n"
    "fn incf(p: ptr<function, i32>) { *p += 100; }\n"
    "fn incp(p: ptr<private, i32>) { *p += 1000; }\n"
    "fn len(p: ptr<storage, array<i32>, read_write>) -> i32 { return i32(arrayLength(p)); }\n"
    "fn ucol(p: ptr<uniform, mat2x2f>, i: u32) -> vec2f { return (*p)[i]; }\n"
    "fn zyx(q: ptr<function, vec4i>) -> vec3i { return q.zyx; }\n"
    "@compute @workgroup_size(4)\n"
    "fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  var zsum = 0;\n"
    "  for (var k = 0u; k < 64u; k++) { zsum += z[k]; }\n"
    "  workgroupBarrier();\n"
    "  w[i] = i32(i);\n"
    "  workgroupBarrier();\n"
    "  incw(&w[(i + 1u) % 4u]);\n"
    "  workgroupBarrier();\n"
    "  if (i == 0u) {\n"
    "    var loc = array<i32, 4>(1, 2, 3, 4);\n"
    "    incf(&loc[2]);\n"
    "    pv[3] = 7;\n"
    "    incp(&pv[3]);\n"
    "    inc(&s.a[1], 3);\n"
    "    fwd(&s.b[2]);\n"
    "    fwd(&out[9]);\n"
    "    out[0] = loc[2];\n"
    "    out[1] = pv[3];\n"
    "    out[2] = w[0];\n"
    "    out[3] = i32(ucol(&u.m, 1u).y * 10.0);\n"
    "    out[4] = len(&out);\n"
    "    let k = u.k;\n"
    "    out[5] = k % 3;\n"
    "    out[6] = (-k) % -3;\n"
    "    out[7] = k / 2;\n"
    "    out[8] = w[3];\n"
    "    out[10] = k % (k + 7);\n"
    "    out[11] = k / (k + 7);\n"
    "    out[12] = zsum;\n"
    "    out[13] = i32(u.m[0].x + u.v.y);\n"
    "    var sv = vec4i(1, 2, 3, 4);\n"
    "    let ps = &sv;\n"
    "    let sw = ps.wzyx;\n"
    "    out[14] = sw.x * 1000 + sw.y * 100 + sw.z * 10 + sw.w;\n"
    "    let t = zyx(ps);\n"
    "    out[15] = t.x * 100 + t.y * 10 + t.z;\n"
    "    var ln = 0; var la = 0; var lb = 0;\n"
    "    loop { ln += 1; continuing {\n"
    "      loop { la += 1; if (ln > 1) { lb += 1; break; } else { break; } }\n"
    "      break if ln >= 3; } }\n"
    "    out[16] = ln * 100 + la * 10 + lb;\n"
    "    var se = vec4i(1, 2, 3, 4);\n"
    "    se.zyx[1] = 20;\n"
    "    let pe = &se;\n"
    "    pe.wzyx[u32(k + 7)] = 30;\n"
    "    (*pe).xz[k + 8] += 5;\n"
    "    out[17] = se.x * 1000000 + se.y * 10000 + se.z * 100 + se.w;\n"
    "    var mv = vec2f(1.0, 2.0);\n"
    "    mv *= mat2x2f(1.0, 2.0, 3.0, 4.0) * f32(k + 8);\n"
    "    out[18] = i32(mv.x * 100.0 + mv.y);\n"
    "  }\n"
    "}\n";

int main(void) {
    gpu_fixture f;
    fixture_init(&f, NULL);
    wg_device *dev = f.dev;
    for (int t = 0; t < 2; t++) {
        wgsl_result *r = wgsl_compile(kernel, strlen(kernel), &(wgsl_options){
            .filename = "exec.wgsl", .target_env = t ? WGSL_TARGET_VULKAN_1_3 : WGSL_TARGET_VULKAN_1_1 });
        CHECKF(r && r->ok && r->spirv, "%s", r ? wgsl_result_text(r) : "oom");
        if (!r || !r->ok || !r->spirv) { wgsl_result_free(r); continue; }
        int32_t host[32];
        memset(host, 0, sizeof host);
        struct { float v[2]; float m[4]; int32_t k; int32_t pad; } uni = { { 1, 2 }, { 3, 4, 5, 6 }, -7, 0 };
        EXPECT_NO_ERROR(dev, {
            wg_compute_pipeline *p = mkpipe(dev, "exec", r->spirv, r->spirv_word_count);
            wg_buffer *bo = mkbuf(dev, "out", sizeof host, 0), *bs = mkbuf(dev, "s", 32, 0);
            wg_buffer *bu = mkbuf(dev, "u", sizeof uni, WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_COPY_DST);
            wg_queue_write_buffer(f.q, bu, 0, &uni, sizeof uni);
            wg_bind_group *g = mkgroup(dev, p, 3, (wg_buffer *[]){ bo, bs, bu });
            run1(dev, p, g, 1);
            int32_t sv[8];
            CHECK_EQ_INT(wg_buffer_read(bo, 0, host, sizeof host), WG_STATUS_OK);
            CHECK_EQ_INT(wg_buffer_read(bs, 0, sv, sizeof sv), WG_STATUS_OK);
            CHECK_EQ_INT(sv[1], 3);       /* s.a[1] += 3 through a specialised call */
            CHECK_EQ_INT(sv[6], 5);       /* s.b[2] += 5 through fwd -> inc */
            wg_bind_group_release(g);
            wg_buffer_release(bo);
            wg_buffer_release(bs);
            wg_buffer_release(bu);
            wg_compute_pipeline_release(p);
        });
        CHECK_EQ_INT(host[0], 103);       /* function array element */
        CHECK_EQ_INT(host[1], 1007);      /* private array element */
        CHECK_EQ_INT(host[2], 10);        /* workgroup element, incremented by a neighbour */
        CHECK_EQ_INT(host[3], 60);        /* uniform mat2x2 column 1 .y through a pointer */
        CHECK_EQ_INT(host[4], 32);        /* arrayLength through a pointer parameter */
        CHECK_EQ_INT(host[5], -1);        /* -7 % 3 */
        CHECK_EQ_INT(host[6], 1);         /* 7 % -3 */
        CHECK_EQ_INT(host[7], -3);        /* -7 / 2 */
        CHECK_EQ_INT(host[8], 13);
        CHECK_EQ_INT(host[9], 5);         /* out[9] through fwd -> inc */
        CHECK_EQ_INT(host[10], 0);        /* x % 0 == 0 */
        CHECK_EQ_INT(host[11], -7);       /* x / 0 == x */
        CHECK_EQ_INT(host[12], 0);        /* workgroup memory starts zeroed */
        CHECK_EQ_INT(host[13], 5);        /* u.m[0].x + u.v.y */
        CHECK_EQ_INT(host[14], 4321);     /* swizzle through a pointer: loads, then shuffles */
        CHECK_EQ_INT(host[15], 321);      /* the same through a pointer parameter */
        CHECK_EQ_INT(host[16], 332);      /* a loop that always breaks, inside continuing */
        CHECK_EQ_INT(host[17], 1200830);  /* swizzle elements assigned: constant and runtime index */
        CHECK_EQ_INT(host[18], 511);      /* v *= m: (1, 2) * mat2x2(1, 2, 3, 4) = (5, 11) */
        wgsl_result_free(r);
    }
    fixture_end(&f);
    return test_end();
}
