/* create.c - creation ops.  empty takes a buffer from the pool (contents undefined); zeros,
 * ones, full, arange and eye run fill.wgsl; from_host uploads through wg_queue_write_buffer
 * (copied now, on the GPU before the next submit); rand/randn/uniform/normal run rand.wgsl, a
 * Philox-4x32-10 generator keyed by the context's seed and advanced by a 64-bit element counter,
 * so the numbers depend only on (seed, how many were drawn before), never on the adapter. */
#include <math.h>
#include <string.h>

#include "tensor/internal.h"

wt_tensor *wt_empty(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape) {
    if (!ctx)
        return NULL;
    return wt_tensor_new(ctx, "wt_empty", dt, ndim, shape);
}

static wt_tensor *fill_file(wt_context *ctx, const char *op, wt_kfile file, wt_dtype dt, int ndim, const int64_t *shape,
                            uint32_t mode, const uint32_t sv[4], const uint32_t aux[4]) {
    wt_tensor *t = wt_tensor_new(ctx, op, dt, ndim, shape);
    if (!t)
        return NULL;
    if (wt_elementwise(ctx, op, file, mode, wt_compute_dtype(t->dtype), t, 0, NULL, sv, aux) != WT_OK) {
        wt_release(t);
        return NULL;
    }
    return t;
}

static wt_tensor *fill(wt_context *ctx, const char *op, wt_dtype dt, int ndim, const int64_t *shape, uint32_t mode,
                       const uint32_t sv[4], const uint32_t aux[4]) {
    return fill_file(ctx, op, WT_K_fill, dt, ndim, shape, mode, sv, aux);
}

static wt_tensor *full(wt_context *ctx, const char *op, wt_dtype dt, int ndim, const int64_t *shape, double v) {
    if (!ctx)
        return NULL;
    wt_dtype d = dt == WT_DTYPE_DEFAULT ? WT_F32 : dt;
    if (!wt_valid_dtype(ctx, op, d))
        return NULL;
    uint32_t sv[4] = { d == WT_BOOL ? (v != 0) : wt_scalar_bits(wt_compute_dtype(d), v), 0, 0, 0 };
    return fill(ctx, op, d, ndim, shape, 0, sv, NULL);
}

wt_tensor *wt_zeros(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape) {
    return full(ctx, "wt_zeros", dt, ndim, shape, 0);
}

wt_tensor *wt_ones(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape) {
    return full(ctx, "wt_ones", dt, ndim, shape, 1);
}

wt_tensor *wt_full(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double value) {
    return full(ctx, "wt_full", dt, ndim, shape, value);
}

wt_tensor *wt_scalar(wt_context *ctx, wt_dtype dt, double value) {
    return full(ctx, "wt_scalar", dt, 0, NULL, value);
}

wt_tensor *wt_arange(wt_context *ctx, wt_dtype dt, double start, double end, double step) {
    const char *op = "wt_arange";
    if (!ctx)
        return NULL;
    wt_dtype d = dt == WT_DTYPE_DEFAULT ? WT_F32 : dt;
    if (!wt_valid_dtype(ctx, op, d))
        return NULL;
    if (d == WT_BOOL)
        return wt_fail(ctx, WT_STATUS_DTYPE, op, "bool is not supported");
    if (step == 0 || !isfinite(start) || !isfinite(end) || !isfinite(step))
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "start %g, end %g, step %g: need finite values, step != 0",
                       start, end, step);
    if (!wt_is_float(d) && (start != floor(start) || step != floor(step)))
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "%s needs integral start and step (got %g, %g)",
                       wt_dtype_name(d), start, step);
    double n = ceil((end - start) / step);
    if (n < 0)
        n = 0;
    if (n > INT32_MAX)
        return wt_fail(ctx, WT_STATUS_SHAPE, op, "%g elements is too many", n);
    wt_dtype c = wt_compute_dtype(d);
    uint32_t sv[4] = { wt_scalar_bits(c, start), wt_scalar_bits(c, step), 0, 0 };
    return fill(ctx, op, d, 1, (const int64_t[]){ (int64_t)n }, 1, sv, NULL);
}

