/* test_attention.c - scaled dot-product attention, plain and flash, against a C reference in
 * double precision: causal and not, query and key lengths that differ (causal aligned to the
 * end; rows that see no key give zeros), head dims 8 to 256 (padded flash variants, both row
 * block sizes), key tiles crossed, grouped-query heads, ranks 2 to 4, transposed (non-contiguous)
 * q/k/v, boolean and additive masks with broadcasting (plain), flash == plain, f16 where the
 * device has it, both flash kernels (the default, flash2.wgsl on lavapipe, flash3.wgsl on devices
 * with more workgroup memory; flash3's configurations forced through wt_policy.attention_kernel
 * where they fit lavapipe's 32 KiB), and errors. */
#include "tensor/tensor_test.h"

static wt_context *ctx;
static uint64_t seed = 0x853c49e6748fea9bull;

typedef struct acase {
    int nd;                  /* rank 2..4 */
    int64_t B, H, Hkv, Lq, Lk, D, Dv;
    bool causal;
    int mask;                /* 0 none, 1 bool [Lq, Lk], 2 additive [B, 1, Lq, Lk] */
    bool transposed;         /* q, k, v as [B, L, H, D] transposed views */
    double scale;            /* 0: default */
} acase;

static double rnd16(wt_dtype dt, double x) {
    return dt == WT_F16 ? wt_f16_to_f32(wt_f32_to_f16((float)x)) : (float)x;
}

/* a [B, H, L, D] tensor (or of rank nd) holding v (C order of [B, H, L, D]) */
static wt_tensor *make4(wt_dtype dt, const acase *c, int64_t H, int64_t L, int64_t D, const double *v) {
    int64_t n = c->B * H * L * D;
    if (c->transposed && c->nd == 4) {
        double *t = malloc((size_t)n * sizeof *t);
        for (int64_t b = 0; b < c->B; b++)
            for (int64_t h = 0; h < H; h++)
                for (int64_t l = 0; l < L; l++)
                    for (int64_t d = 0; d < D; d++)
                        t[((b * L + l) * H + h) * D + d] = v[((b * H + h) * L + l) * D + d];
        wt_tensor *base = tt_upload(ctx, dt, WT_SHAPE(c->B, L, H, D), t);
        free(t);
        wt_tensor *view = wt_transpose(ctx, base, 1, 2);
        wt_release(base);
        return view;
    }
    int64_t shape[4] = { c->B, H, L, D };
    return tt_upload(ctx, dt, c->nd, shape + (4 - c->nd), v);
}

static void reference(const acase *c, const double *q, const double *k, const double *v, const double *mask,
                      double scale, double *out) {
    int64_t G = c->H / c->Hkv;
    double *s = malloc((size_t)c->Lk * sizeof *s);
    for (int64_t b = 0; b < c->B; b++)
        for (int64_t h = 0; h < c->H; h++)
            for (int64_t i = 0; i < c->Lq; i++) {
                const double *qr = q + ((b * c->H + h) * c->Lq + i) * c->D;
                double m = -INFINITY;
                for (int64_t j = 0; j < c->Lk; j++) {
                    const double *kr = k + ((b * c->Hkv + h / G) * c->Lk + j) * c->D;
                    double acc = 0;
                    for (int64_t d = 0; d < c->D; d++)
                        acc += qr[d] * kr[d];
                    acc *= scale;
                    if (c->causal && j > i + c->Lk - c->Lq)
                        acc = -INFINITY;
                    if (c->mask == 1 && mask[i * c->Lk + j] == 0)
                        acc = -INFINITY;
                    if (c->mask == 2)
                        acc += mask[(b * c->Lq + i) * c->Lk + j];
                    s[j] = acc;
                    m = fmax(m, acc);
                }
                double sum = 0;
                for (int64_t j = 0; j < c->Lk; j++) {
                    s[j] = m == -INFINITY ? 0 : exp(s[j] - m);
                    sum += s[j];
                }
                double *o = out + ((b * c->H + h) * c->Lq + i) * c->Dv;
                for (int64_t e = 0; e < c->Dv; e++) {
                    double acc = 0;
                    for (int64_t j = 0; j < c->Lk; j++)
                        acc += s[j] * v[((b * c->Hkv + h / G) * c->Lk + j) * c->Dv + e];
                    o[e] = sum > 0 ? acc / sum : 0;
                }
            }
    free(s);
}

