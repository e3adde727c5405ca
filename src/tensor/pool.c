/* pool.c - the GPU buffer pool.  Requests round up to a size class (four per power of two from
 * 256 bytes, so at most 25% waste); each class keeps a FIFO of free wg buffers, so a workload
 * that repeats (a training step, a benchmark loop) gets the same buffers in the same order and
 * hits the bind group cache every time.  A buffer given
 * back goes to the retiring list tagged with the context's submit count: it may still be read or
 * written by submitted work, so it becomes free only once the GPU has finished that submit
 * (ctx->completed, advanced by full waits and by a non-blocking wg_queue_wait(q, 0)).  A miss
 * creates a buffer inside an out-of-memory error scope; on failure (or past memory_limit) the
 * pool releases its free buffers, waits for the GPU, collects the retiring ones and tries once
 * more before reporting WT_STATUS_OUT_OF_MEMORY, which leaves every existing tensor intact.
 * Buffers of a batch's temporaries come back only after that batch ran, so a long batch of big
 * ops would only ever take buffers: batch.c flushes once the pool handed out the policy's
 * batch_bytes (or a quarter of memory_limit) for the pending batch, and later batches reuse what finished. */
#include <stdio.h>
#include <string.h>

#include "tensor/internal.h"

uint32_t wt_pool_class(uint64_t bytes) {
    if (bytes <= 256)
        return 0;
    uint32_t e = 63u - (uint32_t)__builtin_clzll(bytes - 1);   /* 2^e < bytes <= 2^(e+1) */
    uint64_t base = 1ull << e, q = base / 4;
    uint64_t m = (bytes - base + q - 1) / q;                  /* 1..4 */
    return (e - 8) * 4 + (uint32_t)m;
}

uint64_t wt_pool_class_size(uint32_t cls) {
    return (64ull << (cls / 4)) * (4 + cls % 4);
}

static void release_buffer(wt_context *ctx, wg_buffer *buf, uint32_t cls) {
    ctx->stats.allocated_bytes -= wt_pool_class_size(cls);
    wg_buffer_release(buf);
}

static bool push_free(wt_context *ctx, wg_buffer *buf, uint32_t cls) {
    uint32_t h = ctx->free_head[cls], e = ctx->free_end[cls];
    if (e == ctx->free_cap[cls] && h > 0) {   /* slide the queue down */
        memmove(ctx->free_list[cls], ctx->free_list[cls] + h, (e - h) * sizeof(wg_buffer *));
        ctx->free_head[cls] = 0;
        ctx->free_end[cls] = e = e - h;
    }
    if (!wt_grow(ctx, (void **)&ctx->free_list[cls], &ctx->free_cap[cls], e + 1, sizeof(wg_buffer *))) {
        release_buffer(ctx, buf, cls);
        return false;
    }
    ctx->free_list[cls][ctx->free_end[cls]++] = buf;
    return true;
}

static uint32_t free_count(const wt_context *ctx, uint32_t cls) {
    return ctx->free_end[cls] - ctx->free_head[cls];
}

static wg_buffer *pop_free(wt_context *ctx, uint32_t cls) {
    wg_buffer *b = ctx->free_list[cls][ctx->free_head[cls]++];
    if (ctx->free_head[cls] == ctx->free_end[cls])
        ctx->free_head[cls] = ctx->free_end[cls] = 0;
    return b;
}

void wt_pool_collect(wt_context *ctx) {
    if (!ctx->retiring_count)
        return;
    if (ctx->completed < ctx->submits && wg_queue_wait(ctx->q, 0) == WG_STATUS_OK)
        ctx->completed = ctx->submits;
    uint32_t keep = 0;
    for (uint32_t i = 0; i < ctx->retiring_count; i++) {
        wt_retiring r = ctx->retiring[i];
        if (r.tag <= ctx->completed)
            push_free(ctx, r.buf, r.cls);
        else
            ctx->retiring[keep++] = r;
    }
    ctx->retiring_count = keep;
}

static void release_free(wt_context *ctx) {
    wt_bind_groups_clear(ctx);   /* cached bind groups hold buffers */
    for (uint32_t c = 0; c < WT_POOL_CLASSES; c++) {
        for (uint32_t i = ctx->free_head[c]; i < ctx->free_end[c]; i++)
            release_buffer(ctx, ctx->free_list[c][i], c);
        ctx->free_head[c] = ctx->free_end[c] = 0;
    }
}

void wt_trim(wt_context *ctx) {
    if (!ctx)
        return;
    wg_queue_wait(ctx->q, UINT64_MAX);
    ctx->completed = ctx->submits;
    wt_pool_collect(ctx);
    release_free(ctx);
}

