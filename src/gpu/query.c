/* query.c - timestamp query sets: a VkQueryPool reset on the host at creation (hostQueryReset)
 * or in the pending command buffer; written by encoders and passes (encoder.c); read back in
 * nanoseconds on the host (ticks masked to timestampValidBits, times timestampPeriod). */
#include <stdio.h>

#include "gpu/internal.h"

wg_query_set *wg_device_create_query_set(wg_device *dev, const wg_query_set_desc *desc) {
    if (!dev)
        return NULL;
    static const wg_query_set_desc zero;
    if (!desc)
        desc = &zero;
    wg_query_set *qs = wg__obj_new(dev, WG_OBJ_QUERY_SET, sizeof *qs, desc->label);
    if (!qs)
        return NULL;
    qs->o.invalid = true;
    if (dev->lost)
        return qs;
    if ((unsigned)desc->type >= WG_QUERY_TYPE_COUNT) {
        wg__err(dev, WG_ERR_BAD_ENUM, "query set '%s' type %d", wg__label(qs), (int)desc->type);
        return qs;
    }
    if (!(dev->features & WG_FEATURE_BIT(WG_FEATURE_TIMESTAMP_QUERY))) {
        wg__err(dev, WG_ERR_FEATURE_NOT_ENABLED, "query set '%s' needs timestamp-query", wg__label(qs));
        return qs;
    }
    if (desc->count == 0 || desc->count > 4096) {
        wg__err(dev, WG_ERR_QUERY_COUNT, "query set '%s' count %u", wg__label(qs), desc->count);
        return qs;
    }
    VkQueryPoolCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                 .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = desc->count };
    VkResult r = dev->vk.vkCreateQueryPool(dev->device, &ci, NULL, &qs->pool);
    if (r != VK_SUCCESS) {
        qs->pool = VK_NULL_HANDLE;
        wg__check_vk(dev, r, "vkCreateQueryPool");
        return qs;
    }
    if (dev->host_query_reset) {
        dev->vk.vkResetQueryPool(dev->device, qs->pool, 0, desc->count);
    } else {
        VkCommandBuffer cb = wg__pending_cb(dev);
        if (cb)
            dev->vk.vkCmdResetQueryPool(cb, qs->pool, 0, desc->count);
        qs->o.last_use = dev->next_serial;
    }
    qs->type = desc->type;
    qs->count = desc->count;
    qs->o.invalid = false;
    return qs;
}

static void pool_release(wg_query_set *qs) {
    if (!qs->pool)
        return;
    wg_garbage g = { .kind = WG_GARBAGE_QUERY_POOL, .serial = qs->o.last_use, .handle = (uint64_t)(uintptr_t)qs->pool };
    wg__defer(qs->o.dev, &g);
    qs->pool = VK_NULL_HANDLE;
}

void wg__query_set_free(wg_obj *o) {
    pool_release((wg_query_set *)o);
}

void wg_query_set_destroy(wg_query_set *qs) {
    if (!qs || qs->o.invalid || qs->destroyed)
        return;
    qs->destroyed = true;
    pool_release(qs);
}

wg_status wg_query_set_read_ns(wg_query_set *qs, uint32_t first, uint32_t count, uint64_t *ns) {
    if (!qs)
        return WG_STATUS_ERROR;
    wg_device *dev = qs->o.dev;
    if (dev->lost)
        return WG_STATUS_DEVICE_LOST;
    if (!wg__check_obj(dev, qs, "query set"))
        return WG_STATUS_ERROR;
    if (qs->destroyed) {
        wg__err(dev, WG_ERR_QUERY_SET_DESTROYED, "query set '%s'", wg__label(qs));
        return WG_STATUS_ERROR;
    }
    if (first > qs->count || count > qs->count - first || (count && !ns)) {
        wg__err(dev, WG_ERR_QUERY_INDEX, "query set '%s' read [%u, +%u) of %u", wg__label(qs), first, count, qs->count);
        return WG_STATUS_ERROR;
    }
    if (qs->o.last_use >= dev->next_serial)
        wg__flush_pending(dev);
    wg_status st = wg__wait_serial(dev, qs->o.last_use, UINT64_MAX);
    if (st != WG_STATUS_OK)
        return st;
    unsigned bits = dev->adapter->timestamp_valid_bits;
    uint64_t mask = bits >= 64 ? UINT64_MAX : ((1ull << bits) - 1);
    double period = dev->adapter->info.timestamp_period_ns;
    while (count) {
        uint64_t tmp[128];
        uint32_t n = count < 64 ? count : 64;
        VkResult r = dev->vk.vkGetQueryPoolResults(dev->device, qs->pool, first, n, sizeof tmp, tmp, 16,
                                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
        if (r != VK_SUCCESS && r != VK_NOT_READY) {
            wg__check_vk(dev, r, "vkGetQueryPoolResults");
            return dev->lost ? WG_STATUS_DEVICE_LOST : WG_STATUS_ERROR;
        }
        for (uint32_t i = 0; i < n; i++)
            ns[i] = tmp[2 * i + 1] ? (uint64_t)((double)(tmp[2 * i] & mask) * period) : 0;
        ns += n;
        first += n;
        count -= n;
    }
    return WG_STATUS_OK;
}
