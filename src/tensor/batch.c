/* batch.c - lazy execution.  wt_record appends one dispatch (kernel, the buffers of its bindings,
 * workgroup counts, a 192-byte Params block, references to its write set and read set) to the
 * pending batch; nothing touches the GPU.  wt_batch_flush fuses chains (below), copies all Params
 * blocks into one uniform buffer (each dispatch reads its own through a dynamic offset), encodes
 * the whole batch into one compute pass of one command buffer (wg inserts a barrier only where a
 * dispatch reads or overwrites what an earlier one wrote), taking each remaining dispatch's bind
 * group from the cache as it goes (so a fused-away dispatch never makes one; the pass holds a
 * reference to every group set on it, so the cache may clear meanwhile), submits once and drops
 * the batch's references, so temporaries go back to the pool, to be reused once that submit has
 * finished.  The batch flushes itself at max_batch_ops dispatches (with the default, already at
 * 16 when the GPU is idle as far as we know, so a long stream of ops starts running at once, then
 * at 32, 64, ... up to max_batch_ops, each chunk recorded while the GPU runs the one before), once
 * the pool handed out policy.batch_bytes for it (default max(1 GiB, device heap / 16); a quarter
 * of memory_limit when that is set: temporaries are reusable only after their batch ran), and
 * after every op in eager mode (with a wait).
 *
 * Fusion (fuse_chains, at flush): a unary float dispatch (not clamp) or a binary float dispatch
 * with a scalar right operand, whose tensor input is the f32 output of the unary or binary float
 * dispatch just before it, when only those two dispatches hold that storage (its tensor was
 * released), becomes one dispatch: the first one's addressing, inputs and Params, the second
 * one's output, the second op appended to the kernel key's chain (chain.wgsl; a scalar operand
 * goes into the first one's Params, P.st[4..5]).  The intermediate storage goes back to the pool
 * unwritten, with the batch and in op order (wt_dispatch.mid): so a repeated workload gets the
 * same buffers in the same order, hence the same bind groups (a fused dispatch's input and output
 * would otherwise change at every repetition: every bind group a cache miss).  Only adjacent
 * dispatches merge, so no write between them can change what the fused one reads.
 *
 * Timing (ctx->timing): the batch's compute pass writes a pair of timestamps (pair tq_used of
 * the context's query set); wt_batch_wait reads the finished pairs into stats.gpu_ns.  When the
 * WT_TIMING_PAIRS pairs cannot take the batch's, the flush reads them first (a wait).  Profiling
 * (ctx->profiling) gives every dispatch a pass and a pair of its own and remembers its kernel
 * (tq_kernel), so the harvest adds each pair to its kernel's calls and gpu_ns too; a profiled
 * batch is at most WT_TIMING_PAIRS dispatches (wt_record flushes there). */
#include <stddef.h>
#include <string.h>

#include "tensor/internal.h"

static wt_paramsbuf *params_buffer(wt_context *ctx, const char *op, uint64_t bytes) {
    if (ctx->completed < ctx->submits && wg_queue_wait(ctx->q, 0) == WG_STATUS_OK)
        ctx->completed = ctx->submits;
    for (uint32_t i = 0; i < ctx->pbuf_count; i++) {
        wt_paramsbuf *pb = &ctx->pbufs[i];
        if (pb->tag <= ctx->completed && pb->size >= bytes)
            return pb;
    }
    if (!wt_grow(ctx, (void **)&ctx->pbufs, &ctx->pbuf_cap, ctx->pbuf_count + 1, sizeof *ctx->pbufs))
        return wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    uint64_t size = 65536;
    while (size < bytes)
        size *= 2;
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_VALIDATION);
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    wg_buffer *buf = wg_device_create_buffer(ctx->dev, &(wg_buffer_desc){
        .label = "wt params", .size = size, .usage = WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_COPY_DST });
    wg_bind_group *bg = buf ? wg_device_create_bind_group(ctx->dev, &(wg_bind_group_desc){
        .label = "wt params", .layout = ctx->params_bgl, .entry_count = 1,
        .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = buf, .offset = 0, .size = WT_PARAMS_SIZE } })
                          : NULL;
    wg_error e1, e2;
    wg_error_id o = wg_device_pop_error_scope(ctx->dev, &e1);
    wg_error_id v = wg_device_pop_error_scope(ctx->dev, &e2);
    if (!buf || !bg || o != WG_ERR_NONE || v != WG_ERR_NONE) {
        if (bg)
            wg_bind_group_release(bg);
        if (buf)
            wg_buffer_release(buf);
        return wt_fail(ctx, o != WG_ERR_NONE ? WT_STATUS_OUT_OF_MEMORY : WT_STATUS_GPU, op, "parameter buffer: %s",
                       o != WG_ERR_NONE ? e1.message : v != WG_ERR_NONE ? e2.message : "out of host memory");
    }
    wt_paramsbuf *pb = &ctx->pbufs[ctx->pbuf_count++];
    *pb = (wt_paramsbuf){ buf, bg, size, 0 };
    return pb;
}

