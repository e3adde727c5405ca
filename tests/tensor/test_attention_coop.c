/* test_attention_coop.c - wt_scaled_dot_product_attention with precisions WT_ATTENTION_F16_TENSOR
 * and WT_ATTENTION_F32_TENSOR (attention_coop.c; flash_coop.wgsl, and flash_x3.wgsl for f32, which
 * splits each operand into f16 hi + lo: q, k, v on tensor cores through WGSL subgroup matrices)
 * against a double-precision C
 * reference: D 64 and 128, causal and not, query and key lengths that differ (causal aligned to
 * the end, rows that see no key give zeros), lengths that are not multiples of the 64-row and
 * 32-key blocks, grouped-query heads, transposed [B, S, H, D] views, a scale (also a large one, so
 * that the running row maxima move and O is rescaled), and a shape the kernel cannot take (D 48:
 * the default path); f32 also with magnitudes past f16's range (|q| 3e4, |k| 1e-3) and V growing
 * by 1e4 along the keys.  The bound per output is 4e-3 (1 + |ref|) for f16 (P is rounded to f16),
 * 1e-6 max|v| (1 + max |scaled score terms|) for f32 (about 2^-22 per product).  On an adapter without cooperative matrices (lavapipe)
 * the test says "SKIP: no cooperative matrix on <adapter>" and checks that the mode falls back to
 * the default kernels with the same bound; everywhere, flash_coop.wgsl is compiled by our compiler
 * for each specialisation.  WGC_COOP_BENCH=1 adds B1 H32 S4096 D128 causal timings (tensor cores
 * against the FMA flash kernels, median of 5 batches of 3). */
#include <time.h>

#include "tensor_test.h"
#include "wgc/wgsl.h"
#include "tensor/internal.h"

static wt_context *ctx;
static uint64_t seed = 0xa77e;

/* flash_coop.wgsl through wt_kernel_compile (the source wt_kernel_get builds pipelines from), for
 * each head-dim class (MA) and causal flag (MC). */
static void compile_all(void) {
    int n = 0;
    for (unsigned ma = 0; ma < 2; ma++)
        for (unsigned mc = 0; mc < 4; mc++, n++) {   /* bit 0 causal, bit 1 flash_x3.wgsl (f32 operands) */
            wt_kkey key;
            memset(&key, 0, sizeof key);
            key.file = mc & 2 ? WT_K_flash_x3 : WT_K_flash_coop;
            key.out = key.in[0] = key.in[1] = key.in[2] = mc & 2 ? WT_F32 : WT_F16;
            key.compute = WT_F32;
            key.mode[0] = (uint8_t)ma, key.mode[2] = (uint8_t)(mc & 1);
            wgsl_result *r = wt_kernel_compile(ctx, "test_attention_coop", &key, 1);
            CHECKF(r && r->ok && r->spirv_word_count > 0, "%s MA %u MC %u: %s", mc & 2 ? "flash_x3.wgsl" : "flash_coop.wgsl", ma, mc & 1,
                   r ? "no SPIR-V" : wt_last_error(ctx));
            wgsl_result_free(r);
            wt_clear_error(ctx);
        }
    printf("flash_coop.wgsl, flash_x3.wgsl: %d variants compiled\n", n);
}

/* n values in [-mag, mag] as the dtype holds them; with `small` > 0 (rows of D) the first `small`
 * rows of every L are 1e4 times smaller */
static double *rnd_vals(int64_t n, wt_dtype dt, double mag, int64_t L, int64_t D, int64_t small) {
    double *v = malloc((size_t)n * sizeof *v);
    for (int64_t i = 0; i < n; i++) {
        float x = (float)(tt_rand(&seed, -1, 1) * mag * (i / D % L < small ? 1e-4 : 1));
        v[i] = dt == WT_F16 ? wt_f16_to_f32(wt_f32_to_f16(x)) : x;
    }
    return v;
}

/* [B, H, L, D] values v as a tensor, contiguous or a transposed [B, L, H, D] view */
static wt_tensor *make(wt_dtype dt, int64_t B, int64_t H, int64_t L, int64_t D, const double *v, bool transposed) {
    if (!transposed)
        return tt_upload(ctx, dt, 4, (int64_t[]){ B, H, L, D }, v);
    double *t = malloc((size_t)(B * H * L * D) * sizeof *t);
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t l = 0; l < L; l++)
                for (int64_t d = 0; d < D; d++) t[((b * L + l) * H + h) * D + d] = v[((b * H + h) * L + l) * D + d];
    wt_tensor *base = tt_upload(ctx, dt, 4, (int64_t[]){ B, L, H, D }, t);
    free(t);
    wt_tensor *view = wt_transpose(ctx, base, 1, 2);
    wt_release(base);
    return view;
}

