/* context.c - the wt context: creation against a wg device, the allocator hook, the error state
 * (status + "<op>: <detail>" message, set by wt_fail) and statistics.  The context owns the
 * pool, the kernel and bind group caches, the pending batch and every tensor made from it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/internal.h"

static const char *const status_names[] = {
#define X(name, summary) "WT_STATUS_" #name,
    WT_ERRORS(X)
#undef X
};
static const char *const status_summaries[] = {
#define X(name, summary) summary,
    WT_ERRORS(X)
#undef X
};
_Static_assert(sizeof status_names / sizeof *status_names == WT_STATUS_COUNT, "one name per status");

static const char *const dtype_names[] = {
    "default",
#define X(name, str, hsize, gsize) str,
    WT_DTYPES(X)
#undef X
};
static const uint8_t dtype_hsize[] = {
    4,
#define X(name, str, hsize, gsize) hsize,
    WT_DTYPES(X)
#undef X
};
static const uint8_t dtype_gsize[] = {
    4,
#define X(name, str, hsize, gsize) gsize,
    WT_DTYPES(X)
#undef X
};
_Static_assert(sizeof dtype_names / sizeof *dtype_names == WT_DTYPE_COUNT, "one name per dtype");

const char *wt_status_name(wt_status s) {
    return (unsigned)s < WT_STATUS_COUNT ? status_names[s] : "WT_STATUS_?";
}

const char *wt_dtype_name(wt_dtype dt) {
    return (unsigned)dt < WT_DTYPE_COUNT ? dtype_names[dt] : "?";
}

size_t wt_dtype_size(wt_dtype dt) {
    return (unsigned)dt < WT_DTYPE_COUNT ? dtype_hsize[dt] : 0;
}

size_t wt_gpu_size(wt_dtype dt) {
    return (unsigned)dt < WT_DTYPE_COUNT ? dtype_gsize[dt] : 0;
}

void *wt_alloc(wt_context *ctx, size_t n) {
    return ctx->al.alloc ? ctx->al.alloc(ctx->al.user, n) : malloc(n);
}

void *wt_realloc(wt_context *ctx, void *p, size_t n) {
    if (ctx->al.realloc)
        return ctx->al.realloc(ctx->al.user, p, n);
    if (ctx->al.alloc) {      /* alloc without realloc: emulate only for growth from NULL */
        if (!p)
            return ctx->al.alloc(ctx->al.user, n);
        return NULL;
    }
    return realloc(p, n);
}

void wt_free(wt_context *ctx, void *p) {
    if (!p)
        return;
    if (ctx->al.free)
        ctx->al.free(ctx->al.user, p);
    else
        free(p);
}

bool wt_grow(wt_context *ctx, void **arr, uint32_t *cap, uint32_t need, size_t esz) {
    if (need <= *cap)
        return true;
    uint32_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    void *p = wt_realloc(ctx, *arr, (size_t)nc * esz);
    if (!p)
        return false;
    *arr = p;
    *cap = nc;
    return true;
}

static void vset(wt_context *ctx, wt_status st, const char *op, const char *fmt, va_list ap) {
    ctx->status = st;
    int n = snprintf(ctx->message, sizeof ctx->message, "%s: ", op ? op : "wt");
    if (n < 0 || (size_t)n >= sizeof ctx->message)
        return;
    if (fmt && *fmt)
        vsnprintf(ctx->message + n, sizeof ctx->message - (size_t)n, fmt, ap);
    else
        snprintf(ctx->message + n, sizeof ctx->message - (size_t)n, "%s", status_summaries[st]);
}

void *wt_fail(wt_context *ctx, wt_status st, const char *op, const char *fmt, ...) {
    if (!ctx)
        return NULL;
    va_list ap;
    va_start(ap, fmt);
    vset(ctx, st, op, fmt, ap);
    va_end(ap);
    return NULL;
}

wt_status wt_failst(wt_context *ctx, wt_status st, const char *op, const char *fmt, ...) {
    if (!ctx)
        return st;
    va_list ap;
    va_start(ap, fmt);
    vset(ctx, st, op, fmt, ap);
    va_end(ap);
    return st;
}

wt_status wt_last_status(const wt_context *ctx) {
    return ctx ? ctx->status : WT_STATUS_INVALID_ARGUMENT;
}

const char *wt_last_error(const wt_context *ctx) {
    return ctx ? ctx->message : "wt: NULL context";
}

void wt_error_save(const wt_context *ctx, wt_error_state *es) {
    es->status = ctx->status;
    memcpy(es->message, ctx->message, sizeof es->message);
}

void wt_error_restore(wt_context *ctx, const wt_error_state *es) {
    ctx->status = es->status;
    memcpy(ctx->message, es->message, sizeof ctx->message);
}

void wt_clear_error(wt_context *ctx) {
    if (ctx) {
        ctx->status = WT_OK;
        ctx->message[0] = 0;
    }
}

