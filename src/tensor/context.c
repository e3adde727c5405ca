/* context.c - the wt context: creation against a wg device and destruction, and the host
 * allocator hook every file allocates through.  The context owns the pool, the kernel and bind
 * group caches, the pending batch and every tensor made from it; its error state lives in
 * errors.c, its policy in policy.c, batching and timing in batch.c, statistics in pool.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/internal.h"

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
    wt__grad_destroy(ctx);
    wt_batch_destroy(ctx);
    wt_kernels_destroy(ctx);
    wt_pool_destroy(ctx);
    wg_device *dev = ctx->dev;
    if (ctx->live_tensors) {  /* tensors still held: the shell goes with the last wt_release */
        ctx->destroyed = true;
        ctx->dev = NULL;
        ctx->q = NULL;
    } else {
        wt_free(ctx, ctx);
    }
    wg_device_release(dev);
}

wg_device *wt_context_device(wt_context *ctx) {
    return ctx ? ctx->dev : NULL;
}

bool wt_context_has_f16(const wt_context *ctx) {
    return ctx && ctx->f16;
}