static double *rvals(wt_dtype dt, int64_t n, double lo, double hi) {
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = rnd16(dt, tt_rand(&seed, lo, hi));
    return v;
}

static void run_case(wt_dtype dt, acase c) {
    if (!c.Hkv)
        c.Hkv = c.H;
    if (!c.Dv)
        c.Dv = c.D;
    double *q = rvals(dt, c.B * c.H * c.Lq * c.D, -1, 1);
    double *k = rvals(dt, c.B * c.Hkv * c.Lk * c.D, -1, 1);
    double *v = rvals(dt, c.B * c.Hkv * c.Lk * c.Dv, -1, 1);
    double *mask = NULL;
    wt_tensor *mt = NULL;
    if (c.mask == 1) {
        mask = malloc((size_t)(c.Lq * c.Lk) * sizeof *mask);
        for (int64_t i = 0; i < c.Lq * c.Lk; i++)
            mask[i] = tt_rand(&seed, 0, 1) < 0.7;
        mask[0] = 1;
        mt = tt_upload(ctx, WT_BOOL, WT_SHAPE(c.Lq, c.Lk), mask);
    } else if (c.mask == 2) {
        mask = rvals(WT_F32, c.B * c.Lq * c.Lk, -2, 1);
        mt = tt_upload(ctx, WT_F32, WT_SHAPE(c.B, 1, c.Lq, c.Lk), mask);
    }
    wt_tensor *qt = make4(dt, &c, c.H, c.Lq, c.D, q);
    wt_tensor *kt = make4(dt, &c, c.Hkv, c.Lk, c.D, k);
    wt_tensor *vt = make4(dt, &c, c.Hkv, c.Lk, c.Dv, v);
    double scale = c.scale ? c.scale : 1 / sqrt((double)c.D);
    int64_t n = c.B * c.H * c.Lq * c.Dv;
    double *ref = malloc((size_t)n * sizeof *ref);
    reference(&c, q, k, v, mask, (float)scale, ref);
    double *got[2] = { NULL, NULL };
    for (int impl = 0; impl < 2; impl++) {
        if (impl == 1 && (c.mask || c.D > 256 || c.Dv != c.D))
            continue;
        /* the FMA kernels (f32's default takes the tensor cores where the device has them:
         * test_attention_coop) */
        wt_attention_desc d = { .scale = c.scale, .causal = c.causal, .mask = mt,
                                .impl = impl ? WT_ATTENTION_FLASH : WT_ATTENTION_PLAIN,
                                .precision = WT_ATTENTION_FMA };
        wt_tensor *o = wt_scaled_dot_product_attention(ctx, qt, kt, vt, &d);
        char what[200];
        snprintf(what, sizeof what, "%s %s nd %d B%lld H%lld/%lld Lq %lld Lk %lld D %lld Dv %lld causal %d mask %d tr %d",
                 impl ? "flash" : "plain", wt_dtype_name(dt), c.nd, (long long)c.B, (long long)c.H, (long long)c.Hkv,
                 (long long)c.Lq, (long long)c.Lk, (long long)c.D, (long long)c.Dv, c.causal, c.mask, c.transposed);
        CHECKF(o != NULL, "%s: %s", what, wt_last_error(ctx));
        if (!o)
            continue;
        CHECK_EQ_INT(wt_ndim(o), c.nd);
        CHECK_EQ_INT(wt_size(o, -1), c.Dv);
        CHECK_EQ_INT(wt_size(o, -2), c.Lq);
        CHECK(wt_dtype_of(o) == dt);
        got[impl] = tt_read(ctx, o);
        double tol = dt == WT_F16 ? 6e-3 : 3e-6;
        int bad = 0;
        for (int64_t i = 0; i < n && bad < 3; i++) {
            bool ok = fabs(got[impl][i] - ref[i]) <= tol;
            bad += !ok;
            CHECKF(ok, "%s: element %lld: got %.9g want %.9g", what, (long long)i, got[impl][i], ref[i]);
        }
        wt_release(o);
    }
    if (got[0] && got[1]) {   /* flash == plain */
        double worst = 0;
        for (int64_t i = 0; i < n; i++)
            worst = fmax(worst, fabs(got[0][i] - got[1][i]));
        CHECKF(worst <= (dt == WT_F16 ? 2e-3 : 2e-6), "flash vs plain differ by %g", worst);
    }
    free(got[0]);
    free(got[1]);
    wt_release(qt);
    wt_release(kt);
    wt_release(vt);
    wt_release(mt);
    free(q);
    free(k);
    free(v);
    free(mask);
    free(ref);
}

