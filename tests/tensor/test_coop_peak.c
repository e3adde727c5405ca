/* test_coop_peak.c - the subgroup-matrix ceiling of a device (tests/tensor/coop_peak.wgsl): how
 * fast VK_KHR_cooperative_matrix multiply-accumulates f16 16 x 16 x 16 fragments into f32 when
 * nothing else runs (fragments in registers, MODE 0) and when every step loads its fragments from
 * workgroup memory (MODE 1..3: the layouts of matmul_coop.wgsl's slices).  Everywhere, every
 * variant (mode x accumulators x workgroup size) compiles with our compiler; where the adapter has
 * cooperative matrices, small runs of each mode and accumulator shape are checked against a
 * double reference (the inputs are multiples of 1/4 in [-1, 1], so every partial sum is exact in
 * f32); lavapipe has none (SKIP), and test_coop_emu.sh runs the kernel there with the matrices
 * emulated.  WGC_COOP_BENCH=1 adds the timing table: TFLOP/s per mode, accumulators per
 * subgroup (RA x RB of 16 x 16), subgroups per workgroup and workgroups (132 = one per H200 SM),
 * each the best of 3 submissions of 3 dispatches, host-timed (each dispatch runs milliseconds),
 * with the first subgroup's and the last subgroup's outputs checked again. */
#include <math.h>
#include <time.h>

#include "../gpu/gpu_test.h"
#include "wgc/wgsl.h"

static char *kernel_text;

/* SPIR-V of the kernel for one variant, or NULL (the failure is reported). */
static wgsl_result *compile(unsigned mode, unsigned ra, unsigned rb, unsigned nsg) {
    size_t n = strlen(kernel_text) + 256;
    char *src = malloc(n);
    snprintf(src, n,
             "enable f16;\nenable subgroups;\nenable chromium_experimental_subgroup_matrix;\n"
             "const MODE: u32 = %uu;\nconst RA: u32 = %uu;\nconst RB: u32 = %uu;\nconst NSG: u32 = %uu;\n%s",
             mode, ra, rb, nsg, kernel_text);
    wgsl_result *r = wgsl_compile(src, strlen(src), &(wgsl_options){ .filename = "coop_peak.wgsl", .no_bounds_checks = true });
    free(src);
    CHECKF(r && r->ok && r->spirv_word_count > 0, "coop_peak.wgsl MODE %u RA %u RB %u NSG %u: %s", mode, ra, rb, nsg,
           r ? wgsl_result_text(r) : "out of memory");
    if (r && !r->ok) {
        wgsl_result_free(r);
        return NULL;
    }
    return r;
}

/* f16 bits of a multiple of 1/4 in [-1, 1] */
static uint16_t half_q(int q) {
    if (q == 0) return 0;
    uint16_t s = q < 0 ? 0x8000 : 0;
    int a = q < 0 ? -q : q;          /* 1..4 quarters */
    static const uint16_t mag[5] = { 0, 0x3400, 0x3800, 0x3a00, 0x3c00 };   /* 0.25 0.5 0.75 1 */
    return (uint16_t)(s | mag[a]);
}

enum { NIN = 64 * 32 + 32 * 64 };
static int qa[64 * 32], qb[32 * 64];   /* A (64 x 32), B (32 x 64) in quarters */

/* expected value of accumulator (i, j), element (r, c), after `steps` steps of `mode` */
static double expect(unsigned mode, uint32_t steps, unsigned i, unsigned j, unsigned r, unsigned c) {
    double lo = 0, hi = 0;
    for (int k = 0; k < 16; k++) {
        lo += 0.0625 * qa[(i * 16 + r) * 32 + k] * qb[k * 64 + j * 16 + c];
        hi += 0.0625 * qa[(i * 16 + r) * 32 + 16 + k] * qb[(16 + k) * 64 + j * 16 + c];
    }
    if (mode == 0) return steps * lo;
    return (double)((steps + 1) / 2) * lo + (double)(steps / 2) * hi;
}

typedef struct peak {
    wg_device *dev;
    wg_queue *q;
    wg_buffer *out, *in, *uni;
    uint64_t out_bytes;
} peak;

