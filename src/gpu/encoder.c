/* encoder.c - command encoders, compute passes and command buffers.  Commands are recorded
 * straight into a VkCommandBuffer; every object a command uses is retained in the encoder's
 * `used` list (deduplicated by a per-encoder stamp), which the command buffer hands to submit.
 *
 * Hazards: the encoder keeps the buffer ranges read and written since its last barrier.  Before a
 * dispatch, copy, clear or resolve it checks the command's accesses: a read of a written range,
 * or a write of a read or written range, needs a barrier (one global VkMemoryBarrier, which then
 * clears both sets).  Independent dispatches therefore run without barriers between them.
 *
 * Large aligned copies run as a compute kernel on GPUs (vkCmdCopyBuffer is slow on big GPUs; on
 * CPU adapters it is the faster one, and is used there; wg_device_desc.copy_engine forces one);
 * indirect dispatches first run a one-invocation kernel that copies the counts into an internal
 * buffer, zeroing them all if any exceeds the limit, so a bad count is a no-op, never a hang. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu/internal.h"
#include "gpu_copy.spv.h"
#include "gpu_indirect.spv.h"

#define SHADER_COPY_MIN (1ull << 20)

typedef struct access { const wg_buffer *buf; uint64_t start, end; bool write; uint32_t stage; } access;

static bool overlaps(const wg_hazard *h, uint32_t n, const access *a) {
    for (uint32_t i = 0; i < n; i++)
        if (h[i].buf == a->buf && h[i].start < a->end && a->start < h[i].end)
            return true;
    return false;
}

/* A barrier from everything tracked since the last one to `dst` stages (all stages if 0). */
static void hazard_barrier(wg_command_encoder *e, uint32_t dst) {
    uint32_t src = 0;
    for (uint32_t i = 0; i < e->nwrites; i++)
        src |= e->writes[i].stage;
    for (uint32_t i = 0; i < e->nreads; i++)
        src |= e->reads[i].stage;
    if (e->untracked)
        src |= WG_STAGE_COMPUTE;
    if (dst && src)
        wg__barrier_stages(e->o.dev, e->cb, src, dst);
    else
        wg__barrier(e->o.dev, e->cb, false);
    e->o.dev->stats.barriers++;
    e->nreads = e->nwrites = 0;
    e->untracked = false;
}

static void hazards(wg_command_encoder *e, const access *acc, uint32_t n) {
    bool need = e->untracked;
    uint32_t dst = 0;
    for (uint32_t i = 0; i < n; i++) {
        dst |= acc[i].stage;
        need = need || overlaps(e->writes, e->nwrites, &acc[i]) ||
               (acc[i].write && overlaps(e->reads, e->nreads, &acc[i]));
    }
    if (!need && (e->nreads + n > WG_HAZARD_MAX || e->nwrites + n > WG_HAZARD_MAX))
        need = true;
    if (need)
        hazard_barrier(e, dst);
    for (uint32_t i = 0; i < n; i++) {
        wg_hazard h = { acc[i].buf, acc[i].start, acc[i].end, acc[i].stage };
        if (acc[i].write)
            e->writes[e->nwrites++] = h;
        else
            e->reads[e->nreads++] = h;
    }
}

static bool track(wg_command_encoder *e, wg_obj *o) {
    if (o->track_stamp == e->stamp)
        return true;
    if (!wg__grow(&e->o.dev->alloc, (void **)&e->used, &e->capused, e->nused + 1, sizeof *e->used)) {
        wg__err(e->o.dev, WG_ERR_HOST_OOM, "encoder '%s' object list", wg__label(e));
        e->o.invalid = true;
        return false;
    }
    wg__obj_retain(o);
    e->used[e->nused++] = o;
    o->track_stamp = e->stamp;
    return true;
}