static void test_cases(wt_dtype dt) {
    run_case(dt, (acase){ .nd = 4, .B = 1, .H = 2, .Lq = 5, .Lk = 5, .D = 8 });
    run_case(dt, (acase){ .nd = 4, .B = 2, .H = 2, .Lq = 70, .Lk = 70, .D = 64, .causal = true });
    run_case(dt, (acase){ .nd = 4, .B = 1, .H = 3, .Lq = 3, .Lk = 77, .D = 96, .causal = true });   /* KV cache */
    run_case(dt, (acase){ .nd = 4, .B = 1, .H = 1, .Lq = 1, .Lk = 130, .D = 128, .causal = true });  /* decode */
    run_case(dt, (acase){ .nd = 4, .B = 1, .H = 2, .Lq = 40, .Lk = 20, .D = 16, .causal = true });  /* no key rows */
    run_case(dt, (acase){ .nd = 4, .B = 1, .H = 2, .Lq = 33, .Lk = 45, .D = 160 });                 /* BR 16 */
    run_case(dt, (acase){ .nd = 4, .B = 1, .H = 1, .Lq = 20, .Lk = 20, .D = 256, .causal = true });
    run_case(dt, (acase){ .nd = 4, .B = 1, .H = 4, .Hkv = 2, .Lq = 9, .Lk = 12, .D = 32, .causal = true }); /* GQA */
    run_case(dt, (acase){ .nd = 4, .B = 2, .H = 3, .Lq = 11, .Lk = 11, .D = 24, .transposed = true, .scale = 0.3 });
    run_case(dt, (acase){ .nd = 3, .B = 1, .H = 3, .Lq = 7, .Lk = 9, .D = 12, .Dv = 5 });           /* Dv != D: plain */
    run_case(dt, (acase){ .nd = 2, .B = 1, .H = 1, .Lq = 6, .Lk = 65, .D = 64, .causal = true });
    run_case(dt, (acase){ .nd = 4, .B = 1, .H = 2, .Lq = 64, .Lk = 128, .D = 128, .causal = true }); /* flash3 EX */
    run_case(dt, (acase){ .nd = 4, .B = 2, .H = 2, .Lq = 6, .Lk = 10, .D = 8, .mask = 1 });
    run_case(dt, (acase){ .nd = 4, .B = 2, .H = 2, .Lq = 6, .Lk = 10, .D = 8, .mask = 2, .causal = true });
}