/* Adds the timestamp pairs [0, tq_used) to stats.gpu_ns (waits for their batches). */
static wt_status harvest_times(wt_context *ctx, const char *op) {
    for (uint32_t first = 0; first < ctx->tq_used; first += 64) {
        uint32_t n = ctx->tq_used - first < 64 ? ctx->tq_used - first : 64;
        uint64_t ns[128];
        wg_status st = wg_query_set_read_ns(ctx->tq, 2 * first, 2 * n, ns);
        if (st != WG_STATUS_OK) {
            ctx->tq_used = 0;
            return wt_failst(ctx, st == WG_STATUS_DEVICE_LOST ? WT_STATUS_DEVICE_LOST : WT_STATUS_GPU, op,
                             "reading batch timestamps failed");
        }
        for (uint32_t i = 0; i < n; i++)
            if (ns[2 * i + 1] > ns[2 * i]) {
                uint64_t dt = ns[2 * i + 1] - ns[2 * i];
                ctx->stats.gpu_ns += dt;
                ctx->stats.timed_batches++;
                wt_kernel *k = ctx->tq_kernel ? ctx->tq_kernel[first + i] : NULL;
                if (k) {
                    k->calls++;
                    k->gpu_ns += dt;
                }
            }
    }
    ctx->tq_used = 0;
    return WT_OK;
}

/* The chain code of dispatch b as a link after another op (chain.wgsl), or -1 when b cannot be
 * one: a unary float op other than clamp, or a binary float op with a scalar right operand, whose
 * left operand is the contiguous f32 output of the dispatch before it. */
static int link_code(const wt_context *ctx, const wt_dispatch *b) {
    const wt_kkey *kb = &b->k->key;
    if (b->nres != 2 || kb->nchain || kb->in[0] != WT_F32 || kb->mode[0] != WT_MODE_CONTIG)
        return -1;
    uint32_t boff;
    memcpy(&boff, ctx->params + b->param_off + offsetof(wt_params, off), sizeof boff);
    if (boff)
        return -1;
    if (kb->file == WT_K_unary_f && kb->op != WT_UNARY_F_CLAMP)   /* clamp's bounds are in its Params */
        return kb->op;
    if (kb->file == WT_K_binary_f && kb->mode[1] == WT_MODE_PARAM)
        return 64 + kb->op;
    return -1;
}

/* Can dispatch b (right after a) join a's chain?  See the opening comment. */
static int fusable(const wt_context *ctx, const wt_dispatch *a, const wt_dispatch *b) {
    const wt_kkey *ka = &a->k->key;
    if ((ka->file != WT_K_unary_f && ka->file != WT_K_binary_f) || ka->out != WT_F32 || ka->nchain >= WT_CHAIN)
        return -1;
    wt_storage *mid = a->res[0];
    if (b->nres < 2 || b->res[1] != mid || mid->refs != 2)
        return -1;
    for (uint32_t i = 1; i < a->nres; i++)
        if (a->res[i] == mid)
            return -1;
    /* b covers all of a's output (not a prefix: a narrowed view of a released tensor) */
    uint32_t na, nb;
    memcpy(&na, ctx->params + a->param_off, sizeof na);
    memcpy(&nb, ctx->params + b->param_off, sizeof nb);
    if ((uint64_t)na * (ka->v4 ? 4u : 1u) != (uint64_t)nb * (b->k->key.v4 ? 4u : 1u))
        return -1;
    return link_code(ctx, b);
}