wg_command_encoder *wg_device_create_command_encoder(wg_device *dev, const wg_command_encoder_desc *desc) {
    if (!dev)
        return NULL;
    wg_command_encoder *e = wg__obj_new(dev, WG_OBJ_COMMAND_ENCODER, sizeof *e, desc ? desc->label : NULL);
    if (!e)
        return NULL;
    e->stamp = ++dev->encoder_stamp;
    e->pass.enc = e;
    e->used = dev->spare_used;  /* no regrowth from 8 entries per encoder */
    e->capused = dev->spare_cap;
    dev->spare_used = NULL;
    dev->spare_cap = 0;
    if (dev->lost) {
        e->o.invalid = true;
        return e;
    }
    e->cb = wg__cmd_acquire(dev);
    if (!e->cb)
        e->o.invalid = true;
    return e;
}

static void cb_discard(wg_device *dev, VkCommandBuffer cb) {
    if (!cb)
        return;
    dev->vk.vkEndCommandBuffer(cb);
    wg__cmd_recycle(dev, cb);
}

/* Releases the objects of a `used` list and keeps the array as the device's spare if it is the
 * largest seen (else frees it). */
static void used_retire(wg_device *dev, wg_obj **used, size_t n, size_t cap) {
    for (size_t i = 0; i < n; i++)
        wg__obj_release(used[i]);
    if (cap > dev->spare_cap) {
        wg__free(&dev->alloc, dev->spare_used);
        dev->spare_used = used;
        dev->spare_cap = cap;
    } else {
        wg__free(&dev->alloc, used);
    }
}

void wg__command_encoder_free(wg_obj *o) {
    wg_command_encoder *e = (wg_command_encoder *)o;
    cb_discard(o->dev, e->cb);
    used_retire(o->dev, e->used, e->nused, e->capused);
}

void wg__command_buffer_free(wg_obj *o) {
    wg_command_buffer *c = (wg_command_buffer *)o;
    if (c->cb)
        wg__cmd_recycle(o->dev, c->cb);  /* finished, never submitted: executable state */
    used_retire(o->dev, c->used, c->nused, c->capused);
}

/* Common entry check for encoder-level commands. */
static bool enc_ok(wg_command_encoder *e, const char *what) {
    if (!e)
        return false;
    wg_device *dev = e->o.dev;
    if (e->finished) {
        wg__err(dev, WG_ERR_ENCODER_FINISHED, "%s on encoder '%s'", what, wg__label(e));
        return false;
    }
    if (e->pass_open) {
        wg__err(dev, WG_ERR_ENCODER_LOCKED, "%s on encoder '%s'", what, wg__label(e));
        e->o.invalid = true;
        return false;
    }
    return !e->o.invalid && !dev->lost;
}

static void enc_fail(wg_command_encoder *e) {
    e->o.invalid = true;
}

/* ---- copies and clears -------------------------------------------------------------------- */
static void shader_copy(wg_command_encoder *e, wg_buffer *src, uint64_t so, wg_buffer *dst, uint64_t dst_off,
                        uint64_t size) {
    wg_device *dev = e->o.dev;
    wg_internal_pipe *ip = &dev->copy_pipe;
    const uint64_t A = dev->limits.min_storage_buffer_offset_alignment;
    uint64_t maxrange = dev->adapter->limits.max_storage_buffer_binding_size;
    uint64_t chunk_max = ((maxrange > (1ull << 30) ? (1ull << 30) : maxrange) - A) & ~15ull;
    dev->vk.vkCmdBindPipeline(e->cb, VK_PIPELINE_BIND_POINT_COMPUTE, ip->pipe);
    while (size) {
        uint64_t chunk = size < chunk_max ? size : chunk_max;
        uint64_t sb = so - so % A, db = dst_off - dst_off % A;
        VkDescriptorBufferInfo bi[2] = { { src->vk, sb, so - sb + chunk }, { dst->vk, db, dst_off - db + chunk } };
        VkWriteDescriptorSet w[2];
        for (int i = 0; i < 2; i++)
            w[i] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = (uint32_t)i,
                                           .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                           .pBufferInfo = &bi[i] };
        dev->vk.vkCmdPushDescriptorSetKHR(e->cb, VK_PIPELINE_BIND_POINT_COMPUTE, ip->layout, 0, 2, w);
        uint32_t pc[3] = { (uint32_t)((so - sb) / 16), (uint32_t)((dst_off - db) / 16), (uint32_t)(chunk / 16) };
        dev->vk.vkCmdPushConstants(e->cb, ip->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
        uint64_t groups = (chunk / 16 + 255) / 256;
        if (groups > 4096)
            groups = 4096;
        dev->vk.vkCmdDispatch(e->cb, (uint32_t)groups, 1, 1);
        so += chunk;
        dst_off += chunk;
        size -= chunk;
    }
    e->pass.pipeline_dirty = true;
    e->pass.groups_dirty = ~0u;
    dev->stats.shader_copies++;
}

