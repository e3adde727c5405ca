/* sync.c - submission and completion: one timeline semaphore per device counts submissions
 * (serials); command buffers are recycled once their serial has passed; Vulkan objects the GPU
 * may still use wait in the garbage list for their serial; a wait in which no submission finishes
 * for the lost timeout loses the device (with a reason; wait_progress), as does any
 * VK_ERROR_DEVICE_LOST.
 *
 * Every command buffer starts with one global memory barrier (earlier submissions, and the
 * write_buffer copies recorded in the pending command buffer, are visible to it) and ends with a
 * barrier to the host, so map and readback see finished writes.  Inside a command buffer the
 * encoder adds barriers only where tracked hazards need them (encoder.c). */
#include <stdio.h>
#include <time.h>

#include "gpu/internal.h"

void wg__barrier(wg_device *dev, VkCommandBuffer cb, bool to_host) {
    VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                           .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                           .dstAccessMask = to_host ? VK_ACCESS_HOST_READ_BIT
                                                    : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                                                          VK_ACCESS_INDIRECT_COMMAND_READ_BIT |
                                                          VK_ACCESS_UNIFORM_READ_BIT };
    VkPipelineStageFlags src = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkPipelineStageFlags dst = to_host ? VK_PIPELINE_STAGE_HOST_BIT
                                       : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                                             VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT;
    dev->vk.vkCmdPipelineBarrier(cb, src, dst, 0, 1, &mb, 0, NULL, 0, NULL);
}

void wg__barrier_stages(wg_device *dev, VkCommandBuffer cb, uint32_t src, uint32_t dst) {
    VkPipelineStageFlags ss = 0, ds = 0;
    VkAccessFlags sa = 0, da = 0;
    if (src & WG_STAGE_COMPUTE)
        ss |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, sa |= VK_ACCESS_SHADER_WRITE_BIT;
    if (src & WG_STAGE_TRANSFER)
        ss |= VK_PIPELINE_STAGE_TRANSFER_BIT, sa |= VK_ACCESS_TRANSFER_WRITE_BIT;
    if (src & WG_STAGE_INDIRECT)
        ss |= VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT;
    if (dst & WG_STAGE_COMPUTE)
        ds |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        da |= VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_UNIFORM_READ_BIT;
    if (dst & WG_STAGE_TRANSFER)
        ds |= VK_PIPELINE_STAGE_TRANSFER_BIT, da |= VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    if (dst & WG_STAGE_INDIRECT)
        ds |= VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, da |= VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
    if (!ss || !ds) {
        wg__barrier(dev, cb, false);
        return;
    }
    VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = sa, .dstAccessMask = da };
    dev->vk.vkCmdPipelineBarrier(cb, ss, ds, 0, 1, &mb, 0, NULL, 0, NULL);
}

void wg__check_vk(wg_device *dev, VkResult r, const char *what) {
    if (r == VK_SUCCESS)
        return;
    if (r == VK_ERROR_DEVICE_LOST)
        wg__lose(dev, WG_DEVICE_LOST_DRIVER, "%s returned VK_ERROR_DEVICE_LOST", what);
    else if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        wg__err(dev, WG_ERR_DEVICE_OOM, "%s", what);
    else if (r == VK_ERROR_OUT_OF_HOST_MEMORY)
        wg__err(dev, WG_ERR_HOST_OOM, "%s (driver)", what);
    else
        wg__err(dev, WG_ERR_VK_CALL, "%s returned VkResult %d", what, (int)r);
}

void wg__lose(wg_device *dev, wg_device_lost_reason reason, const char *fmt, ...) {
    if (dev->lost)
        return;
    dev->lost = reason;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dev->lost_message, sizeof dev->lost_message, fmt, ap);
    va_end(ap);
    wg__buffer_reject_maps(dev, WG_MAP_STATUS_DEVICE_LOST);
    if (dev->lost_cb)
        dev->lost_cb(dev->lost_user, reason, dev->lost_message);
}

