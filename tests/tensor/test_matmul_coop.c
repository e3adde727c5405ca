/* test_matmul_coop.c - wt_matmul_ex with precision WT_MATMUL_F16_TENSOR (matmul_coop.wgsl: f16
 * operands on tensor cores through WGSL subgroup matrices, f32 accumulation) against a double
 * reference: tile-exact and ragged shapes, transposed (column-major) operands read in place, a
 * bias, K % 32 = 16, with the f16 error bound of test_matmul (2e-3 |ref| + 1e-3 sum |a b| + 1e-3);
 * with tensor cores, every case runs on each matmul_coop kernel (coop128x128, coop128x128s: the
 * policy's matmul_kernel).  On an
 * adapter without cooperative matrices (lavapipe) the test says "SKIP: no cooperative matrix on
 * <adapter>" and checks that the mode falls back to the default kernels with the same results.
 * WGC_COOP_BENCH=1 adds the f16 4096^3 timing (TFLOP/s, tensor cores against the default
 * kernels, median of 5 batches of 10 products) with 256 outputs checked against double (the
 * kernel matmul.c picks for that shape, or the one WGC_MATMUL_KERNEL forces), and the
 * tensor-core timings with A, B or both column-major (transposed views), then the driver's
 * Register Count and Shared Memory Size of every matmul_coop pipeline built (wt_kernel_list, where
 * the device has pipeline statistics).  Under valgrind, two cases.  Everywhere, matmul_coop.wgsl
 * is compiled by our compiler for both ops (slice buffers), every operand layout and bias mode with
 * the prelude kernel.c gives it, so that a broken kernel fails here even on adapters without
 * cooperative matrices.  Where the device has workgroup matrices (WG_FEATURE_WORKGROUP_MATRIX),
 * whole-tile products run matmul_wgm.wgsl by default: the variant cases above run with
 * matmul_workgroup_matrix OFF (so they test matmul_coop.wgsl), five cases of their own test matmul_wgm.wgsl
 * (ON, unguarded), guard_cases tests matmul.c's guard that times it against
 * matmul_coop.wgsl, and the bench also times matmul_coop.wgsl alone on the same product.
 * WGC_MATMUL_WGM=0 from the caller (the policy's OFF) leaves matmul_wgm.wgsl out. */
#include <time.h>

#include "tensor_test.h"
#include "wgc/wgsl.h"
#include "tensor/internal.h"

#define COOP_VARIANTS 2   /* matmul_coop.wgsl's ops: coop128x128, coop128x128s */
static const char *const coop_names[COOP_VARIANTS] = { "coop128x128", "coop128x128s" };

static wt_context *ctx;
static wt_toggle wgm_caller;     /* the policy's matmul_workgroup_matrix from the caller (WGC_MATMUL_WGM) */

/* The context's use of matmul_wgm.wgsl (wt_policy.matmul_workgroup_matrix) and the guard's fault hook. */
static void set_wgm(wt_toggle t, bool slow) {
    wt_policy p;
    wt_context_get_policy(ctx, &p);
    p.matmul_workgroup_matrix = t;
    p.fault_wgm_slow = slow;
    CHECKF(wt_context_set_policy(ctx, &p) == WT_OK, "%s", wt_last_error(ctx));
}
static uint64_t seed = 0x5eed;

static wt_tensor *rnd(int64_t r, int64_t c) {
    double *v = malloc((size_t)(r * c) * sizeof *v);
    for (int64_t i = 0; i < r * c; i++) v[i] = tt_rand(&seed, -1, 1);
    wt_tensor *t = tt_upload(ctx, WT_F16, 2, (int64_t[]){ r, c }, v);
    free(v);
    return t;
}