void wg_command_encoder_copy_buffer_to_buffer(wg_command_encoder *e, wg_buffer *src, uint64_t so, wg_buffer *dst,
                                              uint64_t dst_off, uint64_t size) {
    if (!enc_ok(e, "copy_buffer_to_buffer"))
        return;
    wg_device *dev = e->o.dev;
    if (!wg__buffer_usable(dev, src, WG_BUFFER_USAGE_COPY_SRC, "copy source") ||
        !wg__buffer_usable(dev, dst, WG_BUFFER_USAGE_COPY_DST, "copy destination")) {
        enc_fail(e);
        return;
    }
    wg_error_id err = WG_ERR_NONE;
    if (src == dst)
        err = WG_ERR_COPY_SAME_BUFFER;
    else if (so % 4 || dst_off % 4)
        err = WG_ERR_UNALIGNED_OFFSET;
    else if (size % 4)
        err = WG_ERR_UNALIGNED_SIZE;
    else if (so > src->size || size > src->size - so || dst_off > dst->size || size > dst->size - dst_off)
        err = WG_ERR_RANGE_OUT_OF_BOUNDS;
    if (err) {
        wg__err(dev, err, "copy '%s'+%llu -> '%s'+%llu, %llu bytes", wg__label(src), (unsigned long long)so,
                wg__label(dst), (unsigned long long)dst_off, (unsigned long long)size);
        enc_fail(e);
        return;
    }
    if (!track(e, &src->o) || !track(e, &dst->o) || !size)
        return;
    bool shader = size >= SHADER_COPY_MIN && dev->copy_by_shader && !(so % 16) && !(dst_off % 16) && !(size % 16) &&
                  wg__internal_pipe(dev, &dev->copy_pipe, gpu_copy_spv, gpu_copy_spv_words, 2, 12);
    /* the shader binds windows starting at aligned offsets: track those */
    const uint64_t A = shader ? dev->limits.min_storage_buffer_offset_alignment : 1;
    uint32_t st = shader ? WG_STAGE_COMPUTE : WG_STAGE_TRANSFER;
    access acc[2] = { { src, so - so % A, so + size, false, st }, { dst, dst_off - dst_off % A, dst_off + size, true, st } };
    hazards(e, acc, 2);
    if (shader) {
        shader_copy(e, src, so, dst, dst_off, size);
        return;
    }
    VkBufferCopy region = { so, dst_off, size };
    dev->vk.vkCmdCopyBuffer(e->cb, src->vk, dst->vk, 1, &region);
    dev->stats.transfer_copies++;
}

void wg_command_encoder_clear_buffer(wg_command_encoder *e, wg_buffer *b, uint64_t offset, uint64_t size) {
    if (!enc_ok(e, "clear_buffer"))
        return;
    wg_device *dev = e->o.dev;
    if (!wg__buffer_usable(dev, b, WG_BUFFER_USAGE_COPY_DST, "clear_buffer target")) {
        enc_fail(e);
        return;
    }
    if (size == WG_WHOLE_SIZE || size == 0)
        size = offset <= b->size ? b->size - offset : 0;
    wg_error_id err = WG_ERR_NONE;
    if (offset % 4)
        err = WG_ERR_UNALIGNED_OFFSET;
    else if (size % 4)
        err = WG_ERR_UNALIGNED_SIZE;
    else if (offset > b->size || size > b->size - offset)
        err = WG_ERR_RANGE_OUT_OF_BOUNDS;
    if (err) {
        wg__err(dev, err, "clear_buffer '%s' offset %llu size %llu", wg__label(b), (unsigned long long)offset,
                (unsigned long long)size);
        enc_fail(e);
        return;
    }
    if (!track(e, &b->o) || !size)
        return;
    access a = { b, offset, offset + size, true, WG_STAGE_TRANSFER };
    hazards(e, &a, 1);
    dev->vk.vkCmdFillBuffer(e->cb, b->vk, offset, size, 0);
}