/* f32 operands (WT_ATTENTION_F32_TENSOR): magnitudes of q, k, v, and rows of v 1e4 times smaller */
typedef struct mags {
    double q, k, v;
    int64_t vsmall;
} mags;

static void check_prec(int64_t B, int64_t H, int64_t Hkv, int64_t Lq, int64_t Lk, int64_t D, bool causal,
                       bool transposed, double scale, const mags *f32) {
    wt_dtype dt = f32 ? WT_F32 : WT_F16;
    double *q = rnd_vals(B * H * Lq * D, dt, f32 ? f32->q : 1, Lq, D, 0);
    double *k = rnd_vals(B * Hkv * Lk * D, dt, f32 ? f32->k : 1, Lk, D, 0);
    double *v = rnd_vals(B * Hkv * Lk * D, dt, f32 ? f32->v : 1, Lk, D, f32 ? f32->vsmall : 0);
    wt_tensor *tq = make(dt, B, H, Lq, D, q, transposed), *tk = make(dt, B, Hkv, Lk, D, k, transposed);
    wt_tensor *tv = make(dt, B, Hkv, Lk, D, v, transposed);
    wt_tensor *o = wt_scaled_dot_product_attention(ctx, tq, tk, tv, &(wt_attention_desc){
        .causal = causal, .scale = scale, .precision = f32 ? WT_ATTENTION_F32_TENSOR : WT_ATTENTION_F16_TENSOR });
    char name[160];
    snprintf(name, sizeof name, "%s B%lld H%lld/%lld Lq %lld Lk %lld D %lld%s%s", f32 ? "f32" : "f16", (long long)B,
             (long long)H, (long long)Hkv, (long long)Lq, (long long)Lk, (long long)D, causal ? " causal" : "",
             transposed ? " transposed" : "");
    CHECKF(o != NULL, "%s: %s", name, wt_last_error(ctx));
    CHECKF(!o || wt_dtype_of(o) == dt, "%s: result dtype %d", name, o ? (int)wt_dtype_of(o) : -1);
    if (o) {
        double *got = tt_read(ctx, o), sc = scale != 0 ? scale : 1.0 / sqrt((double)D), worst = 0;
        double *s = malloc((size_t)Lk * sizeof *s);
        int bad = 0;
        int64_t G = H / Hkv;
        for (int64_t b = 0; b < B; b++)
            for (int64_t h = 0; h < H; h++)
                for (int64_t i = 0; i < Lq; i++) {
                    const double *qr = q + ((b * H + h) * Lq + i) * D;
                    double m = -INFINITY, sum = 0, sa = 0, vmax = 0;
                    for (int64_t j = 0; j < Lk; j++) {
                        const double *kr = k + ((b * Hkv + h / G) * Lk + j) * D;
                        double acc = 0, aa = 0;
                        for (int64_t d = 0; d < D; d++) acc += qr[d] * kr[d], aa += fabs(qr[d] * kr[d]);
                        s[j] = causal && j > i + Lk - Lq ? -INFINITY : acc * sc;
                        if (s[j] > m) m = s[j];
                        if (s[j] == -INFINITY)
                            continue;
                        sa = fmax(sa, aa * sc);
                        for (int64_t d = 0; d < D; d++) vmax = fmax(vmax, fabs(v[((b * Hkv + h / G) * Lk + j) * D + d]));
                    }
                    for (int64_t j = 0; j < Lk; j++) {
                        s[j] = m == -INFINITY ? 0 : exp(s[j] - m);
                        sum += s[j];
                    }
                    for (int64_t d = 0; d < D; d++) {
                        double ref = 0;
                        for (int64_t j = 0; j < Lk && sum > 0; j++)
                            ref += s[j] * v[((b * Hkv + h / G) * Lk + j) * D + d];
                        if (sum > 0) ref /= sum;
                        double err = fabs(got[((b * H + h) * Lq + i) * D + d] - ref);
                        double tol = f32 ? 1e-6 * vmax * (1 + sa) : 4e-3 * (1 + fabs(ref));
                        if (!(err <= tol)) bad++;
                        if (tol > 0 && err / tol > worst) worst = err / tol;
                    }
                }
        CHECKF(bad == 0, "%s: %d wrong (worst %.2f of the bound)", name, bad, worst);
        printf("%s: worst error %.3f of the bound\n", name, worst);
        free(got);
        free(s);
    }
    wt_release(o);
    wt_release(tq);
    wt_release(tk);
    wt_release(tv);
    free(q);
    free(k);
    free(v);
}

static void check_case(int64_t B, int64_t H, int64_t Hkv, int64_t Lq, int64_t Lk, int64_t D, bool causal,
                       bool transposed, double scale) {
    check_prec(B, H, Hkv, Lq, Lk, D, causal, transposed, scale, NULL);
}