/* matmul_coop.wgsl through wt_kernel_compile: the source wt_kernel_get builds pipelines from. */
static void compile_variant(unsigned op, unsigned ma, unsigned mb, unsigned mc) {
    wt_kkey key;
    memset(&key, 0, sizeof key);
    key.file = WT_K_matmul_coop;
    key.op = (uint8_t)op;
    key.out = key.in[0] = key.in[1] = WT_F16;
    key.in[2] = mc ? WT_F16 : WT_F32;
    key.compute = WT_F32;
    key.mode[0] = (uint8_t)ma, key.mode[1] = (uint8_t)mb, key.mode[2] = (uint8_t)mc;
    wgsl_result *r = wt_kernel_compile(ctx, "test_matmul_coop", &key, 1);
    CHECKF(r && r->ok && r->spirv_word_count > 0, "matmul_coop.wgsl OP %u MA %u MB %u MC %u: %s", op, ma, mb, mc,
           r ? "no SPIR-V" : wt_last_error(ctx));
    wgsl_result_free(r);
    wt_clear_error(ctx);
}

static void compile_all(void) {
    int n = 0;
    for (unsigned op = 0; op < COOP_VARIANTS; op++)
        for (unsigned m = 0; m < 8; m++, n++) compile_variant(op, m & 1, (m >> 1) & 1, (m >> 2) & 1);
    printf("matmul_coop.wgsl: %d variants compiled\n", n);
}

static const wt_matmul_desc tensor_mode = { .label = "coop", .precision = WT_MATMUL_F16_TENSOR };

/* matmul_wgm.wgsl pipelines built so far */
static uint32_t wgm_kernels(wt_context *c) {
    uint32_t n = wt_kernel_list(c, NULL, 0), w = 0;
    wt_kernel_info *ks = calloc(n + 1, sizeof *ks);
    if (ks && wt_kernel_list(c, ks, n) == n)
        for (uint32_t i = 0; i < n; i++)
            w += !strncmp(ks[i].name, "matmul_wgm", 10);
    free(ks);
    return w;
}

static wt_stats stats_now(void) {
    wt_stats s;
    wt_get_stats(ctx, &s);
    return s;
}

/* n compute pipelines of a generated kernel of `ops` dependent multiply-adds, created on the
 * context's device and released (the device keeps them); nonce makes them new to every cache. */
static void make_pipelines(int n, int ops, unsigned nonce) {
    wg_device *dev = wt_context_device(ctx);
    char *src = malloc(64 * (size_t)ops + 512);
    for (int i = 0; src && i < n; i++) {
        int m = sprintf(src, "@group(0) @binding(0) var<storage, read_write> o: array<f32>;\n"
                             "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3<u32>) {\n"
                             "    var v = o[g.x];\n");
        for (int j = 0; j < ops; j++) m += sprintf(src + m, "    v = v * %u.%04d + %d.5;\n", nonce, i, j);
        sprintf(src + m, "    o[g.x] = v;\n}\n");
        wg_shader_module *sm = wg_device_create_shader_module(dev, &(wg_shader_module_desc){ .label = "big", .wgsl = src });
        wg_compute_pipeline *pl = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){ .label = "big", .module = sm });
        CHECKF(wg_compute_pipeline_is_valid(pl), "generated pipeline %d of %d", i, n);
        wg_compute_pipeline_release(pl);
        wg_shader_module_release(sm);
    }
    free(src);
}