/* ---- timestamps --------------------------------------------------------------------------- */
static bool query_ok(wg_device *dev, wg_query_set *qs, uint32_t index, const char *what) {
    if (!(dev->features & WG_FEATURE_BIT(WG_FEATURE_TIMESTAMP_QUERY))) {
        wg__err(dev, WG_ERR_FEATURE_NOT_ENABLED, "%s needs timestamp-query", what);
        return false;
    }
    if (!wg__check_obj(dev, qs, "query set"))
        return false;
    if (qs->destroyed) {
        wg__err(dev, WG_ERR_QUERY_SET_DESTROYED, "%s: query set '%s'", what, wg__label(qs));
        return false;
    }
    if (index >= qs->count) {
        wg__err(dev, WG_ERR_QUERY_INDEX, "%s: index %u, query set '%s' has %u", what, index, wg__label(qs), qs->count);
        return false;
    }
    return true;
}

static void timestamp(wg_command_encoder *e, wg_query_set *qs, uint32_t index) {
    wg_device *dev = e->o.dev;
    dev->vk.vkCmdResetQueryPool(e->cb, qs->pool, index, 1);
    dev->vk.vkCmdWriteTimestamp(e->cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, qs->pool, index);
}

void wg_command_encoder_write_timestamp(wg_command_encoder *e, wg_query_set *qs, uint32_t index) {
    if (!enc_ok(e, "write_timestamp"))
        return;
    if (!query_ok(e->o.dev, qs, index, "write_timestamp")) {
        enc_fail(e);
        return;
    }
    if (track(e, &qs->o))
        timestamp(e, qs, index);
}

void wg_command_encoder_resolve_query_set(wg_command_encoder *e, wg_query_set *qs, uint32_t first, uint32_t count,
                                          wg_buffer *dst, uint64_t off) {
    if (!enc_ok(e, "resolve_query_set"))
        return;
    wg_device *dev = e->o.dev;
    if (!query_ok(dev, qs, first, "resolve_query_set") ||
        !wg__buffer_usable(dev, dst, WG_BUFFER_USAGE_QUERY_RESOLVE, "resolve destination")) {
        enc_fail(e);
        return;
    }
    wg_error_id err = WG_ERR_NONE;
    if (count > qs->count - first)
        err = WG_ERR_QUERY_INDEX;
    else if (off % 256)
        err = WG_ERR_UNALIGNED_OFFSET;
    else if (off > dst->size || 8ull * count > dst->size - off)
        err = WG_ERR_RANGE_OUT_OF_BOUNDS;
    if (err) {
        wg__err(dev, err, "resolve [%u, +%u) of '%s' into '%s'+%llu", first, count, wg__label(qs), wg__label(dst),
                (unsigned long long)off);
        enc_fail(e);
        return;
    }
    if (!track(e, &qs->o) || !track(e, &dst->o) || !count)
        return;
    access a = { dst, off, off + 8ull * count, true, WG_STAGE_TRANSFER };
    hazards(e, &a, 1);
    hazard_barrier(e, 0); /* the timestamps themselves are not tracked: order them before the copy */
    dev->vk.vkCmdCopyQueryPoolResults(e->cb, qs->pool, first, count, dst->vk, off, 8, VK_QUERY_RESULT_64_BIT);
}