VkCommandBuffer wg__cmd_acquire(wg_device *dev) {
    if (!dev->nfree_cbs)
        wg__retire(dev);
    VkCommandBuffer cb = VK_NULL_HANDLE;
    if (dev->nfree_cbs) {
        cb = dev->free_cbs[--dev->nfree_cbs];
    } else {
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = dev->cmd_pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = 1 };
        VkResult r = dev->vk.vkAllocateCommandBuffers(dev->device, &ai, &cb);
        if (r != VK_SUCCESS) {
            wg__check_vk(dev, r, "vkAllocateCommandBuffers");
            return VK_NULL_HANDLE;
        }
    }
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    VkResult r = dev->vk.vkBeginCommandBuffer(cb, &bi);
    if (r != VK_SUCCESS) {
        wg__check_vk(dev, r, "vkBeginCommandBuffer");
        dev->vk.vkFreeCommandBuffers(dev->device, dev->cmd_pool, 1, &cb);
        return VK_NULL_HANDLE;
    }
    wg__barrier(dev, cb, false);
    return cb;
}

void wg__cmd_recycle(wg_device *dev, VkCommandBuffer cb) {
    if (!cb || dev->abandoned)
        return;
    if (wg__grow(&dev->alloc, (void **)&dev->free_cbs, &dev->capfree_cbs, dev->nfree_cbs + 1, sizeof *dev->free_cbs))
        dev->free_cbs[dev->nfree_cbs++] = cb;
    else
        dev->vk.vkFreeCommandBuffers(dev->device, dev->cmd_pool, 1, &cb);
}

VkCommandBuffer wg__pending_cb(wg_device *dev) {
    if (!dev->pending_open) {
        dev->pending = wg__cmd_acquire(dev);
        if (!dev->pending)
            return VK_NULL_HANDLE;
        dev->pending_open = true;
        dev->npend_writes = 0;
    }
    return dev->pending;
}

void wg__pending_write(wg_device *dev, const void *buf, uint64_t start, uint64_t end) {
    bool need = dev->npend_writes == 64;
    for (uint32_t i = 0; i < dev->npend_writes && !need; i++)
        need = dev->pend_writes[i].buf == buf && dev->pend_writes[i].start < end && start < dev->pend_writes[i].end;
    if (need) {
        wg__barrier(dev, dev->pending, false);
        dev->npend_writes = 0;
    }
    dev->pend_writes[dev->npend_writes++] = (struct wg_pending_write){ buf, start, end };
}

uint64_t wg__submit(wg_device *dev, VkCommandBuffer *cbs, uint32_t n) {
    if (dev->lost)
        return 0;
    VkCommandBuffer all[65];
    uint32_t total = 0;
    if (!wg__grow(&dev->alloc, (void **)&dev->inflight, &dev->capinflight, dev->ninflight + n + 1,
                  sizeof *dev->inflight)) {
        wg__err(dev, WG_ERR_HOST_OOM, "submission list");
        return 0;
    }
    if (dev->pending_open) {
        wg__barrier(dev, dev->pending, true);
        VkResult r = dev->vk.vkEndCommandBuffer(dev->pending);
        dev->pending_open = false;
        if (r != VK_SUCCESS) {
            wg__check_vk(dev, r, "vkEndCommandBuffer");
            wg__cmd_recycle(dev, dev->pending);
            dev->pending = VK_NULL_HANDLE;
            return 0;
        }
        all[total++] = dev->pending;
        dev->pending = VK_NULL_HANDLE;
    }
    uint32_t first_user = total;
    for (uint32_t i = 0; i < n && total < 65; i++)
        all[total++] = cbs[i];
    if (total == 0)
        return 0;
    uint64_t serial = dev->next_serial;
    VkTimelineSemaphoreSubmitInfo ts = { .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                         .signalSemaphoreValueCount = 1, .pSignalSemaphoreValues = &serial };
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ts, .commandBufferCount = total,
                        .pCommandBuffers = all, .signalSemaphoreCount = 1, .pSignalSemaphores = &dev->timeline };
    VkResult r = dev->vk.vkQueueSubmit(dev->vkq, 1, &si, VK_NULL_HANDLE);
    if (r != VK_SUCCESS) {
        wg__check_vk(dev, r, "vkQueueSubmit");
        if (first_user)
            wg__cmd_recycle(dev, all[0]);
        return 0;
    }
    for (uint32_t i = 0; i < total; i++)
        dev->inflight[dev->ninflight++] = (wg_inflight){ all[i], serial };
    dev->next_serial++;
    dev->stats.submits++;
    return serial;
}