/* Merges fusable neighbours of the pending batch in place (see the opening comment). */
static void fuse_chains(wt_context *ctx, const char *op) {
    uint32_t w = 0;
    for (uint32_t i = 0; i < ctx->batch_count; i++) {
        wt_dispatch *d = &ctx->batch[i];
        int code = w ? fusable(ctx, &ctx->batch[w - 1], d) : -1;
        if (code >= 0) {
            wt_dispatch *a = &ctx->batch[w - 1];
            wt_kkey key = a->k->key;
            key.out = d->k->key.out;
            uint8_t link = key.nchain;
            key.chain[key.nchain++] = (uint8_t)code;
            wt_status saved = ctx->status;   /* a failure below must not replace an earlier error */
            char msg[sizeof ctx->message];
            if (saved != WT_OK)
                memcpy(msg, ctx->message, sizeof msg);
            wt_kernel *k = wt_kernel_get(ctx, op, &key);
            if (k) {
                a->k = k;
                a->buf[0] = d->buf[0];         /* a's inputs (and dummy bindings), d's output */
                if (code >= 64) {              /* the link's scalar: word `link` of a's P.st[4..5] */
                    uint32_t sv;
                    memcpy(&sv, ctx->params + d->param_off + offsetof(wt_params, sv) + 4, 4);
                    memcpy(ctx->params + a->param_off + offsetof(wt_params, st) + (16u + link) * 4u, &sv, 4);
                }
                a->mid[a->nmid++] = a->res[0]; /* the intermediate: a's write reference stays */
                wt_storage_unref(d->res[1]);   /* d's read */
                a->res[0] = d->res[0];         /* d's reference moves to a */
                ctx->stats.fused++;
                continue;
            }
            if (saved != WT_OK) {               /* no kernel: run the two unfused */
                ctx->status = saved;
                memcpy(ctx->message, msg, sizeof msg);
            } else {
                wt_clear_error(ctx);
            }
        }
        if (w != i)
            ctx->batch[w] = *d;
        w++;
    }
    ctx->batch_count = w;
}

static void drop_batch(wt_context *ctx) {
    for (uint32_t i = 0; i < ctx->batch_count; i++) {
        wt_dispatch *d = &ctx->batch[i];
        for (uint32_t j = 0; j < d->nres; j++)
            wt_storage_unref(d->res[j]);
        for (uint32_t j = 0; j < d->nmid; j++)   /* after the input that came before them */
            wt_storage_unref(d->mid[j]);
    }
    ctx->batch_count = 0;
}