/* ---- compute passes ----------------------------------------------------------------------- */
wg_compute_pass *wg_command_encoder_begin_compute_pass(wg_command_encoder *e, const wg_compute_pass_desc *desc) {
    if (!e)
        return NULL;
    wg_device *dev = e->o.dev;
    bool ok = enc_ok(e, "begin_compute_pass");
    wg_compute_pass *p = &e->pass;
    wg__obj_retain(&e->o);  /* the pass handle holds the encoder */
    p->open = true;
    p->pipeline = NULL;
    p->pipeline_dirty = true;
    memset(p->groups, 0, sizeof p->groups);
    memset(p->ndyn, 0, sizeof p->ndyn);
    p->groups_dirty = ~0u;
    p->ts_set = NULL;
    p->ts_write_end = false;
    if (e->finished) {
        p->open = false;
        return p;
    }
    e->pass_open = true;
    if (ok && desc && desc->timestamp_query_set && (desc->write_beginning || desc->write_end)) {
        wg_query_set *qs = desc->timestamp_query_set;
        if ((desc->write_beginning && !query_ok(dev, qs, desc->beginning_index, "pass timestamp")) ||
            (desc->write_end && !query_ok(dev, qs, desc->end_index, "pass timestamp"))) {
            enc_fail(e);
        } else if (desc->write_beginning && desc->write_end && desc->beginning_index == desc->end_index) {
            wg__err(dev, WG_ERR_TIMESTAMP_SAME_INDEX, "pass '%s' index %u", desc->label ? desc->label : "",
                    desc->end_index);
            enc_fail(e);
        } else if (track(e, &qs->o)) {
            if (desc->write_beginning)
                timestamp(e, qs, desc->beginning_index);
            p->ts_set = qs;
            p->ts_end = desc->end_index;
            p->ts_write_end = desc->write_end;
        }
    }
    return p;
}

static bool pass_ok(wg_compute_pass *p, const char *what) {
    if (!p)
        return false;
    wg_command_encoder *e = p->enc;
    if (!p->open) {
        wg__err(e->o.dev, WG_ERR_PASS_ENDED, "%s on a pass of encoder '%s'", what, wg__label(e));
        e->o.invalid = true;
        return false;
    }
    return !e->o.invalid && !e->o.dev->lost;
}

void wg_compute_pass_set_pipeline(wg_compute_pass *p, wg_compute_pipeline *pipe) {
    if (!pass_ok(p, "set_pipeline"))
        return;
    wg_command_encoder *e = p->enc;
    if (!wg__check_obj(e->o.dev, pipe, "compute pipeline") || !track(e, &pipe->o)) {
        enc_fail(e);
        return;
    }
    if (p->pipeline != pipe) {
        p->pipeline = pipe;
        p->pipeline_dirty = true;
        p->groups_dirty = ~0u;
    }
}