uint64_t wg__flush_pending(wg_device *dev) {
    if (!dev->pending_open)
        return 0;
    return wg__submit(dev, NULL, 0);
}

static void garbage_destroy(wg_device *dev, wg_garbage *g) {
    if (dev->abandoned) {   /* the Vulkan object is leaked with its device; its memory block too */
        return;
    }
    switch (g->kind) {
    case WG_GARBAGE_BUFFER:
        dev->vk.vkDestroyBuffer(dev->device, (VkBuffer)(uintptr_t)g->handle, NULL);
        wg__mem_free(dev, &g->mem);
        break;
    case WG_GARBAGE_DESCRIPTOR_SET: {
        VkDescriptorSet s = (VkDescriptorSet)(uintptr_t)g->handle;
        VkDescriptorPool pool = (VkDescriptorPool)(uintptr_t)g->aux;
        /* keep it for the next bind group of the same layout (saves an allocation per group) */
        if (g->aux2 && g->aux2 <= dev->nset_layouts) {
            wg_cached_set_layout *c = &dev->set_layouts[g->aux2 - 1];
            if (c->nfree < 4096 &&
                wg__grow(&dev->alloc, (void **)&c->free_sets, &c->capfree, c->nfree + 1, sizeof *c->free_sets)) {
                c->free_sets[c->nfree++] = (struct wg_free_set){ s, pool };
                break;
            }
        }
        dev->vk.vkFreeDescriptorSets(dev->device, pool, 1, &s);
        break;
    }
    case WG_GARBAGE_QUERY_POOL:
        dev->vk.vkDestroyQueryPool(dev->device, (VkQueryPool)(uintptr_t)g->handle, NULL);
        break;
    }
}

void wg__defer(wg_device *dev, const wg_garbage *g) {
    wg_garbage copy = *g;
    if (g->serial <= dev->completed && !dev->lost) {
        garbage_destroy(dev, &copy);
        return;
    }
    if (!wg__grow(&dev->alloc, (void **)&dev->garbage, &dev->capgarbage, dev->ngarbage + 1, sizeof *dev->garbage)) {
        if (dev->lost)   /* the GPU may never answer: leak it */
            return;
        /* No room to remember it: wait for the GPU instead. */
        wg__wait_serial(dev, g->serial, UINT64_MAX);
        dev->vk.vkDeviceWaitIdle(dev->device);
        garbage_destroy(dev, &copy);
        return;
    }
    dev->garbage[dev->ngarbage++] = copy;
}

void wg__garbage_collect(wg_device *dev, bool all) {
    size_t k = 0;
    for (size_t i = 0; i < dev->ngarbage; i++) {
        if (all || (!dev->lost && dev->garbage[i].serial <= dev->completed))
            garbage_destroy(dev, &dev->garbage[i]);
        else
            dev->garbage[k++] = dev->garbage[i];
    }
    dev->ngarbage = k;
}

void wg__retire(wg_device *dev) {
    if (!dev->lost && !dev->abandoned) {
        uint64_t v = 0;
        VkResult r = dev->vk.vkGetSemaphoreCounterValue(dev->device, dev->timeline, &v);
        if (r == VK_SUCCESS) {
            if (v > dev->completed)
                dev->completed = v;
        } else {
            wg__check_vk(dev, r, "vkGetSemaphoreCounterValue");
        }
    }
    size_t k = 0;
    for (size_t i = 0; i < dev->ninflight; i++) {
        if (dev->inflight[i].serial <= dev->completed)
            wg__cmd_recycle(dev, dev->inflight[i].cb);
        else
            dev->inflight[k++] = dev->inflight[i];
    }
    dev->ninflight = k;
    wg__garbage_collect(dev, false);
    wg__buffer_complete_maps(dev);
}

/* The lost-device wait: slow is not hung.  The device is lost only when no submission finished
 * for a whole lost timeout T, so a long chain of submissions on a loaded machine (each finishing,
 * none quickly) never trips it, while one that never ends does.  The first wait is for `serial`
 * itself (one wake-up in the common case); when it passes T with some submission finished in
 * between, the wait goes on one submission at a time, each given T from the last finish seen.
 * So a hang is declared between T and 2T after the last submission finished, never before T. */