const char *wt_shape_str(char *buf, size_t size, int ndim, const int64_t *shape) {
    size_t n = 0;
    buf[0] = 0;
    n += (size_t)snprintf(buf + n, size - n, "[");
    for (int i = 0; i < ndim && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? ", " : "", (long long)shape[i]);
    if (n < size)
        snprintf(buf + n, size - n, "]");
    return buf;
}

wt_context *wt_context_create(wg_device *dev, const wt_context_desc *desc) {
    if (!dev)
        return NULL;
    wt_context_desc d = desc ? *desc : (wt_context_desc){ 0 };
    wt_context *ctx = d.allocator.alloc ? d.allocator.alloc(d.allocator.user, sizeof *ctx) : malloc(sizeof *ctx);
    if (!ctx)
        return NULL;
    memset(ctx, 0, sizeof *ctx);
    ctx->al = d.allocator;
    snprintf(ctx->label, sizeof ctx->label, "%s", d.label ? d.label : "wt");
    ctx->dev = dev;
    ctx->q = wg_device_get_queue(dev);
    ctx->eager = d.eager;
    ctx->memory_limit = d.memory_limit;
    ctx->f16 = wg_device_has_feature(dev, WG_FEATURE_SHADER_F16);
    const wg_limits *lim = wg_device_get_limits(dev);
    uint32_t al = lim && lim->min_uniform_buffer_offset_alignment ? (uint32_t)lim->min_uniform_buffer_offset_alignment : 256;
    ctx->uniform_align = al;
    ctx->params_stride = (WT_PARAMS_SIZE + al - 1) / al * al;
    ctx->max_binding = lim ? lim->max_storage_buffer_binding_size : (1u << 27);
    wg_device_retain(dev);
    if (wt_policy_apply(ctx, "wt_context_create", &d.policy) != WT_OK || wt_kernels_init(ctx) != WT_OK) {
        wt_context_destroy(ctx);
        return NULL;
    }
    if (d.timing && wg_device_has_feature(dev, WG_FEATURE_TIMESTAMP_QUERY))
        wt_context_set_timing(ctx, true);
    return ctx;
}

void wt_context_destroy(wt_context *ctx) {
    if (!ctx)
        return;
    if (ctx->batch_count)
        wt_batch_flush(ctx, "wt_context_destroy");
    wg_queue_wait(ctx->q, UINT64_MAX);
    ctx->completed = ctx->submits;
    wt_tensors_destroy(ctx);
    wt_batch_destroy(ctx);
    wt_kernels_destroy(ctx);
    wt_pool_destroy(ctx);
    wg_device *dev = ctx->dev;
    wt_free(ctx, ctx);
    wg_device_release(dev);
}

wg_device *wt_context_device(wt_context *ctx) {
    return ctx ? ctx->dev : NULL;
}

bool wt_context_has_f16(const wt_context *ctx) {
    return ctx && ctx->f16;
}

void wt_context_set_eager(wt_context *ctx, bool eager) {
    if (ctx)
        ctx->eager = eager;
}

wt_status wt_context_set_timing(wt_context *ctx, bool on) {
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (on && !wg_device_has_feature(ctx->dev, WG_FEATURE_TIMESTAMP_QUERY))
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, "wt_context_set_timing",
                         "the device was made without the timestamp-query feature");
    if (on && !ctx->tq) {
        ctx->tq = wg_device_create_query_set(ctx->dev, &(wg_query_set_desc){
            .label = "wt batch timing", .type = WG_QUERY_TYPE_TIMESTAMP, .count = 2 * WT_TIMING_PAIRS });
        if (!ctx->tq)
            return wt_failst(ctx, WT_STATUS_GPU, "wt_context_set_timing", "timestamp query set: out of memory");
    }
    ctx->timing = on;
    return WT_OK;
}

void wt_get_stats(const wt_context *ctx, wt_stats *out) {
    if (!ctx || !out)
        return;
    *out = ctx->stats;
    uint64_t pooled = 0, nb = 0;
    for (uint32_t c = 0; c < WT_POOL_CLASSES; c++) {
        uint32_t k = ctx->free_end[c] - ctx->free_head[c];
        pooled += (uint64_t)k * wt_pool_class_size(c);
        nb += k;
    }
    for (uint32_t i = 0; i < ctx->retiring_count; i++)
        pooled += wt_pool_class_size(ctx->retiring[i].cls);
    nb += ctx->retiring_count;
    out->pooled_bytes = pooled;
    out->pooled_buffers = nb;
    out->live_bytes = out->allocated_bytes - pooled;
}

wt_status wt_flush(wt_context *ctx) {
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    return wt_batch_flush(ctx, "wt_flush");
}

wt_status wt_sync(wt_context *ctx) {
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    wt_status s = wt_batch_flush(ctx, "wt_sync");
    if (s != WT_OK)
        return s;
    return wt_batch_wait(ctx, "wt_sync");
}