wt_status wt_batch_flush(wt_context *ctx, const char *op) {
    if (!ctx->batch_count)
        return WT_OK;
    uint64_t bytes = (uint64_t)ctx->batch_count * ctx->params_stride;   /* fusion keeps the blocks where they are */
    if (!ctx->no_fusion && ctx->batch_count > 1)
        fuse_chains(ctx, op);
    uint32_t count = ctx->batch_count;
    bool timed = ctx->timing && ctx->tq;
    bool prof = timed && ctx->profiling && ctx->tq_kernel && count <= WT_TIMING_PAIRS;
    uint32_t pairs = prof ? count : 1;
    if (timed && ctx->tq_used + pairs > WT_TIMING_PAIRS && harvest_times(ctx, op) != WT_OK) {
        drop_batch(ctx);
        return ctx->status;
    }
    ctx->batch_bytes = 0;
    wt_paramsbuf *pb = params_buffer(ctx, op, bytes);
    if (!pb) {
        drop_batch(ctx);
        return ctx->status;
    }
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_VALIDATION);
    wg_device_push_error_scope(ctx->dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    wg_queue_write_buffer(ctx->q, pb->buf, 0, ctx->params, bytes);
    wg_command_encoder *enc = wg_device_create_command_encoder(ctx->dev, &(wg_command_encoder_desc){ .label = "wt batch" });
    uint64_t serial = 0;
    wt_status bgst = WT_OK;                   /* a bind group failed: nothing is submitted */
    wg_compute_pass *pass = NULL;
    bool encoded = enc != NULL;
    wg_compute_pipeline *cur = NULL;
    for (uint32_t i = 0; encoded && i < count; i++) {
        wt_dispatch *d = &ctx->batch[i];
        if (!pass) {                          /* once per batch; per dispatch when profiling */
            uint32_t pair = ctx->tq_used + (prof ? i : 0);
            pass = wg_command_encoder_begin_compute_pass(enc, timed ? &(wg_compute_pass_desc){
                .label = "wt batch", .timestamp_query_set = ctx->tq, .beginning_index = 2 * pair,
                .end_index = 2 * pair + 1, .write_beginning = true, .write_end = true } : NULL);
            if (!(encoded = pass != NULL))
                break;
            cur = NULL;
            if (timed && ctx->tq_kernel)
                ctx->tq_kernel[pair] = prof ? d->k : NULL;
        }
        wg_bind_group *bg = wt_bind_group_get(ctx, op, d->k, d->nbuf, d->buf);
        if (!bg) {
            bgst = ctx->status;
            break;
        }
        if (d->k->pipe != cur) {
            cur = d->k->pipe;
            wg_compute_pass_set_pipeline(pass, cur);
        }
        wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
        wg_compute_pass_set_bind_group(pass, 1, pb->bg, 1, &d->param_off);
        wg_compute_pass_dispatch_workgroups(pass, d->gx, d->gy, 1);
        if (prof) {
            wg_compute_pass_end(pass);
            wg_compute_pass_release(pass);
            pass = NULL;
        }
    }
    if (pass) {
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
    }
    if (encoded && bgst == WT_OK) {
        wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
        if (cb)
            serial = wg_queue_submit(ctx->q, 1, &cb);
        if (serial && timed)
            ctx->tq_used += pairs;
    }
    if (enc)
        wg_command_encoder_release(enc);
    wg_error e1, e2;
    wg_error_id o = wg_device_pop_error_scope(ctx->dev, &e1);
    wg_error_id v = wg_device_pop_error_scope(ctx->dev, &e2);
    ctx->submits++;
    pb->tag = ctx->submits;
    ctx->stats.flushes++;
    ctx->stats.dispatches += count;
    drop_batch(ctx);
    if (wg_device_is_lost(ctx->dev))
        return wt_failst(ctx, WT_STATUS_DEVICE_LOST, op, "device lost; %u dispatches not run", count);
    if (bgst != WT_OK)                        /* its message, set by wt_bind_group_get */
        return bgst;
    if (o != WG_ERR_NONE)
        return wt_failst(ctx, WT_STATUS_OUT_OF_MEMORY, op, "submit: %s", e1.message);
    if (v != WG_ERR_NONE)
        return wt_failst(ctx, WT_STATUS_GPU, op, "submit: %s", e2.message);
    if (!serial)
        return wt_failst(ctx, WT_STATUS_GPU, op, "submit of %u dispatches failed", count);
    return WT_OK;
}

wt_status wt_batch_wait(wt_context *ctx, const char *op) {
    wg_status s = wg_queue_wait(ctx->q, UINT64_MAX);
    if (s != WG_STATUS_OK)
        return wt_failst(ctx, WT_STATUS_DEVICE_LOST, op, "waiting for the GPU failed (device lost)");
    ctx->completed = ctx->submits;
    ctx->ramp = 0;                            /* the GPU is idle: the next stream starts early again */
    wt_pool_collect(ctx);
    return ctx->tq_used ? harvest_times(ctx, op) : WT_OK;
}

wt_status wt_record_key(wt_context *ctx, const char *op, const wt_kkey *key, wt_params *p, wt_storage *out,
                        uint32_t nin, wt_storage *const *in) {
    wt_kernel *k = wt_kernel_get(ctx, op, key);
    return k ? wt_record(ctx, op, k, p, out, nin, in) : ctx->status;
}