static wg_status wait_progress(wg_device *dev, uint64_t serial) {
    uint64_t T = dev->lost_timeout_ns, seen = dev->completed, target = serial;
    for (;;) {
        VkSemaphoreWaitInfo wi = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                                   .pSemaphores = &dev->timeline, .pValues = &target };
        VkResult r = dev->vk.vkWaitSemaphores(dev->device, &wi, T);
        if (r != VK_SUCCESS && r != VK_TIMEOUT) {
            wg__check_vk(dev, r, "vkWaitSemaphores");
            return dev->lost ? WG_STATUS_DEVICE_LOST : WG_STATUS_ERROR;
        }
        uint64_t v = 0;
        r = dev->vk.vkGetSemaphoreCounterValue(dev->device, dev->timeline, &v);
        if (r != VK_SUCCESS) {
            wg__check_vk(dev, r, "vkGetSemaphoreCounterValue");
            return dev->lost ? WG_STATUS_DEVICE_LOST : WG_STATUS_ERROR;
        }
        if (v >= serial)
            break;
        if (v <= seen) {
            wg__lose(dev, WG_DEVICE_LOST_TIMEOUT,
                     "no submission finished for %llu ms (submission %llu of %llu did not finish)",
                     (unsigned long long)(T / 1000000), (unsigned long long)(v + 1), (unsigned long long)serial);
            return WG_STATUS_DEVICE_LOST;
        }
        seen = v;        /* progress: give the next submission a whole T */
        target = v + 1;
        dev->stats.slow_waits++;
    }
    wg__retire(dev);
    return dev->lost ? WG_STATUS_DEVICE_LOST : WG_STATUS_OK;
}

wg_status wg__wait_serial(wg_device *dev, uint64_t serial, uint64_t timeout_ns) {
    if (dev->lost)
        return WG_STATUS_DEVICE_LOST;
    if (serial >= dev->next_serial)
        serial = dev->next_serial - 1;
    if (serial <= dev->completed) {
        wg__retire(dev);
        return dev->lost ? WG_STATUS_DEVICE_LOST : WG_STATUS_OK;
    }
    uint64_t t = timeout_ns == UINT64_MAX ? dev->lost_timeout_ns : timeout_ns;
    /* Poll briefly before sleeping in the driver: a short batch finishes within tens of
     * microseconds, and waking from a blocking wait costs about that much again.  Not on a CPU
     * adapter, whose work needs the cores we would spin on. */
    if (dev->adapter->info.type != WG_ADAPTER_TYPE_CPU) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (;;) {
            uint64_t v = 0;
            if (dev->vk.vkGetSemaphoreCounterValue(dev->device, dev->timeline, &v) != VK_SUCCESS)
                break;
            if (v >= serial) {
                wg__retire(dev);
                return dev->lost ? WG_STATUS_DEVICE_LOST : WG_STATUS_OK;
            }
            clock_gettime(CLOCK_MONOTONIC, &t1);
            int64_t ns = (int64_t)(t1.tv_sec - t0.tv_sec) * 1000000000 + (t1.tv_nsec - t0.tv_nsec);
            if (ns > 200000 || (uint64_t)ns >= t)
                break;
        }
    }
    if (timeout_ns != UINT64_MAX) {
        VkSemaphoreWaitInfo wi = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                                   .pSemaphores = &dev->timeline, .pValues = &serial };
        VkResult r = dev->vk.vkWaitSemaphores(dev->device, &wi, t);
        if (r == VK_TIMEOUT)
            return WG_STATUS_TIMEOUT;
        if (r != VK_SUCCESS) {
            wg__check_vk(dev, r, "vkWaitSemaphores");
            return dev->lost ? WG_STATUS_DEVICE_LOST : WG_STATUS_ERROR;
        }
        wg__retire(dev);
        return dev->lost ? WG_STATUS_DEVICE_LOST : WG_STATUS_OK;
    }
    return wait_progress(dev, serial);
}

