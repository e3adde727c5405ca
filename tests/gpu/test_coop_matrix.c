/* test_coop_matrix.c - `enable chromium_experimental_subgroup_matrix` through the runtime.  On an
 * adapter without VK_KHR_cooperative_matrix (lavapipe) a shader module using it is a validation
 * error (WG_ERR_WGSL_COMPILE) that names the extension and the device, and the execution part
 * prints a visible SKIP.  Where the adapter has it, a device asked for the cooperative-matrix
 * feature runs a 48x32x64 f16 x f16 -> f32 product with 16x16x16 subgroup matrices (one
 * subgroup per workgroup, one 16x16 output tile each) and matches a double reference exactly
 * (the inputs are small multiples of 1/4, so every partial sum is exact in f32); a device not
 * asked for it rejects the module like lavapipe does. */
#include <math.h>

#include "gpu_test.h"

static const char *kernel =
    "enable f16;\n"
    "enable chromium_experimental_subgroup_matrix;\n"
    "struct P { m: u32, n: u32, k: u32 }\n"
    "@group(0) @binding(0) var<storage, read> a: array<f16>;\n"       /* M x K row-major */
    "@group(0) @binding(1) var<storage, read> b: array<f16>;\n"       /* K x N row-major */
    "@group(0) @binding(2) var<storage, read_write> c: array<f32>;\n" /* M x N row-major */
    "@group(0) @binding(3) var<uniform> p: P;\n"
    "@compute @workgroup_size(32)\n"
    "fn main(@builtin(workgroup_id) wg: vec3u) {\n"
    "  let row = wg.y * 16u;\n"
    "  let col = wg.x * 16u;\n"
    "  var acc = subgroup_matrix_result<f32, 16, 16>();\n"
    "  for (var k = 0u; k < p.k; k += 16u) {\n"
    "    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&a, row * p.k + k, false, p.k);\n"
    "    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>>(&b, k * p.n + col, false, p.n);\n"
    "    acc = subgroupMatrixMultiplyAccumulate(l, r, acc);\n"
    "  }\n"
    "  subgroupMatrixStore(&c, row * p.n + col, acc, false, p.n);\n"
    "}\n";

/* f16 bits of a value that is exactly representable (small multiples of 1/4 here) */
static uint16_t half_of(float x) {
    if (x == 0.0f) return 0;
    uint16_t s = x < 0 ? 0x8000 : 0;
    int e;
    float m = frexpf(fabsf(x), &e); /* x = m * 2^e, m in [0.5, 1) */
    return (uint16_t)(s | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)((uint32_t)(m * 2048.0f) & 0x3ff));
}

static void expect_rejected(wg_device *dev) {
    wg_device_push_error_scope(dev, WG_ERROR_TYPE_VALIDATION);
    wg_shader_module *m = wg_device_create_shader_module(dev, &(wg_shader_module_desc){ .label = "coop.wgsl", .wgsl = kernel });
    wg_error e;
    CHECK_EQ_INT(wg_device_pop_error_scope(dev, &e), WG_ERR_WGSL_COMPILE);
    CHECKF(strstr(e.message, "'chromium_experimental_subgroup_matrix' extension is not supported by the device") != NULL,
           "message: %s", e.message);
    printf("rejected as expected: %s\n", e.message);
    wg_shader_module_release(m);
}