static wg_buffer *create(wt_context *ctx, uint64_t size, bool *oom) {
    *oom = false;
    if (ctx->memory_limit && ctx->stats.allocated_bytes + size > ctx->memory_limit) {
        *oom = true;
        return NULL;
    }
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_VALIDATION);
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    wg_buffer *b = wg_device_create_buffer(ctx->dev, &(wg_buffer_desc){ .label = "wt pool", .size = size });
    wg_error e1, e2;
    wg_error_id o = wg_device_pop_error_scope(ctx->dev, &e1);
    wg_error_id v = wg_device_pop_error_scope(ctx->dev, &e2);
    if (!b || o != WG_ERR_NONE || v != WG_ERR_NONE || !wg_buffer_is_valid(b)) {
        if (b)
            wg_buffer_release(b);
        *oom = true;
        return NULL;
    }
    return b;
}

wt_status wt_pool_get(wt_context *ctx, const char *op, uint64_t bytes, wg_buffer **out, uint32_t *clsp) {
    *out = NULL;
    uint32_t cls = wt_pool_class(bytes);
    if (cls >= WT_POOL_CLASSES)
        return wt_failst(ctx, WT_STATUS_OUT_OF_MEMORY, op, "%llu bytes is too large", (unsigned long long)bytes);
    if (wt_pool_class_size(cls) > ctx->max_binding)
        return wt_failst(ctx, WT_STATUS_OUT_OF_MEMORY, op,
                         "%llu bytes exceeds what one buffer binding may hold on this device (%llu)",
                         (unsigned long long)bytes, (unsigned long long)(ctx->max_binding / 5 * 4));
    *clsp = cls;
    if (!free_count(ctx, cls))
        wt_pool_collect(ctx);
    ctx->batch_bytes += wt_pool_class_size(cls);
    if (free_count(ctx, cls)) {
        *out = pop_free(ctx, cls);
        ctx->stats.pool_hits++;
        ctx->stats.live_buffers++;
        return WT_OK;
    }
    ctx->stats.pool_misses++;
    bool oom;
    wg_buffer *b = create(ctx, wt_pool_class_size(cls), &oom);
    if (!b) {
        /* free what the pool holds, run the pending batch, let the GPU finish, try once more */
        release_free(ctx);
        if (ctx->batch_count)
            wt_batch_flush(ctx, op);
        if (ctx->retiring_count) {
            wg_queue_wait(ctx->q, UINT64_MAX);
            ctx->completed = ctx->submits;
            wt_pool_collect(ctx);
            if (free_count(ctx, cls)) {
                *out = pop_free(ctx, cls);
                ctx->stats.live_buffers++;
                return WT_OK;
            }
            release_free(ctx);
        }
        b = create(ctx, wt_pool_class_size(cls), &oom);
    }
    if (!b) {
        if (wg_device_is_lost(ctx->dev))
            return wt_failst(ctx, WT_STATUS_DEVICE_LOST, op, "device lost while allocating %llu bytes",
                             (unsigned long long)bytes);
        return wt_failst(ctx, WT_STATUS_OUT_OF_MEMORY, op, "cannot allocate %llu bytes on the GPU (pool holds %llu%s)",
                         (unsigned long long)bytes, (unsigned long long)ctx->stats.allocated_bytes,
                         ctx->memory_limit ? ", memory_limit reached" : "");
    }
    ctx->stats.allocated_bytes += wt_pool_class_size(cls);
    if (ctx->stats.allocated_bytes > ctx->stats.peak_allocated_bytes)
        ctx->stats.peak_allocated_bytes = ctx->stats.allocated_bytes;
    ctx->stats.live_buffers++;
    *out = b;
    return WT_OK;
}

void wt_pool_put(wt_context *ctx, wg_buffer *buf, uint32_t cls) {
    ctx->stats.live_buffers--;
    if (!wt_grow(ctx, (void **)&ctx->retiring, &ctx->retiring_cap, ctx->retiring_count + 1, sizeof(wt_retiring))) {
        release_buffer(ctx, buf, cls);   /* wg defers the real destruction until the GPU is done */
        return;
    }
    ctx->retiring[ctx->retiring_count++] = (wt_retiring){ buf, cls, ctx->submits };
}

void wt_pool_destroy(wt_context *ctx) {
    for (uint32_t i = 0; i < ctx->retiring_count; i++)
        release_buffer(ctx, ctx->retiring[i].buf, ctx->retiring[i].cls);
    ctx->retiring_count = 0;
    wt_free(ctx, ctx->retiring);
    for (uint32_t c = 0; c < WT_POOL_CLASSES; c++) {
        for (uint32_t i = ctx->free_head[c]; i < ctx->free_end[c]; i++)
            release_buffer(ctx, ctx->free_list[c][i], c);
        wt_free(ctx, ctx->free_list[c]);
    }
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