void wg_compute_pass_set_bind_group(wg_compute_pass *p, uint32_t index, wg_bind_group *g, size_t ndyn,
                                    const uint32_t *dyn) {
    if (!pass_ok(p, "set_bind_group"))
        return;
    wg_command_encoder *e = p->enc;
    wg_device *dev = e->o.dev;
    if (index >= dev->limits.max_bind_groups) {
        wg__err(dev, WG_ERR_BIND_GROUP_INDEX, "set_bind_group index %u, limit %llu", index,
                (unsigned long long)dev->limits.max_bind_groups);
        enc_fail(e);
        return;
    }
    if (!g) {
        p->groups[index] = NULL;
        return;
    }
    if (!wg__check_obj(dev, g, "bind group")) {
        enc_fail(e);
        return;
    }
    if (ndyn != g->layout->ndynamic || (ndyn && !dyn)) {
        wg__err(dev, WG_ERR_DYNAMIC_OFFSET_COUNT, "bind group '%s': %zu offsets, layout wants %u", wg__label(g), ndyn,
                g->layout->ndynamic);
        enc_fail(e);
        return;
    }
    /* The same group with the same offsets again (a tensor library sets its state per op): it
     * was validated and tracked when set; the bound descriptor set stays, no rebind. */
    if (p->groups[index] == g && p->ndyn[index] == ndyn && (!ndyn || !memcmp(p->dyn[index], dyn, ndyn * sizeof *dyn)))
        return;
    uint32_t k = 0;
    for (size_t i = 0; i < g->n; i++) {
        const struct wg_bg_entry *en = &g->entries[i];
        if (!en->dynamic)
            continue;
        uint64_t align = en->type == WG_BINDING_TYPE_UNIFORM ? dev->limits.min_uniform_buffer_offset_alignment
                                                             : dev->limits.min_storage_buffer_offset_alignment;
        uint64_t off = dyn[k++];
        wg_error_id err = off % align ? WG_ERR_DYNAMIC_OFFSET_ALIGN
                          : en->offset + off + en->size > en->buffer->size ? WG_ERR_DYNAMIC_OFFSET_RANGE : WG_ERR_NONE;
        if (err) {
            wg__err(dev, err, "bind group '%s' binding %u dynamic offset %llu", wg__label(g), en->binding,
                    (unsigned long long)off);
            enc_fail(e);
            return;
        }
    }
    if (!track(e, &g->o))
        return;
    for (size_t i = 0; i < g->n; i++)
        if (!track(e, &g->entries[i].buffer->o))
            return;
    p->groups[index] = g;
    p->ndyn[index] = (uint32_t)ndyn;
    if (ndyn)
        memcpy(p->dyn[index], dyn, ndyn * sizeof *dyn);
    p->groups_dirty |= 1u << index;
}

/* Validates the dispatch state and binds what changed; false if the dispatch must not happen. */
static bool dispatch_state(wg_compute_pass *p, const char *what) {
    wg_command_encoder *e = p->enc;
    wg_device *dev = e->o.dev;
    wg_compute_pipeline *pipe = p->pipeline;
    if (!pipe) {
        wg__err(dev, WG_ERR_NO_PIPELINE, "%s in encoder '%s'", what, wg__label(e));
        enc_fail(e);
        return false;
    }
    const wg_pipeline_layout *pl = pipe->layout;
    for (uint32_t g = 0; g < pl->nsets; g++) {
        if (!p->groups[g]) {
            wg__err(dev, WG_ERR_BIND_GROUP_MISSING, "%s with pipeline '%s': group %u unset", what, wg__label(pipe), g);
            enc_fail(e);
            return false;
        }
        if (p->groups[g]->layout->vk != pl->sets[g]->vk) {
            wg__err(dev, WG_ERR_BIND_GROUP_INCOMPATIBLE, "%s: bind group '%s' at %u vs pipeline '%s'", what,
                    wg__label(p->groups[g]), g, wg__label(pipe));
            enc_fail(e);
            return false;
        }
    }
    return true;
}

static void bind_state(wg_compute_pass *p) {
    wg_command_encoder *e = p->enc;
    wg_device *dev = e->o.dev;
    wg_compute_pipeline *pipe = p->pipeline;
    const wg_pipeline_layout *pl = pipe->layout;
    if (p->pipeline_dirty) {
        dev->vk.vkCmdBindPipeline(e->cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe->vk);
        p->pipeline_dirty = false;
    }
    for (uint32_t g = 0; g < pl->nsets; g++)
        if (p->groups_dirty & (1u << g)) {
            wg_bind_group *bg = p->groups[g];
            dev->vk.vkCmdBindDescriptorSets(e->cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl->vk, g, 1, &bg->set, p->ndyn[g],
                                            p->dyn[g]);
            dev->stats.bind_group_binds++;
        }
    p->groups_dirty = 0;
}

