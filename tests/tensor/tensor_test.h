/* tensor_test.h - fixture of the wt tests: an instance (validation layers on unless
 * $WGC_TEST_VALIDATION=0), the default adapter, a device with shader-f16, subgroups and
 * cooperative matrices where the adapter has them, a wt context with a counting allocator, and
 * helpers to upload (also as transposed or strided views), read back and compare. */
#ifndef WGC_TENSOR_TEST_H
#define WGC_TENSOR_TEST_H
#include <math.h>
#include <stdlib.h>

#include "../gpu/gpu_test.h"
#include "wgc/tensor.h"

typedef struct tt_fixture {
    gpu_fixture g;
    test_alloc ta;
    wt_context *ctx;
} tt_fixture;

static inline wt_context *tt_init(tt_fixture *f, const wt_context_desc *cd) {
    wg_error err;
    memset(f, 0, sizeof *f);
    /* probe the adapter's features with a throwaway instance-less path: ask for f16 if present */
    gpu_fixture probe;
    fixture_init(&probe, NULL);
    bool f16 = wg_adapter_has_feature(probe.ad, WG_FEATURE_SHADER_F16);
    bool sg = wg_adapter_has_feature(probe.ad, WG_FEATURE_SUBGROUPS);
    bool coop = wg_adapter_has_feature(probe.ad, WG_FEATURE_COOPERATIVE_MATRIX);
    bool wgm = wg_adapter_has_feature(probe.ad, WG_FEATURE_WORKGROUP_MATRIX);
    bool stats = wg_adapter_has_feature(probe.ad, WG_FEATURE_PIPELINE_STATISTICS);   /* wt_kernel_list */
    wg_device_release(probe.dev);
    wg_instance_release(probe.inst);
    (void)err;
    fixture_init(&f->g, &(wg_device_desc){ .required_features = (f16 ? WG_FEATURE_BIT(WG_FEATURE_SHADER_F16) : 0) |
                                                                (sg ? WG_FEATURE_BIT(WG_FEATURE_SUBGROUPS) : 0) |
                                                                (coop ? WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX) : 0) |
                                                                (wgm ? WG_FEATURE_BIT(WG_FEATURE_WORKGROUP_MATRIX) : 0) |
                                                                (stats ? WG_FEATURE_BIT(WG_FEATURE_PIPELINE_STATISTICS) : 0) });
    wt_context_desc d = cd ? *cd : (wt_context_desc){ 0 };
    if (!d.allocator.alloc)
        d.allocator = test_allocator(&f->ta);
    char perr[160];
    if (!wt_policy_from_env(&d.policy, perr, sizeof perr)) {   /* a developer's WGC_* knobs */
        fprintf(stderr, "FAIL: %s\n", perr);
        exit(1);
    }
    f->ctx = wt_context_create(f->g.dev, &d);
    if (!f->ctx) {
        fprintf(stderr, "FAIL: no wt context\n");
        exit(1);
    }
    return f->ctx;
}

static inline void tt_end(tt_fixture *f) {
    wt_context_destroy(f->ctx);
    CHECK_EQ_INT(f->ta.live, 0);
    fixture_end(&f->g);
}

/* Reads a tensor as doubles (any dtype). */
static inline double *tt_read(wt_context *ctx, wt_tensor *t) {
    int64_t n = wt_numel(t);
    size_t hs = wt_dtype_size(wt_dtype_of(t));
    unsigned char *raw = malloc((size_t)n * hs + 8);
    double *out = malloc((size_t)n * sizeof(double) + 8);
    wt_status s = wt_to_host(ctx, t, raw, (size_t)n * hs);
    CHECKF(s == WT_OK, "to_host: %s", wt_last_error(ctx));
    for (int64_t i = 0; i < n; i++) {
        switch (wt_dtype_of(t)) {
        case WT_F32: { float v; memcpy(&v, raw + 4 * i, 4); out[i] = v; break; }
        case WT_F16: { uint16_t v; memcpy(&v, raw + 2 * i, 2); out[i] = wt_f16_to_f32(v); break; }
        case WT_I32: { int32_t v; memcpy(&v, raw + 4 * i, 4); out[i] = v; break; }
        case WT_U32: { uint32_t v; memcpy(&v, raw + 4 * i, 4); out[i] = v; break; }
        default: out[i] = raw[i]; break;
        }
    }
    free(raw);
    return out;
}