void wg_device_poll(wg_device *dev, bool wait) {
    if (!dev)
        return;
    if (wait) {
        wg__flush_pending(dev);
        wg__wait_serial(dev, dev->next_serial - 1, UINT64_MAX);
    } else {
        wg__retire(dev);
    }
}

wg_status wg_queue_wait(wg_queue *q, uint64_t timeout_ns) {
    if (!q)
        return WG_STATUS_ERROR;
    wg_device *dev = q->dev;
    if (dev->lost)
        return WG_STATUS_DEVICE_LOST;
    wg__flush_pending(dev);
    return wg__wait_serial(dev, dev->next_serial - 1, timeout_ns);
}

static bool submit_check(wg_device *dev, wg_command_buffer *cb) {
    if (!cb) {
        wg__err(dev, WG_ERR_NULL_OBJECT, "command buffer is NULL");
        return false;
    }
    if (cb->o.dev != dev) {
        wg__err(dev, WG_ERR_WRONG_DEVICE, "command buffer '%s'", wg__label(cb));
        return false;
    }
    if (cb->submitted) {
        wg__err(dev, WG_ERR_CMDBUF_SUBMITTED, "command buffer '%s'", wg__label(cb));
        return false;
    }
    if (cb->o.invalid) {
        wg__err(dev, WG_ERR_CMDBUF_INVALID, "command buffer '%s'", wg__label(cb));
        return false;
    }
    for (size_t i = 0; i < cb->nused; i++) {
        wg_obj *o = cb->used[i];
        if (o->kind == WG_OBJ_BUFFER) {
            wg_buffer *b = (wg_buffer *)o;
            if (b->destroyed) {
                wg__err(dev, WG_ERR_SUBMIT_DESTROYED_BUFFER, "buffer '%s' in command buffer '%s'", wg__label(b),
                        wg__label(cb));
                return false;
            }
            if (b->map_state != WG_MAP_UNMAPPED) {
                wg__err(dev, WG_ERR_SUBMIT_MAPPED_BUFFER, "buffer '%s' in command buffer '%s'", wg__label(b),
                        wg__label(cb));
                return false;
            }
        } else if (o->kind == WG_OBJ_QUERY_SET && ((wg_query_set *)o)->destroyed) {
            wg__err(dev, WG_ERR_SUBMIT_DESTROYED_QUERY, "query set '%s' in command buffer '%s'", wg__label(o),
                    wg__label(cb));
            return false;
        }
    }
    return true;
}

uint64_t wg_queue_submit(wg_queue *q, size_t count, wg_command_buffer *const *cbs) {
    if (!q)
        return 0;
    wg_device *dev = q->dev;
    uint64_t serial = 0;
    bool ok = !dev->lost;
    if (count > 64) {
        wg__err(dev, WG_ERR_SUBMIT_TOO_MANY, "%zu command buffers", count);
        ok = false;
    }
    if (ok && count && !cbs) {
        wg__err(dev, WG_ERR_NULL_OBJECT, "%zu command buffers but the array is NULL", count);
        ok = false;
    }
    for (size_t i = 0; ok && i < count; i++)
        ok = submit_check(dev, cbs[i]);
    for (size_t i = 0; ok && i < count; i++)
        for (size_t j = 0; j < i; j++)
            if (cbs[i] == cbs[j]) {
                wg__err(dev, WG_ERR_CMDBUF_SUBMITTED, "command buffer '%s' twice in one submit", wg__label(cbs[i]));
                ok = false;
            }
    if (ok) {
        VkCommandBuffer vk[64];
        for (size_t i = 0; i < count; i++)
            vk[i] = cbs[i]->cb;
        serial = wg__submit(dev, vk, (uint32_t)count);
        if (serial) {
            for (size_t i = 0; i < count; i++) {
                wg_command_buffer *cb = cbs[i];
                for (size_t k = 0; k < cb->nused; k++)
                    cb->used[k]->last_use = serial;
                cb->submitted = true;
                cb->cb = VK_NULL_HANDLE;  /* now owned by the in-flight list */
            }
        }
    }
    for (size_t i = 0; cbs && i < count; i++)
        if (cbs[i] && cbs[i]->o.dev == dev)
            wg_command_buffer_release(cbs[i]);
    return serial;
}