wt_status wt_record(wt_context *ctx, const char *op, wt_kernel *k, wt_params *p, wt_storage *out, uint32_t nin,
                    wt_storage *const *in) {
    ctx->stats.ops++;
    if (!p->n)
        return WT_OK;
    /* a 2-D grid past 65535 workgroups, as square as needed: gx * gy - groups < gy, so no
     * second row of idle workgroups (65536 groups as 65535 x 2 would launch 131070) */
    uint32_t per_group = WT_WG_SIZE * (k->per ? k->per : 1u);
    uint32_t groups = (uint32_t)(((uint64_t)p->n + per_group - 1) / per_group);
    uint32_t gy = (groups + 65534) / 65535;
    uint32_t gx = (groups + gy - 1) / gy;
    p->gx = gx;
    if (!wt_grow(ctx, (void **)&ctx->batch, &ctx->batch_cap, ctx->batch_count + 1, sizeof *ctx->batch) ||
        ((uint64_t)(ctx->batch_count + 1) * ctx->params_stride > ctx->params_cap &&
         !wt_grow(ctx, (void **)&ctx->params, &ctx->params_cap, (ctx->batch_count + 1) * ctx->params_stride, 1)))
        return wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory recording a dispatch");
    uint32_t off = ctx->batch_count * ctx->params_stride;
    memcpy(ctx->params + off, p, sizeof *p);
    wt_dispatch *d = &ctx->batch[ctx->batch_count++];
    d->k = k;
    d->nbuf = (uint8_t)(nin + 1);
    d->nmid = 0;
    d->buf[0] = out->buf;
    for (uint32_t i = 0; i < nin; i++)
        d->buf[i + 1] = in[i] ? in[i]->buf : ctx->dummy;
    d->param_off = off;
    d->gx = gx;
    d->gy = gy;
    d->nres = 1;
    d->res[0] = out;
    wt_storage_ref(out);
    for (uint32_t i = 0; i < nin; i++)
        if (in[i]) {
            d->res[d->nres++] = in[i];
            wt_storage_ref(in[i]);
        }
    if (ctx->eager) {
        wt_status s = wt_batch_flush(ctx, op);
        return s != WT_OK ? s : wt_batch_wait(ctx, op);
    }
    uint64_t cap = ctx->memory_limit ? ctx->memory_limit / 4 : ctx->batch_flush_bytes;
    bool idle = ctx->early && ctx->completed >= ctx->submits;   /* nothing in flight that we know of */
    uint32_t limit = ctx->ramp && ctx->ramp < ctx->max_batch ? ctx->ramp : ctx->max_batch;
    if (ctx->profiling && limit > WT_TIMING_PAIRS)
        limit = WT_TIMING_PAIRS;
    if (ctx->batch_count >= limit || ctx->batch_bytes > cap || (idle && ctx->batch_count >= ctx->early_ops)) {
        /* after an early start the chunks double (16, 32, 64, ...) up to max_batch: each is
         * recorded while the GPU runs the one before, which keeps it busy from the start */
        if (ctx->early && ctx->ramp_on)
            ctx->ramp = 2 * ctx->batch_count < ctx->max_batch ? 2 * ctx->batch_count : ctx->max_batch;
        return wt_batch_flush(ctx, op);
    }
    return WT_OK;
}

void wt_batch_destroy(wt_context *ctx) {
    drop_batch(ctx);
    if (ctx->tq)
        wg_query_set_release(ctx->tq);
    wt_free(ctx, ctx->tq_kernel);
    wt_free(ctx, ctx->batch);
    wt_free(ctx, ctx->params);
    for (uint32_t i = 0; i < ctx->pbuf_count; i++) {
        wg_bind_group_release(ctx->pbufs[i].bg);
        wg_buffer_release(ctx->pbufs[i].buf);
    }
    wt_free(ctx, ctx->pbufs);
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
    if (!on)
        ctx->profiling = false;
    return WT_OK;
}

wt_status wt_context_set_profiling(wt_context *ctx, bool on) {
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!on) {
        ctx->profiling = false;
        return WT_OK;
    }
    wt_status s = wt_context_set_timing(ctx, true);
    if (s != WT_OK)
        return s;
    if (!ctx->tq_kernel) {
        if (ctx->tq_used && harvest_times(ctx, "wt_context_set_profiling") != WT_OK)   /* pairs written before */
            return ctx->status;
        ctx->tq_kernel = wt_alloc(ctx, WT_TIMING_PAIRS * sizeof *ctx->tq_kernel);
        if (!ctx->tq_kernel)
            return wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, "wt_context_set_profiling", "out of host memory");
        memset(ctx->tq_kernel, 0, WT_TIMING_PAIRS * sizeof *ctx->tq_kernel);
    }
    for (uint32_t i = 0; ctx->kernels && i < WT_KERNEL_CACHE; i++)
        ctx->kernels[i].calls = ctx->kernels[i].gpu_ns = 0;
    ctx->profiling = true;
    return WT_OK;
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