/* Uploads doubles as dtype dt. */
static inline wt_tensor *tt_upload(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, const double *v) {
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    unsigned char *raw = malloc((size_t)n * 4 + 8);
    for (int64_t i = 0; i < n; i++) {
        switch (dt) {
        case WT_F32: { float x = (float)v[i]; memcpy(raw + 4 * i, &x, 4); break; }
        case WT_F16: { uint16_t x = wt_f32_to_f16((float)v[i]); memcpy(raw + 2 * i, &x, 2); break; }
        case WT_I32: { int32_t x = (int32_t)v[i]; memcpy(raw + 4 * i, &x, 4); break; }
        case WT_U32: { uint32_t x = (uint32_t)(int64_t)v[i]; memcpy(raw + 4 * i, &x, 4); break; }
        default: raw[i] = v[i] != 0; break;
        }
    }
    wt_tensor *t = wt_from_host(ctx, dt, ndim, shape, raw);
    free(raw);
    CHECKF(t != NULL, "upload: %s", wt_last_error(ctx));
    return t;
}

/* Layouts of tt_make: the same logical values stored contiguously, as a transposed view (last two
 * dims swapped in memory) or as a strided slice (every other row of dim 0 of a larger tensor). */
enum { TT_CONTIG, TT_TRANSPOSED, TT_STRIDED, TT_LAYOUT_COUNT };

/* A tensor holding the values v (C order, of shape) with the given layout: a view when not
 * contiguous.  The strided slice's gaps hold -777 (true for bool), never read. */
static inline wt_tensor *tt_make(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, const double *v,
                                 int layout) {
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    if (layout == TT_TRANSPOSED && ndim >= 2) {
        int nd = ndim;
        int64_t bs[WT_MAX_DIMS];
        memcpy(bs, shape, (size_t)nd * sizeof *bs);
        bs[nd - 1] = shape[nd - 2];
        bs[nd - 2] = shape[nd - 1];
        double *tmp = malloc((size_t)n * sizeof *tmp + 8);
        int64_t r = shape[nd - 2], k = shape[nd - 1], outer = r * k != 0 ? n / (r * k) : 0;
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < r; i++)
                for (int64_t j = 0; j < k; j++)
                    tmp[o * r * k + j * r + i] = v[o * r * k + i * k + j];
        wt_tensor *base = tt_upload(ctx, dt, nd, bs, tmp);
        free(tmp);
        wt_tensor *view = wt_transpose(ctx, base, -1, -2);
        wt_release(base);
        return view;
    }
    if (layout == TT_STRIDED && ndim >= 1) {
        int64_t bs[WT_MAX_DIMS];
        memcpy(bs, shape, (size_t)ndim * sizeof *bs);
        bs[0] = shape[0] * 2 + 1;
        int64_t inner = 1;
        for (int d = 1; d < ndim; d++)
            inner *= shape[d];
        double *tmp = malloc((size_t)(bs[0] * inner) * sizeof *tmp + 8);
        for (int64_t i = 0; i < bs[0] * inner; i++)
            tmp[i] = dt == WT_BOOL ? 1 : -777;
        for (int64_t i = 0; i < shape[0]; i++)
            for (int64_t j = 0; j < inner; j++)
                tmp[(2 * i + 1) * inner + j] = v[i * inner + j];
        wt_tensor *base = tt_upload(ctx, dt, ndim, bs, tmp);
        free(tmp);
        wt_tensor *view = wt_slice(ctx, base, 0, 1, bs[0], 2);
        wt_release(base);
        return view;
    }
    return tt_upload(ctx, dt, ndim, shape, v);
}

/* Deterministic pseudo-random doubles in [lo, hi) (xorshift). */
static inline double tt_rand(uint64_t *s, double lo, double hi) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return lo + (hi - lo) * (double)(*s >> 11) / 9007199254740992.0;
}
#endif