/* whether the context has built a pipeline of flash_x3.wgsl */
static bool x3_built(void) {
    uint32_t n = wt_kernel_list(ctx, NULL, 0);
    wt_kernel_info *ki = calloc(n + 1, sizeof *ki);
    n = wt_kernel_list(ctx, ki, n);
    bool found = false;
    for (uint32_t i = 0; i < n; i++)
        found |= !strncmp(ki[i].name, "flash_x3", 8);
    free(ki);
    return found;
}

/* f32's default precision: flash_x3.wgsl where the device has tensor cores (as PyTorch's f32 SDPA
 * takes 3xTF32), the FMA kernels elsewhere and with WT_ATTENTION_FMA; the two agree within the
 * split's bound */
static void default_routing(bool tc) {
    int64_t shape[4] = { 1, 2, 96, 64 }, n = 2 * 96 * 64;
    wt_tensor *q = wt_normal(ctx, WT_F32, 4, shape, 0, 1), *k = wt_normal(ctx, WT_F32, 4, shape, 0, 1);
    wt_tensor *v = wt_normal(ctx, WT_F32, 4, shape, 0, 1);
    wt_tensor *fma = wt_scaled_dot_product_attention(ctx, q, k, v, &(wt_attention_desc){ .causal = true,
                                                                                      .precision = WT_ATTENTION_FMA });
    wt_sync(ctx);
    CHECK(fma && !x3_built());
    wt_tensor *def = wt_scaled_dot_product_attention(ctx, q, k, v, &(wt_attention_desc){ .causal = true });
    wt_sync(ctx);
    CHECKF(def && x3_built() == tc, "f32 default: flash_x3.wgsl %s", tc ? "not built" : "built without tensor cores");
    if (fma && def) {
        double *a = tt_read(ctx, fma), *b = tt_read(ctx, def), worst = 0;
        for (int64_t i = 0; i < n; i++)
            worst = fmax(worst, fabs(a[i] - b[i]));
        /* |v| <= about 5, scaled sums |q k| <= about 30 */
        CHECKF(worst <= 1e-6 * 5 * 31, "f32 default against FMA: %g", worst);
        printf("f32 default precision: %s, %g from the FMA kernels\n", tc ? "flash_x3.wgsl" : "FMA kernels", worst);
        free(a);
        free(b);
    }
    wt_release(fma);
    wt_release(def);
    wt_release(q);
    wt_release(k);
    wt_release(v);
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

/* B1 H32 S4096 D128 causal: median TFLOP/s of 5 runs of 3 causal attentions in one batch, after
 * 0.3 s of attentions (kernel builds, and the GPU's clocks: they stay low for the first 0.2-0.3 s
 * of work after it sat idle, which once made this figure 14.9 against 74.5 in wgc bench llm):
 * GPU time from wt's batch timing where the device has timestamp queries, else wall clock; every
 * output must come back (a NULL output is a failed check and its error is printed, not a fast
 * run). */
static double bench_one(wt_tensor *q, wt_tensor *k, wt_tensor *v, wt_attention_precision prec) {
    const wt_attention_desc d = { .causal = true, .impl = WT_ATTENTION_FLASH, .precision = prec };
    bool timed = wt_context_set_timing(ctx, true) == WT_OK;
    wt_clear_error(ctx);
    for (double w0 = -1; w0 < 0 || now_s() - w0 < 0.3;) {
        wt_tensor *w = wt_scaled_dot_product_attention(ctx, q, k, v, &d);
        CHECKF(w != NULL, "bench warm-up: %s", wt_last_error(ctx));
        wt_release(w);
        wt_sync(ctx);
        if (!w)
            break;
        w0 = w0 < 0 ? now_s() : w0;
    }
    double r[5];
    for (int rep = 0; rep < 5; rep++) {
        wt_tensor *o[3];
        wt_stats s0, s1;
        wt_get_stats(ctx, &s0);
        double t0 = now_s();
        for (int i = 0; i < 3; i++) {
            o[i] = wt_scaled_dot_product_attention(ctx, q, k, v, &d);
            CHECKF(o[i] != NULL, "bench run %d: %s", rep, wt_last_error(ctx));
        }
        CHECK(wt_sync(ctx) == WT_OK);
        double dt = now_s() - t0;
        wt_get_stats(ctx, &s1);
        if (timed)
            dt = (double)(s1.gpu_ns - s0.gpu_ns) * 1e-9;
        for (int i = 0; i < 3; i++) wt_release(o[i]);
        r[rep] = 3.0 * 4.0 * 32.0 * 4096.0 * 4096.0 * 128.0 / 2.0 / dt / 1e12;
    }
    qsort(r, 5, sizeof *r, cmp_d);
    return r[2];
}

static void bench(void) {
    int64_t shape[4] = { 1, 32, 4096, 128 };
    wt_tensor *q = wt_normal(ctx, WT_F16, 4, shape, 0, 1), *k = wt_normal(ctx, WT_F16, 4, shape, 0, 1);
    wt_tensor *v = wt_normal(ctx, WT_F16, 4, shape, 0, 1);
    CHECK(q && k && v);
    if (q && k && v) {
        double tc = bench_one(q, k, v, WT_ATTENTION_F16_TENSOR);
        double df = bench_one(q, k, v, WT_ATTENTION_PRECISION_DEFAULT);
        printf("BENCH flash attention f16 B1 H32 S4096 D128 causal: tensor cores %.1f TFLOP/s, default %.1f TFLOP/s\n",
               tc, df);
    }
    wt_release(q);
    wt_release(k);
    wt_release(v);
    q = wt_normal(ctx, WT_F32, 4, shape, 0, 1), k = wt_normal(ctx, WT_F32, 4, shape, 0, 1);
    v = wt_normal(ctx, WT_F32, 4, shape, 0, 1);
    CHECK(q && k && v);
    if (q && k && v) {
        double tc = bench_one(q, k, v, WT_ATTENTION_F32_TENSOR);
        double fma = bench_one(q, k, v, WT_ATTENTION_FMA);   /* f32's default is the tensor cores' */
        printf("BENCH flash attention f32 B1 H32 S4096 D128 causal: tensor cores (3 f16 products) %.1f TFLOP/s, "
               "FMA kernels %.1f TFLOP/s\n", tc, fma);
    }
    wt_release(q);
    wt_release(k);
    wt_release(v);
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);   /* shader-f16, subgroups and cooperative matrices where the adapter has them */
    char name[256];
    snprintf(name, sizeof name, "%s", wg_adapter_get_info(f.g.ad)->name);
    if (!wt_context_has_f16(ctx)) {
        printf("SKIP: no shader-f16 on %s\n", name);
        CHECK(!wt_attention_tensor_cores(ctx));
        tt_end(&f);
        return test_end();
    }
    compile_all();
    bool tc = wt_attention_tensor_cores(ctx);
    if (!tc)
        printf("SKIP: no cooperative matrix on %s: WT_ATTENTION_F16_TENSOR and F32_TENSOR fall back to the default kernels "
               "(checked)\n", name);
    else
        printf("tensor cores on %s\n", name);
    default_routing(tc);   /* first: no flash_x3.wgsl pipeline exists yet */
    bool light = test_under_valgrind();
    if (light)
        printf("under valgrind: two cases\n");
    check_case(1, 2, 2, 100, 100, 64, true, false, 0);
    check_case(1, 2, 1, 37, 130, 128, true, false, 0);       /* KV cache, grouped heads */
    if (!light) {
        check_case(2, 2, 2, 64, 64, 128, false, false, 0.05);
        check_case(1, 4, 2, 70, 33, 64, true, true, 0);      /* Lq > Lk: early rows see no key */
        check_case(1, 1, 1, 129, 200, 128, false, true, 0);
        check_case(1, 2, 2, 100, 200, 64, true, false, 4.0); /* large scores: row maxima move, O rescaled */
        check_case(1, 2, 2, 40, 40, 48, true, false, 0);     /* D 48: the default path */
    }
    /* f32 operands split into f16 hi + lo */
    const mags unit = { 1, 1, 1, 0 }, wide = { 3e4, 1e-3, 1e3, 40 };
    check_prec(1, 2, 1, 100, 130, 128, true, false, 0, &wide);   /* past f16's range, V's exponent grows */
    check_prec(1, 2, 2, 70, 100, 64, true, true, 4.0, &unit);     /* rescaled O, transposed views */
    if (!light) {
        check_prec(2, 2, 2, 64, 64, 128, false, false, 0.05, &unit);
        check_prec(1, 4, 2, 70, 33, 64, true, false, 0, &wide);  /* Lq > Lk: early rows see no key */
        check_prec(1, 2, 2, 40, 40, 48, true, false, 0, &unit);  /* D 48: the default path */
    }
    /* a bad precision value is an error */
    wt_tensor *x = wt_zeros(ctx, WT_F16, 3, (int64_t[]){ 1, 4, 16 });
    const wt_attention_desc bad = { .precision = WT_ATTENTION_PRECISION_COUNT };
    CHECK(wt_scaled_dot_product_attention(ctx, x, x, x, &bad) == NULL);
    CHECK(strstr(wt_last_error(ctx), "precision") != NULL);
    wt_release(x);
    const char *bn = getenv("WGC_COOP_BENCH");
    if (bn && *bn == '1') {
        if (tc) bench();
        else printf("SKIP: WGC_COOP_BENCH needs cooperative matrices\n");
    }
    tt_end(&f);
    return test_end();
}