static void test_errors(void) {
    wt_tensor *q = wt_zeros(ctx, WT_F32, WT_SHAPE(1, 2, 4, 8));
    wt_tensor *k = wt_zeros(ctx, WT_F32, WT_SHAPE(1, 2, 5, 8));
    wt_tensor *kbad = wt_zeros(ctx, WT_F32, WT_SHAPE(1, 2, 5, 7));
    wt_tensor *ki = wt_zeros(ctx, WT_I32, WT_SHAPE(1, 2, 5, 8));
    wt_tensor *m = wt_ones(ctx, WT_BOOL, WT_SHAPE(4, 5));
    wt_tensor *mbad = wt_ones(ctx, WT_BOOL, WT_SHAPE(3, 5));
    const char *op = "wt_scaled_dot_product_attention";
    CHECK(!wt_scaled_dot_product_attention(ctx, q, kbad, k, NULL) && wt_last_status(ctx) == WT_STATUS_SHAPE);
    CHECK(strstr(wt_last_error(ctx), op) != NULL);
    wt_clear_error(ctx);
    CHECK(!wt_scaled_dot_product_attention(ctx, q, ki, ki, NULL) && wt_last_status(ctx) == WT_STATUS_DTYPE);
    wt_clear_error(ctx);
    CHECK(!wt_scaled_dot_product_attention(ctx, q, k, k, &(wt_attention_desc){ .mask = m, .impl = WT_ATTENTION_FLASH }) &&
          wt_last_status(ctx) == WT_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);
    CHECK(!wt_scaled_dot_product_attention(ctx, q, k, k, &(wt_attention_desc){ .mask = mbad }) &&
          wt_last_status(ctx) == WT_STATUS_SHAPE);
    wt_clear_error(ctx);
    CHECK(!wt_scaled_dot_product_attention(ctx, q, NULL, k, NULL) && wt_last_status(ctx) == WT_STATUS_NULL_TENSOR);
    wt_clear_error(ctx);
    wt_tensor *o = wt_scaled_dot_product_attention(ctx, q, k, k, &(wt_attention_desc){ .mask = m });
    CHECKF(o != NULL, "%s", wt_last_error(ctx));
    wt_release(o);
    wt_release(q);
    wt_release(k);
    wt_release(kbad);
    wt_release(ki);
    wt_release(m);
    wt_release(mbad);
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    test_cases(WT_F32);
    if (test_under_valgrind()) {   /* every kernel compile takes seconds there: f32 cases only */
        printf("valgrind: the f32 cases only\n");
        test_errors();
        tt_end(&f);
        return test_end();
    }
    /* flash3.wgsl (the default where the device has more than 32 KiB of workgroup memory) in
     * the configurations of attention.c's table FL, through wt_policy.attention_kernel, where
     * they fit lavapipe's 32 KiB (else attention.c falls back to flash2): flash3 (mode 2: 8
     * groups of 4 rows) up to D 32; flash3_ds (114, the f16 default without subgroups: 256 lanes,
     * every chunk fetched at its store) up to D 16; flash3_wq (195, the H200's default: warps of
     * 4 groups x 8 columns, P key-major, with the subgroup exchange and S split over head dims
     * where the device has subgroups of 8 lanes or more; lavapipe's are 8 wide) and
     * flash3_wq_nosg (the f32 default without subgroups) up to D 16, with the unguarded path (EX:
     * D 16, Lq % 32 == 0, Lk % 64 == 0) too; flash3_wq4 (the same code in 4 groups, 128 lanes:
     * 31 KiB at D 128, O split over keys) up to D 128.  Each takes llvmpipe seconds to compile;
     * WGC_ATTENTION_KERNEL=<name> (the fixture's policy) runs one of them on every case instead.
     * 16-byte loads where D % 4 == 0 (transposed views too), the strided path for D 10, a single
     * K slot per lane (flash3_ds, D 16) */
    wt_policy pol;
    wt_context_get_policy(ctx, &pol);
    struct { char name[32]; int64_t dmax; } modes[5] = { { "flash3", 32 },         { "flash3_ds", 16 },
                                                         { "flash3_wq", 16 },      { "flash3_wq_nosg", 16 },
                                                         { "flash3_wq4", 128 } };
    int nmodes = 5;
    if (pol.attention_kernel) {
        snprintf(modes[0].name, sizeof modes[0].name, "%s", pol.attention_kernel);
        modes[0].dmax = 128;
        nmodes = 1;
    }
    for (int m = 0; m < nmodes; m++) {
        wt_policy pm = pol;
        pm.attention_kernel = modes[m].name;
        CHECK_EQ_INT(wt_context_set_policy(ctx, &pm), WT_OK);
        int64_t dm = modes[m].dmax;
        if (dm >= 128) {
            run_case(WT_F32, (acase){ .nd = 4, .B = 1, .H = 2, .Lq = 64, .Lk = 128, .D = 128, .causal = true }); /* EX */
            run_case(WT_F32, (acase){ .nd = 4, .B = 1, .H = 3, .Lq = 19, .Lk = 77, .D = 96, .causal = true });
            run_case(WT_F32, (acase){ .nd = 4, .B = 1, .H = 4, .Hkv = 2, .Lq = 9, .Lk = 140, .D = 128 });
            if (wt_context_has_f16(ctx))
                run_case(WT_F16, (acase){ .nd = 4, .B = 1, .H = 2, .Lq = 40, .Lk = 70, .D = 128, .causal = true });
            if (nmodes > 1)
                continue;   /* a given mode: the smaller head dims too */
        }
        if (dm >= 32) {
            run_case(WT_F32, (acase){ .nd = 4, .B = 2, .H = 2, .Lq = 70, .Lk = 70, .D = 32, .causal = true });
            run_case(WT_F32, (acase){ .nd = 4, .B = 1, .H = 3, .Lq = 3, .Lk = 77, .D = 28, .causal = true });
            run_case(WT_F32, (acase){ .nd = 4, .B = 1, .H = 4, .Hkv = 2, .Lq = 9, .Lk = 12, .D = 32, .causal = true });
            run_case(WT_F32, (acase){ .nd = 4, .B = 2, .H = 3, .Lq = 11, .Lk = 139, .D = 24, .transposed = true,
                                      .scale = 0.3 });
            if (wt_context_has_f16(ctx))
                run_case(WT_F16, (acase){ .nd = 4, .B = 2, .H = 2, .Lq = 70, .Lk = 70, .D = 32, .causal = true });
        }
        run_case(WT_F32, (acase){ .nd = 4, .B = 1, .H = 2, .Lq = 40, .Lk = 20, .D = 16, .causal = true });
        run_case(WT_F32, (acase){ .nd = 4, .B = 1, .H = 2, .Lq = 64, .Lk = 128, .D = 16, .causal = true }); /* EX */
        run_case(WT_F32, (acase){ .nd = 4, .B = 1, .H = 1, .Lq = 32, .Lk = 64, .D = 16 });                  /* EX */
        run_case(WT_F32, (acase){ .nd = 4, .B = 2, .H = 2, .Lq = 70, .Lk = 70, .D = 16, .causal = true });
        run_case(WT_F32, (acase){ .nd = 4, .B = 1, .H = 3, .Lq = 3, .Lk = 77, .D = 12, .causal = true });
        run_case(WT_F32, (acase){ .nd = 4, .B = 1, .H = 4, .Hkv = 2, .Lq = 9, .Lk = 12, .D = 16, .causal = true });
        run_case(WT_F32,
                 (acase){ .nd = 4, .B = 2, .H = 3, .Lq = 11, .Lk = 139, .D = 12, .transposed = true, .scale = 0.3 });
        run_case(WT_F32, (acase){ .nd = 4, .B = 1, .H = 2, .Lq = 37, .Lk = 70, .D = 10, .causal = true });
        if (wt_context_has_f16(ctx))
            run_case(WT_F16, (acase){ .nd = 4, .B = 2, .H = 2, .Lq = 70, .Lk = 70, .D = 16, .causal = true });
    }
    pol.attention_kernel = NULL;
    CHECK_EQ_INT(wt_context_set_policy(ctx, &pol), WT_OK);
    test_errors();
    if (wt_context_has_f16(ctx))
        test_cases(WT_F16);
    else
        printf("SKIP: f16 cases (the adapter has no shader-f16)\n");
    tt_end(&f);
    return test_end();
}