/* out = a . b (+ bias) for M x N x K; ta / tb: the operand is a transposed view (column-major). */
static void check_case(int64_t M, int64_t N, int64_t K, bool ta, bool tb, bool with_bias) {
    wt_tensor *a0 = ta ? rnd(K, M) : rnd(M, K), *b0 = tb ? rnd(N, K) : rnd(K, N);
    wt_tensor *a = ta ? wt_transpose(ctx, a0, 0, 1) : a0, *b = tb ? wt_transpose(ctx, b0, 0, 1) : b0;
    wt_tensor *bias = with_bias ? rnd(1, N) : NULL, *bias1 = NULL;
    if (bias) {
        bias1 = wt_reshape(ctx, bias, 1, (int64_t[]){ N });
    }
    wt_tensor *out = wt_matmul_ex(ctx, a, b, bias1, &tensor_mode);
    CHECKF(out != NULL, "%lldx%lldx%lld: %s", (long long)M, (long long)N, (long long)K, wt_last_error(ctx));
    if (out) {
        double *av = tt_read(ctx, a), *bv = tt_read(ctx, b), *ov = tt_read(ctx, out);
        double *cv = bias1 ? tt_read(ctx, bias1) : NULL;
        int bad = 0;
        double worst = 0;
        for (int64_t m = 0; m < M; m++)
            for (int64_t n = 0; n < N; n++) {
                double s = 0, sa = 0;
                for (int64_t k = 0; k < K; k++) {
                    s += av[m * K + k] * bv[k * N + n];
                    sa += fabs(av[m * K + k] * bv[k * N + n]);
                }
                if (cv) { s += cv[n]; sa += fabs(cv[n]); }
                double err = fabs(ov[m * N + n] - s), tol = 2e-3 * fabs(s) + 1e-3 * sa + 1e-3;
                if (err > tol) bad++;
                if (err / tol > worst) worst = err / tol;
            }
        CHECKF(bad == 0, "%lldx%lldx%lld%s%s%s: %d wrong (worst %.2f of the bound)", (long long)M, (long long)N,
               (long long)K, ta ? " A^T" : "", tb ? " B^T" : "", with_bias ? " +bias" : "", bad, worst);
        printf("%lldx%lldx%lld%s%s%s: worst error %.3f of the bound\n", (long long)M, (long long)N, (long long)K,
               ta ? " A^T" : "", tb ? " B^T" : "", with_bias ? " +bias" : "", worst);
        free(av); free(bv); free(ov); free(cv);
    }
    wt_release(out);
    if (ta) wt_release(a);
    if (tb) wt_release(b);
    wt_release(a0); wt_release(b0); wt_release(bias); wt_release(bias1);
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_d(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* median TFLOP/s of 5 batches of 10 products n^3, after 0.3 s of products (kernel build, and the
 * GPU's clocks: they stay low for the first 0.2-0.3 s of work after it sat idle) */
static double bench(int64_t n, const wt_matmul_desc *d, wt_tensor *a, wt_tensor *b) {
    double r[5], w0 = -1;
    while (w0 < 0 || now_s() - w0 < 0.3) {
        wt_release(wt_matmul_ex(ctx, a, b, NULL, d));
        wt_sync(ctx);
        w0 = w0 < 0 ? now_s() : w0;
    }
    for (int rep = 0; rep < 5; rep++) {
        wt_tensor *o[10];
        double t0 = now_s();
        for (int i = 0; i < 10; i++) o[i] = wt_matmul_ex(ctx, a, b, NULL, d);
        wt_sync(ctx);
        double dt = now_s() - t0;
        for (int i = 0; i < 10; i++) wt_release(o[i]);
        r[rep] = 10.0 * 2.0 * (double)n * (double)n * (double)n / dt / 1e12;
    }
    qsort(r, 5, sizeof *r, cmp_d);
    return r[2];
}

/* The driver's figures of every matmul_coop pipeline the context built (none without
 * WG_FEATURE_PIPELINE_STATISTICS): registers bound the workgroups per SM (65536 / (invocations x
 * registers) on NVIDIA), and so does the workgroup memory. */
static void print_stats(void) {
    uint32_t n = wt_kernel_list(ctx, NULL, 0);
    wt_kernel_info *ki = n ? calloc(n, sizeof *ki) : NULL;
    if (!ki)
        return;
    n = wt_kernel_list(ctx, ki, n);
    for (uint32_t i = 0; i < n; i++) {
        if (strncmp(ki[i].name, "matmul_coop ", 12) != 0 || !ki[i].statistic_count)
            continue;
        double regs = -1, shared = -1;
        for (uint32_t s = 0; s < ki[i].statistic_count; s++) {
            if (!strcmp(ki[i].statistics[s].name, "Register Count")) regs = ki[i].statistics[s].value;
            if (!strcmp(ki[i].statistics[s].name, "Shared Memory Size")) shared = ki[i].statistics[s].value;
        }
        printf("STATS %s: Register Count %.0f, Shared Memory Size %.0f\n", ki[i].name, regs, shared);
    }
    free(ki);
}

static void bench_4096(void) {
    int64_t n = 4096;
    wt_tensor *a = wt_randn(ctx, WT_F16, 2, (int64_t[]){ n, n }), *b = wt_randn(ctx, WT_F16, 2, (int64_t[]){ n, n });
    CHECK(a && b);
    if (!a || !b) return;
    wt_tensor *out = wt_matmul_ex(ctx, a, b, NULL, &tensor_mode);
    CHECKF(out != NULL, "%s", wt_last_error(ctx));
    if (out) {   /* 256 sampled outputs against double */
        double *av = tt_read(ctx, a), *bv = tt_read(ctx, b), *ov = tt_read(ctx, out);
        int bad = 0;
        double worst = 0;
        for (int s = 0; s < 256; s++) {
            int64_t m = (int64_t)(tt_rand(&seed, 0, 1) * (double)n), j = (int64_t)(tt_rand(&seed, 0, 1) * (double)n);
            double acc = 0, sa = 0;
            for (int64_t k = 0; k < n; k++) {
                acc += av[m * n + k] * bv[k * n + j];
                sa += fabs(av[m * n + k] * bv[k * n + j]);
            }
            double err = fabs(ov[m * n + j] - acc), tol = 2e-3 * fabs(acc) + 1e-3 * sa + 1e-3;
            bad += err > tol;
            if (err / tol > worst) worst = err / tol;
        }
        CHECKF(bad == 0, "4096^3: %d of 256 sampled outputs wrong", bad);
        printf("4096^3 f16 tensor cores: 256 sampled outputs, worst error %.3f of the bound\n", worst);
        free(av); free(bv); free(ov);
        wt_release(out);
    }
    double tc = bench(n, &tensor_mode, a, b);
    double df = bench(n, &(wt_matmul_desc){ .label = "default" }, a, b);
    wt_policy pv;
    wt_context_get_policy(ctx, &pv);
    const char *v = pv.matmul_kernel;
    printf("BENCH f16 matmul 4096^3: tensor cores (variant %s) %.1f TFLOP/s, default kernels %.1f TFLOP/s\n",
           v ? v : "auto", tc, df);
    if (wgm_caller != WT_OFF && wg_device_has_feature(wt_context_device(ctx), WG_FEATURE_WORKGROUP_MATRIX)) {
        set_wgm(WT_OFF, false);   /* the subgroup-matrix kernel on the same product */
        printf("BENCH f16 matmul 4096^3: subgroup matrices only (matmul_coop.wgsl) %.1f TFLOP/s\n",
               bench(n, &tensor_mode, a, b));
        set_wgm(WT_AUTO, false);
    }
    /* the staging layouts: A and B column-major (transposed views, read in place) */
    wt_tensor *at = wt_transpose(ctx, a, 0, 1), *bt = wt_transpose(ctx, b, 0, 1);
    CHECK(at && bt);
    if (at && bt)
        printf("BENCH f16 matmul 4096^3 layouts (variant %s): A^T %.1f TFLOP/s, B^T %.1f, A^T B^T %.1f\n",
               v ? v : "auto", bench(n, &tensor_mode, at, b), bench(n, &tensor_mode, a, bt),
               bench(n, &tensor_mode, at, bt));
    wt_release(at);
    wt_release(bt);
    wt_release(a);
    wt_release(b);
    print_stats();
}

/* matmul.c's guard on matmul_wgm.wgsl (the default, matmul_workgroup_matrix AUTO): the first product of a
 * kernel key is timed against matmul_coop.wgsl, the verdict holds until 32 more pipelines have
 * been created on the device, a key that lost (the policy's fault_wgm_slow) runs matmul_coop.wgsl from
 * then on; results right either way.  Then a matmul_wgm pipeline created after 64 generated
 * pipelines of 4000 multiply-adds (where it ran 61-96 TFLOP/s against 283-296): the guard's
 * verdict must agree with the two kernels' own timings wherever they differ clearly. */
static void guard_cases(void) {
    set_wgm(WT_AUTO, false);
    wt_tensor *a = rnd(256, 2048), *b = rnd(2048, 512);
    wt_stats s0 = stats_now();
    double t0 = now_s();
    wt_tensor *o1 = wt_matmul_ex(ctx, a, b, NULL, &tensor_mode);     /* the check */
    double t1 = now_s();
    wt_tensor *o2 = wt_matmul_ex(ctx, a, b, NULL, &tensor_mode);
    wt_sync(ctx);
    printf("guard, 256x512x2048: the checked product took %.3f s, the next one (recorded and run) %.4f s\n",
           t1 - t0, now_s() - t1);
    wt_stats s1 = stats_now();
    CHECKF(o1 && o2 && s1.wgm_checks == s0.wgm_checks + 1, "a new key twice: %llu checks (1 expected)",
           (unsigned long long)(s1.wgm_checks - s0.wgm_checks));
    printf("guard, 256x512x2048: matmul_wgm %s\n", s1.wgm_fallbacks > s0.wgm_fallbacks ? "lost" : "won");
    /* 32 new pipelines on the device: the next product of the key looks again */
    make_pipelines(32, 4, (unsigned)time(NULL) % 1000u + 1u);
    wt_release(o1);
    o1 = wt_matmul_ex(ctx, a, b, NULL, &tensor_mode);
    wt_stats s2 = stats_now();
    CHECKF(o1 && s2.wgm_checks == s1.wgm_checks + 1, "after 32 new pipelines: %llu checks (1 expected)",
           (unsigned long long)(s2.wgm_checks - s1.wgm_checks));
    wt_release(o1);
    wt_release(o2);
    wt_release(a);
    wt_release(b);
    check_case(256, 512, 2048, false, false, false);     /* whichever kernel the guard took */
    /* a key that lost runs matmul_coop.wgsl, checked once */
    set_wgm(WT_AUTO, true);
    s0 = stats_now();
    check_case(128, 256, 2560, false, true, true);
    a = rnd(128, 2560);
    wt_tensor *b0 = rnd(256, 2560), *bias = rnd(1, 256), *bias1 = wt_reshape(ctx, bias, 1, (int64_t[]){ 256 });
    b = wt_transpose(ctx, b0, 0, 1);
    o1 = wt_matmul_ex(ctx, a, b, bias1, &tensor_mode);
    o2 = wt_matmul_ex(ctx, a, b, bias1, &tensor_mode);
    s1 = stats_now();
    CHECKF(o1 && o2 && s1.wgm_checks == s0.wgm_checks + 1 && s1.wgm_fallbacks == s0.wgm_fallbacks + 3,
           "a losing key: %llu checks, %llu fallbacks (1 and 3 expected)",
           (unsigned long long)(s1.wgm_checks - s0.wgm_checks), (unsigned long long)(s1.wgm_fallbacks - s0.wgm_fallbacks));
    set_wgm(WT_AUTO, false);
    wt_release(o1); wt_release(o2); wt_release(a); wt_release(b); wt_release(b0); wt_release(bias); wt_release(bias1);

    /* a matmul_wgm pipeline created after 64 large ones */
    int64_t n = 4096;
    a = wt_randn(ctx, WT_F16, 2, (int64_t[]){ n, n });
    b = wt_randn(ctx, WT_F16, 2, (int64_t[]){ n, n });
    t0 = now_s();
    make_pipelines(64, 4000, (unsigned)time(NULL) % 1000u + 1001u);
    printf("64 generated pipelines of 4000 multiply-adds in %.1f s\n", now_s() - t0);
    s0 = stats_now();
    o1 = wt_matmul_ex(ctx, a, b, NULL, &tensor_mode);
    s1 = stats_now();
    CHECKF(o1 && s1.wgm_checks == s0.wgm_checks + 1, "4096^3: %llu checks", (unsigned long long)(s1.wgm_checks - s0.wgm_checks));
    bool lost = s1.wgm_fallbacks > s0.wgm_fallbacks;
    wt_release(o1);
    set_wgm(WT_ON, false);
    double tw = bench(n, &tensor_mode, a, b);
    set_wgm(WT_OFF, false);
    double tc = bench(n, &tensor_mode, a, b);
    set_wgm(WT_AUTO, false);
    double tg = bench(n, &tensor_mode, a, b);
    printf("BENCH guard after 64 generated pipelines, f16 4096^3: matmul_wgm %.1f TFLOP/s, matmul_coop %.1f, "
           "guarded %.1f (matmul_wgm %s)\n", tw, tc, tg, lost ? "lost" : "won");
    CHECKF(!(tw < 0.67 * tc) || lost, "matmul_wgm ran %.1f against %.1f and the guard kept it", tw, tc);
    CHECKF(!(tw > 1.1 * tc) || !lost, "matmul_wgm ran %.1f against %.1f and the guard dropped it", tw, tc);
    wt_release(a);
    wt_release(b);

    /* tune AHEAD: a lazy product of a new key is not timed (matmul_coop.wgsl runs);
     * wt_autotune_matmul makes the verdict, which later products follow */
    wt_policy p;
    wt_context_get_policy(ctx, &p);
    p.tune = WT_TUNE_AHEAD;
    CHECK(wt_context_set_policy(ctx, &p) == WT_OK);
    a = rnd(384, 1024);
    b = rnd(1024, 768);
    s0 = stats_now();
    o1 = wt_matmul_ex(ctx, a, b, NULL, &tensor_mode);
    s1 = stats_now();
    CHECKF(o1 && s1.wgm_checks == s0.wgm_checks, "AHEAD: %llu checks in a lazy op",
           (unsigned long long)(s1.wgm_checks - s0.wgm_checks));
    CHECK(wt_autotune_matmul(ctx, 384, 768, 1024, 1, WT_F16, false) == WT_OK);
    s2 = stats_now();
    CHECKF(s2.wgm_checks == s1.wgm_checks + 1, "wt_autotune_matmul: %llu checks",
           (unsigned long long)(s2.wgm_checks - s1.wgm_checks));
    wt_release(o1);
    o1 = wt_matmul_ex(ctx, a, b, NULL, &tensor_mode);
    CHECK(o1 && stats_now().wgm_checks == s2.wgm_checks);
    p.tune = WT_TUNE_DEFAULT;
    CHECK(wt_context_set_policy(ctx, &p) == WT_OK);
    wt_release(o1);
    wt_release(a);
    wt_release(b);
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);   /* shader-f16, subgroups and cooperative matrices where the adapter has them */
    char name[256];
    snprintf(name, sizeof name, "%s", wg_adapter_get_info(f.g.ad)->name);
    if (!wt_context_has_f16(ctx)) {
        printf("SKIP: no shader-f16 on %s\n", name);
        CHECK(!wt_matmul_tensor_cores(ctx));
        tt_end(&f);
        return test_end();
    }
    compile_all();
    bool tc = wt_matmul_tensor_cores(ctx);
    if (!tc)
        printf("SKIP: no cooperative matrix on %s: WT_MATMUL_F16_TENSOR falls back to the default kernels (checked)\n", name);
    else
        printf("tensor cores on %s\n", name);
    bool light = test_under_valgrind();   /* each lavapipe kernel build takes seconds there */
    if (light)
        printf("under valgrind: two cases\n");
    /* with tensor cores, every matmul_coop kernel (the policy's matmul_kernel) on every case; the whole-tile
     * cases would run matmul_wgm.wgsl where the device has workgroup matrices, so that is off here */
    wt_policy p0;
    wt_context_get_policy(ctx, &p0);
    wgm_caller = p0.matmul_workgroup_matrix;
    bool wgm_off = wgm_caller == WT_OFF;
    set_wgm(WT_OFF, false);
    bool forced = p0.matmul_kernel != NULL;
    for (int var = 0; var < (tc && !forced ? COOP_VARIANTS : 1); var++) {
        if (tc && !forced) {
            wt_policy pk;
            wt_context_get_policy(ctx, &pk);
            pk.matmul_kernel = coop_names[var];
            CHECK(wt_context_set_policy(ctx, &pk) == WT_OK);
            printf("kernel %s\n", coop_names[var]);
        }
        check_case(128, 128, 64, false, false, false);
        check_case(200, 136, 96, false, false, true);
        if (!light) {
            check_case(64, 192, 128, true, true, false);
            check_case(70, 64, 48, false, true, true);
            check_case(72, 200, 80, true, false, true);     /* K % 32 = 16: a half slice */
            check_case(300, 264, 1040, false, true, false);
            check_case(520, 136, 32, true, true, true);
        }
    }
    if (tc && !forced) {
        wt_policy pk;
        wt_context_get_policy(ctx, &pk);
        pk.matmul_kernel = NULL;
        CHECK(wt_context_set_policy(ctx, &pk) == WT_OK);
    }
    /* not eligible (K % 16): the default kernels, still right */
    if (!light)
        check_case(33, 65, 40, false, false, false);
    /* workgroup matrices (matmul_wgm.wgsl, VK_NV_cooperative_matrix2, the default where it applies):
     * whole 128 x 256 tiles, K a multiple of 512 (8 to 24 slices), every layout, the bias; K a
     * multiple of 64 but not of 512 runs matmul_coop.wgsl (matmul.c's wgm_fits) */
    bool wgm = tc && wg_device_has_feature(wt_context_device(ctx), WG_FEATURE_WORKGROUP_MATRIX);
    set_wgm(wgm_off ? WT_OFF : WT_AUTO, false);
    if (!wgm)
        printf("SKIP: no workgroup matrices on %s: matmul_coop.wgsl runs every case\n", name);
    else if (wgm_off)
        printf("SKIP: WGC_MATMUL_WGM=0: matmul_wgm.wgsl is not tested\n");
    else {
        printf("workgroup matrices on %s\n", name);
        set_wgm(WT_ON, false);        /* matmul_wgm.wgsl itself, unguarded */
        uint32_t w0 = wgm_kernels(ctx);
        check_case(128, 256, 448, false, false, false);   /* K % 512 != 0: matmul_coop.wgsl */
        CHECKF(wgm_kernels(ctx) == w0, "K 448 built %u matmul_wgm kernels", wgm_kernels(ctx) - w0);
        check_case(128, 256, 512, false, false, false);
        check_case(256, 512, 1024, false, false, true);
        check_case(384, 256, 512, true, false, false);
        check_case(128, 768, 512, false, true, true);
        check_case(256, 256, 1536, true, true, false);
        uint32_t w = wgm_kernels(ctx) - w0;
        CHECKF(w >= 4, "%u matmul_wgm kernels built (one per layout and bias mode used)", w);
        guard_cases();
    }
    /* a bad precision value is an error */
    wt_tensor *x = rnd(4, 4);
    CHECK(wt_matmul_ex(ctx, x, x, NULL, &(wt_matmul_desc){ .precision = WT_MATMUL_PRECISION_COUNT }) == NULL);
    CHECK(strstr(wt_last_error(ctx), "precision") != NULL);
    wt_release(x);
    const char *bn = getenv("WGC_COOP_BENCH");
    if (bn && *bn == '1') {
        if (tc) bench_4096();
        else printf("SKIP: WGC_COOP_BENCH needs cooperative matrices\n");
    }
    tt_end(&f);
    return test_end();
}
