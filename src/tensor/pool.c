/* pool.c - the GPU buffer pool.  Requests round up to a size class (eight per power of two from
 * 256 bytes, so at most 12.5% waste); each class keeps a FIFO of free wg buffers, so a workload
 * that repeats (a training step, a benchmark loop) gets the same buffers in the same order and
 * hits the bind group cache every time.  A buffer given back goes to the retiring list tagged
 * with the context's submit count: it may still be read or written by submitted work, so it
 * becomes free only once the GPU has finished that submit (ctx->completed, advanced by full waits
 * and by a non-blocking wg_queue_wait(q, 0)).  Buffers of a batch's temporaries come back only
 * after that batch ran (the pending dispatches hold their storages), so a long batch of big ops
 * would only ever take buffers: batch.c flushes once the pool handed out the policy's batch_bytes
 * (or a quarter of memory_limit) for the pending batch, and later batches reuse what finished.
 *
 * The bound.  A miss may grow the pool only while the pool stays within POOL_SLACK (11/10) of the
 * live bytes (the most found live at a reclaim, its request included), or POOL_SLACK_MIN above
 * them for small pools.  Past that a free buffer up to POOL_FIT classes larger serves (at most
 * 1.6x; the storage keeps the buffer's own class, so it goes back where it came from), else the
 * miss reclaims, the way PyTorch's caching allocator frees cached blocks before it grows: it
 * submits the pending batch, waits for the GPU and collects, so the batch's temporaries and every
 * retiring buffer are free; measures the live bytes (now exact: nothing is pending or in flight);
 * takes a free buffer of its class or up to POOL_FIT classes larger; and failing that releases
 * free buffers, largest classes first, until the pool with the new buffer fits the bound again
 * (the cached bind groups go with them: they hold buffers).  Without the bound a GPT-2-small step
 * (H200, batch_bytes 8.8 GB) pooled 38 GB for 6.9 GB live: every batch's temporaries, never
 * reused within their batch, plus those of the batch still running.  A repeating workload
 * reclaims at the same points every step; its peak stops growing after the first steps
 * (tests/tensor/test_pool.c: 1.215x the bytes asked for, class rounding included, where the
 * unbounded pool took 5.4x; the measurements in doc/tensor.md).
 *
 * A miss creates a buffer inside an out-of-memory error scope; on failure (or past memory_limit)
 * the pool releases its free buffers, waits for the GPU, collects the retiring ones and tries
 * once more before reporting WT_STATUS_OUT_OF_MEMORY, which leaves every existing tensor intact. */
#include <stdio.h>
#include <string.h>

#include "tensor/internal.h"

#define POOL_SLACK_NUM 11         /* the pool grows up to 11/10 of the live bytes ... */
#define POOL_SLACK_DEN 10
#define POOL_SLACK_MIN (4ull << 20)   /* ... or 4 MiB above them, whichever is more */
#define POOL_FIT 4                /* past the bound, a free buffer up to 4 classes up serves */

uint32_t wt_pool_class(uint64_t bytes) {
    if (bytes <= 256)
        return 0;
    uint32_t e = 63u - (uint32_t)__builtin_clzll(bytes - 1);   /* 2^e < bytes <= 2^(e+1) */
    uint64_t base = 1ull << e, q = base / 8;
    uint64_t m = (bytes - base + q - 1) / q;                  /* 1..8 */
    return (e - 8) * 8 + (uint32_t)m;
}

uint64_t wt_pool_class_size(uint32_t cls) {
    return cls ? (32ull << ((cls - 1) / 8)) * (9 + (cls - 1) % 8) : 256;
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

static uint64_t free_bytes(const wt_context *ctx) {
    uint64_t n = 0;
    for (uint32_t c = 0; c < WT_POOL_CLASSES; c++)
        n += (uint64_t)free_count(ctx, c) * wt_pool_class_size(c);
    return n;
}

static uint64_t retiring_bytes(const wt_context *ctx) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < ctx->retiring_count; i++)
        n += wt_pool_class_size(ctx->retiring[i].cls);
    return n;
}

static uint64_t bound(uint64_t live) {
    uint64_t b = live / POOL_SLACK_DEN * POOL_SLACK_NUM;
    return b > live + POOL_SLACK_MIN ? b : live + POOL_SLACK_MIN;
}

static wg_buffer *hit(wt_context *ctx, uint32_t cls) {
    ctx->stats.pool_hits++;
    ctx->stats.live_buffers++;
    return pop_free(ctx, cls);
}