static void run_product(gpu_fixture *f) {
    enum { M = 48, N = 32, K = 64 };
    uint16_t ha[M * K], hb[K * N];
    float fa[M * K], fb[K * N], out[M * N];
    for (int i = 0; i < M * K; i++) fa[i] = (float)((i * 7 + 3) % 9 - 4) * 0.25f;
    for (int i = 0; i < K * N; i++) fb[i] = (float)((i * 5 + 1) % 11 - 5) * 0.25f;
    for (int i = 0; i < M * K; i++) ha[i] = half_of(fa[i]);
    for (int i = 0; i < K * N; i++) hb[i] = half_of(fb[i]);
    wg_device *dev = f->dev;
    memset(out, 0, sizeof out);
    EXPECT_NO_ERROR(dev, {
        wg_shader_module *m = wg_device_create_shader_module(dev, &(wg_shader_module_desc){ .label = "coop.wgsl", .wgsl = kernel });
        wg_compute_pipeline *p = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){ .label = "coop", .module = m });
        wg_buffer *ba = mkbuf(dev, "a", sizeof ha, 0), *bb = mkbuf(dev, "b", sizeof hb, 0), *bc = mkbuf(dev, "c", sizeof out, 0);
        wg_buffer *bu = mkbuf(dev, "p", 16, WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_COPY_DST);
        wg_queue_write_buffer(f->q, ba, 0, ha, sizeof ha);
        wg_queue_write_buffer(f->q, bb, 0, hb, sizeof hb);
        wg_queue_write_buffer(f->q, bu, 0, (uint32_t[4]){ M, N, K, 0 }, 16);
        wg_bind_group *g = mkgroup(dev, p, 4, (wg_buffer *[]){ ba, bb, bc, bu });
        wg_command_encoder *enc = wg_device_create_command_encoder(dev, NULL);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
        wg_compute_pass_set_pipeline(pass, p);
        wg_compute_pass_set_bind_group(pass, 0, g, 0, NULL);
        wg_compute_pass_dispatch_workgroups(pass, N / 16, M / 16, 1);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
        wg_command_encoder_release(enc);
        wg_queue_submit(f->q, 1, &cb);
        CHECK_EQ_INT(wg_buffer_read(bc, 0, out, sizeof out), WG_STATUS_OK);
        wg_bind_group_release(g);
        wg_buffer_release(ba);
        wg_buffer_release(bb);
        wg_buffer_release(bc);
        wg_buffer_release(bu);
        wg_compute_pipeline_release(p);
        wg_shader_module_release(m);
    });
    int bad = 0;
    double maxerr = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < K; k++) s += (double)fa[i * K + k] * fb[k * N + j];
            double d = fabs(s - out[i * N + j]);
            if (d > maxerr) maxerr = d;
            bad += d != 0;
        }
    printf("cooperative matrix %dx%dx%d f16->f32: %d wrong, max error %g\n", M, N, K, bad, maxerr);
    CHECKF(bad == 0, "%d of %d wrong (max error %g)", bad, M * N, maxerr);
}

/* wg_adapter_info_has_coop_shape on a made-up adapter: every field of the shape must match, the
 * scope must be a subgroup and the adapter must have the feature */
static void shape_lookup(void) {
    static wg_adapter_info in;     /* large: static */
    memset(&in, 0, sizeof in);
    in.features = WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX);
    in.coop_shapes[0] = (wg_coop_matrix_shape){ 16, 8, 16, WG_COMPONENT_F16, WG_COMPONENT_F16, WG_COMPONENT_F32,
                                                WG_COMPONENT_F32, false, 3 };
    in.coop_shapes[1] = (wg_coop_matrix_shape){ 16, 16, 16, WG_COMPONENT_F16, WG_COMPONENT_F16, WG_COMPONENT_F16,
                                                WG_COMPONENT_F16, false, 3 };
    in.coop_shapes[2] = (wg_coop_matrix_shape){ 16, 16, 16, WG_COMPONENT_F16, WG_COMPONENT_F16, WG_COMPONENT_F32,
                                                WG_COMPONENT_F32, false, 2 };   /* workgroup scope */
    in.coop_shape_count = 3;
    CHECK(!adapter_has_coop_f16(&in));
    CHECK(wg_adapter_info_has_coop_shape(&in, 16, 8, 16, WG_COMPONENT_F16, WG_COMPONENT_F16, WG_COMPONENT_F32,
                                         WG_COMPONENT_F32));
    CHECK(!wg_adapter_info_has_coop_shape(&in, 8, 16, 16, WG_COMPONENT_F16, WG_COMPONENT_F16, WG_COMPONENT_F32,
                                          WG_COMPONENT_F32));
    in.coop_shapes[2].scope = 3;
    CHECK(adapter_has_coop_f16(&in));
    in.features = 0;
    CHECK(!adapter_has_coop_f16(&in));
    CHECK(!wg_adapter_info_has_coop_shape(NULL, 16, 16, 16, WG_COMPONENT_F16, WG_COMPONENT_F16, WG_COMPONENT_F32,
                                          WG_COMPONENT_F32));
}

int main(void) {
    shape_lookup();
    gpu_fixture f;
    fixture_init(&f, NULL);
    const wg_adapter_info *in = wg_adapter_get_info(f.ad);
    printf("adapter %s: cooperative matrix %s, %u shapes\n", in->name,
           in->features & WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX) ? "yes" : "no", in->coop_shape_count);
    /* a device not asked for the feature: the module is a validation error, whatever the adapter */
    expect_rejected(f.dev);
    if (!adapter_has_coop_f16(in)) {
        printf("SKIP: no cooperative matrix on %s (16x16x16 f16 -> f32 subgroup shape)\n", in->name);
    } else {
        wg_device_release(f.dev);
        f.dev = fixture_device(&f, &(wg_device_desc){ .required_features = WG_FEATURE_BIT(WG_FEATURE_SHADER_F16) |
                                                                           WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX) });
        CHECK(f.dev != NULL);
        if (!f.dev) return test_end();
        f.q = wg_device_get_queue(f.dev);
        CHECK(wg_device_has_feature(f.dev, WG_FEATURE_COOPERATIVE_MATRIX));
        run_product(&f);
    }
    fixture_end(&f);
    return test_end();
}