/* subgroups [first, first + count) of the last run against the reference; the number wrong */
static int check_out(peak *pk, unsigned mode, unsigned ra, unsigned rb, uint32_t steps, uint32_t first, uint32_t count) {
    size_t n = (size_t)count * 16 * 256;
    float *o = malloc(n * sizeof *o);
    CHECK_EQ_INT(wg_buffer_read(pk->out, (uint64_t)first * 16 * 256 * 4, o, n * sizeof *o), WG_STATUS_OK);
    int bad = 0;
    for (uint32_t g = 0; g < count; g++)
        for (unsigned i = 0; i < ra; i++)
            for (unsigned j = 0; j < rb; j++)
                for (unsigned e = 0; e < 256; e++) {
                    double x = expect(mode, steps, i, j, e / 16, e % 16);
                    bad += fabs(o[((size_t)g * 16 + i * 4 + j) * 256 + e] - x) > 1e-6 * (1 + fabs(x));
                }
    free(o);
    return bad;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* `reps` dispatches of `groups` workgroups in one pass, submitted; waits when `wait`. */
static void dispatch(peak *pk, wg_compute_pipeline *p, wg_bind_group *bg, uint32_t groups, int reps) {
    wg_command_encoder *enc = wg_device_create_command_encoder(pk->dev, NULL);
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, NULL);
    wg_compute_pass_set_pipeline(pass, p);
    wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
    for (int r = 0; r < reps; r++) wg_compute_pass_dispatch_workgroups(pass, groups, 1, 1);
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
    wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
    wg_command_encoder_release(enc);
    wg_queue_submit(pk->q, 1, &cb);
    CHECK_EQ_INT(wg_queue_wait(pk->q, UINT64_MAX), WG_STATUS_OK);
}

/* Runs one variant: steps per subgroup, groups workgroups; checks the first and last subgroups;
 * with `timed`, returns the best TFLOP/s of 3 submissions of 3 dispatches after 0.3 s of
 * dispatches (else 0). */
static double run_variant(peak *pk, unsigned mode, unsigned ra, unsigned rb, unsigned nsg, uint32_t groups,
                          uint32_t steps, bool timed) {
    wgsl_result *r = compile(mode, ra, rb, nsg);
    if (!r) return 0;
    double best = 0;
    uint32_t sgs = groups * nsg;
    CHECK((uint64_t)sgs * 16 * 256 * 4 <= pk->out_bytes);
    EXPECT_NO_ERROR(pk->dev, {
        wg_compute_pipeline *p = mkpipe(pk->dev, "coop_peak", r->spirv, r->spirv_word_count);
        wg_queue_write_buffer(pk->q, pk->uni, 0, (uint32_t[4]){ steps, 0, 0, 0 }, 16);
        wg_bind_group *bg = mkgroup(pk->dev, p, 3, (wg_buffer *[]){ pk->out, pk->in, pk->uni });
        dispatch(pk, p, bg, groups, 1);
        for (double w0 = now_s(); timed && now_s() - w0 < 0.3;)   /* the GPU's clocks, low after idle */
            dispatch(pk, p, bg, groups, 1);
        for (int rep = 0; timed && rep < 3; rep++) {
            double t0 = now_s();
            dispatch(pk, p, bg, groups, 3);
            double dt = now_s() - t0;
            double tf = 3.0 * sgs * (double)steps * ra * rb * 8192.0 / dt / 1e12;
            if (tf > best) best = tf;
        }
        wg_bind_group_release(bg);
        wg_compute_pipeline_release(p);
    });
    wgsl_result_free(r);
    int bad = check_out(pk, mode, ra, rb, steps, 0, 1) + check_out(pk, mode, ra, rb, steps, sgs - 1, 1);
    CHECKF(bad == 0, "MODE %u RA %u RB %u NSG %u, %u groups, %u steps: %d wrong", mode, ra, rb, nsg, groups, steps, bad);
    return best;
}

static const char *mode_name[4] = { "registers", "wg mem A row B row", "wg mem A col B row", "wg mem A row B col" };