wt_tensor *wt_eye(wt_context *ctx, wt_dtype dt, int64_t n, int64_t m) {
    if (!ctx)
        return NULL;
    if (m <= 0)
        m = n;
    uint32_t aux[4] = { (uint32_t)m, 0, 0, 0 };
    return fill(ctx, "wt_eye", dt, 2, (const int64_t[]){ n, m }, 2, NULL, aux);
}

wt_tensor *wt_from_host(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, const void *data) {
    const char *op = "wt_from_host";
    if (!ctx)
        return NULL;
    wt_tensor *t = wt_tensor_new(ctx, op, dt, ndim, shape);
    if (!t)
        return NULL;
    if (!t->numel)
        return t;
    if (!data) {
        wt_release(t);
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "data is NULL");
    }
    size_t gs = wt_gpu_size(t->dtype), bytes = (size_t)t->numel * gs, padded = (bytes + 3) & ~(size_t)3;
    const void *src = data;
    uint32_t *tmp = NULL;
    if (t->dtype == WT_BOOL || padded != bytes) {
        tmp = wt_alloc(ctx, padded);
        if (!tmp) {
            wt_release(t);
            return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
        }
        memset(tmp, 0, padded);
        if (t->dtype == WT_BOOL)
            for (int64_t i = 0; i < t->numel; i++)
                tmp[i] = ((const uint8_t *)data)[i] != 0;
        else
            memcpy(tmp, data, bytes);
        src = tmp;
    }
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_VALIDATION);
    wg_queue_write_buffer(ctx->q, t->st->buf, 0, src, padded);
    wg_error e;
    wg_error_id v = wg_device_pop_error_scope(ctx->dev, &e);
    wt_free(ctx, tmp);
    if (v != WG_ERR_NONE) {
        wt_release(t);
        return wt_fail(ctx, WT_STATUS_GPU, op, "upload: %s", e.message);
    }
    return t;
}

void wt_manual_seed(wt_context *ctx, uint64_t seed) {
    if (ctx) {
        ctx->rng_seed = seed;
        ctx->rng_counter = 0;
    }
}

static wt_tensor *rng_fill(wt_context *ctx, const char *op, wt_dtype dt, int ndim, const int64_t *shape, uint32_t mode,
                         double p0, double p1) {
    if (!ctx)
        return NULL;
    wt_dtype d = dt == WT_DTYPE_DEFAULT ? WT_F32 : dt;
    if (!wt_valid_dtype(ctx, op, d))
        return NULL;
    if (!wt_is_float(d))
        return wt_fail(ctx, WT_STATUS_DTYPE, op, "needs f32 or f16, got %s", wt_dtype_name(d));
    uint32_t sv[4] = { wt_scalar_bits(WT_F32, p0), wt_scalar_bits(WT_F32, p1), 0, 0 };
    uint32_t aux[4] = { (uint32_t)ctx->rng_seed, (uint32_t)(ctx->rng_seed >> 32), (uint32_t)ctx->rng_counter,
                        (uint32_t)(ctx->rng_counter >> 32) };
    wt_tensor *t = fill_file(ctx, op, WT_K_rand, d, ndim, shape, mode, sv, aux);
    if (!t)
        return NULL;
    ctx->rng_counter += (uint64_t)t->numel;
    return t;
}

wt_tensor *wt_rand(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape) {
    return rng_fill(ctx, "wt_rand", dt, ndim, shape, 0, 0.0, 1.0);
}

wt_tensor *wt_randn(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape) {
    return rng_fill(ctx, "wt_randn", dt, ndim, shape, 1, 0.0, 1.0);
}

wt_tensor *wt_uniform(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double lo, double hi) {
    return rng_fill(ctx, "wt_uniform", dt, ndim, shape, 0, lo, hi);
}

wt_tensor *wt_normal(wt_context *ctx, wt_dtype dt, int ndim, const int64_t *shape, double mean, double std) {
    return rng_fill(ctx, "wt_normal", dt, ndim, shape, 1, mean, std);
}