/* The miss of a class past the bound (see the top): run and finish everything, measure the live
 * bytes, serve from a class up to POOL_FIT larger, else release free buffers down to the bound.
 * Returns the buffer (its class in *cls) or NULL: create one. */
static wg_buffer *reclaim(wt_context *ctx, const char *op, uint64_t size, uint32_t *cls) {
    if (ctx->batch_count)
        wt_batch_flush(ctx, op);
    if (ctx->completed < ctx->submits && wg_queue_wait(ctx->q, UINT64_MAX) == WG_STATUS_OK) {
        ctx->completed = ctx->submits;
        ctx->ramp = 0;               /* the GPU is idle: batch.c starts it early again */
    }
    wt_pool_collect(ctx);
    uint64_t live = ctx->stats.allocated_bytes - free_bytes(ctx) - retiring_bytes(ctx) + size;
    if (live > ctx->pool_live_peak)
        ctx->pool_live_peak = live;
    for (uint32_t c = *cls; c < WT_POOL_CLASSES && c <= *cls + POOL_FIT; c++)
        if (free_count(ctx, c)) {
            *cls = c;
            return hit(ctx, c);
        }
    uint64_t lim = bound(ctx->pool_live_peak);
    bool released = false;
    for (uint32_t c = WT_POOL_CLASSES; c-- > 0 && ctx->stats.allocated_bytes + size > lim;)
        while (free_count(ctx, c) && ctx->stats.allocated_bytes + size > lim) {
            release_buffer(ctx, pop_free(ctx, c), c);
            released = true;
        }
    if (released)
        wt_bind_groups_clear(ctx);   /* cached bind groups hold buffers */
    return NULL;
}

wt_status wt_pool_get(wt_context *ctx, const char *op, uint64_t bytes, wg_buffer **out, uint32_t *clsp) {
    *out = NULL;
    uint32_t cls = wt_pool_class(bytes);
    if (cls >= WT_POOL_CLASSES)
        return wt_failst(ctx, WT_STATUS_OUT_OF_MEMORY, op, "%llu bytes is too large", (unsigned long long)bytes);
    if (wt_pool_class_size(cls) > ctx->max_binding)
        return wt_failst(ctx, WT_STATUS_OUT_OF_MEMORY, op,
                         "%llu bytes exceeds what one buffer binding may hold on this device (%llu)",
                         (unsigned long long)bytes, (unsigned long long)(ctx->max_binding / 9 * 8));
    uint64_t size = wt_pool_class_size(cls);
    *clsp = cls;
    if (!free_count(ctx, cls))
        wt_pool_collect(ctx);
    if (free_count(ctx, cls)) {
        ctx->batch_bytes += size;
        *out = hit(ctx, cls);
        return WT_OK;
    }
    /* a miss: grow within the bound, else reclaim first */
    bool over = ctx->stats.allocated_bytes + size > bound(ctx->pool_live_peak);
    for (uint32_t c = cls + 1; over && c < WT_POOL_CLASSES && c <= cls + POOL_FIT; c++)
        if (free_count(ctx, c)) {   /* a free buffer a little larger: no wait */
            *clsp = c;
            ctx->batch_bytes += wt_pool_class_size(c);
            *out = hit(ctx, c);
            return WT_OK;
        }
    if (over && (ctx->batch_bytes || ctx->retiring_count || free_bytes(ctx))) {
        wg_buffer *b = reclaim(ctx, op, size, clsp);
        if (b) {
            ctx->batch_bytes += wt_pool_class_size(*clsp);
            *out = b;
            return WT_OK;
        }
    }
    ctx->batch_bytes += size;
    ctx->stats.pool_misses++;
    bool oom;
    wg_buffer *b = create(ctx, size, &oom);
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
        b = create(ctx, size, &oom);
    }
    if (!b) {
        if (wg_device_is_lost(ctx->dev))
            return wt_failst(ctx, WT_STATUS_DEVICE_LOST, op, "device lost while allocating %llu bytes",
                             (unsigned long long)bytes);
        return wt_failst(ctx, WT_STATUS_OUT_OF_MEMORY, op, "cannot allocate %llu bytes on the GPU (pool holds %llu%s)",
                         (unsigned long long)bytes, (unsigned long long)ctx->stats.allocated_bytes,
                         ctx->memory_limit ? ", memory_limit reached" : "");
    }
    ctx->stats.allocated_bytes += size;
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