int main(void) {
    kernel_text = test_read_file("tests/tensor/coop_peak.wgsl", NULL);
    if (!kernel_text) {
        fprintf(stderr, "FAIL: tests/tensor/coop_peak.wgsl not found (run from the repository root)\n");
        return 1;
    }
    int n = 0;
    static const unsigned shapes[][2] = { { 1, 1 }, { 2, 2 }, { 2, 4 }, { 4, 4 } };
    for (unsigned mode = 0; mode < 4; mode++)
        for (unsigned s = 0; s < 4; s++)
            for (unsigned nsg = 4; nsg <= 16; nsg *= 2, n++) wgsl_result_free(compile(mode, shapes[s][0], shapes[s][1], nsg));
    printf("coop_peak.wgsl: %d variants compiled\n", n);
    gpu_fixture f;
    fixture_init(&f, NULL);
    const wg_adapter_info *in = wg_adapter_get_info(f.ad);
    if (!adapter_has_coop_f16(in) || !wg_adapter_has_feature(f.ad, WG_FEATURE_SUBGROUPS) ||
        in->subgroup_min_size != 32 || in->subgroup_max_size != 32) {
        printf("SKIP: no cooperative matrix (16x16x16 f16 -> f32, subgroups of 32) on %s; test_coop_emu.sh runs the "
               "kernel emulated\n", in->name);
        fixture_end(&f);
        free(kernel_text);
        return test_end();
    }
    wg_device_release(f.dev);
    f.dev = fixture_device(&f, &(wg_device_desc){ .required_features = WG_FEATURE_BIT(WG_FEATURE_SHADER_F16) |
                                                                       WG_FEATURE_BIT(WG_FEATURE_SUBGROUPS) |
                                                                       WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX) });
    CHECK(f.dev != NULL);
    if (!f.dev) return test_end();
    f.q = wg_device_get_queue(f.dev);
    const char *bn = getenv("WGC_COOP_BENCH");
    bool bench = bn && *bn == '1';
    peak pk = { .dev = f.dev, .q = f.q, .out_bytes = (uint64_t)(bench ? 132 * 32 : 64) * 16 * 256 * 4 };
    uint64_t seed = 0x9eab;
    uint16_t h[NIN];
    for (int i = 0; i < 64 * 32; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        qa[i] = (int)((seed >> 33) % 9) - 4;
        h[i] = half_q(qa[i]);
    }
    for (int i = 0; i < 32 * 64; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        qb[i] = (int)((seed >> 33) % 9) - 4;
        h[2048 + i] = half_q(qb[i]);
    }
    pk.out = mkbuf(f.dev, "out", pk.out_bytes, 0);
    pk.in = mkbuf(f.dev, "in", sizeof h, 0);
    pk.uni = mkbuf(f.dev, "steps", 16, WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_COPY_DST);
    wg_queue_write_buffer(f.q, pk.in, 0, h, sizeof h);
    /* correctness: every mode and accumulator shape, 2 workgroups, an odd number of steps */
    for (unsigned mode = 0; mode < 4; mode++)
        for (unsigned s = 0; s < 4; s++) {
            run_variant(&pk, mode, shapes[s][0], shapes[s][1], 4, 2, 7, false);
            CHECK_EQ_INT(check_out(&pk, mode, shapes[s][0], shapes[s][1], 7, 0, 8), 0);
        }
    printf("%s: all modes and accumulator shapes match the reference\n", in->name);
    if (bench) {
        /* about 4e12 flops per dispatch (a few ms), steps at most 65535 (exact in f32) */
        static const uint32_t groups[] = { 132, 264, 528 };
        printf("BENCH coop peak (TFLOP/s, best of 3 x 3 dispatches): mode, accumulators RAxRB, subgroups/workgroup x workgroups\n");
        for (unsigned mode = 0; mode < 4; mode++)
            for (unsigned s = 1; s < 4; s++)
                for (unsigned nsg = 4; nsg <= 16; nsg *= 2)
                    for (unsigned gi = 0; gi < 3; gi++) {
                        unsigned ra = shapes[s][0], rb = shapes[s][1];
                        uint32_t sgs = groups[gi] * nsg;
                        if (sgs > 132 * 32) continue;
                        double st = 4e12 / (sgs * ra * rb * 8192.0);
                        uint32_t steps = st > 65534 ? 65534 : (uint32_t)st;
                        double tf = run_variant(&pk, mode, ra, rb, nsg, groups[gi], steps, true);
                        printf("BENCH peak %-20s %ux%u  %2u x %3u  (%2u subgroups/SM): %6.1f\n", mode_name[mode], ra, rb,
                               nsg, groups[gi], sgs / 132, tf);
                    }
    }
    wg_buffer_release(pk.out);
    wg_buffer_release(pk.in);
    wg_buffer_release(pk.uni);
    fixture_end(&f);
    free(kernel_text);
    return test_end();
}