/* Collects the accesses of the bound groups (plus `extra`) and inserts a barrier if needed. */
static void dispatch_hazards(wg_compute_pass *p, const access *extra) {
    access acc[WG_HAZARD_MAX];
    uint32_t n = 0;
    const wg_pipeline_layout *pl = p->pipeline->layout;
    size_t total = extra ? 1 : 0;
    for (uint32_t g = 0; g < pl->nsets; g++)
        total += p->groups[g]->n;
    if (total > WG_HAZARD_MAX) {
        /* Too many bindings to track one by one: a barrier before, and one before the next
         * command (its accesses are unknown to the tracker). */
        hazard_barrier(p->enc, WG_STAGE_COMPUTE | (extra ? extra->stage : 0));
        p->enc->untracked = true;
        return;
    }
    if (extra)
        acc[n++] = *extra;
    for (uint32_t g = 0; g < pl->nsets; g++) {
        const wg_bind_group *bg = p->groups[g];
        uint32_t k = 0;
        for (size_t i = 0; i < bg->n && n < WG_HAZARD_MAX; i++) {
            const struct wg_bg_entry *en = &bg->entries[i];
            uint64_t off = en->offset + (en->dynamic ? p->dyn[g][k++] : 0);
            acc[n++] = (access){ en->buffer, off, off + en->size, en->type == WG_BINDING_TYPE_STORAGE, WG_STAGE_COMPUTE };
        }
    }
    hazards(p->enc, acc, n);
}

void wg_compute_pass_dispatch_workgroups(wg_compute_pass *p, uint32_t x, uint32_t y, uint32_t z) {
    if (!pass_ok(p, "dispatch") || !dispatch_state(p, "dispatch"))
        return;
    wg_command_encoder *e = p->enc;
    wg_device *dev = e->o.dev;
    uint64_t lim = dev->limits.max_compute_workgroups_per_dimension;
    if (x > lim || y > lim || z > lim) {
        wg__err(dev, WG_ERR_DISPATCH_TOO_LARGE, "dispatch %ux%ux%u, limit %llu", x, y, z, (unsigned long long)lim);
        enc_fail(e);
        return;
    }
    if (!x || !y || !z)
        return;
    dispatch_hazards(p, NULL);
    bind_state(p);
    dev->vk.vkCmdDispatch(e->cb, x, y, z);
    dev->stats.dispatches++;
}

static wg_buffer *indirect_buffer(wg_device *dev) {
    if (dev->indirect_obj)
        return dev->indirect_obj;
    wg_buffer *b = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "wg internal indirect",
                                                                   .size = 4096 * 16,
                                                                   .usage = WG_BUFFER_USAGE_STORAGE |
                                                                            WG_BUFFER_USAGE_INDIRECT });
    if (!b)
        return NULL;
    if (b->o.invalid) {
        wg__obj_release(&b->o);
        return NULL;
    }
    b->o.internal = true;  /* no device reference: the device owns it */
    dev->refs--;
    dev->indirect_obj = b;
    return b;
}

void wg_compute_pass_dispatch_workgroups_indirect(wg_compute_pass *p, wg_buffer *buf, uint64_t offset) {
    if (!pass_ok(p, "dispatch_indirect") || !dispatch_state(p, "dispatch_indirect"))
        return;
    wg_command_encoder *e = p->enc;
    wg_device *dev = e->o.dev;
    if (!wg__buffer_usable(dev, buf, WG_BUFFER_USAGE_INDIRECT, "indirect buffer")) {
        enc_fail(e);
        return;
    }
    if (offset % 4 || offset > buf->size || buf->size - offset < 12) {
        wg__err(dev, WG_ERR_INDIRECT_OFFSET, "buffer '%s' offset %llu size %llu", wg__label(buf),
                (unsigned long long)offset, (unsigned long long)buf->size);
        enc_fail(e);
        return;
    }
    if (!track(e, &buf->o))
        return;
    wg_buffer *ib = indirect_buffer(dev);
    if (ib && wg__internal_pipe(dev, &dev->indirect_pipe, gpu_indirect_spv, gpu_indirect_spv_words, 2, 12)) {
        /* Bind exactly the ranges used (synchronization validation checks whole bindings). */
        const uint64_t A = dev->limits.min_storage_buffer_offset_alignment;
        uint64_t stride = A > 16 ? A : 16, nslots = (4096 * 16) / stride;
        uint64_t slot = (e->indirect_slot++ % nslots) * stride;
        uint64_t base = offset - offset % A, range = offset - base + 12;
        access acc[2] = { { buf, base, base + range, false, WG_STAGE_COMPUTE }, { ib, slot, slot + 12, true, WG_STAGE_COMPUTE } };
        hazards(e, acc, 2);
        VkDescriptorBufferInfo bi[2] = { { buf->vk, base, range }, { ib->vk, slot, 12 } };
        VkWriteDescriptorSet w[2];
        for (int i = 0; i < 2; i++)
            w[i] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = (uint32_t)i,
                                           .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                           .pBufferInfo = &bi[i] };
        dev->vk.vkCmdBindPipeline(e->cb, VK_PIPELINE_BIND_POINT_COMPUTE, dev->indirect_pipe.pipe);
        dev->vk.vkCmdPushDescriptorSetKHR(e->cb, VK_PIPELINE_BIND_POINT_COMPUTE, dev->indirect_pipe.layout, 0, 2, w);
        uint32_t pc[3] = { (uint32_t)((offset - base) / 4), 0,
                           (uint32_t)dev->limits.max_compute_workgroups_per_dimension };
        dev->vk.vkCmdPushConstants(e->cb, dev->indirect_pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
        dev->vk.vkCmdDispatch(e->cb, 1, 1, 1);
        p->pipeline_dirty = true;
        p->groups_dirty = ~0u;
        access rd = { ib, slot, slot + 12, false, WG_STAGE_INDIRECT };
        dispatch_hazards(p, &rd);
        bind_state(p);
        dev->vk.vkCmdDispatchIndirect(e->cb, ib->vk, slot);
    } else {
        access rd = { buf, offset, offset + 12, false, WG_STAGE_INDIRECT };
        dispatch_hazards(p, &rd);
        bind_state(p);
        dev->vk.vkCmdDispatchIndirect(e->cb, buf->vk, offset);
    }
    dev->stats.dispatches++;
}

void wg_compute_pass_end(wg_compute_pass *p) {
    if (!p)
        return;
    wg_command_encoder *e = p->enc;
    if (!p->open) {
        wg__err(e->o.dev, WG_ERR_PASS_ENDED, "end on a pass of encoder '%s'", wg__label(e));
        e->o.invalid = true;
        return;
    }
    if (p->ts_write_end && !e->o.invalid && !e->o.dev->lost)
        timestamp(e, p->ts_set, p->ts_end);
    p->open = false;
    e->pass_open = false;
}

wg_command_buffer *wg_command_encoder_finish(wg_command_encoder *e, const wg_command_buffer_desc *desc) {
    if (!e)
        return NULL;
    wg_device *dev = e->o.dev;
    wg_command_buffer *c = wg__obj_new(dev, WG_OBJ_COMMAND_BUFFER, sizeof *c, desc && desc->label ? desc->label
                                                                                                 : e->o.label);
    if (!c)
        return NULL;
    c->o.invalid = true;
    if (e->finished) {
        wg__err(dev, WG_ERR_ENCODER_FINISHED, "finish on encoder '%s'", wg__label(e));
        return c;
    }
    e->finished = true;
    if (e->pass_open) {
        wg__err(dev, WG_ERR_PASS_OPEN_AT_FINISH, "encoder '%s'", wg__label(e));
        e->o.invalid = true;
    }
    if (e->o.invalid || dev->lost || !e->cb)
        return c;
    wg__barrier(dev, e->cb, true);
    VkResult r = dev->vk.vkEndCommandBuffer(e->cb);
    if (r != VK_SUCCESS) {
        wg__check_vk(dev, r, "vkEndCommandBuffer");
        return c;
    }
    c->cb = e->cb;
    e->cb = VK_NULL_HANDLE;
    c->used = e->used;
    c->nused = e->nused;
    c->capused = e->capused;
    e->used = NULL;
    e->nused = e->capused = 0;
    c->o.invalid = false;
    return c;
}
